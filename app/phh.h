/*
 * phh.h - PHH ("Poker Hand History", the TOML format of the uoftcprg PHH
 * standard) hands for the app: read one hand of no-limit hold'em ("NT"),
 * pot-limit Omaha ("PO") or fixed-limit hold'em ("FT"), turn it into the
 * engine's input events (PROTOCOL.md), and replay it through the rules engine
 * to get the finishing stacks. Private to the app module.
 *
 * Ownership: nothing here allocates on the caller's behalf. fw_phh and
 * fw_phh_doc are plain structs the caller owns (both are large, around
 * 130-160 KiB: put them on the heap or in static storage, not on a small
 * stack); they hold no pointers and are safe to copy or zero-initialise.
 * Events handed to an fw_phh_event_fn are borrowed: valid only during the
 * call. Error messages are written into the caller's err buffer (truncated
 * to errsz, always NUL-terminated when errsz > 0) and are also recorded for
 * fw_last_error().
 *
 * Threading: every function is reentrant; distinct structs may be used from
 * distinct threads at once.
 *
 * Reading. fw_phh_parse() reads the TOML document (through phh_toml.cpp, a
 * C++17 shim over toml11 that lets no exception out), checks the fields the
 * variant requires, parses every action string and picks the chip unit.
 * PHH amounts may be integers or decimals (online hands in cents): all
 * amounts of a hand are multiplied by the smallest power of ten `scale`
 * (1, 10, ... 10^6) that makes every one of them an integer, and the engine
 * plays in those units. Finishing stacks are divided back by `scale`.
 *
 * Positions. PHH lists players from the small blind on, the button last.
 * Heads-up the order is the big blind then the button, and the arrays
 * antes and blinds_or_straddles are indexed by role (index 0 the small blind,
 * index 1 the big blind) in both cases. Player i (1-based) sits in seat i of
 * a table of as many seats as players, and the button is placed on the last
 * seat: the engine's own blind assignment (small blind left of the button,
 * big blind next; heads-up the button posts the small blind, TDA Rule 34-B)
 * then matches the file. The optional `seats` and `seat_count` fields are
 * read and kept but do not move anyone.
 */
#ifndef FW_PHH_H
#define FW_PHH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rules.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Players a hand may have (PHH arrays are as long as this at most). */
#define FW_PHH_MAX_PLAYERS FW_MAX_SEATS
/** Action strings a hand may have, no-ops (blank, comment-only) included. */
#define FW_PHH_MAX_ACTIONS 512
/** Bytes of one action string, NUL included: longer strings are ERANGE. */
#define FW_PHH_ACTION_MAX 256
/** Bytes of a variant code, NUL included. */
#define FW_PHH_VARIANT_MAX 16
/** Bytes of a document fw_phh_parse() accepts. */
#define FW_PHH_TEXT_MAX (1u << 20)
/**
 * Amounts are read exactly to 6 decimal places ("micro-units") and must not
 * exceed this many whole units; anything finer or larger is ERANGE.
 */
#define FW_PHH_MAX_UNITS INT64_C(1000000000000)
/** Micro-units per unit of the file's currency. */
#define FW_PHH_MICRO INT64_C(1000000)
/** An error buffer of this size holds any message of this module. */
#define FW_PHH_ERR_MAX 512

/* ------------------------------------------------------------------ */
/* The raw TOML fields (phh_toml.cpp)                                   */
/* ------------------------------------------------------------------ */

/**
 * The fields of one PHH document as TOML gives them, before any PHH rule is
 * applied. Amounts are in micro-units (value x 10^6, exact for decimals of
 * at most 6 places). Arrays are at most FW_PHH_MAX_PLAYERS long; has_* is 0
 * when the key is absent. Unknown keys are ignored.
 */
typedef struct fw_phh_doc {
    char variant[FW_PHH_VARIANT_MAX];
    int has_variant;
    int64_t antes[FW_PHH_MAX_PLAYERS];
    int nantes, has_antes;
    int64_t blinds[FW_PHH_MAX_PLAYERS]; /* blinds_or_straddles */
    int nblinds, has_blinds;
    int64_t min_bet, small_bet, big_bet, bring_in;
    int has_min_bet, has_small_bet, has_big_bet, has_bring_in;
    int64_t starting_stacks[FW_PHH_MAX_PLAYERS];
    int nstarting, has_starting;
    int64_t finishing_stacks[FW_PHH_MAX_PLAYERS];
    int nfinishing, has_finishing;
    int seats[FW_PHH_MAX_PLAYERS];
    int nseats, has_seats;
    int seat_count, has_seat_count;
    /* Names cut at FW_MAX_NAME - 1 bytes on a UTF-8 character boundary. */
    char players[FW_PHH_MAX_PLAYERS][FW_MAX_NAME];
    int nplayers, has_players;
    char actions[FW_PHH_MAX_ACTIONS][FW_PHH_ACTION_MAX];
    int nactions, has_actions;
} fw_phh_doc;

