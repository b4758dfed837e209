/* Sessions used from several threads at once: one stored graph run by every thread (its
 * nodes' plan caches filled concurrently, for several shapes), each thread's own session,
 * and graphs added and removed in the shared session while other threads run graphs of it.
 * Every result is bit-identical to the native API's; ThreadSanitizer runs this too. */
#include <atomic>
#include <cstring>
#include <map>
#include <thread>

#include "ge_test_support.h"
#include "ropekit/ropekit.h"

namespace {

using gt::Desc;
using gt::FloatTensor;
using gt::MakeData;

enum { kThreads = 4, kRounds = 24, kShapes = 3 };

const std::map<ge::AscendString, ge::AscendString> kNoOptions;

/* RopeWithSinCosCache over four Data nodes without declared descriptions, so that one
 * stored graph serves every shape. */
ge::Graph RopeGraph() {
    ge::Graph graph("rope");
    ge::op::Data p = MakeData("positions", 0), q = MakeData("query", 1), k = MakeData("key", 2),
                 c = MakeData("cache", 3);
    ge::op::RopeWithSinCosCache rope("rope");
    rope.set_input_positions(p).set_input_queryIn(q).set_input_keyIn(k).set_input_cosSinCache(c);
    rope.set_attr_numQHeads(2).set_attr_numKHeads(1).set_attr_headSize(64);
    graph.SetInputs({p, q, k, c}).SetOutputs({rope});
    return graph;
}

struct Feed {
    std::vector<ge::Tensor> inputs;
    std::vector<std::vector<uint8_t>> want; /* queryOut, keyOut from the native API */
};

Feed MakeFeed(int64_t tokens, int salt) {
    const int64_t max_pos = 64, rot = 64, qw = 128, kw = 64;
    Feed f;
    std::vector<int64_t> positions(static_cast<size_t>(tokens));
    for (int64_t t = 0; t < tokens; ++t)
        positions[static_cast<size_t>(t)] = (t * 7 + salt) % max_pos;
    f.inputs.push_back(gt::Int64Tensor({tokens}, positions));
    f.inputs.push_back(FloatTensor({tokens, qw}, ge::DT_FLOAT,
                                   gt::Pattern(static_cast<size_t>(tokens * qw), salt)));
    f.inputs.push_back(FloatTensor({tokens, kw}, ge::DT_FLOAT,
                                   gt::Pattern(static_cast<size_t>(tokens * kw), salt + 1)));
    f.inputs.push_back(gt::CosSinCache(max_pos, rot, ge::DT_FLOAT));
    f.want.assign(2, std::vector<uint8_t>());
    f.want[0].resize(f.inputs[1].GetSize());
    f.want[1].resize(f.inputs[2].GetSize());
    auto tensor = [](const ge::Tensor &t, void *data) {
        std::vector<int64_t> dims = t.GetTensorDesc().GetShape().GetDims();
        return ropekit_tensor_make(data, static_cast<ropekit_dtype>(t.GetDataType()),
                                   static_cast<int32_t>(dims.size()), dims.data(), nullptr);
    };
    std::vector<ropekit_tensor> in;
    for (const ge::Tensor &t : f.inputs)
        in.push_back(tensor(t, const_cast<uint8_t *>(t.GetData())));
    ropekit_tensor qo = tensor(f.inputs[1], f.want[0].data());
    ropekit_tensor ko = tensor(f.inputs[2], f.want[1].data());
    int64_t none[3] = {0, 0, 0};
    ropekit_rope_config config = {64, ROPEKIT_ROPE_NEOX, none, 3, 0, nullptr};
    assert_int_equal(ropekit_rope(&in[0], &in[1], &in[2], &in[3], &qo, &ko, &config), ROPEKIT_OK);
    return f;
}

bool Matches(const std::vector<ge::Tensor> &out, const Feed &f) {
    return out.size() == 2 && out[0].GetSize() == f.want[0].size() &&
           out[1].GetSize() == f.want[1].size() &&
           std::memcmp(out[0].GetData(), f.want[0].data(), f.want[0].size()) == 0 &&
           std::memcmp(out[1].GetData(), f.want[1].data(), f.want[1].size()) == 0;
}

void threads_share_a_session_and_a_graph(void **) {
    std::vector<Feed> feeds;
    for (int s = 0; s < kShapes; ++s)
        feeds.push_back(MakeFeed(3 + 5 * s, s));
    ge::Session shared(kNoOptions);
    assert_int_equal(shared.AddGraph(0, RopeGraph()), 0);

    std::atomic<int> failures(0), mismatches(0);
    std::vector<std::thread> threads;
    for (int id = 0; id < kThreads; ++id)
        threads.emplace_back([&, id]() {
            ge::Session own(kNoOptions);
            if (own.AddGraph(0, RopeGraph()) != 0)
                ++failures;
            for (int r = 0; r < kRounds; ++r) {
                const Feed &f = feeds[static_cast<size_t>((r + id) % kShapes)];
                std::vector<ge::Tensor> out;
                if (shared.RunGraph(0, f.inputs, out) != 0)
                    ++failures;
                else if (!Matches(out, f))
                    ++mismatches;
                if (own.RunGraph(0, f.inputs, out) != 0)
                    ++failures;
                else if (!Matches(out, f))
                    ++mismatches;
                /* graphs come and go in the shared session while others run graph 0 */
                uint32_t mine = 100 + static_cast<uint32_t>(id);
                if (shared.AddGraph(mine, RopeGraph()) != 0 ||
                    shared.RunGraph(mine, f.inputs, out) != 0 || shared.RemoveGraph(mine) != 0)
                    ++failures;
                else if (!Matches(out, f))
                    ++mismatches;
            }
        });
    for (std::thread &t : threads)
        t.join();
    if (failures.load() != 0)
        std::fprintf(stderr, "%s\n", gt::TakeError().c_str());
    assert_int_equal(failures.load(), 0);
    assert_int_equal(mismatches.load(), 0);
}

/* A graph removed by one thread while another runs it: the run finishes with its own
 * reference; later runs report the id as unknown. */
void remove_while_running(void **) {
    Feed f = MakeFeed(40, 9);
    ge::Session session(kNoOptions);
    std::atomic<int> bad(0);
    for (int round = 0; round < 8; ++round) {
        assert_int_equal(session.AddGraph(5, RopeGraph()), 0);
        std::thread runner([&]() {
            for (int i = 0; i < 20; ++i) {
                std::vector<ge::Tensor> out;
                ge::Status st = session.RunGraph(5, f.inputs, out);
                if (st == 0 && !Matches(out, f))
                    ++bad;
                if (st != 0 && st != ACL_ERROR_GE_EXEC_MODEL_ID_INVALID)
                    ++bad;
                if (st != 0)
                    (void)gt::TakeError();
            }
        });
        std::this_thread::yield();
        assert_int_equal(session.RemoveGraph(5), 0);
        runner.join();
    }
    assert_int_equal(bad.load(), 0);
}

} // namespace

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(threads_share_a_session_and_a_graph),
        cmocka_unit_test(remove_while_running),
    };
    return cmocka_run_group_tests(tests, gt::InitializeGe, gt::FinalizeGe);
}
