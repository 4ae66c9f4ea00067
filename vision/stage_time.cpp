/*
 * stage_time.cpp - the stage clock of stage_time.h, and its report.
 *
 * One clock for the process: the diagnosis is for bench_cards, which runs
 * the detector on one thread.
 */
#include "stage_time.h"
#include "vision.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>

namespace fwv {

namespace {

const char *const STAGE_NAMES[ST_COUNT] = {
    "start", "scale", "lab", "table", "paper", "masks",
    "corners", "propose", "choose", "index", "net", "face", "loose"};

const char *const PASS_NAMES[RP_COUNT] = {"quads", "runners", "grown",
                                          "cut",   "disown",  "loose",
                                          "fanned", "later"};

#ifdef FW_STAGE_TIMES
using Clock = std::chrono::steady_clock;
Clock::time_point last_mark;
double stage_ms[ST_COUNT];
long frames;
/* corner readings by pass: [first / again][all / found an index] */
ReadPass pass;
long reads[RP_COUNT][2][2];
#endif

} // namespace

#ifdef FW_STAGE_TIMES
void stage_mark(Stage s)
{
    Clock::time_point now = Clock::now();
    if (s != ST_START)
        stage_ms[s] +=
            std::chrono::duration<double, std::milli>(now - last_mark).count();
    last_mark = now;
}

void stage_frame_done()
{
    frames++;
    pass = RP_QUADS;
}

void stage_pass(ReadPass p)
{
    pass = p;
}

void stage_read(bool found, bool again)
{
    reads[pass][again][0]++;
    reads[pass][again][1] += found;
}
#endif

} // namespace fwv

extern "C" int fw_vision_stage_report(char *buf, size_t len)
{
    if (!buf || len == 0)
        return 0;
    buf[0] = '\0';
#ifdef FW_STAGE_TIMES
    if (fwv::frames == 0)
        return 0;
    size_t at = 0;
    for (int s = fwv::ST_START + 1; s < fwv::ST_COUNT && at < len; s++) {
        int k = std::snprintf(buf + at, len - at, "%-8s %6.3f ms\n",
                              fwv::STAGE_NAMES[s],
                              fwv::stage_ms[s] / (double)fwv::frames);
        if (k < 0)
            break;
        at += std::min((size_t)k, len - at);
    }
    /* the corner readings: per frame, first readings and readings again,
     * each with how many found an index */
    const double f = (double)fwv::frames;
    for (int p = 0; p < fwv::RP_COUNT && at < len; p++) {
        const long(&r)[2][2] = fwv::reads[p];
        int k = std::snprintf(
            buf + at, len - at,
            "reads %-8s %5.1f (%4.1f found), again %5.1f (%4.1f found)\n",
            fwv::PASS_NAMES[p], (double)r[0][0] / f, (double)r[0][1] / f,
            (double)r[1][0] / f, (double)r[1][1] / f);
        if (k < 0)
            break;
        at += std::min((size_t)k, len - at);
    }
    const int counted = (int)fwv::frames;
    for (double &ms : fwv::stage_ms)
        ms = 0;
    std::memset(fwv::reads, 0, sizeof fwv::reads);
    fwv::frames = 0;
    return counted;
#else
    (void)fwv::STAGE_NAMES;
    (void)fwv::PASS_NAMES;
    return 0;
#endif
}
