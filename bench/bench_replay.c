/*
 * bench_replay.c - protocol events per second through the replay path
 * (JSON parse + engine + JSON records out), the engine alone on parsed
 * events, and PHH hands per second.
 *
 * usage: bench_replay [SECONDS] [PHH FILES...]
 * The event stream is a fixed six-handed hand repeated (deal, pre-flop,
 * flop, turn, river, showdown) with stacks reset every hand, so every run
 * measures the same work. Results are rates; compare ratios in one run.
 */
#include "phh.h"
#include "protocol.h"
#include "replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *hand_lines[] = {
    "{\"type\":\"seat\",\"seat\":1,\"player\":\"A\",\"stack\":20000}",
    "{\"type\":\"seat\",\"seat\":2,\"player\":\"B\",\"stack\":20000}",
    "{\"type\":\"seat\",\"seat\":3,\"player\":\"C\",\"stack\":20000}",
    "{\"type\":\"seat\",\"seat\":4,\"player\":\"D\",\"stack\":20000}",
    "{\"type\":\"seat\",\"seat\":5,\"player\":\"E\",\"stack\":20000}",
    "{\"type\":\"seat\",\"seat\":6,\"player\":\"F\",\"stack\":20000}",
    "{\"type\":\"hand_start\"}",
    "DEAL",
    "{\"type\":\"say\",\"seat\":S3,\"word\":\"raise\",\"amount\":600}",
    "{\"type\":\"push\",\"seat\":S3,\"chips\":[500,100]}",
    "{\"type\":\"push\",\"seat\":S4,\"chips\":[500,100]}",
    "{\"type\":\"fold\",\"seat\":S5}",
    "{\"type\":\"fold\",\"seat\":S6}",
    "{\"type\":\"fold\",\"seat\":S1}",
    "{\"type\":\"push\",\"seat\":S2,\"chips\":[100,100,100,100]}",
    "{\"type\":\"card\",\"to\":\"burn\"}",
    "{\"type\":\"card\",\"to\":\"board\",\"card\":\"Ah\"}",
    "{\"type\":\"card\",\"to\":\"board\",\"card\":\"Kd\"}",
    "{\"type\":\"card\",\"to\":\"board\",\"card\":\"7c\"}",
    "{\"type\":\"say\",\"seat\":S2,\"word\":\"check\"}",
    "{\"type\":\"push\",\"seat\":S3,\"chips\":[500,500]}",
    "{\"type\":\"push\",\"seat\":S4,\"chips\":[1000]}",
    "{\"type\":\"fold\",\"seat\":S2}",
    "{\"type\":\"card\",\"to\":\"burn\"}",
    "{\"type\":\"card\",\"to\":\"board\",\"card\":\"2s\"}",
    "{\"type\":\"say\",\"seat\":S3,\"word\":\"check\"}",
    "{\"type\":\"say\",\"seat\":S4,\"word\":\"check\"}",
    "{\"type\":\"card\",\"to\":\"burn\"}",
    "{\"type\":\"card\",\"to\":\"board\",\"card\":\"9d\"}",
    "{\"type\":\"say\",\"seat\":S3,\"word\":\"bet\",\"amount\":2000}",
    "{\"type\":\"say\",\"seat\":S4,\"word\":\"call\"}",
    "{\"type\":\"show\",\"seat\":S3,\"cards\":[\"Ac\",\"Qd\"]}",
    "{\"type\":\"show\",\"seat\":S4,\"cards\":[\"Kh\",\"Ks\"]}",
};

/* Write n hands of events into a malloc'd buffer; seats rotate with the
 * button (S1 = small blind ... S6 = button). */
static char *make_stream(int hands, size_t *len, long *events)
{
    size_t cap = (size_t)hands * 4096 + 4096, o = 0;
    char *buf = malloc(cap);
    if (!buf)
        return NULL;
    *events = 0;
    o += (size_t)snprintf(buf + o, cap - o,
                          "{\"type\":\"table\",\"seats\":6,\"game\":\"NLHE\","
                          "\"rules\":\"tda\"}\n{\"type\":\"level\",\"sb\":100,"
                          "\"bb\":200}\n");
    *events += 2;
    for (int h = 0; h < hands; h++) {
        int sb = h % 6 + 2; /* the button starts on seat 1 */
        for (size_t i = 0; i < sizeof hand_lines / sizeof hand_lines[0];
             i++) {
            const char *l = hand_lines[i];
            if (strcmp(l, "DEAL") == 0) {
                for (int r = 0; r < 2; r++)
                    for (int k = 0; k < 6; k++) {
                        o += (size_t)snprintf(
                            buf + o, cap - o,
                            "{\"type\":\"card\",\"to\":\"seat\",\"seat\":%d}\n",
                            (sb - 1 + k) % 6 + 1);
                        (*events)++;
                    }
                continue;
            }
            for (const char *c = l; *c; c++) {
                if (c[0] == 'S' && c[1] >= '1' && c[1] <= '6') {
                    int k = c[1] - '1';
                    o += (size_t)snprintf(buf + o, cap - o, "%d",
                                          (sb - 1 + k) % 6 + 1);
                    c++;
                } else {
                    buf[o++] = *c;
                }
            }
            buf[o++] = '\n';
            (*events)++;
        }
    }
    buf[o] = '\0';
    *len = o;
    return buf;
}

