/* json_out.c — the CLI's one JSON writer for nested output: dotted names ("models.tiled.bytes")
 * become nested objects, a segment of digits an array index; core's report-output table
 * (rl_output_*) drives `rooflab eval --json` through it. Strings go through cli_json_string. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cli_json_number(FILE *out, double v) {
    if (!isfinite(v)) {
        fputs("null", out);
        return;
    }
    char buf[40];
    for (int prec = 15; prec <= 17; prec++) { /* the shortest form that reads back as v */
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) break;
    }
    fputs(buf, out);
}

static int is_index(const char *seg) {
    if (!seg[0]) return 0;
    for (const char *c = seg; *c; c++)
        if (*c < '0' || *c > '9') return 0;
    return 1;
}

/* Split `path` into at most CLI_JSON_DEPTH segments of `buf`; the count. */
static int split(const char *path, char buf[CLI_JSON_DEPTH][CLI_JSON_NAME], int limit) {
    int n = 0;
    const char *p = path;
    while (*p && n < CLI_JSON_DEPTH && n < limit) {
        size_t len = strcspn(p, ".");
        snprintf(buf[n], CLI_JSON_NAME, "%.*s", (int)len, p);
        n++;
        p += len;
        if (*p == '.') p++;
    }
    return n;
}

static void indent(cli_json *j, int level) {
    if (j->compact) return;
    fputc('\n', j->out);
    for (int i = 0; i <= level; i++) fputs("  ", j->out);
}

/* A separator and, in an object, the key of a new child at `level` (0 = the root object). */
static void child(cli_json *j, int level, const char *key) {
    if (j->count[level]++) fputc(',', j->out);
    if (level < 2 && !j->compact) indent(j, level);
    else if (j->count[level] > 1) fputc(' ', j->out);
    if (!j->is_array[level]) {
        cli_json_string(j->out, key);
        fputs(": ", j->out);
    }
}

static void close_to(cli_json *j, int depth) {
    while (j->depth > depth) {
        fputc(j->is_array[j->depth] ? ']' : '}', j->out);
        j->depth--;
    }
}

void cli_json_begin(cli_json *j, FILE *out) {
    memset(j, 0, sizeof *j);
    j->out = out;
    fputc('{', out);
}

void cli_json_begin_array(cli_json *j, FILE *out) {
    memset(j, 0, sizeof *j);
    j->out = out;
    j->is_array[0] = 1;
    fputc('[', out);
}

void cli_json_at(cli_json *j, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(j->at, sizeof j->at, fmt, ap);
    va_end(ap);
}

/* The key of a value writer: the prefix and the path. */
static FILE *key_at(cli_json *j, const char *path) {
    char full[CLI_JSON_DEPTH * CLI_JSON_NAME];
    snprintf(full, sizeof full, "%s%s", j->at, path);
    cli_json_key(j, full, 0);
    return j->out;
}

void cli_json_num(cli_json *j, const char *path, double v) { cli_json_number(key_at(j, path), v); }
void cli_json_num_pos(cli_json *j, const char *path, double v) {
    if (v > 0) cli_json_num(j, path, v);
    else cli_json_null(j, path);
}
void cli_json_int(cli_json *j, const char *path, long long v) { fprintf(key_at(j, path), "%lld", v); }
void cli_json_int_pos(cli_json *j, const char *path, long long v) {
    if (v > 0) cli_json_int(j, path, v);
    else cli_json_null(j, path);
}
void cli_json_str(cli_json *j, const char *path, const char *s) {
    if (s) cli_json_string(key_at(j, path), s);
    else cli_json_null(j, path);
}
void cli_json_bool(cli_json *j, const char *path, int b) { fputs(b ? "true" : "false", key_at(j, path)); }
void cli_json_null(cli_json *j, const char *path) { fputs("null", key_at(j, path)); }
void cli_json_raw(cli_json *j, const char *path, const char *json) { fputs(json, key_at(j, path)); }

