/*
 * test_chip_learn.c - learning a chip's look from one photo (chip_learn.h):
 * single chips drawn with fw_chips_draw on each felt and on white paper, at
 * radii of 30-300 px, blurred and noisy, for every colour of the fixed list
 * and for custom edge patterns; the learned body, edge colour and spot
 * count against the drawn ones. Also proves chip_learn.h is plain C.
 */
#include "chip_learn.h"
#include "chips.h"
#include "harness.h"

#include <math.h>

static const char *const names[FW_CHIPS_NCOLORS] = {
    "white",  "red",    "green",  "blue", "black",
    "yellow", "purple", "orange", "pink", "grey"};

/* Tolerances (Lab units) for the body and the edge colour. */
#define BODY_TOL 6.0
#define EDGE_TOL 12.0

/* A test photo: w x h BGR, tightly packed. */
typedef struct photo {
    uint8_t *px;
    int w, h;
} photo;

static uint32_t rng_state;

static uint32_t rng_next(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

/* About normal, mean 0 and standard deviation 1 (sum of uniforms). */
static double rng_normal(void)
{
    double s = 0;
    for (int i = 0; i < 6; i++)
        s += (rng_next() & 0xffff) / 65536.0;
    return (s - 3.0) * sqrt(2.0);
}

/* Fill with a background: a felt of chips.cpp's colours, wood, paper. */
static void paint_background(photo *p, const char *bg)
{
    uint8_t c[3] = {35, 95, 25}; /* green felt */
    if (strcmp(bg, "blue") == 0)
        memcpy(c, (uint8_t[3]){110, 60, 20}, 3);
    else if (strcmp(bg, "red") == 0)
        memcpy(c, (uint8_t[3]){30, 30, 120}, 3);
    else if (strcmp(bg, "paper") == 0)
        memcpy(c, (uint8_t[3]){236, 239, 241}, 3);
    for (int y = 0; y < p->h; y++)
        for (int x = 0; x < p->w; x++) {
            uint8_t *q = p->px + ((size_t)y * p->w + x) * 3;
            if (strcmp(bg, "wood") == 0) {
                double wave = 18.0 * sin(y * 0.011);
                double g = 0.88 + 0.12 * sin(0.09 * (x + wave)) *
                                      sin(0.013 * (x - wave));
                q[0] = (uint8_t)(55 * g);
                q[1] = (uint8_t)(95 * g);
                q[2] = (uint8_t)(140 * g);
            } else {
                memcpy(q, c, 3);
            }
        }
}

/* Blur with the binomial kernel 1 4 6 4 1 (sigma 1) both ways, then add
 * noise of standard deviation 4 per channel. */
static void blur_and_noise(photo *p)
{
    size_t n = (size_t)p->w * p->h * 3;
    uint8_t *t = malloc(n);
    if (!t)
        abort();
    static const int k[5] = {1, 4, 6, 4, 1};
    for (int pass = 0; pass < 2; pass++) {
        for (int y = 0; y < p->h; y++)
            for (int x = 0; x < p->w; x++)
                for (int ch = 0; ch < 3; ch++) {
                    int s = 0;
                    for (int j = -2; j <= 2; j++) {
                        int xx = pass ? x : x + j, yy = pass ? y + j : y;
                        xx = xx < 0 ? 0 : xx >= p->w ? p->w - 1 : xx;
                        yy = yy < 0 ? 0 : yy >= p->h ? p->h - 1 : yy;
                        s +=
                            k[j + 2] * p->px[((size_t)yy * p->w + xx) * 3 + ch];
                    }
                    t[((size_t)y * p->w + x) * 3 + ch] =
                        (uint8_t)((s + 8) / 16);
                }
        memcpy(p->px, t, n);
    }
    free(t);
    for (size_t i = 0; i < n; i++) {
        double v = p->px[i] + 4.0 * rng_normal();
        p->px[i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : lround(v));
    }
}

/* A photo of one chip of radius r (about 3.4r x 3r), a little off centre,
 * on background bg; false when drawing fails. */
static int make_photo(photo *p, const char *bg, const fw_calib_chip *chip,
                      float r, uint32_t seed)
{
    p->w = (int)(3.4f * r) + 40;
    p->h = (int)(3.0f * r) + 40;
    p->px = malloc((size_t)p->w * p->h * 3);
    if (!p->px)
        return 0;
    rng_state = 0x2545f491u ^ (seed * 2654435761u);
    paint_background(p, bg);
    float x = p->w / 2.0f + 0.07f * r + (float)(seed % 7) * 0.13f;
    float y = p->h / 2.0f - 0.05f * r - (float)(seed % 5) * 0.21f;
    if (fw_chips_draw(p->px, p->w, p->h, p->w * 3, x, y, r, chip, seed) !=
        FW_OK)
        return 0;
    blur_and_noise(p);
    return 1;
}

static double lab_err(const float a[3], const float b[3])
{
    double s = 0;
    for (int k = 0; k < 3; k++)
        s += (a[k] - b[k]) * (double)(a[k] - b[k]);
    return sqrt(s);
}

/* The worst errors over a series of learned chips. */
typedef struct worst {
    double body, edge;
    int spots_wrong, failed, n;
} worst;

/*
 * Learn `chip` drawn at radius r on bg; fold the errors into *w and print
 * any chip beyond the tolerances.
 */
static void learn_one(const char *bg, const fw_calib_chip *chip, float r,
                      uint32_t seed, const char *want_name, worst *w)
{
    photo p;
    w->n++;
    if (!make_photo(&p, bg, chip, r, seed)) {
        free(p.px);
        w->failed++;
        return;
    }
    fw_calib_chip got;
    int rc = fw_chips_learn(p.px, p.w, p.h, p.w * 3, 25, NULL, &got);
    free(p.px);
    if (rc != FW_OK) {
        fprintf(stderr, "  %s chip on %s, r %.0f: %s\n", chip->color, bg,
                (double)r, fw_last_error());
        w->failed++;
        return;
    }
    double eb = lab_err(got.lab, chip->lab);
    double ee = got.edge_spots ? lab_err(got.edge_lab, chip->edge_lab) : 0;
    int bad =
        eb > BODY_TOL || ee > EDGE_TOL || got.edge_spots != chip->edge_spots ||
        (want_name && strcmp(got.color, want_name) != 0) || got.value != 25;
    if (bad)
        fprintf(stderr,
                "  %s chip on %s, r %.0f: body err %.1f, edge err %.1f, "
                "spots %d (want %d), named %s\n",
                chip->color, bg, (double)r, eb, ee, got.edge_spots,
                chip->edge_spots, got.color);
    if (eb > w->body)
        w->body = eb;
    if (ee > w->edge)
        w->edge = ee;
    if (got.edge_spots != chip->edge_spots)
        w->spots_wrong++;
}

static void report(const char *what, const worst *w)
{
    printf("  %s: %d chips, worst body error %.2f, worst edge error %.2f, "
           "%d spot counts wrong, %d not learned\n",
           what, w->n, w->body, w->edge, w->spots_wrong, w->failed);
}

static const float radii[] = {30, 60, 120, 300};

/* Every colour of the fixed list, as fw_chips_look draws it, on bg. */
static void palette_on(const char *bg)
{
    worst w = {0};
    for (int i = 0; i < FW_CHIPS_NCOLORS; i++)
        for (size_t k = 0; k < sizeof radii / sizeof radii[0]; k++) {
            fw_calib_chip look;
            ASSERT_INT_EQ(fw_chips_look(names[i], 25, &look), FW_OK);
            learn_one(bg, &look, radii[k], (uint32_t)(i * 10 + k + 1), names[i],
                      &w);
        }
    report(bg, &w);
    ASSERT_INT_EQ(w.failed, 0);
    ASSERT_INT_EQ(w.spots_wrong, 0);
    ASSERT_TRUE(w.body <= BODY_TOL);
    ASSERT_TRUE(w.edge <= EDGE_TOL);
}

TEST(palette_on_green)
{
    palette_on("green");
}
TEST(palette_on_blue)
{
    palette_on("blue");
}
TEST(palette_on_red)
{
    palette_on("red");
}
TEST(palette_on_wood)
{
    palette_on("wood");
}
TEST(palette_on_paper)
{
    palette_on("paper");
}

/* A look of body colour `body` and n spots of colour `spot`, both from
 * the fixed list (so that they are colours sRGB can show). */
static fw_calib_chip custom(const char *body, const char *spot, int n)
{
    fw_calib_chip c;
    memset(&c, 0, sizeof c);
    snprintf(c.color, sizeof c.color, "%s", body);
    fw_chips_color_lab(body, c.lab);
    fw_chips_color_lab(spot, c.edge_lab);
    c.edge_spots = n;
    c.value = 25;
    return c;
}

TEST(custom_edges)
{
    static const struct {
        const char *body, *spot;
        int n;
        float rmin; /* smallest radius at which the spots stay apart */
    } looks[] = {
        {"red", "yellow", 6, 30},   {"red", "white", 8, 30},
        {"blue", "white", 4, 30},   {"green", "black", 12, 30},
        {"black", "orange", 3, 30}, {"purple", "white", 16, 60},
        {"white", "red", 24, 60},   {"yellow", "black", 2, 30},
        {"grey", "pink", 10, 30},   {"orange", "blue", 1, 30},
    };
    static const char *const bgs[] = {"green", "blue", "red", "wood", "paper"};
    worst w = {0};
    for (size_t i = 0; i < sizeof looks / sizeof looks[0]; i++)
        for (size_t k = 0; k < sizeof radii / sizeof radii[0]; k++) {
            if (radii[k] < looks[i].rmin)
                continue;
            fw_calib_chip c = custom(looks[i].body, looks[i].spot, looks[i].n);
            learn_one(bgs[(i + k) % 5], &c, radii[k],
                      (uint32_t)(100 + i * 7 + k), looks[i].body, &w);
        }
    report("custom edges", &w);
    ASSERT_INT_EQ(w.failed, 0);
    ASSERT_INT_EQ(w.spots_wrong, 0);
    ASSERT_TRUE(w.body <= BODY_TOL);
    ASSERT_TRUE(w.edge <= EDGE_TOL);
}

/* Two looks of one body colour learned apart, and told apart by
 * fw_chips_alike; the same look learned twice is alike. */
TEST(alike)
{
    fw_calib_chip a = custom("red", "yellow", 6);
    fw_calib_chip b = custom("red", "white", 8);
    fw_calib_chip la, lb, la2;
    photo p;
    ASSERT_TRUE(make_photo(&p, "green", &a, 80, 1));
    ASSERT_INT_EQ(fw_chips_learn(p.px, p.w, p.h, p.w * 3, 25, NULL, &la),
                  FW_OK);
    free(p.px);
    ASSERT_TRUE(make_photo(&p, "paper", &b, 140, 2));
    ASSERT_INT_EQ(fw_chips_learn(p.px, p.w, p.h, p.w * 3, 100, "red8", &lb),
                  FW_OK);
    free(p.px);
    ASSERT_TRUE(make_photo(&p, "blue", &a, 50, 3));
    ASSERT_INT_EQ(fw_chips_learn(p.px, p.w, p.h, p.w * 3, 5, NULL, &la2),
                  FW_OK);
    free(p.px);
    ASSERT_STR_EQ(la.color, "red");
    ASSERT_STR_EQ(lb.color, "red8");
    ASSERT_INT_EQ(lb.value, 100);
    ASSERT_INT_EQ(la.edge_spots, 6);
    ASSERT_INT_EQ(lb.edge_spots, 8);
    ASSERT_INT_EQ(fw_chips_alike(&la, &lb), 0);
    ASSERT_INT_EQ(fw_chips_alike(&la, &la2), 1);
    /* same body, one edge unknown: cannot be told apart */
    fw_calib_chip plain = la;
    plain.edge_spots = 0;
    ASSERT_INT_EQ(fw_chips_alike(&plain, &lb), 1);
    ASSERT_INT_EQ(fw_chips_alike(NULL, &lb), 0);
}

/* A chip whose spots match its body has no edge pattern to learn. */
TEST(plain_edge)
{
    fw_calib_chip c = custom("blue", "blue", 8);
    photo p;
    ASSERT_TRUE(make_photo(&p, "paper", &c, 90, 4));
    fw_calib_chip got;
    ASSERT_INT_EQ(fw_chips_learn(p.px, p.w, p.h, p.w * 3, 25, NULL, &got),
                  FW_OK);
    free(p.px);
    ASSERT_INT_EQ(got.edge_spots, 0);
    ASSERT_STR_EQ(got.color, "blue");
    ASSERT_TRUE(lab_err(got.lab, c.lab) <= BODY_TOL);
}

/* Two chips, or none: an error that says so, never a guess. */
TEST(two_chips_and_empty)
{
    photo p = {NULL, 600, 400};
    p.px = malloc((size_t)p.w * p.h * 3);
    ASSERT_TRUE(p.px != NULL);
    rng_state = 77;
    paint_background(&p, "green");
    fw_calib_chip a, b, got;
    ASSERT_INT_EQ(fw_chips_look("red", 5, &a), FW_OK);
    ASSERT_INT_EQ(fw_chips_look("black", 100, &b), FW_OK);
    ASSERT_INT_EQ(fw_chips_draw(p.px, p.w, p.h, p.w * 3, 170, 200, 90, &a, 1),
                  FW_OK);
    ASSERT_INT_EQ(fw_chips_draw(p.px, p.w, p.h, p.w * 3, 430, 200, 90, &b, 2),
                  FW_OK);
    blur_and_noise(&p);
    int rc = fw_chips_learn(p.px, p.w, p.h, p.w * 3, 25, NULL, &got);
    ASSERT_INT_EQ(rc, FW_EINVAL);
    ASSERT_TRUE(strstr(fw_last_error(), "several chips") != NULL);
    ASSERT_INT_EQ(got.value, 0);

    static const char *const bgs[] = {"green", "blue", "red", "wood", "paper"};
    for (int i = 0; i < 5; i++) {
        paint_background(&p, bgs[i]);
        blur_and_noise(&p);
        rc = fw_chips_learn(p.px, p.w, p.h, p.w * 3, 25, NULL, &got);
        if (rc != FW_ENOENT)
            fprintf(stderr, "  empty %s: rc %d, r %.1f\n", bgs[i], rc,
                    (double)got.lab[0]);
        ASSERT_INT_EQ(rc, FW_ENOENT);
        ASSERT_TRUE(strstr(fw_last_error(), "no chip found") != NULL);
    }
    free(p.px);
}

TEST(bad_arguments)
{
    uint8_t px[64 * 64 * 3] = {0};
    fw_calib_chip got;
    ASSERT_INT_EQ(fw_chips_learn(NULL, 64, 64, 192, 25, NULL, &got), FW_EINVAL);
    ASSERT_INT_EQ(fw_chips_learn(px, 64, 64, 192, 25, NULL, NULL), FW_EINVAL);
    ASSERT_INT_EQ(fw_chips_learn(px, 64, 64, 100, 25, NULL, &got), FW_EINVAL);
    ASSERT_INT_EQ(fw_chips_learn(px, 64, 64, 192, 0, NULL, &got), FW_EINVAL);
    ASSERT_INT_EQ(fw_chips_learn(px, 64, 64, 192, -5, NULL, &got), FW_EINVAL);
    ASSERT_INT_EQ(fw_chips_learn(px, 64, 64, 192, 25, "", &got), FW_EINVAL);
    ASSERT_INT_EQ(
        fw_chips_learn(px, 64, 64, 192, 25, "a-name-much-too-long", &got),
        FW_EINVAL);
    ASSERT_INT_EQ(fw_chips_learn(px, 20, 64, 60, 25, NULL, &got), FW_EINVAL);
    ASSERT_TRUE(strstr(fw_last_error(), "too small") != NULL);
    ASSERT_INT_EQ(fw_chips_learn(px, -1, 64, 192, 25, NULL, &got), FW_EINVAL);
    /* a uniform image: nothing there */
    ASSERT_INT_EQ(fw_chips_learn(px, 64, 64, 192, 25, NULL, &got), FW_ENOENT);
}

/* A chip filling most of the photo, and a small one in a big photo. */
TEST(sizes)
{
    fw_calib_chip c;
    ASSERT_INT_EQ(fw_chips_look("purple", 500, &c), FW_OK);
    photo p = {NULL, 700, 640};
    p.px = malloc((size_t)p.w * p.h * 3);
    ASSERT_TRUE(p.px != NULL);
    rng_state = 5;
    paint_background(&p, "paper");
    ASSERT_INT_EQ(fw_chips_draw(p.px, p.w, p.h, p.w * 3, 352, 318, 280, &c, 9),
                  FW_OK);
    blur_and_noise(&p);
    fw_calib_chip got;
    ASSERT_INT_EQ(fw_chips_learn(p.px, p.w, p.h, p.w * 3, 500, NULL, &got),
                  FW_OK);
    free(p.px);
    ASSERT_STR_EQ(got.color, "purple");
    ASSERT_INT_EQ(got.edge_spots, 8);
    ASSERT_TRUE(lab_err(got.lab, c.lab) <= BODY_TOL);

    p.w = 2000;
    p.h = 1500;
    p.px = malloc((size_t)p.w * p.h * 3);
    ASSERT_TRUE(p.px != NULL);
    paint_background(&p, "blue");
    ASSERT_INT_EQ(fw_chips_draw(p.px, p.w, p.h, p.w * 3, 1010, 740, 60, &c, 3),
                  FW_OK);
    blur_and_noise(&p);
    ASSERT_INT_EQ(fw_chips_learn(p.px, p.w, p.h, p.w * 3, 500, NULL, &got),
                  FW_OK);
    free(p.px);
    ASSERT_STR_EQ(got.color, "purple");
    ASSERT_INT_EQ(got.edge_spots, 8);
    ASSERT_TRUE(lab_err(got.lab, c.lab) <= BODY_TOL);
    ASSERT_TRUE(lab_err(got.edge_lab, c.edge_lab) <= EDGE_TOL);
}

static const fw_test_case cases[] = {
    TEST_CASE(palette_on_green),
    TEST_CASE(palette_on_blue),
    TEST_CASE(palette_on_red),
    TEST_CASE(palette_on_wood),
    TEST_CASE(palette_on_paper),
    TEST_CASE(custom_edges),
    TEST_CASE(alike),
    TEST_CASE(plain_edge),
    TEST_CASE(two_chips_and_empty),
    TEST_CASE(bad_arguments),
    TEST_CASE(sizes),
};

TEST_MAIN(cases)
