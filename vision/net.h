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

/* Scratch for Cnn::forward, sized by Cnn::scratch_size(); reused. */
struct NetScratch {
    std::vector<float> buf;
};

struct Cnn {
    int gw = 0, gh = 0, extra = 0; /* glyph size, numbers after it */
    int c1 = 0, c2 = 0, nh = 0, nout = 0;
    /* weights and biases: conv1_w c1 x 3 x 3; conv2_w c2 x c1 x 3 x 3;
     * fc1_w nh x (c2 * gh/4 * gw/4 + extra), its inputs the pooled maps
     * channel by channel, row by row, then the numbers; fc2_w nout x nh */
    std::vector<float> conv1_w, conv1_b, conv2_w, conv2_b, fc1_w, fc1_b,
        fc2_w, fc2_b;
    /* conv2_w and fc1_w turned input-major (prepare() fills them), so
     * forward() adds a whole row per input that is not zero */
    std::vector<float> conv2_wt, fc1_wt;
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
