/*
 * read.cpp - a card's corner index as network inputs (read.h).
 */
#include "read.h"
#include "detect.h"
#include "lab.h"
#include "exact.h"

#include <opencv2/core/hal/intrin.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace fwv {

namespace {

/* the patch: a little beyond the card's corner, to a third of its width
 * and over two fifths of its height (in canonical pixels) */
constexpr float U0 = -0.035f * CW, V0 = -0.025f * CH;
constexpr int PW = (int)(0.34f * CW), PH = (int)(0.52f * CH);

/* The lowest level ink is cut at (its distance from the paper): below it
 * is the paper's own grain and noise. The last level index_features()
 * tries, a share of the patch's: an index printed paler than the pips
 * beside it, or washed out by light. eval_cards seeds 5000/9000, 600 easy
 * and 600 hard scenes each: read right 10,884 -> 10,894 (0.4: 10,890;
 * 0.65: 10,899), wrong cards 21 -> 23 (0.4: 22; 0.65: 24), face-down
 * exact 1770 -> 1769; real train/: read right 430 -> 431 (0.4: 432;
 * 0.65: 427), before cards.cpp's read_corner() kept only the sure
 * readings of this level. Tried only on light paper (FAINT_PAPER), as on
 * dark paper the corner is a back's: bench_cards' ten frames under
 * callgrind take 1.295 billion instructions (on all paper 1.304; without
 * this level 1.283). */
constexpr float MIN_INK = 18.f, PALE_INK = 0.55f;

using Box = PieceBox;

/* Scale the ink of the pieces `ids` inside box b into a W x H glyph,
 * keeping its aspect, centred. The box's ink is cut into a view of tmp,
 * grown only when a box is larger than any before, and scaled straight
 * into its place in dst: no glyph's size allocates. */
void put_glyph(const cv::Mat &strength, const cv::Mat &labels,
               const std::vector<int> &ids, const Box &b, int W, int H,
               cv::Mat &tmp_store, float *dst)
{
    cv::Rect r(b.x0, b.y0, b.w(), b.h());
    if (tmp_store.type() != CV_32F || tmp_store.rows < r.height ||
        tmp_store.cols < r.width)
        tmp_store.create(std::max(r.height, tmp_store.rows),
                         std::max(r.width, tmp_store.cols), CV_32F);
    cv::Mat tmp = tmp_store(cv::Rect(0, 0, r.width, r.height));
    for (int y = 0; y < r.height; y++) {
        const float *s = strength.ptr<float>(r.y + y) + r.x;
        const int *l = labels.ptr<int>(r.y + y) + r.x;
        float *o = tmp.ptr<float>(y);
        for (int x = 0; x < r.width; x++) {
            bool in = false;
            for (int id : ids)
                in |= l[x] == id;
            o[x] = in ? s[x] : 0.f;
        }
    }
    double sc = std::min((double)W / r.width, (double)H / r.height);
    int gw = std::max(1, std::min(W, (int)std::lround(r.width * sc)));
    int gh = std::max(1, std::min(H, (int)std::lround(r.height * sc)));
    std::fill(dst, dst + W * H, 0.f);
    int ox = (W - gw) / 2, oy = (H - gh) / 2;
    /* resize() writes into a view of the size and type it makes without
     * allocating (had it made a matrix of its own, dst would hold none
     * of the glyph: checked) */
    cv::Mat g = cv::Mat(H, W, CV_32F, dst)(cv::Rect(ox, oy, gw, gh));
    cv::resize(tmp, g, cv::Size(gw, gh), 0, 0,
               sc < 1 ? cv::INTER_AREA : cv::INTER_LINEAR);
    CV_Assert(g.data == (uchar *)(dst + oy * W + ox));
}

/* Piece `id` of labels (box b, in the patch) may be two glyphs blurred
 * into one: a faint rank and the big suit some decks print beside it. Cut
 * it where its ink is strong: each part above level2 (dist) of at least
 * a twelfth of the piece becomes a piece of its own, grown back by two
 * pixels over the piece's weaker ink; the rest of the piece (a faint
 * glyph, the blur that joined them) is cut into pieces too. New labels
 * are numbered from nl, their boxes and areas appended; the piece keeps
 * no pixel. Returns the number of labels now: nl when the piece has one
 * strong part and little else, and nothing changed. */
int split_piece(const cv::Mat &dist, cv::Mat &labels, int id, const Box &b,
                float level2, int nl, ReadScratch &s, std::vector<Box> &boxes,
                std::vector<int> &areas)
{
    /* views of patch-sized scratch, so no piece's size allocates */
    const cv::Rect r(b.x0, b.y0, b.w(), b.h());
    s.sub.create(PH, PW, CV_8U);
    s.sublab.create(PH, PW, CV_32S);
    s.own.create(PH, PW, CV_32S);
    s.own_prev.create(PH, PW, CV_32S);
    cv::Mat sub = s.sub(r - r.tl()), sublab = s.sublab(r - r.tl()),
            own = s.own(r - r.tl()), prev = s.own_prev(r - r.tl());
    for (int y = 0; y < r.height; y++) {
        const float *d = dist.ptr<float>(r.y + y) + r.x;
        const int *l = labels.ptr<int>(r.y + y) + r.x;
        uchar *o = sub.ptr<uchar>(y);
        for (int x = 0; x < r.width; x++)
            o[x] = l[x] == id && d[x] > level2 ? 255 : 0;
    }
    int n = label_pieces(sub, sublab, &s.substats, s);
    const int min_area = std::max(6, areas[id] / 12);
    /* the new label of each strong part (-1: too small to stand alone) */
    int next = nl;
    for (int k = 1; k < n; k++)
        s.substats.at<int>(k, cv::CC_STAT_LEFT) =
            s.substats.at<int>(k, cv::CC_STAT_AREA) >= min_area ? next++ : -1;
    const int big = next - nl;
    if (big < 1)
        return nl;
    /* own: 0 off the piece, -1 on it and not yet given to a part */
    for (int y = 0; y < r.height; y++) {
        const int *l = labels.ptr<int>(r.y + y) + r.x;
        const int *sl = sublab.ptr<int>(y);
        int *o = own.ptr<int>(y);
        for (int x = 0; x < r.width; x++)
            o[x] = l[x] != id  ? 0
                   : sl[x] > 0 ? s.substats.at<int>(sl[x], cv::CC_STAT_LEFT)
                               : -1;
    }
    /* each round, a pixel not yet given joins a part beside it */
    auto part = [&](int v) { return v >= nl && v < next; };
    for (int grow = 0; grow < 2; grow++) {
        own.copyTo(prev);
        for (int y = 0; y < r.height; y++) {
            const int *p = prev.ptr<int>(y);
            const int *up = y > 0 ? prev.ptr<int>(y - 1) : nullptr;
            const int *dn = y + 1 < r.height ? prev.ptr<int>(y + 1) : nullptr;
            int *o = own.ptr<int>(y);
            for (int x = 0; x < r.width; x++) {
                if (p[x] != -1)
                    continue;
                if (x > 0 && part(p[x - 1]))
                    o[x] = p[x - 1];
                else if (x + 1 < r.width && part(p[x + 1]))
                    o[x] = p[x + 1];
                else if (up && part(up[x]))
                    o[x] = up[x];
                else if (dn && part(dn[x]))
                    o[x] = dn[x];
            }
        }
    }
    /* the rest, in pieces of its own; one strong part with little left
     * beside it is one glyph */
    int rest = 0;
    for (int y = 0; y < r.height; y++) {
        const int *o = own.ptr<int>(y);
        uchar *m = sub.ptr<uchar>(y);
        for (int x = 0; x < r.width; x++) {
            m[x] = o[x] == -1 ? 255 : 0;
            rest += o[x] == -1;
        }
    }
    if (big < 2 && rest < min_area)
        return nl;
    int nr = label_pieces(sub, sublab, nullptr, s);
    for (int y = 0; y < r.height; y++) {
        int *o = own.ptr<int>(y);
        const int *sl = sublab.ptr<int>(y);
        for (int x = 0; x < r.width; x++)
            if (o[x] == -1)
                o[x] = next + sl[x] - 1;
    }
    next += nr - 1;
    boxes.resize(next, Box{PW, PH, 0, 0});
    areas.resize(next, 0);
    boxes[id] = Box{0, 0, 0, 0};
    areas[id] = 0;
    for (int y = 0; y < r.height; y++) {
        int *l = labels.ptr<int>(r.y + y) + r.x;
        const int *o = own.ptr<int>(y);
        for (int x = 0; x < r.width; x++) {
            if (o[x] < nl)
                continue;
            l[x] = o[x];
            boxes[o[x]].add(Box{r.x + x, r.y + y, r.x + x + 1, r.y + y + 1});
            areas[o[x]]++;
        }
    }
    return next;
}

/* Piece `id` (box b) of labels, one strong piece that split_piece could
 * not part, may still be two glyphs printed touching: a K whose arm meets
 * the big heart beside it (cut across columns), a Q whose tail meets the
 * suit below it (across rows). Cut it at its narrowest column (row) in
 * its middle part, where the ink is at most a third of its fullest
 * column's (row's). The part right of (below) the cut becomes label nl,
 * boxes and areas updated. Returns the number of labels now (nl,
 * unchanged, when there is no such waist). */
int cut_at_waist(cv::Mat &labels, int id, const Box &b, int nl,
                 std::vector<Box> &boxes, std::vector<int> &areas, bool rows)
{
    int line[PW > PH ? PW : PH] = {0};
    for (int y = b.y0; y < b.y1; y++) {
        const int *l = labels.ptr<int>(y);
        for (int x = b.x0; x < b.x1; x++)
            line[rows ? y : x] += l[x] == id;
    }
    const int lo = rows ? b.y0 : b.x0, hi = rows ? b.y1 : b.x1;
    int full = 0;
    for (int i = lo; i < hi; i++)
        full = std::max(full, line[i]);
    int best = -1;
    const int i_lo = lo + (int)(0.3f * (float)(hi - lo)),
              i_hi = lo + (int)(0.7f * (float)(hi - lo));
    for (int i = i_lo; i <= i_hi && i < hi; i++)
        if (best < 0 || line[i] < line[best])
            best = i;
    if (best < 0 || 3 * line[best] > full)
        return nl;
    Box first{PW, PH, 0, 0}, second{PW, PH, 0, 0};
    int fa = 0, sa = 0;
    for (int y = b.y0; y < b.y1; y++) {
        int *l = labels.ptr<int>(y);
        for (int x = b.x0; x < b.x1; x++) {
            if (l[x] != id)
                continue;
            Box px{x, y, x + 1, y + 1};
            if ((rows ? y : x) >= best) {
                l[x] = nl;
                second.add(px);
                sa++;
            } else {
                first.add(px);
                fa++;
            }
        }
    }
    boxes[id] = first;
    areas[id] = fa;
    boxes.push_back(second);
    areas.push_back(sa);
    return nl + 1;
}

/* The first column from x on where row b (W wide) is not 0, or W: eight
 * bytes at a time over the blank stretches, which are most of a patch. */
int next_ink(const uchar *b, int x, int W)
{
    for (; x + 8 <= W; x += 8) {
        uint64_t w;
        std::memcpy(&w, b + x, 8);
        if (w)
            break;
    }
    while (x < W && !b[x])
        x++;
    return x;
}

/* The root of provisional label l (a parent is never above its child). */
int cc_root(const std::vector<int> &par, int l)
{
    while (par[(size_t)l] < l)
        l = par[(size_t)l];
    return l;
}

/* Join the sets of provisional labels a and b (the smaller root wins);
 * returns the root. */
int cc_join(std::vector<int> &par, int a, int b)
{
    a = cc_root(par, a);
    b = cc_root(par, b);
    if (a > b)
        std::swap(a, b);
    par[(size_t)b] = a;
    return a;
}

} // namespace

