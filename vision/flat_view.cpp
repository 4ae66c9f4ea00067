/*
 * flat_view.cpp - the table seen from straight above (flat_view.h).
 *
 * The view is a homography of the frame, found by Levenberg-Marquardt
 * (OpenCV's cv::LMSolver) in four parameters, the frame's coordinates
 * taken about its middle in units of its long side:
 *
 *   the horizon:  (u, v) -> (u, v) / (1 + p1 u + p2 v)
 *   the stretch:  (u, v) -> (e^a u + b v, e^-a v)
 *
 * which together take any view of a plane to one seen square on, up to a
 * turn and a scale (the turn and the scale the fit has no need of). Two
 * more parameters are the cards' shape (the log of their long side over
 * their short one) and size (the log of their area's square root) as the
 * flat view sees them. Each card asks of the view: corners square (the
 * cosines of its four angles), opposite sides as long as each other, the
 * cards' shape and the cards' size. Weak priors keep the view near flat
 * and the shape near a poker deck's where the cards do not say.
 */
#include "flat_view.h"

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

namespace fwv {

namespace {

/* The view is worth a second look where it stretches the frame one way
 * over the other by FLAT_STRETCH, or its largest scale is FLAT_SPREAD
 * times its smallest (at the middle and the corners): a camera tilted by
 * about 12 degrees or more. eval_cards' six hard tuning sets (cameras
 * tilted 0 to 30 degrees) read and count as well with 1.06 and 1.2 as
 * with these, and its easy sets (0 to 10 degrees), seen through views
 * that mild, count a few scenes' backs worse. A view beyond
 * FLAT_STRETCH_MOST or FLAT_SPREAD_MOST is a fit gone wrong, not a
 * camera over a table. */
constexpr double FLAT_STRETCH = 1.12, FLAT_SPREAD = 1.6,
                 FLAT_STRETCH_MOST = 2.5, FLAT_SPREAD_MOST = 4;
/* The flat image holds the whole frame, at most FLAT_AREA_MOST times its
 * area. */
constexpr double FLAT_AREA_MOST = 1.6;
/* A poker deck's long side over its short one (88 mm over 63 mm): the
 * prior on the shape. */
constexpr double DECK_ASPECT = 1.4;
/* The priors' weights, against a card's residuals (cosines and logs). */
constexpr double PRIOR_VIEW = 0.05, PRIOR_SHAPE = 0.3;
/* A card is left out of the fit where its squared residuals sum to more
 * than FLAT_TRIM times the median card's (or than FLAT_FLOOR, whichever
 * is more). The kept cards' residuals must be FLAT_RMS or less (root mean
 * square), and FLAT_GAIN times less than the frame as it is gives them
 * (its cards' shape and size the best for it); FLAT_GAIN_FEW times less
 * where fewer than FLAT_MANY cards were kept. On eval_cards' hard scenes
 * (300 each of seeds 5000 and 14000) a camera tilted enough to matter
 * leaves 0.007 to 0.06 through its view, and mostly 1.5 to 13 times that
 * as it is; views that explain their cards less well than that still
 * help the hard scenes on the whole. Five cards fitted two views that
 * misled: the kiosk's camera straight over the table (test_kiosk's film,
 * two of the five fanned hole cards), 0.05 against 0.1, a view
 * stretching the frame by half; eval_cards' easy scene 9432 (a camera
 * tilted under 10 degrees, five backs fanned and stacked), 0.010 against
 * 0.028, a view that lost a back of it. */
constexpr double FLAT_TRIM = 4, FLAT_FLOOR = 8 * 0.03 * 0.03,
                 FLAT_RMS = 0.06, FLAT_GAIN = 1.2, FLAT_GAIN_FEW = 3;
constexpr int FLAT_MANY = 6;
/* A camera has moved where a fresh fit of its cards explains them this
 * many times better than the view held (flat_view.h check_view()): a
 * camera knocked by 10 degrees or more. A view fitted afresh to the same
 * camera's cards differs from the held one by what the cards found
 * differ (a camera tilted 20 degrees: 0.7 to 1.4 times its rms); the
 * margin keeps the view from swapping back and forth between fits. */
constexpr double FLAT_MOVED = 2;
constexpr int RESIDUALS = 8, PARAMS = 6, PRIORS = 5;

struct Normal {
    double cx, cy, f;
    cv::Point2d of(cv::Point2f p) const
    {
        return {(p.x - cx) / f, (p.y - cy) / f};
    }
};

/* (u, v) through the view x; false behind its horizon */
bool view_point(const double *x, cv::Point2d p, cv::Point2d &out)
{
    const double w = 1 + x[0] * p.x + x[1] * p.y;
    if (!(w > 1e-3))
        return false;
    const double u = p.x / w, v = p.y / w, e = std::exp(x[2]);
    out = {e * u + x[3] * v, v / e};
    return true;
}

double len(cv::Point2d d)
{
    return std::sqrt(d.x * d.x + d.y * d.y);
}

/* The area of quad m. */
double area_of(const cv::Point2d m[4])
{
    double a = 0;
    for (int k = 0; k < 4; k++)
        a += m[k].x * m[(k + 1) % 4].y - m[(k + 1) % 4].x * m[k].y;
    return std::fabs(a) * 0.5;
}

/* The residuals of one card (RESIDUALS) under the view x; false where a
 * corner lies behind the horizon or a side has no length. */
bool card_residuals(const double *x, const cv::Point2d q[4], double *r)
{
    cv::Point2d m[4], s[4];
    for (int k = 0; k < 4; k++)
        if (!view_point(x, q[k], m[k]))
            return false;
    double l[4];
    for (int k = 0; k < 4; k++) {
        s[k] = m[(k + 1) % 4] - m[k];
        l[k] = len(s[k]);
        if (!(l[k] > 1e-9))
            return false;
    }
    for (int k = 0; k < 4; k++) {
        const cv::Point2d a = s[(k + 3) % 4], b = s[k];
        r[k] = (a.x * b.x + a.y * b.y) / (l[(k + 3) % 4] * l[k]);
    }
    r[4] = std::log(l[0] / l[2]);
    r[5] = std::log(l[1] / l[3]);
    r[6] = std::fabs(std::log((l[0] + l[2]) / (l[1] + l[3]))) - x[4];
    const double area = area_of(m);
    if (!(area > 1e-12))
        return false;
    r[7] = 0.5 * std::log(area) - x[5];
    return true;
}

class Fit : public cv::LMSolver::Callback {
  public:
    Fit(const std::vector<std::array<cv::Point2d, 4>> &q,
        const std::vector<char> &use)
        : q_(q), use_(use)
    {
    }

