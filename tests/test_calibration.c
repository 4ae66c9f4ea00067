/*
 * test_calibration.c - the calibration file: loading, validation errors that
 * name the field, the homography both ways, the zone map of the simulated
 * table; the camera's lens model; calibrating a table from ArUco corner
 * markers or four points, the camera from checkerboards and the chip set
 * from photos of its chips, on synthetic images, through the library and
 * through `feltwatch calibrate`.
 */
#include "calib_cv.h"
#include "calibrate_cmd.h"
#include "calibration.h"
#include "chips.h"
#include "harness.h"
#include "vision.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

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

/* A camera like a table camera's: a wide lens with barrel distortion. */
static const fw_calib_camera test_cam = {
    {900, 0, 640, 0, 905, 360, 0, 0, 1}, {-0.25, 0.08, 0.001, -0.0005, 0.01},
    0};

TEST(undistort_distort_round_trip)
{
    double worst = 0, worst2 = 0;
    for (double y = 0; y <= 720; y += 40)
        for (double x = 0; x <= 1280; x += 40) {
            double ux, uy, dx, dy;
            fw_calib_undistort(&test_cam, x, y, &ux, &uy);
            fw_calib_distort(&test_cam, ux, uy, &dx, &dy);
            worst = fmax(worst, hypot(dx - x, dy - y));
            fw_calib_distort(&test_cam, x, y, &dx, &dy);
            fw_calib_undistort(&test_cam, dx, dy, &ux, &uy);
            worst2 = fmax(worst2, hypot(ux - x, uy - y));
        }
    printf("  undistort/distort round trip: worst %.2g px, %.2g px\n", worst,
           worst2);
    ASSERT_TRUE(worst < 0.05);
    ASSERT_TRUE(worst2 < 0.05);
    /* no distortion: the identity */
    fw_calib_camera pin = test_cam;
    memset(pin.dist, 0, sizeof pin.dist);
    double ux, uy;
    fw_calib_undistort(&pin, 17.25, 700.5, &ux, &uy);
    ASSERT_TRUE(fabs(ux - 17.25) < 1e-12 && fabs(uy - 700.5) < 1e-12);
    /* barrel distortion pulls the image's corner inwards */
    double dx, dy;
    fw_calib_distort(&test_cam, 0, 0, &dx, &dy);
    ASSERT_TRUE(dx > 0 && dy > 0);
}

#define ZONES                                                                \
    "\"zones\":{\"seats\":[" SEAT(1) "," SEAT(2) "]," DEALER "}"
#define CAMERA_OK                                                            \
    "\"camera\":{\"matrix\":[900,0,640,0,905,360,0,0,1],"                    \
    "\"distortion\":[-0.25,0.08,0.001,-0.0005,0.01],\"rms\":0.2},"

TEST(camera_in_calibration)
{
    const char *doc = BASE_HEAD CAMERA_OK BASE_FELT ZONES "}";
    char err[256] = "";
    fw_calib *c = NULL;
    ASSERT_INT_EQ(parse(doc, err, sizeof err, &c), FW_OK);
    fw_calib_camera cam;
    ASSERT_INT_EQ(fw_calib_get_camera(c, &cam), 1);
    ASSERT_TRUE(cam.matrix[4] == 905 && cam.dist[0] == -0.25);
    ASSERT_TRUE(cam.rms == 0.2);
    /* corners_px are what the image shows: they still map to the corners */
    const double px[4][2] = {{40, 60}, {1240, 60}, {1240, 660}, {40, 660}};
    const double mm[4][2] = {{0, 0}, {2400, 0}, {2400, 1200}, {0, 1200}};
    double fx, fy, x, y;
    for (int i = 0; i < 4; i++) {
        fw_calib_to_felt(c, px[i][0], px[i][1], &fx, &fy);
        ASSERT_TRUE(fabs(fx - mm[i][0]) < 1e-3 && fabs(fy - mm[i][1]) < 1e-3);
        fw_calib_to_image(c, mm[i][0], mm[i][1], &x, &y);
        ASSERT_TRUE(fabs(x - px[i][0]) < 0.05 && fabs(y - px[i][1]) < 0.05);
    }
    /* a straight edge of the felt is bent in the image: the midpoint of the
     * top edge lies off the straight line between the corners */
    fw_calib_to_image(c, 1200, 0, &x, &y);
    ASSERT_TRUE(fabs(y - 60) > 1);
    fw_calib_to_felt(c, x, y, &fx, &fy);
    ASSERT_TRUE(fabs(fx - 1200) < 0.05 && fabs(fy) < 0.05);
    fw_calib_free(c);

    /* four distortion coefficients: k3 is 0 */
    doc = BASE_HEAD "\"camera\":{\"matrix\":[900,0,640,0,900,360,0,0,1],"
                    "\"distortion\":[0.1,0,0,0]}," BASE_FELT ZONES "}";
    ASSERT_INT_EQ(parse(doc, err, sizeof err, &c), FW_OK);
    ASSERT_INT_EQ(fw_calib_get_camera(c, &cam), 1);
    ASSERT_TRUE(cam.dist[0] == 0.1 && cam.dist[4] == 0 && cam.rms == 0);
    fw_calib_free(c);
    /* none: exactly the homography */
    ASSERT_INT_EQ(fw_calib_default(&c), FW_OK);
    ASSERT_INT_EQ(fw_calib_get_camera(c, &cam), 0);
    fw_calib_free(c);
}

