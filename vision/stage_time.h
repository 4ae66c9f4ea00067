/*
 * stage_time.h - private to vision/: where a frame's milliseconds go.
 *
 * Built with -DFW_STAGE_TIMES=ON, the card detector marks the end of each
 * stage (stage_mark) and counts the corner indexes each of its passes
 * reads (stage_pass, stage_read), and bench_cards prints the mean per
 * frame of each (fw_vision_stage_report, vision.h). Built without it, as the kiosk and
 * the tests are, every mark compiles to nothing: the frame loop pays no
 * clock reads for a diagnosis nobody asked for.
 */
#ifndef FW_STAGE_TIME_H
#define FW_STAGE_TIME_H

namespace fwv {

/* A stage's time runs from the previous mark to its own. */
enum Stage {
    ST_START,   /* marks the frame's start; takes no time of its own */
    ST_SCALE,   /* the frame brought to the working size */
    ST_LAB,     /* blur and Lab colour */
    ST_TABLE,   /* the table's colour and lighting, the off-table mask */
    ST_PAPER,   /* the paper mask */
    ST_MASKS,   /* opening, print filled, edges */
    ST_CORNERS, /* outlines and their corners */
    ST_PROPOSE, /* quads proposed from the corners and snapped */
    ST_CHOOSE,  /* quads chosen */
    ST_INDEX,   /* index corners cut into glyphs */
    ST_NET,     /* the glyphs read by the networks */
    ST_FACE,    /* face up or down, the reading's vote */
    ST_LOOSE,   /* the loose corners weighed (their index read: index, net) */
    ST_COUNT
};

/* The detector's passes over the frame's quads (cards.cpp detect()), for
 * counting the corner indexes each reads: a reading is most of a card's
 * time, and the cold frame is over its budget by the number of readings
 * more than by the cost of each. */
enum ReadPass {
    RP_QUADS,   /* each quad the finder gives (split_row(), read_quad()) */
    RP_RUNNERS, /* second choices for faces left unread (read_runners()) */
    RP_GROWN,   /* quads grown to the card's edges (read_grown()) */
    RP_CUT,     /* quads lengthened to the frame's edge (read_cut()) */
    RP_DISOWN,  /* faces read again from one corner (disown_corners()) */
    RP_LOOSE,   /* the finder's loose corners (read_loose()) */
    RP_FANNED,  /* runners fanned with a face (read_fanned()) */
    RP_LATER,   /* the passes after those (split faces, backs under) */
    RP_COUNT
};

#ifdef FW_STAGE_TIMES
void stage_mark(Stage s);
void stage_frame_done();
/* The corner readings that follow belong to pass p. */
void stage_pass(ReadPass p);
/* One corner's index looked for (read.h index_features()): found or not;
 * again, where it is a reading of the same corner again (the quad
 * scaled, the paper or the ink measured otherwise). */
void stage_read(bool found, bool again);
#else
inline void stage_mark(Stage) {}
inline void stage_frame_done() {}
inline void stage_pass(ReadPass) {}
inline void stage_read(bool, bool) {}
#endif

} // namespace fwv

#endif
