/*
 * chip_side.cpp - chip stacks from the side camera (chip_side.h): the
 * counter and the synthetic side scenes, a C++17 OpenCV shim behind a plain
 * C API.
 *
 * Geometry used throughout (a near-orthographic view, y down): a chip of
 * radius R pixels seen from elevation e shows its faces as ellipses of
 * semi-axes R and b = R sin e, and its side as a band t = 2R cos e * T/D
 * pixels high (T/D = 3.3/39, thickness over diameter). A stack of n chips
 * whose top face is centred at row yt and whose base is centred at row yc
 * has yc - yt = n t; at its centre column its side runs from yt + b down to
 * yc + b, and every line between two chips is an ellipse arc, yt + b - y at
 * column offset u = (x - cx) / R lying b (1 - sqrt(1 - u^2)) above the
 * centre. The counter measures R, b, yt and yc from the stack's outline,
 * predicts t, straightens those arcs and fits the lines' period and phase.
 */
#include "chip_side.h"

#include "chips.h"
#include "shim_catch.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#include <vector>

namespace
{

/* chip thickness over diameter: 3.3 mm over 39 mm */
const float kThickOverDia = 3.3f / 39.0f;

cv::Vec3b lab_to_bgr(const float lab[3])
{
    cv::Mat m(1, 1, CV_32FC3, cv::Scalar(lab[0], lab[1], lab[2]));
    cv::cvtColor(m, m, cv::COLOR_Lab2BGR);
    cv::Vec3f f = m.at<cv::Vec3f>(0, 0);
    return cv::Vec3b(cv::saturate_cast<uchar>(f[0] * 255.0f),
                     cv::saturate_cast<uchar>(f[1] * 255.0f),
                     cv::saturate_cast<uchar>(f[2] * 255.0f));
}

/* Copy a name into a fixed char array, always NUL-terminated. */
template <size_t N> void set_name(char (&dst)[N], const char *src)
{
    size_t n = std::min(std::strlen(src), N - 1);
    std::memcpy(dst, src, n);
    dst[n] = '\0';
}

float wrap_pi(float a)
{
    const float two_pi = (float)(2 * CV_PI);
    a = std::fmod(a, two_pi);
    if (a > (float)CV_PI)
        a -= two_pi;
    else if (a < -(float)CV_PI)
        a += two_pi;
    return a;
}

/* ------------------------------------------------------------------ */
/* naming colours                                                       */
/* ------------------------------------------------------------------ */

/* Name colour `lab` (the top chip's body) as the overhead detector does. */
void name_color(const cv::Vec3f &lab, const fw_calib_chip *set, int nset,
                char (&name)[16], int64_t *value, float *conf)
{
    const float body[3] = {lab[0], lab[1], lab[2]};
    if (fw_chips_name(body, nullptr, 0, set, nset, name, sizeof name, value,
                      conf) != FW_OK) {
        set_name(name, "unknown");
        *value = 0;
        *conf = 0;
    }
}

/* ------------------------------------------------------------------ */
/* the counter                                                          */
/* ------------------------------------------------------------------ */

/* The frame as the counter reads it. */
struct Frame {
    cv::Mat lab8; /* CV_8UC3 Lab of the lightly blurred frame */
    cv::Mat logi; /* CV_32F log(1 + mean of B, G, R) of the frame itself */
    cv::Mat dist; /* CV_32F Lab distance from the felt model */
    cv::Mat mask; /* CV_8U 255 where dist > 12 (closed and opened) */
};

/*
 * The felt model and the mask of what stands out from it. The felt (and
 * the rail and wall above its far edge) changes mostly from row to row in a
 * side view, so each row is modelled on its own: the per-channel median of
 * the row, then a quadratic in x fitted to the pixels within 20 Lab units
 * of that median (a lighting gradient along the row). A pixel more than 12
 * Lab units from its row's model is foreground. The median needs the felt
 * to cover more than half of each row, which a table scene gives.
 */
void felt_mask(Frame &f)
{
    const cv::Mat &lab8 = f.lab8;
    int w = lab8.cols, h = lab8.rows;
    f.mask.create(h, w, CV_8UC1);
    f.dist.create(h, w, CV_32FC1);
    std::vector<double> xs;
    for (int y = 0; y < h; y++) {
        const cv::Vec3b *row = lab8.ptr<cv::Vec3b>(y);
        int hist[3][256] = {};
        int n = 0;
        for (int x = 0; x < w; x += 2, n++)
            for (int k = 0; k < 3; k++)
                hist[k][row[x][k]]++;
        float med[3];
        for (int k = 0; k < 3; k++) {
            int acc = 0, v = 0;
            while (v < 255 && (acc += hist[k][v]) < (n + 1) / 2)
                v++;
            med[k] = (float)v;
        }
        /* least squares over the felt-like pixels: basis 1, s, s^2 */
        double m[3][3] = {}, rhs[3][3] = {};
        int used = 0;
        for (int x = 0; x < w; x += 2) {
            float dl = (row[x][0] - med[0]) * (100.0f / 255.0f);
            float da = row[x][1] - med[1], db = row[x][2] - med[2];
            if (dl * dl + da * da + db * db > 20.0f * 20.0f)
                continue;
            double s = (x - 0.5 * w) / (0.5 * w);
            double basis[3] = {1.0, s, s * s};
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++)
                    m[i][j] += basis[i] * basis[j];
                for (int k = 0; k < 3; k++)
                    rhs[k][i] += basis[i] * row[x][k];
            }
            used++;
        }
        double coef[3][3] = {{med[0], 0, 0}, {med[1], 0, 0}, {med[2], 0, 0}};
        if (used >= 32) {
            cv::Mat A(3, 3, CV_64F, m);
            for (int k = 0; k < 3; k++) {
                cv::Mat b(3, 1, CV_64F, rhs[k]), sol;
                if (cv::solve(A, b, sol, cv::DECOMP_CHOLESKY))
                    for (int i = 0; i < 3; i++)
                        coef[k][i] = sol.at<double>(i);
            }
        }
        uchar *out = f.mask.ptr<uchar>(y);
        float *dout = f.dist.ptr<float>(y);
        for (int x = 0; x < w; x++) {
            double s = (x - 0.5 * w) / (0.5 * w);
            float d2 = 0;
            for (int k = 0; k < 3; k++) {
                float bg =
                    (float)(coef[k][0] + coef[k][1] * s + coef[k][2] * s * s);
                float dk = row[x][k] - bg;
                if (k == 0)
                    dk *= 100.0f / 255.0f;
                d2 += dk * dk;
            }
            dout[x] = std::sqrt(d2);
            out[x] = d2 > 12.0f * 12.0f ? 255 : 0;
        }
    }
    /* close the dark lines and felt-coloured patches of a stack, then drop
     * specks of noise */
    cv::morphologyEx(f.mask, f.mask, cv::MORPH_CLOSE,
                     cv::getStructuringElement(cv::MORPH_RECT, cv::Size(5, 5)));
    cv::morphologyEx(f.mask, f.mask, cv::MORPH_OPEN,
                     cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3)));
}

/* log intensity at column x, row y (fractional, linear between rows) */
float logi_at(const cv::Mat &logi, int x, float y)
{
    x = std::min(std::max(x, 0), logi.cols - 1);
    float yc = std::min(std::max(y, 0.0f), (float)(logi.rows - 1));
    int y0 = (int)yc;
    int y1 = std::min(y0 + 1, logi.rows - 1);
    float a = yc - (float)y0;
    return logi.at<float>(y0, x) * (1 - a) + logi.at<float>(y1, x) * a;
}

