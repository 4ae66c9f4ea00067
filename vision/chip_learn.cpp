/*
 * chip_learn.cpp - learn a chip's look from one photo of it (chip_learn.h),
 * a C++17 OpenCV shim behind a plain C API.
 *
 * Finding the chip: the background is the median CIE Lab of the image's
 * border; on a copy scaled to at most 600 pixels on its shorter side every
 * pixel becomes its Lab distance from the background, and the gradient
 * Hough transform over a wide radius range proposes circles (plus two
 * about the image's centre, for a chip filling the photo). Each proposal
 * is refined on the Lab image itself: along 180 rays from its centre the
 * outermost strong colour edge is the rim (the edge spots and the inner
 * ring lie inside it, the soft shadow outside is no strong edge); a circle
 * is fitted to those rim points with outliers dropped, widened to the
 * outermost concentric circle that enough rays show (a chip of the
 * background's colour shows its inner ring all round, its rim only in
 * places), then fitted twice more within +-15%. A proposal's support is
 * the fraction of rays whose rim point lies on its fitted circle. Circles
 * inside another are parts of a chip (a spot, the inner ring); of the
 * rest the best supported is the chip, unless another one, apart from it
 * and of a like size, is nearly as well supported (two chips in the
 * photo).
 *
 * Measuring it: the chip is cut out of the full image (scaled down to a
 * radius of at most 300 pixels), its circle fitted once more there, and
 * its body and edge read as chip_learn.h describes.
 */
#include "chip_learn.h"

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

/* A circle and how much of its rim the image shows. */
struct Fit {
    cv::Point2f c;
    float r;
    float support; /* fraction of rays with a rim point on the circle */
};

/* What the search found. */
enum class Found { one, none, several };

/* BGR 8-bit to CIE Lab in real units (float). */
cv::Mat to_lab(const cv::Mat &bgr)
{
    cv::Mat f, lab;
    bgr.convertTo(f, CV_32FC3, 1.0 / 255.0);
    cv::cvtColor(f, lab, cv::COLOR_BGR2Lab);
    return lab;
}

float lab_dist(const cv::Vec3f &a, const cv::Vec3f &b)
{
    cv::Vec3f d = a - b;
    return std::sqrt(d.dot(d));
}

/* Per-channel median of a list of colours (the list is reordered). */
cv::Vec3f median_of(std::vector<cv::Vec3f> &px)
{
    cv::Vec3f m;
    std::vector<float> ch(px.size());
    for (int k = 0; k < 3; k++) {
        for (size_t i = 0; i < px.size(); i++)
            ch[i] = px[i][k];
        auto mid = ch.begin() + (long)(ch.size() / 2);
        std::nth_element(ch.begin(), mid, ch.end());
        m[k] = *mid;
    }
    return m;
}

/*
 * The median colour of the image's border: a band of a 25th of the shorter
 * side (at least two pixels) along all four edges, every `step`-th pixel.
 */
cv::Vec3f border_lab(const cv::Mat &lab)
{
    int band = std::max(2, std::min(lab.cols, lab.rows) / 25);
    int step = std::max(1, (lab.cols + lab.rows) / 800);
    std::vector<cv::Vec3f> px;
    for (int y = 0; y < lab.rows; y += step) {
        const cv::Vec3f *row = lab.ptr<cv::Vec3f>(y);
        bool edge_row = y < band || y >= lab.rows - band;
        for (int x = 0; x < lab.cols; x += step)
            if (edge_row || x < band || x >= lab.cols - band)
                px.push_back(row[x]);
    }
    return median_of(px);
}

/* The Lab distance between two colours given as three floats. */
inline float dist3(const float *a, const float *b)
{
    float d0 = a[0] - b[0], d1 = a[1] - b[1], d2 = a[2] - b[2];
    return std::sqrt(d0 * d0 + d1 * d1 + d2 * d2);
}

/* Bilinear sample of a CV_32FC3 image into out[3]; false off the image.
 * Plain floats: this is the inner loop of the search. */
