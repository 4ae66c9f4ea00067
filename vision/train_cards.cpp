/*
 * train_cards.cpp - trains the corner-index reader (read.h) on renders of
 * the Debian card decks and writes models/cards_mlp.fwm.
 *
 * usage: train_cards OUT.fwm [--cache DIR] [--augs N] [--epochs N]
 *                    [--seed N] [--dump DIR] [--eval]
 *
 * Only decks of the training families are used (sim.h: fw_sim_deck_held_out
 * is 0). Each card of each deck is rendered --augs times alone on a random
 * table through the simulator (half 45-130 px tall, half 60-320; any
 * angle, camera tilt, light, glare, blur, noise, JPEG), sometimes with a
 * second card over one index corner; its true corners are disturbed as a
 * detector would, and both index corners are cut by the same
 * index_features() the detector uses.
 * Backs and covered corners are "junk". Each time a sample is trained on,
 * its glyph is most often distorted afresh (distort_glyph: as another
 * typeface would draw it). The held-out decks are rendered the same way
 * afterwards and only measured. Deterministic for a seed.
 * --eval trains nothing: it measures the model already in OUT on the
 * held-out decks (with --dump, DIR/held_out_misread.png shows the corners
 * it reads wrong, truth>reading as rank/suit numbers).
 */
#include "read.h"
#include "fw_parse.h"
#include "sim.h"
#include "sim_int.h"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

struct Sample {
    std::vector<float> x;
    int y;
};

struct Set {
    std::vector<Sample> rank, suit;
    long cards = 0;
};

/* Where patches go for --dump: every corner's (up to a cap) when training,
 * or, when judge is set, only the corners judge reads wrong. */
struct Dump {
    std::vector<cv::Mat> patches;
    const fwv::CardModel *judge = nullptr;
};

/* Render one card (and maybe a second over its top-left index) and add its
 * two corners' samples. */
