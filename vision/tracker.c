/*
 * tracker.c - card detections over time -> table events (tracker.h).
 */
#include "tracker.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* cost added when a back is matched to a face-up detection (a turn) */
#define FACE_PENALTY_MM 30.0
/* A card at rest does not turn this much (degrees) between two frames; a
 * detection turned further from a track is another card (one tossed on a
 * pile lands at its own angle). */
#define TURN_GATE_DEG 25.0
/* A card found again on a pile lies within this of where it was lost. */
#define PILE_SAME_MM 8.0
#define MAX_PAIRS (FW_TRACKER_MAX_TRACKS * FW_TRACKER_MAX_OBS)
#define MAX_FRAME_EVENTS (FW_TRACKER_MAX_TRACKS + 2 * FW_CALIB_MAX_SEATS + 4)

typedef struct trk {
    int used;
    unsigned seq;     /* creation order */
    int stale;        /* from before the last reset: emits nothing */
    int lost;         /* reported, then unseen for more than M frames */
    int missing;      /* frames since last seen */
    int seen_now;     /* matched on this frame */
    double x, y;      /* last felt position, mm */
    double angle;     /* last long-axis direction, image degrees [0, 180) */
    int face_up;      /* last reading */
    fw_card card;
    /* candidate state and how long it has been seen */
    fw_zone cz;
    int cface;
    fw_card ccard;
    int ccount;
    double ax, ay;    /* where the candidate started */
    long cfirst;      /* frame the candidate was first seen */
    /* committed (certain) state */
    int committed;
    fw_zone z;
    int zface;
    fw_card zcard;
    /* the place whose arrival was reported for this card */
    int has_place;
    fw_zone place;
    int turned;       /* turned face up in its seat zone */
} trk;

typedef struct tev {
    fw_event_type type;
    int seat;
    fw_card_to to;
    fw_face face;
    fw_card card;
    fw_card cards[FW_MAX_HOLE];
    int ncards;
    double t;
    long kframe;      /* ordering key: first appearance */
    unsigned kseq;
} tev;

typedef struct pair {
    double cost;
    int ti, oi;
} pair;

struct fw_tracker {
    const fw_calib *cal;
    fw_tracker_options o;
    int nseats;
    long frame;
    unsigned next_seq;
    trk tr[FW_TRACKER_MAX_TRACKS];
    int folded[FW_CALIB_MAX_SEATS + 1];
    int shown[FW_CALIB_MAX_SEATS + 1];
    /* per-frame scratch */
    double ox[FW_TRACKER_MAX_OBS], oy[FW_TRACKER_MAX_OBS];
    double oa[FW_TRACKER_MAX_OBS]; /* long-axis direction, or -1 */
    int omatched[FW_TRACKER_MAX_OBS];
    pair pairs[MAX_PAIRS];
    tev fev[MAX_FRAME_EVENTS];
    int nfev;
    /* delivery queue (ring) */
    tev q[FW_TRACKER_QUEUE];
    int qhead, qlen;
    int overflow;
};

void fw_tracker_options_default(fw_tracker_options *o)
{
    o->stable_frames = 3;
    o->max_missing = 15;
    o->gate_mm = 60.0;
    o->still_mm = 25.0;
}

int fw_tracker_new(const fw_calib *cal, const fw_tracker_options *opt,
                   fw_tracker **out)
{
    if (!out)
        return fw_set_error(FW_EINVAL, "fw_tracker_new: out is NULL");
    *out = NULL;
    if (!cal)
        return fw_set_error(FW_EINVAL, "fw_tracker_new: no calibration");
    fw_tracker *t = calloc(1, sizeof *t);
    if (!t)
        return fw_set_error(FW_ENOMEM, "fw_tracker_new: out of memory");
    fw_tracker_options d;
    fw_tracker_options_default(&d);
    t->o = d;
    if (opt) {
        if (opt->stable_frames > 0)
            t->o.stable_frames = opt->stable_frames;
        if (opt->max_missing > 0)
            t->o.max_missing = opt->max_missing;
        if (opt->gate_mm > 0)
            t->o.gate_mm = opt->gate_mm;
        if (opt->still_mm > 0)
            t->o.still_mm = opt->still_mm;
    }
    t->cal = cal;
    t->nseats = fw_calib_seats(cal);
    if (t->nseats > FW_CALIB_MAX_SEATS)
        t->nseats = FW_CALIB_MAX_SEATS;
    *out = t;
    return FW_OK;
}

