/* kiosk_sim.c - the simulated dealer (kiosk_sim.h): a script of table
 * events played as rendered frames and dealer taps. */
#include "kiosk_sim.h"

#include "chips.h"
#include "protocol.h"
#include "sim.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sizes on the felt (see the header: larger than life for the reader). */
#define CARD_H_MM 220.0
#define CARD_W_MM (CARD_H_MM * 63.0 / 88.0)
#define CHIP_R_MM 26.0
/* A push of this many chips or more, all of one value, is put down as a
 * stack (and read from above as a range: the kiosk asks the dealer). */
#define STACK_MIN 5
/* The simulated camera's focal length, in frame widths: what puts a
 * stack's side in view where the bet zones are. */
#define FOCAL_WIDTHS 0.5
#define CHIP_PITCH_MM 56.0 /* chips side by side in a bet zone */
#define BOARD_PITCH_MM (CARD_W_MM + 20.0)

/* Pace, in frames at 30 fps. */
#define TAP_FRAMES 2     /* between two taps */
#define SETTLE 8         /* a change left in view before the next step */
#define PILE_SETTLE 18   /* after a card lands on the burn or the muck: the
                            card before it there is given up by the
                            tracker (15 frames) before the next lands */
#define CLEAR_FRAMES 24  /* the table cleared before a new hand (the
                            shuffle): longer than the tracker holds a card
                            it no longer sees (15 frames) */
#define FORGET_FRAMES 24 /* the board taken in (39-A) before re-dealing:
                            longer than the tracker's occlusion memory */
#define LAST_FRAMES 30   /* after the script's last step */
#define HAND_FRAMES 2    /* a hand over what it just put down */

#define MAX_TABLE_CHIPS 128
#define MAX_SPOTS 12
#define MAX_SEAT_CARDS 4

/* Where a card lies. */
typedef enum place { AT_SEAT, AT_BOARD, AT_BURN, AT_MUCK, AT_DECK } place;

typedef struct sim_card {
    fw_card card; /* FW_CARD_NONE for a back whose face nobody knows */
    int up;
    place where;
    int seat;
    double x, y, angle; /* felt mm; image degrees (fw_sim_card.angle) */
} sim_card;

typedef struct sim_chip {
    int64_t value;
    int count; /* 1: a chip lying flat; more: a stack of equal chips */
    int seat, slot;
    double x, y; /* felt mm */
} sim_chip;

/* What the camera sees from frame `at` on. */
typedef struct view {
    long at;
    sim_card cards[FW_SIM_MAX_CARDS];
    int ncards;
    sim_chip chips[MAX_TABLE_CHIPS];
    int nchips;
    int hand;      /* the dealer's or a player's hand over (hx, hy) */
    double hx, hy; /* felt mm */
} view;

typedef struct tap {
    long at;
    fw_event ev;
    const char *line;
} tap;

/* A zone's centre and axes on the felt: u along its longer side. */
typedef struct zone_frame {
    double cx, cy, ux, uy, lu, lv; /* lu, lv: extent along u and v, mm */
    int ok;
} zone_frame;

struct fw_kiosk_sim {
    const fw_calib *cal;
    fw_sim *sim;
    int deck;
    char *text;
    view *views;
    int nviews, capviews;
    tap *taps;
    int ntaps, captaps;
    long length;
    /* when each thing a camera must report was put down, in script order:
     * the ground truth for the kiosk's latency */
    struct landing {
        long frame;
        fw_event_type type;
    } *landed;
    int nlanded, caplanded;
    int ncards, nchips, nhands;
    /* geometry */
    double px_per_mm;
    zone_frame seat_cards[FW_CALIB_MAX_SEATS + 1];
    zone_frame seat_bet[FW_CALIB_MAX_SEATS + 1];
    zone_frame board, burn, muck, deck_zone;
    /* where chips lie in each seat's bet zone: spots whose whole chip is
     * inside the zone, nearest the table's centre first */
    double spot[FW_CALIB_MAX_SEATS + 1][MAX_SPOTS][2];
    int nspots[FW_CALIB_MAX_SEATS + 1];
    /* drawing */
    int drawn; /* index of the view in bg, -1 none */
    uint8_t *bg;
    int bg_w, bg_h;
};

/* ---- geometry ------------------------------------------------------------ */

/* Probe the zone map (its polygons are private to the calibration): the
 * zone's points give its centre and, by their principal axis, its sides. */
