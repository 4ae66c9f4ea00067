/*
 * calibration.c - load, validate and use a table calibration (JSON through
 * jansson). Every field is checked for kind and range; the first problem is
 * reported with its path in the document ("zones.seats[2].bet[1]").
 */
#include "calibration.h"

#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct poly {
    int n;
    double p[FW_CALIB_MAX_POLY][2];
} poly;

struct fw_calib {
    int width, height;
    double felt_w, felt_h;
    double h[9];   /* image -> felt */
    double inv[9]; /* felt -> image */
    int nseats;
    int seat_no[FW_CALIB_MAX_SEATS];
    poly cards[FW_CALIB_MAX_SEATS], bet[FW_CALIB_MAX_SEATS];
    poly board, burn, muck, deck;
    int nchips;
    fw_calib_chip chips[FW_CALIB_MAX_CHIPS];
};

/* Where the parser is and where its first error goes. */
typedef struct ctx {
    const char *name;
    char *err;
    size_t errsz;
} ctx;

static int fail(const ctx *c, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(const ctx *c, const char *path, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->err && c->errsz)
        snprintf(c->err, c->errsz, "%s: %s: %s", c->name, path, msg);
    return fw_set_error(FW_EPARSE, "%s: %s: %s", c->name, path, msg);
}

/* A finite number, optionally within [lo, hi]. */
static int get_number(const ctx *c, const json_t *v, const char *path,
                      double lo, double hi, double *out)
{
    if (!json_is_number(v))
        return fail(c, path, "must be a number");
    double x = json_number_value(v);
    if (!isfinite(x) || x < lo || x > hi)
        return fail(c, path, "must be between %g and %g", lo, hi);
    *out = x;
    return FW_OK;
}

static int get_point(const ctx *c, const json_t *v, const char *path,
                     double out[2])
{
    char sub[200];
    if (!json_is_array(v) || json_array_size(v) != 2)
        return fail(c, path, "must be [x, y]");
    for (int i = 0; i < 2; i++) {
        snprintf(sub, sizeof sub, "%s[%d]", path, i);
        int rc = get_number(c, json_array_get(v, (size_t)i), sub, -1e6, 1e6,
                            &out[i]);
        if (rc)
            return rc;
    }
    return FW_OK;
}

static int get_poly(const ctx *c, const json_t *v, const char *path,
                    poly *out)
{
    char sub[180];
    if (!json_is_array(v))
        return fail(c, path, "must be a list of [x, y] points");
    size_t n = json_array_size(v);
    if (n < 3)
        return fail(c, path, "a polygon needs at least 3 points");
    if (n > FW_CALIB_MAX_POLY)
        return fail(c, path, "at most %d points", FW_CALIB_MAX_POLY);
    out->n = (int)n;
    for (size_t i = 0; i < n; i++) {
        snprintf(sub, sizeof sub, "%s[%zu]", path, i);
        int rc = get_point(c, json_array_get(v, i), sub, out->p[i]);
        if (rc)
            return rc;
    }
    return FW_OK;
}

static const json_t *need(const ctx *c, const json_t *obj, const char *key,
                          const char *path, int *rc)
{
    const json_t *v = json_object_get(obj, key);
    if (!v)
        *rc = fail(c, path, "missing");
    return v;
}

/* Solve the 8x8 system A x = b by Gaussian elimination with pivoting. */
static int solve8(double a[8][9])
{
    for (int col = 0; col < 8; col++) {
        int best = col;
        for (int r = col + 1; r < 8; r++)
            if (fabs(a[r][col]) > fabs(a[best][col]))
                best = r;
        if (fabs(a[best][col]) < 1e-12)
            return FW_EINVAL;
        if (best != col)
            for (int k = 0; k < 9; k++) {
                double t = a[col][k];
                a[col][k] = a[best][k];
                a[best][k] = t;
            }
        for (int r = 0; r < 8; r++) {
            if (r == col)
                continue;
            double f = a[r][col] / a[col][col];
            for (int k = col; k < 9; k++)
                a[r][k] -= f * a[col][k];
        }
    }
    for (int r = 0; r < 8; r++)
        a[r][8] /= a[r][r];
    return FW_OK;
}

