/*
 * sim_art.c - rasterise the Debian card decks with librsvg, cache as PNG.
 */
#include "sim_art.h"

#include "fw_error.h"

#include <cairo.h>
#include <librsvg/rsvg.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define KDE "/usr/share/carddecks/"
#define AR "/usr/share/aisleriot/cards/"

/*
 * Every French-suited deck in the two packages. Decks that share face art
 * (a bitmap and a vector version, two colourings, the same design packaged
 * twice) share a family, so a held-out family really is unseen. court_index
 * is 0 for guyenne-classic, whose court cards carry no rank letter (its suit
 * index is still usable); decks whose letters are not J Q K (B D K, V D R,
 * Cyrillic) are kept: the classifier learns those letters too. Left out:
 * svg-xskat-german and aisleriot's tarocco and swiss-xvii (not French
 * suited), svg-future (no standard corner index), svg-konqi-modern and
 * svg-penguins (72x96 bitmaps), tango_nuevo (suit beside the rank).
 */
static const fw_deck_info decks[] = {
    {"kde-ancient-egyptians", KDE "svg-ancient-egyptians/Ancient_Egyptians.svgz",
     0, "egyptians", 1},
    {"kde-dondorf", KDE "svg-dondorf/dondorf.svgz", 0, "dondorf", 1},
    {"kde-gm-paris", KDE "svg-gm-paris/paris.svgz", 0, "paris", 1},
    {"kde-jolly-royal", KDE "svg-jolly-royal/jolly-royal.svgz", 0, "jolly",
     1},
    {"kde-nicu-ornamental", KDE "svg-nicu-ornamental/ornamental.svgz", 0,
     "ornamental", 1},
    {"kde-nicu-white", KDE "svg-nicu-white/white.svgz", 0, "ornamental", 1},
    {"kde-oxygen", KDE "svg-oxygen/oxygen.svgz", 0, "oxygen", 1},
    {"kde-oxygen-air", KDE "svg-oxygen-air/oxygen-air.svgz", 0, "oxygen", 1},
    {"kde-oxygen-white", KDE "svg-oxygen-white/oxygen-white.svgz", 0,
     "oxygen", 1},
    {"kde-standard", KDE "svg-standard/standard.svgz", 0, "kde-standard", 1},
    {"kde-tigullio-international",
     KDE "svg-tigullio-international/tigullio-international.svgz", 0,
     "tigullio", 1},
    {"kde-xskat-french", KDE "svg-xskat-french/french.svgz", 0, "xskat", 1},
    {"ar-ancient-french", AR "ancient_french.svgz", 1, "ancient-french", 1},
    {"ar-anglo", AR "anglo.svgz", 1, "anglo", 1},
    {"ar-anglo-bitmap", AR "anglo_bitmap.svgz", 1, "anglo", 1},
    {"ar-gnomangelo", AR "gnomangelo.svgz", 1, "anglo", 1},
    {"ar-gnomangelo-bitmap", AR "gnomangelo_bitmap.svgz", 1, "anglo", 1},
    {"ar-anglo-modern", AR "anglo_modern.svgz", 1, "anglo-modern", 1},
    {"ar-anglo-modern-4-color", AR "anglo_modern_4_color.svgz", 1,
     "anglo-modern", 1},
    {"ar-anglo-poker", AR "anglo_poker.svgz", 1, "anglo-poker", 1},
    {"ar-atlasnye", AR "atlasnye.svgz", 1, "atlasnye", 1},
    {"ar-atlasnye-skat", AR "atlasnye_skat.svgz", 1, "atlasnye", 1},
    {"ar-bellot", AR "bellot.svgz", 1, "bellot", 1},
    {"ar-berlin", AR "berlin.svgz", 1, "berlin", 1},
    {"ar-dondorf", AR "dondorf.svgz", 1, "dondorf", 1},
    {"ar-guyenne-classic", AR "guyenne-classic.svgz", 1, "guyenne", 0},
    {"ar-lattmann", AR "lattmann.svgz", 1, "lattmann", 1},
    {"ar-neoclassical", AR "neoclassical.svgz", 1, "neoclassical", 1},
    {"ar-neoclassical-4-color", AR "neoclassical_4_color.svgz", 1,
     "neoclassical", 1},
    {"ar-orell", AR "orell.svgz", 1, "orell", 1},
    {"ar-ornamental", AR "ornamental.svgz", 1, "ornamental", 1},
    {"ar-paris", AR "paris.svgz", 1, "paris", 1},
    {"ar-plastic", AR "plastic.svgz", 1, "plastic", 1},
    {"ar-rheinland", AR "rheinland.svgz", 1, "rheinland", 1},
    {"ar-simplistic", AR "simplistic.svgz", 1, "simplistic", 1},
    {"ar-slavic-costumes", AR "slavic_costumes.svgz", 1, "slavic", 1},
    {"ar-tango", AR "tango.svgz", 1, "tango", 1},
    {"ar-tigullio", AR "tigullio.svgz", 1, "tigullio", 1},
};