void sample_card(fw_sim *sim, fwsim::Rng &r, int deck, int card, bool up,
                 bool court_ok, Set &set, Dump *dump)
{
    fw_sim_scene s;
    std::memset(&s, 0, sizeof s);
    /* half the renders are small (45-130 px: a kiosk camera sees real
     * cards 47-60 px tall), the rest anywhere in 60-320 px */
    double h = r.uni() < 0.5 ? std::exp(r.uni(std::log(45.0), std::log(130.0)))
                             : std::exp(r.uni(std::log(60.0), std::log(320.0)));
    s.card_height = (float)h;
    s.width = s.height = (int)(h * 1.9) + 8;
    s.deck = deck;
    s.table = r.range(0, FW_SIM_TABLES - 1);
    s.seed = (uint32_t)r.next();
    s.tilt = (float)r.uni(0, 30);
    s.tilt_dir = (float)r.uni(0, 360);
    s.light = (float)r.uni(0, 0.8);
    s.glare = r.uni() < 0.3 ? (float)r.uni(0.1, 0.7) : 0.f;
    s.blur = (float)(r.uni(0, 1.0) * std::min(1.5, h / 120));
    s.noise = (float)r.uni(0, 6);
    s.jpeg_quality = r.uni() < 0.5 ? r.range(50, 95) : 0;
    s.ncards = 1;
    fw_sim_card &c = s.cards[0];
    c.card = (fw_card)(card == 52 ? 0 : card);
    c.face_up = up;
    c.x = s.width * 0.5f;
    c.y = s.height * 0.5f;
    c.angle = (float)r.uni(-180, 180);
    c.lift = (float)r.uni(0, 0.6);
    bool cover = r.uni() < 0.2;
    if (cover) {
        /* a card over the top-left index corner */
        fw_sim_card &o = s.cards[s.ncards++];
        o.card = (fw_card)r.range(0, 51);
        o.face_up = r.uni() < 0.5;
        double a = c.angle * CV_PI / 180;
        /* the top-left corner of the upright card, turned */
        double lx = -0.35 * h * 0.7, ly = -0.38 * h;
        o.x = (float)(c.x + lx * std::cos(a) - ly * std::sin(a));
        o.y = (float)(c.y + lx * std::sin(a) + ly * std::cos(a));
        o.angle = (float)(c.angle + r.uni(-50, 50));
        o.lift = 0.5f;
    }
    fw_image img = {};
    fw_sim_truth t;
    if (fw_sim_render(sim, &s, &img, &t) != FW_OK)
        throw std::runtime_error(fw_last_error());
    cv::Mat m(img.height, img.width, CV_8UC3, img.bgr, (size_t)img.stride);
    cv::Point2f q[4];
    double jit = r.uni(0.004, 0.016) * h;
    cv::Point2f shift((float)(r.gauss() * 0.006 * h),
                      (float)(r.gauss() * 0.006 * h));
    for (int k = 0; k < 4; k++)
        q[k] = cv::Point2f(t.cards[0].corners[k][0], t.cards[0].corners[k][1]) +
               shift +
               cv::Point2f((float)(r.gauss() * jit), (float)(r.gauss() * jit));
    /* which index corners the second card covers */
    bool covered[2] = {false, false};
    if (cover && s.ncards > 1) {
        std::vector<cv::Point2f> poly;
        for (int k = 0; k < 4; k++)
            poly.emplace_back(t.cards[1].corners[k][0],
                              t.cards[1].corners[k][1]);
        cv::Point2f T[4];
        for (int k = 0; k < 4; k++)
            T[k] = cv::Point2f(t.cards[0].corners[k][0],
                               t.cards[0].corners[k][1]);
        for (int corner = 0; corner < 2; corner++) {
            int in = 0;
            for (double u : {0.04, 0.18})
                for (double v : {0.04, 0.28}) {
                    double uu = corner ? 1 - u : u, vv = corner ? 1 - v : v;
                    cv::Point2f p = T[0] + (T[1] - T[0]) * (float)uu +
                                    (T[3] - T[0]) * (float)vv;
                    in += cv::pointPolygonTest(poly, p, false) > 0;
                }
            covered[corner] = in >= 2;
        }
    }
    fwv::ReadScratch rs;
    fwv::IndexFeat fs[2];
    cv::Mat dbgs[2];
    for (int corner = 0; corner < 2; corner++)
        fwv::index_features(m, q, corner * 2, rs, fs[corner],
                            dump && dump->patches.size() < 400 ? &dbgs[corner]
                                                               : nullptr);
    /* some decks print the second index upright rather than turned (or
     * not at all): read that way it is not the rank, so it is left out
     * when its glyph does not match the first corner's */
    bool second_ok = true;
    if (up && fs[0].ok && fs[1].ok && !covered[0] && !covered[1]) {
        double sa = 0, sb = 0, sab = 0, ma = 0, mb = 0;
        const int n = fwv::RW * fwv::RH;
        for (int i = 0; i < n; i++) {
            ma += fs[0].rank[i];
            mb += fs[1].rank[i];
        }
        ma /= n;
        mb /= n;
        for (int i = 0; i < n; i++) {
            double a = fs[0].rank[i] - ma, b = fs[1].rank[i] - mb;
            sa += a * a;
            sb += b * b;
            sab += a * b;
        }
        second_ok = sab / std::sqrt(sa * sb + 1e-9) > 0.55;
    }
    for (int corner = 0; corner < 2; corner++) {
        fwv::IndexFeat &f = fs[corner];
        cv::Mat &dbg = dbgs[corner];
        if (!f.ok || (corner == 1 && up && !second_ok))
            continue;
        bool junk = !up || covered[corner];
        int rank = junk ? fwv::JUNK_RANK : fw_card_rank(card);
        int suit = junk ? fwv::JUNK_SUIT : fw_card_suit(card);
        if (!junk && (rank < 9 || rank == 12 || court_ok))
            set.rank.push_back({std::vector<float>(f.rank, f.rank + fwv::RANK_IN),
                                rank});
        else if (junk)
            set.rank.push_back({std::vector<float>(f.rank, f.rank + fwv::RANK_IN),
                                rank});
        set.suit.push_back({std::vector<float>(f.suit, f.suit + fwv::SUIT_IN),
                            suit});
        if (!dbg.empty()) {
            char lab[32];
            int rr = rank, rs2 = suit;
            if (dump->judge) {
                std::vector<float> hid(
                    std::max(dump->judge->rank.nh, dump->judge->suit.nh));
                float pr[fwv::RANK_OUT], ps[fwv::SUIT_OUT];
                dump->judge->rank.forward(f.rank, hid.data(), pr);
                dump->judge->suit.forward(f.suit, hid.data(), ps);
                rr = (int)(std::max_element(pr, pr + fwv::RANK_OUT) - pr);
                rs2 = (int)(std::max_element(ps, ps + fwv::SUIT_OUT) - ps);
            }
            if (!dump->judge || rr != rank || rs2 != suit) {
                std::snprintf(lab, sizeof lab, "%d/%d>%d/%d", rank, suit, rr,
                              rs2);
                cv::putText(dbg, lab, cv::Point(2, 12), cv::FONT_HERSHEY_PLAIN,
                            0.9, cv::Scalar(0, 0, 255), 1);
                dump->patches.push_back(dbg);
            }
        }
    }
    set.cards++;
    fw_vision_image_free(&img);
}

