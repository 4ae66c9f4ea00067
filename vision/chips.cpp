/*
 * chips.cpp - chip detection, the synthetic chip scenes and single drawn
 * chips of chips.h, a C++17 OpenCV shim behind a plain C API.
 *
 * Detection works on a "distance from the felt" image: the felt's colour is
 * the median CIE Lab of the frame (the felt covers most of it), and every
 * pixel becomes its Lab distance from that colour. A chip of the felt's own
 * colour still shows there through its edge spots, inner ring and shadow.
 * Circles are found with the gradient Hough transform twice: once over a
 * wide radius range to estimate the table's chip radius, then within +-15%
 * of it. Each candidate is checked (edge contrast around its rim, a uniform
 * inner disc) and its colour read as the median Lab of the inner disc.
 */
#include "chips.h"
#include "lab.h"
#include "shim_catch.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <new>
#include <vector>

namespace
{

struct NamedColor {
    const char *name;
    cv::Vec3f lab; /* what is painted, after clipping to sRGB */
    cv::Vec3b bgr;
    cv::Vec3b spot; /* edge-spot colour */
};

cv::Vec3f bgr_to_lab(cv::Vec3b c)
{
    cv::Mat m(1, 1, CV_32FC3,
              cv::Scalar(c[0] / 255.0, c[1] / 255.0, c[2] / 255.0));
    cv::cvtColor(m, m, cv::COLOR_BGR2Lab);
    return m.at<cv::Vec3f>(0, 0);
}

cv::Vec3b lab_to_bgr(cv::Vec3f lab)
{
    cv::Mat m(1, 1, CV_32FC3, cv::Scalar(lab[0], lab[1], lab[2]));
    cv::cvtColor(m, m, cv::COLOR_Lab2BGR);
    cv::Vec3f f = m.at<cv::Vec3f>(0, 0);
    return cv::Vec3b(cv::saturate_cast<uchar>(f[0] * 255.0f),
                     cv::saturate_cast<uchar>(f[1] * 255.0f),
                     cv::saturate_cast<uchar>(f[2] * 255.0f));
}

/* The edge-spot colour of a chip of lightness L: blue on light chips, white
 * on the others. */
cv::Vec3b spot_for(float lightness)
{
    return lightness > 70 ? cv::Vec3b(160, 70, 30) : cv::Vec3b(245, 245, 245);
}

/*
 * The fixed colour list. The nominal Lab values are clipped to what sRGB
 * can show, and the table holds the Lab of what is actually painted, so
 * that naming and fw_chips_color_lab() agree with the renderer. Built once
 * (a function-local static: thread-safe in C++11 and later).
 */
const std::array<NamedColor, FW_CHIPS_NCOLORS> &palette()
{
    static const std::array<NamedColor, FW_CHIPS_NCOLORS> table = [] {
        struct Nominal {
            const char *name;
            float l, a, b;
        };
        static const Nominal nominal[FW_CHIPS_NCOLORS] = {
            {"white", 93, 0, 3},     {"red", 45, 62, 42},
            {"green", 50, -45, 30},  {"blue", 38, 20, -60},
            {"black", 20, 0, 0},     {"yellow", 85, 0, 75},
            {"purple", 35, 45, -40}, {"orange", 65, 40, 65},
            {"pink", 72, 38, -2},    {"grey", 60, 0, 0}};
        std::array<NamedColor, FW_CHIPS_NCOLORS> t{};
        for (int i = 0; i < FW_CHIPS_NCOLORS; i++) {
            const Nominal &n = nominal[i];
            t[i].name = n.name;
            t[i].bgr = lab_to_bgr(cv::Vec3f(n.l, n.a, n.b));
            t[i].lab = bgr_to_lab(t[i].bgr);
            t[i].spot = spot_for(n.l);
        }
        return t;
    }();
    return table;
}

/* A candidate circle with its evidence. */
struct Circle {
    cv::Point2f c;
    float r;       /* measured on the rim */
    float r_hough; /* as the Hough transform found it */
    float score;
    cv::Vec3f lab;
};

/*
 * Per-channel median of an 8-bit 3-channel image (every `step`-th pixel of
 * every `step`-th row), converted to real Lab units.
 */
cv::Vec3f median_lab8(const cv::Mat &lab8, int step)
{
    int hist[3][256] = {};
    int n = 0;
    for (int y = 0; y < lab8.rows; y += step) {
        const cv::Vec3b *row = lab8.ptr<cv::Vec3b>(y);
        for (int x = 0; x < lab8.cols; x += step, n++)
            for (int k = 0; k < 3; k++)
                hist[k][row[x][k]]++;
    }
    float med[3];
    for (int k = 0; k < 3; k++) {
        int acc = 0, v = 0;
        while (v < 255 && (acc += hist[k][v]) < (n + 1) / 2)
            v++;
        med[k] = (float)v;
    }
    return cv::Vec3f(med[0] * 100.0f / 255.0f, med[1] - 128.0f,
                     med[2] - 128.0f);
}

/*
 * The median Lab (real units) of the pixels of lab8 inside the disc of
 * centre c and radius r, and in *uniform the fraction of those pixels
 * within 14 Lab units of that median. Returns false when the disc holds
 * fewer than 8 pixels of the image.
 */
bool disc_lab(const cv::Mat &lab8, cv::Point2f c, float r, cv::Vec3f *lab,
              float *uniform)
{
    std::vector<uchar> ch[3];
    std::vector<cv::Vec3b> px;
    int x0 = std::max(0, (int)std::floor(c.x - r));
    int x1 = std::min(lab8.cols - 1, (int)std::ceil(c.x + r));
    int y0 = std::max(0, (int)std::floor(c.y - r));
    int y1 = std::min(lab8.rows - 1, (int)std::ceil(c.y + r));
    for (int y = y0; y <= y1; y++) {
        const cv::Vec3b *row = lab8.ptr<cv::Vec3b>(y);
        for (int x = x0; x <= x1; x++) {
            float dx = x - c.x, dy = y - c.y;
            if (dx * dx + dy * dy > r * r)
                continue;
            px.push_back(row[x]);
            for (int k = 0; k < 3; k++)
                ch[k].push_back(row[x][k]);
        }
    }
    if (px.size() < 8)
        return false;
    float m8[3];
    for (int k = 0; k < 3; k++) {
        auto mid = ch[k].begin() + ch[k].size() / 2;
        std::nth_element(ch[k].begin(), mid, ch[k].end());
        m8[k] = *mid;
    }
    int close = 0;
    for (const cv::Vec3b &p : px) {
        float dl = (p[0] - m8[0]) * 100.0f / 255.0f;
        float da = p[1] - m8[1], db = p[2] - m8[2];
        if (dl * dl + da * da + db * db < 14.0f * 14.0f)
            close++;
    }
    *uniform = (float)close / (float)px.size();
    *lab = cv::Vec3f(m8[0] * 100.0f / 255.0f, m8[1] - 128.0f, m8[2] - 128.0f);
    return true;
}

/*
 * The fraction of 72 rays around circle (c, r) along which the felt-distance
 * image d changes by at least `contrast` between radii 0.85r and 1.15r:
 * how much of the rim is visible as an edge.
 */
float rim_support(const cv::Mat &d, cv::Point2f c, float r, int contrast)
{
    int n = 0, hit = 0;
    for (int i = 0; i < 72; i++) {
        float a = (float)(i * CV_PI / 36.0);
        float ca = std::cos(a), sa = std::sin(a);
        int xi = cvRound(c.x + 0.85f * r * ca),
            yi = cvRound(c.y + 0.85f * r * sa);
        int xo = cvRound(c.x + 1.15f * r * ca),
            yo = cvRound(c.y + 1.15f * r * sa);
        if (xi < 0 || yi < 0 || xo < 0 || yo < 0 || xi >= d.cols ||
            xo >= d.cols || yi >= d.rows || yo >= d.rows)
            continue;
        n++;
        if (std::abs((int)d.at<uchar>(yi, xi) - (int)d.at<uchar>(yo, xo)) >=
            contrast)
            hit++;
    }
    return n >= 36 ? (float)hit / (float)n : 0.0f;
}

float lab_dist(const cv::Vec3f &a, const cv::Vec3f &b)
{
    cv::Vec3f d = a - b;
    return std::sqrt(d.dot(d));
}

/* Copy a name into a fixed char array, always NUL-terminated. */
template <size_t N> void set_name(char (&dst)[N], const char *src)
{
    size_t n = std::min(std::strlen(src), N - 1);
    std::memcpy(dst, src, n);
    dst[n] = '\0';
}

/* A chip's colours as measured: body, edge spots, how many spots. */
struct ChipLook {
    cv::Vec3f body;
    cv::Vec3f edge; /* the body's colour when no spot stands out */
    int spots;      /* 0 when none stands out */
    bool edge_seen; /* false: the edge was not looked at (a side view) */
};

/*
 * How far a measured chip is from a chip of the set: the body's Lab
 * distance, plus half the edge colour's and 2 per spot miscounted (at most
 * 10: a spot may hide under blur) where the set knows the chip's edge.
 */
float set_distance(const ChipLook &m, const fw_calib_chip &k)
{
    float d = lab_dist(m.body, cv::Vec3f(k.lab[0], k.lab[1], k.lab[2]));
    if (k.edge_spots > 0 && m.edge_seen) {
        d += 0.5f * lab_dist(m.edge, cv::Vec3f(k.edge_lab[0], k.edge_lab[1],
                                                k.edge_lab[2]));
        if (m.spots > 0)
            d += std::min(10.0f, 2.0f * (float)std::abs(m.spots - k.edge_spots));
    }
    return d;
}

/*
 * Name the measured chip: the nearest chip of the set (when nset > 0, by
 * set_distance) or of the fixed list (body colour). *conf is the margin
 * between the best and the second best match, reduced when even the best
 * is far. A body more than 30 Lab units from every chip of the set gets its
 * fixed-list name, value 0 and confidence 0.
 */
void name_color(const ChipLook &m, const fw_calib_chip *set, int nset,
                char *name, size_t size, int64_t *value, float *conf)
{
    bool use_set = set && nset > 0;
    float d1 = 1e9f, d2 = 1e9f, body1 = 1e9f;
    int best = -1;
    int n = use_set ? nset : FW_CHIPS_NCOLORS;
    for (int i = 0; i < n; i++) {
        float d = use_set ? set_distance(m, set[i])
                          : lab_dist(m.body, palette()[i].lab);
        if (d < d1) {
            d2 = d1;
            d1 = d;
            best = i;
        } else if (d < d2) {
            d2 = d;
        }
    }
    if (use_set)
        body1 = lab_dist(m.body, cv::Vec3f(set[best].lab[0], set[best].lab[1],
                                           set[best].lab[2]));
    if (use_set && body1 > 30.0f) {
        /* no chip of the set looks like this: name it, value unknown */
        name_color(m, nullptr, 0, name, size, value, conf);
        *conf = 0.0f;
        return;
    }
    const char *chosen = use_set ? set[best].color : palette()[best].name;
    size_t len = std::min(std::strlen(chosen), size - 1);
    std::memcpy(name, chosen, len);
    name[len] = '\0';
    *value = use_set ? set[best].value : 0;
    float margin = d2 >= 1e8f ? 1.0f : (d2 - d1) / (d2 + d1 + 1e-3f);
    float far = d1 < 20.0f ? 1.0f : 20.0f / d1;
    *conf = std::min(1.0f, std::max(0.0f, margin * far * 1.5f));
}

/*
 * The edge pattern of the chip at (c, r) whose body is `body`: samples at
 * 96 angles on the circle of radius 0.865r (the middle of the spots, which
 * lie between 0.76r and 0.97r); a sample more than 18 Lab units from the
 * body is a spot. The edge colour is the median of the spot samples (the
 * body's when fewer than 4), the spot count the runs of spot samples.
 */
ChipLook measure_look(const cv::Mat &lab8, cv::Point2f c, float r,
                      const cv::Vec3f &body)
{
    enum { N = 96 };
    bool spot[N];
    uchar ch[3][N];
    int ns = 0;
    for (int i = 0; i < N; i++) {
        float a = (float)(i * 2 * CV_PI / N);
        int x = cvRound(c.x + 0.865f * r * std::cos(a));
        int y = cvRound(c.y + 0.865f * r * std::sin(a));
        spot[i] = false;
        if (x < 0 || y < 0 || x >= lab8.cols || y >= lab8.rows)
            continue;
        cv::Vec3b q = lab8.at<cv::Vec3b>(y, x);
        cv::Vec3f ql(q[0] * 100.0f / 255.0f, q[1] - 128.0f, q[2] - 128.0f);
        if (lab_dist(ql, body) > 18.0f) {
            spot[i] = true;
            for (int k = 0; k < 3; k++)
                ch[k][ns] = q[k];
            ns++;
        }
    }
    ChipLook m{body, body, 0, true};
    if (ns < 4)
        return m;
    float med[3];
    for (int k = 0; k < 3; k++) {
        std::nth_element(ch[k], ch[k] + ns / 2, ch[k] + ns);
        med[k] = ch[k][ns / 2];
    }
    m.edge = cv::Vec3f(med[0] * 100.0f / 255.0f, med[1] - 128.0f,
                       med[2] - 128.0f);
    for (int i = 0; i < N; i++)
        if (spot[i] && !spot[(i + N - 1) % N])
            m.spots++;
    if (ns == N)
        m.spots = 0; /* all "spots": the body was misread, not a pattern */
    return m;
}

/* Bilinear sample of an 8-bit image; p must lie inside by a pixel. */
float sample(const cv::Mat &img, float x, float y)
{
    int x0 = (int)x, y0 = (int)y;
    float fx = x - x0, fy = y - y0;
    const uchar *r0 = img.ptr<uchar>(y0), *r1 = img.ptr<uchar>(y0 + 1);
    return (1 - fy) * ((1 - fx) * r0[x0] + fx * r0[x0 + 1]) +
           fy * ((1 - fx) * r1[x0] + fx * r1[x0 + 1]);
}

/*
 * The chip's radius measured on its rim rather than taken from the Hough
 * accumulator (which is quantised and leans outwards on a blurred edge):
 * along 48 rays the place of the steepest change of the smoothed felt
 * distance d between 0.8r and 1.25r, the median over the rays whose step
 * is clear (a rim against felt; a stack's side or a touching chip gives
 * none). With `away` non-zero (a unit vector) only the rays within 80
 * degrees of it are used: the half of a stack's top that faces away from
 * its side. Keeps r when fewer than a quarter of the rays are clear.
 */
float refine_radius(const cv::Mat &d, cv::Point2f c, float r,
                    cv::Point2f away = cv::Point2f(0, 0))
{
    enum { NR = 48 };
    float found[NR];
    int n = 0, tried = 0;
    const float step = 0.25f;
    const bool half = away.x != 0 || away.y != 0;
    for (int i = 0; i < NR; i++) {
        float a = (float)(i * 2 * CV_PI / NR);
        float ca = std::cos(a), sa = std::sin(a);
        if (half && ca * away.x + sa * away.y < 0.17f)
            continue;
        tried++;
        float best = 0, at = 0, prev = -1;
        for (float t = 0.8f * r; t <= 1.25f * r; t += step) {
            float x = c.x + t * ca, y = c.y + t * sa;
            if (x < 1 || y < 1 || x >= d.cols - 2 || y >= d.rows - 2) {
                prev = -1;
                best = 0;
                break;
            }
            float v = sample(d, x, y);
            if (prev >= 0 && std::abs(v - prev) > best) {
                best = std::abs(v - prev);
                at = t - 0.5f * step;
            }
            prev = v;
        }
        /* a clear step: 6 levels of d (3 Lab units) per quarter pixel */
        if (best >= 6.0f)
            found[n++] = at;
    }
    if (n < 12 || n * 4 < tried)
        return r;
    std::nth_element(found, found + n / 2, found + n);
    return found[n / 2];
}

/* Whether p lies inside any chosen circle other than `self`, widened. */
bool covered_by_other(const std::vector<Circle> &all, size_t self,
                      cv::Point2f p, float widen)
{
    for (size_t j = 0; j < all.size(); j++)
        if (j != self && cv::norm(p - all[j].c) < all[j].r * widen)
            return true;
    return false;
}

/*
 * Whether the pixel at p is more than `far` from the felt, lightness
 * counting half: a shadow on the felt is felt darkened, and must not pass
 * for the side of a stack.
 */
bool not_felt(const cv::Mat &lab8, cv::Point2f p, const cv::Vec3f &felt,
              float far)
{
    int x = cvRound(p.x), y = cvRound(p.y);
    if (x < 0 || y < 0 || x >= lab8.cols || y >= lab8.rows)
        return false;
    cv::Vec3b q = lab8.at<cv::Vec3b>(y, x);
    float dl = 0.5f * (q[0] * 100.0f / 255.0f - felt[0]);
    float da = q[1] - 128.0f - felt[1], db = q[2] - 128.0f - felt[2];
    return dl * dl + da * da + db * db > far * far;
}

/*
 * How far the side of a stack shows beyond the chip k (the top chip), in
 * pixels: a camera above sees a stack's side on the side facing the point
 * below it (`pc`), because the top, nearer the camera, is displaced
 * outwards. Five rays from the rim towards pc (the centre one and others
 * up to 0.6r sideways) are followed while the pixels are not felt (25 Lab
 * units; short gaps are bridged) and stop at another chip; the median
 * length is the side. A side is only believed when the rim
 * facing away from pc and the two rims across show felt (or another chip)
 * just outside: otherwise the chip lies against something else (a card, a
 * hand) and 0 is returned. Chips of the felt's own colour return 0 (their
 * side cannot be told from the felt).
 */
float measure_side(const cv::Mat &lab8, const std::vector<Circle> &all,
                   size_t self, const cv::Vec3f &felt, cv::Point2f pc)
{
    const Circle &k = all[self];
    if (lab_dist(k.lab, felt) < 20.0f)
        return 0.0f;
    cv::Point2f toward = pc - k.c;
    float rho = (float)cv::norm(toward);
    if (rho < k.r)
        return 0.0f;
    cv::Point2f u = toward * (1.0f / rho), v(-u.y, u.x);
    /* the rims away from pc and across it must be free */
    const cv::Point2f free_dirs[3] = {-u, v, -v};
    for (const cv::Point2f &d : free_dirs) {
        int blocked = 0;
        for (int s = -1; s <= 1; s++) {
            cv::Point2f dir = d + 0.25f * (float)s * cv::Point2f(-d.y, d.x);
            dir *= 1.0f / (float)cv::norm(dir);
            cv::Point2f p = k.c + 1.3f * k.r * dir;
            if (!covered_by_other(all, self, p, 1.1f) &&
                not_felt(lab8, p, felt, 25.0f))
                blocked++;
        }
        if (blocked >= 2)
            return 0.0f;
    }
    /* five rays; a chip of the felt's colour inside the stack shows as a
     * gap of felt in the side, so gaps of a quarter radius are bridged */
    enum { NRAYS = 5 };
    float len[NRAYS];
    const float limit = 5.0f * k.r;
    const int max_gap = std::max(3, (int)(0.25f * k.r));
    for (int s = 0; s < NRAYS; s++) {
        float off = 0.3f * (float)(s - NRAYS / 2);
        cv::Point2f o = k.c + off * k.r * v;
        /* where the ray leaves the top chip's disc */
        float t0 = k.r * std::sqrt(std::max(0.0f, 1.0f - off * off));
        float last = t0;
        int gap = 0;
        for (float t = t0 + 1.0f; t < t0 + limit; t += 1.0f) {
            cv::Point2f p = o + t * u;
            if (covered_by_other(all, self, p, 1.12f))
                break;
            if (not_felt(lab8, p, felt, 25.0f)) {
                last = t;
                gap = 0;
            } else if (++gap > max_gap) {
                break;
            }
        }
        len[s] = last - t0;
    }
    std::sort(len, len + NRAYS);
    return len[NRAYS / 2];
}

/*
 * The chip count of a stack whose top chip (radius r, pixels) stands at
 * distance rho from the principal point with its side showing `side`
 * pixels beyond the top chip's rim, for a camera of focal length f
 * (pixels) above a chip of radius R mm. A point z mm up, at image distance
 * rho_b from the principal point when on the felt, appears at
 * rho_b H / (H - z) for a camera at height H; the top chip's radius is
 * r = f R / (H - z), the base's f R / H. The side's far edge lies
 * rho z / H + f R / H - r beyond the top's rim, which solves to
 * z = f R side / (r (rho - side - r)).
 */
double stack_count(double side, double rho, double r, double f)
{
    double room = rho - side - r;
    if (side <= 0 || room <= 0)
        return 0;
    double z = f * (FW_CHIP_DIAMETER_MM / 2) * side / (r * room);
    return z / FW_CHIP_THICKNESS_MM;
}

/* The least side that shows a stack: fewer pixels may be blur, a shadow or
 * a single chip's own edge. */
float min_side(float r)
{
    return std::max(4.0f, 0.12f * r);
}

/* The detector proper; may throw (cv::Exception, std::bad_alloc). */
void detect(const cv::Mat &frame, const fw_chips_params &prm,
            std::vector<fw_chip_obs> &chips, std::vector<fw_stack_obs> &stacks)
{
    double scale = 1.0;
    cv::Mat img = frame;
    int longest = std::max(frame.cols, frame.rows);
    if (longest > 1400) {
        scale = 1280.0 / longest;
        cv::resize(frame, img, cv::Size(), scale, scale, cv::INTER_AREA);
    }
    cv::Mat lab8;
    /* OpenCV's 8-bit Lab in a third of its time (lab.h): the conversion
     * was two fifths of a frame's work here */
    fwv::bgr_to_lab(img, lab8);
    cv::Vec3f felt = median_lab8(lab8, 3);

    /* distance from the felt through a saturating curve */
    /* Compress large distances and stretch small ones, so that a chip
     * close to the felt's colour still has an edge while a white chip next
     * to a yellow one keeps some contrast. Index: half Lab units. */
    uchar lut[256];
    for (int i = 0; i < 256; i++)
        lut[i] = cv::saturate_cast<uchar>(255.0 * (1.0 - std::exp(-i / 44.0)));
    /* and the distance itself (half Lab units), whose edges lie where the
     * chips' edges are: the curve above moves the steepest change of a
     * blurred edge outwards, so the rims are measured on this one */
    cv::Mat d(lab8.size(), CV_8UC1), dlin(lab8.size(), CV_8UC1);
    for (int y = 0; y < lab8.rows; y++) {
        const cv::Vec3b *row = lab8.ptr<cv::Vec3b>(y);
        uchar *out = d.ptr<uchar>(y), *lin = dlin.ptr<uchar>(y);
        for (int x = 0; x < lab8.cols; x++) {
            float dl = row[x][0] * (100.0f / 255.0f) - felt[0];
            float da = row[x][1] - 128.0f - felt[1];
            float db = row[x][2] - 128.0f - felt[2];
            lin[x] = cv::saturate_cast<uchar>(
                2.0f * std::sqrt(dl * dl + da * da + db * db));
            out[x] = lut[lin[x]];
        }
    }
    cv::Mat db;
    cv::GaussianBlur(d, db, cv::Size(0, 0), 1.5);
    cv::GaussianBlur(dlin, dlin, cv::Size(0, 0), 1.0);

    int mn = std::min(img.cols, img.rows);
    std::vector<cv::Vec3f> found;
    float r0 = (float)(prm.radius_px * scale);
    if (!(r0 >= 3.0f)) {
        /* the strongest circles of a wide search (Hough sorts by votes)
         * set the chip radius */
        cv::HoughCircles(db, found, cv::HOUGH_GRADIENT, 1, mn / 40.0, 100, 30,
                         std::max(4, mn / 80), mn / 8);
        if (found.empty())
            return;
        std::vector<float> radii;
        for (size_t i = 0; i < found.size() && i < 24; i++)
            radii.push_back(found[i][2]);
        std::nth_element(radii.begin(), radii.begin() + radii.size() / 2,
                         radii.end());
        r0 = radii[radii.size() / 2];
        found.clear();
    }
    /* votes spread over neighbouring cells at dp 1: a twelfth of the rim */
    int votes = std::max(8, (int)std::lround(0.085 * 2 * CV_PI * r0));
    cv::HoughCircles(db, found, cv::HOUGH_GRADIENT, 1, 1.4 * r0, 100, votes,
                     std::max(3, (int)std::floor(r0 * 0.85f)),
                     (int)std::ceil(r0 * 1.15f));

    std::vector<Circle> kept;
    for (const cv::Vec3f &f : found) {
        Circle k{cv::Point2f(f[0], f[1]), f[2], f[2], 0, {}};
        if (k.c.x < 0 || k.c.y < 0 || k.c.x >= img.cols || k.c.y >= img.rows)
            continue;
        float uniform = 0;
        if (!disc_lab(lab8, k.c, 0.5f * k.r, &k.lab, &uniform))
            continue;
        float rim = rim_support(db, k.c, k.r, 18);
        if (uniform < 0.6f || rim < 0.4f)
            continue;
        k.r = refine_radius(dlin, k.c, k.r);
        k.score = rim + uniform;
        kept.push_back(k);
    }
    std::sort(kept.begin(), kept.end(), [](const Circle &a, const Circle &b) {
        return a.score > b.score;
    });
    std::vector<Circle> chosen;
    for (const Circle &k : kept) {
        bool clash = false;
        for (const Circle &o : chosen)
            if (cv::norm(k.c - o.c) < 1.5f * r0)
                clash = true;
        if (!clash)
            chosen.push_back(k);
    }

    /* the camera: focal length and principal point in working pixels */
    bool known_f = prm.focal_px > 0;
    cv::Point2f pc = known_f ? cv::Point2f((float)(prm.principal[0] * scale),
                                           (float)(prm.principal[1] * scale))
                             : cv::Point2f(img.cols * 0.5f, img.rows * 0.5f);
    /* unknown lens: 110 to 50 degrees across the frame's width */
    double f_lo = known_f ? prm.focal_px * scale
                          : img.cols / (2 * std::tan(55 * CV_PI / 180));
    double f_hi = known_f ? prm.focal_px * scale
                          : img.cols / (2 * std::tan(25 * CV_PI / 180));
    /* the side may be misjudged by a pixel and a half */
    /* The side is measured up to the last pixel 25 Lab units off the felt:
     * on a blurred frame that stops a pixel or two short of the base's
     * edge (more where a dark chip's side meets dark felt), and the rim
     * the side is measured from may be found a pixel or two out; a chip of
     * the felt's colour in the stack hides part of the side. So the side
     * may be 3.5 pixels and a tenth longer than measured, and a pixel and
     * a twentieth shorter (measured on rendered stacks: see eval_chips). */
    const double short_by = 3.5, long_by = 1.0;

    bool want_edge = false;
    for (int i = 0; i < prm.nset; i++)
        want_edge = want_edge || prm.set[i].edge_spots > 0;

    float inv = (float)(1.0 / scale);
    std::vector<bool> under_stack(chosen.size(), false);
    std::vector<fw_chip_obs> obs(chosen.size());
    std::vector<int> stack_of(chosen.size(), -1);
    for (size_t i = 0; i < chosen.size(); i++) {
        Circle &k = chosen[i];
        double rho = cv::norm(pc - k.c);
        float side = 0;
        if (rho > k.r) {
            /* where a stack's side shows, the rim on that side is the side's
             * far edge: measure the radius on the other half first */
            float full_r = k.r;
            k.r = refine_radius(dlin, k.c, k.r_hough,
                                (k.c - pc) * (float)(1.0 / rho));
            side = measure_side(lab8, chosen, i, felt, pc);
            if (side < min_side(k.r))
                k.r = full_r;
        }
        fw_chip_obs &o = obs[i];
        std::memset(&o, 0, sizeof o);
        o.center[0] = k.c.x * inv;
        o.center[1] = k.c.y * inv;
        o.radius = k.r * inv;
        /* the edge is read only where the set can use it */
        ChipLook look = want_edge ? measure_look(lab8, k.c, k.r, k.lab)
                                  : ChipLook{k.lab, k.lab, 0, false};
        name_color(look, prm.set, prm.nset, o.color, sizeof o.color, &o.value,
                   &o.confidence);
        /* one chip's own side, on the widest lens, is not a stack */
        double n_mid = stack_count(side, rho, k.r, f_lo);
        if (side < min_side(k.r) || n_mid < 1.5)
            continue;
        double lo = stack_count(std::max(0.0, 0.95 * side - long_by), rho,
                                k.r, f_lo);
        double hi = stack_count(1.1 * side + short_by, rho, k.r, f_hi);
        fw_stack_obs st;
        std::memset(&st, 0, sizeof st);
        st.center[0] = o.center[0];
        st.center[1] = o.center[1];
        st.radius = o.radius;
        set_name(st.color, o.color);
        st.value = o.value;
        st.side_px = side * inv;
        st.count_lo = std::min(FW_STACK_MAX_COUNT,
                               std::max(2, (int)std::floor(lo)));
        st.count_hi = std::max(st.count_lo,
                               std::min(FW_STACK_MAX_COUNT, (int)std::ceil(hi)));
        /* low by design: from above a count is an estimate; lower still
         * the wider its range */
        double width = (double)(st.count_hi - st.count_lo) /
                       (double)(st.count_hi + st.count_lo);
        st.confidence = (float)(0.4 * (1.0 - width) * o.confidence);
        stack_of[i] = (int)stacks.size();
        stacks.push_back(st);
        /* a circle found on the stack's side (its base) is not a chip */
        cv::Point2f u = (pc - k.c) * (float)(1.0 / rho);
        for (size_t j = 0; j < chosen.size(); j++) {
            if (j == i)
                continue;
            cv::Point2f rel = chosen[j].c - k.c;
            float along = rel.dot(u);
            float across = std::abs(rel.x * u.y - rel.y * u.x);
            if (along > 0 && along < side + 0.5f * k.r && across < 0.5f * k.r)
                under_stack[j] = true;
        }
    }
    for (size_t i = 0; i < chosen.size(); i++)
        if (stack_of[i] < 0 && !under_stack[i])
            chips.push_back(obs[i]);
}

} // namespace

