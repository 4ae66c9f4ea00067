/*
 * ui.c - the dealer screen: opening and closing SDL, the model the records
 * and events build (what the screen shows), the recall of the last hands,
 * and the dealer's taps turned into input events. Drawing is in ui_draw.c,
 * fonts and text in ui_text.c, PNG files in ui_png.c.
 */
#include "ui_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Small helpers                                                        */
/* ------------------------------------------------------------------ */

static void copy_str(char *dst, size_t size, const char *src)
{
    if (!src)
        src = "";
    snprintf(dst, size, "%s", src);
}

static void set_alert(ui_alert *a, const fw_alert *al)
{
    memset(a, 0, sizeof *a);
    a->active = 1;
    a->severity = al->severity;
    a->seat = al->seat;
    copy_str(a->kind, sizeof a->kind, al->kind);
    copy_str(a->why, sizeof a->why, al->why);
    copy_str(a->rule, sizeof a->rule, al->rule);
    copy_str(a->text, sizeof a->text, al->text);
    copy_str(a->remedy, sizeof a->remedy, al->remedy);
}

const fw_seat_view *fw__ui_seat_view(const fw_state *st, int seat)
{
    for (int i = 0; i < st->nseats; i++)
        if (st->seats[i].seat == seat)
            return &st->seats[i];
    return NULL;
}

/* ------------------------------------------------------------------ */
/* The model                                                            */
/* ------------------------------------------------------------------ */

static void apply_next_level(ui_model *m)
{
    if (!m->have_next_level)
        return;
    m->sb = m->n_sb;
    m->bb = m->n_bb;
    m->ante = m->n_ante;
    m->ante_type = m->n_ante_type;
    m->small_bet = m->n_small_bet;
    m->big_bet = m->n_big_bet;
    m->have_level = 1;
    m->have_next_level = 0;
}

/*
 * Which seats posted the blinds, read from the bets of the hand's first
 * state: the seats whose bets equal the level's blinds, or without a known
 * level (or a short all-in blind) the largest bet and another smaller one.
 */
static void find_blinds(ui_model *m, const fw_state *s)
{
    int sb = 0, bb = 0;
    int n = s->nseats;
    int start = 0;
    for (int i = 0; i < n; i++)
        if (s->seats[i].seat == s->button)
            start = i + 1;
    if (m->have_level) {
        for (int k = 0; k < n; k++) {
            const fw_seat_view *v = &s->seats[(start + k) % n];
            if (!bb && v->bet == m->bb && m->bb > 0)
                bb = v->seat;
        }
        for (int k = 0; k < n; k++) {
            const fw_seat_view *v = &s->seats[(start + k) % n];
            if (!sb && v->bet == m->sb && m->sb > 0 && v->seat != bb)
                sb = v->seat;
        }
    }
    if (!bb) {
        int64_t best = 0;
        for (int i = 0; i < n; i++)
            if (s->seats[i].bet > best) {
                best = s->seats[i].bet;
                bb = s->seats[i].seat;
            }
    }
    if (!sb && bb) {
        const fw_seat_view *b = fw__ui_seat_view(s, bb);
        for (int k = 0; k < n; k++) {
            const fw_seat_view *v = &s->seats[(start + k) % n];
            if (v->seat != bb && v->bet > 0 && b && v->bet <= b->bet) {
                sb = v->seat;
                break;
            }
        }
    }
    m->sb_seat = sb;
    m->bb_seat = bb;
}

static void close_hand(fw_ui *ui)
{
    ui_model *m = &ui->m;
    if (!m->cur_open)
        return;
    m->hist_head = (m->hist_head + 1) % UI_HISTORY;
    m->hist[m->hist_head] = m->cur;
    if (m->nhist < UI_HISTORY)
        m->nhist++;
    m->cur_open = 0;
}

static void begin_hand(fw_ui *ui, const fw_state *s)
{
    ui_model *m = &ui->m;
    if (m->cur_open)
        close_hand(ui); /* a hand without hand_end: keep what we saw */
    memset(&m->cur, 0, sizeof m->cur);
    m->cur.hand = s->hand;
    m->cur.button = s->button;
    m->cur_open = 1;
    /* start stacks: before the blinds, i.e. the last state of the table
     * before this hand, or this state's stacks plus bets */
    for (int i = 0; i < s->nseats; i++) {
        const fw_seat_view *v = &s->seats[i];
        const fw_seat_view *p =
            m->have_state ? fw__ui_seat_view(&m->st, v->seat) : NULL;
        if (v->seat < 1 || v->seat > FW_MAX_SEATS)
            continue;
        m->start_stacks[v->seat] = p ? p->stack + p->bet : v->stack + v->bet;
    }
    apply_next_level(m);
    m->banner.active = 0;
    m->clock_on = 0;
    m->have_ruling = 0;
    m->have_info = 0;
    m->sb_seat = m->bb_seat = 0;
    m->blinds_hand = 0;
}

