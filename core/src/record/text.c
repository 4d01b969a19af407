/* text.c — one sanitising writer for everything printed: text from argv, records and other
 * tools' files made into one line of printable, valid UTF-8 (control characters escaped, bytes
 * that are not UTF-8 shown as \xHH, clipped on a character boundary with "..."), and a plain
 * UTF-8 cleaner for text that goes into JSON (cJSON escapes control characters itself, but not
 * invalid bytes). Built on utf8.c's decoder. */
#include <stdio.h>
#include <string.h>

#include "record_internal.h"

/* Code points a terminal or a reader takes as a line break, a control sequence or a change of
 * text direction: shown as \uXXXX. */
static int escaped_code_point(uint32_t cp) {
    return (cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 ||
           (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0xFEFF;
}

/* The printable form of the character at s[0 .. avail) in `out` (at most 11 bytes + NUL);
 * *used = the bytes of s it stands for. Returns the length of the form. */
static size_t one_char(const unsigned char *s, size_t avail, char out[12], size_t *used) {
    uint32_t cp = 0;
    size_t n = rl__utf8_decode(s, avail, &cp);
    *used = n ? n : 1;
    if (n == 0) return (size_t)snprintf(out, 12, "\\x%02x", s[0]);
    if (cp == '\n') return (size_t)snprintf(out, 12, "\\n");
    if (cp == '\r') return (size_t)snprintf(out, 12, "\\r");
    if (cp == '\t') return (size_t)snprintf(out, 12, "\\t");
    if (cp < 0x20 || cp == 0x7F) return (size_t)snprintf(out, 12, "\\x%02x", (unsigned)cp);
    if (escaped_code_point(cp)) return (size_t)snprintf(out, 12, "\\u%04X", (unsigned)cp);
    memcpy(out, s, n);
    out[n] = '\0';
    return n;
}

size_t rl_text_escape(char *dst, size_t cap, const char *src) {
    if (!dst || cap == 0) return 0;
    dst[0] = '\0';
    if (!src) return 0;
    const unsigned char *u = (const unsigned char *)src;
    size_t len = strlen(src), i = 0, o = 0;
    /* room kept for "..." once the text no longer fits */
    size_t room = cap > 4 ? cap - 4 : 0;
    while (i < len) {
        char form[12];
        size_t used = 0, n = one_char(u + i, len - i, form, &used);
        int last = i + used >= len;
        if (o + n > (last ? cap - 1 : room)) {
            if (cap >= 4) {
                if (o > room) o = room;
                memcpy(dst + o, "...", 3);
                o += 3;
            }
            break;
        }
        memcpy(dst + o, form, n);
        o += n;
        i += used;
    }
    dst[o] = '\0';
    return o;
}

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
