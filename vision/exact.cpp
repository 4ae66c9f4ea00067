/*
 * exact.cpp - OpenCV's numbers from fewer instructions (exact.h).
 *
 * warp_linear: what OpenCV 4's warpPerspective (imgwarp.cpp) does with
 * INTER_LINEAR, step by step, so that the bytes agree:
 *  - the matrix is inverted (cv::invert, LU), giving each output pixel's
 *    source point;
 *  - the output is cut into blocks of at most 1024 pixels (16 rows, then
 *    as many columns as fit), and a row's source point is X0 + M[0] * x1
 *    from the block's first column, in doubles: the sum is not the same
 *    double as from column 0, so the blocks' columns are kept here too;
 *  - X and Y are scaled by 32 / W, clamped to int and rounded to nearest
 *    (cvRound); the whole pixel is X >> 5 (as a short), the fraction
 *    X & 31;
 *  - remap's bilinear weights are the products of (32 - f) / 32 and
 *    f / 32 in 15-bit fixed point (all exact), except that the weight of
 *    a point exactly on a pixel, 32768, saturates to 32767 and the table's
 *    fix-up of the sum puts the 1 on the opposite pixel; a channel is
 *    (sum + 2^14) >> 15;
 *  - BORDER_REPLICATE clips each of the four pixels into the image.
 *
 * fit_line_l2: OpenCV's fitLine2D_wods (linefit.cpp) without weights: the
 * coordinates, their squares and product as float products summed in
 * doubles, divided by the count (a float made double), and the direction
 * at half the angle atan2(2 cxy, cxx - cyy) of the central moments (in
 * doubles, rounded to float before halving), its cosine and sine taken
 * in float (OpenCV's calls pick the float overloads; the double ones
 * differ in the last bit for one line in forty).
 */
#include "exact.h"

#include <opencv2/core.hpp>
#include <opencv2/core/hal/intrin.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace fwv {

