/* kiosk_sim.c - the scripted dealer of `feltwatch run --source sim:`. */
#include "kiosk_sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Cards are drawn at 120 x 168 mm, about twice a real card, square to the
 * table's edge: the default camera sees the 2.4 m felt at 0.5 px/mm, and
 * the detector wants a card to cover at least 0.25% of the frame; at that
 * size it misses backs turned by 20-60 degrees (see the report of
 * `feltwatch run`). */
#define CARD_W_MM 120.0
#define CARD_H_MM 168.0
#define MAX_CARDS 16

/* the script, in frames (30 fps) */
#define FIRST_CARD 10  /* first hole card */
#define CARD_EVERY 6   /* frames between two hole cards */
#define TAPS_AT 95     /* the pre-flop declarations, one per frame */
#define BURN_AT 110
#define BOARD_AT 118
#define BOARD_EVERY 6
#define SETTLE 30      /* frames after the last card */

typedef struct placed {
    long at;              /* frame it appears on */
    int face_up;
    fw_card card;
    float corners[4][2];  /* image pixels */
} placed;

struct fw_kiosk_sim {
    const fw_calib *cal;
    const fw_vision *glyphs;
    placed cards[MAX_CARDS];
    int ncards;
    long length;
    /* the frame as drawn so far: felt plus the cards up to `shown` */
    uint8_t *bg;
    int bg_w, bg_h;
    int shown;
};

static const uint8_t felt_bgr[3] = {67, 107, 11}; /* FW_UI_RGB_FELT */

/* A card centred at felt point (cx, cy) mm, its long side along the unit
 * vector (ux, uy): corners in image pixels, clockwise from its top-left. */
static void card_at(const fw_calib *cal, double cx, double cy, double ux,
                    double uy, float out[4][2])
{
    /* (vx, vy): across the card, perpendicular to the long side */
    double vx = -uy, vy = ux;
    const double sw[4] = {-1, 1, 1, -1}, sh[4] = {-1, -1, 1, 1};
    for (int k = 0; k < 4; k++) {
        double fx = cx + sw[k] * CARD_W_MM / 2 * vx + sh[k] * CARD_H_MM / 2 * ux;
        double fy = cy + sw[k] * CARD_W_MM / 2 * vy + sh[k] * CARD_H_MM / 2 * uy;
        double x, y;
        fw_calib_to_image(cal, fx, fy, &x, &y);
        out[k][0] = (float)x;
        out[k][1] = (float)y;
    }
}

/* Seat n's card zone of the default calibration: its centre and the unit
 * vectors along its long and short sides, found by probing the zone map
 * (the polygons themselves are private to the calibration). */
static int seat_frame(const fw_calib *cal, int seat, double *cx, double *cy,
                      double *lx, double *ly)
{
    /* scan the felt for the zone's points: centre = mean, long axis =
     * principal axis of the point cloud */
    double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
    long n = 0;
    for (double y = 5; y < 1200; y += 10)
        for (double x = 5; x < 2400; x += 10) {
            fw_zone z = fw_calib_zone_at(cal, x, y);
            if (z.kind == FW_ZONE_SEAT_CARDS && z.seat == seat) {
                sx += x, sy += y, sxx += x * x, syy += y * y, sxy += x * y;
                n++;
            }
        }
    if (n < 10)
        return -1;
    *cx = sx / n;
    *cy = sy / n;
    double a = sxx / n - *cx * *cx, b = sxy / n - *cx * *cy,
           c = syy / n - *cy * *cy;
    double th = 0.5 * atan2(2 * b, a - c); /* the principal axis */
    *lx = cos(th);
    *ly = sin(th);
    return 0;
}