    /* every residual of the view x into r (cards left out give zeros) */
    bool residuals(const double *x, double *r) const
    {
        for (size_t i = 0; i < q_.size(); i++) {
            double *ri = r + i * RESIDUALS;
            if (!use_[i]) {
                std::fill(ri, ri + RESIDUALS, 0.0);
                continue;
            }
            if (!card_residuals(x, q_[i].data(), ri))
                return false;
        }
        double *p = r + q_.size() * RESIDUALS;
        p[0] = PRIOR_VIEW * x[0];
        p[1] = PRIOR_VIEW * x[1];
        p[2] = PRIOR_VIEW * x[2];
        p[3] = PRIOR_VIEW * x[3];
        p[4] = PRIOR_SHAPE * (x[4] - std::log(DECK_ASPECT));
        return true;
    }

    int count() const
    {
        return (int)q_.size() * RESIDUALS + PRIORS;
    }

    bool compute(cv::InputArray param, cv::OutputArray err,
                 cv::OutputArray jac) const override
    {
        cv::Mat x = param.getMat();
        double xv[PARAMS];
        for (int j = 0; j < PARAMS; j++)
            xv[j] = x.at<double>(j);
        err.create(count(), 1, CV_64F);
        cv::Mat e = err.getMat();
        if (!residuals(xv, e.ptr<double>()))
            return false;
        if (!jac.needed())
            return true;
        jac.create(count(), PARAMS, CV_64F);
        cv::Mat J = jac.getMat();
        std::vector<double> hi((size_t)count()), lo((size_t)count());
        for (int j = 0; j < PARAMS; j++) {
            const double h = 1e-6, keep = xv[j];
            xv[j] = keep + h;
            const bool ok_hi = residuals(xv, hi.data());
            xv[j] = keep - h;
            const bool ok_lo = residuals(xv, lo.data());
            xv[j] = keep;
            if (!ok_hi || !ok_lo)
                return false;
            for (int i = 0; i < count(); i++)
                J.at<double>(i, j) = (hi[(size_t)i] - lo[(size_t)i]) / (2 * h);
        }
        return true;
    }

