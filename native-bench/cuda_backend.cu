/* cuda_backend.cu — the CUDA backend of `rooflab bench`, built into librooflab_cuda.so (loaded with
 * dlopen by cuda_loader.c). Ceilings (device-to-device copy, cuBLAS GEMM per dtype) and the
 * kernels of kernels/cuda, timed with CUDA events around each run (L2 flushed and the output
 * poisoned with NaN before each, outside the events), checked against the fp64 reference on the
 * host. Exports one C function, rlb_cuda_run (bench.h). */
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include "attn_cuda.cuh"
#include "bench.h"
#include "shape.h"

#ifndef ROOFLAB_CUDA_FLAGS
#define ROOFLAB_CUDA_FLAGS "unknown"
#endif

#define MIB ((size_t)1 << 20)

namespace {

struct ctx {
    const rlb_options *opt;
    char *why;
    size_t cap;
    cudaStream_t st = nullptr;
    cublasHandle_t blas = nullptr;
    cudaDeviceProp prop;
    void *flush = nullptr;
    size_t flush_bytes = 0;
    cudaEvent_t ev[2 * RLB_MAX_RUNS + 2];
    int nev = 0;
};

/* Record the first failing call in `why` (file, line, call, CUDA's message). */
bool ck(ctx &c, cudaError_t e, const char *what, int line) {
    if (e == cudaSuccess) return true;
    snprintf(c.why, c.cap, "%s (native-bench/cuda_backend.cu:%d): %s (error %d)", what, line,
             cudaGetErrorString(e), (int)e);
    return false;
}
#define CK(c, call) ck((c), (call), #call, __LINE__)

bool ckb(ctx &c, cublasStatus_t s, const char *what, int line) {
    if (s == CUBLAS_STATUS_SUCCESS) return true;
    snprintf(c.why, c.cap, "%s (native-bench/cuda_backend.cu:%d): cuBLAS status %d", what, line,
             (int)s);
    return false;
}
#define CKB(c, call) ckb((c), (call), #call, __LINE__)

rlk_dtype kdtype(rl_dtype t) {
    return t == RL_DTYPE_FP16 ? RLK_F16 : (t == RL_DTYPE_BF16 ? RLK_BF16 : RLK_F32);
}

/* Timed runs of a case: about 0.1 s (quick) or 0.3 s, within [5, 30] or [10, 100]. */
const rlb_budget quick_budget = {0.1, 5, 30}, full_budget = {0.3, 10, 100};

/* Time `runs` launches of fn, each preceded (outside the events) by `before`. Returns false with
 * why filled on any error. */
template <typename F, typename B>
bool time_runs(ctx &c, int runs, F fn, B before, double *times) {
    for (int r = 0; r < runs; r++) {
        if (!before()) return false;
        if (!CK(c, cudaEventRecord(c.ev[2 * r], c.st))) return false;
        cudaError_t e = fn();
        if (!CK(c, e)) return false;
        if (!CK(c, cudaEventRecord(c.ev[2 * r + 1], c.st))) return false;
    }
    if (!CK(c, cudaStreamSynchronize(c.st))) return false;
    for (int r = 0; r < runs; r++) {
        float ms = 0.0f;
        if (!CK(c, cudaEventElapsedTime(&ms, c.ev[2 * r], c.ev[2 * r + 1]))) return false;
        times[r] = 1e-3 * (double)ms;
    }
    return true;
}

/* ---- ceilings ----------------------------------------------------------------------------- */

bool ceiling_copy(ctx &c, rlb_ceiling *out) {
    size_t free_b = 0, total_b = 0;
    if (!CK(c, cudaMemGetInfo(&free_b, &total_b))) return false;
    size_t bytes = (c.opt->quick ? 256 : 1024) * MIB;
    while (bytes > 16 * MIB && 2 * bytes > free_b / 2) bytes /= 2;
    void *a = nullptr, *b = nullptr;
    bool ok = CK(c, cudaMalloc(&a, bytes)) && CK(c, cudaMalloc(&b, bytes)) &&
              CK(c, rlk_cuda_fill_uniform(a, RLK_F32, bytes / 4, 12345u, c.st));
    const int warmup = 3, runs = rlb_ceiling_runs(c.opt, 20);
    double times[RLB_MAX_RUNS];
    for (int w = 0; ok && w < warmup; w++)
        ok = CK(c, cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, c.st));
    if (ok)
        ok = time_runs(
            c, runs, [&] { return cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, c.st); },
            [] { return true; }, times);
    cudaFree(a);
    cudaFree(b);
    if (!ok) return false;
    rlb_ceiling_from_runs(out, "HBM", 1, RL_DTYPE_DEFAULT, 2.0 * (double)bytes, times, runs, warmup);
    snprintf(out->method, sizeof out->method,
             "cudaMemcpyAsync device-to-device of %zu MiB, bytes read + written, best of %d",
             bytes / MIB, runs);
    return true;
}

