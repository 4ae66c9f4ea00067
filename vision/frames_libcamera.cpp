/*
 * frames_libcamera.cpp - libcamera cameras (libcamera:[ID]): the first
 * camera (or the one named), one viewfinder stream in RGB888 (BGR bytes in
 * memory), YUYV or MJPEG, requests requeued from the completion handler,
 * which copies each finished frame into a slot that fw_frames_read() takes.
 * Built only when pkg-config finds libcamera.
 */
#include "frames_int.h"

#include <libcamera/libcamera.h>

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

namespace lc = libcamera;

namespace {

/*
 * libcamera allows one CameraManager per process: the sources share one,
 * started by the first open and stopped when the last closes.
 */
std::mutex manager_mu;
lc::CameraManager *manager;
int manager_users;

lc::CameraManager *manager_get()
{
    std::lock_guard<std::mutex> lock(manager_mu);
    if (!manager) {
        auto cm = std::make_unique<lc::CameraManager>();
        if (cm->start() != 0)
            return nullptr;
        manager = cm.release();
    }
    manager_users++;
    return manager;
}

void manager_put()
{
    std::lock_guard<std::mutex> lock(manager_mu);
    if (--manager_users == 0) {
        manager->stop();
        delete manager;
        manager = nullptr;
    }
}

struct Mapping {
    const lc::FrameBuffer *fb;
    void *base;
    size_t length;
    const uint8_t *data; /* plane 0 */
    size_t plane_len;
};

struct LcSource {
    lc::CameraManager *cm = nullptr;
    std::shared_ptr<lc::Camera> cam;
    bool acquired = false, started = false;
    std::unique_ptr<lc::CameraConfiguration> config;
    lc::Stream *stream = nullptr;
    std::unique_ptr<lc::FrameBufferAllocator> alloc;
    std::vector<std::unique_ptr<lc::Request>> requests;
    std::vector<Mapping> maps;
    lc::PixelFormat fmt;
    int width = 0, height = 0, stride = 0;

    /* shared with libcamera's thread, under mu */
    std::mutex mu;
    std::condition_variable cv;
    std::vector<uint8_t> ready; /* the newest finished frame's bytes */
    size_t ready_len = 0;
    uint64_t ready_ts = 0;
    bool have = false, gone = false, stopping = false;

    /* the reader's own */
    std::vector<uint8_t> held; /* swapped with ready: no copy, no alloc */
    size_t held_len = 0;
    std::vector<uint8_t> bgr;
    fw_frames_decoder *dec = nullptr;
    double last_t = -1;

