/*
 * index_hunt.cpp - cards found from their index alone (index_hunt.h).
 */
#include "index_hunt.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

namespace fwv
{

namespace
{

/* Ink: darker than the mean lightness around it by HUNT_INK (of 255),
 * where that mean is at least HUNT_PAPER (index_hunt.h): print on
 * paper, not the dark patches of a table or of the clutter on it. */
constexpr int HUNT_INK = 30;

/* A frame with less than 1 / TABLE_LEAST_OF of its pixels the table's
 * paper (light, the table's colour) is not hunted. */
constexpr long TABLE_LEAST_OF = 100;

/* Off the table, the paper hunted on is at least this broad: twice the
 * frame's shorter side over OFF_BROAD_OF (9 px of bench_cards' 640 x 360
 * work frame, where a card is some 45 px wide). */
constexpr int OFF_BROAD_OF = 80;
/* What the opening keeps of a card's paper is at least OFF_LEAST times
 * the square of half the opening's width: a wedge of paper between
 * cards found, or a strip of one that its quad leaves out, is less. */
constexpr int OFF_LEAST = 25;

/* A glyph's size (its box's longer side), in pixels: at least
 * GLYPH_MIN, at most the frame's shorter side over GLYPH_MOST_OF. */
constexpr int GLYPH_MIN = 5, GLYPH_MOST_OF = 6;

/* The suit's centre lies this many rank sizes from the rank's, and the
 * suit is this many rank sizes big. */
constexpr float SUIT_FROM = 0.6f, SUIT_TO = 2.0f;
constexpr float SUIT_SMALL = 0.45f, SUIT_BIG = 1.3f;

/* An index stands apart towards the card's edge: around the pair's
 * middle, within ALONE_R of the rank's size, other ink is at most
 * ALONE_INK of the pair's own, counted where it lies no further towards
 * the card's body (across the index) than ALONE_BODY of the rank's size
 * (a pip may lie close beside the index, on the body's side). */
constexpr float ALONE_R = 1.5f, ALONE_INK = 0.25f, ALONE_BODY = 0.3f;
/* Off the table, the clutter's print may lie close beyond the card's
 * edges: ink further than OFF_CARD of the rank's size left of its centre
 * or above it lies past the card's edge (the rank's centre lies about
 * 0.7 of its size from the card's side, 0.8 from its top) and does not
 * count against the index standing apart. */
constexpr float OFF_CARD = 0.7f;
/* A piece longer than LINE_LONG rank sizes is a line, not print that
 * crowds an index: the card's edge or its shadow beside its index. */
constexpr float LINE_LONG = 2.5f;

/* A rank is taller than wide (its width across the index at most
 * RANK_WIDE of its height), and taller than its suit (the suit's height
 * at most SUIT_TALL of the rank's): pips side by side are neither. */
constexpr float RANK_WIDE = 0.95f, SUIT_TALL = 0.95f;

/* The ring about a rank on which the paper must be the table's colour,
 * in rank sizes (the index's margin, the card's paper about it). */
constexpr float TABLE_RING = 1.2f;

/* Piece p's extents along unit vector d and across it (its pixels'
 * projections). */
cv::Point2f extents(const cv::Mat &labels, const HuntPiece &p, cv::Point2f d)
{
    float lo = 1e9f, hi = -1e9f, alo = 1e9f, ahi = -1e9f;
    for (int y = p.box.y; y < p.box.y + p.box.height; y++) {
        const int *l = labels.ptr<int>(y);
        for (int x = p.box.x; x < p.box.x + p.box.width; x++)
            if (l[x] == p.id) {
                const float dx = (float)x - p.c.x, dy = (float)y - p.c.y;
                const float t = dx * d.x + dy * d.y, a = dy * d.x - dx * d.y;
                lo = std::min(lo, t);
                hi = std::max(hi, t);
                alo = std::min(alo, a);
                ahi = std::max(ahi, a);
            }
    }
    if (hi < lo)
        return cv::Point2f(0, 0);
    return cv::Point2f(hi - lo + 1, ahi - alo + 1);
}

/* Whether offset d from a rank's centre lies further than edge against
 * right, or up the card (against down, right's turn): beyond the card's
 * edges (OFF_CARD). */
bool beyond_card(cv::Point2f d, cv::Point2f right, float edge)
{
    const cv::Point2f down(-right.y, right.x);
    return d.dot(right) < -edge || d.dot(down) < -edge;
}

/* Ink about the middle m of pieces a and b within radius r that belongs
 * to neither, where it lies at most body from m along unit vector right;
 * of pieces no longer than longest (stats: connectedComponentsWithStats'):
 * a longer piece is a line, the card's own edge or its shadow. With
 * edge over 0, ink further than edge from the rank's centre rc against
 * right or up the card (against down, right's turn) lies beyond the
 * card's edges and is not counted. */
int other_ink(const cv::Mat &labels, const cv::Mat &stats, cv::Point2f m,
              float r, cv::Point2f right, float body, int a, int b,
              float longest, cv::Point2f rc, float edge)
{
    const int x0 = std::max(0, (int)std::floor(m.x - r)),
              x1 = std::min(labels.cols - 1, (int)std::ceil(m.x + r)),
              y0 = std::max(0, (int)std::floor(m.y - r)),
              y1 = std::min(labels.rows - 1, (int)std::ceil(m.y + r));
    int n = 0;
    const float r2 = r * r;
    for (int y = y0; y <= y1; y++) {
        const int *l = labels.ptr<int>(y);
        const float dy = (float)y - m.y;
        for (int x = x0; x <= x1; x++) {
            const float dx = (float)x - m.x;
            if (l[x] == 0 || l[x] == a || l[x] == b ||
                dx * dx + dy * dy > r2 || dx * right.x + dy * right.y > body)
                continue;
            if (edge > 0 &&
                beyond_card(cv::Point2f((float)x - rc.x, (float)y - rc.y),
                            right, edge))
                continue;
            const int *st = stats.ptr<int>(l[x]);
            n += (float)std::max(st[cv::CC_STAT_WIDTH],
                                 st[cv::CC_STAT_HEIGHT]) <= longest;
        }
    }
    return n;
}

/* Whether most of the ring of radius rad about c (inside the frame) is
 * set in mask. With edge over 0, only the points of the ring no further
 * than edge from c against right or against down (right's turn: up the
 * card) count: those further lie beyond the card's edges. */
bool mostly_on(const cv::Mat &mask, cv::Point2f c, float rad,
               cv::Point2f right = {}, float edge = 0)
{
    int in = 0, table = 0;
    for (int k = 0; k < 16; k++) {
        const float a = (float)k * (float)(CV_PI / 8);
        const cv::Point2f d(rad * std::cos(a), rad * std::sin(a));
        const int x = (int)std::lround(c.x + d.x),
                  y = (int)std::lround(c.y + d.y);
        if (x < 0 || y < 0 || x >= mask.cols || y >= mask.rows)
            continue;
        if (edge > 0 && beyond_card(d, right, edge))
            continue;
        in++;
        table += mask.at<uchar>(y, x) != 0;
    }
    return 2 * table > in;
}

/* The side of the box the mean lightness about a pixel is taken in, for
 * a frame whose shorter side is short_side. */
int blur_size(int short_side)
{
    return std::max(9, short_side / 24) | 1;
}

} // namespace

/* The indexes printed on paper (CV_8U, light's size: 255 where a glyph's
 * paper may lie) into out, the larger rank first; a rank's ring (about
 * it, TABLE_RING of its size) must lie mostly on ring (255). With
 * off_card, the ink and the ring beyond the card's edges (OFF_CARD) do
 * not count. short_side: the whole frame's, which light may be part of. */
static void hunt_on(const cv::Mat &light, const cv::Mat &paper,
                    const cv::Mat &ring, bool off_card, int short_side,
                    HuntScratch &s, std::vector<IndexSeed> &out)
{
    const int k = blur_size(short_side);
    cv::blur(light, s.mean, cv::Size(k, k));
    cv::blur(paper, s.table_mean, cv::Size(k, k));
    /* ink only where a quarter about it or more is the paper hunted:
     * the print of the cards the finder told from the table is not cut
     * into pieces */
    s.ink.create(light.size(), CV_8U);
    for (int y = 0; y < light.rows; y++) {
        const uchar *l = light.ptr<uchar>(y), *m = s.mean.ptr<uchar>(y),
                    *t = s.table_mean.ptr<uchar>(y);
        uchar *o = s.ink.ptr<uchar>(y);
        for (int x = 0; x < light.cols; x++)
            o[x] = m[x] >= HUNT_PAPER && l[x] + HUNT_INK < m[x] && t[x] >= 64
                       ? 255
                       : 0;
    }
    const int n = cv::connectedComponentsWithStats(s.ink, s.labels, s.stats,
                                                   s.cents, 8, CV_32S);
    const int most = short_side / GLYPH_MOST_OF;
    std::vector<HuntPiece> &glyphs = s.glyphs;
    glyphs.clear();
    for (int i = 1; i < n; i++) {
        const int *st = s.stats.ptr<int>(i);
        const cv::Rect box(st[cv::CC_STAT_LEFT], st[cv::CC_STAT_TOP],
                           st[cv::CC_STAT_WIDTH], st[cv::CC_STAT_HEIGHT]);
        const int area = st[cv::CC_STAT_AREA];
        const int size = std::max(box.width, box.height);
        if (size < GLYPH_MIN || size > most || area < 8 ||
            std::min(box.width, box.height) < 2 ||
            area * 20 < box.width * box.height * 3)
            continue;
        const double *c = s.cents.ptr<double>(i);
        glyphs.push_back(
            HuntPiece{i, box, area, cv::Point2f((float)c[0], (float)c[1])});
    }
    s.found.clear();
    for (const HuntPiece &r : glyphs) {
        const float gr = (float)r.size();
        /* off the table, the ring is tried once the card's turn is
         * known (the clutter beside the card is no paper) */
        if (!off_card && !mostly_on(ring, r.c, TABLE_RING * gr))
            continue;
        for (const HuntPiece &t : glyphs) {
            if (t.id == r.id)
                continue;
            const cv::Point2f d = t.c - r.c;
            const float dist = std::sqrt(d.x * d.x + d.y * d.y);
            if (dist < SUIT_FROM * gr || dist > SUIT_TO * gr)
                continue;
            const float gt = (float)t.size();
            if (gt < SUIT_SMALL * gr || gt > SUIT_BIG * gr)
                continue;
            const cv::Point2f down = d * (1.f / dist),
                              right(down.y, -down.x);
            if (off_card && !mostly_on(ring, r.c, TABLE_RING * gr, right,
                                       OFF_CARD * gr))
                continue;
            const cv::Point2f m = (r.c + t.c) * 0.5f;
            const int other =
                other_ink(s.labels, s.stats, m, ALONE_R * gr, right,
                          ALONE_BODY * gr, r.id, t.id, LINE_LONG * gr, r.c,
                          off_card ? OFF_CARD * gr : 0.f);
            if (other > ALONE_INK * (float)(r.area + t.area))
                continue;
            const cv::Point2f re = extents(s.labels, r, down),
                              te = extents(s.labels, t, down);
            if (re.y > RANK_WIDE * re.x || te.x > SUIT_TALL * re.x)
                continue;
            s.found.emplace_back(
                gr, IndexSeed{r.c, down, re.x,
                              (float)other / (float)(r.area + t.area)});
        }
    }
    std::stable_sort(s.found.begin(), s.found.end(),
                     [](const std::pair<float, IndexSeed> &a,
                        const std::pair<float, IndexSeed> &b) {
                         return a.first > b.first;
                     });
    for (const auto &f : s.found)
        out.push_back(f.second);
}

/* Whether light and off_table are of a size and a type to hunt in. */
static bool huntable(const cv::Mat &light, const cv::Mat &off_table)
{
    return !light.empty() && light.type() == CV_8U && light.cols >= 32 &&
           light.rows >= 32 && off_table.size() == light.size() &&
           off_table.type() == CV_8U;
}

void hunt_indexes(const cv::Mat &light, const cv::Mat &off_table,
                  HuntScratch &s, std::vector<IndexSeed> &out)
{
    out.clear();
    if (!huntable(light, off_table))
        return;
    /* the table's own paper: light, and the table's colour to the finder.
     * A frame with little of it (a felt table, the cards on it found)
     * has nothing to hunt */
    cv::compare(light, HUNT_PAPER, s.table, cv::CMP_GE);
    cv::compare(off_table, 0, s.on_table, cv::CMP_EQ);
    cv::bitwise_and(s.table, s.on_table, s.table);
    if ((long)cv::countNonZero(s.table) * TABLE_LEAST_OF < (long)light.total())
        return;
    hunt_on(light, s.table, s.on_table, false, std::min(light.cols, light.rows),
            s, out);
}

void hunt_indexes_off_table(const cv::Mat &light, const cv::Mat &off_table,
                            const cv::Mat &free, HuntScratch &s,
                            std::vector<IndexSeed> &out)
{
    out.clear();
    if (!huntable(light, off_table) || free.size() != light.size() ||
        free.type() != CV_8U)
        return;
    /* light paper off the table where no card was read: a card lying on
     * clutter (a book, a game's box, a plate) that the finder found no
     * outline for */
    cv::compare(light, HUNT_PAPER, s.table, cv::CMP_GE);
    cv::bitwise_and(s.table, off_table, s.table);
    cv::bitwise_and(s.table, free, s.table);
    /* a card's paper is broad: the slivers about the cards found, a
     * back's light border, a glint are not. The hunt looks only about
     * the paper that an opening of OFF_BROAD_OF keeps (a felt table's frame
     * has little or none: it costs a few passes of compares) */
    const int short_side = std::min(light.cols, light.rows);
    const int r = std::max(2, short_side / OFF_BROAD_OF);
    cv::erode(s.table, s.ink,
              cv::getStructuringElement(cv::MORPH_RECT, {2 * r + 1, 2 * r + 1}));
    const cv::Rect broad = cv::boundingRect(s.ink);
    if (broad.empty() ||
        (long)cv::countNonZero(s.ink(broad)) < (long)OFF_LEAST * r * r)
        return;
    /* the paper the opening keeps lies within r of what is left; the
     * index on it, and the ring about it, within a glyph's size more */
    const int grow = r + short_side / GLYPH_MOST_OF;
    const cv::Rect at =
        cv::Rect(broad.x - grow, broad.y - grow, broad.width + 2 * grow,
                 broad.height + 2 * grow) &
        cv::Rect(0, 0, light.cols, light.rows);
    const cv::Mat paper = s.table(at);
    hunt_on(light(at), paper, paper, true, short_side, s, out);
    for (IndexSeed &sd : out)
        sd.rank += cv::Point2f((float)at.x, (float)at.y);
}

} // namespace fwv