float median_of(std::vector<float> &v)
{
    if (v.empty())
        return 0;
    auto mid = v.begin() + v.size() / 2;
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
}

/*
 * Split one connected region into stacks standing side by side. Each chip
 * is shaded as a cylinder lit from the front: darkest at its edges,
 * brightest a little left of its middle. So in every row that crosses two
 * touching stacks the log intensity has a local minimum at their join,
 * whatever the two colours (the darker side rises from it), while inside a
 * stack minima come only from edge spots, at other columns in each row.
 * A column is voted for by each row of the region where its intensity
 * (smoothed over 3 columns) lies 0.04 below both its neighbours 6 columns
 * away; columns voted for by at least 45% of their rows, and peaks of the
 * vote, become splits (the strongest where two lie within 24 columns);
 * stacks side by side are of one size, so a piece narrower than half the
 * median piece is merged across the weaker of its cuts. `label`/`id`
 * select the region's pixels within `box`. Returns the pieces' column
 * ranges [first, last], left to right, and in `share` each column's vote.
 */
std::vector<cv::Vec2i> split_region(const Frame &f, const cv::Mat &label,
                                    int id, cv::Rect box,
                                    std::vector<float> &share)
{
    const int d = 6, minw = 24;
    int nx = box.width;
    std::vector<int> votes(nx, 0), rows(nx, 0);
    std::vector<float> sm(nx);
    std::vector<uchar> in(nx), hit(nx);
    for (int y = box.y; y < box.y + box.height; y++) {
        const int *lrow = label.ptr<int>(y);
        const float *irow = f.logi.ptr<float>(y);
        for (int i = 0; i < nx; i++) {
            int x = box.x + i;
            in[i] = lrow[x] == id;
            float a = irow[std::max(x - 1, 0)], c = irow[x],
                  e = irow[std::min(x + 1, f.logi.cols - 1)];
            sm[i] = (a + c + e) / 3.0f;
        }
        /* a row votes for the columns within 2 of its minimum: chips
         * shift sideways a little from row to row */
        std::fill(hit.begin(), hit.end(), 0);
        for (int i = d; i < nx - d; i++)
            if (in[i] && in[i - d] && in[i + d] &&
                sm[i] < std::min(sm[i - d], sm[i + d]) - 0.04f &&
                sm[i] <= sm[i - 1] && sm[i] <= sm[i + 1])
                for (int k = std::max(0, i - 2); k <= std::min(nx - 1, i + 2);
                     k++)
                    hit[k] = 1;
        for (int i = d; i < nx - d; i++) {
            if (!in[i] || !in[i - d] || !in[i + d])
                continue;
            rows[i]++;
            votes[i] += hit[i];
        }
    }
    struct Cut {
        int at;
        float depth; /* the share of rows voting */
    };
    share.assign(nx, 0.0f);
    for (int i = 0; i < nx; i++)
        share[i] = rows[i] >= 4 ? (float)votes[i] / (float)rows[i] : 0.0f;
    std::vector<Cut> cuts;
    for (int i = minw; i < nx - minw; i++)
        if (share[i] >= 0.5f && share[i] >= share[i - 1] &&
            share[i] >= share[i + 1])
            cuts.push_back({i, share[i]});
    std::sort(cuts.begin(), cuts.end(),
              [](const Cut &a, const Cut &b) { return a.depth > b.depth; });
    std::vector<Cut> chosen;
    for (const Cut &c : cuts) {
        bool ok = true;
        for (const Cut &o : chosen)
            ok = ok && std::abs(o.at - c.at) >= minw;
        if (ok)
            chosen.push_back(c);
    }
    std::sort(chosen.begin(), chosen.end(),
              [](const Cut &a, const Cut &b) { return a.at < b.at; });
    /* stacks side by side are of one size: a piece under half the median
     * width loses the shallower of the cuts around it */
    for (;;) {
        std::vector<int> widths;
        int prev = -1;
        for (size_t k = 0; k <= chosen.size(); k++) {
            int end = k < chosen.size() ? chosen[k].at : nx - 1;
            widths.push_back(end - prev);
            prev = end;
        }
        std::vector<int> sorted = widths;
        std::sort(sorted.begin(), sorted.end());
        int med = sorted[sorted.size() / 2];
        size_t bad = widths.size();
        for (size_t k = 0; k < widths.size(); k++)
            if (2 * widths[k] < med &&
                (bad == widths.size() || widths[k] < widths[bad]))
                bad = k;
        if (bad == widths.size())
            break;
        /* piece k lies between cut k-1 and cut k */
        size_t drop;
        if (bad == 0)
            drop = 0;
        else if (bad == chosen.size())
            drop = bad - 1;
        else
            drop = chosen[bad - 1].depth < chosen[bad].depth ? bad - 1 : bad;
        chosen.erase(chosen.begin() + (long)drop);
    }
    std::vector<cv::Vec2i> pieces;
    int start = 0;
    for (const Cut &c : chosen) {
        pieces.push_back(cv::Vec2i(box.x + start, box.x + c.at));
        start = c.at + 1;
    }
    pieces.push_back(cv::Vec2i(box.x + start, box.x + nx - 1));
    return pieces;
}

/*
 * Where the felt distance along column x crosses half way between the felt
 * and the stack, near row `edge` (the stack's last mask pixel, going in
 * direction `dir`: -1 for the top, +1 for the bottom): a sub-pixel row,
 * free of the outward bias of a threshold on a blurred edge. Falls back to
 * the mask's edge when the column shows no clear step.
 */
float refine_edge(const cv::Mat &dist, int x, int edge, int dir)
{
    auto at = [&](int y) {
        y = std::min(std::max(y, 0), dist.rows - 1);
        return dist.at<float>(y, x);
    };
    float out = std::min(at(edge + 2 * dir),
                         std::min(at(edge + 3 * dir), at(edge + 4 * dir)));
    float in = std::max(at(edge), std::max(at(edge - dir), at(edge - 2 * dir)));
    float fallback = (float)edge + 0.5f * (float)dir;
    if (in - out < 8.0f)
        return fallback;
    float level = 0.5f * (in + out);
    /* walk outwards from inside the stack to the first value below level */
    for (int k = -2; k <= 4; k++) {
        int y0 = edge + (k - 1) * dir, y1 = edge + k * dir;
        float d0 = at(y0), d1 = at(y1);
        if (d0 >= level && d1 < level)
            return (float)y0 + (float)dir * (d0 - level) / (d0 - d1);
    }
    return fallback;
}

/* Least squares fit of the stack's outline; see measure_stack. */
struct Outline {
    float cx, R;        /* centre column and half width */
    float yt, yc;       /* centres of the top face and of the base */
    float b;            /* the faces' vertical semi-axis */
    float rms;          /* residual of the outline fit, pixels */
    float top_c, bot_c; /* the outline's top and bottom rows at |u| < 0.2 */
};

