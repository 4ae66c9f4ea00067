/*
 * protocol.c - JSON Lines reader for input events and writer for output
 * records (PROTOCOL.md), on jansson.
 */
#include "protocol.h"

#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Reader                                                               */
/* ------------------------------------------------------------------ */

/* What a parse of one line knows, for its error messages. */
typedef struct parse_ctx {
    json_t *root;
    long lineno;
    const char *type_name;
    char *err;
    size_t errsz;
} parse_ctx;

/*
 * Copy at most max bytes of untrusted text s (n bytes) into out as printable
 * ASCII for an error message: bytes outside 0x20..0x7e become \xNN, '"' and
 * '\' are escaped when quoted (the text goes between double quotes), and
 * "..." marks a cut. out holds EXCERPT_SIZE(max) bytes.
 */
#define EXCERPT_SIZE(max) ((max)*4 + 4)
#define SHORT_EXCERPT 32
static void excerpt(const char *s, size_t n, size_t max, int quoted, char *out)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    size_t cut = n > max ? max : n;
    for (size_t i = 0; i < cut; i++) {
        unsigned char c = (unsigned char)s[i];
        if (quoted && (c == '"' || c == '\\')) {
            out[o++] = '\\';
            out[o++] = (char)c;
        } else if (c >= 0x20 && c < 0x7f) {
            out[o++] = (char)c;
        } else {
            out[o++] = '\\';
            out[o++] = 'x';
            out[o++] = hex[c >> 4];
            out[o++] = hex[c & 15];
        }
    }
    if (cut < n) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o] = '\0';
}

/*
 * Write "line N: " and the formatted message into the caller's error buffer
 * and into fw_last_error(). Always returns FW_EPARSE.
 */
__attribute__((format(printf, 2, 3))) static int fail(parse_ctx *p,
                                                      const char *fmt, ...)
{
    char msg[FW_PROTOCOL_ERR_MAX];
    int n = snprintf(msg, sizeof msg, "line %ld: ", p->lineno);
    if (n < 0)
        n = 0;
    if ((size_t)n < sizeof msg) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
        va_end(ap);
    }
    if (p->err && p->errsz > 0)
        snprintf(p->err, p->errsz, "%s", msg);
    return fw_set_error(FW_EPARSE, "%s", msg);
}

/* The value of key, or NULL when the key is absent or null. */
static json_t *opt(const parse_ctx *p, const char *key)
{
    json_t *v = json_object_get(p->root, key);
    return json_is_null(v) ? NULL : v;
}

/* The value of key, or an error naming the key when absent or null. */
static int need(parse_ctx *p, const char *key, json_t **out)
{
    *out = opt(p, key);
    if (!*out)
        return fail(p, "field \"%s\": required for type \"%s\"", key,
                    p->type_name);
    return FW_OK;
}

/*
 * Read integer field key into *out, checking lo <= value <= hi.
 * required: absent is an error; otherwise absent leaves *out alone and sets
 * *present (may be NULL) to 0. what describes the accepted values in the
 * message ("a non-negative integer"); a value above hi gets "must be at most
 * hi" instead when what does not state the upper bound (big_hi).
 */
static int int_field(parse_ctx *p, const char *key, int required, json_int_t lo,
                     json_int_t hi, int big_hi, const char *what,
                     json_int_t *out, int *present)
{
    json_t *v;
    if (present)
        *present = 0;
    if (required) {
        int rc = need(p, key, &v);
        if (rc)
            return rc;
    } else {
        v = opt(p, key);
        if (!v)
            return FW_OK;
    }
    if (!json_is_integer(v) || json_integer_value(v) < lo)
        return fail(p, "field \"%s\": must be %s", key, what);
    json_int_t x = json_integer_value(v);
    if (x > hi && big_hi)
        return fail(p, "field \"%s\": must be at most %lld", key,
                    (long long)hi);
    if (x > hi)
        return fail(p, "field \"%s\": must be %s", key, what);
    *out = x;
    if (present)
        *present = 1;
    return FW_OK;
}

/* A seat number 1..FW_MAX_SEATS. */
static int seat_field(parse_ctx *p, const char *key, int required, int *out,
                      int *present)
{
    json_int_t x = 0;
    int have = 0;
    int rc = int_field(p, key, required, 1, FW_MAX_SEATS, 0, "a seat 1..10", &x,
                       &have);
    _Static_assert(FW_MAX_SEATS == 10, "message says 1..10");
    if (rc == FW_OK && have)
        *out = (int)x;
    if (present)
        *present = have;
    return rc;
}

