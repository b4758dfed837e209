/* RotaryPositionEmbeddingGrad: dx = dy rotated backward over its whole last dim, and with
 * the optional input x connected dcos and dsin (the sums over the dims cos broadcasts); a
 * plan under aclnnRotaryPositionEmbeddingGrad's rules once per shape, execution by
 * ropekit_partial_rotary_grad_execute. Without x the outputs dcos and dsin (cos's shape, as
 * CANN infers them) hold zeros: CANN's kernel leaves them unwritten. */
#include <cstring>

#include "cann_plan.h"
#include "ge/ge_error_codes.h"
#include "op_kernels.h"

namespace ropekit_ge {
namespace {

enum { kDy, kCos, kSin, kX };
enum { kDx, kDcos, kDsin };

class RotaryGradKernel : public OpKernel {
  public:
    const char *Type() const override { return "RotaryPositionEmbeddingGrad"; }
    std::vector<std::string> Inputs() const override { return {"dy", "cos", "sin", "x"}; }
    std::vector<std::string> Outputs() const override { return {"dx", "dcos", "dsin"}; }
    size_t OutputFrom(size_t output) const override {
        return output == kDx ? kDy : output == kDcos ? kCos : kSin;
    }
    bool InPlace() const override { return false; }

    bool CheckAttrs(const ge::OperatorImpl &op, std::string *problem) const override {
        return AttrHasKind(op, "mode", AttrKind::Int, true, problem);
    }

    ge::Status Run(const NodeRun &run, std::string *detail) const override {
        const RunValue *x = run.in[kX];
        std::vector<int64_t> key = ShapeKey(run.in);
        std::shared_ptr<ropekit_plan> plan = run.plans.Find(key);
        if (!plan) {
            ropekit_tensor tdy = NativeTensor(*run.in[kDy]), tc = NativeTensor(*run.in[kCos]),
                           ts = NativeTensor(*run.in[kSin]), tdx = NativeTensor(*run.out[kDx]),
                           tdc = NativeTensor(*run.out[kDcos]), tds = NativeTensor(*run.out[kDsin]);
            ropekit_tensor tx = x ? NativeTensor(*x) : ropekit_tensor{};
            ropekit_plan *made = nullptr;
            int32_t code = 0;
            ropekit_status made_st = ropekit_cann_rotary_position_embedding_grad_plan_create(
                &tdy, &tc, &ts, x ? &tx : nullptr, IntAttr(run.op, "mode"), &tdx, &tdc, &tds, &made,
                &code);
            ge::Status st =
                CannVerdict(made_st, code, ROPEKIT_CANN_ROTARY_POSITION_EMBEDDING_GRAD, detail);
            if (st != ge::GRAPH_SUCCESS)
                return st;
            plan = OwnPlan(made);
            run.plans.Insert(key, plan);
        }
        if (!x)
            for (RunValue *sums : {run.out[kDcos], run.out[kDsin]})
                if (sums->bytes > 0)
                    std::memset(sums->data(), 0, sums->bytes);
        return NativeVerdict(ropekit_partial_rotary_grad_execute(
                                 plan.get(), run.in[kDy]->data(), run.in[kCos]->data(),
                                 run.in[kSin]->data(), x ? x->data() : nullptr,
                                 run.out[kDx]->data(), x ? run.out[kDcos]->data() : nullptr,
                                 x ? run.out[kDsin]->data() : nullptr),
                             "ropekit_partial_rotary_grad_execute", detail);
    }
};

} // namespace

const OpKernel &RotaryPositionEmbeddingGradKernel() {
    static const RotaryGradKernel k;
    return k;
}

} // namespace ropekit_ge
