/*
 * train_cards.cpp - cuts the corner-index reader's training glyphs from
 * renders of the Debian card decks, and measures a model on the held-out
 * decks.
 *
 * usage: train_cards --export DIR [--cache DIR] [--augs N] [--seed N]
 *                    [--dump DIR]
 *        train_cards --eval MODEL.fwm [--training-decks] [--cache DIR]
 *                    [--augs N] [--seed N] [--dump DIR]
 *
 * Only decks of the training families are trained on (sim.h:
 * fw_sim_deck_held_out is 0). Each card of each deck is rendered --augs
 * times alone on a random table through the simulator (half 45-130 px
 * tall, half 60-320; any angle, camera tilt, light, glare, blur, noise,
 * JPEG), sometimes with a second card over one index corner; its true
 * corners are disturbed as a detector would, and both index corners are
 * cut by the same index_features() the detector uses. Backs and covered
 * corners are "junk". The held-out decks are rendered the same way (a
 * third as many times) and only measured. Deterministic for a seed.
 * --export DIR writes both sets, undistorted, as raw little-endian arrays
 * for tools/train_card_cnn.py, which trains the networks (net.h):
 * DIR/{train,held}_{rank,suit}_{x,y}.bin, x float32 rows of RANK_IN or
 * SUIT_IN, y int32 labels (--dump: DIR/patches.png, the first corners).
 * --eval measures MODEL.fwm on the held-out decks (on fresh renders of
 * the training decks with --training-decks; with --dump,
 * DIR/held_out_misread.png shows the corners it reads wrong,
 * truth>reading as rank/suit numbers).
 */
#include "net.h"
#include "read.h"
#include "fw_parse.h"
#include "sim.h"
#include "sim_int.h"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
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
    s.table = r.range(0, FW_SIM_DRAWN - 1);
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
                fwv::NetScratch ns;
                float pr[fwv::RANK_OUT], ps[fwv::SUIT_OUT];
                dump->judge->rank.forward(f.rank, ns, pr);
                dump->judge->suit.forward(f.suit, ns, ps);
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

