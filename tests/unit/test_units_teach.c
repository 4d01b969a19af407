/* Inputs that teach units (issue 11): bare numbers refused with a suggestion in the field's unit,
 * thousands separators, case slips, operations refused for FLOPs, one whitespace rule. The whole
 * message is checked where it is the suggestion a person reads. */
#include "check.h"
#include "rooflab/rooflab.h"

typedef struct {
    const char *text;
    rl_dim expected;
    rl_status status;
    const char *message; /* the whole message, field "bandwidth" */
} refusal;

static const refusal refusals[] = {
    /* a bare number: the suggestion's unit puts the number in the field's typical range */
    {"2039", RL_DIM_BYTES_PER_S, RL_ERR_UNIT,
     "bandwidth: 2039 \xE2\x80\x94 a bandwidth needs a unit: did you mean \"2039 GB/s\"?"},
    {"3.35", RL_DIM_BYTES_PER_S, RL_ERR_UNIT,
     "bandwidth: 3.35 \xE2\x80\x94 a bandwidth needs a unit: did you mean \"3.35 TB/s\"?"},
    {"989", RL_DIM_FLOPS_PER_S, RL_ERR_UNIT,
     "bandwidth: 989 \xE2\x80\x94 a compute rate needs a unit: did you mean \"989 TFLOP/s\"?"},
    {"163", RL_DIM_SECONDS, RL_ERR_UNIT,
     "bandwidth: 163 \xE2\x80\x94 a time needs a unit: did you mean \"163 ms\"?"},
    {"537", RL_DIM_BYTES, RL_ERR_UNIT,
     "bandwidth: 537 \xE2\x80\x94 a byte count needs a unit: did you mean \"537 MB\"?"},
    {"16793600", RL_DIM_BYTES, RL_ERR_UNIT,
     "bandwidth: 16793600 \xE2\x80\x94 a byte count needs a unit: did you mean \"16793600 B\"?"},
    {"34.4", RL_DIM_FLOP, RL_ERR_UNIT,
     "bandwidth: 34.4 \xE2\x80\x94 a FLOP count needs a unit: did you mean \"34.4 GFLOP\"?"},
    {"153", RL_DIM_FLOP_PER_BYTE, RL_ERR_UNIT,
     "bandwidth: 153 \xE2\x80\x94 an arithmetic intensity needs a unit: did you mean \"153 FLOP/B\"?"},
    {"2,039", RL_DIM_BYTES_PER_S, RL_ERR_UNIT,
     "bandwidth: 2,039 \xE2\x80\x94 a bandwidth needs a unit: did you mean \"2,039 GB/s\"?"},
    /* commas that are not thousands separators */
    {"2,5 TB/s", RL_DIM_BYTES_PER_S, RL_ERR_INVALID,
     "bandwidth: \"2,5 TB/s\": a comma only separates thousands in groups of three digits "
     "(\"2,039 GB/s\"); decimal commas are not accepted: did you mean \"2.5 TB/s\"?"},
    {"1,0000 GB/s", RL_DIM_BYTES_PER_S, RL_ERR_INVALID, NULL},
    {"12,34,567 GB/s", RL_DIM_BYTES_PER_S, RL_ERR_INVALID, NULL},
    {"1234,567 GB/s", RL_DIM_BYTES_PER_S, RL_ERR_INVALID, NULL},
    {"2,039.5,1 GB/s", RL_DIM_BYTES_PER_S, RL_ERR_INVALID, NULL},
    {"1.5,5 GB/s", RL_DIM_BYTES_PER_S, RL_ERR_INVALID, NULL},
    {"2 GB,s", RL_DIM_BYTES_PER_S, RL_ERR_INVALID, NULL},
    /* case slips: refused with the accepted spelling, never read silently */
    {"3.35 tb/s", RL_DIM_BYTES_PER_S, RL_ERR_UNIT,
     "bandwidth: unknown unit \"tb/s\" in \"3.35 tb/s\" (units and prefixes are case-sensitive): "
     "did you mean \"3.35 TB/s\"?"},
    {"989 tflops", RL_DIM_FLOPS_PER_S, RL_ERR_UNIT,
     "bandwidth: unknown unit \"tflops\" in \"989 tflops\" (units and prefixes are "
     "case-sensitive): did you mean \"989 TFLOP/s\"?"},
    {"2039 gb/s", RL_DIM_BYTES_PER_S, RL_ERR_UNIT, "did you mean \"2039 GB/s\"?"},
    {"40 gib", RL_DIM_BYTES, RL_ERR_UNIT, "did you mean \"40 GiB\"?"},
    {"3 mB", RL_DIM_BYTES, RL_ERR_UNIT, "did you mean \"3 MB\"?"},
    {"3 MS", RL_DIM_SECONDS, RL_ERR_UNIT, "did you mean \"3 ms\"?"},
    {"2 gflop", RL_DIM_FLOP, RL_ERR_UNIT, "did you mean \"2 GFLOP\"?"},
    {"2 flop/b", RL_DIM_FLOP_PER_BYTE, RL_ERR_UNIT, "did you mean \"2 FLOP/B\"?"},
    /* operations are not floating-point operations */
    {"312 TOPS", RL_DIM_FLOPS_PER_S, RL_ERR_UNIT,
     "bandwidth: \"312 TOPS\": OP and TOPS count operations (on tensor cores usually integer, "
     "e.g. INT8), not floating-point operations; expected FLOP per second, e.g. \"989 TFLOP/s\""},
    {"312 TOP/s", RL_DIM_FLOPS_PER_S, RL_ERR_UNIT, "count operations"},
    {"312 tops", RL_DIM_FLOPS_PER_S, RL_ERR_UNIT, "count operations"},
    {"5 OP/s", RL_DIM_FLOPS_PER_S, RL_ERR_UNIT, "count operations"},
    {"1 kOP", RL_DIM_FLOP, RL_ERR_UNIT, "expected FLOPs, e.g. \"2.15 GFLOP\""},
    {"312 TOPS", RL_DIM_COUNT, RL_ERR_UNIT, "count operations"},
    /* whitespace around the value: refused everywhere (space and tab alike) */
    {" 4 TB/s", RL_DIM_BYTES_PER_S, RL_ERR_INVALID,
     "bandwidth: \" 4 TB/s\" has a space or tab before or after it; expected the value alone, "
     "e.g. \"3.35 TB/s\""},
    {"\t4 TB/s", RL_DIM_BYTES_PER_S, RL_ERR_INVALID, "space or tab before or after"},
    {"4 TB/s ", RL_DIM_BYTES_PER_S, RL_ERR_INVALID, "space or tab before or after"},
    {"4 TB/s\t", RL_DIM_BYTES_PER_S, RL_ERR_INVALID, "space or tab before or after"},
    {" 42", RL_DIM_COUNT, RL_ERR_INVALID, "space or tab before or after"},
    {"\t", RL_DIM_BYTES_PER_S, RL_ERR_INVALID, "empty"},
};

