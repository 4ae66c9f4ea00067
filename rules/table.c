/*
 * table.c - seats, the dead button, blinds and antes at the start of a hand.
 */
#include "engine_int.h"

#include <string.h>

/* The seat after `from` clockwise (1-based, wrapping). */
static int next_seat(const fw_engine *e, int from)
{
    return from % e->nseats + 1;
}

/* A seat that takes part in hands: seated with chips. */
static bool plays(const fw_engine *e, int s)
{
    return e->seats[s].occupied && e->seats[s].stack > 0;
}

int fw__next_occupied_with_chips(const fw_engine *e, int from)
{
    int s = from;
    for (int i = 0; i < e->nseats; i++) {
        s = next_seat(e, s);
        if (plays(e, s))
            return s;
    }
    return 0;
}

/* The next seat after `from` still holding a live hand (dealt, not folded,
 * not dead), all-in or not. */
int fw__next_in_hand(const fw_engine *e, int from)
{
    int s = from;
    for (int i = 0; i < e->nseats; i++) {
        s = next_seat(e, s);
        const seat *p = &e->seats[s];
        if (p->dealt_in && !p->folded && !p->dead)
            return s;
    }
    return 0;
}

int fw__count_live(const fw_engine *e)
{
    int n = 0;
    for (int s = 1; s <= e->nseats; s++) {
        const seat *p = &e->seats[s];
        n += p->dealt_in && !p->folded && !p->dead;
    }
    return n;
}

int fw__count_active(const fw_engine *e)
{
    int n = 0;
    for (int s = 1; s <= e->nseats; s++) {
        const seat *p = &e->seats[s];
        n += p->dealt_in && !p->folded && !p->dead && !p->all_in;
    }
    return n;
}

/* Move chips from a seat's stack into its bet (blinds) or the pot (antes),
 * never more than the stack; a seat left with nothing is all-in. */
static int64_t post(fw_engine *e, int s, int64_t amount, bool is_bet)
{
    seat *p = &e->seats[s];
    int64_t x = amount < p->stack ? amount : p->stack;
    p->stack -= x;
    p->committed += x;
    if (is_bet)
        p->bet += x;
    else
        p->ante_paid += x;
    if (p->stack == 0)
        p->all_in = true;
    return x;
}

/*
 * Place the button and the blinds for a new hand.
 *
 * TDA 32 (dead button): the big blind moves to the next seat that plays; the
 * small blind goes to the seat that had the big blind (dead when that player
 * is gone) and the button to the seat that had the small blind (dead when
 * empty). TDA 34-B: heads-up the button posts the small blind; the big blind
 * still moves forward, so nobody posts it twice in a row.
 * The first hand uses the button event's seat, or the first seat that plays.
 * A misdeal's re-deal keeps every position (Rule 35-C): the caller restores
 * prev_* before calling.
 */
static void place_blinds(fw_engine *e, int players)
{
    if (e->prev_bb_seat == 0) {
        if (!e->button_placed || !plays(e, e->button))
            e->button = fw__next_occupied_with_chips(e, e->nseats);
        if (players == 2) {
            e->sb_pos = e->button;
            e->bb_seat = fw__next_occupied_with_chips(e, e->button);
        } else {
            e->sb_pos = fw__next_occupied_with_chips(e, e->button);
            e->bb_seat = fw__next_occupied_with_chips(e, e->sb_pos);
        }
    } else {
        int bb = fw__next_occupied_with_chips(e, e->prev_bb_seat);
        e->bb_seat = bb;
        if (players == 2) {
            /* heads-up: the other player is the button and small blind */
            e->button = fw__next_occupied_with_chips(e, bb);
            e->sb_pos = e->button;
        } else {
            e->button = e->prev_sb_pos;
            e->sb_pos = e->prev_bb_seat;
        }
    }
    /* a small blind position with nobody playing is a dead small blind */
    e->sb_seat = plays(e, e->sb_pos) ? e->sb_pos : 0;
}

/*
 * Start a hand: apply the announced level (Rule 23), deal in every seat that
 * plays, place button and blinds, post antes and blinds. Returns false when
 * fewer than two players can play.
 */
bool fw__setup_hand(fw_engine *e, bool redeal)
{
    int players = 0;
    for (int s = 1; s <= e->nseats; s++)
        players += redeal ? e->seats[s].dealt_in : plays(e, s);
    if (players < 2)
        return false;

    if (e->pending_level && !redeal) {
        e->lv = e->next_lv;
        e->pending_level = false;
        e->has_level = true;
    }

    /* TDA 35-C: the re-deal is an exact replay: same hand, same seats
     * dealt in, the button does not move, the limits stay the same */
    if (!redeal)
        e->hand_no++;
    for (int s = 1; s <= e->nseats; s++) {
        seat *p = &e->seats[s];
        bool was_dealt = p->dealt_in;
        if (redeal)
            p->stack = p->start_stack;
        memset(&p->exposed_replacement, 0,
               sizeof *p - offsetof(seat, exposed_replacement));
        p->dealt_in = redeal ? was_dealt : plays(e, s);
        p->start_stack = p->stack;
        for (int i = 0; i < FW_MAX_HOLE; i++)
            p->hole[i] = FW_CARD_NONE;
    }

    if (!redeal)
        place_blinds(e, players);

    /* limit games post blinds of half and one small bet when not given */
    int64_t sb = e->lv.sb, bb = e->lv.bb;
    if (e->game == FW_GAME_FLHE && bb == 0)
        bb = e->lv.small_bet, sb = e->lv.small_bet / 2;
    if (e->lv.ante > 0) {
        if (e->lv.ante_type == FW_ANTE_EACH) {
            for (int s = 1; s <= e->nseats; s++)
                if (e->seats[s].dealt_in)
                    post(e, s, e->lv.ante, false);
        }
    }
    if (e->sb_seat)
        post(e, e->sb_seat, sb, true);
    /* TDA: with a big-blind ante the blind is posted before the ante */
    post(e, e->bb_seat, bb, true);
    if (e->lv.ante > 0 && e->lv.ante_type == FW_ANTE_BB)
        post(e, e->bb_seat, e->lv.ante, false);

    if (!redeal) {
        e->prev_sb_pos = e->sb_pos;
        e->prev_bb_seat = e->bb_seat;
    }
    e->bb_assumed = bb;
    return true;
}
