/*
 * read_memo.cpp - a card's print, and whether a quad lies where another
 * did (read_memo.h).
 */
#include "read_memo.h"

#include <algorithm>
#include <cmath>

namespace fwv
{

namespace
{

/* How far a corner may lie from where it lay in the frame before for the
 * card to count as still: this share of the quad's shorter side, and at
 * least MEMO_REACH_MIN pixels (detection scale). The detector's quad of a
 * card lying still moves with the sensor's noise alone: in bench_cards'
 * still run, on cards about 50 pixels wide, mostly by 1 to 4 pixels, some
 * by 8 (at a twentieth of the side, 1241 readings of 1540 were carried;
 * at a tenth, 1327). Whether the card moved is the print's to say. */
constexpr float MEMO_REACH = 0.1f, MEMO_REACH_MIN = 1.0f;

/* How far (lightness, 0..255) a point of the print may move, and how
 * many points may move further, for two prints to show the same card.
 * Sampled at the same place, sensor noise moves a point of the blurred
 * detection image by a level or two; a glyph's stroke moves it by a
 * hundred, and a different index in the corner moves tens of points. */
constexpr int PRINT_TOLERANCE = 24, PRINT_STRAYS = 3;

float dist(cv::Point2f a, cv::Point2f b)
{
    return std::hypot(a.x - b.x, a.y - b.y);
}

/* The lightness at p, interpolated between the four pixels about it, in
 * 1/256ths of a level (the four samples of a point are summed before
 * rounding); 0 off the image. */
int sample(const cv::Mat &light, cv::Point2f p)
{
    const float x = p.x - 0.5f, y = p.y - 0.5f; /* pixel centres */
    if (!(x >= 0 && y >= 0 && x <= light.cols - 1.f && y <= light.rows - 1.f))
        return 0;
    /* the frame is at least 16 pixels each way (cards.cpp) */
    const int x0 = std::min((int)x, light.cols - 2),
              y0 = std::min((int)y, light.rows - 2);
    const int fx = (int)((x - (float)x0) * 16.f),
              fy = (int)((y - (float)y0) * 16.f);
    const uint8_t *r0 = light.ptr<uint8_t>(y0) + x0,
                  *r1 = light.ptr<uint8_t>(y0 + 1) + x0;
    const int top = r0[0] * 16 + fx * (r0[1] - r0[0]);
    const int bottom = r1[0] * 16 + fx * (r1[1] - r1[0]);
    return top * 16 + fy * (bottom - top);
}

/* The grids of the print: where each lies in the quad's coordinates, in
 * print order (read_memo.h). */
struct Grid {
    int w, h;
    float u0, u1, v0, v1;
};
constexpr Grid GRIDS[3] = {
    {PRINT_BODY_W, PRINT_BODY_H, 0.05f, 0.95f, 0.05f, 0.95f},
    /* the index corners: where cards.cpp reads the index (read.h), with
     * the margin beside it */
    {PRINT_INDEX_W, PRINT_INDEX_H, 0.02f, 0.24f, 0.02f, 0.30f},
    {PRINT_INDEX_W, PRINT_INDEX_H, 0.76f, 0.98f, 0.70f, 0.98f},
};

} // namespace

float quad_offset(const cv::Point2f a[4], const cv::Point2f b[4])
{
    float d = 0;
    for (int k = 0; k < 4; k++)
        d = std::max(d, dist(a[k], b[k]));
    return d;
}

bool same_place(const cv::Point2f a[4], const cv::Point2f b[4])
{
    const float side = std::min(dist(a[0], a[1]), dist(a[1], a[2]));
    return quad_offset(a, b) <= std::max(MEMO_REACH_MIN, MEMO_REACH * side);
}

void take_print(const cv::Mat &light, const cv::Point2f q[4], CardPrint &out)
{
    CV_Assert(light.type() == CV_8UC1);
    /* the bilinear map of the unit square onto the quad */
    const cv::Point2f du = q[1] - q[0], dv = q[3] - q[0],
                      duv = q[2] - q[1] - q[3] + q[0];
    auto at = [&](float u, float v) {
        return q[0] + du * u + dv * v + duv * (u * v);
    };
    int i = 0;
    for (const Grid &g : GRIDS) {
        /* each point the mean of its cell, sampled at four points: a
         * glyph's stroke a pixel wide that falls between two points of
         * the grid still shows */
        const float su = (g.u1 - g.u0) / (float)(g.w - 1),
                    sv = (g.v1 - g.v0) / (float)(g.h - 1);
        for (int y = 0; y < g.h; y++) {
            const float v = g.v0 + sv * (float)y;
            for (int x = 0; x < g.w; x++) {
                const float u = g.u0 + su * (float)x;
                int sum = 0;
                for (int k = 0; k < 4; k++)
                    sum +=
                        sample(light, at(u + su * ((k & 1) ? 0.25f : -0.25f),
                                         v + sv * ((k & 2) ? 0.25f : -0.25f)));
                out.v[i++] = (uint8_t)((sum + 512) >> 10);
            }
        }
    }
}

bool print_matches(const CardPrint &was, const CardPrint &now)
{
    int strays = 0;
    for (int i = 0; i < PRINT_N; i++)
        strays += std::abs((int)was.v[i] - (int)now.v[i]) > PRINT_TOLERANCE;
    return strays <= PRINT_STRAYS;
}

} // namespace fwv
