/*
 * image.cpp - reading and writing images for vision.h (OpenCV imgcodecs).
 *
 * Only JPEG, PNG, BMP, PNM and WebP are handed to a decoder, recognised by
 * their first bytes: the other decoders OpenCV carries (TIFF, EXR, HDR, ...)
 * are more attack surface than a card camera needs. The size in the header
 * is checked before anything is allocated, and a file cut short is refused
 * rather than decoded into a half-grey picture.
 */
#include "vision.h"

#include <opencv2/core/utils/logger.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace {

enum Format { F_NONE, F_JPEG, F_PNG, F_BMP, F_PNM, F_WEBP };

Format sniff(const uint8_t *d, size_t n)
{
    if (n >= 3 && d[0] == 0xFF && d[1] == 0xD8 && d[2] == 0xFF)
        return F_JPEG;
    if (n >= 8 && std::memcmp(d, "\x89PNG\r\n\x1a\n", 8) == 0)
        return F_PNG;
    if (n >= 2 && d[0] == 'B' && d[1] == 'M')
        return F_BMP;
    /* a space after the magic number, as Netpbm and OpenCV's reader ask
     * (see check_header(): OpenCV hands what its reader refuses on) */
    if (n >= 3 && d[0] == 'P' && d[1] >= '1' && d[1] <= '6' &&
        std::isspace(d[2]))
        return F_PNM;
    if (n >= 12 && std::memcmp(d, "RIFF", 4) == 0 &&
        std::memcmp(d + 8, "WEBP", 4) == 0)
        return F_WEBP;
    return F_NONE;
}

uint32_t be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }
uint32_t be32(const uint8_t *p) { return be16(p) << 16 | be16(p + 2); }
uint32_t le16(const uint8_t *p) { return (uint32_t)p[1] << 8 | p[0]; }
uint32_t le32(const uint8_t *p) { return le16(p + 2) << 16 | le16(p); }

/* Whether BYTES occur in the last `tail` bytes of d. */
bool in_tail(const uint8_t *d, size_t n, const char *bytes, size_t len,
             size_t tail)
{
    size_t from = n > tail ? n - tail : 0;
    for (size_t i = n >= len ? n - len + 1 : 0; i-- > from;)
        if (std::memcmp(d + i, bytes, len) == 0)
            return true;
    return false;
}

/* The next number of a PNM header (comments skipped), or -1. */
long pnm_number(const uint8_t *d, size_t n, size_t *pos)
{
    size_t i = *pos;
    for (;;) {
        while (i < n && (d[i] == ' ' || d[i] == '\t' || d[i] == '\r' ||
                         d[i] == '\n'))
            i++;
        if (i < n && d[i] == '#') {
            while (i < n && d[i] != '\n')
                i++;
            continue;
        }
        break;
    }
    long v = 0;
    size_t start = i;
    while (i < n && d[i] >= '0' && d[i] <= '9' && v < 100000000)
        v = v * 10 + (d[i++] - '0');
    *pos = i;
    return i > start ? v : -1;
}

/*
 * Read the width and height from the header and check the file is whole as
 * far as that can be told without decoding. Returns FW_OK with *w, *h set
 * (0 when the header does not say), or an FW_E* code with the message set.
 */
