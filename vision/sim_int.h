/*
 * sim_int.h - private to vision/: the simulator's C++ pieces shared with the
 * classifier's trainer and the kiosk's card drawing. Never included from C.
 */
#ifndef FW_SIM_INT_H
#define FW_SIM_INT_H

#include "sim.h"

#include <opencv2/core.hpp>

#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace fwsim {

/* A failure with its FW_E* code. */
struct SimError : std::runtime_error {
    int code;
    SimError(int c, const std::string &m) : std::runtime_error(m), code(c) {}
};

/* splitmix64: the same numbers from a seed on every platform. */
struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed) {}
    uint64_t next();
    double uni();                 /* [0, 1) */
    double uni(double a, double b);
    int range(int a, int b);      /* a..b inclusive */
    double gauss();
};

/* The 53 BGRA cards of a deck (rasterised and cached on first use); throws
 * SimError. */
const std::vector<cv::Mat> &deck_art(fw_sim *sim, int deck);

/* A table surface (fw_sim_table) of size sz, drawn from seed. */
cv::Mat make_table(int table, uint32_t seed, cv::Size sz);

/* The camera homography of a scene: table pixels -> output pixels. */
cv::Matx33d camera(const fw_sim_scene &s);
cv::Point2f apply(const cv::Matx33d &H, cv::Point2f p);

/* Art pixels -> table pixels for a card of the given art size. */
cv::Matx23d card_affine(const fw_sim_card &c, cv::Size art, double card_h);

} // namespace fwsim

/* The body of an extern "C" function: runs BODY, turning any exception into
 * an FW_E* code with its message in fw_last_error(). */
#define FW_SIM_TRY(name, ...)                                                \
    try {                                                                    \
        __VA_ARGS__                                                          \
    } catch (const fwsim::SimError &e) {                                     \
        return fw_set_error(e.code, "%s: %s", name, e.what());               \
    } catch (const std::bad_alloc &) {                                       \
        return fw_set_error(FW_ENOMEM, "%s: out of memory", name);           \
    } catch (const std::exception &e) {                                      \
        return fw_set_error(FW_EINTERNAL, "%s: %s", name, e.what());         \
    } catch (...) {                                                          \
        return fw_set_error(FW_EINTERNAL, "%s: unknown error", name);        \
    }

#endif
