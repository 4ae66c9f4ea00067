/*
 * export.c - `feltwatch export` (export.h): stored hands as PHH, OHH or
 * PokerStars text.
 */
#include "export.h"

#include "store.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

typedef enum { FMT_PHH, FMT_OHH, FMT_PS } fmt;

#define EXPORT_MSG_MAX 512

/* ------------------------------------------------------------------ */
/* Shared helpers                                                       */
/* ------------------------------------------------------------------ */

static const fw_store_player *player_at(const fw_store_hand *h, int seat)
{
    for (int i = 0; i < h->nplayers; i++)
        if (h->players[i].seat == seat)
            return &h->players[i];
    return NULL;
}

/* The name shown for a seat: the player's name, or "Seat N". */
static void seat_name(const fw_store_hand *h, int seat, char *out, size_t size)
{
    const fw_store_player *p = player_at(h, seat);
    if (p && p->name[0])
        snprintf(out, size, "%s", p->name);
    else
        snprintf(out, size, "Seat %d", seat);
}

/*
 * The players dealt in, in PHH position order: from the first seat after
 * the button clockwise, so the button (or the last seat before a dead
 * button) comes last. Heads-up this puts the big blind first and the
 * button, who posts the small blind, second (TDA 34-B), as PHH wants.
 * Returns the count; order[] receives indexes into h->players.
 */
static int position_order(const fw_store_hand *h, int order[FW_MAX_SEATS])
{
    int n = 0;
    int top = h->table_seats > 0 ? h->table_seats : FW_MAX_SEATS;
    for (int i = 0; i < h->nplayers; i++)
        if (h->players[i].seat > top)
            top = h->players[i].seat;
    int seat = h->button >= 1 && h->button <= top ? h->button : top;
    for (int k = 0; k < top; k++) {
        seat = seat >= top ? 1 : seat + 1;
        for (int i = 0; i < h->nplayers; i++)
            if (h->players[i].seat == seat && h->players[i].dealt_in &&
                n < FW_MAX_SEATS)
                order[n++] = i;
    }
    return n;
}

static int index_of_seat(const fw_store_hand *h, const int *order, int n,
                         int seat)
{
    for (int i = 0; i < n; i++)
        if (h->players[order[i]].seat == seat)
            return i;
    return -1;
}

/* Cards as "AhKd" ("??" for an unknown one). */
static void cards_concat(const fw_card *c, int n, char *out, size_t size)
{
    size_t k = 0;
    out[0] = '\0';
    for (int i = 0; i < n && k + 3 <= size; i++) {
        char cs[3];
        fw_card_str(c[i], cs);
        out[k++] = cs[0];
        out[k++] = cs[1];
        out[k] = '\0';
    }
}

/* Cards as "Ah Kd" for PokerStars. */
static void cards_spaced(const fw_card *c, int n, char *out, size_t size)
{
    size_t k = 0;
    out[0] = '\0';
    for (int i = 0; i < n && k + 4 <= size; i++) {
        char cs[3];
        fw_card_str(c[i], cs);
        if (i)
            out[k++] = ' ';
        out[k++] = cs[0];
        out[k++] = cs[1];
        out[k] = '\0';
    }
}

/*
 * The hole cards to write for a player: those seen dealt when there are
 * enough of them and all known, else those tabled, else `want` unknowns.
 */
static int known_hole(const fw_store_player *p, int want, fw_card *out)
{
    int ok = p->nhole >= want;
    for (int i = 0; ok && i < want; i++)
        ok = p->hole[i] < 52;
    if (ok) {
        memcpy(out, p->hole, (size_t)want);
        return want;
    }
    ok = p->nshown >= want;
    for (int i = 0; ok && i < want; i++)
        ok = p->shown[i] < 52;
    if (ok) {
        memcpy(out, p->shown, (size_t)want);
        return want;
    }
    for (int i = 0; i < want; i++)
        out[i] = FW_CARD_NONE;
    return 0;
}

/* Chips the seat won in the hand, over every pot. */
static int64_t winnings(const fw_store_hand *h, int seat)
{
    int64_t w = 0;
    for (int i = 0; i < h->nawards; i++)
        if (h->awards[i].seat == seat)
            w += h->awards[i].amount;
    return w;
}

static int64_t posted(const fw_store_hand *h, int seat, fw_store_act act)
{
    for (int i = 0; i < h->nactions; i++)
        if (h->actions[i].seat == seat && h->actions[i].act == act)
            return h->actions[i].added;
    return 0;
}

static int poster(const fw_store_hand *h, fw_store_act act)
{
    for (int i = 0; i < h->nactions; i++)
        if (h->actions[i].act == act)
            return h->actions[i].seat;
    return 0;
}

/* The blinds of the level; limit games post half and one small bet when
 * the level names none (as the engine does). */
static void blind_amounts(const fw_store_hand *h, int64_t *sb, int64_t *bb)
{
    *sb = h->sb;
    *bb = h->bb;
    if (*bb == 0 && h->game == FW_GAME_FLHE) {
        *bb = h->small_bet;
        *sb = h->small_bet / 2;
    }
    if (*bb == 0)
        *bb = posted(h, poster(h, FW_SACT_BIG_BLIND), FW_SACT_BIG_BLIND);
    if (*sb == 0)
        *sb = posted(h, poster(h, FW_SACT_SMALL_BLIND), FW_SACT_SMALL_BLIND);
}

