/*
 * test_read_memo.cpp - readings carried between frames (vision/read_memo.h):
 * which quad of a frame takes which kept reading, and when a card's print
 * says it is the same card.
 *
 * test_vision still_cards_keep_their_readings runs the same through the
 * detector on rendered frames; here the pairing's edge cases are set up
 * exactly, which the detector cannot be made to give on demand: a card and
 * another a few pixels off it, a reading with no quad, a quad with none.
 */
#include "harness.h"

#include "read_memo.h"

#include <opencv2/imgproc.hpp>

#include <climits>
#include <cstdint>

namespace
{

/* A quad as the detector gives one: four corners. */
struct Q {
    cv::Point2f p[4];
};

/* An upright card w x h pixels with its top-left corner at (x, y). */
Q card_at(float x, float y, float w = 50, float h = 70)
{
    return Q{{{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}}};
}

/* A frame's lightness: a grey table, a white card at q with a dark bar
 * for its index, and sensor noise of up to noise levels (seed r). */
cv::Mat table_with_card(const Q &q, int noise, uint32_t r, int bar = 10)
{
    cv::Mat m(200, 300, CV_8U, cv::Scalar(90));
    const cv::Point c0((int)q.p[0].x, (int)q.p[0].y);
    cv::rectangle(m, c0, {(int)q.p[2].x - 1, (int)q.p[2].y - 1}, 230,
                  cv::FILLED);
    cv::rectangle(m, c0 + cv::Point(3, 3), c0 + cv::Point(6, 3 + bar), 30,
                  cv::FILLED);
    for (int y = 0; y < m.rows; y++)
        for (int x = 0; x < m.cols; x++) {
            r ^= r << 13;
            r ^= r >> 17;
            r ^= r << 5;
            const int v =
                m.at<uchar>(y, x) + (int)(r % (2 * noise + 1)) - noise;
            m.at<uchar>(y, x) = (uchar)std::min(255, std::max(0, v));
        }
    return m;
}

} // namespace

/* Each quad takes the reading kept nearest it, and only when it is that
 * reading's nearest quad too: of a card and another 4 pixels off it, each
 * keeps its own; a quad beside a card's reading that has a nearer quad of
 * its own takes nothing; one further than a tenth of the card's side from
 * any takes nothing. */
TEST(quads_pair_with_their_own_readings)
{
    /* one still image: every print matches, and what is taken shows the
     * pairing alone */
    const Q a = card_at(40, 40), b = card_at(44, 40), far = card_at(200, 40);
    const cv::Mat light = table_with_card(a, 0, 1);
    fwv::ReadMemo<int> memo;
    memo.keep(a.p, light, 1, nullptr);
    memo.keep(b.p, light, 2, nullptr);
    memo.keep(far.p, light, 3, nullptr);
    memo.next_frame();
    /* this frame, a little off where they were, and in another order */
    const Q now[3] = {card_at(44.5f, 40.5f), card_at(40.5f, 39.5f),
                      card_at(200, 60)};
    memo.pair(now, 3);
    const fwv::MemoEntry<int> *t0 = memo.take(0, light),
                              *t1 = memo.take(1, light);
    ASSERT_TRUE(t0 && t1);
    ASSERT_INT_EQ(t0->reading, 2);
    ASSERT_INT_EQ(t1->reading, 1);
    /* 20 pixels from far's reading, on a card 50 wide: not the same place */
    ASSERT_TRUE(memo.take(2, light) == nullptr);
    ASSERT_TRUE(memo.take(3, light) == nullptr); /* out of range */

    /* only a's reading kept: b's quad, 4 pixels off it, takes nothing, as
     * a's quad is nearer */
    fwv::ReadMemo<int> one;
    one.keep(a.p, light, 1, nullptr);
    one.next_frame();
    const Q both[2] = {card_at(44, 40), card_at(40.5f, 40)};
    one.pair(both, 2);
    ASSERT_TRUE(one.take(0, light) == nullptr);
    ASSERT_TRUE(one.take(1, light) != nullptr);
    /* with a's quad gone, b's takes it: a card found a few pixels off */
    const Q alone[1] = {card_at(44, 40)};
    one.pair(alone, 1);
    ASSERT_TRUE(one.take(0, light) != nullptr);
}

/* The print: the same card under fresh noise matches; its index grown by
 * two pixels, or the card moved by two pixels, does not. */
TEST(print_tells_a_changed_card)
{
    const Q a = card_at(40, 40);
    fwv::CardPrint was, now;
    fwv::take_print(table_with_card(a, 3, 11), a.p, was);
    fwv::take_print(table_with_card(a, 3, 12), a.p, now);
    ASSERT_TRUE(fwv::print_matches(was, now));
    fwv::take_print(table_with_card(a, 3, 13, 12), a.p, now);
    ASSERT_TRUE(!fwv::print_matches(was, now));
    fwv::take_print(table_with_card(card_at(42, 40), 3, 14), a.p, now);
    ASSERT_TRUE(!fwv::print_matches(was, now));
    /* and through the memo: a reading is not taken over a changed card */
    fwv::ReadMemo<int> memo;
    memo.keep(a.p, table_with_card(a, 3, 11), 7, nullptr);
    memo.next_frame();
    const Q q[1] = {card_at(41, 40)};
    memo.pair(q, 1);
    ASSERT_TRUE(memo.take(0, table_with_card(a, 3, 15)) != nullptr);
    ASSERT_TRUE(memo.take(0, table_with_card(a, 3, 16, 14)) == nullptr);
}