int fw_calib_homography(const double src[4][2], const double dst[4][2],
                        double h[9])
{
    double a[8][9];
    for (int i = 0; i < 4; i++) {
        double x = src[i][0], y = src[i][1], u = dst[i][0], v = dst[i][1];
        double r1[9] = {x, y, 1, 0, 0, 0, -u * x, -u * y, u};
        double r2[9] = {0, 0, 0, x, y, 1, -v * x, -v * y, v};
        memcpy(a[2 * i], r1, sizeof r1);
        memcpy(a[2 * i + 1], r2, sizeof r2);
    }
    if (solve8(a) != FW_OK)
        return fw_set_error(FW_EINVAL, "the four points are degenerate");
    for (int i = 0; i < 8; i++)
        h[i] = a[i][8];
    h[8] = 1.0;
    return FW_OK;
}

static void apply_h(const double h[9], double x, double y, double *u,
                    double *v)
{
    double w = h[6] * x + h[7] * y + h[8];
    if (fabs(w) < 1e-12)
        w = 1e-12;
    *u = (h[0] * x + h[1] * y + h[2]) / w;
    *v = (h[3] * x + h[4] * y + h[5]) / w;
}

static int parse_doc(const ctx *c, const json_t *root, fw_calib *k)
{
    int rc = FW_OK;
    double x = 0;
    char path[160];
    if (!json_is_object(root))
        return fail(c, "(document)", "must be a JSON object");

    const json_t *ver = need(c, root, "version", "version", &rc);
    if (rc)
        return rc;
    if (!json_is_integer(ver) || json_integer_value(ver) != 1)
        return fail(c, "version", "must be 1 (the only version known)");

    const json_t *img = need(c, root, "image", "image", &rc);
    if (rc)
        return rc;
    if ((rc = get_number(c, json_object_get(img, "width"), "image.width", 16,
                         20000, &x)))
        return rc;
    k->width = (int)x;
    if ((rc = get_number(c, json_object_get(img, "height"), "image.height",
                         16, 20000, &x)))
        return rc;
    k->height = (int)x;

    const json_t *felt = need(c, root, "felt", "felt", &rc);
    if (rc)
        return rc;
    const json_t *size = json_object_get(felt, "size_mm");
    double sz[2];
    if ((rc = get_point(c, size, "felt.size_mm", sz)))
        return rc;
    if (sz[0] < 100 || sz[1] < 100)
        return fail(c, "felt.size_mm", "the felt must be at least 100 mm");
    k->felt_w = sz[0];
    k->felt_h = sz[1];
    const json_t *corners = json_object_get(felt, "corners_px");
    if (!json_is_array(corners) || json_array_size(corners) != 4)
        return fail(c, "felt.corners_px",
                    "must be the felt's four corners in the image, "
                    "clockwise from top left: [[x, y] x 4]");
    double src[4][2];
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "felt.corners_px[%d]", i);
        if ((rc = get_point(c, json_array_get(corners, (size_t)i), path,
                            src[i])))
            return rc;
        if (src[i][0] < 0 || src[i][1] < 0 || src[i][0] > k->width ||
            src[i][1] > k->height)
            return fail(c, path, "outside the %dx%d image", k->width,
                        k->height);
    }
    double dst[4][2] = {{0, 0}, {sz[0], 0}, {sz[0], sz[1]}, {0, sz[1]}};
    if (fw_calib_homography(src, dst, k->h) != FW_OK ||
        fw_calib_homography(dst, src, k->inv) != FW_OK)
        return fail(c, "felt.corners_px",
                    "the four corners do not make a quadrilateral");

    const json_t *zones = need(c, root, "zones", "zones", &rc);
    if (rc)
        return rc;
    const json_t *seats = json_object_get(zones, "seats");
    if (!json_is_array(seats) || json_array_size(seats) < 2 ||
        json_array_size(seats) > FW_CALIB_MAX_SEATS)
        return fail(c, "zones.seats", "must list 2 to %d seats",
                    FW_CALIB_MAX_SEATS);
    k->nseats = (int)json_array_size(seats);
    for (int i = 0; i < k->nseats; i++) {
        const json_t *s = json_array_get(seats, (size_t)i);
        snprintf(path, sizeof path, "zones.seats[%d].seat", i);
        const json_t *no = json_object_get(s, "seat");
        if (!json_is_integer(no) || json_integer_value(no) < 1 ||
            json_integer_value(no) > FW_CALIB_MAX_SEATS)
            return fail(c, path, "must be a seat number 1-%d",
                        FW_CALIB_MAX_SEATS);
        k->seat_no[i] = (int)json_integer_value(no);
        for (int j = 0; j < i; j++)
            if (k->seat_no[j] == k->seat_no[i])
                return fail(c, path, "seat %d is listed twice",
                            k->seat_no[i]);
        snprintf(path, sizeof path, "zones.seats[%d].cards", i);
        if ((rc = get_poly(c, json_object_get(s, "cards"), path,
                           &k->cards[i])))
            return rc;
        snprintf(path, sizeof path, "zones.seats[%d].bet", i);
        if ((rc = get_poly(c, json_object_get(s, "bet"), path, &k->bet[i])))
            return rc;
    }
    static const char *names[] = {"board", "burn", "muck", "deck"};
    poly *polys[] = {&k->board, &k->burn, &k->muck, &k->deck};
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "zones.%s", names[i]);
        if ((rc = get_poly(c, json_object_get(zones, names[i]), path,
                           polys[i])))
            return rc;
    }

    const json_t *chips = json_object_get(root, "chips");
    if (chips) {
        if (!json_is_array(chips) ||
            json_array_size(chips) > FW_CALIB_MAX_CHIPS)
            return fail(c, "chips", "must be a list of at most %d chips",
                        FW_CALIB_MAX_CHIPS);
        k->nchips = (int)json_array_size(chips);
        for (int i = 0; i < k->nchips; i++) {
            const json_t *ch = json_array_get(chips, (size_t)i);
            fw_calib_chip *out = &k->chips[i];
            snprintf(path, sizeof path, "chips[%d].value", i);
            const json_t *v = json_object_get(ch, "value");
            if (!json_is_integer(v) || json_integer_value(v) <= 0)
                return fail(c, path, "must be a positive integer");
            out->value = json_integer_value(v);
            snprintf(path, sizeof path, "chips[%d].color", i);
            const char *col = json_string_value(json_object_get(ch, "color"));
            if (!col || !col[0] || strlen(col) >= sizeof out->color)
                return fail(c, path, "must be a colour name (1-15 bytes)");
            snprintf(out->color, sizeof out->color, "%s", col);
            const json_t *lab = json_object_get(ch, "lab");
            if (lab) {
                if (!json_is_array(lab) || json_array_size(lab) != 3)
                    return fail(c, path, "lab must be [L, a, b]");
                for (int j = 0; j < 3; j++) {
                    snprintf(path, sizeof path, "chips[%d].lab[%d]", i, j);
                    if ((rc = get_number(c, json_array_get(lab, (size_t)j),
                                         path, j == 0 ? 0 : -128,
                                         j == 0 ? 100 : 127, &x)))
                        return rc;
                    out->lab[j] = (float)x;
                }
            }
        }
    }
    return FW_OK;
}

