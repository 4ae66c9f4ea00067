/*
 * engine_int.h - private to rules/: the engine's state and the helpers its
 * source files share. Nothing here is API; rules.h is.
 */
#ifndef FW_ENGINE_INT_H
#define FW_ENGINE_INT_H

#include "profile.h"
#include "rules.h"

#include <stdbool.h>

/* A seat's situation within the current hand. */
typedef struct seat {
    /* who sits here (survives hands) */
    bool occupied;
    char name[FW_MAX_NAME];
    int64_t stack;          /* chips behind */
    bool away;
    bool away_at_misdeal;   /* away when the misdealt hand was dealt */
    int penalty_hands;

    /* this hand */
    int64_t start_stack;    /* stack before the hand's blinds and antes */
    bool exposed_replacement; /* may take one more card on the deal */
    bool dealt_in;          /* entitled to a hand and dealt in */
    bool folded;
    bool all_in;
    bool dead;              /* hand killed (away, penalty, ruling) */
    bool mucked;            /* discarded at showdown without tabling */
    bool shown;             /* tabled all hole cards */
    int ncards;             /* hole cards received on the deal */
    fw_card hole[FW_MAX_HOLE];
    int64_t committed;      /* chips put in the pot this hand, all streets */
    int64_t ante_paid;      /* of which antes: dead money, main pot */

    /* this street */
    int64_t bet;            /* chips counted as this street's bet */
    int64_t front_extra;    /* physical chips in front beyond the bet */
    int64_t pulled;         /* prior chips pulled back on this turn */
    bool acted;             /* acted voluntarily since the street began */
    int64_t acted_to;       /* the bet level the seat last matched/made */
    bool no_raise;          /* said "check" facing a bet (Rule 55) */
    bool must_act_not_fold; /* pulled prior chips facing a raise (46-B) */

    /* the turn in progress */
    fw_word declared;       /* declaration waiting for chips */
    int64_t owed;           /* chips still to put out for the ruling */
    bool pushed_this_turn;  /* first motion made: another is a string bet */
    bool call_motion;       /* older 40-C: "raise", then the call */
    int64_t call_motion_chips;
    fw_action last_action;  /* the seat's last ruling, for a string bet */

    /* an action made out of turn, held until the action reaches the seat */
    bool oot_pending;
    fw_action oot_action;
    int64_t oot_to;
    int64_t oot_faced;      /* the current bet when it was made */
    int64_t oot_owed;       /* chips still to come for it */
} seat;

/* Blinds, antes and limit bets of a level. */
typedef struct level {
    int64_t sb, bb, ante, small_bet, big_bet;
    fw_ante_type ante_type;
} level;

/* A held floor question: what the engine waits on. */
typedef enum floor_wait {
    FLOOR_NONE = 0,
    FLOOR_UNDERCALL,        /* 51-B: full call or forfeit and fold */
    FLOOR_SKIPPED_SEAT,     /* 53-B: the skipped hand's fate */
    FLOOR_UNCLEAR_BET,      /* 40-A: verbal and chips contradict */
    FLOOR_BOXED             /* TPF RP11: several boxed cards: misdeal? */
} floor_wait;

struct fw_engine {
    fw_emit_fn emit;
    void *ctx;

    /* the table */
    bool has_table;
    int nseats;
    fw_game game;
    const fw_profile *profile;
    int64_t chip_set[FW_MAX_CHIP_SET];
    int nchip_set;
    int64_t chip_unit;      /* smallest chip in play (Rule 20) */
    int raise_cap;

    /* levels: the one in force and the one announced (Rule 23) */
    bool has_level, pending_level;
    level lv, next_lv;

    seat seats[FW_MAX_SEATS + 1]; /* 1-based */

    /* button and blinds */
    int button;             /* seat the button is on (may be dead) */
    int sb_seat, bb_seat;   /* who posts; sb_seat 0 for a dead small blind */
    int sb_pos;             /* where the small blind is, dead or not */
    int prev_sb_pos, prev_bb_seat;
    bool button_placed;     /* a button event placed it before hand 1 */

    /* the hand */
    int hand_no;
    fw_street street;
    bool cards_seen;        /* any card event this hand */
    fw_card board[5];
    int nboard;
    int pending_board;      /* board cards seen for the coming street */

