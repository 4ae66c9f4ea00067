/*
 * fuzz_phh.c - libFuzzer target over the PHH reader (app/phh.h): any bytes
 * through fw_phh_parse(); what parses is translated into events and
 * replayed through the engine. Nothing may crash, leak or trip a
 * sanitizer; every failure must be a clean FW_E* code with a message.
 *
 * Seeds: fuzz/corpus/phh/ (the published hands of tests/phh/ and a few
 * small documents that reach the error paths).
 */
#include "phh.h"

#include <stdlib.h>
#include <string.h>

static int count_event(void *ctx, const fw_event *ev)
{
    int *n = ctx;
    (*n)++;
    /* Every event must carry what its type needs in range. */
    if (ev->type < 0 || ev->type >= FW_EV_COUNT)
        abort();
    if ((ev->type == FW_EV_SEAT || ev->type == FW_EV_BUTTON ||
         ev->type == FW_EV_SAY || ev->type == FW_EV_FOLD ||
         ev->type == FW_EV_SHOW || ev->type == FW_EV_MUCK) &&
        (ev->seat < 1 || ev->seat > FW_MAX_SEATS))
        abort();
    return FW_OK;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    static fw_phh h;
    char err[FW_PHH_ERR_MAX];
    int rc = fw_phh_parse((const char *)data, size, &h, err, sizeof err);
    if (rc > 0 || (rc != FW_OK && err[0] == '\0'))
        abort();
    if (rc != FW_OK)
        return 0;
    if (h.nplayers < 2 || h.nplayers > FW_PHH_MAX_PLAYERS || h.nactions < 0 ||
        h.nactions > FW_PHH_MAX_ACTIONS || h.scale < 1)
        abort();
    int n = 0;
    rc = fw_phh_events(&h, count_event, &n, err, sizeof err);
    if (rc > 0 || (rc != FW_OK && err[0] == '\0'))
        abort();
    if (rc != FW_OK)
        return 0;
    int64_t fin[FW_PHH_MAX_PLAYERS];
    int np = 0;
    rc = fw_phh_replay(&h, fin, &np, err, sizeof err);
    if (rc > 0 || (rc != FW_OK && err[0] == '\0'))
        abort();
    if (rc == FW_OK) {
        /* The engine moves chips, it does not make them. */
        int64_t before = 0, after = 0;
        for (int i = 0; i < h.nplayers; i++) {
            before += h.starting_stacks[i];
            after += fin[i];
        }
        if (np != h.nplayers || before != after)
            abort();
    }
    return 0;
}