/* Write one set's samples as DIR/NAME_{rank,suit}_{x,y}.bin. */
static void export_set(const char *dir, const char *name, const Set &set)
{
    for (int k = 0; k < 2; k++) {
        const std::vector<Sample> &v = k ? set.suit : set.rank;
        std::string base = std::string(dir) + "/" + name +
                           (k ? "_suit" : "_rank");
        std::ofstream fx(base + "_x.bin", std::ios::binary),
            fy(base + "_y.bin", std::ios::binary);
        for (const Sample &s : v) {
            fx.write(reinterpret_cast<const char *>(s.x.data()),
                     (std::streamsize)(s.x.size() * sizeof(float)));
            int32_t y = s.y;
            fy.write(reinterpret_cast<const char *>(&y), sizeof y);
        }
        if (!fx || !fy)
            throw std::runtime_error("cannot write " + base + "_x/_y.bin");
    }
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

/* The share of data's samples that net reads right, and its confusion
 * matrix (rows truth, columns read). */
static double accuracy(const fwv::Cnn &net, const std::vector<Sample> &data,
                       std::vector<int> &confusion)
{
    fwv::NetScratch ns;
    std::vector<float> p((size_t)net.nout);
    long right = 0;
    for (const Sample &s : data) {
        net.forward(s.x.data(), ns, p.data());
        int k = (int)(std::max_element(p.begin(), p.end()) - p.begin());
        right += k == s.y;
        confusion[(size_t)s.y * net.nout + k]++;
    }
    return data.empty() ? 0 : 100.0 * right / (double)data.size();
}

static void print_confusion(const char *what, const std::vector<int> &c, int n)
{
    std::printf("%s confusion (rows truth, columns read):\n", what);
    for (int i = 0; i < n; i++) {
        std::printf("  %2d:", i);
        for (int j = 0; j < n; j++)
            std::printf(" %4d", c[(size_t)i * n + j]);
        std::printf("\n");
    }
}

/* The accuracy of m on te (the decks named by what), with both confusion
 * matrices. */
static void report(const fwv::CardModel &m, const Set &te, const char *what)
{
    std::vector<int> cr((size_t)fwv::RANK_OUT * fwv::RANK_OUT),
        cs((size_t)fwv::SUIT_OUT * fwv::SUIT_OUT);
    std::printf("%s decks: rank %.2f%%, suit %.2f%% of corners (%zu, %zu)\n",
                what, accuracy(m.rank, te.rank, cr),
                accuracy(m.suit, te.suit, cs), te.rank.size(), te.suit.size());
    std::string r = std::string(what) + " rank", su = std::string(what) + " suit";
    print_confusion(r.c_str(), cr, fwv::RANK_OUT);
    print_confusion(su.c_str(), cs, fwv::SUIT_OUT);
}

int main(int argc, char **argv)
{
    const char *usage =
        "usage: train_cards --export DIR | --eval MODEL.fwm [--training-decks] "
        "[--cache DIR] [--augs N] [--seed N] [--dump DIR]\n";
    const char *cache = nullptr, *dump_dir = nullptr, *export_dir = nullptr,
               *eval_model = nullptr;
    int augs = 32;
    uint64_t seed = 1;
    bool train_decks = false;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        bool more = i + 1 < argc;
        long v = 0;
        if (a == "--cache" && more)
            cache = argv[++i];
        else if (a == "--augs" && more && whole(argv[i + 1], 1, 10000, &v))
            augs = (int)v, i++;
        else if (a == "--seed" && more && whole(argv[i + 1], 0, LONG_MAX, &v))
            seed = (uint64_t)v, i++;
        else if (a == "--dump" && more)
            dump_dir = argv[++i];
        else if (a == "--eval" && more)
            eval_model = argv[++i];
        else if (a == "--training-decks")
            train_decks = true;
        else if (a == "--export" && more)
            export_dir = argv[++i];
        else {
            std::fprintf(stderr, "train_cards: bad or unknown option %s\n%s",
                         a.c_str(), usage);
            return 2;
        }
    }
    if (!export_dir == !eval_model) {
        std::fputs(usage, stderr);
        return 2;
    }
    fw_sim *sim = nullptr;
    if (fw_sim_new(cache, &sim) != FW_OK) {
        std::fprintf(stderr, "train_cards: %s\n", fw_last_error());
        return 1;
    }
    try {
        if (eval_model) {
            /* the held-out decks only, read by the model; --dump writes
             * the corners it reads wrong */
            fwv::CardModel m;
            Dump dump;
            if (!load_model(eval_model, m)) {
                fw_sim_free(sim);
                return 1;
            }
            dump.judge = &m;
            Set te = make_set(sim, !train_decks, std::max(2, augs / 3),
                              seed + 7, dump_dir ? &dump : nullptr);
            write_grid(dump_dir, "held_out_misread.png", dump.patches);
            report(m, te, train_decks ? "training" : "held-out");
        } else {
            Dump dump;
            std::fprintf(stderr, "rendering the training decks (%d per card)\n",
                         augs);
            Set tr = make_set(sim, false, augs, seed, dump_dir ? &dump : nullptr);
            write_grid(dump_dir, "patches.png", dump.patches);
            export_set(export_dir, "train", tr);
            std::fprintf(stderr, "rendering the held-out decks\n");
            export_set(export_dir, "held",
                       make_set(sim, true, std::max(2, augs / 3), seed + 7,
                                nullptr));
            std::fprintf(stderr, "%zu rank and %zu suit training samples from "
                                 "%ld cards\n",
                         tr.rank.size(), tr.suit.size(), tr.cards);
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "train_cards: %s\n", e.what());
        fw_sim_free(sim);
        return 1;
    }
    fw_sim_free(sim);
    return 0;
}