int check_header(Format f, const uint8_t *d, size_t n, const char *name,
                 long long *w, long long *h)
{
    *w = *h = 0;
    switch (f) {
    case F_PNG:
        if (n < 33 || std::memcmp(d + 12, "IHDR", 4) != 0)
            return fw_set_error(FW_EPARSE, "%s: a PNG without its header",
                                name);
        *w = be32(d + 16);
        *h = be32(d + 20);
        if (!in_tail(d, n, "IEND", 4, 4096))
            return fw_set_error(FW_EPARSE, "%s: the PNG is cut short", name);
        return FW_OK;
    case F_JPEG: {
        if (!in_tail(d, n, "\xFF\xD9", 2, 65536))
            return fw_set_error(FW_EPARSE, "%s: the JPEG is cut short", name);
        size_t i = 2;
        while (i + 9 < n) {
            if (d[i] != 0xFF) {
                i++;
                continue;
            }
            uint8_t m = d[i + 1];
            if (m == 0xFF) {
                i++;
                continue;
            }
            if (m == 0xD8 || m == 0x01 || (m >= 0xD0 && m <= 0xD7)) {
                i += 2;
                continue;
            }
            uint32_t len = be16(d + i + 2);
            if (m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 &&
                m != 0xCC) {
                *h = be16(d + i + 5);
                *w = be16(d + i + 7);
                return FW_OK;
            }
            if (m == 0xDA || len < 2)
                break;
            i += 2 + len;
        }
        return fw_set_error(FW_EPARSE, "%s: a JPEG without a frame header",
                            name);
    }
    case F_BMP: {
        if (n < 26)
            return fw_set_error(FW_EPARSE, "%s: a BMP cut short", name);
        uint32_t size = le32(d + 2);
        if (size > n && size - n > 2)
            return fw_set_error(FW_EPARSE, "%s: the BMP is cut short", name);
        *w = (int32_t)le32(d + 18);
        *h = (int32_t)le32(d + 22);
        if (*h < 0)
            *h = -*h;
        return FW_OK;
    }
    case F_PNM: {
        size_t pos = 2;
        *w = pnm_number(d, n, &pos);
        *h = pnm_number(d, n, &pos);
        if (*w < 0 || *h < 0)
            return fw_set_error(FW_EPARSE, "%s: a PNM without its size",
                                name);
        return FW_OK;
    }
    case F_WEBP: {
        uint32_t riff = le32(d + 4);
        if ((size_t)riff + 8 > n)
            return fw_set_error(FW_EPARSE, "%s: the WebP is cut short", name);
        /* cv::imdecode() tries its readers in turn, each on its own
         * signature, and one that refuses hands the data on: OpenCV's
         * DICOM reader (GDCM), which takes "DICM" at byte 128, aborts on
         * malformed data (fuzz_cards). The JPEG, PNG, BMP and PNM readers
         * come first and ask no more than sniff() does; the WebP reader
         * asks libwebp, so a WebP that libwebp refuses may reach GDCM */
        if (n >= 132 && std::memcmp(d + 128, "DICM", 4) == 0)
            return fw_set_error(FW_EPARSE,
                                "%s: a WebP with a DICOM signature at byte "
                                "128, not decoded",
                                name);
        if (n >= 30 && std::memcmp(d + 12, "VP8 ", 4) == 0) {
            *w = le16(d + 26) & 0x3FFF;
            *h = le16(d + 28) & 0x3FFF;
        } else if (n >= 25 && std::memcmp(d + 12, "VP8L", 4) == 0) {
            uint32_t b = le32(d + 21);
            *w = (b & 0x3FFF) + 1;
            *h = ((b >> 14) & 0x3FFF) + 1;
        } else if (n >= 30 && std::memcmp(d + 12, "VP8X", 4) == 0) {
            *w = (d[24] | d[25] << 8 | d[26] << 16) + 1;
            *h = (d[27] | d[28] << 8 | d[29] << 16) + 1;
        }
        return FW_OK;
    }
    default:
        return fw_set_error(FW_EPARSE,
                            "%s: not an image (JPEG, PNG, BMP, PNM or WebP)",
                            name);
    }
}

/* OpenCV reads its own pixel cap (OPENCV_IO_MAX_IMAGE_PIXELS, 2^30 unset)
 * once, as the library loads, so no setting made here could lower it:
 * FW_VISION_MAX_PIXELS is checked against the header before decoding */
void quiet_opencv()
{
    static bool done = false;
    if (done)
        return;
    done = true;
    cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
}

/* The format of d[0..n) and the size its header declares (check_header());
 * an empty file is no image. */
int read_header(const uint8_t *d, size_t n, const char *name, Format *f,
                long long *w, long long *h)
{
    *w = *h = 0;
    *f = F_NONE;
    if (n == 0)
        return fw_set_error(FW_EPARSE, "%s: empty file", name);
    *f = sniff(d, n);
    return check_header(*f, d, n, name, w, h);
}

int decode(const uint8_t *d, size_t n, const char *name, fw_image *out)
{
    quiet_opencv();
    Format f = F_NONE;
    long long w = 0, h = 0;
    int rc = read_header(d, n, name, &f, &w, &h);
    if (rc != FW_OK)
        return rc;
    if (w < 0 || h < 0 || (w && h && w * h > FW_VISION_MAX_PIXELS))
        return fw_set_error(FW_ERANGE,
                            "%s: %lldx%lld pixels is more than the %lld "
                            "accepted",
                            name, w, h, (long long)FW_VISION_MAX_PIXELS);
    if ((w == 0 || h == 0) && f != F_WEBP)
        return fw_set_error(FW_ERANGE, "%s: the image has no pixels", name);
    if (n > (size_t)INT32_MAX)
        return fw_set_error(FW_ERANGE, "%s: file too large", name);
    cv::Mat buf(1, (int)n, CV_8UC1, const_cast<uint8_t *>(d));
    cv::Mat m = cv::imdecode(buf, cv::IMREAD_COLOR);
    if (m.empty())
        return fw_set_error(FW_EPARSE, "%s: not a readable image", name);
    if ((long long)m.cols * m.rows > FW_VISION_MAX_PIXELS)
        return fw_set_error(FW_ERANGE, "%s: too many pixels", name);
    size_t bytes = m.total() * 3;
    out->bgr = static_cast<uint8_t *>(std::malloc(bytes));
    if (!out->bgr)
        return fw_set_error(FW_ENOMEM, "%s: out of memory", name);
    for (int y = 0; y < m.rows; y++)
        std::memcpy(out->bgr + (size_t)y * m.cols * 3, m.ptr(y),
                    (size_t)m.cols * 3);
    out->width = m.cols;
    out->height = m.rows;
    out->stride = m.cols * 3;
    return FW_OK;
}

} // namespace

