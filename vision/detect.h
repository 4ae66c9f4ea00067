/*
 * detect.h - private to vision/: finding card quads in a frame (C++).
 *
 * The finder works on a small copy of the frame (about 640 pixels on the
 * long side). It separates cards from the table twice: by distance from a
 * model of the table's colour (its dominant colour with a fitted lighting
 * gradient) and by local paper white; and once more with each mask cut
 * along strong edges, so touching cards come apart. Every blob's outline
 * becomes straight segments, adjacent segments at about a right angle
 * become corners, and each corner proposes a card (its two sides, their
 * lengths closed by another corner or taken from the size of the cards
 * found whole); so does a back's printed field, a hole in the paper mask
 * inside the back's white margin, grown out through the margin (the upper
 * card of a tight pair of patterned backs, whose own edge is lost among
 * the pattern's). A proposal's sides are snapped to the edges in the image
 * and it is scored by how much of its outline the image shows and how much
 * of its inside is card. Proposals are taken best first as long as each
 * explains outline that the ones before did not, so a covered card, a
 * fanned pair and cards touching each other all come out once each. Two
 * things keep a fanned pair two cards: a quad that holds a whole card of
 * its own along its long sides but is too wide for one is struck out (the
 * pair taken as one), and a card whose far side lies hidden under cards
 * already taken is also proposed at the size of the cards here and judged
 * on the outline they leave in view. Last, beside each card taken that
 * overlaps no other, what the card mask leaves once the cards taken are
 * cut out of it is looked at: a piece of a card's size there (a lower
 * card's strip, whose corners the pair's outline never shows) is fitted
 * with a card of its neighbour's size, turned on it a little. And at each
 * outline corner that no card taken explains (outside them, no corner of
 * theirs near), a card of the cards' size is laid as if the corner were
 * its index corner (Finder::loose): a card mostly hidden under others
 * shows too little outline to be taken, but its index may show, and the
 * reader (cards.cpp) reads it there.
 *
 * Real tables are not all felt. A textured one (carpet, wood grain)
 * spreads far in lightness but little in colour, so the table's distance
 * has two thresholds, each from the table's own spread in it: one
 * threshold set by the lightness let a court card's picture pass for
 * carpet. Print that still matches the table (red pips on red wood) lies
 * enclosed by the card's margin, so a blob's holes count as card when a
 * quad's inside is judged. A textured table also shows "edges" everywhere:
 * an edge must be stronger than most of the table's own (a smooth table
 * keeps the fixed floor), or any stretch of carpet has a card's outline.
 * And cards have a size: none is smaller than a share of the frame, or
 * far smaller than the cards seen well in it; such quads are texture or
 * print.
 */
#ifndef FW_DETECT_H
#define FW_DETECT_H

#include <opencv2/core.hpp>

#include <cstdint>
#include <vector>

