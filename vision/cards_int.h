/*
 * cards_int.h - private to vision/: the detector behind the opaque handle
 * of vision.h. Never included from C.
 */
#ifndef FW_CARDS_INT_H
#define FW_CARDS_INT_H

#include "detect.h"
#include "fan_strip.h"
#include "flat_view.h"
#include "index_hunt.h"
#include "net.h"
#include "pips.h"
#include "read.h"
#include "read_memo.h"
#include "vision.h"

#include <opencv2/core.hpp>

#include <array>
#include <memory>
#include <vector>

namespace fwv {

/* What a face's two index corners read, each alone (cards.cpp analyse()),
 * kept for the frame's later passes: each corner's likeliest card
 * (FW_CARD_NONE where no index was read), how surely it holds an index
 * (0 to 1), and where its index lies, in the frame's pixels. */
struct CornerReads {
    fw_card card[2];
    float qual[2];
    cv::Point2f at[2];
};

/* What the frame made of a quad, kept for the next frame (read_memo.h):
 * the observation, its corners' readings, and the quad they were read at
 * (detection scale: the finder's own, or the second choice that replaced
 * it, cards.cpp read_runners() and read_grown()). */
struct QuadReading {
    fw_card_obs obs;
    CornerReads reads;
    CardQuad at;
};

/* What a loose corner's index read (cards.cpp read_loose()), kept for
 * the next frame (read_memo.h): the likeliest card (FW_CARD_NONE when no
 * index was read) and how surely (the corner's index sureness and the
 * reading's). */
struct LooseReading {
    fw_card card;
    float sure;
    /* the rank's height, in pixels of the frame read (0 when none) */
    float rank_px = 0;
};

/* A second choice read this frame (cards.cpp read_runner()): its quad
 * (detection scale) and what it read. */
struct RunnerReading {
    CardQuad at;
    fw_card_obs obs;
    CornerReads reads;
};

} // namespace fwv

