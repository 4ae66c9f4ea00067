/*
 * flat_view.h - private to vision/: the table seen from straight above,
 * recovered from the cards lying on it (C++).
 *
 * A tilted camera sees the table in perspective: the cards nearer it
 * larger, every card stretched along the tilt, its quad no longer a
 * rectangle of the deck's proportions. The finder (detect.h) knows a card
 * by those proportions and by the size of the other cards in the frame;
 * in steep perspective it takes a card stretched to a near square for a
 * fanned pair of two, and one far larger than the rest for a stack. On
 * eval_cards' hard scenes (a camera tilted up to 30 degrees), the same
 * scenes seen untilted read 95.9% -> 98.5% of their cards right and
 * count the backs exactly in 82.7% -> 88.5% of them (seed 5000).
 *
 * Every card on the table is the same rectangle. flat_view() finds the
 * homography under which the quads found in a first look are most nearly
 * rectangles of one shape and one size (the rest, a card found twice or a
 * strip of one, are left out as they disagree), and says whether the
 * frame is far enough from flat to be detected again through it.
 */
#ifndef FW_FLAT_VIEW_H
#define FW_FLAT_VIEW_H

#include <opencv2/core.hpp>

#include <array>
#include <vector>

namespace fwv {

/* The frame seen flat: to_flat maps frame pixels to the flat image's
 * (size), at the frame's scale in its middle. */
struct FlatView {
    cv::Matx33d to_flat;
    cv::Size size;
    /* what the fit found: the cards' long side over their short one, the
     * most the frame is stretched one way over the other at its middle
     * and corners, and its largest scale over its smallest there */
    double aspect = 0, stretch = 1, spread = 1;
    int cards = 0; /* the quads the fit kept */
    /* the root mean square of their residuals through the view, and as
     * the frame shows them */
    double rms = 0, rms_as_is = 0;
    /* the flat image's pixels per frame pixel at the frame's middle */
    double scale = 1;
    /* the view as fitted (flat_view.cpp: the horizon and the stretch) */
    double params[4] = {0, 0, 0, 0};
    /* the root mean square of the kept quads' residuals through the view
     * held (flat_view()'s held; the frame as it is where none) */
    double rms_held = 0;
};

using Quad = std::array<cv::Point2f, 4>;

/* The least number of cards flat_view() fits a view to. */
constexpr int FLAT_LEAST = 5;

/*
 * The flat view of a frame of size frame in which quads (frame pixels,
 * each card's four corners in order round it) were found. Returns false
 * when fewer than FLAT_LEAST agree on one, or when the frame is seen flat
 * enough as it is (FLAT_STRETCH, FLAT_SPREAD in flat_view.cpp); view is
 * filled either way where a fit was made (view.cards > 0). The flat
 * image is at most long_most pixels on its long side (0: any). held, a
 * view found before for a frame of this size (or null: the frame as it
 * is), is measured on the quads the fit kept (view.rms_held).
 */
bool flat_view(const std::vector<Quad> &quads, cv::Size frame, int long_most,
               FlatView &view, const FlatView *held = nullptr);

/* A warp through a camera's view: the maps made once (flat_maps()), and
 * again only where the view or a size changes. */
class FlatWarp {
  public:
    /* src seen through h (src pixels to dst's) into dst, of size */
    void warp(const cv::Mat &src, const cv::Matx33d &h, cv::Size size,
              cv::Mat &dst);

  private:
    cv::Mat xy_, alpha_, pad_;
    cv::Matx33d h_;
    cv::Size from_, size_;
};

/* What a camera's cards say of the view its frames are seen through. */
enum class ViewCheck {
    kept,  /* it explains them, or nothing better does */
    moved, /* a fresh fit explains them far better: the camera moved */
    lost,  /* it no longer explains them, nor does a fresh fit of cards
              found through it: to be found anew, from cards found in the
              frame as it is */
};

/*
 * What view, a fresh flat_view() of a camera's cards, and through, its
 * return, say of the view held (flat_view()'s held; the frame as it is
 * where that was null). Moved where the fresh view, or the frame as it is
 * where through is false, explains them FLAT_MOVED times better than the
 * view held; lost where the view held explains them worse than FLAT_RMS,
 * the most any view is taken at (flat_view.cpp).
 */
ViewCheck check_view(const FlatView &view, bool through);

/*
 * The maps that warp a frame of size frame through h (frame pixels to the
 * image's) into an image of size, for cv::remap() with cv::INTER_LINEAR
 * from the frame padded by a pixel on every side (cv::copyMakeBorder(),
 * cv::BORDER_REPLICATE): xy (CV_16SC2) each pixel's source pixel, alpha
 * (CV_16UC1) its place between that and the next in 32nds. The remap
 * gives what cv::warpPerspective() with cv::BORDER_REPLICATE gives, to
 * the bit: its maps are computed as it computes them. A camera's view is
 * fixed, and warpPerspective() computes them again, a division a pixel,
 * for every frame; and the pixels beyond the frame, a fifth to a third of
 * a tilted camera's flat image, it reads one by one through the border.
 * Here each is moved onto the padding, where its neighbours are the
 * border's, and remap() reads it with the rest.
 */
void flat_maps(const cv::Matx33d &h, cv::Size frame, cv::Size size,
               cv::Mat &xy, cv::Mat &alpha);

/* p (frame pixels) seen through h. */
cv::Point2f through(const cv::Matx33d &h, cv::Point2f p);

} // namespace fwv

#endif
