/* Units: at least 40 strings, valid and invalid, against hand-computed base values. */
#include "check.h"
#include "rooflab/rooflab.h"

typedef struct {
    const char *text;
    rl_dim expected; /* RL_DIM_COUNT = any */
    double value;    /* base units, computed by hand */
    rl_dim dim;
} valid_case;

static const valid_case valid[] = {
    {"2039 GB/s", RL_DIM_BYTES_PER_S, 2039e9, RL_DIM_BYTES_PER_S},
    {"3.35 TB/s", RL_DIM_BYTES_PER_S, 3.35e12, RL_DIM_BYTES_PER_S},
    {"4.8TB/s", RL_DIM_BYTES_PER_S, 4.8e12, RL_DIM_BYTES_PER_S},
    {"1 GiB/s", RL_DIM_BYTES_PER_S, 1073741824.0, RL_DIM_BYTES_PER_S},
    {"100 Gbit/s", RL_DIM_BYTES_PER_S, 12.5e9, RL_DIM_BYTES_PER_S},
    {"25 Gbps", RL_DIM_BYTES_PER_S, 3.125e9, RL_DIM_BYTES_PER_S},
    {"8 b/s", RL_DIM_BYTES_PER_S, 1.0, RL_DIM_BYTES_PER_S},
    {"1.5 GBps", RL_DIM_BYTES_PER_S, 1.5e9, RL_DIM_BYTES_PER_S},
    {"989 TFLOP/s", RL_DIM_FLOPS_PER_S, 989e12, RL_DIM_FLOPS_PER_S},
    {"312 TFLOPS", RL_DIM_FLOPS_PER_S, 312e12, RL_DIM_FLOPS_PER_S},
    {"19.5 TFLOPs/s", RL_DIM_FLOPS_PER_S, 19.5e12, RL_DIM_FLOPS_PER_S},
    {"60 Tflops", RL_DIM_FLOPS_PER_S, 60e12, RL_DIM_FLOPS_PER_S}, /* lowercase flops: a rate */
    {"1.2 PFLOP/s", RL_DIM_FLOPS_PER_S, 1.2e15, RL_DIM_FLOPS_PER_S},
    {"549.8 GFLOP", RL_DIM_FLOP, 549.8e9, RL_DIM_FLOP},
    {"2.15 GFLOPs", RL_DIM_FLOP, 2.15e9, RL_DIM_FLOP},
    {"16 MiB", RL_DIM_BYTES, 16777216.0, RL_DIM_BYTES},
    {"16.78 MB", RL_DIM_BYTES, 16.78e6, RL_DIM_BYTES},
    {"40 GB", RL_DIM_BYTES, 40e9, RL_DIM_BYTES},
    {"48 KiB", RL_DIM_BYTES, 49152.0, RL_DIM_BYTES},
    {"48 KB", RL_DIM_BYTES, 48000.0, RL_DIM_BYTES},
    {"8 bit", RL_DIM_BYTES, 1.0, RL_DIM_BYTES},
    {"1 Gb", RL_DIM_BYTES, 1.25e8, RL_DIM_BYTES},
    {"3 bytes", RL_DIM_BYTES, 3.0, RL_DIM_BYTES},
    {"1 TiB", RL_DIM_BYTES, 1099511627776.0, RL_DIM_BYTES},
    {"3.538 ms", RL_DIM_SECONDS, 3.538e-3, RL_DIM_SECONDS},
    {"250 us", RL_DIM_SECONDS, 250e-6, RL_DIM_SECONDS},
    {"250 \xC2\xB5s", RL_DIM_SECONDS, 250e-6, RL_DIM_SECONDS},
    {"12 ns", RL_DIM_SECONDS, 12e-9, RL_DIM_SECONDS},
    /* A count with the noun it counts (issue 20): where a plain number is asked for. */
    {"128 blocks", RL_DIM_NONE, 128.0, RL_DIM_NONE},
    {"128 CTAs", RL_DIM_NONE, 128.0, RL_DIM_NONE},
    {"128 tiles", RL_DIM_NONE, 128.0, RL_DIM_NONE},
    {"1 block", RL_DIM_NONE, 1.0, RL_DIM_NONE},
    {"64 Query Blocks", RL_DIM_NONE, 64.0, RL_DIM_NONE},
    {"1,024 tokens", RL_DIM_NONE, 1024.0, RL_DIM_NONE},
    {"128", RL_DIM_NONE, 128.0, RL_DIM_NONE},
    {"2 s", RL_DIM_SECONDS, 2.0, RL_DIM_SECONDS},
    {"153 FLOP/B", RL_DIM_FLOP_PER_BYTE, 153.0, RL_DIM_FLOP_PER_BYTE},
    {"64 FLOP/byte", RL_DIM_FLOP_PER_BYTE, 64.0, RL_DIM_FLOP_PER_BYTE},
    {"+1.5e3 GB/s", RL_DIM_BYTES_PER_S, 1.5e12, RL_DIM_BYTES_PER_S},
    {".5 TB/s", RL_DIM_BYTES_PER_S, 0.5e12, RL_DIM_BYTES_PER_S},
    {"2039 GB/s", RL_DIM_COUNT, 2039e9, RL_DIM_BYTES_PER_S},
    {"312 TFLOPS", RL_DIM_COUNT, 312e12, RL_DIM_FLOPS_PER_S},
    {"42", RL_DIM_COUNT, 42.0, RL_DIM_NONE},
    /* Changed on purpose (issue 11): "2039e9" (bare), "  900 GB/s  " (whitespace), "1979 TOPS"
     * and "1 kOP" (operations) are refused now; "1,000 GB/s" is a thousands separator. */
    {"2039e9 B/s", RL_DIM_BYTES_PER_S, 2039e9, RL_DIM_BYTES_PER_S},
    {"900 GB/s", RL_DIM_BYTES_PER_S, 900e9, RL_DIM_BYTES_PER_S},
    {"1,000 GB/s", RL_DIM_BYTES_PER_S, 1e12, RL_DIM_BYTES_PER_S},
};

