/* ropekit-ge-bench: the cost of graph mode. For a few of `ropekit bench`'s workloads (fp32),
 * times Session::RunGraph of a one-operator graph (what a GE program calls: feeds in, new
 * output tensors out) against the native one-shot call on the same bytes, in interleaved
 * rounds, and prints both medians, the library CPU time per call and their ratio.
 *   ropekit-ge-bench [--quick] [--workload W1,D1,...]
 * RunGraph does more than the native call by design: phase 1 of the aclnn checks on every
 * run, fresh output tensors, and for the in-place operators a copy of x (the caller's
 * input is never modified). */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

extern "C" {
#include "measure.h"
#include "workloads.h"
}

#include "ge_api.h"
#include "ops_proto_posembedding.h"
#include "ropekit/ropekit.h"

namespace {

std::vector<uint8_t> Pattern(size_t count) {
    std::vector<uint8_t> bytes(count * sizeof(float));
    for (size_t i = 0; i < count; ++i) {
        float v = static_cast<float>((i * 2654435761u) % 2001) / 1000.0f - 1.0f;
        std::memcpy(&bytes[i * sizeof(float)], &v, sizeof v);
    }
    return bytes;
}

ge::Tensor MakeTensor(const std::vector<int64_t> &shape, ge::DataType dt,
                      const std::vector<uint8_t> &bytes) {
    return ge::Tensor(ge::TensorDesc(ge::Shape(shape), ge::FORMAT_ND, dt), bytes);
}

ge::op::Data DataNode(const char *name, int64_t index) {
    ge::op::Data d(name);
    d.set_attr_index(index);
    return d;
}

/* One workload: the graph, its feeds, and the native call on the same bytes. */
struct Case {
    const rkb_workload *w = nullptr;
    ge::Session *session = nullptr;
    uint32_t graph_id = 0;
    std::vector<ge::Tensor> feeds;
    std::vector<ge::Tensor> outputs;
    std::vector<std::vector<uint8_t>> buffers; /* native: inputs, then outputs */
    std::vector<ropekit_tensor> views;
    ropekit_rope_config config{};
    double bytes = 0;
    bool failed = false;
};

void RunGraphTask(void *ctx) {
    Case *c = static_cast<Case *>(ctx);
    if (c->session->RunGraph(c->graph_id, c->feeds, c->outputs) != ge::SUCCESS)
        c->failed = true;
}

void NativeTask(void *ctx) {
    Case *c = static_cast<Case *>(ctx);
    ropekit_status st;
    if (c->w->kind == RKB_ROPE)
        st = ropekit_rope(&c->views[0], &c->views[1], &c->views[2], &c->views[3], &c->views[4],
                          &c->views[5], &c->config);
    else
        st = ropekit_partial_rotary(
            &c->views[0], &c->views[1], &c->views[2], ROPEKIT_ROTARY_INTERLEAVE, c->w->start,
            c->w->end, c->w->kind == RKB_PARTIAL_GRAD ? ROPEKIT_BACKWARD : ROPEKIT_FORWARD);
    if (st != ROPEKIT_OK)
        c->failed = true;
}

bool SetUpRope(Case &c, ge::Graph &graph) {
    const rkb_workload &w = *c.w;
    const int64_t t = w.tokens, qw = w.q_heads * w.head_size, kw = w.k_heads * w.head_size;
    std::vector<uint8_t> pos(static_cast<size_t>(t) * sizeof(int64_t));
    for (int64_t i = 0; i < t; ++i) {
        int64_t p = (i * 7919) % w.max_pos;
        std::memcpy(&pos[static_cast<size_t>(i) * sizeof p], &p, sizeof p);
    }
    std::vector<uint8_t> cache(static_cast<size_t>(w.max_pos * w.rot_dim) * sizeof(float));
    if (ropekit_cos_sin_cache_build(cache.data(), ROPEKIT_F32, w.max_pos, w.rot_dim, 10000.0,
                                    nullptr) != ROPEKIT_OK)
        return false;
    c.buffers = {pos,
                 Pattern(static_cast<size_t>(t * qw)),
                 Pattern(static_cast<size_t>(t * kw)),
                 cache,
                 std::vector<uint8_t>(static_cast<size_t>(t * qw) * sizeof(float)),
                 std::vector<uint8_t>(static_cast<size_t>(t * kw) * sizeof(float))};
    const int64_t ps[1] = {t}, qs[2] = {t, qw}, ks[2] = {t, kw}, cs[2] = {w.max_pos, w.rot_dim};
    c.views = {ropekit_tensor_make(c.buffers[0].data(), ROPEKIT_I64, 1, ps, nullptr),
               ropekit_tensor_make(c.buffers[1].data(), ROPEKIT_F32, 2, qs, nullptr),
               ropekit_tensor_make(c.buffers[2].data(), ROPEKIT_F32, 2, ks, nullptr),
               ropekit_tensor_make(c.buffers[3].data(), ROPEKIT_F32, 2, cs, nullptr),
               ropekit_tensor_make(c.buffers[4].data(), ROPEKIT_F32, 2, qs, nullptr),
               ropekit_tensor_make(c.buffers[5].data(), ROPEKIT_F32, 2, ks, nullptr)};
    c.config.head_size = w.head_size;
    c.config.style = ROPEKIT_ROPE_NEOX;
    c.feeds = {MakeTensor({t}, ge::DT_INT64, c.buffers[0]),
               MakeTensor({t, qw}, ge::DT_FLOAT, c.buffers[1]),
               MakeTensor({t, kw}, ge::DT_FLOAT, c.buffers[2]),
               MakeTensor({w.max_pos, w.rot_dim}, ge::DT_FLOAT, c.buffers[3])};
    ge::op::Data p = DataNode("positions", 0), q = DataNode("query", 1), k = DataNode("key", 2),
                 cc = DataNode("cache", 3);
    ge::op::RopeWithSinCosCache rope("rope");
    rope.set_input_positions(p).set_input_queryIn(q).set_input_keyIn(k).set_input_cosSinCache(cc);
    rope.set_attr_numQHeads(w.q_heads).set_attr_numKHeads(w.k_heads).set_attr_headSize(w.head_size);
    graph.SetInputs({p, q, k, cc}).SetOutputs({rope});
    /* read: positions, q, k and the cache rows used (at most T rows); written: q and k */
    c.bytes = static_cast<double>(t) * 8 + 2.0 * t * (qw + kw) * 4 +
              static_cast<double>(t < w.max_pos ? t : w.max_pos) * w.rot_dim * 4;
    return true;
}

bool SetUpPartialRotary(Case &c, ge::Graph &graph) {
    const rkb_workload &w = *c.w;
    const int64_t len = w.end - w.start;
    size_t xn = 1, cn = 1;
    for (int i = 0; i < 4; ++i) {
        xn *= static_cast<size_t>(w.x[i]);
        cn *= static_cast<size_t>(i < 3 ? w.cs[i] : len);
    }
    c.buffers = {Pattern(xn), Pattern(cn), Pattern(cn)};
    const int64_t xs[4] = {w.x[0], w.x[1], w.x[2], w.x[3]};
    const int64_t css[4] = {w.cs[0], w.cs[1], w.cs[2], len};
    c.views = {ropekit_tensor_make(c.buffers[0].data(), ROPEKIT_F32, 4, xs, nullptr),
               ropekit_tensor_make(c.buffers[1].data(), ROPEKIT_F32, 4, css, nullptr),
               ropekit_tensor_make(c.buffers[2].data(), ROPEKIT_F32, 4, css, nullptr)};
    std::vector<int64_t> xshape(xs, xs + 4), cshape(css, css + 4);
    c.feeds = {MakeTensor(xshape, ge::DT_FLOAT, c.buffers[0]),
               MakeTensor(cshape, ge::DT_FLOAT, c.buffers[1]),
               MakeTensor(cshape, ge::DT_FLOAT, c.buffers[2])};
    ge::op::Data x = DataNode("x", 0), cos = DataNode("cos", 1), sin = DataNode("sin", 2);
    std::vector<int64_t> slice = {w.start, w.end};
    if (w.kind == RKB_PARTIAL_GRAD) {
        ge::op::InplacePartialRotaryMulGrad op("rotate");
        op.set_input_dy(x).set_input_cos(cos).set_input_sin(sin);
        op.set_attr_rotary_mode(1).set_attr_partial_slice(slice);
        graph.SetInputs({x, cos, sin}).SetOutputs({op});
    } else {
        ge::op::InplacePartialRotaryMul op("rotate");
        op.set_input_x(x).set_input_cos(cos).set_input_sin(sin);
        op.set_attr_rotary_mode(1).set_attr_partial_slice(slice);
        graph.SetInputs({x, cos, sin}).SetOutputs({op});
    }
    /* the native in-place call reads and writes x's slice rows and reads cos/sin */
    c.bytes = 2.0 * static_cast<double>(xn) * 4 + 2.0 * static_cast<double>(cn) * 4;
    return true;
}

bool Wanted(const std::string &list, const char *id) {
    if (list.empty())
        return true;
    std::string padded = "," + list + ",";
    return padded.find("," + std::string(id) + ",") != std::string::npos;
}

} // namespace

