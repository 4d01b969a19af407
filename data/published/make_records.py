#!/usr/bin/env python3
"""make_records.py — turn data/published/points.tsv (published attention measurements, as printed)
into one rooflab record per source, beside this script (provenance kind "published").

    python3 data/published/make_records.py            # writes data/published/*.json
    python3 data/published/make_records.py --check    # exit 1 when a committed file differs

Python 3 standard library only. The generated JSON files are committed; rerun this after editing
points.tsv or SOURCES.md. What is skipped, and why, is listed in README.md (and printed here).

Conventions (README.md says the same):
- timing.median_s is the time the source gives: printed µs/ms as they are; from a printed TFLOP/s
  with the source's own FLOP convention (forward 4·B·H·N·L·d, halved when causal, backward 2.5×
  forward), t = F_source / rate. It is the source's summary statistic (the FA3 paper averages 100
  runs), not necessarily a median.
- flops is rooflab's F for the problem (4·B·H·d·P, P = N·L, causal N·L − N(N−1)/2; backward 2.5×),
  so the validator agrees; reported.flops_per_s is the printed rate (it differs from flops / time by
  (N+1)/N for causal rows: the two conventions count the diagonal differently).
- profile: the rooflab kernel profile that predicts the point (rooflab check-model), or none.
"""
import csv
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TSV = os.path.join(HERE, 'points.tsv')
TOOL = 'data/published/make_records.py (from data/published/points.tsv)'

FLOP_NOTE = ('Times from printed TFLOP/s use the source\'s FLOP convention: forward 4*B*H*N*L*d, '
             'halved when causal, backward 2.5x forward (t = F_source / rate); printed us/ms are '
             'taken as they are. timing.median_s is the source\'s reported time (its own summary '
             'statistic, not necessarily a median). flops is rooflab\'s F (causal pairs '
             'N*L - N(N-1)/2), so flops / time differs from the printed rate by (N+1)/N on causal '
             'rows. Each point keeps the printed rate in reported.flops_per_s.')

SRC_RAINSTORM = ('TheRainstorm (Fuyan Yuan), github.com/TheRainstorm/attention_tests readme.md @ 75cdb15 (2025-04-23), "目前结果" (current results): FlashInfer and FlashAttention-3 batch decode, paged KV (page_size 128), fp16, two tables (MHA and GQA), one row per GPU, ms. Follow-up to Dao-AILab/flash-attention issue #1572.')
SW_RAINSTORM = {'kernel': 'paged batch decode: FlashAttention-3 flash_attn_with_kvcache (flash_attn_interface), '
                          'FlashInfer BatchDecodeWithPagedKVCacheWrapper (use_tensor_cores False / True)',
                'kernel_version': 'versions not stated (April 2025)'}
NOTES_RAINSTORM = ('Shapes as printed above each table: MHA batch_size=16 kv_len=32000 head_dim=128 '
                   'num_kv_heads=32 num_qo_heads=32; GQA batch_size=128 kv_len=16384 head_dim=128 '
                   'num_kv_heads=16 num_qo_heads=128; page_size 128, q and kv fp16. "unit: ms" is printed '
                   'above the MHA table and taken for both. Timing (benchmark_flashinfer.py / utils.py '
                   'bench at the same commit): mean of 10 back-to-back calls after 5 warm-ups, CUDA '
                   'events, L2 flushed with 256 MB first. FlashInfer has two columns, CUDA-core '
                   '(use_tensor_cores=False) and tensor-core; the flashinfer profile follows vLLM\'s rule '
                   '(tensor cores when H/Hkv > 4), so it predicts the CUDA-core column of the MHA table '
                   'and the tensor-core column of the GQA table; the other column has no profile.')

SRC_CUDNN_FE = ('NVIDIA/cudnn-frontend, benchmark/sdpa_benchmark_training (runner.py --config %s, '
                'benchmark_single_sdpa.py), committed results CSV benchmark/sdpa_benchmark_training/results/'
                '%s (text, one row per shape), NVIDIA %s. Read at commit '
                '3929da2ef4c1dba1bb8acb68727b9134f26f40c0. https://github.com/NVIDIA/cudnn-frontend')
SW_CUDNN_FE_T = ('cuDNN fused SDPA through the cudnn-frontend Python graph API (sdpa; a sliding '
                 'window as diagonal_band_left_bound = W, right bound 0)')


def _sw_cudnn_fe(fe, be):
    return {'kernel': SW_CUDNN_FE_T, 'kernel_version': 'cudnn-frontend %s, cuDNN backend %s' % (fe, be)}

NOTES_CUDNN_FE = ('gpt-oss shape as the config gives it: batch 2, %d query heads, %d KV heads, d = 64, '
                  'N = L, causal with a sliding window of %d keys (attn_mask top_left; with N = L the '
                  'same as bottom-right). bf16, recorded as fp16 (same size and peak on the preset). '
                  'Time: the CSV\'s time_ms, the median of iterations 6-10 of 10 of the profiler\'s '
                  'device time of the cuDNN kernels, a 256 MB L2-flush buffer zeroed before each. The '
                  'CSV\'s TFLOPS count the window\'s pairs, W(W+1)/2 + (N - W)W, as rooflab does. The '
                  'fp8 and mxfp8 rows are not recorded (no profile).')

NOTES_CUDNN_FE_LLAMA = ('llama3.1 config as the rows print it: batch 2, 64 query heads, 8 KV heads, '
                        'd = 128, N = L = 2048 ... 32768, attn_mask top_left (causal) and no_mask. '
                        'bf16, recorded as fp16 (same size and peak on the preset). Forward rows only '
                        '(the backward rows are another record\'s). Time: the CSV\'s time_ms, the '
                        'median of iterations 6-10 of 10 of the profiler\'s device time of the cuDNN '
                        'kernels, a 256 MB L2-flush buffer zeroed before each. Held out: they check '
                        'the Blackwell per-work-tile fill at twice the gpt_oss fit point\'s d.')



SRC_CUDNN_FE_DSV3 = ('NVIDIA/cudnn-frontend, benchmark/sdpa_benchmark_training (runner.py --config dsv3, '
                     'benchmark_single_sdpa.py), committed results CSV benchmark/sdpa_benchmark_training/'
                     'results/%s (text, one row per shape), NVIDIA %s. Read at commit '
                     '3929da2ef4c1dba1bb8acb68727b9134f26f40c0. https://github.com/NVIDIA/cudnn-frontend')
SW_CUDNN_FE_DSV3 = 'cuDNN fused SDPA forward through the cudnn-frontend Python graph API (sdpa)'
NOTES_CUDNN_FE_DSV3 = ('DeepSeek-V3 config (configs/dsv3.py): 128 query and KV heads, head_dim_qk 192, '
                       'head_dim_vo 128 (MLA prefill in MHA mode), %s; bf16, recorded as fp16 (same size '
                       'and peak on the preset). Time: the CSV\'s time_ms, the median of iterations 6-10 of '
                       '10 of the profiler\'s device time of the cuDNN kernels, a 256 MB L2-flush buffer '
                       'zeroed before each. The printed TFLOPS equal 2 B H N^2 (192 + 128) (/2 causal) / time. '
                       'The fp8, mxfp8 and backward rows are not recorded here.')

