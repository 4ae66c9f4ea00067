/*
 * calibrate_cmd.c - `feltwatch calibrate`: check or print a calibration,
 * calibrate a table from its corner markers or four measured points, the
 * camera's intrinsics from checkerboard photos, and the chip set from a
 * photo of each chip.
 */
#include "calibrate_cmd.h"

#include "calib_cv.h"
#include "calibration.h"
#include "chip_learn.h"
#include "fw_parse.h"
#include "vision.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int usage(FILE *err)
{
    fprintf(err,
            "usage: feltwatch calibrate --check FILE\n"
            "       feltwatch calibrate --default\n"
            "       feltwatch calibrate --markers IMAGE [--dict 4x4_50] "
            "[OPTIONS]\n"
            "       feltwatch calibrate --corners X1,Y1,X2,Y2,X3,Y3,X4,Y4 "
            "--image-size WxH [OPTIONS]\n"
            "       feltwatch calibrate --intrinsics --board 9x6 "
            "--square-mm 25 [-o OUT.json] IMG...\n"
            "       feltwatch calibrate --chip VALUE[:NAME]=IMAGE "
            "[--chip ...] [--template FILE] [-o OUT.json]\n"
            "options: --template FILE  zones and chips (default: the "
            "simulated table's)\n"
            "         --felt WxH       the felt's size in mm\n"
            "         --camera FILE    camera intrinsics to include\n"
            "         -o OUT.json      where to write (default: standard "
            "output)\n");
    return 2;
}

/* Parse all of s as a finite number. */
static int parse_num(const char *s, const char **end, double *v)
{
    char *e;
    errno = 0;
    *v = strtod(s, &e);
    *end = e;
    return e != s && errno == 0 && *v == *v && *v < 1e12 && *v > -1e12;
}

/* "WxH" as two positive numbers; integers when ints is set. */
static int parse_size(const char *s, int ints, double out[2])
{
    const char *e;
    if (!parse_num(s, &e, &out[0]) || (*e != 'x' && *e != 'X'))
        return 0;
    if (!parse_num(e + 1, &e, &out[1]) || *e)
        return 0;
    for (int i = 0; i < 2; i++)
        if (!(out[i] > 0) || (ints && out[i] != (double)(long)out[i]))
            return 0;
    return 1;
}

/* "x1,y1,x2,y2,x3,y3,x4,y4": exactly eight numbers. */
static int parse_corners(const char *s, double p[4][2])
{
    const char *e = s;
    for (int i = 0; i < 8; i++) {
        if (!parse_num(e, &e, &p[i / 2][i % 2]))
            return 0;
        if (i < 7 && *e++ != ',')
            return 0;
    }
    return *e == '\0';
}

/* The whole file, NUL-terminated, or NULL with a message on err. */
static char *slurp(const char *path, FILE *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(err, "feltwatch: calibrate: %s: cannot open\n", path);
        return NULL;
    }
    size_t len = 0, cap = 0;
    char *buf = NULL;
    for (;;) {
        if (len + 1 >= cap) {
            if (cap >= (size_t)16 << 20) {
                fprintf(err, "feltwatch: calibrate: %s: larger than 16 MB\n",
                        path);
                break;
            }
            cap = cap ? cap * 2 : 8192;
            char *nb = realloc(buf, cap);
            if (!nb)
                break;
            buf = nb;
        }
        size_t n = fread(buf + len, 1, cap - len - 1, f);
        len += n;
        if (n == 0) {
            if (ferror(f))
                fprintf(err, "feltwatch: calibrate: %s: read error\n", path);
            else {
                fclose(f);
                buf[len] = '\0';
                return buf;
            }
            break;
        }
    }
    fclose(f);
    free(buf);
    return NULL;
}