/* read.h */
int label_pieces(const cv::Mat &bin, cv::Mat &labels, cv::Mat *stats,
                 ReadScratch &s)
{
    const int W = bin.cols, H = bin.rows, bw = (W + 1) / 2;
    labels.create(H, W, CV_32S);
    std::vector<int> &par = s.cc_parent;
    std::vector<CcBox> &box = s.cc_box;
    std::vector<CcRun> &runs = s.cc_runs;
    par.assign(1, 0);
    box.resize(1);
    runs.clear();
    /* first pass, a run of ink at a time: a run touching runs of the row
     * above (8-connected: from one column left of it to one right) joins
     * their sets, otherwise it starts a set of its own. Sets are numbered
     * as they start, in raster order, as a pixel at a time would number
     * them; each gathers its box, area and first block (a run's first is
     * its first pixel's) */
    size_t above = 0, above_end = 0;
    for (int y = 0; y < H; y++) {
        const uchar *b = bin.ptr<uchar>(y);
        const size_t row = runs.size();
        size_t k = above;
        for (int x = next_ink(b, 0, W); x < W; x = next_ink(b, x, W)) {
            const int xa = x;
            while (x < W && b[x])
                x++;
            const int xb = x - 1;
            while (k < above_end && runs[k].x1 < xa - 1)
                k++;
            int v = 0;
            for (size_t j = k; j < above_end && runs[j].x0 <= xb + 1; j++)
                v = v ? cc_join(par, v, runs[j].label) : runs[j].label;
            if (!v) {
                v = (int)par.size();
                par.push_back(v);
                box.push_back(CcBox{xa, y, xb, y, 0, INT32_MAX});
            }
            CcBox &c = box[(size_t)v];
            c.x0 = std::min(c.x0, xa);
            c.x1 = std::max(c.x1, xb);
            c.y0 = std::min(c.y0, y);
            c.y1 = std::max(c.y1, y);
            c.area += xb - xa + 1;
            c.first = std::min(c.first, (y / 2) * bw + xa / 2);
            runs.push_back(CcRun{xa, xb, y, v});
        }
        above = row;
        above_end = runs.size();
    }
    /* flatten (in order, each parent already points at its root) and
     * gather each set's box at its root */
    const int np = (int)par.size();
    for (int i = 1; i < np; i++) {
        int r = par[(size_t)i] = par[(size_t)par[(size_t)i]];
        if (r == i)
            continue;
        CcBox &c = box[(size_t)r];
        const CcBox &d = box[(size_t)i];
        c.x0 = std::min(c.x0, d.x0);
        c.x1 = std::max(c.x1, d.x1);
        c.y0 = std::min(c.y0, d.y0);
        c.y1 = std::max(c.y1, d.y1);
        c.area += d.area;
        c.first = std::min(c.first, d.first);
    }
    /* the roots numbered in the order of their first blocks */
    std::vector<std::pair<int, int>> &order = s.cc_order;
    order.clear();
    for (int i = 1; i < np; i++)
        if (par[(size_t)i] == i)
            order.emplace_back(box[(size_t)i].first, i);
    std::sort(order.begin(), order.end());
    std::vector<int> &fin = s.cc_final;
    fin.assign((size_t)np, 0);
    for (size_t k = 0; k < order.size(); k++)
        fin[(size_t)order[k].second] = (int)k + 1;
    for (int i = 1; i < np; i++)
        fin[(size_t)i] = fin[(size_t)par[(size_t)i]];
    const int nlab = (int)order.size() + 1;
    /* each row written once: its runs' numbers and 0 between them */
    size_t at = 0;
    for (int y = 0; y < H; y++) {
        int *l = labels.ptr<int>(y);
        int x = 0;
        for (; at < runs.size() && runs[at].y == y; at++) {
            const CcRun &r = runs[at];
            std::fill(l + x, l + r.x0, 0);
            std::fill(l + r.x0, l + r.x1 + 1, fin[(size_t)r.label]);
            x = r.x1 + 1;
        }
        std::fill(l + x, l + W, 0);
    }
    if (stats) {
        /* nlab rows of room kept from call to call: once the most pieces
         * a patch has held have been seen, no count allocates */
        cv::Size whole(0, 0);
        cv::Point ofs(0, 0);
        if (!stats->empty())
            stats->locateROI(whole, ofs);
        if (stats->type() != CV_32S || stats->cols != 5 || ofs.y != 0 ||
            whole.height < nlab)
            stats->create(std::max(nlab, 2 * whole.height), 5, CV_32S);
        stats->adjustROI(0, nlab - stats->rows, 0, 0);
        std::memset(stats->ptr<int>(0), 0, 5 * sizeof(int));
        for (size_t k = 0; k < order.size(); k++) {
            const CcBox &c = box[(size_t)order[k].second];
            int *st = stats->ptr<int>((int)k + 1);
            st[cv::CC_STAT_LEFT] = c.x0;
            st[cv::CC_STAT_TOP] = c.y0;
            st[cv::CC_STAT_WIDTH] = c.x1 - c.x0 + 1;
            st[cv::CC_STAT_HEIGHT] = c.y1 - c.y0 + 1;
            st[cv::CC_STAT_AREA] = c.area;
        }
    }
    return nlab;
}

