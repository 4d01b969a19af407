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
    {"fp8_e5m2", RL_DTYPE_FP8},  {"nvfp4", RL_DTYPE_NVFP4},  {"mxfp4", RL_DTYPE_MXFP4},
    {"mxfp8", RL_DTYPE_MXFP8},
};


const char *rl_dtype_name(rl_dtype dtype) {
    switch (dtype) {
    case RL_DTYPE_DEFAULT: return "default";
    case RL_DTYPE_FP32: return "fp32";
    case RL_DTYPE_TF32: return "tf32";
    case RL_DTYPE_FP16: return "fp16";
    case RL_DTYPE_BF16: return "bf16";
    case RL_DTYPE_FP8: return "fp8";
    case RL_DTYPE_NVFP4: return "nvfp4";
    case RL_DTYPE_MXFP4: return "mxfp4";
    case RL_DTYPE_MXFP8: return "mxfp8";
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
    /* Block-scaled formats, scales counted (OCP Microscaling spec v1.0: an e8m0 scale per 32
     * elements; NVIDIA NVFP4: an e4m3 scale per 16 elements; the per-tensor fp32 scale of NVFP4
     * is one number per tensor and left out): */
    case RL_DTYPE_NVFP4: return (4.0 + 8.0 / 16.0) / 8.0; /* 4.5 bits = 0.5625 B */
    case RL_DTYPE_MXFP4: return (4.0 + 8.0 / 32.0) / 8.0; /* 4.25 bits = 0.53125 B */
    case RL_DTYPE_MXFP8: return (8.0 + 8.0 / 32.0) / 8.0; /* 8.25 bits = 1.03125 B */
    default: return 0.0;
    }
}

int rl_dtype_block_scaled(rl_dtype dtype) {
    return dtype == RL_DTYPE_NVFP4 || dtype == RL_DTYPE_MXFP4 || dtype == RL_DTYPE_MXFP8;
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
    char list[128];
    rl_dtype_choices_text(list, sizeof list);
    return rl__fail(err, RL_ERR_UNKNOWN, field, "expected %s, got \"%.*s\"", list, RL__QUOTE(text, 48));
}

size_t rl_dtype_choices_text(char *buf, size_t cap) {
    const char *names[RL_DTYPE_COUNT];
    for (int d = 1; d < RL_DTYPE_COUNT; d++) names[d - 1] = rl_dtype_name((rl_dtype)d);
    return rl__choices_text(names, RL_DTYPE_COUNT - 1, buf, cap);
}
