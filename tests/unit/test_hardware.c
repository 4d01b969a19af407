/* Hardware presets: each preset id in CONTRACTS.md, with its datasheet figures (sources in each). */
#include "check.h"
#include "rooflab/rooflab.h"

static void ids_exist(void) {
    const char *ids[] = {"v100-sxm2", "a100-sxm4-40gb", "a100-sxm4-80gb", "a100-pcie-80gb", "h100-sxm", "h100-pcie",
                         "h200-sxm", "l4", "rtx3060", "rtx4090", "mi300x", "b200", "gb200", "b300",
                         "gb300", "rtx5090", "h20", "mi325x", "mi355x", "custom"};
    CHECK(rl_hw_count() == sizeof ids / sizeof ids[0]);
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        const rl_hw *h = rl_hw_find(ids[i]);
        CHECK(h != NULL);
        if (!h) continue;
        CHECK(strcmp(h->id, ids[i]) == 0);
        CHECK(h->source && h->source[0]);
        CHECK(h->smem_per_block_default_bytes > 0);
        if (strcmp(ids[i], "custom") != 0) {
            CHECK(h->bandwidth_bytes_per_s > 0);
            CHECK(h->peak_flops_per_s[RL_PEAK_FP16_TENSOR] > 0);
            CHECK(h->peak_flops_per_s[RL_PEAK_FP32] > 0);
            CHECK(h->sm_count > 0 && h->l2_bytes > 0 && h->smem_per_sm_bytes > 0);
            CHECK(h->source_date && h->source_date[0]);
            /* Dense peaks: the tensor rate never below the fp32 CUDA-core rate. */
            CHECK(h->peak_flops_per_s[RL_PEAK_FP16_TENSOR] >= h->peak_flops_per_s[RL_PEAK_FP32]);
            CHECK(h->smem_per_block_optin_bytes >= h->smem_per_block_default_bytes);
        }
    }
    CHECK(rl_hw_at(rl_hw_count()) == NULL);
    CHECK(strcmp(rl_hw_at(rl_hw_count() - 1)->id, "custom") == 0);
    CHECK(rl_hw_find("nope") == NULL);
    CHECK(rl_hw_find(NULL) == NULL);
    /* An unknown id: the error names the field and lists every id, the last one included. */
    rl_error err;
    CHECK(rl_hw_lookup("nope", "hw", NULL, &err) == RL_ERR_UNKNOWN);
    CHECK_STR_CONTAINS(err.message, "hw: unknown preset \"nope\"; expected one of v100-sxm2, ");
    CHECK_STR_CONTAINS(err.message, ", mi325x, mi355x, custom");
}