static void on_state(fw_ui *ui, const fw_state *s)
{
    ui_model *m = &ui->m;
    const fw_state *prev = m->have_state ? &m->st : NULL;
    if (s->hand > 0 && (!prev || s->hand != prev->hand))
        begin_hand(ui, s);
    if (prev && s->street != prev->street) {
        /* a new street, or a re-deal: the banner's moment has passed */
        if (m->banner.active &&
            (m->banner.severity == FW_SEV_WARN || s->street == FW_ST_DEAL))
            m->banner.active = 0;
    }
    if (s->hand > 0 && m->blinds_hand != s->hand &&
        s->street >= FW_ST_DEAL && s->street <= FW_ST_PREFLOP) {
        find_blinds(m, s);
        m->blinds_hand = s->hand;
    }
    if (!prev || s->to_act != prev->to_act) {
        ui->sel_seat = s->to_act;
        /* an amount half typed for the seat that just acted is stale */
        if (ui->view == V_KEYPAD && !ui->kp_confirm)
            ui->view = V_TABLE;
    }
    if (m->clock_on && s->to_act != m->clock_seat)
        m->clock_on = 0;
    if (m->cur_open && s->hand == m->cur.hand) {
        m->cur.nboard = s->nboard;
        memcpy(m->cur.board, s->board, sizeof m->cur.board);
        if (s->pot > m->cur.pot)
            m->cur.pot = s->pot;
        m->cur.button = s->button;
    }
    m->st = *s;
    m->have_state = 1;
    if (!m->have_table)
        m->nseats = s->nseats;
}

/* "Seat 1 is on the clock: 25 seconds, then a 5-second countdown." */
static double clock_seconds(const char *text)
{
    double total = 0;
    const char *p = text;
    while (p && *p) {
        if (*p >= '0' && *p <= '9') {
            char *end;
            long v = strtol(p, &end, 10);
            if (strncmp(end, " second", 7) == 0 ||
                strncmp(end, "-second", 7) == 0)
                total += (double)v;
            p = end;
        } else {
            p++;
        }
    }
    return total > 0 ? total : 30.0;
}

static void on_alert(fw_ui *ui, const fw_alert *al)
{
    ui_model *m = &ui->m;
    if (m->cur_open) {
        m->cur.nalerts++;
        if (al->severity != FW_SEV_INFO) {
            if (al->severity == FW_SEV_STOP)
                m->cur.nstops++;
            else
                m->cur.nwarns++;
            int k = m->cur.nstops + m->cur.nwarns - 1;
            if (k < UI_SUM_ALERTS)
                snprintf(m->cur.alert[k], sizeof m->cur.alert[k],
                         "%s%.*s (Rule %.*s)",
                         al->severity == FW_SEV_STOP ? "STOP: " : "", 280,
                         al->text, 24, al->rule ? al->rule : "");
        }
    }
    const char *kind = al->kind ? al->kind : "";
    const char *why = al->why ? al->why : "";
    if (strcmp(kind, "clock") == 0) {
        if (strcmp(why, "started") == 0 || !m->clock_on) {
            m->clock_on = 1;
            m->clock_seat = al->seat;
            m->clock_start = fw__ui_now(ui);
            m->clock_total = strcmp(why, "countdown") == 0
                                 ? 5.0
                                 : clock_seconds(al->text);
        }
    }
    if (strcmp(kind, "floor") == 0 && m->banner.active)
        m->banner.active = 0; /* the floor has ruled */
    if (al->severity == FW_SEV_STOP ||
        (al->severity == FW_SEV_WARN &&
         !(m->banner.active && m->banner.severity == FW_SEV_STOP))) {
        set_alert(&m->banner, al);
        m->banner_rulings = 0;
        return;
    }
    m->have_info = 1;
    snprintf(m->info, sizeof m->info, "%s%.*s (Rule %.*s)",
             al->severity == FW_SEV_WARN ? "Warning: " : "", FW_TEXT_MAX,
             al->text, 24, al->rule ? al->rule : "");
}

static void on_ruling(fw_ui *ui, const fw_ruling *r)
{
    ui_model *m = &ui->m;
    m->have_ruling = 1;
    m->ruling_seat = r->seat;
    m->ruling_unusual = r->why && r->why[0];
    copy_str(m->ruling, sizeof m->ruling, r->text);
    if (m->clock_on && r->seat == m->clock_seat)
        m->clock_on = 0;
    if (r->action == FW_ACT_FLOOR)
        m->banner.active = 0;
    /* a warning has had its moment once the action moves on: a ruling for
     * another seat than the one it is about (or, about no seat, a second
     * ruling) puts it away */
    if (m->banner.active && m->banner.severity == FW_SEV_WARN) {
        m->banner_rulings++;
        if ((m->banner.seat && r->seat != m->banner.seat) ||
            (!m->banner.seat && m->banner_rulings >= 2)) {
            m->banner.active = 0;
            m->have_info = 1;
            snprintf(m->info, sizeof m->info, "Warning: %.*s (Rule %.*s)",
                     FW_TEXT_MAX, m->banner.text, 24, m->banner.rule);
        }
    }
}

