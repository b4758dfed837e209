/* ApplyRotaryPosEmb: query and key rotated in place by one cos/sin; a plan under the rules
 * of aclnnApplyRotaryPosEmbV2 (the prototype carries layout and rotary_mode) once per
 * shape, execution by ropekit_apply_rotary_execute. */
#include "cann_plan.h"
#include "ge/ge_error_codes.h"
#include "messages.h"
#include "op_kernels.h"

namespace ropekit_ge {
namespace {

enum { kQuery, kKey, kCos, kSin };

class ApplyRotaryKernel : public OpKernel {
  public:
    const char *Type() const override { return "ApplyRotaryPosEmb"; }
    std::vector<std::string> Inputs() const override { return {"query", "key", "cos", "sin"}; }
    std::vector<std::string> Outputs() const override { return {"query", "key"}; }
    size_t OutputFrom(size_t output) const override { return output == 0 ? kQuery : kKey; }
    bool InPlace() const override { return true; }

    bool CheckAttrs(const ge::OperatorImpl &op, std::string *problem) const override {
        return AttrHasKind(op, "layout", AttrKind::Int, true, problem) &&
               AttrHasKind(op, "rotary_mode", AttrKind::String, true, problem);
    }

    ge::Status Run(const NodeRun &run, std::string *detail) const override {
        /* run.out[0], run.out[1] hold private copies of query and key */
        RunValue &q = *run.out[0];
        RunValue &k = *run.out[1];
        const RunValue &cos = *run.in[kCos];
        const RunValue &sin = *run.in[kSin];
        std::vector<int64_t> key = ShapeKey(run.in);
        std::shared_ptr<ropekit_plan> plan = run.plans.Find(key);
        if (!plan) {
            ropekit_tensor tq = NativeTensor(q), tk = NativeTensor(k), tc = NativeTensor(cos),
                           ts = NativeTensor(sin);
            const std::string mode = StringAttr(run.op, "rotary_mode");
            ropekit_plan *made = nullptr;
            int32_t code = 0;
            ropekit_status made_st = ropekit_cann_apply_rotary_plan_create(
                ROPEKIT_CANN_APPLY_ROTARY_POS_EMB_V2, &tq, &tk, &tc, &ts, IntAttr(run.op, "layout"),
                mode.c_str(), &made, &code);
            ge::Status st =
                CannVerdict(made_st, code, ROPEKIT_CANN_APPLY_ROTARY_POS_EMB_V2, detail);
            if (st != ge::GRAPH_SUCCESS)
                return st;
            plan = OwnPlan(made);
            run.plans.Insert(key, plan);
        }
        return NativeVerdict(
            ropekit_apply_rotary_execute(plan.get(), q.data(), k.data(), cos.data(), sin.data()),
            "ropekit_apply_rotary_execute", detail);
    }
};

} // namespace

const OpKernel &ApplyRotaryPosEmbKernel() {
    static const ApplyRotaryKernel k;
    return k;
}

} // namespace ropekit_ge
