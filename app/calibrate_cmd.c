/* calibrate_cmd.c - `feltwatch calibrate`: check or print a calibration. */
#include "calibrate_cmd.h"

#include "calibration.h"

#include <string.h>

static int usage(FILE *err)
{
    fprintf(err, "usage: feltwatch calibrate --check FILE\n"
                 "       feltwatch calibrate --default\n");
    return 2;
}

int fw_calibrate_main(int argc, char **argv, FILE *out, FILE *err)
{
    if (argc == 2 && strcmp(argv[1], "--default") == 0) {
        fputs(fw_calib_default_json(), out);
        return 0;
    }
    if (argc != 3 || strcmp(argv[1], "--check") != 0)
        return usage(err);
    char msg[512];
    fw_calib *c = NULL;
    if (fw_calib_load(argv[2], &c, msg, sizeof msg) != FW_OK) {
        fprintf(err, "feltwatch: calibrate: %s\n", msg);
        return 1;
    }
    const fw_calib_chip *chips;
    int nchips = fw_calib_chips(c, &chips);
    double cx, cy;
    fw_calib_to_image(c, 0, 0, &cx, &cy);
    fprintf(out, "%s: valid: %d seats, %d chips; the felt's corner (0,0) "
                 "is at pixel (%.1f, %.1f)\n",
            argv[2], fw_calib_seats(c), nchips, cx, cy);
    fw_calib_free(c);
    return 0;
}
