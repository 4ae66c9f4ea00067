/*
 * test_store.c - the hand record (app/store.h) and `feltwatch export`
 * (app/export.h): recording from the engine's records, the schema and its
 * migration, a power cut at any moment (a child killed with SIGKILL), a
 * full disk, files that cannot be opened, and the three export formats,
 * PHH proved by a round trip through the PHH reader and the engine.
 *
 * Hands come from a robot dealer that plays random but legal hands by
 * reading the engine's state (who is to act, what it costs, the legal
 * raises), from small inline event streams, and from the PHH hands in
 * tests/phh. Files live in a mkdtemp() folder under $TMPDIR (or /tmp).
 */
#include "harness.h"

#include "export.h"
#include "phh.h"
#include "protocol.h"
#include "store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Temp folders and small helpers                                       */
/* ------------------------------------------------------------------ */

static char tmp_dir[512];

static const char *make_tmp_dir(void)
{
    const char *base = getenv("TMPDIR");
    snprintf(tmp_dir, sizeof tmp_dir, "%s/fw_store_XXXXXX",
             base && *base ? base : "/tmp");
    if (!mkdtemp(tmp_dir)) {
        fprintf(stderr, "  mkdtemp %s: %s\n", tmp_dir, strerror(errno));
        exit(2);
    }
    return tmp_dir;
}

/* Remove the temp folder and what is in it (one level of subfolders). */
static void rm_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char p[1024];
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            struct stat sb;
            if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode)) {
                chmod(p, 0700);
                rm_tree(p);
            } else {
                unlink(p);
            }
        }
        closedir(d);
    }
    rmdir(dir);
}

static void tmp_path(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", tmp_dir, name);
}

