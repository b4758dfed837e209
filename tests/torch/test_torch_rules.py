"""The validation rules of the two operators, broken one at a time through the torch ops.

For every rule of src/ops/partial_rotary/rules.h (RK_PR_RULES) and src/ops/rope/rules.h
(RK_ROPE_RULES) that a torch op can reach, a case breaks it. The eager CPU op and its fake
kernel (under FakeTensorMode; through torch.compile(fullgraph=True) for some cases, with
static and dynamic shapes) raise the same exception class with the same message, and that
message is the C library's: a direct ctypes call of the one-shot function on the same
tensors fails with the same text after the function's name, and the class is the one of
its status. Rules that need the data (memory overlap between tensors, position values)
are the eager op's alone: the fake kernel has no data and lets the call pass. The rules
no torch op can reach are listed in UNREACHABLE with the reason; a rule added to either
table fails test_every_rule_is_covered until it is given a case or a reason."""
import ctypes
import re
from pathlib import Path

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode

import ropekit.torch  # noqa: F401
from ropekit import _abi
from ropekit._lib import bind
from ropekit._tensor import RopekitTensor
from ropekit.rope import _config, _RopeConfig

ops = torch.ops.ropekit
SRC = Path(__file__).resolve().parents[2] / "src" / "ops"

# ---- the library, called directly ----

_TP = ctypes.POINTER(RopekitTensor)
_c_partial_rotary = bind("ropekit_partial_rotary", ctypes.c_int,
                         [_TP, _TP, _TP, ctypes.c_int, ctypes.c_int64, ctypes.c_int64,
                          ctypes.c_int])
_c_rope = bind("ropekit_rope", ctypes.c_int, [_TP] * 6 + [ctypes.POINTER(_RopeConfig)])
_c_last_error = bind("ropekit_last_error", ctypes.c_char_p, [])
# the number of each torch dtype the cases use (ropekit_dtype, else aclDataType)
_NUMBERS = {torch.float32: _abi.ROPEKIT_F32, torch.float16: _abi.ROPEKIT_F16,
            torch.bfloat16: _abi.ROPEKIT_BF16, torch.float64: _abi.ROPEKIT_F64,
            torch.int64: _abi.ROPEKIT_I64, torch.int32: _abi.ACL_INT32,
            torch.int16: _abi.ACL_INT16, torch.bool: _abi.ACL_BOOL}
# the exception each ropekit_status is raised as
_CLASSES = {_abi.ROPEKIT_INVALID_ARGUMENT: ValueError, _abi.ROPEKIT_NULL_POINTER: ValueError,
            _abi.ROPEKIT_OUT_OF_RANGE: IndexError}


def _desc(t):
    d = RopekitTensor()
    d.data = t.data_ptr()
    d.dtype = _NUMBERS[t.dtype]
    d.ndim = t.dim()
    for k in range(min(t.dim(), _abi.ROPEKIT_MAX_DIMS)):
        d.shape[k], d.strides[k] = t.shape[k], t.stride(k)
    return d


def _c_failure(status, api):
    """(exception class, message after the API's name) of a failed direct call."""
    assert status != _abi.ROPEKIT_OK, "the library accepted the call"
    text = _c_last_error().decode()
    assert text.startswith(f"{api}: "), text
    return _CLASSES[status], text[len(api) + 2:]


def c_partial_rotary(op, x, r1, r2, rotary_mode="interleave", partial_slice=(0, 0)):
    if not op.startswith("inplace_"):
        x = x.clone()  # the functional ops rotate a clone
    mode = {name: v for v, name in _abi.ropekit_rotary_mode_names.items()}[rotary_mode]
    direction = _abi.ROPEKIT_BACKWARD if op.endswith("backward") else _abi.ROPEKIT_FORWARD
    descs = [_desc(t) for t in (x, r1, r2)]
    status = _c_partial_rotary(*(ctypes.byref(d) for d in descs), mode, partial_slice[0],
                               partial_slice[1], direction)
    return _c_failure(status, "ropekit_partial_rotary")


