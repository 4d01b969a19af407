"""The rooflab binary: the one model (``rooflab eval --json``), the one reader and validator
(``rooflab validate --json``) and the one device-name table (``rooflab hw --device``).

Python does no model arithmetic and no record checking of its own: FLOPs and modelled bytes come
from ``rooflab eval``, the verdict on a record from ``rooflab validate``, the preset of a GPU from
``rooflab hw --device`` (core's ``rl_hw_match_device``).

The binary is, in order: the ``rooflab=`` argument, the ``ROOFLAB`` environment variable, or
``rooflab`` on PATH.
"""
import json
import os
import shutil
import subprocess


class RooflabError(RuntimeError):
    """The rooflab binary is missing, failed, or refused an input (its message is kept)."""


def find_rooflab(rooflab=None):
    """The path of the rooflab binary (see the module's docstring for the order)."""
    for origin, cand in (("rooflab=", rooflab), ("ROOFLAB", os.environ.get("ROOFLAB"))):
        if cand:
            path = cand if os.sep in cand else shutil.which(cand)
            if not path or not (os.path.isfile(path) and os.access(path, os.X_OK)):
                raise RooflabError(f"{origin}: {cand!r} is not an executable rooflab binary")
            return path
    path = shutil.which("rooflab")
    if not path:
        raise RooflabError("rooflab: no binary found; set ROOFLAB=/path/to/rooflab (after `make "
                           "test` it is build/native/cli/rooflab), pass rooflab=..., or put it "
                           "on PATH")
    return path


def _run(rooflab, args, stdin=None):
    exe = find_rooflab(rooflab)
    try:
        p = subprocess.run([exe] + args, input=stdin, capture_output=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise RooflabError(f"rooflab {args[0]}: could not run {exe}: {e}") from None
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def problem_flags(problem, block_m=None, block_n=None):
    """``rooflab eval`` flags for a record point's problem dict."""
    p = problem
    flags = ["--batch", str(p["batch"]), "--heads", str(p["heads"]),
             "--kv-heads", str(p.get("kv_heads", p["heads"])), "--seq", str(p["seq"]),
             "--kv-len", str(p.get("kv_len", p["seq"])), "--head-dim", str(p["head_dim"]),
             "--dtype", p["dtype"], "--kv-dtype", p.get("kv_dtype", p["dtype"]),
             "--pass", p.get("pass", "fwd")]
    if p.get("causal"):
        flags.append("--causal")
    if block_m is not None:
        flags += ["--block-m", str(block_m)]
    if block_n is not None:
        flags += ["--block-n", str(block_n)]
    return flags


def model(problem, block_m=None, block_n=None, rooflab=None):
    """``rooflab eval --json`` for the problem: its JSON object (``flops``, ``models`` with each
    traffic model's ``bytes``, the ``problem`` as core read it)."""
    rc, out, err = _run(rooflab, ["eval", "--json"] + problem_flags(problem, block_m, block_n))
    if rc != 0:
        raise RooflabError(f"rooflab eval refused the problem: {err.strip()}")
    try:
        return json.loads(out)
    except ValueError as e:
        raise RooflabError(f"rooflab eval --json: output is not JSON ({e})") from None


def preset_for_device(name, rooflab=None):
    """The rooflab preset id of a device as its driver names it, or None (core's table, through
    ``rooflab hw --device NAME --json``)."""
    rc, out, err = _run(rooflab, ["hw", "--device", name, "--json"])
    if rc != 0:
        raise RooflabError(f"rooflab hw --device: {err.strip()}")
    try:
        presets = json.loads(out)
    except ValueError as e:
        raise RooflabError(f"rooflab hw --device --json: output is not JSON ({e})") from None
    return presets[0]["id"] if presets else None


def validate_text(text, rooflab=None):
    """``rooflab validate --json -`` on a record's JSON text: the file's report
    (``ok``, ``errors``, ``warnings``, ``issues`` with ``severity``, ``path``, ``message``)."""
    rc, out, err = _run(rooflab, ["validate", "--json", "-"], stdin=text.encode("utf-8"))
    try:
        report = json.loads(out)["files"][0]
    except (ValueError, KeyError, IndexError, TypeError):
        raise RooflabError(f"rooflab validate --json: unexpected output (exit {rc}): "
                           f"{(err or out).strip()[:500]}") from None
    if "report" not in report:
        raise RooflabError(f"rooflab validate: {report.get('error', 'no report')}")
    return report["report"]
