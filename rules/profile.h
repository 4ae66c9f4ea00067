/*
 * profile.h - private to rules/: a rulebook as data. Every rule the engine
 * applies has an id; a profile maps the id to the rule's number in that
 * rulebook and the words a dealer needs (what the rule says, what to do).
 */
#ifndef FW_PROFILE_H
#define FW_PROFILE_H

#include "rules.h"

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
    X(STACK, "25")

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

typedef struct fw_profile {
    fw_profile_id id;
    const char *name;
    fw_rule_ref rules[FW_R_COUNT];
} fw_profile;

/** The profile for an id (profiles not written yet fall back to tda). */
const fw_profile *fw__profile(fw_profile_id id);

#endif
