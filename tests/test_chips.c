/*
 * test_chips.c - chip vision (chips.h) on rendered overhead scenes with
 * ground truth; also proves chips.h is plain C.
 */
#include "chips.h"
#include "harness.h"

#include <math.h>

enum { W = 1280, H = 720, NCHIPS = 40, MAXOBS = 128, SEEDS = 6 };

static const char *const felts[] = {"green", "blue", "red", "wood"};
static const char *const names[FW_CHIPS_NCOLORS] = {
    "white",  "red",    "green",  "blue", "black",
    "yellow", "purple", "orange", "pink", "grey"};

static int color_index(const char *name)
{
    for (int i = 0; i < FW_CHIPS_NCOLORS; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

/* The test's chip set: every rendered colour with a value of its own. */
static int make_set(fw_calib_chip set[FW_CHIPS_NCOLORS])
{
    static const int64_t values[FW_CHIPS_NCOLORS] = {1,    5,   25,   10,   100,
                                                     1000, 500, 5000, 2500, 50};
    memset(set, 0, sizeof(fw_calib_chip) * FW_CHIPS_NCOLORS);
    for (int i = 0; i < FW_CHIPS_NCOLORS; i++) {
        set[i].value = values[i];
        snprintf(set[i].color, sizeof set[i].color, "%s", names[i]);
        if (fw_chips_color_lab(names[i], set[i].lab) != FW_OK)
            return -1;
    }
    return 0;
}

/* Results of one rendered scene against its truth. */
typedef struct scene_result {
    int truth_count[FW_CHIPS_NCOLORS], found_count[FW_CHIPS_NCOLORS];
    int ntruth, nfound, matched, radius_ok, color_ok, value_ok, nstacks;
} scene_result;

static uint8_t *frame_buf;

static int run_scene(const char *felt, uint32_t seed, const fw_calib_chip *set,
                     int nset, scene_result *res)
{
    static const int64_t values[FW_CHIPS_NCOLORS] = {1,    5,   25,   10,   100,
                                                     1000, 500, 5000, 2500, 50};
    fw_chip_obs truth[NCHIPS], obs[MAXOBS];
    fw_stack_obs stacks[16];
    int nobs = 0, nst = 0;
    memset(res, 0, sizeof *res);
    if (!frame_buf)
        frame_buf = malloc((size_t)W * H * 3);
    if (!frame_buf)
        return -1;
    int n = fw_chips_render(frame_buf, W, H, W * 3, seed, felt, NCHIPS, truth);
    if (n < NCHIPS * 3 / 4)
        return -1;
    fw_chips_params prm = {.set = set, .nset = nset};
    if (fw_chips_detect(frame_buf, W, H, W * 3, &prm, obs, MAXOBS, &nobs,
                        stacks, 16, &nst) != FW_OK)
        return -1;
    res->ntruth = n;
    res->nfound = nobs;
    res->nstacks = nst;
    for (int i = 0; i < n; i++)
        res->truth_count[color_index(truth[i].color)]++;
    for (int j = 0; j < nobs; j++) {
        int c = color_index(obs[j].color);
        if (c >= 0)
            res->found_count[c]++;
    }
    for (int i = 0; i < n; i++) {
        int best = -1;
        float bd = 1e9f;
        for (int j = 0; j < nobs; j++) {
            float dx = obs[j].center[0] - truth[i].center[0];
            float dy = obs[j].center[1] - truth[i].center[1];
            float d = sqrtf(dx * dx + dy * dy);
            if (d < bd) {
                bd = d;
                best = j;
            }
        }
        if (best < 0 || bd > 0.5f * truth[i].radius)
            continue;
        res->matched++;
        if (fabsf(obs[best].radius - truth[i].radius) <= 0.2f * truth[i].radius)
            res->radius_ok++;
        if (strcmp(obs[best].color, truth[i].color) == 0)
            res->color_ok++;
        if (obs[best].value == values[color_index(truth[i].color)])
            res->value_ok++;
    }
    return 0;
}

/*
 * Every felt, SEEDS scenes each: per colour, the share of scenes whose
 * count of that colour is exact must be >= 90%; >= 98% of chips found, each
 * within 20% of its radius; no stack reported on flat chips.
 */
TEST(counts_per_colour)
{
    int exact[FW_CHIPS_NCOLORS] = {0}, scenes = 0;
    int ntruth = 0, matched = 0, radius_ok = 0, color_ok = 0, extra = 0;
    int stacks = 0;
    for (size_t f = 0; f < sizeof felts / sizeof felts[0]; f++)
        for (uint32_t s = 1; s <= SEEDS; s++) {
            scene_result r;
            ASSERT_INT_EQ(run_scene(felts[f], s, NULL, 0, &r), 0);
            scenes++;
            int scene_exact = 1;
            for (int c = 0; c < FW_CHIPS_NCOLORS; c++) {
                if (r.truth_count[c] == r.found_count[c])
                    exact[c]++;
                else
                    scene_exact = 0;
            }
            if (!scene_exact || r.matched < r.ntruth)
                printf("  %s seed %u: %d chips, %d found, %d matched, "
                       "%d colour right\n",
                       felts[f], s, r.ntruth, r.nfound, r.matched, r.color_ok);
            ntruth += r.ntruth;
            matched += r.matched;
            radius_ok += r.radius_ok;
            color_ok += r.color_ok;
            extra += r.nfound - r.matched;
            stacks += r.nstacks;
        }
    printf("  %d scenes, %d chips: found %d, radius ok %d, colour ok %d, "
           "extra %d, stacks %d\n",
           scenes, ntruth, matched, radius_ok, color_ok, extra, stacks);
    printf("  exact count per colour:");
    for (int c = 0; c < FW_CHIPS_NCOLORS; c++)
        printf(" %s %d/%d", names[c], exact[c], scenes);
    printf("\n");
    for (int c = 0; c < FW_CHIPS_NCOLORS; c++)
        ASSERT_TRUE(exact[c] * 10 >= scenes * 9);
    ASSERT_TRUE(matched * 100 >= ntruth * 98);
    ASSERT_INT_EQ(radius_ok, matched);
    ASSERT_TRUE(color_ok * 100 >= matched * 98);
    ASSERT_TRUE(stacks * 100 <= ntruth);
}

/* With a calibrated set, values are read from the colours. */
TEST(values_with_calibration)
{
    fw_calib_chip set[FW_CHIPS_NCOLORS];
    ASSERT_INT_EQ(make_set(set), 0);
    int matched = 0, value_ok = 0;
    for (size_t f = 0; f < sizeof felts / sizeof felts[0]; f++)
        for (uint32_t s = 101; s <= 103; s++) {
            scene_result r;
            ASSERT_INT_EQ(run_scene(felts[f], s, set, FW_CHIPS_NCOLORS, &r), 0);
            matched += r.matched;
            value_ok += r.value_ok;
        }
    printf("  values right: %d of %d found chips\n", value_ok, matched);
    ASSERT_TRUE(matched > 0);
    ASSERT_TRUE(value_ok * 100 >= matched * 98);
}

/* An empty felt has no chips. */
TEST(empty_felt)
{
    for (size_t f = 0; f < sizeof felts / sizeof felts[0]; f++) {
        scene_result r;
        ASSERT_INT_EQ(
            fw_chips_render(frame_buf ? frame_buf
                                      : (frame_buf = malloc((size_t)W * H * 3)),
                            W, H, W * 3, 7, felts[f], 0, NULL),
            0);
        fw_chip_obs obs[8];
        int n = -1, ns = -1;
        fw_stack_obs st[4];
        ASSERT_INT_EQ(fw_chips_detect(frame_buf, W, H, W * 3, NULL, obs, 8,
                                      &n, st, 4, &ns),
                      FW_OK);
        ASSERT_INT_EQ(n, 0);
        ASSERT_INT_EQ(ns, 0);
        (void)r;
    }
}

/* Bad frames and arguments fail cleanly with FW_EINVAL and a message. */
TEST(bad_inputs)
{
    uint8_t px[3 * 64] = {0};
    fw_chip_obs obs[4];
    int n = 5;
    ASSERT_INT_EQ(
        fw_chips_detect(px, 1, 1, 3, NULL, obs, 4, &n, NULL, 0, NULL),
        FW_EINVAL);
    ASSERT_INT_EQ(n, 0);
    ASSERT_TRUE(strlen(fw_last_error()) > 0);
    ASSERT_INT_EQ(
        fw_chips_detect(px, 0, 0, 0, NULL, obs, 4, &n, NULL, 0, NULL),
        FW_EINVAL);
    ASSERT_INT_EQ(
        fw_chips_detect(NULL, 64, 64, 192, NULL, obs, 4, &n, NULL, 0, NULL),
        FW_EINVAL);
    ASSERT_INT_EQ(
        fw_chips_detect(px, 64, 1, 192, NULL, obs, 4, &n, NULL, 0, NULL),
        FW_EINVAL);
    ASSERT_INT_EQ(
        fw_chips_detect(px, 16, 16, 10, NULL, obs, 4, &n, NULL, 0, NULL),
        FW_EINVAL);
    /* a set of 3 without the set, a negative or non-finite radius or lens */
    const fw_chips_params bad[] = {{.nset = 3},
                                   {.radius_px = -2},
                                   {.radius_px = NAN},
                                   {.focal_px = INFINITY},
                                   {.focal_px = 900, .principal = {NAN, 0}}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ASSERT_INT_EQ(fw_chips_detect(px, 16, 16, 48, &bad[i], obs, 4, &n,
                                      NULL, 0, NULL),
                      FW_EINVAL);
    ASSERT_INT_EQ(fw_chips_render(px, 1, 1, 3, 1, "green", 4, NULL), FW_EINVAL);
    ASSERT_INT_EQ(fw_chips_render(px, 0, 0, 0, 1, "green", 4, NULL), FW_EINVAL);
    uint8_t *img = malloc(64 * 64 * 3);
    ASSERT_TRUE(img != NULL);
    int rc = fw_chips_render(img, 64, 64, 192, 1, "marble", 4, NULL);
    free(img);
    ASSERT_INT_EQ(rc, FW_EINVAL);
    float lab[3];
    ASSERT_INT_EQ(fw_chips_color_lab("mauve", lab), FW_ENOENT);
    ASSERT_INT_EQ(fw_chips_color_lab("red", lab), FW_OK);
    ASSERT_TRUE(lab[1] > 30.0f);
    /* a uniform 16x16 frame is valid and holds no chip */
    uint8_t flat[16 * 16 * 3];
    memset(flat, 90, sizeof flat);
    ASSERT_INT_EQ(
        fw_chips_detect(flat, 16, 16, 48, NULL, obs, 4, &n, NULL, 0, NULL),
        FW_OK);
    ASSERT_INT_EQ(n, 0);
}

/* The result arrays are never overrun. */
TEST(max_respected)
{
    scene_result r;
    ASSERT_INT_EQ(run_scene("green", 3, NULL, 0, &r), 0);
    fw_chip_obs obs[6];
    int n = -1;
    ASSERT_INT_EQ(fw_chips_detect(frame_buf, W, H, W * 3, NULL, obs, 5, &n,
                                  NULL, 0, NULL),
                  FW_OK);
    ASSERT_INT_EQ(n, 5);
}

/*
 * Stacks seen from above by a pinhole camera (fw_chips_render_table): a
 * stack standing away from the camera's axis shows its side, and is
 * reported as a stack with a count range and a low confidence; single
 * chips stay chips. With the focal length told the range is narrower.
 */
TEST(stacks_from_above)
{
    enum { NST = 6 };
    int truth_n = 0, seen = 0, holds = 0, singles = 0, singles_ok = 0;
    int width_told = 0, width_blind = 0, both = 0;
    if (!frame_buf)
        frame_buf = malloc((size_t)W * H * 3);
    ASSERT_TRUE(frame_buf != NULL);
    for (uint32_t s = 1; s <= 6; s++) {
        const float focal = 800.0f;
        fw_chip_obs truth[12], obs[MAXOBS];
        fw_stack_truth st[NST];
        fw_stack_obs found[16], blind[16];
        int np = 0, ns = 0, n = 0, nf = 0, nb = 0;
        ASSERT_INT_EQ(fw_chips_render_table(frame_buf, W, H, W * 3, s,
                                            s % 2 ? "blue" : "wood", 10, NST,
                                            focal, truth, st, &np, &ns),
                      FW_OK);
        ASSERT_TRUE(ns >= NST - 1);
        fw_chips_params told = {.focal_px = focal,
                                .principal = {W / 2.0f, H / 2.0f}};
        ASSERT_INT_EQ(fw_chips_detect(frame_buf, W, H, W * 3, &told, obs,
                                      MAXOBS, &n, found, 16, &nf),
                      FW_OK);
        for (int i = 0; i < np; i++) {
            singles++;
            for (int j = 0; j < n; j++) {
                float dx = obs[j].center[0] - truth[i].center[0];
                float dy = obs[j].center[1] - truth[i].center[1];
                if (dx * dx + dy * dy < 0.25f * truth[i].radius * truth[i].radius) {
                    singles_ok++;
                    break;
                }
            }
        }
        ASSERT_INT_EQ(fw_chips_detect(frame_buf, W, H, W * 3, NULL, obs,
                                      MAXOBS, &n, blind, 16, &nb),
                      FW_OK);
        for (int i = 0; i < ns; i++) {
            truth_n++;
            int ft = -1, fb = -1;
            for (int j = 0; j < nf; j++) {
                float dx = found[j].center[0] - st[i].top[0];
                float dy = found[j].center[1] - st[i].top[1];
                if (dx * dx + dy * dy < 0.25f * st[i].radius * st[i].radius)
                    ft = j;
            }
            for (int j = 0; j < nb; j++) {
                float dx = blind[j].center[0] - st[i].top[0];
                float dy = blind[j].center[1] - st[i].top[1];
                if (dx * dx + dy * dy < 0.25f * st[i].radius * st[i].radius)
                    fb = j;
            }
            if (ft < 0)
                continue;
            seen++;
            ASSERT_TRUE(found[ft].confidence <= 0.4f);
            ASSERT_TRUE(found[ft].count_lo >= 2);
            ASSERT_TRUE(found[ft].count_lo <= found[ft].count_hi);
            ASSERT_TRUE(found[ft].count_hi <= FW_STACK_MAX_COUNT);
            ASSERT_TRUE(found[ft].side_px > 0);
            holds += found[ft].count_lo <= st[i].count &&
                     st[i].count <= found[ft].count_hi;
            if (fb >= 0) {
                both++;
                width_told += found[ft].count_hi - found[ft].count_lo;
                width_blind += blind[fb].count_hi - blind[fb].count_lo;
                ASSERT_TRUE(blind[fb].confidence <= found[ft].confidence);
            }
        }
    }
    printf("  stacks seen %d of %d, range holds the count %d; singles found "
           "%d of %d; range widths told %d, blind %d over %d\n",
           seen, truth_n, holds, singles_ok, singles, width_told,
           width_blind, both);
    ASSERT_TRUE(seen * 10 >= truth_n * 6);
    ASSERT_TRUE(holds * 10 >= seen * 6);
    ASSERT_TRUE(singles_ok * 100 >= singles * 97);
    ASSERT_TRUE(both > 0 && width_told < width_blind);
}

/* fw_chips_draw_stack and fw_chips_render_table refuse bad arguments. */
TEST(stack_bad_arguments)
{
    static uint8_t img[64 * 64 * 3];
    fw_calib_chip red;
    ASSERT_INT_EQ(fw_chips_look("red", 5, &red), FW_OK);
    const fw_calib_chip *two[2] = {&red, &red};
    const fw_calib_chip *holed[2] = {&red, NULL};
    const float pc[2] = {32, 32};
    float top[2];
    ASSERT_INT_EQ(fw_chips_draw_stack(img, 64, 64, 192, 20, 20, 8, two, 2,
                                      300, pc, 1, top),
                  FW_OK);
    ASSERT_TRUE(top[0] < 20 && top[1] < 20); /* leans away from the axis */
    ASSERT_INT_EQ(fw_chips_draw_stack(img, 64, 64, 192, 20, 20, 8, two, 0,
                                      300, pc, 1, top),
                  FW_EINVAL);
    ASSERT_INT_EQ(fw_chips_draw_stack(img, 64, 64, 192, 20, 20, 8, two,
                                      FW_STACK_MAX_COUNT + 1, 300, pc, 1, top),
                  FW_EINVAL);
    ASSERT_INT_EQ(fw_chips_draw_stack(img, 64, 64, 192, 20, 20, 8, holed, 2,
                                      300, pc, 1, top),
                  FW_EINVAL);
    ASSERT_INT_EQ(fw_chips_draw_stack(img, 64, 64, 192, 20, 20, 8, two, 2, 4,
                                      pc, 1, top),
                  FW_EINVAL); /* a lens shorter than the chip's radius */
    ASSERT_INT_EQ(fw_chips_draw_stack(img, 64, 64, 192, NAN, 20, 8, two, 2,
                                      300, pc, 1, top),
                  FW_EINVAL);
    int np = 1, ns = 1;
    ASSERT_INT_EQ(fw_chips_render_table(img, 64, 64, 192, 1, "green", 2, 2, 0,
                                        NULL, NULL, &np, &ns),
                  FW_EINVAL);
    ASSERT_INT_EQ(np + ns, 0);
    ASSERT_INT_EQ(fw_chips_render_table(img, 64, 64, 192, 1, "marble", 2, 2,
                                        300, NULL, NULL, &np, &ns),
                  FW_EINVAL);
    ASSERT_TRUE(strlen(fw_last_error()) > 0);
}

/* fw_chips_name: the fixed list by body; a set's chips of one body told
 * apart by their edges, and by body alone when no edge was seen. */
TEST(naming)
{
    ASSERT_STR_EQ(fw_chips_color_name(0), "white");
    ASSERT_TRUE(fw_chips_color_name(FW_CHIPS_NCOLORS) == NULL);
    ASSERT_TRUE(fw_chips_color_name(-1) == NULL);
    char name[16];
    int64_t value = -1;
    float conf = -1;
    float red[3];
    ASSERT_INT_EQ(fw_chips_color_lab("red", red), FW_OK);
    ASSERT_INT_EQ(fw_chips_name(red, NULL, 0, NULL, 0, name, sizeof name,
                                &value, &conf),
                  FW_OK);
    ASSERT_STR_EQ(name, "red");
    ASSERT_INT_EQ(value, 0);
    ASSERT_TRUE(conf > 0.5f);
    /* two red chips: white spots (5) and yellow spots (5000) */
    fw_calib_chip set[2];
    memset(set, 0, sizeof set);
    for (int i = 0; i < 2; i++) {
        memcpy(set[i].lab, red, sizeof red);
        set[i].edge_spots = 8;
        snprintf(set[i].color, sizeof set[i].color, "%s",
                 i ? "red-yellow" : "red-white");
        set[i].value = i ? 5000 : 5;
    }
    const float white[3] = {96, 0, 0}, yellow[3] = {85, 0, 75};
    memcpy(set[0].edge_lab, white, sizeof white);
    memcpy(set[1].edge_lab, yellow, sizeof yellow);
    ASSERT_INT_EQ(fw_chips_name(red, yellow, 8, set, 2, name, sizeof name,
                                &value, &conf),
                  FW_OK);
    ASSERT_INT_EQ(value, 5000);
    ASSERT_STR_EQ(name, "red-yellow");
    ASSERT_INT_EQ(fw_chips_name(red, white, 8, set, 2, name, sizeof name,
                                &value, &conf),
                  FW_OK);
    ASSERT_INT_EQ(value, 5);
    /* no edge seen: the bodies tie, no confidence in either */
    ASSERT_INT_EQ(fw_chips_name(red, NULL, 0, set, 2, name, sizeof name,
                                &value, &conf),
                  FW_OK);
    ASSERT_TRUE(conf < 0.05f);
    /* truncated to the buffer */
    char small[4];
    ASSERT_INT_EQ(fw_chips_name(red, yellow, 8, set, 2, small, sizeof small,
                                &value, &conf),
                  FW_OK);
    ASSERT_STR_EQ(small, "red");
    ASSERT_INT_EQ(fw_chips_name(NULL, NULL, 0, NULL, 0, name, sizeof name,
                                &value, &conf),
                  FW_EINVAL);
    ASSERT_INT_EQ(fw_chips_name(red, NULL, 0, NULL, 2, name, sizeof name,
                                &value, &conf),
                  FW_EINVAL);
    ASSERT_INT_EQ(fw_chips_name(red, NULL, 0, NULL, 0, name, 0, &value,
                                &conf),
                  FW_EINVAL);
}

static const fw_test_case tests[] = {
    TEST_CASE(counts_per_colour), TEST_CASE(values_with_calibration),
    TEST_CASE(empty_felt),        TEST_CASE(bad_inputs),
    TEST_CASE(max_respected),     TEST_CASE(stacks_from_above),
    TEST_CASE(stack_bad_arguments), TEST_CASE(naming),
};

TEST_MAIN(tests)
