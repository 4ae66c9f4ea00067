/*
 * sim_cmd.c - `feltwatch sim`: one rendered table scene and its truth:
 * cards (the card-art simulator) or chips spread and stacked (the chip
 * renderer).
 */
#include "sim_cmd.h"

#include "chip_side.h"
#include "chips.h"
#include "fw_parse.h"
#include "sim.h"
#include "vision.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: feltwatch sim [--seed N] [--deck NAME] [--held-out] "
               "[--hard]\n"
               "                     [--size WxH] [--cards N] "
               "[--table green|blue|red|wood|grey|pale]\n"
               "                     [--cache DIR] OUT.png|OUT.jpg\n"
               "       feltwatch sim --chips N [--stacks K] [--focal PX] "
               "[--seed N]\n"
               "                     [--size WxH] [--table green|blue|red|"
               "wood] OUT.png\n"
               "       feltwatch sim --side --stacks K [--seed N] [--size WxH] "
               "[--table ...] OUT.png\n"
               "       feltwatch sim --decks\n");
}

static const char *const table_names[FW_SIM_TABLES] = {
    "green", "blue", "red", "wood", "grey", "pale"};

static int print_truth(FILE *out, const fw_sim_scene *sc,
                       const fw_sim_truth *t)
{
    fprintf(out, "{\"deck\":\"%s\",\"table\":\"%s\",\"width\":%d,"
                 "\"height\":%d,\"cards\":[",
            fw_sim_deck_name(sc->deck), table_names[sc->table], sc->width,
            sc->height);
    for (int i = 0; i < t->ncards; i++) {
        const fw_sim_truth_card *c = &t->cards[i];
        char name[3];
        fw_card_str(c->card, name);
        fprintf(out, "%s{\"card\":\"%s\",\"face\":\"%s\",\"corners\":[",
                i ? "," : "", name, c->face_up ? "up" : "down");
        for (int k = 0; k < 4; k++)
            fprintf(out, "%s[%.1f,%.1f]", k ? "," : "",
                    (double)c->corners[k][0], (double)c->corners[k][1]);
        fprintf(out, "],\"visible\":%.3f,\"index_visible\":%s}",
                (double)c->visible, c->index_visible ? "true" : "false");
    }
    return fprintf(out, "]}\n") < 0 ? -1 : 0;
}

/* What a chip scene is asked for. */
typedef struct chip_scene_args {
    long chips, stacks; /* -1: not a chip scene */
    double focal;       /* 0: the frame's width */
    int side;           /* the side camera's view of the stacks */
} chip_scene_args;

/* A side camera's view of a.stacks stacks, its truth as JSON on out. */
static int side_scene(const chip_scene_args *a, uint32_t seed, int w, int h,
                      const char *felt, const char *path, FILE *out,
                      FILE *err)
{
    int n = (int)a->stacks;
    fw_image img = {malloc((size_t)w * h * 3), w, h, w * 3};
    fw_side_spec spec[16];
    fw_side_stack truth[16];
    int rc = 1;
    if (!img.bgr) {
        fprintf(err, "feltwatch sim: out of memory\n");
        return 1;
    }
    /* counts from the seed, 1-40 */
    uint32_t x = seed * 2654435761u + 12345u;
    for (int i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        spec[i].nchips = 1 + (int)((x >> 16) % FW_SIDE_MAX_CHIPS);
        spec[i].chips = NULL;
    }
    int drawn = fw_chips_render_side(img.bgr, w, h, img.stride, seed, felt,
                                     NULL, spec, n, truth);
    if (drawn < 0 || fw_vision_save_image(&img, path, 92) != FW_OK) {
        fprintf(err, "feltwatch sim: %s\n", fw_last_error());
        goto done;
    }
    fprintf(out, "{\"felt\":\"%s\",\"width\":%d,\"height\":%d,"
                 "\"side_stacks\":[",
            felt, w, h);
    for (int i = 0, k = 0; i < n; i++) {
        if (truth[i].count == 0)
            continue; /* found no room */
        fprintf(out, "%s{\"column\":[%.1f,%.1f],\"count\":%d,"
                     "\"top_color\":\"%s\"}",
                k++ ? "," : "", (double)truth[i].x0, (double)truth[i].x1,
                truth[i].count, truth[i].top_color);
    }
    rc = fprintf(out, "]}\n") < 0;
done:
    free(img.bgr);
    return rc;
}

/*
 * A chip scene: single chips and stacks seen from above by a pinhole
 * camera, written to `path`, its truth as JSON on out.
 */
