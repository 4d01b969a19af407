/* report.c — one evaluation: the problem's work and traffic, the roofline point of each traffic
 * model, the SRAM budget, the memory levels and the compute-side roofs (MODEL.md "Memory
 * levels"). The top of the model library: it composes workload.c, roofline.c and predict.c. */
#include "internal.h"

rl_status rl_report_compute(const rl_problem *problem, const rl_hw *hw, rl_roof roof,
                            rl_report *out, rl_error *err) {
    rl_status s = rl_roof_check(roof, err);
    if (s != RL_OK) return s;
    rl_report r = {0};
    if ((s = rl_workload_compute(problem, &r.work, err)) != RL_OK) return s;
    r.roof = roof;
    r.ridge_flop_per_byte = rl_ridge_flop_per_byte(roof);
    for (int m = 0; m < RL_MODEL_COUNT; m++)
        if (r.work.traffic[m].available)
            r.points[m] = rl_roofline_point(roof, r.work.flops, r.work.traffic[m].bytes);
    r.sram = rl_sram_budget(&r.work.problem, hw);
    if (hw && hw->exp_per_s > 0 && r.work.pairs > 0) {
        const double exps = (double)r.work.problem.batch * (double)r.work.problem.heads * r.work.pairs;
        r.exp_roof_flops_per_s = r.work.flops / (exps / hw->exp_per_s);
        r.mma_exp_roof_flops_per_s =
            1.0 / (1.0 / roof.peak_flops_per_s + 1.0 / r.exp_roof_flops_per_s);
    }
    if (hw && hw->l2_bandwidth_bytes_per_s > 0 && hw->l2_bytes > 0 && hw->sm_count > 0) {
        r.levels_known = 1;
        r.l2_bandwidth_bytes_per_s = hw->l2_bandwidth_bytes_per_s;
        for (int m = 0; m < RL_MODEL_COUNT; m++) {
            if (!r.work.traffic[m].available) continue;
            rl__model_levels(&r.work, hw, (rl_model)m, &r.levels[m]);
            rl_roof l2 = {hw->l2_bandwidth_bytes_per_s, roof.peak_flops_per_s};
            r.level_points[m][RL_LEVEL_DRAM] =
                rl_roofline_point(roof, r.work.flops, r.levels[m].bytes[RL_LEVEL_DRAM]);
            r.level_points[m][RL_LEVEL_L2] =
                rl_roofline_point(l2, r.work.flops, r.levels[m].bytes[RL_LEVEL_L2]);
        }
    }
    if (out) *out = r;
    return RL_OK;
}
