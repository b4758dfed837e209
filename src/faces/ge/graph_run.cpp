#include "graph_run.h"

#include <cstring>

#include "ge/ge_error_codes.h"
#include "messages.h"
#include "tensor_impl.h"
#include "types_table.h"

namespace ropekit_ge {
namespace {

class Runner {
  public:
    Runner(const Program &program, const std::vector<ge::Tensor> &inputs)
        : p_(program), inputs_(inputs), values_(program.values.size()),
          remaining_(program.values.size()) {
        where_ = "RunGraph(" + p_.Describe() + ")";
        for (size_t v = 0; v < remaining_.size(); ++v)
            remaining_[v] = p_.values[v].uses;
    }

    ge::Status Run(std::vector<ge::Tensor> &outputs) {
        if (inputs_.size() != p_.data_nodes.size())
            return Fail(ACL_ERROR_GE_PARAM_INVALID,
                        Format("%s: %zu inputs given; the graph reads %zu (one per Data node, in "
                               "the order of their index attribute, or of SetInputs when those are "
                               "not 0 to n-1)",
                               where_.c_str(), inputs_.size(), p_.data_nodes.size()));
        for (const ProgramNode &node : p_.nodes) {
            if (!node.needed)
                continue;
            ge::Status st = node.kind == ProgramNode::Kind::Data    ? Feed(node)
                            : node.kind == ProgramNode::Kind::Const ? Constant(node)
                                                                    : Execute(node);
            if (st != ge::GRAPH_SUCCESS)
                return st;
        }
        return Collect(outputs);
    }

  private:
    ge::Status NodeFail(ge::Status status, const ProgramNode &node, const std::string &what) {
        return Fail(status, where_ + ": " + node.op.Describe() + ": " + what);
    }

    ge::Status NoMemory(const ProgramNode &node, size_t bytes) {
        return NodeFail(ACL_ERROR_GE_MEMORY_ALLOCATION, node,
                        Format("cannot allocate %zu bytes", bytes));
    }

    /* A value over a tensor the caller (or the graph) owns. */
    ge::Status Borrow(const ProgramNode &node, const ge::Tensor &t, const char *what) {
        RunValue &v = values_[static_cast<size_t>(node.outputs[0])];
        v.desc = t.GetTensorDesc();
        int64_t bytes = TensorBytes(v.desc);
        if (bytes < 0)
            return NodeFail(
                ACL_ERROR_GE_SHAPE_INVALID, node,
                Format("%s is %s: not a tensor of known size", what, DescToString(v.desc).c_str()));
        if (t.GetSize() != static_cast<size_t>(bytes))
            return NodeFail(ACL_ERROR_GE_PARAM_INVALID, node,
                            Format("%s is %s, %lld bytes, but holds %zu bytes of data", what,
                                   DescToString(v.desc).c_str(), static_cast<long long>(bytes),
                                   t.GetSize()));
        v.storage = ge::TensorAdapter::Buffer(t);
        if (!v.storage && bytes > 0)
            return NodeFail(ACL_ERROR_GE_PARAM_INVALID, node,
                            Format("%s is %s but has no data", what, DescToString(v.desc).c_str()));
        if (!v.storage && !(v.storage = AllocateBuffer(0)))
            return NoMemory(node, 0);
        v.bytes = static_cast<size_t>(bytes);
        v.caller_owned = true;
        return ge::GRAPH_SUCCESS;
    }

    ge::Status Feed(const ProgramNode &node) {
        const ge::Tensor &feed = inputs_[static_cast<size_t>(node.data_index)];
        std::string what = Format("inputs[%lld]", static_cast<long long>(node.data_index));
        ge::Status st = Borrow(node, feed, what.c_str());
        if (st != ge::GRAPH_SUCCESS)
            return st;
        const ge::TensorDesc *declared = DataDeclaredDesc(node);
        std::string why;
        if (declared && !DescAdmits(*declared, feed.GetTensorDesc(), &why, &st))
            return NodeFail(st, node, Format("%s has %s", what.c_str(), why.c_str()));
        return ge::GRAPH_SUCCESS;
    }

    ge::Status Constant(const ProgramNode &node) {
        return Borrow(node, node.const_value, "attribute value");
    }

