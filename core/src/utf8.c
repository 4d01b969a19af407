/* utf8.c — core's one UTF-8 decoder and the clip built on it: messages quote a value cut on a
 * character boundary ("%.*s" with RL__QUOTE), never inside a character. The record library's
 * string checks and cleaning (record/utf8.c) build on the same decoder. */
#include <stdio.h>
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

/* Characters a reader cannot see or that change how the rest of a line reads: every Unicode space
 * other than U+0020, zero-width and joiner characters, direction marks, embeddings, overrides and
 * isolates, line and paragraph separators, soft hyphen, C1 controls, tag characters. Names from
 * the Unicode Character Database (UnicodeData.txt); ranges with one family name. */
static const struct {
    uint32_t lo, hi;
    const char *name;
} invisible[] = {
    {0x0080, 0x009F, "C1 CONTROL"},
    {0x00A0, 0x00A0, "NO-BREAK SPACE"},
    {0x00AD, 0x00AD, "SOFT HYPHEN"},
    {0x034F, 0x034F, "COMBINING GRAPHEME JOINER"},
    {0x061C, 0x061C, "ARABIC LETTER MARK"},
    {0x115F, 0x1160, "HANGUL FILLER"},
    {0x1680, 0x1680, "OGHAM SPACE MARK"},
    {0x180E, 0x180E, "MONGOLIAN VOWEL SEPARATOR"},
    {0x2000, 0x2000, "EN QUAD"},
    {0x2001, 0x2001, "EM QUAD"},
    {0x2002, 0x2002, "EN SPACE"},
    {0x2003, 0x2003, "EM SPACE"},
    {0x2004, 0x2004, "THREE-PER-EM SPACE"},
    {0x2005, 0x2005, "FOUR-PER-EM SPACE"},
    {0x2006, 0x2006, "SIX-PER-EM SPACE"},
    {0x2007, 0x2007, "FIGURE SPACE"},
    {0x2008, 0x2008, "PUNCTUATION SPACE"},
    {0x2009, 0x2009, "THIN SPACE"},
    {0x200A, 0x200A, "HAIR SPACE"},
    {0x200B, 0x200B, "ZERO WIDTH SPACE"},
    {0x200C, 0x200C, "ZERO WIDTH NON-JOINER"},
    {0x200D, 0x200D, "ZERO WIDTH JOINER"},
    {0x200E, 0x200E, "LEFT-TO-RIGHT MARK"},
    {0x200F, 0x200F, "RIGHT-TO-LEFT MARK"},
    {0x2028, 0x2028, "LINE SEPARATOR"},
    {0x2029, 0x2029, "PARAGRAPH SEPARATOR"},
    {0x202A, 0x202A, "LEFT-TO-RIGHT EMBEDDING"},
    {0x202B, 0x202B, "RIGHT-TO-LEFT EMBEDDING"},
    {0x202C, 0x202C, "POP DIRECTIONAL FORMATTING"},
    {0x202D, 0x202D, "LEFT-TO-RIGHT OVERRIDE"},
    {0x202E, 0x202E, "RIGHT-TO-LEFT OVERRIDE"},
    {0x202F, 0x202F, "NARROW NO-BREAK SPACE"},
    {0x205F, 0x205F, "MEDIUM MATHEMATICAL SPACE"},
    {0x2060, 0x2060, "WORD JOINER"},
    {0x2061, 0x2064, "INVISIBLE OPERATOR"},
    {0x2066, 0x2066, "LEFT-TO-RIGHT ISOLATE"},
    {0x2067, 0x2067, "RIGHT-TO-LEFT ISOLATE"},
    {0x2068, 0x2068, "FIRST STRONG ISOLATE"},
    {0x2069, 0x2069, "POP DIRECTIONAL ISOLATE"},
    {0x206A, 0x206F, "DEPRECATED FORMAT CHARACTER"},
    {0x3000, 0x3000, "IDEOGRAPHIC SPACE"},
    {0x3164, 0x3164, "HANGUL FILLER"},
    {0xFE00, 0xFE0F, "VARIATION SELECTOR"},
    {0xFEFF, 0xFEFF, "ZERO WIDTH NO-BREAK SPACE"},
    {0xFFA0, 0xFFA0, "HALFWIDTH HANGUL FILLER"},
    {0xFFF9, 0xFFFB, "INTERLINEAR ANNOTATION CHARACTER"},
    {0x1BCA0, 0x1BCA3, "SHORTHAND FORMAT CONTROL"},
    {0x1D173, 0x1D17A, "MUSICAL SYMBOL FORMAT CHARACTER"},
    {0xE0000, 0xE007F, "TAG CHARACTER"},
    {0xE0100, 0xE01EF, "VARIATION SELECTOR"},
};

const char *rl_char_invisible_name(uint32_t cp) {
    if (cp < 0x80) return NULL;
    for (size_t k = 0; k < sizeof invisible / sizeof invisible[0]; k++)
        if (cp >= invisible[k].lo && cp <= invisible[k].hi) return invisible[k].name;
    if ((cp & 0xFFFE) == 0xFFFE || (cp >= 0xFDD0 && cp <= 0xFDEF)) return "NONCHARACTER";
    return NULL;
}

/* The printable form of the character at s[0 .. avail) in `out`; *used = the bytes of s it
 * stands for. Returns the length of the form. */
static size_t escape_one(const unsigned char *s, size_t avail, char out[64], size_t *used) {
    uint32_t cp = 0;
    size_t n = rl__utf8_decode(s, avail, &cp);
    *used = n ? n : 1;
    if (n == 0) return (size_t)snprintf(out, 64, "\\x%02x", s[0]);
    if (cp == '\n') return (size_t)snprintf(out, 64, "\\n");
    if (cp == '\r') return (size_t)snprintf(out, 64, "\\r");
    if (cp == '\t') return (size_t)snprintf(out, 64, "\\t");
    if (cp < 0x20 || cp == 0x7F) return (size_t)snprintf(out, 64, "\\x%02x", (unsigned)cp);
    const char *name = rl_char_invisible_name(cp);
    if (name) return (size_t)snprintf(out, 64, "<U+%04X %s>", (unsigned)cp, name);
    memcpy(out, s, n);
    out[n] = '\0';
    return n;
}

size_t rl_text_escape_n(char *dst, size_t cap, const char *src, size_t len) {
    if (!dst || cap == 0) return 0;
    dst[0] = '\0';
    if (!src) return 0;
    const unsigned char *u = (const unsigned char *)src;
    size_t i = 0, o = 0;
    /* room kept for "..." once the text no longer fits */
    size_t room = cap > 4 ? cap - 4 : 0;
    while (i < len) {
        char form[64];
        size_t used = 0, n = escape_one(u + i, len - i, form, &used);
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

size_t rl_text_escape(char *dst, size_t cap, const char *src) {
    return rl_text_escape_n(dst, cap, src, src ? strlen(src) : 0);
}

size_t rl_text_length(const char *s) {
    if (!s) return 0;
    const unsigned char *u = (const unsigned char *)s;
    size_t len = strlen(s), i = 0, chars = 0;
    while (i < len) {
        size_t n = rl__utf8_decode(u + i, len - i, NULL);
        i += n ? n : 1;
        chars++;
    }
    return chars;
}

size_t rl_utf8_next(const char *s, size_t avail, uint32_t *cp) {
    return s ? rl__utf8_decode((const unsigned char *)s, avail, cp) : 0;
}
