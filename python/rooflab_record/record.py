"""Time an attention callable and turn the runs into a rooflab record (schema ``rooflab-record``
version 1, data/schema/record-1.schema.json; CONTRACTS.md "The record").

The notebook form::

    import rooflab_record
    record = rooflab_record.time_attention(fn, q, k, v, causal=False,
                                           kernel="my-flash", version="v0.3 (abc123)")
    rooflab_record.write(record, "my-flash.json")   # validated by `rooflab validate` first

FLOPs and modelled bytes come from ``rooflab eval --json``; the record is checked by
``rooflab validate --json`` (rooflab_cli.py): Python holds no model and no validator.
"""
import datetime
import importlib
import json
import os
import platform
import sys
import tempfile

from . import __version__
from .device import cpu_hardware, gpu_hardware, nvidia_driver_version, torch_runtime
from .problem import ProblemError, describe, infer_problem
from .rooflab_cli import model, preset_for_device, validate_text
from .timing import CpuFlush, CudaEvents, GpuFlush, WallClock, auto_runs, summarize

TRAFFIC_MODELS = ("compulsory", "tiled", "naive")
PROFILES = ("generic", "fa2", "fa3", "flashinfer", "flash-decoding", "standard", "fa4",
            "flashmla", "cudnn")


class RecordInvalid(ValueError):
    """``rooflab validate`` refused the record; ``issues`` holds its report's issues."""

    def __init__(self, issues):
        self.issues = issues
        lines = [f"{i.get('severity', 'error')}: {i.get('message', i)}" for i in issues]
        super().__init__("rooflab validate refused the record:\n  " + "\n  ".join(lines))


def _utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def make_record(problem, timing, *, kernel, version, hardware, traffic_model="tiled",
                block_m=None, block_n=None, profile=None, label=None, notes=(), tool=None,
                argv=None, errors=None, extra=None, rooflab=None):
    """A record of one point from a problem dict (problem.infer_problem), a timing dict
    (timing.summarize) and a hardware dict (device.*_hardware).

    ``flops`` and ``modelled_bytes`` (the ``traffic_model``'s bytes, with the tile ``block_m`` x
    ``block_n`` for the tiled model) are taken from ``rooflab eval --json``.
    """
    if not isinstance(kernel, str) or not kernel:
        raise ProblemError(f"kernel: expected the kernel's name (a non-empty string), got {kernel!r}")
    if not isinstance(version, str) or not version:
        raise ProblemError(f"version: expected the kernel's version (a tag, release or git "
                           f"revision; the record requires it), got {version!r}")
    if traffic_model not in TRAFFIC_MODELS:
        raise ProblemError(f"traffic_model: expected one of {', '.join(TRAFFIC_MODELS)}, "
                           f"got {traffic_model!r}")
    if profile is not None and profile not in PROFILES:
        raise ProblemError(f"profile: expected one of {', '.join(PROFILES)}, got {profile!r}")
    for name, val in (("block_m", block_m), ("block_n", block_n)):
        if val is not None and (not isinstance(val, int) or isinstance(val, bool) or val < 1):
            raise ProblemError(f"{name}: expected a positive integer, got {val!r}")
    m = model(problem, block_m, block_n, rooflab=rooflab)
    prob = dict(problem)
    if block_m is not None:
        prob["block_m"] = block_m
    if block_n is not None:
        prob["block_n"] = block_n
    point = {
        "problem": prob,
        "traffic_model": traffic_model,
        "timing": dict(timing),
        "flops": m["flops"],
        "modelled_bytes": m["models"][traffic_model]["bytes"],
        "kernel": kernel,
    }
    if errors:
        point.update(errors)
    if profile:
        point["profile"] = profile
    point["label"] = label or (f"{kernel} {describe(problem)}; {timing['runs']} runs")
    torch_version = sys.modules["torch"].__version__ if "torch" in sys.modules else None
    rec = {
        "schema": "rooflab-record",
        "schema_version": 1,
        "provenance": {
            "kind": "measured",
            "date": _utc_now(),
            "source": "measured on this machine by rooflab_record (Python)",
            "tool": tool or (f"rooflab_record {__version__} (Python {platform.python_version()}"
                             + (f", torch {torch_version})" if torch_version else ")")),
            "notes": "\n".join(notes) + ("\n" if notes else "")
                     + f"FLOPs and modelled bytes ({traffic_model} traffic model) from rooflab eval "
                       f"--json; the record checked by rooflab validate before it was written\n",
        },
        "hardware": hardware,
        "software": {"kernel": kernel, "kernel_version": version},
        "points": [point],
    }
    if argv:
        rec["software"]["argv"] = [str(a) for a in argv]
    if extra:
        rec["extra"] = extra
    return rec