void cli_json_key(cli_json *j, const char *path, int segments) {
    char seg[CLI_JSON_DEPTH][CLI_JSON_NAME];
    int n = split(path, seg, segments > 0 ? segments : CLI_JSON_DEPTH);
    int common = 0; /* open containers that are this path's parents */
    while (common < j->depth && common < n - 1 && strcmp(j->open[common + 1], seg[common]) == 0) common++;
    close_to(j, common);
    for (int k = common; k < n - 1; k++) {
        child(j, j->depth, seg[k]);
        j->depth++;
        snprintf(j->open[j->depth], CLI_JSON_NAME, "%s", seg[k]);
        j->is_array[j->depth] = is_index(seg[k + 1]);
        j->count[j->depth] = 0;
        fputc(j->is_array[j->depth] ? '[' : '{', j->out);
    }
    child(j, j->depth, seg[n - 1]);
}

void cli_json_end(cli_json *j) {
    close_to(j, 0);
    if (j->compact) fputs(j->is_array[0] ? "]\n" : "}\n", j->out);
    else fputs(j->is_array[0] ? "\n]\n" : "\n}\n", j->out);
}

void cli_json_problem(cli_json *j, const char *prefix, const rl_problem *p) {
    for (int f = 0; f < RL_PROBLEM_FIELD_COUNT; f++) {
        const rl_field_info *fi = rl_problem_field_info((rl_problem_field)f);
        char path[128], text[RL_KV_LENS_MAX * 24]; /* kv_lens: up to 64 "LENxCOUNT," */
        snprintf(path, sizeof path, "%s%s", prefix, fi->key);
        rl_problem_value_text(p, (rl_problem_field)f, text, sizeof text);
        cli_json_key(j, path, 0);
        if (fi->type == RL_FTYPE_DTYPE || fi->type == RL_FTYPE_PASS || fi->type == RL_FTYPE_LENS)
            cli_json_string(j->out, text); /* kv_lens as its text ("512,4096x3"; "" off) */
        else fputs(text, j->out); /* an integer, or true / false */
    }
}

void cli_json_outputs(cli_json *j, const rl_output_view *view) {
    char cut[256] = ""; /* the last path written as null or left out */
    for (size_t i = 0; i < rl_output_count(); i++) {
        const rl_output_info *info = rl_output_info_at(i);
        const rl_output_value v = rl_output_get(i, view);
        if (v.state != RL_OUTV_VALUE) {
            char prefix[256];
            const char *p = info->name;
            for (int s = 0; s < v.depth && *p; s++) p += strcspn(p, ".") + (p[strcspn(p, ".")] == '.');
            snprintf(prefix, sizeof prefix, "%.*s", (int)(p - info->name), info->name);
            if (strcmp(prefix, cut) == 0) continue;
            snprintf(cut, sizeof cut, "%s", prefix);
            if (v.state == RL_OUTV_NULL) {
                cli_json_key(j, info->name, v.depth);
                fputs("null", j->out);
            }
            continue;
        }
        cli_json_key(j, info->name, 0);
        switch (info->kind) {
        case RL_OUT_BOOL: fputs(v.number != 0 ? "true" : "false", j->out); break;
        case RL_OUT_LENS: { /* [[length, count], ...] */
            const rl_kv_lens *l = &view->report->work.problem.kv_lens;
            fputc('[', j->out);
            for (int k = 0; k < l->n; k++)
                fprintf(j->out, "%s[%lld, %lld]", k ? ", " : "", (long long)l->pair[k].len,
                        (long long)l->pair[k].count);
            fputc(']', j->out);
            break;
        }
        case RL_OUT_NAME:
        case RL_OUT_TEXT: cli_json_string(j->out, v.text ? v.text : ""); break;
        default: cli_json_number(j->out, v.number); break;
        }
    }
}

/* "sequences": one object per length of the batch, its columns from core's row table. */
void cli_json_sequences(cli_json *j, const rl_workload *w) {
    cli_json_key(j, "sequences", 0);
    fputc('[', j->out);
    for (int g = 0; g < w->seq_groups; g++) {
        fputs(g ? ",\n    {" : "\n    {", j->out);
        for (size_t c = 0; c < rl_seq_output_count(); c++) {
            fprintf(j->out, "%s", c ? ", " : "");
            cli_json_string(j->out, rl_seq_output_info_at(c)->name);
            fputs(": ", j->out);
            cli_json_number(j->out, rl_seq_output_get(c, &w->seqs[g]));
        }
        fputc('}', j->out);
    }
    fputs("\n  ]", j->out);
}
