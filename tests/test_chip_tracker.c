/*
 * test_chip_tracker.c - the chip tracker (vision/chip_tracker.h) on
 * synthetic chip detection sequences over the simulated table's calibration
 * (positions chosen in felt millimetres, mapped to image pixels with
 * fw_calib_to_image), then through real pixels: chips drawn with
 * fw_chips_draw, found by fw_chips_detect. Also fw_chips_draw itself.
 */
#include <math.h>

#include "chip_tracker.h"
#include "chips.h"
#include "harness.h"

enum { MAXCHIPS = 64, MAXLOG = 64 };

/* a chip on the synthetic table */
typedef struct schip {
    double x, y;   /* felt mm, centre */
    int64_t value; /* 0: a chip of no calibrated colour */
    int on;        /* detected on this frame */
} schip;

static fw_calib *CAL;
static fw_chip_tracker *TR;
static fw_event LOG[MAXLOG];
static int NLOG;
static double NOW;
static int FRAME_RC;

/* centres of the bet zones of calibration/sim_table.json, and the unit
 * vector along each zone's long (240 mm) side; the short side is 160 mm */
static const double BET[10][4] = {{0, 0, 0, 0},
                                  {842, 834.5, 0.8083, 0.5875},
                                  {621, 689.5, 0.3083, 0.95},
                                  {621, 510.5, 0.3083, -0.95},
                                  {842, 365.5, 0.8083, -0.5875},
                                  {1200, 310, 1, 0},
                                  {1558, 365.5, 0.8083, 0.5875},
                                  {1779, 510.5, 0.3083, 0.95},
                                  {1779, 689.5, 0.3083, -0.95},
                                  {1558, 834.5, 0.8083, -0.5875}};

/* a chip in seat's bet zone, `along` mm along its long side and `across`
 * mm across it from its centre */
static schip chip_in(int seat, double along, double across, int64_t value)
{
    const double *b = BET[seat];
    schip c;
    c.x = b[0] + along * b[2] - across * b[3];
    c.y = b[1] + along * b[3] + across * b[2];
    c.value = value;
    c.on = 1;
    return c;
}

static fw_chip_obs to_obs(const schip *c)
{
    fw_chip_obs o;
    double px, py;
    memset(&o, 0, sizeof o);
    fw_calib_to_image(CAL, c->x, c->y, &px, &py);
    o.center[0] = (float)px;
    o.center[1] = (float)py;
    o.radius = 20;
    o.value = c->value;
    o.confidence = c->value > 0 ? 0.9f : 0.0f;
    snprintf(o.color, sizeof o.color, "%s", c->value > 0 ? "black" : "pink");
    return o;
}

static int setup(const fw_chip_tracker_options *opt)
{
    NLOG = 0;
    NOW = 0;
    FRAME_RC = 0;
    CAL = NULL;
    TR = NULL;
    if (fw_calib_default(&CAL) != FW_OK)
        return 0;
    return fw_chip_tracker_new(CAL, opt, &TR) == FW_OK;
}

static void teardown(void)
{
    fw_chip_tracker_free(TR);
    fw_calib_free(CAL);
    TR = NULL;
    CAL = NULL;
}

/* feed one frame of detections, logging its events */
static void feed(const fw_chip_obs *obs, int n, int max_events)
{
    static fw_event ev[16];
    int ne = -1;
    int rc = fw_chip_tracker_frame(TR, NOW, obs, n, ev, max_events, &ne);
    if (rc != FW_OK)
        FRAME_RC = rc;
    NOW += 1.0 / 30;
    for (int i = 0; i < ne && NLOG < MAXLOG; i++)
        LOG[NLOG++] = ev[i];
}

/* run `frames` frames of the scene (chips with on = 1 are detected) */
static void run(const schip *cs, int nc, int frames)
{
    fw_chip_obs obs[MAXCHIPS];
    for (int f = 0; f < frames; f++) {
        int n = 0;
        for (int i = 0; i < nc && n < MAXCHIPS; i++)
            if (cs[i].on)
                obs[n++] = to_obs(&cs[i]);
        feed(obs, n, 16);
    }
}

static void run_empty(int frames)
{
    run(NULL, 0, frames);
}

/* whether e is a push or pull for seat with exactly values v (in order) */
static int is_ev(const fw_event *e, fw_event_type type, int seat,
                 const int64_t *v, int n)
{
    if (e->type != type || e->seat != seat || e->nchips != n || !e->has_t)
        return 0;
    for (int i = 0; i < n; i++)
        if (e->chips[i] != v[i])
            return 0;
    return 1;
}

#define V(...) ((const int64_t[]){__VA_ARGS__})
#define NV(...) ((int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))
#define IS_PUSH(e, seat, ...)                                                  \
    is_ev(e, FW_EV_PUSH, seat, V(__VA_ARGS__), NV(__VA_ARGS__))
