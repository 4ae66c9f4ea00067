/*
 * eval_cards.cpp - the detector over rendered scenes with ground truth.
 *
 * usage: eval_cards [--scenes N] [--seed S] [--held-out 1|0|-1] [--hard]
 *                   [--size WxH] [--cards LO HI] [--cache DIR] [--dump DIR]
 *                   [--verbose]
 *
 * Renders N random scenes (sim.h) from decks of the held-out families (the
 * default), runs fw_vision_detect_cards() on each and prints:
 *  - cards read: face-up cards with a whole corner index in view whose rank
 *    and suit are reported right (a miss counts as wrong);
 *  - face-down counts: scenes whose number of face-down detections equals
 *    the number of backs in view (a back at least a quarter seen must be
 *    counted; one seen less may be counted or not);
 *  - false cards: detections that overlap no card at all, per 100 images;
 *  - cards found: cards at least half seen that a detection covers (quad
 *    IoU >= 0.5), and the mean time per image.
 */
#include "sim.h"
#include "vision.h"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <chrono>
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

} // namespace

int main(int argc, char **argv)
{
    int scenes = 200, held = 1, hard = 0, w = 1280, h = 720, lo = 1, hi = 15;
    int verbose = 0;
    unsigned seed = 1000;
    const char *cache = nullptr, *dump = nullptr;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        bool more = i + 1 < argc;
        if (a == "--scenes" && more)
            scenes = std::atoi(argv[++i]);
        else if (a == "--seed" && more)
            seed = (unsigned)std::strtoul(argv[++i], nullptr, 10);
        else if (a == "--held-out" && more)
            held = std::atoi(argv[++i]);
        else if (a == "--hard")
            hard = 1;
        else if (a == "--size" && more)
            std::sscanf(argv[++i], "%dx%d", &w, &h);
        else if (a == "--cards" && i + 2 < argc) {
            lo = std::atoi(argv[++i]);
            hi = std::atoi(argv[++i]);
        } else if (a == "--cache" && more)
            cache = argv[++i];
        else if (a == "--dump" && more)
            dump = argv[++i];
        else if (a == "--verbose")
            verbose = 1;
        else {
            std::fprintf(stderr, "usage: eval_cards [--scenes N] [--seed S] "
                                 "[--held-out 1|0|-1] [--hard] [--size WxH] "
                                 "[--cards LO HI] [--cache DIR] [--dump DIR] "
                                 "[--verbose]\n");
            return 2;
        }
    }
    fw_sim *sim = nullptr;
    fw_vision *v = nullptr;
    if (fw_sim_new(cache, &sim) != FW_OK || fw_vision_new(&v) != FW_OK) {
        std::fprintf(stderr, "eval_cards: %s\n", fw_last_error());
        return 1;
    }
    long readable = 0, read_right = 0, read_detected = 0, down_scenes = 0,
         down_exact = 0, false_cards = 0, findable = 0, found = 0, images = 0;
    long rank_right = 0;
    double ms = 0;
    std::vector<long> deck_read(fw_sim_deck_count()),
        deck_right(fw_sim_deck_count());
    for (int sc = 0; sc < scenes; sc++) {
        fw_sim_random_opts o;
        std::memset(&o, 0, sizeof o);
        o.width = w;
        o.height = h;
        o.any_deck = 1;
        o.held_out = held;
        o.min_cards = lo;
        o.max_cards = hi;
        o.table = -1;
        o.hard = hard;
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
        auto t0 = std::chrono::steady_clock::now();
        fw_vision_detect_cards(v, img.bgr, img.width, img.height, img.stride,
                               obs, 64, &n);
        ms += std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - t0)
                  .count();
        images++;
        /* match each truth card to the detection of best IoU */
        std::vector<int> match(truth.ncards, -1);
        std::vector<int> used(n, 0);
        for (int t = 0; t < truth.ncards; t++) {
            double best = 0.5;
            for (int i = 0; i < n; i++) {
                if (used[i])
                    continue;
                double u = quad_iou(truth.cards[t].corners, obs[i].corners);
                if (u >= best) {
                    best = u;
                    match[t] = i;
                }
            }
            if (match[t] >= 0)
                used[match[t]] = 1;
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
                rank_right += match[t] >= 0 &&
                              obs[match[t]].card != FW_CARD_NONE &&
                              fw_card_rank(obs[match[t]].card) ==
                                  fw_card_rank(tc.card);
                if (!ok && verbose) {
                    char a[3] = "--", b[3] = "--";
                    fw_card_str(tc.card, a);
                    if (match[t] >= 0 && obs[match[t]].card != FW_CARD_NONE)
                        fw_card_str(obs[match[t]].card, b);
                    std::printf("scene %u %s: %s read as %s%s\n",
                                seed + (unsigned)sc,
                                fw_sim_deck_name(scene.deck), a, b,
                                match[t] < 0 ? " (not found)" : "");
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
        }
        if (dump) {
            cv::Mat m(img.height, img.width, CV_8UC3, img.bgr,
                      (size_t)img.stride);
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
            char path[1024];
            std::snprintf(path, sizeof path, "%s/scene%u.jpg", dump,
                          seed + (unsigned)sc);
            cv::imwrite(path, d);
        }
        fw_vision_image_free(&img);
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
    std::printf("face-down counted:  %ld/%ld scenes exact = %.2f%%\n",
                down_exact, down_scenes,
                down_scenes ? 100.0 * down_exact / down_scenes : 100.0);
    std::printf("false cards:        %ld = %.2f per 100 images\n",
                false_cards, images ? 100.0 * false_cards / images : 0.0);
    std::printf("cards found:        %ld/%ld = %.2f%% (half seen or more)\n",
                found, findable, findable ? 100.0 * found / findable : 0.0);
    std::printf("mean %.2f ms per image\n", images ? ms / images : 0.0);
    for (int d = 0; d < fw_sim_deck_count(); d++)
        if (deck_read[d])
            std::printf("  %-28s %5.1f%% of %ld\n", fw_sim_deck_name(d),
                        100.0 * deck_right[d] / deck_read[d], deck_read[d]);
    fw_vision_free(v);
    fw_sim_free(sim);
    return 0;
}
