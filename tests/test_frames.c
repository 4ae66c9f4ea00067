/* test_frames.c - frame sources (frames.h): the sim camera, folders of
 * images, files, and the camera backends failing cleanly with no hardware.
 * Written in C: it also proves frames.h is a plain C header. */
#include "frames.h"

#include "fw_error.h"
#include "harness.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Share of pixels where green clearly leads: the felt. */
static double felt_share(const fw_image *im)
{
    long n = 0;
    for (int y = 0; y < im->height; y++) {
        const uint8_t *p = im->bgr + (size_t)y * (size_t)im->stride;
        for (int x = 0; x < im->width; x++, p += 3)
            if (p[1] > p[0] + 20 && p[1] > p[2] + 20)
                n++;
    }
    return (double)n / ((double)im->width * im->height);
}

static void fill(uint8_t *buf, int w, int h, uint8_t b, uint8_t g, uint8_t r)
{
    for (long i = 0; i < (long)w * h; i++) {
        buf[3 * i] = b;
        buf[3 * i + 1] = g;
        buf[3 * i + 2] = r;
    }
}

static int near(int a, int b)
{
    return abs(a - b) <= 8;
}

/* A fresh temp folder, path in buf. */
static int make_tmpdir(char *buf, size_t n)
{
    snprintf(buf, n, "/tmp/fw_frames_XXXXXX");
    return mkdtemp(buf) != NULL;
}

/* Remove the plain files of a temp folder this test made, then it. */
static void remove_tmpdir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char path[512];
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

static int write_solid(const char *dir, const char *name, int w, int h,
                       uint8_t b, uint8_t g, uint8_t r)
{
    uint8_t *buf = malloc((size_t)w * (size_t)h * 3);
    if (!buf)
        return FW_ENOMEM;
    fill(buf, w, h, b, g, r);
    fw_image im = {buf, w, h, w * 3};
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int rc = fw_frames_write_image(path, &im);
    free(buf);
    return rc;
}

static int write_bytes(const char *dir, const char *name, const char *bytes)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return FW_EIO;
    fputs(bytes, f);
    fclose(f);
    return FW_OK;
}

TEST(sim_frames)
{
    fw_frames_options o = {0};
    o.width = 320;
    o.height = 240;
    o.fps = 25;
    o.max_frames = 6;
    fw_frame_source *src = NULL;
    ASSERT_INT_EQ(fw_frames_open("sim:", &o, &src), FW_OK);
    ASSERT_STR_EQ(fw_frames_name(src), "sim");
    const uint8_t *first = NULL;
    double last_t = -1;
    for (int i = 0; i < 6; i++) {
        fw_image im = {0};
        double t = -1;
        ASSERT_INT_EQ(fw_frames_read(src, &im, &t, 100), FW_OK);
        ASSERT_INT_EQ(im.width, 320);
        ASSERT_INT_EQ(im.height, 240);
        ASSERT_TRUE(im.stride >= 320 * 3);
        ASSERT_TRUE(t > last_t);
        last_t = t;
        if (i == 0)
            first = im.bgr;
        /* the same buffer every frame: nothing allocated per frame */
        ASSERT_TRUE(im.bgr == first);
        if (i == 3) { /* cards dealt between frames: the scene hook */
            fw_frames_sim_scene sc;
            memset(&sc, 0, sizeof sc);
            sc.n_up = 2;
            sc.n_down = 1;
            sc.cards[0] = fw_card_make(12, 0);
            sc.cards[1] = fw_card_make(0, 3);
            sc.seed = 5;
            ASSERT_INT_EQ(fw_frames_sim_set_scene(src, &sc), FW_OK);
        }
        double felt = felt_share(&im);
        if (i <= 3)
            ASSERT_TRUE(felt > 0.95); /* an empty table */
        else
            ASSERT_TRUE(felt > 0.5 && felt < 0.97); /* felt and cards */
    }
    ASSERT_INT_EQ((int)(last_t * 25 + 0.5), 5);
    fw_image im = {0};
    ASSERT_INT_EQ(fw_frames_read(src, &im, NULL, 100), FW_FRAMES_END);
    ASSERT_INT_EQ(fw_frames_read(src, &im, NULL, 100), FW_FRAMES_END);
    fw_frames_close(src);
    fw_frames_close(NULL);
}

static int draw_stripes(void *user, fw_image *frame, long index, double t)
{
    int *calls = user;
    (*calls)++;
    for (int y = 0; y < frame->height; y++)
        memset(frame->bgr + (size_t)y * (size_t)frame->stride,
               (int)(index * 10), (size_t)frame->width * 3);
    return index == 2 ? FW_FRAMES_END : FW_OK;
}