static zone_frame find_zone(const fw_calib *cal, fw_zone_kind kind, int seat,
                            double x0, double y0, double x1, double y1)
{
    zone_frame z;
    memset(&z, 0, sizeof z);
    double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
    long n = 0;
    for (double y = y0; y < y1; y += 5)
        for (double x = x0; x < x1; x += 5) {
            fw_zone q = fw_calib_zone_at(cal, x, y);
            int seated = kind == FW_ZONE_SEAT_CARDS ||
                         kind == FW_ZONE_SEAT_BET;
            if (q.kind == kind && (!seated || q.seat == seat)) {
                sx += x, sy += y, sxx += x * x, syy += y * y, sxy += x * y;
                n++;
            }
        }
    if (n < 20)
        return z;
    z.cx = sx / n;
    z.cy = sy / n;
    double a = sxx / n - z.cx * z.cx, b = sxy / n - z.cx * z.cy,
           c = syy / n - z.cy * z.cy;
    double th = 0.5 * atan2(2 * b, a - c);
    z.ux = cos(th);
    z.uy = sin(th);
    /* a uniform rectangle of side L has variance L^2 / 12 */
    double vu = a * z.ux * z.ux + 2 * b * z.ux * z.uy + c * z.uy * z.uy;
    double vv = a * z.uy * z.uy - 2 * b * z.ux * z.uy + c * z.ux * z.ux;
    z.lu = sqrt(12 * fmax(vu, 0));
    z.lv = sqrt(12 * fmax(vv, 0));
    z.ok = 1;
    return z;
}

/* The image angle (fw_sim_card.angle) of a card whose long side points
 * along felt direction (dx, dy): the art's vertical axis (0, 1) turns to
 * (-sin a, cos a). */
static double angle_along(double dx, double dy)
{
    return atan2(-dx, dy) * 57.29577951308232; /* degrees */
}

/* Whether a chip (with a little felt around it) at (x, y) lies wholly in
 * seat's bet zone. */
static int chip_fits(const fw_calib *cal, int seat, double x, double y)
{
    const double r = CHIP_R_MM + 2.0;
    for (int k = 0; k <= 12; k++) {
        double a = k * 0.5235987755982988; /* 30 degrees */
        double px = k == 12 ? x : x + r * cos(a),
               py = k == 12 ? y : y + r * sin(a);
        fw_zone z = fw_calib_zone_at(cal, px, py);
        if (z.kind != FW_ZONE_SEAT_BET || z.seat != seat)
            return 0;
    }
    return 1;
}

/* The unit vector from the table's centre (the board) out through zone z. */
static void outward(const fw_kiosk_sim *s, const zone_frame *z, double *ox,
                    double *oy)
{
    double dx = z->cx - s->board.cx, dy = z->cy - s->board.cy;
    double l = hypot(dx, dy);
    *ox = l > 1e-9 ? dx / l : 0;
    *oy = l > 1e-9 ? dy / l : 1;
}

/* Seat `seat`'s card number k of n: side by side along the zone, each
 * pointing at the player. */
static void at_seat(const fw_kiosk_sim *s, int seat, int k, sim_card *c)
{
    const zone_frame *z = &s->seat_cards[seat];
    double off = (k - 0.5) * (CARD_W_MM + 30.0);
    /* toward the player by 30 mm: the cards stay clear of the bet zone
     * between them and the table's centre */
    double ox, oy;
    outward(s, z, &ox, &oy);
    c->x = z->cx + off * z->ux + 30.0 * ox;
    c->y = z->cy + off * z->uy + 30.0 * oy;
    /* long side across the zone (toward the player), fanned a little */
    c->angle = angle_along(-z->uy, z->ux) + (k ? 3.0 : -3.0);
}

/* Board card number k (0..4), left to right along the board. */
static void on_board(const fw_kiosk_sim *s, int k, sim_card *c)
{
    double off = (k - 2) * BOARD_PITCH_MM;
    c->x = s->board.cx + off * s->board.ux;
    c->y = s->board.cy + off * s->board.uy;
    c->angle = angle_along(-s->board.uy, s->board.ux);
}

/* Whether a chip at (x, y) would touch card c (cards of a seat can reach
 * over a neighbour's bet zone). */
static int near_card(const sim_card *c, double x, double y)
{
    const double m = CHIP_R_MM + 4.0;
    double a = c->angle / 57.29577951308232;
    double lx = -sin(a), ly = cos(a); /* the long side, on the felt */
    double dx = x - c->x, dy = y - c->y;
    double along = dx * lx + dy * ly, across = -dx * ly + dy * lx;
    return fabs(along) < CARD_H_MM / 2 + m && fabs(across) < CARD_W_MM / 2 + m;
}

static int clear_of_cards(const fw_kiosk_sim *s, double x, double y)
{
    for (int seat = 1; seat <= FW_CALIB_MAX_SEATS; seat++) {
        if (!s->seat_cards[seat].ok)
            continue;
        for (int k = 0; k < 2; k++) {
            sim_card c;
            memset(&c, 0, sizeof c);
            at_seat(s, seat, k, &c);
            if (near_card(&c, x, y))
                return 0;
        }
    }
    for (int k = 0; k < 5; k++) {
        sim_card c;
        memset(&c, 0, sizeof c);
        on_board(s, k, &c);
        if (near_card(&c, x, y))
            return 0;
    }
    return 1;
}

