"""rooflab_record without torch: problem inference, errors, statistics on a fake clock, the CUDA
path on fake events and a stand-in torch, the model and the validator through the rooflab CLI.

Run: ROOFLAB=build/native/cli/rooflab python3 tests/python/test_recorder_unit.py
Every expected number is worked out by hand in the test.
"""
import json
import os
import sys
import tempfile
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

import rooflab_record  # noqa: E402
from rooflab_record import device, problem, record, rooflab_cli, timing  # noqa: E402
from rooflab_record.problem import ProblemError  # noqa: E402

if not os.environ.get("ROOFLAB"):
    sys.exit("test_recorder_unit: set ROOFLAB to the rooflab binary")


class Dtype:
    """A dtype as torch prints it (str(torch.float16) == "torch.float16")."""

    def __init__(self, name):
        self.name = name

    def __str__(self):
        return self.name


class Dev:
    def __init__(self, kind, index=None):
        self.type, self.index = kind, index

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"


class T:
    """A stand-in tensor: shape, dtype, device."""

    def __init__(self, *shape, dtype="torch.float32", device=None):
        self.shape, self.dtype = shape, Dtype(dtype)
        self.device = device or Dev("cpu")


class FakeClock:
    """perf_counter_ns that returns the next value of a list."""

    def __init__(self, values):
        self.values = list(values)
        self.reads = 0

    def __call__(self):
        self.reads += 1
        return self.values.pop(0)


