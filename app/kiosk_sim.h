/*
 * kiosk_sim.h - private to app/: the scripted dealer of `feltwatch run
 * --source sim:`. It draws the simulated camera's frames (fw_frames_sim_set_
 * draw): the felt of the default calibration, then one hand dealt into the
 * calibration's zones over time: two face-down cards to each of six seats,
 * one at a time from seat 1 (left of the button, seat 6), then the dealer's
 * pre-flop taps (every seat calls, the big blind checks: betting needs chips
 * the vision does not read yet), a burn card and a three-card flop.
 *
 * Ownership: fw_kiosk_sim_new() gives the caller a sim freed with
 * fw_kiosk_sim_free() (NULL accepted). The calibration and the detector are
 * borrowed and must outlive the sim.
 */
#ifndef FW_KIOSK_SIM_H
#define FW_KIOSK_SIM_H

#include "calibration.h"
#include "frames.h"
#include "rules.h"

typedef struct fw_kiosk_sim fw_kiosk_sim;

/** Frame size the sim draws: the default calibration's image. */
#define FW_KIOSK_SIM_WIDTH 1280
#define FW_KIOSK_SIM_HEIGHT 720

/**
 * A scripted dealer over calibration `cal`; face-up cards are drawn with the
 * glyphs of `glyphs` (may be NULL: Hershey letters).
 * \returns FW_OK, FW_EINVAL, FW_ENOMEM
 */
int fw_kiosk_sim_new(const fw_calib *cal, const fw_vision *glyphs,
                     fw_kiosk_sim **out);

void fw_kiosk_sim_free(fw_kiosk_sim *s);

/** The fw_frames_sim_draw_fn to install with user = the sim. */
int fw_kiosk_sim_draw(void *user, fw_image *frame, long index, double t);

/**
 * The dealer's taps due with frame `index` (protocol `say` events), written
 * to out (at most max). \returns the number written.
 */
int fw_kiosk_sim_inputs(const fw_kiosk_sim *s, long index, fw_event *out,
                        int max);

/** Frames the script needs to show everything and let it settle. */
long fw_kiosk_sim_length(const fw_kiosk_sim *s);

/** The number of cards the script places (12 hole, 1 burn, 3 board). */
int fw_kiosk_sim_cards(const fw_kiosk_sim *s);

#endif
