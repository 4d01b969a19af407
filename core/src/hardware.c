/* hardware.c — datasheet presets. Figures from vendor datasheets and whitepapers, L2 bandwidth
 * from published microbenchmarks. Peaks are dense (no structured sparsity) at boost clock. Cache and shared-memory
 * sizes are binary (NVIDIA's "KB"/"MB" for on-chip memories are KiB/MiB); DRAM bandwidth is
 * decimal (GB/s = 10⁹ B/s), always. 0 means "not available or not verified" — never a guess.
 * Sources: each preset's `source` (and `l2_bandwidth_source`); docs/MODEL.md "Hardware presets". */
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define KIB 1024.0
#define MIB (1024.0 * 1024.0)
/* Token pasting keeps each figure an exact decimal literal: TF(66.9) is 66.9e12, not 66.9 × 1e12. */
#define GBPS(x) x##e9
#define TF(x) x##e12

/* Order of peak_flops_per_s: fp32 CUDA core, tf32 tensor, fp16 tensor, fp16 non-tensor, fp8,
 * fp6, fp4 (the last two only on Blackwell and CDNA 4; 0 elsewhere). The last six figures of
 * each preset: L2 read bandwidth and its source, the SM clock of the datasheet peaks, the exp2
 * rate, the compute capability × 10, and Tensor Memory per SM (datacenter Blackwell only).
 * exp2 rate: 16/SM/clock × SMs × clock (CUDA C++ Programming Guide's arithmetic-instruction
 * table for cc 7.x, 8.0, 8.6, 8.9, 9.0 and 10.0; Blackwell Ultra, cc 10.3: 32, NVIDIA's doubled
 * SFU; AMD CDNA: a quarter of the 64 lanes/CU/clock of normal 32-bit VALU instructions, also
 * 16/CU/clock). */
#define GPU_BENCHES_L2 "te42kyfo/gpu-benches gpu-l2-cache plateau (2024)"
/* gpu-benches' gpu-cache (one block per SM re-reading one buffer): past L1 its plateau is the
 * L2 read bandwidth (A100 80GB: 5.4-5.5 TB/s there, 5.4 TB/s in gpu-l2-cache). */
