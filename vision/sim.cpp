/*
 * sim.cpp - the table simulator of sim.h: Debian card art (sim_art.c)
 * composited on a procedural table, seen through a tilted camera, under
 * uneven light and glare, blurred, noisy and JPEG-compressed, with exact
 * ground truth.
 *
 * Rendering order: the table canvas (cached per table, seed and size), then
 * each card bottom first with its shadow, then the covers, all in table
 * pixels; one perspective warp to the output; light, glare, blur, noise and
 * JPEG in output pixels. A label map drawn alongside gives every card's
 * visible share and whether an index corner is seen whole.
 */
#include "sim.h"

#include "sim_art.h"
#include "sim_int.h"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <new>
#include <string>
#include <vector>

/* The height the art is rasterised at: enough for a card 360 px tall in a
 * frame without visible upscaling; larger cards are upscaled smoothly. */
static constexpr int ART_H = 360;

struct fw_sim {
    std::string cache;
    std::map<int, std::vector<cv::Mat>> decks; /* BGRA, 53 per deck */
    /* the last table canvas, reused while a script renders frames */
    int bg_table = -1, bg_w = 0, bg_h = 0;
    uint32_t bg_seed = 0;
    cv::Mat bg;
};

namespace fwsim {

/* ---- deterministic random numbers (same on every platform) ------------ */

uint64_t Rng::next()
{
    /* splitmix64 */
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double Rng::uni() { return (double)(next() >> 11) * (1.0 / 9007199254740992.0); }

double Rng::uni(double a, double b) { return a + (b - a) * uni(); }

int Rng::range(int a, int b)
{
    if (b <= a)
        return a;
    return a + (int)(next() % (uint64_t)(b - a + 1));
}

double Rng::gauss()
{
    double u = std::max(1e-12, uni()), v = uni();
    return std::sqrt(-2 * std::log(u)) * std::cos(2 * CV_PI * v);
}

/* ---- art ---------------------------------------------------------------- */

const std::vector<cv::Mat> &deck_art(fw_sim *sim, int deck)
{
    auto it = sim->decks.find(deck);
    if (it != sim->decks.end())
        return it->second;
    const fw_deck_info *d = fw__deck_get(deck);
    if (!d)
        throw SimError(FW_EINVAL, "no deck " + std::to_string(deck));
    int rc = fw__deck_render(d, sim->cache.c_str(), ART_H);
    if (rc != FW_OK)
        throw SimError(rc, fw_last_error());
    std::vector<cv::Mat> cards(FW_DECK_CARDS);
    for (int c = 0; c < FW_DECK_CARDS; c++) {
        char path[1024];
        fw__deck_card_path(d, sim->cache.c_str(), ART_H, c, path,
                           sizeof path);
        cv::Mat m = cv::imread(path, cv::IMREAD_UNCHANGED);
        if (m.empty())
            throw SimError(FW_EIO, std::string("cannot read ") + path);
        if (m.channels() == 3)
            cv::cvtColor(m, m, cv::COLOR_BGR2BGRA);
        else if (m.channels() == 1)
            cv::cvtColor(m, m, cv::COLOR_GRAY2BGRA);
        cards[c] = m;
    }
    /* a back drawn at another size than the faces takes the faces' size */
    if (cards[FW_DECK_BACK].size() != cards[0].size())
        cv::resize(cards[FW_DECK_BACK], cards[FW_DECK_BACK], cards[0].size(),
                   0, 0, cv::INTER_AREA);
    return sim->decks.emplace(deck, std::move(cards)).first->second;
}

/* ---- the table ---------------------------------------------------------- */

/* A smooth random field in [-1, 1] of size sz, with about cells x cells
 * features across. */
static cv::Mat smooth_field(Rng &r, cv::Size sz, int cells)
{
    int cw = std::max(2, cells), ch = std::max(2, cells * sz.height /
                                                      std::max(1, sz.width));
    cv::Mat small(ch + 1, cw + 1, CV_32F);
    for (int y = 0; y < small.rows; y++)
        for (int x = 0; x < small.cols; x++)
            small.at<float>(y, x) = (float)r.uni(-1, 1);
    cv::Mat out;
    cv::resize(small, out, sz, 0, 0, cv::INTER_CUBIC);
    return out;
}

/* OpenCV's generator is deterministic for a seed and much faster than
 * ours per pixel. */
static cv::Mat gauss_noise(Rng &r, cv::Size sz, double sigma)
{
    cv::Mat n(sz, CV_32F);
    cv::RNG cr(r.next() | 1);
    cr.fill(n, cv::RNG::NORMAL, 0, sigma);
    return n;
}

cv::Mat make_table(int table, uint32_t seed, cv::Size sz)
{
    Rng r(seed * 7919ull + 17);
    cv::Mat out(sz, CV_32FC3);
    cv::Vec3f base;
    switch (table) {
    case FW_SIM_BLUE:
        base = cv::Vec3f(125, 75, 25);
        break;
    case FW_SIM_RED:
        base = cv::Vec3f(40, 40, 135);
        break;
    case FW_SIM_WOOD:
        base = cv::Vec3f(45, 85, 140);
        break;
    case FW_SIM_GREY:
        base = cv::Vec3f(140, 150, 160);
        break;
    case FW_SIM_PALE:
        /* a white or cream cloth, a shade under the cards' paper */
        base = cv::Vec3f(222, 226, 228);
        break;
    default:
        base = cv::Vec3f(45, 110, 35);
    }
    for (int k = 0; k < 3; k++)
        base[k] = (float)std::min(
            250.0, std::max(5.0, base[k] * (table == FW_SIM_PALE
                                                 ? r.uni(0.97, 1.05)
                                                 : r.uni(0.75, 1.25))));
    cv::Mat low = smooth_field(r, sz, 6);
    if (table == FW_SIM_WOOD) {
        /* planks of grain: stripes along x bent by a smooth field */
        cv::Mat bend = smooth_field(r, sz, 4);
        cv::Mat fine = gauss_noise(r, sz, 1.0);
        cv::GaussianBlur(fine, fine, cv::Size(0, 0), 6, 0.8);
        double freq = r.uni(0.05, 0.12), plank = r.uni(90, 200);
        double ang = r.uni(-0.2, 0.2);
        for (int y = 0; y < sz.height; y++) {
            cv::Vec3f *p = out.ptr<cv::Vec3f>(y);
            const float *b = bend.ptr<float>(y), *f = fine.ptr<float>(y);
            for (int x = 0; x < sz.width; x++) {
                double v = y + x * ang;
                double g = 0.5 + 0.5 * std::sin(freq * (v + 25 * b[x]) +
                                                 3 * f[x]);
                double seam = std::fmod(v + 1e6, plank) < 2.5 ? 0.55 : 1.0;
                double k = (0.78 + 0.3 * g + 0.08 * f[x]) * seam;
                p[x] = base * (float)k;
            }
        }
    } else {
        double sig = table == FW_SIM_GREY ? 28 : 6;
        cv::Mat fine = gauss_noise(r, sz, sig);
        cv::GaussianBlur(fine, fine, cv::Size(0, 0),
                         table == FW_SIM_GREY ? 1.6 : 0.7);
        for (int y = 0; y < sz.height; y++) {
            cv::Vec3f *p = out.ptr<cv::Vec3f>(y);
            const float *l = low.ptr<float>(y), *f = fine.ptr<float>(y);
            for (int x = 0; x < sz.width; x++)
                p[x] = base * (1.0f + 0.06f * l[x]) +
                       cv::Vec3f(f[x], f[x], f[x]);
        }
    }
    cv::Mat u8;
    out.convertTo(u8, CV_8UC3);
    return u8;
}

/* ---- geometry ------------------------------------------------------------ */

/* The camera: a rotation homography about the frame centre, re-centred and
 * re-scaled so the table centre stays put at about the same scale. Maps
 * table pixels (origin at the output's top-left) to output pixels. */
cv::Matx33d camera(const fw_sim_scene &s)
{
    double cx = s.width * 0.5, cy = s.height * 0.5;
    double f = std::max(s.width, s.height) * 1.0;
    double t = std::min(40.0, std::max(0.0, (double)s.tilt)) * CV_PI / 180;
    double d = s.tilt_dir * CV_PI / 180;
    /* rotation by t about the axis (cos d, sin d, 0) (Rodrigues) */
    double ux = std::cos(d), uy = std::sin(d), ct = std::cos(t),
           st = std::sin(t);
    cv::Matx33d R(ct + ux * ux * (1 - ct), ux * uy * (1 - ct), uy * st,
                  ux * uy * (1 - ct), ct + uy * uy * (1 - ct), -ux * st,
                  -uy * st, ux * st, ct);
    cv::Matx33d K(f, 0, cx, 0, f, cy, 0, 0, 1);
    cv::Matx33d H = K * R * K.inv();
    /* keep the centre at the centre with unit area scale */
    cv::Vec3d c = H * cv::Vec3d(cx, cy, 1);
    double mx = c[0] / c[2], my = c[1] / c[2];
    auto at = [&](double x, double y) {
        cv::Vec3d p = H * cv::Vec3d(x, y, 1);
        return cv::Point2d(p[0] / p[2], p[1] / p[2]);
    };
    cv::Point2d ex = at(cx + 1, cy) - cv::Point2d(mx, my);
    cv::Point2d ey = at(cx, cy + 1) - cv::Point2d(mx, my);
    double det = std::fabs(ex.x * ey.y - ex.y * ey.x);
    double k = det > 1e-9 ? 1.0 / std::sqrt(det) : 1.0;
    cv::Matx33d S(k, 0, cx - k * mx, 0, k, cy - k * my, 0, 0, 1);
    return S * H;
}

cv::Point2f apply(const cv::Matx33d &H, cv::Point2f p)
{
    cv::Vec3d v = H * cv::Vec3d(p.x, p.y, 1);
    return cv::Point2f((float)(v[0] / v[2]), (float)(v[1] / v[2]));
}

/* The affine map from a card's art pixels to table pixels. */
cv::Matx23d card_affine(const fw_sim_card &c, cv::Size art, double card_h)
{
    double s = card_h / art.height;
    double a = c.angle * CV_PI / 180, ca = std::cos(a) * s,
           sa = std::sin(a) * s;
    double ax = art.width * 0.5, ay = art.height * 0.5;
    /* rotate clockwise on screen (y down) about the art's centre */
    return cv::Matx23d(ca, -sa, c.x - (ca * ax - sa * ay), sa, ca,
                       c.y - (sa * ax + ca * ay));
}

/* ---- compositing ----------------------------------------------------------- */

/* Blend warped BGRA art into dst (BGR) inside the art's bounding box. */
static void paste(cv::Mat &dst, const cv::Mat &art, const cv::Matx23d &A,
                  cv::Mat *label, int id, const cv::Mat *shade_only)
{
    cv::Point2f q[4] = {{0, 0},
                        {(float)art.cols, 0},
                        {(float)art.cols, (float)art.rows},
                        {0, (float)art.rows}};
    float x0 = 1e9f, y0 = 1e9f, x1 = -1e9f, y1 = -1e9f;
    for (cv::Point2f &p : q) {
        cv::Point2f t((float)(A(0, 0) * p.x + A(0, 1) * p.y + A(0, 2)),
                      (float)(A(1, 0) * p.x + A(1, 1) * p.y + A(1, 2)));
        p = t;
        x0 = std::min(x0, t.x);
        y0 = std::min(y0, t.y);
        x1 = std::max(x1, t.x);
        y1 = std::max(y1, t.y);
    }
    cv::Rect box((int)std::floor(x0) - 1, (int)std::floor(y0) - 1,
                 (int)std::ceil(x1 - x0) + 3, (int)std::ceil(y1 - y0) + 3);
    box &= cv::Rect(0, 0, dst.cols, dst.rows);
    if (box.area() <= 0)
        return;
    cv::Matx23d B = A;
    B(0, 2) -= box.x;
    B(1, 2) -= box.y;
    cv::Mat w;
    cv::warpAffine(art, w, cv::Mat(B), box.size(), cv::INTER_LINEAR,
                   cv::BORDER_CONSTANT, cv::Scalar(0, 0, 0, 0));
    cv::Mat roi = dst(box);
    for (int y = 0; y < box.height; y++) {
        const cv::Vec4b *s = w.ptr<cv::Vec4b>(y);
        cv::Vec3b *d = roi.ptr<cv::Vec3b>(y);
        uchar *l = label ? label->ptr<uchar>(box.y + y) + box.x : nullptr;
        for (int x = 0; x < box.width; x++) {
            int a = s[x][3];
            if (!a)
                continue;
            for (int k = 0; k < 3; k++)
                d[x][k] = (uchar)((d[x][k] * (255 - a) + s[x][k] * a + 127) /
                                  255);
            if (l && a > 127)
                l[x] = (uchar)id;
        }
    }
    (void)shade_only;
}

/* Darken dst under a blurred, shifted copy of the art's alpha. */
static void shadow(cv::Mat &dst, const cv::Mat &art, const cv::Matx23d &A,
                   double lift, cv::Point2f dir)
{
    double off = 1.5 + 5 * lift, sig = 1.2 + 4 * lift;
    double k = 0.22 + 0.3 * lift;
    cv::Matx23d B = A;
    B(0, 2) += dir.x * off;
    B(1, 2) += dir.y * off;
    float x0 = 1e9f, y0 = 1e9f, x1 = -1e9f, y1 = -1e9f;
    for (cv::Point2f p : {cv::Point2f(0, 0), cv::Point2f((float)art.cols, 0),
                          cv::Point2f((float)art.cols, (float)art.rows),
                          cv::Point2f(0, (float)art.rows)}) {
        float tx = (float)(B(0, 0) * p.x + B(0, 1) * p.y + B(0, 2));
        float ty = (float)(B(1, 0) * p.x + B(1, 1) * p.y + B(1, 2));
        x0 = std::min(x0, tx);
        y0 = std::min(y0, ty);
        x1 = std::max(x1, tx);
        y1 = std::max(y1, ty);
    }
    int pad = (int)(3 * sig) + 2;
    cv::Rect box((int)x0 - pad, (int)y0 - pad, (int)(x1 - x0) + 2 * pad,
                 (int)(y1 - y0) + 2 * pad);
    box &= cv::Rect(0, 0, dst.cols, dst.rows);
    if (box.area() <= 0)
        return;
    B(0, 2) -= box.x;
    B(1, 2) -= box.y;
    std::vector<cv::Mat> ch;
    cv::split(art, ch);
    cv::Mat a;
    cv::warpAffine(ch[3], a, cv::Mat(B), box.size(), cv::INTER_LINEAR,
                   cv::BORDER_CONSTANT, 0);
    cv::GaussianBlur(a, a, cv::Size(0, 0), sig);
    cv::Mat roi = dst(box);
    for (int y = 0; y < box.height; y++) {
        const uchar *s = a.ptr<uchar>(y);
        cv::Vec3b *d = roi.ptr<cv::Vec3b>(y);
        for (int x = 0; x < box.width; x++) {
            if (!s[x])
                continue;
            double g = 1 - k * s[x] / 255.0;
            for (int c = 0; c < 3; c++)
                d[x][c] = (uchar)(d[x][c] * g);
        }
    }
}

/* An ellipse cover (a hand, a chip) with a soft shadow and some shading. */
static void draw_cover(cv::Mat &dst, cv::Mat &label, const fw_sim_cover &c,
                       cv::Point2f dir)
{
    cv::Size2f ax(std::max(1.f, c.rx), std::max(1.f, c.ry));
    cv::Mat sh = cv::Mat::zeros(dst.size(), CV_8U);
    cv::ellipse(sh, cv::RotatedRect(cv::Point2f(c.x + dir.x * 6, c.y + dir.y * 6),
                                    ax * 2.f, c.angle),
                255, cv::FILLED, cv::LINE_AA);
    cv::GaussianBlur(sh, sh, cv::Size(0, 0), 5);
    for (int y = 0; y < dst.rows; y++) {
        const uchar *s = sh.ptr<uchar>(y);
        cv::Vec3b *d = dst.ptr<cv::Vec3b>(y);
        for (int x = 0; x < dst.cols; x++)
            if (s[x])
                for (int k = 0; k < 3; k++)
                    d[x][k] = (uchar)(d[x][k] * (1 - 0.35 * s[x] / 255.0));
    }
    cv::RotatedRect rr(cv::Point2f(c.x, c.y), ax * 2.f, c.angle);
    cv::ellipse(dst, rr, cv::Scalar(c.b, c.g, c.r), cv::FILLED, cv::LINE_AA);
    cv::ellipse(label, rr, 255, cv::FILLED, cv::LINE_8);
    /* a lighter band: the cover is round, not flat */
    cv::RotatedRect hi(cv::Point2f(c.x - dir.x * c.rx * 0.3f,
                                   c.y - dir.y * c.ry * 0.3f),
                       ax * 1.1f, c.angle);
    cv::Mat lay = dst.clone();
    cv::ellipse(lay, hi,
                cv::Scalar(std::min(255, c.b + 30), std::min(255, c.g + 30),
                           std::min(255, c.r + 30)),
                cv::FILLED, cv::LINE_AA);
    cv::Mat m = cv::Mat::zeros(dst.size(), CV_8U);
    cv::ellipse(m, rr, 255, cv::FILLED);
    lay.copyTo(dst, m);
}

} // namespace fwsim

using namespace fwsim;

/* ---- the C API ------------------------------------------------------------- */

static std::string default_cache()
{
    const char *e = std::getenv("FW_CARD_CACHE");
    if (e && *e)
        return e;
    e = std::getenv("XDG_CACHE_HOME");
    if (e && *e)
        return std::string(e) + "/feltwatch/cards";
    e = std::getenv("HOME");
    return std::string(e && *e ? e : "/tmp") + "/.cache/feltwatch/cards";
}

extern "C" int fw_sim_new(const char *cache_dir, fw_sim **out)
{
    if (!out)
        return fw_set_error(FW_EINVAL, "fw_sim_new: out is NULL");
    *out = nullptr;
    FW_SIM_TRY("fw_sim_new", {
        fw_sim *s = new fw_sim;
        s->cache = cache_dir && *cache_dir ? cache_dir : default_cache();
        *out = s;
        return FW_OK;
    });
}

extern "C" void fw_sim_free(fw_sim *sim) { delete sim; }

extern "C" int fw_sim_deck_count(void) { return fw__deck_count(); }

extern "C" const char *fw_sim_deck_name(int i)
{
    const fw_deck_info *d = fw__deck_get(i);
    return d ? d->name : nullptr;
}

extern "C" int fw_sim_deck_find(const char *name)
{
    for (int i = 0; name && i < fw__deck_count(); i++)
        if (std::strcmp(fw__deck_get(i)->name, name) == 0)
            return i;
    return -1;
}

extern "C" int fw_sim_deck_installed(int i)
{
    return fw__deck_installed(fw__deck_get(i));
}

extern "C" int fw_sim_deck_held_out(int i)
{
    return fw__deck_held_out(fw__deck_get(i));
}

extern "C" int fw_sim_deck_court_index(int i)
{
    const fw_deck_info *d = fw__deck_get(i);
    return d ? d->court_index : 0;
}

/* Copy a BGR matrix into a malloc'd fw_image (freed by
 * fw_vision_image_free). */
static int to_image(const cv::Mat &m, fw_image *out)
{
    size_t bytes = (size_t)m.cols * m.rows * 3;
    out->bgr = static_cast<uint8_t *>(std::malloc(bytes));
    if (!out->bgr)
        return fw_set_error(FW_ENOMEM, "sim: out of memory");
    for (int y = 0; y < m.rows; y++)
        std::memcpy(out->bgr + (size_t)y * m.cols * 3, m.ptr(y),
                    (size_t)m.cols * 3);
    out->width = m.cols;
    out->height = m.rows;
    out->stride = m.cols * 3;
    return FW_OK;
}

extern "C" int fw_sim_card_image(fw_sim *sim, int deck, int card, int height,
                                 const uint8_t bgr[3], fw_image *out)
{
    if (!sim || !out || !bgr || card < 0 || card > 52 || height < 8 ||
        height > 4096)
        return fw_set_error(FW_EINVAL, "fw_sim_card_image: bad arguments");
    std::memset(out, 0, sizeof *out);
    FW_SIM_TRY("fw_sim_card_image", {
        const cv::Mat &art = deck_art(sim, deck)[card];
        cv::Mat a;
        double s = (double)height / art.rows;
        cv::resize(art, a, cv::Size(), s, s,
                   s < 1 ? cv::INTER_AREA : cv::INTER_CUBIC);
        cv::Mat dst(a.size(), CV_8UC3, cv::Scalar(bgr[0], bgr[1], bgr[2]));
        for (int y = 0; y < a.rows; y++) {
            const cv::Vec4b *p = a.ptr<cv::Vec4b>(y);
            cv::Vec3b *d = dst.ptr<cv::Vec3b>(y);
            for (int x = 0; x < a.cols; x++)
                for (int k = 0; k < 3; k++)
                    d[x][k] = (uchar)((d[x][k] * (255 - p[x][3]) +
                                       p[x][k] * p[x][3] + 127) /
                                      255);
        }
        return to_image(dst, out);
    });
}

extern "C" int fw_sim_render(fw_sim *sim, const fw_sim_scene *s,
                             fw_image *out, fw_sim_truth *truth)
{
    if (!sim || !s || !out || s->width < 16 || s->height < 16 ||
        (int64_t)s->width * s->height > 64000000 || s->ncards < 0 ||
        s->ncards > FW_SIM_MAX_CARDS || s->ncovers < 0 ||
        s->ncovers > FW_SIM_MAX_COVERS || s->table < 0 ||
        s->table >= FW_SIM_TABLES || s->card_height < 4)
        return fw_set_error(FW_EINVAL, "fw_sim_render: bad scene");
    std::memset(out, 0, sizeof *out);
    if (truth)
        std::memset(truth, 0, sizeof *truth);
    for (int i = 0; i < s->ncards; i++)
        if (s->cards[i].card >= 52)
            return fw_set_error(FW_EINVAL, "fw_sim_render: card %d is %d", i,
                                s->cards[i].card);
    FW_SIM_TRY("fw_sim_render", {
        const std::vector<cv::Mat> &art = deck_art(sim, s->deck);
        cv::Matx33d H = camera(*s);
        /* the canvas: the output's table pixels plus a margin that the
         * tilted camera may see beyond the frame */
        int m = s->tilt > 0.5f ? (int)(0.35 * std::max(s->width, s->height))
                               : 8;
        cv::Size csz(s->width + 2 * m, s->height + 2 * m);
        if (sim->bg.empty() || sim->bg_table != s->table ||
            sim->bg_seed != s->seed || sim->bg.size() != csz) {
            sim->bg = make_table(s->table, s->seed, csz);
            sim->bg_table = s->table;
            sim->bg_seed = s->seed;
        }
        cv::Mat canvas = sim->bg.clone();
        cv::Mat label = cv::Mat::zeros(csz, CV_8U);
        Rng r(s->seed * 31ull + 5);
        double la = r.uni(0, 2 * CV_PI);
        cv::Point2f ldir((float)std::cos(la), (float)std::sin(la));
        std::vector<cv::Matx23d> aff(s->ncards);
        for (int i = 0; i < s->ncards; i++) {
            const fw_sim_card &c = s->cards[i];
            const cv::Mat &a = art[c.face_up ? c.card : FW_DECK_BACK];
            fw_sim_card cc = c;
            cc.x += (float)m;
            cc.y += (float)m;
            aff[i] = card_affine(cc, a.size(), s->card_height);
            shadow(canvas, a, aff[i], std::min(1.f, std::max(0.f, c.lift)),
                   ldir);
            paste(canvas, a, aff[i], &label, i + 1, nullptr);
        }
        for (int i = 0; i < s->ncovers; i++) {
            fw_sim_cover c = s->covers[i];
            c.x += (float)m;
            c.y += (float)m;
            draw_cover(canvas, label, c, ldir);
        }
        /* the camera: canvas -> output */
        cv::Matx33d T(1, 0, -m, 0, 1, -m, 0, 0, 1);
        cv::Matx33d HC = H * T;
        cv::Mat img, lab;
        cv::warpPerspective(canvas, img, cv::Mat(HC),
                            cv::Size(s->width, s->height), cv::INTER_LINEAR,
                            cv::BORDER_REPLICATE);
        cv::warpPerspective(label, lab, cv::Mat(HC),
                            cv::Size(s->width, s->height), cv::INTER_NEAREST,
                            cv::BORDER_CONSTANT, 0);
        /* light: a gradient, a vignette and a colour cast; then glare */
        cv::Mat f;
        img.convertTo(f, CV_32FC3);
        if (s->light > 0 || s->glare > 0) {
            double gd = r.uni(0, 2 * CV_PI), gx = std::cos(gd),
                   gy = std::sin(gd);
            double diag = std::hypot(s->width, s->height);
            cv::Vec3f cast((float)r.uni(0.92, 1.08), 1.f,
                           (float)r.uni(0.92, 1.08));
            int nglare = s->glare > 0 ? r.range(1, 2) : 0;
            double gcx[2], gcy[2], gsx[2], gsy[2];
            for (int g = 0; g < nglare; g++) {
                gcx[g] = r.uni(0.15, 0.85) * s->width;
                gcy[g] = r.uni(0.15, 0.85) * s->height;
                gsx[g] = r.uni(0.04, 0.14) * diag;
                gsy[g] = gsx[g] * r.uni(0.5, 1.5);
            }
            double L = std::min(1.f, std::max(0.f, s->light));
            for (int y = 0; y < f.rows; y++) {
                cv::Vec3f *p = f.ptr<cv::Vec3f>(y);
                for (int x = 0; x < f.cols; x++) {
                    double u = ((x - s->width / 2.0) * gx +
                                (y - s->height / 2.0) * gy) / diag + 0.5;
                    double rx = (x - s->width / 2.0) / (s->width / 2.0);
                    double ry = (y - s->height / 2.0) / (s->height / 2.0);
                    double gain = 1 - L * (0.55 * u + 0.3 * 0.5 *
                                                          (rx * rx + ry * ry));
                    cv::Vec3f v = p[x] * (float)gain;
                    v = cv::Vec3f(v[0] * cast[0], v[1] * cast[1],
                                  v[2] * cast[2]) * (float)(1 - 0.1 * L) +
                        v * (float)(0.1 * L);
                    double add = 0;
                    for (int g = 0; g < nglare; g++) {
                        double dx = (x - gcx[g]) / gsx[g],
                               dy = (y - gcy[g]) / gsy[g];
                        add += std::exp(-0.5 * (dx * dx + dy * dy));
                    }
                    if (add > 1e-3) {
                        float a = (float)std::min(1.0, add * s->glare * 0.85);
                        v = v * (1 - a) + cv::Vec3f(255, 255, 255) * a;
                    }
                    p[x] = v;
                }
            }
        }
        if (s->blur > 0.05f)
            cv::GaussianBlur(f, f, cv::Size(0, 0), s->blur);
        if (s->noise > 0.05f) {
            /* grey noise plus a little colour noise */
            cv::Mat g = gauss_noise(r, f.size(), s->noise);
            cv::Mat c3(f.size(), CV_32FC3);
            cv::RNG cr(r.next() | 1);
            cr.fill(c3, cv::RNG::NORMAL, 0, s->noise * 0.3);
            cv::Mat g3;
            cv::merge(std::vector<cv::Mat>{g, g, g}, g3);
            f += g3 + c3;
        }
        f.convertTo(img, CV_8UC3);
        if (s->jpeg_quality > 0) {
            std::vector<uchar> buf;
            cv::imencode(".jpg", img, buf,
                         {cv::IMWRITE_JPEG_QUALITY,
                          std::min(100, std::max(1, s->jpeg_quality))});
            img = cv::imdecode(buf, cv::IMREAD_COLOR);
        }
        if (truth) {
            std::vector<int> seen(256, 0);
            for (int y = 0; y < lab.rows; y++) {
                const uchar *p = lab.ptr<uchar>(y);
                for (int x = 0; x < lab.cols; x++)
                    seen[p[x]]++;
            }
            truth->ncards = s->ncards;
            for (int i = 0; i < s->ncards; i++) {
                const fw_sim_card &c = s->cards[i];
                const cv::Mat &a = art[c.face_up ? c.card : FW_DECK_BACK];
                fw_sim_truth_card &t = truth->cards[i];
                t.card = c.card;
                t.face_up = c.face_up;
                cv::Point2f q[4] = {{0, 0},
                                    {(float)a.cols, 0},
                                    {(float)a.cols, (float)a.rows},
                                    {0, (float)a.rows}};
                std::vector<cv::Point2f> poly;
                auto to_out = [&](cv::Point2f p) {
                    const cv::Matx23d &A = aff[i];
                    cv::Point2f tp(
                        (float)(A(0, 0) * p.x + A(0, 1) * p.y + A(0, 2)),
                        (float)(A(1, 0) * p.x + A(1, 1) * p.y + A(1, 2)));
                    return apply(HC, tp);
                };
                for (int k = 0; k < 4; k++) {
                    cv::Point2f o = to_out(q[k]);
                    t.corners[k][0] = o.x;
                    t.corners[k][1] = o.y;
                    poly.push_back(o);
                }
                double area = cv::contourArea(poly);
                t.visible = area > 1 ? (float)std::min(1.0, seen[i + 1] / area)
                                     : 0.f;
                /* index corners: the top-left box and its turned twin */
                int whole = 0;
                for (int corner = 0; corner < 2 && !whole; corner++) {
                    int ok = 0, tot = 0;
                    for (int gy = 0; gy < 6; gy++)
                        for (int gx = 0; gx < 4; gx++) {
                            double u = 0.03 + 0.17 * gx / 3.0;
                            double v = 0.03 + 0.27 * gy / 5.0;
                            if (corner) {
                                u = 1 - u;
                                v = 1 - v;
                            }
                            cv::Point2f o = to_out(cv::Point2f(
                                (float)(u * a.cols), (float)(v * a.rows)));
                            int xi = (int)std::lround(o.x),
                                yi = (int)std::lround(o.y);
                            tot++;
                            if (xi >= 0 && yi >= 0 && xi < lab.cols &&
                                yi < lab.rows &&
                                lab.at<uchar>(yi, xi) == i + 1)
                                ok++;
                        }
                    whole = ok == tot;
                }
                t.index_visible = whole;
            }
        }
        return to_image(img, out);
    });
}

extern "C" int fw_sim_random_scene(uint32_t seed,
                                   const fw_sim_random_opts *o,
                                   fw_sim_scene *s)
{
    if (!s)
        return fw_set_error(FW_EINVAL, "fw_sim_random_scene: scene is NULL");
    std::memset(s, 0, sizeof *s);
    fw_sim_random_opts d;
    std::memset(&d, 0, sizeof d);
    d.held_out = -1;
    d.table = -1;
    d.any_deck = 1;
    if (o)
        d = *o;
    Rng r(seed * 0x2545F4914F6CDD1Dull + 99);
    s->width = d.width > 0 ? d.width : 1280;
    s->height = d.height > 0 ? d.height : 720;
    if (s->width < 16 || s->height < 16 || s->width > 8000 ||
        s->height > 8000)
        return fw_set_error(FW_EINVAL, "fw_sim_random_scene: bad size");
    if (d.any_deck) {
        std::vector<int> ok;
        for (int i = 0; i < fw__deck_count(); i++) {
            const fw_deck_info *di = fw__deck_get(i);
            if (!fw__deck_installed(di))
                continue;
            if (d.held_out >= 0 && fw__deck_held_out(di) != d.held_out)
                continue;
            ok.push_back(i);
        }
        if (ok.empty())
            return fw_set_error(FW_ENOENT, "no fitting card deck installed");
        s->deck = ok[(size_t)r.range(0, (int)ok.size() - 1)];
    } else {
        if (d.deck < 0 || d.deck >= fw__deck_count())
            return fw_set_error(FW_EINVAL, "no deck %d", d.deck);
        s->deck = d.deck;
    }
    s->seed = (uint32_t)r.next();
    s->table = d.table >= 0 && d.table < FW_SIM_TABLES
                   ? d.table
                   : r.range(0, FW_SIM_DRAWN - 1);
    int lo = d.min_cards > 0 ? d.min_cards : 1;
    int hi = d.max_cards > 0 ? d.max_cards : 15;
    hi = std::min(hi, FW_SIM_MAX_CARDS);
    lo = std::min(lo, hi);
    int n = r.range(lo, hi);
    bool hard = d.hard != 0;
    double W = s->width, Hh = s->height, short_side = std::min(W, Hh);
    double ch = short_side * r.uni(0.17, 0.3);
    /* many cards need smaller cards to fit */
    double fill = n * ch * ch * 0.72 / (W * Hh);
    if (fill > 0.28)
        ch *= std::sqrt(0.28 / fill);
    ch = std::max(ch, 24.0);
    if (d.card_height_min > 0 || d.card_height_max > 0) {
        /* a height asked for is kept: cards that do not fit are left out
         * by the placing below. The default's draw above still happens
         * first, so scenes without the option are what they always were. */
        double lo_h = d.card_height_min > 0 ? d.card_height_min
                                            : d.card_height_max;
        double hi_h = std::max(lo_h, (double)d.card_height_max);
        if (!(lo_h >= 8 && hi_h <= short_side))
            return fw_set_error(FW_EINVAL,
                                "fw_sim_random_scene: card height %g-%g",
                                lo_h, hi_h);
        ch = r.uni(lo_h, hi_h + 1e-9);
    }
    s->card_height = (float)ch;
    double cw = ch * 0.7;
    /* deal distinct cards */
    int deckcards[52];
    for (int i = 0; i < 52; i++)
        deckcards[i] = i;
    for (int i = 51; i > 0; i--)
        std::swap(deckcards[i], deckcards[r.range(0, i)]);
    int dealt = 0;
    std::vector<cv::RotatedRect> used;
    auto clash = [&](double x, double y, double ang, double pad) {
        cv::RotatedRect rr(cv::Point2f((float)x, (float)y),
                           cv::Size2f((float)(cw + pad), (float)(ch + pad)),
                           (float)ang);
        for (const cv::RotatedRect &u : used) {
            std::vector<cv::Point2f> ip;
            if (cv::rotatedRectangleIntersection(rr, u, ip) !=
                cv::INTERSECT_NONE)
                return true;
        }
        return false;
    };
    auto add = [&](double x, double y, double ang, int up, double lift) {
        if (s->ncards >= FW_SIM_MAX_CARDS || dealt >= 52)
            return;
        fw_sim_card &c = s->cards[s->ncards++];
        c.card = (fw_card)deckcards[dealt++];
        c.face_up = up;
        c.x = (float)x;
        c.y = (float)y;
        c.angle = (float)ang;
        c.lift = (float)lift;
    };
    double margin = 0.55 * ch;
    int placed = 0;
    for (int tries = 0; placed < n && tries < 400; tries++) {
        double x = r.uni(margin, W - margin), y = r.uni(margin, Hh - margin);
        double ang = r.uni(-180, 180);
        if (r.uni() < 0.3)
            ang = r.uni(-12, 12) + 90 * r.range(0, 3);
        int kind = r.range(0, 9); /* 0-1 fanned pair, 2 overlap, else single */
        if (kind <= 1 && placed + 2 <= n) {
            /* a fanned pair: hole cards face down, or a shown hand */
            int up = r.uni() < 0.35;
            double fan = r.uni(4, 18) * (r.uni() < 0.5 ? -1 : 1);
            double off = cw * r.uni(0.18, 0.45);
            double a = ang * CV_PI / 180;
            double dx = std::cos(a) * off, dy = std::sin(a) * off;
            if (clash(x, y, ang, cw * 0.9))
                continue;
            cv::RotatedRect rr(cv::Point2f((float)(x + dx / 2), (float)y),
                               cv::Size2f((float)(cw * 1.5), (float)ch),
                               (float)ang);
            used.push_back(rr);
            add(x, y, ang, up, r.uni(0, 0.5));
            add(x + dx, y + dy, ang + fan, up, r.uni(0.2, 0.8));
            placed += 2;
        } else if (kind == 2 && hard && placed + 2 <= n) {
            /* two cards overlapping at random, the lower index showing */
            if (clash(x, y, ang, cw * 0.9))
                continue;
            used.push_back(cv::RotatedRect(cv::Point2f((float)x, (float)y),
                                           cv::Size2f((float)(cw * 1.8),
                                                      (float)(ch * 1.4)),
                                           (float)ang));
            add(x, y, ang, r.uni() < 0.7, r.uni(0, 0.5));
            double a = r.uni(0, 2 * CV_PI), dd = cw * r.uni(0.45, 0.8);
            add(x + std::cos(a) * dd, y + std::sin(a) * dd * 0.8,
                ang + r.uni(-40, 40), r.uni() < 0.7, r.uni(0.2, 0.8));
            placed += 2;
        } else {
            double pad = hard && r.uni() < 0.3 ? -cw * 0.05 : cw * 0.08;
            if (clash(x, y, ang, pad))
                continue;
            used.push_back(cv::RotatedRect(
                cv::Point2f((float)x, (float)y),
                cv::Size2f((float)cw, (float)ch), (float)ang));
            add(x, y, ang, r.uni() < 0.7, r.uni(0, 0.6));
            placed++;
        }
    }
    if (hard) {
        s->tilt = (float)r.uni(0, 30);
        s->tilt_dir = (float)r.uni(0, 360);
        s->light = (float)r.uni(0, 1);
        s->glare = r.uni() < 0.5 ? (float)r.uni(0.2, 0.9) : 0.f;
        s->blur = (float)r.uni(0, 1.4);
        s->noise = (float)r.uni(0, 6);
        s->jpeg_quality = r.uni() < 0.5 ? r.range(55, 95) : 0;
        if (r.uni() < 0.3 && s->ncards > 0) {
            int nc = r.range(1, 2);
            for (int i = 0; i < nc; i++) {
                const fw_sim_card &c = s->cards[r.range(0, s->ncards - 1)];
                fw_sim_cover &cv_ = s->covers[s->ncovers++];
                double a = r.uni(0, 2 * CV_PI), dd = ch * r.uni(0.3, 0.6);
                cv_.x = (float)(c.x + std::cos(a) * dd);
                cv_.y = (float)(c.y + std::sin(a) * dd);
                cv_.rx = (float)(ch * r.uni(0.2, 0.45));
                cv_.ry = (float)(cv_.rx * r.uni(0.4, 1.0));
                cv_.angle = (float)r.uni(0, 180);
                if (r.uni() < 0.5) { /* skin */
                    cv_.b = (uint8_t)r.range(60, 150);
                    cv_.g = (uint8_t)(cv_.b + r.range(20, 40));
                    cv_.r = (uint8_t)std::min(255, cv_.g + r.range(30, 60));
                } else { /* a chip */
                    cv_.b = (uint8_t)r.range(0, 255);
                    cv_.g = (uint8_t)r.range(0, 255);
                    cv_.r = (uint8_t)r.range(0, 255);
                    cv_.ry = cv_.rx;
                }
            }
        }
    } else {
        s->tilt = (float)r.uni(0, 10);
        s->tilt_dir = (float)r.uni(0, 360);
        s->light = (float)r.uni(0, 0.4);
        s->blur = (float)r.uni(0, 0.6);
        s->noise = (float)r.uni(0, 3);
    }
    return FW_OK;
}
