/* cmd_validate.c — `rooflab validate FILE...`: check measured records (CONTRACTS.md).
 * Exit 0 when every file is a valid record, 1 when any is not (errors on stderr with their JSON
 * paths), 2 on bad usage. Never a crash: the reader is core's, fuzzed and limit-checked. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "rooflab/record.h"

static void validate_help(FILE *out) {
    fprintf(out,
            "usage: rooflab validate [--json] [--strict] [--quiet] FILE...\n\n"
            "Checks rooflab records (schema \"%s\" version %d; data/schema/ holds its JSON Schema):\n"
            "types and mandatory fields (hardware, precision, sequence, kernel version), ranges,\n"
            "problem consistency (H a multiple of Hkv, causal N <= L), timing order, and flags\n"
            "points above their own hardware's roof with the slip that would explain them.\n"
            "Limits: %zu bytes per file, %d points, nesting depth %d, %d characters per string.\n\n"
            "  --json     print one JSON report per file on stdout ({\"files\": [...]})\n"
            "  --strict   warnings fail too (exit 1)\n"
            "  --quiet    print errors only\n\n"
            "exit status: 0 all valid, 1 some file invalid or unreadable, 2 usage error\n",
            RL_RECORD_SCHEMA_ID, RL_RECORD_SCHEMA_VERSION, (size_t)RL_RECORD_MAX_FILE_BYTES,
            RL_RECORD_MAX_POINTS, RL_RECORD_MAX_DEPTH, RL_RECORD_MAX_STRING);
}

int cli_tmp_name(char *buf, size_t cap, const char *path) {
    int n = snprintf(buf, cap, "%s.tmp%ld", path, (long)getpid());
    return n >= 0 && (size_t)n < cap ? 0 : -1;
}

/* Create (exclusively) and remove `name`: 0, or -1 with errno set. */
static int try_create(const char *name) {
    int fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0) return -1;
    close(fd);
    return unlink(name);
}

int cli_check_out_path(const char *cmd, const char *label, const char *path) {
    struct stat st;
    if (!path || !path[0]) {
        cli_errorf(cmd, "%s: expected a file name, got an empty one", label);
        return -1;
    }
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        cli_errorf(cmd, "%s: cannot write \"%s\": it is a folder", label, path);
        return -1;
    }
    /* The real names, for real: the temporary file the record is written to first (created and
     * removed here), and an existing target opened for writing without truncating it. Any errno
     * is an error (ENOENT, ENOTDIR, ENAMETOOLONG, EACCES, EROFS, ENOSPC ...), before any work. */
    char tmp[4096];
    if (cli_tmp_name(tmp, sizeof tmp, path) != 0) {
        cli_errorf(cmd, "%s: cannot write \"%s\": the path is %zu bytes long", label, path,
                   strlen(path));
        return -1;
    }
    if (try_create(tmp) != 0) {
        int e = errno;
        const char *slash = strrchr(path, '/');
        char dir[4096];
        if (!slash) snprintf(dir, sizeof dir, ".");
        else if (slash == path) snprintf(dir, sizeof dir, "/");
        else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
        struct stat ds;
        int dir_missing = stat(dir, &ds) != 0 || !S_ISDIR(ds.st_mode);
        if ((e == ENOENT || e == ENOTDIR) && dir_missing)
            cli_errorf(cmd, "%s: cannot write \"%s\": the folder \"%s\" does not exist", label,
                       path, dir);
        else if (e == ENAMETOOLONG)
            cli_errorf(cmd, "%s: cannot write \"%s\": its name (with the temporary suffix \"%s\") "
                       "is too long for the file system (%s)", label, path,
                       tmp + strlen(path), strerror(e));
        else
            cli_errorf(cmd, "%s: cannot write \"%s\": creating \"%s\" failed: %s", label, path,
                       tmp, strerror(e));
        return -1;
    }
    if (stat(path, &st) == 0) {
        int fd = open(path, O_WRONLY | O_NONBLOCK); /* a FIFO without a reader: ENXIO, not a hang */
        if (fd < 0) {
            cli_errorf(cmd, "%s: cannot write \"%s\": %s", label, path, strerror(errno));
            return -1;
        }
        close(fd);
    }
    return 0;
}