/*
 * Measure the outline of the stack whose pixels are label == id in columns
 * xa..xb, each column's top and bottom refined by refine_edge(). Its width
 * is the median width of the rows at least 90% as wide as
 * the widest (the rows between the two face centres span the full chip;
 * rows elsewhere are narrower). Then over the columns |u| <= 0.9 the
 * topmost pixel follows yt - b s and the lowest yc + b s, s = sqrt(1 - u^2):
 * a linear least squares problem in yt, yc and b, solved twice, the second
 * time without columns whose residual is over 3 px and 3 times the median.
 * The median top and bottom rows of the columns |u| < 0.2 are kept apart
 * (top_c, bot_c; -1 when there are none).
 * Returns false when the outline does not look like a standing cylinder.
 */
bool measure_stack(const Frame &f, const cv::Mat &label, int id, int xa, int xb,
                   int ya, int yb, Outline *o)
{
    std::vector<int> left, right;
    int widest = 0;
    for (int y = ya; y <= yb; y++) {
        const int *row = label.ptr<int>(y);
        int l = -1, r = -1;
        for (int x = xa; x <= xb; x++)
            if (row[x] == id) {
                if (l < 0)
                    l = x;
                r = x;
            }
        left.push_back(l);
        right.push_back(r);
        if (l >= 0)
            widest = std::max(widest, r - l + 1);
    }
    if (widest < 20)
        return false;
    std::vector<float> widths, centres;
    for (size_t i = 0; i < left.size(); i++)
        if (left[i] >= 0 && right[i] - left[i] + 1 >= 0.9f * widest) {
            widths.push_back((float)(right[i] - left[i] + 1));
            centres.push_back(0.5f * (left[i] + right[i]));
        }
    o->R = 0.5f * median_of(widths);
    o->cx = median_of(centres);
    struct Col {
        float s, top, bot;
        bool use;
    };
    std::vector<Col> cols;
    for (int x = xa; x <= xb; x++) {
        float u = (x - o->cx) / o->R;
        if (std::fabs(u) > 0.9f)
            continue;
        int top = -1, bot = -1;
        for (int y = ya; y <= yb; y++)
            if (label.at<int>(y, x) == id) {
                if (top < 0)
                    top = y;
                bot = y;
            }
        if (top < 0)
            continue;
        cols.push_back({std::sqrt(1 - u * u), refine_edge(f.dist, x, top, -1),
                        refine_edge(f.dist, x, bot, 1), true});
    }
    if (cols.size() < 8)
        return false;
    {
        std::vector<float> tops, bots;
        for (const Col &c : cols)
            if (c.s > 0.98f) { /* |u| < 0.2 */
                tops.push_back(c.top);
                bots.push_back(c.bot);
            }
        o->top_c = tops.empty() ? -1.0f : median_of(tops);
        o->bot_c = bots.empty() ? -1.0f : median_of(bots);
    }
    for (int pass = 0; pass < 2; pass++) {
        /* unknowns yt, yc, b: top = yt - b s, bot = yc + b s */
        cv::Mat A = cv::Mat::zeros(3, 3, CV_64F),
                r = cv::Mat::zeros(3, 1, CV_64F);
        int used = 0;
        for (const Col &c : cols) {
            if (!c.use)
                continue;
            double rows[2][3] = {{1, 0, -c.s}, {0, 1, c.s}};
            double obs[2] = {c.top, c.bot};
            for (int e = 0; e < 2; e++)
                for (int i = 0; i < 3; i++) {
                    for (int j = 0; j < 3; j++)
                        A.at<double>(i, j) += rows[e][i] * rows[e][j];
                    r.at<double>(i) += rows[e][i] * obs[e];
                }
            used++;
        }
        cv::Mat sol;
        if (used < 6 || !cv::solve(A, r, sol, cv::DECOMP_SVD))
            return false;
        o->yt = (float)sol.at<double>(0);
        o->yc = (float)sol.at<double>(1);
        o->b = (float)sol.at<double>(2);
        std::vector<float> res;
        for (const Col &c : cols) {
            float e1 = c.top - (o->yt - o->b * c.s);
            float e2 = c.bot - (o->yc + o->b * c.s);
            res.push_back(std::max(std::fabs(e1), std::fabs(e2)));
        }
        std::vector<float> tmp = res;
        float med = median_of(tmp);
        double ss = 0;
        int n = 0;
        for (size_t i = 0; i < cols.size(); i++) {
            if (pass == 0)
                cols[i].use = res[i] <= std::max(3.0f, 3.0f * med);
            if (cols[i].use) {
                ss += res[i] * res[i];
                n++;
            }
        }
        o->rms = n ? (float)std::sqrt(ss / n) : 1e9f;
    }
    return o->R >= 10.0f && o->b > 0.05f * o->R && o->b < 0.85f * o->R &&
           o->yc - o->yt > 0 && o->rms < std::max(3.0f, 0.3f * o->b);
}

/*
 * The median log intensity across the middle of the stack (u in
 * -0.36..0.36, where an error in b bends the straightened arcs least) along
 * the arcs of the chips' front edges, for rows y0 .. y0 + ny - 1.
 */
std::vector<float> arc_profile(const Frame &f, const Outline &o, int y0, int ny)
{
    std::vector<float> p(ny), samp;
    for (int i = 0; i < ny; i++) {
        samp.clear();
        for (int k = -6; k <= 6; k++) {
            float u = 0.06f * k;
            int x = cvRound(o.cx + u * o.R);
            float dy = o.b * (std::sqrt(1 - u * u) - 1);
            samp.push_back(logi_at(f.logi, x, (float)(y0 + i) + dy));
        }
        p[i] = median_of(samp);
    }
    return p;
}

/* A profile of rows y0.. read at fractional rows, clamped to its ends. */
struct Profile {
    std::vector<float> v;
    int y0;
    float at(float y) const
    {
        float yi = y - (float)y0;
        int n = (int)v.size();
        yi = std::min(std::max(yi, 0.0f), (float)(n - 1));
        int i0 = (int)yi;
        int i1 = std::min(i0 + 1, n - 1);
        float a = yi - (float)i0;
        return v[i0] * (1 - a) + v[i1] * a;
    }
};

/*
 * Count a stack of up to a dozen chips, where the outline alone cannot
 * place the top face's front edge. The outline fit's b (the faces' semi-
 * axis) is often a pixel or more too large (blur rounds the ends of the
 * arcs; a shadow beside the base widens the outline and bends its lower
 * arc), and yc - yt = n t then loses 2 px or more of a side that is only
 * one to four chips, 5 to 40 px, high: a stack of two is read as one.
 * What the outline does give well is the top of the top face and the front
 * of the base where they cross the middle of the stack (Ytop and Ybot, the
 * median edge rows over |u| < 0.2, which a shadow at the side or a ragged
 * end of the fitted arcs leaves alone), and Ybot - Ytop = n t + 2 b.
 *
 * So each count n is tried in turn. The elevation e that explains that
 * height with the measured radius, Ybot - Ytop = 2R (n k cos e + sin e)
 * (k = T/D), gives its chip thickness t_n; with t within -20%..+15% of t_n
 * (the radius may be widened by a shadow) the top face's front edge lies at
 * F = Ybot - n t, its semi-axis is b' = (F - Ytop) / 2, and the lines
 * between chips lie at F + j t. A placement scores
 *   - the dark lines at F and at each F + j t, less the dark found midway
 *     between them (r, as in count_chips);
 *   - twice the contrast of the lit top face over the side of the top chip
 *     (the band F..F + t): the lesser of the top face's middle (inside its
 *     inner ring, yt' +- b'/2) and the rows just above F, each less the
 *     band's median; capped at 0.25 (a dark line or the ring must not pay
 *     for a wrong F) and floored at -0.5. The middle fails an F placed too
 *     high (the band is then top face too), the rows above F an F placed
 *     too low (they are then a chip's side);
 *   - less 0.4 z^2, z the distance of b' from the outline's b in units of
 *     1 + 0.12 b + 1.5 rms (the outline is a weak witness, and weaker the
 *     worse it fits).
 * Each n scores its best placement; the best n is the count, and every n
 * within 0.15 of it joins the range (a range then holds the truth where
 * the evidence is split), within up to 0.45 when the outline fits badly
 * (over 0.6 px rms: its ends, and so Ytop or Ybot, may be off by a chip, as
 * where a chip of the felt's colour loses its base in the felt). Returns
 * false when no count allows an elevation
 * of 8..40 degrees with a face semi-axis of 0.1..0.7 R (the caller falls
 * back on the comb or the height).
 */
