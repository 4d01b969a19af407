/* hardware.c — datasheet presets. Figures from vendor datasheets and whitepapers, L2 bandwidth
 * from published microbenchmarks. Peaks are dense (no structured sparsity) at boost clock. Cache and shared-memory
 * sizes are binary (NVIDIA's "KB"/"MB" for on-chip memories are KiB/MiB); DRAM bandwidth is
 * decimal (GB/s = 10⁹ B/s), always. 0 means "not available or not verified" — never a guess.
 * Sources: each preset's `source` (and `l2_bandwidth_source`); docs/DESIGN.md "Hardware presets". */
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define KIB 1024.0
#define MIB (1024.0 * 1024.0)
/* Token pasting keeps each figure an exact decimal literal: TF(66.9) is 66.9e12, not 66.9 × 1e12. */
#define GBPS(x) x##e9
#define TF(x) x##e12

/* Order of peak_flops_per_s: fp32 CUDA core, tf32 tensor, fp16 tensor, fp16 non-tensor, fp8.
 * The last five figures of each preset: L2 read bandwidth and its source, the SM clock of the
 * datasheet peaks, the exp2 rate (16/SM/clock × SMs × clock, CUDA C++ Programming Guide's
 * arithmetic-instruction table for cc 7.x, 8.0, 8.6, 8.9 and 9.0; AMD CDNA: a quarter of the
 * 64 lanes/CU/clock of normal 32-bit VALU instructions, also 16/CU/clock) and the compute
 * capability × 10. */
#define GPU_BENCHES_L2 "te42kyfo/gpu-benches gpu-l2-cache plateau (2024)"
/* gpu-benches' gpu-cache (one block per SM re-reading one buffer): past L1 its plateau is the
 * L2 read bandwidth (A100 80GB: 5.4-5.5 TB/s there, 5.4 TB/s in gpu-l2-cache). */
