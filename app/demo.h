/*
 * demo.h - private to app/: `feltwatch demo`. The simulated camera plays a
 * scripted session (app/demo_session.jsonl): the simulated dealer draws
 * each card and chip frame by frame, the kiosk (kiosk.h) reads them back
 * through card and chip vision and the trackers, the rules engine rules,
 * the dealer screen shows it (a window with a display, PNGs otherwise) and
 * every hand is recorded; the summary says how far the camera followed the
 * script. --script-only sends the script straight to the engine instead.
 */
#ifndef FW_DEMO_H
#define FW_DEMO_H

#include <stdio.h>

/**
 * `feltwatch demo [--headless] [--out DIR] [--script-only] [--quiet]`
 * (DIR defaults to ./feltwatch-demo). \returns the process exit status.
 */
int fw_demo_main(int argc, char **argv, FILE *out, FILE *err);

/** The scripted session as JSON Lines (NUL-terminated, static). */
const char *fw_demo_script(void);

#endif
