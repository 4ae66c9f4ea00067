/*
 * test_chip_side.c - chip stacks seen by the side camera (chip_side.h):
 * rendered side views with ground truth on every felt, the edge cases (one
 * chip, forty, two stacks touching, mixed colours, a calibrated set, an
 * empty felt) and bad arguments; also proves chip_side.h is plain C.
 */
#include "chip_side.h"
#include "chips.h"
#include "harness.h"

enum { W = 1280, H = 720, MAXOBS = 16 };

static const char *const felts[] = {"green", "blue", "red", "wood"};
static const char *const names[FW_CHIPS_NCOLORS] = {
    "white",  "red",    "green",  "blue", "black",
    "yellow", "purple", "orange", "pink", "grey"};
static const int64_t values[FW_CHIPS_NCOLORS] = {1,    5,   25,   10,   100,
                                                 1000, 500, 5000, 2500, 50};

static uint8_t *frame(void)
{
    static uint8_t *buf;
    if (!buf)
        buf = malloc((size_t)W * H * 3);
    return buf;
}

/* The index of the detection whose column overlaps truth t by at least half
 * the narrower of the two; -1 when none. */
static int match(const fw_side_stack *t, const fw_side_stack *obs, int n)
{
    for (int j = 0; j < n; j++) {
        float lo = t->x0 > obs[j].x0 ? t->x0 : obs[j].x0;
        float hi = t->x1 < obs[j].x1 ? t->x1 : obs[j].x1;
        float wt = t->x1 - t->x0, wo = obs[j].x1 - obs[j].x0;
        if (hi - lo > 0.5f * (wt < wo ? wt : wo))
            return j;
    }
    return -1;
}

/* Totals over the stacks of several scenes. */
typedef struct tally {
    int stacks, found, exact, held, near, extra;
} tally;

/*
 * Render `nst` stacks of `counts` (looks from the seed, or `looks` for
 * every chip when not NULL) and count them; add the results to *t.
 * Returns 0, or -1 when rendering or counting failed.
 */
static int run_scene(uint32_t seed, const char *felt, const fw_side_view *view,
                     const int *counts, int nst, const fw_calib_chip *looks,
                     const fw_calib_chip *set, int nset, tally *t,
                     fw_side_stack *truth, fw_side_stack *obs, int *nobs)
{
    fw_side_spec spec[8];
    for (int i = 0; i < nst; i++) {
        spec[i].nchips = counts[i];
        spec[i].chips = looks;
    }
    int placed = fw_chips_render_side(frame(), W, H, W * 3, seed, felt, view,
                                      spec, nst, truth);
    if (placed != nst)
        return -1;
    if (fw_chips_count_side(frame(), W, H, W * 3, set, nset, obs, MAXOBS,
                            nobs) != FW_OK)
        return -1;
    int used = 0;
    for (int i = 0; i < nst; i++) {
        t->stacks++;
        int j = match(&truth[i], obs, *nobs);
        if (j < 0) {
            printf("  seed %u %s: stack of %d missed\n", seed, felt,
                   truth[i].count);
            continue;
        }
        used++;
        t->found++;
        int c = truth[i].count, err = obs[j].count - c;
        t->exact += err == 0;
        t->held += obs[j].count_lo <= c && c <= obs[j].count_hi;
        t->near += err >= -2 && err <= 2;
        if (err != 0)
            printf("  seed %u %s: %d chips (%.1f px) counted %d [%d..%d] "
                   "confidence %.2f\n",
                   seed, felt, c, truth[i].chip_px, obs[j].count,
                   obs[j].count_lo, obs[j].count_hi, obs[j].confidence);
    }
    t->extra += *nobs - used;
    return 0;
}

/* Counts for scene s, stack i: spread over 1..40 by a fixed hash. */
static int count_for(uint32_t s, int i)
{
    uint32_t x = s * 2654435761u + (uint32_t)i * 40503u + 17u;
    x ^= x >> 13;
    x *= 0x5bd1e995u;
    x ^= x >> 15;
    return 1 + (int)(x % FW_SIDE_MAX_CHIPS);
}

