/*
 * stack_asker.c - stacks in bet zones -> questions for the dealer, answers
 * -> pushes (stack_asker.h).
 */
#include "stack_asker.h"

#include <math.h>
#include <string.h>

int fw_stack_asker_init(fw_stack_asker *a, const fw_calib *cal,
                        int stable_frames, int gone_frames)
{
    if (!a || !cal)
        return fw_set_error(FW_EINVAL, "fw_stack_asker_init: NULL argument");
    memset(a, 0, sizeof *a);
    a->cal = cal;
    a->stable_frames = stable_frames > 0 ? stable_frames : 3;
    a->gone_frames = gone_frames > 0 ? gone_frames : 15;
    return FW_OK;
}

void fw_stack_asker_reset(fw_stack_asker *a)
{
    if (!a)
        return;
    for (int s = 0; s <= FW_MAX_SEATS; s++) {
        a->seen_run[s] = a->gone_run[s] = 0;
        a->asked[s] = a->open[s] = 0;
    }
}

/* The smallest and largest chip of the calibrated set (0 when none). */
static void set_range(const fw_calib *cal, int64_t *lo, int64_t *hi)
{
    const fw_calib_chip *set;
    int n = fw_calib_chips(cal, &set);
    *lo = *hi = 0;
    for (int i = 0; i < n; i++) {
        if (*lo == 0 || set[i].value < *lo)
            *lo = set[i].value;
        if (set[i].value > *hi)
            *hi = set[i].value;
    }
}

int fw_stack_asker_frame(fw_stack_asker *a, const fw_stack_obs *stacks,
                         int n, fw_stack_question *out, int max)
{
    if (!a || n < 0 || (n > 0 && !stacks) || max < 0 || (max > 0 && !out))
        return fw_set_error(FW_EINVAL, "fw_stack_asker_frame: bad arguments");
    /* the stack of each seat on this frame (the first one seen) */
    int at[FW_MAX_SEATS + 1];
    for (int s = 0; s <= FW_MAX_SEATS; s++)
        at[s] = -1;
    for (int i = 0; i < n; i++) {
        const fw_stack_obs *o = &stacks[i];
        if (!isfinite(o->center[0]) || !isfinite(o->center[1]))
            continue;
        double fx, fy;
        fw_calib_to_felt(a->cal, o->center[0], o->center[1], &fx, &fy);
        fw_zone zn = fw_calib_zone_at(a->cal, fx, fy);
        if (zn.kind == FW_ZONE_SEAT_BET && zn.seat >= 1 &&
            zn.seat <= FW_MAX_SEATS && at[zn.seat] < 0)
            at[zn.seat] = i;
    }
    int nq = 0;
    for (int s = 1; s <= FW_MAX_SEATS; s++) {
        if (at[s] < 0) {
            a->seen_run[s] = 0;
            if (++a->gone_run[s] >= a->gone_frames)
                a->asked[s] = a->open[s] = 0;
            continue;
        }
        a->gone_run[s] = 0;
        a->seen_run[s]++;
        if (a->asked[s] || a->seen_run[s] < a->stable_frames || nq >= max)
            continue;
        const fw_stack_obs *o = &stacks[at[s]];
        fw_stack_question q;
        memset(&q, 0, sizeof q);
        q.seat = s;
        q.value = o->value;
        q.count_lo = o->count_lo;
        q.count_hi = o->count_hi;
        if (o->value > 0) {
            q.lo = o->value * o->count_lo;
            q.hi = o->value * o->count_hi;
        } else {
            int64_t vlo, vhi;
            set_range(a->cal, &vlo, &vhi);
            q.lo = vlo * o->count_lo;
            q.hi = vhi * o->count_hi;
        }
        a->asked[s] = a->open[s] = 1;
        a->last[s] = q;
        out[nq++] = q;
    }
    return nq;
}

/*
 * `amount` in chips into push->chips: of `value` when it divides evenly,
 * else the set's chips, largest first. 0 when it cannot be made up.
 */
static int make_up(const fw_calib *cal, int64_t amount, int64_t value,
                   fw_event *push)
{
    push->nchips = 0;
    if (value > 0 && amount % value == 0 &&
        amount / value <= FW_MAX_CHIPS_PER_EVENT) {
        for (int64_t i = 0; i < amount / value; i++)
            push->chips[push->nchips++] = value;
        return 1;
    }
    const fw_calib_chip *set;
    int n = fw_calib_chips(cal, &set);
    int64_t left = amount;
    while (left > 0) {
        int64_t best = 0;
        for (int i = 0; i < n; i++)
            if (set[i].value <= left && set[i].value > best)
                best = set[i].value;
        if (best == 0 || push->nchips == FW_MAX_CHIPS_PER_EVENT)
            return 0;
        push->chips[push->nchips++] = best;
        left -= best;
    }
    return 1;
}

int fw_stack_asker_answer(fw_stack_asker *a, int seat, int64_t amount,
                          fw_event *push)
{
    if (!a || !push || amount < 0)
        return fw_set_error(FW_EINVAL, "fw_stack_asker_answer: bad arguments");
    memset(push, 0, sizeof *push);
    if (seat < 1 || seat > FW_MAX_SEATS || !a->open[seat])
        return 0;
    a->open[seat] = 0;
    if (amount == 0)
        return 0;
    push->type = FW_EV_PUSH;
    push->seat = seat;
    if (!make_up(a->cal, amount, a->last[seat].value, push)) {
        memset(push, 0, sizeof *push);
        return 0;
    }
    return 1;
}

int fw_stack_asker_open(const fw_stack_asker *a, int seat)
{
    return a && seat >= 1 && seat <= FW_MAX_SEATS && a->open[seat];
}
