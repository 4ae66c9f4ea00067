/*
 * test_betting.c - bet interpretation (rules/betting.c) case by case, one
 * rule at a time, on the pure reading functions: no engine, no JSON.
 */
#include "betting.h"
#include "harness.h"

/* A no-limit situation facing `cur` with `prior` counted in front. */
static fw_bet_situation facing(int64_t cur, int64_t min_raise, int64_t prior,
                               int64_t stack)
{
    fw_bet_situation s;
    memset(&s, 0, sizeof s);
    s.current_bet = cur;
    s.seat_bet = prior;
    s.prior_front = prior;
    s.had_prior = prior > 0;
    s.stack = stack;
    s.min_raise = min_raise;
    s.min_bet = 100;
    s.max_to = FW_NO_CAP;
    s.may_raise = true;
    s.pot = 1000;
    s.last_chips_all_in = true;
    return s;
}

static fw_bet_reading push(const fw_bet_situation *s, fw_word w,
                           const int64_t *chips, int n)
{
    fw_bet_reading r;
    fw__read_push(s, w, chips, n, &r);
    return r;
}

TEST(r44_overchip_is_call)
{
    fw_bet_situation s = facing(300, 300, 0, 10000);
    int64_t c[] = {1000};
    fw_bet_reading r = push(&s, FW_WORD_NONE, c, 1);
    ASSERT_INT_EQ(r.action, FW_ACT_CALL);
    ASSERT_INT_EQ(r.to, 300);
    ASSERT_INT_EQ(r.returned, 700);
    ASSERT_STR_EQ(r.why, "overchip_call");
    ASSERT_INT_EQ(r.rule, FW_R_OVERCHIP);
}

TEST(r44_last_chip_overchip_is_call)
{
    /* "including your last chip": a call, not all-in */
    fw_bet_situation s = facing(300, 300, 0, 1000);
    int64_t c[] = {1000};
    fw_bet_reading r = push(&s, FW_WORD_NONE, c, 1);
    ASSERT_INT_EQ(r.action, FW_ACT_CALL);
    ASSERT_INT_EQ(r.returned, 700);
}

TEST(r44_overchip_raise_declared_is_max_for_chip)
{
    fw_bet_situation s = facing(300, 300, 0, 10000);
    int64_t c[] = {1000};
    fw_bet_reading r = push(&s, FW_WORD_RAISE, c, 1);
    ASSERT_INT_EQ(r.action, FW_ACT_RAISE);
    ASSERT_INT_EQ(r.to, 1000);
    ASSERT_INT_EQ(r.rule, FW_R_OVERCHIP);
}

TEST(r44_overchip_raise_declared_below_min_is_min_raise)
{
    fw_bet_situation s = facing(300, 300, 0, 10000);
    int64_t c[] = {500};
    fw_bet_reading r = push(&s, FW_WORD_RAISE, c, 1);
    ASSERT_INT_EQ(r.action, FW_ACT_RAISE);
    ASSERT_INT_EQ(r.to, 600);
    ASSERT_INT_EQ(r.owed, 100);
    ASSERT_STR_EQ(r.why, "min_raise_enforced");
}

TEST(r44_not_facing_overchip_is_bet_of_chip)
{
    fw_bet_situation s = facing(0, 100, 0, 10000);
    int64_t c[] = {5000};
    fw_bet_reading r = push(&s, FW_WORD_NONE, c, 1);
    ASSERT_INT_EQ(r.action, FW_ACT_BET);
    ASSERT_INT_EQ(r.to, 5000);
}

TEST(r45a_every_chip_needed_is_call)
{
    fw_bet_situation s = facing(1100, 600, 0, 50000);
    int64_t c[] = {500, 1000};
    fw_bet_reading r = push(&s, FW_WORD_NONE, c, 2);
    ASSERT_INT_EQ(r.action, FW_ACT_CALL);
    ASSERT_INT_EQ(r.returned, 400);
    ASSERT_INT_EQ(r.rule, FW_R_MULTI_CALL);
}

TEST(r45b_half_raise_is_full_raise)
{
    fw_bet_situation s = facing(1100, 600, 0, 50000);
    int64_t c[] = {1000, 100, 100, 100, 100, 100};
    fw_bet_reading r = push(&s, FW_WORD_NONE, c, 6);
    ASSERT_INT_EQ(r.action, FW_ACT_RAISE);
    ASSERT_INT_EQ(r.to, 1700);
    ASSERT_INT_EQ(r.owed, 200);
    ASSERT_STR_EQ(r.why, "min_raise_enforced");
}