extern "C" int fw_chips_color_lab(const char *name, float lab[3])
{
    if (!name || !lab)
        return fw_set_error(FW_EINVAL, "fw_chips_color_lab: NULL argument");
    try {
        for (const NamedColor &c : palette())
            if (std::strcmp(c.name, name) == 0) {
                for (int k = 0; k < 3; k++)
                    lab[k] = c.lab[k];
                return FW_OK;
            }
        return fw_set_error(FW_ENOENT, "chip colour \"%s\" is not in the list",
                            name);
    } catch (const std::exception &e) {
        return fw_set_error(FW_EINTERNAL, "fw_chips_color_lab: %s", e.what());
    } catch (...) {
        return fw_set_error(FW_EINTERNAL, "fw_chips_color_lab: unknown error");
    }
}

extern "C" const char *fw_chips_color_name(int i)
{
    if (i < 0 || i >= FW_CHIPS_NCOLORS)
        return nullptr;
    try {
        return palette()[(size_t)i].name;
    } catch (...) {
        return nullptr;
    }
}

extern "C" int fw_chips_name(const float body[3], const float *edge,
                             int spots, const fw_calib_chip *set, int nset,
                             char *name, size_t size, int64_t *value,
                             float *confidence)
{
    if (!body || !name || size == 0 || !value || !confidence || nset < 0 ||
        (nset > 0 && !set))
        return fw_set_error(FW_EINVAL, "fw_chips_name: bad arguments");
    try {
        cv::Vec3f b(body[0], body[1], body[2]);
        ChipLook m{b, edge ? cv::Vec3f(edge[0], edge[1], edge[2]) : b,
                   std::max(0, spots), edge != nullptr};
        name_color(m, set, nset, name, size, value, confidence);
        return FW_OK;
    } catch (const std::exception &e) {
        return fw_set_error(FW_EINTERNAL, "fw_chips_name: %s", e.what());
    } catch (...) {
        return fw_set_error(FW_EINTERNAL, "fw_chips_name: unknown error");
    }
}