    /* The buffer of an output: fresh, or for an in-place operator its input's memory when
     * nothing else reads that value, else a copy of it. */
    ge::Status PrepareOutput(const ProgramNode &node, size_t k, int from_value, RunValue &out) {
        RunValue &from = values_[static_cast<size_t>(from_value)];
        out.desc = from.desc;
        out.bytes = from.bytes;
        out.caller_owned = false;
        std::string detail;
        ge::Status st =
            CheckOutputDesc(node, static_cast<size_t>(node.kernel_outputs[k]), out.desc, &detail);
        if (st != ge::GRAPH_SUCCESS)
            return NodeFail(st, node, detail);
        const ProgramValue &info = p_.values[static_cast<size_t>(from_value)];
        if (node.kernel->InPlace() && !from.caller_owned && !info.graph_output &&
            remaining_[static_cast<size_t>(from_value)] == 1) {
            out.storage = std::move(from.storage);
            return ge::GRAPH_SUCCESS;
        }
        if (!(out.storage = AllocateBuffer(out.bytes)))
            return NoMemory(node, out.bytes);
        if (node.kernel->InPlace() && out.bytes > 0)
            std::memcpy(out.data(), from.data(), out.bytes);
        return ge::GRAPH_SUCCESS;
    }

    ge::Status Execute(const ProgramNode &node) {
        NodeRun run{node.op, *node.plans, {}, {}};
        std::string detail;
        for (size_t i = 0; i < node.inputs.size(); ++i) {
            if (node.inputs[i] == kAbsentInput) {
                run.in.push_back(nullptr);
                continue;
            }
            const RunValue &v = values_[static_cast<size_t>(node.inputs[i])];
            ge::Status st = CheckInputDesc(node, i, v.desc, &detail);
            if (st != ge::GRAPH_SUCCESS)
                return NodeFail(st, node, detail);
            run.in.push_back(&v);
        }
        for (size_t k = 0; k < node.kernel_outputs.size(); ++k) {
            int from = node.inputs[node.kernel->OutputFrom(k)];
            RunValue &out = values_[static_cast<size_t>(
                node.outputs[static_cast<size_t>(node.kernel_outputs[k])])];
            ge::Status st = PrepareOutput(node, k, from, out);
            if (st != ge::GRAPH_SUCCESS)
                return st;
            run.out.push_back(&out);
        }
        ge::Status st = node.kernel->Run(run, &detail);
        if (st != ge::GRAPH_SUCCESS)
            return NodeFail(st, node, detail);
        for (int v : node.inputs)
            if (v != kAbsentInput && --remaining_[static_cast<size_t>(v)] == 0 &&
                !p_.values[static_cast<size_t>(v)].graph_output)
                values_[static_cast<size_t>(v)].storage.reset();
        return ge::GRAPH_SUCCESS;
    }

    /* Graph outputs own their data: a value's buffer moves into its first output tensor;
     * caller buffers and repeated outputs are copied. */
    ge::Status Collect(std::vector<ge::Tensor> &outputs) {
        std::vector<ge::Tensor> result;
        std::vector<bool> given(values_.size(), false);
        for (int id : p_.outputs) {
            RunValue &v = values_[static_cast<size_t>(id)];
            std::shared_ptr<uint8_t> data;
            if (!v.caller_owned && !given[static_cast<size_t>(id)]) {
                data = v.storage;
                given[static_cast<size_t>(id)] = true;
            } else {
                if (!(data = AllocateBuffer(v.bytes)))
                    return Fail(ACL_ERROR_GE_MEMORY_ALLOCATION,
                                Format("%s: cannot allocate %zu bytes for an output",
                                       where_.c_str(), v.bytes));
                if (v.bytes > 0)
                    std::memcpy(data.get(), v.data(), v.bytes);
            }
            result.push_back(ge::TensorAdapter::Wrap(v.desc, data, v.bytes));
        }
        outputs.swap(result);
        return ge::GRAPH_SUCCESS;
    }

    const Program &p_;
    const std::vector<ge::Tensor> &inputs_;
    std::vector<RunValue> values_;
    std::vector<int> remaining_;
    std::string where_;
};

} // namespace

ge::Status RunProgram(const Program &program, const std::vector<ge::Tensor> &inputs,
                      std::vector<ge::Tensor> &outputs) {
    Runner runner(program, inputs);
    return runner.Run(outputs);
}

} // namespace ropekit_ge
