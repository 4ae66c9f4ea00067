/*
 * net.cpp - the corner-index reader's networks and their model file.
 */
#include "net.h"

#include "read.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace fwv {

/* The dot product of a and b (n long) in eight running sums, so the
 * compiler can keep them in one vector register (a single sum is a chain
 * it may not reorder). */
static float dot8(const float *a, const float *b, int n)
{
    float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int i = 0;
    for (; i + 8 <= n; i += 8)
        for (int k = 0; k < 8; k++)
            acc[k] += a[i + k] * b[i + k];
    float t = 0;
    for (; i < n; i++)
        t += a[i] * b[i];
    return t + ((acc[0] + acc[4]) + (acc[1] + acc[5])) +
           ((acc[2] + acc[6]) + (acc[3] + acc[7]));
}

/* The largest of a 2 x 2 block, and 0 (ReLU before pooling is ReLU
 * after it: both only keep the largest). */
static inline float pool4(const float *p, int stride)
{
    return std::max(std::max(0.f, std::max(p[0], p[1])),
                    std::max(p[stride], p[stride + 1]));
}

size_t Cnn::scratch_size() const
{
    size_t wh = (size_t)gw / 2, hh = (size_t)gh / 2;
    size_t fin = (size_t)c2 * (gh / 4) * (gw / 4) + (size_t)extra;
    /* forward()'s layout: the padded glyph, one first-layer map, the
     * pooled padded first-layer maps, the second-layer maps, the hidden
     * layer's inputs, the hidden layer, one pixel's second-layer sums */
    return (size_t)(gh + 2) * (gw + 2) + (size_t)gh * gw +
           (size_t)c1 * (hh + 2) * (wh + 2) + (size_t)c2 * hh * wh + fin +
           (size_t)nh + (size_t)c2;
}

void Cnn::prepare()
{
    const int k2 = c1 * 9, fin = c2 * (gh / 4) * (gw / 4) + extra;
    conv2_wt.resize((size_t)k2 * c2);
    for (int o = 0; o < c2; o++)
        for (int k = 0; k < k2; k++)
            conv2_wt[(size_t)k * c2 + o] = conv2_w[(size_t)o * k2 + k];
    fc1_wt.resize((size_t)fin * nh);
    for (int j = 0; j < nh; j++)
        for (int i = 0; i < fin; i++)
            fc1_wt[(size_t)i * nh + j] = fc1_w[(size_t)j * fin + i];
}

void Cnn::forward(const float *in, NetScratch &s, float *out) const
{
    const int w = gw, h = gh, wh = gw / 2, hh = gh / 2, wq = gw / 4,
              hq = gh / 4, pw = w + 2, pwh = wh + 2;
    const int fin = c2 * hq * wq + extra;
    if (s.buf.size() < scratch_size())
        s.buf.resize(scratch_size()); /* once: the scratch is reused */
    float *pad = s.buf.data();              /* (h + 2) x (w + 2) */
    float *map1 = pad + (h + 2) * pw;       /* h x w, one channel */
    float *a1 = map1 + h * w;               /* c1 x (hh + 2) x (wh + 2) */
    float *map2 = a1 + c1 * (hh + 2) * pwh; /* c2 x hh x wh */
    float *fc_in = map2 + c2 * hh * wh;     /* fin */
    float *hid = fc_in + fin;               /* nh, then c2 */

    /* the glyph with a border of zeros, as the training padded it */
    std::fill(pad, pad + (h + 2) * pw, 0.f);
    for (int y = 0; y < h; y++)
        std::copy(in + y * w, in + (y + 1) * w, pad + (y + 1) * pw + 1);
    std::fill(a1, a1 + c1 * (hh + 2) * pwh, 0.f);
    /* first convolution, a row at a time so the inner loop runs along x;
     * pooled into a1's padded maps */
    for (int o = 0; o < c1; o++) {
        const float *k = &conv1_w[(size_t)o * 9];
        for (int y = 0; y < h; y++) {
            float *r = map1 + y * w;
            std::fill(r, r + w, conv1_b[o]);
            for (int ky = 0; ky < 3; ky++)
                for (int kx = 0; kx < 3; kx++) {
                    float kv = k[ky * 3 + kx];
                    const float *p = pad + (y + ky) * pw + kx;
                    for (int x = 0; x < w; x++)
                        r[x] += kv * p[x];
                }
        }
        float *dst = a1 + o * (hh + 2) * pwh;
        for (int y = 0; y < hh; y++)
            for (int x = 0; x < wh; x++)
                dst[(y + 1) * pwh + x + 1] =
                    pool4(map1 + 2 * y * w + 2 * x, w);
    }
    /* second convolution, an output pixel at a time: each of its inputs
     * that is not zero (after ReLU and pooling most are) adds its weight
     * row, all output channels at once, to the pixel's sums */
    float *acc = hid + nh; /* c2, then nh */
    for (int y = 0; y < hh; y++)
        for (int x = 0; x < wh; x++) {
            std::copy(conv2_b.begin(), conv2_b.end(), acc);
            for (int i = 0; i < c1; i++) {
                const float *src = a1 + i * (hh + 2) * pwh + y * pwh + x;
                for (int ky = 0; ky < 3; ky++)
                    for (int kx = 0; kx < 3; kx++) {
                        float v = src[ky * pwh + kx];
                        if (v == 0)
                            continue;
                        const float *wr =
                            &conv2_wt[(size_t)(i * 9 + ky * 3 + kx) * c2];
                        for (int o = 0; o < c2; o++)
                            acc[o] += v * wr[o];
                    }
            }
            for (int o = 0; o < c2; o++)
                map2[o * hh * wh + y * wh + x] = acc[o];
        }
    for (int o = 0; o < c2; o++) {
        const float *m = map2 + o * hh * wh;
        float *dst = fc_in + o * hq * wq;
        for (int y = 0; y < hq; y++)
            for (int x = 0; x < wq; x++)
                dst[y * wq + x] = pool4(m + 2 * y * wh + 2 * x, wh);
    }
    std::copy(in + h * w, in + h * w + extra, fc_in + c2 * hq * wq);
    /* the hidden layer the same way: the inputs that are not zero, each
     * adding its weight row */
    std::copy(fc1_b.begin(), fc1_b.end(), hid);
    for (int i = 0; i < fin; i++) {
        float v = fc_in[i];
        if (v == 0)
            continue;
        const float *wr = &fc1_wt[(size_t)i * nh];
        for (int j = 0; j < nh; j++)
            hid[j] += v * wr[j];
    }
    for (int j = 0; j < nh; j++)
        hid[j] = hid[j] > 0 ? hid[j] : 0;
    float mx = -1e30f;
    for (int k = 0; k < nout; k++) {
        out[k] = fc2_b[k] + dot8(&fc2_w[(size_t)k * nh], hid, nh);
        mx = std::max(mx, out[k]);
    }
    float sum = 0;
    for (int k = 0; k < nout; k++) {
        out[k] = std::exp(out[k] - mx);
        sum += out[k];
    }
    for (int k = 0; k < nout; k++)
        out[k] /= sum;
}