class ProblemTest(unittest.TestCase):
    def test_bhnd_mha(self):
        # q (B=1, H=2, N=128, d=64), k = v (1, 2, 128, 64), fp32
        p = problem.infer_problem(T(1, 2, 128, 64), T(1, 2, 128, 64), T(1, 2, 128, 64), causal=False)
        self.assertEqual(p, {"batch": 1, "heads": 2, "kv_heads": 2, "seq": 128, "kv_len": 128,
                             "head_dim": 64, "dtype": "fp32", "kv_dtype": "fp32",
                             "causal": False, "pass": "fwd"})

    def test_bhnd_gqa_decode(self):
        # q (B=4, H=32, N=1, d=128), k/v (4, Hkv=8, L=4096, 128), bf16: Llama-3-style decode
        q = T(4, 32, 1, 128, dtype="torch.bfloat16")
        kv = T(4, 8, 4096, 128, dtype="torch.bfloat16")
        p = problem.infer_problem(q, kv, kv, causal=False)
        self.assertEqual((p["batch"], p["heads"], p["kv_heads"], p["seq"], p["kv_len"],
                          p["head_dim"], p["dtype"]), (4, 32, 8, 1, 4096, 128, "bf16"))

    def test_bnhd_flash_attn_layout(self):
        # flash-attn: q (B=2, N=64, H=8, d=32), k/v (2, L=256, Hkv=2, 32), fp16
        q = T(2, 64, 8, 32, dtype="torch.float16")
        kv = T(2, 256, 2, 32, dtype="torch.float16")
        p = problem.infer_problem(q, kv, kv, causal="bottom-right", layout="bnhd")
        self.assertEqual((p["batch"], p["heads"], p["kv_heads"], p["seq"], p["kv_len"],
                          p["head_dim"], p["dtype"], p["causal"]), (2, 8, 2, 64, 256, 32, "fp16", True))
        # the same tensors read in the wrong layout (bhnd) give H = 64 and Hkv = 256: refused
        with self.assertRaisesRegex(ProblemError, "k.shape: 256 key/value heads do not divide "
                                                  "q's 64 heads"):
            problem.infer_problem(q, kv, kv, causal=False, layout="bhnd")

    def test_numpy_style_dtype_and_overrides(self):
        p = problem.infer_problem(T(1, 1, 8, 16, dtype="float32"), T(1, 1, 8, 16, dtype="float32"),
                                  T(1, 1, 8, 16, dtype="float32"), causal=True, dtype="tf32")
        self.assertEqual((p["dtype"], p["kv_dtype"], p["causal"]), ("tf32", "tf32", True))
        # fp8 K/V with bf16 Q (FA3-style): kv_dtype read from k
        p = problem.infer_problem(T(1, 1, 8, 16, dtype="torch.bfloat16"),
                                  T(1, 1, 8, 16, dtype="torch.float8_e4m3fn"),
                                  T(1, 1, 8, 16, dtype="torch.float8_e4m3fn"), causal=False)
        self.assertEqual((p["dtype"], p["kv_dtype"]), ("bf16", "fp8"))

    def assertProblemError(self, text, *args, **kw):
        with self.assertRaises(ProblemError) as cm:
            problem.infer_problem(*args, **kw)
        self.assertIn(text, str(cm.exception))
        return str(cm.exception)

    def test_errors_name_the_argument(self):
        a = T(1, 2, 128, 64)
        self.assertProblemError("q: expected a tensor (an object with .shape and .dtype), got int",
                                3, a, a, causal=False)
        self.assertProblemError("v: expected a tensor", a, a, [1, 2], causal=False)
        self.assertProblemError("q.shape: expected 4 dimensions (B, H, N, d) in layout \"bhnd\", "
                                "got 3", T(2, 128, 64), a, a, causal=False)
        self.assertProblemError("k.shape: expected 4 dimensions (B, N, H, d) in layout \"bnhd\"",
                                a, T(1, 2, 64), a, causal=False, layout="bnhd")
        self.assertProblemError("v.shape: expected the shape of k (1, 2, 128, 64), got (1, 2, 128, 32)",
                                a, a, T(1, 2, 128, 32), causal=False)
        self.assertProblemError("k.shape: batch 2 differs from q's 1", a, T(2, 2, 128, 64),
                                T(2, 2, 128, 64), causal=False)
        self.assertProblemError("k.shape: head dim 32 differs from q's 64", a, T(1, 2, 128, 32),
                                T(1, 2, 128, 32), causal=False)
        self.assertProblemError("k.shape: 3 key/value heads do not divide q's 8 heads",
                                T(1, 8, 16, 64), T(1, 3, 16, 64), T(1, 3, 16, 64), causal=False)
        self.assertProblemError("q.shape: N = 0; expected a positive size", T(1, 2, 0, 64), a, a,
                                causal=False)
        self.assertProblemError("q.dtype: torch.int8 is not a precision rooflab models; expected "
                                "one of float32, float16, bfloat16", T(1, 2, 128, 64, dtype="torch.int8"),
                                a, a, causal=False)
        self.assertProblemError("v.dtype: torch.float16 differs from k.dtype torch.float32", a, a,
                                T(1, 2, 128, 64, dtype="torch.float16"), causal=False)
        self.assertProblemError("causal: expected True, False or \"bottom-right\", got None",
                                a, a, a, causal=None)
        self.assertProblemError("causal: N = 16 query rows and L = 128 keys differ",
                                T(1, 2, 16, 64), a, a, causal=True)
        self.assertProblemError("causal: N = 256 query rows exceed L = 128 keys",
                                T(1, 2, 256, 64), a, a, causal="bottom-right")
        self.assertProblemError("layout: expected one of bhnd, bnhd, got 'nhd'", a, a, a,
                                causal=False, layout="nhd")
        self.assertProblemError("dtype: expected one of fp32, tf32, fp16, bf16, fp8, got 'fp64'",
                                a, a, a, causal=False, dtype="fp64")


