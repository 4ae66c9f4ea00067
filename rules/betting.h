/*
 * betting.h - private to rules/: bet interpretation, TDA Rules 40-57, as pure
 * functions. Given the betting situation of the seat in turn and what it did
 * (a declaration, chips pushed in one motion, or both), say what the action
 * is: call, bet, raise, all-in, check, or an undercall the caller must rule
 * on. No state is kept here; hand.c owns the hand.
 */
#ifndef FW_BETTING_H
#define FW_BETTING_H

#include "profile.h"
#include "rules.h"

#include <stdbool.h>

#define FW_NO_CAP INT64_MAX

typedef struct fw_bet_situation {
    int64_t current_bet;  /* highest total bet on this street */
    int64_t seat_bet;     /* the seat's counted bet on this street */
    int64_t prior_front;  /* prior chips still physically in front */
    bool prior_covers;    /* prior chips, before any pull, cover the call */
    bool partly_pulled;   /* some but not all prior chips pulled back */
    bool had_prior;       /* prior chips were in front, pulled back or not */
    int64_t stack;        /* chips behind the seat can still put in */
    int64_t min_raise;    /* largest full bet or raise of the round */
    int64_t min_bet;      /* smallest opening bet (the big blind) */
    int64_t max_to;       /* pot-limit or limit cap on the total bet */
    bool may_raise;       /* betting is open to this seat */
    fw_rule_id no_raise_rule; /* why not: 47-A, 48 or 55 */
    bool limit;           /* fixed-limit: raises are exactly min_raise */
    int64_t pot;          /* every chip in the pot and in front (Rule 57) */
    bool unclear_lesser;  /* Rule 57 reads the lesser value (older books) */
    bool last_chips_all_in; /* 45-B-2: last chips are all-in */
} fw_bet_situation;

typedef struct fw_bet_reading {
    fw_action action;     /* CHECK CALL BET RAISE ALL_IN, or FLOOR */
    int64_t to;           /* the seat's total bet after the action */
    int64_t returned;     /* chips pushed beyond the action, handed back */
    int64_t owed;         /* chips the seat must still put out */
    bool undercall;       /* less than the call without "call" (51-B) */
    const char *why;      /* short code ("" for a plain action) */
    fw_rule_id rule;
    bool pending;         /* a declaration that waits for chips */
} fw_bet_reading;

/**
 * Read chips pushed in one motion, after an optional declaration `declared`
 * made earlier on the same turn (FW_WORD_NONE: silent; RAISE, BET, COMPLETE,
 * POT in no-limit: "raise" without an amount). chips[] are the new chips'
 * values, n >= 1.
 */
void fw__read_push(const fw_bet_situation *s, fw_word declared,
                   const int64_t *chips, int n, fw_bet_reading *out);

/**
 * Read a verbal declaration (PROTOCOL `say`). A word alone may complete the
 * action (call, check, fold, all-in, pot in pot-limit) or leave it pending
 * until chips arrive (raise or bet without an amount). An amount alone is
 * read as the same chips pushed silently (Rule 40-C), as the total bet.
 */
void fw__read_say(const fw_bet_situation *s, fw_word word, bool has_amount,
                  int64_t amount, fw_bet_reading *out);

#endif
