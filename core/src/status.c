/* status.c — status texts and the error-filling helper. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

static const char *const status_texts[RL_STATUS_COUNT] = {
#define RL_X_TEXT(name, text) text,
    RL_STATUS_XMACRO(RL_X_TEXT)
#undef RL_X_TEXT
};

const char *rl_status_text(rl_status status) {
    if ((int)status < 0 || status >= RL_STATUS_COUNT) return "unknown status";
    return status_texts[status];
}

void rl__ok(rl_error *err) {
    if (!err) return;
    err->status = RL_OK;
    err->field[0] = '\0';
    err->message[0] = '\0';
}

rl_status rl_error_fail(rl_error *err, rl_status status, const char *field, const char *fmt, ...) {
    if (!err) return status;
    err->status = status;
    if (!field) field = "";
    snprintf(err->field, sizeof err->field, "%s", field);
    size_t used = 0;
    if (field[0]) {
        int n = snprintf(err->message, sizeof err->message, "%s: ", field);
        used = n < 0 ? 0 : (size_t)n;
        if (used >= sizeof err->message) used = sizeof err->message - 1;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message + used, sizeof err->message - used, fmt, ap);
    va_end(ap);
    return status;
}

size_t rl__choices_text(const char *const *names, size_t count, char *buf, size_t cap) {
    size_t n = 0, listed = 0, shown = 0;
    for (size_t i = 0; i < count; i++) listed += names[i] && names[i][0];
    if (cap) buf[0] = '\0';
    if (listed > 2) n += (size_t)snprintf(buf, cap, "one of ");
    for (size_t i = 0; i < count; i++) {
        if (!names[i] || !names[i][0]) continue;
        const char *sep = shown == 0 ? "" : (listed > 2 ? ", " : " or ");
        int w = snprintf(buf + (n < cap ? n : cap), n < cap ? cap - n : 0, "%s%s", sep, names[i]);
        if (w > 0) n += (size_t)w;
        shown++;
    }
    return n;
}
