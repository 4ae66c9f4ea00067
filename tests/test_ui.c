/*
 * test_ui.c - the dealer screen (app/ui.h), headless: known sessions are
 * played through the rules engine into the screen at 800x480, 1024x600 and
 * 1920x1080, the PNGs it writes are read back, and the pixels are checked
 * (a stop banner is red, the seat to act is gold, nothing new is written
 * for an unchanged screen); taps are synthesised with SDL_PushEvent and
 * must come back as the right input events.
 *
 * The PNGs go to a fresh folder under $TMPDIR (or /tmp), removed at the end
 * unless FW_UI_KEEP is set; FW_UI_OUT=DIR writes them to DIR instead (to
 * look at them). window_screenshot opens a real window and runs only where
 * there is a display (xvfb-run); elsewhere it skips.
 */
#include "harness.h"

#include "protocol.h"
#include "ui.h"
#include "ui_demo.h"

#include <SDL.h>
#include <dirent.h>
#include <png.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Helpers                                                              */
/* ------------------------------------------------------------------ */

static char tmp_root[512];

/* A fresh folder for one case's PNGs. */
static const char *case_dir(const char *name)
{
    static char dir[600];
    const char *keep = getenv("FW_UI_OUT");
    if (!tmp_root[0]) {
        if (keep && keep[0]) {
            snprintf(tmp_root, sizeof tmp_root, "%s", keep);
            mkdir(tmp_root, 0755);
        } else {
            const char *t = getenv("TMPDIR");
            snprintf(tmp_root, sizeof tmp_root, "%s/fw_ui_XXXXXX",
                     t && t[0] ? t : "/tmp");
            if (!mkdtemp(tmp_root))
                return NULL;
        }
    }
    snprintf(dir, sizeof dir, "%s/%s", tmp_root, name);
    mkdir(dir, 0755);
    /* a case run again starts empty */
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char p[900];
        while ((e = readdir(d)) != NULL) {
            if (strncmp(e->d_name, "screen-", 7) == 0) {
                snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
                unlink(p);
            }
        }
        closedir(d);
    }
    return dir;
}

static void remove_tree(const char *root)
{
    DIR *d = opendir(root);
    if (!d)
        return;
    struct dirent *e;
    char p[1200];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(p, sizeof p, "%s/%s", root, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            remove_tree(p);
        else
            unlink(p);
    }
    closedir(d);
    rmdir(root);
}

/* An RGB image read back from a PNG. */
typedef struct image {
    int w, h;
    unsigned char *px;
} image;

static int load_png(const char *path, image *img)
{
    png_image pi;
    memset(&pi, 0, sizeof pi);
    pi.version = PNG_IMAGE_VERSION;
    img->px = NULL;
    if (!png_image_begin_read_from_file(&pi, path))
        return 0;
    pi.format = PNG_FORMAT_RGB;
    img->w = (int)pi.width;
    img->h = (int)pi.height;
    img->px = malloc(PNG_IMAGE_SIZE(pi));
    if (!img->px || !png_image_finish_read(&pi, NULL, img->px, 0, NULL)) {
        free(img->px);
        img->px = NULL;
        png_image_free(&pi);
        return 0;
    }
    return 1;
}

static int near_rgb(const unsigned char *p, uint32_t rgb, int tol)
{
    int r = (int)(rgb >> 16) & 255, g = (int)(rgb >> 8) & 255,
        b = (int)rgb & 255;
    return abs(p[0] - r) <= tol && abs(p[1] - g) <= tol &&
           abs(p[2] - b) <= tol;
}

/* Per mille of the pixels in the rectangle within tol of rgb. */
static int share(const image *img, int x, int y, int w, int h, uint32_t rgb,
                 int tol)
{
    long hit = 0, all = 0;
    for (int j = y; j < y + h && j < img->h; j++)
        for (int i = x; i < x + w && i < img->w; i++) {
            if (i < 0 || j < 0)
                continue;
            all++;
            hit += near_rgb(img->px + ((size_t)j * img->w + i) * 3, rgb, tol);
        }
    return all ? (int)(hit * 1000 / all) : 0;
}

/* The screen, with an engine feeding it: events go to both. */
typedef struct rig {
    fw_ui *ui;
    fw_engine *engine;
    int nrec;
} rig;

static void to_screen(void *p, const fw_record *rec)
{
    rig *r = p;
    fw_ui_on_record(r->ui, rec);
    r->nrec++;
}

static int rig_open(rig *r, fw_ui_mode mode, int w, int h, const char *dir)
{
    memset(r, 0, sizeof *r);
    fw_ui_options o;
    memset(&o, 0, sizeof o);
    o.mode = mode;
    o.width = w;
    o.height = h;
    o.out_dir = dir;
    if (fw_ui_new(&o, &r->ui) != FW_OK) {
        fprintf(stderr, "  fw_ui_new: %s\n", fw_last_error());
        return 0;
    }
    if (fw_engine_new(to_screen, r, &r->engine) != FW_OK)
        return 0;
    return 1;
}

static void rig_close(rig *r)
{
    fw_engine_free(r->engine);
    fw_ui_free(r->ui);
    memset(r, 0, sizeof *r);
}

