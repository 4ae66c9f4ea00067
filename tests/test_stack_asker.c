/*
 * test_stack_asker.c - stacks in bet zones become questions for the dealer
 * and the answers pushes (stack_asker.h), on the simulated table's
 * calibration.
 */
#include <string.h>

#include "harness.h"
#include "stack_asker.h"

static fw_calib *CAL;

/* a stack whose top chip (value v) lies at felt point (x, y) */
static fw_stack_obs stack_at(double x, double y, int64_t v, int lo, int hi)
{
    fw_stack_obs o;
    double px, py;
    memset(&o, 0, sizeof o);
    fw_calib_to_image(CAL, x, y, &px, &py);
    o.center[0] = (float)px;
    o.center[1] = (float)py;
    o.radius = 20;
    o.value = v;
    o.count_lo = lo;
    o.count_hi = hi;
    o.confidence = 0.3f;
    snprintf(o.color, sizeof o.color, "black");
    return o;
}

/* seat 3's and seat 7's bet zones (calibration/sim_table.json) */
#define SEAT3 621, 510.5
#define SEAT7 1779, 510.5

static int setup(fw_stack_asker *a)
{
    CAL = NULL;
    return fw_calib_default(&CAL) == FW_OK &&
           fw_stack_asker_init(a, CAL, 3, 5) == FW_OK;
}

/* Asked once, after three frames; not again while the stack stays. */
TEST(asked_once_when_stable)
{
    fw_stack_asker a;
    ASSERT_TRUE(setup(&a));
    fw_stack_obs st = stack_at(SEAT3, 100, 6, 9);
    fw_stack_question q[4];
    ASSERT_INT_EQ(fw_stack_asker_frame(&a, &st, 1, q, 4), 0);
    ASSERT_INT_EQ(fw_stack_asker_frame(&a, &st, 1, q, 4), 0);
    ASSERT_INT_EQ(fw_stack_asker_frame(&a, &st, 1, q, 4), 1);
    ASSERT_INT_EQ(q[0].seat, 3);
    ASSERT_INT_EQ(q[0].lo, 600);
    ASSERT_INT_EQ(q[0].hi, 900);
    ASSERT_INT_EQ(q[0].value, 100);
    ASSERT_TRUE(fw_stack_asker_open(&a, 3));
    for (int i = 0; i < 10; i++)
        ASSERT_INT_EQ(fw_stack_asker_frame(&a, &st, 1, q, 4), 0);
    fw_calib_free(CAL);
}

/* A flicker restarts the count; gone for M frames, the seat is asked again
 * when a stack returns. */
TEST(flicker_and_return)
{
    fw_stack_asker a;
    ASSERT_TRUE(setup(&a));
    fw_stack_obs st = stack_at(SEAT7, 500, 2, 4);
    fw_stack_question q[2];
    ASSERT_INT_EQ(fw_stack_asker_frame(&a, &st, 1, q, 2), 0);
    ASSERT_INT_EQ(fw_stack_asker_frame(&a, &st, 1, q, 2), 0);
    ASSERT_INT_EQ(fw_stack_asker_frame(&a, NULL, 0, q, 2), 0); /* a hand */
    ASSERT_INT_EQ(fw_stack_asker_frame(&a, &st, 1, q, 2), 0);
    ASSERT_INT_EQ(fw_stack_asker_frame(&a, &st, 1, q, 2), 0);
    ASSERT_INT_EQ(fw_stack_asker_frame(&a, &st, 1, q, 2), 1);
    ASSERT_INT_EQ(q[0].seat, 7);
    /* gone 4 frames (M = 5): the same stack back is not asked again */
    for (int i = 0; i < 4; i++)
        ASSERT_INT_EQ(fw_stack_asker_frame(&a, NULL, 0, q, 2), 0);
    for (int i = 0; i < 5; i++)
        ASSERT_INT_EQ(fw_stack_asker_frame(&a, &st, 1, q, 2), 0);
    /* gone 5 frames: gathered; a new stack is a new question */
    for (int i = 0; i < 5; i++)
        ASSERT_INT_EQ(fw_stack_asker_frame(&a, NULL, 0, q, 2), 0);
    ASSERT_TRUE(!fw_stack_asker_open(&a, 7));
    int asked = 0;
    for (int i = 0; i < 3; i++)
        asked += fw_stack_asker_frame(&a, &st, 1, q, 2);
    ASSERT_INT_EQ(asked, 1);
    fw_calib_free(CAL);
}

/* The answer: in the asked chips when it divides, else the set's chips
 * largest first; none for 0, for a seat not asked, or twice. */
TEST(answers_become_pushes)
{
    fw_stack_asker a;
    ASSERT_TRUE(setup(&a));
    fw_stack_obs st[2] = {stack_at(SEAT3, 100, 6, 9),
                          stack_at(SEAT7, 25, 10, 14)};
    fw_stack_question q[4];
    int nq = 0;
    for (int i = 0; i < 3; i++)
        nq += fw_stack_asker_frame(&a, st, 2, q + nq, 4 - nq);
    ASSERT_INT_EQ(nq, 2);
    ASSERT_INT_EQ(q[0].seat, 3); /* seat order */
    ASSERT_INT_EQ(q[1].seat, 7);
    fw_event push;
    ASSERT_INT_EQ(fw_stack_asker_answer(&a, 3, 800, &push), 1);
    ASSERT_INT_EQ(push.type, FW_EV_PUSH);
    ASSERT_INT_EQ(push.seat, 3);
    ASSERT_INT_EQ(push.nchips, 8);
    for (int i = 0; i < 8; i++)
        ASSERT_INT_EQ(push.chips[i], 100);
    /* answered: a second answer gives nothing */
    ASSERT_INT_EQ(fw_stack_asker_answer(&a, 3, 800, &push), 0);
    ASSERT_INT_EQ(push.nchips, 0);
    /* seat 7 asked in 25s: 330 is not 25s, nor any chips of the set
     * (25, 100, 200, 500, 1000, 5000): no push, the question closed */
    ASSERT_INT_EQ(fw_stack_asker_answer(&a, 7, 330, &push), 0);
    ASSERT_TRUE(!fw_stack_asker_open(&a, 7));
    fw_calib_free(CAL);
}