static void chip_spots(fw_kiosk_sim *s, int seat)
{
    const zone_frame *z = &s->seat_bet[seat];
    double cand[2048][3];
    int nc = 0;
    double half = fmax(z->lu, z->lv) / 2 + 20;
    for (double y = z->cy - half; y <= z->cy + half; y += 4)
        for (double x = z->cx - half; x <= z->cx + half; x += 4)
            if (nc < 2048 && chip_fits(s->cal, seat, x, y) &&
                clear_of_cards(s, x, y)) {
                cand[nc][0] = x;
                cand[nc][1] = y;
                cand[nc][2] = hypot(x - s->board.cx, y - s->board.cy);
                nc++;
            }
    /* greedy: nearest the table's centre first, a pitch apart */
    s->nspots[seat] = 0;
    while (s->nspots[seat] < MAX_SPOTS) {
        int best = -1;
        for (int i = 0; i < nc; i++) {
            int ok = 1;
            for (int j = 0; j < s->nspots[seat] && ok; j++)
                ok = hypot(cand[i][0] - s->spot[seat][j][0],
                           cand[i][1] - s->spot[seat][j][1]) >= CHIP_PITCH_MM;
            if (ok && (best < 0 || cand[i][2] < cand[best][2]))
                best = i;
        }
        if (best < 0)
            break;
        s->spot[seat][s->nspots[seat]][0] = cand[best][0];
        s->spot[seat][s->nspots[seat]][1] = cand[best][1];
        s->nspots[seat]++;
    }
}

static int geometry(fw_kiosk_sim *s)
{
    double fx[4], fy[4];
    const double ix[4] = {0, FW_KIOSK_SIM_WIDTH, FW_KIOSK_SIM_WIDTH, 0},
                 iy[4] = {0, 0, FW_KIOSK_SIM_HEIGHT, FW_KIOSK_SIM_HEIGHT};
    double x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
    for (int k = 0; k < 4; k++) {
        fw_calib_to_felt(s->cal, ix[k], iy[k], &fx[k], &fy[k]);
        x0 = fmin(x0, fx[k]), x1 = fmax(x1, fx[k]);
        y0 = fmin(y0, fy[k]), y1 = fmax(y1, fy[k]);
    }
    /* pixels per mm at the image centre */
    double ax, ay, bx, by;
    fw_calib_to_image(s->cal, (x0 + x1) / 2, (y0 + y1) / 2, &ax, &ay);
    fw_calib_to_image(s->cal, (x0 + x1) / 2 + 100, (y0 + y1) / 2, &bx, &by);
    s->px_per_mm = hypot(bx - ax, by - ay) / 100.0;
    if (!(s->px_per_mm > 0.05 && s->px_per_mm < 20))
        return fw_set_error(FW_EINVAL, "kiosk sim: the calibration's scale "
                                       "is out of range");
    int seats = fw_calib_seats(s->cal);
    for (int i = 1; i <= seats && i <= FW_CALIB_MAX_SEATS; i++) {
        s->seat_cards[i] =
            find_zone(s->cal, FW_ZONE_SEAT_CARDS, i, x0, y0, x1, y1);
        s->seat_bet[i] = find_zone(s->cal, FW_ZONE_SEAT_BET, i, x0, y0, x1, y1);
    }
    s->board = find_zone(s->cal, FW_ZONE_BOARD, 0, x0, y0, x1, y1);
    s->burn = find_zone(s->cal, FW_ZONE_BURN, 0, x0, y0, x1, y1);
    s->muck = find_zone(s->cal, FW_ZONE_MUCK, 0, x0, y0, x1, y1);
    s->deck_zone = find_zone(s->cal, FW_ZONE_DECK, 0, x0, y0, x1, y1);
    if (!s->board.ok || !s->burn.ok || !s->muck.ok || !s->deck_zone.ok)
        return fw_set_error(FW_EINVAL, "kiosk sim: the calibration lacks a "
                                       "board, burn, muck or deck zone");
    for (int i = 1; i <= seats && i <= FW_CALIB_MAX_SEATS; i++)
        if (s->seat_bet[i].ok)
            chip_spots(s, i);
    /* the board's cards go along its long side */
    if (fabs(s->board.ux) < fabs(s->board.uy)) {
        double t = s->board.ux;
        s->board.ux = -s->board.uy;
        s->board.uy = t;
    }
    return FW_OK;
}

/* ---- building the timeline ------------------------------------------------ */

typedef struct builder {
    fw_kiosk_sim *s;
    view cur;
    long f;
    int burns, mucks, boxed;
    int chips_out; /* chips in bet zones */
    const char *name;
    long lineno;
    char *err;
    size_t errsz;
} builder;

static int fail(builder *b, int code, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (b->err && b->errsz)
        snprintf(b->err, b->errsz, "%s: line %ld: %s", b->name, b->lineno,
                 msg);
    return fw_set_error(code, "%s: line %ld: %s", b->name, b->lineno, msg);
}

static int push_view(builder *b, long settle)
{
    fw_kiosk_sim *s = b->s;
    if (s->nviews == s->capviews) {
        int cap = s->capviews ? s->capviews * 2 : 64;
        view *v = realloc(s->views, (size_t)cap * sizeof *v);
        if (!v)
            return fw_set_error(FW_ENOMEM, "kiosk sim: out of memory");
        s->views = v;
        s->capviews = cap;
    }
    b->cur.at = b->f;
    s->views[s->nviews++] = b->cur;
    b->f += settle;
    return FW_OK;
}

