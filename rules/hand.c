/*
 * hand.c - the engine: input events in, rulings, alerts, state and awards
 * out. It follows one hand from the shuffle to the pot being pushed: the
 * deal, the betting rounds (bet reading in betting.c), the board, all-ins,
 * showdown (awards in pots.c).
 */
#include "betting.h"
#include "engine_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Output                                                               */
/* ------------------------------------------------------------------ */

const char *fw__chips(int64_t v, char buf[32])
{
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%lld",
                     (long long)(v < 0 ? -v : v));
    int o = 0;
    if (v < 0)
        buf[o++] = '-';
    for (int i = 0; i < n; i++) {
        buf[o++] = digits[i];
        if ((n - i - 1) % 3 == 0 && i != n - 1)
            buf[o++] = ',';
    }
    buf[o] = '\0';
    return buf;
}

static const fw_rule_ref *rule_ref(const fw_engine *e, fw_rule_id id)
{
    return &e->profile->rules[id];
}

void fw__emit_ruling(fw_engine *e, int s, fw_action action, int64_t to,
                     int64_t returned, const char *why, fw_rule_id rule,
                     const char *fmt, ...)
{
    fw_record rec;
    memset(&rec, 0, sizeof rec);
    rec.type = FW_REC_RULING;
    fw_ruling *r = &rec.u.ruling;
    r->seat = s;
    r->action = action;
    r->to = to;
    r->returned = returned;
    r->why = why ? why : "";
    r->rule = rule_ref(e, rule)->number;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->text, sizeof r->text, fmt, ap);
    va_end(ap);
    e->dirty = true;
    if (e->emit)
        e->emit(e->ctx, &rec);
}

/* The one place an alert record is built: text from fmt/ap, the rule's
 * number from `rule` and the remedy from `remedy_rule`. */
static void emit_alert_v(fw_engine *e, const char *kind, const char *why,
                         fw_severity sev, fw_rule_id rule,
                         fw_rule_id remedy_rule, int s, const char *fmt,
                         va_list ap)
{
    fw_record rec;
    memset(&rec, 0, sizeof rec);
    rec.type = FW_REC_ALERT;
    fw_alert *a = &rec.u.alert;
    a->kind = kind;
    a->why = why;
    a->severity = sev;
    a->rule = rule_ref(e, rule)->number;
    a->remedy = rule_ref(e, remedy_rule)->remedy;
    a->seat = s;
    vsnprintf(a->text, sizeof a->text, fmt, ap);
    if (e->emit)
        e->emit(e->ctx, &rec);
}

void fw__emit_alert(fw_engine *e, const char *kind, const char *why,
                    fw_severity sev, fw_rule_id rule, int s,
                    const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit_alert_v(e, kind, why, sev, rule, rule, s, fmt, ap);
    va_end(ap);
}

void fw__emit_alert_remedy(fw_engine *e, const char *kind, const char *why,
                           fw_severity sev, fw_rule_id rule,
                           fw_rule_id remedy_rule, int s, const char *fmt,
                           ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit_alert_v(e, kind, why, sev, rule, remedy_rule, s, fmt, ap);
    va_end(ap);
}

static void emit_state(fw_engine *e)
{
    fw_record rec;
    memset(&rec, 0, sizeof rec);
    rec.type = FW_REC_STATE;
    fw_engine_state(e, &rec.u.state);
    if (e->emit)
        e->emit(e->ctx, &rec);
}

/* ------------------------------------------------------------------ */
/* Life cycle                                                           */
/* ------------------------------------------------------------------ */

int fw_engine_new(fw_emit_fn emit, void *ctx, fw_engine **out)
{
    *out = NULL;
    fw_engine *e = calloc(1, sizeof *e);
    if (!e)
        return FW_ENOMEM;
    e->emit = emit;
    e->ctx = ctx;
    e->profile = fw__profile(FW_PROFILE_TDA);
    *out = e;
    return FW_OK;
}

void fw_engine_free(fw_engine *e)
{
    free(e);
}

/* ------------------------------------------------------------------ */
/* Betting helpers                                                      */
/* ------------------------------------------------------------------ */

static bool is_limit(const fw_engine *e)
{
    return e->game == FW_GAME_FLHE;
}

static bool is_pot_limit(const fw_engine *e)
{
    return e->game == FW_GAME_PLO || e->game == FW_GAME_PLO5;
}

/* The fixed bet of the current street in limit games. */
static int64_t limit_bet(const fw_engine *e)
{
    if (e->street == FW_ST_TURN || e->street == FW_ST_RIVER)
        return e->lv.big_bet ? e->lv.big_bet : 2 * e->lv.bb;
    return e->lv.small_bet ? e->lv.small_bet : e->lv.bb;
}

static int64_t round_min_raise(const fw_engine *e)
{
    return is_limit(e) ? limit_bet(e) : e->lv.bb;
}

static int64_t pot_total(const fw_engine *e)
{
    int64_t t = 0;
    for (int s = 1; s <= e->nseats; s++)
        t += e->seats[s].committed;
    return t;
}

static bool live(const seat *p)
{
    return p->dealt_in && !p->folded && !p->dead;
}

/* A seat that still has to act in this betting round. */
static bool needs_to_act(const fw_engine *e, int s)
{
    const seat *p = &e->seats[s];
    if (!live(p) || p->all_in)
        return false;
    if (p->bet < e->current_bet)
        return true;
    if (p->acted)
        return false;
    /* alone against all-ins with the bet matched: nothing left to decide */
    return fw__count_active(e) > 1;
}

static int next_to_act(const fw_engine *e, int from)
{
    int s = from;
    for (int i = 0; i < e->nseats; i++) {
        s = s % e->nseats + 1;
        if (needs_to_act(e, s))
            return s;
    }
    return 0;
}

/*
 * TDA 54-B: pre-flop, pot-limit sizing assumes full blinds even when the
 * small blind is dead or a blind is short. The shortfall is added to the pot.
 */
static int64_t pl_blind_shortfall(const fw_engine *e)
{
    if (e->street != FW_ST_PREFLOP)
        return 0;
    int64_t missing = 0;
    int64_t sb_posted = e->sb_seat ? e->seats[e->sb_seat].committed : 0;
    int64_t bb_posted = e->bb_seat ? e->seats[e->bb_seat].committed : 0;
    if (e->lv.ante_type == FW_ANTE_BB && e->bb_seat)
        bb_posted -= e->lv.ante < bb_posted ? e->lv.ante : bb_posted;
    if (e->lv.ante_type == FW_ANTE_EACH && e->lv.ante) {
        sb_posted -= e->lv.ante < sb_posted ? e->lv.ante : sb_posted;
        bb_posted -= e->lv.ante < bb_posted ? e->lv.ante : bb_posted;
    }
    if (sb_posted < e->lv.sb)
        missing += e->lv.sb - sb_posted;
    if (bb_posted < e->lv.bb)
        missing += e->lv.bb - bb_posted;
    return missing;
}

static int64_t pl_max_to(const fw_engine *e, int s)
{
    const seat *p = &e->seats[s];
    int64_t cur = e->current_bet;
    if (e->street == FW_ST_PREFLOP && cur < e->lv.bb)
        cur = e->lv.bb;
    int64_t call = cur - p->bet;
    return cur + pot_total(e) + pl_blind_shortfall(e) + call;
}

