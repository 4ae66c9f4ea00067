/*
 * lab.cpp - 8-bit BGR to L*a*b* as OpenCV computes it (lab.h).
 *
 * OpenCV's arithmetic for 8-bit images (RGB2Lab_b in imgproc's
 * color_lab.cpp), which this reproduces step for step:
 *   1. each channel through the sRGB curve: a table of
 *      round(2040 * gamma(v / 255)), 2040 being 255 with three more bits;
 *   2. X, Y and Z, each over its D65 white, as dot products with the sRGB
 *      matrix in 12-bit fixed point, rounded back by 2^12. Every row of
 *      that matrix sums to 4096, so X, Y and Z lie in 0..2040;
 *   3. each of X, Y and Z through a table of 2^15 f(i / 2040), f the cube
 *      root above (6/29)^3 and CIE's straight line below it;
 *   4. L = (296 fY - 1336934) / 2^15, a = 500 (fX - fY) / 2^15 + 128 and
 *      b = 200 (fY - fZ) / 2^15 + 128, each rounded (2^14 added before the
 *      shift) and saturated.
 * Both tables are computed in OpenCV's software floating point
 * (cv::softfloat), as OpenCV computes its own: its cube root is not the
 * correctly rounded one at two of the entries, and the tables have to be
 * the same for the answers to be.
 *
 * The speed is in tables that do more of the work:
 *   - steps 1 and 2: per channel, a table of its gamma times its column of
 *     the matrix, X's and Z's shares side by side in 64 bits (each sum
 *     fits in 23 bits) and Y's in 32, so X, Y and Z are six reads and four
 *     adds (the rounding folded into the blue channel's entries);
 *   - steps 3 and 4: one table per index holds its share of a 64-bit S,
 *       bits  0..22  a's sum 500 fX - 500 fY + 128 * 2^15 + 2^14,
 *       bits 31..38  L (from fY alone, so already final),
 *       bits 40..62  b's sum 200 fY - 200 fZ + 128 * 2^15 + 2^14,
 *     and S = AX[X] + LY[Y] - BZ[Z] modulo 2^64, the shares' negative
 *     parts cancelling. Over the 8-bit colours a stays in 42..226 and b in
 *     20..223 (the exhaustive test is what proves it), so neither sum
 *     leaves its field nor needs saturating;
 *   - one multiply gathers the three bytes: S with everything but their
 *     integer parts masked off, times 2^9 + 2^33 + 2^1, has L, a and b in
 *     bits 40..63, every other partial product landing in bits of its own
 *     below 40 (so nothing carries in) or beyond 63;
 *   - a row is done right to left and each pixel stored as the whole
 *     product, 8 bytes ending with its own three: the 5 before them fall on
 *     the two pixels to its left, which are done next and overwrite them.
 *     The first two pixels of a row are stored a byte at a time.
 */
#include "lab.h"

#include <opencv2/core/softfloat.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define FW_LAB_WIDE_STORES 0 /* the 8-byte stores assume little-endian */
#else
#define FW_LAB_WIDE_STORES 1
#endif

