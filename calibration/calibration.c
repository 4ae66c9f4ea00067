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
    int has_cam;
    fw_calib_camera cam;
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

/*
 * Read the `camera` object v into *cam. The matrix must be a pinhole camera
 * matrix (positive focal lengths, last row 0 0 1); when width and height are
 * known (not 0) the principal point must lie in the image. The distortion
 * has four or five coefficients (k3 is 0 when left out); rms is optional.
 */
static int get_camera(const ctx *c, const json_t *v, int width, int height,
                      fw_calib_camera *cam)
{
    char path[64];
    int rc;
    memset(cam, 0, sizeof *cam);
    if (!json_is_object(v))
        return fail(c, "camera", "must be an object with matrix, distortion");
    const json_t *m = json_object_get(v, "matrix");
    if (!json_is_array(m) || json_array_size(m) != 9)
        return fail(c, "camera.matrix",
                    "must be the 3x3 camera matrix, 9 numbers row by row");
    for (int i = 0; i < 9; i++) {
        snprintf(path, sizeof path, "camera.matrix[%d]", i);
        if ((rc = get_number(c, json_array_get(m, (size_t)i), path, -1e6,
                             1e6, &cam->matrix[i])))
            return rc;
    }
    if (cam->matrix[0] <= 0)
        return fail(c, "camera.matrix[0]", "fx must be positive");
    if (cam->matrix[4] <= 0)
        return fail(c, "camera.matrix[4]", "fy must be positive");
    if (cam->matrix[3] != 0 || cam->matrix[6] != 0 || cam->matrix[7] != 0 ||
        cam->matrix[8] != 1)
        return fail(c, "camera.matrix",
                    "must be [fx, s, cx, 0, fy, cy, 0, 0, 1]");
    if (width > 0 && (cam->matrix[2] < 0 || cam->matrix[2] > width))
        return fail(c, "camera.matrix[2]", "cx outside the %dx%d image",
                    width, height);
    if (height > 0 && (cam->matrix[5] < 0 || cam->matrix[5] > height))
        return fail(c, "camera.matrix[5]", "cy outside the %dx%d image",
                    width, height);
    const json_t *d = json_object_get(v, "distortion");
    if (!json_is_array(d) ||
        (json_array_size(d) != 4 && json_array_size(d) != 5))
        return fail(c, "camera.distortion",
                    "must be [k1, k2, p1, p2] or [k1, k2, p1, p2, k3]");
    for (size_t i = 0; i < json_array_size(d); i++) {
        snprintf(path, sizeof path, "camera.distortion[%zu]", i);
        if ((rc = get_number(c, json_array_get(d, i), path, -1000, 1000,
                             &cam->dist[i])))
            return rc;
    }
    const json_t *rms = json_object_get(v, "rms");
    if (rms && (rc = get_number(c, rms, "camera.rms", 0, 1e6, &cam->rms)))
        return rc;
    return FW_OK;
}

/* The forward Brown-Conrady model on normalised coordinates. */
static void distort_norm(const double d[5], double x, double y, double *xd,
                         double *yd)
{
    double r2 = x * x + y * y;
    double radial = 1 + r2 * (d[0] + r2 * (d[1] + r2 * d[4]));
    *xd = x * radial + 2 * d[2] * x * y + d[3] * (r2 + 2 * x * x);
    *yd = y * radial + d[2] * (r2 + 2 * y * y) + 2 * d[3] * x * y;
}

void fw_calib_distort(const fw_calib_camera *cam, double ux, double uy,
                      double *x, double *y)
{
    const double *m = cam->matrix;
    double yn = (uy - m[5]) / m[4];
    double xn = (ux - m[2] - m[1] * yn) / m[0];
    double xd, yd;
    distort_norm(cam->dist, xn, yn, &xd, &yd);
    *x = m[0] * xd + m[1] * yd + m[2];
    *y = m[4] * yd + m[5];
}