TEST(camera_errors_name_the_field)
{
#define CAM(body) BASE_HEAD "\"camera\":" body "," BASE_FELT ZONES "}"
    expect_error(CAM("[1]"), "camera: must be an object");
    expect_error(CAM("{\"matrix\":[1,2,3],\"distortion\":[0,0,0,0]}"),
                 "camera.matrix: must be the 3x3");
    expect_error(CAM("{\"matrix\":[900,0,640,0,900,\"x\",0,0,1],"
                     "\"distortion\":[0,0,0,0]}"),
                 "camera.matrix[5]: must be a number");
    expect_error(CAM("{\"matrix\":[-900,0,640,0,900,360,0,0,1],"
                     "\"distortion\":[0,0,0,0]}"),
                 "camera.matrix[0]: fx must be positive");
    expect_error(CAM("{\"matrix\":[900,0,640,0,0,360,0,0,1],"
                     "\"distortion\":[0,0,0,0]}"),
                 "camera.matrix[4]");
    expect_error(CAM("{\"matrix\":[900,0,640,0,900,360,0,1,1],"
                     "\"distortion\":[0,0,0,0]}"),
                 "camera.matrix: must be [fx");
    expect_error(CAM("{\"matrix\":[900,0,1640,0,900,360,0,0,1],"
                     "\"distortion\":[0,0,0,0]}"),
                 "camera.matrix[2]: cx outside");
    expect_error(CAM("{\"matrix\":[900,0,640,0,900,-3,0,0,1],"
                     "\"distortion\":[0,0,0,0]}"),
                 "camera.matrix[5]: cy outside");
    expect_error(CAM("{\"matrix\":[900,0,640,0,900,360,0,0,1]}"),
                 "camera.distortion: must be [k1");
    expect_error(CAM("{\"matrix\":[900,0,640,0,900,360,0,0,1],"
                     "\"distortion\":[0,0,0]}"),
                 "camera.distortion");
    expect_error(CAM("{\"matrix\":[900,0,640,0,900,360,0,0,1],"
                     "\"distortion\":[0,null,0,0]}"),
                 "camera.distortion[1]");
    expect_error(CAM("{\"matrix\":[900,0,640,0,900,360,0,0,1],"
                     "\"distortion\":[0,0,0,0,5000]}"),
                 "camera.distortion[4]");
    expect_error(CAM("{\"matrix\":[900,0,640,0,900,360,0,0,1],"
                     "\"distortion\":[0,0,0,0],\"rms\":-1}"),
                 "camera.rms");
#undef CAM
}

#define CHIPS(list)                                                          \
    BASE_HEAD BASE_FELT ZONES ",\"chips\":[" list "]}"
#define CHIP_OK "{\"value\":5,\"color\":\"red\",\"lab\":[45,62,42]}"

/* A chip's edge pattern: read when given, validated with errors that name
 * the field. */
TEST(chip_edges)
{
    const char *doc = CHIPS(
        CHIP_OK "," CHIP_OK "," "{\"value\":25,\"color\":\"red-yellow\","
        "\"lab\":[45,62,42],\"edge\":{\"lab\":[85,0,74.9],\"spots\":6}}");
    char err[512] = "";
    fw_calib *c = NULL;
    int rc = parse(doc, err, sizeof err, &c);
    if (rc)
        fprintf(stderr, "  %s\n", err);
    ASSERT_INT_EQ(rc, FW_OK);
    const fw_calib_chip *chips;
    ASSERT_INT_EQ(fw_calib_chips(c, &chips), 3);
    ASSERT_INT_EQ(chips[0].edge_spots, 0);
    ASSERT_INT_EQ(chips[2].edge_spots, 6);
    ASSERT_TRUE(fabsf(chips[2].edge_lab[0] - 85.0f) < 1e-4f &&
                fabsf(chips[2].edge_lab[2] - 74.9f) < 1e-4f);
    ASSERT_STR_EQ(chips[2].color, "red-yellow");
    fw_calib_free(c);

    expect_error(CHIPS(CHIP_OK "," CHIP_OK ",{\"value\":5,\"color\":\"red\","
                                           "\"edge\":[1,2]}"),
                 "chips[2].edge: must be an object");
    expect_error(CHIPS("{\"value\":5,\"color\":\"red\",\"edge\":{"
                       "\"spots\":8}}"),
                 "chips[0].edge.lab: missing");
    expect_error(CHIPS("{\"value\":5,\"color\":\"red\",\"edge\":{"
                       "\"lab\":[50,0],\"spots\":8}}"),
                 "chips[0].edge.lab: must be [L, a, b]");
    expect_error(CHIPS(CHIP_OK ",{\"value\":5,\"color\":\"red\",\"edge\":{"
                                "\"lab\":[50,200,0],\"spots\":8}}"),
                 "chips[1].edge.lab[1]: must be between");
    expect_error(CHIPS(CHIP_OK "," CHIP_OK ",{\"value\":5,\"color\":\"red\","
                                           "\"edge\":{\"lab\":[50,0,0]}}"),
                 "chips[2].edge.spots: must be an integer 1-24");
    expect_error(CHIPS("{\"value\":5,\"color\":\"red\",\"edge\":{"
                       "\"lab\":[50,0,0],\"spots\":0}}"),
                 "chips[0].edge.spots: must be an integer 1-24");
    expect_error(CHIPS("{\"value\":5,\"color\":\"red\",\"edge\":{"
                       "\"lab\":[50,0,0],\"spots\":25}}"),
                 "chips[0].edge.spots");
    expect_error(CHIPS("{\"value\":5,\"color\":\"red\",\"edge\":{"
                       "\"lab\":[50,0,0],\"spots\":8.5}}"),
                 "chips[0].edge.spots");
    expect_error(CHIPS("{\"value\":5,\"color\":\"red\",\"lab\":{}}"),
                 "chips[0].lab: must be [L, a, b]");

    /* fw_calib_make keeps the template's edges */
    const double q[4][2] = {{100, 50}, {500, 40}, {560, 400}, {60, 420}};
    char *json = NULL;
    ASSERT_INT_EQ(fw_calib_make(doc, strlen(doc), "tmpl", 640, 480, q, NULL,
                                NULL, &json, err, sizeof err),
                  FW_OK);
    ASSERT_INT_EQ(parse(json, err, sizeof err, &c), FW_OK);
    free(json);
    ASSERT_INT_EQ(fw_calib_chips(c, &chips), 3);
    ASSERT_INT_EQ(chips[2].edge_spots, 6);
    ASSERT_TRUE(fabsf(chips[2].edge_lab[2] - 74.9f) < 1e-4f);
    fw_calib_free(c);
}

