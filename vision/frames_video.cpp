/*
 * frames_video.cpp - a video file as a frame source (file:PATH) through
 * OpenCV's VideoCapture, decoding into one kept cv::Mat.
 */
#include "frames_int.h"

#include <opencv2/videoio.hpp>

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <new>

namespace {

struct VideoState {
    cv::VideoCapture cap;
    cv::Mat img;
    double last_t = -1;
    long index = 0;
};

int video_open(fw_frame_source *src, const char *arg)
{
    if (arg[0] == '\0')
        return fw_set_error(FW_EINVAL, "frames: %s: file: needs a path",
                            src->uri);
    struct stat sb;
    if (stat(arg, &sb) != 0)
        return fw_set_error(errno == ENOENT ? FW_ENOENT : FW_EIO,
                            "frames: %s: %s", src->uri, std::strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return fw_set_error(FW_EINVAL, "frames: %s: not a regular file",
                            src->uri);
    try {
        auto *st = new VideoState();
        /* Only backends that read files: CAP_ANY would also try gphoto2,
         * which probes the USB bus for cameras (and leaks doing so). FFmpeg
         * reads what a kiosk records; OpenCV's own reader takes MJPEG AVI
         * where OpenCV was built without FFmpeg. */
        bool ok = false;
        for (int api : {(int)cv::CAP_FFMPEG, (int)cv::CAP_OPENCV_MJPEG})
            if (!ok)
                ok = st->cap.open(arg, api) && st->cap.isOpened();
        if (!ok) {
            delete st;
            return fw_set_error(FW_EPARSE,
                                "frames: %s: not a video this build can read",
                                src->uri);
        }
        src->state = st;
        return FW_OK;
    } catch (const std::bad_alloc &) {
        return fw_set_error(FW_ENOMEM, "frames: out of memory");
    } catch (const std::exception &e) {
        return fw_set_error(FW_EPARSE, "frames: %s: %s", src->uri, e.what());
    }
}

int video_read(fw_frame_source *src, fw_image *frame, double *t,
               int timeout_ms)
{
    auto *st = static_cast<VideoState *>(src->state);
    try {
        if (!st->cap.read(st->img) || st->img.empty())
            return FW_FRAMES_END;
        if (st->img.type() != CV_8UC3)
            return fw_set_error(FW_EPARSE, "frames: %s: frame %ld is not BGR",
                                src->uri, st->index);
        /* some containers give no position: fall back to index / fps, and
         * keep the stamps rising whatever the container says */
        double ts = st->cap.get(cv::CAP_PROP_POS_MSEC) / 1000.0;
        if (!(ts > st->last_t))
            ts = st->last_t < 0 ? (double)st->index / src->opt.fps
                                : st->last_t + 1.0 / src->opt.fps;
        st->last_t = ts;
        st->index++;
        frame->bgr = st->img.data;
        frame->width = st->img.cols;
        frame->height = st->img.rows;
        frame->stride = (int)st->img.step[0];
        *t = ts;
        return FW_OK;
    } catch (const std::bad_alloc &) {
        return fw_set_error(FW_ENOMEM, "frames: out of memory");
    } catch (const std::exception &e) {
        return fw_set_error(FW_EPARSE, "frames: %s: frame %ld: %s", src->uri,
                            st->index, e.what());
    }
}

void video_close(fw_frame_source *src)
{
    try {
        delete static_cast<VideoState *>(src->state);
    } catch (...) {
        /* a destructor that throws has nothing left to report to */
    }
    src->state = nullptr;
}

} // namespace

extern "C" const fw_frames_ops fw_frames__file_ops = {"file", video_open,
                                                       video_read, video_close};
