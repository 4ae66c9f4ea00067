/*
 * calibration.h - the table's geometry: where the felt is in the camera
 * image (a homography from image pixels to felt millimetres), the zone map
 * (each seat's card zone and bet zone, the board, burn, muck and the
 * dealer's deck area), the chip set's colours, and optional camera
 * intrinsics. Stored as a JSON file, validated on load with errors that name
 * the field.
 *
 * Ownership: fw_calib is opaque; fw_calib_load() and fw_calib_default()
 * return one the caller frees with fw_calib_free() (NULL accepted). Strings
 * returned are borrowed from the calibration.
 *
 * Threading: a calibration is read-only after loading and may be shared.
 */
#ifndef FW_CALIBRATION_H
#define FW_CALIBRATION_H

#include <stddef.h>
#include <stdint.h>

#include "fw_error.h"

typedef struct fw_calib fw_calib;

#define FW_CALIB_MAX_SEATS 10
#define FW_CALIB_MAX_POLY 16
#define FW_CALIB_MAX_CHIPS 16
/** Most edge spots a chip's edge pattern may have. */
#define FW_CALIB_MAX_SPOTS 24

typedef enum fw_zone_kind {
    FW_ZONE_NONE = 0,
    FW_ZONE_SEAT_CARDS,
    FW_ZONE_SEAT_BET,
    FW_ZONE_BOARD,
    FW_ZONE_BURN,
    FW_ZONE_MUCK,
    FW_ZONE_DECK
} fw_zone_kind;

/** A place on the felt: its kind and, for seat zones, the seat. */
typedef struct fw_zone {
    fw_zone_kind kind;
    int seat;
} fw_zone;

/**
 * A chip of the set: its value, colour name, body colour (CIE Lab) and,
 * when known, its edge pattern: the colour of the spots around its rim and
 * how many there are (JSON `"edge":{"lab":[L,a,b],"spots":N}`). Two chips
 * of one body colour are told apart by their edges.
 */
typedef struct fw_calib_chip {
    int64_t value;
    char color[16];
    float lab[3];
    float edge_lab[3]; /**< the edge spots' colour; when edge_spots > 0 */
    int edge_spots;    /**< spots around the rim; 0 = edge not known */
} fw_calib_chip;

/**
 * Load and validate a calibration file. On error *out is NULL and err names
 * the file and the field: `table.json: seats[2].bet: a polygon needs at
 * least 3 points`.
 * \returns FW_OK, FW_EIO (cannot read), FW_EPARSE (not JSON, or a field of
 * the wrong kind or out of range).
 */
int fw_calib_load(const char *path, fw_calib **out, char *err, size_t errsz);

/** Parse a calibration from memory; `name` is used in messages. */
int fw_calib_parse(const char *json, size_t len, const char *name,
                   fw_calib **out, char *err, size_t errsz);

/**
 * The calibration of the simulated table (1280x720 camera looking straight
 * down at a 2400 x 1200 mm felt, nine seats): what `feltwatch demo` uses.
 */
int fw_calib_default(fw_calib **out);

/** The default calibration as JSON text (static, NUL-terminated). */
const char *fw_calib_default_json(void);

/** Free a calibration; accepts NULL. */
void fw_calib_free(fw_calib *c);

/** Number of seats the zone map describes. */
int fw_calib_seats(const fw_calib *c);

/**
 * Image pixel to felt millimetres. When the calibration has a `camera`, the
 * pixel is undistorted first (fw_calib_undistort) and the homography maps
 * undistorted pixels; without one it is the homography alone.
 */
void fw_calib_to_felt(const fw_calib *c, double x, double y, double *fx,
                      double *fy);

/**
 * Felt millimetres back to image pixels: the inverse homography, then the
 * camera's lens distortion when the calibration has a `camera`.
 */
void fw_calib_to_image(const fw_calib *c, double fx, double fy, double *x,
                       double *y);

/** The zone under a point of the felt (FW_ZONE_NONE when none). */
fw_zone fw_calib_zone_at(const fw_calib *c, double fx, double fy);

/** The chip set: count and entries (borrowed). */
int fw_calib_chips(const fw_calib *c, const fw_calib_chip **chips);

