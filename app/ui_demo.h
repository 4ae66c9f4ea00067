/*
 * ui_demo.h - private to app/: the dealer screen over a recorded session.
 * Table events from a JSON Lines file go through the rules engine
 * (replay.h) and every record to the screen, at a given pace; headless, a
 * PNG per screen change.
 *
 * Ownership: the streams passed in stay the caller's; the fw_ui too.
 */
#ifndef FW_UI_DEMO_H
#define FW_UI_DEMO_H

#include <stdio.h>

#include "ui.h"

/**
 * Replay the events read from `in` (named `name` in messages) through a new
 * engine into `ui`: each event goes to fw_ui_on_event(), then the engine's
 * records to fw_ui_on_record(), then the screen is drawn and the program
 * waits delay_ms (handling taps, which are written to `out` as JSON lines
 * prefixed "dealer: "; they do not go into this engine).
 * \param quit  set to 1 when the dealer closed the window; may be NULL.
 * \returns 0 when every line was applied, 1 otherwise (see
 *          fw_replay_stream()).
 */
int fw_ui_replay(fw_ui *ui, FILE *in, const char *name, int delay_ms,
                 FILE *out, FILE *err, int *quit);

/**
 * `feltwatch screen [--headless] [--out DIR] [--kiosk] [--size WxH]
 * [--delay MS] [--font FILE] [--screenshot FILE.png] [--exit] FILE|-`:
 * the dealer screen over a session. A window stays open at the end until
 * it is closed, unless --exit.
 * \returns the process exit status (0, 1 on failure, 2 on bad usage).
 */
int fw_ui_demo_main(int argc, char **argv, FILE *out, FILE *err);

#endif
