/*
 * fuzz_calibration.c - libFuzzer target: any bytes as a calibration file
 * must give a calibration or a clean error, and a calibration must answer
 * zone and homography queries without trouble.
 */
#include "calibration.h"

#include <stddef.h>
#include <stdint.h>

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
    }
    fw_calib_free(c);
    return 0;
}
