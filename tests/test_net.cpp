/*
 * test_net.cpp - the corner reader's networks (vision/net.h).
 *
 * Cnn::forward is written for speed (rows of the first convolution at a
 * time, the second as one dot product per output pixel and channel over
 * laid-out inputs, ReLU folded into the pooling). Here it must agree with
 * a plain reading of the same network, one output at a time, as PyTorch
 * computes it (zero padding, ReLU, 2 x 2 max pooling, channel-major
 * flattening, the extra numbers last), on random weights and inputs for
 * both glyph shapes. And the model file is refused, with a reason, when
 * cut short, of the wrong shape, or not a model at all.
 */
#include "harness.h"

#include "net.h"
#include "read.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
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

fwv::Cnn random_cnn(int gw, int gh, int extra, int c1, int c2, int nh,
                    int nout, Rand &r)
{
    fwv::Cnn n;
    n.gw = gw;
    n.gh = gh;
    n.extra = extra;
    n.c1 = c1;
    n.c2 = c2;
    n.nh = nh;
    n.nout = nout;
    size_t fin = (size_t)c2 * (gh / 4) * (gw / 4) + extra;
    auto fill = [&](std::vector<float> &v, size_t k) {
        v.resize(k);
        for (float &x : v)
            x = r.uni(-0.5f, 0.5f);
    };
    fill(n.conv1_w, (size_t)c1 * 9);
    fill(n.conv1_b, c1);
    fill(n.conv2_w, (size_t)c2 * c1 * 9);
    fill(n.conv2_b, c2);
    fill(n.fc1_w, nh * fin);
    fill(n.fc1_b, nh);
    fill(n.fc2_w, (size_t)nout * nh);
    fill(n.fc2_b, nout);
    n.prepare();
    return n;
}

/* a rank and a suit network of the shapes read.h cuts, random weights */
fwv::CardModel random_model(int c1, int c2, int nh, Rand &r)
{
    fwv::CardModel m;
    m.rank = random_cnn(fwv::RW, fwv::RH, fwv::RANK_IN - fwv::RW * fwv::RH, c1,
                        c2, nh, fwv::RANK_OUT, r);
    m.suit = random_cnn(fwv::SW, fwv::SH, fwv::SUIT_IN - fwv::SW * fwv::SH, c1,
                        c2, nh, fwv::SUIT_OUT, r);
    return m;
}

/* channels x h x w maps, zero outside */
struct Maps {
    int c, h, w;
    std::vector<double> v;
    double at(int k, int y, int x) const
    {
        if (y < 0 || x < 0 || y >= h || x >= w)
            return 0;
        return v[((size_t)k * h + y) * w + x];
    }
};

Maps conv_relu(const Maps &in, const std::vector<float> &wt,
               const std::vector<float> &b, int cout)
{
    Maps o{cout, in.h, in.w, std::vector<double>((size_t)cout * in.h * in.w)};
    for (int k = 0; k < cout; k++)
        for (int y = 0; y < in.h; y++)
            for (int x = 0; x < in.w; x++) {
                double a = b[k];
                for (int i = 0; i < in.c; i++)
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++)
                            a += wt[(((size_t)k * in.c + i) * 3 + dy + 1) * 3 +
                                    dx + 1] *
                                 in.at(i, y + dy, x + dx);
                o.v[((size_t)k * in.h + y) * in.w + x] = a > 0 ? a : 0;
            }
    return o;
}

Maps pool(const Maps &in)
{
    Maps o{in.c, in.h / 2, in.w / 2,
           std::vector<double>((size_t)in.c * (in.h / 2) * (in.w / 2))};
    for (int k = 0; k < in.c; k++)
        for (int y = 0; y < o.h; y++)
            for (int x = 0; x < o.w; x++)
                o.v[((size_t)k * o.h + y) * o.w + x] = std::max(
                    std::max(in.at(k, 2 * y, 2 * x), in.at(k, 2 * y, 2 * x + 1)),
                    std::max(in.at(k, 2 * y + 1, 2 * x),
                             in.at(k, 2 * y + 1, 2 * x + 1)));
    return o;
}

