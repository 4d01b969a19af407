#!/usr/bin/env python3
"""test_flags.py — every subcommand x every flag (issue 21, item 9): a flag is either used or
refused by each subcommand, and `--help` lists exactly what is used.

For each subcommand S and each flag F that any subcommand's --help lists (option lines):
  - F listed by `rooflab S --help`  -> accepted (no "unknown" or "not used" refusal);
  - F not listed                    -> exit 2 and an error naming --F.
For the commands whose output a shared flag should change (eval, sweep, tune, import), every
listed shared flag given a value other than its default changes the output: a flag accepted
and ignored fails here.
Needs ROOFLAB (the binary) and ROOT (the repository)."""
import os
import re
import subprocess
import sys
import tempfile

R = os.environ["ROOFLAB"]
ROOT = os.environ.get("ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))
EX = os.path.join(ROOT, "data", "examples")
NCU = os.path.join(EX, "ncu-raw-flash-fwd-h100.csv")
REC = os.path.join(EX, "cpu-bench-quick.json")
PUB = os.path.join(ROOT, "data", "published", "fa3-paper-h100.json")
TMP = tempfile.mkdtemp()

passed = failed = 0


def ok(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + what, file=sys.stderr)


def run(args):
    p = subprocess.run([R] + args, capture_output=True, timeout=120)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def help_flags(sub):
    rc, out, _ = run([sub, "--help"])
    assert rc == 0, sub
    usage = out.split("\n\n")[0]  # "usage: rooflab hw [ID] [--json]"
    return set(re.findall(r"^\s+(--[a-z0-9-]+)", out, re.M)) | set(re.findall(r"(--[a-z0-9-]+)", usage))


# A base command line per subcommand that succeeds, and how to append a flag to it.
NCU_PROBLEM = ["--batch", "4", "--heads", "16", "--seq", "4096", "--head-dim", "128"]
BASE = {
    "eval": ["eval", "--json"],
    "sweep": ["sweep", "--param", "batch", "--from", "1", "--to", "4", "--points", "2", "--format", "json"],
    "tune": ["tune", "--top", "2", "--json"],
    "import": ["import", "ncu-csv", NCU] + NCU_PROBLEM,
    "units": ["units", "2039 GB/s"],
    "validate": ["validate", REC],
    "check-model": ["check-model", PUB],
    "models": ["models"],
    "hw": ["hw"],
    "quiz": ["quiz", "--seed", "7"],
    "bench": ["bench", "--backend", "cpu", "--list-grid"],
    "layer": ["layer", "--model", "llama-3.1-8b"],
}
# A valid value for each flag that takes one (switches: None).
VALUE = {
    "--batch": "2", "--heads": "16", "--kv-heads": "2", "--seq": "1024", "--kv-len": "8192",
    "--head-dim": "128", "--dtype": "fp32", "--kv-dtype": "fp32", "--out-dtype": "fp32",
    "--score-dtype": "fp32", "--causal": None, "--pass": "bwd", "--block-m": "128",
    "--block-n": "128", "--model": "llama-3.1-8b", "--hw": "a100-sxm4-80gb", "--bandwidth": "1 TB/s",
    "--peak": "100 TFLOP/s", "--kernel": "fa3", "--gqa-pack": "per-head", "--splits": "4",
    "--ctas-per-sm": "1", "--json": None, "--param": "seq", "--from": "256", "--to": "1024",
    "--points": "3", "--linear": None, "--format": "csv", "--as": "bandwidth", "--strict": None,
    "--quiet": None, "--out": os.path.join(TMP, "out.json"), "--hw-name": "H100 test",
    "--kernel-version": "9.9", "--date": "2024-01-02", "--traffic-model": "naive",
    "--args": "batch,seq,heads,head_dim", "--top": "3", "--backend": "cpu", "--quick": None,
    "--runs": "3", "--warmup": "1", "--no-flush": None, "--threads": "1", "--seed": "3",
    "--check-rows": "8", "--series": os.path.join(TMP, "series.json"), "--only": "cpu-tiled",
    "--list-grid": None, "--targets": None, "--except": "fa3/h100-sxm/prefill",
    "--kind": "flops", "--answer": "1 GFLOP", "--solution": None,
    # issue 18's variants (each alone may be refused as inconsistent — never as unknown):
    "--head-dim-v": "96", "--kv-lora-rank": "512", "--rope-dim": "64", "--window": "128",
    "--sinks": "4", "--page-size": "16", "--kv-lens": "512,4096x3", "--topk": "2048",
}
# eval's default problem is MHA prefill: a GQA decode base lets --gqa-pack and --splits matter
# (the generic profile: it runs every dtype and takes --ctas-per-sm; it packs GQA by default).
USED_BASE = {
    "eval": ["eval", "--json", "--heads", "32", "--kv-heads", "8", "--seq", "1", "--kv-len", "65536",
             "--kernel", "generic"],
    "sweep": BASE["sweep"],
    "tune": BASE["tune"],
    "import": BASE["import"],
}
# A second value where the first is the base's own (the output must change).
USED_VALUE = {"eval": {"--heads": "64", "--kv-heads": "4", "--seq": "2", "--kv-len": "4096",
                       "--kernel": "fa3", "--splits": "2", "--gqa-pack": "per-head"},
              "import": {"--batch": "2", "--heads": "8", "--seq": "2048", "--head-dim": "64"}}

subs = sorted(BASE)
listed = {s: help_flags(s) for s in subs}
every = set().union(*listed.values()) - {"--help"}
ok(len(every) > 40, "the union of the help texts' flags is %d flags" % len(every))
SHARED = ["--batch", "--heads", "--kv-heads", "--seq", "--kv-len", "--head-dim", "--dtype",
          "--kv-dtype", "--out-dtype", "--score-dtype", "--causal", "--pass", "--block-m",
          "--block-n", "--model", "--hw", "--bandwidth", "--peak", "--kernel", "--gqa-pack",
          "--splits", "--ctas-per-sm"]
VARIANTS = ["--head-dim-v", "--kv-lora-rank", "--rope-dim", "--window", "--sinks", "--page-size",
            "--kv-lens", "--topk"]
for f in SHARED + VARIANTS:
    ok(f in every, "%s is in no help text" % f)


def with_flag(sub, flag, value=None):
    base = list(BASE[sub])
    if sub == "sweep" and flag == "--batch":  # the swept parameter's own flag is refused
        base[2] = "seq"
    if sub == "sweep" and flag in ("--param", "--from", "--to", "--points", "--format"):
        # replace the base's own value
        i = base.index(flag)
        return base[: i + 1] + [VALUE[flag]] + base[i + 2:]
    v = VALUE.get(flag, "1") if value is None else value
    return base + ([flag] if v is None else [flag, v])


with open(os.path.join(TMP, "series.json"), "w") as fh:
    fh.write("[]")

for sub in subs:
    for flag in sorted(every):
        if flag in ("--out",) and sub == "bench":
            continue  # bench --out with --list-grid: covered by test_hostile_cli.sh
        rc, out, err = run(with_flag(sub, flag))
        name = flag[2:]
        if flag in listed[sub]:
            refused = re.search(r"unknown (flag|argument)|not used by", err)
            ok(not refused, "%s %s: listed by --help but refused: %s" % (sub, flag, err.strip()[:200]))
        else:
            ok(rc == 2 and ("--" + name in err or '"' + flag in err),
               "%s %s: not in --help but accepted (rc %d, %s)" % (sub, flag, rc, err.strip()[:200]))

# used: a listed shared flag changes the output
for sub, base in USED_BASE.items():
    rc, ref, err = run(base)
    ok(rc == 0, "%s base: rc %d %s" % (sub, rc, err[:200]))
    for flag in SHARED:
        if flag not in listed[sub]:
            continue
        args = list(base)
        v = USED_VALUE.get(sub, {}).get(flag, VALUE[flag])
        if flag in args:
            args[args.index(flag) + 1] = v
        else:
            args += [flag] if v is None else [flag, v]
        if sub == "sweep" and flag == "--batch":
            args[2] = "seq"
            ref2 = run(base[:2] + ["seq"] + base[3:])[1]
        elif sub == "sweep" and flag == "--block-n":
            # Bc changes the tiled bytes only where the causal diagonal cuts tiles
            args.append("--causal")
            ref2 = run(base + ["--causal"])[1]
        else:
            ref2 = ref
        rc, out, err = run(args)
        ok(rc == 0 and out != ref2,
           "%s %s %s: accepted but the output is unchanged (rc %d %s)" % (sub, flag, v, rc, err.strip()[:200]))

# used: each variant flag changes eval's output (with the flags it needs)
EV = ["eval", "--json", "--heads", "32", "--seq", "1", "--kv-len", "65536", "--causal"]
for before, added in ((EV, ["--head-dim-v", "96"]), (EV, ["--window", "128"]),
                      (EV + ["--window", "128"], ["--sinks", "4"]),
                      (EV + ["--kv-lora-rank", "512", "--rope-dim", "64"], ["--kv-lora-rank", "256"]),
                      (EV + ["--kv-lora-rank", "512", "--rope-dim", "64"], ["--rope-dim", "32"]),
                      # page 1 at d 72 fp16: 144 B rows are not whole 32 B sectors
                      (EV + ["--head-dim", "72"], ["--page-size", "1"]),
                      (EV[:6] + ["--causal"], ["--kv-lens", "512,65536x3"]),
                      (EV, ["--topk", "2048"])):
    rc0, ref, _ = run(before)
    rc, out, err = run(before + added)
    ok(rc0 == 0 and rc == 0 and out != ref,
       "eval %s: accepted but the output is unchanged (rc %d %s)" % (" ".join(added), rc, err.strip()[:200]))

print("test_flags: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