/*
 * Every felt, four scenes of three stacks apart, colours from the seed: at
 * least 95% of the stacks found (a stack of the felt's own colour may lose
 * its outline in the felt), no false ones, at least 85% of those found
 * counted exactly, 90% within their range and 95% within two chips; the
 * stack's column and top lie where they were drawn.
 */
TEST(felts_ground_truth)
{
    tally t = {0};
    int place_ok = 0;
    for (size_t f = 0; f < sizeof felts / sizeof felts[0]; f++)
        for (uint32_t s = 1; s <= 4; s++) {
            uint32_t seed = 100 * (uint32_t)f + s;
            int counts[3];
            for (int i = 0; i < 3; i++)
                counts[i] = count_for(seed, i);
            fw_side_stack truth[3], obs[MAXOBS];
            int n = 0;
            ASSERT_INT_EQ(run_scene(seed, felts[f], NULL, counts, 3, NULL, NULL,
                                    0, &t, truth, obs, &n),
                          0);
            for (int i = 0; i < 3; i++) {
                int j = match(&truth[i], obs, n);
                if (j >= 0 && obs[j].x0 < truth[i].x0 + 4 &&
                    obs[j].x0 > truth[i].x0 - 4 &&
                    obs[j].top < truth[i].top + 3 &&
                    obs[j].top > truth[i].top - 3)
                    place_ok++;
            }
        }
    printf("  %d stacks: found %d, exact %d, range holds %d, within 2 %d, "
           "false %d, placed right %d\n",
           t.stacks, t.found, t.exact, t.held, t.near, t.extra, place_ok);
    ASSERT_TRUE(t.found * 100 >= t.stacks * 95);
    ASSERT_INT_EQ(t.extra, 0);
    ASSERT_TRUE(t.exact * 100 >= t.found * 85);
    ASSERT_TRUE(t.held * 100 >= t.found * 90);
    ASSERT_TRUE(t.near * 100 >= t.found * 95);
    ASSERT_TRUE(place_ok * 100 >= t.found * 95);
}

/* A single chip stands as a stack of one, on every felt. */
TEST(single_chip)
{
    int exact = 0, scenes = 0;
    for (size_t f = 0; f < sizeof felts / sizeof felts[0]; f++)
        for (uint32_t s = 1; s <= 2; s++) {
            tally t = {0};
            int one = 1, n = 0;
            fw_side_stack truth[1], obs[MAXOBS];
            ASSERT_INT_EQ(run_scene(500 + s, felts[f], NULL, &one, 1, NULL,
                                    NULL, 0, &t, truth, obs, &n),
                          0);
            scenes++;
            ASSERT_INT_EQ(t.found, 1);
            ASSERT_INT_EQ(n, 1);
            ASSERT_INT_EQ(obs[0].count_lo, 1);
            ASSERT_TRUE(obs[0].count_hi <= 2);
            exact += obs[0].count == 1;
        }
    ASSERT_TRUE(exact * 4 >= scenes * 3);
}

/*
 * Short stacks, where the side is only one to four chips high and the top
 * face takes most of the outline: four stacks of 1, 2, 3 and 4 chips per
 * scene, on every felt, six seeds each (every fifth scene touching in a
 * row): nearly all found, no false ones, at least 90% of those found
 * counted exactly, and every range holds the truth.
 */
TEST(short_stacks)
{
    tally t = {0};
    for (size_t f = 0; f < sizeof felts / sizeof felts[0]; f++)
        for (uint32_t s = 1; s <= 6; s++) {
            uint32_t seed = 1200 + 10 * (uint32_t)f + s;
            int counts[4];
            for (int i = 0; i < 4; i++)
                counts[i] = 1 + (int)((i + s) % 4);
            fw_side_view view = {0, 0, s % 5 == 0};
            fw_side_stack truth[4], obs[MAXOBS];
            int n = 0;
            ASSERT_INT_EQ(run_scene(seed, felts[f], &view, counts, 4, NULL,
                                    NULL, 0, &t, truth, obs, &n),
                          0);
        }
    printf("  %d stacks: found %d, exact %d, range holds %d, false %d\n",
           t.stacks, t.found, t.exact, t.held, t.extra);
    ASSERT_TRUE(t.found * 100 >= t.stacks * 95);
    ASSERT_TRUE(t.extra <= 1);
    ASSERT_TRUE(t.exact * 100 >= t.found * 90);
    ASSERT_INT_EQ(t.held, t.found);
}

