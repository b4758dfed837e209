/* What the GE fuzz target (tests/fuzz/fuzz_ge.cpp) found, one test each: a defect (an
 * empty feed refused), and edge behaviour the fuzzer's oracle had to learn, kept so that it
 * stays as documented. */
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "ge_test_support.h"

namespace {

const std::map<ge::AscendString, ge::AscendString> kNoOptions;

/* A forward rotation of x by cos/sin, all three fed, slice [0, D). */
ge::Graph Rotation(const char *name) {
    ge::op::Data x = gt::MakeData("x", 0), cos = gt::MakeData("cos", 1),
                 sin = gt::MakeData("sin", 2);
    ge::op::InplacePartialRotaryMul rotate("rotate");
    rotate.set_input_x(x).set_input_cos(cos).set_input_sin(sin);
    rotate.set_attr_rotary_mode(1).set_attr_partial_slice({0, 8});
    ge::Graph graph = name ? ge::Graph(name) : ge::Graph();
    graph.SetInputs({x, cos, sin}).SetOutputs({rotate});
    return graph;
}

/* aclgrphDumpGraph into a directory names the file after the graph; a graph without a
 * name is written to graph.txt (the fuzzer's oracle expected "<dir>/.txt"; the header now
 * says so). */
void dump_unnamed_graph_into_directory(void **state) {
    (void)state;
    char dir[] = "/tmp/ge_fuzz_findings.XXXXXX";
    assert_non_null(mkdtemp(dir));
    std::string path = std::string(dir) + "/";
    ge::Graph unnamed = Rotation("");
    assert_int_equal(ge::aclgrphDumpGraph(unnamed, path.c_str(), path.size()), ge::GRAPH_SUCCESS);
    std::string file = path + "graph.txt";
    struct stat sb;
    assert_int_equal(stat(file.c_str(), &sb), 0);
    assert_true(sb.st_size > 0);
    assert_int_equal(unlink(file.c_str()), 0);
    assert_int_equal(rmdir(dir), 0);
}

/* A feed with a zero dimension holds 0 bytes whatever its other dimensions. The element
 * count multiplied the dimensions in order and gave up on overflow before it reached the
 * 0, so [INT64_MAX, 2, 0, 8] was refused as "not a tensor of known size" while
 * [0, 2, INT64_MAX, 8] was accepted (the aclnn face and the native API accept both). Now
 * the rotation of the empty x is a no-op giving an empty output of the same shape. */
void empty_feed_with_huge_dimension(void **state) {
    (void)state;
    ge::Graph graph = Rotation("empty");
    ge::Session session(kNoOptions);
    assert_int_equal(session.AddGraph(1, graph), ge::SUCCESS);
    const std::vector<int64_t> x_shape = {INT64_MAX, 2, 0, 8}, cs_shape = {1, 2, 1, 8};
    ge::Tensor x(gt::Desc(x_shape, ge::DT_FLOAT), nullptr, 0);
    ge::Tensor cos = gt::FloatTensor(cs_shape, ge::DT_FLOAT, gt::Pattern(16, 1));
    ge::Tensor sin = gt::FloatTensor(cs_shape, ge::DT_FLOAT, gt::Pattern(16, 2));
    std::vector<ge::Tensor> outputs;
    assert_int_equal(session.RunGraph(1, {x, cos, sin}, outputs), ge::SUCCESS);
    assert_int_equal(outputs.size(), 1);
    assert_int_equal(outputs[0].GetSize(), 0);
    assert_true(outputs[0].GetTensorDesc().GetShape().GetDims() == x_shape);

    /* the same dimension on a tensor that has elements is refused, with a message */
    const std::vector<int64_t> huge = {INT64_MAX, 2, 1, 8};
    std::vector<uint8_t> little(64, 0);
    ge::Tensor lie(gt::Desc(huge, ge::DT_FLOAT), little.data(), little.size());
    gt::TakeError();
    outputs.clear();
    assert_int_not_equal(session.RunGraph(1, {lie, cos, sin}, outputs), ge::SUCCESS);
    assert_false(gt::TakeError().empty());
    assert_int_equal(outputs.size(), 0);
}

} // namespace

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dump_unnamed_graph_into_directory),
        cmocka_unit_test(empty_feed_with_huge_dimension),
    };
    return cmocka_run_group_tests(tests, gt::InitializeGe, gt::FinalizeGe);
}
