/*
 * read_memo.h - a card's reading carried from one frame to the next while
 * the card lies still. Private to vision/ (C++).
 *
 * On the kiosk's table most cards lie still for many frames: reading each
 * one again every frame is most of a frame's work (cards.cpp analyse(), 44%
 * of bench_cards' instructions). A reading is kept with the quad it was read
 * from and the card's print there: its lightness sampled on a grid over the
 * card and, finer, over its two index corners. A quad found in the next
 * frame near a kept one (each corner within MEMO_REACH) takes the kept
 * reading when the image, sampled again at the kept quad's grid, still
 * shows the same print (print_matches()). The print is sampled where the
 * card was read, not at the new quad: the detector's quad of a card lying
 * still moves a pixel or two with the sensor's noise, and the print of a
 * glyph a pixel wide with it, while the card's pixels stay put. A card
 * turned, swapped, covered by a hand or a chip, or moved by a pixel, does
 * not match and is read again; so is one whose pixels drift (light,
 * shadow) from those it was read from.
 */
#ifndef FW_READ_MEMO_H
#define FW_READ_MEMO_H

#include <opencv2/core.hpp>

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

/* One reading kept: the quad it was read from (detection scale), the
 * card's print there, and the reading (the caller's type). */
template <class Reading> struct MemoEntry {
    cv::Point2f q[4];
    CardPrint print;
    Reading reading;
};

/* Whether quads a and b lie in the same place: each corner within
 * MEMO_REACH of its fellow. */
bool same_place(const cv::Point2f a[4], const cv::Point2f b[4]);

/* The print of quad q (detection scale) in the lightness image light (8-bit,
 * one channel). A point off the image reads 0. */
void take_print(const cv::Mat &light, const cv::Point2f q[4], CardPrint &out);

/* Whether print now shows the same card as was: no more than PRINT_STRAYS
 * points differ by more than PRINT_TOLERANCE. */
bool print_matches(const CardPrint &was, const CardPrint &now);

/*
 * The readings of the frame before and of this one. Each frame: find()
 * for each quad, remember() for each reading made or taken, then
 * next_frame(). No allocation once the lists have grown to the frame's
 * card count.
 */
template <class Reading> class ReadMemo
{
  public:
    using Entry = MemoEntry<Reading>;
    /* The kept reading of the frame before for quad q, its card's print
     * unchanged in the lightness image light (take_print()), or nullptr. */
    const Entry *find(const cv::Point2f q[4], const cv::Mat &light)
    {
        for (const Entry &e : last_)
            if (same_place(e.q, q)) {
                take_print(light, e.q, again_);
                if (print_matches(e.print, again_))
                    return &e;
            }
        return nullptr;
    }
    /* Keep e for the next frame. */
    void remember(const Entry &e)
    {
        next_.push_back(e);
    }
    /* This frame's readings become the ones kept. */
    void next_frame()
    {
        last_.swap(next_);
        next_.clear();
    }
    /* Forget every reading (a frame of another size). */
    void clear()
    {
        last_.clear();
        next_.clear();
    }

  private:
    std::vector<Entry> last_, next_;
    CardPrint again_;
};

} // namespace fwv

#endif
