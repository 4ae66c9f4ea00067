/*
 * test_vision.c - the card detector (vision.h), from C: this file compiling
 * as C11 is the proof that the header is plain C.
 */
#include "harness.h"
#include "vision.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef FW_DATASETS
#define FW_DATASETS "../shared/datasets"
#endif

static int count_scene(const uint8_t felt[3], int n_up, int n_down,
                       unsigned seed, int *placed, int *ups)
{
    enum { W = 1280, H = 720 };
    uint8_t *img = malloc((size_t)W * H * 3);
    fw_card cards[16];
    for (int i = 0; i < 16; i++)
        cards[i] = fw_card_make((i * 5) % 13, i % 4);
    *placed = fw_vision_render_scene(img, W, H, felt, NULL, 0, cards, n_up,
                                     n_down, seed, NULL);
    fw_vision *v = NULL;
    int n = -1;
    if (fw_vision_new(&v) == FW_OK) {
        fw_card_obs obs[32];
        if (fw_vision_detect_cards(v, img, W, H, W * 3, obs, 32, &n) != FW_OK)
            n = -1;
        *ups = 0;
        for (int i = 0; i < n; i++)
            *ups += obs[i].face_up;
    }
    fw_vision_free(v);
    free(img);
    return n;
}

TEST(model_loads)
{
    fw_vision *v = NULL;
    ASSERT_INT_EQ(fw_vision_new(&v), FW_OK);
    fw_vision_free(v);
    fw_vision_free(NULL);
    ASSERT_INT_EQ(fw_vision_new_from("/nonexistent/model.fwt", &v), FW_ENOENT);
    ASSERT_TRUE(v == NULL);
}

TEST(green_felt_counts)
{
    const uint8_t felt[3] = {40, 110, 30};
    int placed, ups;
    int n = count_scene(felt, 6, 0, 1, &placed, &ups);
    ASSERT_INT_EQ(placed, 6);
    ASSERT_INT_EQ(n, 6);
    ASSERT_INT_EQ(ups, 6);
}

TEST(blue_felt_with_backs)
{
    const uint8_t felt[3] = {120, 60, 20};
    int placed, ups;
    int n = count_scene(felt, 5, 2, 2, &placed, &ups);
    ASSERT_INT_EQ(placed, 7);
    ASSERT_INT_EQ(n, 7);
    ASSERT_INT_EQ(ups, 5);
}

TEST(red_felt_counts)
{
    const uint8_t felt[3] = {30, 30, 140};
    int placed, ups;
    int n = count_scene(felt, 8, 0, 3, &placed, &ups);
    ASSERT_INT_EQ(placed, 8);
    ASSERT_INT_EQ(n, 8);
}

TEST(reads_template_glyphs)
{
    enum { W = 960, H = 720 };
    const uint8_t felt[3] = {40, 110, 30};
    fw_vision *v = NULL;
    ASSERT_INT_EQ(fw_vision_new(&v), FW_OK);
    uint8_t *img = malloc((size_t)W * H * 3);
    fw_card cards[4] = {fw_card_make(12, 3), fw_card_make(11, 2),
                        fw_card_make(8, 0), fw_card_make(3, 1)};
    int placed = fw_vision_render_scene(img, W, H, felt, v, 0, cards, 4, 0, 7,
                                        NULL);
    fw_card_obs obs[16];
    int n = 0, rc = fw_vision_detect_cards(v, img, W, H, W * 3, obs, 16, &n);
    int right = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 4; k++)
            right += obs[i].card == cards[k];
    free(img);
    fw_vision_free(v);
    ASSERT_INT_EQ(rc, FW_OK);
    ASSERT_INT_EQ(placed, 4);
    ASSERT_INT_EQ(n, 4);
    ASSERT_TRUE(right >= 3);
}