void fw_tracker_forget_board(fw_tracker *t)
{
    if (!t)
        return;
    for (int i = 0; i < FW_TRACKER_MAX_TRACKS; i++) {
        trk *k = &t->tr[i];
        if (!k->used || !k->has_place || k->place.kind != FW_ZONE_BOARD)
            continue;
        if (k->lost)
            memset(k, 0, sizeof *k);
        else
            k->stale = 1; /* seen until it goes, then forgotten */
    }
}

void fw_tracker_free(fw_tracker *t)
{
    free(t);
}

void fw_tracker_reset(fw_tracker *t)
{
    if (!t)
        return;
    for (int i = 0; i < FW_TRACKER_MAX_TRACKS; i++) {
        trk *k = &t->tr[i];
        if (!k->used)
            continue;
        if (k->lost)
            memset(k, 0, sizeof *k);
        else
            k->stale = 1;
    }
    memset(t->folded, 0, sizeof t->folded);
    memset(t->shown, 0, sizeof t->shown);
    t->qhead = t->qlen = 0;
    t->overflow = 0;
}

int fw_tracker_pending(const fw_tracker *t)
{
    return t ? t->qlen : 0;
}

int fw_tracker_count(const fw_tracker *t)
{
    int n = 0;
    if (!t)
        return 0;
    for (int i = 0; i < FW_TRACKER_MAX_TRACKS; i++)
        n += t->tr[i].used;
    return n;
}

/* ------------------------------------------------------------------ */

static int zone_eq(fw_zone a, fw_zone b)
{
    return a.kind == b.kind && (a.kind != FW_ZONE_SEAT_CARDS &&
                                        a.kind != FW_ZONE_SEAT_BET
                                    ? 1
                                    : a.seat == b.seat);
}

static int readable(int face_up, fw_card c)
{
    return face_up && c != FW_CARD_NONE;
}

static tev *frame_event(fw_tracker *t, fw_event_type type, const trk *k)
{
    if (t->nfev >= MAX_FRAME_EVENTS) {
        t->overflow = 1;
        return NULL;
    }
    tev *e = &t->fev[t->nfev++];
    memset(e, 0, sizeof *e);
    e->type = type;
    e->card = FW_CARD_NONE;
    e->kframe = k ? k->cfirst : t->frame;
    e->kseq = k ? k->seq : 0;
    return e;
}

static void emit_card(fw_tracker *t, const trk *k, fw_card_to to, int seat)
{
    tev *e = frame_event(t, FW_EV_CARD, k);
    if (!e)
        return;
    e->to = to;
    e->seat = seat;
    if (readable(k->zface, k->zcard)) {
        e->face = FW_FACE_UP;
        e->card = k->zcard;
    } else {
        e->face = FW_FACE_DOWN;
    }
}

/* The direction of a quad's longer side pair, degrees in [0, 180); -1 for
 * a quad too square to tell. */
static double long_axis(const float c[4][2])
{
    double ax = (c[1][0] - c[0][0] + c[2][0] - c[3][0]) / 2,
           ay = (c[1][1] - c[0][1] + c[2][1] - c[3][1]) / 2,
           bx = (c[3][0] - c[0][0] + c[2][0] - c[1][0]) / 2,
           by = (c[3][1] - c[0][1] + c[2][1] - c[1][1]) / 2;
    double la = hypot(ax, ay), lb = hypot(bx, by);
    if (la < 1e-6 || lb < 1e-6 || fmax(la, lb) < 1.15 * fmin(la, lb))
        return -1;
    double a = la > lb ? atan2(ay, ax) : atan2(by, bx);
    a *= 57.29577951308232; /* degrees */
    while (a < 0)
        a += 180;
    while (a >= 180)
        a -= 180;
    return a;
}

