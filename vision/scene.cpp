/*
 * scene.cpp - synthetic table scenes for the tests and the benchmark
 * (fw_vision_render_scene in vision.h).
 */
#include "vision.h"

#include "sim.h"
#include "sim_int.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <mutex>
#include <random>

namespace {

/* The canonical card these scenes draw (the fallback art's size). */
constexpr int CARD_W = 200, CARD_H = 280;

/*
 * A card of the Debian art at CARD_W x CARD_H with its alpha, from one
 * simulator shared by the process (art cached under the default cache,
 * sim.h). deck 0 is the default deck, d > 0 the simulator's deck d - 1.
 * False when the art is not installed or cannot be rendered: the caller
 * draws its own.
 */
bool art_card(int deck, int card, cv::Mat &img, cv::Mat &alpha)
{
    static std::mutex mu;
    static fw_sim *sim;
    static bool failed;
    std::lock_guard<std::mutex> lock(mu);
    if (failed)
        return false;
    int d = deck > 0 ? deck - 1 : fw_sim_deck_find("kde-standard");
    if (d < 0 || !fw_sim_deck_installed(d))
        return false;
    try {
        if (!sim && fw_sim_new(nullptr, &sim) != FW_OK) {
            failed = true;
            return false;
        }
        const cv::Mat &a = fwsim::deck_art(sim, d)[card];
        cv::Mat r;
        cv::resize(a, r, cv::Size(CARD_W, CARD_H), 0, 0, cv::INTER_AREA);
        std::vector<cv::Mat> ch;
        cv::split(r, ch);
        alpha = ch[3];
        ch.pop_back();
        cv::merge(ch, img);
        return true;
    } catch (const std::exception &) {
        failed = true; /* e.g. an unwritable cache: draw our own */
        return false;
    }
}

void draw_suit(cv::Mat &c, int suit, cv::Point o, int s, cv::Scalar col)
{
    switch (suit) {
    case 0: /* club: three circles and a stem */
        cv::circle(c, o + cv::Point(s / 2, s / 4), s / 4, col, -1);
        cv::circle(c, o + cv::Point(s / 4, s / 2), s / 4, col, -1);
        cv::circle(c, o + cv::Point(3 * s / 4, s / 2), s / 4, col, -1);
        cv::rectangle(c, o + cv::Point(s / 2 - 1, s / 2),
                      o + cv::Point(s / 2 + 1, s), col, -1);
        break;
    case 1: { /* diamond */
        std::vector<cv::Point> p{o + cv::Point(s / 2, 0), o + cv::Point(s, s / 2),
                                 o + cv::Point(s / 2, s), o + cv::Point(0, s / 2)};
        cv::fillConvexPoly(c, p, col);
        break;
    }
    case 2: { /* heart */
        cv::circle(c, o + cv::Point(s / 4, s / 3), s / 4, col, -1);
        cv::circle(c, o + cv::Point(3 * s / 4, s / 3), s / 4, col, -1);
        std::vector<cv::Point> p{o + cv::Point(0, s / 3), o + cv::Point(s, s / 3),
                                 o + cv::Point(s / 2, s)};
        cv::fillConvexPoly(c, p, col);
        break;
    }
    default: { /* spade */
        std::vector<cv::Point> p{o + cv::Point(s / 2, 0), o + cv::Point(s, 2 * s / 3),
                                 o + cv::Point(0, 2 * s / 3)};
        cv::fillConvexPoly(c, p, col);
        cv::circle(c, o + cv::Point(s / 4, 2 * s / 3), s / 4, col, -1);
        cv::circle(c, o + cv::Point(3 * s / 4, 2 * s / 3), s / 4, col, -1);
        cv::rectangle(c, o + cv::Point(s / 2 - 1, s / 2),
                      o + cv::Point(s / 2 + 1, s), col, -1);
        break;
    }
    }
}

/* One upright CARD_WxCARD_H face (or back) with alpha for its rounded
 * corners. */
void draw_card(const fw_vision *v, int deck, fw_card card, bool up,
               cv::Mat &img, cv::Mat &alpha)
{
    (void)v;
    if (art_card(deck, up ? card : 52, img, alpha))
        return;
    img = cv::Mat(CARD_H, CARD_W, CV_8UC3, cv::Scalar(245, 245, 245));
    alpha = cv::Mat::zeros(CARD_H, CARD_W, CV_8U);
    int rad = 14;
    cv::rectangle(alpha, cv::Rect(rad, 0, CARD_W - 2 * rad, CARD_H), 255, -1);
    cv::rectangle(alpha, cv::Rect(0, rad, CARD_W, CARD_H - 2 * rad), 255, -1);
    for (cv::Point p : {cv::Point(rad, rad), cv::Point(CARD_W - rad - 1, rad),
                        cv::Point(rad, CARD_H - rad - 1),
                        cv::Point(CARD_W - rad - 1, CARD_H - rad - 1)})
        cv::circle(alpha, p, rad, 255, -1);
    if (!up) {
        cv::rectangle(img, cv::Rect(10, 10, CARD_W - 20, CARD_H - 20),
                      cv::Scalar(140, 40, 30), -1);
        for (int k = -CARD_H; k < CARD_W; k += 14)
            cv::line(img, cv::Point(k, 0), cv::Point(k + CARD_H, CARD_H),
                     cv::Scalar(200, 90, 70), 3);
        cv::rectangle(img, cv::Rect(0, 0, CARD_W, 10), cv::Scalar(245, 245, 245),
                      -1);
        cv::rectangle(img, cv::Rect(0, CARD_H - 10, CARD_W, 10),
                      cv::Scalar(245, 245, 245), -1);
        cv::rectangle(img, cv::Rect(0, 0, 10, CARD_H), cv::Scalar(245, 245, 245),
                      -1);
        cv::rectangle(img, cv::Rect(CARD_W - 10, 0, 10, CARD_H),
                      cv::Scalar(245, 245, 245), -1);
        return;
    }
    int rank = fw_card_rank(card), suit = fw_card_suit(card);
    cv::Scalar col = (suit == 1 || suit == 2) ? cv::Scalar(30, 30, 200)
                                              : cv::Scalar(20, 20, 20);
    cv::Mat half(CARD_H, CARD_W, CV_8UC3, cv::Scalar(245, 245, 245));
    {
        static const char *names[] = {"2", "3", "4", "5", "6", "7", "8",
                                      "9", "10", "J", "Q", "K", "A"};
        cv::putText(half, names[rank], cv::Point(8, 38),
                    cv::FONT_HERSHEY_SIMPLEX, rank == 8 ? 0.8 : 1.0, col, 3);
        draw_suit(half, suit, cv::Point(10, 48), 20, col);
    }
    /* the centre pip: a big suit */
    draw_suit(half, suit, cv::Point(CARD_W / 2 - 30, CARD_H / 2 - 30), 60, col);
    cv::Mat rot;
    cv::rotate(half, rot, cv::ROTATE_180);
    img = half.clone();
    rot(cv::Rect(CARD_W / 2, CARD_H / 2, CARD_W / 2, CARD_H / 2))
        .copyTo(img(cv::Rect(CARD_W / 2, CARD_H / 2, CARD_W / 2, CARD_H / 2)));
    /* keep the centre pip whole */
    draw_suit(img, suit, cv::Point(CARD_W / 2 - 30, CARD_H / 2 - 30), 60, col);
}

} // namespace

