/*
 * protocol.c - JSON Lines reader for input events and writer for output
 * records (PROTOCOL.md).
 *
 * Reader: yajl's event parser reads a line straight into a small table of
 * the fields the protocol knows (line_fields); the checks then fill the
 * fw_event from that table. A line the yajl path does not take (escapes,
 * control bytes, invalid UTF-8, duplicate keys, keys in objects other than
 * the line and its chips, nesting past FAST_MAX_DEPTH, numbers beyond int64
 * or double, anything yajl rejects: see fast_read()) is read by jansson
 * into the same table instead. jansson is the judge of what is
 * valid JSON and words every JSON error, so a line reads the same, and
 * fails with the same message, whichever front end took it; the yajl path
 * only saves jansson's tree of allocations on the lines that are fine.
 *
 * Writer: a yajl generator kept in the writer prints each record straight
 * into the caller's buffer; integers are formatted here (yajl_gen_integer
 * goes through snprintf) and handed to yajl_gen_number.
 */
#include "protocol.h"

#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_gen.h>
#include <yajl/yajl_parse.h>

/*
 * Length of the next valid UTF-8 sequence at s (n bytes left), or 0 when the
 * bytes there are not one (RFC 3629: no overlongs, no surrogates, nothing
 * above U+10FFFF; the rules jansson checks strings by).
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

/* Whether the n bytes at s are all JSON whitespace (or none). */
static int is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
            return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------ */
/* Reader: the fields of a line                                         */
/* ------------------------------------------------------------------ */

/* The fields the reader knows (PROTOCOL.md "Input events"). */
#define READER_FIELDS(X)                                                       \
    X(TYPE, "type")                                                            \
    X(T, "t")                                                                  \
    X(SEATS, "seats")                                                          \
    X(GAME, "game")                                                            \
    X(RULES, "rules")                                                          \
    X(CHIPS, "chips")                                                          \
    X(RAISE_CAP, "raise_cap")                                                  \
    X(SB, "sb")                                                                \
    X(BB, "bb")                                                                \
    X(ANTE, "ante")                                                            \
    X(ANTE_TYPE, "ante_type")                                                  \
    X(SMALL_BET, "small_bet")                                                  \
    X(BIG_BET, "big_bet")                                                      \
    X(SEAT, "seat")                                                            \
    X(PLAYER, "player")                                                        \
    X(STACK, "stack")                                                          \
    X(HANDS, "hands")                                                          \
    X(TO, "to")                                                                \
    X(FACE, "face")                                                            \
    X(CARD, "card")                                                            \
    X(WORD, "word")                                                            \
    X(AMOUNT, "amount")                                                        \
    X(CARDS, "cards")                                                          \
    X(DECISION, "decision")

enum field {
#define X(id, name) F_##id,
    READER_FIELDS(X)
#undef X
        F_COUNT
};

static const char *const field_names[F_COUNT] = {
#define X(id, name) name,
    READER_FIELDS(X)
#undef X
};

static const unsigned char field_lens[F_COUNT] = {
#define X(id, name) sizeof(name) - 1,
    READER_FIELDS(X)
#undef X
};

_Static_assert(F_COUNT <= 32, "line_fields.present is a 32-bit mask");

/* The field named by the n bytes at k, or -1 for one the reader ignores. */
static int field_id(const char *k, size_t n)
{
    for (int id = 0; id < F_COUNT; id++) {
        if (field_lens[id] == n && field_names[id][0] == k[0] &&
            memcmp(field_names[id], k, n) == 0)
            return id;
    }
    return -1;
}

/* The kind of a JSON value; 0 stands for a field left out. */
enum jkind { J_NULL = 1, J_BOOL, J_INT, J_REAL, J_STRING, J_ARRAY, J_OBJECT };

/*
 * A string keeps its first STR_KEEP bytes and its full length: enough for
 * every name, card and player (FW_MAX_NAME - 1 bytes), and for the
 * SHORT_EXCERPT an error message quotes. A longer string is no name.
 */
#define STR_KEEP 63

/* A value as the checks see it (what jansson's json_t told them). */
typedef struct jval {
    unsigned char kind;   /* a jkind, or 0 when left out */
    int64_t i;            /* J_INT */
    double d;             /* J_INT and J_REAL: the value as a number */
    size_t n;             /* J_STRING: length in bytes; J_ARRAY: elements */
    char s[STR_KEEP + 1]; /* J_STRING: its first STR_KEEP bytes, then NUL */
} jval;

/* An element of "chips": only integers are read there. */
typedef struct jnum {
    unsigned char kind;
    int64_t i;
} jnum;

/*
 * The fields of one line. f[id] is set when bit id of present is (a field
 * given as null is present, of kind J_NULL). "chips" keeps its first
 * FW_MAX_CHIPS_PER_EVENT elements, and for object elements among the first
 * FW_MAX_CHIP_SET (a table's chip set) their "value" and the kind of their
 * "color"; "cards" keeps its first FW_MAX_HOLE elements. Further elements
 * are only counted: the checks reject such a count before looking at them.
 */
typedef struct line_fields {
    uint32_t present;
    jval f[F_COUNT];
    jnum chip[FW_MAX_CHIPS_PER_EVENT];
    jnum chip_value[FW_MAX_CHIP_SET];
    unsigned char chip_color[FW_MAX_CHIP_SET];
    jval card[FW_MAX_HOLE];
} line_fields;

/* Keep the n bytes at t as string value v. */
static void keep_string(jval *v, const char *t, size_t n)
{
    size_t k = n < STR_KEEP ? n : STR_KEEP;
    v->kind = J_STRING;
    memcpy(v->s, t, k);
    v->s[k] = '\0';
    v->n = n;
}

/* ------------------------------------------------------------------ */
/* Reader: checking the fields                                          */
/* ------------------------------------------------------------------ */