bool count_short(const Frame &f, const Outline &o, fw_side_stack *s)
{
    const float k = kThickOverDia;
    const float e_lo = 8.0f * (float)(CV_PI / 180);
    const float e_hi = 40.0f * (float)(CV_PI / 180);
    float Ytop = o.yt - o.b, Ybot = o.yc + o.b;
    if (o.top_c >= 0 && o.bot_c > o.top_c) {
        Ytop = o.top_c;
        Ybot = o.bot_c;
    }
    float h = (Ybot - Ytop) / (2 * o.R);
    int nmax = (int)std::floor((h - std::sin(e_lo)) / (k * std::cos(e_lo)));
    nmax = std::max(1, std::min(nmax, 20));
    int y0 = std::max(0, (int)std::floor(Ytop) - 4);
    int y1 = std::min(f.logi.rows - 1, (int)std::ceil(Ybot) + 4);
    if (y1 - y0 < 6)
        return false;
    Profile p{arc_profile(f, o, y0, y1 - y0 + 1), y0};
    std::vector<float> seg;
    /* the median of the profile's rows a..b */
    auto med = [&](float a, float b) {
        seg.clear();
        for (int y = (int)std::ceil(a); y <= (int)std::floor(b); y++)
            seg.push_back(p.at((float)y));
        if (seg.empty())
            seg.push_back(p.at(0.5f * (a + b)));
        return median_of(seg);
    };
    float sigma_b = 1.0f + 0.12f * o.b + 1.5f * o.rms;
    std::vector<float> S(nmax + 1, -1e9f), T(nmax + 1, 0.0f);
    for (int n = 1; n <= nmax; n++) {
        /* n k cos e + sin e rises with e below atan(1 / (n k)) > 40 deg */
        float a = e_lo, b = e_hi;
        for (int it = 0; it < 30; it++) {
            float m = 0.5f * (a + b);
            if (n * k * std::cos(m) + std::sin(m) < h)
                a = m;
            else
                b = m;
        }
        float tn = 2 * o.R * k * std::cos(0.5f * (a + b));
        float dt = std::max(0.02f, 0.25f / (float)n); /* F moves <= 0.25 */
        for (float t = 0.8f * tn; t <= 1.15f * tn; t += dt) {
            float F = Ybot - n * t;
            float bq = 0.5f * (F - Ytop);
            if (bq < 0.1f * o.R || bq > 0.7f * o.R)
                continue;
            float d = std::max(1.0f, 0.3f * t);
            auto r = [&](float y) {
                return std::max(0.0f,
                                std::min(p.at(y - d), p.at(y + d)) - p.at(y));
            };
            float yt = 0.5f * (Ytop + F);
            float band = med(F + 0.15f * t, F + 0.85f * t);
            float above = std::max(1.5f, std::min(0.25f * bq, t));
            float con = std::min(med(yt - 0.5f * bq, yt + 0.5f * bq),
                                 med(F - above, F - 0.5f)) -
                        band;
            float z = (bq - o.b) / sigma_b;
            float sc = r(F) + 2.0f * std::min(0.25f, std::max(-0.5f, con)) -
                       0.4f * z * z;
            for (int j = 1; j < n; j++)
                sc += r(F + j * t) - r(F + (j - 0.5f) * t);
            sc -= r(F + (n - 0.5f) * t);
            if (sc > S[n]) {
                S[n] = sc;
                T[n] = t;
            }
        }
    }
    int best = -1;
    for (int n = 1; n <= nmax; n++)
        if (S[n] > -1e8f && (best < 0 || S[n] > S[best]))
            best = n;
    if (best < 0)
        return false;
    /* a ragged outline (a wrong cut between touching stacks, a base lost
     * in a shadow) misplaces Ytop or Ybot: be less sure */
    float margin = 0.15f + std::min(0.3f, 0.1f * std::max(0.0f, o.rms - 0.6f));
    int lo = best, hi = best;
    float second = -1e9f;
    for (int n = 1; n <= nmax; n++) {
        if (n != best)
            second = std::max(second, S[n]);
        if (S[n] >= S[best] - margin) {
            lo = std::min(lo, n);
            hi = std::max(hi, n);
        }
    }
    s->count = best;
    s->count_lo = lo;
    s->count_hi = hi;
    s->chip_px = T[best];
    /* sure by the margin over the runner-up; a range is a doubt */
    s->confidence = lo == hi ? std::min(1.0f, 0.6f + (S[best] - second)) : 0.4f;
    return true;
}

/*
 * Count the chips of a measured stack. The predicted thickness t0 follows
 * from the outline (chip_side.h's geometry). A stack that may be short
 * (under 12 chips by t0) is counted by count_short(), which does not trust
 * the outline's split of the height between top face and side. A taller
 * one (or a short one count_short() cannot place) is counted by a comb fit
 * to the profile p(y) of arc_profile(): r(y) = min(p(y - d), p(y + d)) -
 * p(y) (clipped at 0) responds to dark lines, not to the step between two
 * chip colours. A comb of period t in 0.85..1.18 t0 and phase ph is fitted
 * to r: the score is the sum of r at the teeth minus the sum midway between
 * them, over the lines between chips (from half a chip below the top
 * face's front edge to half a chip above the base; the base's own line may
 * vanish against a dark felt). The top face's front edge and the base lie
 * on the boundaries too, so both are snapped to the comb and the count is
 * the number of periods between them; an end a third of a period or more
 * off the comb makes the count a range. Without clear lines the count is
 * the height over t0, a range where t0's +-10% uncertainty allows more
 * than one value.
 */
