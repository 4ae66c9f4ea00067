/*
 * chips_cmd.c - `feltwatch chips IMAGE [--calib FILE] [--focal PX]
 * [--side]` over chips.h and chip_side.h: every chip in one overhead image
 * and the stacks whose side shows, or (--side) the stacks seen by the side
 * camera, counted, as JSON.
 */
#include "chips_cmd.h"

#include "calibration.h"
#include "chip_side.h"
#include "chips.h"
#include "vision.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FW_CHIPS_MAX 256
#define FW_STACKS_MAX 64

/* Build the result document; NULL when out of memory. */
static json_t *chips_json(const fw_chip_obs *chips, int n,
                          const fw_stack_obs *stacks, int ns)
{
    json_t *arr = json_array(), *sarr = json_array();
    if (!arr || !sarr)
        goto fail;
    for (int i = 0; i < n; i++) {
        json_t *value =
            chips[i].value ? json_integer(chips[i].value) : json_null();
        json_t *c = json_pack(
            "{s:[f,f], s:f, s:s, s:o, s:f}", "center",
            (double)chips[i].center[0], (double)chips[i].center[1], "radius",
            (double)chips[i].radius, "color", chips[i].color, "value", value,
            "confidence", (double)chips[i].confidence);
        if (!c || json_array_append_new(arr, c) != 0)
            goto fail;
    }
    for (int i = 0; i < ns; i++) {
        json_t *value =
            stacks[i].value ? json_integer(stacks[i].value) : json_null();
        json_t *s = json_pack(
            "{s:[f,f], s:f, s:s, s:o, s:[i,i], s:f, s:f}", "center",
            (double)stacks[i].center[0], (double)stacks[i].center[1], "radius",
            (double)stacks[i].radius, "color", stacks[i].color, "top_value",
            value, "count", stacks[i].count_lo, stacks[i].count_hi, "side_px",
            (double)stacks[i].side_px, "confidence",
            (double)stacks[i].confidence);
        if (!s || json_array_append_new(sarr, s) != 0)
            goto fail;
    }
    return json_pack("{s:o, s:o}", "chips", arr, "stacks", sarr);
fail:
    json_decref(arr);
    json_decref(sarr);
    return NULL;
}

/* The side camera's stacks as a document; NULL when out of memory. */
static json_t *side_json(const fw_side_stack *st, int n)
{
    json_t *arr = json_array();
    if (!arr)
        return NULL;
    for (int i = 0; i < n; i++) {
        json_t *value =
            st[i].top_value ? json_integer(st[i].top_value) : json_null();
        json_t *o = json_pack(
            "{s:[f,f], s:f, s:f, s:i, s:[i,i], s:f, s:s, s:o, s:f}", "column",
            (double)st[i].x0, (double)st[i].x1, "top", (double)st[i].top,
            "bottom", (double)st[i].bottom, "count", st[i].count,
            "count_range", st[i].count_lo, st[i].count_hi, "chip_px",
            (double)st[i].chip_px, "top_color", st[i].top_color, "top_value",
            value, "confidence", (double)st[i].confidence);
        if (!o || json_array_append_new(arr, o) != 0) {
            json_decref(arr);
            return NULL;
        }
    }
    return json_pack("{s:o}", "stacks", arr);
}

static int usage(FILE *err)
{
    fprintf(err,
            "usage: feltwatch chips IMAGE [--calib FILE] [--focal PX] "
            "[--side]\n"
            "  --calib FILE  the table's calibration: its chip set names "
            "values;\n"
            "                its camera (if any) gives the focal length\n"
            "  --focal PX    the camera's focal length in pixels (narrows "
            "the count\n"
            "                range of a stack seen from above)\n"
            "  --side        IMAGE is from the side camera: count the "
            "stacks' chips\n");
    return 2;
}

int fw_chips_main(int argc, char **argv, FILE *out, FILE *err)
{
    const char *path = NULL, *calib_path = NULL;
    double focal = 0;
    int side = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--side") == 0) {
            side = 1;
        } else if (strcmp(argv[i], "--calib") == 0 && i + 1 < argc) {
            calib_path = argv[++i];
        } else if (strcmp(argv[i], "--focal") == 0 && i + 1 < argc) {
            char *end;
            focal = strtod(argv[++i], &end);
            if (*end || !(focal > 0) || !isfinite(focal) || focal > 1e6) {
                fprintf(err,
                        "feltwatch chips: --focal %s: must be a focal "
                        "length in pixels (0 < PX <= 1e6)\n",
                        argv[i]);
                return 2;
            }
        } else if (argv[i][0] != '-' && !path)
            path = argv[i];
        else
            return usage(err);
    }
    if (!path)
        return usage(err);

    fw_calib *calib = NULL;
    const fw_calib_chip *set = NULL;
    int nset = 0;
    if (calib_path) {
        char msg[512];
        if (fw_calib_load(calib_path, &calib, msg, sizeof msg) != FW_OK) {
            fprintf(err, "feltwatch chips: %s\n", msg);
            return 1;
        }
        nset = fw_calib_chips(calib, &set);
        if (nset <= 0) {
            set = NULL;
            nset = 0;
        }
    }
    /* the principal point: the camera's, or (below) the image's centre */
    fw_chips_params prm = {.set = set, .nset = nset, .focal_px = (float)focal};
    fw_calib_camera cam;
    int have_cam = calib && fw_calib_get_camera(calib, &cam);
    if (have_cam && focal == 0) {
        prm.focal_px = (float)(0.5 * (cam.matrix[0] + cam.matrix[4]));
        prm.principal[0] = (float)cam.matrix[2];
        prm.principal[1] = (float)cam.matrix[5];
    }
    fw_image img = {0};
    if (fw_vision_load_image(path, &img) != FW_OK) {
        fprintf(err, "feltwatch chips: %s\n", fw_last_error());
        fw_calib_free(calib);
        return 1;
    }
    if (!(have_cam && focal == 0)) {
        prm.principal[0] = 0.5f * (float)img.width;
        prm.principal[1] = 0.5f * (float)img.height;
    }
    /* the side camera's stacks, or the chips and stacks seen from above */
    fw_side_stack side_st[FW_STACKS_MAX];
    fw_chip_obs chips[FW_CHIPS_MAX];
    fw_stack_obs stacks[FW_STACKS_MAX];
    int n = 0, ns = 0;
    int rc = side ? fw_chips_count_side(img.bgr, img.width, img.height,
                                        img.stride, set, nset, side_st,
                                        FW_STACKS_MAX, &n)
                  : fw_chips_detect(img.bgr, img.width, img.height,
                                    img.stride, &prm, chips, FW_CHIPS_MAX, &n,
                                    stacks, FW_STACKS_MAX, &ns);
    fw_vision_image_free(&img);
    fw_calib_free(calib);
    if (rc != FW_OK) {
        fprintf(err, "feltwatch chips: %s: %s\n", path, fw_last_error());
        return 1;
    }
    json_t *doc = side ? side_json(side_st, n) : chips_json(chips, n, stacks, ns);
    if (!doc) {
        fprintf(err, "feltwatch chips: out of memory\n");
        return 1;
    }
    int wr = json_dumpf(doc, out, JSON_COMPACT | JSON_REAL_PRECISION(5));
    json_decref(doc);
    if (wr != 0 || fputc('\n', out) == EOF) {
        fprintf(err, "feltwatch chips: cannot write the result\n");
        return 1;
    }
    return 0;
}
