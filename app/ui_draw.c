/*
 * ui_draw.c - the dealer screen's frame: layout and drawing.
 *
 * Everything is sized from the screen's height (one unit u = 1% of it) so
 * 800x480, 1024x600 and 1920x1080 show the same screen at their own scale.
 * Top to bottom: the alert banner (only while an alert is up), the top bar
 * (hand, blinds, street, clock, recall), the table at the left with the
 * action panel at the right, and the bottom strip (how the last action was
 * read, the latest note). Modal views (keypad, card picker, recall) are
 * drawn over it and take the taps while they are open.
 *
 * Drawing allocates nothing: text comes from the texture cache, shapes from
 * the fixed vertex arrays in struct fw_ui, the felt from a background
 * texture drawn again only when the table's place changes.
 */
#include "ui_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Palette                                                              */
/* ------------------------------------------------------------------ */

#define C_BG 0x0C0F12u
#define C_BAR 0x161B21u
#define C_PANEL 0x1A2027u
#define C_LINE 0x2C353Fu
#define C_TEXT 0xFFFFFFu
#define C_DIM 0xA7B3BDu
#define C_FAINT 0x66727Du
#define C_INK 0x101010u
#define C_GOLD FW_UI_RGB_TO_ACT
#define C_STOP FW_UI_RGB_STOP
#define C_WARN FW_UI_RGB_WARN
#define C_SEAT 0x25313Bu
#define C_SEAT_EDGE 0x5B6B78u
#define C_FOLDED 0x171C21u
#define C_ALLIN 0xE0245Eu
#define C_BLIND 0x1E88E5u
#define C_BTN_GREEN 0x2E7D32u
#define C_BTN_BLUE 0x1565C0u
#define C_BTN_PURPLE 0x7B1FA2u
#define C_BTN_RED 0xB3261Eu
#define C_BTN_GREY 0x3A4650u
#define C_DISABLED 0x252C33u

enum { AL_L = 0, AL_C, AL_R };

#define UI_PI 3.14159265358979f

/* ------------------------------------------------------------------ */
/* Shapes                                                               */
/* ------------------------------------------------------------------ */

static void set_color(fw_ui *ui, uint32_t c, int a)
{
    SDL_SetRenderDrawColor(ui->ren, (c >> 16) & 255, (c >> 8) & 255, c & 255,
                           (Uint8)a);
}

static void fill(fw_ui *ui, SDL_Rect r, uint32_t c)
{
    set_color(ui, c, 255);
    SDL_RenderFillRect(ui->ren, &r);
}

static void shade(fw_ui *ui, SDL_Rect r, int alpha)
{
    set_color(ui, 0, alpha);
    SDL_RenderFillRect(ui->ren, &r);
}

/*
 * Shapes are drawn as runs of horizontal spans (SDL_RenderFillRects): the
 * software renderer's triangles allocate for every triangle drawn, spans
 * do not, and both renderers batch them.
 */
static void fill_spans(fw_ui *ui, const SDL_FRect *sp, int n, uint32_t c)
{
    set_color(ui, c, 255);
    /* SDL_RenderFillRectsF copies the rectangles, on the stack up to 128
     * bytes and with malloc beyond: hand them over 7 at a time */
    for (int i = 0; i < n; i += 7)
        SDL_RenderFillRectsF(ui->ren, sp + i, n - i < 7 ? n - i : 7);
}

static void rrect(fw_ui *ui, SDL_Rect r, int rad, uint32_t c)
{
    if (r.w <= 0 || r.h <= 0)
        return;
    if (rad * 2 > r.w)
        rad = r.w / 2;
    if (rad * 2 > r.h)
        rad = r.h / 2;
    if (rad > UI_MAX_SPANS / 2 - 1)
        rad = UI_MAX_SPANS / 2 - 1;
    if (rad < 2) {
        fill(ui, r, c);
        return;
    }
    SDL_FRect *sp = ui->spans;
    int n = 0;
    float x = (float)r.x, y = (float)r.y, w = (float)r.w, h = (float)r.h;
    if (r.h > 2 * rad)
        sp[n++] = (SDL_FRect){x, y + (float)rad, w, h - 2 * (float)rad};
    for (int i = 0; i < rad; i++) {
        float dy = (float)rad - (float)i - 0.5f;
        float in = (float)rad -
                   floorf(sqrtf((float)(rad * rad) - dy * dy) + 0.5f);
        sp[n++] = (SDL_FRect){x + in, y + (float)i, w - 2 * in, 1};
        sp[n++] = (SDL_FRect){x + in, y + h - 1 - (float)i, w - 2 * in, 1};
    }
    fill_spans(ui, sp, n, c);
}

/* A rounded box with a border of bw pixels. */
static void rbox(fw_ui *ui, SDL_Rect r, int rad, int bw, uint32_t edge,
                 uint32_t inside)
{
    rrect(ui, r, rad, edge);
    SDL_Rect in = {r.x + bw, r.y + bw, r.w - 2 * bw, r.h - 2 * bw};
    rrect(ui, in, rad > bw ? rad - bw : 0, inside);
}

static void disc(fw_ui *ui, float x, float y, float rad, uint32_t c)
{
    SDL_FRect *sp = ui->spans;
    int n = 0;
    int y0 = (int)floorf(y - rad), y1 = (int)ceilf(y + rad);
    for (int j = y0; j < y1 && n < UI_MAX_SPANS; j++) {
        float dy = (float)j + 0.5f - y;
        float h2 = rad * rad - dy * dy;
        if (h2 <= 0)
            continue;
        float half = sqrtf(h2);
        float xa = floorf(x - half + 0.5f), xb = floorf(x + half + 0.5f);
        if (xb > xa)
            sp[n++] = (SDL_FRect){xa, (float)j, xb - xa, 1};
    }
    fill_spans(ui, sp, n, c);
}

/* ------------------------------------------------------------------ */
/* Text                                                                 */
/* ------------------------------------------------------------------ */

static int text_w(fw_ui *ui, int font, const char *s)
{
    return fw__ui_text_width(ui, font, s);
}

static int line_h(const fw_ui *ui, int font)
{
    return ui->font[font] ? TTF_FontLineSkip(ui->font[font]) : 0;
}

/*
 * Draw s in font `font` and colour c, x aligned by al, vertically centred
 * on cy. At most maxw pixels wide (0: no limit); wider text is cut at the
 * right. Returns the width drawn.
 */
static int text(fw_ui *ui, int font, const char *s, int x, int cy, int al,
                int maxw, uint32_t c)
{
    ui_text *t = fw__ui_text(ui, font, s, c != 0xFFFFFFu);
    if (!t)
        return 0;
    int w = t->w;
    if (maxw > 0 && w > maxw)
        w = maxw;
    SDL_Rect src = {0, 0, w, t->h};
    SDL_Rect dst = {x, cy - t->h / 2, w, t->h};
    if (al == AL_C)
        dst.x -= w / 2;
    else if (al == AL_R)
        dst.x -= w;
    SDL_SetTextureColorMod(t->tex, (c >> 16) & 255, (c >> 8) & 255, c & 255);
    SDL_RenderCopy(ui->ren, t->tex, &src, &dst);
    return w;
}

/*
 * The largest size from big down to small (same weight) at which s fits in
 * maxw, drawn as text() does; the smallest, cut, when none fits.
 */
static int text_fit(fw_ui *ui, int big, int small, int bold, const char *s,
                    int x, int cy, int al, int maxw, uint32_t c)
{
    int size = big;
    for (; size > small; size--)
        if (text_w(ui, UI_FONT(size, bold), s) <= maxw)
            break;
    return text(ui, UI_FONT(size, bold), s, x, cy, al, maxw, c);
}

#define WRAP_LEN 192

static void cpy(char *dst, size_t n, const char *src)
{
    size_t l = strnlen(src, n - 1);
    memcpy(dst, src, l);
    dst[l] = '\0';
}

/*
 * Break s into at most maxlines lines of at most maxw pixels in `font`,
 * at spaces. A word wider than maxw gets a line of its own (cut when
 * drawn). When the text does not fit, the last line ends in "...".
 * Returns the number of lines.
 */
static int wrap(fw_ui *ui, int font, const char *s, int maxw,
                char out[][WRAP_LEN], int maxlines)
{
    int n = 0;
    char line[WRAP_LEN] = "";
    char cand[WRAP_LEN * 2];
    const char *p = s ? s : "";
    int overflow = 0;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        const char *e = p;
        while (*e && *e != ' ')
            e++;
        int wl = (int)(e - p);
        if (line[0])
            snprintf(cand, sizeof cand, "%s %.*s", line, wl, p);
        else
            snprintf(cand, sizeof cand, "%.*s", wl, p);
        if (!line[0] ||
            (text_w(ui, font, cand) <= maxw && strlen(cand) < WRAP_LEN)) {
            cpy(line, sizeof line, cand);
        } else {
            if (n == maxlines - 1) {
                overflow = 1;
                break;
            }
            cpy(out[n++], WRAP_LEN, line);
            snprintf(line, sizeof line, "%.*s", wl, p);
        }
        p = e;
    }
    if (line[0] && n < maxlines) {
        if (overflow) {
            size_t len = strlen(line);
            while (len > 0 &&
                   (text_w(ui, font, line) + text_w(ui, font, "...") > maxw ||
                    len + 4 > WRAP_LEN)) {
                line[--len] = '\0';
                while (len > 0 && ((unsigned char)line[len - 1] & 0xC0) == 0x80)
                    line[--len] = '\0';
            }
            memcpy(out[n], line, len);
            memcpy(out[n] + len, "...", 4);
            n++;
        } else {
            cpy(out[n++], WRAP_LEN, line);
        }
    }
    return n;
}

/* The font size (of enum ui_font_size) closest to px pixels, not above. */
static int size_for_px(const fw_ui *ui, int px)
{
    int best = 0;
    for (int s = 0; s < UI_NSIZES; s++)
        if (ui->font_px[UI_FONT(s, 0)] <= px)
            best = s;
    return best;
}

/* ------------------------------------------------------------------ */
/* Numbers, time, targets                                               */
/* ------------------------------------------------------------------ */

void fw__ui_money(int64_t v, char buf[32])
{
    if (v == FW_NULL_AMOUNT) {
        snprintf(buf, 32, "-");
        return;
    }
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%lld", (long long)v);
    int o = 0;
    for (int i = 0; i < n && o < 30; i++) {
        buf[o++] = digits[i];
        if ((n - i - 1) % 3 == 0 && i != n - 1 && digits[i] != '-')
            buf[o++] = ',';
    }
    buf[o] = '\0';
}

double fw__ui_now(const fw_ui *ui)
{
    if (ui->have_t) {
        if (ui->mode == FW_UI_HEADLESS)
            return ui->now_t;
        return ui->now_t + (double)(SDL_GetTicks() - ui->t_ticks) / 1000.0;
    }
    if (ui->mode == FW_UI_HEADLESS)
        return 0;
    return (double)SDL_GetTicks() / 1000.0;
}

