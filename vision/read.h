/*
 * read.h - private to vision/: reading a card's corner index (C++).
 *
 * A card quad's index corner is warped to an upright patch of a canonical
 * card (CW x CH). Ink is whatever differs from the patch's paper (darker,
 * lighter or coloured), cut into connected pieces (first joined down to a
 * lower level, so a small card's faint strokes hold together; then at the
 * threshold; then above it, for pieces blurred into each other); a piece
 * that looks like two glyphs blurred together (a rank and the big suit
 * beside it, or a rank and its suit below) is parted where its ink is
 * strong; the topmost piece near the card's edge (the leftmost of those
 * level with it; with the pieces beside it, for "10", and a stroke broken
 * off its top) is the rank, the piece below it the suit (and the piece
 * beside it, for decks that print a court's big suit there: the suit
 * network takes the one it sees more surely as a suit). Pieces against
 * the cut in the very corner are the table. Each is scaled into a fixed
 * box and read by a small convolutional network (net.h), trained on
 * renders of the Debian decks only (their glyphs distorted as other
 * typefaces would draw them). Each network has one more output than
 * classes: "junk", for corners that hold no index (a back, a pip,
 * covered).
 */
#ifndef FW_READ_H
#define FW_READ_H

#include <opencv2/core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fwv {

/* the canonical card the index is located on */
constexpr int CW = 150, CH = 210;
/* glyph boxes */
constexpr int RW = 20, RH = 28, SW = 20, SH = 20;
constexpr int RANK_IN = RW * RH + 3, SUIT_IN = SW * SH + 4;
constexpr int RANK_OUT = 14, SUIT_OUT = 5; /* the last is junk */
constexpr int JUNK_RANK = 13, JUNK_SUIT = 4;

/* The index of one corner, as network inputs. */
struct IndexFeat {
    bool ok = false;
    float rank[RANK_IN];
    float suit[SUIT_IN];
    /* a second suit: the biggest piece beside the rank, to its right, as
     * tall as it (a court card of some decks prints its big suit there
     * and its picture below: ar-bellot). The reader takes whichever of
     * the two the suit network sees more surely as a suit */
    bool has_beside = false;
    float suit_beside[SUIT_IN];
    /* the index's column holds only faint ink beside stronger ink (Ink) */
    bool faint_index = false;
    /* found only at the palest level (read.cpp PALE_INK) */
    bool pale = false;
    /* where the rank's box starts from the card's corner, in shares of
     * the card's width (across) and height (down) as the quad lays it */
    float rank_u = 0, rank_v = 0;
    /* the rank's box height, in shares of the card's height */
    float rank_h = 0;
};

/* A provisional piece of read.cpp's label_pieces(): box (inclusive),
 * area, first 2 x 2 block in raster order. */
struct CcBox {
    int x0, y0, x1, y1, area, first;
};

/* A piece of ink's box in a corner's patch (read.cpp index_features()),
 * columns x0 to x1 and rows y0 to y1, each inclusive-exclusive. */
struct PieceBox {
    int x0, y0, x1, y1;
    int w() const { return x1 - x0; }
    int h() const { return y1 - y0; }
    void add(const PieceBox &b)
    {
        x0 = std::min(x0, b.x0);
        y0 = std::min(y0, b.y0);
        x1 = std::max(x1, b.x1);
        y1 = std::max(y1, b.y1);
    }
};

/* A run of ink, columns x0 to x1 of row y, and its provisional label */
struct CcRun {
    int x0, x1, y, label;
};

/* A corner's patch as index_features() cut it (the patch and its Lab),
 * kept for a second reading of the same corner of the same image: image
 * is the image's number (ReadScratch::image) and pixels its first byte,
 * src the corner's quad as turned for it. */
struct CutCorner {
    unsigned image = 0;
    const uchar *pixels = nullptr;
    cv::Point2f src[4];
    cv::Mat patch, lab;
};

