/*
 * chip_side.h - chip stacks seen by the second, oblique "side" camera: a
 * camera low at the table's edge (about 10-35 degrees above the felt) sees
 * each stack as a cylinder standing on the felt, its chips as bands one
 * above the other, separated by thin dark lines, with the edge spots as
 * short lighter bars across the bands. Stacks are found against the felt,
 * their chip thickness estimated from the stack's own outline and refined
 * from the period of those lines, and their chips counted.
 *
 * Ownership: nothing here allocates for the caller. Frame buffers, chip sets
 * and stack specifications passed in are borrowed for the duration of the
 * call; results are copied into caller-owned arrays of plain structs.
 *
 * Threading: the functions keep no state and may be called from several
 * threads at once. Errors set fw_last_error() on the calling thread. The
 * implementation is C++ (OpenCV) behind this plain C API: no exception or
 * OpenCV type crosses it.
 *
 * Limits: chips are assumed to have the standard proportions (39 mm across,
 * 3.3 mm thick): the chip thickness in pixels is first predicted from the
 * stack's width and the camera elevation read off its elliptical top, and
 * the count is then fitted within +-15% of that prediction (-20%..+15% for
 * a stack under a dozen chips). The top face is assumed lit brighter than
 * the chips' side, as by a lamp over the table. Stacks must stand apart or
 * side by side at one depth; a stack hidden behind another or cut by an
 * edge of the frame is not reported.
 */
#ifndef FW_CHIP_SIDE_H
#define FW_CHIP_SIDE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* calibration.h and fw_error.h are C headers without their own extern "C" */
#include "calibration.h"

/** Most chips one rendered stack may hold. */
#define FW_SIDE_MAX_CHIPS 40

/** A stack seen from the side: where it stands and how many chips it holds. */
typedef struct fw_side_stack {
    float x0, x1;      /**< the stack's column: left and right edge, pixels */
    float top, bottom; /**< top of the top chip's face, front of the base */
    float chip_px;     /**< one chip's thickness in pixels (0 = unknown) */
    int count;         /**< best estimate of the number of chips */
    int count_lo;      /**< the count lies in [count_lo, count_hi]; */
    int count_hi;      /**< count_lo == count_hi when it is certain */
    float confidence;  /**< 0..1 for the count: low means "ask the dealer" */
    char
        top_color[16]; /**< the top chip's colour name (the set's when given) */
    int64_t top_value; /**< the top chip's value from the set; 0 = unknown */
    float color_confidence; /**< 0..1: margin of the top colour's match */
} fw_side_stack;

/**
 * Find and count the chip stacks standing on the felt in a BGR frame from
 * the side camera. The felt (and any wall above its far edge) is modelled
 * row by row; each stack is a region that stands out from it, split where
 * two stacks touch (the shading of two cylinders dips at their join). Per
 * stack the elliptical top and base give the camera elevation, which with
 * the stack's width predicts the chip thickness; the dark lines between
 * chips, read along the curve of the chips' front edge, fix the thickness
 * and phase, and the count is the number of chips between the base and the
 * top face. For a short stack (under a dozen chips), whose outline is
 * mostly its top face, each count is tried in turn: the top face's front
 * edge must fall where the lit face gives way to the side and the lines
 * where that count puts them. When an end of the stack falls between two
 * lines, two counts explain the picture about as well, or the lines cannot
 * be seen (a heavily blurred frame), the count is given as a range with a
 * lower confidence.
 *
 * The top chip's colour is the median CIE Lab of the middle of its top
 * face, named as the nearest chip of `set` (value from the set) or, when
 * set is NULL, of the fixed list of chips.h (white, red, green, blue,
 * black, yellow, purple, orange, pink, grey; value 0). A colour more than
 * 30 Lab units from every chip of the set keeps its fixed-list name with
 * value 0 and colour confidence 0.
 *
 * Stacks are reported left to right.
 * \param bgr,w,h,stride the frame (borrowed); w, h >= 64, stride >= 3*w
 * \param set,nset the calibrated chip set (borrowed), or NULL and 0
 * \param out,max caller's array (may be NULL with max 0)
 * \param n receives the number of stacks written (at most max)
 * \returns FW_OK (also for a frame without stacks), FW_EINVAL for bad
 *          arguments or a frame too small, FW_ENOMEM, FW_EINTERNAL
 */
int fw_chips_count_side(const uint8_t *bgr, int w, int h, int stride,
                        const fw_calib_chip *set, int nset, fw_side_stack *out,
                        int max, int *n);

/** One stack to render: its chips' looks, bottom chip first. */
typedef struct fw_side_spec {
    int nchips;                 /**< 1 .. FW_SIDE_MAX_CHIPS */
    const fw_calib_chip *chips; /**< nchips looks (borrowed), bottom first;
                                     NULL = colours of the fixed list chosen
                                     from the seed (one colour or mixed) */
} fw_side_spec;

/** How the side camera sees the rendered scene; zero = chosen by the seed. */
typedef struct fw_side_view {
    float elevation_deg; /**< camera above the felt, 10..35; 0 = seed */
    float chip_px;       /**< chip thickness, 3..20 pixels; 0 = seed (5..20
                              as the stacks fit the frame) */
    int touching;        /**< non-zero: the stacks stand in one row at one
                              depth, each touching the next */
} fw_side_view;

/**
 * Draw a synthetic side-camera scene for tests and benchmarks: the felt
 * `felt` ("green", "blue", "red" or "wood"; NULL = green) seen at a low
 * angle, a dark wall and the rail above its far edge, and the stacks of
 * `stacks` standing on it, each chip a band of its body colour shaded as a
 * cylinder, its edge spots as lighter bars, a thin dark line at its lower
 * edge and a little sideways jitter; the top chip shows its elliptical face
 * with spots and inner ring. Then a lighting gradient, a little blur and
 * noise. The stacks stand at slightly different depths (or, when touching,
 * in one row). Deterministic for a seed and its arguments.
 * \param bgr,w,h,stride the caller's buffer (w, h >= 64, stride >= 3*w)
 * \param view NULL, or the view to use (zero fields chosen by the seed)
 * \param stacks,nstacks the stacks to draw (borrowed), 0 .. 16
 * \param truth caller's array of nstacks entries (may be NULL): truth[i]
 *        receives stack i as drawn (count_lo = count_hi = count,
 *        confidence 1, the top chip's colour name and value), or zeros
 *        (count 0) for a stack that found no room
 * \returns the number of stacks drawn, which is nstacks unless some did not
 *          find room at random places (never when touching); FW_EINVAL for
 *          bad arguments, an unknown felt, a chip look that is not finite,
 *          or stacks that do not fit the frame at 3 px a chip; FW_ENOMEM,
 *          FW_EINTERNAL
 */
int fw_chips_render_side(uint8_t *bgr, int w, int h, int stride, uint32_t seed,
                         const char *felt, const fw_side_view *view,
                         const fw_side_spec *stacks, int nstacks,
                         fw_side_stack *truth);

#ifdef __cplusplus
}
#endif

#endif
