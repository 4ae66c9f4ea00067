/*
 * kiosk.h - private to app/: `feltwatch run`, the kiosk loop. Frames from a
 * camera (or the scripted sim:), card detection, the tracker, the rules
 * engine, the hand store, the dealer screen and JSON Lines logs, joined.
 */
#ifndef FW_KIOSK_H
#define FW_KIOSK_H

#include <stdio.h>

/**
 * `feltwatch run [--source URI] [--calib FILE] [--setup FILE.jsonl]
 * [--headless] [--out DIR] [--frames N]`: argv[0] is "run". With --out, DIR
 * (created if missing) receives feltwatch.db, events.jsonl, records.jsonl
 * and, headless, screens/screen-NNNNNN.png. The summary goes to `out`, the
 * log to `err`.
 * \returns the process exit status: 0 after a clean end, 1 when something
 *          could not be opened or the setup was refused, 2 for bad usage.
 */
/*
 * The simulated dealer (sim:) plays BUILTIN_SCRIPT (JSON Lines,
 * NUL-terminated; may be NULL) unless --script names a file.
 */
int fw_kiosk_run(int argc, char **argv, const char *builtin_script, FILE *out,
                 FILE *err);

#endif