/* Write text to path, or to out when path is NULL. */
static int emit(const char *path, const char *text, FILE *out, FILE *err)
{
    if (!path) {
        fputs(text, out);
        fputc('\n', out);
        return 0;
    }
    FILE *f = fopen(path, "wb");
    int ok = f && fputs(text, f) >= 0 && fputc('\n', f) != EOF;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok) {
        fprintf(err, "feltwatch: calibrate: %s: cannot write\n", path);
        return 1;
    }
    return 0;
}

/* One line for a chip of the set: value, name, body and edge colours. */
static void print_chip(FILE *out, const fw_calib_chip *ch)
{
    fprintf(out, "  chip %lld: %s, lab [%.1f, %.1f, %.1f]",
            (long long)ch->value, ch->color, (double)ch->lab[0],
            (double)ch->lab[1], (double)ch->lab[2]);
    if (ch->edge_spots > 0)
        fprintf(out, ", edge %d spots [%.1f, %.1f, %.1f]\n", ch->edge_spots,
                (double)ch->edge_lab[0], (double)ch->edge_lab[1],
                (double)ch->edge_lab[2]);
    else
        fprintf(out, ", edge not known\n");
}

static int check(const char *path, FILE *out, FILE *err)
{
    char msg[512];
    fw_calib *c = NULL;
    if (fw_calib_load(path, &c, msg, sizeof msg) != FW_OK) {
        fprintf(err, "feltwatch: calibrate: %s\n", msg);
        return 1;
    }
    const fw_calib_chip *chips;
    int nchips = fw_calib_chips(c, &chips);
    double cx, cy;
    fw_calib_to_image(c, 0, 0, &cx, &cy);
    fw_calib_camera cam;
    fprintf(out, "%s: valid: %d seats, %d chips%s; the felt's corner (0,0) "
                 "is at pixel (%.1f, %.1f)\n",
            path, fw_calib_seats(c), nchips,
            fw_calib_get_camera(c, &cam) ? ", camera intrinsics" : "", cx,
            cy);
    for (int i = 0; i < nchips; i++)
        print_chip(out, &chips[i]);
    fw_calib_free(c);
    return 0;
}

/* The options of --markers and --corners. */
typedef struct table_opts {
    const char *markers, *dict, *corners, *image_size, *tmpl, *felt,
        *camera, *out;
} table_opts;

static int table(const table_opts *o, FILE *out, FILE *err)
{
    double corners[4][2], felt[2], isz[2] = {0, 0};
    int width, height;
    if (o->felt && !parse_size(o->felt, 0, felt)) {
        fprintf(err, "feltwatch: calibrate: --felt: expected the felt's "
                     "size in mm as WxH (2400x1200), got \"%s\"\n",
                o->felt);
        return 1;
    }
    if (o->markers) {
        fw_calib_markers m;
        if (fw_calib_find_markers(o->markers, o->dict, &m) != FW_OK) {
            fprintf(err, "feltwatch: calibrate: %s\n", fw_last_error());
            return 1;
        }
        memcpy(corners, m.corner, sizeof corners);
        width = m.width;
        height = m.height;
    } else {
        if (!parse_corners(o->corners, corners)) {
            fprintf(err, "feltwatch: calibrate: --corners: expected eight "
                         "numbers x1,y1,x2,y2,x3,y3,x4,y4 (the felt's "
                         "corners clockwise from top left), got \"%s\"\n",
                    o->corners);
            return 1;
        }
        if (!o->image_size || !parse_size(o->image_size, 1, isz)) {
            fprintf(err, "feltwatch: calibrate: --image-size: expected the "
                         "camera image's size as WxH (1280x720), got "
                         "\"%s\"\n",
                    o->image_size ? o->image_size : "nothing");
            return 1;
        }
        width = (int)isz[0];
        height = (int)isz[1];
    }
    fw_calib_camera cam;
    char msg[512];
    if (o->camera &&
        fw_calib_camera_load(o->camera, &cam, msg, sizeof msg) != FW_OK) {
        fprintf(err, "feltwatch: calibrate: %s\n", msg);
        return 1;
    }
    char *tmpl = NULL;
    const char *text = fw_calib_default_json();
    if (o->tmpl) {
        if (!(tmpl = slurp(o->tmpl, err)))
            return 1;
        text = tmpl;
    }
    char *json = NULL;
    int rc = fw_calib_make(text, strlen(text),
                           o->tmpl ? o->tmpl : "default template", width,
                           height, (const double(*)[2])corners,
                           o->felt ? felt : NULL, o->camera ? &cam : NULL,
                           &json, msg, sizeof msg);
    free(tmpl);
    if (rc != FW_OK) {
        fprintf(err, "feltwatch: calibrate: %s\n", msg);
        return 1;
    }
    rc = emit(o->out, json, out, err);
    free(json);
    if (rc == 0 && o->out) {
        fprintf(out, "%s: %dx%d image, felt corners at", o->out, width,
                height);
        for (int i = 0; i < 4; i++)
            fprintf(out, " (%.1f, %.1f)", corners[i][0], corners[i][1]);
        fprintf(out, "\n");
    }
    return rc;
}