#define GPU_BENCHES_CACHE "RRZE-HPC/gpu-benches gpu-cache results (commit 7d13a4a, 2025-02-11)"
#define EXP_RATE(sms, clock_hz) (16.0 * (sms) * (clock_hz))
static const rl_hw presets[] = {
    {"v100-sxm2", "NVIDIA V100 SXM2", "Volta (sm_70)", GBPS(900),
     {TF(15.7), 0, TF(125), TF(31.4), 0},
     96 * KIB, 48 * KIB, 96 * KIB, 6 * MIB, 80,
     "NVIDIA A100 Tensor Core GPU Architecture whitepaper, Table 1 (V100 column)", "2020-05",
     "The first source document lists 31.4 TFLOP/s as V100 'FP16 Tensor Core': that is the "
     "non-tensor fp16 rate; the tensor peak is 125 TFLOP/s (ridge ~139 FLOP/B, not 34.9). "
     "No tf32 or fp8. L2 bandwidth: gpu-benches gpu-cache on a V100, 384 kB-5.5 MB plateau "
     "2.35-2.46 TB/s (its L2-read counter agrees). Clock 1.53 GHz: 125 TFLOP/s = 80 SMs x 1024 "
     "FLOP/clock x 1.53 GHz. exp: 16/SM/clock (cc 7.0).",
     2.4e12, GPU_BENCHES_CACHE ", v100.txt", 1.53e9, EXP_RATE(80, 1.53e9), 70},
    {"a100-sxm4-40gb", "NVIDIA A100 SXM4 40GB", "Ampere (sm_80)", GBPS(1555),
     {TF(19.5), TF(156), TF(312), TF(78), 0},
     164 * KIB, 48 * KIB, 163 * KIB, 40 * MIB, 108,
     "NVIDIA A100 Tensor Core GPU Architecture whitepaper, Table 1", "2020-05",
     "Tensor peaks are dense; the whitepaper's 624 TFLOP/s fp16 is with sparsity. No fp8. "
     "L2 bandwidth: the A100 80 GB measurement (same GA100 die, SMs and clock).",
     5.4e12, GPU_BENCHES_L2 ", A100 80GB", 1.41e9, EXP_RATE(108, 1.41e9), 80},
    {"a100-sxm4-80gb", "NVIDIA A100 SXM4 80GB", "Ampere (sm_80)", GBPS(2039),
     {TF(19.5), TF(156), TF(312), TF(78), 0},
     164 * KIB, 48 * KIB, 163 * KIB, 40 * MIB, 108, "NVIDIA A100 80GB datasheet", "2021-06",
     "Tensor peaks are dense; sparse figures are 2x. No fp8.",
     5.4e12, GPU_BENCHES_L2, 1.41e9, EXP_RATE(108, 1.41e9), 80},
    {"a100-pcie-80gb", "NVIDIA A100 PCIe 80GB", "Ampere (sm_80)", GBPS(1935),
     {TF(19.5), TF(156), TF(312), TF(78), 0},
     164 * KIB, 48 * KIB, 163 * KIB, 40 * MIB, 108, "NVIDIA A100 80GB PCIe datasheet", "2021-06",
     "Compute as A100 SXM (the datasheet lists the same peaks; sustained clocks under the 300 W "
     "PCIe limit can be lower). L2 bandwidth: the A100 80 GB SXM measurement (same die). No fp8.",
     5.4e12, GPU_BENCHES_L2 ", A100 80GB SXM", 1.41e9, EXP_RATE(108, 1.41e9), 80},
    {"h100-sxm", "NVIDIA H100 SXM5 80GB", "Hopper (sm_90)", GBPS(3350),
     {TF(66.9), TF(494.7), TF(989), TF(133.8), TF(1979)},
     228 * KIB, 48 * KIB, 227 * KIB, 50 * MIB, 132, "NVIDIA H100 Tensor Core GPU datasheet",
     "2023-07",
     "Datasheet figures with sparsity are 2x these (1979 TFLOP/s fp16 is sparse). fp16 "
     "non-tensor 133.8 TFLOP/s is from secondary sources (unverified). Another tool uses "
     "3072 GB/s; the datasheet says 3.35 TB/s. The peaks assume 1.83 GHz (989 TFLOP/s = 132 SMs "
     "x 4096 FLOP/clock x 1.83 GHz; max boost is 1.98 GHz), the clock the FA3 paper fixed. L2 "
     "bandwidth: the H200 measurement (same GH100 die, 132 SMs, 50 MB L2).",
     9.7e12, GPU_BENCHES_L2 ", H200 (same GH100 die)", 1.83e9, EXP_RATE(132, 1.83e9), 90},
    {"h100-pcie", "NVIDIA H100 PCIe 80GB", "Hopper (sm_90)", GBPS(2000),
     {TF(51.2), TF(378), TF(756), 0, TF(1513)},
     228 * KIB, 48 * KIB, 227 * KIB, 50 * MIB, 114, "NVIDIA H100 Tensor Core GPU datasheet",
     "2023-07",
     "fp16 non-tensor rate not published in the datasheet (left out). SM clock derived from the "
     "datasheet peak: 756 TFLOP/s / (114 SMs x 4096 FLOP/clock) = 1.62 GHz.",
     6.9e12, GPU_BENCHES_L2, 1.62e9, EXP_RATE(114, 1.62e9), 90},
    {"h200-sxm", "NVIDIA H200 SXM 141GB", "Hopper (sm_90)", GBPS(4800),
     {TF(66.9), TF(494.7), TF(989), TF(133.8), TF(1979)},
     228 * KIB, 48 * KIB, 227 * KIB, 50 * MIB, 132, "NVIDIA H200 Tensor Core GPU datasheet",
     "2024-11",
     "Compute as H100 SXM (peaks at 1.83 GHz). fp16 non-tensor taken as H100's (unverified). "
     "Measured on one H200: copy ~4.3 TB/s read+write, bf16 GEMM ~790 TFLOP/s.",
     9.7e12, GPU_BENCHES_L2, 1.83e9, EXP_RATE(132, 1.83e9), 90},
    {"l4", "NVIDIA L4", "Ada Lovelace (sm_89)", GBPS(300),
     {TF(30.3), TF(60), TF(121), 0, TF(242)},
     100 * KIB, 48 * KIB, 99 * KIB, 48 * MIB, 58, "NVIDIA L4 datasheet (tensor figures unverified)",
     "2023-03",
     "Tensor figures (121 fp16, 60 tf32, 242 fp8) are datasheet sparse/2 and unverified; fp16 "
     "non-tensor not published (left out). 58 SMs: 7,424 CUDA cores / 128 per Ada SM (datasheet "
     "core count; the Ada whitepaper's AD104 has 60 SMs in full). SM clock derived from the "
     "datasheet peak: 30.3 TFLOP/s / (58 SMs x 256 FLOP/clock) = 2.04 GHz. L2 bandwidth DERIVED, "
     "not measured: the L40's gpu-l2-cache plateau (AD102, 384-bit, 2.49 GHz: 5.2 TB/s) x 6/12 "
     "memory partitions (L4: 192-bit) x 2.04/2.49 GHz = 2.1 TB/s (L2 slices per partition as on "
     "AD102, assumed). exp: 16/SM/clock (cc 8.9).",
     2.1e12, "derived from RRZE-HPC/gpu-benches gpu-l2-cache l40.txt (2023-11) by memory "
             "partitions and clock", 2.04e9, EXP_RATE(58, 2.04e9), 89},
    {"rtx3060", "NVIDIA GeForce RTX 3060 12GB", "Ampere (sm_86)", GBPS(360),
     {TF(12.74), 0, TF(25.5), TF(12.7), 0},
     100 * KIB, 48 * KIB, 99 * KIB, 3 * MIB, 28, "NVIDIA GA106 specifications (unverified)",
     "2021-02",
     "GeForce: fp16 tensor is 25.5 TFLOP/s with fp32 accumulation, 51 with fp16 accumulation "
     "(unverified). tf32 rate not verified (left out). No fp8. SM clock 1.777 GHz (boost): "
     "12.74 TFLOP/s = 28 SMs x 256 FLOP/clock x 1.777 GHz. L2 bandwidth DERIVED, not measured: "
     "the A40's gpu-cache L2 plateau (GA102, 384-bit, 1.74 GHz boost: 2.48 TB/s) x 6/12 memory "
     "partitions (GA106: 192-bit) x 1.777/1.74 GHz = 1.27 TB/s (L2 slices per partition as on "
     "GA102, assumed). exp: 16/SM/clock (cc 8.6).",
     1.27e12, "derived from " GPU_BENCHES_CACHE ", a40.txt, by memory partitions and clock",
     1.777e9, EXP_RATE(28, 1.777e9), 86},
    {"rtx4090", "NVIDIA GeForce RTX 4090", "Ada Lovelace (sm_89)", GBPS(1008),
     {TF(82.6), TF(82.6), TF(165.2), TF(82.6), TF(330.3)},
     100 * KIB, 48 * KIB, 99 * KIB, 72 * MIB, 128, "NVIDIA Ada GPU Architecture whitepaper, Appendix A",
     "2022-10",
     "GeForce: fp16 tensor is 165.2 TFLOP/s with fp32 accumulation, 330.3 with fp16 "
     "accumulation. fp8 figure unverified. SM clock 2.52 GHz (whitepaper boost): 82.6 TFLOP/s = "
     "128 SMs x 256 FLOP/clock x 2.52 GHz. L2 bandwidth: smallscientist1/cuda_microbenchmark's "
     "RTX 4090 cp.async L2 read, 1.9 sectors/cycle = 4.9 TB/s; the L40 (same AD102, 384-bit) "
     "plateaus at 5.2 TB/s in gpu-benches' gpu-l2-cache. exp: 16/SM/clock (cc 8.9).",
     4.9e12, "smallscientist1/cuda_microbenchmark analysis_RTX4090.md (commit 5df4681)", 2.52e9,
     EXP_RATE(128, 2.52e9), 89},
    {"mi300x", "AMD Instinct MI300X", "CDNA 3 (gfx942)", GBPS(5300),
     {TF(163.4), TF(653.7), TF(1307.4), 0, TF(2614.9)},
     64 * KIB, 64 * KIB, 64 * KIB, 32 * MIB, 304,
     "AMD ROCm documentation, MI300 microarchitecture peak table", "2024-06",
     "SMs are CUs; shared memory is 64 KiB LDS per CU. L2 is 4 MB per XCD (8 XCDs: 32 MB); the "
     "256 MB Infinity Cache is a further, memory-side level between L2 and HBM, not L2. fp32 is "
     "163.4 TFLOP/s on vector and matrix units alike (81.7 is the fp64 vector rate). tf32 "
     "unverified; fp16 non-matrix not listed. Clock 2.1 GHz (peak engine clock): 1307.4 TFLOP/s = "
     "304 CUs x 2048 FLOP/clock x 2.1 GHz. L2 bandwidth: gpu-benches gpu-cache on an MI300X, "
     "176 kB-2.9 MB plateau 26.8-28.4 TB/s (the eight XCDs' L2s together; it falls to ~5.4 TB/s "
     "past 40 MB). exp rate: 16 per CU per clock = a quarter (LLVM AMDGPU SISchedule.td: F32 "
     "transcendentals are quarter rate) of 4 SIMDs x 16 lanes; not microbenchmarked.",
     27.5e12, GPU_BENCHES_CACHE ", mi300x.txt", 2.1e9, EXP_RATE(304, 2.1e9), 0},
    {"custom", "Custom (give --bandwidth and --peak)", "any", 0, {0, 0, 0, 0, 0}, 0, 48 * KIB, 48 * KIB,
     0, 0, "user-provided", "", "No datasheet figures: bandwidth and peak must be given.",
     0, NULL, 0, 0, 0},
};

