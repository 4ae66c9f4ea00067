/*
 * frames_sim.c - the simulated table camera (sim:): renders the current
 * scene with fw_vision_render_scene(), or lets the caller draw, into one
 * buffer kept for the life of the source. Always built; the tests use it.
 */
#include "frames_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct sim_state {
    fw_image img;
    uint8_t *buf;
    long served;      /* frames read since this open (for stop_after) */
    double t0;        /* CLOCK_MONOTONIC at open, for realtime pacing */
    int stopped;
} sim_state;

static const uint8_t default_felt[3] = {40, 110, 30}; /* BGR dark green */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int sim_open(fw_frame_source *src, const char *arg)
{
    if (arg[0] != '\0')
        return fw_set_error(FW_EINVAL, "frames: %s: sim: takes no argument",
                            src->uri);
    int w = src->opt.width ? src->opt.width : 640;
    int h = src->opt.height ? src->opt.height : 480;
    if (w < 64 || h < 64)
        return fw_set_error(FW_EINVAL,
                            "frames: %s: sim frames are at least 64x64, not "
                            "%dx%d",
                            src->uri, w, h);
    sim_state *s = calloc(1, sizeof *s);
    if (!s)
        return fw_set_error(FW_ENOMEM, "frames: out of memory");
    s->buf = malloc((size_t)w * (size_t)h * 3);
    if (!s->buf) {
        free(s);
        return fw_set_error(FW_ENOMEM, "frames: out of memory");
    }
    s->img.bgr = s->buf;
    s->img.width = w;
    s->img.height = h;
    s->img.stride = w * 3;
    s->t0 = now_s() - (double)src->sim_index / src->opt.fps;
    src->sim_dirty = 1; /* the new buffer holds nothing yet */
    src->state = s;
    return FW_OK;
}

/* Sleep until the monotonic clock reaches `until` (seconds). */
static void sleep_until(double until)
{
    for (;;) {
        double left = until - now_s();
        if (left <= 0)
            return;
        struct timespec ts = {(time_t)left,
                              (long)((left - (double)(time_t)left) * 1e9)};
        if (nanosleep(&ts, NULL) == 0 || errno != EINTR)
            return;
    }
}

static int sim_read(fw_frame_source *src, fw_image *frame, double *t,
                    int timeout_ms)
{
    sim_state *s = src->state;
    const fw_frames_options *o = &src->opt;
    if (s->stopped || (o->stop_after && s->served >= o->stop_after)) {
        s->stopped = 1;
        return fw_set_error(FW_EIO, "frames: %s: camera stopped", src->uri);
    }
    if (o->max_frames && src->sim_index >= o->max_frames)
        return FW_FRAMES_END;
    double ts = (double)src->sim_index / o->fps;
    if (o->realtime)
        sleep_until(s->t0 + ts);

    if (src->sim_draw) {
        int rc = src->sim_draw(src->sim_user, &s->img, src->sim_index, ts);
        if (rc != FW_OK)
            return rc;
        src->sim_dirty = 1; /* the scene must be drawn again if it returns */
    } else if (src->sim_dirty) {
        /* A still scene needs drawing once: the felt texture and the card
         * placement depend only on the seed, so later frames are equal. */
        const fw_frames_sim_scene *sc = &src->sim_scene;
        const uint8_t *felt = sc->felt_bgr;
        if (!felt[0] && !felt[1] && !felt[2])
            felt = default_felt;
        int rc = fw_vision_render_scene(s->img.bgr, s->img.width,
                                        s->img.height, felt, NULL, 0,
                                        sc->cards, sc->n_up, sc->n_down,
                                        sc->seed, NULL);
        if (rc < 0)
            return fw_set_error(rc, "frames: %s: rendering the scene: %s",
                                src->uri, fw_last_error());
        src->sim_dirty = 0;
    }
    src->sim_index++;
    s->served++;
    *frame = s->img;
    *t = ts;
    return FW_OK;
}

static void sim_close(fw_frame_source *src)
{
    sim_state *s = src->state;
    if (s) {
        free(s->buf);
        free(s);
    }
    src->state = NULL;
}

const fw_frames_ops fw_frames__sim_ops = {"sim", sim_open, sim_read,
                                          sim_close};

int fw_frames_sim_set_scene(fw_frame_source *src,
                            const fw_frames_sim_scene *scene)
{
    if (!src || !scene || src->ops != &fw_frames__sim_ops)
        return fw_set_error(FW_EINVAL, "frames: not a sim: source");
    if (scene->n_up < 0 || scene->n_down < 0 ||
        scene->n_up > (int)(sizeof scene->cards / sizeof scene->cards[0]) ||
        scene->n_down > 16)
        return fw_set_error(FW_EINVAL, "frames: sim scene: %d up, %d down",
                            scene->n_up, scene->n_down);
    src->sim_scene = *scene;
    src->sim_dirty = 1;
    return FW_OK;
}

int fw_frames_sim_set_draw(fw_frame_source *src, fw_frames_sim_draw_fn draw,
                           void *user)
{
    if (!src || src->ops != &fw_frames__sim_ops)
        return fw_set_error(FW_EINVAL, "frames: not a sim: source");
    src->sim_draw = draw;
    src->sim_user = user;
    src->sim_dirty = 1;
    return FW_OK;
}