/* A reading the caller judges unsure is carried for MEMO_RETRY frames,
 * then made again; made again, it waits twice as long, up to
 * MEMO_RETRY_MOST frames. A sure one is carried however long. */
TEST(unsure_readings_wait_longer_each_time)
{
    const Q a = card_at(40, 40);
    const cv::Mat light = table_with_card(a, 0, 1);
    const Q now[1] = {a};
    fwv::ReadMemo<int> memo;
    memo.keep(a.p, light, 5, nullptr);
    memo.next_frame();
    int waits[5] = {0}, made = 0;
    for (int frame = 0; made < 5; frame++) {
        ASSERT_INT_LT(frame, 200);
        memo.pair(now, 1);
        const fwv::MemoEntry<int> *was = memo.take(0, light);
        ASSERT_TRUE(was != nullptr);
        ASSERT_TRUE(memo.carries(*was, true));
        if (memo.carries(*was, false)) {
            memo.carry(*was);
        } else {
            waits[made++] = was->carried;
            memo.keep(a.p, light, 5, was);
        }
        memo.next_frame();
    }
    ASSERT_INT_EQ(waits[0], fwv::MEMO_RETRY);
    ASSERT_INT_EQ(waits[1], 2 * fwv::MEMO_RETRY);
    ASSERT_INT_EQ(waits[2], 4 * fwv::MEMO_RETRY);
    ASSERT_INT_EQ(waits[3], fwv::MEMO_RETRY_MOST);
    ASSERT_INT_EQ(waits[4], fwv::MEMO_RETRY_MOST);
}

/* With keep_idle, a reading no quad asks for is kept for that many
 * frames, carried meanwhile, and found when asked for again (cards.cpp's
 * second choices, read only beside the faces that need them); without
 * it, or past it, it is gone. A reading asked for whose print changed is
 * not kept; an idle one does not shorten frames_to_retry(). */
TEST(unasked_readings_kept_while_idle)
{
    const Q a = card_at(40, 40);
    const cv::Mat light = table_with_card(a, 0, 1);
    const Q now[1] = {a};
    auto unsure = [](int) { return true; };
    for (int idle = 0; idle <= 3; idle++) {
        fwv::ReadMemo<int> memo;
        memo.keep(a.p, light, 9, nullptr);
        memo.next_frame(2);
        ASSERT_INT_EQ(memo.frames_to_retry(unsure), fwv::MEMO_RETRY);
        /* idle frames: a frame whose quads are not this one */
        for (int f = 0; f < idle; f++) {
            memo.pair(now, 0);
            memo.next_frame(2);
            ASSERT_INT_EQ(memo.frames_to_retry(unsure), INT_MAX);
        }
        memo.pair(now, 1);
        const fwv::MemoEntry<int> *was = memo.take(0, light);
        if (idle <= 2) {
            ASSERT_TRUE(was != nullptr);
            ASSERT_INT_EQ(was->reading, 9);
            ASSERT_INT_EQ(was->carried, idle);
        } else {
            ASSERT_TRUE(was == nullptr);
        }
    }
    /* next_frame() as before: nothing unasked is kept */
    fwv::ReadMemo<int> plain;
    plain.keep(a.p, light, 9, nullptr);
    plain.next_frame();
    plain.pair(now, 0);
    plain.next_frame();
    plain.pair(now, 1);
    ASSERT_TRUE(plain.take(0, light) == nullptr);
    /* asked for over a changed card: not kept idle */
    fwv::ReadMemo<int> changed;
    changed.keep(a.p, light, 9, nullptr);
    changed.next_frame(2);
    changed.pair(now, 1);
    ASSERT_TRUE(changed.take(0, table_with_card(a, 0, 1, 14)) == nullptr);
    changed.next_frame(2);
    changed.pair(now, 1);
    ASSERT_TRUE(changed.take(0, light) == nullptr);
}

/* A quad whose corners lie off the image: its points there read 0, and
 * nothing is read outside the lightness image. */
TEST(print_off_the_image)
{
    const Q q = card_at(270, 150);
    fwv::CardPrint p;
    fwv::take_print(table_with_card(card_at(40, 40), 0, 1), q.p, p);
    ASSERT_INT_EQ(p.v[fwv::PRINT_BODY_W - 1], 0); /* top right: off */
    ASSERT_INT_EQ(p.v[0], 90);                    /* top left: the table */
}

static const fw_test_case cases[] = {
    TEST_CASE(quads_pair_with_their_own_readings),
    TEST_CASE(print_tells_a_changed_card),
    TEST_CASE(unsure_readings_wait_longer_each_time),
    TEST_CASE(unasked_readings_kept_while_idle),
    TEST_CASE(print_off_the_image),
};
TEST_MAIN(cases)