static void on_award(fw_ui *ui, const fw_award *a)
{
    ui_model *m = &ui->m;
    /* the pot pushed is the news of the moment */
    m->have_info = 1;
    copy_str(m->info, sizeof m->info, a->text);
    if (!m->cur_open)
        return;
    if (m->cur.nawards < UI_SUM_AWARDS)
        copy_str(m->cur.award[m->cur.nawards], FW_TEXT_MAX, a->text);
    if (m->cur.nawards == 0)
        m->cur.pot = 0;
    m->cur.nawards++;
    m->cur.pot += a->amount;
    for (int i = 0; i < a->nwinners; i++) {
        int s = a->winners[i].seat, seen = 0;
        for (int k = 0; k < m->cur.nwinners; k++)
            seen |= m->cur.winners[k] == s;
        if (!seen && m->cur.nwinners < FW_MAX_SEATS)
            m->cur.winners[m->cur.nwinners++] = s;
    }
}

static void on_hand_end(fw_ui *ui, const fw_hand_end *e)
{
    ui_model *m = &ui->m;
    if (!m->cur_open || e->hand != m->cur.hand) {
        /* a hand_end we saw no state for: record what it says */
        if (m->cur_open)
            close_hand(ui);
        memset(&m->cur, 0, sizeof m->cur);
        m->cur.hand = e->hand;
        m->cur_open = 1;
    }
    int n = e->nseats < FW_MAX_SEATS ? e->nseats : FW_MAX_SEATS;
    m->cur.nseats = n;
    for (int i = 0; i < n; i++) {
        int s = e->seats[i];
        m->cur.seats[i] = s;
        m->cur.stacks[i] = e->stacks[i];
        m->cur.delta[i] = s >= 1 && s <= FW_MAX_SEATS
                              ? e->stacks[i] - m->start_stacks[s]
                              : 0;
    }
    close_hand(ui);
    m->clock_on = 0;
}

void fw_ui_on_record(fw_ui *ui, const fw_record *rec)
{
    if (!ui || !rec)
        return;
    switch (rec->type) {
    case FW_REC_STATE:
        on_state(ui, &rec->u.state);
        break;
    case FW_REC_ALERT:
        on_alert(ui, &rec->u.alert);
        break;
    case FW_REC_RULING:
        on_ruling(ui, &rec->u.ruling);
        break;
    case FW_REC_AWARD:
        on_award(ui, &rec->u.award);
        break;
    case FW_REC_HAND_END:
        on_hand_end(ui, &rec->u.hand_end);
        break;
    }
    ui->dirty = 1;
}

void fw_ui_on_event(fw_ui *ui, const fw_event *ev)
{
    if (!ui || !ev)
        return;
    ui_model *m = &ui->m;
    if (ev->has_t) {
        ui->have_t = 1;
        ui->now_t = ev->t;
        ui->t_ticks = SDL_GetTicks();
    }
    switch (ev->type) {
    case FW_EV_TABLE:
        /* a new table resets everything (PROTOCOL `table`) */
        memset(m, 0, sizeof *m);
        m->have_table = 1;
        m->nseats = ev->seats;
        m->game = ev->game;
        m->profile = ev->profile;
        ui->view = V_TABLE;
        ui->sel_seat = 0;
        ui->have_last_input = 0;
        break;
    case FW_EV_LEVEL: {
        /* Rule 23: a level applies from the next hand */
        int in_hand = m->have_state && m->st.hand > 0 &&
                      m->st.street != FW_ST_COMPLETE;
        m->n_sb = ev->sb;
        m->n_bb = ev->bb;
        m->n_ante = ev->ante;
        m->n_ante_type = ev->ante_type;
        m->n_small_bet = ev->small_bet;
        m->n_big_bet = ev->big_bet;
        m->have_next_level = 1;
        if (!m->have_level || !in_hand)
            apply_next_level(m);
        break;
    }
    case FW_EV_SEAT:
        if (ev->seat >= 1 && ev->seat <= FW_MAX_SEATS)
            copy_str(m->names[ev->seat], FW_MAX_NAME,
                     ev->has_player ? ev->player : "");
        break;
    case FW_EV_FLOOR:
        m->banner.active = 0;
        break;
    default:
        return;
    }
    ui->dirty = 1;
}

/* ------------------------------------------------------------------ */
/* Dealer input                                                         */
/* ------------------------------------------------------------------ */

static void zero_event(fw_event *ev)
{
    memset(ev, 0, sizeof *ev);
    ev->card = FW_CARD_NONE;
}

