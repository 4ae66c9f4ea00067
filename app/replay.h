/*
 * replay.h - private to app/: `feltwatch replay`, the rules engine over a
 * stream of table events in JSON Lines (PROTOCOL.md).
 *
 * Ownership: nothing returned is owned by the caller; the streams passed in
 * stay the caller's.
 */
#ifndef FW_REPLAY_H
#define FW_REPLAY_H

#include <stdio.h>

#include "rules.h"

/** Called with every output record as one JSON line (with its "\n"). */
typedef void (*fw_replay_line_fn)(void *ctx, const fw_record *rec,
                                  const char *line, size_t len);

/**
 * Replay events from `in` (named `name` in messages) through a new engine.
 * Each output record goes to `out` as a JSON line, and to on_line when it is
 * not NULL. The first malformed line or impossible event stops the replay
 * with a message on `err` naming the line and field.
 * \returns 0 when every line was applied, 1 otherwise (the exit status).
 */
int fw_replay_stream(FILE *in, const char *name, FILE *out, FILE *err,
                     fw_replay_line_fn on_line, void *ctx);

struct fw_store;

/**
 * As fw_replay_stream, and every event and record also goes to `store`
 * (when not NULL), which writes each hand to SQLite when it ends, and to
 * `events` (when not NULL) as the JSON line read.
 */
int fw_replay_stream_to(FILE *in, const char *name, FILE *out, FILE *err,
                        fw_replay_line_fn on_line, void *ctx,
                        struct fw_store *store, FILE *events);

/**
 * `feltwatch replay FILE|- [--db FILE]`: argv[0] is "replay".
 * \returns the process exit status.
 */
int fw_replay_main(int argc, char **argv, FILE *out, FILE *err);

#endif
