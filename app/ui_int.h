/*
 * ui_int.h - private to app/ui*.c: the dealer screen's model (what the
 * records said), its drawing state (renderer, fonts, text cache) and the
 * hit targets of the last frame. Nothing here is API.
 *
 * Ownership: struct fw_ui owns everything it points to (SDL objects, fonts,
 * the pixel buffer) and frees it in fw_ui_free(). Fixed-size arrays hold
 * everything that changes per frame, so drawing allocates nothing except
 * text textures on a cache miss.
 */
#ifndef FW_UI_INT_H
#define FW_UI_INT_H

#include <SDL.h>
#include <SDL_ttf.h>

#include "ui.h"

/* ------------------------------------------------------------------ */
/* Fonts and the text cache                                            */
/* ------------------------------------------------------------------ */

/* Font sizes, as a fraction of the screen's height (see ui_text.c). */
enum ui_font_size { UI_XS = 0, UI_S, UI_M, UI_L, UI_XL, UI_XXL, UI_NSIZES };

/* A font: size index times 2, plus 1 for bold. */
#define UI_FONT(size, bold) ((size) * 2 + ((bold) ? 1 : 0))
#define UI_NFONTS (UI_NSIZES * 2)

#define UI_TEXT_CACHE 384
#define UI_TEXT_KEY 120

/*
 * One rendered string: white glyphs on transparent, tinted at draw time
 * with SDL_SetTextureColorMod, so one texture serves every colour.
 * Strings longer than UI_TEXT_KEY - 1 bytes are matched by their 64-bit
 * hash and length alone.
 */
typedef struct ui_text {
    uint64_t hash;
    SDL_Texture *tex;
    int font, tinted, len, w, h;
    uint32_t used; /* frame stamp, for eviction */
    char key[UI_TEXT_KEY];
} ui_text;

/* Widths of strings measured (shaping allocates; a width is reused). */
#define UI_MEASURE_CACHE 1024

typedef struct ui_measure {
    uint64_t hash;
    int font, len, w;
    uint32_t used; /* frame stamp */
} ui_measure;

/* ------------------------------------------------------------------ */
/* The model: what the records and events said                         */
/* ------------------------------------------------------------------ */

#define UI_HISTORY 10
#define UI_SUM_AWARDS 4
#define UI_SUM_ALERTS 3
#define UI_REMEDY_MAX 640
#define UI_QUEUE 16

typedef struct ui_alert {
    int active;
    fw_severity severity;
    int seat;
    char kind[40], why[48], rule[24];
    char text[FW_TEXT_MAX];
    char remedy[UI_REMEDY_MAX];
} ui_alert;

/* One finished hand, for the recall view. */
typedef struct ui_hand_sum {
    int hand, button;
    int nboard;
    fw_card board[5];
    int64_t pot;
    int nawards;
    char award[UI_SUM_AWARDS][FW_TEXT_MAX];
    int nwinners;
    int winners[FW_MAX_SEATS];
    int nstops, nwarns, nalerts;
    char alert[UI_SUM_ALERTS][FW_TEXT_MAX];
    int nseats;
    int seats[FW_MAX_SEATS];
    int64_t stacks[FW_MAX_SEATS];
    int64_t delta[FW_MAX_SEATS];
} ui_hand_sum;

typedef struct ui_model {
    /* table */
    int have_table, nseats;
    fw_game game;
    fw_profile_id profile;
    char names[FW_MAX_SEATS + 1][FW_MAX_NAME];
    /* level: the one in play, and one announced for the next hand */
    int have_level, have_next_level;
    int64_t sb, bb, ante, small_bet, big_bet;
    fw_ante_type ante_type;
    int64_t n_sb, n_bb, n_ante, n_small_bet, n_big_bet;
    fw_ante_type n_ante_type;
    /* the table after the last event */
    int have_state;
    fw_state st;
    int sb_seat, bb_seat, blinds_hand;
    int64_t start_stacks[FW_MAX_SEATS + 1];
    /* the last ruling */
    int have_ruling, ruling_seat, ruling_unusual;
    char ruling[FW_TEXT_MAX];
    /* the banner (stop or warn) and the log line (info) */
    ui_alert banner;
    int banner_rulings; /* rulings since the banner went up */
    int have_info;
    char info[FW_TEXT_MAX + 48];
    /* the clock (Rule 29): seconds from the event times */
    int clock_on, clock_seat;
    double clock_start, clock_total;
    /* the hand being played, and the last UI_HISTORY finished ones */
    ui_hand_sum cur;
    int cur_open;
    ui_hand_sum hist[UI_HISTORY];
    int nhist, hist_head; /* hist_head: index of the newest */
} ui_model;

/* ------------------------------------------------------------------ */
/* Input: hit targets, modal views, the queue of dealer inputs          */
/* ------------------------------------------------------------------ */