int fw_calib_parse(const char *json, size_t len, const char *name,
                   fw_calib **out, char *err, size_t errsz)
{
    *out = NULL;
    ctx c = {name ? name : "calibration", err, errsz};
    json_error_t jerr;
    json_t *root = json_loadb(json, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        char where[64];
        snprintf(where, sizeof where, "line %d column %d", jerr.line,
                 jerr.column);
        return fail(&c, where, "not valid JSON: %s", jerr.text);
    }
    fw_calib *k = calloc(1, sizeof *k);
    if (!k) {
        json_decref(root);
        return fw_set_error(FW_ENOMEM, "out of memory");
    }
    int rc = parse_doc(&c, root, k);
    json_decref(root);
    if (rc) {
        free(k);
        return rc;
    }
    *out = k;
    return FW_OK;
}

int fw_calib_load(const char *path, fw_calib **out, char *err, size_t errsz)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (err && errsz)
            snprintf(err, errsz, "%s: cannot open", path);
        return fw_set_error(FW_EIO, "%s: cannot open", path);
    }
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 > cap) {
            if (cap >= (size_t)16 << 20) {
                free(buf);
                fclose(f);
                if (err && errsz)
                    snprintf(err, errsz, "%s: larger than 16 MB", path);
                return fw_set_error(FW_EPARSE, "%s: larger than 16 MB", path);
            }
            cap = cap ? cap * 2 : 8192;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return fw_set_error(FW_ENOMEM, "out of memory");
            }
            buf = nb;
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        if (err && errsz)
            snprintf(err, errsz, "%s: read error", path);
        return fw_set_error(FW_EIO, "%s: read error", path);
    }
    int rc = fw_calib_parse(buf ? buf : "", len, path, out, err, errsz);
    free(buf);
    return rc;
}