/* Write `s` as a TOML basic string: escapes, and any byte that is not
 * part of valid UTF-8 as "?". */
static void toml_string(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', f);
    while (*p) {
        unsigned c = *p;
        if (c == '"' || c == '\\') {
            fputc('\\', f);
            fputc((int)c, f);
            p++;
        } else if (c < 0x20 || c == 0x7f) {
            fprintf(f, "\\u%04X", c);
            p++;
        } else if (c < 0x80) {
            fputc((int)c, f);
            p++;
        } else {
            int len = c >= 0xF0 && c <= 0xF4   ? 4
                      : c >= 0xE0 && c <= 0xEF ? 3
                      : c >= 0xC2 && c <= 0xDF ? 2
                                               : 0;
            int ok = len > 0;
            for (int i = 1; ok && i < len; i++)
                ok = (p[i] & 0xC0) == 0x80;
            if (ok) {
                fwrite(p, 1, (size_t)len, f);
                p += len;
            } else {
                fputc('?', f);
                p++;
            }
        }
    }
    fputc('"', f);
}

/* A name for JSON: jansson wants valid UTF-8, a garbage row may not be. */
static json_t *json_name(const char *s)
{
    json_t *j = json_string(s);
    if (j)
        return j;
    char clean[FW_MAX_NAME];
    size_t k = 0;
    for (const char *p = s; *p && k + 1 < sizeof clean; p++)
        clean[k++] = (unsigned char)*p < 0x80 ? *p : '?';
    clean[k] = '\0';
    return json_string(clean);
}

/* ------------------------------------------------------------------ */
/* PHH                                                                  */
/* ------------------------------------------------------------------ */

static const char *phh_variant(fw_game g)
{
    switch (g) {
    case FW_GAME_NLHE:
        return "NT";
    case FW_GAME_PLO:
        return "PO";
    case FW_GAME_FLHE:
        return "FT";
    case FW_GAME_NLSD:
        return "NS";
    default:
        return NULL;
    }
}

static void toml_int_array(FILE *f, const char *key, const int64_t *v, int n)
{
    fprintf(f, "%s = [", key);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%" PRId64, i ? ", " : "", v[i]);
    fprintf(f, "]\n");
}

/*
 * One hand as a PHH document (or a .phhs table when `table_key` > 0).
 * Checks everything before writing a line, so a refused hand leaves
 * nothing half-written; returns FW_OK or an error with msg filled.
 */
