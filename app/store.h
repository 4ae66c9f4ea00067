/*
 * store.h - the hand record: every hand played at the table, kept in an
 * SQLite file (DESIGN.md "No hand is ever lost"). Private to the app module.
 *
 * Ownership: fw_store is opaque, created by fw_store_open() or
 * fw_store_open_readonly() and closed by fw_store_close() (which accepts
 * NULL). Events, records and JSON lines passed in are read and copied,
 * never kept. fw_store_hand values come from fw_store_load_hand() and are
 * freed with fw_store_hand_free() (which accepts NULL); the id array of
 * fw_store_list_hands() is the caller's, freed with free(). Error messages
 * are left for fw_last_error() and always name the database's path.
 *
 * Threading: a store is used from one thread at a time; distinct stores
 * (even on the same file, e.g. the kiosk writing while `feltwatch export`
 * reads) are independent: SQLite's WAL lets readers and one writer work at
 * once.
 *
 * Recording. The kiosk loop hands the store every input event *before* it
 * applies the event to the engine (fw_store_event), and every output record
 * as the engine emits it (fw_store_record). The store keeps the hand in
 * progress in memory and writes it in ONE transaction when the engine ends
 * it (the `hand_end` record, which also follows a fouled deck). A misdeal
 * does not end a hand: the engine re-deals the same hand number, and the
 * misdealt deal stays part of the hand's events (events.deal counts the
 * deals: 0 for the table, level and seat events before the hand, 1 for the
 * first deal, 2 for the re-deal after a misdeal, ...). A `hand_start`
 * while a hand is in progress without a misdeal (the engine's
 * `hand_abandoned`) writes the old hand with status "abandoned". Events
 * between hands are kept with the next hand; `tick` events between hands
 * are not kept.
 *
 * Durability. The file is in WAL mode with synchronous=FULL: a transaction
 * is on the disk (the WAL fsynced) when its COMMIT returns, so a power cut
 * loses at most the hand in progress. NORMAL would skip that fsync and
 * could lose the last hands on a power cut (never corrupting the file);
 * one fsync per hand, a few a minute, costs nothing on the Pi. When a write
 * fails (disk full, I/O error) the transaction is rolled back, the hand
 * stays in memory (fw_store_pending() counts such hands) and every later
 * hand end, fw_store_flush() and fw_store_close() try again, oldest first.
 *
 * Schema (version FW_STORE_SCHEMA_VERSION, PRAGMA user_version; files are
 * migrated on open, one transaction per version step):
 *   hands(id, table_name, hand_no, status, game, rules, table_seats, sb, bb,
 *         ante, ante_type, small_bet, big_bet, button, board, pot,
 *         misdeals, started_at, ended_at, started_utc, ended_utc,
 *         recorded_utc, alerts [v2])
 *   players(hand_id, seat, name, starting_stack, final_stack, dealt_in,
 *           blind, ante, hole, shown)
 *   events(hand_id, seq, deal, type, t, json)     the input lines
 *   records(hand_id, seq, deal, type, kind, seat, json)   the output lines
 *   actions(hand_id, seq, street, seat, action, amount_to, added, all_in,
 *           cards)     the hand history the exports are written from:
 *           ante, small_blind, big_blind, check, call, bet, raise, fold,
 *           board (seat 0), show, muck, and uncalled (chips handed back
 *           at the end of a betting round, which the engine does
 *           silently: `added` is what came back)
 *   awards(hand_id, pot, seat, amount, hand_desc, odd_chip)
 * events and records share one seq, so together they are the exact stream.
 * status is "complete", "fouled_deck", "abandoned", "incomplete" (still in
 * progress at fw_store_close) or "partial" (recording began mid-hand).
 * State records are kept in `records` only when the hand number, street,
 * board or button changes.
 */
#ifndef FW_STORE_H
#define FW_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "rules.h"

/** The schema version this code writes and reads. */
#define FW_STORE_SCHEMA_VERSION 2

typedef struct fw_store fw_store;

/**
 * Open (creating if needed) a hand database for recording, and bring its
 * schema up to FW_STORE_SCHEMA_VERSION.
 * \param path a file path, or ":memory:" for a database in memory.
 * \returns FW_OK; FW_EIO when the file cannot be opened or created (a
 *          directory, a path in a read-only or missing folder); FW_EPARSE
 *          when the file is not a feltwatch hand database (garbage, another
 *          program's database); FW_EUNSUPPORTED when its schema is newer
 *          than this code knows; FW_ENOMEM. *out is NULL on error, and
 *          fw_last_error() says why, naming the path.
 */
int fw_store_open(const char *path, fw_store **out);

/**
 * Open an existing hand database read-only (exports). Schema versions 1 up
 * to FW_STORE_SCHEMA_VERSION are read as they are; nothing is migrated.
 * \returns as fw_store_open(); FW_EIO also when the file does not exist.
 */
int fw_store_open_readonly(const char *path, fw_store **out);

/**
 * Write what can still be written and close. A hand in progress is written
 * with status "incomplete"; hands that still cannot be written are lost.
 * \returns FW_OK, or FW_EIO when some hand could not be written (then
 *          fw_last_error() says how many). Accepts NULL (FW_OK).
 */
int fw_store_close(fw_store *s);

/**
 * Name the table the hands are played at (hands.table_name); applies to
 * hands that start from now on. NULL or "" for none. At most 63 bytes kept.
 */
void fw_store_set_table(fw_store *s, const char *name);

