/* utf8.c — core's one UTF-8 decoder and the clip built on it: messages quote a value cut on a
 * character boundary ("%.*s" with RL__QUOTE), never inside a character. The record library's
 * string checks and cleaning (record/utf8.c) build on the same decoder. */
#include <string.h>

#include "internal.h"

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