#define PRESET_COUNT (sizeof presets / sizeof presets[0])

size_t rl_hw_count(void) { return PRESET_COUNT; }

const rl_hw *rl_hw_at(size_t index) { return index < PRESET_COUNT ? &presets[index] : NULL; }

const rl_hw *rl_hw_find(const char *id) {
    if (!id) return NULL;
    for (size_t i = 0; i < PRESET_COUNT; i++)
        if (strcmp(presets[i].id, id) == 0) return &presets[i];
    return NULL;
}

rl_status rl_hw_lookup(const char *id, const char *field, const rl_hw **out, rl_error *err) {
    const rl_hw *hw = rl_hw_find(id);
    if (!hw) {
        char ids[RL_ERROR_MESSAGE_MAX / 2] = "";
        size_t used = 0;
        for (size_t i = 0; i < PRESET_COUNT && used < sizeof ids; i++) {
            int n = snprintf(ids + used, sizeof ids - used, "%s%s", i ? ", " : "", presets[i].id);
            if (n < 0) break;
            used += (size_t)n;
        }
        return rl__fail(err, RL_ERR_UNKNOWN, field, "unknown preset \"%.*s\"; expected one of %s",
                        RL__QUOTE(id ? id : "", 48), ids);
    }
    if (out) *out = hw;
    rl__ok(err);
    return RL_OK;
}

