/* record_predict.c — a record point against its kernel profile's prediction (CONTRACTS.md "The
 * record"): the one place that maps a point to rl_predict, for `rooflab check-model`, the
 * check report's derived figures and the page. */
#include <stdio.h>
#include <string.h>

#include "record_internal.h"

/* The profile's spec for a point. FlashAttention v2.0.9 (the Flash-Decoding blog's baseline)
 * reads K/V per query head in decode and has no split-KV path (added in v2.2 as Flash-Decoding;
 * the fa2 profile models v2.5's): fa2 points with N = 1 are predicted with per-head packing and
 * one split. FlashInfer points name the decode kernel that ran: "single-decode"
 * (flashinfer.single_decode_with_kv_cache, use_tensor_cores=False by default) and "(CUDA cores)"
 * are its CUDA-core kernel, "(tensor cores)" the tensor-core one (--cores). */
static rl_kernel_spec spec_for(rl_kernel profile, const rl_problem *p, const char *label) {
    rl_kernel_spec spec = {0};
    spec.kernel = profile;
    if (profile == RL_KERNEL_FLASHINFER && p->seq == 1 && label) {
        if (strstr(label, "CUDA cores")) spec.cores = RL_CORES_CUDA;
        if (strstr(label, "single-decode") && p->batch == 1) spec.cores = RL_CORES_CUDA_SINGLE;
        if (strstr(label, "tensor cores")) spec.cores = RL_CORES_TENSOR;
    }
    if (profile == RL_KERNEL_FA2 && p->seq == 1) {
        spec.gqa_pack = RL_PACK_PER_HEAD;
        spec.splits = 1;
    }
    return spec;
}

static void not_predicted(rl_rec_prediction *out, rl_rec_pred_status st, const char *reason,
                          const char *detail) {
    out->status = st;
    out->reason = reason;
    if (!detail) detail = "?";
    snprintf(out->detail, sizeof out->detail, "%.*s",
             (int)rl_text_clip(detail, sizeof out->detail - 1), detail);
}

void rl_rec_point_predict(const rl_rec_point *pt, const rl_rec_hardware *hw,
                          rl_rec_prediction *out) {
    memset(out, 0, sizeof *out);
    const rl_hw *preset = hw && hw->preset ? rl_hw_find(hw->preset) : NULL;
    rl_roof_resolved roof;
    rl_error err = {0};
    int roof_ok = preset && rl_roof_resolve(&(rl_roof_request){preset->id, pt->problem.dtype, NULL,
                                                               NULL},
                                            &roof, &err) == RL_OK;
    rl_report rep;
    if (roof_ok && rl_report_compute(&pt->problem, preset, roof.roof, &rep, NULL) == RL_OK)
        out->compulsory_s = rep.points[RL_MODEL_COMPULSORY].time_s;
    rl_kernel_spec spec = {0};
    if (pt->has_profile) spec = spec_for(pt->profile, &pt->problem, pt->kernel);
    if (!pt->has_profile)
        not_predicted(out, RL_REC_PRED_NO_PROFILE, "no profile", pt->kernel);
    else if (!preset)
        not_predicted(out, RL_REC_PRED_NO_PRESET, "no preset", hw ? hw->name : NULL);
    else if (!roof_ok)
        not_predicted(out, RL_REC_PRED_NO_ROOF, "the preset has no roof for it", err.message);
    else if (rl_predict(&pt->problem, preset, roof.roof, &spec, &out->prediction, &err) != RL_OK)
        not_predicted(out, RL_REC_PRED_CANNOT_RUN, "the profile cannot run it", err.message);
    if (out->reason) return;
    out->status = RL_REC_PRED_OK;
    out->error = (out->prediction.time_s - pt->time_median_s) / pt->time_median_s;
}