static void enqueue(fw_ui *ui, int kind, const fw_event *ev)
{
    if (ui->qlen == UI_QUEUE) {
        /* the program stopped polling: drop the oldest, keep the newest */
        ui->qhead = (ui->qhead + 1) % UI_QUEUE;
        ui->qlen--;
    }
    ui_pending *p = &ui->queue[(ui->qhead + ui->qlen) % UI_QUEUE];
    p->kind = kind;
    p->ev = *ev;
    ui->qlen++;
    if (kind == FW_UI_EVENT || kind == FW_UI_CONFIRM ||
        kind == FW_UI_CORRECT) {
        ui->have_last_input = 1;
        ui->last_input_kind = kind;
        ui->last_input = *ev;
    }
}

static int acting_seat(const fw_ui *ui)
{
    return ui->sel_seat ? ui->sel_seat : ui->m.st.to_act;
}

static void say(fw_ui *ui, int seat, fw_word word, int has_amount,
                int64_t amount)
{
    if (seat < 1)
        return;
    fw_event ev;
    zero_event(&ev);
    ev.type = FW_EV_SAY;
    ev.seat = seat;
    ev.word = word;
    ev.has_amount = has_amount;
    ev.amount = amount;
    enqueue(ui, FW_UI_EVENT, &ev);
}

static void confirm(fw_ui *ui, int has_amount, int64_t amount)
{
    fw_event ev;
    zero_event(&ev);
    ev.seat = ui->kp_seat;
    ev.has_amount = has_amount;
    ev.amount = has_amount ? amount : 0;
    enqueue(ui, FW_UI_CONFIRM, &ev);
    ui->kp_confirm = 0;
    ui->view = V_TABLE;
}

static void open_keypad(fw_ui *ui, fw_word word)
{
    const fw_state *s = &ui->m.st;
    ui->view = V_KEYPAD;
    ui->kp_word = word;
    ui->kp_seat = acting_seat(ui);
    ui->kp_confirm = 0;
    ui->kp_value = 0;
    ui->kp_digits = 0;
    ui->kp_lo = s->min_raise_to;
    ui->kp_hi = s->max_raise_to;
}

static void key(fw_ui *ui, int k)
{
    int64_t v = ui->kp_value;
    if (k >= 0 && k <= 9) {
        if (v <= INT64_C(99999999999999))
            v = v * 10 + k;
    } else if (k == KEY_00) {
        if (v > 0 && v <= INT64_C(9999999999999))
            v *= 100;
    } else if (k == KEY_BACK) {
        v /= 10;
    } else if (k == KEY_MIN) {
        if (ui->kp_lo != FW_NULL_AMOUNT)
            v = ui->kp_lo;
    } else if (k == KEY_MAX) {
        if (ui->kp_hi != FW_NULL_AMOUNT)
            v = ui->kp_hi;
    } else if (k == KEY_CANCEL) {
        if (ui->kp_confirm)
            confirm(ui, 0, 0);
        ui->view = V_TABLE;
        return;
    } else if (k == KEY_ENTER) {
        if (v <= 0)
            return;
        if (ui->kp_confirm) {
            confirm(ui, 1, v);
            return;
        }
        say(ui, ui->kp_seat, ui->kp_word, 1, v);
        ui->view = V_TABLE;
        return;
    }
    ui->kp_value = v;
}

static void floor_decision(fw_ui *ui, fw_decision d)
{
    fw_event ev;
    zero_event(&ev);
    ev.type = FW_EV_FLOOR;
    ev.decision = d;
    ev.seat = ui->m.banner.seat;
    enqueue(ui, FW_UI_EVENT, &ev);
    ui->m.banner.active = 0;
}

static void pick_card(fw_ui *ui, fw_card c)
{
    fw_event ev;
    zero_event(&ev);
    ev.to = ui->pick_to;
    ev.seat = ui->pick_seat;
    ev.card = c;
    if (ui->pick_seen != FW_CARD_NONE) {
        ev.cards[0] = ui->pick_seen;
        ev.ncards = 1;
    }
    enqueue(ui, FW_UI_CORRECT, &ev);
    ui->view = V_TABLE;
}

static void activate(fw_ui *ui, const ui_target *t)
{
    switch (t->id) {
    case T_SAY:
        say(ui, acting_seat(ui), (fw_word)t->arg, 0, 0);
        break;
    case T_KEYPAD:
        open_keypad(ui, (fw_word)t->arg);
        break;
    case T_KEY:
        key(ui, t->arg);
        break;
    case T_CONFIRM:
        confirm(ui, 1, t->arg ? ui->kp_hi : ui->kp_lo);
        break;
    case T_UNDO:
        if (ui->have_last_input) {
            fw_event ev;
            zero_event(&ev);
            ev.seat = ui->last_input.seat;
            enqueue(ui, FW_UI_UNDO, &ev);
            ui->have_last_input = 0;
        }
        break;
    case T_HISTORY:
        ui->view = V_HISTORY;
        ui->hist_sel = 0;
        break;
    case T_HIST_ROW:
        ui->hist_sel = t->arg;
        break;
    case T_CLOSE:
        ui->view = V_TABLE;
        break;
    case T_BANNER_OK:
        ui->m.banner.active = 0;
        break;
    case T_FLOOR:
        floor_decision(ui, (fw_decision)t->arg);
        break;
    case T_SEAT:
        ui->sel_seat = ui->sel_seat == t->arg ? ui->m.st.to_act : t->arg;
        break;
    case T_BOARD:
        if (t->arg >= 0 && t->arg < ui->m.st.nboard)
            fw_ui_ask_card(ui, FW_TO_BOARD, 0, ui->m.st.board[t->arg]);
        break;
    case T_PICK:
        pick_card(ui, (fw_card)t->arg);
        break;
    case T_NONE:
        break;
    }
}

