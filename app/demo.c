/* demo.c - the scripted demo session and the dealer prompts it prints. */
#include "demo.h"

#include "kiosk.h"
#include "replay.h"
#include "store.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

typedef struct demo_ctx {
    FILE *out;
    FILE *records;          /* DIR/records.jsonl, or NULL */
    int quiet;
    int hands, rulings, alerts, stops;
    int last_to_act, last_hand;
    fw_street last_street;
} demo_ctx;

static void money(int64_t v, char buf[32])
{
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%lld", (long long)v);
    int o = 0;
    for (int i = 0; i < n; i++) {
        buf[o++] = digits[i];
        if ((n - i - 1) % 3 == 0 && i != n - 1 && digits[i] != '-')
            buf[o++] = ',';
    }
    buf[o] = '\0';
}

static void prompt(void *p, const fw_record *rec, const char *line,
                   size_t len)
{
    demo_ctx *d = p;
    char a[32], b[32], c[32];
    if (d->records)
        fwrite(line, 1, len, d->records);
    switch (rec->type) {
    case FW_REC_STATE: {
        const fw_state *s = &rec->u.state;
        if (s->hand != d->last_hand && s->street == FW_ST_DEAL) {
            d->last_hand = s->hand;
            fprintf(d->out, "\n=== Hand %d - button seat %d ===\n", s->hand,
                    s->button);
        }
        if (s->street != d->last_street && s->street >= FW_ST_FLOP &&
            s->street <= FW_ST_RIVER) {
            fprintf(d->out, "  -- %s:", fw_street_name(s->street));
            for (int i = 0; i < s->nboard; i++) {
                char card[3];
                fw_card_str(s->board[i], card);
                fprintf(d->out, " %s", card);
            }
            money(s->pot, a);
            fprintf(d->out, "  (pot %s)\n", a);
        }
        d->last_street = s->street;
        if (s->to_act && s->to_act != d->last_to_act && !d->quiet) {
            money(s->to_call, a);
            if (s->min_raise_to != FW_NULL_AMOUNT) {
                money(s->min_raise_to, b);
                money(s->max_raise_to, c);
                fprintf(d->out,
                        "  > Seat %d to act: %s to call, raise %s..%s\n",
                        s->to_act, a, b, c);
            } else {
                fprintf(d->out, "  > Seat %d to act: %s to call, no raise\n",
                        s->to_act, a);
            }
        }
        d->last_to_act = s->to_act;
        break;
    }
    case FW_REC_RULING:
        d->rulings++;
        fprintf(d->out, "    %s\n", rec->u.ruling.text);
        break;
    case FW_REC_ALERT: {
        const fw_alert *al = &rec->u.alert;
        d->alerts++;
        d->stops += al->severity == FW_SEV_STOP;
        fprintf(d->out, "  %s %s (Rule %s)\n",
                al->severity == FW_SEV_STOP   ? "!! STOP:"
                : al->severity == FW_SEV_WARN ? "!  WARN:"
                                              : "   note:",
                al->text, al->rule);
        if (al->remedy && al->remedy[0])
            fprintf(d->out, "     remedy: %s\n", al->remedy);
        break;
    }
    case FW_REC_AWARD:
        fprintf(d->out, "  $ %s\n", rec->u.award.text);
        break;
    case FW_REC_HAND_END:
        d->hands++;
        fprintf(d->out, "  stacks:");
        for (int i = 0; i < rec->u.hand_end.nseats; i++) {
            money(rec->u.hand_end.stacks[i], a);
            fprintf(d->out, " %d:%s", rec->u.hand_end.seats[i], a);
        }
        fprintf(d->out, "\n");
        break;
    }
}

/*
 * The demo's output folder: DIR/feltwatch.db (the hand record), the events
 * as read (DIR/events.jsonl) and the engine's records (DIR/records.jsonl).
 * On failure nothing stays open and the message is on err.
 */
static int open_outputs(const char *dir, fw_store **store, FILE **events,
                        FILE **records, FILE *err)
{
    char path[4096];
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        fprintf(err, "feltwatch: demo: %s: %s\n", dir, strerror(errno));
        return FW_EIO;
    }
    snprintf(path, sizeof path, "%s/feltwatch.db", dir);
    if (fw_store_open(path, store) != FW_OK) {
        fprintf(err, "feltwatch: demo: %s\n", fw_last_error());
        return FW_EIO;
    }
    fw_store_set_table(*store, "demo");
    snprintf(path, sizeof path, "%s/events.jsonl", dir);
    *events = fopen(path, "w");
    if (*events) {
        snprintf(path, sizeof path, "%s/records.jsonl", dir);
        *records = fopen(path, "w");
    }
    if (!*events || !*records) {
        fprintf(err, "feltwatch: demo: %s: %s\n", path, strerror(errno));
        if (*events)
            fclose(*events);
        *events = NULL;
        fw_store_close(*store);
        *store = NULL;
        return FW_EIO;
    }
    return FW_OK;
}

/* --script-only: the script straight into the rules engine, no frames (to
 * compare the camera's run with). */