static int push_tap(builder *b, const fw_event *ev, const char *line)
{
    fw_kiosk_sim *s = b->s;
    if (s->ntaps == s->captaps) {
        int cap = s->captaps ? s->captaps * 2 : 128;
        tap *t = realloc(s->taps, (size_t)cap * sizeof *t);
        if (!t)
            return fw_set_error(FW_ENOMEM, "kiosk sim: out of memory");
        s->taps = t;
        s->captaps = cap;
    }
    tap *t = &s->taps[s->ntaps++];
    t->at = b->f;
    t->ev = *ev;
    t->line = line;
    b->f += TAP_FRAMES;
    return FW_OK;
}

/* Something the camera must report (a TYPE event) is put down now. */
static int landing(builder *b, fw_event_type type)
{
    fw_kiosk_sim *s = b->s;
    if (s->nlanded == s->caplanded) {
        int cap = s->caplanded ? s->caplanded * 2 : 128;
        struct landing *l = realloc(s->landed, (size_t)cap * sizeof *l);
        if (!l)
            return fw_set_error(FW_ENOMEM, "kiosk sim: out of memory");
        s->landed = l;
        s->caplanded = cap;
    }
    s->landed[s->nlanded].frame = b->f;
    s->landed[s->nlanded].type = type;
    s->nlanded++;
    return FW_OK;
}

/* The hand that puts something down at (x, y) stays over it for a moment:
 * the trackers must neither lose what it covers nor see it as a card. */
static int hand_over(builder *b, double x, double y)
{
    b->cur.hand = 1;
    b->cur.hx = x;
    b->cur.hy = y;
    int rc = push_view(b, HAND_FRAMES);
    b->cur.hand = 0;
    return rc;
}

static sim_card *add_card(builder *b)
{
    if (b->cur.ncards == FW_SIM_MAX_CARDS) {
        fail(b, FW_EINVAL, "more than %d cards on the table at once",
             FW_SIM_MAX_CARDS);
        return NULL;
    }
    sim_card *c = &b->cur.cards[b->cur.ncards++];
    memset(c, 0, sizeof *c);
    b->s->ncards++;
    return c;
}

static void remove_card(builder *b, int i)
{
    memmove(&b->cur.cards[i], &b->cur.cards[i + 1],
            (size_t)(b->cur.ncards - i - 1) * sizeof b->cur.cards[0]);
    b->cur.ncards--;
}

static int count_at(const view *v, place where, int seat)
{
    int n = 0;
    for (int i = 0; i < v->ncards; i++)
        n += v->cards[i].where == where &&
             (where != AT_SEAT || v->cards[i].seat == seat);
    return n;
}

/* The burn and the muck: the dealer squares each new card under the stub
 * once seen, so the camera sees the latest card alone; each lands turned
 * from the one before, as a tossed card does (the tracker tells a new card
 * in the same place by that turn). */
static void on_pile(builder *b, place where, const zone_frame *z, int k,
                    sim_card *c)
{
    for (int i = b->cur.ncards - 2; i >= 0; i--)
        if (b->cur.cards[i].where == where)
            remove_card(b, i);
    c = &b->cur.cards[b->cur.ncards - 1];
    c->where = where;
    /* six places a hand: 14 mm apart, upright or across (any other turn
     * would reach the board) */
    c->x = z->cx + ((k % 3) - 1) * 14.0;
    c->y = z->cy;
    c->angle = (k % 2) * 90.0;
}

static int gather_chips(builder *b)
{
    if (b->cur.nchips == 0)
        return FW_OK;
    b->cur.nchips = 0;
    return push_view(b, SETTLE);
}

/* Clear the felt for a new hand (cards and chips). */
static int clear_table(builder *b)
{
    if (b->cur.ncards == 0 && b->cur.nchips == 0)
        return FW_OK;
    b->cur.ncards = 0;
    b->cur.nchips = 0;
    b->burns = b->mucks = b->boxed = 0;
    return push_view(b, CLEAR_FRAMES);
}

static const fw_calib_chip *chip_of(const fw_calib *cal, int64_t value)
{
    const fw_calib_chip *set;
    int n = fw_calib_chips(cal, &set);
    for (int i = 0; i < n; i++)
        if (set[i].value == value)
            return &set[i];
    return NULL;
}

/* Whether a push is STACK_MIN or more chips all of one value: the dealer's
 * players stack those instead of spreading them. */
static int stacked_push(const fw_event *ev)
{
    if (ev->nchips < STACK_MIN || ev->nchips > FW_STACK_MAX_COUNT)
        return 0;
    for (int i = 1; i < ev->nchips; i++)
        if (ev->chips[i] != ev->chips[0])
            return 0;
    return 1;
}