static void datasheet_figures(void) {
    /* Datasheet figures, dense. */
    const rl_hw *h = rl_hw_find("h100-sxm");
    CHECK_CLOSE(h->bandwidth_bytes_per_s, 3350e9, 0);
    CHECK_CLOSE(h->peak_flops_per_s[RL_PEAK_FP16_TENSOR], 989e12, 0); /* 1979 is sparse */
    CHECK_CLOSE(h->peak_flops_per_s[RL_PEAK_FP8], 1979e12, 0);
    CHECK_CLOSE(h->peak_flops_per_s[RL_PEAK_TF32], 494.7e12, 0);
    CHECK_CLOSE(h->peak_flops_per_s[RL_PEAK_FP32], 66.9e12, 0);
    CHECK(h->sm_count == 132);
    CHECK_CLOSE(h->smem_per_block_optin_bytes, 227 * 1024, 0);
    const rl_hw *v = rl_hw_find("v100-sxm2");
    CHECK_CLOSE(v->peak_flops_per_s[RL_PEAK_FP16_TENSOR], 125e12, 0);
    CHECK_CLOSE(v->peak_flops_per_s[RL_PEAK_FP16_NONTENSOR], 31.4e12, 0);
    CHECK(v->peak_flops_per_s[RL_PEAK_FP8] == 0); /* none */
    CHECK_STR_CONTAINS(v->notes, "31.4");
    const rl_hw *a40 = rl_hw_find("a100-sxm4-40gb"), *a80 = rl_hw_find("a100-sxm4-80gb");
    CHECK_CLOSE(a40->bandwidth_bytes_per_s, 1555e9, 0);
    CHECK_CLOSE(a80->bandwidth_bytes_per_s, 2039e9, 0);
    CHECK(a80->peak_flops_per_s[RL_PEAK_FP8] == 0);
    CHECK_CLOSE(rl_hw_find("h200-sxm")->bandwidth_bytes_per_s, 4800e9, 0);
    CHECK_CLOSE(rl_hw_find("h100-pcie")->peak_flops_per_s[RL_PEAK_FP16_TENSOR], 756e12, 0);
    CHECK_CLOSE(rl_hw_find("rtx4090")->peak_flops_per_s[RL_PEAK_FP16_TENSOR], 165.2e12, 0);
    CHECK_CLOSE(rl_hw_find("rtx3060")->bandwidth_bytes_per_s, 360e9, 0);
    CHECK_CLOSE(rl_hw_find("mi300x")->bandwidth_bytes_per_s, 5.3e12, 1e-15);
    CHECK(rl_hw_find("mi300x")->sm_count == 304);
    CHECK_CLOSE(rl_hw_find("l4")->bandwidth_bytes_per_s, 300e9, 0);
    CHECK(rl_hw_find("l4")->sm_count == 58); /* 7,424 CUDA cores / 128 per Ada SM */
    /* Corrections: MI300X fp32 is 163.4 TFLOP/s (81.7 is fp64 vector); its L2 is 4 MB per XCD
     * × 8 = 32 MB, the 256 MB Infinity Cache is not L2. A100 PCIe 80 GB: 1,935 GB/s. */
    const rl_hw *mi = rl_hw_find("mi300x");
    CHECK_CLOSE(mi->peak_flops_per_s[RL_PEAK_FP32], 163.4e12, 0);
    CHECK_CLOSE(mi->l2_bytes, 32.0 * 1024 * 1024, 0);
    CHECK_STR_CONTAINS(mi->notes, "Infinity Cache");
    const rl_hw *ap = rl_hw_find("a100-pcie-80gb");
    CHECK_CLOSE(ap->bandwidth_bytes_per_s, 1935e9, 0);
    CHECK_CLOSE(ap->peak_flops_per_s[RL_PEAK_FP16_TENSOR], 312e12, 0);
}

/* Beyond DRAM: L2 bandwidth plateaus, the clock of the peaks, the exp rate (16/SM/clock). */
static void levels_and_clocks(void) {
    const rl_hw *h = rl_hw_find("h100-sxm");
    CHECK_CLOSE(h->l2_bandwidth_bytes_per_s, 9.7e12, 0);
    CHECK(h->l2_bandwidth_source && strstr(h->l2_bandwidth_source, "gpu-benches"));
    CHECK_CLOSE(h->sm_clock_hz, 1.83e9, 0);
    /* The datasheet peak follows from the clock: 132 SMs × 4096 FLOP/clock × 1.83 GHz. */
    CHECK_CLOSE(132.0 * 4096 * h->sm_clock_hz, h->peak_flops_per_s[RL_PEAK_FP16_TENSOR], 1e-3);
    /* FA3's "3.9 TFLOPS of exponential": 16 × 132 × 1.83e9 = 3.86496e12 /s. */
    CHECK_CLOSE(h->exp_per_s, 3.86496e12, 1e-12);
    CHECK(h->sm_arch == 90);
    const rl_hw *a = rl_hw_find("a100-sxm4-80gb");
    CHECK_CLOSE(a->l2_bandwidth_bytes_per_s, 5.4e12, 0);
    CHECK_CLOSE(a->exp_per_s, 16.0 * 108 * 1.41e9, 1e-12);
    CHECK(a->sm_arch == 80);
    CHECK_CLOSE(rl_hw_find("h100-pcie")->l2_bandwidth_bytes_per_s, 6.9e12, 0);
    for (size_t i = 0; i < rl_hw_count(); i++) {
        const rl_hw *p = rl_hw_at(i);
        CHECK((p->l2_bandwidth_bytes_per_s > 0) == (p->l2_bandwidth_source != NULL));
        /* every preset but custom has what a prediction needs (issue 17) */
        int custom = strcmp(p->id, "custom") == 0;
        CHECK(custom || (p->l2_bandwidth_bytes_per_s > 0 && p->sm_clock_hz > 0 && p->exp_per_s > 0));
    }
    CHECK(rl_hw_find("custom")->l2_bandwidth_bytes_per_s == 0); /* no figure: never a guess */
}

