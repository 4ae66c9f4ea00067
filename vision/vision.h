/*
 * vision.h - playing cards in a camera frame: where they lie, whether they
 * are face up, and which card a face-up one is.
 *
 * Ownership: fw_vision_new() gives the caller an fw_vision that is freed with
 * fw_vision_free() (NULL is accepted). Frame buffers passed in are borrowed
 * for the duration of the call; results are copied into caller-owned arrays
 * of plain structs. Images returned by fw_vision_load_image() belong to the
 * caller and are freed with fw_vision_image_free().
 *
 * Threading: one fw_vision may be used by one thread at a time; separate
 * fw_vision objects are independent. Errors set fw_last_error() on the
 * calling thread. The implementation is C++ (OpenCV) behind this plain C API:
 * no exception or OpenCV type crosses it.
 */
#ifndef FW_VISION_H
#define FW_VISION_H

#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* rules.h and fw_error.h are C headers without their own extern "C" */
#include "rules.h"

/** The card detector and its index templates. */
typedef struct fw_vision fw_vision;

/** One card found in a frame. */
typedef struct fw_card_obs {
    fw_card card;        /**< FW_CARD_NONE when face down or unread */
    int face_up;         /**< 1 face up, 0 face down (a back) */
    float corners[4][2]; /**< x,y in frame pixels, clockwise from the card's
                              top-left as read (or the image's top-left-most
                              corner for a back) */
    float confidence;    /**< 0..1: margin of the best reading over the next;
                              for a back, how surely its outline was seen */
    float index_px;      /**< the rank read's height in frame pixels (0 when
                              the card was not read from an index): the
                              frame's indexes measure each other by it */
    float shows[4];      /**< x0, y0, x1, y1: the box of what shows of the
                              card, in frame pixels within the frame: its
                              corners' box less the cards found lying over
                              it (a fanned hand's lower card shows as a
                              strip beside the upper one) */
    int cards_over;      /**< how many of the cards reported lie over it */
} fw_card_obs;

/** An 8-bit BGR image (3 bytes per pixel, rows `stride` bytes apart). */
typedef struct fw_image {
    uint8_t *bgr;
    int width, height, stride;
} fw_image;

/**
 * Create a detector and load the index templates: the file named by the
 * environment variable FW_CARD_MODEL if set, else the models/cards_index.fwt
 * of the source tree this was built from.
 * \param out receives the new detector (caller frees with fw_vision_free)
 * \returns FW_OK, FW_ENOENT/FW_EPARSE if the model cannot be read, FW_ENOMEM
 */
int fw_vision_new(fw_vision **out);

/**
 * As fw_vision_new() with an explicit model path.
 * \returns FW_OK, FW_ENOENT, FW_EPARSE, FW_ENOMEM
 */
int fw_vision_new_from(const char *model_path, fw_vision **out);

/** Free a detector; NULL is accepted. */
void fw_vision_free(fw_vision *v);

/**
 * Find cards in a BGR frame. Frames larger than 2000 px on the long side are
 * downscaled internally; corners are reported in the input's pixel frame.
 * A card (rank and suit) is reported at most once a frame: of two
 * detections that read the same card, the surer keeps it, and the other
 * is dropped when it lies over the first, else reported unread.
 * \param bgr,width,height,stride the frame (borrowed)
 * \param out,max caller's array of max entries
 * \param n receives the number of cards written (at most max)
 * \returns FW_OK (also for a frame with no cards), FW_EINVAL, FW_EINTERNAL
 */
int fw_vision_detect_cards(fw_vision *v, const uint8_t *bgr, int width,
                           int height, int stride, fw_card_obs *out, int max,
                           int *n);

/** How the last fw_vision_detect_cards() call went. */
typedef struct fw_vision_frame_stats {
    int quads;         /**< card quads the detector found */
    int readings_kept; /**< of those, how many took the reading made of the
                            card on the call before, unread again, corners
                            and all: the card lay where it lay, its print
                            unchanged (a face unread or read unsurely is
                            read again after a few calls, less often each
                            time it stays so) */
    int unchanged;     /**< 1 when the frame was taken as unchanged since
                            the last frame detected in full (no pixel moved
                            by more than sensor noise does), and that
                            frame's cards reported again without detecting
                            them, each reading carried; a frame in which
                            an unsure reading is due to be read again is
                            detected in full even so */
    int runners;       /**< second choices read: runner-up quads the
                            reader tried in place of, or beside, the
                            quads found (a fanned pair's other card) */
    int runners_kept;  /**< of those, how many took the reading made on
                            the call before, as readings_kept does */
    int flat_view;     /**< 0: the frame was detected as it is; 1: through
                            the table's flat view, the camera having been
                            found to look at the table at a slant; 2: the
                            view was found on this frame, detected as it is
                            first and then again through the view */
    int view_moved;    /**< 1 when this frame's cards showed the camera to
                            have moved since its view was found (the view
                            is fitted afresh every 90 frames): the next
                            frame finds the view anew, as a new camera's,
                            and is detected afresh */
} fw_vision_frame_stats;

/**
 * Counts of the last fw_vision_detect_cards() call on v (zeros before the
 * first). Readings are carried from one call to the next (a second
 * choice's also from up to 16 calls back, where none asked for it in
 * between): a detector fed frames of one camera in order reads each still
 * card once.
 */
void fw_vision_last_frame(const fw_vision *v, fw_vision_frame_stats *out);