/* The topmost target under (x, y): modal views register theirs last. */
static const ui_target *hit(const fw_ui *ui, int x, int y)
{
    SDL_Point p = {x, y};
    for (int i = ui->ntargets - 1; i >= 0; i--)
        if (SDL_PointInRect(&p, &ui->targets[i].r))
            return &ui->targets[i];
    return NULL;
}

static void press(fw_ui *ui, int x, int y)
{
    const ui_target *t = hit(ui, x, y);
    ui->press_valid = t != NULL;
    if (t)
        ui->press = *t;
    ui->dirty = 1;
}

static void release(fw_ui *ui, int x, int y)
{
    const ui_target *t = hit(ui, x, y);
    if (ui->press_valid && t && t->id == ui->press.id &&
        t->arg == ui->press.arg) {
        ui_target chosen = *t;
        activate(ui, &chosen);
    }
    ui->press_valid = 0;
    ui->dirty = 1;
}

/* Window coordinates to the renderer's pixels (they differ on HiDPI). */
static void to_pixels(const fw_ui *ui, int *x, int *y)
{
    if (!ui->win)
        return;
    int ww, wh;
    SDL_GetWindowSize(ui->win, &ww, &wh);
    if (ww > 0 && wh > 0 && (ww != ui->w || wh != ui->h)) {
        *x = (int)((int64_t)*x * ui->w / ww);
        *y = (int)((int64_t)*y * ui->h / wh);
    }
}

static void resized(fw_ui *ui)
{
    int w = 0, h = 0;
    if (SDL_GetRendererOutputSize(ui->ren, &w, &h) == 0 && w > 0 && h > 0 &&
        (w != ui->w || h != ui->h)) {
        ui->w = w;
        ui->h = h;
    }
    ui->dirty = 1;
}

static void handle(fw_ui *ui, const SDL_Event *e)
{
    fw_event none;
    zero_event(&none);
    switch (e->type) {
    case SDL_QUIT:
        enqueue(ui, FW_UI_QUIT, &none);
        break;
    case SDL_WINDOWEVENT:
        if (e->window.event == SDL_WINDOWEVENT_SIZE_CHANGED ||
            e->window.event == SDL_WINDOWEVENT_RESIZED)
            resized(ui);
        else
            ui->dirty = 1;
        break;
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP: {
        if (e->button.which == SDL_TOUCH_MOUSEID ||
            e->button.button != SDL_BUTTON_LEFT)
            break;
        int x = e->button.x, y = e->button.y;
        to_pixels(ui, &x, &y);
        if (e->type == SDL_MOUSEBUTTONDOWN)
            press(ui, x, y);
        else
            release(ui, x, y);
        break;
    }
    case SDL_FINGERDOWN:
    case SDL_FINGERUP: {
        int x = (int)lroundf(e->tfinger.x * (float)ui->w);
        int y = (int)lroundf(e->tfinger.y * (float)ui->h);
        if (e->type == SDL_FINGERDOWN)
            press(ui, x, y);
        else
            release(ui, x, y);
        break;
    }
    case SDL_KEYDOWN: {
        SDL_Keycode k = e->key.keysym.sym;
        if (k == SDLK_q && (e->key.keysym.mod & KMOD_CTRL)) {
            enqueue(ui, FW_UI_QUIT, &none);
        } else if (k == SDLK_ESCAPE) {
            if (ui->view != V_TABLE) {
                if (ui->view == V_KEYPAD && ui->kp_confirm)
                    confirm(ui, 0, 0);
                ui->view = V_TABLE;
                ui->dirty = 1;
            } else if (ui->mode == FW_UI_WINDOW) {
                enqueue(ui, FW_UI_QUIT, &none);
            }
        }
        break;
    }
    default:
        break;
    }
}

int fw_ui_poll(fw_ui *ui, fw_event *out)
{
    if (!out)
        return FW_UI_NONE;
    zero_event(out);
    if (!ui)
        return FW_UI_NONE;
    SDL_Event e;
    while (SDL_PollEvent(&e))
        handle(ui, &e);
    if (ui->qlen == 0)
        return FW_UI_NONE;
    ui_pending *p = &ui->queue[ui->qhead];
    ui->qhead = (ui->qhead + 1) % UI_QUEUE;
    ui->qlen--;
    *out = p->ev;
    return p->kind;
}

