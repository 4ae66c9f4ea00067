/*
 * eval_cards.cpp - the detector over rendered scenes with ground truth.
 *
 * usage: eval_cards [--scenes N] [--seed S] [--held-out 1|0|-1] [--hard]
 *                   [--size WxH] [--cards LO HI] [--height LO HI]
 *                   [--deck NAME] [--table N] [--cache DIR] [--dump DIR]
 *                   [--verbose]
 *
 * Renders N random scenes (sim.h) from decks of the held-out families (the
 * default), runs fw_vision_detect_cards() on each and prints:
 *  - cards read: face-up cards with a whole corner index in view whose rank
 *    and suit are reported right (a miss counts as wrong);
 *  - face-down counts: scenes whose number of face-down detections equals
 *    the number of backs in view (a back at least a quarter seen must be
 *    counted; one seen less may be counted or not); and, over the scenes
 *    counted wrong, what the error is made of: backs not found (and of
 *    those, taken for faces), and face-down detections matched to no card
 *    by what they lie on (a back found again, a face, neither);
 *  - false cards: detections that overlap no card at all, per 100 images;
 *  - cards not in the scene: detections matched to no card that report a
 *    card the scene does not hold (a second quad over a card, or a strip
 *    of one, read as another card);
 *  - cards read twice: detections that report a card another detection
 *    of the same scene reports too (a scene's cards are distinct);
 *  - faces too many: face-up detections matched to no card that lie
 *    mostly on a face another detection is matched to (a card outlined
 *    twice, or a strip of it: the dealer sees a face up the table does
 *    not hold), and how many of those are unread;
 *  - cards found: cards at least half seen that a detection covers (quad
 *    IoU >= 0.5; truth and detections matched one to one, the pair of
 *    best IoU first), and the mean time per image, and how many images
 *    were detected through the table's flat view (flat_view.h: the
 *    detector forgets the camera before each scene);
 *  - what shows (fw_card_obs::shows, layers.h): of the cards found whose
 *    part in view, under the cards drawn after them, boxes under 0.8 of
 *    their whole box, how many report a box of what shows at IoU 0.5 or
 *    more with it (and how many their whole box would match); of the
 *    cards found that no card lies over, how many report one over them,
 *    and how many of those lose their box so (IoU under 0.5);
 *  - the cards not read right by cause: not found, taken for a back, no
 *    index read, read wrong; the last two with a good quad (IoU 0.85 or
 *    more, the reader's miss) counted apart, and the unread ones with a
 *    good quad by deck;
 *  - the cards read by height band (the card's height in the image, from
 *    its true corners), with the wrong cards reported in each and how many
 *    of those came with a confidence of 0.6 or more, and the cards reported
 *    in each confidence bin, right and wrong (what MIN_READ is set by).
 * --height LO HI draws every scene's card height (table pixels) from
 * [LO, HI] instead of the simulator's default; --deck and --table fix the
 * deck (by name) and the table (an fw_sim_table). --dump DIR writes each
 * scene with its detections (sceneN.png; the cards not read right drawn
 * thin red where they truly lie) and as rendered (sceneN_raw.png,
 * for the debugging tools), and misread.png: the index patch (read.h) of
 * every card read wrong or not at all, cut at the detected corners (left)
 * and at the true ones (right), truth and reading written over it.
 *
 * Seeds: the default scenes (--seed 1000: 300 easy, 200 hard) are the ones
 * the detector has been tuned against, scene by scene, for many stops, and
 * they flatter it (2026-11-21: read right 97.3% there, 94.7-94.9% on 600
 * fresh scenes; face-down exact 94.1% there, 88.5-91.6% fresh). Choices
 * have been weighed on seeds 5000 and 9000 too (easy and hard), and on
 * the easy scenes of seeds 13000, 14000, 16000, 17000, 18000, 22000 and
 * 23000 (600 each). Report held-out numbers from seed 20000 (its 600
 * scenes, 20000 to 20599): scenes no choice was made on. Seeds 22000 and
 * 23000 were fresh when first run (2026-12-02): their easy scenes counted
 * the backs exactly in 97.9% and read 99.37-99.45% right, where the
 * seeds tuned on for longer counted 99.4-99.8% exactly. Seed 30000 (600
 * easy, 600 hard) was fresh when first run, later that day, to judge
 * detect.cpp FILL_CLOSE and cards.cpp join_split_faces() on scenes they
 * were not chosen on; it has been looked at since. For another fresh
 * look, take a seed never run (31000 on).
 */
#include "read.h"
#include "fw_parse.h"
#include "sim.h"
#include "vision.h"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

double quad_iou(const float a[4][2], const float b[4][2])
{
    std::vector<cv::Point2f> pa, pb, inter;
    for (int k = 0; k < 4; k++) {
        pa.emplace_back(a[k][0], a[k][1]);
        pb.emplace_back(b[k][0], b[k][1]);
    }
    std::vector<cv::Point2f> ha, hb;
    cv::convexHull(pa, ha);
    cv::convexHull(pb, hb);
    double aa = cv::contourArea(ha), ab = cv::contourArea(hb);
    if (aa <= 0 || ab <= 0)
        return 0;
    double ia = cv::intersectConvexConvex(ha, hb, inter, true);
    if (ia <= 0)
        return 0;
    return ia / (aa + ab - ia);
}

