/*
 * pots.c - the main pot and side pots from what each seat committed, and the
 * awards at the end of a hand: best hand per pot (Rule 12), side pots split
 * separately (21), odd chips broken to the smallest chip in play and given
 * to the first winner left of the button (20).
 */
#include "engine_int.h"

#include <stdio.h>
#include <string.h>

static bool contends(const seat *p)
{
    return p->dealt_in && !p->folded && !p->dead && !p->mucked;
}

/*
 * Split committed chips into pots. A pot is capped at each distinct
 * commitment of a contending all-in seat; everything above the last cap is
 * the last pot, open to every contending seat that is not all-in. Chips of
 * folded seats fill the pots in the same order (dead money). Pots with the
 * same eligible seats are merged.
 */
int fw__build_pots(const fw_engine *e, fw_pot_view *pots, int max)
{
    /* antes are dead money: every contending seat can win them, so they
     * sit in the main pot and take no part in the levels */
    int64_t bets[FW_MAX_SEATS + 1] = {0}, antes = 0;
    int64_t caps[FW_MAX_SEATS + 1];
    int ncaps = 0;
    for (int s = 1; s <= e->nseats; s++) {
        const seat *p = &e->seats[s];
        bets[s] = p->committed - p->ante_paid;
        antes += p->ante_paid;
    }
    for (int s = 1; s <= e->nseats; s++) {
        const seat *p = &e->seats[s];
        if (!contends(p) || !p->all_in || bets[s] == 0)
            continue;
        int k = 0;
        while (k < ncaps && caps[k] < bets[s])
            k++;
        if (k < ncaps && caps[k] == bets[s])
            continue;
        memmove(&caps[k + 1], &caps[k], sizeof caps[0] * (size_t)(ncaps - k));
        caps[k] = bets[s];
        ncaps++;
    }
    caps[ncaps++] = INT64_MAX; /* the open pot above every all-in */

    int npots = 0;
    int64_t floor_level = 0;
    for (int c = 0; c < ncaps; c++) {
        fw_pot_view pot;
        memset(&pot, 0, sizeof pot);
        if (c == 0)
            pot.amount = antes;
        for (int s = 1; s <= e->nseats; s++) {
            const seat *p = &e->seats[s];
            int64_t top = bets[s] < caps[c] ? bets[s] : caps[c];
            if (top > floor_level)
                pot.amount += top - floor_level;
            if (contends(p) && (bets[s] > floor_level || c == 0) &&
                (bets[s] >= caps[c] || !p->all_in))
                pot.seats[pot.nseats++] = s;
        }
        floor_level = caps[c];
        if (pot.amount == 0)
            continue;
        if (pot.nseats == 0 && npots > 0) {
            pots[npots - 1].amount += pot.amount; /* dead money only */
        } else if (npots > 0 && pots[npots - 1].nseats == pot.nseats &&
                   memcmp(pots[npots - 1].seats, pot.seats,
                          sizeof(int) * (size_t)pot.nseats) == 0) {
            pots[npots - 1].amount += pot.amount;
        } else if (npots < max) {
            pots[npots++] = pot;
        } else {
            pots[npots - 1].amount += pot.amount;
        }
    }
    return npots;
}

/* The value of a seat's hand with the board, or 0 if it cannot be read. */
static fw_hand_value seat_value(const fw_engine *e, const seat *p)
{
    int need = fw_game_hole_cards(e->game);
    for (int i = 0; i < need; i++)
        if (p->hole[i] == FW_CARD_NONE)
            return 0;
    if (e->game == FW_GAME_PLO || e->game == FW_GAME_PLO5)
        return fw_eval_omaha(p->hole, need, e->board, e->nboard);
    fw_card cards[7];
    int n = 0;
    for (int i = 0; i < need && n < 7; i++)
        cards[n++] = p->hole[i];
    for (int i = 0; i < e->nboard && n < 7; i++)
        cards[n++] = e->board[i];
    if (n < 5)
        return 0;
    if (e->game == FW_GAME_NLSD)
        return fw_eval_short_deck(cards, n);
    return fw_eval_high(cards, n);
}