/* Device names as the driver reports them (cudaDeviceProp.name), only where the name says exactly
 * which part it is (an "NVIDIA A100" without its memory size is left out). */
const rl_hw *rl_hw_match_device(const char *device_name) {
    static const struct {
        const char *device_name, *id;
    } names[] = {
        {"NVIDIA H200", "h200-sxm"},
        {"NVIDIA H100 80GB HBM3", "h100-sxm"},
        {"NVIDIA H100 PCIe", "h100-pcie"},
        {"NVIDIA A100-SXM4-80GB", "a100-sxm4-80gb"},
        {"NVIDIA A100-SXM4-40GB", "a100-sxm4-40gb"},
        {"NVIDIA A100 80GB PCIe", "a100-pcie-80gb"},
        {"NVIDIA L4", "l4"},
        {"NVIDIA GeForce RTX 4090", "rtx4090"},
        {"NVIDIA GeForce RTX 3060", "rtx3060"},
        {"Tesla V100-SXM2-16GB", "v100-sxm2"},
        {"Tesla V100-SXM2-32GB", "v100-sxm2"},
    };
    if (!device_name) return NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(device_name, names[i].device_name) == 0) return rl_hw_find(names[i].id);
    return NULL;
}

const char *rl_peak_name(rl_peak_kind kind) {
    switch (kind) {
    case RL_PEAK_FP32: return "fp32 CUDA core";
    case RL_PEAK_TF32: return "tf32 tensor";
    case RL_PEAK_FP16_TENSOR: return "fp16 tensor";
    case RL_PEAK_FP16_NONTENSOR: return "fp16 non-tensor";
    case RL_PEAK_FP8: return "fp8 tensor";
    default: return "unknown";
    }
}

const char *rl_peak_id(rl_peak_kind kind) {
    switch (kind) {
    case RL_PEAK_FP32: return "fp32";
    case RL_PEAK_TF32: return "tf32_tensor";
    case RL_PEAK_FP16_TENSOR: return "fp16_tensor";
    case RL_PEAK_FP16_NONTENSOR: return "fp16_nontensor";
    case RL_PEAK_FP8: return "fp8_tensor";
    default: return "unknown";
    }
}

rl_peak_kind rl_peak_for_dtype(rl_dtype dtype) {
    switch (dtype) {
    case RL_DTYPE_FP32: return RL_PEAK_FP32;
    case RL_DTYPE_TF32: return RL_PEAK_TF32;
    case RL_DTYPE_FP8: return RL_PEAK_FP8;
    case RL_DTYPE_NVFP4: /* no fp4 / MX ceiling kind yet: no preset has a peak for them */
    case RL_DTYPE_MXFP4:
    case RL_DTYPE_MXFP8: return RL_PEAK_COUNT;
    case RL_DTYPE_FP16:
    case RL_DTYPE_BF16:
    default: return RL_PEAK_FP16_TENSOR;
    }
}

double rl_hw_peak_for_dtype(const rl_hw *hw, rl_dtype dtype) {
    const rl_peak_kind k = rl_peak_for_dtype(dtype);
    if (!hw || k >= RL_PEAK_COUNT) return 0.0;
    return hw->peak_flops_per_s[k];
}