/* Box IoU of x0, y0, x1, y1 boxes a and b. */
double box_iou(const float a[4], const float b[4])
{
    const double ix = std::max(0.f, std::min(a[2], b[2]) - std::max(a[0], b[0])),
                 iy = std::max(0.f, std::min(a[3], b[3]) - std::max(a[1], b[1]));
    const double i = ix * iy,
                 u = (double)(a[2] - a[0]) * (a[3] - a[1]) +
                     (double)(b[2] - b[0]) * (b[3] - b[1]) - i;
    return u > 0 ? i / u : 0;
}

/* The box of quad q's corners within a w x h frame. */
void corners_box(const float q[4][2], int w, int h, float box[4])
{
    box[0] = box[1] = 1e9f;
    box[2] = box[3] = -1e9f;
    for (int k = 0; k < 4; k++) {
        box[0] = std::min(box[0], q[k][0]);
        box[1] = std::min(box[1], q[k][1]);
        box[2] = std::max(box[2], q[k][0]);
        box[3] = std::max(box[3], q[k][1]);
    }
    box[0] = std::max(box[0], 0.f);
    box[1] = std::max(box[1], 0.f);
    box[2] = std::min(box[2], (float)w);
    box[3] = std::min(box[3], (float)h);
}

/* Into boxes[t], the box of what shows of truth card t under the cards
 * drawn after it (drawn in their order on mask, a w x h scratch; the
 * covers that are no cards are left out, as the detector's
 * fw_card_obs::shows leaves them; slivers too), and into shown[t] the
 * share of its box that box is: 1 for a card no card lies over. */
void truth_shows(const fw_sim_truth &truth, int w, int h, cv::Mat &mask,
                 std::vector<std::array<float, 4>> &boxes,
                 std::vector<double> &shown)
{
    mask.create(h, w, CV_8U);
    mask.setTo(0);
    for (int t = 0; t < truth.ncards; t++) {
        cv::Point q[4];
        for (int k = 0; k < 4; k++)
            q[k] = cv::Point((int)std::lround(truth.cards[t].corners[k][0]),
                             (int)std::lround(truth.cards[t].corners[k][1]));
        cv::fillConvexPoly(mask, q, 4, cv::Scalar(t + 1));
    }
    boxes.assign(truth.ncards, {0, 0, 0, 0});
    shown.assign(truth.ncards, 0);
    cv::Mat one;
    for (int t = 0; t < truth.ncards; t++) {
        float whole[4];
        corners_box(truth.cards[t].corners, w, h, whole);
        const cv::Rect roi =
            cv::Rect(cv::Point((int)whole[0], (int)whole[1]),
                     cv::Point((int)std::ceil(whole[2]),
                               (int)std::ceil(whole[3]))) &
            cv::Rect(0, 0, w, h);
        if (roi.empty())
            continue;
        cv::compare(mask(roi), t + 1, one, cv::CMP_EQ);
        const double seen = (double)cv::boundingRect(one).area();
        /* slivers under a tenth of the card's width left out, as the
         * detector's box of what shows leaves them (layers.h SLIVER) and
         * as the real photographs' labels do */
        float side = 1e9f;
        for (int k = 0; k < 4; k++)
            side = std::min(
                side, (float)std::hypot(truth.cards[t].corners[(k + 1) % 4][0] -
                                            truth.cards[t].corners[k][0],
                                        truth.cards[t].corners[(k + 1) % 4][1] -
                                            truth.cards[t].corners[k][1]));
        const int k = std::max(3, (int)std::lround(0.1f * side)) | 1;
        cv::morphologyEx(one, one, cv::MORPH_OPEN,
                         cv::getStructuringElement(cv::MORPH_RECT, {k, k}));
        cv::Rect r = cv::boundingRect(one);
        r.x += roi.x;
        r.y += roi.y;
        boxes[t] = {(float)r.x, (float)r.y, (float)(r.x + r.width),
                    (float)(r.y + r.height)};
        const double wa = (double)(whole[2] - whole[0]) * (whole[3] - whole[1]);
        shown[t] = wa > 0 ? seen / wa : 0;
    }
}

/* The share of quad a covered by quad b. */
double quad_cover(const float a[4][2], const float b[4][2])
{
    std::vector<cv::Point2f> pa, pb, inter, ha, hb;
    for (int k = 0; k < 4; k++) {
        pa.emplace_back(a[k][0], a[k][1]);
        pb.emplace_back(b[k][0], b[k][1]);
    }
    cv::convexHull(pa, ha);
    cv::convexHull(pb, hb);
    double aa = cv::contourArea(ha);
    if (aa <= 0)
        return 0;
    double ia = cv::intersectConvexConvex(ha, hb, inter, true);
    return ia > 0 ? ia / aa : 0;
}

