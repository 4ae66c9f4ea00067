/*
 * sim_cmd.c - `feltwatch sim`: one rendered table scene and its truth.
 */
#include "sim_cmd.h"

#include "fw_parse.h"
#include "sim.h"

#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: feltwatch sim [--seed N] [--deck NAME] [--held-out] "
               "[--hard]\n"
               "                     [--size WxH] [--cards N] "
               "[--table green|blue|red|wood|grey]\n"
               "                     [--cache DIR] OUT.png|OUT.jpg\n"
               "       feltwatch sim --decks\n");
}

static const char *const table_names[FW_SIM_TABLES] = {"green", "blue",
                                                        "red", "wood",
                                                        "grey"};

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

int fw_sim_main(int argc, char **argv, FILE *out, FILE *err)
{
    fw_sim_random_opts o;
    memset(&o, 0, sizeof o);
    o.any_deck = 1;
    o.held_out = -1;
    o.table = -1;
    long seed = 1;
    const char *cache = NULL, *path = NULL, *deck = NULL;
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
