/*
 * pips.cpp - a number card read from its pips (see pips.h).
 */
#include "pips.h"

#include "lab.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace fwv {

namespace {

/* The face, upright: half the index reader's canonical card (a pip is
 * still 10 pixels or more across). */
constexpr int FW = CW / 2, FH = CH / 2;
/* The card less its margins (a quad a pixel or two off takes in table
 * there), and the boxes in its four corners where indexes are printed
 * (some decks' index suit reaches down to 0.42 of the card): what lies in
 * these is not a pip. The pips' outer columns lie further in (their
 * centres at a fifth of the width or more). */
constexpr float EDGE_X = 0.04f, EDGE_Y = 0.03f;
constexpr float INDEX_X = 0.17f, INDEX_Y = 0.45f;

/* Whether piece p, cut by the face's margin, is the thin line some decks
 * print round the face a little inside the card's edge (ar-bellot,
 * ar-anglo-poker, some training decks): one piece whose box is nearly
 * the face's (BORDER_SPAN each way) and that fills little of it
 * (BORDER_FILL). The 10d of ar-bellot in easy scene 13300, its quad
 * right, went unread: its border, 252 pixels in a box of 75 x 105, passed
 * for a pip cut by the margin. eval_cards, 600 scenes each: read right
 * easy seed 13000 2758 -> 2759, hard seeds 5000 and 9000 2655 -> 2657 and
 * 2590 -> 2591 (a 3h read 3d at 0.36 now right), training decks (seed
 * 5000, 300 easy and 300 hard) 1337 -> 1338 and 1239 -> 1241 (a 9h read
 * 6h now right); easy seeds 5000, 9000 and 14000 and real train/ the
 * same, line by line. */
constexpr float BORDER_SPAN = 0.8f, BORDER_FILL = 0.1f;

bool card_border(const PipPiece &p)
{
    return (float)p.w > BORDER_SPAN * FW && (float)p.h > BORDER_SPAN * FH &&
           (float)p.area < BORDER_FILL * (float)(p.w * p.h);
}

/* Whether point (x, y) of the face lies in one of the boxes of its
 * corners where indexes are printed (INDEX_X, INDEX_Y). */
bool in_index_box(float x, float y)
{
    return (x < INDEX_X * FW || x > (1 - INDEX_X) * FW) &&
           (y < INDEX_Y * FH || y > (1 - INDEX_Y) * FH);
}

/* Whether face pixel (x, y), by its middle, lies in an index box. */
bool in_index_box(int x, int y)
{
    return in_index_box((float)x + 0.5f, (float)y + 0.5f);
}

/* Piece p (its pixels those of labels equal to p.id) less its pixels in
 * the index boxes (in_index_box()): a pip that the blur joined to the
 * index printed beside it, as kde-tigullio-international prints its rank
 * a pixel or two from the top pip on a small card (hard 5236's 4h: its
 * top-left pip, 27 pixels wide with the "4" against 19 for the others,
 * was not of the pips' size, and the card went unread). area is 0 when
 * nothing is left. */
PipPiece outside_index(const PipPiece &p, const cv::Mat &labels)
{
    int x0 = FW, y0 = FH, x1 = -1, y1 = -1, area = 0;
    double sx = 0, sy = 0;
    for (int y = p.y0; y < p.y0 + p.h; y++) {
        const int *l = labels.ptr<int>(y);
        for (int x = p.x0; x < p.x0 + p.w; x++) {
            if (l[x] != p.id || in_index_box(x, y))
                continue;
            x0 = std::min(x0, x);
            x1 = std::max(x1, x);
            y0 = std::min(y0, y);
            y1 = std::max(y1, y);
            sx += x;
            sy += y;
            area++;
        }
    }
    if (area == 0)
        return PipPiece{p.x0, p.y0, 0, 0, 0, p.cx, p.cy, p.id};
    return PipPiece{x0,   y0, x1 - x0 + 1, y1 - y0 + 1, area,
                    (float)(sx / area), (float)(sy / area), p.id};
}

/* How many pixels of piece p (cut by the face's margin: labels equal to
 * p.id) lie within the margin (columns x0 to x1, rows y0 to y1, each
 * inclusive-exclusive) and outside the index boxes (in_index_box()). A
 * sliver of table or of the card's shadowed edge along a side, where the
 * quad lies a pixel off the card, has almost none there, though it may
 * be long or joined to a bit of the index in the corner: hard 5236's 4h
 * (kde-tigullio-international) showed such a line down its left side,
 * 34 x 105 pixels of box and 199 of ink, and hard 5398's 8s a strip
 * along its top joined to its "8" (75 x 11, 247 pixels); each was taken
 * for a pip cut by the margin. A pip the margin cuts keeps much of its
 * ink inside it: a quad cut inside hard 9154's 9c, its foot across a
 * pip, 113 of the piece's 179 pixels. */
int ink_within(const PipPiece &p, const cv::Mat &labels, int x0, int y0,
               int x1, int y1)
{
    int n = 0;
    for (int y = std::max(p.y0, y0); y < std::min(p.y0 + p.h, y1); y++) {
        const int *l = labels.ptr<int>(y);
        for (int x = std::max(p.x0, x0); x < std::min(p.x0 + p.w, x1); x++)
            n += l[x] == p.id && !in_index_box(x, y);
    }
    return n;
}

/* How many rows of piece p (labels equal to p.id, less what lies in the
 * index boxes where without_index) hold more than a quarter of its width
 * of ink: its height less a thin stem. */
int body_rows(const PipPiece &p, const cv::Mat &labels, bool without_index)
{
    int rows = 0;
    for (int y = p.y0; y < p.y0 + p.h; y++) {
        const int *l = labels.ptr<int>(y);
        int n = 0;
        for (int x = p.x0; x < p.x0 + p.w; x++)
            n += l[x] == p.id && !(without_index && in_index_box(x, y));
        rows += 4 * n > p.w;
    }
    return rows;
}

} // namespace

