/*
 * frames_v4l2.c - V4L2 webcams (v4l2:/dev/videoN): the capture device in
 * mmap streaming mode, MJPEG (decoded by OpenCV) or YUYV (converted here),
 * frames waited for with select() and a timeout.
 */
#include "frames_int.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <unistd.h>

#define N_BUFFERS 4

typedef struct v4l2_state {
    int fd;
    uint32_t pixfmt; /* V4L2_PIX_FMT_MJPEG or V4L2_PIX_FMT_YUYV */
    int width, height, bytesperline;
    struct {
        void *start;
        size_t length;
    } buf[N_BUFFERS];
    unsigned n_buf;
    int streaming;
    int stopped; /* a requeue failed: the next read reports it */
    uint8_t *bgr; /* YUYV frames converted here */
    size_t bgr_cap;
    fw_frames_decoder *dec; /* MJPEG frames decoded here */
    double last_t;
} v4l2_state;

/* ioctl() again after a signal, as the V4L2 examples do. */
static int xioctl(int fd, unsigned long req, void *arg)
{
    int r;
    do
        r = ioctl(fd, req, arg);
    while (r == -1 && errno == EINTR);
    return r;
}

/* Undo whatever v4l2_open got through, in reverse; NULL is accepted. */
static void v4l2_free(v4l2_state *s)
{
    if (!s)
        return;
    if (s->streaming) {
        enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        xioctl(s->fd, VIDIOC_STREAMOFF, &type);
    }
    for (unsigned i = 0; i < s->n_buf; i++)
        if (s->buf[i].start && s->buf[i].start != MAP_FAILED)
            munmap(s->buf[i].start, s->buf[i].length);
    if (s->fd >= 0)
        close(s->fd);
    free(s->bgr);
    fw_frames__decoder_free(s->dec);
    free(s);
}

/*
 * Ask for fmt at the wanted size; the driver may change the size (we take
 * what it gives) but a different pixel format means it lacks this one.
 * Returns 1 when the device now delivers fmt.
 */
static int try_format(v4l2_state *s, uint32_t fmt, int w, int h)
{
    struct v4l2_format f;
    memset(&f, 0, sizeof f);
    f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    f.fmt.pix.width = (uint32_t)w;
    f.fmt.pix.height = (uint32_t)h;
    f.fmt.pix.pixelformat = fmt;
    f.fmt.pix.field = V4L2_FIELD_NONE;
    if (xioctl(s->fd, VIDIOC_S_FMT, &f) == -1 || f.fmt.pix.pixelformat != fmt)
        return 0;
    s->pixfmt = fmt;
    s->width = (int)f.fmt.pix.width;
    s->height = (int)f.fmt.pix.height;
    s->bytesperline = (int)f.fmt.pix.bytesperline;
    if (s->bytesperline < s->width * 2)
        s->bytesperline = s->width * 2;
    return 1;
}

