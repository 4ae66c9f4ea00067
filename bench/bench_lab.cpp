/*
 * bench_lab.cpp - milliseconds of cv::cvtColor(COLOR_BGR2Lab) and of
 * fwv::bgr_to_lab (vision/lab.h) on what the card detector converts, one
 * thread: a 640x360 frame, and a frame's 30 corner patches of 51x109
 * (read.cpp's PW x PH).
 *
 * usage: bench_lab [ROUNDS]
 *
 * The images are random (uniform BGR, a fixed seed), so every table
 * entry is in play. Each round times 20 frames and 20 frames' patches
 * with each function, the two taking turns; the best of ROUNDS rounds
 * (default 30) is reported, as the machine may be shared. Both outputs
 * are compared first and the worst difference printed.
 */
#include "bench_cv.h"
#include "lab.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

void cv_lab(const cv::Mat &in, cv::Mat &out)
{
    cv::cvtColor(in, out, cv::COLOR_BGR2Lab);
}

/* milliseconds per pass over ins, the mean of reps passes; outs are
 * reused, as the detector reuses its scratch */
double pass_ms(void (*fn)(const cv::Mat &, cv::Mat &),
               const std::vector<cv::Mat> &ins, std::vector<cv::Mat> &outs,
               int reps)
{
    double t0 = bench_now_ms();
    for (int k = 0; k < reps; k++)
        for (size_t i = 0; i < ins.size(); i++)
            fn(ins[i], outs[i]);
    return (bench_now_ms() - t0) / reps;
}

int worst_diff(const std::vector<cv::Mat> &ins)
{
    int worst = 0;
    for (const cv::Mat &in : ins) {
        cv::Mat a, b, d;
        cv::cvtColor(in, a, cv::COLOR_BGR2Lab);
        fwv::bgr_to_lab(in, b);
        cv::absdiff(a, b, d);
        double w = 0;
        cv::minMaxLoc(d.reshape(1), nullptr, &w);
        worst = std::max(worst, (int)w);
    }
    return worst;
}

} // namespace

int main(int argc, char **argv)
{
    const int rounds = bench_one_thread_rounds(argc, argv);

    cv::RNG rng(2024);
    std::vector<cv::Mat> frame(1), patches(30);
    frame[0].create(360, 640, CV_8UC3);
    rng.fill(frame[0], cv::RNG::UNIFORM, 0, 256);
    for (cv::Mat &p : patches) {
        p.create(109, 51, CV_8UC3);
        rng.fill(p, cv::RNG::UNIFORM, 0, 256);
    }
    const int worst = std::max(worst_diff(frame), worst_diff(patches));

    std::vector<cv::Mat> out_f(1), out_p(patches.size());
    double cv_f = 1e30, fw_f = 1e30, cv_p = 1e30, fw_p = 1e30;
    for (int r = 0; r < rounds; r++) {
        cv_f = std::min(cv_f, pass_ms(cv_lab, frame, out_f, 20));
        fw_f = std::min(fw_f, pass_ms(fwv::bgr_to_lab, frame, out_f, 20));
        cv_p = std::min(cv_p, pass_ms(cv_lab, patches, out_p, 20));
        fw_p = std::min(fw_p, pass_ms(fwv::bgr_to_lab, patches, out_p, 20));
    }
    printf("worst difference from cvtColor: %d\n", worst);
    printf("640x360 frame:       cvtColor %.3f ms, bgr_to_lab %.3f ms, "
           "%.2fx\n",
           cv_f, fw_f, cv_f / fw_f);
    printf("30 patches of 51x109: cvtColor %.3f ms, bgr_to_lab %.3f ms, "
           "%.2fx\n",
           cv_p, fw_p, cv_p / fw_p);
    return 0;
}
