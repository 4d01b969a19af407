/* utf8.c — the record library's one UTF-8 decoder, and what is built on it: the string check
 * (valid, at most RL_RECORD_MAX_STRING characters), cleaning other tools' text, clipping. */
#include <string.h>

#include "record_internal.h"

size_t rl__utf8_decode(const unsigned char *s, size_t avail, uint32_t *cp) {
    if (avail == 0) return 0;
    unsigned char c = s[0];
    size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (n == 0 || n > avail) return 0;
    uint32_t v = n == 1 ? c : (uint32_t)(c & (0x7F >> n));
    for (size_t k = 1; k < n; k++) {
        if ((s[k] & 0xC0) != 0x80) return 0;
        v = (v << 6) | (uint32_t)(s[k] & 0x3F);
    }
    static const uint32_t shortest[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (v < shortest[n] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
    if (cp) *cp = v;
    return n;
}

size_t rl__utf8_clean(char *dst, const char *src, size_t max_chars) {
    const unsigned char *u = (const unsigned char *)src;
    size_t len = strlen(src), i = 0, o = 0;
    for (size_t chars = 0; i < len && chars < max_chars; chars++) {
        size_t n = rl__utf8_decode(u + i, len - i, NULL);
        if (n == 0) {
            dst[o++] = '?';
            i++;
        } else {
            memmove(dst + o, u + i, n);
            o += n;
            i += n;
        }
    }
    dst[o] = '\0';
    return o;
}

size_t rl__utf8_clip(const char *s, size_t max_bytes) {
    const unsigned char *u = (const unsigned char *)s;
    size_t len = strlen(s), i = 0;
    while (i < len) {
        size_t n = rl__utf8_decode(u + i, len - i, NULL);
        if (n == 0) n = 1;
        if (i + n > max_bytes) break;
        i += n;
    }
    return i;
}

const char *rl__string_problem(const char *s) {
    const unsigned char *u = (const unsigned char *)s;
    size_t len = strlen(s), chars = 0;
    for (size_t i = 0; i < len; chars++) {
        size_t n = rl__utf8_decode(u + i, len - i, NULL);
        if (n == 0) return "not valid UTF-8";
        i += n;
    }
    return chars > RL_RECORD_MAX_STRING ? "too long" : NULL;
}

int rl__check_string(rl_rec_issues *issues, const char *path, const char *s) {
    if (!s) return 0;
    const char *problem = rl__string_problem(s);
    if (!problem) return 0;
    if (strcmp(problem, "too long") == 0)
        return rl__issue(issues, RL_REC_ERROR, RL_ERR_RANGE, path,
                         "expected a string of at most %d characters, got a longer one",
                         RL_RECORD_MAX_STRING);
    return rl__issue(issues, RL_REC_ERROR, RL_ERR_INVALID, path,
                     "expected a string of valid UTF-8, got invalid bytes");
}
