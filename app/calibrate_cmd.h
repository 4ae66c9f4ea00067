/*
 * calibrate_cmd.h - private to app/: `feltwatch calibrate`.
 */
#ifndef FW_CALIBRATE_CMD_H
#define FW_CALIBRATE_CMD_H

#include <stdio.h>

/**
 * `feltwatch calibrate`, argv[0] being "calibrate":
 *  - `--check FILE` validates a calibration file and describes it;
 *  - `--default` prints the simulated table's calibration;
 *  - `--markers IMAGE [--dict 4x4_50]` finds the four ArUco corner markers
 *    (ids 0-3, clockwise from the felt's top-left corner; a marker's centre
 *    is the corner) and writes a calibration for that image;
 *  - `--corners x1,y1,...,x4,y4 --image-size WxH` does the same from four
 *    measured points;
 *    both take `[--template FILE]` (zones and chips; default the built-in
 *    simulated table), `[--felt WxH]` (felt size in mm), `[--camera FILE]`
 *    (intrinsics to include) and `[-o OUT.json]` (default standard output);
 *  - `--intrinsics --board CxR --square-mm S [-o OUT.json] IMG...` solves
 *    the camera matrix and distortion from checkerboard photos and writes
 *    `{"camera":{...}}`;
 *  - `--chip VALUE[:NAME]=IMAGE [--chip ...] [--template FILE]
 *    [-o OUT.json]` learns each chip of the set from a photo of it alone
 *    (chip_learn.h: body colour, edge spots) and writes the template with
 *    its chip set replaced; values must differ and no two chips may look
 *    alike (fw_chips_alike), the message naming both images.
 * Messages go to err, naming the file and the field or the missing marker.
 * \returns the process exit status (0 done, 1 failed, 2 usage).
 */
int fw_calibrate_main(int argc, char **argv, FILE *out, FILE *err);

#endif
