/*
 * ui.h - the dealer screen: an SDL2 touch screen in front of the dealer that
 * shows the table the rules engine sees (seats, stacks, bets, button and
 * blinds, who is to act, the board, pots, what it costs to call, the minimum
 * and maximum raise, how the last bet was read), raises alerts as a
 * full-width banner (red: stop and call the floor; amber: warning), keeps
 * the last 10 hands for recall, and turns the dealer's taps into table
 * events. Private to the app module.
 *
 * Three ways to run it: a window (development, or a desktop), a full-screen
 * kiosk (SDL_WINDOW_FULLSCREEN_DESKTOP; on a Pi without X, SDL's KMSDRM
 * video driver), or headless: no window at all, the software renderer draws
 * into an offscreen surface and every screen change is written as a PNG.
 * The layout and the fonts scale with the screen's size (800x480, 1024x600
 * and 1920x1080 are the sizes it is made for). The font is DejaVu Sans from
 * Debian's fonts-dejavu-core, found at run time (fw_ui_options.font_path,
 * the FELTWATCH_FONT environment variable, then a list of usual places).
 *
 * Ownership: fw_ui is opaque, created by fw_ui_new() and freed by
 * fw_ui_free() (which accepts NULL). Records and events passed in are read
 * and copied where the screen needs them, never kept. Strings in the
 * options are copied. fw_ui_last_png() returns a borrowed string that
 * stays valid until the next call into the same fw_ui.
 *
 * Threading: SDL's video rules apply: create, feed, render and poll a
 * fw_ui on one thread (for a window, the program's main thread). Two fw_ui
 * may exist at once (SDL and SDL_ttf are initialised by reference count).
 */
#ifndef FW_UI_H
#define FW_UI_H

#include <stddef.h>
#include <stdint.h>

#include "rules.h"

typedef struct fw_ui fw_ui;

typedef enum fw_ui_mode {
    FW_UI_WINDOW = 0, /* a resizable window */
    FW_UI_KIOSK,      /* full screen on the whole display, no cursor */
    FW_UI_HEADLESS    /* no window: offscreen surface, PNG per change */
} fw_ui_mode;

/** How to open the screen. Zero-initialise, then set what you need. */
typedef struct fw_ui_options {
    fw_ui_mode mode;
    /* The window's or the surface's size in pixels; 0 means 1024x600.
     * A kiosk takes the display's size. */
    int width, height;
    /* Headless: the folder that receives screen-000001.png, ... (it must
     * exist); NULL writes nothing (the frames can still be read back with
     * fw_ui_save_png()). */
    const char *out_dir;
    /* A TrueType font file (regular weight); NULL searches for DejaVu Sans.
     * The bold face is looked up beside it ("-Bold" before ".ttf"). */
    const char *font_path;
    /* The window title; NULL means "feltwatch". */
    const char *title;
} fw_ui_options;

/**
 * The colours the screen signals with (0xRRGGBB), for the people who
 * calibrate a display and for the tests that look for them.
 */
#define FW_UI_RGB_STOP 0xC62828u   /* stop banner: halt, call the floor */
#define FW_UI_RGB_WARN 0xFFB300u   /* warning banner */
#define FW_UI_RGB_TO_ACT 0xFFD54Fu /* the seat to act */
#define FW_UI_RGB_FELT 0x0B6B43u   /* the table */

/**
 * Open the screen. Initialises SDL's subsystems it needs (video for a
 * window or kiosk, events in every mode) and SDL_ttf, and finds the font.
 * \param opt  options (NULL: a 1024x600 window).
 * \param out  receives the screen; NULL on error.
 * \returns FW_OK; FW_ENOENT when no font was found (fw_last_error() lists
 *          the places tried); FW_EIO when SDL cannot open the window or the
 *          renderer (SDL's message in fw_last_error()); FW_EINVAL; FW_ENOMEM.
 */
int fw_ui_new(const fw_ui_options *opt, fw_ui **out);

/** Close the screen and release SDL; accepts NULL. */
void fw_ui_free(fw_ui *ui);

/**
 * Feed one engine record (ruling, alert, state, award, hand_end), in the
 * order the engine emitted them. Nothing is drawn until fw_ui_render().
 */
void fw_ui_on_record(fw_ui *ui, const fw_record *rec);

/**
 * Feed one input event as it goes to the engine, before the engine applies
 * it (optional, but the screen learns from events what no record carries:
 * players' names from `seat`, blinds and antes from `level`, the game and
 * rulebook from `table`, and the time from `t` for the clock countdown).
 */
void fw_ui_on_event(fw_ui *ui, const fw_event *ev);

/**
 * Draw the screen if anything on it changed (records, taps, the clock's
 * second, a resize) and present it. Headless with an out_dir, a frame whose
 * pixels differ from the last one written is saved as the next PNG.
 * \returns FW_OK, or FW_EIO when a PNG could not be written or SDL failed
 *          (message in fw_last_error()).
 */