/* Whether betting is open to seat s, and the rule that closes it. */
static bool may_raise(const fw_engine *e, int s, fw_rule_id *why)
{
    const seat *p = &e->seats[s];
    if (p->no_raise) {
        *why = FW_R_INVALID_DECL;
        return false;
    }
    int others = 0;
    for (int o = 1; o <= e->nseats; o++)
        others += o != s && live(&e->seats[o]) && !e->seats[o].all_in;
    if (others == 0 && p->bet + p->stack > e->current_bet) {
        *why = FW_R_CALLING; /* everyone else is all-in: only call */
        return false;
    }
    if (is_limit(e) && e->raises >= (e->raise_cap ? e->raise_cap : 4)) {
        *why = FW_R_RAISE_CAP;
        return false;
    }
    if (p->acted) {
        int64_t faced = e->current_bet - p->acted_to;
        bool reopened = is_limit(e) ? 2 * faced >= limit_bet(e)
                                    : faced >= e->min_raise;
        if (!reopened) {
            *why = is_limit(e) ? FW_R_REOPEN_LIMIT : FW_R_REOPEN;
            return false;
        }
    }
    return true;
}

static void situation(const fw_engine *e, int s, fw_bet_situation *bs)
{
    const seat *p = &e->seats[s];
    memset(bs, 0, sizeof *bs);
    bs->current_bet = e->current_bet;
    bs->seat_bet = p->bet;
    int64_t physical = p->bet + p->front_extra;
    bs->prior_front = physical - p->pulled > 0 ? physical - p->pulled : 0;
    bs->prior_covers = physical >= e->current_bet && e->current_bet > 0;
    bs->partly_pulled = p->pulled > 0 && bs->prior_front > 0;
    bs->had_prior = physical > 0;
    bs->stack = p->stack;
    bs->min_raise = is_limit(e) ? limit_bet(e) : e->min_raise;
    bs->min_bet = is_limit(e) ? limit_bet(e) : e->lv.bb;
    bs->max_to = FW_NO_CAP;
    if (is_pot_limit(e))
        bs->max_to = pl_max_to(e, s);
    else if (is_limit(e))
        bs->max_to = e->current_bet + limit_bet(e);
    bs->may_raise = may_raise(e, s, &bs->no_raise_rule);
    bs->limit = is_limit(e);
    bs->pot = pot_total(e);
    bs->unclear_lesser = e->profile->unclear_amount_lesser;
    bs->last_chips_all_in = !e->profile->no_last_chips_exception;
}

static const char *action_word(fw_action a)
{
    switch (a) {
    case FW_ACT_CHECK:
        return "CHECK";
    case FW_ACT_CALL:
        return "CALL";
    case FW_ACT_BET:
        return "BET";
    case FW_ACT_RAISE:
        return "RAISE to";
    case FW_ACT_ALL_IN:
        return "ALL-IN";
    case FW_ACT_FOLD:
        return "FOLD";
    default:
        return "FLOOR";
    }
}

/* Why a reading came out as it did, in a dealer's words. */
static const char *why_words(const char *why)
{
    static const struct {
        const char *code, *words;
    } table[] = {
        {"overchip_call", "one oversized chip is a call"},
        {"multi_chip_call", "not enough for a raise: it is a call"},
        {"min_raise_enforced",
         "at least half a raise: a full minimum raise is required"},
        {"min_bet_enforced", "below the minimum: a full minimum bet is "
                             "required"},
        {"multi_chip_all_in", "last chips, not all needed to call: all-in"},
        {"all_in_short", "all-in for less than a call"},
        {"raise_not_allowed", "betting is not open to this player: call"},
        {"pot_limit_max", "more than the pot: reduced to a pot-size bet"},
        {"pot", "the size of the pot"},
        {"limit_raise", "limit: one bet more"},
        {"below_half_raise", "less than half a raise: no raise"},
        {"call_is_check", "call with no bet is a check"},
        {"fold_not_facing_bet", "folding with no bet: binding"},
        {"unclear_amount", "unclear amount read as the highest reasonable"},
        {"undercall_full_call", "undercall: a full call is required"},
        {"undercall_forfeit", "undercall: forfeits and folds"},
        {"out_of_turn", "out of turn: held until the action reaches this "
                        "seat"},
        {"out_of_turn_binding", "out of turn, action unchanged: binding"},
        {"string_bet", "second motion: string bet, chips returned"},
        {"raise_is_bet", "raise with no bet is a bet"},
        {"clock_expired", "time ran out on the clock"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i].code, why) == 0)
            return table[i].words;
    return NULL;
}

/* Emit a ruling for a reading with its dealer text. */
static void emit_reading(fw_engine *e, int s, fw_action action, int64_t to,
                         int64_t returned, const char *why, fw_rule_id rule)
{
    char a[32], b[32];
    const char *words = why_words(why);
    if (rule == FW_R_UNDERBET)
        words = "below the minimum: corrected to the minimum";
    else if (rule == FW_R_BINDING && strcmp(why, "min_raise_enforced") == 0)
        words = "raise declared: a full minimum raise is required";
    char amount[48] = "";
    if (action == FW_ACT_CALL || action == FW_ACT_BET ||
        action == FW_ACT_RAISE || action == FW_ACT_ALL_IN)
        snprintf(amount, sizeof amount, " %s", fw__chips(to, a));
    char back[64] = "";
    if (returned > 0)
        snprintf(back, sizeof back, "; %s back", fw__chips(returned, b));
    fw__emit_ruling(e, s, action, to, returned, why, rule,
                    "Seat %d: %s%s%s%s%s (Rule %s)", s, action_word(action),
                    amount, words ? " - " : "", words ? words : "", back,
                    rule_ref(e, rule)->number);
}

/* TDA 36: substantial action is two actions in turn with chips in at least
 * one of them, or three actions in turn. Blinds do not count. */
static void count_sa(fw_engine *e, bool chips)
{
    e->sa_actions++;
    e->sa_chip_actions += chips;
    if (!e->sa && ((e->sa_actions >= 2 && e->sa_chip_actions >= 1) ||
                   e->sa_actions >= 3)) {
        e->sa = true;
        e->dirty = true;
    }
}

static void end_round(fw_engine *e);


/*
 * Apply an action in turn: stacks and bets move, the raise bookkeeping of
 * Rules 43 and 47 is kept, and the action goes on.
 */
static void apply_action(fw_engine *e, int s, fw_action action, int64_t to)
{
    seat *p = &e->seats[s];
    p->front_extra = 0;
    p->pulled = 0;
    p->declared = FW_WORD_NONE;
    p->call_motion = false;
    p->last_action = action;
    e->last_actor = s;
    p->acted = true;
    e->street_actions++;
    if (s == e->clock_seat)
        e->clock_seat = 0;
    if (s == e->button && e->button_short && action != FW_ACT_FOLD) {
        /* TDA 37: the button acted with too few cards: the hand is dead */
        p->dead = true;
        e->button_short = false;
        fw__emit_alert(e, "button_too_few_cards", "acted_short",
                       FW_SEV_WARN, FW_R_BUTTON_TOO_FEW, s,
                       "The button (seat %d) acted with too few cards: the "
                       "hand is dead.",
                       s);
        e->dirty = true;
        fw__advance(e, s);
        return;
    }
    if (s == e->skipped_seat && e->floor != FLOOR_SKIPPED_SEAT) {
        /* the skipped player acted: later actions are judged afresh */
        e->skipped_seat = 0;
        e->oot_actions = e->oot_chip_actions = 0;
    }
    if (action == FW_ACT_FOLD) {
        p->folded = true;
        count_sa(e, false);
        e->dirty = true;
        fw__advance(e, s);
        return;
    }
    if (to > p->bet + p->stack)
        to = p->bet + p->stack;
    if (to < p->bet)
        to = p->bet;
    int64_t delta = to - p->bet;
    p->stack -= delta;
    p->committed += delta;
    p->bet = to;
    if (p->stack == 0 && delta > 0)
        p->all_in = true;
    if (to > e->current_bet) {
        int64_t inc = to - e->current_bet;
        bool opening = e->current_bet == 0;
        bool full = is_limit(e) ? 2 * inc >= limit_bet(e)
                                : inc >= e->min_raise ||
                                      (opening && to >= e->lv.bb);
        if (full) {
            if (!is_limit(e) && inc > e->min_raise)
                e->min_raise = inc;
            e->raises++;
            e->last_aggressor = s;
            if (e->street == FW_ST_RIVER)
                e->river_aggressor = s;
        }
        if (opening)
            e->opening_bet = to;
        else
            e->round_raised = true;
        e->current_bet = to;
    }
    p->acted_to = e->current_bet < p->bet ? p->bet : e->current_bet;
    if (p->all_in)
        p->acted_to = p->bet;
    count_sa(e, delta > 0);
    e->dirty = true;
    fw__advance(e, s);
}

