/*
 * kiosk.c - `feltwatch run`: the kiosk loop.
 *
 * frame source -> fw_vision_detect_cards -> fw_tracker_frame -> table events
 * -> (UI, store, events.jsonl) -> fw_engine_apply -> records -> (UI, store,
 * records.jsonl). Table setup (table, level, seats, button, hand_start) that
 * no camera sees comes from --setup, or a default 6-seat table. Nothing a
 * camera does ends the loop: corrupt frames are skipped, a stopped camera is
 * reconnected with a growing back-off.
 */
#define _POSIX_C_SOURCE 200809L
#include "kiosk.h"

#include "calibration.h"
#include "chip_tracker.h"
#include "chips.h"
#include "frames.h"
#include "kiosk_sim.h"
#include "protocol.h"
#include "stack_asker.h"
#include "store.h"
#include "tracker.h"
#include "ui.h"
#include "vision.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#define MAX_OBS 64
#define MAX_CHIP_OBS 128
#define MAX_STACK_OBS 32
/* The chips' radius is learned from the last RADII chips seen lying flat
 * once MIN_RADII have been: a stack's top is then looked for at the
 * table's chip size, not at the size of its outline (top and side). */
#define RADII 64
#define MIN_RADII 8
#define SIM_FPS 30.0 /* the simulated camera's frame rate */
#define MAX_EV 64
#define MAX_SIGHTINGS 64
#define BACKOFF_MIN_S 0.1
#define BACKOFF_MAX_S 5.0

static const char default_setup[] =
    "{\"type\":\"table\",\"seats\":6,\"game\":\"NLHE\",\"rules\":\"tda\"}\n"
    "{\"type\":\"level\",\"sb\":100,\"bb\":200}\n"
    "{\"type\":\"seat\",\"seat\":1,\"player\":\"P1\",\"stack\":20000}\n"
    "{\"type\":\"seat\",\"seat\":2,\"player\":\"P2\",\"stack\":20000}\n"
    "{\"type\":\"seat\",\"seat\":3,\"player\":\"P3\",\"stack\":20000}\n"
    "{\"type\":\"seat\",\"seat\":4,\"player\":\"P4\",\"stack\":20000}\n"
    "{\"type\":\"seat\",\"seat\":5,\"player\":\"P5\",\"stack\":20000}\n"
    "{\"type\":\"seat\",\"seat\":6,\"player\":\"P6\",\"stack\":20000}\n"
    "{\"type\":\"button\",\"seat\":6}\n"
    "{\"type\":\"hand_start\"}\n";

/* Where a card was first seen: for the card-to-event latency. */
typedef struct sighting {
    double fx, fy;  /* felt mm, last seen */
    fw_zone zone;
    double t_first, t_last;
    int used;       /* an event was matched to it */
} sighting;

typedef struct kiosk {
    FILE *out, *err;
    FILE *events, *records;
    fw_store *store;
    fw_ui *ui;
    fw_engine *engine;
    fw_protocol_writer *writer;
    fw_tracker *tracker;
    fw_chip_tracker *chips;
    fw_stack_asker stacks; /* stacks pushed: asked, confirmed */
    float radii[RADII];    /* chips lying flat: their radii, a ring */
    long nradii;
    float radius;          /* their median, 0 until MIN_RADII were seen */
    long stacks_asked, stacks_confirmed;
    const fw_calib *cal;
    char buf[FW_PROTOCOL_RECORD_MAX];
    long nevents, ncamera, nrecords;
    long alerts[3];
    int street, hand;
    sighting sight[MAX_SIGHTINGS];
    int nsight;
    long nlat;
    double lat_sum, lat_max, lat_min;
    /* from a card landing to its alert on the screen: the camera event's
     * latency plus the frame's processing until the alert */
    double cur_lat, frame_start;
    long nalat;
    double alat_sum, alat_max;
} kiosk;

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
    (void)sig;
    stop_flag = 1;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void sleep_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR && !stop_flag)
        ;
}

