/*
 * cards_int.h - private to vision/: the detector behind the opaque handle
 * of vision.h. Never included from C.
 */
#ifndef FW_CARDS_INT_H
#define FW_CARDS_INT_H

#include "detect.h"
#include "net.h"
#include "pips.h"
#include "read.h"
#include "vision.h"

#include <opencv2/core.hpp>

#include <vector>

struct fw_vision {
    fwv::CardModel model;
    /* the quad finder and scratch memory, kept between frames */
    fwv::Finder finder;
    std::vector<fwv::CardQuad> quads;
    cv::Mat full, work, tmp;
    fwv::ReadScratch rs;
    fwv::IndexFeat feat;
    fwv::PipScratch pips;
    fwv::NetScratch net;
    /* the overlap of two quads (read_loose, read_runners) */
    std::vector<cv::Point2f> poly;
};

#endif