#define IS_PULL(e, seat, ...)                                                  \
    is_ev(e, FW_EV_PULL, seat, V(__VA_ARGS__), NV(__VA_ARGS__))

/*
 * The chip centres used below lie in the bet zones they are meant for (not
 * every point of a bet zone of sim_table.json does: seat 5's card zone
 * covers a third of its bet zone, and seats 2 and 7 win the overlaps with
 * seats 3 and 8).
 */
TEST(zones_sanity)
{
    ASSERT_TRUE(setup(NULL));
    ASSERT_INT_EQ(fw_calib_seats(CAL), 9);
    for (int s = 1; s <= 9; s++) {
        /* the full 3 x 2 grid of the drawn chips on seats 1 and 6 */
        int full = s == 1 || s == 6;
        for (int a = -92; a <= 92; a += 46)
            for (int b = -46; b <= 46; b += 46) {
                if (!full && (a < -46 || a > 46 || b < 0 || (b > 0 && a != 0)))
                    continue;
                if (full && (a == -46 || a == 46))
                    continue;
                schip c = chip_in(s, a, b, 100);
                fw_zone z = fw_calib_zone_at(CAL, c.x, c.y);
                ASSERT_INT_EQ(z.kind, FW_ZONE_SEAT_BET);
                ASSERT_INT_EQ(z.seat, s);
            }
    }
    teardown();
}

/* Chips pushed into a bet zone: one push listing their values. */
TEST(one_push)
{
    ASSERT_TRUE(setup(NULL));
    run_empty(5);
    schip cs[] = {chip_in(3, -46, 0, 100), chip_in(3, 0, 0, 1000),
                  chip_in(3, 46, 0, 100)};
    run(cs, 3, 20);
    ASSERT_INT_EQ(FRAME_RC, FW_OK);
    ASSERT_INT_EQ(NLOG, 1);
    ASSERT_TRUE(IS_PUSH(&LOG[0], 3, 1000, 100, 100));
    int64_t v[4];
    ASSERT_INT_EQ(fw_chip_tracker_content(TR, 3, v, 4), 3);
    ASSERT_INT_EQ(v[0], 1000);
    ASSERT_INT_EQ(v[2], 100);
    ASSERT_INT_EQ(fw_chip_tracker_content(TR, 4, v, 4), 0);
    ASSERT_INT_EQ(fw_chip_tracker_pending(TR), 0);
    teardown();
}

/* Nothing before the K-th frame; the event carries the K-th frame's time. */
TEST(first_frames_silent)
{
    fw_chip_tracker_options o;
    fw_chip_tracker_options_default(&o);
    ASSERT_INT_EQ(o.stable_frames, 3);
    ASSERT_INT_EQ(o.max_missing, 15);
    o.stable_frames = 5;
    ASSERT_TRUE(setup(&o));
    schip c = chip_in(6, 0, 0, 500);
    run(&c, 1, 4);
    ASSERT_INT_EQ(NLOG, 0);
    double t5 = NOW;
    run(&c, 1, 1);
    ASSERT_INT_EQ(NLOG, 1);
    ASSERT_TRUE(IS_PUSH(&LOG[0], 6, 500));
    ASSERT_TRUE(fabs(LOG[0].t - t5) < 1e-9);
    ASSERT_INT_EQ(LOG[0].card, FW_CARD_NONE);
    teardown();
}

/*
 * Chips arriving one after the other before the zone is certain again are
 * one motion; chips added after it was certain are a second push.
 */
TEST(two_motions_two_pushes)
{
    ASSERT_TRUE(setup(NULL));
    schip cs[] = {chip_in(5, -46, 0, 1000), chip_in(5, 46, 0, 100),
                  chip_in(5, 0, 46, 500)};
    cs[1].on = cs[2].on = 0;
    run(cs, 3, 1);
    cs[1].on = 1; /* the second chip lands a frame later: same motion */
    run(cs, 3, 10);
    ASSERT_INT_EQ(NLOG, 1);
    ASSERT_TRUE(IS_PUSH(&LOG[0], 5, 1000, 100));
    cs[2].on = 1;
    run(cs, 3, 10);
    ASSERT_INT_EQ(NLOG, 2);
    ASSERT_TRUE(IS_PUSH(&LOG[1], 5, 500));
    ASSERT_TRUE(LOG[0].t < LOG[1].t);
    ASSERT_INT_EQ(fw_chip_tracker_content(TR, 5, NULL, 0), 3);
    teardown();
}

