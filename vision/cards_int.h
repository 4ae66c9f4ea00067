/*
 * cards_int.h - private to vision/: the C++ pieces shared by the detector
 * (cards.cpp), the template generator (gen_templates.cpp) and the tools.
 * Never included from C.
 */
#ifndef FW_CARDS_INT_H
#define FW_CARDS_INT_H

#include <opencv2/core.hpp>

#include <string>
#include <vector>

namespace fwv {

/* Canonical upright card the detector warps every quad to. */
constexpr int CARD_W = 200;
constexpr int CARD_H = 280;
/* Normalised glyph sizes of the corner index. */
constexpr int RANK_W = 24, RANK_H = 32;
constexpr int SUIT_W = 24, SUIT_H = 24;

/* One corner index cut out of a canonical card: the rank and suit glyphs as
 * CV_32F images of RANK_WxRANK_H and SUIT_WxSUIT_H (ink = 1, paper = 0),
 * and whether the ink is red. ok is false when no two glyph bands were
 * found. */
struct Index {
    bool ok = false;
    bool red = false;
    cv::Mat rank, suit;
};

/* Cut the top-left corner index out of a CARD_WxCARD_H BGR card. */
Index extract_index(const cv::Mat &card);

/* One template: kind 0 rank (cls 0..12, 0 = deuce), 1 suit (cls 0..3 c d h
 * s); deck is an id for reports only. */
struct Template {
    int kind = 0, cls = 0, deck = 0;
    cv::Mat img; /* CV_32F */
};

/* Read/write the model file (models/cards_index.fwt): a text header line
 * "FWCARDS 1 RW RH SW SH N" then N records of 3 bytes (kind, cls, deck) and
 * the glyph as 8-bit pixels. Throws std::runtime_error on failure. */
std::vector<Template> load_model(const std::string &path);
void save_model(const std::string &path, const std::vector<Template> &t);

/* Best class of a glyph against the templates of one kind; score is the best
 * zero-mean normalised correlation, margin its lead over the best other
 * class. allowed masks classes (bit per class), 0 = all. */
struct Match {
    int cls = -1;
    float score = -1, margin = 0;
};
Match classify(const std::vector<Template> &t, int kind, const cv::Mat &g,
               unsigned allowed);

/* The templates of one kind as zero-mean unit-norm CV_32F rows, so the
 * normalised correlation of a glyph with all of them is one product. */
struct Bank {
    cv::Mat rows;         /* N x (w*h) */
    std::vector<int> cls; /* class of each row */
};
Bank make_bank(const std::vector<Template> &t, int kind);
Match classify_bank(const Bank &b, const cv::Mat &g, unsigned allowed);

/* Read a face-up CARD_WxCARD_H card from its corner index, trying it
 * upright and turned 180 degrees. Returns the card or FW_CARD_NONE; conf
 * gets 0..1, flipped whether the turned reading won. */
unsigned char read_card(const std::vector<Template> &t, const cv::Mat &card,
                        float *conf, bool *flipped);
unsigned char read_card_bank(const Bank bank[2], const cv::Mat &card,
                             float *conf, bool *flipped);

} // namespace fwv

/* The detector behind the opaque handle of vision.h. */
struct fw_vision {
    std::vector<fwv::Template> templates;
    /* zero-mean, unit-norm templates as rows, per kind (built at load) */
    fwv::Bank bank[2];
};

#endif