static uint64_t rng_next(uint64_t *s)
{
    /* splitmix64 */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int64_t sql_int(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st = NULL;
    int64_t v = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

static void sql_text(sqlite3 *db, const char *sql, char *out, size_t size)
{
    sqlite3_stmt *st = NULL;
    out[0] = '\0';
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
        snprintf(out, size, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
}

static sqlite3 *raw_open(const char *path)
{
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_busy_timeout(db, 5000);
    return db;
}

/* Run `feltwatch export ARGS...` with output and errors in memory. */
typedef struct captured {
    int status;
    char *out;
    size_t outlen;
    char *err;
    size_t errlen;
} captured;

static captured run_export(int argc, char **argv)
{
    captured c = {0};
    FILE *out = open_memstream(&c.out, &c.outlen);
    FILE *err = open_memstream(&c.err, &c.errlen);
    if (!out || !err) {
        fprintf(stderr, "open_memstream failed\n");
        exit(2);
    }
    c.status = fw_export_main(argc, argv, out, err);
    fclose(out);
    fclose(err);
    return c;
}

static void captured_free(captured *c)
{
    free(c->out);
    free(c->err);
}

static captured export_fmt(const char *db, const char *fmt, int hand)
{
    char hs[16];
    snprintf(hs, sizeof hs, "%d", hand);
    char *argv[] = {"export",   "--format", (char *)fmt, "--db",
                    (char *)db, "--hand",   hs};
    return run_export(hand > 0 ? 7 : 5, argv);
}

/* ------------------------------------------------------------------ */
/* A session: engine + store, and the robot dealer                      */
/* ------------------------------------------------------------------ */

#define ROBOT_START_STACK 10000

typedef struct sess {
    fw_engine *e;
    fw_store *st;
    int store_rc; /* first error the store returned */
    int ended;    /* hand_end records seen */
    int rulings_in_hand;
    int last_rulings; /* rulings of the hand that ended last */
    int64_t last_final_sum;
    int last_players;
    int last_hand_no;
    uint64_t rng;
    fw_game game;
    int nseats;
    /* set by the power-cut child: report commits on this fd */
    int report_fd;
    fw_card hole[FW_MAX_SEATS + 1][FW_MAX_HOLE];
    int nhole[FW_MAX_SEATS + 1];
} sess;

/* What the power-cut child writes to its pipe, one fixed-size message. */
typedef struct report {
    char what; /* 'B' commit begins, 'C' committed */
    int hand_no;
    int players;
    int rulings;
    int64_t final_sum;
} report;

static void send_report(sess *s, char what)
{
    if (s->report_fd < 0)
        return;
    report r;
    memset(&r, 0, sizeof r);
    r.what = what;
    r.hand_no = s->last_hand_no;
    r.players = s->last_players;
    r.rulings = s->last_rulings;
    r.final_sum = s->last_final_sum;
    ssize_t w = write(s->report_fd, &r, sizeof r);
    (void)w;
}

static void on_record(void *ctx, const fw_record *rec)
{
    sess *s = ctx;
    if (getenv("FW_TEST_DEBUG") && rec->type != FW_REC_STATE) {
        static fw_protocol_writer *w;
        char line[FW_PROTOCOL_RECORD_MAX];
        size_t len;
        if (!w)
            fw_protocol_writer_new(&w);
        if (fw_protocol_write_record(w, rec, line, sizeof line, &len) == 0)
            fprintf(stderr, "    %s", line);
    }
    if (rec->type == FW_REC_RULING)
        s->rulings_in_hand++;
    if (rec->type == FW_REC_HAND_END) {
        s->ended++;
        s->last_hand_no = rec->u.hand_end.hand;
        s->last_players = rec->u.hand_end.nseats;
        s->last_final_sum = 0;
        for (int i = 0; i < rec->u.hand_end.nseats; i++)
            s->last_final_sum += rec->u.hand_end.stacks[i];
        s->last_rulings = s->rulings_in_hand;
        s->rulings_in_hand = 0;
        send_report(s, 'B');
    }
    if (s->st) {
        int rc = fw_store_record(s->st, rec, NULL);
        if (rc != FW_OK && s->store_rc == FW_OK)
            s->store_rc = rc;
        if (rc == FW_OK && rec->type == FW_REC_HAND_END &&
            fw_store_pending(s->st) == 0)
            send_report(s, 'C');
    }
}

static int sess_init(sess *s, fw_store *st, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    s->st = st;
    s->rng = seed;
    s->report_fd = -1;
    return fw_engine_new(on_record, s, &s->e);
}

static void sess_free(sess *s)
{
    fw_engine_free(s->e);
    s->e = NULL;
}

/* Hand the event to the store, then to the engine. */
static int apply(sess *s, const fw_event *ev)
{
    if (ev->type == FW_EV_CARD && ev->to == FW_TO_SEAT && ev->card < 52 &&
        ev->seat >= 1 && ev->seat <= FW_MAX_SEATS &&
        s->nhole[ev->seat] < FW_MAX_HOLE)
        s->hole[ev->seat][s->nhole[ev->seat]++] = ev->card;
    if (ev->type == FW_EV_HAND_START)
        memset(s->nhole, 0, sizeof s->nhole);
    if (s->st) {
        int rc = fw_store_event(s->st, ev, NULL);
        if (rc != FW_OK && s->store_rc == FW_OK)
            s->store_rc = rc;
    }
    const char *why = NULL;
    int rc = fw_engine_apply(s->e, ev, &why);
    if (rc != FW_OK)
        fprintf(stderr, "  engine refused %s: %s\n",
                fw_event_type_name(ev->type), why ? why : "");
    return rc;
}

/* Feed JSON Lines events (each line stored as written). */
static int feed_jsonl(sess *s, const char *text)
{
    long lineno = 0;
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        lineno++;
        fw_event ev;
        char msg[FW_PROTOCOL_ERR_MAX];
        int rc = fw_protocol_parse_line(p, len, lineno, &ev, msg, sizeof msg);
        if (rc == FW_OK) {
            char line[1024];
            snprintf(line, sizeof line, "%.*s", (int)len, p);
            if (s->st) {
                int r = fw_store_event(s->st, &ev, line);
                if (r != FW_OK && s->store_rc == FW_OK)
                    s->store_rc = r;
            }
            const char *why = NULL;
            if (fw_engine_apply(s->e, &ev, &why) != FW_OK) {
                fprintf(stderr, "  line %ld refused: %s\n", lineno,
                        why ? why : "");
                return -1;
            }
        } else if (rc != FW_PROTOCOL_SKIP) {
            fprintf(stderr, "  %s\n", msg);
            return -1;
        }
        p += len + (nl ? 1 : 0);
    }
    return 0;
}

static int robot_table(sess *s, int nseats, fw_game game, int ante_kind)
{
    s->game = game;
    s->nseats = nseats;
    fw_event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = FW_EV_TABLE;
    ev.seats = nseats;
    ev.game = game;
    ev.profile = FW_PROFILE_TDA;
    if (apply(s, &ev))
        return -1;
    memset(&ev, 0, sizeof ev);
    ev.type = FW_EV_LEVEL;
    ev.sb = 50;
    ev.bb = 100;
    if (ante_kind == 1) {
        ev.ante = 10;
        ev.ante_type = FW_ANTE_EACH;
    } else if (ante_kind == 2) {
        ev.ante = 100;
        ev.ante_type = FW_ANTE_BB;
    }
    if (apply(s, &ev))
        return -1;
    for (int seat = 1; seat <= nseats; seat++) {
        memset(&ev, 0, sizeof ev);
        ev.type = FW_EV_SEAT;
        ev.seat = seat;
        ev.has_player = 1;
        snprintf(ev.player, sizeof ev.player, "P%d \"q\"", seat);
        ev.has_stack = 1;
        ev.stack = ROBOT_START_STACK + 500 * seat;
        if (apply(s, &ev))
            return -1;
    }
    memset(&ev, 0, sizeof ev);
    ev.type = FW_EV_BUTTON;
    ev.seat = nseats;
    return apply(s, &ev);
}

static const fw_seat_view *view(const fw_state *st, int seat)
{
    for (int i = 0; i < st->nseats; i++)
        if (st->seats[i].seat == seat)
            return &st->seats[i];
    return NULL;
}

/*
 * Play one hand to its end: deal, bet at random within the engine's
 * limits, turn the board, show down. Busted players buy in again before
 * the hand. Returns 0 when the hand ended, -1 otherwise.
 */
/* Say where the robot gave up, with the table as the engine sees it. */
static int robot_fail(sess *s, int line)
{
    fw_state st;
    fw_engine_state(s->e, &st);
    fprintf(stderr,
            "  robot gave up (line %d): hand %d street %s to_act %d "
            "to_call %lld board %d\n",
            line, st.hand, fw_street_name(st.street), st.to_act,
            (long long)st.to_call, st.nboard);
    return -1;
}

static int robot_hand(sess *s, double t)
{
    fw_state st;
    fw_engine_state(s->e, &st);
    for (int i = 0; i < st.nseats; i++) {
        if (st.seats[i].status != FW_SEAT_EMPTY && st.seats[i].stack == 0) {
            fw_event ev;
            memset(&ev, 0, sizeof ev);
            ev.type = FW_EV_SEAT;
            ev.seat = st.seats[i].seat;
            ev.has_player = 1;
            snprintf(ev.player, sizeof ev.player, "P%d \"q\"", ev.seat);
            ev.has_stack = 1;
            ev.stack = ROBOT_START_STACK;
            if (apply(s, &ev))
                return robot_fail(s, __LINE__);
        }
    }
    int ended = s->ended;
    fw_event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = FW_EV_HAND_START;
    ev.has_t = 1;
    ev.t = t;
    if (apply(s, &ev))
        return robot_fail(s, __LINE__);
    fw_engine_state(s->e, &st);
    if (st.street != FW_ST_DEAL)
        return robot_fail(s, __LINE__);
    fw_card deck[52];
    for (int i = 0; i < 52; i++)
        deck[i] = (fw_card)i;
    for (int i = 51; i > 0; i--) {
        int j = (int)(rng_next(&s->rng) % (uint64_t)(i + 1));
        fw_card c = deck[i];
        deck[i] = deck[j];
        deck[j] = c;
    }
    int top = 0;
    int n = st.nseats;
    int hole = fw_game_hole_cards(s->game);
    for (int round = 0; round < hole; round++) {
        int seat = st.button;
        for (int k = 0; k < n; k++) {
            seat = seat >= n ? 1 : seat + 1;
            const fw_seat_view *v = view(&st, seat);
            if (!v ||
                (v->status != FW_SEAT_ACTIVE && v->status != FW_SEAT_ALL_IN))
                continue;
            memset(&ev, 0, sizeof ev);
            ev.type = FW_EV_CARD;
            ev.to = FW_TO_SEAT;
            ev.seat = seat;
            ev.face = FW_FACE_DOWN;
            ev.card = deck[top++];
            if (apply(s, &ev))
                return robot_fail(s, __LINE__);
        }
    }
    int shown[FW_MAX_SEATS + 1] = {0};
    int nshown = 0;
    for (int step = 0; step < 600 && s->ended == ended; step++) {
        fw_engine_state(s->e, &st);
        memset(&ev, 0, sizeof ev);
        if (st.to_act) {
            const fw_seat_view *v = view(&st, st.to_act);
            int64_t maxbet = 0;
            for (int i = 0; i < st.nseats; i++)
                if (st.seats[i].bet > maxbet)
                    maxbet = st.seats[i].bet;
            int r = (int)(rng_next(&s->rng) % 100);
            int can_raise = st.min_raise_to != FW_NULL_AMOUNT &&
                            st.max_raise_to != FW_NULL_AMOUNT &&
                            st.min_raise_to <= st.max_raise_to;
            ev.seat = st.to_act;
            if (can_raise && r < 6) {
                ev.type = FW_EV_SAY;
                ev.word = FW_WORD_ALL_IN;
            } else if (st.to_call == 0) {
                ev.type = FW_EV_SAY;
                if (r < 70 || !can_raise) {
                    ev.word = FW_WORD_CHECK;
                } else {
                    ev.word = maxbet > 0 ? FW_WORD_RAISE : FW_WORD_BET;
                    ev.has_amount = 1;
                    ev.amount = st.min_raise_to +
                                (int64_t)(rng_next(&s->rng) % 3) * 100;
                    if (ev.amount > st.max_raise_to)
                        ev.amount = st.max_raise_to;
                }
            } else if (r < 25) {
                ev.type = FW_EV_FOLD;
            } else if (r < 80 || !can_raise) {
                ev.type = FW_EV_SAY;
                ev.word = FW_WORD_CALL;
            } else {
                ev.type = FW_EV_SAY;
                ev.word = FW_WORD_RAISE;
                ev.has_amount = 1;
                ev.amount =
                    st.min_raise_to + (int64_t)(rng_next(&s->rng) % 4) * 100;
                if (ev.amount > st.max_raise_to)
                    ev.amount = st.max_raise_to;
            }
            (void)v;
        } else if (st.street >= FW_ST_PREFLOP && st.street <= FW_ST_TURN &&
                   st.nboard < 5) {
            ev.type = FW_EV_CARD;
            ev.to = FW_TO_BURN;
            ev.card = FW_CARD_NONE;
            if (apply(s, &ev))
                return robot_fail(s, __LINE__);
            int cards = st.nboard == 0 ? 3 : 1;
            for (int k = 0; k < cards; k++) {
                memset(&ev, 0, sizeof ev);
                ev.type = FW_EV_CARD;
                ev.to = FW_TO_BOARD;
                ev.face = FW_FACE_UP;
                ev.card = deck[top++];
                if (apply(s, &ev))
                    return robot_fail(s, __LINE__);
            }
            continue;
        } else if (st.street == FW_ST_SHOWDOWN ||
                   (st.street == FW_ST_RIVER && st.nboard == 5)) {
            int seat = 0;
            for (int i = 0; i < st.nseats && !seat; i++) {
                const fw_seat_view *v = &st.seats[i];
                if ((v->status == FW_SEAT_ACTIVE ||
                     v->status == FW_SEAT_ALL_IN) &&
                    !shown[v->seat])
                    seat = v->seat;
            }
            if (!seat)
                return robot_fail(s, __LINE__);
            shown[seat] = 1;
            ev.seat = seat;
            int all_in = 0;
            for (int i = 0; i < st.nseats; i++)
                all_in |= st.seats[i].status == FW_SEAT_ALL_IN;
            /* TDA 16: no muck without tabling in an all-in showdown */
            if (nshown++ > 0 && !all_in && rng_next(&s->rng) % 4 == 0) {
                ev.type = FW_EV_MUCK;
            } else {
                ev.type = FW_EV_SHOW;
                ev.ncards = s->nhole[seat];
                memcpy(ev.cards, s->hole[seat], (size_t)ev.ncards);
            }
        } else {
            fprintf(stderr, "  robot stuck: street %s, to act %d\n",
                    fw_street_name(st.street), st.to_act);
            return robot_fail(s, __LINE__);
        }
        if (apply(s, &ev))
            return robot_fail(s, __LINE__);
    }
    return s->ended > ended ? 0 : robot_fail(s, __LINE__);
}

/* Record `hands` robot hands into the store at `path` (closed after). */
static int record_robot_hands(const char *path, int hands, uint64_t seed,
                              int nseats, fw_game game, int ante_kind)
{
    fw_store *st = NULL;
    if (fw_store_open(path, &st) != FW_OK) {
        fprintf(stderr, "  %s\n", fw_last_error());
        return -1;
    }
    fw_store_set_table(st, "T1");
    sess s;
    int rc = sess_init(&s, st, seed);
    if (rc == FW_OK)
        rc = robot_table(&s, nseats, game, ante_kind);
    for (int i = 0; rc == FW_OK && i < hands; i++)
        rc = robot_hand(&s, 100.0 * i);
    if (rc == FW_OK && s.store_rc != FW_OK) {
        fprintf(stderr, "  store: %s\n", fw_last_error());
        rc = -1;
    }
    sess_free(&s);
    if (fw_store_close(st) != FW_OK)
        rc = -1;
    return rc;
}

/* ------------------------------------------------------------------ */
/* Recording                                                            */
/* ------------------------------------------------------------------ */

TEST(memory_records_every_hand)
{
    fw_store *st = NULL;
    ASSERT_INT_EQ(fw_store_open(":memory:", &st), FW_OK);
    sess s;
    ASSERT_INT_EQ(sess_init(&s, st, 1), FW_OK);
    ASSERT_INT_EQ(robot_table(&s, 6, FW_GAME_NLHE, 0), FW_OK);
    for (int i = 0; i < 12; i++)
        ASSERT_INT_EQ(robot_hand(&s, i), 0);
    ASSERT_INT_EQ(s.store_rc, FW_OK);
    ASSERT_INT_EQ(fw_store_written(st), 12);
    ASSERT_INT_EQ(fw_store_pending(st), 0);
    int64_t *ids = NULL;
    size_t n = 0;
    ASSERT_INT_EQ(fw_store_list_hands(st, 0, NULL, &ids, &n), FW_OK);
    ASSERT_INT_EQ(n, 12);
    int64_t chips = 0;
    for (size_t i = 0; i < n; i++) {
        fw_store_hand *h = NULL;
        ASSERT_INT_EQ(fw_store_load_hand(st, ids[i], &h), FW_OK);
        ASSERT_STR_EQ(h->status, "complete");
        ASSERT_INT_EQ(h->hand_no, (int)i + 1);
        ASSERT_INT_EQ(h->nplayers, 6);
        ASSERT_INT_EQ(h->sb, 50);
        ASSERT_INT_EQ(h->bb, 100);
        ASSERT_INT_EQ(h->has_started_at, 1);
        ASSERT_TRUE(h->started_utc[0] != '\0');
        int64_t start = 0, fin = 0, put = 0, won = 0;
        for (int k = 0; k < h->nplayers; k++) {
            start += h->players[k].starting_stack;
            fin += h->players[k].final_stack;
        }
        for (int k = 0; k < h->nactions; k++)
            put += h->actions[k].act == FW_SACT_UNCALLED ? -h->actions[k].added
                                                         : h->actions[k].added;
        for (int k = 0; k < h->nawards; k++)
            won += h->awards[k].amount;
        /* chips are neither made nor lost, and every chip put in is won */
        ASSERT_INT_EQ(start, fin);
        ASSERT_INT_EQ(put, won);
        ASSERT_INT_EQ(h->pot, won);
        chips = fin;
        fw_store_hand_free(h);
    }
    ASSERT_TRUE(chips >= 6 * ROBOT_START_STACK);
    free(ids);
    sess_free(&s);
    ASSERT_INT_EQ(fw_store_close(st), FW_OK);
}

TEST(file_schema_and_lines)
{
    make_tmp_dir();
    char path[1024];
    tmp_path(path, sizeof path, "hands.db");
    ASSERT_INT_EQ(record_robot_hands(path, 6, 7, 4, FW_GAME_NLHE, 1), 0);
    sqlite3 *db = raw_open(path);
    ASSERT_TRUE(db != NULL);
    char text[256];
    sql_text(db, "PRAGMA journal_mode", text, sizeof text);
    ASSERT_STR_EQ(text, "wal");
    sql_text(db, "PRAGMA integrity_check", text, sizeof text);
    ASSERT_STR_EQ(text, "ok");
    ASSERT_INT_EQ(sql_int(db, "PRAGMA user_version"), FW_STORE_SCHEMA_VERSION);
    ASSERT_INT_EQ(sql_int(db, "SELECT count(*) FROM hands"), 6);
    ASSERT_INT_EQ(sql_int(db, "SELECT count(*) FROM hands WHERE "
                              "table_name = 'T1' AND game = 'NLHE' AND "
                              "rules = 'tda' AND ante = 10 AND "
                              "ante_type = 'each' AND status = 'complete'"),
                  6);
    /* every hand has its players, its hand_end, awards adding to its pot,
     * antes from every player dealt in */
    ASSERT_INT_EQ(sql_int(db, "SELECT count(*) FROM hands h WHERE (SELECT "
                              "count(*) FROM players p WHERE p.hand_id = "
                              "h.id) != 4 OR (SELECT count(*) FROM records r "
                              "WHERE r.hand_id = h.id AND r.type = "
                              "'hand_end') != 1 OR h.pot != (SELECT "
                              "sum(amount) FROM awards a WHERE a.hand_id = "
                              "h.id)"),
                  0);
    ASSERT_INT_EQ(sql_int(db, "SELECT count(*) FROM players WHERE ante != "
                              "10"),
                  0);
    /* the first hand carries the table set-up before it */
    sql_text(db,
             "SELECT json FROM events WHERE hand_id = 1 ORDER BY seq "
             "LIMIT 1",
             text, sizeof text);
    ASSERT_TRUE(strstr(text, "\"type\":\"table\"") != NULL);
    ASSERT_INT_EQ(sql_int(db, "SELECT min(deal) FROM events WHERE hand_id = "
                              "1"),
                  0);
    /* events and records share one sequence: no number twice */
    ASSERT_INT_EQ(sql_int(db, "SELECT count(*) FROM (SELECT hand_id, seq "
                              "FROM events UNION ALL SELECT hand_id, seq "
                              "FROM records) GROUP BY hand_id, seq HAVING "
                              "count(*) > 1"),
                  -1);
    /* the event lines the store wrote itself read back as the same
     * events; the record lines are JSON */
    sqlite3_stmt *q = NULL;
    ASSERT_INT_EQ(
        sqlite3_prepare_v2(db, "SELECT json FROM events", -1, &q, NULL),
        SQLITE_OK);
    int nev = 0, bad = 0;
    while (sqlite3_step(q) == SQLITE_ROW) {
        const char *j = (const char *)sqlite3_column_text(q, 0);
        fw_event ev;
        char msg[FW_PROTOCOL_ERR_MAX];
        if (fw_protocol_parse_line(j, strlen(j), 1, &ev, msg, sizeof msg) !=
            FW_OK) {
            fprintf(stderr, "  %s: %s\n", j, msg);
            bad++;
        }
        nev++;
    }
    sqlite3_finalize(q);
    ASSERT_INT_EQ(bad, 0);
    ASSERT_TRUE(nev > 6 * 10);
    ASSERT_INT_EQ(
        sqlite3_prepare_v2(db, "SELECT json FROM records", -1, &q, NULL),
        SQLITE_OK);
    while (sqlite3_step(q) == SQLITE_ROW) {
        json_error_t je;
        json_t *j = json_loads((const char *)sqlite3_column_text(q, 0), 0, &je);
        bad += j == NULL;
        json_decref(j);
    }
    sqlite3_finalize(q);
    ASSERT_INT_EQ(bad, 0);
    ASSERT_INT_EQ(sql_int(db, "SELECT count(*) FROM records WHERE type = "
                              "'state'") < 6 * 12,
                  1);
    sqlite3_close(db);
    rm_tree(tmp_dir);
}

static const char *misdeal_stream =
    "{\"type\":\"table\",\"seats\":3,\"game\":\"NLHE\",\"rules\":\"tda\"}\n"
    "{\"type\":\"level\",\"sb\":50,\"bb\":100}\n"
    "{\"type\":\"seat\",\"seat\":1,\"player\":\"Ann\",\"stack\":5000}\n"
    "{\"type\":\"seat\",\"seat\":2,\"player\":\"Bob\",\"stack\":5000}\n"
    "{\"type\":\"seat\",\"seat\":3,\"player\":\"Cat\",\"stack\":5000}\n"
    "{\"type\":\"button\",\"seat\":3}\n"
    "{\"type\":\"hand_start\",\"t\":10}\n"
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":2}\n"
    "{\"type\":\"hand_start\",\"t\":20}\n"
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":1}\n"
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":2}\n"
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":3}\n"
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":1}\n"
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":2}\n"
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":3}\n"
    "{\"type\":\"fold\",\"seat\":3,\"t\":25}\n"
    "{\"type\":\"fold\",\"seat\":1,\"t\":30}\n"
    /* hand 2: a fouled deck, every bet returned */
    "{\"type\":\"hand_start\",\"t\":40}\n"
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":2,\"card\":\"Kd\"}\n"
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":3}\n"
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":1,\"card\":\"Kd\"}\n"
    /* hand 3: abandoned by a new hand_start */
    "{\"type\":\"hand_start\",\"t\":50}\n"
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":3}\n"
    "{\"type\":\"hand_start\",\"t\":60}\n"
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":1}\n";

TEST(misdeal_fouled_abandoned_incomplete)
{
    make_tmp_dir();
    char path[1024];
    tmp_path(path, sizeof path, "m.db");
    fw_store *st = NULL;
    ASSERT_INT_EQ(fw_store_open(path, &st), FW_OK);
    sess s;
    ASSERT_INT_EQ(sess_init(&s, st, 3), FW_OK);
    ASSERT_INT_EQ(feed_jsonl(&s, misdeal_stream), 0);
    ASSERT_INT_EQ(s.store_rc, FW_OK);
    ASSERT_INT_EQ(fw_store_written(st), 3);
    sess_free(&s);
    /* hand 4 is in progress: written as incomplete at close */
    ASSERT_INT_EQ(fw_store_close(st), FW_OK);

    sqlite3 *db = raw_open(path);
    ASSERT_TRUE(db != NULL);
    char text[256];
    sql_text(db,
             "SELECT group_concat(hand_no || ':' || status || ':' || "
             "misdeals, ' ') FROM (SELECT * FROM hands ORDER BY id)",
             text, sizeof text);
    ASSERT_STR_EQ(text, "1:complete:1 2:fouled_deck:0 3:abandoned:0 "
                        "4:incomplete:0");
    /* the misdealt deal is kept: its card with deal 1, the re-deal's
     * cards with deal 2, and nothing of the first deal in the actions */
    ASSERT_INT_EQ(sql_int(db, "SELECT count(*) FROM events WHERE hand_id = "
                              "1 AND deal = 1 AND type = 'card'"),
                  1);
    ASSERT_INT_EQ(sql_int(db, "SELECT count(*) FROM events WHERE hand_id = "
                              "1 AND deal = 2 AND type = 'card'"),
                  6);
    ASSERT_INT_EQ(sql_int(db, "SELECT count(*) FROM records WHERE hand_id = "
                              "1 AND type = 'alert' AND kind = 'misdeal'"),
                  1);
    sql_text(db,
             "SELECT group_concat(seat || action || added, ' ') FROM "
             "(SELECT * FROM actions WHERE hand_id = 1 ORDER BY seq)",
             text, sizeof text);
    ASSERT_STR_EQ(text, "1small_blind50 2big_blind100 3fold0 1fold0 "
                        "2uncalled50");
    ASSERT_INT_EQ(sql_int(db, "SELECT started_at FROM hands WHERE id = 1"), 10);
    ASSERT_INT_EQ(sql_int(db, "SELECT ended_at FROM hands WHERE id = 1"), 30);
    sql_text(db,
             "SELECT group_concat(seat || ':' || starting_stack || ':' "
             "|| final_stack, ' ') FROM players WHERE hand_id = 1",
             text, sizeof text);
    ASSERT_STR_EQ(text, "1:5000:4950 2:5000:5050 3:5000:5000");
    /* the fouled deck: stacks as they were, the card seen twice kept */
    sql_text(db,
             "SELECT group_concat(final_stack, ' ') FROM players WHERE "
             "hand_id = 2",
             text, sizeof text);
    ASSERT_STR_EQ(text, "4950 5050 5000");
    sql_text(db, "SELECT hole FROM players WHERE hand_id = 2 AND seat = 2",
             text, sizeof text);
    ASSERT_STR_EQ(text, "Kd");
    ASSERT_INT_EQ(sql_int(db, "SELECT alerts FROM hands WHERE id = 2"), 1);
    sqlite3_close(db);

    /* PHH refuses the hands that did not end normally, by name */
    captured c = export_fmt(path, "phh", 2);
    ASSERT_INT_EQ(c.status, 1);
    ASSERT_TRUE(strstr(c.err, "fouled_deck") != NULL);
    captured_free(&c);
    c = export_fmt(path, "phh", 1);
    ASSERT_INT_EQ(c.status, 0);
    ASSERT_TRUE(strstr(c.out, "\"p3 f\"") != NULL);
    captured_free(&c);
    rm_tree(tmp_dir);
}

TEST(read_only_store_refuses_writes)
{
    make_tmp_dir();
    char path[1024];
    tmp_path(path, sizeof path, "ro.db");
    ASSERT_INT_EQ(record_robot_hands(path, 1, 5, 3, FW_GAME_NLHE, 0), 0);
    fw_store *st = NULL;
    ASSERT_INT_EQ(fw_store_open_readonly(path, &st), FW_OK);
    fw_event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = FW_EV_HAND_START;
    ASSERT_INT_EQ(fw_store_event(st, &ev, NULL), FW_ESTATE);
    ASSERT_INT_EQ(fw_store_close(st), FW_OK);
    rm_tree(tmp_dir);
}

/* ------------------------------------------------------------------ */
/* Power cut                                                            */
/* ------------------------------------------------------------------ */

/* The child: record hands at table `table` until killed. */
static void power_cut_child(const char *path, const char *table, int fd,
                            uint64_t seed)
{
    fw_store *st = NULL;
    if (fw_store_open(path, &st) != FW_OK) {
        fprintf(stderr, "  child: %s\n", fw_last_error());
        _exit(3);
    }
    fw_store_set_table(st, table);
    sess s;
    if (sess_init(&s, st, seed) != FW_OK ||
        robot_table(&s, 2 + (int)(seed % 5), FW_GAME_NLHE, (int)(seed % 3)))
        _exit(4);
    s.report_fd = fd;
    for (int i = 0; i < 100000; i++)
        if (robot_hand(&s, i) != 0 || s.store_rc != FW_OK)
            _exit(5);
    _exit(0);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

TEST(power_cut_loses_no_recorded_hand)
{
    make_tmp_dir();
    char path[1024];
    uint64_t rng = 0x5eed;
    double t0 = now_s();
    int iterations = 0, kills_in_commit = 0, total_reported = 0;
    long total_hands = 0;
    double t_child = 0, t_check = 0;
    while (iterations < 40 && now_s() - t0 < 10.0) {
        double t1 = now_s();
        /* a new file now and then keeps the checks quick */
        char name[32];
        snprintf(name, sizeof name, "cut%d.db", iterations / 10);
        tmp_path(path, sizeof path, name);
        int fds[2];
        ASSERT_INT_EQ(pipe(fds), 0);
        char table[32];
        snprintf(table, sizeof table, "cut-%d", iterations);
        fflush(NULL);
        pid_t pid = fork();
        ASSERT_TRUE(pid >= 0);
        if (pid == 0) {
            close(fds[0]);
            power_cut_child(path, table, fds[1], 1000 + (uint64_t)iterations);
        }
        close(fds[1]);
        /* let it run 5..125 ms, then cut the power */
        struct timespec d = {0, (long)(5 + rng_next(&rng) % 120) * 1000000L};
        nanosleep(&d, NULL);
        kill(pid, SIGKILL);
        int wst = 0;
        ASSERT_INT_EQ(waitpid(pid, &wst, 0), pid);
        ASSERT_TRUE(WIFSIGNALED(wst) && WTERMSIG(wst) == SIGKILL);
        report reps[4096];
        int nreps = 0;
        for (;;) {
            report r;
            ssize_t got = read(fds[0], &r, sizeof r);
            if (got != (ssize_t)sizeof r)
                break;
            if (nreps < 4096)
                reps[nreps++] = r;
        }
        close(fds[0]);
        if (nreps > 0 && reps[nreps - 1].what == 'B')
            kills_in_commit++; /* killed between BEGIN and COMMIT's return */

        double t2 = now_s();
        t_child += t2 - t1;
        /* the next boot: open (recovers the WAL), check everything */
        fw_store *st = NULL;
        ASSERT_INT_EQ(fw_store_open(path, &st), FW_OK);
        ASSERT_INT_EQ(fw_store_close(st), FW_OK);
        sqlite3 *db = raw_open(path);
        ASSERT_TRUE(db != NULL);
        char text[256];
        sql_text(db, "PRAGMA integrity_check", text, sizeof text);
        ASSERT_STR_EQ(text, "ok");
        sql_text(db, "PRAGMA foreign_key_check", text, sizeof text);
        ASSERT_STR_EQ(text, "");
        /* no hand is there in part: each has its players and hand_end */
        ASSERT_INT_EQ(sql_int(db, "SELECT count(*) FROM hands h WHERE "
                                  "(SELECT count(*) FROM players p WHERE "
                                  "p.hand_id = h.id) = 0 OR (SELECT count(*) "
                                  "FROM records r WHERE r.hand_id = h.id AND "
                                  "r.type = 'hand_end') != 1 OR status != "
                                  "'complete'"),
                      0);
        /* every hand reported committed is there, whole: its players,
         * their chips, every ruling */
        static int64_t got[4096][3];
        memset(got, 0, sizeof got);
        sqlite3_stmt *q = NULL;
        ASSERT_INT_EQ(
            sqlite3_prepare_v2(db,
                               "SELECT hand_no, (SELECT count(*) FROM "
                               "players p WHERE p.hand_id = h.id), (SELECT "
                               "sum(final_stack) FROM players p WHERE "
                               "p.hand_id = h.id), (SELECT count(*) FROM "
                               "records r WHERE r.hand_id = h.id AND r.type "
                               "= 'ruling') FROM hands h WHERE table_name = "
                               "?",
                               -1, &q, NULL),
            SQLITE_OK);
        sqlite3_bind_text(q, 1, table, -1, SQLITE_STATIC);
        while (sqlite3_step(q) == SQLITE_ROW) {
            int no = sqlite3_column_int(q, 0);
            if (no >= 1 && no < 4096)
                for (int k = 0; k < 3; k++)
                    got[no][k] = sqlite3_column_int64(q, k + 1);
        }
        sqlite3_finalize(q);
        for (int i = 0; i < nreps; i++) {
            if (reps[i].what != 'C')
                continue;
            total_reported++;
            int no = reps[i].hand_no;
            if (no < 1 || no >= 4096 || got[no][0] != reps[i].players ||
                got[no][1] != reps[i].final_sum ||
                got[no][2] != reps[i].rulings) {
                fprintf(stderr, "  hand %s/%d reported committed, missing\n",
                        table, no);
                sqlite3_close(db);
                ASSERT_TRUE(0);
            }
        }
        if (iterations % 10 == 9)
            total_hands += (long)sql_int(db, "SELECT count(*) FROM hands");
        sqlite3_close(db);
        iterations++;
        t_check += now_s() - t2;
    }
    printf("  power cut: %d kills (%d during a commit), %d hands reported "
           "committed, all present and whole (%ld hands in the files)\n",
           iterations, kills_in_commit, total_reported, total_hands);
    printf("  (%.1f s running children, %.1f s checking)\n", t_child, t_check);
    ASSERT_TRUE(iterations >= 10);
    ASSERT_TRUE(total_reported > 0);
    ASSERT_TRUE(total_hands > 0);
    rm_tree(tmp_dir);
}

/* ------------------------------------------------------------------ */
/* A full disk                                                          */
/* ------------------------------------------------------------------ */

/* In a child: fill the disk (a file size limit), check the hands are kept
 * and written once there is room again. Exit status 0 when all is well. */
static int disk_full_child(const char *path)
{
    signal(SIGXFSZ, SIG_IGN);
    fw_store *st = NULL;
    if (fw_store_open(path, &st) != FW_OK)
        return 10;
    sess s;
    if (sess_init(&s, st, 99) != FW_OK ||
        robot_table(&s, 6, FW_GAME_NLHE, 0) != FW_OK ||
        robot_hand(&s, 0) != 0 || s.store_rc != FW_OK)
        return 11;
    struct rlimit rl;
    getrlimit(RLIMIT_FSIZE, &rl);
    struct rlimit small = rl;
    small.rlim_cur = 96 * 1024;
    if (setrlimit(RLIMIT_FSIZE, &small) != 0)
        return 12;
    int played = 1, failed_at = 0;
    for (int i = 1; i < 400 && !failed_at; i++) {
        if (robot_hand(&s, i) != 0)
            return 13;
        played++;
        if (s.store_rc != FW_OK)
            failed_at = played;
    }
    if (!failed_at) {
        fprintf(stderr, "  the disk never filled\n");
        return 14;
    }
    if (s.store_rc != FW_EIO || !strstr(fw_last_error(), path)) {
        fprintf(stderr, "  rc %d, message \"%s\"\n", s.store_rc,
                fw_last_error());
        return 15;
    }
    printf("  disk full after %d hands: %s\n", played, fw_last_error());
    /* the table goes on; the hands wait in memory */
    for (int i = 0; i < 3; i++)
        if (robot_hand(&s, 1000 + i) != 0)
            return 16;
    played += 3;
    if (fw_store_pending(st) < 4) {
        fprintf(stderr, "  %d pending\n", fw_store_pending(st));
        return 17;
    }
    if (fw_store_flush(st) == FW_OK)
        return 18;
    /* room again: everything is written, nothing lost */
    if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
        return 19;
    if (fw_store_flush(st) != FW_OK || fw_store_pending(st) != 0 ||
        fw_store_written(st) != played) {
        fprintf(stderr, "  flush: %s; written %lld of %d\n", fw_last_error(),
                (long long)fw_store_written(st), played);
        return 20;
    }
    sess_free(&s);
    if (fw_store_close(st) != FW_OK)
        return 21;
    sqlite3 *db = raw_open(path);
    if (!db)
        return 22;
    char text[64];
    sql_text(db, "PRAGMA integrity_check", text, sizeof text);
    int64_t hands = sql_int(db, "SELECT count(DISTINCT hand_no) FROM hands");
    int64_t rows = sql_int(db, "SELECT count(*) FROM hands");
    sqlite3_close(db);
    if (strcmp(text, "ok") != 0 || hands != played || rows != played) {
        fprintf(stderr, "  integrity %s, %lld hands of %d\n", text,
                (long long)hands, played);
        return 23;
    }
    return 0;
}

TEST(disk_full_keeps_hands_in_memory)
{
    make_tmp_dir();
    char path[1024];
    tmp_path(path, sizeof path, "full.db");
    fflush(NULL);
    pid_t pid = fork();
    ASSERT_TRUE(pid >= 0);
    if (pid == 0) {
        int code = disk_full_child(path);
        fflush(NULL);
        _exit(code);
    }
    int wst = 0;
    ASSERT_INT_EQ(waitpid(pid, &wst, 0), pid);
    ASSERT_TRUE(WIFEXITED(wst));
    ASSERT_INT_EQ(WEXITSTATUS(wst), 0);
    rm_tree(tmp_dir);
}

/* ------------------------------------------------------------------ */
/* Files that cannot be opened                                          */
/* ------------------------------------------------------------------ */

static int write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(data, 1, len, f);
    return fclose(f) == 0 && w == len ? 0 : -1;
}

TEST(unopenable_files_are_named_errors)
{
    make_tmp_dir();
    fw_store *st = NULL;
    /* a directory */
    ASSERT_INT_EQ(fw_store_open(tmp_dir, &st), FW_EIO);
    ASSERT_TRUE(st == NULL);
    ASSERT_TRUE(strstr(fw_last_error(), tmp_dir) != NULL);
    ASSERT_TRUE(strstr(fw_last_error(), "directory") != NULL);
    /* a folder that is not there */
    char path[1024];
    tmp_path(path, sizeof path, "no/such/folder/h.db");
    ASSERT_INT_EQ(fw_store_open(path, &st), FW_EIO);
    ASSERT_TRUE(strstr(fw_last_error(), path) != NULL);
    /* a read-only folder (root writes anywhere: /proc refuses even root) */
    tmp_path(path, sizeof path, "ro");
    ASSERT_INT_EQ(mkdir(path, 0500), 0);
    if (geteuid() == 0)
        snprintf(path, sizeof path, "/proc/feltwatch-test-hands.db");
    else
        tmp_path(path, sizeof path, "ro/h.db");
    ASSERT_INT_EQ(fw_store_open(path, &st), FW_EIO);
    ASSERT_TRUE(strstr(fw_last_error(), path) != NULL);
    /* garbage */
    char junk[8192];
    uint64_t r = 42;
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (char)(rng_next(&r) & 0xff);
    tmp_path(path, sizeof path, "garbage.db");
    ASSERT_INT_EQ(write_file(path, junk, sizeof junk), 0);
    ASSERT_INT_EQ(fw_store_open(path, &st), FW_EPARSE);
    ASSERT_TRUE(strstr(fw_last_error(), path) != NULL);
    ASSERT_INT_EQ(fw_store_open_readonly(path, &st), FW_EPARSE);
    /* an SQLite header on garbage pages */
    memcpy(junk, "SQLite format 3", 16);
    tmp_path(path, sizeof path, "torn.db");
    ASSERT_INT_EQ(write_file(path, junk, sizeof junk), 0);
    int rc = fw_store_open(path, &st);
    ASSERT_TRUE(rc == FW_EPARSE || rc == FW_EIO);
    ASSERT_TRUE(st == NULL);
    ASSERT_TRUE(strstr(fw_last_error(), path) != NULL);
    /* another program's database */
    tmp_path(path, sizeof path, "other.db");
    sqlite3 *db = NULL;
    ASSERT_INT_EQ(sqlite3_open(path, &db), SQLITE_OK);
    ASSERT_INT_EQ(sqlite3_exec(db, "CREATE TABLE t(x)", NULL, NULL, NULL),
                  SQLITE_OK);
    sqlite3_close(db);
    ASSERT_INT_EQ(fw_store_open(path, &st), FW_EPARSE);
    ASSERT_TRUE(strstr(fw_last_error(), "not a feltwatch") != NULL);
    /* the export says the same and exits 1 */
    captured c = export_fmt(path, "ohh", 0);
    ASSERT_INT_EQ(c.status, 1);
    ASSERT_TRUE(strstr(c.err, path) != NULL);
    captured_free(&c);
    tmp_path(path, sizeof path, "missing.db");
    c = export_fmt(path, "phh", 0);
    ASSERT_INT_EQ(c.status, 1);
    ASSERT_TRUE(strstr(c.err, path) != NULL);
    captured_free(&c);
    rm_tree(tmp_dir);
}

/* ------------------------------------------------------------------ */
/* Migration                                                            */
/* ------------------------------------------------------------------ */

TEST(migrate_v1_to_v2_and_refuse_newer)
{
    make_tmp_dir();
    char path[1024];
    tmp_path(path, sizeof path, "old.db");
    /* a file as the first feltwatch wrote it, with one hand in it */
    ASSERT_INT_EQ(fw_store_upgrade(path, 1), FW_OK);
    sqlite3 *db = raw_open(path);
    ASSERT_TRUE(db != NULL);
    ASSERT_INT_EQ(sql_int(db, "PRAGMA user_version"), 1);
    ASSERT_INT_EQ(sql_int(db, "SELECT count(*) FROM pragma_table_info("
                              "'hands') WHERE name = 'alerts'"),
                  0);
    const char *v1_hand =
        "INSERT INTO hands(id, table_name, hand_no, status, game, rules, "
        " table_seats, sb, bb, button, board, pot) VALUES(1, 'Old', 7, "
        " 'complete', 'NLHE', 'tda', 2, 50, 100, 2, '', 150);"
        "INSERT INTO players VALUES(1, 1, 'Ann', 1000, 900, 1, 100, 0, '', "
        " '');"
        "INSERT INTO players VALUES(1, 2, 'Bob', 1000, 1100, 1, 50, 0, '', "
        " '');"
        "INSERT INTO records VALUES(1, 1, 1, 'alert', 'misdeal', NULL, '{}');"
        "INSERT INTO records VALUES(1, 2, 1, 'alert', 'redeal', NULL, '{}');"
        "INSERT INTO records VALUES(1, 3, 2, 'hand_end', NULL, NULL, '{}');"
        "INSERT INTO actions VALUES(1, 1, 'preflop', 2, 'small_blind', 50, "
        " 50, 0, '');"
        "INSERT INTO actions VALUES(1, 2, 'preflop', 1, 'big_blind', 100, "
        " 100, 0, '');"
        "INSERT INTO actions VALUES(1, 3, 'preflop', 2, 'raise', 300, 250, "
        " 0, '');"
        "INSERT INTO actions VALUES(1, 4, 'preflop', 1, 'fold', 100, 0, 0, "
        " '');"
        "INSERT INTO awards VALUES(1, 0, 2, 400, '', 0);";
    ASSERT_INT_EQ(sqlite3_exec(db, v1_hand, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    /* the export reads a v1 file as it is */
    captured c = export_fmt(path, "pokerstars", 7);
    ASSERT_INT_EQ(c.status, 0);
    ASSERT_TRUE(strstr(c.out, "Bob: raises 200 to 300") != NULL);
    captured_free(&c);
    db = raw_open(path);
    ASSERT_INT_EQ(sql_int(db, "PRAGMA user_version"), 1);
    sqlite3_close(db);

    /* new code opens it: upgraded, the new column filled in */
    fw_store *st = NULL;
    ASSERT_INT_EQ(fw_store_open(path, &st), FW_OK);
    ASSERT_INT_EQ(fw_store_close(st), FW_OK);
    db = raw_open(path);
    ASSERT_INT_EQ(sql_int(db, "PRAGMA user_version"), 2);
    ASSERT_INT_EQ(sql_int(db, "SELECT alerts FROM hands WHERE id = 1"), 2);
    ASSERT_INT_EQ(sql_int(db, "SELECT count(*) FROM sqlite_master WHERE "
                              "type = 'index' AND name IN "
                              "('hands_by_number', 'records_by_kind')"),
                  2);
    char text[64];
    sql_text(db, "PRAGMA integrity_check", text, sizeof text);
    ASSERT_STR_EQ(text, "ok");
    sqlite3_close(db);
    /* and records new hands next to the old one */
    ASSERT_INT_EQ(record_robot_hands(path, 2, 11, 3, FW_GAME_NLHE, 0), 0);
    db = raw_open(path);
    ASSERT_INT_EQ(sql_int(db, "SELECT count(*) FROM hands"), 3);
    /* a file from a newer feltwatch is refused, untouched */
    ASSERT_INT_EQ(
        sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL),
        SQLITE_OK);
    sqlite3_close(db);
    ASSERT_INT_EQ(fw_store_open(path, &st), FW_EUNSUPPORTED);
    ASSERT_TRUE(strstr(fw_last_error(), path) != NULL);
    ASSERT_TRUE(strstr(fw_last_error(), "99") != NULL);
    ASSERT_TRUE(strstr(fw_last_error(), "newer") != NULL);
    c = export_fmt(path, "ohh", 0);
    ASSERT_INT_EQ(c.status, 1);
    ASSERT_TRUE(strstr(c.err, "newer") != NULL);
    captured_free(&c);
    db = raw_open(path);
    ASSERT_INT_EQ(sql_int(db, "PRAGMA user_version"), 99);
    sqlite3_close(db);
    rm_tree(tmp_dir);
}

/* ------------------------------------------------------------------ */
/* PHH: round trips                                                     */
/* ------------------------------------------------------------------ */

/* Export hand `hand_no` as PHH, read it back and replay it: the stacks
 * must be the stored finishing stacks. Returns 0 when they are. */
static int phh_round_trip(const char *db, int hand_no, const int64_t *expect,
                          int nexpect)
{
    captured c = export_fmt(db, "phh", hand_no);
    int ret = -1;
    fw_phh *h = malloc(sizeof *h);
    char err[FW_PHH_ERR_MAX];
    int64_t fin[FW_PHH_MAX_PLAYERS];
    int n = 0;
    if (c.status != 0) {
        fprintf(stderr, "  export hand %d: %s\n", hand_no, c.err);
    } else if (fw_phh_parse(c.out, c.outlen, h, err, sizeof err) != FW_OK) {
        fprintf(stderr, "  hand %d: parse: %s\n%s\n", hand_no, err, c.out);
    } else if (fw_phh_replay(h, fin, &n, err, sizeof err) != FW_OK) {
        fprintf(stderr, "  hand %d: replay: %s\n%s\n", hand_no, err, c.out);
    } else if (!h->has_finishing || n != h->nplayers) {
        fprintf(stderr, "  hand %d: no finishing stacks\n", hand_no);
    } else {
        ret = 0;
        for (int i = 0; i < n; i++) {
            int64_t want =
                expect && i < nexpect ? expect[i] : h->finishing_stacks[i];
            if (fin[i] != want || fin[i] != h->finishing_stacks[i]) {
                fprintf(stderr,
                        "  hand %d: player %d replays to %lld, recorded "
                        "%lld\n%s\n",
                        hand_no, i + 1, (long long)fin[i], (long long)want,
                        c.out);
                ret = -1;
            }
        }
        if (expect && n != nexpect)
            ret = -1;
    }
    free(h);
    captured_free(&c);
    return ret;
}

TEST(phh_round_trip_robot_hands)
{
    make_tmp_dir();
    static const struct {
        int seats;
        fw_game game;
        int ante;
    } tables[] = {{6, FW_GAME_NLHE, 0}, {2, FW_GAME_NLHE, 0},
                  {4, FW_GAME_NLHE, 1}, {5, FW_GAME_NLHE, 2},
                  {2, FW_GAME_NLHE, 2}, {3, FW_GAME_PLO, 0},
                  {9, FW_GAME_NLHE, 1}};
    int total = 0;
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
        char path[1024], name[32];
        snprintf(name, sizeof name, "rt%zu.db", t);
        tmp_path(path, sizeof path, name);
        ASSERT_INT_EQ(record_robot_hands(path, 15, 100 + t, tables[t].seats,
                                         tables[t].game, tables[t].ante),
                      0);
        for (int hand = 1; hand <= 15; hand++) {
            ASSERT_INT_EQ(phh_round_trip(path, hand, NULL, 0), 0);
            total++;
        }
    }
    printf("  %d recorded hands replayed from their PHH export\n", total);
    /* several hands: a .phhs collection with one table per hand */
    char path[1024];
    tmp_path(path, sizeof path, "rt0.db");
    captured c = export_fmt(path, "phh", 0);
    ASSERT_INT_EQ(c.status, 0);
    ASSERT_TRUE(strstr(c.out, "[1]\n") != NULL);
    ASSERT_TRUE(strstr(c.out, "[15]\n") != NULL);
    captured_free(&c);
    rm_tree(tmp_dir);
}

/* The path of tests/phh/NAME. */
static void fixture_path(const char *name, char *path, size_t size)
{
    const char *dir = getenv("FW_PHH_DIR");
    if (dir) {
        snprintf(path, size, "%s/%s", dir, name);
    } else {
        const char *src = __FILE__;
        const char *slash = strrchr(src, '/');
        int dlen = slash ? (int)(slash - src) : 1;
        snprintf(path, size, "%.*s/phh/%s", dlen, slash ? src : ".", name);
    }
}

static int feed_phh_event(void *ctx, const fw_event *ev)
{
    sess *s = ctx;
    return apply(s, ev) == FW_OK ? FW_OK
                                 : fw_set_error(FW_ESTATE, "engine refused");
}

/* Record a published PHH hand through the engine into `db`; returns its
 * parsed form (malloc'd) or NULL. Players still in at the end show the
 * cards they were dealt, as PHH tools do. */
static fw_phh *record_phh_fixture(const char *name, const char *db)
{
    char path[1024];
    fixture_path(name, path, sizeof path);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "  cannot open %s\n", path);
        return NULL;
    }
    static char text[1 << 16];
    size_t len = fread(text, 1, sizeof text, f);
    fclose(f);
    fw_phh *h = malloc(sizeof *h);
    char err[FW_PHH_ERR_MAX];
    if (fw_phh_parse(text, len, h, err, sizeof err) != FW_OK) {
        fprintf(stderr, "  %s: %s\n", name, err);
        free(h);
        return NULL;
    }
    fw_store *st = NULL;
    if (fw_store_open(db, &st) != FW_OK) {
        free(h);
        return NULL;
    }
    sess s;
    sess_init(&s, st, 1);
    int rc = fw_phh_events(h, feed_phh_event, &s, err, sizeof err);
    fw_state state;
    int done[FW_MAX_SEATS + 1] = {0};
    for (int guard = 0; rc == FW_OK && s.ended == 0 && guard < 20; guard++) {
        fw_engine_state(s.e, &state);
        fw_event ev;
        memset(&ev, 0, sizeof ev);
        for (int i = 0; i < state.nseats && !ev.seat; i++) {
            const fw_seat_view *v = &state.seats[i];
            if ((v->status == FW_SEAT_ACTIVE || v->status == FW_SEAT_ALL_IN) &&
                !done[v->seat])
                ev.seat = v->seat;
        }
        if (!ev.seat)
            break;
        done[ev.seat] = 1;
        ev.type = s.nhole[ev.seat] ? FW_EV_SHOW : FW_EV_MUCK;
        ev.ncards = s.nhole[ev.seat];
        memcpy(ev.cards, s.hole[ev.seat], (size_t)ev.ncards);
        rc = apply(&s, &ev);
    }
    if (rc != FW_OK || s.ended != 1 || s.store_rc != FW_OK) {
        fprintf(stderr, "  %s: recorded %d hands: %s\n", name, s.ended,
                rc != FW_OK ? err : fw_last_error());
        free(h);
        h = NULL;
    }
    sess_free(&s);
    fw_store_close(st);
    return h;
}