/* A frame missing a chip or seeing an extra one creates no event. */
TEST(flicker_no_events)
{
    ASSERT_TRUE(setup(NULL));
    schip cs[] = {chip_in(2, -46, 0, 100), chip_in(2, 0, 0, 100),
                  chip_in(2, 46, 0, 1000), chip_in(2, 0, 46, 25)};
    cs[3].on = 0;
    run(cs, 4, 10);
    ASSERT_INT_EQ(NLOG, 1);
    for (int round = 0; round < 10; round++) {
        cs[round % 3].on = 0; /* one chip missed */
        run(cs, 4, 1);
        cs[round % 3].on = 1;
        run(cs, 4, round % 3); /* 0..2 good frames between */
        cs[3].on = 1;          /* a chip seen that is not there */
        run(cs, 4, 1);
        cs[3].on = 0;
        run(cs, 4, 1);
        cs[0].on = cs[1].on = 0; /* two frames missing different chips */
        run(cs, 4, 1);
        cs[0].on = cs[1].on = 1;
        cs[2].on = 0;
        run(cs, 4, 1);
        cs[2].on = 1;
        run(cs, 4, 1);
    }
    ASSERT_INT_EQ(FRAME_RC, FW_OK);
    ASSERT_INT_EQ(NLOG, 1);
    ASSERT_INT_EQ(fw_chip_tracker_content(TR, 2, NULL, 0), 3);
    teardown();
}

/* A zone seeing none of its chips for up to M frames keeps them. */
TEST(occlusion_keeps_content)
{
    ASSERT_TRUE(setup(NULL));
    schip cs[] = {chip_in(8, 0, 0, 5000), chip_in(8, 46, 0, 1000),
                  chip_in(4, 0, 0, 100)};
    run(cs, 3, 6);
    ASSERT_INT_EQ(NLOG, 2);
    /* an arm over seat 8's zone for M = 15 frames, seat 4 still seen */
    cs[0].on = cs[1].on = 0;
    run(cs, 3, 15);
    cs[0].on = cs[1].on = 1;
    run(cs, 3, 10);
    /* and over the whole table for 15 frames */
    run_empty(15);
    run(cs, 3, 10);
    ASSERT_INT_EQ(FRAME_RC, FW_OK);
    ASSERT_INT_EQ(NLOG, 2);
    ASSERT_INT_EQ(fw_chip_tracker_content(TR, 8, NULL, 0), 2);
    ASSERT_INT_EQ(fw_chip_tracker_content(TR, 4, NULL, 0), 1);
    teardown();
}

/* Chips unseen for more than M frames are gone: a pull. */
TEST(long_absence_is_pull)
{
    ASSERT_TRUE(setup(NULL));
    schip cs[] = {chip_in(8, 0, 0, 5000), chip_in(8, 46, 0, 1000)};
    run(cs, 2, 6);
    ASSERT_INT_EQ(NLOG, 1);
    run_empty(15);
    ASSERT_INT_EQ(NLOG, 1);
    run_empty(1);
    ASSERT_INT_EQ(NLOG, 2);
    ASSERT_TRUE(IS_PULL(&LOG[1], 8, 5000, 1000));
    ASSERT_INT_EQ(fw_chip_tracker_content(TR, 8, NULL, 0), 0);
    run_empty(30);
    ASSERT_INT_EQ(NLOG, 2);
    teardown();
}

/* Some chips pulled back: one pull with their values. */
TEST(pull)
{
    ASSERT_TRUE(setup(NULL));
    schip cs[] = {chip_in(9, -46, 0, 100), chip_in(9, 0, 0, 1000),
                  chip_in(9, 46, 0, 100)};
    run(cs, 3, 6);
    cs[0].on = cs[2].on = 0;
    run(cs, 3, 2);
    ASSERT_INT_EQ(NLOG, 1);
    run(cs, 3, 1);
    ASSERT_INT_EQ(NLOG, 2);
    ASSERT_TRUE(IS_PULL(&LOG[1], 9, 100, 100));
    /* change made in the zone: the 1000 taken back, a 500 put in */
    schip c2[] = {cs[1], chip_in(9, -46, 0, 500)};
    c2[0].on = 0;
    run(c2, 2, 5);
    ASSERT_INT_EQ(NLOG, 4);
    ASSERT_TRUE(IS_PULL(&LOG[2], 9, 1000));
    ASSERT_TRUE(IS_PUSH(&LOG[3], 9, 500));
    ASSERT_TRUE(LOG[2].t == LOG[3].t);
    teardown();
}

/*
 * The dealer collects the bets: chips leaving the zones are silent until
 * every zone is empty; then pulls are reported again.
 */