namespace fwv {

struct CardQuad {
    cv::Point2f p[4]; /* clockwise (y down), p[0]-p[1] a short side */
    float score = 0;  /* 0..1 */
    float support = 0; /* share of the outline the image shows */
    float cover = 0;   /* share of the inside that is card */
};

/* One side snapped (detect.cpp: snap_side), kept for the rest of the frame:
 * the proposals of one card repeat many of each other's sides exactly. */
struct SideSnap {
    float key[5];      /* the side's ends and the search reach, as given */
    cv::Point2f a, b;  /* the side snapped */
    bool ok = false;   /* whether it snapped */
    uint32_t frame = 0; /* the frame it belongs to (0: empty) */
};

/* Scratch memory kept between frames (no reallocation for frames of one
 * size). */
struct Finder {
    cv::Mat lab, blur, fg, paper, any, solid, edges, cut, dist, lfit, tmp,
        small;
    /* the card mask with thin gaps bridged (detect.cpp fill_print()) */
    cv::Mat bridged;
    /* a mask before its opening (open_regrow), and the light pixels the
     * table-distance mask may grow back into */
    cv::Mat raw, light;
    /* the paper mask before its opening where no card was chosen
     * (detect.cpp take_rings()) */
    cv::Mat rings_left;
    /* lab's channels apart: the per-pixel loops over them vectorise */
    cv::Mat lab_ch[3];
    std::vector<std::vector<cv::Point>> contours;
    std::vector<cv::Vec4i> hierarchy;
    std::vector<float> edge_pts;
    /* find_beside(): the card mask less the chosen cards, and the
     * outline points of what is left that no chosen card explains */
    cv::Mat resid;
    std::vector<cv::Point2f> beside_pts;
    /* its outline points at the frame's edge, where the frame cuts it */
    std::vector<cv::Point2f> beside_cut;
    std::vector<float> beside_u, beside_v;
    /* how far each chosen quad is grown when cut from the mask */
    std::vector<float> beside_grow;
    std::vector<int> hist;
    /* polygons' scratch (find_beside, join_parts) */
    std::vector<cv::Point2f> poly_a, poly_b, poly_c, poly_in;
    /* closed_outlines()'s scratch: the frame's edges as Canny gives
     * them (edges is that, thickened), closed; a hull, its polygon */
    cv::Mat edges_thin;
    std::vector<cv::Point> hull_closed, poly_closed;
    /* the sides snapped this frame: an open-addressed table, its slots of
     * other frames free */
    std::vector<SideSnap> snaps;
    uint32_t frame_no = 0;
    /* after find(): at each outline corner no card found explains, a
     * card of the size of the cards here laid as its index corner would
     * lie (p[0] the corner): a card mostly hidden may still show its
     * index there */
    std::vector<CardQuad> loose;
    /* for each of loose, the index of the first card kept at its corner
     * (itself for that one): the card laid along both sides as the
     * outline shows them, unless too little of it lay on the card mask
     * and a card laid square to one side (detect.cpp LOOSE_SQUARE) was
     * kept first */
    std::vector<int> loose_of;
    /* after find(): every outline corner no card found explains (as for
     * loose, whether or not a card laid there kept to the card mask):
     * the corner c, its side a that an index corner's short side would
     * run along, and its other side b, unit vectors (cross(a, b) > 0).
     * The reader lays cards there at the size of the faces it read
     * (cards.cpp read_loose_at_faces()) */
    struct LooseCorner {
        cv::Point2f c, a, b;
    };
    std::vector<LooseCorner> loose_corners;
    float loose_s = 0; /* the short side loose's cards were laid at */
    /* after find(): the proposals not taken, best first (each ordered as
     * the cards found are; MAX_RUNNERS at most). A face found whose index
     * the reader cannot read may be a quad of a fanned pair's two cards
     * together: one of these over it, read surely, is the card */
    std::vector<CardQuad> runners;
    /* after find(): the size of the cards here (short and long side; the
     * median of the corners that show a card's sides whole), 0 when no
     * corner does */
    float card_s = 0, card_l = 0;
    /* the table model, for the reader's paper level */
    cv::Vec3f table;
    float table_sigma = 0;
    /* the samples the table model was last fitted to, and the fit's
     * off-table ellipse (with lfit, table): a frame whose samples still
     * match them keeps the fit (detect.cpp table_model()) */
    std::vector<cv::Vec3b> fit_vals;
    float fit_kc = 0, fit_thr2 = 0;

    /* Find the card quads in BGR (work resolution). */
    void find(const cv::Mat &bgr, std::vector<CardQuad> &out);

    /* After find(): quad q (work resolution, corners in order) with each
     * side moved out, up to reach times its shorter side, for as long as
     * the strip just outside it is card (solid): a quad the finder fitted
     * to a court's printed picture, inside the card's margin, grown to
     * the card's own edges. False when no side moves by two pixels, when
     * two find no edge within reach (the table taken for card), or when
     * the quad grown has no card's proportions. */
    bool grow_to_card(const cv::Point2f q[4], float reach,
                      cv::Point2f out[4]) const;

    /* After find(): the four-sided outlines of card proportions that the
     * edges close by themselves (detect.cpp OUTLINE_FILL) outside the
     * quads known[0..nknown) (work resolution), largest first, into out
     * (work resolution, ordered as the cards found are; score, support
     * and cover 0: nothing judged them). A card on a table as light as
     * its paper, or lying against clutter of its colour, joins its
     * surroundings in every mask, while its edge still shows. */
    void closed_outlines(const CardQuad *known, int nknown,
                         std::vector<CardQuad> &out);
};

/* A card's long side over its short one, as a guess where the frame's
 * cards do not show it (poker cards 1.40, bridge cards 1.56). */
constexpr float CARD_RATIO = 1.45f;

/* The median of v (its upper one for an even count), v reordered; v must
 * not be empty. */
float upper_median(std::vector<float> &v);

/* The q quantile (0 to 1) of histogram h[0..n) of total counts: the
 * first bin whose running count passes q * total, or n - 1. */
int hist_quantile(const int *h, int n, long total, double q);

/* The lengths of quad q's shorter and longer pair of sides (the means of
 * each pair), and the longer pair's direction (a unit vector). */
void quad_sides(const cv::Point2f q[4], float &s, float &l, cv::Point2f &ldir);

/* Order four points clockwise from the one nearest the top-left, then turn
 * them so p[0]-p[1] is a short side. */
void order_quad(cv::Point2f q[4]);

/* The mean of a quad's four corners. */
inline cv::Point2f quad_centre(const cv::Point2f q[4])
{
    return (q[0] + q[1] + q[2] + q[3]) * 0.25f;
}

/* The upright box around quad q, margin pixels wider on every side. */
cv::Rect2f quad_box(const cv::Point2f q[4], float margin = 0);

/* Whether p lies inside the convex quad q (either turning) by more than
 * margin pixels. */
bool inside_quad(cv::Point2f p, const cv::Point2f q[4], float margin);

} // namespace fwv

#endif
