/*
 * test_tracker.c - the card tracker (vision/tracker.h) on synthetic
 * detection sequences over the simulated table's calibration: positions are
 * chosen in felt millimetres and mapped to image pixels with
 * fw_calib_to_image, so no images are needed.
 */
#include <math.h>

#include "harness.h"
#include "tracker.h"

/* a card on the synthetic table */
typedef struct scard {
    double x, y; /* felt mm, centre */
    int up;
    fw_card card;
    int on; /* detected on this frame */
} scard;

static fw_calib *CAL;
static fw_tracker *TR;
static fw_event LOG[256];
static int NLOG;
static double NOW;
static int FRAME_RC;

static fw_card C(const char *s)
{
    fw_card c;
    fw_card_parse(s, &c);
    return c;
}

static void zone_centre(fw_zone_kind kind, int seat, double *x, double *y)
{
    /* centres of the zones of calibration/sim_table.json */
    static const double seatc[][2] = {{0, 0},        {694, 931.5},
                                      {381.25, 726.75}, {381.25, 473.25},
                                      {694, 268.5}};
    switch (kind) {
    case FW_ZONE_SEAT_CARDS:
        *x = seatc[seat][0];
        *y = seatc[seat][1];
        break;
    case FW_ZONE_BOARD:
        *x = 1200;
        *y = 560;
        break;
    case FW_ZONE_BURN:
        *x = 1070;
        *y = 790;
        break;
    case FW_ZONE_MUCK:
        *x = 1330;
        *y = 790;
        break;
    default:
        *x = 1200;
        *y = 1000;
        break;
    }
}

static scard card_in(fw_zone_kind kind, int seat, double dx, double dy,
                     int up, const char *card)
{
    scard c;
    zone_centre(kind, seat, &c.x, &c.y);
    c.x += dx;
    c.y += dy;
    c.up = up;
    c.card = card ? C(card) : FW_CARD_NONE;
    c.on = 1;
    return c;
}

static fw_card_obs to_obs(const scard *c)
{
    /* a 63 x 88 mm card, axis aligned on the felt */
    static const double off[4][2] = {
        {-31.5, -44}, {31.5, -44}, {31.5, 44}, {-31.5, 44}};
    fw_card_obs o;
    memset(&o, 0, sizeof o);
    o.card = c->up ? c->card : FW_CARD_NONE;
    o.face_up = c->up;
    o.confidence = c->up ? 0.9f : 0.0f;
    for (int i = 0; i < 4; i++) {
        double px, py;
        fw_calib_to_image(CAL, c->x + off[i][0], c->y + off[i][1], &px, &py);
        o.corners[i][0] = (float)px;
        o.corners[i][1] = (float)py;
    }
    return o;
}

static int setup(const fw_tracker_options *opt)
{
    NLOG = 0;
    NOW = 0;
    FRAME_RC = 0;
    CAL = NULL;
    TR = NULL;
    if (fw_calib_default(&CAL) != FW_OK)
        return 0;
    return fw_tracker_new(CAL, opt, &TR) == FW_OK;
}

static void teardown(void)
{
    fw_tracker_free(TR);
    fw_calib_free(CAL);
    TR = NULL;
    CAL = NULL;
}

/* run `frames` frames of the scene (cards with on = 1 are detected) */
static void run_max(scard *cs, int nc, int frames, int max_events)
{
    fw_card_obs obs[32];
    static fw_event ev[8];
    for (int f = 0; f < frames; f++) {
        int n = 0;
        for (int i = 0; i < nc; i++)
            if (cs[i].on)
                obs[n++] = to_obs(&cs[i]);
        int ne = 0;
        int rc = fw_tracker_frame(TR, NOW, obs, n, ev, max_events, &ne);
        if (rc != FW_OK)
            FRAME_RC = rc;
        NOW += 1.0 / 30;
        for (int i = 0; i < ne && NLOG < 256; i++)
            LOG[NLOG++] = ev[i];
    }
}