/* Apply protocol lines (one per string, NULL-terminated list). */
static int feed(rig *r, const char *const *lines)
{
    for (int i = 0; lines[i]; i++) {
        fw_event ev;
        char err[FW_PROTOCOL_ERR_MAX];
        if (fw_protocol_parse_line(lines[i], strlen(lines[i]), i + 1, &ev,
                                   err, sizeof err) != FW_OK) {
            fprintf(stderr, "  bad test line: %s\n", err);
            return 0;
        }
        fw_ui_on_event(r->ui, &ev);
        const char *why = NULL;
        if (fw_engine_apply(r->engine, &ev, &why) != FW_OK) {
            fprintf(stderr, "  engine refused %s: %s\n", lines[i],
                    why ? why : "");
            return 0;
        }
    }
    return 1;
}

static int feed1(rig *r, const char *line)
{
    const char *l[2] = {line, NULL};
    return feed(r, l);
}

/* Six players, blinds 100/200, the button on seat 1, cards dealt: seat 4
 * is first to act preflop. */
static const char *const table6[] = {
    "{\"type\":\"table\",\"seats\":6,\"game\":\"NLHE\",\"rules\":\"tda\"}",
    "{\"type\":\"level\",\"sb\":100,\"bb\":200}",
    "{\"type\":\"seat\",\"seat\":1,\"player\":\"Ana\",\"stack\":20000}",
    "{\"type\":\"seat\",\"seat\":2,\"player\":\"Ben\",\"stack\":20000}",
    "{\"type\":\"seat\",\"seat\":3,\"player\":\"Cleo\",\"stack\":20000}",
    "{\"type\":\"seat\",\"seat\":4,\"player\":\"Dev\",\"stack\":20000}",
    "{\"type\":\"seat\",\"seat\":5,\"player\":\"Eli\",\"stack\":20000}",
    "{\"type\":\"seat\",\"seat\":6,\"player\":\"Fay\",\"stack\":3000}",
    "{\"type\":\"button\",\"seat\":1}",
    NULL};

static int deal6(rig *r)
{
    if (!feed1(r, "{\"type\":\"hand_start\"}"))
        return 0;
    for (int round = 0; round < 2; round++)
        for (int k = 0; k < 6; k++) {
            char line[96];
            snprintf(line, sizeof line,
                     "{\"type\":\"card\",\"to\":\"seat\",\"seat\":%d}",
                     (k + 1) % 6 + 1);
            if (!feed1(r, line))
                return 0;
        }
    return 1;
}

static void click(int x, int y)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEBUTTONDOWN;
    e.button.button = SDL_BUTTON_LEFT;
    e.button.state = SDL_PRESSED;
    e.button.x = x;
    e.button.y = y;
    SDL_PushEvent(&e);
    e.type = SDL_MOUSEBUTTONUP;
    e.button.state = SDL_RELEASED;
    SDL_PushEvent(&e);
}

/* Tap the middle of a named target; 0 when it is not on screen. */
static int tap(fw_ui *ui, const char *name)
{
    fw_ui_rect r;
    fw_ui_render(ui); /* the targets are those of the screen as shown */
    if (fw_ui_target(ui, name, &r) != FW_OK) {
        fprintf(stderr, "  no target %s on screen\n", name);
        return 0;
    }
    click(r.x + r.w / 2, r.y + r.h / 2);
    return 1;
}

/* Poll until an input other than NONE comes, drawing between polls. */
static int next_input(fw_ui *ui, fw_event *ev)
{
    for (int i = 0; i < 4; i++) {
        int k = fw_ui_poll(ui, ev);
        if (k != FW_UI_NONE)
            return k;
        fw_ui_render(ui);
    }
    return FW_UI_NONE;
}

static const int sizes[3][2] = {{800, 480}, {1024, 600}, {1920, 1080}};

/* ------------------------------------------------------------------ */
/* Cases                                                                */
/* ------------------------------------------------------------------ */

/* Each size writes PNGs of its own size. */
TEST(png_sizes)
{
    for (int s = 0; s < 3; s++) {
        char name[32];
        snprintf(name, sizeof name, "sizes_%dx%d", sizes[s][0], sizes[s][1]);
        const char *dir = case_dir(name);
        ASSERT_TRUE(dir != NULL);
        rig r;
        ASSERT_TRUE(rig_open(&r, FW_UI_HEADLESS, sizes[s][0], sizes[s][1],
                             dir));
        ASSERT_TRUE(feed(&r, table6));
        ASSERT_TRUE(deal6(&r));
        ASSERT_INT_EQ(fw_ui_render(r.ui), FW_OK);
        ASSERT_INT_EQ(fw_ui_png_count(r.ui), 1);
        image img;
        ASSERT_TRUE(load_png(fw_ui_last_png(r.ui), &img));
        ASSERT_INT_EQ(img.w, sizes[s][0]);
        ASSERT_INT_EQ(img.h, sizes[s][1]);
        /* the felt is there: a good share of the table's middle is green */
        int felt = share(&img, img.w / 8, img.h / 3, img.w / 3, img.h / 4,
                         FW_UI_RGB_FELT, 60);
        free(img.px);
        rig_close(&r);
        ASSERT_TRUE(felt > 300);
    }
}