extern "C" int fw_chips_detect(const uint8_t *bgr, int width, int height,
                               int stride, const fw_chips_params *params,
                               fw_chip_obs *chips, int max_chips, int *nchips,
                               fw_stack_obs *stacks, int max_stacks,
                               int *nstacks)
{
    if (nchips)
        *nchips = 0;
    if (nstacks)
        *nstacks = 0;
    fw_chips_params prm;
    std::memset(&prm, 0, sizeof prm);
    if (params)
        prm = *params;
    if (!bgr || !nchips || (!chips && max_chips > 0) || max_chips < 0 ||
        max_stacks < 0 || (max_stacks > 0 && (!stacks || !nstacks)) ||
        prm.nset < 0 || (prm.nset > 0 && !prm.set) ||
        !std::isfinite(prm.radius_px) || prm.radius_px < 0 ||
        !std::isfinite(prm.focal_px) || prm.focal_px < 0 ||
        !std::isfinite(prm.principal[0]) || !std::isfinite(prm.principal[1]))
        return fw_set_error(FW_EINVAL, "fw_chips_detect: bad arguments");
    if (width < 16 || height < 16 || stride < 3 * width)
        return fw_set_error(FW_EINVAL,
                            "fw_chips_detect: frame %dx%d (stride %d) is too "
                            "small",
                            width, height, stride);
    try {
        cv::Mat frame(height, width, CV_8UC3, const_cast<uint8_t *>(bgr),
                      (size_t)stride);
        std::vector<fw_chip_obs> found;
        std::vector<fw_stack_obs> piles;
        detect(frame, prm, found, piles);
        int n = (int)std::min(found.size(), (size_t)max_chips);
        for (int i = 0; i < n; i++)
            chips[i] = found[i];
        *nchips = n;
        if (nstacks) {
            int m = (int)std::min(piles.size(), (size_t)max_stacks);
            for (int i = 0; i < m; i++)
                stacks[i] = piles[i];
            *nstacks = m;
        }
        return FW_OK;
    }
    FW_VISION_CATCH("fw_chips_detect")
}

