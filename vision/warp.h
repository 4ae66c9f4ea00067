/*
 * warp.h - private to vision/: a card's corner warped to a small upright
 * patch, the bytes OpenCV's warpPerspective gives, in less time (C++).
 *
 * The card reader warps some thirty small patches a frame (a corner
 * index is 51 x 109 pixels). cv::warpPerspective cuts such a patch into
 * blocks, and each block is a remap() call through matrix headers,
 * argument checks and the thread pool. This one does the same arithmetic
 * in one pass: each output pixel's source point in doubles, rounded to
 * 1/32 of a pixel, and OpenCV's 15-bit fixed-point bilinear weights, so
 * the patches (and what is read from them) do not change by a byte
 * (tests/test_warp.cpp holds it to that against OpenCV itself). The
 * points are found two at a time and each pixel's three channels
 * weighed in one vector (OpenCV's universal intrinsics: SSE2 or NEON).
 * bench/bench_warp: 30 patches in about 0.8 of warpPerspective's time.
 */
#ifndef FW_WARP_H
#define FW_WARP_H

#include <opencv2/core.hpp>

namespace fwv {

/*
 * out (size, CV_8UC3) as cv::warpPerspective(img, out, M, size,
 * cv::INTER_LINEAR, cv::BORDER_REPLICATE) makes it (INTER_AREA too, which
 * warpPerspective treats as INTER_LINEAR).
 *
 * \param img  CV_8UC3, not empty; may be a region of a larger image.
 * \param M    3x3 (CV_64F or CV_32F), mapping img's points to out's
 *             (as cv::getPerspectiveTransform gives it); it is inverted
 *             here as warpPerspective inverts it.
 * \param out  made with out.create(); must not share img's pixels.
 *
 * Throws cv::Exception on another type or an empty image. Allocates
 * nothing but what out.create() does. Safe to call from several threads
 * at once on different outputs.
 */
void warp_linear(const cv::Mat &img, const cv::Mat &M, cv::Size size,
                 cv::Mat &out);

} // namespace fwv

#endif
