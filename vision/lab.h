/*
 * lab.h - private to vision/: 8-bit BGR to CIE L*a*b*, the numbers
 * OpenCV's cvtColor(COLOR_BGR2Lab) gives, in about a third of its time
 * (C++).
 *
 * The card detector converts a whole frame and then some thirty corner
 * patches a frame to Lab, and OpenCV's 8-bit conversion takes about 5 ns
 * a pixel on one thread for it. This one does OpenCV's own fixed-point
 * arithmetic, from tables built the way OpenCV builds its own, with
 * every step that can be folded into a table folded in: a pixel is nine
 * table reads, a few adds and shifts and one multiply. Table reads are
 * the work, and neither SSE2 nor NEON can read a table with a vector's
 * lanes, so it is plain scalar C++ that does fewer of them (timed on
 * x86, bench/bench_lab; nothing in it is x86's). Every one of the 2^24
 * colours comes out as OpenCV's (tests/test_lab.cpp holds it to that
 * within 1 and counts the exact ones).
 */
#ifndef FW_LAB_H
#define FW_LAB_H

#include <opencv2/core.hpp>

namespace fwv {

/*
 * lab (CV_8UC3, bgr's size: L * 255 / 100, a + 128, b + 128, D65 white)
 * from bgr (CV_8UC3, sRGB), as cv::cvtColor(bgr, lab, cv::COLOR_BGR2Lab).
 *
 * \param bgr  any size, continuous or a region of a larger image; may be
 *             lab itself (converted in place).
 * \param lab  made with lab.create(), so a matrix of the right size and
 *             type is written where it lies, a region included.
 *
 * Throws cv::Exception when bgr is empty or not CV_8UC3. Allocates
 * nothing but what lab.create() does (bgr overlapping lab other than
 * exactly in place is first copied). One thread; safe to call from
 * several at once on different outputs (the tables are built once, on
 * the first call).
 */
void bgr_to_lab(const cv::Mat &bgr, cv::Mat &lab);

} // namespace fwv

#endif