class StatisticsTest(unittest.TestCase):
    def test_even_count(self):
        # runs 4, 1, 3, 2 ms: sorted 1 2 3 4; median (2+3)/2 = 2.5 ms; mean 10/4 = 2.5 ms;
        # sample stddev sqrt((1.5² + 0.5² + 0.5² + 1.5²) / 3) = sqrt(5/3) = 1.2909944 ms
        t = timing.summarize([4e-3, 1e-3, 3e-3, 2e-3])
        self.assertAlmostEqual(t["median_s"], 2.5e-3, delta=1e-15)
        self.assertEqual((t["min_s"], t["max_s"], t["runs"]), (1e-3, 4e-3, 4))
        self.assertAlmostEqual(t["mean_s"], 2.5e-3, delta=1e-15)
        self.assertAlmostEqual(t["stddev_s"], 1.2909944487358056e-3, delta=1e-12)

    def test_odd_count_and_one_run(self):
        # 5, 1, 3 ms: median 3, mean 3, stddev sqrt((4 + 4 + 0) / 2) = 2 ms
        t = timing.summarize([5e-3, 1e-3, 3e-3])
        self.assertAlmostEqual(t["median_s"], 3e-3, delta=1e-15)
        self.assertAlmostEqual(t["stddev_s"], 2e-3, delta=1e-15)
        one = timing.summarize([7e-6])
        self.assertEqual(one, {"median_s": 7e-6, "min_s": 7e-6, "max_s": 7e-6, "mean_s": 7e-6,
                               "runs": 1})  # no stddev from one run

    def test_bad_times(self):
        with self.assertRaisesRegex(timing.TimingError, "run 1 took 0.0 s; expected a positive"):
            timing.summarize([1e-3, 0.0])
        with self.assertRaisesRegex(timing.TimingError, "no runs"):
            timing.summarize([])

    def test_wall_clock_on_a_fake_clock_flush_untimed(self):
        # clock reads (ns): run 0 from 1000 to 3000 (2 µs), run 1 from 10000 to 11000 (1 µs),
        # run 2 from 50000 to 56000 (6 µs); the flush between runs takes the gaps, not timed
        clock = FakeClock([1000, 3000, 10000, 11000, 50000, 56000])
        flushes, calls = [], []
        times = timing.WallClock(clock).run(lambda: calls.append(clock.reads),
                                            3, lambda: flushes.append(clock.reads))
        self.assertEqual(times, [2e-6, 1e-6, 6e-6])
        self.assertEqual(flushes, [0, 2, 4])   # each flush before its run's first clock read
        self.assertEqual(calls, [1, 3, 5])     # each call between its two reads

    def test_cuda_events_fake(self):
        log = []

        class Ev:
            def __init__(self, i):
                self.i = i

            def record(self):
                log.append(("record", self.i))

            def elapsed_time(self, other):  # ms, as torch.cuda.Event
                return {(0, 3): 0.25, (1, 4): 0.5, (2, 5): 0.125}[(self.i, other.i)]

        n = iter(range(100))
        timer = timing.CudaEvents(lambda: Ev(next(n)), lambda: log.append("sync"))
        times = timer.run(lambda: log.append("call"), 3, lambda: log.append("flush"))
        self.assertEqual(times, [0.25e-3, 0.5e-3, 0.125e-3])
        self.assertEqual(log, ["sync",
                               "flush", ("record", 0), "call", ("record", 3),
                               "flush", ("record", 1), "call", ("record", 4),
                               "flush", ("record", 2), "call", ("record", 5), "sync"])

    def test_auto_runs(self):
        # 0.5 s of runs: 1 ms → 500, capped at 100; 20 ms → 25; 1 s → 1, raised to 10
        self.assertEqual(timing.auto_runs(1e-3), 100)
        self.assertEqual(timing.auto_runs(20e-3), 25)
        self.assertEqual(timing.auto_runs(1.0), 10)

    def test_cache_sizes(self):
        self.assertEqual(timing.parse_cache_size("32768K\n"), 32 * 2**20)
        self.assertEqual(timing.parse_cache_size("1M"), 2**20)
        with tempfile.TemporaryDirectory() as d:
            for idx, (level, kind, size) in enumerate([(1, "Data", "32K"), (1, "Instruction", "32K"),
                                                       (2, "Unified", "1024K"), (3, "Unified", "32768K")]):
                os.mkdir(os.path.join(d, f"index{idx}"))
                for f, val in (("level", level), ("type", kind), ("size", size)):
                    with open(os.path.join(d, f"index{idx}", f), "w") as fh:
                        fh.write(f"{val}\n")
            self.assertEqual(timing.cpu_last_level_cache(d), (32 * 2**20, 3))
            fl = timing.CpuFlush(sysfs=d)
            self.assertEqual(fl.nbytes, 64 * 2**20)   # 2 × 32 MiB
            fl()
            fl()
            self.assertEqual(fl._buf[0], 2)           # the second flush wrote byte 2 everywhere
            self.assertEqual(fl._buf[-1], 2)
            self.assertIn("64 MiB buffer written on the CPU", fl.describe())
            self.assertIn("L3, 32 MiB", fl.describe())
        self.assertEqual(timing.cpu_last_level_cache("/nonexistent"), (None, None))