/*
 * The scene of `feltwatch sim --side --stacks 3 --seed 5 --table wood`
 * (tests/chips_cli.sh): a stack of two yellow chips 12 px thick, seen from
 * about 26 degrees, was read as one chip, range [1, 1]: its outline put the
 * top face's front edge a chip too low.
 */
TEST(two_chips_not_one)
{
    int counts[3] = {8, 2, 18};
    fw_side_stack truth[3], obs[MAXOBS];
    int n = 0;
    fw_side_spec spec[3];
    for (int i = 0; i < 3; i++) {
        spec[i].nchips = counts[i];
        spec[i].chips = NULL;
    }
    ASSERT_INT_EQ(fw_chips_render_side(frame(), W, H, W * 3, 5, "wood", NULL,
                                       spec, 3, truth),
                  3);
    ASSERT_INT_EQ(truth[1].count, 2);
    ASSERT_INT_EQ(
        fw_chips_count_side(frame(), W, H, W * 3, NULL, 0, obs, MAXOBS, &n),
        FW_OK);
    ASSERT_INT_EQ(n, 3);
    int j = match(&truth[1], obs, n);
    ASSERT_TRUE(j >= 0);
    ASSERT_INT_EQ(obs[j].count, 2);
    ASSERT_TRUE(obs[j].count_lo <= 2 && obs[j].count_hi >= 2);
    for (int i = 0; i < 3; i++) {
        j = match(&truth[i], obs, n);
        ASSERT_TRUE(j >= 0);
        ASSERT_TRUE(obs[j].count_lo <= truth[i].count &&
                    truth[i].count <= obs[j].count_hi);
    }
}

/* The tallest stack, forty chips, at four views: the count is exact or its
 * range holds the truth, and is never more than two chips off. */
TEST(forty_chips)
{
    tally t = {0};
    for (uint32_t s = 1; s <= 4; s++) {
        int forty = FW_SIDE_MAX_CHIPS, n = 0;
        fw_side_stack truth[1], obs[MAXOBS];
        ASSERT_INT_EQ(run_scene(700 + s, felts[s % 4], NULL, &forty, 1, NULL,
                                NULL, 0, &t, truth, obs, &n),
                      0);
    }
    ASSERT_INT_EQ(t.found, 4);
    ASSERT_INT_EQ(t.held, 4);
    ASSERT_INT_EQ(t.near, 4);
    ASSERT_TRUE(t.exact >= 3);
}

/* Two stacks standing side by side, touching: reported as two, split near
 * their join, each counted. */
TEST(touching_pair)
{
    tally t = {0};
    int split_ok = 0, scenes = 0;
    for (uint32_t s = 1; s <= 6; s++) {
        int counts[2] = {count_for(900 + s, 0), count_for(900 + s, 1)};
        fw_side_view view = {0, 0, 1};
        fw_side_stack truth[2], obs[MAXOBS];
        int n = 0;
        ASSERT_INT_EQ(run_scene(900 + s, felts[s % 4], &view, counts, 2, NULL,
                                NULL, 0, &t, truth, obs, &n),
                      0);
        scenes++;
        /* the renderer makes them touch */
        ASSERT_TRUE(truth[1].x0 - truth[0].x1 < 2.0f);
        if (n == 2) {
            float join = 0.5f * (truth[0].x1 + truth[1].x0);
            float w = truth[0].x1 - truth[0].x0;
            if (obs[0].x1 > join - 0.1f * w && obs[0].x1 < join + 0.1f * w)
                split_ok++;
        }
    }
    printf("  %d of %d pairs split at the join; exact %d of %d, range holds "
           "%d\n",
           split_ok, scenes, t.exact, t.stacks, t.held);
    ASSERT_TRUE(split_ok >= scenes - 1);
    ASSERT_TRUE(t.found >= t.stacks - 1);
    ASSERT_TRUE(t.held * 100 >= t.stacks * 80);
    ASSERT_INT_EQ(t.extra, 0);
}

