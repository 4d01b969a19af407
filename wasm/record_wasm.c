/* record_wasm.c — the record validator for the page: core's reader, unchanged, behind three
 * exports. No record logic here: it moves bytes in and a JSON report out.
 *
 *   rlw_record_check(ptr, len) → malloc'd NUL-terminated JSON report (rl_record_check_json):
 *       { ok, errors, warnings, issues: [{severity, path, message}], record: {... "derived" ...} }
 *     or 0 when out of memory. The caller frees it with _free.
 *   rlw_record_max_bytes(), rlw_record_max_points() → the stated limits, checked by the page
 *     before it reads a file. */
#include <emscripten/emscripten.h>
#include <stddef.h>

#include "rooflab/record.h"

EMSCRIPTEN_KEEPALIVE char *rlw_record_check(const char *text, size_t len) {
    return rl_record_check_json(text, len, 0);
}

EMSCRIPTEN_KEEPALIVE double rlw_record_max_bytes(void) { return (double)RL_RECORD_MAX_FILE_BYTES; }

EMSCRIPTEN_KEEPALIVE int rlw_record_max_points(void) { return RL_RECORD_MAX_POINTS; }
