/*
 * stage_time.h - private to vision/: where a frame's milliseconds go.
 *
 * Built with -DFW_STAGE_TIMES=ON, the card detector marks the end of each
 * stage (stage_mark) and bench_cards prints the mean per frame of each
 * (fw_vision_stage_report, vision.h). Built without it, as the kiosk and
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

#ifdef FW_STAGE_TIMES
void stage_mark(Stage s);
void stage_frame_done();
#else
inline void stage_mark(Stage) {}
inline void stage_frame_done() {}
#endif

} // namespace fwv

#endif