typedef struct {
    const char *text;
    rl_dim expected;
    rl_status status;
    const char *message_part; /* must appear in the message */
} invalid_case;

static const invalid_case invalid[] = {
    /* Count nouns only where a count is asked for, and only known ones. */
    {"128 blocks", RL_DIM_BYTES, RL_ERR_UNIT, "block"},
    {"128 apples", RL_DIM_NONE, RL_ERR_UNIT, "apples"},
    {"312 TFLOPS", RL_DIM_BYTES_PER_S, RL_ERR_UNIT, "is a compute rate, expected bytes per second"},
    {"2039 GB/s", RL_DIM_FLOPS_PER_S, RL_ERR_UNIT, "is a bandwidth, expected FLOP per second"},
    {"16 MiB", RL_DIM_BYTES_PER_S, RL_ERR_UNIT, "is a byte count, expected bytes per second"},
    {"3 ms", RL_DIM_BYTES, RL_ERR_UNIT, "is a time"},
    {"64 FLOP/B", RL_DIM_FLOPS_PER_S, RL_ERR_UNIT, "is an arithmetic intensity"},
    {"-3 TB/s", RL_DIM_BYTES_PER_S, RL_ERR_RANGE, "is negative"},
    {"0 GB/s", RL_DIM_BYTES_PER_S, RL_ERR_RANGE, "is zero"},
    {"0", RL_DIM_BYTES_PER_S, RL_ERR_RANGE, "is zero"},
    {"NaN GB/s", RL_DIM_BYTES_PER_S, RL_ERR_RANGE, "not finite"},
    {"inf", RL_DIM_FLOPS_PER_S, RL_ERR_RANGE, "not finite"},
    {"-inf TB/s", RL_DIM_BYTES_PER_S, RL_ERR_RANGE, "not finite"},
    {"1e400 B/s", RL_DIM_BYTES_PER_S, RL_ERR_RANGE, "overflows"},
    {"1e300 EB/s", RL_DIM_BYTES_PER_S, RL_ERR_RANGE, "overflows"},
    {"", RL_DIM_BYTES_PER_S, RL_ERR_INVALID, "empty"},
    {"   ", RL_DIM_BYTES_PER_S, RL_ERR_INVALID, "empty"},
    {"GB/s", RL_DIM_BYTES_PER_S, RL_ERR_INVALID, "does not start with a number"},
    {"fast", RL_DIM_BYTES_PER_S, RL_ERR_INVALID, "does not start with a number"},
    {"3 GX/s", RL_DIM_BYTES_PER_S, RL_ERR_UNIT, "unknown unit \"GX/s\""},
    {"3 TB/s/s", RL_DIM_BYTES_PER_S, RL_ERR_UNIT, "unknown unit"},
    {"3 mB", RL_DIM_BYTES, RL_ERR_UNIT, "unknown unit"},
    {"0x10 GB/s", RL_DIM_BYTES_PER_S, RL_ERR_UNIT, "unknown unit"},
    {"5 GiFLOP/s", RL_DIM_FLOPS_PER_S, RL_ERR_UNIT, "unknown unit"},
    {"1e-320 B", RL_DIM_BYTES, RL_ERR_RANGE, "underflows: it is below 1e-300"},
    /* issue 21: a numeral that reads as 0 is worded as the underflow it is, not "zero" */
    {"1e-999 B", RL_DIM_BYTES, RL_ERR_RANGE, "underflows: it is below 1e-300"},
    {"1e-999 GB/s", RL_DIM_BYTES_PER_S, RL_ERR_RANGE, "underflows: it is below 1e-300"},
    {"0.000e-5 GB/s", RL_DIM_BYTES_PER_S, RL_ERR_RANGE, "is zero"},
    /* invisible characters refused by name, never read as a space or as part of a unit */
    {"2039\xc2\xa0GB/s", RL_DIM_BYTES_PER_S, RL_ERR_INVALID, "character 5 is U+00A0 NO-BREAK SPACE, which looks like a space"},
    {"2039\xe2\x80\xafGB/s", RL_DIM_BYTES_PER_S, RL_ERR_INVALID, "character 5 is U+202F NARROW NO-BREAK SPACE"},
    {"2039\xe2\x80\x89GB/s", RL_DIM_BYTES_PER_S, RL_ERR_INVALID, "character 5 is U+2009 THIN SPACE"},
    {"2039 GB/s\xe2\x80\x8e", RL_DIM_BYTES_PER_S, RL_ERR_INVALID, "character 10 is U+200E LEFT-TO-RIGHT MARK, an invisible"},
    {"2\xe2\x80\x8b" "039 GB/s", RL_DIM_BYTES_PER_S, RL_ERR_INVALID, "character 2 is U+200B ZERO WIDTH SPACE"},
    {"2039 GB/s\xff", RL_DIM_BYTES_PER_S, RL_ERR_INVALID, "character 10 is the byte 0xFF, not valid UTF-8"},
    {"  900 GB/s  ", RL_DIM_BYTES_PER_S, RL_ERR_INVALID, "space or tab before or after"},
    {"2039e9", RL_DIM_BYTES_PER_S, RL_ERR_UNIT, "did you mean \"2039e9 B/s\"?"},
    {"1979 TOPS", RL_DIM_FLOPS_PER_S, RL_ERR_UNIT, "count operations"},
    {"12345678901234567890123456789012345678901234567890123456789012345 B", RL_DIM_BYTES,
     RL_ERR_INVALID, "characters (67 bytes) long"},
};