void fw_ui_ask_confirm(fw_ui *ui, int seat, int64_t lo, int64_t hi)
{
    if (!ui)
        return;
    if (lo > hi) {
        int64_t t = lo;
        lo = hi;
        hi = t;
    }
    ui->view = V_KEYPAD;
    ui->kp_confirm = 1;
    ui->kp_word = FW_WORD_NONE;
    ui->kp_seat = seat;
    ui->kp_lo = lo;
    ui->kp_hi = hi;
    ui->kp_value = 0;
    ui->kp_digits = 0;
    ui->dirty = 1;
}

void fw_ui_ask_card(fw_ui *ui, fw_card_to to, int seat, fw_card seen)
{
    if (!ui)
        return;
    ui->view = V_CARD;
    ui->pick_to = to;
    ui->pick_seat = seat;
    ui->pick_seen = seen < 52 ? seen : FW_CARD_NONE;
    ui->dirty = 1;
}

/* ------------------------------------------------------------------ */
/* Targets by name                                                      */
/* ------------------------------------------------------------------ */

static const char *const key_names[] = {"0",    "1",     "2",     "3",
                                        "4",    "5",     "6",     "7",
                                        "8",    "9",     "00",    "back",
                                        "enter", "cancel", "min", "max"};

static int target_name(const ui_target *t, char *buf, size_t size)
{
    char card[3];
    switch (t->id) {
    case T_SAY:
    case T_KEYPAD:
        return snprintf(buf, size, "%s", fw_word_name((fw_word)t->arg));
    case T_UNDO:
        return snprintf(buf, size, "undo");
    case T_HISTORY:
        return snprintf(buf, size, "history");
    case T_BANNER_OK:
        return snprintf(buf, size, "ok");
    case T_FLOOR:
        return snprintf(buf, size, "floor:%s",
                        fw_decision_name((fw_decision)t->arg));
    case T_SEAT:
        return snprintf(buf, size, "seat:%d", t->arg);
    case T_BOARD:
        return snprintf(buf, size, "board:%d", t->arg);
    case T_KEY:
        return snprintf(buf, size, "key:%s",
                        t->arg >= 0 && t->arg <= KEY_MAX ? key_names[t->arg]
                                                         : "?");
    case T_CONFIRM:
        return snprintf(buf, size, "confirm:%s", t->arg ? "hi" : "lo");
    case T_PICK:
        fw_card_str((fw_card)t->arg, card);
        return snprintf(buf, size, "card:%s", card);
    case T_HIST_ROW:
        return snprintf(buf, size, "hand:%d", t->arg);
    case T_CLOSE:
        return snprintf(buf, size, "close");
    case T_NONE:
        break;
    }
    return snprintf(buf, size, "none");
}

int fw_ui_target(const fw_ui *ui, const char *name, fw_ui_rect *out)
{
    if (!ui || !name || !out)
        return FW_EINVAL;
    char buf[48];
    for (int i = ui->ntargets - 1; i >= 0; i--) {
        target_name(&ui->targets[i], buf, sizeof buf);
        if (strcmp(buf, name) == 0) {
            const SDL_Rect *r = &ui->targets[i].r;
            out->x = r->x;
            out->y = r->y;
            out->w = r->w;
            out->h = r->h;
            return FW_OK;
        }
    }
    return FW_ENOENT;
}

int fw_ui_input_json(int kind, const fw_event *ev, char *buf, size_t size)
{
    if (!ev || !buf || size == 0)
        return FW_EINVAL;
    int n = -1;
    char c1[3], c2[3];
    switch (kind) {
    case FW_UI_EVENT:
        if (ev->type == FW_EV_SAY) {
            const char *w = fw_word_name(ev->word);
            char amount[40] = "";
            if (ev->has_amount)
                snprintf(amount, sizeof amount, ",\"amount\":%lld",
                         (long long)ev->amount);
            if (w)
                n = snprintf(buf, size,
                             "{\"type\":\"say\",\"seat\":%d,\"word\":\"%s\"%s}"
                             "\n",
                             ev->seat, w, amount);
            else
                n = snprintf(buf, size, "{\"type\":\"say\",\"seat\":%d%s}\n",
                             ev->seat, amount);
        } else if (ev->type == FW_EV_FLOOR) {
            const char *d = fw_decision_name(ev->decision);
            if (!d)
                return FW_EINVAL;
            if (ev->seat)
                n = snprintf(buf, size,
                             "{\"type\":\"floor\",\"decision\":\"%s\","
                             "\"seat\":%d}\n",
                             d, ev->seat);
            else
                n = snprintf(buf, size,
                             "{\"type\":\"floor\",\"decision\":\"%s\"}\n", d);
        } else {
            return FW_EINVAL;
        }
        break;
    case FW_UI_UNDO:
        n = snprintf(buf, size, "{\"type\":\"undo\"}\n");
        break;
    case FW_UI_CONFIRM:
        if (ev->has_amount)
            n = snprintf(buf, size,
                         "{\"type\":\"confirm\",\"seat\":%d,\"amount\":%lld}"
                         "\n",
                         ev->seat, (long long)ev->amount);
        else
            n = snprintf(buf, size,
                         "{\"type\":\"confirm\",\"seat\":%d,\"amount\":null}"
                         "\n",
                         ev->seat);
        break;
    case FW_UI_CORRECT: {
        fw_card_str(ev->card, c1);
        const char *to = fw_card_to_name(ev->to);
        if (!to)
            return FW_EINVAL;
        char seat[24] = "", was[24] = "";
        if (ev->to == FW_TO_SEAT)
            snprintf(seat, sizeof seat, ",\"seat\":%d", ev->seat);
        if (ev->ncards > 0) {
            fw_card_str(ev->cards[0], c2);
            snprintf(was, sizeof was, ",\"was\":\"%s\"", c2);
        }
        n = snprintf(buf, size,
                     "{\"type\":\"correct\",\"to\":\"%s\"%s%s,\"card\":\"%s\"}"
                     "\n",
                     to, seat, was, c1);
        break;
    }
    default:
        return FW_EINVAL;
    }
    if (n < 0 || (size_t)n >= size)
        return FW_ERANGE;
    return FW_OK;
}

