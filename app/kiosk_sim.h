/*
 * kiosk_sim.h - private to app/: the simulated dealer behind `feltwatch
 * demo` and `feltwatch run --source sim:`. It follows a script of table
 * events (PROTOCOL.md JSON Lines) and turns it into what the overhead camera
 * would see and what the dealer would tap:
 *
 *  - what a camera sees becomes pixels: cards dealt to a seat, burnt, turned
 *    on the board, found face up in the deck (boxed), thrown in the muck
 *    (a fold) or tabled (a show), and chips pushed into a seat's bet zone,
 *    are drawn frame by frame with the Debian card art (vision/sim.h) and
 *    the chip renderer (vision/chips.h) into the calibration's zones; the
 *    kiosk must find them again through card and chip vision and the
 *    trackers. The script's own card events, folds, shows and pushes are
 *    never handed to the engine.
 *  - everything else (table setup, levels, `hand_start`, declarations,
 *    floor decisions) is a tap: handed to the kiosk as the script's line.
 *
 * The dealer works like a person: one thing at a time, a hand over each
 * card or chip as it is put down, each change left in view long enough for
 * the trackers (SETTLE frames), bets gathered before a street's first card,
 * the table cleared before a new hand. It knows the
 * script's course (it replays the script through its own rules engine when
 * made) and so acts on the remedies a dealer is told: after a four-card flop
 * it takes the board back in and re-deals it after a pause; a premature card
 * is set aside.
 *
 * Size: the simulated camera is 1280x720 over the default calibration's
 * 2.4 m felt (0.5 px/mm). Cards are drawn 220 mm tall and chips 52 mm
 * across, about 2.5x and 1.3x real size: at 0.5 px/mm a real card would be
 * 44 px tall, and the corner-index reader needs about 100 px (see the
 * card-vision report). A real installation needs about 2.5x the pixels
 * across the felt (2560 px, or two cameras).
 *
 * Ownership: fw_kiosk_sim_new() gives the caller a sim freed with
 * fw_kiosk_sim_free() (NULL accepted). The calibration is borrowed and must
 * outlive the sim; the script text is copied.
 */
#ifndef FW_KIOSK_SIM_H
#define FW_KIOSK_SIM_H

#include "calibration.h"
#include "frames.h"
#include "rules.h"

#include <stddef.h>

typedef struct fw_kiosk_sim fw_kiosk_sim;

/** Frame size the sim draws: the default calibration's image. */
#define FW_KIOSK_SIM_WIDTH 1280
#define FW_KIOSK_SIM_HEIGHT 720

/**
 * A simulated dealer for SCRIPT (LEN bytes of JSON Lines, NAME for
 * messages) over calibration CAL, drawing deck DECK (a vision/sim.h deck
 * name; NULL: ar-anglo-poker, a poker deck held out of the card reader's
 * training). The script is checked whole here: a malformed
 * line, a card to a seat the calibration has no zone for, or a chip value
 * the calibration's chip set lacks is an error naming the line.
 * \param err receives the message on failure (may be NULL)
 * \returns FW_OK, FW_EINVAL / FW_EPARSE (bad script), FW_ENOENT (deck not
 *          installed), FW_ENOMEM
 */
int fw_kiosk_sim_new(const fw_calib *cal, const char *script, size_t len,
                     const char *name, const char *deck, fw_kiosk_sim **out,
                     char *err, size_t errsz);

void fw_kiosk_sim_free(fw_kiosk_sim *s);

/** The fw_frames_sim_draw_fn to install with user = the sim. */
int fw_kiosk_sim_draw(void *user, fw_image *frame, long index, double t);

/**
 * The dealer's taps due with frame INDEX, in script order: events and their
 * script lines (without "\n"; valid until the sim is freed).
 * \returns the number written (at most max).
 */
int fw_kiosk_sim_inputs(const fw_kiosk_sim *s, long index, fw_event *out,
                        const char **lines, int max);

/**
 * The frame on which the I-th thing the camera must report was put down
 * (the ground truth for latency), when that report is of TYPE; -1 when
 * there is no I-th or it is of another type (the camera went astray).
 */
long fw_kiosk_sim_landed(const fw_kiosk_sim *s, int i, fw_event_type type);

/**
 * What the simulated dealer answers when asked how much seat pushed as a
 * stack: the value of the stacks in its bet zone at frame INDEX (a push
 * of 5 or more chips of one value is put down as a stack). 0 when none.
 */
int64_t fw_kiosk_sim_stack_amount(const fw_kiosk_sim *s, long index, int seat);

/** Frames the script needs to show everything and let it settle. */
long fw_kiosk_sim_length(const fw_kiosk_sim *s);

/** Cards and chips the script puts on the table (for the summary). */
int fw_kiosk_sim_cards(const fw_kiosk_sim *s);
int fw_kiosk_sim_chips(const fw_kiosk_sim *s);

/** The hands the script plays (hand_start events). */
int fw_kiosk_sim_hands(const fw_kiosk_sim *s);

#endif