    /* the betting round */
    int to_act;
    int64_t current_bet;
    int64_t min_raise;      /* largest full bet or raise this round */
    int raises;             /* full bets and raises this round */
    bool round_raised;      /* a bet or raise beyond the opener */
    int64_t opening_bet;    /* the first chip bet of the round (51-B) */
    int last_aggressor;
    int river_aggressor;    /* last bettor on the final round, 0 none */
    bool betting_done;      /* this street's betting is over */
    int last_actor;         /* for string bets: who acted last */
    bool faceup_prompted;   /* Rule 16 prompt already given */
    int64_t bb_assumed;     /* Rule 54-B: blinds as if posted in full */

    /* substantial action (Rule 36) */
    int sa_actions, sa_chip_actions;
    bool sa;

    /* out of turn (Rule 53) */
    int skipped_seat;       /* seat passed over by OOT action, 0 none */
    int oot_actions, oot_chip_actions;

    /* floor */
    floor_wait floor;
    int floor_seat;
    int64_t floor_amount;

    /* the cards (dealing.c) */
    enum { HALT_NONE = 0, HALT_MISDEAL } halt;
    int8_t where[52];       /* where each card was seen (fouled deck) */
    int deal_count;         /* cards dealt to seats on the initial deal */
    int deal_last;          /* seat of the last of them */
    int deal_exposed;       /* downcards exposed by the dealer */
    bool button_owed;       /* 35-B: the button skipped, two at the end */
    bool button_short;      /* 37: the button is missing a card */
    int boxed;              /* boxed cards on the initial deal */
    int burns;              /* burn cards since the last board card */
    bool burn_waived;       /* the next street needs no new burn */
    bool street_burned;     /* the street being dealt had its burn */
    bool premature;         /* premature board cards are out */
    bool flop_redo;         /* 39-B: waiting for the flop dealt again */
    fw_card flop_saved[3];
    int street_actions;     /* actions on this street (39-A) */
    bool rabbit_said;       /* 28 said once per hand */

    /* the clock (TDA 29) */
    double now;
    int clock_seat;
    double clock_start;
    bool countdown_said;

    bool dirty;             /* emit a state record after this event */
};

/* emit.c-ish helpers, in hand.c */
void fw__emit_ruling(fw_engine *e, int seat, fw_action action, int64_t to,
                     int64_t returned, const char *why, fw_rule_id rule,
                     const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));
void fw__emit_alert(fw_engine *e, const char *kind, const char *why,
                    fw_severity sev, fw_rule_id rule, int seat,
                    const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

/* An alert whose remedy comes from another rule than the one cited (a
 * misdeal cites 35-A and gives the re-deal procedure of 35-C). */
void fw__emit_alert_remedy(fw_engine *e, const char *kind, const char *why,
                           fw_severity sev, fw_rule_id rule,
                           fw_rule_id remedy_rule, int s, const char *fmt,
                           ...) __attribute__((format(printf, 8, 9)));

/* Format chips with thousands separators ("1,100"). */
const char *fw__chips(int64_t v, char buf[32]);

/* table.c */
int fw__next_in_hand(const fw_engine *e, int from);
int fw__next_occupied_with_chips(const fw_engine *e, int from);
int fw__count_live(const fw_engine *e);
int fw__count_active(const fw_engine *e);
bool fw__setup_hand(fw_engine *e, bool redeal);

/* hand.c, for dealing.c */
void fw__start_preflop(fw_engine *e);
void fw__try_next_street(fw_engine *e);
int fw__board_needed(const fw_engine *e);
void fw__advance(fw_engine *e, int s);

/* dealing.c */
void fw__on_card(fw_engine *e, const fw_event *ev);
void fw__dealing_before_action(fw_engine *e);
bool fw__see_shown_card(fw_engine *e, int s, fw_card c);
void fw__misdeal(fw_engine *e, const char *why, int s, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* pots.c */
int fw__build_pots(const fw_engine *e, fw_pot_view *pots, int max);
void fw__award_pots(fw_engine *e);
/* The hand is over: hand_end record, penalties served, street complete. */
void fw__end_hand(fw_engine *e);

#endif