bool sample(const cv::Mat &lab, float x, float y, float *out)
{
    if (!(x >= 0 && y >= 0 && x <= lab.cols - 1 && y <= lab.rows - 1))
        return false;
    int x0 = std::max(0, std::min((int)x, lab.cols - 2));
    int y0 = std::max(0, std::min((int)y, lab.rows - 2));
    int dx = x0 + 1 < lab.cols ? 3 : 0;
    const float *p = lab.ptr<float>(y0) + 3 * x0;
    const float *q = y0 + 1 < lab.rows ? lab.ptr<float>(y0 + 1) + 3 * x0 : p;
    float fx = x - (float)x0, fy = y - (float)y0;
    for (int k = 0; k < 3; k++) {
        float top = p[k] + (p[k + dx] - p[k]) * fx;
        float bot = q[k] + (q[k + dx] - q[k]) * fx;
        out[k] = top + (bot - top) * fy;
    }
    return true;
}

/*
 * Fit a circle to points by least squares on x^2 + y^2 + Dx + Ey + F = 0
 * (Kasa), about the points' mean for conditioning. False for fewer than
 * three points or a degenerate set.
 */
bool fit_circle(const std::vector<cv::Point2f> &pts, cv::Point2f *c, float *r)
{
    if (pts.size() < 3)
        return false;
    double mx = 0, my = 0;
    for (const cv::Point2f &p : pts) {
        mx += p.x;
        my += p.y;
    }
    mx /= (double)pts.size();
    my /= (double)pts.size();
    cv::Matx33d a = cv::Matx33d::zeros();
    cv::Vec3d b(0, 0, 0);
    for (const cv::Point2f &p : pts) {
        double x = p.x - mx, y = p.y - my, z = x * x + y * y;
        cv::Vec3d row(x, y, 1);
        a += row * row.t();
        b += row * -z;
    }
    cv::Vec3d s;
    if (!cv::solve(a, b, s, cv::DECOMP_SVD))
        return false;
    double cx = -s[0] / 2, cy = -s[1] / 2;
    double r2 = cx * cx + cy * cy - s[2];
    if (!(r2 > 0) || !std::isfinite(r2))
        return false;
    *c = cv::Point2f((float)(cx + mx), (float)(cy + my));
    *r = (float)std::sqrt(r2);
    return true;
}

/*
 * A circle fit that ignores outliers: fit, drop the points farther from the
 * circle than 2.5 robust standard deviations (at least a pixel), refit,
 * four times. False when fewer than 12 points remain.
 */
bool robust_fit(std::vector<cv::Point2f> pts, cv::Point2f *c, float *r)
{
    for (int it = 0; it < 4; it++) {
        if (pts.size() < 12 || !fit_circle(pts, c, r))
            return false;
        std::vector<float> res(pts.size());
        for (size_t i = 0; i < pts.size(); i++)
            res[i] = std::abs((float)cv::norm(pts[i] - *c) - *r);
        std::vector<float> sorted = res;
        auto mid = sorted.begin() + (long)(sorted.size() / 2);
        std::nth_element(sorted.begin(), mid, sorted.end());
        float tol = std::max(1.0f, 2.5f * 1.4826f * *mid);
        std::vector<cv::Point2f> kept;
        for (size_t i = 0; i < pts.size(); i++)
            if (res[i] <= tol)
                kept.push_back(pts[i]);
        if (kept.size() == pts.size())
            break;
        pts.swap(kept);
    }
    return pts.size() >= 12;
}

/* The least Lab difference across an edge that counts as a chip's rim. */
const float kStrongEdge = 10.0f;

/*
 * Along `nrays` rays from c, between lo*r and hi*r (or the image's edge),
 * the outermost strong colour edge of lab: a local maximum of the Lab
 * difference across +-delta that is at least kStrongEdge and a fifth of
 * the ray's strongest. Rim points go to *pts (one per ray at most); rays
 * that show no strong edge give none.
 */
