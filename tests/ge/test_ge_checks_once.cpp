/* Graph mode checks each node's rules once per plan: the first RunGraph of a shape makes
 * the node's plan under CANN's rules (every rule but the data's, once), each run checks
 * only the data it binds (pointers, overlaps) and the positions' values. Counts come from
 * a build with ROPEKIT_COUNT_CHECKS (the suite's ASan build); elsewhere the test is skipped
 * (exit status 77). */
#include <cstdio>
#include <functional>
#include <map>

#include "ge_test_support.h"

extern "C" {
#include "ops/check_count.h"
#include "testkit/rules.h"
}

namespace {

using gt::Desc;
using gt::FloatTensor;
using gt::MakeData;

const std::map<ge::AscendString, ge::AscendString> kNoOptions;

/* Every rule of `op` checked as often as `want` says (rules it does not name: never). */
void ExpectCounts(enum rk_op_id op, int rule_count, const std::map<int, unsigned> &want, int run) {
    for (int r = 1; r < rule_count; r++) {
        auto it = want.find(r);
        unsigned expected = it == want.end() ? 0u : it->second;
        unsigned got = rk_check_count_of(op, r);
        if (got != expected)
            fail_msg("after run %d: rule %d checked %u times, expected %u", run, r, got, expected);
    }
}

/* Runs `graph` twice in one session with the same feeds; after_run(run) checks the counts. */
void RunTwice(const ge::Graph &graph, const std::vector<ge::Tensor> &inputs,
              const std::function<void(int)> &after_run) {
    ge::Session session(kNoOptions);
    assert_int_equal(session.AddGraph(1, graph), 0);
    for (int run = 1; run <= 2; run++) {
        std::vector<ge::Tensor> outputs;
        ge::Status st = session.RunGraph(1, inputs, outputs);
        if (st != 0)
            std::fprintf(stderr, "%s\n", gt::TakeError().c_str());
        assert_int_equal(st, 0);
        after_run(run);
    }
}

void partial_rotary_checks_once(void **) {
    const std::vector<int64_t> xs = {1, 2, 2, 8}, cs = {1, 2, 1, 8};
    ge::Graph graph("pr");
    ge::op::Data x = MakeData("x", 0, Desc(xs, ge::DT_FLOAT));
    ge::op::Data cos = MakeData("cos", 1, Desc(cs, ge::DT_FLOAT));
    ge::op::Data sin = MakeData("sin", 2, Desc(cs, ge::DT_FLOAT));
    ge::Operator op("rotate", "InplacePartialRotaryMul");
    op.SetInput("x", x).SetInput("cos", cos).SetInput("sin", sin);
    op.SetAttr("rotary_mode", static_cast<int64_t>(1));
    op.SetAttr("partial_slice", std::vector<int64_t>{0, 8});
    graph.SetInputs({x, cos, sin}).SetOutputs({op});
    const std::vector<ge::Tensor> feeds = {FloatTensor(xs, ge::DT_FLOAT, gt::Pattern(32, 1)),
                                           FloatTensor(cs, ge::DT_FLOAT, gt::Pattern(16, 2)),
                                           FloatTensor(cs, ge::DT_FLOAT, gt::Pattern(16, 3))};
    rk_check_count_reset();
    RunTwice(graph, feeds, [](int run) {
        std::map<int, unsigned> want;
        for (int r :
             {TK_PR_RULE_NULL, TK_PR_RULE_LAYOUT, TK_PR_RULE_X_DTYPE, TK_PR_RULE_CS_DTYPE,
              TK_PR_RULE_DTYPE_PAIR, TK_PR_RULE_OUT_DTYPE, TK_PR_RULE_RANK, TK_PR_RULE_CS_SHAPE,
              TK_PR_RULE_OUT_SHAPE, TK_PR_RULE_MODE, TK_PR_RULE_SLICE_SIZE, TK_PR_RULE_SLICE_RANGE,
              TK_PR_RULE_MAX_D, TK_PR_RULE_D_EVEN, TK_PR_RULE_L_MULTIPLE, TK_PR_RULE_CS_LEN,
              TK_PR_RULE_BROADCAST})
            want[r] = 1; /* once, when the node's plan is made */
        const unsigned runs = static_cast<unsigned>(run);
        want[TK_PR_RULE_DATA_NULL] = runs;   /* each run binds new data */
        want[TK_PR_RULE_OVERLAP] = 1 + runs; /* x overlapping itself at planning, then data */
        ExpectCounts(RK_OP_PARTIAL_ROTARY, TK_PR_RULE_COUNT, want, run);
    });
}

void rope_checks_once(void **) {
    const int64_t tokens = 2, hidden = 128, max_pos = 8;
    ge::Graph graph("rope");
    ge::op::Data pos = MakeData("positions", 0, Desc({3, tokens}, ge::DT_INT64));
    ge::op::Data q = MakeData("q", 1, Desc({tokens, hidden}, ge::DT_FLOAT));
    ge::op::Data k = MakeData("k", 2, Desc({tokens, hidden}, ge::DT_FLOAT));
    ge::op::Data cache = MakeData("cache", 3, Desc({max_pos, 128}, ge::DT_FLOAT));
    ge::Operator op("rope", "RopeWithSinCosCache");
    op.SetInput("positions", pos).SetInput("queryIn", q).SetInput("keyIn", k);
    op.SetInput("cosSinCache", cache);
    op.SetAttr("numQHeads", static_cast<int64_t>(1)).SetAttr("numKHeads", static_cast<int64_t>(1));
    op.SetAttr("headSize", static_cast<int64_t>(128));
    op.SetAttr("mropeSection", std::vector<int64_t>{16, 24, 24});
    op.SetAttr("cacheMode", static_cast<int64_t>(0));
    graph.SetInputs({pos, q, k, cache}).SetOutputs({op});
    const std::vector<ge::Tensor> feeds = {
        gt::Int64Tensor({3, tokens}, {0, 1, 2, 3, 4, 5}),
        FloatTensor({tokens, hidden}, ge::DT_FLOAT, gt::Pattern(256, 1)),
        FloatTensor({tokens, hidden}, ge::DT_FLOAT, gt::Pattern(256, 2)),
        gt::CosSinCache(max_pos, 128, ge::DT_FLOAT)};
    rk_check_count_reset();
    RunTwice(graph, feeds, [](int run) {
        std::map<int, unsigned> want;
        for (int r :
             {TK_ROPE_RULE_CACHE_MODE, TK_ROPE_RULE_NULL, TK_ROPE_RULE_LAYOUT,
              TK_ROPE_RULE_POS_DTYPE, TK_ROPE_RULE_DTYPE, TK_ROPE_RULE_RANK, TK_ROPE_RULE_EMPTY,
              TK_ROPE_RULE_TOKENS, TK_ROPE_RULE_OUT_SHAPE, TK_ROPE_RULE_SECTIONS,
              TK_ROPE_RULE_SECTION_VALUES, TK_ROPE_RULE_HEAD_SIZE, TK_ROPE_RULE_MODE_SECTIONS,
              TK_ROPE_RULE_HEADS, TK_ROPE_RULE_ALIGN, TK_ROPE_RULE_ROT_DIM, TK_ROPE_RULE_POS_SHAPE})
            want[r] = 1;
        const unsigned runs = static_cast<unsigned>(run);
        want[TK_ROPE_RULE_DATA_NULL] = runs;
        want[TK_ROPE_RULE_OVERLAP] = 1 + runs;
        want[TK_ROPE_RULE_POS_RANGE] = runs; /* the positions' values, as each run reads them */
        ExpectCounts(RK_OP_ROPE, TK_ROPE_RULE_COUNT, want, run);
    });
}

} // namespace

int main() {
    if (!rk_check_counting()) {
        std::printf("skipped: this build does not count checks (ROPEKIT_COUNT_CHECKS)\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(partial_rotary_checks_once),
        cmocka_unit_test(rope_checks_once),
    };
    return cmocka_run_group_tests(tests, gt::InitializeGe, gt::FinalizeGe);
}
