/*
 * frames_int.h - private to the frame sources: the ops table every backend
 * fills in, the source struct they share, and small helpers (the image
 * decoder over OpenCV, YUYV to BGR).
 *
 * Ownership: a backend's open() stores its state in src->state and its
 * close() frees it (close() is called once per successful open(), never
 * after a failed one: open() cleans up after itself). Buffers that read()
 * hands out live in that state.
 */
#ifndef FW_FRAMES_INT_H
#define FW_FRAMES_INT_H

#include "frames.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* fw_error.h has no extern "C" of its own */
#include "fw_error.h"

/** One backend: chosen by the URI prefix before the first ':'. */
typedef struct fw_frames_ops {
    const char *name; /**< "sim", also the URI scheme */
    /** Open arg (the URI after "scheme:") into src->state. */
    int (*open)(fw_frame_source *src, const char *arg);
    /** As fw_frames_read(). */
    int (*read)(fw_frame_source *src, fw_image *frame, double *t,
                int timeout_ms);
    /** Free src->state (set to NULL). */
    void (*close)(fw_frame_source *src);
} fw_frames_ops;

struct fw_frame_source {
    const fw_frames_ops *ops;
    fw_frames_options opt; /**< with defaults filled in */
    char *uri;
    char *arg;   /**< points into uri */
    int open;    /**< the backend is open (state is valid) */
    int ended;   /**< FW_FRAMES_END was returned */
    void *state; /**< the backend's own; only its file knows the type */
    /* sim: survives reconnects, so it lives here rather than in state */
    long sim_index;
    fw_frames_sim_scene sim_scene;
    int sim_dirty;
    fw_frames_sim_draw_fn sim_draw;
    void *sim_user;
};

extern const fw_frames_ops fw_frames__sim_ops;
extern const fw_frames_ops fw_frames__dir_ops;
extern const fw_frames_ops fw_frames__file_ops;
extern const fw_frames_ops fw_frames__v4l2_ops;
#ifdef FW_HAVE_LIBCAMERA
extern const fw_frames_ops fw_frames__libcamera_ops;
#endif

/**
 * A reusable image decoder (OpenCV imdecode into one kept buffer): decoding
 * frames of one size allocates nothing after the first.
 */
typedef struct fw_frames_decoder fw_frames_decoder;

int fw_frames__decoder_new(fw_frames_decoder **out);
void fw_frames__decoder_free(fw_frames_decoder *d);

/**
 * Decode an encoded image (JPEG, PNG, BMP, ...) to BGR. out points into the
 * decoder's buffer until the next decode or free.
 * \returns FW_OK, FW_EPARSE (not an image; no message set), FW_ENOMEM
 */
int fw_frames__decode(fw_frames_decoder *d, const uint8_t *data, size_t len,
                      fw_image *out);

/**
 * Read a whole file into the decoder's byte buffer, then decode it.
 * \returns FW_OK, FW_ENOENT / FW_EIO (cannot read), FW_EPARSE, FW_ENOMEM;
 *          no message set
 */
int fw_frames__decode_file(fw_frames_decoder *d, const char *path,
                           fw_image *out);

/**
 * Convert packed YUYV 4:2:2 (BT.601, limited range) to BGR.
 * \param src,src_stride the YUYV rows; width is even
 * \param dst the BGR image of the same width and height
 */
void fw_frames__yuyv_to_bgr(const uint8_t *src, int src_stride, fw_image *dst);

/** Make sure *buf holds at least need bytes (grows, never shrinks). */
int fw_frames__reserve(uint8_t **buf, size_t *cap, size_t need);

#ifdef __cplusplus
}
#endif

#endif