TEST(r45b_exactly_half_is_raise_just_under_is_call)
{
    /* facing 1000 with a 1000 minimum raise: 1500 is exactly half a raise */
    fw_bet_situation s = facing(1000, 1000, 0, 50000);
    int64_t half[] = {1000, 500};
    fw_bet_reading r = push(&s, FW_WORD_NONE, half, 2);
    ASSERT_INT_EQ(r.action, FW_ACT_RAISE);
    ASSERT_INT_EQ(r.to, 2000);
    /* 1475: 25 short of half: a call with 475 back */
    int64_t under[] = {1000, 100, 100, 100, 100, 25, 25, 25};
    r = push(&s, FW_WORD_NONE, under, 8);
    ASSERT_INT_EQ(r.action, FW_ACT_CALL);
    ASSERT_INT_EQ(r.returned, 475);
}

TEST(r45b2_last_chips_all_in_below_half)
{
    fw_bet_situation s = facing(1400, 1400, 0, 2000);
    int64_t c[] = {1000, 500, 500};
    fw_bet_reading r = push(&s, FW_WORD_NONE, c, 3);
    ASSERT_INT_EQ(r.action, FW_ACT_ALL_IN);
    ASSERT_INT_EQ(r.to, 2000);
    ASSERT_STR_EQ(r.why, "multi_chip_all_in");
}

TEST(last_chips_without_the_exception_follow_fifty_percent)
{
    /* TDA 2015 / TPF: no 45-B-2: 2000 of last chips facing 1400 is short
     * of the 2100 threshold: a call, 600 back */
    fw_bet_situation s = facing(1400, 1400, 0, 2000);
    s.last_chips_all_in = false;
    int64_t c[] = {1000, 500, 500};
    fw_bet_reading r = push(&s, FW_WORD_NONE, c, 3);
    ASSERT_INT_EQ(r.action, FW_ACT_CALL);
    ASSERT_INT_EQ(r.returned, 600);
}

TEST(r57_older_books_take_the_lesser_value)
{
    fw_bet_situation s = facing(0, 400, 0, 100000);
    s.min_bet = 400;
    s.pot = 6000;
    s.unclear_lesser = true;
    fw_bet_reading r;
    fw__read_say(&s, FW_WORD_BET, true, 5, &r);
    ASSERT_INT_EQ(r.to, 500);
}

TEST(r46_prior_covers_goes_to_fifty_percent)
{
    /* BB posted one 1000 chip for a 100 blind; raise to 700 (600 more) */
    fw_bet_situation s = facing(700, 600, 100, 49900);
    s.prior_front = 1000;
    s.prior_covers = true;
    int64_t c[] = {100};
    fw_bet_reading r = push(&s, FW_WORD_NONE, c, 1);
    ASSERT_INT_EQ(r.action, FW_ACT_RAISE);
    ASSERT_INT_EQ(r.to, 1300);
    ASSERT_INT_EQ(r.rule, FW_R_PRIOR_CHIPS);
}

TEST(r47_not_reopened_raise_becomes_call)
{
    fw_bet_situation s = facing(200, 100, 125, 10000);
    s.may_raise = false;
    s.no_raise_rule = FW_R_REOPEN;
    int64_t c[] = {500};
    fw_bet_reading r = push(&s, FW_WORD_RAISE, c, 1);
    ASSERT_INT_EQ(r.action, FW_ACT_CALL);
    ASSERT_INT_EQ(r.to, 200);
    ASSERT_INT_EQ(r.rule, FW_R_REOPEN);
}

TEST(r51_undercall_is_flagged_not_all_in)
{
    fw_bet_situation s = facing(8000, 6000, 0, 100000);
    int64_t c[] = {1000, 1000};
    fw_bet_reading r = push(&s, FW_WORD_NONE, c, 2);
    ASSERT_TRUE(r.undercall);
    ASSERT_INT_EQ(r.rule, FW_R_UNDERCALL);
    /* the same chips as the last ones: all-in for less, no undercall */
    s.stack = 2000;
    r = push(&s, FW_WORD_NONE, c, 2);
    ASSERT_TRUE(!r.undercall);
    ASSERT_INT_EQ(r.action, FW_ACT_ALL_IN);
    ASSERT_INT_EQ(r.to, 2000);
}