def c_rope(op, positions, query, key, cache, head_size, is_neox, offsets=None,
           mrope_section=None, cache_mode=0):
    widen = (lambda t: t if t is None or t.dtype != torch.int32 else t.to(torch.int64))
    positions, offsets = widen(positions), widen(offsets)
    if op == "rotary_embedding":
        q_out, k_out = query, key
    else:
        q_out = torch.empty_like(query)
        k_out = None if key is None else torch.empty_like(key)
    descs = [None if t is None else _desc(t)
             for t in (positions, query, key, cache, q_out, k_out, offsets)]
    style = _abi.ROPEKIT_ROPE_NEOX if is_neox else _abi.ROPEKIT_ROPE_GPTJ
    cfg, keep = _config(head_size, style, mrope_section, cache_mode)
    if offsets is not None:
        cfg.offsets = ctypes.pointer(descs[6])
    status = _c_rope(*(None if d is None else ctypes.byref(d) for d in descs[:6]),
                     ctypes.byref(cfg))
    del keep
    return _c_failure(status, "ropekit_rope")


# ---- the torch op, eager and fake ----


def _outcome(fn):
    try:
        fn()
    except Exception as err:  # noqa: BLE001 (the class is what is compared)
        return type(err), str(err), err
    return None, None, None


def _fake(mode, value):
    return mode.from_tensor(value) if isinstance(value, torch.Tensor) else value


def run(op, args, kwargs, fake=False):
    """(class, message, exception) of torch.ops.ropekit.<op>(*args, **kwargs), eager or on
    fake tensors; (None, None, None) when it succeeds. Rope's args are in
    rope_with_sin_cos_cache's order (vLLM's rotary_embedding takes the cache after
    head_size)."""
    fn = getattr(ops, op)
    if op == "rotary_embedding":
        pos, q, k, cache, hs, neox = args
        args = (pos, q, k, hs, cache, neox)
    if not fake:
        return _outcome(lambda: fn(*args, **kwargs))
    with FakeTensorMode(allow_non_fake_inputs=False) as mode:
        fargs = [_fake(mode, a) for a in args]
        fkw = {k: _fake(mode, v) for k, v in kwargs.items()}
        return _outcome(lambda: fn(*fargs, **fkw))


# ---- the cases ----

PR_OPS = ("partial_rotary_mul", "inplace_partial_rotary_mul", "partial_rotary_mul_backward",
          "inplace_partial_rotary_mul_backward")
PR_INPLACE = PR_OPS[1::2]


def _x(*shape, dtype=torch.float32):
    return torch.randn(*shape, dtype=torch.float64).to(dtype)


def _pr(x=None, c=None, s=None, **kw):
    x = _x(2, 3, 4, 16) if x is None else x
    c = _x(2, 3, 1, 8) if c is None else c
    s = c.clone() if s is None else s
    return (x, c, s), {"partial_slice": [0, 8], **kw}


def _shared_buffer():
    buf = _x(2, 3, 4, 16)
    return _pr(buf, buf[..., 8:], buf[..., 8:].clone())