TEST(collect_is_silent)
{
    ASSERT_TRUE(setup(NULL));
    schip cs[] = {chip_in(1, 0, 0, 1000), chip_in(1, 46, 0, 100),
                  chip_in(7, 0, 0, 1000), chip_in(7, 46, 0, 100)};
    run(cs, 4, 5);
    ASSERT_INT_EQ(NLOG, 2);
    ASSERT_INT_EQ(fw_chip_tracker_collecting(TR), 0);
    fw_chip_tracker_collect(TR);
    ASSERT_INT_EQ(fw_chip_tracker_collecting(TR), 1);
    cs[1].on = 0; /* part of seat 1's bet swept first */
    run(cs, 4, 5);
    cs[0].on = 0;
    run(cs, 4, 20);
    ASSERT_INT_EQ(fw_chip_tracker_content(TR, 1, NULL, 0), 0);
    ASSERT_INT_EQ(fw_chip_tracker_collecting(TR), 1); /* seat 7 still full */
    cs[2].on = cs[3].on = 0;
    run(cs, 4, 20);
    ASSERT_INT_EQ(NLOG, 2);
    ASSERT_INT_EQ(fw_chip_tracker_collecting(TR), 0);
    /* the next street: a bet and a pull are reported again */
    cs[2].on = cs[3].on = 1;
    run(cs, 4, 5);
    cs[3].on = 0;
    run(cs, 4, 5);
    ASSERT_INT_EQ(NLOG, 4);
    ASSERT_TRUE(IS_PUSH(&LOG[2], 7, 1000, 100));
    ASSERT_TRUE(IS_PULL(&LOG[3], 7, 100));
    /* a collect with nothing on the felt is over at once */
    cs[2].on = 0;
    run(cs, 4, 20);
    ASSERT_INT_EQ(NLOG, 5);
    fw_chip_tracker_collect(TR);
    ASSERT_INT_EQ(fw_chip_tracker_collecting(TR), 0);
    teardown();
}

/*
 * A new hand: chips left from the last one leave silently, chips still
 * lying there are not pushed again, new chips are pushes.
 */
TEST(reset)
{
    ASSERT_TRUE(setup(NULL));
    schip cs[] = {chip_in(2, 0, 0, 1000), chip_in(6, 0, 0, 500),
                  chip_in(6, 46, 0, 25)};
    run(cs, 3, 5);
    ASSERT_INT_EQ(NLOG, 2);
    fw_chip_tracker_reset(TR);
    ASSERT_INT_EQ(fw_chip_tracker_collecting(TR), 1);
    cs[0].on = 0;
    run(cs, 3, 30);
    ASSERT_INT_EQ(NLOG, 2);
    ASSERT_INT_EQ(fw_chip_tracker_content(TR, 6, NULL, 0), 2);
    cs[1].on = cs[2].on = 0;
    run(cs, 3, 30);
    ASSERT_INT_EQ(NLOG, 2);
    ASSERT_INT_EQ(fw_chip_tracker_collecting(TR), 0);
    cs[0].on = 1;
    run(cs, 3, 5);
    ASSERT_INT_EQ(NLOG, 3);
    ASSERT_TRUE(IS_PUSH(&LOG[2], 2, 1000));
    /* undelivered events are dropped by a reset */
    cs[1].on = 1;
    run(cs, 3, 2);
    fw_event ev[1];
    int ne = -1;
    fw_chip_obs obs[3];
    for (int i = 0; i < 2; i++)
        obs[i] = to_obs(&cs[i]);
    ASSERT_INT_EQ(fw_chip_tracker_frame(TR, NOW, obs, 2, ev, 0, &ne), FW_OK);
    ASSERT_INT_EQ(ne, 0);
    ASSERT_INT_EQ(fw_chip_tracker_pending(TR), 1);
    fw_chip_tracker_reset(TR);
    ASSERT_INT_EQ(fw_chip_tracker_pending(TR), 0);
    teardown();
}

/* Chips of no calibrated colour (value 0) are ignored, and counted. */
TEST(unknown_chips_ignored)
{
    ASSERT_TRUE(setup(NULL));
    schip cs[] = {chip_in(4, 0, 0, 0), chip_in(4, 46, 0, 0),
                  chip_in(4, -46, 0, 100)};
    cs[2].on = 0;
    run(cs, 3, 10);
    ASSERT_INT_EQ(NLOG, 0);
    int unknown = -1, outside = -1;
    fw_chip_tracker_ignored(TR, &unknown, &outside);
    ASSERT_INT_EQ(unknown, 2);
    ASSERT_INT_EQ(outside, 0);
    ASSERT_INT_EQ(fw_chip_tracker_unknown(TR, 4), 2);
    ASSERT_INT_EQ(fw_chip_tracker_unknown(TR, 3), 0);
    ASSERT_INT_EQ(fw_chip_tracker_unknown(TR, 42), 0);
    /* a known chip beside them: its push lists only itself */
    cs[2].on = 1;
    run(cs, 3, 5);
    ASSERT_INT_EQ(NLOG, 1);
    ASSERT_TRUE(IS_PUSH(&LOG[0], 4, 100));
    /* an unknown chip flickering changes nothing */
    cs[1].on = 0;
    run(cs, 3, 1);
    cs[1].on = 1;
    run(cs, 3, 1);
    ASSERT_INT_EQ(NLOG, 1);
    ASSERT_INT_EQ(fw_chip_tracker_unknown(TR, 4), 2);
    teardown();
}

