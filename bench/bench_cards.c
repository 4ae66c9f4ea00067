/*
 * bench_cards.c - milliseconds per 1280x720 frame with ~15 cards (12 face
 * up, 3 backs) on green felt, one thread.
 *
 * usage: bench_cards [FRAMES]
 */
#include "vision.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    enum { W = 1280, H = 720 };
    int frames = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 50;
    if (frames < 1)
        frames = 1;
    fw_vision *v = NULL;
    if (fw_vision_new(&v) != FW_OK) {
        fprintf(stderr, "bench_cards: %s\n", fw_last_error());
        return 1;
    }
    uint8_t *img = malloc((size_t)W * H * 3);
    if (!img)
        return 1;
    const uint8_t felt[3] = {40, 110, 30};
    fw_card cards[12];
    for (int i = 0; i < 12; i++)
        cards[i] = fw_card_make((i * 7) % 13, i % 4);
    int placed = fw_vision_render_scene(img, W, H, felt, v, 0, cards, 12, 3,
                                        11, NULL);
    fw_card_obs obs[64];
    int n = 0;
    fw_vision_detect_cards(v, img, W, H, W * 3, obs, 64, &n); /* warm up */
    double t0 = now_ms();
    for (int i = 0; i < frames; i++)
        fw_vision_detect_cards(v, img, W, H, W * 3, obs, 64, &n);
    double ms = (now_ms() - t0) / frames;
    printf("cards placed %d, found %d; %.2f ms per 1280x720 frame (%d frames)\n",
           placed, n, ms, frames);
    free(img);
    fw_vision_free(v);
    return 0;
}