# (rule, case id, ops, make() -> (args, kwargs), message piece, needs data)
PR_CASES = [
    ("LAYOUT", "x rank 9", PR_OPS, lambda: _pr(_x(1, 1, 1, 1, 1, 1, 1, 2, 16), _x(8)),
     "x rank = 9: must be in [0, 8]", False),
    ("X_DTYPE", "int32 x", PR_OPS, lambda: _pr(torch.zeros(2, 3, 4, 16, dtype=torch.int32)),
     "x dtype = 3: must be float32, float16, bfloat16 or float64", False),
    ("X_DTYPE", "int64 x", PR_OPS, lambda: _pr(torch.zeros(2, 3, 4, 16, dtype=torch.int64)),
     "x dtype = 9: must be", False),
    ("CS_DTYPE", "bool cos", PR_OPS, lambda: _pr(c=torch.ones(2, 3, 1, 8, dtype=torch.bool)),
     "cos dtype = 12: must be float32, float16, bfloat16 or float64", False),
    ("CS_DTYPE", "sin dtype", PR_OPS, lambda: _pr(s=_x(2, 3, 1, 8, dtype=torch.float16)),
     "sin dtype = f16: must equal cos dtype f32", False),
    ("DTYPE_PAIR", "float64 x", PR_OPS, lambda: _pr(_x(2, 3, 4, 16, dtype=torch.float64)),
     "(x, cos) dtypes = (f64, f32): float64 goes with float64 only", False),
    ("DTYPE_PAIR", "float64 cos", PR_OPS,
     lambda: _pr(c=_x(2, 3, 1, 8, dtype=torch.float64)), "(x, cos) dtypes = (f32, f64)", False),
    ("RANK", "x rank 0", PR_OPS, lambda: _pr(torch.tensor(1.0)),
     "x rank = 0: needs at least one dimension", False),
    ("RANK", "cos rank above x", PR_OPS, lambda: _pr(_x(4, 16)),
     "cos rank = 4: must be in [1, rank of x = 2]", False),
    ("RANK", "cos rank 0", PR_OPS, lambda: _pr(c=torch.tensor(1.0)),
     "cos rank = 0: must be in [1, rank of x = 4]", False),
    ("CS_SHAPE", "sin shape", PR_OPS, lambda: _pr(s=_x(1, 3, 1, 8)),
     "sin shape = [1,3,1,8]: must equal cos shape [2,3,1,8]", False),
    ("SLICE_RANGE", "end past D", PR_OPS, lambda: _pr(partial_slice=[8, 20]),
     "slice = [8, 20): must satisfy 0 <= start <= end <= D = 16", False),
    ("SLICE_RANGE", "negative start", PR_OPS, lambda: _pr(partial_slice=[-2, 6]),
     "slice = [-2, 6)", False),
    ("SLICE_RANGE", "end before start", PR_OPS, lambda: _pr(partial_slice=[6, 4]),
     "slice = [6, 4)", False),
    ("L_MULTIPLE", "odd slice", PR_OPS, lambda: _pr(c=_x(2, 3, 1, 7), partial_slice=[0, 7]),
     "slice length end - start = 7: must be a multiple of 2 in interleave mode", False),
    ("L_MULTIPLE", "quarter", PR_OPS,
     lambda: _pr(c=_x(2, 3, 1, 6), partial_slice=[0, 6], rotary_mode="quarter"),
     "slice length end - start = 6: must be a multiple of 4 in quarter mode", False),
    ("CS_LEN", "cos longer than the slice", PR_OPS, lambda: _pr(partial_slice=[2, 8]),
     "cos last dim = 8: must equal the slice length 6", False),
    ("BROADCAST", "cos dim 0", PR_OPS, lambda: _pr(c=_x(3, 3, 1, 8)),
     "cos shape = [3,3,1,8]: dim 0 is 3, must be 1 or x's 2 (x shape [2,3,4,16])", False),
    ("OVERLAP", "x overlaps itself", PR_INPLACE,
     lambda: _pr(_x(1, 1, 1, 16).expand(2, 3, 4, 16)),
     "x strides: two elements share one address", False),
    ("OVERLAP", "x overlaps sin", PR_INPLACE, _shared_buffer,
     "x memory overlaps cos: the rotated tensor must not share memory", True),
]


def _rope(pos=None, q=None, k=None, cache=None, hs=32, neox=True, **kw):
    pos = torch.tensor([0, 3, 5]) if pos is None else pos
    q = _x(3, 4 * 32) if q is None else q
    k = _x(3, 2 * 32) if k is None else k
    cache = _x(8, 16) if cache is None else cache
    return (pos, q, k, cache, hs, neox), kw


def _mrope(sections, cache_mode=0, rows=None, rot=None):
    rot = 2 * sum(max(s, 0) for s in sections) if rot is None else rot
    pos = torch.randint(0, 8, (len(sections) if rows is None else rows, 3))
    return _rope(pos, cache=_x(8, rot), hs=max(rot, 2), mrope_section=sections,
                 cache_mode=cache_mode)


ROPE_OPS = ("rope_with_sin_cos_cache", "rope_with_sin_cos_cache_backward", "rotary_embedding")
ROPE_FUNCTIONAL = ROPE_OPS[:2]