/* Scratch images reused between cards. */
struct ReadScratch {
    cv::Mat big, dist, ink, labels, stats, cents, glyph, tmp;
    /* the patch of the corner read last and its Lab: views of one of
     * cut[] */
    cv::Mat patch, lab;
    cv::Mat lab_ch[3]; /* lab's channels apart */
    /* The image being read, numbered by the caller: a corner read again
     * (against other paper, other ink) reuses its patch, cut before from
     * the same image's pixels. 0 (the default) reuses nothing: the
     * caller must change the number whenever the pixels change. */
    unsigned image = 0;
    CutCorner cut[2];
    int cut_next = 0; /* the slot of cut[] the next new patch takes */
    /* parting a piece that may be two glyphs (read.cpp: split_piece) */
    cv::Mat sub, sublab, substats, subcents, own, own_prev;
    /* connected pieces (read.cpp: label_pieces): provisional labels'
     * parents, their boxes, the runs of ink, their final numbers (the
     * runs and numbers of the last call stay, for read.cpp's
     * piece_peaks) */
    std::vector<int> cc_parent, cc_final;
    std::vector<CcBox> cc_box;
    std::vector<CcRun> cc_runs;
    std::vector<std::pair<int, int>> cc_order;
    /* index_features()'s pieces: those of the rank and of the suit, each
     * piece's box, area, whether it may be a glyph, and its strongest ink
     * (a frame reads some sixty corners: grown once, these allocate for
     * none of them) */
    std::vector<int> rank_ids, suit_ids, areas;
    std::vector<PieceBox> boxes;
    std::vector<char> keep;
    std::vector<float> peak_d;
};

/* How far a Lab pixel (l, a, b) is from the paper (pl, pa, pb): the
 * difference in lightness or 1.6 times that in chroma, whichever is more.
 * Ink is what lies far from the paper. */
inline float ink_distance(float l, float a, float b, float pl, float pa,
                          float pb)
{
    float dl = std::fabs(l - pl);
    float da = a - pa, db = b - pb;
    return std::max(dl, 1.6f * std::sqrt(da * da + db * db));
}

/* The distance above which a patch is ink, from the histogram hd of its
 * distances (256 bins of one, total counted): 0.42 of the 98.5th
 * percentile (the ink's own level), 26 at least. */
float ink_threshold(const int hd[256], long total);

/* How strongly a pixel at distance d from the paper is ink, for the
 * networks' glyphs: 0 at half the threshold thr, 1 at 1.5 times. */
inline float ink_strength(float d, float thr)
{
    return std::min(1.f, std::max(0.f, (d - 0.5f * thr) / thr));
}

/* ink: 255 where the distance dist (CV_32F) is above level, else 0. */
void ink_mask(const cv::Mat &dist, float level, cv::Mat &ink);

/*
 * The suit network's input for the pieces ids of labels inside box b: the
 * glyph of their ink strength (strength, CV_32F) and its proportions, and
 * the colour of their ink in lab against the paper's lightness pl. tmp is
 * scratch.
 */
void suit_features(const cv::Mat &strength, const cv::Mat &labels,
                   const cv::Mat &lab, const std::vector<int> &ids,
                   const cv::Rect &b, float pl, cv::Mat &tmp,
                   float suit[SUIT_IN]);

/* The multiple warp_shrunk() warps a quad of width quad_w at, for a card
 * card_w pixels wide: a big card is warped larger and shrunk, not
 * aliased (1 to 4). */
inline int warp_multiple(float quad_w, float card_w)
{
    return std::max(1, std::min(4, (int)std::ceil(quad_w / card_w / 1.4f)));
}

/*
 * Quad src of img (BGR) warped onto out (size pixels), its corners landing
 * on dst; warped at mul times the size and shrunk (INTER_AREA) when mul > 1,
 * so that a big card is not aliased. big is scratch.
 */
void warp_shrunk(const cv::Mat &img, const cv::Point2f src[4],
                 const cv::Point2f dst[4], cv::Size size, int mul,
                 cv::Mat &big, cv::Mat &out);

