/* fuzz_record.c — libFuzzer target for the record reader (and the importers).
 * Invariants checked beyond "no crash, no leak, no UB, no hang":
 *  - a record the reader accepts is written back by the writer and read again without error;
 *  - every refusal carries at least one error with a message.
 * The first byte picks the entry: most inputs go to the record reader as they are; inputs whose
 * first byte is 0x01..0x03 go to the ERT, ncu-csv and gbench importers (rest of the input). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rooflab/record.h"

static void roundtrip(rl_record *r) {
    rl_error err = {0};
    char *json = rl_record_write_json(r, 0, &err);
    if (!json) __builtin_trap();
    rl_rec_issues is = {0};
    rl_record *again = NULL;
    if (rl_record_parse(json, strlen(json), &again, &is) != RL_OK || !again) __builtin_trap();
    if (again->point_count != r->point_count) __builtin_trap();
    rl_record_free(again);
    rl_rec_issues_free(&is);
    free(json);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    rl_rec_issues is = {0};
    rl_record *r = NULL;
    if (size > 0 && data[0] >= 1 && data[0] <= 3) {
        rl_import_format f = (rl_import_format)(data[0] - 1);
        rl_status st = rl_record_import(f, (const char *)data + 1, size - 1, NULL, &r, &is);
        if (st == RL_OK) roundtrip(r);
        else if (is.count == 0 || !is.items[0].message[0]) __builtin_trap();
    } else {
        rl_status st = rl_record_parse((const char *)data, size, &r, &is);
        if (st == RL_OK) roundtrip(r);
        else if (is.count == 0 || !is.items[0].message[0]) __builtin_trap();
        char *report = rl_record_check_json((const char *)data, size, 0);
        free(report);
    }
    rl_record_free(r);
    rl_rec_issues_free(&is);
    return 0;
}
