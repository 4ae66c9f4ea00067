/*
 * store.c - the hand record in SQLite (store.h): the hand in progress in
 * memory, one transaction per hand, the schema and its migrations, and the
 * reader the exports use.
 */
#include "store.h"

#include "protocol.h"

#include <errno.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* "FWHT": marks the file as a feltwatch hand database (PRAGMA
 * application_id), so another program's SQLite file is refused. */
#define STORE_APP_ID 0x46574854

/* ------------------------------------------------------------------ */
/* Schema and migrations                                                */
/* ------------------------------------------------------------------ */

/*
 * migrations[v] takes a file from schema version v to v + 1. Each runs in
 * its own transaction together with the new user_version, so a file is
 * always at exactly one version. Never edit a step once released: add one.
 */
static const char *const migrations[FW_STORE_SCHEMA_VERSION] = {
    /* 0 -> 1: the first schema */
    "CREATE TABLE hands ("
    " id INTEGER PRIMARY KEY,"
    " table_name TEXT NOT NULL DEFAULT '',"
    " hand_no INTEGER NOT NULL,"
    " status TEXT NOT NULL,"
    " game TEXT NOT NULL,"
    " rules TEXT NOT NULL,"
    " table_seats INTEGER NOT NULL,"
    " sb INTEGER NOT NULL DEFAULT 0,"
    " bb INTEGER NOT NULL DEFAULT 0,"
    " ante INTEGER NOT NULL DEFAULT 0,"
    " ante_type TEXT NOT NULL DEFAULT 'bb',"
    " small_bet INTEGER NOT NULL DEFAULT 0,"
    " big_bet INTEGER NOT NULL DEFAULT 0,"
    " button INTEGER,"
    " board TEXT NOT NULL DEFAULT '',"
    " pot INTEGER NOT NULL DEFAULT 0,"
    " misdeals INTEGER NOT NULL DEFAULT 0,"
    " started_at REAL,"
    " ended_at REAL,"
    " started_utc TEXT,"
    " ended_utc TEXT,"
    " recorded_utc TEXT NOT NULL"
    "  DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')));"
    "CREATE TABLE players ("
    " hand_id INTEGER NOT NULL REFERENCES hands(id) ON DELETE CASCADE,"
    " seat INTEGER NOT NULL,"
    " name TEXT NOT NULL DEFAULT '',"
    " starting_stack INTEGER,"
    " final_stack INTEGER,"
    " dealt_in INTEGER NOT NULL DEFAULT 1,"
    " blind INTEGER NOT NULL DEFAULT 0,"
    " ante INTEGER NOT NULL DEFAULT 0,"
    " hole TEXT NOT NULL DEFAULT '',"
    " shown TEXT NOT NULL DEFAULT '',"
    " PRIMARY KEY (hand_id, seat)) WITHOUT ROWID;"
    "CREATE TABLE events ("
    " hand_id INTEGER NOT NULL REFERENCES hands(id) ON DELETE CASCADE,"
    " seq INTEGER NOT NULL,"
    " deal INTEGER NOT NULL,"
    " type TEXT NOT NULL,"
    " t REAL,"
    " json TEXT NOT NULL,"
    " PRIMARY KEY (hand_id, seq)) WITHOUT ROWID;"
    "CREATE TABLE records ("
    " hand_id INTEGER NOT NULL REFERENCES hands(id) ON DELETE CASCADE,"
    " seq INTEGER NOT NULL,"
    " deal INTEGER NOT NULL,"
    " type TEXT NOT NULL,"
    " kind TEXT,"
    " seat INTEGER,"
    " json TEXT NOT NULL,"
    " PRIMARY KEY (hand_id, seq)) WITHOUT ROWID;"
    "CREATE TABLE actions ("
    " hand_id INTEGER NOT NULL REFERENCES hands(id) ON DELETE CASCADE,"
    " seq INTEGER NOT NULL,"
    " street TEXT NOT NULL,"
    " seat INTEGER NOT NULL,"
    " action TEXT NOT NULL,"
    " amount_to INTEGER NOT NULL DEFAULT 0,"
    " added INTEGER NOT NULL DEFAULT 0,"
    " all_in INTEGER NOT NULL DEFAULT 0,"
    " cards TEXT NOT NULL DEFAULT '',"
    " PRIMARY KEY (hand_id, seq)) WITHOUT ROWID;"
    "CREATE TABLE awards ("
    " hand_id INTEGER NOT NULL REFERENCES hands(id) ON DELETE CASCADE,"
    " pot INTEGER NOT NULL,"
    " seat INTEGER NOT NULL,"
    " amount INTEGER NOT NULL,"
    " hand_desc TEXT NOT NULL DEFAULT '',"
    " odd_chip INTEGER NOT NULL DEFAULT 0,"
    " PRIMARY KEY (hand_id, pot, seat)) WITHOUT ROWID;",

    /* 1 -> 2: the number of alerts per hand (filled in for the hands
     * already there), and indexes to find a hand by its number and the
     * hands with a given alert */
    "ALTER TABLE hands ADD COLUMN alerts INTEGER NOT NULL DEFAULT 0;"
    "UPDATE hands SET alerts = (SELECT count(*) FROM records r"
    " WHERE r.hand_id = hands.id AND r.type = 'alert');"
    "CREATE INDEX hands_by_number ON hands(table_name, hand_no);"
    "CREATE INDEX records_by_kind ON records(type, kind);",
};

/* ------------------------------------------------------------------ */
/* The hand in progress                                                 */
/* ------------------------------------------------------------------ */

typedef struct level {
    int64_t sb, bb, ante, small_bet, big_bet;
    fw_ante_type ante_type;
} level;

/* One event or record line of the hand, in stream order. */
typedef struct line {
    char *json;
    int is_event;
    int seq, deal;
    char type[16];
    char kind[40];
    int seat;
    int has_t;
    double t;
} line;

typedef struct hseat {
    int present; /* a player of the hand (seated at its start or end) */
    char name[FW_MAX_NAME];
    int64_t start, final; /* -1 unknown */
    int dealt_in;
    int64_t blind, ante;
    int nhole;
    fw_card hole[FW_MAX_HOLE];
    int nshown;
    fw_card shown[FW_MAX_HOLE];
    int64_t street_bet, committed;
} hseat;

typedef struct hand_buf {
    int active; /* the engine has given the hand a number */
    int hand_no;
    int fouled;
    char table_name[64];
    fw_game game;
    fw_profile_id profile;
    int table_seats;
    level lv;
    int button;
    int nboard;
    fw_card board[5];
    int board_act[5];      /* index of the action that dealt each board card */
    fw_card pend_board[5]; /* board cards seen since the last state */
    int npend_board;
    int64_t pot_last;
    int misdeals, deal, nalerts;
    int has_started_at, has_ended_at;
    double started_at, ended_at;
    char started_utc[32], ended_utc[32];
    const char *status;
    hseat seats[FW_MAX_SEATS + 1];
    line *lines;
    size_t nlines, caplines;
    fw_store_action *acts;
    size_t nacts, capacts;
    fw_store_award *awards;
    size_t nawards, capawards;
    int seq;
    fw_street street;
    int64_t street_max;
} hand_buf;

struct fw_store {
    sqlite3 *db;
    char *path;
    int readonly;
    sqlite3_stmt *ins_hand, *ins_player, *ins_event, *ins_record, *ins_action,
        *ins_award;
    fw_protocol_writer *writer;
    char table_name[64];
    /* what the table looks like, from the events and records seen */
    int has_table;
    fw_game game;
    fw_profile_id profile;
    int table_seats;
    level lv, next_lv;
    int pending_lv;
    char names[FW_MAX_SEATS + 1][FW_MAX_NAME];
    int has_state;
    fw_state last;
    int has_kept;
    int kept_hand, kept_street, kept_nboard, kept_button;
    int awaiting_start, redeal_pending, misdeal_halt;
    int has_t;
    double now_t;
    hand_buf *cur;
    hand_buf **pending;
    int npending, cappending;
    int64_t written;
    char buf[FW_PROTOCOL_RECORD_MAX];
};

static const char *const act_names[FW_SACT_COUNT] = {
    "ante",  "small_blind", "big_blind", "check", "call", "bet",
    "raise", "fold",        "board",     "show",  "muck", "uncalled"};

const char *fw_store_act_name(fw_store_act a)
{
    if ((int)a < 0 || a >= FW_SACT_COUNT)
        return NULL;
    return act_names[a];
}

static int act_from_name(const char *s)
{
    for (int i = 0; s && i < FW_SACT_COUNT; i++)
        if (strcmp(s, act_names[i]) == 0)
            return i;
    return -1;
}

static int street_from_name(const char *s)
{
    for (int i = FW_ST_PREDEAL; s && i <= FW_ST_COMPLETE; i++) {
        const char *n = fw_street_name((fw_street)i);
        if (n && strcmp(n, s) == 0)
            return i;
    }
    return -1;
}

