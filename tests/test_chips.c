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
    if (fw_chips_detect(frame_buf, W, H, W * 3, set, nset, obs, MAXOBS, &nobs,
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
        ASSERT_INT_EQ(fw_chips_detect(frame_buf, W, H, W * 3, NULL, 0, obs, 8,
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
        fw_chips_detect(px, 1, 1, 3, NULL, 0, obs, 4, &n, NULL, 0, NULL),
        FW_EINVAL);
    ASSERT_INT_EQ(n, 0);
    ASSERT_TRUE(strlen(fw_last_error()) > 0);
    ASSERT_INT_EQ(
        fw_chips_detect(px, 0, 0, 0, NULL, 0, obs, 4, &n, NULL, 0, NULL),
        FW_EINVAL);
    ASSERT_INT_EQ(
        fw_chips_detect(NULL, 64, 64, 192, NULL, 0, obs, 4, &n, NULL, 0, NULL),
        FW_EINVAL);
    ASSERT_INT_EQ(
        fw_chips_detect(px, 64, 1, 192, NULL, 0, obs, 4, &n, NULL, 0, NULL),
        FW_EINVAL);
    ASSERT_INT_EQ(
        fw_chips_detect(px, 16, 16, 10, NULL, 0, obs, 4, &n, NULL, 0, NULL),
        FW_EINVAL);
    ASSERT_INT_EQ(
        fw_chips_detect(px, 16, 16, 48, NULL, 3, obs, 4, &n, NULL, 0, NULL),
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
        fw_chips_detect(flat, 16, 16, 48, NULL, 0, obs, 4, &n, NULL, 0, NULL),
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
    ASSERT_INT_EQ(fw_chips_detect(frame_buf, W, H, W * 3, NULL, 0, obs, 5, &n,
                                  NULL, 0, NULL),
                  FW_OK);
    ASSERT_INT_EQ(n, 5);
}

/*
 * A stack seen slightly off-axis: the side of the stack shows as a crescent
 * of the chip's colour, shaded, with the white stripes of the edge spots.
 * It is reported as a stack with a wide count and a low confidence.
 */
TEST(stack_side_seen)
{
    int found = 0, tried = 0;
    for (uint32_t s = 1; s <= 8; s++) {
        fw_chip_obs t;
        if (!frame_buf)
            frame_buf = malloc((size_t)W * H * 3);
        ASSERT_INT_EQ(
            fw_chips_render(frame_buf, W, H, W * 3, s, "green", 1, &t), 1);
        if (strcmp(t.color, "green") == 0)
            continue; /* a felt-coloured side cannot be told */
        tried++;
        const float r = t.radius, cx = t.center[0], cy = t.center[1];
        uint8_t body[3];
        memcpy(body, frame_buf + ((size_t)cy * W + (size_t)cx) * 3, 3);
        for (int y = (int)(cy - 2 * r); y <= (int)(cy + 2 * r); y++)
            for (int x = (int)(cx - 2 * r); x <= (int)(cx + 2 * r); x++) {
                if (x < 0 || y < 0 || x >= W || y >= H)
                    continue;
                float dx = x - cx, dy = y - cy;
                float ex = dx - 0.3f * r, ey = dy - 0.3f * r;
                if (dx * dx + dy * dy <= r * r || ex * ex + ey * ey > r * r)
                    continue;
                uint8_t *p = frame_buf + ((size_t)y * W + (size_t)x) * 3;
                int stripe = ((int)(dx + dy) / 4) % 3 == 0;
                for (int k = 0; k < 3; k++)
                    p[k] = stripe ? 200 : (uint8_t)(body[k] * 85 / 100);
            }
        fw_chip_obs obs[8];
        fw_stack_obs st[4];
        int n = 0, ns = 0;
        ASSERT_INT_EQ(fw_chips_detect(frame_buf, W, H, W * 3, NULL, 0, obs, 8,
                                      &n, st, 4, &ns),
                      FW_OK);
        if (ns == 1 && n == 0) {
            found++;
            ASSERT_INT_EQ(st[0].count_lo, 1);
            ASSERT_INT_EQ(st[0].count_hi, 20);
            ASSERT_TRUE(st[0].confidence <= 0.4f);
        }
    }
    printf("  stacks found %d of %d\n", found, tried);
    ASSERT_TRUE(tried > 0);
    ASSERT_TRUE(found * 4 >= tried * 3);
}

static const fw_test_case tests[] = {
    TEST_CASE(counts_per_colour), TEST_CASE(values_with_calibration),
    TEST_CASE(empty_felt),        TEST_CASE(bad_inputs),
    TEST_CASE(max_respected),     TEST_CASE(stack_side_seen),
};

TEST_MAIN(tests)