namespace
{

/* Fill `img` with felt of the named kind; false for an unknown name. */
bool paint_felt(cv::Mat &img, const char *felt, cv::RNG &rng)
{
    if (!felt || std::strcmp(felt, "green") == 0) {
        img.setTo(cv::Scalar(35, 95, 25));
    } else if (std::strcmp(felt, "blue") == 0) {
        img.setTo(cv::Scalar(110, 60, 20));
    } else if (std::strcmp(felt, "red") == 0) {
        img.setTo(cv::Scalar(30, 30, 120));
    } else if (std::strcmp(felt, "wood") == 0) {
        /* grain: bands along x, wavy in y */
        float ph = rng.uniform(0.0f, 6.28f);
        for (int y = 0; y < img.rows; y++) {
            cv::Vec3b *row = img.ptr<cv::Vec3b>(y);
            float wave = 18.0f * std::sin(y * 0.011f + ph);
            for (int x = 0; x < img.cols; x++) {
                float g = 0.88f + 0.12f * std::sin(0.09f * (x + wave)) *
                                      std::sin(0.013f * (x - wave) + ph);
                row[x] = cv::Vec3b(cv::saturate_cast<uchar>(55 * g),
                                   cv::saturate_cast<uchar>(95 * g),
                                   cv::saturate_cast<uchar>(140 * g));
            }
        }
    } else {
        return false;
    }
    return true;
}

/*
 * The soft shadows of chips of radius r centred at at[0..n-1], falling down
 * and to the right: a disc of 35% darkness under each chip, offset by
 * 0.08r and blurred with sigma 0.08r (overlapping shadows do not darken
 * twice). The shadow map covers `box`, a rectangle in img's coordinates
 * that may reach past img; only the part of box inside img is written.
 * Every shadow reaches at most 1.4r from its chip's centre, so a box of
 * half-side 1.4r around a single chip holds all of its shadow.
 */
void cast_shadows(cv::Mat &img, cv::Rect box, const cv::Point2f *at, size_t n,
                  float r)
{
    cv::Rect in = box & cv::Rect(0, 0, img.cols, img.rows);
    if (in.empty())
        return;
    cv::Mat shade(box.height, box.width, CV_32FC1, cv::Scalar(0));
    for (size_t i = 0; i < n; i++)
        cv::circle(shade,
                   cv::Point(cvRound((at[i].x - box.x + 0.08f * r) * 16),
                             cvRound((at[i].y - box.y + 0.08f * r) * 16)),
                   cvRound(r * 16), cv::Scalar(0.35), cv::FILLED, cv::LINE_AA,
                   4);
    cv::GaussianBlur(shade, shade, cv::Size(0, 0), 0.08 * r);
    for (int y = in.y; y < in.y + in.height; y++) {
        cv::Vec3b *row = img.ptr<cv::Vec3b>(y);
        const float *sh = shade.ptr<float>(y - box.y);
        for (int x = in.x; x < in.x + in.width; x++) {
            float a = sh[x - box.x];
            if (a > 0.001f)
                for (int k = 0; k < 3; k++)
                    row[x][k] =
                        cv::saturate_cast<uchar>(row[x][k] * (1.0f - a));
        }
    }
}

/* OpenCV's anti-aliased filled circle covers about 0.6 px more radius than
 * asked (its area is that of r + 0.6 for r from 10 to 40): drawn smaller by
 * that, a chip is as large as its ground truth says. */
const float AA_GROWTH = 0.6f;

/*
 * One chip lying flat, painted over whatever lies under it: a body of
 * colour `body`, `nspots` edge spots of colour `spot` between 0.76r and 0.97r
 * starting at angle `spin`, and an inner ring at 0.66r. Anti-aliased, with
 * sub-pixel centre; touches only pixels within r + 1 of the centre (OpenCV
 * clips at the image's edges).
 */
void paint_chip(cv::Mat &img, cv::Point2f c, float r, cv::Vec3b body_bgr,
                cv::Vec3b spot_bgr, int nspots, float spin)
{
    const int shift = 4;
    const float s = (float)(1 << shift);
    auto fix = [&](float x, float y) {
        return cv::Point(cvRound(x * s), cvRound(y * s));
    };
    cv::Scalar body(body_bgr[0], body_bgr[1], body_bgr[2]);
    cv::Scalar spot(spot_bgr[0], spot_bgr[1], spot_bgr[2]);
    cv::circle(img, fix(c.x, c.y), cvRound((r - AA_GROWTH) * s), body,
               cv::FILLED,
               cv::LINE_AA, shift);
    /* each spot spans 14 degrees of eight, narrower when there are more */
    const float half = (float)(7.0 * CV_PI / 180.0) * std::min(1.0f, 8.0f / nspots);
    for (int i = 0; i < nspots; i++) {
        float a = spin + (float)(i * 2 * CV_PI / nspots);
        std::vector<cv::Point> poly;
        for (int k = 0; k <= 4; k++) {
            float t = a - half + k * half / 2;
            poly.push_back(fix(c.x + 0.97f * r * std::cos(t),
                               c.y + 0.97f * r * std::sin(t)));
        }
        for (int k = 4; k >= 0; k--) {
            float t = a - half + k * half / 2;
            poly.push_back(fix(c.x + 0.76f * r * std::cos(t),
                               c.y + 0.76f * r * std::sin(t)));
        }
        cv::fillPoly(img, std::vector<std::vector<cv::Point>>{poly}, spot,
                     cv::LINE_AA, shift);
    }
    cv::circle(img, fix(c.x, c.y), cvRound(0.66f * r * s), spot,
               std::max(1, cvRound(r / 14.0f)), cv::LINE_AA, shift);
}

/* The BGR body and spot colours of a chip's look. */
void look_colors(const fw_calib_chip &k, cv::Vec3b *body, cv::Vec3b *spot,
                 int *nspots)
{
    *body = lab_to_bgr(cv::Vec3f(k.lab[0], k.lab[1], k.lab[2]));
    *spot = k.edge_spots > 0 ? lab_to_bgr(cv::Vec3f(k.edge_lab[0],
                                                    k.edge_lab[1],
                                                    k.edge_lab[2]))
                             : spot_for(k.lab[0]);
    *nspots = k.edge_spots > 0 ? k.edge_spots : 8;
}

cv::Vec3b shade(cv::Vec3b c, float f)
{
    return cv::Vec3b(cv::saturate_cast<uchar>(c[0] * f),
                     cv::saturate_cast<uchar>(c[1] * f),
                     cv::saturate_cast<uchar>(c[2] * f));
}

/*
 * A stack of n chips standing at b (radius r at the felt), seen by a pinhole
 * camera of focal length f at principal point pc: a chip of radius R mm
 * drawn r pixels across at the felt puts the camera at H = f R / r mm, and
 * a point z mm up appears at pc + (p - pc) H / (H - z), scaled likewise.
 * Each chip's side is drawn as discs from its bottom to its top, one per
 * pixel the stack leans (at least two): the first dark (the line between
 * two chips), the rest the body shaded, with the edge spots as stripes on
 * the rim; each disc covers the one below but for a crescent, which is
 * what a camera above sees of the side. Then the top chip's face. No
 * shadow (the caller casts it). Returns the top face's centre.
 */
cv::Point2f paint_stack(cv::Mat &img, cv::Point2f b, float r,
                        const fw_calib_chip *const *chips, int n, float f,
                        cv::Point2f pc, cv::RNG &rng)
{
    const double R = FW_CHIP_DIAMETER_MM / 2, t = FW_CHIP_THICKNESS_MM;
    const double H = f * R / r;
    const int shift = 4;
    const float fs = (float)(1 << shift);
    auto at = [&](double z, float *rad) {
        double k = H / (H - z);
        *rad = (float)(r * k);
        return pc + (b - pc) * (float)k;
    };
    float rad = r;
    for (int i = 0; i < n; i++) {
        cv::Vec3b body, spot;
        int nspots;
        look_colors(*chips[i], &body, &spot, &nspots);
        float spin = rng.uniform(0.0f, (float)(2 * CV_PI));
        /* a chip's lean in pixels: how many discs its side needs */
        cv::Point2f lo = at(i * t, &rad), hi = at((i + 1) * t, &rad);
        int steps = std::max(2, (int)std::ceil(cv::norm(hi - lo)) + 1);
        for (int j = 0; j < steps; j++) {
            double z = (i + (double)j / steps) * t;
            cv::Point2f c = at(z, &rad);
            cv::Vec3b col = j == 0 ? shade(body, 0.4f) : shade(body, 0.75f);
            cv::circle(img, cv::Point(cvRound(c.x * fs), cvRound(c.y * fs)),
                       cvRound((rad - AA_GROWTH) * fs),
                       cv::Scalar(col[0], col[1], col[2]),
                       cv::FILLED, cv::LINE_AA, shift);
            if (j == 0)
                continue;
            /* the edge spots run down the side as stripes */
            cv::Vec3b sc = shade(spot, 0.85f);
            float half = (float)(7.0 * CV_PI / 180.0) *
                         std::min(1.0f, 8.0f / nspots);
            for (int q = 0; q < nspots; q++) {
                float a = spin + (float)(q * 2 * CV_PI / nspots);
                std::vector<cv::Point> poly;
                for (int e = 0; e <= 4; e++) {
                    float th = a - half + e * half / 2;
                    poly.emplace_back(cvRound((c.x + rad * std::cos(th)) * fs),
                                      cvRound((c.y + rad * std::sin(th)) * fs));
                }
                for (int e = 4; e >= 0; e--) {
                    float th = a - half + e * half / 2;
                    poly.emplace_back(
                        cvRound((c.x + 0.85f * rad * std::cos(th)) * fs),
                        cvRound((c.y + 0.85f * rad * std::sin(th)) * fs));
                }
                cv::fillPoly(img, std::vector<std::vector<cv::Point>>{poly},
                             cv::Scalar(sc[0], sc[1], sc[2]), cv::LINE_AA,
                             shift);
            }
        }
    }
    cv::Point2f top = at(n * t, &rad);
    cv::Vec3b body, spot;
    int nspots;
    look_colors(*chips[n - 1], &body, &spot, &nspots);
    paint_chip(img, top, rad, body, spot, nspots,
               rng.uniform(0.0f, (float)(2 * CV_PI)));
    return top;
}

} // namespace

