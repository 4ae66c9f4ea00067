/*
 * dealing.c - the cards of a hand and the dealer's irregularities: the
 * initial deal (order, counts, exposed and boxed cards, seats not entitled
 * or dealt out), burns and the board (missing and extra burns, four-card
 * flops, flops without a burn, premature cards), fouled decks, misdeals and
 * the exact re-deal, players away or on penalty, rabbit hunting.
 *
 * TDA numbering in comments; what the dealer reads comes from the active
 * profile, which cites its own book.
 */
#include "engine_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Where a card was seen this hand: a seat (1..10) or one of these. */
enum { WHERE_NONE = 0, WHERE_BOARD = 20, WHERE_BURN, WHERE_BOXED };

static const char *street_card_name(fw_street next)
{
    switch (next) {
    case FW_ST_FLOP:
        return "flop";
    case FW_ST_TURN:
        return "turn";
    default:
        return "river";
    }
}

static int next_dealt_after(const fw_engine *e, int from)
{
    int s = from;
    for (int i = 0; i < e->nseats; i++) {
        s = s % e->nseats + 1;
        if (e->seats[s].dealt_in)
            return s;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Ending a hand without a showdown                                     */
/* ------------------------------------------------------------------ */

/* Put every chip back where it was when the hand started. */
static void restore_stacks(fw_engine *e)
{
    for (int s = 1; s <= e->nseats; s++) {
        seat *p = &e->seats[s];
        if (p->occupied || p->start_stack)
            p->stack = p->start_stack;
        p->bet = p->committed = p->ante_paid = p->front_extra = 0;
    }
}

/*
 * TDA 35-E: two cards of the same rank and suit: the deck is fouled. Play
 * stops and all bets are returned, whatever action there was.
 */
static void fouled_deck(fw_engine *e, fw_card c)
{
    char name[3];
    fw_card_str(c, name);
    fw__emit_alert(e, "fouled_deck", "duplicate_card", FW_SEV_STOP,
                   FW_R_FOULED_DECK, 0,
                   "Two %s seen in this hand: the deck is fouled. Play stops "
                   "and all bets are returned.",
                   name);
    restore_stacks(e);
    fw__end_hand(e);
}

/* Note where a card was seen; a second place means a fouled deck. */
static bool see_card(fw_engine *e, fw_card c, int where)
{
    if (c >= 52)
        return false;
    int was = e->where[c];
    /* the procedures move some cards to the burn pile: an exposed downcard
     * (35-A) or a boxed card (TPF RP11) */
    bool to_burn = where == WHERE_BURN &&
                   (was == WHERE_BOXED || (was >= 1 && was <= FW_MAX_SEATS));
    /* a seat's own card seen again (dealt face up, then tabled) is fine;
     * the board, the burns and the deck hold each card once */
    bool same_seat = was == where && where >= 1 && where <= FW_MAX_SEATS;
    if (was == WHERE_NONE || same_seat || to_burn) {
        e->where[c] = (int8_t)where;
        return false;
    }
    fouled_deck(e, c);
    return true;
}

/* A card goes back to the stub (premature, scrambled): it may come again. */
static void unsee_card(fw_engine *e, fw_card c)
{
    if (c < 52)
        e->where[c] = WHERE_NONE;
}

void fw__misdeal(fw_engine *e, const char *why, int s, const char *fmt, ...)
{
    char text[FW_TEXT_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    fw__emit_alert_remedy(e, "misdeal", why, FW_SEV_STOP, FW_R_MISDEAL,
                          FW_R_REDEAL, s, "%s", text);
    e->halt = HALT_MISDEAL;
    e->to_act = 0;
    e->dirty = true;
    for (int k = 1; k <= e->nseats; k++)
        e->seats[k].away_at_misdeal = e->seats[k].dealt_in &&
                                      e->seats[k].away;
}

/* ------------------------------------------------------------------ */
/* The initial deal                                                     */
/* ------------------------------------------------------------------ */

static bool deal_complete(const fw_engine *e)
{
    int need = fw_game_hole_cards(e->game);
    for (int s = 1; s <= e->nseats; s++)
        if (e->seats[s].dealt_in && e->seats[s].ncards < need)
            return false;
    return true;
}

/*
 * The last card of the deal is out: players not at their seats (TDA 30) and
 * players on penalty (71-C) have their hands killed; blinds and antes they
 * posted stay in the pot. Then betting begins.
 */
static void end_of_deal(fw_engine *e)
{
    for (int s = 1; s <= e->nseats; s++) {
        seat *p = &e->seats[s];
        if (!p->dealt_in || p->dead)
            continue;
        bool absent = p->away || (e->profile->redeal_kills_absent &&
                                  p->away_at_misdeal);
        p->away_at_misdeal = false;
        if (absent) {
            p->dead = true;
            fw__emit_alert(e, "dead_hand", "away", FW_SEV_INFO, FW_R_AT_SEAT,
                           s,
                           "Seat %d was not at the seat when the deal ended: "
                           "the hand is killed; blinds and antes stay in.",
                           s);
        } else if (p->penalty_hands > 0) {
            p->dead = true;
            fw__emit_alert(e, "dead_hand", "penalty", FW_SEV_INFO,
                           FW_R_PENALTY, s,
                           "Seat %d is on penalty: dealt in, hand killed.", s);
        }
    }
    fw__start_preflop(e);
}

void fw__dealing_before_action(fw_engine *e)
{
    if (e->halt)
        return;
    if (e->street == FW_ST_DEAL) {
        if (!e->deal_count) {
            /* the deal was not watched: take it as done */
            end_of_deal(e);
            return;
        }
        int need = fw_game_hole_cards(e->game);
        int short_seat = 0, nshort = 0;
        for (int s = 1; s <= e->nseats; s++) {
            const seat *p = &e->seats[s];
            if (p->dealt_in && p->ncards < need) {
                short_seat = s;
                nshort++;
            }
        }
        if (nshort == 1 && short_seat == e->button) {
            /* TDA 37: the button's missing card may be replaced */
            e->button_short = true;
            fw__emit_alert(e, "button_too_few_cards", NULL, FW_SEV_WARN,
                           FW_R_BUTTON_TOO_FEW, short_seat,
                           "The button (seat %d) has %d of %d cards: replace "
                           "the missing card before the button acts.",
                           short_seat, e->seats[short_seat].ncards, need);
        } else if (nshort > 0) {
            fw__misdeal(e, "wrong_card_count", short_seat,
                        "Misdeal: seat %d has %d of %d cards.", short_seat,
                        e->seats[short_seat].ncards, need);
            return;
        }
        end_of_deal(e);
        return;
    }
    if (e->flop_redo) {
        /* TDA 39-B: the players acted on the flop that had no burn: play
         * proceeds with those three cards */
        e->flop_redo = false;
        e->nboard = 0;
        for (int i = 0; i < 3; i++) {
            e->board[e->nboard++] = e->flop_saved[i];
            see_card(e, e->flop_saved[i], WHERE_BOARD);
        }
        e->pending_board = 3;
        e->burn_waived = false;
        fw__emit_alert(e, "no_burn_flop", "action_taken", FW_SEV_WARN,
                       FW_R_NO_BURN_FLOP, 0,
                       "Action was taken on the flop dealt without a burn: "
                       "play proceeds with those cards; burn one card for "
                       "the turn.");
        fw__try_next_street(e);
    }
}

/* Non-standard cards: a joker, or a 2-5 in short deck (TDA 35-A-6). */
static bool non_standard(const fw_engine *e, fw_card c)
{
    if (c == FW_CARD_JOKER)
        return true;
    return e->game == FW_GAME_NLSD && c < 52 && fw_card_rank(c) < 4;
}

static bool check_non_standard(fw_engine *e, fw_card c)
{
    if (!non_standard(e, c))
        return false;
    char name[3];
    if (c == FW_CARD_JOKER)
        snprintf(name, sizeof name, "Jk");
    else
        fw_card_str(c, name);
    if (!e->sa && (e->street == FW_ST_DEAL || e->street == FW_ST_PREFLOP)) {
        fw__misdeal(e, "non_standard_card", 0,
                    "Misdeal: a non-standard card (%s) before substantial "
                    "action.",
                    name);
        return true;
    }
    /* TDA 35-D: after SA a non-standard card is a scrap of paper */
    fw__emit_alert(e, "non_standard_card", NULL, FW_SEV_WARN, FW_R_AFTER_SA,
                   0,
                   "A non-standard card (%s) after substantial action: take "
                   "it out of play as a scrap of paper; the hand goes on.",
                   name);
    return true;
}

static void card_to_seat(fw_engine *e, const fw_event *ev)
{
    int s = ev->seat;
    seat *p = &e->seats[s];
    int need = fw_game_hole_cards(e->game);
    bool face_up = ev->face == FW_FACE_UP;

    if (e->street != FW_ST_DEAL) {
        /* after the deal: a missing button card may be replaced (37) */
        if (s == e->button && p->ncards < need && p->dealt_in) {
            p->hole[p->ncards++] = ev->card;
            if (p->ncards >= need)
                e->button_short = false;
            return;
        }
        if (!p->dealt_in || p->folded || p->dead)
            return; /* cards moving in front of a finished seat */
        p->ncards++;
        if (!e->sa) {
            fw__misdeal(e, "wrong_card_count", s,
                        "Misdeal: seat %d has %d cards; the game deals %d.",
                        s, p->ncards, need);
            return;
        }
        /* TDA 35-D, 38: after SA the wrong number of cards kills the
         * hand; no misdeal */
        p->dead = true;
        e->dirty = true;
        fw__emit_alert(e, "wrong_card_count", NULL, FW_SEV_WARN, FW_R_BURN, s,
                       "Seat %d has %d cards after substantial action: the "
                       "hand is dead. Burn one card, and only one, for the "
                       "next street.",
                       s, p->ncards);
        if (e->to_act == s)
            fw__advance(e, s);
        return;
    }

    /* TDA 35-A-3: cards to a seat not entitled to a hand */
    if (!p->dealt_in) {
        fw__misdeal(e, "dealt_to_empty_seat", s,
                    "Misdeal: a card was dealt to seat %d, which is not in "
                    "the hand.",
                    s);
        return;
    }
    int expected = e->deal_count == 0 ? next_dealt_after(e, e->button)
                                      : next_dealt_after(e, e->deal_last);
    if (e->deal_count == 0 && s != expected) {
        /* TDA 35-A-2 */
        fw__misdeal(e, "first_card_wrong_seat", s,
                    "Misdeal: the first card went to seat %d; it belongs to "
                    "seat %d, left of the button.",
                    s, expected);
        return;
    }
    if (s != expected) {
        bool skip_button = expected == e->button && !e->button_owed &&
                           s == next_dealt_after(e, e->button);
        bool button_catch_up = s == e->button && e->button_owed;
        if (skip_button) {
            e->button_owed = true; /* TDA 35-B: two in a row at the end */
        } else if (button_catch_up) {
            e->button_owed = false;
        } else if (e->seats[expected].ncards <= p->ncards) {
            /* TDA 35-A-4: a seat entitled to a hand was passed over; one
             * passed over in a later round has the wrong number (35-A-5) */
            bool none = e->seats[expected].ncards == 0;
            fw__misdeal(e, none ? "seat_dealt_out" : "wrong_card_count",
                        expected, "Misdeal: seat %d was passed over in the "
                                  "deal%s.",
                        expected, none ? "" : " and is a card short");
            return;
        }
    }
    if (p->ncards < FW_MAX_HOLE)
        p->hole[p->ncards] = ev->card;
    p->ncards++;
    e->deal_count++;
    e->deal_last = s;
    int allowed = need + (p->exposed_replacement ? 1 : 0);
    if (p->ncards > allowed) {
        /* TDA 35-A-5 */
        fw__misdeal(e, "wrong_card_count", s,
                    "Misdeal: seat %d was dealt %d cards; the game deals %d.",
                    s, p->ncards, need);
        return;
    }
    if (face_up) {
        /* TDA 35-A-7: one of the first two cards, or two downcards,
         * exposed by the dealer */
        e->deal_exposed++;
        if (e->deal_count <= 2 || e->deal_exposed >= 2) {
            fw__misdeal(e, "exposed_downcards", s,
                        "Misdeal: %s exposed by the dealer.",
                        e->deal_count <= 2 ? "one of the first two cards"
                                           : "two downcards");
            return;
        }
        p->exposed_replacement = true;
        fw__emit_alert(e, "exposed_card", "dealer_exposed", FW_SEV_WARN,
                       FW_R_MISDEAL, s,
                       "The dealer exposed a card to seat %d: not a misdeal. "
                       "Finish the deal, replace the card with the next card "
                       "off the stub and use the exposed card as the first "
                       "burn.",
                       s);
        e->burn_waived = true;
    }
    if (deal_complete(e) && !e->button_owed)
        end_of_deal(e);
}

/* ------------------------------------------------------------------ */
/* Burns and the board                                                  */
/* ------------------------------------------------------------------ */

static void premature(fw_engine *e, fw_card c)
{
    fw_street next = e->street == FW_ST_DEAL ? FW_ST_FLOP : e->street + 1;
    if (e->street == FW_ST_DEAL)
        next = FW_ST_FLOP;
    e->premature = true;
    fw_rule_id rule = next == FW_ST_FLOP   ? FW_R_PREMATURE
                      : next == FW_ST_TURN ? FW_R_PREMATURE_TURN
                                           : FW_R_PREMATURE_RIVER;
    fw__emit_alert(e, "premature_card", street_card_name(next), FW_SEV_STOP,
                   rule, 0,
                   "Premature %s: dealt before the betting was finished.",
                   street_card_name(next));
    unsee_card(e, c);
    /* TDA RP-5: the burn stays the burn, the re-dealt card comes without
     * another; other books burn again for a premature turn or river. */
    bool reburn = (next == FW_ST_TURN && e->profile->premature_turn_reburn) ||
                  (next == FW_ST_RIVER && e->profile->premature_river_reburn);
    e->burns = 0;
    e->burn_waived = !reburn;
}

/* TDA 39-A: four cards on the flop before any flop action. */
static void four_card_flop(fw_engine *e, fw_card fourth)
{
    fw__emit_alert(e, "four_card_flop", NULL, FW_SEV_STOP,
                   FW_R_FOUR_CARD_FLOP, 0,
                   "Four cards on the flop: the floor is called.");
    for (int i = 0; i < e->nboard; i++)
        unsee_card(e, e->board[i]);
    unsee_card(e, fourth);
    e->nboard = 0;
    e->pending_board = 0;
    e->street = FW_ST_PREFLOP;
    e->betting_done = true;
    e->to_act = 0;
    e->burns = 0;
    e->burn_waived = true; /* one of the four becomes the burn */
    e->dirty = true;
}

static void card_to_board(fw_engine *e, fw_card c)
{
    if (e->street == FW_ST_COMPLETE) {
        if (e->nboard < 5 && !e->rabbit_said) {
            e->rabbit_said = true;
            /* TDA 28 */
            fw__emit_alert(e, "rabbit_hunt", NULL, FW_SEV_WARN,
                           FW_R_RABBIT_HUNT, 0,
                           "The hand is over: rabbit hunting is not allowed.");
        }
        return;
    }
    if (e->street == FW_ST_SHOWDOWN || e->nboard >= 5)
        return;
    bool betting_open = e->street == FW_ST_DEAL || !e->betting_done;

    /* TDA 39-A: a fourth flop card, no burn since the flop, no action yet */
    if (e->street == FW_ST_FLOP && e->nboard == 3 && e->burns == 0 &&
        e->street_actions == 0 && !e->premature) {
        four_card_flop(e, c);
        return;
    }
    if (e->premature) {
        if (betting_open)
            return; /* more cards of the same premature deal */
        e->premature = false;
    } else if (betting_open) {
        premature(e, c);
        return;
    }
    if (see_card(e, c, WHERE_BOARD))
        return;

    int need = fw__board_needed(e);
    bool first_of_street = e->pending_board == 0;
    if (first_of_street) {
        e->street_burned = e->burns > 0 || e->burn_waived;
        if (need == 1 && !e->street_burned)
            /* TDA 38: one burn per street */
            fw__emit_alert(e, "missing_burn", NULL, FW_SEV_WARN, FW_R_BURN, 0,
                           "The %s came without a burn card.",
                           street_card_name(e->street + 1));
    }
    if (e->nboard < 5)
        e->board[e->nboard++] = c;
    e->pending_board++;
    if (need == 3 && e->pending_board == 3 && !e->street_burned) {
        /* TDA 39-B: no burn on the flop; no action yet (the engine sees it
         * at once): scramble, one becomes the burn, two plus the next */
        e->flop_redo = true;
        for (int i = 0; i < 3; i++) {
            e->flop_saved[i] = e->board[e->nboard - 3 + i];
            unsee_card(e, e->flop_saved[i]);
        }
        e->nboard -= 3;
        e->pending_board = 0;
        e->burn_waived = true;
        e->burns = 0;
        fw__emit_alert(e, "no_burn_flop", "no_action", FW_SEV_STOP,
                       FW_R_NO_BURN_FLOP, 0,
                       "The flop was dealt without a burn and nobody has "
                       "acted.");
        return;
    }
    if (e->pending_board >= need) {
        e->burns = 0;
        e->burn_waived = false;
        e->flop_redo = false; /* the flop was dealt again */
    }
    fw__try_next_street(e);
}

static void card_to_burn(fw_engine *e, fw_card c)
{
    if (e->street == FW_ST_COMPLETE || e->street == FW_ST_SHOWDOWN)
        return;
    if (see_card(e, c, WHERE_BURN))
        return;
    e->burns++;
    if (e->burns == 2 && !e->burn_waived) {
        /* TDA 38: one and only one burn per street */
        fw__emit_alert(e, "extra_burn", NULL, FW_SEV_WARN, FW_R_BURN, 0,
                       "A second burn card before the %s: the burn is one "
                       "card per street, never more.",
                       street_card_name(e->street == FW_ST_DEAL
                                            ? FW_ST_FLOP
                                            : e->street + 1));
    }
}

/* A face-up card seen in the deck or stub: a boxed card. */
static void card_boxed(fw_engine *e, fw_card c)
{
    if (see_card(e, c, WHERE_BOXED))
        return;
    bool initial = e->street == FW_ST_DEAL;
    if (initial)
        e->boxed++;
    if (initial && e->boxed >= 2) {
        if (e->profile->multi_boxed_floor_decides) {
            e->floor = FLOOR_BOXED;
            fw__emit_alert(e, "boxed_card", "multiple", FW_SEV_STOP,
                           FW_R_BOXED_CARD, 0,
                           "%d boxed cards on the deal: the floor decides "
                           "whether it is a misdeal.",
                           e->boxed);
            return;
        }
        /* TDA 35-A-1 */
        fw__misdeal(e, "two_boxed_cards", 0,
                    "Misdeal: two boxed cards on the initial deal.");
        return;
    }
    if (e->profile->single_boxed_procedure)
        e->burn_waived = initial; /* TPF RP11: it becomes the first burn */
    fw__emit_alert(e, "boxed_card", "single", FW_SEV_WARN, FW_R_BOXED_CARD, 0,
                   "A boxed card (face up in the deck)%s.",
                   initial ? " on the deal" : "");
}

void fw__on_card(fw_engine *e, const fw_event *ev)
{
    if (e->street == FW_ST_PREDEAL || e->halt)
        return;
    if (e->street == FW_ST_COMPLETE && ev->to != FW_TO_BOARD)
        return;
    e->cards_seen = true;
    if (ev->card != FW_CARD_NONE && ev->to != FW_TO_MUCK &&
        check_non_standard(e, ev->card))
        return;
    switch (ev->to) {
    case FW_TO_SEAT:
        if (ev->face == FW_FACE_UP || ev->card != FW_CARD_NONE)
            if (see_card(e, ev->card, ev->seat))
                return;
        card_to_seat(e, ev);
        return;
    case FW_TO_BOARD:
        card_to_board(e, ev->card);
        return;
    case FW_TO_BURN:
        card_to_burn(e, ev->card);
        return;
    case FW_TO_DECK:
        if (ev->face == FW_FACE_UP)
            card_boxed(e, ev->card);
        return;
    case FW_TO_MUCK:
        return;
    }
}

bool fw__see_shown_card(fw_engine *e, int s, fw_card c)
{
    return see_card(e, c, s);
}