static int chip_scene(const chip_scene_args *a, uint32_t seed, int w, int h,
                      const char *felt, const char *path, FILE *out,
                      FILE *err)
{
    float focal = (float)(a->focal > 0 ? a->focal : w);
    int nchips = (int)a->chips, nstacks = (int)(a->stacks > 0 ? a->stacks : 0);
    fw_image img = {malloc((size_t)w * h * 3), w, h, w * 3};
    fw_chip_obs *truth = malloc(sizeof *truth * (size_t)(nchips + 1));
    fw_stack_truth *st = malloc(sizeof *st * (size_t)(nstacks + 1));
    int np = 0, ns = 0, rc = 1;
    if (!img.bgr || !truth || !st) {
        fprintf(err, "feltwatch sim: out of memory\n");
        goto done;
    }
    if (fw_chips_render_table(img.bgr, w, h, img.stride, seed, felt, nchips,
                              nstacks, focal, truth, st, &np, &ns) != FW_OK ||
        fw_vision_save_image(&img, path, 92) != FW_OK) {
        fprintf(err, "feltwatch sim: %s\n", fw_last_error());
        goto done;
    }
    fprintf(out,
            "{\"felt\":\"%s\",\"width\":%d,\"height\":%d,\"focal_px\":%.1f,"
            "\"chips\":[",
            felt, w, h, (double)focal);
    for (int i = 0; i < np; i++)
        fprintf(out, "%s{\"center\":[%.1f,%.1f],\"radius\":%.2f,"
                     "\"color\":\"%s\"}",
                i ? "," : "", (double)truth[i].center[0],
                (double)truth[i].center[1], (double)truth[i].radius,
                truth[i].color);
    fprintf(out, "],\"stacks\":[");
    for (int i = 0; i < ns; i++)
        fprintf(out, "%s{\"base\":[%.1f,%.1f],\"top\":[%.1f,%.1f],"
                     "\"radius\":%.2f,\"count\":%d,\"color\":\"%s\"}",
                i ? "," : "", (double)st[i].base[0], (double)st[i].base[1],
                (double)st[i].top[0], (double)st[i].top[1],
                (double)st[i].radius, st[i].count, st[i].color);
    rc = fprintf(out, "]}\n") < 0;
    if (rc)
        fprintf(err, "feltwatch sim: cannot write the truth\n");
done:
    free(img.bgr);
    free(truth);
    free(st);
    return rc;
}