int fw_ui_render(fw_ui *ui);

/** What fw_ui_poll() returned. */
typedef enum fw_ui_input {
    FW_UI_NONE = 0, /* nothing pending */
    /* *out is a protocol input event (PROTOCOL.md): `say` (a verbal
     * declaration for a seat) or `floor` (the floor's decision). Apply it. */
    FW_UI_EVENT,
    /* Protocol addition `undo`: take back the last event that came from a
     * dealer's tap. out->seat is that event's seat (0 if none). */
    FW_UI_UNDO,
    /* Protocol addition `confirm`: the dealer's answer to
     * fw_ui_ask_confirm(). out->seat; out->has_amount and out->amount are
     * the confirmed chip count, has_amount 0 when the dealer cancelled. */
    FW_UI_CONFIRM,
    /* Protocol addition `correct`: a card the vision misread. out->to
     * (FW_TO_BOARD or FW_TO_SEAT), out->seat, out->card the right card,
     * out->cards[0] (out->ncards 1) the card as it was read, or ncards 0
     * when that is unknown. */
    FW_UI_CORRECT,
    /* The window was closed (or Ctrl+Q): the program should end. */
    FW_UI_QUIT
} fw_ui_input;

/**
 * Handle pending window and touch input and return the next dealer input.
 * Mouse clicks count as touches; SDL_FINGERDOWN/UP too (touch does not
 * also produce mouse events). A button acts when it is released over the
 * place it was pressed. Call it until it returns FW_UI_NONE.
 * \param out  receives the event for FW_UI_EVENT and the fields described
 *             above for the others; zeroed otherwise. May not be NULL.
 * \returns an fw_ui_input value.
 */
int fw_ui_poll(fw_ui *ui, fw_event *out);

/**
 * Ask the dealer to confirm a chip count the vision is unsure of: seat
 * `seat` pushed somewhere between lo and hi. The screen shows the question
 * with both readings and a keypad; the answer comes later from fw_ui_poll()
 * as FW_UI_CONFIRM. A new question replaces an unanswered one.
 */
void fw_ui_ask_confirm(fw_ui *ui, int seat, int64_t lo, int64_t hi);

/**
 * Ask the dealer for the right card where the vision read `seen`
 * (FW_CARD_NONE if unread): a card on the board (to FW_TO_BOARD) or a
 * tabled card of a seat (FW_TO_SEAT). The answer comes from fw_ui_poll()
 * as FW_UI_CORRECT. Tapping a board card asks the same question.
 */
void fw_ui_ask_card(fw_ui *ui, fw_card_to to, int seat, fw_card seen);

/**
 * Save the screen as last drawn as a PNG (a window's screenshot with
 * SDL_RenderReadPixels). \returns FW_OK or FW_EIO.
 */
int fw_ui_save_png(fw_ui *ui, const char *path);

/** Headless: how many PNGs fw_ui_render() has written. */
int fw_ui_png_count(const fw_ui *ui);

/** Headless: the path of the last PNG written, or "" if none. */
const char *fw_ui_last_png(const fw_ui *ui);

/** The screen's size in pixels (the renderer's output). */
void fw_ui_size(const fw_ui *ui, int *w, int *h);

/** A rectangle on the screen, in pixels. */
typedef struct fw_ui_rect {
    int x, y, w, h;
} fw_ui_rect;

/**
 * Where a named thing was on the last frame drawn, for tests and scripted
 * input: "seat:N" (seat N's box), "board:I" (board card I, 0-based), and
 * the buttons "check", "call", "bet", "raise", "all-in", "fold", "undo",
 * "history", "ok" (the banner's acknowledge), "floor:DECISION" (a protocol
 * decision name), "key:0".."key:9", "key:00", "key:back", "key:enter",
 * "key:cancel", "key:min", "key:max", "confirm:lo", "confirm:hi",
 * "card:Ah" (the card picker), "hand:I" (history row), "close".
 * \returns FW_OK with *out filled, or FW_ENOENT when it is not on screen.
 */
int fw_ui_target(const fw_ui *ui, const char *name, fw_ui_rect *out);

/**
 * Write a dealer input as one JSON line (with "\n"), in the protocol's
 * words: {"type":"say","seat":4,"word":"raise","amount":1100},
 * {"type":"floor","decision":"misdeal"}, {"type":"undo"},
 * {"type":"confirm","seat":5,"amount":1500},
 * {"type":"correct","to":"board","was":"Qd","card":"Qh"}.
 * \param kind  an fw_ui_input value other than FW_UI_NONE and FW_UI_QUIT.
 * \returns FW_OK, FW_ERANGE when buf is too small, FW_EINVAL.
 */
int fw_ui_input_json(int kind, const fw_event *ev, char *buf, size_t size);

#endif