void count_chips(const Frame &f, const Outline &o, fw_side_stack *s)
{
    float cos_e = std::sqrt(std::max(0.05f, 1 - (o.b / o.R) * (o.b / o.R)));
    float t0 = 2 * o.R * cos_e * kThickOverDia;
    float ya = o.yt + o.b, yb = o.yc + o.b;
    float H = yb - ya;
    float n_est = H / t0;
    s->chip_px = t0;

    bool done = false;
    if (n_est < 12.0f && t0 >= 2.5f)
        done = count_short(f, o, s);
    if (!done && n_est >= 2.5f && t0 >= 2.5f) {
        int y0 = std::max(0, (int)std::floor(ya - 2 * t0));
        int y1 = std::min(f.logi.rows - 1, (int)std::ceil(yb + 2 * t0));
        int ny = y1 - y0 + 1;
        std::vector<float> p = arc_profile(f, o, y0, ny), r(ny, 0.0f);
        int d = std::max(1, cvRound(0.3f * t0));
        for (int i = d; i < ny - d; i++)
            r[i] = std::max(0.0f, std::min(p[i - d], p[i + d]) - p[i]);
        auto r_at = [&](float y) {
            float yi = y - (float)y0;
            if (yi < 0 || yi > (float)(ny - 1))
                return 0.0f;
            int i0 = (int)yi;
            int i1 = std::min(i0 + 1, ny - 1);
            float a = yi - (float)i0;
            return r[i0] * (1 - a) + r[i1] * a;
        };
        float best = -1e9f, bt = t0, bph = 0, bteeth = 0, bmids = 0;
        float dt = std::max(0.01f, 0.2f * t0 / n_est);
        for (float t = 0.85f * t0; t <= 1.18f * t0; t += dt) {
            float wa = ya + 0.5f * t, wb = yb - 0.5f * t;
            for (float ph = 0; ph < t; ph += 0.25f) {
                int ka = (int)std::ceil((wa - ph) / t);
                int kb = (int)std::floor((wb - ph) / t);
                if (kb < ka)
                    continue;
                float st = 0, sm = 0;
                for (int k = ka; k <= kb; k++)
                    st += r_at(ph + k * t);
                for (int k = ka - 1; k <= kb; k++)
                    sm += r_at(ph + (k + 0.5f) * t);
                /* a sum, not a mean: a comb that drops a faint tooth at
                 * either end must not score higher for it */
                if (st - sm > best) {
                    best = st - sm;
                    bt = t;
                    bph = ph;
                    bteeth = st / (float)(kb - ka + 1);
                    bmids = sm / (float)(kb - ka + 2);
                }
            }
        }
        float contrast = bteeth / (bteeth + bmids + 1e-6f);
        if (bteeth > 0.02f && contrast >= 0.68f) {
            /* the lines lie on the boundaries between chips, and so do the
             * top face's front edge and the base: snap both to the grid */
            float t = bt;
            float ka_f = (ya - bph) / t, kb_f = (yb - bph) / t;
            float ka = std::round(ka_f), kb = std::round(kb_f);
            float fa = ka_f - ka, fb = kb_f - kb;
            int n = std::max(1, (int)(kb - ka));
            int lo = n, hi = n;
            /* an end a third of a chip or more off the grid may belong to
             * the next boundary: the count is then a range */
            const float doubt = 0.3f;
            if (fa > doubt)
                lo = n - 1;
            else if (fa < -doubt)
                hi = n + 1;
            if (fb > doubt)
                hi = std::max(hi, n + 1);
            else if (fb < -doubt)
                lo = std::min(lo, n - 1);
            lo = std::max(1, lo);
            s->count = n;
            s->count_lo = lo;
            s->count_hi = hi;
            s->chip_px = t;
            float strength = std::min(1.0f, (contrast - 0.68f) / 0.25f);
            float off = std::max(std::fabs(fa), std::fabs(fb));
            s->confidence = (0.55f + 0.45f * strength) *
                            (lo == hi ? 1.0f - 0.5f * off : 0.5f);
            done = true;
        }
    }
    if (!done) {
        int n = std::max(1, cvRound(n_est));
        s->count = n;
        s->count_lo = std::max(1, std::min(n, cvRound(n_est / 1.1f)));
        s->count_hi = std::max(n, cvRound(n_est / 0.9f));
        s->confidence = s->count_lo == s->count_hi ? 0.5f : 0.3f;
    }
}

/*
 * The top chip's colour: the median Lab of the middle of its top face (the
 * ellipse of centre (cx, yt) and semi-axes R, b, within 0.55 of its radius:
 * inside the inner ring, away from the edge spots).
 */
cv::Vec3f top_face_lab(const Frame &f, const Outline &o)
{
    std::vector<float> ch[3];
    int y0 = std::max(0, (int)std::floor(o.yt - 0.55f * o.b));
    int y1 = std::min(f.lab8.rows - 1, (int)std::ceil(o.yt + 0.55f * o.b));
    int x0 = std::max(0, (int)std::floor(o.cx - 0.55f * o.R));
    int x1 = std::min(f.lab8.cols - 1, (int)std::ceil(o.cx + 0.55f * o.R));
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            float u = (x - o.cx) / o.R, v = (y - o.yt) / std::max(0.5f, o.b);
            if (u * u + v * v > 0.55f * 0.55f)
                continue;
            cv::Vec3b q = f.lab8.at<cv::Vec3b>(y, x);
            for (int k = 0; k < 3; k++)
                ch[k].push_back(q[k]);
        }
    if (ch[0].empty()) {
        int x = std::min(std::max(cvRound(o.cx), 0), f.lab8.cols - 1);
        int y = std::min(std::max(cvRound(o.yt), 0), f.lab8.rows - 1);
        cv::Vec3b q = f.lab8.at<cv::Vec3b>(y, x);
        for (int k = 0; k < 3; k++)
            ch[k].push_back(q[k]);
    }
    float m[3];
    for (int k = 0; k < 3; k++)
        m[k] = median_of(ch[k]);
    return cv::Vec3f(m[0] * 100.0f / 255.0f, m[1] - 128.0f, m[2] - 128.0f);
}

/* The counter proper; may throw (cv::Exception, std::bad_alloc). */
void count_side(const cv::Mat &frame, const fw_calib_chip *set, int nset,
                std::vector<fw_side_stack> &out)
{
    Frame f;
    cv::Mat blurred;
    cv::GaussianBlur(frame, blurred, cv::Size(0, 0), 1.0);
    cv::cvtColor(blurred, f.lab8, cv::COLOR_BGR2Lab);
    /* log intensity: a dark line darkens every chip colour by the same
     * factor, so in log units its depth does not depend on the colour */
    float lut[766];
    for (int i = 0; i < 766; i++)
        lut[i] = std::log(1.0f + i / 3.0f);
    f.logi.create(frame.rows, frame.cols, CV_32FC1);
    for (int y = 0; y < frame.rows; y++) {
        const cv::Vec3b *row = frame.ptr<cv::Vec3b>(y);
        float *o = f.logi.ptr<float>(y);
        for (int x = 0; x < frame.cols; x++)
            o[x] = lut[row[x][0] + row[x][1] + row[x][2]];
    }
    felt_mask(f);

    cv::Mat label, stats, cents;
    int nl = cv::connectedComponentsWithStats(f.mask, label, stats, cents, 8,
                                              CV_32S);
    for (int id = 1; id < nl; id++) {
        cv::Rect box(stats.at<int>(id, cv::CC_STAT_LEFT),
                     stats.at<int>(id, cv::CC_STAT_TOP),
                     stats.at<int>(id, cv::CC_STAT_WIDTH),
                     stats.at<int>(id, cv::CC_STAT_HEIGHT));
        int area = stats.at<int>(id, cv::CC_STAT_AREA);
        if (box.width < 20 || box.height < 6 || area < 200)
            continue;
        std::vector<float> share;
        std::vector<cv::Vec2i> todo = split_region(f, label, id, box, share);
        /* a piece whose outline is not one cylinder may still hold two
         * stacks whose join voted weakly: split it once more at its
         * strongest vote, when that is clear enough and leaves two pieces
         * of like width */
        std::vector<int> depth(todo.size(), 0);
        while (!todo.empty()) {
            cv::Vec2i piece = todo.back();
            int level = depth.back();
            todo.pop_back();
            depth.pop_back();
            Outline o{};
            if (!measure_stack(f, label, id, piece[0], piece[1], box.y,
                               box.y + box.height - 1, &o)) {
                int w = piece[1] - piece[0] + 1, best = -1;
                for (int x = piece[0] + w / 3; x <= piece[1] - w / 3; x++)
                    if (best < 0 || share[x - box.x] > share[best - box.x])
                        best = x;
                if (level < 2 && best >= 0 && share[best - box.x] >= 0.25f) {
                    todo.push_back(cv::Vec2i(piece[0], best));
                    todo.push_back(cv::Vec2i(best + 1, piece[1]));
                    depth.push_back(level + 1);
                    depth.push_back(level + 1);
                }
                continue;
            }
            /* a stack cut by the frame cannot be measured (a shadow may
             * reach the edge: judge by the stack's own outline) */
            if (o.cx - o.R < 1 || o.cx + o.R > frame.cols - 2 ||
                o.yt - o.b < 1 || o.yc + o.b > frame.rows - 2)
                continue;
            fw_side_stack s;
            std::memset(&s, 0, sizeof s);
            s.x0 = o.cx - o.R;
            s.x1 = o.cx + o.R;
            s.top = o.yt - o.b;
            s.bottom = o.yc + o.b;
            count_chips(f, o, &s);
            name_color(top_face_lab(f, o), set, nset, s.top_color, &s.top_value,
                       &s.color_confidence);
            out.push_back(s);
        }
    }
    std::sort(out.begin(), out.end(),
              [](const fw_side_stack &a, const fw_side_stack &b) {
                  return a.x0 < b.x0;
              });
}

} // namespace