bool ceiling_gemm(ctx &c, const char *name, rl_dtype dt, cudaDataType_t ty, cublasComputeType_t ct,
                  rlb_ceiling *out) {
    const int n = c.opt->quick ? 4096 : 8192;
    const size_t es = ty == CUDA_R_32F ? 4 : 2;
    const size_t elems = (size_t)n * n;
    void *A = nullptr, *B = nullptr, *C = nullptr;
    rlk_dtype fill = ty == CUDA_R_32F ? RLK_F32 : (ty == CUDA_R_16F ? RLK_F16 : RLK_BF16);
    bool ok = CK(c, cudaMalloc(&A, elems * es)) && CK(c, cudaMalloc(&B, elems * es)) &&
              CK(c, cudaMalloc(&C, elems * es)) &&
              CK(c, rlk_cuda_fill_uniform(A, fill, elems, 777u, c.st)) &&
              CK(c, rlk_cuda_fill_uniform(B, fill, elems, 778u, c.st));
    const float one = 1.0f, zero = 0.0f;
    auto gemm = [&]() -> cudaError_t {
        cublasStatus_t s = cublasGemmEx(c.blas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, ty, n,
                                        B, ty, n, &zero, C, ty, n, ct, CUBLAS_GEMM_DEFAULT);
        return s == CUBLAS_STATUS_SUCCESS ? cudaSuccess : cudaErrorUnknown;
    };
    const int warmup = 2, runs = rlb_ceiling_runs(c.opt, c.opt->quick ? 5 : 10);
    double times[RLB_MAX_RUNS];
    for (int w = 0; ok && w < warmup; w++) ok = CK(c, gemm());
    if (ok) ok = time_runs(c, runs, gemm, [] { return true; }, times);
    cudaFree(A);
    cudaFree(B);
    cudaFree(C);
    if (!ok) return false;
    rlb_ceiling_from_runs(out, name, 0, dt, 2.0 * (double)n * n * n, times, runs, warmup);
    snprintf(out->method, sizeof out->method,
             "cublasGemmEx %dx%dx%d, %s, random inputs, 2 FLOP per multiply-add, best of %d", n,
             n, n,
             ct == CUBLAS_COMPUTE_32F_FAST_TF32 ? "tf32 compute" : "fp32 compute (accumulate)",
             runs);
    return true;
}

/* ---- one kernel case ------------------------------------------------------------------------ */

void to_float(const void *src, rl_dtype t, size_t n, float *dst) {
    if (t == RL_DTYPE_FP16) {
        const __half *h = (const __half *)src;
        for (size_t i = 0; i < n; i++) dst[i] = __half2float(h[i]);
    } else if (t == RL_DTYPE_BF16) {
        const __nv_bfloat16 *h = (const __nv_bfloat16 *)src;
        for (size_t i = 0; i < n; i++) dst[i] = __bfloat162float(h[i]);
    } else {
        memcpy(dst, src, n * sizeof(float));
    }
}

struct dev_buf {
    void *p = nullptr;
    ~dev_buf() {
        if (p) cudaFree(p);
    }
};

/* The check's view of a case's inputs in device memory: a query row, or the K and V of one KV
 * head, copied to the host and converted to fp32 (why filled on a CUDA error). */
struct dev_inputs {
    ctx &c;
    rl_dtype dtype;
    const void *q, *k, *v;
    size_t es, d, head; /* element size, d, L·d */
    std::vector<unsigned char> kraw, vraw, qraw;
    std::vector<float> kf, vf, qf;
    dev_inputs(ctx &cx, const rl_problem *p, const void *qp, const void *kp, const void *vp,
               size_t esize)
        : c(cx), dtype(p->dtype), q(qp), k(kp), v(vp), es(esize), d((size_t)p->head_dim),
          head((size_t)(p->kv_len * p->head_dim)), kraw(head * es), vraw(head * es), qraw(d * es),
          kf(head), vf(head), qf(d) {}
};

