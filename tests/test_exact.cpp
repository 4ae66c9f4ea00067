/*
 * test_exact.cpp - vision/exact.h against the OpenCV calls it stands for.
 *
 * exact.h promises OpenCV's numbers exactly, as the detector's thresholds
 * and the reader's networks were set on them.
 *
 * warp_linear against cv::warpPerspective(INTER_LINEAR, BORDER_REPLICATE):
 * thousands of quads over random images,
 * at the sizes the reader warps to (corner patches, at one to four times
 * their size, and the small whole-card views), turned any way, shrunk and
 * enlarged, partly or wholly off the image (the border pixels), from a
 * region of a larger image and with a single-precision matrix; then the
 * inputs it refuses.
 *
 * fit_line_l2 against cv::fitLine(DIST_L2): points along lines at every
 * angle with noise, as a card's side gives them, few and many, far from
 * the origin and near it, all on one point.
 */
#include "harness.h"

#include "exact.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

namespace {

/* a random BGR image with smooth parts and noise (both kinds of pixels
 * the bilinear weights meet), the same every run */
cv::Mat random_bgr(int rows, int cols, uint64_t seed)
{
    cv::Mat noise(rows, cols, CV_8UC3), m;
    cv::RNG rng(seed);
    rng.fill(noise, cv::RNG::UNIFORM, 0, 256);
    cv::GaussianBlur(noise, m, cv::Size(0, 0), 2.0);
    cv::Mat mask(rows, cols, CV_8U);
    rng.fill(mask, cv::RNG::UNIFORM, 0, 4);
    noise.copyTo(m, mask == 0);
    return m;
}

/* the number of bytes of a and b that differ (both CV_8UC3, same size) */
long differing(const cv::Mat &a, const cv::Mat &b)
{
    if (a.size() != b.size() || a.type() != b.type())
        return -1;
    cv::Mat d;
    cv::compare(a.reshape(1), b.reshape(1), d, cv::CMP_NE);
    return (long)cv::countNonZero(d);
}

/* A random quad: a card of about side s (tall), centred near c, turned
 * by up to a half turn, with each corner moved by up to j pixels. */
void random_quad(cv::RNG &rng, cv::Point2f c, float s, float j,
                 cv::Point2f q[4])
{
    const float w = s * 0.7f, h = s;
    const double a = rng.uniform(-CV_PI, CV_PI);
    const float ca = (float)std::cos(a), sa = (float)std::sin(a);
    const cv::Point2f base[4] = {{-w / 2, -h / 2}, {w / 2, -h / 2},
                                 {w / 2, h / 2}, {-w / 2, h / 2}};
    for (int k = 0; k < 4; k++) {
        cv::Point2f p(base[k].x * ca - base[k].y * sa,
                      base[k].x * sa + base[k].y * ca);
        q[k] = c + p +
               cv::Point2f(rng.uniform(-j, j), rng.uniform(-j, j));
    }
}

} // namespace

TEST(quads_match_opencv)
{
    const cv::Mat img = random_bgr(360, 640, 7);
    /* the reader's sizes: a corner patch at 1 to 4 times, the paper
     * and picture views, and an odd one */
    const cv::Size sizes[] = {{51, 109}, {102, 218}, {153, 327},
                              {204, 436}, {24, 34},   {40, 56},
                              {7, 3}};
    cv::RNG rng(11);
    long quads = 0, bad = 0;
    for (const cv::Size &sz : sizes) {
        for (int i = 0; i < 300; i++) {
            /* the centre anywhere, some way off the image too */
            cv::Point2f c(rng.uniform(-60.f, 700.f),
                          rng.uniform(-60.f, 420.f));
            cv::Point2f q[4];
            random_quad(rng, c, rng.uniform(8.f, 400.f), 15.f, q);
            const cv::Point2f dst[4] = {
                {0, 0},
                {(float)sz.width, 0},
                {(float)sz.width, (float)sz.height},
                {0, (float)sz.height}};
            cv::Mat M = cv::getPerspectiveTransform(q, dst), ours, theirs;
            fwv::warp_linear(img, M, sz, ours);
            cv::warpPerspective(img, theirs, M, sz, cv::INTER_LINEAR,
                                cv::BORDER_REPLICATE);
            bad += differing(ours, theirs) != 0;
            quads++;
        }
    }
    ASSERT_INT_EQ(quads, 2100);
    ASSERT_INT_EQ(bad, 0);
}

TEST(region_float_matrix_and_reuse)
{
    const cv::Mat big = random_bgr(300, 400, 3);
    const cv::Mat roi = big(cv::Rect(37, 21, 250, 190));
    cv::RNG rng(5);
    cv::Mat ours(9, 9, CV_8UC1), theirs; /* a wrong-sized output, reused */
    long bad = 0;
    for (int i = 0; i < 200; i++) {
        cv::Point2f q[4];
        random_quad(rng, cv::Point2f(rng.uniform(0.f, 250.f),
                                     rng.uniform(0.f, 190.f)),
                    rng.uniform(20.f, 200.f), 10.f, q);
        const cv::Point2f dst[4] = {{-5, -5}, {46, -5}, {46, 104}, {-5, 104}};
        cv::Mat M;
        cv::getPerspectiveTransform(q, dst).convertTo(M, CV_32F);
        fwv::warp_linear(roi, M, cv::Size(51, 109), ours);
        cv::warpPerspective(roi, theirs, M, cv::Size(51, 109),
                            cv::INTER_LINEAR, cv::BORDER_REPLICATE);
        bad += differing(ours, theirs) != 0;
    }
    ASSERT_INT_EQ(bad, 0);
    /* INTER_AREA is warpPerspective's INTER_LINEAR */
    cv::Point2f q[4] = {{10, 12}, {60, 15}, {58, 90}, {8, 85}};
    const cv::Point2f dst[4] = {{0, 0}, {24, 0}, {24, 34}, {0, 34}};
    cv::Mat M = cv::getPerspectiveTransform(q, dst);
    fwv::warp_linear(roi, M, cv::Size(24, 34), ours);
    cv::warpPerspective(roi, theirs, M, cv::Size(24, 34), cv::INTER_AREA,
                        cv::BORDER_REPLICATE);
    ASSERT_INT_EQ(differing(ours, theirs), 0);
}