TEST(sim_draw_hook)
{
    fw_frame_source *src = NULL;
    ASSERT_INT_EQ(fw_frames_open("sim:", NULL, &src), FW_OK);
    int calls = 0;
    ASSERT_INT_EQ(fw_frames_sim_set_draw(src, draw_stripes, &calls), FW_OK);
    fw_image im = {0};
    for (int i = 0; i < 2; i++) {
        ASSERT_INT_EQ(fw_frames_read(src, &im, NULL, 0), FW_OK);
        ASSERT_INT_EQ(im.width, 640); /* the default size */
        ASSERT_INT_EQ(im.bgr[im.stride * 100 + 30], i * 10);
    }
    ASSERT_INT_EQ(fw_frames_read(src, &im, NULL, 0), FW_FRAMES_END);
    ASSERT_INT_EQ(calls, 3);
    fw_frames_close(src);

    fw_frame_source *dir = NULL;
    ASSERT_INT_EQ(fw_frames_open("dir:/", NULL, &dir), FW_ENOENT);
    ASSERT_INT_EQ(fw_frames_sim_set_draw(dir, draw_stripes, &calls),
                  FW_EINVAL);
}

TEST(sim_reconnect)
{
    fw_frames_options o = {0};
    o.width = 64;
    o.height = 64;
    o.stop_after = 3;
    fw_frame_source *src = NULL;
    ASSERT_INT_EQ(fw_frames_open("sim:", &o, &src), FW_OK);
    fw_image im = {0};
    double t = 0, last = -1;
    for (int i = 0; i < 3; i++) {
        ASSERT_INT_EQ(fw_frames_read(src, &im, &t, 100), FW_OK);
        ASSERT_TRUE(t > last);
        last = t;
    }
    ASSERT_INT_EQ(fw_frames_read(src, &im, &t, 100), FW_EIO);
    ASSERT_TRUE(strstr(fw_last_error(), "camera stopped") != NULL);
    ASSERT_INT_EQ(fw_frames_reconnect(src), FW_OK);
    ASSERT_INT_EQ(fw_frames_read(src, &im, &t, 100), FW_OK);
    ASSERT_TRUE(t > last); /* time goes on across a reconnect */
    ASSERT_INT_EQ(im.width, 64);
    fw_frames_close(src);
}

TEST(sim_realtime)
{
    fw_frames_options o = {0};
    o.width = 64;
    o.height = 64;
    o.fps = 100;
    o.realtime = 1;
    fw_frame_source *src = NULL;
    ASSERT_INT_EQ(fw_frames_open("sim:", &o, &src), FW_OK);
    fw_image im = {0};
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int i = 0; i < 11; i++)
        ASSERT_INT_EQ(fw_frames_read(src, &im, NULL, -1), FW_OK);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double dt = (double)(b.tv_sec - a.tv_sec) +
                (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
    ASSERT_TRUE(dt > 0.09); /* 10 frame intervals at 100 fps */
    fw_frames_close(src);
}

TEST(dir_in_order)
{
    char dir[64];
    ASSERT_TRUE(make_tmpdir(dir, sizeof dir));
    /* written out of order, in three formats, with a file to ignore */
    ASSERT_INT_EQ(write_solid(dir, "b_2.bmp", 40, 30, 0, 0, 200), FW_OK);
    ASSERT_INT_EQ(write_solid(dir, "a_0.png", 40, 30, 200, 0, 0), FW_OK);
    ASSERT_INT_EQ(write_solid(dir, "a_1.jpg", 40, 30, 0, 200, 0), FW_OK);
    ASSERT_INT_EQ(write_bytes(dir, "notes.txt", "not a frame"), FW_OK);
    char uri[128];
    snprintf(uri, sizeof uri, "dir:%s", dir);
    fw_frame_source *src = NULL;
    int rc = fw_frames_open(uri, NULL, &src);
    if (rc != FW_OK)
        remove_tmpdir(dir);
    ASSERT_INT_EQ(rc, FW_OK);
    ASSERT_STR_EQ(fw_frames_name(src), "dir");
    static const int want[3] = {0, 1, 2}; /* index of the 200 channel */
    double last = -1;
    int ok = 1;
    for (int i = 0; i < 3 && ok; i++) {
        fw_image im = {0};
        double t = -1;
        rc = fw_frames_read(src, &im, &t, 0);
        ok = rc == FW_OK && im.width == 40 && im.height == 30 && t > last;
        const uint8_t *p = im.bgr + im.stride * 15 + 3 * 20;
        for (int c = 0; c < 3 && ok; c++)
            ok = near(p[c], c == want[i] ? 200 : 0);
        if (!ok)
            fprintf(stderr, "  frame %d: rc %d %dx%d\n", i, rc, im.width,
                    im.height);
        last = t;
    }
    fw_image im = {0};
    int end1 = fw_frames_read(src, &im, NULL, 0);
    int end2 = fw_frames_read(src, &im, NULL, 0);
    /* a folder reconnects from its first frame */
    int re = fw_frames_reconnect(src);
    int again = fw_frames_read(src, &im, NULL, 0);
    fw_frames_close(src);
    remove_tmpdir(dir);
    ASSERT_TRUE(ok);
    ASSERT_INT_EQ(end1, FW_FRAMES_END);
    ASSERT_INT_EQ(end2, FW_FRAMES_END);
    ASSERT_INT_EQ(re, FW_OK);
    ASSERT_INT_EQ(again, FW_OK);
}

