/*
 * test_flat_view.cpp - vision/flat_view.h: the table's flat view found
 * from the cards on it.
 *
 * Cards are laid on a table plane at random places and turns, and seen
 * through a camera tilted as the simulator tilts it (a rotation about an
 * axis in the table's plane); the view found must make them rectangles of
 * one size again. A camera straight above gives a view that needs no
 * second look; too few cards, or cards of no one shape, give none.
 */
#include "harness.h"

#include "flat_view.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <cmath>
#include <vector>

namespace {

constexpr int W = 1280, H = 720;

/* The simulator's camera (sim.cpp camera()): a rotation by tilt degrees
 * about the axis at dir degrees in the table's plane, the frame's middle
 * kept in place. */
cv::Matx33d tilted(double tilt, double dir)
{
    const double f = W, t = tilt * CV_PI / 180, d = dir * CV_PI / 180;
    const double ux = std::cos(d), uy = std::sin(d), ct = std::cos(t),
                 st = std::sin(t);
    const cv::Matx33d R(ct + ux * ux * (1 - ct), ux * uy * (1 - ct), uy * st,
                        ux * uy * (1 - ct), ct + uy * uy * (1 - ct), -ux * st,
                        -uy * st, ux * st, ct);
    const cv::Matx33d K(f, 0, W * 0.5, 0, f, H * 0.5, 0, 0, 1);
    const cv::Matx33d h = K * R * K.inv();
    const cv::Point2f m = fwv::through(h, cv::Point2f(W * 0.5f, H * 0.5f));
    const cv::Matx33d back(1, 0, W * 0.5 - m.x, 0, 1, H * 0.5 - m.y, 0, 0, 1);
    return back * h;
}

/* n cards of 100 x 140 table pixels (aspect 1.4), at random places and
 * turns within the frame's middle, seen through camera. */
std::vector<fwv::Quad> cards_seen(const cv::Matx33d &camera, int n,
                                  uint64_t seed, double aspect = 1.4)
{
    cv::RNG rng(seed);
    std::vector<fwv::Quad> out;
    for (int i = 0; i < n; i++) {
        const cv::Point2f c((float)rng.uniform(200.0, W - 200.0),
                            (float)rng.uniform(150.0, H - 150.0));
        const double a = rng.uniform(0.0, CV_PI);
        const cv::Point2f u((float)std::cos(a), (float)std::sin(a)),
            v(-u.y, u.x);
        const float hw = 50, hh = (float)(50 * aspect);
        fwv::Quad q = {c - hw * u - hh * v, c + hw * u - hh * v,
                       c + hw * u + hh * v, c - hw * u + hh * v};
        for (cv::Point2f &p : q)
            p = fwv::through(camera, p);
        out.push_back(q);
    }
    return out;
}

double side(cv::Point2f a, cv::Point2f b)
{
    return std::hypot((double)(b.x - a.x), (double)(b.y - a.y));
}

/* The worst corner's departure from square (degrees) and the largest
 * card's area over the smallest's, of quads seen through view. */
void flatness(const std::vector<fwv::Quad> &quads, const cv::Matx33d &view,
              double &worst_angle, double &area_spread)
{
    worst_angle = 0;
    double lo = HUGE_VAL, hi = 0;
    for (const fwv::Quad &q : quads) {
        cv::Point2f m[4];
        for (int k = 0; k < 4; k++)
            m[k] = fwv::through(view, q[(size_t)k]);
        for (int k = 0; k < 4; k++) {
            const cv::Point2f a = m[(k + 3) % 4] - m[k],
                              b = m[(k + 1) % 4] - m[k];
            const double c = (a.x * b.x + a.y * b.y) /
                             (std::hypot(a.x, a.y) * std::hypot(b.x, b.y));
            worst_angle =
                std::max(worst_angle, std::fabs(std::acos(c) * 180 / CV_PI - 90));
        }
        const double area = side(m[0], m[1]) * side(m[1], m[2]);
        lo = std::min(lo, area);
        hi = std::max(hi, area);
    }
    area_spread = hi / lo;
}

} // namespace

/* Cameras tilted 15 to 30 degrees every way: the view found squares
 * every card's corners to within a degree and makes their areas agree to
 * within 3%, where the frame as seen departs by several degrees and its
 * cards' areas by a third or more. */
