/*
 * test_kiosk.c - `feltwatch run` end to end on the scripted sim: dealer:
 * rendered frames -> card detection -> tracker -> engine -> logs.
 */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include "kiosk.h"
#include "protocol.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

TEST(sim_deal)
{
    char dir[512];
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/fw_kiosk_XXXXXX", t && t[0] ? t : "/tmp");
    ASSERT_TRUE(mkdtemp(dir) != NULL);
    char *argv[] = {"run",     "--source", "sim:", "--headless", "--out",
                    dir,       "--frames", "300",  NULL};
    FILE *out = tmpfile(), *err = tmpfile();
    ASSERT_TRUE(out && err);
    ASSERT_INT_EQ(fw_kiosk_main(8, argv, out, err), 0);
    fclose(out);
    fclose(err);

    char path[1024];
    snprintf(path, sizeof path, "%s/events.jsonl", dir);
    FILE *f = fopen(path, "r");
    ASSERT_TRUE(f != NULL);
    char line[1024];
    int seats[32], nseat = 0, nburn = 0, nboard = 0, other_cards = 0;
    long lineno = 0;
    int bad = 0;
    while (fgets(line, sizeof line, f)) {
        fw_event ev;
        lineno++;
        if (fw_protocol_parse_line(line, strlen(line), lineno, &ev, NULL,
                                   0) != FW_OK) {
            bad++;
            continue;
        }
        if (ev.type != FW_EV_CARD)
            continue;
        if (ev.to == FW_TO_SEAT && nseat < 32)
            seats[nseat++] = ev.seat;
        else if (ev.to == FW_TO_BURN)
            nburn++;
        else if (ev.to == FW_TO_BOARD)
            nboard++;
        else
            other_cards++;
    }
    fclose(f);
    ASSERT_INT_EQ(bad, 0);
    ASSERT_INT_EQ(nseat, 12);
    for (int i = 0; i < 12; i++)
        ASSERT_INT_EQ(seats[i], i % 6 + 1);
    ASSERT_INT_EQ(nburn, 1);
    ASSERT_INT_EQ(other_cards, 0);
    ASSERT_TRUE(nboard == 0 || nboard == 3); /* face-up reading: see report */

    snprintf(path, sizeof path, "%s/records.jsonl", dir);
    f = fopen(path, "r");
    ASSERT_TRUE(f != NULL);
    int preflop = 0, alarms = 0;
    while (fgets(line, sizeof line, f)) {
        if (strstr(line, "\"type\":\"state\"") &&
            strstr(line, "\"street\":\"preflop\""))
            preflop = 1;
        if (strstr(line, "\"type\":\"alert\"") &&
            (strstr(line, "\"severity\":\"warn\"") ||
             strstr(line, "\"severity\":\"stop\"")))
            alarms++;
    }
    fclose(f);
    ASSERT_TRUE(preflop);
    ASSERT_INT_EQ(alarms, 0);

    snprintf(path, sizeof path, "%s/feltwatch.db", dir);
    struct stat st;
    ASSERT_INT_EQ(stat(path, &st), 0);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ASSERT_INT_EQ(system(cmd), 0);
}

TEST(bad_usage)
{
    char *argv[] = {"run", "--bogus", NULL};
    FILE *err = tmpfile();
    ASSERT_INT_EQ(fw_kiosk_main(2, argv, stdout, err), 2);
    fclose(err);
}

static const fw_test_case cases[] = {
    TEST_CASE(sim_deal),
    TEST_CASE(bad_usage),
};

TEST_MAIN(cases)
