/*
 * layers.h - private to vision/: which card lies over which, and what of
 * each card shows (C++).
 *
 * A fanned hand's lower card shows only as a strip beside the upper one;
 * the detector reports each card whole, its corners where they would lie
 * under the cards over it. What shows of it is its quad less the quads of
 * the cards found lying over it: fw_card_obs::shows gives its box, and
 * fw_card_obs::cards_over how many lie over it.
 *
 * Which of two overlapping cards lies over the other is read from their
 * sides where they run over each other. The upper card's side, where it
 * crosses the lower card, is an edge in the frame: a step from one paper
 * to the other, or the thin shadow a card casts, the same all along it.
 * The lower card's side runs hidden under the upper card's face, and
 * whatever print crosses it there does not follow it. Each card's sides
 * inside the other are measured by the lightness across them, averaged
 * along them (side_profile()): an edge keeps its profile all along, print
 * crossing the line averages out. The upper card is the one whose sides
 * show a profile at least LAYER_EDGE deep and LAYER_RATIO times the
 * other's, and deeper than the print just inside them spreads along them
 * (a card's margin is plain paper; under a court's picture or a row of
 * pips the print runs on either side of a hidden side). Where neither
 * card's sides tell, neither is taken to lie over the other. A back
 * never is: its print may draw card edges of its own (the fan of cards
 * printed on kde-nicu-ornamental's back). Nor is a face left unread: it
 * is as often a quad round part of a card read (eval_cards' hard 9116: a
 * 9s found as two quads overlapping by half). Hard 5000 and 9000: cards
 * said to lie under another though none does 14 -> 9, cards under others
 * whose part in view is matched 200 -> 199.
 *
 * Measured (vision/eval_cards "what shows", docs/vision.md): on rendered
 * hard scenes a card nothing lies over is said to lie under another about
 * once in 1,200 (19 of 23,313 in the six hard tuning sets); on the real
 * photographs' train/ folder, 15 of the 21 cards labelled by the strip
 * that shows are matched by what shows.
 */
#ifndef FW_LAYERS_H
#define FW_LAYERS_H

#include "vision.h"

#include <opencv2/core.hpp>

namespace fwv
{

/*
 * Into each of out[0..n) (corners in frame pixels), cards_over and shows:
 * the cards of out[0..n) lying over it, and the box of what of it shows,
 * within the frame (width x height pixels); a card nothing lies over
 * shows its quad's box. light is the frame's lightness (CV_8U) at
 * to_light times the frame's scale, as the finder saw it.
 */
void settle_layers(const cv::Mat &light, float to_light, int width,
                   int height, fw_card_obs *out, int n);

/*
 * 1 where card a (corners in light's pixels) lies over card b, -1 where
 * b lies over a, 0 where the two do not overlap or their sides do not
 * tell.
 */
int layer_order(const cv::Mat &light, const cv::Point2f a[4],
                const cv::Point2f b[4]);

/*
 * Whether quads a and b (light's pixels) overlap and show no edge where
 * either's sides lie inside the other (each side's profile under
 * NO_EDGE deep): one card's paper outlined twice, as a quad round its
 * index and another round the rest of it. Where one card lies over
 * another, the upper card's side shows as an edge inside the lower one.
 * A face in glare may show no edge either (eval_cards' hard 5340).
 */
bool one_paper(const cv::Mat &light, const cv::Point2f a[4],
               const cv::Point2f b[4]);

} // namespace fwv

#endif
