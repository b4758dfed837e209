"""The Python binding itself: bf16 helpers, dtype and mode handling, errors (status,
message, nothing written), CANN's Python API (SPEC section 7), and the aclnn helper's
tensor construction (offset and storage)."""
import numpy as np
import pytest

import checks
import emulate
import golden
import ropekit
import ropekit.aclnn as aclnn
from cases import rng_for
from checks import BF16, F16, F32


def test_spec_check_vector():
    # SPEC 3.3: v=[1,2,3,4], c=[.5,.5,.25,.25], s=[.1,.2,.3,.4] => [0.3,1.2,-0.45,2.2].
    v = np.array([1, 2, 3, 4], np.float32)
    c = np.array([.5, .5, .25, .25], np.float32)
    s = np.array([.1, .2, .3, .4], np.float32)
    ref, _ = golden.forward(v.astype(np.float64), c.astype(np.float64), s.astype(np.float64),
                            1, 0, 4)
    np.testing.assert_allclose(ref, [0.3, 1.2, -0.45, 2.2], rtol=1e-6)
    ropekit.partial_rotary(v, c, s, "interleave")
    np.testing.assert_allclose(v, [0.3, 1.2, -0.45, 2.2], rtol=1e-6)


def test_bf16_helpers_round_to_nearest_even():
    rng = rng_for("bf16")
    raw = rng.integers(0, 2 ** 32, 200000, dtype=np.uint64).astype(np.uint32)
    edge = np.array([0x3F808000, 0x3F818000, 0x3F80FFFF, 0x7F7FFFFF, 0x7F7F8000, 0xFF7F8000,
                     0x7F800000, 0xFF800000, 0x7FC00001, 0xFF800001, 0x00008000, 0x00018000,
                     0x80000001, 0x00000000], np.uint32)
    f = np.concatenate([raw, edge]).view(np.float32)
    got, want = ropekit.bf16_from_f32(f), emulate.to_bf16_bits(f)
    nan = np.isnan(f)
    assert np.array_equal(got[~nan], want[~nan])
    assert np.isnan(ropekit.bf16_to_f32(got[nan])).all()
    assert np.array_equal(np.signbit(ropekit.bf16_to_f32(got[nan])), np.signbit(f[nan]))
    bits = np.arange(65536, dtype=np.uint16)
    wide = ropekit.bf16_to_f32(bits)
    assert np.array_equal(wide.view(np.uint32) >> 16, bits)
    assert np.array_equal(ropekit.bf16_from_f32(wide)[~np.isnan(wide)], bits[~np.isnan(wide)])


def test_int_modes_and_dtype_names():
    rng = rng_for("names")
    x = checks.values(rng, (3, 16), BF16)
    cos, sin = checks.cs_arrays(rng, (16,), F16)
    a, b = x.copy(), x.copy()
    ropekit.partial_rotary(a, cos, sin, "interleave-half", x_dtype="bf16")
    ropekit.partial_rotary(b, cos, sin, 3, x_dtype="bfloat16", cs_dtype=np.float16)
    assert a.tobytes() == b.tobytes()
    with pytest.raises(TypeError):
        ropekit.partial_rotary(x, cos, sin)  # uint16 without x_dtype="bf16"
    with pytest.raises(ValueError):
        ropekit.partial_rotary(x, cos, sin, "neox", x_dtype="bf16")
    with pytest.raises(TypeError):  # float64 bits under a float32 name
        ropekit.partial_rotary(x.view(np.float16).astype(np.float64), cos, sin, x_dtype="f32")
    with pytest.raises(ropekit.RopekitError, match="float64 goes with float64 only"):
        ropekit.partial_rotary(x.view(np.float16).astype(np.float64), cos, sin)
    a = x.view(np.float16).astype(np.float64)
    b = a.copy()
    ropekit.partial_rotary(a, cos.astype(np.float64), sin.astype(np.float64), "half")
    ropekit.partial_rotary(b, cos.astype(np.float64), sin.astype(np.float64), 0, x_dtype="f64",
                           cs_dtype=np.float64)
    assert a.tobytes() == b.tobytes()


ERRORS = [
    # x shape, cos shape, mode, start, end: each rejected by the library
    ((2, 16), (15,), 1, 0, 15),      # odd slice length
    ((2, 16), (6,), 2, 0, 6),        # quarter needs a multiple of 4
    ((2, 16), (16,), 4, 0, 16),      # unknown mode
    ((2, 16), (8,), 1, 10, 18),      # slice beyond D
    ((2, 16), (8,), 1, -2, 6),       # negative start
    ((2, 16), (8,), 1, 0, 10),       # cos length != slice length
    ((3, 16), (2, 16), 1, 0, 16),    # broadcast mismatch
    ((16,), (1, 16), 1, 0, 16),      # cos rank above x rank
]


