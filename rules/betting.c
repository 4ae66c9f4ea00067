/*
 * betting.c - bet interpretation: TDA Rules 40-45, 47, 52, 54, 55 and 57.
 *
 * Every function here is pure: it reads a situation and an action and fills
 * a reading. Amounts are totals for the street ("to"), as in the protocol.
 */
#include "betting.h"

#include <string.h>

static void reading_init(fw_bet_reading *r, const fw_bet_situation *s)
{
    memset(r, 0, sizeof *r);
    r->to = s->seat_bet;
    r->why = "";
    r->rule = FW_R_IN_TURN;
}

static int64_t all_in_total(const fw_bet_situation *s)
{
    return s->seat_bet + s->stack;
}

static bool facing_bet(const fw_bet_situation *s)
{
    return s->current_bet > s->seat_bet;
}

/* The smallest total a bet or raise may have right now. */
static int64_t min_to(const fw_bet_situation *s)
{
    if (s->current_bet == 0)
        return s->min_bet;
    return s->current_bet + s->min_raise;
}

/*
 * Settle a bet or raise to `want` (a total): clamp it to the seat's chips
 * (all-in) and to the pot-limit or limit cap, work out chips returned or
 * still owed against `physical` chips in front, and name the action.
 */
static void settle_raise(const fw_bet_situation *s, int64_t want,
                         int64_t physical, fw_bet_reading *r)
{
    int64_t cap = all_in_total(s);
    if (want > s->max_to) {
        want = s->max_to;
        if (!r->why[0]) {
            r->why = s->limit ? "limit_raise" : "pot_limit_max";
            r->rule = s->limit ? FW_R_RAISE_CAP : FW_R_PL_UNDERBET;
        }
    }
    if (want > cap)
        want = cap;
    r->to = want;
    r->action = s->current_bet == 0 ? FW_ACT_BET : FW_ACT_RAISE;
    if (want == cap)
        r->action = FW_ACT_ALL_IN;
    if (physical > want)
        r->returned = physical - want;
    else
        r->owed = want - physical;
}

/* A call (or, not facing a bet, a check) with `physical` chips in front. */
static void settle_call(const fw_bet_situation *s, int64_t physical,
                        fw_bet_reading *r)
{
    int64_t cap = all_in_total(s);
    int64_t to = s->current_bet < cap ? s->current_bet : cap;
    r->to = to > s->seat_bet ? to : s->seat_bet;
    r->action = facing_bet(s) ? FW_ACT_CALL : FW_ACT_CHECK;
    if (facing_bet(s) && r->to == cap && s->current_bet > cap)
        r->action = FW_ACT_ALL_IN;
    if (physical > r->to)
        r->returned = physical - r->to;
    else
        r->owed = r->to - physical;
}

/*
 * The 50% standard (TDA 43-A, applied by 45-B and 46-C): a total T above the
 * call is a raise to T when the increment is a full raise, a minimum raise
 * when it is at least half of one, otherwise a call with the excess returned.
 * In limit, the raise is exactly one bet (47-B uses the same half measure).
 */
static void fifty_percent(const fw_bet_situation *s, int64_t total,
                          fw_bet_reading *r, const char *call_why,
                          fw_rule_id rule)
{
    int64_t inc = total - s->current_bet;
    r->rule = rule;
    if (!s->may_raise) {
        settle_call(s, total, r);
        r->why = "raise_not_allowed";
        r->rule = s->no_raise_rule;
        return;
    }
    if (s->limit) {
        if (2 * inc >= s->min_raise) {
            settle_raise(s, s->current_bet + s->min_raise, total, r);
            if (inc < s->min_raise)
                r->why = "min_raise_enforced";
            else if (inc > s->min_raise)
                r->why = "limit_raise";
        } else {
            settle_call(s, total, r);
            r->why = call_why;
        }
        return;
    }
    if (inc >= s->min_raise || (s->current_bet == 0 && total >= s->min_bet)) {
        settle_raise(s, total, total, r);
    } else if (2 * inc >= s->min_raise) {
        r->why = "min_raise_enforced";
        settle_raise(s, min_to(s), total, r);
    } else {
        settle_call(s, total, r);
        r->why = call_why;
    }
}