/* ------------------------------------------------------------------ */
/* Life cycle and frames                                                */
/* ------------------------------------------------------------------ */

void fw_ui_size(const fw_ui *ui, int *w, int *h)
{
    if (w)
        *w = ui ? ui->w : 0;
    if (h)
        *h = ui ? ui->h : 0;
}

int fw_ui_png_count(const fw_ui *ui)
{
    return ui ? ui->npng : 0;
}

const char *fw_ui_last_png(const fw_ui *ui)
{
    return ui ? ui->last_png : "";
}

static int sdl_fail(const char *what)
{
    return fw_set_error(FW_EIO, "%s: %s", what, SDL_GetError());
}

static int open_screen(fw_ui *ui, int w, int h)
{
    if (ui->mode == FW_UI_HEADLESS) {
        if (SDL_InitSubSystem(SDL_INIT_EVENTS) != 0)
            return sdl_fail("SDL_Init(events)");
        ui->inited_events = 1;
        ui->surface =
            SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_RGB888);
        if (!ui->surface)
            return sdl_fail("SDL_CreateRGBSurfaceWithFormat");
        ui->ren = SDL_CreateSoftwareRenderer(ui->surface);
        if (!ui->ren)
            return sdl_fail("SDL_CreateSoftwareRenderer");
    } else {
        /* a finger is a finger: no synthetic mouse clicks doubling taps */
        SDL_SetHint(SDL_HINT_TOUCH_MOUSE_EVENTS, "0");
        SDL_SetHint(SDL_HINT_MOUSE_TOUCH_EVENTS, "0");
        if (SDL_InitSubSystem(SDL_INIT_VIDEO | SDL_INIT_EVENTS) != 0)
            return sdl_fail("SDL_Init(video)");
        ui->inited_video = 1;
        Uint32 flags = SDL_WINDOW_SHOWN | SDL_WINDOW_ALLOW_HIGHDPI;
        if (ui->mode == FW_UI_KIOSK)
            flags |= SDL_WINDOW_FULLSCREEN_DESKTOP | SDL_WINDOW_BORDERLESS;
        else
            flags |= SDL_WINDOW_RESIZABLE;
        ui->win = SDL_CreateWindow(ui->title, SDL_WINDOWPOS_CENTERED,
                                   SDL_WINDOWPOS_CENTERED, w, h, flags);
        if (!ui->win)
            return sdl_fail("SDL_CreateWindow");
        ui->ren = SDL_CreateRenderer(
            ui->win, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
        if (!ui->ren)
            ui->ren = SDL_CreateRenderer(ui->win, -1, SDL_RENDERER_SOFTWARE);
        if (!ui->ren)
            return sdl_fail("SDL_CreateRenderer");
        if (ui->mode == FW_UI_KIOSK)
            SDL_ShowCursor(SDL_DISABLE);
        SDL_SetWindowMinimumSize(ui->win, 480, 320);
    }
    if (SDL_GetRendererOutputSize(ui->ren, &ui->w, &ui->h) != 0)
        return sdl_fail("SDL_GetRendererOutputSize");
    return FW_OK;
}

