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

size_t Cnn::scratch_size() const
{
    size_t hh = (size_t)gh / 2, wh = (size_t)gw / 2;
    size_t fin = (size_t)c2 * (gh / 4) * (gw / 4) + (size_t)extra;
    /* forward()'s layout: the padded glyph; the first layer's pooled maps
     * less their background, with a border, and which of their pixels are
     * not background; the hidden layer's inputs, and those not zero; the
     * hidden layer; sums for the channel counts not specialised for */
    return (size_t)(gh + 2) * (gw + 2) + (hh + 2) * (wh + 2) * (c1 + 1) +
           2 * fin + (size_t)nh + 4 * (size_t)c2;
}

void Cnn::prepare()
{
    const int hh = gh / 2, wh = gw / 2, hq = gh / 4, wq = gw / 4;
    const int fin = c2 * hq * wq + extra;
    conv1_wt.resize((size_t)9 * c1);
    for (int o = 0; o < c1; o++)
        for (int t = 0; t < 9; t++)
            conv1_wt[(size_t)t * c1 + o] = conv1_w[(size_t)o * 9 + t];
    conv2_wt.resize((size_t)9 * c1 * c2);
    for (int o = 0; o < c2; o++)
        for (int i = 0; i < c1; i++)
            for (int t = 0; t < 9; t++)
                conv2_wt[((size_t)t * c1 + i) * c2 + o] =
                    conv2_w[((size_t)o * c1 + i) * 9 + t];
    /* where the glyph is blank the first layer's pooled output is
     * ReLU(bias); that part of the second layer's sums depends only on
     * which taps fall inside the maps, so it is summed here, per pixel */
    conv1_bg.resize((size_t)c1);
    for (int i = 0; i < c1; i++)
        conv1_bg[i] = std::max(0.f, conv1_b[i]);
    conv2_base.resize((size_t)hh * wh * c2);
    for (int y = 0; y < hh; y++)
        for (int x = 0; x < wh; x++)
            for (int o = 0; o < c2; o++) {
                double a = conv2_b[o];
                for (int t = 0; t < 9; t++) {
                    int sy = y + t / 3 - 1, sx = x + t % 3 - 1;
                    if (sy < 0 || sx < 0 || sy >= hh || sx >= wh)
                        continue;
                    for (int i = 0; i < c1; i++)
                        a += (double)conv2_w[((size_t)o * c1 + i) * 9 + t] *
                             conv1_bg[i];
                }
                conv2_base[((size_t)y * wh + x) * c2 + o] = (float)a;
            }
    /* forward() lays the pooled second-layer maps out pixel by pixel
     * (channels innermost), the file channel by channel: the rows follow
     * forward()'s order */
    fc1_wt.resize((size_t)fin * nh);
    for (int j = 0; j < nh; j++)
        for (int i = 0; i < fin; i++) {
            int r = i;
            if (i < c2 * hq * wq)
                r = (i % (hq * wq)) * c2 + i / (hq * wq);
            fc1_wt[(size_t)r * nh + j] = fc1_w[(size_t)j * fin + i];
        }
}

