/*
 * profile.c - the rulebooks as data: for every rule id, its number in the
 * book, what it says in a dealer's words and what to do; and, per book,
 * the procedures that differ. "tda" is the current Poker TDA book; the
 * others are written from the books in ../shared/rulebooks/ (tda-2015.txt,
 * tpf-2026.txt, tda-older-page6.txt). A rule a book does not have gets the
 * number "" and a text saying so. docs/rulebooks.md is generated from this
 * file by tools/profile_doc.
 */
#include "profile.h"

/*
 * The current TDA rules, as a macro and not only a table: tda-older starts
 * from the same initialisers and replaces what its one page covers.
 */
#define FW__TDA_RULES                                                        \
    [FW_R_AWARD] = {"12", "Cards speak: the dealer reads and announces "     \
                          "the winning hand.", ""},                          \
    [FW_R_FACE_UP_ALL_IN] =                                                  \
        {"16", "A player is all-in and betting is over: all hands are "      \
               "tabled now, before the rest of the board.",                  \
         "Turn all live hands face up now. Then burn and deal the "          \
         "remaining board. Award side pots first, then the main pot."},      \
    [FW_R_SHOWDOWN_ORDER] =                                                  \
        {"17-A", "Non all-in showdown: the last aggressor on the final "     \
                 "round tables first; with no bet, the first seat left "     \
                 "of the button.",                                           \
         ""},                                                                \
    [FW_R_UNCONTESTED] = {"17-B", "All others folded or mucked: the last "   \
                                  "live hand wins without tabling.",         \
                          ""},                                               \
    [FW_R_PAID_TO_SEE] =                                                     \
        {"18-B", "After a river bet, a caller who retains or tabled cards "  \
                 "may ask to see the last aggressor's hand.",                \
         ""},                                                                \
    [FW_R_PLAY_THE_BOARD] = {"19", "To play the board, table all hole "      \
                                   "cards to get part of the pot.",          \
                             "Ask the player to table every hole card."},    \
    [FW_R_ODD_CHIPS] = {"20", "Odd chips are broken to the smallest chip "   \
                              "in play; the odd chip goes to the first "     \
                              "winner left of the button.",                  \
                        ""},                                                 \
    [FW_R_SIDE_POTS] = {"21", "Each side pot is split separately.", ""},     \
    [FW_R_NEW_LEVEL] = {"23", "A new level applies to the next hand.", ""},  \
    [FW_R_DEAD_BUTTON] = {"32", "Dead button: the big blind moves one "      \
                                "seat; the button and small blind follow.",  \
                          ""},                                               \
    [FW_R_HEADS_UP] = {"34-B", "Heads-up: the small blind is the button, "   \
                               "acts first pre-flop and last after.",        \
                       ""},                                                  \
    [FW_R_SA] = {"36", "Substantial action: two actions in turn with "       \
                       "chips, or three actions in turn.",                   \
                 ""},                                                        \
    [FW_R_VERBAL_CHIPS] =                                                    \
        {"40-A", "Verbal and chips: whichever comes first defines the "      \
                 "bet; contradictions go to the floor.",                     \
         "Call the floor to rule on the bet."},                              \
    [FW_R_AMOUNT_ONLY] = {"40-C", "Declaring an amount only is the same "    \
                                  "as silently pushing that amount.",        \
                          ""},                                               \
    [FW_R_CALLING] = {"41", "Saying call, pushing the call amount, one "     \
                            "overchip, or multiple chips under Rule 45 "     \
                            "is a call.",                                    \
                      ""},                                                   \
    [FW_R_RAISE_AMOUNT] =                                                    \
        {"43-A", "A raise is at least the largest prior full bet or raise "  \
                 "this round; 50% or more of it must be made a full "        \
                 "raise, less is a call.",                                   \
         ""},                                                                \
    [FW_R_RAISE_TOTAL] = {"43-B", "Raise and an amount: the amount is the "  \
                                  "total bet.",                              \
                          ""},                                               \
    [FW_R_OVERCHIP] = {"44", "One oversized chip is a call unless raise "    \
                             "is declared first; not facing a bet it is "    \
                             "a bet of the chip.",                           \
                       ""},                                                  \
    [FW_R_MULTI_CALL] = {"45-A", "Multiple chips, every chip needed to "     \
                                 "call: it is a call.",                      \
                         ""},                                                \
    [FW_R_MULTI_RAISE] =                                                     \
        {"45-B", "Multiple chips, not every chip needed to call: the 50% "   \
                 "standard decides; last chips are all-in.",                 \
         ""},                                                                \
    [FW_R_PRIOR_PULL] = {"46-B", "Pulling back a prior bet facing a raise "  \
                                 "binds the player to call or raise.",       \
                         ""},                                                \
    [FW_R_PRIOR_CHIPS] =                                                     \
        {"46-C", "Chips added to a prior bet not pulled in are read with "   \
                 "the call and raise rules 41-45.",                          \
         ""},                                                                \
    [FW_R_REOPEN] = {"47-A", "A short all-in does not re-open the betting "  \
                             "for players who already acted.",               \
                     ""},                                                    \
    [FW_R_REOPEN_LIMIT] = {"47-B", "Limit: at least 50% of a full bet "      \
                                   "re-opens the betting.",                  \
                           ""},                                              \
    [FW_R_RAISE_CAP] = {"48", "Limit: the house caps the number of "         \
                              "raises.",                                     \
                        ""},                                                 \
    [FW_R_IN_TURN] = {"50-A", "Action in turn is binding.", ""},             \
    [FW_R_BINDING] = {"51-A", "A verbal declaration in turn commits the "    \
                              "player to the full action.",                  \
                      ""},                                                   \
    [FW_R_UNDERCALL] =                                                       \
        {"51-B", "Undercall: a full call is required heads-up or facing "    \
                 "the opening bet; otherwise the floor decides.",            \
         "Call the floor: full call, or forfeit the undercall and fold."},   \
    [FW_R_UNDERBET] = {"52-A", "A bet or raise below the minimum is "        \
                               "corrected on the current street.",           \
                       "The player adds chips up to the minimum."},          \
    [FW_R_PL_UNDERBET] =                                                     \
        {"52-B", "Pot limit: a bet above the pot is reduced on this "        \
                 "street; a pot bet below the pot is raised to it until "    \
                 "substantial action follows.",                              \
         ""},                                                                \
    [FW_R_OOT] =                                                             \
        {"53-A", "Action out of turn backs up to the correct player; it "    \
                 "binds if the action to that player does not change.",      \
         "Back the action up to the player whose turn it is. Leave the "     \
         "out-of-turn chips in front of that player."},                      \
    [FW_R_OOT_SA] =                                                          \
        {"53-B", "Substantial action out of turn after a skipped player: "   \
                 "the out-of-turn action is binding; the floor rules on "    \
                 "the skipped hand.",                                        \
         "Call the floor to rule on the skipped player's hand."},            \
    [FW_R_PL_BLINDS] = {"54-B", "Pre-flop pot-limit bets assume full "       \
                                "blinds were posted.",                       \
                        ""},                                                 \
    [FW_R_PL_POT] = {"54-C", "Pot limit: a raise is at most the pot "        \
                             "after calling.",                               \
                     ""},                                                    \
    [FW_R_BET_POT_NL] =                                                      \
        {"54-D", "\"I bet the pot\" is not a valid bet in no-limit; the "    \
                 "player must make a valid bet.",                            \
         "Ask the player for an amount; at least a minimum bet."},           \
    [FW_R_INVALID_DECL] =                                                    \
        {"55", "Call with no bet is a check; raise with no bet must be "     \
               "at least a minimum bet; check facing a bet may call or "     \
               "fold, not raise.",                                           \
         ""},                                                                \
    [FW_R_STRING_BET] = {"56", "String bets are not allowed: the chips "     \
                               "of the second motion are returned.",         \
                         "Return the chips of the second motion."},          \
    [FW_R_UNCLEAR] =                                                         \
        {"57", "An unclear amount is the highest reasonable amount not "     \
               "above the pot.",                                             \
         ""},                                                                \
    [FW_R_FOLD_NO_BET] = {"58", "Folding with no bet to you is binding.",    \
                          ""},                                               \
    [FW_R_STACK] = {"25", "Chips must be countable: the seen chips do "      \
                          "not match the seat's stack.",                     \
                    "Count the player's stack and correct it."},             \
    [FW_R_RABBIT_HUNT] =                                                     \
        {"28", "Rabbit hunting (showing the cards that would have come "     \
               "had the hand gone on) is not allowed.",                      \
         "Do not deal or show any more cards."},                             \
    [FW_R_CLOCK] =                                                           \
        {"29", "On the clock: up to 25 seconds plus a 5 second "             \
               "countdown. Time out facing a bet: the hand is dead; not "    \
               "facing a bet: it is checked. A tie goes to the player.",     \
         "Give the player 25 seconds, then count the last 5 down "           \
         "aloud. At zero: facing a bet, kill the hand; otherwise check "     \
         "it."},                                                             \
    [FW_R_AT_SEAT] =                                                         \
        {"30", "A player not at the seat (within reach of the chair) "       \
               "when the last card of the initial deal is dealt has no "     \
               "live hand; posted blinds and antes stay in the pot.",        \
         "Kill the hand at once; its blinds and antes stay in the pot."},    \
    [FW_R_BUTTON_MOVE] =                                                     \
        {"34-A", "A wrong button move is corrected if found before "         \
                 "substantial action; after SA the hand plays on and the "   \
                 "button is not backed up on the next hand.",                \
         "Before SA: call the floor and put the button right. After "        \
         "SA: play on; move the button on from where it is."},               \
    [FW_R_MISDEAL] =                                                         \
        {"35-A", "Misdeal: 2 or more boxed cards on the initial deal, "      \
                 "the first card to the wrong seat, cards to a seat not "    \
                 "entitled or none to one that is, a wrong number of "       \
                 "cards, a non-standard card before SA, or 1 of the first "  \
                 "2 cards or any 2 downcards exposed by the dealer.",        \
         "Stop the deal and call the floor. The re-deal is an exact "        \
         "replay: the button does not move, no new players are seated, "     \
         "the limits stay the same."},                                       \
    [FW_R_BUTTON_TWO_CARDS] =                                                \
        {"35-B", "The button may be dealt 2 consecutive cards: not a "       \
                 "misdeal.",                                                 \
         ""},                                                                \
    [FW_R_REDEAL] =                                                          \
        {"35-C", "The re-deal after a misdeal is an exact replay. Seats "    \
                 "dealt in the first time are dealt in again (a player "     \
                 "back at the seat plays it); players on penalty get "       \
                 "cards that are killed; both deals count as one hand.",     \
         "Stop and call the floor. Gather and reshuffle the cards. "         \
         "Re-deal as an exact replay: the button does not move, no new "     \
         "players are seated, the limits stay the same."},                   \
    [FW_R_AFTER_SA] =                                                        \
        {"35-D", "After substantial action no misdeal can be declared: "     \
                 "the hand goes on unless the deck is fouled. A "            \
                 "non-standard card found after SA is a scrap of paper.",    \
         "Play on. Take a non-standard card out of play."},                  \
    [FW_R_FOULED_DECK] =                                                     \
        {"35-E", "Two cards of the same rank and suit: the deck is "         \
                 "fouled. Whatever the action, play stops and all bets "     \
                 "are returned.",                                            \
         "Stop play and call the floor. Return every bet of the hand "       \
         "to the player who made it."},                                      \
    [FW_R_BUTTON_TOO_FEW] =                                                  \
        {"37", "The button dealt too few cards must say so at once; the "    \
               "missing cards may be replaced even after SA, but if the "    \
               "button checks or bets with too few cards, the hand is "      \
               "dead.",                                                      \
         "Deal the missing card(s) to the button before it acts. If "        \
         "the button has checked or bet, kill the hand."},                   \
    [FW_R_BURN] =                                                            \
        {"38", "One card, and only one, is burned before each street, "      \
               "also after a hand was killed for a wrong number of "         \
               "cards: the burn protects the stub, not the card order.",     \
         "Burn exactly one card for the next street."},                      \
    [FW_R_FOUR_CARD_FLOP] =                                                  \
        {"39-A", "The flop has 4 cards, exposed or not.",                    \
         "Call the floor. Scramble the 4 cards face down; the floor "        \
         "picks one as the next burn; the other 3 are the flop."},           \
    [FW_R_NO_BURN_FLOP] =                                                    \
        {"39-B", "A 3-card flop dealt without a burn is fixed if nobody "    \
                 "has acted; after any action, even one check, it "          \
                 "stands.",                                                  \
         "No action yet: scramble the 3 cards face down and pick one "       \
         "as the burn; the flop is the other 2 plus the next card off "      \
         "the stub. After any action: play on with the 3 cards and "         \
         "burn only one card for the turn."},                                \
    [FW_R_PREMATURE] =                                                       \
        {"RP-5-A", "Premature flop: dealt before the pre-flop betting "      \
                   "was finished.",                                          \
         "Leave the flop burn as the burn. Return the flop cards to "        \
         "the stub and reshuffle the whole stub. When the betting is "       \
         "done, re-deal the flop without another burn."},                    \
    [FW_R_PREMATURE_TURN] =                                                  \
        {"RP-5-B", "Premature turn: dealt before the flop betting was "      \
                   "finished.",                                              \
         "Leave the turn burn as the burn. Return the turn card to the "     \
         "stub and reshuffle the whole stub. When the betting is done, "     \
         "re-deal the turn without another burn."},                          \
    [FW_R_PREMATURE_RIVER] =                                                 \
        {"RP-5-C", "Premature river: dealt before the turn betting was "     \
                   "finished.",                                              \
         "Leave the river burn as the burn. Return the river card to "       \
         "the stub and reshuffle the whole stub. When the betting is "       \
         "done, re-deal the river without another burn."},                   \
    [FW_R_BOXED_CARD] =                                                      \
        {"35-A", "Boxed card (face up in the deck). TDA has no procedure "   \
                 "for a single boxed card: it is reported; 2 or more on "    \
                 "the initial deal are a misdeal (35-A-1).",                 \
         "One boxed card: report it to the floor. Two or more on the "       \
         "initial deal: misdeal; stop and call the floor."},                 \
    [FW_R_EXPOSED_PENDING] =                                                 \
        {"68", "Exposing cards with action pending, even when last to "      \
               "act, may be penalised but the hand is not dead; a "          \
               "penalty starts at the end of the hand.",                     \
         "Keep the hand live. Tell the floor after the hand."},              \
    [FW_R_PENALTY] =                                                         \
        {"71-C", "A player on penalty is away from the table: the seat is "  \
                 "dealt in, its blinds and antes are posted, and the hand "  \
                 "is killed after the initial deal.",                        \
         "Deal the seat in, post its blinds and antes, and kill its "        \
         "hand after the initial deal."},                                    \
    [FW_R_MISSED_BLINDS] =                                                   \
        {"", "The current TDA rules have no missed-blind rule: an absent "   \
             "player is dealt in and the blinds are posted (30, 71-C).",     \
         ""},                                                                \
    [FW_R_ONE_BB_PER_ROUND] =                                                \
        {"", "The current TDA rules have no one-big-blind-per-round "        \
             "rule; balancing may even give a seat the big blind twice "     \
             "(11-A).",                                                      \
         ""},                                                                \
    [FW_R_SHOT_CLOCK] =                                                      \
        {"", "The current TDA rules have no shot clock (RP-19 lists one "    \
             "among ways to reduce stalling); the clock is Rule 29.",        \
         ""},                                                                \
    [FW_R_ALL_IN_DECL] =                                                     \
        {"", "The current TDA rules do not require all-in to be "            \
             "declared; a bet of a player's last chips is all-in "           \
             "(45-B).",                                                      \
         ""},                                                                \
    [FW_R_TWO_MOTION_RAISE] =                                                \
        {"", "The current TDA rules have no two-motion raise: a raise is "   \
             "one motion or a declared amount (42: \"2-motion raises "       \
             "eliminated in 2019\").",                                       \
         ""},