/* A chip outside every bet zone is ignored, and counted. */
TEST(outside_chip_ignored)
{
    ASSERT_TRUE(setup(NULL));
    /* the board, seat 3's card zone, the felt's corner and off the felt */
    schip cs[] = {{1200, 560, 1000, 1},
                  {381.25, 473.25, 100, 1},
                  {60, 60, 500, 1},
                  {-300, -300, 25, 1}};
    for (int i = 0; i < 4; i++)
        ASSERT_INT_NE(fw_calib_zone_at(CAL, cs[i].x, cs[i].y).kind,
                      FW_ZONE_SEAT_BET);
    run(cs, 4, 20);
    ASSERT_INT_EQ(NLOG, 0);
    int unknown = -1, outside = -1;
    fw_chip_tracker_ignored(TR, &unknown, &outside);
    ASSERT_INT_EQ(unknown, 0);
    ASSERT_INT_EQ(outside, 4);
    for (int s = 1; s <= 9; s++)
        ASSERT_INT_EQ(fw_chip_tracker_content(TR, s, NULL, 0), 0);
    /* a detection with a non-finite centre is outside too */
    fw_chip_obs o = to_obs(&cs[0]);
    o.center[0] = NAN;
    feed(&o, 1, 16);
    fw_chip_tracker_ignored(TR, NULL, &outside);
    ASSERT_INT_EQ(outside, 1);
    teardown();
}

/* Events of one frame are in seat order, whatever the detection order. */
TEST(seat_order)
{
    ASSERT_TRUE(setup(NULL));
    schip cs[] = {chip_in(9, 0, 0, 25), chip_in(2, 0, 0, 100),
                  chip_in(5, 0, 0, 500)};
    run(cs, 3, 3);
    ASSERT_INT_EQ(NLOG, 3);
    ASSERT_TRUE(IS_PUSH(&LOG[0], 2, 100));
    ASSERT_TRUE(IS_PUSH(&LOG[1], 5, 500));
    ASSERT_TRUE(IS_PUSH(&LOG[2], 9, 25));
    teardown();
}

/* Events that do not fit the caller's array come on the next calls. */
TEST(small_event_array)
{
    ASSERT_TRUE(setup(NULL));
    schip cs[] = {chip_in(1, 0, 0, 25), chip_in(3, 0, 0, 100),
                  chip_in(8, 0, 0, 500)};
    fw_chip_obs obs[3];
    for (int i = 0; i < 3; i++)
        obs[i] = to_obs(&cs[i]);
    for (int f = 0; f < 3; f++)
        feed(obs, 3, 1);
    ASSERT_INT_EQ(NLOG, 1);
    ASSERT_INT_EQ(fw_chip_tracker_pending(TR), 2);
    feed(obs, 3, 1);
    feed(obs, 3, 16);
    ASSERT_INT_EQ(NLOG, 3);
    ASSERT_TRUE(IS_PUSH(&LOG[0], 1, 25));
    ASSERT_TRUE(IS_PUSH(&LOG[1], 3, 100));
    ASSERT_TRUE(IS_PUSH(&LOG[2], 8, 500));
    ASSERT_TRUE(LOG[2].t == LOG[0].t); /* the time the change was certain */
    ASSERT_INT_EQ(FRAME_RC, FW_OK);
    teardown();
}