static int write_phh(FILE *f, const fw_store_hand *h, int table_key, char *msg,
                     size_t msgsz)
{
    const char *variant = phh_variant(h->game);
    if (!variant) {
        snprintf(msg, msgsz, "PHH has no variant for %s",
                 fw_game_name(h->game));
        return FW_EUNSUPPORTED;
    }
    if (strcmp(h->status, "complete") != 0) {
        snprintf(msg, msgsz,
                 "the hand did not end normally (%s): PHH records hands "
                 "played to the end",
                 h->status);
        return FW_EUNSUPPORTED;
    }
    int order[FW_MAX_SEATS];
    int n = position_order(h, order);
    if (n < 2) {
        snprintf(msg, msgsz, "fewer than two players were dealt in");
        return FW_EPARSE;
    }
    int64_t start[FW_MAX_SEATS], finish[FW_MAX_SEATS], won[FW_MAX_SEATS];
    int64_t antes[FW_MAX_SEATS] = {0}, blinds[FW_MAX_SEATS] = {0};
    int64_t seats[FW_MAX_SEATS];
    for (int i = 0; i < n; i++) {
        const fw_store_player *p = &h->players[order[i]];
        if (p->starting_stack <= 0 || p->final_stack < 0) {
            snprintf(msg, msgsz, "seat %d: %s stack unknown", p->seat,
                     p->starting_stack <= 0 ? "starting" : "finishing");
            return FW_EPARSE;
        }
        start[i] = p->starting_stack;
        finish[i] = p->final_stack;
        won[i] = winnings(h, p->seat);
        seats[i] = p->seat;
    }
    int64_t sb, bb;
    blind_amounts(h, &sb, &bb);
    /* forced bets by role: index 0 the small blind, 1 the big blind, in
     * heads-up too (PHH reverses them there by rule) */
    int sb_seat = poster(h, FW_SACT_SMALL_BLIND);
    int bb_seat = poster(h, FW_SACT_BIG_BLIND);
    int sb_role = n == 2 ? 1 : 0, bb_role = n == 2 ? 0 : 1;
    int sbi = index_of_seat(h, order, n, sb_seat);
    int bbi = index_of_seat(h, order, n, bb_seat);
    if (bbi == bb_role && (sb_seat == 0 || sbi == sb_role)) {
        blinds[0] = sb_seat ? sb : 0;
        blinds[1] = bb;
    } else {
        /* blinds where PHH does not expect them (a dead small blind
         * moved, a dead button): as posted, by position */
        for (int i = 0; i < n; i++)
            blinds[i] = h->players[order[i]].blind;
    }
    if (h->ante > 0) {
        if (h->ante_type == FW_ANTE_EACH)
            for (int i = 0; i < n; i++)
                antes[i] = h->ante;
        else
            antes[1] = h->ante;
    }
    int hole_n = fw_game_hole_cards(h->game);
    for (int i = 0; i < h->nactions; i++) {
        const fw_store_action *a = &h->actions[i];
        if (a->act == FW_SACT_BOARD)
            for (int k = 0; k < a->ncards; k++)
                if (a->cards[k] >= 52) {
                    snprintf(msg, msgsz, "a board card was not seen");
                    return FW_EPARSE;
                }
    }

    if (table_key > 0)
        fprintf(f, "[%d]\n", table_key);
    fprintf(f, "# feltwatch hand %d", h->hand_no);
    if (h->table_name[0])
        fprintf(f, ", table %s", h->table_name);
    fprintf(f, "\nvariant = \"%s\"\n", variant);
    toml_int_array(f, "antes", antes, n);
    toml_int_array(f, "blinds_or_straddles", blinds, n);
    if (h->game == FW_GAME_FLHE) {
        int64_t small = h->small_bet > 0 ? h->small_bet : bb;
        int64_t big = h->big_bet > 0 ? h->big_bet : 2 * small;
        fprintf(f, "small_bet = %" PRId64 "\nbig_bet = %" PRId64 "\n", small,
                big);
    } else {
        fprintf(f, "min_bet = %" PRId64 "\n", bb);
    }
    toml_int_array(f, "starting_stacks", start, n);
    fprintf(f, "actions = [\n");
    for (int i = 0; i < n; i++) {
        fw_card hole[FW_MAX_HOLE];
        known_hole(&h->players[order[i]], hole_n, hole);
        char cs[16];
        cards_concat(hole, hole_n, cs, sizeof cs);
        fprintf(f, "  \"d dh p%d %s\",\n", i + 1, cs);
    }
    for (int i = 0; i < h->nactions; i++) {
        const fw_store_action *a = &h->actions[i];
        char cs[16];
        if (a->act == FW_SACT_BOARD) {
            cards_concat(a->cards, a->ncards, cs, sizeof cs);
            fprintf(f, "  \"d db %s\",\n", cs);
            continue;
        }
        int pi = index_of_seat(h, order, n, a->seat) + 1;
        if (pi < 1)
            continue; /* a seat not dealt in: nothing PHH can say */
        switch (a->act) {
        case FW_SACT_CHECK:
        case FW_SACT_CALL:
            fprintf(f, "  \"p%d cc\",\n", pi);
            break;
        case FW_SACT_BET:
        case FW_SACT_RAISE:
            fprintf(f, "  \"p%d cbr %" PRId64 "\",\n", pi, a->to);
            break;
        case FW_SACT_FOLD:
            fprintf(f, "  \"p%d f\",\n", pi);
            break;
        case FW_SACT_SHOW:
            cards_concat(a->cards, a->ncards, cs, sizeof cs);
            fprintf(f, "  \"p%d sm %s\",\n", pi, cs);
            break;
        case FW_SACT_MUCK:
            fprintf(f, "  \"p%d sm\",\n", pi);
            break;
        default:
            break; /* antes and blinds follow from the fields above */
        }
    }
    fprintf(f, "]\n");
    toml_int_array(f, "finishing_stacks", finish, n);
    toml_int_array(f, "winnings", won, n);
    fprintf(f, "hand = %d\n", h->hand_no);
    if (h->table_name[0]) {
        fprintf(f, "table = ");
        toml_string(f, h->table_name);
        fprintf(f, "\n");
    }
    if (h->table_seats > 0)
        fprintf(f, "seat_count = %d\n", h->table_seats);
    toml_int_array(f, "seats", seats, n);
    fprintf(f, "players = [");
    for (int i = 0; i < n; i++) {
        char name[FW_MAX_NAME + 8];
        seat_name(h, h->players[order[i]].seat, name, sizeof name);
        fprintf(f, "%s", i ? ", " : "");
        toml_string(f, name);
    }
    fprintf(f, "]\n");
    int y, mo, d, hh, mi, ss;
    if (sscanf(h->started_utc, "%4d-%2d-%2dT%2d:%2d:%2d", &y, &mo, &d, &hh, &mi,
               &ss) == 6 &&
        mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && hh >= 0 && hh < 24 &&
        mi >= 0 && mi < 60 && ss >= 0 && ss < 61)
        fprintf(f,
                "year = %d\nmonth = %d\nday = %d\ntime = %02d:%02d:%02d\n"
                "time_zone_abbreviation = \"UTC\"\n",
                y, mo, d, hh, mi, ss > 59 ? 59 : ss);
    return FW_OK;
}

/* ------------------------------------------------------------------ */
/* OHH                                                                  */
/* ------------------------------------------------------------------ */