int fw__ui_clock_left(const fw_ui *ui)
{
    if (!ui->m.clock_on)
        return -1;
    double left =
        ui->m.clock_total - (fw__ui_now(ui) - ui->m.clock_start);
    if (left < 0)
        left = 0;
    return (int)ceil(left - 1e-9);
}

static void target(fw_ui *ui, ui_target_id id, int arg, SDL_Rect r)
{
    if (ui->ntargets == UI_MAX_TARGETS)
        return;
    ui_target *t = &ui->targets[ui->ntargets++];
    t->id = id;
    t->arg = arg;
    t->r = r;
}

static int pressed(const fw_ui *ui, ui_target_id id, int arg)
{
    return ui->press_valid && ui->press.id == id && ui->press.arg == arg;
}

static uint32_t lighten(uint32_t c)
{
    uint32_t r = (c >> 16) & 255, g = (c >> 8) & 255, b = c & 255;
    r += (255 - r) / 3;
    g += (255 - g) / 3;
    b += (255 - b) / 3;
    return (r << 16) | (g << 8) | b;
}

/*
 * A touch button: label (bold) and an optional second line, registered as
 * a target when enabled. A disabled button is drawn flat and takes no tap.
 */
static void button(fw_ui *ui, SDL_Rect r, const char *label, const char *sub,
                   uint32_t bg, uint32_t fg, ui_target_id id, int arg,
                   int enabled, int size)
{
    float u = (float)ui->h / 100.0f;
    if (!enabled) {
        bg = C_DISABLED;
        fg = C_FAINT;
    } else if (pressed(ui, id, arg)) {
        bg = lighten(bg);
    }
    rrect(ui, r, (int)(1.2f * u), bg);
    int maxw = r.w - (int)(2 * u);
    if (sub && sub[0]) {
        int lh1 = line_h(ui, UI_FONT(size, 1));
        int lh2 = line_h(ui, UI_FONT(UI_XS, 0));
        int top = r.y + (r.h - lh1 - lh2) / 2;
        text_fit(ui, size, UI_XS, 1, label, r.x + r.w / 2, top + lh1 / 2,
                 AL_C, maxw, fg);
        text_fit(ui, UI_XS, UI_XS, 0, sub, r.x + r.w / 2,
                 top + lh1 + lh2 / 2, AL_C, maxw, fg);
    } else {
        text_fit(ui, size, UI_XS, 1, label, r.x + r.w / 2, r.y + r.h / 2,
                 AL_C, maxw, fg);
    }
    if (enabled)
        target(ui, id, arg, r);
}

/* A small rounded label ("SB", "ALL-IN"); returns its width. */
static int pill(fw_ui *ui, int font, const char *s, int x, int cy, int al,
                uint32_t bg, uint32_t fg)
{
    float u = (float)ui->h / 100.0f;
    int w = text_w(ui, font, s) + (int)(1.6f * u);
    int h = line_h(ui, font);
    SDL_Rect r = {x, cy - h / 2, w, h};
    if (al == AL_C)
        r.x -= w / 2;
    else if (al == AL_R)
        r.x -= w;
    rrect(ui, r, h / 3, bg);
    text(ui, font, s, r.x + w / 2, cy, AL_C, 0, fg);
    return w;
}

/* ------------------------------------------------------------------ */
/* Cards                                                                */
/* ------------------------------------------------------------------ */

static const char *const suit_glyph[4] = {"\xE2\x99\xA3", "\xE2\x99\xA6",
                                          "\xE2\x99\xA5", "\xE2\x99\xA0"};
/* a four-colour deck: clubs green, diamonds blue, hearts red, spades black
 * (told apart at a glance, as on broadcast tables) */
static const uint32_t suit_color[4] = {0x1B7F2Cu, 0x1559C0u, 0xD0222Au,
                                       0x141414u};

static void rank_str(fw_card c, char out[4])
{
    static const char ranks[] = "23456789TJQKA";
    int r = fw_card_rank(c);
    if (r == 8)
        snprintf(out, 4, "10");
    else
        snprintf(out, 4, "%c", r >= 0 && r < 13 ? ranks[r] : '?');
}

static void draw_card(fw_ui *ui, SDL_Rect r, fw_card c)
{
    int rad = r.w / 8;
    if (c >= 52) {
        /* a slot still to come */
        rbox(ui, r, rad, r.w > 40 ? 2 : 1, 0x2F7A57u, 0x0E5A3Bu);
        return;
    }
    rrect(ui, r, rad, 0xF7F7F2u);
    char rk[4];
    rank_str(c, rk);
    int suit = fw_card_suit(c);
    int size = size_for_px(ui, (int)(r.h * 0.40f));
    int f = UI_FONT(size, 1);
    int lh = line_h(ui, f);
    int top = r.y + (r.h - 2 * lh * 9 / 10) / 2;
    text(ui, f, rk, r.x + r.w / 2, top + lh * 9 / 20, AL_C, r.w,
         suit_color[suit]);
    text(ui, UI_FONT(size, 0), suit_glyph[suit], r.x + r.w / 2,
         top + lh * 9 / 10 + lh * 9 / 20, AL_C, r.w, suit_color[suit]);
}

/* ------------------------------------------------------------------ */
/* Layout                                                               */
/* ------------------------------------------------------------------ */

typedef struct lay {
    float u;
    int pad;
    SDL_Rect banner, top, main, table, panel, bottom;
} lay;

#define STEP_LINES 6

typedef struct banner_text {
    int n_text, n_steps;
    char textl[3][WRAP_LEN];
    char steps[STEP_LINES][WRAP_LEN];
    int step_no[STEP_LINES]; /* the step's number, 0 on a continuation */
    int h;
} banner_text;

static int banner_shows_floor(const ui_alert *a)
{
    if (!a->active)
        return 0;
    if (a->severity == FW_SEV_STOP)
        return 1;
    return strstr(a->remedy, "floor") != NULL ||
           strstr(a->text, "floor") != NULL;
}

/*
 * The remedy as numbered steps: its sentences ("Stop and call the floor.
 * Gather and reshuffle the cards. ...") each wrapped to the banner.
 */
static void remedy_steps(fw_ui *ui, const char *remedy, int font, int maxw,
                         banner_text *bt)
{
    const char *p = remedy;
    int no = 0;
    char sent[UI_REMEDY_MAX];
    char lines[3][WRAP_LEN];
    while (*p && bt->n_steps < STEP_LINES) {
        while (*p == ' ')
            p++;
        const char *e = p;
        while (*e && !(e[0] == '.' && e[1] == ' ' && e[2] >= 'A' &&
                       e[2] <= 'Z'))
            e++;
        if (*e)
            e++; /* keep the full stop */
        int len = (int)(e - p);
        if (len <= 0)
            break;
        snprintf(sent, sizeof sent, "%.*s", len, p);
        no++;
        int n = wrap(ui, font, sent, maxw, lines, 3);
        for (int i = 0; i < n && bt->n_steps < STEP_LINES; i++) {
            cpy(bt->steps[bt->n_steps], WRAP_LEN, lines[i]);
            bt->step_no[bt->n_steps++] = i == 0 ? no : 0;
        }
        p = e;
    }
}

static void banner_measure(fw_ui *ui, const lay *L, banner_text *bt)
{
    memset(bt, 0, sizeof *bt);
    const ui_alert *a = &ui->m.banner;
    if (!a->active)
        return;
    float u = L->u;
    int pad = L->pad;
    int W = ui->w;
    if (a->severity == FW_SEV_STOP) {
        int tw = W - 2 * pad;
        bt->n_text = wrap(ui, UI_FONT(UI_M, 1), a->text, tw, bt->textl, 2);
        remedy_steps(ui, a->remedy, UI_FONT(UI_S, 0),
                     tw - (int)(5 * u), bt);
        bt->h = pad + line_h(ui, UI_FONT(UI_L, 1)) + (int)(0.6f * u) +
                bt->n_text * line_h(ui, UI_FONT(UI_M, 1)) +
                (bt->n_steps ? (int)(u) : 0) +
                bt->n_steps * line_h(ui, UI_FONT(UI_S, 0)) + pad;
    } else {
        int tw = W - 3 * pad - (int)(16 * u);
        bt->n_text = wrap(ui, UI_FONT(UI_M, 1), a->text, tw, bt->textl, 2);
        if (a->remedy[0]) {
            char lines[2][WRAP_LEN];
            char r[UI_REMEDY_MAX + 8];
            snprintf(r, sizeof r, "\xE2\x86\x92 %s", a->remedy);
            int n = wrap(ui, UI_FONT(UI_S, 0), r, tw, lines, 2);
            for (int i = 0; i < n; i++) {
                cpy(bt->steps[i], WRAP_LEN, lines[i]);
                bt->step_no[i] = 0;
            }
            bt->n_steps = n;
        }
        bt->h = pad + line_h(ui, UI_FONT(UI_S, 1)) +
                bt->n_text * line_h(ui, UI_FONT(UI_M, 1)) +
                bt->n_steps * line_h(ui, UI_FONT(UI_S, 0)) + pad;
        int min_h = (int)(12 * u);
        if (bt->h < min_h)
            bt->h = min_h;
    }
}

static void layout(fw_ui *ui, lay *L, const banner_text *bt)
{
    int W = ui->w, H = ui->h;
    float u = (float)H / 100.0f;
    L->u = u;
    L->pad = (int)(1.4f * u + 0.5f);
    int bh = bt->h;
    L->banner = (SDL_Rect){0, 0, W, bh};
    int top_h = (int)(8 * u);
    L->top = (SDL_Rect){0, bh, W, top_h};
    /* while play is stopped, the table gets the bottom strip's room */
    int stop = ui->m.banner.active && ui->m.banner.severity == FW_SEV_STOP;
    int bottom_h = stop ? 0 : (int)(13 * u);
    L->bottom = (SDL_Rect){0, H - bottom_h, W, bottom_h};
    int y0 = bh + top_h, y1 = H - bottom_h;
    L->main = (SDL_Rect){0, y0, W, y1 - y0};
    int tw = (int)(W * 0.61f);
    L->table = (SDL_Rect){0, y0, tw, y1 - y0};
    L->panel = (SDL_Rect){tw, y0 + L->pad, W - tw - L->pad,
                          y1 - y0 - 2 * L->pad};
}

/* ------------------------------------------------------------------ */
/* The background: the felt, drawn on the CPU with smooth edges          */
/* ------------------------------------------------------------------ */

static uint32_t mix(uint32_t a, uint32_t b, float t)
{
    if (t <= 0)
        return a;
    if (t >= 1)
        return b;
    uint32_t out = 0;
    for (int sh = 0; sh <= 16; sh += 8) {
        float x = (float)((a >> sh) & 255) * (1 - t) +
                  (float)((b >> sh) & 255) * t;
        out |= (uint32_t)(x + 0.5f) << sh;
    }
    return out;
}

/*
 * Paint the whole background into ui->bg: the dark screen, the rail and
 * the felt with a soft light in its middle, every edge anti-aliased (the
 * renderer's shapes are not). The felt is the ellipse (cx, cy, rx, ry).
 * Only done when the felt moves (a banner comes or goes, a resize).
 */
