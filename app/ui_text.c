/* ui_text.c - the dealer screen's fonts and its cache of text textures. */
#include "ui_int.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * Font heights in thousandths of the screen's height: at 800x480 the
 * smallest text is 16 px, the pot and the amount to call 44-58 px; at
 * 1920x1080 everything is 2.25 times that. Chosen on a 7-inch 800x480
 * panel read at arm's length.
 */
static const int size_permille[UI_NSIZES] = {34, 42, 52, 68, 94, 124};

/* Places DejaVu Sans (or a metric-compatible sans) lives on common
 * distributions; Debian's fonts-dejavu-core is the first. */
static const char *const font_places[] = {
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
    "/usr/local/share/fonts/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/freefont/FreeSans.ttf",
};

static int readable(const char *p)
{
    return p && p[0] && access(p, R_OK) == 0;
}

/*
 * Derive the bold face's file from the regular one's: "X-Regular.ttf" or
 * "X.ttf" become "X-Bold.ttf", "FreeSans.ttf" becomes "FreeSansBold.ttf".
 * Leaves out empty when there is no such file; the regular face is then
 * drawn with SDL_ttf's synthetic bold.
 */
static void bold_beside(const char *regular, char *out, size_t size)
{
    out[0] = '\0';
    size_t n = strlen(regular);
    if (n < 4 || n + 16 > size || strcmp(regular + n - 4, ".ttf") != 0)
        return;
    const char *suffixes[] = {"-Bold.ttf", "Bold.ttf"};
    size_t stem = n - 4;
    if (stem > 8 && strncmp(regular + stem - 8, "-Regular", 8) == 0)
        stem -= 8;
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        snprintf(out, size, "%.*s%s", (int)stem, regular, suffixes[i]);
        if (readable(out))
            return;
    }
    out[0] = '\0';
}

int fw__ui_fonts_find(fw_ui *ui, const char *path)
{
    const char *found = NULL;
    const char *env = getenv("FELTWATCH_FONT");
    if (path && path[0]) {
        if (!readable(path))
            return fw_set_error(FW_ENOENT, "font %s: cannot be read", path);
        found = path;
    } else if (env && env[0]) {
        if (!readable(env))
            return fw_set_error(FW_ENOENT,
                                "font %s (FELTWATCH_FONT): cannot be read",
                                env);
        found = env;
    } else {
        for (size_t i = 0; i < sizeof font_places / sizeof font_places[0];
             i++) {
            if (readable(font_places[i])) {
                found = font_places[i];
                break;
            }
        }
    }
    if (!found)
        return fw_set_error(
            FW_ENOENT,
            "no font found: tried %s, %s, %s and %d more; install Debian's "
            "fonts-dejavu-core or set FELTWATCH_FONT to a .ttf file",
            font_places[0], font_places[1], font_places[2],
            (int)(sizeof font_places / sizeof font_places[0]) - 3);
    if (strlen(found) >= sizeof ui->font_regular)
        return fw_set_error(FW_EINVAL, "font path too long");
    snprintf(ui->font_regular, sizeof ui->font_regular, "%s", found);
    bold_beside(found, ui->font_bold, sizeof ui->font_bold);
    return FW_OK;
}

void fw__ui_fonts_close(fw_ui *ui)
{
    fw__ui_text_flush(ui);
    for (int i = 0; i < UI_NFONTS; i++) {
        if (ui->font[i])
            TTF_CloseFont(ui->font[i]);
        ui->font[i] = NULL;
    }
    ui->font_h = 0;
}

int fw__ui_fonts_open(fw_ui *ui)
{
    if (ui->font_h == ui->h && ui->font[0])
        return FW_OK;
    fw__ui_fonts_close(ui);
    for (int s = 0; s < UI_NSIZES; s++) {
        int px = (ui->h * size_permille[s] + 500) / 1000;
        if (px < 12)
            px = 12;
        for (int b = 0; b < 2; b++) {
            const char *file =
                b && ui->font_bold[0] ? ui->font_bold : ui->font_regular;
            TTF_Font *f = TTF_OpenFont(file, px);
            if (!f) {
                fw__ui_fonts_close(ui);
                return fw_set_error(FW_EIO, "font %s: %s", file,
                                    TTF_GetError());
            }
            if (b && !ui->font_bold[0])
                TTF_SetFontStyle(f, TTF_STYLE_BOLD);
            TTF_SetFontHinting(f, TTF_HINTING_LIGHT);
            ui->font[UI_FONT(s, b)] = f;
            ui->font_px[UI_FONT(s, b)] = px;
        }
    }
    ui->font_h = ui->h;
    return FW_OK;
}