/**
 * Note one input event; call it before fw_engine_apply() with the event.
 * \param json_line the event's JSON line as read (a trailing newline is
 *        dropped), or NULL to have the store write the line from ev.
 * \returns FW_OK; FW_EIO when this event made the store write a hand (an
 *          abandoned one) and the write failed (the hand is kept: see
 *          fw_store_pending()); FW_ESTATE on a read-only store; FW_ENOMEM.
 */
int fw_store_event(fw_store *s, const fw_event *ev, const char *json_line);

/**
 * Note one output record of the engine, in the order emitted.
 * \param json_line the record's JSON line (fw_protocol_write_record), or
 *        NULL to have the store write it.
 * \returns FW_OK; FW_EIO when the record ended a hand and writing it (or an
 *          older pending hand) failed: the hands stay in memory and are
 *          written again at the next hand end or fw_store_flush();
 *          FW_ESTATE on a read-only store; FW_ENOMEM.
 */
int fw_store_record(fw_store *s, const fw_record *rec, const char *json_line);

/** Try again to write the hands fw_store_pending() counts. */
int fw_store_flush(fw_store *s);

/** Ended hands held in memory because writing them failed. */
int fw_store_pending(const fw_store *s);

/** Hands written by this store since it was opened. */
int64_t fw_store_written(const fw_store *s);

/**
 * Create path if needed and migrate its schema up to `version` only
 * (1..FW_STORE_SCHEMA_VERSION); for tests that need a file as an older
 * feltwatch wrote it, and for tools. A file already past `version` is left
 * as it is. \returns as fw_store_open(); FW_EINVAL for a bad version.
 */
int fw_store_upgrade(const char *path, int version);

/* ------------------------------------------------------------------ */
/* Reading hands back (exports)                                         */
/* ------------------------------------------------------------------ */

/** Actions of the hand history (actions.action). */
typedef enum fw_store_act {
    FW_SACT_ANTE = 0,
    FW_SACT_SMALL_BLIND,
    FW_SACT_BIG_BLIND,
    FW_SACT_CHECK,
    FW_SACT_CALL,
    FW_SACT_BET,
    FW_SACT_RAISE,
    FW_SACT_FOLD,
    FW_SACT_BOARD, /* the dealer turns cards: seat 0 */
    FW_SACT_SHOW,
    FW_SACT_MUCK,
    FW_SACT_UNCALLED, /* a bet nobody called, handed back: added chips */
    FW_SACT_COUNT
} fw_store_act;

/** The name stored in actions.action ("small_blind"); NULL if invalid. */
const char *fw_store_act_name(fw_store_act a);

typedef struct fw_store_action {
    fw_street street; /* FW_ST_PREFLOP .. FW_ST_SHOWDOWN */
    int seat;         /* 0 for the dealer */
    fw_store_act act;
    int64_t to;    /* the seat's total bet on the street afterwards */
    int64_t added; /* chips the action put in */
    int all_in;
    int ncards;
    fw_card cards[FW_MAX_HOLE];
} fw_store_action;

typedef struct fw_store_player {
    int seat;
    char name[FW_MAX_NAME];
    int64_t starting_stack; /* -1 when unknown */
    int64_t final_stack;    /* -1 when unknown */
    int dealt_in;
    int64_t blind, ante; /* posted at the start of the hand */
    int nhole;           /* hole cards seen dealt to the seat */
    fw_card hole[FW_MAX_HOLE];
    int nshown; /* cards tabled */
    fw_card shown[FW_MAX_HOLE];
} fw_store_player;

typedef struct fw_store_award {
    int pot; /* 0 = main */
    int seat;
    int64_t amount;
    char hand[64];
    int odd_chip;
} fw_store_award;

/**
 * One hand as stored. Every field is checked on the way in: a row that does
 * not make sense (a seat beyond the table, an unknown name, cards that do
 * not parse) is dropped or read as unknown, never trusted.
 */
typedef struct fw_store_hand {
    int64_t id;
    int hand_no;
    char table_name[64];
    char status[16];
    fw_game game;
    fw_profile_id profile;
    int table_seats;
    int64_t sb, bb, ante, small_bet, big_bet;
    fw_ante_type ante_type;
    int button;
    int nboard;
    fw_card board[5];
    int64_t pot;
    int misdeals;
    int has_started_at, has_ended_at;
    double started_at, ended_at;
    char started_utc[32]; /* "2026-11-21T14:03:07Z" or "" */
    char ended_utc[32];
    int nplayers; /* in seat order */
    fw_store_player players[FW_MAX_SEATS];
    int nawards;
    fw_store_award awards[FW_MAX_POTS * FW_MAX_SEATS];
    int nactions;
    fw_store_action *actions;
} fw_store_hand;

/**
 * The ids of the stored hands, oldest first: all of them, or those with
 * hand number `hand_no` (when > 0) at table `table` (when not NULL).
 * \param ids receives a malloc'd array (NULL when none), free() it.
 * \returns FW_OK, FW_EIO, FW_ENOMEM.
 */
int fw_store_list_hands(fw_store *s, int hand_no, const char *table,
                        int64_t **ids, size_t *n);

/**
 * Load one hand. \returns FW_OK, FW_ENOENT (no such id), FW_EIO,
 * FW_ENOMEM; *out is NULL on error.
 */
int fw_store_load_hand(fw_store *s, int64_t id, fw_store_hand **out);

/** Free a loaded hand; accepts NULL. */
void fw_store_hand_free(fw_store_hand *h);

#endif
