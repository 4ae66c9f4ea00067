/*
 * bench_chips.c - milliseconds per 1280x720 frame with 40 chips on green
 * felt, one OpenCV thread (the program re-runs itself with
 * OPENCV_FOR_THREADS_NUM=1 when that is not set).
 *
 * usage: bench_chips [FRAMES]
 */
#include "chips.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    enum { W = 1280, H = 720, N = 40 };
    /* OpenCV reads the variable when its thread pool starts: before any
     * OpenCV call, so set it and start again */
    if (!getenv("OPENCV_FOR_THREADS_NUM")) {
        setenv("OPENCV_FOR_THREADS_NUM", "1", 1);
        execv("/proc/self/exe", argv);
    }
    int frames = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 30;
    if (frames < 1)
        frames = 1;
    uint8_t *img = malloc((size_t)W * H * 3);
    if (!img)
        return 1;
    fw_chip_obs truth[N], obs[128];
    fw_stack_obs stacks[16];
    int placed = fw_chips_render(img, W, H, W * 3, 11, "green", N, truth);
    if (placed < 0) {
        fprintf(stderr, "bench_chips: %s\n", fw_last_error());
        free(img);
        return 1;
    }
    int n = 0, ns = 0;
    fw_chips_detect(img, W, H, W * 3, NULL, obs, 128, &n, stacks, 16,
                    &ns); /* warm up */
    double t0 = now_ms();
    for (int i = 0; i < frames; i++)
        fw_chips_detect(img, W, H, W * 3, NULL, obs, 128, &n, stacks, 16,
                        &ns);
    double ms = (now_ms() - t0) / frames;
    printf("chips placed %d, found %d (+%d stacks); %.2f ms per 1280x720 "
           "frame (%d frames, OPENCV_FOR_THREADS_NUM=%s)\n",
           placed, n, ns, ms, frames, getenv("OPENCV_FOR_THREADS_NUM"));
    free(img);
    return 0;
}
