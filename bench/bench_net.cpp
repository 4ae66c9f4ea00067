/*
 * bench_net.cpp - microseconds per Cnn::forward call of the corner
 * reader's rank and suit networks (vision/net.h), one thread, on the
 * builtin model.
 *
 * usage: bench_net [CALLS] [DUMP]
 *
 * The inputs are random glyphs drawn like the ones read.cpp cuts: a few
 * thick strokes with soft edges, about a quarter of the box inked, the
 * rest exactly 0 (forward() skips zero inputs, so all-random inputs would
 * time a different network), then the box's numbers. CALLS calls
 * (default 200000) per network cycle through 64 such glyphs; the best of
 * five rounds is reported, as the machine may be shared. With DUMP the
 * probabilities for every glyph are written there, one network's per
 * line, so two builds can be compared on the same inputs.
 */
#include "net.h"
#include "read.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

namespace {

struct Rand {
    uint32_t s;
    float uni(float lo, float hi)
    {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        return lo + (hi - lo) * (float)(s % 100000) / 100000.f;
    }
};

/* A gw x gh glyph of strokes, about ink of it covered, then extra
 * numbers in [0, 1]. Each stroke is a segment about 1.5 px from its
 * centre line fully inked, fading to 0 over one more pixel. */
std::vector<float> random_glyph(int gw, int gh, int extra, float ink, Rand &r)
{
    std::vector<float> g((size_t)gw * gh + extra, 0.f);
    for (int strokes = 0; strokes < 12; strokes++) {
        int covered = 0;
        for (int i = 0; i < gw * gh; i++)
            covered += g[i] > 0;
        if (covered >= ink * gw * gh)
            break;
        float x0 = r.uni(2, gw - 2), y0 = r.uni(2, gh - 2);
        float x1 = r.uni(2, gw - 2), y1 = r.uni(2, gh - 2);
        float dx = x1 - x0, dy = y1 - y0, len2 = dx * dx + dy * dy + 1e-6f;
        for (int y = 0; y < gh; y++)
            for (int x = 0; x < gw; x++) {
                float t = ((x - x0) * dx + (y - y0) * dy) / len2;
                t = std::min(1.f, std::max(0.f, t));
                float ex = x - (x0 + t * dx), ey = y - (y0 + t * dy);
                float v = 2.5f - std::sqrt(ex * ex + ey * ey);
                v = std::min(1.f, std::max(0.f, v));
                float &p = g[(size_t)y * gw + x];
                p = std::max(p, v);
            }
    }
    for (int k = 0; k < extra; k++)
        g[(size_t)gw * gh + k] = r.uni(0, 1);
    return g;
}

/* Microseconds per call of n.forward over the glyphs, best of five
 * rounds of calls calls. */
double time_net(const fwv::Cnn &n, const std::vector<std::vector<float>> &gs,
                int calls, fwv::NetScratch &s, float *sink)
{
    std::vector<float> out((size_t)n.nout);
    double best = 1e30;
    for (int round = 0; round < 5; round++) {
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < calls; i++) {
            n.forward(gs[i % gs.size()].data(), s, out.data());
            *sink += out[0]; /* so the calls are not dropped */
        }
        std::chrono::duration<double, std::micro> d =
            std::chrono::steady_clock::now() - t0;
        best = std::min(best, d.count() / calls);
    }
    return best;
}

} // namespace

int main(int argc, char **argv)
{
    int calls = argc > 1 ? (int)std::strtol(argv[1], nullptr, 10) : 200000;
    if (calls < 1)
        calls = 1;
    const char *dump = argc > 2 ? argv[2] : nullptr;
    fwv::CardModel m;
    try {
        size_t n;
        const uint8_t *data = fwv::builtin_model(&n);
        fwv::parse_model(data, n, m); /* prepares the networks */
    } catch (const std::exception &e) {
        std::fprintf(stderr, "bench_net: %s\n", e.what());
        return 1;
    }
    Rand r{12345};
    std::vector<std::vector<float>> ranks, suits;
    double rank_ink = 0, suit_ink = 0;
    for (int i = 0; i < 64; i++) {
        ranks.push_back(random_glyph(m.rank.gw, m.rank.gh, m.rank.extra,
                                     0.25f, r));
        suits.push_back(random_glyph(m.suit.gw, m.suit.gh, m.suit.extra,
                                     0.25f, r));
        for (int k = 0; k < m.rank.gw * m.rank.gh; k++)
            rank_ink += ranks.back()[k] > 0;
        for (int k = 0; k < m.suit.gw * m.suit.gh; k++)
            suit_ink += suits.back()[k] > 0;
    }
    rank_ink /= 64.0 * m.rank.gw * m.rank.gh;
    suit_ink /= 64.0 * m.suit.gw * m.suit.gh;
    /* one scratch for both, as the detector shares it */
    fwv::NetScratch s;
    s.buf.resize(std::max(m.rank.scratch_size(), m.suit.scratch_size()));
    if (dump) {
        FILE *f = std::fopen(dump, "w");
        if (!f) {
            std::perror(dump);
            return 1;
        }
        std::vector<float> out(std::max(m.rank.nout, m.suit.nout));
        for (int i = 0; i < 64; i++) {
            for (const fwv::Cnn *n : {&m.rank, &m.suit}) {
                n->forward((n == &m.rank ? ranks : suits)[i].data(), s,
                           out.data());
                for (int k = 0; k < n->nout; k++)
                    std::fprintf(f, "%.9g ", out[k]);
                std::fprintf(f, "\n");
            }
        }
        std::fclose(f);
    }
    float sink = 0;
    double rank_us = time_net(m.rank, ranks, calls, s, &sink);
    double suit_us = time_net(m.suit, suits, calls, s, &sink);
    std::printf("rank net %dx%d c1=%d c2=%d nh=%d: %.2f us per call "
                "(%.0f%% ink)\n",
                m.rank.gh, m.rank.gw, m.rank.c1, m.rank.c2, m.rank.nh,
                rank_us, 100 * rank_ink);
    std::printf("suit net %dx%d c1=%d c2=%d nh=%d: %.2f us per call "
                "(%.0f%% ink)\n",
                m.suit.gh, m.suit.gw, m.suit.c1, m.suit.c2, m.suit.nh,
                suit_us, 100 * suit_ink);
    std::printf("(best of 5 rounds of %d calls each; checksum %g)\n", calls,
                (double)sink);
    return 0;
}