TEST(phh_round_trip_published_hands)
{
    make_tmp_dir();
    static const char *const names[] = {"dwan-ivey-2009-nt.phh",
                                        "antonius-blom-2009-po.phh",
                                        "handhq-abs-1000nl-1-14-nt-headsup.phh",
                                        "pluribus-100-0-nt.phh",
                                        "wsop2023-43-5-001-nt.phh",
                                        "wsop2023-43-5-030-po.phh",
                                        "wsop2023-43-5-031-po-split.phh",
                                        "wsop2023-43-5-035-ft.phh",
                                        "wsop2023-43-5-037-ft-walk.phh",
                                        "wsop2023-43-5-040-ft.phh",
                                        "wsop2023-43-5-064-nt-shove.phh",
                                        "wsop2023-43-5-068-nt-allin.phh"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[1024], db[64];
        snprintf(db, sizeof db, "fx%zu.db", i);
        tmp_path(path, sizeof path, db);
        fw_phh *h = record_phh_fixture(names[i], path);
        if (!h)
            fprintf(stderr, "  fixture %s\n", names[i]);
        ASSERT_TRUE(h != NULL);
        ASSERT_INT_EQ(h->has_finishing, 1);
        int ok = phh_round_trip(path, 1, h->finishing_stacks, h->nplayers);
        if (ok != 0)
            fprintf(stderr, "  fixture %s\n", names[i]);
        free(h);
        ASSERT_INT_EQ(ok, 0);
    }
    rm_tree(tmp_dir);
}