static void utc_now(char out[32])
{
    time_t now = time(NULL);
    struct tm tm;
    if (now == (time_t)-1 || !gmtime_r(&now, &tm) ||
        strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        out[0] = '\0';
}

static hand_buf *hand_new(void)
{
    hand_buf *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->status = "complete";
    for (int i = 0; i <= FW_MAX_SEATS; i++)
        h->seats[i].start = h->seats[i].final = -1;
    return h;
}

static void hand_free(hand_buf *h)
{
    if (!h)
        return;
    for (size_t i = 0; i < h->nlines; i++)
        free(h->lines[i].json);
    free(h->lines);
    free(h->acts);
    free(h->awards);
    free(h);
}

/* Grow *arr (of *cap elements of size sz) to hold n + 1. */
static int grow(void **arr, size_t *cap, size_t n, size_t sz)
{
    if (n < *cap)
        return FW_OK;
    size_t ncap = *cap ? *cap * 2 : 64;
    void *p = realloc(*arr, ncap * sz);
    if (!p)
        return fw_set_error(FW_ENOMEM, "hand store: out of memory");
    *arr = p;
    *cap = ncap;
    return FW_OK;
}

static int add_line(hand_buf *h, int is_event, int deal, const char *type,
                    const char *kind, int seat, int has_t, double t,
                    const char *json)
{
    if (grow((void **)&h->lines, &h->caplines, h->nlines, sizeof *h->lines))
        return FW_ENOMEM;
    size_t len = strlen(json);
    while (len > 0 && (json[len - 1] == '\n' || json[len - 1] == '\r'))
        len--;
    char *copy = malloc(len + 1);
    if (!copy)
        return fw_set_error(FW_ENOMEM, "hand store: out of memory");
    memcpy(copy, json, len);
    copy[len] = '\0';
    line *l = &h->lines[h->nlines++];
    memset(l, 0, sizeof *l);
    l->json = copy;
    l->is_event = is_event;
    l->seq = ++h->seq;
    l->deal = deal;
    snprintf(l->type, sizeof l->type, "%s", type ? type : "");
    snprintf(l->kind, sizeof l->kind, "%s", kind ? kind : "");
    l->seat = seat;
    l->has_t = has_t;
    l->t = t;
    return FW_OK;
}

static fw_store_action *add_act(hand_buf *h, fw_street street, int seat,
                                fw_store_act act)
{
    if (grow((void **)&h->acts, &h->capacts, h->nacts, sizeof *h->acts))
        return NULL;
    fw_store_action *a = &h->acts[h->nacts++];
    memset(a, 0, sizeof *a);
    a->street = street;
    a->seat = seat;
    a->act = act;
    return a;
}

/* ------------------------------------------------------------------ */
/* Errors                                                               */
/* ------------------------------------------------------------------ */

/* Record an SQLite failure on s->db as `PATH: what: message (errno)`. */
static int db_error(const char *path, sqlite3 *db, int code, const char *what)
{
    const char *msg = db ? sqlite3_errmsg(db) : "out of memory";
    int sys = db ? sqlite3_system_errno(db) : 0;
    int ext = db ? sqlite3_extended_errcode(db) : 0;
    /* SQLite says "disk I/O error" for any failed write: say which */
    const char *hint =
        (ext & 0xff) == SQLITE_FULL ? "the disk is full"
        : ext == SQLITE_IOERR_WRITE ? "a write failed: is the disk full?"
        : ext == SQLITE_IOERR_FSYNC ? "fsync failed"
        : ext == SQLITE_READONLY || (ext & 0xff) == SQLITE_READONLY
            ? "the file or its folder is read-only"
            : NULL;
    return fw_set_error(code, "%s: %s: %s%s%s%s%s", path, what, msg,
                        hint ? " - " : "", hint ? hint : "", sys ? ": " : "",
                        sys ? strerror(sys) : "");
}

/* The FW_E* code for an SQLite result code met while opening a file. */
static int open_code(int rc)
{
    switch (rc & 0xff) {
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
    case SQLITE_FORMAT:
        return FW_EPARSE;
    case SQLITE_NOMEM:
        return FW_ENOMEM;
    default:
        return FW_EIO;
    }
}

/* ------------------------------------------------------------------ */
/* Opening                                                              */
/* ------------------------------------------------------------------ */

static int pragma_int(sqlite3 *db, const char *sql, int *out)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            *out = sqlite3_column_int(st, 0);
            rc = SQLITE_OK;
        } else if (rc == SQLITE_DONE) {
            *out = 0;
            rc = SQLITE_OK;
        }
    }
    sqlite3_finalize(st);
    return rc;
}

/*
 * Check that the file is ours (or empty) and not newer than this code;
 * *version receives its schema version.
 */
static int check_file(const char *path, sqlite3 *db, int *version)
{
    int v = 0, app = 0, tables = 0;
    int rc = pragma_int(db, "PRAGMA user_version", &v);
    if (rc == SQLITE_OK)
        rc = pragma_int(db, "PRAGMA application_id", &app);
    if (rc == SQLITE_OK)
        rc = pragma_int(db, "SELECT count(*) FROM sqlite_master", &tables);
    if (rc != SQLITE_OK)
        return db_error(path, db, open_code(rc),
                        "cannot read the hand database");
    if (app != STORE_APP_ID && (app != 0 || v != 0 || tables != 0))
        return fw_set_error(FW_EPARSE,
                            "%s: not a feltwatch hand database (an SQLite "
                            "file of another program)",
                            path);
    if (v > FW_STORE_SCHEMA_VERSION)
        return fw_set_error(FW_EUNSUPPORTED,
                            "%s: the hand database has schema version %d, "
                            "newer than this feltwatch knows (%d): use a "
                            "newer feltwatch",
                            path, v, FW_STORE_SCHEMA_VERSION);
    *version = v;
    return FW_OK;
}

/*
 * Migrate from the file's version up to `target`, one transaction per step.
 * The version is read again inside each transaction, so two programs
 * opening the same old file do not both migrate it.
 */
static int migrate(const char *path, sqlite3 *db, int target)
{
    for (;;) {
        int v = 0;
        if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
            return db_error(path, db, FW_EIO, "cannot migrate the schema");
        int rc = check_file(path, db, &v);
        if (rc != FW_OK || v >= target) {
            sqlite3_exec(db, rc == FW_OK ? "COMMIT" : "ROLLBACK", NULL, NULL,
                         NULL);
            return rc;
        }
        char sql[96];
        snprintf(sql, sizeof sql,
                 "PRAGMA user_version = %d; PRAGMA application_id = %d;", v + 1,
                 STORE_APP_ID);
        if (sqlite3_exec(db, migrations[v], NULL, NULL, NULL) != SQLITE_OK ||
            sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK ||
            sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
            char what[96];
            snprintf(what, sizeof what,
                     "cannot migrate the schema from version %d to %d", v,
                     v + 1);
            rc = db_error(path, db, FW_EIO, what);
            sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
            return rc;
        }
    }
}

static int prepare(fw_store *s, sqlite3_stmt **st, const char *sql)
{
    if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st,
                           NULL) != SQLITE_OK)
        return db_error(s->path, s->db, FW_EIO, "cannot prepare a statement");
    return FW_OK;
}

/*
 * Open the file, set it up for recording (rw) or reading, and migrate it
 * up to `target` (rw only). On error everything is closed and *out is NULL.
 */