Set make_set(fw_sim *sim, bool held_out, int augs, uint64_t seed, Dump *dump)
{
    Set set;
    fwsim::Rng r(seed);
    for (int d = 0; d < fw_sim_deck_count(); d++) {
        if (!fw_sim_deck_installed(d) || fw_sim_deck_held_out(d) != held_out)
            continue;
        bool court = fw_sim_deck_court_index(d) != 0;
        size_t r0 = set.rank.size();
        for (int card = 0; card <= 52; card++)
            for (int a = 0; a < (card == 52 ? augs * 3 : augs); a++)
                sample_card(sim, r, d, card, card != 52, court, set, dump);
        std::fprintf(stderr, "  %-28s %zu rank samples\n", fw_sim_deck_name(d),
                     set.rank.size() - r0);
    }
    return set;
}

/* Distort the gw x gh glyph at the head of x (a copy, into out; the rest
 * of x is copied as is) as another typeface would draw it: a little wider
 * or narrower, taller or shorter, slanted, turned, shifted, with strokes
 * thicker or thinner and ink fainter or stronger. The held-out decks'
 * glyphs differ from the training decks' in just these ways, and a network
 * that has only seen each training typeface exactly learns its pixels
 * rather than its shapes. */
void distort_glyph(const float *x, int nin, int gw, int gh, fwsim::Rng &r,
                   cv::Mat &src, cv::Mat &dst, float *out)
{
    std::copy(x, x + nin, out);
    src = cv::Mat(gh, gw, CV_32F, const_cast<float *>(x)).clone();
    double sx = r.uni(0.82, 1.12), sy = r.uni(0.85, 1.1);
    double sh = r.uni(-0.15, 0.15), a = r.uni(-6, 6) * CV_PI / 180;
    double c = std::cos(a), sn = std::sin(a);
    /* [c -s; s c] * [sx sh; 0 sy] about the glyph's centre */
    double m00 = c * sx, m01 = c * sh - sn * sy, m10 = sn * sx,
           m11 = sn * sh + c * sy;
    double cx = 0.5 * (gw - 1), cy = 0.5 * (gh - 1);
    double tx = r.uni(-1, 1), ty = r.uni(-1, 1);
    cv::Mat M =
        (cv::Mat_<double>(2, 3) << m00, m01, cx - m00 * cx - m01 * cy + tx, m10,
         m11, cy - m10 * cx - m11 * cy + ty);
    cv::warpAffine(src, dst, M, src.size(), cv::INTER_LINEAR,
                   cv::BORDER_CONSTANT, cv::Scalar(0));
    double u = r.uni();
    if (u < 0.25) {
        cv::dilate(dst, src, cv::Mat());
        cv::addWeighted(dst, 0.5, src, 0.5, 0, dst);
    } else if (u < 0.45) {
        cv::erode(dst, src, cv::Mat());
        cv::addWeighted(dst, 0.6, src, 0.4, 0, dst);
    }
    float gain = (float)r.uni(0.75, 1.15);
    for (int y = 0; y < gh; y++)
        for (int xx = 0; xx < gw; xx++)
            out[y * gw + xx] = std::min(1.f, gain * dst.at<float>(y, xx));
    /* the box's aspect (the first number after the glyph) stretches too */
    out[gw * gh] = (float)(x[gw * gh] * sx / sy);
}

