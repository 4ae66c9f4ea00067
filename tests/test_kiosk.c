/*
 * test_kiosk.c - `feltwatch run` end to end on the simulated dealer: a
 * script of table events is drawn frame by frame (Debian card art, chips),
 * found again by card and chip vision and the trackers, and must come out
 * as the same table events and the same rulings and alerts as the script
 * replayed straight into the engine.
 */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include "kiosk.h"
#include "protocol.h"
#include "sim.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef FW_DEMO_SESSION
#error "FW_DEMO_SESSION must name app/demo_session.jsonl"
#endif

/* Hands of the demo session played through the camera: all of them in a
 * Release build; two under the sanitizers, which run ~10x slower. */
#ifdef FW_TEST_SANITIZED
#define FILM_HANDS 2
#else
#define FILM_HANDS 100 /* all */
#endif

static int art_installed(void)
{
    int d = fw_sim_deck_find("ar-anglo-poker");
    return d >= 0 && fw_sim_deck_installed(d);
}

/* The demo session up to (not including) its (hands+1)-th hand_start. */
static char *demo_hands(int hands, size_t *len)
{
    FILE *f = fopen(FW_DEMO_SESSION, "r");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *out = malloc(cap), line[4096];
    int seen = 0;
    while (out && fgets(line, sizeof line, f)) {
        if (strstr(line, "\"hand_start\"") && ++seen > hands)
            break;
        size_t l = strlen(line);
        if (n + l + 1 > cap) {
            char *o = realloc(out, cap *= 2);
            if (!o) {
                free(out);
                out = NULL;
                break;
            }
            out = o;
        }
        memcpy(out + n, line, l);
        n += l;
    }
    fclose(f);
    if (out)
        out[n] = '\0';
    *len = n;
    return out;
}

/* Lines of a JSON Lines file, each normalised: the frame time dropped and
 * a board card's implied "face":"up" left out. */
static int read_lines(const char *path, char ***out)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int n = 0, cap = 64;
    char **v = malloc(sizeof *v * (size_t)cap), line[8192];
    while (v && fgets(line, sizeof line, f)) {
        char *p = strstr(line, ",\"t\":");
        if (p) {
            char *e = p + 5;
            while (*e && *e != ',' && *e != '}')
                e++;
            memmove(p, e, strlen(e) + 1);
        }
        p = strstr(line, "\"to\":\"board\",\"face\":\"up\",");
        if (p)
            memmove(p + 13, p + 25, strlen(p + 25) + 1);
        size_t l = strlen(line);
        while (l && (line[l - 1] == '\n' || line[l - 1] == '\r'))
            line[--l] = '\0';
        if (!l)
            continue;
        if (n == cap) {
            char **w = realloc(v, sizeof *v * (size_t)(cap *= 2));
            if (!w)
                break;
            v = w;
        }
        v[n++] = strdup(line);
    }
    fclose(f);
    *out = v;
    return n;
}

