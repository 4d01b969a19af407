/* cmd_import.c — `rooflab import FORMAT FILE`: another tool's output → a rooflab record.
 * Formats (core/src/record_import.c): ert (Empirical Roofline Toolkit roofline.json),
 * ncu-csv (`ncu --csv --page raw`), gbench (Google Benchmark JSON), torch-trace (a PyTorch profiler
 * trace, .json or .json.gz: decompressed here with zlib, so that core needs none), nsys-csv
 * (nsys stats cuda_gpu_kern_sum / cuda_gpu_trace), triton-csv (a perf_report table). */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "cli.h"
#include "rooflab/record.h"

/* import writes the problem into the record's points and checks them against --hw's roof: no
 * roof override (the roof is the preset's and the file's ceilings), no kernel profile. */
static const char *const import_why_not[CLI_SF_COUNT] = {
    [CLI_SF_BANDWIDTH] = "the roof comes from --hw and the file's ceilings",
    [CLI_SF_PEAK] = "the roof comes from --hw and the file's ceilings",
    [CLI_SF_KERNEL] = "a record keeps measured times, not a kernel profile's prediction (rooflab "
                      "check-model compares them)",
    [CLI_SF_GQA_PACK] = "a record keeps measured times, not a kernel profile's prediction",
    [CLI_SF_SPLITS] = "a record keeps measured times, not a kernel profile's prediction",
    [CLI_SF_CTAS_PER_SM] = "a record keeps measured times, not a kernel profile's prediction",
    [CLI_SF_CORES] = "a record keeps measured times, not a kernel profile's prediction",
};
static const cli_flag_rules import_rules = {
    "import", CLI_SF_PROBLEM | CLI_SF(CLI_SF_MODEL) | CLI_SF(CLI_SF_HW), import_why_not};

static void import_help(FILE *out) {
    fputs("usage: rooflab import FORMAT FILE [--out RECORD] [options] [problem flags]\n\n"
          "formats:\n"
          "  ert       Empirical Roofline Toolkit roofline.json: its measured ceilings (GB/s,\n"
          "            GFLOP/s) become named ceilings of the record; no points\n"
          "  ncu-csv   ncu --csv --page raw (one row per launch; the details page, one row per\n"
          "            metric, is read too) with gpu__time_duration.sum,\n"
          "            dram__bytes.sum or dram__bytes_read.sum + dram__bytes_write.sum,\n"
          "            optionally lts__t_bytes.sum (L2 bytes), and FLOP counters\n"
          "            sm__sass_thread_inst_executed_op_{h,f,d}{add,mul,fma}_pred_on.sum\n"
          "            (add, mul 1 FLOP, fma 2) and/or sm__ops_path_tensor_src_*.sum (tensor\n"
          "            FLOPs): one point per kernel name, its launches' median, min, max time.\n"
          "            The export does not carry the problem: --batch, --heads, --seq and\n"
          "            --head-dim are required (and --kv-heads, --kv-len, --dtype, --causal,\n"
          "            --pass where they differ from the defaults)\n"
          "  gbench    Google Benchmark JSON: one point per run name, timed by its repetitions\n"
          "            (median, min, max; runs = repetitions) or its median/mean aggregate.\n"
          "            FLOPs from the first counter whose unit is a FLOP rate (\"TFLOP/s\",\n"
          "            \"GFLOP/s\" ...), bytes from the first byte-rate counter (\"HBM GB/s\")\n"
          "            or bytes_per_second, each times the time it is over; without them the\n"
          "            model's F and the --traffic-model bytes (warned). The problem comes from\n"
          "            the name's arguments (see --args), the pass from a forward/fwd/\n"
          "            backward/bwd word of the family name unless --pass is given\n",
          out);
    fputs("  torch-trace  a PyTorch profiler trace (prof.export_chrome_trace(\"t.json\") or\n"
          "            tensorboard_trace_handler; .json or .json.gz): one point per GPU kernel\n"
          "            name (and device) whose name matches --match (default: flash, fmha,\n"
          "            attention, attn, sdpa, mha, decode), timed by its launches' durations;\n"
          "            device from deviceProperties. Problem flags as for ncu-csv (--head-dim\n"
          "            may come from a FlashAttention-2 kernel's name)\n"
          "  nsys-csv  nsys stats --report cuda_gpu_kern_sum (or cuda_gpu_trace) --format csv:\n"
          "            one point per matching kernel name (Med, Min, Max, Avg, StdDev,\n"
          "            Instances; times in the header's unit). Problem flags as for ncu-csv\n"
          "  triton-csv  a triton.testing.perf_report table (save_path CSV, or the text\n"
          "            print_data=True prints): one point per x value and line; the x column\n"
          "            is the swept problem field (N_CTX → seq; see --args), the other fields\n"
          "            from the flags. Values in TFLOP/s become times through the count the\n"
          "            FlashAttention tutorial divides by (4·B·H·N·L·d, ½ causal, 2.5 bwd)\n\n"
          "options:\n"
          "  --out RECORD          write the record there (default: stdout)\n"
          "  --hw PRESET           rooflab preset of the hardware measured (for the roof check)\n"
          "  --hw-name NAME        hardware name (default: from the file where it says)\n"
          "  --kernel-version V    kernel version (default \"unknown (imported)\")\n"
          "  --date DATE           ISO 8601 date (default: from the file where it says)\n"
          "  --traffic-model M     compulsory | tiled | naive | other (default tiled): the\n"
          "                        bytes of points the file gives none for\n"
          "  --args KEYS           gbench: keys of the name's numeric \"/\"-separated arguments,\n"
          "                        in order, one per argument (a count that differs is an error)\n"
          "                        (default batch,seq,heads,head_dim: BM_x/4/8192/16/128 is B=4,\n"
          "                        N=8192, H=16, d=128). Keys: batch heads kv_heads seq kv_len\n"
          "                        head_dim causal block_m block_n, _ skips one. key:value\n"
          "                        arguments in a name are matched by key.\n"
          "                        triton-csv: the keys of the table's x columns (default: the\n"
          "                        first column, by its name)\n"
          "  --match TEXT          torch-trace, nsys-csv: import the kernels whose name contains\n"
          "                        TEXT (case-insensitive) instead of the attention-like names\n"
          "  --unit UNIT           triton-csv: the values' unit where the header states none\n"
          "                        (TFLOP/s, TFLOPS, ms, us)\n\n",
          out);
    fprintf(out, "collect every counter ncu-csv reads (add the sm__ops_path_tensor_src_*_dst_*.sum\n"
                 "metric of your dtype for bf16, tf32 or fp8 tensor cores):\n  %s\n\n",
            rl_import_ncu_command());
    /* --hw is under options: above */
    cli_flags_help(out, import_rules.uses & ~CLI_SF(CLI_SF_HW));
}