static int intrinsics(const char *board, const char *square,
                      const char *path, char **imgs, int n, FILE *out,
                      FILE *err)
{
    double b[2], sq = 0;
    const char *e = NULL;
    if (!board || !parse_size(board, 1, b)) {
        fprintf(err, "feltwatch: calibrate: --board: expected the inner "
                     "corners as CxR (9x6), got \"%s\"\n",
                board ? board : "nothing");
        return 1;
    }
    if (!square || !parse_num(square, &e, &sq) || *e || !(sq > 0)) {
        fprintf(err, "feltwatch: calibrate: --square-mm: expected the "
                     "squares' side in mm, got \"%s\"\n",
                square ? square : "nothing");
        return 1;
    }
    if (n < 1)
        return usage(err);
    int *found = calloc((size_t)n, sizeof *found);
    if (!found)
        return 1;
    fw_calib_camera cam;
    int w = 0, h = 0;
    int rc = fw_calib_intrinsics((const char *const *)imgs, n, (int)b[0],
                                 (int)b[1], sq, &cam, found, &w, &h);
    int used = 0;
    for (int i = 0; i < n; i++) {
        used += found[i];
        if (!found[i] && rc != FW_EIO)
            fprintf(err, "feltwatch: calibrate: %s: no %dx%d board found\n",
                    imgs[i], (int)b[0], (int)b[1]);
    }
    free(found);
    if (rc != FW_OK) {
        fprintf(err, "feltwatch: calibrate: %s\n", fw_last_error());
        return 1;
    }
    char *json = NULL;
    if (fw_calib_camera_json(&cam, &json) != FW_OK)
        return 1;
    rc = emit(path, json, out, err);
    free(json);
    fprintf(path ? out : err,
            "%d of %d images used, %dx%d; fx %.1f fy %.1f cx %.1f cy %.1f, "
            "k1 %.4f; rms %.3f px\n",
            used, n, w, h, cam.matrix[0], cam.matrix[4], cam.matrix[2],
            cam.matrix[5], cam.dist[0], cam.rms);
    return rc;
}

/*
 * Split "VALUE=IMAGE" or "VALUE:NAME=IMAGE" into the value (a positive
 * integer), the name (NULL when not given; else 1-15 printable ASCII bytes
 * copied into name) and the image's path (a pointer into spec). Returns 0
 * on success, -1 with a message on err.
 */