namespace fwv {

namespace {

constexpr int GAMMA_ONE = 255 << 3; /* the gamma table's 1.0 */
constexpr int XYZ_SHIFT = 12;       /* the matrix's fixed point */
constexpr int F_SHIFT = 15;         /* the cube-root table's */
constexpr int NIDX = GAMMA_ONE + 1; /* X, Y and Z lie in 0..2040 */
/* where S holds a's and b's integer parts and L, and where the gathering
 * multiply puts L (a and b follow it, 8 and 16 bits up) */
constexpr int A_AT = 15, L_AT = 31, B_AT = 55, OUT_AT = 40;

struct Tabs {
    uint64_t xz[3][256]; /* per channel B, G, R: X's share | Z's << 32 */
    uint32_t y[3][256];  /* Y's share */
    uint32_t ax[NIDX];   /* S's share from X */
    uint64_t ly[NIDX];   /* from Y */
    uint64_t bz[NIDX];   /* from Z, subtracted */
    /* read from here rather than written as constants, so the compiler
     * multiplies instead of spelling the multiplier out as shifts and
     * adds, which is slower */
    uint64_t mask, gather;
};

/* Fills t as the comment at the top describes. */
void fill(Tabs &t)
{
    using cv::softdouble;
    using cv::softfloat;

    /* the sRGB curve (IEC 61966-2-1), its constants as exact ratios */
    const softdouble lin_end = softdouble(809) / softdouble(20000);
    const softdouble lin_div = softdouble(323) / softdouble(25);
    const softdouble off = softdouble(11) / softdouble(200);
    const softdouble power = softdouble(12) / softdouble(5);
    int gamma[256];
    for (int v = 0; v < 256; v++) {
        /* v / 255 in single precision, as OpenCV has it */
        softdouble x = softfloat(v) / softfloat(255);
        softfloat g = x <= lin_end
                          ? softfloat(x / lin_div)
                          : softfloat(cv::pow(
                                (x + off) / (softdouble::one() + off), power));
        gamma[v] = cvRound(softfloat(GAMMA_ONE) * g);
    }

    /* f over i / 2040: the cube root from (6/29)^3 up, below it the line
     * 841/108 t + 16/116 that meets it there */
    const softfloat step = softfloat::one() / softfloat(GAMMA_ONE);
    const softfloat knee = softfloat(216) / softfloat(24389);
    const softfloat slope = softfloat(841) / softfloat(108);
    const softfloat base = softfloat(16) / softfloat(116);
    int f[NIDX];
    for (int i = 0; i < NIDX; i++) {
        softfloat x = step * softfloat(i);
        softfloat fx = x < knee ? cv::mulAdd(x, slope, base) : cv::cbrt(x);
        f[i] = cvRound(softfloat(1 << F_SHIFT) * fx);
    }

    /* sRGB to XYZ (rows X, Y, Z; columns R, G, B) and the D65 white */
    static const double rgb2xyz[3][3] = {{0.412453, 0.357580, 0.180423},
                                         {0.212671, 0.715160, 0.072169},
                                         {0.019334, 0.119193, 0.950227}};
    static const double white[3] = {0.950456, 1.0, 1.088754};
    int coef[3][3]; /* [X, Y, Z][B, G, R] */
    for (int k = 0; k < 3; k++) {
        int sum = 0;
        for (int ch = 0; ch < 3; ch++) {
            coef[k][ch] =
                cvRound(softdouble(1 << XYZ_SHIFT) *
                        softdouble(rgb2xyz[k][2 - ch]) / softdouble(white[k]));
            sum += coef[k][ch];
        }
        /* what keeps X, Y and Z inside the tables below */
        CV_Assert(sum <= 1 << XYZ_SHIFT);
    }
    const uint32_t half = 1u << (XYZ_SHIFT - 1);
    for (int ch = 0; ch < 3; ch++)
        for (int v = 0; v < 256; v++) {
            uint32_t r = ch == 0 ? half : 0;
            uint32_t x = (uint32_t)(gamma[v] * coef[0][ch]) + r;
            uint32_t y = (uint32_t)(gamma[v] * coef[1][ch]) + r;
            uint32_t z = (uint32_t)(gamma[v] * coef[2][ch]) + r;
            t.xz[ch][v] = x | (uint64_t)z << 32;
            t.y[ch][v] = y;
        }

    const uint64_t mid = ((uint64_t)128 << F_SHIFT) + (1u << (F_SHIFT - 1));
    for (int i = 0; i < NIDX; i++) {
        /* L = (Lscale fY + Lshift) / 2^15 with OpenCV's integer Lscale and
         * Lshift, rounded and saturated */
        int64_t l = (int64_t)((116 * 255 + 50) / 100) * f[i] -
                    (16 * 255 * ((int64_t)1 << F_SHIFT) + 50) / 100 +
                    (1 << (F_SHIFT - 1));
        uint64_t lsat =
            l < 0 ? 0 : (uint64_t)std::min<int64_t>(l >> F_SHIFT, 255);
        uint64_t fi = (uint64_t)f[i];
        t.ax[i] = (uint32_t)(500 * fi);
        t.ly[i] = (mid - 500 * fi) + (lsat << L_AT) +
                  ((200 * fi + mid) << (B_AT - F_SHIFT));
        t.bz[i] = (200 * fi) << (B_AT - F_SHIFT);
    }
    t.mask = (uint64_t)0xff << A_AT | (uint64_t)0xff << L_AT |
             (uint64_t)0xff << B_AT;
    t.gather = (uint64_t)1 << (OUT_AT - L_AT) |
               (uint64_t)1 << (OUT_AT + 8 - A_AT) |
               (uint64_t)1 << (OUT_AT + 16 - B_AT);
}

const Tabs &tabs()
{
    /* built on the first call; C++11 runs that once, other threads
     * waiting for it */
    static Tabs t;
    static const bool built = (fill(t), true);
    (void)built;
    return t;
}

/* The product whose bits 40..63 are the L, a and b of the BGR pixel at
 * p. */
inline uint64_t lab_word(const Tabs &t, uint64_t mask, uint64_t gather,
                         const uint8_t *p)
{
    uint64_t xz = t.xz[0][p[0]] + t.xz[1][p[1]] + t.xz[2][p[2]];
    uint32_t y = (t.y[0][p[0]] + t.y[1][p[1]] + t.y[2][p[2]]) >> XYZ_SHIFT;
    uint64_t s = t.ax[(uint32_t)xz >> XYZ_SHIFT] + t.ly[y] -
                 t.bz[xz >> (32 + XYZ_SHIFT)];
    return (s & mask) * gather;
}

/* Pixel i of s into d, as 8 bytes ending with its own 3 (i >= 2). */
inline void put_wide(const Tabs &t, uint64_t mask, uint64_t gather,
                     const uint8_t *s, uint8_t *d, ptrdiff_t i)
{
    uint64_t w = lab_word(t, mask, gather, s + 3 * i);
    std::memcpy(d + 3 * i - 5, &w, 8);
}

/*
 * n pixels from s into d, which must not overlap (each store reaches 5
 * bytes left of its pixel, over pixels not yet read). Right to left, four
 * pixels to a turn so the loop's own arithmetic is paid once for them.
 */
void convert(const Tabs &t, const uint8_t *__restrict s, uint8_t *__restrict d,
             ptrdiff_t n)
{
    const uint64_t mask = t.mask, gather = t.gather;
    ptrdiff_t i = n - 1;
#if FW_LAB_WIDE_STORES
    for (; i >= 5; i -= 4) {
        put_wide(t, mask, gather, s, d, i);
        put_wide(t, mask, gather, s, d, i - 1);
        put_wide(t, mask, gather, s, d, i - 2);
        put_wide(t, mask, gather, s, d, i - 3);
    }
    for (; i >= 2; i--)
        put_wide(t, mask, gather, s, d, i);
#endif
    for (; i >= 0; i--) {
        uint64_t w = lab_word(t, mask, gather, s + 3 * i) >> OUT_AT;
        d[3 * i] = (uint8_t)w;
        d[3 * i + 1] = (uint8_t)(w >> 8);
        d[3 * i + 2] = (uint8_t)(w >> 16);
    }
}

/* n pixels converted where they lie, through a buffer a piece at a time:
 * each piece is read whole before it is overwritten. */
void convert_in_place(const Tabs &t, uint8_t *p, ptrdiff_t n)
{
    constexpr ptrdiff_t PIECE = 256;
    uint8_t buf[3 * PIECE];
    for (ptrdiff_t x = 0; x < n; x += PIECE) {
        ptrdiff_t m = std::min(PIECE, n - x);
        convert(t, p + 3 * x, buf, m);
        std::memcpy(p + 3 * x, buf, 3 * (size_t)m);
    }
}

} // namespace

void bgr_to_lab(const cv::Mat &bgr, cv::Mat &lab)
{
    CV_Assert(!bgr.empty() && bgr.dims == 2 && bgr.type() == CV_8UC3);
    const Tabs &t = tabs();
    const int rows = bgr.rows, cols = bgr.cols;
    lab.create(rows, cols, CV_8UC3);

    /* exactly in place is converted through a small buffer; any other
     * overlap (two regions of one image) from a copy of the input */
    const cv::Mat *src = &bgr;
    cv::Mat copy;
    bool in_place = false;
    uintptr_t s0 = (uintptr_t)bgr.ptr(0),
              s1 = (uintptr_t)(bgr.ptr(rows - 1) + 3 * (size_t)cols);
    uintptr_t d0 = (uintptr_t)lab.ptr(0),
              d1 = (uintptr_t)(lab.ptr(rows - 1) + 3 * (size_t)cols);
    if (s0 < d1 && d0 < s1) {
        if (bgr.data == lab.data && bgr.step == lab.step) {
            in_place = true;
        } else {
            copy = bgr.clone();
            src = &copy;
        }
    }

    /* continuous images are one long row (the stores may then run across
     * rows' ends; within a region they must not) */
    const bool whole = src->isContinuous() && lab.isContinuous();
    const int runs = whole ? 1 : rows;
    const ptrdiff_t n = whole ? (ptrdiff_t)rows * cols : cols;
    for (int y = 0; y < runs; y++) {
        if (in_place)
            convert_in_place(t, lab.ptr(y), n);
        else
            convert(t, src->ptr(y), lab.ptr(y), n);
    }
}

} // namespace fwv
