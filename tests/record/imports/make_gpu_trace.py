#!/usr/bin/env python3
"""Writes torch-gpu-flash-h100.json: a PyTorch profiler trace written by hand from Kineto's format
(libkineto/src/output_json.cpp ChromeTraceLogger: "deviceProperties" from DeviceProperties.cpp,
kernel events {"ph": "X", "cat": "kernel", "dur" in µs, "args": {"device", "stream",
"registers per thread", "shared memory", "grid", "block", ...}}). Two ranks (devices 0 and 1, both
NVIDIA H100 80GB HBM3, 132 SMs, compute capability 9.0) run the same FlashAttention-2 forward kernel
(5 launches: 1000.000, 1002.500, 998.250 µs on device 0; 1001.000, 999.000 µs on device 1) and
device 0 its backward kernel twice (2500.000, 2600.000 µs); a cuBLAS GEMM, a fill kernel, a copy,
CPU ops and runtime calls are there to be passed over. No GPU produced it: the numbers are chosen
so that the tests can compute the expected timing by hand. The .gz beside it is
`gzip -9 -n -k torch-gpu-flash-h100.json`."""
import json

FA_FWD = ("void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::half_t, "
          "Flash_kernel_traits<128, 128, 64, 4, cutlass::half_t> >, false, false, false, false, true, true, "
          "false, false>(Flash_fwd_params)")
FA_BWD = ("void flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<Flash_bwd_kernel_traits<128, 64, 128, 8, 2, 4, "
          "false, false, cutlass::half_t, Flash_kernel_traits<128, 64, 128, 8, cutlass::half_t> >, true, false, "
          "false, false, false, false>(Flash_bwd_params)")
GEMM = "sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"
ELEM = ("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<c10::Half>, "
        "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<c10::Half>, at::detail::Array<char*, 1>)")


def device(i):
    return {"id": i, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85029158912,
            "computeMajor": 9, "computeMinor": 0, "maxThreadsPerBlock": 1024,
            "maxThreadsPerMultiprocessor": 2048, "regsPerBlock": 65536, "warpSize": 32,
            "sharedMemPerBlock": 49152, "numSms": 132, "regsPerMultiprocessor": 65536,
            "sharedMemPerBlockOptin": 232448, "sharedMemPerMultiprocessor": 233472}


def main():
    events, ts = [], [1000.0]

    def cpu(name, dur):
        events.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": 4242, "tid": 4242,
                       "ts": ts[0], "dur": dur, "args": {"External id": len(events) + 1}})
        ts[0] += dur + 5

    def kern(name, d, dur, grid, block, regs, smem):
        events.append({"ph": "X", "cat": "kernel", "name": name, "pid": d, "tid": 7, "ts": ts[0], "dur": dur,
                       "args": {"External id": len(events) + 1, "queued": 0, "device": d, "context": 1,
                                "stream": 7, "correlation": 100 + len(events), "registers per thread": regs,
                                "shared memory": smem, "blocks per SM": 15.515152, "warps per SM": 62.060608,
                                "grid": grid, "block": block, "est. achieved occupancy %": 13}})
        ts[0] += dur + 3

    fwd = dict(grid=[32, 4, 16], block=[128, 1, 1], regs=255, smem=49152)
    bwd = dict(grid=[64, 4, 16], block=[256, 1, 1], regs=255, smem=98304)
    for d, dur in [(0, 1000.000), (0, 1002.500), (0, 998.250), (1, 1001.000), (1, 999.000)]:
        cpu("aten::_flash_attention_forward", 12.5)
        events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 4242,
                       "tid": 4242, "ts": ts[0], "dur": 4.2, "args": {"correlation": 100 + len(events)}})
        kern(FA_FWD, d, dur, **fwd)
    for dur in [2500.000, 2600.000]:
        kern(FA_BWD, 0, dur, **bwd)
    kern(GEMM, 0, 850.125, [132, 1, 1], [384, 1, 1], 168, 213248)
    kern(ELEM, 1, 2.048, [1024, 1, 1], [128, 1, 1], 16, 0)
    events.append({"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0,
                   "tid": 7, "ts": ts[0], "dur": 35.2,
                   "args": {"device": 0, "stream": 7, "bytes": 67108864, "memory bandwidth (GB/s)": 1906.5}})
    events.append({"name": "process_name", "ph": "M", "ts": 0, "pid": 0, "tid": 0, "args": {"name": "python"}})
    doc = {"schemaVersion": 1, "deviceProperties": [device(0), device(1)], "record_shapes": 1,
           "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 2},
           "traceEvents": events, "traceName": "rank0.pt.trace.json",
           "displayTimeUnit": "ms", "baseTimeNanoseconds": 1764547200000000000}
    with open("torch-gpu-flash-h100.json", "w") as f:
        f.write(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