int cli_read_file(const char *path, size_t limit, char **text, size_t *len, char *why,
                  size_t why_cap) {
    *text = NULL;
    *len = 0;
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        snprintf(why, why_cap, "cannot open: %s", strerror(errno));
        return -1;
    }
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap + 1);
    int rc = 0;
    while (buf) {
        if (n == cap) {
            if (cap > limit) break;
            char *nb = realloc(buf, cap * 2 + 1);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
        if (n > limit) break;
    }
    if (!buf) {
        snprintf(why, why_cap, "out of memory");
        rc = -1;
    } else if (ferror(f)) {
        snprintf(why, why_cap, "cannot read: %s", strerror(errno));
        rc = -1;
    } else if (n > limit) {
        snprintf(why, why_cap, "file is larger than the limit of %zu bytes (%d MiB)", limit,
                 RL_RECORD_MAX_FILE_MIB);
        rc = -1;
    }
    if (f != stdin) fclose(f);
    if (rc) {
        free(buf);
        return -1;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}

/* "FILE: valid record: ..." on one line, every string from argv or the record escaped. */
static void valid_line(const char *path, const rl_record *rec, size_t warnings, int strict) {
    char file[1024], hw[400], kernel[400], version[400];
    rl_text_escape(file, sizeof file, path);
    rl_text_escape(hw, sizeof hw, rec->hardware.name ? rec->hardware.name : "(per point)");
    rl_text_escape(kernel, sizeof kernel, rec->software.kernel ? rec->software.kernel : "(unnamed)");
    rl_text_escape(version, sizeof version, rec->software.kernel_version);
    printf("%s: valid record: %zu point%s, %s, hardware \"%s\", kernel \"%s\" %s%s%s\n", file,
           rec->point_count, rec->point_count == 1 ? "" : "s",
           rl_rec_provenance_name(rec->provenance.kind), hw, kernel, version,
           warnings ? ", warnings: " : "", warnings ? (strict ? "fail (--strict)" : "see stderr") : "");
}

int cmd_validate(int argc, char **argv) {
    int json = 0, strict = 0, quiet = 0, nfiles = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            validate_help(stdout);
            return CLI_EXIT_OK;
        }
        if (cli_is_switch(argv[i], "json")) json = 1;
        else if (cli_is_switch(argv[i], "strict")) strict = 1;
        else if (cli_is_switch(argv[i], "quiet")) quiet = 1;
        else if (argv[i][0] == '-' && argv[i][1] == '-')
            return cli_errorf("validate", "unknown flag \"%.*s\"; expected --json, --strict, "
                                          "--quiet or record files",
                              (int)rl_text_clip(argv[i], 64), argv[i]);
        else nfiles++;
    }
    if (nfiles == 0)
        return cli_errorf("validate", "FILE: expected at least one record file (see --help)");

    int all_ok = 1, nout = 0;
    cli_json j;
    if (json) cli_json_begin(&j, stdout);
    for (int i = 1; i < argc; i++) {
        const char *path = argv[i];
        if (path[0] == '-' && path[1] == '-') continue;
        char *text = NULL, why[160];
        size_t len = 0;
        rl_rec_issues is = {0};
        rl_record *rec = NULL;
        if (json) cli_json_at(&j, "files.%d.", nout++);
        if (cli_read_file(path, RL_RECORD_MAX_FILE_BYTES, &text, &len, why, sizeof why) != 0) {
            cli_errorf("validate", "%s: %s", path, why);
            all_ok = 0;
            if (json) { /* the path as given, escaped by the writer (not UTF-8: U+FFFD) */
                cli_json_str(&j, "file", path);
                cli_json_bool(&j, "ok", 0);
                cli_json_str(&j, "error", why);
            }
            continue;
        }
        rl_status st = rl_record_parse(text, len, &rec, &is);
        int ok = st == RL_OK && !(strict && is.warnings > 0);
        if (!ok) all_ok = 0;
        for (size_t k = 0; k < is.count; k++) {
            const rl_rec_issue *it = &is.items[k];
            if (it->severity == RL_REC_WARNING && quiet) continue;
            cli_errorf("validate", "%s: %s%s", path,
                       it->severity == RL_REC_WARNING ? "warning: " : "", it->message);
        }
        if (is.errors + is.warnings > is.count)
            cli_errorf("validate", "%s: ... and %zu more issues not shown", path,
                       is.errors + is.warnings - is.count);
        if (json) {
            char *report = rl_record_report_json(rec, &is, 0);
            cli_json_str(&j, "file", path);
            cli_json_raw(&j, "report", report ? report : "null");
            free(report);
        } else if (!quiet && st == RL_OK) {
            valid_line(path, rec, is.warnings, strict);
        }
        rl_record_free(rec);
        rl_rec_issues_free(&is);
        free(text);
    }
    if (json) cli_json_end(&j);
    return all_ok ? CLI_EXIT_OK : CLI_EXIT_INVALID;
}