def _cudnn_fe_sdpa(gpu):
    """The cudnn-fe-sdpa record of one GPU ('gb200', 'gb300': the same configs, runs of 2026-04-24)."""
    return {
        'file': 'cudnn-fe-sdpa-%s.json' % gpu,
        'source': ('NVIDIA/cudnn-frontend benchmark/sdpa_benchmark_training/results/{llama3.1,ltx2,wan22,dsv3,kimiK26}/%s/*.csv '
                   '@ 3929da2ef4c1dba1bb8acb68727b9134f26f40c0 (CSVs added in fb682ce761; run 2026-04-24). '
                   'https://github.com/NVIDIA/cudnn-frontend/tree/main/benchmark/sdpa_benchmark_training') % gpu,
        'date': '2026-04-24',
        'hardware': {'name': 'NVIDIA %s' % gpu.upper(), 'preset': gpu},
        'software': {'kernel': 'cuDNN fused SDPA forward and backward through the cuDNN frontend graph API '
                                 '(benchmark_single_sdpa.py, backend cudnn), bf16, backward non-deterministic',
                     'kernel_version': 'cuDNN frontend 1.21.1, cuDNN backend 9.22.0 (cudnn_backend_version 92200)'},
        'notes': ('The bfloat16 rows (forward, and backward with deterministic_bwd False) of ltx2 (B 1, H 32, MHA, '
                  'd 128, no_mask) and wan22 (B 1, H 40, MHA, d 128, no_mask), the backward rows of llama3.1 (B 2, '
                  'H 64, Hkv 8, d 128, causal top_left and no_mask, seqlen 2k-32k) and dsv3 (B 2, H 128, MHA, d_qk '
                  '192 / d_v 128: DeepSeek-V3\'s MLA prefill in MHA mode, top_left and no_mask, 2k-32k), and both '
                  'passes of kimiK26 (d_qk 192 / d_v 128 with H 64, Kimi K2.6); N = L = q_seqlen; top_left (causal '
                  'from the top-left corner) equals rooflab\'s causal at N = L. Time: time_ms as printed, the median '
                  'of the timed iterations, the L2 flushed before each. The CSV\'s tflops uses rooflab\'s FLOP count '
                  '(2·B·H·(d_qk + d_v)·pairs forward, 2·B·H·(3·d_qk + 2·d_v)·pairs backward, pairs N·L or '
                  'N(N+1)/2). The llama3.1 and dsv3 forward rows are the cudnn-fe-llama31-* and cudnn-fe-dsv3-* '
                  'records. Not recorded: fp8/mxfp8 rows, the deterministic backward, qwen35 (d 256: FA4\'s '
                  'separate 2-CTA kernel, not modelled); gpt_oss is the cudnn-fe-gptoss-* records.'),
    }


