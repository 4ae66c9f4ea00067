/*
 * cards.cpp - the card detector behind vision.h (OpenCV 4).
 *
 * Pipeline: downscale to <= 1600 px, then search at <= 800 px (an integer
 * factor) and warp cards from the larger frame; foreground masks (near-white
 * paper at three brightness levels for faces and white-bordered backs; far
 * from the felt colour for any
 * back); external contours become card quads when they fit a ~0.71 card
 * under perspective, and blobs that do not are split (distance transform,
 * then cutting along edges) and tried again; quads are de-duplicated, warped
 * to an upright CARD_WxCARD_H card, judged face up by the white of the
 * margin beside the index, and face-up ones read from the corner index by
 * normalised correlation with templates rendered from the Debian decks.
 */
#include "vision.h"

#include "cards_int.h"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <stdexcept>

#ifndef FW_CARD_MODEL_PATH
#define FW_CARD_MODEL_PATH "models/cards_index.fwt"
#endif

namespace fwv {

/* ---- model file -------------------------------------------------------- */

std::vector<Template> load_model(const std::string &path)
{
    std::ifstream f(path, std::ios::binary);
    if (!f)
        throw std::runtime_error("cannot open card model " + path);
    std::string magic;
    int ver = 0, rw = 0, rh = 0, sw = 0, sh = 0, n = 0;
    f >> magic >> ver >> rw >> rh >> sw >> sh >> n;
    if (!f || magic != "FWCARDS" || ver != 1 || rw != RANK_W ||
        rh != RANK_H || sw != SUIT_W || sh != SUIT_H || n < 0 || n > 100000)
        throw std::runtime_error("bad card model header in " + path);
    f.get(); /* the newline */
    std::vector<Template> out;
    for (int i = 0; i < n; i++) {
        unsigned char hdr[3];
        if (!f.read(reinterpret_cast<char *>(hdr), 3))
            throw std::runtime_error("truncated card model " + path);
        Template t;
        t.kind = hdr[0];
        t.cls = hdr[1];
        t.deck = hdr[2];
        if (t.kind > 1 || t.cls > (t.kind == 0 ? 12 : 3))
            throw std::runtime_error("bad record in card model " + path);
        cv::Mat m = t.kind == 0 ? cv::Mat(RANK_H, RANK_W, CV_8U)
                                : cv::Mat(SUIT_H, SUIT_W, CV_8U);
        if (!f.read(reinterpret_cast<char *>(m.data), m.total()))
            throw std::runtime_error("truncated card model " + path);
        m.convertTo(t.img, CV_32F, 1.0 / 255);
        out.push_back(t);
    }
    return out;
}

void save_model(const std::string &path, const std::vector<Template> &ts)
{
    std::ofstream f(path, std::ios::binary);
    if (!f)
        throw std::runtime_error("cannot write " + path);
    f << "FWCARDS 1 " << RANK_W << " " << RANK_H << " " << SUIT_W << " "
      << SUIT_H << " " << ts.size() << "\n";
    for (const Template &t : ts) {
        unsigned char hdr[3] = {(unsigned char)t.kind, (unsigned char)t.cls,
                                (unsigned char)t.deck};
        f.write(reinterpret_cast<char *>(hdr), 3);
        cv::Mat m;
        t.img.convertTo(m, CV_8U, 255);
        m = m.clone();
        f.write(reinterpret_cast<char *>(m.data), m.total());
    }
    if (!f)
        throw std::runtime_error("cannot write " + path);
}

/* ---- corner index ------------------------------------------------------ */

/* The value below which a share q of an 8-bit image's pixels lie. */
static int percentile8(const cv::Mat &m, double q)
{
    int hist[256] = {0};
    for (int y = 0; y < m.rows; y++) {
        const uchar *p = m.ptr<uchar>(y);
        for (int x = 0; x < m.cols; x++)
            hist[p[x]]++;
    }
    long want = (long)(q * (double)m.total()), acc = 0;
    for (int i = 0; i < 256; i++) {
        acc += hist[i];
        if (acc > want)
            return i;
    }
    return 255;
}


static float zncc(const cv::Mat &a, const cv::Mat &b)
{
    cv::Scalar ma, sa, mb, sb;
    cv::meanStdDev(a, ma, sa);
    cv::meanStdDev(b, mb, sb);
    if (sa[0] < 1e-6 || sb[0] < 1e-6)
        return 0;
    double dot = (a - ma[0]).dot(b - mb[0]);
    return (float)(dot / (a.total() * sa[0] * sb[0]));
}

Match classify(const std::vector<Template> &ts, int kind, const cv::Mat &g,
               unsigned allowed)
{
    float best[13];
    for (float &b : best)
        b = -2;
    for (const Template &t : ts) {
        if (t.kind != kind || (allowed && !(allowed & (1u << t.cls))))
            continue;
        best[t.cls] = std::max(best[t.cls], zncc(g, t.img));
    }
    Match m;
    float second = -2;
    for (int c = 0; c < 13; c++) {
        if (best[c] > m.score) {
            second = m.score;
            m.score = best[c];
            m.cls = c;
        } else if (best[c] > second) {
            second = best[c];
        }
    }
    if (m.cls < 0)
        return m;
    m.margin = second > -2 ? m.score - second : m.score;
    return m;
}

/* Normalise one glyph: crop to its ink, pad to the target aspect so thin
 * glyphs ("1" of 10, "I") keep their shape, resize. */
static cv::Mat norm_glyph(const cv::Mat &ink, int w, int h)
{
    std::vector<cv::Point> pts;
    cv::findNonZero(ink, pts);
    if (pts.empty())
        return cv::Mat();
    cv::Rect r = cv::boundingRect(pts);
    cv::Mat g = ink(r);
    double want = (double)w / h, have = (double)r.width / r.height;
    int pw = 0, ph = 0;
    if (have < want)
        pw = (int)std::lround(r.height * want) - r.width;
    else
        ph = (int)std::lround(r.width / want) - r.height;
    cv::Mat padded;
    cv::copyMakeBorder(g, padded, ph / 2, ph - ph / 2, pw / 2, pw - pw / 2,
                       cv::BORDER_CONSTANT, 0);
    cv::Mat out;
    cv::resize(padded, out, cv::Size(w, h), 0, 0, cv::INTER_AREA);
    out.convertTo(out, CV_32F, 1.0 / 255);
    return out;
}

Index extract_index(const cv::Mat &card)
{
    Index ix;
    cv::Rect roi(1, 1, (int)(CARD_W * 0.20), (int)(CARD_H * 0.34));
    cv::Mat crop = card(roi), hsv, gray;
    cv::cvtColor(crop, gray, cv::COLOR_BGR2GRAY);
    cv::cvtColor(crop, hsv, cv::COLOR_BGR2HSV);
    std::vector<cv::Mat> ch;
    cv::split(hsv, ch);
    /* paper level: a high percentile of the crop's brightness */
    int paper = percentile8(gray, 0.9);
    cv::Mat ink = (gray < paper * 0.62) | ((ch[1] > 90) & (ch[2] > 60));
    /* the rounded corner shows felt: never ink */
    std::vector<cv::Point> corner{{0, 0}, {16, 0}, {0, 16}};
    cv::fillConvexPoly(ink, corner, 0);
    /* drop components that touch the crop's outer edges (felt, card edge)
     * or are specks */
    cv::Mat labels, stats, cent;
    int nl = cv::connectedComponentsWithStats(ink, labels, stats, cent, 8);
    cv::Mat keep = cv::Mat::zeros(ink.size(), CV_8U);
    for (int i = 1; i < nl; i++) {
        int x = stats.at<int>(i, cv::CC_STAT_LEFT);
        int y = stats.at<int>(i, cv::CC_STAT_TOP);
        int w = stats.at<int>(i, cv::CC_STAT_WIDTH);
        int hh = stats.at<int>(i, cv::CC_STAT_HEIGHT);
        int a = stats.at<int>(i, cv::CC_STAT_AREA);
        bool edge = x == 0 || y == 0;
        if (a < 12 || hh < 4 ||
            (edge && (w > crop.cols / 2 || hh > crop.rows / 2)))
            continue;
        if (w > crop.cols * 0.8 || hh > crop.rows * 0.6)
            continue;
        keep.setTo(255, labels == i);
    }
    /* row bands of ink: the first is the rank, the next the suit */
    std::vector<std::pair<int, int>> bands;
    int start = -1;
    for (int y = 0; y <= keep.rows; y++) {
        bool any = y < keep.rows && cv::countNonZero(keep.row(y)) > 0;
        if (any && start < 0)
            start = y;
        if (!any && start >= 0) {
            if (y - start >= 4)
                bands.push_back({start, y});
            start = -1;
        }
    }
    if (bands.size() < 2)
        return ix;
    cv::Mat rank = cv::Mat::zeros(keep.size(), CV_8U);
    cv::Mat suit = cv::Mat::zeros(keep.size(), CV_8U);
    keep.rowRange(bands[0].first, bands[0].second)
        .copyTo(rank.rowRange(bands[0].first, bands[0].second));
    keep.rowRange(bands[1].first, bands[1].second)
        .copyTo(suit.rowRange(bands[1].first, bands[1].second));
    /* red or black: hue and saturation of the glyph ink */
    cv::Mat glyphs = rank | suit;
    cv::Scalar ms = cv::mean(ch[1], glyphs);
    cv::Mat redhue = (ch[0] < 12) | (ch[0] > 165);
    double red_share =
        (double)cv::countNonZero(redhue & glyphs & (ch[1] > 70)) /
        std::max(1, cv::countNonZero(glyphs));
    ix.red = red_share > 0.4 && ms[0] > 60;
    ix.rank = norm_glyph(rank, RANK_W, RANK_H);
    ix.suit = norm_glyph(suit, SUIT_W, SUIT_H);
    ix.ok = !ix.rank.empty() && !ix.suit.empty();
    return ix;
}

Bank make_bank(const std::vector<Template> &ts, int kind)
{
    Bank b;
    int n = 0, len = 0;
    for (const Template &t : ts)
        if (t.kind == kind) {
            n++;
            len = (int)t.img.total();
        }
    if (!n)
        return b;
    b.rows.create(n, len, CV_32F);
    int i = 0;
    for (const Template &t : ts) {
        if (t.kind != kind)
            continue;
        cv::Mat r = b.rows.row(i++);
        cv::Mat flat = t.img.reshape(1, 1);
        cv::Scalar m = cv::mean(flat);
        cv::subtract(flat, m, r);
        double nn = cv::norm(r);
        if (nn > 1e-6)
            r *= 1.0 / nn;
        b.cls.push_back(t.cls);
    }
    return b;
}

Match classify_bank(const Bank &b, const cv::Mat &g, unsigned allowed)
{
    Match m;
    if (b.rows.empty() || g.empty() || (int)g.total() != b.rows.cols)
        return m;
    cv::Mat v = g.reshape(1, 1).clone();
    cv::Scalar mu = cv::mean(v);
    v -= mu;
    double nn = cv::norm(v);
    if (nn < 1e-6)
        return m;
    v *= 1.0 / nn;
    cv::Mat sc;
    cv::gemm(b.rows, v, 1.0, cv::noArray(), 0, sc, cv::GEMM_2_T);
    float best[13];
    for (float &x : best)
        x = -2;
    const float *p = sc.ptr<float>();
    for (int i = 0; i < sc.rows; i++) {
        int c = b.cls[i];
        if (allowed && !(allowed & (1u << c)))
            continue;
        best[c] = std::max(best[c], p[i]);
    }
    float second = -2;
    for (int c = 0; c < 13; c++) {
        if (best[c] > m.score) {
            second = m.score;
            m.score = best[c];
            m.cls = c;
        } else if (best[c] > second) {
            second = best[c];
        }
    }
    if (m.cls < 0)
        return m;
    m.margin = second > -2 ? m.score - second : m.score;
    return m;
}

unsigned char read_card_bank(const Bank bank[2], const cv::Mat &card,
                             float *conf, bool *flipped)
{
    *conf = 0;
    *flipped = false;
    cv::Mat turned;
    cv::rotate(card, turned, cv::ROTATE_180);
    Match best_r, best_s;
    for (int k = 0; k < 2; k++) {
        Index ix = extract_index(k == 0 ? card : turned);
        if (!ix.ok)
            continue;
        Match r = classify_bank(bank[0], ix.rank, 0);
        Match su = classify_bank(bank[1], ix.suit, ix.red ? 0x6u : 0x9u);
        if (r.score + su.score > best_r.score + best_s.score) {
            best_r = r;
            best_s = su;
            *flipped = k == 1;
        }
    }
    if (best_r.cls < 0 || best_s.cls < 0 || best_r.score < 0.45f)
        return FW_CARD_NONE;
    float c = std::min(1.0f, best_r.margin / 0.25f) *
              std::min(1.0f, std::max(0.0f, best_r.score));
    c *= 0.5f + 0.5f * std::min(1.0f, best_s.margin / 0.25f);
    *conf = std::max(0.0f, std::min(1.0f, c));
    return fw_card_make(best_r.cls, best_s.cls);
}

unsigned char read_card(const std::vector<Template> &ts, const cv::Mat &card,
                        float *conf, bool *flipped)
{
    Bank b[2] = {make_bank(ts, 0), make_bank(ts, 1)};
    return read_card_bank(b, card, conf, flipped);
}

/* ---- detection --------------------------------------------------------- */

struct Cand {
    cv::Point2f q[4]; /* clockwise, q[0]-q[1] a short side */
    float area;
    int source; /* 0 white mask, 1 felt distance, 2 other white levels */
};

static float side(const cv::Point2f &a, const cv::Point2f &b)
{
    return (float)cv::norm(a - b);
}

/* Order four points clockwise (image y down) starting at the top-left-most,
 * then rotate so the first side is a short one (the card is portrait). */
static void order_quad(cv::Point2f q[4])
{
    cv::Point2f c = (q[0] + q[1] + q[2] + q[3]) * 0.25f;
    std::sort(q, q + 4, [&](const cv::Point2f &a, const cv::Point2f &b) {
        return std::atan2(a.y - c.y, a.x - c.x) <
               std::atan2(b.y - c.y, b.x - c.x);
    });
    int first = 0;
    for (int i = 1; i < 4; i++)
        if (q[i].x + q[i].y < q[first].x + q[first].y)
            first = i;
    std::rotate(q, q + first, q + 4);
    float s01 = side(q[0], q[1]) + side(q[2], q[3]);
    float s12 = side(q[1], q[2]) + side(q[3], q[0]);
    if (s01 > s12)
        std::rotate(q, q + 1, q + 4);
}

/* A contour is a card when its hull simplifies to a convex quad (or fills
 * its rotated rectangle) with a poker card's side ratio. */
static bool contour_to_quad(const std::vector<cv::Point> &cnt, double min_a,
                            double max_a, Cand &out)
{
    double a = cv::contourArea(cnt);
    if (a < min_a || a > max_a)
        return false;
    std::vector<cv::Point> hull, poly;
    cv::convexHull(cnt, hull);
    double ha = cv::contourArea(hull);
    if (a < 0.85 * ha)
        return false;
    double peri = cv::arcLength(hull, true);
    cv::approxPolyDP(hull, poly, 0.03 * peri, true);
    cv::Point2f q[4];
    if (poly.size() == 4 && cv::isContourConvex(poly)) {
        for (int i = 0; i < 4; i++)
            q[i] = cv::Point2f((float)poly[i].x, (float)poly[i].y);
        /* the quad must carry the hull, or it cut a corner off */
        if (cv::contourArea(poly) < 0.9 * ha)
            return false;
    } else {
        cv::RotatedRect rr = cv::minAreaRect(hull);
        if (ha < 0.88 * rr.size.area())
            return false;
        rr.points(q);
    }
    order_quad(q);
    float s = 0.5f * (side(q[0], q[1]) + side(q[2], q[3]));
    float l = 0.5f * (side(q[1], q[2]) + side(q[3], q[0]));
    if (l <= 0)
        return false;
    float ratio = s / l;
    if (ratio < 0.52f || ratio > 0.88f)
        return false;
    for (int i = 0; i < 4; i++)
        out.q[i] = q[i];
    out.area = (float)ha;
    return true;
}

static float quad_iou(const Cand &a, const Cand &b)
{
    std::vector<cv::Point2f> pa(a.q, a.q + 4), pb(b.q, b.q + 4), inter;
    float ia = cv::intersectConvexConvex(pa, pb, inter, true);
    if (ia <= 0)
        return 0;
    return ia / (a.area + b.area - ia);
}

/* Find card quads in one binary mask. Blobs that are not one card are split
 * by thresholding their distance transform at rising levels, each piece
 * being grown back by its level before it is judged. */
static void quads_from_mask(const cv::Mat &mask, double min_a, double max_a,
                            int source, std::vector<Cand> &out)
{
    std::vector<std::vector<cv::Point>> cnts;
    cv::findContours(mask.clone(), cnts, cv::RETR_EXTERNAL,
                     cv::CHAIN_APPROX_SIMPLE);
    for (const auto &c : cnts) {
        Cand cd;
        cd.source = source;
        if (contour_to_quad(c, min_a, max_a, cd)) {
            out.push_back(cd);
            continue;
        }
        double a = cv::contourArea(c);
        if (a < 1.6 * min_a)
            continue;
        cv::Rect br = cv::boundingRect(c);
        br -= cv::Point(2, 2);
        br += cv::Size(4, 4);
        br &= cv::Rect(0, 0, mask.cols, mask.rows);
        cv::Mat blob = cv::Mat::zeros(br.size(), CV_8U);
        std::vector<std::vector<cv::Point>> one{c};
        cv::drawContours(blob, one, 0, 255, cv::FILLED, cv::LINE_8, cv::noArray(),
                         0, -br.tl());
        cv::Mat dist;
        cv::distanceTransform(blob, dist, cv::DIST_L2, 3);
        double dmax;
        cv::minMaxLoc(dist, nullptr, &dmax);
        for (double f : {0.25, 0.4, 0.55}) {
            double lv = dmax * f;
            cv::Mat core = dist > lv;
            std::vector<std::vector<cv::Point>> parts;
            cv::findContours(core, parts, cv::RETR_EXTERNAL,
                             cv::CHAIN_APPROX_SIMPLE);
            if (parts.size() < 2)
                continue;
            int found = 0;
            for (const auto &p : parts) {
                cv::Mat pm = cv::Mat::zeros(br.size(), CV_8U);
                std::vector<std::vector<cv::Point>> pp{p};
                cv::drawContours(pm, pp, 0, 255, cv::FILLED);
                int k = 2 * (int)std::lround(lv) + 1;
                cv::dilate(pm, pm,
                           cv::getStructuringElement(cv::MORPH_ELLIPSE,
                                                     cv::Size(k, k)));
                pm &= blob;
                std::vector<std::vector<cv::Point>> g;
                cv::findContours(pm, g, cv::RETR_EXTERNAL,
                                 cv::CHAIN_APPROX_SIMPLE, br.tl());
                for (const auto &gc : g) {
                    Cand pc;
                    pc.source = source;
                    if (contour_to_quad(gc, min_a, max_a, pc)) {
                        out.push_back(pc);
                        found++;
                    }
                }
            }
            if (found)
                break;
        }
    }
}

/* The felt colour: the median Lab colour of a frame border band. */
static cv::Vec3f felt_colour(const cv::Mat &lab)
{
    int b = std::max(2, std::min(lab.cols, lab.rows) / 20);
    std::vector<float> c[3];
    for (int y = 0; y < lab.rows; y += 2)
        for (int x = 0; x < lab.cols; x += 2) {
            if (x >= b && x < lab.cols - b && y >= b && y < lab.rows - b)
                continue;
            cv::Vec3b v = lab.at<cv::Vec3b>(y, x);
            for (int k = 0; k < 3; k++)
                c[k].push_back(v[k]);
        }
    cv::Vec3f m;
    for (int k = 0; k < 3; k++) {
        std::nth_element(c[k].begin(), c[k].begin() + c[k].size() / 2,
                         c[k].end());
        m[k] = c[k][c[k].size() / 2];
    }
    return m;
}

/* Share of rectangle r of an HSV card that is paper white. */
static float white_share(const cv::Mat &hsv, cv::Rect r, int paper)
{
    int vmin = (int)(paper * 0.78), hits = 0;
    for (int y = r.y; y < r.y + r.height; y++) {
        const cv::Vec3b *p = hsv.ptr<cv::Vec3b>(y);
        for (int x = r.x; x < r.x + r.width; x++)
            hits += p[x][2] > vmin && p[x][1] < 70;
    }
    return (float)hits / (float)r.area();
}

static void analyse(const fw_vision *v, const cv::Mat &img, const Cand &cd,
                    float inv_scale, fw_card_obs &o)
{
    cv::Point2f dst[4] = {{0, 0},
                          {(float)CARD_W - 1, 0},
                          {(float)CARD_W - 1, (float)CARD_H - 1},
                          {0, (float)CARD_H - 1}};
    cv::Mat M = cv::getPerspectiveTransform(cd.q, dst);
    cv::Mat card;
    cv::warpPerspective(img, card, M, cv::Size(CARD_W, CARD_H),
                        cv::INTER_LINEAR, cv::BORDER_REPLICATE);
    cv::Mat gray, hsv;
    cv::cvtColor(card, gray, cv::COLOR_BGR2GRAY);
    cv::cvtColor(card, hsv, cv::COLOR_BGR2HSV);
    int paper = std::max(60, percentile8(gray, 0.95));
    /* the margin strips beside the index column, both long sides, and the
     * whole card */
    float strip = 0.5f * (white_share(hsv, cv::Rect(18, 100, 14, 80), paper) +
                          white_share(hsv, cv::Rect(CARD_W - 32, 100, 14, 80),
                                      paper));
    float whole = white_share(hsv, cv::Rect(8, 8, CARD_W - 16, CARD_H - 16),
                              paper);
    o.face_up = (strip > 0.6f || whole > 0.6f) && paper > 90;
    o.card = FW_CARD_NONE;
    o.confidence = 0;
    int start = 0;
    if (o.face_up && v && !v->templates.empty()) {
        bool flipped = false;
        o.card = read_card_bank(v->bank, card, &o.confidence, &flipped);
        start = flipped ? 2 : 0;
    }
    for (int i = 0; i < 4; i++) {
        const cv::Point2f &p = cd.q[(i + start) % 4];
        o.corners[i][0] = p.x * inv_scale;
        o.corners[i][1] = p.y * inv_scale;
    }
}

/* Detection runs at most this many pixels on the long side; quads are
 * scaled back and cards are warped from the full-resolution frame. */
constexpr int WORK_LONG = 800;

static int detect(const fw_vision *v, const cv::Mat &in, fw_card_obs *out,
                  int max)
{
    cv::Mat full = in;
    double fscale = 1;
    int longest = std::max(in.cols, in.rows);
    if (longest > 1600) {
        fscale = 1600.0 / longest;
        cv::resize(in, full, cv::Size(), fscale, fscale, cv::INTER_AREA);
    }
    cv::Mat img = full;
    double wscale = 1; /* work pixels per full pixel */
    int flong = std::max(full.cols, full.rows);
    if (flong > WORK_LONG) {
        /* an integer factor: INTER_AREA's fast path */
        int f = (flong + WORK_LONG - 1) / WORK_LONG;
        wscale = 1.0 / f;
        cv::resize(full, img, cv::Size(full.cols / f, full.rows / f), 0, 0,
                   cv::INTER_AREA);
        wscale = (double)img.cols / full.cols;
    }
    double area = (double)img.cols * img.rows;
    double min_a = std::max(150.0, area * 0.0025), max_a = area * 0.7;

    cv::Mat blur, hsv, lab;
    cv::GaussianBlur(img, blur, cv::Size(3, 3), 0);
    cv::cvtColor(blur, hsv, cv::COLOR_BGR2HSV);
    cv::cvtColor(blur, lab, cv::COLOR_BGR2Lab);
    std::vector<cv::Mat> ch;
    cv::split(hsv, ch);

    /* near-white paper: bright relative to the frame and unsaturated, at
     * several levels (a card on a light, textured ground separates only at
     * a high level; one in shadow only at a low one) */
    int vhi = percentile8(ch[2], 0.99);
    cv::Mat k3 = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3));
    cv::Mat k5 = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(5, 5));
    cv::Mat unsat = ch[1] < 80;
    std::vector<cv::Mat> whites;
    for (double lv : {0.72, 0.6, 0.84}) {
        int vthr = std::max(80, (int)(vhi * lv));
        cv::Mat w = (ch[2] > vthr) & unsat;
        cv::morphologyEx(w, w, cv::MORPH_CLOSE, k5);
        cv::morphologyEx(w, w, cv::MORPH_OPEN, k3);
        whites.push_back(w);
    }
    cv::Mat &white = whites[0];

    /* far from the felt: catches backs without a white border */
    cv::Vec3f felt = felt_colour(lab);
    std::vector<cv::Mat> lc;
    cv::split(lab, lc);
    cv::Mat d0, d1, d2, dist2;
    cv::absdiff(lc[0], cv::Scalar(felt[0]), d0);
    cv::absdiff(lc[1], cv::Scalar(felt[1]), d1);
    cv::absdiff(lc[2], cv::Scalar(felt[2]), d2);
    d0.convertTo(d0, CV_16U);
    d1.convertTo(d1, CV_16U);
    d2.convertTo(d2, CV_16U);
    cv::Mat fg = (d0.mul(d0) / 2 + d1.mul(d1) + d2.mul(d2)) > 30 * 30;
    cv::morphologyEx(fg, fg, cv::MORPH_CLOSE, k5);
    cv::morphologyEx(fg, fg, cv::MORPH_OPEN, k5);

    std::vector<Cand> cands;
    /* the base level first; the others only add cards it did not find
     * (source 2 ranks them after the felt-distance quads when de-duplicating) */
    for (size_t i = 0; i < whites.size(); i++)
        quads_from_mask(whites[i], min_a, max_a, i == 0 ? 0 : 2, cands);
    /* cutting the paper along strong edges separates overlapping faces */
    cv::Mat gray, edges;
    cv::cvtColor(blur, gray, cv::COLOR_BGR2GRAY);
    cv::Canny(gray, edges, 40, 120);
    if (wscale > 0.75) /* at half scale the bare edge is wide enough */
        cv::dilate(edges, edges, cv::Mat(), cv::Point(-1, -1), 1);
    cv::Mat cut = white & ~edges;
    quads_from_mask(cut, min_a, max_a, 0, cands);
    quads_from_mask(fg, min_a, max_a, 1, cands);

    /* keep the larger of overlapping duplicates, preferring paper quads */
    std::sort(cands.begin(), cands.end(), [](const Cand &a, const Cand &b) {
        if (a.source != b.source)
            return a.source < b.source;
        return a.area > b.area;
    });
    std::vector<Cand> kept;
    for (const Cand &c : cands) {
        bool dup = false;
        for (const Cand &k : kept)
            if (quad_iou(c, k) > 0.3f) {
                dup = true;
                break;
            }
        if (!dup)
            kept.push_back(c);
    }
    /* top to bottom, left to right */
    std::sort(kept.begin(), kept.end(), [](const Cand &a, const Cand &b) {
        cv::Point2f ca = (a.q[0] + a.q[2]) * 0.5f, cb = (b.q[0] + b.q[2]) * 0.5f;
        if (std::fabs(ca.y - cb.y) > 20)
            return ca.y < cb.y;
        return ca.x < cb.x;
    });
    int n = 0;
    for (const Cand &c : kept) {
        if (n >= max)
            break;
        Cand cf = c;
        for (cv::Point2f &p : cf.q)
            p *= (float)(1.0 / wscale);
        cf.area = c.area / (float)(wscale * wscale);
        analyse(v, full, cf, (float)(1.0 / fscale), out[n]);
        n++;
    }
    return n;
}

} // namespace fwv