#define GPU_BENCHES_CACHE "RRZE-HPC/gpu-benches gpu-cache results (commit 7d13a4a, 2025-02-11)"
#define EXP_RATE_N(per_sm_clock, sms, clock_hz) ((per_sm_clock) * (double)(sms) * (clock_hz))
#define EXP_RATE(sms, clock_hz) EXP_RATE_N(16.0, sms, clock_hz)
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
     2.4e12, GPU_BENCHES_CACHE ", v100.txt", 1.53e9, EXP_RATE(80, 1.53e9), 70, 0},
    {"a100-sxm4-40gb", "NVIDIA A100 SXM4 40GB", "Ampere (sm_80)", GBPS(1555),
     {TF(19.5), TF(156), TF(312), TF(78), 0},
     164 * KIB, 48 * KIB, 163 * KIB, 40 * MIB, 108,
     "NVIDIA A100 Tensor Core GPU Architecture whitepaper, Table 1", "2020-05",
     "Tensor peaks are dense; the whitepaper's 624 TFLOP/s fp16 is with sparsity. No fp8. "
     "L2 bandwidth: the A100 80 GB measurement (same GA100 die, SMs and clock).",
     5.4e12, GPU_BENCHES_L2 ", A100 80GB", 1.41e9, EXP_RATE(108, 1.41e9), 80, 0},
    {"a100-sxm4-80gb", "NVIDIA A100 SXM4 80GB", "Ampere (sm_80)", GBPS(2039),
     {TF(19.5), TF(156), TF(312), TF(78), 0},
     164 * KIB, 48 * KIB, 163 * KIB, 40 * MIB, 108, "NVIDIA A100 80GB datasheet", "2021-06",
     "Tensor peaks are dense; sparse figures are 2x. No fp8.",
     5.4e12, GPU_BENCHES_L2, 1.41e9, EXP_RATE(108, 1.41e9), 80, 0},
    {"a100-pcie-80gb", "NVIDIA A100 PCIe 80GB", "Ampere (sm_80)", GBPS(1935),
     {TF(19.5), TF(156), TF(312), TF(78), 0},
     164 * KIB, 48 * KIB, 163 * KIB, 40 * MIB, 108, "NVIDIA A100 80GB PCIe datasheet", "2021-06",
     "Compute as A100 SXM (the datasheet lists the same peaks; sustained clocks under the 300 W "
     "PCIe limit can be lower). L2 bandwidth: the A100 80 GB SXM measurement (same die). No fp8.",
     5.4e12, GPU_BENCHES_L2 ", A100 80GB SXM", 1.41e9, EXP_RATE(108, 1.41e9), 80, 0},
    {"h100-sxm", "NVIDIA H100 SXM5 80GB", "Hopper (sm_90)", GBPS(3350),
     {TF(66.9), TF(494.7), TF(989), TF(133.8), TF(1979)},
     228 * KIB, 48 * KIB, 227 * KIB, 50 * MIB, 132, "NVIDIA H100 Tensor Core GPU datasheet",
     "2023-07",
     "Datasheet figures with sparsity are 2x these (1979 TFLOP/s fp16 is sparse). fp16 "
     "non-tensor 133.8 TFLOP/s is from secondary sources (unverified). Another tool uses "
     "3072 GB/s; the datasheet says 3.35 TB/s. The peaks assume 1.83 GHz (989 TFLOP/s = 132 SMs "
     "x 4096 FLOP/clock x 1.83 GHz; max boost is 1.98 GHz), the clock the FA3 paper fixed. L2 "
     "bandwidth: the H200 measurement (same GH100 die, 132 SMs, 50 MB L2).",
     9.7e12, GPU_BENCHES_L2 ", H200 (same GH100 die)", 1.83e9, EXP_RATE(132, 1.83e9), 90, 0},
    {"h100-pcie", "NVIDIA H100 PCIe 80GB", "Hopper (sm_90)", GBPS(2000),
     {TF(51.2), TF(378), TF(756), 0, TF(1513)},
     228 * KIB, 48 * KIB, 227 * KIB, 50 * MIB, 114, "NVIDIA H100 Tensor Core GPU datasheet",
     "2023-07",
     "fp16 non-tensor rate not published in the datasheet (left out). SM clock derived from the "
     "datasheet peak: 756 TFLOP/s / (114 SMs x 4096 FLOP/clock) = 1.62 GHz.",
     6.9e12, GPU_BENCHES_L2, 1.62e9, EXP_RATE(114, 1.62e9), 90, 0},
    {"h200-sxm", "NVIDIA H200 SXM 141GB", "Hopper (sm_90)", GBPS(4800),
     {TF(66.9), TF(494.7), TF(989), TF(133.8), TF(1979)},
     228 * KIB, 48 * KIB, 227 * KIB, 50 * MIB, 132, "NVIDIA H200 Tensor Core GPU datasheet",
     "2024-11",
     "Compute as H100 SXM (peaks at 1.83 GHz). fp16 non-tensor taken as H100's (unverified). "
     "Measured on one H200: copy ~4.3 TB/s read+write, bf16 GEMM ~790 TFLOP/s.",
     9.7e12, GPU_BENCHES_L2, 1.83e9, EXP_RATE(132, 1.83e9), 90, 0},
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
             "partitions and clock", 2.04e9, EXP_RATE(58, 2.04e9), 89, 0},
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
     1.777e9, EXP_RATE(28, 1.777e9), 86, 0},
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
     EXP_RATE(128, 2.52e9), 89, 0},
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
     27.5e12, GPU_BENCHES_CACHE ", mi300x.txt", 2.1e9, EXP_RATE(304, 2.1e9), 0, 0},
    /* Datacenter Blackwell. NVIDIA publishes these peaks per system (DGX/HGX: 8 GPUs; NVL72:
     * 72) and WITH 2:4 sparsity: per GPU = system / GPUs, dense = sparse / 2 (except Blackwell
     * Ultra's fp4, whose dense figure is 3/4 of the sparse one). All four parts run 148 SMs (the
     * full die has 160). The tensor peaks are quoted at a lower clock than the fp32 ones. */
    {"b200", "NVIDIA B200 (HGX/DGX, 1000 W)", "Blackwell (sm_100)", GBPS(8000),
     {TF(75), TF(1125), TF(2250), 0, TF(4500), TF(4500), TF(9000)},
     228 * KIB, 48 * KIB, 227 * KIB, 126.5 * MIB, 148,
     "NVIDIA DGX B200 datasheet and HGX B200 specifications (8 GPUs: 144 PF fp4, 72 PF fp8/fp6, "
     "36 PF fp16, 18 PF tf32 with sparsity, 600 TF fp32, 64 TB/s HBM3e), per GPU = /8, dense = "
     "sparse/2", "2024-05",
     "SPARSE TRAP: NVIDIA lists 4.5 PFLOP/s fp16 and 9 PFLOP/s fp8 per B200: those are with 2:4 "
     "sparsity; dense is half (2.25 fp16, 4.5 fp8, 9 fp4). fp6 runs at the fp8 rate. CLOCK TRAP: "
     "the tensor peaks imply 2250 TFLOP/s / (148 SMs x 8192 FLOP/clock) = 1.856 GHz, the fp32 "
     "figure 75 TFLOP/s / (148 x 256) = 1.98 GHz (max boost); under a sustained 1000 W tensor "
     "load the SM clock sits near the former or below. 148 SMs and the 126.5 MB L2 (two "
     "partitions, one per die) from Chips and Cheese's B200 article and cudaDeviceProp. "
     "Shared memory 228 KB/SM (227 KB opt-in per block) as Hopper; Tensor Memory (TMEM) 256 KB "
     "per SM, used by tcgen05 MMAs. L2 bandwidth DERIVED, not measured on a B200: the B300 "
     "measurement (same 148 SMs, same two-partition 126.5 MB L2). exp: MUFU.EX2 16/SM/clock as "
     "Hopper, at 1.856 GHz = 4.4e12/s; NVIDIA's Blackwell Ultra table quotes 5 TeraExponentials/s "
     "for Blackwell (a ~2.1 GHz clock).",
     17e12, "derived: the B300 figure (see b300), same SM count and L2 layout", 1.856e9,
     EXP_RATE(148, 1.856e9), 100, 256 * KIB},
    {"gb200", "NVIDIA GB200 (one Blackwell GPU of NVL72, 1200 W)", "Blackwell (sm_100)", GBPS(8000),
     {TF(80), TF(1250), TF(2500), 0, TF(5000), TF(5000), TF(10000)},
     228 * KIB, 48 * KIB, 227 * KIB, 126.5 * MIB, 148,
     "NVIDIA GB200 NVL72 datasheet (72 GPUs: 1,440 PF fp4, 720 PF fp8/fp6, 360 PF fp16, 180 PF "
     "tf32 with sparsity, 5,760 TF fp32, 576 TB/s HBM3e), per GPU = /72, dense = sparse/2",
     "2024-06",
     "Same B200 silicon, NOT the same figures: the GB200's GPUs run at up to 1200 W and higher "
     "clocks, so their peaks are ~11 % above an HGX B200's (2.5 vs 2.25 PFLOP/s fp16 dense). "
     "SPARSE TRAP: the datasheet's rack figures are with sparsity; dense is half. Tensor peaks "
     "imply 2500 TFLOP/s / (148 SMs x 8192 FLOP/clock) = 2.062 GHz; fp32 80 TFLOP/s implies "
     "2.11 GHz (boost); sustained clocks under load are lower. TMEM 256 KB/SM. L2 bandwidth "
     "DERIVED: the B300 measurement (17 TB/s at 1.92 GHz) x 2.062/1.92 GHz. exp: 16/SM/clock.",
     18.3e12, "derived: the B300 figure (see b300) scaled by clock 2.062/1.92 GHz", 2.062e9,
     EXP_RATE(148, 2.062e9), 100, 256 * KIB},
    {"b300", "NVIDIA B300 (Blackwell Ultra, HGX)", "Blackwell Ultra (sm_103)", GBPS(8000),
     {TF(75), TF(1125), TF(2250), 0, TF(4500), TF(4500), TF(13500)},
     228 * KIB, 48 * KIB, 227 * KIB, 126.5 * MIB, 148,
     "NVIDIA HGX B300 specifications (8 GPUs: 144 | 108 PF fp4 sparse | dense, 72 PF fp8/fp6, "
     "36 PF fp16, 18 PF tf32 with sparsity, 8 TB/s HBM3e per GPU), per GPU = /8; NVIDIA "
     "technical blog 'Inside NVIDIA Blackwell Ultra' (TMEM, doubled SFU) and 'Making Softmax "
     "More Efficient with NVIDIA Blackwell Ultra'", "2025-08",
     "SPARSE TRAP: fp8/fp16/tf32 are listed with sparsity (dense = half), but Blackwell Ultra's "
     "fp4 dense is 13.5 PFLOP/s, 3/4 of the 18 sparse, not half. fp8, fp6, fp16 and tf32 are "
     "B200's; fp64 and int8 were cut. The blog's 160 SMs is the full die: the product reports 148 "
     "(a B300 SXM6 AC, sm_103a, in the microbenchmark below), so the tensor peaks imply 1.856 GHz "
     "(2250 TFLOP/s / (148 x 8192)); max boost measured 2.032 GHz. exp: Blackwell Ultra DOUBLES "
     "the SFU (MUFU.EX2) rate: 32/SM/clock = 8.8e12/s at 1.856 GHz (NVIDIA's table: 10.7 "
     "TeraExponentials/s vs 5 for Blackwell, at a higher clock). TMEM 256 KB/SM. L2 126.5 MB "
     "(cudaDeviceProp). L2 bandwidth MEASURED: ld.global.cg, full occupancy, 8-128 MB working "
     "sets, 17 TB/s at 1.92 GHz (22-26 TB/s with the L1 carve-out at 0).",
     17e12, "public B300 microbenchmark report 'B300 Cache Hierarchy - Clean Reference' "
            "(NVIDIA B300 SXM6 AC, CUDA 13.2, driver 580.126; repository not recorded), 2026",
     1.856e9, EXP_RATE_N(32, 148, 1.856e9), 103, 256 * KIB},
    {"gb300", "NVIDIA GB300 (one Blackwell Ultra GPU of NVL72, 1400 W)", "Blackwell Ultra (sm_103)",
     GBPS(8000), {TF(80), TF(1250), TF(2500), 0, TF(5000), TF(5000), TF(15000)},
     228 * KIB, 48 * KIB, 227 * KIB, 126.5 * MIB, 148,
     "NVIDIA GB300 NVL72 specifications (72 GPUs: 1,440 | 1,080 PF fp4 sparse | dense, 720 PF "
     "fp8/fp6, 360 PF fp16, 180 PF tf32 with sparsity, 576 TB/s HBM3e), per GPU = /72; NVIDIA "
     "'Inside NVIDIA Blackwell Ultra' (15 PFLOP/s dense NVFP4 per GPU)", "2025-08",
     "SPARSE TRAP as b300 (fp4 dense = 3/4 sparse; the others half). GB300 beats GB200 at the "
     "same fp16/fp8 dense peak (2.5 / 5 PFLOP/s) on attention by its doubled SFU: 32/SM/clock "
     "vs 16. Tensor peaks imply 2500 TFLOP/s / (148 x 8192) = 2.062 GHz, as GB200; fp32 80 "
     "TFLOP/s per GPU from NVIDIA's per-GPU table as reproduced by Verda (unverified). 148 SMs "
     "as B300 (the blog's 160 is the full die). TMEM 256 KB/SM. L2 bandwidth DERIVED: the B300 "
     "measurement x 2.062/1.92 GHz.",
     18.3e12, "derived: the B300 figure (see b300) scaled by clock 2.062/1.92 GHz", 2.062e9,
     EXP_RATE_N(32, 148, 2.062e9), 103, 256 * KIB},
    {"rtx5090", "NVIDIA GeForce RTX 5090", "Blackwell (sm_120)", GBPS(1792),
     {TF(104.8), TF(104.8), TF(209.5), TF(104.8), TF(419), 0, TF(1676)},
     100 * KIB, 48 * KIB, 99 * KIB, 96 * MIB, 170,
     "NVIDIA RTX Blackwell GPU Architecture whitepaper, Appendix A (RTX 5090)", "2025-01",
     "GEFORCE TRAP: fp16/bf16 tensor math accumulating in fp32 runs at HALF rate: 209.5 TFLOP/s "
     "(419 with fp16 accumulation; 838 is that with sparsity); fp8 419 with fp32 accumulation "
     "(838 with fp16). fp4 1676 = the marketed 3352 'AI TOPS' (sparse) / 2. fp6 not listed "
     "(left out). cc 12.0 is NOT datacenter Blackwell: no TMEM, no tcgen05; shared memory as Ada "
     "(100 KB/SM, 99 KB per block). GDDR7 512-bit, 1.792 TB/s. Clock 2.407 GHz (boost): 104.8 "
     "TFLOP/s = 170 SMs x 256 FLOP/clock x 2.407 GHz; the card holds it only within 575 W. L2 "
     "bandwidth DERIVED, not measured: the RTX 4090's 4.9 TB/s (AD102, 384-bit) x 16/12 memory "
     "partitions (512-bit) x 2.407/2.52 GHz = 6.2 TB/s. exp: 16/SM/clock.",
     6.2e12, "derived from smallscientist1/cuda_microbenchmark analysis_RTX4090.md (commit "
             "5df4681) by memory partitions and clock", 2.407e9, EXP_RATE(170, 2.407e9), 120, 0},
    {"h20", "NVIDIA H20 96GB", "Hopper (sm_90)", GBPS(4000),
     {TF(44), TF(74), TF(148), 0, TF(296), 0, 0},
     228 * KIB, 48 * KIB, 227 * KIB, 60 * MIB, 78,
     "NVIDIA H20 specification table (no public NVIDIA datasheet; figures as reproduced by "
     "secondary sources, unverified)", "2023-11",
     "Export-limited GH100: 78 SMs (as the driver reports), 96 GB HBM3 at 4.0 TB/s, 60 MB L2. Its "
     "tensor rate is capped, not its memory: 148 TFLOP/s fp16 dense (296 fp8, 74 tf32) is ~15 % of "
     "an H100 SXM, i.e. ~1024 FLOP/SM/clock instead of Hopper's 4096, so the fp16 ridge is only "
     "37 FLOP/B and attention is compute-bound almost everywhere. fp32 44 TFLOP/s would need "
     "2.2 GHz on 78 SMs (above GH100's 1.98 GHz boost): unverified. Clock 1.98 GHz is GH100's max "
     "boost (not derivable from the capped peaks; unverified for H20). L2 bandwidth DERIVED: the "
     "H200 plateau x 78/132 SMs (SM-side request rate assumed the limit). exp: 16/SM/clock.",
     5.7e12, "derived from " GPU_BENCHES_L2 ", H200, by SM count 78/132", 1.98e9,
     EXP_RATE(78, 1.98e9), 90, 0},
    {"mi325x", "AMD Instinct MI325X", "CDNA 3 (gfx942)", GBPS(6000),
     {TF(163.4), TF(653.7), TF(1307.4), 0, TF(2614.9), 0, 0},
     64 * KIB, 64 * KIB, 64 * KIB, 32 * MIB, 304,
     "AMD Instinct MI325X datasheet; AMD ROCm GPU specifications table", "2024-10",
     "The MI300X's CDNA 3 die (304 CUs, 2.1 GHz, same peaks) with 256 GB HBM3E at 6 TB/s (vs "
     "192 GB, 5.3 TB/s). AMD's fp8/fp16 'with sparsity' figures are 2x these. L2 4 MB per XCD "
     "(32 MB); the 256 MB Infinity Cache is memory-side, not L2. No fp6/fp4. L2 bandwidth: the "
     "MI300X measurement (same die, CUs and clock). exp 16/CU/clock as MI300X.",
     27.5e12, GPU_BENCHES_CACHE ", mi300x.txt (same CDNA 3 die)", 2.1e9, EXP_RATE(304, 2.1e9), 0, 0},
    {"mi355x", "AMD Instinct MI355X", "CDNA 4 (gfx950)", GBPS(8000),
     {TF(157.3), 0, TF(2516.6), 0, TF(5033.2), TF(10066.3), TF(10066.3)},
     160 * KIB, 64 * KIB, 160 * KIB, 32 * MIB, 256,
     "AMD CDNA 4 architecture whitepaper; AMD Instinct MI355X datasheet; AMD ROCm GPU "
     "specifications table (256 CUs, 160 KiB LDS, 4 MB L2 per XCD)", "2025-06",
     "Peaks at 2.4 GHz peak engine clock: fp16 2516.6 = 256 CUs x 4096 FLOP/clock x 2.4 GHz; "
     "fp8 doubles that, fp6 and fp4 (MXFP6/MXFP4) run at the same 10066.3 TFLOP/s. AMD's "
     "headline '20.1 PF fp4/fp6' is with sparsity (dense = half). No tf32 matrix path in CDNA 4 "
     "(left out). 288 GB HBM3E, 8 TB/s. LDS 160 KiB per CU (64 KiB as the static default, "
     "unverified). L2 4 MB per XCD (32 MB) + 256 MB Infinity Cache. The 1400 W part runs "
     "near 2.4 GHz only while within power; sustained clocks are lower. L2 bandwidth DERIVED: "
     "MI300X's 27.5 TB/s x 2.4/2.1 GHz (same 8 XCDs x 4 MB, per-clock width assumed). exp 16 "
     "per CU per clock as CDNA 3 (AMD reports a faster transcendental path on CDNA 4: "
     "unverified here, so the CDNA 3 rate is kept).",
     31.4e12, "derived from " GPU_BENCHES_CACHE ", mi300x.txt, by clock", 2.4e9,
     EXP_RATE(256, 2.4e9), 0, 0},
    {"custom", "Custom (give --bandwidth and --peak)", "any", 0, {0, 0, 0, 0, 0}, 0, 48 * KIB, 48 * KIB,
     0, 0, "user-provided", "", "No datasheet figures: bandwidth and peak must be given.",
     0, NULL, 0, 0, 0, 0},
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
        char ids[RL_ERROR_MESSAGE_MAX - 128] = ""; /* the rest: field, quoted id, sentence */
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
        {"NVIDIA B200", "b200"},
        {"NVIDIA GB200", "gb200"},
        {"NVIDIA B300 SXM6 AC", "b300"},
        {"NVIDIA GB300", "gb300"},
        {"NVIDIA GeForce RTX 5090", "rtx5090"},
        {"NVIDIA H20", "h20"}, /* not "NVIDIA H20-3e" (141 GB HBM3e: another part) */
        {"AMD Instinct MI325X", "mi325x"},
        {"AMD Instinct MI355X", "mi355x"},
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
    case RL_PEAK_FP6: return "fp6 tensor";
    case RL_PEAK_FP4: return "fp4 tensor";
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
    case RL_PEAK_FP6: return "fp6_tensor";
    case RL_PEAK_FP4: return "fp4_tensor";
    default: return "unknown";
    }
}