/* fw_calib_with_chips: the template with a new chip set, edges written
 * where known, read back the same. */
TEST(with_chips)
{
    fw_calib_chip set[2];
    memset(set, 0, sizeof set);
    set[0].value = 25;
    snprintf(set[0].color, sizeof set[0].color, "white");
    set[0].lab[0] = 92.94f;
    set[0].lab[2] = 3.06f;
    set[1].value = 1000000000000LL;
    snprintf(set[1].color, sizeof set[1].color, "red-yellow");
    set[1].lab[0] = 44.9f;
    set[1].lab[1] = 62.0f;
    set[1].edge_lab[0] = 85.04f;
    set[1].edge_lab[2] = -74.96f;
    set[1].edge_spots = 6;
    const char *t = fw_calib_default_json();
    char err[512] = "", *json = NULL;
    ASSERT_INT_EQ(fw_calib_with_chips(t, strlen(t), "tmpl", set, 2, &json,
                                      err, sizeof err),
                  FW_OK);
    fw_calib *c = NULL;
    ASSERT_INT_EQ(parse(json, err, sizeof err, &c), FW_OK);
    free(json);
    ASSERT_INT_EQ(fw_calib_seats(c), 9);
    const fw_calib_chip *chips;
    ASSERT_INT_EQ(fw_calib_chips(c, &chips), 2);
    ASSERT_INT_EQ(chips[1].value, 1000000000000LL);
    ASSERT_STR_EQ(chips[1].color, "red-yellow");
    ASSERT_INT_EQ(chips[0].edge_spots, 0);
    ASSERT_INT_EQ(chips[1].edge_spots, 6);
    /* colours to a tenth of a unit */
    ASSERT_TRUE(fabsf(chips[0].lab[0] - 92.9f) < 1e-4f);
    ASSERT_TRUE(fabsf(chips[1].edge_lab[0] - 85.0f) < 1e-4f);
    ASSERT_TRUE(fabsf(chips[1].edge_lab[2] + 75.0f) < 1e-4f);
    fw_calib_free(c);

    ASSERT_INT_EQ(fw_calib_with_chips(t, strlen(t), "tmpl", set, 0, &json,
                                      err, sizeof err),
                  FW_EINVAL);
    ASSERT_INT_EQ(fw_calib_with_chips("[1]", 3, "tmpl", set, 2, &json, err,
                                      sizeof err),
                  FW_EPARSE);
    ASSERT_TRUE(strstr(err, "tmpl: (document)") != NULL);
    ASSERT_INT_EQ(fw_calib_with_chips("{\"version\":1}", 13, "tmpl", set, 2,
                                      &json, err, sizeof err),
                  FW_EPARSE);
    ASSERT_TRUE(strstr(err, "tmpl: image: missing") != NULL);
    set[1].edge_spots = 30;
    ASSERT_INT_EQ(fw_calib_with_chips(t, strlen(t), "tmpl", set, 2, &json,
                                      err, sizeof err),
                  FW_EPARSE);
    ASSERT_TRUE(strstr(err, "chips[1].edge.spots") != NULL);
    ASSERT_TRUE(json == NULL);
}

/* A scratch folder of the test's own, removed by scratch_done(). */
typedef struct scratch {
    char dir[64];
    char path[8][128];
    int n;
} scratch;

static int scratch_new(scratch *s)
{
    memset(s, 0, sizeof *s);
    snprintf(s->dir, sizeof s->dir, "/tmp/fw_calib_XXXXXX");
    return mkdtemp(s->dir) != NULL;
}

static const char *scratch_file(scratch *s, const char *name)
{
    if (s->n >= 8)
        abort();
    char dir[sizeof s->dir];
    memcpy(dir, s->dir, sizeof dir);
    snprintf(s->path[s->n], sizeof s->path[0], "%s/%s", dir, name);
    return s->path[s->n++];
}

static void scratch_done(scratch *s)
{
    for (int i = 0; i < s->n; i++)
        remove(s->path[i]);
    rmdir(s->dir);
}

