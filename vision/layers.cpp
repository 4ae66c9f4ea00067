/*
 * layers.cpp - which card lies over which, and what of each shows
 * (layers.h).
 */
#include "layers.h"

#include "detect.h"

#include <algorithm>
#include <cmath>

namespace fwv
{

namespace
{

/* An upper card's side measures a profile at least LAYER_EDGE deep (of
 * 255 in lightness) and LAYER_RATIO times the lower card's sides' under
 * it; each card's sides are measured where they lie inside the other by
 * LAYER_INSET of its shorter side or more (two cards lying flush share a
 * side's line, which is the edge of both), over LAYER_LEAST of the
 * shorter side at least. */
constexpr float LAYER_EDGE = 12.f, LAYER_RATIO = 2.f, LAYER_INSET = 0.06f,
                LAYER_LEAST = 0.2f;
/* An upper card's side has its own paper just inside it (a card's
 * margin, an index near a corner): its edge's profile is deeper than
 * LAYER_OVER_PRINT times the lightness there spreads along the side
 * (between its SPREAD_FROM and 1 - SPREAD_FROM quantiles). A lower
 * card's side hidden under a court's picture or a row of pips has the
 * upper card's print just inside it, which spreads more than the print
 * that happens to run along it marks its profile. */
constexpr float LAYER_OVER_PRINT = 0.8f;
/* A side whose profile is under NO_EDGE deep where it lies inside
 * another card shows no edge there: neither a card's side over another
 * nor the thin shadow it casts (one_paper()). On the real photographs,
 * the two quads of one card measured 0.0 to 3.8 (train/ IMG_2523,
 * cam_image28); a white card over another white card, 6.6 to 11 (hard
 * 5389, easy 22397). */
constexpr float NO_EDGE = 5.f;
/* Two quads sharing more than LAYER_SAME of the smaller are one card seen
 * twice (a quad and a second choice both reported), not two layers. */
constexpr float LAYER_SAME = 0.8f;
/* The profile runs this share of the shorter side either way across the
 * side (a quad laid from a card's index lies a few pixels off its edge),
 * within PROFILE_LEAST and PROFILE_MOST pixels. */
constexpr float PROFILE_REACH = 0.05f;
constexpr int PROFILE_LEAST = 2, PROFILE_MOST = 6;
/* What shows of a card: the cards over it taken away, pieces thinner
 * than SLIVER of its shorter side left out (where two quads' sides
 * nearly meet). At most OVER_MOST cards over one are taken away, and the
 * pieces are kept to PIECES_MOST: past either, what shows is reported
 * larger than it is, never smaller. */
constexpr float SLIVER = 0.1f;
constexpr int OVER_MOST = 3, PIECES_MOST = 64, POLY_MOST = 4 + OVER_MOST * 4;

/* The points x with n . x >= c. */
struct HalfPlane {
    cv::Point2f n;
    float c;
};

struct Poly {
    cv::Point2f p[POLY_MOST];
    int n;
};

float shorter_side_of(const cv::Point2f q[4])
{
    float s = 1e9f;
    for (int k = 0; k < 4; k++)
        s = std::min(s, (float)cv::norm(q[(k + 1) % 4] - q[k]));
    return s;
}

/* Side k of quad q as the half-plane of the quad's side, moved inwards by
 * inset; its unit normal points in. False for a side too short to have
 * one. */
bool inward(const cv::Point2f q[4], int k, float inset, HalfPlane &h)
{
    const cv::Point2f a = q[k], d = q[(k + 1) % 4] - a;
    const float len = std::hypot(d.x, d.y);
    if (!(len > 1e-3f))
        return false;
    cv::Point2f n(-d.y / len, d.x / len);
    if (n.dot(quad_centre(q) - a) < 0)
        n = -n;
    h = HalfPlane{n, n.dot(a) + inset};
    return true;
}

/* The part [t0, t1] of segment p0 -> p1 (t from 0 to 1) inside every
 * half-plane of h[0..nh): false when none is. */
bool clip_segment(cv::Point2f p0, cv::Point2f p1, const HalfPlane *h, int nh,
                  float &t0, float &t1)
{
    t0 = 0;
    t1 = 1;
    for (int i = 0; i < nh; i++) {
        const float f0 = h[i].n.dot(p0) - h[i].c, df = h[i].n.dot(p1 - p0);
        if (std::fabs(df) < 1e-6f) {
            if (f0 < 0)
                return false;
            continue;
        }
        const float t = -f0 / df;
        if (df > 0)
            t0 = std::max(t0, t);
        else
            t1 = std::min(t1, t);
    }
    return t1 > t0;
}

/* light at p, bilinear; false off the image. */
bool sample(const cv::Mat &light, cv::Point2f p, float &v)
{
    const int x = (int)std::floor(p.x), y = (int)std::floor(p.y);
    if (x < 0 || y < 0 || x + 1 >= light.cols || y + 1 >= light.rows)
        return false;
    const float fx = p.x - (float)x, fy = p.y - (float)y;
    const uchar *r0 = light.ptr<uchar>(y), *r1 = light.ptr<uchar>(y + 1);
    v = (1 - fy) * ((1 - fx) * r0[x] + fx * r0[x + 1]) +
        fy * ((1 - fx) * r1[x] + fx * r1[x + 1]);
    return true;
}

/* How deep the profile across card a's sides is where they lie inside
 * card b (LAYER_INSET), over most of their length. The sides are cut
 * into stretches of PROFILE_STRETCH samples, and each stretch's depth is
 * that of its mean profile (the lightness at each offset across the
 * side, out from a), its highest less its lowest; the sides' depth is
 * the stretches' at PROFILE_HOLDS of their length. An edge runs the
 * side's whole length, while a row of pips or a court's picture crossing
 * a hidden side marks only part of it; a stretch is short enough that
 * the edge's offset from a quad laid a little askew stays the same along
 * it. Into samples, the pixels along the sides measured (at most
 * PROFILE_SAMPLES, spread over them); into spread, how far the lightness
 * just inside the sides (the inner half of the profile's reach) spreads
 * along them (LAYER_OVER_PRINT). */
constexpr int PROFILE_SAMPLES = 256, PROFILE_STRETCH = 8;
constexpr float SPREAD_FROM = 0.15f;
constexpr float PROFILE_HOLDS = 0.7f;

float side_profile(const cv::Mat &light, const cv::Point2f a[4],
                   const cv::Point2f b[4], int reach, int &samples,
                   float &spread)
{
    spread = 0;
    float inner_at[PROFILE_SAMPLES];
    HalfPlane inb[4];
    const float inset = LAYER_INSET * shorter_side_of(b);
    samples = 0;
    for (int k = 0; k < 4; k++)
        if (!inward(b, k, inset, inb[k]))
            return 0;
    /* the parts of a's sides inside b, and their length in all */
    float from_t[4], to_t[4], total = 0;
    bool inside[4];
    for (int k = 0; k < 4; k++) {
        inside[k] = clip_segment(a[k], a[(k + 1) % 4], inb, 4, from_t[k],
                                 to_t[k]);
        if (inside[k])
            total += (float)cv::norm(a[(k + 1) % 4] - a[k]) *
                     (to_t[k] - from_t[k]);
    }
    const float stride = std::max(1.f, total / PROFILE_SAMPLES);
    float depth[PROFILE_SAMPLES];
    int stretches = 0;
    for (int k = 0; k < 4; k++) {
        HalfPlane ha;
        if (!inside[k] || !inward(a, k, 0, ha))
            continue;
        const cv::Point2f p0 = a[k], d = a[(k + 1) % 4] - p0, out = -ha.n;
        const float full = std::hypot(d.x, d.y);
        const float len = full * (to_t[k] - from_t[k]);
        const cv::Point2f step = d * (1.f / full), from = p0 + d * from_t[k];
        float acc[2 * PROFILE_MOST + 1] = {0};
        int in_stretch = 0;
        for (float s = 0.5f * stride; s < len && samples < PROFILE_SAMPLES;
             s += stride) {
            const cv::Point2f at = from + step * s;
            float v[2 * PROFILE_MOST + 1] = {0};
            bool in = true;
            for (int t = -reach; t <= reach && in; t++)
                in = sample(light, at + out * (float)t, v[t + reach]);
            if (!in)
                continue;
            samples++;
            float inner = 0;
            for (int t = 0; t <= reach / 2; t++)
                inner += v[t];
            inner_at[samples - 1] = inner / (float)(reach / 2 + 1);
            for (int t = 0; t <= 2 * reach; t++)
                acc[t] += v[t];
            if (++in_stretch < PROFILE_STRETCH)
                continue;
            const auto mm = std::minmax_element(acc, acc + 2 * reach + 1);
            depth[stretches++] = (*mm.second - *mm.first) / (float)in_stretch;
            std::fill(acc, acc + 2 * reach + 1, 0.f);
            in_stretch = 0;
        }
    }
    if (samples > 0) {
        const int lo = (int)(SPREAD_FROM * (float)samples),
                  hi = (int)((1 - SPREAD_FROM) * (float)samples);
        std::nth_element(inner_at, inner_at + lo, inner_at + samples);
        const float low = inner_at[lo];
        std::nth_element(inner_at, inner_at + hi, inner_at + samples);
        spread = inner_at[hi] - low;
    }
    if (stretches == 0)
        return 0;
    const int at = (int)((1 - PROFILE_HOLDS) * (float)stretches);
    std::nth_element(depth, depth + at, depth + stretches);
    return depth[at];
}

/* The area of polygon p (either turn). */
float poly_area(const Poly &p)
{
    float a = 0;
    for (int i = 0; i < p.n; i++) {
        const cv::Point2f &u = p.p[i], &w = p.p[(i + 1) % p.n];
        a += u.x * w.y - w.x * u.y;
    }
    return 0.5f * std::fabs(a);
}

float poly_perimeter(const Poly &p)
{
    float s = 0;
    for (int i = 0; i < p.n; i++)
        s += (float)cv::norm(p.p[(i + 1) % p.n] - p.p[i]);
    return s;
}

/* Convex polygon in cut to half-plane h, into out (Sutherland and
 * Hodgman). */
void clip_poly(const Poly &in, const HalfPlane &h, Poly &out)
{
    out.n = 0;
    for (int i = 0; i < in.n; i++) {
        const cv::Point2f a = in.p[i], b = in.p[(i + 1) % in.n];
        const float fa = h.n.dot(a) - h.c, fb = h.n.dot(b) - h.c;
        if (fa >= 0 && out.n < POLY_MOST)
            out.p[out.n++] = a;
        if ((fa >= 0) != (fb >= 0) && out.n < POLY_MOST)
            out.p[out.n++] = a + (b - a) * (fa / (fa - fb));
    }
}

/* The box of what shows of quad q under quads over[0..m) (frame pixels),
 * within width x height: into box (x0, y0, x1, y1). False where nothing
 * of some breadth shows. */
bool shown_box(const cv::Point2f q[4], const cv::Point2f (*over)[4], int m,
               int width, int height, float box[4])
{
    static_assert(POLY_MOST >= 4 + OVER_MOST * 4, "a piece's corners");
    Poly pieces[2][PIECES_MOST];
    int np = 1, cur = 0;
    pieces[0][0].n = 4;
    std::copy(q, q + 4, pieces[0][0].p);
    const float tiny = 1e-3f * std::max(1.f, shorter_side_of(q));
    for (int j = 0; j < m && j < OVER_MOST; j++) {
        /* outside over[j]: outside any one of its sides (the pieces may
         * overlap; their boxes' union is what shows) */
        HalfPlane out_of[4];
        int nh = 0;
        for (int k = 0; k < 4; k++) {
            HalfPlane h;
            if (inward(over[j], k, 0, h))
                out_of[nh++] = HalfPlane{-h.n, -h.c};
        }
        if (nh < 3)
            continue;
        int next = 0;
        bool full = false;
        for (int i = 0; i < np && !full; i++)
            for (int k = 0; k < nh; k++) {
                if (next == PIECES_MOST) {
                    full = true;
                    break;
                }
                Poly &o = pieces[1 - cur][next];
                clip_poly(pieces[cur][i], out_of[k], o);
                next += o.n >= 3 && poly_area(o) > tiny;
            }
        if (full)
            break; /* what shows is reported as it stood */
        cur = 1 - cur;
        np = next;
    }
    const float thin = SLIVER * shorter_side_of(q);
    float x0 = 1e9f, y0 = 1e9f, x1 = -1e9f, y1 = -1e9f;
    for (int i = 0; i < np; i++) {
        const Poly &p = pieces[cur][i];
        const float per = poly_perimeter(p);
        if (per <= 0 || 2 * poly_area(p) / per < thin)
            continue;
        for (int k = 0; k < p.n; k++) {
            x0 = std::min(x0, p.p[k].x);
            y0 = std::min(y0, p.p[k].y);
            x1 = std::max(x1, p.p[k].x);
            y1 = std::max(y1, p.p[k].y);
        }
    }
    x0 = std::max(x0, 0.f);
    y0 = std::max(y0, 0.f);
    x1 = std::min(x1, (float)width);
    y1 = std::min(y1, (float)height);
    if (!(x1 > x0 && y1 > y0))
        return false;
    box[0] = x0;
    box[1] = y0;
    box[2] = x1;
    box[3] = y1;
    return true;
}

void quad_of(const fw_card_obs &o, float scale, cv::Point2f q[4])
{
    for (int k = 0; k < 4; k++)
        q[k] = cv::Point2f(o.corners[k][0] * scale, o.corners[k][1] * scale);
}

float quad_area(const cv::Point2f q[4])
{
    Poly p;
    p.n = 4;
    std::copy(q, q + 4, p.p);
    return poly_area(p);
}

/* The area quads a and b share. */
float shared_area(const cv::Point2f a[4], const cv::Point2f b[4])
{
    Poly p[2];
    p[0].n = 4;
    std::copy(a, a + 4, p[0].p);
    int cur = 0;
    for (int k = 0; k < 4 && p[cur].n >= 3; k++) {
        HalfPlane h;
        if (!inward(b, k, 0, h))
            return 0;
        clip_poly(p[cur], h, p[1 - cur]);
        cur = 1 - cur;
    }
    return p[cur].n >= 3 ? poly_area(p[cur]) : 0.f;
}

/* The depths of the profiles across quad a's sides inside quad b (da)
 * and b's inside a (db), in light. Gated, each is 0 where too little of
 * the sides lies inside (LAYER_LEAST) or where the print just inside
 * them spreads more than the profile marks (LAYER_OVER_PRINT), and two
 * quads of which one holds most of the other (LAYER_SAME) are not
 * measured. Whether they were measured: the quads' boxes overlap and
 * the frame holds them. */
bool side_depths(const cv::Mat &light, const cv::Point2f a[4],
                 const cv::Point2f b[4], bool gated, float &da, float &db)
{
    da = db = 0;
    if (light.empty() || light.type() != CV_8U ||
        (quad_box(a) & quad_box(b)).area() <= 0)
        return false;
    const float side = std::min(shorter_side_of(a), shorter_side_of(b));
    if (!(side >= 4 && side < 1e5f))
        return false;
    if (gated &&
        shared_area(a, b) > LAYER_SAME * std::min(quad_area(a), quad_area(b)))
        return false;
    const int reach = std::clamp((int)std::lround(PROFILE_REACH * side),
                                 PROFILE_LEAST, PROFILE_MOST);
    int na = 0, nb = 0;
    float spread_a = 0, spread_b = 0;
    da = side_profile(light, a, b, reach, na, spread_a);
    db = side_profile(light, b, a, reach, nb, spread_b);
    const float least = LAYER_LEAST * side;
    if (gated && ((float)na < least || da < LAYER_OVER_PRINT * spread_a))
        da = 0;
    if (gated && ((float)nb < least || db < LAYER_OVER_PRINT * spread_b))
        db = 0;
    return true;
}

} // namespace

int layer_order(const cv::Mat &light, const cv::Point2f a[4],
                const cv::Point2f b[4])
{
    float ea = 0, eb = 0;
    if (!side_depths(light, a, b, true, ea, eb))
        return 0;
    if (ea >= LAYER_EDGE && ea >= LAYER_RATIO * eb)
        return 1;
    if (eb >= LAYER_EDGE && eb >= LAYER_RATIO * ea)
        return -1;
    return 0;
}

bool one_paper(const cv::Mat &light, const cv::Point2f a[4],
               const cv::Point2f b[4])
{
    float ea = 0, eb = 0;
    return side_depths(light, a, b, false, ea, eb) &&
           shared_area(a, b) > 0 && ea < NO_EDGE && eb < NO_EDGE;
}

void settle_layers(const cv::Mat &light, float to_light, int width,
                   int height, fw_card_obs *out, int n)
{
    for (int i = 0; i < n; i++) {
        cv::Point2f qi[4], li[4], over[OVER_MOST][4];
        quad_of(out[i], 1.f, qi);
        quad_of(out[i], to_light, li);
        int m = 0;
        for (int j = 0; j < n; j++) {
            cv::Point2f lj[4];
            quad_of(out[j], to_light, lj);
            if (j == i || !out[j].face_up || out[j].card == FW_CARD_NONE ||
                layer_order(light, lj, li) <= 0)
                continue;
            if (m < OVER_MOST)
                quad_of(out[j], 1.f, over[m]);
            m++;
        }
        out[i].cards_over = m;
        /* a card the cards over it would hide whole (their order
         * misjudged) shows its quad's box */
        if (!shown_box(qi, over, std::min(m, OVER_MOST), width, height,
                       out[i].shows) &&
            !shown_box(qi, over, 0, width, height, out[i].shows))
            std::fill(out[i].shows, out[i].shows + 4, 0.f);
    }
}

} // namespace fwv