/**
 * Camera intrinsics (the optional `camera` object): the 3x3 camera matrix,
 * row-major ([fx, s, cx, 0, fy, cy, 0, 0, 1]), the Brown-Conrady
 * distortion [k1, k2, p1, p2, k3] as OpenCV defines it, and the RMS
 * reprojection error of the calibration that produced them (0 if unknown).
 */
typedef struct fw_calib_camera {
    double matrix[9];
    double dist[5];
    double rms;
} fw_calib_camera;

/**
 * The calibration's camera intrinsics.
 * \returns 1 and fills *out when the calibration has a `camera`, else 0.
 */
int fw_calib_get_camera(const fw_calib *c, fw_calib_camera *out);

/**
 * Remove lens distortion from one pixel: the inverse of fw_calib_distort,
 * solved by fixed-point iteration (as cv::undistortPoints does), so the
 * result is a pixel of the ideal pinhole camera with the same matrix.
 * Pure arithmetic; thread-safe.
 */
void fw_calib_undistort(const fw_calib_camera *cam, double x, double y,
                        double *ux, double *uy);

/** Apply lens distortion to one ideal pixel (the forward model). */
void fw_calib_distort(const fw_calib_camera *cam, double ux, double uy,
                      double *x, double *y);

/**
 * Write a calibration for a table from a template: the template's zones and
 * chips (and its `camera`, unless `cam` is given), with the image size, the
 * felt's four corners in the image (clockwise from top left) and, when
 * `felt_mm` is not NULL, the felt's size replaced. The result is validated
 * as fw_calib_parse() would, and the corners must make a convex quadrilateral
 * in clockwise order; errors name the field
 * (`felt.corners_px: ... not convex`).
 * \param tmpl, len, name the template JSON and its name for messages.
 * \param out receives the JSON text (NUL-terminated), freed with free().
 * \returns FW_OK, FW_EPARSE (bad template, corners or result), FW_ENOMEM.
 */
int fw_calib_make(const char *tmpl, size_t len, const char *name, int width,
                  int height, const double corners[4][2],
                  const double *felt_mm, const fw_calib_camera *cam,
                  char **out, char *err, size_t errsz);

/**
 * Write a calibration with a new chip set: the template (a whole
 * calibration) with its `chips` list replaced by chips[0..n-1], each
 * written as its value, colour name, `lab` and, when edge_spots > 0, its
 * `edge` (colours to a tenth of a Lab unit). The rest of the template is
 * kept as it is. The result is validated as fw_calib_parse() would; errors
 * name the field (`chips[1].edge.spots: ...`).
 * \param tmpl, len, name the template JSON and its name for messages.
 * \param chips, n the chip set (borrowed), 1..FW_CALIB_MAX_CHIPS chips.
 * \param out receives the JSON text (NUL-terminated), freed with free().
 * \returns FW_OK, FW_EINVAL (no chips or too many), FW_EPARSE (a bad
 *          template or chip), FW_ENOMEM.
 */
int fw_calib_with_chips(const char *tmpl, size_t len, const char *name,
                        const fw_calib_chip *chips, int n, char **out,
                        char *err, size_t errsz);

/**
 * The camera as JSON text, `{"camera":{"matrix":[...],"distortion":[...],
 * "rms":...}}`, a document fw_calib_camera_load() reads back.
 * \param out receives the text, freed with free().
 * \returns FW_OK or FW_ENOMEM.
 */
int fw_calib_camera_json(const fw_calib_camera *cam, char **out);

/**
 * Read a `camera` object from a file: either a full calibration or the
 * `{"camera":{...}}` document of `feltwatch calibrate --intrinsics`.
 * Validated as in fw_calib_parse(), errors name the file and the field.
 * \returns FW_OK, FW_EIO, FW_EPARSE.
 */
int fw_calib_camera_load(const char *path, fw_calib_camera *out, char *err,
                         size_t errsz);

/**
 * Solve the homography mapping four source points onto four destination
 * points (row-major 3x3, h[8] = 1).
 * \returns FW_OK, or FW_EINVAL when the points are degenerate.
 */
int fw_calib_homography(const double src[4][2], const double dst[4][2],
                        double h[9]);

#endif