/* Award one pot: best hand among its seats, odd chips per Rule 20. */
static void award_pot(fw_engine *e, int index, const fw_pot_view *pot,
                      int npots)
{
    fw_record rec;
    memset(&rec, 0, sizeof rec);
    rec.type = FW_REC_AWARD;
    fw_award *a = &rec.u.award;
    a->pot = index;
    a->amount = pot->amount;

    /* winners in order starting left of the button (Rule 20-A) */
    int order[FW_MAX_SEATS], n = 0;
    for (int i = 1; i <= e->nseats; i++) {
        int s = (e->button + i - 1) % e->nseats + 1;
        for (int k = 0; k < pot->nseats; k++)
            if (pot->seats[k] == s)
                order[n++] = s;
    }
    fw_hand_value best = 0, vals[FW_MAX_SEATS];
    int contested = n > 1;
    /* a lone winner's hand is named when it was tabled (17-B: it need
     * not be) */
    bool named = contested || (n == 1 && e->seats[order[0]].shown);
    for (int i = 0; i < n; i++) {
        vals[i] = named ? seat_value(e, &e->seats[order[i]]) : 0;
        if (vals[i] > best)
            best = vals[i];
    }
    int winners[FW_MAX_SEATS], nw = 0;
    for (int i = 0; i < n; i++)
        if (!contested || vals[i] == best)
            winners[nw++] = order[i];
    if (nw == 0)
        return;

    int64_t unit = e->chip_unit > 0 ? e->chip_unit : 1;
    int64_t units = pot->amount / unit;
    int64_t share = units / nw * unit;
    int64_t rest = pot->amount - share * nw; /* odd chips, and below a unit */
    char hand[64] = "";
    if (named && best)
        fw_hand_name(best, hand, sizeof hand);
    for (int i = 0; i < nw; i++) {
        fw_award_winner *w = &a->winners[a->nwinners++];
        w->seat = winners[i];
        w->amount = share;
        if (hand[0])
            snprintf(w->hand, sizeof w->hand, "%s", hand);
    }
    if (rest > 0 && nw > 1)
        a->odd_chip_seat = winners[0];
    for (int i = 0; rest > 0; i = (i + 1) % nw) {
        int64_t give = rest >= unit ? unit : rest;
        if (i == 0 && rest % unit)
            give = rest % unit + (rest >= unit + rest % unit ? unit : 0);
        if (give > rest)
            give = rest;
        a->winners[i].amount += give;
        rest -= give;
    }
    for (int i = 0; i < nw; i++)
        e->seats[a->winners[i].seat].stack += a->winners[i].amount;

    char amt[32];
    const char *what = npots == 1 ? "the pot" : index == 0 ? "the main pot"
                                                           : "a side pot";
    a->rule = e->profile->rules[nw > 1        ? FW_R_ODD_CHIPS
                                : npots > 1   ? FW_R_SIDE_POTS
                                : !named      ? FW_R_UNCONTESTED
                                              : FW_R_AWARD]
                  .number;
    if (nw == 1)
        snprintf(a->text, sizeof a->text, "Seat %d wins %s (%s)%s%s",
                 winners[0], what, fw__chips(pot->amount, amt),
                 hand[0] ? " with " : "", hand);
    else
        snprintf(a->text, sizeof a->text, "%d-way split of %s (%s)%s%s%s",
                 nw, what, fw__chips(pot->amount, amt), hand[0] ? ", " : "",
                 hand, a->odd_chip_seat ? "; odd chip to the first winner "
                                          "left of the button"
                                        : "");
    if (e->emit)
        e->emit(e->ctx, &rec);
}

void fw__award_pots(fw_engine *e)
{
    fw_pot_view pots[FW_MAX_POTS];
    int n = fw__build_pots(e, pots, FW_MAX_POTS);
    /* side pots first, then the main pot (Rules 16 and 21) */
    for (int i = n - 1; i >= 0; i--)
        award_pot(e, i, &pots[i], n);
    fw__end_hand(e);
}

void fw__end_hand(fw_engine *e)
{
    for (int s = 1; s <= e->nseats; s++) {
        seat *p = &e->seats[s];
        p->committed = 0;
        p->ante_paid = 0;
        p->bet = 0;
        /* TDA 35-C: a misdeal and its re-deal count once; this is the end */
        if (p->dealt_in && p->penalty_hands > 0)
            p->penalty_hands--;
    }
    e->street = FW_ST_COMPLETE;
    e->to_act = 0;
    e->halt = HALT_NONE;
    e->dirty = true;

    fw_record rec;
    memset(&rec, 0, sizeof rec);
    rec.type = FW_REC_HAND_END;
    rec.u.hand_end.hand = e->hand_no;
    for (int s = 1; s <= e->nseats; s++) {
        if (!e->seats[s].occupied)
            continue;
        int k = rec.u.hand_end.nseats++;
        rec.u.hand_end.seats[k] = s;
        rec.u.hand_end.stacks[k] = e->seats[s].stack;
    }
    if (e->emit)
        e->emit(e->ctx, &rec);
}