/* Bad arguments fail cleanly; NULL trackers are accepted where documented. */
TEST(bad_arguments)
{
    fw_chip_tracker *t = (fw_chip_tracker *)1;
    ASSERT_INT_EQ(fw_chip_tracker_new(NULL, NULL, &t), FW_EINVAL);
    ASSERT_TRUE(t == NULL);
    ASSERT_INT_EQ(fw_chip_tracker_new(NULL, NULL, NULL), FW_EINVAL);
    ASSERT_TRUE(setup(NULL));
    fw_event ev[2];
    int ne = -1;
    ASSERT_INT_EQ(fw_chip_tracker_frame(NULL, 0, NULL, 0, ev, 2, &ne),
                  FW_EINVAL);
    ASSERT_INT_EQ(ne, 0);
    ASSERT_INT_EQ(fw_chip_tracker_frame(TR, 0, NULL, 1, ev, 2, &ne), FW_EINVAL);
    ASSERT_INT_EQ(fw_chip_tracker_frame(TR, 0, NULL, -1, ev, 2, &ne),
                  FW_EINVAL);
    ASSERT_INT_EQ(fw_chip_tracker_frame(TR, 0, NULL, 0, NULL, 2, &ne),
                  FW_EINVAL);
    ASSERT_INT_EQ(fw_chip_tracker_frame(TR, 0, NULL, 0, ev, 2, NULL),
                  FW_EINVAL);
    ASSERT_TRUE(strlen(fw_last_error()) > 0);
    ASSERT_INT_EQ(fw_chip_tracker_frame(TR, 0, NULL, 0, NULL, 0, &ne), FW_OK);
    fw_chip_tracker_reset(NULL);
    fw_chip_tracker_collect(NULL);
    fw_chip_tracker_free(NULL);
    ASSERT_INT_EQ(fw_chip_tracker_pending(NULL), 0);
    ASSERT_INT_EQ(fw_chip_tracker_collecting(NULL), 0);
    ASSERT_INT_EQ(fw_chip_tracker_content(NULL, 1, NULL, 0), 0);
    ASSERT_INT_EQ(fw_chip_tracker_content(TR, 0, NULL, 0), 0);
    ASSERT_INT_EQ(fw_chip_tracker_content(TR, 10, NULL, 0), 0);
    /* more detections than a frame reads, and than a zone holds */
    static fw_chip_obs many[FW_CHIP_TRACKER_MAX_OBS + 10];
    schip c = chip_in(5, 0, 0, 100);
    for (int i = 0; i < FW_CHIP_TRACKER_MAX_OBS + 10; i++)
        many[i] = to_obs(&c);
    for (int f = 0; f < 3; f++)
        feed(many, FW_CHIP_TRACKER_MAX_OBS + 10, 16);
    ASSERT_INT_EQ(NLOG, 1);
    ASSERT_INT_EQ(LOG[0].nchips, FW_CHIP_TRACKER_MAX_ZONE);
    ASSERT_INT_EQ(FRAME_RC, FW_OK);
    teardown();
}

/* ------------------------------------------------------------------ */
/* Real pixels: fw_chips_draw, fw_chips_detect, the tracker             */
/* ------------------------------------------------------------------ */

enum { W = 1280, H = 720, RADIUS = 21 };

