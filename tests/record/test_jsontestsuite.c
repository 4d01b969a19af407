#define _POSIX_C_SOURCE 200809L
/* test_jsontestsuite.c — every file of the JSONTestSuite corpus (test_parsing/) is refused as a
 * record with a clear message, without a crash or a hang (ctest's TIMEOUT guards the hang):
 *   y_*  valid JSON  → "valid JSON, not a record: ..."
 *   n_*  invalid     → "not valid JSON at line L, column C" (the reader checks RFC 8259 strictly
 *                      before cJSON, which alone would accept 16 of them; any n_ file taken for
 *                      valid JSON is a failure)
 *   i_*  either      → one of the two (or the nesting limit, for 500 nested arrays)
 * Usage: test_jsontestsuite DIR (DIR = tests/data/jsontestsuite). A missing corpus FAILS. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rooflab/record.h"

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/test_parsing", argv[1]);
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "FAIL: the JSONTestSuite corpus is missing at %s (it is committed under "
                        "tests/data/jsontestsuite)\n", dir);
        return 1;
    }
    size_t files = 0, y = 0, n = 0, i = 0, n_lenient = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 6 || strcmp(e->d_name + l - 5, ".json") != 0) continue;
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        CHECK(f != NULL);
        if (!f) continue;
        fseek(f, 0, SEEK_END);
        long len = ftell(f);
        fseek(f, 0, SEEK_SET);
        char *buf = malloc((size_t)len + 1);
        size_t got = fread(buf, 1, (size_t)len, f);
        fclose(f);
        CHECK(got == (size_t)len);
        rl_rec_issues is = {0};
        rl_record *r = NULL;
        rl_status st = rl_record_parse(buf, got, &r, &is);
        files++;
        CHECK(st != RL_OK && r == NULL);
        CHECK(is.count >= 1 && is.items[0].message[0] != '\0');
        const char *msg = is.count ? is.items[0].message : "";
        int not_record = strncmp(msg, "valid JSON, not a record", 24) == 0;
        int not_json = strncmp(msg, "not valid JSON", 14) == 0 ||
                       strncmp(msg, "nesting deeper than", 19) == 0;
        if (e->d_name[0] == 'y') {
            y++;
            if (!not_record) fprintf(stderr, "%s: %s\n", e->d_name, msg);
            CHECK(not_record);
        } else if (e->d_name[0] == 'n') {
            n++;
            if (not_record) {
                n_lenient++;
                printf("lenient: %s taken for valid JSON: \"%s\"\n", e->d_name, msg);
            }
            CHECK(not_json);
        } else {
            i++;
            CHECK(not_json || not_record);
        }
        rl_record_free(r);
        rl_rec_issues_free(&is);
        free(buf);
    }
    closedir(d);
    CHECK(files >= 300);
    printf("JSONTestSuite: %zu files (%zu y_, %zu n_, %zu i_), all refused as records; %zu n_ files "
           "taken for valid JSON\n", files, y, n, i, n_lenient);
    return check_report("test_jsontestsuite");
}