SOURCES = {
    'fa3_paper': {
        'file': 'fa3-paper-h100.json',
        'source': ('Jay Shah, Ganesh Bikshandi, Ying Zhang, Vijay Thakkar, Pradeep Ramani, Tri Dao. '
                   '"FlashAttention-3: Fast and Accurate Attention with Asynchrony and Low-precision". '
                   'arXiv:2407.08608v2 [cs.LG], 2024-07-11 (revised 2024-07-12), NeurIPS 2024. '
                   'https://arxiv.org/abs/2407.08608v2 - Fig. 5 (FP16/BF16 forward), Fig. 6 (backward), '
                   'Fig. 7 (FP8 forward), Table 2 (pipelining ablation).'),
        'date': '2024-07-11',
        'hardware': {'name': 'NVIDIA H100 80GB SXM5 (700 W), GPU clock fixed at 1830 MHz',
                     'preset': 'h100-sxm', 'sm_count': 132, 'sm_clock_hz': 1.83e9},
        'software': {'kernel': 'FlashAttention-3 paper benchmarks (FA3, FA2, cuDNN, Triton, PyTorch)',
                     'kernel_version': ('FlashAttention-3 (paper, July 2024); baselines FlashAttention '
                                        '2.5.8, cuDNN 9.1.1.17, Triton nightly 3.0.0.post20240424212437, '
                                        'PyTorch 2.3.0; CUDA 12.3, CUTLASS 3.5')},
        'notes': ('Bar labels read from the PDF text layer (see SOURCES.md for how each label was tied '
                  'to its bar). H100 SXM5 at a fixed 1830 MHz (the clock of the 989 TFLOP/s FP16 peak); '
                  'each benchmark run 100 times and averaged. dtype printed as FP16/BF16: recorded as '
                  'fp16 (same element size and peak). FP8 rows (Fig. 7): the paper does not state the '
                  'batch; batch = 16k tokens / seqlen rounded (32, 16, 8, 4, 2, 1) is assumed, and each '
                  'such point says so in its label and reading_error. Traffic model: naive for PyTorch '
                  'eager forward, compulsory (the lower bound) for everything else, since the paper '
                  'gives no byte counts and the tiled model (no L2 credit for K/V re-reads) would put '
                  'the FA kernels above the roof. ' + FLOP_NOTE),
    },
    'flash_decoding_blog': {
        'file': 'flash-decoding-blog-a100.json',
        'source': ('Tri Dao, Daniel Haziza, Francisco Massa, Grigory Sizov. "Flash-Decoding for long-context '
                   'inference", PyTorch blog, 2023-10-13. https://pytorch.org/blog/flash-decoding/ - section '
                   '"Component-level micro-benchmarks" (pytorch/pytorch.github.io '
                   '_posts/2023-10-13-flash-decoding.md @ c6a608850f946ebd28d2d21f52c9471513428079).'),
        'date': '2023-10-13',
        'hardware': {'name': 'NVIDIA A100 (memory size and form factor not stated by the source)',
                     'preset': 'a100-sxm4-80gb'},
        'software': {'kernel': 'decode attention micro-benchmark (PyTorch eager, FlashAttention v2.0.9, '
                               'Flash-Decoding)',
                     'kernel_version': ('FlashAttention v2.0.9; Flash-Decoding (FlashAttention >= 2.2 / '
                                        'xFormers >= 0.0.22); PyTorch eager (version not stated)')},
        'notes': ('Hardware: the blog says "A100" only; the memory size (40/80 GB) and form factor are not '
                  'stated. The preset a100-sxm4-80gb (2039 GB/s) is an assumption; an A100 40GB has '
                  '1555 GB/s. Times in microseconds as printed (0.1 us resolution, one number per cell). '
                  'Query length 1 (decode) is implied by the context, not written in the table; the prose '
                  'says "batch size 1" but the table varies B (taken as printed). FlashAttention v2.0.9 '
                  'reads K/V per query head (no GQA packing): check-model predicts its points with '
                  '--gqa-pack per-head.'),
    },
    'fa_issue_1572': {
        'file': 'fa-issue-1572-h100.json',
        'source': ('Dao-AILab/flash-attention issue #1572, "flash-attention-3 batch decode with page kv cache '
                   'is significantly slower than flashinfer on MHA", comment by TheRainstorm, 2025-04-11 '
                   '(pasted flash_attention_benchmark.py output). '
                   'https://github.com/Dao-AILab/flash-attention/issues/1572'),
        'date': '2025-04-11',
        'hardware': {'name': 'NVIDIA H100 PCIe (the comment says "H100"; the author\'s own follow-up '
                             'benchmark repository lists its H100 as "h100(PCIE)")', 'preset': 'h100-pcie'},
        'software': {'kernel': 'flash_attn_with_kvcache (FlashAttention-3, paged KV cache, CUDA graph)',
                     'kernel_version': 'FlashAttention-3 hopper/ (version not stated; issue of 2025-04)'},
        'notes': ('Hardware: the comment says "H100", not SXM or PCIe. The preset is h100-pcie (2.0 TB/s), '
                  'from the author\'s own records: TheRainstorm/attention_tests, the repository the author made '
                  'for this issue (its readme links #1572), lists the author\'s GPUs as h100(PCIE), h20, a800 '
                  '80g(SXM) and a800 80g(PCIE) - no H100 SXM - and holds the script whose output the comment '
                  'pastes (flash_attention_benchmark.py @ 9c71ff7, committed 2025-04-11, the comment\'s day), with this '
                  'comment\'s shape in its commented-out parameters (seqlen 128, 2000, 4000, 32000; batch 16; '
                  '32/32 heads). Until 0.4 these points were placed on h100-sxm (3.35 TB/s), an assumption with '
                  'no source, where the printed 1849 GB/s was 55 % of the roof; on h100-pcie it is 92 %, and the '
                  'same author\'s page-size-128 FA3 run on that H100 PCIe (attention_tests) reaches 1.93 TB/s. '
                  'The script (same file): dtype bfloat16 (2-byte K/V, recorded as fp16: same bytes and peak), '
                  'causal=True (no effect on a one-row decode), page_table = arange (the pages of a sequence '
                  'lie consecutively in memory), scheduler metadata precomputed, do_bench_cudagraph. page_size 8, '
                  'num_splits 0 (auto). Times in microseconds as printed; the printed GB/s (K and V bytes / '
                  'time) is kept in reported.bytes_per_s.'),
    },
    'pytorch_benchmark_ff65cb6': {
        'file': 'pytorch-benchmark-ff65cb6.json',
        'source': ('pytorch/benchmark commit ff65cb675209d2308f7d27c6920af8a32de9aa90 "Fix dimension order '
                   'for FlashAttention-3 (#2391)" (Differential Revision D60117034, July 2024): the '
                   'commit message\'s test plan, python run_benchmark.py triton --op flash_attention '
                   '--only triton_tutorial_flash_v2,flash_v3 --metrics tflops --d-head 128.'),
        'date': None,
        'hardware': {'name': 'Hopper GPU, model not stated in the commit (FA3 requires sm90)'},
        'software': {'kernel': 'tritonbench flash_attention (triton_tutorial_flash_v2, flash_v3)',
                     'kernel_version': 'FlashAttention-3 and the Triton tutorial FA2 as of July 2024 '
                                       '(versions not stated)'},
        'notes': ('Date: July 2024 (day not stated here). GPU model not stated, so no preset: these points '
                  'are not predicted. dtype not stated: fp16 recorded (tritonbench runs 16-bit inputs for '
                  'this op; fp16 and bf16 have the same size and peak). causal not stated: false recorded. '
                  'FLOP convention: tritonbench\'s (4*B*H*N^2*d, the Triton tutorial\'s), assumed; the '
                  'commit does not state it. One run in a test plan. ' + FLOP_NOTE),
    },
    'tileops_pr2132': {
        'file': 'tileops-pr2132-h200.json',
        'source': ('tile-ai/TileOPs pull request #2132 "[Perf][Attention] Optimize native FP8 Dense decode", '
                   'description by superAngGao, 2026-09-15: benchmark table GroupedQueryAttentionDenseFwdOp '
                   '(TileOps and FA3 times, ms). https://github.com/tile-ai/TileOPs/pull/2132'),
        'date': '2026-09-15',
        'hardware': {'name': 'NVIDIA H200 (SM clock locked at 1500 MHz; memory clock not stated in this PR)',
                     'preset': 'h200-sxm', 'sm_clock_hz': 1.5e9},
        'software': {'kernel': 'dense GQA decode: TileOps GroupedQueryAttentionDenseFwdOp and FlashAttention-3',
                     'kernel_version': ('TileLang 0.1.11+cu129.git65dbc983, CUDA 12.9, PyTorch 2.10.0; FA3 '
                                        'version not stated in this PR')},
        'notes': ('Native-CUPTI complete-op envelope, 50 repeats, median of 3 independent trials, as the PR '
                  'states. Shapes printed as (B, Sq, Skv, H, Hkv, D); inputs FP8 E4M3, output BF16 (both '
                  'kernels). SM clock locked at 1500 MHz (the H200 boosts to 1980 MHz): compute-limited terms '
                  'run at 1500/1980 of the preset\'s peak, memory-bound decode hardly depends on it. The PR\'s '
                  'BW column (TileOps: 0.36, 0.99, 1.84, 2.30 TB/s) is K+V bytes / time and agrees with the '
                  'times (1*4096*4*128*2 B / 11.7 us = 0.358 TB/s); it is not a separate measurement.'),
    },
    'tileops_pr2084': {
        'file': 'tileops-pr2084-h200.json',
        'source': ('tile-ai/TileOPs pull request #2084 "[Refactor][Attention] Route dense GQA decode to decode '
                   'kernels", description by superAngGao, 2026-09-06: table Performance, first row '
                   '(Qwen3-30B-A3B, B=1, KV=1K, FP16). https://github.com/tile-ai/TileOPs/pull/2084'),
        'date': '2026-09-06',
        'hardware': {'name': 'NVIDIA H200 (clock-locked, SM 1500 MHz)', 'preset': 'h200-sxm',
                     'sm_clock_hz': 1.5e9},
        'software': {'kernel': 'dense GQA decode: TileOps, FlashAttention-3 (contiguous KV), FlashInfer '
                               '(contiguous single-decode path for batch 1)',
                     'kernel_version': 'versions not stated in this PR (TileOPs, September 2026)'},
        'notes': ('Native-CUPTI device_busy_ms on a clock-locked H200 (SM 1500 MHz), as printed. Only the '
                  'first row of the table is recorded: the rest of the table was not readable as text in '
                  'the copy used. The table names the workload (Qwen3-30B-A3B, B=1, KV=1K) but not its '
                  'heads: H=32, Hkv=4, D=128 are Qwen3-30B-A3B\'s attention shape (its config.json), the shape '
                  'TileOPs PR #2132 prints for the same workload family, (1, 1, Skv, 32, 4, 128). KV=1K is '
                  'read as 1024. FlashInfer runs its contiguous single-decode path at batch 1 (the PR says '
                  'so).'),
    },
    'tileops_gqa_dense_h200': {
        'file': 'tileops-gqa-dense-h200.json',
        'source': ('tile-ai/TileOPs docs/perf/gqa-dense-h200.md @ 32cde4f ("Dense GQA decode on H200", '
                   'measured 2026-09-15, based on commit b5b225d4), table Measurements: TileOps after the '
                   'change and the best external kernel (FA3 or FlashInfer) per workload, microseconds. '
                   'https://github.com/tile-ai/TileOPs/blob/main/docs/perf/gqa-dense-h200.md'),
        'date': '2026-09-15',
        'hardware': {'name': 'NVIDIA H200 (SM clock 1500 MHz, memory clock 3201 MHz, power limit 700 W)',
                     'preset': 'h200-sxm', 'sm_clock_hz': 1.5e9},
        'software': {'kernel': 'dense GQA decode: TileOps GroupedQueryAttentionDenseFwdOp, FA3, FlashInfer',
                     'kernel_version': ('TileLang 0.1.11+cu129.git65dbc983; FA3 3.0.0b1; FlashInfer '
                                        '0.6.11.post2; PyTorch 2.10.0+cu129; driver 595.71.05')},
        'notes': ('Shapes from the workload manifest (src/tileops/manifest/attention.yaml, '
                  'GroupedQueryAttentionDenseFwdOp workloads, which the table names): Llama-3.1-8B '
                  'H=32 Hkv=8, Llama-3.1-70B H=64 Hkv=8, Qwen3-30B-A3B H=32 Hkv=4, all D=128, one query '
                  'token, contiguous BSHD K/V. "Best external" is the faster of FA3 and FlashInfer as the '
                  'table names it (FA3 on the Llama rows, FlashInfer on the Qwen3 rows; FlashInfer reads '
                  'the contiguous cache with its single-decode path at batch 1, use_tensor_cores not '
                  'stated). BF16 rows are recorded as fp16 (same size and peak) with the dtype in the '
                  'label. The softcap row (torch reference) and the "Before" column (the previous TileOps '
                  'kernel) are not recorded. Timing: CUPTI device busy time (launch gaps excluded), L2 '
                  'flushed before each sample, median of three per-round medians. SM clock locked at '
                  '1500 MHz (boost 1980).'),
    },
    'therainstorm_h100pcie': {
        'file': 'attention-tests-h100-pcie.json',
        'source': SRC_RAINSTORM + ' Row "h100(PCIE)".',
        'date': '2025-04-23',
        'hardware': {'name': 'NVIDIA H100 PCIe', 'preset': 'h100-pcie'},
        'software': SW_RAINSTORM,
        'notes': NOTES_RAINSTORM,
    },
    'therainstorm_a800sxm': {
        'file': 'attention-tests-a800-sxm.json',
        'source': SRC_RAINSTORM + ' Row "a800 80g(SXM)".',
        'date': '2025-04-23',
        'hardware': {'name': 'NVIDIA A800 80GB SXM (export A100: same SMs, clocks and 2039 GB/s HBM2e; '
                             'NVLink cut to 400 GB/s)', 'preset': 'a100-sxm4-80gb'},
        'software': SW_RAINSTORM,
        'notes': NOTES_RAINSTORM + ' The A800 80GB SXM is predicted on the a100-sxm4-80gb preset: the '
                 'same GA100 configuration and memory; only NVLink differs (assumed equivalent).',
    },
    'therainstorm_a800pcie': {
        'file': 'attention-tests-a800-pcie.json',
        'source': SRC_RAINSTORM + ' Row "a800 80g(PCIE)".',
        'date': '2025-04-23',
        'hardware': {'name': 'NVIDIA A800 80GB PCIe (export A100 PCIe)', 'preset': 'a100-pcie-80gb'},
        'software': SW_RAINSTORM,
        'notes': NOTES_RAINSTORM + ' The A800 80GB PCIe is predicted on the a100-pcie-80gb preset '
                 '(same GA100 configuration and 1935 GB/s; assumed equivalent).',
    },
    'flashmla_issue30_h20': {
        'file': 'flashmla-issue30-h20.json',
        'source': ('deepseek-ai/FlashMLA issue #30, "on H20, Could you help me improve the TFLOPS and '
                   'GB/s?" by robotzheng (description: pasted tests/test_flash_mla.py output). '
                   'https://github.com/deepseek-ai/FlashMLA/issues/30'),
        'date': '',
        'hardware': {'name': 'NVIDIA H20', 'preset': 'h20'},
        'software': {'kernel': 'flash_mla_with_kvcache (FlashMLA dense MLA decode, BF16 paged cache, '
                               'page block 64)',
                     'kernel_version': 'FlashMLA as of the issue (opened days after the 2025-02-24 '
                                       'release; the pre-2025-04-22 kernel)'},
        'notes': ('MLA decode, absorbed: h_kv = 1, d = 576 (kv_lora_rank 512 + rope 64), dv = 512, '
                  'recorded as kv_lora_rank 512, rope_dim 64 (head_dim 576 follows), page_size 64 '
                  '(the test\'s paged cache, block_size 64). bf16 (the test\'s '
                  'dtype). causal=True: the s_q new rows of a sequence see the cache and each other. '
                  'The varlen=False rows (every cache_seqlens = mean_sk) are recorded; the varlen=True '
                  'rows are not (random lengths around mean_sk). Timing: triton.testing.do_bench in '
                  'test_flash_mla.py. Issue date not recorded here (no exact date seen).'),
    },
    'flashmla_achatbot_h100': {
        'file': 'flashmla-achatbot-h100.json',
        'source': ('ai-bot-pro/achatbot pull request #123, "feat: add deepseek flash mal bench on modal '
                   'H100" by weedge, 2025-02-24 (description: FlashMLA tests/test_flash_mla.py output on '
                   'a Modal H100). https://github.com/ai-bot-pro/achatbot/pull/123'),
        'date': '2025-02-24',
        'hardware': {'name': 'NVIDIA H100 (Modal; SXM assumed)', 'preset': 'h100-sxm'},
        'software': {'kernel': 'flash_mla_with_kvcache (FlashMLA dense MLA decode, BF16 paged cache)',
                     'kernel_version': 'FlashMLA main of 2025-02-24 (the first release, before the '
                                       '2025-04-22 kernel)'},
        'notes': ('MLA decode, absorbed: h_kv = 1, d = 576, dv = 512 (kv_lora_rank 512 + rope 64), page '
                  'size 64 (the test\'s paged cache), bf16, '
                  'causal=True, varlen=False rows. H100 variant not printed: the printed 2826 GB/s is '
                  '141 % of an H100 PCIe\'s 2.0 TB/s, so h100-sxm (3.35 TB/s) is taken. Only the rows '
                  'b=128, mean_sk=4096 with h_q 16 (s_q 1, 2), 32 (s_q 1, 2) and 64 (s_q 1) are recorded '
                  '(the rest of the output was not read).'),
    },
    'fa_issue_1310_h20': {
        'file': 'fa-issue-1310-h20.json',
        'source': ('Dao-AILab/flash-attention issue #1310, "flash attention 3 benchmark for H20 hopper" '
                   'by aftersnow, 2024-11-01 (description: hopper/benchmark_attn.py output). '
                   'https://github.com/Dao-AILab/flash-attention/issues/1310'),
        'date': '2024-11-01',
        'hardware': {'name': 'NVIDIA H20', 'preset': 'h20'},
        'software': {'kernel': 'FlashAttention-3 (hopper/) and cuDNN, forward',
                     'kernel_version': 'FA3 hopper/ as of 2024-11; cuDNN version not stated'},
        'notes': ('batch_size 2, seqlen 2048, headdim 64 and 128, causal False/True as printed; heads = '
                  '2048 / headdim (benchmark_attn.py\'s hidden dim 2048, confirmed by the printed TFLOPS). '
                  'dtype not printed (the script\'s default bf16); recorded as fp16 (same size and peak). '
                  'The seqlen 16384 blocks of the issue are not recorded (not read). cuDNN rows have no '
                  'rooflab profile.'),
    },
    'helion_pr3463_gb300': {
        'file': 'helion-pr3463-gb300.json',
        'source': ('pytorch/helion PR #3463, "[cute] Add pretuned B200/GB300 flash attention kernel" by '
                   'yushangdi, 2026-08-25 (description, table "GB300 performance": "Cold-L2 CUDA-graph timing '
                   'against cuDNN SDPA on NVIDIA GB300"). https://github.com/pytorch/helion/pull/3463'),
        'date': '2026-08-25',
        'hardware': {'name': 'NVIDIA GB300', 'preset': 'gb300'},
        'software': {'kernel': 'torch scaled_dot_product_attention, cuDNN backend ("cuDNN SDPA"), forward',
                     'kernel_version': 'cuDNN and torch versions not stated'},
        'notes': ('Shapes (z, h, seq, d) as printed: batch 2, 32 heads, N = L = seq, d = 64; dense (non-causal) '
                  '32K-256K and causal 64K-512K. dtype not printed, recorded as fp16 (16-bit: bf16 and fp16 '
                  'have the same size and peak). Only the SDPA column is recorded (Helion\'s kernel has no '
                  'rooflab profile).'),
    },
    'cudnn_fe_dsv3_gb200': {
        'file': 'cudnn-fe-dsv3-gb200.json',
        'source': SRC_CUDNN_FE_DSV3 % ('dsv3/gb200/dsv3_20260424_101009.csv', 'GB200'),
        'date': '2026-04-24',
        'hardware': {'name': 'NVIDIA GB200', 'preset': 'gb200'},
        'software': {'kernel': SW_CUDNN_FE_DSV3, 'kernel_version': 'cudnn-frontend 1.21.1, cuDNN 9.22.0'},
        'notes': NOTES_CUDNN_FE_DSV3 % 'batch 2, N = L = 2048 ... 32768, masks top_left (causal) and no_mask',
    },
    'cudnn_fe_dsv3_gb300': {
        'file': 'cudnn-fe-dsv3-gb300.json',
        'source': SRC_CUDNN_FE_DSV3 % ('dsv3/gb300/dsv3_20260424_101002.csv', 'GB300'),
        'date': '2026-04-24',
        'hardware': {'name': 'NVIDIA GB300', 'preset': 'gb300'},
        'software': {'kernel': SW_CUDNN_FE_DSV3, 'kernel_version': 'cudnn-frontend 1.21.1, cuDNN 9.22.0'},
        'notes': (NOTES_CUDNN_FE_DSV3 % 'batch 2, N = L = 2048 ... 32768, masks top_left (causal) and no_mask') +
                 ' The non-causal N = 16384 row is the fit point of cuDNN\'s Blackwell forward MMA fraction.',
    },
    'cudnn_fe_dsv3_h200': {
        'file': 'cudnn-fe-dsv3-h200.json',
        'source': SRC_CUDNN_FE_DSV3 % ('h200_919_only_cudnn/dsv3_20260227_034744.csv', 'H200'),
        'date': '2026-02-27',
        'hardware': {'name': 'NVIDIA H200', 'preset': 'h200-sxm'},
        'software': {'kernel': SW_CUDNN_FE_DSV3, 'kernel_version': 'cudnn-frontend 1.19.0, cuDNN 9.19.1'},
        'notes': (NOTES_CUDNN_FE_DSV3 % 'batch 1, causal, N = L = 2048, 4096, 8192 (the 16k and 32k rows '
                  'failed in the source)') + ' Run with profile_pass both: the fwd_time_ms column. "NVIDIA H200" '
                 'is the SXM part (the NVL reports "H200 NVL").',
    },
    'cudnn_fe_llama31_h200': {
        'file': 'cudnn-fe-llama31-h200.json',
        'source': ('NVIDIA/cudnn-frontend, benchmark/sdpa_benchmark_training (runner.py --config llama), '
                   'committed results CSV benchmark/sdpa_benchmark_training/results/h200_919_only_cudnn/'
                   'llama3.1_20260227_034703.csv (text, one row per shape), NVIDIA H200. Read at commit '
                   '3929da2ef4c1dba1bb8acb68727b9134f26f40c0. https://github.com/NVIDIA/cudnn-frontend'),
        'date': '2026-02-27',
        'hardware': {'name': 'NVIDIA H200', 'preset': 'h200-sxm'},
        'software': {'kernel': SW_CUDNN_FE_DSV3, 'kernel_version': 'cudnn-frontend 1.19.0, cuDNN 9.19.1'},
        'notes': ('llama3.1 config as the rows print it: batch 1, 64 query heads, 8 KV heads, d = 128, '
                  'N = L = 2048 ... 32768, attn_mask top_left (causal) and no_mask; bf16, recorded as fp16 (same '
                  'size and peak). Run with profile_pass both: the fwd_time_ms column (the median of iterations '
                  '6-10 of 10 of the profiler\'s device time of the cuDNN kernels, a 256 MB L2-flush buffer '
                  'zeroed before each). The fp8 and backward columns are not recorded.'),
    },
    'cudnn_fe_sdpa_gb200': _cudnn_fe_sdpa('gb200'),
    'cudnn_fe_sdpa_gb300': _cudnn_fe_sdpa('gb300'),
    'cudnn_fe_gptoss_gb200': {
        'file': 'cudnn-fe-gptoss-gb200.json',
        'source': SRC_CUDNN_FE % ('gpt_oss', 'gpt_oss/gb200/gpt_oss_20260424_100011.csv', 'GB200'),
        'date': '2026-04-24',
        'hardware': {'name': 'NVIDIA GB200', 'preset': 'gb200'},
        'software': _sw_cudnn_fe('1.21.1', '92200'),
        'notes': NOTES_CUDNN_FE % (128, 128, 128),
    },
    'cudnn_fe_gptoss_gb300': {
        'file': 'cudnn-fe-gptoss-gb300.json',
        'source': SRC_CUDNN_FE % ('gpt_oss', 'gpt_oss/gb300/gpt_oss_20260424_100022.csv', 'GB300'),
        'date': '2026-04-24',
        'hardware': {'name': 'NVIDIA GB300', 'preset': 'gb300'},
        'software': _sw_cudnn_fe('1.21.1', '92200'),
        'notes': NOTES_CUDNN_FE % (128, 128, 128),
    },
    'cudnn_fe_gptoss_h200': {
        'file': 'cudnn-fe-gptoss-h200.json',
        'source': SRC_CUDNN_FE % ('gpt_oss', 'h200_919_only_cudnn/gpt_oss_20260227_034819.csv', 'H200'),
        'date': '2026-02-27',
        'hardware': {'name': 'NVIDIA H200', 'preset': 'h200-sxm'},
        'software': _sw_cudnn_fe('1.19.0', '91901'),
        'notes': NOTES_CUDNN_FE % (64, 8, 1024) + (' Forward and backward (deterministic_bwd False) '
                                                   'times of the same run.'),
    },
    'cudnn_fe_llama31_gb200': {
        'file': 'cudnn-fe-llama31-gb200.json',
        'source': SRC_CUDNN_FE % ('llama', 'llama3.1/gb200/llama3.1_20260424_100750.csv', 'GB200'),
        'date': '2026-04-24',
        'hardware': {'name': 'NVIDIA GB200', 'preset': 'gb200'},
        'software': _sw_cudnn_fe('1.21.1', '92200'),
        'notes': NOTES_CUDNN_FE_LLAMA,
    },
    'cudnn_fe_llama31_gb300': {
        'file': 'cudnn-fe-llama31-gb300.json',
        'source': SRC_CUDNN_FE % ('llama', 'llama3.1/gb300/llama3.1_20260424_100757.csv', 'GB300'),
        'date': '2026-04-24',
        'hardware': {'name': 'NVIDIA GB300', 'preset': 'gb300'},
        'software': _sw_cudnn_fe('1.21.1', '92200'),
        'notes': NOTES_CUDNN_FE_LLAMA,
    },
}