/* ------------------------------------------------------------------ */
/* Streets                                                              */
/* ------------------------------------------------------------------ */

static void start_round(fw_engine *e)
{
    e->street_actions = 0;
    e->current_bet = 0;
    e->min_raise = round_min_raise(e);
    e->raises = 0;
    e->round_raised = false;
    e->opening_bet = 0;
    e->betting_done = false;
    e->skipped_seat = 0;
    e->oot_actions = e->oot_chip_actions = 0;
    for (int s = 1; s <= e->nseats; s++) {
        seat *p = &e->seats[s];
        p->bet = 0;
        p->front_extra = 0;
        p->pulled = 0;
        p->acted = false;
        p->acted_to = 0;
        p->no_raise = false;
        p->declared = FW_WORD_NONE;
        p->pushed_this_turn = false;
        p->oot_pending = false;
    }
    /* first to act after the flop: first live seat left of the button */
    e->to_act = next_to_act(e, e->button);
    if (!e->to_act)
        end_round(e);
    e->dirty = true;
}

void fw__start_preflop(fw_engine *e)
{
    if (e->street != FW_ST_DEAL)
        return;
    e->street = FW_ST_PREFLOP;
    e->street_actions = 0;
    e->min_raise = round_min_raise(e);
    e->current_bet = 0;
    for (int s = 1; s <= e->nseats; s++)
        if (e->seats[s].bet > e->current_bet)
            e->current_bet = e->seats[s].bet;
    /* TDA 51-B: in blind games the posted big blind is the opener, and the
     * minimum bet is the full blind even when the blind is short. */
    int64_t full = is_limit(e) ? limit_bet(e) : e->lv.bb;
    if (e->current_bet < full)
        e->current_bet = full;
    e->opening_bet = e->current_bet;
    e->raises = 1;
    /* heads-up the button (small blind) acts first pre-flop (34-B) */
    e->to_act = next_to_act(e, e->bb_seat);
    if (!e->to_act)
        end_round(e);
    e->dirty = true;
}

/* Uncalled chips go back: the highest bet beyond every other bet. */
static void return_uncalled(fw_engine *e)
{
    int top = 0;
    int64_t first = 0, second = 0;
    for (int s = 1; s <= e->nseats; s++) {
        int64_t b = e->seats[s].bet;
        if (b > first) {
            second = first;
            first = b;
            top = s;
        } else if (b > second) {
            second = b;
        }
    }
    if (top && first > second) {
        seat *p = &e->seats[top];
        int64_t back = first - second;
        p->bet -= back;
        p->committed -= back;
        p->stack += back;
        if (p->stack > 0)
            p->all_in = false;
    }
}

static void start_showdown(fw_engine *e);

/* TDA 16: once a player is all-in and betting is over, all hands are
 * tabled at once; say so the moment it applies. */
static void maybe_face_up(fw_engine *e)
{
    if (e->faceup_prompted)
        return;
    int all_ins = 0;
    for (int s = 1; s <= e->nseats; s++)
        all_ins += live(&e->seats[s]) && e->seats[s].all_in;
    if (all_ins == 0 || fw__count_live(e) < 2)
        return;
    if (fw__count_active(e) > 1 && e->street != FW_ST_RIVER)
        return;
    e->faceup_prompted = true;
    char seats[64] = "";
    size_t o = 0;
    for (int s = 1; s <= e->nseats && o + 8 < sizeof seats; s++)
        if (live(&e->seats[s]))
            o += (size_t)snprintf(seats + o, sizeof seats - o, "%s%d",
                                  o ? ", " : "", s);
    fw__emit_alert(e, "face_up_all_in", NULL, FW_SEV_INFO,
                   FW_R_FACE_UP_ALL_IN, 0,
                   "All-in and betting is over: table all hands now "
                   "(seats %s).",
                   seats);
}

int fw__board_needed(const fw_engine *e)
{
    switch (e->street) {
    case FW_ST_PREFLOP:
        return 3;
    case FW_ST_FLOP:
    case FW_ST_TURN:
        return 1;
    default:
        return 0;
    }
}

/* Board cards seen for the next street make it begin (once betting on the
 * current street is over). Without cards on the table (a bets-only stream)
 * the next street begins when its first action arrives. */
void fw__try_next_street(fw_engine *e)
{
    while (e->betting_done && e->street >= FW_ST_PREFLOP &&
           e->street <= FW_ST_RIVER) {
        if (e->street == FW_ST_RIVER) {
            start_showdown(e);
            return;
        }
        int need = fw__board_needed(e);
        if (e->pending_board < need)
            return;
        e->pending_board -= need;
        e->street++;
        e->dirty = true;
        if (fw__count_active(e) > 1) {
            start_round(e);
            return;
        }
        /* all-in run-out: no betting on this street */
        maybe_face_up(e);
    }
}

static void end_round(fw_engine *e)
{
    return_uncalled(e);
    e->to_act = 0;
    e->betting_done = true;
    e->dirty = true;
    for (int s = 1; s <= e->nseats; s++) {
        e->seats[s].bet = 0;
        e->seats[s].front_extra = 0;
        e->seats[s].acted = false;
    }
    e->current_bet = 0;
    if (fw__count_live(e) == 1) {
        fw__award_pots(e);
        return;
    }
    maybe_face_up(e);
    fw__try_next_street(e);
}

static void apply_held_oot(fw_engine *e, int s);

void fw__advance(fw_engine *e, int s)
{
    if (fw__count_live(e) <= 1) {
        end_round(e);
        return;
    }
    int n = next_to_act(e, s);
    if (!n) {
        end_round(e);
        return;
    }
    e->to_act = n;
    seat *p = &e->seats[n];
    p->pushed_this_turn = false;
    if (p->oot_pending)
        apply_held_oot(e, n);
}

/* ------------------------------------------------------------------ */
/* Showdown                                                             */
/* ------------------------------------------------------------------ */

static void check_showdown_done(fw_engine *e)
{
    if (e->street != FW_ST_SHOWDOWN)
        return;
    int unresolved = 0, unmucked = 0;
    for (int s = 1; s <= e->nseats; s++) {
        const seat *p = &e->seats[s];
        if (!live(p))
            continue;
        if (!p->mucked)
            unmucked++;
        if (!p->mucked && !p->shown)
            unresolved++;
    }
    if (unresolved == 0 || unmucked <= 1)
        fw__award_pots(e);
}

