/*
 * gen_templates.cpp - renders the Debian KDE card decks with librsvg and
 * builds the corner-index templates of models/cards_index.fwt.
 *
 * usage: gen_templates OUT.fwt [PNG_DIR]
 *
 * Each French-suited deck in /usr/share/carddecks/svg-* is rendered card by
 * card (element ids "1_club" .. "king_spade"), composited on felt, resized
 * to the detector's canonical card and cut by the same extract_index() the
 * detector uses. HELD_OUT decks are not put in the model: the tool reads
 * their 52 cards with the model it built and prints the accuracy. PNG_DIR,
 * when given, receives every rendered card.
 */
#include "cards_int.h"
#include "vision.h"

#include <cairo.h>
#include <librsvg/rsvg.h>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Deck {
    const char *dir, *file;
};

const Deck DECKS[] = {
    {"svg-ancient-egyptians", "Ancient_Egyptians.svgz"},
    {"svg-dondorf", "dondorf.svgz"},
    {"svg-future", "future.svgz"},
    {"svg-gm-paris", "paris.svgz"},
    {"svg-jolly-royal", "jolly-royal.svgz"},
    {"svg-konqi-modern", "konqi.svgz"},
    {"svg-nicu-ornamental", "ornamental.svgz"},
    {"svg-nicu-white", "white.svgz"},
    {"svg-oxygen", "oxygen.svgz"},
    {"svg-oxygen-air", "oxygen-air.svgz"},
    {"svg-oxygen-white", "oxygen-white.svgz"},
    {"svg-penguins", "penguins.svgz"},
    {"svg-standard", "standard.svgz"},
    {"svg-tigullio-international", "tigullio-international.svgz"},
    {"svg-xskat-french", "french.svgz"},
};
/* held out of the model, to measure it on decks it never saw */
const char *HELD_OUT[] = {"svg-standard", "svg-nicu-white",
                          "svg-tigullio-international"};

const char *RANK_ID[13] = {"2", "3", "4",    "5",     "6",     "7",   "8",
                           "9", "10", "jack", "queen", "king", "1"};
const char *SUIT_ID[4] = {"club", "diamond", "heart", "spade"};

/* Render element #id of h into a BGR canonical card on felt; empty on
 * failure. */
cv::Mat render_card(RsvgHandle *h, const std::string &id)
{
    RsvgRectangle ink, logical;
    GError *err = nullptr;
    if (!rsvg_handle_get_geometry_for_element(h, id.c_str(), &ink, &logical,
                                              &err)) {
        if (err)
            g_error_free(err);
        return cv::Mat();
    }
    if (logical.width <= 0 || logical.height <= 0)
        return cv::Mat();
    int W = 500;
    double lw = ink.width > 0 ? ink.width : logical.width;
    double lh = ink.width > 0 ? ink.height : logical.height;
    int H = (int)(W * lh / lw);
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
    cairo_t *cr = cairo_create(s);
    cairo_set_source_rgb(cr, 0.15, 0.45, 0.2);
    cairo_paint(cr);
    RsvgRectangle vp = {0, 0, (double)W, (double)H};
    bool ok = rsvg_handle_render_element(h, cr, id.c_str(), &vp, &err);
    if (err)
        g_error_free(err);
    cairo_surface_flush(s);
    cv::Mat out;
    if (ok) {
        cv::Mat argb(H, W, CV_8UC4, cairo_image_surface_get_data(s),
                     cairo_image_surface_get_stride(s));
        cv::Mat bgr;
        cv::cvtColor(argb, bgr, cv::COLOR_BGRA2BGR);
        /* the element may not fill the viewport: crop to what is not felt */
        cv::Mat fg;
        cv::inRange(bgr, cv::Scalar(45, 110, 30), cv::Scalar(55, 120, 45), fg);
        fg = ~fg;
        std::vector<cv::Point> pts;
        cv::findNonZero(fg, pts);
        if (pts.size() < 100) {
            cairo_destroy(cr);
            cairo_surface_destroy(s);
            return cv::Mat();
        }
        bgr = bgr(cv::boundingRect(pts)).clone();
        if (bgr.cols > bgr.rows) /* landscape art: stand it up */
            cv::rotate(bgr, bgr, cv::ROTATE_90_CLOCKWISE);
        cv::resize(bgr, out, cv::Size(fwv::CARD_W, fwv::CARD_H), 0, 0,
                   cv::INTER_AREA);
    }
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    return out;
}

bool held_out(const char *dir)
{
    for (const char *h : HELD_OUT)
        if (std::strcmp(h, dir) == 0)
            return true;
    return false;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: gen_templates OUT.fwt [PNG_DIR]\n");
        return 2;
    }
    const char *png_dir = argc > 2 ? argv[2] : nullptr;
    try {
        std::vector<fwv::Template> model;
        std::vector<std::pair<unsigned char, cv::Mat>> test;
        int deck_id = 0;
        for (const Deck &d : DECKS) {
            deck_id++;
            std::string path =
                std::string("/usr/share/carddecks/") + d.dir + "/" + d.file;
            GError *err = nullptr;
            RsvgHandle *h = rsvg_handle_new_from_file(path.c_str(), &err);
            if (!h) {
                std::fprintf(stderr, "skip %s: %s\n", path.c_str(),
                             err ? err->message : "?");
                if (err)
                    g_error_free(err);
                continue;
            }
            bool hold = held_out(d.dir);
            int got = 0;
            for (int r = 0; r < 13; r++)
                for (int s = 0; s < 4; s++) {
                    std::string id =
                        std::string("#") + RANK_ID[r] + "_" + SUIT_ID[s];
                    cv::Mat card = render_card(h, id);
                    if (card.empty())
                        continue;
                    if (png_dir)
                        cv::imwrite(std::string(png_dir) + "/" + d.dir + "_" +
                                        (id.c_str() + 1) + ".png",
                                    card);
                    unsigned char c = fw_card_make(r, s);
                    if (hold) {
                        test.push_back({c, card});
                        continue;
                    }
                    fwv::Index ix = fwv::extract_index(card);
                    if (!ix.ok)
                        continue;
                    got++;
                    fwv::Template tr{0, r, deck_id, ix.rank};
                    model.push_back(tr);
                    /* one suit glyph per suit and deck is enough */
                    if (r == 12 || r == 0)
                        model.push_back(fwv::Template{1, s, deck_id, ix.suit});
                }
            g_object_unref(h);
            std::printf("%-28s %s %d/52 indexes\n", d.dir,
                        hold ? "held out" : "model  ", hold ? 52 : got);
        }
        fwv::save_model(argv[1], model);
        /* reload: exactly what the detector will see (8-bit rounding) */
        model = fwv::load_model(argv[1]);
        int right = 0, rank_right = 0;
        for (auto &t : test) {
            float conf;
            bool flipped;
            unsigned char c = fwv::read_card(model, t.second, &conf, &flipped);
            right += c == t.first;
            if (c != t.first && std::getenv("FW_GEN_VERBOSE"))
                std::printf("  miss %d -> %d (%.2f)\n", t.first, c, conf);
            rank_right += c != FW_CARD_NONE && (c >> 2) == (t.first >> 2);
        }
        std::printf("%zu templates -> %s\n", model.size(), argv[1]);
        std::printf("held-out decks: %d/%zu cards right, %d/%zu ranks right\n",
                    right, test.size(), rank_right, test.size());
        return 0;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "gen_templates: %s\n", e.what());
        return 1;
    }
}