void rim_points(const cv::Mat &lab, cv::Point2f c, float r, float lo, float hi,
                int nrays, std::vector<cv::Point2f> *pts)
{
    pts->clear();
    float step = std::max(0.5f, 0.005f * r);
    float delta = std::max(1.2f, 0.015f * r);
    int k = std::max(1, (int)std::lround(delta / step));
    int n = (int)((hi - lo) * r / step) + 1 + 2 * k;
    std::vector<float> prof((size_t)n * 3);
    std::vector<float> e((size_t)n, 0.0f);
    float r0 = std::max(0.0f, lo * r - k * step);
    for (int i = 0; i < nrays; i++) {
        float a = (float)(2 * CV_PI * i / nrays);
        float ca = std::cos(a), sa = std::sin(a);
        int m = 0; /* samples on the image */
        while (m < n &&
               sample(lab, c.x + (r0 + m * step) * ca,
                      c.y + (r0 + m * step) * sa, &prof[(size_t)m * 3]))
            m++;
        if (m < 2 * k + 3)
            continue;
        float emax = 0;
        for (int j = k; j < m - k; j++) {
            e[(size_t)j] =
                dist3(&prof[(size_t)(j + k) * 3], &prof[(size_t)(j - k) * 3]);
            emax = std::max(emax, e[(size_t)j]);
        }
        float strong = std::max(kStrongEdge, 0.2f * emax);
        for (int j = m - k - 1; j >= k; j--) {
            float v = e[(size_t)j];
            float before = j > k ? e[(size_t)(j - 1)] : 0.0f;
            float after = j < m - k - 1 ? e[(size_t)(j + 1)] : 0.0f;
            if (v >= strong && v >= before && v >= after) {
                float rho = r0 + j * step;
                pts->push_back(cv::Point2f(c.x + rho * ca, c.y + rho * sa));
                break;
            }
        }
    }
}

/*
 * The largest radius, as a multiple of r, at which at least 20% of the
 * `nrays` rays from c have their outermost strong edge (within +-4%),
 * spread all round (no gap of 150 degrees without one), looking between
 * 0.5 r and 1.6 r; 1 when there is none. A chip whose body is the
 * background's colour shows its inner ring all round but its rim only at
 * its edge spots and where its shadow falls: a fit to the most rim points
 * finds the ring, and this finds the rim beyond it. A shadow's edge,
 * falling to one side, is not taken for a rim.
 */
float outer_rim(const cv::Mat &lab, cv::Point2f c, float r, int nrays)
{
    std::vector<cv::Point2f> pts;
    rim_points(lab, c, r, 0.5f, 1.6f, nrays, &pts);
    std::vector<float> q(pts.size()), ang(pts.size());
    for (size_t i = 0; i < pts.size(); i++) {
        q[i] = (float)(cv::norm(pts[i] - c) / r);
        ang[i] = std::atan2(pts[i].y - c.y, pts[i].x - c.x);
    }
    std::vector<float> in;
    for (float at = 1.6f; at >= 0.54f; at -= 0.01f) {
        in.clear();
        double sum = 0;
        for (size_t i = 0; i < q.size(); i++)
            if (std::abs(q[i] - at) <= 0.04f) {
                in.push_back(ang[i]);
                sum += q[i];
            }
        if ((float)in.size() < 0.2f * nrays)
            continue;
        std::sort(in.begin(), in.end());
        float gap = (float)(2 * CV_PI) - (in.back() - in.front());
        for (size_t i = 1; i < in.size(); i++)
            gap = std::max(gap, in[i] - in[i - 1]);
        if (gap < (float)(150.0 * CV_PI / 180.0))
            return (float)(sum / (double)in.size()); /* the cluster's mean */
    }
    return 1.0f;
}

/*
 * Refine a proposed circle on lab: when `wide`, rim points over a wide
 * window (0.4-1.6 r, so that a proposal of the inner ring's or twice the
 * chip's radius still reaches the rim), a robust fit, and the outermost
 * rim about its centre (outer_rim); then twice rim points within +-15% of
 * the circle and a robust fit. The support is the fraction of all `nrays`
 * rays whose rim point lies within max(1.5 px, 4% r) of the final circle.
 * False when no circle could be fitted.
 */