  private:
    const std::vector<std::array<cv::Point2d, 4>> &q_;
    const std::vector<char> &use_;
};

double card_cost(const double *x, const cv::Point2d q[4])
{
    double r[RESIDUALS];
    if (!card_residuals(x, q, r))
        return HUGE_VAL;
    double c = 0;
    for (double v : r)
        c += v * v;
    return c;
}

/* The view x as a homography of normalised coordinates. */
cv::Matx33d view_matrix(const double *x)
{
    const double e = std::exp(x[2]);
    const cv::Matx33d horizon(1, 0, 0, 0, 1, 0, x[0], x[1], 1);
    const cv::Matx33d stretch(e, x[3], 0, 0, 1 / e, 0, 0, 0, 1);
    return stretch * horizon;
}

/* A fit gone wrong: view says no cards were fitted. */
bool no_view(FlatView &view)
{
    view.cards = 0;
    return false;
}

} // namespace

cv::Point2f through(const cv::Matx33d &h, cv::Point2f p)
{
    const cv::Vec3d v = h * cv::Vec3d(p.x, p.y, 1);
    return {(float)(v[0] / v[2]), (float)(v[1] / v[2])};
}

void flat_maps(const cv::Matx33d &h, cv::Size frame, cv::Size size,
               cv::Mat &xy, cv::Mat &alpha)
{
    /* warpPerspective() walks the image in blocks, each row of a block
     * from the block's left edge: the same sums in the same order give
     * the same roundings (OpenCV's imgwarp.cpp, WarpPerspectiveInvoker) */
    constexpr int BLOCK = 32, TAB = cv::INTER_TAB_SIZE;
    cv::Matx33d inv;
    cv::invert(h, inv);
    const double *m = inv.val;
    xy.create(size, CV_16SC2);
    alpha.create(size, CV_16UC1);
    const int bw =
        std::min(BLOCK * BLOCK / std::min(BLOCK / 2, size.height), size.width);
    for (int y = 0; y < size.height; y++) {
        short *p = xy.ptr<short>(y);
        ushort *a = alpha.ptr<ushort>(y);
        for (int x = 0; x < size.width; x += bw) {
            const double x0 = m[0] * x + m[1] * y + m[2],
                         y0 = m[3] * x + m[4] * y + m[5],
                         w0 = m[6] * x + m[7] * y + m[8];
            const int end = std::min(bw, size.width - x);
            for (int k = 0; k < end; k++) {
                double w = w0 + m[6] * k;
                w = w != 0 ? TAB / w : 0;
                /* far beyond the frame it makes no odds how far */
                constexpr double FAR = 1 << 28;
                const double fx = std::clamp((x0 + m[0] * k) * w, -FAR, FAR),
                             fy = std::clamp((y0 + m[3] * k) * w, -FAR, FAR);
                /* in the padded frame; beyond it, on its last pixel
                 * with no share of the next (what the border gives) */
                const int ix = std::clamp(cv::saturate_cast<int>(fx) + TAB, 0,
                                          frame.width * TAB),
                          iy = std::clamp(cv::saturate_cast<int>(fy) + TAB, 0,
                                          frame.height * TAB);
                p[2 * (x + k)] = cv::saturate_cast<short>(ix >> cv::INTER_BITS);
                p[2 * (x + k) + 1] =
                    cv::saturate_cast<short>(iy >> cv::INTER_BITS);
                a[x + k] = (ushort)((iy & (TAB - 1)) * TAB + (ix & (TAB - 1)));
            }
        }
    }
}

void FlatWarp::warp(const cv::Mat &src, const cv::Matx33d &h, cv::Size size,
                    cv::Mat &dst)
{
    if (h != h_ || src.size() != from_ || size != size_) {
        flat_maps(h, src.size(), size, xy_, alpha_);
        h_ = h;
        from_ = src.size();
        size_ = size;
    }
    cv::copyMakeBorder(src, pad_, 1, 1, 1, 1, cv::BORDER_REPLICATE);
    cv::remap(pad_, dst, xy_, alpha_, cv::INTER_LINEAR, cv::BORDER_REPLICATE);
}

ViewCheck check_view(const FlatView &view, bool through)
{
    if (view.cards > 0 &&
        view.rms_held > FLAT_MOVED * (through ? view.rms : view.rms_as_is))
        return ViewCheck::moved;
    return view.rms_held > FLAT_RMS ? ViewCheck::lost : ViewCheck::kept;
}

bool flat_view(const std::vector<Quad> &quads, cv::Size frame, int long_most,
               FlatView &view, const FlatView *held)
{
    view = FlatView();
    if ((int)quads.size() < FLAT_LEAST || frame.width < 16 || frame.height < 16)
        return false;
    const Normal nm{frame.width * 0.5, frame.height * 0.5,
                    (double)std::max(frame.width, frame.height)};
    std::vector<std::array<cv::Point2d, 4>> q(quads.size());
    std::vector<double> sizes;
    for (size_t i = 0; i < quads.size(); i++) {
        for (int k = 0; k < 4; k++)
            q[i][(size_t)k] = nm.of(quads[i][(size_t)k]);
        sizes.push_back(
            0.5 * std::log(std::max(1e-12, area_of(q[i].data()))));
    }
    std::nth_element(sizes.begin(), sizes.begin() + (long)sizes.size() / 2,
                     sizes.end());
    cv::Mat x = (cv::Mat_<double>(PARAMS, 1) << 0, 0, 0, 0,
                 std::log(DECK_ASPECT), sizes[sizes.size() / 2]);
    std::vector<char> use(quads.size(), 1);
    cv::Ptr<Fit> fit = cv::makePtr<Fit>(q, use);
    cv::Ptr<cv::LMSolver> lm = cv::LMSolver::create(fit, 60);
    int kept = (int)use.size();
    /* fit, leave out the cards that disagree, fit again */
    for (int round = 0; round < 3; round++) {
        lm->run(x);
        std::vector<double> cost(q.size());
        std::vector<double> kept_cost;
        for (size_t i = 0; i < q.size(); i++) {
            cost[i] = card_cost(x.ptr<double>(), q[i].data());
            if (use[i])
                kept_cost.push_back(cost[i]);
        }
        if (kept_cost.empty())
            return false;
        std::nth_element(kept_cost.begin(),
                         kept_cost.begin() + (long)kept_cost.size() / 2,
                         kept_cost.end());
        const double most =
            std::max(FLAT_FLOOR, FLAT_TRIM * kept_cost[kept_cost.size() / 2]);
        int n = 0;
        bool changed = false;
        for (size_t i = 0; i < q.size(); i++) {
            const char u = cost[i] <= most;
            changed = changed || u != use[i];
            use[i] = u;
            n += u;
        }
        kept = n;
        if (kept < FLAT_LEAST)
            return false;
        if (!changed)
            break;
    }
    lm->run(x);
    const double *xv = x.ptr<double>();
    /* the root mean square of the kept cards' residuals under p */
    const auto rms_of = [&](const double *p) {
        double sum = 0;
        for (size_t i = 0; i < q.size(); i++)
            if (use[i])
                sum += card_cost(p, q[i].data());
        return std::sqrt(sum / (kept * RESIDUALS));
    };
    const double rms = rms_of(xv);
    view.rms = rms;
    /* the kept cards through a view p of the horizon and the stretch
     * alone, their shape and size the best for it; HUGE_VAL where a card
     * lies behind its horizon */
    const auto rms_through = [&](const double *p) {
        std::vector<double> asp, lsz;
        const double free[PARAMS] = {p[0], p[1], p[2], p[3], 0, 0};
        for (size_t i = 0; i < q.size(); i++)
            if (use[i]) {
                double r[RESIDUALS];
                if (!card_residuals(free, q[i].data(), r))
                    return HUGE_VAL;
                asp.push_back(r[6]);
                lsz.push_back(r[7]);
            }
        std::sort(asp.begin(), asp.end());
        double mean_size = 0;
        for (double v : lsz)
            mean_size += v;
        mean_size /= (double)lsz.size();
        const double best[PARAMS] = {p[0], p[1], p[2], p[3],
                                     asp[asp.size() / 2], mean_size};
        return rms_of(best);
    };
    const double none[4] = {0, 0, 0, 0};
    view.rms_as_is = rms_through(none);
    if (!std::isfinite(view.rms_as_is))
        return false;
    view.rms_held = held ? rms_through(held->params) : view.rms_as_is;
    if (!(rms <= FLAT_RMS))
        return false;
    std::copy(xv, xv + 4, view.params);
    view.cards = kept;
    view.aspect = std::exp(xv[4]);
    /* how far the view is from flat: its Jacobian at the frame's middle
     * and corners */
    const cv::Matx33d hn = view_matrix(xv);
    const cv::Matx33d norm(1 / nm.f, 0, -nm.cx / nm.f, 0, 1 / nm.f,
                           -nm.cy / nm.f, 0, 0, 1);
    const cv::Matx33d up(nm.f, 0, 0, 0, nm.f, 0, 0, 0, 1);
    cv::Matx33d h = up * hn * norm; /* frame pixels, scale 1 in the middle */
    const cv::Point2f at[5] = {
        {(float)nm.cx, (float)nm.cy}, {0, 0}, {(float)frame.width, 0},
        {(float)frame.width, (float)frame.height}, {0, (float)frame.height}};
    double smallest = HUGE_VAL, largest = 0, stretch = 1;
    cv::Point2f lo(1e30f, 1e30f), hi(-1e30f, -1e30f);
    for (const cv::Point2f &p : at) {
        const cv::Vec3d w = h * cv::Vec3d(p.x, p.y, 1);
        if (!(w[2] > 1e-3))
            return no_view(view);
        const cv::Point2f c = through(h, p), dx = through(h, p + cv::Point2f(1, 0)) - c,
                          dy = through(h, p + cv::Point2f(0, 1)) - c;
        const cv::Matx22d j(dx.x, dy.x, dx.y, dy.y);
        cv::Matx21d sv;
        cv::SVD::compute(j, sv, cv::SVD::NO_UV);
        if (!(sv(1) > 1e-9))
            return no_view(view);
        stretch = std::max(stretch, sv(0) / sv(1));
        const double scale = std::sqrt(sv(0) * sv(1));
        smallest = std::min(smallest, scale);
        largest = std::max(largest, scale);
        lo = {std::min(lo.x, c.x), std::min(lo.y, c.y)};
        hi = {std::max(hi.x, c.x), std::max(hi.y, c.y)};
    }
    view.stretch = stretch;
    view.spread = largest / smallest;
    if (view.stretch > FLAT_STRETCH_MOST || view.spread > FLAT_SPREAD_MOST)
        return no_view(view);
    /* the flat image: the whole frame, at no less than the frame's scale
     * anywhere (a fine print shrunk by the view is lost: the checks of
     * hard scene 9461's back went smooth, and it was taken for a face),
     * its area and long side bounded */
    double w = (double)hi.x - lo.x, ht = (double)hi.y - lo.y;
    const double most = FLAT_AREA_MOST * frame.area();
    double s = 1 / smallest;
    if (w * ht * s * s > most)
        s = std::sqrt(most / (w * ht));
    if (long_most > 0 && std::max(w, ht) * s > long_most)
        s = long_most / std::max(w, ht);
    view.scale = s;
    const cv::Matx33d place(s, 0, -s * lo.x, 0, s, -s * lo.y, 0, 0, 1);
    view.to_flat = place * h;
    view.size = cv::Size(std::max(16, (int)std::ceil(w * s)),
                         std::max(16, (int)std::ceil(ht * s)));
    const double gain = kept < FLAT_MANY ? FLAT_GAIN_FEW : FLAT_GAIN;
    return (view.stretch >= FLAT_STRETCH || view.spread >= FLAT_SPREAD) &&
           view.rms_as_is >= gain * view.rms;
}

} // namespace fwv