float ink_threshold(const int hd[256], long total)
{
    return std::max(26.f, 0.42f * (float)hist_quantile(hd, 256, total, 0.985));
}

void warp_shrunk(const cv::Mat &img, const cv::Point2f src[4],
                 const cv::Point2f dst[4], cv::Size size, int mul,
                 cv::Mat &big, cv::Mat &out)
{
    const float fu = (float)mul;
    cv::Point2f d[4];
    for (int k = 0; k < 4; k++)
        d[k] = cv::Point2f(dst[k].x * fu, dst[k].y * fu);
    cv::Mat M = cv::getPerspectiveTransform(src, d);
    if (mul > 1) {
        warp_linear(img, M, size * mul, big);
        cv::resize(big, out, size, 0, 0, cv::INTER_AREA);
    } else {
        warp_linear(img, M, size, out);
    }
}

/* o[0..n) as ink_mask() makes it from d[0..n): sixteen at a time where
 * the build has vectors, as GCC leaves the plain loop scalar. */
static void ink_run(const float *d, uchar *o, int n, float level)
{
    int x = 0;
#if CV_SIMD128
    const cv::v_float32x4 lv = cv::v_setall_f32(level);
    for (; x + 16 <= n; x += 16) {
        /* a comparison's lanes are all ones or all zeros: packed to
         * bytes, 255 or 0 */
        const cv::v_uint32x4
            a = cv::v_reinterpret_as_u32(cv::v_load(d + x) > lv),
            b = cv::v_reinterpret_as_u32(cv::v_load(d + x + 4) > lv),
            c = cv::v_reinterpret_as_u32(cv::v_load(d + x + 8) > lv),
            e = cv::v_reinterpret_as_u32(cv::v_load(d + x + 12) > lv);
        cv::v_store(o + x, cv::v_pack_b(a, b, c, e));
    }
#endif
    for (; x < n; x++)
        o[x] = d[x] > level ? 255 : 0;
}