/* The seat to act is drawn in the to-act colour, the others are not. */
TEST(to_act_highlight)
{
    for (int s = 0; s < 3; s++) {
        char name[32];
        snprintf(name, sizeof name, "to_act_%dx%d", sizes[s][0],
                 sizes[s][1]);
        rig r;
        ASSERT_TRUE(rig_open(&r, FW_UI_HEADLESS, sizes[s][0], sizes[s][1],
                             case_dir(name)));
        ASSERT_TRUE(feed(&r, table6));
        ASSERT_TRUE(deal6(&r));
        ASSERT_INT_EQ(fw_ui_render(r.ui), FW_OK);
        image img;
        ASSERT_TRUE(load_png(fw_ui_last_png(r.ui), &img));
        fw_ui_rect b4, b2;
        ASSERT_INT_EQ(fw_ui_target(r.ui, "seat:4", &b4), FW_OK);
        ASSERT_INT_EQ(fw_ui_target(r.ui, "seat:2", &b2), FW_OK);
        int gold4 = share(&img, b4.x, b4.y, b4.w, b4.h, FW_UI_RGB_TO_ACT, 24);
        int gold2 = share(&img, b2.x, b2.y, b2.w, b2.h, FW_UI_RGB_TO_ACT, 24);
        free(img.px);
        /* seat 4 calls: now seat 5 is gold and seat 4 is not */
        ASSERT_TRUE(feed1(&r, "{\"type\":\"push\",\"seat\":4,\"chips\":[200]}"));
        ASSERT_INT_EQ(fw_ui_render(r.ui), FW_OK);
        ASSERT_TRUE(load_png(fw_ui_last_png(r.ui), &img));
        fw_ui_rect b5;
        ASSERT_INT_EQ(fw_ui_target(r.ui, "seat:5", &b5), FW_OK);
        int gold5 = share(&img, b5.x, b5.y, b5.w, b5.h, FW_UI_RGB_TO_ACT, 24);
        int gold4b = share(&img, b4.x, b4.y, b4.w, b4.h, FW_UI_RGB_TO_ACT, 24);
        free(img.px);
        rig_close(&r);
        ASSERT_TRUE(gold4 > 500);
        ASSERT_TRUE(gold2 < 50);
        ASSERT_TRUE(gold5 > 500);
        ASSERT_TRUE(gold4b < 50);
    }
}

static const char *const two_boxed[] = {
    "{\"type\":\"hand_start\"}",
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":2}",
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":3}",
    "{\"type\":\"card\",\"to\":\"deck\",\"face\":\"up\",\"card\":\"Qs\"}",
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":4}",
    "{\"type\":\"card\",\"to\":\"deck\",\"face\":\"up\",\"card\":\"4d\"}",
    NULL};

/* A stop alert turns the top of the screen red; floor buttons appear and
 * a tap on one is a `floor` event; the banner then goes. */
TEST(stop_banner)
{
    for (int s = 0; s < 3; s++) {
        char name[32];
        snprintf(name, sizeof name, "stop_%dx%d", sizes[s][0], sizes[s][1]);
        rig r;
        ASSERT_TRUE(rig_open(&r, FW_UI_HEADLESS, sizes[s][0], sizes[s][1],
                             case_dir(name)));
        ASSERT_TRUE(feed(&r, table6));
        ASSERT_INT_EQ(fw_ui_render(r.ui), FW_OK);
        image img;
        ASSERT_TRUE(load_png(fw_ui_last_png(r.ui), &img));
        int top_h = img.h / 10;
        int red_before = share(&img, 0, 0, img.w, top_h, FW_UI_RGB_STOP, 30);
        free(img.px);
        ASSERT_TRUE(feed(&r, two_boxed));
        ASSERT_INT_EQ(fw_ui_render(r.ui), FW_OK);
        ASSERT_TRUE(load_png(fw_ui_last_png(r.ui), &img));
        int red_after = share(&img, 0, 0, img.w, top_h, FW_UI_RGB_STOP, 30);
        free(img.px);
        ASSERT_TRUE(red_before < 50);
        ASSERT_TRUE(red_after > 600);
        fw_ui_rect fr;
        ASSERT_INT_EQ(fw_ui_target(r.ui, "floor:continue", &fr), FW_OK);
        ASSERT_TRUE(tap(r.ui, "floor:misdeal"));
        fw_event ev;
        ASSERT_INT_EQ(next_input(r.ui, &ev), FW_UI_EVENT);
        ASSERT_INT_EQ(ev.type, FW_EV_FLOOR);
        ASSERT_INT_EQ(ev.decision, FW_DEC_MISDEAL);
        /* the engine takes the decision; the banner is gone */
        const char *why = NULL;
        ASSERT_INT_EQ(fw_engine_apply(r.engine, &ev, &why), FW_OK);
        ASSERT_INT_EQ(fw_ui_render(r.ui), FW_OK);
        ASSERT_TRUE(load_png(fw_ui_last_png(r.ui), &img));
        int red_done = share(&img, 0, 0, img.w, top_h, FW_UI_RGB_STOP, 30);
        free(img.px);
        rig_close(&r);
        ASSERT_TRUE(red_done < 50);
    }
}