typedef struct sink {
    long records;
    long alarms; /* warn or stop alerts: the stream must have none */
} sink;

static void count_record(void *ctx, const fw_record *rec)
{
    sink *k = ctx;
    k->records++;
    if (rec->type == FW_REC_ALERT && rec->u.alert.severity != FW_SEV_INFO)
        k->alarms++;
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? strtod(argv[1], NULL) : 2.0;
    if (seconds <= 0)
        seconds = 2.0;
    const int hands = 2000;
    size_t len;
    long events;
    char *stream = make_stream(hands, &len, &events);
    if (!stream) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }

    /* 1. the whole replay path, output to /dev/null */
    FILE *devnull = fopen("/dev/null", "w");
    long total = 0;
    int runs = 0;
    double t0 = now(), t;
    do {
        FILE *in = fmemopen(stream, len, "r");
        if (fw_replay_stream(in, "bench", devnull, stderr, NULL, NULL) != 0) {
            fprintf(stderr, "replay failed\n");
            return 1;
        }
        fclose(in);
        total += events;
        runs++;
        t = now() - t0;
    } while (t < seconds);
    printf("replay (parse + engine + write): %.0f events/s "
           "(%ld events, %d runs, %.2f s)\n",
           (double)total / t, total, runs, t);

    /* 2. parse only and 3. engine only, on pre-parsed events */
    fw_event *evs = calloc((size_t)events, sizeof *evs);
    char err[FW_PROTOCOL_ERR_MAX];
    long n = 0;
    /* two passes: the first faults the event array in, the second is
     * timed, so the figure is the parser's and not the page allocator's */
    for (int pass = 0; pass < 2; pass++) {
        long lineno = 0;
        n = 0;
        t0 = now();
        for (char *p = stream; *p;) {
            char *nl = strchr(p, '\n');
            size_t l = nl ? (size_t)(nl - p) : strlen(p);
            lineno++;
            if (fw_protocol_parse_line(p, l, lineno, &evs[n], err,
                                       sizeof err) == FW_OK)
                n++;
            p += l + (nl ? 1 : 0);
        }
        t = now() - t0;
    }
    printf("parse only: %.0f lines/s\n", (double)n / t);

    sink s = {0};
    total = 0;
    runs = 0;
    t0 = now();
    do {
        fw_engine *e;
        fw_engine_new(count_record, &s, &e);
        for (long i = 0; i < n; i++)
            fw_engine_apply(e, &evs[i], NULL);
        fw_engine_free(e);
        total += n;
        runs++;
        t = now() - t0;
    } while (t < seconds);
    printf("engine only: %.0f events/s (%.2f records per event, %ld "
           "warn/stop alerts)\n",
           (double)total / t, (double)s.records / (double)total, s.alarms);
    printf("hands per second (replay path): %.0f\n",
           (double)total / t / ((double)events / hands));

    /* 4. PHH hands per second */
    for (int a = 2; a < argc; a++) {
        FILE *f = fopen(argv[a], "r");
        if (!f) {
            perror(argv[a]);
            continue;
        }
        static char text[1 << 20];
        size_t tl = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        text[tl] = '\0';
        static fw_phh h;
        char perr[256];
        if (fw_phh_parse(text, tl, &h, perr, sizeof perr) != FW_OK) {
            fprintf(stderr, "%s: %s\n", argv[a], perr);
            continue;
        }
        int64_t fin[FW_MAX_SEATS];
        int nfin;
        long k = 0;
        t0 = now();
        do {
            for (int i = 0; i < 100; i++)
                fw_phh_replay(&h, fin, &nfin, perr, sizeof perr);
            k += 100;
            t = now() - t0;
        } while (t < seconds / 4);
        printf("phh %s: %.0f hands/s (replay only)\n", argv[a],
               (double)k / t);
        long kp = 0;
        t0 = now();
        do {
            for (int i = 0; i < 100; i++) {
                fw_phh_parse(text, tl, &h, perr, sizeof perr);
                fw_phh_replay(&h, fin, &nfin, perr, sizeof perr);
            }
            kp += 100;
            t = now() - t0;
        } while (t < seconds / 4);
        printf("phh %s: %.0f hands/s (TOML parse + replay)\n", argv[a],
               (double)kp / t);
    }
    free(evs);
    free(stream);
    fclose(devnull);
    return 0;
}
