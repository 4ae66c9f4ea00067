/*
 * rules.h - the feltwatch rules engine: cards, hand evaluation, and the hand
 * state machine that reads every bet the way the active rulebook says.
 *
 * Pure C11 and libc: no I/O, no globals, no clock, no randomness. The same
 * code runs on the Pi, in the tests and in the fuzzers.
 *
 * Ownership: fw_engine is opaque, created by fw_engine_new() and freed by
 * fw_engine_free() (which accepts NULL). Records handed to the emit callback
 * are borrowed: their pointers are valid only during the callback. Strings in
 * records (rule numbers, texts, remedies) are either static or live inside the
 * record. Events passed in are read, never kept.
 *
 * Threading: an engine is used from one thread at a time; distinct engines
 * are independent. Card and evaluator functions are reentrant.
 */
#ifndef FW_RULES_H
#define FW_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "fw_error.h"

/* ------------------------------------------------------------------ */
/* Cards                                                                */
/* ------------------------------------------------------------------ */

/** A card: rank * 4 + suit, ranks 0 (deuce) .. 12 (ace), suits c d h s. */
typedef uint8_t fw_card;

#define FW_CARD_NONE ((fw_card)0xFF)
/** A joker: never in play; seen on the table it is an irregularity. */
#define FW_CARD_JOKER ((fw_card)0xFE)
#define FW_RANK_ACE 12
#define fw_card_make(rank, suit) ((fw_card)((rank) * 4 + (suit)))
#define fw_card_rank(c) ((int)(c) >> 2)
#define fw_card_suit(c) ((int)(c) & 3)

/**
 * Parse a two-character card ("Ah", "Td"). Ranks 2-9 T J Q K A (case
 * insensitive), suits c d h s (case insensitive).
 * \returns FW_OK or FW_EPARSE; *out is FW_CARD_NONE on error.
 */
int fw_card_parse(const char *s, fw_card *out);

/** Write the card as two characters plus NUL ("Ah"); "??" if invalid. */
void fw_card_str(fw_card c, char out[3]);

/* ------------------------------------------------------------------ */
/* Hand evaluation                                                      */
/* ------------------------------------------------------------------ */

/**
 * A hand's value: larger beats smaller, equal ties. The category sits in the
 * top bits (fw_hand_category), the kickers below it. 0 means "no hand".
 */
typedef uint32_t fw_hand_value;

enum fw_hand_category {
    FW_HIGH_CARD = 0,
    FW_ONE_PAIR,
    FW_TWO_PAIR,
    FW_THREE_OF_A_KIND,
    FW_STRAIGHT,
    FW_FLUSH,
    FW_FULL_HOUSE,
    FW_FOUR_OF_A_KIND,
    FW_STRAIGHT_FLUSH,
    FW_HAND_CATEGORIES
};

/**
 * Best five-card high hand out of n cards (5 <= n <= 7), standard deck.
 * Cards must be distinct and valid; otherwise the result is 0.
 */
fw_hand_value fw_eval_high(const fw_card *cards, int n);

/**
 * Best Omaha hand: exactly two of the nhole hole cards (4 for PLO, 5 for
 * PLO5) and exactly three of the nboard board cards (3..5).
 */
fw_hand_value fw_eval_omaha(const fw_card *hole, int nhole,
                            const fw_card *board, int nboard);

/**
 * Best short-deck (6+) hand out of n cards (5..7), ranks 6..A only: a flush
 * beats a full house and A-6-7-8-9 is the lowest straight. Values compare
 * only with other short-deck values.
 */
fw_hand_value fw_eval_short_deck(const fw_card *cards, int n);

/** The category (enum fw_hand_category) of a value from any evaluator. */
int fw_hand_category(fw_hand_value v);

/**
 * The hand as a dealer announces it: "Two Pair, Kings and Sevens",
 * "Full House, Aces full of Tens", "Straight, Nine High", "Royal Flush".
 * Writes at most size bytes including the NUL.
 * \returns FW_OK, or FW_EINVAL for value 0.
 */
