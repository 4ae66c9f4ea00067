/*
 * bench_cards.c - milliseconds per 1280x720 frame with 15 cards, one
 * thread: rendered table scenes (sim.h, Debian card art, held-out decks)
 * through fw_vision_detect_cards().
 *
 * usage: bench_cards [FRAMES] [SCENES] [DEALT] [TILT]
 *
 * SCENES different scenes (default 5) are rendered once, each as its own
 * camera sees it (each scene's camera is tilted its own way: each has a
 * detector of its own, which finds on the scene's first frame whether to
 * see the table through its flat view, vision.h fw_vision_forget_cards;
 * what that first frame costs is printed apart). Three runs are timed.
 * Cold: the frames cycle through the scenes, so every card of a frame is
 * new to the detector and read (fw_vision_forget_cards() before each). Still: each scene is held for
 * FRAMES / SCENES frames in a row, each frame with fresh sensor noise
 * (STILL_NOISE), as a camera over a table where the cards lie still
 * sees it: the detector carries the readings of cards that have not
 * moved (vision.h fw_vision_last_frame) and reads only the rest, and a
 * frame unchanged but for the noise it does not detect again; it also
 * says how far the still cards seemed to move from frame to frame. Dealt:
 * the first DEALT scenes (default 2, at most DEAL_SCENES; 0: no dealt
 * run, as before it was added) dealt a card at a time, as the kiosk's
 * camera sees a hand dealt: frame k shows the scene's first k cards (a
 * card dealt later lies over those before it), with fresh noise, so each
 * frame holds one card new to the detector and the rest lying still; it
 * prints the mean and the slowest frame, and how many readings were
 * carried. The
 * process is held to the core it starts on (Linux), so
 * that no thread of OpenCV's pool works beside it: one core, as on the
 * kiosk's budget. Built with -DFW_STAGE_TIMES=ON it also prints the time of
 * each of the detector's stages and the corner indexes each of its passes
 * read. Each run also says how many heap allocations a frame made
 * (alloc_count.h; glibc, not in a sanitizer build). Falls back to fw_vision_render_scene()'s drawn
 * cards when the card art is not installed. TILT (degrees, default: each
 * scene's own, 0 to 10) sets every scene's camera tilt: at 15 or more the
 * cameras look at the table at a slant their detectors see through the
 * table's flat view (vision.h), and every frame is warped through it.
 */
#define _GNU_SOURCE /* sched_setaffinity, sched_getcpu */
#include "alloc_count.h"
#include "sim.h"
#include "vision.h"

#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The sensor noise added to each frame of the still run: the sum of four
 * uniform draws in [-3, 3], about 3.5 grey levels either way (sigma 1.7). */
#define STILL_NOISE 3
/* Noisy copies of each scene the still run cycles through. */
#define STILL_COPIES 4
/* The most scenes the dealt run deals a card at a time (each of 15 cards:
 * as many renders, made before the clock starts). */
#define DEAL_SCENES 4

/* A fast generator of the noise (xorshift32): the copies are made before
 * the clock starts. */