bool refine(const cv::Mat &lab, cv::Point2f c, float r, int nrays, bool wide,
            Fit *out)
{
    std::vector<cv::Point2f> pts;
    /* a fit to nearly straight points can give any size: not a chip */
    float most = 2.0f * (float)std::max(lab.cols, lab.rows);
    if (wide) {
        rim_points(lab, c, r, 0.4f, 1.6f, nrays, &pts);
        if (!robust_fit(pts, &c, &r) || !(r > 2 && r < most))
            return false;
        r *= outer_rim(lab, c, r, nrays);
    }
    for (int pass = 0; pass < 2; pass++) {
        rim_points(lab, c, r, 0.85f, 1.15f, nrays, &pts);
        if (!robust_fit(pts, &c, &r) || !(r > 2 && r < most))
            return false;
    }
    rim_points(lab, c, r, 0.85f, 1.15f, nrays, &pts);
    float tol = std::max(1.5f, 0.04f * r);
    int on = 0;
    for (const cv::Point2f &p : pts)
        if (std::abs((float)cv::norm(p - c) - r) <= tol)
            on++;
    out->c = c;
    out->r = r;
    out->support = (float)on / (float)nrays;
    return std::isfinite(c.x) && std::isfinite(c.y) && std::isfinite(r);
}

/* Least support of a chip's rim: a chip of the paper's colour shows its
 * rim only through its edge spots and its shadow, 40-50% of it, and a
 * small grey chip with white spots on white paper its body's edge only. */
const float kMinSupport = 0.3f;

/*
 * Find the chip in `small` (the image scaled to at most 600 px on its
 * shorter side): see the file comment. *best receives the chip's circle in
 * small's pixels; on Found::several, *other the rival.
 */