/* ---- the C API --------------------------------------------------------- */

extern "C" int fw_vision_new_from(const char *model_path, fw_vision **out)
{
    if (!out)
        return fw_set_error(FW_EINVAL, "fw_vision_new: out is NULL");
    *out = nullptr;
    if (!model_path)
        return fw_set_error(FW_EINVAL, "fw_vision_new: no model path");
    try {
        std::ifstream probe(model_path);
        if (!probe)
            return fw_set_error(FW_ENOENT, "card model %s: cannot open",
                                model_path);
        fw_vision *v = new fw_vision;
        try {
            v->templates = fwv::load_model(model_path);
            v->bank[0] = fwv::make_bank(v->templates, 0);
            v->bank[1] = fwv::make_bank(v->templates, 1);
        } catch (const std::exception &e) {
            delete v;
            return fw_set_error(FW_EPARSE, "%s", e.what());
        }
        *out = v;
        return FW_OK;
    } catch (const std::bad_alloc &) {
        return fw_set_error(FW_ENOMEM, "fw_vision_new: out of memory");
    } catch (const std::exception &e) {
        return fw_set_error(FW_EINTERNAL, "fw_vision_new: %s", e.what());
    } catch (...) {
        return fw_set_error(FW_EINTERNAL, "fw_vision_new: unknown error");
    }
}

