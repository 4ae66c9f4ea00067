/*
 * pips.h - private to vision/: a number card read from the pips in its
 * middle, as a dealer reads one whose index is unclear (C++).
 *
 * The card's face is warped upright; ink is what differs from its paper.
 * In the middle of the card (clear of the corner indexes) a number card
 * shows 2 to 10 pips of one size in a layout that looks the same turned
 * half way round (the 7's extra pip excepted). Anything else there (a
 * court's picture, an ace's ornament, a back's pattern, a card lying over
 * it) and the card is not read this way. The pips' suit is read by the
 * index's suit network from an upright pip of the top half.
 */
#ifndef FW_PIPS_H
#define FW_PIPS_H

#include "read.h"

#include <opencv2/core.hpp>

#include <vector>

namespace fwv {

/* A connected piece of ink on the face: its box, area, centre and label. */
struct PipPiece {
    int x0, y0, w, h, area;
    float cx, cy;
    int id;
    /* its rows holding more than a quarter of its width of ink: its
     * height less a thin stem */
    int body = 0;
};

/* Scratch reused between cards. */
struct PipScratch {
    cv::Mat face, lab, dist, ink, labels, stats, cents, tmp;
    /* the pieces in the middle, those the margin cuts, the pips */
    std::vector<PipPiece> mid, crossing, pips;
    std::vector<int> vals, ids;
};

/*
 * The pips of the card at quad q (clockwise, q[0]-q[1] a short side) in
 * img (BGR). Returns their count (2 to 10), with suit_in the suit
 * network's input for one of them; 0 when the middle of the card is not a
 * layout of pips.
 */
int read_pips(const cv::Mat &img, const cv::Point2f q[4], PipScratch &s,
              float suit_in[SUIT_IN]);

} // namespace fwv

#endif