extern "C" int fw_chips_count_side(const uint8_t *bgr, int w, int h, int stride,
                                   const fw_calib_chip *set, int nset,
                                   fw_side_stack *out, int max, int *n)
{
    if (n)
        *n = 0;
    if (!bgr || !n || max < 0 || (max > 0 && !out) || nset < 0 ||
        (nset > 0 && !set))
        return fw_set_error(FW_EINVAL, "fw_chips_count_side: bad arguments");
    if (w < 64 || h < 64 || stride < 3 * w)
        return fw_set_error(FW_EINVAL,
                            "fw_chips_count_side: frame %dx%d (stride %d) is "
                            "too small",
                            w, h, stride);
    try {
        cv::Mat frame(h, w, CV_8UC3, const_cast<uint8_t *>(bgr),
                      (size_t)stride);
        std::vector<fw_side_stack> found;
        count_side(frame, set, nset, found);
        int m = (int)std::min(found.size(), (size_t)max);
        for (int i = 0; i < m; i++)
            out[i] = found[i];
        *n = m;
        return FW_OK;
    }
    FW_VISION_CATCH("fw_chips_count_side")
}

/* ------------------------------------------------------------------ */
/* the renderer                                                         */
/* ------------------------------------------------------------------ */

namespace
{

/* A chip's look as painted: BGR body and spot colours, spots, identity. */
struct Look {
    cv::Vec3f body, spot;
    int nspots;
    const char *name; /* borrowed from the look it came from */
    int64_t value;
};

bool finite3(const float v[3])
{
    return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]);
}

/* The painted look of chip c; false when its colours are not finite or it
 * has more than 24 spots. */
bool look_of(const fw_calib_chip &c, Look *l)
{
    if (!finite3(c.lab) || c.edge_spots < 0 || c.edge_spots > 24 ||
        (c.edge_spots > 0 && !finite3(c.edge_lab)))
        return false;
    cv::Vec3b body = lab_to_bgr(c.lab);
    cv::Vec3b spot = c.edge_spots > 0 ? lab_to_bgr(c.edge_lab)
                     : c.lab[0] > 70  ? cv::Vec3b(160, 70, 30)
                                      : cv::Vec3b(245, 245, 245);
    l->body = cv::Vec3f(body[0], body[1], body[2]);
    l->spot = cv::Vec3f(spot[0], spot[1], spot[2]);
    l->nspots = c.edge_spots > 0 ? c.edge_spots : 8;
    l->name = c.color;
    l->value = c.value;
    return true;
}

/*
 * Paint the background: a dark wall, the rail at the felt's far edge, and
 * the felt below it, darker towards the far edge (the light hangs over the
 * near half of the table); wood has grain. Returns the first row of felt,
 * or -1 for an unknown felt name.
 */
int paint_background(cv::Mat &img, const char *felt, cv::RNG &rng)
{
    cv::Vec3f base;
    bool wood = false;
    if (!felt || std::strcmp(felt, "green") == 0)
        base = cv::Vec3f(35, 95, 25);
    else if (std::strcmp(felt, "blue") == 0)
        base = cv::Vec3f(110, 60, 20);
    else if (std::strcmp(felt, "red") == 0)
        base = cv::Vec3f(30, 30, 120);
    else if (std::strcmp(felt, "wood") == 0) {
        base = cv::Vec3f(55, 95, 140);
        wood = true;
    } else
        return -1;
    int h = img.rows, w = img.cols;
    int horizon = (int)(h * rng.uniform(0.03f, 0.10f));
    int rail = std::max(2, (int)(h * rng.uniform(0.015f, 0.03f)));
    int felt_top = horizon + rail;
    float ph = rng.uniform(0.0f, 6.28f);
    for (int y = 0; y < h; y++) {
        cv::Vec3b *row = img.ptr<cv::Vec3b>(y);
        if (y < horizon) {
            float g = 0.7f + 0.3f * (float)y / (float)std::max(1, horizon);
            cv::Vec3b c(cv::saturate_cast<uchar>(58 * g),
                        cv::saturate_cast<uchar>(52 * g),
                        cv::saturate_cast<uchar>(48 * g));
            for (int x = 0; x < w; x++)
                row[x] = c;
            continue;
        }
        if (y < felt_top) {
            uchar v = y == horizon ? 70 : 20;
            for (int x = 0; x < w; x++)
                row[x] = cv::Vec3b(v, v, (uchar)(v + 3));
            continue;
        }
        float depth = (float)(y - felt_top) / (float)std::max(1, h - felt_top);
        float g = 0.85f + 0.2f * depth;
        /* grain runs away from the camera: finer towards the far edge */
        float freq = 0.05f / (0.4f + depth);
        for (int x = 0; x < w; x++) {
            float k = g;
            if (wood)
                k *= 0.92f + 0.08f * std::sin(freq * x + ph +
                                              2.0f * std::sin(0.01f * y));
            row[x] = cv::Vec3b(cv::saturate_cast<uchar>(base[0] * k),
                               cv::saturate_cast<uchar>(base[1] * k),
                               cv::saturate_cast<uchar>(base[2] * k));
        }
    }
    return felt_top;
}

/* A spot of `nspots` starting at `spin` covers rim angle a (0 = facing the
 * camera). Each spot spans 14 degrees of eight, narrower when more. */
bool on_spot(float a, float spin, int nspots)
{
    float half = (float)(7.0 * CV_PI / 180.0) * std::min(1.0f, 8.0f / nspots);
    float step = (float)(2 * CV_PI) / nspots;
    float rel = wrap_pi(a - spin);
    float k = std::round(rel / step);
    return std::fabs(rel - k * step) < half;
}