void ink_mask(const cv::Mat &dist, float level, cv::Mat &ink)
{
    ink.create(dist.size(), CV_8U);
    if (dist.isContinuous() && ink.isContinuous()) {
        ink_run(dist.ptr<float>(0), ink.ptr<uchar>(0), dist.rows * dist.cols,
                level);
        return;
    }
    for (int y = 0; y < dist.rows; y++)
        ink_run(dist.ptr<float>(y), ink.ptr<uchar>(y), dist.cols, level);
}

void suit_features(const cv::Mat &strength, const cv::Mat &labels,
                   const cv::Mat &lab, const std::vector<int> &ids,
                   const cv::Rect &b, float pl, cv::Mat &tmp,
                   float suit[SUIT_IN])
{
    put_glyph(strength, labels, ids, Box{b.x, b.y, b.x + b.width,
                                         b.y + b.height},
              SW, SH, tmp, suit);
    /* colour of the suit's ink against the paper */
    double sa2 = 0, sl2 = 0, sc = 0;
    int n = 0;
    for (int y = b.y; y < b.y + b.height; y++) {
        const int *l = labels.ptr<int>(y);
        const cv::Vec3b *p = lab.ptr<cv::Vec3b>(y);
        for (int x = b.x; x < b.x + b.width; x++) {
            if (std::find(ids.begin(), ids.end(), l[x]) == ids.end())
                continue;
            sa2 += (double)p[x][1] - 128;
            sc += std::hypot((double)p[x][1] - 128, (double)p[x][2] - 128);
            sl2 += (double)p[x][0] - pl;
            n++;
        }
    }
    n = std::max(1, n);
    suit[SW * SH] = (float)b.width / (float)b.height;
    suit[SW * SH + 1] = (float)(sa2 / n / 40.0);
    suit[SW * SH + 2] = (float)(sc / n / 60.0);
    suit[SW * SH + 3] = (float)(sl2 / n / 100.0);
}

/* The highest distance (dist) on each piece the last label_pieces() call
 * on s found, raised into peak (one per label): read along the runs it
 * kept, so only the ink is read. */
static void piece_peaks(const cv::Mat &dist, const ReadScratch &s,
                        std::vector<float> &peak)
{
    for (const CcRun &r : s.cc_runs) {
        const float *d = dist.ptr<float>(r.y);
        float &p = peak[(size_t)s.cc_final[(size_t)r.label]];
        for (int x = r.x0; x <= r.x1; x++)
            p = std::max(p, d[x]);
    }
}

/* NEUTRAL_CHROMA's test: whether Lab pixel p has little colour. */
static bool grey(const cv::Vec3b &p)
{
    constexpr int C2 = NEUTRAL_CHROMA * NEUTRAL_CHROMA;
    const int da = p[1] - 128, db = p[2] - 128;
    return da * da + db * db < C2;
}

/*
 * The pixels of lab (the patch, Lab) from column ix0 and row iy0 (inside
 * the card) by lightness bin L >> 3: bins[i] = {how many, the sum of
 * their L, of their a, of their b}; with neutral, only the grey() ones.
 * Returns how many pixels were counted. One pass gives index_features()
 * both the histogram its paper's lightness comes from and the paper's
 * sums, which are the sums of three neighbouring bins.
 */
static long paper_bins(const cv::Mat &lab, int ix0, int iy0, bool neutral,
                       int bins[32][4])
{
    /* four sets of bins in turn: paper fills one bin, and a sum would
     * otherwise wait on the sum before it */
    int b4[4][32][4] = {};
    for (int y = iy0; y < lab.rows; y++) {
        const cv::Vec3b *p = lab.ptr<cv::Vec3b>(y);
        for (int x = ix0; x < lab.cols; x++) {
            if (neutral && !grey(p[x]))
                continue;
            int *b = b4[x & 3][p[x][0] >> 3];
            b[0]++;
            b[1] += p[x][0];
            b[2] += p[x][1];
            b[3] += p[x][2];
        }
    }
    long n = 0;
    for (int i = 0; i < 32; i++) {
        for (int k = 0; k < 4; k++)
            bins[i][k] = b4[0][i][k] + b4[1][i][k] + b4[2][i][k] + b4[3][i][k];
        n += bins[i][0];
    }
    return n;
}