extern "C" int fw_vision_render_scene(uint8_t *bgr, int width, int height,
                                      const uint8_t felt_bgr[3],
                                      const fw_vision *glyphs, int deck,
                                      const fw_card *cards, int n, int n_down,
                                      unsigned seed,
                                      float (*corners_out)[4][2])
{
    if (!bgr || width < 64 || height < 64 || !felt_bgr || n < 0 ||
        n_down < 0 || (n > 0 && !cards))
        return fw_set_error(FW_EINVAL, "fw_vision_render_scene: bad args");
    try {
        cv::Mat scene(height, width, CV_8UC3, bgr);
        scene.setTo(cv::Scalar(felt_bgr[0], felt_bgr[1], felt_bgr[2]));
        std::mt19937 rng(seed);
        /* a little felt texture */
        cv::Mat noise(height, width, CV_8UC3);
        cv::randn(noise, 0, 6);
        scene += noise;
        int total = n + n_down, placed = 0;
        /* card size: the cards cover ~16% of the frame, so their circumscribed
         * circles can be placed without overlap */
        double card_h = std::sqrt(0.16 * width * height /
                                  std::max(1, total) / 0.714);
        card_h = std::min(card_h, 0.45 * std::min(width, height) / 0.9);
        std::vector<cv::RotatedRect> used;
        std::uniform_real_distribution<double> U(0, 1);
        for (int i = 0; i < total; i++) {
            bool up = i < n;
            cv::Mat img, alpha;
            draw_card(glyphs, deck, up ? cards[i] : FW_CARD_NONE, up, img,
                      alpha);
            for (int tries = 0; tries < 1000; tries++) {
                double h = card_h * (0.9 + 0.2 * U(rng));
                double w = h * CARD_W / CARD_H;
                double ang = U(rng) * 360;
                double r = 0.5 * std::hypot(w, h) + 2;
                if (2 * r >= width || 2 * r >= height)
                    break;
                cv::Point2f c((float)(r + U(rng) * (width - 2 * r)),
                              (float)(r + U(rng) * (height - 2 * r)));
                cv::RotatedRect rr(c, cv::Size2f((float)w, (float)h),
                                   (float)ang);
                bool clash = false;
                for (const cv::RotatedRect &o : used) {
                    double d = cv::norm(o.center - rr.center);
                    if (d < 0.5 * (std::hypot(o.size.width, o.size.height) +
                                   std::hypot(w, h)) + 6) {
                        clash = true;
                        break;
                    }
                }
                if (clash)
                    continue;
                used.push_back(rr);
                /* card top-left, top-right, bottom-right, bottom-left */
                double a = ang * CV_PI / 180, ca = std::cos(a), sa = std::sin(a);
                cv::Point2f q[4];
                const double dx[4] = {-w / 2, w / 2, w / 2, -w / 2};
                const double dy[4] = {-h / 2, -h / 2, h / 2, h / 2};
                for (int k = 0; k < 4; k++)
                    q[k] = c + cv::Point2f((float)(dx[k] * ca - dy[k] * sa),
                                           (float)(dx[k] * sa + dy[k] * ca));
                cv::Point2f src[4] = {{0, 0},
                                      {(float)CARD_W, 0},
                                      {(float)CARD_W, (float)CARD_H},
                                      {0, (float)CARD_H}};
                cv::Mat M = cv::getPerspectiveTransform(src, q);
                cv::Mat wi, wa;
                cv::warpPerspective(img, wi, M, scene.size(), cv::INTER_LINEAR,
                                    cv::BORDER_CONSTANT);
                cv::warpPerspective(alpha, wa, M, scene.size(),
                                    cv::INTER_LINEAR, cv::BORDER_CONSTANT);
                /* a soft shadow, then the card */
                cv::Mat sh;
                cv::GaussianBlur(wa, sh, cv::Size(9, 9), 0);
                cv::Mat shadow3;
                cv::cvtColor(sh, shadow3, cv::COLOR_GRAY2BGR);
                cv::Mat sf, af;
                scene.convertTo(sf, CV_32FC3);
                shadow3.convertTo(af, CV_32FC3, 0.35 / 255);
                sf = sf.mul(cv::Scalar(1, 1, 1) - af);
                cv::Mat a3, wf;
                cv::cvtColor(wa, a3, cv::COLOR_GRAY2BGR);
                a3.convertTo(af, CV_32FC3, 1.0 / 255);
                wi.convertTo(wf, CV_32FC3);
                sf = sf.mul(cv::Scalar(1, 1, 1) - af) + wf.mul(af);
                sf.convertTo(scene, CV_8UC3);
                if (corners_out)
                    for (int k = 0; k < 4; k++) {
                        corners_out[placed][k][0] = q[k].x;
                        corners_out[placed][k][1] = q[k].y;
                    }
                placed++;
                break;
            }
        }
        return placed;
    } catch (const std::exception &e) {
        return fw_set_error(FW_EINTERNAL, "fw_vision_render_scene: %s",
                            e.what());
    } catch (...) {
        return fw_set_error(FW_EINTERNAL, "fw_vision_render_scene: unknown");
    }
}

