/*
 * read_memo.h - a card's reading carried from one frame to the next while
 * the card lies still. Private to vision/ (C++).
 *
 * On the kiosk's table most cards lie still for many frames: reading each
 * one again every frame is most of a frame's work (cards.cpp analyse(), 44%
 * of bench_cards' instructions). A reading is kept with the quad it was read
 * from and the card's print there: its lightness sampled on a grid over the
 * card and, finer, over its two index corners. A quad found in the next
 * frame near a kept one (each corner within MEMO_REACH, and nearer than
 * any other) takes the kept reading when the image, sampled again at the
 * kept quad's grid, still shows the same print (print_matches()). The print is
 * sampled where the card was read, not at the new quad: the detector's quad of
 * a card lying still moves by a few pixels with the sensor's noise alone
 * (read_memo.cpp MEMO_REACH), and the print of a glyph a pixel wide with it,
 * while the card's pixels stay put. A card turned, swapped, covered by a hand
 * or a chip, or moved by two pixels, does not match and is read again; so is
 * one whose pixels drift (light, shadow) from those it was read from.
 */
#ifndef FW_READ_MEMO_H
#define FW_READ_MEMO_H

#include <opencv2/core.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

namespace fwv
{

/* The print's grids, in the quad's own coordinates (u along p0 -> p1, v
 * along p0 -> p3): the card as a whole, and each index corner (p0, p2),
 * finer (about two detection pixels apart on a card 60 pixels wide). */
constexpr int PRINT_BODY_W = 10, PRINT_BODY_H = 14, PRINT_INDEX_W = 8,
              PRINT_INDEX_H = 12;
constexpr int PRINT_N =
    PRINT_BODY_W * PRINT_BODY_H + 2 * PRINT_INDEX_W * PRINT_INDEX_H;

/* A card's print: lightness (0..255) at each point of the grids. */
struct CardPrint {
    uint8_t v[PRINT_N];
};

/* A reading the caller judges unsure (a face left unread, or read
 * unsurely) is carried for MEMO_RETRY frames, then read again: the same
 * pixels read the same, but a camera's fresh noise, or a tenth of a second
 * more of a hand leaving the corner, may read it. Each time it is read
 * again and stays unsure, it is carried twice as long, up to
 * MEMO_RETRY_MOST frames (half a second at 30 frames a second): a face
 * whose index lies off the frame or under another card never reads, and
 * reading it, its second choices too (cards.cpp read_runners()), cost a
 * still frame as much as reading all the rest (bench_cards' second scene,
 * callgrind: 186 million instructions against 87). A card that moves, or
 * whose print changes, is read at once. */
constexpr int MEMO_RETRY = 4, MEMO_RETRY_MOST = 16;

/* One reading kept: the quad it was read from (detection scale), the
 * card's print there, the reading (the caller's type), how many frames it
 * has been carried, how many it is carried while unsure (MEMO_RETRY), and
 * for how many frames no quad has asked for it (next_frame()'s
 * keep_idle). */
template <class Reading> struct MemoEntry {
    cv::Point2f q[4];
    CardPrint print;
    Reading reading;
    int carried;
    int retry;
    int idle;
};

/* How far quad b lies from quad a: the furthest of its corners from its
 * fellow of a. */
float quad_offset(const cv::Point2f a[4], const cv::Point2f b[4]);

/* Whether quad b lies where quad a did: quad_offset() within MEMO_REACH of
 * a's shorter side. */
bool same_place(const cv::Point2f a[4], const cv::Point2f b[4]);

/* The print of quad q (detection scale) in the lightness image light (8-bit,
 * one channel). A point off the image reads 0. */
void take_print(const cv::Mat &light, const cv::Point2f q[4], CardPrint &out);

/* Whether print now shows the same card as was: no more than PRINT_STRAYS
 * points differ by more than PRINT_TOLERANCE. */
bool print_matches(const CardPrint &was, const CardPrint &now);

/*
 * The readings of the frame before and of this one. Each frame: pair()
 * the frame's quads with the kept readings, take() each quad's, carry()
 * it where carries() says so, else keep() the reading made afresh, then
 * next_frame(). No allocation once the lists have grown to the frame's
 * card count.
 */
template <class Reading> class ReadMemo
{
  public:
    using Entry = MemoEntry<Reading>;
    /* Pair the n quads quads[i].p with the kept readings: a quad and a
     * reading are paired when the reading's quad lies where the quad does
     * (same_place()) and each is the other's nearest (quad_offset()), so
     * that of a card and another a few pixels off it (a fanned pair's
     * lower card) each takes its own reading, never both the one. */
    template <class Quad> void pair(const Quad *quads, int n)
    {
        paired_.assign((size_t)n, -1);
        asked_.assign(last_.size(), 0);
        for (size_t e = 0; e < last_.size(); e++) {
            int best = -1;
            float near = 0;
            for (int i = 0; i < n; i++) {
                const float d = quad_offset(last_[e].q, quads[i].p);
                if (best < 0 || d < near) {
                    best = i;
                    near = d;
                }
            }
            if (best < 0 || !same_place(last_[e].q, quads[best].p))
                continue;
            const int had = paired_[(size_t)best];
            if (had < 0 ||
                near < quad_offset(last_[(size_t)had].q, quads[best].p))
                paired_[(size_t)best] = (int)e;
        }
    }
    /* The reading paired with quad i, its card's print unchanged in the
     * lightness image light (take_print() at the reading's quad), or
     * nullptr. */
    const Entry *take(int i, const cv::Mat &light)
    {
        if (i < 0 || (size_t)i >= paired_.size() || paired_[(size_t)i] < 0)
            return nullptr;
        const Entry &e = last_[(size_t)paired_[(size_t)i]];
        asked_[(size_t)paired_[(size_t)i]] = 1;
        take_print(light, e.q, again_);
        return print_matches(e.print, again_) ? &e : nullptr;
    }
    /* Whether e, a reading take() gave, stands for this frame: one the
     * caller judges sure, or one carried for fewer frames than it waits
     * while unsure (MEMO_RETRY). */
    static bool carries(const Entry &e, bool sure)
    {
        return sure || e.carried < e.retry;
    }
    /* Keep e, taken for this frame, for the next: one frame more
     * carried. */
    void carry(const Entry &e)
    {
        next_.push_back(e);
        next_.back().carried++;
        next_.back().idle = 0;
    }
    /* Keep reading r, made this frame at quad q (its print taken from
     * light), for the next frame. was: the reading take() gave for the
     * quad, whose wait was over (carries() false), or nullptr; an unsure
     * reading made again waits twice as long as it did (MEMO_RETRY). */
    void keep(const cv::Point2f q[4], const cv::Mat &light, const Reading &r,
              const Entry *was)
    {
        next_.emplace_back();
        Entry &e = next_.back();
        std::copy(q, q + 4, e.q);
        take_print(light, q, e.print);
        e.reading = r;
        e.carried = 0;
        e.retry = was ? std::min(2 * was->retry, MEMO_RETRY_MOST) : MEMO_RETRY;
        e.idle = 0;
    }
    /* The reading kept i-th this frame (carry(), keep()), for the frame's
     * later passes to amend before next_frame(); nullptr past the last. */
    Reading *remembered(size_t i)
    {
        return i < next_.size() ? &next_[i].reading : nullptr;
    }
    /* A frame in which every kept reading stands, none taken or read
     * (cards.cpp: a frame unchanged since the last): each counts one frame
     * more carried, so that one due to be read again (MEMO_RETRY) is read
     * when it would have been. */
    void skip_frame()
    {
        for (Entry &e : last_)
            e.carried++;
    }
    /* How many frames the kept readings that unsure(reading) judges
     * unsure are carried before the first of them is read again: a frame
     * may be skipped (skip_frame()) that many times; INT_MAX when none is
     * unsure. */
    template <class Unsure> int frames_to_retry(Unsure unsure) const
    {
        int most = INT_MAX;
        for (const Entry &e : last_)
            if (e.idle == 0 && unsure(e.reading))
                most = std::min(most, std::max(0, e.retry - e.carried));
        return most;
    }
    /* This frame's readings become the ones kept. With keep_idle, a
     * reading of the frame before that no quad of this one asked for
     * (take()) is kept too, for up to keep_idle frames unasked: a caller
     * that reads only some of its quads in a frame (cards.cpp's second
     * choices, read beside the faces that need them) finds it when it
     * next asks. It is carried meanwhile, so that an unsure one is read
     * again when due; a reading asked for whose print had changed is
     * not kept. Idle readings do not count in frames_to_retry(). */
    void next_frame(int keep_idle = 0)
    {
        for (size_t e = 0; e < last_.size() && keep_idle > 0; e++) {
            if ((e < asked_.size() && asked_[e]) || last_[e].idle >= keep_idle)
                continue;
            next_.push_back(last_[e]);
            next_.back().idle++;
            next_.back().carried++;
        }
        last_.swap(next_);
        next_.clear();
        asked_.clear();
    }
    /* Forget every reading (a frame of another size). */
    void clear()
    {
        last_.clear();
        next_.clear();
        asked_.clear();
    }

  private:
    std::vector<Entry> last_, next_;
    std::vector<int> paired_;
    std::vector<char> asked_; /* by last_'s index: take() asked for it */
    CardPrint again_;
};

} // namespace fwv

#endif