std::vector<double> reference(const fwv::Cnn &n, const std::vector<float> &in)
{
    Maps g{1, n.gh, n.gw, std::vector<double>(in.begin(), in.begin() + n.gh * n.gw)};
    Maps p = pool(conv_relu(pool(conv_relu(g, n.conv1_w, n.conv1_b, n.c1)), n.conv2_w, n.conv2_b,
                            n.c2));
    std::vector<double> f = p.v;
    for (int k = 0; k < n.extra; k++)
        f.push_back(in[(size_t)n.gh * n.gw + k]);
    std::vector<double> h((size_t)n.nh), o((size_t)n.nout);
    for (int j = 0; j < n.nh; j++) {
        double a = n.fc1_b[j];
        for (size_t i = 0; i < f.size(); i++)
            a += n.fc1_w[j * f.size() + i] * f[i];
        h[j] = a > 0 ? a : 0;
    }
    double mx = -1e300, sum = 0;
    for (int k = 0; k < n.nout; k++) {
        double a = n.fc2_b[k];
        for (int j = 0; j < n.nh; j++)
            a += n.fc2_w[(size_t)k * n.nh + j] * h[j];
        o[k] = a;
        mx = std::max(mx, a);
    }
    for (double &x : o)
        sum += (x = std::exp(x - mx));
    for (double &x : o)
        x /= sum;
    return o;
}

/* the largest difference between forward and the reference over trials
 * random inputs; a share blank of the glyph's pixels are 0 (a glyph is
 * mostly paper, and forward() skips blank stretches) */
double worst_difference(const fwv::Cnn &n, Rand &r, int trials,
                        double blank = 0)
{
    fwv::NetScratch s;
    double worst = 0;
    std::vector<float> in((size_t)n.gh * n.gw + n.extra), out((size_t)n.nout);
    for (int t = 0; t < trials; t++) {
        for (size_t i = 0; i < in.size(); i++)
            in[i] = i < (size_t)n.gh * n.gw && r.uni(0, 1) < blank
                        ? 0.f
                        : r.uni(0, 1);
        n.forward(in.data(), s, out.data());
        std::vector<double> ref = reference(n, in);
        for (int k = 0; k < n.nout; k++)
            worst = std::max(worst, std::fabs(out[k] - ref[k]));
    }
    return worst;
}

void put_i32(std::string &o, int32_t v)
{
    for (int i = 0; i < 4; i++)
        o.push_back((char)((uint32_t)v >> (8 * i)));
}

/* a model file holding n's shape and weights (net.h's layout) */
void put_cnn(std::string &o, const fwv::Cnn &n)
{
    for (int v : {n.gw, n.gh, n.extra, n.c1, n.c2, n.nh, n.nout, 0})
        put_i32(o, v);
    for (const std::vector<float> *v :
         {&n.conv1_w, &n.conv1_b, &n.conv2_w, &n.conv2_b, &n.fc1_w, &n.fc1_b, &n.fc2_w, &n.fc2_b})
        for (float x : *v) {
            int32_t u;
            std::memcpy(&u, &x, 4);
            put_i32(o, u);
        }
}

bool parse_fails(const std::string &bytes)
{
    fwv::CardModel m;
    try {
        fwv::parse_model(reinterpret_cast<const uint8_t *>(bytes.data()),
                         bytes.size(), m);
    } catch (const std::runtime_error &) {
        return true;
    }
    return false;
}

} // namespace