/* An amount of chips 0..FW_PROTOCOL_MAX_AMOUNT. */
static int amount_field(parse_ctx *p, const char *key, int required,
                        int64_t *out, int *present)
{
    json_int_t x = 0;
    int have = 0;
    int rc = int_field(p, key, required, 0, FW_PROTOCOL_MAX_AMOUNT, 1,
                       "a non-negative integer", &x, &have);
    if (rc == FW_OK && have)
        *out = (int64_t)x;
    if (present)
        *present = have;
    return rc;
}

/*
 * Read a name field and look it up with lookup(); what names the kind of
 * name in the message ("game"). Absent and not required: *out is untouched.
 */
static int name_field(parse_ctx *p, const char *key, int required,
                      int (*lookup)(const char *), const char *what, int *out)
{
    json_t *v;
    if (required) {
        int rc = need(p, key, &v);
        if (rc)
            return rc;
    } else {
        v = opt(p, key);
        if (!v)
            return FW_OK;
    }
    if (!json_is_string(v))
        return fail(p, "field \"%s\": must be a string", key);
    int x = lookup(json_string_value(v));
    if (x < 0) {
        char ex[EXCERPT_SIZE(SHORT_EXCERPT)];
        excerpt(json_string_value(v), json_string_length(v), SHORT_EXCERPT, 1,
                ex);
        return fail(p, "field \"%s\": unknown %s \"%s\"", key, what, ex);
    }
    *out = x;
    return FW_OK;
}

static int face_from_name(const char *s)
{
    if (strcmp(s, "down") == 0)
        return FW_FACE_DOWN;
    if (strcmp(s, "up") == 0)
        return FW_FACE_UP;
    return -1;
}

static int ante_type_from_name(const char *s)
{
    if (strcmp(s, "bb") == 0)
        return FW_ANTE_BB;
    if (strcmp(s, "each") == 0)
        return FW_ANTE_EACH;
    return -1;
}

/*
 * Parse the card string v (the value of field key) into *out. A card is
 * exactly two characters that fw_card_parse() accepts.
 */
static int card_value(parse_ctx *p, const char *key, const json_t *v,
                      fw_card *out)
{
    if (!json_is_string(v))
        return fail(p, "field \"%s\": must be a card string like \"Ah\"", key);
    const char *s = json_string_value(v);
    size_t n = json_string_length(v);
    if (n != 2 || fw_card_parse(s, out) != FW_OK) {
        char ex[EXCERPT_SIZE(SHORT_EXCERPT)];
        excerpt(s, n, SHORT_EXCERPT, 1, ex);
        return fail(p, "field \"%s\": \"%s\" is not a card", key, ex);
    }
    return FW_OK;
}

/*
 * Read the chip list of push/pull into ev->chips: at least min_count and at
 * most FW_MAX_CHIPS_PER_EVENT integers, each 1..FW_PROTOCOL_MAX_AMOUNT.
 */
static int chips_field(parse_ctx *p, size_t min_count, fw_event *ev)
{
    json_t *v;
    int rc = need(p, "chips", &v);
    if (rc)
        return rc;
    if (!json_is_array(v))
        return fail(p, "field \"chips\": must be an array of chip values");
    size_t n = json_array_size(v);
    if (n < min_count)
        return fail(p, "field \"chips\": must not be empty");
    if (n > FW_MAX_CHIPS_PER_EVENT)
        return fail(p, "field \"chips\": more than %d chips",
                    FW_MAX_CHIPS_PER_EVENT);
    for (size_t i = 0; i < n; i++) {
        json_t *c = json_array_get(v, i);
        if (!json_is_integer(c) || json_integer_value(c) < 1)
            return fail(p,
                        "field \"chips\": element %zu must be a positive "
                        "integer",
                        i + 1);
        if (json_integer_value(c) > FW_PROTOCOL_MAX_AMOUNT)
            return fail(p, "field \"chips\": element %zu is larger than %lld",
                        i + 1, (long long)FW_PROTOCOL_MAX_AMOUNT);
        ev->chips[i] = (int64_t)json_integer_value(c);
    }
    ev->nchips = (int)n;
    return FW_OK;
}

