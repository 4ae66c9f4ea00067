/*
 * phh_toml.cpp - the C++17 shim over toml11 behind fw_phh_toml_read()
 * (phh.h). It reads the TOML document, copies the PHH fields it knows into
 * the plain C struct fw_phh_doc and lets nothing of C++ out: every exception
 * is caught here and becomes an FW_E* code with a message that names the key
 * and, where toml11 gives it, the line.
 */
/* phh.h includes rules.h and fw_error.h, plain C headers without C++
 * guards of their own: their functions have C linkage. */
extern "C" {
#include "phh.h"
}

#include <toml.hpp>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <sstream>
#include <string>

namespace
{

/* Deeper nesting than this is refused before toml11 sees the document:
 * its parser recurses once per level and a fuzzer's "[[[[..." would
 * otherwise exhaust the stack. PHH documents nest two levels at most. */
constexpr int max_depth = 64;

/* An error to hand back to C: the code and the message already written. */
struct phh_error {
    int code;
};

using value = toml::value;

/*
 * Write a message into err (truncated, NUL-terminated) and record it for
 * fw_last_error(); throw it as a phh_error so the reader unwinds to the one
 * catch in fw_phh_toml_read().
 */
[[noreturn]] void fail(char *err, size_t errsz, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

[[noreturn]] void fail(char *err, size_t errsz, int code, const char *fmt, ...)
{
    char buf[FW_PHH_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (err && errsz > 0)
        std::snprintf(err, errsz, "%s", buf);
    fw_set_error(code, "%s", buf);
    throw phh_error{code};
}

/* The line a value was defined on, 0 when toml11 does not know it. */
unsigned line_of(const value &v)
{
    return static_cast<unsigned>(v.location().line());
}

/*
 * Refuse nesting of arrays and inline tables deeper than max_depth. Strings
 * and comments are skipped so that brackets inside them do not count; the
 * scan is deliberately simple and errs on the side of counting more, which
 * only ever rejects documents that are no PHH hand anyway.
 */
bool nesting_ok(const char *s, size_t n)
{
    int depth = 0;
    size_t i = 0;
    while (i < n) {
        char c = s[i];
        if (c == '#') {
            while (i < n && s[i] != '\n')
                i++;
        } else if (c == '"' || c == '\'') {
            bool multi = i + 2 < n && s[i + 1] == c && s[i + 2] == c;
            bool basic = c == '"';
            i += multi ? 3 : 1;
            while (i < n) {
                if (basic && s[i] == '\\') {
                    i += 2;
                    continue;
                }
                if (multi) {
                    if (i + 2 < n && s[i] == c && s[i + 1] == c &&
                        s[i + 2] == c) {
                        i += 2;
                        break;
                    }
                } else if (s[i] == c || s[i] == '\n') {
                    break;
                }
                i++;
            }
        } else if (c == '[' || c == '{') {
            if (++depth > max_depth)
                return false;
        } else if ((c == ']' || c == '}') && depth > 0) {
            depth--;
        }
        i++;
    }
    return true;
}

/*
 * Find the first byte of s[0..n) that is not part of well-formed UTF-8
 * (no overlong forms, no surrogates, nothing above U+10FFFF); n if none.
 * TOML documents must be UTF-8, and toml11 3.7's own error path for a bad
 * sequence inside a literal string reads past the end of its buffer, so
 * the check happens here, before toml11 sees the bytes.
 */
size_t utf8_bad(const char *s, size_t n)
{
    const unsigned char *u = reinterpret_cast<const unsigned char *>(s);
    size_t i = 0;
    while (i < n) {
        unsigned c = u[i];
        size_t len;
        unsigned lo = 0x80, hi = 0xBF; /* range of the second byte */
        if (c < 0x80) {
            i++;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            if (c == 0xE0)
                lo = 0xA0;
            else if (c == 0xED)
                hi = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            if (c == 0xF0)
                lo = 0x90;
            else if (c == 0xF4)
                hi = 0x8F;
        } else {
            return i;
        }
        if (n - i < len || u[i + 1] < lo || u[i + 1] > hi)
            return i;
        for (size_t k = 2; k < len; k++)
            if (u[i + k] < 0x80 || u[i + k] > 0xBF)
                return i;
        i += len;
    }
    return n;
}

/* The 1-based line of byte offset off in s. */
unsigned line_at(const char *s, size_t off)
{
    unsigned line = 1;
    for (size_t i = 0; i < off; i++)
        if (s[i] == '\n')
            line++;
    return line;
}

/*
 * Convert a TOML number to micro-units (x 10^6). Integers must lie in
 * 0..FW_PHH_MAX_UNITS; floats likewise and must be a whole number of
 * micro-units up to the rounding of a double. `inf` is an unknown amount
 * (the PHH spec allows it for stacks), which the engine cannot play.
 */
int64_t to_micro(const value &v, const char *key, char *err, size_t errsz)
{
    if (v.is_integer()) {
        int64_t i = v.as_integer();
        if (i < 0 || i > FW_PHH_MAX_UNITS)
            fail(err, errsz, FW_ERANGE,
                 "key '%s' (line %u): %lld is outside 0..%lld", key, line_of(v),
                 static_cast<long long>(i),
                 static_cast<long long>(FW_PHH_MAX_UNITS));
        return i * FW_PHH_MICRO;
    }
    if (v.is_floating()) {
        double d = v.as_floating();
        if (std::isinf(d))
            fail(err, errsz, FW_EUNSUPPORTED,
                 "key '%s' (line %u): an unknown amount (inf) cannot be "
                 "replayed",
                 key, line_of(v));
        if (std::isnan(d) || d < 0 || d > static_cast<double>(FW_PHH_MAX_UNITS))
            fail(err, errsz, FW_ERANGE,
                 "key '%s' (line %u): %g is outside 0..%lld", key, line_of(v),
                 d, static_cast<long long>(FW_PHH_MAX_UNITS));
        double m = d * static_cast<double>(FW_PHH_MICRO);
        double r = std::nearbyint(m);
        /* Decimal fractions are not exact in binary: accept what is a
         * whole micro-unit up to a few units in the last place. */
        if (std::fabs(m - r) > 1e-3 + std::fabs(m) * 1e-15)
            fail(err, errsz, FW_ERANGE,
                 "key '%s' (line %u): %.9g has more than 6 decimals", key,
                 line_of(v), d);
        return static_cast<int64_t>(r);
    }
    fail(err, errsz, FW_EPARSE, "key '%s' (line %u): expected a number", key,
         line_of(v));
}

/* Copy an array of numbers of at most FW_PHH_MAX_PLAYERS elements. */
void read_amounts(const value &v, const char *key, int64_t *out, int *n,
                  char *err, size_t errsz)
{
    if (!v.is_array())
        fail(err, errsz, FW_EPARSE,
             "key '%s' (line %u): expected an array of numbers", key,
             line_of(v));
    const auto &a = v.as_array();
    if (a.size() > FW_PHH_MAX_PLAYERS)
        fail(err, errsz, FW_ERANGE,
             "key '%s' (line %u): %zu elements, at most %d players", key,
             line_of(v), a.size(), FW_PHH_MAX_PLAYERS);
    for (size_t i = 0; i < a.size(); i++)
        out[i] = to_micro(a[i], key, err, errsz);
    *n = static_cast<int>(a.size());
}

/* Copy s into dst of size dsz, cut on a UTF-8 character boundary. */
void copy_name(const std::string &s, char *dst, size_t dsz)
{
    size_t n = s.size();
    if (n > dsz - 1) {
        n = dsz - 1;
        /* Step back over continuation bytes so no character is split. */
        while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80)
            n--;
    }
    std::memcpy(dst, s.data(), n);
    dst[n] = '\0';
    /* An embedded NUL (TOML allows "\u0000") ends the name early. */
}

const std::string &str_of(const value &v, const char *key, char *err,
                          size_t errsz)
{
    if (!v.is_string())
        fail(err, errsz, FW_EPARSE, "key '%s' (line %u): expected a string",
             key, line_of(v));
    return v.as_string().str;
}

int64_t int_of(const value &v, const char *key, char *err, size_t errsz)
{
    if (!v.is_integer())
        fail(err, errsz, FW_EPARSE, "key '%s' (line %u): expected an integer",
             key, line_of(v));
    return v.as_integer();
}

/* Fill *out from the parsed document; throws phh_error. */
void read_doc(const value &root, fw_phh_doc *out, char *err, size_t errsz)
{
    if (!root.is_table())
        fail(err, errsz, FW_EPARSE, "the document is not a TOML table");
    const auto &t = root.as_table();
    auto get = [&t](const char *key) -> const value * {
        auto it = t.find(key);
        return it == t.end() ? nullptr : &it->second;
    };

    if (const value *v = get("variant")) {
        const std::string &s = str_of(*v, "variant", err, errsz);
        if (s.size() >= sizeof out->variant || s.find('\0') != s.npos)
            fail(err, errsz, FW_EUNSUPPORTED,
                 "key 'variant' (line %u): unknown variant code", line_of(*v));
        std::memcpy(out->variant, s.data(), s.size());
        out->variant[s.size()] = '\0';
        out->has_variant = 1;
    }
    if (const value *v = get("antes")) {
        read_amounts(*v, "antes", out->antes, &out->nantes, err, errsz);
        out->has_antes = 1;
    }
    if (const value *v = get("blinds_or_straddles")) {
        read_amounts(*v, "blinds_or_straddles", out->blinds, &out->nblinds, err,
                     errsz);
        out->has_blinds = 1;
    }
    if (const value *v = get("starting_stacks")) {
        read_amounts(*v, "starting_stacks", out->starting_stacks,
                     &out->nstarting, err, errsz);
        out->has_starting = 1;
    }
    if (const value *v = get("finishing_stacks")) {
        read_amounts(*v, "finishing_stacks", out->finishing_stacks,
                     &out->nfinishing, err, errsz);
        out->has_finishing = 1;
    }
    struct {
        const char *key;
        int64_t *dst;
        int *has;
    } scalars[] = {
        {"min_bet", &out->min_bet, &out->has_min_bet},
        {"small_bet", &out->small_bet, &out->has_small_bet},
        {"big_bet", &out->big_bet, &out->has_big_bet},
        {"bring_in", &out->bring_in, &out->has_bring_in},
    };
    for (const auto &s : scalars) {
        if (const value *v = get(s.key)) {
            *s.dst = to_micro(*v, s.key, err, errsz);
            *s.has = 1;
        }
    }
    if (const value *v = get("seats")) {
        if (!v->is_array())
            fail(err, errsz, FW_EPARSE,
                 "key 'seats' (line %u): expected an array of integers",
                 line_of(*v));
        const auto &a = v->as_array();
        if (a.size() > FW_PHH_MAX_PLAYERS)
            fail(err, errsz, FW_ERANGE,
                 "key 'seats' (line %u): %zu elements, at most %d players",
                 line_of(*v), a.size(), FW_PHH_MAX_PLAYERS);
        for (size_t i = 0; i < a.size(); i++) {
            int64_t s = int_of(a[i], "seats", err, errsz);
            if (s < 1 || s > 1000)
                fail(err, errsz, FW_ERANGE,
                     "key 'seats' (line %u): seat %lld out of range",
                     line_of(a[i]), static_cast<long long>(s));
            out->seats[i] = static_cast<int>(s);
        }
        out->nseats = static_cast<int>(a.size());
        out->has_seats = 1;
    }
    if (const value *v = get("seat_count")) {
        int64_t s = int_of(*v, "seat_count", err, errsz);
        if (s < 1 || s > 1000)
            fail(err, errsz, FW_ERANGE,
                 "key 'seat_count' (line %u): %lld out of range", line_of(*v),
                 static_cast<long long>(s));
        out->seat_count = static_cast<int>(s);
        out->has_seat_count = 1;
    }
    if (const value *v = get("players")) {
        if (!v->is_array())
            fail(err, errsz, FW_EPARSE,
                 "key 'players' (line %u): expected an array of strings",
                 line_of(*v));
        const auto &a = v->as_array();
        if (a.size() > FW_PHH_MAX_PLAYERS)
            fail(err, errsz, FW_ERANGE,
                 "key 'players' (line %u): %zu elements, at most %d players",
                 line_of(*v), a.size(), FW_PHH_MAX_PLAYERS);
        for (size_t i = 0; i < a.size(); i++)
            copy_name(str_of(a[i], "players", err, errsz), out->players[i],
                      sizeof out->players[i]);
        out->nplayers = static_cast<int>(a.size());
        out->has_players = 1;
    }
    if (const value *v = get("actions")) {
        if (!v->is_array())
            fail(err, errsz, FW_EPARSE,
                 "key 'actions' (line %u): expected an array of strings",
                 line_of(*v));
        const auto &a = v->as_array();
        if (a.size() > FW_PHH_MAX_ACTIONS)
            fail(err, errsz, FW_ERANGE,
                 "key 'actions' (line %u): %zu actions, at most %d",
                 line_of(*v), a.size(), FW_PHH_MAX_ACTIONS);
        for (size_t i = 0; i < a.size(); i++) {
            const std::string &s = str_of(a[i], "actions", err, errsz);
            if (s.size() >= FW_PHH_ACTION_MAX)
                fail(err, errsz, FW_ERANGE,
                     "key 'actions' (line %u): action %zu is %zu bytes, at "
                     "most %d",
                     line_of(a[i]), i + 1, s.size(), FW_PHH_ACTION_MAX - 1);
            if (s.find('\0') != s.npos)
                fail(err, errsz, FW_EPARSE,
                     "key 'actions' (line %u): action %zu contains NUL",
                     line_of(a[i]), i + 1);
            std::memcpy(out->actions[i], s.data(), s.size());
            out->actions[i][s.size()] = '\0';
        }
        out->nactions = static_cast<int>(a.size());
        out->has_actions = 1;
    }
}

/* The first line of a toml11 message, without its "[error] " tag. */
std::string first_line(const char *what)
{
    std::string s(what ? what : "");
    size_t nl = s.find('\n');
    if (nl != s.npos)
        s.resize(nl);
    const char tag[] = "[error] ";
    if (s.compare(0, sizeof tag - 1, tag) == 0)
        s.erase(0, sizeof tag - 1);
    return s;
}

} // namespace

extern "C" int fw_phh_toml_read(const char *text, size_t len, fw_phh_doc *out,
                                char *err, size_t errsz)
{
    if (err && errsz > 0)
        err[0] = '\0';
    try {
        if (!text || !out)
            fail(err, errsz, FW_EINVAL, "no document");
        std::memset(out, 0, sizeof *out);
        if (len > FW_PHH_TEXT_MAX)
            fail(err, errsz, FW_ERANGE, "document of %zu bytes, at most %u",
                 len, FW_PHH_TEXT_MAX);
        size_t bad = utf8_bad(text, len);
        if (bad < len)
            fail(err, errsz, FW_EPARSE,
                 "line %u: byte %zu is not valid UTF-8 (TOML is UTF-8)",
                 line_at(text, bad), bad + 1);
        if (!nesting_ok(text, len))
            fail(err, errsz, FW_ERANGE,
                 "arrays or tables nested deeper than %d levels", max_depth);
        value root;
        try {
            std::istringstream is(std::string(text, len));
            root = toml::parse(is, "phh");
        } catch (const toml::exception &e) {
            fail(err, errsz, FW_EPARSE, "TOML error at line %u: %s",
                 static_cast<unsigned>(e.location().line()),
                 first_line(e.what()).c_str());
        }
        read_doc(root, out, err, errsz);
        return FW_OK;
    } catch (const phh_error &e) {
        return e.code;
    } catch (const std::bad_alloc &) {
        if (err && errsz > 0)
            std::snprintf(err, errsz, "out of memory reading TOML");
        return fw_set_error(FW_ENOMEM, "out of memory reading TOML");
    } catch (const std::exception &e) {
        /* toml11 type and range errors: name what it says. */
        std::string m = first_line(e.what());
        if (err && errsz > 0)
            std::snprintf(err, errsz, "TOML error: %s", m.c_str());
        return fw_set_error(FW_EPARSE, "TOML error: %s", m.c_str());
    } catch (...) {
        if (err && errsz > 0)
            std::snprintf(err, errsz, "TOML error");
        return fw_set_error(FW_EINTERNAL, "TOML error");
    }
}