/**
 * Read a TOML document into *out (zeroed first). Implemented in C++
 * (phh_toml.cpp); no exception crosses into the caller.
 *
 * \param text  the document, len bytes, need not be NUL-terminated; any byte
 *              sequence is safe to pass.
 * \returns FW_OK; FW_EPARSE for malformed TOML or a key of the wrong type
 *          (the message names the key and, where toml11 gives it, the line);
 *          FW_ERANGE for an array longer than FW_PHH_MAX_PLAYERS, more than
 *          FW_PHH_MAX_ACTIONS actions, an action of FW_PHH_ACTION_MAX bytes
 *          or more, an amount negative, infinite, not a number, finer than a
 *          micro-unit or above FW_PHH_MAX_UNITS, or a document larger than
 *          FW_PHH_TEXT_MAX; FW_ENOMEM.
 */
int fw_phh_toml_read(const char *text, size_t len, fw_phh_doc *out, char *err,
                     size_t errsz);

/* ------------------------------------------------------------------ */
/* A parsed hand                                                        */
/* ------------------------------------------------------------------ */

typedef enum fw_phh_act {
    FW_PHH_DEAL_HOLE = 0, /* d dh pN CARDS */
    FW_PHH_DEAL_BOARD,    /* d db CARDS */
    FW_PHH_FOLD,          /* pN f */
    FW_PHH_CHECK_CALL,    /* pN cc */
    FW_PHH_BET_RAISE,     /* pN cbr AMOUNT (the total bet, "raise to") */
    FW_PHH_SHOW,          /* pN sm CARDS, or pN sm - (the dealt cards) */
    FW_PHH_MUCK           /* pN sm */
} fw_phh_act;

/** The most cards one action names (a PLO hand, a flop). */
#define FW_PHH_ACTION_CARDS 5

/** One action; blank and comment-only strings are dropped. */
typedef struct fw_phh_action {
    fw_phh_act act;
    int player; /* 1-based; 0 for the dealer */
    int ncards; /* cards named (0 for "sm -": see dash) */
    fw_card cards[FW_PHH_ACTION_CARDS]; /* FW_CARD_NONE for "??" */
    int dash;       /* "sm -": show the cards dealt earlier */
    int64_t amount; /* cbr: total bet in engine units (x scale) */
    int index;      /* 0-based position in the file's actions array */
} fw_phh_action;

typedef struct fw_phh {
    char variant[FW_PHH_VARIANT_MAX]; /* "NT", "PO" or "FT" */
    fw_game game; /* FW_GAME_NLHE, FW_GAME_PLO or FW_GAME_FLHE */
    int nplayers; /* 2..FW_PHH_MAX_PLAYERS */
    /*
     * Engine units per unit of the file: every amount below is the file's
     * amount times scale (a power of ten, 1..10^6).
     */
    int64_t scale;
    int64_t antes[FW_PHH_MAX_PLAYERS];  /* by role, as in the file */
    int64_t blinds[FW_PHH_MAX_PLAYERS]; /* by role, as in the file */
    int64_t min_bet;                    /* NT, PO; 0 for FT */
    int64_t small_bet, big_bet;         /* FT; 0 otherwise */
    int64_t starting_stacks[FW_PHH_MAX_PLAYERS];
    int has_finishing;
    int64_t finishing_stacks[FW_PHH_MAX_PLAYERS];
    int has_seats;
    int seats[FW_PHH_MAX_PLAYERS];
    int seat_count; /* 0 when absent */
    int has_players;
    char players[FW_PHH_MAX_PLAYERS][FW_MAX_NAME];
    int nactions;
    fw_phh_action actions[FW_PHH_MAX_ACTIONS];
    /* the file's action strings, for messages */
    char text[FW_PHH_MAX_ACTIONS][FW_PHH_ACTION_MAX];
} fw_phh;