extern "C" int fw_chips_render(uint8_t *bgr, int w, int h, int stride,
                               uint32_t seed, const char *felt, int nchips,
                               fw_chip_obs *truth)
{
    if (!bgr || w < 64 || h < 64 || stride < 3 * w || nchips < 0)
        return fw_set_error(FW_EINVAL, "fw_chips_render: bad arguments");
    try {
        cv::Mat img(h, w, CV_8UC3, bgr, (size_t)stride);
        cv::RNG rng(0x9e3779b97f4a7c15ULL ^ seed);
        if (!paint_felt(img, felt, rng))
            return fw_set_error(FW_EINVAL,
                                "fw_chips_render: unknown felt "
                                "\"%s\"",
                                felt);
        float r = std::min(w, h) / 30.0f * rng.uniform(0.9f, 1.1f);
        std::vector<cv::Point2f> at;
        for (int tries = 0; (int)at.size() < nchips && tries < 20000; tries++) {
            cv::Point2f c;
            if (!at.empty() && rng.uniform(0.0f, 1.0f) < 0.45f) {
                const cv::Point2f &o = at[rng.uniform(0, (int)at.size())];
                float a = rng.uniform(0.0f, (float)(2 * CV_PI));
                float dist = 2 * r + rng.uniform(0.5f, 2.0f);
                c = o + cv::Point2f(dist * std::cos(a), dist * std::sin(a));
            } else {
                c = cv::Point2f(rng.uniform(0.0f, (float)w),
                                rng.uniform(0.0f, (float)h));
            }
            if (c.x < r + 3 || c.y < r + 3 || c.x > w - r - 3 ||
                c.y > h - r - 3)
                continue;
            bool free = true;
            for (const cv::Point2f &o : at)
                if (cv::norm(c - o) < 2 * r + 0.5f)
                    free = false;
            if (free)
                at.push_back(c);
        }
        /* soft shadows first, so that no shadow falls on a chip */
        cast_shadows(img, cv::Rect(0, 0, w, h), at.data(), at.size(), r);
        const auto &pal = palette();
        for (size_t i = 0; i < at.size(); i++) {
            const NamedColor &col = pal[rng.uniform(0, FW_CHIPS_NCOLORS)];
            float rr = r * rng.uniform(0.985f, 1.015f);
            paint_chip(img, at[i], rr, col.bgr, col.spot, 8,
                       rng.uniform(0.0f, (float)(2 * CV_PI)));
            if (truth) {
                fw_chip_obs &t = truth[i];
                std::memset(&t, 0, sizeof t);
                t.center[0] = at[i].x;
                t.center[1] = at[i].y;
                t.radius = rr;
                set_name(t.color, col.name);
                t.value = 0;
                t.confidence = 1.0f;
            }
        }
        cv::GaussianBlur(img, img, cv::Size(0, 0), rng.uniform(0.6, 1.1));
        cv::Mat noise(h, w, CV_16SC3);
        rng.fill(noise, cv::RNG::NORMAL, 0, 4);
        cv::add(img, noise, img, cv::noArray(), CV_8UC3);
        return (int)at.size();
    }
    FW_VISION_CATCH("fw_chips_render")
}