#define NDECKS ((int)(sizeof(decks) / sizeof(decks[0])))

int fw__deck_count(void) { return NDECKS; }

const fw_deck_info *fw__deck_get(int i)
{
    return (i >= 0 && i < NDECKS) ? &decks[i] : NULL;
}

const fw_deck_info *fw__deck_find(const char *name)
{
    for (int i = 0; name && i < NDECKS; i++)
        if (strcmp(decks[i].name, name) == 0)
            return &decks[i];
    return NULL;
}

/*
 * The families held out of training: every deck of these families is only
 * ever used to measure. All five use J Q K letters, so a reader trained on
 * the others can be expected to read them; together they cover a plain
 * modern index (simplistic), two classic French patterns (bellot, tigullio),
 * a poker deck (anglo-poker) and a bold cartoon deck (ornamental).
 */
static const char *const held_out_families[] = {
    "anglo-poker", "bellot", "ornamental", "simplistic", "tigullio"};

int fw__deck_held_out(const fw_deck_info *d)
{
    for (size_t i = 0;
         d && i < sizeof held_out_families / sizeof held_out_families[0]; i++)
        if (strcmp(d->family, held_out_families[i]) == 0)
            return 1;
    return 0;
}

int fw__deck_installed(const fw_deck_info *d)
{
    return d && access(d->path, R_OK) == 0;
}

int fw__deck_card_path(const fw_deck_info *d, const char *cache_dir,
                       int height, int card, char *out, size_t cap)
{
    if (!d || !cache_dir || card < 0 || card >= FW_DECK_CARDS)
        return fw_set_error(FW_EINVAL, "deck card path: bad argument");
    int n = snprintf(out, cap, "%s/%s/h%d/%02d.png", cache_dir, d->name,
                     height, card);
    if (n < 0 || (size_t)n >= cap)
        return fw_set_error(FW_ERANGE, "deck card path too long");
    return FW_OK;
}

/* mkdir -p for the directory part of PATH (everything before the last /). */
static int make_parents(const char *path)
{
    char buf[1024];
    size_t n = strlen(path);
    if (n >= sizeof buf)
        return FW_ERANGE;
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i < n; i++) {
        if (buf[i] != '/')
            continue;
        buf[i] = '\0';
        if (mkdir(buf, 0775) != 0 && errno != EEXIST)
            return fw_set_error(FW_EIO, "mkdir %s: %s", buf, strerror(errno));
        buf[i] = '/';
    }
    return FW_OK;
}

/*
 * Crop SRC to the bounding box of its non-transparent pixels and write it to
 * PATH through a temporary file, so a reader never sees half a PNG. The crop
 * removes the margin a sheet cell or an element's ink box may have around
 * the card.
 */
static int write_trimmed(cairo_surface_t *src, const char *path)
{
    cairo_surface_flush(src);
    int w = cairo_image_surface_get_width(src);
    int h = cairo_image_surface_get_height(src);
    int stride = cairo_image_surface_get_stride(src);
    const unsigned char *px = cairo_image_surface_get_data(src);
    int x0 = w, y0 = h, x1 = -1, y1 = -1;
    for (int y = 0; y < h; y++) {
        const unsigned char *row = px + (size_t)y * (size_t)stride;
        for (int x = 0; x < w; x++) {
            /* ARGB32 native endian: alpha is the high byte */
            unsigned int a = ((const unsigned int *)row)[x] >> 24;
            if (a > 40) {
                if (x < x0) x0 = x;
                if (x > x1) x1 = x;
                if (y < y0) y0 = y;
                if (y > y1) y1 = y;
            }
        }
    }
    if (x1 < x0 || y1 < y0)
        return fw_set_error(FW_EIO, "%s: the rendered card is empty", path);
    int cw = x1 - x0 + 1, ch = y1 - y0 + 1;
    cairo_surface_t *dst =
        cairo_image_surface_create(CAIRO_FORMAT_ARGB32, cw, ch);
    cairo_t *cr = cairo_create(dst);
    cairo_set_source_surface(cr, src, -x0, -y0);
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
    cairo_paint(cr);
    cairo_destroy(cr);
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    int rc = FW_OK;
    if (make_parents(path) != FW_OK ||
        cairo_surface_write_to_png(dst, tmp) != CAIRO_STATUS_SUCCESS ||
        rename(tmp, path) != 0) {
        unlink(tmp);
        rc = fw_set_error(FW_EIO, "cannot write %s", path);
    }
    cairo_surface_destroy(dst);
    return rc;
}