static int paint_background(fw_ui *ui, int cx, int cy, int rx, int ry,
                            int rail)
{
    int key[6] = {ui->w, ui->h, cx, cy, rx, ry};
    if (ui->bg && memcmp(key, ui->bg_key, sizeof key) == 0)
        return FW_OK;
    if (!ui->bg || ui->bg_key[0] != ui->w || ui->bg_key[1] != ui->h) {
        if (ui->bg)
            SDL_DestroyTexture(ui->bg);
        free(ui->bg_px);
        ui->bg_px = malloc((size_t)ui->w * (size_t)ui->h * sizeof(uint32_t));
        ui->bg = SDL_CreateTexture(ui->ren, SDL_PIXELFORMAT_RGB888,
                                   SDL_TEXTUREACCESS_STREAMING, ui->w, ui->h);
        if (!ui->bg_px || !ui->bg) {
            if (ui->bg)
                SDL_DestroyTexture(ui->bg);
            ui->bg = NULL;
            return fw_set_error(FW_ENOMEM, "ui: background: %s",
                                SDL_GetError());
        }
    }
    memcpy(ui->bg_key, key, sizeof key);
    const uint32_t rail_dark = 0x17120Eu, rail_light = 0x3A2E24u;
    const uint32_t felt_mid = 0x159458u, felt_edge = FW_UI_RGB_FELT;
    const uint32_t line_c = 0x2FA56Eu;
    float orx = (float)(rx + rail), ory = (float)(ry + rail);
    for (int y = 0; y < ui->h; y++) {
        uint32_t *row = ui->bg_px + (size_t)y * ui->w;
        float dy = (float)y + 0.5f - (float)cy;
        for (int x = 0; x < ui->w; x++) {
            uint32_t c = C_BG;
            float dx = (float)x + 0.5f - (float)cx;
            if (fabsf(dy) <= ory + 2 && fabsf(dx) <= orx + 2) {
                float len = sqrtf(dx * dx + dy * dy);
                /* distance in pixels to each ellipse along the ray */
                float d_out = sqrtf(dx * dx / (orx * orx) + dy * dy / (ory * ory));
                float d_in = sqrtf(dx * dx / ((float)rx * rx) +
                                   dy * dy / ((float)ry * ry));
                float s_out = d_out > 0 ? len * (1 - d_out) / d_out : 1e9f;
                float s_in = d_in > 0 ? len * (1 - d_in) / d_in : 1e9f;
                float cov_out = s_out + 0.5f;
                float cov_in = s_in + 0.5f;
                /* the rail: lighter along its crest */
                float frac = -s_in / (float)rail;
                float crest = 1 - fabsf(frac - 0.4f) * 2.5f;
                uint32_t railc = mix(rail_dark, rail_light,
                                     crest > 0 ? crest * 0.8f : 0);
                c = mix(C_BG, railc, cov_out);
                if (cov_in > 0) {
                    uint32_t felt = mix(felt_mid, felt_edge, d_in * d_in);
                    /* the betting line, a faint ring */
                    float ring = fabsf(d_in - 0.80f) * (float)ry;
                    if (ring < 1.5f)
                        felt = mix(felt, line_c, (1.5f - ring) / 1.5f * 0.7f);
                    c = mix(c, felt, cov_in);
                }
            }
            row[x] = c;
        }
    }
    SDL_UpdateTexture(ui->bg, NULL, ui->bg_px, ui->w * (int)sizeof(uint32_t));
    return FW_OK;
}

/* ------------------------------------------------------------------ */
/* Banner                                                               */
/* ------------------------------------------------------------------ */

static void draw_banner(fw_ui *ui, const lay *L, const banner_text *bt)
{
    const ui_alert *a = &ui->m.banner;
    if (!a->active)
        return;
    float u = L->u;
    int pad = L->pad;
    SDL_Rect r = L->banner;
    char buf[96];
    if (a->severity == FW_SEV_STOP) {
        fill(ui, r, C_STOP);
        int y = r.y + pad;
        int lhL = line_h(ui, UI_FONT(UI_L, 1));
        text(ui, UI_FONT(UI_L, 1), "STOP \xE2\x80\x94 CALL THE FLOOR",
             r.x + pad, y + lhL / 2, AL_L, 0, C_TEXT);
        snprintf(buf, sizeof buf, "RULE %s", a->rule);
        text(ui, UI_FONT(UI_L, 1), buf, r.x + r.w - pad, y + lhL / 2, AL_R,
             0, C_TEXT);
        y += lhL + (int)(0.6f * u);
        int lhM = line_h(ui, UI_FONT(UI_M, 1));
        for (int i = 0; i < bt->n_text; i++, y += lhM)
            text(ui, UI_FONT(UI_M, 1), bt->textl[i], r.x + pad, y + lhM / 2,
                 AL_L, r.w - 2 * pad, C_TEXT);
        if (bt->n_steps)
            y += (int)u;
        int lhS = line_h(ui, UI_FONT(UI_S, 0));
        for (int i = 0; i < bt->n_steps; i++, y += lhS) {
            if (bt->step_no[i]) {
                snprintf(buf, sizeof buf, "%d", bt->step_no[i]);
                disc(ui, (float)(r.x + pad) + 1.6f * u, (float)(y + lhS / 2),
                     1.5f * u, C_TEXT);
                text(ui, UI_FONT(UI_XS, 1), buf,
                     r.x + pad + (int)(1.6f * u), y + lhS / 2, AL_C, 0,
                     C_STOP);
            }
            text(ui, UI_FONT(UI_S, 0), bt->steps[i], r.x + pad + (int)(5 * u),
                 y + lhS / 2, AL_L, r.w - 2 * pad - (int)(5 * u), C_TEXT);
        }
        return;
    }
    /* a warning: amber, black text, an OK to put it away */
    fill(ui, r, C_WARN);
    int y = r.y + pad;
    int lhSb = line_h(ui, UI_FONT(UI_S, 1));
    snprintf(buf, sizeof buf, "\xE2\x9A\xA0 WARNING  \xC2\xB7  RULE %s",
             a->rule);
    text(ui, UI_FONT(UI_S, 1), buf, r.x + pad, y + lhSb / 2, AL_L, 0,
         C_INK);
    y += lhSb;
    int tw = r.w - 3 * pad - (int)(16 * u);
    int lhM = line_h(ui, UI_FONT(UI_M, 1));
    for (int i = 0; i < bt->n_text; i++, y += lhM)
        text(ui, UI_FONT(UI_M, 1), bt->textl[i], r.x + pad, y + lhM / 2,
             AL_L, tw, C_INK);
    int lhS = line_h(ui, UI_FONT(UI_S, 0));
    for (int i = 0; i < bt->n_steps; i++, y += lhS)
        text(ui, UI_FONT(UI_S, 0), bt->steps[i], r.x + pad, y + lhS / 2,
             AL_L, tw, C_INK);
    SDL_Rect ok = {r.x + r.w - pad - (int)(16 * u), r.y + pad,
                   (int)(16 * u), r.h - 2 * pad};
    if (ok.h > (int)(14 * u)) {
        ok.y += (ok.h - (int)(14 * u)) / 2;
        ok.h = (int)(14 * u);
    }
    button(ui, ok, "OK", NULL, C_INK, C_WARN, T_BANNER_OK, 0, 1, UI_L);
}

/* ------------------------------------------------------------------ */
/* Top bar and bottom strip                                             */
/* ------------------------------------------------------------------ */

static const char *street_label(fw_street s)
{
    switch (s) {
    case FW_ST_PREDEAL:
        return "BETWEEN HANDS";
    case FW_ST_DEAL:
        return "DEALING";
    case FW_ST_PREFLOP:
        return "PRE-FLOP";
    case FW_ST_FLOP:
        return "FLOP";
    case FW_ST_TURN:
        return "TURN";
    case FW_ST_RIVER:
        return "RIVER";
    case FW_ST_SHOWDOWN:
        return "SHOWDOWN";
    case FW_ST_COMPLETE:
        return "HAND OVER";
    }
    return "";
}

static void draw_top(fw_ui *ui, const lay *L)
{
    const ui_model *m = &ui->m;
    SDL_Rect r = L->top;
    float u = L->u;
    int pad = L->pad;
    fill(ui, r, C_BAR);
    int cy = r.y + r.h / 2;
    char buf[128], a[32], b[32], c[32];
    /* right to left: recall, the clock, the street */
    int rx = r.x + r.w - pad;
    if (ui->view != V_HISTORY) {
        SDL_Rect hb = {rx - (int)(16 * u), r.y + (int)(1.0f * u),
                       (int)(16 * u), r.h - (int)(2.0f * u)};
        button(ui, hb, "HANDS", NULL, C_BTN_GREY, C_TEXT, T_HISTORY, 0,
               ui->m.nhist > 0, UI_S);
        rx = hb.x - pad;
    }
    int left = fw__ui_clock_left(ui);
    if (left >= 0) {
        snprintf(buf, sizeof buf, "CLOCK SEAT %d  %d:%02d", m->clock_seat,
                 left / 60, left % 60);
        int w = text_w(ui, UI_FONT(UI_M, 1), buf) + (int)(3 * u);
        SDL_Rect cr = {rx - w, r.y + (int)(0.8f * u), w,
                       r.h - (int)(1.6f * u)};
        rrect(ui, cr, (int)u, left <= 5 ? C_STOP : C_WARN);
        text(ui, UI_FONT(UI_M, 1), buf, cr.x + w / 2, cy, AL_C, 0,
             left <= 5 ? C_TEXT : C_INK);
        rx = cr.x - pad;
    }
    if (m->have_state) {
        rx -= text(ui, UI_FONT(UI_M, 1), street_label(m->st.street), rx, cy,
                   AL_R, 0, C_TEXT);
        rx -= 2 * pad;
    }
    /* left to right, in what room is left: hand, blinds, game */
    int x = r.x + pad;
    if (m->have_state && m->st.hand > 0) {
        snprintf(buf, sizeof buf, "HAND %d", m->st.hand);
        x += text(ui, UI_FONT(UI_M, 1), buf, x, cy, AL_L, rx - x, C_TEXT);
        x += 2 * pad;
    }
    if (m->have_level && x < rx) {
        if (m->game == FW_GAME_FLHE && m->small_bet > 0) {
            fw__ui_money(m->small_bet, a);
            fw__ui_money(m->big_bet, b);
            snprintf(buf, sizeof buf, "LIMIT %s / %s", a, b);
        } else {
            fw__ui_money(m->sb, a);
            fw__ui_money(m->bb, b);
            if (m->ante > 0) {
                fw__ui_money(m->ante, c);
                snprintf(buf, sizeof buf, "BLINDS %s / %s  ANTE %s%s", a, b,
                         c, m->ante_type == FW_ANTE_BB ? " (BB)" : "");
            } else {
                snprintf(buf, sizeof buf, "BLINDS %s / %s", a, b);
            }
        }
        x += text_fit(ui, UI_M, UI_XS, 1, buf, x, cy, AL_L, rx - x, C_GOLD);
        x += 2 * pad;
    }
    if (m->have_table) {
        snprintf(buf, sizeof buf, "%s \xC2\xB7 %s",
                 fw_game_name(m->game) ? fw_game_name(m->game) : "",
                 fw_profile_name(m->profile) ? fw_profile_name(m->profile)
                                             : "");
        if (text_w(ui, UI_FONT(UI_S, 0), buf) <= rx - x)
            text(ui, UI_FONT(UI_S, 0), buf, x, cy, AL_L, 0, C_DIM);
    }
}