extern "C" int fw_chips_draw(uint8_t *bgr, int w, int h, int stride, float x,
                             float y, float radius, const fw_calib_chip *chip,
                             uint32_t seed)
{
    if (!bgr || !chip || w < 1 || h < 1 || stride < 3 * w ||
        !std::isfinite(x) || !std::isfinite(y) || !std::isfinite(radius) ||
        radius < 1.0f || radius > FW_CHIPS_DRAW_MAX_RADIUS ||
        chip->edge_spots < 0 || chip->edge_spots > 24)
        return fw_set_error(FW_EINVAL, "fw_chips_draw: bad arguments");
    for (int k = 0; k < 3; k++)
        if (!std::isfinite(chip->lab[k]) ||
            (chip->edge_spots > 0 && !std::isfinite(chip->edge_lab[k])))
            return fw_set_error(FW_EINVAL, "fw_chips_draw: colour not finite");
    /* the chip and its shadow (cast_shadows: 1.4r), plus anti-aliasing */
    double half = std::ceil(1.4 * radius) + 2;
    if (x + half < 0 || y + half < 0 || x - half >= w || y - half >= h)
        return FW_OK; /* wholly off the frame */
    try {
        cv::Mat img(h, w, CV_8UC3, bgr, (size_t)stride);
        int hx = (int)half;
        cv::Rect box((int)std::floor(x) - hx, (int)std::floor(y) - hx,
                     2 * hx + 2, 2 * hx + 2);
        cv::Point2f c(x, y);
        cast_shadows(img, box, &c, 1, radius);
        cv::Rect in = box & cv::Rect(0, 0, w, h);
        cv::Mat roi = img(in);
        cv::RNG rng(0x9e3779b97f4a7c15ULL ^ seed);
        float spin = rng.uniform(0.0f, (float)(2 * CV_PI));
        cv::Vec3f body(chip->lab[0], chip->lab[1], chip->lab[2]);
        cv::Vec3b spot = chip->edge_spots > 0
                             ? lab_to_bgr(cv::Vec3f(chip->edge_lab[0],
                                                    chip->edge_lab[1],
                                                    chip->edge_lab[2]))
                             : spot_for(chip->lab[0]);
        paint_chip(roi, cv::Point2f(x - in.x, y - in.y), radius,
                   lab_to_bgr(body), spot,
                   chip->edge_spots > 0 ? chip->edge_spots : 8, spin);
        return FW_OK;
    }
    FW_VISION_CATCH("fw_chips_draw")
}