static int open_db(const char *path, int readonly, int target, fw_store **out)
{
    *out = NULL;
    if (!path || !*path)
        return fw_set_error(FW_EINVAL, "hand store: no database path");
    struct stat sb;
    if (strcmp(path, ":memory:") != 0 && stat(path, &sb) == 0 &&
        S_ISDIR(sb.st_mode))
        return fw_set_error(FW_EIO,
                            "%s: cannot open the hand database: it is a "
                            "directory",
                            path);
    fw_store *s = calloc(1, sizeof *s);
    if (!s || !(s->path = strdup(path)) || !(s->cur = hand_new())) {
        if (s) {
            free(s->path);
            free(s);
        }
        return fw_set_error(FW_ENOMEM, "%s: out of memory", path);
    }
    s->readonly = readonly;
    int flags = readonly ? SQLITE_OPEN_READONLY
                         : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    int rc = sqlite3_open_v2(path, &s->db, flags | SQLITE_OPEN_NOMUTEX, NULL);
    int v = 0;
    if (rc != SQLITE_OK) {
        rc = db_error(path, s->db, open_code(rc),
                      "cannot open the hand database");
        goto fail;
    }
    sqlite3_extended_result_codes(s->db, 1);
    sqlite3_busy_timeout(s->db, 5000);
    if (!readonly) {
        /* WAL: a reader (an export) never blocks the kiosk, and a commit
         * is one append to the log; FULL: the log is fsynced at each
         * commit, so a committed hand survives a power cut (store.h). */
        char mode[16] = "";
        sqlite3_stmt *st = NULL;
        int r =
            sqlite3_prepare_v2(s->db, "PRAGMA journal_mode=WAL", -1, &st, NULL);
        if (r == SQLITE_OK && (r = sqlite3_step(st)) == SQLITE_ROW) {
            const unsigned char *m = sqlite3_column_text(st, 0);
            snprintf(mode, sizeof mode, "%s", m ? (const char *)m : "");
            r = SQLITE_OK;
        }
        sqlite3_finalize(st);
        if (r != SQLITE_OK) {
            rc = db_error(path, s->db, open_code(r),
                          "cannot open the hand database");
            goto fail;
        }
        if (strcmp(mode, "wal") != 0 && strcmp(mode, "memory") != 0) {
            rc = fw_set_error(FW_EIO,
                              "%s: cannot put the hand database in WAL mode "
                              "(journal mode %s)",
                              path, mode);
            goto fail;
        }
        if (sqlite3_exec(s->db,
                         "PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;",
                         NULL, NULL, NULL) != SQLITE_OK) {
            rc = db_error(path, s->db, FW_EIO,
                          "cannot set up the hand database");
            goto fail;
        }
        rc = migrate(path, s->db, target);
        if (rc != FW_OK)
            goto fail;
    } else {
        rc = check_file(path, s->db, &v);
        if (rc != FW_OK)
            goto fail;
        if (v < 1) {
            rc = fw_set_error(
                FW_EPARSE, "%s: not a feltwatch hand database (empty)", path);
            goto fail;
        }
    }
    if (!readonly && target == FW_STORE_SCHEMA_VERSION) {
        if ((rc = prepare(s, &s->ins_hand,
                          "INSERT INTO hands(table_name, hand_no, status, "
                          "game, rules, table_seats, sb, bb, ante, "
                          "ante_type, small_bet, big_bet, button, board, "
                          "pot, misdeals, started_at, ended_at, "
                          "started_utc, ended_utc, alerts) VALUES(?,?,?,?,"
                          "?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")) ||
            (rc = prepare(s, &s->ins_player,
                          "INSERT INTO players VALUES(?,?,?,?,?,?,?,?,?,?)")) ||
            (rc = prepare(s, &s->ins_event,
                          "INSERT INTO events VALUES(?,?,?,?,?,?)")) ||
            (rc = prepare(s, &s->ins_record,
                          "INSERT INTO records VALUES(?,?,?,?,?,?,?)")) ||
            (rc = prepare(s, &s->ins_action,
                          "INSERT INTO actions VALUES(?,?,?,?,?,?,?,?,?)")) ||
            (rc = prepare(s, &s->ins_award,
                          "INSERT INTO awards VALUES(?,?,?,?,?,?)")))
            goto fail;
        if (fw_protocol_writer_new(&s->writer) != FW_OK) {
            rc = fw_set_error(FW_ENOMEM, "%s: out of memory", path);
            goto fail;
        }
    }
    *out = s;
    return FW_OK;
fail:
    sqlite3_finalize(s->ins_hand);
    sqlite3_finalize(s->ins_player);
    sqlite3_finalize(s->ins_event);
    sqlite3_finalize(s->ins_record);
    sqlite3_finalize(s->ins_action);
    sqlite3_finalize(s->ins_award);
    sqlite3_close(s->db);
    fw_protocol_writer_free(s->writer);
    hand_free(s->cur);
    free(s->path);
    free(s);
    return rc;
}

int fw_store_open(const char *path, fw_store **out)
{
    if (!out)
        return fw_set_error(FW_EINVAL, "hand store: no output");
    return open_db(path, 0, FW_STORE_SCHEMA_VERSION, out);
}

int fw_store_open_readonly(const char *path, fw_store **out)
{
    if (!out)
        return fw_set_error(FW_EINVAL, "hand store: no output");
    return open_db(path, 1, FW_STORE_SCHEMA_VERSION, out);
}

