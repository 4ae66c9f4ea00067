/*
 * exact.h - private to vision/: OpenCV's own numbers from fewer
 * instructions, for the calls the card detector makes thousands of times
 * a frame (C++).
 *
 * Each function does the arithmetic of the OpenCV call it stands for, in
 * the same order and precision, without the call's overhead (argument
 * checks, matrix headers, the thread pool), so what the detector decides
 * does not change by a bit: tests/test_exact.cpp holds each to the OpenCV
 * call's output, byte for byte, and bench/bench_exact times both.
 *
 * - warp_linear: cv::warpPerspective, INTER_LINEAR, BORDER_REPLICATE, for
 *   the small patches the reader warps (a corner index is 51 x 109
 *   pixels, some thirty a frame). warpPerspective cuts a patch into
 *   blocks, and each block is a remap() call; this is one pass, each
 *   output pixel's source point in doubles rounded to 1/32 of a pixel and
 *   OpenCV's 15-bit bilinear weights, two points and one pixel's three
 *   channels at a time (OpenCV's universal intrinsics: SSE2 or NEON).
 *   30 patches in about 0.8 of warpPerspective's time.
 * - fit_line_l2: cv::fitLine with DIST_L2 (a closed form: the points'
 *   means and second moments), for the few dozen points of a card's side,
 *   two thousand times a frame.
 */
#ifndef FW_EXACT_H
#define FW_EXACT_H

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

/*
 * The least-squares line through pts[0..n) as cv::fitLine(points, line,
 * cv::DIST_L2, 0, reps, aeps) gives it (reps and aeps play no part for
 * DIST_L2): its unit direction dir (line[0], line[1]) and its point at
 * (line[2], line[3]), the points' mean. n must be 1 or more.
 */
void fit_line_l2(const cv::Point2f *pts, int n, cv::Point2f &dir,
                 cv::Point2f &at);

} // namespace fwv

#endif