@pytest.mark.parametrize("x_shape,cs_shape,mode,start,end", ERRORS, ids=str)
def test_native_errors_raise_and_write_nothing(x_shape, cs_shape, mode, start, end):
    rng = rng_for("err", x_shape, cs_shape, mode, start, end)
    x = checks.values(rng, x_shape, F32)
    cos, sin = checks.cs_arrays(rng, cs_shape, F32)
    before = x.copy()
    with pytest.raises(ropekit.RopekitError) as info:
        ropekit.partial_rotary(x, cos, sin, mode, start, end)
    assert info.value.status == 2  # ROPEKIT_INVALID_ARGUMENT
    assert "ropekit_partial_rotary" in info.value.message
    assert ropekit.last_error() in info.value.message
    assert x.tobytes() == before.tobytes()
    # the API named once, then the library's text, then the status by name and number
    text = str(info.value)
    assert text.count("ropekit_partial_rotary") == 1, text
    assert text == f"{ropekit.last_error()} (ROPEKIT_INVALID_ARGUMENT, status 2)", text


def test_read_only_x_and_mixed_cos_sin_types():
    x = np.zeros((2, 8), np.float32)
    cos = np.ones(8, np.float32)
    with pytest.raises(ValueError):
        ropekit.partial_rotary(np.broadcast_to(x, (2, 8)), cos, cos)
    with pytest.raises(ropekit.RopekitError):
        ropekit.partial_rotary(x, cos, cos.astype(np.float16))


# ---- the generated ABI module ---------------------------------------------------------

def test_structs_follow_the_generated_layouts():
    # the package's ctypes structs are the headers' (sizeof and every offset), and the
    # names of the values are what the loaded library says
    import ctypes

    from ropekit import _abi, _structs
    from ropekit._tensor import RopekitTensor
    from ropekit.rope import _RopeConfig
    from ropekit.tables import _ScalingStruct
    for cls, name in ((RopekitTensor, "ropekit_tensor"), (_RopeConfig, "ropekit_rope_config"),
                      (_ScalingStruct, "ropekit_rope_scaling")):
        size, fields = _abi.STRUCTS[name]
        assert ctypes.sizeof(cls) == size
        assert [(f, getattr(cls, f).offset) for f, _, _ in fields] == \
            [(f, o) for f, _, o in fields]
    assert [ropekit.status_name(v) for v in _abi.ropekit_status_names] == \
        list(_abi.ropekit_status_names.values())
    assert ropekit.native.ISAS == tuple(_abi.ropekit_isa_names.values())
    # a layout ctypes does not reproduce is refused when the struct is made
    size, fields = _abi.STRUCTS["ropekit_tensor"]
    moved = tuple((f, t, o + 4 if f == "ndim" else o) for f, t, o in fields)
    with pytest.raises(ImportError, match="ropekit_tensor.ndim at offset 12, the library at 16"):
        _structs.make("ropekit_tensor", (size, moved))
    with pytest.raises(ImportError, match=f"{size} bytes, the library {size + 8}"):
        _structs.make("ropekit_tensor", (size + 8, fields))


def test_bf16_conversions_are_the_library_s():
    import ctypes

    from ropekit._lib import bind
    one = bind("ropekit_f32_to_bf16", ctypes.c_uint16, [ctypes.c_float])
    values = np.array([1.00390625, 1.01171875, -3.4e38, 3.4e38, np.inf, 1e-40, -0.0],
                      np.float32)
    assert list(ropekit.bf16_from_f32(values)) == [one(float(v)) for v in values]
    assert ropekit.bf16_from_f32(np.zeros((2, 0, 3))).shape == (2, 0, 3)
    assert ropekit.bf16_to_f32(np.zeros((3, 2), np.uint16)).shape == (3, 2)


# ---- CANN's Python API --------------------------------------------------------------

def test_cann_api_matches_native_face():
    rng = rng_for("cann")
    for mode_name in ("half", "interleave", "quarter", "interleave-half"):
        for bwd in (False, True):
            x = checks.values(rng, (2, 3, 4, 40), BF16)
            cos, sin = checks.cs_arrays(rng, (2, 3, 1, 16), F32)
            a, b = x.copy(), x.copy()
            fn = ropekit.inplace_partial_rotary_mul_backward if bwd else \
                ropekit.inplace_partial_rotary_mul
            assert fn(a, cos, sin, rotary_mode=mode_name, partial_slice=[8, 24],
                      x_dtype="bf16") is None
            ropekit.partial_rotary(b, cos, sin, mode_name, 8, 24, bwd, x_dtype="bf16")
            assert a.tobytes() == b.tobytes()
            checks.check_all(x, a, BF16, cos, sin, F32, checks.MODE_NAMES.index(mode_name),
                             8, 24, bwd)


def test_cann_api_default_slice_is_noop():
    rng = rng_for("cann-noop")
    x = checks.values(rng, (2, 3, 4, 16), F16)
    cos, sin = checks.cs_arrays(rng, (2, 3, 4, 16), F16)
    before = x.copy()
    ropekit.inplace_partial_rotary_mul(x, cos, sin)
    ropekit.inplace_partial_rotary_mul_backward(x, cos, sin)
    assert x.tobytes() == before.tobytes()


