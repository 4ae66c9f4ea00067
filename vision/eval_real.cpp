/*
 * eval_real.cpp - the detector over the labelled real photographs.
 *
 * usage: eval_real [--dump OUT] [--verbose] DIR
 *        (e.g. shared/datasets/real-cards-edje/test)
 *
 * For every IMG.xml (Pascal VOC, rank labels nine..ace) with its image,
 * prints the share of labelled cards matched by a detection whose box of
 * what shows (fw_card_obs::shows: the card's quad less the cards the
 * detector found lying over it) has IoU >= 0.5, the share whose rank is
 * read right, and the cards not read right by cause (not detected;
 * detected but taken for a back, not read, or read as another rank). The
 * labels box only the part of a card that shows from under another. The
 * same figures against each detection's whole box (its corners', as
 * before stop 86) follow on a line of their own. A label still missed is
 * matched again to what shows of a card found under every choice of the
 * detections overlapping it (iou_in_view(): where the detector could not
 * tell which card lies over which), and those are counted apart, never in
 * the figures above. With --dump,
 * each image is written to OUT (PNG) with the labels (green: matched and read
 * right, yellow: matched, red: missed) and the detections (blue: face up
 * with the card read, magenta: face down) drawn on it, and for each card
 * found but misread, IMG_N.png: its two index corners as the reader cut
 * them (read.h's debug view, corner 0 left). With --verbose, one
 * line per labelled card missed or misread: the image, the rank, what was
 * read and the box overlap (for a card missed, the nearest detection's).
 */
#include "read.h"
#include "vision.h"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Box {
    int rank;
    float x0, y0, x1, y1;
};

std::string tag(const std::string &s, const std::string &t, size_t from)
{
    size_t a = s.find("<" + t + ">", from);
    if (a == std::string::npos)
        return "";
    a += t.size() + 2;
    size_t b = s.find("</" + t + ">", a);
    return b == std::string::npos ? "" : s.substr(a, b - a);
}

int rank_of(const std::string &n)
{
    const char *names[] = {"nine", "ten", "jack", "queen", "king", "ace"};
    for (int i = 0; i < 6; i++)
        if (n == names[i])
            return 7 + i;
    return -1;
}

float area(const Box &a) { return (a.x1 - a.x0) * (a.y1 - a.y0); }

/* The area two boxes share. */
float shared(const Box &a, const Box &b)
{
    float ix = std::max(0.f, std::min(a.x1, b.x1) - std::max(a.x0, b.x0));
    float iy = std::max(0.f, std::min(a.y1, b.y1) - std::max(a.y0, b.y0));
    return ix * iy;
}

float iou(const Box &a, const Box &b)
{
    float i = shared(a, b);
    float u = area(a) + area(b) - i;
    return u > 0 ? i / u : 0;
}

/* The bounding box of a detection's corners, within the image: a card the
 * frame's edge cuts is labelled by the part in view (a VOC box lies in its
 * image), while the detector gives its corners where they would lie beyond
 * the edge. */
Box quad_box(const fw_card_obs &o, int width, int height)
{
    Box b{0, 1e9f, 1e9f, -1e9f, -1e9f};
    for (int k = 0; k < 4; k++) {
        b.x0 = std::min(b.x0, o.corners[k][0]);
        b.y0 = std::min(b.y0, o.corners[k][1]);
        b.x1 = std::max(b.x1, o.corners[k][0]);
        b.y1 = std::max(b.y1, o.corners[k][1]);
    }
    b.x0 = std::max(b.x0, 0.f);
    b.y0 = std::max(b.y0, 0.f);
    b.x1 = std::min(b.x1, (float)width);
    b.y1 = std::min(b.y1, (float)height);
    return b;
}

/* The box of what shows of detection o, as the detector reports it
 * (vision.h fw_card_obs::shows): the labels box only what shows of a card
 * under another. */
Box shows_box(const fw_card_obs &o)
{
    return Box{0, o.shows[0], o.shows[1], o.shows[2], o.shows[3]};
}

/* Detection o's card as text ("--" when none was read, or no o). */
void card_text(const fw_card_obs *o, char t[3])
{
    t[0] = t[1] = '-';
    t[2] = '\0';
    if (o && o->card != FW_CARD_NONE)
        fw_card_str(o->card, t);
}

/* The most detections over one that the order they lie in is tried for
 * (iou_in_view()): 2^6 masks at most for one detection. */
constexpr int OVER_TRIED = 6;

