#!/usr/bin/env python3
"""Time PyTorch's scaled_dot_product_attention (flash backend) on the problems of a rooflab grid.

usage: ROOFLAB=path/to/rooflab sdpa_reference.py GRID.jsonl > sdpa.json

GRID.jsonl is `rooflab bench --backend cuda --list-grid`; every cuda-tiled-tc problem is timed the
way rooflab bench times its own kernels (CUDA events around each run, L2 flushed and the output
left to the kernel, warm-up, median / min / max) and checked against a float64 reference on a few
rows. The output is a record (the record format, CONTRACTS.md "Records") that `rooflab bench
--series` reads (bench_record.h) and `rooflab validate` checks: one point per problem with its
timing and fp64 errors. FLOPs are not computed here: each point's come from `rooflab eval --json`
(python/rooflab_record, the binary named by ROOFLAB).
"""
import datetime
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from rooflab_record.device import gpu_hardware, torch_runtime  # noqa: E402
from rooflab_record.rooflab_cli import model  # noqa: E402

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

DTYPES = {"fp16": torch.float16, "bf16": torch.bfloat16}
KERNEL = "torch-sdpa-flash"


def ref_rows(q, k, v, causal, rows):
    """float64 attention for query rows `rows` of batch 0, head 0."""
    q64, k64, v64 = q[0, 0].double(), k[0, 0].double(), v[0, 0].double()
    n, l = q64.shape[0], k64.shape[0]
    s = (q64[rows] @ k64.T) / (q64.shape[-1] ** 0.5)
    if causal:
        pos = torch.tensor(rows, device=q.device).unsqueeze(1) + (l - n)
        s = s.masked_fill(torch.arange(l, device=q.device).unsqueeze(0) > pos, float("-inf"))
    return torch.softmax(s, dim=-1) @ v64


def main():
    grid = [json.loads(x) for x in open(sys.argv[1]) if x.strip()]
    props = torch.cuda.get_device_properties(0)
    flush = torch.empty(max(2 * getattr(props, "L2_cache_size", 64 << 20), 64 << 20),
                        dtype=torch.uint8, device="cuda")
    points = []
    seen = set()
    for g in grid:
        if g["kernel"] != "cuda-tiled-tc" or g["dtype"] not in DTYPES:
            continue
        key = tuple(g[k] for k in ("batch", "heads", "kv_heads", "seq", "kv_len", "head_dim",
                                   "dtype", "causal"))
        if key in seen:
            continue
        seen.add(key)
        B, H, Hkv, N, L, d = (g[k] for k in ("batch", "heads", "kv_heads", "seq", "kv_len", "head_dim"))
        causal = bool(g["causal"])
        if causal and N != L:
            print(f"sdpa: skipped {g}: torch's is_causal aligns the first query, rooflab the last",
                  file=sys.stderr)
            continue
        dt = DTYPES[g["dtype"]]
        gen = torch.Generator(device="cuda").manual_seed(len(points) + 1)
        q = torch.randn(B, H, N, d, device="cuda", dtype=dt, generator=gen)
        k = torch.randn(B, Hkv, L, d, device="cuda", dtype=dt, generator=gen)
        v = torch.randn(B, Hkv, L, d, device="cuda", dtype=dt, generator=gen)
        kw = {"is_causal": causal}
        if H != Hkv:
            kw["enable_gqa"] = True
        try:
            with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
                run = lambda: F.scaled_dot_product_attention(q, k, v, **kw)
                out = run()
                for _ in range(5):
                    run()
                torch.cuda.synchronize()
                rows = sorted(set([0, N - 1] + [int(x) for x in torch.randint(0, N, (30,))]))
                ref = ref_rows(q, k, v, causal, rows)
                diff = out[0, 0, rows].double() - ref
                err = diff.abs().max().item()
                rel = (diff.norm() / ref.norm()).item()
                start = [torch.cuda.Event(enable_timing=True) for _ in range(100)]
                stop = [torch.cuda.Event(enable_timing=True) for _ in range(100)]
                runs = 0
                t0 = torch.cuda.Event(enable_timing=True)
                t1 = torch.cuda.Event(enable_timing=True)
                t0.record(); run(); t1.record(); torch.cuda.synchronize()
                est = max(t0.elapsed_time(t1) * 1e-3, 1e-6)
                runs = max(10, min(100, int(0.3 / est) + 1))
                for r in range(runs):
                    flush.zero_()
                    start[r].record()
                    run()
                    stop[r].record()
                torch.cuda.synchronize()
        except RuntimeError as e:
            print(f"sdpa: skipped {g}: {e}", file=sys.stderr)
            continue
        times = sorted(start[r].elapsed_time(stop[r]) * 1e-3 for r in range(runs))
        median = times[runs // 2] if runs % 2 else 0.5 * (times[runs // 2 - 1] + times[runs // 2])
        # FlashAttention-2's forward tile for these head dims (an assumption for the model's
        # tiled bytes; the label says so)
        problem = {"batch": B, "heads": H, "kv_heads": Hkv, "seq": N, "kv_len": L, "head_dim": d,
                   "dtype": g["dtype"], "causal": causal, "block_m": 128,
                   "block_n": 64 if d >= 128 else 128}
        points.append({"problem": problem, "traffic_model": "tiled",
                       "timing": {"median_s": median, "min_s": times[0], "max_s": times[-1],
                                  "runs": runs},
                       "flops": model(problem)["flops"],
                       "max_abs_error": err, "rel_l2_error": rel, "kernel": KERNEL,
                       "label": f"{KERNEL} (torch {torch.__version__}), reference series; tile "
                                f"assumed {problem['block_m']}x{problem['block_n']} for the model"})
        print(f"sdpa: {g['dtype']} B={B} H={H} N={N} d={d} causal={causal}: "
              f"{median * 1e3:.4f} ms, max abs err {err:.2e}, rel L2 {rel:.2e}", file=sys.stderr)
    if not points:
        sys.exit("sdpa: no problem of the grid was timed: no series")
    record = {
        "schema": "rooflab-record",
        "schema_version": 1,
        "provenance": {
            "kind": "measured",
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "source": "timed on this machine by native-bench/sdpa_reference.py",
            "tool": f"sdpa_reference.py (torch {torch.__version__}, scaled_dot_product_attention, "
                    f"flash backend)",
            "notes": "CUDA events around each run, L2 flushed between runs; errors against a "
                     "float64 reference on up to 32 rows of batch 0, head 0; FLOPs from rooflab "
                     "eval --json\n",
        },
        "hardware": gpu_hardware(props, runtime=torch_runtime(torch)),
        "software": {"kernel": KERNEL, "kernel_version": f"torch {torch.__version__}"},
        "points": points,
    }
    json.dump(record, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