/* table: the chip set, a list of {"value": v, "color": "..."}. */
static int chip_set_field(parse_ctx *p, fw_event *ev)
{
    json_t *v = opt(p, "chips");
    if (!v)
        return FW_OK;
    if (!json_is_array(v))
        return fail(p, "field \"chips\": must be an array of "
                       "{\"value\", \"color\"} objects");
    size_t n = json_array_size(v);
    if (n > FW_MAX_CHIP_SET)
        return fail(p, "field \"chips\": more than %d chip values",
                    FW_MAX_CHIP_SET);
    for (size_t i = 0; i < n; i++) {
        json_t *c = json_array_get(v, i);
        if (!json_is_object(c))
            return fail(p, "field \"chips\": element %zu must be an object",
                        i + 1);
        json_t *value = json_object_get(c, "value");
        if (!json_is_integer(value) || json_integer_value(value) < 1 ||
            json_integer_value(value) > FW_PROTOCOL_MAX_AMOUNT)
            return fail(p,
                        "field \"chips\": element %zu: \"value\" must be an "
                        "integer 1..%lld",
                        i + 1, (long long)FW_PROTOCOL_MAX_AMOUNT);
        json_t *color = json_object_get(c, "color");
        if (color && !json_is_string(color) && !json_is_null(color))
            return fail(p,
                        "field \"chips\": element %zu: \"color\" must be a "
                        "string",
                        i + 1);
        ev->chip_set[i] = (int64_t)json_integer_value(value);
    }
    ev->nchip_set = (int)n;
    return FW_OK;
}

static int parse_table(parse_ctx *p, fw_event *ev)
{
    json_int_t x = 0;
    int g = 0, prof = FW_PROFILE_TDA;
    int rc = int_field(p, "seats", 1, 2, FW_MAX_SEATS, 0, "an integer 2..10",
                       &x, NULL);
    if (rc)
        return rc;
    ev->seats = (int)x;
    if ((rc = name_field(p, "game", 1, fw_game_from_name, "game", &g)))
        return rc;
    ev->game = (fw_game)g;
    if ((rc = name_field(p, "rules", 0, fw_profile_from_name, "rules", &prof)))
        return rc;
    ev->profile = (fw_profile_id)prof;
    if ((rc = chip_set_field(p, ev)))
        return rc;
    x = 0;
    if ((rc = int_field(p, "raise_cap", 0, 0, INT_MAX, 1,
                        "a non-negative integer", &x, NULL)))
        return rc;
    ev->raise_cap = (int)x;
    return FW_OK;
}

static int parse_level(parse_ctx *p, fw_event *ev)
{
    int rc, at = FW_ANTE_BB;
    if ((rc = amount_field(p, "sb", 1, &ev->sb, NULL)) ||
        (rc = amount_field(p, "bb", 1, &ev->bb, NULL)) ||
        (rc = amount_field(p, "ante", 0, &ev->ante, NULL)) ||
        (rc = name_field(p, "ante_type", 0, ante_type_from_name, "ante_type",
                         &at)) ||
        (rc = amount_field(p, "small_bet", 0, &ev->small_bet, NULL)) ||
        (rc = amount_field(p, "big_bet", 0, &ev->big_bet, NULL)))
        return rc;
    ev->ante_type = (fw_ante_type)at;
    return FW_OK;
}

static int parse_seat_event(parse_ctx *p, fw_event *ev)
{
    int rc = seat_field(p, "seat", 1, &ev->seat, NULL);
    if (rc)
        return rc;
    json_t *v = json_object_get(p->root, "player");
    if (!v)
        return fail(p, "field \"player\": required for type \"seat\" "
                       "(a name, or null to empty the seat)");
    if (json_is_string(v)) {
        size_t n = json_string_length(v);
        if (n == 0 || n > FW_MAX_NAME - 1)
            return fail(p, "field \"player\": must be a name of 1..%d bytes",
                        FW_MAX_NAME - 1);
        memcpy(ev->player, json_string_value(v), n);
        ev->player[n] = '\0';
        ev->has_player = 1;
    } else if (!json_is_null(v)) {
        return fail(p, "field \"player\": must be a string or null");
    }
    return amount_field(p, "stack", 0, &ev->stack, &ev->has_stack);
}

static int parse_card_event(parse_ctx *p, fw_event *ev)
{
    int to = 0, rc;
    if ((rc = name_field(p, "to", 1, fw_card_to_from_name, "destination", &to)))
        return rc;
    ev->to = (fw_card_to)to;
    if ((rc = seat_field(p, "seat", ev->to == FW_TO_SEAT, &ev->seat, NULL)))
        return rc;
    int face = ev->to == FW_TO_BOARD ? FW_FACE_UP : FW_FACE_DOWN;
    if ((rc = name_field(p, "face", 0, face_from_name, "face", &face)))
        return rc;
    ev->face = (fw_face)face;
    json_t *c = opt(p, "card");
    if (c)
        return card_value(p, "card", c, &ev->card);
    return FW_OK;
}