static int script_main(const char *dir, int quiet, FILE *out, FILE *err)
{
    demo_ctx d = {0};
    d.out = out;
    d.quiet = quiet;
    d.last_street = FW_ST_PREDEAL;
    const char *script = fw_demo_script();
    FILE *in = fmemopen((void *)script, strlen(script), "r");
    if (!in) {
        fprintf(err, "feltwatch: demo: cannot open the script\n");
        return 1;
    }
    fw_store *store = NULL;
    FILE *events = NULL;
    if (dir && open_outputs(dir, &store, &events, &d.records, err) != FW_OK) {
        fclose(in);
        return 1;
    }
    fprintf(out, "feltwatch demo --script-only: the scripted session straight into "
                 "the rules engine (TDA rules), no camera\n");
    int status =
        fw_replay_stream_to(in, "demo", NULL, err, prompt, &d, store, events);
    fclose(in);
    if (events)
        fclose(events);
    if (d.records)
        fclose(d.records);
    if (store) {
        int64_t written = fw_store_written(store);
        if (fw_store_close(store) != FW_OK) {
            fprintf(err, "feltwatch: demo: %s\n", fw_last_error());
            status = 1;
        }
        fprintf(out, "feltwatch demo: %lld hands recorded in %s/feltwatch.db"
                     "\n",
                (long long)written, dir);
    }

    fprintf(out,
            "\nfeltwatch demo: %d hands, %d rulings, %d alerts (%d "
            "stop)\n",
            d.hands, d.rulings, d.alerts, d.stops);
    return status;
}

/* The script's events without frame times, one per line, for comparing
 * what the camera reported with what the script played. */
static int next_event(FILE *f, char *buf, size_t size)
{
    while (fgets(buf, (int)size, f)) {
        char *p = strstr(buf, ",\"t\":");
        if (p) {
            char *e = p + 5;
            while (*e && *e != ',' && *e != '}')
                e++;
            memmove(p, e, strlen(e) + 1);
        }
        p = strstr(buf, "\"to\":\"board\",\"face\":\"up\",");
        if (p)
            memmove(p + 13, p + 25, strlen(p + 25) + 1);
        size_t l = strlen(buf);
        while (l && (buf[l - 1] == '\n' || buf[l - 1] == '\r'))
            buf[--l] = '\0';
        if (l)
            return 1;
    }
    return 0;
}

/* How far the events the kiosk saw (DIR/events.jsonl) follow the script. */
static void compare_with_script(const char *dir, FILE *out)
{
    char path[4096], a[4096], b[4096];
    snprintf(path, sizeof path, "%s/events.jsonl", dir);
    FILE *got = fopen(path, "r");
    const char *script = fw_demo_script();
    FILE *want = fmemopen((void *)script, strlen(script), "r");
    if (!got || !want) {
        if (got)
            fclose(got);
        if (want)
            fclose(want);
        return;
    }
    long n = 0, total = 0;
    int same = 1;
    while (next_event(want, b, sizeof b)) {
        total++;
        if (!same)
            continue;
        if (!next_event(got, a, sizeof a)) {
            same = 0;
            fprintf(out, "  the camera and taps followed the script for its "
                         "first %ld events; then the run ended\n",
                    n);
            continue;
        }
        if (strcmp(a, b) != 0) {
            same = 0;
            fprintf(out, "  the camera and taps followed the script for its "
                         "first %ld events; then\n    script: %s\n    "
                         "seen:   %s\n",
                    n, b, a);
            continue;
        }
        n++;
    }
    if (same)
        fprintf(out, "  the camera and taps gave all %ld events of the "
                     "script, in order\n",
                total);
    else
        fprintf(out, "  (%ld events in the script)\n", total);
    fclose(got);
    fclose(want);
}

int fw_demo_main(int argc, char **argv, FILE *out, FILE *err)
{
    const char *dir = NULL;
    int headless = 0, script_only = 0, quiet = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quiet") == 0) {
            quiet = 1;
        } else if (strcmp(argv[i], "--headless") == 0) {
            headless = 1;
        } else if (strcmp(argv[i], "--script-only") == 0) {
            script_only = 1;
        } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            dir = argv[++i];
        } else {
            fprintf(err, "feltwatch: demo: unknown option %s\n", argv[i]);
            fprintf(err, "usage: feltwatch demo [--headless] [--out DIR] "
                         "[--script-only] [--quiet]\n");
            return 2;
        }
    }
    if (script_only)
        return script_main(dir, quiet, out, err);

    /* the simulated camera plays the session: frames -> card and chip
     * vision -> trackers -> rules -> screen and record */
    if (!dir)
        dir = "feltwatch-demo";
    char *run[8];
    int n = 0;
    run[n++] = "run";
    run[n++] = "--source";
    run[n++] = "sim:";
    run[n++] = "--out";
    run[n++] = (char *)dir;
    if (headless)
        run[n++] = "--headless";
    run[n] = NULL;
    fprintf(out, "feltwatch demo: the scripted session drawn by the "
                 "simulated camera, read by card and chip vision, ruled "
                 "under the TDA rules\n  (hands, screens and logs in %s/)\n",
            dir);
    fflush(out);
    int status = fw_kiosk_run(n, run, fw_demo_script(), out, err);
    if (status == 0)
        compare_with_script(dir, out);
    return status;
}