namespace {

constexpr int TAB_BITS = 5, TAB = 1 << TAB_BITS; /* OpenCV's INTER_TAB_SIZE */
constexpr int COEF_BITS = 15;                     /* INTER_REMAP_COEF_BITS */

/* The four weights (top-left, top-right, bottom-left, bottom-right) for
 * each fraction ay * 32 + ax, as OpenCV's initInterTab2D makes them; and
 * the same in pairs (left | right << 16) of the top and the bottom row,
 * for the vector path. */
struct Weights {
    int16_t w[TAB * TAB][4];
    uint32_t pair[TAB * TAB][2];
    Weights()
    {
        for (int ay = 0; ay < TAB; ay++)
            for (int ax = 0; ax < TAB; ax++) {
                int16_t *t = w[ay * TAB + ax];
                const int scale = (1 << COEF_BITS) / (TAB * TAB);
                t[0] = (int16_t)std::min(32767, (TAB - ay) * (TAB - ax) * scale);
                t[1] = (int16_t)((TAB - ay) * ax * scale);
                t[2] = (int16_t)(ay * (TAB - ax) * scale);
                t[3] = (int16_t)(ay * ax * scale);
                /* the saturated 32768: the sum is one short, and the
                 * fix-up adds it to the largest weight among those it
                 * looks at, which for this entry is the last (0) */
                if (ay == 0 && ax == 0)
                    t[3] = 1;
                for (int r = 0; r < 2; r++)
                    pair[ay * TAB + ax][r] =
                        (uint32_t)(uint16_t)t[2 * r] |
                        (uint32_t)(uint16_t)t[2 * r + 1] << 16;
            }
    }
};

const Weights &weights()
{
    static const Weights tab;
    return tab;
}

inline uchar fixed_to_byte(int v)
{
    return cv::saturate_cast<uchar>((v + (1 << (COEF_BITS - 1))) >> COEF_BITS);
}

/* The most columns in one of OpenCV's blocks (BLOCK_SZ 32 squared). */
constexpr int BLOCK = 1024;

/* The source points of columns x .. x + n - 1 of row y, in 1/32 pixel:
 * OpenCV's doubles (from the block's first column x), clamped to int and
 * rounded to nearest; two at a time where the build has double vectors. */
void source_points(const double M[9], int x, int y, int n, int *xs, int *ys)
{
    const double X0 = M[0] * x + M[1] * y + M[2],
                 Y0 = M[3] * x + M[4] * y + M[5],
                 W0 = M[6] * x + M[7] * y + M[8];
    int x1 = 0;
#if CV_SIMD128_64F
    const cv::v_float64x2 m0 = cv::v_setall_f64(M[0]),
                          m3 = cv::v_setall_f64(M[3]),
                          m6 = cv::v_setall_f64(M[6]),
                          x0v = cv::v_setall_f64(X0), y0v = cv::v_setall_f64(Y0),
                          w0v = cv::v_setall_f64(W0),
                          tab = cv::v_setall_f64((double)TAB),
                          zero = cv::v_setzero_f64(),
                          hi = cv::v_setall_f64((double)INT_MAX),
                          lo = cv::v_setall_f64((double)INT_MIN),
                          two = cv::v_setall_f64(2.0), four = two + two;
    cv::v_float64x2 xa(0.0, 1.0), xb(2.0, 3.0);
    for (; x1 + 4 <= n; x1 += 4, xa += four, xb += four) {
        cv::v_float64x2 wa = w0v + m6 * xa, wb = w0v + m6 * xb;
        wa = cv::v_select(wa == zero, zero, tab / wa);
        wb = cv::v_select(wb == zero, zero, tab / wb);
        const cv::v_float64x2
            fxa = cv::v_max(lo, cv::v_min(hi, (x0v + m0 * xa) * wa)),
            fxb = cv::v_max(lo, cv::v_min(hi, (x0v + m0 * xb) * wb)),
            fya = cv::v_max(lo, cv::v_min(hi, (y0v + m3 * xa) * wa)),
            fyb = cv::v_max(lo, cv::v_min(hi, (y0v + m3 * xb) * wb));
        cv::v_store(xs + x1, cv::v_round(fxa, fxb));
        cv::v_store(ys + x1, cv::v_round(fya, fyb));
    }
#endif
    for (; x1 < n; x1++) {
        double W = W0 + M[6] * x1;
        W = W != 0 ? (double)TAB / W : 0;
        xs[x1] = cvRound(std::max((double)INT_MIN,
                                  std::min((double)INT_MAX, (X0 + M[0] * x1) * W)));
        ys[x1] = cvRound(std::max((double)INT_MIN,
                                  std::min((double)INT_MAX, (Y0 + M[3] * x1) * W)));
    }
}

/* For source_points()' points xs, ys (n of them): where the vector path
 * reads each point's top-left pixel, as its byte offset in the image (of
 * row step step), or -1 for a point it does not take: one whose whole
 * pixel is not under fast_w across and fast_h down. And each point's
 * fraction, its entry of the weights. Four at a time where the build has
 * 128-bit vectors, as the per-point sums are most of the vector path's
 * work otherwise. The offsets are ints: fast_h keeps them below
 * fast_h * step. */
void point_plan(const int *xs, const int *ys, int n, int fast_w, int fast_h,
                int step, int *off, int *frac)
{
    int i = 0;
#if CV_SIMD128
    const cv::v_int32x4 low = cv::v_setall_s32(TAB - 1),
                        vstep = cv::v_setall_s32(step),
                        none = cv::v_setall_s32(-1);
    const cv::v_uint32x4 fw = cv::v_setall_u32((unsigned)fast_w),
                         fh = cv::v_setall_u32((unsigned)fast_h);
    for (; i + 4 <= n; i += 4) {
        const cv::v_int32x4 X = cv::v_load(xs + i), Y = cv::v_load(ys + i);
        const cv::v_int32x4 sx = X >> TAB_BITS, sy = Y >> TAB_BITS;
        cv::v_store(frac + i, cv::v_shl<TAB_BITS>(Y & low) | (X & low));
        const cv::v_int32x4 fast =
            cv::v_reinterpret_as_s32((cv::v_reinterpret_as_u32(sx) < fw) &
                                     (cv::v_reinterpret_as_u32(sy) < fh));
        cv::v_store(off + i,
                    cv::v_select(fast, sy * vstep + sx + sx + sx, none));
    }
#endif
    for (; i < n; i++) {
        const int sx = xs[i] >> TAB_BITS, sy = ys[i] >> TAB_BITS;
        frac[i] = (ys[i] & (TAB - 1)) * TAB + (xs[i] & (TAB - 1));
        off[i] =
            (unsigned)sx < (unsigned)fast_w && (unsigned)sy < (unsigned)fast_h
                ? sy * step + sx * 3
                : -1;
    }
}

/* The two pixels at p (a row's, left and right) as their channels in
 * pairs, b0 b1 g0 g1 r0 r1 (16-bit lanes 0 to 5; the lanes after them
 * are not used). Reads 8 bytes: p must have two more pixels to its right
 * in the row. */
inline cv::v_int16x8 pixel_pairs(const uchar *p)
{
    const cv::v_uint8x16 row = cv::v_load_low(p);
    cv::v_uint8x16 pairs, unused;
    cv::v_zip(row, cv::v_rotate_right<3>(row), pairs, unused);
    cv::v_uint16x8 wide, unused16;
    cv::v_expand(pairs, wide, unused16);
    return cv::v_reinterpret_as_s16(wide);
}

} // namespace