/*
 * The bottom strip: how the last action was read (amber when the reading
 * was not the plain one) and the latest note. A reading too long for one
 * line takes both.
 */
static void draw_bottom(fw_ui *ui, const lay *L)
{
    const ui_model *m = &ui->m;
    SDL_Rect r = L->bottom;
    if (r.h <= 0)
        return;
    float u = L->u;
    int pad = L->pad;
    fill(ui, r, C_BAR);
    SDL_Rect line = {r.x, r.y, r.w, (int)(u * 0.3f) + 1};
    fill(ui, line, C_LINE);
    int row1 = r.y + (int)(4.8f * u), row2 = r.y + (int)(10.3f * u);
    int x = r.x + pad;
    x += pill(ui, UI_FONT(UI_XS, 1), "LAST READ", x, row1, AL_L, C_BTN_GREY,
              C_TEXT);
    x += pad;
    int w = r.x + r.w - pad - x;
    int two = 0;
    uint32_t rc = m->ruling_unusual ? C_WARN : C_TEXT;
    if (!m->have_ruling) {
        text(ui, UI_FONT(UI_S, 0), "No action read yet this hand.", x, row1,
             AL_L, 0, C_FAINT);
    } else if (text_w(ui, UI_FONT(UI_XS, 1), m->ruling) <= w) {
        text_fit(ui, UI_M, UI_XS, 1, m->ruling, x, row1, AL_L, w, rc);
    } else {
        char lines[2][WRAP_LEN];
        int n = wrap(ui, UI_FONT(UI_S, 1), m->ruling, w, lines, 2);
        for (int i = 0; i < n; i++)
            text(ui, UI_FONT(UI_S, 1), lines[i], x, i ? row2 : row1, AL_L, w,
                 rc);
        two = n > 1;
    }
    if (m->have_info && !two) {
        x = r.x + pad;
        x += pill(ui, UI_FONT(UI_XS, 1), "NOTE", x, row2, AL_L, 0x263238u,
                  C_DIM);
        x += pad;
        text_fit(ui, UI_S, UI_XS, 0, m->info, x, row2, AL_L,
                 r.x + r.w - pad - x, C_DIM);
    }
}

/* ------------------------------------------------------------------ */
/* The table                                                            */
/* ------------------------------------------------------------------ */

/*
 * Angles (radians, screen coordinates, y down) of n seats around the
 * ellipse (rx, ry), equally spaced along its edge, seat 1 at the dealer's
 * left going clockwise, with the dealer's place (bottom middle) as one
 * more gap.
 */
static void seat_angles(float rx, float ry, int n, float *out)
{
    enum { N = 720 };
    float cum[N + 1];
    cum[0] = 0;
    float px = 0, py = ry;
    for (int i = 1; i <= N; i++) {
        float a = UI_PI / 2 + 2 * UI_PI * (float)i / N;
        float x = rx * cosf(a), y = ry * sinf(a);
        cum[i] = cum[i - 1] + sqrtf((x - px) * (x - px) + (y - py) * (y - py));
        px = x;
        py = y;
    }
    int j = 0;
    for (int k = 1; k <= n; k++) {
        float want = cum[N] * (float)k / (float)(n + 1);
        while (j < N - 1 && cum[j + 1] < want)
            j++;
        float seg = cum[j + 1] - cum[j];
        float f = seg > 0 ? (want - cum[j]) / seg : 0;
        out[k - 1] =
            UI_PI / 2 + 2 * UI_PI * ((float)j + f) / N;
    }
}

typedef struct seat_geo {
    SDL_Rect box;
    float cx, cy; /* box centre */
    float dx, dy; /* unit vector towards the table's centre */
    float reach;  /* from the centre to the box's edge along (dx, dy) */
    int has_bet, has_button;
    SDL_Rect bet;     /* the chips in front */
    int bet_font;
    float bx, by, br; /* the dealer button */
} seat_geo;

static int overlap(SDL_Rect a, SDL_Rect b, int gap)
{
    return a.x < b.x + b.w + gap && b.x < a.x + a.w + gap &&
           a.y < b.y + b.h + gap && b.y < a.y + a.h + gap;
}

/* The largest font size (not above `most`) whose lines fit in px. */
static int size_for_line(const fw_ui *ui, int px, int bold, int most)
{
    int best = 0;
    for (int s = 0; s <= most; s++)
        if (line_h(ui, UI_FONT(s, bold)) <= px)
            best = s;
    return best;
}

static const char *status_tag(fw_seat_status s, uint32_t *bg)
{
    switch (s) {
    case FW_SEAT_FOLDED:
        *bg = 0x3A444Cu;
        return "FOLD";
    case FW_SEAT_ALL_IN:
        *bg = C_ALLIN;
        return "ALL-IN";
    case FW_SEAT_DEAD:
        *bg = 0x6D4C41u;
        return "DEAD";
    case FW_SEAT_OUT:
        *bg = 0x3A444Cu;
        return "OUT";
    default:
        return NULL;
    }
}

/*
 * One seat: its number and name over its stack; gold when it is to act,
 * dimmed when out of the hand, tagged FOLD / ALL-IN / DEAD / OUT and SB /
 * BB. Text sizes follow the box's height.
 */
static void draw_seat(fw_ui *ui, const lay *L, const seat_geo *g,
                      const fw_seat_view *v, int seat)
{
    const ui_model *m = &ui->m;
    float u = L->u;
    SDL_Rect b = g->box;
    fw_seat_status st = v ? v->status : FW_SEAT_EMPTY;
    int to_act = m->st.to_act == seat && seat > 0;
    int chosen = ui->sel_seat == seat && !to_act && seat > 0;
    char buf[64], money[32];
    int rad = (int)(1.4f * u);
    uint32_t fg = C_TEXT;
    int f1 = size_for_line(ui, (int)((float)b.h * 0.42f), 1, UI_S);
    int f2 = size_for_line(ui, (int)((float)b.h * 0.54f), 1, UI_M);
    int row1 = b.y + (int)((float)b.h * 0.29f);
    int row2 = b.y + (int)((float)b.h * 0.69f);
    int ip = (int)(0.9f * u);
    if (st == FW_SEAT_EMPTY) {
        rbox(ui, b, rad, (int)(0.3f * u) + 1, 0x2E3840u, 0x12171Bu);
        snprintf(buf, sizeof buf, "SEAT %d", seat);
        text(ui, UI_FONT(f1 > UI_XS ? f1 - 1 : f1, 1), buf, b.x + b.w / 2,
             row1, AL_C, b.w, C_FAINT);
        text(ui, UI_FONT(f1 > UI_XS ? f1 - 1 : f1, 0), "open",
             b.x + b.w / 2, row2, AL_C, b.w, C_FAINT);
        target(ui, T_SEAT, seat, b);
        return;
    }
    int out = st == FW_SEAT_FOLDED || st == FW_SEAT_OUT ||
              st == FW_SEAT_DEAD;
    if (to_act) {
        /* the seat to act: solid gold in a light halo */
        int hw = (int)(0.7f * u) + 1;
        SDL_Rect halo = {b.x - hw, b.y - hw, b.w + 2 * hw, b.h + 2 * hw};
        rrect(ui, halo, rad + hw, 0xFFF6D5u);
        rrect(ui, b, rad, C_GOLD);
        fg = C_INK;
    } else if (out) {
        rbox(ui, b, rad, (int)(0.3f * u) + 1, 0x2A3138u, C_FOLDED);
        fg = C_FAINT;
    } else {
        uint32_t edge = st == FW_SEAT_ALL_IN ? C_ALLIN : C_SEAT_EDGE;
        int bw = (int)(0.35f * u) + 1;
        if (chosen) {
            edge = C_TEXT;
            bw = (int)(0.7f * u) + 1;
        } else if (st == FW_SEAT_ALL_IN) {
            bw = (int)(0.6f * u) + 1;
        }
        rbox(ui, b, rad, bw, edge, C_SEAT);
    }
    /* row 1: seat number, name, blind */
    snprintf(buf, sizeof buf, "%d", seat);
    int nf = UI_FONT(f1 > UI_XS ? f1 - 1 : f1, 1);
    int nb = line_h(ui, nf);
    SDL_Rect num = {b.x + ip, row1 - nb / 2, nb, nb};
    rrect(ui, num, nb / 4, to_act ? C_INK : (out ? 0x2A3138u : 0x4F6370u));
    text(ui, nf, buf, num.x + nb / 2, row1, AL_C, 0,
         to_act ? C_GOLD : (out ? C_FAINT : C_TEXT));
    int right = b.x + b.w - ip;
    uint32_t tagbg = 0;
    const char *tag = status_tag(st, &tagbg);
    if (out && tag) {
        /* out of the hand: the tag says so, the blind no longer matters */
        int w = pill(ui, UI_FONT(UI_XS, 1), tag, right, row1, AL_R, tagbg,
                     C_TEXT);
        right -= w + ip / 2;
    } else if (m->sb_seat == seat || m->bb_seat == seat) {
        int w = pill(ui, UI_FONT(UI_XS, 1), m->bb_seat == seat ? "BB" : "SB",
                     right, row1, AL_R, C_BLIND, C_TEXT);
        right -= w + ip / 2;
    }
    const char *name = m->names[seat];
    if (!name[0]) {
        snprintf(buf, sizeof buf, "Seat %d", seat);
        name = buf;
    }
    int nx = num.x + nb + ip;
    text_fit(ui, f1, UI_XS, 1, name, nx, row1, AL_L, right - nx, fg);
    /* row 2: the stack; all in: the tag, and what is left if anything */
    fw__ui_money(v->stack, money);
    int tagw = 0;
    if (st == FW_SEAT_ALL_IN) {
        if (v->stack == 0) {
            pill(ui, UI_FONT(f2 > UI_S ? UI_S : f2, 1), "ALL-IN", b.x + ip,
                 row2, AL_L, C_ALLIN, C_TEXT);
            money[0] = '\0';
        } else {
            tagw = pill(ui, UI_FONT(UI_XS, 1), tag, b.x + b.w - ip, row2,
                        AL_R, tagbg, C_TEXT) +
                   ip / 2;
        }
    }
    if (money[0])
        text_fit(ui, f2, UI_XS, 1, money, b.x + ip, row2, AL_L,
                 b.w - 2 * ip - tagw, fg);
    target(ui, T_SEAT, seat, b);
}

/* How far a w x h rectangle centred on a line reaches along (dx, dy). */
static float extent(float dx, float dy, float w, float h)
{
    return fabsf(dx) * w / 2 + fabsf(dy) * h / 2;
}