static int parse_say(parse_ctx *p, fw_event *ev)
{
    int word = FW_WORD_NONE, rc;
    if ((rc = seat_field(p, "seat", 1, &ev->seat, NULL)) ||
        (rc = name_field(p, "word", 0, fw_word_from_name, "word", &word)))
        return rc;
    ev->word = (fw_word)word;
    /* PROTOCOL say: no word means an amount alone was said (Rule 40-B). */
    return amount_field(p, "amount", ev->word == FW_WORD_NONE, &ev->amount,
                        &ev->has_amount);
}

static int parse_show(parse_ctx *p, fw_event *ev)
{
    json_t *v;
    int rc;
    if ((rc = seat_field(p, "seat", 1, &ev->seat, NULL)) ||
        (rc = need(p, "cards", &v)))
        return rc;
    if (!json_is_array(v) || json_array_size(v) < 1 ||
        json_array_size(v) > FW_MAX_HOLE)
        return fail(p, "field \"cards\": must be an array of 1..%d cards",
                    FW_MAX_HOLE);
    size_t n = json_array_size(v);
    for (size_t i = 0; i < n; i++) {
        if ((rc = card_value(p, "cards", json_array_get(v, i), &ev->cards[i])))
            return rc;
        for (size_t j = 0; j < i; j++) {
            if (ev->cards[j] == ev->cards[i]) {
                char s[3];
                fw_card_str(ev->cards[i], s);
                return fail(p, "field \"cards\": \"%s\" appears twice", s);
            }
        }
    }
    ev->ncards = (int)n;
    return FW_OK;
}

static int parse_penalty(parse_ctx *p, fw_event *ev)
{
    json_int_t x = 0;
    int rc;
    if ((rc = seat_field(p, "seat", 1, &ev->seat, NULL)) ||
        (rc = int_field(p, "hands", 1, 1, INT_MAX, 1, "a positive integer", &x,
                        NULL)))
        return rc;
    ev->hands = (int)x;
    return FW_OK;
}

static int parse_floor(parse_ctx *p, fw_event *ev)
{
    int d = 0;
    int rc =
        name_field(p, "decision", 1, fw_decision_from_name, "decision", &d);
    if (rc)
        return rc;
    ev->decision = (fw_decision)d;
    return seat_field(p, "seat", 0, &ev->seat, NULL);
}

/* The optional time stamp "t" of every event; required by tick. */
static int time_field(parse_ctx *p, int required, fw_event *ev)
{
    json_t *v;
    if (required) {
        int rc = need(p, "t", &v);
        if (rc)
            return rc;
    } else {
        v = opt(p, "t");
        if (!v)
            return FW_OK;
    }
    /* JSON has no NaN or infinity, and jansson rejects overflowing reals. */
    if (!json_is_number(v) || json_number_value(v) < 0)
        return fail(p, "field \"t\": must be a non-negative number");
    ev->t = json_number_value(v);
    ev->has_t = 1;
    return FW_OK;
}

/* Fill ev from the fields of p->root for the type already in ev->type. */
static int parse_fields(parse_ctx *p, fw_event *ev)
{
    int rc;
    switch (ev->type) {
    case FW_EV_TABLE:
        rc = parse_table(p, ev);
        break;
    case FW_EV_LEVEL:
        rc = parse_level(p, ev);
        break;
    case FW_EV_SEAT:
        rc = parse_seat_event(p, ev);
        break;
    case FW_EV_BUTTON:
    case FW_EV_AWAY:
    case FW_EV_PRESENT:
    case FW_EV_FOLD:
    case FW_EV_MUCK:
    case FW_EV_CLOCK:
        rc = seat_field(p, "seat", 1, &ev->seat, NULL);
        break;
    case FW_EV_PENALTY:
        rc = parse_penalty(p, ev);
        break;
    case FW_EV_HAND_START:
        rc = FW_OK;
        break;
    case FW_EV_CARD:
        rc = parse_card_event(p, ev);
        break;
    case FW_EV_SAY:
        rc = parse_say(p, ev);
        break;
    case FW_EV_PUSH:
    case FW_EV_PULL:
        rc = seat_field(p, "seat", 1, &ev->seat, NULL);
        if (rc == FW_OK)
            rc = chips_field(p, ev->type == FW_EV_PUSH ? 1 : 0, ev);
        break;
    case FW_EV_SHOW:
        rc = parse_show(p, ev);
        break;
    case FW_EV_FLOOR:
        rc = parse_floor(p, ev);
        break;
    case FW_EV_TICK:
        return time_field(p, 1, ev);
    default:
        return fail(p, "internal: unhandled type");
    }
    if (rc)
        return rc;
    return time_field(p, 0, ev);
}

