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
    float r;
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

/*
 * Name colour `lab`: the nearest chip of the set (when nset > 0) or of the
 * fixed list. *conf is the margin between the best and the second best
 * match, reduced when even the best is far. A colour more than 30 Lab
 * units from every chip of the set gets its fixed-list name, value 0 and
 * confidence 0.
 */
void name_color(const cv::Vec3f &lab, const fw_calib_chip *set, int nset,
                char (&name)[12], int64_t *value, float *conf)
{
    float d1 = 1e9f, d2 = 1e9f;
    int best = -1;
    int n = (set && nset > 0) ? nset : FW_CHIPS_NCOLORS;
    for (int i = 0; i < n; i++) {
        cv::Vec3f ref =
            (set && nset > 0)
                ? cv::Vec3f(set[i].lab[0], set[i].lab[1], set[i].lab[2])
                : palette()[i].lab;
        float d = lab_dist(lab, ref);
        if (d < d1) {
            d2 = d1;
            d1 = d;
            best = i;
        } else if (d < d2) {
            d2 = d;
        }
    }
    if (set && nset > 0 && d1 > 30.0f) {
        /* no chip of the set looks like this: name it, value unknown */
        name_color(lab, nullptr, 0, name, value, conf);
        *conf = 0.0f;
        return;
    }
    if (set && nset > 0) {
        set_name(name, set[best].color);
        *value = set[best].value;
    } else {
        set_name(name, palette()[best].name);
        *value = 0;
    }
    float margin = d2 >= 1e8f ? 1.0f : (d2 - d1) / (d2 + d1 + 1e-3f);
    float far = d1 < 20.0f ? 1.0f : 20.0f / d1;
    *conf = std::min(1.0f, std::max(0.0f, margin * far * 1.5f));
}

/*
 * Whether the chip at (c, r) shows the side of a stack: an arc of at least
 * 90 degrees just outside its rim (1.08r..1.24r, most of three samples per
 * ray) that is not felt (more than 20 Lab units from it: the shaded side
 * and the stripes of its edge spots) and not covered by another detected
 * chip. Chips of the felt's own colour are never called stacks.
 */
bool looks_like_stack(const cv::Mat &lab8, const std::vector<Circle> &all,
                      size_t self, const cv::Vec3f &felt)
{
    const Circle &k = all[self];
    if (lab_dist(k.lab, felt) < 20.0f)
        return false;
    const int bins = 72;
    bool side[bins];
    for (int i = 0; i < bins; i++) {
        float a = (float)(i * 2 * CV_PI / bins);
        int votes = 0, n = 0;
        for (int s = 0; s < 3; s++) {
            float f = 1.08f + 0.08f * s;
            cv::Point2f p(k.c.x + f * k.r * std::cos(a),
                          k.c.y + f * k.r * std::sin(a));
            int x = cvRound(p.x), y = cvRound(p.y);
            if (x < 0 || y < 0 || x >= lab8.cols || y >= lab8.rows)
                continue;
            bool covered = false;
            for (size_t j = 0; j < all.size() && !covered; j++)
                if (j != self && cv::norm(p - all[j].c) < all[j].r * 1.15f)
                    covered = true;
            n++;
            if (covered)
                continue;
            cv::Vec3b q = lab8.at<cv::Vec3b>(y, x);
            cv::Vec3f ql(q[0] * 100.0f / 255.0f, q[1] - 128.0f, q[2] - 128.0f);
            if (lab_dist(ql, felt) > 20.0f)
                votes++;
        }
        side[i] = n == 3 && votes >= 2;
    }
    int best = 0, run = 0;
    for (int i = 0; i < 2 * bins; i++) {
        run = side[i % bins] ? run + 1 : 0;
        best = std::max(best, std::min(run, bins));
    }
    return best * 360 / bins >= 90;
}