/* A track on the burn or the muck, where cards land on cards. */
static int on_pile(const trk *k)
{
    fw_zone_kind z = k->committed ? k->z.kind : k->cz.kind;
    return z == FW_ZONE_BURN || z == FW_ZONE_MUCK;
}

static int turned_away(double a, double b)
{
    if (a < 0 || b < 0)
        return 0;
    double d = fabs(a - b);
    if (d > 90)
        d = 180 - d;
    return d > TURN_GATE_DEG;
}

/*
 * A card becoming certain at place P that another, unseen card of the same
 * place had already been reported for: the same card coming back. Takes
 * over the old track's history and frees it. Returns 1 when found.
 */
static int reattach(fw_tracker *t, trk *k, fw_zone p)
{
    trk *best = NULL;
    for (int i = 0; i < FW_TRACKER_MAX_TRACKS; i++) {
        trk *u = &t->tr[i];
        if (!u->used || u == k || u->stale || !u->has_place ||
            !zone_eq(u->place, p))
            continue;
        if (!u->lost) /* an occluded card may be the one beside this */
            continue;
        if (readable(u->zface, u->zcard) && readable(k->zface, k->zcard) &&
            u->zcard != k->zcard)
            continue;
        /* on a pile, only a card lying just where and as that one lay is
         * that card again */
        if ((p.kind == FW_ZONE_BURN || p.kind == FW_ZONE_MUCK) &&
            (turned_away(u->angle, k->angle) ||
             hypot(u->x - k->x, u->y - k->y) > PILE_SAME_MM))
            continue;
        if (!best || u->seq > best->seq)
            best = u;
    }
    if (!best)
        return 0;
    k->has_place = 1;
    k->place = p;
    k->turned = best->turned;
    memset(best, 0, sizeof *best);
    return 1;
}

/* the seat whose face-down card vanished recently (a toss to the muck) */
static int tossed_from(fw_tracker *t, trk *k)
{
    trk *best = NULL;
    for (int i = 0; i < FW_TRACKER_MAX_TRACKS; i++) {
        trk *u = &t->tr[i];
        if (!u->used || u == k || u->stale || u->lost || u->missing == 0 ||
            !u->has_place || u->place.kind != FW_ZONE_SEAT_CARDS ||
            u->zface)
            continue;
        if (!best || u->missing < best->missing)
            best = u;
    }
    if (!best)
        return 0;
    int seat = best->place.seat;
    memset(best, 0, sizeof *best);
    return seat;
}

static void commit(fw_tracker *t, trk *k)
{
    int was = k->committed;
    fw_zone oz = k->z;
    int oface = k->zface;
    k->committed = 1;
    k->z = k->cz;
    k->zface = k->cface;
    k->zcard = k->ccard;
    if (k->stale)
        return;
    fw_zone z = k->z;
    int up = readable(k->zface, k->zcard);
    switch (z.kind) {
    case FW_ZONE_SEAT_CARDS:
        if (!(k->has_place && zone_eq(k->place, z))) {
            if (!reattach(t, k, z))
                emit_card(t, k, FW_TO_SEAT, z.seat);
            k->has_place = 1;
            k->place = z;
            k->turned = 0;
        } else if (was && zone_eq(oz, z) && !oface && up) {
            k->turned = 1;
        }
        break;
    case FW_ZONE_BURN:
    case FW_ZONE_BOARD:
    case FW_ZONE_DECK: {
        if (z.kind != FW_ZONE_BURN && !up)
            break;
        if (k->has_place && zone_eq(k->place, z))
            break;
        if (!reattach(t, k, z))
            emit_card(t, k,
                      z.kind == FW_ZONE_BURN    ? FW_TO_BURN
                      : z.kind == FW_ZONE_BOARD ? FW_TO_BOARD
                                                : FW_TO_DECK,
                      0);
        k->has_place = 1;
        k->place = z;
        break;
    }
    case FW_ZONE_MUCK: {
        int seat = 0;
        if (k->has_place) {
            if (k->place.kind == FW_ZONE_SEAT_CARDS)
                seat = k->place.seat;
        } else if (!k->zface) {
            seat = tossed_from(t, k);
        }
        if (seat >= 1 && seat <= FW_CALIB_MAX_SEATS && !t->folded[seat] &&
            !t->shown[seat]) {
            tev *e = frame_event(t, FW_EV_FOLD, k);
            if (e)
                e->seat = seat;
            t->folded[seat] = 1;
        }
        k->has_place = 1;
        k->place = z;
        break;
    }
    default:
        break;
    }
}