/*
 * Put each seat's dealer button and chips in front of it, towards the
 * middle, around the board (and the pot when pot is not NULL): slid
 * sideways (along x for the seats above and below, along y for those at
 * the ends) and a little further in where they would cover the board or
 * another seat's chips. Fills g[].bet, g[].bx/by/br. Returns 1 when
 * nothing covers anything, 0 when something had to.
 */
static int place_front(fw_ui *ui, seat_geo *g, int n, float bw, float bh,
                       SDL_Rect board, const SDL_Rect *pot, int fbet)
{
    const fw_state *s = &ui->m.st;
    float u = (float)ui->h / 100.0f;
    int pill_h = line_h(ui, fbet) + (int)(0.4f * u);
    int sep = (int)(0.5f * u);
    char mon[32];
    SDL_Rect ob[FW_MAX_SEATS * 2 + 2];
    int nob = 0, fixed;
    ob[nob++] = board;
    if (pot)
        ob[nob++] = *pot;
    fixed = nob;
    int ok = 1;
    for (int i = 0; i < n; i++) {
        ob[nob++] = g[i].box;
        for (int f = 0; f < fixed; f++)
            if (overlap(g[i].box, ob[f], sep))
                ok = 0; /* the board or the pot under a seat */
    }
    for (int i = 0; i < n; i++) {
        seat_geo *q = &g[i];
        const fw_seat_view *v = fw__ui_seat_view(s, i + 1);
        int across_x = fabsf(q->dy) >= fabsf(q->dx);
        float d = q->reach + 0.8f * u;
        q->has_button = s->button == i + 1;
        q->has_bet = v && v->bet > 0;
        int w = 0, h = 0;
        if (q->has_button) {
            q->br = 2.5f * u;
            w = h = (int)(2 * q->br);
        }
        if (q->has_bet) {
            fw__ui_money(v->bet, mon);
            int bwp = text_w(ui, fbet, mon) + pill_h + (int)(1.4f * u);
            /* the button and the chips side by side, one unit */
            w = q->has_button ? w + (int)(0.6f * u) + bwp : bwp;
            h = h > pill_h ? h : pill_h;
        }
        if (!w)
            continue;
        d += extent(q->dx, q->dy, (float)w, (float)h);
        float room = (across_x ? bw : bh) / 2;
        SDL_Rect r = {0, 0, w, h}, best = r;
        int best_score = 1 << 30;
        for (int along = 0; along < 4; along++) {
            for (int kk = 0; kk < 41; kk++) {
                float off = (float)((kk + 1) / 2) * 0.6f * u * (kk % 2 ? 1 : -1);
                if (fabsf(off) > room && kk > 0)
                    break;
                float dd = d + (float)along * 1.4f * u;
                float ux = q->cx + q->dx * dd + (across_x ? off : 0);
                float uy = q->cy + q->dy * dd + (across_x ? 0 : off);
                r.x = (int)(ux - (float)w / 2);
                r.y = (int)(uy - (float)h / 2);
                int score = kk + along * 6;
                for (int o = 0; o < nob; o++)
                    if (overlap(r, ob[o], sep))
                        score += o < fixed ? 10000 : 100;
                if (score < best_score) {
                    best_score = score;
                    best = r;
                }
            }
        }
        r = best;
        if (best_score >= 100)
            ok = 0;
        ob[nob++] = r;
        int x = r.x;
        if (q->has_button) {
            q->bx = (float)x + q->br;
            q->by = (float)r.y + (float)h / 2;
            x += (int)(2 * q->br + 0.6f * u);
        }
        if (q->has_bet)
            q->bet = (SDL_Rect){x, r.y + (h - pill_h) / 2, r.x + r.w - x,
                                pill_h};
        q->bet_font = fbet;
    }
    return ok;
}

static void draw_bet(fw_ui *ui, const lay *L, const seat_geo *g, int64_t bet)
{
    char mon[32];
    fw__ui_money(bet, mon);
    int f = g->bet_font;
    SDL_Rect pr = g->bet;
    int h = pr.h;
    float cyb = (float)pr.y + (float)h / 2;
    rrect(ui, pr, h / 2, 0x062B1Cu);
    disc(ui, (float)pr.x + (float)h / 2, cyb, (float)h * 0.36f, 0xECECECu);
    disc(ui, (float)pr.x + (float)h / 2, cyb, (float)h * 0.24f, 0xC62828u);
    text(ui, f, mon, pr.x + h + (int)(0.3f * L->u), (int)cyb, AL_L, 0,
         C_TEXT);
}

static void draw_table(fw_ui *ui, const lay *L)
{
    const ui_model *m = &ui->m;
    const fw_state *s = &m->st;
    float u = L->u;
    SDL_Rect a = L->table;
    int pad = L->pad;
    int n = m->nseats ? m->nseats : s->nseats;
    if (n > FW_MAX_SEATS)
        n = FW_MAX_SEATS;
    float cx = (float)a.x + (float)a.w / 2;
    float cy = (float)a.y + (float)a.h / 2;
    /* seat boxes: as large as the room allows, without touching */
    float bh = fminf(13.5f * u, (float)a.h * 0.19f);
    float bw = fminf(fminf(26 * u, (float)a.w * 0.215f), bh * 2.1f);
    float ang[FW_MAX_SEATS];
    seat_geo g[FW_MAX_SEATS];
    memset(g, 0, sizeof g);
    float srx = 0, sry = 0;
    for (int tries = 0; tries < 12 && n > 0; tries++) {
        srx = (float)a.w / 2 - bw / 2 - (float)pad;
        sry = (float)a.h / 2 - bh / 2 - (float)pad;
        seat_angles(srx, sry, n, ang);
        for (int i = 0; i < n; i++) {
            float sx = cx + srx * cosf(ang[i]), sy = cy + sry * sinf(ang[i]);
            g[i].cx = sx;
            g[i].cy = sy;
            g[i].box = (SDL_Rect){(int)(sx - bw / 2), (int)(sy - bh / 2),
                                  (int)bw, (int)bh};
        }
        int clash = 0;
        for (int i = 0; i < n && !clash; i++)
            clash = overlap(g[i].box, g[(i + 1) % n].box, (int)(0.8f * u));
        if (!clash)
            break;
        bw *= 0.94f;
        bh *= 0.97f;
    }
    /* the felt under the seats' inner halves */
    int frx = (int)(srx - bw * 0.05f), fry = (int)(sry - bh * 0.18f);
    int rail = (int)(2.4f * u);
    int rc = paint_background(ui, (int)cx, (int)cy, frx, fry, rail);
    if (rc == FW_OK && ui->bg)
        SDL_RenderCopy(ui->ren, ui->bg, NULL, NULL);
    if (n == 0) {
        text(ui, UI_FONT(UI_M, 1), "Waiting for the table...", (int)cx,
             (int)cy, AL_C, 0, C_DIM);
        return;
    }
    text(ui, UI_FONT(UI_XS, 1), "DEALER", (int)cx,
         (int)(cy + (float)fry - 2.4f * u), AL_C, 0, 0x3FAF7Au);

    char mon[32], buf[64];
    int have_pot = m->have_state && (s->pot > 0 || s->hand > 0);
    int fpot = UI_FONT(UI_L, 1);
    char potbuf[48];
    fw__ui_money(s->pot, mon);
    snprintf(potbuf, sizeof potbuf, "POT %s", mon);
    for (int i = 0; i < n; i++) {
        seat_geo *q = &g[i];
        float dx = cx - q->cx, dy = cy - q->cy;
        float len = sqrtf(dx * dx + dy * dy);
        q->dx = len > 0 ? dx / len : 0;
        q->dy = len > 0 ? dy / len : 1;
        q->reach = extent(q->dx, q->dy, bw, bh);
    }
    /* The board and the pot in the middle, as large as the room allows,
     * a little higher or lower if that makes room; the pot on the felt
     * only where it fits (the panel shows it too). */
    float cw0 = fminf(8.6f * u, (float)frx * 0.30f);
    float cw = cw0;
    SDL_Rect board = {0, 0, 0, 0}, potr = {0, 0, 0, 0};
    int placed = 0;
    /* what gives way first when it is tight: the pot on the felt, then
     * the size of the chips' numbers, then the board's size */
    static const struct {
        int pot, bet_size;
        float min_cw;
    } passes[] = {{1, UI_S, 5.0f}, {0, UI_S, 5.0f}, {0, UI_XS, 4.0f},
                  {0, UI_XS, 3.0f}};
    int fbet = UI_FONT(UI_S, 1);
    for (size_t pass = 0; pass < sizeof passes / sizeof passes[0] && !placed;
         pass++) {
        int with_pot = have_pot && passes[pass].pot;
        fbet = UI_FONT(passes[pass].bet_size, 1);
        for (cw = cw0; cw >= passes[pass].min_cw * u && !placed;
             cw *= 0.92f) {
            float ch = cw * 1.4f, cgap = cw * 0.12f;
            float bwid = 5 * cw + 4 * cgap;
            fpot = UI_FONT(size_for_line(ui, (int)(ch * 0.62f), 1, UI_L), 1);
            int ph = line_h(ui, fpot) + (int)(0.4f * u);
            int pw = text_w(ui, fpot, potbuf) + ph;
            float total = ch + (with_pot ? 0.8f * u + (float)ph : 0);
            for (int k = 0; k < 9 && !placed; k++) {
                float off = (float)((k + 1) / 2) * 2.0f * u * (k % 2 ? 1 : -1);
                float top = cy - total / 2 + off;
                if (k > 0 && (top < cy - (float)fry * 0.8f ||
                              top + total > cy + (float)fry * 0.8f))
                    continue;
                board = (SDL_Rect){(int)(cx - bwid / 2), (int)top, (int)bwid,
                                   (int)ch};
                potr = (SDL_Rect){(int)cx - pw / 2,
                                  board.y + board.h + (int)(0.8f * u), pw, ph};
                placed = place_front(ui, g, n, bw, bh, board,
                                     with_pot ? &potr : NULL, fbet);
            }
        }
        if (placed) {
            cw /= 0.92f; /* the loop stepped once past the size that fit */
            have_pot = with_pot;
        }
    }
    if (!placed) {
        /* no room anywhere: the smallest board in the middle, overlaps and
         * all */
        have_pot = 0;
        cw = 3.0f * u;
        float ch = cw * 1.4f, bwid = 5 * cw + 4 * cw * 0.12f;
        board = (SDL_Rect){(int)(cx - bwid / 2), (int)(cy - ch / 2),
                           (int)bwid, (int)ch};
        place_front(ui, g, n, bw, bh, board, NULL, fbet);
    }
    float gap = cw * 0.12f;
    for (int i = 0; i < 5; i++) {
        SDL_Rect cr = {board.x + (int)((float)i * (cw + gap)), board.y,
                       (int)cw, board.h};
        fw_card c = i < s->nboard ? s->board[i] : FW_CARD_NONE;
        draw_card(ui, cr, c);
        if (i < s->nboard)
            target(ui, T_BOARD, i, cr);
    }
    if (have_pot) {
        rrect(ui, potr, potr.h / 2, 0x08402Au);
        text(ui, fpot, potbuf, potr.x + potr.w / 2, potr.y + potr.h / 2,
             AL_C, 0, C_TEXT);
    }
    /* seats, their buttons and chips */
    for (int i = 0; i < n; i++)
        draw_seat(ui, L, &g[i], fw__ui_seat_view(s, i + 1), i + 1);
    for (int i = 0; i < n; i++) {
        const seat_geo *q = &g[i];
        if (q->has_button) {
            disc(ui, q->bx, q->by, q->br, 0xD9D9D9u);
            disc(ui, q->bx, q->by, q->br * 0.86f, 0xFFFFFFu);
            text(ui, UI_FONT(size_for_line(ui, (int)(q->br * 1.9f), 1, UI_M),
                             1),
                 "D", (int)q->bx, (int)q->by, AL_C, 0, C_INK);
        }
        if (q->has_bet)
            draw_bet(ui, L, q, fw__ui_seat_view(s, i + 1)->bet);
    }
    /* the clock on the seat that has it */
    int left = fw__ui_clock_left(ui);
    if (left >= 0 && m->clock_seat >= 1 && m->clock_seat <= n) {
        const seat_geo *cg = &g[m->clock_seat - 1];
        snprintf(buf, sizeof buf, "%d:%02d", left / 60, left % 60);
        pill(ui, UI_FONT(UI_S, 1), buf, cg->box.x + cg->box.w / 2,
             cg->box.y - (int)(0.2f * u), AL_C,
             left <= 5 ? C_STOP : C_WARN, left <= 5 ? C_TEXT : C_INK);
    }
}