class DeviceTest(unittest.TestCase):
    def test_cpuinfo(self):
        text = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 9654 96-Core Processor\n"
        self.assertEqual(device.cpu_model_from_text(text), "AMD EPYC 9654 96-Core Processor")
        self.assertEqual(device.cpu_model_from_text("processor : 0\n"), None)

    def test_driver(self):
        self.assertEqual(device.nvidia_driver_from_text(
            "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar  5 22:23:56 UTC 2024\n"),
            "550.54.15")
        self.assertEqual(device.nvidia_driver_from_text(
            "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  565.57.01  Release Build\n"),
            "565.57.01")
        self.assertIsNone(device.nvidia_driver_from_text(""))

    def test_presets_from_core(self):
        # core's table (rooflab hw --device): exact driver names only
        self.assertEqual(rooflab_cli.preset_for_device("NVIDIA H200"), "h200-sxm")
        self.assertEqual(rooflab_cli.preset_for_device("NVIDIA H100 80GB HBM3"), "h100-sxm")
        self.assertEqual(rooflab_cli.preset_for_device("NVIDIA A100-SXM4-40GB"), "a100-sxm4-40gb")
        self.assertIsNone(rooflab_cli.preset_for_device("NVIDIA A100"))
        self.assertIsNone(rooflab_cli.preset_for_device("AMD EPYC"))


