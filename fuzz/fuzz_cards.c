/*
 * fuzz_cards.c - libFuzzer target over the image entry point: any bytes are
 * decoded as an image and, when they decode, searched for cards. Nothing may
 * crash, leak or hit undefined behaviour.
 */
#include "vision.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* keep each input cheap: images larger than this are not decoded. At the
 * library's own cap (FW_VISION_MAX_PIXELS) a few header bytes declaring a
 * progressive four-component JPEG make the decoder hold about 1.5 GB under
 * the sanitizers, and a CI run went over libFuzzer's 4 GB (exit 71) */
#define FUZZ_MAX_PIXELS 4000000LL

/* OpenCV's image decoders log every malformed input: keep the run quiet */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setenv("OPENCV_LOG_LEVEL", "SILENT", 1);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fw_vision *v;
    if (!v && fw_vision_new(&v) != FW_OK)
        return 0;
    long long w, h;
    if (fw_vision_image_size(data, size, &w, &h) != FW_OK ||
        w > FUZZ_MAX_PIXELS || h > FUZZ_MAX_PIXELS || w * h > FUZZ_MAX_PIXELS)
        return 0;
    fw_image img;
    if (fw_vision_decode_image(data, size, &img) != FW_OK)
        return 0;
    /* the detector downscales large frames itself */
    if ((int64_t)img.width * img.height <= FUZZ_MAX_PIXELS) {
        fw_card_obs obs[64];
        int n = 0;
        fw_vision_detect_cards(v, img.bgr, img.width, img.height, img.stride,
                               obs, 64, &n);
    }
    fw_vision_image_free(&img);
    return 0;
}
