/*
 * frames_dir.cpp - a folder of images as a frame source (dir:PATH): every
 * file with an image extension, in byte order of name, then end of stream.
 * A file that does not decode is reported (FW_EPARSE naming it) and skipped.
 */
#include "frames_int.h"

#include <dirent.h>
#include <strings.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <vector>

namespace {

struct DirState {
    std::vector<std::string> files; /* full paths, sorted by name */
    size_t next = 0;
    fw_frames_decoder *dec = nullptr;
    ~DirState() { fw_frames__decoder_free(dec); }
};

bool is_image_name(const char *name)
{
    static const char *const exts[] = {".png", ".jpg", ".jpeg", ".bmp",
                                       ".ppm", ".pgm", ".pnm",  ".tif",
                                       ".tiff", ".webp"};
    const char *dot = std::strrchr(name, '.');
    if (!dot || name[0] == '.')
        return false;
    for (const char *e : exts)
        if (strcasecmp(dot, e) == 0)
            return true;
    return false;
}

/*
 * List the image files of the folder src->arg into a new DirState. Returns
 * FW_OK, or FW_ENOENT for a missing folder or one without images, FW_EIO,
 * FW_ENOMEM, each with a message naming the URI.
 */
int list_dir(fw_frame_source *src, DirState **out)
{
    const char *path = src->arg;
    DIR *d = opendir(path);
    if (!d)
        return fw_set_error(errno == ENOENT || errno == ENOTDIR ? FW_ENOENT
                                                                 : FW_EIO,
                            "frames: %s: cannot open folder: %s", src->uri,
                            std::strerror(errno));
    auto *st = new DirState();
    std::vector<std::string> names;
    while (struct dirent *e = readdir(d))
        if (is_image_name(e->d_name))
            names.push_back(e->d_name);
    closedir(d);
    std::sort(names.begin(), names.end());
    std::string base(path);
    if (!base.empty() && base.back() != '/')
        base += '/';
    for (const std::string &n : names) {
        std::string full = base + n;
        struct stat sb;
        if (stat(full.c_str(), &sb) == 0 && S_ISREG(sb.st_mode))
            st->files.push_back(full);
    }
    if (st->files.empty()) {
        delete st;
        return fw_set_error(FW_ENOENT, "frames: %s: no images in the folder",
                            src->uri);
    }
    if (fw_frames__decoder_new(&st->dec) != FW_OK) {
        delete st;
        return fw_set_error(FW_ENOMEM, "frames: out of memory");
    }
    *out = st;
    return FW_OK;
}

int dir_open(fw_frame_source *src, const char *arg)
{
    if (arg[0] == '\0')
        return fw_set_error(FW_EINVAL, "frames: %s: dir: needs a folder",
                            src->uri);
    try {
        DirState *st = nullptr;
        int rc = list_dir(src, &st);
        if (rc == FW_OK)
            src->state = st;
        return rc;
    } catch (const std::bad_alloc &) {
        return fw_set_error(FW_ENOMEM, "frames: out of memory");
    } catch (const std::exception &e) {
        return fw_set_error(FW_EINTERNAL, "frames: %s: %s", src->uri,
                            e.what());
    }
}

int dir_read(fw_frame_source *src, fw_image *frame, double *t,
             int timeout_ms)
{
    auto *st = static_cast<DirState *>(src->state);
    if (st->next >= st->files.size())
        return FW_FRAMES_END;
    size_t i = st->next++;
    const std::string &path = st->files[i];
    int rc = fw_frames__decode_file(st->dec, path.c_str(), frame);
    switch (rc) {
    case FW_OK:
        *t = (double)i / src->opt.fps;
        return FW_OK;
    case FW_EPARSE:
        return fw_set_error(FW_EPARSE, "frames: %s: not a readable image",
                            path.c_str());
    case FW_ENOMEM:
        return fw_set_error(FW_ENOMEM, "frames: %s: out of memory",
                            path.c_str());
    default:
        /* removed or unreadable since the listing: one bad frame, go on */
        return fw_set_error(FW_EPARSE, "frames: %s: cannot read the file",
                            path.c_str());
    }
}

void dir_close(fw_frame_source *src)
{
    delete static_cast<DirState *>(src->state);
    src->state = nullptr;
}

} // namespace

extern "C" const fw_frames_ops fw_frames__dir_ops = {"dir", dir_open,
                                                      dir_read, dir_close};