static void start_showdown(fw_engine *e)
{
    e->street = FW_ST_SHOWDOWN;
    e->to_act = 0;
    e->dirty = true;
    maybe_face_up(e);
    if (!e->faceup_prompted) {
        /* TDA 17-A: the last aggressor on the final round tables first;
         * with no bet, the first live seat left of the button. */
        int first = e->river_aggressor;
        if (!first || !live(&e->seats[first]))
            first = fw__next_in_hand(e, e->button);
        char why[80];
        snprintf(why, sizeof why, "%s",
                 e->river_aggressor ? "the last aggressor on the river"
                                    : "no river bet: first seat left of "
                                      "the button");
        fw__emit_alert(e, "showdown_order", NULL, FW_SEV_INFO,
                       FW_R_SHOWDOWN_ORDER, first,
                       "Showdown: seat %d tables first (%s).", first, why);
    }
    check_showdown_done(e);
}

/* ------------------------------------------------------------------ */
/* Events                                                               */
/* ------------------------------------------------------------------ */

static int on_table(fw_engine *e, const fw_event *ev)
{
    fw_emit_fn emit = e->emit;
    void *ctx = e->ctx;
    memset(e, 0, sizeof *e);
    e->emit = emit;
    e->ctx = ctx;
    e->has_table = true;
    e->nseats = ev->seats;
    e->game = ev->game;
    e->profile = fw__profile(ev->profile);
    e->nchip_set = ev->nchip_set;
    e->chip_unit = 0;
    for (int i = 0; i < ev->nchip_set && i < FW_MAX_CHIP_SET; i++) {
        e->chip_set[i] = ev->chip_set[i];
        if (e->chip_unit == 0 || ev->chip_set[i] < e->chip_unit)
            e->chip_unit = ev->chip_set[i];
    }
    if (e->chip_unit <= 0)
        e->chip_unit = 1;
    e->raise_cap = ev->raise_cap;
    e->street = FW_ST_PREDEAL;
    return FW_OK;
}

static void on_level(fw_engine *e, const fw_event *ev)
{
    e->next_lv = (level){ev->sb, ev->bb, ev->ante, ev->small_bet,
                         ev->big_bet, ev->ante_type};
    e->pending_level = true;
    bool in_hand = e->street != FW_ST_PREDEAL && e->street != FW_ST_COMPLETE;
    if (in_hand) {
        char a[32], b[32];
        fw__emit_alert(e, "new_level", NULL, FW_SEV_INFO, FW_R_NEW_LEVEL, 0,
                       "New level %s-%s starts with the next hand.",
                       fw__chips(ev->sb, a), fw__chips(ev->bb, b));
    }
}

static void on_seat(fw_engine *e, const fw_event *ev)
{
    seat *p = &e->seats[ev->seat];
    if (!ev->has_player) {
        bool was_live = live(p) && e->street != FW_ST_COMPLETE;
        p->occupied = false;
        p->name[0] = '\0';
        if (was_live)
            p->dead = true;
        p->stack = 0;
        e->dirty = true;
        return;
    }
    p->occupied = true;
    snprintf(p->name, sizeof p->name, "%s", ev->player);
    if (ev->has_stack)
        p->stack = ev->stack;
    e->dirty = true;
}

static void on_hand_start(fw_engine *e)
{
    if (e->street != FW_ST_PREDEAL && e->street != FW_ST_COMPLETE &&
        e->halt != HALT_MISDEAL) {
        fw__emit_alert(e, "hand_abandoned", NULL, FW_SEV_WARN, FW_R_NEW_LEVEL,
                       0,
                       "A new hand started before hand %d was finished; "
                       "its bets stay as they were.",
                       e->hand_no);
    }
    if (!e->has_level && !e->pending_level) {
        fw__emit_alert(e, "no_level", NULL, FW_SEV_STOP, FW_R_NEW_LEVEL, 0,
                       "No blinds are set: send a level before the hand.");
        return;
    }
    bool redeal = e->halt == HALT_MISDEAL;
    e->halt = HALT_NONE;
    e->street = FW_ST_PREDEAL;
    e->nboard = 0;
    e->pending_board = 0;
    e->cards_seen = false;
    memset(e->where, 0, sizeof e->where);
    e->deal_count = e->deal_last = e->deal_exposed = e->boxed = 0;
    e->button_owed = e->button_short = false;
    e->burns = 0;
    e->burn_waived = e->street_burned = e->premature = e->flop_redo = false;
    e->rabbit_said = false;
    e->street_actions = 0;
    e->clock_seat = 0;
    e->sa = false;
    e->sa_actions = e->sa_chip_actions = 0;
    e->last_aggressor = e->river_aggressor = 0;
    e->last_actor = 0;
    e->faceup_prompted = false;
    e->floor = FLOOR_NONE;
    e->skipped_seat = 0;
    e->to_act = 0;
    e->betting_done = false;
    if (redeal)
        fw__emit_alert(e, "redeal", NULL, FW_SEV_INFO, FW_R_REDEAL, 0,
                       "Re-deal of hand %d: the button stays on seat %d, the "
                       "same players and limits.",
                       e->hand_no, e->button);
    if (!fw__setup_hand(e, redeal)) {
        fw__emit_alert(e, "not_enough_players", NULL, FW_SEV_WARN,
                       FW_R_DEAD_BUTTON, 0,
                       "Fewer than two players with chips: no hand.");
        return;
    }
    e->street = FW_ST_DEAL;
    e->min_raise = round_min_raise(e);
    e->dirty = true;
}

/* ---- actions in and out of turn ---- */

static void record_undercall(fw_engine *e, int s, int64_t total)
{
    /* TDA 51-B: mandatory full call heads-up, or facing the opening bet
     * multi-way; otherwise the floor decides. */
    char a[32], b[32];
    bool heads_up = fw__count_live(e) == 2;
    bool opener = !e->round_raised;
    if (heads_up || opener) {
        fw__emit_alert(e, "undercall", "full_call", FW_SEV_WARN,
                       FW_R_UNDERCALL, s,
                       "Seat %d put out %s facing %s: %s - a full call is "
                       "required.",
                       s, fw__chips(total, a), fw__chips(e->current_bet, b),
                       heads_up ? "heads-up" : "the opening bet");
        int64_t to = e->current_bet;
        seat *p = &e->seats[s];
        if (to > p->bet + p->stack)
            to = p->bet + p->stack;
        emit_reading(e, s, to == p->bet + p->stack ? FW_ACT_ALL_IN
                                                   : FW_ACT_CALL,
                     to, 0, "undercall_full_call", FW_R_UNDERCALL);
        apply_action(e, s, to == p->bet + p->stack ? FW_ACT_ALL_IN
                                                   : FW_ACT_CALL,
                     to);
        return;
    }
    e->floor = FLOOR_UNDERCALL;
    e->floor_seat = s;
    e->floor_amount = total;
    fw__emit_alert(e, "undercall", "undercall_discretion", FW_SEV_STOP,
                   FW_R_UNDERCALL, s,
                   "Seat %d put out %s facing a raise to %s, multi-way: the "
                   "floor decides - full call, or forfeit and fold.",
                   s, fw__chips(total, a), fw__chips(e->current_bet, b));
    fw__emit_ruling(e, s, FW_ACT_FLOOR, e->seats[s].bet, 0,
                    "undercall_discretion", FW_R_UNDERCALL,
                    "Seat %d: FLOOR - undercall of %s; full call or forfeit "
                    "(Rule %s)",
                    s, fw__chips(e->current_bet, b),
                    rule_ref(e, FW_R_UNDERCALL)->number);
}

