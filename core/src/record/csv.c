/* csv.c — CSV rows (RFC 4180: quotes, doubled quotes, CRLF): enough for ncu's export. Cells are
 * kept as bytes; the importer cleans what it keeps (rl__set_clean). */
#include <stdlib.h>
#include <string.h>

#include "record_internal.h"

/* A cell longer than this is refused (ncu's longest are demangled kernel names). */
#define CSV_MAX_CELL_BYTES ((size_t)RL_RECORD_MAX_STRING * 4)

typedef struct cell {
    char *buf;
    size_t len, cap;
} cell;

static int cell_put(cell *c, char ch) {
    if (c->len + 2 > c->cap) {
        if (c->cap > CSV_MAX_CELL_BYTES) return -1;
        char *nb = realloc(c->buf, c->cap * 2);
        if (!nb) return -1;
        c->buf = nb;
        c->cap *= 2;
    }
    c->buf[c->len++] = ch;
    return 0;
}

/* One cell starting at *pos, up to (not past) the comma or line end. A malloc'd string, or NULL
 * on OOM, an over-long cell or an unterminated quote. */
static char *read_cell(const char *t, size_t len, size_t *pos) {
    size_t i = *pos;
    cell c = {malloc(32), 0, 32};
    if (!c.buf) return NULL;
    int quoted = i < len && t[i] == '"';
    if (quoted) i++;
    for (;;) {
        if (i >= len) {
            if (quoted) goto fail;
            break;
        }
        char ch = t[i];
        if (quoted && ch == '"' && i + 1 < len && t[i + 1] == '"') {
            i += 2; /* a doubled quote is one quote */
        } else if (quoted && ch == '"') {
            i++;
            quoted = 0;
            continue;
        } else if (!quoted && (ch == ',' || ch == '\n' || ch == '\r')) {
            break;
        } else {
            i++;
        }
        if (cell_put(&c, ch)) goto fail;
    }
    c.buf[c.len] = '\0';
    *pos = i;
    return c.buf;
fail:
    free(c.buf);
    return NULL;
}

static int push_cell(rl__csv_row *row, size_t *cap, char *text) {
    if (row->n == *cap) {
        size_t ncap = *cap ? *cap * 2 : 16;
        char **nc = realloc(row->cells, ncap * sizeof *nc);
        if (!nc) return -1;
        row->cells = nc;
        *cap = ncap;
    }
    row->cells[row->n++] = text;
    return 0;
}

int rl__csv_next(const char *t, size_t len, size_t *pos, rl__csv_row *row) {
    size_t i = *pos, cap = 0;
    if (i >= len) return 0;
    row->n = 0;
    row->cells = NULL;
    for (;;) {
        char *c = read_cell(t, len, &i);
        if (!c || push_cell(row, &cap, c)) {
            free(c);
            rl__csv_free(row);
            return -1;
        }
        if (i < len && t[i] == ',') {
            i++;
            continue;
        }
        if (i < len && t[i] == '\r') i++;
        if (i < len && t[i] == '\n') i++;
        break;
    }
    *pos = i;
    return 1;
}

void rl__csv_free(rl__csv_row *row) {
    for (size_t i = 0; i < row->n; i++) free(row->cells[i]);
    free(row->cells);
    row->cells = NULL;
    row->n = 0;
}

int rl__csv_find(const rl__csv_row *row, const char *name) {
    for (size_t i = 0; i < row->n; i++)
        if (strcmp(row->cells[i], name) == 0) return (int)i;
    return -1;
}
