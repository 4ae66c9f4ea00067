/*
 * test_read_cut.cpp - the corner reader's patches cut once per image
 * (vision/read.h: ReadScratch::image).
 *
 * A corner read again from the same image (against the neutral paper,
 * at the index column's ink) reuses the patch cut for its first reading.
 * What it reads must be what a reader with nothing kept reads, feature
 * for feature; and a new image, even at the same address, is cut
 * afresh.
 *
 * And an index in the shade of a hard shadow across its corner, lost
 * against the corner's commonest paper, read against the shaded paper
 * (read.h Paper::shaded), where it lies.
 */
#include "harness.h"

#include "read.h"

#include <opencv2/imgproc.hpp>

#include <cstring>

namespace
{

/* A card on green felt, upright, its index (a K over a red blob) at
 * corners 0 and 2, a court's colours beside it so that the neutral paper
 * is not the commonest. Its quad clockwise from the top-left, a short side
 * first. */
/* The card's white paper (card_image()'s place) and its top-left index,
 * a K in ink over a blob in red. */
void paper_and_index(cv::Mat &img, cv::Scalar ink, cv::Scalar red)
{
    cv::rectangle(img, cv::Rect(90, 80, 150, 210), cv::Scalar(245, 245, 245),
                  cv::FILLED);
    cv::putText(img, "K", cv::Point(96, 106), cv::FONT_HERSHEY_SIMPLEX, 0.7,
                ink, 2);
    cv::circle(img, cv::Point(104, 122), 6, red, cv::FILLED);
}

cv::Mat card_image(cv::Point2f q[4])
{
    cv::Mat img(400, 360, CV_8UC3, cv::Scalar(40, 120, 30));
    paper_and_index(img, cv::Scalar(20, 20, 20), cv::Scalar(30, 30, 200));
    cv::rectangle(img, cv::Rect(125, 115, 80, 140), cv::Scalar(30, 160, 220),
                  cv::FILLED);
    /* the index again at corner 2, the card turned half way */
    cv::Mat index = img(cv::Rect(90, 80, 40, 60)), turned;
    cv::flip(index, turned, -1);
    turned.copyTo(img(cv::Rect(240 - 40, 290 - 60, 40, 60)));
    q[0] = cv::Point2f(90, 80);
    q[1] = cv::Point2f(240, 80);
    q[2] = cv::Point2f(240, 290);
    q[3] = cv::Point2f(90, 290);
    return img;
}

/* Whether two readings agree in every feature; prints the first
 * difference when say is set. */
bool same_reading(bool fa, const fwv::IndexFeat &a, bool fb,
                  const fwv::IndexFeat &b, bool say = true)
{
    if (fa != fb || a.ok != b.ok || a.has_beside != b.has_beside ||
        a.faint_index != b.faint_index || a.pale != b.pale) {
        if (say)
            fprintf(stderr, "  found %d/%d ok %d/%d beside %d/%d\n", fa, fb,
                    a.ok, b.ok, a.has_beside, b.has_beside);
        return false;
    }
    if (!fa)
        return true;
    if (std::memcmp(a.rank, b.rank, sizeof a.rank) != 0 ||
        std::memcmp(a.suit, b.suit, sizeof a.suit) != 0 ||
        (a.has_beside && std::memcmp(a.suit_beside, b.suit_beside,
                                     sizeof a.suit_beside) != 0)) {
        if (say)
            fprintf(stderr, "  the features differ\n");
        return false;
    }
    return true;
}

/* corner (0 or 2) of quad q in img read as paper and ink say by a reader
 * that keeps nothing (ReadScratch::image 0). */
bool read_fresh(const cv::Mat &img, const cv::Point2f q[4], int corner,
                fwv::Paper paper, fwv::Ink ink, fwv::IndexFeat &f)
{
    fwv::ReadScratch s;
    return fwv::index_features(img, q, corner, s, f, nullptr, paper, ink);
}

} // namespace