/* ------------------------------------------------------------------ */
/* The action panel                                                     */
/* ------------------------------------------------------------------ */

static int floor_choices(const ui_alert *a, fw_decision out[4])
{
    const char *k = a->kind;
    int n = 0;
    if (strcmp(k, "undercall") == 0) {
        out[n++] = FW_DEC_FULL_CALL;
        out[n++] = FW_DEC_FORFEIT_FOLD;
    } else if (strcmp(k, "misdeal") == 0 || strcmp(k, "fouled_deck") == 0 ||
               strcmp(k, "boxed_card") == 0) {
        out[n++] = FW_DEC_MISDEAL;
        out[n++] = FW_DEC_CONTINUE;
    } else if (strcmp(k, "action_out_of_turn") == 0 ||
               strcmp(k, "dead_hand") == 0 ||
               strcmp(k, "wrong_card_count") == 0 ||
               strcmp(k, "button_too_few_cards") == 0) {
        out[n++] = FW_DEC_CONTINUE;
        if (a->seat)
            out[n++] = FW_DEC_DEAD_HAND;
    } else {
        out[n++] = FW_DEC_CONTINUE;
        out[n++] = FW_DEC_MISDEAL;
        if (a->seat)
            out[n++] = FW_DEC_DEAD_HAND;
    }
    return n;
}

static void decision_label(fw_decision d, int seat, char *label, size_t ls,
                           char *sub, size_t ss)
{
    sub[0] = '\0';
    switch (d) {
    case FW_DEC_MISDEAL:
        snprintf(label, ls, "MISDEAL");
        snprintf(sub, ss, "re-deal");
        break;
    case FW_DEC_CONTINUE:
        snprintf(label, ls, "CONTINUE");
        snprintf(sub, ss, "play on");
        break;
    case FW_DEC_FULL_CALL:
        snprintf(label, ls, "FULL CALL");
        if (seat)
            snprintf(sub, ss, "seat %d calls", seat);
        break;
    case FW_DEC_FORFEIT_FOLD:
        snprintf(label, ls, "FORFEIT");
        snprintf(sub, ss, seat ? "seat %d folds" : "and fold", seat);
        break;
    case FW_DEC_DEAD_HAND:
        snprintf(label, ls, "DEAD HAND");
        if (seat)
            snprintf(sub, ss, "kill seat %d", seat);
        break;
    default:
        snprintf(label, ls, "%s", fw_decision_name(d) ? fw_decision_name(d)
                                                        : "?");
        break;
    }
}

/*
 * A label over a value, left-aligned at x in a block from y of height h:
 * the value as large as the block allows, up to size `big`.
 */
static void figure(fw_ui *ui, const char *label, const char *value, int x,
                   int y, int w, int h, int big, uint32_t c)
{
    int lf = UI_FONT(UI_XS, 1);
    int lh = line_h(ui, lf);
    if (h < lh + line_h(ui, UI_FONT(UI_S, 1))) {
        /* no room for two lines: "LABEL value" on one */
        int lw = text(ui, lf, label, x, y + h / 2, AL_L, w, C_DIM);
        int vx = x + lw + lh / 2;
        int size = size_for_line(ui, h + h / 8, 1, big);
        while (size > UI_XS && text_w(ui, UI_FONT(size, 1), value) > x + w - vx)
            size--;
        if (vx < x + w)
            text(ui, UI_FONT(size, 1), value, vx, y + h / 2, AL_L, x + w - vx,
                 c);
        return;
    }
    text(ui, lf, label, x, y + lh / 2, AL_L, w, C_DIM);
    int avail = h - lh;
    int size = size_for_line(ui, avail + avail / 8, 1, big);
    while (size > UI_XS && text_w(ui, UI_FONT(size, 1), value) > w)
        size--;
    text(ui, UI_FONT(size, 1), value, x, y + lh + avail / 2, AL_L, w, c);
}

/* What the last tap sent, for the UNDO button: "raise 1,100, seat 4". */
static void last_input_label(const fw_ui *ui, char *buf, size_t size)
{
    const fw_event *e = &ui->last_input;
    char a[32], c1[3];
    buf[0] = '\0';
    if (!ui->have_last_input)
        return;
    if (ui->last_input_kind == FW_UI_EVENT && e->type == FW_EV_SAY) {
        const char *w = fw_word_name(e->word);
        if (e->has_amount) {
            fw__ui_money(e->amount, a);
            snprintf(buf, size, "%s %s, seat %d", w ? w : "", a, e->seat);
        } else {
            snprintf(buf, size, "%s, seat %d", w ? w : "", e->seat);
        }
    } else if (ui->last_input_kind == FW_UI_EVENT && e->type == FW_EV_FLOOR) {
        const char *d = fw_decision_name(e->decision);
        snprintf(buf, size, "floor: %s", d ? d : "");
    } else if (ui->last_input_kind == FW_UI_CONFIRM) {
        fw__ui_money(e->amount, a);
        snprintf(buf, size, "seat %d: %s", e->seat,
                 e->has_amount ? a : "no count");
    } else {
        fw_card_str(e->card, c1);
        snprintf(buf, size, "card %s", c1);
    }
}

