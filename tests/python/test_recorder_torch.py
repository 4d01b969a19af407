"""rooflab_record end to end on the CPU with Debian's torch (python3-torch): the notebook form and
the command form write records that `rooflab validate` accepts, with hand-checked problems,
FLOPs and errors.

Run: ROOFLAB=build/native/cli/rooflab /usr/bin/python3 tests/python/test_recorder_torch.py
Without torch this test FAILS (scripts/setup.sh installs python3-torch); it never passes unrun.
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PYDIR = os.path.abspath(os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, PYDIR)

try:
    import torch
except ImportError as e:
    sys.exit(f"test_recorder_torch: FAILED: torch is not importable by {sys.executable} ({e}); "
             f"install Debian's python3-torch (scripts/setup.sh does) - this test is not run")

import rooflab_record  # noqa: E402

ROOFLAB = os.environ.get("ROOFLAB")
if not ROOFLAB:
    sys.exit("test_recorder_torch: set ROOFLAB to the rooflab binary")


def eager_bhnd(q, k, v, scale=None):
    """softmax(Q K^T / sqrt(d)) V, K/V heads repeated for GQA; no mask."""
    g = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(g, dim=1), v.repeat_interleave(g, dim=1)
    s = (q @ k.transpose(-2, -1)) * (scale if scale is not None else q.shape[-1] ** -0.5)
    return torch.softmax(s, dim=-1) @ v


def eager_bnhd_causal(q, k, v):
    """flash-attn's layout (B, N, H, d) and causal convention (bottom-right), in torch ops."""
    q, k, v = (t.transpose(1, 2) for t in (q, k, v))
    g = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(g, dim=1), v.repeat_interleave(g, dim=1)
    N, L = q.shape[2], k.shape[2]
    s = (q @ k.transpose(-2, -1)) * q.shape[-1] ** -0.5
    mask = torch.arange(L).unsqueeze(0) > (torch.arange(N).unsqueeze(1) + (L - N))
    s = s.masked_fill(mask, float("-inf"))
    return (torch.softmax(s, dim=-1) @ v).transpose(1, 2)