static void run(scard *cs, int nc, int frames)
{
    run_max(cs, nc, frames, 8);
}

static void run_empty(int frames)
{
    run(NULL, 0, frames);
}

static int is_card(const fw_event *e, fw_card_to to, int seat)
{
    return e->type == FW_EV_CARD && e->to == to &&
           (to != FW_TO_SEAT || e->seat == seat);
}

TEST(zones_sanity)
{
    ASSERT_TRUE(setup(NULL));
    struct {
        fw_zone_kind k;
        int seat;
    } z[] = {{FW_ZONE_SEAT_CARDS, 1}, {FW_ZONE_SEAT_CARDS, 2},
             {FW_ZONE_SEAT_CARDS, 3}, {FW_ZONE_SEAT_CARDS, 4},
             {FW_ZONE_BOARD, 0},      {FW_ZONE_BURN, 0},
             {FW_ZONE_MUCK, 0},       {FW_ZONE_DECK, 0}};
    for (size_t i = 0; i < sizeof z / sizeof z[0]; i++) {
        for (int dy = -45; dy <= 45; dy += 45) {
            double x, y;
            zone_centre(z[i].k, z[i].seat, &x, &y);
            fw_zone got = fw_calib_zone_at(CAL, x, y + dy);
            ASSERT_INT_EQ(got.kind, z[i].k);
            if (z[i].k == FW_ZONE_SEAT_CARDS)
                ASSERT_INT_EQ(got.seat, z[i].seat);
        }
    }
    teardown();
}

TEST(deal_order)
{
    ASSERT_TRUE(setup(NULL));
    scard cs[6];
    for (int i = 0; i < 6; i++) {
        cs[i] = card_in(FW_ZONE_SEAT_CARDS, i % 3 + 1, 0,
                        i < 3 ? -45 : 45, 0, NULL);
        cs[i].on = 0;
    }
    for (int i = 0; i < 6; i++) {
        cs[i].on = 1;
        run(cs, 6, 4);
    }
    run(cs, 6, 20);
    ASSERT_INT_EQ(FRAME_RC, FW_OK);
    ASSERT_INT_EQ(NLOG, 6);
    for (int i = 0; i < 6; i++) {
        ASSERT_TRUE(is_card(&LOG[i], FW_TO_SEAT, i % 3 + 1));
        ASSERT_INT_EQ(LOG[i].face, FW_FACE_DOWN);
        ASSERT_INT_EQ(LOG[i].card, FW_CARD_NONE);
        ASSERT_INT_EQ(LOG[i].has_t, 1);
    }
    ASSERT_TRUE(LOG[0].t < LOG[1].t);
    teardown();
}

TEST(same_frame_first_appearance)
{
    ASSERT_TRUE(setup(NULL));
    /* A (seat 3) first seen on frame 1, missing on 2, seen 3-4: certain on
     * frame 4; B (seat 1) seen 2-4: certain on frame 4 too. B is listed
     * first in the detections; A appeared first, so A comes first. */
    scard cs[2] = {card_in(FW_ZONE_SEAT_CARDS, 1, 0, 0, 0, NULL),
                   card_in(FW_ZONE_SEAT_CARDS, 3, 0, 0, 0, NULL)};
    cs[0].on = 0;
    run(cs, 2, 1);
    cs[0].on = 1;
    cs[1].on = 0;
    run(cs, 2, 1);
    cs[1].on = 1;
    run(cs, 2, 1);
    ASSERT_INT_EQ(NLOG, 0);
    run(cs, 2, 1);
    ASSERT_INT_EQ(NLOG, 2);
    ASSERT_TRUE(is_card(&LOG[0], FW_TO_SEAT, 3));
    ASSERT_TRUE(is_card(&LOG[1], FW_TO_SEAT, 1));
    ASSERT_TRUE(LOG[0].t == LOG[1].t);
    teardown();
}

