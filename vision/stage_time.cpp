/*
 * stage_time.cpp - the stage clock of stage_time.h, and its report.
 *
 * One clock for the process: the diagnosis is for bench_cards, which runs
 * the detector on one thread.
 */
#include "stage_time.h"
#include "vision.h"

#include <chrono>
#include <cstdio>

namespace fwv {

namespace {

const char *const STAGE_NAMES[ST_COUNT] = {
    "start", "scale", "lab", "table", "paper", "masks",
    "corners", "propose", "choose", "index", "net", "face", "loose"};

#ifdef FW_STAGE_TIMES
using Clock = std::chrono::steady_clock;
Clock::time_point last_mark;
double stage_ms[ST_COUNT];
long frames;
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
        at += (size_t)k;
    }
    const int counted = (int)fwv::frames;
    for (double &ms : fwv::stage_ms)
        ms = 0;
    fwv::frames = 0;
    return counted;
#else
    (void)fwv::STAGE_NAMES;
    return 0;
#endif
}