static int is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
            return 0;
    }
    return 1;
}

/*
 * Whether v is, or holds within depth levels, a JSON real too large for an
 * int64: what an integer literal beyond int64 becomes when the line is read
 * with JSON_DECODE_INT_AS_REAL.
 */
static int holds_huge(const json_t *v, int depth)
{
    if (json_is_real(v)) {
        double x = json_real_value(v);
        return x >= 9223372036854775807.0 || x <= -9223372036854775807.0;
    }
    if (depth <= 0)
        return 0;
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++) {
            if (holds_huge(json_array_get(v, i), depth - 1))
                return 1;
        }
    } else if (json_is_object(v)) {
        const char *key;
        json_t *x;
        json_object_foreach((json_t *)v, key, x)
        {
            if (holds_huge(x, depth - 1))
                return 1;
        }
    }
    return 0;
}

/*
 * Report a line jansson could not read. jansson names no field for an
 * integer beyond int64 ("too big integer"), so for that one error the line
 * is read again with integers as reals, and the first top-level field
 * holding a number that large is named. Always returns FW_EPARSE.
 */
static int json_error(parse_ctx *p, const char *line, size_t len,
                      const json_error_t *jerr)
{
    if (json_error_code(jerr) == json_error_numeric_overflow) {
        json_t *root = json_loadb(
            line, len, JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, NULL);
        const char *key, *found = NULL;
        json_t *v;
        char name[EXCERPT_SIZE(SHORT_EXCERPT)];
        if (json_is_object(root)) {
            json_object_foreach(root, key, v)
            {
                if (holds_huge(v, 16)) {
                    found = key;
                    break;
                }
            }
        }
        if (found)
            excerpt(found, strlen(found), SHORT_EXCERPT, 1, name);
        json_decref(root);
        if (found)
            return fail(p, "field \"%s\": integer out of range", name);
    }
    char ex[EXCERPT_SIZE(JSON_ERROR_TEXT_LENGTH)];
    excerpt(jerr->text, strnlen(jerr->text, sizeof jerr->text),
            JSON_ERROR_TEXT_LENGTH, 0, ex);
    if (jerr->column > 0)
        return fail(p, "not valid JSON: %s at column %d", ex, jerr->column);
    return fail(p, "not valid JSON: %s", ex);
}

int fw_protocol_parse_line(const char *line, size_t len, long lineno,
                           fw_event *ev, char *err, size_t errsz)
{
    parse_ctx p = {NULL, lineno, "", err, errsz};
    if (err && errsz > 0)
        err[0] = '\0';
    if (!ev || (!line && len > 0))
        return fw_set_error(FW_EINVAL, "fw_protocol_parse_line: NULL");
    memset(ev, 0, sizeof *ev);
    ev->card = FW_CARD_NONE;
    if (is_blank(line, len))
        return FW_PROTOCOL_SKIP;

    json_error_t jerr;
    p.root = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!p.root)
        return json_error(&p, line, len, &jerr);

    int rc;
    json_t *type = json_object_get(p.root, "type");
    if (!json_is_object(p.root)) {
        rc = fail(&p, "not a JSON object");
    } else if (!type) {
        rc = fail(&p, "field \"type\": required");
    } else if (!json_is_string(type)) {
        rc = fail(&p, "field \"type\": must be a string");
    } else {
        int t = fw_event_type_from_name(json_string_value(type));
        if (t < 0) {
            char ex[EXCERPT_SIZE(SHORT_EXCERPT)];
            excerpt(json_string_value(type), json_string_length(type),
                    SHORT_EXCERPT, 1, ex);
            rc = fail(&p, "unknown type \"%s\"", ex);
        } else {
            ev->type = (fw_event_type)t;
            p.type_name = fw_event_type_name(ev->type);
            rc = parse_fields(&p, ev);
        }
    }
    json_decref(p.root);
    if (rc) {
        memset(ev, 0, sizeof *ev);
        ev->card = FW_CARD_NONE;
    }
    return rc;
}

/* ------------------------------------------------------------------ */
/* Writer                                                               */
/* ------------------------------------------------------------------ */