int fw_store_upgrade(const char *path, int version)
{
    if (version < 1 || version > FW_STORE_SCHEMA_VERSION)
        return fw_set_error(FW_EINVAL, "hand store: no schema version %d",
                            version);
    fw_store *s = NULL;
    int rc = open_db(path, 0, version, &s);
    if (rc == FW_OK)
        rc = fw_store_close(s);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Writing a hand                                                       */
/* ------------------------------------------------------------------ */

static void cards_str(const fw_card *c, int n, char *out, size_t size)
{
    size_t k = 0;
    for (int i = 0; i < n && k + 3 <= size; i++) {
        char cs[3];
        fw_card_str(c[i], cs);
        out[k++] = cs[0];
        out[k++] = cs[1];
    }
    out[k] = '\0';
}

static int step_done(sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static void bind_opt_int(sqlite3_stmt *st, int i, int64_t v)
{
    if (v < 0)
        sqlite3_bind_null(st, i);
    else
        sqlite3_bind_int64(st, i, v);
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
    sqlite3_bind_text(st, i, s ? s : "", -1, SQLITE_TRANSIENT);
}

static int write_rows(fw_store *s, const hand_buf *h)
{
    sqlite3_stmt *st = s->ins_hand;
    char board[16];
    cards_str(h->board, h->nboard, board, sizeof board);
    int64_t pot = 0;
    for (size_t i = 0; i < h->nawards; i++)
        pot += h->awards[i].amount;
    bind_text(st, 1, h->table_name);
    sqlite3_bind_int(st, 2, h->hand_no);
    bind_text(st, 3, h->status);
    bind_text(st, 4, fw_game_name(h->game));
    bind_text(st, 5, fw_profile_name(h->profile));
    sqlite3_bind_int(st, 6, h->table_seats);
    sqlite3_bind_int64(st, 7, h->lv.sb);
    sqlite3_bind_int64(st, 8, h->lv.bb);
    sqlite3_bind_int64(st, 9, h->lv.ante);
    bind_text(st, 10, h->lv.ante_type == FW_ANTE_EACH ? "each" : "bb");
    sqlite3_bind_int64(st, 11, h->lv.small_bet);
    sqlite3_bind_int64(st, 12, h->lv.big_bet);
    if (h->button > 0)
        sqlite3_bind_int(st, 13, h->button);
    bind_text(st, 14, board);
    sqlite3_bind_int64(st, 15, pot);
    sqlite3_bind_int(st, 16, h->misdeals);
    if (h->has_started_at)
        sqlite3_bind_double(st, 17, h->started_at);
    if (h->has_ended_at)
        sqlite3_bind_double(st, 18, h->ended_at);
    if (h->started_utc[0])
        bind_text(st, 19, h->started_utc);
    if (h->ended_utc[0])
        bind_text(st, 20, h->ended_utc);
    sqlite3_bind_int(st, 21, h->nalerts);
    int rc = step_done(st);
    if (rc != SQLITE_OK)
        return rc;
    sqlite3_int64 id = sqlite3_last_insert_rowid(s->db);

    for (int seat = 1; seat <= FW_MAX_SEATS; seat++) {
        const hseat *p = &h->seats[seat];
        if (!p->present)
            continue;
        char hole[16], shown[16];
        cards_str(p->hole, p->nhole, hole, sizeof hole);
        cards_str(p->shown, p->nshown, shown, sizeof shown);
        st = s->ins_player;
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_int(st, 2, seat);
        bind_text(st, 3, p->name);
        bind_opt_int(st, 4, p->start);
        bind_opt_int(st, 5, p->final);
        sqlite3_bind_int(st, 6, p->dealt_in);
        sqlite3_bind_int64(st, 7, p->blind);
        sqlite3_bind_int64(st, 8, p->ante);
        bind_text(st, 9, hole);
        bind_text(st, 10, shown);
        if ((rc = step_done(st)) != SQLITE_OK)
            return rc;
    }
    for (size_t i = 0; i < h->nlines; i++) {
        const line *l = &h->lines[i];
        st = l->is_event ? s->ins_event : s->ins_record;
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_int(st, 2, l->seq);
        sqlite3_bind_int(st, 3, l->deal);
        bind_text(st, 4, l->type);
        if (l->is_event) {
            if (l->has_t)
                sqlite3_bind_double(st, 5, l->t);
            sqlite3_bind_text(st, 6, l->json, -1, SQLITE_STATIC);
        } else {
            if (l->kind[0])
                bind_text(st, 5, l->kind);
            if (l->seat > 0)
                sqlite3_bind_int(st, 6, l->seat);
            sqlite3_bind_text(st, 7, l->json, -1, SQLITE_STATIC);
        }
        if ((rc = step_done(st)) != SQLITE_OK)
            return rc;
    }
    for (size_t i = 0; i < h->nacts; i++) {
        const fw_store_action *a = &h->acts[i];
        char cards[16];
        cards_str(a->cards, a->ncards, cards, sizeof cards);
        st = s->ins_action;
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_int(st, 2, (int)i + 1);
        bind_text(st, 3, fw_street_name(a->street));
        sqlite3_bind_int(st, 4, a->seat);
        bind_text(st, 5, fw_store_act_name(a->act));
        sqlite3_bind_int64(st, 6, a->to);
        sqlite3_bind_int64(st, 7, a->added);
        sqlite3_bind_int(st, 8, a->all_in);
        bind_text(st, 9, cards);
        if ((rc = step_done(st)) != SQLITE_OK)
            return rc;
    }
    for (size_t i = 0; i < h->nawards; i++) {
        const fw_store_award *a = &h->awards[i];
        st = s->ins_award;
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_int(st, 2, a->pot);
        sqlite3_bind_int(st, 3, a->seat);
        sqlite3_bind_int64(st, 4, a->amount);
        bind_text(st, 5, a->hand);
        sqlite3_bind_int(st, 6, a->odd_chip);
        if ((rc = step_done(st)) != SQLITE_OK)
            return rc;
    }
    return SQLITE_OK;
}

/*
 * Write one ended hand in one transaction. On failure the transaction is
 * rolled back, nothing of the hand is in the file, and the caller keeps it.
 */
static int write_hand(fw_store *s, const hand_buf *h)
{
    int rc = sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = write_rows(s, h);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        return FW_OK;
    char what[160];
    snprintf(what, sizeof what,
             "could not record hand %d (kept in memory, %d hand%s waiting)",
             h->hand_no, s->npending, s->npending == 1 ? "" : "s");
    int err = db_error(s->path, s->db,
                       (rc & 0xff) == SQLITE_NOMEM ? FW_ENOMEM : FW_EIO, what);
    if (!sqlite3_get_autocommit(s->db))
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return err;
}

int fw_store_flush(fw_store *s)
{
    if (!s)
        return fw_set_error(FW_EINVAL, "hand store: no store");
    while (s->npending > 0) {
        int rc = write_hand(s, s->pending[0]);
        if (rc != FW_OK)
            return rc;
        hand_free(s->pending[0]);
        memmove(&s->pending[0], &s->pending[1],
                sizeof s->pending[0] * (size_t)(s->npending - 1));
        s->npending--;
        s->written++;
    }
    return FW_OK;
}

int fw_store_pending(const fw_store *s)
{
    return s ? s->npending : 0;
}

int64_t fw_store_written(const fw_store *s)
{
    return s ? s->written : 0;
}

/* End the hand in progress with `status`, queue it and write the queue. */
static int finish_hand(fw_store *s, const char *status)
{
    hand_buf *h = s->cur;
    hand_buf *next = hand_new();
    if (!next)
        return fw_set_error(FW_ENOMEM, "hand store: out of memory");
    if (s->npending == s->cappending) {
        int ncap = s->cappending ? s->cappending * 2 : 8;
        void *p = realloc(s->pending, sizeof *s->pending * (size_t)ncap);
        if (!p) {
            hand_free(next);
            return fw_set_error(FW_ENOMEM, "hand store: out of memory");
        }
        s->pending = p;
        s->cappending = ncap;
    }
    h->status = status;
    if (s->has_t) {
        h->has_ended_at = 1;
        h->ended_at = s->now_t;
    }
    utc_now(h->ended_utc);
    s->pending[s->npending++] = h;
    s->cur = next;
    s->awaiting_start = s->redeal_pending = s->misdeal_halt = 0;
    return fw_store_flush(s);
}

/* ------------------------------------------------------------------ */
/* Following the hand                                                   */
/* ------------------------------------------------------------------ */

/* Seats in deal order: from the seat after `from`, clockwise. */
static int next_seat(int seat, int nseats)
{
    return seat >= nseats ? 1 : seat + 1;
}

/*
 * The betting round is over: the engine hands the bet nobody called back
 * to its seat without a record (the highest bet beyond every other bet,
 * folded seats' bets included); note it as an "uncalled" action.
 */
static void close_street(hand_buf *h)
{
    int top = 0;
    int64_t first = 0, second = 0;
    for (int seat = 1; seat <= FW_MAX_SEATS; seat++) {
        int64_t b = h->seats[seat].street_bet;
        if (b > first) {
            second = first;
            first = b;
            top = seat;
        } else if (b > second) {
            second = b;
        }
    }
    if (!top || first <= second)
        return;
    fw_store_action *a =
        add_act(h, h->street >= FW_ST_PREFLOP ? h->street : FW_ST_PREFLOP, top,
                FW_SACT_UNCALLED);
    hseat *p = &h->seats[top];
    p->street_bet = second;
    p->committed -= first - second;
    if (a) {
        a->added = first - second;
        a->to = second;
    }
}

/* The streets' bets start again from nothing (flop, turn, river). */
static void new_street(hand_buf *h, fw_street street)
{
    if (h->street >= FW_ST_PREFLOP)
        close_street(h);
    for (int i = 1; i <= FW_MAX_SEATS; i++)
        h->seats[i].street_bet = 0;
    h->street_max = 0;
    h->street = street;
}

/*
 * Board cards the hand ended on: the card that completes an all-in
 * run-out ends the hand before the engine's next state shows it, so the
 * card events seen since that state are the board's last cards.
 */
static void flush_pending_board(hand_buf *h)
{
    if (h->npend_board == 0 || h->nboard + h->npend_board > 5) {
        h->npend_board = 0;
        return;
    }
    int nb = h->nboard + h->npend_board;
    fw_street bs = nb <= 3 ? FW_ST_FLOP : nb == 4 ? FW_ST_TURN : FW_ST_RIVER;
    fw_store_action *a = add_act(h, bs, 0, FW_SACT_BOARD);
    for (int i = 0; i < h->npend_board; i++) {
        h->board[h->nboard] = h->pend_board[i];
        h->board_act[h->nboard] = a ? (int)(h->nacts - 1) : -1;
        h->nboard++;
        if (a && a->ncards < FW_MAX_HOLE)
            a->cards[a->ncards++] = h->pend_board[i];
    }
    h->npend_board = 0;
}

/*
 * The deal state of a hand (first deal or re-deal): who is dealt in, what
 * each posted. Everything derived from an earlier deal is dropped.
 */
static void begin_deal(fw_store *s, const fw_state *st)
{
    hand_buf *h = s->cur;
    h->nacts = 0;
    h->nawards = 0;
    h->nboard = 0;
    h->street = FW_ST_DEAL;
    h->street_max = 0;
    h->button = st->button;
    for (int i = 0; i < 5; i++)
        h->board_act[i] = -1;
    for (int i = 0; i < st->nseats; i++) {
        const fw_seat_view *v = &st->seats[i];
        if (v->seat < 1 || v->seat > FW_MAX_SEATS)
            continue;
        hseat *p = &h->seats[v->seat];
        p->nhole = p->nshown = 0;
        p->blind = p->ante = p->street_bet = p->committed = 0;
        p->dealt_in = v->status == FW_SEAT_ACTIVE ||
                      v->status == FW_SEAT_ALL_IN || v->status == FW_SEAT_DEAD;
        if (!p->dealt_in)
            continue;
        int64_t committed = p->start >= 0 ? p->start - v->stack : v->bet;
        if (committed < v->bet)
            committed = v->bet;
        p->committed = committed;
        p->blind = v->bet;
        p->ante = committed - v->bet;
        p->street_bet = v->bet;
        if (v->bet > h->street_max)
            h->street_max = v->bet;
    }
    int n = st->nseats > FW_MAX_SEATS ? FW_MAX_SEATS : st->nseats;
    if (n < 1)
        return;
    int ndealt = 0;
    for (int seat = 1; seat <= n; seat++)
        ndealt += h->seats[seat].dealt_in;
    int first = h->button >= 1 && h->button <= n ? h->button : n;
    /* heads-up the button posts the small blind (TDA 34-B) */
    if (ndealt != 2)
        first = next_seat(first, n);
    for (int k = 0, seat = first; k < n; k++, seat = next_seat(seat, n)) {
        hseat *p = &h->seats[seat];
        if (p->dealt_in && p->ante > 0) {
            fw_store_action *a = add_act(h, FW_ST_PREFLOP, seat, FW_SACT_ANTE);
            if (a) {
                a->added = p->ante;
                a->all_in = p->start >= 0 && p->committed >= p->start;
            }
        }
    }
    int posters = 0;
    for (int seat = 1; seat <= n; seat++)
        posters += h->seats[seat].dealt_in && h->seats[seat].blind > 0;
    int k_post = 0;
    for (int k = 0, seat = first; k < n; k++, seat = next_seat(seat, n)) {
        hseat *p = &h->seats[seat];
        if (!p->dealt_in || p->blind <= 0)
            continue;
        fw_store_act act = posters >= 2 && k_post == 0 ? FW_SACT_SMALL_BLIND
                                                       : FW_SACT_BIG_BLIND;
        k_post++;
        fw_store_action *a = add_act(h, FW_ST_PREFLOP, seat, act);
        if (a) {
            a->added = a->to = p->blind;
            a->all_in = p->start >= 0 && p->committed >= p->start;
        }
    }
}

/* The first state of a new hand: the players and their starting stacks. */
static void begin_hand(fw_store *s, const fw_state *st)
{
    hand_buf *h = s->cur;
    h->active = 1;
    h->hand_no = st->hand;
    h->deal = 1;
    s->awaiting_start = 0;
    if (s->pending_lv) {
        s->lv = s->next_lv;
        s->pending_lv = 0;
    }
    h->lv = s->lv;
    snprintf(h->table_name, sizeof h->table_name, "%s", s->table_name);
    h->game = s->has_table ? s->game : FW_GAME_NLHE;
    h->profile = s->has_table ? s->profile : FW_PROFILE_TDA;
    h->table_seats = s->has_table ? s->table_seats : st->nseats;
    for (int i = 0; i < st->nseats; i++) {
        const fw_seat_view *v = &st->seats[i];
        if (v->seat < 1 || v->seat > FW_MAX_SEATS || v->status == FW_SEAT_EMPTY)
            continue;
        hseat *p = &h->seats[v->seat];
        p->present = 1;
        snprintf(p->name, sizeof p->name, "%s", s->names[v->seat]);
        p->start = -1;
        if (s->has_state) {
            for (int j = 0; j < s->last.nseats; j++)
                if (s->last.seats[j].seat == v->seat &&
                    s->last.seats[j].status != FW_SEAT_EMPTY)
                    p->start = s->last.seats[j].stack + s->last.seats[j].bet;
        }
    }
    begin_deal(s, st);
}

/*
 * Take board card i (the last one) out of the action that dealt it; an
 * action left with no card goes, and the indexes after it move down.
 */
static void drop_board_card(hand_buf *h, int i)
{
    int a = h->board_act[i];
    h->board_act[i] = -1;
    if (a < 0 || (size_t)a >= h->nacts)
        return;
    fw_store_action *act = &h->acts[a];
    if (act->ncards > 0)
        act->ncards--;
    if (act->ncards > 0)
        return;
    memmove(&h->acts[a], &h->acts[a + 1],
            sizeof h->acts[0] * (h->nacts - (size_t)a - 1));
    h->nacts--;
    for (int k = 0; k < 5; k++)
        if (h->board_act[k] > a)
            h->board_act[k]--;
}

static void on_state(fw_store *s, const fw_state *st)
{
    hand_buf *h = s->cur;
    if (s->awaiting_start && st->hand > 0 && st->street >= FW_ST_DEAL &&
        st->street <= FW_ST_SHOWDOWN) {
        begin_hand(s, st);
    } else if (s->redeal_pending && h->active && st->street == FW_ST_DEAL) {
        s->redeal_pending = 0;
        h->deal++;
        begin_deal(s, st);
    }
    if (h->active && st->hand == h->hand_no) {
        if (st->street >= FW_ST_PREFLOP && st->street <= FW_ST_SHOWDOWN &&
            st->street > h->street) {
            if (st->street >= FW_ST_FLOP)
                new_street(h, st->street);
            else
                h->street = st->street;
        }
        int nb = st->nboard > 5 ? 5 : st->nboard;
        /* a card turned in place (a premature card replaced): the action
         * that dealt it shows the card that stayed */
        for (int i = 0; i < nb && i < h->nboard; i++) {
            if (h->board[i] == st->board[i])
                continue;
            int a = h->board_act[i], k = i;
            h->board[i] = st->board[i];
            if (a >= 0 && (size_t)a < h->nacts) {
                while (k > 0 && h->board_act[k - 1] == a)
                    k--;
                if (i - k < FW_MAX_HOLE)
                    h->acts[a].cards[i - k] = st->board[i];
            }
        }
        if (nb > h->nboard) {
            fw_street bs = nb <= 3   ? FW_ST_FLOP
                           : nb == 4 ? FW_ST_TURN
                                     : FW_ST_RIVER;
            fw_store_action *a = add_act(h, bs, 0, FW_SACT_BOARD);
            for (int i = h->nboard; i < nb; i++) {
                h->board[i] = st->board[i];
                h->board_act[i] = a ? (int)(h->nacts - 1) : -1;
                if (a && a->ncards < FW_MAX_HOLE)
                    a->cards[a->ncards++] = st->board[i];
            }
            h->nboard = nb;
        } else if (nb < h->nboard) {
            /* cards taken back (a four-card flop scrambled, a premature
             * card): they leave the actions that dealt them */
            for (int i = h->nboard - 1; i >= nb; i--)
                drop_board_card(h, i);
            h->nboard = nb;
        }
        if (st->button > 0)
            h->button = st->button;
        h->pot_last = st->pot;
        h->npend_board = 0;
    }
}

static void on_ruling(fw_store *s, const fw_ruling *r)
{
    hand_buf *h = s->cur;
    if (!h->active || r->seat < 1 || r->seat > FW_MAX_SEATS)
        return;
    const char *why = r->why ? r->why : "";
    /* not actions: the floor's turn, a second motion handed back, an
     * action out of turn held until the turn comes (it is ruled again as
     * "out_of_turn_binding" when it stands) */
    if (r->action == FW_ACT_FLOOR || strcmp(why, "string_bet") == 0 ||
        (strcmp(why, "out_of_turn") == 0 && r->action != FW_ACT_FOLD))
        return;
    if (h->street == FW_ST_DEAL) {
        h->street = FW_ST_PREFLOP;
    } else if (s->has_state && s->last.to_act == 0 &&
               s->last.hand == h->hand_no && h->street >= FW_ST_PREFLOP &&
               h->street <= FW_ST_TURN) {
        /* a bets-only stream: the next street begins with this action */
        new_street(h, h->street + 1);
    }
    hseat *p = &h->seats[r->seat];
    fw_store_act act;
    int all_in = 0;
    switch (r->action) {
    case FW_ACT_CHECK:
        act = FW_SACT_CHECK;
        break;
    case FW_ACT_CALL:
        act = FW_SACT_CALL;
        break;
    case FW_ACT_BET:
    case FW_ACT_RAISE:
        act = h->street_max > 0 ? FW_SACT_RAISE : FW_SACT_BET;
        break;
    case FW_ACT_ALL_IN:
        all_in = 1;
        act = r->to > h->street_max
                  ? (h->street_max > 0 ? FW_SACT_RAISE : FW_SACT_BET)
                  : FW_SACT_CALL;
        break;
    case FW_ACT_FOLD:
        act = FW_SACT_FOLD;
        break;
    default:
        return;
    }
    fw_store_action *a = add_act(h, h->street, r->seat, act);
    if (!a)
        return;
    if (act == FW_SACT_CALL || act == FW_SACT_BET || act == FW_SACT_RAISE) {
        int64_t to = r->to > p->street_bet ? r->to : p->street_bet;
        a->added = to - p->street_bet;
        a->to = to;
        p->street_bet = to;
        p->committed += a->added;
        if (to > h->street_max)
            h->street_max = to;
    } else {
        a->to = p->street_bet;
    }
    a->all_in = all_in || (p->start >= 0 && p->committed >= p->start &&
                           act != FW_SACT_FOLD && act != FW_SACT_CHECK);
}

static void on_alert(fw_store *s, const fw_alert *a)
{
    const char *kind = a->kind ? a->kind : "";
    const char *why = a->why ? a->why : "";
    if (strcmp(kind, "misdeal") == 0) {
        s->misdeal_halt = 1;
        if (s->cur->active)
            s->cur->misdeals++;
    } else if (strcmp(kind, "floor") == 0 && strcmp(why, "continue") == 0) {
        s->misdeal_halt = 0;
    } else if (strcmp(kind, "redeal") == 0) {
        s->misdeal_halt = 0;
    } else if (strcmp(kind, "fouled_deck") == 0) {
        s->cur->fouled = 1;
    }
    if (s->cur->active)
        s->cur->nalerts++;
}

static void on_award(fw_store *s, const fw_award *aw)
{
    hand_buf *h = s->cur;
    if (!h->active)
        return;
    if (h->nawards == 0) {
        flush_pending_board(h);
        close_street(h);
    }
    for (int i = 0; i < aw->nwinners && i < FW_MAX_SEATS; i++) {
        if (grow((void **)&h->awards, &h->capawards, h->nawards,
                 sizeof *h->awards))
            return;
        fw_store_award *a = &h->awards[h->nawards++];
        memset(a, 0, sizeof *a);
        a->pot = aw->pot;
        a->seat = aw->winners[i].seat;
        a->amount = aw->winners[i].amount;
        size_t hl = strnlen(aw->winners[i].hand, sizeof aw->winners[i].hand);
        if (hl >= sizeof a->hand)
            hl = sizeof a->hand - 1;
        memcpy(a->hand, aw->winners[i].hand, hl);
        a->hand[hl] = '\0';
        a->odd_chip = aw->odd_chip_seat == a->seat;
    }
}

static void on_hand_end(fw_store *s, const fw_hand_end *he)
{
    hand_buf *h = s->cur;
    if (!h->active) {
        /* recording began in the middle of this hand */
        h->active = 1;
        h->hand_no = he->hand;
        h->deal = 1;
        h->status = "partial";
        snprintf(h->table_name, sizeof h->table_name, "%s", s->table_name);
        h->game = s->game;
        h->profile = s->profile;
        h->table_seats = s->has_table ? s->table_seats : he->nseats;
        h->lv = s->lv;
    }
    if (h->nawards == 0 && !h->fouled) {
        flush_pending_board(h);
        close_street(h);
    }
    for (int i = 0; i < he->nseats && i < FW_MAX_SEATS; i++) {
        int seat = he->seats[i];
        if (seat < 1 || seat > FW_MAX_SEATS)
            continue;
        hseat *p = &h->seats[seat];
        if (!p->present) {
            p->present = 1;
            snprintf(p->name, sizeof p->name, "%s", s->names[seat]);
        }
        p->final = he->stacks[i];
    }
}

/* ------------------------------------------------------------------ */
/* Events and records in                                                */
/* ------------------------------------------------------------------ */

static const char *face_name(fw_face f)
{
    return f == FW_FACE_UP ? "up" : "down";
}

static json_t *cards_json(const fw_card *c, int n)
{
    json_t *a = json_array();
    for (int i = 0; a && i < n; i++) {
        char cs[3];
        fw_card_str(c[i], cs);
        json_array_append_new(a, json_string(cs));
    }
    return a;
}

/* The event as a protocol line (PROTOCOL.md), for callers without one. */
static char *event_json(const fw_event *ev)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    const char *type = fw_event_type_name(ev->type);
    json_object_set_new(o, "type", json_string(type ? type : "unknown"));
    switch (ev->type) {
    case FW_EV_TABLE: {
        json_object_set_new(o, "seats", json_integer(ev->seats));
        const char *g = fw_game_name(ev->game);
        const char *r = fw_profile_name(ev->profile);
        json_object_set_new(o, "game", json_string(g ? g : "NLHE"));
        json_object_set_new(o, "rules", json_string(r ? r : "tda"));
        if (ev->nchip_set > 0) {
            json_t *chips = json_array();
            for (int i = 0; i < ev->nchip_set && i < FW_MAX_CHIP_SET; i++) {
                json_t *c = json_object();
                json_object_set_new(c, "value", json_integer(ev->chip_set[i]));
                json_array_append_new(chips, c);
            }
            json_object_set_new(o, "chips", chips);
        }
        if (ev->raise_cap > 0)
            json_object_set_new(o, "raise_cap", json_integer(ev->raise_cap));
        break;
    }
    case FW_EV_LEVEL:
        json_object_set_new(o, "sb", json_integer(ev->sb));
        json_object_set_new(o, "bb", json_integer(ev->bb));
        if (ev->ante > 0) {
            json_object_set_new(o, "ante", json_integer(ev->ante));
            json_object_set_new(
                o, "ante_type",
                json_string(ev->ante_type == FW_ANTE_EACH ? "each" : "bb"));
        }
        if (ev->small_bet > 0)
            json_object_set_new(o, "small_bet", json_integer(ev->small_bet));
        if (ev->big_bet > 0)
            json_object_set_new(o, "big_bet", json_integer(ev->big_bet));
        break;
    case FW_EV_SEAT:
        json_object_set_new(o, "seat", json_integer(ev->seat));
        json_object_set_new(
            o, "player",
            ev->has_player
                ? json_stringn(ev->player, strnlen(ev->player, FW_MAX_NAME - 1))
                : json_null());
        if (ev->has_stack)
            json_object_set_new(o, "stack", json_integer(ev->stack));
        break;
    case FW_EV_PENALTY:
        json_object_set_new(o, "seat", json_integer(ev->seat));
        json_object_set_new(o, "hands", json_integer(ev->hands));
        break;
    case FW_EV_CARD: {
        const char *to = fw_card_to_name(ev->to);
        json_object_set_new(o, "to", json_string(to ? to : "seat"));
        if (ev->to == FW_TO_SEAT || ev->seat > 0)
            json_object_set_new(o, "seat", json_integer(ev->seat));
        json_object_set_new(o, "face", json_string(face_name(ev->face)));
        if (ev->card < 52) {
            char cs[3];
            fw_card_str(ev->card, cs);
            json_object_set_new(o, "card", json_string(cs));
        }
        break;
    }
    case FW_EV_SAY: {
        json_object_set_new(o, "seat", json_integer(ev->seat));
        const char *w = fw_word_name(ev->word);
        if (w)
            json_object_set_new(o, "word", json_string(w));
        if (ev->has_amount)
            json_object_set_new(o, "amount", json_integer(ev->amount));
        break;
    }
    case FW_EV_PUSH:
    case FW_EV_PULL: {
        json_object_set_new(o, "seat", json_integer(ev->seat));
        json_t *chips = json_array();
        for (int i = 0; i < ev->nchips && i < FW_MAX_CHIPS_PER_EVENT; i++)
            json_array_append_new(chips, json_integer(ev->chips[i]));
        json_object_set_new(o, "chips", chips);
        break;
    }
    case FW_EV_SHOW:
        json_object_set_new(o, "seat", json_integer(ev->seat));
        json_object_set_new(o, "cards",
                            cards_json(ev->cards, ev->ncards > FW_MAX_HOLE
                                                      ? FW_MAX_HOLE
                                                      : ev->ncards));
        break;
    case FW_EV_FLOOR: {
        const char *d = fw_decision_name(ev->decision);
        json_object_set_new(o, "decision", json_string(d ? d : "continue"));
        if (ev->seat > 0)
            json_object_set_new(o, "seat", json_integer(ev->seat));
        break;
    }
    case FW_EV_HAND_START:
    case FW_EV_TICK:
        break;
    default:
        json_object_set_new(o, "seat", json_integer(ev->seat));
        break;
    }
    if (ev->has_t)
        json_object_set_new(o, "t", json_real(ev->t));
    char *out = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    return out;
}

int fw_store_event(fw_store *s, const fw_event *ev, const char *json_line)
{
    if (!s || !ev)
        return fw_set_error(FW_EINVAL, "hand store: no store or event");
    if (s->readonly)
        return fw_set_error(FW_ESTATE, "%s: opened read-only", s->path);
    int rc = FW_OK;
    if (ev->has_t) {
        s->has_t = 1;
        s->now_t = ev->t;
    }
    int seat_ok = ev->seat >= 1 && ev->seat <= FW_MAX_SEATS;
    switch (ev->type) {
    case FW_EV_TABLE:
        /* a new table resets everything: a hand in progress is over */
        if (s->cur->active)
            rc = finish_hand(s, "abandoned");
        s->has_table = 1;
        s->game = ev->game;
        s->profile = ev->profile;
        s->table_seats = ev->seats;
        memset(s->names, 0, sizeof s->names);
        memset(&s->lv, 0, sizeof s->lv);
        s->pending_lv = 0;
        s->has_state = 0;
        s->awaiting_start = s->redeal_pending = s->misdeal_halt = 0;
        break;
    case FW_EV_LEVEL:
        /* TDA 23: a new level applies from the next hand */
        s->next_lv = (level){ev->sb,        ev->bb,      ev->ante,
                             ev->small_bet, ev->big_bet, ev->ante_type};
        s->pending_lv = 1;
        break;
    case FW_EV_SEAT:
        if (seat_ok)
            snprintf(s->names[ev->seat], sizeof s->names[ev->seat], "%.*s",
                     FW_MAX_NAME - 1, ev->has_player ? ev->player : "");
        break;
    case FW_EV_HAND_START:
        if (s->cur->active && s->misdeal_halt) {
            s->redeal_pending = 1;
        } else {
            if (s->cur->active)
                rc = finish_hand(s, "abandoned");
            s->awaiting_start = 1;
            s->cur->has_started_at = ev->has_t;
            s->cur->started_at = ev->t;
            utc_now(s->cur->started_utc);
        }
        break;
    case FW_EV_CARD:
        if (s->cur->active && !s->misdeal_halt && ev->to == FW_TO_SEAT &&
            seat_ok && ev->card < 52) {
            hseat *p = &s->cur->seats[ev->seat];
            if (p->nhole < FW_MAX_HOLE)
                p->hole[p->nhole++] = ev->card;
        }
        if (s->cur->active && !s->misdeal_halt && ev->to == FW_TO_BOARD &&
            ev->card < 52 && s->cur->npend_board < 5)
            s->cur->pend_board[s->cur->npend_board++] = ev->card;
        break;
    case FW_EV_SHOW:
        if (s->cur->active && seat_ok) {
            hseat *p = &s->cur->seats[ev->seat];
            int n = ev->ncards > FW_MAX_HOLE ? FW_MAX_HOLE : ev->ncards;
            p->nshown = n;
            memcpy(p->shown, ev->cards, (size_t)n);
            fw_store_action *a =
                add_act(s->cur,
                        s->cur->street >= FW_ST_PREFLOP ? s->cur->street
                                                        : FW_ST_PREFLOP,
                        ev->seat, FW_SACT_SHOW);
            if (a) {
                a->ncards = n;
                memcpy(a->cards, ev->cards, (size_t)n);
                a->to = p->street_bet;
            }
        }
        break;
    case FW_EV_MUCK:
        if (s->cur->active && seat_ok) {
            fw_store_action *a =
                add_act(s->cur,
                        s->cur->street >= FW_ST_PREFLOP ? s->cur->street
                                                        : FW_ST_PREFLOP,
                        ev->seat, FW_SACT_MUCK);
            if (a)
                a->to = s->cur->seats[ev->seat].street_bet;
        }
        break;
    case FW_EV_TICK:
        if (!s->cur->active)
            return rc; /* time passing between hands: not kept */
        break;
    default:
        break;
    }
    char *own = NULL;
    if (!json_line) {
        own = event_json(ev);
        if (!own)
            return fw_set_error(FW_ENOMEM, "hand store: out of memory");
        json_line = own;
    }
    /* a hand_start opens the deal it starts (a re-deal opens the next) */
    int deal = s->cur->active ? s->cur->deal : 0;
    if (ev->type == FW_EV_HAND_START)
        deal = s->redeal_pending ? s->cur->deal + 1 : 1;
    const char *type = fw_event_type_name(ev->type);
    int r2 = add_line(s->cur, 1, deal, type ? type : "?", NULL, 0, ev->has_t,
                      ev->t, json_line);
    free(own);
    return rc != FW_OK ? rc : r2;
}

/* Keep a state line only when the hand, street, board or button moved. */
static int keep_state(fw_store *s, const fw_state *st)
{
    if (s->has_kept && s->kept_hand == st->hand &&
        s->kept_street == (int)st->street && s->kept_nboard == st->nboard &&
        s->kept_button == st->button)
        return 0;
    s->has_kept = 1;
    s->kept_hand = st->hand;
    s->kept_street = (int)st->street;
    s->kept_nboard = st->nboard;
    s->kept_button = st->button;
    return 1;
}

int fw_store_record(fw_store *s, const fw_record *rec, const char *json_line)
{
    if (!s || !rec)
        return fw_set_error(FW_EINVAL, "hand store: no store or record");
    if (s->readonly)
        return fw_set_error(FW_ESTATE, "%s: opened read-only", s->path);
    const char *type = "?", *kind = NULL;
    int seat = 0, keep = 1;
    switch (rec->type) {
    case FW_REC_STATE:
        type = "state";
        kind = fw_street_name(rec->u.state.street);
        keep = keep_state(s, &rec->u.state);
        on_state(s, &rec->u.state);
        s->last = rec->u.state;
        s->has_state = 1;
        break;
    case FW_REC_RULING:
        type = "ruling";
        kind = fw_action_name(rec->u.ruling.action);
        seat = rec->u.ruling.seat;
        on_ruling(s, &rec->u.ruling);
        break;
    case FW_REC_ALERT:
        type = "alert";
        kind = rec->u.alert.kind;
        seat = rec->u.alert.seat;
        on_alert(s, &rec->u.alert);
        break;
    case FW_REC_AWARD:
        type = "award";
        on_award(s, &rec->u.award);
        break;
    case FW_REC_HAND_END:
        type = "hand_end";
        on_hand_end(s, &rec->u.hand_end);
        break;
    default:
        return fw_set_error(FW_EINVAL, "hand store: unknown record type %d",
                            (int)rec->type);
    }
    /* a line that cannot be kept never stops the hand from being kept */
    int err = FW_OK;
    if (keep) {
        if (!json_line) {
            size_t len = 0;
            err = fw_protocol_write_record(s->writer, rec, s->buf,
                                           sizeof s->buf, &len);
            if (err != FW_OK)
                snprintf(s->buf, sizeof s->buf, "{\"type\":\"%s\"}", type);
            json_line = s->buf;
        }
        int rc = add_line(s->cur, 0, s->cur->active ? s->cur->deal : 0, type,
                          kind, seat, 0, 0, json_line);
        if (err == FW_OK)
            err = rc;
    }
    if (rec->type == FW_REC_HAND_END) {
        const char *status = s->cur->fouled ? "fouled_deck" : s->cur->status;
        int rc = finish_hand(s, status);
        return rc != FW_OK ? rc : err;
    }
    return err;
}

void fw_store_set_table(fw_store *s, const char *name)
{
    if (s)
        snprintf(s->table_name, sizeof s->table_name, "%s", name ? name : "");
}

int fw_store_close(fw_store *s)
{
    if (!s)
        return FW_OK;
    int rc = FW_OK;
    if (!s->readonly && s->db) {
        if (s->cur->active)
            rc = finish_hand(s, "incomplete");
        else
            rc = fw_store_flush(s);
        if (s->npending > 0)
            rc = fw_set_error(FW_EIO,
                              "%s: %d hand%s could not be written and %s "
                              "lost: %s",
                              s->path, s->npending, s->npending == 1 ? "" : "s",
                              s->npending == 1 ? "is" : "are", fw_last_error());
    }
    for (int i = 0; i < s->npending; i++)
        hand_free(s->pending[i]);
    free(s->pending);
    hand_free(s->cur);
    sqlite3_finalize(s->ins_hand);
    sqlite3_finalize(s->ins_player);
    sqlite3_finalize(s->ins_event);
    sqlite3_finalize(s->ins_record);
    sqlite3_finalize(s->ins_action);
    sqlite3_finalize(s->ins_award);
    if (s->db && sqlite3_close(s->db) != SQLITE_OK && rc == FW_OK)
        rc = db_error(s->path, s->db, FW_EIO, "cannot close");
    fw_protocol_writer_free(s->writer);
    free(s->path);
    free(s);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Reading hands back                                                   */
/* ------------------------------------------------------------------ */

int fw_store_list_hands(fw_store *s, int hand_no, const char *table,
                        int64_t **ids, size_t *n)
{
    if (!s || !ids || !n)
        return fw_set_error(FW_EINVAL, "hand store: bad arguments");
    *ids = NULL;
    *n = 0;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT id FROM hands WHERE (?1 <= 0 OR hand_no = "
                           "?1) AND (?2 IS NULL OR table_name = ?2) ORDER BY "
                           "id",
                           -1, &st, NULL) != SQLITE_OK)
        return db_error(s->path, s->db, FW_EIO, "cannot list the hands");
    sqlite3_bind_int(st, 1, hand_no);
    if (table)
        sqlite3_bind_text(st, 2, table, -1, SQLITE_TRANSIENT);
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            size_t ncap = cap ? cap * 2 : 64;
            int64_t *p = realloc(*ids, ncap * sizeof *p);
            if (!p) {
                sqlite3_finalize(st);
                free(*ids);
                *ids = NULL;
                *n = 0;
                return fw_set_error(FW_ENOMEM, "%s: out of memory", s->path);
            }
            *ids = p;
            cap = ncap;
        }
        (*ids)[(*n)++] = sqlite3_column_int64(st, 0);
    }
    if (rc != SQLITE_DONE) {
        rc = db_error(s->path, s->db, FW_EIO, "cannot list the hands");
        sqlite3_finalize(st);
        free(*ids);
        *ids = NULL;
        *n = 0;
        return rc;
    }
    sqlite3_finalize(st);
    return FW_OK;
}