/* The five presets issue 17 completed, against the figures hand-copied from their sources. */
static void levels_of_the_other_presets(void) {
    /* V100 SXM2: gpu-benches gpu-cache v100.txt, 384 kB-5.5 MB plateau 2350-2458 GB/s -> 2.4 TB/s;
     * 125 TFLOP/s = 80 SMs x 1024 FLOP/clock x 1.53 GHz; exp 16 x 80 x 1.53e9 = 1.9584e12 /s. */
    const rl_hw *v = rl_hw_find("v100-sxm2");
    CHECK_CLOSE(v->l2_bandwidth_bytes_per_s, 2.4e12, 0);
    CHECK(strstr(v->l2_bandwidth_source, "gpu-cache") && strstr(v->l2_bandwidth_source, "v100.txt"));
    CHECK_CLOSE(80.0 * 1024 * v->sm_clock_hz, v->peak_flops_per_s[RL_PEAK_FP16_TENSOR], 1e-2);
    CHECK_CLOSE(v->exp_per_s, 1.9584e12, 1e-12);
    CHECK(v->sm_arch == 70);
    /* L4: 30.3 TFLOP/s / (58 x 256) = 2.0406 GHz, 2.04 GHz; L2 derived from the L40's 5.2 TB/s
     * x 6/12 partitions x 2.04/2.49 GHz = 2.130 TB/s -> 2.1 TB/s; exp 16 x 58 x 2.04e9 =
     * 1.89312e12 /s. */
    const rl_hw *l4 = rl_hw_find("l4");
    CHECK_CLOSE(l4->sm_clock_hz, 2.04e9, 0);
    CHECK_CLOSE(58.0 * 256 * l4->sm_clock_hz, l4->peak_flops_per_s[RL_PEAK_FP32], 1e-2);
    CHECK_CLOSE(l4->l2_bandwidth_bytes_per_s, 2.1e12, 0);
    CHECK_CLOSE(5.2e12 * 6 / 12 * 2.04 / 2.49, l4->l2_bandwidth_bytes_per_s, 0.02);
    CHECK(strstr(l4->l2_bandwidth_source, "derived") && strstr(l4->l2_bandwidth_source, "l40.txt"));
    CHECK_CLOSE(l4->exp_per_s, 1.89312e12, 1e-12);
    /* RTX 3060: 12.74 TFLOP/s = 28 x 256 x 1.777 GHz; L2 from the A40's 2.48 TB/s x 6/12 x
     * 1.777/1.74 = 1.2664 TB/s -> 1.27 TB/s; exp 16 x 28 x 1.777e9 = 7.96096e11 /s. */
    const rl_hw *r3 = rl_hw_find("rtx3060");
    CHECK_CLOSE(28.0 * 256 * r3->sm_clock_hz, r3->peak_flops_per_s[RL_PEAK_FP32], 1e-3);
    CHECK_CLOSE(r3->l2_bandwidth_bytes_per_s, 1.27e12, 0);
    CHECK_CLOSE(2.48e12 * 6 / 12 * 1.777 / 1.74, r3->l2_bandwidth_bytes_per_s, 0.01);
    CHECK(strstr(r3->l2_bandwidth_source, "a40.txt"));
    CHECK_CLOSE(r3->exp_per_s, 7.96096e11, 1e-12);
    CHECK(r3->sm_arch == 86);
    /* RTX 4090: 82.6 TFLOP/s = 128 x 256 x 2.52 GHz; L2 4903 GB/s (smallscientist1, cp.async);
     * exp 16 x 128 x 2.52e9 = 5.16096e12 /s. */
    const rl_hw *r4 = rl_hw_find("rtx4090");
    CHECK_CLOSE(128.0 * 256 * r4->sm_clock_hz, r4->peak_flops_per_s[RL_PEAK_FP32], 1e-3);
    CHECK_CLOSE(r4->l2_bandwidth_bytes_per_s, 4.9e12, 0);
    CHECK(strstr(r4->l2_bandwidth_source, "cuda_microbenchmark"));
    CHECK_CLOSE(r4->exp_per_s, 5.16096e12, 1e-12);
    /* MI300X: 1307.4 TFLOP/s = 304 CUs x 2048 FLOP/clock x 2.1 GHz; gpu-cache mi300x.txt plateau
     * 26.8-28.4 TB/s -> 27.5 TB/s; exp 16 x 304 x 2.1e9 = 1.02144e13 /s. */
    const rl_hw *mi = rl_hw_find("mi300x");
    CHECK_CLOSE(304.0 * 2048 * mi->sm_clock_hz, mi->peak_flops_per_s[RL_PEAK_FP16_TENSOR], 1e-4);
    CHECK_CLOSE(mi->l2_bandwidth_bytes_per_s, 27.5e12, 0);
    CHECK(strstr(mi->l2_bandwidth_source, "mi300x.txt"));
    CHECK_CLOSE(mi->exp_per_s, 1.02144e13, 1e-12);
    CHECK(mi->sm_arch == 0);
}