def validate(record, rooflab=None):
    """Check a record (a dict, or a path to a JSON file) with ``rooflab validate --json``.

    Returns the report (``ok``, ``errors``, ``warnings``, ``issues``); raises RecordInvalid with
    the issues when the record is refused, RooflabError when the binary cannot be run.
    """
    if isinstance(record, (str, os.PathLike)):
        with open(record, encoding="utf-8") as f:
            text = f.read()
    else:
        text = json.dumps(record, indent=1, allow_nan=False)
    report = validate_text(text, rooflab=rooflab)
    if not report.get("ok"):
        raise RecordInvalid(report.get("issues") or [{"message": "refused (no issue listed)"}])
    return report


def check_out_path(path):
    """The folder a record at ``path`` goes to, or OSError saying why it cannot be written there
    (checked before a timing run, so no run is wasted)."""
    if not path:
        raise OSError("out: expected a file name, got an empty one")
    if os.path.isdir(path):
        raise OSError(f"{path}: cannot write the record: it is a folder")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise OSError(f"{path}: cannot write the record: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OSError(f"{path}: cannot write the record: the folder {folder} is not writable")
    return folder


def write(record, path, rooflab=None):
    """Validate ``record`` through ``rooflab validate`` and write it to ``path`` (replaced
    atomically; nothing is written when the record is refused). Returns the validator's report
    (its warnings do not stop the write)."""
    try:
        text = json.dumps(record, indent=1, allow_nan=False) + "\n"
    except (TypeError, ValueError) as e:
        raise ProblemError(f"record: cannot be written as JSON ({e})") from None
    report = validate_text(text, rooflab=rooflab)
    if not report.get("ok"):
        raise RecordInvalid(report.get("issues") or [{"message": "refused (no issue listed)"}])
    folder = check_out_path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=".rooflab-record-", suffix=".json", dir=folder)
    except OSError as e:
        raise OSError(f"{path}: cannot write the record: {e.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return report


# ------------------------------------------------------------------------------------------------
# Timing a callable
# ------------------------------------------------------------------------------------------------

def _device_of(q):
    dev = getattr(q, "device", None)
    kind = getattr(dev, "type", None) or (str(dev) if dev is not None else "cpu")
    if kind not in ("cpu", "cuda"):
        raise ProblemError(f"q.device: {dev} is not supported; expected a cpu or cuda tensor")
    return kind, dev


def reference_errors(out, q, k, v, problem, layout="bhnd", rows=32):
    """max_abs_error and rel_l2_error of ``out`` against a float64 attention (scale 1/sqrt(d),
    softmax over keys, the bottom-right causal mask when causal) on up to ``rows`` query rows of
    batch 0, head 0 (and the last head), in ``layout``. torch only."""
    import torch
    if tuple(out.shape) != tuple(q.shape):
        raise ProblemError(f"out.shape: expected the shape of q {tuple(q.shape)} to check the "
                           f"output, got {tuple(out.shape)}")
    H, Hkv, N, L = problem["heads"], problem["kv_heads"], problem["seq"], problem["kv_len"]

    def head(t, b, h):
        return (t[b, h] if layout == "bhnd" else t[b, :, h]).double()

    step = max(1, N // rows)
    idx = sorted(set(list(range(0, N, step))[:rows] + [N - 1]))
    num = den = 0.0
    worst = 0.0
    for h in sorted({0, H - 1}):
        hk = h // (H // Hkv)
        qh, kh, vh = head(q, 0, h)[idx], head(k, 0, hk), head(v, 0, hk)
        s = (qh @ kh.T) / (problem["head_dim"] ** 0.5)
        if problem["causal"]:
            pos = torch.tensor(idx, device=s.device).unsqueeze(1) + (L - N)
            s = s.masked_fill(torch.arange(L, device=s.device).unsqueeze(0) > pos, float("-inf"))
        ref = torch.softmax(s, dim=-1) @ vh
        diff = head(out, 0, h)[idx] - ref
        worst = max(worst, diff.abs().max().item())
        num += diff.pow(2).sum().item()
        den += ref.pow(2).sum().item()
    return {"max_abs_error": worst, "rel_l2_error": (num ** 0.5) / (den ** 0.5) if den > 0 else 0.0}


def time_attention(fn, q, k, v, *, causal, kernel, version, layout="bhnd", args=(), kwargs=None,
                   warmup=3, runs=None, flush=True, traffic_model="tiled", block_m=None,
                   block_n=None, profile=None, dtype=None, kv_dtype=None, check=False,
                   label=None, notes=(), argv=None, preset=None, timer=None, rooflab=None,
                   torch_module=None):
    """Time ``fn(q, k, v, *args, **kwargs)`` and return a rooflab record (a dict) of one point.

    Args:
        fn: the attention callable (torch SDPA, flash_attn_func, your kernel ...).
        q, k, v: its tensors, in ``layout`` ("bhnd": (B, H, N, d) as torch SDPA; "bnhd":
            (B, N, H, d) as flash-attn). The problem (B, H, Hkv, N, L, d, dtype) is read from
            them (problem.infer_problem); k/v with fewer heads than q is GQA/MQA.
        causal: whether ``fn`` applies a causal mask (True where N == L, "bottom-right" for
            flash-attn's convention when N != L); rooflab cannot see it, so it is required.
        kernel, version: the kernel's name and version (tag, release or git revision).
        warmup: untimed calls first (also the first compile/autotune).
        runs: timed calls; None: about 0.5 s of runs, between 10 and 100.
        flush: write a buffer larger than the last-level cache (CPU) or L2 (GPU) before each
            run, untimed.
        traffic_model: "tiled" (a FlashAttention-style kernel; tile ``block_m`` x ``block_n``,
            rooflab's default 64 x 64), "naive" (S and P through memory, as an eager
            softmax(QK^T)V) or "compulsory"; sets ``modelled_bytes``.
        profile: a rooflab kernel profile (fa2, fa3, ...) that predicts the point, if any.
        dtype, kv_dtype: override the precision read from the tensors (e.g. "tf32").
        check: compare fn's output with a float64 reference on a few rows (scale 1/sqrt(d);
            only for kernels that compute plain softmax attention) and record the errors.
        preset: the rooflab preset id; default: the one core matches to the GPU's name.
        timer: a timing.WallClock / timing.CudaEvents (default: CUDA events on a GPU, the wall
            clock on the CPU).
        rooflab: the rooflab binary (default: $ROOFLAB, else PATH).
        torch_module: the torch module for the GPU path (default: ``import torch``; tests pass
            a stand-in to run the CUDA path without a GPU).

    Returns:
        the record, checked by ``rooflab validate`` (RecordInvalid if it refuses it).
    """
    if not callable(fn):
        raise ProblemError(f"fn: expected a callable, got {type(fn).__name__}")
    problem = infer_problem(q, k, v, causal=causal, layout=layout, dtype=dtype, kv_dtype=kv_dtype)
    for name, val, lo in (("warmup", warmup, 0), ("runs", runs, 1)):
        if val is None and name == "runs":
            continue
        if not isinstance(val, int) or isinstance(val, bool) or val < lo:
            raise ProblemError(f"{name}: expected an integer >= {lo}, got {val!r}")
    kind, dev = _device_of(q)
    kwargs = dict(kwargs or {})
    call = lambda: fn(q, k, v, *args, **kwargs)  # noqa: E731
    notes = list(notes)
    extra = {"python": platform.python_version(), "layout": layout}
    torch = torch_module or sys.modules.get("torch")
    if torch is not None:
        extra["torch"] = torch.__version__

    if kind == "cuda":
        torch = torch_module or importlib.import_module("torch")
        index = dev.index if getattr(dev, "index", None) is not None else torch.cuda.current_device()
        torch.cuda.set_device(index)
        props = torch.cuda.get_device_properties(index)
        preset = preset if preset is not None else preset_for_device(props.name, rooflab=rooflab)
        hardware = gpu_hardware(props, preset, torch_runtime(torch), nvidia_driver_version())
        timer = timer or CudaEvents(lambda: torch.cuda.Event(enable_timing=True),
                                    torch.cuda.synchronize)
        flusher = GpuFlush(dev, getattr(props, "L2_cache_size", None), torch) if flush else None
        sync = torch.cuda.synchronize
    else:
        threads = torch.get_num_threads() if torch is not None else None
        hardware = cpu_hardware(threads)
        if preset:
            hardware["preset"] = preset
        timer = timer or WallClock()
        flusher = CpuFlush() if flush else None
        sync = lambda: None  # noqa: E731
        if threads:
            notes.append(f"device: the CPU, {threads} torch thread{'s' if threads != 1 else ''}")

    out = None
    for _ in range(warmup):
        out = call()
    sync()
    errors = None
    if check:
        if out is None:
            out = call()
            sync()
        errors = reference_errors(out, q, k, v, problem, layout)
    out = None
    if runs is None:
        est = summarize(timer.run(call, 1, flusher))["median_s"]
        runs = auto_runs(est)
    times = timer.run(call, runs, flusher)
    timing = summarize(times)
    notes.append(f"timing: {timer.name}; {runs} timed runs after {warmup} warm-up "
                 f"call{'s' if warmup != 1 else ''}")
    notes.append(flusher.describe() if flusher else "cache flush: none (flush=False): runs may "
                 "find the previous run's data in the caches")
    if errors:
        notes.append("checked against a float64 attention on a few query rows of batch 0, "
                     "the first and last head")
    extra["timer"] = timer.name
    if flusher:
        extra["flush_bytes"] = flusher.nbytes
    lbl = label or (f"{kernel} {describe(problem)}; {runs} runs after {warmup} warm-up "
                    f"({'CUDA events' if isinstance(timer, CudaEvents) else 'wall clock'})")
    rec = make_record(problem, timing, kernel=kernel, version=version, hardware=hardware,
                      traffic_model=traffic_model, block_m=block_m, block_n=block_n,
                      profile=profile, label=lbl, notes=notes, argv=argv, errors=errors,
                      extra={"rooflab_record": extra}, rooflab=rooflab,
                      tool=f"rooflab_record {__version__} (Python {platform.python_version()}"
                           + (f", torch {torch.__version__})" if torch is not None else ")"))
    validate(rec, rooflab=rooflab)
    return rec