/* A warning is an amber banner with an OK that puts it away. */
TEST(warn_banner)
{
    rig r;
    ASSERT_TRUE(rig_open(&r, FW_UI_HEADLESS, 1024, 600, case_dir("warn")));
    ASSERT_TRUE(feed(&r, table6));
    ASSERT_TRUE(deal6(&r));
    /* seat 5 acts before seat 4: out of turn, a warning (Rule 53-A) */
    ASSERT_TRUE(feed1(&r, "{\"type\":\"push\",\"seat\":5,\"chips\":[200]}"));
    ASSERT_INT_EQ(fw_ui_render(r.ui), FW_OK);
    image img;
    ASSERT_TRUE(load_png(fw_ui_last_png(r.ui), &img));
    int amber = share(&img, 0, 0, img.w, img.h / 10, FW_UI_RGB_WARN, 30);
    int red = share(&img, 0, 0, img.w, img.h / 10, FW_UI_RGB_STOP, 30);
    free(img.px);
    ASSERT_TRUE(amber > 600);
    ASSERT_TRUE(red < 20);
    ASSERT_TRUE(tap(r.ui, "ok"));
    fw_event ev;
    ASSERT_INT_EQ(fw_ui_poll(r.ui, &ev), FW_UI_NONE);
    ASSERT_INT_EQ(fw_ui_render(r.ui), FW_OK);
    ASSERT_TRUE(load_png(fw_ui_last_png(r.ui), &img));
    amber = share(&img, 0, 0, img.w, img.h / 10, FW_UI_RGB_WARN, 30);
    free(img.px);
    rig_close(&r);
    ASSERT_TRUE(amber < 100);
}

/* Headless writes a PNG only when the pixels change. */
TEST(png_only_on_change)
{
    rig r;
    ASSERT_TRUE(rig_open(&r, FW_UI_HEADLESS, 800, 480, case_dir("change")));
    ASSERT_TRUE(feed(&r, table6));
    ASSERT_TRUE(deal6(&r));
    ASSERT_INT_EQ(fw_ui_render(r.ui), FW_OK);
    ASSERT_INT_EQ(fw_ui_png_count(r.ui), 1);
    ASSERT_INT_EQ(fw_ui_render(r.ui), FW_OK);
    ASSERT_INT_EQ(fw_ui_png_count(r.ui), 1);
    /* the same state again: drawn, identical, not written */
    fw_record rec;
    memset(&rec, 0, sizeof rec);
    rec.type = FW_REC_STATE;
    fw_engine_state(r.engine, &rec.u.state);
    fw_ui_on_record(r.ui, &rec);
    ASSERT_INT_EQ(fw_ui_render(r.ui), FW_OK);
    ASSERT_INT_EQ(fw_ui_png_count(r.ui), 1);
    char first[700];
    snprintf(first, sizeof first, "%s", fw_ui_last_png(r.ui));
    /* a change: a new PNG, and a different picture */
    ASSERT_TRUE(feed1(&r, "{\"type\":\"push\",\"seat\":4,\"chips\":[500]}"));
    ASSERT_INT_EQ(fw_ui_render(r.ui), FW_OK);
    ASSERT_INT_EQ(fw_ui_png_count(r.ui), 2);
    image a, b;
    ASSERT_TRUE(load_png(first, &a));
    ASSERT_TRUE(load_png(fw_ui_last_png(r.ui), &b));
    int differ = memcmp(a.px, b.px, (size_t)a.w * a.h * 3) != 0;
    free(a.px);
    free(b.px);
    rig_close(&r);
    ASSERT_TRUE(differ);
}

/* A click on FOLD speaks for the seat to act; so do CHECK and CALL, and a
 * finger works like a mouse. */
TEST(fold_click)
{
    for (int s = 0; s < 3; s++) {
        rig r;
        ASSERT_TRUE(rig_open(&r, FW_UI_HEADLESS, sizes[s][0], sizes[s][1],
                             NULL));
        ASSERT_TRUE(feed(&r, table6));
        ASSERT_TRUE(deal6(&r));
        ASSERT_TRUE(feed1(&r, "{\"type\":\"push\",\"seat\":4,\"chips\":[200]}"));
        ASSERT_INT_EQ(fw_ui_render(r.ui), FW_OK);
        ASSERT_TRUE(tap(r.ui, "fold"));
        fw_event ev;
        ASSERT_INT_EQ(next_input(r.ui, &ev), FW_UI_EVENT);
        ASSERT_INT_EQ(ev.type, FW_EV_SAY);
        ASSERT_INT_EQ(ev.word, FW_WORD_FOLD);
        ASSERT_INT_EQ(ev.seat, 5);
        ASSERT_INT_EQ(ev.has_amount, 0);
        /* facing a bet, CHECK takes no tap */
        fw_ui_rect rc;
        ASSERT_INT_EQ(fw_ui_target(r.ui, "check", &rc), FW_ENOENT);
        /* a finger on CALL */
        fw_ui_rect cr;
        ASSERT_INT_EQ(fw_ui_target(r.ui, "call", &cr), FW_OK);
        SDL_Event e;
        memset(&e, 0, sizeof e);
        e.type = SDL_FINGERDOWN;
        e.tfinger.x = (float)(cr.x + cr.w / 2) / (float)sizes[s][0];
        e.tfinger.y = (float)(cr.y + cr.h / 2) / (float)sizes[s][1];
        SDL_PushEvent(&e);
        e.type = SDL_FINGERUP;
        SDL_PushEvent(&e);
        ASSERT_INT_EQ(next_input(r.ui, &ev), FW_UI_EVENT);
        ASSERT_INT_EQ(ev.type, FW_EV_SAY);
        ASSERT_INT_EQ(ev.word, FW_WORD_CALL);
        ASSERT_INT_EQ(ev.seat, 5);
        /* a press that slides off the button before release does nothing */
        fw_ui_rect fr;
        ASSERT_INT_EQ(fw_ui_target(r.ui, "fold", &fr), FW_OK);
        memset(&e, 0, sizeof e);
        e.type = SDL_MOUSEBUTTONDOWN;
        e.button.button = SDL_BUTTON_LEFT;
        e.button.x = fr.x + fr.w / 2;
        e.button.y = fr.y + fr.h / 2;
        SDL_PushEvent(&e);
        e.type = SDL_MOUSEBUTTONUP;
        e.button.x = 2;
        e.button.y = sizes[s][1] / 2;
        SDL_PushEvent(&e);
        ASSERT_INT_EQ(next_input(r.ui, &ev), FW_UI_NONE);
        rig_close(&r);
    }
}