static void on_record(void *p, const fw_record *rec)
{
    kiosk *k = p;
    size_t len = 0;
    k->nrecords++;
    if (rec->type == FW_REC_ALERT) {
        const fw_alert *a = &rec->u.alert;
        if ((unsigned)a->severity < 3)
            k->alerts[a->severity]++;
        if (a->severity != FW_SEV_INFO && k->cur_lat >= 0) {
            double l = k->cur_lat + (now_s() - k->frame_start);
            k->alat_sum += l;
            if (l > k->alat_max)
                k->alat_max = l;
            k->nalat++;
        }
        if (a->severity != FW_SEV_INFO)
            fprintf(k->err, "feltwatch: run: %s alert %s%s%s: %s\n",
                    fw_severity_name(a->severity), a->kind,
                    a->rule && a->rule[0] ? " rule " : "",
                    a->rule ? a->rule : "", a->text);
        /* 39-A: the dealer takes the board in and deals it again */
        if (strcmp(a->kind, "four_card_flop") == 0)
            fw_tracker_forget_board(k->tracker);
    } else if (rec->type == FW_REC_STATE) {
        /* a betting round ended (nobody left to act, or a new street or
         * hand): the dealer gathers the bets into the pot, which is no
         * pull */
        const fw_state *st = &rec->u.state;
        if ((int)st->street != k->street || st->hand != k->hand ||
            (st->to_act == 0 && st->street >= FW_ST_PREFLOP))
            fw_chip_tracker_collect(k->chips);
        k->street = rec->u.state.street;
        k->hand = rec->u.state.hand;
    }
    if (k->ui)
        fw_ui_on_record(k->ui, rec);
    if (fw_protocol_write_record(k->writer, rec, k->buf, sizeof k->buf,
                                 &len) != FW_OK) {
        fprintf(k->err, "feltwatch: run: could not write a record: %s\n",
                fw_last_error());
        return;
    }
    if (k->records)
        fwrite(k->buf, 1, len, k->records);
    if (k->store) {
        k->buf[len - 1] = '\0';
        fw_store_record(k->store, rec, k->buf);
    }
}

/* One event as a protocol line (without "\n"): the kinds the camera and
 * the scripted dealer produce; others by type, seat and time. */
static void event_json(const fw_event *ev, char *buf, size_t size)
{
    char card[3], tail[64] = "";
    if (ev->has_t)
        snprintf(tail, sizeof tail, ",\"t\":%.3f", ev->t);
    const char *type = fw_event_type_name(ev->type);
    switch (ev->type) {
    case FW_EV_CARD: {
        char seat[32] = "", c[32] = "";
        if (ev->to == FW_TO_SEAT || ev->seat > 0)
            snprintf(seat, sizeof seat, ",\"seat\":%d", ev->seat);
        if (ev->card != FW_CARD_NONE) {
            fw_card_str(ev->card, card);
            snprintf(c, sizeof c, ",\"card\":\"%s\"", card);
        }
        snprintf(buf, size, "{\"type\":\"card\",\"to\":\"%s\"%s,\"face\":"
                            "\"%s\"%s%s}",
                 fw_card_to_name(ev->to), seat,
                 ev->face == FW_FACE_UP ? "up" : "down", c, tail);
        return;
    }
    case FW_EV_SHOW: {
        size_t n = (size_t)snprintf(buf, size,
                                    "{\"type\":\"show\",\"seat\":%d,"
                                    "\"cards\":[",
                                    ev->seat);
        for (int i = 0; i < ev->ncards && n < size; i++) {
            fw_card_str(ev->cards[i], card);
            n += (size_t)snprintf(buf + n, size - n, "%s\"%s\"",
                                  i ? "," : "", card);
        }
        if (n < size)
            snprintf(buf + n, size - n, "]%s}", tail);
        return;
    }
    case FW_EV_PUSH:
    case FW_EV_PULL: {
        size_t n = (size_t)snprintf(buf, size,
                                    "{\"type\":\"%s\",\"seat\":%d,"
                                    "\"chips\":[",
                                    type, ev->seat);
        for (int i = 0; i < ev->nchips && n < size; i++)
            n += (size_t)snprintf(buf + n, size - n, "%s%lld", i ? "," : "",
                                  (long long)ev->chips[i]);
        if (n < size)
            snprintf(buf + n, size - n, "]%s}", tail);
        return;
    }
    case FW_EV_SAY: {
        char w[48] = "", a[48] = "";
        if (ev->word != FW_WORD_NONE)
            snprintf(w, sizeof w, ",\"word\":\"%s\"", fw_word_name(ev->word));
        if (ev->has_amount)
            snprintf(a, sizeof a, ",\"amount\":%lld", (long long)ev->amount);
        snprintf(buf, size, "{\"type\":\"say\",\"seat\":%d%s%s%s}", ev->seat,
                 w, a, tail);
        return;
    }
    default:
        if (ev->seat > 0)
            snprintf(buf, size, "{\"type\":\"%s\",\"seat\":%d%s}",
                     type ? type : "?", ev->seat, tail);
        else
            snprintf(buf, size, "{\"type\":\"%s\"%s}", type ? type : "?",
                     tail);
    }
}

/* Log, record, show and apply one event. line: its JSON without "\n".
 * \returns the engine's result. */