/* Detection k's corners as a polygon for the mask. */
std::vector<cv::Point> obs_poly(const fw_card_obs &o)
{
    std::vector<cv::Point> q;
    for (int c = 0; c < 4; c++)
        q.emplace_back((int)std::lround(o.corners[c][0]),
                       (int)std::lround(o.corners[c][1]));
    return q;
}

/* The bounding box of what shows of detection i if it lies under the
 * detections of over[] whose bit is set in which: its quad less theirs,
 * drawn on a mask of the image (the labels box only that part of a
 * covered card), less slivers under a tenth of its width across (where
 * two quads' edges nearly meet). An empty box when nothing shows. */
Box part_under(const fw_card_obs *obs, int i, const std::vector<int> &over,
               unsigned which, cv::Mat &mask)
{
    mask.setTo(0);
    cv::fillConvexPoly(mask, obs_poly(obs[i]), cv::Scalar(255));
    for (size_t k = 0; k < over.size(); k++)
        if (which & (1u << k))
            cv::fillConvexPoly(mask, obs_poly(obs[over[k]]), cv::Scalar(0));
    const float w = std::min(
        std::hypot(obs[i].corners[1][0] - obs[i].corners[0][0],
                   obs[i].corners[1][1] - obs[i].corners[0][1]),
        std::hypot(obs[i].corners[2][0] - obs[i].corners[1][0],
                   obs[i].corners[2][1] - obs[i].corners[1][1]));
    const int k = std::max(3, (int)std::lround(0.1f * w)) | 1;
    cv::morphologyEx(mask, mask, cv::MORPH_OPEN,
                     cv::getStructuringElement(cv::MORPH_RECT, {k, k}));
    const cv::Rect r = cv::boundingRect(mask);
    return Box{0, (float)r.x, (float)r.y, (float)(r.x + r.width),
               (float)(r.y + r.height)};
}

/* The best box overlap of label g with what shows of detection i under
 * some of the detections that overlap it (their boxes meet its box): the
 * order cards lie in is not reported, and in a fan of three the middle
 * card lies over one and under the other, so every choice of those over
 * it is tried (the first OVER_TRIED that overlap it). */
float iou_in_view(const fw_card_obs *obs, int n, int i, const Box &g,
                  int width, int height, cv::Mat &mask)
{
    const Box bi = quad_box(obs[i], width, height);
    std::vector<int> over;
    for (int k = 0; k < n && (int)over.size() < OVER_TRIED; k++)
        if (k != i && shared(bi, quad_box(obs[k], width, height)) > 0)
            over.push_back(k);
    float best = 0;
    for (unsigned which = 0; which < (1u << over.size()); which++)
        best = std::max(best, iou(g, part_under(obs, i, over, which, mask)));
    return best;
}

} // namespace

