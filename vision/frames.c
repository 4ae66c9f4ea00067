/*
 * frames.c - the frame source handle: picks the backend from the URI and
 * forwards to its ops table (frames.h); helpers shared by C backends.
 */
#include "frames_int.h"

#include <stdlib.h>
#include <string.h>

static const fw_frames_ops *const backends[] = {
    &fw_frames__sim_ops,  &fw_frames__dir_ops, &fw_frames__file_ops,
    &fw_frames__v4l2_ops,
#ifdef FW_HAVE_LIBCAMERA
    &fw_frames__libcamera_ops,
#endif
};

#define N_BACKENDS (sizeof backends / sizeof backends[0])

int fw_frames_has_backend(const char *name)
{
    if (!name)
        return 0;
    for (size_t i = 0; i < N_BACKENDS; i++)
        if (strcmp(backends[i]->name, name) == 0)
            return 1;
    return 0;
}

/*
 * Fill the defaults into a copy of the caller's options and reject values
 * no backend can use. Returns FW_OK or FW_EINVAL with a message.
 */
static int check_options(const fw_frames_options *in, fw_frames_options *o)
{
    if (in)
        *o = *in;
    else
        memset(o, 0, sizeof *o);
    if (o->width < 0 || o->height < 0 || o->width > 16384 ||
        o->height > 16384 || (o->width == 0) != (o->height == 0))
        return fw_set_error(FW_EINVAL, "frames: bad size %dx%d", o->width,
                            o->height);
    if (!(o->fps >= 0 && o->fps <= 1000))
        return fw_set_error(FW_EINVAL, "frames: bad fps %g", o->fps);
    if (o->fps == 0)
        o->fps = 30;
    if (o->max_frames < 0 || o->stop_after < 0)
        return fw_set_error(FW_EINVAL, "frames: negative frame count");
    if (o->pixfmt < FW_FRAMES_FMT_AUTO || o->pixfmt > FW_FRAMES_FMT_YUYV)
        return fw_set_error(FW_EINVAL, "frames: bad pixel format %d",
                            (int)o->pixfmt);
    return FW_OK;
}

int fw_frames_open(const char *uri, const fw_frames_options *opt,
                   fw_frame_source **out)
{
    if (!out)
        return fw_set_error(FW_EINVAL, "frames: NULL out");
    *out = NULL;
    if (!uri)
        return fw_set_error(FW_EINVAL, "frames: NULL uri");
    const char *colon = strchr(uri, ':');
    if (!colon)
        return fw_set_error(FW_EINVAL,
                            "frames: '%s' has no scheme (sim:, file:PATH, "
                            "dir:PATH, v4l2:/dev/videoN, libcamera:)",
                            uri);
    size_t scheme_len = (size_t)(colon - uri);
    const fw_frames_ops *ops = NULL;
    for (size_t i = 0; i < N_BACKENDS; i++)
        if (strlen(backends[i]->name) == scheme_len &&
            memcmp(backends[i]->name, uri, scheme_len) == 0)
            ops = backends[i];
    if (!ops) {
        if (scheme_len == 9 && memcmp(uri, "libcamera", 9) == 0)
            return fw_set_error(FW_EUNSUPPORTED,
                                "frames: %s: this build has no libcamera",
                                uri);
        return fw_set_error(FW_EINVAL, "frames: %s: unknown source type '%.*s'",
                            uri, (int)scheme_len, uri);
    }

    fw_frame_source *src = calloc(1, sizeof *src);
    if (!src)
        return fw_set_error(FW_ENOMEM, "frames: out of memory");
    int rc = check_options(opt, &src->opt);
    if (rc != FW_OK) {
        free(src);
        return rc;
    }
    src->uri = strdup(uri);
    if (!src->uri) {
        free(src);
        return fw_set_error(FW_ENOMEM, "frames: out of memory");
    }
    src->arg = src->uri + scheme_len + 1;
    src->ops = ops;
    rc = ops->open(src, src->arg);
    if (rc != FW_OK) {
        free(src->uri);
        free(src);
        return rc;
    }
    src->open = 1;
    *out = src;
    return FW_OK;
}

int fw_frames_read(fw_frame_source *src, fw_image *frame, double *t_seconds,
                   int timeout_ms)
{
    if (!src || !frame)
        return fw_set_error(FW_EINVAL, "frames: NULL argument");
    if (!src->open)
        return fw_set_error(FW_EIO, "frames: %s: not connected", src->uri);
    if (src->ended)
        return FW_FRAMES_END;
    double t = 0;
    int rc = src->ops->read(src, frame, &t, timeout_ms);
    if (rc == FW_FRAMES_END)
        src->ended = 1;
    if (rc == FW_OK && t_seconds)
        *t_seconds = t;
    return rc;
}

int fw_frames_reconnect(fw_frame_source *src)
{
    if (!src)
        return fw_set_error(FW_EINVAL, "frames: NULL source");
    if (src->open)
        src->ops->close(src);
    src->open = 0;
    src->ended = 0;
    int rc = src->ops->open(src, src->arg);
    if (rc == FW_OK)
        src->open = 1;
    return rc;
}

void fw_frames_close(fw_frame_source *src)
{
    if (!src)
        return;
    if (src->open)
        src->ops->close(src);
    free(src->uri);
    free(src);
}

const char *fw_frames_name(const fw_frame_source *src)
{
    return src ? src->ops->name : "";
}

int fw_frames__reserve(uint8_t **buf, size_t *cap, size_t need)
{
    if (*cap >= need)
        return FW_OK;
    uint8_t *p = realloc(*buf, need);
    if (!p)
        return FW_ENOMEM;
    *buf = p;
    *cap = need;
    return FW_OK;
}

static uint8_t clamp255(int v)
{
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/*
 * BT.601 limited range in 16.16 fixed point: the integer form of
 * R = 1.164(Y-16) + 1.596(V-128), G = ... - 0.391(U-128) - 0.813(V-128),
 * B = ... + 2.018(U-128).
 */
void fw_frames__yuyv_to_bgr(const uint8_t *src, int src_stride, fw_image *dst)
{
    for (int y = 0; y < dst->height; y++) {
        const uint8_t *s = src + (size_t)y * (size_t)src_stride;
        uint8_t *d = dst->bgr + (size_t)y * (size_t)dst->stride;
        for (int x = 0; x + 1 < dst->width; x += 2, s += 4, d += 6) {
            int u = s[1] - 128, v = s[3] - 128;
            int cr = 104597 * v, cg = -25675 * u - 53279 * v,
                cb = 132201 * u;
            for (int k = 0; k < 2; k++) {
                int yy = 76309 * (s[2 * k] - 16) + 32768;
                d[3 * k + 0] = clamp255((yy + cb) >> 16);
                d[3 * k + 1] = clamp255((yy + cg) >> 16);
                d[3 * k + 2] = clamp255((yy + cr) >> 16);
            }
        }
    }
}