static const fw_profile tda = {
    .id = FW_PROFILE_TDA,
    .name = "tda",
    .book = "Poker TDA Rules (current) with the Illustration Addendum",
    .coverage = "complete",
    .clock_seconds = 25,
    .countdown_seconds = 5,
    .rules = {FW__TDA_RULES},
};

/*
 * The Poker TDA 2015 rules (version 1.0, Aug. 20, 2015). Its numbering is
 * older than the current book's; rules it does not have yet have no
 * number and say so.
 */
static const fw_profile tda_2015 = {
    .id = FW_PROFILE_TDA_2015,
    .name = "tda-2015",
    .book = "Poker TDA 2015 Rules, Version 1.0 (Aug. 20, 2015), with the "
            "Recommended Procedures and the Illustration Addendum",
    .coverage = "complete; rules the 2015 book does not have carry no "
                "number and say so",
    .clock_seconds = 50,
    .countdown_seconds = 10,
    .premature_turn_reburn = true,
    .two_motion_raise = true,
    .clock_kills_unfaced = true,
    .unclear_amount_lesser = true,
    .no_last_chips_exception = true,
    .redeal_kills_absent = true,
    .rules = {
        [FW_R_AWARD] = {"12", "Cards speak at showdown; a declared hand "
                              "value is not binding.",
                        ""},
        [FW_R_FACE_UP_ALL_IN] =
            {"15", "A player is all-in and betting is over: all hands are "
                   "tabled now, before the rest of the board.",
             "Turn all live hands face up now. Then burn and deal the "
             "remaining board. Award side pots first, then the main pot."},
        [FW_R_SHOWDOWN_ORDER] =
            {"16-A", "Non all-in showdown: the last aggressor on the final "
                     "round tables first; with no bet, the first seat left "
                     "of the button.",
             ""},
        [FW_R_UNCONTESTED] = {"16-B", "All others mucked: the last live "
                                      "hand wins without showing.",
                              ""},
        [FW_R_PAID_TO_SEE] =
            {"17-B", "After a river bet, a caller who retains or tabled "
                     "cards may ask to see the last aggressor's hand.",
             ""},
        [FW_R_PLAY_THE_BOARD] = {"18", "To play the board, table all hole "
                                       "cards to get part of the pot.",
                                 "Ask the player to table every hole card."},
        [FW_R_ODD_CHIPS] =
            {"19", "Odd chips are broken to the smallest chip in play; the "
                   "odd chip goes to the first winner left of the button; "
                   "identical hands winning high and low split as evenly "
                   "as possible.",
             ""},
        [FW_R_SIDE_POTS] = {"20", "Each side pot is split separately.", ""},
        [FW_R_NEW_LEVEL] = {"22", "A new level is announced when the clock "
                                  "reaches zero and applies to the next "
                                  "hand.",
                            ""},
        [FW_R_DEAD_BUTTON] = {"31", "Dead button: the big blind moves one "
                                    "seat; the button and small blind "
                                    "follow.",
                              ""},
        [FW_R_HEADS_UP] = {"33", "Heads-up: the small blind has the "
                                 "button, acts first pre-flop and last "
                                 "after.",
                           ""},
        [FW_R_SA] = {"35", "Substantial action: two actions in turn with "
                           "chips, or three actions in turn.",
                     ""},
        [FW_R_VERBAL_CHIPS] =
            {"37-A", "Verbal and chips: whichever comes first defines the "
                     "bet; if simultaneous, a clear verbal declaration "
                     "wins, otherwise the chips play.",
             "If the bet is still unclear, call the floor (Rule 1)."},
        [FW_R_AMOUNT_ONLY] = {"37-C", "Declaring an amount only is the "
                                      "same as silently pushing that "
                                      "amount.",
                              ""},
        [FW_R_CALLING] = {"41", "Saying call, pushing the call amount, one "
                                "overchip, or multiple chips under Rule 46 "
                                "is a call.",
                          ""},
        [FW_R_RAISE_AMOUNT] =
            {"43-A", "A raise is at least the largest prior bet or raise "
                     "this round; 50% or more of it must be made a full "
                     "raise, less is a call unless raise was declared.",
             ""},
        [FW_R_RAISE_TOTAL] = {"43-B", "Raise and an amount: the amount is "
                                      "the total bet.",
                              ""},
        [FW_R_OVERCHIP] = {"45", "One oversized chip is a call unless raise "
                                 "is declared first; not facing a bet it "
                                 "is a bet of the chip.",
                           ""},
        [FW_R_MULTI_CALL] = {"46", "Multiple chips, every chip needed to "
                                   "call: it is a call.",
                             ""},
        [FW_R_MULTI_RAISE] =
            {"46", "Multiple chips, not every chip needed to call: the 50% "
                   "standard of Rule 43 decides (the 2015 book has no "
                   "all-in clause for a player's last chips).",
             ""},
        [FW_R_PRIOR_PULL] = {"47-B", "Pulling back a prior bet facing "
                                     "action binds the player to call or "
                                     "raise.",
                             ""},
        [FW_R_PRIOR_CHIPS] =
            {"47-A", "Chips added to a prior bet not pulled in may make a "
                     "call or a re-raise; the 2015 book gives no reading "
                     "for silent chips, players should declare first.",
             "Ask the player to declare; if it stays unclear, call the "
             "floor."},
        [FW_R_REOPEN] = {"44", "No-limit and pot-limit: an all-in of less "
                               "than a full raise does not re-open the "
                               "betting for players who already acted.",
                         ""},
        [FW_R_REOPEN_LIMIT] = {"44", "Limit: at least 50% of a full raise "
                                     "re-opens the betting.",
                               ""},
        [FW_R_RAISE_CAP] = {"48", "Limit: the house caps the number of "
                                  "raises.",
                            ""},
        [FW_R_IN_TURN] = {"38-A", "Action in turn is binding.", ""},
        [FW_R_BINDING] = {"39-A", "A verbal declaration in turn commits "
                                  "the player to the full action.",
                          ""},
        [FW_R_UNDERCALL] =
            {"39-B", "Undercall: a full call is required heads-up or "
                     "facing the opening bet; otherwise the floor decides.",
             "Call the floor: full call, or forfeit the undercall and "
             "fold."},
        [FW_R_UNDERBET] =
            {"", "The 2015 TDA rules have no rule correcting underbets or "
                 "underraises (current TDA 52-A); 43-A covers a raise short "
                 "of the minimum.",
             "Call the floor."},
        [FW_R_PL_UNDERBET] =
            {"", "The 2015 TDA rules have no rule on pot-limit bets made "
                 "on a wrong pot count (current TDA 52-B).",
             "Call the floor."},
        [FW_R_OOT] =
            {"40-A", "Action out of turn binds if the action to that "
                     "player does not change (a check, call or fold does "
                     "not); if it changes, the player has all options.",
             "Back the action up to the player whose turn it is. Leave the "
             "out-of-turn chips in front of that player."},
        [FW_R_OOT_SA] =
            {"40-B", "Substantial action out of turn after a skipped "
                     "player: the out-of-turn action is binding; the floor "
                     "rules on the skipped hand.",
             "Call the floor to rule on the skipped player's hand."},
        [FW_R_PL_BLINDS] = {"50-B", "Pre-flop, a short all-in blind does "
                                    "not change the pot-limit maximum.",
                            ""},
        [FW_R_PL_POT] = {"50-B", "Pot limit: post-flop bets are based on "
                                 "the actual pot.",
                         ""},
        [FW_R_BET_POT_NL] =
            {"50-C", "\"I bet the pot\" is not a valid bet in no-limit; "
                     "the player must make a valid bet.",
             "Ask the player for an amount; at least a minimum bet."},
        [FW_R_INVALID_DECL] =
            {"", "The 2015 TDA rules have no rule on invalid declarations "
                 "(current TDA 55: call with no bet is a check, and so "
                 "on).",
             "Call the floor."},
        [FW_R_STRING_BET] = {"51", "Dealers call string bets and raises.",
                             "Call out the string bet at once."},
        [FW_R_UNCLEAR] =
            {"52", "A declared bet that can reasonably mean more than one "
                   "amount is the lesser value.",
             ""},
        [FW_R_FOLD_NO_BET] = {"53", "Folding with no bet to you is "
                                    "binding.",
                              ""},
        [FW_R_STACK] = {"24", "Chips must be countable: the seen chips do "
                              "not match the seat's stack.",
                        "Count the player's stack and correct it."},
        [FW_R_RABBIT_HUNT] =
            {"28", "Rabbit hunting (revealing the cards that would have "
                   "come had the hand gone on) is not allowed.",
             "Do not deal or show any more cards."},
        [FW_R_CLOCK] =
            {"27", "On the clock: up to 50 seconds, then a 10 second "
                   "count; if the player has not acted, the hand is dead, "
                   "facing a bet or not. A tie goes to the player.",
             "Give the player 50 seconds, then count 10 down aloud. At "
             "zero, kill the hand."},
        [FW_R_AT_SEAT] =
            {"29", "A player not at the seat when the last card of the "
                   "initial deal is dealt is dealt in but has no live "
                   "hand; blinds and antes are posted.",
             "Kill the hand after the initial deal; its blinds and antes "
             "stay in the pot."},
        [FW_R_BUTTON_MOVE] =
            {"", "The 2015 TDA rules have no rule on a wrongly moved "
                 "button (current TDA 34-A).",
             "Call the floor."},
        [FW_R_MISDEAL] =
            {"34-A", "Misdeal: 2 or more boxed cards on the initial deal, "
                     "the first card to the wrong seat, cards to a seat "
                     "not entitled or none to one that is, or 1 of the "
                     "first 2 cards or any 2 downcards exposed by the "
                     "dealer.",
             "Stop the deal and call the floor. The re-deal is an exact "
             "replay: the button does not move, no new players are "
             "seated, the limits stay the same."},
        [FW_R_BUTTON_TWO_CARDS] =
            {"34-B", "The button may be dealt 2 consecutive cards: not a "
                     "misdeal.",
             ""},
        [FW_R_REDEAL] =
            {"34-C", "The re-deal after a misdeal is an exact replay. "
                     "Players on penalty or away from their seats for the "
                     "original deal get cards that are killed; both deals "
                     "count as one hand.",
             "Stop and call the floor. Gather and reshuffle the cards. "
             "Re-deal as an exact replay: the button does not move, no new "
             "players are seated, the limits stay the same."},
        [FW_R_AFTER_SA] =
            {"34-D", "After substantial action no misdeal can be declared: "
                     "the hand goes on.",
             "Play on."},
        [FW_R_FOULED_DECK] =
            {"", "The 2015 TDA rules have no fouled-deck rule (current "
                 "TDA 35-E).",
             "Stop play and call the floor."},
        [FW_R_BUTTON_TOO_FEW] =
            {"", "The 2015 TDA rules have no rule on a button dealt too "
                 "few cards (current TDA 37).",
             "Call the floor."},
        [FW_R_BURN] =
            {"", "The 2015 TDA rules have no rule on burns (current TDA "
                 "38: one burn per street, never more).",
             "Call the floor."},
        [FW_R_FOUR_CARD_FLOP] =
            {"36", "The flop has 4 cards, exposed or not.",
             "Call the floor. Scramble the 4 cards face down; the floor "
             "picks one as the next burn; the other 3 are the flop."},
        [FW_R_NO_BURN_FLOP] =
            {"", "The 2015 TDA rules have no rule for a flop dealt "
                 "without a burn (current TDA 39-B).",
             "Call the floor."},
        [FW_R_PREMATURE] =
            {"RP-5-A", "Premature flop: dealt before the pre-flop betting "
                       "was finished.",
             "Leave the flop burn as the burn. Return the flop cards to "
             "the stub and reshuffle it. When the betting is done, re-deal "
             "the flop without another burn."},
        [FW_R_PREMATURE_TURN] =
            {"RP-5-B", "Premature turn: dealt before the flop betting was "
                       "finished. The card is set aside and the river card "
                       "becomes the turn.",
             "Set the premature turn card aside. When the flop betting is "
             "done, burn another card and deal the next card as the turn. "
             "After the turn betting, put the premature card back into "
             "the stub, reshuffle it and deal the river without a burn."},
        [FW_R_PREMATURE_RIVER] =
            {"RP-5-C", "Premature river: dealt before the turn betting was "
                       "finished.",
             "Put the premature river card back into the stub; the river "
             "burn stays. When the turn betting is done, reshuffle the "
             "stub and deal the river without a new burn."},
        [FW_R_BOXED_CARD] =
            {"34-A", "Boxed card (face up in the deck). The 2015 book has "
                     "no procedure for a single boxed card: it is "
                     "reported; 2 or more on the initial deal are a "
                     "misdeal (34-A-1).",
             "One boxed card: report it to the floor. Two or more on the "
             "initial deal: misdeal; stop and call the floor."},
        [FW_R_EXPOSED_PENDING] =
            {"63", "Exposing cards with action pending may be penalised "
                   "but the hand is not dead; a penalty starts at the end "
                   "of the hand.",
             "Keep the hand live. Tell the floor after the hand."},
        [FW_R_PENALTY] =
            {"66-C", "A player on penalty is away from the table: the seat "
                     "is dealt in, its blinds and antes are posted, and "
                     "the hand is killed after each initial deal.",
             "Deal the seat in, post its blinds and antes, and kill its "
             "hand after the initial deal."},
        [FW_R_MISSED_BLINDS] =
            {"", "The 2015 TDA rules have no missed-blind rule: an absent "
                 "player is dealt in and the blinds are posted (29, "
                 "66-C).",
             ""},
        [FW_R_ONE_BB_PER_ROUND] =
            {"", "The 2015 TDA rules have no one-big-blind-per-round "
                 "rule; balancing may even give a seat the big blind "
                 "twice (10-A).",
             ""},
        [FW_R_SHOT_CLOCK] =
            {"", "The 2015 TDA rules have no shot clock; the clock is "
                 "Rule 27.",
             ""},
        [FW_R_ALL_IN_DECL] =
            {"", "The 2015 TDA rules do not require all-in to be "
                 "declared.",
             ""},
        [FW_R_TWO_MOTION_RAISE] =
            {"42-C", "Two-motion raise: declare \"raise\", push out the "
                     "exact call amount, then complete the raise in one "
                     "more motion. Other than the exact call amount but "
                     "under a minimum raise first: a minimum raise.",
             ""},
    },
};

