/*
 * calib_cv.h - the OpenCV side of calibrating a table (a C API over a C++
 * shim): finding the four ArUco corner markers in a camera image, camera
 * intrinsics from checkerboard photos, and synthetic images of both for
 * the tests. The calibration core (calibration.h) stays free of OpenCV.
 *
 * Ownership: nothing here allocates for the caller; results are copied into
 * caller-owned plain structs. Errors return a negative FW_E* code with the
 * message in fw_last_error(); no C++ exception crosses this API.
 *
 * Threading: every function is reentrant.
 */
#ifndef FW_CALIB_CV_H
#define FW_CALIB_CV_H

#ifdef __cplusplus
extern "C" {
#endif

/* calibration.h and fw_error.h are C headers without their own extern "C" */
#include "calibration.h"

/** The ArUco dictionary used when none is named. */
#define FW_CALIB_DEFAULT_DICT "4x4_50"

/**
 * The corner markers found in an image: marker id i (0 top-left,
 * 1 top-right, 2 bottom-right, 3 bottom-left corner of the felt) was seen
 * found[i] times; its centre (the intersection of its diagonals, exact
 * under perspective) is corner[i].
 */
typedef struct fw_calib_markers {
    int width, height;
    int found[4];
    double corner[4][2];
} fw_calib_markers;

/** The corner a marker id stands for ("top-left"...), or "?" past 3. */
const char *fw_calib_marker_corner(int id);

/**
 * Find the four corner markers in an image file.
 * \param dict the ArUco dictionary: "4x4_50", "5x5_100", "6x6_250",
 * "7x7_1000" and the others of that form, or "original"; NULL for
 * FW_CALIB_DEFAULT_DICT.
 * \param out filled as far as the search got, also on FW_ENOENT/FW_EPARSE.
 * \returns FW_OK when each of ids 0-3 was found exactly once; FW_EIO (the
 * file is not a readable image), FW_EINVAL (unknown dictionary), FW_ENOENT
 * (a marker is missing: the message names it), FW_EPARSE (a marker appears
 * twice), FW_EINTERNAL.
 */
int fw_calib_find_markers(const char *image_path, const char *dict,
                          fw_calib_markers *out);

/**
 * Camera intrinsics from photos of a checkerboard with cols x rows inner
 * corners of square_mm squares (cv::findChessboardCorners, cornerSubPix,
 * calibrateCamera with five distortion coefficients).
 * \param found optional, n flags: whether the board was found in paths[i].
 * \param width, height optional: the images' size.
 * \returns FW_OK; FW_EIO (an image is unreadable), FW_EINVAL (bad board or
 * images of different sizes), FW_ENOENT (the board was found in fewer than
 * three images), FW_EINTERNAL.
 */
int fw_calib_intrinsics(const char *const *paths, int n, int cols, int rows,
                        double square_mm, fw_calib_camera *out, int *found,
                        int *width, int *height);

/**
 * Write a synthetic PNG for the tests: a green felt with marker ids[i]
 * (side marker_px, in a white margin) centred on corners[i], then the whole
 * picture warped by the homography h (row-major, NULL for none), so the
 * marker centres end up at h(corners[i]).
 * \returns FW_OK, FW_EINVAL, FW_EIO (cannot write), FW_EINTERNAL.
 */
int fw_calib_sim_markers(const char *path, int width, int height,
                         const double corners[4][2], const double *h,
                         int marker_px, const char *dict, const int ids[4]);

/**
 * Write a synthetic PNG for the tests: a checkerboard of cols x rows inner
 * corners (square_mm squares, a white margin of one square) in the plane
 * z = 0, seen by the camera cam from the pose rvec (Rodrigues) and tvec
 * (mm), lens distortion included; each square is a filled polygon through
 * its projected corners.
 * \returns FW_OK, FW_EINVAL, FW_EIO, FW_EINTERNAL.
 */
int fw_calib_sim_board(const char *path, int width, int height, int cols,
                       int rows, double square_mm, const fw_calib_camera *cam,
                       const double rvec[3], const double tvec[3]);

#ifdef __cplusplus
}
#endif

#endif
