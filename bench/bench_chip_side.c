/*
 * bench_chip_side.c - the side-camera stack counter (chip_side.h) over
 * rendered 1280x720 scenes it has never been tuned on (seeds from 900001):
 * one to five stacks of 1..40 chips, a fifth of the scenes with the stacks
 * touching in a row, on the four felts in turn. Prints the share of stacks
 * counted exactly, the share whose range holds the truth, the mean absolute
 * count error, stacks missed, false stacks, and milliseconds per frame with
 * one OpenCV thread (the program re-runs itself with
 * OPENCV_FOR_THREADS_NUM=1 when that is not set).
 *
 * usage: bench_chip_side [SCENES]     (default 200)
 *        bench_chip_side -v [SCENES]  (also every stack not counted exactly)
 */
#include "chip_side.h"
#include "fw_parse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { W = 1280, H = 720, MAXST = 5, MAXOUT = 32 };

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* A small generator of our own for the scene specs, so that they do not
 * depend on the renderer's use of its seed. */
static uint32_t next_rand(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/* The detection whose column overlaps truth t most, by at least half of
 * the narrower of the two; -1 when none. */
static int match(const fw_side_stack *t, const fw_side_stack *obs, int n,
                 const int *used)
{
    int best = -1;
    float bo = 0;
    for (int j = 0; j < n; j++) {
        if (used[j])
            continue;
        float lo = t->x0 > obs[j].x0 ? t->x0 : obs[j].x0;
        float hi = t->x1 < obs[j].x1 ? t->x1 : obs[j].x1;
        float wt = t->x1 - t->x0, wo = obs[j].x1 - obs[j].x0;
        float ov = (hi - lo) / (wt < wo ? wt : wo);
        if (ov > 0.5f && ov > bo) {
            bo = ov;
            best = j;
        }
    }
    return best;
}

int main(int argc, char **argv)
{
    static const char *const felts[] = {"green", "blue", "red", "wood"};
    /* OpenCV reads the variable when its thread pool starts: before any
     * OpenCV call, so set it and start again */
    if (!getenv("OPENCV_FOR_THREADS_NUM")) {
        setenv("OPENCV_FOR_THREADS_NUM", "1", 1);
        execv("/proc/self/exe", argv);
    }
    int verbose = 0, arg = 1;
    if (argc > arg && strcmp(argv[arg], "-v") == 0) {
        verbose = 1;
        arg++;
    }
    long scenes = 200;
    if (argc > arg + 1 ||
        (argc > arg && fw_parse_long(argv[arg], 1, 100000, &scenes) != 0)) {
        fprintf(stderr, "usage: bench_chip_side [-v] [SCENES 1..100000]\n");
        return 2;
    }
    uint8_t *img = malloc((size_t)W * H * 3);
    if (!img)
        return 1;
    long stacks = 0, found = 0, exact = 0, held = 0, ranged = 0, missed = 0,
         extra = 0, colour_ok = 0;
    double abs_err = 0, ms = 0;
    for (long s = 0; s < scenes; s++) {
        uint32_t seed = 900001u + (uint32_t)s, r = seed * 2654435761u | 1u;
        fw_side_spec spec[MAXST];
        fw_side_stack truth[MAXST], obs[MAXOUT];
        int nst = 1 + (int)(next_rand(&r) % MAXST);
        for (int i = 0; i < nst; i++) {
            spec[i].nchips = 1 + (int)(next_rand(&r) % FW_SIDE_MAX_CHIPS);
            spec[i].chips = NULL;
        }
        fw_side_view view = {0, 0, next_rand(&r) % 5 == 0};
        const char *felt = felts[s % 4];
        int placed = fw_chips_render_side(img, W, H, W * 3, seed, felt, &view,
                                          spec, nst, truth);
        if (placed < 0) {
            fprintf(stderr, "bench_chip_side: %s\n", fw_last_error());
            free(img);
            return 1;
        }
        int n = 0;
        double t0 = now_ms();
        int rc =
            fw_chips_count_side(img, W, H, W * 3, NULL, 0, obs, MAXOUT, &n);
        ms += now_ms() - t0;
        if (rc != FW_OK) {
            fprintf(stderr, "bench_chip_side: %s\n", fw_last_error());
            free(img);
            return 1;
        }
        int used[MAXOUT] = {0};
        for (int i = 0; i < nst; i++) {
            if (truth[i].count == 0)
                continue; /* found no room in the frame */
            stacks++;
            int j = match(&truth[i], obs, n, used);
            if (j < 0) {
                missed++;
                if (verbose)
                    printf("  scene %ld (%s): stack of %d at x %.0f..%.0f "
                           "(%.1f px a chip) missed\n",
                           s, felt, truth[i].count, truth[i].x0, truth[i].x1,
                           truth[i].chip_px);
                continue;
            }
            used[j] = 1;
            found++;
            int err = obs[j].count - truth[i].count;
            abs_err += abs(err);
            exact += err == 0;
            held += obs[j].count_lo <= truth[i].count &&
                    truth[i].count <= obs[j].count_hi;
            ranged += obs[j].count_lo < obs[j].count_hi;
            colour_ok += strcmp(obs[j].top_color, truth[i].top_color) == 0;
            if (verbose && (err != 0 || obs[j].count_lo > truth[i].count ||
                            obs[j].count_hi < truth[i].count))
                printf("  scene %ld (%s%s): %d chips (%.1f px) counted %d "
                       "[%d..%d] (%.1f px) conf %.2f\n",
                       s, felt, view.touching ? ", touching" : "",
                       truth[i].count, truth[i].chip_px, obs[j].count,
                       obs[j].count_lo, obs[j].count_hi, obs[j].chip_px,
                       obs[j].confidence);
        }
        for (int j = 0; j < n; j++)
            if (!used[j]) {
                extra++;
                if (verbose)
                    printf("  scene %ld (%s): false stack at x %.0f..%.0f\n", s,
                           felt, obs[j].x0, obs[j].x1);
            }
    }
    printf("side stacks: %ld scenes, %ld stacks, %ld found, %ld missed, "
           "%ld false\n",
           scenes, stacks, found, missed, extra);
    if (found > 0)
        printf("count exact %.1f%%, range holds truth %.1f%% (%.1f%% given "
               "as a range), mean abs error %.3f chips, top colour right "
               "%.1f%%\n",
               100.0 * exact / found, 100.0 * held / found,
               100.0 * ranged / found, abs_err / found,
               100.0 * colour_ok / found);
    printf("%.2f ms per 1280x720 frame (OPENCV_FOR_THREADS_NUM=%s)\n",
           ms / scenes, getenv("OPENCV_FOR_THREADS_NUM"));
    free(img);
    return 0;
}
