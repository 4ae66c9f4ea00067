/*
 * test_calibration.c - the calibration file: loading, validation errors that
 * name the field, the homography both ways, the zone map of the simulated
 * table.
 */
#include "calibration.h"
#include "harness.h"

#include <math.h>

static int parse(const char *json, char *err, size_t n, fw_calib **c)
{
    return fw_calib_parse(json, strlen(json), "t.json", c, err, n);
}

TEST(default_loads)
{
    fw_calib *c = NULL;
    ASSERT_INT_EQ(fw_calib_default(&c), FW_OK);
    ASSERT_INT_EQ(fw_calib_seats(c), 9);
    const fw_calib_chip *chips;
    ASSERT_INT_EQ(fw_calib_chips(c, &chips), 6);
    ASSERT_INT_EQ(chips[0].value, 25);
    ASSERT_STR_EQ(chips[0].color, "white");
    fw_calib_free(c);
}

TEST(homography_round_trip)
{
    fw_calib *c = NULL;
    ASSERT_INT_EQ(fw_calib_default(&c), FW_OK);
    double fx, fy, x, y;
    /* the felt's corners land on the felt's corners */
    fw_calib_to_felt(c, 40, 60, &fx, &fy);
    ASSERT_TRUE(fabs(fx) < 1e-6 && fabs(fy) < 1e-6);
    fw_calib_to_felt(c, 1240, 660, &fx, &fy);
    ASSERT_TRUE(fabs(fx - 2400) < 1e-6 && fabs(fy - 1200) < 1e-6);
    fw_calib_to_image(c, 1200, 600, &x, &y);
    ASSERT_TRUE(fabs(x - 640) < 1e-6 && fabs(y - 360) < 1e-6);
    fw_calib_free(c);
}

TEST(perspective_homography)
{
    /* a trapezoid (camera tilted) onto a rectangle and back */
    double src[4][2] = {{100, 50}, {500, 40}, {560, 400}, {60, 420}};
    double dst[4][2] = {{0, 0}, {1000, 0}, {1000, 600}, {0, 600}};
    double h[9], g[9];
    ASSERT_INT_EQ(fw_calib_homography(src, dst, h), FW_OK);
    ASSERT_INT_EQ(fw_calib_homography(dst, src, g), FW_OK);
    for (int i = 0; i < 4; i++) {
        double w = h[6] * src[i][0] + h[7] * src[i][1] + h[8];
        double u = (h[0] * src[i][0] + h[1] * src[i][1] + h[2]) / w;
        double v = (h[3] * src[i][0] + h[4] * src[i][1] + h[5]) / w;
        ASSERT_TRUE(fabs(u - dst[i][0]) < 1e-6 && fabs(v - dst[i][1]) < 1e-6);
    }
    double bad[4][2] = {{0, 0}, {1, 1}, {2, 2}, {3, 3}};
    ASSERT_INT_EQ(fw_calib_homography(bad, dst, h), FW_EINVAL);
}

TEST(zones_of_the_simulated_table)
{
    fw_calib *c = NULL;
    ASSERT_INT_EQ(fw_calib_default(&c), FW_OK);
    fw_zone z = fw_calib_zone_at(c, 1200, 560);
    ASSERT_INT_EQ(z.kind, FW_ZONE_BOARD);
    z = fw_calib_zone_at(c, 1200, 1000);
    ASSERT_INT_EQ(z.kind, FW_ZONE_DECK);
    z = fw_calib_zone_at(c, 1200, 190);
    ASSERT_INT_EQ(z.kind, FW_ZONE_SEAT_CARDS);
    ASSERT_INT_EQ(z.seat, 5);
    z = fw_calib_zone_at(c, 1200, 310);
    ASSERT_INT_EQ(z.kind, FW_ZONE_SEAT_BET);
    ASSERT_INT_EQ(z.seat, 5);
    z = fw_calib_zone_at(c, 5, 5);
    ASSERT_INT_EQ(z.kind, FW_ZONE_NONE);
    /* no point of the felt is in two zones of different seats */
    for (double x = 0; x <= 2400; x += 20)
        for (double y = 0; y <= 1200; y += 20) {
            z = fw_calib_zone_at(c, x, y);
            ASSERT_TRUE(z.kind >= FW_ZONE_NONE && z.kind <= FW_ZONE_DECK);
        }
    fw_calib_free(c);
}

/* A valid document with one field replaced by `patch`. */
static void expect_error(const char *json, const char *field)
{
    char err[512] = "";
    fw_calib *c = NULL;
    int rc = parse(json, err, sizeof err, &c);
    if (rc != FW_EPARSE || c || !strstr(err, field))
        fprintf(stderr, "  got rc %d, \"%s\", wanted %s\n", rc, err, field);
    fw_test_failed_flag |= rc != FW_EPARSE || c != NULL || !strstr(err, field);
    fw_calib_free(c);
}

#define BASE_HEAD                                                            \
    "{\"version\":1,\"image\":{\"width\":1280,\"height\":720},"
