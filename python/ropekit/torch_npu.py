"""torch_npu's RoPE calls on the CPU: code written for torch_npu runs by changing

    import torch_npu            ->    from ropekit import torch_npu

(and the device "npu" to "cpu"). Each function takes torch_npu's signature and defaults,
does what op-plugin's binding does before it calls CANN (the mode and layout strings,
npu_rotary_mul's cast of r1 and r2 to the input's dtype), refuses what the CANN operator
behind it refuses (its CANN-rules plan in the library: ranks, dtypes, D, layouts,
broadcast; the aclnn face's message with this module named), then runs torch.ops.ropekit
(autograd, torch.compile and torch.export come with the ops; the checks here are Python
calls into the library, so torch.compile breaks the graph around them, as with CANN's
cann_ops_transformer). torch.ops.ropekit stays the superset (float64, any rank and
layout, every mode). docs/torch.md maps each function to its original."""
import torch

from .torch import _args
from .torch import _rotary_mul as _rm
from .torch._ops import ops
from .torch.frontends import npu_mrope

_PACKAGE = "ropekit.torch_npu"
# op-plugin's npu_rotary_mul passes CANN's mode 0 (half) or 1 (interleave) and refuses
# any other; its npu_apply_rotary_pos_emb takes these three strings (aclnnApplyRotaryPosEmbV2)
_ROTARY_MUL_MODES = {"half": 0, "interleave": 1}
_APPLY_MODES = ("half", "quarter", "interleave")
# op-plugin's layout strings: these three named, any other string is layout 1 (BSND/BSH)
_APPLY_LAYOUTS = {"BNSD": 3, "SBND": 2, "TND": 4}
_LAYOUT_NAMES = {1: "BSND", 2: "SBND", 3: "BNSD", 4: "TND"}


def _fail(exc, op, what, rule):
    raise exc(f"{_PACKAGE}.{op}: {what}: {rule}")


def _tensors(op, named):
    """The conversion's checks (a non-tensor, another device), this module named."""
    devices = (_args.CPU_DEVICES if all(t.device.type == "cpu" for _, t in named
                                        if isinstance(t, torch.Tensor)) else _args.FAKE_DEVICES)
    try:
        for name, t in named:
            _args.tensor(op, name, t, devices)
    except (TypeError, RuntimeError) as e:
        raise type(e)(str(e).replace("ropekit.", f"{_PACKAGE}.", 1)) from None


def _choice(op, name, value, allowed):
    if not isinstance(value, str):
        _fail(TypeError, op, f"{name} = {value!r}", "must be a str")
    if value not in allowed:
        names = " or ".join(", ".join(repr(v) for v in allowed).rsplit(", ", 1))
        _fail(ValueError, op, f"{name} = {value!r}", f"must be {names}")


def npu_rotary_mul(input, r1, r2, rotary_mode="half"):  # noqa: A002 (torch_npu's name)
    """torch_npu.npu_rotary_mul (aclnnRotaryPositionEmbedding): returns
    input * r1 + rotate(input) * r2 over the whole last dim, rotary_mode "half" (NeoX) or
    "interleave" (GPT-J); input [B, S, N, D] in any of BSND, BNSD, SBND, r1 and r2 its
    broadcastable cos and sin. r1 and r2 of another dtype are cast to input's, as
    torch_npu does. Differentiable in input, r1 and r2."""
    op = "npu_rotary_mul"
    _tensors(op, (("input", input), ("r1", r1), ("r2", r2)))
    _choice(op, "rotary_mode", rotary_mode, tuple(_ROTARY_MUL_MODES))
    if r1.dtype != input.dtype or r2.dtype != input.dtype:
        r1, r2 = r1.to(input.dtype), r2.to(input.dtype)
    _rm.check_cann_rotary_position_embedding(_PACKAGE, op, input, r1, r2,
                                             _ROTARY_MUL_MODES[rotary_mode])
    return ops.rotary_mul(input, r1, r2, rotary_mode)


def npu_interleave_rope(x, cos, sin):
    """torch_npu.npu_interleave_rope (aclnnInterleaveRope): DeepSeek's rotary of MLA's
    rope part, x [B, N, S, 64] read interleaved, (x0, y0, x1, y1, ...), and returned in the
    half layout, x * cos + rotate_half(x) * sin on the de-interleaved x; cos and sin
    [B, 1, S or 1, 64]; x, cos and sin all float16 or all bfloat16. Differentiable in x,
    cos and sin."""
    op = "npu_interleave_rope"
    _tensors(op, (("x", x), ("cos", cos), ("sin", sin)))
    _rm.check_cann_interleave_rope(_PACKAGE, op, x, cos, sin)
    return ops.interleave_rope(x, cos, sin)


def npu_apply_rotary_pos_emb(query, key, cos, sin, layout="BSH", rotary_mode="half"):
    """torch_npu.npu_apply_rotary_pos_emb (aclnnApplyRotaryPosEmbV2): rotates query and key
    in place with one cos and sin and returns (query, key), the same tensors. layout
    "BSND"/"BSH" (any string op-plugin does not name is this one), "SBND" or "BNSD"
    ("TND" is passed on as CANN's 4, which the operator refuses); rotary_mode "half",
    "interleave" or "quarter". CANN's rules apply: four 4-D tensors of one dtype, D = 128,
    cos's N 1."""
    op = "npu_apply_rotary_pos_emb"
    _tensors(op, (("query", query), ("key", key), ("cos", cos), ("sin", sin)))
    if not isinstance(layout, str):
        _fail(TypeError, op, f"layout = {layout!r}", "must be a str")
    _choice(op, "rotary_mode", rotary_mode, _APPLY_MODES)
    number = _APPLY_LAYOUTS.get(layout, 1)
    _rm.check_cann_apply_rotary(_PACKAGE, op, query, key, cos, sin, number, rotary_mode)
    ops.apply_rotary_pos_emb(query, key, cos, sin, _LAYOUT_NAMES[number], rotary_mode)
    return query, key


__all__ = ["npu_rotary_mul", "npu_apply_rotary_pos_emb", "npu_interleave_rope", "npu_mrope"]