extern "C" int fw_vision_render_card(uint8_t *bgr, int width, int height,
                                     int stride, const fw_vision *glyphs,
                                     int deck, fw_card card, int face_up,
                                     const float corners[4][2])
{
    if (!bgr || width < 1 || height < 1 || stride < width * 3 || !corners ||
        (face_up && (card == FW_CARD_NONE || card >= 52)))
        return fw_set_error(FW_EINVAL, "fw_vision_render_card: bad args");
    try {
        cv::Mat scene(height, width, CV_8UC3, bgr, (size_t)stride);
        cv::Mat img, alpha;
        draw_card(glyphs, deck, face_up ? card : FW_CARD_NONE, face_up != 0,
                  img, alpha);
        /* work only in the card's bounding box (plus the shadow's margin) */
        float x0 = corners[0][0], x1 = x0, y0 = corners[0][1], y1 = y0;
        for (int k = 1; k < 4; k++) {
            x0 = std::min(x0, corners[k][0]);
            x1 = std::max(x1, corners[k][0]);
            y0 = std::min(y0, corners[k][1]);
            y1 = std::max(y1, corners[k][1]);
        }
        cv::Rect box((int)std::floor(x0) - 6, (int)std::floor(y0) - 6,
                     (int)std::ceil(x1 - x0) + 13,
                     (int)std::ceil(y1 - y0) + 13);
        box &= cv::Rect(0, 0, width, height);
        if (box.width <= 0 || box.height <= 0)
            return FW_OK; /* off the frame */
        cv::Point2f src[4] = {{0, 0},
                              {(float)CARD_W, 0},
                              {(float)CARD_W, (float)CARD_H},
                              {0, (float)CARD_H}};
        cv::Point2f q[4];
        for (int k = 0; k < 4; k++)
            q[k] = cv::Point2f(corners[k][0] - (float)box.x,
                               corners[k][1] - (float)box.y);
        /* corners given anticlockwise (as seen in the image) would print
         * the card mirrored: print it the right way round over the same
         * place, its top side still the side from corner 0 to corner 1 */
        double turn = 0;
        for (int k = 0; k < 4; k++)
            turn += (double)q[k].x * q[(k + 1) % 4].y -
                    (double)q[(k + 1) % 4].x * q[k].y;
        if (turn < 0) {
            std::swap(q[0], q[1]);
            std::swap(q[2], q[3]);
        }
        cv::Mat M = cv::getPerspectiveTransform(src, q);
        cv::Mat roi = scene(box);
        cv::Mat wi, wa;
        cv::warpPerspective(img, wi, M, box.size(), cv::INTER_LINEAR,
                            cv::BORDER_CONSTANT);
        cv::warpPerspective(alpha, wa, M, box.size(), cv::INTER_LINEAR,
                            cv::BORDER_CONSTANT);
        cv::Mat sh, shadow3, sf, af, a3, wf;
        cv::GaussianBlur(wa, sh, cv::Size(9, 9), 0);
        cv::cvtColor(sh, shadow3, cv::COLOR_GRAY2BGR);
        roi.convertTo(sf, CV_32FC3);
        shadow3.convertTo(af, CV_32FC3, 0.35 / 255);
        sf = sf.mul(cv::Scalar(1, 1, 1) - af);
        cv::cvtColor(wa, a3, cv::COLOR_GRAY2BGR);
        a3.convertTo(af, CV_32FC3, 1.0 / 255);
        wi.convertTo(wf, CV_32FC3);
        sf = sf.mul(cv::Scalar(1, 1, 1) - af) + wf.mul(af);
        sf.convertTo(roi, CV_8UC3); /* roi shares the caller's pixels */
        return FW_OK;
    } catch (const std::exception &e) {
        return fw_set_error(FW_EINTERNAL, "fw_vision_render_card: %s",
                            e.what());
    } catch (...) {
        return fw_set_error(FW_EINTERNAL, "fw_vision_render_card: unknown");
    }
}