int dev_query(void *ctx_, int64_t row, const float **q) {
    dev_inputs &di = *(dev_inputs *)ctx_;
    if (!CK(di.c, cudaMemcpy(di.qraw.data(), (const char *)di.q + (size_t)row * di.d * di.es,
                             di.qraw.size(), cudaMemcpyDeviceToHost)))
        return 1;
    to_float(di.qraw.data(), di.dtype, di.d, di.qf.data());
    *q = di.qf.data();
    return 0;
}

int dev_kv(void *ctx_, int64_t kv_head, const float **k, const float **v) {
    dev_inputs &di = *(dev_inputs *)ctx_;
    const size_t off = (size_t)kv_head * di.head * di.es;
    if (!CK(di.c, cudaMemcpy(di.kraw.data(), (const char *)di.k + off, di.kraw.size(),
                             cudaMemcpyDeviceToHost)) ||
        !CK(di.c, cudaMemcpy(di.vraw.data(), (const char *)di.v + off, di.vraw.size(),
                             cudaMemcpyDeviceToHost)))
        return 1;
    to_float(di.kraw.data(), di.dtype, di.head, di.kf.data());
    to_float(di.vraw.data(), di.dtype, di.head, di.vf.data());
    *k = di.kf.data();
    *v = di.vf.data();
    return 0;
}

/* A case this backend or device cannot run: the reason in res->skip_reason; returns true. */
bool skipf(rlb_result *res, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool skipf(rlb_result *res, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->skip_reason, sizeof res->skip_reason, fmt, ap);
    va_end(ap);
    return true;
}

bool smem_over(const ctx &c, size_t need, rlb_result *res) {
    return need > c.prop.sharedMemPerBlockOptin &&
           skipf(res, "needs %zu bytes of shared memory per block; the device allows %zu", need,
                 (size_t)c.prop.sharedMemPerBlockOptin);
}

/* True (skip_reason filled) when the case's kernel does not take its problem on this device;
 * otherwise the device memory it needs beyond Q, K, V and O (*extra) and decode's *splits. */
bool unsupported(const ctx &c, const rlb_case *cs, const rlk_shape &s, size_t es, rlb_result *res,
                 size_t *extra, int *splits) {
    const rl_problem *p = &cs->problem;
    const rlk_dtype t = kdtype(p->dtype);
    if (p->kv_dtype != p->dtype ||
        (p->dtype != RL_DTYPE_FP32 && p->dtype != RL_DTYPE_FP16 && p->dtype != RL_DTYPE_BF16))
        return skipf(res, "the CUDA kernels take fp32, fp16 or bf16 with K/V in the same dtype");
    switch (cs->kernel) {
    case RLB_CUDA_NAIVE:
        *extra = 2 * (size_t)(p->batch * p->heads * p->seq * p->kv_len) * es;
        return false;
    case RLB_CUDA_TILED_FP32:
        if (t != RLK_F32) return skipf(res, "cuda-tiled-fp32 is fp32 only");
        if (rlk_cuda_tiled_fp32_smem(&s) > c.prop.sharedMemPerBlockOptin || p->head_dim > 256)
            return skipf(res,
                         "Br=%lld Bc=%lld d=%lld needs %zu bytes of shared memory per block; the "
                         "device allows %zu",
                         (long long)p->block_m, (long long)p->block_n, (long long)p->head_dim,
                         rlk_cuda_tiled_fp32_smem(&s), (size_t)c.prop.sharedMemPerBlockOptin);
        return false;
    case RLB_CUDA_TILED_TC: {
        int64_t br, bc;
        if (t == RLK_F32 || !rlk_cuda_tiled_tc_tile(p->head_dim, &br, &bc))
            return skipf(res, "cuda-tiled-tc takes fp16 or bf16 with d = 64 or 128");
        if (br != p->block_m || bc != p->block_n)
            return skipf(res, "cuda-tiled-tc uses Br=%lld Bc=%lld for d=%lld; the case says %lldx%lld",
                         (long long)br, (long long)bc, (long long)p->head_dim,
                         (long long)p->block_m, (long long)p->block_n);
        return smem_over(c, rlk_cuda_tiled_tc_smem(p->head_dim), res);
    }
    case RLB_CUDA_TILED_MMA:
        if (t == RLK_F32 || (p->head_dim != 64 && p->head_dim != 128))
            return skipf(res, "cuda-tiled-mma takes fp16 or bf16 with d = 64 or 128");
        if (p->block_m != RLK_CUDA_MMA_BR || p->block_n != RLK_CUDA_MMA_BC)
            return skipf(res, "cuda-tiled-mma uses Br=%d Bc=%d; the case says %lldx%lld",
                         RLK_CUDA_MMA_BR, RLK_CUDA_MMA_BC, (long long)p->block_m,
                         (long long)p->block_n);
        return smem_over(c, rlk_cuda_tiled_mma_smem(p->head_dim), res);
    case RLB_CUDA_DECODE: {
        if (p->seq != 1 || (p->head_dim != 64 && p->head_dim != 128))
            return skipf(res, "cuda-decode takes N = 1 and d = 64 or 128");
        int fused = 0;
        const int G = rlk_cuda_decode_group(&s, &fused);
        *splits = rlk_cuda_decode_splits(&s, c.prop.multiProcessorCount);
        *extra = rlk_cuda_decode_workspace(&s, *splits);
        snprintf(res->note, sizeof res->note, "splits=%d, %d query head%s per block%s", *splits, G,
                 G == 1 ? "" : "s", fused ? " (K/V read once per KV head)" : "");
        return false;
    }
    default: return skipf(res, "not a CUDA kernel");
    }
}