static const char *const suit_names[4] = {"club", "diamond", "heart",
                                          "spade"};
static const char *const rank_names[13] = {
    "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king",
    "1"};

/* The element id of card CARD in a one-id-per-card (KDE) deck. */
static void kde_id(int card, char *out, size_t cap)
{
    if (card == FW_DECK_BACK)
        snprintf(out, cap, "#back");
    else
        snprintf(out, cap, "#%s_%s", rank_names[card / 4],
                 suit_names[card % 4]);
}

/*
 * Render one element of a KDE deck, scaled to HEIGHT pixels, to PATH. The
 * element is rendered as a layer of the whole document (not in isolation):
 * the decks made of embedded bitmaps have no ink box of their own, and a
 * layer keeps the transforms of the element's ancestors.
 */
static int render_kde_card(RsvgHandle *h, int card, int height,
                           const char *path)
{
    char id[64];
    kde_id(card, id, sizeof id);
    double dw = 0, dh = 0;
    if (!rsvg_handle_get_intrinsic_size_in_pixels(h, &dw, &dh) || dw <= 0 ||
        dh <= 0)
        return fw_set_error(FW_EIO, "%s: the SVG has no size", id);
    RsvgRectangle doc = {0, 0, dw, dh}, ink, logical;
    GError *err = NULL;
    if (!rsvg_handle_get_geometry_for_layer(h, id, &doc, &ink, &logical,
                                            &err)) {
        int rc = fw_set_error(FW_EIO, "%s: %s", id,
                              err ? err->message : "no geometry");
        if (err)
            g_error_free(err);
        return rc;
    }
    /* embedded bitmaps (konqi, xskat) have a logical box but no ink */
    if (ink.width < 1 || ink.height < 1)
        ink = logical;
    int isolated = 0;
    if (ink.width < 1 || ink.height < 1) {
        /* tigullio-international: only the element alone has a box */
        if (!rsvg_handle_get_geometry_for_element(h, id, &ink, &logical,
                                                  NULL) ||
            ink.width < 1 || ink.height < 1)
            return fw_set_error(FW_EIO, "%s: empty element", id);
        isolated = 1;
    }
    double scale = (double)height / ink.height;
    int w = (int)(ink.width * scale + 4), hh = height + 4;
    cairo_surface_t *s =
        cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, hh);
    cairo_t *cr = cairo_create(s);
    int ok;
    if (isolated) {
        RsvgRectangle vp = {2, 2, ink.width * scale, ink.height * scale};
        ok = rsvg_handle_render_element(h, cr, id, &vp, &err);
    } else {
        RsvgRectangle vp = {2 - ink.x * scale, 2 - ink.y * scale, dw * scale,
                            dh * scale};
        ok = rsvg_handle_render_layer(h, cr, id, &vp, &err);
    }
    cairo_destroy(cr);
    int rc = FW_OK;
    if (!ok) {
        rc = fw_set_error(FW_EIO, "render %s: %s", id,
                          err ? err->message : "failed");
        if (err)
            g_error_free(err);
    } else {
        rc = write_trimmed(s, path);
    }
    cairo_surface_destroy(s);
    return rc;
}

/*
 * Render a whole aisleriot sheet (13 columns: ace..king; rows: clubs,
 * diamonds, hearts, spades, then jokers and the back in column 2) with each
 * cell HEIGHT pixels tall, and cut it into the cached cards.
 */