/* RAISE opens the keypad; the amount typed is the raise's total. */
TEST(raise_keypad)
{
    rig r;
    ASSERT_TRUE(rig_open(&r, FW_UI_HEADLESS, 800, 480, case_dir("keypad")));
    ASSERT_TRUE(feed(&r, table6));
    ASSERT_TRUE(deal6(&r));
    ASSERT_INT_EQ(fw_ui_render(r.ui), FW_OK);
    ASSERT_TRUE(tap(r.ui, "raise"));
    fw_event ev;
    ASSERT_INT_EQ(next_input(r.ui, &ev), FW_UI_NONE);
    /* the keypad is up: the table's buttons take no taps */
    fw_ui_rect x;
    ASSERT_INT_EQ(fw_ui_target(r.ui, "fold", &x), FW_ENOENT);
    const char *keys[] = {"key:1", "key:1", "key:00"};
    for (int i = 0; i < 3; i++) {
        ASSERT_TRUE(tap(r.ui, keys[i]));
        ASSERT_INT_EQ(next_input(r.ui, &ev), FW_UI_NONE);
    }
    ASSERT_TRUE(tap(r.ui, "key:enter"));
    ASSERT_INT_EQ(next_input(r.ui, &ev), FW_UI_EVENT);
    ASSERT_INT_EQ(ev.type, FW_EV_SAY);
    ASSERT_INT_EQ(ev.word, FW_WORD_RAISE);
    ASSERT_INT_EQ(ev.seat, 4);
    ASSERT_INT_EQ(ev.has_amount, 1);
    ASSERT_INT_EQ(ev.amount, 1100);
    /* MIN fills in the minimum raise */
    ASSERT_TRUE(tap(r.ui, "raise"));
    ASSERT_INT_EQ(next_input(r.ui, &ev), FW_UI_NONE);
    ASSERT_TRUE(tap(r.ui, "key:min"));
    ASSERT_INT_EQ(next_input(r.ui, &ev), FW_UI_NONE);
    ASSERT_TRUE(tap(r.ui, "key:enter"));
    ASSERT_INT_EQ(next_input(r.ui, &ev), FW_UI_EVENT);
    ASSERT_INT_EQ(ev.amount, 400);
    /* undo takes back the last tap */
    ASSERT_INT_EQ(fw_ui_render(r.ui), FW_OK);
    ASSERT_TRUE(tap(r.ui, "undo"));
    ASSERT_INT_EQ(next_input(r.ui, &ev), FW_UI_UNDO);
    ASSERT_INT_EQ(ev.seat, 4);
    char json[128];
    ASSERT_INT_EQ(fw_ui_input_json(FW_UI_UNDO, &ev, json, sizeof json),
                  FW_OK);
    ASSERT_STR_EQ(json, "{\"type\":\"undo\"}\n");
    /* nothing left to undo */
    ASSERT_INT_EQ(fw_ui_render(r.ui), FW_OK);
    fw_ui_rect u;
    ASSERT_INT_EQ(fw_ui_target(r.ui, "undo", &u), FW_ENOENT);
    rig_close(&r);
}

/* The vision is unsure of a chip count: the dealer answers. */
TEST(ask_confirm)
{
    rig r;
    ASSERT_TRUE(rig_open(&r, FW_UI_HEADLESS, 1024, 600, case_dir("confirm")));
    ASSERT_TRUE(feed(&r, table6));
    ASSERT_TRUE(deal6(&r));
    fw_ui_ask_confirm(r.ui, 4, 1500, 1000);
    ASSERT_INT_EQ(fw_ui_render(r.ui), FW_OK);
    ASSERT_TRUE(tap(r.ui, "confirm:hi"));
    fw_event ev;
    ASSERT_INT_EQ(next_input(r.ui, &ev), FW_UI_CONFIRM);
    ASSERT_INT_EQ(ev.seat, 4);
    ASSERT_INT_EQ(ev.has_amount, 1);
    ASSERT_INT_EQ(ev.amount, 1500);
    /* typed, then cancelled: an answer without an amount */
    fw_ui_ask_confirm(r.ui, 4, 1000, 1500);
    ASSERT_INT_EQ(fw_ui_render(r.ui), FW_OK);
    ASSERT_TRUE(tap(r.ui, "key:cancel"));
    ASSERT_INT_EQ(next_input(r.ui, &ev), FW_UI_CONFIRM);
    ASSERT_INT_EQ(ev.has_amount, 0);
    char json[128];
    ASSERT_INT_EQ(fw_ui_input_json(FW_UI_CONFIRM, &ev, json, sizeof json),
                  FW_OK);
    ASSERT_STR_EQ(json,
                  "{\"type\":\"confirm\",\"seat\":4,\"amount\":null}\n");
    /* a typed count */
    fw_ui_ask_confirm(r.ui, 6, 1000, 1500);
    ASSERT_INT_EQ(fw_ui_render(r.ui), FW_OK);
    ASSERT_TRUE(tap(r.ui, "key:1"));
    ASSERT_INT_EQ(next_input(r.ui, &ev), FW_UI_NONE);
    ASSERT_TRUE(tap(r.ui, "key:2"));
    ASSERT_INT_EQ(next_input(r.ui, &ev), FW_UI_NONE);
    ASSERT_TRUE(tap(r.ui, "key:00"));
    ASSERT_INT_EQ(next_input(r.ui, &ev), FW_UI_NONE);
    ASSERT_TRUE(tap(r.ui, "key:enter"));
    ASSERT_INT_EQ(next_input(r.ui, &ev), FW_UI_CONFIRM);
    ASSERT_INT_EQ(ev.seat, 6);
    ASSERT_INT_EQ(ev.amount, 1200);
    rig_close(&r);
}

