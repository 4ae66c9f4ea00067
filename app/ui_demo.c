/*
 * ui_demo.c - the dealer screen over a recorded session of table events.
 *
 * The replay reads its events through a stdio stream of our own
 * (fopencookie): each time the engine asks for the next line, the records
 * of the line before are all in, so that is when the screen is drawn and
 * the pace is kept; the line handed out is shown to the screen as an event
 * first (names, blinds, times), then the engine applies it.
 */
#define _GNU_SOURCE /* fopencookie */
#include "ui_demo.h"

#include "protocol.h"
#include "replay.h"

#include <SDL.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct demo_src {
    FILE *in;
    fw_ui *ui;
    FILE *out, *err;
    int delay_ms;
    long lineno, events;
    int quit, failed;
    char *line;
    size_t cap, len, off;
} demo_src;

static void on_record(void *p, const fw_record *rec, const char *line,
                      size_t len)
{
    demo_src *d = p;
    fw_ui_on_record(d->ui, rec);
    (void)line;
    (void)len;
}

/* Write the dealer's taps out; they are the screen's answer. */
static void drain_input(demo_src *d)
{
    fw_event ev;
    int kind;
    char buf[256];
    while ((kind = fw_ui_poll(d->ui, &ev)) != FW_UI_NONE) {
        if (kind == FW_UI_QUIT) {
            d->quit = 1;
            continue;
        }
        if (d->out && fw_ui_input_json(kind, &ev, buf, sizeof buf) == FW_OK)
            fprintf(d->out, "dealer: %s", buf);
    }
}

static void render(demo_src *d)
{
    if (fw_ui_render(d->ui) != FW_OK && !d->failed) {
        fprintf(d->err, "feltwatch: screen: %s\n", fw_last_error());
        d->failed = 1;
    }
}

/* Show what the last line did, then wait delay_ms, staying responsive. */
static void pace(demo_src *d)
{
    drain_input(d);
    render(d);
    uint32_t until = SDL_GetTicks() + (uint32_t)d->delay_ms;
    while (d->delay_ms > 0 && !d->quit &&
           (int32_t)(until - SDL_GetTicks()) > 0) {
        drain_input(d);
        render(d);
        SDL_Delay(10);
    }
}

static ssize_t src_read(void *p, char *buf, size_t size)
{
    demo_src *d = p;
    if (d->off == d->len) {
        if (d->lineno > 0)
            pace(d);
        if (d->quit || d->failed)
            return 0;
        ssize_t n = getline(&d->line, &d->cap, d->in);
        if (n <= 0)
            return 0;
        d->lineno++;
        d->len = (size_t)n;
        d->off = 0;
        fw_event ev;
        if (fw_protocol_parse_line(d->line, (size_t)n, d->lineno, &ev, NULL,
                                   0) == FW_OK) {
            fw_ui_on_event(d->ui, &ev);
            d->events++;
        }
    }
    size_t k = d->len - d->off;
    if (k > size)
        k = size;
    memcpy(buf, d->line + d->off, k);
    d->off += k;
    return (ssize_t)k;
}

int fw_ui_replay(fw_ui *ui, FILE *in, const char *name, int delay_ms,
                 FILE *out, FILE *err, int *quit)
{
    demo_src d;
    memset(&d, 0, sizeof d);
    d.in = in;
    d.ui = ui;
    d.out = out;
    d.err = err;
    d.delay_ms = delay_ms > 0 ? delay_ms : 0;
    cookie_io_functions_t io = {src_read, NULL, NULL, NULL};
    FILE *src = fopencookie(&d, "r", io);
    if (!src) {
        fprintf(err, "feltwatch: screen: %s\n", strerror(errno));
        return 1;
    }
    int status = fw_replay_stream(src, name, NULL, err, on_record, &d);
    fclose(src);
    free(d.line);
    /* the last line's records */
    drain_input(&d);
    render(&d);
    if (quit)
        *quit = d.quit;
    return status || d.failed;
}

static int usage(FILE *err)
{
    fprintf(err,
            "usage: feltwatch screen [--headless] [--out DIR] [--kiosk] "
            "[--size WxH]\n"
            "                        [--delay MS] [--font FILE] "
            "[--screenshot FILE.png] [--exit]\n"
            "                        FILE.jsonl|-\n");
    return 2;
}