int main(int argc, char **argv) {
    bool quick = false;
    std::string only = "W1,W2,D1,P1,P3";
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--quick")) {
            quick = true;
        } else if (!std::strcmp(argv[i], "--workload") && i + 1 < argc) {
            only = argv[++i];
        } else {
            std::fprintf(stderr, "usage: ropekit-ge-bench [--quick] [--workload W1,D1,...]\n");
            return 2;
        }
    }
    if (ge::GEInitialize(std::map<ge::AscendString, ge::AscendString>{}) != ge::SUCCESS) {
        std::fprintf(stderr, "GEInitialize: %s\n", ge::GEGetErrorMsgV2().GetString());
        return 1;
    }
    int status = 0;
    {
        ge::Session session(std::map<ge::AscendString, ge::AscendString>{});
        int count = 0;
        const rkb_workload *all = rkb_builtin(&count);
        std::printf("%-4s %-36s %12s %12s %10s %10s %8s\n", "id", "workload (fp32)", "native us",
                    "RunGraph us", "nat cpu", "ge cpu", "ge/nat");
        uint32_t next_id = 0;
        for (int i = 0; i < count; ++i) {
            const rkb_workload *w = &all[i];
            if (!Wanted(only, w->id))
                continue;
            Case c;
            c.w = w;
            c.session = &session;
            c.graph_id = next_id++;
            ge::Graph graph(w->id);
            bool ok = w->kind == RKB_ROPE ? SetUpRope(c, graph) : SetUpPartialRotary(c, graph);
            if (!ok || session.AddGraph(c.graph_id, graph) != ge::SUCCESS) {
                std::fprintf(stderr, "%s: %s\n", w->id, ge::GEGetErrorMsgV2().GetString());
                status = 1;
                continue;
            }
            rkb_task tasks[2] = {{NativeTask, &c, c.bytes}, {RunGraphTask, &c, c.bytes}};
            rkb_paired out;
            double budget = quick ? 0.2 : 3.0;
            if (!rkb_time_paired(tasks, 2, quick ? 2 : 7, budget, 3, 1000000, nullptr, &out) ||
                c.failed) {
                std::fprintf(stderr, "%s: a call failed: %s %s\n", w->id, ropekit_last_error(),
                             ge::GEGetErrorMsgV2().GetString());
                status = 1;
                continue;
            }
            std::printf("%-4s %-36s %12.2f %12.2f %10.2f %10.2f %8.2f\n", w->id, w->what,
                        out.t[0].median_s * 1e6, out.t[1].median_s * 1e6,
                        out.t[0].cpu_per_run_s * 1e6, out.t[1].cpu_per_run_s * 1e6,
                        out.ratio[0][1]);
            rkb_baselines_free();
        }
        std::printf("ge/nat: median over rounds of the native call's bandwidth over RunGraph's "
                    "(= RunGraph time / native time); cpu: library CPU us per call\n");
    }
    ge::GEFinalize();
    return status;
}