TEST(corner_read_again_reads_as_cut_afresh)
{
    cv::Point2f q[4];
    const cv::Mat img = card_image(q);
    fwv::ReadScratch s;
    s.image = 1;
    fwv::IndexFeat first[2], again, fresh;
    bool found[2];
    /* both corners first */
    for (int c = 0; c < 2; c++)
        found[c] = fwv::index_features(img, q, 2 * c, s, first[c], nullptr,
                                       fwv::Paper::commonest, fwv::Ink::patch);
    ASSERT_TRUE(found[0]);
    ASSERT_TRUE(found[1]);
    /* each again as analyse() reads a court's corner: against the neutral
     * paper, and at the index column's ink */
    static const struct {
        fwv::Paper paper;
        fwv::Ink ink;
    } again_as[] = {{fwv::Paper::neutral, fwv::Ink::patch},
                    {fwv::Paper::commonest, fwv::Ink::index_column}};
    for (int c = 0; c < 2; c++) {
        ASSERT_TRUE(
            same_reading(found[c], first[c],
                         read_fresh(img, q, 2 * c, fwv::Paper::commonest,
                                    fwv::Ink::patch, fresh),
                         fresh));
        for (const auto &m : again_as) {
            const bool a = fwv::index_features(img, q, 2 * c, s, again, nullptr,
                                               m.paper, m.ink);
            ASSERT_TRUE(same_reading(
                a, again, read_fresh(img, q, 2 * c, m.paper, m.ink, fresh),
                fresh));
        }
    }
}

TEST(new_image_at_same_address_cut_afresh)
{
    cv::Point2f q[4];
    cv::Mat img = card_image(q);
    const uchar *at = img.data;
    fwv::ReadScratch s;
    s.image = 7;
    fwv::IndexFeat before, after, fresh;
    ASSERT_TRUE(fwv::index_features(img, q, 0, s, before, nullptr,
                                    fwv::Paper::commonest, fwv::Ink::patch));
    /* the next frame in the same buffer: the index gone under a hand */
    cv::rectangle(img, cv::Rect(90, 80, 40, 60), cv::Scalar(90, 120, 170),
                  cv::FILLED);
    ASSERT_TRUE(img.data == at);
    s.image = 8;
    const bool found = fwv::index_features(
        img, q, 0, s, after, nullptr, fwv::Paper::commonest, fwv::Ink::patch);
    ASSERT_TRUE(same_reading(
        found, after,
        read_fresh(img, q, 0, fwv::Paper::commonest, fwv::Ink::patch, fresh),
        fresh));
    /* and the reading did change: the patch kept would have read the K */
    ASSERT_TRUE(!same_reading(true, before, found, after, false));
}

/* card_image()'s card with a hard shadow over its top quarter, its
 * index in it: the paper there is grey, the sunlit paper below it the
 * commonest in the corner's patch. Against that paper the whole shade is
 * ink and the index is lost in it; against the shaded paper, the sunlit
 * paper counting as paper, the index is read where it was printed. */
TEST(index_in_shade_read_against_shaded_paper)
{
    cv::Point2f q[4];
    cv::Mat img = card_image(q);
    /* a plain card, its index printed grey and pale red, then the shade
     * over it */
    paper_and_index(img, cv::Scalar(110, 110, 110), cv::Scalar(120, 120, 230));
    cv::Mat top = img(cv::Rect(90, 80, 150, 65));
    top *= 0.4;
    fwv::IndexFeat f;
    ASSERT_TRUE(
        !read_fresh(img, q, 0, fwv::Paper::commonest, fwv::Ink::patch, f));
    ASSERT_TRUE(read_fresh(img, q, 0, fwv::Paper::shaded, fwv::Ink::patch, f));
    /* the K was printed from 6 px across (of 150) and some 10 px down (of
     * 210) */
    printf("  rank at %.3f across, %.3f down\n", f.rank_u, f.rank_v);
    ASSERT_TRUE(f.rank_u > 0.01f && f.rank_u < 0.1f);
    ASSERT_TRUE(f.rank_v > 0.02f && f.rank_v < 0.1f);
    /* with no shadow there is no second paper to read against */
    cv::Point2f q2[4];
    const cv::Mat plain = card_image(q2);
    ASSERT_TRUE(
        !read_fresh(plain, q2, 0, fwv::Paper::shaded, fwv::Ink::patch, f));
}

static const fw_test_case cases[] = {
    TEST_CASE(corner_read_again_reads_as_cut_afresh),
    TEST_CASE(new_image_at_same_address_cut_afresh),
    TEST_CASE(index_in_shade_read_against_shaded_paper),
};

TEST_MAIN(cases)