TEST(tilted_camera_seen_flat)
{
    for (int i = 0; i < 12; i++) {
        const double tilt = 15 + 15.0 * (i % 4) / 3, dir = 30.0 * i;
        const cv::Matx33d camera = tilted(tilt, dir);
        const std::vector<fwv::Quad> quads = cards_seen(camera, 12, 100 + i);
        double angle0, spread0;
        flatness(quads, cv::Matx33d::eye(), angle0, spread0);
        fwv::FlatView view;
        ASSERT_TRUE(fwv::flat_view(quads, cv::Size(W, H), 0, view));
        ASSERT_INT_EQ(view.cards, 12);
        ASSERT_TRUE(std::fabs(view.aspect - 1.4) < 0.03);
        ASSERT_TRUE(view.stretch > 1.06 || view.spread > 1.2);
        double angle, spread;
        flatness(quads, view.to_flat, angle, spread);
        ASSERT_TRUE(angle < 1.0);
        ASSERT_TRUE(spread < 1.03);
        ASSERT_TRUE(spread0 > 1.3 || angle0 > 4);
        /* the whole frame lies in the flat image */
        const cv::Point2f corners[4] = {{0, 0}, {W, 0}, {W, H}, {0, H}};
        for (const cv::Point2f &p : corners) {
            const cv::Point2f m = fwv::through(view.to_flat, p);
            ASSERT_TRUE(m.x > -1 && m.y > -1 && m.x < view.size.width + 1 &&
                  m.y < view.size.height + 1);
        }
        ASSERT_TRUE((double)view.size.area() <= 1.6 * W * H + 2 * (W + H));
    }
}

/* Cards of a bridge deck (aspect 1.56) are found as such. */
TEST(deck_shape_found)
{
    const std::vector<fwv::Quad> quads =
        cards_seen(tilted(25, 70), 10, 7, 1.56);
    fwv::FlatView view;
    ASSERT_TRUE(fwv::flat_view(quads, cv::Size(W, H), 0, view));
    ASSERT_TRUE(std::fabs(view.aspect - 1.56) < 0.03);
}

/* A card found twice, a strip of a fanned card and a box of the wrong
 * shape are left out of the fit; the rest are still squared. */
TEST(odd_quads_left_out)
{
    const cv::Matx33d camera = tilted(28, 200);
    std::vector<fwv::Quad> quads = cards_seen(camera, 10, 11);
    std::vector<fwv::Quad> odd = cards_seen(camera, 3, 12, 0.6);
    for (fwv::Quad &q : odd) /* squashed: a strip of a card */
        quads.push_back(q);
    fwv::FlatView view;
    ASSERT_TRUE(fwv::flat_view(quads, cv::Size(W, H), 0, view));
    ASSERT_INT_EQ(view.cards, 10);
    double angle, spread;
    flatness(std::vector<fwv::Quad>(quads.begin(), quads.begin() + 10),
             view.to_flat, angle, spread);
    ASSERT_TRUE(angle < 1.0);
    ASSERT_TRUE(spread < 1.03);
}

/* A camera straight above: a fit, but no second look. */
TEST(camera_above_needs_no_view)
{
    const std::vector<fwv::Quad> quads = cards_seen(cv::Matx33d::eye(), 9, 5);
    fwv::FlatView view;
    ASSERT_TRUE(!fwv::flat_view(quads, cv::Size(W, H), 0, view));
    ASSERT_INT_EQ(view.cards, 9);
    ASSERT_TRUE(view.stretch < 1.02);
    ASSERT_TRUE(view.spread < 1.05);
}

/* Too few cards, cards of no one shape or size, quads with no area or
 * corners not finite: no view, and nothing thrown. */
TEST(no_view_from_too_little)
{
    const cv::Size frame(W, H);
    fwv::FlatView view;
    std::vector<fwv::Quad> few = cards_seen(tilted(30, 0), fwv::FLAT_LEAST - 1, 3);
    ASSERT_TRUE(!fwv::flat_view(few, frame, 0, view));
    ASSERT_INT_EQ(view.cards, 0);
    ASSERT_TRUE(!fwv::flat_view({}, frame, 0, view));

    cv::RNG rng(9);
    std::vector<fwv::Quad> junk;
    for (int i = 0; i < 12; i++) {
        fwv::Quad q;
        for (cv::Point2f &p : q)
            p = cv::Point2f((float)rng.uniform(0, W), (float)rng.uniform(0, H));
        junk.push_back(q);
    }
    ASSERT_TRUE(!fwv::flat_view(junk, frame, 0, view));

    std::vector<fwv::Quad> flat(6, fwv::Quad{cv::Point2f(5, 5), cv::Point2f(5, 5),
                                             cv::Point2f(5, 5), cv::Point2f(5, 5)});
    ASSERT_TRUE(!fwv::flat_view(flat, frame, 0, view));
    std::vector<fwv::Quad> nan = cards_seen(tilted(20, 0), 6, 4);
    nan[2][1].x = NAN;
    nan[4][0].y = INFINITY;
    fwv::flat_view(nan, frame, 0, view); /* either way, no crash */
    ASSERT_TRUE(!fwv::flat_view(few, cv::Size(0, 0), 0, view));
}

/* The warp through a view's maps gives what cv::warpPerspective() gives
 * with its border replicated, to the bit: through tilted views whose flat
 * image reaches far beyond the frame, a view turned upside down, frames of
 * odd and tiny sizes, and an image of one pixel. */