/* A misread board card: tap it, pick the right one. */
TEST(correct_card)
{
    rig r;
    ASSERT_TRUE(rig_open(&r, FW_UI_HEADLESS, 1920, 1080, case_dir("card")));
    ASSERT_TRUE(feed(&r, table6));
    ASSERT_TRUE(deal6(&r));
    static const char *const to_flop[] = {
        "{\"type\":\"push\",\"seat\":4,\"chips\":[200]}",
        "{\"type\":\"fold\",\"seat\":5}",
        "{\"type\":\"fold\",\"seat\":6}",
        "{\"type\":\"fold\",\"seat\":1}",
        "{\"type\":\"push\",\"seat\":2,\"chips\":[100]}",
        "{\"type\":\"say\",\"seat\":3,\"word\":\"check\"}",
        "{\"type\":\"card\",\"to\":\"burn\"}",
        "{\"type\":\"card\",\"to\":\"board\",\"card\":\"Kh\"}",
        "{\"type\":\"card\",\"to\":\"board\",\"card\":\"Qd\"}",
        "{\"type\":\"card\",\"to\":\"board\",\"card\":\"3c\"}",
        NULL};
    ASSERT_TRUE(feed(&r, to_flop));
    ASSERT_INT_EQ(fw_ui_render(r.ui), FW_OK);
    ASSERT_TRUE(tap(r.ui, "board:1"));
    fw_event ev;
    ASSERT_INT_EQ(next_input(r.ui, &ev), FW_UI_NONE);
    ASSERT_TRUE(tap(r.ui, "card:Qh"));
    ASSERT_INT_EQ(next_input(r.ui, &ev), FW_UI_CORRECT);
    ASSERT_INT_EQ(ev.to, FW_TO_BOARD);
    char c[3];
    fw_card_str(ev.card, c);
    ASSERT_STR_EQ(c, "Qh");
    ASSERT_INT_EQ(ev.ncards, 1);
    fw_card_str(ev.cards[0], c);
    ASSERT_STR_EQ(c, "Qd");
    char json[128];
    ASSERT_INT_EQ(fw_ui_input_json(FW_UI_CORRECT, &ev, json, sizeof json),
                  FW_OK);
    ASSERT_STR_EQ(json, "{\"type\":\"correct\",\"to\":\"board\",\"was\":\"Qd\","
                        "\"card\":\"Qh\"}\n");
    /* the same question through the hook, for a seat's tabled card */
    fw_ui_ask_card(r.ui, FW_TO_SEAT, 3, FW_CARD_NONE);
    ASSERT_INT_EQ(fw_ui_render(r.ui), FW_OK);
    ASSERT_TRUE(tap(r.ui, "card:As"));
    ASSERT_INT_EQ(next_input(r.ui, &ev), FW_UI_CORRECT);
    ASSERT_INT_EQ(ev.to, FW_TO_SEAT);
    ASSERT_INT_EQ(ev.seat, 3);
    ASSERT_INT_EQ(ev.ncards, 0);
    rig_close(&r);
}

