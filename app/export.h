/*
 * export.h - `feltwatch export`: hands from the hand database (store.h) as
 * PHH (the uoftcprg TOML standard), OHH (Open Hand History JSON, spec
 * 1.4.6) or PokerStars hand history text. Private to the app module.
 *
 * Ownership: nothing returned is owned by the caller; the streams passed in
 * stay the caller's. Hands are read and never kept.
 *
 * Fidelity, per format:
 * - PHH: exact for the hands PHH can state (no-limit and fixed-limit
 *   hold'em, pot-limit Omaha, short deck as "NS"): the hands replay to the
 *   recorded finishing stacks. Players are listed from the seat left of the
 *   button round to the button (heads-up: big blind, then the button), the
 *   forced bets by role; hole cards are written where the store saw them
 *   (dealt face up in the simulator, or tabled), "??" otherwise. Hands that
 *   did not end normally (fouled deck, abandoned, incomplete) and PLO5 are
 *   refused with a message, as is a hand without a known starting stack.
 *   One hand is one PHH document; several are a .phhs collection, each
 *   under a `[N]` table.
 * - OHH: every player, post, action with the chips it added, board card,
 *   tabled hand and pot with its winners; no hero (hero_player_id left
 *   out), currency "" (chips). Hands are separated by one blank line.
 * - PokerStars: best effort in the classic layout (header, seats, posts,
 *   *** HOLE CARDS ***, streets, *** SHOW DOWN ***, *** SUMMARY ***), for
 *   the trackers that read it. Hole cards every seat was seen to hold are
 *   all listed as "Dealt to"; the hand number is the table's hand number;
 *   times are UTC; an uncalled bet is written as returned (the engine
 *   awards it as its own pot).
 */
#ifndef FW_EXPORT_H
#define FW_EXPORT_H

#include <stdio.h>

/**
 * `feltwatch export --format phh|ohh|pokerstars --db FILE [--hand N]
 * [--table NAME] [--out FILE]`; argv[0] is "export".
 * Writes to `out` unless --out names a file; messages go to `err`.
 * \returns the exit status: 0 every hand written, 1 an error (no such
 *          database or hand, a hand the format cannot state: the other
 *          hands are still written), 2 a usage error.
 */
int fw_export_main(int argc, char **argv, FILE *out, FILE *err);

#endif
