/*
 * chip_tracker.h - the chip tracker: one frame's chip detections (chips.h
 * fw_chip_obs, with values read against the calibrated chip set) in, the
 * `push` and `pull` events (PROTOCOL.md, rules.h fw_event) that became
 * certain on this frame out. Pure C11, no OpenCV.
 *
 * Rules it implements:
 *  - Each detection's centre is mapped to the felt (fw_calib_to_felt); the
 *    chips lying in seat N's bet zone (fw_calib_zone_at -> FW_ZONE_SEAT_BET)
 *    are that zone's content: a multiset of chip values. Chips are not
 *    followed one by one: only each zone's content counts.
 *  - Ignored, and counted for a caller who wants to ask the dealer
 *    (fw_chip_tracker_ignored, fw_chip_tracker_unknown): detections of value
 *    0 or less (a chip of no calibrated colour) in a bet zone, and
 *    detections outside every bet zone (any value).
 *  - A zone's content must be seen the same on `stable_frames` (K) frames
 *    in a row to become certain: a frame missing a chip or seeing an extra
 *    one (detections flicker) changes nothing. The first K-1 frames never
 *    give an event.
 *  - When the certain content changes, the difference is reported for that
 *    seat: the chips added as one `push` (chips arriving together between
 *    two certain states are one motion; an addition made after the content
 *    was certain again is a second push), the chips removed as one `pull`
 *    (prior-bet chips pulled back, TDA Rule 46). When one change both
 *    removes and adds chips (change made in the zone), the pull comes
 *    first, then the push. Chips are listed by value, highest first.
 *  - A zone that had chips and sees none at all (an arm or a hand over the
 *    table) keeps its content and reports nothing for up to `max_missing`
 *    (M) frames; only on the frame after that (and not before the K-th) is
 *    it certain that the chips are gone. Frames on which such a zone sees
 *    nothing do not count, either way, towards a new content becoming
 *    certain. A zone that sees only some of its chips (a hand over part of
 *    it) is not covered by this rule: after K frames it reads as a pull.
 *  - fw_chip_tracker_collect (the dealer gathers the bets into the pot) and
 *    fw_chip_tracker_reset (a new hand: the felt is cleared) make every zone
 *    "collecting" (also an empty one: a call declared by voice closes the
 *    round before its chips arrive): chips leaving it are silent until that
 *    zone's certain content is empty; then that zone reports pulls again.
 *    The collect has ended once no zone is collecting
 *    (fw_chip_tracker_collecting). Chips added while collecting are pushes.
 *  - Events of one frame are in seat order (pull before push for a seat);
 *    each carries has_t = 1 and t = the frame's time.
 *  - At most FW_CHIP_TRACKER_MAX_ZONE chips are held per zone and
 *    FW_CHIP_TRACKER_MAX_OBS detections read per frame; the rest of a frame
 *    is left out.
 *
 * Ownership: fw_chip_tracker is opaque, created by fw_chip_tracker_new()
 * (the only allocation; nothing is allocated per frame) and freed by
 * fw_chip_tracker_free() (NULL accepted). The calibration is borrowed and
 * must outlive the tracker. Events are written into the caller's array.
 *
 * Threading: one tracker per thread at a time; trackers are independent.
 * Errors set fw_last_error() on the calling thread.
 */
#ifndef FW_CHIP_TRACKER_H
#define FW_CHIP_TRACKER_H

#include "calibration.h"
#include "chips.h"
#include "fw_error.h"
#include "rules.h"

/** Fixed capacities: detections read per frame, chips held per bet zone. */
#define FW_CHIP_TRACKER_MAX_OBS 256
#define FW_CHIP_TRACKER_MAX_ZONE 64
/** Events held for delivery when the caller's array is too small. */
#define FW_CHIP_TRACKER_QUEUE 64

typedef struct fw_chip_tracker fw_chip_tracker;

typedef struct fw_chip_tracker_options {
    int stable_frames; /**< K: frames a zone's content must be seen (3) */
    int max_missing;   /**< M: frames a zone may see none of its chips (15) */
} fw_chip_tracker_options;

/** Fill *o with the defaults. */
void fw_chip_tracker_options_default(fw_chip_tracker_options *o);

/**
 * Create a tracker for the bet zones of `cal`. opt may be NULL (defaults);
 * fields <= 0 take the defaults.
 * \param cal the calibration (borrowed; must outlive the tracker)
 * \param out receives the tracker, freed with fw_chip_tracker_free()
 * \returns FW_OK, FW_EINVAL (NULL cal or out), FW_ENOMEM
 */
int fw_chip_tracker_new(const fw_calib *cal, const fw_chip_tracker_options *opt,
                        fw_chip_tracker **out);

/** Free a tracker; NULL is accepted. */
void fw_chip_tracker_free(fw_chip_tracker *t);

/**
 * A new hand: the felt is being cleared. Chips now certain in bet zones
 * leave silently (every zone is collecting, see the rules
 * above); contents not yet certain, the ignored counts and undelivered
 * events are dropped. NULL is accepted.
 */
void fw_chip_tracker_reset(fw_chip_tracker *t);

/**
 * The dealer gathers the bets into the pot (a betting round ended): every
 * zone is collecting, so chips leaving it are not pulls until it has been
 * empty. NULL is accepted.
 */
void fw_chip_tracker_collect(fw_chip_tracker *t);

/**
 * Feed one frame's chip detections (chips may be NULL when n is 0; at most
 * FW_CHIP_TRACKER_MAX_OBS are read). Writes up to max_events events
 * (FW_EV_PUSH or FW_EV_PULL with seat, chips and nchips; has_t = 1, t =
 * t_seconds; every other field zeroed) and their count to *nevents. Events
 * that do not fit are kept and delivered first on the next call (see
 * fw_chip_tracker_pending).
 * \returns FW_OK, FW_EINVAL (bad arguments), FW_ERANGE (the internal queue
 *          overflowed and events were dropped)
 */
int fw_chip_tracker_frame(fw_chip_tracker *t, double t_seconds,
                          const fw_chip_obs *chips, int n, fw_event *events,
                          int max_events, int *nevents);

/** Events waiting for delivery (0 for NULL). */
int fw_chip_tracker_pending(const fw_chip_tracker *t);

/**
 * The certain content of seat's bet zone: writes up to max values (highest
 * first) to values (may be NULL when max is 0).
 * \returns the number of chips in the zone (0 for a seat not in the
 *          calibration or a NULL tracker)
 */
int fw_chip_tracker_content(const fw_chip_tracker *t, int seat, int64_t *values,
                            int max);

/** Whether chips are still to be gathered: a collecting zone holds chips. */
int fw_chip_tracker_collecting(const fw_chip_tracker *t);

/**
 * The detections the last frame ignored: *unknown, those of value <= 0
 * lying in a bet zone; *outside, those outside every bet zone (any value).
 * Either pointer may be NULL.
 */
void fw_chip_tracker_ignored(const fw_chip_tracker *t, int *unknown,
                             int *outside);

/**
 * Unknown chips (value <= 0) in seat's bet zone, a count that has been seen
 * the same on K frames in a row: for asking the dealer what they are.
 * \returns the count (0 for a seat not in the calibration)
 */
int fw_chip_tracker_unknown(const fw_chip_tracker *t, int seat);

#endif
