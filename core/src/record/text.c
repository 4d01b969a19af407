/* text.c — one sanitising writer for everything printed: text from argv, records and other
 * tools' files made into one line of printable, valid UTF-8 (control characters escaped, bytes
 * that are not UTF-8 shown as \xHH, clipped on a character boundary with "..."), and a plain
 * UTF-8 cleaner for text that goes into JSON (cJSON escapes control characters itself, but not
 * invalid bytes). Built on utf8.c's decoder. */
#include <string.h>

#include "record_internal.h"

/* rl_text_escape, the one escaper, lives in core/src/utf8.c beside the decoder (the model library
 * needs it for its own messages); the clip and the JSON cleaner are here. */

size_t rl_text_clip(const char *s, size_t max_bytes) { return s ? rl__utf8_clip(s, max_bytes) : 0; }

size_t rl_text_utf8(char *dst, size_t cap, const char *src) {
    if (!dst || cap == 0) return 0;
    dst[0] = '\0';
    if (!src) return 0;
    const unsigned char *u = (const unsigned char *)src;
    size_t len = strlen(src), i = 0, o = 0;
    while (i < len) {
        size_t n = rl__utf8_decode(u + i, len - i, NULL);
        size_t w = n ? n : 1;
        if (o + w + 1 > cap) break;
        if (n)
            memcpy(dst + o, u + i, n);
        else
            dst[o] = '?';
        o += w;
        i += n ? n : 1;
    }
    dst[o] = '\0';
    return o;
}