/*
 * The Poker Factory house rules (version 1.0, March 2026). Its rules have
 * no sub-letters; the recommended procedures are RP1-RP11.
 */
static const fw_profile tpf = {
    .id = FW_PROFILE_TPF,
    .name = "tpf",
    .book = "The Poker Factory Official Rules and Procedures, Version 1.0 "
            "(March 2026)",
    .coverage = "complete; rules the TPF book does not have carry no "
                "number and say so",
    /* TPF 29: 25 seconds plus a 5 second countdown; TPF 65 says the same
     * as "30 seconds (including a 5 second countdown)" */
    .clock_seconds = 25,
    .countdown_seconds = 5,
    .premature_turn_reburn = true,
    .premature_river_reburn = true,
    .single_boxed_procedure = true,
    .multi_boxed_floor_decides = true,
    .missed_blinds = true,
    .one_bb_per_rotation = true,
    .all_in_must_be_declared = true,
    .no_last_chips_exception = true,
    .redeal_kills_absent = true,
    .rules = {
        [FW_R_AWARD] = {"12", "Cards speak: the dealer reads and announces "
                              "the winning hand.",
                        ""},
        [FW_R_FACE_UP_ALL_IN] =
            {"16", "A player is all-in and betting is over: all hands are "
                   "tabled now, before the rest of the board.",
             "Turn all live hands face up now. Then burn and deal the "
             "remaining board. Award side pots first, then the main pot."},
        [FW_R_SHOWDOWN_ORDER] =
            {"17", "Non all-in showdown: the last aggressor on the final "
                   "round tables first; with no bet, the first seat left "
                   "of the button.",
             ""},
        [FW_R_UNCONTESTED] = {"17", "All others mucked: the last live hand "
                                    "wins without tabling.",
                              ""},
        [FW_R_PAID_TO_SEE] =
            {"18", "After a river bet, a caller who retains or tabled "
                   "cards may ask to see the last aggressor's hand.",
             ""},
        [FW_R_PLAY_THE_BOARD] = {"19", "To play the board, table all hole "
                                       "cards to get part of the pot.",
                                 "Ask the player to table every hole card."},
        [FW_R_ODD_CHIPS] = {"20", "Odd chips are broken to the smallest "
                                  "chip in play; the odd chip goes to the "
                                  "first seat left of the button.",
                            ""},
        [FW_R_SIDE_POTS] = {"21", "Each side pot is split separately.", ""},
        [FW_R_NEW_LEVEL] = {"23", "A new level starts on announcement after "
                                  "the clock reaches zero and applies to "
                                  "the next hand.",
                            ""},
        [FW_R_DEAD_BUTTON] = {"33", "Dead button: the button moves forward "
                                    "one seat every hand, even to an empty "
                                    "seat; the blinds follow.",
                              ""},
        [FW_R_HEADS_UP] = {"34", "Heads-up: the small blind is the button, "
                                 "acts first pre-flop and last after.",
                           ""},
        [FW_R_SA] = {"", "Substantial action (TPF Definitions, no rule "
                         "number): two actions in turn with chips, or "
                         "three actions in turn; posted blinds do not "
                         "count.",
                     ""},
        [FW_R_VERBAL_CHIPS] =
            {"42", "Verbal and chips: whichever comes first defines the "
                   "bet; contradictions go to the Tournament Director.",
             "Call the floor to rule on the bet."},
        [FW_R_AMOUNT_ONLY] = {"42", "Declaring an amount only is the same "
                                    "as silently pushing that amount.",
                              ""},
        [FW_R_CALLING] = {"43", "Saying call, pushing the call amount, one "
                                "overchip, or multiple chips under the "
                                "multi-chip rule (47) is a call.",
                          ""},
        [FW_R_RAISE_AMOUNT] =
            {"45", "A raise is at least the largest prior full bet or "
                   "raise this round; 50% or more of it must be made a "
                   "full raise, less is a call.",
             ""},
        [FW_R_RAISE_TOTAL] = {"45", "Raise and an amount: the amount is the "
                                    "total bet.",
                              ""},
        [FW_R_OVERCHIP] = {"46", "One oversized chip is a call unless raise "
                                 "is declared first; not facing a bet it "
                                 "is a bet of the chip.",
                           ""},
        [FW_R_MULTI_CALL] = {"47", "Multiple chips, every chip needed to "
                                   "call: it is a call.",
                             ""},
        [FW_R_MULTI_RAISE] =
            {"45", "Multiple chips, not every chip needed to call: TPF 47 "
                   "has no clause for it, so the 50% standard of 45 "
                   "decides; last chips are all-in.",
             ""},
        [FW_R_PRIOR_PULL] = {"48", "Pulling back a prior bet facing a raise "
                                   "binds the player to call or raise.",
                             ""},
        [FW_R_PRIOR_CHIPS] =
            {"48", "Chips added to a prior bet not pulled in are read with "
                   "the call and raise rules (43-47).",
             ""},
        [FW_R_REOPEN] = {"49", "A short all-in does not re-open the betting "
                               "for players who already acted.",
                         ""},
        [FW_R_REOPEN_LIMIT] =
            {"", "TPF has no limit-game rule for re-opening the betting "
                 "(49 covers short all-ins only).",
             "Call the floor."},
        [FW_R_RAISE_CAP] = {"", "TPF has no rule on the number of raises.",
                            ""},
        [FW_R_IN_TURN] = {"51", "Action in turn is binding.", ""},
        [FW_R_BINDING] = {"52", "A verbal declaration in turn commits the "
                                "player to the full action, whatever chips "
                                "are put out.",
                          ""},
        [FW_R_UNDERCALL] =
            {"52", "Undercall: a full call is required heads-up or facing "
                   "the opening bet; otherwise the floor decides.",
             "Call the floor: full call, or forfeit the undercall and "
             "fold."},
        [FW_R_UNDERBET] = {"53", "A bet or raise below the minimum is "
                                 "corrected on the current street.",
                           "The player adds chips up to the minimum."},
        [FW_R_PL_UNDERBET] =
            {"", "TPF has no rule on pot-limit bets made on a wrong pot "
                 "count (53 covers limit and no-limit).",
             "Call the floor."},
        [FW_R_OOT] =
            {"54", "Action out of turn backs up to the correct player; it "
                   "binds if the action to that player does not change.",
             "Back the action up to the player whose turn it is. Leave the "
             "out-of-turn chips in front of that player."},
        [FW_R_OOT_SA] =
            {"54", "Substantial action out of turn after a skipped player: "
                   "the out-of-turn action is binding; the floor rules on "
                   "the skipped hand.",
             "Call the floor to rule on the skipped player's hand."},
        [FW_R_PL_BLINDS] =
            {"", "TPF has no pot-limit bet sizing rule (55 covers only pot "
                 "counts).",
             "Call the floor."},
        [FW_R_PL_POT] =
            {"", "TPF has no pot-limit bet sizing rule (55 covers only pot "
                 "counts).",
             "Call the floor."},
        [FW_R_BET_POT_NL] =
            {"", "TPF has no rule on \"I bet the pot\" in no-limit.",
             "Ask the player for an amount; if it stays unclear, call the "
             "floor."},
        [FW_R_INVALID_DECL] =
            {"56", "Call with no bet is a check; raise with no bet must be "
                   "at least a minimum bet; check facing a bet may call or "
                   "fold, not raise.",
             ""},
        [FW_R_STRING_BET] = {"57", "String bets are not allowed: the chips "
                                   "of the second motion are returned.",
                             "Return the chips of the second motion."},
        [FW_R_UNCLEAR] =
            {"58", "An unclear amount is the highest reasonable amount not "
                   "above the pot.",
             ""},
        [FW_R_FOLD_NO_BET] = {"59", "Folding with no bet to you is "
                                    "binding.",
                              ""},
        [FW_R_STACK] = {"25", "Chips must be countable: the seen chips do "
                              "not match the seat's stack.",
                        "Count the player's stack and correct it."},
        [FW_R_RABBIT_HUNT] =
            {"28", "Rabbit hunting (showing the cards that would have come "
                   "had the hand gone on) is not allowed.",
             "Do not deal or show any more cards."},
        [FW_R_CLOCK] =
            {"29", "On the clock: up to 25 seconds plus a 5 second "
                   "countdown (65: 30 seconds including the countdown). "
                   "Time out facing a bet: the hand is dead; otherwise it "
                   "is checked. No clock in shot-clock events (65).",
             "Give the player 25 seconds, then count the last 5 down "
             "aloud. At zero: facing a bet, kill the hand; otherwise check "
             "it."},
        [FW_R_AT_SEAT] =
            {"30", "A player not at the seat when the last card of the "
                   "initial deal is dealt has no live hand; posted blinds "
                   "and antes are forfeited to the pot.",
             "Kill the hand at once; its blinds and antes stay in the "
             "pot."},
        [FW_R_BUTTON_MOVE] =
            {"36", "A wrong button move is corrected if found before "
                   "substantial action; after SA play continues.",
             "Before SA: call the floor and put the button right. After "
             "SA: play on."},
        [FW_R_MISDEAL] =
            {"38", "Misdeal: 2 or more boxed cards on the initial deal, the "
                   "first card to the wrong seat, cards to a seat not "
                   "entitled or none to one that is, or 1 of the first 2 "
                   "cards or any 2 downcards exposed by the dealer.",
             "Stop the deal and call the floor. The re-deal is an exact "
             "replay: the button does not move, no new players are seated, "
             "the limits stay the same."},
        [FW_R_BUTTON_TWO_CARDS] =
            {"38", "The button may be dealt 2 consecutive cards: not a "
                   "misdeal.",
             ""},
        [FW_R_REDEAL] =
            {"38", "The re-deal after a misdeal is an exact replay. Players "
                   "eligible for the original deal, on penalty or away, "
                   "are dealt in and their hands are dead; both deals "
                   "count as one hand.",
             "Stop and call the floor. Gather and reshuffle the cards. "
             "Re-deal as an exact replay: the button does not move, no new "
             "players are seated, the limits stay the same."},
        [FW_R_AFTER_SA] =
            {"38", "After substantial action no misdeal can be declared: "
                   "the hand goes on (a fouled deck still stops play).",
             "Play on."},
        [FW_R_FOULED_DECK] =
            {"38", "A fouled deck (irregular, incomplete or compromised, "
                   "see Definitions): whatever the action, play stops and "
                   "all bets are returned.",
             "Stop play and call the floor. Return every bet of the hand "
             "to the player who made it."},
        [FW_R_BUTTON_TOO_FEW] =
            {"39", "The button dealt too few cards must say so at once; "
                   "the missing cards may be replaced even after SA, but "
                   "if the button checks or bets with too few cards, the "
                   "hand is dead.",
             "Deal the missing card(s) to the button before it acts. If "
             "the button has checked or bet, kill the hand."},
        [FW_R_BURN] =
            {"40", "After a hand is killed for a wrong number of cards, one "
                   "card and only one is burned before each street: the "
                   "burn protects the stub, not the card order.",
             "Burn exactly one card for the next street."},
        [FW_R_FOUR_CARD_FLOP] =
            {"41", "The flop has 4 cards, exposed or not.",
             "Call the floor. Scramble the 4 cards face down; the floor "
             "picks one as the next burn; the other 3 are the flop."},
        [FW_R_NO_BURN_FLOP] =
            {"", "TPF has no rule for a flop dealt without a burn; RP8 "
                 "lets the TD apply randomness.",
             "Call the floor."},
        [FW_R_PREMATURE] =
            {"RP2", "Premature flop: dealt before the pre-flop betting was "
                    "finished.",
             "Leave the flop burn as the burn. Return the flop cards to "
             "the stub, reshuffle the whole stub and cut. When the betting "
             "is done, re-deal the flop without another burn."},
        [FW_R_PREMATURE_TURN] =
            {"RP2", "Premature turn: dealt before the flop betting was "
                    "finished. The card is set aside and the river card "
                    "becomes the turn.",
             "Set the premature turn card aside. When the flop betting is "
             "done, burn another card and deal the next card as the turn. "
             "After the turn betting, put the premature card back into "
             "the stub, reshuffle, cut and deal the river without another "
             "burn."},
        [FW_R_PREMATURE_RIVER] =
            {"RP2", "Premature river: dealt before the turn betting was "
                    "finished. The river burn stays and the river comes "
                    "with a new burn card.",
             "Put the premature river card back into the stub; the river "
             "burn stays. When the turn betting is done, reshuffle the "
             "stub and deal the river with a new burn card."},
        [FW_R_BOXED_CARD] =
            {"RP11", "Boxed card (face up in the deck): a single one is "
                     "not a misdeal and is replaced; with 2 or more, or "
                     "the deck in doubt, the TD may declare a misdeal.",
             "Set the boxed card aside and deal on with the next card to "
             "the next player. The seat that lost the boxed card gets the "
             "burn card; the boxed card becomes the first burn. Two or "
             "more boxed cards: call the floor."},
        [FW_R_EXPOSED_PENDING] =
            {"70", "Exposing cards with action pending, even when last to "
                   "act, may be penalised but the hand is not dead; a "
                   "penalty starts at the end of the hand.",
             "Keep the hand live. Tell the floor after the hand."},
        [FW_R_PENALTY] =
            {"73", "A player on penalty is away from the table: the seat is "
                   "dealt in, its blinds and antes are posted, and the "
                   "hand is killed after the initial deal.",
             "Deal the seat in, post its blinds and antes, and kill its "
             "hand after the initial deal."},
        [FW_R_MISSED_BLINDS] =
            {"37", "A player back from an absence posts the missed "
                   "blind(s) before receiving cards; missed blinds are "
                   "live and part of the player's wager.",
             "Before dealing the player in, collect the missed blind(s) "
             "as live chips."},
        [FW_R_ONE_BB_PER_ROUND] =
            {"33", "Nobody posts more than one big blind in a rotation of "
                   "the table.",
             ""},
        [FW_R_SHOT_CLOCK] =
            {"65", "Shot-clock events: a base time to act, announced "
                   "before play; time used beyond it comes off the "
                   "player's time bank. Nobody may call the clock.",
             "When the base time runs out, run the player's time bank."},
        [FW_R_ALL_IN_DECL] =
            {"63", "All-in must be declared aloud or the whole stack moved "
                   "forward in one unmistakable motion; an ambiguous "
                   "all-in is for the TD.",
             "If it is unclear whether the player is all-in, call the "
             "floor."},
        [FW_R_TWO_MOTION_RAISE] =
            {"", "TPF has no two-motion raise: a raise is one motion or a "
                 "declared full amount (44).",
             ""},
    },
};