/* The patch of the corner whose quad, turned for it, is src (its width
 * wsrc) into s.patch and its Lab into s.lab: warped from img, or the one
 * cut before from the same image (s.image, when not 0) at the same
 * quad. A face whose index went unread is read again from the same
 * corners (analyse() in cards.cpp: against the neutral paper, at the
 * index column's ink): one corner reading in eight of bench_cards'.
 * Under callgrind its ten frames took 3.462 -> 3.381 billion
 * instructions, every reading the same. Nothing may write into the
 * patch or its Lab once cut (test_read_cut). */
static void cut_corner(const cv::Mat &img, const cv::Point2f src[4], float wsrc,
                       ReadScratch &s)
{
    CutCorner *c = nullptr;
    if (s.image != 0)
        for (CutCorner &k : s.cut)
            if (k.image == s.image && k.pixels == img.data &&
                std::equal(src, src + 4, k.src))
                c = &k;
    if (!c) {
        c = &s.cut[s.cut_next];
        s.cut_next = (s.cut_next + 1) % 2;
        const cv::Point2f dst[4] = {
            {-U0, -V0}, {CW - U0, -V0}, {CW - U0, CH - V0}, {-U0, CH - V0}};
        /* a big card is warped at a multiple and shrunk, not aliased */
        warp_shrunk(img, src, dst, cv::Size(PW, PH), warp_multiple(wsrc, CW),
                    s.big, c->patch);
        bgr_to_lab(c->patch, c->lab);
        c->image = s.image;
        c->pixels = img.data;
        std::copy(src, src + 4, c->src);
    }
    s.patch = c->patch;
    s.lab = c->lab;
}