TEST(forward_matches_plain_reading)
{
    Rand r{2024};
    const fwv::CardModel model = random_model(5, 7, 9, r);
    const fwv::Cnn &rank = model.rank, &suit = model.suit;
    ASSERT_TRUE(worst_difference(rank, r, 20) < 1e-5);
    ASSERT_TRUE(worst_difference(suit, r, 20) < 1e-5);
    /* one scratch shared by both shapes, as the detector shares it */
    fwv::NetScratch s;
    std::vector<float> a((size_t)fwv::RANK_IN, 0.5f), b((size_t)fwv::SUIT_IN, 0.5f);
    float pa[fwv::RANK_OUT], pb[fwv::SUIT_OUT];
    suit.forward(b.data(), s, pb);
    rank.forward(a.data(), s, pa);
    std::vector<double> ra = reference(rank, a);
    for (int k = 0; k < fwv::RANK_OUT; k++)
        ASSERT_TRUE(std::fabs(pa[k] - ra[k]) < 1e-5);
}

/* The shapes the committed model has (8 and 16 channels, 128 and 96
 * hidden units), which forward() runs by a path of its own, on dense and
 * on mostly blank glyphs; and the built-in model itself. */
TEST(forward_matches_plain_reading_model_shapes)
{
    Rand r{99};
    fwv::CardModel model;
    model.rank = random_cnn(fwv::RW, fwv::RH, fwv::RANK_IN - fwv::RW * fwv::RH,
                            8, 16, 128, fwv::RANK_OUT, r);
    model.suit = random_cnn(fwv::SW, fwv::SH, fwv::SUIT_IN - fwv::SW * fwv::SH,
                            8, 16, 96, fwv::SUIT_OUT, r);
    for (double blank : {0.0, 0.7, 0.95}) {
        ASSERT_TRUE(worst_difference(model.rank, r, 10, blank) < 1e-5);
        ASSERT_TRUE(worst_difference(model.suit, r, 10, blank) < 1e-5);
    }
    size_t n = 0;
    const uint8_t *d = fwv::builtin_model(&n);
    if (n == 0)
        return;
    fwv::CardModel built;
    fwv::parse_model(d, n, built);
    for (double blank : {0.0, 0.8}) {
        ASSERT_TRUE(worst_difference(built.rank, r, 10, blank) < 1e-5);
        ASSERT_TRUE(worst_difference(built.suit, r, 10, blank) < 1e-5);
    }
}

TEST(model_file_round_trip_and_refusals)
{
    Rand r{77};
    const fwv::CardModel model = random_model(4, 6, 8, r);
    const fwv::Cnn &rank = model.rank, &suit = model.suit;
    std::string file = "FWCM";
    put_i32(file, 2);
    put_cnn(file, rank);
    put_cnn(file, suit);
    fwv::CardModel m;
    fwv::parse_model(reinterpret_cast<const uint8_t *>(file.data()), file.size(),
                     m);
    ASSERT_INT_EQ(m.rank.c2, 6);
    ASSERT_TRUE(m.rank.fc1_w == rank.fc1_w && m.suit.fc2_b == suit.fc2_b);
    /* cut short anywhere, with a byte too many, another version, the
     * networks swapped, or a weight that is not a number */
    for (size_t cut : {(size_t)0, (size_t)3, (size_t)8, (size_t)40,
                       file.size() / 2, file.size() - 1})
        ASSERT_TRUE(parse_fails(file.substr(0, cut)));
    ASSERT_TRUE(parse_fails(file + "x"));
    std::string v1 = file;
    v1[4] = 1;
    ASSERT_TRUE(parse_fails(v1));
    std::string swapped = "FWCM";
    put_i32(swapped, 2);
    put_cnn(swapped, suit);
    put_cnn(swapped, rank);
    ASSERT_TRUE(parse_fails(swapped));
    std::string nan = file;
    uint32_t q = 0x7fc00000u; /* a NaN, as the first weight */
    std::memcpy(&nan[8 + 32], &q, 4);
    ASSERT_TRUE(parse_fails(nan));
}

static const fw_test_case cases[] = {
    TEST_CASE(forward_matches_plain_reading),
    TEST_CASE(forward_matches_plain_reading_model_shapes),
    TEST_CASE(model_file_round_trip_and_refusals),
};
TEST_MAIN(cases)