TEST(tiny_and_bad_input)
{
    fw_vision *v = NULL;
    ASSERT_INT_EQ(fw_vision_new(&v), FW_OK);
    uint8_t px[3] = {0, 0, 0};
    fw_card_obs obs[4];
    int n = -1;
    ASSERT_INT_EQ(fw_vision_detect_cards(v, px, 1, 1, 3, obs, 4, &n), FW_OK);
    ASSERT_INT_EQ(n, 0);
    ASSERT_INT_EQ(fw_vision_detect_cards(v, px, 0, 1, 3, obs, 4, &n),
                  FW_EINVAL);
    ASSERT_INT_EQ(fw_vision_detect_cards(v, NULL, 1, 1, 3, obs, 4, &n),
                  FW_EINVAL);
    fw_vision_free(v);
    fw_image img;
    ASSERT_INT_EQ(fw_vision_load_image("/nonexistent/x.jpg", &img), FW_ENOENT);
    ASSERT_TRUE(strstr(fw_last_error(), "/nonexistent/x.jpg") != NULL);
    /* an empty file and a truncated JPEG header */
    char path[] = "/tmp/fw_vision_XXXXXX";
    int fd = mkstemp(path);
    ASSERT_TRUE(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    ASSERT_TRUE(f != NULL);
    fclose(f);
    int rc0 = fw_vision_load_image(path, &img);
    f = fopen(path, "wb");
    const unsigned char jpg[] = {0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 'J', 'F'};
    fwrite(jpg, 1, sizeof jpg, f);
    fclose(f);
    int rc1 = fw_vision_load_image(path, &img);
    remove(path);
    ASSERT_INT_EQ(rc0, FW_EPARSE);
    ASSERT_INT_EQ(rc1, FW_EPARSE);
}

/* Real photos: most labelled boxes found with IoU >= 0.5. */
static int real_photo_hits(const char *name, const float (*boxes)[4], int nb)
{
    char path[512];
    snprintf(path, sizeof path, "%s/real-cards-edje/test/%s", FW_DATASETS,
             name);
    fw_image img;
    if (fw_vision_load_image(path, &img) != FW_OK)
        return -1;
    fw_vision *v = NULL;
    fw_card_obs obs[32];
    int n = 0, hits = 0;
    if (fw_vision_new(&v) == FW_OK &&
        fw_vision_detect_cards(v, img.bgr, img.width, img.height, img.stride,
                               obs, 32, &n) == FW_OK) {
        for (int b = 0; b < nb; b++)
            for (int i = 0; i < n; i++) {
                float x0 = 1e9f, y0 = 1e9f, x1 = -1e9f, y1 = -1e9f;
                for (int k = 0; k < 4; k++) {
                    float x = obs[i].corners[k][0], y = obs[i].corners[k][1];
                    x0 = x < x0 ? x : x0;
                    y0 = y < y0 ? y : y0;
                    x1 = x > x1 ? x : x1;
                    y1 = y > y1 ? y : y1;
                }
                float ix = (x1 < boxes[b][2] ? x1 : boxes[b][2]) -
                           (x0 > boxes[b][0] ? x0 : boxes[b][0]);
                float iy = (y1 < boxes[b][3] ? y1 : boxes[b][3]) -
                           (y0 > boxes[b][1] ? y0 : boxes[b][1]);
                if (ix <= 0 || iy <= 0)
                    continue;
                float in = ix * iy;
                float u = (x1 - x0) * (y1 - y0) +
                          (boxes[b][2] - boxes[b][0]) *
                              (boxes[b][3] - boxes[b][1]) -
                          in;
                if (in / u >= 0.5f) {
                    hits++;
                    break;
                }
            }
    }
    fw_vision_free(v);
    fw_vision_image_free(&img);
    return hits;
}

TEST(real_photos)
{
    static const float b2383[][4] = {{97, 136, 275, 368}};
    static const float b2564[][4] = {{28, 136, 151, 259},
                                     {252, 288, 351, 418},
                                     {168, 172, 290, 273},
                                     {28, 302, 133, 434}};
    int h1 = real_photo_hits("IMG_2383.JPG", b2383, 1);
    if (h1 < 0)
        TEST_SKIP("real-cards-edje test photos not found");
    int h2 = real_photo_hits("IMG_2564.JPG", b2564, 4);
    ASSERT_INT_EQ(h1, 1);
    ASSERT_TRUE(h2 >= 2);
}

/* A 1280x720 frame is searched at a reduced working scale: the corners must
 * still come back in full-frame pixels, within a few pixels of the drawn
 * card, and the glyphs must still read. */
TEST(downscaled_corners_in_frame_pixels)
{
    enum { W = 1280, H = 720 };
    const uint8_t felt[3] = {40, 110, 30};
    fw_vision *v = NULL;
    ASSERT_INT_EQ(fw_vision_new(&v), FW_OK);
    uint8_t *img = malloc((size_t)W * H * 3);
    fw_card cards[5] = {fw_card_make(12, 0), fw_card_make(9, 1),
                        fw_card_make(5, 2), fw_card_make(0, 3),
                        fw_card_make(10, 2)};
    float drawn[5][4][2];
    int placed = fw_vision_render_scene(img, W, H, felt, v, 0, cards, 5, 0,
                                        5, drawn);
    fw_card_obs obs[16];
    int n = 0, rc = fw_vision_detect_cards(v, img, W, H, W * 3, obs, 16, &n);
    int close = 0, right = 0;
    for (int p = 0; p < placed; p++) {
        float cx = 0, cy = 0;
        for (int k = 0; k < 4; k++) {
            cx += drawn[p][k][0] / 4;
            cy += drawn[p][k][1] / 4;
        }
        for (int i = 0; i < n; i++) {
            float ox = 0, oy = 0;
            for (int k = 0; k < 4; k++) {
                ox += obs[i].corners[k][0] / 4;
                oy += obs[i].corners[k][1] / 4;
            }
            if ((ox - cx) * (ox - cx) + (oy - cy) * (oy - cy) < 6 * 6) {
                close++;
                right += obs[i].card == cards[p];
                break;
            }
        }
    }
    free(img);
    fw_vision_free(v);
    ASSERT_INT_EQ(rc, FW_OK);
    ASSERT_INT_EQ(placed, 5);
    ASSERT_INT_EQ(n, 5);
    ASSERT_INT_EQ(close, 5);
    ASSERT_TRUE(right >= 4);
}

static const fw_test_case tests[] = {
    TEST_CASE(downscaled_corners_in_frame_pixels),
    TEST_CASE(model_loads),
    TEST_CASE(green_felt_counts),
    TEST_CASE(blue_felt_with_backs),
    TEST_CASE(red_felt_counts),
    TEST_CASE(reads_template_glyphs),
    TEST_CASE(tiny_and_bad_input),
    TEST_CASE(real_photos),
};

TEST_MAIN(tests)
