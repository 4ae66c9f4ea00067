/*
 * stack_asker.h - stacks pushed into bet zones become questions for the
 * dealer. From above, a stack's count is only a range (chips.h
 * fw_stack_obs): the kiosk does not guess a bet from it, it asks the
 * dealer to confirm, and the dealer's answer becomes the `push` the chips
 * would have been. Pure C11, no OpenCV, nothing allocated.
 *
 * Rules it implements:
 *  - Each stack's centre is mapped to the felt (fw_calib_to_felt); a stack
 *    in seat N's bet zone (FW_ZONE_SEAT_BET) is that seat's. Stacks
 *    elsewhere are ignored.
 *  - A seat's stack must be seen on `stable_frames` (K) frames in a row
 *    before the question is asked (a hand putting it down, a flicker);
 *    then it is asked once: amounts from count_lo x value to count_hi x
 *    value of the top chip (the stack is taken as one denomination; a top
 *    chip of unknown value asks from count_lo x the set's smallest chip to
 *    count_hi x its largest).
 *  - A seat asked about is not asked again until its bet zone has shown no
 *    stack for `gone_frames` (M) frames in a row (the stack was gathered
 *    into the pot, or pulled back); fw_stack_asker_reset() (a new hand)
 *    forgets every seat.
 *  - The dealer's answer (an amount) becomes one push for that seat: the
 *    amount in chips of the asked value when it divides evenly, else in
 *    the set's chips, largest first. An answer of 0, or for a seat with
 *    no open question, gives no push.
 *
 * Ownership: the asker is a plain struct owned by the caller; the
 * calibration is borrowed and must outlive it. Threading: one asker per
 * thread at a time.
 */
#ifndef FW_STACK_ASKER_H
#define FW_STACK_ASKER_H

#include "calibration.h"
#include "chips.h"
#include "fw_error.h"
#include "rules.h"

/** A question for the dealer: how much did `seat` push? */
typedef struct fw_stack_question {
    int seat;
    int64_t lo, hi; /**< the amount lies between these, as far as seen */
    int64_t value;  /**< the top chip's value; 0 = unknown */
    int count_lo, count_hi;
} fw_stack_question;

typedef struct fw_stack_asker {
    const fw_calib *cal;
    int stable_frames, gone_frames;
    int seen_run[FW_MAX_SEATS + 1]; /* frames in a row with a stack */
    int gone_run[FW_MAX_SEATS + 1]; /* frames in a row without one */
    int asked[FW_MAX_SEATS + 1];    /* asked, and the stack still there */
    int open[FW_MAX_SEATS + 1];     /* asked, not yet answered */
    fw_stack_question last[FW_MAX_SEATS + 1];
} fw_stack_asker;

/**
 * Start an asker for the bet zones of `cal` (borrowed). stable_frames and
 * gone_frames <= 0 take the defaults, 3 and 15.
 * \returns FW_OK, FW_EINVAL (NULL arguments)
 */
int fw_stack_asker_init(fw_stack_asker *a, const fw_calib *cal,
                        int stable_frames, int gone_frames);

/** A new hand: every seat is forgotten (open questions too). */
void fw_stack_asker_reset(fw_stack_asker *a);

/**
 * Feed one frame's stacks (stacks may be NULL when n is 0). Writes the
 * questions that became due on this frame, in seat order, up to max.
 * \returns the number of questions written (0..max), or FW_EINVAL
 */
int fw_stack_asker_frame(fw_stack_asker *a, const fw_stack_obs *stacks,
                         int n, fw_stack_question *out, int max);

/**
 * The dealer's answer for `seat`: `amount` pushed. Fills *push (type
 * FW_EV_PUSH, seat, chips; other fields zeroed) and closes the question.
 * \returns 1 when *push is a push to apply, 0 when there is none (no open
 *          question for that seat, amount 0, or an amount the set's chips
 *          cannot make up in FW_MAX_CHIPS_PER_EVENT chips), FW_EINVAL
 */
int fw_stack_asker_answer(fw_stack_asker *a, int seat, int64_t amount,
                          fw_event *push);

/** Whether seat has a question not yet answered. */
int fw_stack_asker_open(const fw_stack_asker *a, int seat);

#endif
