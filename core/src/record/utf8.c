/* utf8.c — what the record library builds on core's one UTF-8 decoder (core/src/utf8.c): the
 * string check (valid, at most RL_RECORD_MAX_STRING characters) and cleaning other tools' text. */
#include <string.h>

#include "record_internal.h"

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