bool index_features(const cv::Mat &img, const cv::Point2f q[4], int corner,
                    ReadScratch &s, IndexFeat &f, cv::Mat *debug, Paper paper,
                    Ink ink)
{
    f.ok = false;
    f.faint_index = false;
    f.pale = false;
    cv::Point2f src[4];
    for (int k = 0; k < 4; k++)
        src[k] = q[(k + corner) % 4];
    float wsrc = 0.5f * ((float)cv::norm(src[1] - src[0]) +
                         (float)cv::norm(src[2] - src[3]));
    if (!(wsrc >= 4) || !std::isfinite(wsrc))
        return false;
    cut_corner(img, src, wsrc, s);
    /* the paper: the commonest lightness inside the card (a corner is
     * mostly paper; on a dark deck the paper is dark), with that level's
     * mean chroma; or, asked for the neutral paper, the commonest
     * lightness of the pixels with little colour (NEUTRAL_CHROMA); or,
     * asked for the shaded paper, the darker of their two peaks (read.h
     * Paper::shaded) */
    const int ix0 = (int)std::ceil(-U0) + 1, iy0 = (int)std::ceil(-V0) + 1;
    const bool neutral = paper == Paper::neutral || paper == Paper::shaded;
    int bins[32][4];
    const long n_bin = paper_bins(s.lab, ix0, iy0, neutral, bins);
    if (neutral && 4 * n_bin < (long)(PH - iy0) * (PW - ix0))
        return false; /* too little paper to read against */
    int peak = 0;
    auto hl = [&](int i) { return bins[i][0]; };
    /* the histogram smoothed, 1 2 1 */
    auto smooth = [&](int i) {
        return hl(i > 0 ? i - 1 : 0) + 2 * hl(i) + hl(i < 31 ? i + 1 : 31);
    };
    for (int i = 1; i < 32; i++)
        if (smooth(i) > smooth(peak))
            peak = i;
    if (paper == Paper::shaded) {
        int second = -1;
        for (int i = 0; i < 32; i++)
            if (std::abs(i - peak) >= SHADE_APART &&
                (second < 0 || smooth(i) > smooth(second)))
                second = i;
        if (second < 0 || smooth(second) < SHADE_SHARE * smooth(peak))
            return false;
        peak = std::min(peak, second);
    }
    /* whole numbers: the sums are exact, as the doubles they become */
    long pls = 0, pas = 0, pbs = 0;
    long sn = 0;
    for (int i = std::max(0, peak - 1); i <= std::min(31, peak + 1); i++) {
        sn += bins[i][0];
        pls += bins[i][1];
        pas += bins[i][2];
        pbs += bins[i][3];
    }
    sn = std::max(1L, sn);
    const float pl = (float)((double)pls / (double)sn),
                pa = (float)((double)pas / (double)sn),
                pb = (float)((double)pbs / (double)sn);
    s.dist.create(PH, PW, CV_32F);
    /* with the paper in the shade, what is lighter is paper too: its
     * lightness is taken as the paper's (a loop of its own, so that the
     * other readings pay nothing for it) */
    const bool lighter_is_paper = paper == Paper::shaded;
    int hd[256] = {0}, hcol[256] = {0};
    long tot = 0, tcol = 0;
    /* the index's column: from the card's edge to INDEX_COLUMN in */
    const int col_x1 = std::min(PW, (int)std::lround(-U0 + INDEX_COLUMN * CW));
    /* the channels apart and the histogram in a loop of its own: the
     * distances then vectorise */
    cv::split(s.lab, s.lab_ch);
    for (int y = 0; y < PH; y++) {
        const uchar *cl = s.lab_ch[0].ptr<uchar>(y),
                    *ca = s.lab_ch[1].ptr<uchar>(y),
                    *cb = s.lab_ch[2].ptr<uchar>(y);
        float *d = s.dist.ptr<float>(y);
        if (lighter_is_paper)
            for (int x = 0; x < PW; x++)
                d[x] = ink_distance(std::min((float)cl[x], pl), (float)ca[x],
                                    (float)cb[x], pl, pa, pb);
        else
            for (int x = 0; x < PW; x++)
                d[x] = ink_distance((float)cl[x], (float)ca[x], (float)cb[x],
                                    pl, pa, pb);
        if (y >= iy0) {
            for (int x = ix0; x < PW; x++) {
                hd[std::min(255, (int)d[x])]++;
                tot++;
            }
            /* the column's histogram in a loop of its own: counted in
             * the same loop as the patch's, the index stage took 0.3 ms
             * more a frame (bench_cards, stage times) for about the same
             * instructions */
            for (int x = ix0; x < col_x1; x++)
                hcol[std::min(255, (int)d[x])]++;
            tcol += col_x1 - ix0;
        }
    }
    const float thr_all = ink_threshold(hd, tot),
                thr_col = ink_threshold(hcol, tcol);
    f.faint_index = pl >= FAINT_PAPER && thr_col < FAINT_INDEX * thr_all;
    if (ink == Ink::index_column && !f.faint_index)
        return false; /* the same threshold: nothing new to read */
    const float thr = ink == Ink::index_column ? thr_col : thr_all;
    /* pieces blurred into each other (a suit touching a pip) come apart
     * at a higher threshold: try that when the first finds no index */
    const float cx0 = -U0, cy0 = -V0; /* the card's corner in the patch */
    bool found = false;
    int nl = 0, seed = -1, suit = -1, side_suit = -1;
    Box rb{0, 0, 0, 0};
    /* the pieces' scratch, kept between calls (read.h ReadScratch) */
    std::vector<int> &rank_ids = s.rank_ids, &suit_ids = s.suit_ids,
                     &areas = s.areas;
    std::vector<Box> &boxes = s.boxes;
    std::vector<char> &keep = s.keep;
    std::vector<float> &peak_d = s.peak_d;
    rank_ids.clear();
    /* whether piece i is part of the rank */
    auto in_rank = [&rank_ids](int i) {
        return std::find(rank_ids.begin(), rank_ids.end(), i) !=
               rank_ids.end();
    };
    /* A small card's thin strokes fade below the threshold and a glyph
     * falls apart (the bar of a 7 from its stem): the first try joins ink
     * down to a lower level, keeping only pieces that reach the threshold
     * somewhere (hysteresis); the plain threshold comes next, then the
     * higher one, and last PALE_INK's (an index printed paler than the
     * pips beside it, or washed out by light; on light paper only). The
     * glyphs' ink strength is measured from the level that found them,
     * or thr. */
    float level = thr;
    for (int attempt = 0; attempt < (pl >= FAINT_PAPER ? 4 : 3); attempt++) {
        level = attempt == 3   ? std::max(MIN_INK, PALE_INK * thr)
                : attempt == 2 ? thr * 1.6f
                               : thr;
        const float low = attempt == 0 ? std::max(MIN_INK, 0.6f * thr) : level;
        ink_mask(s.dist, low, s.ink);
        /* cut the ink along the card's edges, so a glyph printed close to the
         * edge does not join the table (or the card's outline) beyond it */
        const int cxl = (int)std::lround(-U0 + 1.0f),
                  cyl = (int)std::lround(-V0 + 1.0f);
        {
            for (int y = 0; y < PH; y++) {
                uchar *o = s.ink.ptr<uchar>(y);
                for (int x = std::max(0, cxl - 1); x <= cxl + 1 && x < PW; x++)
                    o[x] = 0;
                /* the rounded corner: the two pixels of the diagonal
                 * x + y = cxl + cyl (and + 1) on this row, near the
                 * corner */
                if (y < cyl + 10)
                    for (int x = cxl + cyl - y; x <= cxl + cyl - y + 1; x++)
                        if (x >= 0 && x < PW && x < cxl + 10)
                            o[x] = 0;
            }
            for (int y = std::max(0, cyl - 1); y <= cyl + 1 && y < PH; y++)
                std::memset(s.ink.ptr<uchar>(y), 0, (size_t)PW);
        }
        nl = label_pieces(s.ink, s.labels, &s.stats, s);
        peak_d.assign(nl, 0.f);
        if (low < level)
            piece_peaks(s.dist, s, peak_d);

        boxes.assign(nl, Box{0, 0, 0, 0});
        areas.assign(nl, 0);
        for (int i = 1; i < nl; i++) {
            const int *st = s.stats.ptr<int>(i);
            boxes[i] = Box{st[cv::CC_STAT_LEFT], st[cv::CC_STAT_TOP],
                           st[cv::CC_STAT_LEFT] + st[cv::CC_STAT_WIDTH],
                           st[cv::CC_STAT_TOP] + st[cv::CC_STAT_HEIGHT]};
            areas[i] = st[cv::CC_STAT_AREA];
        }
        /* two glyphs in one piece: parted where the ink is strong, else
         * cut at the piece's waist (across columns, or rows) */
        auto part_glyphs = [&](int id, const Box &b, bool rows) {
            const int before = nl;
            nl = split_piece(s.dist, s.labels, id, b, 1.6f * level, nl, s,
                             boxes, areas);
            if (nl == before)
                nl = cut_at_waist(s.labels, id, b, nl, boxes, areas, rows);
        };
        /* a piece where the rank would be, but wider than a rank, may be
         * a rank and the big suit beside it blurred together (the suit
         * may reach past the patch's edge): part them */
        for (int i = 1, n0 = nl; i < n0; i++) {
            const Box b = boxes[i];
            if (b.x0 > 0 && b.y0 > 0 && b.h() >= 0.05f * CH &&
                b.h() <= 0.3f * CH && b.x0 < cx0 + 0.2f * CW &&
                b.y0 < cy0 + 0.25f * CH &&
                (b.w() > 1.45f * b.h() || b.w() > 0.24f * CW)) {
                part_glyphs(i, b, false);
            }
            /* one where the rank would be, taller than a rank but as
             * narrow, may be a rank and its suit below joined (a Q's
             * tail on the heart): part them. Not in the first try, whose
             * lower level also joins a small card's rank and suit through
             * the blur between them (cut there, a 2 of the kiosk's board
             * came apart in its middle); the next try parts those */
            if (low == level && b.x0 > 0 && b.y0 > 0 && b.x1 < PW &&
                b.y1 < PH && b.h() > 0.3f * CH && b.h() <= 0.6f * CH &&
                b.w() <= 0.24f * CW && b.x0 < cx0 + 0.2f * CW &&
                b.y0 < cy0 + 0.25f * CH)
                part_glyphs(i, b, true);
        }
        /* a rank with no suit of some size below it may be a rank and
         * its suit blurred together (a J's hook on the suit): part it
         * where its ink is strong and look again, once */
        bool parted = false;
        for (;;) {
            /* the parts of a piece that reached the level all count */
            peak_d.resize(nl, level + 1);
            keep.assign(nl, 0);
            for (int i = 1; i < nl; i++) {
                const Box &b = boxes[i];
                int area = areas[i];
                bool edge = b.x0 <= 0 || b.y0 <= 0 || b.x1 >= PW || b.y1 >= PH;
                if (edge || area < 6 || b.h() < 4 || b.w() > 0.24f * CW ||
                    b.h() > 0.3f * CH || (low < level && peak_d[i] <= level))
                    continue;
                /* pieces left of or above the card's edge are the table */
                if (b.x1 <= cx0 + 1 || b.y1 <= cy0 + 1)
                    continue;
                /* so is a piece against the cut in the corner's square: the
                 * table beyond a rounded corner when the quad's corner is off
                 * by a little (no index glyph touches the card's edge) */
                if ((b.x0 <= cxl + 2 || b.y0 <= cyl + 2) &&
                    b.x1 <= cx0 + 0.12f * CW && b.y1 <= cy0 + 0.1f * CH)
                    continue;
                keep[i] = 1;
            }
            /* the rank: the topmost piece starting near the card's edge, or
             * the leftmost of those level with it (a court card's big suit
             * printed beside its letter can reach higher than the letter) */
            seed = -1;
            for (int i = 1; i < nl; i++)
                if (keep[i] && boxes[i].x0 < cx0 + 0.2f * CW &&
                    boxes[i].h() >= 0.05f * CH &&
                    (seed < 0 || boxes[i].y0 < boxes[seed].y0))
                    seed = i;
            if (seed < 0)
                break;
            for (int i = 1; i < nl; i++) {
                const Box &b = boxes[i], &t = boxes[seed];
                int ov = std::min(b.y1, t.y1) - std::max(b.y0, t.y0);
                if (keep[i] && b.x0 < cx0 + 0.2f * CW && b.h() >= 0.05f * CH &&
                    b.x1 <= t.x0 + 1 && ov >= 0.5f * std::min(b.h(), t.h()))
                    seed = i;
            }
            rb = boxes[seed];
            rank_ids.assign(1, seed);
            for (int pass = 0; pass < 2; pass++)
                for (int i = 1; i < nl; i++) {
                    if (!keep[i] || in_rank(i))
                        continue;
                    const Box &b = boxes[i];
                    int ov = std::min(b.y1, rb.y1) - std::max(b.y0, rb.y0);
                    int gap = std::max(b.x0 - rb.x1, rb.x0 - b.x1);
                    bool beside = ov >= 0.5f * std::min(b.h(), rb.h()) &&
                                  gap <= 0.6f * rb.h() &&
                                  b.h() >= 0.4f * rb.h() &&
                                  b.h() <= 1.6f * rb.h();
                    bool inside = b.x0 >= rb.x0 && b.x1 <= rb.x1 &&
                                  b.y0 >= rb.y0 && b.y1 <= rb.y1;
                    /* a stroke broken off the top of the glyph (the bar of
                     * a 7): short, just above, over the same columns */
                    int hov = std::min(b.x1, rb.x1) - std::max(b.x0, rb.x0);
                    bool above = b.y1 <= rb.y0 + 1 &&
                                 b.y1 >= rb.y0 - 0.3f * rb.h() &&
                                 b.h() < 0.5f * rb.h() &&
                                 hov >= 0.5f * std::min(b.w(), rb.w());
                    /* "10" is about as wide as tall; a piece that would
                     * make the rank much wider is a suit beside it */
                    Box u = rb;
                    u.add(b);
                    if (beside && u.w() > 1.45f * u.h())
                        beside = false;
                    if (beside || inside || above) {
                        rank_ids.push_back(i);
                        rb.add(b);
                    }
                }
            if (rb.w() > 0.26f * CW)
                break;
            /* the suit: the biggest piece just below the rank, under its
             * columns if one is (a deck whose pip lies close beside a
             * pale index, kde-tigullio-international: the big pip took
             * the small suit's place), else beside them. eval_cards'
             * tuning sets (hard 5000, 9000, 14000 to 17000; easy 5000,
             * 13000, 22000, 23000): read right +8, wrong cards 70 -> 67
             * (hard 9076's 8c unread, 14143's 8c read 8s, easy 22404's
             * 7c read 7s); real train/ the same, line by line */
            suit = -1;
            int best_area = 0;
            bool best_under = false;
            float rcx = 0.5f * (rb.x0 + rb.x1);
            for (int i = 1; i < nl; i++) {
                if (!keep[i] || in_rank(i))
                    continue;
                const Box &b = boxes[i];
                float bcx = 0.5f * (b.x0 + b.x1);
                if (b.y0 < rb.y1 - 0.25f * rb.h() ||
                    b.y0 > rb.y1 + 1.0f * rb.h())
                    continue;
                if (std::fabs(bcx - rcx) > 0.5f * rb.w() + 0.5f * b.w() + 2)
                    continue;
                /* a suit is no taller than the rank by half, nor a
                 * stroke: a line of a frame printed below the index
                 * (dashed, on kde-tigullio-international) can outweigh
                 * a small suit */
                if (b.h() > 1.5f * rb.h() || b.h() > 3 * b.w() ||
                    b.w() > 3 * b.h())
                    continue;
                const bool under =
                    std::min(b.x1, rb.x1) > std::max(b.x0, rb.x0);
                if ((under && !best_under) ||
                    (under == best_under && areas[i] > best_area)) {
                    best_area = areas[i];
                    best_under = under;
                    suit = i;
                }
            }
            bool weak = suit < 0 || areas[suit] * 5 < areas[seed];
            if (weak && !parted && rank_ids.size() == 1 &&
                rb.h() > 1.2f * rb.w()) {
                int n0 = nl;
                nl = split_piece(s.dist, s.labels, seed, rb, 1.6f * level, nl,
                                 s, boxes, areas);
                parted = true;
                if (nl > n0)
                    continue;
            }
            break;
        }
        if (seed < 0 || rb.w() > 0.26f * CW || suit < 0)
            continue;
        /* the biggest piece beside the rank: to its right, level with it
         * and about as tall, a glyph's shape. It may run past the patch's
         * right edge (a big suit, cut there) but no other */
        side_suit = -1;
        for (int i = 1; i < nl; i++) {
            const Box &b = boxes[i];
            const bool cut_right = !keep[i] && b.x0 > 0 && b.y0 > 0 &&
                                   b.y1 < PH && b.x1 >= PW && areas[i] >= 6 &&
                                   b.w() <= 0.24f * CW;
            if (!(keep[i] || cut_right) || i == suit || in_rank(i))
                continue;
            const int ov = std::min(b.y1, rb.y1) - std::max(b.y0, rb.y0);
            if (b.x0 < rb.x1 - 1 || b.x0 - rb.x1 > 0.6f * rb.h() ||
                ov < 0.5f * std::min(b.h(), rb.h()) || b.h() < 0.6f * rb.h() ||
                b.h() > 1.6f * rb.h() || b.h() > 3 * b.w() || b.w() > 3 * b.h())
                continue;
            if (side_suit < 0 || areas[i] > areas[side_suit])
                side_suit = i;
        }
        found = true;
        f.pale = attempt == 3;
        break;
    }
    if (!found) {
        if (debug) {
            /* the patch with the last ink tried tinted red */
            cv::Mat tint = s.patch.clone();
            tint.setTo(cv::Scalar(0, 0, 255), s.ink);
            cv::addWeighted(s.patch, 0.5, tint, 0.5, 0, tint);
            cv::resize(tint, *debug, cv::Size(PW * 3, PH * 3), 0, 0,
                       cv::INTER_NEAREST);
        }
        return false;
    }
    Box sb = boxes[suit];
    suit_ids.assign(1, suit);
    for (int i = 1; i < nl; i++) {
        if (!keep[i] || i == suit || in_rank(i))
            continue;
        const Box &b = boxes[i];
        if (b.x0 >= sb.x0 - 1 && b.x1 <= sb.x1 + 1 && b.y0 >= sb.y0 - 1 &&
            b.y1 <= sb.y1 + 1) {
            suit_ids.push_back(i);
            sb.add(b);
        }
    }
    for (int y = 0; y < PH; y++) {
        float *d = s.dist.ptr<float>(y);
        for (int x = 0; x < PW; x++)
            d[x] = ink_strength(d[x], std::min(level, thr));
    }
    put_glyph(s.dist, s.labels, rank_ids, rb, RW, RH, s.tmp, f.rank);
    f.rank[RW * RH] = (float)rb.w() / (float)rb.h();
    f.rank[RW * RH + 1] = (float)rb.h() / (0.1f * CH);
    f.rank[RW * RH + 2] = (float)sb.h() / (float)rb.h();
    suit_features(s.dist, s.labels, s.lab, suit_ids,
                  cv::Rect(sb.x0, sb.y0, sb.w(), sb.h()), pl, s.tmp, f.suit);
    f.rank_u = ((float)rb.x0 - cx0) / CW;
    f.rank_v = ((float)rb.y0 - cy0) / CH;
    f.rank_h = (float)rb.h() / CH;
    f.has_beside = side_suit >= 0;
    if (f.has_beside) {
        const Box &bb = boxes[side_suit];
        suit_ids.assign(1, side_suit);
        suit_features(s.dist, s.labels, s.lab, suit_ids,
                      cv::Rect(bb.x0, bb.y0, bb.w(), bb.h()), pl, s.tmp,
                      f.suit_beside);
    }
    f.ok = true;
    if (debug) {
        debug->create(PH * 3, PW * 3, CV_8UC3);
        cv::resize(s.patch, *debug, debug->size(), 0, 0, cv::INTER_NEAREST);
        /* every piece kept as a glyph candidate, faintly */
        for (int i = 1; i < nl; i++)
            if (keep[i])
                cv::rectangle(*debug,
                              cv::Rect(boxes[i].x0 * 3, boxes[i].y0 * 3,
                                       boxes[i].w() * 3, boxes[i].h() * 3),
                              cv::Scalar(0, 200, 200), 1);
        cv::rectangle(*debug, cv::Rect(rb.x0 * 3, rb.y0 * 3, rb.w() * 3, rb.h() * 3),
                      cv::Scalar(0, 200, 0), 1);
        cv::rectangle(*debug, cv::Rect(sb.x0 * 3, sb.y0 * 3, sb.w() * 3, sb.h() * 3),
                      cv::Scalar(200, 0, 0), 1);
    }
    return true;
}

} // namespace fwv
