/*
 * calib_cv.cpp - the OpenCV side of calibration (calib_cv.h): ArUco corner
 * markers, checkerboard intrinsics and the synthetic images the tests use.
 * Every entry point runs its body through guarded(), so no exception
 * reaches C: it becomes an FW_E* code and a message in fw_last_error().
 */
#include "calib_cv.h"

#include <opencv2/aruco.hpp>
#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <vector>

namespace
{

/* Run f() and turn any exception into an FW_E* code named after fn. */
template <class F> int guarded(const char *fn, F &&f)
{
    try {
        return f();
    } catch (const std::bad_alloc &) {
        return fw_set_error(FW_ENOMEM, "%s: out of memory", fn);
    } catch (const std::exception &e) {
        return fw_set_error(FW_EINTERNAL, "%s: %s", fn, e.what());
    } catch (...) {
        return fw_set_error(FW_EINTERNAL, "%s: unknown error", fn);
    }
}

struct dict_name {
    const char *name;
    int id;
};

const dict_name dicts[] = {
    {"4x4_50", cv::aruco::DICT_4X4_50},
    {"4x4_100", cv::aruco::DICT_4X4_100},
    {"4x4_250", cv::aruco::DICT_4X4_250},
    {"4x4_1000", cv::aruco::DICT_4X4_1000},
    {"5x5_50", cv::aruco::DICT_5X5_50},
    {"5x5_100", cv::aruco::DICT_5X5_100},
    {"5x5_250", cv::aruco::DICT_5X5_250},
    {"5x5_1000", cv::aruco::DICT_5X5_1000},
    {"6x6_50", cv::aruco::DICT_6X6_50},
    {"6x6_100", cv::aruco::DICT_6X6_100},
    {"6x6_250", cv::aruco::DICT_6X6_250},
    {"6x6_1000", cv::aruco::DICT_6X6_1000},
    {"7x7_50", cv::aruco::DICT_7X7_50},
    {"7x7_100", cv::aruco::DICT_7X7_100},
    {"7x7_250", cv::aruco::DICT_7X7_250},
    {"7x7_1000", cv::aruco::DICT_7X7_1000},
    {"original", cv::aruco::DICT_ARUCO_ORIGINAL},
};

/* The named dictionary, or an empty pointer after setting the error. */
cv::Ptr<cv::aruco::Dictionary> dictionary(const char *name)
{
    if (!name)
        name = FW_CALIB_DEFAULT_DICT;
    for (const dict_name &d : dicts)
        if (std::strcmp(d.name, name) == 0)
            return cv::aruco::getPredefinedDictionary(d.id);
    fw_set_error(FW_EINVAL,
                 "unknown ArUco dictionary \"%s\" (4x4_50, 5x5_100, "
                 "6x6_250, 7x7_1000 and the like, or original)",
                 name);
    return {};
}

/* The intersection of the quadrilateral's diagonals: the image of the
 * square's centre under any perspective, unlike the mean of its corners. */
cv::Point2d diagonal_centre(const std::vector<cv::Point2f> &q)
{
    cv::Point2d a = q[0], b = q[2], c = q[1], d = q[3];
    cv::Point2d r = b - a, s = d - c;
    double den = r.x * s.y - r.y * s.x;
    if (std::fabs(den) < 1e-9)
        return (a + b + c + d) * 0.25;
    double t = ((c.x - a.x) * s.y - (c.y - a.y) * s.x) / den;
    return a + r * t;
}

/* The image at path in grey, or an empty Mat after setting the error:
 * "cannot open" apart from "not an image" (and no OpenCV warning). */
cv::Mat read_gray(const char *path)
{
    FILE *f = std::fopen(path, "rb");
    if (!f) {
        fw_set_error(FW_EIO, "%s: cannot open", path);
        return {};
    }
    std::fclose(f);
    cv::Mat g = cv::imread(path, cv::IMREAD_GRAYSCALE);
    if (g.empty())
        fw_set_error(FW_EIO, "%s: cannot read an image from it", path);
    return g;
}

int write_png(const char *path, const cv::Mat &img, const char *fn)
{
    if (!cv::imwrite(path, img))
        return fw_set_error(FW_EIO, "%s: %s: cannot write", fn, path);
    return FW_OK;
}

} // namespace

extern "C" const char *fw_calib_marker_corner(int id)
{
    static const char *names[] = {"top-left", "top-right", "bottom-right",
                                  "bottom-left"};
    return id >= 0 && id < 4 ? names[id] : "?";
}