extern "C" int fw_vision_new(fw_vision **out)
{
    const char *env = std::getenv("FW_CARD_MODEL");
    return fw_vision_new_from(env && *env ? env : FW_CARD_MODEL_PATH, out);
}

extern "C" void fw_vision_free(fw_vision *v)
{
    delete v;
}

extern "C" int fw_vision_detect_cards(fw_vision *v, const uint8_t *bgr,
                                      int width, int height, int stride,
                                      fw_card_obs *out, int max, int *n)
{
    if (n)
        *n = 0;
    if (!v || !bgr || !out || !n || max < 0 || width <= 0 || height <= 0 ||
        stride < width * 3)
        return fw_set_error(FW_EINVAL,
                            "fw_vision_detect_cards: bad arguments "
                            "(%dx%d, stride %d)",
                            width, height, stride);
    try {
        cv::Mat img(height, width, CV_8UC3, const_cast<uint8_t *>(bgr),
                    (size_t)stride);
        if (width < 8 || height < 8)
            return FW_OK;
        *n = fwv::detect(v, img, out, max);
        return FW_OK;
    } catch (const std::bad_alloc &) {
        return fw_set_error(FW_ENOMEM, "fw_vision_detect_cards: out of memory");
    } catch (const std::exception &e) {
        return fw_set_error(FW_EINTERNAL, "fw_vision_detect_cards: %s",
                            e.what());
    } catch (...) {
        return fw_set_error(FW_EINTERNAL,
                            "fw_vision_detect_cards: unknown error");
    }
}