def validate_cli(path):
    p = subprocess.run([ROOFLAB, "validate", path], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


class NotebookFormTest(unittest.TestCase):
    def test_eager_mha_fp32(self):
        g = torch.Generator().manual_seed(1)
        q, k, v = (torch.randn(1, 2, 128, 64, generator=g) for _ in range(3))
        rec = rooflab_record.time_attention(eager_bhnd, q, k, v, causal=False,
                                            kernel="test-eager", version="t1", warmup=1, runs=5,
                                            traffic_model="naive", check=True)
        pt = rec["points"][0]
        self.assertEqual(pt["problem"], {"batch": 1, "heads": 2, "kv_heads": 2, "seq": 128,
                                         "kv_len": 128, "head_dim": 64, "dtype": "fp32",
                                         "kv_dtype": "fp32", "causal": False, "pass": "fwd"})
        # F = 4·B·H·N·L·d = 4·1·2·128·128·64 = 8,388,608
        self.assertEqual(pt["flops"], 4 * 1 * 2 * 128 * 128 * 64)
        # naive bytes: (4·H·N·d + 4·H·N·L) · 4 B = (65,536 + 131,072) · 4 = 786,432
        self.assertEqual(pt["modelled_bytes"], 786432)
        t = pt["timing"]
        self.assertEqual(t["runs"], 5)
        self.assertTrue(0 < t["min_s"] <= t["median_s"] <= t["max_s"])
        self.assertTrue(t["min_s"] <= t["mean_s"] <= t["max_s"])
        self.assertLess(pt["rel_l2_error"], 1e-5)     # the same maths in fp32 vs fp64
        self.assertLess(pt["max_abs_error"], 1e-5)
        hw = rec["hardware"]
        with open("/proc/cpuinfo") as f:
            first = [l for l in f if l.startswith("model name")]
        if first:
            self.assertEqual(hw["name"], first[0].split(":", 1)[1].strip())
        self.assertEqual(hw["threads"], torch.get_num_threads())
        self.assertIn("wall clock (time.perf_counter_ns)", rec["provenance"]["notes"])
        self.assertIn("not CUDA events", rec["provenance"]["notes"])
        self.assertIn("buffer written on the CPU", rec["provenance"]["notes"])
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "eager.json")
            rooflab_record.write(rec, path)
            rc, out = validate_cli(path)
            self.assertEqual(rc, 0, out)
            self.assertIn("valid record: 1 point, measured", out)

    def test_gqa_bnhd_bottom_right_causal(self):
        # flash-attn layout: q (B=1, N=32, H=4, d=16), k/v (1, L=48, Hkv=2, 16), causal
        # bottom-right: query i sees keys 0 .. i + 16, i.e. i + 17 keys; P = Σ_{i=0}^{31} (i + 17)
        # = 32·17 + 496 = 1040 pairs; F = 4·B·H·d·P = 4·1·4·16·1040 = 266,240
        g = torch.Generator().manual_seed(2)
        q = torch.randn(1, 32, 4, 16, generator=g)
        k, v = torch.randn(1, 48, 2, 16, generator=g), torch.randn(1, 48, 2, 16, generator=g)
        rec = rooflab_record.time_attention(eager_bnhd_causal, q, k, v, causal="bottom-right",
                                            layout="bnhd", kernel="test-bnhd", version="t2",
                                            warmup=0, runs=3, check=True, flush=False)
        pt = rec["points"][0]
        p = pt["problem"]
        self.assertEqual((p["batch"], p["heads"], p["kv_heads"], p["seq"], p["kv_len"],
                          p["head_dim"], p["causal"]), (1, 4, 2, 32, 48, 16, True))
        self.assertEqual(pt["flops"], 266240)
        # the check used the same GQA head mapping and mask as the kernel: agreement
        self.assertLess(pt["rel_l2_error"], 1e-5)
        self.assertIn("cache flush: none", rec["provenance"]["notes"])

    def test_check_catches_a_wrong_kernel(self):
        # scale 1 instead of 1/sqrt(64): the reference check must show a large error
        g = torch.Generator().manual_seed(3)
        q, k, v = (torch.randn(1, 1, 64, 64, generator=g) for _ in range(3))
        rec = rooflab_record.time_attention(lambda q, k, v: eager_bhnd(q, k, v, scale=1.0), q, k, v,
                                            causal=False, kernel="wrong", version="t3", warmup=0,
                                            runs=1, check=True, flush=False)
        self.assertGreater(rec["points"][0]["rel_l2_error"], 0.1)

    def test_real_tensor_errors(self):
        q = torch.randn(1, 2, 16, 8)
        with self.assertRaisesRegex(rooflab_record.ProblemError, r"k.shape: head dim 4 differs from q's 8"):
            rooflab_record.time_attention(eager_bhnd, q, torch.randn(1, 2, 16, 4),
                                          torch.randn(1, 2, 16, 4), causal=False, kernel="k",
                                          version="v")
        with self.assertRaisesRegex(rooflab_record.ProblemError, r"q.dtype: torch.float64 is not a "
                                                                 r"precision rooflab models"):
            x = torch.randn(1, 2, 16, 8, dtype=torch.float64)
            rooflab_record.time_attention(eager_bhnd, x, x, x, causal=False, kernel="k", version="v")
        with self.assertRaisesRegex(rooflab_record.ProblemError, r"q: expected a tensor .* got list"):
            rooflab_record.time_attention(eager_bhnd, [1.0], q, q, causal=False, kernel="k", version="v")

    def test_sdpa_when_torch_has_it(self):
        F = torch.nn.functional
        if not hasattr(F, "scaled_dot_product_attention"):
            self.skipTest(f"torch {torch.__version__} has no scaled_dot_product_attention (2.0+): "
                          f"SDPA not run here (Debian 12 ships torch 1.13)")
        g = torch.Generator().manual_seed(4)
        q, k, v = (torch.randn(1, 2, 128, 64, generator=g) for _ in range(3))
        rec = rooflab_record.time_attention(F.scaled_dot_product_attention, q, k, v, causal=False,
                                            kernel="torch-sdpa", version=torch.__version__,
                                            warmup=1, runs=5, check=True)
        self.assertEqual(rec["points"][0]["flops"], 8388608)
        self.assertLess(rec["points"][0]["rel_l2_error"], 1e-5)