/**
 * Parse a PHH document (one hand: a .phh file, not a .phhs collection).
 *
 * Requires variant, antes, blinds_or_straddles, starting_stacks, actions,
 * and min_bet (NT, PO) or small_bet and big_bet (FT); reads
 * finishing_stacks, players, seats and seat_count where present; ignores
 * every other key. Action grammar (PHH spec): `d dh pN CARDS`, `d db CARDS`,
 * `pN f`, `pN cc`, `pN cbr AMOUNT`, `pN sm [CARDS|-]`, each optionally
 * followed by `# commentary`; blank and comment-only strings are no-ops.
 * Cards are two characters each, concatenated, "??" for an unknown card.
 *
 * \returns FW_OK; FW_EPARSE (bad TOML, missing key, malformed action);
 *          FW_EUNSUPPORTED (another variant such as "F7S" or "NS", a
 *          stud or draw action `pb`/`sd`, a stack of `inf`); FW_ERANGE (the
 *          limits above, fewer than 2 players, arrays of the wrong length,
 *          a player index beyond the players); FW_ENOMEM. *out is
 *          unspecified after an error.
 */
int fw_phh_parse(const char *text, size_t len, fw_phh *out, char *err,
                 size_t errsz);

/* ------------------------------------------------------------------ */
/* Events and replay                                                    */
/* ------------------------------------------------------------------ */

/**
 * Receives one event; returns FW_OK to go on or a negative FW_E* code to
 * stop (then fw_phh_events() returns that code, its message naming the
 * action and carrying fw_last_error() as the callback left it).
 */
typedef int (*fw_phh_event_fn)(void *ctx, const fw_event *ev);

/**
 * Turn a parsed hand into the engine's input events, in order:
 *
 * - `table` (seats = players, game, rules tda), `level` (sb, bb from the
 *   blinds; small_bet, big_bet for FT; ante with ante_type `each` when every
 *   player antes the same, `bb` when only the big blind antes), one `seat`
 *   per player (seat i, the player's name or "pI", the starting stack),
 *   `button` on the last seat, `hand_start`.
 * - The opening `d dh` actions as one face-down `card` per hole card,
 *   dealt one at a time round the table from seat 1 (left of the button),
 *   the card's value given where the file knows it. Files that deal a
 *   player's cards in several `d dh` actions are gathered first.
 * - `d db` as a `card` to burn (face down, unknown) and one face-up `card`
 *   to the board per card.
 * - `f` as `fold`; `cc` as `say check` or `say call` (whichever the bets
 *   so far make it); `cbr X` as `say bet X` when nothing is bet on the
 *   street and `say raise X` otherwise, X the total bet; `sm CARDS` (or
 *   `sm -`) as `show`; `sm` alone as `muck`.
 *
 * Errors found here, rather than by the engine: straddles or other forced
 * bets beyond the two blinds, ante shapes other than the two above, a
 * min_bet other than the big blind (all FW_EUNSUPPORTED); a hole card deal
 * that is not complete or comes after the betting began, an unknown board
 * card, a bet beyond a stack, a shown card that contradicts the deal
 * (FW_EPARSE).
 *
 * \returns FW_OK, or the first error (the callback's or the above).
 */
int fw_phh_events(const fw_phh *h, fw_phh_event_fn cb, void *ctx, char *err,
                  size_t errsz);

/**
 * Replay the hand through a fresh rules engine and report the stacks the
 * engine ends the hand with, in the file's units x scale (divide by
 * h->scale for the file's own units), player order.
 *
 * If the actions end at showdown without every remaining player having
 * shown or mucked, those players show the cards they were dealt (muck if
 * unknown), the river's last aggressor first, else from seat 1 clockwise
 * (TDA Rule 17-A), as PHH tools do when they automate showdowns.
 *
 * \param finishing  FW_PHH_MAX_PLAYERS slots; *n is set to h->nplayers.
 * \returns FW_OK; the error of fw_phh_events(); FW_ESTATE when the engine
 *          refuses an event (the message names the action and the engine's
 *          reason) or the hand has not ended after the last action.
 */
int fw_phh_replay(const fw_phh *h, int64_t *finishing, int *n, char *err,
                  size_t errsz);

/**
 * Write an amount in engine units as the file's units: `v / scale` with the
 * decimals scale needs, trailing zeros dropped ("1937923.75", "0", "600").
 * \returns FW_OK, or FW_ERANGE when it does not fit in size bytes.
 */
int fw_phh_format_amount(int64_t v, int64_t scale, char *buf, size_t size);

/**
 * `feltwatch phh FILE`: read FILE ("-" for stdin), replay it and write
 * {"finishing_stacks":[...]} and a newline to out. Errors go to errout as
 * one line "feltwatch: phh: FILE: message".
 * \returns the process exit status: 0 on success, 1 on any error.
 */
int fw_phh_main(const char *path, FILE *out, FILE *errout);

#ifdef __cplusplus
}
#endif

#endif