/*
 * Paint one chip: its side band between the front arcs of its bottom face
 * (centre row yB) and top face (yB - t), shaded as a cylinder lit from the
 * front left and above, with the edge spots as bars across it and a dark
 * groove `lw` high along its edges, half on each of two chips that touch;
 * and its top face, lit, with the spots
 * between 0.76 and 0.97 of its radius and the inner ring at 0.66. Chips
 * higher in the stack are painted later and cover all but a sliver of the
 * top face below. Anti-aliased: four samples down each pixel, and the
 * fraction of the pixel's width inside the chip.
 */
void paint_chip(cv::Mat &img, float cx, float yB, float R, float b, float t,
                float lw, const Look &l, float spin, float bright)
{
    int xlo = std::max(0, (int)std::floor(cx - R - 1));
    int xhi = std::min(img.cols - 1, (int)std::ceil(cx + R + 1));
    float yT = yB - t;
    for (int x = xlo; x <= xhi; x++) {
        float dx = (float)x - cx;
        float hcov = std::min(1.0f, std::max(0.0f, R + 0.5f - std::fabs(dx)));
        if (hcov <= 0)
            continue;
        float u = std::min(1.0f, std::max(-1.0f, dx / R));
        float s = std::sqrt(1 - u * u);
        float yo = b * s;
        float ytop = yT - yo, ybot = yB + yo;
        /* wrapped diffuse light: no flat, unlit band at the far edge */
        float shade = 0.38f + 0.25f * (1.0f - 0.42f * u + 0.907f * s);
        bool side_spot = on_spot(std::asin(u), spin, l.nspots);
        cv::Vec3f side = (side_spot ? l.spot : l.body) * (shade * bright);
        int ylo = std::max(0, (int)std::floor(ytop));
        int yhi = std::min(img.rows - 1, (int)std::ceil(ybot));
        for (int y = ylo; y <= yhi; y++) {
            cv::Vec3f acc(0, 0, 0);
            int inside = 0;
            for (int k = 0; k < 4; k++) {
                float ys = (float)y - 0.375f + 0.25f * (float)k;
                if (ys < ytop || ys > ybot)
                    continue;
                inside++;
                if (ys < yT + yo) {
                    float v = (ys - yT) / std::max(b, 0.5f);
                    float rho = std::sqrt(u * u + v * v);
                    bool spot = std::fabs(rho - 0.66f) < 0.03f ||
                                (rho > 0.76f && rho < 0.97f &&
                                 on_spot(std::atan2(u, v), spin, l.nspots));
                    acc += (spot ? l.spot : l.body) * (1.08f * bright);
                } else if (ybot - ys < 0.5f * lw ||
                           ys - (yT + yo) < 0.5f * lw) {
                    acc += side * 0.45f;
                } else {
                    acc += side;
                }
            }
            if (!inside)
                continue;
            float a = hcov * (float)inside / 4.0f;
            cv::Vec3b &px = img.at<cv::Vec3b>(y, x);
            for (int c = 0; c < 3; c++)
                px[c] = cv::saturate_cast<uchar>(px[c] * (1 - a) +
                                                 acc[c] / inside * a);
        }
    }
}

/* One stack as laid out: where it stands and its scale. */
struct Placed {
    int spec;
    float cx, ybase; /* centre column, centre row of the base face */
    float t, R, b;
    bool placed;
};

} // namespace

