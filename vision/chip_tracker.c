/*
 * chip_tracker.c - chip detections over time -> push and pull events
 * (chip_tracker.h).
 *
 * Every zone's content is kept as an array of values sorted highest first,
 * so that two contents compare with memcmp and their difference is one
 * merge.
 */
#include "chip_tracker.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ZONE FW_CHIP_TRACKER_MAX_ZONE

_Static_assert(MAX_ZONE <= FW_MAX_CHIPS_PER_EVENT,
               "a zone's chips must fit in one event");

/* One bet zone. */
typedef struct zone {
    int64_t sure[MAX_ZONE]; /* certain content, highest first */
    int nsure;
    int64_t cand[MAX_ZONE]; /* the content being seen, and for how long */
    int ncand;
    int crun;
    int empty_run;  /* frames in a row seeing nothing while sure is not */
    int collecting; /* losses are silent until sure is empty */
    int ucand, urun, usure; /* unknown chips: seen, for how long, certain */
} zone;

/* An event waiting for delivery. */
typedef struct cev {
    fw_event_type type;
    int seat;
    int n;
    int64_t v[MAX_ZONE];
    double t;
} cev;

struct fw_chip_tracker {
    const fw_calib *cal;
    fw_chip_tracker_options o;
    int nseats;
    zone z[FW_CALIB_MAX_SEATS + 1]; /* by seat; [0] unused */
    /* per-frame scratch: what each zone sees */
    int64_t seen[FW_CALIB_MAX_SEATS + 1][MAX_ZONE];
    int nseen[FW_CALIB_MAX_SEATS + 1];
    int useen[FW_CALIB_MAX_SEATS + 1];
    int unknown, outside; /* ignored on the last frame */
    /* delivery queue (ring) */
    cev q[FW_CHIP_TRACKER_QUEUE];
    int qhead, qlen;
    int overflow;
};

void fw_chip_tracker_options_default(fw_chip_tracker_options *o)
{
    o->stable_frames = 3;
    o->max_missing = 15;
}

int fw_chip_tracker_new(const fw_calib *cal, const fw_chip_tracker_options *opt,
                        fw_chip_tracker **out)
{
    if (!out)
        return fw_set_error(FW_EINVAL, "fw_chip_tracker_new: out is NULL");
    *out = NULL;
    if (!cal)
        return fw_set_error(FW_EINVAL, "fw_chip_tracker_new: no calibration");
    fw_chip_tracker *t = calloc(1, sizeof *t);
    if (!t)
        return fw_set_error(FW_ENOMEM, "fw_chip_tracker_new: out of memory");
    fw_chip_tracker_options_default(&t->o);
    if (opt) {
        if (opt->stable_frames > 0)
            t->o.stable_frames = opt->stable_frames;
        if (opt->max_missing > 0)
            t->o.max_missing = opt->max_missing;
    }
    t->cal = cal;
    t->nseats = fw_calib_seats(cal);
    if (t->nseats > FW_CALIB_MAX_SEATS)
        t->nseats = FW_CALIB_MAX_SEATS;
    if (t->nseats < 0)
        t->nseats = 0;
    *out = t;
    return FW_OK;
}

void fw_chip_tracker_free(fw_chip_tracker *t)
{
    free(t);
}

void fw_chip_tracker_collect(fw_chip_tracker *t)
{
    if (!t)
        return;
    /* also zones still empty: a call declared by voice closes the round
     * before its chips arrive, and those chips are gathered too */
    for (int s = 1; s <= t->nseats; s++)
        t->z[s].collecting = 1;
}

void fw_chip_tracker_reset(fw_chip_tracker *t)
{
    if (!t)
        return;
    fw_chip_tracker_collect(t);
    for (int s = 1; s <= t->nseats; s++) {
        zone *z = &t->z[s];
        z->ncand = 0;
        z->crun = 0;
        z->empty_run = 0;
        z->ucand = z->urun = z->usure = 0;
    }
    t->unknown = t->outside = 0;
    t->qhead = t->qlen = 0;
    t->overflow = 0;
}

int fw_chip_tracker_pending(const fw_chip_tracker *t)
{
    return t ? t->qlen : 0;
}