void fw_calib_undistort(const fw_calib_camera *cam, double x, double y,
                        double *ux, double *uy)
{
    const double *m = cam->matrix, *d = cam->dist;
    double yd = (y - m[5]) / m[4];
    double xd = (x - m[2] - m[1] * yd) / m[0];
    /* Fixed point of x = (xd - tangential(x)) / radial(x), started at the
     * distorted point: it converges for the mild distortion of a table
     * camera within a handful of steps; stop when a step moves less than
     * 1e-12 (a millionth of a pixel at any focal length). */
    double xn = xd, yn = yd;
    for (int it = 0; it < 50; it++) {
        double r2 = xn * xn + yn * yn;
        double radial = 1 + r2 * (d[0] + r2 * (d[1] + r2 * d[4]));
        if (!(fabs(radial) > 1e-9))
            break;
        double dx = 2 * d[2] * xn * yn + d[3] * (r2 + 2 * xn * xn);
        double dy = d[2] * (r2 + 2 * yn * yn) + 2 * d[3] * xn * yn;
        double nx = (xd - dx) / radial, ny = (yd - dy) / radial;
        double step = fabs(nx - xn) + fabs(ny - yn);
        xn = nx;
        yn = ny;
        if (!(step > 1e-12))
            break;
    }
    *ux = m[0] * xn + m[1] * yn + m[2];
    *uy = m[4] * yn + m[5];
}

/* A CIE Lab colour [L, a, b]: L 0-100, a and b -128-127. */
static int get_lab(const ctx *c, const json_t *v, const char *path,
                   float out[3])
{
    char sub[200];
    double x = 0;
    if (!json_is_array(v) || json_array_size(v) != 3)
        return fail(c, path, "must be [L, a, b]");
    for (int j = 0; j < 3; j++) {
        snprintf(sub, sizeof sub, "%s[%d]", path, j);
        int rc = get_number(c, json_array_get(v, (size_t)j), sub,
                            j == 0 ? 0 : -128, j == 0 ? 100 : 127, &x);
        if (rc)
            return rc;
        out[j] = (float)x;
    }
    return FW_OK;
}

/* Chip i's optional edge pattern, {"lab":[L, a, b], "spots":N}. */
static int get_edge(const ctx *c, const json_t *edge, int i,
                    fw_calib_chip *out)
{
    char path[64];
    snprintf(path, sizeof path, "chips[%d].edge", i);
    if (!json_is_object(edge))
        return fail(c, path,
                    "must be an object {\"lab\":[L, a, b], \"spots\":N}");
    snprintf(path, sizeof path, "chips[%d].edge.lab", i);
    const json_t *lab = json_object_get(edge, "lab");
    if (!lab)
        return fail(c, path, "missing");
    int rc = get_lab(c, lab, path, out->edge_lab);
    if (rc)
        return rc;
    snprintf(path, sizeof path, "chips[%d].edge.spots", i);
    const json_t *spots = json_object_get(edge, "spots");
    if (!json_is_integer(spots) || json_integer_value(spots) < 1 ||
        json_integer_value(spots) > FW_CALIB_MAX_SPOTS)
        return fail(c, path, "must be an integer 1-%d", FW_CALIB_MAX_SPOTS);
    out->edge_spots = (int)json_integer_value(spots);
    return FW_OK;
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

    const json_t *cam = json_object_get(root, "camera");
    if (cam) {
        if ((rc = get_camera(c, cam, k->width, k->height, &k->cam)))
            return rc;
        k->has_cam = 1;
    }

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
    /* with a camera the homography maps undistorted pixels: corners_px stay
     * what the image shows, so a corner still maps onto the felt's corner */
    if (k->has_cam)
        for (int i = 0; i < 4; i++)
            fw_calib_undistort(&k->cam, src[i][0], src[i][1], &src[i][0],
                               &src[i][1]);
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
                snprintf(path, sizeof path, "chips[%d].lab", i);
                if ((rc = get_lab(c, lab, path, out->lab)))
                    return rc;
            }
            const json_t *edge = json_object_get(ch, "edge");
            if (edge && (rc = get_edge(c, edge, i, out)))
                return rc;
        }
    }
    return FW_OK;
}

/*
 * Parse `len` bytes of JSON text into *root (duplicate keys refused): a
 * syntax error is reported at its line and column; with `object`, a
 * document that is not a JSON object is refused too.
 */
static int load_json(const ctx *c, const char *text, size_t len, int object,
                     json_t **root)
{
    json_error_t jerr;
    *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!*root) {
        char where[64];
        snprintf(where, sizeof where, "line %d column %d", jerr.line,
                 jerr.column);
        return fail(c, where, "not valid JSON: %s", jerr.text);
    }
    if (object && !json_is_object(*root)) {
        json_decref(*root);
        *root = NULL;
        return fail(c, "(document)", "must be a JSON object");
    }
    return FW_OK;
}

