/*
 * shim_catch.h - private to vision/: the catch clauses every C entry point
 * of the OpenCV shims ends its try block with, so that no exception
 * crosses into C (CONVENTIONS.md): out of memory is FW_ENOMEM, anything
 * else FW_EINTERNAL, each named by the entry point. Never included from C;
 * included after the module's own header, which declares fw_set_error()
 * (fw_error.h is a C header without its own extern "C").
 *
 *     try {
 *         ...
 *         return FW_OK;
 *     }
 *     FW_VISION_CATCH("fw_chips_detect")
 */
#ifndef FW_SHIM_CATCH_H
#define FW_SHIM_CATCH_H

#include <exception>
#include <new>

#define FW_VISION_CATCH(name)                                                \
    catch (const std::bad_alloc &) {                                         \
        return fw_set_error(FW_ENOMEM, "%s: out of memory", name);           \
    }                                                                        \
    catch (const std::exception &e) {                                        \
        return fw_set_error(FW_EINTERNAL, "%s: %s", name, e.what());         \
    }                                                                        \
    catch (...) {                                                            \
        return fw_set_error(FW_EINTERNAL, "%s: unknown error", name);        \
    }

#endif
