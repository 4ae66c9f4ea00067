/*
 * eval_chips.c - how well the overhead chip detector reads rendered tables,
 * and how fast: the numbers the chip-vision issue asks for.
 *
 *   spread chips (fw_chips_render, 40 per scene, four felts): per colour,
 *     the share of (scene, colour) pairs counted exactly; chips found,
 *     extra chips, colours and values (with the fixed list as a calibrated
 *     set) read right;
 *   tables with stacks (fw_chips_render_table: single chips and stacks of
 *     2-40 seen by a pinhole camera from above), with the focal length told
 *     and not told: stacks recognised, count ranges holding the truth, the
 *     error of the range's middle, stacks seen only as their top chip;
 *   a chip set learned from one photo per chip (fw_chips_learn), two of
 *     its chips of one body colour told apart only by their edge spots:
 *     values read right and counted exactly per value on tables drawn
 *     from that set;
 *   milliseconds per 1280x720 frame with 40 chips, with the radius
 *     estimated and with it known from the calibration, one OpenCV thread.
 *
 * The seeds start at 1000, away from the test suite's (1..99).
 *
 * usage: eval_chips [SCENES_PER_FELT] [TIMING_FRAMES]
 */
#include "chip_learn.h"
#include "chips.h"
#include "fw_parse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { W = 1280, H = 720, NSPREAD = 40, MAXOBS = 160, MAXST = 32 };

static const char *const felts[] = {"green", "blue", "red", "wood"};
static const char *const names[FW_CHIPS_NCOLORS] = {
    "white", "red",    "green",  "blue", "black",
    "yellow", "purple", "orange", "pink", "grey"};

