"""python -m rooflab_record: time torch attention on given shapes and write a rooflab record.

Two implementations:

* ``sdpa``: ``torch.nn.functional.scaled_dot_product_attention`` (torch >= 2.0), with
  ``--sdpa-backend`` choosing flash, efficient, cudnn or math (default: torch's choice);
* ``eager``: softmax(Q K^T / sqrt(d)) V in torch operations (S and P through memory: the naive
  traffic model), on any torch, e.g. Debian 12's torch 1.13 which has no SDPA.

Exit status: 0 the record was written (valid), 1 the run or the record failed, 2 a bad flag,
3 no such device (``--device cuda`` without a GPU).
"""
import argparse
import contextlib
import os
import sys

from .problem import ProblemError
from .record import RecordInvalid, check_out_path, time_attention
from .rooflab_cli import RooflabError
from .timing import TimingError

DTYPES = ("fp32", "fp16", "bf16")
SDPA_BACKENDS = ("auto", "flash", "efficient", "cudnn", "math")


def _positive(text):
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return v


def _count(text):
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {text!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {text!r}")
    return v


def parser():
    p = argparse.ArgumentParser(
        prog="python -m rooflab_record",
        description="Time torch attention (SDPA or eager softmax(QK^T)V) on random tensors of the "
                    "given shapes and write a rooflab record (validated by `rooflab validate`). "
                    "FLOPs and modelled bytes come from `rooflab eval`; the rooflab binary is "
                    "--rooflab, else $ROOFLAB, else PATH.",
        epilog="example: python -m rooflab_record --device cpu --impl eager --heads 2 --seq 128 "
               "--head-dim 64 --dtype fp32 --out eager.json")
    g = p.add_argument_group("problem (q (B, H, N, d), k and v (B, Hkv, L, d))")
    g.add_argument("--batch", type=_positive, default=1, help="B (default 1)")
    g.add_argument("--heads", type=_positive, default=8, help="H query heads (default 8)")
    g.add_argument("--kv-heads", type=_positive, help="Hkv key/value heads (default H; GQA below)")
    g.add_argument("--seq", type=_positive, required=True, help="N query rows")
    g.add_argument("--kv-len", type=_positive, help="L key/value rows (default N)")
    g.add_argument("--head-dim", type=_positive, default=64, help="d (default 64)")
    g.add_argument("--dtype", choices=DTYPES, default="fp16", help="precision (default fp16)")
    g.add_argument("--causal", action="store_true",
                   help="causal mask (sdpa: N == L only, torch aligns the first query; eager: "
                        "bottom-right, the last query sees every key, as rooflab models)")
    g = p.add_argument_group("what runs where")
    g.add_argument("--device", default="cuda",
                   help="cpu, cuda or cuda:N (default cuda); CPU runs are timed by the wall "
                        "clock, GPU runs by CUDA events")
    g.add_argument("--impl", choices=("sdpa", "eager"), default="sdpa",
                   help="sdpa (torch >= 2.0) or eager softmax(QK^T)V (default sdpa)")
    g.add_argument("--sdpa-backend", choices=SDPA_BACKENDS, default="auto",
                   help="force one SDPA backend (default auto: torch's choice)")
    g.add_argument("--threads", type=_positive, help="torch CPU threads (torch.set_num_threads)")
    g.add_argument("--seed", type=int, default=0, help="random tensors' seed (default 0)")
    g = p.add_argument_group("timing")
    g.add_argument("--warmup", type=_count, default=3, help="untimed calls first (default 3)")
    g.add_argument("--runs", type=_positive,
                   help="timed calls (default: about 0.5 s of runs, 10 to 100)")
    g.add_argument("--no-flush", action="store_true",
                   help="no cache flush between runs (default: a buffer larger than the "
                        "last-level cache or L2 is written before each run)")
    g.add_argument("--no-check", action="store_true",
                   help="skip the float64 reference check of a few output rows")
    g = p.add_argument_group("record")
    g.add_argument("--out", required=True, help="the record file to write")
    g.add_argument("--kernel", help="kernel name (default torch-sdpa[-BACKEND] or torch-eager)")
    g.add_argument("--kernel-version", help="kernel version (default: torch's version)")
    g.add_argument("--traffic-model", choices=("compulsory", "tiled", "naive"),
                   help="the dataflow for modelled bytes (default: naive for eager and SDPA math, "
                        "tiled otherwise)")
    g.add_argument("--block-m", type=_positive, help="the tiled model's query tile (default "
                   "rooflab's 64; sdpa flash on CUDA: 128, FlashAttention-2's forward tile)")
    g.add_argument("--block-n", type=_positive, help="the tiled model's key tile (default "
                   "rooflab's 64; sdpa flash on CUDA: 64 for d >= 128, else 128)")
    g.add_argument("--profile", choices=("generic", "fa2", "fa3", "flashinfer", "flash-decoding",
                                         "standard", "fa4", "flashmla", "cudnn"),
                   help="rooflab kernel profile predicting the point (rooflab eval --kernel)")
    g.add_argument("--preset", help="rooflab preset id (default: core's match of the GPU's name)")
    g.add_argument("--label", help="the point's label")
    g.add_argument("--rooflab", help="the rooflab binary (default $ROOFLAB, else PATH)")
    return p


def sdpa_call(torch, backend, causal, gqa):
    """(the callable for torch SDPA, a context manager factory forcing the backend)."""
    F = torch.nn.functional
    if not hasattr(F, "scaled_dot_product_attention"):
        raise ProblemError(f"--impl sdpa: torch {torch.__version__} has no "
                           f"scaled_dot_product_attention (added in torch 2.0); use --impl eager")
    kw = {"is_causal": causal}
    if gqa:
        kw["enable_gqa"] = True
    ctx = None
    if backend != "auto":
        try:
            from torch.nn.attention import SDPBackend, sdpa_kernel
            name = {"flash": "FLASH_ATTENTION", "efficient": "EFFICIENT_ATTENTION",
                    "cudnn": "CUDNN_ATTENTION", "math": "MATH"}[backend]
            if not hasattr(SDPBackend, name):
                raise ProblemError(f"--sdpa-backend: torch {torch.__version__} has no {backend} "
                                   f"backend")
            ctx = lambda: sdpa_kernel(getattr(SDPBackend, name))  # noqa: E731
        except ImportError:  # torch 2.0 - 2.2
            if backend == "cudnn":
                raise ProblemError(f"--sdpa-backend: torch {torch.__version__} has no cudnn "
                                   f"backend") from None
            flags = {"enable_flash": backend == "flash", "enable_math": backend == "math",
                     "enable_mem_efficient": backend == "efficient"}
            ctx = lambda: torch.backends.cuda.sdp_kernel(**flags)  # noqa: E731

    def run(q, k, v):
        return F.scaled_dot_product_attention(q, k, v, **kw)
    # the backend is chosen once, around the whole timing (its context manager is not timed)
    return run, (ctx or contextlib.nullcontext)


def eager_call(torch, causal, N, L, H, Hkv, device):
    """softmax(Q K^T / sqrt(d)) V in torch operations, the bottom-right causal mask, K/V heads
    repeated for GQA (inside the call, as eager code does)."""
    mask = None
    if causal:
        rows = torch.arange(N, device=device).unsqueeze(1) + (L - N)
        mask = torch.arange(L, device=device).unsqueeze(0) > rows
    group = H // Hkv

    def run(q, k, v):
        if group > 1:
            k = k.repeat_interleave(group, dim=1)
            v = v.repeat_interleave(group, dim=1)
        s = (q @ k.transpose(-2, -1)) * (q.shape[-1] ** -0.5)
        if mask is not None:
            s = s.masked_fill(mask, float("-inf"))
        return torch.softmax(s, dim=-1) @ v
    return run


def main(argv=None):
    args = parser().parse_args(argv)
    prog = "python -m rooflab_record"
    try:
        import torch
    except ImportError:
        print(f"{prog}: torch is not installed (Debian: apt-get install python3-torch; the "
              f"notebook form rooflab_record.time_attention works on any tensors)", file=sys.stderr)
        return 1
    H, Hkv = args.heads, args.kv_heads or args.heads
    N, L, d = args.seq, args.kv_len or args.seq, args.head_dim
    if H % Hkv:
        print(f"{prog}: --kv-heads: {Hkv} does not divide --heads {H}", file=sys.stderr)
        return 2
    if args.causal and N > L:
        print(f"{prog}: --causal: N = {N} exceeds --kv-len {L}; a causal problem needs N <= L",
              file=sys.stderr)
        return 2
    if args.impl == "sdpa" and args.causal and N != L:
        print(f"{prog}: --causal: torch SDPA's is_causal aligns the first query, rooflab models "
              f"the last (bottom-right); with N = {N} != L = {L} use --impl eager or N = L",
              file=sys.stderr)
        return 2
    try:
        check_out_path(args.out)
    except OSError as e:
        print(f"{prog}: --out: {e}", file=sys.stderr)
        return 2
    dev = args.device
    if dev.startswith("cuda"):
        if not torch.cuda.is_available():
            print(f"{prog}: --device {dev}: torch {torch.__version__} sees no CUDA device",
                  file=sys.stderr)
            return 3
    elif dev != "cpu":
        print(f"{prog}: --device: expected cpu, cuda or cuda:N, got {dev!r}", file=sys.stderr)
        return 2
    try:
        device = torch.device(dev)
    except RuntimeError as e:
        print(f"{prog}: --device: {e}", file=sys.stderr)
        return 2
    if device.type == "cuda" and device.index is not None and device.index >= torch.cuda.device_count():
        print(f"{prog}: --device {dev}: only {torch.cuda.device_count()} CUDA devices",
              file=sys.stderr)
        return 3
    if args.threads:
        torch.set_num_threads(args.threads)
    dt = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}[args.dtype]
    gen = torch.Generator(device=device).manual_seed(args.seed)
    q = torch.randn(args.batch, H, N, d, device=device, dtype=dt, generator=gen)
    k = torch.randn(args.batch, Hkv, L, d, device=device, dtype=dt, generator=gen)
    v = torch.randn(args.batch, Hkv, L, d, device=device, dtype=dt, generator=gen)

    try:
        if args.impl == "sdpa":
            fn, backend_ctx = sdpa_call(torch, args.sdpa_backend, args.causal, Hkv != H)
            kernel = "torch-sdpa" + ("" if args.sdpa_backend == "auto" else f"-{args.sdpa_backend}")
            naive = args.sdpa_backend == "math"
        else:
            fn = eager_call(torch, args.causal, N, L, H, Hkv, device)
            kernel, naive, backend_ctx = "torch-eager", True, contextlib.nullcontext
        block_m, block_n = args.block_m, args.block_n
        if args.impl == "sdpa" and args.sdpa_backend == "flash" and device.type == "cuda":
            block_m = block_m or 128
            block_n = block_n or (64 if d >= 128 else 128)
        with backend_ctx():
            record = time_attention(
                fn, q, k, v,
                causal="bottom-right" if args.causal and N != L else args.causal,
                kernel=args.kernel or kernel,
                version=args.kernel_version or f"torch {torch.__version__}",
                warmup=args.warmup, runs=args.runs, flush=not args.no_flush,
                traffic_model=args.traffic_model or ("naive" if naive else "tiled"),
                block_m=block_m, block_n=block_n, profile=args.profile, check=not args.no_check,
                label=args.label, preset=args.preset, rooflab=args.rooflab,
                argv=[os.path.basename(sys.executable), "-m", "rooflab_record"] + list(
                    sys.argv[1:] if argv is None else argv))
        from .record import write
        report = write(record, args.out, rooflab=args.rooflab)
    except (ProblemError, RooflabError, RecordInvalid, TimingError, OSError) as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 1
    except (RuntimeError, TypeError) as e:  # torch refusing the call (a backend that cannot run
        # it, OOM, enable_gqa before torch 2.5)
        print(f"{prog}: the attention call failed: {str(e).strip().splitlines()[0]}",
              file=sys.stderr)
        return 1
    pt = record["points"][0]
    t = pt["timing"]
    # the achieved rate as core's check derives it (rooflab validate), not computed here
    derived = ((report.get("record") or {}).get("points") or [{}])[0].get("derived") or {}
    rate = derived.get("achieved_flops_per_s")
    rate_text = f"{rate / 1e9:.4g} GFLOP/s" if isinstance(rate, (int, float)) else "rate not derived"
    print(f"{prog}: {pt['label']}: median {t['median_s'] * 1e3:.4g} ms (min {t['min_s'] * 1e3:.4g}, "
          f"max {t['max_s'] * 1e3:.4g}), {rate_text}; "
          f"{report.get('warnings', 0)} validator warnings; wrote {args.out}", file=sys.stderr)
    return 0
