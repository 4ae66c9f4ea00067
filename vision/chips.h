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

#include <stddef.h>
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
    int64_t value;          /**< the top chip's calibrated value; 0 = unknown */
    float side_px;          /**< how far the stack's side shows beyond the
                                 top chip, pixels */
    int count_lo, count_hi; /**< the count lies in [count_lo, count_hi] */
    float confidence;       /**< low (<= 0.4): the dealer should confirm */
} fw_stack_obs;

/** Standard tournament chip: 39 mm across, 3.3 mm thick. */
#define FW_CHIP_DIAMETER_MM 39.0f
#define FW_CHIP_THICKNESS_MM 3.3f

/** Most chips a stack is taken to hold when nothing bounds it better. */
#define FW_STACK_MAX_COUNT 40

/**
 * What the caller knows of the chips and the camera. All zero (or a NULL
 * pointer to this) means nothing is known.
 */
typedef struct fw_chips_params {
    const fw_calib_chip *set; /**< the calibrated chip set (borrowed) */
    int nset;                 /**< its size; 0 = name from the fixed list */
    /** The chips' radius in frame pixels where the calibration knows the
     * scale: the search then stays within +-15% of it, skipping the wide
     * first search (about 40% of the time). 0 = estimate from the frame. */
    float radius_px;
    /** The camera's focal length in pixels (intrinsics). A stack's side
     * shows more the farther it stands from the principal point; with the
     * focal length its height follows from how far the side shows. 0 =
     * unknown: the count range then covers lenses of 50-110 degrees. */
    float focal_px;
    /** The principal point in frame pixels; used when focal_px > 0, else
     * the frame's centre. */
    float principal[2];
} fw_chips_params;

/**
 * Find chips in a BGR frame taken from above. The chip radius is
 * params->radius_px or estimated from the frame (all chips of a table are
 * one size); colours are the median CIE Lab of each chip's inner disc and
 * of its edge spots, mapped to the nearest chip of the set (body colour,
 * and edge colour and spot count where the set knows them) or, without a
 * set, to the nearest of the fixed names white, red, green, blue, black,
 * yellow, purple, orange, pink, grey (value 0). A chip more than 30 Lab
 * units from every chip of the set keeps its fixed-list name with value 0
 * and confidence 0 (an unknown chip, not a guess).
 *
 * Stacks: a camera above the table sees a stack's side where the stack
 * stands away from the point straight below it (the top chip, nearer the
 * camera, is displaced outwards from the base). A chip whose side shows
 * over 1.5 chips' height is reported in `stacks` with the count range that
 * side allows (wide without focal_px) and a confidence of at most 0.4: the
 * dealer should confirm. A stack right below the camera shows no side and
 * is seen as its top chip only: from above, its height cannot be known.
 * \param bgr,width,height,stride the frame (borrowed); width, height >= 16
 * \param params what is known (borrowed), or NULL
 * \param chips,max_chips caller's array; \param nchips receives the count
 * \param stacks,max_stacks caller's array (may be NULL with max_stacks 0);
 * \param nstacks receives the count (may be NULL when stacks is NULL)
 * \returns FW_OK (also for a frame without chips), FW_EINVAL for bad
 *          arguments or a frame too small, FW_ENOMEM, FW_EINTERNAL
 */
int fw_chips_detect(const uint8_t *bgr, int width, int height, int stride,
                    const fw_chips_params *params, fw_chip_obs *chips,
                    int max_chips, int *nchips, fw_stack_obs *stacks,
                    int max_stacks, int *nstacks);

/**
 * The CIE Lab colour (L 0..100, a and b about -128..127) that the renderer
 * paints for a fixed colour name, i.e. what a calibration of the synthetic
 * chips would hold.
 * \returns FW_OK, or FW_ENOENT for a name not in the fixed list
 */
int fw_chips_color_lab(const char *name, float lab[3]);

/** The I-th colour name of the fixed list (0..FW_CHIPS_NCOLORS-1), or
 * NULL. */
const char *fw_chips_color_name(int i);

/**
 * Name a chip from its colours as fw_chips_detect does: the nearest chip
 * of `set` (body colour, and where the set knows a chip's edge, half the
 * edge colour's distance and 2 per spot miscounted, at most 10) or,
 * without a set, the nearest colour of the fixed list by body. A body
 * more than 30 Lab units from every chip of the set keeps its fixed-list
 * name with value 0 and confidence 0.
 * \param body the body's CIE Lab; \param edge the edge spots' (NULL: the
 *        edge was not seen, only bodies are compared); \param spots spots
 *        counted (0: not counted)
 * \param name,size receive the name (NUL-terminated, truncated to size)
 * \param value receives the set's value (0 without a set or unknown)
 * \param confidence receives the margin over the second best, 0..1
 * \returns FW_OK, FW_EINVAL (NULL pointers, size 0, nset < 0 or a set
 *          count without a set)
 */
int fw_chips_name(const float body[3], const float *edge, int spots,
                  const fw_calib_chip *set, int nset, char *name, size_t size,
                  int64_t *value, float *confidence);

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

/** A stack the renderer placed: where, how many, the top chip. */
typedef struct fw_stack_truth {
    float base[2];    /**< centre of the bottom chip, frame pixels */
    float top[2];     /**< centre of the top chip's face, frame pixels */
    float radius;     /**< the chips' radius at the felt, pixels */
    int count;        /**< chips in the stack */
    char color[12];   /**< the top chip's colour name */
} fw_stack_truth;

/**
 * Draw a synthetic overhead scene with chips spread and stacked: as
 * fw_chips_render, plus up to nstacks stacks of 2-FW_STACK_MAX_COUNT chips
 * (each chip of the stack a random colour of the list; the top one seen
 * whole, the others as the stack's side), seen by a pinhole camera of focal
 * length focal_px (> 0) with its principal point at the frame's centre.
 * Chips lie flat (single) or stacked, never overlapping. Deterministic for
 * a seed.
 * \param truth,max_truth receive each single chip (may be NULL)
 * \param stacks receives each stack (nstacks entries, may be NULL)
 * \param nplaced,nstacked receive how many of each were placed
 * \returns FW_OK, FW_EINVAL (as fw_chips_render, or focal_px <= 0),
 *          FW_ENOMEM, FW_EINTERNAL
 */
int fw_chips_render_table(uint8_t *bgr, int w, int h, int stride,
                          uint32_t seed, const char *felt, int nchips,
                          int nstacks, float focal_px, fw_chip_obs *truth,
                          fw_stack_truth *stacks, int *nplaced,
                          int *nstacked);

/**
 * Draw a stack of n chips standing at (x, y) on an existing frame, as a
 * pinhole camera of focal length focal_px with principal point `principal`
 * sees it from above: each chip's side (its body colour, shaded, striped
 * where its edge spots are) and the top chip's face, a shadow beneath.
 * chips[0] is the bottom chip. radius is the chips' radius at the felt.
 * \param top receives the centre of the top chip's face (may be NULL)
 * \returns FW_OK, FW_EINVAL (bad arguments; n out of 1..FW_STACK_MAX_COUNT)
 *          FW_ENOMEM, FW_EINTERNAL
 */
int fw_chips_draw_stack(uint8_t *bgr, int w, int h, int stride, float x,
                        float y, float radius,
                        const fw_calib_chip *const *chips, int n,
                        float focal_px, const float principal[2],
                        uint32_t seed, float top[2]);

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
