/*
 * net.h - private to vision/: the corner-index reader's networks and the
 * model file that holds them (C++).
 *
 * Each network reads one glyph cut by read.h's index_features() (a gh x gw
 * image of ink, 0 to 1) and the few numbers that follow it (the box's
 * aspect, its size, its colour): two 3x3 convolutions, each with ReLU and
 * 2x2 max pooling, then one hidden layer (ReLU) over the pooled maps and
 * the numbers, then a softmax. Convolutions see a stroke wherever it lies,
 * so a typeface the network never saw, drawn a little wider or bolder or
 * further left, is still read by its strokes. Trained by
 * tools/train_card_cnn.py on glyphs that train_cards --export cuts from
 * renders of the Debian decks only.
 */
#ifndef FW_NET_H
#define FW_NET_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace fwv {

/* Scratch for Cnn::forward, reused: buf sized by Cnn::scratch_size(),
 * rows by the hidden layer's inputs (forward() grows either if short). */
struct NetScratch {
    std::vector<float> buf;
    std::vector<int> rows;
};

struct Cnn {
    int gw = 0, gh = 0, extra = 0; /* glyph size, numbers after it */
    int c1 = 0, c2 = 0, nh = 0, nout = 0;
    /* weights and biases: conv1_w c1 x 3 x 3; conv2_w c2 x c1 x 3 x 3;
     * fc1_w nh x (c2 * gh/4 * gw/4 + extra), its inputs the pooled maps
     * channel by channel, row by row, then the numbers; fc2_w nout x nh */
    std::vector<float> conv1_w, conv1_b, conv2_w, conv2_b, fc1_w, fc1_b,
        fc2_w, fc2_b;
    /* prepare() fills these from the weights above, laid out as
     * forward() reads them: conv1_wt 3 x 3 x c1 and conv2_wt
     * 3 x 3 x c1 x c2, the output channels innermost, so one input adds
     * to all of them at once; conv1_bg the first layer's pooled output
     * where the glyph is blank (c1), conv2_base the second layer's sums
     * there (gh/2 x gw/2 x c2); fc1_wt input-major, its inputs the pooled
     * maps pixel by pixel, channels innermost, then the numbers */
    std::vector<float> conv1_wt, conv2_wt, conv1_bg, conv2_base, fc1_wt;
    void prepare();
    /* softmax probabilities into out (nout) from in (gh * gw glyph, then
     * extra numbers) */
    void forward(const float *in, NetScratch &s, float *out) const;
    size_t scratch_size() const;
};

struct CardModel {
    Cnn rank, suit;
};

/* The model file: "FWCM", version 2 (uint32), then the rank and the suit
 * network, each: gw, gh, extra, c1, c2, nh, nout, 0 (int32), then
 * conv1_w, conv1_b, conv2_w, conv2_b, fc1_w, fc1_b, fc2_w, fc2_b (float32),
 * all little-endian. The shapes must be
 * the ones read.h cuts and reads. Throws on bad data. */
void parse_model(const uint8_t *data, size_t n, CardModel &m);

/* The model compiled into the library (models/cards_cnn.fwm). */
const uint8_t *builtin_model(size_t *n);

} // namespace fwv

#endif