def test_cann_api_checks():
    x = np.zeros((2, 3, 16), np.float32)
    cos = np.ones((1, 1, 1, 16), np.float32)
    with pytest.raises(ValueError):  # x must be 4-D
        ropekit.inplace_partial_rotary_mul(x, cos, cos, partial_slice=[0, 16])
    x4 = np.zeros((2, 3, 1, 16), np.float32)
    with pytest.raises(ValueError):  # two values
        ropekit.inplace_partial_rotary_mul(x4, cos, cos, partial_slice=[0, 8, 16])
    with pytest.raises(ValueError):
        ropekit.inplace_partial_rotary_mul(x4, cos, cos, rotary_mode="rotate",
                                           partial_slice=[0, 16])
    for bad in ([-2, 14], [8, 4], [0, 18]):
        with pytest.raises(ValueError):
            ropekit.inplace_partial_rotary_mul_backward(x4, cos, cos, partial_slice=bad)
    with pytest.raises(ValueError):  # backward wants contiguous tensors
        ropekit.inplace_partial_rotary_mul_backward(
            np.zeros((2, 3, 1, 32), np.float32)[..., ::2], cos, cos, partial_slice=[0, 16])
    with pytest.raises(ropekit.RopekitError):  # the library still validates the rest
        ropekit.inplace_partial_rotary_mul(x4, cos[..., :8], cos[..., :8], partial_slice=[0, 6])


# ---- the aclnn helper -----------------------------------------------------------------

def test_aclnn_explicit_offset_and_storage():
    # x described as (offset, strides, storage) over a flat buffer, the CANN way.
    rng = rng_for("aclnn-raw")
    flat = checks.values(rng, (200,), F32)
    x_view = np.lib.stride_tricks.as_strided(flat[5:], (2, 3, 1, 8), (96, 32, 32, 4))
    cos, sin = checks.cs_arrays(rng, (1, 3, 1, 8), F32)
    expected = x_view.copy()
    ropekit.partial_rotary(expected, cos, sin, 1, 0, 8)
    before = flat.copy()
    tx = aclnn.create_tensor_raw(flat, (2, 3, 1, 8), "f32", (24, 8, 8, 1), 5, (200,))
    tc, ts = aclnn.create_tensor(cos), aclnn.create_tensor(sin)
    res = aclnn.run_tensors("forward", tx, tc, ts, 1, [0, 8])
    assert res.ok, res
    assert x_view.tobytes() == expected.tobytes()
    touched = np.zeros(200, bool)
    for i in range(2):
        for j in range(3):
            touched[5 + 24 * i + 8 * j: 5 + 24 * i + 8 * j + 8] = True
    assert flat[~touched].tobytes() == before[~touched].tobytes()
    # A view that reaches past its storage is refused by aclCreateTensor.
    assert aclnn.create_tensor_raw(flat, (2, 3, 1, 8), "f32", (24, 8, 8, 1), 160, (200,)) is None


def test_aclnn_codes():
    rng = rng_for("aclnn-codes")
    x = checks.values(rng, (1, 2, 2, 16), F32)
    cos, sin = checks.cs_arrays(rng, (1, 2, 2, 16), F32)
    before = x.copy()
    fwd, grad = aclnn.inplace_partial_rotary_mul, aclnn.inplace_partial_rotary_mul_grad
    assert fwd(x, cos, sin, 0, [0, 16]).workspace == 161002   # mode must be 1
    assert fwd(x, cos, sin, 1, [0, 8, 16]).workspace == 161002
    assert grad(x, cos, sin, 1, [0, 8, 16]).workspace == 561002
    assert fwd(x[0], cos[0], sin[0], 1, [0, 16]).workspace == 161002  # 4-D only
    tx, tc, ts = (aclnn.create_tensor(a) for a in (x, cos, sin))
    assert aclnn.run_tensors("forward", tx, None, ts, 1, [0, 16]).workspace == 161001
    assert aclnn.run_tensors("grad", tx, tc, ts, 1, [0, 16],
                             executor_ptr=False).workspace == 161001
    assert x.tobytes() == before.tobytes()
    res = fwd(x, cos, sin, 1, [0, 16])
    assert res.ok and res.message == ""
    # An x whose elements share addresses (zero stride) is refused by every face.
    buf = np.zeros(64, np.float32)
    xo = np.lib.stride_tricks.as_strided(buf, (2, 2, 2, 8), (0, 64, 32, 4))
    c1 = np.ones((1, 1, 1, 8), np.float32)
    assert fwd(xo, c1, c1, 1, [0, 8]).workspace == 161002
    assert grad(xo, c1, c1, 1, [0, 8]).workspace == 561002
    with pytest.raises(ropekit.RopekitError):
        ropekit.partial_rotary(xo, c1, c1, 1, 0, 8)
    assert not buf.any()
