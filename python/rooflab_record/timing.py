"""Timing: the runs of a call, the cache flush between them, and their statistics.

Two timers, each taking its clock from outside so that tests can drive it by hand:

* ``WallClock``: ``time.perf_counter_ns`` around each call, for the CPU (where torch's calls
  return when the work is done). The record says the times are wall-clock times.
* ``CudaEvents``: a pair of CUDA events recorded on the current stream around each call (the
  way rooflab bench and native-bench/sdpa_reference.py time kernels), read after one
  synchronisation at the end; the flush is queued before the start event, so it is not timed.

Statistics (``summarize``): median (the mean of the two middle runs when the count is even),
min, max, mean, and the sample standard deviation (n - 1 in the denominator; only with two runs
or more), as a record's ``timing`` object in seconds.
"""
import ctypes
import math
import os
import time


class TimingError(RuntimeError):
    """A run that cannot be timed (a time of 0 or less, no runs)."""


def summarize(times_s):
    """A record's ``timing`` object from run times in seconds.

    >>> summarize([3e-3, 1e-3, 2e-3])["median_s"]
    0.002
    """
    ts = [float(t) for t in times_s]
    if not ts:
        raise TimingError("timing: no runs to summarize; expected at least one")
    for i, t in enumerate(ts):
        if not (t > 0 and math.isfinite(t)):
            raise TimingError(f"timing: run {i} took {t} s; expected a positive finite time "
                              f"(a clock too coarse for the call?)")
    s = sorted(ts)
    n = len(s)
    median = s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])
    mean = math.fsum(s) / n
    out = {"median_s": median, "min_s": s[0], "max_s": s[-1], "mean_s": mean}
    if n >= 2:
        out["stddev_s"] = math.sqrt(math.fsum((t - mean) ** 2 for t in s) / (n - 1))
    # The mean of floating-point sums can land one ulp outside [min, max] for equal runs.
    out["mean_s"] = min(max(out["mean_s"], s[0]), s[-1])
    out["runs"] = n
    return out


class WallClock:
    """Wall-clock timing: ``clock_ns()`` read just before and just after each call."""

    name = "wall clock (time.perf_counter_ns) around each call, not CUDA events"

    def __init__(self, clock_ns=time.perf_counter_ns):
        self.clock_ns = clock_ns

    def run(self, fn, runs, before_each=None):
        """Call ``fn()`` ``runs`` times, ``before_each()`` (untimed) before each; seconds."""
        times = []
        for _ in range(runs):
            if before_each is not None:
                before_each()
            t0 = self.clock_ns()
            fn()
            t1 = self.clock_ns()
            times.append((t1 - t0) / 1e9)  # ns → s, correctly rounded
        return times


class CudaEvents:
    """CUDA-event timing: ``start.record(); fn(); stop.record()`` per run, read after one
    ``synchronize()``; ``elapsed_time`` is in milliseconds (torch.cuda.Event).

    ``event_factory`` and ``synchronize`` default to torch's; tests pass fakes.
    """

    name = "CUDA events around each call (torch.cuda.Event, current stream)"

    def __init__(self, event_factory=None, synchronize=None):
        if event_factory is None or synchronize is None:
            import torch
            event_factory = event_factory or (lambda: torch.cuda.Event(enable_timing=True))
            synchronize = synchronize or torch.cuda.synchronize
        self.event_factory = event_factory
        self.synchronize = synchronize

    def run(self, fn, runs, before_each=None):
        starts = [self.event_factory() for _ in range(runs)]
        stops = [self.event_factory() for _ in range(runs)]
        self.synchronize()
        for r in range(runs):
            if before_each is not None:
                before_each()
            starts[r].record()
            fn()
            stops[r].record()
        self.synchronize()
        return [starts[r].elapsed_time(stops[r]) / 1e3 for r in range(runs)]  # ms → s


