"""The device a call ran on, as a record's ``hardware`` object.

* GPU (a torch ``cuda`` device; ROCm builds report ``cuda`` too): the name torch gives
  (``torch.cuda.get_device_name``), the rooflab preset core matches to that name
  (``rooflab hw --device``: only names that say exactly which part it is), compute capability, SM
  count, the CUDA/HIP runtime torch was built with and the driver from /proc/driver/nvidia/version.
* CPU: the model name in /proc/cpuinfo and the threads torch uses.

Everything is read through small functions taking their inputs, so tests give them text and
fake property objects.
"""
import platform
import re


def cpu_model(cpuinfo_path="/proc/cpuinfo"):
    """The CPU's model name (/proc/cpuinfo's ``model name``, else ``Model``/``Hardware``, else
    platform.processor()), or ``"unknown CPU"``."""
    try:
        with open(cpuinfo_path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        text = ""
    return cpu_model_from_text(text) or platform.processor() or "unknown CPU"


def cpu_model_from_text(text):
    for key in ("model name", "Model", "Hardware", "cpu model"):
        m = re.search(rf"^{re.escape(key)}\s*:\s*(.+?)\s*$", text, re.M)
        if m and m.group(1):
            return m.group(1)
    return None


def nvidia_driver_version(path="/proc/driver/nvidia/version"):
    """The NVIDIA kernel driver's version (``550.54.15``), or None."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return nvidia_driver_from_text(f.read())
    except OSError:
        return None


def nvidia_driver_from_text(text):
    m = re.search(r"Kernel Module(?: for \S+)?\s+([0-9]+(?:\.[0-9]+)+)", text)
    return m.group(1) if m else None


def cpu_hardware(threads=None, cpuinfo_path="/proc/cpuinfo"):
    """A record's ``hardware`` for a CPU run."""
    name = cpu_model(cpuinfo_path)
    hw = {"name": name, "cpu_model": name}
    if threads:
        hw["threads"] = int(threads)
    return hw


def gpu_hardware(props, preset=None, runtime=None, driver=None):
    """A record's ``hardware`` for a GPU run from torch.cuda.get_device_properties(...)
    (``name``, ``major``, ``minor``, ``multi_processor_count``), the preset id (or None), the
    runtime (``"CUDA 12.4"``) and the driver version."""
    hw = {"name": props.name}
    if preset:
        hw["preset"] = preset
    major, minor = getattr(props, "major", None), getattr(props, "minor", None)
    if major is not None and minor is not None and major > 0:
        hw["compute_capability"] = f"{major}.{minor}"
    sms = getattr(props, "multi_processor_count", None)
    if sms:
        hw["sm_count"] = int(sms)
    if runtime:
        hw["runtime_version"] = runtime
    if driver:
        hw["driver_version"] = driver
    return hw


def torch_runtime(torch):
    """``"CUDA 12.4"`` or ``"HIP 6.2..."``: the runtime torch was built with, or None."""
    hip = getattr(torch.version, "hip", None)
    if hip:
        return f"HIP {hip}"
    cuda = getattr(torch.version, "cuda", None)
    return f"CUDA {cuda}" if cuda else None