/* The problem field a typed flag names ("--pass", "--kv-heads=8"), or -1: a field typed counts
 * as given even at its default value (--pass fwd over a family named "...Backward..."). */
static int typed_field(const char *arg) {
    if (strncmp(arg, "--", 2) != 0) return -1;
    char name[32];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(arg + 2, "="), arg + 2);
    return rl_problem_field_find(name);
}

/* A gzip file (one or more members, as gzip writes them) inflated, at most `limit` bytes: 0 with
 * *out (malloc'd, NUL-terminated), or -1 with `why`. The page does the same with the browser's
 * DecompressionStream('gzip'); core reads only the text. */
static int gunzip(const char *in, size_t in_len, size_t limit, char **out, size_t *out_len,
                  char *why, size_t why_cap) {
    z_stream z = {0};
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf || inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
        free(buf);
        snprintf(why, why_cap, "out of memory");
        return -1;
    }
    z.next_in = (unsigned char *)(uintptr_t)in;
    int rc = Z_OK;
    size_t fed = 0;
    for (;;) {
        if (z.avail_in == 0 && fed < in_len) {
            size_t chunk = in_len - fed > (1u << 30) ? (1u << 30) : in_len - fed;
            z.next_in = (unsigned char *)(uintptr_t)(in + fed);
            z.avail_in = (uInt)chunk;
            fed += chunk;
        }
        if (n == cap) {
            if (cap > limit) break;
            char *nb = realloc(buf, cap * 2 + 1);
            if (!nb) {
                rc = Z_MEM_ERROR;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        z.next_out = (unsigned char *)buf + n;
        z.avail_out = (uInt)(cap - n);
        rc = inflate(&z, Z_NO_FLUSH);
        n = cap - z.avail_out;
        if (n > limit) break;
        if (rc == Z_STREAM_END) {
            if (z.avail_in == 0 && fed == in_len) break;
            rc = inflateReset(&z); /* another member */
            if (rc != Z_OK) break;
            continue;
        }
        if (rc != Z_OK) break;
        if (z.avail_in == 0 && fed == in_len && z.avail_out != 0) {
            rc = Z_DATA_ERROR; /* the input ended inside the stream */
            break;
        }
    }
    const char *msg = z.msg;
    inflateEnd(&z);
    if (n > limit) {
        snprintf(why, why_cap, "decompressed, the file is larger than the limit of %zu bytes "
                 "(%d MiB)", limit, RL_RECORD_MAX_FILE_MIB);
    } else if (rc == Z_STREAM_END) {
        buf[n] = '\0';
        *out = buf;
        *out_len = n;
        return 0;
    } else if (rc == Z_MEM_ERROR) {
        snprintf(why, why_cap, "out of memory while decompressing");
    } else {
        snprintf(why, why_cap, "not a valid gzip file (zlib: %s)%s", msg ? msg : "data error",
                 z.avail_in == 0 ? "; cut short?" : "");
    }
    free(buf);
    return -1;
}

int cmd_import(int argc, char **argv) {
    const char *format = NULL, *file = NULL, *out_path = NULL;
    rl_import_opts o = {0};
    cli_problem_opts po = {.rules = &import_rules};
    o.traffic_model = RL_TRAFFIC_TILED;
    rl_error err = {0};
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        if (cli_is_help(argv[i])) {
            import_help(stdout);
            return CLI_EXIT_OK;
        }
        int field = typed_field(argv[i]);
        int r = cli_problem_flag(argc, argv, &i, &po, &err);
        if (r < 0) return cli_error("import", &err);
        if (r > 0 && field >= 0 && field < 32) o.problem_given |= 1u << field;
        if (r > 0) continue;
#define STR_FLAG(name, slot)                                                                       \
    if (cli_flag(argc, argv, &i, name, &v)) {                                                      \
        if (!v || !v[0]) return cli_errorf("import", "--%s: missing value", name);                 \
        slot = v;                                                                                  \
        continue;                                                                                  \
    }
        STR_FLAG("out", out_path)
        STR_FLAG("hw-name", o.hardware_name)
        STR_FLAG("kernel-version", o.kernel_version)
        STR_FLAG("date", o.date)
        STR_FLAG("args", o.gbench_args)
        STR_FLAG("match", o.match)
        STR_FLAG("unit", o.unit)
#undef STR_FLAG
        if (cli_flag(argc, argv, &i, "traffic-model", &v)) {
            static const char *const names[] = {"compulsory", "tiled", "naive", "other"};
            static const rl_rec_traffic vals[] = {RL_TRAFFIC_COMPULSORY, RL_TRAFFIC_TILED,
                                                  RL_TRAFFIC_NAIVE, RL_TRAFFIC_OTHER};
            int found = 0;
            for (int k = 0; v && k < 4; k++)
                if (strcmp(v, names[k]) == 0) {
                    o.traffic_model = vals[k];
                    found = 1;
                }
            if (!found)
                return cli_errorf("import", "--traffic-model: expected compulsory, tiled, naive or "
                                            "other, got \"%.*s\"", (int)rl_text_clip(v ? v : "", 40), v ? v : "");
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1] == '-')
            return cli_errorf("import", "unknown flag \"%.*s\" (see rooflab import --help)", (int)rl_text_clip(argv[i], 64), argv[i]);
        if (!format) format = argv[i];
        else if (!file) file = argv[i];
        else return cli_errorf("import", "FILE: expected one input file, got a second \"%.*s\"", (int)rl_text_clip(argv[i], 64), argv[i]);
    }
    if (!format)
        return cli_errorf("import", "FORMAT: missing; expected one of ert, ncu-csv, gbench, "
                                    "torch-trace, nsys-csv, triton-csv");
    rl_import_format fmt;
    if (rl_import_format_parse(format, &fmt, &err) != RL_OK) return cli_error("import", &err);
    if (!file) return cli_errorf("import", "FILE: missing; expected the %s file to import", format);
    if (out_path && cli_check_out_path("import", "--out", out_path) != 0) return CLI_EXIT_USAGE;
    o.problem = po.problem;
    o.preset = po.hw_id;
    o.source = file;

    char *text = NULL, why[160];
    size_t len = 0;
    if (cli_read_file(file, RL_RECORD_MAX_FILE_BYTES, &text, &len, why, sizeof why) != 0) {
        cli_errorf("import", "%s: %s", file, why);
        return CLI_EXIT_INVALID;
    }
    if (len >= 2 && (unsigned char)text[0] == 0x1f && (unsigned char)text[1] == 0x8b) {
        char *plain = NULL;
        size_t plain_len = 0;
        int bad = gunzip(text, len, RL_RECORD_MAX_FILE_BYTES, &plain, &plain_len, why, sizeof why);
        free(text);
        if (bad) {
            cli_errorf("import", "%s: %s", file, why);
            return CLI_EXIT_INVALID;
        }
        text = plain;
        len = plain_len;
    }
    rl_rec_issues is = {0};
    rl_record *rec = NULL;
    rl_status st = rl_record_import(fmt, text, len, &o, &rec, &is);
    free(text);
    for (size_t k = 0; k < is.count; k++)
        cli_errorf("import", "%s: %s%s", file,
                   is.items[k].severity == RL_REC_WARNING ? "warning: " : "", is.items[k].message);
    rl_rec_issues_free(&is);
    if (st != RL_OK || !rec) {
        rl_record_free(rec);
        return CLI_EXIT_INVALID;
    }
    char *json = rl_record_write_json(rec, 1, &err);
    rl_record_free(rec);
    if (!json) {
        cli_errorf("import", "%s: %s", file, err.message);
        return CLI_EXIT_INVALID;
    }
    int rc = CLI_EXIT_OK;
    if (out_path) {
        FILE *f = fopen(out_path, "wb");
        if (!f || fputs(json, f) < 0 || fputc('\n', f) == EOF) {
            cli_errorf("import", "--out: cannot write \"%s\"", out_path);
            rc = CLI_EXIT_INVALID;
        }
        if (f && fclose(f) != 0) rc = CLI_EXIT_INVALID;
    } else {
        puts(json);
    }
    free(json);
    return rc;
}
