/*
 * fan_strip.h - private to vision/: the hidden card of a tight fanned
 * pair: the lower card, found from the strip of it that shows beside the
 * upper card, or the upper card cut by the frame, found from its edge
 * across the lower one (C++).
 *
 * A player's two hole cards lie fanned, the upper one turned a few
 * degrees on the lower and shifted across it. Fanned tightly, the lower
 * card shows only as a strip or a wedge along one side of the upper one:
 * at the finder's work resolution a few pixels wide, too little for it
 * to find (detect.cpp find_beside() wants a tenth of a card and more, so
 * that a card's shadow or its printed border is not taken for a card).
 * At the frame's own resolution the strip is wide enough to measure:
 * walking out from each side of the upper card, the pixels that are not
 * the table (nor its shadow) end along a straight line, the lower
 * card's own side. The lower card is the upper one turned and shifted so
 * that its side runs along that line, and it stands only where what the
 * frame shows around it agrees: card inside it beside the upper card, and
 * along its outline there its edge, card just inside and table just
 * outside.
 */
#ifndef FW_FAN_STRIP_H
#define FW_FAN_STRIP_H

#include "detect.h"

#include <opencv2/core.hpp>

#include <array>
#include <vector>

namespace fwv
{

/* Scratch for lower_card_beside(): sized by the first calls, reused. */
struct StripScratch {
    std::vector<cv::Point> at; /* the frame pixels sampled */
    cv::Mat px, lab; /* their colours, one row (BGR, Lab): room for the most
                      * yet */
    std::vector<uchar> card; /* each judged: 1 card, 0 table, 2 off the frame */
};

/*
 * The card under quad q (frame pixels, the frame img, BGR, as the finder
 * saw it at 1 / wscale after f.find()) whose strip shows beside one of
 * q's sides: into out (its corners in q's order) with true, or false
 * where no side shows one. others[0..n_others) are the other cards
 * reported (frame pixels): a strip that reaches one of them is theirs,
 * not a card's. s is scratch.
 */
bool lower_card_beside(const cv::Mat &img, const Finder &f, double wscale,
                       const cv::Point2f q[4],
                       const std::array<cv::Point2f, 4> *others, int n_others,
                       StripScratch &s, cv::Point2f out[4]);

/*
 * The upper card of a fanned pair at the frame's edge, over the back of
 * quad q (frame pixels, img and f as for lower_card_beside()): the frame
 * cuts it, so its outline shows only where it crosses the lower card, a
 * straight edge inside q along one of q's long sides, and it runs on past
 * q's other long side to the frame's edge. The card of the frame's cards'
 * size laid with its side on that edge, away from q, where what shows of
 * it past q is card: into out with true, or false. others and s as for
 * lower_card_beside().
 */
bool upper_card_across(const cv::Mat &img, const Finder &f, double wscale,
                       const cv::Point2f q[4],
                       const std::array<cv::Point2f, 4> *others, int n_others,
                       StripScratch &s, cv::Point2f out[4]);

} // namespace fwv

#endif