void fw__ui_text_flush(fw_ui *ui)
{
    memset(ui->measure, 0, sizeof ui->measure);
    for (int i = 0; i < UI_TEXT_CACHE; i++) {
        if (ui->text[i].tex)
            SDL_DestroyTexture(ui->text[i].tex);
        memset(&ui->text[i], 0, sizeof ui->text[i]);
    }
}

static uint64_t text_hash(int font, const char *s, int *len)
{
    uint64_t h = 1469598103934665603u ^ (uint64_t)(font + 1);
    int n = 0;
    for (; s[n]; n++) {
        h ^= (unsigned char)s[n];
        h *= 1099511628211u;
    }
    *len = n;
    return h;
}

/*
 * The texture of string s in font `font`, rendered on first use and kept
 * until it is the least recently used of a full cache. A tinted texture
 * (drawn with a colour modulation) is kept apart from the one drawn in
 * plain white: switching a surface between the two makes SDL's software
 * blitter rebuild, and allocate, its blit map. Returns NULL for an empty
 * string or when SDL_ttf cannot render it (the frame goes on without that
 * text). The texture is owned by the cache.
 */
ui_text *fw__ui_text(fw_ui *ui, int font, const char *s, int tinted)
{
    if (!s || !s[0] || font < 0 || font >= UI_NFONTS || !ui->font[font])
        return NULL;
    int len;
    uint64_t h = text_hash(font, s, &len);
    if (tinted)
        h ^= 0x9E3779B97F4A7C15u;
    int victim = -1, have_empty = 0;
    uint32_t oldest = UINT32_MAX;
    for (int i = 0; i < UI_TEXT_CACHE; i++) {
        ui_text *t = &ui->text[i];
        if (!t->tex) {
            if (!have_empty) {
                victim = i;
                have_empty = 1;
            }
            continue;
        }
        if (t->hash == h && t->font == font && t->len == len &&
            t->tinted == tinted &&
            (len >= UI_TEXT_KEY || memcmp(t->key, s, (size_t)len) == 0)) {
            t->used = ui->frame;
            return t;
        }
        if (!have_empty && t->used < oldest) {
            oldest = t->used;
            victim = i;
        }
    }
    /* UTF-8 text only: a misplaced byte renders as a box, not a failure */
    SDL_Color white = {255, 255, 255, 255};
    SDL_Surface *surf = TTF_RenderUTF8_Blended(ui->font[font], s, white);
    if (!surf)
        return NULL;
    SDL_Texture *tex = SDL_CreateTextureFromSurface(ui->ren, surf);
    int w = surf->w, hh = surf->h;
    SDL_FreeSurface(surf);
    if (!tex)
        return NULL;
    SDL_SetTextureBlendMode(tex, SDL_BLENDMODE_BLEND);
    ui_text *t = &ui->text[victim];
    if (t->tex)
        SDL_DestroyTexture(t->tex);
    t->tex = tex;
    t->hash = h;
    t->font = font;
    t->tinted = tinted;
    t->len = len;
    t->w = w;
    t->h = hh;
    t->used = ui->frame;
    if (len < UI_TEXT_KEY)
        memcpy(t->key, s, (size_t)len + 1);
    else
        t->key[0] = '\0';
    return t;
}

/*
 * The width of s in font `font`, in pixels (0 for an empty string or a
 * failure), from a direct-mapped cache of earlier measurements: shaping a
 * string allocates, and a frame measures the same strings as the last.
 */
int fw__ui_text_width(fw_ui *ui, int font, const char *s)
{
    if (!s || !s[0] || font < 0 || font >= UI_NFONTS || !ui->font[font])
        return 0;
    int len;
    uint64_t h = text_hash(font, s, &len);
    /* two-way set associative: strings that share a set do not evict
     * each other every frame */
    ui_measure *set = &ui->measure[(h % (UI_MEASURE_CACHE / 2)) * 2];
    for (int k = 0; k < 2; k++) {
        ui_measure *m = &set[k];
        if (m->hash == h && m->font == font && m->len == len) {
            m->used = ui->frame;
            return m->w;
        }
    }
    ui_measure *m = set[0].used <= set[1].used ? &set[0] : &set[1];
    int w = 0, hh = 0;
    if (TTF_SizeUTF8(ui->font[font], s, &w, &hh) != 0)
        w = 0;
    m->hash = h;
    m->font = font;
    m->len = len;
    m->w = w;
    m->used = ui->frame;
    return w;
}