void fw__read_push(const fw_bet_situation *s, fw_word declared,
                   const int64_t *chips, int n, fw_bet_reading *r)
{
    reading_init(r, s);
    int64_t sum = 0, smallest = INT64_MAX;
    for (int i = 0; i < n; i++) {
        sum += chips[i];
        if (chips[i] < smallest)
            smallest = chips[i];
    }
    int64_t total = s->prior_front + sum;
    bool last = total >= all_in_total(s);
    if (total > all_in_total(s))
        total = all_in_total(s);
    bool prior = s->had_prior;
    bool facing = facing_bet(s);

    /* A declaration came first: it defines the bet (TDA 40-A). */
    if (declared == FW_WORD_RAISE || declared == FW_WORD_BET ||
        declared == FW_WORD_COMPLETE || declared == FW_WORD_POT) {
        if (!s->may_raise) {
            settle_call(s, total, r);
            r->why = "raise_not_allowed";
            r->rule = s->no_raise_rule;
            return;
        }
        /* TDA 44: raise declared with one chip and no amount is the most
         * the chip allows; otherwise the chips pushed are the total. */
        r->rule = n == 1 ? FW_R_OVERCHIP : FW_R_RAISE_AMOUNT;
        if (!facing && s->current_bet > 0 && declared == FW_WORD_BET)
            r->rule = FW_R_RAISE_AMOUNT;
        int64_t want = total;
        if (s->limit) {
            want = s->current_bet + s->min_raise;
            if (total > want)
                r->why = "limit_raise";
        } else if (total < min_to(s) && !last) {
            /* TDA 51-A: "raise" said first commits to a full raise */
            want = min_to(s);
            r->why = s->current_bet == 0 ? "min_bet_enforced"
                                         : "min_raise_enforced";
            r->rule = s->current_bet == 0 ? FW_R_UNDERBET : FW_R_BINDING;
        }
        settle_raise(s, want, total, r);
        return;
    }

    if (!facing) {
        /* Nobody has bet (or the big blind has the option). TDA 44: an
         * overchip not facing a bet is a bet of the chip; several chips are
         * a bet of their total. */
        if (s->current_bet == 0) {
            r->rule = n == 1 ? FW_R_OVERCHIP : FW_R_UNDERBET;
            if (s->limit) {
                settle_raise(s, s->min_bet, total, r);
                return;
            }
            if (total >= s->min_bet || last) {
                r->rule = n == 1 ? FW_R_OVERCHIP : FW_R_IN_TURN;
                settle_raise(s, total, total, r);
            } else {
                r->why = "min_bet_enforced";
                settle_raise(s, s->min_bet, total, r);
            }
            return;
        }
        fifty_percent(s, total, r, "below_half_raise",
                      n == 1 ? FW_R_OVERCHIP : FW_R_RAISE_AMOUNT);
        if (r->action == FW_ACT_CHECK)
            r->rule = FW_R_RAISE_AMOUNT;
        return;
    }

    /* Facing a bet. */
    if (total < s->current_bet) {
        if (last) {
            settle_call(s, total, r); /* all-in for less than a call */
            r->why = "all_in_short";
            r->rule = FW_R_CALLING;
            return;
        }
        r->undercall = true;
        r->action = FW_ACT_FLOOR;
        r->to = total > s->seat_bet ? total : s->seat_bet;
        r->why = "undercall";
        r->rule = FW_R_UNDERCALL;
        return;
    }

    /* TDA 44 and 46-C-1: one new chip, prior chips short of the call and
     * left alone or fully pulled back: an overchip is a call. */
    if (n == 1 && !s->prior_covers && !s->partly_pulled) {
        settle_call(s, total, r);
        r->rule = prior ? FW_R_PRIOR_CHIPS : FW_R_OVERCHIP;
        r->why = total > s->current_bet ? "overchip_call" : "";
        if (!r->why[0])
            r->rule = FW_R_CALLING;
        return;
    }

    /* TDA 45-A: every chip needed (removing one of the smallest new chips
     * leaves less than the call) is a call, last chips included. With prior
     * chips covering the call or partly pulled back, 46-C-2 sends the
     * combined chips straight to the 50% standard. */
    if (!s->prior_covers && !s->partly_pulled &&
        total - smallest < s->current_bet) {
        settle_call(s, total, r);
        r->rule = prior ? FW_R_PRIOR_CHIPS : FW_R_MULTI_CALL;
        r->why = total > s->current_bet ? "multi_chip_call" : "";
        if (!r->why[0])
            r->rule = FW_R_CALLING;
        return;
    }

    /* TDA 45-B-2: a multiple-chip bet of the last chips is all-in. */
    if (last && s->may_raise && s->last_chips_all_in) {
        r->rule = prior ? FW_R_PRIOR_CHIPS : FW_R_MULTI_RAISE;
        r->why = "multi_chip_all_in";
        settle_raise(s, total, total, r);
        return;
    }
    fifty_percent(s, total, r, "multi_chip_call",
                  prior ? FW_R_PRIOR_CHIPS : FW_R_MULTI_RAISE);
}