/* What index_features() takes for the paper the ink is measured from:
 * the patch's commonest lightness (a corner is mostly paper, whatever its
 * colour, dark decks' too), or the commonest lightness of its pixels with
 * little colour, within NEUTRAL_CHROMA of grey in a and b: for a court
 * whose picture fills more of the corner than its paper does (the red
 * robe of kde-tigullio-international's king of hearts, on paper shaded
 * from grey to white, was taken for the paper and the index was lost in
 * it). */
enum class Paper { commonest, neutral, shaded };
constexpr int NEUTRAL_CHROMA = 20;

/* Paper::shaded: a hard edge of shadow across a corner leaves two papers
 * there, white in the light and grey in the shade, and the sunlit one,
 * far lighter, sets the level ink must reach so high that an index in
 * the shade falls under it (real IMG_2475: an ace's far index in a
 * book's shadow). The paper is then the darker of the two lightness
 * peaks of the pixels with little colour (as Paper::neutral counts
 * them), the commonest and the next, at least SHADE_APART of the 32 bins
 * of 8 levels apart and SHADE_SHARE of the commonest; and what is lighter
 * than it is paper too: a card's ink is darker than its paper, or
 * coloured. No second peak, no reading. */
constexpr int SHADE_APART = 8;
constexpr float SHADE_SHARE = 0.25f;

/* How index_features() sets the level that ink must reach: from the
 * strongest ink of the whole patch, or of the index's column alone (the
 * card's edge to INDEX_COLUMN of its width in). A court's index printed
 * pale, or washed out by the camera, beside a picture in strong colours
 * falls below the patch's level; IndexFeat::faint_index tells when the
 * column's level is under FAINT_INDEX of the patch's on paper of
 * lightness FAINT_PAPER or more, and only then is reading the column
 * against its own level anything new. On dark paper it is a back's
 * (bench_cards' dark backs were read again for nothing, two a frame). */
enum class Ink { patch, index_column };
constexpr float INDEX_COLUMN = 0.12f, FAINT_INDEX = 0.6f, FAINT_PAPER = 128;

/*
 * The index at corner 0 (q[0], the quad's top-left as ordered) or 2 (q[2],
 * the card turned half way) of quad q (clockwise, q[0]-q[1] a short side)
 * in img (BGR), its ink measured from the paper as paper says and held
 * to the level ink says. Returns false when no rank above a suit was
 * found (or, for the neutral paper, when under a quarter of the patch is
 * neutral; for the index column's level, when that column's ink is not
 * faint). f.faint_index is set either way. debug, when given,
 * receives the patch with the pieces drawn.
 */
bool index_features(const cv::Mat &img, const cv::Point2f q[4], int corner,
                    ReadScratch &s, IndexFeat &f, cv::Mat *debug = nullptr,
                    Paper paper = Paper::commonest, Ink ink = Ink::patch);

/*
 * The 8-connected pieces of the non-zero pixels of bin (CV_8U) into
 * labels (CV_32S, bin's size; 0 off the pieces), numbered 1..n-1 exactly
 * as cv::connectedComponents() numbers them with its default algorithm
 * (Spaghetti, on 2 x 2 blocks, with one thread or several): by the first
 * block, in raster order of blocks, that holds a pixel of the piece. The
 * glyph logic breaks ties by that number, so it must not change. stats,
 * when given, gets cv::connectedComponentsWithStats()'s columns
 * (CC_STAT_LEFT, TOP, WIDTH, HEIGHT, AREA) for rows 1 to n-1 (row 0, the
 * background, is left zero: nothing reads it). Returns n. Done here
 * because a patch is so small that OpenCV's setup cost as much as the
 * labelling; the vectors of s are scratch.
 */
int label_pieces(const cv::Mat &bin, cv::Mat &labels, cv::Mat *stats,
                 ReadScratch &s);

} // namespace fwv

#endif