static void dtype_peaks(void) {
    const rl_hw *h = rl_hw_find("a100-sxm4-80gb");
    CHECK_CLOSE(rl_hw_peak_for_dtype(h, RL_DTYPE_FP16), 312e12, 0);
    CHECK_CLOSE(rl_hw_peak_for_dtype(h, RL_DTYPE_BF16), 312e12, 0);
    CHECK_CLOSE(rl_hw_peak_for_dtype(h, RL_DTYPE_TF32), 156e12, 0);
    CHECK_CLOSE(rl_hw_peak_for_dtype(h, RL_DTYPE_FP32), 19.5e12, 0);
    CHECK(rl_hw_peak_for_dtype(h, RL_DTYPE_FP8) == 0);
    CHECK(rl_hw_peak_for_dtype(NULL, RL_DTYPE_FP16) == 0);
    CHECK(strcmp(rl_peak_name(RL_PEAK_FP32), "fp32 CUDA core") == 0);
    CHECK(strcmp(rl_peak_name(RL_PEAK_FP16_NONTENSOR), "fp16 non-tensor") == 0);
    rl_dtype d;
    CHECK(rl_dtype_parse("bf16", "dtype", &d, NULL) == RL_OK && d == RL_DTYPE_BF16);
    CHECK(rl_dtype_parse("e4m3", "dtype", &d, NULL) == RL_OK && d == RL_DTYPE_FP8);
    rl_error err;
    CHECK(rl_dtype_parse("int8", "kv-dtype", &d, &err) == RL_ERR_UNKNOWN);
    CHECK_STR_CONTAINS(err.message, "kv-dtype: expected one of fp32, tf32, fp16, bf16, fp8, nvfp4, mxfp4, mxfp8, got \"int8\"");
    CHECK(rl_dtype_bytes(RL_DTYPE_FP32) == 4 && rl_dtype_bytes(RL_DTYPE_TF32) == 4);
    CHECK(rl_dtype_bytes(RL_DTYPE_FP16) == 2 && rl_dtype_bytes(RL_DTYPE_BF16) == 2);
    CHECK(rl_dtype_bytes(RL_DTYPE_FP8) == 1);
}

