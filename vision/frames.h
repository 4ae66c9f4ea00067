/*
 * frames.h - frame sources: cameras, video files, folders of images and the
 * simulated table camera, all read through one handle.
 *
 * Ownership: fw_frames_open() gives the caller an fw_frame_source that is
 * freed with fw_frames_close() (NULL is accepted). The pixels a read hands
 * back belong to the source: they are borrowed, read-only, and valid until
 * the next fw_frames_read(), fw_frames_reconnect() or fw_frames_close() on
 * that source. A source reuses its frame buffers, so after the first frame
 * of a given size a read allocates nothing (a folder of images of different
 * sizes reallocates when the size changes). Strings passed in are copied.
 *
 * Threading: one source may be used by one thread at a time; separate
 * sources are independent. Errors set fw_last_error() on the calling thread.
 * Some backends are C++ (OpenCV, libcamera) behind this plain C API: no
 * exception or C++ type crosses it.
 *
 * The URI picks the backend:
 *   sim:              the simulated table camera (always built; tests use it)
 *   file:PATH         a video file (OpenCV VideoCapture)
 *   dir:PATH          a folder of images, read in order of file name
 *   v4l2:/dev/videoN  a V4L2 webcam (MJPEG or YUYV, mmap streaming)
 *   libcamera:[ID]    a libcamera camera, the first one when ID is empty
 *                     (only when built with libcamera: else FW_EUNSUPPORTED)
 */
#ifndef FW_FRAMES_H
#define FW_FRAMES_H

#include "vision.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An open frame source. */
typedef struct fw_frame_source fw_frame_source;

/**
 * fw_frames_read() results that are not failures (failures are negative
 * FW_E* codes). After FW_FRAMES_END every further read returns it again.
 */
enum {
    FW_FRAMES_END = 1,    /**< end of stream: the file or folder is done */
    FW_FRAMES_TIMEOUT = 2 /**< no frame within timeout_ms; try again */
};

/** Pixel format asked of a V4L2 camera. */
enum fw_frames_pixfmt {
    FW_FRAMES_FMT_AUTO = 0, /**< MJPEG when offered, else YUYV */
    FW_FRAMES_FMT_MJPEG,
    FW_FRAMES_FMT_YUYV
};

/**
 * What the simulated camera shows: n_up face-up cards (cards[0..n_up-1])
 * then n_down backs on felt of colour felt_bgr, placed by fw_vision_render_
 * scene() from seed. Zero-initialised it is an empty green table.
 */
typedef struct fw_frames_sim_scene {
    uint8_t felt_bgr[3]; /**< all zero: the default felt (dark green) */
    fw_card cards[16];
    int n_up;   /**< 0..16 */
    int n_down; /**< 0..16 */
    unsigned seed;
} fw_frames_sim_scene;

/**
 * A caller's drawing of the simulated camera's next frame, in place of the
 * scene: draw into frame (the source's buffer, width*height BGR), index is
 * the frame number from 0 and t its time stamp. Return FW_OK, FW_FRAMES_END
 * to end the stream, or a negative FW_E* that the read passes on.
 */
typedef int (*fw_frames_sim_draw_fn)(void *user, fw_image *frame, long index,
                                     double t);

/** Options for fw_frames_open(); all zero means every default. */
typedef struct fw_frames_options {
    int width, height; /**< wanted size; 0: the backend's (sim: 640x480,
                            cameras: what they offer near 1280x720) */
    double fps;        /**< frame rate: sim's pace and time stamps, a dir's
                            time stamps, asked of cameras; 0: 30 */
    int realtime;      /**< sim: 1 paces frames at fps with the clock;
                            0 renders as fast as asked (tests) */
    long max_frames;   /**< sim: FW_FRAMES_END after this many; 0: endless */
    long stop_after;   /**< sim: behave as a camera that stops (FW_EIO)
                            after this many frames until reconnected; 0 never */
    enum fw_frames_pixfmt pixfmt; /**< v4l2 only */
} fw_frames_options;

/**
 * Open a frame source.
 * \param uri the backend and its argument (see the top of this header)
 * \param opt options, or NULL for the defaults (copied)
 * \param out receives the source (caller frees with fw_frames_close)
 * \returns FW_OK; FW_EINVAL for a malformed URI or options; FW_ENOENT for a
 *          missing file, folder, device ("no such device") or camera ("no
 *          camera found"); FW_EUNSUPPORTED for a backend not built or a
 *          device that cannot capture; FW_EIO; FW_ENOMEM. The message from
 *          fw_last_error() names the URI.
 */
int fw_frames_open(const char *uri, const fw_frames_options *opt,
                   fw_frame_source **out);

/**
 * Read the next frame.
 * \param frame receives the frame (pixels borrowed, see the top)
 * \param t_seconds receives its time stamp in seconds (may be NULL): rising
 *        within a stream; the source's clock (cameras), the position in the
 *        file (file:), or index/fps (sim:, dir:)
 * \param timeout_ms how long to wait for a camera; < 0 waits for ever; the
 *        sim in realtime mode and files never wait on it
 * \returns FW_OK; FW_FRAMES_END at the end of a file, folder or a finite
 *          sim; FW_FRAMES_TIMEOUT when no frame came in time; FW_EPARSE for
 *          a corrupt frame (fw_last_error() names the file; the next read
 *          goes on with the next frame); FW_EIO when the camera stopped or
 *          went away (call fw_frames_reconnect()); FW_EINVAL.
 */
int fw_frames_read(fw_frame_source *src, fw_image *frame, double *t_seconds,
                   int timeout_ms);

/**
 * Close the backend and open the same URI with the same options again, for
 * a camera that stopped. Cameras start a new stream; files and folders start
 * again from their first frame; the sim keeps its frame count and scene.
 * On failure the source stays valid and may be reconnected again later
 * (reads return FW_EIO meanwhile).
 * \returns as fw_frames_open()
 */
int fw_frames_reconnect(fw_frame_source *src);

/** Close a source and free it; NULL is accepted. */
void fw_frames_close(fw_frame_source *src);

/** The backend's name ("sim", "file", "dir", "v4l2", "libcamera"). */
const char *fw_frames_name(const fw_frame_source *src);

/**
 * Change what a sim: source shows from its next frame on (copied): the hook
 * for scripted scenes, called between reads.
 * \returns FW_OK, FW_EINVAL (not a sim source, counts out of range)
 */
int fw_frames_sim_set_scene(fw_frame_source *src,
                            const fw_frames_sim_scene *scene);

/**
 * Let the caller draw a sim: source's frames (draw NULL: back to the scene).
 * draw is called once per read, from inside fw_frames_read().
 * \returns FW_OK, FW_EINVAL (not a sim source)
 */
int fw_frames_sim_set_draw(fw_frame_source *src, fw_frames_sim_draw_fn draw,
                           void *user);

/**
 * Write an image to a file, the format chosen by the extension (.png, .jpg,
 * .bmp, ...): for recording frames and for tests.
 * \returns FW_OK, FW_EINVAL, FW_EUNSUPPORTED (unknown extension), FW_EIO
 */
int fw_frames_write_image(const char *path, const fw_image *img);

/** Whether this build has the given backend ("libcamera", "v4l2", ...). */
int fw_frames_has_backend(const char *name);

#ifdef __cplusplus
}
#endif

#endif