static void check_shows(fw_tracker *t)
{
    for (int s = 1; s <= t->nseats; s++) {
        if (t->shown[s] || t->folded[s])
            continue;
        fw_card cards[FW_MAX_HOLE];
        int n = 0, ok = 1, turned = 0;
        const trk *last = NULL;
        for (int i = 0; i < FW_TRACKER_MAX_TRACKS && ok; i++) {
            const trk *k = &t->tr[i];
            if (!k->used || k->stale || k->lost || !k->has_place ||
                k->place.kind != FW_ZONE_SEAT_CARDS || k->place.seat != s)
                continue;
            if (!k->committed || !zone_eq(k->z, k->place))
                continue; /* left the zone (on its way somewhere) */
            if (!readable(k->zface, k->zcard)) {
                ok = 0;
                break;
            }
            turned |= k->turned;
            if (n < FW_MAX_HOLE)
                cards[n++] = k->zcard;
            if (!last || k->cfirst > last->cfirst ||
                (k->cfirst == last->cfirst && k->seq > last->seq))
                last = k;
        }
        if (!ok || !turned || n == 0)
            continue;
        tev *e = frame_event(t, FW_EV_SHOW, last);
        if (!e)
            return;
        e->seat = s;
        memcpy(e->cards, cards, sizeof(fw_card) * (size_t)n);
        e->ncards = n;
        t->shown[s] = 1;
    }
}

static int pair_cmp(const void *a, const void *b)
{
    const pair *p = a, *q = b;
    if (p->cost != q->cost)
        return p->cost < q->cost ? -1 : 1;
    if (p->ti != q->ti)
        return p->ti - q->ti;
    return p->oi - q->oi;
}

static void observe(fw_tracker *t, trk *k, int face_up, fw_card card,
                    double x, double y, double angle)
{
    /* a card certain on a pile keeps the angle it landed at: what is
     * seen over it (a hand) must not turn it into the next card */
    if (!(k->committed && on_pile(k)))
        k->angle = angle;
    if (!face_up)
        card = FW_CARD_NONE;
    /* a card certain face up keeps its reading through a misread frame */
    if (face_up && card != FW_CARD_NONE && k->committed && k->zface &&
        k->zcard != FW_CARD_NONE && card != k->zcard)
        card = k->zcard;
    /* a face-up card not read on this frame keeps its reading */
    if (face_up && card == FW_CARD_NONE && k->ccount > 0 && k->cface)
        card = k->ccard;
    fw_zone z = fw_calib_zone_at(t->cal, x, y);
    double dx = x - k->ax, dy = y - k->ay;
    if (k->ccount > 0 && zone_eq(z, k->cz) && face_up == k->cface &&
        card == k->ccard && dx * dx + dy * dy <= t->o.still_mm * t->o.still_mm) {
        k->ccount++;
    } else {
        k->cz = z;
        k->cface = face_up;
        k->ccard = card;
        k->ccount = 1;
        k->ax = x;
        k->ay = y;
        k->cfirst = t->frame;
    }
    k->x = x;
    k->y = y;
    k->face_up = face_up;
    k->card = card;
    k->missing = 0;
    k->lost = 0;
    k->seen_now = 1;
}