Found find_chip(const cv::Mat &small, Fit *best, Fit *other)
{
    cv::Mat lab = to_lab(small);
    cv::Vec3f bg = border_lab(lab);
    /* distance from the background through the detector's saturating
     * curve (chips.cpp): index in half Lab units */
    uchar lut[256];
    for (int i = 0; i < 256; i++)
        lut[i] = cv::saturate_cast<uchar>(255.0 * (1.0 - std::exp(-i / 44.0)));
    cv::Mat d(lab.size(), CV_8UC1);
    for (int y = 0; y < lab.rows; y++) {
        const cv::Vec3f *row = lab.ptr<cv::Vec3f>(y);
        uchar *o = d.ptr<uchar>(y);
        for (int x = 0; x < lab.cols; x++)
            o[x] =
                lut[cv::saturate_cast<uchar>(2.0f * dist3(row[x].val, bg.val))];
    }
    cv::GaussianBlur(d, d, cv::Size(0, 0), 1.5);
    cv::Mat smooth;
    cv::GaussianBlur(lab, smooth, cv::Size(0, 0), 1.0);

    int mn = std::min(small.cols, small.rows);
    int rmin = std::max(10, mn / 40);
    int rmax = std::max(rmin + 1, (int)(0.55 * mn));
    std::vector<cv::Vec3f> found;
    cv::HoughCircles(d, found, cv::HOUGH_GRADIENT, 1, std::max(4, rmin), 60, 15,
                     rmin, rmax);
    /* the image's centre at two sizes: a chip filling the photo gives the
     * Hough transform few votes but is found from here */
    found.push_back(cv::Vec3f(small.cols / 2.0f, small.rows / 2.0f, 0.3f * mn));
    found.push_back(
        cv::Vec3f(small.cols / 2.0f, small.rows / 2.0f, 0.15f * mn));

    std::vector<Fit> fits;
    for (size_t i = 0; i < found.size() && i < 40; i++) {
        /* a proposal about a circle already refined would only find it
         * again */
        cv::Point2f at(found[i][0], found[i][1]);
        bool known = false;
        for (const Fit &g : fits)
            if (cv::norm(at - g.c) < 0.2f * g.r && found[i][2] > 0.7f * g.r &&
                found[i][2] < 1.5f * g.r)
                known = true;
        if (known)
            continue;
        Fit f;
        if (!refine(smooth, cv::Point2f(found[i][0], found[i][1]), found[i][2],
                    180, true, &f))
            continue;
        if (f.r < 0.8f * rmin || f.r > 1.2f * rmax || f.support < kMinSupport ||
            f.c.x < 0 || f.c.y < 0 || f.c.x >= small.cols ||
            f.c.y >= small.rows)
            continue;
        fits.push_back(f);
    }
    /* a circle inside a larger one, or a small one centred in it, is a
     * part of a chip (a spot, the inner ring), not a chip */
    std::vector<Fit> outer;
    for (const Fit &f : fits) {
        bool inside = false;
        for (const Fit &g : fits) {
            float apart = (float)cv::norm(f.c - g.c);
            if (g.r > 1.15f * f.r &&
                (apart + f.r < 1.1f * g.r || (apart < g.r && f.r < 0.5f * g.r)))
                inside = true;
        }
        if (!inside)
            outer.push_back(f);
    }
    fits.swap(outer);
    /* of two fits about the same place, one a little larger and about as
     * well supported, the larger: a fit mixing the inner ring on one side
     * and the rim on the other lies inside the chip */
    outer.clear();
    for (const Fit &f : fits) {
        bool dominated = false;
        for (const Fit &g : fits)
            if (g.r > f.r && g.r < 1.25f * f.r &&
                cv::norm(f.c - g.c) < 0.25f * g.r &&
                g.support >= 0.8f * f.support)
                dominated = true;
        if (!dominated)
            outer.push_back(f);
    }
    fits.swap(outer);
    if (fits.empty())
        return Found::none;
    /* the best supported; ties go to the one nearer the centre */
    cv::Point2f mid(small.cols / 2.0f, small.rows / 2.0f);
    auto better = [&](const Fit &a, const Fit &b) {
        if (std::abs(a.support - b.support) > 0.02f)
            return a.support > b.support;
        return cv::norm(a.c - mid) < cv::norm(b.c - mid);
    };
    std::sort(fits.begin(), fits.end(), better);
    *best = fits[0];
    for (size_t i = 1; i < fits.size(); i++) {
        const Fit &f = fits[i];
        bool apart = cv::norm(f.c - best->c) > 0.8f * (f.r + best->r);
        bool alike = f.r > 0.6f * best->r && f.r < 1.67f * best->r;
        if (apart && alike && f.support >= 0.75f * best->support) {
            *other = f;
            return Found::several;
        }
    }
    return Found::one;
}

/* The chip's body and edge, read from `lab` (its circle c, r): see
 * chip_learn.h. */
