/*
 * fuzz_calibration.c - libFuzzer target: any bytes as a calibration file
 * must give a calibration or a clean error, and a calibration must answer
 * zone and homography queries (through the camera's lens model when it has
 * a `camera`) without trouble. The same bytes as the template of
 * fw_calib_make() must give a calibration or a clean error too.
 */
#include "calibration.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    fw_calib *c = NULL;
    if (fw_calib_parse((const char *)data, size, "fuzz", &c, err,
                       sizeof err) == FW_OK) {
        double fx, fy;
        fw_calib_to_felt(c, 100, 100, &fx, &fy);
        fw_calib_zone_at(c, fx, fy);
        fw_calib_to_image(c, fx, fy, &fx, &fy);
        fw_calib_camera cam;
        if (fw_calib_get_camera(c, &cam)) {
            double ux, uy;
            fw_calib_undistort(&cam, 0, 0, &ux, &uy);
            fw_calib_distort(&cam, ux, uy, &ux, &uy);
        }
    }
    fw_calib_free(c);
    const double corners[4][2] = {{40, 60}, {1240, 60}, {1240, 660},
                                  {40, 660}};
    char *json = NULL;
    if (fw_calib_make((const char *)data, size, "fuzz", 1280, 720, corners,
                      NULL, NULL, &json, err, sizeof err) == FW_OK)
        free(json);
    return 0;
}