static int parse_chip_spec(const char *spec, int64_t *value, char *name,
                           size_t namesz, const char **named, const char **path,
                           FILE *err)
{
    const char *eq = strchr(spec, '=');
    char head[64];
    long v = 0;
    *named = NULL;
    size_t n = eq ? (size_t)(eq - spec) : 0;
    if (!eq || !eq[1] || n == 0 || n >= sizeof head) {
        fprintf(err, "feltwatch: calibrate: --chip: expected VALUE=IMAGE or "
                     "VALUE:NAME=IMAGE (25=white.png), got \"%s\"\n",
                spec);
        return -1;
    }
    memcpy(head, spec, n);
    head[n] = '\0';
    char *colon = strchr(head, ':');
    if (colon) {
        *colon = '\0';
        const char *nm = colon + 1;
        size_t len = strlen(nm);
        int ok = len >= 1 && len < namesz;
        for (size_t i = 0; ok && i < len; i++)
            ok = nm[i] > ' ' && nm[i] < 127 && nm[i] != '"' && nm[i] != '\\';
        if (!ok) {
            fprintf(err, "feltwatch: calibrate: --chip %s: the colour name "
                         "must be 1-%d printable characters without spaces "
                         "or quotes\n",
                    spec, (int)namesz - 1);
            return -1;
        }
        memcpy(name, nm, len + 1);
        *named = name;
    }
    if (fw_parse_long(head, 1, LONG_MAX, &v) != 0) {
        fprintf(err, "feltwatch: calibrate: --chip %s: the value must be a "
                     "positive whole number, got \"%s\"\n",
                spec, head);
        return -1;
    }
    *value = (int64_t)v;
    *path = eq + 1;
    return 0;
}

/* The Lab distance between two colours. */
static double lab_apart(const float a[3], const float b[3])
{
    double s = 0;
    for (int k = 0; k < 3; k++)
        s += ((double)a[k] - b[k]) * ((double)a[k] - b[k]);
    return sqrt(s);
}

/*
 * `--chip VALUE[:NAME]=IMAGE ...`: learn each chip from its photo
 * (chip_learn.h) and write the template with its chip set replaced. Values
 * must differ, and no two chips may look alike (fw_chips_alike): the
 * detector could not tell them apart.
 */