/* Text of a column, "" for NULL; never NULL. */
static const char *col_text(sqlite3_stmt *st, int i)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    return t ? (const char *)t : "";
}

static void col_copy(sqlite3_stmt *st, int i, char *out, size_t size)
{
    snprintf(out, size, "%s", col_text(st, i));
}

/* Parse concatenated two-character cards; stops at the first bad one.
 * "??" reads as FW_CARD_NONE. */
static int parse_cards(const char *s, fw_card *out, int max)
{
    int n = 0;
    while (n < max && s[0] && s[1]) {
        char two[3] = {s[0], s[1], '\0'};
        fw_card c;
        if (strcmp(two, "??") == 0)
            c = FW_CARD_NONE;
        else if (fw_card_parse(two, &c) != FW_OK)
            break;
        out[n++] = c;
        s += 2;
    }
    return n;
}

/* An amount read from the file: negative or NULL reads as `dflt`. */
static int64_t col_amount(sqlite3_stmt *st, int i, int64_t dflt)
{
    if (sqlite3_column_type(st, i) == SQLITE_NULL)
        return dflt;
    int64_t v = sqlite3_column_int64(st, i);
    return v < 0 || v > FW_PROTOCOL_MAX_AMOUNT ? dflt : v;
}

static int load_hand_row(fw_store *s, int64_t id, fw_store_hand *h)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT hand_no, table_name, status, game, rules, "
                           "table_seats, sb, bb, ante, ante_type, small_bet, "
                           "big_bet, button, board, pot, misdeals, "
                           "started_at, ended_at, started_utc, ended_utc "
                           "FROM hands WHERE id = ?",
                           -1, &st, NULL) != SQLITE_OK)
        return db_error(s->path, s->db, FW_EIO, "cannot read a hand");
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        int err = rc == SQLITE_DONE
                      ? fw_set_error(FW_ENOENT, "%s: no hand with id %lld",
                                     s->path, (long long)id)
                      : db_error(s->path, s->db, FW_EIO, "cannot read a hand");
        sqlite3_finalize(st);
        return err;
    }
    h->id = id;
    int64_t no = sqlite3_column_int64(st, 0);
    h->hand_no = no < 0 || no > 1000000000 ? 0 : (int)no;
    col_copy(st, 1, h->table_name, sizeof h->table_name);
    col_copy(st, 2, h->status, sizeof h->status);
    char game[16], rules[16];
    col_copy(st, 3, game, sizeof game);
    col_copy(st, 4, rules, sizeof rules);
    int g = fw_game_from_name(game);
    int p = fw_profile_from_name(rules);
    int seats = sqlite3_column_int(st, 5);
    h->table_seats = seats >= 2 && seats <= FW_MAX_SEATS ? seats : 0;
    h->sb = col_amount(st, 6, 0);
    h->bb = col_amount(st, 7, 0);
    h->ante = col_amount(st, 8, 0);
    h->ante_type =
        strcmp(col_text(st, 9), "each") == 0 ? FW_ANTE_EACH : FW_ANTE_BB;
    h->small_bet = col_amount(st, 10, 0);
    h->big_bet = col_amount(st, 11, 0);
    int b = sqlite3_column_int(st, 12);
    h->button = b >= 1 && b <= FW_MAX_SEATS ? b : 0;
    fw_card board[5];
    int nb = parse_cards(col_text(st, 13), board, 5);
    for (int i = 0; i < nb; i++)
        if (board[i] != FW_CARD_NONE)
            h->board[h->nboard++] = board[i];
    h->pot = col_amount(st, 14, 0);
    int m = sqlite3_column_int(st, 15);
    h->misdeals = m < 0 ? 0 : m;
    if (sqlite3_column_type(st, 16) != SQLITE_NULL) {
        h->has_started_at = 1;
        h->started_at = sqlite3_column_double(st, 16);
    }
    if (sqlite3_column_type(st, 17) != SQLITE_NULL) {
        h->has_ended_at = 1;
        h->ended_at = sqlite3_column_double(st, 17);
    }
    col_copy(st, 18, h->started_utc, sizeof h->started_utc);
    col_copy(st, 19, h->ended_utc, sizeof h->ended_utc);
    sqlite3_finalize(st);
    if (g < 0 || p < 0)
        return fw_set_error(FW_EPARSE, "%s: hand id %lld: unknown %s \"%s\"",
                            s->path, (long long)id, g < 0 ? "game" : "rules",
                            g < 0 ? game : rules);
    h->game = (fw_game)g;
    h->profile = (fw_profile_id)p;
    return FW_OK;
}

