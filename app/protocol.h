/*
 * protocol.h - the table event protocol (PROTOCOL.md) as JSON Lines: the
 * reader that turns one input line into an fw_event, and the writer that
 * turns an fw_record into one output line. Private to the app module.
 *
 * Ownership: nothing returned here is borrowed from the library. The reader
 * fills a caller-owned fw_event and error buffer and keeps nothing. The
 * writer is opaque, created by fw_protocol_writer_new() and freed by
 * fw_protocol_writer_free() (which accepts NULL); it writes into a
 * caller-owned buffer. Records passed in are read, never kept.
 *
 * Threading: the reader is reentrant. A writer is used from one thread at a
 * time; distinct writers are independent. Both use yajl, the reader jansson
 * too; both are safe to use from several threads on distinct values.
 */
#ifndef FW_PROTOCOL_H
#define FW_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#include "rules.h"

/** fw_protocol_parse_line() result for a blank line: skip it. */
#define FW_PROTOCOL_SKIP 1

/**
 * The largest chip amount the reader accepts (10^15) in any amount field
 * (stack, blinds, antes, bets, chip values, said amounts). Far above any
 * real table, and low enough that the engine can add up every chip of a
 * table (10 seats x 256 chips per push, ...) without int64 overflow.
 */
#define FW_PROTOCOL_MAX_AMOUNT INT64_C(1000000000000000)

/** An error buffer of this size holds any message of the reader. */
#define FW_PROTOCOL_ERR_MAX 256

/**
 * A buffer of this size holds any record the writer writes, whatever the
 * texts contain (every byte escaped as \u00XX at worst).
 */
#define FW_PROTOCOL_RECORD_MAX 16384

/**
 * Parse one line of input events (PROTOCOL.md "Input events").
 *
 * The line is one JSON object with a string "type"; unknown fields are
 * ignored, and a JSON null in an optional field reads as the field left out.
 * Anything else is an error that names the line and the field: a value of
 * the wrong kind, a required field missing, an unknown type or name
 * (game, rules, word, decision, to, face, ante_type), a seat outside
 * 1..FW_MAX_SEATS, an amount that is not an integer in
 * 0..FW_PROTOCOL_MAX_AMOUNT (a JSON real such as 100.0 or 1e3 is not an
 * integer), more than FW_MAX_CHIPS_PER_EVENT chips, a chip value below 1, a
 * card other than two characters fw_card_parse() accepts, a player name
 * longer than FW_MAX_NAME - 1 bytes. Duplicate keys in an object are an
 * error (JSON_REJECT_DUPLICATES): a line that says "seat" twice has no one
 * meaning. So are invalid UTF-8, "\u0000" in a string, trailing text after
 * the object, and integers beyond int64 (jansson's own messages). Any byte
 * sequence is safe to pass.
 *
 * Fields read per type, beyond the optional number "t" (>= 0) on every one:
 * - table: seats (2..10), game, rules (default "tda"), chips
 *   [{value >= 1, color (string)}] up to FW_MAX_CHIP_SET, raise_cap (>= 0).
 * - level: sb, bb, ante, ante_type ("bb" default, "each"), small_bet, big_bet.
 * - seat: seat, player (string of 1..FW_MAX_NAME-1 bytes, or null to empty
 *   the seat; required), stack (optional: has_stack).
 * - button, away, present, fold, muck, clock: seat.
 * - penalty: seat, hands (>= 1).
 * - hand_start: nothing.
 * - card: to; seat (required when to is "seat", read when present
 *   otherwise); face (default "down", "up" for to "board"); card (optional;
 *   ev->card is FW_CARD_NONE when left out: the engine decides).
 * - say: seat, word (optional: FW_WORD_NONE, and then amount is required),
 *   amount (optional: has_amount).
 * - push: seat, chips (1..FW_MAX_CHIPS_PER_EVENT integers >= 1).
 * - pull: seat, chips (0..FW_MAX_CHIPS_PER_EVENT integers >= 1).
 * - show: seat, cards (1..FW_MAX_HOLE distinct cards).
 * - floor: decision, seat (optional; 0 when left out).
 * - tick: t (required).
 *
 * \param line   the bytes of the line; need not be NUL-terminated, may end
 *               in "\n" or "\r\n".
 * \param len    number of bytes in line.
 * \param lineno the line number put in error messages ("line 7: ...").
 * \param ev     filled on success; zeroed first in every case (ev->card is
 *               FW_CARD_NONE unless a card was given).
 * \param err    receives the message on error, e.g.
 *               `line 7: field "amount": must be a non-negative integer`;
 *               may be NULL. Truncated to errsz bytes (FW_PROTOCOL_ERR_MAX
 *               is always enough). The message is also left for
 *               fw_last_error().
 * \returns FW_OK, FW_PROTOCOL_SKIP for an empty or whitespace-only line,
 *          FW_EPARSE for a malformed line, FW_EINVAL for NULL line or ev.
 */
int fw_protocol_parse_line(const char *line, size_t len, long lineno,
                           fw_event *ev, char *err, size_t errsz);

/** Writes output records as JSON Lines; holds a reusable yajl generator. */
typedef struct fw_protocol_writer fw_protocol_writer;

/**
 * Create a writer.
 * \returns FW_OK, or FW_ENOMEM.
 */
int fw_protocol_writer_new(fw_protocol_writer **out);

/** Free a writer; accepts NULL. */
void fw_protocol_writer_free(fw_protocol_writer *w);

/**
 * Write one output record (PROTOCOL.md "Output records") as one compact
 * JSON line with its fields in the documented order, "type" first, followed
 * by "\n" and a NUL.
 *
 * Optional fields: ruling "why" and alert "why" are left out when NULL or
 * "", alert "seat" when 0, a winner's "hand" when "". Nulls: state "to_act"
 * and "button" when 0, "min_raise_to"/"max_raise_to" when FW_NULL_AMOUNT,
 * award "odd_chip" when 0. A NULL rule or remedy is written as "". Texts are
 * read up to their NUL or the end of their array; bytes that are not valid
 * UTF-8 are written as "?".
 *
 * \param w    the writer.
 * \param rec  the record.
 * \param buf  receives the line; FW_PROTOCOL_RECORD_MAX bytes always suffice.
 * \param size bytes available in buf.
 * \param len  receives the length of the line with its "\n", without the
 *             NUL; on FW_ERANGE, the size buf would need. May be NULL.
 * \returns FW_OK; FW_ERANGE when buf is too small (nothing usable is
 *          written); FW_EINVAL for an enum value or count outside its range
 *          or a NULL alert kind (nothing is written); FW_ENOMEM.
 */
int fw_protocol_write_record(fw_protocol_writer *w, const fw_record *rec,
                             char *buf, size_t size, size_t *len);

#endif
