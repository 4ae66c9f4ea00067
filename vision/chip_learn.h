/*
 * chip_learn.h - learn one chip of a tournament set from a photo of it:
 * its body colour and its edge pattern (the colour of the spots around its
 * rim and how many there are), as a calibration entry (fw_calib_chip) that
 * `feltwatch calibrate --chip` writes into the calibration file and the
 * chip detector (chips.h) matches against.
 *
 * Ownership: nothing here allocates for the caller. The image is borrowed
 * for the duration of the call; results are copied into a caller-owned
 * plain struct.
 *
 * Threading: the functions keep no state and may be called from several
 * threads at once. Errors set fw_last_error() on the calling thread. The
 * implementation is C++ (OpenCV) behind this plain C API: no exception or
 * OpenCV type crosses it.
 */
#ifndef FW_CHIP_LEARN_H
#define FW_CHIP_LEARN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* calibration.h and fw_error.h are C headers without their own extern "C" */
#include "calibration.h"

/** Smallest image fw_chips_learn accepts, pixels on each side. */
#define FW_CHIP_LEARN_MIN_SIZE 48

/**
 * Learn one chip from a photo of it alone: the chip lying flat, seen from
 * above, roughly centred, on a plain background of another colour (the
 * felt, a sheet of paper), its radius at least a 40th of the image's
 * shorter side and 10 pixels, up to filling most of the image, at any
 * rotation. A chip of the background's own colour is found by its edge
 * spots and shadow, but a background of another colour is safer.
 *
 * The background is the median colour of the image's border; the chip is
 * the circle whose rim stands out best from it (gradient Hough transform
 * for candidates, then a robust circle fit to the colour edges met along
 * rays from each candidate's centre). Its body colour (out->lab) is the
 * median CIE Lab of the disc within 0.55 of its radius, as the detector
 * measures chips; its edge is read around the annulus 0.79-0.94 of the
 * radius at 720 angles: angles far from the body colour are spots,
 * out->edge_spots is the number of spot runs and out->edge_lab their
 * median colour. A chip whose edge shows no contrasting spots, spots all
 * round, or more than 24 of them gets edge_spots 0 (edge not known).
 * Lab units are real (L 0..100, a and b about -128..127).
 *
 * \param bgr,w,h,stride the photo (borrowed), 8-bit BGR, stride >= 3*w;
 *        w and h at least FW_CHIP_LEARN_MIN_SIZE
 * \param value the chip's value (> 0), copied to out->value
 * \param name the colour name to store (1-15 bytes), or NULL to name the
 *        chip after the nearest colour of the fixed list of chips.h
 * \param out receives the chip (zeroed on failure)
 * \returns FW_OK; FW_EINVAL for bad arguments, an image too small or one
 *          showing several chips equally likely to be the one;
 *          FW_ENOENT when no chip is found; FW_ENOMEM; FW_EINTERNAL
 */
int fw_chips_learn(const uint8_t *bgr, int w, int h, int stride, int64_t value,
                   const char *name, fw_calib_chip *out);

/** Body colours closer than this (Lab units) are "the same colour". */
#define FW_CHIP_ALIKE_BODY 8.0f
/** Edge colours closer than this (Lab units) are "the same colour". */
#define FW_CHIP_ALIKE_EDGE 12.0f

/**
 * Whether two chips of a set could not be told apart by their look: body
 * colours within FW_CHIP_ALIKE_BODY and either edges both unknown, one
 * unknown, or the same number of spots with colours within
 * FW_CHIP_ALIKE_EDGE. Pure arithmetic; NULL gives 0.
 * \returns 1 when alike, else 0
 */
int fw_chips_alike(const fw_calib_chip *a, const fw_calib_chip *b);

#ifdef __cplusplus
}
#endif

#endif
