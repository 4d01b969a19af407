/* fuzz_import.c — libFuzzer target for one importer, chosen at compile time with
 * -DRL_FUZZ_FORMAT=RL_IMPORT_NCU_CSV (or RL_IMPORT_GBENCH, RL_IMPORT_ERT, RL_IMPORT_TORCH_TRACE,
 * RL_IMPORT_NSYS_CSV, RL_IMPORT_TRITON_CSV); run.sh builds fuzz_ncu, fuzz_gbench, fuzz_ert,
 * fuzz_torch, fuzz_nsys and fuzz_triton from it. Invariants beyond "no crash, leak, UB or hang":
 *  - an accepted import is written by the writer, within the reader's size limit, and read back
 *    with the same number of points;
 *  - every refusal carries an error with a message;
 *  - every issue's message, escaped by rl_text_escape, is one line of valid UTF-8. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rooflab/record.h"

#ifndef RL_FUZZ_FORMAT
#define RL_FUZZ_FORMAT RL_IMPORT_NCU_CSV
#endif

static void roundtrip(rl_record *r) {
    rl_error err = {0};
    char *json = rl_record_write_json(r, 1, &err);
    if (!json || strlen(json) >= RL_RECORD_MAX_FILE_BYTES) __builtin_trap();
    rl_rec_issues is = {0};
    rl_record *again = NULL;
    if (rl_record_parse(json, strlen(json), &again, &is) != RL_OK || !again) __builtin_trap();
    if (again->point_count != r->point_count) __builtin_trap();
    rl_record_free(again);
    rl_rec_issues_free(&is);
    free(json);
}

static void one_line(const char *msg) {
    char line[4 * RL_REC_MESSAGE_MAX];
    rl_text_escape(line, sizeof line, msg);
    for (const char *c = line; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    rl_rec_issues is = {0};
    rl_record *r = NULL;
    rl_import_opts o = {0};
    o.preset = "h100-sxm";
    o.problem_given = ~0u; /* the problem counted as given, so that the whole import runs */
    /* triton-csv: half the inputs with --unit, half with the header's own unit (or none) */
    if (RL_FUZZ_FORMAT == RL_IMPORT_TRITON_CSV && size % 2) o.unit = "TFLOP/s";
    rl_status st = rl_record_import(RL_FUZZ_FORMAT, (const char *)data, size, &o, &r, &is);
    if (st == RL_OK) roundtrip(r);
    else if (is.count == 0 || !is.items[0].message[0]) __builtin_trap();
    for (size_t i = 0; i < is.count; i++) one_line(is.items[i].message);
    rl_record_free(r);
    rl_rec_issues_free(&is);
    /* what the page reads of the same file before asking (kernel-name hints): any text */
    rl_problem h;
    unsigned given;
    char what[256];
    size_t found = rl_import_hints((const char *)data, size, &h, &given, what, sizeof what);
    if ((found == 0) != (given == 0) || (found && h.head_dim <= 0)) __builtin_trap();
    one_line(what);
    return 0;
}