/* ------------------------------------------------------------------ */
/* OHH and PokerStars                                                   */
/* ------------------------------------------------------------------ */

static const char *str_field(json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

TEST(ohh_is_json_with_the_spec_fields)
{
    make_tmp_dir();
    char path[1024];
    tmp_path(path, sizeof path, "ohh.db");
    ASSERT_INT_EQ(record_robot_hands(path, 10, 21, 5, FW_GAME_NLHE, 2), 0);
    captured c = export_fmt(path, "ohh", 0);
    ASSERT_INT_EQ(c.status, 0);
    fw_store *st = NULL;
    ASSERT_INT_EQ(fw_store_open_readonly(path, &st), FW_OK);
    /* hands one after the other, each separated by one blank line */
    const char *p = c.out;
    int hands = 0;
    while (*p) {
        int64_t back = 0;
        fw_store_hand *sh = NULL;
        ASSERT_INT_EQ(fw_store_load_hand(st, hands + 1, &sh), FW_OK);
        for (int k = 0; k < sh->nactions; k++)
            if (sh->actions[k].act == FW_SACT_UNCALLED)
                back += sh->actions[k].added;
        fw_store_hand_free(sh);
        json_error_t je;
        json_t *top = json_loadb(p, c.outlen - (size_t)(p - c.out),
                                 JSON_DISABLE_EOF_CHECK, &je);
        if (!top)
            fprintf(stderr, "  %s at %d\n", je.text, je.position);
        ASSERT_TRUE(top != NULL);
        p += je.position;
        while (*p == '\n')
            p++;
        json_t *o = json_object_get(top, "ohh");
        ASSERT_TRUE(json_is_object(o));
        ASSERT_TRUE(strncmp(str_field(o, "spec_version"), "1.4.", 4) == 0);
        ASSERT_STR_EQ(str_field(o, "site_name"), "feltwatch");
        ASSERT_STR_EQ(str_field(o, "table_name"), "T1");
        ASSERT_STR_EQ(str_field(o, "game_type"), "Holdem");
        ASSERT_TRUE(str_field(o, "game_number") != NULL);
        ASSERT_TRUE(str_field(o, "start_date_utc") != NULL);
        ASSERT_INT_EQ(json_integer_value(json_object_get(o, "table_size")), 5);
        ASSERT_INT_EQ(
            json_integer_value(json_object_get(o, "small_blind_amount")), 50);
        ASSERT_INT_EQ(
            json_integer_value(json_object_get(o, "big_blind_amount")), 100);
        ASSERT_INT_EQ(json_integer_value(json_object_get(o, "ante_amount")),
                      100);
        ASSERT_TRUE(json_integer_value(json_object_get(o, "dealer_seat")) >= 1);
        json_t *players = json_object_get(o, "players");
        ASSERT_INT_EQ(json_array_size(players), 5);
        for (size_t i = 0; i < json_array_size(players); i++) {
            json_t *pl = json_array_get(players, i);
            ASSERT_INT_EQ(json_integer_value(json_object_get(pl, "id")),
                          (long long)i);
            ASSERT_INT_EQ(json_integer_value(json_object_get(pl, "seat")),
                          (long long)i + 1);
            ASSERT_TRUE(str_field(pl, "name") != NULL);
            ASSERT_TRUE(
                json_integer_value(json_object_get(pl, "starting_stack")) > 0);
        }
        json_t *rounds = json_object_get(o, "rounds");
        ASSERT_TRUE(json_array_size(rounds) >= 1);
        ASSERT_STR_EQ(str_field(json_array_get(rounds, 0), "street"),
                      "Preflop");
        int64_t put = 0, number = 0, posts = 0;
        for (size_t r = 0; r < json_array_size(rounds); r++) {
            json_t *round = json_array_get(rounds, r);
            ASSERT_INT_EQ(json_integer_value(json_object_get(round, "id")),
                          (long long)r);
            ASSERT_TRUE(json_is_array(json_object_get(round, "cards")));
            json_t *acts = json_object_get(round, "actions");
            for (size_t a = 0; a < json_array_size(acts); a++) {
                json_t *act = json_array_get(acts, a);
                int64_t n =
                    json_integer_value(json_object_get(act, "action_number"));
                ASSERT_TRUE(n > number);
                number = n;
                ASSERT_TRUE(json_is_integer(json_object_get(act, "player_id")));
                ASSERT_TRUE(json_is_boolean(json_object_get(act, "is_allin")));
                const char *what = str_field(act, "action");
                ASSERT_TRUE(what != NULL);
                posts += strcmp(what, "Post BB") == 0;
                put += json_integer_value(json_object_get(act, "amount"));
            }
        }
        ASSERT_INT_EQ(posts, 1);
        int64_t won = 0;
        json_t *pots = json_object_get(o, "pots");
        ASSERT_TRUE(json_array_size(pots) >= 1);
        for (size_t i = 0; i < json_array_size(pots); i++) {
            json_t *pot = json_array_get(pots, i);
            json_t *wins = json_object_get(pot, "player_wins");
            int64_t sum = 0;
            for (size_t k = 0; k < json_array_size(wins); k++)
                sum += json_integer_value(
                    json_object_get(json_array_get(wins, k), "win_amount"));
            ASSERT_INT_EQ(sum,
                          json_integer_value(json_object_get(pot, "amount")));
            won += sum;
        }
        /* every chip put in comes out of a pot, or back uncalled */
        ASSERT_INT_EQ(put - back, won);
        json_decref(top);
        hands++;
    }
    ASSERT_INT_EQ(hands, 10);
    ASSERT_INT_EQ(fw_store_close(st), FW_OK);
    captured_free(&c);
    rm_tree(tmp_dir);
}

static const char *ps_stream =
    "{\"type\":\"table\",\"seats\":3,\"game\":\"NLHE\",\"rules\":\"tda\"}\n"
    "{\"type\":\"level\",\"sb\":50,\"bb\":100}\n"
    "{\"type\":\"seat\",\"seat\":1,\"player\":\"Alice\",\"stack\":10000}\n"
    "{\"type\":\"seat\",\"seat\":2,\"player\":\"Bob\",\"stack\":10000}\n"
    "{\"type\":\"seat\",\"seat\":3,\"player\":\"Carol\",\"stack\":10000}\n"
    "{\"type\":\"button\",\"seat\":3}\n"
    "{\"type\":\"hand_start\"}\n"
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":1}\n"
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":2}\n"
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":3}\n"
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":1}\n"
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":2}\n"
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":3}\n"
    "{\"type\":\"say\",\"seat\":3,\"word\":\"raise\",\"amount\":300}\n"
    "{\"type\":\"say\",\"seat\":1,\"word\":\"fold\"}\n"
    "{\"type\":\"say\",\"seat\":2,\"word\":\"call\"}\n"
    "{\"type\":\"card\",\"to\":\"burn\"}\n"
    "{\"type\":\"card\",\"to\":\"board\",\"card\":\"Ah\"}\n"
    "{\"type\":\"card\",\"to\":\"board\",\"card\":\"Kd\"}\n"
    "{\"type\":\"card\",\"to\":\"board\",\"card\":\"7c\"}\n"
    "{\"type\":\"say\",\"seat\":2,\"word\":\"check\"}\n"
    "{\"type\":\"say\",\"seat\":3,\"word\":\"bet\",\"amount\":400}\n"
    "{\"type\":\"say\",\"seat\":2,\"word\":\"call\"}\n"
    "{\"type\":\"card\",\"to\":\"burn\"}\n"
    "{\"type\":\"card\",\"to\":\"board\",\"card\":\"2s\"}\n"
    "{\"type\":\"say\",\"seat\":2,\"word\":\"check\"}\n"
    "{\"type\":\"say\",\"seat\":3,\"word\":\"check\"}\n"
    "{\"type\":\"card\",\"to\":\"burn\"}\n"
    "{\"type\":\"card\",\"to\":\"board\",\"card\":\"9h\"}\n"
    "{\"type\":\"say\",\"seat\":2,\"word\":\"check\"}\n"
    "{\"type\":\"say\",\"seat\":3,\"word\":\"check\"}\n"
    "{\"type\":\"show\",\"seat\":2,\"cards\":[\"Qs\",\"Qd\"]}\n"
    "{\"type\":\"show\",\"seat\":3,\"cards\":[\"As\",\"Jd\"]}\n"
    /* hand 2: folded round to the big blind */
    "{\"type\":\"hand_start\"}\n"
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":2}\n"
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":3}\n"
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":1}\n"
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":2}\n"
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":3}\n"
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":1}\n"
    "{\"type\":\"fold\",\"seat\":1}\n"
    "{\"type\":\"fold\",\"seat\":2}\n";

TEST(pokerstars_text_has_the_classic_lines)
{
    make_tmp_dir();
    char path[1024];
    tmp_path(path, sizeof path, "ps.db");
    fw_store *st = NULL;
    ASSERT_INT_EQ(fw_store_open(path, &st), FW_OK);
    fw_store_set_table(st, "Main 1");
    sess s;
    ASSERT_INT_EQ(sess_init(&s, st, 1), FW_OK);
    ASSERT_INT_EQ(feed_jsonl(&s, ps_stream), 0);
    ASSERT_INT_EQ(s.ended, 2);
    sess_free(&s);
    ASSERT_INT_EQ(fw_store_close(st), FW_OK);

    char outfile[1024];
    tmp_path(outfile, sizeof outfile, "hands.txt");
    char *argv[] = {"export", "--format", "pokerstars", "--db",
                    path,     "--out",    outfile};
    captured c = run_export(7, argv);
    ASSERT_INT_EQ(c.status, 0);
    ASSERT_INT_EQ(c.outlen, 0);
    captured_free(&c);
    FILE *f = fopen(outfile, "r");
    ASSERT_TRUE(f != NULL);
    static char text[16384];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = '\0';
    static const char *const want[] = {
        "PokerStars Hand #1: Hold'em No Limit (50/100) - ",
        " UTC\nTable 'Main 1' 3-max Seat #3 is the button\n",
        "Seat 1: Alice (10000 in chips)\n",
        "Alice: posts small blind 50\n",
        "Bob: posts big blind 100\n",
        "*** HOLE CARDS ***\n",
        "Carol: raises 200 to 300\n",
        "Alice: folds\n",
        "Bob: calls 200\n",
        "*** FLOP *** [Ah Kd 7c]\n",
        "Bob: checks\n",
        "Carol: bets 400\n",
        "*** TURN *** [Ah Kd 7c] [2s]\n",
        "*** RIVER *** [Ah Kd 7c 2s] [9h]\n",
        "*** SHOW DOWN ***\n",
        "Bob: shows [Qs Qd]\n",
        "Carol: shows [As Jd] (",
        "Carol collected 1450 from pot\n",
        "*** SUMMARY ***\n",
        "Total pot 1450 | Rake 0\n",
        "Board [Ah Kd 7c 2s 9h]\n",
        "Seat 1: Alice (small blind) folded before Flop\n",
        "Seat 2: Bob (big blind) showed [Qs Qd] and lost\n",
        "Seat 3: Carol (button) showed [As Jd] and won (1450) with ",
        "\n\n\n\nPokerStars Hand #2: ",
        "Table 'Main 1' 3-max Seat #1 is the button\n",
        "Uncalled bet (50) returned to Carol\n",
        "Carol collected 100 from pot\n",
        "Seat 3: Carol (big blind) collected (100)\n"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        if (!strstr(text, want[i]))
            fprintf(stderr, "  missing \"%s\" in:\n%s\n", want[i], text);
        ASSERT_TRUE(strstr(text, want[i]) != NULL);
    }
    rm_tree(tmp_dir);
}

/* ------------------------------------------------------------------ */
/* Garbage in the file                                                  */
/* ------------------------------------------------------------------ */

TEST(export_survives_garbage_rows)
{
    make_tmp_dir();
    char path[1024];
    tmp_path(path, sizeof path, "junk.db");
    ASSERT_INT_EQ(record_robot_hands(path, 3, 77, 4, FW_GAME_NLHE, 1), 0);
    sqlite3 *db = raw_open(path);
    ASSERT_TRUE(db != NULL);
    const char *junk =
        "INSERT INTO hands(id, hand_no, status, game, rules, table_seats) "
        " VALUES(100, 1, 'complete', 'XYZ', 'tda', 6);"
        "INSERT INTO hands(id, hand_no, status, game, rules, table_seats, "
        " sb, bb, ante, button, board, pot, started_utc) VALUES(101, 2, "
        " 'complete', 'NLHE', 'tda', 99, -5, x'00ff', 1e300, 77, "
        " 'ZZ%%Ah?\?', -1, '9999-99-99T99:99:99Z');"
        "INSERT INTO players VALUES(101, 99, 'x', 1, 1, 1, 0, 0, '', '');"
        "INSERT INTO players VALUES(101, -1, '', NULL, NULL, 1, 0, 0, "
        " 'x', 'y');"
        "INSERT INTO players VALUES(101, 1, x'ff00fe', -7, 'abc', 1, -1, "
        " -1, 'AhAhAhAhAhAhAhAh', 'Zz');"
        "INSERT INTO players VALUES(101, 2, '\"\\q', 5000, 5000, 1, 0, 0, "
        " '?\??\?', 'AsKs');"
        "INSERT INTO actions VALUES(101, 1, 'nowhere', 1, 'call', 1, 1, 0, "
        " '');"
        "INSERT INTO actions VALUES(101, 2, 'flop', 42, 'zap', 1, 1, 0, '');"
        "INSERT INTO actions VALUES(101, 3, 'flop', 0, 'board', -1, -1, 7, "
        " '%%%%%%%%');"
        "INSERT INTO actions VALUES(101, 4, 'preflop', 0, 'raise', 1, 1, 0, "
        " '');"
        "INSERT INTO actions VALUES(101, 5, 'river', 2, 'raise', "
        " 9223372036854775807, 9223372036854775807, 1, 'AhAhAhAhAhAhAhAh');"
        "INSERT INTO actions VALUES(101, 6, 'showdown', 1, 'show', 0, 0, 0, "
        " x'00');"
        "INSERT INTO awards VALUES(101, 99, 1, 5, '', 0);"
        "INSERT INTO awards VALUES(101, 0, 0, 5, '', 0);"
        "INSERT INTO awards VALUES(101, 0, 2, -5, x'ff', 1);"
        "INSERT INTO hands(id, hand_no, status, game, rules, table_seats) "
        " VALUES(102, 3, 'complete', 'PLO5', 'tda', 2);"
        "INSERT INTO hands(id, hand_no, status, game, rules, table_seats) "
        " VALUES(103, -4, x'41', 'NLSD', 'tpf', 0);"
        "UPDATE players SET name = x'c3' WHERE hand_id = 1 AND seat = 1;";
    char *err = NULL;
    int rc = sqlite3_exec(db, junk, NULL, NULL, &err);
    if (rc != SQLITE_OK)
        fprintf(stderr, "  %s\n", err ? err : "");
    sqlite3_free(err);
    ASSERT_INT_EQ(rc, SQLITE_OK);
    sqlite3_close(db);
    static const char *const fmts[] = {"phh", "ohh", "pokerstars"};
    for (int i = 0; i < 3; i++) {
        captured c = export_fmt(path, fmts[i], 0);
        /* the bad hands are named, the good ones still written */
        ASSERT_INT_EQ(c.status, 1);
        ASSERT_TRUE(strstr(c.err, "XYZ") != NULL);
        ASSERT_TRUE(c.outlen > 0);
        captured_free(&c);
        for (int hand = 1; hand <= 4; hand++) {
            c = export_fmt(path, fmts[i], hand);
            captured_free(&c);
        }
    }
    /* the OHH of the hands that load is still JSON */
    captured c = export_fmt(path, "ohh", 2);
    const char *p = c.out;
    while (*p) {
        json_error_t je;
        json_t *j = json_loadb(p, c.outlen - (size_t)(p - c.out),
                               JSON_DISABLE_EOF_CHECK, &je);
        ASSERT_TRUE(j != NULL);
        json_decref(j);
        p += je.position;
        while (*p == '\n')
            p++;
    }
    captured_free(&c);
    rm_tree(tmp_dir);
}

TEST(export_usage_errors)
{
    char *a1[] = {"export", "--format", "xml", "--db", "x.db"};
    captured c = run_export(5, a1);
    ASSERT_INT_EQ(c.status, 2);
    ASSERT_TRUE(strstr(c.err, "xml") != NULL);
    captured_free(&c);
    char *a2[] = {"export", "--format", "phh"};
    c = run_export(3, a2);
    ASSERT_INT_EQ(c.status, 2);
    captured_free(&c);
    char *a3[] = {"export", "--format", "phh",  "--db",
                  "x.db",   "--hand",   "seven"};
    c = run_export(7, a3);
    ASSERT_INT_EQ(c.status, 2);
    captured_free(&c);
    char *a4[] = {"export", "--db"};
    c = run_export(2, a4);
    ASSERT_INT_EQ(c.status, 2);
    captured_free(&c);
}

static const fw_test_case cases[] = {
    TEST_CASE(memory_records_every_hand),
    TEST_CASE(file_schema_and_lines),
    TEST_CASE(misdeal_fouled_abandoned_incomplete),
    TEST_CASE(read_only_store_refuses_writes),
    TEST_CASE(power_cut_loses_no_recorded_hand),
    TEST_CASE(disk_full_keeps_hands_in_memory),
    TEST_CASE(unopenable_files_are_named_errors),
    TEST_CASE(migrate_v1_to_v2_and_refuse_newer),
    TEST_CASE(phh_round_trip_robot_hands),
    TEST_CASE(phh_round_trip_published_hands),
    TEST_CASE(ohh_is_json_with_the_spec_fields),
    TEST_CASE(pokerstars_text_has_the_classic_lines),
    TEST_CASE(export_survives_garbage_rows),
    TEST_CASE(export_usage_errors),
};

TEST_MAIN(cases)