    void on_complete(lc::Request *req);
    void on_disconnect();
    ~LcSource();
};

const Mapping *find_map(const std::vector<Mapping> &maps,
                        const lc::FrameBuffer *fb)
{
    for (const Mapping &m : maps)
        if (m.fb == fb)
            return &m;
    return nullptr;
}

/*
 * Runs on libcamera's thread for every request that completes: copy the
 * frame into `ready` (a buffer of fixed size after the first frame), wake
 * the reader, and give the request back to the camera. Must not throw.
 */
void LcSource::on_complete(lc::Request *req)
{
    if (req->status() == lc::Request::RequestCancelled)
        return;
    auto it = req->buffers().find(stream);
    if (it != req->buffers().end()) {
        const lc::FrameBuffer *fb = it->second;
        const Mapping *m = find_map(maps, fb);
        const lc::FrameMetadata &md = fb->metadata();
        if (m && md.status == lc::FrameMetadata::FrameSuccess &&
            !md.planes().empty()) {
            size_t n = md.planes()[0].bytesused;
            if (n == 0 || n > m->plane_len)
                n = m->plane_len;
            std::lock_guard<std::mutex> lock(mu);
            if (ready.size() >= n) { /* sized at open: never grows here */
                std::memcpy(ready.data(), m->data, n);
                ready_len = n;
                ready_ts = md.timestamp;
                have = true;
            }
        }
    }
    cv.notify_one();
    {
        std::lock_guard<std::mutex> lock(mu);
        if (stopping)
            return;
    }
    req->reuse(lc::Request::ReuseBuffers);
    cam->queueRequest(req);
}

void LcSource::on_disconnect()
{
    {
        std::lock_guard<std::mutex> lock(mu);
        gone = true;
    }
    cv.notify_one();
}

LcSource::~LcSource()
{
    if (cam) {
        {
            std::lock_guard<std::mutex> lock(mu);
            stopping = true;
        }
        if (started)
            cam->stop();
        cam->requestCompleted.disconnect(this);
        cam->disconnected.disconnect(this);
        requests.clear();
        if (alloc && stream)
            alloc->free(stream);
        alloc.reset();
        if (acquired)
            cam->release();
        cam.reset();
    }
    for (const Mapping &m : maps)
        munmap(m.base, m.length);
    fw_frames__decoder_free(dec);
    if (cm)
        manager_put();
}

/* Map plane 0 of every buffer of the stream (read only). */
int map_buffers(fw_frame_source *src, LcSource *s)
{
    for (const std::unique_ptr<lc::FrameBuffer> &fb :
         s->alloc->buffers(s->stream)) {
        const lc::FrameBuffer::Plane &p = fb->planes()[0];
        size_t len = (size_t)p.offset + p.length;
        void *base = mmap(nullptr, len, PROT_READ, MAP_SHARED, p.fd.get(), 0);
        if (base == MAP_FAILED)
            return fw_set_error(FW_EIO, "frames: %s: mmap: %s", src->uri,
                                std::strerror(errno));
        s->maps.push_back({fb.get(), base, len,
                           static_cast<const uint8_t *>(base) + p.offset,
                           p.length});
    }
    return FW_OK;
}

/*
 * Configure one viewfinder stream at the wanted size in the first pixel
 * format the camera accepts as is: RGB888 needs no conversion, YUYV and
 * MJPEG are what USB cameras give.
 */
int configure(fw_frame_source *src, LcSource *s)
{
    static const lc::PixelFormat formats[] = {
        lc::formats::RGB888, lc::formats::YUYV, lc::formats::MJPEG};
    s->config = s->cam->generateConfiguration({lc::StreamRole::Viewfinder});
    if (!s->config || s->config->size() != 1)
        return fw_set_error(FW_EUNSUPPORTED,
                            "frames: %s: camera has no viewfinder stream",
                            src->uri);
    lc::StreamConfiguration &sc = s->config->at(0);
    bool ok = false;
    for (const lc::PixelFormat &f : formats) {
        sc.pixelFormat = f;
        sc.size.width = (unsigned)(src->opt.width ? src->opt.width : 1280);
        sc.size.height = (unsigned)(src->opt.height ? src->opt.height : 720);
        sc.bufferCount = 4;
        if (s->config->validate() != lc::CameraConfiguration::Invalid &&
            sc.pixelFormat == f) {
            ok = true;
            break;
        }
    }
    if (!ok)
        return fw_set_error(FW_EUNSUPPORTED,
                            "frames: %s: camera offers none of RGB888, "
                            "YUYV, MJPEG",
                            src->uri);
    if (s->cam->configure(s->config.get()) != 0)
        return fw_set_error(FW_EIO, "frames: %s: cannot configure %s",
                            src->uri, sc.toString().c_str());
    s->stream = sc.stream();
    s->fmt = sc.pixelFormat;
    s->width = (int)sc.size.width;
    s->height = (int)sc.size.height;
    s->stride = (int)sc.stride;
    return FW_OK;
}

int start(fw_frame_source *src, LcSource *s)
{
    s->alloc = std::make_unique<lc::FrameBufferAllocator>(s->cam);
    if (s->alloc->allocate(s->stream) < 0)
        return fw_set_error(FW_ENOMEM, "frames: %s: cannot allocate buffers",
                            src->uri);
    int rc = map_buffers(src, s);
    if (rc != FW_OK)
        return rc;
    size_t biggest = 0;
    for (const Mapping &m : s->maps)
        biggest = std::max(biggest, m.plane_len);
    s->ready.resize(biggest);
    s->held.resize(biggest);
    if (s->fmt == lc::formats::YUYV)
        s->bgr.resize((size_t)s->width * (size_t)s->height * 3);
    if (s->fmt == lc::formats::MJPEG &&
        fw_frames__decoder_new(&s->dec) != FW_OK)
        return fw_set_error(FW_ENOMEM, "frames: out of memory");

    for (const std::unique_ptr<lc::FrameBuffer> &fb :
         s->alloc->buffers(s->stream)) {
        std::unique_ptr<lc::Request> req = s->cam->createRequest();
        if (!req || req->addBuffer(s->stream, fb.get()) != 0)
            return fw_set_error(FW_EIO, "frames: %s: cannot make a request",
                                src->uri);
        s->requests.push_back(std::move(req));
    }
    s->cam->requestCompleted.connect(s, &LcSource::on_complete);
    s->cam->disconnected.connect(s, &LcSource::on_disconnect);
    if (s->cam->start() != 0)
        return fw_set_error(FW_EIO, "frames: %s: cannot start the camera",
                            src->uri);
    s->started = true;
    for (std::unique_ptr<lc::Request> &req : s->requests)
        if (s->cam->queueRequest(req.get()) != 0)
            return fw_set_error(FW_EIO, "frames: %s: cannot queue a request",
                                src->uri);
    return FW_OK;
}

int open_camera(fw_frame_source *src, const char *id, LcSource *s)
{
    s->cm = manager_get();
    if (!s->cm)
        return fw_set_error(FW_EIO,
                            "frames: %s: cannot start the camera manager",
                            src->uri);
    std::vector<std::shared_ptr<lc::Camera>> cams = s->cm->cameras();
    if (cams.empty())
        return fw_set_error(FW_ENOENT, "frames: %s: no camera found",
                            src->uri);
    s->cam = id[0] ? s->cm->get(id) : cams.front();
    if (!s->cam)
        return fw_set_error(FW_ENOENT, "frames: %s: no camera named '%s'",
                            src->uri, id);
    if (s->cam->acquire() != 0)
        return fw_set_error(FW_EIO, "frames: %s: camera %s is in use",
                            src->uri, s->cam->id().c_str());
    s->acquired = true;
    int rc = configure(src, s);
    if (rc == FW_OK)
        rc = start(src, s);
    return rc;
}

int lc_open(fw_frame_source *src, const char *arg)
{
    LcSource *s = nullptr;
    try {
        s = new LcSource();
        int rc = open_camera(src, arg, s);
        if (rc != FW_OK) {
            delete s;
            return rc;
        }
        src->state = s;
        return FW_OK;
    } catch (const std::bad_alloc &) {
        delete s;
        return fw_set_error(FW_ENOMEM, "frames: out of memory");
    } catch (const std::exception &e) {
        delete s;
        return fw_set_error(FW_EINTERNAL, "frames: %s: %s", src->uri,
                            e.what());
    }
}

int lc_read(fw_frame_source *src, fw_image *frame, double *t, int timeout_ms)
{
    auto *s = static_cast<LcSource *>(src->state);
    try {
        uint64_t ts_ns;
        {
            std::unique_lock<std::mutex> lock(s->mu);
            auto ready = [s] { return s->have || s->gone; };
            if (timeout_ms < 0)
                s->cv.wait(lock, ready);
            else if (!s->cv.wait_for(lock,
                                     std::chrono::milliseconds(timeout_ms),
                                     ready))
                return FW_FRAMES_TIMEOUT;
            if (s->gone)
                return fw_set_error(FW_EIO,
                                    "frames: %s: camera stopped (unplugged)",
                                    src->uri);
            s->held.swap(s->ready);
            s->held_len = s->ready_len;
            ts_ns = s->ready_ts;
            s->have = false;
        }
        if (s->fmt == lc::formats::MJPEG) {
            if (fw_frames__decode(s->dec, s->held.data(), s->held_len,
                                  frame) != FW_OK)
                return fw_set_error(FW_EPARSE,
                                    "frames: %s: frame is not a JPEG",
                                    src->uri);
        } else if (s->held_len < (size_t)s->stride * (size_t)(s->height - 1) +
                                     (size_t)s->width *
                                         (s->fmt == lc::formats::YUYV ? 2
                                                                      : 3)) {
            return fw_set_error(FW_EPARSE, "frames: %s: short frame",
                                src->uri);
        } else if (s->fmt == lc::formats::YUYV) {
            frame->bgr = s->bgr.data();
            frame->width = s->width;
            frame->height = s->height;
            frame->stride = s->width * 3;
            fw_frames__yuyv_to_bgr(s->held.data(), s->stride, frame);
        } else {
            frame->bgr = s->held.data();
            frame->width = s->width;
            frame->height = s->height;
            frame->stride = s->stride;
        }
        double ts = (double)ts_ns * 1e-9;
        if (!(ts > s->last_t))
            ts = s->last_t < 0 ? 0 : s->last_t + 1e-6;
        s->last_t = ts;
        *t = ts;
        return FW_OK;
    } catch (const std::exception &e) {
        return fw_set_error(FW_EINTERNAL, "frames: %s: %s", src->uri,
                            e.what());
    }
}

void lc_close(fw_frame_source *src)
{
    try {
        delete static_cast<LcSource *>(src->state);
    } catch (...) {
        /* nothing left to report to */
    }
    src->state = nullptr;
}

} // namespace

extern "C" const fw_frames_ops fw_frames__libcamera_ops = {
    "libcamera", lc_open, lc_read, lc_close};