static void draw_panel(fw_ui *ui, const lay *L)
{
    const ui_model *m = &ui->m;
    const fw_state *s = &m->st;
    SDL_Rect p = L->panel;
    float u = L->u;
    int pad = L->pad;
    int gap = (int)(1.2f * u);
    char buf[96], a[32], b[32], undo_sub[64];
    int seat = ui->sel_seat ? ui->sel_seat : s->to_act;
    int floor_mode = banner_shows_floor(&m->banner);
    int acting = seat > 0 && s->street >= FW_ST_PREFLOP &&
                 s->street <= FW_ST_RIVER;
    last_input_label(ui, undo_sub, sizeof undo_sub);
    int hh = (int)fminf(8.5f * u, (float)p.h * 0.17f);
    SDL_Rect hr = {p.x, p.y, p.w, hh};

    if (floor_mode) {
        /* the floor's choices fill the panel; nothing else matters now */
        int stop = m->banner.severity == FW_SEV_STOP;
        rrect(ui, hr, (int)u, stop ? C_STOP : C_WARN);
        text_fit(ui, UI_M, UI_XS, 1, "FLOOR DECISION", p.x + p.w / 2,
                 p.y + hh / 2, AL_C, p.w - 2 * pad, stop ? C_TEXT : C_INK);
        fw_decision ch[4];
        int nch = floor_choices(&m->banner, ch);
        int rows = (nch + 1) / 2 + 1; /* the decisions, then undo */
        int top = p.y + hh + gap;
        int rh = (p.y + p.h - top - (rows - 1) * gap) / rows;
        if (rh > (int)(16 * u))
            rh = (int)(16 * u);
        int cw2 = (p.w - gap) / 2;
        char label[32], sub[48];
        for (int i = 0; i < nch; i++) {
            int row = i / 2, col = i % 2;
            int full = nch == 1 || (nch % 2 == 1 && i == nch - 1);
            SDL_Rect r = {p.x + (full ? 0 : col * (cw2 + gap)),
                          top + row * (rh + gap), full ? p.w : cw2, rh};
            decision_label(ch[i], m->banner.seat, label, sizeof label, sub,
                           sizeof sub);
            uint32_t bg = ch[i] == FW_DEC_CONTINUE || ch[i] == FW_DEC_FULL_CALL
                              ? C_BTN_GREEN
                              : C_BTN_RED;
            button(ui, r, label, sub, bg, C_TEXT, T_FLOOR, (int)ch[i], 1,
                   UI_M);
        }
        SDL_Rect ur = {p.x, top + (rows - 1) * (rh + gap), p.w, rh};
        button(ui, ur, "UNDO", undo_sub, C_BTN_GREY, C_TEXT, T_UNDO, 0,
               ui->have_last_input, UI_M);
        return;
    }

    /* header: who the buttons speak for */
    if (acting) {
        const char *name = m->names[seat];
        int oot = seat != s->to_act;
        if (name[0])
            snprintf(buf, sizeof buf, "%s SEAT %d \xC2\xB7 %s",
                     oot ? "OUT OF TURN:" : "TO ACT:", seat, name);
        else
            snprintf(buf, sizeof buf, "%s SEAT %d",
                     oot ? "OUT OF TURN:" : "TO ACT:", seat);
        rrect(ui, hr, (int)u, oot ? 0xFF8F00u : C_GOLD);
        text_fit(ui, UI_M, UI_XS, 1, buf, p.x + p.w / 2, p.y + hh / 2, AL_C,
                 p.w - 2 * pad, C_INK);
    } else {
        rrect(ui, hr, (int)u, C_PANEL);
        const char *msg = "NO ACTION PENDING";
        if (!m->have_state || s->street == FW_ST_PREDEAL)
            msg = "WAITING FOR THE DEAL";
        else if (s->street == FW_ST_DEAL)
            msg = "DEALING";
        else if (s->street == FW_ST_SHOWDOWN)
            msg = "SHOWDOWN";
        else if (s->street == FW_ST_COMPLETE)
            msg = "HAND OVER";
        text_fit(ui, UI_M, UI_XS, 1, msg, p.x + p.w / 2, p.y + hh / 2, AL_C,
                 p.w - 2 * pad, C_DIM);
    }

    /* two rows of buttons at the bottom */
    int bh_row = (int)fminf(12.5f * u, (float)(p.h - hh - 3 * gap) * 0.24f);
    int btn_top = p.y + p.h - 2 * bh_row - gap;

    /* the figures between, two rows: to call and the pot; the raise range */
    int fy = p.y + hh + gap;
    int fh = btn_top - gap - fy;
    SDL_Rect fr = {p.x, fy, p.w, fh};
    rrect(ui, fr, (int)u, C_PANEL);
    int ix = p.x + pad, iw = p.w - 2 * pad;
    int half = (iw - pad) / 2;
    int inner = fh - (int)(1.2f * u);
    int y = fy + (int)(0.6f * u);
    int row_a = acting ? inner * 55 / 100 : inner;
    int need = line_h(ui, UI_FONT(UI_XS, 1)) + line_h(ui, UI_FONT(UI_S, 1));
    if (acting && inner - row_a < need && inner >= 2 * need)
        row_a = inner - need; /* both rows with their labels on top */
    int row_b = inner - row_a;
    int any_bet = 0;
    for (int i = 0; i < s->nseats; i++)
        if (s->seats[i].bet > 0)
            any_bet = 1;
    int potx = ix, potw = iw;
    if (acting) {
        fw__ui_money(s->to_call, a);
        figure(ui, "TO CALL", seat == s->to_act ? a : "-", ix, y, half,
               row_a, UI_XXL, C_TEXT);
        potx = ix + half + pad;
        potw = half;
    }
    if (m->have_state) {
        int side = s->npots > 1;
        int f = UI_FONT(UI_XS, 0);
        int lh = line_h(ui, f);
        int nside = side ? s->npots : 0;
        while (nside > 0 && row_a - nside * lh < row_a / 2)
            nside--;
        fw__ui_money(s->pot, a);
        int ph = row_a - nside * lh;
        figure(ui, "POT", a, potx, y, potw, ph, acting ? UI_XL : UI_XXL,
               C_TEXT);
        for (int i = 0; i < nside; i++) {
            const fw_pot_view *pv = &s->pots[i];
            fw__ui_money(pv->amount, b);
            if (i == 0)
                snprintf(buf, sizeof buf, "MAIN %s", b);
            else if (s->npots > 2)
                snprintf(buf, sizeof buf, "SIDE %d  %s", i, b);
            else
                snprintf(buf, sizeof buf, "SIDE %s", b);
            text(ui, f, buf, potx, y + ph + i * lh + lh / 2, AL_L, potw,
                 i == 0 ? C_TEXT : C_DIM);
        }
    }
    y += row_a;
    if (acting) {
        if (s->min_raise_to == FW_NULL_AMOUNT) {
            figure(ui, any_bet ? "RAISE" : "BET", "NOT ALLOWED", ix, y, iw,
                   row_b, UI_L, C_DIM);
        } else {
            fw__ui_money(s->min_raise_to, a);
            fw__ui_money(s->max_raise_to, b);
            figure(ui, any_bet ? "MIN RAISE TO" : "MIN BET", a, ix, y, half,
                   row_b, UI_L, C_TEXT);
            const char *mx = m->game == FW_GAME_PLO || m->game == FW_GAME_PLO5
                                 ? "POT-LIMIT MAX"
                             : m->game == FW_GAME_FLHE ? "LIMIT"
                                                       : "MAX (ALL-IN)";
            figure(ui, mx, b, ix + half + pad, y, half, row_b, UI_L, C_TEXT);
        }
    }

    /* the buttons: what the player said */
    int cw3 = (p.w - 2 * gap) / 3;
    int owes = acting && seat == s->to_act && s->to_call > 0;
    int can_raise = acting && s->min_raise_to != FW_NULL_AMOUNT;
    fw__ui_money(s->to_call, a);
    SDL_Rect r = {p.x, btn_top, cw3, bh_row};
    button(ui, r, "CHECK", NULL, C_BTN_GREEN, C_TEXT, T_SAY, FW_WORD_CHECK,
           acting && !owes, UI_M);
    r.x += cw3 + gap;
    button(ui, r, "CALL", owes ? a : NULL, C_BTN_GREEN, C_TEXT, T_SAY,
           FW_WORD_CALL, owes, UI_M);
    r.x += cw3 + gap;
    button(ui, r, "FOLD", NULL, C_BTN_RED, C_TEXT, T_SAY, FW_WORD_FOLD,
           acting, UI_M);
    r = (SDL_Rect){p.x, btn_top + bh_row + gap, cw3, bh_row};
    fw_word bet_word = any_bet ? FW_WORD_RAISE : FW_WORD_BET;
    button(ui, r, any_bet ? "RAISE" : "BET", "amount...", C_BTN_BLUE,
           C_TEXT, T_KEYPAD, bet_word, can_raise, UI_M);
    r.x += cw3 + gap;
    button(ui, r, "ALL-IN", NULL, C_BTN_PURPLE, C_TEXT, T_SAY,
           FW_WORD_ALL_IN, acting, UI_M);
    r.x += cw3 + gap;
    button(ui, r, "UNDO", undo_sub, C_BTN_GREY, C_TEXT, T_UNDO, 0,
           ui->have_last_input, UI_M);
}

/* ------------------------------------------------------------------ */
/* Modal views                                                          */
/* ------------------------------------------------------------------ */

static SDL_Rect modal_frame(fw_ui *ui, int w, int h)
{
    SDL_Rect all = {0, 0, ui->w, ui->h};
    shade(ui, all, 170);
    SDL_Rect r = {(ui->w - w) / 2, (ui->h - h) / 2, w, h};
    float u = (float)ui->h / 100.0f;
    rbox(ui, r, (int)(1.5f * u), (int)(0.4f * u) + 1, 0x4A5A66u, 0x141A20u);
    return r;
}

static void draw_keypad(fw_ui *ui)
{
    float u = (float)ui->h / 100.0f;
    int pad = (int)(1.6f * u);
    int h = (int)(96 * u);
    int w = (int)fminf((float)ui->w * 0.62f, 80 * u);
    SDL_Rect r = modal_frame(ui, w, h);
    char buf[96], a[32], b[32];
    const char *name = ui->kp_seat >= 1 && ui->kp_seat <= FW_MAX_SEATS
                           ? ui->m.names[ui->kp_seat]
                           : "";
    if (ui->kp_confirm)
        snprintf(buf, sizeof buf, "SEAT %d%s%s: HOW MANY CHIPS?", ui->kp_seat,
                 name[0] ? " \xC2\xB7 " : "", name);
    else
        snprintf(buf, sizeof buf, "SEAT %d%s%s: %s", ui->kp_seat,
                 name[0] ? " \xC2\xB7 " : "", name,
                 ui->kp_word == FW_WORD_BET ? "BET" : "RAISE TO");
    int y = r.y + pad;
    int lh = line_h(ui, UI_FONT(UI_M, 1));
    text_fit(ui, UI_M, UI_XS, 1, buf, r.x + pad, y + lh / 2, AL_L,
             r.w - 2 * pad, C_TEXT);
    y += lh + (int)(0.5f * u);
    /* the amount so far */
    int dh = (int)(13 * u);
    SDL_Rect dr = {r.x + pad, y, r.w - 2 * pad, dh};
    rrect(ui, dr, (int)u, 0x0A0D10u);
    fw__ui_money(ui->kp_value, a);
    /* an amount under the minimum shows amber: the engine will read it
     * as the rules say, the dealer should know before sending it */
    uint32_t vc = !ui->kp_value ? C_FAINT
                  : (!ui->kp_confirm && ui->kp_lo != FW_NULL_AMOUNT &&
                     ui->kp_value < ui->kp_lo)
                      ? C_WARN
                      : C_TEXT;
    text_fit(ui, UI_XXL, UI_L, 1, ui->kp_value ? a : "0",
             dr.x + dr.w - pad, dr.y + dh / 2, AL_R, dr.w - 2 * pad, vc);
    y += dh + (int)(0.5f * u);
    int lhs = line_h(ui, UI_FONT(UI_XS, 0));
    fw__ui_money(ui->kp_lo, a);
    fw__ui_money(ui->kp_hi, b);
    if (ui->kp_confirm)
        snprintf(buf, sizeof buf, "The camera read between %s and %s.", a, b);
    else if (ui->kp_lo != FW_NULL_AMOUNT)
        snprintf(buf, sizeof buf, "Minimum %s, maximum %s (total bet).", a,
                 b);
    else
        buf[0] = '\0';
    text(ui, UI_FONT(UI_XS, 0), buf, r.x + pad, y + lhs / 2, AL_L,
         r.w - 2 * pad, C_DIM);
    y += lhs + (int)(0.8f * u);
    /* keys: 4 rows of digits, quick amounts, cancel / enter */
    int gap = (int)(1.0f * u);
    int rows = 6;
    int kh = (r.y + r.h - pad - y - (rows - 1) * gap) / rows;
    int kw = (r.w - 2 * pad - 2 * gap) / 3;
    static const int grid[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, KEY_00, 0,
                                 KEY_BACK};
    for (int i = 0; i < 12; i++) {
        SDL_Rect k = {r.x + pad + (i % 3) * (kw + gap),
                      y + (i / 3) * (kh + gap), kw, kh};
        char lab[8];
        if (grid[i] == KEY_00)
            snprintf(lab, sizeof lab, "00");
        else if (grid[i] == KEY_BACK)
            snprintf(lab, sizeof lab, "\xE2\x8C\xAB");
        else
            snprintf(lab, sizeof lab, "%d", grid[i]);
        button(ui, k, lab, NULL, 0x2C3640u, C_TEXT, T_KEY, grid[i], 1, UI_L);
    }
    y += 4 * (kh + gap);
    int hw = (r.w - 2 * pad - gap) / 2;
    SDL_Rect q1 = {r.x + pad, y, hw, kh}, q2 = {r.x + pad + hw + gap, y, hw,
                                               kh};
    if (ui->kp_confirm) {
        button(ui, q1, a, "as read (low)", C_BTN_BLUE, C_TEXT, T_CONFIRM, 0,
               1, UI_M);
        button(ui, q2, b, "as read (high)", C_BTN_BLUE, C_TEXT, T_CONFIRM, 1,
               1, UI_M);
    } else {
        button(ui, q1, "MIN", ui->kp_lo != FW_NULL_AMOUNT ? a : NULL,
               C_BTN_BLUE, C_TEXT, T_KEY, KEY_MIN,
               ui->kp_lo != FW_NULL_AMOUNT, UI_M);
        button(ui, q2, "MAX", ui->kp_hi != FW_NULL_AMOUNT ? b : NULL,
               C_BTN_BLUE, C_TEXT, T_KEY, KEY_MAX,
               ui->kp_hi != FW_NULL_AMOUNT, UI_M);
    }
    y += kh + gap;
    SDL_Rect c1 = {r.x + pad, y, hw, kh}, c2 = {r.x + pad + hw + gap, y, hw,
                                               kh};
    button(ui, c1, "CANCEL", NULL, C_BTN_GREY, C_TEXT, T_KEY, KEY_CANCEL, 1,
           UI_M);
    button(ui, c2, "ENTER", NULL, C_BTN_GREEN, C_TEXT, T_KEY, KEY_ENTER,
           ui->kp_value > 0, UI_M);
}