static int v4l2_open(fw_frame_source *src, const char *dev)
{
    if (dev[0] == '\0')
        return fw_set_error(FW_EINVAL, "frames: %s: v4l2: needs a device",
                            src->uri);
    v4l2_state *s = calloc(1, sizeof *s);
    if (!s)
        return fw_set_error(FW_ENOMEM, "frames: out of memory");
    s->fd = -1;
    s->last_t = -1;

    struct stat sb;
    if (stat(dev, &sb) == -1) {
        int e = errno;
        v4l2_free(s);
        return fw_set_error(e == ENOENT ? FW_ENOENT : FW_EIO,
                            "frames: %s: no such device (%s)", src->uri,
                            strerror(e));
    }
    if (!S_ISCHR(sb.st_mode)) {
        v4l2_free(s);
        return fw_set_error(FW_EUNSUPPORTED,
                            "frames: %s: not a device file", src->uri);
    }
    s->fd = open(dev, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (s->fd == -1) {
        int e = errno;
        v4l2_free(s);
        return fw_set_error(e == ENOENT || e == ENODEV || e == ENXIO
                                ? FW_ENOENT
                                : FW_EIO,
                            "frames: %s: %s%s", src->uri,
                            e == ENODEV || e == ENXIO ? "no such device: "
                                                      : "",
                            strerror(e));
    }

    struct v4l2_capability cap;
    memset(&cap, 0, sizeof cap);
    if (xioctl(s->fd, VIDIOC_QUERYCAP, &cap) == -1) {
        int e = errno;
        v4l2_free(s);
        return fw_set_error(e == EINVAL || e == ENOTTY ? FW_EUNSUPPORTED
                                                       : FW_EIO,
                            "frames: %s: not a V4L2 device: %s", src->uri,
                            strerror(e));
    }
    uint32_t caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS)
                        ? cap.device_caps
                        : cap.capabilities;
    if (!(caps & V4L2_CAP_VIDEO_CAPTURE) || !(caps & V4L2_CAP_STREAMING)) {
        v4l2_free(s);
        return fw_set_error(FW_EUNSUPPORTED,
                            "frames: %s (%s): no video capture with "
                            "streaming",
                            src->uri, (const char *)cap.card);
    }

    int w = src->opt.width ? src->opt.width : 1280;
    int h = src->opt.height ? src->opt.height : 720;
    enum fw_frames_pixfmt want = src->opt.pixfmt;
    int ok = 0;
    if (want != FW_FRAMES_FMT_YUYV)
        ok = try_format(s, V4L2_PIX_FMT_MJPEG, w, h);
    if (!ok && want != FW_FRAMES_FMT_MJPEG)
        ok = try_format(s, V4L2_PIX_FMT_YUYV, w, h);
    if (!ok) {
        v4l2_free(s);
        return fw_set_error(FW_EUNSUPPORTED,
                            "frames: %s (%s): offers neither MJPEG nor YUYV "
                            "as asked",
                            src->uri, (const char *)cap.card);
    }

    /* the frame rate is a wish: many drivers lack VIDIOC_S_PARM */
    struct v4l2_streamparm parm;
    memset(&parm, 0, sizeof parm);
    parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    parm.parm.capture.timeperframe.numerator = 1000;
    parm.parm.capture.timeperframe.denominator =
        (uint32_t)(src->opt.fps * 1000.0 + 0.5);
    xioctl(s->fd, VIDIOC_S_PARM, &parm);

    struct v4l2_requestbuffers req;
    memset(&req, 0, sizeof req);
    req.count = N_BUFFERS;
    req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    req.memory = V4L2_MEMORY_MMAP;
    if (xioctl(s->fd, VIDIOC_REQBUFS, &req) == -1 || req.count < 2) {
        int e = errno;
        v4l2_free(s);
        return fw_set_error(FW_EIO, "frames: %s: VIDIOC_REQBUFS: %s",
                            src->uri, strerror(e));
    }
    if (req.count > N_BUFFERS)
        req.count = N_BUFFERS;
    for (unsigned i = 0; i < req.count; i++) {
        struct v4l2_buffer b;
        memset(&b, 0, sizeof b);
        b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        b.memory = V4L2_MEMORY_MMAP;
        b.index = i;
        if (xioctl(s->fd, VIDIOC_QUERYBUF, &b) == -1) {
            int e = errno;
            v4l2_free(s);
            return fw_set_error(FW_EIO, "frames: %s: VIDIOC_QUERYBUF: %s",
                                src->uri, strerror(e));
        }
        s->buf[i].length = b.length;
        s->buf[i].start = mmap(NULL, b.length, PROT_READ | PROT_WRITE,
                               MAP_SHARED, s->fd, b.m.offset);
        s->n_buf = i + 1;
        if (s->buf[i].start == MAP_FAILED) {
            int e = errno;
            v4l2_free(s);
            return fw_set_error(FW_EIO, "frames: %s: mmap: %s", src->uri,
                                strerror(e));
        }
        if (xioctl(s->fd, VIDIOC_QBUF, &b) == -1) {
            int e = errno;
            v4l2_free(s);
            return fw_set_error(FW_EIO, "frames: %s: VIDIOC_QBUF: %s",
                                src->uri, strerror(e));
        }
    }

    if (s->pixfmt == V4L2_PIX_FMT_MJPEG) {
        if (fw_frames__decoder_new(&s->dec) != FW_OK) {
            v4l2_free(s);
            return fw_set_error(FW_ENOMEM, "frames: out of memory");
        }
    } else if (fw_frames__reserve(&s->bgr, &s->bgr_cap,
                                  (size_t)s->width * (size_t)s->height * 3) !=
               FW_OK) {
        v4l2_free(s);
        return fw_set_error(FW_ENOMEM, "frames: out of memory");
    }

    enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (xioctl(s->fd, VIDIOC_STREAMON, &type) == -1) {
        int e = errno;
        v4l2_free(s);
        return fw_set_error(FW_EIO, "frames: %s: VIDIOC_STREAMON: %s",
                            src->uri, strerror(e));
    }
    s->streaming = 1;
    src->state = s;
    return FW_OK;
}