int fw_sim_main(int argc, char **argv, FILE *out, FILE *err)
{
    fw_sim_random_opts o;
    memset(&o, 0, sizeof o);
    o.any_deck = 1;
    o.held_out = -1;
    o.table = -1;
    long seed = 1;
    const char *cache = NULL, *path = NULL, *deck = NULL;
    chip_scene_args chip = {-1, -1, 0, 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        long v;
        int more = i + 1 < argc;
        if (strcmp(a, "--decks") == 0) {
            for (int d = 0; d < fw_sim_deck_count(); d++)
                fprintf(out, "%-28s %-13s %s\n", fw_sim_deck_name(d),
                        fw_sim_deck_installed(d) ? "installed" : "missing",
                        fw_sim_deck_held_out(d) ? "held-out" : "training");
            return 0;
        } else if (strcmp(a, "--seed") == 0 && more) {
            if (fw_parse_long(argv[++i], 0, 4294967295L, &seed)) {
                fprintf(err, "feltwatch sim: bad --seed %s\n", argv[i]);
                return 2;
            }
        } else if (strcmp(a, "--deck") == 0 && more) {
            deck = argv[++i];
        } else if (strcmp(a, "--held-out") == 0) {
            o.held_out = 1;
        } else if (strcmp(a, "--hard") == 0) {
            o.hard = 1;
        } else if (strcmp(a, "--cards") == 0 && more) {
            if (fw_parse_long(argv[++i], 0, FW_SIM_MAX_CARDS, &v)) {
                fprintf(err, "feltwatch sim: bad --cards %s\n", argv[i]);
                return 2;
            }
            o.min_cards = o.max_cards = (int)v;
        } else if (strcmp(a, "--size") == 0 && more) {
            int w = 0, h = 0;
            char x = 0, extra = 0;
            if (sscanf(argv[++i], "%d%c%d%c", &w, &x, &h, &extra) != 3 ||
                x != 'x' || w < 16 || h < 16 || w > 8000 || h > 8000) {
                fprintf(err, "feltwatch sim: bad --size %s\n", argv[i]);
                return 2;
            }
            o.width = w;
            o.height = h;
        } else if (strcmp(a, "--table") == 0 && more) {
            const char *t = argv[++i];
            o.table = -2;
            for (int k = 0; k < FW_SIM_TABLES; k++)
                if (strcmp(t, table_names[k]) == 0)
                    o.table = k;
            if (o.table < 0) {
                fprintf(err, "feltwatch sim: bad --table %s\n", t);
                return 2;
            }
        } else if (strcmp(a, "--chips") == 0 && more) {
            if (fw_parse_long(argv[++i], 0, 400, &chip.chips)) {
                fprintf(err, "feltwatch sim: bad --chips %s (0-400)\n",
                        argv[i]);
                return 2;
            }
        } else if (strcmp(a, "--side") == 0) {
            chip.side = 1;
        } else if (strcmp(a, "--stacks") == 0 && more) {
            if (fw_parse_long(argv[++i], 0, 100, &chip.stacks)) {
                fprintf(err, "feltwatch sim: bad --stacks %s (0-100)\n",
                        argv[i]);
                return 2;
            }
        } else if (strcmp(a, "--focal") == 0 && more) {
            char *end;
            chip.focal = strtod(argv[++i], &end);
            if (*end || !(chip.focal > 0) || !isfinite(chip.focal) ||
                chip.focal > 1e6) {
                fprintf(err, "feltwatch sim: bad --focal %s\n", argv[i]);
                return 2;
            }
        } else if (strcmp(a, "--cache") == 0 && more) {
            cache = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            usage(err);
            return 2;
        } else if (!path) {
            path = a;
        } else {
            usage(err);
            return 2;
        }
    }
    if (!path) {
        usage(err);
        return 2;
    }
    if (chip.stacks >= 0 && chip.chips < 0 && !chip.side)
        chip.chips = 0;
    if (chip.side || chip.chips >= 0) {
        /* chip scenes take no card options; --side takes no --chips and
         * no --focal (its camera is chosen by the seed) */
        int card_opts = deck || o.held_out == 1 || o.hard || o.max_cards ||
                        cache || o.table >= 4;
        if (chip.side && (card_opts || chip.stacks < 1 || chip.stacks > 16 ||
                          chip.chips >= 0 || chip.focal > 0)) {
            fprintf(err, "feltwatch sim: --side takes --stacks 1-16, "
                         "--seed, --size and --table green|blue|red|wood "
                         "only\n");
            return 2;
        }
        if (!chip.side && card_opts) {
            fprintf(err, "feltwatch sim: --chips scenes take --stacks, "
                         "--focal, --seed, --size and --table "
                         "green|blue|red|wood only\n");
            return 2;
        }
        int w = o.width ? o.width : 1280, h = o.height ? o.height : 720;
        if (w < 64 || h < 64) {
            fprintf(err, "feltwatch sim: a %s scene needs 64x64 or more\n",
                    chip.side ? "side" : "chip");
            return 2;
        }
        const char *felt = o.table >= 0 ? table_names[o.table] : "green";
        return chip.side
                   ? side_scene(&chip, (uint32_t)seed, w, h, felt, path, out,
                                err)
                   : chip_scene(&chip, (uint32_t)seed, w, h, felt, path, out,
                                err);
    }
    if (deck) {
        o.deck = fw_sim_deck_find(deck);
        if (o.deck < 0) {
            fprintf(err, "feltwatch sim: no deck %s (see --decks)\n", deck);
            return 2;
        }
        o.any_deck = 0;
    }
    fw_sim_scene scene;
    if (fw_sim_random_scene((uint32_t)seed, &o, &scene) != FW_OK) {
        fprintf(err, "feltwatch sim: %s\n", fw_last_error());
        return 1;
    }
    fw_sim *sim = NULL;
    if (fw_sim_new(cache, &sim) != FW_OK) {
        fprintf(err, "feltwatch sim: %s\n", fw_last_error());
        return 1;
    }
    fw_image img = {0};
    fw_sim_truth truth;
    int rc = fw_sim_render(sim, &scene, &img, &truth);
    fw_sim_free(sim);
    if (rc != FW_OK) {
        fprintf(err, "feltwatch sim: %s\n", fw_last_error());
        return 1;
    }
    rc = fw_vision_save_image(&img, path, 92);
    fw_vision_image_free(&img);
    if (rc != FW_OK) {
        fprintf(err, "feltwatch sim: %s\n", fw_last_error());
        return 1;
    }
    if (print_truth(out, &scene, &truth) != 0) {
        fprintf(err, "feltwatch sim: cannot write the truth\n");
        return 1;
    }
    return 0;
}