class ModelAndValidatorTest(unittest.TestCase):
    def test_flops_and_bytes_from_eval(self):
        p = problem.infer_problem(T(1, 2, 128, 64), T(1, 2, 128, 64), T(1, 2, 128, 64), causal=False)
        m = rooflab_cli.model(p)
        # F = 4·B·H·N·L·d = 4·1·2·128·128·64 = 8,388,608
        self.assertEqual(m["flops"], 4 * 1 * 2 * 128 * 128 * 64)
        self.assertEqual(m["flops"], 8388608)
        # naive: Q, K, V read and O written, 4·H·N·d·4 B = 262,144; S and P each written and
        # read, 4·H·N·L·4 B = 524,288; in all 786,432
        self.assertEqual(m["models"]["naive"]["bytes"], 786432)
        self.assertEqual(m["models"]["compulsory"]["bytes"], 262144)

    def test_gqa_flops(self):
        # B=2, H=8, Hkv=2, N=64, L=256, d=32: 4·2·8·64·256·32 = 33,554,432 (Hkv does not count)
        kv = T(2, 256, 2, 32, dtype="torch.float16")
        p = problem.infer_problem(T(2, 64, 8, 32, dtype="torch.float16"), kv, kv, causal=False,
                                  layout="bnhd")
        self.assertEqual(rooflab_cli.model(p)["flops"], 33554432)

    def fake_record(self, **timing_over):
        t = {"median_s": 2e-3, "min_s": 1e-3, "max_s": 4e-3, "mean_s": 2.5e-3,
             "stddev_s": 1e-3, "runs": 4}
        t.update(timing_over)
        p = problem.infer_problem(T(1, 2, 128, 64), T(1, 2, 128, 64), T(1, 2, 128, 64), causal=False)
        return record.make_record(p, t, kernel="k", version="v1", traffic_model="naive",
                                  hardware={"name": "AMD EPYC", "cpu_model": "AMD EPYC"})

    def test_make_record_validates(self):
        rec = self.fake_record()
        self.assertEqual(rec["points"][0]["flops"], 8388608)
        self.assertEqual(rec["points"][0]["modelled_bytes"], 786432)
        report = rooflab_record.validate(rec)
        self.assertTrue(report["ok"])
        self.assertEqual(report["errors"], 0)

    def test_write_refuses_what_the_validator_refuses(self):
        rec = self.fake_record(min_s=3e-3)   # min above the median: the C checker refuses it
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "r.json")
            with self.assertRaises(rooflab_record.RecordInvalid) as cm:
                rooflab_record.write(rec, path)
            self.assertIn("points[0].timing", str(cm.exception))
            self.assertFalse(os.path.exists(path))
            self.assertEqual(os.listdir(d), [])
            good = self.fake_record()
            rooflab_record.write(good, path)
            with open(path) as f:
                self.assertEqual(json.load(f)["points"][0]["timing"]["runs"], 4)

    def test_make_record_errors(self):
        p = problem.infer_problem(T(1, 2, 128, 64), T(1, 2, 128, 64), T(1, 2, 128, 64), causal=False)
        t = {"median_s": 1e-3, "runs": 1}
        hw = {"name": "x"}
        for kw, text in ((dict(kernel="", version="v"), "kernel: expected the kernel's name"),
                         (dict(kernel="k", version=""), "version: expected the kernel's version"),
                         (dict(kernel="k", version="v", traffic_model="other"),
                          "traffic_model: expected one of compulsory, tiled, naive"),
                         (dict(kernel="k", version="v", profile="fa9"), "profile: expected one of"),
                         (dict(kernel="k", version="v", block_m=0), "block_m: expected a positive integer")):
            with self.assertRaises(ProblemError) as cm:
                record.make_record(p, t, hardware=hw, **kw)
            self.assertIn(text, str(cm.exception))

    def test_binary_lookup(self):
        with self.assertRaisesRegex(rooflab_cli.RooflabError, "rooflab=: '/nonexistent/rooflab' is not"):
            rooflab_cli.find_rooflab("/nonexistent/rooflab")
        saved = os.environ.pop("ROOFLAB")
        saved_path = os.environ.get("PATH", "")
        try:
            os.environ["PATH"] = "/nonexistent"
            with self.assertRaisesRegex(rooflab_cli.RooflabError, "no binary found; set ROOFLAB="):
                rooflab_cli.find_rooflab()
            os.environ["PATH"] = os.path.dirname(saved)
            self.assertEqual(rooflab_cli.find_rooflab(), os.path.join(os.path.dirname(saved), "rooflab"))
        finally:
            os.environ["ROOFLAB"] = saved
            os.environ["PATH"] = saved_path


class FakeTorch:
    """The part of torch the CUDA path uses, for a GPU named "NVIDIA H200" with a 50 MiB L2 whose
    events say each run took 0.5 ms, 0.25 ms, 0.75 ms, ... in turn."""

    __version__ = "2.5.0+fake"
    uint8 = "uint8"

    def __init__(self, ms):
        self.ms = list(ms)
        self.log = []
        fake = self

        class Event:
            n = 0

            def __init__(self, enable_timing=False):
                self.k = Event.n
                Event.n += 1

            def record(self):
                fake.log.append("record")

            def elapsed_time(self, other):
                return fake.ms.pop(0)

        class Buf:
            def __init__(self, n):
                self.n = n

            def zero_(self):
                fake.log.append(("zero", self.n))

        self.cuda = types.SimpleNamespace(
            Event=Event,
            synchronize=lambda: fake.log.append("sync"),
            set_device=lambda i: fake.log.append(("set_device", i)),
            current_device=lambda: 0,
            get_device_properties=lambda i: types.SimpleNamespace(
                name="NVIDIA H200", major=9, minor=0, multi_processor_count=132,
                L2_cache_size=50 * 2**20))
        self.version = types.SimpleNamespace(cuda="12.4", hip=None)
        self.empty = lambda n, dtype, device: Buf(n)