#define BASE_FELT                                                            \
    "\"felt\":{\"size_mm\":[2400,1200],\"corners_px\":[[40,60],[1240,60],"  \
    "[1240,660],[40,660]]},"
#define SEAT(n)                                                              \
    "{\"seat\":" #n ",\"cards\":[[0,0],[10,0],[10,10]],\"bet\":[[0,20],"     \
    "[10,20],[10,30]]}"
#define DEALER                                                               \
    "\"board\":[[0,0],[1,0],[1,1]],\"burn\":[[0,0],[1,0],[1,1]],"           \
    "\"muck\":[[0,0],[1,0],[1,1]],\"deck\":[[0,0],[1,0],[1,1]]"

TEST(a_minimal_document_loads)
{
    const char *ok = BASE_HEAD BASE_FELT
        "\"zones\":{\"seats\":[" SEAT(1) "," SEAT(2) "]," DEALER "}}";
    char err[256];
    fw_calib *c = NULL;
    ASSERT_INT_EQ(parse(ok, err, sizeof err, &c), FW_OK);
    ASSERT_INT_EQ(fw_calib_seats(c), 2);
    fw_calib_free(c);
}

TEST(errors_name_the_field)
{
    expect_error("{", "not valid JSON");
    expect_error("[]", "(document)");
    expect_error("{\"version\":2}", "version");
    expect_error("{\"version\":1}", "image: missing");
    expect_error(BASE_HEAD "\"felt\":{\"size_mm\":[2400]}}",
                 "felt.size_mm");
    expect_error(BASE_HEAD "\"felt\":{\"size_mm\":[2400,1200],"
                           "\"corners_px\":[[40,60],[1240,60],[1240,660]]}}",
                 "felt.corners_px");
    expect_error(BASE_HEAD "\"felt\":{\"size_mm\":[2400,1200],"
                           "\"corners_px\":[[40,60],[1240,60],[9999,660],"
                           "[40,660]]}}",
                 "felt.corners_px[2]");
    expect_error(BASE_HEAD "\"felt\":{\"size_mm\":[2400,1200],"
                           "\"corners_px\":[[0,0],[1,1],[2,2],[3,3]]}}",
                 "felt.corners_px");
    expect_error(BASE_HEAD BASE_FELT "\"zones\":{\"seats\":[" SEAT(1) "]}}",
                 "zones.seats");
    expect_error(BASE_HEAD BASE_FELT
                 "\"zones\":{\"seats\":[" SEAT(1) "," SEAT(1) "]}}",
                 "zones.seats[1].seat");
    expect_error(BASE_HEAD BASE_FELT
                 "\"zones\":{\"seats\":[" SEAT(1) ",{\"seat\":2,\"cards\":"
                 "[[0,0],[1,0]],\"bet\":[]}]}}",
                 "zones.seats[1].cards");
    expect_error(BASE_HEAD BASE_FELT
                 "\"zones\":{\"seats\":[" SEAT(1) ",{\"seat\":2,\"cards\":"
                 "[[0,0],[1,0],[1,\"x\"]],\"bet\":[]}]}}",
                 "zones.seats[1].cards[2][1]");
    expect_error(BASE_HEAD BASE_FELT
                 "\"zones\":{\"seats\":[" SEAT(1) "," SEAT(2) "],"
                 "\"board\":[[0,0],[1,0],[1,1]]}}",
                 "zones.burn");
    expect_error(BASE_HEAD BASE_FELT
                 "\"zones\":{\"seats\":[" SEAT(1) "," SEAT(2) "]," DEALER
                 "},\"chips\":[{\"value\":-5,\"color\":\"red\"}]}",
                 "chips[0].value");
    expect_error(BASE_HEAD BASE_FELT
                 "\"zones\":{\"seats\":[" SEAT(1) "," SEAT(2) "]," DEALER
                 "},\"chips\":[{\"value\":5,\"color\":\"red\",\"lab\":[50,0,"
                 "300]}]}",
                 "chips[0].lab[2]");
}

TEST(missing_and_unreadable_files)
{
    char err[256] = "";
    fw_calib *c = NULL;
    ASSERT_INT_EQ(fw_calib_load("/nonexistent/table.json", &c, err,
                                sizeof err),
                  FW_EIO);
    ASSERT_TRUE(strstr(err, "/nonexistent/table.json") != NULL);
    ASSERT_TRUE(c == NULL);
    ASSERT_INT_NE(fw_calib_load("/", &c, err, sizeof err), FW_OK);
}

static const fw_test_case cases[] = {
    TEST_CASE(default_loads),
    TEST_CASE(homography_round_trip),
    TEST_CASE(perspective_homography),
    TEST_CASE(zones_of_the_simulated_table),
    TEST_CASE(a_minimal_document_loads),
    TEST_CASE(errors_name_the_field),
    TEST_CASE(missing_and_unreadable_files),
};

TEST_MAIN(cases)