typedef enum ui_target_id {
    T_NONE = 0,
    T_SAY,      /* arg: fw_word */
    T_KEYPAD,   /* arg: fw_word the amount is for (bet/raise) */
    T_UNDO,
    T_HISTORY,
    T_BANNER_OK,
    T_FLOOR,    /* arg: fw_decision */
    T_SEAT,     /* arg: seat */
    T_BOARD,    /* arg: board index */
    T_KEY,      /* arg: 0-9 digit, 10 "00", 11 back, 12 enter, 13 cancel,
                   14 min, 15 max */
    T_CONFIRM,  /* arg: 0 lo, 1 hi */
    T_PICK,     /* arg: fw_card */
    T_HIST_ROW, /* arg: 0 newest .. */
    T_CLOSE
} ui_target_id;

enum { KEY_00 = 10, KEY_BACK, KEY_ENTER, KEY_CANCEL, KEY_MIN, KEY_MAX };

typedef struct ui_target {
    ui_target_id id;
    int arg;
    SDL_Rect r;
} ui_target;

#define UI_MAX_TARGETS 160
#define UI_MAX_SPANS 2400 /* a rounded rectangle up to 2398 pixels high */

typedef enum ui_view {
    V_TABLE = 0, /* the main screen */
    V_KEYPAD,    /* an amount: a bet or raise, or a chip count */
    V_CARD,      /* the card picker */
    V_HISTORY    /* the last hands */
} ui_view;

typedef struct ui_pending {
    int kind;
    fw_event ev;
} ui_pending;

/* ------------------------------------------------------------------ */
/* The screen                                                            */
/* ------------------------------------------------------------------ */

struct fw_ui {
    fw_ui_mode mode;
    char title[64];
    char out_dir[512];
    char font_regular[512], font_bold[512];
    SDL_Window *win;
    SDL_Renderer *ren;
    SDL_Surface *surface; /* headless target */
    int w, h;             /* the renderer's output size */
    int inited_video, inited_events;
    /* fonts for the current size; the background for it */
    TTF_Font *font[UI_NFONTS];
    int font_px[UI_NFONTS];
    int font_h; /* the height the fonts were opened for */
    SDL_Texture *bg;   /* background with the felt, streaming, w x h */
    uint32_t *bg_px;   /* its pixels, w * h */
    int bg_key[6];     /* the size and felt it was drawn for */
    /* shapes as spans (no allocation per frame) */
    SDL_FRect spans[UI_MAX_SPANS];
    /* text */
    ui_text text[UI_TEXT_CACHE];
    ui_measure measure[UI_MEASURE_CACHE];
    uint32_t frame;
    /* model and view */
    ui_model m;
    int dirty;
    ui_view view;
    int sel_seat;      /* the seat the action buttons speak for */
    int hist_sel;      /* selected row in the history view */
    /* keypad */
    fw_word kp_word;   /* FW_WORD_BET/RAISE; FW_WORD_NONE for a confirm */
    int kp_seat, kp_confirm;
    int64_t kp_value, kp_lo, kp_hi;
    int kp_digits;
    /* card picker */
    fw_card_to pick_to;
    int pick_seat;
    fw_card pick_seen;
    /* the last event tapped, for undo */
    int have_last_input;
    int last_input_kind;
    fw_event last_input;
    /* targets of the last frame, and the one being pressed */
    ui_target targets[UI_MAX_TARGETS];
    int ntargets;
    int press_valid;
    ui_target press;
    /* dealer inputs waiting for fw_ui_poll() */
    ui_pending queue[UI_QUEUE];
    int qhead, qlen;
    /* time: the last event time and the tick count when it came */
    int have_t;
    double now_t;
    uint32_t t_ticks;
    int shown_clock; /* the clock's second on screen, -1 if none */
    /* frames: readback buffer, PNG bookkeeping */
    unsigned char *pixels;
    size_t pixels_cap;
    uint64_t last_hash;
    int have_hash, npng;
    char last_png[600];
};

/* ui.c */
const fw_seat_view *fw__ui_seat_view(const fw_state *st, int seat);

/* ui_text.c */
int fw__ui_fonts_find(fw_ui *ui, const char *path);
int fw__ui_fonts_open(fw_ui *ui);
void fw__ui_fonts_close(fw_ui *ui);
ui_text *fw__ui_text(fw_ui *ui, int font, const char *s, int tinted);
int fw__ui_text_width(fw_ui *ui, int font, const char *s);
void fw__ui_text_flush(fw_ui *ui);

/* ui_draw.c */
int fw__ui_draw(fw_ui *ui);
double fw__ui_now(const fw_ui *ui);
int fw__ui_clock_left(const fw_ui *ui);
void fw__ui_money(int64_t v, char buf[32]);

/* ui_png.c */
int fw__ui_write_png(const char *path, const unsigned char *rgb, int w,
                     int h);
uint64_t fw__ui_hash(const unsigned char *p, size_t n);

#endif
