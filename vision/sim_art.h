/*
 * sim_art.h - private to vision/: the Debian card art, rasterised once.
 *
 * The decks come from two Debian packages: kdegames-card-data-kf5 (one SVG
 * per deck, one element id per card) and gnome-cards-data (one SVG sheet per
 * deck, 13 columns by 5 rows). fw__deck_render() rasterises a deck with
 * librsvg and caches one PNG per card (RGBA, transparent outside the rounded
 * corners) under CACHE/DECK/hHEIGHT/, so the art is rendered once per build
 * tree and never committed.
 *
 * Ownership: the deck table is static; paths written into caller buffers.
 * Threading: fw__deck_render() may run in several processes at once on the
 * same cache (each PNG is written to a temporary name and renamed).
 */
#ifndef FW_SIM_ART_H
#define FW_SIM_ART_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Card index in a deck: rank * 4 + suit (rules.h), FW_DECK_BACK the back. */
#define FW_DECK_BACK 52
#define FW_DECK_CARDS 53

typedef struct fw_deck_info {
    const char *name;   /* short name, unique ("kde-standard", "ar-anglo") */
    const char *path;   /* the SVG(Z) file */
    int sheet;          /* 1: aisleriot 13x5 sheet, 0: one id per card */
    const char *family; /* decks sharing face art share a family */
    int court_index;    /* 1 when J, Q, K carry a J/Q/K letter index */
} fw_deck_info;

/** Number of known decks (installed or not). */
int fw__deck_count(void);

/** Deck i (0 <= i < fw__deck_count()), or NULL. */
const fw_deck_info *fw__deck_get(int i);

/** The deck named NAME, or NULL. */
const fw_deck_info *fw__deck_find(const char *name);

/** 1 when the deck's family is held out of training (measured only). */
int fw__deck_held_out(const fw_deck_info *d);

/** 1 when the deck's SVG file is installed. */
int fw__deck_installed(const fw_deck_info *d);

/**
 * Make sure every card of deck D is cached as a PNG HEIGHT pixels tall under
 * CACHE_DIR, rendering the SVG when needed.
 * \returns FW_OK, FW_ENOENT when the art is not installed, FW_EIO.
 */
int fw__deck_render(const fw_deck_info *d, const char *cache_dir,
                    int height);

/** Write the cache path of card CARD (0..52) into out. */
int fw__deck_card_path(const fw_deck_info *d, const char *cache_dir,
                       int height, int card, char *out, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