/*
 * TDA 57: "I bet five" with a 400 big blind: the highest reasonable amount
 * not above the pot among 5, 50, 500, 5000, ... that is a legal bet.
 */
static int64_t unclear_amount(const fw_bet_situation *s, int64_t amount)
{
    int64_t best = 0;
    for (int64_t x = amount; x > 0 && x <= INT64_MAX / 10; x *= 10) {
        if (x < s->min_bet)
            continue;
        /* older books: the lesser reasonable value */
        if (s->unclear_lesser)
            return x;
        if (x > s->pot)
            break;
        best = x;
    }
    return best;
}

void fw__read_say(const fw_bet_situation *s, fw_word word, bool has_amount,
                  int64_t amount, fw_bet_reading *r)
{
    reading_init(r, s);
    bool facing = facing_bet(s);
    int64_t physical = s->prior_front;
    r->rule = FW_R_BINDING;

    switch (word) {
    case FW_WORD_CHECK:
        if (facing) {
            /* TDA 55: may call or fold, not raise; nothing happens yet */
            r->pending = true;
            r->why = "check_facing_bet";
            r->rule = FW_R_INVALID_DECL;
            return;
        }
        settle_call(s, physical, r);
        r->rule = FW_R_IN_TURN;
        return;
    case FW_WORD_CALL:
        settle_call(s, physical, r);
        if (!facing) {
            r->why = "call_is_check";
            r->rule = FW_R_INVALID_DECL;
        }
        return;
    case FW_WORD_FOLD:
        r->action = FW_ACT_FOLD;
        r->rule = FW_R_IN_TURN;
        r->returned = s->prior_front > s->seat_bet
                          ? s->prior_front - s->seat_bet
                          : 0;
        if (!facing) {
            r->why = "fold_not_facing_bet";
            r->rule = FW_R_FOLD_NO_BET;
        }
        return;
    case FW_WORD_ALL_IN:
        if (!s->may_raise && all_in_total(s) > s->current_bet) {
            settle_call(s, physical, r);
            r->why = "raise_not_allowed";
            r->rule = s->no_raise_rule;
            return;
        }
        settle_raise(s, all_in_total(s), physical, r);
        return;
    case FW_WORD_POT:
        if (s->max_to != FW_NO_CAP && !s->limit) {
            if (!s->may_raise) {
                settle_call(s, physical, r);
                r->why = "raise_not_allowed";
                r->rule = s->no_raise_rule;
                return;
            }
            r->why = "pot";
            r->rule = FW_R_PL_POT;
            settle_raise(s, s->max_to, physical, r);
            return;
        }
        /* TDA 54-D: not a valid bet in no-limit; binds to a valid bet */
        r->pending = true;
        r->why = "bet_pot_no_limit";
        r->rule = FW_R_BET_POT_NL;
        return;
    case FW_WORD_RAISE:
    case FW_WORD_BET:
    case FW_WORD_COMPLETE:
        if (!s->may_raise) {
            settle_call(s, physical, r);
            r->why = "raise_not_allowed";
            r->rule = s->no_raise_rule;
            return;
        }
        if (!has_amount && !s->limit) {
            r->pending = true; /* the chips will say how much */
            if (word == FW_WORD_RAISE && !facing && s->current_bet == 0) {
                r->why = "raise_is_bet";
                r->rule = FW_R_INVALID_DECL;
            }
            return;
        }
        {
            int64_t want = s->limit ? s->current_bet + s->min_raise : amount;
            r->rule = word == FW_WORD_RAISE ? FW_R_RAISE_TOTAL : FW_R_BINDING;
            /* all of a short stack is an all-in, never an underbet */
            if (!s->limit && want < min_to(s) && want < all_in_total(s)) {
                int64_t guess = s->current_bet == 0 && word == FW_WORD_BET
                                    ? unclear_amount(s, amount)
                                    : 0;
                if (guess) {
                    want = guess;
                    r->why = "unclear_amount";
                    r->rule = FW_R_UNCLEAR;
                } else {
                    /* TDA 52-A: an underbet or underraise is corrected
                     * to the minimum */
                    want = min_to(s);
                    r->why = s->current_bet == 0 ? "min_bet_enforced"
                                                 : "min_raise_enforced";
                    r->rule = FW_R_UNDERBET;
                }
            }
            settle_raise(s, want, physical, r);
            if (s->limit && !has_amount)
                r->rule = FW_R_BINDING;
        }
        return;
    case FW_WORD_NONE: {
        /* TDA 40-C: an amount alone is the same as pushing it silently;
         * read it as the seat's total, with the 50% standard of 43-A. */
        int64_t total = amount;
        bool last = total >= all_in_total(s);
        if (total > all_in_total(s))
            total = all_in_total(s);
        if (total < s->seat_bet)
            total = s->seat_bet;
        if (!facing) {
            if (s->current_bet == 0) {
                if (total >= s->min_bet || last || s->limit) {
                    settle_raise(s, s->limit ? s->min_bet : total, physical,
                                 r);
                } else {
                    r->why = "min_bet_enforced";
                    r->rule = FW_R_UNDERBET;
                    settle_raise(s, s->min_bet, physical, r);
                    return;
                }
                r->rule = FW_R_AMOUNT_ONLY;
                return;
            }
            fifty_percent(s, total, r, "below_half_raise",
                          FW_R_RAISE_AMOUNT);
        } else if (total < s->current_bet) {
            if (last) {
                settle_call(s, physical, r);
                r->why = "all_in_short";
                r->rule = FW_R_CALLING;
                return;
            }
            r->undercall = true;
            r->action = FW_ACT_FLOOR;
            r->to = total;
            r->why = "undercall";
            r->rule = FW_R_UNDERCALL;
            return;
        } else if (last && total > s->current_bet && s->may_raise) {
            settle_raise(s, total, physical, r);
            r->rule = FW_R_AMOUNT_ONLY;
            return;
        } else {
            fifty_percent(s, total, r, "below_half_raise",
                          FW_R_RAISE_AMOUNT);
        }
        /* chips for a verbal amount are still to come */
        if (r->returned) {
            r->owed = r->to > physical ? r->to - physical : 0;
            r->returned = 0;
        }
        return;
    }
    case FW_WORD_COUNT:
        break;
    }
    r->pending = true;
}
