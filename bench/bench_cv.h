/*
 * bench_cv.h - what the OpenCV micro-benchmarks (bench_lab, bench_exact)
 * share: the clock, and the round count with OpenCV held to one thread.
 */
#ifndef FW_BENCH_CV_H
#define FW_BENCH_CV_H

#include <opencv2/core.hpp>

#include <chrono>
#include <cstdlib>

/* Milliseconds on the monotonic clock. */
inline double bench_now_ms()
{
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/* ROUNDS from argv[1] (default 30, at least 1); OpenCV held to one
 * thread (its pool reads the variable before its first use). */
inline int bench_one_thread_rounds(int argc, char **argv)
{
    int rounds = argc > 1 ? (int)std::strtol(argv[1], nullptr, 10) : 30;
    if (rounds < 1)
        rounds = 1;
    setenv("OPENCV_FOR_THREADS_NUM", "1", 0);
    cv::setNumThreads(1);
    return rounds;
}

#endif