void warp_linear(const cv::Mat &img, const cv::Mat &M0, cv::Size size,
                 cv::Mat &out)
{
    CV_Assert(img.type() == CV_8UC3 && !img.empty());
    CV_Assert((M0.type() == CV_64F || M0.type() == CV_32F) && M0.rows == 3 &&
              M0.cols == 3);
    CV_Assert(size.width > 0 && size.height > 0);
    double M[9];
    cv::Mat matM(3, 3, CV_64F, M);
    M0.convertTo(matM, matM.type());
    cv::invert(matM, matM);
    out.create(size, CV_8UC3);
    CV_Assert(out.data != img.data);
    const Weights &wt = weights();
    const int width = size.width, height = size.height;
    /* OpenCV's blocks: 16 rows (or all, if fewer), and as many columns as
     * make 1024 pixels */
    const int bw0 = std::min(BLOCK / std::min(16, height), width);
    const int sw = img.cols, sh = img.rows;
    const size_t step = img.step[0];
    const uchar *src = img.data;
    /* the vector path reads 8 bytes from the left pixel, into the pixel
     * one past the right one: the point must have two pixels to its
     * right in the row. Its test takes the whole pixel before OpenCV
     * saturates it to a short: below 32767 that changes nothing, and a
     * point it would change fails the test either way. Its rows stop
     * where point_plan()'s int offsets would overflow */
    const int fast_w = std::min(sw >= 3 ? sw - 2 : 0, SHRT_MAX),
              fast_h = std::min({sh - 1, SHRT_MAX, (int)(INT_MAX / step)});
    int xs[BLOCK], ys[BLOCK], off[BLOCK], frac[BLOCK];
    for (int y = 0; y < height; y++) {
        uchar *d = out.ptr<uchar>(y);
        for (int x = 0; x < width; x += bw0) {
            const int bw = std::min(bw0, width - x);
            source_points(M, x, y, bw, xs, ys);
            point_plan(xs, ys, bw, fast_w, fast_h, (int)step, off, frac);
            for (int x1 = 0; x1 < bw; x1++, d += 3) {
                const int f = frac[x1];
#if CV_SIMD128
                if (off[x1] >= 0) {
                    /* each row's two pixels, channel by channel in pairs,
                     * times the row's two weights */
                    const uchar *s0 = src + off[x1];
                    const cv::v_int16x8
                        w01 = cv::v_reinterpret_as_s16(
                            cv::v_setall_u32(wt.pair[f][0])),
                        w23 = cv::v_reinterpret_as_s16(
                            cv::v_setall_u32(wt.pair[f][1]));
                    cv::v_int32x4 sum =
                        cv::v_dotprod(pixel_pairs(s0), w01) +
                        cv::v_dotprod(pixel_pairs(s0 + step), w23);
                    sum = (sum + cv::v_setall_s32(1 << (COEF_BITS - 1))) >>
                          COEF_BITS;
                    /* the weights are not negative and sum to 2^15, so
                     * each channel is a byte already: packing saturates
                     * nothing */
                    const cv::v_int16x8 sum16 = cv::v_pack(sum, sum);
                    const uint32_t bgr = cv::v_reinterpret_as_u32(
                                             cv::v_pack_u(sum16, sum16))
                                             .get0();
                    std::memcpy(d, &bgr, 2);
                    d[2] = (uchar)(bgr >> 16);
                    continue;
                }
#endif
                const int16_t *w = wt.w[f];
                const int sx = cv::saturate_cast<short>(xs[x1] >> TAB_BITS),
                          sy = cv::saturate_cast<short>(ys[x1] >> TAB_BITS);
                /* BORDER_REPLICATE: each pixel clipped into the image
                 * (inside it, clipping changes nothing) */
                const int cx0 = std::min(std::max(sx, 0), sw - 1),
                          cx1 = std::min(std::max(sx + 1, 0), sw - 1),
                          cy0 = std::min(std::max(sy, 0), sh - 1),
                          cy1 = std::min(std::max(sy + 1, 0), sh - 1);
                const size_t o0 = (size_t)cy0 * step + (size_t)cx0 * 3,
                             o1 = (size_t)cy0 * step + (size_t)cx1 * 3,
                             o2 = (size_t)cy1 * step + (size_t)cx0 * 3,
                             o3 = (size_t)cy1 * step + (size_t)cx1 * 3;
                for (int k = 0; k < 3; k++)
                    d[k] = fixed_to_byte(src[o0 + k] * w[0] +
                                         src[o1 + k] * w[1] +
                                         src[o2 + k] * w[2] +
                                         src[o3 + k] * w[3]);
            }
        }
    }
}

void fit_line_l2(const cv::Point2f *pts, int n, cv::Point2f &dir,
                 cv::Point2f &at)
{
    CV_Assert(n > 0);
    double x = 0, y = 0, x2 = 0, y2 = 0, xy = 0;
    for (int i = 0; i < n; i++) {
        const float px = pts[i].x, py = pts[i].y;
        x += px;
        y += py;
        x2 += px * px; /* float products, as OpenCV's */
        y2 += py * py;
        xy += px * py;
    }
    const double w = (double)(float)n;
    x /= w;
    y /= w;
    x2 /= w;
    y2 /= w;
    xy /= w;
    const double dx2 = x2 - x * x, dy2 = y2 - y * y, dxy = xy - x * y;
    const float t = (float)std::atan2(2 * dxy, dx2 - dy2) / 2;
    dir = cv::Point2f(std::cos(t), std::sin(t));
    at = cv::Point2f((float)x, (float)y);
}

} // namespace fwv