/* a small deterministic generator for the felt's noise */
static uint32_t rng_next(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/* plain green felt (BGR 40,110,30) with +-3 of noise */
static void felt(uint8_t *img, uint32_t seed)
{
    static const uint8_t bgr[3] = {40, 110, 30};
    uint32_t s = seed * 2654435761u + 1;
    for (size_t i = 0; i < (size_t)W * H * 3; i++)
        img[i] = (uint8_t)(bgr[i % 3] + (int)(rng_next(&s) % 7) - 3);
}

/* the calibrated chip of a value */
static const fw_calib_chip *chip_of(int64_t value)
{
    const fw_calib_chip *set;
    int n = fw_calib_chips(CAL, &set);
    for (int i = 0; i < n; i++)
        if (set[i].value == value)
            return &set[i];
    return NULL;
}

/* draw the chips of cs that are on into img */
static int draw_scene(uint8_t *img, const schip *cs, int nc)
{
    for (int i = 0; i < nc; i++) {
        if (!cs[i].on)
            continue;
        const fw_calib_chip *k = chip_of(cs[i].value);
        double px, py;
        if (!k)
            return -1;
        fw_calib_to_image(CAL, cs[i].x, cs[i].y, &px, &py);
        int rc = fw_chips_draw(img, W, H, W * 3, (float)px, (float)py, RADIUS,
                               k, (uint32_t)i * 7919u + 3);
        if (rc != FW_OK)
            return rc;
    }
    return 0;
}

/* detect chips in img and feed them to the tracker; -1 on failure */
static int detect_and_track(const uint8_t *img, int *nfound)
{
    const fw_calib_chip *set;
    int nset = fw_calib_chips(CAL, &set);
    fw_chip_obs obs[MAXCHIPS];
    int n = 0;
    fw_chips_params prm = {.set = set, .nset = nset};
    if (fw_chips_detect(img, W, H, W * 3, &prm, obs, MAXCHIPS, &n, NULL, 0,
                        NULL) != FW_OK)
        return -1;
    *nfound = n;
    feed(obs, n, 16);
    return 0;
}

/*
 * Chips drawn into two bet zones of the default calibration are found,
 * valued and pushed; more chips added later are a second push per seat
 * with exactly the added values.
 */
TEST(drawn_chips_pushes)
{
    ASSERT_TRUE(setup(NULL));
    uint8_t *img = malloc((size_t)W * H * 3);
    ASSERT_TRUE(img != NULL);
    /* chip centres 92 mm (46 px) apart: radius 21 px, no overlap */
    schip cs[] = {chip_in(1, -92, -46, 1000), chip_in(1, 0, -46, 100),
                  chip_in(1, 92, -46, 100), chip_in(6, -92, -46, 500),
                  chip_in(6, 0, -46, 5000),
                  /* added later */
                  chip_in(1, -92, 46, 25), chip_in(1, 0, 46, 500),
                  chip_in(1, 92, 46, 5000), chip_in(6, 0, 46, 1000)};
    const int nc = (int)(sizeof cs / sizeof cs[0]);
    for (int i = 5; i < nc; i++)
        cs[i].on = 0;
    int frame = 0, nfound = 0, bad = 0;
    for (int f = 0; f < 5; f++, frame++) {
        felt(img, (uint32_t)frame);
        if (draw_scene(img, cs, nc) != 0 || detect_and_track(img, &nfound))
            bad = 1;
        if (nfound != 5)
            printf("  frame %d: %d chips found\n", frame, nfound);
    }
    ASSERT_INT_EQ(bad, 0);
    ASSERT_INT_EQ(NLOG, 2);
    ASSERT_TRUE(IS_PUSH(&LOG[0], 1, 1000, 100, 100));
    ASSERT_TRUE(IS_PUSH(&LOG[1], 6, 5000, 500));
    for (int i = 5; i < nc; i++)
        cs[i].on = 1;
    for (int f = 0; f < 5; f++, frame++) {
        felt(img, (uint32_t)frame);
        if (draw_scene(img, cs, nc) != 0 || detect_and_track(img, &nfound))
            bad = 1;
        if (nfound != nc)
            printf("  frame %d: %d chips found\n", frame, nfound);
    }
    free(img);
    ASSERT_INT_EQ(bad, 0);
    ASSERT_INT_EQ(FRAME_RC, FW_OK);
    ASSERT_INT_EQ(NLOG, 4);
    ASSERT_TRUE(IS_PUSH(&LOG[2], 1, 5000, 500, 25));
    ASSERT_TRUE(IS_PUSH(&LOG[3], 6, 1000));
    int unknown = -1, outside = -1;
    fw_chip_tracker_ignored(TR, &unknown, &outside);
    ASSERT_INT_EQ(unknown, 0);
    ASSERT_INT_EQ(outside, 0);
    teardown();
}

/*
 * fw_chips_draw writes only the chip's box (half-side ceil(1.4r) + 2),
 * clips at the frame's edges, and its chip is found with its colour.
 */
TEST(draw_one_chip)
{
    enum { DW = 320, DH = 240 };
    static uint8_t img[DH][DW][3];
    fw_calib_chip look;
    const fw_calib_chip *lab = &look;
    ASSERT_INT_EQ(fw_chips_look("red", 0, &look), FW_OK);
    memset(img, 77, sizeof img);
    const float x = 160.3f, y = 120.6f, r = 20.0f;
    ASSERT_INT_EQ(fw_chips_draw(&img[0][0][0], DW, DH, DW * 3, x, y, r, lab, 1),
                  FW_OK);
    int half = (int)ceilf(1.4f * r) + 2, changed = 0, outside = 0;
    for (int py = 0; py < DH; py++)
        for (int px = 0; px < DW; px++) {
            int ch = img[py][px][0] != 77 || img[py][px][1] != 77 ||
                     img[py][px][2] != 77;
            changed += ch;
            if (ch && (fabsf(px - x) > half + 1 || fabsf(py - y) > half + 1))
                outside++;
        }
    ASSERT_TRUE(changed > (int)(3.0f * r * r));
    ASSERT_INT_EQ(outside, 0);
    /* the shadow falls down and to the right */
    ASSERT_TRUE(img[(int)(y + 1.1f * r)][(int)x + 3][0] < 77);
    ASSERT_INT_EQ(img[(int)(y - 1.3f * r)][(int)x - 3][0], 77);

    /* found by the detector, red */
    fw_chip_obs obs[4];
    int n = 0;
    ASSERT_INT_EQ(fw_chips_detect(&img[0][0][0], DW, DH, DW * 3, NULL, obs,
                                  4, &n, NULL, 0, NULL),
                  FW_OK);
    ASSERT_INT_EQ(n, 1);
    ASSERT_STR_EQ(obs[0].color, "red");
    ASSERT_TRUE(fabsf(obs[0].center[0] - x) < 2.0f);
    ASSERT_TRUE(fabsf(obs[0].center[1] - y) < 2.0f);
    ASSERT_TRUE(fabsf(obs[0].radius - r) < 0.15f * r);

    /* deterministic for a seed; another seed turns the edge spots */
    static uint8_t a[DH][DW][3], b[DH][DW][3];
    memset(a, 77, sizeof a);
    memset(b, 77, sizeof b);
    fw_chips_draw(&a[0][0][0], DW, DH, DW * 3, x, y, r, lab, 1);
    fw_chips_draw(&b[0][0][0], DW, DH, DW * 3, x, y, r, lab, 2);
    ASSERT_TRUE(memcmp(a, img, sizeof a) == 0);
    ASSERT_TRUE(memcmp(a, b, sizeof a) != 0);

    /* clipped at every edge, off the frame entirely, in a strided buffer */
    static uint8_t big[DH][DW + 10][3];
    memset(big, 5, sizeof big);
    const float at[][2] = {{0, 0},        {DW - 1, DH - 1}, {-10, 60},
                           {DW + 10, 60}, {100, -25},       {100, DH + 20},
                           {-500, -500},  {1e9f, 0}};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++)
        ASSERT_INT_EQ(fw_chips_draw(&big[0][0][0], DW, DH, (DW + 10) * 3,
                                    at[i][0], at[i][1], r, lab, 3),
                      FW_OK);
    for (int py = 0; py < DH; py++)
        for (int px = DW; px < DW + 10; px++)
            ASSERT_INT_EQ(big[py][px][0] + big[py][px][1] + big[py][px][2], 15);
    teardown();
}