TEST(dir_corrupt_image)
{
    char dir[64];
    ASSERT_TRUE(make_tmpdir(dir, sizeof dir));
    ASSERT_INT_EQ(write_solid(dir, "f0.png", 32, 32, 10, 20, 30), FW_OK);
    ASSERT_INT_EQ(write_bytes(dir, "f1.png", "\x89PNG\r\n garbage"), FW_OK);
    ASSERT_INT_EQ(write_bytes(dir, "f2.jpg", "\xff\xd8\xff truncated"),
                  FW_OK);
    ASSERT_INT_EQ(write_solid(dir, "f3.png", 32, 32, 10, 20, 30), FW_OK);
    char uri[128];
    snprintf(uri, sizeof uri, "dir:%s", dir);
    fw_frame_source *src = NULL;
    int rc = fw_frames_open(uri, NULL, &src);
    int r[5];
    char msg[2][256] = {"", ""};
    fw_image im = {0};
    for (int i = 0; i < 5; i++) {
        r[i] = rc == FW_OK ? fw_frames_read(src, &im, NULL, 0) : rc;
        if (i == 1 || i == 2)
            snprintf(msg[i - 1], sizeof msg[0], "%s", fw_last_error());
    }
    fw_frames_close(src);
    remove_tmpdir(dir);
    ASSERT_INT_EQ(rc, FW_OK);
    ASSERT_INT_EQ(r[0], FW_OK);
    ASSERT_INT_EQ(r[1], FW_EPARSE);
    ASSERT_TRUE(strstr(msg[0], "f1.png") != NULL);
    ASSERT_INT_EQ(r[2], FW_EPARSE);
    ASSERT_TRUE(strstr(msg[1], "f2.jpg") != NULL);
    ASSERT_INT_EQ(r[3], FW_OK); /* a bad frame does not end the stream */
    ASSERT_INT_EQ(r[4], FW_FRAMES_END);
}

TEST(dir_missing_or_empty)
{
    fw_frame_source *src = NULL;
    ASSERT_INT_EQ(fw_frames_open("dir:/nonexistent/frames", NULL, &src),
                  FW_ENOENT);
    ASSERT_TRUE(src == NULL);
    ASSERT_TRUE(strstr(fw_last_error(), "/nonexistent/frames") != NULL);
    char dir[64];
    ASSERT_TRUE(make_tmpdir(dir, sizeof dir));
    char uri[128];
    snprintf(uri, sizeof uri, "dir:%s", dir);
    int rc = fw_frames_open(uri, NULL, &src);
    remove_tmpdir(dir);
    ASSERT_INT_EQ(rc, FW_ENOENT);
    ASSERT_TRUE(strstr(fw_last_error(), "no images") != NULL);
}

TEST(file_missing)
{
    fw_frame_source *src = NULL;
    ASSERT_INT_EQ(fw_frames_open("file:/nonexistent/table.mp4", NULL, &src),
                  FW_ENOENT);
    ASSERT_TRUE(src == NULL);
    ASSERT_TRUE(strstr(fw_last_error(), "/nonexistent/table.mp4") != NULL);
    ASSERT_TRUE(strstr(fw_last_error(), "No such file") != NULL);
}

int fw_test_write_avi(const char *path, int n, int w, int h);

TEST(file_video)
{
    char dir[64];
    ASSERT_TRUE(make_tmpdir(dir, sizeof dir));
    char path[128], uri[160];
    snprintf(path, sizeof path, "%s/table.avi", dir);
    snprintf(uri, sizeof uri, "file:%s", path);
    int wrote = fw_test_write_avi(path, 5, 96, 64);
    fw_frame_source *src = NULL;
    int rc = wrote == 0 ? fw_frames_open(uri, NULL, &src) : FW_EIO;
    int n = 0, ok = 1, r;
    double last = -1, t = -1;
    const uint8_t *first = NULL;
    fw_image im = {0};
    while (rc == FW_OK && (r = fw_frames_read(src, &im, &t, 0)) == FW_OK) {
        if (!first)
            first = im.bgr;
        ok = ok && im.width == 96 && im.height == 64 && t > last &&
             im.bgr == first && near(im.bgr[im.stride * 30 + 30], 20 * n);
        last = t;
        n++;
    }
    fw_frames_close(src);
    remove_tmpdir(dir);
    ASSERT_INT_EQ(wrote, 0);
    ASSERT_INT_EQ(rc, FW_OK);
    ASSERT_INT_EQ(r, FW_FRAMES_END);
    ASSERT_INT_EQ(n, 5);
    ASSERT_TRUE(ok);
}

