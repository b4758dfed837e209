"""Checks the output file one of CANN's GE IR RoPE examples wrote against a float64
reference of the input files it wrote beside it.

usage: check_cann_graph_output.py EXAMPLE.cpp RUN_DIR

CANN's test_geir_interleave_rope.cpp builds x (inputXShape) and cos, sin (inputCosShape)
in float16, runs InterleaveRope (interleave-half, mode 3 of the rotary pairs) and writes
every input and output as raw bytes: tc_ge_irrun_test_0008_npu_input_<i>.bin and
..._output_0.bin. Every output element must be within SPEC §6's float16 bound of the
float64 reference (rtol 1e-3 of the two products' magnitudes, atol 2^-24). The example
also prints the output read as int32 over its element count, twice the output's bytes,
so half of those lines come from past the buffer: this checks the file instead."""
import os
import re
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_cann_aclnn_example import reference  # noqa: E402

MODES = {"InterleaveRope": 3}


def _shape(src, name):
    m = re.search(r"\b" + name + r"\s*=\s*\{([^}]*)\}", src)
    if not m:
        sys.exit(f"{name} not found in the example")
    return [int(v) for v in m.group(1).split(",") if v.strip()]


def _f16(path, count):
    data = open(path, "rb").read()
    if len(data) != 2 * count:
        sys.exit(f"{path}: {len(data)} bytes, want {2 * count}")
    return [float(v) for v in struct.unpack(f"<{count}e", data)]


def _numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def main():
    src = open(sys.argv[1], encoding="utf-8").read()
    run = sys.argv[2]
    ops = [o for o in re.findall(r"op::(\w+)\(", src) if o in MODES]
    if not ops:
        sys.exit(f"no operator of {sorted(MODES)} in the example")
    op = ops[0]
    xshape, cshape = _shape(src, "inputXShape"), _shape(src, "inputCosShape")
    stem = os.path.join(run, "tc_ge_irrun_test_0008_npu_")
    x = _f16(stem + "input_0.bin", _numel(xshape))
    c = _f16(stem + "input_1.bin", _numel(cshape))
    s = _f16(stem + "input_2.bin", _numel(cshape))
    got = _f16(stem + "output_0.bin", _numel(xshape))
    want, mag = reference(x, c, s, xshape, cshape, MODES[op])
    bad = [i for i in range(len(want)) if not abs(got[i] - want[i]) <= 1e-3 * mag[i] + 2.0**-24]
    for i in bad[:5]:
        print(f"output[{i}] = {got[i]!r}, reference {want[i]!r}")
    print(f"{len(want) - len(bad)} of {len(want)} outputs match the float64 reference "
          f"({op}, x {xshape}, cos {cshape})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