/* Mini-batch Adam on softmax cross-entropy; classes weighted so junk
 * does not drown the rest; the step shrinks over the last epochs. Three
 * samples in four are distorted afresh each time they are seen
 * (distort_glyph; the glyph is glyph_w x glyph_h at the head of each
 * sample). */
void train(fwv::Mlp &m, int nin, int nh, int nout, int glyph_w, int glyph_h,
           std::vector<Sample> &data, int epochs, uint64_t seed)
{
    fwsim::Rng r(seed);
    m.nin = nin;
    m.nh = nh;
    m.nout = nout;
    m.w1.resize((size_t)nh * nin);
    m.b1.assign(nh, 0.f);
    m.w2.resize((size_t)nout * nh);
    m.b2.assign(nout, 0.f);
    for (float &w : m.w1)
        w = (float)(r.gauss() * std::sqrt(2.0 / nin));
    for (float &w : m.w2)
        w = (float)(r.gauss() * std::sqrt(1.0 / nh));
    std::vector<double> count(nout, 0);
    for (const Sample &s : data)
        count[s.y]++;
    std::vector<float> cw(nout);
    for (int k = 0; k < nout; k++)
        cw[k] = count[k] > 0 ? (float)std::min(
                                   3.0, (double)data.size() / nout / count[k])
                             : 0.f;
    std::vector<float> *params[4] = {&m.w1, &m.b1, &m.w2, &m.b2};
    std::vector<float> g[4], mo[4], ve[4];
    for (int i = 0; i < 4; i++) {
        g[i].assign(params[i]->size(), 0.f);
        mo[i].assign(params[i]->size(), 0.f);
        ve[i].assign(params[i]->size(), 0.f);
    }
    std::vector<float> h(nh), p(nout), dh(nh), dout(nout), xa(nin);
    cv::Mat gsrc, gdst;
    const int batch = 64;
    std::vector<size_t> order(data.size());
    for (size_t i = 0; i < order.size(); i++)
        order[i] = i;
    long t = 0;
    for (int ep = 0; ep < epochs; ep++) {
        float lr = 1e-3f * (ep < epochs * 0.6 ? 1.f
                            : ep < epochs * 0.85 ? 0.3f
                                                 : 0.1f);
        for (size_t i = order.size(); i > 1; i--)
            std::swap(order[i - 1], order[(size_t)r.range(0, (int)i - 1)]);
        double loss = 0;
        long right = 0;
        for (size_t b0 = 0; b0 < order.size(); b0 += batch) {
            for (int i = 0; i < 4; i++)
                std::fill(g[i].begin(), g[i].end(), 0.f);
            size_t b1 = std::min(order.size(), b0 + batch);
            for (size_t bi = b0; bi < b1; bi++) {
                const Sample &s = data[order[bi]];
                const float *x = s.x.data();
                if (r.uni() < 0.75) {
                    distort_glyph(x, nin, glyph_w, glyph_h, r, gsrc, gdst,
                                  xa.data());
                    x = xa.data();
                }
                m.forward(x, h.data(), p.data());
                loss -= std::log(std::max(1e-9f, p[s.y]));
                right += std::max_element(p.begin(), p.end()) - p.begin() == s.y;
                float w = cw[s.y];
                for (int k = 0; k < nout; k++)
                    dout[k] = (p[k] - (k == s.y ? 1.f : 0.f)) * w;
                std::fill(dh.begin(), dh.end(), 0.f);
                for (int k = 0; k < nout; k++) {
                    g[3][k] += dout[k];
                    float *gw = &g[2][(size_t)k * nh];
                    const float *w2 = &m.w2[(size_t)k * nh];
                    for (int j = 0; j < nh; j++) {
                        gw[j] += dout[k] * h[j];
                        dh[j] += dout[k] * w2[j];
                    }
                }
                for (int j = 0; j < nh; j++) {
                    if (h[j] <= 0)
                        continue;
                    g[1][j] += dh[j];
                    float *gw = &g[0][(size_t)j * nin];
                    for (int i = 0; i < nin; i++)
                        gw[i] += dh[j] * x[i];
                }
            }
            t++;
            float sc = 1.f / (float)(b1 - b0);
            float c1 = 1 - std::pow(0.9f, (float)t),
                  c2 = 1 - std::pow(0.999f, (float)t);
            for (int i = 0; i < 4; i++) {
                std::vector<float> &w = *params[i];
                float decay = (i == 0 || i == 2) ? 1e-4f : 0.f;
                for (size_t k = 0; k < w.size(); k++) {
                    float gk = g[i][k] * sc + decay * w[k];
                    mo[i][k] = 0.9f * mo[i][k] + 0.1f * gk;
                    ve[i][k] = 0.999f * ve[i][k] + 0.001f * gk * gk;
                    w[k] -= lr * (mo[i][k] / c1) /
                            (std::sqrt(ve[i][k] / c2) + 1e-8f);
                }
            }
        }
        std::fprintf(stderr, "    epoch %2d: loss %.4f, train %.2f%%\n", ep + 1,
                     loss / (double)data.size(),
                     100.0 * (double)right / (double)data.size());
    }
}