/* The height bands of the per-height table, in image pixels. */
const double band_edge[] = {0, 55, 65, 77, 90, 110, 140, 1e9};
constexpr int NBANDS = (int)(sizeof band_edge / sizeof band_edge[0]) - 1;

/* Confidence bins of the cards reported, right and wrong. */
const double conf_edge[] = {0, 0.1, 0.2, 0.25, 0.3, 0.35, 0.45, 0.6, 0.8, 1.01};
constexpr int NCONF = (int)(sizeof conf_edge / sizeof conf_edge[0]) - 1;

/* The confidence from which a card reported is called sure (cards.cpp
 * MEMO_SURE carries such a reading from frame to frame). */
constexpr float SURE = 0.6f;

/* A card's height in the image: the mean of its two long sides. */
double card_height_px(const float c[4][2])
{
    auto len = [&](int a, int b) {
        return std::hypot((double)c[a][0] - c[b][0], (double)c[a][1] - c[b][1]);
    };
    return 0.5 * (len(0, 3) + len(1, 2));
}

/* What a scene's backs counted wrong are made of (eval_cards' line under
 * the face-down count). */
struct DownErrors {
    long missed = 0, taken_up = 0, on_back = 0, on_face = 0, on_neither = 0;
};

/* Adds to e what scene truth's backs counted wrong by detections
 * obs[0..n) are made of: backs in view (a quarter seen or more) that no
 * face-down detection lies mostly on (over `on` of it), of which those
 * taken for a face (the detection matched to the back, match[t], face
 * up); and face-down detections matched to no card (used[i] 0) by what
 * they lie mostly on: a back another face-down detection lies on too
 * (one back found twice, or a fanned pair's strip), a face, or neither.
 * With deck given, prints a line per back not found and per face-down
 * detection matched to no card, with what it lies on (scene its
 * number). */
void count_down_errors(const fw_sim_truth &truth, const fw_card_obs *obs,
                       int n, const std::vector<int> &match,
                       const std::vector<int> &used, double on,
                       unsigned scene, const char *deck, DownErrors &e)
{
    for (int t = 0; t < truth.ncards; t++) {
        const fw_sim_truth_card &tc = truth.cards[t];
        if (tc.face_up || tc.visible < 0.25f)
            continue;
        bool found = false;
        for (int i = 0; i < n && !found; i++)
            found = !obs[i].face_up &&
                    quad_cover(obs[i].corners, tc.corners) > on;
        if (found)
            continue;
        /* taken for a face: the detection matched to it is face up (not
         * a face over it, matched to that face) */
        const int up = match[(size_t)t] >= 0 && obs[match[(size_t)t]].face_up
                           ? match[(size_t)t]
                           : -1;
        e.missed++;
        e.taken_up += up >= 0;
        if (deck) {
            char name[3] = "--";
            if (up >= 0 && obs[up].card != FW_CARD_NONE)
                fw_card_str(obs[up].card, name);
            std::printf("scene %u %s: a back at %.0f,%.0f (%.2f seen) %s%s\n",
                        scene, deck, (double)tc.corners[0][0],
                        (double)tc.corners[0][1], (double)tc.visible,
                        up >= 0 ? "taken for a face " : "not found",
                        up >= 0 ? name : "");
        }
    }
    for (int i = 0; i < n; i++) {
        if (obs[i].face_up || used[(size_t)i])
            continue;
        bool on_back = false, on_face = false;
        fw_card face = FW_CARD_NONE;
        for (int t = 0; t < truth.ncards && !on_back; t++) {
            const fw_sim_truth_card &tc = truth.cards[t];
            if (quad_cover(obs[i].corners, tc.corners) <= on)
                continue;
            if (tc.face_up) {
                on_face = true;
                face = tc.card;
                continue;
            }
            for (int j = 0; j < n && !on_back; j++)
                on_back = j != i && !obs[j].face_up &&
                          quad_cover(obs[j].corners, tc.corners) > on;
        }
        e.on_back += on_back;
        e.on_face += !on_back && on_face;
        e.on_neither += !on_back && !on_face;
        if (deck) {
            char name[3] = "--";
            if (!on_back && on_face)
                fw_card_str(face, name);
            std::printf("scene %u %s: a back too many at %.0f,%.0f, on %s%s\n",
                        scene, deck, (double)obs[i].corners[0][0],
                        (double)obs[i].corners[0][1],
                        on_back   ? "a back found again"
                        : on_face ? "a face "
                                  : "neither",
                        !on_back && on_face ? name : "");
        }
    }
}

} // namespace

/* A whole decimal number in [lo, hi], or false (bad command-line text). */
static bool whole(const char *s, long lo, long hi, long *out)
{
    return fw_parse_long(s, lo, hi, out) == 0;
}