void measure(const cv::Mat &lab, cv::Point2f c, float r, fw_calib_chip *out)
{
    /* body: the disc within 0.55 r, at most about 40000 samples */
    std::vector<cv::Vec3f> px;
    float rb = 0.55f * r;
    int step = std::max(1, (int)(rb / 110.0f));
    for (int y = (int)std::ceil(c.y - rb); y <= (int)(c.y + rb); y += step)
        for (int x = (int)std::ceil(c.x - rb); x <= (int)(c.x + rb);
             x += step) {
            float dx = x - c.x, dy = y - c.y;
            if (x < 0 || y < 0 || x >= lab.cols || y >= lab.rows ||
                dx * dx + dy * dy > rb * rb)
                continue;
            px.push_back(lab.at<cv::Vec3f>(y, x));
        }
    cv::Vec3f body = px.empty() ? cv::Vec3f(0, 0, 0) : median_of(px);
    for (int k = 0; k < 3; k++)
        out->lab[k] = body[k];

    /* edge: 720 angles, five radii across the spots' band */
    const int n = 720;
    static const float radii[5] = {0.79f, 0.8275f, 0.865f, 0.9025f, 0.94f};
    std::vector<cv::Vec3f> ring((size_t)n * 5);
    std::vector<float> dist((size_t)n);
    int seen = 0;
    for (int i = 0; i < n; i++) {
        float a = (float)(2 * CV_PI * i / n);
        cv::Vec3f sum(0, 0, 0);
        int got = 0;
        for (int k = 0; k < 5; k++) {
            cv::Vec3f v = body;
            if (sample(lab, c.x + radii[k] * r * std::cos(a),
                       c.y + radii[k] * r * std::sin(a), v.val))
                got++;
            ring[(size_t)(i * 5 + k)] = v;
            sum += v;
        }
        seen += got == 5;
        dist[(size_t)i] = lab_dist(sum * 0.2f, body);
    }
    out->edge_spots = 0;
    if (seen < n / 2)
        return; /* the rim is mostly off the image */
    std::vector<float> sorted = dist;
    std::sort(sorted.begin(), sorted.end());
    /* spots cover at most about a third of the rim (chips.cpp), a single
     * one 4%: the body is the lower quarter, the spots the top 1% */
    float base = sorted[(size_t)n / 4],
          peak = sorted[(size_t)(n - n / 100 - 1)];
    if (peak - base < 12.0f)
        return; /* no contrasting spots */
    float thr = base + 0.5f * (peak - base);
    std::vector<char> spot((size_t)n);
    for (int i = 0; i < n; i++)
        spot[(size_t)i] = dist[(size_t)i] > thr;
    /* a run of spot angles, circular: start just after a body angle */
    int start = -1;
    for (int i = 0; i < n && start < 0; i++)
        if (!spot[(size_t)i])
            start = i;
    if (start < 0)
        return; /* spots all round: a ring, not a pattern */
    /* drop specks and fill nicks of a single sample (half a degree) */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            char prev = spot[(size_t)((i + n - 1) % n)];
            char next = spot[(size_t)((i + 1) % n)];
            if (prev == next && spot[(size_t)i] != prev)
                spot[(size_t)i] = prev;
        }
    std::vector<cv::Vec3f> core;
    int runs = 0;
    for (int j = 0; j < n;) {
        int i = (start + j) % n;
        if (!spot[(size_t)i]) {
            j++;
            continue;
        }
        int len = 0;
        while (j + len < n && spot[(size_t)((start + j + len) % n)])
            len++;
        if (len >= 2) {
            runs++;
            /* the middle half of the run, the middle three radii: away
             * from the blur at the spot's sides and ends */
            int from = len / 4, to = std::max(from + 1, len - len / 4);
            for (int q = from; q < to; q++)
                for (int k = 1; k < 4; k++)
                    core.push_back(
                        ring[(size_t)(((start + j + q) % n) * 5 + k)]);
        }
        j += len;
    }
    if (runs < 1 || runs > 24 || core.empty())
        return; /* too many to be a chip's spots: edge not known */
    cv::Vec3f edge = median_of(core);
    for (int k = 0; k < 3; k++)
        out->edge_lab[k] = edge[k];
    out->edge_spots = runs;
}

/* The name of the colour of the fixed list (chips.h) nearest to lab. */
const char *nearest_name(const float lab[3])
{
    static thread_local char name[16];
    int64_t value;
    float conf;
    if (fw_chips_name(lab, nullptr, 0, nullptr, 0, name, sizeof name, &value,
                      &conf) != FW_OK)
        return "unknown";
    return name;
}