def auto_runs(estimate_s, target_s=0.5, lo=10, hi=100):
    """How many timed runs fill about ``target_s`` seconds, within [lo, hi]."""
    if not estimate_s > 0:
        return hi
    return max(lo, min(hi, int(math.ceil(target_s / estimate_s))))


# ------------------------------------------------------------------------------------------------
# Cache flush between runs
# ------------------------------------------------------------------------------------------------

def cpu_last_level_cache(sysfs="/sys/devices/system/cpu/cpu0/cache"):
    """(bytes, level) of the CPU's last-level data or unified cache, from sysfs; (None, None)
    when sysfs does not say."""
    best = (None, None)
    try:
        entries = sorted(os.listdir(sysfs))
    except OSError:
        return best
    for e in entries:
        if not e.startswith("index"):
            continue
        try:
            with open(os.path.join(sysfs, e, "level")) as f:
                level = int(f.read())
            with open(os.path.join(sysfs, e, "type")) as f:
                kind = f.read().strip()
            with open(os.path.join(sysfs, e, "size")) as f:
                size = parse_cache_size(f.read())
        except (OSError, ValueError):
            continue
        if kind == "Instruction":
            continue
        if best[1] is None or level > best[1] or (level == best[1] and size > best[0]):
            best = (size, level)
    return best


def parse_cache_size(text):
    """sysfs cache sizes: ``"32768K"`` -> 33554432; ``"1M"``; plain bytes."""
    t = text.strip()
    mult = {"K": 1024, "M": 1024 ** 2, "G": 1024 ** 3}.get(t[-1:].upper(), 1)
    digits = t[:-1] if mult != 1 else t
    return int(digits) * mult


class CpuFlush:
    """Writes a buffer of ``nbytes`` (twice the last-level cache, at least 64 MiB) before each
    run, so that no run finds the previous run's data in the caches. Standard library only
    (ctypes.memset on a bytearray); the byte written changes each time."""

    def __init__(self, nbytes=None, sysfs="/sys/devices/system/cpu/cpu0/cache"):
        llc, level = cpu_last_level_cache(sysfs)
        self.llc_bytes, self.llc_level = llc, level
        self.nbytes = nbytes or max(2 * (llc or 0), 64 << 20)
        self._buf = bytearray(self.nbytes)
        self._addr = ctypes.addressof((ctypes.c_char * self.nbytes).from_buffer(self._buf))
        self._k = 0

    def __call__(self):
        self._k = (self._k + 1) & 0xFF
        ctypes.memset(self._addr, self._k, self.nbytes)

    def describe(self):
        if self.llc_bytes:
            src = (f"the last-level cache (L{self.llc_level}, {self.llc_bytes / 2**20:g} MiB per "
                   f"sysfs cpu0)")
        else:
            src = "a last-level cache sysfs does not state"
        return (f"cache flush: a {self.nbytes / 2**20:g} MiB buffer written on the CPU before each "
                f"timed run (larger than {src})")


class GpuFlush:
    """Zeroes a device buffer of twice the GPU's L2 (at least 64 MiB; 256 MiB when torch does not
    state the L2, more than any GPU's L2 today: RTX 4090 72 MiB, H100/H200 50 MiB) on the current
    stream before each run, so that no run finds the previous run's data in L2."""

    def __init__(self, device, l2_bytes, torch_module=None):
        if torch_module is None:
            import torch as torch_module
        self.l2_bytes = l2_bytes
        self.nbytes = max(2 * l2_bytes, 64 << 20) if l2_bytes else 256 << 20
        self._buf = torch_module.empty(self.nbytes, dtype=torch_module.uint8, device=device)

    def __call__(self):
        self._buf.zero_()

    def describe(self):
        l2 = f"{self.l2_bytes / 2**20:g} MiB" if self.l2_bytes else "unknown"
        return (f"cache flush: a {self.nbytes / 2**20:g} MiB device buffer zeroed before each "
                f"timed run (L2 {l2}; the flush is queued before the start event)")