/* A chip set for the tests: every colour of the fixed list with its value
 * and its edge spots as fw_chips_look() paints them. */
static int make_set(fw_calib_chip set[FW_CHIPS_NCOLORS])
{
    for (int i = 0; i < FW_CHIPS_NCOLORS; i++)
        if (fw_chips_look(names[i], values[i], &set[i]) != FW_OK)
            return -1;
    return 0;
}

/*
 * Mixed colours in one stack (red, white and blue in turn, the top chip
 * black): counted through the colour changes, the top colour named.
 */
TEST(mixed_colours)
{
    fw_calib_chip set[FW_CHIPS_NCOLORS];
    ASSERT_INT_EQ(make_set(set), 0);
    static const int pattern[] = {1, 1, 0, 3, 3, 3, 0, 1, 0, 3};
    fw_calib_chip looks[FW_SIDE_MAX_CHIPS];
    tally t = {0};
    int colour_ok = 0;
    for (uint32_t s = 1; s <= 4; s++) {
        int count = 6 + 7 * (int)s;
        for (int k = 0; k < count; k++)
            looks[k] = set[pattern[k % 10]];
        looks[count - 1] = set[4]; /* black on top */
        fw_side_spec spec = {count, looks};
        fw_side_stack truth, obs[MAXOBS];
        int n = 0;
        ASSERT_INT_EQ(fw_chips_render_side(frame(), W, H, W * 3, 300 + s,
                                           felts[s % 4], NULL, &spec, 1,
                                           &truth),
                      1);
        ASSERT_STR_EQ(truth.top_color, "black");
        ASSERT_INT_EQ(
            fw_chips_count_side(frame(), W, H, W * 3, NULL, 0, obs, MAXOBS, &n),
            FW_OK);
        ASSERT_INT_EQ(n, 1);
        t.stacks++;
        t.exact += obs[0].count == count;
        t.held += obs[0].count_lo <= count && count <= obs[0].count_hi;
        colour_ok += strcmp(obs[0].top_color, "black") == 0;
        ASSERT_INT_EQ(obs[0].top_value, 0); /* no set given */
    }
    ASSERT_TRUE(t.exact >= 3);
    ASSERT_INT_EQ(t.held, 4);
    ASSERT_INT_EQ(colour_ok, 4);
}

/* With a calibrated set, the top chip's value is read from its colour; a
 * stack of one colour per scene, every colour in turn. */
TEST(top_value_with_set)
{
    fw_calib_chip set[FW_CHIPS_NCOLORS];
    ASSERT_INT_EQ(make_set(set), 0);
    int right = 0, tried = 0;
    for (int c = 0; c < FW_CHIPS_NCOLORS; c++) {
        fw_calib_chip looks[8];
        for (int k = 0; k < 8; k++)
            looks[k] = set[(c + 3) % FW_CHIPS_NCOLORS];
        looks[7] = set[c];
        fw_side_spec spec = {8, looks};
        fw_side_stack truth, obs[MAXOBS];
        int n = 0;
        const char *felt = c == 2 ? "blue" : "green"; /* not green on green */
        ASSERT_INT_EQ(fw_chips_render_side(frame(), W, H, W * 3,
                                           1000 + (uint32_t)c, felt, NULL,
                                           &spec, 1, &truth),
                      1);
        ASSERT_INT_EQ(truth.top_value, values[c]);
        ASSERT_INT_EQ(fw_chips_count_side(frame(), W, H, W * 3, set,
                                          FW_CHIPS_NCOLORS, obs, MAXOBS, &n),
                      FW_OK);
        if (n != 1)
            printf("  %s on top of %s on %s: %d stacks\n", names[c],
                   names[(c + 3) % FW_CHIPS_NCOLORS], felt, n);
        ASSERT_INT_EQ(n, 1);
        tried++;
        if (obs[0].top_value == values[c] &&
            strcmp(obs[0].top_color, names[c]) == 0)
            right++;
        else
            printf("  %s on top read as %s (%" PRId64 ")\n", names[c],
                   obs[0].top_color, obs[0].top_value);
    }
    ASSERT_INT_EQ(right, tried);
}