/* "1024x600" -> 1024, 600; 0 on a malformed size. */
static int parse_size(const char *s, int *w, int *h)
{
    char *end;
    long a = strtol(s, &end, 10);
    if (end == s || (*end != 'x' && *end != 'X'))
        return 0;
    const char *p = end + 1;
    long b = strtol(p, &end, 10);
    if (end == p || *end || a < 320 || b < 240 || a > 8192 || b > 8192)
        return 0;
    *w = (int)a;
    *h = (int)b;
    return 1;
}

int fw_ui_demo_main(int argc, char **argv, FILE *out, FILE *err)
{
    fw_ui_options opt;
    memset(&opt, 0, sizeof opt);
    const char *path = NULL, *shot = NULL;
    int delay = -1, exit_at_end = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (strcmp(a, "--headless") == 0) {
            opt.mode = FW_UI_HEADLESS;
        } else if (strcmp(a, "--kiosk") == 0) {
            opt.mode = FW_UI_KIOSK;
        } else if (strcmp(a, "--exit") == 0) {
            exit_at_end = 1;
        } else if (strcmp(a, "--out") == 0 && more) {
            opt.out_dir = argv[++i];
        } else if (strcmp(a, "--font") == 0 && more) {
            opt.font_path = argv[++i];
        } else if (strcmp(a, "--screenshot") == 0 && more) {
            shot = argv[++i];
        } else if (strcmp(a, "--size") == 0 && more) {
            if (!parse_size(argv[++i], &opt.width, &opt.height)) {
                fprintf(err, "feltwatch: screen: --size wants WxH, e.g. "
                             "800x480\n");
                return 2;
            }
        } else if (strcmp(a, "--delay") == 0 && more) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 0 || v > 60000) {
                fprintf(err, "feltwatch: screen: --delay wants 0..60000 "
                             "(milliseconds)\n");
                return 2;
            }
            delay = (int)v;
        } else if (a[0] == '-' && a[1] && !path) {
            fprintf(err, "feltwatch: screen: unknown option %s\n", a);
            return usage(err);
        } else if (!path) {
            path = a;
        } else {
            return usage(err);
        }
    }
    if (!path)
        return usage(err);
    if (opt.out_dir && opt.mode != FW_UI_HEADLESS)
        opt.mode = FW_UI_HEADLESS; /* PNG frames are the headless output */
    if (opt.out_dir && mkdir(opt.out_dir, 0755) != 0 && errno != EEXIST) {
        fprintf(err, "feltwatch: screen: %s: %s\n", opt.out_dir,
                strerror(errno));
        return 1;
    }
    if (delay < 0)
        delay = opt.mode == FW_UI_HEADLESS ? 0 : 400;
    FILE *in = stdin;
    if (strcmp(path, "-") != 0) {
        in = fopen(path, "r");
        if (!in) {
            fprintf(err, "feltwatch: screen: %s: %s\n", path,
                    strerror(errno));
            return 1;
        }
    }
    fw_ui *ui = NULL;
    int rc = fw_ui_new(&opt, &ui);
    if (rc != FW_OK) {
        fprintf(err, "feltwatch: screen: %s\n", fw_last_error());
        if (in != stdin)
            fclose(in);
        return 1;
    }
    int quit = 0;
    int status = fw_ui_replay(ui, in, path, delay, out, err, &quit);
    if (in != stdin)
        fclose(in);
    if (shot && fw_ui_save_png(ui, shot) != FW_OK) {
        fprintf(err, "feltwatch: screen: %s\n", fw_last_error());
        status = 1;
    }
    if (opt.mode != FW_UI_HEADLESS && !exit_at_end && !quit) {
        /* a window stays up until the dealer closes it */
        fw_event ev;
        while (!quit) {
            int kind;
            while ((kind = fw_ui_poll(ui, &ev)) != FW_UI_NONE) {
                char buf[256];
                if (kind == FW_UI_QUIT)
                    quit = 1;
                else if (fw_ui_input_json(kind, &ev, buf, sizeof buf) ==
                         FW_OK)
                    fprintf(out, "dealer: %s", buf);
            }
            fw_ui_render(ui);
            SDL_Delay(15);
        }
    }
    if (opt.mode == FW_UI_HEADLESS && opt.out_dir)
        fprintf(out, "feltwatch screen: %d screens written to %s\n",
                fw_ui_png_count(ui), opt.out_dir);
    fw_ui_free(ui);
    return status;
}