/**
 * Forget every reading v carries from the frames before, and the last
 * frame detected in full: the next call detects and reads every card
 * afresh. For a camera moved or swapped, and for benchmarks of frames
 * seen for the first time. NULL is accepted.
 */
void fw_vision_forget(fw_vision *v);

/**
 * As fw_vision_forget(), but keep what v has learnt of the camera: the
 * table's flat view, found from the cards of the first frame that held
 * enough of them (a camera looking at the table at a slant has each
 * frame detected through it). For benchmarks of frames seen for the first
 * time by a camera that stays put. NULL is accepted.
 */
void fw_vision_forget_cards(fw_vision *v);

/**
 * Whether v may detect frames through the table's flat view (use 1, the
 * default) or only as they are (0): for a camera known to look straight
 * down, and for tests of what a frame shows as it is. Turning it off
 * forgets the view. NULL is accepted.
 */
void fw_vision_use_flat_view(fw_vision *v, int use);

/**
 * Where the card detector's time went: one line per stage, "name  ms", the
 * mean per frame since the report before (or the process began), then one
 * per pass of the reader, "reads PASS  first (found), again  again
 * (found)": the corner indexes it looked for per frame, first readings
 * and readings of a corner again, and how many of each found an index;
 * for a build configured with -DFW_STAGE_TIMES=ON (bench_cards prints
 * it). The count starts afresh. One thread only.
 * \returns the frames counted; 0, and buf empty, in any other build
 */
int fw_vision_stage_report(char *buf, size_t len);

/**
 * Read an image file into a BGR buffer. Formats, known by their first
 * bytes (not the name): JPEG, PNG, BMP, PNM, WebP. Grey and 16-bit images
 * are converted; the alpha channel is dropped.
 * \param path the file
 * \param out receives the image (caller frees with fw_vision_image_free)
 * \returns FW_OK, FW_ENOENT (no such file), FW_EIO (unreadable),
 *          FW_EPARSE (not a whole image in a known format), FW_ERANGE
 *          (0 pixels, or more than FW_VISION_MAX_PIXELS), FW_ENOMEM
 */
int fw_vision_load_image(const char *path, fw_image *out);

/**
 * Decode an encoded image held in memory into *out (the caller frees it
 * with fw_vision_image_free); the formats and checks of
 * fw_vision_load_image().
 * \returns FW_OK, FW_EPARSE for bytes that are not an image, FW_ERANGE,
 *          FW_ENOMEM.
 */
int fw_vision_decode_image(const uint8_t *data, size_t len, fw_image *out);

/**
 * The width and height an encoded image's header declares, read without
 * decoding it: what fw_vision_decode_image() holds against
 * FW_VISION_MAX_PIXELS first. A caller short of memory can refuse a
 * smaller image than that before the decoder allocates for it.
 * \param width, height receive the size; 0 where the header does not say
 *        (a WebP of a kind not recognised); a BMP's height is made positive
 * \returns FW_OK, FW_EPARSE (not an image in a known format, or cut short
 *          as far as the header tells), FW_EINVAL
 */
int fw_vision_image_size(const uint8_t *data, size_t len, long long *width,
                         long long *height);

/**
 * Write an image; the format follows the extension (.png, .jpg/.jpeg,
 * .ppm, .bmp).
 * \param quality JPEG quality 1..100 (0: 90), ignored for other formats
 * \returns FW_OK, FW_EINVAL (bad image or unknown extension), FW_EIO
 */
int fw_vision_save_image(const fw_image *img, const char *path, int quality);

/** The largest image accepted by the readers, in pixels. */
#define FW_VISION_MAX_PIXELS (120LL * 1000 * 1000)

/** Free the pixels of an image from fw_vision_load_image(); NULL is fine. */
void fw_vision_image_free(fw_image *img);

/**
 * Draw a synthetic table scene for tests and benchmarks: n face-up cards
 * then n_down backs, rotated and scattered without overlap on felt of colour
 * felt_bgr, into a caller buffer of width*height*3 bytes (stride width*3).
 * The cards are the Debian card art (sim.h) of deck `deck` (0: the
 * default deck, kde-standard; d > 0: the simulator's deck d - 1), or, when
 * that art is not installed, white rounded rectangles with a Hershey-font
 * index and a drawn suit. glyphs is not used (kept for existing callers).
 * cards[i] is the card drawn for the i-th face-up card.
 * corners_out (may be NULL, n + n_down entries) receives each placed card's
 * corners clockwise from its top-left. Deterministic for a seed.
 * \returns the number of cards placed (<= n + n_down), or a negative FW_E*
 */
int fw_vision_render_scene(uint8_t *bgr, int width, int height,
                           const uint8_t felt_bgr[3], const fw_vision *glyphs,
                           int deck, const fw_card *cards, int n, int n_down,
                           unsigned seed, float (*corners_out)[4][2]);

/**
 * Draw one card (the same art as fw_vision_render_scene(): a face when
 * face_up, a back otherwise) with its soft
 * shadow onto an existing BGR frame, its corners clockwise from the card's
 * top-left at `corners` (frame pixels; any position, rotation or
 * perspective). Only the card's bounding box is touched; parts off the
 * frame are clipped. For scripted scenes (the kiosk's simulated dealer).
 * \param card the face drawn when face_up (0..51); ignored for a back
 * \returns FW_OK, FW_EINVAL, FW_EINTERNAL
 */
int fw_vision_render_card(uint8_t *bgr, int width, int height, int stride,
                          const fw_vision *glyphs, int deck, fw_card card,
                          int face_up, const float corners[4][2]);

#ifdef __cplusplus
}
#endif

#endif