extern "C" int fw_chips_render_side(uint8_t *bgr, int w, int h, int stride,
                                    uint32_t seed, const char *felt,
                                    const fw_side_view *view,
                                    const fw_side_spec *stacks, int nstacks,
                                    fw_side_stack *truth)
{
    if (!bgr || w < 64 || h < 64 || stride < 3 * w || nstacks < 0 ||
        nstacks > 16 || (nstacks > 0 && !stacks))
        return fw_set_error(FW_EINVAL, "fw_chips_render_side: bad arguments");
    int nmax = 1;
    for (int i = 0; i < nstacks; i++) {
        if (stacks[i].nchips < 1 || stacks[i].nchips > FW_SIDE_MAX_CHIPS)
            return fw_set_error(FW_EINVAL,
                                "fw_chips_render_side: stack %d has %d chips "
                                "(1..%d)",
                                i, stacks[i].nchips, FW_SIDE_MAX_CHIPS);
        nmax = std::max(nmax, stacks[i].nchips);
    }
    if (view &&
        (!std::isfinite(view->elevation_deg) || !std::isfinite(view->chip_px) ||
         (view->elevation_deg != 0 &&
          (view->elevation_deg < 10 || view->elevation_deg > 35)) ||
         (view->chip_px != 0 && (view->chip_px < 3 || view->chip_px > 20))))
        return fw_set_error(FW_EINVAL,
                            "fw_chips_render_side: view out of range "
                            "(elevation 10..35 degrees, chip 3..20 px)");
    try {
        cv::Mat img(h, w, CV_8UC3, bgr, (size_t)stride);
        cv::RNG rng(0x51de5eedULL ^ ((uint64_t)seed << 17) ^ seed);
        int felt_top = paint_background(img, felt, rng);
        if (felt_top < 0)
            return fw_set_error(
                FW_EINVAL, "fw_chips_render_side: unknown felt \"%s\"", felt);
        /* the looks, checked before anything is drawn */
        std::vector<std::vector<Look>> looks(nstacks);
        std::vector<Look> fixed(FW_CHIPS_NCOLORS);
        fw_calib_chip fixed_chip[FW_CHIPS_NCOLORS];
        for (int i = 0; i < FW_CHIPS_NCOLORS; i++) {
            if (fw_chips_look(fw_chips_color_name(i), 0, &fixed_chip[i]) != FW_OK ||
                !look_of(fixed_chip[i], &fixed[i]))
                return fw_set_error(FW_EINTERNAL,
                                    "fw_chips_render_side: no look for %s",
                                    fw_chips_color_name(i));
        }
        for (int i = 0; i < nstacks; i++) {
            const fw_side_spec &sp = stacks[i];
            if (sp.chips) {
                for (int k = 0; k < sp.nchips; k++) {
                    Look l;
                    if (!look_of(sp.chips[k], &l))
                        return fw_set_error(FW_EINVAL,
                                            "fw_chips_render_side: stack %d "
                                            "chip %d: colour not finite or "
                                            "over 24 spots",
                                            i, k);
                    looks[i].push_back(l);
                }
            } else {
                /* most stacks are of one colour; some are mixed, in runs */
                bool mixed = rng.uniform(0.0f, 1.0f) < 0.35f;
                int c = rng.uniform(0, FW_CHIPS_NCOLORS);
                for (int k = 0; k < sp.nchips; k++) {
                    if (mixed && rng.uniform(0.0f, 1.0f) < 0.3f)
                        c = rng.uniform(0, FW_CHIPS_NCOLORS);
                    looks[i].push_back(fixed[c]);
                }
            }
        }

        /* the view: elevation, then the largest chip thickness that fits */
        float e_deg = view && view->elevation_deg > 0
                          ? view->elevation_deg
                          : rng.uniform(10.0f, 35.0f);
        float e = e_deg * (float)(CV_PI / 180.0);
        bool touching = view && view->touching;
        float r_per_t = 0.5f / (kThickOverDia * std::cos(e)); /* R / t */
        float b_per_t = r_per_t * std::sin(e);
        int nst = std::max(1, nstacks);
        float fit_h = (float)(h - 8) / ((nmax + 2 * b_per_t) * 1.06f);
        /* stacks cover at most 40% of the width: the felt stays the
         * majority of every row */
        float fit_w = 0.4f * (float)w / (nst * 2 * r_per_t * 1.06f);
        float fit = std::min(20.0f, std::min(fit_h, fit_w));
        float t;
        if (view && view->chip_px > 0) {
            t = view->chip_px;
            if (t > fit + 1e-3f)
                return fw_set_error(FW_EINVAL,
                                    "fw_chips_render_side: %d stacks of up "
                                    "to %d chips at %.1f px a chip do not "
                                    "fit %dx%d",
                                    nstacks, nmax, t, w, h);
        } else {
            if (fit < 3.0f)
                return fw_set_error(FW_EINVAL,
                                    "fw_chips_render_side: %d stacks of up "
                                    "to %d chips do not fit %dx%d",
                                    nstacks, nmax, w, h);
            t = rng.uniform(std::min(5.0f, fit), fit);
        }

        /* where each stack stands: its base row within what keeps it on
         * the felt and in the frame; nearer (lower) stacks a little larger */
        std::vector<Placed> at(nstacks);
        float row_base = 0;
        for (int i = 0; i < nstacks; i++) {
            Placed &p = at[i];
            p.spec = i;
            p.placed = false;
            float n = (float)stacks[i].nchips;
            float bt = b_per_t * t * 1.06f;
            float lo =
                std::max((float)felt_top + 4 + bt, 4 + n * t * 1.06f + bt);
            float hi = (float)(h - 4) - bt;
            if (touching) {
                /* one row: the tallest stack sets the range */
                lo = std::max((float)felt_top + 4 + bt,
                              4 + nmax * t * 1.06f + bt);
                if (i == 0)
                    row_base = rng.uniform(lo, std::max(lo, hi));
                p.ybase = row_base;
                p.t = t;
            } else {
                p.ybase = rng.uniform(lo, std::max(lo, hi));
                float frac = hi > lo ? (p.ybase - lo) / (hi - lo) : 1.0f;
                p.t = t * (0.95f + 0.06f * frac);
            }
            p.R = r_per_t * p.t;
            p.b = b_per_t * p.t;
        }
        if (touching) {
            float total = 0;
            for (const Placed &p : at)
                total += 2 * p.R;
            float x = rng.uniform(6.0f, std::max(6.0f, w - 6 - total));
            for (Placed &p : at) {
                p.cx = x + p.R;
                x += 2 * p.R;
                p.placed = true;
            }
        } else {
            for (int i = 0; i < nstacks; i++) {
                Placed &p = at[i];
                for (int tries = 0; tries < 2000 && !p.placed; tries++) {
                    p.cx = rng.uniform(p.R + 6, std::max(p.R + 6, w - p.R - 6));
                    bool free = true;
                    for (int j = 0; j < i; j++)
                        if (at[j].placed && std::fabs(at[j].cx - p.cx) <
                                                1.35f * (at[j].R + p.R))
                            free = false;
                    p.placed = free;
                }
            }
        }

        /* soft shadows behind and under the stacks, on the felt only */
        cv::Mat shade(h, w, CV_32FC1, cv::Scalar(0));
        float mean_r = 0;
        int nplaced = 0;
        for (const Placed &p : at)
            if (p.placed) {
                cv::ellipse(shade,
                            cv::Point(cvRound((p.cx + 0.25f * p.R) * 16),
                                      cvRound((p.ybase - 0.35f * p.b) * 16)),
                            cv::Size(cvRound(1.05f * p.R * 16),
                                     cvRound(1.2f * p.b * 16)),
                            0, 0, 360, cv::Scalar(0.22), cv::FILLED,
                            cv::LINE_AA, 4);
                mean_r += p.R;
                nplaced++;
            }
        if (nplaced) {
            cv::GaussianBlur(shade, shade, cv::Size(0, 0),
                             std::max(1.0f, 0.1f * mean_r / nplaced));
            for (int y = felt_top; y < h; y++) {
                cv::Vec3b *row = img.ptr<cv::Vec3b>(y);
                const float *sh = shade.ptr<float>(y);
                for (int x = 0; x < w; x++)
                    if (sh[x] > 0.002f)
                        for (int k = 0; k < 3; k++)
                            row[x][k] = cv::saturate_cast<uchar>(
                                row[x][k] * (1.0f - sh[x]));
            }
        }

        /* far stacks first, so that nearer ones cover them */
        std::vector<int> order;
        for (int i = 0; i < nstacks; i++)
            order.push_back(i);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            return at[a].ybase < at[b].ybase;
        });
        if (truth)
            std::memset(truth, 0, sizeof(fw_side_stack) * (size_t)nstacks);
        for (int i : order) {
            const Placed &p = at[i];
            if (!p.placed)
                continue;
            int n = stacks[i].nchips;
            float lw = std::max(0.9f, 0.09f * p.t);
            float jit = rng.uniform(0.006f, 0.018f) * p.R;
            float xmin = 1e9f, xmax = -1e9f;
            for (int k = 0; k < n; k++) {
                float dx = (float)rng.gaussian(jit);
                dx = std::min(2.5f * jit, std::max(-2.5f * jit, dx));
                if (touching)
                    dx *= 0.5f; /* neighbours overlap by a pixel at most */
                float cx = p.cx + dx;
                paint_chip(img, cx, p.ybase - k * p.t, p.R, p.b, p.t, lw,
                           looks[i][k], rng.uniform(0.0f, (float)(2 * CV_PI)),
                           rng.uniform(0.96f, 1.04f));
                xmin = std::min(xmin, cx - p.R);
                xmax = std::max(xmax, cx + p.R);
            }
            if (truth) {
                fw_side_stack &tr = truth[i];
                tr.x0 = xmin;
                tr.x1 = xmax;
                tr.top = p.ybase - n * p.t - p.b;
                tr.bottom = p.ybase + p.b;
                tr.chip_px = p.t;
                tr.count = tr.count_lo = tr.count_hi = n;
                tr.confidence = 1.0f;
                set_name(tr.top_color, looks[i][n - 1].name);
                tr.top_value = looks[i][n - 1].value;
                tr.color_confidence = 1.0f;
            }
        }

        /* lighting across the frame, the lens's softness, sensor noise */
        float gx = rng.uniform(-0.2f, 0.2f), gy = rng.uniform(-0.15f, 0.15f);
        for (int y = 0; y < h; y++) {
            cv::Vec3b *row = img.ptr<cv::Vec3b>(y);
            for (int x = 0; x < w; x++) {
                float g =
                    1 + gx * ((float)x / w - 0.5f) + gy * ((float)y / h - 0.5f);
                for (int k = 0; k < 3; k++)
                    row[x][k] = cv::saturate_cast<uchar>(row[x][k] * g);
            }
        }
        cv::GaussianBlur(img, img, cv::Size(0, 0), rng.uniform(0.35, 0.75));
        cv::Mat noise(h, w, CV_16SC3);
        rng.fill(noise, cv::RNG::NORMAL, 0, rng.uniform(2.0, 4.0));
        cv::add(img, noise, img, cv::noArray(), CV_8UC3);
        int drawn = 0;
        for (const Placed &p : at)
            drawn += p.placed ? 1 : 0;
        return drawn;
    }
    FW_VISION_CATCH("fw_chips_render_side")
}