TEST(file_not_a_video)
{
    char dir[64];
    ASSERT_TRUE(make_tmpdir(dir, sizeof dir));
    ASSERT_INT_EQ(write_bytes(dir, "x.mp4", "this is not a video"), FW_OK);
    char uri[128];
    snprintf(uri, sizeof uri, "file:%s/x.mp4", dir);
    fw_frame_source *src = NULL;
    int rc = fw_frames_open(uri, NULL, &src);
    fw_image im = {0};
    int r = FW_OK;
    /* a backend may accept the open; then the first read must end it */
    if (rc == FW_OK)
        r = fw_frames_read(src, &im, NULL, 0);
    fw_frames_close(src);
    remove_tmpdir(dir);
    ASSERT_TRUE(rc < 0 || r != FW_OK);
}

TEST(v4l2_no_device)
{
    fw_frame_source *src = NULL;
    ASSERT_INT_EQ(fw_frames_open("v4l2:/dev/video99", NULL, &src), FW_ENOENT);
    ASSERT_TRUE(src == NULL);
    ASSERT_TRUE(strstr(fw_last_error(), "no such device") != NULL);
    ASSERT_TRUE(strstr(fw_last_error(), "/dev/video99") != NULL);
    /* a file that is not a device fails as cleanly */
    ASSERT_INT_EQ(fw_frames_open("v4l2:/etc/hostname", NULL, &src),
                  FW_EUNSUPPORTED);
    ASSERT_INT_EQ(fw_frames_open("v4l2:/dev/null", NULL, &src),
                  FW_EUNSUPPORTED);
    ASSERT_TRUE(src == NULL);
}

TEST(libcamera_no_camera)
{
    fw_frame_source *src = NULL;
    if (!fw_frames_has_backend("libcamera")) {
        ASSERT_INT_EQ(fw_frames_open("libcamera:", NULL, &src),
                      FW_EUNSUPPORTED);
        TEST_SKIP("built without libcamera");
    }
    int rc = fw_frames_open("libcamera:", NULL, &src);
    if (rc == FW_OK) {
        fw_frames_close(src);
        TEST_SKIP("a camera is attached");
    }
    ASSERT_INT_EQ(rc, FW_ENOENT);
    ASSERT_TRUE(strstr(fw_last_error(), "no camera found") != NULL);
    /* again: the shared camera manager starts and stops cleanly */
    ASSERT_INT_EQ(fw_frames_open("libcamera:", NULL, &src), FW_ENOENT);
    ASSERT_TRUE(src == NULL);
}

TEST(bad_uri)
{
    fw_frame_source *src = NULL;
    ASSERT_INT_EQ(fw_frames_open("webcam", NULL, &src), FW_EINVAL);
    ASSERT_INT_EQ(fw_frames_open("rtsp://cam", NULL, &src), FW_EINVAL);
    ASSERT_TRUE(strstr(fw_last_error(), "rtsp") != NULL);
    ASSERT_INT_EQ(fw_frames_open("sim:x", NULL, &src), FW_EINVAL);
    fw_frames_options o = {0};
    o.width = 100; /* a width without a height */
    ASSERT_INT_EQ(fw_frames_open("sim:", &o, &src), FW_EINVAL);
    ASSERT_INT_EQ(fw_frames_open("file:", NULL, &src), FW_EINVAL);
    ASSERT_TRUE(src == NULL);
    ASSERT_INT_EQ(fw_frames_read(NULL, NULL, NULL, 0), FW_EINVAL);
}

static const fw_test_case tests[] = {
    TEST_CASE(sim_frames),      TEST_CASE(sim_draw_hook),
    TEST_CASE(sim_reconnect),   TEST_CASE(sim_realtime),
    TEST_CASE(dir_in_order),    TEST_CASE(dir_corrupt_image),
    TEST_CASE(dir_missing_or_empty), TEST_CASE(file_missing), TEST_CASE(file_video),
    TEST_CASE(file_not_a_video), TEST_CASE(v4l2_no_device),
    TEST_CASE(libcamera_no_camera), TEST_CASE(bad_uri),
};

TEST_MAIN(tests)
