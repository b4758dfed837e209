/* Validation: every rule AddGraph and RunGraph enforce, each broken alone by the smallest
 * graph or feed that breaks it. Each test asserts the GE status of the call that must fail
 * and that GEGetErrorMsgV2() names the node, the input, output or attribute, the value and
 * the rule. A failed RunGraph leaves the caller's input tensors and outputs vector as they
 * were, and the session keeps working after any failure. Also GEInitialize's options,
 * sessions made before GEInitialize, and aclgrphDumpGraph's arguments and text. */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>

#include "ge/ge_error_codes.h"
#include "ge_test_support.h"
#include "ropekit/ropekit.h"

namespace {

using gt::Desc;
using gt::FloatTensor;
using gt::MakeData;

const std::map<ge::AscendString, ge::AscendString> kNoOptions;

/* The partial-rotary feeds every valid graph here is run with: x [B, S, N, D], cos/sin
 * [B, S, 1, D], slice [0, D). */
const std::vector<int64_t> kX = {1, 2, 2, 8};
const std::vector<int64_t> kCs = {1, 2, 1, 8};

bool SameBytes(const ge::Tensor &a, const ge::Tensor &b) {
    return a.GetSize() == b.GetSize() &&
           (a.GetSize() == 0 || std::memcmp(a.GetData(), b.GetData(), a.GetSize()) == 0);
}

ge::Tensor Int32Tensor(const std::vector<int64_t> &shape, const std::vector<int32_t> &values) {
    std::vector<uint8_t> bytes(values.size() * sizeof(int32_t));
    if (!values.empty())
        std::memcpy(bytes.data(), values.data(), bytes.size());
    return ge::Tensor(Desc(shape, ge::DT_INT32), bytes);
}

std::vector<ge::Tensor> PrFeeds(const std::vector<int64_t> &xs, const std::vector<int64_t> &cs,
                                ge::DataType dt = ge::DT_FLOAT) {
    size_t xn = 1, cn = 1;
    for (int64_t d : xs)
        xn *= static_cast<size_t>(d);
    for (int64_t d : cs)
        cn *= static_cast<size_t>(d);
    return {FloatTensor(xs, dt, gt::Pattern(xn, 1)), FloatTensor(cs, dt, gt::Pattern(cn, 2)),
            FloatTensor(cs, dt, gt::Pattern(cn, 3))};
}

/* Data x, cos, sin (indices 0-2, no declared description) into `op` (named by the caller)
 * with rotary_mode 1 and partial_slice {0, 8}: valid for PrFeeds(kX, kCs). */
ge::Graph PrGraph(const char *name, ge::op::InplacePartialRotaryMul &op) {
    ge::Graph graph(name);
    ge::op::Data x = MakeData("x", 0), cos = MakeData("cos", 1), sin = MakeData("sin", 2);
    op.set_input_x(x).set_input_cos(cos).set_input_sin(sin);
    op.set_attr_rotary_mode(1).set_attr_partial_slice({0, 8});
    graph.SetInputs({x, cos, sin}).SetOutputs({op});
    return graph;
}

/* What the native API makes of x (mode 1, slice [0, D)): what a valid run must return. */
std::vector<uint8_t> NativeRotate(const ge::Tensor &x, const ge::Tensor &cos,
                                  const ge::Tensor &sin) {
    std::vector<uint8_t> out(x.GetData(), x.GetData() + x.GetSize());
    auto tensor = [](const ge::Tensor &t, void *data) {
        std::vector<int64_t> dims = t.GetTensorDesc().GetShape().GetDims();
        return ropekit_tensor_make(data, static_cast<ropekit_dtype>(t.GetDataType()),
                                   static_cast<int32_t>(dims.size()), dims.data(), nullptr);
    };
    std::vector<int64_t> dims = x.GetTensorDesc().GetShape().GetDims();
    ropekit_tensor tx = tensor(x, out.data());
    ropekit_tensor tc = tensor(cos, const_cast<uint8_t *>(cos.GetData()));
    ropekit_tensor ts = tensor(sin, const_cast<uint8_t *>(sin.GetData()));
    assert_int_equal(ropekit_partial_rotary(&tx, &tc, &ts, ROPEKIT_ROTARY_INTERLEAVE, 0,
                                            dims.back(), ROPEKIT_FORWARD),
                     ROPEKIT_OK);
    return out;
}

ge::Status AddOrReport(ge::Session &session, uint32_t id, const ge::Graph &graph) {
    ge::Status st = session.AddGraph(id, graph);
    if (st != 0)
        std::fprintf(stderr, "AddGraph failed: %s\n", gt::TakeError().c_str());
    return st;
}

/* Runs `graph` (stored under `id`) on `feeds` and checks the result against the native
 * API: the session still does its work. */
void ExpectRunsValid(ge::Session &session, uint32_t id, const std::vector<ge::Tensor> &feeds) {
    std::vector<ge::Tensor> outputs;
    ge::Status st = session.RunGraph(id, feeds, outputs);
    if (st != 0)
        std::fprintf(stderr, "RunGraph failed: %s\n", gt::TakeError().c_str());
    assert_int_equal(st, 0);
    assert_int_equal(outputs.size(), 1);
    std::vector<uint8_t> want = NativeRotate(feeds[0], feeds[1], feeds[2]);
    assert_int_equal(outputs[0].GetSize(), want.size());
    assert_memory_equal(outputs[0].GetData(), want.data(), want.size());
}

/* After a failure: a valid graph can be added under `id` and run in the same session. */
void ExpectUsable(ge::Session &session, uint32_t id) {
    ge::op::InplacePartialRotaryMul op("rotate");
    ge::Graph graph = PrGraph("valid", op);
    assert_int_equal(AddOrReport(session, id, graph), 0);
    ExpectRunsValid(session, id, PrFeeds(kX, kCs));
    assert_int_equal(session.RemoveGraph(id), 0);
}

/* AddGraph(0, graph) fails with `status` and a message holding every fragment; nothing is
 * stored under id 0 (a valid graph is then added under it) and the session works. */
void ExpectAddFails(const ge::Graph &graph, ge::Status status,
                    const std::vector<std::string> &fragments) {
    ge::Session session(kNoOptions);
    (void)gt::TakeError();
    assert_int_equal(session.AddGraph(0, graph), status);
    gt::ExpectMentions(gt::TakeError(), fragments);
    ExpectUsable(session, 0);
}

/* RunGraph(id, inputs) fails with `status` and a message holding every fragment; the
 * inputs keep their bytes and descriptions; the outputs vector (one sentinel tensor) is
 * untouched. */
void ExpectRunFails(ge::Session &session, uint32_t id, const std::vector<ge::Tensor> &inputs,
                    ge::Status status, const std::vector<std::string> &fragments) {
    std::vector<ge::Tensor> before;
    for (const ge::Tensor &t : inputs)
        before.push_back(t.Clone());
    ge::Tensor sentinel = FloatTensor({2}, ge::DT_FLOAT, {7.0, 8.0});
    const uint8_t *sentinel_data = sentinel.GetData();
    std::vector<ge::Tensor> outputs = {sentinel};
    (void)gt::TakeError();
    assert_int_equal(session.RunGraph(id, inputs, outputs), status);
    gt::ExpectMentions(gt::TakeError(), fragments);
    assert_int_equal(inputs.size(), before.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
        assert_true(SameBytes(inputs[i], before[i]));
        assert_true(inputs[i].GetTensorDesc().GetShape().GetDims() ==
                    before[i].GetTensorDesc().GetShape().GetDims());
        assert_int_equal(inputs[i].GetDataType(), before[i].GetDataType());
    }
    assert_int_equal(outputs.size(), 1);
    assert_ptr_equal(outputs[0].GetData(), sentinel_data);
    assert_int_equal(outputs[0].GetSize(), 2 * sizeof(float));
    assert_true(gt::Values(outputs[0]) == (std::vector<double>{7.0, 8.0}));
}

/* ---- RopeWithSinCosCache ---- */

const int64_t kTokens = 3, kQHeads = 2, kKHeads = 1, kHeadSize = 64, kRot = 64, kMaxPos = 16;

/* Data positions, queryIn, keyIn, cosSinCache (indices 0-3, no declared description) into
 * `rope`, with numQHeads 2, numKHeads 1, headSize 64: valid for RopeFeeds(). */
ge::Graph RopeGraph(ge::op::RopeWithSinCosCache &rope) {
    ge::Graph graph("rope");
    ge::op::Data p = MakeData("positions", 0), q = MakeData("query", 1), k = MakeData("key", 2),
                 c = MakeData("cache", 3);
    rope.set_input_positions(p).set_input_queryIn(q).set_input_keyIn(k).set_input_cosSinCache(c);
    rope.set_attr_numQHeads(kQHeads).set_attr_numKHeads(kKHeads).set_attr_headSize(kHeadSize);
    graph.SetInputs({p, q, k, c}).SetOutputs({rope});
    return graph;
}

/* positions [3] (or [sections, 3]), queryIn [3, 128], keyIn [3, 64], cache [16, 64]. */
std::vector<ge::Tensor> RopeFeeds(ge::DataType dt, ge::DataType cache_dt,
                                  const std::vector<int64_t> &positions = {0, 5, 15}) {
    std::vector<int64_t> pos_shape = {kTokens};
    if (positions.size() != static_cast<size_t>(kTokens))
        pos_shape = {static_cast<int64_t>(positions.size()) / kTokens, kTokens};
    int64_t qw = kQHeads * kHeadSize, kw = kKHeads * kHeadSize;
    return {gt::Int64Tensor(pos_shape, positions),
            FloatTensor({kTokens, qw}, dt, gt::Pattern(static_cast<size_t>(kTokens * qw), 4)),
            FloatTensor({kTokens, kw}, dt, gt::Pattern(static_cast<size_t>(kTokens * kw), 5)),
            gt::CosSinCache(kMaxPos, kRot, cache_dt)};
}

void ExpectRopeRuns(ge::Session &session, uint32_t id, const std::vector<ge::Tensor> &feeds) {
    std::vector<ge::Tensor> outputs;
    ge::Status st = session.RunGraph(id, feeds, outputs);
    if (st != 0)
        std::fprintf(stderr, "RunGraph failed: %s\n", gt::TakeError().c_str());
    assert_int_equal(st, 0);
    assert_int_equal(outputs.size(), 2);
    assert_int_equal(outputs[0].GetSize(), feeds[1].GetSize());
    assert_int_equal(outputs[1].GetSize(), feeds[2].GetSize());
}

/* ================================ AddGraph ================================ */

/* Rule 1: a default-constructed graph has nothing in it; a named graph without operators
 * has no nodes to run. */
void empty_graphs(void **) {
    ge::Graph none;
    ExpectAddFails(none, ACL_ERROR_GE_PARAM_INVALID,
                   {"AddGraph(graph 0 \"\")", "the graph is empty", "default-constructed"});
    ge::Graph named("named");
    ExpectAddFails(named, ACL_ERROR_GE_PARAM_INVALID,
                   {"AddGraph(graph 0 \"named\")", "the graph has no operators"});
}

/* Rule 2: a type ropekit does not run. The message names the type and what ropekit runs,
 * also when the node was connected to its input as GE programs do (by input name). */
void unknown_operator_type(void **) {
    ge::op::Data d = MakeData("d", 0);
    ge::Operator lone("n", "Softmax");
    lone.AddControlInput(d);
    ge::Graph graph("unknown");
    graph.SetInputs({d}).SetOutputs({lone});
    ExpectAddFails(graph, ACL_ERROR_GE_PARAM_INVALID,
                   {"node \"n\" (Softmax)", "unknown operator type \"Softmax\"", "Data, Const",
                    "InplacePartialRotaryMul", "InplacePartialRotaryMulGrad",
                    "RopeWithSinCosCache"});

    ge::Operator connected("n", "Softmax");
    connected.SetInput("x", d);
    ge::Graph graph2("unknown_connected");
    graph2.SetInputs({d}).SetOutputs({connected});
    ExpectAddFails(graph2, ACL_ERROR_GE_PARAM_INVALID,
                   {"node \"n\" (Softmax)", "unknown operator type \"Softmax\"", "Data, Const",
                    "InplacePartialRotaryMul", "RopeWithSinCosCache"});
}

/* Rule 3: a required input left unconnected. */
void input_not_connected(void **) {
    ge::op::Data x = MakeData("x", 0), cos = MakeData("cos", 1);
    ge::op::InplacePartialRotaryMul op("rotate");
    op.set_input_x(x).set_input_cos(cos).set_attr_rotary_mode(1);
    ge::Graph graph("no_sin");
    graph.SetInputs({x, cos}).SetOutputs({op});
    ExpectAddFails(graph, ACL_ERROR_GE_PARAM_INVALID,
                   {"node \"rotate\" (InplacePartialRotaryMul)", "input sin is not connected"});
}

/* Rule 4: SetInput to an input the prototype lacks is recorded on the node and reported by
 * AddGraph, with the inputs the prototype has. */
void set_input_unknown_name(void **) {
    ge::op::InplacePartialRotaryMul op("rotate");
    ge::Graph graph = PrGraph("bad_input", op);
    ge::op::Data extra = MakeData("extra", 0);
    op.SetInput("y", extra);
    ExpectAddFails(graph, ACL_ERROR_GE_PARAM_INVALID,
                   {"AddGraph", "node \"rotate\" (InplacePartialRotaryMul)", "SetInput(y)",
                    "no such input", "inputs: x, cos, sin"});
}

/* Rule 5: reading an operator with two outputs needs the output named, by a name it has
 * or an index it has. With the right name the graph is accepted. */
void source_output_not_resolved(void **) {
    struct Case {
        int how; /* 0 no name, 1 wrong name, 2 index out of range, 3 right name */
        std::vector<std::string> fragments;
    };
    const Case cases[] = {
        {0,
         {"node \"rotate\" (InplacePartialRotaryMul)", "input x reads",
          "node \"rope\" (RopeWithSinCosCache)", "which has 2 outputs (queryOut, keyOut)",
          "name one"}},
        {1,
         {"node \"rotate\" (InplacePartialRotaryMul)", "input x reads output \"queryOutput\"",
          "node \"rope\" (RopeWithSinCosCache)", "which has outputs queryOut, keyOut"}},
        {2,
         {"node \"rotate\" (InplacePartialRotaryMul)", "input x reads output 2",
          "node \"rope\" (RopeWithSinCosCache)", "which has 2 outputs (queryOut, keyOut)"}},
        {3, {}},
    };
    for (const Case &c : cases) {
        ge::op::RopeWithSinCosCache rope("rope");
        ge::Graph rope_graph = RopeGraph(rope);
        ge::op::Data cos = MakeData("cos", 4), sin = MakeData("sin", 5);
        ge::op::InplacePartialRotaryMul op("rotate");
        op.set_input_cos(cos).set_input_sin(sin).set_attr_rotary_mode(1);
        if (c.how == 0)
            op.SetInput("x", rope);
        else if (c.how == 1)
            op.SetInput("x", rope, "queryOutput");
        else if (c.how == 2)
            op.SetInput("x", rope, 2u);
        else
            op.SetInput("x", rope, "queryOut");
        ge::Graph graph("two_outputs");
        graph.SetOutputs({op});
        if (!c.fragments.empty()) {
            ExpectAddFails(graph, ACL_ERROR_GE_PARAM_INVALID, c.fragments);
        } else {
            ge::Session session(kNoOptions);
            assert_int_equal(AddOrReport(session, 0, graph), 0);
        }
    }
}

/* Rule 6: a REQUIRED_ATTR not set. */
void required_attribute_missing(void **) {
    ge::Graph graph("rope");
    ge::op::Data p = MakeData("positions", 0), q = MakeData("query", 1), k = MakeData("key", 2),
                 c = MakeData("cache", 3);
    ge::op::RopeWithSinCosCache rope("rope");
    rope.set_input_positions(p).set_input_queryIn(q).set_input_keyIn(k).set_input_cosSinCache(c);
    rope.set_attr_numKHeads(kKHeads).set_attr_headSize(kHeadSize);
    graph.SetInputs({p, q, k, c}).SetOutputs({rope});
    ExpectAddFails(graph, ACL_ERROR_GE_PARAM_INVALID,
                   {"node \"rope\" (RopeWithSinCosCache)", "required attribute numQHeads (Int)",
                    "is not set"});
}

/* Rule 7: an attribute of another type than the prototype's; cacheMode, which the
 * prototype does not declare, must be Int when present. */
void attribute_wrong_type(void **) {
    ge::op::InplacePartialRotaryMul op("rotate");
    ge::Graph graph = PrGraph("float_mode", op);
    op.SetAttr("rotary_mode", 1.5f);
    ExpectAddFails(graph, ACL_ERROR_GE_PARAM_INVALID,
                   {"node \"rotate\" (InplacePartialRotaryMul)", "attribute rotary_mode = 1.5",
                    "is Float", "the prototype declares Int"});

    ge::op::RopeWithSinCosCache rope("rope");
    ge::Graph rope_graph = RopeGraph(rope);
    rope.SetAttr("cacheMode", true);
    ExpectAddFails(
        rope_graph, ACL_ERROR_GE_PARAM_INVALID,
        {"node \"rope\" (RopeWithSinCosCache)", "attribute cacheMode = true", "is Bool", "Int"});
}

/* Rule 8 (Data indices each its own, 0 to n-1) is gone: CANN's GE renumbers such Data
 * nodes in SetInputs' order, and so does ropekit (test_ge_input_binding). */

/* Rule 9: two nodes reading each other. */
void cycle(void **) {
    ge::op::Data cos = MakeData("cos", 0), sin = MakeData("sin", 1);
    ge::op::InplacePartialRotaryMul p1("p1"), p2("p2");
    p1.set_input_x(p2).set_input_cos(cos).set_input_sin(sin).set_attr_rotary_mode(1);
    p2.set_input_x(p1).set_input_cos(cos).set_input_sin(sin).set_attr_rotary_mode(1);
    ge::Graph graph("loop");
    graph.SetInputs({cos, sin}).SetOutputs({p1});
    ExpectAddFails(graph, ACL_ERROR_GE_PARAM_INVALID,
                   {"AddGraph(graph 0 \"loop\")", "the graph has a cycle", "\"p1\"", "\"p2\""});
    /* p1 and p2 hold each other: break the shared_ptr cycle */
    p1.BreakConnect();
    p2.BreakConnect();
}

/* Rule 10: two operators (of different types) with one name. */
void duplicate_operator_names(void **) {
    ge::op::Data n = MakeData("n", 0);
    ge::op::InplacePartialRotaryMul op("n");
    op.set_input_x(n).set_input_cos(n).set_input_sin(n).set_attr_rotary_mode(1);
    ge::Graph graph("names");
    graph.SetInputs({n}).SetOutputs({op});
    ExpectAddFails(graph, ACL_ERROR_GE_PARAM_INVALID,
                   {"node \"n\" (InplacePartialRotaryMul)", "node \"n\" (Data)",
                    "another operator of the graph has this name"});
}

/* Rule 11: the graph's outputs must be named, and exist. */
void graph_outputs(void **) {
    ge::op::Data d = MakeData("d", 0);
    ge::Graph none("none");
    none.SetInputs({d});
    ExpectAddFails(none, ACL_ERROR_GE_PARAM_INVALID,
                   {"AddGraph(graph 0 \"none\")", "the graph has no outputs", "SetOutputs"});

    ge::Graph by_index("by_index");
    by_index.SetOutputs(std::vector<std::pair<ge::Operator, std::vector<size_t>>>{{d, {1}}});
    ExpectAddFails(by_index, ACL_ERROR_GE_PARAM_INVALID,
                   {"node \"d\" (Data)", "graph output 1", "it has 1 outputs (y)"});

    ge::Graph by_name("by_name");
    std::vector<std::pair<ge::Operator, std::string>> named = {{d, "z"}};
    by_name.SetOutputs(named);
    ExpectAddFails(by_name, ACL_ERROR_GE_PARAM_INVALID,
                   {"node \"d\" (Data)", "graph output \"z\"", "no such output", "outputs: y"});
}

/* Rule 12: graph ids within a session. */
void graph_ids(void **) {
    ge::Session session(kNoOptions);
    ge::op::InplacePartialRotaryMul a("a"), b("b");
    ge::Graph first = PrGraph("first", a), second = PrGraph("second", b);
    assert_int_equal(AddOrReport(session, 4, first), 0);
    (void)gt::TakeError();
    assert_int_equal(session.AddGraph(4, second), ACL_ERROR_GE_PARAM_INVALID);
    gt::ExpectMentions(gt::TakeError(), {"AddGraph", "graph id 4 is already in use"});
    /* the first graph is still the one stored under 4 */
    ExpectRunsValid(session, 4, PrFeeds(kX, kCs));

    ExpectRunFails(session, 5, PrFeeds(kX, kCs), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID,
                   {"RunGraph", "no graph with id 5"});
    (void)gt::TakeError();
    assert_int_equal(session.RemoveGraph(5), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID);
    gt::ExpectMentions(gt::TakeError(), {"RemoveGraph", "no graph with id 5"});
    ExpectRunsValid(session, 4, PrFeeds(kX, kCs));
    ExpectUsable(session, 5);
}

/* Rule 13: a Data node reads nothing. */
void data_input_connected(void **) {
    ge::op::Data a = MakeData("a", 0), b = MakeData("b", 1);
    b.set_input_x(a);
    ge::Graph graph("fed_data");
    graph.SetInputs({a, b}).SetOutputs({b});
    ExpectAddFails(graph, ACL_ERROR_GE_PARAM_INVALID,
                   {"node \"b\" (Data)", "its input is connected", "a graph source reads nothing"});
}

/* Rule 14: the prototype's type list: checked at AddGraph when the Data declares its
 * description, at RunGraph when only the feed tells the dtype. */
void input_dtype_not_in_prototype(void **) {
    ge::op::Data x = MakeData("x", 0, Desc(kX, ge::DT_INT32));
    ge::op::Data cos = MakeData("cos", 1), sin = MakeData("sin", 2);
    ge::op::InplacePartialRotaryMul op("rotate");
    op.set_input_x(x).set_input_cos(cos).set_input_sin(sin).set_attr_rotary_mode(1);
    ge::Graph declared("declared");
    declared.SetInputs({x, cos, sin}).SetOutputs({op});
    ExpectAddFails(declared, ACL_ERROR_GE_DATATYPE_INVALID,
                   {"AddGraph", "node \"rotate\" (InplacePartialRotaryMul)",
                    "input x has dtype DT_INT32",
                    "the prototype allows DT_FLOAT16, DT_FLOAT, DT_BF16"});

    ge::Session session(kNoOptions);
    ge::op::InplacePartialRotaryMul op2("rotate");
    assert_int_equal(AddOrReport(session, 0, PrGraph("undeclared", op2)), 0);
    std::vector<ge::Tensor> feeds = PrFeeds(kX, kCs);
    feeds[0] = Int32Tensor(kX, std::vector<int32_t>(32, 3));
    ExpectRunFails(session, 0, feeds, ACL_ERROR_GE_DATATYPE_INVALID,
                   {"RunGraph(graph 0 \"undeclared\")", "node \"rotate\" (InplacePartialRotaryMul)",
                    "input x has dtype DT_INT32",
                    "the prototype allows DT_FLOAT16, DT_FLOAT, DT_BF16"});
    ExpectRunsValid(session, 0, PrFeeds(kX, kCs));
}

/* ================================ RunGraph ================================ */

/* Rule 15: the feeds against the graph's Data nodes and their declared descriptions. */
void feeds_count_dtype_shape_size(void **) {
    ge::Session session(kNoOptions);
    ge::op::Data x = MakeData("x", 0, Desc(kX, ge::DT_FLOAT));
    ge::op::Data cos = MakeData("cos", 1, Desc(kCs, ge::DT_FLOAT));
    ge::op::Data sin = MakeData("sin", 2, Desc(kCs, ge::DT_FLOAT));
    ge::op::InplacePartialRotaryMul op("rotate");
    op.set_input_x(x).set_input_cos(cos).set_input_sin(sin);
    op.set_attr_rotary_mode(1).set_attr_partial_slice({0, 8});
    ge::Graph graph("declared");
    graph.SetInputs({x, cos, sin}).SetOutputs({op});
    assert_int_equal(AddOrReport(session, 0, graph), 0);

    std::vector<ge::Tensor> two = PrFeeds(kX, kCs);
    two.pop_back();
    ExpectRunFails(session, 0, two, ACL_ERROR_GE_PARAM_INVALID,
                   {"RunGraph(graph 0 \"declared\")", "2 inputs given", "the graph reads 3"});

    std::vector<ge::Tensor> half = PrFeeds(kX, kCs);
    half[0] = PrFeeds(kX, kCs, ge::DT_FLOAT16)[0];
    ExpectRunFails(session, 0, half, ACL_ERROR_GE_DATATYPE_INVALID,
                   {"node \"x\" (Data)", "inputs[0] has dtype DT_FLOAT16, declared DT_FLOAT"});

    std::vector<ge::Tensor> longer = PrFeeds({1, 3, 2, 8}, {1, 3, 1, 8});
    ExpectRunFails(session, 0, longer, ACL_ERROR_GE_SHAPE_INVALID,
                   {"node \"x\" (Data)", "inputs[0] has shape [1, 3, 2, 8] DT_FLOAT",
                    "declared [1, 2, 2, 8] DT_FLOAT"});
    ExpectRunsValid(session, 0, PrFeeds(kX, kCs));

    /* A description with fewer bytes of data than it describes. */
    ge::op::Data e = MakeData("e", 0);
    ge::Graph echo("echo");
    echo.SetInputs({e}).SetOutputs({e});
    assert_int_equal(AddOrReport(session, 1, echo), 0);
    ge::Tensor short_data(Desc({4}, ge::DT_FLOAT), std::vector<uint8_t>(8, 0x5a));
    ExpectRunFails(session, 1, {short_data}, ACL_ERROR_GE_PARAM_INVALID,
                   {"RunGraph(graph 1 \"echo\")", "node \"e\" (Data)",
                    "inputs[0] is [4] DT_FLOAT, 16 bytes, but holds 8 bytes of data"});
    ge::Tensor four = FloatTensor({4}, ge::DT_FLOAT, {1, 2, 3, 4});
    std::vector<ge::Tensor> echoed;
    assert_int_equal(session.RunGraph(1, {four}, echoed), 0);
    assert_true(SameBytes(echoed[0], four));
}

/* Rule 15: -1 dims accept any size there; the known dims are still enforced. */
void declared_unknown_dims(void **) {
    ge::Session session(kNoOptions);
    ge::op::Data x = MakeData("x", 0, Desc({1, -1, 2, 8}, ge::DT_FLOAT));
    ge::op::Data cos = MakeData("cos", 1, Desc({1, -1, 1, 8}, ge::DT_FLOAT));
    ge::op::Data sin = MakeData("sin", 2, Desc({1, -1, 1, 8}, ge::DT_FLOAT));
    ge::op::InplacePartialRotaryMul op("rotate");
    op.set_input_x(x).set_input_cos(cos).set_input_sin(sin);
    op.set_attr_rotary_mode(1).set_attr_partial_slice({0, 8});
    ge::Graph graph("dynamic");
    graph.SetInputs({x, cos, sin}).SetOutputs({op});
    assert_int_equal(AddOrReport(session, 0, graph), 0);
    for (int64_t s : {1, 2, 5})
        ExpectRunsValid(session, 0, PrFeeds({1, s, 2, 8}, {1, s, 1, 8}));
    ExpectRunFails(session, 0, PrFeeds({1, 2, 3, 8}, {1, 2, 1, 8}), ACL_ERROR_GE_SHAPE_INVALID,
                   {"node \"x\" (Data)", "inputs[0] has shape [1, 2, 3, 8] DT_FLOAT",
                    "declared [1, -1, 2, 8] DT_FLOAT"});
}

/* Rule 16: InplacePartialRotaryMul's own rules, from aclnnInplacePartialRotaryMul. */
void partial_rotary_operator_rules(void **) {
    struct Case {
        bool set_mode;
        std::vector<int64_t> slice, xs, cs;
        std::vector<std::string> fragments;
    };
    const Case cases[] = {
        /* the prototype's default rotary_mode 0 is not what the operator accepts */
        {false,
         {0, 8},
         kX,
         kCs,
         {"rotary_mode = 0", "only 1 (interleave)", "as aclnnInplacePartialRotaryMul"}},
        {true,
         {4, 12},
         kX,
         kCs,
         {"slice = [4, 12)", "0 <= start <= end <= D = 8", "as aclnnInplacePartialRotaryMul"}},
        {true,
         {0, 8},
         {1, 2, 2, 16},
         {1, 2, 1, 4},
         {"cos last dim = 4", "must equal the slice length 8", "as aclnnInplacePartialRotaryMul"}},
    };
    for (const Case &c : cases) {
        ge::Session session(kNoOptions);
        ge::Graph graph("rules");
        ge::op::Data x = MakeData("x", 0), cos = MakeData("cos", 1), sin = MakeData("sin", 2);
        ge::op::InplacePartialRotaryMul op("rotate");
        op.set_input_x(x).set_input_cos(cos).set_input_sin(sin).set_attr_partial_slice(c.slice);
        if (c.set_mode)
            op.set_attr_rotary_mode(1);
        graph.SetInputs({x, cos, sin}).SetOutputs({op});
        assert_int_equal(AddOrReport(session, 0, graph), 0);
        std::vector<std::string> fragments = {"RunGraph(graph 0 \"rules\")",
                                              "node \"rotate\" (InplacePartialRotaryMul)"};
        fragments.insert(fragments.end(), c.fragments.begin(), c.fragments.end());
        ExpectRunFails(session, 0, PrFeeds(c.xs, c.cs), ACL_ERROR_GE_PARAM_INVALID, fragments);
        /* the operator's prefix appears once: the face's own entry point is dropped */
        ExpectRunFails(session, 0, PrFeeds(c.xs, c.cs), ACL_ERROR_GE_PARAM_INVALID, fragments);
        ExpectUsable(session, 1);
    }

    /* the gradient names its own aclnn operator */
    ge::Session session(kNoOptions);
    ge::Graph graph("grad");
    ge::op::Data dy = MakeData("dy", 0), cos = MakeData("cos", 1), sin = MakeData("sin", 2);
    ge::op::InplacePartialRotaryMulGrad grad("grad");
    grad.set_input_dy(dy).set_input_cos(cos).set_input_sin(sin).set_attr_partial_slice({0, 8});
    graph.SetInputs({dy, cos, sin}).SetOutputs({grad});
    assert_int_equal(AddOrReport(session, 0, graph), 0);
    ExpectRunFails(session, 0, PrFeeds(kX, kCs), ACL_ERROR_GE_PARAM_INVALID,
                   {"node \"grad\" (InplacePartialRotaryMulGrad)", "rotaryMode = 0",
                    "as aclnnInplacePartialRotaryMulGrad"});
}

/* A message carries the operator's name once, not "aclnnX...: ... (as aclnnX)". */
void aclnn_prefix_not_repeated(void **) {
    ge::Session session(kNoOptions);
    ge::Graph graph("prefix");
    ge::op::Data x = MakeData("x", 0), cos = MakeData("cos", 1), sin = MakeData("sin", 2);
    ge::op::InplacePartialRotaryMul op("rotate");
    op.set_input_x(x).set_input_cos(cos).set_input_sin(sin).set_attr_partial_slice({0, 8});
    graph.SetInputs({x, cos, sin}).SetOutputs({op});
    assert_int_equal(AddOrReport(session, 0, graph), 0);
    std::vector<ge::Tensor> outputs;
    (void)gt::TakeError();
    assert_int_equal(session.RunGraph(0, PrFeeds(kX, kCs), outputs), ACL_ERROR_GE_PARAM_INVALID);
    std::string message = gt::TakeError();
    size_t first = message.find("aclnnInplacePartialRotaryMul");
    assert_true(first != std::string::npos);
    if (message.find("aclnnInplacePartialRotaryMul", first + 1) != std::string::npos) {
        std::fprintf(stderr, "the operator is named twice:\n  %s\n", message.c_str());
        fail();
    }
}

/* Rule 16: RopeWithSinCosCache's own rules, from aclnnRopeWithSinCosCache. */
void rope_operator_rules(void **) {
    /* cache dtype differs from query's */
    {
        ge::Session session(kNoOptions);
        ge::op::RopeWithSinCosCache rope("rope");
        assert_int_equal(AddOrReport(session, 0, RopeGraph(rope)), 0);
        ExpectRunFails(
            session, 0, RopeFeeds(ge::DT_FLOAT, ge::DT_FLOAT16), ACL_ERROR_GE_PARAM_INVALID,
            {"RunGraph(graph 0 \"rope\")", "node \"rope\" (RopeWithSinCosCache)",
             "cosSinCache dtype", "must equal queryIn's dtype", "as aclnnRopeWithSinCosCache"});
        ExpectRopeRuns(session, 0, RopeFeeds(ge::DT_FLOAT, ge::DT_FLOAT));
    }
    /* int32 positions: the prototype names int32, the operator needs int64 */
    {
        ge::Session session(kNoOptions);
        ge::op::RopeWithSinCosCache rope("rope");
        assert_int_equal(AddOrReport(session, 0, RopeGraph(rope)), 0);
        std::vector<ge::Tensor> feeds = RopeFeeds(ge::DT_FLOAT, ge::DT_FLOAT);
        feeds[0] = Int32Tensor({kTokens}, {0, 5, 15});
        ExpectRunFails(session, 0, feeds, ACL_ERROR_GE_PARAM_INVALID,
                       {"node \"rope\" (RopeWithSinCosCache)", "positions dtype", "must be int64",
                        "as aclnnRopeWithSinCosCache"});
        ExpectRopeRuns(session, 0, RopeFeeds(ge::DT_FLOAT, ge::DT_FLOAT));
    }
    /* an mrope section sum that fits rotaryDim but is not one CANN supports */
    {
        ge::Session session(kNoOptions);
        ge::op::RopeWithSinCosCache rope("rope");
        ge::Graph graph = RopeGraph(rope);
        rope.set_attr_mropeSection({10, 10, 12});
        assert_int_equal(AddOrReport(session, 0, graph), 0);
        std::vector<int64_t> positions = {0, 1, 2, 3, 4, 5, 6, 7, 8};
        ExpectRunFails(session, 0, RopeFeeds(ge::DT_FLOAT, ge::DT_FLOAT, positions),
                       ACL_ERROR_GE_PARAM_INVALID,
                       {"node \"rope\" (RopeWithSinCosCache)", "mropeSection = [10,10,12]",
                        "CANN supports [16,24,24]", "as aclnnRopeWithSinCosCache"});
        ExpectUsable(session, 1);
    }
}

/* Rule 17: numQHeads * headSize must be queryIn's width; qStride 0 or that width. */
void rope_heads_and_stride(void **) {
    {
        ge::Session session(kNoOptions);
        ge::op::RopeWithSinCosCache rope("rope");
        ge::Graph graph = RopeGraph(rope);
        rope.set_attr_numQHeads(3);
        assert_int_equal(AddOrReport(session, 0, graph), 0);
        ExpectRunFails(
            session, 0, RopeFeeds(ge::DT_FLOAT, ge::DT_FLOAT), ACL_ERROR_GE_PARAM_INVALID,
            {"node \"rope\" (RopeWithSinCosCache)", "attribute numQHeads = 3 with headSize = 64",
             "queryIn rows are 128 wide", "numQHeads * headSize must equal 128"});
        ExpectUsable(session, 1);
    }
    {
        ge::Session session(kNoOptions);
        ge::op::RopeWithSinCosCache rope("rope");
        ge::Graph graph = RopeGraph(rope);
        rope.set_attr_qStride(64);
        assert_int_equal(AddOrReport(session, 0, graph), 0);
        ExpectRunFails(session, 0, RopeFeeds(ge::DT_FLOAT, ge::DT_FLOAT),
                       ACL_ERROR_GE_PARAM_INVALID,
                       {"node \"rope\" (RopeWithSinCosCache)", "attribute qStride = 64",
                        "must be 0 or the row width of queryIn, 128"});
        ExpectUsable(session, 1);
    }
    {
        /* qStride equal to the width is accepted */
        ge::Session session(kNoOptions);
        ge::op::RopeWithSinCosCache rope("rope");
        ge::Graph graph = RopeGraph(rope);
        rope.set_attr_qStride(128).set_attr_kStride(64);
        assert_int_equal(AddOrReport(session, 0, graph), 0);
        ExpectRopeRuns(session, 0, RopeFeeds(ge::DT_FLOAT, ge::DT_FLOAT));
    }
}

/* Rule 18: a position past the cache's rows, found by the native API when it runs; the
 * same graph then runs with valid positions. */
void rope_position_out_of_range(void **) {
    ge::Session session(kNoOptions);
    ge::op::RopeWithSinCosCache rope("rope");
    assert_int_equal(AddOrReport(session, 0, RopeGraph(rope)), 0);
    ExpectRunFails(session, 0, RopeFeeds(ge::DT_FLOAT, ge::DT_FLOAT, {0, 16, 3}),
                   ACL_ERROR_GE_PARAM_INVALID,
                   {"RunGraph(graph 0 \"rope\")", "node \"rope\" (RopeWithSinCosCache)",
                    "positions[0][1] = 16", "maxSeqLen = 16"});
    ExpectRopeRuns(session, 0, RopeFeeds(ge::DT_FLOAT, ge::DT_FLOAT));
}

/* Rule 19: a declared output description the operator does not produce. Known at AddGraph
 * when the Data declares its description; else found when RunGraph sees the feed. */
void declared_output_desc_mismatch(void **) {
    ge::op::Data x = MakeData("x", 0, Desc(kX, ge::DT_FLOAT));
    ge::op::Data cos = MakeData("cos", 1), sin = MakeData("sin", 2);
    ge::op::InplacePartialRotaryMul op("rotate");
    op.set_input_x(x).set_input_cos(cos).set_input_sin(sin);
    op.set_attr_rotary_mode(1).set_attr_partial_slice({0, 8});
    op.update_output_desc_x(Desc(kX, ge::DT_FLOAT16));
    ge::Graph declared("declared");
    declared.SetInputs({x, cos, sin}).SetOutputs({op});
    ExpectAddFails(declared, ACL_ERROR_GE_DATATYPE_INVALID,
                   {"AddGraph", "node \"rotate\" (InplacePartialRotaryMul)",
                    "output x is dtype DT_FLOAT, declared DT_FLOAT16", "update_output_desc_x"});

    ge::Session session(kNoOptions);
    ge::op::InplacePartialRotaryMul op2("rotate");
    ge::Graph graph = PrGraph("undeclared", op2);
    op2.update_output_desc_x(Desc(kX, ge::DT_FLOAT16));
    assert_int_equal(AddOrReport(session, 0, graph), 0);
    ExpectRunFails(session, 0, PrFeeds(kX, kCs), ACL_ERROR_GE_DATATYPE_INVALID,
                   {"RunGraph(graph 0 \"undeclared\")", "node \"rotate\" (InplacePartialRotaryMul)",
                    "output x is dtype DT_FLOAT, declared DT_FLOAT16", "update_output_desc_x"});

    ge::op::InplacePartialRotaryMul op3("rotate");
    ge::Graph shaped = PrGraph("shaped", op3);
    op3.update_output_desc_x(Desc({1, 2, 2, 16}, ge::DT_FLOAT));
    assert_int_equal(AddOrReport(session, 1, shaped), 0);
    ExpectRunFails(session, 1, PrFeeds(kX, kCs), ACL_ERROR_GE_SHAPE_INVALID,
                   {"node \"rotate\" (InplacePartialRotaryMul)",
                    "output x is shape [1, 2, 2, 8] DT_FLOAT, declared [1, 2, 2, 16] DT_FLOAT"});
    ExpectUsable(session, 2);
}

/* ============================ initialisation ============================ */

/* Rule 20: a session made before GEInitialize stays unusable, also after it. */
void session_before_initialize(void **) {
    assert_int_equal(ge::GEFinalize(), 0);
    (void)gt::TakeError();
    ge::Session early(kNoOptions);
    gt::ExpectMentions(gt::TakeError(), {"Session", "GEInitialize has not been called"});
    ge::op::InplacePartialRotaryMul op("rotate");
    ge::Graph graph = PrGraph("early", op);
    assert_int_equal(early.AddGraph(0, graph), ACL_ERROR_GE_EXEC_NOT_INIT);
    gt::ExpectMentions(gt::TakeError(), {"AddGraph", "the session is not usable",
                                         "GEInitialize has not been called"});
    ExpectRunFails(early, 0, PrFeeds(kX, kCs), ACL_ERROR_GE_EXEC_NOT_INIT,
                   {"RunGraph", "the session is not usable"});

    assert_int_equal(ge::GEInitialize(kNoOptions), 0);
    assert_int_equal(early.AddGraph(0, graph), ACL_ERROR_GE_EXEC_NOT_INIT);
    gt::ExpectMentions(gt::TakeError(), {"AddGraph", "made before GEInitialize"});
    ge::Session later(kNoOptions);
    ExpectUsable(later, 0);
}

/* Rule 20: GEInitialize's options: one device, 0; options it does not use are warned
 * about. A failed GEInitialize changes nothing. */
void initialize_options(void **) {
    const std::map<ge::AscendString, ge::AscendString> device1 = {{"ge.exec.deviceId", "1"}};
    const std::map<std::string, std::string> device1s = {{"ge.exec.deviceId", "1"}};
    (void)gt::TakeError();
    /* while initialised: refused, and the library stays initialised */
    assert_int_equal(ge::GEInitialize(device1), ACL_ERROR_GE_PARAM_INVALID);
    gt::ExpectMentions(gt::TakeError(),
                       {"GEInitialize", "option ge.exec.deviceId = \"1\"", "one device, 0"});
    {
        ge::Session session(kNoOptions);
        ExpectUsable(session, 0);
    }

    /* while finalised: refused, and the library stays finalised */
    assert_int_equal(ge::GEFinalize(), 0);
    assert_int_equal(ge::GEInitialize(device1s), ACL_ERROR_GE_PARAM_INVALID);
    gt::ExpectMentions(gt::TakeError(), {"GEInitialize", "option ge.exec.deviceId = \"1\""});
    {
        ge::Session session(kNoOptions);
        ge::op::InplacePartialRotaryMul op("rotate");
        assert_int_equal(session.AddGraph(0, PrGraph("refused", op)), ACL_ERROR_GE_EXEC_NOT_INIT);
        (void)gt::TakeError();
    }

    (void)ge::GEGetWarningMsgV2();
    const std::map<ge::AscendString, ge::AscendString> unknown = {{"ge.exec.deviceId", "0"},
                                                                  {"ge.someUnknownOption", "7"}};
    assert_int_equal(ge::GEInitialize(unknown), 0);
    std::string warnings = ge::GEGetWarningMsgV2().GetString();
    gt::ExpectMentions(warnings, {"GEInitialize", "ge.someUnknownOption = \"7\"", "no effect"});
    if (warnings.find("ge.exec.deviceId") != std::string::npos) {
        std::fprintf(stderr, "a used option is warned about:\n  %s\n", warnings.c_str());
        fail();
    }
    ge::Session session(kNoOptions);
    ExpectUsable(session, 0);
}

/* ============================= aclgrphDumpGraph ============================= */

std::string ReadFile(const std::string &path) {
    std::ifstream in(path.c_str());
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

/* Rule 21: the path's checks, and a dump's text. */
void dump_graph(void **) {
    const char *tmp = std::getenv("TMPDIR");
    std::string base = tmp && *tmp ? tmp : "/tmp";
    std::vector<char> templ(base.begin(), base.end());
    const char suffix[] = "/ge_dump_XXXXXX";
    templ.insert(templ.end(), suffix, suffix + sizeof suffix);
    assert_non_null(mkdtemp(templ.data()));
    std::string dir(templ.data());

    ge::op::InplacePartialRotaryMul op("rotate");
    ge::Graph graph = PrGraph("dumped", op);

    (void)gt::TakeError();
    assert_int_equal(ge::aclgrphDumpGraph(graph, nullptr, 0), ge::GRAPH_PARAM_INVALID);
    gt::ExpectMentions(gt::TakeError(), {"aclgrphDumpGraph", "non-empty path"});
    std::string file = dir + "/graph.txt";
    assert_int_equal(ge::aclgrphDumpGraph(graph, file.c_str(), file.size() - 1),
                     ge::GRAPH_PARAM_INVALID);
    gt::ExpectMentions(gt::TakeError(), {"aclgrphDumpGraph", "len"});
    std::string missing = dir + "/missing/graph.txt";
    assert_int_equal(ge::aclgrphDumpGraph(graph, missing.c_str(), missing.size()),
                     ge::GRAPH_PARAM_INVALID);
    gt::ExpectMentions(gt::TakeError(),
                       {"aclgrphDumpGraph", "directory \"" + dir + "/missing/\" does not exist"});
    ge::Graph none;
    assert_int_equal(ge::aclgrphDumpGraph(none, file.c_str(), file.size()),
                     ge::GRAPH_PARAM_INVALID);
    gt::ExpectMentions(gt::TakeError(), {"aclgrphDumpGraph", "the graph is empty"});
    assert_int_not_equal(access(file.c_str(), F_OK), 0); /* no failed call wrote a file */

    assert_int_equal(ge::aclgrphDumpGraph(graph, file.c_str(), file.size()), ge::GRAPH_SUCCESS);
    std::string text = ReadFile(file);
    gt::ExpectMentions(text,
                       {"graph \"dumped\"", "node \"rotate\" type InplacePartialRotaryMul",
                        "input  x <- \"x\"", "input  cos <- \"cos\"", "attr   rotary_mode = 1",
                        "attr   partial_slice = [0, 8]", "node \"x\" type Data", "attr   index = 0",
                        "node \"sin\" type Data", "attr   index = 2", "outputs: \"rotate\""});

    /* a path ending in '/' names the directory: the file is <graph name>.txt */
    std::string slash = dir + "/";
    assert_int_equal(ge::aclgrphDumpGraph(graph, slash.c_str(), slash.size()), ge::GRAPH_SUCCESS);
    std::string named = dir + "/dumped.txt";
    assert_true(ReadFile(named) == text);

    assert_int_equal(unlink(file.c_str()), 0);
    assert_int_equal(unlink(named.c_str()), 0);
    assert_int_equal(rmdir(dir.c_str()), 0);
}

} // namespace

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(empty_graphs),
        cmocka_unit_test(unknown_operator_type),
        cmocka_unit_test(input_not_connected),
        cmocka_unit_test(set_input_unknown_name),
        cmocka_unit_test(source_output_not_resolved),
        cmocka_unit_test(required_attribute_missing),
        cmocka_unit_test(attribute_wrong_type),
        cmocka_unit_test(cycle),
        cmocka_unit_test(duplicate_operator_names),
        cmocka_unit_test(graph_outputs),
        cmocka_unit_test(graph_ids),
        cmocka_unit_test(data_input_connected),
        cmocka_unit_test(input_dtype_not_in_prototype),
        cmocka_unit_test(feeds_count_dtype_shape_size),
        cmocka_unit_test(declared_unknown_dims),
        cmocka_unit_test(partial_rotary_operator_rules),
        cmocka_unit_test(aclnn_prefix_not_repeated),
        cmocka_unit_test(rope_operator_rules),
        cmocka_unit_test(rope_heads_and_stride),
        cmocka_unit_test(rope_position_out_of_range),
        cmocka_unit_test(declared_output_desc_mismatch),
        cmocka_unit_test(session_before_initialize),
        cmocka_unit_test(initialize_options),
        cmocka_unit_test(dump_graph),
    };
    return cmocka_run_group_tests(tests, gt::InitializeGe, gt::FinalizeGe);
}