/* fw_chips_draw refuses bad arguments with FW_EINVAL and a message. */
TEST(draw_bad_arguments)
{
    static uint8_t img[64 * 64 * 3];
    fw_calib_chip grey = {.lab = {50, 0, 0}};
    const fw_calib_chip *lab = &grey;
    ASSERT_INT_EQ(fw_chips_draw(NULL, 64, 64, 192, 32, 32, 10, lab, 0),
                  FW_EINVAL);
    ASSERT_TRUE(strlen(fw_last_error()) > 0);
    ASSERT_INT_EQ(fw_chips_draw(img, 64, 64, 192, 32, 32, 10, NULL, 0),
                  FW_EINVAL);
    ASSERT_INT_EQ(fw_chips_draw(img, 0, 64, 192, 32, 32, 10, lab, 0),
                  FW_EINVAL);
    ASSERT_INT_EQ(fw_chips_draw(img, 64, 64, 100, 32, 32, 10, lab, 0),
                  FW_EINVAL);
    ASSERT_INT_EQ(fw_chips_draw(img, 64, 64, 192, 32, 32, 0.5f, lab, 0),
                  FW_EINVAL);
    ASSERT_INT_EQ(fw_chips_draw(img, 64, 64, 192, 32, 32, 5000, lab, 0),
                  FW_EINVAL);
    ASSERT_INT_EQ(fw_chips_draw(img, 64, 64, 192, NAN, 32, 10, lab, 0),
                  FW_EINVAL);
    fw_calib_chip bad = {.lab = {50, INFINITY, 0}};
    ASSERT_INT_EQ(fw_chips_draw(img, 64, 64, 192, 32, 32, 10, &bad, 0),
                  FW_EINVAL);
    fw_calib_chip bad_edge = {.lab = {50, 0, 0}, .edge_spots = 6,
                              .edge_lab = {NAN, 0, 0}};
    ASSERT_INT_EQ(fw_chips_draw(img, 64, 64, 192, 32, 32, 10, &bad_edge, 0),
                  FW_EINVAL);
    fw_calib_chip many = {.lab = {50, 0, 0}, .edge_spots = 25};
    ASSERT_INT_EQ(fw_chips_draw(img, 64, 64, 192, 32, 32, 10, &many, 0),
                  FW_EINVAL);
    /* an out-of-gamut colour is clipped, not refused */
    fw_calib_chip vivid = {.lab = {50, 120, -120}};
    ASSERT_INT_EQ(fw_chips_draw(img, 64, 64, 192, 32, 32, 10, &vivid, 0), FW_OK);
    /* six yellow spots on a blue chip: an edge pattern of its own */
    fw_calib_chip six = {.lab = {38, 20, -60}, .edge_spots = 6,
                         .edge_lab = {85, 0, 75}};
    ASSERT_INT_EQ(fw_chips_draw(img, 64, 64, 192, 32, 32, 10, &six, 0), FW_OK);
    ASSERT_INT_EQ(fw_chips_look("mauve", 0, &six), FW_ENOENT);
    ASSERT_INT_EQ(fw_chips_look(NULL, 0, &six), FW_EINVAL);
}

static const fw_test_case tests[] = {
    TEST_CASE(zones_sanity),
    TEST_CASE(one_push),
    TEST_CASE(first_frames_silent),
    TEST_CASE(two_motions_two_pushes),
    TEST_CASE(flicker_no_events),
    TEST_CASE(occlusion_keeps_content),
    TEST_CASE(long_absence_is_pull),
    TEST_CASE(pull),
    TEST_CASE(collect_is_silent),
    TEST_CASE(reset),
    TEST_CASE(unknown_chips_ignored),
    TEST_CASE(outside_chip_ignored),
    TEST_CASE(seat_order),
    TEST_CASE(small_event_array),
    TEST_CASE(bad_arguments),
    TEST_CASE(drawn_chips_pushes),
    TEST_CASE(draw_one_chip),
    TEST_CASE(draw_bad_arguments),
};

TEST_MAIN(tests)