# (rule, case id, ops, make() -> (args, kwargs), message piece, needs data)
ROPE_CASES = [
    ("CACHE_MODE", "cache mode 4", ROPE_FUNCTIONAL, lambda: _rope(cache_mode=4),
     "cacheMode = 4: must be 0 (sectioned), 1 (Qwen3-VL), 2 (ERNIE-4.5-VL) or 3", False),
    ("CACHE_MODE", "cache mode -1", ROPE_FUNCTIONAL, lambda: _rope(cache_mode=-1),
     "cacheMode = -1", False),
    ("LAYOUT", "query rank 9", ROPE_OPS, lambda: _rope(q=_x(3, 1, 1, 1, 1, 1, 1, 4, 32)),
     "queryIn rank = 9: must be in [0, 8]", False),
    ("POS_DTYPE", "float positions", ROPE_OPS, lambda: _rope(torch.tensor([0.0, 3.0, 5.0])),
     "positions dtype = 0: must be int64", False),
    ("POS_DTYPE", "int16 positions", ROPE_OPS,
     lambda: _rope(torch.tensor([0, 3, 5], dtype=torch.int16)), "positions dtype = 6", False),
    ("DTYPE", "int32 query", ROPE_OPS,
     lambda: _rope(q=torch.zeros(3, 128, dtype=torch.int32),
                   k=torch.zeros(3, 64, dtype=torch.int32)),
     "queryIn dtype = 3: must be float32, float16, bfloat16 or float64", False),
    ("DTYPE", "key dtype", ROPE_OPS, lambda: _rope(k=_x(3, 64, dtype=torch.float16)),
     "keyIn dtype = 1: must equal queryIn's dtype", False),
    ("DTYPE", "int cache", ROPE_OPS, lambda: _rope(cache=torch.zeros(8, 16, dtype=torch.int32)),
     "cosSinCache dtype = 3: must be float32, float16, bfloat16 or float64", False),
    ("DTYPE", "float64 cache", ROPE_OPS, lambda: _rope(cache=_x(8, 16, dtype=torch.float64)),
     "cosSinCache dtype = f64: float64 goes with float64 only (queryIn dtype = f32)", False),
    ("RANK", "positions rank 3", ROPE_OPS, lambda: _rope(torch.zeros(3, 1, 1, dtype=torch.long)),
     "positions shape = [3,1,1]: must be [T] or [B, S] for rope", False),
    ("RANK", "query rank 4", ROPE_OPS, lambda: _rope(q=_x(3, 4, 4, 8)),
     "queryIn shape = [3,4,4,8]: must be 2-D [T, H*headSize] or 3-D [T, H, headSize]", False),
    ("RANK", "cache rank 3", ROPE_OPS, lambda: _rope(cache=_x(8, 16, 1)),
     "cosSinCache shape = [8,16,1]: must be 2-D", False),
    ("TOKENS", "key tokens", ROPE_OPS, lambda: _rope(k=_x(2, 64)),
     "keyIn shape[0] = 2: must equal queryIn's numTokens 3", False),
    ("SECTIONS", "negative section", ROPE_FUNCTIONAL, lambda: _mrope([4, -1, 5]),
     "mropeSection[1] = -1: must be >= 0", False),
    ("SECTIONS", "17 sections", ROPE_FUNCTIONAL, lambda: _mrope([1] * 17),
     "sections count = 17: at most 16", False),
    ("SECTION_VALUES", "sum", ROPE_FUNCTIONAL, lambda: _mrope([2, 2, 2], rot=16),
     "mropeSection = [2,2,2]: 2 * sum (sum = 6) must equal rotaryDim 16", False),
    ("HEAD_SIZE", "head size 0", ROPE_OPS, lambda: _rope(hs=0), "headSize = 0: must be >= 1",
     False),
    ("HEAD_SIZE", "head size -4", ROPE_OPS, lambda: _rope(hs=-4), "headSize = -4", False),
    ("MODE_SECTIONS", "Qwen3-VL needs 3", ROPE_FUNCTIONAL, lambda: _mrope([4, 4], 1),
     "cacheMode = 1 with 2 sections: interleaved mrope needs 3 sections", False),
    ("MODE_SECTIONS", "ERNIE needs h == w", ROPE_FUNCTIONAL, lambda: _mrope([3, 2, 3], 2),
     "cacheMode = 2 with mropeSection = [3,2,3]: ERNIE-4.5-VL mrope needs 3 sections", False),
    ("MODE_SECTIONS", "openPangu needs 2 or 3", ROPE_FUNCTIONAL,
     lambda: _mrope([2, 2, 2, 2], 3), "cacheMode = 3 with 4 sections: openPangu-VL", False),
    ("HEADS", "hidden not a multiple", ROPE_OPS, lambda: _rope(q=_x(3, 100)),
     "queryIn shape[1] = 100: must be a multiple of headSize 32", False),
    ("HEADS", "split head size", ROPE_OPS, lambda: _rope(k=_x(3, 2, 16)),
     "keyIn shape[2] = 16: must equal headSize 32", False),
    ("ROT_DIM", "odd", ROPE_OPS, lambda: _rope(cache=_x(8, 15)),
     "rotaryDim (cosSinCache shape[1]) = 15: must be even, >= 2 and <= headSize 32", False),
    ("ROT_DIM", "above head size", ROPE_OPS, lambda: _rope(cache=_x(8, 48)),
     "rotaryDim (cosSinCache shape[1]) = 48", False),
    ("POS_SHAPE", "rope", ROPE_OPS, lambda: _rope(torch.tensor([0, 3])),
     "positions shape = [2]: must be [numTokens] = [3] for rope", False),
    ("POS_SHAPE", "mrope rows", ROPE_FUNCTIONAL, lambda: _mrope([2, 3, 3], rows=2),
     "positions shape = [2,3]: must be [3, 3] for mrope with 3 sections", False),
    ("POS_SHAPE", "batched", ROPE_OPS,
     lambda: _rope(torch.zeros(2, 4, dtype=torch.long), _x(2, 5, 128), _x(2, 5, 64)),
     "positions shape = [2,4]: must be [2,5] (rope with queryIn's token dims [B, S])", False),
    ("OFFSETS", "float offsets", ROPE_FUNCTIONAL, lambda: _rope(offsets=torch.zeros(3)),
     "offsets dtype = 0: must be int64", False),
    ("OFFSETS", "offsets shape", ROPE_FUNCTIONAL,
     lambda: _rope(offsets=torch.zeros(2, dtype=torch.long)),
     "offsets shape = [2]: must be [3], the token dims of positions", False),
    ("OVERLAP", "query overlaps itself", ("rotary_embedding",),
     lambda: _rope(q=_x(3, 1, 32).expand(3, 4, 32)),
     "queryOut strides: two elements share one address", False),
    ("OVERLAP", "key is the query", ("rotary_embedding",),
     lambda: (lambda q: _rope(q=q, k=q))(_x(3, 64)), "queryOut memory overlaps keyIn", True),
    ("POS_RANGE", "position past the cache", ROPE_OPS, lambda: _rope(torch.tensor([0, 3, 8])),
     "positions[0][2] = 8: must be in [0, maxSeqLen = 8)", True),
    ("POS_RANGE", "negative position plus offset", ROPE_FUNCTIONAL,
     lambda: _rope(offsets=torch.tensor([0, -4, 0])),
     "positions[0][1] + offsets[1] = 3 + -4: must be in [0, maxSeqLen = 8)", True),
]