int fw_hand_name(fw_hand_value v, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* Games, profiles and the protocol's input events (PROTOCOL.md)        */
/* ------------------------------------------------------------------ */

typedef enum fw_game {
    FW_GAME_NLHE = 0,
    FW_GAME_PLO,
    FW_GAME_PLO5,
    FW_GAME_FLHE,
    FW_GAME_NLSD,
    FW_GAME_COUNT
} fw_game;

/** Rulebook profiles. Only FW_PROFILE_TDA is complete in this version. */
typedef enum fw_profile_id {
    FW_PROFILE_TDA = 0,
    FW_PROFILE_TDA_2015,
    FW_PROFILE_TPF,
    FW_PROFILE_TDA_OLDER,
    FW_PROFILE_COUNT
} fw_profile_id;

typedef enum fw_event_type {
    FW_EV_TABLE = 0,
    FW_EV_LEVEL,
    FW_EV_SEAT,
    FW_EV_BUTTON,
    FW_EV_AWAY,
    FW_EV_PRESENT,
    FW_EV_PENALTY,
    FW_EV_HAND_START,
    FW_EV_CARD,
    FW_EV_SAY,
    FW_EV_PUSH,
    FW_EV_PULL,
    FW_EV_FOLD,
    FW_EV_SHOW,
    FW_EV_MUCK,
    FW_EV_FLOOR,
    FW_EV_CLOCK,
    FW_EV_TICK,
    FW_EV_COUNT
} fw_event_type;

typedef enum fw_card_to {
    FW_TO_SEAT = 0,
    FW_TO_BURN,
    FW_TO_BOARD,
    FW_TO_DECK,
    FW_TO_MUCK
} fw_card_to;

typedef enum fw_face { FW_FACE_DOWN = 0, FW_FACE_UP } fw_face;

/** Declared words (PROTOCOL `say`). FW_WORD_NONE: an amount alone. */
typedef enum fw_word {
    FW_WORD_NONE = 0,
    FW_WORD_CHECK,
    FW_WORD_CALL,
    FW_WORD_BET,
    FW_WORD_RAISE,
    FW_WORD_FOLD,
    FW_WORD_ALL_IN,
    FW_WORD_POT,
    FW_WORD_COMPLETE,
    FW_WORD_COUNT
} fw_word;

typedef enum fw_ante_type { FW_ANTE_BB = 0, FW_ANTE_EACH } fw_ante_type;

/** Floor decisions (PROTOCOL `floor`). */
typedef enum fw_decision {
    FW_DEC_MISDEAL = 0,
    FW_DEC_CONTINUE,
    FW_DEC_FULL_CALL,
    FW_DEC_FORFEIT_FOLD,
    FW_DEC_DEAD_HAND,
    FW_DEC_COUNT
} fw_decision;

#define FW_MAX_SEATS 10
#define FW_MAX_CHIPS_PER_EVENT 256
#define FW_MAX_CHIP_SET 16
#define FW_MAX_HOLE 5
#define FW_MAX_NAME 48

/**
 * One input event, already validated for shape by the protocol reader.
 * Only the fields of its type are read; zero-initialise the rest.
 * Amounts are int64 in the table's smallest unit and never negative.
 */
typedef struct fw_event {
    fw_event_type type;
    int seat;              /* 1-based; seat, button, away, present, ...  */
    /* table */
    int seats;
    fw_game game;
    fw_profile_id profile;
    int64_t chip_set[FW_MAX_CHIP_SET]; /* chip values in play */
    int nchip_set;
    int raise_cap;         /* limit games: bets+raises per round, 0 = 4 */
    /* level */
    int64_t sb, bb, ante, small_bet, big_bet;
    fw_ante_type ante_type;
    /* seat */
    int has_player;        /* 0: player null, the seat is emptied */
    char player[FW_MAX_NAME];
    int has_stack;
    int64_t stack;
    /* card */
    fw_card_to to;
    fw_face face;
    fw_card card;          /* FW_CARD_NONE when not visible */
    /* say */
    fw_word word;
    int has_amount;
    int64_t amount;
    /* push / pull */
    int64_t chips[FW_MAX_CHIPS_PER_EVENT];
    int nchips;
    /* show */
    fw_card cards[FW_MAX_HOLE];
    int ncards;
    /* floor */
    fw_decision decision;
    /* penalty */
    int hands;
    /* optional time stamp, seconds */
    int has_t;
    double t;
} fw_event;

/* ------------------------------------------------------------------ */
/* Output records                                                       */
/* ------------------------------------------------------------------ */

typedef enum fw_record_type {
    FW_REC_RULING = 0,
    FW_REC_ALERT,
    FW_REC_STATE,
    FW_REC_AWARD,
    FW_REC_HAND_END
} fw_record_type;

typedef enum fw_action {
    FW_ACT_CHECK = 0,
    FW_ACT_CALL,
    FW_ACT_BET,
    FW_ACT_RAISE,
    FW_ACT_ALL_IN,
    FW_ACT_FOLD,
    FW_ACT_FLOOR,
    FW_ACT_COUNT
} fw_action;

typedef enum fw_severity {
    FW_SEV_INFO = 0,
    FW_SEV_WARN,
    FW_SEV_STOP
} fw_severity;

typedef enum fw_street {
    FW_ST_PREDEAL = 0,
    FW_ST_DEAL,
    FW_ST_PREFLOP,
    FW_ST_FLOP,
    FW_ST_TURN,
    FW_ST_RIVER,
    FW_ST_SHOWDOWN,
    FW_ST_COMPLETE
} fw_street;

typedef enum fw_seat_status {
    FW_SEAT_EMPTY = 0,
    FW_SEAT_OUT,       /* seated, not in this hand (busted, or between) */
    FW_SEAT_ACTIVE,
    FW_SEAT_FOLDED,
    FW_SEAT_ALL_IN,
    FW_SEAT_DEAD       /* hand killed (away, penalty, ruling) */
} fw_seat_status;

#define FW_TEXT_MAX 320

typedef struct fw_ruling {
    int seat;
    fw_action action;
    int64_t to;        /* seat's total bet on this street after the action */
    int64_t returned;  /* chips handed back */
    const char *why;   /* short code: "overchip_call", ... ("" if none) */
    const char *rule;  /* rule number in the active rulebook */
    char text[FW_TEXT_MAX];
} fw_ruling;

typedef struct fw_alert {
    const char *kind;  /* "misdeal", "undercall", ... */
    const char *why;   /* condition code or NULL */
    fw_severity severity;
    const char *rule;
    const char *remedy;
    char text[FW_TEXT_MAX];
    int seat;          /* 0 when the alert is not about one seat */
} fw_alert;

#define FW_MAX_POTS (FW_MAX_SEATS + 1)

typedef struct fw_pot_view {
    int64_t amount;
    int nseats;
    int seats[FW_MAX_SEATS]; /* seats eligible to win it */
} fw_pot_view;

typedef struct fw_seat_view {
    int seat;
    int64_t stack;
    int64_t bet;
    fw_seat_status status;
} fw_seat_view;

#define FW_NULL_AMOUNT ((int64_t)-1)

typedef struct fw_state {
    int hand;              /* hand number, 1-based; 0 before the first */
    fw_street street;
    int to_act;            /* seat, or 0 for null */
    int64_t to_call;
    int64_t min_raise_to;  /* FW_NULL_AMOUNT when the seat may not raise */
    int64_t max_raise_to;  /* FW_NULL_AMOUNT likewise */
    int64_t pot;           /* every chip committed this hand */
    int npots;
    fw_pot_view pots[FW_MAX_POTS];
    int nboard;
    fw_card board[5];
    int sa;                /* substantial action has occurred (Rule 36) */
    int button;            /* seat, 0 if none yet */
    int nseats;
    fw_seat_view seats[FW_MAX_SEATS];
} fw_state;

typedef struct fw_award_winner {
    int seat;
    int64_t amount;
    char hand[64];         /* "Two Pair, Kings and Sevens" or "" */
} fw_award_winner;

typedef struct fw_award {
    int pot;               /* 0 = main pot, 1.. side pots */
    int64_t amount;
    int nwinners;
    fw_award_winner winners[FW_MAX_SEATS];
    int odd_chip_seat;     /* seat given the odd chip(s), 0 if none */
    const char *rule;
    char text[FW_TEXT_MAX];
} fw_award;

typedef struct fw_hand_end {
    int hand;
    int nseats;
    int seats[FW_MAX_SEATS];
    int64_t stacks[FW_MAX_SEATS];
} fw_hand_end;

typedef struct fw_record {
    fw_record_type type;
    union {
        fw_ruling ruling;
        fw_alert alert;
        fw_state state;
        fw_award award;
        fw_hand_end hand_end;
    } u;
} fw_record;

/** Called for every output record, in the order they arise. */
typedef void (*fw_emit_fn)(void *ctx, const fw_record *rec);

/* ------------------------------------------------------------------ */
/* Names shared by the protocol reader and writer                       */
/* ------------------------------------------------------------------ */

/**
 * Protocol name of an enum value ("NLHE", "tda", "raise", ...); NULL for a
 * value out of range and for FW_WORD_NONE, which has no name.
 */
const char *fw_game_name(fw_game g);
const char *fw_profile_name(fw_profile_id p);
const char *fw_event_type_name(fw_event_type t);
const char *fw_word_name(fw_word w);
const char *fw_decision_name(fw_decision d);
const char *fw_action_name(fw_action a);
const char *fw_severity_name(fw_severity s);
const char *fw_street_name(fw_street s);
const char *fw_seat_status_name(fw_seat_status s);
const char *fw_card_to_name(fw_card_to t);

/**
 * Look a protocol name up in one of the tables above.
 * \returns the enum value, or -1 if the name is unknown.
 */
int fw_game_from_name(const char *s);
int fw_profile_from_name(const char *s);
int fw_event_type_from_name(const char *s);
int fw_word_from_name(const char *s);
int fw_decision_from_name(const char *s);
int fw_card_to_from_name(const char *s);

/** Hole cards per player in a game (2 for hold'em, 4 PLO, 5 PLO5). */
int fw_game_hole_cards(fw_game g);

/* ------------------------------------------------------------------ */
/* The engine                                                           */
/* ------------------------------------------------------------------ */

typedef struct fw_engine fw_engine;

/**
 * Create an engine with no table. Records go to emit(ctx, rec).
 * \returns FW_OK or FW_ENOMEM.
 */
int fw_engine_new(fw_emit_fn emit, void *ctx, fw_engine **out);

/** Free an engine; accepts NULL. */
void fw_engine_free(fw_engine *e);

/**
 * Apply one input event. Table events that really can happen but break the
 * rules produce alerts, not errors. Events that cannot be applied at all
 * (no table yet, a seat number beyond the table) return FW_EINVAL or
 * FW_ESTATE with a message in *why (static string, may be NULL) and change
 * nothing.
 */
int fw_engine_apply(fw_engine *e, const fw_event *ev, const char **why);

/** Fill *st with the current table state (the `state` record's body). */
void fw_engine_state(const fw_engine *e, fw_state *st);

#endif