static int color_index(const char *c)
{
    for (int i = 0; i < FW_CHIPS_NCOLORS; i++)
        if (strcmp(c, names[i]) == 0)
            return i;
    return -1;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static float dist2(const float a[2], const float b[2])
{
    float dx = a[0] - b[0], dy = a[1] - b[1];
    return dx * dx + dy * dy;
}

/* the index of the nearest of n points within `within`, or -1 */
static int nearest(const float at[2], const float *pts, size_t step, int n,
                   float within)
{
    int best = -1;
    float bd = within * within;
    for (int j = 0; j < n; j++) {
        const float *p = (const float *)((const char *)pts + step * (size_t)j);
        float d = dist2(at, p);
        if (d < bd) {
            bd = d;
            best = j;
        }
    }
    return best;
}

/* Spread chips on every felt: counts per colour, colours and values. */
static int eval_spread(uint8_t *img, int scenes)
{
    fw_calib_chip set[FW_CHIPS_NCOLORS];
    for (int i = 0; i < FW_CHIPS_NCOLORS; i++)
        if (fw_chips_look(names[i], (int64_t)(i + 1) * 25, &set[i]) != FW_OK)
            return -1;
    fw_chips_params with_set = {.set = set, .nset = FW_CHIPS_NCOLORS};
    long pairs = 0, exact = 0, truth_n = 0, found = 0, extra = 0,
         color_ok = 0, value_ok = 0, stacks_false = 0;
    double radius_err = 0;
    long exact_by[FW_CHIPS_NCOLORS] = {0}, pairs_by[FW_CHIPS_NCOLORS] = {0};
    for (int f = 0; f < 4; f++)
        for (int s = 0; s < scenes; s++) {
            fw_chip_obs truth[NSPREAD], obs[MAXOBS];
            fw_stack_obs st[MAXST];
            int n = fw_chips_render(img, W, H, W * 3, 1000u + (uint32_t)s,
                                    felts[f], NSPREAD, truth);
            int nobs = 0, nst = 0;
            if (n < 0 || fw_chips_detect(img, W, H, W * 3, &with_set, obs,
                                         MAXOBS, &nobs, st, MAXST,
                                         &nst) != FW_OK) {
                fprintf(stderr, "eval_chips: %s\n", fw_last_error());
                return -1;
            }
            stacks_false += nst;
            int tc[FW_CHIPS_NCOLORS] = {0}, fc[FW_CHIPS_NCOLORS] = {0};
            for (int i = 0; i < n; i++)
                tc[color_index(truth[i].color)]++;
            for (int j = 0; j < nobs; j++) {
                int c = color_index(obs[j].color);
                if (c >= 0)
                    fc[c]++;
            }
            for (int c = 0; c < FW_CHIPS_NCOLORS; c++) {
                if (!tc[c] && !fc[c])
                    continue;
                pairs++;
                pairs_by[c]++;
                exact += tc[c] == fc[c];
                exact_by[c] += tc[c] == fc[c];
            }
            int used[MAXOBS] = {0};
            truth_n += n;
            for (int i = 0; i < n; i++) {
                int j = nearest(truth[i].center, obs[0].center, sizeof obs[0],
                                nobs, 0.5f * truth[i].radius);
                if (j < 0)
                    continue;
                found++;
                used[j] = 1;
                radius_err += obs[j].radius - truth[i].radius;
                color_ok += strcmp(obs[j].color, truth[i].color) == 0;
                value_ok += obs[j].value ==
                            (int64_t)(color_index(truth[i].color) + 1) * 25;
            }
            for (int j = 0; j < nobs; j++)
                extra += !used[j];
        }
    int nsc = 4 * scenes;
    printf("spread chips: %d scenes (4 felts), %ld chips\n", nsc, truth_n);
    printf("  colour counted exactly: %.2f%% of %ld (scene, colour) pairs\n",
           100.0 * exact / pairs, pairs);
    printf("  by colour:");
    for (int c = 0; c < FW_CHIPS_NCOLORS; c++)
        printf(" %s %.1f%%", names[c],
               pairs_by[c] ? 100.0 * exact_by[c] / pairs_by[c] : 100.0);
    printf("\n  found %.2f%%, extra %.2f per scene, stacks called on flat "
           "chips %ld\n",
           100.0 * found / truth_n, (double)extra / nsc, stacks_false);
    printf("  colour right %.2f%%, value right (calibrated set) %.2f%% of "
           "found; radius off by %+.2f px on average\n",
           100.0 * color_ok / found, 100.0 * value_ok / found,
           radius_err / found);
    return 0;
}

/* Tables with stacks, the focal length told or not. */
static int eval_stacks(uint8_t *img, int scenes, int tell_focal)
{
    long nst_truth = 0, recognised = 0, holds = 0, as_single = 0, missed = 0,
         false_stacks = 0, singles = 0, singles_found = 0, single_as_stack = 0;
    double abs_err = 0, signed_err = 0, conf = 0;
    long near_centre = 0, near_centre_seen = 0;
    for (int f = 0; f < 4; f++)
        for (int s = 0; s < scenes; s++) {
            uint32_t seed = 2000u + (uint32_t)(f * scenes + s);
            /* lenses of 60 to 100 degrees across the frame's width */
            float fov = 60.0f + (float)(seed % 5) * 10.0f;
            float focal = (float)(W / (2 * tan(fov * 3.14159265358979 / 360)));
            fw_chip_obs truth[24], obs[MAXOBS];
            fw_stack_truth tst[8];
            fw_stack_obs st[MAXST];
            int np = 0, ns = 0, nobs = 0, nst = 0;
            if (fw_chips_render_table(img, W, H, W * 3, seed, felts[f], 16, 8,
                                      focal, truth, tst, &np, &ns) != FW_OK) {
                fprintf(stderr, "eval_chips: %s\n", fw_last_error());
                return -1;
            }
            fw_chips_params prm = {.focal_px = tell_focal ? focal : 0,
                                   .principal = {W / 2.0f, H / 2.0f}};
            if (fw_chips_detect(img, W, H, W * 3, &prm, obs, MAXOBS, &nobs, st,
                                MAXST, &nst) != FW_OK) {
                fprintf(stderr, "eval_chips: %s\n", fw_last_error());
                return -1;
            }
            int st_used[MAXST] = {0};
            for (int i = 0; i < ns; i++) {
                nst_truth++;
                /* a stack whose top stands within 3 radii of the point below
                 * the camera shows almost no side */
                float pc[2] = {W / 2.0f, H / 2.0f};
                int centre = dist2(tst[i].top, pc) <
                             9 * tst[i].radius * tst[i].radius;
                near_centre += centre;
                int j = nearest(tst[i].top, st[0].center, sizeof st[0], nst,
                                0.5f * tst[i].radius);
                if (j >= 0) {
                    recognised++;
                    near_centre_seen += centre;
                    st_used[j] = 1;
                    holds += st[j].count_lo <= tst[i].count &&
                             tst[i].count <= st[j].count_hi;
                    double mid = 0.5 * (st[j].count_lo + st[j].count_hi);
                    abs_err += fabs(mid - tst[i].count);
                    signed_err += mid - tst[i].count;
                    if (getenv("EVAL_CHIPS_VERBOSE"))
                        printf("    stack %d: %d-%d (side %.1f px, true %.1f; "
                               "radius %.1f, true %.1f; %.0f px from the "
                               "axis)\n",
                               tst[i].count, st[j].count_lo, st[j].count_hi,
                               st[j].side_px,
                               sqrt(dist2(tst[i].top, tst[i].base)) +
                                   tst[i].radius * (1 - sqrt(dist2(tst[i].top, pc) / dist2(tst[i].base, pc))),
                               st[j].radius,
                               tst[i].radius * sqrt(dist2(tst[i].top, pc) / dist2(tst[i].base, pc)),
                               sqrt(dist2(tst[i].top, pc)));
                    conf += st[j].confidence;
                } else if (nearest(tst[i].top, obs[0].center, sizeof obs[0],
                                   nobs, 0.5f * tst[i].radius) >= 0) {
                    as_single++;
                } else {
                    missed++;
                }
            }
            for (int i = 0; i < np; i++) {
                singles++;
                if (nearest(truth[i].center, obs[0].center, sizeof obs[0], nobs,
                            0.5f * truth[i].radius) >= 0)
                    singles_found++;
                else if (nearest(truth[i].center, st[0].center, sizeof st[0],
                                 nst, 0.5f * truth[i].radius) >= 0)
                    single_as_stack++;
            }
            for (int j = 0; j < nst; j++)
                false_stacks += !st_used[j];
        }
    printf("tables with stacks, focal length %s: %d scenes, %ld stacks of "
           "2-%d, %ld single chips\n",
           tell_focal ? "told" : "not told", 4 * scenes, nst_truth,
           FW_STACK_MAX_COUNT, singles);
    printf("  stacks recognised %.1f%% (seen as one chip %.1f%%, missed "
           "%.1f%%); within 3 radii of the camera's axis: %ld, recognised %ld\n",
           100.0 * recognised / nst_truth, 100.0 * as_single / nst_truth,
           100.0 * missed / nst_truth, near_centre, near_centre_seen);
    if (recognised)
        printf("  of those recognised: range holds the count %.1f%%, range "
               "middle off by %.2f chips (mean %+.2f), mean confidence "
               "%.2f\n",
               100.0 * holds / recognised, abs_err / recognised,
               signed_err / recognised, conf / recognised);
    printf("  single chips found %.2f%%, called stacks %ld; false stacks "
           "%ld\n",
           100.0 * singles_found / singles, single_as_stack, false_stacks);
    return 0;
}

/* A small deterministic generator for the scenes drawn here. */
static uint32_t next_rand(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* Blur (3x3 box) and noise (+-4) over a frame, as a camera would. */
static void camera_look(uint8_t *img, int w, int h, uint32_t seed)
{
    static uint8_t tmp[W * H * 3];
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int k = 0; k < 3; k++) {
                int sum = 0, n = 0;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++) {
                        int yy = y + dy, xx = x + dx;
                        if (yy >= 0 && yy < h && xx >= 0 && xx < w) {
                            sum += img[((size_t)yy * w + xx) * 3 + k];
                            n++;
                        }
                    }
                tmp[((size_t)y * w + x) * 3 + k] = (uint8_t)(sum / n);
            }
    for (size_t i = 0; i < (size_t)w * h * 3; i++) {
        int v = tmp[i] + (int)(next_rand(&seed) % 9) - 4;
        img[i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
}

/*
 * A tournament set of eight chips, learned from one photo each; then
 * tables of 40 chips drawn from the set on every felt, read with the
 * learned set.
 */
static int eval_learned(uint8_t *img, int scenes)
{
    enum { NSET = 8, PW = 320, PH = 240 };
    static const struct {
        int64_t value;
        float body[3], edge[3];
        int spots;
    } looks[NSET] = {
        {1, {93, 0, 3}, {32, 20, -53}, 8},
        {5, {45, 62, 42}, {96, 0, 0}, 8},
        {25, {50, -45, 30}, {96, 0, 0}, 8},
        {100, {20, 0, 0}, {96, 0, 0}, 8},
        {500, {35, 45, -40}, {85, 0, 75}, 6},
        {1000, {85, 0, 75}, {20, 0, 0}, 8},
        {5000, {45, 62, 42}, {85, 0, 75}, 4}, /* red like the 5 */
        {25000, {38, 20, -60}, {96, 0, 0}, 12},
    };
    fw_calib_chip drawn[NSET], learned[NSET];
    static uint8_t photo[PW * PH * 3];
    for (int i = 0; i < NSET; i++) {
        memset(&drawn[i], 0, sizeof drawn[i]);
        drawn[i].value = looks[i].value;
        memcpy(drawn[i].lab, looks[i].body, sizeof drawn[i].lab);
        memcpy(drawn[i].edge_lab, looks[i].edge, sizeof drawn[i].edge_lab);
        drawn[i].edge_spots = looks[i].spots;
        /* the photo: the chip alone on grey paper */
        memset(photo, 170, sizeof photo);
        if (fw_chips_draw(photo, PW, PH, PW * 3, PW / 2.0f, PH / 2.0f, 80,
                          &drawn[i], (uint32_t)i) != FW_OK)
            return -1;
        camera_look(photo, PW, PH, 77u + (uint32_t)i);
        if (fw_chips_learn(photo, PW, PH, PW * 3, looks[i].value, NULL,
                           &learned[i]) != FW_OK) {
            fprintf(stderr, "eval_chips: learning chip %lld: %s\n",
                    (long long)looks[i].value, fw_last_error());
            return -1;
        }
    }
    fw_chips_params prm = {.set = learned, .nset = NSET};
    long truth_n = 0, found = 0, value_ok = 0, pairs = 0, exact = 0, extra = 0;
    for (int f = 0; f < 4; f++)
        for (int s = 0; s < scenes; s++) {
            uint32_t seed = 3000u + (uint32_t)(f * scenes + s);
            /* the felt alone, then chips of the set one by one */
            if (fw_chips_render(img, W, H, W * 3, seed, felts[f], 0, NULL) < 0)
                return -1;
            float at[NSPREAD][2];
            int which[NSPREAD], n = 0;
            const float r = 24;
            uint32_t rs = seed;
            for (int tries = 0; n < NSPREAD && tries < 5000; tries++) {
                float x = r + 4 + (float)(next_rand(&rs) % (W - 2 * (int)r - 8));
                float y = r + 4 + (float)(next_rand(&rs) % (H - 2 * (int)r - 8));
                int free = 1;
                for (int j = 0; j < n && free; j++)
                    free = dist2(at[j], (float[2]){x, y}) >= 4.4f * r * r;
                if (!free)
                    continue;
                at[n][0] = x;
                at[n][1] = y;
                which[n] = (int)(next_rand(&rs) % NSET);
                if (fw_chips_draw(img, W, H, W * 3, x, y, r, &drawn[which[n]],
                                  next_rand(&rs)) != FW_OK)
                    return -1;
                n++;
            }
            camera_look(img, W, H, seed);
            fw_chip_obs obs[MAXOBS];
            fw_stack_obs st[MAXST];
            int nobs = 0, nst = 0;
            if (fw_chips_detect(img, W, H, W * 3, &prm, obs, MAXOBS, &nobs, st,
                                MAXST, &nst) != FW_OK)
                return -1;
            int tc[NSET] = {0}, fc[NSET] = {0}, used[MAXOBS] = {0};
            for (int i = 0; i < n; i++) {
                tc[which[i]]++;
                truth_n++;
                int j = nearest(at[i], obs[0].center, sizeof obs[0], nobs,
                                0.5f * r);
                if (j < 0)
                    continue;
                found++;
                used[j] = 1;
                value_ok += obs[j].value == looks[which[i]].value;
            }
            for (int j = 0; j < nobs; j++) {
                extra += !used[j];
                for (int k = 0; k < NSET; k++)
                    fc[k] += obs[j].value == looks[k].value;
            }
            for (int k = 0; k < NSET; k++)
                if (tc[k] || fc[k]) {
                    pairs++;
                    exact += tc[k] == fc[k];
                }
        }
    printf("learned chip set (8 chips from one photo each; the 5 and the "
           "5000 are both red, told apart by their edge spots): %d scenes, "
           "%ld chips\n",
           4 * scenes, truth_n);
    printf("  learned: ");
    for (int i = 0; i < NSET; i++)
        printf("%s%lld %s %d spots", i ? ", " : "",
               (long long)learned[i].value, learned[i].color,
               learned[i].edge_spots);
    printf("\n  found %.2f%%, value right %.2f%% of found, counted exactly "
           "per value %.2f%% of (scene, value) pairs, extra %.2f per scene\n",
           100.0 * found / truth_n, 100.0 * value_ok / found,
           100.0 * exact / pairs, (double)extra / (4 * scenes));
    return 0;
}

static double time_detect(const uint8_t *img, int frames,
                          const fw_chips_params *prm, int *n)
{
    fw_chip_obs obs[MAXOBS];
    fw_stack_obs st[MAXST];
    int ns = 0;
    fw_chips_detect(img, W, H, W * 3, prm, obs, MAXOBS, n, st, MAXST, &ns);
    double t0 = now_ms();
    for (int i = 0; i < frames; i++)
        fw_chips_detect(img, W, H, W * 3, prm, obs, MAXOBS, n, st, MAXST, &ns);
    return (now_ms() - t0) / frames;
}

int main(int argc, char **argv)
{
    /* OpenCV reads the variable when its thread pool starts: set it and
     * start again before any OpenCV call */
    if (!getenv("OPENCV_FOR_THREADS_NUM")) {
        setenv("OPENCV_FOR_THREADS_NUM", "1", 1);
        execv("/proc/self/exe", argv);
    }
    long scenes = 25, frames = 20;
    if ((argc > 1 && fw_parse_long(argv[1], 1, 10000, &scenes) != 0) ||
        (argc > 2 && fw_parse_long(argv[2], 1, 100000, &frames) != 0) ||
        argc > 3) {
        fprintf(stderr, "usage: eval_chips [SCENES_PER_FELT 1-10000] "
                        "[TIMING_FRAMES 1-100000]\n");
        return 2;
    }
    uint8_t *img = malloc((size_t)W * H * 3);
    if (!img)
        return 1;
    int rc = eval_spread(img, (int)scenes) || eval_learned(img, (int)scenes) ||
             eval_stacks(img, (int)scenes, 1) || eval_stacks(img, (int)scenes, 0);
    if (rc == 0) {
        fw_chip_obs truth[NSPREAD];
        int placed = fw_chips_render(img, W, H, W * 3, 11, "green", NSPREAD,
                                     truth);
        int n1 = 0, n2 = 0;
        double est = time_detect(img, (int)frames, NULL, &n1);
        fw_chips_params known = {.radius_px = truth[0].radius};
        double kn = time_detect(img, (int)frames, &known, &n2);
        printf("speed, 1280x720 with %d chips, one thread: %.2f ms radius "
               "estimated (%d found), %.2f ms radius known (%d found)\n",
               placed, est, n1, kn, n2);
    }
    free(img);
    return rc ? 1 : 0;
}