TEST(burn_and_flop)
{
    ASSERT_TRUE(setup(NULL));
    scard cs[4] = {card_in(FW_ZONE_BURN, 0, 0, 0, 0, NULL),
                   card_in(FW_ZONE_BOARD, 0, -150, 0, 1, "As"),
                   card_in(FW_ZONE_BOARD, 0, -50, 0, 1, "Kd"),
                   card_in(FW_ZONE_BOARD, 0, 50, 0, 1, "7c")};
    cs[1].on = cs[2].on = cs[3].on = 0;
    run(cs, 4, 6);
    ASSERT_INT_EQ(NLOG, 1);
    ASSERT_TRUE(is_card(&LOG[0], FW_TO_BURN, 0));
    ASSERT_INT_EQ(LOG[0].face, FW_FACE_DOWN);
    /* the flop is spread one card a frame */
    for (int i = 1; i < 4; i++) {
        cs[i].on = 1;
        run(cs, 4, 1);
    }
    run(cs, 4, 20);
    ASSERT_INT_EQ(NLOG, 4);
    const char *want[3] = {"As", "Kd", "7c"};
    for (int i = 0; i < 3; i++) {
        ASSERT_TRUE(is_card(&LOG[1 + i], FW_TO_BOARD, 0));
        ASSERT_INT_EQ(LOG[1 + i].face, FW_FACE_UP);
        ASSERT_INT_EQ(LOG[1 + i].card, C(want[i]));
    }
    teardown();
}

TEST(flicker_no_duplicates)
{
    ASSERT_TRUE(setup(NULL));
    scard cs[2] = {card_in(FW_ZONE_SEAT_CARDS, 1, 0, 0, 0, NULL),
                   card_in(FW_ZONE_BOARD, 0, 0, 0, 1, "Th")};
    for (int k = 0; k < 4; k++) {
        cs[0].on = cs[1].on = 1;
        run(cs, 2, 4);
        cs[0].on = cs[1].on = 0;
        run(cs, 2, 5);
    }
    cs[0].on = cs[1].on = 1;
    run(cs, 2, 10);
    /* a flicker before the card was ever certain counts its frames too */
    scard late = card_in(FW_ZONE_SEAT_CARDS, 2, 0, 0, 0, NULL);
    run(&late, 1, 2);
    late.on = 0;
    run(&late, 1, 5);
    late.on = 1;
    run(&late, 1, 10);
    ASSERT_INT_EQ(NLOG, 3);
    ASSERT_TRUE(is_card(&LOG[0], FW_TO_SEAT, 1));
    ASSERT_TRUE(is_card(&LOG[1], FW_TO_BOARD, 0));
    ASSERT_INT_EQ(LOG[1].card, C("Th"));
    ASSERT_TRUE(is_card(&LOG[2], FW_TO_SEAT, 2));
    teardown();
}

TEST(spurious_detection)
{
    ASSERT_TRUE(setup(NULL));
    scard cs[3] = {card_in(FW_ZONE_SEAT_CARDS, 1, 0, 0, 0, NULL),
                   card_in(FW_ZONE_BOARD, 0, 0, 0, 1, "2c"),
                   card_in(FW_ZONE_DECK, 0, 0, 0, 1, "Jd")};
    run(cs, 3, 1);
    run_empty(30);
    /* two frames, under K = 3 */
    run(cs, 3, 2);
    run_empty(30);
    ASSERT_INT_EQ(NLOG, 0);
    ASSERT_INT_EQ(fw_tracker_count(TR), 0);
    /* a misread on one frame of a certain card is noise too */
    scard b = card_in(FW_ZONE_BOARD, 0, 0, 0, 1, "9s");
    run(&b, 1, 5);
    b.card = C("9c");
    run(&b, 1, 1);
    b.card = C("9s");
    run(&b, 1, 20);
    ASSERT_INT_EQ(NLOG, 1);
    ASSERT_INT_EQ(LOG[0].card, C("9s"));
    teardown();
}