double accuracy(const fwv::Mlp &m, const std::vector<Sample> &data,
                std::vector<int> *confusion)
{
    std::vector<float> h(m.nh), p(m.nout);
    long right = 0;
    for (const Sample &s : data) {
        m.forward(s.x.data(), h.data(), p.data());
        int k = (int)(std::max_element(p.begin(), p.end()) - p.begin());
        right += k == s.y;
        if (confusion)
            (*confusion)[(size_t)s.y * m.nout + k]++;
    }
    return data.empty() ? 0 : 100.0 * right / (double)data.size();
}

void print_confusion(const char *what, const std::vector<int> &c, int n)
{
    std::printf("%s confusion (rows truth, columns read):\n", what);
    for (int i = 0; i < n; i++) {
        std::printf("  %2d:", i);
        for (int j = 0; j < n; j++)
            std::printf(" %4d", c[(size_t)i * n + j]);
        std::printf("\n");
    }
}

} // namespace

/* A whole decimal number in [lo, hi], or false (bad command-line text). */
static bool whole(const char *s, long lo, long hi, long *out)
{
    return fw_parse_long(s, lo, hi, out) == 0;
}

/* Write the patches side by side, 20 a row, as DIR/NAME. */
static void write_grid(const char *dir, const char *name,
                       const std::vector<cv::Mat> &patches)
{
    if (!dir || patches.empty())
        return;
    int cols = 20, cw = patches[0].cols, chh = patches[0].rows;
    int rows = ((int)patches.size() + cols - 1) / cols;
    cv::Mat g(rows * chh, cols * cw, CV_8UC3, cv::Scalar(0, 0, 0));
    for (size_t i = 0; i < patches.size(); i++)
        patches[i].copyTo(
            g(cv::Rect((int)(i % cols) * cw, (int)(i / cols) * chh, cw, chh)));
    cv::imwrite(std::string(dir) + "/" + name, g);
}

/* Read a model file whole into m; false (with a message) when it cannot. */
static bool load_model(const char *path, fwv::CardModel &m)
{
    std::ifstream f(path, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)),
                               std::istreambuf_iterator<char>());
    try {
        fwv::parse_model(bytes.data(), bytes.size(), m);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "train_cards: %s: %s\n", path, e.what());
        return false;
    }
    return true;
}