static int push_chips(builder *b, const fw_event *ev)
{
    fw_kiosk_sim *s = b->s;
    int nspots = s->nspots[ev->seat];
    int stack = stacked_push(ev);
    for (int i = 0; i < (stack ? 1 : ev->nchips); i++) {
        if (!chip_of(s->cal, ev->chips[i]))
            return fail(b, FW_EINVAL,
                        "no chip of value %lld in the calibration's chip set",
                        (long long)ev->chips[i]);
        int used[MAX_SPOTS] = {0};
        for (int j = 0; j < b->cur.nchips; j++)
            if (b->cur.chips[j].seat == ev->seat)
                used[b->cur.chips[j].slot] = 1;
        int slot = 0;
        while (slot < nspots && used[slot])
            slot++;
        if (slot >= nspots || b->cur.nchips == MAX_TABLE_CHIPS)
            return fail(b, FW_EINVAL,
                        "seat %d's bet zone holds at most %d chips side by "
                        "side",
                        ev->seat, nspots);
        sim_chip *c = &b->cur.chips[b->cur.nchips++];
        c->value = ev->chips[i];
        c->count = stack ? ev->nchips : 1;
        c->seat = ev->seat;
        c->slot = slot;
        c->x = s->spot[ev->seat][slot][0];
        c->y = s->spot[ev->seat][slot][1];
        s->nchips += c->count;
    }
    if (ev->nchips > 0) {
        const sim_chip *last = &b->cur.chips[b->cur.nchips - 1];
        if (landing(b, FW_EV_PUSH) != FW_OK ||
            hand_over(b, last->x, last->y) != FW_OK)
            return FW_ENOMEM;
    }
    return push_view(b, SETTLE);
}

static int pull_chips(builder *b, const fw_event *ev)
{
    for (int i = 0; i < ev->nchips; i++) {
        int j = b->cur.nchips - 1;
        while (j >= 0 && !(b->cur.chips[j].seat == ev->seat &&
                           b->cur.chips[j].value == ev->chips[i]))
            j--;
        if (j < 0)
            return fail(b, FW_EINVAL,
                        "seat %d pulls a chip of %lld it has not pushed",
                        ev->seat, (long long)ev->chips[i]);
        if (--b->cur.chips[j].count > 0)
            continue; /* one chip off a stack */
        memmove(&b->cur.chips[j], &b->cur.chips[j + 1],
                (size_t)(b->cur.nchips - j - 1) * sizeof b->cur.chips[0]);
        b->cur.nchips--;
    }
    if (ev->nchips > 0 && landing(b, FW_EV_PULL) != FW_OK)
        return FW_ENOMEM;
    return push_view(b, SETTLE);
}

/* The seat's cards go to the muck pile: the top one is seen landing. */
static int to_muck(builder *b, int seat)
{
    int had = 0;
    for (int i = b->cur.ncards - 1; i >= 0; i--)
        if (b->cur.cards[i].where == AT_SEAT && b->cur.cards[i].seat == seat) {
            remove_card(b, i);
            had++;
        }
    if (!had)
        return fail(b, FW_EINVAL, "seat %d has no cards to fold", seat);
    sim_card *c = add_card(b);
    if (!c)
        return FW_EINVAL;
    c->card = FW_CARD_NONE;
    on_pile(b, AT_MUCK, &b->s->muck, b->mucks++, c);
    c = &b->cur.cards[b->cur.ncards - 1];
    if (landing(b, FW_EV_FOLD) != FW_OK || hand_over(b, c->x, c->y) != FW_OK)
        return FW_ENOMEM;
    return push_view(b, PILE_SETTLE);
}

static int show_cards(builder *b, const fw_event *ev)
{
    int k = 0;
    for (int i = 0; i < b->cur.ncards && k < ev->ncards; i++) {
        sim_card *c = &b->cur.cards[i];
        if (c->where == AT_SEAT && c->seat == ev->seat) {
            c->up = 1;
            c->card = ev->cards[k++];
        }
    }
    if (k != ev->ncards)
        return fail(b, FW_EINVAL, "seat %d shows %d cards but holds %d",
                    ev->seat, ev->ncards, k);
    const zone_frame *z = &b->s->seat_cards[ev->seat];
    if (landing(b, FW_EV_SHOW) != FW_OK || hand_over(b, z->cx, z->cy) != FW_OK)
        return FW_ENOMEM;
    return push_view(b, SETTLE);
}