static int learn_chips(char **specs, int n, const char *tmpl_path,
                       const char *path, FILE *out, FILE *err)
{
    if (n > FW_CALIB_MAX_CHIPS) {
        fprintf(err, "feltwatch: calibrate: at most %d chips (--chip given "
                     "%d times)\n",
                FW_CALIB_MAX_CHIPS, n);
        return 1;
    }
    fw_calib_chip set[FW_CALIB_MAX_CHIPS];
    const char *paths[FW_CALIB_MAX_CHIPS];
    memset(set, 0, sizeof set);
    char names[FW_CALIB_MAX_CHIPS][sizeof set[0].color];
    const char *named[FW_CALIB_MAX_CHIPS];
    for (int i = 0; i < n; i++) {
        if (parse_chip_spec(specs[i], &set[i].value, names[i],
                            sizeof names[i], &named[i], &paths[i], err))
            return 1;
        for (int j = 0; j < i; j++)
            if (set[j].value == set[i].value) {
                fprintf(err, "feltwatch: calibrate: --chip %s: value %lld "
                             "given twice (also %s)\n",
                        specs[i], (long long)set[i].value, paths[j]);
                return 1;
            }
    }
    for (int i = 0; i < n; i++) {
        fw_image img = {0};
        if (fw_vision_load_image(paths[i], &img) != FW_OK) {
            fprintf(err, "feltwatch: calibrate: %s\n", fw_last_error());
            return 1;
        }
        int64_t value = set[i].value;
        int rc = fw_chips_learn(img.bgr, img.width, img.height, img.stride,
                                value, named[i], &set[i]);
        fw_vision_image_free(&img);
        if (rc != FW_OK) {
            fprintf(err, "feltwatch: calibrate: %s: %s\n", paths[i],
                    fw_last_error());
            return 1;
        }
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (fw_chips_alike(&set[i], &set[j])) {
                fprintf(err, "feltwatch: calibrate: %s (%lld) and %s (%lld) "
                             "look alike: bodies %.1f Lab units apart, edges "
                             "%s; the table could not tell them apart\n",
                        paths[i], (long long)set[i].value, paths[j],
                        (long long)set[j].value,
                        lab_apart(set[i].lab, set[j].lab),
                        set[i].edge_spots && set[j].edge_spots
                            ? "alike"
                            : "not seen on both");
                return 1;
            }
    char *tmpl = NULL;
    const char *text = fw_calib_default_json();
    if (tmpl_path) {
        if (!(tmpl = slurp(tmpl_path, err)))
            return 1;
        text = tmpl;
    }
    char msg[512];
    char *json = NULL;
    int rc = fw_calib_with_chips(text, strlen(text),
                                 tmpl_path ? tmpl_path : "default template",
                                 set, n, &json, msg, sizeof msg);
    free(tmpl);
    if (rc != FW_OK) {
        fprintf(err, "feltwatch: calibrate: %s\n", msg);
        return 1;
    }
    rc = emit(path, json, out, err);
    free(json);
    if (rc == 0) {
        FILE *to = path ? out : err;
        fprintf(to, "%s: %d chips learned\n", path ? path : "calibration",
                n);
        for (int i = 0; i < n; i++)
            print_chip(to, &set[i]);
    }
    return rc;
}

int fw_calibrate_main(int argc, char **argv, FILE *out, FILE *err)
{
    if (argc == 2 && strcmp(argv[1], "--default") == 0) {
        fputs(fw_calib_default_json(), out);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "--check") == 0)
        return check(argv[2], out, err);

    table_opts o = {0};
    const char *board = NULL, *square = NULL;
    int intr = 0, nimg = 0, nchip = 0;
    char **imgs = calloc((size_t)argc, sizeof *imgs);
    char **chips = calloc((size_t)argc, sizeof *chips);
    if (!imgs || !chips) {
        free(imgs);
        free(chips);
        return 1;
    }
    int rc = -1;
    for (int i = 1; i < argc && rc < 0; i++) {
        const char *a = argv[i];
        static const char *const with_value[] = {
            "--markers", "--dict", "--corners", "--image-size", "--template",
            "--felt", "--camera", "-o", "--board", "--square-mm"};
        const char **slot[] = {&o.markers, &o.dict,   &o.corners,
                               &o.image_size, &o.tmpl, &o.felt,
                               &o.camera,  &o.out,    &board,
                               &square};
        int k = -1;
        for (int j = 0; j < (int)(sizeof slot / sizeof slot[0]); j++)
            if (strcmp(a, with_value[j]) == 0)
                k = j;
        if (k >= 0) {
            if (i + 1 >= argc)
                rc = usage(err);
            else
                *slot[k] = argv[++i];
        } else if (strcmp(a, "--chip") == 0) {
            if (i + 1 >= argc)
                rc = usage(err);
            else
                chips[nchip++] = argv[++i];
        } else if (strcmp(a, "--intrinsics") == 0) {
            intr = 1;
        } else if (a[0] == '-' && a[1]) {
            fprintf(err, "feltwatch: calibrate: unknown option %s\n", a);
            rc = usage(err);
        } else {
            imgs[nimg++] = argv[i];
        }
    }
    if (rc < 0) {
        if (nchip > 0)
            rc = !intr && nimg == 0 && !board && !square && !o.markers &&
                         !o.corners && !o.dict && !o.image_size &&
                         !o.felt && !o.camera
                     ? learn_chips(chips, nchip, o.tmpl, o.out, out, err)
                     : usage(err);
        else if (intr && !o.markers && !o.corners)
            rc = intrinsics(board, square, o.out, imgs, nimg, out, err);
        else if (!intr && nimg == 0 && !board && !square &&
                 (!o.markers != !o.corners) && (o.markers || !o.dict) &&
                 !(o.markers && o.image_size))
            rc = table(&o, out, err);
        else
            rc = usage(err);
    }
    free(imgs);
    free(chips);
    return rc;
}