static int load_players(fw_store *s, fw_store_hand *h)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT seat, name, starting_stack, final_stack, "
                           "dealt_in, blind, ante, hole, shown FROM players "
                           "WHERE hand_id = ? ORDER BY seat",
                           -1, &st, NULL) != SQLITE_OK)
        return db_error(s->path, s->db, FW_EIO, "cannot read the players");
    sqlite3_bind_int64(st, 1, h->id);
    int rc, last = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int seat = sqlite3_column_int(st, 0);
        if (seat < 1 || seat > FW_MAX_SEATS || seat <= last ||
            h->nplayers >= FW_MAX_SEATS)
            continue;
        last = seat;
        fw_store_player *p = &h->players[h->nplayers++];
        memset(p, 0, sizeof *p);
        p->seat = seat;
        col_copy(st, 1, p->name, sizeof p->name);
        p->starting_stack = col_amount(st, 2, -1);
        p->final_stack = col_amount(st, 3, -1);
        p->dealt_in = sqlite3_column_int(st, 4) != 0;
        p->blind = col_amount(st, 5, 0);
        p->ante = col_amount(st, 6, 0);
        p->nhole = parse_cards(col_text(st, 7), p->hole, FW_MAX_HOLE);
        p->nshown = parse_cards(col_text(st, 8), p->shown, FW_MAX_HOLE);
    }
    int err = rc == SQLITE_DONE
                  ? FW_OK
                  : db_error(s->path, s->db, FW_EIO, "cannot read the players");
    sqlite3_finalize(st);
    if (err == FW_OK && h->table_seats == 0)
        h->table_seats = last >= 2 ? last : 2;
    return err;
}

