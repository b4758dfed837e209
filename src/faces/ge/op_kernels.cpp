#include "op_kernels.h"

#include "messages.h"

namespace ropekit_ge {

std::shared_ptr<ropekit_plan> PlanCache::Find(const std::vector<int64_t> &key) {
    std::lock_guard<std::mutex> hold(lock_);
    for (const auto &entry : plans_)
        if (entry.first == key)
            return entry.second;
    return nullptr;
}

void PlanCache::Insert(const std::vector<int64_t> &key, const std::shared_ptr<ropekit_plan> &plan) {
    std::lock_guard<std::mutex> hold(lock_);
    for (const auto &entry : plans_)
        if (entry.first == key)
            return; /* another thread planned the same shapes first */
    if (plans_.size() == kCapacity)
        plans_.erase(plans_.begin());
    plans_.emplace_back(key, plan);
}

std::vector<int64_t> ShapeKey(const std::vector<const RunValue *> &inputs) {
    std::vector<int64_t> key;
    for (const RunValue *v : inputs) {
        if (!v) {
            key.push_back(-1);
            continue;
        }
        std::vector<int64_t> dims = v->desc.GetShape().GetDims();
        key.push_back(v->desc.GetDataType());
        key.push_back(static_cast<int64_t>(dims.size()));
        key.insert(key.end(), dims.begin(), dims.end());
    }
    return key;
}

int OpKernel::OutputTakesDescOf(const ge::OperatorImpl &op, size_t output) const {
    if (output >= op.outputs.size())
        return -1;
    std::vector<std::string> outs = Outputs();
    std::vector<std::string> ins = Inputs();
    for (size_t k = 0; k < outs.size(); ++k)
        if (outs[k] == op.outputs[output].name)
            return op.InputIndex(ins[OutputFrom(k)]);
    return -1;
}

namespace {
const std::vector<const OpKernel *> &Kernels() {
    static const std::vector<const OpKernel *> kernels = {&PartialRotaryForwardKernel(),
                                                          &PartialRotaryGradKernel(),
                                                          &RopeWithSinCosCacheKernel(),
                                                          &RotaryPositionEmbeddingKernel(),
                                                          &RotaryPositionEmbeddingGradKernel(),
                                                          &InterleaveRopeKernel(),
                                                          &ApplyRotaryPosEmbKernel()};
    return kernels;
}
} // namespace

const OpKernel *FindKernel(const std::string &type) {
    for (const OpKernel *k : Kernels())
        if (type == k->Type())
            return k;
    return nullptr;
}

std::string KernelTypeNames() {
    std::string names;
    for (const OpKernel *k : Kernels())
        names += (names.empty() ? "" : ", ") + std::string(k->Type());
    return names;
}

int64_t IntAttr(const ge::OperatorImpl &op, const char *name) {
    const AttrData *a = op.Attr(name);
    return a && a->kind == AttrKind::Int ? a->i : 0;
}

std::vector<int64_t> IntListAttr(const ge::OperatorImpl &op, const char *name) {
    const AttrData *a = op.Attr(name);
    return a && a->kind == AttrKind::ListInt ? a->list_int : std::vector<int64_t>();
}

std::string StringAttr(const ge::OperatorImpl &op, const char *name) {
    const AttrData *a = op.Attr(name);
    return a && a->kind == AttrKind::String ? a->s : std::string();
}

bool BoolAttr(const ge::OperatorImpl &op, const char *name) {
    const AttrData *a = op.Attr(name);
    return a && a->kind == AttrKind::Bool && a->b;
}

bool AttrHasKind(const ge::OperatorImpl &op, const char *name, AttrKind kind, bool required,
                 std::string *problem) {
    const AttrData *a = op.Attr(name);
    if (!a) {
        if (!required)
            return true;
        *problem = Format("attribute %s (%s) is not set and its prototype has no default", name,
                          AttrKindName(kind));
        return false;
    }
    if (a->kind == kind)
        return true;
    *problem = Format("attribute %s = %s is %s; ropekit reads it as %s", name,
                      AttrToString(*a).c_str(), AttrKindName(a->kind), AttrKindName(kind));
    return false;
}

} // namespace ropekit_ge
