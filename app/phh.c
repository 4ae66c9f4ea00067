/*
 * phh.c - PHH hands: the checks the PHH spec puts on the TOML fields, the
 * action grammar, the translation into the engine's input events and the
 * replay through the rules engine. The TOML itself is read by phh_toml.cpp.
 */
#include "phh.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Engine amounts stay at or below this, like the protocol reader's: the
 * engine adds every chip of a table without int64 overflow. */
#define PHH_MAX_AMOUNT INT64_C(1000000000000000)

/*
 * Write a message into err (truncated, NUL-terminated when errsz > 0) and
 * record it for fw_last_error(). Returns code, so callers write
 * `return phh_fail(err, errsz, FW_EPARSE, ...)`.
 */
static int phh_fail(char *err, size_t errsz, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int phh_fail(char *err, size_t errsz, int code, const char *fmt, ...)
{
    char buf[FW_PHH_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (err && errsz > 0)
        snprintf(err, errsz, "%s", buf);
    return fw_set_error(code, "%s", buf);
}

/* ------------------------------------------------------------------ */
/* Action strings                                                       */
/* ------------------------------------------------------------------ */

#define MAX_TOKENS 8

/*
 * Split an action string into at most MAX_TOKENS whitespace-separated
 * tokens, cutting the commentary from the first '#'. The tokens point into
 * buf, a copy of s the function owns for the caller. Returns the number of
 * tokens, or -1 when there are more than MAX_TOKENS.
 */
static int tokenize(const char *s, char buf[FW_PHH_ACTION_MAX],
                    char *tok[MAX_TOKENS])
{
    snprintf(buf, FW_PHH_ACTION_MAX, "%s", s);
    char *hash = strchr(buf, '#');
    if (hash)
        *hash = '\0';
    int n = 0;
    char *p = buf;
    for (;;) {
        while (*p && isspace((unsigned char)*p))
            p++;
        if (!*p)
            return n;
        if (n == MAX_TOKENS)
            return -1;
        tok[n++] = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        if (*p)
            *p++ = '\0';
    }
}

/*
 * Parse "pN" with N in 1..nplayers (no sign, no leading zero). Returns
 * FW_OK, FW_EPARSE for anything that is no player, FW_ERANGE for a player
 * beyond the hand's.
 */
static int parse_player(const char *t, int nplayers, int *out)
{
    if (t[0] != 'p' || t[1] < '1' || t[1] > '9')
        return FW_EPARSE;
    int v = 0;
    for (const char *q = t + 1; *q; q++) {
        if (*q < '0' || *q > '9')
            return FW_EPARSE;
        v = v * 10 + (*q - '0');
        if (v > 99)
            return FW_ERANGE;
    }
    if (v > nplayers)
        return FW_ERANGE;
    *out = v;
    return FW_OK;
}

/*
 * Parse concatenated two-character cards ("AcKd", "????") into out[],
 * FW_CARD_NONE for "??". Returns FW_OK or FW_EPARSE (odd length, more than
 * FW_PHH_ACTION_CARDS cards, a half-known card like "?h", a bad card).
 */
static int parse_cards(const char *t, fw_card out[FW_PHH_ACTION_CARDS], int *n)
{
    size_t len = strlen(t);
    if (len == 0 || len % 2 != 0 || len / 2 > FW_PHH_ACTION_CARDS)
        return FW_EPARSE;
    for (size_t i = 0; i < len / 2; i++) {
        const char *c = t + 2 * i;
        if (c[0] == '?' && c[1] == '?') {
            out[i] = FW_CARD_NONE;
            continue;
        }
        char two[3] = {c[0], c[1], '\0'};
        if (fw_card_parse(two, &out[i]) != FW_OK)
            return FW_EPARSE;
    }
    *n = (int)(len / 2);
    return FW_OK;
}

/*
 * Parse a non-negative decimal amount ("600", "47.50", "0.25") exactly into
 * micro-units. Returns FW_OK, FW_EPARSE (not a plain decimal number), or
 * FW_ERANGE (more than 6 decimals that are not zero, above
 * FW_PHH_MAX_UNITS).
 */
static int parse_amount(const char *t, int64_t *out)
{
    int64_t whole = 0, frac = 0;
    int ndig = 0, nfrac = 0;
    const char *p = t;
    for (; *p >= '0' && *p <= '9'; p++, ndig++) {
        whole = whole * 10 + (*p - '0');
        if (whole > FW_PHH_MAX_UNITS)
            return FW_ERANGE;
    }
    if (*p == '.') {
        p++;
        for (; *p >= '0' && *p <= '9'; p++) {
            if (nfrac < 6) {
                frac = frac * 10 + (*p - '0');
                nfrac++;
            } else if (*p != '0') {
                return FW_ERANGE;
            }
            ndig++;
        }
    }
    if (*p || ndig == 0)
        return FW_EPARSE;
    for (; nfrac < 6; nfrac++)
        frac *= 10;
    *out = whole * FW_PHH_MICRO + frac;
    return FW_OK;
}

/*
 * Parse the action string s (the file's action number idx, 0-based) into
 * *a. Returns 1 for a no-op (blank or commentary only), FW_OK for an
 * action, or an error with its message in err. Amounts are left in
 * micro-units; fw_phh_parse() scales them.
 */
static int parse_action(const char *s, int idx, int nplayers, fw_phh_action *a,
                        char *err, size_t errsz)
{
    char buf[FW_PHH_ACTION_MAX];
    char *tok[MAX_TOKENS];
    int nt = tokenize(s, buf, tok);
    memset(a, 0, sizeof *a);
    a->index = idx;
    if (nt == 0)
        return 1;
    if (nt < 0)
        return phh_fail(err, errsz, FW_EPARSE,
                        "action %d \"%s\": too many words", idx + 1, s);

    if (strcmp(tok[0], "d") == 0) {
        a->player = 0;
        int want = 0, ci = 0;
        if (nt >= 2 && strcmp(tok[1], "dh") == 0) {
            a->act = FW_PHH_DEAL_HOLE;
            want = 4;
            ci = 3;
            if (nt >= 3) {
                int rc = parse_player(tok[2], nplayers, &a->player);
                if (rc != FW_OK)
                    return phh_fail(err, errsz, rc,
                                    "action %d \"%s\": '%s' is not one of "
                                    "the %d players",
                                    idx + 1, s, tok[2], nplayers);
            }
        } else if (nt >= 2 && strcmp(tok[1], "db") == 0) {
            a->act = FW_PHH_DEAL_BOARD;
            want = 3;
            ci = 2;
        } else {
            return phh_fail(err, errsz, FW_EPARSE,
                            "action %d \"%s\": the dealer's action must be "
                            "'dh' or 'db'",
                            idx + 1, s);
        }
        if (nt != want)
            return phh_fail(err, errsz, FW_EPARSE,
                            "action %d \"%s\": expected %s", idx + 1, s,
                            want == 4 ? "'d dh pN CARDS'" : "'d db CARDS'");
        if (parse_cards(tok[ci], a->cards, &a->ncards) != FW_OK)
            return phh_fail(err, errsz, FW_EPARSE,
                            "action %d \"%s\": '%s' is not 1 to %d cards "
                            "such as 'AcKd' or '?\?\?\?'",
                            idx + 1, s, tok[ci], FW_PHH_ACTION_CARDS);
        return FW_OK;
    }

    int rc = parse_player(tok[0], nplayers, &a->player);
    if (rc != FW_OK)
        return phh_fail(err, errsz, rc,
                        "action %d \"%s\": '%s' is neither the dealer 'd' "
                        "nor one of the %d players",
                        idx + 1, s, tok[0], nplayers);
    if (nt < 2)
        return phh_fail(err, errsz, FW_EPARSE,
                        "action %d \"%s\": no action after the player", idx + 1,
                        s);
    const char *v = tok[1];
    if (strcmp(v, "f") == 0 || strcmp(v, "cc") == 0) {
        a->act = v[0] == 'f' ? FW_PHH_FOLD : FW_PHH_CHECK_CALL;
        if (nt != 2)
            return phh_fail(err, errsz, FW_EPARSE,
                            "action %d \"%s\": '%s' takes no argument", idx + 1,
                            s, v);
        return FW_OK;
    }
    if (strcmp(v, "cbr") == 0) {
        a->act = FW_PHH_BET_RAISE;
        if (nt != 3)
            return phh_fail(err, errsz, FW_EPARSE,
                            "action %d \"%s\": expected 'pN cbr AMOUNT'",
                            idx + 1, s);
        rc = parse_amount(tok[2], &a->amount);
        if (rc != FW_OK)
            return phh_fail(err, errsz, rc,
                            "action %d \"%s\": '%s' is not an amount "
                            "(digits, at most 6 decimals, at most %" PRId64 ")",
                            idx + 1, s, tok[2], FW_PHH_MAX_UNITS);
        if (a->amount == 0)
            return phh_fail(err, errsz, FW_ERANGE,
                            "action %d \"%s\": a bet of 0", idx + 1, s);
        return FW_OK;
    }
    if (strcmp(v, "sm") == 0) {
        if (nt == 2) {
            a->act = FW_PHH_MUCK;
            return FW_OK;
        }
        a->act = FW_PHH_SHOW;
        if (nt != 3)
            return phh_fail(err, errsz, FW_EPARSE,
                            "action %d \"%s\": expected 'pN sm [CARDS|-]'",
                            idx + 1, s);
        if (strcmp(tok[2], "-") == 0) {
            a->dash = 1;
            return FW_OK;
        }
        if (parse_cards(tok[2], a->cards, &a->ncards) != FW_OK)
            return phh_fail(err, errsz, FW_EPARSE,
                            "action %d \"%s\": '%s' is not 1 to %d cards",
                            idx + 1, s, tok[2], FW_PHH_ACTION_CARDS);
        return FW_OK;
    }
    if (strcmp(v, "sd") == 0 || strcmp(v, "pb") == 0)
        return phh_fail(err, errsz, FW_EUNSUPPORTED,
                        "action %d \"%s\": '%s' (%s) belongs to draw or "
                        "stud games, not supported",
                        idx + 1, s, v,
                        v[0] == 's' ? "stand pat/discard" : "bring-in");
    return phh_fail(err, errsz, FW_EPARSE,
                    "action %d \"%s\": unknown action '%s' (expected f, cc, "
                    "cbr or sm)",
                    idx + 1, s, v);
}

/* ------------------------------------------------------------------ */
/* The document                                                         */
/* ------------------------------------------------------------------ */

static const struct {
    const char *code;
    fw_game game;
} variants[] = {
    {"NT", FW_GAME_NLHE},
    {"PO", FW_GAME_PLO},
    {"FT", FW_GAME_FLHE},
};

/* Trailing decimal zeros of a micro-unit amount, 0..6 (6 for zero). */
static int micro_zeros(int64_t m)
{
    int z = 0;
    if (m == 0)
        return 6;
    while (z < 6 && m % 10 == 0) {
        m /= 10;
        z++;
    }
    return z;
}

/*
 * Check the array key of n elements against the number of players. Returns
 * FW_OK or FW_ERANGE with a message.
 */
static int check_len(const char *key, int n, int nplayers, char *err,
                     size_t errsz)
{
    if (n == nplayers)
        return FW_OK;
    return phh_fail(err, errsz, FW_ERANGE,
                    "key '%s' has %d elements but starting_stacks has %d "
                    "players",
                    key, n, nplayers);
}

/*
 * Turn the raw document into *h: the variant's required keys, array
 * lengths, the actions, and the unit all amounts are scaled to.
 */
static int build(const fw_phh_doc *d, fw_phh *h, char *err, size_t errsz)
{
    int rc;
    memset(h, 0, sizeof *h);
    if (!d->has_variant)
        return phh_fail(err, errsz, FW_EPARSE,
                        "missing required key 'variant'");
    size_t vi = 0;
    for (; vi < sizeof variants / sizeof variants[0]; vi++)
        if (strcmp(d->variant, variants[vi].code) == 0)
            break;
    if (vi == sizeof variants / sizeof variants[0])
        return phh_fail(err, errsz, FW_EUNSUPPORTED,
                        "variant '%s' is not supported (only NT no-limit "
                        "hold'em, PO pot-limit Omaha, FT fixed-limit "
                        "hold'em)",
                        d->variant);
    snprintf(h->variant, sizeof h->variant, "%s", d->variant);
    h->game = variants[vi].game;
    bool limit = h->game == FW_GAME_FLHE;

    struct {
        const char *key;
        int has;
    } req[] = {
        {"antes", d->has_antes},
        {"blinds_or_straddles", d->has_blinds},
        {"starting_stacks", d->has_starting},
        {"actions", d->has_actions},
        {limit ? "small_bet" : "min_bet",
         limit ? d->has_small_bet : d->has_min_bet},
        {limit ? "big_bet" : "min_bet",
         limit ? d->has_big_bet : d->has_min_bet},
    };
    for (size_t i = 0; i < sizeof req / sizeof req[0]; i++)
        if (!req[i].has)
            return phh_fail(err, errsz, FW_EPARSE,
                            "missing key '%s', required for variant %s",
                            req[i].key, h->variant);
    if (d->has_bring_in)
        return phh_fail(err, errsz, FW_EUNSUPPORTED,
                        "key 'bring_in' is for stud games, not %s", h->variant);

    int n = d->nstarting;
    if (n < 2)
        return phh_fail(err, errsz, FW_ERANGE,
                        "starting_stacks has %d players, at least 2", n);
    h->nplayers = n;
    if ((rc = check_len("antes", d->nantes, n, err, errsz)) != FW_OK ||
        (rc = check_len("blinds_or_straddles", d->nblinds, n, err, errsz)) !=
            FW_OK)
        return rc;
    if (d->has_finishing && (rc = check_len("finishing_stacks", d->nfinishing,
                                            n, err, errsz)) != FW_OK)
        return rc;
    if (d->has_players &&
        (rc = check_len("players", d->nplayers, n, err, errsz)) != FW_OK)
        return rc;
    if (d->has_seats &&
        (rc = check_len("seats", d->nseats, n, err, errsz)) != FW_OK)
        return rc;
    for (int i = 0; i < n; i++)
        if (d->starting_stacks[i] == 0)
            return phh_fail(err, errsz, FW_ERANGE,
                            "starting stack of p%d is 0 (PHH stacks are "
                            "positive)",
                            i + 1);

    int na = 0;
    for (int i = 0; i < d->nactions; i++) {
        rc = parse_action(d->actions[i], i, n, &h->actions[na], err, errsz);
        if (rc == 1)
            continue;
        if (rc != FW_OK)
            return rc;
        snprintf(h->text[na], sizeof h->text[na], "%s", d->actions[i]);
        na++;
    }
    h->nactions = na;

    /* The unit: the finest decimal any amount uses. */
    int zeros = 6;
#define PHH_ZEROS(m)                                                           \
    do {                                                                       \
        int z_ = micro_zeros(m);                                               \
        if (z_ < zeros)                                                        \
            zeros = z_;                                                        \
    } while (0)
    for (int i = 0; i < n; i++) {
        PHH_ZEROS(d->antes[i]);
        PHH_ZEROS(d->blinds[i]);
        PHH_ZEROS(d->starting_stacks[i]);
        if (d->has_finishing)
            PHH_ZEROS(d->finishing_stacks[i]);
    }
    PHH_ZEROS(d->min_bet);
    PHH_ZEROS(d->small_bet);
    PHH_ZEROS(d->big_bet);
    for (int i = 0; i < na; i++)
        PHH_ZEROS(h->actions[i].amount);
#undef PHH_ZEROS
    int64_t div = 1;
    for (int z = 0; z < zeros; z++)
        div *= 10;
    h->scale = FW_PHH_MICRO / div;

    int64_t big = 0;
#define PHH_SCALE(dst, m)                                                      \
    do {                                                                       \
        (dst) = (m) / div;                                                     \
        if ((dst) > big)                                                       \
            big = (dst);                                                       \
    } while (0)
    for (int i = 0; i < n; i++) {
        PHH_SCALE(h->antes[i], d->antes[i]);
        PHH_SCALE(h->blinds[i], d->blinds[i]);
        PHH_SCALE(h->starting_stacks[i], d->starting_stacks[i]);
        if (d->has_finishing)
            PHH_SCALE(h->finishing_stacks[i], d->finishing_stacks[i]);
    }
    PHH_SCALE(h->min_bet, d->min_bet);
    PHH_SCALE(h->small_bet, d->small_bet);
    PHH_SCALE(h->big_bet, d->big_bet);
    for (int i = 0; i < na; i++)
        PHH_SCALE(h->actions[i].amount, h->actions[i].amount);
#undef PHH_SCALE
    if (big > PHH_MAX_AMOUNT)
        return phh_fail(err, errsz, FW_ERANGE,
                        "amounts reach %" PRId64 " units of 1/%" PRId64
                        " (at most %" PRId64 "): too many decimals for "
                        "amounts this large",
                        big, h->scale, PHH_MAX_AMOUNT);

    h->has_finishing = d->has_finishing;
    h->has_seats = d->has_seats;
    memcpy(h->seats, d->seats, sizeof h->seats);
    h->seat_count = d->has_seat_count ? d->seat_count : 0;
    h->has_players = d->has_players;
    memcpy(h->players, d->players, sizeof h->players);
    return FW_OK;
}

int fw_phh_parse(const char *text, size_t len, fw_phh *out, char *err,
                 size_t errsz)
{
    if (err && errsz > 0)
        err[0] = '\0';
    if (!text || !out)
        return phh_fail(err, errsz, FW_EINVAL, "no document");
    fw_phh_doc *d = malloc(sizeof *d);
    if (!d)
        return phh_fail(err, errsz, FW_ENOMEM, "out of memory");
    int rc = fw_phh_toml_read(text, len, d, err, errsz);
    if (rc == FW_OK)
        rc = build(d, out, err, errsz);
    free(d);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Events                                                               */
/* ------------------------------------------------------------------ */

/* The translation's own view of the hand: enough bookkeeping to tell a
 * check from a call and a bet from a raise, and to know each hand. */
typedef struct gen {
    const fw_phh *h;
    fw_phh_event_fn cb;
    void *ctx;
    char *err;
    size_t errsz;
    int action; /* index into h->actions being translated, -1 */
    fw_event ev;
    int holes; /* hole cards per player */
    fw_card hole[FW_PHH_MAX_PLAYERS][FW_MAX_HOLE];
    int nhole[FW_PHH_MAX_PLAYERS];
    int64_t stack[FW_PHH_MAX_PLAYERS]; /* behind, this hand */
    int64_t bet[FW_PHH_MAX_PLAYERS];   /* this street */
    int64_t cur;                       /* highest bet this street */
    int street;                        /* 0 preflop .. 3 river */
    bool done[FW_PHH_MAX_PLAYERS];     /* folded, shown or mucked */
    int river_aggressor; /* last to bet or raise on the river, 0 none */
} gen;

/* Start a fresh event of type t in g->ev. */
static fw_event *ev_new(gen *g, fw_event_type t)
{
    memset(&g->ev, 0, sizeof g->ev);
    g->ev.type = t;
    g->ev.card = FW_CARD_NONE;
    return &g->ev;
}

/*
 * Hand g->ev to the callback. On an error, rewrite the message to say
 * which action (or which setup event) it came from, keeping the
 * callback's fw_last_error() text.
 */
static int ev_send(gen *g)
{
    int rc = g->cb(g->ctx, &g->ev);
    if (rc == FW_OK)
        return FW_OK;
    char why[FW_PHH_ERR_MAX];
    snprintf(why, sizeof why, "%s", fw_last_error());
    if (g->action >= 0)
        return phh_fail(g->err, g->errsz, rc, "action %d \"%s\": %s",
                        g->h->actions[g->action].index + 1,
                        g->h->text[g->action], why);
    return phh_fail(g->err, g->errsz, rc, "%s event: %s",
                    fw_event_type_name(g->ev.type), why);
}

/* Fail on behalf of the action being translated. */
static int act_fail(gen *g, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int act_fail(gen *g, int code, const char *fmt, ...)
{
    char why[FW_PHH_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return phh_fail(g->err, g->errsz, code, "action %d \"%s\": %s",
                    g->h->actions[g->action].index + 1, g->h->text[g->action],
                    why);
}

/* Player (1-based) who posts the small and the big blind. Heads-up the
 * button, the last player, posts the small blind (TDA Rule 34-B). */
static int sb_player(const fw_phh *h)
{
    return h->nplayers == 2 ? 2 : 1;
}

static int bb_player(const fw_phh *h)
{
    return h->nplayers == 2 ? 1 : 2;
}

/* Post a forced bet of up to amount for player p (1-based) as the engine
 * would: what the stack holds. dead: an ante, not part of the bet. */
static void post(gen *g, int p, int64_t amount, bool dead)
{
    int64_t a = amount < g->stack[p - 1] ? amount : g->stack[p - 1];
    g->stack[p - 1] -= a;
    if (!dead) {
        g->bet[p - 1] += a;
        if (g->bet[p - 1] > g->cur)
            g->cur = g->bet[p - 1];
    }
}

/*
 * The setup: table, level, seats, button, hand_start; and the blinds and
 * antes in g's bookkeeping. Checks the forced bets are ones the engine
 * knows how to post.
 */
static int emit_setup(gen *g)
{
    const fw_phh *h = g->h;
    int n = h->nplayers, rc;
    fw_event *ev;

    for (int i = 2; i < n; i++)
        if (h->blinds[i] != 0)
            return phh_fail(g->err, g->errsz, FW_EUNSUPPORTED,
                            "blinds_or_straddles: p%d posts a straddle of "
                            "%" PRId64 "; only a small and a big blind are "
                            "supported",
                            i + 1, h->blinds[i]);
    int64_t sb = h->blinds[0], bb = h->blinds[1];
    if (bb == 0)
        return phh_fail(g->err, g->errsz, FW_EUNSUPPORTED,
                        "blinds_or_straddles: no big blind");
    if (h->game != FW_GAME_FLHE && h->min_bet != bb)
        return phh_fail(g->err, g->errsz, FW_EUNSUPPORTED,
                        "min_bet %" PRId64 " differs from the big blind "
                        "%" PRId64 "; the engine's minimum bet is the big "
                        "blind",
                        h->min_bet, bb);

    /* Antes: none, the same for everyone, or the big blind's alone. */
    int64_t ante = 0;
    fw_ante_type ante_type = FW_ANTE_BB;
    bool all_same = true, bb_only = h->antes[1] != 0;
    for (int i = 0; i < n; i++) {
        if (h->antes[i] != h->antes[0])
            all_same = false;
        if (i != 1 && h->antes[i] != 0)
            bb_only = false;
    }
    if (all_same && h->antes[0] != 0) {
        ante = h->antes[0];
        ante_type = FW_ANTE_EACH;
    } else if (bb_only) {
        ante = h->antes[1];
        ante_type = FW_ANTE_BB;
    } else if (!all_same) {
        return phh_fail(g->err, g->errsz, FW_EUNSUPPORTED,
                        "antes: only no antes, the same ante for everyone, "
                        "or a big blind ante are supported");
    }

    ev = ev_new(g, FW_EV_TABLE);
    ev->seats = n;
    ev->game = h->game;
    ev->profile = FW_PROFILE_TDA;
    if ((rc = ev_send(g)) != FW_OK)
        return rc;

    ev = ev_new(g, FW_EV_LEVEL);
    ev->sb = sb;
    ev->bb = bb;
    ev->ante = ante;
    ev->ante_type = ante_type;
    if (h->game == FW_GAME_FLHE) {
        ev->small_bet = h->small_bet;
        ev->big_bet = h->big_bet;
    }
    if ((rc = ev_send(g)) != FW_OK)
        return rc;

    for (int i = 0; i < n; i++) {
        ev = ev_new(g, FW_EV_SEAT);
        ev->seat = i + 1;
        ev->has_player = 1;
        if (h->has_players && h->players[i][0])
            snprintf(ev->player, sizeof ev->player, "%s", h->players[i]);
        else
            snprintf(ev->player, sizeof ev->player, "p%d", i + 1);
        ev->has_stack = 1;
        ev->stack = h->starting_stacks[i];
        if ((rc = ev_send(g)) != FW_OK)
            return rc;
        g->stack[i] = h->starting_stacks[i];
    }

    ev = ev_new(g, FW_EV_BUTTON);
    ev->seat = n;
    if ((rc = ev_send(g)) != FW_OK)
        return rc;
    ev_new(g, FW_EV_HAND_START);
    if ((rc = ev_send(g)) != FW_OK)
        return rc;

    /* What the engine posts at hand_start: antes for everyone first; a
     * big blind ante after the big blind itself. */
    if (ante_type == FW_ANTE_EACH)
        for (int p = 1; p <= n; p++)
            post(g, p, ante, true);
    post(g, sb_player(h), sb, false);
    post(g, bb_player(h), bb, false);
    if (ante_type == FW_ANTE_BB && ante > 0)
        post(g, bb_player(h), ante, true);
    return FW_OK;
}

/*
 * The opening deal: gather the leading `d dh` actions (a file may deal
 * each player's cards at once or one card at a time) and deal them as the
 * dealer does, one card at a time round the table from seat 1, the seat
 * left of the button. Returns the number of actions consumed via *used.
 */
static int emit_deal(gen *g, int *used)
{
    const fw_phh *h = g->h;
    int n = h->nplayers, i = 0, rc;
    for (; i < h->nactions && h->actions[i].act == FW_PHH_DEAL_HOLE; i++) {
        const fw_phh_action *a = &h->actions[i];
        int p = a->player - 1;
        g->action = i;
        if (g->nhole[p] + a->ncards > g->holes)
            return act_fail(
                g, FW_EPARSE, "p%d would hold %d hole cards; %s deals %d",
                a->player, g->nhole[p] + a->ncards, h->variant, g->holes);
        for (int c = 0; c < a->ncards; c++)
            g->hole[p][g->nhole[p]++] = a->cards[c];
    }
    g->action = -1;
    for (int p = 0; p < n; p++)
        if (g->nhole[p] != g->holes)
            return phh_fail(g->err, g->errsz, FW_EPARSE,
                            "the deal gives p%d %d hole card(s); %s deals %d "
                            "to every player",
                            p + 1, g->nhole[p], h->variant, g->holes);
    for (int r = 0; r < g->holes; r++) {
        for (int p = 0; p < n; p++) {
            fw_event *ev = ev_new(g, FW_EV_CARD);
            ev->to = FW_TO_SEAT;
            ev->seat = p + 1;
            ev->face = FW_FACE_DOWN;
            ev->card = g->hole[p][r];
            if ((rc = ev_send(g)) != FW_OK)
                return rc;
        }
    }
    *used = i;
    return FW_OK;
}

/* True when the cards a and b (n each) are the same set. */
static bool same_cards(const fw_card *a, const fw_card *b, int n)
{
    for (int i = 0; i < n; i++) {
        bool found = false;
        for (int j = 0; j < n; j++)
            if (a[i] == b[j])
                found = true;
        if (!found)
            return false;
    }
    return true;
}

/* Translate action number i (after the opening deal). */
static int emit_action(gen *g, int i)
{
    const fw_phh *h = g->h;
    const fw_phh_action *a = &h->actions[i];
    int p = a->player - 1;
    fw_event *ev;
    g->action = i;

    switch (a->act) {
    case FW_PHH_DEAL_HOLE:
        return act_fail(g, FW_EPARSE,
                        "hole cards dealt after the betting began (draw "
                        "games are not supported)");
    case FW_PHH_DEAL_BOARD: {
        static const int want[] = {3, 1, 1};
        int rc;
        if (g->street >= 3)
            return act_fail(g, FW_EPARSE, "a board card after the river");
        if (a->ncards != want[g->street])
            return act_fail(g, FW_EPARSE, "the %s takes %d card(s), not %d",
                            g->street == 0   ? "flop"
                            : g->street == 1 ? "turn"
                                             : "river",
                            want[g->street], a->ncards);
        for (int c = 0; c < a->ncards; c++)
            if (a->cards[c] == FW_CARD_NONE)
                return act_fail(g, FW_EUNSUPPORTED,
                                "an unknown board card cannot be replayed");
        ev = ev_new(g, FW_EV_CARD);
        ev->to = FW_TO_BURN;
        ev->face = FW_FACE_DOWN;
        if ((rc = ev_send(g)) != FW_OK)
            return rc;
        for (int c = 0; c < a->ncards; c++) {
            ev = ev_new(g, FW_EV_CARD);
            ev->to = FW_TO_BOARD;
            ev->face = FW_FACE_UP;
            ev->card = a->cards[c];
            if ((rc = ev_send(g)) != FW_OK)
                return rc;
        }
        g->street++;
        g->cur = 0;
        memset(g->bet, 0, sizeof g->bet);
        return FW_OK;
    }
    case FW_PHH_FOLD:
        ev = ev_new(g, FW_EV_FOLD);
        ev->seat = a->player;
        g->done[p] = true;
        return ev_send(g);
    case FW_PHH_CHECK_CALL: {
        ev = ev_new(g, FW_EV_SAY);
        ev->seat = a->player;
        int64_t owe = g->cur - g->bet[p];
        if (owe <= 0) {
            ev->word = FW_WORD_CHECK;
        } else {
            ev->word = FW_WORD_CALL;
            if (owe > g->stack[p])
                owe = g->stack[p];
            g->stack[p] -= owe;
            g->bet[p] += owe;
        }
        return ev_send(g);
    }
    case FW_PHH_BET_RAISE: {
        int64_t add = a->amount - g->bet[p];
        if (add <= 0)
            return act_fail(g, FW_EPARSE,
                            "a bet to %" PRId64 " when p%d has %" PRId64
                            " in already",
                            a->amount, a->player, g->bet[p]);
        if (add > g->stack[p])
            return act_fail(g, FW_EPARSE,
                            "a bet to %" PRId64 " needs %" PRId64
                            " more but p%d has %" PRId64 " behind",
                            a->amount, add, a->player, g->stack[p]);
        if (a->amount <= g->cur && add != g->stack[p])
            return act_fail(g, FW_EPARSE,
                            "a bet to %" PRId64 " is not above the current "
                            "bet of %" PRId64 " and not all-in",
                            a->amount, g->cur);
        ev = ev_new(g, FW_EV_SAY);
        ev->seat = a->player;
        if (a->amount <= g->cur)
            /* An all-in for no more than the current bet: a call. */
            ev->word = FW_WORD_ALL_IN;
        else
            ev->word = g->cur == 0 ? FW_WORD_BET : FW_WORD_RAISE;
        ev->has_amount = 1;
        ev->amount = a->amount;
        g->stack[p] -= add;
        g->bet[p] = a->amount;
        if (a->amount > g->cur)
            g->cur = a->amount;
        if (g->street == 3)
            g->river_aggressor = a->player;
        return ev_send(g);
    }
    case FW_PHH_SHOW: {
        fw_card shown[FW_MAX_HOLE];
        int ns = 0;
        if (a->dash) {
            for (int c = 0; c < g->nhole[p]; c++)
                if (g->hole[p][c] == FW_CARD_NONE)
                    return act_fail(g, FW_EPARSE,
                                    "'sm -' shows the dealt cards, but p%d's "
                                    "were dealt unknown",
                                    a->player);
            memcpy(shown, g->hole[p], sizeof shown);
            ns = g->nhole[p];
        } else {
            if (a->ncards != g->holes)
                return act_fail(g, FW_EPARSE,
                                "shows %d card(s); %s hands have %d", a->ncards,
                                h->variant, g->holes);
            for (int c = 0; c < a->ncards; c++)
                if (a->cards[c] == FW_CARD_NONE)
                    return act_fail(g, FW_EUNSUPPORTED,
                                    "shows unknown cards, which the engine "
                                    "cannot judge");
            bool known = true;
            for (int c = 0; c < g->nhole[p]; c++)
                if (g->hole[p][c] == FW_CARD_NONE)
                    known = false;
            if (known && !same_cards(a->cards, g->hole[p], a->ncards))
                return act_fail(g, FW_EPARSE,
                                "shows cards other than p%d was dealt",
                                a->player);
            memcpy(shown, a->cards, sizeof(fw_card) * (size_t)a->ncards);
            ns = a->ncards;
            memcpy(g->hole[p], shown, sizeof(fw_card) * (size_t)ns);
        }
        ev = ev_new(g, FW_EV_SHOW);
        ev->seat = a->player;
        memcpy(ev->cards, shown, sizeof(fw_card) * (size_t)ns);
        ev->ncards = ns;
        g->done[p] = true;
        return ev_send(g);
    }
    case FW_PHH_MUCK:
        ev = ev_new(g, FW_EV_MUCK);
        ev->seat = a->player;
        g->done[p] = true;
        return ev_send(g);
    }
    return act_fail(g, FW_EINTERNAL, "unknown action kind");
}

/* The whole translation into an allocated gen, kept for the caller. */
static int run_events(const fw_phh *h, fw_phh_event_fn cb, void *ctx, char *err,
                      size_t errsz, gen *g)
{
    memset(g, 0, sizeof *g);
    g->h = h;
    g->cb = cb;
    g->ctx = ctx;
    g->err = err;
    g->errsz = errsz;
    g->action = -1;
    g->holes = fw_game_hole_cards(h->game);
    if (g->holes < 1 || g->holes > FW_MAX_HOLE)
        return phh_fail(err, errsz, FW_EINTERNAL, "no hole card count");

    int rc = emit_setup(g);
    if (rc != FW_OK)
        return rc;
    int first = 0;
    if ((rc = emit_deal(g, &first)) != FW_OK)
        return rc;
    for (int i = first; i < h->nactions; i++)
        if ((rc = emit_action(g, i)) != FW_OK)
            return rc;
    g->action = -1;
    return FW_OK;
}

int fw_phh_events(const fw_phh *h, fw_phh_event_fn cb, void *ctx, char *err,
                  size_t errsz)
{
    if (err && errsz > 0)
        err[0] = '\0';
    if (!h || !cb)
        return phh_fail(err, errsz, FW_EINVAL, "no hand or no callback");
    gen *g = malloc(sizeof *g);
    if (!g)
        return phh_fail(err, errsz, FW_ENOMEM, "out of memory");
    int rc = run_events(h, cb, ctx, err, errsz, g);
    free(g);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Replay                                                               */
/* ------------------------------------------------------------------ */

typedef struct replay {
    fw_engine *e;
    bool ended;
    char stop[FW_TEXT_MAX + 80]; /* the first alert that stops the game */
} replay;

/* The engine's records: note the end of the hand and the first alert
 * that would halt a real table, to explain a hand that does not end. */
static void on_record(void *ctx, const fw_record *rec)
{
    replay *r = ctx;
    if (rec->type == FW_REC_HAND_END) {
        r->ended = true;
    } else if (rec->type == FW_REC_ALERT &&
               rec->u.alert.severity == FW_SEV_STOP && !r->stop[0]) {
        snprintf(r->stop, sizeof r->stop, "%s: %s", rec->u.alert.kind,
                 rec->u.alert.text);
    }
}

static int apply_event(void *ctx, const fw_event *ev)
{
    replay *r = ctx;
    const char *why = NULL;
    int rc = fw_engine_apply(r->e, ev, &why);
    if (rc == FW_OK)
        return FW_OK;
    return fw_set_error(FW_ESTATE, "the engine refused the %s event: %s",
                        fw_event_type_name(ev->type),
                        why ? why : fw_strerror(rc));
}

/* Find seat s in the state's seat list; NULL if absent. */
static const fw_seat_view *seat_view(const fw_state *st, int s)
{
    for (int i = 0; i < st->nseats && i < FW_MAX_SEATS; i++)
        if (st->seats[i].seat == s)
            return &st->seats[i];
    return NULL;
}

/*
 * Finish a showdown the file left open. The seats still in the hand that
 * neither showed nor mucked table the cards they were dealt (or muck, when
 * the file does not know them), in the order TDA Rule 17-A gives: the last
 * aggressor on the river first, else the first seat left of the button
 * (seat 1), then clockwise.
 */
static int auto_showdown(replay *r, gen *g, char *err, size_t errsz)
{
    fw_state st;
    fw_engine_state(r->e, &st);
    if (st.street != FW_ST_SHOWDOWN)
        return FW_OK;
    int n = g->h->nplayers;
    int first = g->river_aggressor ? g->river_aggressor : 1;
    for (int k = 0; k < n && !r->ended; k++) {
        int s = (first - 1 + k) % n + 1, p = s - 1;
        const fw_seat_view *sv = seat_view(&st, s);
        if (!sv || g->done[p] ||
            (sv->status != FW_SEAT_ACTIVE && sv->status != FW_SEAT_ALL_IN))
            continue;
        fw_event *ev = ev_new(g, FW_EV_SHOW);
        ev->seat = s;
        for (int c = 0; c < g->nhole[p]; c++)
            if (g->hole[p][c] == FW_CARD_NONE)
                ev->type = FW_EV_MUCK;
        if (ev->type == FW_EV_SHOW) {
            memcpy(ev->cards, g->hole[p], sizeof ev->cards);
            ev->ncards = g->nhole[p];
        }
        g->done[p] = true;
        if (apply_event(r, ev) != FW_OK) {
            char why[FW_PHH_ERR_MAX];
            snprintf(why, sizeof why, "%s", fw_last_error());
            return phh_fail(err, errsz, FW_ESTATE,
                            "after the last action, at showdown: %s", why);
        }
    }
    return FW_OK;
}

int fw_phh_replay(const fw_phh *h, int64_t *finishing, int *n, char *err,
                  size_t errsz)
{
    if (err && errsz > 0)
        err[0] = '\0';
    if (!h || !finishing || !n)
        return phh_fail(err, errsz, FW_EINVAL, "no hand or no output");
    replay r;
    memset(&r, 0, sizeof r);
    int rc = fw_engine_new(on_record, &r, &r.e);
    if (rc != FW_OK)
        return phh_fail(err, errsz, rc, "cannot create an engine: %s",
                        fw_strerror(rc));
    gen *g = malloc(sizeof *g);
    if (!g) {
        fw_engine_free(r.e);
        return phh_fail(err, errsz, FW_ENOMEM, "out of memory");
    }
    rc = run_events(h, apply_event, &r, err, errsz, g);
    if (rc == FW_OK && !r.ended)
        rc = auto_showdown(&r, g, err, errsz);
    if (rc == FW_OK && !r.ended) {
        fw_state st;
        fw_engine_state(r.e, &st);
        rc = phh_fail(err, errsz, FW_ESTATE,
                      "the hand has not ended after the last action "
                      "(street %s, seat %d to act)%s%s",
                      fw_street_name(st.street), st.to_act,
                      r.stop[0] ? "; the engine stopped the game: " : "",
                      r.stop);
    }
    if (rc == FW_OK) {
        fw_state st;
        fw_engine_state(r.e, &st);
        for (int i = 0; i < h->nplayers; i++) {
            const fw_seat_view *sv = seat_view(&st, i + 1);
            if (!sv) {
                rc = phh_fail(err, errsz, FW_EINTERNAL,
                              "the engine's state has no seat %d", i + 1);
                break;
            }
            finishing[i] = sv->stack;
        }
        *n = h->nplayers;
    }
    free(g);
    fw_engine_free(r.e);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Output and the command                                               */
/* ------------------------------------------------------------------ */

int fw_phh_format_amount(int64_t v, int64_t scale, char *buf, size_t size)
{
    int decimals = 0;
    for (int64_t s = scale; s > 1; s /= 10)
        decimals++;
    int64_t mag = v < 0 ? -v : v;
    int64_t whole = scale > 0 ? mag / scale : mag;
    int64_t frac = scale > 0 ? mag % scale : 0;
    /* Drop the decimals' trailing zeros. */
    while (decimals > 0 && frac % 10 == 0) {
        frac /= 10;
        decimals--;
    }
    int w;
    if (decimals > 0)
        w = snprintf(buf, size, "%s%" PRId64 ".%0*" PRId64, v < 0 ? "-" : "",
                     whole, decimals, frac);
    else
        w = snprintf(buf, size, "%s%" PRId64, v < 0 ? "-" : "", whole);
    if (w < 0 || (size_t)w >= size)
        return FW_ERANGE;
    return FW_OK;
}

/*
 * Read all of f into a malloc'd buffer of at most FW_PHH_TEXT_MAX + 1
 * bytes (one more than the parser accepts, so a larger file fails there
 * with its own message). Returns FW_OK, FW_EIO or FW_ENOMEM.
 */
static int slurp(FILE *f, char **out, size_t *len)
{
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    if (!buf)
        return FW_ENOMEM;
    for (;;) {
        if (n == cap) {
            if (cap > FW_PHH_TEXT_MAX)
                break;
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                return FW_ENOMEM;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        free(buf);
        return FW_EIO;
    }
    *out = buf;
    *len = n;
    return FW_OK;
}

int fw_phh_main(const char *path, FILE *out, FILE *errout)
{
    char err[FW_PHH_ERR_MAX] = "";
    char *text = NULL;
    size_t len = 0;
    fw_phh *h = NULL;
    int64_t fin[FW_PHH_MAX_PLAYERS];
    int n = 0, rc;

    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        fprintf(errout, "feltwatch: phh: %s: cannot open\n", path);
        return 1;
    }
    rc = slurp(f, &text, &len);
    if (!is_stdin)
        fclose(f);
    if (rc != FW_OK) {
        fprintf(errout, "feltwatch: phh: %s: %s\n", path, fw_strerror(rc));
        return 1;
    }
    h = malloc(sizeof *h);
    if (!h) {
        free(text);
        fprintf(errout, "feltwatch: phh: %s: out of memory\n", path);
        return 1;
    }
    rc = fw_phh_parse(text, len, h, err, sizeof err);
    free(text);
    if (rc == FW_OK)
        rc = fw_phh_replay(h, fin, &n, err, sizeof err);
    if (rc != FW_OK) {
        fprintf(errout, "feltwatch: phh: %s: %s\n", path, err);
        free(h);
        return 1;
    }
    fputs("{\"finishing_stacks\":[", out);
    for (int i = 0; i < n; i++) {
        char num[48];
        fw_phh_format_amount(fin[i], h->scale, num, sizeof num);
        fprintf(out, "%s%s", i ? "," : "", num);
    }
    fputs("]}\n", out);
    if (h->has_finishing) {
        for (int i = 0; i < n; i++) {
            if (fin[i] == h->finishing_stacks[i])
                continue;
            char got[48], want[48];
            fw_phh_format_amount(fin[i], h->scale, got, sizeof got);
            fw_phh_format_amount(h->finishing_stacks[i], h->scale, want,
                                 sizeof want);
            fprintf(errout,
                    "feltwatch: phh: %s: note: p%d finishes with %s, the "
                    "file records %s\n",
                    path, i + 1, got, want);
        }
    }
    free(h);
    return 0;
}