/* The held-out accuracy of m on te, with both confusion matrices. */
static void report_held_out(const fwv::CardModel &m, const Set &te)
{
    std::vector<int> cr((size_t)fwv::RANK_OUT * fwv::RANK_OUT),
        cs((size_t)fwv::SUIT_OUT * fwv::SUIT_OUT);
    std::printf("held-out decks: rank %.2f%%, suit %.2f%% of corners "
                "(%zu, %zu)\n",
                accuracy(m.rank, te.rank, &cr), accuracy(m.suit, te.suit, &cs),
                te.rank.size(), te.suit.size());
    print_confusion("held-out rank", cr, fwv::RANK_OUT);
    print_confusion("held-out suit", cs, fwv::SUIT_OUT);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: train_cards OUT.fwm [--cache DIR] "
                             "[--augs N] [--epochs N] [--seed N] "
                             "[--dump DIR] [--eval]\n");
        return 2;
    }
    const char *out = argv[1], *cache = nullptr, *dump_dir = nullptr;
    int augs = 32, epochs = 25;
    uint64_t seed = 1;
    bool eval_only = false;
    for (int i = 2; i < argc; i++) {
        std::string a = argv[i];
        bool more = i + 1 < argc;
        long v = 0;
        if (a == "--cache" && more)
            cache = argv[++i];
        else if (a == "--augs" && more && whole(argv[i + 1], 1, 10000, &v))
            augs = (int)v, i++;
        else if (a == "--epochs" && more && whole(argv[i + 1], 1, 10000, &v))
            epochs = (int)v, i++;
        else if (a == "--seed" && more && whole(argv[i + 1], 0, LONG_MAX, &v))
            seed = (uint64_t)v, i++;
        else if (a == "--dump" && more)
            dump_dir = argv[++i];
        else if (a == "--eval")
            eval_only = true;
        else {
            std::fprintf(stderr, "train_cards: bad or unknown option %s\n",
                         a.c_str());
            return 2;
        }
    }
    auto t0 = std::chrono::steady_clock::now();
    fw_sim *sim = nullptr;
    if (fw_sim_new(cache, &sim) != FW_OK) {
        std::fprintf(stderr, "train_cards: %s\n", fw_last_error());
        return 1;
    }
    try {
        fwv::CardModel m;
        if (eval_only) {
            /* the held-out decks only, read by the model in OUT; --dump
             * writes the corners it reads wrong */
            Dump dump;
            if (!load_model(out, m)) {
                fw_sim_free(sim);
                return 1;
            }
            dump.judge = &m;
            Set te = make_set(sim, true, std::max(2, augs / 3), seed + 7,
                              dump_dir ? &dump : nullptr);
            write_grid(dump_dir, "held_out_misread.png", dump.patches);
            report_held_out(m, te);
            fw_sim_free(sim);
            return 0;
        }
        Dump dump;
        std::fprintf(stderr, "rendering the training decks (%d per card)\n",
                     augs);
        Set tr = make_set(sim, false, augs, seed, dump_dir ? &dump : nullptr);
        write_grid(dump_dir, "patches.png", dump.patches);
        std::fprintf(stderr, "rendering the held-out decks\n");
        Set te = make_set(sim, true, std::max(2, augs / 3), seed + 7, nullptr);
        std::fprintf(stderr, "%zu rank and %zu suit samples from %ld cards\n",
                     tr.rank.size(), tr.suit.size(), tr.cards);
        std::fprintf(stderr, "training the rank network\n");
        train(m.rank, fwv::RANK_IN, 256, fwv::RANK_OUT, fwv::RW, fwv::RH,
              tr.rank, epochs, seed + 1);
        std::fprintf(stderr, "training the suit network\n");
        train(m.suit, fwv::SUIT_IN, 128, fwv::SUIT_OUT, fwv::SW, fwv::SH,
              tr.suit, epochs, seed + 2);
        std::printf("training decks: rank %.2f%%, suit %.2f%% of corners\n",
                    accuracy(m.rank, tr.rank, nullptr),
                    accuracy(m.suit, tr.suit, nullptr));
        report_held_out(m, te);
        std::vector<uint8_t> bytes = fwv::model_bytes(m);
        std::ofstream f(out, std::ios::binary);
        f.write(reinterpret_cast<const char *>(bytes.data()),
                (std::streamsize)bytes.size());
        if (!f)
            throw std::runtime_error(std::string("cannot write ") + out);
        std::printf("%s: %zu bytes, %.0f s\n", out, bytes.size(),
                    std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - t0)
                        .count());
    } catch (const std::exception &e) {
        std::fprintf(stderr, "train_cards: %s\n", e.what());
        fw_sim_free(sim);
        return 1;
    }
    fw_sim_free(sim);
    return 0;
}
