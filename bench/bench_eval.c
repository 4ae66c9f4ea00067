/*
 * bench_eval.c - evaluations per second of the hand evaluators on one core.
 *
 * Usage: bench_eval [seconds per evaluator, default 2]
 *
 * Hands are dealt up front from a fixed-seed xorshift generator into arrays
 * much larger than the caches, so every run measures the same hands and the
 * dealing is not timed. Every value is added to a checksum that is printed,
 * so the compiler cannot drop the work.
 */
#include "rules.h"

#include "eval_tables.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NHANDS (1u << 20)

static uint64_t rng_state = UINT64_C(0x9E3779B97F4A7C15);

static uint64_t next_random(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Deals n distinct cards of the 52 - lowest cards from lowest up. */
static void deal(fw_card *out, int n, unsigned lowest)
{
    uint64_t used = 0;
    for (int i = 0; i < n; i++) {
        unsigned c;
        do {
            c = lowest + (unsigned)(next_random() % (52 - lowest));
        } while (used >> c & 1);
        used |= UINT64_C(1) << c;
        out[i] = (fw_card)c;
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

enum kind { HIGH, OMAHA, SHORT_DECK };

/* Runs whole passes over the hands until `seconds` have gone by. */
static void run(const char *name, enum kind kind, const fw_card *hands,
                int stride, double seconds)
{
    uint64_t sum = 0, first = 0, evals = 0;
    double start = now(), elapsed;
    do {
        const fw_card *h = hands;
        uint64_t pass = 0;
        switch (kind) {
        case HIGH:
            for (unsigned i = 0; i < NHANDS; i++, h += stride)
                pass += fw_eval_high(h, 7);
            break;
        case OMAHA:
            for (unsigned i = 0; i < NHANDS; i++, h += stride)
                pass += fw_eval_omaha(h, 4, h + 4, 5);
            break;
        case SHORT_DECK:
            for (unsigned i = 0; i < NHANDS; i++, h += stride)
                pass += fw_eval_short_deck(h, 7);
            break;
        }
        if (evals == 0)
            first = pass;
        sum += pass;
        evals += NHANDS;
        elapsed = now() - start;
    } while (elapsed < seconds);
    /* The checksum of one pass is the same on every build and compiler. */
    printf("%-20s %7.1f M evals/s  %4.1f ns/eval  (%llu evals, %.2f s, "
           "checksum %016llx, total %016llx)\n",
           name, (double)evals / elapsed / 1e6, elapsed * 1e9 / (double)evals,
           (unsigned long long)evals, elapsed, (unsigned long long)first,
           (unsigned long long)sum);
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? strtod(argv[1], NULL) : 2.0;
    if (!(seconds > 0)) {
        fprintf(stderr, "usage: bench_eval [seconds]\n");
        return 2;
    }
    fw_card *seven = malloc((size_t)NHANDS * 7);
    fw_card *omaha = malloc((size_t)NHANDS * 9);
    fw_card *shortd = malloc((size_t)NHANDS * 7);
    if (!seven || !omaha || !shortd) {
        fprintf(stderr, "bench_eval: out of memory\n");
        return 1;
    }
    for (unsigned i = 0; i < NHANDS; i++) {
        deal(seven + (size_t)i * 7, 7, 0);
        deal(omaha + (size_t)i * 9, 9, 0);
        deal(shortd + (size_t)i * 7, 7, 16);
    }

    printf("tables: %zu bytes (flush %zu, rank hash %zu + %zu, values %zu, "
           "card keys %zu)\n",
           fw__eval_table_bytes, sizeof fw__eval_flush, sizeof fw__eval_rank,
           sizeof fw__eval_disp, sizeof fw__eval_value,
           sizeof fw__eval_card_key);
    printf("%u random hands per evaluator, %.1f s each, one thread\n", NHANDS,
           seconds);
    run("fw_eval_high (7)", HIGH, seven, 7, seconds);
    run("fw_eval_omaha (4+5)", OMAHA, omaha, 9, seconds);
    run("fw_eval_short_deck", SHORT_DECK, shortd, 7, seconds);

    free(seven);
    free(omaha);
    free(shortd);
    return 0;
}
