#!/usr/bin/env python3
"""fit-constants.py — solve each fitted constant of core/src/profiles.c on its ONE fit-set point
(data/published, "set": "fit"; the point each constant names in MODEL.md "Kernel profiles and the
predicted time"), in order, by bisection: the model is compiled with the constants as -D flags
(scripts/fit-point.c). Prints the values to paste into profiles.c. Python 3 standard library and
a C compiler; reads nothing outside the repository.

usage: python3 scripts/fit-constants.py
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = ['status.c', 'utf8.c', 'units.c', 'dtype.c', 'hardware.c', 'problem.c', 'problem_fields.c',
       'workload.c', 'roofline.c', 'report.c', 'sweep.c', 'profiles.c', 'predict.c', 'intervals.c',
       'kernel_fields.c']

# constant, its point (preset kernel B H Hkv N L d dtype causal pass), measured seconds,
# bracket, whether the time grows with the constant
FITS = [
    ('RL_FIT_KERNEL_FIXED_S', 'h200-sxm generic 1 32 4 1 1024 128 fp16 0 fwd', 6.9e-6,
     (0.0, 6.9e-6), True),  # TileOps PR #2084, the smallest published decode
    ('RL_FIT_CTA_SM_SHARE', 'a100-sxm4-80gb fa2 1 16 2 1 65536 128 fp16 0 fwd', 2.301e-3,
     (0.3, 1.0), False),  # FA2 v2.0.9, per head, one split: Flash-Decoding blog
    ('RL_FIT_OVERLAP_P', 'h100-sxm fa3 32 16 16 512 512 128 fp16 0 fwd',
     4 * 32 * 16 * 512 * 512 * 128 / 467e12, (1.0, 8.0), False),  # FA3 paper Fig. 5(c)
    ('RL_FIT_MMA_SYNC_SM90', 'h100-sxm fa2 1 16 16 16384 16384 128 fp16 0 fwd',
     4 * 16 * 16384 * 16384 * 128 / 370e12, (0.2, 1.0), False),
    ('RL_FIT_BWD_MMA_FA3', 'h100-sxm fa3 1 16 16 16384 16384 128 fp16 0 bwd',
     2.5 * 4 * 16 * 16384 * 16384 * 128 / 561e12, (0.2, 1.0), False),  # Fig. 6(b)
    ('RL_FIT_BWD_MMA_FA2', 'h100-sxm fa2 1 16 16 16384 16384 128 fp16 0 bwd',
     2.5 * 4 * 16 * 16384 * 16384 * 128 / 322e12, (0.1, 1.0), False),
    ('RL_FIT_BWD_CTA_S', 'h100-sxm fa3 32 16 16 512 512 128 fp16 0 bwd', 543.667e-6,
     (0.0, 50e-6), True),  # FA3 paper Fig. 6(b), N = 512
    ('RL_FIT_FA2_ONE_CTA', 'h100-sxm fa2 1 8 8 16384 16384 256 fp16 0 fwd', 6.74547e-3,
     (0.3, 1.0), False),  # FA3 paper Fig. 5(e), FA2 d = 256, N = 16k
    ('RL_FIT_SPLITKV_DRAM', 'a100-sxm4-80gb flash-decoding 256 16 2 1 256 128 fp16 0 fwd', 63.4e-6,
     (0.2, 1.0), False),  # Flash-Decoding blog
    ('RL_FIT_DECODE_DRAM', 'h200-sxm generic 8 32 8 1 32768 128 fp16 0 fwd', 256.55e-6,
     (0.3, 1.0), False),  # TileOps dense GQA decode, docs/perf/gqa-dense-h200.md
    ('RL_FIT_BWD_MMA_SM100', 'gb200 cudnn 1 40 40 17160 17160 128 bf16 0 bwd', 10.638e-3,
     (0.2, 1.0), False),  # cuDNN frontend sdpa_benchmark_training, wan22 on GB200
    ('RL_FIT_CHAIN_SM100', 'gb200 cudnn 2 64 64 16384 16384 192/128 bf16 0 fwd', 12.457e-3,
     (0.0, 3000.0), True),  # cuDNN frontend sdpa_benchmark_training, kimiK26 forward on GB200
    ('RL_FIT_CUDNN_SM100_MMA', 'gb300 cudnn 2 128 128 16384 16384 192/128 bf16 0 fwd', 21.640e-3,
     (0.3, 1.0), False),  # cudnn-frontend sdpa_benchmark_training, dsv3 (d 192 / d_v 128) on GB300
    ('RL_FIT_EAGER_DRAM', 'h100-sxm standard 4 16 16 4096 4096 128 fp16 0 fwd',
     4 * 4 * 16 * 4096 * 4096 * 128 / 133e12, (0.2, 1.0), False),  # Fig. 5(c)
    ('RL_FIT_TILE_FILL_SHARE', 'gb200 cudnn 2 128 128 4096 4096 64 bf16 1 fwd 128', 0.210e-3,
     (0.05, 4.0), False),  # cudnn-frontend gpt_oss GB200 CSV, W = 128
]


def build(tmp):
    """The model with every RL_FIT_* read from the environment (fit-point.c's rl__fit)."""
    exe = os.path.join(tmp, 'fit-point')
    hdr = os.path.join(tmp, 'fit.h')
    with open(hdr, 'w') as f:
        f.write('double rl__fit(const char *name);\n')
    flags = ['-D%s=rl__fit("%s")' % (f[0], f[0]) for f in FITS]
    cmd = (['cc', '-O1', '-std=c11', '-o', exe, '-include', hdr,
            '-I', os.path.join(ROOT, 'core/include'), '-I', os.path.join(ROOT, 'core/src'),
            os.path.join(ROOT, 'scripts/fit-point.c')]
           + [os.path.join(ROOT, 'core/src', s) for s in SRC] + flags + ['-lm'])
    subprocess.run(cmd, check=True)
    return exe


def predict(exe, consts, point):
    env = dict(os.environ, **{k: repr(v) for k, v in consts.items()})
    out = subprocess.run([exe] + point.split(), check=True, capture_output=True, text=True,
                         env=env)
    return float(out.stdout)


def main():
    with open(os.path.join(ROOT, 'core/src/profiles.c')) as f:
        consts = {m.group(1): float(m.group(2))
                  for m in re.finditer(r'^#define (RL_FIT_\w+) (\S+)$', f.read(), re.M)}
    with tempfile.TemporaryDirectory() as tmp:
        exe = build(tmp)
        for _ in range(2):  # the fixed cost and p depend on each other a little: twice
            for name, point, target, (lo, hi), grows in FITS:
                for _ in range(40):
                    mid = (lo + hi) / 2
                    consts[name] = mid
                    t = predict(exe, consts, point)
                    if (t > target) == grows:
                        hi = mid
                    else:
                        lo = mid
                consts[name] = (lo + hi) / 2
                print('%-24s %.6g  (%s: %.4g s)' % (name, consts[name], point, target),
                      file=sys.stderr)
    for k, v in consts.items():
        print('#define %s %.5g' % (k, v))


if __name__ == '__main__':
    main()