/* The most actions one hand may have when read back. */
#define STORE_MAX_ACTIONS 100000

static int load_actions(fw_store *s, fw_store_hand *h)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT street, seat, action, amount_to, added, "
                           "all_in, cards FROM actions WHERE hand_id = ? "
                           "ORDER BY seq",
                           -1, &st, NULL) != SQLITE_OK)
        return db_error(s->path, s->db, FW_EIO, "cannot read the actions");
    sqlite3_bind_int64(st, 1, h->id);
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW &&
           h->nactions < STORE_MAX_ACTIONS) {
        int street = street_from_name(col_text(st, 0));
        int seat = sqlite3_column_int(st, 1);
        int act = act_from_name(col_text(st, 2));
        if (street < FW_ST_PREFLOP || street > FW_ST_SHOWDOWN || act < 0 ||
            seat < 0 || seat > FW_MAX_SEATS ||
            (seat == 0) != (act == FW_SACT_BOARD))
            continue;
        if ((size_t)h->nactions == cap) {
            size_t ncap = cap ? cap * 2 : 64;
            void *p = realloc(h->actions, ncap * sizeof *h->actions);
            if (!p) {
                sqlite3_finalize(st);
                return fw_set_error(FW_ENOMEM, "%s: out of memory", s->path);
            }
            h->actions = p;
            cap = ncap;
        }
        fw_store_action *a = &h->actions[h->nactions];
        memset(a, 0, sizeof *a);
        a->street = (fw_street)street;
        a->seat = seat;
        a->act = (fw_store_act)act;
        a->to = col_amount(st, 3, 0);
        a->added = col_amount(st, 4, 0);
        a->all_in = sqlite3_column_int(st, 5) != 0;
        a->ncards = parse_cards(col_text(st, 6), a->cards, FW_MAX_HOLE);
        h->nactions++;
    }
    int err = rc == SQLITE_DONE || rc == SQLITE_ROW
                  ? FW_OK
                  : db_error(s->path, s->db, FW_EIO, "cannot read the actions");
    sqlite3_finalize(st);
    return err;
}