#define FW_IMAGE_CATCH(name)                                                 \
    catch (const std::bad_alloc &) {                                         \
        return fw_set_error(FW_ENOMEM, "%s: out of memory", name);           \
    }                                                                        \
    catch (const std::exception &e) {                                        \
        return fw_set_error(FW_EPARSE, "%s: %s", name, e.what());            \
    }                                                                        \
    catch (...) {                                                            \
        return fw_set_error(FW_EINTERNAL, "%s: unknown error", name);        \
    }

extern "C" int fw_vision_image_size(const uint8_t *data, size_t len,
                                    long long *width, long long *height)
{
    if (!width || !height || (!data && len))
        return fw_set_error(FW_EINVAL, "fw_vision_image_size: bad arguments");
    Format f;
    return read_header(data, len, "image", &f, width, height);
}

extern "C" int fw_vision_decode_image(const uint8_t *data, size_t len,
                                      fw_image *out)
{
    if (!out || (!data && len))
        return fw_set_error(FW_EINVAL,
                            "fw_vision_decode_image: bad arguments");
    std::memset(out, 0, sizeof *out);
    try {
        return decode(data, len, "image", out);
    }
    FW_IMAGE_CATCH("image")
}

extern "C" int fw_vision_load_image(const char *path, fw_image *out)
{
    if (!out || !path)
        return fw_set_error(FW_EINVAL, "fw_vision_load_image: bad arguments");
    std::memset(out, 0, sizeof *out);
    std::unique_ptr<FILE, int (*)(FILE *)> f(std::fopen(path, "rb"),
                                             std::fclose);
    if (!f)
        return fw_set_error(errno == ENOENT ? FW_ENOENT : FW_EIO,
                            "%s: cannot open: %s", path,
                            std::strerror(errno));
    try {
        std::vector<uint8_t> data;
        uint8_t chunk[65536];
        size_t got;
        /* compressed images stay far below this; refuse before reading on */
        const size_t cap = (size_t)1 << 30;
        while ((got = std::fread(chunk, 1, sizeof chunk, f.get())) > 0) {
            if (data.size() + got > cap)
                return fw_set_error(FW_ERANGE, "%s: file too large", path);
            data.insert(data.end(), chunk, chunk + got);
        }
        if (std::ferror(f.get()))
            return fw_set_error(FW_EIO, "%s: cannot read (a folder?)", path);
        return decode(data.data(), data.size(), path, out);
    }
    FW_IMAGE_CATCH(path)
}

extern "C" int fw_vision_save_image(const fw_image *img, const char *path,
                                    int quality)
{
    if (!img || !img->bgr || !path || img->width <= 0 || img->height <= 0 ||
        img->stride < img->width * 3)
        return fw_set_error(FW_EINVAL, "fw_vision_save_image: bad arguments");
    std::string p = path;
    size_t dot = p.rfind('.');
    std::string ext = dot == std::string::npos ? "" : p.substr(dot);
    for (char &c : ext)
        c = (char)std::tolower((unsigned char)c);
    if (ext != ".png" && ext != ".jpg" && ext != ".jpeg" && ext != ".ppm" &&
        ext != ".bmp")
        return fw_set_error(FW_EINVAL, "%s: unknown image extension", path);
    try {
        quiet_opencv();
        cv::Mat m(img->height, img->width, CV_8UC3, img->bgr,
                  (size_t)img->stride);
        std::vector<int> params;
        if (ext == ".jpg" || ext == ".jpeg")
            params = {cv::IMWRITE_JPEG_QUALITY,
                      quality > 0 && quality <= 100 ? quality : 90};
        if (!cv::imwrite(path, m, params))
            return fw_set_error(FW_EIO, "%s: cannot write", path);
        return FW_OK;
    } catch (const std::exception &e) {
        return fw_set_error(FW_EIO, "%s: %s", path, e.what());
    } catch (...) {
        return fw_set_error(FW_EINTERNAL, "%s: unknown error", path);
    }
}

extern "C" void fw_vision_image_free(fw_image *img)
{
    if (!img)
        return;
    std::free(img->bgr);
    img->bgr = nullptr;
    img->width = img->height = img->stride = 0;
}
