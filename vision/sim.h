/*
 * sim.h - the table simulator: overhead table scenes rendered from Debian's
 * card art (kdegames-card-data-kf5, gnome-cards-data) with exact ground
 * truth, for tests, training, evaluation and the simulated camera.
 *
 * A scene is plain data (fw_sim_scene): the table, the camera, the light and
 * every card's place, so a script can move cards frame by frame and render
 * each frame again; fw_sim_random_scene() draws one from a seed. The art is
 * rasterised with librsvg once and cached as PNG files in a cache folder
 * (a build folder in tests; never committed).
 *
 * Ownership: fw_sim_new() gives the caller an fw_sim freed with
 * fw_sim_free() (NULL accepted). Images rendered are the caller's, freed
 * with fw_vision_image_free(). Deck names are static strings.
 *
 * Threading: one fw_sim per thread; the cache folder may be shared by
 * several processes at once.
 */
#ifndef FW_SIM_H
#define FW_SIM_H

#include <stdint.h>

#include "vision.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Table surfaces. */
typedef enum fw_sim_table {
    FW_SIM_GREEN = 0,
    FW_SIM_BLUE,
    FW_SIM_RED,
    FW_SIM_WOOD,
    FW_SIM_GREY, /* a light, textured ground (carpet, stone) */
    FW_SIM_PALE, /* a cloth nearly as pale as a card's paper: only when
                  * asked for (FW_SIM_DRAWN) */
    FW_SIM_TABLES
} fw_sim_table;

/** The tables a scene that asks for none is drawn from (the first
 * FW_SIM_DRAWN): the pale cloth came later, and drawing it too would
 * change every seeded scene and the training renders. */
#define FW_SIM_DRAWN FW_SIM_PALE

/** The most cards and covers in one scene. */
#define FW_SIM_MAX_CARDS 40
#define FW_SIM_MAX_COVERS 4

/** A card placed on the table, in table pixels (before perspective). */
typedef struct fw_sim_card {
    fw_card card; /* rank * 4 + suit (its face, also when face down) */
    int face_up;  /* 1 face up, 0 a back */
    float x, y;   /* centre */
    float angle;  /* degrees, clockwise; 0: upright */
    float lift;   /* 0..1: how strongly its shadow shows */
} fw_sim_card;

/** Something that is not a card lying over the cards (a hand, a chip). */
typedef struct fw_sim_cover {
    float x, y, rx, ry, angle; /* an ellipse in table pixels */
    uint8_t b, g, r;
} fw_sim_cover;

/** Everything the renderer needs; zero-initialised fields mean "none". */
typedef struct fw_sim_scene {
    int width, height;  /* output image in pixels */
    int deck;           /* deck index, 0 .. fw_sim_deck_count()-1 */
    int table;          /* fw_sim_table */
    uint32_t seed;      /* texture, glare and noise: same seed, same pixels */
    float card_height;  /* card height in table pixels */
    float tilt;         /* camera tilt away from overhead, degrees (0..35) */
    float tilt_dir;     /* direction of the tilt in the image, degrees */
    float light;        /* 0..1: uneven light (gradient and vignette) */
    float glare;        /* 0..1: specular glare spots */
    float blur;         /* Gaussian sigma in pixels */
    float noise;        /* sensor noise sigma in grey levels */
    int jpeg_quality;   /* 0: none, else a JPEG round trip at this quality */
    int ncards;         /* bottom first */
    fw_sim_card cards[FW_SIM_MAX_CARDS];
    int ncovers;
    fw_sim_cover covers[FW_SIM_MAX_COVERS];
} fw_sim_scene;

/** What the renderer knows about each card it drew (same order). */
typedef struct fw_sim_truth_card {
    fw_card card;
    int face_up;
    float corners[4][2]; /* output pixels, clockwise from the card's
                            top-left as drawn upright */
    float visible;       /* share of the card's area seen (not covered,
                            inside the image) */
    int index_visible;   /* 1 when one corner index is seen whole */
} fw_sim_truth_card;

typedef struct fw_sim_truth {
    int ncards;
    fw_sim_truth_card cards[FW_SIM_MAX_CARDS];
} fw_sim_truth;

/** Options for random scenes; all zero means the defaults. */
typedef struct fw_sim_random_opts {
    int width, height;        /* default 1280 x 720 */
    int deck;                 /* -1 or 0 with any_deck: see below */
    int any_deck;             /* 1: pick a deck (see held_out); 0: `deck` */
    int held_out;             /* with any_deck: 1 held-out decks only,
                                 0 training decks only, -1 any */
    int min_cards, max_cards; /* default 1 .. 15 */
    int table;                /* -1: any; else an fw_sim_table */
    int hard;                 /* 1: overlaps, fans, covers, tilt, glare,
                                 blur, noise, JPEG */
    float card_height_min,    /* card height in table pixels, drawn */
        card_height_max;      /* uniformly from [min, max]; 0 0: the
                                 default, 17-30% of the short side, less
                                 when many cards must fit */
} fw_sim_random_opts;

typedef struct fw_sim fw_sim;

/**
 * A simulator whose rasterised art is cached under CACHE_DIR (created when
 * missing; NULL: $FW_CARD_CACHE, else $XDG_CACHE_HOME/feltwatch/cards,
 * else ~/.cache/feltwatch/cards).
 * \returns FW_OK, FW_EINVAL, FW_ENOMEM.
 */
int fw_sim_new(const char *cache_dir, fw_sim **out);
void fw_sim_free(fw_sim *sim);

/** Number of decks the simulator knows (installed or not). */
int fw_sim_deck_count(void);
/** Deck I's name ("ar-anglo"), or NULL. */
const char *fw_sim_deck_name(int i);
/** The index of the deck named NAME, or -1. */
int fw_sim_deck_find(const char *name);
/** 1 when deck I's art is installed on this machine. */
int fw_sim_deck_installed(int i);
/** 1 when deck I's family is held out of the classifier's training. */
int fw_sim_deck_held_out(int i);
/** 1 when deck I's court cards carry a J/Q/K-like letter index. */
int fw_sim_deck_court_index(int i);

/**
 * Fill SCENE with a random scene drawn from SEED (same seed, same scene).
 * \returns FW_OK, FW_EINVAL, FW_ENOENT when no fitting deck is installed.
 */
int fw_sim_random_scene(uint32_t seed, const fw_sim_random_opts *opts,
                        fw_sim_scene *scene);

/**
 * Render SCENE into OUT (the caller frees it with fw_vision_image_free).
 * TRUTH (may be NULL) receives the ground truth.
 * \returns FW_OK, FW_EINVAL, FW_ENOENT when the deck is not installed,
 *          FW_EIO when its art cannot be rasterised, FW_ENOMEM.
 */
int fw_sim_render(fw_sim *sim, const fw_sim_scene *scene, fw_image *out,
                  fw_sim_truth *truth);

/**
 * One card of deck DECK (0..51, or 52 for its back), upright, HEIGHT pixels
 * tall, with its corners on a background of colour BGR (for training).
 */
int fw_sim_card_image(fw_sim *sim, int deck, int card, int height,
                      const uint8_t bgr[3], fw_image *out);

#ifdef __cplusplus
}
#endif
#endif
