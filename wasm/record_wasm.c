/* record_wasm.c — the record validator for the page: core's reader, unchanged, behind three
 * exports. No record logic here: it moves bytes in and a JSON report out.
 *
 *   rlw_record_check(ptr, len) → malloc'd NUL-terminated JSON report (rl_record_check_json):
 *       { ok, errors, warnings, issues: [{severity, path, message}], record: {... "derived" ...} }
 *     or 0 when out of memory. The caller frees it with _free.
 *   rlw_record_limit_count(), rlw_record_limit_key(i), rlw_record_limit(i) → the stated limits
 *     by name ("max_file_bytes", "max_points", "max_depth", "max_string"), checked by the page
 *     before it reads a file. */
#include <emscripten/emscripten.h>
#include <stddef.h>

#include "rooflab/record.h"

EMSCRIPTEN_KEEPALIVE char *rlw_record_check(const char *text, size_t len) {
    return rl_record_check_json(text, len, 0);
}

/* The stated limits, by name, for the page to check and to print (formatted by core's units). */
#define RLW_RECORD_LIMITS(X)                                                                       \
    X("max_file_bytes", RL_RECORD_MAX_FILE_BYTES)                                                  \
    X("max_points", RL_RECORD_MAX_POINTS)                                                          \
    X("max_depth", RL_RECORD_MAX_DEPTH)                                                            \
    X("max_string", RL_RECORD_MAX_STRING)

static const char *const rlw_limit_keys[] = {
#define RLW_X_KEY(key, value) key,
    RLW_RECORD_LIMITS(RLW_X_KEY)
#undef RLW_X_KEY
};
static const double rlw_limit_values[] = {
#define RLW_X_VALUE(key, value) (double)(value),
    RLW_RECORD_LIMITS(RLW_X_VALUE)
#undef RLW_X_VALUE
};
#define RLW_LIMIT_COUNT ((int)(sizeof rlw_limit_keys / sizeof rlw_limit_keys[0]))

EMSCRIPTEN_KEEPALIVE int rlw_record_limit_count(void) { return RLW_LIMIT_COUNT; }
EMSCRIPTEN_KEEPALIVE const char *rlw_record_limit_key(int i) {
    return (i >= 0 && i < RLW_LIMIT_COUNT) ? rlw_limit_keys[i] : "";
}
EMSCRIPTEN_KEEPALIVE double rlw_record_limit(int i) {
    return (i >= 0 && i < RLW_LIMIT_COUNT) ? rlw_limit_values[i] : 0;
}
