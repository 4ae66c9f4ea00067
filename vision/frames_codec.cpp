/*
 * frames_codec.cpp - the image decoder the frame sources share (OpenCV
 * imdecode into one kept buffer) and fw_frames_write_image().
 */
#include "frames_int.h"

#include <opencv2/imgcodecs.hpp>

#include <cerrno>
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

struct fw_frames_decoder {
    std::vector<uint8_t> bytes;
    cv::Mat img;
};

namespace {

/* The row mark: bytes of a xorshift sequence (see fw_frames__decode). */
uint8_t mark_byte(uint32_t &x)
{
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return (uint8_t)(x >> 24);
}

void mark_row(uint8_t *row, size_t n)
{
    uint32_t x = 0x2545F491u;
    for (size_t i = 0; i < n; i++)
        row[i] = mark_byte(x);
}

bool is_marked(const uint8_t *row, size_t n)
{
    uint32_t x = 0x2545F491u;
    for (size_t i = 0; i < n; i++)
        if (row[i] != mark_byte(x))
            return false;
    return true;
}

} // namespace

extern "C" int fw_frames__decoder_new(fw_frames_decoder **out)
{
    *out = new (std::nothrow) fw_frames_decoder();
    return *out ? FW_OK : FW_ENOMEM;
}

extern "C" void fw_frames__decoder_free(fw_frames_decoder *d)
{
    delete d;
}

extern "C" int fw_frames__decode(fw_frames_decoder *d, const uint8_t *data,
                                 size_t len, fw_image *out)
{
    try {
        if (!data || len == 0 || len > (size_t)INT32_MAX)
            return FW_EPARSE;
        cv::Mat in(1, (int)len, CV_8UC1, const_cast<uint8_t *>(data));
        /* The three-argument form decodes into d->img, reusing its pixels
         * when the size is unchanged. But when OpenCV finds no decoder or
         * cannot read the header it returns leaving d->img as it was: the
         * previous frame would pass for this one. So row 0 is first filled
         * with a pattern no decoder produces in practice, and a row 0 still
         * holding it means nothing was decoded. */
        const uint8_t *before = d->img.data;
        bool marked = !d->img.empty() && d->img.type() == CV_8UC3;
        if (marked)
            mark_row(d->img.ptr<uint8_t>(0), (size_t)d->img.cols * 3);
        cv::imdecode(in, cv::IMREAD_COLOR, &d->img);
        if (d->img.empty() || d->img.type() != CV_8UC3)
            return FW_EPARSE;
        if (marked && d->img.data == before &&
            is_marked(d->img.ptr<uint8_t>(0), (size_t)d->img.cols * 3))
            return FW_EPARSE;
        out->bgr = d->img.data;
        out->width = d->img.cols;
        out->height = d->img.rows;
        out->stride = (int)d->img.step[0];
        return FW_OK;
    } catch (const std::bad_alloc &) {
        return FW_ENOMEM;
    } catch (const std::exception &) {
        return FW_EPARSE; /* libjpeg/libpng errors surface as cv::Exception */
    }
}

extern "C" int fw_frames__decode_file(fw_frames_decoder *d, const char *path,
                                      fw_image *out)
{
    try {
        FILE *f = std::fopen(path, "rb");
        if (!f)
            return errno == ENOENT ? FW_ENOENT : FW_EIO;
        int rc = FW_OK;
        long n = -1;
        if (std::fseek(f, 0, SEEK_END) == 0)
            n = std::ftell(f);
        if (n < 0 || std::fseek(f, 0, SEEK_SET) != 0)
            rc = FW_EIO;
        if (rc == FW_OK) {
            d->bytes.resize((size_t)n); /* keeps capacity: no realloc */
            if (n > 0 && std::fread(d->bytes.data(), 1, (size_t)n, f) !=
                             (size_t)n)
                rc = FW_EIO;
        }
        std::fclose(f);
        if (rc != FW_OK)
            return rc;
        return fw_frames__decode(d, d->bytes.data(), d->bytes.size(), out);
    } catch (const std::bad_alloc &) {
        return FW_ENOMEM;
    } catch (const std::exception &) {
        return FW_EINTERNAL;
    }
}

extern "C" int fw_frames_write_image(const char *path, const fw_image *img)
{
    if (!path || !img || !img->bgr || img->width <= 0 || img->height <= 0 ||
        img->stride < img->width * 3)
        return fw_set_error(FW_EINVAL, "frames: write_image: bad argument");
    try {
        const cv::Mat m(img->height, img->width, CV_8UC3, img->bgr,
                        (size_t)img->stride);
        std::string p(path);
        size_t dot = p.rfind('.');
        if (dot == std::string::npos ||
            !cv::haveImageWriter(p.substr(dot)))
            return fw_set_error(FW_EUNSUPPORTED,
                                "frames: %s: unknown image type", path);
        if (!cv::imwrite(p, m))
            return fw_set_error(FW_EIO, "frames: %s: cannot write", path);
        return FW_OK;
    } catch (const std::bad_alloc &) {
        return fw_set_error(FW_ENOMEM, "frames: out of memory");
    } catch (const std::exception &e) {
        return fw_set_error(FW_EIO, "frames: %s: %s", path, e.what());
    }
}