static void free_lines(char **v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static int write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int ok = fwrite(text, 1, len, f) == len;
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* Everything but the state records (whose seat list also carries the
 * frame-time clock), for the rulings, alerts, awards and hand ends. */
static int not_state(const char *line)
{
    return strstr(line, "\"type\":\"state\"") == NULL;
}

/*
 * Play `script` through the camera (the kiosk over the simulated dealer,
 * headless) and compare: the events logged must be the script's, in its
 * order, and the records the same rulings, alerts, awards and hand ends as
 * the script replayed straight into the engine. The kiosk's summary goes
 * to `summary` (may be NULL).
 */
static void play_film(const char *script, size_t len, char *summary,
                      size_t sumsz)
{
    char dir[512];
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/fw_kiosk_XXXXXX", t && t[0] ? t : "/tmp");
    ASSERT_TRUE(mkdtemp(dir) != NULL);
    char path[1024], spath[1024];
    snprintf(spath, sizeof spath, "%s/script.jsonl", dir);
    ASSERT_INT_EQ(write_file(spath, script, len), 0);

    char *argv[] = {"run", "--source", "sim:", "--headless", "--script",
                    spath, "--out", dir, NULL};
    FILE *out = tmpfile(), *err = tmpfile();
    ASSERT_TRUE(out && err);
    ASSERT_INT_EQ(fw_kiosk_run(8, argv, NULL, out, err), 0);
    if (summary && sumsz) {
        rewind(out);
        size_t n = fread(summary, 1, sumsz - 1, out);
        summary[n] = '\0';
    }
    fclose(out);
    fclose(err);

    /* the camera and the taps gave the script's events, in its order */
    char **want = NULL, **got = NULL;
    snprintf(path, sizeof path, "%s/events.jsonl", dir);
    int ngot = read_lines(path, &got);
    int nwant = read_lines(spath, &want);
    ASSERT_TRUE(ngot > 0 && nwant > 0);
    int first_diff = -1;
    for (int i = 0; i < nwant && i < ngot && first_diff < 0; i++)
        if (strcmp(want[i], got[i]) != 0)
            first_diff = i;
    if (first_diff >= 0)
        fprintf(stderr, "  event %d: want %s\n             got  %s\n",
                first_diff + 1, want[first_diff], got[first_diff]);
    ASSERT_INT_EQ(first_diff, -1);
    ASSERT_INT_EQ(ngot, nwant);
    free_lines(want, nwant);
    free_lines(got, ngot);

    /* the same rulings, alerts, awards and hand ends as the script replayed
     * straight into the engine */
    char cmd[3000], rpath[1024];
    snprintf(rpath, sizeof rpath, "%s/replayed.jsonl", dir);
    snprintf(cmd, sizeof cmd, "'%s' replay '%s' > '%s'", FW_FELTWATCH, spath,
             rpath);
    ASSERT_INT_EQ(system(cmd), 0);
    snprintf(path, sizeof path, "%s/records.jsonl", dir);
    ngot = read_lines(path, &got);
    nwant = read_lines(rpath, &want);
    ASSERT_TRUE(ngot > 0 && nwant > 0);
    int gi = 0, wi = 0, rulings = 0;
    for (;;) {
        while (gi < ngot && !not_state(got[gi]))
            gi++;
        while (wi < nwant && !not_state(want[wi]))
            wi++;
        if (gi == ngot || wi == nwant)
            break;
        if (strcmp(got[gi], want[wi]) != 0)
            fprintf(stderr, "  record: want %s\n          got  %s\n",
                    want[wi], got[gi]);
        ASSERT_STR_EQ(got[gi], want[wi]);
        rulings++;
        gi++, wi++;
    }
    ASSERT_INT_EQ(gi, ngot);
    ASSERT_INT_EQ(wi, nwant);
    ASSERT_TRUE(rulings > 10);
    free_lines(want, nwant);
    free_lines(got, ngot);

    snprintf(path, sizeof path, "%s/feltwatch.db", dir);
    struct stat st;
    ASSERT_INT_EQ(stat(path, &st), 0);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ASSERT_INT_EQ(system(cmd), 0);
}

TEST(film_matches_script)
{
    if (!art_installed())
        TEST_SKIP("Debian card art not installed");
    size_t len = 0;
    char *script = demo_hands(FILM_HANDS, &len);
    ASSERT_TRUE(script != NULL && len > 0);
    play_film(script, len, NULL, 0);
    free(script);
}

/*
 * A bet pushed as a stack (32 chips of 25 on the flop): from above its
 * count is a range, so the kiosk asks the dealer, and the dealer's answer
 * (the simulated dealer reads the stack it put down) is the push the
 * script has. The film still matches the script.
 */
TEST(stack_confirmed)
{
    if (!art_installed())
        TEST_SKIP("Debian card art not installed");
    size_t len = 0;
    char *script = demo_hands(1, &len);
    ASSERT_TRUE(script != NULL && len > 0);
    static const char bet[] = "{\"type\":\"push\",\"seat\":4,"
                              "\"chips\":[500,100,100,100]}";
    char stack[512];
    int pos = snprintf(stack, sizeof stack,
                          "{\"type\":\"push\",\"seat\":4,\"chips\":[");
    for (int i = 0; i < 32; i++) /* 800 in 25s */
        pos += snprintf(stack + pos, sizeof stack - (size_t)pos,
                           "%s25", i ? "," : "");
    snprintf(stack + pos, sizeof stack - (size_t)pos, "]}");
    char *at = strstr(script, bet);
    ASSERT_TRUE(at != NULL);
    size_t head = (size_t)(at - script), tail = len - head - strlen(bet);
    char *edited = malloc(len + sizeof stack);
    ASSERT_TRUE(edited != NULL);
    memcpy(edited, script, head);
    memcpy(edited + head, stack, strlen(stack));
    memcpy(edited + head + strlen(stack), at + strlen(bet), tail);
    size_t elen = head + strlen(stack) + tail;
    free(script);
    char summary[4096] = "";
    play_film(edited, elen, summary, sizeof summary);
    free(edited);
    if (fw_test_failed_flag)
        return;
    if (!strstr(summary, "stacks pushed: 1 asked of the dealer, 1 confirmed"))
        fprintf(stderr, "  summary: %s\n", summary);
    ASSERT_TRUE(strstr(summary,
                       "stacks pushed: 1 asked of the dealer, 1 confirmed") !=
                NULL);
}

/* A script the simulated dealer cannot play is refused with its line. */
TEST(bad_script)
{
    if (!art_installed())
        TEST_SKIP("Debian card art not installed");
    char dir[512];
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/fw_kiosk_XXXXXX", t && t[0] ? t : "/tmp");
    ASSERT_TRUE(mkdtemp(dir) != NULL);
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"{\"type\":\"level\",\"sb\":1,\"bb\":2}\n{\"type\":\"bogus\"}\n",
         "line 2"},
        {"{\"type\":\"push\",\"seat\":1,\"chips\":[7]}\n",
         "no chip of value 7"},
        {"{\"type\":\"fold\",\"seat\":2}\n", "seat 2 has no cards"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char spath[1024];
        snprintf(spath, sizeof spath, "%s/bad.jsonl", dir);
        ASSERT_INT_EQ(write_file(spath, cases[i].text, strlen(cases[i].text)),
                      0);
        char *argv[] = {"run", "--source", "sim:", "--headless", "--script",
                        spath, NULL};
        FILE *out = tmpfile(), *err = tmpfile();
        ASSERT_TRUE(out && err);
        ASSERT_INT_EQ(fw_kiosk_run(6, argv, NULL, out, err), 1);
        char msg[1024] = "";
        rewind(err);
        size_t n = fread(msg, 1, sizeof msg - 1, err);
        msg[n] = '\0';
        fclose(out);
        fclose(err);
        if (!strstr(msg, cases[i].want))
            fprintf(stderr, "  message: %s\n", msg);
        ASSERT_TRUE(strstr(msg, cases[i].want) != NULL);
    }
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ASSERT_INT_EQ(system(cmd), 0);
}

TEST(bad_usage)
{
    char *argv[] = {"run", "--bogus", NULL};
    FILE *err = tmpfile();
    ASSERT_INT_EQ(fw_kiosk_run(2, argv, NULL, stdout, err), 2);
    fclose(err);
}

static const fw_test_case cases[] = {
    TEST_CASE(film_matches_script),
    TEST_CASE(stack_confirmed),
    TEST_CASE(bad_script),
    TEST_CASE(bad_usage),
};

TEST_MAIN(cases)