/* Run `feltwatch calibrate ARGS...` in-process; standard error in err. */
static int run_cmd(char **argv, int argc, char *err, size_t errsz)
{
    FILE *o = tmpfile(), *e = tmpfile();
    if (!o || !e)
        abort();
    int rc = fw_calibrate_main(argc, argv, o, e);
    rewind(e);
    size_t n = fread(err, 1, errsz - 1, e);
    err[n] = '\0';
    fclose(o);
    fclose(e);
    return rc;
}

#define RUN(err, ...)                                                        \
    run_cmd((char *[]){"calibrate", __VA_ARGS__},                            \
            (int)(sizeof((char *[]){"calibrate", __VA_ARGS__}) /             \
                  sizeof(char *)),                                           \
            err, sizeof err)

TEST(make_from_corners)
{
    const char *t = fw_calib_default_json();
    const double q[4][2] = {{100, 50}, {500, 40}, {560, 400}, {60, 420}};
    const double felt[2] = {1800, 900};
    char err[512] = "", *json = NULL;
    ASSERT_INT_EQ(fw_calib_make(t, strlen(t), "tmpl", 640, 480, q, felt, NULL,
                                &json, err, sizeof err),
                  FW_OK);
    fw_calib *c = NULL;
    ASSERT_INT_EQ(parse(json, err, sizeof err, &c), FW_OK);
    free(json);
    ASSERT_INT_EQ(fw_calib_seats(c), 9);
    const fw_calib_chip *chips;
    ASSERT_INT_EQ(fw_calib_chips(c, &chips), 6);
    double fx, fy;
    fw_calib_to_felt(c, 560, 400, &fx, &fy);
    ASSERT_TRUE(fabs(fx - 1800) < 1e-6 && fabs(fy - 900) < 1e-6);
    fw_calib_camera cam;
    ASSERT_INT_EQ(fw_calib_get_camera(c, &cam), 0);
    fw_calib_free(c);

    /* with a camera: kept in the output */
    ASSERT_INT_EQ(fw_calib_make(t, strlen(t), "tmpl", 1280, 720, q, NULL,
                                &test_cam, &json, err, sizeof err),
                  FW_OK);
    ASSERT_INT_EQ(parse(json, err, sizeof err, &c), FW_OK);
    free(json);
    ASSERT_INT_EQ(fw_calib_get_camera(c, &cam), 1);
    ASSERT_TRUE(fabs(cam.dist[1] - 0.08) < 1e-12);
    fw_calib_to_felt(c, 60, 420, &fx, &fy);
    ASSERT_TRUE(fabs(fx) < 1e-3 && fabs(fy - 1200) < 1e-3);
    fw_calib_free(c);

    /* bad quads */
    const double ccw[4][2] = {{100, 50}, {60, 420}, {560, 400}, {500, 40}};
    const double crossed[4][2] = {{100, 50}, {500, 40}, {60, 420}, {560, 400}};
    const double flat[4][2] = {{0, 0}, {1, 1}, {2, 2}, {3, 3}};
    const double outside[4][2] = {{100, 50}, {900, 40}, {560, 400}, {60, 420}};
    ASSERT_INT_EQ(fw_calib_make(t, strlen(t), "tmpl", 640, 480, ccw, NULL,
                                NULL, &json, err, sizeof err),
                  FW_EPARSE);
    ASSERT_TRUE(strstr(err, "felt.corners_px") && strstr(err, "clockwise"));
    ASSERT_INT_EQ(fw_calib_make(t, strlen(t), "tmpl", 640, 480, crossed, NULL,
                                NULL, &json, err, sizeof err),
                  FW_EPARSE);
    ASSERT_TRUE(strstr(err, "convex") != NULL);
    ASSERT_INT_EQ(fw_calib_make(t, strlen(t), "tmpl", 640, 480, flat, NULL,
                                NULL, &json, err, sizeof err),
                  FW_EPARSE);
    ASSERT_TRUE(strstr(err, "degenerate") != NULL);
    ASSERT_INT_EQ(fw_calib_make(t, strlen(t), "tmpl", 640, 480, outside, NULL,
                                NULL, &json, err, sizeof err),
                  FW_EPARSE);
    ASSERT_TRUE(strstr(err, "felt.corners_px[1]: outside") != NULL);
    ASSERT_INT_EQ(fw_calib_make("[]", 2, "tmpl", 640, 480, q, NULL, NULL,
                                &json, err, sizeof err),
                  FW_EPARSE);
    ASSERT_TRUE(strstr(err, "tmpl: (document)") != NULL);
    ASSERT_TRUE(json == NULL);
}

