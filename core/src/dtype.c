/* dtype.c — element types and their sizes. */
#include <string.h>

#include "internal.h"

static const struct {
    const char *name;
    rl_dtype dtype;
} dtype_aliases[] = {
    {"fp32", RL_DTYPE_FP32},     {"float32", RL_DTYPE_FP32}, {"f32", RL_DTYPE_FP32},
    {"float", RL_DTYPE_FP32},    {"tf32", RL_DTYPE_TF32},    {"fp16", RL_DTYPE_FP16},
    {"float16", RL_DTYPE_FP16},  {"f16", RL_DTYPE_FP16},     {"half", RL_DTYPE_FP16},
    {"bf16", RL_DTYPE_BF16},     {"bfloat16", RL_DTYPE_BF16}, {"fp8", RL_DTYPE_FP8},
    {"e4m3", RL_DTYPE_FP8},      {"e5m2", RL_DTYPE_FP8},     {"fp8_e4m3", RL_DTYPE_FP8},
    {"fp8_e5m2", RL_DTYPE_FP8},
};

const char *rl_dtype_name(rl_dtype dtype) {
    switch (dtype) {
    case RL_DTYPE_DEFAULT: return "default";
    case RL_DTYPE_FP32: return "fp32";
    case RL_DTYPE_TF32: return "tf32";
    case RL_DTYPE_FP16: return "fp16";
    case RL_DTYPE_BF16: return "bf16";
    case RL_DTYPE_FP8: return "fp8";
    default: return "unknown";
    }
}

double rl_dtype_bytes(rl_dtype dtype) {
    switch (dtype) {
    case RL_DTYPE_FP32:
    case RL_DTYPE_TF32: return 4.0;
    case RL_DTYPE_FP16:
    case RL_DTYPE_BF16: return 2.0;
    case RL_DTYPE_FP8: return 1.0;
    default: return 0.0;
    }
}

rl_status rl_dtype_parse(const char *text, const char *field, rl_dtype *out, rl_error *err) {
    if (!text) text = "";
    for (size_t i = 0; i < sizeof dtype_aliases / sizeof dtype_aliases[0]; i++) {
        if (strcmp(text, dtype_aliases[i].name) == 0) {
            if (out) *out = dtype_aliases[i].dtype;
            rl__ok(err);
            return RL_OK;
        }
    }
    return rl__fail(err, RL_ERR_UNKNOWN, field, "expected one of fp32, tf32, fp16, bf16, fp8, got \"%.*s\"",
                    RL__QUOTE(text, 48));
}