extern "C" int fw_calib_find_markers(const char *image_path, const char *dict,
                                     fw_calib_markers *out)
{
    if (!out)
        return fw_set_error(FW_EINVAL, "fw_calib_find_markers: out is NULL");
    *out = fw_calib_markers{};
    return guarded("fw_calib_find_markers", [&]() -> int {
        cv::Ptr<cv::aruco::Dictionary> d = dictionary(dict);
        if (!d)
            return FW_EINVAL;
        cv::Mat img = read_gray(image_path);
        if (img.empty())
            return FW_EIO;
        out->width = img.cols;
        out->height = img.rows;
        std::vector<std::vector<cv::Point2f>> quads;
        std::vector<int> ids;
        cv::Ptr<cv::aruco::DetectorParameters> p =
            cv::aruco::DetectorParameters::create();
        p->cornerRefinementMethod = cv::aruco::CORNER_REFINE_SUBPIX;
        cv::aruco::detectMarkers(img, d, quads, ids, p);
        for (size_t i = 0; i < ids.size(); i++) {
            int id = ids[i];
            if (id < 0 || id > 3 || quads[i].size() != 4)
                continue;
            cv::Point2d c = diagonal_centre(quads[i]);
            out->corner[id][0] = c.x;
            out->corner[id][1] = c.y;
            out->found[id]++;
        }
        std::string seen;
        for (int id : ids)
            seen += (seen.empty() ? "" : ", ") + std::to_string(id);
        for (int id = 0; id < 4; id++) {
            if (out->found[id] == 0)
                return fw_set_error(
                    FW_ENOENT,
                    "%s: marker %d (the felt's %s corner) not found "
                    "(markers seen: %s)",
                    image_path, id, fw_calib_marker_corner(id),
                    seen.empty() ? "none" : seen.c_str());
            if (out->found[id] > 1)
                return fw_set_error(
                    FW_EPARSE,
                    "%s: marker %d (the felt's %s corner) found %d times: "
                    "each corner marker must appear once",
                    image_path, id, fw_calib_marker_corner(id),
                    out->found[id]);
        }
        return FW_OK;
    });
}

extern "C" int fw_calib_intrinsics(const char *const *paths, int n, int cols,
                                   int rows, double square_mm,
                                   fw_calib_camera *out, int *found,
                                   int *width, int *height)
{
    if (!out)
        return fw_set_error(FW_EINVAL, "fw_calib_intrinsics: out is NULL");
    *out = fw_calib_camera{};
    return guarded("fw_calib_intrinsics", [&]() -> int {
        if (cols < 2 || rows < 2 || cols > 100 || rows > 100)
            return fw_set_error(FW_EINVAL,
                                "the board needs 2 to 100 inner corners "
                                "each way, not %dx%d",
                                cols, rows);
        if (!(square_mm > 0) || n < 1)
            return fw_set_error(FW_EINVAL, "no images or a bad square size");
        std::vector<cv::Point3f> board;
        for (int r = 0; r < rows; r++)
            for (int c = 0; c < cols; c++)
                board.emplace_back(float(c * square_mm),
                                   float(r * square_mm), 0.f);
        std::vector<std::vector<cv::Point3f>> obj;
        std::vector<std::vector<cv::Point2f>> img_pts;
        cv::Size size;
        for (int i = 0; i < n; i++) {
            if (found)
                found[i] = 0;
            cv::Mat g = read_gray(paths[i]);
            if (g.empty())
                return FW_EIO;
            if (size.area() == 0)
                size = g.size();
            else if (g.size() != size)
                return fw_set_error(FW_EINVAL,
                                    "%s: %dx%d, but the first image is "
                                    "%dx%d: all must come from one camera "
                                    "mode",
                                    paths[i], g.cols, g.rows, size.width,
                                    size.height);
            std::vector<cv::Point2f> pts;
            if (!cv::findChessboardCorners(g, cv::Size(cols, rows), pts,
                                           cv::CALIB_CB_ADAPTIVE_THRESH |
                                               cv::CALIB_CB_NORMALIZE_IMAGE))
                continue;
            cv::cornerSubPix(
                g, pts, cv::Size(5, 5), cv::Size(-1, -1),
                cv::TermCriteria(cv::TermCriteria::EPS |
                                     cv::TermCriteria::COUNT,
                                 50, 0.001));
            obj.push_back(board);
            img_pts.push_back(pts);
            if (found)
                found[i] = 1;
        }
        if (width)
            *width = size.width;
        if (height)
            *height = size.height;
        if (img_pts.size() < 3)
            return fw_set_error(FW_ENOENT,
                                "the %dx%d board was found in %zu of %d "
                                "images; at least 3 views are needed",
                                cols, rows, img_pts.size(), n);
        cv::Mat k, dist;
        std::vector<cv::Mat> rv, tv;
        double rms =
            cv::calibrateCamera(obj, img_pts, size, k, dist, rv, tv);
        k.convertTo(k, CV_64F);
        dist.convertTo(dist, CV_64F);
        for (int i = 0; i < 9; i++)
            out->matrix[i] = k.at<double>(i / 3, i % 3);
        for (int i = 0; i < 5 && i < (int)dist.total(); i++)
            out->dist[i] = dist.at<double>(i);
        out->rms = rms;
        return FW_OK;
    });
}