TEST(arm_occludes_everything)
{
    ASSERT_TRUE(setup(NULL));
    scard cs[9];
    for (int i = 0; i < 6; i++)
        cs[i] = card_in(FW_ZONE_SEAT_CARDS, i % 3 + 1, 0, i < 3 ? -45 : 45,
                        0, NULL);
    cs[6] = card_in(FW_ZONE_BURN, 0, 0, 0, 0, NULL);
    cs[7] = card_in(FW_ZONE_BOARD, 0, -100, 0, 1, "Qh");
    cs[8] = card_in(FW_ZONE_BOARD, 0, 0, 0, 1, "3d");
    run(cs, 9, 10);
    ASSERT_INT_EQ(NLOG, 9);
    run_empty(10);
    run(cs, 9, 20);
    ASSERT_INT_EQ(NLOG, 9);
    /* the arm covers half the table while the cards are shifted a little */
    for (int i = 0; i < 9; i += 2)
        cs[i].on = 0;
    for (int i = 0; i < 9; i++)
        cs[i].x += 8;
    run(cs, 9, 12);
    for (int i = 0; i < 9; i++)
        cs[i].on = 1;
    run(cs, 9, 20);
    ASSERT_INT_EQ(NLOG, 9);
    ASSERT_INT_EQ(fw_tracker_count(TR), 9);
    teardown();
}

TEST(peek_longer_than_m)
{
    ASSERT_TRUE(setup(NULL));
    /* seat 1 lifts both cards for two seconds and puts them back a little
     * elsewhere in the zone: the same cards, no new arrivals */
    scard cs[2] = {card_in(FW_ZONE_SEAT_CARDS, 1, 0, -45, 0, NULL),
                   card_in(FW_ZONE_SEAT_CARDS, 1, 0, 45, 0, NULL)};
    run(cs, 2, 10);
    ASSERT_INT_EQ(NLOG, 2);
    run_empty(60);
    cs[0].x += 70;
    cs[1].x -= 70;
    run(cs, 2, 20);
    ASSERT_INT_EQ(NLOG, 2);
    /* a third card to that seat is new */
    scard third = card_in(FW_ZONE_SEAT_CARDS, 1, 0, 0, 0, NULL);
    scard all[3] = {cs[0], cs[1], third};
    run(all, 3, 10);
    ASSERT_INT_EQ(NLOG, 3);
    ASSERT_TRUE(is_card(&LOG[2], FW_TO_SEAT, 1));
    teardown();
}

TEST(fold_slide_to_muck)
{
    ASSERT_TRUE(setup(NULL));
    scard cs[4] = {card_in(FW_ZONE_SEAT_CARDS, 2, 0, -45, 0, NULL),
                   card_in(FW_ZONE_SEAT_CARDS, 2, 0, 45, 0, NULL),
                   card_in(FW_ZONE_SEAT_CARDS, 1, 0, -45, 0, NULL),
                   card_in(FW_ZONE_SEAT_CARDS, 1, 0, 45, 0, NULL)};
    run(cs, 4, 10);
    ASSERT_INT_EQ(NLOG, 4);
    /* slide seat 2's cards to the muck, 20 mm a frame, across the burn */
    double mx, my;
    zone_centre(FW_ZONE_MUCK, 0, &mx, &my);
    double sx = cs[0].x, sy = cs[0].y + 45;
    double dx = mx - sx, dy = my - sy;
    double len = sqrt(dx * dx + dy * dy);
    int steps = (int)(len / 20) + 1;
    for (int s = 1; s <= steps; s++) {
        double f = (double)s / steps;
        cs[0].x = cs[1].x = sx + dx * f;
        cs[0].y = sy + dy * f - 30;
        cs[1].y = sy + dy * f + 30;
        run(cs, 4, 1);
    }
    ASSERT_INT_EQ(fw_calib_zone_at(CAL, cs[0].x, cs[0].y).kind,
                  FW_ZONE_MUCK);
    run(cs, 4, 20);
    ASSERT_INT_EQ(NLOG, 5);
    ASSERT_INT_EQ(LOG[4].type, FW_EV_FOLD);
    ASSERT_INT_EQ(LOG[4].seat, 2);
    teardown();
}