TEST(r52b_pot_limit_overbet_reduced)
{
    fw_bet_situation s = facing(0, 1000, 0, 100000);
    s.min_bet = 1000;
    s.max_to = 10500;
    int64_t c[] = {5000, 5000, 1000, 500};
    fw_bet_reading r = push(&s, FW_WORD_NONE, c, 4);
    ASSERT_INT_EQ(r.action, FW_ACT_BET);
    ASSERT_INT_EQ(r.to, 10500);
    ASSERT_INT_EQ(r.returned, 1000);
    ASSERT_INT_EQ(r.rule, FW_R_PL_UNDERBET);
}

TEST(r55_say_call_not_facing_is_check)
{
    fw_bet_situation s = facing(0, 100, 0, 1000);
    fw_bet_reading r;
    fw__read_say(&s, FW_WORD_CALL, false, 0, &r);
    ASSERT_INT_EQ(r.action, FW_ACT_CHECK);
    ASSERT_INT_EQ(r.rule, FW_R_INVALID_DECL);
}

TEST(r57_unclear_amount_highest_reasonable)
{
    fw_bet_situation s = facing(0, 400, 0, 100000);
    s.min_bet = 400;
    s.pot = 4999;
    fw_bet_reading r;
    fw__read_say(&s, FW_WORD_BET, true, 5, &r);
    ASSERT_INT_EQ(r.to, 500);
    s.pot = 5000;
    fw__read_say(&s, FW_WORD_BET, true, 5, &r);
    ASSERT_INT_EQ(r.to, 5000);
    ASSERT_INT_EQ(r.rule, FW_R_UNCLEAR);
}

TEST(r43b_raise_amount_is_total)
{
    fw_bet_situation s = facing(2000, 2000, 0, 100000);
    fw_bet_reading r;
    fw__read_say(&s, FW_WORD_RAISE, true, 8000, &r);
    ASSERT_INT_EQ(r.action, FW_ACT_RAISE);
    ASSERT_INT_EQ(r.to, 8000);
    ASSERT_INT_EQ(r.owed, 8000);
    ASSERT_INT_EQ(r.rule, FW_R_RAISE_TOTAL);
}

TEST(limit_raise_is_one_bet)
{
    fw_bet_situation s = facing(200, 200, 0, 10000);
    s.limit = true;
    s.min_bet = 200;
    s.max_to = 400;
    int64_t c[] = {1000};
    fw_bet_reading r = push(&s, FW_WORD_RAISE, c, 1);
    ASSERT_INT_EQ(r.action, FW_ACT_RAISE);
    ASSERT_INT_EQ(r.to, 400);
    ASSERT_INT_EQ(r.returned, 600);
}

static const fw_test_case cases[] = {
    TEST_CASE(r44_overchip_is_call),
    TEST_CASE(r44_last_chip_overchip_is_call),
    TEST_CASE(r44_overchip_raise_declared_is_max_for_chip),
    TEST_CASE(r44_overchip_raise_declared_below_min_is_min_raise),
    TEST_CASE(r44_not_facing_overchip_is_bet_of_chip),
    TEST_CASE(r45a_every_chip_needed_is_call),
    TEST_CASE(r45b_half_raise_is_full_raise),
    TEST_CASE(r45b_exactly_half_is_raise_just_under_is_call),
    TEST_CASE(r45b2_last_chips_all_in_below_half),
    TEST_CASE(last_chips_without_the_exception_follow_fifty_percent),
    TEST_CASE(r57_older_books_take_the_lesser_value),
    TEST_CASE(r46_prior_covers_goes_to_fifty_percent),
    TEST_CASE(r47_not_reopened_raise_becomes_call),
    TEST_CASE(r51_undercall_is_flagged_not_all_in),
    TEST_CASE(r52b_pot_limit_overbet_reduced),
    TEST_CASE(r55_say_call_not_facing_is_check),
    TEST_CASE(r57_unclear_amount_highest_reasonable),
    TEST_CASE(r43b_raise_amount_is_total),
    TEST_CASE(limit_raise_is_one_bet),
};

TEST_MAIN(cases)
