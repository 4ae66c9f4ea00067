/*
 * chip_photo.c - a test tool: write a synthetic photo of one chip, as
 * `feltwatch calibrate --chip` expects one, for the command-line tests.
 *
 *   chip_photo OUT.png COLOR [SPOT_COLOR SPOTS]
 *
 * The chip (radius 70 px) is of the fixed colour COLOR (chips.h), with its
 * usual edge or SPOTS spots of the fixed colour SPOT_COLOR, drawn on green
 * felt in a 320x280 image, lightly blurred by the anti-aliasing only.
 */
#include "chips.h"
#include "fw_parse.h"
#include "vision.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    enum { W = 320, H = 280 };
    if (argc != 3 && argc != 5) {
        fprintf(stderr, "usage: chip_photo OUT.png COLOR [SPOT_COLOR SPOTS]\n");
        return 2;
    }
    fw_calib_chip look;
    if (fw_chips_look(argv[2], 1, &look) != FW_OK) {
        fprintf(stderr, "chip_photo: %s\n", fw_last_error());
        return 1;
    }
    if (argc == 5) {
        long n = 0;
        if (fw_chips_color_lab(argv[3], look.edge_lab) != FW_OK ||
            fw_parse_long(argv[4], 1, 24, &n) != 0) {
            fprintf(stderr, "chip_photo: bad edge %s %s\n", argv[3], argv[4]);
            return 1;
        }
        look.edge_spots = (int)n;
    }
    static uint8_t px[W * H * 3];
    for (int i = 0; i < W * H; i++) {
        px[i * 3] = 35;
        px[i * 3 + 1] = 95;
        px[i * 3 + 2] = 25;
    }
    fw_image img = {px, W, H, W * 3};
    if (fw_chips_draw(px, W, H, W * 3, 163.3f, 138.6f, 70.0f, &look, 7) !=
            FW_OK ||
        fw_vision_save_image(&img, argv[1], 95) != FW_OK) {
        fprintf(stderr, "chip_photo: %s\n", fw_last_error());
        return 1;
    }
    return 0;
}