extern "C" int fw_chips_look(const char *name, int64_t value,
                             fw_calib_chip *out)
{
    if (!name || !out)
        return fw_set_error(FW_EINVAL, "fw_chips_look: NULL argument");
    try {
        for (const NamedColor &c : palette())
            if (std::strcmp(c.name, name) == 0) {
                std::memset(out, 0, sizeof *out);
                out->value = value;
                set_name(out->color, c.name);
                cv::Vec3f spot = bgr_to_lab(c.spot);
                for (int k = 0; k < 3; k++) {
                    out->lab[k] = c.lab[k];
                    out->edge_lab[k] = spot[k];
                }
                out->edge_spots = 8;
                return FW_OK;
            }
        return fw_set_error(FW_ENOENT, "chip colour \"%s\" is not in the list",
                            name);
    } catch (const std::exception &e) {
        return fw_set_error(FW_EINTERNAL, "fw_chips_look: %s", e.what());
    } catch (...) {
        return fw_set_error(FW_EINTERNAL, "fw_chips_look: unknown error");
    }
}

extern "C" int fw_chips_draw_stack(uint8_t *bgr, int w, int h, int stride,
                                   float x, float y, float radius,
                                   const fw_calib_chip *const *chips, int n,
                                   float focal_px, const float principal[2],
                                   uint32_t seed, float top[2])
{
    if (!bgr || !chips || !principal || w < 1 || h < 1 || stride < 3 * w ||
        n < 1 || n > FW_STACK_MAX_COUNT || !std::isfinite(x) ||
        !std::isfinite(y) || !std::isfinite(radius) || radius < 1.0f ||
        radius > FW_CHIPS_DRAW_MAX_RADIUS || !std::isfinite(focal_px) ||
        focal_px < radius || !std::isfinite(principal[0]) ||
        !std::isfinite(principal[1]))
        return fw_set_error(FW_EINVAL, "fw_chips_draw_stack: bad arguments");
    for (int i = 0; i < n; i++) {
        if (!chips[i] || chips[i]->edge_spots < 0 || chips[i]->edge_spots > 24)
            return fw_set_error(FW_EINVAL,
                                "fw_chips_draw_stack: chip %d: bad look", i);
        for (int k = 0; k < 3; k++)
            if (!std::isfinite(chips[i]->lab[k]) ||
                !std::isfinite(chips[i]->edge_lab[k]))
                return fw_set_error(FW_EINVAL,
                                    "fw_chips_draw_stack: chip %d: colour not "
                                    "finite",
                                    i);
    }
    try {
        cv::Mat img(h, w, CV_8UC3, bgr, (size_t)stride);
        cv::RNG rng(0x9e3779b97f4a7c15ULL ^ seed);
        cv::Point2f b(x, y);
        int half = (int)std::ceil(1.4 * radius) + 2;
        cast_shadows(img, cv::Rect((int)x - half, (int)y - half, 2 * half + 2,
                                   2 * half + 2),
                     &b, 1, radius);
        cv::Point2f t = paint_stack(img, b, radius, chips, n, focal_px,
                                    cv::Point2f(principal[0], principal[1]),
                                    rng);
        if (top) {
            top[0] = t.x;
            top[1] = t.y;
        }
        return FW_OK;
    }
    FW_VISION_CATCH("fw_chips_draw_stack")
}

