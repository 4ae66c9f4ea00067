/*
 * bench_warp.cpp - milliseconds of cv::warpPerspective(INTER_LINEAR,
 * BORDER_REPLICATE) and of fwv::warp_linear (vision/warp.h) on what the
 * card reader warps, one thread: a frame's 30 corner patches of 51x109
 * (read.cpp's PW x PH) cut from a 1280x720 frame, each card about 100 px
 * wide and turned some way.
 *
 * usage: bench_warp [ROUNDS]
 *
 * The frame is random (smoothed noise, a fixed seed). Each round times 20
 * frames' patches with each function, the two taking turns; the best of
 * ROUNDS rounds (default 30) is reported, as the machine may be shared.
 * The outputs are compared first and the patches that differ counted
 * (warp.h promises none).
 */
#include "exact.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

double now_ms()
{
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

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
    const double t0 = now_ms();
    for (int k = 0; k < reps; k++)
        for (size_t i = 0; i < ms.size(); i++)
            fn(img, ms[i], cv::Size(51, 109), outs[i]);
    return (now_ms() - t0) / reps;
}

} // namespace

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? (int)strtol(argv[1], nullptr, 10) : 30;
    if (rounds < 1)
        rounds = 1;
    /* one thread: OpenCV's own pool reads this before its first use */
    setenv("OPENCV_FOR_THREADS_NUM", "1", 0);
    cv::setNumThreads(1);

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
    printf("patches that differ from warpPerspective: %d of %zu\n", differ,
           ms.size());
    printf("30 patches of 51x109: warpPerspective %.3f ms, warp_linear "
           "%.3f ms, %.2fx\n",
           t_cv, t_fw, t_cv / t_fw);
    return 0;
}