class CudaPathTest(unittest.TestCase):
    def test_time_attention_on_a_stand_in_gpu(self):
        # 2 warm-up calls, 4 timed runs of 0.5, 0.25, 0.75, 1.0 ms (CUDA events):
        # median (0.5 + 0.75) / 2 = 0.625 ms, min 0.25, max 1.0, mean 2.5 / 4 = 0.625 ms,
        # stddev sqrt((0.125² + 0.375² + 0.125² + 0.375²) / 3) = sqrt(0.3125 / 3) = 0.3227486 ms
        ft = FakeTorch([0.5, 0.25, 0.75, 1.0])
        cuda = Dev("cuda", 0)
        q = T(1, 16, 1024, 128, dtype="torch.bfloat16", device=cuda)
        kv = T(1, 4, 1024, 128, dtype="torch.bfloat16", device=cuda)
        calls = []
        rec = rooflab_record.time_attention(lambda q, k, v: calls.append(1), q, kv, kv,
                                            causal=True, kernel="fake-flash", version="v9",
                                            warmup=2, runs=4, block_m=128, block_n=64,
                                            profile="fa2", torch_module=ft)
        self.assertEqual(len(calls), 6)
        hw = rec["hardware"]
        self.assertEqual(hw, {"name": "NVIDIA H200", "preset": "h200-sxm", "compute_capability": "9.0",
                              "sm_count": 132, "runtime_version": "CUDA 12.4"})
        pt = rec["points"][0]
        t = pt["timing"]
        self.assertAlmostEqual(t["median_s"], 0.625e-3, delta=1e-15)
        self.assertAlmostEqual(t["min_s"], 0.25e-3, delta=1e-15)
        self.assertAlmostEqual(t["max_s"], 1.0e-3, delta=1e-15)
        self.assertAlmostEqual(t["mean_s"], 0.625e-3, delta=1e-15)
        self.assertAlmostEqual(t["stddev_s"], 0.32274861218395140e-3, delta=1e-12)
        self.assertEqual(t["runs"], 4)
        # causal N = L = 1024: P = N(N+1)/2 = 524,800 pairs; F = 4·B·H·d·P = 4·16·128·524800
        self.assertEqual(pt["flops"], 4 * 16 * 128 * 524800)
        self.assertEqual(pt["flops"], 4299161600)
        self.assertEqual((pt["problem"]["block_m"], pt["problem"]["block_n"], pt["profile"]),
                         (128, 64, "fa2"))
        # a flush of 2 × 50 MiB zeroed before each of the 4 timed runs, before its start event
        self.assertEqual([e for e in ft.log if isinstance(e, tuple) and e[0] == "zero"],
                         [("zero", 100 * 2**20)] * 4)
        i = ft.log.index(("zero", 100 * 2**20))
        self.assertEqual(ft.log[i + 1], "record")
        self.assertIn("CUDA events", rec["provenance"]["notes"])
        self.assertIn("100 MiB device buffer zeroed", rec["provenance"]["notes"])
        self.assertIn("torch 2.5.0+fake", rec["provenance"]["tool"])
        # the predicted time of the fa2 profile on the H200 is in the validator's report
        report = rooflab_record.validate(rec)
        self.assertGreater(report["record"]["points"][0]["derived"]["predicted_time_s"], 0)

    def test_gpu_flush_sizes(self):
        ft = FakeTorch([])
        # 2 × L2: H200's 50 MiB → 100 MiB; a 4 MiB L2 (T4-class) → the 64 MiB floor; an L2 torch
        # does not state → 256 MiB, above any GPU's L2
        self.assertEqual(timing.GpuFlush("cuda", 50 * 2**20, ft).nbytes, 100 * 2**20)
        self.assertEqual(timing.GpuFlush("cuda", 4 * 2**20, ft).nbytes, 64 * 2**20)
        self.assertEqual(timing.GpuFlush("cuda", None, ft).nbytes, 256 * 2**20)
        self.assertIn("L2 unknown", timing.GpuFlush("cuda", None, ft).describe())

    def test_cpu_device_needed(self):
        q = T(1, 2, 8, 16, device=Dev("mps"))
        with self.assertRaisesRegex(ProblemError, "q.device: mps is not supported; expected a cpu or cuda"):
            rooflab_record.time_attention(lambda *a: None, q, q, q, causal=False, kernel="k",
                                          version="v", runs=1, warmup=0)

    def test_argument_errors(self):
        q = T(1, 2, 8, 16)
        for kw, text in ((dict(runs=0), "runs: expected an integer >= 1, got 0"),
                         (dict(warmup=-1), "warmup: expected an integer >= 0, got -1"),
                         (dict(runs=True), "runs: expected an integer >= 1, got True")):
            with self.assertRaises(ProblemError) as cm:
                rooflab_record.time_attention(lambda *a: None, q, q, q, causal=False, kernel="k",
                                              version="v", **kw)
            self.assertIn(text, str(cm.exception))
        with self.assertRaisesRegex(ProblemError, "fn: expected a callable, got str"):
            rooflab_record.time_attention("sdpa", q, q, q, causal=False, kernel="k", version="v")