rl_peak_kind rl_peak_for_dtype(rl_dtype dtype) {
    switch (dtype) {
    case RL_DTYPE_FP32: return RL_PEAK_FP32;
    case RL_DTYPE_TF32: return RL_PEAK_TF32;
    case RL_DTYPE_FP8:
    /* MXFP8 runs at the fp8 tensor rate (Blackwell's tcgen05.mma kind::mxf8f6f4 and CDNA 4's
     * scaled MFMA: same dense rate as fp8); NVFP4 and MXFP4 at the fp4 rate (kind::mxf4nvf4,
     * kind::mxf4). A preset whose slot is 0 has no such ceiling: the roof refuses --dtype. */
    case RL_DTYPE_MXFP8: return RL_PEAK_FP8;
    case RL_DTYPE_NVFP4:
    case RL_DTYPE_MXFP4: return RL_PEAK_FP4;
    case RL_DTYPE_FP16:
    case RL_DTYPE_BF16:
    default: return RL_PEAK_FP16_TENSOR;
    }
}

double rl_hw_peak_for_dtype(const rl_hw *hw, rl_dtype dtype) {
    const rl_peak_kind k = rl_peak_for_dtype(dtype);
    if (!hw || k >= RL_PEAK_COUNT) return 0.0;
    /* Block-scaled MMA (the scales applied by the tensor core) exists where an fp4 ceiling does:
     * Blackwell (sm_100/103/120) and CDNA 4. Hopper's fp8 slot is no MXFP8 ceiling. */
    if (rl_dtype_block_scaled(dtype) && !(hw->peak_flops_per_s[RL_PEAK_FP4] > 0)) return 0.0;
    return hw->peak_flops_per_s[k];
}
