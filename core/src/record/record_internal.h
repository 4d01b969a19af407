/* record_internal.h — shared by core/src/record*.c only (not installed, not public). */
#ifndef ROOFLAB_RECORD_INTERNAL_H
#define ROOFLAB_RECORD_INTERNAL_H

#include <stdarg.h>

#include "rooflab/record.h"

/* Append an issue "PATH: MESSAGE" (MESSAGE printf-style). `path` may be "" (document level:
 * the message then stands alone). Returns -1 for errors, 0 for warnings, for convenience. */
int rl__issue(rl_rec_issues *issues, rl_rec_severity severity, rl_status status, const char *path,
              const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Copy of `n` bytes of `s` into a new NUL-terminated malloc'd string; NULL when out of memory. */
char *rl__strndup(const char *s, size_t n);

/* Record's first error status in `issues` after index `from` (RL_OK when none). */
rl_status rl__first_error(const rl_rec_issues *issues, size_t errors_before);

/* Valid UTF-8 of at most RL_RECORD_MAX_STRING code points? NULL, or "not valid UTF-8" / "too
 * long". */
const char *rl__string_problem(const char *s);
/* Starts with YYYY-MM-DD. */
int rl__date_ok(const char *d);
/* Copy `text` into *slot replacing invalid UTF-8 with '?' and clipping to RL_RECORD_MAX_STRING
 * characters: importers take strings from other tools' files. 0 or -1 (out of memory). */
int rl__set_clean(char **slot, const char *text);

#endif