static const char *const record_type_names[] = {"ruling", "alert", "state",
                                                "award", "hand_end"};

#define NCARDS 52

/*
 * The strings a record is made of that come from fixed tables, made once
 * and shared by reference: a state record holds some twenty of them, and
 * each fresh jansson string costs two allocations.
 */
struct fw_protocol_writer {
    json_t *type[FW_REC_HAND_END + 1];
    json_t *action[FW_ACT_COUNT];
    json_t *severity[FW_SEV_STOP + 1];
    json_t *street[FW_ST_COMPLETE + 1];
    json_t *status[FW_SEAT_DEAD + 1];
    json_t *card[NCARDS + 1]; /* [NCARDS]: "??", what an invalid card shows */
};

/* Decref and clear the n values of a table; accepts NULL entries. */
static void drop_all(json_t **v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        json_decref(v[i]);
        v[i] = NULL;
    }
}

/* Fill v[0..n) with strings of name(i); 0 on success, -1 on ENOMEM. */
static int make_names(json_t **v, size_t n, const char *(*name)(int))
{
    for (size_t i = 0; i < n; i++) {
        v[i] = json_string_nocheck(name((int)i));
        if (!v[i])
            return -1;
    }
    return 0;
}

static const char *type_name_at(int i)
{
    return record_type_names[i];
}
static const char *action_name_at(int i)
{
    return fw_action_name((fw_action)i);
}
static const char *severity_name_at(int i)
{
    return fw_severity_name((fw_severity)i);
}
static const char *street_name_at(int i)
{
    return fw_street_name((fw_street)i);
}
static const char *status_name_at(int i)
{
    return fw_seat_status_name((fw_seat_status)i);
}

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

int fw_protocol_writer_new(fw_protocol_writer **out)
{
    fw_protocol_writer *w = calloc(1, sizeof *w);
    if (!w)
        return fw_set_error(FW_ENOMEM, "out of memory");
    int bad =
        make_names(w->type, COUNT_OF(w->type), type_name_at) ||
        make_names(w->action, COUNT_OF(w->action), action_name_at) ||
        make_names(w->severity, COUNT_OF(w->severity), severity_name_at) ||
        make_names(w->street, COUNT_OF(w->street), street_name_at) ||
        make_names(w->status, COUNT_OF(w->status), status_name_at);
    for (int c = 0; !bad && c <= NCARDS; c++) {
        char s[3];
        fw_card_str(c < NCARDS ? (fw_card)c : FW_CARD_NONE, s);
        w->card[c] = json_string_nocheck(s);
        bad = !w->card[c];
    }
    if (bad) {
        fw_protocol_writer_free(w);
        return fw_set_error(FW_ENOMEM, "out of memory");
    }
    *out = w;
    return FW_OK;
}

void fw_protocol_writer_free(fw_protocol_writer *w)
{
    if (!w)
        return;
    drop_all(w->type, COUNT_OF(w->type));
    drop_all(w->action, COUNT_OF(w->action));
    drop_all(w->severity, COUNT_OF(w->severity));
    drop_all(w->street, COUNT_OF(w->street));
    drop_all(w->status, COUNT_OF(w->status));
    drop_all(w->card, COUNT_OF(w->card));
    free(w);
}

/*
 * Length of the next valid UTF-8 sequence at s (n bytes left), or 0 when the
 * bytes there are not one (RFC 3629: no overlongs, no surrogates, nothing
 * above U+10FFFF).
 */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    size_t len;
    unsigned min;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2;
        min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        min = 0x10000;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    unsigned cp = c & (0x3f >> (len - 1));
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return len;
}

/*
 * A new jansson string of the n bytes at s, each byte that is not part of a
 * valid UTF-8 sequence (and each NUL) replaced by '?'. NULL on ENOMEM.
 */
static json_t *string_sanitized(const char *s, size_t n)
{
    json_t *j = json_stringn(s, n);
    if (j)
        return j;
    char tmp[FW_TEXT_MAX * 2] = {0}; /* zeroed only on this rare path */
    char *buf = n <= sizeof tmp ? tmp : malloc(n);
    if (!buf)
        return NULL;
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        size_t k = u[i] ? utf8_seq(u + i, n - i) : 0;
        if (k == 0) {
            buf[i++] = '?';
        } else {
            memcpy(buf + i, u + i, k);
            i += k;
        }
    }
    j = json_stringn(buf, n);
    if (buf != tmp)
        free(buf);
    return j;
}