namespace {

struct Reader {
    const uint8_t *p, *end;
    uint32_t u32()
    {
        if (end - p < 4)
            throw std::runtime_error("card model: cut short");
        uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 |
                     (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        p += 4;
        return v;
    }
    void floats(std::vector<float> &v, size_t n)
    {
        if ((size_t)(end - p) / 4 < n)
            throw std::runtime_error("card model: cut short");
        v.resize(n);
        for (float &x : v) {
            uint32_t u = u32();
            std::memcpy(&x, &u, 4);
            if (!std::isfinite(x))
                throw std::runtime_error("card model: a weight is not finite");
        }
    }
};

void read_cnn(Reader &r, Cnn &m, int gw, int gh, int extra, int nout)
{
    int v[8];
    for (int &x : v)
        x = (int)r.u32();
    m.gw = v[0];
    m.gh = v[1];
    m.extra = v[2];
    m.c1 = v[3];
    m.c2 = v[4];
    m.nh = v[5];
    m.nout = v[6];
    if (m.gw != gw || m.gh != gh || m.extra != extra || m.nout != nout ||
        v[7] != 0 || m.c1 < 1 || m.c1 > 256 || m.c2 < 1 || m.c2 > 256 ||
        m.nh < 1 || m.nh > 4096)
        throw std::runtime_error("card model: unexpected network shape");
    size_t fin = (size_t)m.c2 * (gh / 4) * (gw / 4) + (size_t)extra;
    r.floats(m.conv1_w, (size_t)m.c1 * 9);
    r.floats(m.conv1_b, (size_t)m.c1);
    r.floats(m.conv2_w, (size_t)m.c2 * m.c1 * 9);
    r.floats(m.conv2_b, (size_t)m.c2);
    r.floats(m.fc1_w, (size_t)m.nh * fin);
    r.floats(m.fc1_b, (size_t)m.nh);
    r.floats(m.fc2_w, (size_t)m.nout * m.nh);
    r.floats(m.fc2_b, (size_t)m.nout);
    m.prepare();
}

} // namespace

void parse_model(const uint8_t *data, size_t n, CardModel &m)
{
    if (!data || n < 8 || std::memcmp(data, "FWCM", 4) != 0)
        throw std::runtime_error("not a card model (no FWCM header)");
    Reader r{data + 4, data + n};
    if (r.u32() != 2)
        throw std::runtime_error("card model: unknown version");
    read_cnn(r, m.rank, RW, RH, RANK_IN - RW * RH, RANK_OUT);
    read_cnn(r, m.suit, SW, SH, SUIT_IN - SW * SH, SUIT_OUT);
    if (r.p != r.end)
        throw std::runtime_error("card model: trailing bytes");
}

} // namespace fwv

extern "C" const unsigned char fw_cards_cnn[];
extern "C" const unsigned long fw_cards_cnn_size;

const uint8_t *fwv::builtin_model(size_t *n)
{
    *n = (size_t)fw_cards_cnn_size;
    return fw_cards_cnn;
}
