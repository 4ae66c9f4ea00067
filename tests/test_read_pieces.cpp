/*
 * test_read_pieces.cpp - the corner reader's own connected-pieces
 * labelling (vision/read.h: label_pieces) against OpenCV's.
 *
 * The reader labels its small index patches itself, for speed, and its
 * glyph logic breaks ties by piece number, so the numbering must be
 * OpenCV's exactly: the same labels image and the same box and area per
 * piece, on random patches of every density (specks, blobs, strokes),
 * sizes odd and even, down to one row and one column.
 */
#include "harness.h"

#include "read.h"

#include <opencv2/imgproc.hpp>

#include <cstdint>

namespace {

/* A binary patch: noise of density d (percent), thickened by a dilation
 * when grow is set, so pieces range from specks to branching blobs. */
cv::Mat random_patch(int w, int h, int d, bool grow, uint32_t &r)
{
    cv::Mat b(h, w, CV_8U);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            r ^= r << 13;
            r ^= r >> 17;
            r ^= r << 5;
            b.at<uchar>(y, x) = (int)(r % 100) < d ? 255 : 0;
        }
    if (grow)
        cv::dilate(b, b, cv::Mat());
    return b;
}

/* Whether label_pieces() agrees with OpenCV on b; prints the first
 * difference. */
bool same_as_opencv(const cv::Mat &b, fwv::ReadScratch &s)
{
    cv::Mat lo, so, co, lm, sm;
    int no = cv::connectedComponentsWithStats(b, lo, so, co, 8, CV_32S);
    int nm = fwv::label_pieces(b, lm, &sm, s);
    if (no != nm) {
        fprintf(stderr, "  %dx%d: %d pieces, OpenCV %d\n", b.cols, b.rows,
                nm, no);
        return false;
    }
    if (cv::countNonZero(lo != lm) != 0) {
        fprintf(stderr, "  %dx%d: labels differ\n", b.cols, b.rows);
        return false;
    }
    for (int i = 1; i < no; i++)
        for (int c = 0; c < 5; c++)
            if (so.at<int>(i, c) != sm.at<int>(i, c)) {
                fprintf(stderr, "  %dx%d: piece %d stat %d: %d, OpenCV %d\n",
                        b.cols, b.rows, i, c, sm.at<int>(i, c),
                        so.at<int>(i, c));
                return false;
            }
    return true;
}

} // namespace

TEST(random_patches_match_opencv)
{
    fwv::ReadScratch s;
    uint32_t r = 12345;
    static const int sizes[][2] = {{51, 109}, {50, 108}, {1, 1},  {1, 40},
                                   {40, 1},   {2, 2},    {3, 7},  {17, 16},
                                   {64, 64},  {153, 91}};
    int checked = 0;
    for (const auto &sz : sizes)
        for (int d = 0; d <= 100; d += 5)
            for (int grow = 0; grow < 2; grow++) {
                cv::Mat b = random_patch(sz[0], sz[1], d, grow != 0, r);
                ASSERT_TRUE(same_as_opencv(b, s));
                checked++;
            }
    ASSERT_INT_EQ(checked, 10 * 21 * 2);
}

/* Shapes whose numbering depends on the order in which their first 2 x 2
 * block is met: a U whose arms start before its base, a spiral, pieces
 * side by side in one block row. */
TEST(ordering_shapes_match_opencv)
{
    fwv::ReadScratch s;
    cv::Mat u = cv::Mat::zeros(20, 20, CV_8U);
    cv::rectangle(u, cv::Rect(2, 1, 2, 15), 255, cv::FILLED);
    cv::rectangle(u, cv::Rect(15, 0, 2, 16), 255, cv::FILLED);
    cv::rectangle(u, cv::Rect(2, 14, 15, 2), 255, cv::FILLED);
    u.at<uchar>(0, 8) = 255; /* a speck between the arms */
    ASSERT_TRUE(same_as_opencv(u, s));
    cv::Mat sp = cv::Mat::zeros(31, 31, CV_8U);
    for (int k = 0; k < 7; k++) {
        int a = 2 + 2 * k, b = 28 - 2 * k;
        if (a >= b)
            break;
        cv::line(sp, {a, a}, {b, a}, 255);
        cv::line(sp, {b, a}, {b, b}, 255);
        cv::line(sp, {b, b}, {a + 2, b}, 255);
        cv::line(sp, {a + 2, b}, {a + 2, a + 2}, 255);
    }
    ASSERT_TRUE(same_as_opencv(sp, s));
    cv::Mat row = cv::Mat::zeros(2, 12, CV_8U);
    for (int x = 0; x < 12; x += 3)
        row.at<uchar>(x % 2, x) = 255;
    ASSERT_TRUE(same_as_opencv(row, s));
}

static const fw_test_case cases[] = {
    TEST_CASE(random_patches_match_opencv),
    TEST_CASE(ordering_shapes_match_opencv),
};
TEST_MAIN(cases)
