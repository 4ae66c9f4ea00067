/*
 * eval_boards.c - the board as a dealer spreads it: three to five face-up
 * cards side by side in a row, with a gap, touching, or overlapping a
 * little, rendered (sim.h, the held-out Debian decks) and read by
 * fw_vision_detect_cards(), as a camera over the table sees it.
 *
 * Cards touching side by side make one blob whose outline is the row's
 * (detect.cpp ROW_LONG), and two of them may make a quad the shape of a
 * larger card lying crosswise (cards.cpp split_row): this measures how many of
 * the board's cards are read right, how many boards are read wholly right, and
 * how many quads the detector reports beyond the cards there, for each spacing,
 * alone and with four backs below the board (the players' cards, which give the
 * frame its card size).
 *
 * usage: eval_boards [BOARDS]   (boards per spacing and setting, default 48)
 *
 * Each board: a held-out deck in turn, one of the four tables, 3 to 5
 * cards 150 to 190 table pixels tall, the row turned by up to 40 degrees
 * either way; the same boards for every spacing. Seeds start at 100.
 */
#include "fw_parse.h"
#include "sim.h"
#include "vision.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The spacings tried: the gap between neighbours as a share of a card's
 * width (negative: they overlap). */
static const float SPACINGS[] = {0.05f, 0.0f, -0.03f};

/* A card's width over its height in the deck's art, or 0 when the art
 * cannot be drawn. */
static float card_aspect(fw_sim *sim, int deck)
{
    fw_image img;
    const uint8_t bg[3] = {0, 0, 0};
    if (fw_sim_card_image(sim, deck, 0, 400, bg, &img) != FW_OK)
        return 0;
    const float a = (float)img.width / (float)img.height;
    fw_vision_image_free(&img);
    return a;
}

/* Board number b (seed 100 + b) of deck (its cards aspect wide for their
 * height), spaced by gap, with nbacks backs below it, into sc; its face-up
 * cards are the first n of sc. Returns n, or 0 when the deck's art cannot
 * be drawn. */
static int make_board(int deck, float aspect, int b, float gap, int nbacks,
                      fw_sim_scene *sc)
{
    const uint32_t seed = 100u + (uint32_t)b;
    *sc = (fw_sim_scene){0};
    sc->width = 1280;
    sc->height = 720;
    sc->deck = deck;
    sc->table = b % 4;
    sc->seed = seed;
    sc->card_height = 150.f + (float)(seed * 7u % 41u);
    sc->noise = 2;
    const float w = sc->card_height * aspect;
    if (w <= 0)
        return 0;
    const int n = 3 + b % 3;
    const float angle = (float)((int)(seed * 13u % 81u) - 40);
    const float rad = angle * 3.14159265f / 180.f, step = w * (1 + gap);
    for (int i = 0; i < n; i++) {
        fw_sim_card *c = &sc->cards[sc->ncards++];
        c->card = (fw_card)((seed * 11u + (uint32_t)i * 17u) % 52u);
        c->face_up = 1;
        const float along = step * ((float)i - 0.5f * (float)(n - 1));
        c->x = 640.f + along * cosf(rad);
        c->y = 300.f + along * sinf(rad);
        c->angle = angle;
        c->lift = 0.3f;
    }
    for (int i = 0; i < nbacks; i++) {
        fw_sim_card *c = &sc->cards[sc->ncards++];
        c->card = (fw_card)(i * 13);
        c->face_up = 0;
        c->x = 170.f + 310.f * (float)i;
        c->y = 620;
        c->angle = 17.f * (float)i - 20.f;
        c->lift = 0.3f;
    }
    return n;
}

int main(int argc, char **argv)
{
    long boards = 48;
    if (argc > 2 || (argc == 2 && fw_parse_long(argv[1], 1, 10000, &boards))) {
        fprintf(stderr, "usage: eval_boards [BOARDS]  (1..10000)\n");
        return 2;
    }
    fw_sim *sim = NULL;
    fw_vision *v = NULL;
    if (fw_sim_new(getenv("FW_CARD_CACHE"), &sim) != FW_OK ||
        fw_vision_new(&v) != FW_OK) {
        fprintf(stderr, "eval_boards: cannot make the simulator or the "
                        "detector\n");
        return 1;
    }
    int decks[64], ndecks = 0;
    float aspect[64];
    for (int i = 0; i < fw_sim_deck_count() && ndecks < 64; i++)
        if (fw_sim_deck_held_out(i) && fw_sim_deck_installed(i)) {
            aspect[ndecks] = card_aspect(sim, i);
            decks[ndecks++] = i;
        }
    if (!ndecks) {
        fprintf(stderr, "eval_boards: no held-out deck installed\n");
        fw_vision_free(v);
        fw_sim_free(sim);
        return 1;
    }
    printf("%ld boards of 3-5 cards per spacing, %d held-out decks\n", boards,
           ndecks);
    int rc = 0;
    for (size_t s = 0; s < sizeof SPACINGS / sizeof *SPACINGS; s++)
        for (int nbacks = 0; nbacks <= 4; nbacks += 4) {
            long cards = 0, read = 0, whole = 0, extra = 0, made = 0;
            for (long b = 0; b < boards; b++) {
                fw_sim_scene sc;
                const int n = make_board(decks[b % ndecks], aspect[b % ndecks],
                                         (int)b, SPACINGS[s], nbacks, &sc);
                if (!n)
                    continue;
                fw_image img;
                if (fw_sim_render(sim, &sc, &img, NULL) != FW_OK)
                    continue;
                fw_card_obs obs[64];
                int k = 0;
                if (fw_vision_detect_cards(v, img.bgr, img.width, img.height,
                                           img.stride, obs, 64, &k) != FW_OK)
                    rc = 1;
                fw_vision_image_free(&img);
                int ok = 0;
                for (int i = 0; i < n; i++)
                    for (int j = 0; j < k; j++)
                        if (obs[j].face_up && obs[j].card == sc.cards[i].card) {
                            ok++;
                            break;
                        }
                made++;
                cards += n;
                read += ok;
                whole += ok == n;
                extra += k > sc.ncards ? k - sc.ncards : 0;
            }
            printf("gap %+.2f of a card's width, %d backs: cards read right "
                   "%ld/%ld = %.1f%%, boards read whole %ld/%ld, quads beyond "
                   "the cards %ld\n",
                   (double)SPACINGS[s], nbacks, read, cards,
                   cards ? 100.0 * (double)read / (double)cards : 0.0, whole,
                   made, extra);
        }
    fw_vision_free(v);
    fw_sim_free(sim);
    return rc;
}