TEST(cli_corners)
{
    scratch s;
    ASSERT_TRUE(scratch_new(&s));
    const char *out = scratch_file(&s, "table.json");
    const char *tmpl = scratch_file(&s, "tmpl.json");
    FILE *f = fopen(tmpl, "w");
    ASSERT_TRUE(f != NULL);
    fputs(BASE_HEAD BASE_FELT ZONES "}", f);
    fclose(f);
    char err[1024] = "";
    int rc = RUN(err, "--corners", "100,50,500,40,560,400,60,420",
                 "--image-size", "640x480", "--template", (char *)tmpl,
                 "--felt", "1000x600", "-o", (char *)out);
    if (rc)
        fprintf(stderr, "  %s", err);
    ASSERT_INT_EQ(rc, 0);
    fw_calib *c = NULL;
    ASSERT_INT_EQ(fw_calib_load(out, &c, err, sizeof err), FW_OK);
    ASSERT_INT_EQ(fw_calib_seats(c), 2);
    double fx, fy;
    fw_calib_to_felt(c, 500, 40, &fx, &fy);
    ASSERT_TRUE(fabs(fx - 1000) < 1e-6 && fabs(fy) < 1e-6);
    fw_calib_free(c);
    ASSERT_INT_EQ(RUN(err, "--check", (char *)out), 0);

    /* bad text, a bad image size, a template that is not there */
    ASSERT_INT_EQ(RUN(err, "--corners", "100,50,500,40,560,400,60",
                      "--image-size", "640x480"),
                  1);
    ASSERT_TRUE(strstr(err, "--corners: expected eight numbers") != NULL);
    ASSERT_INT_EQ(RUN(err, "--corners", "100,50,500,40,560,400,60,4x",
                      "--image-size", "640x480"),
                  1);
    ASSERT_TRUE(strstr(err, "--corners") != NULL);
    ASSERT_INT_EQ(RUN(err, "--corners", "100,50,500,40,560,400,60,420",
                      "--image-size", "640"),
                  1);
    ASSERT_TRUE(strstr(err, "--image-size") != NULL);
    ASSERT_INT_EQ(RUN(err, "--corners", "100,50,500,40,560,400,60,420"), 1);
    ASSERT_TRUE(strstr(err, "--image-size") != NULL);
    ASSERT_INT_EQ(RUN(err, "--corners", "100,50,500,40,560,400,60,420",
                      "--image-size", "640x480", "--template",
                      "/nonexistent/t.json"),
                  1);
    ASSERT_TRUE(strstr(err, "/nonexistent/t.json: cannot open") != NULL);
    ASSERT_INT_EQ(RUN(err, "--corners", "1,2,3,4,5,6,7,8", "--markers",
                      "x.png"),
                  2);
    ASSERT_INT_EQ(RUN(err, "--bogus"), 2);
    scratch_done(&s);
}

/* A photo of one chip of the fixed colour `color` (with `spots` spots of
 * colour `spot` when spot is not NULL) on green felt, saved to path. */
static int chip_png(const char *path, const char *color, const char *spot,
                    int spots, float radius)
{
    enum { W = 360, H = 300 };
    static uint8_t px[W * H * 3];
    fw_calib_chip look;
    if (fw_chips_look(color, 1, &look) != FW_OK)
        return 0;
    if (spot) {
        if (fw_chips_color_lab(spot, look.edge_lab) != FW_OK)
            return 0;
        look.edge_spots = spots;
    }
    for (int i = 0; i < W * H; i++) {
        px[i * 3] = 35;
        px[i * 3 + 1] = 95;
        px[i * 3 + 2] = 25;
    }
    fw_image img = {px, W, H, W * 3};
    return fw_chips_draw(px, W, H, W * 3, 181.5f, 148.2f, radius, &look, 3) ==
               FW_OK &&
           fw_vision_save_image(&img, path, 95) == FW_OK;
}

/* `feltwatch calibrate --chip`: a chip set learned from photos, written
 * into the template; bad photos and sets refused naming the files. */