/* The detector proper; may throw (cv::Exception, std::bad_alloc). */
void detect(const cv::Mat &frame, const fw_calib_chip *set, int nset,
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
    cv::cvtColor(img, lab8, cv::COLOR_BGR2Lab);
    cv::Vec3f felt = median_lab8(lab8, 3);

    /* distance from the felt through a saturating curve */
    /* Compress large distances and stretch small ones, so that a chip
     * close to the felt's colour still has an edge while a white chip next
     * to a yellow one keeps some contrast. Index: half Lab units. */
    uchar lut[256];
    for (int i = 0; i < 256; i++)
        lut[i] = cv::saturate_cast<uchar>(255.0 * (1.0 - std::exp(-i / 44.0)));
    cv::Mat d(lab8.size(), CV_8UC1);
    for (int y = 0; y < lab8.rows; y++) {
        const cv::Vec3b *row = lab8.ptr<cv::Vec3b>(y);
        uchar *out = d.ptr<uchar>(y);
        for (int x = 0; x < lab8.cols; x++) {
            float dl = row[x][0] * (100.0f / 255.0f) - felt[0];
            float da = row[x][1] - 128.0f - felt[1];
            float db = row[x][2] - 128.0f - felt[2];
            out[x] = lut[cv::saturate_cast<uchar>(
                2.0f * std::sqrt(dl * dl + da * da + db * db))];
        }
    }
    cv::Mat db;
    cv::GaussianBlur(d, db, cv::Size(0, 0), 1.5);

    int mn = std::min(img.cols, img.rows);
    std::vector<cv::Vec3f> found;
    cv::HoughCircles(db, found, cv::HOUGH_GRADIENT, 1, mn / 40.0, 100, 30,
                     std::max(4, mn / 80), mn / 8);
    if (found.empty())
        return;
    /* the strongest circles (Hough sorts by votes) set the chip radius */
    std::vector<float> radii;
    for (size_t i = 0; i < found.size() && i < 24; i++)
        radii.push_back(found[i][2]);
    std::nth_element(radii.begin(), radii.begin() + radii.size() / 2,
                     radii.end());
    float r0 = radii[radii.size() / 2];
    found.clear();
    /* votes spread over neighbouring cells at dp 1: a twelfth of the rim */
    int votes = std::max(8, (int)std::lround(0.085 * 2 * CV_PI * r0));
    cv::HoughCircles(db, found, cv::HOUGH_GRADIENT, 1, 1.4 * r0, 100, votes,
                     std::max(3, (int)std::floor(r0 * 0.85f)),
                     (int)std::ceil(r0 * 1.15f));

    std::vector<Circle> kept;
    for (const cv::Vec3f &f : found) {
        Circle k{cv::Point2f(f[0], f[1]), f[2], 0, {}};
        if (k.c.x < 0 || k.c.y < 0 || k.c.x >= img.cols || k.c.y >= img.rows)
            continue;
        float uniform = 0;
        if (!disc_lab(lab8, k.c, 0.5f * k.r, &k.lab, &uniform))
            continue;
        float rim = rim_support(db, k.c, k.r, 18);
        if (uniform < 0.6f || rim < 0.4f)
            continue;
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

    float inv = (float)(1.0 / scale);
    for (size_t i = 0; i < chosen.size(); i++) {
        const Circle &k = chosen[i];
        fw_chip_obs o;
        std::memset(&o, 0, sizeof o);
        o.center[0] = k.c.x * inv;
        o.center[1] = k.c.y * inv;
        o.radius = k.r * inv;
        name_color(k.lab, set, nset, o.color, &o.value, &o.confidence);
        if (looks_like_stack(lab8, chosen, i, felt)) {
            fw_stack_obs s;
            std::memset(&s, 0, sizeof s);
            s.center[0] = o.center[0];
            s.center[1] = o.center[1];
            s.radius = o.radius;
            set_name(s.color, o.color);
            s.count_lo = 1;
            s.count_hi = 20;
            s.confidence = 0.4f * o.confidence;
            stacks.push_back(s);
        } else {
            chips.push_back(o);
        }
    }
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

extern "C" int fw_chips_detect(const uint8_t *bgr, int width, int height,
                               int stride, const fw_calib_chip *set, int nset,
                               fw_chip_obs *chips, int max_chips, int *nchips,
                               fw_stack_obs *stacks, int max_stacks,
                               int *nstacks)
{
    if (nchips)
        *nchips = 0;
    if (nstacks)
        *nstacks = 0;
    if (!bgr || !nchips || (!chips && max_chips > 0) || max_chips < 0 ||
        max_stacks < 0 || (max_stacks > 0 && (!stacks || !nstacks)) ||
        nset < 0 || (nset > 0 && !set))
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
        detect(frame, set, nset, found, piles);
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
    } catch (const std::bad_alloc &) {
        return fw_set_error(FW_ENOMEM, "fw_chips_detect: out of memory");
    } catch (const std::exception &e) {
        return fw_set_error(FW_EINTERNAL, "fw_chips_detect: %s", e.what());
    } catch (...) {
        return fw_set_error(FW_EINTERNAL, "fw_chips_detect: unknown error");
    }
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
    cv::circle(img, fix(c.x, c.y), cvRound(r * s), body, cv::FILLED,
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
    } catch (const std::bad_alloc &) {
        return fw_set_error(FW_ENOMEM, "fw_chips_render: out of memory");
    } catch (const std::exception &e) {
        return fw_set_error(FW_EINTERNAL, "fw_chips_render: %s", e.what());
    } catch (...) {
        return fw_set_error(FW_EINTERNAL, "fw_chips_render: unknown error");
    }
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
    } catch (const std::bad_alloc &) {
        return fw_set_error(FW_ENOMEM, "fw_chips_draw: out of memory");
    } catch (const std::exception &e) {
        return fw_set_error(FW_EINTERNAL, "fw_chips_draw: %s", e.what());
    } catch (...) {
        return fw_set_error(FW_EINTERNAL, "fw_chips_draw: unknown error");
    }
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