static void draw_picker(fw_ui *ui)
{
    float u = (float)ui->h / 100.0f;
    int pad = (int)(1.6f * u);
    SDL_Rect r = modal_frame(ui, ui->w - 2 * pad, ui->h - 2 * pad);
    char buf[96], seen[3];
    fw_card_str(ui->pick_seen, seen);
    if (ui->pick_to == FW_TO_BOARD)
        snprintf(buf, sizeof buf, "BOARD CARD READ AS %s: TAP THE RIGHT CARD",
                 ui->pick_seen == FW_CARD_NONE ? "?" : seen);
    else
        snprintf(buf, sizeof buf, "SEAT %d CARD READ AS %s: TAP THE RIGHT CARD",
                 ui->pick_seat, ui->pick_seen == FW_CARD_NONE ? "?" : seen);
    int y = r.y + pad;
    int lh = line_h(ui, UI_FONT(UI_M, 1));
    text_fit(ui, UI_M, UI_XS, 1, buf, r.x + pad, y + lh / 2, AL_L,
             r.w - 2 * pad - (int)(22 * u), C_TEXT);
    SDL_Rect cl = {r.x + r.w - pad - (int)(20 * u), y - (int)(0.5f * u),
                   (int)(20 * u), lh + (int)u};
    button(ui, cl, "CANCEL", NULL, C_BTN_GREY, C_TEXT, T_CLOSE, 0, 1, UI_S);
    y += lh + pad;
    int gap = (int)(0.8f * u);
    int cw = (r.w - 2 * pad - 12 * gap) / 13;
    int ch = (r.y + r.h - pad - y - 3 * gap) / 4;
    if (ch > cw * 3 / 2)
        ch = cw * 3 / 2;
    static const int suits[4] = {3, 2, 1, 0}; /* spades hearts diamonds clubs */
    for (int si = 0; si < 4; si++) {
        for (int rk = 12; rk >= 0; rk--) {
            fw_card c = fw_card_make(rk, suits[si]);
            SDL_Rect cr = {r.x + pad + (12 - rk) * (cw + gap),
                           y + si * (ch + gap), cw, ch};
            if (c == ui->pick_seen) {
                int hw = gap > 3 ? gap : 3;
                SDL_Rect hl = {cr.x - hw, cr.y - hw, cr.w + 2 * hw,
                               cr.h + 2 * hw};
                rrect(ui, hl, cw / 6, C_GOLD);
            }
            draw_card(ui, cr, c);
            target(ui, T_PICK, c, cr);
        }
    }
}

static void draw_history(fw_ui *ui, const lay *L)
{
    const ui_model *m = &ui->m;
    float u = L->u;
    int pad = L->pad;
    SDL_Rect area = {0, L->top.y + L->top.h, ui->w,
                     ui->h - L->top.y - L->top.h};
    fill(ui, area, 0x101419u);
    char buf[160], mon[32];
    int lh = line_h(ui, UI_FONT(UI_M, 1));
    int y = area.y + pad;
    text(ui, UI_FONT(UI_M, 1), "LAST HANDS", area.x + pad, y + lh / 2, AL_L,
         0, C_TEXT);
    text(ui, UI_FONT(UI_XS, 0), "tap a hand to see it", area.x + pad +
             text_w(ui, UI_FONT(UI_M, 1), "LAST HANDS") + pad,
         y + lh / 2, AL_L, 0, C_DIM);
    SDL_Rect cl = {area.x + area.w - pad - (int)(18 * u), y - (int)(0.5f * u),
                   (int)(18 * u), lh + (int)u};
    button(ui, cl, "CLOSE", NULL, C_BTN_GREY, C_TEXT, T_CLOSE, 0, 1, UI_S);
    y += lh + pad;
    int listw = (int)(area.w * 0.52f);
    int rowh = (area.y + area.h - pad - y) / UI_HISTORY;
    if (rowh > (int)(10 * u))
        rowh = (int)(10 * u);
    if (m->nhist == 0) {
        text(ui, UI_FONT(UI_S, 0), "No hand finished yet.", area.x + pad,
             y + rowh / 2, AL_L, 0, C_DIM);
        return;
    }
    if (ui->hist_sel >= m->nhist)
        ui->hist_sel = 0;
    for (int i = 0; i < m->nhist; i++) {
        const ui_hand_sum *h =
            &m->hist[(m->hist_head - i + UI_HISTORY) % UI_HISTORY];
        SDL_Rect rr = {area.x + pad, y + i * rowh, listw - pad, rowh - 2};
        rrect(ui, rr, (int)(0.8f * u),
              i == ui->hist_sel ? 0x2B3A47u : (i % 2 ? 0x161C22u : 0x1B2229u));
        int cy = rr.y + rr.h / 2;
        int x = rr.x + pad;
        snprintf(buf, sizeof buf, "#%d", h->hand);
        text(ui, UI_FONT(UI_S, 1), buf, x, cy, AL_L, 0, C_TEXT);
        x += (int)(9 * u);
        int cw = (int)((float)rowh * 0.6f);
        if (cw > (int)(5 * u))
            cw = (int)(5 * u);
        for (int k = 0; k < 5; k++) {
            SDL_Rect cr = {x + k * (cw + 2), cy - (int)(cw * 0.7f), cw,
                           (int)(cw * 1.4f)};
            if (k < h->nboard)
                draw_card(ui, cr, h->board[k]);
        }
        x += 5 * (cw + 2) + pad;
        fw__ui_money(h->pot, mon);
        text(ui, UI_FONT(UI_S, 1), mon, x, cy, AL_L, 0, C_GOLD);
        x += (int)(12 * u);
        int o = 0;
        buf[0] = '\0';
        for (int k = 0; k < h->nwinners && o < (int)sizeof buf - 8; k++) {
            int ws = h->winners[k];
            const char *nm = ws >= 1 && ws <= FW_MAX_SEATS ? m->names[ws] : "";
            if (nm[0])
                o += snprintf(buf + o, sizeof buf - (size_t)o, "%s%s",
                              k ? ", " : "", nm);
            else
                o += snprintf(buf + o, sizeof buf - (size_t)o, "%sseat %d",
                              k ? ", " : "", ws);
        }
        text(ui, UI_FONT(UI_S, 0), buf, x, cy, AL_L,
             rr.x + rr.w - x - pad - (int)(5 * u), C_TEXT);
        if (h->nstops || h->nwarns) {
            snprintf(buf, sizeof buf, "%d!", h->nstops + h->nwarns);
            pill(ui, UI_FONT(UI_XS, 1), buf, rr.x + rr.w - pad, cy, AL_R,
                 h->nstops ? C_STOP : C_WARN, h->nstops ? C_TEXT : C_INK);
        }
        target(ui, T_HIST_ROW, i, rr);
    }
    /* the chosen hand */
    const ui_hand_sum *h =
        &m->hist[(m->hist_head - ui->hist_sel + UI_HISTORY) % UI_HISTORY];
    SDL_Rect dr = {area.x + listw + pad, y, area.w - listw - 2 * pad,
                   area.y + area.h - pad - y};
    rrect(ui, dr, (int)u, C_PANEL);
    int x = dr.x + pad, w = dr.w - 2 * pad;
    int dy = dr.y + pad;
    snprintf(buf, sizeof buf, "HAND #%d \xC2\xB7 button seat %d", h->hand,
             h->button);
    text_fit(ui, UI_M, UI_XS, 1, buf, x, dy + lh / 2, AL_L, w, C_TEXT);
    dy += lh;
    int lhs = line_h(ui, UI_FONT(UI_S, 0));
    char lines[3][WRAP_LEN];
    for (int k = 0; k < h->nawards && k < UI_SUM_AWARDS; k++) {
        int nl = wrap(ui, UI_FONT(UI_S, 0), h->award[k], w, lines, 2);
        for (int j = 0; j < nl; j++, dy += lhs)
            text(ui, UI_FONT(UI_S, 0), lines[j], x, dy + lhs / 2, AL_L, w,
                 C_GOLD);
    }
    for (int k = 0; k < UI_SUM_ALERTS && k < h->nstops + h->nwarns; k++) {
        int nl = wrap(ui, UI_FONT(UI_S, 0), h->alert[k], w, lines, 2);
        for (int j = 0; j < nl; j++, dy += lhs)
            text(ui, UI_FONT(UI_S, 0), lines[j], x, dy + lhs / 2, AL_L, w,
                 C_WARN);
    }
    dy += lhs / 2;
    int colw = w / 2;
    for (int k = 0; k < h->nseats; k++) {
        int s = h->seats[k];
        const char *nm = s >= 1 && s <= FW_MAX_SEATS ? m->names[s] : "";
        char d[32];
        fw__ui_money(h->stacks[k], mon);
        if (h->delta[k] > 0) {
            fw__ui_money(h->delta[k], d);
            snprintf(buf, sizeof buf, "%d %s  %s  +%s", s, nm, mon, d);
        } else if (h->delta[k] < 0) {
            fw__ui_money(-h->delta[k], d);
            snprintf(buf, sizeof buf, "%d %s  %s  -%s", s, nm, mon, d);
        } else {
            snprintf(buf, sizeof buf, "%d %s  %s", s, nm, mon);
        }
        int row = k / 2, col = k % 2;
        int ty = dy + row * lhs + lhs / 2;
        if (ty > dr.y + dr.h - lhs / 2)
            break;
        text(ui, UI_FONT(UI_S, 0), buf, x + col * colw, ty, AL_L, colw - pad,
             h->delta[k] > 0 ? 0x81C784u
                             : (h->delta[k] < 0 ? 0xEF9A9Au : C_DIM));
    }
}

/* ------------------------------------------------------------------ */
/* The frame                                                            */
/* ------------------------------------------------------------------ */

int fw__ui_draw(fw_ui *ui)
{
    ui->ntargets = 0;
    SDL_SetRenderDrawBlendMode(ui->ren, SDL_BLENDMODE_BLEND);
    set_color(ui, C_BG, 255);
    SDL_RenderClear(ui->ren);
    banner_text bt;
    lay L;
    memset(&L, 0, sizeof L);
    L.u = (float)ui->h / 100.0f;
    L.pad = (int)(1.4f * L.u + 0.5f);
    banner_measure(ui, &L, &bt);
    layout(ui, &L, &bt);
    if (ui->view == V_HISTORY) {
        draw_banner(ui, &L, &bt);
        draw_top(ui, &L);
        ui->ntargets = 0; /* only the recall view takes taps */
        draw_history(ui, &L);
        return FW_OK;
    }
    draw_table(ui, &L);
    draw_panel(ui, &L);
    draw_bottom(ui, &L);
    draw_top(ui, &L);
    draw_banner(ui, &L, &bt);
    if (ui->view == V_KEYPAD) {
        ui->ntargets = 0;
        draw_keypad(ui);
    } else if (ui->view == V_CARD) {
        ui->ntargets = 0;
        draw_picker(ui);
    }
    return FW_OK;
}
