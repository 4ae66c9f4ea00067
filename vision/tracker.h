/*
 * tracker.h - the card tracker: one frame's card detections (vision.h) in,
 * the table events (PROTOCOL.md, rules.h fw_event) that became certain on
 * this frame out. Pure C11, no OpenCV.
 *
 * Rules it implements:
 *  - A card is tracked by its centre mapped to the felt (fw_calib_to_felt),
 *    matched frame to frame to the nearest track within `gate_mm` whose
 *    reading agrees (two face-up cards read differently never match; a back
 *    may match a face-up card, with a penalty, so a card turned over keeps
 *    its identity).
 *  - A face-up detection read differently from a track's card is another
 *    card, unless it lies within still_mm/2 of where the track was seen
 *    and read as its card on the last frame: then it is that card misread,
 *    and a card certain face up keeps its reading.
 *  - A card's state (zone from fw_calib_zone_at, face, card) becomes certain
 *    once it has been seen `stable_frames` (K) times without moving more than
 *    `still_mm` (a card sliding across the felt is never "in" a zone it
 *    passes through). Detections seen fewer than K times are noise.
 *  - On the burn and the muck, a detection whose long side is turned more
 *    than 25 degrees from a track's, or that lies more than still_mm from
 *    it, is another card or a hand over the pile (a card at rest neither
 *    turns nor moves; a card tossed on the pile lands at its own angle).
 *  - A detection unmatched on a frame whose centre lies within still_mm of
 *    a detection matched to a card is a second outline of that card.
 *  - A card missing from up to `max_missing` (M) frames is still there
 *    (hands and arms over the table). A card that had been reported and is
 *    missing longer is kept as "lost" until the next hand: when a card comes
 *    back to the same place (same seat, or the same face-up card on the board)
 *    it is the same card, not a new one.
 *  - On becoming certain in a place:
 *      seat N card zone  -> card to seat N (face down unless face up and read)
 *      burn              -> card to burn
 *      board             -> card to board, face up, with the card (only once
 *                           read)
 *      deck, face up     -> card to deck face up (a boxed card)
 *      muck, from a seat -> fold for that seat (once per seat per hand; also
 *                           when a seat's card vanished and a new face-down
 *                           card appears in the muck within M frames)
 *    and when all of a seat's cards still in its zone are face up and read,
 *    at least one of them turned over there -> show with the cards (once per
 *    seat per hand).
 *  - Events of one frame are emitted in the order their cards first appeared
 *    in the state that became certain (then by track creation).
 *
 * Ownership: fw_tracker is opaque, created by fw_tracker_new() (the only
 * allocation; nothing is allocated per frame) and freed by fw_tracker_free()
 * (NULL accepted). The calibration is borrowed and must outlive the tracker.
 *
 * Threading: one tracker per thread at a time; trackers are independent.
 */
#ifndef FW_TRACKER_H
#define FW_TRACKER_H

#include "calibration.h"
#include "fw_error.h"
#include "rules.h"
#include "vision.h"

/** Fixed capacities: tracks held, detections read per frame. */
#define FW_TRACKER_MAX_TRACKS 64
#define FW_TRACKER_MAX_OBS 128
/** Events held for delivery when the caller's array is too small. */
#define FW_TRACKER_QUEUE 256

typedef struct fw_tracker fw_tracker;

typedef struct fw_tracker_options {
    int stable_frames; /**< K: frames a state must be seen (default 3) */
    int max_missing;   /**< M: frames a card may be unseen (default 15) */
    double gate_mm;    /**< matching distance frame to frame (default 60) */
    double still_mm;   /**< drift allowed while becoming stable (default 25) */
} fw_tracker_options;

/** Fill *o with the defaults. */
void fw_tracker_options_default(fw_tracker_options *o);

/**
 * Create a tracker. opt may be NULL (defaults); fields <= 0 take defaults.
 * \returns FW_OK, FW_EINVAL (NULL cal/out), FW_ENOMEM
 */
int fw_tracker_new(const fw_calib *cal, const fw_tracker_options *opt,
                   fw_tracker **out);

/** Free a tracker; NULL is accepted. */
void fw_tracker_free(fw_tracker *t);

/**
 * A new hand: cards now on the table are remembered as old (they emit
 * nothing more), lost cards are forgotten, the per-hand fold/show marks and
 * undelivered events are cleared.
 */
void fw_tracker_reset(fw_tracker *t);

/**
 * The board is taken back in to be dealt again (a four-card flop, Rule
 * 39-A): the board cards now tracked emit nothing more and are forgotten
 * once out of view for M frames, so the same cards dealt again later are
 * reported again.
 */
void fw_tracker_forget_board(fw_tracker *t);

/**
 * Feed one frame's detections (obs may be NULL when n is 0; at most
 * FW_TRACKER_MAX_OBS are read). Writes up to max_events events (type, and
 * the fields of that type, has_t/t = t_seconds; the rest zeroed) and their
 * count to *nevents. Events that do not fit are kept and delivered first on
 * the next call (see fw_tracker_pending).
 * \returns FW_OK, FW_EINVAL (bad arguments), FW_ERANGE (the internal queue
 *          overflowed and events were dropped)
 */
int fw_tracker_frame(fw_tracker *t, double t_seconds, const fw_card_obs *obs,
                     int n, fw_event *events, int max_events, int *nevents);

/** Events waiting for delivery. */
int fw_tracker_pending(const fw_tracker *t);

/** Tracks currently held (visible, occluded or lost): for tests and UI. */
int fw_tracker_count(const fw_tracker *t);

#endif