class CommandFormTest(unittest.TestCase):
    def run_cmd(self, *args):
        env = dict(os.environ, PYTHONPATH=PYDIR)
        return subprocess.run([sys.executable, "-m", "rooflab_record"] + list(args),
                              capture_output=True, text=True, env=env, cwd=tempfile.gettempdir())

    def test_eager_record(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "cmd.json")
            p = self.run_cmd("--device", "cpu", "--impl", "eager", "--batch", "1", "--heads", "2",
                             "--seq", "128", "--head-dim", "64", "--dtype", "fp32", "--runs", "5",
                             "--warmup", "1", "--out", out)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("wrote " + out, p.stderr)
            rc, text = validate_cli(out)
            self.assertEqual(rc, 0, text)
            with open(out) as f:
                rec = json.load(f)
            pt = rec["points"][0]
            self.assertEqual(pt["flops"], 8388608)           # 4·1·2·128·128·64
            self.assertEqual(pt["traffic_model"], "naive")   # eager: S and P through memory
            self.assertEqual(pt["kernel"], "torch-eager")
            self.assertEqual(rec["software"]["kernel_version"], f"torch {torch.__version__}")
            self.assertEqual(rec["software"]["argv"][1:4], ["-m", "rooflab_record", "--device"])
            self.assertLess(pt["rel_l2_error"], 1e-5)
            self.assertEqual(pt["timing"]["runs"], 5)

    def test_eager_gqa_causal_n_below_l(self):
        # H=4, Hkv=2, N=32, L=48, d=16, causal (bottom-right, as the eager mask): F = 266,240
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "gqa.json")
            p = self.run_cmd("--device", "cpu", "--impl", "eager", "--heads", "4", "--kv-heads", "2",
                             "--seq", "32", "--kv-len", "48", "--head-dim", "16", "--dtype", "fp32",
                             "--causal", "--runs", "3", "--out", out)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(out) as f:
                pt = json.load(f)["points"][0]
            self.assertEqual(pt["flops"], 266240)
            self.assertLess(pt["rel_l2_error"], 1e-5)

    def test_errors(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "x.json")
            base = ["--heads", "2", "--seq", "16", "--head-dim", "8", "--dtype", "fp32", "--out", out]
            if not torch.cuda.is_available():
                p = self.run_cmd("--device", "cuda", *base)
                self.assertEqual(p.returncode, 3, p.stderr)
                self.assertIn("--device cuda: torch", p.stderr)
                self.assertIn("sees no CUDA device", p.stderr)
            if not hasattr(torch.nn.functional, "scaled_dot_product_attention"):
                p = self.run_cmd("--device", "cpu", "--impl", "sdpa", *base)
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn("has no scaled_dot_product_attention (added in torch 2.0); use "
                              "--impl eager", p.stderr)
            p = self.run_cmd("--device", "cpu", "--impl", "eager", "--kv-heads", "3", *base)
            self.assertEqual(p.returncode, 2)
            self.assertIn("--kv-heads: 3 does not divide --heads 2", p.stderr)
            p = self.run_cmd("--device", "cpu", "--seq", "0", "--out", out)
            self.assertEqual(p.returncode, 2)
            self.assertIn("argument --seq: expected a positive integer, got '0'", p.stderr)
            p = self.run_cmd("--device", "cpu", "--impl", "eager", "--heads", "1", "--seq", "8",
                             "--out", os.path.join(d, "no-such-folder", "r.json"))
            self.assertEqual(p.returncode, 2)
            self.assertIn("--out: " + os.path.join(d, "no-such-folder", "r.json") + ": cannot write "
                          "the record: the folder " + os.path.join(d, "no-such-folder") +
                          " does not exist", p.stderr)
            self.assertNotIn("runs after", p.stderr)   # refused before any timing
            p = self.run_cmd("--device", "cpu", "--impl", "eager", "--heads", "1", "--seq", "8",
                             "--out", d)
            self.assertEqual(p.returncode, 2)
            self.assertIn("cannot write the record: it is a folder", p.stderr)
            p = self.run_cmd("--device", "tpu", *base)
            self.assertEqual(p.returncode, 2)
            self.assertIn("--device: expected cpu, cuda or cuda:N, got 'tpu'", p.stderr)
            p = self.run_cmd("--device", "cpu", "--impl", "eager", "--rooflab", "/nonexistent", *base)
            self.assertEqual(p.returncode, 1)
            self.assertIn("rooflab=: '/nonexistent' is not an executable rooflab binary", p.stderr)
            self.assertFalse(os.path.exists(out))

    def test_help(self):
        p = self.run_cmd("--help")
        self.assertEqual(p.returncode, 0)
        for flag in ("--impl {sdpa,eager}", "--sdpa-backend", "--device", "--out", "--kv-heads"):
            self.assertIn(flag, p.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