static int deal_card(builder *b, const fw_event *ev, int remedy)
{
    fw_kiosk_sim *s = b->s;
    /* a street's first card: the bets are gathered into the pot first */
    if ((ev->to == FW_TO_BURN || ev->to == FW_TO_BOARD) &&
        gather_chips(b) != FW_OK)
        return FW_EINVAL;
    sim_card *c = add_card(b);
    if (!c)
        return FW_EINVAL;
    c->card = ev->card;
    c->up = ev->face == FW_FACE_UP || ev->to == FW_TO_BOARD;
    switch (ev->to) {
    case FW_TO_SEAT: {
        if (ev->seat < 1 || ev->seat > FW_CALIB_MAX_SEATS ||
            !s->seat_cards[ev->seat].ok)
            return fail(b, FW_EINVAL,
                        "the calibration has no card zone for seat %d",
                        ev->seat);
        int k = count_at(&b->cur, AT_SEAT, ev->seat); /* not yet this one */
        if (k >= MAX_SEAT_CARDS)
            return fail(b, FW_EINVAL, "seat %d holds more than %d cards",
                        ev->seat, MAX_SEAT_CARDS);
        c->where = AT_SEAT;
        c->seat = ev->seat;
        at_seat(s, ev->seat, k, c);
        break;
    }
    case FW_TO_BOARD: {
        int k = count_at(&b->cur, AT_BOARD, 0); /* not yet this one */
        c->where = AT_BOARD;
        c->up = 1;
        on_board(s, k, c);
        break;
    }
    case FW_TO_BURN:
        on_pile(b, AT_BURN, &s->burn, b->burns++, c);
        c = &b->cur.cards[b->cur.ncards - 1];
        break;
    case FW_TO_MUCK:
        on_pile(b, AT_MUCK, &s->muck, b->mucks++, c);
        c = &b->cur.cards[b->cur.ncards - 1];
        break;
    case FW_TO_DECK:
        /* a card seen face up in the stub: the dealer turns it over beside
         * the deck; a second one replaces the first in view */
        for (int i = b->cur.ncards - 2; i >= 0; i--)
            if (b->cur.cards[i].where == AT_DECK)
                remove_card(b, i);
        c = &b->cur.cards[b->cur.ncards - 1];
        c->where = AT_DECK;
        c->x = s->deck_zone.cx + (b->boxed++ % 2 ? 30.0 : -30.0);
        c->y = s->deck_zone.cy;
        c->angle = angle_along(s->deck_zone.ux, s->deck_zone.uy);
        break;
    default:
        return fail(b, FW_EINVAL, "a card to an unknown place");
    }
    if (c->up && c->card == FW_CARD_NONE)
        return fail(b, FW_EINVAL, "a face-up card without its face");
    int pile = ev->to == FW_TO_BURN || ev->to == FW_TO_MUCK;
    if (landing(b, FW_EV_CARD) != FW_OK || hand_over(b, c->x, c->y) != FW_OK ||
        push_view(b, pile ? PILE_SETTLE : SETTLE) != FW_OK)
        return FW_ENOMEM;
    if (remedy == 1) { /* 39-A: the four cards are taken in and re-dealt */
        for (int i = b->cur.ncards - 1; i >= 0; i--)
            if (b->cur.cards[i].where == AT_BOARD)
                remove_card(b, i);
        return push_view(b, FORGET_FRAMES);
    }
    if (remedy == 2) { /* a premature card is set aside */
        b->cur.ncards--;
        return push_view(b, SETTLE);
    }
    return FW_OK;
}

/* ---- the script's course through the rules --------------------------------- */

typedef struct course {
    int *remedy; /* per event: 1 four-card flop, 2 premature card */
    int at;
} course;

static void on_course(void *p, const fw_record *rec)
{
    course *c = p;
    if (rec->type != FW_REC_ALERT)
        return;
    if (strcmp(rec->u.alert.kind, "four_card_flop") == 0)
        c->remedy[c->at] = 1;
    else if (strcmp(rec->u.alert.kind, "premature_card") == 0)
        c->remedy[c->at] = 2;
}

/* ---- public --------------------------------------------------------------- */