int fw_kiosk_sim_new(const fw_calib *cal, const fw_vision *glyphs,
                     fw_kiosk_sim **out)
{
    if (!cal || !out)
        return fw_set_error(FW_EINVAL, "kiosk sim: bad arguments");
    *out = NULL;
    fw_kiosk_sim *s = calloc(1, sizeof *s);
    if (!s)
        return fw_set_error(FW_ENOMEM, "kiosk sim: out of memory");
    s->cal = cal;
    s->glyphs = glyphs;
    /* two rounds of hole cards, seats 1..6 */
    for (int round = 0; round < 2; round++)
        for (int seat = 1; seat <= 6; seat++) {
            double cx, cy, lx, ly;
            if (seat_frame(cal, seat, &cx, &cy, &lx, &ly) != 0) {
                free(s);
                return fw_set_error(FW_EINVAL,
                                    "kiosk sim: the calibration has no card "
                                    "zone for seat %d",
                                    seat);
            }
            /* side by side, 30 mm apart, upright, around the zone's
             * centre (which stays inside the zone) */
            (void)lx, (void)ly;
            double off = (round == 0 ? -1 : 1) * (CARD_W_MM + 30) / 2;
            placed *p = &s->cards[s->ncards];
            p->at = FIRST_CARD + (long)s->ncards * CARD_EVERY;
            p->face_up = 0;
            p->card = FW_CARD_NONE;
            card_at(cal, cx + off, cy, 0, 1, p->corners);
            s->ncards++;
        }
    /* the burn, face down, in the middle of the burn zone */
    placed *p = &s->cards[s->ncards++];
    p->at = BURN_AT;
    p->face_up = 0;
    p->card = FW_CARD_NONE;
    card_at(cal, 1070, 790, 0, 1, p->corners);
    /* the flop, face up in the board zone: Ah Kd 7c */
    static const fw_card flop[3] = {fw_card_make(12, 2), fw_card_make(11, 1),
                                    fw_card_make(5, 0)};
    for (int i = 0; i < 3; i++) {
        p = &s->cards[s->ncards++];
        p->at = BOARD_AT + i * BOARD_EVERY;
        p->face_up = 1;
        p->card = flop[i];
        card_at(cal, 1000 + 150 * i, 560, 0, 1, p->corners);
    }
    s->length = s->cards[s->ncards - 1].at + SETTLE;
    *out = s;
    return FW_OK;
}

void fw_kiosk_sim_free(fw_kiosk_sim *s)
{
    if (!s)
        return;
    free(s->bg);
    free(s);
}

/* The felt with a little deterministic texture. */
static void draw_felt(uint8_t *bgr, int w, int h)
{
    uint32_t r = 12345;
    for (long i = 0; i < (long)w * h; i++) {
        r = r * 1103515245u + 12345u;
        int d = (int)((r >> 16) & 7) - 4;
        for (int k = 0; k < 3; k++) {
            int v = felt_bgr[k] + d;
            bgr[i * 3 + k] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
        }
    }
}

int fw_kiosk_sim_draw(void *user, fw_image *frame, long index, double t)
{
    (void)t;
    fw_kiosk_sim *s = user;
    int w = frame->width, h = frame->height;
    if (!s->bg || s->bg_w != w || s->bg_h != h) {
        free(s->bg);
        s->bg = malloc((size_t)w * h * 3);
        if (!s->bg)
            return fw_set_error(FW_ENOMEM, "kiosk sim: out of memory");
        s->bg_w = w;
        s->bg_h = h;
        s->shown = 0;
        draw_felt(s->bg, w, h);
    }
    /* cards stay where they were put: draw the new ones once */
    while (s->shown < s->ncards && s->cards[s->shown].at <= index) {
        const placed *p = &s->cards[s->shown];
        int rc = fw_vision_render_card(s->bg, w, h, w * 3, s->glyphs, 0,
                                       p->card, p->face_up, p->corners);
        if (rc != FW_OK)
            return rc;
        s->shown++;
    }
    for (int y = 0; y < h; y++)
        memcpy(frame->bgr + (size_t)y * frame->stride,
               s->bg + (size_t)y * w * 3, (size_t)w * 3);
    return FW_OK;
}

int fw_kiosk_sim_inputs(const fw_kiosk_sim *s, long index, fw_event *out,
                        int max)
{
    (void)s;
    /* pre-flop: seats 3, 4, 5, 6, 1 call the big blind, seat 2 checks */
    static const int order[6] = {3, 4, 5, 6, 1, 2};
    long k = index - TAPS_AT;
    if (k < 0 || k >= 6 || max < 1)
        return 0;
    memset(&out[0], 0, sizeof out[0]);
    out[0].type = FW_EV_SAY;
    out[0].seat = order[k];
    out[0].word = k == 5 ? FW_WORD_CHECK : FW_WORD_CALL;
    out[0].card = FW_CARD_NONE;
    return 1;
}

long fw_kiosk_sim_length(const fw_kiosk_sim *s)
{
    return s->length;
}

int fw_kiosk_sim_cards(const fw_kiosk_sim *s)
{
    return s->ncards;
}
