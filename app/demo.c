/* demo.c - the scripted demo session and the dealer prompts it prints. */
#include "demo.h"

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

int fw_demo_main(int argc, char **argv, FILE *out, FILE *err)
{
    demo_ctx d = {0};
    d.out = out;
    d.last_street = FW_ST_PREDEAL;
    const char *dir = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quiet") == 0) {
            d.quiet = 1;
        } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            dir = argv[++i];
        } else {
            fprintf(err, "feltwatch: demo: unknown option %s\n", argv[i]);
            return 2;
        }
    }
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
    fprintf(out, "feltwatch demo: a scripted session through the rules "
                 "engine (TDA rules)\n");
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