/* Learn the chip; may throw (cv::Exception, std::bad_alloc). */
int learn(const cv::Mat &img, fw_calib_chip *out)
{
    int mn = std::min(img.cols, img.rows);
    double s = mn > 600 ? 600.0 / mn : 1.0;
    cv::Mat small = img;
    if (s < 1.0)
        cv::resize(img, small, cv::Size(), s, s, cv::INTER_AREA);
    Fit best{}, other{};
    Found f = find_chip(small, &best, &other);
    if (f == Found::none)
        return fw_set_error(FW_ENOENT,
                            "no chip found in the %dx%d image: photograph one "
                            "chip from above, roughly centred and at least "
                            "a tenth of the picture across, on a plain "
                            "background of another colour",
                            img.cols, img.rows);
    if (f == Found::several)
        return fw_set_error(FW_EINVAL,
                            "several chips in the %dx%d image (one at "
                            "(%.0f, %.0f), another at (%.0f, %.0f)): "
                            "photograph one chip at a time",
                            img.cols, img.rows, best.c.x / s, best.c.y / s,
                            other.c.x / s, other.c.y / s);
    /* cut the chip out of the full image, at a radius of at most 300 px */
    cv::Point2f c(best.c.x / (float)s, best.c.y / (float)s);
    float r = best.r / (float)s;
    int half = (int)std::ceil(1.25f * r) + 2;
    cv::Rect box((int)std::floor(c.x) - half, (int)std::floor(c.y) - half,
                 2 * half + 1, 2 * half + 1);
    box &= cv::Rect(0, 0, img.cols, img.rows);
    cv::Mat roi = img(box);
    float m = r > 300.0f ? 300.0f / r : 1.0f;
    if (m < 1.0f)
        cv::resize(roi, roi, cv::Size(), m, m, cv::INTER_AREA);
    cv::Mat lab = to_lab(roi);
    cv::Point2f cr((c.x - box.x) * m, (c.y - box.y) * m);
    float rr = r * m;
    cv::Mat smooth;
    cv::GaussianBlur(lab, smooth, cv::Size(0, 0), 0.7);
    Fit fine{};
    if (refine(smooth, cr, rr, 360, false, &fine) &&
        cv::norm(fine.c - cr) < 0.1f * rr && fine.r > 0.9f * rr &&
        fine.r < 1.1f * rr) {
        cr = fine.c;
        rr = fine.r;
    }
    measure(lab, cr, rr, out);
    return FW_OK;
}

} // namespace

extern "C" int fw_chips_learn(const uint8_t *bgr, int w, int h, int stride,
                              int64_t value, const char *name,
                              fw_calib_chip *out)
{
    if (out)
        std::memset(out, 0, sizeof *out);
    if (!bgr || !out || stride < 3 * w || value <= 0)
        return fw_set_error(FW_EINVAL, "fw_chips_learn: bad arguments");
    if (name && (!name[0] || std::strlen(name) >= sizeof out->color))
        return fw_set_error(FW_EINVAL,
                            "fw_chips_learn: a colour name has 1-%d bytes",
                            (int)sizeof out->color - 1);
    if (w < FW_CHIP_LEARN_MIN_SIZE || h < FW_CHIP_LEARN_MIN_SIZE)
        return fw_set_error(FW_EINVAL,
                            "fw_chips_learn: the %dx%d image is too small "
                            "(at least %dx%d)",
                            w, h, FW_CHIP_LEARN_MIN_SIZE,
                            FW_CHIP_LEARN_MIN_SIZE);
    try {
        cv::Mat img(h, w, CV_8UC3, const_cast<uint8_t *>(bgr), (size_t)stride);
        fw_calib_chip chip;
        std::memset(&chip, 0, sizeof chip);
        int rc = learn(img, &chip);
        if (rc != FW_OK)
            return rc;
        chip.value = value;
        const char *col = name ? name : nearest_name(chip.lab);
        size_t len = std::min(std::strlen(col), sizeof chip.color - 1);
        std::memcpy(chip.color, col, len);
        chip.color[len] = '\0';
        *out = chip;
        return FW_OK;
    }
    FW_VISION_CATCH("fw_chips_learn")
}

extern "C" int fw_chips_alike(const fw_calib_chip *a, const fw_calib_chip *b)
{
    if (!a || !b)
        return 0;
    float body = 0, edge = 0;
    for (int k = 0; k < 3; k++) {
        body += (a->lab[k] - b->lab[k]) * (a->lab[k] - b->lab[k]);
        edge += (a->edge_lab[k] - b->edge_lab[k]) *
                (a->edge_lab[k] - b->edge_lab[k]);
    }
    if (!(std::sqrt(body) < FW_CHIP_ALIKE_BODY))
        return 0;
    if (a->edge_spots <= 0 || b->edge_spots <= 0)
        return 1; /* an unknown edge cannot tell them apart */
    return a->edge_spots == b->edge_spots &&
           std::sqrt(edge) < FW_CHIP_ALIKE_EDGE;
}
