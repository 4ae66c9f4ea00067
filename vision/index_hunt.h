/*
 * index_hunt.h - private to vision/: cards found from their index alone,
 * where the finder saw no outline (C++).
 *
 * A card on a table as pale as its paper (a white cloth, a sheet of
 * paper, a light placemat) shows almost no edge, and the finder, which
 * works from outlines, misses it. Its corner index still shows plainly:
 * a rank and, below it, a suit, dark or coloured ink on the card's
 * paper, standing apart from any other print. The hunt looks for such
 * pairs of glyphs in the frame's lightness at the finder's resolution,
 * and each pair gives where the card's index corner lies and which way
 * the card is turned: the suit lies towards the card's bottom, the card's
 * body to the right of that. The reader (cards.cpp read_hunted()) lays a
 * card there and reads its index as it reads a loose corner's. A card on
 * clutter (a game's box, a placemat, a diploma) is as lost to the finder
 * among the clutter's edges: the hunt looks on the light paper off the
 * table too, where nothing was found (hunt_indexes_off_table()).
 */
#ifndef FW_INDEX_HUNT_H
#define FW_INDEX_HUNT_H

#include <opencv2/core.hpp>

#include <algorithm>
#include <utility>
#include <vector>

namespace fwv
{

/* Paper to the hunt: at least this light (8-bit L). */
constexpr int HUNT_PAPER = 110;

/* One index the hunt found (work resolution): its rank glyph's centre,
 * the unit vector from the rank towards its suit (the card's "down"), and
 * the rank's height along it. */
struct IndexSeed {
    cv::Point2f rank;
    cv::Point2f down;
    float rank_h;
    /* the other ink about the pair, a share of the pair's own (an index
     * stands apart: the less, the likelier) */
    float crowd;
};

/* A piece of ink the size of a glyph: its label, box, area and centre. */
struct HuntPiece {
    int id;
    cv::Rect box;
    int area;
    cv::Point2f c;
    int size() const { return std::max(box.width, box.height); }
};

/* The hunt's scratch, kept between frames (a frame allocates nothing once
 * these have grown). */
struct HuntScratch {
    cv::Mat on_table, mean, table, table_mean, ink, labels, stats, cents;
    /* hunt_indexes_off_table()'s free paper, laid by its caller */
    cv::Mat free;
    std::vector<HuntPiece> glyphs;
    /* the indexes found, with their rank's size (the larger first) */
    std::vector<std::pair<float, IndexSeed>> found;
};

/*
 * Every index that shows in light (the frame's lightness, CV_8U, work
 * resolution) on paper that off_table (CV_8U, light's size: 255 off the
 * table's colour; detect.h Finder::fg) takes for the table: into out, the
 * larger rank first. Paper the finder told from the table was the
 * finder's to find: an index printed there is a card's own print (the
 * fan of aces printed on a back) as often as a card: that paper is
 * hunt_indexes_off_table()'s, once what was found there is left out.
 * None where less than a hundredth of the frame is the table's light
 * paper (a felt table: one pass of compares).
 */
void hunt_indexes(const cv::Mat &light, const cv::Mat &off_table,
                  HuntScratch &s, std::vector<IndexSeed> &out);

/*
 * Every index that shows in light on paper off the table (off_table 255)
 * where free (CV_8U, light's size) is 255: a card lying on clutter (a
 * book, a game's box, a plate), whose outline the finder did not find
 * among the clutter's edges. free leaves out the cards read already
 * (their own indexes and pips), and the backs but for their corners.
 * Into out, the larger rank first; none where no such paper is broad
 * enough for a card's (index_hunt.cpp OFF_BROAD_OF, OFF_LEAST).
 */
void hunt_indexes_off_table(const cv::Mat &light, const cv::Mat &off_table,
                            const cv::Mat &free, HuntScratch &s,
                            std::vector<IndexSeed> &out);

} // namespace fwv

#endif