/* A string from a NUL-terminated C string; NULL is written as "". */
static json_t *cstr(const char *s)
{
    return s ? string_sanitized(s, strlen(s)) : json_string("");
}

/* A string from a char array of size bytes, up to its NUL. */
static json_t *astr(const char *s, size_t size)
{
    return string_sanitized(s, strnlen(s, size));
}

/* Set key of o to v (taking v's reference); remembers a failure in *bad. */
static void put(json_t *o, const char *key, json_t *v, int *bad)
{
    if (json_object_set_new_nocheck(o, key, v))
        *bad = 1;
}

static void append(json_t *a, json_t *v, int *bad)
{
    if (json_array_append_new(a, v))
        *bad = 1;
}

static json_t *int_or_null(int64_t v, int64_t null_value)
{
    return v == null_value ? json_null() : json_integer(v);
}

static int build_ruling(const fw_protocol_writer *w, const fw_ruling *r,
                        json_t *o, int *bad)
{
    if ((int)r->action < 0 || r->action >= FW_ACT_COUNT)
        return FW_EINVAL;
    put(o, "seat", json_integer(r->seat), bad);
    put(o, "action", json_incref(w->action[r->action]), bad);
    put(o, "to", json_integer(r->to), bad);
    put(o, "returned", json_integer(r->returned), bad);
    if (r->why && r->why[0])
        put(o, "why", cstr(r->why), bad);
    put(o, "rule", cstr(r->rule), bad);
    put(o, "text", astr(r->text, sizeof r->text), bad);
    return FW_OK;
}

static int build_alert(const fw_protocol_writer *w, const fw_alert *a,
                       json_t *o, int *bad)
{
    if ((int)a->severity < 0 || a->severity > FW_SEV_STOP || !a->kind)
        return FW_EINVAL;
    put(o, "kind", cstr(a->kind), bad);
    if (a->why && a->why[0])
        put(o, "why", cstr(a->why), bad);
    put(o, "severity", json_incref(w->severity[a->severity]), bad);
    put(o, "rule", cstr(a->rule), bad);
    put(o, "remedy", cstr(a->remedy), bad);
    put(o, "text", astr(a->text, sizeof a->text), bad);
    if (a->seat != 0)
        put(o, "seat", json_integer(a->seat), bad);
    return FW_OK;
}

static int build_state(const fw_protocol_writer *w, const fw_state *s,
                       json_t *o, int *bad)
{
    if ((int)s->street < 0 || s->street > FW_ST_COMPLETE || s->npots < 0 ||
        s->npots > FW_MAX_POTS || s->nboard < 0 || s->nboard > 5 ||
        s->nseats < 0 || s->nseats > FW_MAX_SEATS)
        return FW_EINVAL;
    for (int i = 0; i < s->npots; i++) {
        if (s->pots[i].nseats < 0 || s->pots[i].nseats > FW_MAX_SEATS)
            return FW_EINVAL;
    }
    for (int i = 0; i < s->nseats; i++) {
        if ((int)s->seats[i].status < 0 || s->seats[i].status > FW_SEAT_DEAD)
            return FW_EINVAL;
    }
    put(o, "hand", json_integer(s->hand), bad);
    put(o, "street", json_incref(w->street[s->street]), bad);
    put(o, "to_act", int_or_null(s->to_act, 0), bad);
    put(o, "to_call", json_integer(s->to_call), bad);
    put(o, "min_raise_to", int_or_null(s->min_raise_to, FW_NULL_AMOUNT), bad);
    put(o, "max_raise_to", int_or_null(s->max_raise_to, FW_NULL_AMOUNT), bad);
    put(o, "pot", json_integer(s->pot), bad);
    json_t *pots = json_array();
    put(o, "pots", pots, bad);
    for (int i = 0; pots && i < s->npots; i++) {
        json_t *po = json_object(), *seats = json_array();
        append(pots, po, bad);
        if (!po) {
            json_decref(seats);
            break;
        }
        put(po, "amount", json_integer(s->pots[i].amount), bad);
        put(po, "seats", seats, bad);
        for (int k = 0; seats && k < s->pots[i].nseats; k++)
            append(seats, json_integer(s->pots[i].seats[k]), bad);
    }
    json_t *board = json_array();
    put(o, "board", board, bad);
    for (int i = 0; board && i < s->nboard; i++) {
        fw_card c = s->board[i];
        append(board, json_incref(w->card[c < NCARDS ? c : NCARDS]), bad);
    }
    put(o, "sa", json_boolean(s->sa), bad);
    put(o, "button", int_or_null(s->button, 0), bad);
    json_t *seats = json_array();
    put(o, "seats", seats, bad);
    for (int i = 0; seats && i < s->nseats; i++) {
        const fw_seat_view *v = &s->seats[i];
        json_t *so = json_object();
        append(seats, so, bad);
        if (!so)
            break;
        put(so, "seat", json_integer(v->seat), bad);
        put(so, "stack", json_integer(v->stack), bad);
        put(so, "bet", json_integer(v->bet), bad);
        put(so, "status", json_incref(w->status[v->status]), bad);
    }
    return FW_OK;
}