TEST(fold_toss_to_muck)
{
    ASSERT_TRUE(setup(NULL));
    scard cs[2] = {card_in(FW_ZONE_SEAT_CARDS, 4, 0, -45, 0, NULL),
                   card_in(FW_ZONE_SEAT_CARDS, 4, 0, 45, 0, NULL)};
    run(cs, 2, 10);
    ASSERT_INT_EQ(NLOG, 2);
    /* the cards vanish (in the air) and land in the muck 4 frames later */
    run_empty(4);
    cs[0] = card_in(FW_ZONE_MUCK, 0, 0, -20, 0, NULL);
    cs[1] = card_in(FW_ZONE_MUCK, 0, 10, 20, 0, NULL);
    cs[1].on = 0;
    run(cs, 2, 1);
    cs[1].on = 1;
    run(cs, 2, 20);
    ASSERT_INT_EQ(NLOG, 3);
    ASSERT_INT_EQ(LOG[2].type, FW_EV_FOLD);
    ASSERT_INT_EQ(LOG[2].seat, 4);
    teardown();
}

TEST(show_turned_cards)
{
    ASSERT_TRUE(setup(NULL));
    scard cs[2] = {card_in(FW_ZONE_SEAT_CARDS, 3, 0, -45, 0, NULL),
                   card_in(FW_ZONE_SEAT_CARDS, 3, 0, 45, 0, NULL)};
    run(cs, 2, 10);
    ASSERT_INT_EQ(NLOG, 2);
    /* turned one after the other, shifted a little by the turn */
    cs[0].up = 1;
    cs[0].card = C("Ah");
    cs[0].x += 10;
    run(cs, 2, 6);
    ASSERT_INT_EQ(NLOG, 2);
    cs[1].up = 1;
    cs[1].card = C("Kh");
    cs[1].y += 10;
    run(cs, 2, 20);
    ASSERT_INT_EQ(NLOG, 3);
    ASSERT_INT_EQ(LOG[2].type, FW_EV_SHOW);
    ASSERT_INT_EQ(LOG[2].seat, 3);
    ASSERT_INT_EQ(LOG[2].ncards, 2);
    int ah = LOG[2].cards[0] == C("Ah") || LOG[2].cards[1] == C("Ah");
    int kh = LOG[2].cards[0] == C("Kh") || LOG[2].cards[1] == C("Kh");
    ASSERT_TRUE(ah && kh);
    teardown();
}

TEST(boxed_card_in_deck)
{
    ASSERT_TRUE(setup(NULL));
    /* the stub, face down, in the deck zone: nothing */
    scard cs[2] = {card_in(FW_ZONE_DECK, 0, -50, 0, 0, NULL),
                   card_in(FW_ZONE_DECK, 0, 50, 0, 1, "5s")};
    cs[1].on = 0;
    run(cs, 2, 10);
    ASSERT_INT_EQ(NLOG, 0);
    cs[1].on = 1;
    run(cs, 2, 10);
    ASSERT_INT_EQ(NLOG, 1);
    ASSERT_TRUE(is_card(&LOG[0], FW_TO_DECK, 0));
    ASSERT_INT_EQ(LOG[0].face, FW_FACE_UP);
    ASSERT_INT_EQ(LOG[0].card, C("5s"));
    teardown();
}

TEST(exposed_card_to_seat)
{
    ASSERT_TRUE(setup(NULL));
    scard c = card_in(FW_ZONE_SEAT_CARDS, 2, 0, 0, 1, "8d");
    run(&c, 1, 10);
    ASSERT_INT_EQ(NLOG, 1);
    ASSERT_TRUE(is_card(&LOG[0], FW_TO_SEAT, 2));
    ASSERT_INT_EQ(LOG[0].face, FW_FACE_UP);
    ASSERT_INT_EQ(LOG[0].card, C("8d"));
    /* one card arriving face up is not a show */
    run(&c, 1, 10);
    ASSERT_INT_EQ(NLOG, 1);
    teardown();
}