int main(int argc, char **argv)
{
    int scenes = 200, held = 1, hard = 0, w = 1280, h = 720, lo = 1, hi = 15;
    int verbose = 0, table = -1, as_is = 0;
    float hlo = 0, hhi = 0;
    unsigned seed = 1000;
    const char *cache = nullptr, *dump = nullptr, *deck_name = nullptr;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        bool more = i + 1 < argc;
        long v1 = 0, v2 = 0;
        bool ok = true;
        if (a == "--scenes" && more)
            ok = whole(argv[++i], 1, 1000000, &v1), scenes = (int)v1;
        else if (a == "--seed" && more)
            ok = whole(argv[++i], 0, 4294967295L, &v1), seed = (unsigned)v1;
        else if (a == "--held-out" && more)
            ok = whole(argv[++i], -1, 1, &v1), held = (int)v1;
        else if (a == "--hard")
            hard = 1;
        else if (a == "--size" && more) {
            const char *x = std::strchr(argv[++i], 'x');
            std::string ws(argv[i], x ? (size_t)(x - argv[i]) : 0);
            ok = x && whole(ws.c_str(), 64, 20000, &v1) &&
                 whole(x + 1, 64, 20000, &v2);
            w = (int)v1, h = (int)v2;
        } else if (a == "--cards" && i + 2 < argc) {
            ok = whole(argv[i + 1], 0, FW_SIM_MAX_CARDS, &v1) &&
                 whole(argv[i + 2], v1, FW_SIM_MAX_CARDS, &v2);
            i += 2;
            lo = (int)v1, hi = (int)v2;
        } else if (a == "--height" && i + 2 < argc) {
            ok = whole(argv[i + 1], 8, 20000, &v1) &&
                 whole(argv[i + 2], v1, 20000, &v2);
            i += 2;
            hlo = (float)v1, hhi = (float)v2;
        } else if (a == "--deck" && more)
            deck_name = argv[++i];
        else if (a == "--table" && more)
            ok = whole(argv[++i], -1, FW_SIM_TABLES - 1, &v1), table = (int)v1;
        else if (a == "--cache" && more)
            cache = argv[++i];
        else if (a == "--dump" && more)
            dump = argv[++i];
        else if (a == "--verbose")
            verbose = 1;
        else if (a == "--as-is")
            as_is = 1;
        else
            ok = false;
        if (!ok) {
            std::fprintf(stderr, "usage: eval_cards [--scenes N] [--seed S] "
                                 "[--held-out 1|0|-1] [--hard] [--size WxH] "
                                 "[--cards LO HI] [--height LO HI] "
                                 "[--deck NAME] [--table N] [--cache DIR] "
                                 "[--dump DIR] [--verbose] [--as-is]\n");
            return 2;
        }
    }
    int deck = -1;
    if (deck_name && (deck = fw_sim_deck_find(deck_name)) < 0) {
        std::fprintf(stderr, "eval_cards: no deck %s\n", deck_name);
        return 2;
    }
    fw_sim *sim = nullptr;
    fw_vision *v = nullptr;
    if (fw_sim_new(cache, &sim) != FW_OK || fw_vision_new(&v) != FW_OK) {
        std::fprintf(stderr, "eval_cards: %s\n", fw_last_error());
        return 1;
    }
    /* --as-is: every frame read as the camera gives it, never through
     * the table's flat view (what the view is worth) */
    fw_vision_use_flat_view(v, !as_is);
    long readable = 0, read_right = 0, read_detected = 0, down_scenes = 0,
         down_exact = 0, false_cards = 0, twice = 0, strangers = 0,
         faces_again = 0, faces_again_unread = 0,
         strangers_sure = 0, findable = 0, found = 0, images = 0,
         seen_flat = 0;
    long rank_right = 0, wrong = 0, wrong_sure = 0;
    long band_n[NBANDS] = {0}, band_right[NBANDS] = {0},
         band_wrong[NBANDS] = {0}, band_sure[NBANDS] = {0},
         band_found[NBANDS] = {0}, conf_right[NCONF] = {0},
         conf_wrong[NCONF] = {0};
    double ms = 0;
    std::vector<cv::Mat> misread;
    fwv::ReadScratch rs;
    fwv::IndexFeat feat;
    std::vector<long> deck_read(fw_sim_deck_count()),
        deck_right(fw_sim_deck_count());
    /* the cards not read right, by cause: not found; taken for a back; no
     * index read; read wrong. The last two apart for a good quad (IoU
     * GOOD_QUAD or more: the reader's part) and a poor one (the finder's) */
    constexpr double GOOD_QUAD = 0.85;
    long miss_unfound = 0, miss_down = 0, miss_unread[2] = {0, 0},
         miss_wrong[2] = {0, 0};
    std::vector<long> deck_unread_good(fw_sim_deck_count());
    /* what the backs of scenes counted wrong are made of
     * (count_down_errors()); a detection lies mostly on a card over
     * BACK_ON of it */
    constexpr double BACK_ON = 0.5;
    DownErrors downs;
    /* what shows of the cards found (fw_card_obs::shows), against what
     * shows of them truly: cards found whose box shows under SHOWN_PART
     * of itself under the cards drawn over them, how many report a box
     * of IoU 0.5 or more with what truly shows (and how many the quad's
     * own box would match so); cards found that nothing lies over, how
     * many report a card over them */
    constexpr double SHOWN_PART = 0.8;
    long under_n = 0, under_shows = 0, under_quad = 0, top_n = 0,
         top_wrong = 0, top_lost = 0;
    cv::Mat shows_mask;
    std::vector<std::array<float, 4>> shows_true;
    std::vector<double> shown_share;
    for (int sc = 0; sc < scenes; sc++) {
        fw_sim_random_opts o;
        std::memset(&o, 0, sizeof o);
        o.width = w;
        o.height = h;
        o.any_deck = deck < 0;
        o.deck = deck;
        o.held_out = held;
        o.min_cards = lo;
        o.max_cards = hi;
        o.table = table;
        o.hard = hard;
        o.card_height_min = hlo;
        o.card_height_max = hhi;
        fw_sim_scene scene;
        fw_sim_truth truth;
        fw_image img = {};
        if (fw_sim_random_scene(seed + (unsigned)sc, &o, &scene) != FW_OK ||
            fw_sim_render(sim, &scene, &img, &truth) != FW_OK) {
            std::fprintf(stderr, "eval_cards: %s\n", fw_last_error());
            return 1;
        }
        fw_card_obs obs[64];
        int n = 0;
        fw_vision_forget(v); /* each scene is a table of its own */
        auto t0 = std::chrono::steady_clock::now();
        fw_vision_detect_cards(v, img.bgr, img.width, img.height, img.stride,
                               obs, 64, &n);
        ms += std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - t0)
                  .count();
        images++;
        fw_vision_frame_stats st;
        fw_vision_last_frame(v, &st);
        seen_flat += st.flat_view != 0;
        /* match truth cards and detections pair by pair, the pair of
         * best IoU first (0.5 at least): in truth order, a card under
         * another could take the upper card's detection (IoU 0.62, easy
         * scene 5012), leaving the upper card unmatched though found */
        std::vector<int> match(truth.ncards, -1);
        std::vector<int> used(n, 0);
        std::vector<double> match_iou(truth.ncards, 0);
        struct Pair {
            double iou;
            int t, i;
        };
        std::vector<Pair> pairs;
        for (int t = 0; t < truth.ncards; t++)
            for (int i = 0; i < n; i++) {
                double u = quad_iou(truth.cards[t].corners, obs[i].corners);
                if (u >= 0.5)
                    pairs.push_back(Pair{u, t, i});
            }
        std::stable_sort(pairs.begin(), pairs.end(),
                         [](const Pair &a, const Pair &b) {
                             return a.iou > b.iou;
                         });
        for (const Pair &pr : pairs)
            if (match[pr.t] < 0 && !used[pr.i]) {
                match[pr.t] = pr.i;
                used[pr.i] = 1;
                match_iou[pr.t] = pr.iou;
            }
        truth_shows(truth, img.width, img.height, shows_mask, shows_true,
                    shown_share);
        for (int t = 0; t < truth.ncards; t++) {
            if (match[t] < 0)
                continue;
            const fw_card_obs &d = obs[match[t]];
            const double by_shows = box_iou(d.shows, shows_true[t].data());
            bool covered = false; /* by a card drawn after it */
            for (int u = t + 1; u < truth.ncards && !covered; u++)
                covered = quad_cover(truth.cards[t].corners,
                                     truth.cards[u].corners) > 0.005;
            if (!covered) {
                top_n++;
                top_wrong += d.cards_over > 0;
                top_lost += d.cards_over > 0 && by_shows < 0.5;
                if (verbose && d.cards_over > 0) {
                    char c2[3] = "--";
                    if (truth.cards[t].card != FW_CARD_NONE &&
                        truth.cards[t].face_up)
                        fw_card_str(truth.cards[t].card, c2);
                    std::printf("scene %u: %s at %.0f,%.0f lies over, "
                                "reported under %d (shows IoU %.2f)\n",
                                seed + (unsigned)sc, c2, d.corners[0][0],
                                d.corners[0][1], d.cards_over, by_shows);
                }
            } else if (shown_share[t] < SHOWN_PART) {
                float qb[4];
                corners_box(d.corners, img.width, img.height, qb);
                const double by_whole = box_iou(qb, shows_true[t].data());
                under_n++;
                under_shows += by_shows >= 0.5;
                under_quad += by_whole >= 0.5;
                if (verbose && by_shows < 0.5)
                    std::printf("scene %u: a card at %.0f,%.0f under others "
                                "reports what shows at IoU %.2f (its whole "
                                "box %.2f; %d over it)\n",
                                seed + (unsigned)sc, d.corners[0][0],
                                d.corners[0][1], by_shows, by_whole,
                                d.cards_over);
            }
        }
        int must_down = 0, may_down = 0, det_down = 0;
        for (int t = 0; t < truth.ncards; t++) {
            const fw_sim_truth_card &tc = truth.cards[t];
            if (tc.visible >= 0.5f) {
                findable++;
                found += match[t] >= 0;
            }
            if (tc.face_up && tc.index_visible) {
                readable++;
                deck_read[scene.deck]++;
                bool ok = match[t] >= 0 && obs[match[t]].card == tc.card;
                read_right += ok;
                deck_right[scene.deck] += ok;
                read_detected += match[t] >= 0;
                bool bad = match[t] >= 0 &&
                           obs[match[t]].card != FW_CARD_NONE &&
                           obs[match[t]].card != tc.card;
                bool sure = bad && obs[match[t]].confidence >= SURE;
                if (match[t] >= 0 && obs[match[t]].card != FW_CARD_NONE) {
                    int cb = 0;
                    while (cb + 1 < NCONF &&
                           obs[match[t]].confidence >= conf_edge[cb + 1])
                        cb++;
                    conf_right[cb] += ok;
                    conf_wrong[cb] += bad;
                }
                wrong += bad;
                wrong_sure += sure;
                if (!ok) {
                    const int good = match[t] >= 0 &&
                                     match_iou[t] >= GOOD_QUAD;
                    if (match[t] < 0)
                        miss_unfound++;
                    else if (!obs[match[t]].face_up)
                        miss_down++;
                    else if (bad)
                        miss_wrong[good]++;
                    else {
                        miss_unread[good]++;
                        deck_unread_good[scene.deck] += good;
                    }
                }
                double hp = card_height_px(tc.corners);
                int band = 0;
                while (band + 1 < NBANDS && hp >= band_edge[band + 1])
                    band++;
                band_n[band]++;
                band_right[band] += ok;
                band_found[band] += match[t] >= 0;
                band_wrong[band] += bad;
                band_sure[band] += sure;
                rank_right += match[t] >= 0 &&
                              obs[match[t]].card != FW_CARD_NONE &&
                              fw_card_rank(obs[match[t]].card) ==
                                  fw_card_rank(tc.card);
                if (!ok && dump && misread.size() < 600) {
                    cv::Mat m(img.height, img.width, CV_8UC3, img.bgr,
                              (size_t)img.stride);
                    cv::Point2f q[4];
                    cv::Mat a, b;
                    if (match[t] >= 0) {
                        for (int k = 0; k < 4; k++)
                            q[k] = cv::Point2f(obs[match[t]].corners[k][0],
                                               obs[match[t]].corners[k][1]);
                        fwv::index_features(m, q, 0, rs, feat, &a);
                    }
                    for (int k = 0; k < 4; k++)
                        q[k] = cv::Point2f(tc.corners[k][0], tc.corners[k][1]);
                    if (!fwv::index_features(m, q, 0, rs, feat, &b))
                        fwv::index_features(m, q, 2, rs, feat, &b);
                    cv::Size cell = a.empty() ? b.size() : a.size();
                    if (cell.area() == 0)
                        cell = cv::Size(153, 327);
                    cv::Mat pair(cell.height, cell.width * 2, CV_8UC3,
                                 cv::Scalar(60, 60, 60));
                    if (!a.empty())
                        a.copyTo(pair(cv::Rect(0, 0, cell.width, cell.height)));
                    if (!b.empty() && b.size() == cell)
                        b.copyTo(pair(cv::Rect(cell.width, 0, cell.width,
                                               cell.height)));
                    char a2[3] = "--", b2[3] = "--", lab[64];
                    fw_card_str(tc.card, a2);
                    if (match[t] >= 0 && obs[match[t]].card != FW_CARD_NONE)
                        fw_card_str(obs[match[t]].card, b2);
                    std::snprintf(lab, sizeof lab, "%s>%s %.0fpx", a2, b2,
                                  card_height_px(tc.corners));
                    cv::putText(pair, lab, cv::Point(2, cell.height - 6),
                                cv::FONT_HERSHEY_PLAIN, 1.1,
                                cv::Scalar(0, 0, 255), 1);
                    misread.push_back(pair);
                }
                if (!ok && verbose) {
                    char a[3] = "--", b[3] = "--";
                    fw_card_str(tc.card, a);
                    if (match[t] >= 0 && obs[match[t]].card != FW_CARD_NONE)
                        fw_card_str(obs[match[t]].card, b);
                    double conf =
                        match[t] < 0 ? 0.0 : (double)obs[match[t]].confidence;
                    std::printf("scene %u %s: %s (%.0f px) read as %s%s "
                                "(%.2f; quad IoU %.2f)\n",
                                seed + (unsigned)sc,
                                fw_sim_deck_name(scene.deck), a,
                                card_height_px(tc.corners), b,
                                match[t] < 0 ? " (not found)"
                                : obs[match[t]].face_up ? ""
                                                        : " (face down)",
                                conf, match_iou[t]);
                }
            }
            if (!tc.face_up) {
                if (tc.visible >= 0.25f)
                    must_down++;
                else if (tc.visible > 0.02f)
                    may_down++;
            }
        }
        for (int i = 0; i < n; i++) {
            det_down += !obs[i].face_up;
            bool any = false;
            for (int t = 0; t < truth.ncards && !any; t++)
                any = quad_cover(obs[i].corners, truth.cards[t].corners) >
                      0.3;
            if (!any) {
                false_cards++;
                if (verbose)
                    std::printf("scene %u: a false card at %.0f,%.0f\n",
                                seed + (unsigned)sc,
                                (double)obs[i].corners[0][0],
                                (double)obs[i].corners[0][1]);
            }
            /* a scene deals distinct cards: a card read a second time is
             * one card seen as two, which the rules engine would take
             * for a second deck's card */
            bool again = false;
            for (int j = 0; j < i && !again; j++)
                again =
                    obs[i].card != FW_CARD_NONE && obs[j].card == obs[i].card;
            /* a reading no card of the scene explains: matched to none (a
             * second quad over a card read already, or a strip of one)
             * and naming a card the scene does not hold. The dealer sees
             * a card that is not there, which "wrong cards" (readings
             * matched to a card) does not count */
            bool explained = obs[i].card == FW_CARD_NONE || used[i];
            for (int t = 0; t < truth.ncards && !explained; t++)
                explained = truth.cards[t].card == obs[i].card;
            if (!explained) {
                strangers++;
                strangers_sure += obs[i].confidence >= SURE;
                if (verbose) {
                    char name[3];
                    fw_card_str(obs[i].card, name);
                    std::printf("scene %u: %s reported, not in the scene "
                                "(%.2f)\n",
                                seed + (unsigned)sc, name,
                                (double)obs[i].confidence);
                }
            }
            /* a face up matched to no card, lying mostly on a face up
             * another detection is matched to */
            for (int t = 0; t < truth.ncards && obs[i].face_up && !used[i];
                 t++) {
                const fw_sim_truth_card &tc = truth.cards[t];
                if (!tc.face_up || match[t] < 0 || match[t] == i ||
                    quad_cover(obs[i].corners, tc.corners) <= BACK_ON)
                    continue;
                faces_again++;
                faces_again_unread += obs[i].card == FW_CARD_NONE;
                if (verbose) {
                    char name[3];
                    fw_card_str(tc.card, name);
                    std::printf("scene %u: a face too many at %.0f,%.0f, "
                                "on %s (%s)\n",
                                seed + (unsigned)sc,
                                (double)obs[i].corners[0][0],
                                (double)obs[i].corners[0][1], name,
                                obs[i].card == FW_CARD_NONE ? "unread"
                                                            : "read");
                }
                break;
            }
            if (again) {
                twice++;
                if (verbose) {
                    char name[3];
                    fw_card_str(obs[i].card, name);
                    std::printf("scene %u: %s reported twice\n",
                                seed + (unsigned)sc, name);
                }
            }
        }
        if (must_down + may_down > 0 || det_down > 0) {
            down_scenes++;
            bool exact = det_down >= must_down &&
                         det_down <= must_down + may_down;
            down_exact += exact;
            if (!exact && verbose)
                std::printf("scene %u: %d backs counted, %d (+%d) in view\n",
                            seed + (unsigned)sc, det_down, must_down,
                            may_down);
            if (!exact)
                count_down_errors(truth, obs, n, match, used, BACK_ON,
                                  verbose ? seed + (unsigned)sc : 0,
                                  verbose ? fw_sim_deck_name(scene.deck)
                                          : nullptr,
                                  downs);
        }
        if (dump) {
            cv::Mat m(img.height, img.width, CV_8UC3, img.bgr,
                      (size_t)img.stride);
            char path[1024];
            std::snprintf(path, sizeof path, "%s/scene%u_raw.png", dump,
                          seed + (unsigned)sc);
            cv::imwrite(path, m);
            cv::Mat d = m.clone();
            for (int i = 0; i < n; i++) {
                std::vector<cv::Point> p;
                for (int k = 0; k < 4; k++)
                    p.emplace_back((int)obs[i].corners[k][0],
                                   (int)obs[i].corners[k][1]);
                cv::polylines(d, p, true,
                              obs[i].face_up ? cv::Scalar(0, 255, 255)
                                             : cv::Scalar(255, 0, 255),
                              2);
                char name[3] = "--";
                if (obs[i].card != FW_CARD_NONE)
                    fw_card_str(obs[i].card, name);
                cv::putText(d, name, p[0] + cv::Point(4, 16),
                            cv::FONT_HERSHEY_SIMPLEX, 0.6,
                            cv::Scalar(0, 0, 255), 2);
            }
            /* the cards not read right, as they truly lie (thin red),
             * named at their corner 2 */
            for (int t = 0; t < truth.ncards; t++) {
                const fw_sim_truth_card &tc = truth.cards[t];
                if (!tc.face_up || !tc.index_visible ||
                    (match[t] >= 0 && obs[match[t]].card == tc.card))
                    continue;
                std::vector<cv::Point> p;
                for (int k = 0; k < 4; k++)
                    p.emplace_back((int)tc.corners[k][0],
                                   (int)tc.corners[k][1]);
                cv::polylines(d, p, true, cv::Scalar(0, 0, 255), 1);
                char name[3] = "--";
                fw_card_str(tc.card, name);
                cv::putText(d, name, p[2] + cv::Point(4, 0),
                            cv::FONT_HERSHEY_SIMPLEX, 0.5,
                            cv::Scalar(0, 0, 255), 1);
            }
            std::snprintf(path, sizeof path, "%s/scene%u.png", dump,
                          seed + (unsigned)sc);
            cv::imwrite(path, d);
        }
        fw_vision_image_free(&img);
    }
    if (dump && !misread.empty()) {
        const int cols = 4;
        cv::Size cell = misread[0].size();
        int rows = ((int)misread.size() + cols - 1) / cols;
        cv::Mat g(rows * cell.height, cols * cell.width, CV_8UC3,
                  cv::Scalar(0, 0, 0));
        for (size_t i = 0; i < misread.size(); i++)
            if (misread[i].size() == cell)
                misread[i].copyTo(g(cv::Rect((int)(i % cols) * cell.width,
                                             (int)(i / cols) * cell.height,
                                             cell.width, cell.height)));
        cv::imwrite(std::string(dump) + "/misread.png", g);
    }
    std::printf("scenes %ld (%s decks, %s)\n", images,
                held == 1 ? "held-out" : held == 0 ? "training" : "all",
                hard ? "hard" : "easy");
    std::printf("cards read right:   %ld/%ld = %.2f%% (rank right %.2f%%; "
                "found %.2f%% of them)\n",
                read_right, readable,
                readable ? 100.0 * read_right / readable : 0.0,
                readable ? 100.0 * rank_right / readable : 0.0,
                readable ? 100.0 * read_detected / readable : 0.0);
    std::printf("wrong cards:        %ld reported (%ld with confidence "
                ">= 0.6)\n",
                wrong, wrong_sure);
    std::printf("face-down counted:  %ld/%ld scenes exact = %.2f%%\n",
                down_exact, down_scenes,
                down_scenes ? 100.0 * down_exact / down_scenes : 100.0);
    std::printf("  in those not exact: backs not found %ld (%ld taken for "
                "faces); face-down detections matched to no card: %ld on a "
                "back found again, %ld on a face, %ld on neither\n",
                downs.missed, downs.taken_up, downs.on_back, downs.on_face,
                downs.on_neither);
    std::printf("false cards:        %ld = %.2f per 100 images\n",
                false_cards, images ? 100.0 * false_cards / images : 0.0);
    std::printf("cards read twice:   %ld (a card reported by two "
                "detections)\n",
                twice);
    std::printf("faces too many:     %ld (face-up detections matched to no "
                "card, on a face found; %ld unread)\n",
                faces_again, faces_again_unread);
    std::printf("cards not in scene: %ld reported (%ld with confidence "
                ">= 0.6) by detections matched to no card\n",
                strangers, strangers_sure);
    std::printf("cards found:        %ld/%ld = %.2f%% (half seen or more)\n",
                found, findable, findable ? 100.0 * found / findable : 0.0);
    std::printf("what shows:         %ld/%ld cards found under others "
                "report it (box IoU >= 0.5; their whole box %ld); %ld/%ld "
                "cards nothing lies over report a card over them (%ld their box "
                "lost)\n",
                under_shows, under_n, under_quad, top_wrong, top_n, top_lost);
    std::printf("mean %.2f ms per image; %ld of the images seen through "
                "the table's flat view\n",
                images ? ms / images : 0.0, seen_flat);
    for (int d = 0; d < fw_sim_deck_count(); d++)
        if (deck_read[d])
            std::printf("  %-28s %5.1f%% of %ld\n", fw_sim_deck_name(d),
                        100.0 * deck_right[d] / deck_read[d], deck_read[d]);
    std::printf("not read right: %ld not found, %ld taken for backs, "
                "%ld unread (%ld with a good quad), %ld read wrong (%ld "
                "with a good quad)\n",
                miss_unfound, miss_down, miss_unread[0] + miss_unread[1],
                miss_unread[1], miss_wrong[0] + miss_wrong[1], miss_wrong[1]);
    for (int d = 0; d < fw_sim_deck_count(); d++)
        if (deck_unread_good[d])
            std::printf("  unread with a good quad, %-28s %ld\n",
                        fw_sim_deck_name(d), deck_unread_good[d]);
    std::printf("cards reported by confidence (right / wrong):\n");
    for (int b = 0; b < NCONF; b++)
        if (conf_right[b] + conf_wrong[b])
            std::printf("  %.2f-%.2f %5ld / %ld\n", conf_edge[b],
                        std::min(1.0, conf_edge[b + 1]), conf_right[b],
                        conf_wrong[b]);
    std::printf("read right by card height (image px):\n");
    for (int b = 0; b < NBANDS; b++)
        if (band_n[b])
            std::printf("  %4.0f-%-4.0f %6.2f%% of %4ld (%6.2f%% of the %4ld "
                        "found), wrong %ld (sure %ld)\n",
                        band_edge[b], b + 1 < NBANDS && band_edge[b + 1] < 1e8
                                          ? band_edge[b + 1]
                                          : 9999.0,
                        100.0 * band_right[b] / band_n[b], band_n[b],
                        band_found[b] ? 100.0 * band_right[b] / band_found[b]
                                      : 0.0,
                        band_found[b], band_wrong[b], band_sure[b]);
    fw_vision_free(v);
    fw_sim_free(sim);
    return 0;
}