SKIP_SOURCES = {
    'fa3_pytorch_blog': 'no configuration: batch and heads not stated, values are "around" ranges',
    'fa2_paper': 'no configuration: "up to" maxima only',
}

PROFILE_NOTE = {
    ('flash_decoding_blog', 'flash-attention v2.0.9'):
        'FlashAttention v2.0.9: K/V read per query head (not GQA-packed)',
}


def flashinfer_variant_modelled(kernel, heads, kv_heads):
    """The FlashInfer decode variant the flashinfer profile models: CUDA cores for a GQA group of
    at most 4 query heads per KV head, tensor cores above (vLLM's use_tensor_cores rule)."""
    tensor = 'tensor cores' in kernel
    return tensor == (heads // kv_heads > 4)


def profile_for(source, kernel, heads=1, kv_heads=1):
    """(profile or None) for a row: FA3 -> fa3, FA2 v2.5.8 and v2.0.9 -> fa2, Flash-Decoding ->
    flash-decoding, standard attention in PyTorch (prefill) -> standard, cuDNN -> cudnn (closed
    source: the profile assumes FA3's mechanism on Hopper), FA3's paged decode (issue #1572 at
    page_size 8, attention_tests at 128: page_size from the notes) -> fa3, whose paged path
    (get_pagedkv_tma: cp.async below Br packed rows, the 128 x 128 tile, PackGQA) it models;
    Triton and the FA3 ablations have none. Two sets have none on purpose:
    - FA3's contiguous decode (TileOPs PRs): left without one (its fp8 points take 46-58 us
      whatever L, which no profile explains);
    - PyTorch eager decode in the Flash-Decoding blog: about 3.1 ms at every shape while the K/V
      bytes vary 8x, i.e. bound by the host (several eager ops per call), which no device profile
      predicts."""
    if kernel.startswith('flash-attention-3 paged decode'):
        return 'fa3'  # FA3's paged decode (page_table), which the fa3 profile models
    if kernel.startswith('flash-attention-3') and 'decode' in kernel:
        return None  # FA3's contiguous decode (TileOPs PRs): see the docstring
    if kernel.startswith('tileops'):
        return None  # TileOps' decode kernels: no rooflab profile describes them
    if kernel == 'pytorch-eager':
        return None
    if kernel == 'flashmla dense decode':
        return 'flashmla'
    if kernel in ('cudnn', 'cudnn-9.1.1.17', 'cudnn-9.1.1.17-fp8') or kernel.startswith('cudnn sdpa'):
        return 'cudnn'
    if kernel in ('flash-attention-3', 'flash-attention-3-fp8', 'flash_v3 (FA3)'):
        return 'fa3'
    if kernel.startswith('flash-attention-2 (v2.5.8)') or kernel == 'flash-attention v2.0.9':
        return 'fa2'
    if kernel == 'flash-decoding':
        return 'flash-decoding'
    if kernel == 'flashinfer-single-decode':
        return 'flashinfer'
    if kernel.startswith('flashinfer batch decode'):
        return 'flashinfer' if flashinfer_variant_modelled(kernel, heads, kv_heads) else None
    if kernel.startswith('standard-attention'):
        return 'standard'
    return None


def traffic_for(profile, kernel, bwd):
    """The traffic model a point is placed with. The sources give no byte counts. PyTorch eager
    materialises S and P (naive; its backward has no naive model, so compulsory). Every other kernel
    (FlashAttention-style, split-KV decode, cuDNN, Triton) is placed at the compulsory bytes, the
    lower bound: the tiled model counts each query block's K/V re-reads in DRAM with no L2 credit
    (an upper bound), which puts the FA3 paper's points above the H100's roof (by 1.2-2.3x at
    d = 64), while on a real H100 those re-reads hit L2."""
    if kernel.startswith('standard') or kernel == 'pytorch-eager':
        return 'compulsory' if bwd else 'naive'
    return 'compulsory'


def _sum_min(x, c):
    """sum_{q=1}^{x} min(c, q)"""
    return x * (x + 1) // 2 if x <= c else c * (c + 1) // 2 + (x - c) * c


def rooflab_flops(b, h, n, l, d, causal, bwd, dv=None, window=0):
    pairs = n * l - (n * (n - 1) // 2 if causal else 0)
    if window:  # query i (key position L - N + i) sees min(W, L - N + i + 1) keys
        pairs = _sum_min(l, window) - _sum_min(l - n, window)
    dv = d if dv is None else dv
    if bwd:  # QK^T recomputed, dQ and dK with d; dV and dP with d_v (MODEL.md): 2.5x when d_v = d
        return 2.0 * b * h * (3 * d + 2 * dv) * pairs
    return 2.0 * b * h * (d + dv) * pairs


def source_flops(b, h, n, l, d, causal, bwd):
    f = 4.0 * b * h * n * l * d * (0.5 if causal else 1.0)
    return f * 2.5 if bwd else f


# The fit set: the points the model's fitted constants are fitted on (docs/MODEL.md "Fitted
# constants"), each (source_id, table_or_figure, kernel, batch, seq, value as printed) -> the
# constant. Every other point is held out: rooflab check-model reports the two apart, and the
# README's figures are the held-out ones. A new fitted constant adds its point here (one point per
# constant where possible); build() fails when an entry matches no row or more than one.
FIT_POINTS = {
    ('fa3_paper', 'Fig.5(c)', 'flash-attention-3', '32', '512', '467'):
        'overlap exponent p',
    ('fa3_paper', 'Fig.5(c)', 'flash-attention-2 (v2.5.8)', '1', '16384', '370'):
        'mma.sync fraction of the sm_90 dense peak',
    ('fa3_paper', 'Fig.6(b)', 'flash-attention-3', '1', '16384', '561'):
        'FA3 backward MMA fraction',
    ('fa3_paper', 'Fig.6(b)', 'flash-attention-2 (v2.5.8)', '1', '16384', '322'):
        'FA2 backward MMA fraction on sm_90',
    ('flash_decoding_blog', 'micro-benchmark table (section \'Component-level micro-benchmarks\')',
     'flash-decoding', '256', '1', '63.4'):
        'FA2 split-KV kernel DRAM fraction',
    ('fa3_paper', 'Fig.5(c)', 'standard-attention-pytorch', '4', '4096', '133'):
        'eager DRAM fraction',
    ('flash_decoding_blog', 'micro-benchmark table (section \'Component-level micro-benchmarks\')',
     'flash-attention v2.0.9', '1', '1', '2300.6'):
        "one CTA's share of its SM (f1)",
    ('tileops_gqa_dense_h200',
     'docs/perf/gqa-dense-h200.md, table Measurements, row "Llama 8B, B8, 32K | FP16"',
     'tileops-dense-gqa-decode (after the change)', '8', '1', '256.55'):
        "the default decode's DRAM fraction",
    ('fa3_paper', 'Fig.6(b)', 'flash-attention-3', '32', '512', '316'):
        'backward fixed cost per CTA round',
    ('fa3_paper', 'Fig.5(e)', 'flash-attention-2 (v2.5.8)', '1', '16384', '326'):
        "FA2's MMA rate with one 8-warp CTA per SM at d > 128",
    ('cudnn_fe_dsv3_gb300', 'benchmark/sdpa_benchmark_training/results @ 3929da2, '
     'dsv3_20260424_101002.csv, row no_mask bfloat16 B=2 seqlen 16384',
     'cudnn sdpa (cudnn-frontend sdpa_benchmark_training, cuDNN 9.22.0)', '2', '16384', '21.640'):
        "cuDNN's Blackwell forward MMA fraction",
    ('tileops_pr2084', 'PR description, table Performance, row Qwen3-30B-A3B, B=1, KV=1K, FP16',
     'tileops-dense-gqa-decode', '1', '1', '0.0069'):
        'per-kernel fixed cost (fitted with the default prediction)',
    ('cudnn_fe_sdpa_gb200',
     'benchmark/sdpa_benchmark_training/results/wan22/gb200/wan22_20260424_095743.csv, row wan22 no_mask seqlen 17160',
     'cudnn sdpa (cuDNN frontend 1.21.1, backend 92200)', '1', '17160', '10.638'):
        'Blackwell backward MMA fraction',
    ('cudnn_fe_gptoss_gb200',
     'benchmark/sdpa_benchmark_training/results/gpt_oss/gb200/gpt_oss_20260424_100011.csv, row '
     'bfloat16 fwd seqlen 4096', 'cudnn sdpa (cudnn-frontend graph, sliding window)', '2', '4096',
     '0.210'):
        'Blackwell per-work-tile fill (Q load, O store)',
    ('cudnn_fe_sdpa_gb200',
     'benchmark/sdpa_benchmark_training/results/kimiK26/gb200/kimiK26_20260424_100953.csv, row kimiK26 no_mask seqlen 16384, profile_pass fwd',
     'cudnn sdpa (cuDNN frontend 1.21.1, backend 92200)', '2', '16384', '12.457'):
        'Blackwell forward chain latency',
}


def fit_key(r):
    return (r['source_id'], r['table_or_figure'], r['kernel'], r['batch'], r['seq'], r['value'])


# Production split-KV decode kernels: on their decode points check-model also scores rooflab's
# default prediction (no --kernel), which models such a kernel. Not FlashAttention v2.0.9 (no
# split-KV: one CTA per (batch, head)) and not PyTorch eager.
PRODUCTION_DECODE = ('flash-decoding', 'flash-attention-3 paged decode', 'flash-attention-3 decode',
                     'flash-attention-3 fp8 decode', 'tileops-dense-gqa-decode',
                     'flashinfer-single-decode', 'flash-attention-3 interface paged decode')


def is_production_decode(r, p):
    """FlashInfer's batch decode counts in the variant a serving engine picks (vLLM's rule)."""
    if p['seq'] > 16 or p['pass'] != 'fwd':
        return False
    if r['kernel'].startswith('flashinfer batch decode'):
        return flashinfer_variant_modelled(r['kernel'], p['heads'], p['kv_heads'])
    return r['kernel'].startswith(PRODUCTION_DECODE)


FP8_BATCH = {512: 32, 1024: 16, 2048: 8, 4224: 4, 8448: 2, 16896: 1}


def skip_reason(r):
    """Why a row is not a point (None: it is one)."""
    if r['source_id'] in SKIP_SOURCES:
        return SKIP_SOURCES[r['source_id']]
    if r['value'] == 'OOM':
        return 'out of memory (no time)'
    if r['unit'] == 'GB/s':
        return 'GB/s duplicate of the microsecond row (kept as its reported.bytes_per_s)'
    if r['table_or_figure'].startswith('Table 2') and r['unit'] == 'TFLOP/s':
        return 'TFLOP/s duplicate of the millisecond row (kept as its reported.flops_per_s)'
    if not r['seq'] or not r['heads'] or not r['head_dim']:
        return 'no configuration (a maximum without its shape)'
    return None


def problem_of(r):
    n, l = int(r['seq']), int(r['kv_len'])
    fp8 = 'fp8' in r['dtype']
    if r['batch']:
        b, assumed = int(r['batch']), False
    else:
        b, assumed = FP8_BATCH[n], True
    causal = r['causal'] == 'yes'
    bwd = r['pass'].startswith('bwd')
    p = {'batch': b, 'heads': int(r['heads']), 'kv_heads': int(r['kv_heads']), 'seq': n,
         'kv_len': l, 'head_dim': int(r['head_dim']), 'dtype': 'fp8' if fp8 else 'fp16',
         'causal': causal, 'pass': 'bwd' if bwd else 'fwd'}
    m = re.search(r'sliding_window_size (\d+)', r['notes'])
    if m:  # a causal sliding window of W keys (cudnn-frontend's gpt_oss benchmark)
        p['window'] = int(m.group(1))
    m = re.search(r'head_dim_v (\d+)', r['notes'])
    if m and int(m.group(1)) != p['head_dim']:
        # a value head dim of its own (MLA prefill in MHA mode: d_qk 192, d_v 128)
        p['head_dim_v'] = int(m.group(1))
    m = re.search(r'head_dim_qk (\d+) head_dim_vo (\d+)', r['notes'])
    if m:
        # the CSV's own column names (cudnn_fe_sdpa_*: kimiK26, dsv3 backward)
        assert int(m.group(1)) == p['head_dim'], r['notes']
        p['head_dim_v'] = int(m.group(2))
    m = re.search(r'page_size[ =](\d+)', r['notes'])
    if m and r['kernel'] != 'flashmla dense decode':
        # a paged KV cache of that page size (FlashInfer and FA3 paged decode)
        p['page_size'] = int(m.group(1))
    if r['kernel'] == 'flashmla dense decode':
        # absorbed MLA as FlashMLA's test runs it: d = 576 = kv_lora_rank 512 + rope 64, dv = 512
        p['dtype'] = 'bf16'
        p['kv_lora_rank'], p['rope_dim'] = 512, 64
        p['page_size'] = 64  # test_flash_mla.py's paged cache: block_size = 64
    if fp8 and (r['kernel'] == 'flash-attention-3-fp8' or 'output bf16' in r['dtype']):
        # FA3's fp8 forward writes O in bf16 (hopper/flash_api.cpp: out_type = BFloat16 when
        # q is Float8_e4m3fn); the other fp8 kernels' output type is not stated.
        p['out_dtype'] = 'bf16'
    return p, assumed


def time_of(r, p):
    v = float(r['value'])
    if r['unit'] == 'us':
        return v * 1e-6
    if r['unit'] == 'ms':
        return v * 1e-3
    if r['unit'] == 'TFLOP/s':
        f = source_flops(p['batch'], p['heads'], p['seq'], p['kv_len'], p['head_dim'], p['causal'],
                         p['pass'] == 'bwd')
        return f / (v * 1e12)
    raise ValueError('unit %r' % r['unit'])


def label_of(r, p, profile, assumed):
    d = 'd=%d' % p['head_dim'] + ('/%d' % p['head_dim_v'] if 'head_dim_v' in p else '')
    bits = [r['kernel'], p['pass'], d, 'causal' if p['causal'] else 'non-causal']
    if p['seq'] == 1:
        bits.append('decode, kv_len %d' % p['kv_len'])
    lab = ', '.join(bits)
    if r['notes']:
        lab += ' (' + r['notes'] + ')'
    note = PROFILE_NOTE.get((r['source_id'], r['kernel']))
    if note:
        lab += '; ' + note
    if assumed:
        lab += '; batch %d ASSUMED (not stated)' % p['batch']
    return lab


def make_point(r, companion):
    p, assumed = problem_of(r)
    profile = profile_for(r['source_id'], r['kernel'], p['heads'], p['kv_heads'])
    bwd = p['pass'] == 'bwd'
    t = time_of(r, p)
    pt = {'problem': p, 'traffic_model': traffic_for(profile, r['kernel'], bwd),
          'timing': {'median_s': float('%.6g' % t)},
          'flops': rooflab_flops(p['batch'], p['heads'], p['seq'], p['kv_len'], p['head_dim'],
                                 p['causal'], bwd, p.get('head_dim_v', p.get('kv_lora_rank')),
                                 p.get('window', 0)),
          'kernel': r['kernel'], 'label': label_of(r, p, profile, assumed)}
    if profile:
        pt['profile'] = profile
    fitted = FIT_POINTS.get(fit_key(r))
    pt['set'] = 'fit' if fitted else 'held-out'
    if fitted:
        pt['label'] += '; FIT POINT of the %s' % fitted
    if is_production_decode(r, p):
        pt['production_decode'] = True
    fig = r['table_or_figure']
    xlabel = r['notes'].split(';')[0] if r['notes'].startswith('x-label') else ''
    if r['source_id'] == 'flash_decoding_blog':
        xlabel = 'row B=%d, seqlen %d' % (p['batch'], p['kv_len'])
    elif r['source_id'] == 'fa_issue_1572':
        xlabel = 'line seqlen_k %d' % p['kv_len']
    elif r['source_id'].startswith('therainstorm_') or r['source_id'] in (
            'tileops_gqa_dense_h200', 'flashmla_issue30_h20', 'flashmla_achatbot_h100',
            'fa_issue_1310_h20', 'helion_pr3463_gb300', 'cudnn_fe_sdpa_gb200', 'cudnn_fe_sdpa_gb300',
            'cudnn_fe_gptoss_gb200', 'cudnn_fe_gptoss_gb300', 'cudnn_fe_gptoss_h200',
            'cudnn_fe_llama31_gb200', 'cudnn_fe_llama31_gb300', 'cudnn_fe_dsv3_gb200',
            'cudnn_fe_dsv3_gb300', 'cudnn_fe_dsv3_h200', 'cudnn_fe_llama31_h200'):
        xlabel = ''
    elif r['source_id'] == 'tileops_pr2132':
        xlabel = 'row (1, 1, %d, 32, 4, 128)' % p['kv_len']
    pt['figure'] = fig + (', ' + xlabel if xlabel else '')
    err = r['reading_error']
    if assumed:
        err += '; batch not stated by the source, %d assumed (16k tokens / seqlen)' % p['batch']
    pt['reading_error'] = err
    rep = {}
    if r['unit'] == 'TFLOP/s':
        rep['flops_per_s'] = float(r['value']) * 1e12
    if companion is not None:
        unit, value = companion
        if unit == 'TFLOP/s':
            rep['flops_per_s'] = value * 1e12
        elif unit == 'GB/s':
            rep['bytes_per_s'] = value * 1e9
    if rep:
        pt['reported'] = rep
    return pt


def companion_key(r):
    return (r['source_id'], r['table_or_figure'], r['kernel'], r['batch'], r['heads'], r['seq'],
            r['kv_len'], r['head_dim'])


def build(rows):
    companions = {}
    for r in rows:
        if r['unit'] in ('GB/s',) or (r['table_or_figure'].startswith('Table 2') and
                                      r['unit'] == 'TFLOP/s'):
            companions[companion_key(r)] = (r['unit'], float(r['value']))
    records, skipped = {}, []
    for i, r in enumerate(rows, start=2):
        why = skip_reason(r)
        if why:
            skipped.append((i, r['source_id'], r['table_or_figure'], r['kernel'], r['value'],
                            r['unit'], why))
            continue
        src = r['source_id']
        if src not in SOURCES:
            raise SystemExit('row %d: unknown source %r' % (i, src))
        comp = companions.get(companion_key(r)) if r['unit'] in ('us', 'ms') else None
        records.setdefault(src, []).append(make_point(r, comp))
    matched = {}
    for r in rows:
        k = fit_key(r)
        if k in FIT_POINTS and not skip_reason(r):
            matched[k] = matched.get(k, 0) + 1
    for k in FIT_POINTS:
        if matched.get(k, 0) != 1:
            raise SystemExit('FIT_POINTS entry %r matches %d rows (expected exactly 1)'
                             % (k, matched.get(k, 0)))
    return records, skipped


def record_json(src, points):
    s = SOURCES[src]
    prov = {'kind': 'published'}
    if s['date']:
        prov['date'] = s['date']
    prov['source'] = s['source']
    prov['tool'] = TOOL
    prov['notes'] = s['notes']
    doc = {'schema': 'rooflab-record', 'schema_version': 1, 'provenance': prov,
           'hardware': s['hardware'], 'software': s['software'], 'points': points}
    return json.dumps(doc, indent=1, ensure_ascii=False) + '\n'


def main(argv):
    check = '--check' in argv[1:]
    with open(TSV, newline='', encoding='utf-8') as f:
        rows = list(csv.DictReader(f, delimiter='\t'))
    records, skipped = build(rows)
    stale = []
    for src, points in records.items():
        path = os.path.join(HERE, SOURCES[src]['file'])
        text = record_json(src, points)
        if check:
            try:
                with open(path, encoding='utf-8') as f:
                    if f.read() != text:
                        stale.append(path)
            except OSError:
                stale.append(path)
        else:
            with open(path, 'w', encoding='utf-8') as f:
                f.write(text)
        print('%s: %d points' % (SOURCES[src]['file'], len(points)))
    print('skipped %d of %d rows:' % (len(skipped), len(rows)))
    for line, src, fig, kernel, value, unit, why in skipped:
        print('  line %d  %s  %s  %s  %s %s: %s' % (line, src, fig, kernel, value, unit, why))
    if stale:
        print('out of date (rerun without --check): ' + ', '.join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