static void test_valid(void) {
    for (size_t i = 0; i < sizeof valid / sizeof valid[0]; i++) {
        const valid_case *c = &valid[i];
        double v = 0;
        rl_dim dim = RL_DIM_COUNT;
        rl_error err;
        rl_status s = rl_parse_quantity(c->text, c->expected, "bandwidth", &v, &dim, &err);
        double want = c->value;
        rl_dim want_dim = c->dim;
        if (s != RL_OK) fprintf(stderr, "  \"%s\": %s\n", c->text, err.message);
        CHECK(s == RL_OK);
        CHECK_CLOSE(v, want, 1e-15);
        CHECK(dim == want_dim);
    }
}

static void test_invalid(void) {
    for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
        const invalid_case *c = &invalid[i];
        double v = -1;
        rl_error err;
        rl_status s = rl_parse_quantity(c->text, c->expected, "bandwidth", &v, NULL, &err);
        if (s != c->status) fprintf(stderr, "  \"%s\": status %d, message %s\n", c->text, s, err.message);
        CHECK(s == c->status);
        CHECK(v == -1); /* output untouched on error */
        CHECK_STR_CONTAINS(err.message, "bandwidth: ");
        CHECK_STR_CONTAINS(err.message, c->message_part);
        CHECK(strcmp(err.field, "bandwidth") == 0);
    }
}