/* Act on a reading for the seat in turn. */
static void act_on_reading(fw_engine *e, int s, const fw_bet_reading *r)
{
    seat *p = &e->seats[s];
    if (r->undercall) {
        record_undercall(e, s, r->to);
        return;
    }
    emit_reading(e, s, r->action, r->action == FW_ACT_FOLD ? p->bet : r->to,
                 r->returned, r->why, r->rule);
    if (r->action == FW_ACT_FOLD && p->must_act_not_fold) {
        fw__emit_alert(e, "binding_pull", NULL, FW_SEV_WARN, FW_R_PRIOR_PULL,
                       s,
                       "Seat %d pulled back a prior bet facing a raise and "
                       "is bound to call or raise.",
                       s);
    }
    if (r->rule == FW_R_UNDERBET && r->why[0]) {
        char a[32];
        fw__emit_alert(e, "underraise", r->why, FW_SEV_WARN, FW_R_UNDERBET,
                       s, "Seat %d bet less than the minimum: make it %s.",
                       s, fw__chips(r->to, a));
    }
    int64_t owed = r->owed;
    apply_action(e, s, r->action, r->to);
    p->owed = owed;
}

/* Rule 53: an action out of turn is held until the action reaches the seat;
 * a fold out of turn is binding at once. */
static void out_of_turn(fw_engine *e, int s, const fw_bet_reading *r,
                        bool chips)
{
    seat *p = &e->seats[s];
    char a[32];
    int skipped = e->to_act;
    if (!e->skipped_seat)
        e->skipped_seat = skipped;
    e->oot_actions++;
    e->oot_chip_actions += chips;
    fw__emit_alert(e, "action_out_of_turn", NULL, FW_SEV_WARN, FW_R_OOT, s,
                   "Seat %d acted out of turn; the action is on seat %d.", s,
                   skipped);
    if (r->action == FW_ACT_FOLD) {
        emit_reading(e, s, FW_ACT_FOLD, p->bet, 0, "out_of_turn", FW_R_OOT);
        p->folded = true;
        p->acted = true;
        e->dirty = true;
    } else {
        p->oot_pending = true;
        p->oot_action = r->action;
        p->oot_to = r->to;
        p->oot_faced = e->current_bet;
        p->oot_owed = r->owed;
        fw__emit_ruling(e, s, r->action, r->to, 0, "out_of_turn", FW_R_OOT,
                        "Seat %d: %s%s%s - out of turn: binding if the action "
                        "to seat %d does not change (Rule %s)",
                        s, action_word(r->action),
                        r->action == FW_ACT_CHECK ? "" : " ",
                        r->action == FW_ACT_CHECK ? "" : fw__chips(r->to, a),
                        s, rule_ref(e, FW_R_OOT)->number);
    }
    /* TDA 53-B: substantial action out of turn after the skipped player
     * makes it binding; the floor rules on the skipped hand. */
    if (e->oot_actions + 0 >= 2 &&
        ((e->oot_actions >= 2 && e->oot_chip_actions >= 1) ||
         e->oot_actions >= 3) &&
        e->floor == FLOOR_NONE) {
        for (int o = 1; o <= e->nseats; o++)
            if (e->seats[o].oot_pending)
                e->seats[o].oot_faced = -1; /* binding whatever happens */
        e->floor = FLOOR_SKIPPED_SEAT;
        e->floor_seat = e->skipped_seat;
        fw__emit_alert(e, "action_out_of_turn", "substantial_action",
                       FW_SEV_STOP, FW_R_OOT_SA, e->skipped_seat,
                       "Substantial action out of turn after seat %d: the "
                       "out-of-turn actions are binding; the floor rules on "
                       "seat %d's hand.",
                       e->skipped_seat, e->skipped_seat);
    }
    if (e->to_act == 0 || fw__count_live(e) <= 1)
        fw__advance(e, e->last_actor ? e->last_actor : s);
}

static void apply_held_oot(fw_engine *e, int s)
{
    seat *p = &e->seats[s];
    p->oot_pending = false;
    if (p->oot_faced == -1 || p->oot_faced == e->current_bet) {
        int64_t owed = p->oot_owed;
        emit_reading(e, s, p->oot_action, p->oot_to, 0,
                     "out_of_turn_binding", FW_R_OOT);
        apply_action(e, s, p->oot_action, p->oot_to);
        p->owed = owed;
        return;
    }
    char a[32];
    fw__emit_alert(e, "action_out_of_turn", "action_changed", FW_SEV_INFO,
                   FW_R_OOT, s,
                   "The action to seat %d changed: the out-of-turn %s is not "
                   "binding%s%s; all options are open.",
                   s, action_word(p->oot_action),
                   p->oot_to > p->bet ? ", return " : "",
                   p->oot_to > p->bet ? fw__chips(p->oot_to - p->bet, a) : "");
}

static void start_betting_if_dealing(fw_engine *e)
{
    fw__dealing_before_action(e);
    /* a bets-only stream: the next street starts with its first action */
    if (e->betting_done && !e->cards_seen && e->street >= FW_ST_PREFLOP &&
        e->street < FW_ST_RIVER) {
        e->pending_board += fw__board_needed(e);
        fw__try_next_street(e);
    }
}

/* Validate that seat s can take part in betting; alert otherwise. */
static bool seat_can_act(fw_engine *e, int s, const char *what)
{
    const seat *p = &e->seats[s];
    if (e->street < FW_ST_DEAL || e->street > FW_ST_RIVER) {
        fw__emit_alert(e, "no_betting", NULL, FW_SEV_INFO, FW_R_IN_TURN, s,
                       "Seat %d: %s ignored - no betting round is open.", s,
                       what);
        return false;
    }
    if (!p->occupied || !p->dealt_in) {
        fw__emit_alert(e, "no_hand", NULL, FW_SEV_WARN, FW_R_IN_TURN, s,
                       "Seat %d: %s ignored - %s.", s, what,
                       p->occupied ? "the seat was not dealt in"
                                   : "the seat is empty");
        return false;
    }
    if (p->folded || p->dead) {
        fw__emit_alert(e, "no_hand", NULL, FW_SEV_WARN, FW_R_IN_TURN, s,
                       "Seat %d: %s ignored - the hand is %s.", s, what,
                       p->folded ? "folded" : "dead");
        return false;
    }
    return true;
}

static void on_say(fw_engine *e, const fw_event *ev)
{
    int s = ev->seat;
    if (!seat_can_act(e, s, "declaration"))
        return;
    start_betting_if_dealing(e);
    seat *p = &e->seats[s];
    if (e->to_act == 0 || p->all_in) {
        fw__emit_alert(e, "no_betting", NULL, FW_SEV_INFO, FW_R_IN_TURN, s,
                       "Seat %d: declaration ignored - no action is pending.",
                       s);
        return;
    }
    fw_bet_situation bs;
    fw_bet_reading r;
    situation(e, s, &bs);
    fw__read_say(&bs, ev->word, ev->has_amount, ev->amount, &r);

    if (s != e->to_act) {
        if (s == e->last_actor && p->pushed_this_turn) {
            /* TDA 40-A: the chips came first and define the bet */
            fw__emit_alert(e, "declaration_after_chips", NULL, FW_SEV_INFO,
                           FW_R_VERBAL_CHIPS, s,
                           "Seat %d spoke after pushing chips: the chips came "
                           "first and define the bet.",
                           s);
            return;
        }
        if (r.pending) {
            fw__emit_alert(e, "action_out_of_turn", NULL, FW_SEV_WARN,
                           FW_R_OOT, s,
                           "Seat %d declared out of turn; the action is on "
                           "seat %d.",
                           s, e->to_act);
            return;
        }
        out_of_turn(e, s, &r, r.action != FW_ACT_CHECK &&
                                  r.action != FW_ACT_FOLD);
        return;
    }
    if (r.pending) {
        p->declared = ev->word;
        if (ev->word == FW_WORD_CHECK)
            p->no_raise = true;
        if (r.why[0])
            fw__emit_alert(e, "declaration", r.why, FW_SEV_INFO, r.rule, s,
                           "Seat %d: %s", s, rule_ref(e, r.rule)->text);
        return;
    }
    act_on_reading(e, s, &r);
}