int main(int argc, char **argv)
{
    std::string dump, dir;
    bool verbose = false, bad = false;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--dump" && i + 1 < argc)
            dump = argv[++i];
        else if (a == "--verbose")
            verbose = true;
        else if (dir.empty() && a.rfind("--", 0) != 0)
            dir = a;
        else
            bad = true;
    }
    if (bad || dir.empty()) {
        std::fprintf(stderr, "usage: eval_real [--dump OUT] [--verbose] DIR\n");
        return 2;
    }
    DIR *d = opendir(dir.c_str());
    if (!d) {
        std::fprintf(stderr, "eval_real: cannot open %s\n", dir.c_str());
        return 1;
    }
    std::vector<std::string> xmls;
    while (dirent *e = readdir(d)) {
        std::string n = e->d_name;
        if (n.size() > 4 && n.substr(n.size() - 4) == ".xml")
            xmls.push_back(n);
    }
    closedir(d);
    std::sort(xmls.begin(), xmls.end());
    fw_vision *v = nullptr;
    if (fw_vision_new(&v) != FW_OK) {
        std::fprintf(stderr, "eval_real: %s\n", fw_last_error());
        return 1;
    }
    int labelled = 0, found = 0, ranked = 0, dets = 0, images = 0;
    /* the same matched against each detection's whole box (its corners'),
     * as the figures were taken before the detector reported what shows
     * (stop 86) */
    int found_whole = 0, ranked_whole = 0;
    int under = 0, under_right = 0; /* see iou_in_view() */
    /* the detected cards not read right, by cause */
    int as_back = 0, unread = 0, misread_rank = 0;
    /* detections matched to no label, by what they report */
    int spare_read = 0, spare_unread = 0, spare_back = 0;
    fwv::ReadScratch rs;
    fwv::IndexFeat feat;
    double ms = 0;
    for (const std::string &x : xmls) {
        std::ifstream f(dir + "/" + x);
        std::stringstream ss;
        ss << f.rdbuf();
        std::string s = ss.str();
        std::string img_path = dir + "/" + tag(s, "filename", 0);
        std::vector<Box> gt;
        for (size_t p = s.find("<object>"); p != std::string::npos;
             p = s.find("<object>", p + 1)) {
            Box b;
            b.rank = rank_of(tag(s, "name", p));
            b.x0 = std::stof(tag(s, "xmin", p));
            b.y0 = std::stof(tag(s, "ymin", p));
            b.x1 = std::stof(tag(s, "xmax", p));
            b.y1 = std::stof(tag(s, "ymax", p));
            gt.push_back(b);
        }
        fw_image img;
        if (fw_vision_load_image(img_path.c_str(), &img) != FW_OK) {
            std::fprintf(stderr, "skip %s: %s\n", x.c_str(), fw_last_error());
            continue;
        }
        images++;
        fw_card_obs obs[64];
        int n = 0;
        fw_vision_forget(v); /* each photograph is a camera of its own */
        auto t0 = std::chrono::steady_clock::now();
        fw_vision_detect_cards(v, img.bgr, img.width, img.height, img.stride,
                               obs, 64, &n);
        ms += std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - t0)
                  .count();
        cv::Mat shown, frame;
        if (!dump.empty()) {
            frame = cv::Mat(img.height, img.width, CV_8UC3, img.bgr,
                            (size_t)img.stride)
                        .clone();
            shown = frame.clone();
        }
        const int width = img.width, height = img.height;
        fw_vision_image_free(&img);
        int misread_n = 0;
        dets += n;
        {
            std::vector<bool> taken(n, false);
            for (const Box &g : gt) {
                int best = -1;
                float bi = 0.5f;
                for (int i = 0; i < n; i++) {
                    const float u = iou(g, quad_box(obs[i], width, height));
                    if (!taken[i] && u >= bi) {
                        bi = u;
                        best = i;
                    }
                }
                if (best < 0)
                    continue;
                taken[best] = true;
                found_whole++;
                ranked_whole += obs[best].card != FW_CARD_NONE &&
                                fw_card_rank(obs[best].card) == g.rank;
            }
        }
        std::vector<bool> used(n, false);
        std::vector<const Box *> unmatched;
        for (const Box &g : gt) {
            labelled++;
            int best = -1, near = -1;
            float bi = 0.5f, ni = 0.0f;
            for (int i = 0; i < n; i++) {
                if (used[i])
                    continue;
                float u = iou(g, shows_box(obs[i]));
                if (u > ni) {
                    ni = u;
                    near = i;
                }
                if (u >= bi) {
                    bi = u;
                    best = i;
                }
            }
            bool right = best >= 0 && obs[best].card != FW_CARD_NONE &&
                         fw_card_rank(obs[best].card) == g.rank;
            if (verbose && !right) {
                const int o = best >= 0 ? best : near;
                char t[3];
                card_text(o >= 0 ? &obs[o] : nullptr, t);
                std::printf("%s: rank %d %s%s%s (IoU %.2f)\n", x.c_str(),
                            g.rank,
                            best >= 0   ? "read "
                            : near >= 0 ? "missed, nearest "
                                        : "missed",
                            o < 0 ? "" : t,
                            o < 0 ? "" : obs[o].face_up ? " up" : " down",
                            best >= 0 ? bi : ni);
            }
            if (!shown.empty())
                cv::rectangle(shown, cv::Point((int)g.x0, (int)g.y0),
                              cv::Point((int)g.x1, (int)g.y1),
                              best < 0 ? cv::Scalar(0, 0, 255)
                              : right  ? cv::Scalar(0, 200, 0)
                                       : cv::Scalar(0, 220, 220),
                              2);
            if (best < 0) {
                unmatched.push_back(&g);
                continue;
            }
            if (!right && !frame.empty()) {
                cv::Point2f q[4];
                for (int k = 0; k < 4; k++)
                    q[k] = cv::Point2f(obs[best].corners[k][0],
                                       obs[best].corners[k][1]);
                cv::Mat views[2], both;
                for (int c = 0; c < 2; c++) {
                    fwv::index_features(frame, q, 2 * c, rs, feat, &views[c]);
                    if (views[c].empty())
                        views[c] = cv::Mat::zeros(327, 153, CV_8UC3);
                }
                cv::hconcat(views[0], views[1], both);
                std::string out = dump + "/" + x.substr(0, x.size() - 4) +
                                  "_" + std::to_string(misread_n++) + ".png";
                if (!cv::imwrite(out, both))
                    std::fprintf(stderr, "eval_real: cannot write %s\n",
                                 out.c_str());
            }
            used[best] = true;
            found++;
            ranked += right;
            if (!right) {
                if (!obs[best].face_up)
                    as_back++;
                else if (obs[best].card == FW_CARD_NONE)
                    unread++;
                else
                    misread_rank++;
            }
        }
        /* the labels box only what shows of a card under another; the
         * detector gives the whole card. A label missed above is matched
         * at IoU >= 0.5 to what shows of a detection left over (as though
         * under some of the others it overlaps: iou_in_view()) and
         * counted apart, never in the figures above */
        cv::Mat mask;
        if (!unmatched.empty())
            mask.create(height, width, CV_8U);
        for (const Box *g : unmatched) {
            int best = -1;
            float bi = 0.5f;
            for (int i = 0; i < n; i++) {
                if (used[i])
                    continue;
                float u = iou_in_view(obs, n, i, *g, width, height, mask);
                if (u >= bi) {
                    bi = u;
                    best = i;
                }
            }
            if (best < 0)
                continue;
            used[best] = true;
            under++;
            const bool right = obs[best].card != FW_CARD_NONE &&
                               fw_card_rank(obs[best].card) == g->rank;
            under_right += right;
            if (verbose) {
                char t[3];
                card_text(&obs[best], t);
                std::printf("%s: rank %d matched by what shows, %s %s "
                            "(IoU %.2f)\n",
                            x.c_str(), g->rank, right ? "read" : "not read:", t,
                            bi);
            }
        }
        for (int i = 0; i < n; i++) {
            if (used[i])
                continue;
            if (!obs[i].face_up)
                spare_back++;
            else if (obs[i].card == FW_CARD_NONE)
                spare_unread++;
            else
                spare_read++;
            if (verbose) {
                char t[3];
                card_text(&obs[i], t);
                std::printf("%s: detection %s %s matches no label "
                            "(%.0f,%.0f)\n",
                            x.c_str(), t, obs[i].face_up ? "up" : "down",
                            obs[i].corners[0][0], obs[i].corners[0][1]);
            }
        }
        if (!shown.empty()) {
            for (int i = 0; i < n; i++) {
                std::vector<cv::Point> q;
                for (int k = 0; k < 4; k++)
                    q.emplace_back((int)obs[i].corners[k][0],
                                   (int)obs[i].corners[k][1]);
                cv::Scalar c = obs[i].face_up ? cv::Scalar(255, 80, 0)
                                              : cv::Scalar(255, 0, 255);
                cv::polylines(shown, q, true, c, 1);
                cv::circle(shown, q[0], 3, c, -1);
                char t[3];
                card_text(&obs[i], t);
                cv::putText(shown, t, q[0] + cv::Point(4, 14),
                            cv::FONT_HERSHEY_SIMPLEX, 0.5, c, 1);
            }
            std::string out = dump + "/" + x.substr(0, x.size() - 4) + ".png";
            if (!cv::imwrite(out, shown))
                std::fprintf(stderr, "eval_real: cannot write %s\n",
                             out.c_str());
        }
    }
    fw_vision_free(v);
    std::printf("images %d, labelled cards %d, detections %d\n", images,
                labelled, dets);
    std::printf("detected (IoU >= 0.5): %d/%d = %.1f%%\n", found, labelled,
                labelled ? 100.0 * found / labelled : 0.0);
    std::printf("rank read right:       %d/%d = %.1f%%\n", ranked, labelled,
                labelled ? 100.0 * ranked / labelled : 0.0);
    std::printf("not read right: %d not detected, %d taken for backs, %d "
                "unread, %d rank read wrong\n",
                labelled - found, as_back, unread, misread_rank);
    std::printf("against the detections' whole boxes: detected %d/%d = "
                "%.1f%%, rank read right %d/%d = %.1f%%\n",
                found_whole, labelled,
                labelled ? 100.0 * found_whole / labelled : 0.0, ranked_whole,
                labelled, labelled ? 100.0 * ranked_whole / labelled : 0.0);
    std::printf("of those not detected, %d match what shows of a card found "
                "under others (%d read right)\n",
                under, under_right);
    std::printf("detections matching no label: %d read as a card, %d faces "
                "unread, %d backs\n",
                spare_read, spare_unread, spare_back);
    std::printf("mean %.1f ms per image\n", images ? ms / images : 0.0);
    return 0;
}