static int load_awards(fw_store *s, fw_store_hand *h)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT pot, seat, amount, hand_desc, odd_chip "
                           "FROM awards WHERE hand_id = ? ORDER BY pot DESC, "
                           "seat",
                           -1, &st, NULL) != SQLITE_OK)
        return db_error(s->path, s->db, FW_EIO, "cannot read the awards");
    sqlite3_bind_int64(st, 1, h->id);
    int rc;
    int max = (int)(sizeof h->awards / sizeof h->awards[0]);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int pot = sqlite3_column_int(st, 0);
        int seat = sqlite3_column_int(st, 1);
        if (pot < 0 || pot >= FW_MAX_POTS || seat < 1 || seat > FW_MAX_SEATS ||
            h->nawards >= max)
            continue;
        fw_store_award *a = &h->awards[h->nawards++];
        memset(a, 0, sizeof *a);
        a->pot = pot;
        a->seat = seat;
        a->amount = col_amount(st, 2, 0);
        col_copy(st, 3, a->hand, sizeof a->hand);
        a->odd_chip = sqlite3_column_int(st, 4) != 0;
    }
    int err = rc == SQLITE_DONE
                  ? FW_OK
                  : db_error(s->path, s->db, FW_EIO, "cannot read the awards");
    sqlite3_finalize(st);
    return err;
}

int fw_store_load_hand(fw_store *s, int64_t id, fw_store_hand **out)
{
    if (!s || !out)
        return fw_set_error(FW_EINVAL, "hand store: bad arguments");
    *out = NULL;
    fw_store_hand *h = calloc(1, sizeof *h);
    if (!h)
        return fw_set_error(FW_ENOMEM, "%s: out of memory", s->path);
    int rc = load_hand_row(s, id, h);
    if (rc == FW_OK)
        rc = load_players(s, h);
    if (rc == FW_OK)
        rc = load_actions(s, h);
    if (rc == FW_OK)
        rc = load_awards(s, h);
    if (rc != FW_OK) {
        fw_store_hand_free(h);
        return rc;
    }
    *out = h;
    return FW_OK;
}

void fw_store_hand_free(fw_store_hand *h)
{
    if (!h)
        return;
    free(h->actions);
    free(h);
}