struct fw_vision {
    fwv::CardModel model;
    /* the quad finder and scratch memory, kept between frames */
    fwv::Finder finder;
    std::vector<fwv::CardQuad> quads;
    /* the quads as the finder found them, before a reader's pass put
     * another in a quad's place (read_rest()) */
    std::vector<fwv::CardQuad> found;
    /* the corners' readings of out[i], for each detection i of a frame */
    std::vector<fwv::CornerReads> reads;
    /* whether out[i]'s reading was carried from the frame before (memo):
     * its second choices were tried when it was read */
    std::vector<char> carried;
    cv::Mat full, work, tmp;
    fwv::ReadScratch rs;
    fwv::IndexFeat feat;
    /* the rank's height, in pixels of the image read, at which the last
     * read_corner() found an index (0 when it found none) */
    float rank_px = 0;
    fwv::PipScratch pips;
    fwv::NetScratch net;
    /* the overlap of two quads (read_loose, read_runners) */
    std::vector<cv::Point2f> poly;
    /* the cells of a card that show from under the cards over it
     * (judge_by_what_shows) */
    cv::Mat shown, shown_hsv;
    /* the second choices read this frame (read_runner): one quad tried
     * for several faces, or by several passes, is read once */
    std::vector<fwv::RunnerReading> runners_read;
    /* the readings of the frame before, for cards and loose corners that
     * lie still; the detection image's size they were made at; and the
     * last frame's counts (fw_vision_last_frame) */
    fwv::ReadMemo<fwv::QuadReading> memo;
    fwv::ReadMemo<fwv::LooseReading> loose_memo;
    /* the finder's second choices (Finder::runners) read in the frame
     * before (read_runner()), for those that lie still */
    fwv::ReadMemo<fwv::RunnerReading> runner_memo;
    cv::Size memo_size;
    /* read_loose(): for each loose corner (Finder::loose_of), whether a
     * card laid there read surely; the order the cards laid are read in */
    std::vector<char> loose_sure;
    std::vector<size_t> loose_order;
    /* read_loose(): the cards its corners read that were found already,
     * where they were read (input pixels) */
    struct LooseDup {
        fw_card card;
        std::array<cv::Point2f, 4> q;
    };
    std::vector<LooseDup> loose_dups;
    /* read_loose_at_faces(): the sides of the faces read, and the loose
     * corners near them by their distance */
    std::vector<float> face_s, face_l;
    std::vector<std::pair<float, int>> corners_near;
    /* read_hunted(): the indexes found by their glyphs (index_hunt.h), and
     * the detections so far an index may not lie in (work resolution) */
    fwv::HuntScratch hunt;
    std::vector<fwv::IndexSeed> seeds;
    /* read_hunted() off the table: the backs found (work resolution) */
    std::vector<std::array<cv::Point2f, 4>> hunt_backs;
    struct Detected {
        std::array<cv::Point2f, 4> q;
        bool read; /* a card read there (else a back or a face unread) */
    };
    std::vector<Detected> read_here;
    /* read_hunted(): the cards read surely at the indexes found (work
     * resolution), before they are taken; paired: laid again as measured
     * against the same card's other index */
    struct Hunted {
        int card;
        float sure;
        float rank_px;
        std::array<cv::Point2f, 4> q;
        cv::Point2f down;
        bool paired;
    };
    std::vector<Hunted> hunted;
    /* read_outlined(): the edges' closed outlines (Finder::
     * closed_outlines()) */
    std::vector<fwv::CardQuad> outlined, known;
    /* read_outlined(): the outlines' readings, for those that lie still */
    fwv::ReadMemo<fw_card_obs> outline_memo;
    /* read_rest(): the cards laid in the rest of a quad another replaced,
     * and their readings, for those that lie still */
    std::vector<fwv::CardQuad> rest_laid;
    fwv::ReadMemo<fw_card_obs> rest_memo;
    /* find_backs_under(): the strips beside backs, and the other cards'
     * quads */
    fwv::StripScratch strip;
    std::vector<std::array<cv::Point2f, 4>> other_quads;
    /* drop_off_size(), drop_lone_prints(), drop_printed_faces(): the
     * sizes of the faces read, their centres, their ranks' heights, and
     * which of the frame's readings they are */
    std::vector<float> face_sizes, face_x, face_y, face_index_px, face_sorted;
    std::vector<int> face_at;
    /* mark_unseen_backs(): the backs whose quads are seen less surely
     * than BACK_SEEN and overlap no other detection, as reported */
    std::vector<std::array<cv::Point2f, 4>> unseen_backs;
    fw_vision_frame_stats last{};
    /* the last frame detected in full (work resolution), what it reported
     * (for a caller's max), its counts, and how many frames since were
     * taken as unchanged (cards.cpp frame_unchanged()), of how many
     * may be before an unsure reading is due to be read again */
    cv::Mat still_ref;
    std::vector<fw_card_obs> still_out;
    fw_vision_frame_stats still_last{};
    int still_max = -1, still_skipped = 0, still_budget = 0;
    /* read_inside(): a detector of its own (the same model) for what lies
     * on a light object taken for a card, made when first needed, and what
     * it reports; inside_of, set on that one, keeps it from looking inside
     * in turn */
    std::unique_ptr<fw_vision> inside;
    std::vector<fw_card_obs> inside_out;
    bool inside_of = false;
    /* the frame seen flat (flat_view.h; cards.cpp detect_seen_flat()):
     * not yet known, seen flat enough as it is, or detected through the
     * view; the frame size it was found for, the quads it was fitted to
     * and the frame brought to FULL_LONG and seen through it */
    enum class Flat { unknown, as_is, through } flat_state = Flat::unknown;
    int flat_wait = 0; /* frames before the view is fitted again */
    int flat_since = 0; /* frames since it was fitted (recheck_view()) */
    bool flat_off = false; /* fw_vision_use_flat_view(v, 0) */
    fwv::FlatView flat;
    cv::Size flat_frame;
    std::vector<fwv::Quad> flat_quads;
    cv::Mat flat_pre, flat_img;
    /* the warp through the view, and the flat image halved and at work
     * resolution */
    fwv::FlatWarp flat_warp;
    cv::Mat flat_half, flat_work_img;
    /* the frame at work resolution as the camera gave it, and as it was
     * when last detected in full through the view (frame_unchanged()) */
    cv::Mat flat_work, flat_ref;
};

#endif