/* An empty felt, every felt and a few views: no stack. */
TEST(empty_felt)
{
    for (size_t f = 0; f < sizeof felts / sizeof felts[0]; f++)
        for (uint32_t s = 1; s <= 2; s++) {
            fw_side_stack obs[MAXOBS];
            int n = -1;
            ASSERT_INT_EQ(fw_chips_render_side(frame(), W, H, W * 3, s,
                                               felts[f], NULL, NULL, 0, NULL),
                          0);
            ASSERT_INT_EQ(fw_chips_count_side(frame(), W, H, W * 3, NULL, 0,
                                              obs, MAXOBS, &n),
                          FW_OK);
            ASSERT_INT_EQ(n, 0);
        }
}

/* The same seed draws the same scene; another seed another. */
TEST(deterministic)
{
    fw_side_spec spec[2] = {{12, NULL}, {3, NULL}};
    size_t sz = (size_t)W * H * 3;
    uint8_t *a = malloc(sz);
    ASSERT_TRUE(a != NULL);
    fw_side_stack ta[2], tb[2];
    int ra =
        fw_chips_render_side(a, W, H, W * 3, 42, "wood", NULL, spec, 2, ta);
    int rb = fw_chips_render_side(frame(), W, H, W * 3, 42, "wood", NULL, spec,
                                  2, tb);
    int same = memcmp(a, frame(), sz) == 0 && memcmp(ta, tb, sizeof ta) == 0;
    fw_chips_render_side(frame(), W, H, W * 3, 43, "wood", NULL, spec, 2, tb);
    int differ = memcmp(a, frame(), sz) != 0;
    free(a);
    ASSERT_INT_EQ(ra, 2);
    ASSERT_INT_EQ(rb, 2);
    ASSERT_TRUE(same);
    ASSERT_TRUE(differ);
}

/* The caller's array is never overrun: three stacks, room for one. */
TEST(max_respected)
{
    fw_side_spec spec[3] = {{5, NULL}, {9, NULL}, {14, NULL}};
    fw_side_stack obs[2];
    int n = -1;
    ASSERT_INT_EQ(fw_chips_render_side(frame(), W, H, W * 3, 5, "red", NULL,
                                       spec, 3, NULL),
                  3);
    memset(&obs[1], 0x5a, sizeof obs[1]);
    ASSERT_INT_EQ(
        fw_chips_count_side(frame(), W, H, W * 3, NULL, 0, obs, 1, &n), FW_OK);
    ASSERT_INT_EQ(n, 1);
    ASSERT_INT_EQ(((const uint8_t *)&obs[1])[0], 0x5a);
    ASSERT_INT_EQ(
        fw_chips_count_side(frame(), W, H, W * 3, NULL, 0, NULL, 0, &n), FW_OK);
    ASSERT_INT_EQ(n, 0);
}