static void test_messages_match_design(void) {
    rl_error err;
    rl_parse_quantity("312 TFLOPS", RL_DIM_BYTES_PER_S, "bandwidth", NULL, NULL, &err);
    /* MODEL.md: bandwidth: "312 TFLOPS" is a compute rate, expected bytes per second */
    CHECK_STR_CONTAINS(err.message, "bandwidth: \"312 TFLOPS\" is a compute rate, expected bytes per second");
    /* A NULL error pointer is allowed. */
    CHECK(rl_parse_quantity("x", RL_DIM_BYTES, "f", NULL, NULL, NULL) == RL_ERR_INVALID);
}

static void test_format(void) {
    char buf[64];
    rl_format_quantity(2.039e12, RL_DIM_BYTES_PER_S, RL_PREFIX_SI, 4, buf, sizeof buf);
    CHECK(strcmp(buf, "2.039 TB/s") == 0);
    rl_format_quantity(16777216.0, RL_DIM_BYTES, RL_PREFIX_IEC, 4, buf, sizeof buf);
    CHECK(strcmp(buf, "16 MiB") == 0);
    rl_format_quantity(16777216.0, RL_DIM_BYTES, RL_PREFIX_SI, 4, buf, sizeof buf);
    CHECK(strcmp(buf, "16.78 MB") == 0);
    rl_format_quantity(989e12, RL_DIM_FLOPS_PER_S, RL_PREFIX_SI, 4, buf, sizeof buf);
    CHECK(strcmp(buf, "989 TFLOP/s") == 0);
    rl_format_quantity(3.538e-3, RL_DIM_SECONDS, RL_PREFIX_SI, 4, buf, sizeof buf);
    CHECK(strcmp(buf, "3.538 ms") == 0);
    rl_format_quantity(999.96e9, RL_DIM_BYTES, RL_PREFIX_SI, 4, buf, sizeof buf); /* carry */
    CHECK(strcmp(buf, "1 TB") == 0);
    rl_format_quantity(512.0, RL_DIM_BYTES, RL_PREFIX_SI, 4, buf, sizeof buf);
    CHECK(strcmp(buf, "512 B") == 0);
    rl_format_quantity(295.2, RL_DIM_FLOP_PER_BYTE, RL_PREFIX_SI, 4, buf, sizeof buf);
    CHECK(strcmp(buf, "295.2 FLOP/B") == 0);
    /* snprintf semantics: returns the needed length, truncates safely. */
    char small[4];
    size_t need = rl_format_quantity(2.039e12, RL_DIM_BYTES_PER_S, RL_PREFIX_SI, 4, small, sizeof small);
    CHECK(need == strlen("2.039 TB/s"));
    CHECK(small[3] == '\0');
    /* Round trip: format then parse gives the value back to the digits kept. */
    double v = 0;
    rl_format_quantity(4.8e12, RL_DIM_BYTES_PER_S, RL_PREFIX_IEC, 6, buf, sizeof buf);
    CHECK(rl_parse_quantity(buf, RL_DIM_BYTES_PER_S, "x", &v, NULL, NULL) == RL_OK);
    CHECK_CLOSE(v, 4.8e12, 1e-5);
}

