/*
 * profile.c - the rulebooks as data. The current Poker TDA rules (profile
 * "tda") are complete; the other profiles fall back to them until their own
 * tables are written, and say so.
 */
#include "profile.h"

static const fw_profile tda = {
    .id = FW_PROFILE_TDA,
    .name = "tda",
    .book = "Poker TDA Rules (current) with the Illustration Addendum",
    .coverage = "complete",
    .clock_seconds = 25,
    .countdown_seconds = 5,
    .rules = {
        [FW_R_AWARD] = {"12", "Cards speak: the dealer reads and announces "
                              "the winning hand.", ""},
        [FW_R_FACE_UP_ALL_IN] =
            {"16", "A player is all-in and betting is over: all hands are "
                   "tabled now, before the rest of the board.",
             "Turn all live hands face up now. Then burn and deal the "
             "remaining board. Award side pots first, then the main pot."},
        [FW_R_SHOWDOWN_ORDER] =
            {"17-A", "Non all-in showdown: the last aggressor on the final "
                     "round tables first; with no bet, the first seat left "
                     "of the button.",
             ""},
        [FW_R_UNCONTESTED] = {"17-B", "All others folded or mucked: the last "
                                      "live hand wins without tabling.",
                              ""},
        [FW_R_PAID_TO_SEE] =
            {"18-B", "After a river bet, a caller who retains or tabled cards "
                     "may ask to see the last aggressor's hand.",
             ""},
        [FW_R_PLAY_THE_BOARD] = {"19", "To play the board, table all hole "
                                       "cards to get part of the pot.",
                                 "Ask the player to table every hole card."},
        [FW_R_ODD_CHIPS] = {"20", "Odd chips are broken to the smallest chip "
                                  "in play; the odd chip goes to the first "
                                  "winner left of the button.",
                            ""},
        [FW_R_SIDE_POTS] = {"21", "Each side pot is split separately.", ""},
        [FW_R_NEW_LEVEL] = {"23", "A new level applies to the next hand.",
                            ""},
        [FW_R_DEAD_BUTTON] = {"32", "Dead button: the big blind moves one "
                                    "seat; the button and small blind follow.",
                              ""},
        [FW_R_HEADS_UP] = {"34-B", "Heads-up: the small blind is the button, "
                                   "acts first pre-flop and last after.",
                           ""},
        [FW_R_SA] = {"36", "Substantial action: two actions in turn with "
                           "chips, or three actions in turn.",
                     ""},
        [FW_R_VERBAL_CHIPS] =
            {"40-A", "Verbal and chips: whichever comes first defines the "
                     "bet; contradictions go to the floor.",
             "Call the floor to rule on the bet."},
        [FW_R_AMOUNT_ONLY] = {"40-C", "Declaring an amount only is the same "
                                      "as silently pushing that amount.",
                              ""},
        [FW_R_CALLING] = {"41", "Saying call, pushing the call amount, one "
                                "overchip, or multiple chips under Rule 45 "
                                "is a call.",
                          ""},
        [FW_R_RAISE_AMOUNT] =
            {"43-A", "A raise is at least the largest prior full bet or raise "
                     "this round; 50% or more of it must be made a full "
                     "raise, less is a call.",
             ""},
        [FW_R_RAISE_TOTAL] = {"43-B", "Raise and an amount: the amount is the "
                                      "total bet.",
                              ""},
        [FW_R_OVERCHIP] = {"44", "One oversized chip is a call unless raise "
                                 "is declared first; not facing a bet it is "
                                 "a bet of the chip.",
                           ""},
        [FW_R_MULTI_CALL] = {"45-A", "Multiple chips, every chip needed to "
                                     "call: it is a call.",
                             ""},
        [FW_R_MULTI_RAISE] =
            {"45-B", "Multiple chips, not every chip needed to call: the 50% "
                     "standard decides; last chips are all-in.",
             ""},
        [FW_R_PRIOR_PULL] = {"46-B", "Pulling back a prior bet facing a raise "
                                     "binds the player to call or raise.",
                             ""},
        [FW_R_PRIOR_CHIPS] =
            {"46-C", "Chips added to a prior bet not pulled in are read with "
                     "the call and raise rules 41-45.",
             ""},
        [FW_R_REOPEN] = {"47-A", "A short all-in does not re-open the betting "
                                 "for players who already acted.",
                         ""},
        [FW_R_REOPEN_LIMIT] = {"47-B", "Limit: at least 50% of a full bet "
                                       "re-opens the betting.",
                               ""},
        [FW_R_RAISE_CAP] = {"48", "Limit: the house caps the number of "
                                  "raises.",
                            ""},
        [FW_R_IN_TURN] = {"50-A", "Action in turn is binding.", ""},
        [FW_R_BINDING] = {"51-A", "A verbal declaration in turn commits the "
                                  "player to the full action.",
                          ""},
        [FW_R_UNDERCALL] =
            {"51-B", "Undercall: a full call is required heads-up or facing "
                     "the opening bet; otherwise the floor decides.",
             "Call the floor: full call, or forfeit the undercall and fold."},
        [FW_R_UNDERBET] = {"52-A", "A bet or raise below the minimum is "
                                   "corrected on the current street.",
                           "The player adds chips up to the minimum."},
        [FW_R_PL_UNDERBET] =
            {"52-B", "Pot limit: a bet above the pot is reduced; a pot bet "
                     "below the pot is raised to it.",
             ""},
        [FW_R_OOT] =
            {"53-A", "Action out of turn backs up to the correct player; it "
                     "binds if the action to that player does not change.",
             "Back the action up to the player whose turn it is. Leave the "
             "out-of-turn chips in front of that player."},
        [FW_R_OOT_SA] =
            {"53-B", "Substantial action out of turn after a skipped player: "
                     "the out-of-turn action is binding; the floor rules on "
                     "the skipped hand.",
             "Call the floor to rule on the skipped player's hand."},
        [FW_R_PL_BLINDS] = {"54-B", "Pre-flop pot-limit bets assume full "
                                    "blinds were posted.",
                            ""},
        [FW_R_PL_POT] = {"54-C", "Pot limit: a raise is at most the pot "
                                 "after calling.",
                         ""},
        [FW_R_BET_POT_NL] =
            {"54-D", "\"I bet the pot\" is not a valid bet in no-limit; the "
                     "player must make a valid bet.",
             "Ask the player for an amount; at least a minimum bet."},
        [FW_R_INVALID_DECL] =
            {"55", "Call with no bet is a check; raise with no bet must be "
                   "at least a minimum bet; check facing a bet may call or "
                   "fold, not raise.",
             ""},
        [FW_R_STRING_BET] = {"56", "String bets are not allowed: the chips "
                                   "of the second motion are returned.",
                             "Return the chips of the second motion."},
        [FW_R_UNCLEAR] =
            {"57", "An unclear amount is the highest reasonable amount not "
                   "above the pot.",
             ""},
        [FW_R_FOLD_NO_BET] = {"58", "Folding with no bet to you is binding.",
                              ""},
        [FW_R_STACK] = {"25", "Chips must be countable: the seen chips do "
                              "not match the seat's stack.",
                        "Count the player's stack and correct it."},
    },
};

const fw_profile *fw__profile(fw_profile_id id)
{
    (void)id; /* only tda is written; every other profile uses it for now */
    return &tda;
}