static trk *new_track(fw_tracker *t)
{
    trk *victim = NULL;
    for (int i = 0; i < FW_TRACKER_MAX_TRACKS; i++) {
        trk *k = &t->tr[i];
        if (!k->used) {
            victim = k;
            break;
        }
        /* full: give up the longest-lost card */
        if (k->lost && (!victim || k->seq < victim->seq))
            victim = k;
    }
    if (!victim)
        return NULL;
    memset(victim, 0, sizeof *victim);
    victim->used = 1;
    victim->seq = t->next_seq++;
    return victim;
}

static int tev_before(const tev *a, const tev *b)
{
    if (a->kframe != b->kframe)
        return a->kframe < b->kframe;
    return a->kseq < b->kseq;
}

static int duplicate(const fw_tracker *t, int j, int n)
{
    double r2 = t->o.still_mm * t->o.still_mm;
    for (int i = 0; i < n; i++) {
        double dx = t->ox[i] - t->ox[j], dy = t->oy[i] - t->oy[j];
        if (i != j && t->omatched[i] == 1 && dx * dx + dy * dy < r2)
            return 1;
    }
    return 0;
}

int fw_tracker_frame(fw_tracker *t, double t_seconds, const fw_card_obs *obs,
                     int n, fw_event *events, int max_events, int *nevents)
{
    if (nevents)
        *nevents = 0;
    if (!t || n < 0 || (n > 0 && !obs) || max_events < 0 ||
        (max_events > 0 && !events) || !nevents)
        return fw_set_error(FW_EINVAL, "fw_tracker_frame: bad arguments");
    if (n > FW_TRACKER_MAX_OBS)
        n = FW_TRACKER_MAX_OBS;
    t->frame++;
    t->nfev = 0;
    t->overflow = 0;

    for (int j = 0; j < n; j++) {
        double cx = 0, cy = 0;
        for (int c = 0; c < 4; c++) {
            cx += obs[j].corners[c][0];
            cy += obs[j].corners[c][1];
        }
        fw_calib_to_felt(t->cal, cx / 4, cy / 4, &t->ox[j], &t->oy[j]);
        t->oa[j] = long_axis(obs[j].corners);
        t->omatched[j] = 0;
    }

    /* greedy matching, cheapest pair first */
    int np = 0;
    double gate2 = t->o.gate_mm * t->o.gate_mm,
           pile2 = t->o.still_mm * t->o.still_mm;
    for (int i = 0; i < FW_TRACKER_MAX_TRACKS; i++) {
        trk *k = &t->tr[i];
        k->seen_now = 0;
        if (!k->used || k->lost)
            continue;
        for (int j = 0; j < n; j++) {
            double dx = t->ox[j] - k->x, dy = t->oy[j] - k->y;
            double d2 = dx * dx + dy * dy;
            /* a card on a pile lies still: what moved there is another
             * card, or a hand over it */
            if (d2 > (on_pile(k) ? pile2 : gate2) ||
                (on_pile(k) && turned_away(k->angle, t->oa[j])))
                continue;
            int oup = obs[j].face_up != 0;
            fw_card oc = oup ? obs[j].card : FW_CARD_NONE;
            double cost = sqrt(d2);
            /* the face this card is known by: certain, else last read */
            fw_card known = k->committed && k->zface ? k->zcard
                            : k->face_up             ? k->card
                                                     : FW_CARD_NONE;
            if (oup && oc != FW_CARD_NONE && known != FW_CARD_NONE &&
                oc != known) {
                /* read differently: another card, unless it lies where
                 * this one was seen and read on the last frame (a card is
                 * not swapped unseen within one frame): then a misreading */
                if (k->missing > 0 || !k->face_up || k->card != known ||
                    cost > t->o.still_mm / 2)
                    continue;
                cost += 2 * FACE_PENALTY_MM;
            }
            if (oup != k->face_up)
                cost += FACE_PENALTY_MM;
            pair *p = &t->pairs[np++];
            p->cost = cost;
            p->ti = i;
            p->oi = j;
        }
    }
    qsort(t->pairs, (size_t)np, sizeof(pair), pair_cmp);
    for (int q = 0; q < np; q++) {
        pair *p = &t->pairs[q];
        trk *k = &t->tr[p->ti];
        if (k->seen_now || t->omatched[p->oi])
            continue;
        t->omatched[p->oi] = 1;
        observe(t, k, obs[p->oi].face_up != 0, obs[p->oi].card, t->ox[p->oi],
                t->oy[p->oi], t->oa[p->oi]);
    }

    /* cards not seen: occluded for up to M frames, then lost or gone */
    for (int i = 0; i < FW_TRACKER_MAX_TRACKS; i++) {
        trk *k = &t->tr[i];
        if (!k->used || k->seen_now || k->lost)
            continue;
        if (++k->missing > t->o.max_missing) {
            if (k->committed && k->has_place && !k->stale)
                k->lost = 1;
            else
                memset(k, 0, sizeof *k);
        }
    }

    /* new detections; one within still_mm of a detection matched to a
     * card (or of one that just became a card) is a second outline found
     * for that card, not a card */
    for (int j = 0; j < n; j++) {
        if (t->omatched[j] || duplicate(t, j, n))
            continue;
        trk *k = new_track(t);
        if (!k)
            break;
        t->omatched[j] = 1; /* later outlines of it are duplicates */
        observe(t, k, obs[j].face_up != 0, obs[j].card, t->ox[j], t->oy[j],
                t->oa[j]);
    }

    /* states that became certain, oldest track first */
    for (int i = 0; i < FW_TRACKER_MAX_TRACKS; i++) {
        trk *k = &t->tr[i];
        if (!k->used || !k->seen_now || k->ccount < t->o.stable_frames)
            continue;
        if (k->committed && zone_eq(k->z, k->cz) && k->zface == k->cface &&
            k->zcard == k->ccard)
            continue;
        commit(t, k);
    }
    check_shows(t);

    /* order this frame's events by first appearance (stable) */
    for (int a = 1; a < t->nfev; a++) {
        tev e = t->fev[a];
        int b = a - 1;
        while (b >= 0 && tev_before(&e, &t->fev[b])) {
            t->fev[b + 1] = t->fev[b];
            b--;
        }
        t->fev[b + 1] = e;
    }
    for (int a = 0; a < t->nfev; a++) {
        t->fev[a].t = t_seconds;
        if (t->qlen >= FW_TRACKER_QUEUE) {
            t->overflow = 1;
            break;
        }
        t->q[(t->qhead + t->qlen) % FW_TRACKER_QUEUE] = t->fev[a];
        t->qlen++;
    }

    /* deliver */
    int out = 0;
    while (out < max_events && t->qlen > 0) {
        const tev *e = &t->q[t->qhead];
        fw_event *ev = &events[out++];
        memset(ev, 0, sizeof *ev);
        ev->type = e->type;
        ev->seat = e->seat;
        ev->card = FW_CARD_NONE;
        if (e->type == FW_EV_CARD) {
            ev->to = e->to;
            ev->face = e->face;
            ev->card = e->card;
        } else if (e->type == FW_EV_SHOW) {
            memcpy(ev->cards, e->cards, sizeof e->cards);
            ev->ncards = e->ncards;
        }
        ev->has_t = 1;
        ev->t = e->t;
        t->qhead = (t->qhead + 1) % FW_TRACKER_QUEUE;
        t->qlen--;
    }
    *nevents = out;
    if (t->overflow)
        return fw_set_error(FW_ERANGE,
                            "fw_tracker_frame: event queue overflowed");
    return FW_OK;
}