TEST(cli_chips)
{
    scratch s;
    ASSERT_TRUE(scratch_new(&s));
    const char *a = scratch_file(&s, "white.png");
    const char *b = scratch_file(&s, "red6.png");
    const char *b2 = scratch_file(&s, "red6-again.png");
    const char *d = scratch_file(&s, "red8.png");
    const char *out = scratch_file(&s, "chips.json");
    const char *cut = scratch_file(&s, "cut.png");
    ASSERT_TRUE(chip_png(a, "white", NULL, 0, 80));
    ASSERT_TRUE(chip_png(b, "red", "yellow", 6, 90));
    ASSERT_TRUE(chip_png(b2, "red", "yellow", 6, 60));
    ASSERT_TRUE(chip_png(d, "red", "white", 8, 100));
    char spec[3][160], err[1024] = "";
    snprintf(spec[0], sizeof spec[0], "25=%s", a);
    snprintf(spec[1], sizeof spec[1], "100:red6=%s", b);
    snprintf(spec[2], sizeof spec[2], "500=%s", d);
    int rc = RUN(err, "--chip", spec[0], "--chip", spec[1], "--chip",
                 spec[2], "-o", (char *)out);
    if (rc)
        fprintf(stderr, "  %s", err);
    ASSERT_INT_EQ(rc, 0);
    fw_calib *c = NULL;
    ASSERT_INT_EQ(fw_calib_load(out, &c, err, sizeof err), FW_OK);
    ASSERT_INT_EQ(fw_calib_seats(c), 9);
    const fw_calib_chip *chips;
    ASSERT_INT_EQ(fw_calib_chips(c, &chips), 3);
    ASSERT_INT_EQ(chips[0].value, 25);
    ASSERT_STR_EQ(chips[0].color, "white");
    ASSERT_INT_EQ(chips[0].edge_spots, 8);
    ASSERT_STR_EQ(chips[1].color, "red6");
    ASSERT_INT_EQ(chips[1].edge_spots, 6);
    ASSERT_INT_EQ(chips[2].value, 500);
    ASSERT_STR_EQ(chips[2].color, "red");
    ASSERT_INT_EQ(chips[2].edge_spots, 8);
    float red[3];
    ASSERT_INT_EQ(fw_chips_color_lab("red", red), FW_OK);
    for (int k = 0; k < 3; k++)
        ASSERT_TRUE(fabsf(chips[1].lab[k] - red[k]) < 3);
    fw_calib_free(c);
    ASSERT_INT_EQ(RUN(err, "--check", (char *)out), 0);

    /* the same look twice: both files named */
    char again[160];
    snprintf(again, sizeof again, "50=%s", b2);
    ASSERT_INT_EQ(RUN(err, "--chip", spec[1], "--chip", again), 1);
    ASSERT_TRUE(strstr(err, "red6.png (100) and ") != NULL);
    ASSERT_TRUE(strstr(err, "red6-again.png (50) look alike") != NULL);
    /* one value twice */
    snprintf(again, sizeof again, "25=%s", b2);
    ASSERT_INT_EQ(RUN(err, "--chip", spec[0], "--chip", again), 1);
    ASSERT_TRUE(strstr(err, "value 25 given twice") != NULL);
    /* a missing, a truncated photo */
    ASSERT_INT_EQ(RUN(err, "--chip", "25=/nonexistent/chip.png"), 1);
    ASSERT_TRUE(strstr(err, "/nonexistent/chip.png: cannot open") != NULL);
    FILE *f = fopen(cut, "wb"), *g = fopen(a, "rb");
    ASSERT_TRUE(f && g);
    char buf[200];
    size_t n = fread(buf, 1, sizeof buf, g);
    fwrite(buf, 1, n, f);
    fclose(f);
    fclose(g);
    snprintf(again, sizeof again, "25=%s", cut);
    ASSERT_INT_EQ(RUN(err, "--chip", again), 1);
    ASSERT_TRUE(strstr(err, "cut.png") != NULL);
    /* a photo without a chip: the felt alone */
    f = fopen(cut, "wb");
    ASSERT_TRUE(f != NULL);
    fclose(f);
    {
        enum { W = 200, H = 150 };
        static uint8_t px[W * H * 3];
        memset(px, 90, sizeof px);
        fw_image img = {px, W, H, W * 3};
        ASSERT_INT_EQ(fw_vision_save_image(&img, cut, 95), FW_OK);
    }
    ASSERT_INT_EQ(RUN(err, "--chip", again), 1);
    ASSERT_TRUE(strstr(err, "cut.png: no chip found") != NULL);
    /* bad specs, a template that is not there, modes mixed */
    ASSERT_INT_EQ(RUN(err, "--chip", "25"), 1);
    ASSERT_TRUE(strstr(err, "--chip: expected VALUE=IMAGE") != NULL);
    ASSERT_INT_EQ(RUN(err, "--chip", "x=a.png"), 1);
    ASSERT_TRUE(strstr(err, "positive whole number") != NULL);
    ASSERT_INT_EQ(RUN(err, "--chip", "25:=a.png"), 1);
    ASSERT_TRUE(strstr(err, "colour name") != NULL);
    ASSERT_INT_EQ(RUN(err, "--chip", spec[0], "--template",
                      "/nonexistent/t.json"),
                  1);
    ASSERT_TRUE(strstr(err, "/nonexistent/t.json: cannot open") != NULL);
    ASSERT_INT_EQ(RUN(err, "--chip", spec[0], "--corners",
                      "100,50,500,40,560,400,60,420"),
                  2);
    ASSERT_INT_EQ(RUN(err, "--chip"), 2);
    scratch_done(&s);
}

/* The felt's corners for the marker tests, in a 1280x720 image. */
static const double felt_px[4][2] = {
    {150, 110}, {1130, 95}, {1150, 620}, {120, 640}};

/* Render markers ids at felt_px through h, find them, compare with
 * h(felt_px); the worst error in px goes to *worst. */
static void find_rendered(const double *h, double *worst)
{
    scratch s;
    ASSERT_TRUE(scratch_new(&s));
    const char *png = scratch_file(&s, "markers.png");
    const int ids[4] = {0, 1, 2, 3};
    ASSERT_INT_EQ(fw_calib_sim_markers(png, 1280, 720, felt_px, h, 64, NULL,
                                       ids),
                  FW_OK);
    fw_calib_markers m;
    int rc = fw_calib_find_markers(png, NULL, &m);
    if (rc)
        fprintf(stderr, "  %s\n", fw_last_error());
    ASSERT_INT_EQ(rc, FW_OK);
    ASSERT_INT_EQ(m.width, 1280);
    ASSERT_INT_EQ(m.height, 720);
    double want[4][2];
    *worst = 0;
    for (int i = 0; i < 4; i++) {
        double x = felt_px[i][0], y = felt_px[i][1];
        if (h) {
            double w = h[6] * x + h[7] * y + h[8];
            want[i][0] = (h[0] * x + h[1] * y + h[2]) / w;
            want[i][1] = (h[3] * x + h[4] * y + h[5]) / w;
        } else {
            want[i][0] = x;
            want[i][1] = y;
        }
        *worst = fmax(*worst, hypot(m.corner[i][0] - want[i][0],
                                    m.corner[i][1] - want[i][1]));
    }
    ASSERT_TRUE(*worst < 1.5);

    /* the command: a calibration whose corners are the markers' centres */
    const char *out = scratch_file(&s, "table.json");
    char err[1024] = "";
    rc = RUN(err, "--markers", (char *)png, "--dict", "4x4_50", "--felt",
             "2000x1000", "-o", (char *)out);
    if (rc)
        fprintf(stderr, "  %s", err);
    ASSERT_INT_EQ(rc, 0);
    fw_calib *c = NULL;
    ASSERT_INT_EQ(fw_calib_load(out, &c, err, sizeof err), FW_OK);
    const double mm[4][2] = {{0, 0}, {2000, 0}, {2000, 1000}, {0, 1000}};
    double worst_mm = 0;
    for (int i = 0; i < 4; i++) {
        double fx, fy;
        fw_calib_to_felt(c, want[i][0], want[i][1], &fx, &fy);
        worst_mm = fmax(worst_mm, hypot(fx - mm[i][0], fy - mm[i][1]));
    }
    /* 1.5 px is about 3 mm at this scale */
    printf("  marker centres: worst %.3f px; felt corners: worst %.2f mm\n",
           *worst, worst_mm);
    ASSERT_TRUE(worst_mm < 5);
    fw_calib_free(c);
    scratch_done(&s);
}