TEST(maps_warp_as_warp_perspective)
{
    cv::RNG rng(21);
    const cv::Size frames[] = {{W, H}, {333, 217}, {2, 3}};
    for (const cv::Size frame : frames) {
        cv::Mat src(frame, CV_8UC3);
        rng.fill(src, cv::RNG::UNIFORM, 0, 256);
        for (int i = 0; i < 4; i++) {
            const cv::Matx33d s(frame.width / (double)W, 0, 0, 0,
                                frame.height / (double)H, 0, 0, 0, 1);
            cv::Matx33d h = s * tilted(12 + 6 * i, 80.0 * i) * s.inv();
            if (i == 3)
                h = cv::Matx33d(-1, 0, frame.width, 0, -1.1, frame.height, 0,
                                0, 1) * h;
            const cv::Size sizes[] = {
                {frame.width * 5 / 4 + i, frame.height * 4 / 3}, {1, 1}};
            for (const cv::Size size : sizes) {
                cv::Mat want, xy, alpha, pad, got;
                cv::warpPerspective(src, want, h, size, cv::INTER_LINEAR,
                                    cv::BORDER_REPLICATE);
                fwv::flat_maps(h, frame, size, xy, alpha);
                cv::copyMakeBorder(src, pad, 1, 1, 1, 1, cv::BORDER_REPLICATE);
                cv::remap(pad, got, xy, alpha, cv::INTER_LINEAR,
                          cv::BORDER_REPLICATE);
                ASSERT_TRUE(got.size() == size);
                ASSERT_TRUE(cv::norm(want, got, cv::NORM_INF) == 0);
            }
        }
    }
}

/* A camera's cards seen again: through the same camera the view held is
 * kept; through a camera knocked another way, or turned to look straight
 * down, the camera has moved, and the fresh view squares the cards; a
 * camera that looked straight down and was turned to a slant has moved
 * too. Cards found so roughly that no view fits them, where the view
 * held explains them no better, say the view is lost. */
TEST(moved_camera_told)
{
    const cv::Size frame(W, H);
    const cv::Matx33d camera = tilted(22, 30);
    fwv::FlatView held, fresh;
    ASSERT_TRUE(fwv::flat_view(cards_seen(camera, 10, 1), frame, 0, held));

    bool through = fwv::flat_view(cards_seen(camera, 10, 2), frame, 0, fresh, &held);
    ASSERT_TRUE(through);
    ASSERT_TRUE(fwv::check_view(fresh, through) == fwv::ViewCheck::kept);
    ASSERT_TRUE(fresh.rms_held < 2 * fresh.rms + 0.005);

    const std::vector<fwv::Quad> knocked = cards_seen(tilted(22, 210), 10, 3);
    through = fwv::flat_view(knocked, frame, 0, fresh, &held);
    ASSERT_TRUE(through);
    ASSERT_TRUE(fwv::check_view(fresh, through) == fwv::ViewCheck::moved);
    double angle, spread;
    flatness(knocked, fresh.to_flat, angle, spread);
    ASSERT_TRUE(angle < 1.0 && spread < 1.03);

    const std::vector<fwv::Quad> above = cards_seen(cv::Matx33d::eye(), 10, 4);
    through = fwv::flat_view(above, frame, 0, fresh, &held);
    ASSERT_TRUE(!through);
    ASSERT_TRUE(fwv::check_view(fresh, through) == fwv::ViewCheck::moved);
    /* seen as they are, and still so */
    through = fwv::flat_view(above, frame, 0, fresh, nullptr);
    ASSERT_TRUE(fwv::check_view(fresh, through) == fwv::ViewCheck::kept);
    /* from straight down to a slant */
    through = fwv::flat_view(knocked, frame, 0, fresh, nullptr);
    ASSERT_TRUE(fwv::check_view(fresh, through) == fwv::ViewCheck::moved);

    /* corners found roughly, a twentieth of a card off, through a camera
     * knocked the other way */
    std::vector<fwv::Quad> rough = knocked;
    cv::RNG rng(5);
    for (fwv::Quad &q : rough)
        for (cv::Point2f &p : q)
            p += cv::Point2f((float)rng.gaussian(7), (float)rng.gaussian(7));
    through = fwv::flat_view(rough, frame, 0, fresh, &held);
    ASSERT_TRUE(!through);
    ASSERT_TRUE(fwv::check_view(fresh, through) == fwv::ViewCheck::lost);
}

static const fw_test_case cases[] = {
    TEST_CASE(tilted_camera_seen_flat),
    TEST_CASE(deck_shape_found),
    TEST_CASE(odd_quads_left_out),
    TEST_CASE(camera_above_needs_no_view),
    TEST_CASE(no_view_from_too_little),
    TEST_CASE(maps_warp_as_warp_perspective),
    TEST_CASE(moved_camera_told),
};
TEST_MAIN(cases)