int fw_kiosk_sim_new(const fw_calib *cal, const char *script, size_t len,
                     const char *name, const char *deck, fw_kiosk_sim **out,
                     char *err, size_t errsz)
{
    if (err && errsz)
        err[0] = '\0';
    if (!cal || !script || !out)
        return fw_set_error(FW_EINVAL, "kiosk sim: bad arguments");
    *out = NULL;
    fw_kiosk_sim *s = calloc(1, sizeof *s);
    if (!s)
        return fw_set_error(FW_ENOMEM, "kiosk sim: out of memory");
    s->cal = cal;
    s->drawn = -1;
    int rc = geometry(s);
    /* a poker deck; held out of the reader's training */
    const char *dname = deck ? deck : "ar-anglo-poker";
    s->deck = fw_sim_deck_find(dname);
    if (rc == FW_OK && (s->deck < 0 || !fw_sim_deck_installed(s->deck)))
        rc = fw_set_error(FW_ENOENT,
                          "kiosk sim: the card deck %s is not installed "
                          "(scripts/setup.sh installs the Debian card art)",
                          dname);
    if (rc == FW_OK)
        rc = fw_sim_new(NULL, &s->sim);
    s->text = malloc(len + 1);
    if (rc == FW_OK && !s->text)
        rc = fw_set_error(FW_ENOMEM, "kiosk sim: out of memory");
    if (rc != FW_OK) {
        if (err && errsz)
            snprintf(err, errsz, "%s", fw_last_error());
        fw_kiosk_sim_free(s);
        return rc;
    }
    memcpy(s->text, script, len);
    s->text[len] = '\0';

    /* parse every line; lines become NUL-terminated in place */
    long nlines = 1;
    for (size_t i = 0; i < len; i++)
        nlines += s->text[i] == '\n';
    fw_event *evs = calloc((size_t)nlines, sizeof *evs);
    const char **lines = calloc((size_t)nlines, sizeof *lines);
    long *linenos = calloc((size_t)nlines, sizeof *linenos);
    int *remedy = calloc((size_t)nlines, sizeof *remedy);
    fw_engine *eng = NULL;
    course cs = {remedy, 0};
    builder b;
    memset(&b, 0, sizeof b);
    b.s = s;
    b.name = name ? name : "script";
    b.err = err;
    b.errsz = errsz;
    if (!evs || !lines || !linenos || !remedy ||
        fw_engine_new(on_course, &cs, &eng) != FW_OK) {
        rc = fw_set_error(FW_ENOMEM, "kiosk sim: out of memory");
        goto done;
    }
    int nev = 0;
    {
        char *p = s->text, msg[FW_PROTOCOL_ERR_MAX];
        long lineno = 0;
        while (*p) {
            char *nl = strchr(p, '\n');
            size_t l = nl ? (size_t)(nl - p) : strlen(p);
            lineno++;
            if (nl)
                *nl = '\0';
            int prc = fw_protocol_parse_line(p, l, lineno, &evs[nev], msg,
                                             sizeof msg);
            if (prc != FW_PROTOCOL_SKIP) {
                if (prc != FW_OK) { /* msg names the line */
                    if (err && errsz)
                        snprintf(err, errsz, "%s: %s", b.name, msg);
                    rc = fw_set_error(FW_EPARSE, "%s: %s", b.name, msg);
                    goto done;
                }
                while (l > 0 && (p[l - 1] == '\r' || p[l - 1] == ' '))
                    p[--l] = '\0';
                lines[nev] = p;
                linenos[nev] = lineno;
                cs.at = nev;
                fw_engine_apply(eng, &evs[nev], NULL);
                nev++;
            }
            p = nl ? nl + 1 : p + l;
        }
    }

    /* walk the script */
    b.f = 1; /* frame 0 shows the empty felt */
    if ((rc = push_view(&b, 0)) != FW_OK)
        goto done;
    for (int i = 0; i < nev && rc == FW_OK; i++) {
        const fw_event *ev = &evs[i];
        b.lineno = linenos[i];
        switch (ev->type) {
        case FW_EV_HAND_START:
            rc = clear_table(&b);
            s->nhands++;
            if (rc == FW_OK)
                rc = push_tap(&b, ev, lines[i]);
            break;
        case FW_EV_CARD:
            rc = deal_card(&b, ev, remedy[i]);
            break;
        case FW_EV_PUSH:
            if (ev->seat < 1 || ev->seat > FW_CALIB_MAX_SEATS ||
                !s->seat_bet[ev->seat].ok)
                rc = fail(&b, FW_EINVAL,
                          "the calibration has no bet zone for seat %d",
                          ev->seat);
            else
                rc = push_chips(&b, ev);
            break;
        case FW_EV_PULL:
            rc = pull_chips(&b, ev);
            break;
        case FW_EV_FOLD:
        case FW_EV_MUCK:
            rc = to_muck(&b, ev->seat);
            break;
        case FW_EV_SHOW:
            if (gather_chips(&b) != FW_OK)
                rc = FW_ENOMEM;
            else
                rc = show_cards(&b, ev);
            break;
        default:
            rc = push_tap(&b, ev, lines[i]);
            break;
        }
    }
    if (rc == FW_OK) {
        /* the last hand's cards stay until the end */
        s->length = b.f + LAST_FRAMES;
    }

done:
    fw_engine_free(eng);
    free(evs);
    free(lines);
    free(linenos);
    free(remedy);
    if (rc != FW_OK) {
        if (err && errsz && !err[0])
            snprintf(err, errsz, "%s", fw_last_error());
        fw_kiosk_sim_free(s);
        return rc;
    }
    *out = s;
    return FW_OK;
}

void fw_kiosk_sim_free(fw_kiosk_sim *s)
{
    if (!s)
        return;
    fw_sim_free(s->sim);
    free(s->views);
    free(s->taps);
    free(s->landed);
    free(s->text);
    free(s->bg);
    free(s);
}