int fw_chip_tracker_content(const fw_chip_tracker *t, int seat, int64_t *values,
                            int max)
{
    if (!t || seat < 1 || seat > t->nseats)
        return 0;
    const zone *z = &t->z[seat];
    for (int i = 0; values && i < max && i < z->nsure; i++)
        values[i] = z->sure[i];
    return z->nsure;
}

int fw_chip_tracker_collecting(const fw_chip_tracker *t)
{
    if (!t)
        return 0;
    /* chips still to be gathered (an empty zone collecting waits for
     * chips of a round already closed, and gathers nothing yet) */
    for (int s = 1; s <= t->nseats; s++)
        if (t->z[s].collecting && t->z[s].nsure > 0)
            return 1;
    return 0;
}

void fw_chip_tracker_ignored(const fw_chip_tracker *t, int *unknown,
                             int *outside)
{
    if (unknown)
        *unknown = t ? t->unknown : 0;
    if (outside)
        *outside = t ? t->outside : 0;
}

int fw_chip_tracker_unknown(const fw_chip_tracker *t, int seat)
{
    if (!t || seat < 1 || seat > t->nseats)
        return 0;
    return t->z[seat].usure;
}

/* ------------------------------------------------------------------ */

/* Insert v into a[0..*n-1] (highest first); a full array drops it. */
static void insert_value(int64_t *a, int *n, int64_t v)
{
    if (*n >= MAX_ZONE)
        return;
    int i = *n;
    while (i > 0 && a[i - 1] < v) {
        a[i] = a[i - 1];
        i--;
    }
    a[i] = v;
    (*n)++;
}

static int same_content(const int64_t *a, int na, const int64_t *b, int nb)
{
    return na == nb && (na == 0 || memcmp(a, b, sizeof *a * (size_t)na) == 0);
}

/*
 * The multiset differences of two contents sorted highest first: the values
 * of `from` missing in `to` go to gone[], those of `to` missing in `from` to
 * came[] (each highest first, at most MAX_ZONE).
 */
static void diff_content(const int64_t *from, int nfrom, const int64_t *to,
                         int nto, int64_t *gone, int *ngone, int64_t *came,
                         int *ncame)
{
    int i = 0, j = 0;
    *ngone = *ncame = 0;
    while (i < nfrom || j < nto) {
        if (j >= nto || (i < nfrom && from[i] > to[j]))
            gone[(*ngone)++] = from[i++];
        else if (i >= nfrom || to[j] > from[i])
            came[(*ncame)++] = to[j++];
        else {
            i++;
            j++;
        }
    }
}

/* Queue an event; a full queue drops it and marks the overflow. */
static void queue_event(fw_chip_tracker *t, fw_event_type type, int seat,
                        const int64_t *v, int n, double when)
{
    if (t->qlen >= FW_CHIP_TRACKER_QUEUE) {
        t->overflow = 1;
        return;
    }
    cev *e = &t->q[(t->qhead + t->qlen) % FW_CHIP_TRACKER_QUEUE];
    t->qlen++;
    e->type = type;
    e->seat = seat;
    e->n = n;
    memcpy(e->v, v, sizeof *v * (size_t)n);
    e->t = when;
}

/*
 * Seat s's zone takes `to` as its certain content: the chips it lost are a
 * pull (unless the zone is collecting), the chips it gained a push, queued
 * in that order. A zone left empty stops collecting.
 */
static void commit(fw_chip_tracker *t, int s, const int64_t *to, int nto,
                   double when)
{
    zone *z = &t->z[s];
    int64_t gone[MAX_ZONE], came[MAX_ZONE];
    int ngone, ncame;
    diff_content(z->sure, z->nsure, to, nto, gone, &ngone, came, &ncame);
    if (ngone > 0 && !z->collecting)
        queue_event(t, FW_EV_PULL, s, gone, ngone, when);
    if (ncame > 0)
        queue_event(t, FW_EV_PUSH, s, came, ncame, when);
    if (nto > 0)
        memcpy(z->sure, to, sizeof *to * (size_t)nto);
    z->nsure = nto;
    if (nto == 0)
        z->collecting = 0;
}