int fw_ui_new(const fw_ui_options *opt, fw_ui **out)
{
    if (!out)
        return FW_EINVAL;
    *out = NULL;
    fw_ui_options def;
    memset(&def, 0, sizeof def);
    if (!opt)
        opt = &def;
    if (opt->mode < FW_UI_WINDOW || opt->mode > FW_UI_HEADLESS)
        return fw_set_error(FW_EINVAL, "ui: unknown mode %d", (int)opt->mode);
    int w = opt->width > 0 ? opt->width : 1024;
    int h = opt->height > 0 ? opt->height : 600;
    if (w < 320 || h < 240 || w > 8192 || h > 8192)
        return fw_set_error(FW_EINVAL, "ui: screen size %dx%d out of range",
                            w, h);
    if (opt->out_dir && strlen(opt->out_dir) >= 480)
        return fw_set_error(FW_EINVAL, "ui: output folder name too long");
    fw_ui *ui = calloc(1, sizeof *ui);
    if (!ui)
        return FW_ENOMEM;
    ui->mode = opt->mode;
    copy_str(ui->title, sizeof ui->title, opt->title ? opt->title : "feltwatch");
    copy_str(ui->out_dir, sizeof ui->out_dir, opt->out_dir);
    ui->shown_clock = -1;
    ui->dirty = 1;
    int rc = fw__ui_fonts_find(ui, opt->font_path);
    if (rc == FW_OK && TTF_Init() != 0)
        rc = fw_set_error(FW_EIO, "TTF_Init: %s", TTF_GetError());
    if (rc != FW_OK) {
        free(ui);
        return rc;
    }
    rc = open_screen(ui, w, h);
    if (rc == FW_OK)
        rc = fw__ui_fonts_open(ui);
    if (rc != FW_OK) {
        fw_ui_free(ui);
        return rc;
    }
    *out = ui;
    return FW_OK;
}

void fw_ui_free(fw_ui *ui)
{
    if (!ui)
        return;
    fw__ui_fonts_close(ui);
    if (ui->bg)
        SDL_DestroyTexture(ui->bg);
    if (ui->ren)
        SDL_DestroyRenderer(ui->ren);
    if (ui->win)
        SDL_DestroyWindow(ui->win);
    if (ui->surface)
        SDL_FreeSurface(ui->surface);
    if (ui->inited_video)
        SDL_QuitSubSystem(SDL_INIT_VIDEO | SDL_INIT_EVENTS);
    if (ui->inited_events)
        SDL_QuitSubSystem(SDL_INIT_EVENTS);
    TTF_Quit();
    free(ui->pixels);
    free(ui->bg_px);
    free(ui);
}

/* Read the frame back as packed RGB into ui->pixels. */
static int read_frame(fw_ui *ui)
{
    size_t need = (size_t)ui->w * (size_t)ui->h * 3;
    if (need > ui->pixels_cap) {
        unsigned char *p = realloc(ui->pixels, need);
        if (!p)
            return FW_ENOMEM;
        ui->pixels = p;
        ui->pixels_cap = need;
    }
    if (SDL_RenderReadPixels(ui->ren, NULL, SDL_PIXELFORMAT_RGB24, ui->pixels,
                             ui->w * 3) != 0)
        return sdl_fail("SDL_RenderReadPixels");
    return FW_OK;
}

static int draw(fw_ui *ui)
{
    int rc = fw__ui_fonts_open(ui);
    if (rc != FW_OK)
        return rc;
    ui->frame++;
    return fw__ui_draw(ui);
}

int fw_ui_render(fw_ui *ui)
{
    if (!ui)
        return FW_EINVAL;
    int left = fw__ui_clock_left(ui);
    if (left != ui->shown_clock)
        ui->dirty = 1;
    if (!ui->dirty)
        return FW_OK;
    int rc = draw(ui);
    if (rc != FW_OK)
        return rc;
    ui->dirty = 0;
    ui->shown_clock = left;
    if (ui->mode != FW_UI_HEADLESS) {
        SDL_RenderPresent(ui->ren);
        return FW_OK;
    }
    SDL_RenderFlush(ui->ren);
    if (!ui->out_dir[0])
        return FW_OK;
    rc = read_frame(ui);
    if (rc != FW_OK)
        return rc;
    uint64_t hsh = fw__ui_hash(ui->pixels, (size_t)ui->w * ui->h * 3);
    if (ui->have_hash && hsh == ui->last_hash)
        return FW_OK;
    char path[sizeof ui->last_png];
    snprintf(path, sizeof path, "%s/screen-%06d.png", ui->out_dir,
             ui->npng + 1);
    rc = fw__ui_write_png(path, ui->pixels, ui->w, ui->h);
    if (rc != FW_OK)
        return rc;
    ui->npng++;
    ui->last_hash = hsh;
    ui->have_hash = 1;
    copy_str(ui->last_png, sizeof ui->last_png, path);
    return FW_OK;
}

int fw_ui_save_png(fw_ui *ui, const char *path)
{
    if (!ui || !path)
        return FW_EINVAL;
    /* a window's back buffer is only defined between drawing and
     * presenting: draw the frame again and read it before presenting */
    int rc = draw(ui);
    if (rc != FW_OK)
        return rc;
    rc = read_frame(ui);
    if (ui->mode != FW_UI_HEADLESS)
        SDL_RenderPresent(ui->ren);
    if (rc != FW_OK)
        return rc;
    return fw__ui_write_png(path, ui->pixels, ui->w, ui->h);
}