int read_pips(const cv::Mat &img, const cv::Point2f q[4], PipScratch &s,
              float suit_in[SUIT_IN])
{
    /* a big card is warped at a multiple and shrunk, not aliased (a
     * spade's thin stem would come off it) */
    const float wq =
        0.5f * ((float)cv::norm(q[1] - q[0]) + (float)cv::norm(q[2] - q[3]));
    if (!(wq >= 8) || !std::isfinite(wq))
        return 0;
    const cv::Point2f dst[4] = {{0, 0}, {FW, 0}, {FW, FH}, {0, FH}};
    warp_shrunk(img, q, dst, cv::Size(FW, FH), warp_multiple(wq, FW), s.tmp,
                s.face);
    bgr_to_lab(s.face, s.lab);
    /* the paper: the commonest lightness (the card is mostly paper), with
     * its mean chroma */
    int hl[32] = {0};
    for (int y = 0; y < FH; y++) {
        const cv::Vec3b *p = s.lab.ptr<cv::Vec3b>(y);
        for (int x = 0; x < FW; x++)
            hl[p[x][0] >> 3]++;
    }
    const int peak = (int)(std::max_element(hl, hl + 32) - hl);
    double pl = 0, pa = 0, pb = 0;
    long n = 0;
    for (int y = 0; y < FH; y++) {
        const cv::Vec3b *p = s.lab.ptr<cv::Vec3b>(y);
        for (int x = 0; x < FW; x++)
            if (std::abs((p[x][0] >> 3) - peak) <= 1) {
                pl += p[x][0];
                pa += p[x][1];
                pb += p[x][2];
                n++;
            }
    }
    if (n < FW * FH / 3)
        return 0; /* not a face of paper */
    pl /= (double)n;
    pa /= (double)n;
    pb /= (double)n;
    /* ink: far from the paper in lightness or colour (the index reader's
     * measure and threshold) */
    s.dist.create(FH, FW, CV_32F);
    int hd[256] = {0};
    for (int y = 0; y < FH; y++) {
        const cv::Vec3b *p = s.lab.ptr<cv::Vec3b>(y);
        float *d = s.dist.ptr<float>(y);
        for (int x = 0; x < FW; x++) {
            d[x] = ink_distance(p[x][0], p[x][1], p[x][2], (float)pl,
                                (float)pa, (float)pb);
            hd[std::min(255, (int)d[x])]++;
        }
    }
    const float thr = ink_threshold(hd, (long)FW * FH);
    ink_mask(s.dist, thr, s.ink);
    const int nl = cv::connectedComponentsWithStats(s.ink, s.labels, s.stats,
                                                    s.cents, 8, CV_32S);
    const int mx0 = (int)(EDGE_X * FW), mx1 = FW - mx0;
    const int my0 = (int)(EDGE_Y * FH), my1 = FH - my0;
    std::vector<PipPiece> &mid = s.mid, &crossing = s.crossing,
                          &pips = s.pips;
    mid.clear();
    crossing.clear();
    pips.clear();
    int big = 0;
    for (int i = 1; i < nl; i++) {
        const int *st = s.stats.ptr<int>(i);
        PipPiece p{st[cv::CC_STAT_LEFT], st[cv::CC_STAT_TOP],
                   st[cv::CC_STAT_WIDTH], st[cv::CC_STAT_HEIGHT],
                   st[cv::CC_STAT_AREA], (float)s.cents.at<double>(i, 0),
                   (float)s.cents.at<double>(i, 1), i};
        if (in_index_box(p.cx, p.cy))
            continue;
        bool inside = p.x0 >= mx0 && p.y0 >= my0 && p.x0 + p.w <= mx1 &&
                      p.y0 + p.h <= my1;
        bool outside = p.x0 + p.w <= mx0 || p.x0 >= mx1 ||
                       p.y0 + p.h <= my0 || p.y0 >= my1;
        if (inside) {
            mid.push_back(p);
            big = std::max(big, p.area);
        } else if (!outside) {
            crossing.push_back(p);
        }
    }
    if (mid.size() < 2 || big < 12)
        return 0;
    /* specks (noise, a pip's stray pixel) are left out; the pips are the
     * pieces near the largest one's size */
    for (const PipPiece &p : mid)
        if (p.area * 6 >= big)
            pips.push_back(p);
    if (pips.size() < 2 || pips.size() > 10)
        return 0;
    /* each pip measured by its body's height (body_rows()): a club's or
     * spade's stem, a line a pixel or two wide, stays on some pips at
     * the ink's level and breaks off others (hard 9490's 8c of
     * kde-tigullio-international: 18 x 16 with it, 18 x 11 without, the
     * pips taken for pieces of two sizes) */
    for (PipPiece &p : pips)
        p.body = body_rows(p, s.labels, false);
    /* the median of the pips' areas, widths and heights; of an even
     * count of four or more, the lower of the middle two: where the blur
     * joins the two indexes to the two pips beside them, half a 4's pips
     * are too big (hard 9076's 4s of kde-tigullio-international, 26 and
     * 27 pixels wide against 18 and 19), and the upper middle one would
     * be one of them. Of two pips neither tells the true size: the upper
     * (taking the lower lost hard 16247's 2s, a pip of it cut short) */
    auto median = [&](int PipPiece::*field) {
        s.vals.clear();
        for (const PipPiece &p : pips)
            s.vals.push_back(p.*field);
        const size_t k = s.vals.size(), m = k >= 4 ? (k - 1) / 2 : k / 2;
        std::nth_element(s.vals.begin(), s.vals.begin() + m, s.vals.end());
        return s.vals[m];
    };
    float med = (float)median(&PipPiece::area);
    int mw = median(&PipPiece::w), mh = median(&PipPiece::body);
    auto pip_sized = [&](const PipPiece &p) {
        return (float)p.area >= 0.6f * med && (float)p.area <= 1.6f * med &&
               std::abs(p.w - mw) <= std::max(2, mw * 3 / 10) &&
               std::abs(p.body - mh) <= std::max(2, mh * 3 / 10);
    };
    /* a piece out of size that reaches into an index box is taken
     * without its part there (outside_index()), and the sizes measured
     * again */
    bool recut = false;
    for (PipPiece &p : pips)
        if (!pip_sized(p)) {
            const PipPiece c = outside_index(p, s.labels);
            if (c.area > 0 && c.area < p.area) {
                p = c;
                p.body = body_rows(p, s.labels, true);
                recut = true;
            }
        }
    if (recut) {
        med = (float)median(&PipPiece::area);
        mw = median(&PipPiece::w);
        mh = median(&PipPiece::body);
    }
    for (const PipPiece &p : pips)
        if (!pip_sized(p))
            return 0; /* not pips of one size: a picture, an ornament */
    /* nothing of a pip's size cut by the margin (a frame printed round
     * the pips, another card's print, a pip of a quad that misses part of
     * the card), but for the card's own border line (card_border()) and
     * a sliver whose ink lies almost all in the margin or the index boxes
     * (ink_within()) */
    for (const PipPiece &p : crossing)
        if ((float)p.area > 0.25f * med && !card_border(p) &&
            (float)ink_within(p, s.labels, mx0, my0, mx1, my1) > 0.1f * med)
            return 0;
    /* the layout looks the same turned half way round about the middle
     * of the pips (a quad a little off the card moves it from the face's
     * middle, by a tenth at most here); only the 7 and some decks' 9 have
     * one pip without a twin (between two rows). Each pip is placed by
     * its box's middle, not its ink's: a pip printed turned half way
     * round (a heart's point up) has its ink's middle a pixel or two off
     * its box's, and ar-bellot prints its 6's middle row turned (hard
     * 5342's 6h: its middle pips' twins were looked for a few pixels off,
     * and they were taken for pips alone) */
    auto mid_x = [](const PipPiece &p) {
        return (float)p.x0 + 0.5f * (float)(p.w - 1);
    };
    auto mid_y = [](const PipPiece &p) {
        return (float)p.y0 + 0.5f * (float)(p.h - 1);
    };
    float x0 = (float)FW, x1 = 0, y0 = (float)FH, y1 = 0;
    for (const PipPiece &p : pips) {
        x0 = std::min(x0, mid_x(p));
        x1 = std::max(x1, mid_x(p));
        y0 = std::min(y0, mid_y(p));
        y1 = std::max(y1, mid_y(p));
    }
    const float sx = x0 + x1, sy = y0 + y1;
    if (std::fabs(sx - (float)FW) > 0.2f * FW ||
        std::fabs(sy - (float)FH) > 0.2f * FH)
        return 0;
    int alone = 0;
    for (const PipPiece &p : pips) {
        bool twin = false;
        for (const PipPiece &o : pips)
            twin |= std::fabs(sx - mid_x(o) - mid_x(p)) < 0.07f * FW &&
                    std::fabs(sy - mid_y(o) - mid_y(p)) < 0.05f * FH;
        alone += !twin;
    }
    const int count = (int)pips.size();
    if (alone > (count == 7 || count == 9 ? 1 : 0))
        return 0;
    if (count == 7 && alone != 1)
        return 0;
    /* the suit: an upright pip, the highest of the top half */
    const PipPiece *up = nullptr;
    for (const PipPiece &p : pips)
        if (p.cy < 0.45f * FH && (!up || p.cy < up->cy))
            up = &p;
    if (!up)
        return 0;
    const cv::Rect r(up->x0, up->y0, up->w, up->h);
    for (int y = r.y; y < r.y + r.height; y++) {
        float *d = s.dist.ptr<float>(y);
        for (int x = r.x; x < r.x + r.width; x++)
            d[x] = ink_strength(d[x], thr);
    }
    s.ids.assign(1, up->id);
    suit_features(s.dist, s.labels, s.lab, s.ids, r, (float)pl, s.tmp,
                  suit_in);
    return count;
}

} // namespace fwv