# Rules no torch op can reach, and why.
UNREACHABLE = {
    "partial_rotary": {
        "NULL": "the schemas take tensors; torch refuses None (and non-tensors) itself",
        "DATA_NULL": "a torch tensor with elements has data (the native face checks data at "
                     "execution only)",
        "MODE": "the ops take mode names; a string that names no mode is refused in Python "
                "(a conversion: _args), and every name is a mode the native face takes",
        "SLICE_SIZE": "aclnn only: the native face takes start and end; the op's two-value "
                      "check is a conversion",
        "CS_LEN_EXCEEDS_D": "aclnn gradient only: the native face checks the gradient in the "
                            "forward order",
        "MAX_D": "aclnn only (the native face has no bound on D)",
        "D_EVEN": "aclnn only (the native face takes odd D)",
        "EMPTY_X": "aclnn only (aclnnInterleaveRope; an empty x is the native face's no-op)",
        "D_VALUE": "aclnn only (aclnnInterleaveRope's D = 64; the native face takes any D)",
        "OUT_DTYPE": "out of place only (the C calls ropekit_partial_rotary_out*); the torch "
                     "ops write in place",
        "OUT_SHAPE": "out of place only (the C calls ropekit_partial_rotary_out*); the torch "
                     "ops write in place",
        "NO_MEMORY": "not an argument rule: the library's allocation failing",
    },
    "rope": {
        "NULL": "the schemas require positions, query and the cache (key is optional); the "
                "op allocates or aliases the outputs",
        "DATA_NULL": "a torch tensor with elements has data",
        "EMPTY": "aclnn only (the native face takes empty inputs as a no-op)",
        "OUT_SHAPE": "the outputs are the op's own: empty_like of the inputs, or the inputs",
        "ALIGN": "aclnn only (CANN's tiling alignment)",
        "NO_MEMORY": "not an argument rule: the library's allocation failing",
    },
}