static int64_t sum_chips(const fw_event *ev)
{
    int64_t t = 0;
    for (int i = 0; i < ev->nchips; i++)
        t += ev->chips[i];
    return t;
}

static void on_push(fw_engine *e, const fw_event *ev)
{
    int s = ev->seat;
    seat *p = &e->seats[s];
    int64_t sum = sum_chips(ev);
    char a[32], b[32];

    /* Chips owed for an earlier ruling (a declared call, a minimum raise),
     * even when that ruling closed the betting. */
    if (s != e->to_act && p->owed > 0 && live(p)) {
        int64_t pay = sum < p->owed ? sum : p->owed;
        p->owed -= pay;
        if (sum > pay)
            fw__emit_alert(e, "excess_chips", NULL, FW_SEV_INFO,
                           FW_R_BINDING, s, "Seat %d: return %s.", s,
                           fw__chips(sum - pay, a));
        return;
    }
    if (!seat_can_act(e, s, "chips"))
        return;
    /* chips for a declaration made out of turn and still held */
    if (p->oot_pending && s != e->to_act && p->oot_owed > 0) {
        p->oot_owed -= sum < p->oot_owed ? sum : p->oot_owed;
        return;
    }

    /* The blinds' chips seen during the deal: prior chips in front
     * (46-C Situation 4: a 1,000 chip posted for a 100 blind). */
    if (e->street == FW_ST_DEAL && p->bet > 0 && p->front_extra == 0 &&
        sum >= p->bet) {
        p->front_extra = sum - p->bet;
        if (p->front_extra > p->stack)
            p->front_extra = p->stack;
        return;
    }
    start_betting_if_dealing(e);

    int64_t avail = p->stack + p->bet + p->front_extra;
    if (sum > avail) {
        fw__emit_alert(e, "chips_exceed_stack", NULL, FW_SEV_WARN, FW_R_STACK,
                       s,
                       "Seat %d pushed %s but has only %s: read as all-in.", s,
                       fw__chips(sum, a), fw__chips(p->stack, b));
    }

    /* TDA 56: a second motion by a seat that already acted is a string
     * bet; its chips go back. */
    if (s != e->to_act && s == e->last_actor && p->pushed_this_turn) {
        fw__emit_alert(e, "string_bet", NULL, FW_SEV_WARN, FW_R_STRING_BET, s,
                       "Seat %d: string bet - the second motion (%s) is "
                       "returned; the action stands.",
                       s, fw__chips(sum, a));
        emit_reading(e, s, p->last_action, p->bet, sum, "string_bet",
                     FW_R_STRING_BET);
        return;
    }
    if (e->to_act == 0 || p->all_in) {
        fw__emit_alert(e, "no_betting", NULL, FW_SEV_INFO, FW_R_IN_TURN, s,
                       "Seat %d: chips ignored - no action is pending.", s);
        return;
    }

    fw_bet_situation bs;
    fw_bet_reading r;
    situation(e, s, &bs);
    int n = ev->nchips < FW_MAX_CHIPS_PER_EVENT ? ev->nchips
                                                : FW_MAX_CHIPS_PER_EVENT;
    if (n == 0)
        return;
    if (s == e->to_act && p->declared == FW_WORD_RAISE &&
        e->profile->two_motion_raise) {
        /* TDA (older) 40-C: "raise", the exact call in one motion, then
         * the raise in one more: wait for the second motion */
        if (!p->call_motion && bs.prior_front + sum == e->current_bet &&
            e->current_bet > p->bet) {
            p->call_motion = true;
            p->call_motion_chips = sum;
            return;
        }
        if (p->call_motion) {
            /* read both motions as one push of all their chips */
            int64_t both[FW_MAX_CHIPS_PER_EVENT];
            int k = 0;
            both[k++] = p->call_motion_chips;
            for (int i = 0; i < n && k < FW_MAX_CHIPS_PER_EVENT; i++)
                both[k++] = ev->chips[i];
            p->call_motion = false;
            fw__read_push(&bs, FW_WORD_RAISE, both, k, &r);
            r.rule = FW_R_TWO_MOTION_RAISE;
            act_on_reading(e, s, &r);
            p->pushed_this_turn = true;
            return;
        }
    }
    fw__read_push(&bs, s == e->to_act ? p->declared : FW_WORD_NONE,
                  ev->chips, n, &r);
    if (s != e->to_act) {
        if (r.undercall) {
            r.action = FW_ACT_CALL;
            r.to = e->current_bet;
        }
        out_of_turn(e, s, &r, true);
        p->pushed_this_turn = true;
        return;
    }
    act_on_reading(e, s, &r);
    p->pushed_this_turn = true;
}

static void on_pull(fw_engine *e, const fw_event *ev)
{
    int s = ev->seat;
    if (!seat_can_act(e, s, "pull"))
        return;
    seat *p = &e->seats[s];
    int64_t sum = sum_chips(ev);
    int64_t physical = p->bet + p->front_extra;
    p->pulled += sum;
    if (p->pulled > physical)
        p->pulled = physical;
    /* TDA 46-B: facing a raise, pulling back a prior bet binds the player
     * to call or raise. */
    if (p->bet > 0 && e->current_bet > p->bet && s == e->to_act)
        p->must_act_not_fold = true;
}

static void on_fold(fw_engine *e, const fw_event *ev)
{
    int s = ev->seat;
    if (!seat_can_act(e, s, "fold"))
        return;
    start_betting_if_dealing(e);
    fw_bet_situation bs;
    fw_bet_reading r;
    situation(e, s, &bs);
    fw__read_say(&bs, FW_WORD_FOLD, false, 0, &r);
    if (e->to_act == 0) {
        /* folding with no action open (all-in run-out, showdown) */
        e->seats[s].folded = true;
        emit_reading(e, s, FW_ACT_FOLD, e->seats[s].bet, 0, "",
                     FW_R_IN_TURN);
        if (fw__count_live(e) <= 1)
            fw__award_pots(e);
        return;
    }
    if (s != e->to_act) {
        out_of_turn(e, s, &r, false);
        return;
    }
    act_on_reading(e, s, &r);
}

static void on_show(fw_engine *e, const fw_event *ev)
{
    int s = ev->seat;
    seat *p = &e->seats[s];
    if (!p->dealt_in || p->folded || p->dead) {
        fw__emit_alert(e, "no_hand", NULL, FW_SEV_INFO, FW_R_AWARD, s,
                       "Seat %d showed cards but has no live hand.", s);
        return;
    }
    int need = fw_game_hole_cards(e->game);
    for (int i = 0; i < ev->ncards && i < FW_MAX_HOLE; i++) {
        if (fw__see_shown_card(e, s, ev->cards[i]))
            return; /* a fouled deck ended the hand */
        p->hole[i] = ev->cards[i];
    }
    if (e->to_act && !e->faceup_prompted && e->street != FW_ST_SHOWDOWN) {
        /* TDA 68: exposing cards with action pending: a penalty may
         * follow, the hand is not dead */
        fw__emit_alert(e, "exposed_card", "action_pending", FW_SEV_WARN,
                       FW_R_EXPOSED_PENDING, s,
                       "Seat %d exposed cards with action pending: the hand "
                       "stays live; a penalty may follow at the end of the "
                       "hand.",
                       s);
        return;
    }
    if (ev->ncards < need) {
        /* TDA 13-A, 19: all hole cards must be tabled to win */
        fw__emit_alert(e, "incomplete_show", NULL, FW_SEV_WARN,
                       FW_R_PLAY_THE_BOARD, s,
                       "Seat %d tabled %d of %d hole cards: table them all "
                       "to get part of the pot.",
                       s, ev->ncards, need);
        return;
    }
    p->shown = true;
    p->mucked = false;
    check_showdown_done(e);
}