/* Bad frames and arguments fail cleanly with FW_EINVAL and a message. */
TEST(bad_arguments)
{
    uint8_t px[64 * 64 * 3] = {0};
    fw_side_stack obs[4];
    fw_calib_chip set[1];
    int n = 7;
    memset(set, 0, sizeof set);
    ASSERT_INT_EQ(fw_chips_count_side(NULL, 64, 64, 192, NULL, 0, obs, 4, &n),
                  FW_EINVAL);
    ASSERT_INT_EQ(n, 0);
    ASSERT_TRUE(strlen(fw_last_error()) > 0);
    ASSERT_INT_EQ(fw_chips_count_side(px, 0, 0, 0, NULL, 0, obs, 4, &n),
                  FW_EINVAL);
    ASSERT_TRUE(strstr(fw_last_error(), "0x0") != NULL);
    ASSERT_INT_EQ(fw_chips_count_side(px, 8, 8, 24, NULL, 0, obs, 4, &n),
                  FW_EINVAL);
    ASSERT_INT_EQ(fw_chips_count_side(px, 64, 64, 100, NULL, 0, obs, 4, &n),
                  FW_EINVAL); /* stride < 3 * width */
    ASSERT_TRUE(strstr(fw_last_error(), "stride") != NULL);
    ASSERT_INT_EQ(fw_chips_count_side(px, 64, 64, 192, NULL, 0, obs, 4, NULL),
                  FW_EINVAL);
    ASSERT_INT_EQ(fw_chips_count_side(px, 64, 64, 192, NULL, 0, NULL, 4, &n),
                  FW_EINVAL);
    ASSERT_INT_EQ(fw_chips_count_side(px, 64, 64, 192, NULL, 0, obs, -1, &n),
                  FW_EINVAL);
    ASSERT_INT_EQ(fw_chips_count_side(px, 64, 64, 192, NULL, 2, obs, 4, &n),
                  FW_EINVAL); /* nset without a set */
    ASSERT_INT_EQ(fw_chips_count_side(px, 64, 64, 192, set, -1, obs, 4, &n),
                  FW_EINVAL);
    /* a flat 64x64 frame is valid and holds no stack */
    ASSERT_INT_EQ(fw_chips_count_side(px, 64, 64, 192, NULL, 0, obs, 4, &n),
                  FW_OK);
    ASSERT_INT_EQ(n, 0);

    fw_side_spec one = {3, NULL}, none = {0, NULL}, many = {41, NULL};
    ASSERT_INT_EQ(fw_chips_render_side(NULL, 64, 64, 192, 1, "green", NULL,
                                       &one, 1, NULL),
                  FW_EINVAL);
    ASSERT_INT_EQ(
        fw_chips_render_side(px, 0, 0, 0, 1, "green", NULL, &one, 1, NULL),
        FW_EINVAL);
    ASSERT_INT_EQ(
        fw_chips_render_side(px, 64, 64, 100, 1, "green", NULL, &one, 1, NULL),
        FW_EINVAL);
    ASSERT_INT_EQ(
        fw_chips_render_side(px, 64, 64, 192, 1, "marble", NULL, &one, 1, NULL),
        FW_EINVAL);
    ASSERT_TRUE(strstr(fw_last_error(), "marble") != NULL);
    ASSERT_INT_EQ(
        fw_chips_render_side(px, 64, 64, 192, 1, "green", NULL, &none, 1, NULL),
        FW_EINVAL);
    ASSERT_INT_EQ(
        fw_chips_render_side(px, 64, 64, 192, 1, "green", NULL, &many, 1, NULL),
        FW_EINVAL);
    ASSERT_INT_EQ(
        fw_chips_render_side(px, 64, 64, 192, 1, "green", NULL, NULL, 2, NULL),
        FW_EINVAL);
    fw_side_view steep = {60, 0, 0}, fat = {0, 40, 0};
    ASSERT_INT_EQ(fw_chips_render_side(px, 64, 64, 192, 1, "green", &steep,
                                       &one, 1, NULL),
                  FW_EINVAL);
    ASSERT_INT_EQ(
        fw_chips_render_side(px, 64, 64, 192, 1, "green", &fat, &one, 1, NULL),
        FW_EINVAL);
    /* forty chips cannot stand in a 64-pixel frame */
    fw_side_spec tall = {40, NULL};
    ASSERT_INT_EQ(
        fw_chips_render_side(px, 64, 64, 192, 1, "green", NULL, &tall, 1, NULL),
        FW_EINVAL);
    ASSERT_TRUE(strstr(fw_last_error(), "fit") != NULL);
    /* a chip look that is not a colour */
    fw_calib_chip bad;
    ASSERT_INT_EQ(fw_chips_look("red", 5, &bad), FW_OK);
    bad.edge_spots = 99;
    fw_side_spec odd = {1, &bad};
    ASSERT_INT_EQ(
        fw_chips_render_side(px, 64, 64, 192, 1, "green", NULL, &odd, 1, NULL),
        FW_EINVAL);
}

static const fw_test_case tests[] = {
    TEST_CASE(felts_ground_truth), TEST_CASE(single_chip),
    TEST_CASE(short_stacks),       TEST_CASE(two_chips_not_one),
    TEST_CASE(forty_chips),        TEST_CASE(touching_pair),
    TEST_CASE(mixed_colours),      TEST_CASE(top_value_with_set),
    TEST_CASE(empty_felt),         TEST_CASE(deterministic),
    TEST_CASE(max_respected),      TEST_CASE(bad_arguments),
};

TEST_MAIN(tests)