/* Twelve hands played: the recall view lists the last ten. */
TEST(history_recall)
{
    rig r;
    ASSERT_TRUE(rig_open(&r, FW_UI_HEADLESS, 1024, 600, case_dir("history")));
    ASSERT_TRUE(feed(&r, table6));
    for (int hand = 0; hand < 12; hand++) {
        ASSERT_TRUE(feed1(&r, "{\"type\":\"hand_start\"}"));
        fw_state st;
        fw_engine_state(r.engine, &st);
        int first = st.button % 6 + 1;
        for (int k = 0; k < 12; k++) {
            char line[96];
            snprintf(line, sizeof line,
                     "{\"type\":\"card\",\"to\":\"seat\",\"seat\":%d}",
                     (first - 1 + k) % 6 + 1);
            ASSERT_TRUE(feed1(&r, line));
        }
        /* everyone folds to the big blind */
        for (int k = 0; k < 5; k++) {
            fw_engine_state(r.engine, &st);
            if (!st.to_act)
                break;
            char line[64];
            snprintf(line, sizeof line, "{\"type\":\"fold\",\"seat\":%d}",
                     st.to_act);
            ASSERT_TRUE(feed1(&r, line));
        }
        fw_engine_state(r.engine, &st);
        ASSERT_INT_EQ(st.street, FW_ST_COMPLETE);
    }
    ASSERT_INT_EQ(fw_ui_render(r.ui), FW_OK);
    ASSERT_TRUE(tap(r.ui, "history"));
    fw_event ev;
    ASSERT_INT_EQ(next_input(r.ui, &ev), FW_UI_NONE);
    fw_ui_rect x;
    ASSERT_INT_EQ(fw_ui_target(r.ui, "hand:0", &x), FW_OK);
    ASSERT_INT_EQ(fw_ui_target(r.ui, "hand:9", &x), FW_OK);
    ASSERT_INT_EQ(fw_ui_target(r.ui, "hand:10", &x), FW_ENOENT);
    ASSERT_INT_EQ(fw_ui_target(r.ui, "fold", &x), FW_ENOENT);
    int before = fw_ui_png_count(r.ui);
    ASSERT_TRUE(tap(r.ui, "hand:3"));
    ASSERT_INT_EQ(next_input(r.ui, &ev), FW_UI_NONE);
    ASSERT_TRUE(fw_ui_png_count(r.ui) > before); /* the detail changed */
    ASSERT_TRUE(tap(r.ui, "close"));
    ASSERT_INT_EQ(next_input(r.ui, &ev), FW_UI_NONE);
    ASSERT_INT_EQ(fw_ui_target(r.ui, "hand:0", &x), FW_ENOENT);
    ASSERT_INT_EQ(fw_ui_target(r.ui, "seat:1", &x), FW_OK);
    rig_close(&r);
}

/* The clock counts down from the events' times: a tick alone changes the
 * screen. */
TEST(clock_countdown)
{
    rig r;
    ASSERT_TRUE(rig_open(&r, FW_UI_HEADLESS, 800, 480, case_dir("clock")));
    ASSERT_TRUE(feed(&r, table6));
    ASSERT_TRUE(deal6(&r));
    ASSERT_TRUE(feed1(&r, "{\"type\":\"clock\",\"seat\":4,\"t\":100}"));
    ASSERT_INT_EQ(fw_ui_render(r.ui), FW_OK);
    int n = fw_ui_png_count(r.ui);
    ASSERT_TRUE(feed1(&r, "{\"type\":\"tick\",\"t\":110}"));
    ASSERT_INT_EQ(fw_ui_render(r.ui), FW_OK);
    ASSERT_INT_EQ(fw_ui_png_count(r.ui), n + 1);
    /* the same second again: nothing new */
    ASSERT_TRUE(feed1(&r, "{\"type\":\"tick\",\"t\":110.2}"));
    ASSERT_INT_EQ(fw_ui_render(r.ui), FW_OK);
    ASSERT_INT_EQ(fw_ui_png_count(r.ui), n + 1);
    /* the countdown: an amber warning */
    ASSERT_TRUE(feed1(&r, "{\"type\":\"tick\",\"t\":126}"));
    ASSERT_INT_EQ(fw_ui_render(r.ui), FW_OK);
    image img;
    ASSERT_TRUE(load_png(fw_ui_last_png(r.ui), &img));
    int amber = share(&img, 0, 0, img.w, img.h / 12, FW_UI_RGB_WARN, 30);
    free(img.px);
    rig_close(&r);
    ASSERT_TRUE(amber > 600);
}

/* The demo session, headless, through fw_ui_demo_main. */
static const char *source_dir(void)
{
    static char dir[512];
    snprintf(dir, sizeof dir, "%s", __FILE__);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, "..");
    return dir;
}

TEST(demo_session)
{
    char session[600];
    snprintf(session, sizeof session, "%s/app/demo_session.jsonl",
             source_dir());
    if (access(session, R_OK) != 0)
        TEST_SKIP("app/demo_session.jsonl not found");
    for (int s = 0; s < 3; s++) {
        char name[32], size[32];
        snprintf(name, sizeof name, "demo_%dx%d", sizes[s][0], sizes[s][1]);
        snprintf(size, sizeof size, "%dx%d", sizes[s][0], sizes[s][1]);
        const char *dir = case_dir(name);
        char *argv[] = {"screen", "--headless", "--out", (char *)dir,
                        "--size", size, session, NULL};
        FILE *out = tmpfile();
        ASSERT_TRUE(out != NULL);
        int rc = fw_ui_demo_main(7, argv, out, stderr);
        fclose(out);
        ASSERT_INT_EQ(rc, 0);
        int n = 0;
        DIR *d = opendir(dir);
        ASSERT_TRUE(d != NULL);
        struct dirent *e;
        while ((e = readdir(d)) != NULL)
            n += strncmp(e->d_name, "screen-", 7) == 0;
        closedir(d);
        ASSERT_TRUE(n > 50);
    }
    char *bad[] = {"screen", "--size", "12", session, NULL};
    ASSERT_INT_EQ(fw_ui_demo_main(4, bad, stdout, stderr), 2);
}