/* What the checks of one line know, for their error messages. */
typedef struct parse_ctx {
    const line_fields *lf;
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

/* Field id, or NULL when the field was left out (a null is present). */
static const jval *get(const parse_ctx *p, int id)
{
    return (p->lf->present >> id & 1u) ? &p->lf->f[id] : NULL;
}

/* Field id, or NULL when the field is absent or null. */
static const jval *opt(const parse_ctx *p, int id)
{
    const jval *v = get(p, id);
    return v && v->kind == J_NULL ? NULL : v;
}

/* Field id, or an error naming the field when absent or null. */
static int need(parse_ctx *p, int id, const jval **out)
{
    *out = opt(p, id);
    if (!*out)
        return fail(p, "field \"%s\": required for type \"%s\"",
                    field_names[id], p->type_name);
    return FW_OK;
}

/*
 * Read integer field id into *out, checking lo <= value <= hi.
 * required: absent is an error; otherwise absent leaves *out alone and sets
 * *present (may be NULL) to 0. what describes the accepted values in the
 * message ("a non-negative integer"); a value above hi gets "must be at most
 * hi" instead when what does not state the upper bound (big_hi).
 */
static int int_field(parse_ctx *p, int id, int required, int64_t lo, int64_t hi,
                     int big_hi, const char *what, int64_t *out, int *present)
{
    const jval *v;
    const char *key = field_names[id];
    if (present)
        *present = 0;
    if (required) {
        int rc = need(p, id, &v);
        if (rc)
            return rc;
    } else {
        v = opt(p, id);
        if (!v)
            return FW_OK;
    }
    if (v->kind != J_INT || v->i < lo)
        return fail(p, "field \"%s\": must be %s", key, what);
    if (v->i > hi && big_hi)
        return fail(p, "field \"%s\": must be at most %lld", key,
                    (long long)hi);
    if (v->i > hi)
        return fail(p, "field \"%s\": must be %s", key, what);
    *out = v->i;
    if (present)
        *present = 1;
    return FW_OK;
}

/* A seat number 1..FW_MAX_SEATS. */
static int seat_field(parse_ctx *p, int id, int required, int *out,
                      int *present)
{
    int64_t x = 0;
    int have = 0;
    int rc = int_field(p, id, required, 1, FW_MAX_SEATS, 0, "a seat 1..10", &x,
                       &have);
    _Static_assert(FW_MAX_SEATS == 10, "message says 1..10");
    if (rc == FW_OK && have)
        *out = (int)x;
    if (present)
        *present = have;
    return rc;
}

/* An amount of chips 0..FW_PROTOCOL_MAX_AMOUNT. */
static int amount_field(parse_ctx *p, int id, int required, int64_t *out,
                        int *present)
{
    return int_field(p, id, required, 0, FW_PROTOCOL_MAX_AMOUNT, 1,
                     "a non-negative integer", out, present);
}

/*
 * Read a name field and look it up with lookup(); what names the kind of
 * name in the message ("game"). Absent and not required: *out is untouched.
 */
static int name_field(parse_ctx *p, int id, int required,
                      int (*lookup)(const char *), const char *what, int *out)
{
    const jval *v;
    const char *key = field_names[id];
    if (required) {
        int rc = need(p, id, &v);
        if (rc)
            return rc;
    } else {
        v = opt(p, id);
        if (!v)
            return FW_OK;
    }
    if (v->kind != J_STRING)
        return fail(p, "field \"%s\": must be a string", key);
    int x = v->n <= STR_KEEP ? lookup(v->s) : -1;
    if (x < 0) {
        char ex[EXCERPT_SIZE(SHORT_EXCERPT)];
        excerpt(v->s, v->n, SHORT_EXCERPT, 1, ex);
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
 * Parse the card string v (the value of field id) into *out. A card is
 * exactly two characters that fw_card_parse() accepts.
 */
static int card_value(parse_ctx *p, int id, const jval *v, fw_card *out)
{
    const char *key = field_names[id];
    if (v->kind != J_STRING)
        return fail(p, "field \"%s\": must be a card string like \"Ah\"", key);
    if (v->n != 2 || fw_card_parse(v->s, out) != FW_OK) {
        char ex[EXCERPT_SIZE(SHORT_EXCERPT)];
        excerpt(v->s, v->n, SHORT_EXCERPT, 1, ex);
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
    const jval *v;
    int rc = need(p, F_CHIPS, &v);
    if (rc)
        return rc;
    if (v->kind != J_ARRAY)
        return fail(p, "field \"chips\": must be an array of chip values");
    size_t n = v->n;
    if (n < min_count)
        return fail(p, "field \"chips\": must not be empty");
    if (n > FW_MAX_CHIPS_PER_EVENT)
        return fail(p, "field \"chips\": more than %d chips",
                    FW_MAX_CHIPS_PER_EVENT);
    for (size_t i = 0; i < n; i++) {
        const jnum *c = &p->lf->chip[i];
        if (c->kind != J_INT || c->i < 1)
            return fail(p,
                        "field \"chips\": element %zu must be a positive "
                        "integer",
                        i + 1);
        if (c->i > FW_PROTOCOL_MAX_AMOUNT)
            return fail(p, "field \"chips\": element %zu is larger than %lld",
                        i + 1, (long long)FW_PROTOCOL_MAX_AMOUNT);
        ev->chips[i] = c->i;
    }
    ev->nchips = (int)n;
    return FW_OK;
}

/* table: the chip set, a list of {"value": v, "color": "..."}. */
static int chip_set_field(parse_ctx *p, fw_event *ev)
{
    const jval *v = opt(p, F_CHIPS);
    if (!v)
        return FW_OK;
    if (v->kind != J_ARRAY)
        return fail(p, "field \"chips\": must be an array of "
                       "{\"value\", \"color\"} objects");
    size_t n = v->n;
    if (n > FW_MAX_CHIP_SET)
        return fail(p, "field \"chips\": more than %d chip values",
                    FW_MAX_CHIP_SET);
    for (size_t i = 0; i < n; i++) {
        if (p->lf->chip[i].kind != J_OBJECT)
            return fail(p, "field \"chips\": element %zu must be an object",
                        i + 1);
        const jnum *value = &p->lf->chip_value[i];
        if (value->kind != J_INT || value->i < 1 ||
            value->i > FW_PROTOCOL_MAX_AMOUNT)
            return fail(p,
                        "field \"chips\": element %zu: \"value\" must be an "
                        "integer 1..%lld",
                        i + 1, (long long)FW_PROTOCOL_MAX_AMOUNT);
        unsigned color = p->lf->chip_color[i];
        if (color && color != J_STRING && color != J_NULL)
            return fail(p,
                        "field \"chips\": element %zu: \"color\" must be a "
                        "string",
                        i + 1);
        ev->chip_set[i] = value->i;
    }
    ev->nchip_set = (int)n;
    return FW_OK;
}

static int parse_table(parse_ctx *p, fw_event *ev)
{
    int64_t x = 0;
    int g = 0, prof = FW_PROFILE_TDA;
    int rc = int_field(p, F_SEATS, 1, 2, FW_MAX_SEATS, 0, "an integer 2..10",
                       &x, NULL);
    if (rc)
        return rc;
    ev->seats = (int)x;
    if ((rc = name_field(p, F_GAME, 1, fw_game_from_name, "game", &g)))
        return rc;
    ev->game = (fw_game)g;
    if ((rc = name_field(p, F_RULES, 0, fw_profile_from_name, "rules", &prof)))
        return rc;
    ev->profile = (fw_profile_id)prof;
    if ((rc = chip_set_field(p, ev)))
        return rc;
    x = 0;
    if ((rc = int_field(p, F_RAISE_CAP, 0, 0, INT_MAX, 1,
                        "a non-negative integer", &x, NULL)))
        return rc;
    ev->raise_cap = (int)x;
    return FW_OK;
}

static int parse_level(parse_ctx *p, fw_event *ev)
{
    int rc, at = FW_ANTE_BB;
    if ((rc = amount_field(p, F_SB, 1, &ev->sb, NULL)) ||
        (rc = amount_field(p, F_BB, 1, &ev->bb, NULL)) ||
        (rc = amount_field(p, F_ANTE, 0, &ev->ante, NULL)) ||
        (rc = name_field(p, F_ANTE_TYPE, 0, ante_type_from_name, "ante_type",
                         &at)) ||
        (rc = amount_field(p, F_SMALL_BET, 0, &ev->small_bet, NULL)) ||
        (rc = amount_field(p, F_BIG_BET, 0, &ev->big_bet, NULL)))
        return rc;
    ev->ante_type = (fw_ante_type)at;
    return FW_OK;
}

static int parse_seat_event(parse_ctx *p, fw_event *ev)
{
    int rc = seat_field(p, F_SEAT, 1, &ev->seat, NULL);
    if (rc)
        return rc;
    const jval *v = get(p, F_PLAYER);
    if (!v)
        return fail(p, "field \"player\": required for type \"seat\" "
                       "(a name, or null to empty the seat)");
    if (v->kind == J_STRING) {
        size_t n = v->n;
        if (n == 0 || n > FW_MAX_NAME - 1)
            return fail(p, "field \"player\": must be a name of 1..%d bytes",
                        FW_MAX_NAME - 1);
        _Static_assert(FW_MAX_NAME - 1 <= STR_KEEP, "a name is kept whole");
        memcpy(ev->player, v->s, n);
        ev->player[n] = '\0';
        ev->has_player = 1;
    } else if (v->kind != J_NULL) {
        return fail(p, "field \"player\": must be a string or null");
    }
    return amount_field(p, F_STACK, 0, &ev->stack, &ev->has_stack);
}

static int parse_card_event(parse_ctx *p, fw_event *ev)
{
    int to = 0, rc;
    if ((rc = name_field(p, F_TO, 1, fw_card_to_from_name, "destination", &to)))
        return rc;
    ev->to = (fw_card_to)to;
    if ((rc = seat_field(p, F_SEAT, ev->to == FW_TO_SEAT, &ev->seat, NULL)))
        return rc;
    int face = ev->to == FW_TO_BOARD ? FW_FACE_UP : FW_FACE_DOWN;
    if ((rc = name_field(p, F_FACE, 0, face_from_name, "face", &face)))
        return rc;
    ev->face = (fw_face)face;
    const jval *c = opt(p, F_CARD);
    if (c)
        return card_value(p, F_CARD, c, &ev->card);
    return FW_OK;
}

static int parse_say(parse_ctx *p, fw_event *ev)
{
    int word = FW_WORD_NONE, rc;
    if ((rc = seat_field(p, F_SEAT, 1, &ev->seat, NULL)) ||
        (rc = name_field(p, F_WORD, 0, fw_word_from_name, "word", &word)))
        return rc;
    ev->word = (fw_word)word;
    /* PROTOCOL say: no word means an amount alone was said (Rule 40-B). */
    return amount_field(p, F_AMOUNT, ev->word == FW_WORD_NONE, &ev->amount,
                        &ev->has_amount);
}

static int parse_show(parse_ctx *p, fw_event *ev)
{
    const jval *v;
    int rc;
    if ((rc = seat_field(p, F_SEAT, 1, &ev->seat, NULL)) ||
        (rc = need(p, F_CARDS, &v)))
        return rc;
    if (v->kind != J_ARRAY || v->n < 1 || v->n > FW_MAX_HOLE)
        return fail(p, "field \"cards\": must be an array of 1..%d cards",
                    FW_MAX_HOLE);
    size_t n = v->n;
    for (size_t i = 0; i < n; i++) {
        if ((rc = card_value(p, F_CARDS, &p->lf->card[i], &ev->cards[i])))
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
    int64_t x = 0;
    int rc;
    if ((rc = seat_field(p, F_SEAT, 1, &ev->seat, NULL)) ||
        (rc = int_field(p, F_HANDS, 1, 1, INT_MAX, 1, "a positive integer", &x,
                        NULL)))
        return rc;
    ev->hands = (int)x;
    return FW_OK;
}

static int parse_floor(parse_ctx *p, fw_event *ev)
{
    int d = 0;
    int rc =
        name_field(p, F_DECISION, 1, fw_decision_from_name, "decision", &d);
    if (rc)
        return rc;
    ev->decision = (fw_decision)d;
    return seat_field(p, F_SEAT, 0, &ev->seat, NULL);
}

/* The optional time stamp "t" of every event; required by tick. */
static int time_field(parse_ctx *p, int required, fw_event *ev)
{
    const jval *v;
    if (required) {
        int rc = need(p, F_T, &v);
        if (rc)
            return rc;
    } else {
        v = opt(p, F_T);
        if (!v)
            return FW_OK;
    }
    /* JSON has no NaN or infinity, and jansson rejects overflowing reals. */
    if ((v->kind != J_INT && v->kind != J_REAL) || v->d < 0)
        return fail(p, "field \"t\": must be a non-negative number");
    ev->t = v->d;
    ev->has_t = 1;
    return FW_OK;
}

/* Fill ev from the fields for the type already in ev->type. */
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
        rc = seat_field(p, F_SEAT, 1, &ev->seat, NULL);
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
        rc = seat_field(p, F_SEAT, 1, &ev->seat, NULL);
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

/* Check the fields of a line read whole and fill ev. */
static int read_event(parse_ctx *p, fw_event *ev)
{
    const jval *type = get(p, F_TYPE);
    if (!type)
        return fail(p, "field \"type\": required");
    if (type->kind != J_STRING)
        return fail(p, "field \"type\": must be a string");
    int t = type->n <= STR_KEEP ? fw_event_type_from_name(type->s) : -1;
    if (t < 0) {
        char ex[EXCERPT_SIZE(SHORT_EXCERPT)];
        excerpt(type->s, type->n, SHORT_EXCERPT, 1, ex);
        return fail(p, "unknown type \"%s\"", ex);
    }
    ev->type = (fw_event_type)t;
    p->type_name = fw_event_type_name(ev->type);
    return parse_fields(p, ev);
}

/* ------------------------------------------------------------------ */
/* Reader, front end 1: yajl, for the lines that are fine               */
/* ------------------------------------------------------------------ */

/*
 * Whether the yajl path may read the n bytes at s: each byte printable
 * ASCII other than '\', or JSON whitespace, or part of valid UTF-8. What
 * this leaves to jansson is where the two parsers differ: escapes (yajl
 * decodes a lone surrogate or \u0000 that jansson rejects), control bytes
 * (yajl takes \f and \v for whitespace), invalid UTF-8 and NUL bytes.
 */
static int fast_may_read(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        unsigned c = u[i];
        if ((c >= 0x20 && c < 0x7f && c != '\\') || c == '\t' || c == '\n' ||
            c == '\r') {
            i++;
        } else if (c >= 0x80) {
            size_t k = utf8_seq(u + i, n - i);
            if (k == 0)
                return 0;
            i += k;
        } else {
            return 0;
        }
    }
    return 1;
}

/*
 * yajl's allocations for one line come from a buffer on the stack, since a
 * parser handle per line (the reader keeps nothing between calls) would
 * otherwise cost five mallocs and frees. A block carries its size in front
 * for realloc; free is a no-op inside the buffer, and whatever does not fit
 * goes to malloc.
 */
#define ARENA_SIZE 4096
#define ARENA_ALIGN 16

typedef struct arena {
    unsigned char *mem;
    size_t used;
} arena;

static int arena_owns(const arena *a, const void *p)
{
    uintptr_t u = (uintptr_t)p, lo = (uintptr_t)a->mem;
    return u >= lo && u - lo < ARENA_SIZE;
}

static void *arena_malloc(void *ctx, size_t n)
{
    arena *a = ctx;
    if (n > ARENA_SIZE)
        return malloc(n);
    size_t need =
        ARENA_ALIGN + ((n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1));
    if (need > ARENA_SIZE - a->used)
        return malloc(n);
    unsigned char *b = a->mem + a->used;
    memcpy(b, &n, sizeof n);
    a->used += need;
    return b + ARENA_ALIGN;
}

static void arena_free(void *ctx, void *p)
{
    if (p && !arena_owns(ctx, p))
        free(p);
}

static void *arena_realloc(void *ctx, void *p, size_t n)
{
    if (!p)
        return arena_malloc(ctx, n);
    if (!arena_owns(ctx, p))
        return realloc(p, n);
    size_t old;
    memcpy(&old, (unsigned char *)p - ARENA_ALIGN, sizeof old);
    void *q = arena_malloc(ctx, n);
    if (q)
        memcpy(q, p, old < n ? old : n);
    return q;
}

/* Nesting deeper than this goes to jansson (whose own limit is 2048). */
#define FAST_MAX_DEPTH 16
/* Unknown top-level keys remembered to find duplicates; more go to jansson. */
#define FAST_MAX_OTHER 8
#define FAST_OTHER_LEN 32

/* What an open container is to the yajl path. */
enum frame_kind {
    FR_ROOT,  /* the line's object */
    FR_CHIPS, /* the array of "chips" */
    FR_CARDS, /* the array of "cards" */
    FR_CHIP,  /* an object element of "chips" among the first FW_MAX_CHIP_SET */
    FR_SKIP   /* anything else: only its syntax matters */
};

typedef struct frame {
    unsigned char kind; /* frame_kind */
    unsigned char keys; /* FR_CHIP: bit 0 "value" seen, bit 1 "color" */
    int key;            /* FR_ROOT: field of the next value, -1 ignored;
                           FR_CHIP: 0 "value", 1 "color" */
    size_t count;       /* FR_CHIPS, FR_CARDS: elements so far;
                           FR_CHIP: its index in "chips" */
} frame;

typedef struct fast_ctx {
    line_fields *lf;
    yajl_handle h;
    size_t end; /* bytes up to the line's closing brace, once read */
    int depth;  /* frames open */
    frame stack[FAST_MAX_DEPTH];
    int nother;
    size_t other_len[FAST_MAX_OTHER];
    char other[FAST_MAX_OTHER][FAST_OTHER_LEN];
} fast_ctx;

/* Where the value now arriving goes: at most one of the three is set. */
typedef struct slot {
    jval *v;             /* a field, or an element of "cards" */
    jnum *num;           /* an element of "chips", or a chip's "value" */
    unsigned char *kind; /* a chip's "color": only its kind is read */
} slot;

/*
 * Find the slot of the value now arriving and count it in its array.
 * Returns 0 for a value at the top level other than an object: the line
 * then goes to jansson, which words that error.
 */
static int take_slot(fast_ctx *c, slot *s)
{
    s->v = NULL;
    s->num = NULL;
    s->kind = NULL;
    if (c->depth == 0)
        return 0;
    frame *f = &c->stack[c->depth - 1];
    line_fields *lf = c->lf;
    switch (f->kind) {
    case FR_ROOT:
        if (f->key >= 0)
            s->v = &lf->f[f->key];
        break;
    case FR_CHIPS:
        if (f->count < FW_MAX_CHIPS_PER_EVENT)
            s->num = &lf->chip[f->count];
        f->count++;
        break;
    case FR_CARDS:
        if (f->count < FW_MAX_HOLE)
            s->v = &lf->card[f->count];
        f->count++;
        break;
    case FR_CHIP:
        if (f->key == 0)
            s->num = &lf->chip_value[f->count];
        else
            s->kind = &lf->chip_color[f->count];
        break;
    default:
        break;
    }
    return 1;
}

static void set_kind(const slot *s, unsigned char kind)
{
    if (s->v)
        s->v->kind = kind;
    if (s->num)
        s->num->kind = kind;
    if (s->kind)
        *s->kind = kind;
}

static int fast_null(void *ctx)
{
    slot s;
    if (!take_slot(ctx, &s))
        return 0;
    set_kind(&s, J_NULL);
    return 1;
}

static int fast_bool(void *ctx, int b)
{
    slot s;
    (void)b;
    if (!take_slot(ctx, &s))
        return 0;
    set_kind(&s, J_BOOL);
    return 1;
}

/*
 * A number, read as jansson reads it: an integer when its text has no
 * fraction and no exponent, a real otherwise. Every number is checked,
 * those of ignored fields too, since jansson rejects the whole line for an
 * integer beyond int64 or a real beyond double: such a line returns 0 and
 * goes to jansson. yajl has already checked the syntax.
 */
static int fast_number(void *ctx, const char *t, size_t n)
{
    slot s;
    if (!take_slot(ctx, &s))
        return 0;
    int real = 0;
    for (size_t k = 0; k < n; k++) {
        if (t[k] == '.' || t[k] == 'e' || t[k] == 'E')
            real = 1;
    }
    int64_t i = 0;
    double d;
    if (real) {
        char buf[64];
        if (n >= sizeof buf)
            return 0;
        memcpy(buf, t, n);
        buf[n] = '\0';
        d = strtod(buf, NULL);
        if (isinf(d))
            return 0;
    } else {
        size_t k = t[0] == '-';
        uint64_t u = 0;
        for (; k < n; k++) {
            unsigned digit = (unsigned)(t[k] - '0');
            if (digit > 9 || u > (UINT64_MAX - digit) / 10)
                return 0;
            u = u * 10 + digit;
        }
        if (t[0] == '-') {
            if (u > (uint64_t)INT64_MAX + 1)
                return 0;
            i = u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)u;
        } else {
            if (u > (uint64_t)INT64_MAX)
                return 0;
            i = (int64_t)u;
        }
        d = (double)i;
    }
    set_kind(&s, real ? J_REAL : J_INT);
    if (s.v) {
        s.v->i = i;
        s.v->d = d;
    }
    if (s.num)
        s.num->i = i;
    return 1;
}

static int fast_string(void *ctx, const unsigned char *t, size_t n)
{
    slot s;
    if (!take_slot(ctx, &s))
        return 0;
    set_kind(&s, J_STRING);
    if (s.v)
        keep_string(s.v, (const char *)t, n);
    return 1;
}

/* Remember an unknown top-level key; 0 when it came before, or no room. */
static int remember_other(fast_ctx *c, const char *k, size_t n)
{
    if (n > FAST_OTHER_LEN)
        return 0;
    for (int i = 0; i < c->nother; i++) {
        if (c->other_len[i] == n && memcmp(c->other[i], k, n) == 0)
            return 0;
    }
    if (c->nother == FAST_MAX_OTHER)
        return 0;
    memcpy(c->other[c->nother], k, n);
    c->other_len[c->nother++] = n;
    return 1;
}

/*
 * A key. Duplicates are found here for the line's object and for chip
 * objects; any other object with keys goes to jansson, which rejects
 * duplicates at every depth.
 */
static int fast_map_key(void *ctx, const unsigned char *k, size_t n)
{
    fast_ctx *c = ctx;
    frame *f = &c->stack[c->depth - 1];
    const char *key = (const char *)k;
    if (f->kind == FR_ROOT) {
        int id = field_id(key, n);
        if (id >= 0) {
            if (c->lf->present >> id & 1u)
                return 0;
            c->lf->present |= 1u << id;
        } else if (!remember_other(c, key, n)) {
            return 0;
        }
        f->key = id;
        return 1;
    }
    if (f->kind == FR_CHIP && n == 5) {
        int id = memcmp(key, "value", 5) == 0   ? 0
                 : memcmp(key, "color", 5) == 0 ? 1
                                                : -1;
        if (id < 0 || (f->keys >> id & 1u))
            return 0;
        f->keys |= (unsigned char)(1u << id);
        f->key = id;
        return 1;
    }
    return 0;
}

static int fast_start_map(void *ctx)
{
    fast_ctx *c = ctx;
    if (c->depth == FAST_MAX_DEPTH)
        return 0;
    frame *f = &c->stack[c->depth];
    f->kind = FR_ROOT;
    f->keys = 0;
    f->key = -1;
    f->count = 0;
    if (c->depth > 0) {
        const frame *up = &c->stack[c->depth - 1];
        size_t index = up->count; /* before take_slot counts this one */
        int chip = up->kind == FR_CHIPS && index < FW_MAX_CHIP_SET;
        slot s;
        take_slot(c, &s);
        set_kind(&s, J_OBJECT);
        f->kind = FR_SKIP;
        if (chip) {
            f->kind = FR_CHIP;
            f->count = index;
            c->lf->chip_value[index].kind = 0;
            c->lf->chip_color[index] = 0;
        }
    }
    c->depth++;
    return 1;
}

static int fast_end_map(void *ctx)
{
    fast_ctx *c = ctx;
    if (--c->depth == 0)
        c->end = yajl_get_bytes_consumed(c->h);
    return 1;
}

static int fast_start_array(void *ctx)
{
    fast_ctx *c = ctx;
    if (c->depth == 0 || c->depth == FAST_MAX_DEPTH)
        return 0;
    const frame *up = &c->stack[c->depth - 1];
    int key = up->kind == FR_ROOT ? up->key : -1;
    slot s;
    take_slot(c, &s);
    set_kind(&s, J_ARRAY);
    if (s.v)
        s.v->n = 0;
    frame *f = &c->stack[c->depth];
    f->kind = key == F_CHIPS ? FR_CHIPS : key == F_CARDS ? FR_CARDS : FR_SKIP;
    f->keys = 0;
    f->key = -1;
    f->count = 0;
    c->depth++;
    return 1;
}

static int fast_end_array(void *ctx)
{
    fast_ctx *c = ctx;
    const frame *f = &c->stack[--c->depth];
    if (f->kind == FR_CHIPS)
        c->lf->f[F_CHIPS].n = f->count;
    else if (f->kind == FR_CARDS)
        c->lf->f[F_CARDS].n = f->count;
    return 1;
}

/*
 * Read the line into lf with yajl. Returns 1 when the line is one JSON
 * object that jansson reads the same way, and lf holds its fields; 0 when
 * jansson must read the line instead (every error included).
 */
static int fast_read(line_fields *lf, const char *line, size_t len)
{
    static const yajl_callbacks callbacks = {
        fast_null,    fast_bool,        NULL,           NULL,
        fast_number,  fast_string,      fast_start_map, fast_map_key,
        fast_end_map, fast_start_array, fast_end_array};
    if (!fast_may_read(line, len))
        return 0;
    _Alignas(ARENA_ALIGN) unsigned char mem[ARENA_SIZE];
    arena a = {mem, 0};
    yajl_alloc_funcs funcs = {arena_malloc, arena_realloc, arena_free, &a};
    fast_ctx c;
    c.lf = lf;
    c.end = 0;
    c.depth = 0;
    c.nother = 0;
    lf->present = 0;
    c.h = yajl_alloc(&callbacks, &funcs, &c);
    if (!c.h)
        return 0;
    /* fast_may_read() has checked the UTF-8 of the whole line. */
    yajl_config(c.h, yajl_dont_validate_strings, 1);
    int ok =
        yajl_parse(c.h, (const unsigned char *)line, len) == yajl_status_ok &&
        yajl_complete_parse(c.h) == yajl_status_ok;
    yajl_free(c.h);
    /*
     * yajl 2.1 lets an unfinished token after the value pass (a '"' or a
     * "tru" there reads as more to come), so what follows the closing brace
     * is checked here.
     */
    return ok && c.end > 0 && is_blank(line + c.end, len - c.end);
}

/* ------------------------------------------------------------------ */
/* Reader, front end 2: jansson, for every other line                   */
/* ------------------------------------------------------------------ */

static unsigned char kind_of(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return J_OBJECT;
    case JSON_ARRAY:
        return J_ARRAY;
    case JSON_STRING:
        return J_STRING;
    case JSON_INTEGER:
        return J_INT;
    case JSON_REAL:
        return J_REAL;
    case JSON_TRUE:
    case JSON_FALSE:
        return J_BOOL;
    default:
        return J_NULL;
    }
}

static void val_from_json(jval *out, const json_t *v)
{
    out->kind = kind_of(v);
    if (json_is_integer(v)) {
        out->i = json_integer_value(v);
        out->d = (double)out->i;
    } else if (json_is_real(v)) {
        out->d = json_real_value(v);
    } else if (json_is_string(v)) {
        keep_string(out, json_string_value(v), json_string_length(v));
    } else if (json_is_array(v)) {
        out->n = json_array_size(v);
    }
}

static void num_from_json(jnum *out, const json_t *v)
{
    out->kind = v ? kind_of(v) : 0;
    out->i = json_is_integer(v) ? json_integer_value(v) : 0;
}

/* Fill lf from the object root, as fast_read() would have. */
static void fields_from_json(line_fields *lf, json_t *root)
{
    lf->present = 0;
    for (int id = 0; id < F_COUNT; id++) {
        const json_t *v = json_object_get(root, field_names[id]);
        if (v) {
            lf->present |= 1u << id;
            val_from_json(&lf->f[id], v);
        }
    }
    const json_t *chips = json_object_get(root, "chips");
    for (size_t i = 0; i < json_array_size(chips) && i < FW_MAX_CHIPS_PER_EVENT;
         i++) {
        const json_t *c = json_array_get(chips, i);
        num_from_json(&lf->chip[i], c);
        if (json_is_object(c) && i < FW_MAX_CHIP_SET) {
            const json_t *color = json_object_get(c, "color");
            num_from_json(&lf->chip_value[i], json_object_get(c, "value"));
            lf->chip_color[i] = color ? kind_of(color) : 0;
        }
    }
    const json_t *cards = json_object_get(root, "cards");
    for (size_t i = 0; i < json_array_size(cards) && i < FW_MAX_HOLE; i++)
        val_from_json(&lf->card[i], json_array_get(cards, i));
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

/* Read the line into lf with jansson; FW_EPARSE when it is no JSON object. */
static int slow_read(parse_ctx *p, line_fields *lf, const char *line,
                     size_t len)
{
    json_error_t jerr;
    json_t *root = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root)
        return json_error(p, line, len, &jerr);
    int rc = FW_OK;
    if (json_is_object(root))
        fields_from_json(lf, root);
    else
        rc = fail(p, "not a JSON object");
    json_decref(root);
    return rc;
}

int fw_protocol_parse_line(const char *line, size_t len, long lineno,
                           fw_event *ev, char *err, size_t errsz)
{
    line_fields lf;
    parse_ctx p = {&lf, lineno, "", err, errsz};
    if (err && errsz > 0)
        err[0] = '\0';
    if (!ev || (!line && len > 0))
        return fw_set_error(FW_EINVAL, "fw_protocol_parse_line: NULL");
    memset(ev, 0, sizeof *ev);
    ev->card = FW_CARD_NONE;
    if (is_blank(line, len))
        return FW_PROTOCOL_SKIP;

    int rc = FW_OK;
    if (!fast_read(&lf, line, len))
        rc = slow_read(&p, &lf, line, len);
    if (rc == FW_OK)
        rc = read_event(&p, ev);
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
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* A name from a fixed table, with its length. */
typedef struct label {
    const char *s;
    size_t n;
} label;

/*
 * The yajl generator, reused for every record, and where it prints: the
 * caller's buffer from start, up to end, next byte at cur; lost counts the
 * bytes that did not fit, so that FW_ERANGE can tell the size needed. The
 * names a record is made of are looked up and measured once, here.
 */
struct fw_protocol_writer {
    yajl_gen gen;
    char *start;
    char *cur;
    char *end;
    size_t lost;
    char none[1]; /* start, cur and end when the caller gives no buffer */
    unsigned gen_status; /* the yajl_gen_status values of a record, or'ed */
    int failed;          /* FW_ENOMEM when a text could not be copied */
    label type[FW_REC_HAND_END + 1];
    label action[FW_ACT_COUNT];
    label severity[FW_SEV_STOP + 1];
    label street[FW_ST_COMPLETE + 1];
    label status[FW_SEAT_DEAD + 1];
    char card[NCARDS + 1][3]; /* [NCARDS]: "??", what an invalid card shows */
};

/*
 * yajl's print callback: append the n bytes at s to the line. Once a piece
 * does not fit, nothing more is written (end moves to cur), only counted.
 * Most pieces are a few bytes (a quote, a comma, a key, a number), so short
 * ones are copied with fixed-size moves rather than a call to memcpy.
 */
static void print_to_line(void *ctx, const char *s, size_t n)
{
    fw_protocol_writer *w = ctx;
    char *d = w->cur;
    if (n > (size_t)(w->end - d)) {
        w->end = d;
        w->lost += n;
        return;
    }
    if (n >= 8 && n <= 16) {
        memcpy(d, s, 8);
        memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4 && n < 8) {
        memcpy(d, s, 4);
        memcpy(d + n - 4, s + n - 4, 4);
    } else if (n > 0 && n < 4) {
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    } else if (n > 16) {
        memcpy(d, s, n);
    }
    w->cur = d + n;
}

static void put_string(fw_protocol_writer *w, const char *s, size_t n)
{
    w->gen_status |= yajl_gen_string(w->gen, (const unsigned char *)s, n);
}

/* A key, from a string literal. */
#define KEY(w, lit) put_string(w, lit, sizeof(lit) - 1)

static void put_label(fw_protocol_writer *w, const label *l)
{
    put_string(w, l->s, l->n);
}

/*
 * Write v in decimal at out as "%lld" would, and return the length (at
 * most 20: "-9223372036854775808"). yajl_gen_integer formats with snprintf,
 * which was most of the cost of a record of numbers.
 */
static size_t format_int(int64_t v, char *out)
{
    static const char pairs[] = "00010203040506070809"
                                "10111213141516171819"
                                "20212223242526272829"
                                "30313233343536373839"
                                "40414243444546474849"
                                "50515253545556575859"
                                "60616263646566676869"
                                "70717273747576777879"
                                "80818283848586878889"
                                "90919293949596979899";
    char tmp[24];
    char *e = tmp + sizeof tmp, *p = e;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    while (u >= 100) {
        unsigned r = (unsigned)(u % 100);
        u /= 100;
        p -= 2;
        memcpy(p, pairs + 2 * r, 2);
    }
    if (u >= 10) {
        p -= 2;
        memcpy(p, pairs + 2 * u, 2);
    } else {
        *--p = (char)('0' + u);
    }
    if (v < 0)
        *--p = '-';
    size_t n = (size_t)(e - p);
    memcpy(out, p, n);
    return n;
}

static void put_int(fw_protocol_writer *w, int64_t v)
{
    char digits[24];
    size_t n = format_int(v, digits);
    w->gen_status |= yajl_gen_number(w->gen, digits, n);
}

static void put_int_or_null(fw_protocol_writer *w, int64_t v,
                            int64_t null_value)
{
    if (v == null_value)
        w->gen_status |= yajl_gen_null(w->gen);
    else
        put_int(w, v);
}

static void open_map(fw_protocol_writer *w)
{
    w->gen_status |= yajl_gen_map_open(w->gen);
}

static void close_map(fw_protocol_writer *w)
{
    w->gen_status |= yajl_gen_map_close(w->gen);
}

static void open_array(fw_protocol_writer *w)
{
    w->gen_status |= yajl_gen_array_open(w->gen);
}

static void close_array(fw_protocol_writer *w)
{
    w->gen_status |= yajl_gen_array_close(w->gen);
}

/*
 * A text of n bytes, each byte that is not part of valid UTF-8 (and each
 * NUL) written as '?': the writer promises that, and yajl would pass such
 * bytes through as they are. A text that needs the copy and is too long for
 * the stack is copied to the heap, and on ENOMEM w->failed is set.
 */
static void put_text(fw_protocol_writer *w, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        size_t k = u[i] == 0 ? 0 : u[i] < 0x80 ? 1 : utf8_seq(u + i, n - i);
        if (k == 0)
            break;
        i += k;
    }
    if (i == n) {
        put_string(w, s, n);
        return;
    }
    char tmp[FW_TEXT_MAX * 2];
    char *buf = n <= sizeof tmp ? tmp : malloc(n);
    if (!buf) {
        w->failed = FW_ENOMEM;
        return;
    }
    memcpy(buf, s, i);
    while (i < n) {
        size_t k = u[i] ? utf8_seq(u + i, n - i) : 0;
        if (k == 0) {
            buf[i++] = '?';
        } else {
            memcpy(buf + i, u + i, k);
            i += k;
        }
    }
    put_string(w, buf, n);
    if (buf != tmp)
        free(buf);
}

/* A NUL-terminated text; NULL is written as "". */
static void put_cstr(fw_protocol_writer *w, const char *s)
{
    if (s)
        put_text(w, s, strlen(s));
    else
        put_string(w, "", 0);
}

/* A text in a char array of size bytes, up to its NUL. */
static void put_astr(fw_protocol_writer *w, const char *s, size_t size)
{
    put_text(w, s, strnlen(s, size));
}

/* Whether every enum value and count of rec is in range. */
static int record_ok(const fw_record *rec)
{
    switch (rec->type) {
    case FW_REC_RULING:
        return (int)rec->u.ruling.action >= 0 &&
               rec->u.ruling.action < FW_ACT_COUNT;
    case FW_REC_ALERT:
        return (int)rec->u.alert.severity >= 0 &&
               rec->u.alert.severity <= FW_SEV_STOP && rec->u.alert.kind;
    case FW_REC_STATE: {
        const fw_state *s = &rec->u.state;
        if ((int)s->street < 0 || s->street > FW_ST_COMPLETE || s->npots < 0 ||
            s->npots > FW_MAX_POTS || s->nboard < 0 || s->nboard > 5 ||
            s->nseats < 0 || s->nseats > FW_MAX_SEATS)
            return 0;
        for (int i = 0; i < s->npots; i++) {
            if (s->pots[i].nseats < 0 || s->pots[i].nseats > FW_MAX_SEATS)
                return 0;
        }
        for (int i = 0; i < s->nseats; i++) {
            if ((int)s->seats[i].status < 0 ||
                s->seats[i].status > FW_SEAT_DEAD)
                return 0;
        }
        return 1;
    }
    case FW_REC_AWARD:
        return rec->u.award.nwinners >= 0 &&
               rec->u.award.nwinners <= FW_MAX_SEATS;
    case FW_REC_HAND_END:
        return rec->u.hand_end.nseats >= 0 &&
               rec->u.hand_end.nseats <= FW_MAX_SEATS;
    }
    return 0;
}

static void put_ruling(fw_protocol_writer *w, const fw_ruling *r)
{
    KEY(w, "seat");
    put_int(w, r->seat);
    KEY(w, "action");
    put_label(w, &w->action[r->action]);
    KEY(w, "to");
    put_int(w, r->to);
    KEY(w, "returned");
    put_int(w, r->returned);
    if (r->why && r->why[0]) {
        KEY(w, "why");
        put_cstr(w, r->why);
    }
    KEY(w, "rule");
    put_cstr(w, r->rule);
    KEY(w, "text");
    put_astr(w, r->text, sizeof r->text);
}

static void put_alert(fw_protocol_writer *w, const fw_alert *a)
{
    KEY(w, "kind");
    put_cstr(w, a->kind);
    if (a->why && a->why[0]) {
        KEY(w, "why");
        put_cstr(w, a->why);
    }
    KEY(w, "severity");
    put_label(w, &w->severity[a->severity]);
    KEY(w, "rule");
    put_cstr(w, a->rule);
    KEY(w, "remedy");
    put_cstr(w, a->remedy);
    KEY(w, "text");
    put_astr(w, a->text, sizeof a->text);
    if (a->seat != 0) {
        KEY(w, "seat");
        put_int(w, a->seat);
    }
}

static void put_state(fw_protocol_writer *w, const fw_state *s)
{
    KEY(w, "hand");
    put_int(w, s->hand);
    KEY(w, "street");
    put_label(w, &w->street[s->street]);
    KEY(w, "to_act");
    put_int_or_null(w, s->to_act, 0);
    KEY(w, "to_call");
    put_int(w, s->to_call);
    KEY(w, "min_raise_to");
    put_int_or_null(w, s->min_raise_to, FW_NULL_AMOUNT);
    KEY(w, "max_raise_to");
    put_int_or_null(w, s->max_raise_to, FW_NULL_AMOUNT);
    KEY(w, "pot");
    put_int(w, s->pot);
    KEY(w, "pots");
    open_array(w);
    for (int i = 0; i < s->npots; i++) {
        open_map(w);
        KEY(w, "amount");
        put_int(w, s->pots[i].amount);
        KEY(w, "seats");
        open_array(w);
        for (int k = 0; k < s->pots[i].nseats; k++)
            put_int(w, s->pots[i].seats[k]);
        close_array(w);
        close_map(w);
    }
    close_array(w);
    KEY(w, "board");
    open_array(w);
    for (int i = 0; i < s->nboard; i++) {
        fw_card c = s->board[i];
        put_string(w, w->card[c < NCARDS ? c : NCARDS], 2);
    }
    close_array(w);
    KEY(w, "sa");
    w->gen_status |= yajl_gen_bool(w->gen, s->sa != 0);
    KEY(w, "button");
    put_int_or_null(w, s->button, 0);
    KEY(w, "seats");
    open_array(w);
    for (int i = 0; i < s->nseats; i++) {
        const fw_seat_view *v = &s->seats[i];
        open_map(w);
        KEY(w, "seat");
        put_int(w, v->seat);
        KEY(w, "stack");
        put_int(w, v->stack);
        KEY(w, "bet");
        put_int(w, v->bet);
        KEY(w, "status");
        put_label(w, &w->status[v->status]);
        close_map(w);
    }
    close_array(w);
}

static void put_award(fw_protocol_writer *w, const fw_award *a)
{
    KEY(w, "pot");
    put_int(w, a->pot);
    KEY(w, "amount");
    put_int(w, a->amount);
    KEY(w, "winners");
    open_array(w);
    for (int i = 0; i < a->nwinners; i++) {
        const fw_award_winner *win = &a->winners[i];
        open_map(w);
        KEY(w, "seat");
        put_int(w, win->seat);
        KEY(w, "amount");
        put_int(w, win->amount);
        if (win->hand[0]) {
            KEY(w, "hand");
            put_astr(w, win->hand, sizeof win->hand);
        }
        close_map(w);
    }
    close_array(w);
    KEY(w, "odd_chip");
    put_int_or_null(w, a->odd_chip_seat, 0);
    KEY(w, "rule");
    put_cstr(w, a->rule);
    KEY(w, "text");
    put_astr(w, a->text, sizeof a->text);
}

static void put_hand_end(fw_protocol_writer *w, const fw_hand_end *h)
{
    KEY(w, "hand");
    put_int(w, h->hand);
    KEY(w, "stacks");
    open_array(w);
    for (int i = 0; i < h->nseats; i++) {
        open_map(w);
        KEY(w, "seat");
        put_int(w, h->seats[i]);
        KEY(w, "stack");
        put_int(w, h->stacks[i]);
        close_map(w);
    }
    close_array(w);
}

static void set_label(label *l, const char *s)
{
    l->s = s;
    l->n = strlen(s);
}

int fw_protocol_writer_new(fw_protocol_writer **out)
{
    fw_protocol_writer *w = calloc(1, sizeof *w);
    if (!w)
        return fw_set_error(FW_ENOMEM, "out of memory");
    w->gen = yajl_gen_alloc(NULL);
    if (!w->gen || !yajl_gen_config(w->gen, yajl_gen_print_callback,
                                    print_to_line, (void *)w)) {
        fw_protocol_writer_free(w);
        return fw_set_error(FW_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < COUNT_OF(w->type); i++)
        set_label(&w->type[i], record_type_names[i]);
    for (size_t i = 0; i < COUNT_OF(w->action); i++)
        set_label(&w->action[i], fw_action_name((fw_action)i));
    for (size_t i = 0; i < COUNT_OF(w->severity); i++)
        set_label(&w->severity[i], fw_severity_name((fw_severity)i));
    for (size_t i = 0; i < COUNT_OF(w->street); i++)
        set_label(&w->street[i], fw_street_name((fw_street)i));
    for (size_t i = 0; i < COUNT_OF(w->status); i++)
        set_label(&w->status[i], fw_seat_status_name((fw_seat_status)i));
    for (int c = 0; c <= NCARDS; c++)
        fw_card_str(c < NCARDS ? (fw_card)c : FW_CARD_NONE, w->card[c]);
    *out = w;
    return FW_OK;
}

void fw_protocol_writer_free(fw_protocol_writer *w)
{
    if (!w)
        return;
    if (w->gen)
        yajl_gen_free(w->gen);
    free(w);
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
    if (!record_ok(rec))
        return fw_set_error(FW_EINVAL, "%s record with a value out of range",
                            record_type_names[rec->type]);

    yajl_gen_reset(w->gen, NULL);
    w->start = w->cur = buf ? buf : w->none;
    w->end = w->start + (buf ? size : 0);
    w->lost = 0;
    w->gen_status = 0;
    w->failed = 0;
    open_map(w);
    KEY(w, "type");
    put_label(w, &w->type[rec->type]);
    switch (rec->type) {
    case FW_REC_RULING:
        put_ruling(w, &rec->u.ruling);
        break;
    case FW_REC_ALERT:
        put_alert(w, &rec->u.alert);
        break;
    case FW_REC_STATE:
        put_state(w, &rec->u.state);
        break;
    case FW_REC_AWARD:
        put_award(w, &rec->u.award);
        break;
    case FW_REC_HAND_END:
        put_hand_end(w, &rec->u.hand_end);
        break;
    }
    close_map(w);
    if (w->failed)
        return fw_set_error(w->failed, "out of memory");
    if (w->gen_status != yajl_gen_status_ok)
        return fw_set_error(FW_EINTERNAL, "%s record: yajl_gen status %u",
                            record_type_names[rec->type], w->gen_status);
    size_t n = (size_t)(w->cur - w->start) + w->lost;
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