TEST(markers_straight)
{
    double worst = 99;
    find_rendered(NULL, &worst);
    ASSERT_TRUE(worst < 1.5);
}

TEST(markers_perspective)
{
    /* a tilted camera: the rectangle of the felt becomes a trapezoid */
    const double src[4][2] = {{0, 0}, {1280, 0}, {1280, 720}, {0, 720}};
    const double dst[4][2] = {{90, 40}, {1190, 60}, {1250, 700}, {20, 690}};
    double h[9];
    ASSERT_INT_EQ(fw_calib_homography(src, dst, h), FW_OK);
    double worst = 99;
    find_rendered(h, &worst);
    ASSERT_TRUE(worst < 1.5);
}

TEST(markers_errors)
{
    scratch s;
    ASSERT_TRUE(scratch_new(&s));
    const char *png = scratch_file(&s, "m.png");
    fw_calib_markers m;
    char err[1024] = "";
    /* the bottom-left marker is missing */
    ASSERT_INT_EQ(fw_calib_sim_markers(png, 1280, 720, felt_px, NULL, 64,
                                       NULL, (const int[4]){0, 1, 2, -1}),
                  FW_OK);
    ASSERT_INT_EQ(fw_calib_find_markers(png, NULL, &m), FW_ENOENT);
    ASSERT_TRUE(strstr(fw_last_error(), "marker 3 (the felt's bottom-left"));
    ASSERT_INT_EQ(RUN(err, "--markers", (char *)png), 1);
    ASSERT_TRUE(strstr(err, "marker 3") && strstr(err, "not found"));
    /* one id twice */
    ASSERT_INT_EQ(fw_calib_sim_markers(png, 1280, 720, felt_px, NULL, 64,
                                       NULL, (const int[4]){0, 1, 1, 3}),
                  FW_OK);
    ASSERT_INT_EQ(fw_calib_find_markers(png, NULL, &m), FW_EPARSE);
    ASSERT_TRUE(strstr(fw_last_error(), "marker 1") &&
                strstr(fw_last_error(), "2 times"));
    /* another dictionary: nothing found */
    ASSERT_INT_EQ(fw_calib_sim_markers(png, 1280, 720, felt_px, NULL, 64,
                                       "6x6_250", (const int[4]){0, 1, 2, 3}),
                  FW_OK);
    ASSERT_INT_EQ(fw_calib_find_markers(png, "4x4_50", &m), FW_ENOENT);
    ASSERT_INT_EQ(fw_calib_find_markers(png, "6x6_250", &m), FW_OK);
    ASSERT_INT_EQ(fw_calib_find_markers(png, "9x9_1", &m), FW_EINVAL);
    ASSERT_TRUE(strstr(fw_last_error(), "9x9_1") != NULL);
    /* not an image, not there */
    const char *txt = scratch_file(&s, "not.png");
    FILE *f = fopen(txt, "w");
    ASSERT_TRUE(f != NULL);
    fputs("hello", f);
    fclose(f);
    ASSERT_INT_EQ(fw_calib_find_markers(txt, NULL, &m), FW_EIO);
    ASSERT_INT_EQ(RUN(err, "--markers", (char *)txt, "-o", "/dev/null"), 1);
    ASSERT_TRUE(strstr(err, "not.png: cannot read an image") != NULL);
    ASSERT_INT_EQ(RUN(err, "--markers", "/nonexistent/x.png"), 1);
    ASSERT_TRUE(strstr(err, "/nonexistent/x.png: cannot open") != NULL);
    scratch_done(&s);
}

