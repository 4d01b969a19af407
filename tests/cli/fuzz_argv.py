#!/usr/bin/env python3
"""Random-argv fuzz of the rooflab command line: fails on any signal exit (a crash) or on a usage
error (exit 2) that is not exactly one line on stderr.

usage: fuzz_argv.py ROOFLAB [RUNS] [SEED]
"""
import random
import subprocess
import sys

rooflab = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
random.seed(int(sys.argv[3]) if len(sys.argv) > 3 else 1234)

cmds = ["eval", "hw", "sweep", "units", "", "--help", "bogus", "validate", "import", "bench"]
flags = ["--batch", "--heads", "--kv-heads", "--seq", "--kv-len", "--head-dim", "--dtype", "--kv-dtype",
         "--causal", "--pass", "--block-m", "--block-n", "--hw", "--bandwidth", "--peak", "--json",
         "--param", "--from", "--to", "--points", "--linear", "--format", "--as", "--", "-", "--=",
         "--seq=", "--bandwidth=", "--help"]
vals = ["0", "-1", "1", "64", "4096", "16777216", "16777217", "9223372036854775807",
        "-9223372036854775808", "1e3", "3.35 TB/s", "312 TFLOPS", "NaN", "inf", "", " ", "fp16", "fp8",
        "bwd", "h100-sxm", "custom", "seq", "json", "%s%s%n", "\u00b5s", "1" * 70, "\x7f", "0x10", "GB/s",
        "1 GiB/s", "1e-320 B/s", "1e308 EB/s", "-0", "+5", "07", "1 1"]
problems = 0
for i in range(runs):
    argv = [random.choice(cmds)] + [random.choice(flags + vals) for _ in range(random.randint(0, 8))]
    if random.random() < 0.5:
        argv = [a for a in argv if a != ""]
    # bench and validate/import may legitimately run longer or touch files: keep them cheap.
    if argv and argv[0] == "bench":
        argv.append("--help")
    p = subprocess.run([rooflab] + argv, capture_output=True, timeout=20)
    err = p.stderr.decode(errors="replace").strip().splitlines()
    if p.returncode < 0 or p.returncode >= 128:
        problems += 1
        print("crash:", argv, p.returncode, file=sys.stderr)
    elif p.returncode == 2 and len(err) != 1:
        problems += 1
        print("usage error not one line:", argv, err, file=sys.stderr)
print(f"argv fuzz: {runs} runs, seed {sys.argv[3] if len(sys.argv) > 3 else 1234}, {problems} problems")
sys.exit(1 if problems else 0)