static int build_award(const fw_award *a, json_t *o, int *bad)
{
    if (a->nwinners < 0 || a->nwinners > FW_MAX_SEATS)
        return FW_EINVAL;
    put(o, "pot", json_integer(a->pot), bad);
    put(o, "amount", json_integer(a->amount), bad);
    json_t *winners = json_array();
    put(o, "winners", winners, bad);
    for (int i = 0; winners && i < a->nwinners; i++) {
        const fw_award_winner *w = &a->winners[i];
        json_t *wo = json_object();
        append(winners, wo, bad);
        if (!wo)
            break;
        put(wo, "seat", json_integer(w->seat), bad);
        put(wo, "amount", json_integer(w->amount), bad);
        if (w->hand[0])
            put(wo, "hand", astr(w->hand, sizeof w->hand), bad);
    }
    put(o, "odd_chip", int_or_null(a->odd_chip_seat, 0), bad);
    put(o, "rule", cstr(a->rule), bad);
    put(o, "text", astr(a->text, sizeof a->text), bad);
    return FW_OK;
}

static int build_hand_end(const fw_hand_end *h, json_t *o, int *bad)
{
    if (h->nseats < 0 || h->nseats > FW_MAX_SEATS)
        return FW_EINVAL;
    put(o, "hand", json_integer(h->hand), bad);
    json_t *stacks = json_array();
    put(o, "stacks", stacks, bad);
    for (int i = 0; stacks && i < h->nseats; i++) {
        json_t *so = json_object();
        append(stacks, so, bad);
        if (!so)
            break;
        put(so, "seat", json_integer(h->seats[i]), bad);
        put(so, "stack", json_integer(h->stacks[i]), bad);
    }
    return FW_OK;
}

int fw_protocol_write_record(fw_protocol_writer *w, const fw_record *rec,
                             char *buf, size_t size, size_t *len)
{
    if (len)
        *len = 0;
    if (!w || !rec || (!buf && size > 0))
        return fw_set_error(FW_EINVAL, "fw_protocol_write_record: NULL");
    if ((int)rec->type < 0 || (int)rec->type > FW_REC_HAND_END)
        return fw_set_error(FW_EINVAL, "record type %d", (int)rec->type);
    json_t *o = json_object();
    if (!o)
        return fw_set_error(FW_ENOMEM, "out of memory");
    int bad = 0, rc = FW_OK;
    put(o, "type", json_incref(w->type[rec->type]), &bad);
    switch (rec->type) {
    case FW_REC_RULING:
        rc = build_ruling(w, &rec->u.ruling, o, &bad);
        break;
    case FW_REC_ALERT:
        rc = build_alert(w, &rec->u.alert, o, &bad);
        break;
    case FW_REC_STATE:
        rc = build_state(w, &rec->u.state, o, &bad);
        break;
    case FW_REC_AWARD:
        rc = build_award(&rec->u.award, o, &bad);
        break;
    case FW_REC_HAND_END:
        rc = build_hand_end(&rec->u.hand_end, o, &bad);
        break;
    }
    if (rc == FW_OK && bad)
        rc = FW_ENOMEM;
    size_t n = 0;
    if (rc == FW_OK) {
        n = json_dumpb(o, buf, size, JSON_COMPACT);
        if (n == 0)
            rc = FW_ENOMEM;
    }
    json_decref(o);
    if (rc == FW_EINVAL)
        return fw_set_error(rc, "%s record with a value out of range",
                            record_type_names[rec->type]);
    if (rc)
        return fw_set_error(rc, "out of memory");
    if (n + 2 > size) {
        if (len)
            *len = n + 2;
        return fw_set_error(FW_ERANGE, "record needs %zu bytes", n + 2);
    }
    buf[n] = '\n';
    buf[n + 1] = '\0';
    if (len)
        *len = n + 1;
    return FW_OK;
}