/* A font that is not there is a clear error. */
TEST(font_missing)
{
    fw_ui_options o;
    memset(&o, 0, sizeof o);
    o.mode = FW_UI_HEADLESS;
    o.font_path = "/nonexistent/font.ttf";
    fw_ui *ui = NULL;
    ASSERT_INT_EQ(fw_ui_new(&o, &ui), FW_ENOENT);
    ASSERT_TRUE(ui == NULL);
    ASSERT_TRUE(strstr(fw_last_error(), "/nonexistent/font.ttf") != NULL);
    o.font_path = NULL;
    setenv("FELTWATCH_FONT", "/nonexistent/other.ttf", 1);
    ASSERT_INT_EQ(fw_ui_new(&o, &ui), FW_ENOENT);
    ASSERT_TRUE(strstr(fw_last_error(), "FELTWATCH_FONT") != NULL);
    unsetenv("FELTWATCH_FONT");
    o.width = 100;
    ASSERT_INT_EQ(fw_ui_new(&o, &ui), FW_EINVAL);
}

TEST(input_json)
{
    fw_event ev;
    memset(&ev, 0, sizeof ev);
    char buf[128];
    ev.type = FW_EV_SAY;
    ev.seat = 5;
    ev.word = FW_WORD_RAISE;
    ev.has_amount = 1;
    ev.amount = 1100;
    ASSERT_INT_EQ(fw_ui_input_json(FW_UI_EVENT, &ev, buf, sizeof buf), FW_OK);
    ASSERT_STR_EQ(buf, "{\"type\":\"say\",\"seat\":5,\"word\":\"raise\","
                       "\"amount\":1100}\n");
    /* what the writer writes, the protocol reader reads */
    fw_event back;
    ASSERT_INT_EQ(fw_protocol_parse_line(buf, strlen(buf), 1, &back, NULL, 0),
                  FW_OK);
    ASSERT_INT_EQ(back.type, FW_EV_SAY);
    ASSERT_INT_EQ(back.amount, 1100);
    memset(&ev, 0, sizeof ev);
    ev.type = FW_EV_FLOOR;
    ev.decision = FW_DEC_FORFEIT_FOLD;
    ev.seat = 3;
    ASSERT_INT_EQ(fw_ui_input_json(FW_UI_EVENT, &ev, buf, sizeof buf), FW_OK);
    ASSERT_STR_EQ(buf, "{\"type\":\"floor\",\"decision\":\"forfeit_fold\","
                       "\"seat\":3}\n");
    ASSERT_INT_EQ(fw_protocol_parse_line(buf, strlen(buf), 1, &back, NULL, 0),
                  FW_OK);
    ASSERT_INT_EQ(back.decision, FW_DEC_FORFEIT_FOLD);
    ASSERT_INT_EQ(fw_ui_input_json(FW_UI_EVENT, &ev, buf, 10), FW_ERANGE);
    ASSERT_INT_EQ(fw_ui_input_json(FW_UI_QUIT, &ev, buf, sizeof buf),
                  FW_EINVAL);
}

/* A real window (under xvfb-run): draw the demo, read the screen back. */
TEST(window_screenshot)
{
    if (!getenv("DISPLAY") && !getenv("WAYLAND_DISPLAY"))
        TEST_SKIP("no display (run under xvfb-run)");
#ifdef __SANITIZE_ADDRESS__
    /* Mesa's GL drivers leak from libraries SDL unloads before the leak
     * check, where no suppression can name them: under the sanitizers the
     * window draws with SDL's software renderer (tests/lsan.supp has the
     * rest) */
    setenv("SDL_RENDER_DRIVER", "software", 0);
    setenv("SDL_FRAMEBUFFER_ACCELERATION", "0", 0);
#endif
    char session[600];
    snprintf(session, sizeof session, "%s/app/demo_session.jsonl",
             source_dir());
    const char *dir = case_dir("window");
    char shot[700];
    snprintf(shot, sizeof shot, "%s/screen-window.png", dir);
    char *argv[] = {"screen", "--size", "1024x600", "--delay", "0",
                    "--exit", "--screenshot", shot, session, NULL};
    FILE *out = tmpfile();
    ASSERT_TRUE(out != NULL);
    int rc = fw_ui_demo_main(9, argv, out, stderr);
    fclose(out);
    ASSERT_INT_EQ(rc, 0);
    image img;
    ASSERT_TRUE(load_png(shot, &img));
    ASSERT_INT_EQ(img.w, 1024);
    ASSERT_INT_EQ(img.h, 600);
    int felt = share(&img, img.w / 8, img.h / 3, img.w / 3, img.h / 4,
                     FW_UI_RGB_FELT, 60);
    free(img.px);
    ASSERT_TRUE(felt > 300);
}

static const fw_test_case cases[] = {
    TEST_CASE(png_sizes),        TEST_CASE(to_act_highlight),
    TEST_CASE(stop_banner),      TEST_CASE(warn_banner),
    TEST_CASE(png_only_on_change), TEST_CASE(fold_click),
    TEST_CASE(raise_keypad),     TEST_CASE(ask_confirm),
    TEST_CASE(correct_card),     TEST_CASE(history_recall),
    TEST_CASE(clock_countdown),  TEST_CASE(demo_session),
    TEST_CASE(font_missing),     TEST_CASE(input_json),
    TEST_CASE(window_screenshot),
};

int main(int argc, char **argv)
{
    /* no window in the headless cases; a driver that needs no display */
    if (!getenv("DISPLAY") && !getenv("WAYLAND_DISPLAY"))
        setenv("SDL_VIDEODRIVER", "offscreen", 0);
    int rc = fw_test_run(cases, sizeof cases / sizeof cases[0], argc, argv);
    if (tmp_root[0] && !getenv("FW_UI_KEEP") && !getenv("FW_UI_OUT"))
        remove_tree(tmp_root);
    return rc;
}