TEST(one_pixel_image_and_edges)
{
    /* a 1x1 and a 2x1 image: every point is a border point */
    cv::Mat one(1, 1, CV_8UC3, cv::Scalar(10, 200, 90)), two(1, 2, CV_8UC3);
    two.at<cv::Vec3b>(0, 0) = cv::Vec3b(0, 255, 30);
    two.at<cv::Vec3b>(0, 1) = cv::Vec3b(255, 0, 220);
    const cv::Point2f q[4] = {{-3, -2}, {4, -1}, {5, 6}, {-2, 5}};
    const cv::Point2f dst[4] = {{0, 0}, {20, 0}, {20, 30}, {0, 30}};
    cv::Mat M = cv::getPerspectiveTransform(q, dst), ours, theirs;
    for (const cv::Mat *m : {&one, &two}) {
        fwv::warp_linear(*m, M, cv::Size(20, 30), ours);
        cv::warpPerspective(*m, theirs, M, cv::Size(20, 30),
                            cv::INTER_LINEAR, cv::BORDER_REPLICATE);
        ASSERT_INT_EQ(differing(ours, theirs), 0);
    }
}

TEST(refuses_bad_input)
{
    cv::Mat out;
    const cv::Mat M = cv::Mat::eye(3, 3, CV_64F);
    int refused = 0;
    const cv::Mat bad[] = {cv::Mat(), cv::Mat(4, 4, CV_8UC1),
                           cv::Mat(4, 4, CV_8UC4), cv::Mat(4, 4, CV_32FC3)};
    for (const cv::Mat &m : bad) {
        try {
            fwv::warp_linear(m, M, cv::Size(5, 5), out);
        } catch (const cv::Exception &) {
            refused++;
        }
    }
    const cv::Mat ok(4, 4, CV_8UC3, cv::Scalar::all(0));
    try {
        fwv::warp_linear(ok, cv::Mat::eye(2, 3, CV_64F), cv::Size(5, 5), out);
    } catch (const cv::Exception &) {
        refused++;
    }
    try {
        fwv::warp_linear(ok, M, cv::Size(0, 5), out);
    } catch (const cv::Exception &) {
        refused++;
    }
    ASSERT_INT_EQ(refused, 6);
}

TEST(line_fits_match_opencv)
{
    cv::RNG rng(17);
    long fits = 0, bad = 0;
    for (int i = 0; i < 5000; i++) {
        const int n = 1 + (i % 40);
        const double a = rng.uniform(-CV_PI, CV_PI);
        const cv::Point2f c(rng.uniform(-50.f, 2000.f),
                            rng.uniform(-50.f, 1200.f)),
            d((float)std::cos(a), (float)std::sin(a));
        const float noise = i % 7 == 0 ? 0.f : rng.uniform(0.f, 3.f);
        std::vector<cv::Point2f> pts;
        for (int k = 0; k < n; k++)
            pts.push_back(c + d * rng.uniform(-200.f, 200.f) +
                          cv::Point2f(rng.uniform(-noise, noise),
                                      rng.uniform(-noise, noise)));
        /* whole pixels too, as an outline's points are */
        if (i % 3 == 0)
            for (cv::Point2f &p : pts)
                p = cv::Point2f(std::round(p.x), std::round(p.y));
        cv::Vec4f want;
        cv::fitLine(pts, want, cv::DIST_L2, 0, 0.01, 0.01);
        cv::Point2f dir, at;
        fwv::fit_line_l2(pts.data(), n, dir, at);
        bad += !(dir.x == want[0] && dir.y == want[1] && at.x == want[2] &&
                 at.y == want[3]);
        fits++;
    }
    ASSERT_INT_EQ(fits, 5000);
    ASSERT_INT_EQ(bad, 0);
    /* all on one point: the direction of atan2(0, 0) */
    const cv::Point2f same[3] = {{4, 5}, {4, 5}, {4, 5}};
    cv::Vec4f want;
    cv::fitLine(std::vector<cv::Point2f>(same, same + 3), want, cv::DIST_L2,
                0, 0.01, 0.01);
    cv::Point2f dir, at;
    fwv::fit_line_l2(same, 3, dir, at);
    ASSERT_TRUE(dir.x == want[0] && dir.y == want[1] && at.x == want[2] &&
                at.y == want[3]);
}

static const fw_test_case cases[] = {
    TEST_CASE(quads_match_opencv),
    TEST_CASE(region_float_matrix_and_reuse),
    TEST_CASE(one_pixel_image_and_edges),
    TEST_CASE(refuses_bad_input),
    TEST_CASE(line_fits_match_opencv),
};
TEST_MAIN(cases)