namespace {

/* The first convolution, ReLU and 2 x 2 pooling, for c1 = C1 channels
 * (or n.c1 where C1 is 0: with the count fixed the compiler unrolls the
 * loops and keeps the sums in vector registers). pad is the glyph with a
 * border of zeros. A pooled pixel is the largest of its 2 x 2 block of
 * sums, and 0, over the 4 x 4 glyph pixels under it; where those are all
 * 0 (about half of a glyph's box) it is ReLU(bias), conv1_bg, and is not
 * computed: ink1 is 1 at the pixels that are not background, d1 holds
 * their difference from it, pixel by pixel, channels innermost. Both have
 * a border one pixel wide; ink1's is 0.
 *
 * The channel loop is the outer one and the taps the inner, so the
 * compiler vectorises across channels, the four sums of the block in four
 * registers; each sum adds its taps in the order the plain reading does. */
template <int C1>
void first_layer(const Cnn &n, const float *pad, float *d1, float *ink1)
{
    const int c1 = C1 > 0 ? C1 : n.c1;
    const int pw = n.gw + 2, hh = n.gh / 2, wh = n.gw / 2, pwh = wh + 2;
    const float *w1 = n.conv1_wt.data(), *b1 = n.conv1_b.data(),
                *bg1 = n.conv1_bg.data();
    std::fill(ink1, ink1 + (hh + 2) * pwh, 0.f);
    for (int py = 0; py < hh; py++)
        for (int px = 0; px < wh; px++) {
            /* the 4 x 4 pixels, copied so the compiler sees that they do
             * not change over the channel loop */
            float g[16];
            bool ink = false;
            for (int r = 0; r < 16; r++) {
                g[r] = pad[(2 * py + r / 4) * pw + 2 * px + r % 4];
                ink |= g[r] != 0;
            }
            if (!ink)
                continue;
            ink1[(py + 1) * pwh + px + 1] = 1;
            float *dst = d1 + ((py + 1) * pwh + px + 1) * c1;
            for (int i = 0; i < c1; i++) {
                /* the block's sums, top left, top right, bottom left,
                 * bottom right */
                float a0 = b1[i], a1 = b1[i], a2 = b1[i], a3 = b1[i];
                for (int t = 0; t < 9; t++) {
                    const float k = w1[t * c1 + i];
                    const int at = t / 3 * 4 + t % 3;
                    a0 += g[at] * k;
                    a1 += g[at + 1] * k;
                    a2 += g[at + 4] * k;
                    a3 += g[at + 5] * k;
                }
                /* ReLU before pooling is ReLU after it */
                const float m = std::max(std::max(0.f, std::max(a0, a1)),
                                         std::max(a2, a3));
                dst[i] = m - bg1[i];
            }
        }
}

/* The second convolution, ReLU and 2 x 2 pooling over first_layer()'s
 * output, for c1 = C1 and c2 = C2 channels (or the network's counts where
 * they are 0), into fc_in: the pooled maps pixel by pixel, channels
 * innermost. Each sum starts from the background's (conv2_base); each
 * first-layer pixel under the 3 x 3 kernel that is not background adds
 * its difference times its tap's weight rows, all output channels at
 * once. Pixels the pooling leaves out are not computed. tmp: 4 c2 floats.
 *
 * The output channels are the outer loop and the input channels the
 * inner: so GCC vectorises across the outputs, a broadcast input times a
 * row of weights. Nested the other way it unrolls the output loop first
 * and vectorises the input loop as 16 reductions, shuffling the weights
 * (x86), several times slower. */
template <int C1, int C2>
void second_layer(const Cnn &n, const float *d1, const float *ink1,
                  float *fc_in, float *tmp)
{
    const int c1 = C1 > 0 ? C1 : n.c1, c2 = C2 > 0 ? C2 : n.c2;
    const int wh = n.gw / 2, pwh = wh + 2, hq = n.gh / 4, wq = n.gw / 4;
    /* the 2 x 2 block's sums, top left, top right, bottom left, bottom
     * right */
    float sums_fixed[C2 > 0 ? 4 * C2 : 1];
    float *sums = C2 > 0 ? sums_fixed : tmp;
    const float *w2 = n.conv2_wt.data(), *base = n.conv2_base.data();
    for (int qy = 0; qy < hq; qy++)
        for (int qx = 0; qx < wq; qx++) {
            for (int k = 0; k < 4; k++) {
                const int y = 2 * qy + k / 2, x = 2 * qx + k % 2;
                float *sum = sums + k * c2;
                const float *b = base + (y * wh + x) * c2;
                for (int o = 0; o < c2; o++)
                    sum[o] = b[o];
                for (int t = 0; t < 9; t++) {
                    /* tap t's pixel, in d1's padded coordinates */
                    const int at = (y + t / 3) * pwh + x + t % 3;
                    if (ink1[at] == 0)
                        continue;
                    const float *v = d1 + at * c1;
                    const float *wr = w2 + t * c1 * c2;
                    for (int o = 0; o < c2; o++) {
                        float a = sum[o];
                        for (int i = 0; i < c1; i++)
                            a += v[i] * wr[i * c2 + o];
                        sum[o] = a;
                    }
                }
            }
            /* one loop over the four, so the compiler compares whole
             * vectors rather than branching on each channel */
            float *dst = fc_in + (qy * wq + qx) * c2;
            for (int o = 0; o < c2; o++)
                dst[o] = std::max(
                    std::max(0.f, std::max(sums[o], sums[c2 + o])),
                    std::max(sums[2 * c2 + o], sums[3 * c2 + o]));
        }
}

/* The hidden layer and its ReLU, hid = max(0, fc1_b + fc1_wt' fc_in), over
 * the fin inputs that are not zero (after ReLU and pooling about half
 * are zero), listed first, their values in vals and their rows of fc1_wt in
 * rows (fin each), so the loops below do not branch on them. BLOCK hidden
 * units at a time, their sums in vector registers; two inputs a step, in
 * two loops, as GCC would otherwise jam the steps into one loop it does
 * not vectorise. */
void hidden_layer(const Cnn &n, const float *fc_in, int fin, float *vals,
                  int *rows, float *hid)
{
    int m = 0;
    for (int i = 0; i < fin; i++) {
        vals[m] = fc_in[i];
        rows[m] = i;
        m += fc_in[i] != 0;
    }
    const int nh = n.nh;
    const float *wt = n.fc1_wt.data(), *bias = n.fc1_b.data();
    constexpr int BLOCK = 32;
    int j0 = 0;
    for (; j0 + BLOCK <= nh; j0 += BLOCK) {
        float a[BLOCK];
        for (int j = 0; j < BLOCK; j++)
            a[j] = bias[j0 + j];
        int k = 0;
        for (; k + 2 <= m; k += 2) {
            const float v0 = vals[k], v1 = vals[k + 1];
            const float *w0 = wt + (size_t)rows[k] * nh + j0;
            const float *w1 = wt + (size_t)rows[k + 1] * nh + j0;
            for (int j = 0; j < BLOCK; j++)
                a[j] += v0 * w0[j];
            for (int j = 0; j < BLOCK; j++)
                a[j] += v1 * w1[j];
        }
        if (k < m) {
            const float v = vals[k];
            const float *wr = wt + (size_t)rows[k] * nh + j0;
            for (int j = 0; j < BLOCK; j++)
                a[j] += v * wr[j];
        }
        for (int j = 0; j < BLOCK; j++)
            hid[j0 + j] = a[j] > 0 ? a[j] : 0;
    }
    if (j0 == nh)
        return;
    for (int j = j0; j < nh; j++) /* the last, narrower block */
        hid[j] = bias[j];
    for (int k = 0; k < m; k++) {
        const float v = vals[k];
        const float *wr = wt + (size_t)rows[k] * nh;
        for (int j = j0; j < nh; j++)
            hid[j] += v * wr[j];
    }
    for (int j = j0; j < nh; j++)
        hid[j] = hid[j] > 0 ? hid[j] : 0;
}

/* Cnn::forward with the convolutions' channel counts C1 and C2 fixed, or
 * the network's where they are 0. */
template <int C1, int C2>
void forward_as(const Cnn &n, const float *in, NetScratch &s, float *out)
{
    const int w = n.gw, h = n.gh, pw = w + 2, hh = h / 2, wh = w / 2,
              hq = h / 4, wq = w / 4;
    const int fin = n.c2 * hq * wq + n.extra;
    /* scratch_size()'s layout */
    float *pad = s.buf.data();                     /* (h + 2) x (w + 2) */
    float *d1 = pad + (h + 2) * pw;                /* (hh+2) x (wh+2) x c1 */
    float *ink1 = d1 + (hh + 2) * (wh + 2) * n.c1; /* (hh + 2) x (wh + 2) */
    float *fc_in = ink1 + (hh + 2) * (wh + 2);     /* fin */
    float *vals = fc_in + fin;                     /* fin */
    float *hid = vals + fin;                       /* nh */
    float *tmp = hid + n.nh;                       /* 4 c2 */

    /* the glyph with a border of zeros, as the training padded it */
    std::fill(pad, pad + (h + 2) * pw, 0.f);
    for (int y = 0; y < h; y++)
        std::copy(in + y * w, in + (y + 1) * w, pad + (y + 1) * pw + 1);
    first_layer<C1>(n, pad, d1, ink1);
    second_layer<C1, C2>(n, d1, ink1, fc_in, tmp);
    std::copy(in + h * w, in + h * w + n.extra, fc_in + n.c2 * hq * wq);
    hidden_layer(n, fc_in, fin, vals, s.rows.data(), hid);
    float mx = -1e30f;
    for (int k = 0; k < n.nout; k++) {
        out[k] = n.fc2_b[k] + dot8(&n.fc2_w[(size_t)k * n.nh], hid, n.nh);
        mx = std::max(mx, out[k]);
    }
    float sum = 0;
    for (int k = 0; k < n.nout; k++) {
        out[k] = std::exp(out[k] - mx);
        sum += out[k];
    }
    for (int k = 0; k < n.nout; k++)
        out[k] /= sum;
}

} // namespace

void Cnn::forward(const float *in, NetScratch &s, float *out) const
{
    /* once each: the scratch is reused */
    if (s.buf.size() < scratch_size())
        s.buf.resize(scratch_size());
    size_t fin = (size_t)c2 * (gh / 4) * (gw / 4) + (size_t)extra;
    if (s.rows.size() < fin)
        s.rows.resize(fin);
    /* the model's networks' shape, and any other */
    if (c1 == 8 && c2 == 16)
        forward_as<8, 16>(*this, in, s, out);
    else
        forward_as<0, 0>(*this, in, s, out);
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