/* Device names as drivers report them → presets; a name that does not say which part → NULL. */
static void device_names(void) {
    const struct {
        const char *name, *id;
    } cases[] = {
        {"NVIDIA H100 80GB HBM3", "h100-sxm"},  {"NVIDIA H100 PCIe", "h100-pcie"},
        {"NVIDIA H200", "h200-sxm"},            {"NVIDIA A100-SXM4-40GB", "a100-sxm4-40gb"},
        {"Tesla V100-SXM2-32GB", "v100-sxm2"}, {"NVIDIA GeForce RTX 4090", "rtx4090"},
        {"NVIDIA B200", "b200"},                {"NVIDIA GB200", "gb200"},
        {"NVIDIA B300 SXM6 AC", "b300"},        {"NVIDIA GB300", "gb300"},
        {"NVIDIA GeForce RTX 5090", "rtx5090"}, {"NVIDIA H20", "h20"},
        {"AMD Instinct MI325X", "mi325x"},      {"AMD Instinct MI355X", "mi355x"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const rl_hw *h = rl_hw_match_device(cases[i].name);
        CHECK(h != NULL && strcmp(h->id, cases[i].id) == 0);
    }
    CHECK(rl_hw_match_device("NVIDIA A100") == NULL); /* 40 or 80 GB: not said */
    CHECK(rl_hw_match_device("NVIDIA H20-3e") == NULL); /* 141 GB HBM3e: another part */
    CHECK(rl_hw_match_device("NVIDIA GeForce RTX 5090 D") == NULL);
    CHECK(rl_hw_match_device("AMD Ryzen 9 7950X 16-Core Processor") == NULL);
    CHECK(rl_hw_match_device("") == NULL);
    CHECK(rl_hw_match_device(NULL) == NULL);
}

/* Issue 18: Blackwell, Blackwell Ultra, RTX 5090, H20, MI325X, MI355X, each against figures
 * hand-copied from its source (the arithmetic in the comments), and the traps. */
static void issue18_presets(void) {
    /* Appended peak slots: the earlier indices (and so the JSON keys) unchanged. */
    CHECK(RL_PEAK_FP32 == 0 && RL_PEAK_FP8 == 4 && RL_PEAK_FP6 == 5 && RL_PEAK_FP4 == 6);
    CHECK(strcmp(rl_peak_id(RL_PEAK_FP8), "fp8_tensor") == 0);
    CHECK(strcmp(rl_peak_id(RL_PEAK_FP6), "fp6_tensor") == 0);
    CHECK(strcmp(rl_peak_id(RL_PEAK_FP4), "fp4_tensor") == 0);
    CHECK(strcmp(rl_peak_name(RL_PEAK_FP4), "fp4 tensor") == 0);
    CHECK(rl_hw_find("h100-sxm")->peak_flops_per_s[RL_PEAK_FP4] == 0); /* Hopper: no fp4 */

    /* B200, DGX B200 datasheet (8 GPUs, WITH sparsity): fp16 36 PF, fp8/fp6 72 PF, fp4 144 PF,
     * tf32 18 PF; HBM3e 64 TB/s. Per GPU /8, dense = sparse/2: fp16 36/8/2 = 2.25 PF, fp8
     * 72/8/2 = 4.5, fp4 144/8/2 = 9, tf32 18/8/2 = 1.125; 64/8 = 8 TB/s. */
    const rl_hw *b = rl_hw_find("b200");
    CHECK_CLOSE(b->bandwidth_bytes_per_s, 64e12 / 8, 1e-15);
    CHECK_CLOSE(b->peak_flops_per_s[RL_PEAK_FP16_TENSOR], 36e15 / 8 / 2, 1e-15);
    CHECK_CLOSE(b->peak_flops_per_s[RL_PEAK_FP8], 72e15 / 8 / 2, 1e-15);
    CHECK_CLOSE(b->peak_flops_per_s[RL_PEAK_FP6], 72e15 / 8 / 2, 1e-15);
    CHECK_CLOSE(b->peak_flops_per_s[RL_PEAK_FP4], 144e15 / 8 / 2, 1e-15);
    CHECK_CLOSE(b->peak_flops_per_s[RL_PEAK_TF32], 18e15 / 8 / 2, 1e-15);
    /* The sparse trap: NVIDIA's per-GPU 4.5 PFLOP/s fp16 is with sparsity, not the preset's. */
    CHECK(b->peak_flops_per_s[RL_PEAK_FP16_TENSOR] < 4.5e15 * 0.51);
    CHECK_STR_CONTAINS(b->notes, "SPARSE TRAP");
    CHECK(b->sm_count == 148 && b->sm_arch == 100);
    CHECK_CLOSE(b->l2_bytes, 132644864.0, 0); /* cudaDeviceProp.l2CacheSize, 126.5 MiB */
    CHECK_CLOSE(b->tmem_per_sm_bytes, 256.0 * 1024, 0);
    CHECK_CLOSE(b->smem_per_block_optin_bytes, 227.0 * 1024, 0);
    /* Clock of the tensor peaks: 2.25e15 / (148 SMs x 8192 FLOP/clock) = 1.8557 GHz; the fp32
     * figure 75e12 / (148 x 256) = 1.979 GHz is the boost clock (the clock trap). */
    CHECK_CLOSE(148.0 * 8192 * b->sm_clock_hz, b->peak_flops_per_s[RL_PEAK_FP16_TENSOR], 1e-3);
    CHECK(75e12 / (148.0 * 256) > b->sm_clock_hz * 1.05);
    CHECK_STR_CONTAINS(b->notes, "CLOCK TRAP");
    /* exp: 16/SM/clock as Hopper, 16 x 148 x 1.856e9 = 4.395008e12 /s. */
    CHECK_CLOSE(b->exp_per_s, 4.395008e12, 1e-12);
    CHECK(b->l2_bandwidth_source && strstr(b->l2_bandwidth_source, "derived"));

    /* GB200 NVL72 datasheet (72 GPUs, with sparsity): fp4 1,440 PF, fp8 720, fp16 360, tf32 180;
     * fp32 5,760 TF; HBM 576 TB/s. Per GPU: fp16 360/72/2 = 2.5 PF, fp8 720/72/2 = 5, fp4
     * 1440/72/2 = 10, tf32 180/72/2 = 1.25, fp32 5760/72 = 80 TF, 576/72 = 8 TB/s. */
    const rl_hw *g = rl_hw_find("gb200");
    CHECK_CLOSE(g->peak_flops_per_s[RL_PEAK_FP16_TENSOR], 360e15 / 72 / 2, 1e-15);
    CHECK_CLOSE(g->peak_flops_per_s[RL_PEAK_FP8], 720e15 / 72 / 2, 1e-15);
    CHECK_CLOSE(g->peak_flops_per_s[RL_PEAK_FP4], 1440e15 / 72 / 2, 1e-15);
    CHECK_CLOSE(g->peak_flops_per_s[RL_PEAK_TF32], 180e15 / 72 / 2, 1e-15);
    CHECK_CLOSE(g->peak_flops_per_s[RL_PEAK_FP32], 5760e12 / 72, 1e-15);
    CHECK_CLOSE(g->bandwidth_bytes_per_s, 576e12 / 72, 1e-15);
    /* GB200's GPU is not an HGX B200: 2.5 / 2.25 = 1.11x the peak, from its higher clock. */
    CHECK_CLOSE(g->peak_flops_per_s[RL_PEAK_FP16_TENSOR] / b->peak_flops_per_s[RL_PEAK_FP16_TENSOR],
                2.5 / 2.25, 1e-12);
    CHECK_CLOSE(148.0 * 8192 * g->sm_clock_hz, g->peak_flops_per_s[RL_PEAK_FP16_TENSOR], 1e-3);

    /* B300, HGX B300 (8 GPUs): fp4 144 PF sparse | 108 PF dense -> 18 | 13.5 per GPU: dense is
     * 3/4 of sparse, not half (Blackwell Ultra's fp4 trap); fp8 72 PF sparse -> 4.5 dense. */
    const rl_hw *u = rl_hw_find("b300");
    CHECK_CLOSE(u->peak_flops_per_s[RL_PEAK_FP4], 108e15 / 8, 1e-15);
    CHECK_CLOSE(u->peak_flops_per_s[RL_PEAK_FP4] / (144e15 / 8), 0.75, 1e-12);
    CHECK_CLOSE(u->peak_flops_per_s[RL_PEAK_FP8], 72e15 / 8 / 2, 1e-15);
    CHECK_CLOSE(u->peak_flops_per_s[RL_PEAK_FP16_TENSOR], b->peak_flops_per_s[RL_PEAK_FP16_TENSOR], 0);
    CHECK(u->sm_count == 148 && u->sm_arch == 103); /* B300 SXM6 AC: sm_103a, 148 SMs */
    /* fp4 per SM per clock is 6x fp16 on Ultra (4x on B200): 148 x 8192 x 6 x 1.856e9 = 13.5e15. */
    CHECK_CLOSE(148.0 * 8192 * 6 * u->sm_clock_hz, u->peak_flops_per_s[RL_PEAK_FP4], 1e-3);
    /* Doubled SFU: 32 exp2 per SM per clock, 32 x 148 x 1.856e9 = 8.790016e12 /s; per SM per
     * clock twice B200's (NVIDIA: 10.7 vs 5 TeraExponentials/s). */
    CHECK_CLOSE(u->exp_per_s, 8.790016e12, 1e-12);
    CHECK_CLOSE((u->exp_per_s / (u->sm_count * u->sm_clock_hz)) /
                    (b->exp_per_s / (b->sm_count * b->sm_clock_hz)), 2.0, 1e-12);
    /* L2 measured: 17 TB/s (ld.global.cg, full occupancy, 8-128 MB working sets, 1.92 GHz). */
    CHECK_CLOSE(u->l2_bandwidth_bytes_per_s, 17e12, 0);
    CHECK(strstr(u->l2_bandwidth_source, "B300") && !strstr(u->l2_bandwidth_source, "derived"));
    CHECK_CLOSE(u->tmem_per_sm_bytes, 256.0 * 1024, 0);

    /* GB300 NVL72 (72 GPUs): fp4 1,080 PF dense -> 15 PF; fp8 720 sparse -> 5 dense; 576 TB/s
     * -> 8 TB/s. Same dense fp16/fp8 as GB200; twice its exp rate at the same clock. */
    const rl_hw *gu = rl_hw_find("gb300");
    CHECK_CLOSE(gu->peak_flops_per_s[RL_PEAK_FP4], 1080e15 / 72, 1e-15);
    CHECK_CLOSE(gu->peak_flops_per_s[RL_PEAK_FP8], 720e15 / 72 / 2, 1e-15);
    CHECK_CLOSE(gu->peak_flops_per_s[RL_PEAK_FP16_TENSOR], g->peak_flops_per_s[RL_PEAK_FP16_TENSOR], 0);
    CHECK_CLOSE(gu->bandwidth_bytes_per_s, 576e12 / 72, 1e-15);
    CHECK_CLOSE(gu->exp_per_s / g->exp_per_s, 2.0, 1e-12);
    /* L2 derived by clock: 17 TB/s x 2.062/1.92 = 18.257 TB/s -> 18.3. */
    CHECK_CLOSE(17e12 * 2.062 / 1.92, gu->l2_bandwidth_bytes_per_s, 0.01);

    /* RTX 5090, RTX Blackwell whitepaper App. A: 1,792 GB/s GDDR7, 170 SMs, 104.8 TFLOP/s fp32
     * = 170 x 256 x 2.407 GHz (104.75); fp16 tensor 419 TFLOP/s with fp16 accumulation, HALF
     * (209.5) with fp32 accumulation (the GeForce trap); fp4 3352 sparse / 2 = 1676. */
    const rl_hw *r5 = rl_hw_find("rtx5090");
    CHECK_CLOSE(r5->bandwidth_bytes_per_s, 1792e9, 0);
    CHECK(r5->sm_count == 170 && r5->sm_arch == 120);
    CHECK_CLOSE(170.0 * 256 * r5->sm_clock_hz, r5->peak_flops_per_s[RL_PEAK_FP32], 1e-3);
    CHECK_CLOSE(r5->peak_flops_per_s[RL_PEAK_FP16_TENSOR], 419e12 / 2, 1e-15);
    CHECK_CLOSE(r5->peak_flops_per_s[RL_PEAK_FP4], 3352e12 / 2, 1e-15);
    CHECK_STR_CONTAINS(r5->notes, "HALF rate");
    CHECK(r5->tmem_per_sm_bytes == 0); /* cc 12.0: no tcgen05, no TMEM */
    CHECK_CLOSE(r5->l2_bytes, 96.0 * 1024 * 1024, 0);
    /* L2 derived: the RTX 4090's 4.9 TB/s x 16/12 partitions x 2.407/2.52 GHz = 6.240 TB/s. */
    CHECK_CLOSE(4.9e12 * 16 / 12 * 2.407 / 2.52, r5->l2_bandwidth_bytes_per_s, 0.01);
    CHECK(strstr(r5->l2_bandwidth_source, "derived"));

    /* H20: 148 TFLOP/s fp16 dense, 296 fp8, 4.0 TB/s HBM3, 78 SMs: ridge 148/4.0 = 37 FLOP/B. */
    const rl_hw *h20 = rl_hw_find("h20");
    CHECK_CLOSE(h20->peak_flops_per_s[RL_PEAK_FP16_TENSOR], 148e12, 0);
    CHECK_CLOSE(h20->peak_flops_per_s[RL_PEAK_FP8], 296e12, 0);
    CHECK_CLOSE(h20->bandwidth_bytes_per_s, 4.0e12, 1e-15);
    CHECK(h20->sm_count == 78 && h20->sm_arch == 90);
    CHECK_CLOSE(h20->peak_flops_per_s[RL_PEAK_FP16_TENSOR] / h20->bandwidth_bytes_per_s, 37.0, 1e-12);
    /* L2 derived: the H200's 9.7 TB/s x 78/132 SMs = 5.732 TB/s -> 5.7. */
    CHECK_CLOSE(9.7e12 * 78 / 132, h20->l2_bandwidth_bytes_per_s, 0.01);

    /* MI325X: MI300X's die (1307.4 TFLOP/s fp16, 304 CUs) with 256 GB HBM3E at 6 TB/s. */
    const rl_hw *m3 = rl_hw_find("mi325x"), *m0 = rl_hw_find("mi300x");
    CHECK_CLOSE(m3->bandwidth_bytes_per_s, 6e12, 1e-15);
    CHECK_CLOSE(m3->peak_flops_per_s[RL_PEAK_FP16_TENSOR], 1307.4e12, 0);
    CHECK_CLOSE(m3->peak_flops_per_s[RL_PEAK_FP8], 2614.9e12, 0);
    CHECK(m3->sm_count == 304 && m3->peak_flops_per_s[RL_PEAK_FP4] == 0);
    CHECK_CLOSE(m3->l2_bandwidth_bytes_per_s, m0->l2_bandwidth_bytes_per_s, 0);

    /* MI355X (CDNA 4): 256 CUs at 2.4 GHz; fp16 256 x 4096 x 2.4e9 = 2516.58 TFLOP/s, fp8 x2 =
     * 5033.2, fp6 = fp4 = x4 = 10066.3 (AMD's "20.1 PF fp4/fp6" is sparse: /2 = 10.05); 8 TB/s;
     * LDS 160 KiB; no tf32 matrix path. */
    const rl_hw *m5 = rl_hw_find("mi355x");
    CHECK(m5->sm_count == 256);
    CHECK_CLOSE(m5->bandwidth_bytes_per_s, 8e12, 1e-15);
    CHECK_CLOSE(256.0 * 4096 * m5->sm_clock_hz, m5->peak_flops_per_s[RL_PEAK_FP16_TENSOR], 1e-4);
    CHECK_CLOSE(256.0 * 8192 * m5->sm_clock_hz, m5->peak_flops_per_s[RL_PEAK_FP8], 1e-4);
    CHECK_CLOSE(256.0 * 16384 * m5->sm_clock_hz, m5->peak_flops_per_s[RL_PEAK_FP4], 1e-4);
    CHECK_CLOSE(m5->peak_flops_per_s[RL_PEAK_FP6], m5->peak_flops_per_s[RL_PEAK_FP4], 0);
    CHECK_CLOSE(20.1e15 / 2, m5->peak_flops_per_s[RL_PEAK_FP4], 0.01);
    CHECK(m5->peak_flops_per_s[RL_PEAK_TF32] == 0);
    CHECK_CLOSE(m5->smem_per_sm_bytes, 160.0 * 1024, 0);
    CHECK_CLOSE(m5->l2_bytes, 32.0 * 1024 * 1024, 0);
}

int main(void) {
    ids_exist();
    datasheet_figures();
    dtype_peaks();
    device_names();
    levels_and_clocks();
    levels_of_the_other_presets();
    issue18_presets();
    return check_report("test_hardware");
}