static const char *ohh_street(fw_street s)
{
    switch (s) {
    case FW_ST_FLOP:
        return "Flop";
    case FW_ST_TURN:
        return "Turn";
    case FW_ST_RIVER:
        return "River";
    case FW_ST_SHOWDOWN:
        return "Showdown";
    default:
        return "Preflop";
    }
}

static json_t *ohh_cards(const fw_card *c, int n)
{
    json_t *a = json_array();
    for (int i = 0; a && i < n; i++) {
        if (c[i] >= 52)
            continue;
        char cs[3];
        fw_card_str(c[i], cs);
        json_array_append_new(a, json_string(cs));
    }
    return a;
}

static json_t *ohh_round(json_t *rounds, int id, const char *street,
                         json_t *cards)
{
    json_t *r = json_object();
    json_object_set_new(r, "id", json_integer(id));
    json_object_set_new(r, "street", json_string(street));
    json_object_set_new(r, "cards", cards ? cards : json_array());
    json_t *acts = json_array();
    json_object_set_new(r, "actions", acts);
    json_array_append_new(rounds, r);
    return acts;
}

static void ohh_action(json_t *acts, int *number, int pid, const char *what,
                       int64_t amount, int all_in, json_t *cards)
{
    json_t *a = json_object();
    json_object_set_new(a, "action_number", json_integer(++*number));
    json_object_set_new(a, "player_id", json_integer(pid));
    json_object_set_new(a, "action", json_string(what));
    json_object_set_new(a, "amount", json_integer(amount));
    json_object_set_new(a, "is_allin", json_boolean(all_in));
    if (cards)
        json_object_set_new(a, "cards", cards);
    json_array_append_new(acts, a);
}

static int pid_of_seat(const fw_store_hand *h, int seat)
{
    for (int i = 0; i < h->nplayers; i++)
        if (h->players[i].seat == seat)
            return i;
    return -1;
}

