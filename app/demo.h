/*
 * demo.h - private to app/: `feltwatch demo`. Until the camera pipeline
 * exists, the demo plays a scripted session (table events as the vision and
 * the dealer's taps would send them) through the rules engine and prints
 * what the dealer screen would show.
 */
#ifndef FW_DEMO_H
#define FW_DEMO_H

#include <stdio.h>

/** `feltwatch demo [--quiet]`: \returns the process exit status. */
int fw_demo_main(int argc, char **argv, FILE *out, FILE *err);

/** The scripted session as JSON Lines (NUL-terminated, static). */
const char *fw_demo_script(void);

#endif