extern "C" int fw_chips_render_table(uint8_t *bgr, int w, int h, int stride,
                                     uint32_t seed, const char *felt,
                                     int nchips, int nstacks, float focal_px,
                                     fw_chip_obs *truth,
                                     fw_stack_truth *stacks, int *nplaced,
                                     int *nstacked)
{
    if (nplaced)
        *nplaced = 0;
    if (nstacked)
        *nstacked = 0;
    if (!bgr || w < 64 || h < 64 || stride < 3 * w || nchips < 0 ||
        nstacks < 0 || !std::isfinite(focal_px) || focal_px <= 0)
        return fw_set_error(FW_EINVAL, "fw_chips_render_table: bad arguments");
    try {
        cv::Mat img(h, w, CV_8UC3, bgr, (size_t)stride);
        cv::RNG rng(0x9e3779b97f4a7c15ULL ^ seed);
        if (!paint_felt(img, felt, rng))
            return fw_set_error(FW_EINVAL,
                                "fw_chips_render_table: unknown felt \"%s\"",
                                felt);
        float r = std::min(w, h) / 30.0f * rng.uniform(0.9f, 1.1f);
        if (focal_px < r)
            return fw_set_error(FW_EINVAL,
                                "fw_chips_render_table: focal length %.1f "
                                "below the chip radius",
                                (double)focal_px);
        cv::Point2f pc(w * 0.5f, h * 0.5f);
        const double H = focal_px * (FW_CHIP_DIAMETER_MM / 2) / r;
        /* stacks first (they need room to lean), then single chips */
        struct Spot {
            cv::Point2f base, top;
            int count;
        };
        std::vector<Spot> placed;
        auto room = [&](cv::Point2f b, int count, cv::Point2f *top) {
            double z = count * FW_CHIP_THICKNESS_MM;
            if (z >= 0.8 * H)
                return false;
            *top = pc + (b - pc) * (float)(H / (H - z));
            float rt = (float)(r * H / (H - z));
            float m = r + 3;
            if (b.x < m || b.y < m || b.x > w - m || b.y > h - m ||
                top->x < rt + 3 || top->y < rt + 3 || top->x > w - rt - 3 ||
                top->y > h - rt - 3)
                return false;
            for (const Spot &o : placed) {
                /* the footprints: the segments base-top, swept by r */
                float need = 2.2f * r + 1;
                const cv::Point2f a[2] = {b, *top}, c[2] = {o.base, o.top};
                for (int i = 0; i < 2; i++)
                    for (int j = 0; j < 2; j++)
                        if (cv::norm(a[i] - c[j]) < need)
                            return false;
                if (cv::norm((b + *top) * 0.5f - (o.base + o.top) * 0.5f) <
                    need)
                    return false;
            }
            return true;
        };
        int want = nstacks + nchips;
        for (int tries = 0; (int)placed.size() < want && tries < 40000;
             tries++) {
            bool is_stack = (int)placed.size() < nstacks;
            int count = is_stack ? rng.uniform(2, FW_STACK_MAX_COUNT + 1) : 1;
            cv::Point2f b;
            if (!is_stack && !placed.empty() && rng.uniform(0.0f, 1.0f) < 0.45f) {
                const Spot &o = placed[rng.uniform(0, (int)placed.size())];
                float a = rng.uniform(0.0f, (float)(2 * CV_PI));
                float dist = 2.2f * r + rng.uniform(1.0f, 3.0f);
                b = o.base + cv::Point2f(dist * std::cos(a), dist * std::sin(a));
            } else {
                b = cv::Point2f(rng.uniform(0.0f, (float)w),
                                rng.uniform(0.0f, (float)h));
            }
            cv::Point2f top;
            if (room(b, count, &top))
                placed.push_back(Spot{b, top, count});
        }
        std::vector<cv::Point2f> bases;
        for (const Spot &o : placed)
            bases.push_back(o.base);
        cast_shadows(img, cv::Rect(0, 0, w, h), bases.data(), bases.size(), r);
        const auto &pal = palette();
        std::vector<fw_calib_chip> looks(FW_STACK_MAX_COUNT);
        std::vector<const fw_calib_chip *> ptrs(FW_STACK_MAX_COUNT);
        int ns = 0, nc = 0;
        for (const Spot &o : placed) {
            for (int i = 0; i < o.count; i++) {
                const NamedColor &col = pal[rng.uniform(0, FW_CHIPS_NCOLORS)];
                fw_calib_chip &k = looks[i];
                std::memset(&k, 0, sizeof k);
                set_name(k.color, col.name);
                cv::Vec3f sl = bgr_to_lab(col.spot);
                for (int q = 0; q < 3; q++) {
                    k.lab[q] = col.lab[q];
                    k.edge_lab[q] = sl[q];
                }
                k.edge_spots = 8;
                ptrs[i] = &k;
            }
            cv::Point2f top =
                paint_stack(img, o.base, r, ptrs.data(), o.count,
                            focal_px, pc, rng);
            float rt = (float)(r * H / (H - o.count * FW_CHIP_THICKNESS_MM));
            if (o.count > 1) {
                if (stacks) {
                    fw_stack_truth &st = stacks[ns];
                    std::memset(&st, 0, sizeof st);
                    st.base[0] = o.base.x;
                    st.base[1] = o.base.y;
                    st.top[0] = top.x;
                    st.top[1] = top.y;
                    st.radius = r;
                    st.count = o.count;
                    set_name(st.color, looks[o.count - 1].color);
                }
                ns++;
            } else {
                if (truth) {
                    fw_chip_obs &t = truth[nc];
                    std::memset(&t, 0, sizeof t);
                    t.center[0] = top.x;
                    t.center[1] = top.y;
                    t.radius = rt;
                    set_name(t.color, looks[0].color);
                    t.confidence = 1.0f;
                }
                nc++;
            }
        }
        cv::GaussianBlur(img, img, cv::Size(0, 0), rng.uniform(0.6, 1.1));
        cv::Mat noise(h, w, CV_16SC3);
        rng.fill(noise, cv::RNG::NORMAL, 0, 4);
        cv::add(img, noise, img, cv::noArray(), CV_8UC3);
        if (nplaced)
            *nplaced = nc;
        if (nstacked)
            *nstacked = ns;
        return FW_OK;
    }
    FW_VISION_CATCH("fw_chips_render_table")
}