TEST(reset_new_hand)
{
    ASSERT_TRUE(setup(NULL));
    scard cs[2] = {card_in(FW_ZONE_SEAT_CARDS, 2, 0, 0, 0, NULL),
                   card_in(FW_ZONE_BOARD, 0, 0, 0, 1, "4h")};
    run(cs, 2, 10);
    ASSERT_INT_EQ(NLOG, 2);
    fw_tracker_reset(TR);
    /* last hand's cards still lying there emit nothing, even moved */
    cs[0].x += 20;
    run(cs, 2, 10);
    ASSERT_INT_EQ(NLOG, 2);
    run_empty(30);
    ASSERT_INT_EQ(fw_tracker_count(TR), 0);
    run(cs, 2, 10);
    ASSERT_INT_EQ(NLOG, 4);
    teardown();
}

TEST(small_event_array_queues)
{
    ASSERT_TRUE(setup(NULL));
    scard cs[3] = {card_in(FW_ZONE_BOARD, 0, -150, 0, 1, "Ac"),
                   card_in(FW_ZONE_BOARD, 0, -50, 0, 1, "Ad"),
                   card_in(FW_ZONE_BOARD, 0, 50, 0, 1, "Ah")};
    run_max(cs, 3, 3, 1);
    ASSERT_INT_EQ(NLOG, 1);
    ASSERT_INT_EQ(fw_tracker_pending(TR), 2);
    run_max(cs, 3, 2, 1);
    ASSERT_INT_EQ(NLOG, 3);
    ASSERT_INT_EQ(LOG[0].card, C("Ac"));
    ASSERT_INT_EQ(LOG[1].card, C("Ad"));
    ASSERT_INT_EQ(LOG[2].card, C("Ah"));
    teardown();
}

TEST(bad_arguments)
{
    ASSERT_TRUE(setup(NULL));
    fw_tracker *t2 = NULL;
    ASSERT_INT_EQ(fw_tracker_new(NULL, NULL, &t2), FW_EINVAL);
    ASSERT_TRUE(t2 == NULL);
    int ne = 5;
    ASSERT_INT_EQ(fw_tracker_frame(TR, 0, NULL, 2, NULL, 0, &ne), FW_EINVAL);
    ASSERT_INT_EQ(ne, 0);
    ASSERT_INT_EQ(fw_tracker_frame(TR, 0, NULL, 0, NULL, 0, &ne), FW_OK);
    fw_tracker_free(NULL);
    fw_tracker_reset(NULL);
    teardown();
}

TEST(options_stable_frames)
{
    fw_tracker_options o;
    fw_tracker_options_default(&o);
    ASSERT_INT_EQ(o.stable_frames, 3);
    ASSERT_INT_EQ(o.max_missing, 15);
    o.stable_frames = 5;
    ASSERT_TRUE(setup(&o));
    scard c = card_in(FW_ZONE_BURN, 0, 0, 0, 0, NULL);
    run(&c, 1, 4);
    ASSERT_INT_EQ(NLOG, 0);
    run(&c, 1, 1);
    ASSERT_INT_EQ(NLOG, 1);
    teardown();
}

static const fw_test_case cases[] = {
    TEST_CASE(zones_sanity),
    TEST_CASE(deal_order),
    TEST_CASE(same_frame_first_appearance),
    TEST_CASE(burn_and_flop),
    TEST_CASE(flicker_no_duplicates),
    TEST_CASE(spurious_detection),
    TEST_CASE(arm_occludes_everything),
    TEST_CASE(peek_longer_than_m),
    TEST_CASE(fold_slide_to_muck),
    TEST_CASE(fold_toss_to_muck),
    TEST_CASE(show_turned_cards),
    TEST_CASE(boxed_card_in_deck),
    TEST_CASE(exposed_card_to_seat),
    TEST_CASE(reset_new_hand),
    TEST_CASE(small_event_array_queues),
    TEST_CASE(bad_arguments),
    TEST_CASE(options_stable_frames),
};

TEST_MAIN(cases)