TEST(intrinsics_synthetic)
{
    scratch s;
    ASSERT_TRUE(scratch_new(&s));
    const fw_calib_camera truth = {
        {900, 0, 640, 0, 900, 360, 0, 0, 1}, {-0.25, 0.08, 0, 0, 0}, 0};
    /* ten poses of the board's centre: tilted each way, near the middle
     * and out towards the corners where the distortion shows */
    static const double pose[10][6] = {
        {0.0, 0.0, 0.0, 0, 0, 520},        {0.35, 0.0, 0.05, -150, 0, 560},
        {-0.35, 0.0, -0.05, 150, 0, 560},  {0.0, 0.4, 0.1, 0, -90, 540},
        {0.0, -0.4, -0.1, 0, 90, 540},     {0.3, 0.3, 0.2, -160, -90, 600},
        {-0.3, 0.3, -0.2, 160, -90, 600},  {0.3, -0.3, 0.3, -160, 90, 600},
        {-0.3, -0.3, -0.3, 160, 90, 600},  {0.2, -0.1, 0.6, 0, 0, 450}};
    char names[10][16];
    const char *paths[10];
    static char path_buf[10][128];
    for (int i = 0; i < 10; i++) {
        snprintf(names[i], sizeof names[i], "view%d.png", i);
        snprintf(path_buf[i], sizeof path_buf[i], "%s/%s", s.dir, names[i]);
        paths[i] = path_buf[i];
        ASSERT_INT_EQ(fw_calib_sim_board(paths[i], 1280, 720, 9, 6, 25, &truth,
                                         pose[i], pose[i] + 3),
                      FW_OK);
    }
    fw_calib_camera cam;
    int found[10], w = 0, h = 0;
    int rc = fw_calib_intrinsics(paths, 10, 9, 6, 25, &cam, found, &w, &h);
    if (rc)
        fprintf(stderr, "  %s\n", fw_last_error());
    int used = 0;
    for (int i = 0; i < 10; i++)
        used += found[i];
    double efx = fabs(cam.matrix[0] / truth.matrix[0] - 1);
    double efy = fabs(cam.matrix[4] / truth.matrix[4] - 1);
    printf("  intrinsics from %d views: fx %.1f (%.2f%%) fy %.1f (%.2f%%) "
           "cx %.1f cy %.1f k1 %.4f k2 %.4f rms %.3f px\n",
           used, cam.matrix[0], 100 * efx, cam.matrix[4], 100 * efy,
           cam.matrix[2], cam.matrix[5], cam.dist[0], cam.dist[1], cam.rms);
    ASSERT_INT_EQ(rc, FW_OK);
    ASSERT_TRUE(used >= 8);
    ASSERT_INT_EQ(w, 1280);
    ASSERT_INT_EQ(h, 720);
    ASSERT_TRUE(efx < 0.02 && efy < 0.02);
    ASSERT_TRUE(cam.dist[0] < -0.15 && cam.dist[0] > -0.35);
    ASSERT_TRUE(cam.rms < 1);

    /* the command writes the camera, which a table calibration takes */
    const char *out = scratch_file(&s, "camera.json");
    char err[1024] = "";
    char *argv[16] = {"calibrate", "--intrinsics", "--board", "9x6",
                      "--square-mm", "25", "-o", (char *)out};
    for (int i = 0; i < 4; i++)
        argv[8 + i] = (char *)paths[i * 3];
    ASSERT_INT_EQ(run_cmd(argv, 12, err, sizeof err), 0);
    fw_calib_camera back;
    ASSERT_INT_EQ(fw_calib_camera_load(out, &back, err, sizeof err), FW_OK);
    ASSERT_TRUE(fabs(back.matrix[0] / truth.matrix[0] - 1) < 0.05);
    const char *table = scratch_file(&s, "table.json");
    ASSERT_INT_EQ(RUN(err, "--corners", "100,50,500,40,560,400,60,420",
                      "--image-size", "1280x720", "--camera", (char *)out,
                      "-o", (char *)table),
                  0);
    fw_calib *c = NULL;
    ASSERT_INT_EQ(fw_calib_load(table, &c, err, sizeof err), FW_OK);
    ASSERT_INT_EQ(fw_calib_get_camera(c, &cam), 1);
    fw_calib_free(c);

    /* errors: too few views, bad board text, an unreadable image */
    ASSERT_INT_EQ(RUN(err, "--intrinsics", "--board", "9x6", "--square-mm",
                      "25", (char *)paths[0], (char *)paths[1]),
                  1);
    ASSERT_TRUE(strstr(err, "at least 3") != NULL);
    ASSERT_INT_EQ(RUN(err, "--intrinsics", "--board", "9by6", "--square-mm",
                      "25", (char *)paths[0]),
                  1);
    ASSERT_TRUE(strstr(err, "--board") != NULL);
    ASSERT_INT_EQ(RUN(err, "--intrinsics", "--board", "9x6", "--square-mm",
                      "25", "/nonexistent/b.png"),
                  1);
    ASSERT_TRUE(strstr(err, "/nonexistent/b.png: cannot open") != NULL);
    /* a camera file with a bad field */
    FILE *f = fopen(out, "w");
    ASSERT_TRUE(f != NULL);
    fputs("{\"camera\":{\"matrix\":[1,0,0,0,1,0,0,0,1],"
          "\"distortion\":[1]}}",
          f);
    fclose(f);
    ASSERT_INT_EQ(fw_calib_camera_load(out, &back, err, sizeof err),
                  FW_EPARSE);
    ASSERT_TRUE(strstr(err, "camera.json: camera.distortion") != NULL);
    for (int i = 0; i < 10; i++)
        remove(paths[i]);
    scratch_done(&s);
}

static const fw_test_case cases[] = {
    TEST_CASE(default_loads),
    TEST_CASE(homography_round_trip),
    TEST_CASE(perspective_homography),
    TEST_CASE(zones_of_the_simulated_table),
    TEST_CASE(a_minimal_document_loads),
    TEST_CASE(errors_name_the_field),
    TEST_CASE(missing_and_unreadable_files),
    TEST_CASE(undistort_distort_round_trip),
    TEST_CASE(camera_in_calibration),
    TEST_CASE(camera_errors_name_the_field),
    TEST_CASE(make_from_corners),
    TEST_CASE(cli_corners),
    TEST_CASE(markers_straight),
    TEST_CASE(markers_perspective),
    TEST_CASE(markers_errors),
    TEST_CASE(intrinsics_synthetic),
    TEST_CASE(chip_edges),
    TEST_CASE(with_chips),
    TEST_CASE(cli_chips),
};

TEST_MAIN(cases)