static json_t *ohh_hand(const fw_store_hand *h)
{
    json_t *o = json_object();
    char num[96];
    if (h->table_name[0])
        snprintf(num, sizeof num, "%s-%d", h->table_name, h->hand_no);
    else
        snprintf(num, sizeof num, "%d", h->hand_no);
    int64_t sb, bb;
    blind_amounts(h, &sb, &bb);
    json_object_set_new(o, "spec_version", json_string("1.4.6"));
    json_object_set_new(o, "site_name", json_string("feltwatch"));
    json_object_set_new(o, "network_name", json_string("feltwatch"));
    json_object_set_new(o, "internal_version", json_string("0.1.0"));
    json_object_set_new(o, "tournament", json_false());
    json_object_set_new(o, "game_number", json_name(num));
    json_object_set_new(o, "start_date_utc", json_name(h->started_utc));
    json_object_set_new(o, "table_name", json_name(h->table_name));
    json_object_set_new(o, "table_handle", json_string(""));
    json_object_set_new(o, "table_skin", json_string(""));
    int omaha = h->game == FW_GAME_PLO || h->game == FW_GAME_PLO5;
    json_object_set_new(o, "game_type",
                        json_string(omaha ? "Omaha" : "Holdem"));
    json_t *limit = json_object();
    json_object_set_new(limit, "bet_cap", json_integer(0));
    json_object_set_new(limit, "bet_type",
                        json_string(omaha                     ? "PL"
                                    : h->game == FW_GAME_FLHE ? "FL"
                                                              : "NL"));
    json_object_set_new(o, "bet_limit", limit);
    json_object_set_new(o, "table_size", json_integer(h->table_seats));
    json_object_set_new(o, "currency", json_string(""));
    json_object_set_new(o, "dealer_seat", json_integer(h->button));
    json_object_set_new(o, "small_blind_amount", json_integer(sb));
    json_object_set_new(o, "big_blind_amount", json_integer(bb));
    json_object_set_new(o, "ante_amount", json_integer(h->ante));
    json_t *flags = json_array();
    if (h->game == FW_GAME_NLSD)
        json_array_append_new(flags, json_string("ShortDeck"));
    json_object_set_new(o, "flags", flags);

    json_t *players = json_array();
    for (int i = 0; i < h->nplayers; i++) {
        const fw_store_player *p = &h->players[i];
        char name[FW_MAX_NAME + 8];
        seat_name(h, p->seat, name, sizeof name);
        json_t *j = json_object();
        json_object_set_new(j, "id", json_integer(i));
        json_object_set_new(j, "seat", json_integer(p->seat));
        json_object_set_new(j, "name", json_name(name));
        json_object_set_new(j, "display", json_name(name));
        json_object_set_new(
            j, "starting_stack",
            json_integer(p->starting_stack > 0 ? p->starting_stack : 0));
        json_object_set_new(j, "player_bounty", json_integer(0));
        json_object_set_new(j, "is_sitting_out", json_boolean(!p->dealt_in));
        json_array_append_new(players, j);
    }
    json_object_set_new(o, "players", players);

    json_t *rounds = json_array();
    int round_id = 0, number = 0;
    json_t *acts = ohh_round(rounds, round_id++, "Preflop", NULL);
    json_t *showdown = NULL;
    int hole_n = fw_game_hole_cards(h->game);
    int dealt_written = 0;
    for (int i = 0; i <= h->nactions; i++) {
        const fw_store_action *a = i < h->nactions ? &h->actions[i] : NULL;
        int blind_post =
            a && (a->act == FW_SACT_ANTE || a->act == FW_SACT_SMALL_BLIND ||
                  a->act == FW_SACT_BIG_BLIND);
        if (!dealt_written && !blind_post) {
            /* the cards dealt, after the posts */
            dealt_written = 1;
            for (int k = 0; k < h->nplayers; k++) {
                const fw_store_player *p = &h->players[k];
                fw_card hole[FW_MAX_HOLE];
                if (p->dealt_in && known_hole(p, hole_n, hole) > 0)
                    ohh_action(acts, &number, k, "Dealt Cards", 0, 0,
                               ohh_cards(hole, hole_n));
            }
        }
        if (!a)
            break;
        int pid = pid_of_seat(h, a->seat);
        switch (a->act) {
        case FW_SACT_BOARD:
            acts = ohh_round(rounds, round_id++, ohh_street(a->street),
                             ohh_cards(a->cards, a->ncards));
            break;
        case FW_SACT_SHOW:
        case FW_SACT_MUCK:
            if (pid < 0)
                break;
            if (!showdown)
                showdown = ohh_round(rounds, -1, "Showdown", NULL);
            ohh_action(
                showdown, &number, pid,
                a->act == FW_SACT_SHOW ? "Shows Cards" : "Mucks Cards", 0, 0,
                a->act == FW_SACT_SHOW ? ohh_cards(a->cards, a->ncards) : NULL);
            break;
        default: {
            static const char *const names[FW_SACT_COUNT] = {
                "Post Ante", "Post SB", "Post BB", "Check",
                "Call",      "Bet",     "Raise",   "Fold"};
            if (pid < 0 || (int)a->act >= FW_SACT_BOARD)
                break;
            /* OHH: "Bet is not a valid pre-flop action" */
            const char *what =
                a->act == FW_SACT_BET && a->street == FW_ST_PREFLOP
                    ? "Raise"
                    : names[a->act];
            ohh_action(acts, &number, pid, what, a->added, a->all_in, NULL);
            break;
        }
        }
    }
    /* the showdown round comes last whatever street the cards were shown
     * on: give it its id now */
    size_t nr = json_array_size(rounds);
    for (size_t i = 0; i < nr; i++) {
        json_t *r = json_array_get(rounds, i);
        if (json_integer_value(json_object_get(r, "id")) == -1) {
            json_incref(r);
            json_array_remove(rounds, i);
            json_object_set_new(r, "id", json_integer(round_id++));
            json_array_append_new(rounds, r);
            break;
        }
    }
    json_object_set_new(o, "rounds", rounds);

    json_t *pots = json_array();
    for (int i = 0; i < h->nawards;) {
        int pot = h->awards[i].pot;
        json_t *p = json_object();
        json_t *wins = json_array();
        int64_t amount = 0;
        for (; i < h->nawards && h->awards[i].pot == pot; i++) {
            json_t *w = json_object();
            json_object_set_new(
                w, "player_id",
                json_integer(pid_of_seat(h, h->awards[i].seat)));
            json_object_set_new(w, "win_amount",
                                json_integer(h->awards[i].amount));
            json_object_set_new(w, "cashout_amount", json_integer(0));
            json_object_set_new(w, "cashout_fee", json_integer(0));
            json_object_set_new(w, "bonus_amount", json_integer(0));
            json_array_append_new(wins, w);
            amount += h->awards[i].amount;
        }
        json_object_set_new(p, "number", json_integer(pot));
        json_object_set_new(p, "amount", json_integer(amount));
        json_object_set_new(p, "rake", json_integer(0));
        json_object_set_new(p, "jackpot", json_integer(0));
        json_object_set_new(p, "player_wins", wins);
        json_array_append_new(pots, p);
    }
    json_object_set_new(o, "pots", pots);
    json_t *top = json_object();
    json_object_set_new(top, "ohh", o);
    return top;
}

static int write_ohh(FILE *f, const fw_store_hand *h, int first, char *msg,
                     size_t msgsz)
{
    json_t *j = ohh_hand(h);
    char *text = j ? json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
    json_decref(j);
    if (!text) {
        snprintf(msg, msgsz, "out of memory");
        return FW_ENOMEM;
    }
    fprintf(f, "%s%s\n", first ? "" : "\n", text);
    free(text);
    return FW_OK;
}

/* ------------------------------------------------------------------ */
/* PokerStars text                                                      */
/* ------------------------------------------------------------------ */

static const char *ps_game(fw_game g)
{
    switch (g) {
    case FW_GAME_PLO:
        return "Omaha Pot Limit";
    case FW_GAME_PLO5:
        return "5 Card Omaha Pot Limit";
    case FW_GAME_FLHE:
        return "Hold'em Limit";
    case FW_GAME_NLSD:
        return "6+ Hold'em No Limit";
    default:
        return "Hold'em No Limit";
    }
}

static const char *ps_street_name(fw_street s)
{
    switch (s) {
    case FW_ST_FLOP:
        return "Flop";
    case FW_ST_TURN:
        return "Turn";
    case FW_ST_RIVER:
        return "River";
    default:
        return "Flop";
    }
}