/* Copy a decoded BGR matrix into a caller-owned fw_image. */
static int image_from_mat(cv::Mat m, const char *name, fw_image *out)
{
    if (m.empty())
        return fw_set_error(FW_EPARSE, "%s: not a readable image", name);
    if (!m.isContinuous())
        m = m.clone();
    size_t bytes = m.total() * 3;
    out->bgr = static_cast<uint8_t *>(std::malloc(bytes));
    if (!out->bgr)
        return fw_set_error(FW_ENOMEM, "%s: out of memory", name);
    std::memcpy(out->bgr, m.data, bytes);
    out->width = m.cols;
    out->height = m.rows;
    out->stride = m.cols * 3;
    return FW_OK;
}

extern "C" int fw_vision_decode_image(const uint8_t *data, size_t len,
                                      fw_image *out)
{
    if (!out || (!data && len))
        return fw_set_error(FW_EINVAL,
                            "fw_vision_decode_image: bad arguments");
    std::memset(out, 0, sizeof *out);
    try {
        if (len == 0)
            return fw_set_error(FW_EPARSE, "image: empty");
        cv::Mat buf(1, static_cast<int>(len), CV_8UC1,
                    const_cast<uint8_t *>(data));
        return image_from_mat(cv::imdecode(buf, cv::IMREAD_COLOR), "image",
                              out);
    } catch (const std::bad_alloc &) {
        return fw_set_error(FW_ENOMEM, "image: out of memory");
    } catch (const std::exception &e) {
        return fw_set_error(FW_EPARSE, "image: %s", e.what());
    } catch (...) {
        return fw_set_error(FW_EINTERNAL, "image: unknown error");
    }
}

extern "C" int fw_vision_load_image(const char *path, fw_image *out)
{
    if (!out || !path)
        return fw_set_error(FW_EINVAL, "fw_vision_load_image: bad arguments");
    std::memset(out, 0, sizeof *out);
    try {
        std::ifstream probe(path, std::ios::binary);
        if (!probe)
            return fw_set_error(FW_ENOENT, "%s: cannot open", path);
        return image_from_mat(cv::imread(path, cv::IMREAD_COLOR), path, out);
    } catch (const std::bad_alloc &) {
        return fw_set_error(FW_ENOMEM, "%s: out of memory", path);
    } catch (const std::exception &e) {
        return fw_set_error(FW_EPARSE, "%s: %s", path, e.what());
    } catch (...) {
        return fw_set_error(FW_EINTERNAL, "%s: unknown error", path);
    }
}

extern "C" void fw_vision_image_free(fw_image *img)
{
    if (!img)
        return;
    std::free(img->bgr);
    img->bgr = nullptr;
}