static int apply_event(kiosk *k, const fw_event *ev, const char *line)
{
    k->nevents++;
    if (k->events)
        fprintf(k->events, "%s\n", line);
    if (k->store)
        fw_store_event(k->store, ev, line);
    if (k->ui)
        fw_ui_on_event(k->ui, ev);
    const char *why = NULL;
    int rc = fw_engine_apply(k->engine, ev, &why);
    if (rc != FW_OK)
        fprintf(k->err, "feltwatch: run: %s refused: %s\n", line,
                why ? why : fw_strerror(rc));
    if (ev->type == FW_EV_HAND_START) {
        fw_tracker_reset(k->tracker);
        fw_chip_tracker_reset(k->chips);
        fw_stack_asker_reset(&k->stacks);
        k->nsight = 0;
    }
    return rc;
}

static int apply_generated(kiosk *k, const fw_event *ev)
{
    char line[4096];
    event_json(ev, line, sizeof line);
    return apply_event(k, ev, line);
}

/* Setup lines (dealer/floor input) from text or a file. */
static int apply_setup(kiosk *k, FILE *in, const char *name)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    long lineno = 0;
    int status = 0;
    char msg[FW_PROTOCOL_ERR_MAX];
    fw_event ev;
    while ((n = getline(&line, &cap, in)) > 0) {
        lineno++;
        int rc = fw_protocol_parse_line(line, (size_t)n, lineno, &ev, msg,
                                        sizeof msg);
        if (rc == FW_PROTOCOL_SKIP)
            continue;
        if (rc != FW_OK) {
            fprintf(k->err, "feltwatch: run: %s: %s\n", name, msg);
            status = 1;
            break;
        }
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
        if (apply_event(k, &ev, line) != FW_OK) {
            fprintf(k->err, "feltwatch: run: %s: line %ld refused\n", name,
                    lineno);
            status = 1;
            break;
        }
    }
    free(line);
    return status;
}

/* Follow each detection on the felt: when it was first seen. */
static void note_sightings(kiosk *k, const fw_card_obs *obs, int n, double t)
{
    for (int i = 0; i < n; i++) {
        double cx = 0, cy = 0, fx, fy;
        for (int c = 0; c < 4; c++)
            cx += obs[i].corners[c][0] / 4, cy += obs[i].corners[c][1] / 4;
        fw_calib_to_felt(k->cal, cx, cy, &fx, &fy);
        int best = -1;
        double bd = 60.0 * 60.0;
        for (int j = 0; j < k->nsight; j++) {
            sighting *s = &k->sight[j];
            double d = (s->fx - fx) * (s->fx - fx) + (s->fy - fy) * (s->fy - fy);
            if (t - s->t_last < 1.0 && d < bd)
                bd = d, best = j;
        }
        if (best < 0) {
            if (k->nsight == MAX_SIGHTINGS) { /* forget the oldest */
                memmove(k->sight, k->sight + 1,
                        (MAX_SIGHTINGS - 1) * sizeof k->sight[0]);
                k->nsight--;
            }
            best = k->nsight++;
            k->sight[best].t_first = t;
            k->sight[best].used = 0;
        }
        sighting *s = &k->sight[best];
        s->fx = fx;
        s->fy = fy;
        s->t_last = t;
        s->zone = fw_calib_zone_at(k->cal, fx, fy);
    }
}

/* Count one camera event's latency in the summary; returns it. */
static double add_latency(kiosk *k, double lat)
{
    if (k->nlat == 0 || lat < k->lat_min)
        k->lat_min = lat;
    if (lat > k->lat_max)
        k->lat_max = lat;
    k->lat_sum += lat;
    k->nlat++;
    return lat;
}

/* The latency of a camera event: from the first sighting of the earliest
 * unmatched card in the event's zone to the frame that made it. */
static double note_latency(kiosk *k, const fw_event *ev, double t)
{
    fw_zone_kind kind;
    int seat = 0;
    if (ev->type == FW_EV_CARD) {
        switch (ev->to) {
        case FW_TO_SEAT: kind = FW_ZONE_SEAT_CARDS, seat = ev->seat; break;
        case FW_TO_BURN: kind = FW_ZONE_BURN; break;
        case FW_TO_BOARD: kind = FW_ZONE_BOARD; break;
        case FW_TO_DECK: kind = FW_ZONE_DECK; break;
        default: kind = FW_ZONE_MUCK; break;
        }
    } else if (ev->type == FW_EV_FOLD) {
        kind = FW_ZONE_MUCK;
    } else {
        return -1;
    }
    int best = -1;
    for (int j = 0; j < k->nsight; j++) {
        const sighting *s = &k->sight[j];
        if (s->used || s->zone.kind != kind ||
            (seat && s->zone.seat != seat))
            continue;
        if (best < 0 || s->t_first < k->sight[best].t_first)
            best = j;
    }
    if (best < 0)
        return -1;
    k->sight[best].used = 1;
    double lat = t - k->sight[best].t_first;
    return add_latency(k, lat);
}