/*
 * One frame's view of seat s's zone (t->seen[s], t->useen[s]) against the
 * rules of chip_tracker.h: a zone seeing nothing of its certain chips waits
 * M frames (an arm over the table) before they are gone; otherwise a
 * content seen on K frames in a row becomes certain.
 */
static void zone_frame(fw_chip_tracker *t, int s, double when)
{
    zone *z = &t->z[s];
    const int64_t *seen = t->seen[s];
    int nseen = t->nseen[s];
    int k = t->o.stable_frames;

    /* unknown chips: only a count, certain after K equal frames */
    if (t->useen[s] == z->ucand) {
        z->urun++;
    } else {
        z->ucand = t->useen[s];
        z->urun = 1;
    }
    if (z->urun >= k)
        z->usure = z->ucand;

    if (nseen == 0 && z->nsure > 0) {
        z->empty_run++;
        if (z->empty_run > t->o.max_missing && z->empty_run >= k) {
            commit(t, s, NULL, 0, when);
            z->empty_run = 0;
            z->ncand = 0;
            z->crun = k;
        }
        return;
    }
    z->empty_run = 0;
    if (z->crun > 0 && same_content(seen, nseen, z->cand, z->ncand)) {
        z->crun++;
    } else {
        if (nseen > 0)
            memcpy(z->cand, seen, sizeof *seen * (size_t)nseen);
        z->ncand = nseen;
        z->crun = 1;
    }
    if (z->crun >= k && !same_content(z->cand, z->ncand, z->sure, z->nsure))
        commit(t, s, z->cand, z->ncand, when);
}

int fw_chip_tracker_frame(fw_chip_tracker *t, double t_seconds,
                          const fw_chip_obs *chips, int n, fw_event *events,
                          int max_events, int *nevents)
{
    if (nevents)
        *nevents = 0;
    if (!t || n < 0 || (n > 0 && !chips) || max_events < 0 ||
        (max_events > 0 && !events) || !nevents)
        return fw_set_error(FW_EINVAL, "fw_chip_tracker_frame: bad arguments");
    if (n > FW_CHIP_TRACKER_MAX_OBS)
        n = FW_CHIP_TRACKER_MAX_OBS;
    t->overflow = 0;
    t->unknown = t->outside = 0;
    for (int s = 0; s <= t->nseats; s++)
        t->nseen[s] = t->useen[s] = 0;

    for (int j = 0; j < n; j++) {
        const fw_chip_obs *o = &chips[j];
        int seat = 0;
        if (isfinite(o->center[0]) && isfinite(o->center[1])) {
            double fx, fy;
            fw_calib_to_felt(t->cal, o->center[0], o->center[1], &fx, &fy);
            fw_zone zn = fw_calib_zone_at(t->cal, fx, fy);
            if (zn.kind == FW_ZONE_SEAT_BET && zn.seat >= 1 &&
                zn.seat <= t->nseats)
                seat = zn.seat;
        }
        if (seat == 0) {
            t->outside++;
        } else if (o->value <= 0) {
            t->unknown++;
            t->useen[seat]++;
        } else {
            insert_value(t->seen[seat], &t->nseen[seat], o->value);
        }
    }

    /* zones in seat order, so the frame's events are in seat order */
    for (int s = 1; s <= t->nseats; s++)
        zone_frame(t, s, t_seconds);

    int out = 0;
    while (out < max_events && t->qlen > 0) {
        const cev *e = &t->q[t->qhead];
        fw_event *ev = &events[out++];
        memset(ev, 0, sizeof *ev);
        ev->type = e->type;
        ev->seat = e->seat;
        ev->card = FW_CARD_NONE;
        memcpy(ev->chips, e->v, sizeof e->v[0] * (size_t)e->n);
        ev->nchips = e->n;
        ev->has_t = 1;
        ev->t = e->t;
        t->qhead = (t->qhead + 1) % FW_CHIP_TRACKER_QUEUE;
        t->qlen--;
    }
    *nevents = out;
    if (t->overflow)
        return fw_set_error(FW_ERANGE,
                            "fw_chip_tracker_frame: event queue overflowed");
    return FW_OK;
}
