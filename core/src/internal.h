/* internal.h — helpers shared by core's translation units. Not part of the public API. */
#ifndef ROOFLAB_INTERNAL_H
#define ROOFLAB_INTERNAL_H

#include "rooflab/rooflab.h"

/* Fill *err (when not NULL): status, field, and message "FIELD: <formatted text>" (or just the
 * text when field is empty). Returns status, so callers can `return rl__fail(...)`. */
rl_status rl__fail(rl_error *err, rl_status status, const char *field, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Clear *err to RL_OK (when not NULL). */
void rl__ok(rl_error *err);

#endif