extern "C" int fw_calib_sim_markers(const char *path, int width, int height,
                                    const double corners[4][2],
                                    const double *h, int marker_px,
                                    const char *dict, const int ids[4])
{
    return guarded("fw_calib_sim_markers", [&]() -> int {
        cv::Ptr<cv::aruco::Dictionary> d = dictionary(dict);
        if (!d)
            return FW_EINVAL;
        if (width < 16 || height < 16 || marker_px < 8)
            return fw_set_error(FW_EINVAL, "fw_calib_sim_markers: bad size");
        cv::Mat out(height, width, CV_8UC3, cv::Scalar(40, 110, 45));
        cv::Matx33d hm = cv::Matx33d::eye();
        if (h)
            hm = cv::Matx33d(h);
        int margin = marker_px / 4;
        int side = marker_px + 2 * margin;
        for (int i = 0; i < 4; i++) {
            if (ids[i] < 0)
                continue;
            cv::Mat patch(side, side, CV_8UC1, cv::Scalar(255)), m;
            cv::aruco::drawMarker(d, ids[i], marker_px, m, 1);
            m.copyTo(patch(cv::Rect(margin, margin, marker_px, marker_px)));
            cv::cvtColor(patch, patch, cv::COLOR_GRAY2BGR);
            /* pixel centres run 0..side-1, so the patch's centre is at
             * (side-1)/2: move it onto the corner, then through h */
            double c = (side - 1) / 2.0;
            cv::Matx33d t(1, 0, corners[i][0] - c, 0, 1, corners[i][1] - c,
                          0, 0, 1);
            cv::warpPerspective(patch, out, cv::Mat(hm * t), out.size(),
                                cv::INTER_LINEAR, cv::BORDER_TRANSPARENT);
        }
        return write_png(path, out, "fw_calib_sim_markers");
    });
}

extern "C" int fw_calib_sim_board(const char *path, int width, int height,
                                  int cols, int rows, double square_mm,
                                  const fw_calib_camera *cam,
                                  const double rvec[3], const double tvec[3])
{
    return guarded("fw_calib_sim_board", [&]() -> int {
        if (width < 16 || height < 16 || cols < 2 || rows < 2 ||
            !(square_mm > 0))
            return fw_set_error(FW_EINVAL, "fw_calib_sim_board: bad board");
        cv::Mat k(3, 3, CV_64F), dist(1, 5, CV_64F);
        for (int i = 0; i < 9; i++)
            k.at<double>(i / 3, i % 3) = cam->matrix[i];
        for (int i = 0; i < 5; i++)
            dist.at<double>(i) = cam->dist[i];
        /* the pose is of the board's centre: rotate about it, then put it
         * at tvec in the camera's frame */
        cv::Matx33d rot;
        cv::Rodrigues(cv::Vec3d(rvec[0], rvec[1], rvec[2]), rot);
        cv::Vec3d centre((cols - 1) * square_mm / 2,
                         (rows - 1) * square_mm / 2, 0);
        cv::Vec3d t = cv::Vec3d(tvec[0], tvec[1], tvec[2]) - rot * centre;
        cv::Vec3d rv(rvec[0], rvec[1], rvec[2]);
        /* an outline of the rectangle from (x0,y0) to (x1,y1) in board mm,
         * each side cut in 8 so the lens bends it as it would a real edge */
        const int shift = 4;
        auto outline = [&](double x0, double y0, double x1, double y1) {
            std::vector<cv::Point3d> p3;
            const double xs[4] = {x0, x1, x1, x0}, ys[4] = {y0, y0, y1, y1};
            for (int e = 0; e < 4; e++)
                for (int s = 0; s < 8; s++) {
                    double f = s / 8.0;
                    p3.emplace_back(xs[e] + f * (xs[(e + 1) % 4] - xs[e]),
                                    ys[e] + f * (ys[(e + 1) % 4] - ys[e]),
                                    0.0);
                }
            std::vector<cv::Point2d> p2;
            cv::projectPoints(p3, rv, t, k, dist, p2);
            std::vector<cv::Point> q;
            for (const cv::Point2d &p : p2)
                q.emplace_back(int(std::lround(p.x * (1 << shift))),
                               int(std::lround(p.y * (1 << shift))));
            return q;
        };
        cv::Mat img(height, width, CV_8UC1, cv::Scalar(110));
        std::vector<std::vector<cv::Point>> polys;
        polys.push_back(outline(-2 * square_mm, -2 * square_mm,
                                (cols + 1) * square_mm,
                                (rows + 1) * square_mm));
        cv::fillPoly(img, polys, cv::Scalar(235), cv::LINE_AA, shift);
        polys.clear();
        for (int r = 0; r <= rows; r++)
            for (int c = 0; c <= cols; c++)
                if ((r + c) % 2 == 0)
                    polys.push_back(outline((c - 1) * square_mm,
                                            (r - 1) * square_mm,
                                            c * square_mm, r * square_mm));
        /* one polygon at a time: fillPoly of many would xor overlaps */
        for (const auto &p : polys)
            cv::fillPoly(img, std::vector<std::vector<cv::Point>>{p},
                         cv::Scalar(20), cv::LINE_AA, shift);
        return write_png(path, img, "fw_calib_sim_board");
    });
}