/* Returns false only on a CUDA error that leaves the device unusable (why filled); a problem the
 * kernel does not support or that does not fit is a skip (res->skip_reason). */
bool run_case(ctx &c, const rlb_case *cs, uint64_t seed, rlb_result *res) {
    memset(res, 0, sizeof *res);
    res->c = *cs;
    res->seed = seed;
    const rl_problem *p = &cs->problem;
    rlk_shape s;
    rlb_shape_from_problem(p, &s);
    const rlk_dtype t = kdtype(p->dtype);
    const size_t es = rlk_dtype_size(t);
    const size_t nq = (size_t)(p->batch * p->heads * p->seq * p->head_dim);
    const size_t nk = (size_t)(p->batch * p->kv_heads * p->kv_len * p->head_dim);
    size_t extra = 0; /* S + P, or the decode workspace */
    int splits = 0;
    if (unsupported(c, cs, s, es, res, &extra, &splits)) return true;
    size_t free_b = 0, total_b = 0;
    if (!CK(c, cudaMemGetInfo(&free_b, &total_b))) return false;
    const size_t need = (2 * nq + 2 * nk) * es + extra;
    if (need + 256 * MIB > free_b)
        return skipf(res, "needs %.2f GiB of device memory, %.2f GiB free", need / 1073741824.0,
                     free_b / 1073741824.0);
    dev_buf q, k, v, o, x;
    if (!CK(c, cudaMalloc(&q.p, nq * es)) || !CK(c, cudaMalloc(&k.p, nk * es)) ||
        !CK(c, cudaMalloc(&v.p, nk * es)) || !CK(c, cudaMalloc(&o.p, nq * es)))
        return false;
    if (extra && !CK(c, cudaMalloc(&x.p, extra))) return false;
    if (!CK(c, rlk_cuda_fill_uniform(q.p, t, nq, seed ^ RLB_SEED_Q, c.st)) ||
        !CK(c, rlk_cuda_fill_uniform(k.p, t, nk, seed ^ RLB_SEED_K, c.st)) ||
        !CK(c, rlk_cuda_fill_uniform(v.p, t, nk, seed ^ RLB_SEED_V, c.st)))
        return false;

    cublasStatus_t bs = CUBLAS_STATUS_SUCCESS;
    const size_t S_bytes = extra / 2;
    auto launch = [&]() -> cudaError_t {
        switch (cs->kernel) {
        case RLB_CUDA_NAIVE:
            return rlk_cuda_naive(c.blas, &s, t, q.p, k.p, v.p, o.p, x.p,
                                  (char *)x.p + S_bytes, c.st, &bs);
        case RLB_CUDA_TILED_FP32:
            return rlk_cuda_tiled_fp32(&s, (const float *)q.p, (const float *)k.p,
                                       (const float *)v.p, (float *)o.p, c.st);
        case RLB_CUDA_TILED_TC: return rlk_cuda_tiled_tc(&s, t, q.p, k.p, v.p, o.p, c.st);
        case RLB_CUDA_TILED_MMA: return rlk_cuda_tiled_mma(&s, t, q.p, k.p, v.p, o.p, c.st);
        case RLB_CUDA_DECODE:
            return rlk_cuda_decode(&s, t, q.p, k.p, v.p, o.p, x.p, splits, c.st);
        default: return cudaErrorInvalidValue;
        }
    };
    auto before = [&]() -> bool {
        if (!CK(c, rlk_cuda_poison(o.p, nq * es, c.st))) return false;
        if (c.opt->flush && c.flush &&
            !CK(c, cudaMemsetAsync(c.flush, (int)(seed & 0x7f), c.flush_bytes, c.st)))
            return false;
        return true;
    };

    /* Warm-up (also catches a refused launch before timing). */
    const int warmup = c.opt->warmup >= 0 ? c.opt->warmup : (c.opt->quick ? 1 : 3);
    double t_est = 0.0;
    {
        double wt[RLB_MAX_RUNS];
        const int nw = std::max(1, std::min(warmup, RLB_MAX_RUNS));
        if (!time_runs(c, nw, launch, before, wt)) {
            if (bs != CUBLAS_STATUS_SUCCESS)
                snprintf(c.why, c.cap, "cuBLAS status %d in %s", (int)bs,
                         rlb_kernel_name(cs->kernel));
            return false;
        }
        t_est = wt[nw - 1];
    }
    const int runs = rlb_choose_runs(c.opt, t_est, quick_budget, full_budget);
    double times[RLB_MAX_RUNS];
    if (!time_runs(c, runs, launch, before, times)) return false;
    rlb_stats_from(times, runs, warmup, &res->t);

    /* Correctness of the last timed run: all of O for NaN/inf (poisoned before the run, so an
     * element the kernel did not write is NaN), sampled rows against fp64. */
    std::vector<unsigned char> raw(nq * es);
    std::vector<float> of(nq);
    if (!CK(c, cudaMemcpy(raw.data(), o.p, nq * es, cudaMemcpyDeviceToHost))) return false;
    to_float(raw.data(), p->dtype, nq, of.data());
    dev_inputs di(c, p, q.p, k.p, v.p, es);
    const rlb_inputs in = {dev_query, dev_kv, &di};
    const int rc = rlb_check_output(c.opt, p, (double)s.scale, seed, of.data(), &in, &res->check);
    if (rc > 0) return false;
    if (rc < 0) return skipf(res, "out of host memory");
    res->ran = 1;
    return true;
}

