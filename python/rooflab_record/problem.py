"""The attention problem of a call, read from its tensors' shapes and dtypes.

Only ``.shape`` and ``.dtype`` are read, so torch tensors, NumPy arrays or any object carrying
them will do. The layouts:

* ``"bhnd"``: (B, H, N, d) for q and (B, Hkv, L, d) for k and v, as
  ``torch.nn.functional.scaled_dot_product_attention`` takes them;
* ``"bnhd"``: (B, N, H, d) and (B, L, Hkv, d), as ``flash_attn_func`` takes them.

The result is a dict with the keys of a record point's ``problem`` (CONTRACTS.md, "The record"):
batch, heads, kv_heads, seq, kv_len, head_dim, dtype, kv_dtype, causal, pass.
"""

LAYOUTS = {
    # name: (what the four axes are, in order)
    "bhnd": ("B", "H", "N", "d"),
    "bnhd": ("B", "N", "H", "d"),
}

# torch / NumPy dtype names -> rooflab dtype ids. fp8: both OCP formats (and AMD's fnuz variants)
# are one byte, the only thing the model's bytes depend on.
DTYPES = {
    "float32": "fp32",
    "float": "fp32",
    "float16": "fp16",
    "half": "fp16",
    "bfloat16": "bf16",
    "float8_e4m3fn": "fp8",
    "float8_e5m2": "fp8",
    "float8_e4m3fnuz": "fp8",
    "float8_e5m2fnuz": "fp8",
}
ROOFLAB_DTYPES = ("fp32", "tf32", "fp16", "bf16", "fp8")


class ProblemError(ValueError):
    """A tensor or argument that does not describe an attention problem; the message names it."""


def dtype_id(dtype, arg):
    """The rooflab dtype id of a torch/NumPy dtype (``torch.bfloat16`` -> ``"bf16"``).

    ``arg`` names the argument in the error (``"k.dtype"``).
    """
    text = str(dtype)
    name = text[len("torch."):] if text.startswith("torch.") else text
    if name in DTYPES:
        return DTYPES[name]
    raise ProblemError(f"{arg}: {text} is not a precision rooflab models; expected one of "
                       f"float32, float16, bfloat16, float8_e4m3fn, float8_e5m2")


def _shape(t, arg, layout):
    if not hasattr(t, "shape") or not hasattr(t, "dtype"):
        raise ProblemError(f"{arg}: expected a tensor (an object with .shape and .dtype), "
                           f"got {type(t).__name__}")
    try:
        shape = tuple(int(x) for x in t.shape)
    except (TypeError, ValueError):
        raise ProblemError(f"{arg}.shape: expected a sequence of integers, got {t.shape!r}") from None
    axes = LAYOUTS[layout]
    if len(shape) != 4:
        raise ProblemError(f"{arg}.shape: expected 4 dimensions ({', '.join(axes)}) in layout "
                           f"\"{layout}\", got {len(shape)}: {shape}")
    for name, n in zip(axes, shape):
        if n < 1:
            raise ProblemError(f"{arg}.shape: {name} = {n}; expected a positive size, got {shape}")
    return dict(zip(axes, shape)), shape


def infer_problem(q, k, v, *, causal, layout="bhnd", dtype=None, kv_dtype=None):
    """The problem of ``attention(q, k, v)``: B, H, Hkv, N, L, d, the dtypes and the mask.

    Args:
        q, k, v: tensors in ``layout``; k and v must have the same shape (Hkv heads of L rows).
        causal: ``False``, ``True`` (only where N == L: every convention agrees there) or
            ``"bottom-right"``: the last query sees every key (flash-attn >= 2.1's convention and
            rooflab's model); torch SDPA's ``is_causal`` aligns the first query instead, a mask
            rooflab does not model for N != L.
        layout: ``"bhnd"`` (torch SDPA) or ``"bnhd"`` (flash-attn).
        dtype: override the precision read from q, e.g. ``"tf32"`` for fp32 tensors run with
            TF32 matmuls.
        kv_dtype: override the precision read from k and v.

    Returns:
        dict with batch, heads, kv_heads, seq, kv_len, head_dim, dtype, kv_dtype, causal, pass.

    Raises:
        ProblemError naming the argument (``k.shape``, ``v.dtype``, ``causal`` ...).
    """
    if layout not in LAYOUTS:
        raise ProblemError(f"layout: expected one of {', '.join(LAYOUTS)}, got {layout!r}")
    qa, qs = _shape(q, "q", layout)
    ka, ks = _shape(k, "k", layout)
    va, vs = _shape(v, "v", layout)
    if vs != ks:
        raise ProblemError(f"v.shape: expected the shape of k {ks}, got {vs}")
    if ka["B"] != qa["B"]:
        raise ProblemError(f"k.shape: batch {ka['B']} differs from q's {qa['B']} "
                           f"(q {qs}, k {ks}, layout \"{layout}\")")
    if ka["d"] != qa["d"]:
        raise ProblemError(f"k.shape: head dim {ka['d']} differs from q's {qa['d']} "
                           f"(q {qs}, k {ks}, layout \"{layout}\")")
    H, Hkv = qa["H"], ka["H"]
    if H % Hkv != 0:
        raise ProblemError(f"k.shape: {Hkv} key/value heads do not divide q's {H} heads (H must be "
                           f"a multiple of Hkv; q {qs}, k {ks}, layout \"{layout}\")")
    N, L = qa["N"], ka["N"]
    if not (causal is True or causal is False or causal == "bottom-right"):
        raise ProblemError(f"causal: expected True, False or \"bottom-right\", got {causal!r}")
    if causal is True and N != L:
        raise ProblemError(
            f"causal: N = {N} query rows and L = {L} keys differ, so say which mask: rooflab "
            f"models the bottom-right-aligned one (the last query sees every key, flash-attn >= "
            f"2.1); pass causal=\"bottom-right\" if the kernel uses it (torch SDPA's is_causal "
            f"aligns the first query instead, which rooflab does not model)")
    if causal and N > L:
        raise ProblemError(f"causal: N = {N} query rows exceed L = {L} keys; a causal problem "
                           f"needs N <= L")

    qd = dtype_id(q.dtype, "q.dtype")
    kd = dtype_id(k.dtype, "k.dtype")
    vd = dtype_id(v.dtype, "v.dtype")
    if vd != kd:
        raise ProblemError(f"v.dtype: {v.dtype} differs from k.dtype {k.dtype}; rooflab models "
                           f"one K/V precision")
    for name, val in (("dtype", dtype), ("kv_dtype", kv_dtype)):
        if val is not None and val not in ROOFLAB_DTYPES:
            raise ProblemError(f"{name}: expected one of {', '.join(ROOFLAB_DTYPES)}, got {val!r}")
    return {
        "batch": qa["B"],
        "heads": H,
        "kv_heads": Hkv,
        "seq": N,
        "kv_len": L,
        "head_dim": qa["d"],
        "dtype": dtype or qd,
        "kv_dtype": kv_dtype or (dtype if dtype and kd == qd else kd),
        "causal": bool(causal),
        "pass": "fwd",
    }


def describe(problem):
    """One line: ``fp16 B=1 H=32 Hkv=8 N=4096 L=4096 d=128 causal``."""
    p = problem
    s = (f"{p['dtype']} B={p['batch']} H={p['heads']} Hkv={p['kv_heads']} N={p['seq']} "
         f"L={p['kv_len']} d={p['head_dim']}")
    if p.get("kv_dtype") and p["kv_dtype"] != p["dtype"]:
        s += f" kv {p['kv_dtype']}"
    return s + (" causal" if p.get("causal") else "")
