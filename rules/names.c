/*
 * names.c - the protocol names of the engine's enums (PROTOCOL.md).
 *
 * The names are a fixed contract with tools outside the project: never rename
 * one. Each table is indexed by the enum value, so a table and its enum must
 * list the same values in the same order; the static asserts below catch a
 * value added to one and not the other.
 *
 * A name function returns NULL for a value outside its enum, and
 * fw_word_name() returns NULL for FW_WORD_NONE, which has no name (a `say`
 * without a `word`). A lookup function returns -1 for NULL or an unknown
 * name; lookups are exact and case-sensitive. fw_game_hole_cards() returns 0
 * for a value outside fw_game.
 */
#include "rules.h"

#include <string.h>

#define FW_COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static const char *const game_names[] = {"NLHE", "PLO", "PLO5", "FLHE", "NLSD"};
static const int game_hole_cards[] = {2, 4, 5, 2, 2};

static const char *const profile_names[] = {"tda", "tda-2015", "tpf",
                                            "tda-older"};

static const char *const event_type_names[] = {
    "table",   "level",      "seat", "button", "away",  "present",
    "penalty", "hand_start", "card", "say",    "push",  "pull",
    "fold",    "show",       "muck", "floor",  "clock", "tick"};

/* Index 0 is FW_WORD_NONE, which has no name. */
static const char *const word_names[] = {
    NULL, "check", "call", "bet", "raise", "fold", "all-in", "pot", "complete"};

static const char *const decision_names[] = {"misdeal", "continue", "full_call",
                                             "forfeit_fold", "dead_hand"};

static const char *const action_names[] = {"check",  "call", "bet",  "raise",
                                           "all-in", "fold", "floor"};

static const char *const severity_names[] = {"info", "warn", "stop"};

static const char *const street_names[] = {"predeal",  "deal",    "preflop",
                                           "flop",     "turn",    "river",
                                           "showdown", "complete"};

static const char *const seat_status_names[] = {"empty",  "out",    "active",
                                                "folded", "all_in", "dead"};

static const char *const card_to_names[] = {"seat", "burn", "board", "deck",
                                            "muck"};

_Static_assert(FW_COUNT_OF(game_names) == FW_GAME_COUNT, "game names");
_Static_assert(FW_COUNT_OF(game_hole_cards) == FW_GAME_COUNT, "hole cards");
_Static_assert(FW_COUNT_OF(profile_names) == FW_PROFILE_COUNT, "profile names");
_Static_assert(FW_COUNT_OF(event_type_names) == FW_EV_COUNT,
               "event type names");
_Static_assert(FW_COUNT_OF(word_names) == FW_WORD_COUNT, "word names");
_Static_assert(FW_COUNT_OF(decision_names) == FW_DEC_COUNT, "decision names");
_Static_assert(FW_COUNT_OF(action_names) == FW_ACT_COUNT, "action names");
_Static_assert(FW_COUNT_OF(severity_names) == FW_SEV_STOP + 1,
               "severity names");
_Static_assert(FW_COUNT_OF(street_names) == FW_ST_COMPLETE + 1, "street names");
_Static_assert(FW_COUNT_OF(seat_status_names) == FW_SEAT_DEAD + 1,
               "seat status names");
_Static_assert(FW_COUNT_OF(card_to_names) == FW_TO_MUCK + 1,
               "card destination names");

/*
 * The name at index v of a table of n names, or NULL when v is outside the
 * table. Enum values arrive as int so that a negative value from a bad cast
 * is caught too.
 */
static const char *name_at(const char *const *names, size_t n, int v)
{
    if (v < 0 || (size_t)v >= n)
        return NULL;
    return names[v];
}

/*
 * The index of s in a table of n names, or -1 when s is NULL or not in the
 * table. NULL entries (FW_WORD_NONE) never match.
 */
static int index_of(const char *const *names, size_t n, const char *s)
{
    if (!s)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (names[i] && strcmp(names[i], s) == 0)
            return (int)i;
    }
    return -1;
}

#define FW_NAME_FN(fn, type, table)                                            \
    const char *fn(type v)                                                     \
    {                                                                          \
        return name_at(table, FW_COUNT_OF(table), (int)v);                     \
    }

#define FW_LOOKUP_FN(fn, table)                                                \
    int fn(const char *s)                                                      \
    {                                                                          \
        return index_of(table, FW_COUNT_OF(table), s);                         \
    }

FW_NAME_FN(fw_game_name, fw_game, game_names)
FW_NAME_FN(fw_profile_name, fw_profile_id, profile_names)
FW_NAME_FN(fw_event_type_name, fw_event_type, event_type_names)
FW_NAME_FN(fw_word_name, fw_word, word_names)
FW_NAME_FN(fw_decision_name, fw_decision, decision_names)
FW_NAME_FN(fw_action_name, fw_action, action_names)
FW_NAME_FN(fw_severity_name, fw_severity, severity_names)
FW_NAME_FN(fw_street_name, fw_street, street_names)
FW_NAME_FN(fw_seat_status_name, fw_seat_status, seat_status_names)
FW_NAME_FN(fw_card_to_name, fw_card_to, card_to_names)

FW_LOOKUP_FN(fw_game_from_name, game_names)
FW_LOOKUP_FN(fw_profile_from_name, profile_names)
FW_LOOKUP_FN(fw_event_type_from_name, event_type_names)
FW_LOOKUP_FN(fw_word_from_name, word_names)
FW_LOOKUP_FN(fw_decision_from_name, decision_names)
FW_LOOKUP_FN(fw_card_to_from_name, card_to_names)

int fw_game_hole_cards(fw_game g)
{
    if ((int)g < 0 || (int)g >= FW_GAME_COUNT)
        return 0;
    return game_hole_cards[g];
}