int fw_calib_default(fw_calib **out)
{
    const char *json = fw_calib_default_json();
    return fw_calib_parse(json, strlen(json), "default calibration", out,
                          NULL, 0);
}

void fw_calib_free(fw_calib *c)
{
    free(c);
}

int fw_calib_seats(const fw_calib *c)
{
    return c->nseats;
}

void fw_calib_to_felt(const fw_calib *c, double x, double y, double *fx,
                      double *fy)
{
    apply_h(c->h, x, y, fx, fy);
}

void fw_calib_to_image(const fw_calib *c, double fx, double fy, double *x,
                       double *y)
{
    apply_h(c->inv, fx, fy, x, y);
}

/* Even-odd rule: is the point inside the polygon? */
static bool inside(const poly *p, double x, double y)
{
    bool in = false;
    for (int i = 0, j = p->n - 1; i < p->n; j = i++) {
        double xi = p->p[i][0], yi = p->p[i][1];
        double xj = p->p[j][0], yj = p->p[j][1];
        if ((yi > y) != (yj > y) &&
            x < (xj - xi) * (y - yi) / (yj - yi) + xi)
            in = !in;
    }
    return in;
}

fw_zone fw_calib_zone_at(const fw_calib *c, double fx, double fy)
{
    fw_zone z = {FW_ZONE_NONE, 0};
    /* the dealer's areas first: they are small and must win any overlap */
    if (inside(&c->deck, fx, fy))
        z.kind = FW_ZONE_DECK;
    else if (inside(&c->burn, fx, fy))
        z.kind = FW_ZONE_BURN;
    else if (inside(&c->muck, fx, fy))
        z.kind = FW_ZONE_MUCK;
    else if (inside(&c->board, fx, fy))
        z.kind = FW_ZONE_BOARD;
    if (z.kind != FW_ZONE_NONE)
        return z;
    for (int i = 0; i < c->nseats; i++) {
        if (inside(&c->cards[i], fx, fy))
            return (fw_zone){FW_ZONE_SEAT_CARDS, c->seat_no[i]};
        if (inside(&c->bet[i], fx, fy))
            return (fw_zone){FW_ZONE_SEAT_BET, c->seat_no[i]};
    }
    return z;
}

int fw_calib_chips(const fw_calib *c, const fw_calib_chip **chips)
{
    *chips = c->chips;
    return c->nchips;
}