int fw_calib_parse(const char *json, size_t len, const char *name,
                   fw_calib **out, char *err, size_t errsz)
{
    *out = NULL;
    ctx c = {name ? name : "calibration", err, errsz};
    json_t *root;
    int lrc = load_json(&c, json, len, 0, &root);
    if (lrc)
        return lrc;
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

/*
 * Read a whole file (at most 16 MB) into *buf (malloc'd, not
 * NUL-terminated, NULL when empty) and *len. On failure err names the file.
 */
static int read_file(const char *path, char **bufp, size_t *lenp, char *err,
                     size_t errsz)
{
    *bufp = NULL;
    *lenp = 0;
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
    *bufp = buf;
    *lenp = len;
    return FW_OK;
}

int fw_calib_load(const char *path, fw_calib **out, char *err, size_t errsz)
{
    *out = NULL;
    char *buf;
    size_t len;
    int rc = read_file(path, &buf, &len, err, errsz);
    if (rc)
        return rc;
    rc = fw_calib_parse(buf ? buf : "", len, path, out, err, errsz);
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
    if (c->has_cam)
        fw_calib_undistort(&c->cam, x, y, &x, &y);
    apply_h(c->h, x, y, fx, fy);
}

void fw_calib_to_image(const fw_calib *c, double fx, double fy, double *x,
                       double *y)
{
    apply_h(c->inv, fx, fy, x, y);
    if (c->has_cam)
        fw_calib_distort(&c->cam, *x, *y, x, y);
}

int fw_calib_get_camera(const fw_calib *c, fw_calib_camera *out)
{
    if (!c->has_cam)
        return 0;
    *out = c->cam;
    return 1;
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

/*
 * Check that the four corners, clockwise from top left in image
 * coordinates (y down), make a convex quadrilateral of some size: every
 * turn has the same sign (positive for clockwise on screen). Reports the
 * problem through fail() under felt.corners_px.
 */
static int check_quad(const ctx *c, const double p[4][2])
{
    double turn[4], area = 0;
    for (int i = 0; i < 4; i++) {
        const double *a = p[i], *b = p[(i + 1) % 4], *d = p[(i + 2) % 4];
        turn[i] = (b[0] - a[0]) * (d[1] - b[1]) - (b[1] - a[1]) * (d[0] - b[0]);
        area += a[0] * b[1] - b[0] * a[1];
    }
    area = fabs(area) / 2;
    int pos = 0, neg = 0;
    for (int i = 0; i < 4; i++) {
        pos += turn[i] > 0;
        neg += turn[i] < 0;
    }
    if (pos && neg)
        return fail(c, "felt.corners_px",
                    "the four corners do not make a convex quadrilateral "
                    "(crossed or out of order)");
    if (pos + neg < 4 || !(area >= 16))
        return fail(c, "felt.corners_px",
                    "the four corners are degenerate (area %.1f px)", area);
    if (neg == 4)
        return fail(c, "felt.corners_px",
                    "the corners run counter-clockwise: give them clockwise "
                    "from top left (top-left, top-right, bottom-right, "
                    "bottom-left)");
    return FW_OK;
}

static json_t *point_json(double x, double y)
{
    return json_pack("[ff]", x, y);
}

static json_t *camera_obj(const fw_calib_camera *cam)
{
    json_t *m = json_array(), *d = json_array();
    for (int i = 0; i < 9; i++)
        json_array_append_new(m, json_real(cam->matrix[i]));
    for (int i = 0; i < 5; i++)
        json_array_append_new(d, json_real(cam->dist[i]));
    return json_pack("{s:o,s:o,s:f}", "matrix", m, "distortion", d, "rms",
                     cam->rms);
}

/* The calibration ROOT (released here; NULL after an allocation failed)
 * as text in *out, given only when that text loads as a calibration: the
 * writers check what they made with the reader's own checks. */
static int dump_loadable(json_t *root, const ctx *c, char **out)
{
    char *text = root ? json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER |
                                             JSON_REAL_PRECISION(12))
                      : NULL;
    json_decref(root);
    if (!text)
        return fw_set_error(FW_ENOMEM, "out of memory");
    fw_calib *k = NULL;
    int rc = fw_calib_parse(text, strlen(text), c->name, &k, c->err, c->errsz);
    fw_calib_free(k);
    if (rc) {
        free(text);
        return rc;
    }
    *out = text;
    return FW_OK;
}

int fw_calib_make(const char *tmpl, size_t len, const char *name, int width,
                  int height, const double corners[4][2],
                  const double *felt_mm, const fw_calib_camera *cam,
                  char **out, char *err, size_t errsz)
{
    *out = NULL;
    ctx c = {name ? name : "template", err, errsz};
    int rc = check_quad(&c, corners);
    if (rc)
        return rc;
    json_t *root;
    if ((rc = load_json(&c, tmpl, len, 1, &root)))
        return rc;
    json_t *felt = json_object_get(root, "felt");
    if (!json_is_object(felt)) {
        felt = json_object();
        json_object_set_new(root, "felt", felt);
    }
    json_t *pts = json_array();
    for (int i = 0; i < 4; i++)
        json_array_append_new(pts, point_json(corners[i][0], corners[i][1]));
    json_object_set_new(felt, "corners_px", pts);
    if (felt_mm)
        json_object_set_new(felt, "size_mm",
                            point_json(felt_mm[0], felt_mm[1]));
    json_object_set_new(root, "image",
                        json_pack("{s:i,s:i}", "width", width, "height",
                                  height));
    if (cam)
        json_object_set_new(root, "camera", camera_obj(cam));
    /* the result must load: this checks the template's zones and chips and
     * the corners against the image size */
    return dump_loadable(root, &c, out);
}

/* A colour rounded to a tenth of a Lab unit, as JSON [L, a, b]. */
static json_t *lab_json(const float lab[3])
{
    json_t *a = json_array();
    for (int k = 0; a && k < 3; k++)
        if (json_array_append_new(a, json_real(round(lab[k] * 10.0) / 10.0))) {
            json_decref(a);
            a = NULL;
        }
    return a;
}

/* One chip of the set as the calibration file writes it; NULL when out of
 * memory. */
static json_t *chip_json(const fw_calib_chip *ch)
{
    json_t *o = json_pack("{s:I,s:s,s:o}", "value", (json_int_t)ch->value,
                          "color", ch->color, "lab", lab_json(ch->lab));
    if (o && ch->edge_spots > 0) {
        json_t *e = json_pack("{s:o,s:i}", "lab", lab_json(ch->edge_lab),
                              "spots", ch->edge_spots);
        if (!e || json_object_set_new(o, "edge", e)) {
            json_decref(o);
            return NULL;
        }
    }
    return o;
}

int fw_calib_with_chips(const char *tmpl, size_t len, const char *name,
                        const fw_calib_chip *chips, int n, char **out,
                        char *err, size_t errsz)
{
    *out = NULL;
    ctx c = {name ? name : "template", err, errsz};
    if (!chips || n < 1 || n > FW_CALIB_MAX_CHIPS) {
        if (err && errsz)
            snprintf(err, errsz, "a chip set has 1 to %d chips",
                     FW_CALIB_MAX_CHIPS);
        return fw_set_error(FW_EINVAL, "a chip set has 1 to %d chips",
                            FW_CALIB_MAX_CHIPS);
    }
    json_t *root;
    int rc = load_json(&c, tmpl, len, 1, &root);
    if (rc)
        return rc;
    json_t *set = json_array();
    for (int i = 0; set && i < n; i++)
        if (json_array_append_new(set, chip_json(&chips[i]))) {
            json_decref(set);
            set = NULL;
        }
    if (!set || json_object_set_new(root, "chips", set) != 0) {
        json_decref(root);
        root = NULL;
    }
    /* the result must load: the template's geometry and the chips */
    return dump_loadable(root, &c, out);
}

int fw_calib_camera_json(const fw_calib_camera *cam, char **out)
{
    json_t *root = json_pack("{s:o}", "camera", camera_obj(cam));
    *out = root ? json_dumps(root, JSON_PRESERVE_ORDER |
                                       JSON_REAL_PRECISION(12))
                : NULL;
    json_decref(root);
    return *out ? FW_OK : fw_set_error(FW_ENOMEM, "out of memory");
}

int fw_calib_camera_load(const char *path, fw_calib_camera *out, char *err,
                         size_t errsz)
{
    memset(out, 0, sizeof *out);
    ctx c = {path, err, errsz};
    char *buf;
    size_t len;
    int rc = read_file(path, &buf, &len, err, errsz);
    if (rc)
        return rc;
    json_t *root;
    rc = load_json(&c, buf ? buf : "", len, 0, &root);
    free(buf);
    if (rc)
        return rc;
    const json_t *cam = json_object_get(root, "camera");
    if (!cam)
        rc = fail(&c, "camera", "missing");
    else
        rc = get_camera(&c, cam, 0, 0, out);
    json_decref(root);
    return rc;
}
