/*
 * bench_exact.cpp - vision/exact.h against the OpenCV calls it stands
 * for, one thread, on what the card detector gives them:
 *  - cv::warpPerspective(INTER_LINEAR, BORDER_REPLICATE) and warp_linear:
 *    a frame's 30 corner patches of 51x109 (read.cpp's PW x PH) cut from
 *    a 1280x720 frame, each card about 100 px wide and turned some way;
 *  - cv::fitLine(DIST_L2) and fit_line_l2: 2,000 sides of 6 to 24 points
 *    (snap_side's), about a frame's worth of the fits not repeated.
 *
 * usage: bench_exact [ROUNDS]
 *
 * The frame and the points are random (a fixed seed). Each round times 20
 * frames' worth with each function, the two taking turns; the best of
 * ROUNDS rounds (default 30) is reported, as the machine may be shared.
 * The outputs are compared first and those that differ counted (exact.h
 * promises none).
 */
#include "bench_cv.h"
#include "exact.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

void cv_warp(const cv::Mat &img, const cv::Mat &M, cv::Size sz, cv::Mat &out)
{
    cv::warpPerspective(img, out, M, sz, cv::INTER_LINEAR,
                        cv::BORDER_REPLICATE);
}

/* milliseconds per pass over the matrices, the mean of reps passes */
double pass_ms(void (*fn)(const cv::Mat &, const cv::Mat &, cv::Size,
                          cv::Mat &),
               const cv::Mat &img, const std::vector<cv::Mat> &ms,
               std::vector<cv::Mat> &outs, int reps)
{
    const double t0 = bench_now_ms();
    for (int k = 0; k < reps; k++)
        for (size_t i = 0; i < ms.size(); i++)
            fn(img, ms[i], cv::Size(51, 109), outs[i]);
    return (bench_now_ms() - t0) / reps;
}

} // namespace

int main(int argc, char **argv)
{
    const int rounds = bench_one_thread_rounds(argc, argv);

    cv::RNG rng(2024);
    cv::Mat noise(720, 1280, CV_8UC3), frame;
    rng.fill(noise, cv::RNG::UNIFORM, 0, 256);
    cv::GaussianBlur(noise, frame, cv::Size(0, 0), 1.5);
    /* 15 cards, each with its two index corners: the quad's corner at the
     * patch's (5, 5), as read.cpp places it */
    std::vector<cv::Mat> ms;
    for (int c = 0; c < 15; c++) {
        const cv::Point2f ctr(rng.uniform(100.f, 1180.f),
                              rng.uniform(100.f, 620.f));
        const double a = rng.uniform(0.0, 2 * CV_PI);
        const float w = 100, h = 140, ca = (float)std::cos(a),
                    sa = (float)std::sin(a);
        cv::Point2f q[4];
        const cv::Point2f base[4] = {{-w / 2, -h / 2}, {w / 2, -h / 2},
                                     {w / 2, h / 2}, {-w / 2, h / 2}};
        for (int k = 0; k < 4; k++)
            q[k] = ctr + cv::Point2f(base[k].x * ca - base[k].y * sa,
                                     base[k].x * sa + base[k].y * ca);
        for (int corner = 0; corner < 4; corner += 2) {
            cv::Point2f src[4];
            for (int k = 0; k < 4; k++)
                src[k] = q[(k + corner) % 4];
            const cv::Point2f dst[4] = {
                {5, 5}, {155, 5}, {155, 215}, {5, 215}};
            ms.push_back(cv::getPerspectiveTransform(src, dst));
        }
    }
    int differ = 0;
    for (const cv::Mat &M : ms) {
        cv::Mat a, b;
        cv_warp(frame, M, cv::Size(51, 109), a);
        fwv::warp_linear(frame, M, cv::Size(51, 109), b);
        differ += cv::norm(a, b, cv::NORM_INF) != 0;
    }
    std::vector<cv::Mat> outs(ms.size());
    double t_cv = 1e30, t_fw = 1e30;
    for (int r = 0; r < rounds; r++) {
        t_cv = std::min(t_cv, pass_ms(cv_warp, frame, ms, outs, 20));
        t_fw = std::min(t_fw, pass_ms(fwv::warp_linear, frame, ms, outs, 20));
    }
    /* the sides: points along a line with a pixel of noise */
    std::vector<std::vector<cv::Point2f>> sides(2000);
    for (std::vector<cv::Point2f> &pts : sides) {
        const int n = 6 + rng.uniform(0, 19);
        const double a = rng.uniform(0.0, CV_PI);
        const cv::Point2f c(rng.uniform(0.f, 640.f), rng.uniform(0.f, 360.f)),
            d((float)std::cos(a), (float)std::sin(a));
        for (int k = 0; k < n; k++)
            pts.push_back(c + d * (float)(4 * k) +
                          cv::Point2f(rng.uniform(-1.f, 1.f),
                                      rng.uniform(-1.f, 1.f)));
    }
    int lines_differ = 0;
    for (const std::vector<cv::Point2f> &pts : sides) {
        cv::Vec4f want;
        cv::fitLine(pts, want, cv::DIST_L2, 0, 0.01, 0.01);
        cv::Point2f dir, at;
        fwv::fit_line_l2(pts.data(), (int)pts.size(), dir, at);
        lines_differ += !(dir.x == want[0] && dir.y == want[1] &&
                          at.x == want[2] && at.y == want[3]);
    }
    double f_cv = 1e30, f_fw = 1e30;
    /* the results go somewhere, so the calls are not optimised away */
    volatile float sink = 0;
    for (int r = 0; r < rounds; r++) {
        double t0 = bench_now_ms();
        for (int k = 0; k < 20; k++)
            for (const std::vector<cv::Point2f> &pts : sides) {
                cv::Vec4f line;
                cv::fitLine(pts, line, cv::DIST_L2, 0, 0.01, 0.01);
                sink = sink + line[0];
            }
        f_cv = std::min(f_cv, (bench_now_ms() - t0) / 20);
        t0 = bench_now_ms();
        for (int k = 0; k < 20; k++)
            for (const std::vector<cv::Point2f> &pts : sides) {
                cv::Point2f dir, at;
                fwv::fit_line_l2(pts.data(), (int)pts.size(), dir, at);
                sink = sink + dir.x;
            }
        f_fw = std::min(f_fw, (bench_now_ms() - t0) / 20);
    }
    printf("patches that differ from warpPerspective: %d of %zu\n", differ,
           ms.size());
    printf("lines that differ from fitLine: %d of %zu\n", lines_differ,
           sides.size());
    printf("30 patches of 51x109: warpPerspective %.3f ms, warp_linear "
           "%.3f ms, %.2fx\n",
           t_cv, t_fw, t_cv / t_fw);
    printf("2000 side fits: fitLine %.3f ms, fit_line_l2 %.3f ms, %.2fx\n",
           f_cv, f_fw, f_cv / f_fw);
    return 0;
}