/* An amount not of the top chip's value is made up of the set's chips,
 * largest first; an answer of 0 (the dealer cancelled) gives nothing. */
TEST(mixed_answer_and_cancel)
{
    fw_stack_asker a;
    ASSERT_TRUE(setup(&a));
    fw_stack_obs st = stack_at(SEAT3, 100, 6, 9);
    fw_stack_question q[1];
    for (int i = 0; i < 3; i++)
        fw_stack_asker_frame(&a, &st, 1, q, 1);
    fw_event push;
    ASSERT_INT_EQ(fw_stack_asker_answer(&a, 3, 1125, &push), 1);
    ASSERT_INT_EQ(push.nchips, 3);
    ASSERT_INT_EQ(push.chips[0], 1000);
    ASSERT_INT_EQ(push.chips[1], 100);
    ASSERT_INT_EQ(push.chips[2], 25);
    /* gathered, pushed again, cancelled */
    for (int i = 0; i < 5; i++)
        fw_stack_asker_frame(&a, NULL, 0, q, 1);
    int asked = 0;
    for (int i = 0; i < 3; i++)
        asked += fw_stack_asker_frame(&a, &st, 1, q, 1);
    ASSERT_INT_EQ(asked, 1);
    ASSERT_INT_EQ(fw_stack_asker_answer(&a, 3, 0, &push), 0);
    ASSERT_TRUE(!fw_stack_asker_open(&a, 3));
    /* a seat never asked */
    ASSERT_INT_EQ(fw_stack_asker_answer(&a, 5, 100, &push), 0);
    ASSERT_INT_EQ(fw_stack_asker_answer(&a, 99, 100, &push), 0);
    fw_calib_free(CAL);
}

/* A top chip of unknown value asks from count_lo x the smallest chip to
 * count_hi x the largest; a stack outside the bet zones is no question;
 * reset forgets the seats. */
TEST(unknown_value_outside_reset)
{
    fw_stack_asker a;
    ASSERT_TRUE(setup(&a));
    fw_stack_obs st[2] = {stack_at(SEAT3, 0, 2, 5),
                          stack_at(1200, 600, 100, 3, 4)}; /* the board */
    fw_stack_question q[4];
    int nq = 0;
    for (int i = 0; i < 3; i++)
        nq += fw_stack_asker_frame(&a, st, 2, q + nq, 4 - nq);
    ASSERT_INT_EQ(nq, 1);
    ASSERT_INT_EQ(q[0].seat, 3);
    ASSERT_INT_EQ(q[0].value, 0);
    ASSERT_INT_EQ(q[0].lo, 2 * 25);
    ASSERT_INT_EQ(q[0].hi, 5 * 5000);
    fw_stack_asker_reset(&a);
    ASSERT_TRUE(!fw_stack_asker_open(&a, 3));
    nq = 0;
    for (int i = 0; i < 3; i++)
        nq += fw_stack_asker_frame(&a, st, 2, q + nq, 4 - nq);
    ASSERT_INT_EQ(nq, 1);
    fw_calib_free(CAL);
}

/* Bad arguments: FW_EINVAL with a message; max 0 asks nothing yet. */
TEST(bad_arguments)
{
    fw_stack_asker a;
    fw_stack_question q[1];
    fw_event push;
    ASSERT_INT_EQ(fw_stack_asker_init(NULL, NULL, 0, 0), FW_EINVAL);
    ASSERT_TRUE(setup(&a));
    ASSERT_INT_EQ(fw_stack_asker_frame(NULL, NULL, 0, q, 1), FW_EINVAL);
    ASSERT_INT_EQ(fw_stack_asker_frame(&a, NULL, 2, q, 1), FW_EINVAL);
    ASSERT_INT_EQ(fw_stack_asker_frame(&a, NULL, 0, NULL, 1), FW_EINVAL);
    ASSERT_INT_EQ(fw_stack_asker_frame(&a, NULL, -1, q, 1), FW_EINVAL);
    ASSERT_INT_EQ(fw_stack_asker_answer(&a, 3, -5, &push), FW_EINVAL);
    ASSERT_INT_EQ(fw_stack_asker_answer(&a, 3, 5, NULL), FW_EINVAL);
    ASSERT_TRUE(strlen(fw_last_error()) > 0);
    fw_stack_obs st = stack_at(SEAT3, 100, 6, 9);
    for (int i = 0; i < 5; i++)
        ASSERT_INT_EQ(fw_stack_asker_frame(&a, &st, 1, NULL, 0), 0);
    ASSERT_TRUE(!fw_stack_asker_open(&a, 3));
    ASSERT_INT_EQ(fw_stack_asker_frame(&a, &st, 1, q, 1), 1);
    fw_calib_free(CAL);
}

static const fw_test_case tests[] = {
    TEST_CASE(asked_once_when_stable), TEST_CASE(flicker_and_return),
    TEST_CASE(answers_become_pushes),  TEST_CASE(mixed_answer_and_cancel),
    TEST_CASE(unknown_value_outside_reset), TEST_CASE(bad_arguments),
};

TEST_MAIN(tests)
