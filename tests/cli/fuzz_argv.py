#!/usr/bin/env python3
"""Random-argv fuzz of the rooflab command line: fails on any signal exit (a crash), on a usage
error (exit 2) that is not exactly one line on stderr, or on stderr carrying a character a reader
cannot see raw (Unicode categories Cc, Cf, Zl, Zp, or a space other than U+0020; issue 21).

usage: fuzz_argv.py ROOFLAB [RUNS] [SEED]
"""
import random
import subprocess
import sys
import unicodedata

rooflab = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
random.seed(int(sys.argv[3]) if len(sys.argv) > 3 else 1234)

cmds = ["eval", "hw", "sweep", "units", "", "--help", "bogus", "validate", "import", "bench", "tune",
        "quiz", "models", "check-model"]
flags = ["--batch", "--heads", "--kv-heads", "--seq", "--kv-len", "--head-dim", "--dtype", "--kv-dtype",
         "--causal", "--pass", "--block-m", "--block-n", "--hw", "--bandwidth", "--peak", "--json",
         "--param", "--from", "--to", "--points", "--linear", "--format", "--as", "--", "-", "--=",
         "--seq=", "--bandwidth=", "--help", "--kernel", "--splits", "--ctas-per-sm", "--gqa-pack",
         "--model", "--top", "--answer", "--seed", "--kind", "--score-dtype", "--out-dtype"]
vals = ["0", "-1", "1", "64", "4096", "16777216", "16777217", "9223372036854775807",
        "-9223372036854775808", "1e3", "3.35 TB/s", "312 TFLOPS", "NaN", "inf", "", " ", "fp16", "fp8",
        "bwd", "h100-sxm", "custom", "seq", "json", "%s%s%n", "\u00b5s", "1" * 70, "\x7f", "0x10", "GB/s",
        "1 GiB/s", "1e-320 B/s", "1e308 EB/s", "-0", "+5", "07", "1 1", "fa3", "memory",
        "2039\u00a0GB/s", "x\u202ey", "\u200e1\u200f", "\u061c", "\u200b64", "1\u202f000", "\u2009",
        "\u2067a\u2069", "\x1b]0;t\x07", "\x1b[31m", "\u009b", "\ufeff", "a\nb", "a\rb", "1e-999 B/s",
        "1.0000001e30 B/s"]
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
    else:
        raw = [c for line in err for c in line
               if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")
               or (unicodedata.category(c) == "Zs" and c != " ")]
        if raw:
            problems += 1
            print("raw invisible character on stderr:", argv, ["U+%04X" % ord(c) for c in raw],
                  file=sys.stderr)
print(f"argv fuzz: {runs} runs, seed {sys.argv[3] if len(sys.argv) > 3 else 1234}, {problems} problems")
sys.exit(1 if problems else 0)