static int write_ps(FILE *f, const fw_store_hand *h, int first, char *msg,
                    size_t msgsz)
{
    (void)msg;
    (void)msgsz;
    int64_t sb, bb;
    blind_amounts(h, &sb, &bb);
    char date[40] = "1970/01/01 00:00:00";
    int y, mo, d, hh, mi, ss;
    if (sscanf(h->started_utc, "%4d-%2d-%2dT%2d:%2d:%2d", &y, &mo, &d, &hh, &mi,
               &ss) == 6)
        snprintf(date, sizeof date, "%04d/%02d/%02d %02d:%02d:%02d", y % 10000,
                 mo % 100, d % 100, hh % 100, mi % 100, ss % 100);
    if (!first)
        fprintf(f, "\n\n\n");
    if (h->game == FW_GAME_FLHE)
        fprintf(
            f, "PokerStars Hand #%d: %s (%" PRId64 "/%" PRId64 ") - %s UTC\n",
            h->hand_no, ps_game(h->game), h->small_bet > 0 ? h->small_bet : bb,
            h->big_bet > 0 ? h->big_bet : 2 * bb, date);
    else
        fprintf(f,
                "PokerStars Hand #%d: %s (%" PRId64 "/%" PRId64 ") - %s UTC\n",
                h->hand_no, ps_game(h->game), sb, bb, date);
    fprintf(f, "Table '%s' %d-max Seat #%d is the button\n",
            h->table_name[0] ? h->table_name : "feltwatch",
            h->table_seats > 0 ? h->table_seats : FW_MAX_SEATS, h->button);
    for (int i = 0; i < h->nplayers; i++) {
        const fw_store_player *p = &h->players[i];
        char name[FW_MAX_NAME + 8];
        seat_name(h, p->seat, name, sizeof name);
        fprintf(f, "Seat %d: %s (%" PRId64 " in chips)%s\n", p->seat, name,
                p->starting_stack > 0 ? p->starting_stack : 0,
                p->dealt_in ? "" : " is sitting out");
    }
    int hole_n = fw_game_hole_cards(h->game);
    fw_card board[5];
    int nboard = 0;
    int holes_written = 0, showdown_written = 0;
    int64_t smax = 0; /* the bet to match on the street */
    for (int i = 0; i < h->nactions; i++) {
        const fw_store_action *a = &h->actions[i];
        char name[FW_MAX_NAME + 8];
        seat_name(h, a->seat, name, sizeof name);
        int post = a->act == FW_SACT_ANTE || a->act == FW_SACT_SMALL_BLIND ||
                   a->act == FW_SACT_BIG_BLIND;
        if (!post && !holes_written) {
            holes_written = 1;
            fprintf(f, "*** HOLE CARDS ***\n");
            for (int k = 0; k < h->nplayers; k++) {
                fw_card hole[FW_MAX_HOLE];
                char cs[24], pn[FW_MAX_NAME + 8];
                if (!h->players[k].dealt_in ||
                    known_hole(&h->players[k], hole_n, hole) == 0)
                    continue;
                cards_spaced(hole, hole_n, cs, sizeof cs);
                seat_name(h, h->players[k].seat, pn, sizeof pn);
                fprintf(f, "Dealt to %s [%s]\n", pn, cs);
            }
        }
        const char *allin = a->all_in ? " and is all-in" : "";
        int64_t street_max = smax;
        if (a->act == FW_SACT_BOARD)
            smax = 0;
        else if (a->act != FW_SACT_ANTE && a->act != FW_SACT_UNCALLED &&
                 a->to > smax)
            smax = a->to;
        switch (a->act) {
        case FW_SACT_ANTE:
            fprintf(f, "%s: posts the ante %" PRId64 "%s\n", name, a->added,
                    allin);
            break;
        case FW_SACT_SMALL_BLIND:
            fprintf(f, "%s: posts small blind %" PRId64 "%s\n", name, a->added,
                    allin);
            break;
        case FW_SACT_BIG_BLIND:
            fprintf(f, "%s: posts big blind %" PRId64 "%s\n", name, a->added,
                    allin);
            break;
        case FW_SACT_CHECK:
            fprintf(f, "%s: checks\n", name);
            break;
        case FW_SACT_CALL:
            fprintf(f, "%s: calls %" PRId64 "%s\n", name, a->added, allin);
            break;
        case FW_SACT_BET:
            fprintf(f, "%s: bets %" PRId64 "%s\n", name, a->added, allin);
            break;
        case FW_SACT_RAISE:
            /* "raises X to Y": X over the bet faced */
            fprintf(f, "%s: raises %" PRId64 " to %" PRId64 "%s\n", name,
                    a->to - street_max, a->to, allin);
            break;
        case FW_SACT_FOLD:
            fprintf(f, "%s: folds\n", name);
            break;
        case FW_SACT_BOARD: {
            char old[24], add[24];
            cards_spaced(board, nboard, old, sizeof old);
            for (int k = 0; k < a->ncards && nboard < 5; k++)
                board[nboard++] = a->cards[k];
            cards_spaced(a->cards, a->ncards, add, sizeof add);
            if (a->street == FW_ST_FLOP)
                fprintf(f, "*** FLOP *** [%s]\n", add);
            else
                fprintf(f, "*** %s *** [%s] [%s]\n",
                        a->street == FW_ST_TURN ? "TURN" : "RIVER", old, add);
            break;
        }
        case FW_SACT_SHOW:
        case FW_SACT_MUCK: {
            if (!showdown_written) {
                showdown_written = 1;
                fprintf(f, "*** SHOW DOWN ***\n");
            }
            if (a->act == FW_SACT_MUCK) {
                fprintf(f, "%s: mucks hand\n", name);
                break;
            }
            char cs[24];
            cards_spaced(a->cards, a->ncards, cs, sizeof cs);
            const char *desc = "";
            for (int k = 0; k < h->nawards; k++)
                if (h->awards[k].seat == a->seat && h->awards[k].hand[0])
                    desc = h->awards[k].hand;
            fprintf(f, "%s: shows [%s]%s%s%s\n", name, cs, desc[0] ? " (" : "",
                    desc, desc[0] ? ")" : "");
            break;
        }
        case FW_SACT_UNCALLED:
            fprintf(f, "Uncalled bet (%" PRId64 ") returned to %s\n", a->added,
                    name);
            break;
        default:
            break;
        }
    }
    /* collections, side pots first as the engine awards them */
    int npots = 0;
    for (int i = 0; i < h->nawards; i++)
        if (h->awards[i].pot + 1 > npots)
            npots = h->awards[i].pot + 1;
    int64_t pot_amount[FW_MAX_POTS] = {0};
    for (int i = 0; i < h->nawards; i++) {
        const fw_store_award *a = &h->awards[i];
        int64_t amount = a->amount;
        if (a->pot < FW_MAX_POTS)
            pot_amount[a->pot] += amount;
        if (amount <= 0)
            continue;
        char name[FW_MAX_NAME + 8], pot[24];
        seat_name(h, a->seat, name, sizeof name);
        if (npots <= 1)
            snprintf(pot, sizeof pot, "pot");
        else if (a->pot == 0)
            snprintf(pot, sizeof pot, "main pot");
        else
            snprintf(pot, sizeof pot, "side pot-%d", a->pot);
        fprintf(f, "%s collected %" PRId64 " from %s\n", name, amount, pot);
    }
    int64_t total = 0;
    for (int i = 0; i < npots && i < FW_MAX_POTS; i++)
        total += pot_amount[i];
    fprintf(f, "*** SUMMARY ***\n");
    fprintf(f, "Total pot %" PRId64, total);
    if (npots > 1) {
        fprintf(f, " Main pot %" PRId64 ".", pot_amount[0]);
        for (int i = 1; i < npots && i < FW_MAX_POTS; i++)
            fprintf(f, " Side pot-%d %" PRId64 ".", i, pot_amount[i]);
    }
    fprintf(f, " | Rake 0\n");
    if (nboard > 0) {
        char cs[24];
        cards_spaced(board, nboard, cs, sizeof cs);
        fprintf(f, "Board [%s]\n", cs);
    }
    int sb_seat = poster(h, FW_SACT_SMALL_BLIND);
    int bb_seat = poster(h, FW_SACT_BIG_BLIND);
    for (int i = 0; i < h->nplayers; i++) {
        const fw_store_player *p = &h->players[i];
        if (!p->dealt_in)
            continue;
        char name[FW_MAX_NAME + 8];
        seat_name(h, p->seat, name, sizeof name);
        fprintf(f, "Seat %d: %s%s%s%s", p->seat, name,
                p->seat == h->button ? " (button)" : "",
                p->seat == sb_seat ? " (small blind)" : "",
                p->seat == bb_seat ? " (big blind)" : "");
        int64_t won = winnings(h, p->seat);
        const fw_store_action *fold = NULL, *show = NULL, *muck = NULL;
        for (int k = 0; k < h->nactions; k++) {
            const fw_store_action *a = &h->actions[k];
            if (a->seat != p->seat)
                continue;
            if (a->act == FW_SACT_FOLD && !fold)
                fold = a;
            if (a->act == FW_SACT_SHOW)
                show = a;
            if (a->act == FW_SACT_MUCK)
                muck = a;
        }
        const char *desc = "";
        for (int k = 0; k < h->nawards; k++)
            if (h->awards[k].seat == p->seat && h->awards[k].hand[0])
                desc = h->awards[k].hand;
        if (fold) {
            if (fold->street == FW_ST_PREFLOP)
                fprintf(f, " folded before Flop\n");
            else
                fprintf(f, " folded on the %s\n", ps_street_name(fold->street));
        } else if (show) {
            char cs[24];
            cards_spaced(show->cards, show->ncards, cs, sizeof cs);
            if (won > 0)
                fprintf(f, " showed [%s] and won (%" PRId64 ")%s%s\n", cs, won,
                        desc[0] ? " with " : "", desc);
            else
                fprintf(f, " showed [%s] and lost\n", cs);
        } else if (muck) {
            fprintf(f, " mucked\n");
        } else if (won > 0) {
            fprintf(f, " collected (%" PRId64 ")\n", won);
        } else {
            fprintf(f, "\n");
        }
    }
    return FW_OK;
}