/*
 * An older TDA edition, of which only page 6 is at hand: rules 35 to 40.
 * The profile starts from tda's table and replaces the rules that page
 * covers. C11 6.7.9p19 makes the last initialiser of an element the one
 * that counts; GCC's -Woverride-init (in -Wextra) warns about exactly
 * that, so it is silenced for this one definition.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
static const fw_profile tda_older = {
    .id = FW_PROFILE_TDA_OLDER,
    .name = "tda-older",
    .book = "Poker TDA rules, an older edition: page 6 (rules 35-40)",
    .coverage = "page 6 only (rules 35-40 of an older TDA edition); every "
                "other rule follows tda",
    .clock_seconds = 25,
    .countdown_seconds = 5,
    /* 40-C */
    .two_motion_raise = true,
    .rules = {
        FW__TDA_RULES
        [FW_R_SA] = {"35", "Substantial action: two actions in turn with "
                           "chips, or three actions in turn.",
                     ""},
        [FW_R_FOUR_CARD_FLOP] =
            {"36", "The flop has 4 cards, exposed or not.",
             "Scramble the 4 cards face down and call the floor; the "
             "floor picks one as the next burn; the other 3 are the flop."},
        [FW_R_IN_TURN] = {"37-A", "Players must act in turn; chips put in "
                                  "the pot in turn stay in the pot.",
                          ""},
        [FW_R_BINDING] = {"37-A", "Verbal betting declarations in turn are "
                                  "binding.",
                          ""},
        [FW_R_UNDERCALL] =
            {"37-A", "Undercall: a full call is required facing the "
                     "opening bet multi-way or any bet heads-up; otherwise "
                     "the TD decides.",
             "Call the floor: full call, or as the TD decides."},
        [FW_R_OOT] =
            {"38-A", "Action out of turn binds if the action to that "
                     "player has not changed (a check, call or fold does "
                     "not); if it changed, the player has all options.",
             "Back the action up to the player whose turn it is. Leave the "
             "out-of-turn chips in front of that player."},
        [FW_R_OOT_SA] =
            {"38-B", "Substantial action out of turn after a skipped "
                     "player: the out-of-turn action is binding; the floor "
                     "rules on the skipped hand.",
             "Call the floor to rule on the skipped player's hand."},
        [FW_R_CALLING] = {"39", "Saying call, pushing the call amount, one "
                                "overchip, or multiple chips under that "
                                "edition's Rule 43 is a call.",
                          ""},
        [FW_R_TWO_MOTION_RAISE] =
            {"40-C", "Two-motion raise: declare \"raise\", push out the "
                     "exact call amount, then complete the raise in one "
                     "more motion. Other than the exact call amount but "
                     "under a minimum raise first: a minimum raise.",
             ""},
    },
};
#pragma GCC diagnostic pop

static const fw_profile *const profiles[FW_PROFILE_COUNT] = {
    [FW_PROFILE_TDA] = &tda,
    [FW_PROFILE_TDA_2015] = &tda_2015,
    [FW_PROFILE_TPF] = &tpf,
    [FW_PROFILE_TDA_OLDER] = &tda_older,
};

const fw_profile *fw__profile(fw_profile_id id)
{
    /* an id from outside the enum gets the default book, not a crash */
    if ((unsigned)id >= FW_PROFILE_COUNT)
        return &tda;
    return profiles[id];
}