/* Render view v into s->bg. */
static int render_view(fw_kiosk_sim *s, const view *v, int w, int h)
{
    fw_sim_scene sc;
    memset(&sc, 0, sizeof sc);
    sc.width = w;
    sc.height = h;
    sc.deck = s->deck;
    sc.table = FW_SIM_GREEN;
    sc.seed = 7;
    sc.card_height = (float)(CARD_H_MM * s->px_per_mm);
    sc.light = 0.2f;
    sc.noise = 1.5f;
    sc.ncards = v->ncards;
    if (v->hand) { /* a hand as large as this 2.5x world's (300 x 180
                      mm): a skin-coloured ellipse over the spot */
        double x, y;
        fw_calib_to_image(s->cal, v->hx, v->hy, &x, &y);
        sc.ncovers = 1;
        sc.covers[0].x = (float)x;
        sc.covers[0].y = (float)y;
        sc.covers[0].rx = (float)(150.0 * s->px_per_mm);
        sc.covers[0].ry = (float)(90.0 * s->px_per_mm);
        sc.covers[0].angle = 20;
        sc.covers[0].b = 150;
        sc.covers[0].g = 175;
        sc.covers[0].r = 220;
    }
    for (int i = 0; i < v->ncards; i++) {
        const sim_card *c = &v->cards[i];
        double x, y;
        fw_calib_to_image(s->cal, c->x, c->y, &x, &y);
        sc.cards[i].card = c->card == FW_CARD_NONE ? 0 : c->card;
        sc.cards[i].face_up = c->up;
        sc.cards[i].x = (float)x;
        sc.cards[i].y = (float)y;
        sc.cards[i].angle = (float)c->angle;
        sc.cards[i].lift = 0.3f;
    }
    fw_image img;
    memset(&img, 0, sizeof img);
    int rc = fw_sim_render(s->sim, &sc, &img, NULL);
    if (rc != FW_OK)
        return rc;
    for (int y = 0; y < h; y++)
        memcpy(s->bg + (size_t)y * w * 3, img.bgr + (size_t)y * img.stride,
               (size_t)w * 3);
    fw_vision_image_free(&img);
    float r = (float)(CHIP_R_MM * s->px_per_mm);
    for (int i = 0; i < v->nchips; i++) {
        const sim_chip *c = &v->chips[i];
        const fw_calib_chip *k = chip_of(s->cal, c->value);
        double x, y;
        fw_calib_to_image(s->cal, c->x, c->y, &x, &y);
        uint32_t seed = (uint32_t)(c->seat * 31 + c->slot);
        if (k && c->count > 1) {
            const fw_calib_chip *looks[FW_STACK_MAX_COUNT];
            for (int j = 0; j < c->count; j++)
                looks[j] = k;
            const float pc[2] = {0.5f * (float)w, 0.5f * (float)h};
            rc = fw_chips_draw_stack(s->bg, w, h, w * 3, (float)x, (float)y,
                                     r, looks, c->count,
                                     (float)(FOCAL_WIDTHS * w), pc, seed,
                                     NULL);
        } else if (k) {
            rc = fw_chips_draw(s->bg, w, h, w * 3, (float)x, (float)y, r, k,
                               seed);
        }
        if (rc != FW_OK)
            return rc;
    }
    return FW_OK;
}

/* The view in force at frame `index` (views are in frame order). */
static int view_at(const fw_kiosk_sim *s, long index)
{
    int lo = 0, hi = s->nviews - 1, at = 0;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (s->views[mid].at <= index)
            at = mid, lo = mid + 1;
        else
            hi = mid - 1;
    }
    return at;
}

int64_t fw_kiosk_sim_stack_amount(const fw_kiosk_sim *s, long index, int seat)
{
    if (!s || s->nviews == 0)
        return 0;
    const view *v = &s->views[view_at(s, index)];
    int64_t sum = 0;
    for (int i = 0; i < v->nchips; i++)
        if (v->chips[i].seat == seat && v->chips[i].count > 1)
            sum += v->chips[i].value * v->chips[i].count;
    return sum;
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
        s->drawn = -1;
    }
    int at = view_at(s, index);
    if (at != s->drawn) {
        int rc = render_view(s, &s->views[at], w, h);
        if (rc != FW_OK)
            return rc;
        s->drawn = at;
    }
    for (int y = 0; y < h; y++)
        memcpy(frame->bgr + (size_t)y * frame->stride,
               s->bg + (size_t)y * w * 3, (size_t)w * 3);
    return FW_OK;
}

int fw_kiosk_sim_inputs(const fw_kiosk_sim *s, long index, fw_event *out,
                        const char **lines, int max)
{
    /* taps are in frame order */
    int lo = 0, hi = s->ntaps;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (s->taps[mid].at < index)
            lo = mid + 1;
        else
            hi = mid;
    }
    int n = 0;
    for (int i = lo; i < s->ntaps && s->taps[i].at == index && n < max; i++) {
        out[n] = s->taps[i].ev;
        lines[n] = s->taps[i].line;
        n++;
    }
    return n;
}

long fw_kiosk_sim_landed(const fw_kiosk_sim *s, int i, fw_event_type type)
{
    if (i < 0 || i >= s->nlanded || s->landed[i].type != type)
        return -1;
    return s->landed[i].frame;
}

long fw_kiosk_sim_length(const fw_kiosk_sim *s)
{
    return s->length;
}

int fw_kiosk_sim_cards(const fw_kiosk_sim *s)
{
    return s->ncards;
}

int fw_kiosk_sim_chips(const fw_kiosk_sim *s)
{
    return s->nchips;
}

int fw_kiosk_sim_hands(const fw_kiosk_sim *s)
{
    return s->nhands;
}