def _rules(header, macro):
    text = (SRC / header).read_text()
    body = text[text.index(f"#define {macro}(X)"):]
    body = body[:body.index("\n\n")]
    return re.findall(r"X\((\w+),", body)


def test_every_rule_is_covered():
    for header, macro, cases, key in (("partial_rotary/rules.h", "RK_PR_RULES", PR_CASES,
                                       "partial_rotary"),
                                      ("rope/rules.h", "RK_ROPE_RULES", ROPE_CASES, "rope")):
        rules = _rules(header, macro)
        assert len(rules) > 10, rules
        covered = {c[0] for c in cases}
        unreachable = set(UNREACHABLE[key])
        assert not covered & unreachable, covered & unreachable
        assert covered | unreachable == set(rules), (
            f"{header}: no case and no reason for {sorted(set(rules) - covered - unreachable)}; "
            f"not rules: {sorted((covered | unreachable) - set(rules))}")


def _params(cases):
    return [pytest.param(op, case, id=f"{case[0]}-{case[1]}-{op}")
            for case in cases for op in case[2]]


def _check(op, case, direct):
    rule, _, _, make, piece, needs_data = case
    torch.manual_seed(0)
    args, kwargs = make()
    before = [a.clone() for a in args if isinstance(a, torch.Tensor)]
    cls, message, _ = run(op, args, kwargs)
    assert cls is not None, f"{op} accepted a call breaking {rule}"
    assert piece in message, (piece, message)
    # the library's message and status, with the op named in place of its C function
    want_cls, want_text = direct(op, *args, **kwargs)
    assert (cls, message) == (want_cls, f"ropekit.{op}: {want_text}")
    # nothing written
    after = [a for a in args if isinstance(a, torch.Tensor)]
    assert all(torch.equal(b, a) for b, a in zip(before, after))
    fake_cls, fake_message, _ = run(op, args, kwargs, fake=True)
    if needs_data:
        assert fake_cls is None, f"the fake kernel cannot see data, yet: {fake_message}"
    else:
        assert (fake_cls, fake_message) == (cls, message)


@pytest.mark.parametrize("op,case", _params(PR_CASES))
def test_partial_rotary_rule(op, case):
    _check(op, case, c_partial_rotary)


@pytest.mark.parametrize("op,case", _params(ROPE_CASES))
def test_rope_rule(op, case):
    _check(op, case, c_rope)


# ---- through torch.compile ----

COMPILED = [("partial_rotary_mul", "end past D"), ("inplace_partial_rotary_mul", "sin shape"),
            ("partial_rotary_mul_backward", "cos dim 0"), ("rope_with_sin_cos_cache", "sum"),
            ("rope_with_sin_cos_cache", "key tokens"), ("rotary_embedding", "head size 0"),
            ("rope_with_sin_cos_cache", "float64 cache")]
_BY_ID = {(c[1], op): c for c in PR_CASES + ROPE_CASES for op in c[2]}


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
@pytest.mark.parametrize("op,case_id", COMPILED, ids=[f"{c}-{o}" for o, c in COMPILED])
def test_compiled_graphs_raise_the_eager_error(op, case_id, dynamic):
    """Dynamo runs the fake kernel while it traces; its error carries the eager one (class
    and message). With dynamic shapes the fake kernel checks the sizes' hints."""
    torch._dynamo.reset()
    torch.manual_seed(0)
    args, kwargs = _BY_ID[(case_id, op)][3]()
    cls, message, eager = run(op, args, kwargs)
    assert cls is not None
    fn = getattr(ops, op)
    if op == "rotary_embedding":
        pos, q, k, cache, hs, neox = args
        args = (pos, q, k, hs, cache, neox)
    compiled = torch.compile(lambda *a: fn(*a, **kwargs), fullgraph=True, backend="eager",
                             dynamic=dynamic)
    with pytest.raises(Exception) as info:
        compiled(*args)
    assert repr(eager) in str(info.value), (repr(eager), str(info.value)[:2000])