/* rlb_backend.run_case: the why buffer is the context's (c.why). */
int run_case_fn(void *ctx_, const rlb_case *cs, uint64_t seed, rlb_result *res, char *, size_t) {
    return run_case(*(ctx *)ctx_, cs, seed, res) ? 0 : 1;
}

void version_text(int v, char *buf, size_t cap) {
    snprintf(buf, cap, "%d.%d", v / 1000, (v % 1000) / 10);
}

int run_all(ctx &c, const rlb_case *cases, int n, rlb_run *out) {
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        snprintf(c.why, c.cap, "no usable CUDA device: cudaGetDeviceCount: %s (error %d)",
                 cudaGetErrorString(e), (int)e);
        return RLB_EXIT_NODEVICE;
    }
    if (count < 1) {
        snprintf(c.why, c.cap, "no usable CUDA device: cudaGetDeviceCount found none");
        return RLB_EXIT_NODEVICE;
    }
    if (!CK(c, cudaSetDevice(0)) || !CK(c, cudaGetDeviceProperties(&c.prop, 0)))
        return RLB_EXIT_NODEVICE;

    rlb_device *dv = &out->dev;
    memset(dv, 0, sizeof *dv);
    snprintf(dv->name, sizeof dv->name, "%s", c.prop.name);
    snprintf(dv->compute_capability, sizeof dv->compute_capability, "%d.%d", c.prop.major,
             c.prop.minor);
    dv->sm_count = c.prop.multiProcessorCount;
    /* Clocks through the attributes (kHz → Hz): CUDA 13's cudaDeviceProp has no clockRate or
     * memoryClockRate any more (deprecated in 12, removed in 13's headers). */
    int kh = 0;
    if (cudaDeviceGetAttribute(&kh, cudaDevAttrClockRate, 0) == cudaSuccess) dv->sm_clock_hz = 1e3 * kh;
    if (cudaDeviceGetAttribute(&kh, cudaDevAttrMemoryClockRate, 0) == cudaSuccess)
        dv->mem_clock_hz = 1e3 * kh;
    if (cudaDeviceGetAttribute(&kh, cudaDevAttrGlobalMemoryBusWidth, 0) == cudaSuccess)
        dv->mem_bus_bits = kh;
    dv->l2_bytes = (double)c.prop.l2CacheSize;
    dv->mem_bytes = (double)c.prop.totalGlobalMem;
    dv->smem_optin_bytes = (double)c.prop.sharedMemPerBlockOptin;
    int dver = 0, rver = 0;
    cudaDriverGetVersion(&dver);
    cudaRuntimeGetVersion(&rver);
    version_text(dver, dv->driver_version, sizeof dv->driver_version);
    version_text(rver, dv->runtime_version, sizeof dv->runtime_version);
    snprintf(out->compiler, sizeof out->compiler, "nvcc %d.%d (host: %s %d.%d)",
             __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__,
#if defined(__clang__)
             "clang", __clang_major__, __clang_minor__
#elif defined(__GNUC__)
             "gcc", __GNUC__, __GNUC_MINOR__
#else
             "unknown", 0, 0
#endif
    );
    snprintf(out->flags, sizeof out->flags, "%s", ROOFLAB_CUDA_FLAGS);

    if (!CK(c, cudaStreamCreateWithFlags(&c.st, cudaStreamNonBlocking))) return 1;
    if (!CKB(c, cublasCreate(&c.blas))) return 1;
    if (!CKB(c, cublasSetStream(c.blas, c.st))) return 1;
    int bver = 0;
    if (cublasGetVersion(c.blas, &bver) == CUBLAS_STATUS_SUCCESS)
        snprintf(dv->library_versions, sizeof dv->library_versions, "cuBLAS %d.%d.%d",
                 bver / 10000, (bver / 100) % 100, bver % 100);
    for (c.nev = 0; c.nev < 2 * RLB_MAX_RUNS + 2; c.nev++)
        if (!CK(c, cudaEventCreate(&c.ev[c.nev]))) return 1;
    c.flush_bytes = std::max<size_t>(2 * (size_t)c.prop.l2CacheSize, 64 * MIB);
    if (!CK(c, cudaMalloc(&c.flush, c.flush_bytes))) return 1;

    rlb_progress(c.opt, "cuda: %s, compute capability %s, %d SMs, driver %s, runtime %s", dv->name,
             dv->compute_capability, dv->sm_count, dv->driver_version, dv->runtime_version);

    /* Ceilings, in the same run as the kernels. */
    out->ceiling_count = 0;
    if (!ceiling_copy(c, &out->ceilings[out->ceiling_count])) return 1;
    rlb_progress(c.opt, "ceiling HBM (device-to-device copy): %.1f GB/s",
             out->ceilings[out->ceiling_count++].value / 1e9);
    struct {
        const char *name;
        rl_dtype dt;
        cudaDataType_t ty;
        cublasComputeType_t ct;
    } gemms[] = {
        {"fp32 CUDA core", RL_DTYPE_FP32, CUDA_R_32F, CUBLAS_COMPUTE_32F},
        {"tf32 tensor", RL_DTYPE_TF32, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32},
        {"fp16 tensor", RL_DTYPE_FP16, CUDA_R_16F, CUBLAS_COMPUTE_32F},
        {"bf16 tensor", RL_DTYPE_BF16, CUDA_R_16BF, CUBLAS_COMPUTE_32F},
    };
    for (auto &g : gemms) {
        rlb_ceiling *cl = &out->ceilings[out->ceiling_count];
        if (!ceiling_gemm(c, g.name, g.dt, g.ty, g.ct, cl)) return 1;
        out->ceiling_count++;
        rlb_progress(c.opt, "ceiling %s (cuBLAS GEMM): %.1f TFLOP/s", g.name, cl->value / 1e12);
    }

    const rlb_backend be = {run_case_fn, &c, 1, 4};
    return rlb_run_cases(c.opt, cases, n, &be, out, c.why, c.cap);
}

} // namespace

extern "C" __attribute__((visibility("default"))) int
rlb_cuda_run(const rlb_options *opt, const rlb_case *cases, int n, rlb_run *out, char *why,
             size_t cap) {
    ctx c;
    c.opt = opt;
    c.why = why;
    c.cap = cap;
    why[0] = 0;
    int rc = run_all(c, cases, n, out);
    for (int i = 0; i < c.nev; i++) cudaEventDestroy(c.ev[i]);
    if (c.flush) cudaFree(c.flush);
    if (c.blas) cublasDestroy(c.blas);
    if (c.st) cudaStreamDestroy(c.st);
    return rc;
}