static void on_muck(fw_engine *e, const fw_event *ev)
{
    int s = ev->seat;
    seat *p = &e->seats[s];
    if (!live(p))
        return;
    if (e->street != FW_ST_SHOWDOWN) {
        /* discarding before showdown is folding */
        on_fold(e, ev);
        return;
    }
    if (p->all_in || e->faceup_prompted) {
        fw__emit_alert(e, "face_up_all_in", "muck_without_tabling",
                       FW_SEV_WARN, FW_R_FACE_UP_ALL_IN, s,
                       "Seat %d may not muck without tabling in an all-in "
                       "showdown: retrieve and table the cards.",
                       s);
        return;
    }
    p->mucked = true;
    if (s == e->river_aggressor) {
        /* TDA 18-B: callers who kept their cards paid to see this hand */
        fw__emit_alert(e, "paid_to_see", NULL, FW_SEV_INFO, FW_R_PAID_TO_SEE,
                       s,
                       "Seat %d bet the river and mucked: a caller who kept "
                       "or tabled cards may ask to see the hand.",
                       s);
    }
    check_showdown_done(e);
}

static void on_floor(fw_engine *e, const fw_event *ev)
{
    int s = e->floor_seat;
    floor_wait w = e->floor;
    e->floor = FLOOR_NONE;
    char a[32];
    if (e->halt == HALT_MISDEAL && ev->decision == FW_DEC_CONTINUE) {
        /* the floor overrules the misdeal: the hand goes on */
        e->halt = HALT_NONE;
        fw__emit_alert(e, "floor", "continue", FW_SEV_INFO, FW_R_MISDEAL, 0,
                       "Floor: no misdeal, the hand goes on.");
        e->dirty = true;
        return;
    }
    if (ev->decision == FW_DEC_MISDEAL && e->halt == HALT_NONE &&
        e->street >= FW_ST_DEAL && e->street <= FW_ST_RIVER) {
        fw__misdeal(e, "floor", 0, "Misdeal declared by the floor.");
        return;
    }
    if (ev->decision == FW_DEC_DEAD_HAND && ev->seat &&
        w != FLOOR_SKIPPED_SEAT) {
        seat *p = &e->seats[ev->seat];
        if (p->dealt_in && !p->folded && !p->dead) {
            p->dead = true;
            e->dirty = true;
            fw__emit_alert(e, "dead_hand", "floor", FW_SEV_INFO,
                           FW_R_AT_SEAT, ev->seat,
                           "Floor: seat %d's hand is dead.", ev->seat);
            if (fw__count_live(e) <= 1 && e->street <= FW_ST_RIVER)
                end_round(e);
            else if (e->to_act == ev->seat)
                fw__advance(e, ev->seat);
        }
        return;
    }
    switch (w) {
    case FLOOR_UNDERCALL: {
        seat *p = &e->seats[s];
        if (ev->decision == FW_DEC_FORFEIT_FOLD) {
            /* forfeit the undercall, at most the opening bet (51-B Ex 4) */
            int64_t forfeit = e->floor_amount - p->bet;
            int64_t cap = e->opening_bet - p->bet;
            if (forfeit > cap)
                forfeit = cap;
            if (forfeit < 0)
                forfeit = 0;
            int64_t back = e->floor_amount - p->bet - forfeit;
            p->stack -= forfeit;
            p->committed += forfeit;
            p->bet += forfeit;
            emit_reading(e, s, FW_ACT_FOLD, p->bet, back > 0 ? back : 0,
                         "undercall_forfeit", FW_R_UNDERCALL);
            apply_action(e, s, FW_ACT_FOLD, p->bet);
        } else {
            int64_t to = e->current_bet;
            bool all = to >= p->bet + p->stack;
            emit_reading(e, s, all ? FW_ACT_ALL_IN : FW_ACT_CALL,
                         all ? p->bet + p->stack : to, 0,
                         "undercall_full_call", FW_R_UNDERCALL);
            apply_action(e, s, all ? FW_ACT_ALL_IN : FW_ACT_CALL, to);
        }
        return;
    }
    case FLOOR_SKIPPED_SEAT:
        if (ev->decision == FW_DEC_DEAD_HAND) {
            seat *p = &e->seats[s];
            p->dead = true;
            fw__emit_alert(e, "dead_hand", NULL, FW_SEV_INFO, FW_R_OOT_SA, s,
                           "Floor: seat %d's hand is dead.", s);
            e->dirty = true;
            if (e->to_act == s)
                fw__advance(e, s);
        } else {
            /* the floor lets the skipped player act, non-aggressively */
            e->seats[s].no_raise = true;
            fw__emit_alert(e, "floor", NULL, FW_SEV_INFO, FW_R_OOT_SA, s,
                           "Floor: seat %d acts now and may call or fold, "
                           "not raise.",
                           s);
        }
        return;
    default:
        fw__emit_alert(e, "floor", NULL, FW_SEV_INFO, FW_R_VERBAL_CHIPS,
                       ev->seat,
                       "Floor decision \"%s\" recorded%s%s.",
                       fw_decision_name(ev->decision),
                       ev->seat ? " for seat " : "",
                       ev->seat ? fw__chips(ev->seat, a) : "");
        return;
    }
}

/*
 * TDA 34-A: the camera reports where the physical button is. Before the
 * first hand it places the button; later a different seat means it was
 * moved wrongly: corrected before substantial action, standing after.
 */
static void on_button(fw_engine *e, const fw_event *ev)
{
    if (e->hand_no == 0) {
        e->button = ev->seat;
        e->button_placed = true;
        e->dirty = true;
        return;
    }
    bool in_hand = e->street >= FW_ST_DEAL && e->street <= FW_ST_SHOWDOWN;
    if (!in_hand || ev->seat == e->button)
        return;
    if (!e->sa)
        fw__emit_alert(e, "button_moved_wrong", "before_sa", FW_SEV_WARN,
                       FW_R_BUTTON_MOVE, ev->seat,
                       "The button is on seat %d but belongs on seat %d: "
                       "move it back before substantial action.",
                       ev->seat, e->button);
    else
        fw__emit_alert(e, "button_moved_wrong", "after_sa", FW_SEV_INFO,
                       FW_R_BUTTON_MOVE, ev->seat,
                       "The button is on seat %d instead of seat %d; "
                       "substantial action has occurred: play continues.",
                       ev->seat, e->button);
}

/* TDA 29: the clock is put on a player. */
static void on_clock(fw_engine *e, const fw_event *ev)
{
    int s = ev->seat;
    if (e->to_act != s) {
        fw__emit_alert(e, "clock", "not_to_act", FW_SEV_INFO, FW_R_CLOCK, s,
                       "Seat %d is not the player to act: no clock.", s);
        return;
    }
    e->clock_seat = s;
    e->clock_start = e->now;
    e->countdown_said = false;
    fw__emit_alert(e, "clock", "started", FW_SEV_INFO, FW_R_CLOCK, s,
                   "Seat %d is on the clock: %d seconds, then a %d-second "
                   "countdown.",
                   s, e->profile->clock_seconds,
                   e->profile->countdown_seconds);
}

/*
 * Time passes. When the clock and its countdown have run out (strictly:
 * a tie goes to the player), a player facing a bet has a dead hand and one
 * not facing a bet has checked.
 */