static uint32_t next_rand(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

/* dst = src with sensor noise of seed; both w x h BGR, rows stride apart. */
static void add_noise(const fw_image *src, uint8_t *dst, uint32_t seed)
{
    uint32_t r = seed | 1;
    for (int y = 0; y < src->height; y++) {
        const uint8_t *a = src->bgr + (size_t)y * src->stride;
        uint8_t *b = dst + (size_t)y * src->stride;
        for (int x = 0; x < src->width * 3; x++) {
            int n = 0;
            for (int k = 0; k < 4; k++)
                n += (int)(next_rand(&r) % (2 * STILL_NOISE + 1)) - STILL_NOISE;
            n = a[x] + n / 2;
            b[x] = (uint8_t)(n < 0 ? 0 : n > 255 ? 255 : n);
        }
    }
}

/* The heap allocations a run of frames made (count over frames), and how
 * much the heap in use grew over the run (from heap0 bytes), where they
 * are counted (alloc_count.h). */
static void print_allocs(const char *run, long count, int frames, long heap0)
{
    if (fw_alloc_count() < 0 || frames <= 0)
        return;
    printf("%s: %.1f heap allocations per frame (%ld in %d frames); the "
           "heap in use grew %.1f kB over them\n",
           run, (double)count / frames, count, frames,
           (double)(fw_heap_in_use() - heap0) / 1e3);
}

/* A card's centre. */
static void centre(const fw_card_obs *o, double *x, double *y)
{
    *x = *y = 0;
    for (int k = 0; k < 4; k++) {
        *x += o->corners[k][0] / 4;
        *y += o->corners[k][1] / 4;
    }
}

/* How far card o moved since the frame before (was[0..nwas)): the
 * furthest of its corners from the nearest corner of the card there whose
 * centre lies nearest its own, in pixels; -1 when no card lay within 20
 * pixels of it. */
static double furthest_move(const fw_card_obs *o, const fw_card_obs *was,
                            int nwas)
{
    double cx, cy, best = 400; /* 20 px, squared */
    const fw_card_obs *w = NULL;
    centre(o, &cx, &cy);
    for (int i = 0; i < nwas; i++) {
        double x, y;
        centre(&was[i], &x, &y);
        const double d = (x - cx) * (x - cx) + (y - cy) * (y - cy);
        if (d < best) {
            best = d;
            w = &was[i];
        }
    }
    if (!w)
        return -1;
    double far = 0;
    for (int k = 0; k < 4; k++) {
        double near = 1e30;
        for (int j = 0; j < 4; j++) {
            const double dx = o->corners[k][0] - w->corners[j][0],
                         dy = o->corners[k][1] - w->corners[j][1];
            near = fmin(near, sqrt(dx * dx + dy * dy));
        }
        far = fmax(far, near);
    }
    return far;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    enum { W = 1280, H = 720, MAXS = 20 };
    int frames = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 100;
    int nscenes = argc > 2 ? (int)strtol(argv[2], NULL, 10) : 5;
    if (frames < 1)
        frames = 1;
    if (nscenes < 1 || nscenes > MAXS)
        nscenes = 5;
    int ndeal = argc > 3 ? (int)strtol(argv[3], NULL, 10) : 2;
    if (ndeal < 0 || ndeal > DEAL_SCENES)
        ndeal = 2;
    const double tilt = argc > 4 ? strtod(argv[4], NULL) : -1;
    /* one thread: OpenCV's own pool reads this before its first use; and
     * one core for every thread there is, pinned before any is made */
    setenv("OPENCV_FOR_THREADS_NUM", "1", 0);
    int cpu = sched_getcpu();
    if (cpu >= 0) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        if (sched_setaffinity(0, sizeof one, &one) != 0)
            fprintf(stderr, "bench_cards: not held to one core\n");
    }
    /* v draws the scenes where the card art is missing; cam[i] detects
     * scene i's frames */
    fw_vision *v = NULL, *cam[MAXS] = {NULL};
    if (fw_vision_new(&v) != FW_OK) {
        fprintf(stderr, "bench_cards: %s\n", fw_last_error());
        return 1;
    }
    for (int i = 0; i < nscenes; i++)
        if (fw_vision_new(&cam[i]) != FW_OK) {
            fprintf(stderr, "bench_cards: %s\n", fw_last_error());
            return 1;
        }
    fw_image imgs[MAXS];
    int placed[MAXS];
    memset(imgs, 0, sizeof imgs);
    static fw_sim_scene deal_scene[DEAL_SCENES];
    int deal_n = 0;
    fw_sim *sim = NULL;
    int rendered = 0;
    if (fw_sim_new(getenv("FW_CARD_CACHE"), &sim) == FW_OK) {
        for (int i = 0; i < nscenes; i++) {
            fw_sim_random_opts o;
            memset(&o, 0, sizeof o);
            o.width = W;
            o.height = H;
            o.any_deck = 1;
            o.held_out = 1;
            o.min_cards = o.max_cards = 15;
            o.table = -1;
            fw_sim_scene sc;
            if (fw_sim_random_scene(100u + (unsigned)i, &o, &sc) != FW_OK)
                break;
            if (tilt >= 0)
                sc.tilt = (float)(tilt < 30 ? tilt : 30);
            if (fw_sim_render(sim, &sc, &imgs[i], NULL) != FW_OK)
                break;
            placed[i] = sc.ncards;
            if (deal_n < ndeal)
                deal_scene[deal_n++] = sc;
            rendered++;
        }
    }
    /* the dealt run's frames: each scene's first k cards, k = 1 .. all */
    int deal_frames = 0, deal_of[DEAL_SCENES * FW_SIM_MAX_CARDS];
    fw_image *deal = NULL;
    if (rendered == nscenes && deal_n > 0) {
        deal = calloc((size_t)deal_n * FW_SIM_MAX_CARDS, sizeof *deal);
        for (int i = 0; deal && i < deal_n; i++)
            for (int k = 1; k <= deal_scene[i].ncards; k++) {
                fw_sim_scene sc = deal_scene[i];
                sc.ncards = k;
                if (fw_sim_render(sim, &sc, &deal[deal_frames], NULL) != FW_OK)
                    break;
                deal_of[deal_frames++] = i;
            }
    }
    fw_sim_free(sim);
    if (rendered < nscenes) {
        fprintf(stderr, "bench_cards: no card art (%s); drawn cards instead\n",
                fw_last_error());
        const uint8_t felt[3] = {40, 110, 30};
        fw_card cards[12];
        for (int i = 0; i < 12; i++)
            cards[i] = fw_card_make((i * 7) % 13, i % 4);
        for (int i = rendered; i < nscenes; i++) {
            imgs[i].bgr = malloc((size_t)W * H * 3);
            if (!imgs[i].bgr)
                return 1;
            imgs[i].width = W;
            imgs[i].height = H;
            imgs[i].stride = W * 3;
            placed[i] = fw_vision_render_scene(imgs[i].bgr, W, H, felt, v, 0,
                                               cards, 12, 3, 11u + (unsigned)i,
                                               NULL);
        }
    }
    /* a build with -DFW_STAGE_TIMES=ON also says where the time went, for
     * the cold run and the still run apart (its clock reads cost a little) */
    char stages[2048];
    fw_card_obs obs[64];
    int n = 0, found = 0, total = 0;
    /* warm up, and count; each camera's first frame finds its view */
    double first_ms = 0;
    int through = 0;
    for (int i = 0; i < nscenes; i++) {
        const double t1 = now_ms();
        fw_vision_detect_cards(cam[i], imgs[i].bgr, W, H, imgs[i].stride, obs,
                               64, &n);
        first_ms += now_ms() - t1;
        fw_vision_frame_stats st;
        fw_vision_last_frame(cam[i], &st);
        through += st.flat_view != 0;
        found += n;
        total += placed[i];
    }
    fw_vision_stage_report(stages, sizeof stages); /* not the warm-up's */
    long allocs = fw_alloc_count(), heap0 = fw_heap_in_use();
    double t0 = now_ms();
    for (int i = 0; i < frames; i++) {
        const fw_image *im = &imgs[i % nscenes];
        /* every card new: nothing carried from the scene's frame of
         * nscenes frames before (a second choice's reading waits that
         * long for its place to be asked of again); the camera's view
         * kept */
        fw_vision *c = cam[i % nscenes];
        fw_vision_forget_cards(c);
        fw_vision_detect_cards(c, im->bgr, W, H, im->stride, obs, 64, &n);
    }
    double ms = (now_ms() - t0) / frames;
    allocs = fw_alloc_count() - allocs;
    printf("%d scenes, cards placed %d, found %d; %.2f ms per 1280x720 frame "
           "(%d frames, one thread)\n",
           nscenes, total, found, ms, frames);
    printf("cold: %d of %d scenes seen through their flat view; a camera's "
           "first frame, which finds whether to, %.2f ms\n",
           through, nscenes, first_ms / nscenes);
    print_allocs("cold", allocs, frames, heap0);
    if (fw_vision_stage_report(stages, sizeof stages) > 0)
        printf("by stage, per cold frame:\n%s", stages);
    /* still: each scene held for its share of the frames, with fresh
     * noise on each */
    size_t bytes = (size_t)imgs[0].stride * H;
    uint8_t *copies = malloc(bytes * STILL_COPIES * (size_t)nscenes);
    if (!copies) {
        fprintf(stderr, "bench_cards: out of memory\n");
        return 1;
    }
    for (int i = 0; i < nscenes; i++)
        for (int k = 0; k < STILL_COPIES; k++)
            add_noise(&imgs[i], copies + bytes * (size_t)(i * STILL_COPIES + k),
                      1234567u * (uint32_t)(i * STILL_COPIES + k + 1));
    const int per_scene = frames / nscenes > 0 ? frames / nscenes : 1;
    long kept = 0, quads = 0, moved = 0, moved_far = 0, unchanged = 0;
    double still_ms = 0, move_sum = 0;
    static fw_card_obs was[64];
    int nwas = 0;
    allocs = fw_alloc_count();
    heap0 = fw_heap_in_use();
    for (int i = 0; i < nscenes; i++) {
        /* the scene's first frame is read whole: it is timed with the
         * rest, as a camera's first frame after the cards came to rest */
        fw_vision_forget_cards(cam[i]);
        double t1 = now_ms();
        for (int f = 0; f < per_scene; f++) {
            const uint8_t *px =
                copies + bytes * (size_t)(i * STILL_COPIES + f % STILL_COPIES);
            fw_vision_detect_cards(cam[i], px, W, H, imgs[i].stride, obs, 64,
                                   &n);
            fw_vision_frame_stats st;
            fw_vision_last_frame(cam[i], &st);
            kept += st.readings_kept;
            quads += st.quads;
            unchanged += st.unchanged;
            /* how far the still cards seemed to move (the tracker sees
             * such moves); cheap beside a frame's work */
            for (int k = 0; k < n && f > 0; k++) {
                const double d = furthest_move(&obs[k], was, nwas);
                if (d >= 0) {
                    move_sum += d;
                    moved++;
                    moved_far += d > 3;
                }
            }
            memcpy(was, obs, sizeof was);
            nwas = n;
        }
        still_ms += now_ms() - t1;
    }
    allocs = fw_alloc_count() - allocs;
    printf("still cards: %.2f ms per frame (%d frames of each scene, fresh "
           "noise on each; %ld of %ld readings carried from the frame "
           "before; %ld of %d frames unchanged, not detected again), %.2f "
           "of the cold frame's time\n",
           still_ms / (per_scene * nscenes), per_scene, kept, quads,
           unchanged, per_scene * nscenes,
           still_ms / (per_scene * nscenes) / ms);
    printf("still cards seemed to move %.2f px a frame (the mean of each "
           "card's furthest corner move), more than 3 px %ld times in %ld\n",
           moved ? move_sum / moved : 0, moved_far, moved);
    print_allocs("still", allocs, per_scene * nscenes, heap0);
    free(copies);
    if (fw_vision_stage_report(stages, sizeof stages) > 0)
        printf("by stage, per still frame:\n%s", stages);
    /* dealt: a card more on each frame, fresh noise on each */
    if (deal_frames > 0) {
        uint8_t *px = malloc(bytes);
        if (!px) {
            fprintf(stderr, "bench_cards: out of memory\n");
            return 1;
        }
        double deal_ms = 0, slowest = 0;
        long deal_kept = 0, deal_quads = 0, deal_runners = 0, runners_kept = 0;
        long deal_allocs = 0;
        heap0 = fw_heap_in_use();
        for (int f = 0; f < deal_frames; f++) {
            /* scene deal_of[f]'s camera, fresh as its hand is dealt */
            fw_vision *c = cam[deal_of[f]];
            if (f == 0 || deal_of[f] != deal_of[f - 1])
                fw_vision_forget_cards(c);
            add_noise(&deal[f], px, 7654321u * (uint32_t)(f + 1));
            const long a0 = fw_alloc_count();
            const double t1 = now_ms();
            fw_vision_detect_cards(c, px, W, H, deal[f].stride, obs, 64, &n);
            const double t = now_ms() - t1;
            deal_allocs += fw_alloc_count() - a0;
            deal_ms += t;
            slowest = t > slowest ? t : slowest;
            fw_vision_frame_stats st;
            fw_vision_last_frame(c, &st);
            deal_kept += st.readings_kept;
            deal_quads += st.quads;
            deal_runners += st.runners;
            runners_kept += st.runners_kept;
        }
        printf("dealt: %.2f ms per frame, the slowest %.2f ms (%d scenes "
               "dealt a card a frame, %d frames, fresh noise on each; %ld of "
               "%ld readings carried from the frame before, and %ld of %ld "
               "second choices), %.2f of the cold frame's time\n",
               deal_ms / deal_frames, slowest, deal_n, deal_frames, deal_kept,
               deal_quads, runners_kept, deal_runners,
               deal_ms / deal_frames / ms);
        print_allocs("dealt", deal_allocs, deal_frames, heap0);
        free(px);
        if (fw_vision_stage_report(stages, sizeof stages) > 0)
            printf("by stage, per dealt frame:\n%s", stages);
        for (int f = 0; f < deal_frames; f++)
            fw_vision_image_free(&deal[f]);
    }
    free(deal);
    for (int i = 0; i < nscenes; i++)
        fw_vision_image_free(&imgs[i]);
    for (int i = 0; i < nscenes; i++)
        fw_vision_free(cam[i]);
    fw_vision_free(v);
    return 0;
}
