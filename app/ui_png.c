/* ui_png.c - the dealer screen's frames as PNG files (libpng). */
#include "ui_int.h"

#include <png.h>
#include <string.h>

/*
 * Write w x h pixels of packed RGB (3 bytes a pixel, rows w * 3 bytes
 * apart) to path as an 8-bit RGB PNG. Returns FW_OK or FW_EIO with
 * libpng's message.
 */
int fw__ui_write_png(const char *path, const unsigned char *rgb, int w,
                     int h)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = (png_uint_32)w;
    img.height = (png_uint_32)h;
    img.format = PNG_FORMAT_RGB;
    if (!png_image_write_to_file(&img, path, 0, rgb, w * 3, NULL)) {
        int rc = fw_set_error(FW_EIO, "%s: %s", path, img.message);
        png_image_free(&img);
        return rc;
    }
    return FW_OK;
}

/* FNV-1a over a frame's bytes: tells an unchanged frame from a new one. */
uint64_t fw__ui_hash(const unsigned char *p, size_t n)
{
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211u;
    }
    return h;
}