class SdpaCallTest(unittest.TestCase):
    """The command's SDPA callable (command.sdpa_call), on stand-ins for torch 2.x's modules: the
    arguments it passes and the backend it forces (the real call needs torch >= 2.0 and, for
    flash, a GPU)."""

    def fake_torch(self, with_attention=True, version="2.5.1"):
        calls = []
        F = types.SimpleNamespace(
            scaled_dot_product_attention=lambda q, k, v, **kw: calls.append(kw) or "out")
        nn = types.ModuleType("torch.nn")
        nn.functional = F
        torch = types.ModuleType("torch")
        torch.__version__ = version
        torch.nn = nn
        mods = {"torch": torch, "torch.nn": nn}
        entered = []
        if with_attention:
            att = types.ModuleType("torch.nn.attention")
            att.SDPBackend = types.SimpleNamespace(FLASH_ATTENTION="flash-id", MATH="math-id",
                                                   EFFICIENT_ATTENTION="eff-id")

            class Ctx:
                def __init__(self, b):
                    self.b = b

                def __enter__(self):
                    entered.append(self.b)

                def __exit__(self, *a):
                    entered.append("exit")

            att.sdpa_kernel = Ctx
            nn.attention = att
            mods["torch.nn.attention"] = att
        return torch, mods, calls, entered

    def with_modules(self, mods):
        saved = {k: sys.modules.get(k) for k in mods}
        sys.modules.update(mods)

        def restore():
            for k, v in saved.items():
                if v is None:
                    sys.modules.pop(k, None)
                else:
                    sys.modules[k] = v
        self.addCleanup(restore)

    def test_flash_forced_gqa_causal(self):
        from rooflab_record import command
        torch, mods, calls, entered = self.fake_torch()
        self.with_modules(mods)
        fn, ctx = command.sdpa_call(torch, "flash", True, True)
        with ctx():
            self.assertEqual(fn(1, 2, 3), "out")
            fn(1, 2, 3)
        self.assertEqual(calls, [{"is_causal": True, "enable_gqa": True}] * 2)
        self.assertEqual(entered, ["flash-id", "exit"])   # entered once around both calls

    def test_auto_and_missing(self):
        from rooflab_record import command
        torch, mods, calls, entered = self.fake_torch()
        self.with_modules(mods)
        fn, ctx = command.sdpa_call(torch, "auto", False, False)
        with ctx():
            fn(1, 2, 3)
        self.assertEqual((calls, entered), ([{"is_causal": False}], []))
        with self.assertRaisesRegex(ProblemError, "--sdpa-backend: torch 2.5.1 has no cudnn backend"):
            command.sdpa_call(torch, "cudnn", False, False)
        old = types.ModuleType("torch")
        old.__version__ = "1.13.0"
        old.nn = types.SimpleNamespace(functional=types.SimpleNamespace())
        with self.assertRaisesRegex(ProblemError, "--impl sdpa: torch 1.13.0 has no "
                                                  "scaled_dot_product_attention"):
            command.sdpa_call(old, "auto", False, False)


if __name__ == "__main__":
    unittest.main(verbosity=2)