static void clock_tick(fw_engine *e)
{
    int s = e->clock_seat;
    if (!s)
        return;
    if (e->to_act != s) {
        e->clock_seat = 0;
        return;
    }
    double used = e->now - e->clock_start;
    int base = e->profile->clock_seconds;
    int total = base + e->profile->countdown_seconds;
    if (used > base && !e->countdown_said) {
        e->countdown_said = true;
        fw__emit_alert(e, "clock", "countdown", FW_SEV_WARN, FW_R_CLOCK, s,
                       "Seat %d: %d-second countdown.", s,
                       e->profile->countdown_seconds);
    }
    if (used <= total)
        return;
    e->clock_seat = 0;
    seat *p = &e->seats[s];
    if (e->current_bet > p->bet || e->profile->clock_kills_unfaced) {
        emit_reading(e, s, FW_ACT_FOLD, p->bet, 0, "clock_expired",
                     FW_R_CLOCK);
        apply_action(e, s, FW_ACT_FOLD, p->bet);
    } else {
        emit_reading(e, s, FW_ACT_CHECK, p->bet, 0, "clock_expired",
                     FW_R_CLOCK);
        apply_action(e, s, FW_ACT_CHECK, p->bet);
    }
}

/* ------------------------------------------------------------------ */
/* Dispatch                                                             */
/* ------------------------------------------------------------------ */

static bool needs_seat(fw_event_type t)
{
    switch (t) {
    case FW_EV_SEAT:
    case FW_EV_BUTTON:
    case FW_EV_AWAY:
    case FW_EV_PRESENT:
    case FW_EV_PENALTY:
    case FW_EV_SAY:
    case FW_EV_PUSH:
    case FW_EV_PULL:
    case FW_EV_FOLD:
    case FW_EV_SHOW:
    case FW_EV_MUCK:
    case FW_EV_CLOCK:
        return true;
    default:
        return false;
    }
}

int fw_engine_apply(fw_engine *e, const fw_event *ev, const char **why)
{
    const char *dummy;
    if (!why)
        why = &dummy;
    *why = NULL;
    if (ev->type == FW_EV_TABLE) {
        if (ev->seats < 2 || ev->seats > FW_MAX_SEATS ||
            ev->game >= FW_GAME_COUNT || ev->profile >= FW_PROFILE_COUNT) {
            *why = "table: seats must be 2-10 and game and rules known";
            return FW_EINVAL;
        }
        on_table(e, ev);
        return FW_OK;
    }
    if (!e->has_table) {
        *why = "no table event yet";
        return FW_ESTATE;
    }
    if (needs_seat(ev->type) || (ev->type == FW_EV_CARD &&
                                 ev->to == FW_TO_SEAT)) {
        if (ev->seat < 1 || ev->seat > e->nseats) {
            *why = "field \"seat\": beyond the table's seats";
            return FW_EINVAL;
        }
    }
    if (ev->type == FW_EV_CARD && ev->to > FW_TO_MUCK) {
        *why = "unknown card destination";
        return FW_EINVAL;
    }
    e->dirty = false;
    if (ev->has_t && ev->t > e->now)
        e->now = ev->t;
    if (e->halt == HALT_MISDEAL) {
        /* a misdeal was declared: the cards come in, the hand is re-dealt;
         * nothing of this hand counts until then */
        switch (ev->type) {
        case FW_EV_CARD:
        case FW_EV_SAY:
        case FW_EV_PUSH:
        case FW_EV_PULL:
        case FW_EV_FOLD:
        case FW_EV_SHOW:
        case FW_EV_MUCK:
        case FW_EV_CLOCK:
            return FW_OK;
        default:
            break;
        }
    }
    switch (ev->type) {
    case FW_EV_LEVEL:
        on_level(e, ev);
        break;
    case FW_EV_SEAT:
        on_seat(e, ev);
        break;
    case FW_EV_BUTTON:
        on_button(e, ev);
        break;
    case FW_EV_AWAY:
        e->seats[ev->seat].away = true;
        break;
    case FW_EV_PRESENT:
        e->seats[ev->seat].away = false;
        break;
    case FW_EV_PENALTY:
        e->seats[ev->seat].penalty_hands = ev->hands;
        break;
    case FW_EV_HAND_START:
        on_hand_start(e);
        break;
    case FW_EV_CARD:
        fw__on_card(e, ev);
        break;
    case FW_EV_SAY:
        on_say(e, ev);
        break;
    case FW_EV_PUSH:
        on_push(e, ev);
        break;
    case FW_EV_PULL:
        on_pull(e, ev);
        break;
    case FW_EV_FOLD:
        on_fold(e, ev);
        break;
    case FW_EV_SHOW:
        on_show(e, ev);
        break;
    case FW_EV_MUCK:
        on_muck(e, ev);
        break;
    case FW_EV_FLOOR:
        on_floor(e, ev);
        break;
    case FW_EV_CLOCK:
        on_clock(e, ev);
        break;
    case FW_EV_TICK:
        clock_tick(e);
        break;
    case FW_EV_TABLE:
    case FW_EV_COUNT:
        break;
    }
    if (e->dirty)
        emit_state(e);
    return FW_OK;
}

/* ------------------------------------------------------------------ */
/* State                                                                */
/* ------------------------------------------------------------------ */

static fw_seat_status seat_status(const fw_engine *e, int s)
{
    const seat *p = &e->seats[s];
    if (!p->occupied)
        return FW_SEAT_EMPTY;
    bool in_hand = e->street != FW_ST_PREDEAL && e->street != FW_ST_COMPLETE;
    if (!in_hand || !p->dealt_in)
        return p->stack > 0 || in_hand ? (in_hand ? FW_SEAT_OUT
                                                  : FW_SEAT_ACTIVE)
                                       : FW_SEAT_OUT;
    if (p->dead)
        return FW_SEAT_DEAD;
    if (p->folded)
        return FW_SEAT_FOLDED;
    if (p->all_in)
        return FW_SEAT_ALL_IN;
    return FW_SEAT_ACTIVE;
}

void fw_engine_state(const fw_engine *e, fw_state *st)
{
    memset(st, 0, sizeof *st);
    st->hand = e->hand_no;
    st->street = e->street;
    st->to_act = e->to_act;
    st->min_raise_to = FW_NULL_AMOUNT;
    st->max_raise_to = FW_NULL_AMOUNT;
    if (e->to_act) {
        int s = e->to_act;
        fw_bet_situation bs;
        situation(e, s, &bs);
        const seat *p = &e->seats[s];
        st->to_call = e->current_bet > p->bet ? e->current_bet - p->bet : 0;
        if (st->to_call > p->stack)
            st->to_call = p->stack;
        if (bs.may_raise && p->bet + p->stack > e->current_bet) {
            int64_t lo = e->current_bet == 0 ? bs.min_bet
                                             : e->current_bet + bs.min_raise;
            int64_t hi = p->bet + p->stack;
            if (bs.max_to < hi)
                hi = bs.max_to;
            if (lo > hi)
                lo = hi;
            st->min_raise_to = lo;
            st->max_raise_to = hi;
        }
    }
    st->pot = pot_total(e);
    st->npots = fw__build_pots(e, st->pots, FW_MAX_POTS);
    st->nboard = e->nboard;
    memcpy(st->board, e->board, sizeof st->board);
    st->sa = e->sa;
    st->button = e->button;
    for (int s = 1; s <= e->nseats; s++) {
        fw_seat_view *v = &st->seats[st->nseats++];
        v->seat = s;
        v->stack = e->seats[s].stack;
        v->bet = e->seats[s].bet;
        v->status = seat_status(e, s);
    }
}