typedef struct {
    const char *text;
    rl_dim expected;
    double value;
    rl_dim dim;
} accepted;

static const accepted accepts[] = {
    {"2,039 GB/s", RL_DIM_BYTES_PER_S, 2039e9, RL_DIM_BYTES_PER_S},
    {"1,000,000 GB/s", RL_DIM_BYTES_PER_S, 1e15, RL_DIM_BYTES_PER_S},
    {"2,039.5 GB/s", RL_DIM_BYTES_PER_S, 2039.5e9, RL_DIM_BYTES_PER_S},
    {"16,793,600 B", RL_DIM_BYTES, 16793600.0, RL_DIM_BYTES},
    {"2,039", RL_DIM_COUNT, 2039.0, RL_DIM_NONE}, /* `units` takes a bare number as a number */
    {"2039", RL_DIM_COUNT, 2039.0, RL_DIM_NONE},
    {"2039", RL_DIM_NONE, 2039.0, RL_DIM_NONE},
    {"4\tTB/s", RL_DIM_BYTES_PER_S, 4e12, RL_DIM_BYTES_PER_S}, /* inside: any blanks */
    {"4  TB/s", RL_DIM_BYTES_PER_S, 4e12, RL_DIM_BYTES_PER_S},
    {"26.8 Tbit/s", RL_DIM_BYTES_PER_S, 3.35e12, RL_DIM_BYTES_PER_S},
    {"60 Tflops", RL_DIM_FLOPS_PER_S, 60e12, RL_DIM_FLOPS_PER_S}, /* case-correct prefix */
    {"1 kb", RL_DIM_BYTES, 125.0, RL_DIM_BYTES},                 /* kilobit: b is a bit */
};

int main(void) {
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
        const refusal *c = &refusals[i];
        rl_error err;
        double v = -1;
        rl_status s = rl_parse_quantity(c->text, c->expected, "bandwidth", &v, NULL, &err);
        if (s != c->status) fprintf(stderr, "  \"%s\": status %d: %s\n", c->text, s, err.message);
        CHECK(s == c->status);
        CHECK(v == -1);
        CHECK(strcmp(err.field, "bandwidth") == 0);
        if (c->message && c->message[0] == 'b' && strncmp(c->message, "bandwidth: ", 11) == 0) {
            if (strcmp(err.message, c->message) != 0)
                fprintf(stderr, "  got:    %s\n  wanted: %s\n", err.message, c->message);
            CHECK(strcmp(err.message, c->message) == 0);
        } else if (c->message) {
            CHECK_STR_CONTAINS(err.message, c->message);
        } else {
            CHECK_STR_CONTAINS(err.message, "decimal commas are not accepted");
        }
    }
    for (size_t i = 0; i < sizeof accepts / sizeof accepts[0]; i++) {
        const accepted *c = &accepts[i];
        rl_error err;
        double v = 0;
        rl_dim dim = RL_DIM_COUNT;
        rl_status s = rl_parse_quantity(c->text, c->expected, "bandwidth", &v, &dim, &err);
        if (s != RL_OK) fprintf(stderr, "  \"%s\": %s\n", c->text, err.message);
        CHECK(s == RL_OK);
        CHECK_CLOSE(v, c->value, 1e-15);
        CHECK(dim == c->dim);
    }
    /* The suggestion's unit alone, for callers that show it (the page, the quiz). */
    CHECK(strcmp(rl_bare_number_unit(2039, RL_DIM_BYTES_PER_S), "GB/s") == 0);
    CHECK(strcmp(rl_bare_number_unit(4.8, RL_DIM_BYTES_PER_S), "TB/s") == 0);
    CHECK(strcmp(rl_bare_number_unit(1e-4, RL_DIM_SECONDS), "s") == 0);
    CHECK(strcmp(rl_bare_number_unit(42, RL_DIM_NONE), "") == 0);
    printf("teaching units: %zu refusals, %zu accepted\n", sizeof refusals / sizeof refusals[0],
           sizeof accepts / sizeof accepts[0]);
    return check_report("test_units_teach");
}
