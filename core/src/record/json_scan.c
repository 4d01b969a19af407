/* json_scan.c — a strict RFC 8259 syntax check before cJSON (which is lenient about leading
 * zeros, "1.", raw control characters in strings, NUL bytes...). It also measures the nesting
 * depth without recursion, so cJSON never sees a document deeper than RL_RECORD_MAX_DEPTH. */
#include <stdlib.h>
#include <string.h>

#include "record_internal.h"

typedef enum { WANT_VALUE, WANT_AFTER_VALUE, WANT_KEY_OR_END, WANT_KEY, WANT_VALUE_OR_END } want;

typedef struct scan {
    const unsigned char *t;
    size_t len, i;
    int depth, max_depth;
    unsigned char *stack; /* open containers: '[' or '{'; grows as needed (the text bounds it) */
    size_t top, cap;
} scan;

static void skip_ws(scan *s) {
    while (s->i < s->len &&
           (s->t[s->i] == ' ' || s->t[s->i] == '\t' || s->t[s->i] == '\n' || s->t[s->i] == '\r'))
        s->i++;
}

static int hexval(unsigned char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* A backslash escape at s->i; -1 with s->i at the offending byte. */
static int scan_escape(scan *s) {
    if (s->i + 1 >= s->len) return -1;
    unsigned char e = s->t[s->i + 1];
    if (e == 'u') {
        if (s->i + 6 > s->len) return -1;
        for (size_t k = 2; k < 6; k++)
            if (hexval(s->t[s->i + k]) < 0) {
                s->i += k;
                return -1;
            }
        s->i += 6;
        return 0;
    }
    if (!strchr("\"\\/bfnrt", e) || e == 0) {
        s->i++;
        return -1;
    }
    s->i += 2;
    return 0;
}

static int scan_string(scan *s) {
    s->i++; /* opening quote */
    while (s->i < s->len) {
        unsigned char c = s->t[s->i];
        if (c == '"') {
            s->i++;
            return 0;
        }
        if (c < 0x20) return -1;
        if (c == '\\') {
            if (scan_escape(s)) return -1;
            continue;
        }
        size_t n = rl__utf8_decode(s->t + s->i, s->len - s->i, NULL);
        if (n == 0) return -1;
        s->i += n;
    }
    return -1;
}

static int digits(scan *s) {
    size_t start = s->i;
    while (s->i < s->len && s->t[s->i] >= '0' && s->t[s->i] <= '9') s->i++;
    return s->i > start ? 0 : -1;
}

static int scan_number(scan *s) {
    if (s->t[s->i] == '-') s->i++;
    if (s->i >= s->len) return -1;
    if (s->t[s->i] == '0') s->i++;
    else if (digits(s)) return -1;
    if (s->i < s->len && s->t[s->i] == '.') {
        s->i++;
        if (digits(s)) return -1;
    }
    if (s->i < s->len && (s->t[s->i] == 'e' || s->t[s->i] == 'E')) {
        s->i++;
        if (s->i < s->len && (s->t[s->i] == '+' || s->t[s->i] == '-')) s->i++;
        if (digits(s)) return -1;
    }
    return 0;
}

static int scan_literal(scan *s, const char *word) {
    size_t n = strlen(word);
    if (s->len - s->i < n || memcmp(s->t + s->i, word, n) != 0) return -1;
    s->i += n;
    return 0;
}

/* A string, number, true, false or null at s->i. */
static int scan_scalar(scan *s) {
    unsigned char c = s->t[s->i];
    if (c == '"') return scan_string(s);
    if (c == '-' || (c >= '0' && c <= '9')) return scan_number(s);
    if (scan_literal(s, "true") == 0 || scan_literal(s, "false") == 0) return 0;
    return scan_literal(s, "null");
}

static int push(scan *s, unsigned char c) {
    if (s->top == s->cap) {
        unsigned char *ns = realloc(s->stack, s->cap * 2);
        if (!ns) return -1;
        s->stack = ns;
        s->cap *= 2;
    }
    s->stack[s->top++] = c;
    if (++s->depth > s->max_depth) s->max_depth = s->depth;
    s->i++;
    return 0;
}

static void pop(scan *s) {
    s->top--;
    s->depth--;
    s->i++;
}

/* One step where a value may stand; -1 on a syntax error. */
static int step_value(scan *s, want *w) {
    unsigned char c = s->t[s->i];
    if (*w == WANT_VALUE_OR_END && c == ']') {
        pop(s);
        *w = WANT_AFTER_VALUE;
        return 0;
    }
    if (c == '[' || c == '{') {
        if (push(s, c)) return -1;
        *w = c == '[' ? WANT_VALUE_OR_END : WANT_KEY_OR_END;
        return 0;
    }
    if (scan_scalar(s)) return -1;
    *w = WANT_AFTER_VALUE;
    return 0;
}

/* One step where a key (or the end of an object) may stand. */
static int step_key(scan *s, want *w) {
    unsigned char c = s->t[s->i];
    if (*w == WANT_KEY_OR_END && c == '}') {
        pop(s);
        *w = WANT_AFTER_VALUE;
        return 0;
    }
    if (c != '"' || scan_string(s)) return -1;
    skip_ws(s);
    if (s->i >= s->len || s->t[s->i] != ':') return -1;
    s->i++;
    *w = WANT_VALUE;
    return 0;
}

/* One step after a value: a comma, or the end of its container. */
static int step_after(scan *s, want *w) {
    unsigned char c = s->t[s->i];
    if (s->top == 0) return -1; /* text after the top-level value */
    unsigned char open = s->stack[s->top - 1];
    if (c == ',') {
        s->i++;
        *w = open == '[' ? WANT_VALUE : WANT_KEY;
        return 0;
    }
    if ((c == ']' && open == '[') || (c == '}' && open == '{')) {
        pop(s);
        return 0;
    }
    return -1;
}

int rl__json_scan(const unsigned char *text, size_t len, size_t *at, int *max_depth) {
    scan s = {text, len, 0, 0, 0, malloc(64), 0, 64};
    int rc = -1;
    want w = WANT_VALUE;
    while (s.stack) {
        skip_ws(&s);
        if (s.i >= s.len) {
            if (w == WANT_AFTER_VALUE && s.top == 0) rc = 0;
            break;
        }
        int step = w == WANT_VALUE || w == WANT_VALUE_OR_END ? step_value(&s, &w)
                   : w == WANT_KEY || w == WANT_KEY_OR_END   ? step_key(&s, &w)
                                                             : step_after(&s, &w);
        if (step) break;
    }
    free(s.stack);
    *at = s.i;
    *max_depth = s.max_depth;
    return rc;
}

void rl__line_col(const char *text, size_t len, size_t off, size_t *line, size_t *col) {
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off && i < len; i++) {
        if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= len || text[i + 1] != '\n'))) {
            (*line)++;
            *col = 1;
        } else if (text[i] == '\r') {
            /* the CR of a CRLF: the LF ends the line */
        } else if (((unsigned char)text[i] & 0xC0) != 0x80) {
            (*col)++;
        }
    }
}