/* ------------------------------------------------------------------ */
/* The command                                                          */
/* ------------------------------------------------------------------ */

static void usage(FILE *f)
{
    fprintf(f, "usage: feltwatch export --format phh|ohh|pokerstars --db "
               "FILE [--hand N] [--table NAME] [--out FILE]\n");
}

int fw_export_main(int argc, char **argv, FILE *out, FILE *err)
{
    const char *format = NULL, *db = NULL, *outpath = NULL, *table = NULL;
    long hand_no = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(out);
            return 0;
        }
        if (!v || strncmp(a, "--", 2) != 0) {
            fprintf(err, "feltwatch: export: %s: %s\n", a,
                    v ? "unknown argument" : "needs a value");
            usage(err);
            return 2;
        }
        if (strcmp(a, "--format") == 0) {
            format = v;
        } else if (strcmp(a, "--db") == 0) {
            db = v;
        } else if (strcmp(a, "--out") == 0) {
            outpath = v;
        } else if (strcmp(a, "--table") == 0) {
            table = v;
        } else if (strcmp(a, "--hand") == 0) {
            char *end = NULL;
            errno = 0;
            hand_no = strtol(v, &end, 10);
            if (errno || !end || *end || end == v || hand_no < 1 ||
                hand_no > 1000000000) {
                fprintf(err,
                        "feltwatch: export: --hand: \"%s\" is not a hand "
                        "number\n",
                        v);
                return 2;
            }
        } else {
            fprintf(err, "feltwatch: export: unknown option %s\n", a);
            usage(err);
            return 2;
        }
        i++;
    }
    fmt f;
    if (!format || !db) {
        fprintf(err, "feltwatch: export: --format and --db are required\n");
        usage(err);
        return 2;
    }
    if (strcmp(format, "phh") == 0) {
        f = FMT_PHH;
    } else if (strcmp(format, "ohh") == 0) {
        f = FMT_OHH;
    } else if (strcmp(format, "pokerstars") == 0) {
        f = FMT_PS;
    } else {
        fprintf(err,
                "feltwatch: export: unknown format \"%s\" (phh, ohh, "
                "pokerstars)\n",
                format);
        return 2;
    }

    fw_store *s = NULL;
    if (fw_store_open_readonly(db, &s) != FW_OK) {
        fprintf(err, "feltwatch: export: %s\n", fw_last_error());
        return 1;
    }
    int64_t *ids = NULL;
    size_t n = 0;
    if (fw_store_list_hands(s, (int)hand_no, table, &ids, &n) != FW_OK) {
        fprintf(err, "feltwatch: export: %s\n", fw_last_error());
        fw_store_close(s);
        return 1;
    }
    if (n == 0 && (hand_no > 0 || table)) {
        fprintf(err, "feltwatch: export: %s: no hand", db);
        if (hand_no > 0)
            fprintf(err, " %ld", hand_no);
        if (table)
            fprintf(err, " at table \"%s\"", table);
        fprintf(err, "\n");
        free(ids);
        fw_store_close(s);
        return 1;
    }
    FILE *dst = out;
    if (outpath) {
        dst = fopen(outpath, "w");
        if (!dst) {
            fprintf(err, "feltwatch: export: %s: %s\n", outpath,
                    strerror(errno));
            free(ids);
            fw_store_close(s);
            return 1;
        }
    }
    int status = 0, written = 0;
    for (size_t i = 0; i < n; i++) {
        fw_store_hand *h = NULL;
        char msg[EXPORT_MSG_MAX] = "";
        int rc = fw_store_load_hand(s, ids[i], &h);
        if (rc != FW_OK) {
            fprintf(err, "feltwatch: export: %s\n", fw_last_error());
            status = 1;
            continue;
        }
        if (f == FMT_PHH) {
            /* several hands: a .phhs collection, one table per hand */
            if (n > 1 && written > 0)
                fprintf(dst, "\n");
            rc = write_phh(dst, h, n > 1 ? written + 1 : 0, msg, sizeof msg);
        } else if (f == FMT_OHH) {
            rc = write_ohh(dst, h, written == 0, msg, sizeof msg);
        } else {
            rc = write_ps(dst, h, written == 0, msg, sizeof msg);
        }
        if (rc == FW_OK) {
            written++;
        } else {
            fprintf(err, "feltwatch: export: %s: hand %d (id %lld): %s\n", db,
                    h->hand_no, (long long)h->id, msg);
            status = 1;
        }
        fw_store_hand_free(h);
    }
    free(ids);
    fw_store_close(s);
    if (fflush(dst) != 0 || ferror(dst)) {
        fprintf(err, "feltwatch: export: writing %s: %s\n",
                outpath ? outpath : "the output", strerror(errno));
        status = 1;
    }
    if (outpath && fclose(dst) != 0 && status == 0) {
        fprintf(err, "feltwatch: export: %s: %s\n", outpath, strerror(errno));
        status = 1;
    }
    return status;
}
