/* frames_avi.cpp - writes a small MJPEG AVI for test_frames.c (OpenCV is
 * C++ only): frame i is a solid colour with blue = 20 * i. */
#include <opencv2/videoio.hpp>

#include <exception>

extern "C" int fw_test_write_avi(const char *path, int n, int w, int h)
{
    try {
        cv::VideoWriter vw(path, cv::VideoWriter::fourcc('M', 'J', 'P', 'G'),
                           10.0, cv::Size(w, h));
        if (!vw.isOpened())
            return -1;
        for (int i = 0; i < n; i++)
            vw.write(cv::Mat(h, w, CV_8UC3, cv::Scalar(20 * i, 100, 50)));
        return 0;
    } catch (const std::exception &) {
        return -1;
    }
}