/* The latency of camera event number k->ncamera: on the simulated table,
 * from the frame its card or chips were put down (the dealer's ground
 * truth); on a camera, from the first sighting of the card. */
static double camera_latency(kiosk *k, const fw_kiosk_sim *sim,
                             const fw_event *ev, double t)
{
    if (!sim)
        return note_latency(k, ev, t);
    fw_event_type type = ev->type == FW_EV_MUCK ? FW_EV_FOLD : ev->type;
    long f = fw_kiosk_sim_landed(sim, (int)k->ncamera, type);
    if (f < 0)
        return -1;
    double lat = t - (double)f / SIM_FPS;
    return add_latency(k, lat);
}

/*
 * The dealer's answer to "how much is this stack?" (amount 0: cancelled):
 * the push the stack's chips would have been, applied as a camera event
 * (the camera saw the chips; the dealer counted them).
 */
static void stack_confirmed(kiosk *k, const fw_kiosk_sim *sim, int seat,
                            int64_t amount, double t)
{
    fw_event push;
    if (fw_stack_asker_answer(&k->stacks, seat, amount, &push) != 1)
        return;
    push.has_t = 1;
    push.t = t;
    k->stacks_confirmed++;
    k->cur_lat = camera_latency(k, sim, &push, t);
    k->ncamera++;
    apply_generated(k, &push);
    k->cur_lat = -1;
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Remember the radii of the chips seen lying flat in bet zones with a
 * chip set's colour (circles elsewhere may be card art or a hand); the
 * median of the last RADII of them (recomputed only when one was added),
 * or 0 while fewer than MIN_RADII have been seen. */
static float learn_radius(kiosk *k, const fw_chip_obs *chips, int n)
{
    long before = k->nradii;
    for (int i = 0; i < n; i++) {
        const fw_chip_obs *o = &chips[i];
        if (o->value <= 0 || !(o->radius > 0) || !isfinite(o->center[0]) ||
            !isfinite(o->center[1]))
            continue;
        double fx, fy;
        fw_calib_to_felt(k->cal, o->center[0], o->center[1], &fx, &fy);
        if (fw_calib_zone_at(k->cal, fx, fy).kind == FW_ZONE_SEAT_BET)
            k->radii[k->nradii++ % RADII] = o->radius;
    }
    if (k->nradii == before || k->nradii < MIN_RADII)
        return k->radius;
    float v[RADII];
    int m = k->nradii < RADII ? (int)k->nradii : RADII;
    memcpy(v, k->radii, sizeof v[0] * (size_t)m);
    qsort(v, (size_t)m, sizeof v[0], cmp_float);
    k->radius = v[m / 2];
    return k->radius;
}

/* A message for the dealer that is not a rules alert: on screen only. */
static void screen_notice(kiosk *k, fw_severity sev, const char *kind,
                          const char *text)
{
    if (!k->ui)
        return;
    fw_record rec;
    memset(&rec, 0, sizeof rec);
    rec.type = FW_REC_ALERT;
    rec.u.alert.kind = kind;
    rec.u.alert.severity = sev;
    rec.u.alert.rule = "";
    rec.u.alert.remedy = "";
    snprintf(rec.u.alert.text, sizeof rec.u.alert.text, "%s", text);
    fw_ui_on_record(k->ui, &rec);
}

static int make_dir(const char *path, FILE *err)
{
    if (mkdir(path, 0755) != 0 && errno != EEXIST) {
        fprintf(err, "feltwatch: run: %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

static FILE *open_log(const char *dir, const char *name, FILE *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(err, "feltwatch: run: %s: %s\n", path, strerror(errno));
    return f;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: feltwatch run [--source URI] [--calib FILE] "
               "[--setup FILE.jsonl] [--headless] [--out DIR] "
               "[--frames N]\n"
               "                     [--script FILE.jsonl] [--deck NAME]   "
               "(sim: what the simulated dealer plays;\n"
               "                     default: the demo session)\n");
}

/* A whole file into memory (the sim's script). */
static char *read_file(const char *path, size_t *len, FILE *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(err, "feltwatch: run: %s: %s\n", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        char *nb = realloc(buf, cap * 2);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        fprintf(err, "feltwatch: run: %s: %s\n", path,
                buf ? "read error" : "out of memory");
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

int fw_kiosk_run(int argc, char **argv, const char *builtin_script, FILE *out,
                 FILE *err)
{
    const char *source = "sim:", *calib_path = NULL, *setup_path = NULL,
               *dir = NULL, *script_path = NULL, *deck = NULL;
    int headless = 0;
    long max_frames = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (strcmp(a, "--source") == 0 && more)
            source = argv[++i];
        else if (strcmp(a, "--calib") == 0 && more)
            calib_path = argv[++i];
        else if (strcmp(a, "--setup") == 0 && more)
            setup_path = argv[++i];
        else if (strcmp(a, "--script") == 0 && more)
            script_path = argv[++i];
        else if (strcmp(a, "--deck") == 0 && more)
            deck = argv[++i];
        else if (strcmp(a, "--out") == 0 && more)
            dir = argv[++i];
        else if (strcmp(a, "--headless") == 0)
            headless = 1;
        else if (strcmp(a, "--frames") == 0 && more) {
            char *end;
            max_frames = strtol(argv[++i], &end, 10);
            if (*end || max_frames < 0) {
                fprintf(err, "feltwatch: run: --frames: not a count: %s\n",
                        argv[i]);
                return 2;
            }
        } else {
            fprintf(err, "feltwatch: run: unknown argument \"%s\"\n", a);
            usage(err);
            return 2;
        }
    }

    int status = 1;
    kiosk k;
    memset(&k, 0, sizeof k);
    k.out = out;
    k.cur_lat = -1;
    k.err = err;
    fw_calib *cal = NULL;
    fw_vision *vision = NULL;
    fw_frame_source *src = NULL;
    fw_kiosk_sim *sim = NULL;
    FILE *setup = NULL;

    /* calibration, detector, tracker, engine */
    if (calib_path) {
        char msg[512];
        if (fw_calib_load(calib_path, &cal, msg, sizeof msg) != FW_OK) {
            fprintf(err, "feltwatch: run: %s\n", msg);
            goto done;
        }
    } else if (fw_calib_default(&cal) != FW_OK) {
        fprintf(err, "feltwatch: run: default calibration: %s\n",
                fw_last_error());
        goto done;
    }
    k.cal = cal;
    if (fw_vision_new(&vision) != FW_OK) {
        fprintf(err, "feltwatch: run: card detector: %s\n", fw_last_error());
        goto done;
    }
    if (fw_tracker_new(cal, NULL, &k.tracker) != FW_OK ||
        fw_chip_tracker_new(cal, NULL, &k.chips) != FW_OK ||
        fw_stack_asker_init(&k.stacks, cal, 0, 0) != FW_OK ||
        fw_protocol_writer_new(&k.writer) != FW_OK ||
        fw_engine_new(on_record, &k, &k.engine) != FW_OK) {
        fprintf(err, "feltwatch: run: out of memory\n");
        goto done;
    }

    /* outputs */
    if (dir) {
        char path[4096];
        if (make_dir(dir, err) != 0)
            goto done;
        snprintf(path, sizeof path, "%s/feltwatch.db", dir);
        if (fw_store_open(path, &k.store) != FW_OK) {
            fprintf(err, "feltwatch: run: %s\n", fw_last_error());
            goto done;
        }
        if (!(k.events = open_log(dir, "events.jsonl", err)) ||
            !(k.records = open_log(dir, "records.jsonl", err)))
            goto done;
    }

    /* the dealer screen: a window when there is a display, PNGs headless */
    {
        const char *display = getenv("DISPLAY");
        fw_ui_options uo;
        memset(&uo, 0, sizeof uo);
        char screens[4096];
        int want = 0;
        if (!headless && display && display[0]) {
            uo.mode = FW_UI_WINDOW;
            uo.title = "feltwatch";
            want = 1;
        } else if (dir) {
            snprintf(screens, sizeof screens, "%s/screens", dir);
            if (make_dir(screens, err) != 0)
                goto done;
            uo.mode = FW_UI_HEADLESS;
            uo.out_dir = screens;
            want = 1;
        }
        if (want && fw_ui_new(&uo, &k.ui) != FW_OK) {
            fprintf(err, "feltwatch: run: no dealer screen: %s\n",
                    fw_last_error());
            k.ui = NULL; /* the table is still recorded */
        }
    }

    /* the frame source */
    {
        fw_frames_options fo;
        memset(&fo, 0, sizeof fo);
        int is_sim = strncmp(source, "sim:", 4) == 0;
        if (is_sim) {
            size_t slen = 0;
            char *text = NULL, msg[512];
            const char *script = builtin_script;
            if (script_path) {
                text = read_file(script_path, &slen, err);
                if (!text)
                    goto done;
                script = text;
            } else if (script) {
                slen = strlen(script);
            } else {
                fprintf(err, "feltwatch: run: sim: needs --script FILE\n");
                goto done;
            }
            int src_rc = fw_kiosk_sim_new(
                cal, script, slen, script_path ? script_path : "demo session",
                deck, &sim, msg, sizeof msg);
            free(text);
            if (src_rc != FW_OK) {
                fprintf(err, "feltwatch: run: %s\n", msg);
                goto done;
            }
            fo.width = FW_KIOSK_SIM_WIDTH;
            fo.height = FW_KIOSK_SIM_HEIGHT;
            fo.fps = SIM_FPS;
            fo.realtime = k.ui && !headless; /* a window: at camera pace */
            fo.max_frames = max_frames ? max_frames : fw_kiosk_sim_length(sim);
        }
        if (fw_frames_open(source, &fo, &src) != FW_OK) {
            fprintf(err, "feltwatch: run: %s\n", fw_last_error());
            goto done;
        }
        if (sim && fw_frames_sim_set_draw(src, fw_kiosk_sim_draw, sim) != FW_OK) {
            fprintf(err, "feltwatch: run: %s\n", fw_last_error());
            goto done;
        }
    }

    /* table setup: dealer and floor input the camera cannot see */
    if (setup_path) {
        setup = fopen(setup_path, "r");
        if (!setup) {
            fprintf(err, "feltwatch: run: %s: %s\n", setup_path,
                    strerror(errno));
            goto done;
        }
        if (apply_setup(&k, setup, setup_path) != 0)
            goto done;
    } else if (!sim) { /* the simulated dealer's script sets its table */
        FILE *mem = fmemopen((void *)default_setup, sizeof default_setup - 1,
                             "r");
        int rc = mem ? apply_setup(&k, mem, "default setup") : 1;
        if (mem)
            fclose(mem);
        if (rc != 0)
            goto done;
    }
    if (k.ui)
        fw_ui_render(k.ui);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    struct sigaction old_int, old_term;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    stop_flag = 0;

    long frames = 0, corrupt = 0, reconnects = 0, views_moved = 0;
    /* cards found, and of them read on an earlier frame and carried while
     * they lay still (vision.h fw_vision_last_frame) */
    long quads_found = 0, readings_kept = 0;
    double backoff = BACKOFF_MIN_S, t0 = now_s(), busy = 0;
    int stopped = 0;
    fw_card_obs obs[MAX_OBS];
    fw_event evs[MAX_EV];
    fw_chip_obs chip_obs[MAX_CHIP_OBS];
    fw_stack_obs stack_obs[MAX_STACK_OBS];
    fw_stack_question questions[FW_MAX_SEATS];
    const char *tap_lines[MAX_EV];
    const fw_calib_chip *chip_set = NULL;
    int nchip_set = fw_calib_chips(cal, &chip_set);
    fw_chips_params chip_prm = {.set = chip_set, .nset = nchip_set};
    fw_calib_camera cam;
    if (fw_calib_get_camera(cal, &cam)) {
        /* stacks' counts from above are narrower with the focal length */
        chip_prm.focal_px = (float)(0.5 * (cam.matrix[0] + cam.matrix[4]));
        chip_prm.principal[0] = (float)cam.matrix[2];
        chip_prm.principal[1] = (float)cam.matrix[5];
    }
    while (!stop_flag && (!max_frames || frames < max_frames)) {
        fw_image frame;
        double t = 0;
        int rc = fw_frames_read(src, &frame, &t, 1000);
        if (rc == FW_FRAMES_END)
            break;
        if (rc == FW_FRAMES_TIMEOUT)
            goto poll;
        if (rc == FW_EPARSE) {
            corrupt++;
            fprintf(err, "feltwatch: run: skipping a corrupt frame: %s\n",
                    fw_last_error());
            goto poll;
        }
        if (rc == FW_EIO) {
            if (!stopped) {
                fprintf(err, "feltwatch: run: %s; reconnecting\n",
                        fw_last_error());
                screen_notice(&k, FW_SEV_WARN, "camera_stopped",
                              "Camera stopped: reconnecting. Keep dealing; "
                              "check the camera if this stays.");
                stopped = 1;
            }
            if (k.ui)
                fw_ui_render(k.ui);
            sleep_s(backoff);
            backoff = fmin(backoff * 2, BACKOFF_MAX_S);
            if (fw_frames_reconnect(src) == FW_OK) {
                /* the camera may have been moved while it was away: no
                 * reading is carried across the gap */
                fw_vision_forget(vision);
                reconnects++;
                stopped = 0;
                backoff = BACKOFF_MIN_S;
                fprintf(err, "feltwatch: run: camera reconnected\n");
                screen_notice(&k, FW_SEV_INFO, "camera_back",
                              "Camera reconnected.");
            }
            goto poll;
        }
        if (rc != FW_OK) {
            fprintf(err, "feltwatch: run: reading a frame: %s\n",
                    fw_last_error());
            goto poll;
        }
        {
            double tb = now_s();
            k.frame_start = tb;
            int n = 0;
            if (fw_vision_detect_cards(vision, frame.bgr, frame.width,
                                       frame.height, frame.stride, obs,
                                       MAX_OBS, &n) != FW_OK) {
                fprintf(err, "feltwatch: run: detection: %s\n",
                        fw_last_error());
                n = 0;
            }
            fw_vision_frame_stats vst;
            fw_vision_last_frame(vision, &vst);
            quads_found += vst.quads;
            readings_kept += vst.readings_kept;
            if (vst.view_moved) {
                /* the camera was knocked or turned while it ran: the
                 * detector finds its view of the table anew on the next
                 * frame; the dealer should know, as the cards of this
                 * frame were read through the old one */
                views_moved++;
                fprintf(err, "feltwatch: run: the camera moved; its view "
                             "of the table found again\n");
                screen_notice(&k, FW_SEV_WARN, "camera_moved",
                              "Camera moved: its view of the table found "
                              "again. Check its mount if this repeats.");
            }
            note_sightings(&k, obs, n, t);
            int ne = 0;
            if (fw_tracker_frame(k.tracker, t, obs, n, evs, MAX_EV, &ne) ==
                FW_ERANGE)
                fprintf(err, "feltwatch: run: tracker: events dropped\n");
            for (int i = 0; i < ne; i++) {
                k.cur_lat = camera_latency(&k, sim, &evs[i], t);
                k.ncamera++;
                apply_generated(&k, &evs[i]);
                k.cur_lat = -1;
            }
            /* chips pushed into the bet zones */
            int nchips = 0, nstacks = 0;
            if (!chip_prm.focal_px) {
                chip_prm.principal[0] = 0.5f * (float)frame.width;
                chip_prm.principal[1] = 0.5f * (float)frame.height;
            }
            if (nchip_set > 0 &&
                fw_chips_detect(frame.bgr, frame.width, frame.height,
                                frame.stride, &chip_prm, chip_obs,
                                MAX_CHIP_OBS, &nchips, stack_obs,
                                MAX_STACK_OBS, &nstacks) != FW_OK) {
                fprintf(err, "feltwatch: run: chip detection: %s\n",
                        fw_last_error());
                nchips = nstacks = 0;
            }
            chip_prm.radius_px = learn_radius(&k, chip_obs, nchips);
            if (fw_chip_tracker_frame(k.chips, t, chip_obs, nchips, evs,
                                      MAX_EV, &ne) == FW_ERANGE)
                fprintf(err, "feltwatch: run: chip tracker: events "
                             "dropped\n");
            for (int i = 0; i < ne; i++) {
                k.cur_lat = camera_latency(&k, sim, &evs[i], t);
                k.ncamera++;
                apply_generated(&k, &evs[i]);
                k.cur_lat = -1;
            }
            /* stacks: their count is a range from above, so the dealer is
             * asked; the simulated dealer reads the stack it put down */
            int nq = fw_stack_asker_frame(&k.stacks, stack_obs, nstacks,
                                          questions, FW_MAX_SEATS);
            for (int i = 0; i < nq; i++) {
                const fw_stack_question *q = &questions[i];
                k.stacks_asked++;
                if (sim) {
                    stack_confirmed(&k, sim, q->seat,
                                    fw_kiosk_sim_stack_amount(sim, frames,
                                                              q->seat),
                                    t);
                } else if (k.ui) {
                    fw_ui_ask_confirm(k.ui, q->seat, q->lo, q->hi);
                } else {
                    fprintf(err,
                            "feltwatch: run: seat %d pushed a stack of "
                            "%d-%d chips (%lld-%lld) and there is no screen "
                            "to ask the dealer\n",
                            q->seat, q->count_lo, q->count_hi,
                            (long long)q->lo, (long long)q->hi);
                }
            }
            if (sim) { /* the simulated dealer's taps, as scripted */
                ne = fw_kiosk_sim_inputs(sim, frames, evs, tap_lines, MAX_EV);
                for (int i = 0; i < ne; i++)
                    apply_event(&k, &evs[i], tap_lines[i]);
            }
            busy += now_s() - tb;
            frames++;
            /* FELTWATCH_RUN_FRAME=PATH keeps the last frame seen (setup) */
            const char *keep = getenv("FELTWATCH_RUN_FRAME");
            if (keep && keep[0] && (max_frames ? frames == max_frames
                                               : frames % 30 == 0))
                fw_frames_write_image(keep, &frame);
        }
    poll:
        if (k.ui) {
            fw_event in;
            int kind;
            while ((kind = fw_ui_poll(k.ui, &in)) != FW_UI_NONE) {
                if (kind == FW_UI_QUIT) {
                    stop_flag = 1;
                    break;
                }
                if (kind == FW_UI_EVENT) {
                    char line[512];
                    if (fw_ui_input_json(kind, &in, line, sizeof line) ==
                        FW_OK) {
                        size_t l = strlen(line);
                        if (l && line[l - 1] == '\n')
                            line[l - 1] = '\0';
                        apply_event(&k, &in, line);
                    }
                } else if (kind == FW_UI_CONFIRM) {
                    stack_confirmed(&k, sim, in.seat,
                                    in.has_amount ? in.amount : 0, now_s());
                } else {
                    fprintf(err, "feltwatch: run: dealer input %d is not "
                                 "handled yet\n",
                            kind);
                }
            }
            if (fw_ui_render(k.ui) != FW_OK)
                fprintf(err, "feltwatch: run: screen: %s\n", fw_last_error());
        }
    }
    double wall = now_s() - t0;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);

    fprintf(out, "feltwatch run: %s: %ld frames in %.2f s: %.1f fps "
                 "(%.1f ms per frame detecting and tracking)\n",
            fw_frames_name(src), frames, wall, wall > 0 ? frames / wall : 0.0,
            frames ? 1000.0 * busy / frames : 0.0);
    if (corrupt || reconnects || views_moved)
        fprintf(out,
                "  %ld corrupt frames skipped, %ld reconnects, the camera "
                "moved %ld times\n",
                corrupt, reconnects, views_moved);
    if (quads_found)
        fprintf(out,
                "  cards: %ld found in the frames, %ld (%.0f%%) of them "
                "carried their reading from the frame before, lying "
                "still\n",
                quads_found, readings_kept,
                100.0 * (double)readings_kept / (double)quads_found);
    fprintf(out, "  events: %ld (%ld from the camera), records: %ld, "
                 "alerts: %ld stop, %ld warn, %ld info\n",
            k.nevents, k.ncamera, k.nrecords, k.alerts[FW_SEV_STOP],
            k.alerts[FW_SEV_WARN], k.alerts[FW_SEV_INFO]);
    if (k.nlat)
        fprintf(out, "  camera latency, put down to event (frame time): "
                     "%ld events, mean %.0f ms, min %.0f ms, max %.0f ms\n",
                k.nlat, 1000.0 * k.lat_sum / k.nlat, 1000.0 * k.lat_min,
                1000.0 * k.lat_max);
    if (k.nalat)
        fprintf(out, "  card landing to its alert on screen: %ld alerts, "
                     "mean %.0f ms, max %.0f ms\n",
                k.nalat, 1000.0 * k.alat_sum / k.nalat, 1000.0 * k.alat_max);
    if (k.stacks_asked)
        fprintf(out, "  stacks pushed: %ld asked of the dealer, %ld "
                     "confirmed\n",
                k.stacks_asked, k.stacks_confirmed);
    fprintf(out, "  table: hand %d, street %s", k.hand,
            fw_street_name((fw_street)k.street));
    if (k.store)
        fprintf(out, "; %lld hands recorded in %s/feltwatch.db",
                (long long)fw_store_written(k.store), dir);
    fputc('\n', out);
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        fprintf(out, "  peak memory: %.1f MB\n", ru.ru_maxrss / 1024.0);
    status = 0;

done:
    if (setup)
        fclose(setup);
    fw_frames_close(src);
    fw_kiosk_sim_free(sim);
    fw_ui_free(k.ui);
    if (k.store && fw_store_close(k.store) != FW_OK) {
        fprintf(err, "feltwatch: run: %s\n", fw_last_error());
        status = 1;
    }
    if (k.events && fclose(k.events) != 0)
        status = 1;
    if (k.records && fclose(k.records) != 0)
        status = 1;
    fw_engine_free(k.engine);
    fw_protocol_writer_free(k.writer);
    fw_tracker_free(k.tracker);
    fw_chip_tracker_free(k.chips);
    fw_vision_free(vision);
    fw_calib_free(cal);
    fflush(out);
    return status;
}