/*
 * Turn the dequeued buffer b into BGR in the state's own buffers. Returns
 * FW_OK or FW_EPARSE (a corrupt or short frame), with a message.
 */
static int convert(fw_frame_source *src, v4l2_state *s,
                   const struct v4l2_buffer *b, fw_image *frame)
{
    const uint8_t *data = s->buf[b->index].start;
    size_t used = b->bytesused ? b->bytesused : s->buf[b->index].length;
    if (b->flags & V4L2_BUF_FLAG_ERROR)
        return fw_set_error(FW_EPARSE, "frames: %s: corrupt frame %u",
                            src->uri, b->sequence);
    if (s->pixfmt == V4L2_PIX_FMT_MJPEG) {
        if (fw_frames__decode(s->dec, data, used, frame) != FW_OK)
            return fw_set_error(FW_EPARSE,
                                "frames: %s: frame %u is not a JPEG",
                                src->uri, b->sequence);
        return FW_OK;
    }
    if (used < (size_t)s->bytesperline * (size_t)(s->height - 1) +
                   (size_t)s->width * 2)
        return fw_set_error(FW_EPARSE, "frames: %s: short frame %u",
                            src->uri, b->sequence);
    frame->bgr = s->bgr;
    frame->width = s->width;
    frame->height = s->height;
    frame->stride = s->width * 3;
    fw_frames__yuyv_to_bgr(data, s->bytesperline, frame);
    return FW_OK;
}

static int v4l2_read(fw_frame_source *src, fw_image *frame, double *t,
                     int timeout_ms)
{
    v4l2_state *s = src->state;
    if (s->stopped)
        return fw_set_error(FW_EIO, "frames: %s: camera stopped", src->uri);
    for (;;) {
        fd_set fds;
        FD_ZERO(&fds);
        FD_SET(s->fd, &fds);
        struct timeval tv = {timeout_ms / 1000, (timeout_ms % 1000) * 1000};
        int r = select(s->fd + 1, &fds, NULL, NULL,
                       timeout_ms < 0 ? NULL : &tv);
        if (r == -1 && errno == EINTR)
            continue;
        if (r == -1)
            return fw_set_error(FW_EIO, "frames: %s: camera stopped: %s",
                                src->uri, strerror(errno));
        if (r == 0)
            return FW_FRAMES_TIMEOUT;
        break;
    }
    struct v4l2_buffer b;
    memset(&b, 0, sizeof b);
    b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    b.memory = V4L2_MEMORY_MMAP;
    if (xioctl(s->fd, VIDIOC_DQBUF, &b) == -1) {
        if (errno == EAGAIN)
            return FW_FRAMES_TIMEOUT;
        /* ENODEV: unplugged; EIO: the driver gave up */
        return fw_set_error(FW_EIO, "frames: %s: camera stopped: %s",
                            src->uri, strerror(errno));
    }
    if (b.index >= s->n_buf)
        return fw_set_error(FW_EIO, "frames: %s: driver returned buffer %u",
                            src->uri, b.index);
    int rc = convert(src, s, &b, frame);
    if (rc == FW_OK) {
        double ts = (double)b.timestamp.tv_sec +
                    (double)b.timestamp.tv_usec * 1e-6;
        if (!(ts > s->last_t))
            ts = s->last_t < 0 ? 0 : s->last_t + 1e-6;
        s->last_t = ts;
        *t = ts;
    }
    /* the pixels are converted into our buffers: the driver may refill
     * this one at once */
    if (xioctl(s->fd, VIDIOC_QBUF, &b) == -1)
        s->stopped = 1;
    return rc;
}

static void v4l2_close(fw_frame_source *src)
{
    v4l2_free(src->state);
    src->state = NULL;
}

const fw_frames_ops fw_frames__v4l2_ops = {"v4l2", v4l2_open, v4l2_read,
                                           v4l2_close};