/* Issue 20: one number format everywhere, never e-notation. Expected strings typed by hand. */
static void test_format_no_exponent(void) {
    static const struct {
        double v;
        rl_dim dim;
        int sig;
        const char *want;
    } cases[] = {
        /* 2^14 FLOP/B (printed "1.638e+04 FLOP/B" before): a whole number longer than 4 digits
         * is shown whole, grouped by three. */
        {16384.0, RL_DIM_FLOP_PER_BYTE, 4, "16,384 FLOP/B"},
        /* 316,544 = 309.125 × 1024, a count (was "3.165e+05") */
        {316544.0, RL_DIM_NONE, 4, "316,544"},
        /* 4 digits: grouped too, rounded to 4 significant digits */
        {2039.4, RL_DIM_NONE, 4, "2,039"},
        {1638.4, RL_DIM_NONE, 6, "1,638.4"},
        {295.2, RL_DIM_FLOP_PER_BYTE, 4, "295.2 FLOP/B"},
        /* 999.96 rounds to 1000 at 4 digits */
        {999.96, RL_DIM_FLOP_PER_BYTE, 4, "1,000 FLOP/B"},
        /* small: 0.000015 (was "1.5e-05") */
        {1.5e-5, RL_DIM_NONE, 4, "0.000015"},
        {0.25, RL_DIM_FLOP_PER_BYTE, 4, "0.25 FLOP/B"},
        {-16384.0, RL_DIM_NONE, 4, "-16,384"},
        {0.0, RL_DIM_NONE, 4, "0"},
        /* past 2^53: 1.2346e17 rounded to 4 digits = 123,500,000,000,000,000 */
        {1.2346e17, RL_DIM_NONE, 4, "123,500,000,000,000,000"},
        /* beyond 10^21: a power of ten written out, 1.5 × 10²⁴ */
        {1.5e24, RL_DIM_NONE, 4, "1.5 \xC3\x97 10\xC2\xB2\xE2\x81\xB4"},
        {2.5e-12, RL_DIM_NONE, 4, "2.5 \xC3\x97 10\xE2\x81\xBB\xC2\xB9\xC2\xB2"},
        /* seconds past 1000 s: 3600 s stays in seconds, grouped (was "3600 s", 12345 s "1.234e+04 s") */
        {12345.0, RL_DIM_SECONDS, 4, "12,345 s"},
        /* past the largest prefix: 2.5e21 B = 2500 EB (was "2.5e+03 EB") */
        {2.5e21, RL_DIM_BYTES, 4, "2,500 EB"},
        /* prefixed values are unchanged: 3.165e5 FLOP = 316.5 kFLOP */
        {3.165e5, RL_DIM_FLOP, 4, "316.5 kFLOP"},
    };
    char buf[64];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rl_format_quantity(cases[i].v, cases[i].dim, RL_PREFIX_SI, cases[i].sig, buf, sizeof buf);
        if (strcmp(buf, cases[i].want) != 0)
            fprintf(stderr, "format %.17g: got \"%s\", want \"%s\"\n", cases[i].v, buf, cases[i].want);
        CHECK(strcmp(buf, cases[i].want) == 0);
        CHECK(strstr(buf, "e+") == NULL && strstr(buf, "e-") == NULL);
    }
    /* The grouped forms read back: "16,384 FLOP/B" is 16384. */
    double v = 0;
    CHECK(rl_parse_quantity("16,384 FLOP/B", RL_DIM_FLOP_PER_BYTE, "x", &v, NULL, NULL) == RL_OK);
    CHECK(v == 16384.0);
}

/* The formatter's tables a formatter elsewhere reads (the page): MODEL.md "Units" — SI k…E for
 * 10^3…10^18, IEC Ki…Ei for 2^10…2^60, times s ms µs ns, 4 digits by default. */
static void test_format_tables(void) {
    CHECK(RL_PREFIX_COUNT == 7 && RL_TIME_UNIT_COUNT == 4 && RL_FORMAT_DEFAULT_SIG == 4);
    CHECK(strcmp(rl_prefix_name(RL_PREFIX_SI, 0), "") == 0);
    CHECK(strcmp(rl_prefix_name(RL_PREFIX_SI, 4), "T") == 0);
    CHECK(strcmp(rl_prefix_name(RL_PREFIX_IEC, 3), "Gi") == 0);
    CHECK(strcmp(rl_prefix_name(RL_PREFIX_IEC, 6), "Ei") == 0);
    CHECK(strcmp(rl_prefix_name(RL_PREFIX_SI, 7), "") == 0 && strcmp(rl_prefix_name(RL_PREFIX_SI, -1), "") == 0);
    CHECK(strcmp(rl_time_unit_name(2), "\xC2\xB5s") == 0);
    CHECK(strcmp(rl_time_unit_name(3), "ns") == 0 && strcmp(rl_time_unit_name(4), "") == 0);
    char buf[64]; /* sig 0 is the default's 4 digits: 1/3 s → 333.3 ms */
    rl_format_quantity(1.0 / 3.0, RL_DIM_SECONDS, RL_PREFIX_SI, 0, buf, sizeof buf);
    CHECK(strcmp(buf, "333.3 ms") == 0);
}

int main(void) {
    test_format_tables();
    test_valid();
    test_invalid();
    test_messages_match_design();
    test_format();
    test_format_no_exponent();
    printf("unit strings: %zu valid, %zu invalid\n", sizeof valid / sizeof valid[0],
           sizeof invalid / sizeof invalid[0]);
    return check_report("test_units");
}
