/*
 * profile.h - private to rules/: a rulebook as data. Every rule the engine
 * applies has an id; a profile maps the id to the rule's number in that
 * rulebook and the words a dealer needs (what the rule says, what to do).
 */
#ifndef FW_PROFILE_H
#define FW_PROFILE_H

#include "rules.h"

#include <stdbool.h>

#define FW_RULE_IDS(X)                                                       \
    X(AWARD, "12")                                                           \
    X(FACE_UP_ALL_IN, "16")                                                  \
    X(SHOWDOWN_ORDER, "17-A")                                                \
    X(UNCONTESTED, "17-B")                                                   \
    X(PAID_TO_SEE, "18-B")                                                   \
    X(PLAY_THE_BOARD, "19")                                                  \
    X(ODD_CHIPS, "20")                                                       \
    X(SIDE_POTS, "21")                                                       \
    X(NEW_LEVEL, "23")                                                       \
    X(DEAD_BUTTON, "32")                                                     \
    X(HEADS_UP, "34-B")                                                      \
    X(SA, "36")                                                              \
    X(VERBAL_CHIPS, "40-A")                                                  \
    X(AMOUNT_ONLY, "40-C")                                                   \
    X(CALLING, "41")                                                         \
    X(RAISE_AMOUNT, "43-A")                                                  \
    X(RAISE_TOTAL, "43-B")                                                   \
    X(OVERCHIP, "44")                                                        \
    X(MULTI_CALL, "45-A")                                                    \
    X(MULTI_RAISE, "45-B")                                                   \
    X(PRIOR_PULL, "46-B")                                                    \
    X(PRIOR_CHIPS, "46-C")                                                   \
    X(REOPEN, "47-A")                                                        \
    X(REOPEN_LIMIT, "47-B")                                                  \
    X(RAISE_CAP, "48")                                                       \
    X(IN_TURN, "50-A")                                                       \
    X(BINDING, "51-A")                                                       \
    X(UNDERCALL, "51-B")                                                     \
    X(UNDERBET, "52-A")                                                      \
    X(PL_UNDERBET, "52-B")                                                   \
    X(OOT, "53-A")                                                           \
    X(OOT_SA, "53-B")                                                        \
    X(PL_BLINDS, "54-B")                                                     \
    X(PL_POT, "54-C")                                                        \
    X(BET_POT_NL, "54-D")                                                    \
    X(INVALID_DECL, "55")                                                    \
    X(STRING_BET, "56")                                                      \
    X(UNCLEAR, "57")                                                         \
    X(FOLD_NO_BET, "58")                                                     \
    X(STACK, "25")                                                           \
    X(RABBIT_HUNT, "28")                                                     \
    X(CLOCK, "29")                                                           \
    X(AT_SEAT, "30")                                                         \
    X(BUTTON_MOVE, "34-A")                                                   \
    X(MISDEAL, "35-A")                                                       \
    X(BUTTON_TWO_CARDS, "35-B")                                              \
    X(REDEAL, "35-C")                                                        \
    X(AFTER_SA, "35-D")                                                      \
    X(FOULED_DECK, "35-E")                                                   \
    X(BUTTON_TOO_FEW, "37")                                                  \
    X(BURN, "38")                                                            \
    X(FOUR_CARD_FLOP, "39-A")                                                \
    X(NO_BURN_FLOP, "39-B")                                                  \
    X(PREMATURE, "RP-5-A")                                                   \
    X(PREMATURE_TURN, "RP-5-B")                                              \
    X(PREMATURE_RIVER, "RP-5-C")                                             \
    X(BOXED_CARD, "35-A")                                                    \
    X(EXPOSED_PENDING, "68")                                                 \
    X(PENALTY, "71-C")                                                       \
    X(MISSED_BLINDS, "-")                                                    \
    X(ONE_BB_PER_ROUND, "-")                                                 \
    X(SHOT_CLOCK, "-")                                                       \
    X(ALL_IN_DECL, "-")                                                      \
    X(TWO_MOTION_RAISE, "42")

typedef enum fw_rule_id {
#define FW__RULE_ENUM(id, num) FW_R_##id,
    FW_RULE_IDS(FW__RULE_ENUM)
#undef FW__RULE_ENUM
        FW_R_COUNT
} fw_rule_id;

typedef struct fw_rule_ref {
    const char *number; /* "45-B" in this rulebook */
    const char *text;   /* what the rule says, in a dealer's words */
    const char *remedy; /* what to do, step by step ("" when nothing) */
} fw_rule_ref;

/*
 * A rulebook. Rule numbers and texts are per book; where books differ in
 * procedure, not only in wording, a field below says what this book does,
 * and the engine follows it.
 */
typedef struct fw_profile {
    fw_profile_id id;
    const char *name;     /* protocol name: "tda", "tpf", ... */
    const char *book;     /* the rulebook it follows */
    const char *coverage; /* what the book covers and what falls back */
    fw_rule_ref rules[FW_R_COUNT];

    /* Clock (TDA 29, TPF 29/65): seconds before the countdown starts and
     * the countdown itself; the hand is dead (facing a bet) or checked
     * when both have passed. */
    int clock_seconds, countdown_seconds;
    /* Premature turn or river card: whether the re-dealt card comes with a
     * new burn (TPF RP2) or without one (TDA RP-5). */
    bool premature_turn_reburn, premature_river_reburn;
    /* A single boxed card on the deal: reported (TDA) or handled by its
     * own procedure (TPF RP11). Two or more: a misdeal (TDA 35-A-1) or the
     * floor's decision (TPF RP11). */
    bool single_boxed_procedure, multi_boxed_floor_decides;
    /* TPF 37: a player back from absence posts missed blinds before
     * receiving cards; TPF 33: nobody posts more than one big blind in a
     * rotation. TDA deals absent players in and posts their blinds. */
    bool missed_blinds, one_bb_per_rotation;
    /* TDA (older) 40-C: "raise", then the call amount, then one more
     * motion is still a legal raise. */
    bool two_motion_raise;
    /* TPF 63: all-in must be declared or the whole stack moved in one
     * motion; an ambiguous all-in goes to the floor. */
    bool all_in_must_be_declared;
    /* TDA 2015 27: time out on the clock kills the hand even when the
     * player faces no bet (current TDA 29: checked). */
    bool clock_kills_unfaced;
    /* TDA 2015 52: an unclear amount is the lesser reasonable value
     * (current TDA 57: the highest reasonable, not above the pot). */
    bool unclear_amount_lesser;
    /* No "last chips are all-in" exception to the 50% standard (current
     * TDA 45-B-2 has one; TDA 2015 45 and TPF 47 do not). */
    bool no_last_chips_exception;
    /* A player away for the original deal is killed in the re-deal too
     * (TDA 2015 34-C, TPF 38); current TDA 35-C lets the player play it. */
    bool redeal_kills_absent;
} fw_profile;

/** The profile for an id (profiles not written yet fall back to tda). */
const fw_profile *fw__profile(fw_profile_id id);

#endif