static int render_sheet(RsvgHandle *h, const fw_deck_info *d,
                        const char *cache_dir, int height)
{
    double dw = 0, dh = 0;
    if (!rsvg_handle_get_intrinsic_size_in_pixels(h, &dw, &dh) || dw <= 0 ||
        dh <= 0) {
        RsvgRectangle ink, logical;
        if (!rsvg_handle_get_geometry_for_layer(h, NULL,
                                                &(RsvgRectangle){0, 0, 1, 1},
                                                &ink, &logical, NULL))
            return fw_set_error(FW_EIO, "%s: no size", d->path);
        dw = logical.width;
        dh = logical.height;
    }
    double cellh = height * 1.0, cellw = cellh * (dw / 13.0) / (dh / 5.0);
    int W = (int)(cellw * 13 + 0.5), H = (int)(cellh * 5 + 0.5);
    cairo_surface_t *sheet =
        cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
    cairo_t *cr = cairo_create(sheet);
    RsvgRectangle vp = {0, 0, W, H};
    GError *err = NULL;
    int ok = rsvg_handle_render_document(h, cr, &vp, &err);
    cairo_destroy(cr);
    if (!ok) {
        int rc = fw_set_error(FW_EIO, "render %s: %s", d->path,
                              err ? err->message : "failed");
        if (err)
            g_error_free(err);
        cairo_surface_destroy(sheet);
        return rc;
    }
    int rc = FW_OK;
    for (int card = 0; card < FW_DECK_CARDS && rc == FW_OK; card++) {
        int col, row;
        if (card == FW_DECK_BACK) {
            col = 2;
            row = 4;
        } else {
            col = (card / 4 + 1) % 13; /* ace first in the sheet */
            row = card % 4;
        }
        int x0 = (int)(col * cellw + 0.5), y0 = (int)(row * cellh + 0.5);
        int x1 = (int)((col + 1) * cellw + 0.5);
        int y1 = (int)((row + 1) * cellh + 0.5);
        if (x1 > W) x1 = W;
        if (y1 > H) y1 = H;
        cairo_surface_t *cell =
            cairo_surface_create_for_rectangle(sheet, x0, y0, x1 - x0,
                                               y1 - y0);
        cairo_surface_t *img = cairo_image_surface_create(
            CAIRO_FORMAT_ARGB32, x1 - x0, y1 - y0);
        cairo_t *c2 = cairo_create(img);
        cairo_set_source_surface(c2, cell, 0, 0);
        cairo_paint(c2);
        cairo_destroy(c2);
        char path[1024];
        rc = fw__deck_card_path(d, cache_dir, height, card, path,
                                sizeof path);
        if (rc == FW_OK)
            rc = write_trimmed(img, path);
        cairo_surface_destroy(img);
        cairo_surface_destroy(cell);
    }
    cairo_surface_destroy(sheet);
    return rc;
}

int fw__deck_render(const fw_deck_info *d, const char *cache_dir, int height)
{
    if (!d || !cache_dir || height < 16 || height > 4096)
        return fw_set_error(FW_EINVAL, "deck render: bad argument");
    if (!fw__deck_installed(d))
        return fw_set_error(FW_ENOENT, "%s is not installed (%s)", d->name,
                            d->path);
    char path[1024];
    int missing = 0;
    for (int card = 0; card < FW_DECK_CARDS; card++) {
        int rc = fw__deck_card_path(d, cache_dir, height, card, path,
                                    sizeof path);
        if (rc != FW_OK)
            return rc;
        if (access(path, R_OK) != 0)
            missing++;
    }
    if (!missing)
        return FW_OK;
    GError *err = NULL;
    RsvgHandle *h = rsvg_handle_new_from_file(d->path, &err);
    if (!h) {
        int rc = fw_set_error(FW_EIO, "%s: %s", d->path,
                              err ? err->message : "cannot load");
        if (err)
            g_error_free(err);
        return rc;
    }
    int rc = FW_OK;
    if (d->sheet) {
        rc = render_sheet(h, d, cache_dir, height);
    } else {
        for (int card = 0; card < FW_DECK_CARDS && rc == FW_OK; card++) {
            rc = fw__deck_card_path(d, cache_dir, height, card, path,
                                    sizeof path);
            if (rc == FW_OK && access(path, R_OK) != 0)
                rc = render_kde_card(h, card, height, path);
        }
    }
    g_object_unref(h);
    return rc;
}
