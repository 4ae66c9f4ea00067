/*
 * chips.h - casino chips on the felt seen from the overhead camera: single
 * chips lying flat (centre, radius, colour and, with a calibrated chip set,
 * value) and stacks (reported with a wide count range and a low confidence
 * so that the dealer is asked to confirm).
 *
 * Ownership: nothing here allocates for the caller. Frame buffers and chip
 * sets passed in are borrowed for the duration of the call; results are
 * copied into caller-owned arrays of plain structs.
 *
 * Threading: the functions keep no state and may be called from several
 * threads at once. Errors set fw_last_error() on the calling thread. The
 * implementation is C++ (OpenCV) behind this plain C API: no exception or
 * OpenCV type crosses it.
 */
#ifndef FW_CHIPS_H
#define FW_CHIPS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* calibration.h and fw_error.h are C headers without their own extern "C" */
#include "calibration.h"

/** Number of colour names chips are named from when no set is given. */
#define FW_CHIPS_NCOLORS 10

/** One chip lying flat. */
typedef struct fw_chip_obs {
    float center[2];  /**< x,y in frame pixels */
    float radius;     /**< pixels */
    char color[12];   /**< colour name ("red"); the set's name when given */
    int64_t value;    /**< the calibrated chip's value; 0 = unknown */
    float confidence; /**< 0..1: colour margin between best and next match */
} fw_chip_obs;

/** A stack of chips: its top as seen from above and a count range. */
typedef struct fw_stack_obs {
    float center[2];        /**< centre of the top chip, frame pixels */
    float radius;           /**< radius of the top chip, pixels */
    char color[12];         /**< colour of the top chip */
    int count_lo, count_hi; /**< the count lies in [count_lo, count_hi] */
    float confidence;       /**< low (<= 0.4): the dealer should confirm */
} fw_stack_obs;

/**
 * Find chips in a BGR frame taken from above. The chip radius is estimated
 * from the frame (all chips of a table are one size); colours are the
 * median CIE Lab of each chip's inner disc, mapped to the nearest chip of
 * `set` or, when set is NULL, to the nearest of the fixed names white, red,
 * green, blue, black, yellow, purple, orange, pink, grey (value 0). A chip
 * more than 30 Lab units from every chip of the set keeps its fixed-list
 * name with value 0 and confidence 0 (an unknown chip, not a guess).
 * A chip whose rim shows the side of a stack is reported in `stacks`
 * instead, with count_lo = 1, count_hi = 20 and confidence <= 0.4.
 * \param bgr,width,height,stride the frame (borrowed); width, height >= 16
 * \param set,nset the calibrated chip set (borrowed), or NULL and 0
 * \param chips,max_chips caller's array; \param nchips receives the count
 * \param stacks,max_stacks caller's array (may be NULL with max_stacks 0);
 * \param nstacks receives the count (may be NULL when stacks is NULL)
 * \returns FW_OK (also for a frame without chips), FW_EINVAL for bad
 *          arguments or a frame too small, FW_ENOMEM, FW_EINTERNAL
 */
int fw_chips_detect(const uint8_t *bgr, int width, int height, int stride,
                    const fw_calib_chip *set, int nset, fw_chip_obs *chips,
                    int max_chips, int *nchips, fw_stack_obs *stacks,
                    int max_stacks, int *nstacks);

/**
 * The CIE Lab colour (L 0..100, a and b about -128..127) that the renderer
 * paints for a fixed colour name, i.e. what a calibration of the synthetic
 * chips would hold.
 * \returns FW_OK, or FW_ENOENT for a name not in the fixed list
 */
int fw_chips_color_lab(const char *name, float lab[3]);

/**
 * Draw a synthetic overhead scene for tests and benchmarks: up to nchips
 * chips lying flat, of one radius (about min(w,h)/30), spread out and some
 * touching, in random colours of the fixed list, each with white (or, on
 * light chips, blue) edge spots, an inner ring and a soft shadow, on felt
 * `felt` ("green", "blue", "red" or "wood"; NULL = green), then a little
 * blur and noise. Deterministic for a seed.
 * \param bgr,w,h,stride the caller's buffer (stride >= 3*w)
 * \param truth caller's array of nchips entries (may be NULL): receives
 *        each placed chip (value 0, confidence 1)
 * \returns the number of chips placed (<= nchips), or FW_EINVAL
 *          (w or h < 64, unknown felt), FW_ENOMEM, FW_EINTERNAL
 */
int fw_chips_render(uint8_t *bgr, int w, int h, int stride, uint32_t seed,
                    const char *felt, int nchips, fw_chip_obs *truth);

/** Largest chip radius fw_chips_draw accepts, pixels. */
#define FW_CHIPS_DRAW_MAX_RADIUS 1000.0f

/**
 * Draw one chip lying flat onto an existing BGR frame, with the look of the
 * chips of fw_chips_render (the same drawing code): a soft shadow falling
 * down and to the right, the body in colour `chip->lab`, the edge spots and
 * an inner ring. With chip->edge_spots > 0 there are that many spots (at
 * most 24) in colour chip->edge_lab; otherwise eight, white (blue on chips
 * of L > 70). Anti-aliased, sub-pixel centre; no blur or noise is added
 * (the caller adds its own). Only the square of half-side
 * ceil(1.4 * radius) + 2 around the centre (the chip and its shadow) is
 * written; the parts of it off the frame are clipped, and a chip wholly off
 * the frame draws nothing and succeeds. Deterministic for a seed.
 * \param bgr,w,h,stride the caller's frame (stride >= 3*w), modified
 * \param x,y the centre in pixels (may lie off the frame)
 * \param radius pixels, 1 .. FW_CHIPS_DRAW_MAX_RADIUS
 * \param chip the chip's look (borrowed): a calibrated chip, or one made
 *        with fw_chips_look(); colours outside sRGB are clipped
 * \param seed sets the angle of the edge spots
 * \returns FW_OK, FW_EINVAL (NULL pointers, a bad frame size, a radius out
 *          of range, a non-finite number, more than 24 spots), FW_ENOMEM,
 *          FW_EINTERNAL
 */
int fw_chips_draw(uint8_t *bgr, int w, int h, int stride, float x, float y,
                  float radius, const fw_calib_chip *chip, uint32_t seed);

/**
 * The look of a chip of the fixed colour list as the renderer paints it:
 * body Lab as fw_chips_color_lab(), eight edge spots white (blue on light
 * chips), the colour name set, value as given.
 * \returns FW_OK, FW_EINVAL (NULL), FW_ENOENT (a name not in the list)
 */
int fw_chips_look(const char *name, int64_t value, fw_calib_chip *out);

#ifdef __cplusplus
}
#endif

#endif
