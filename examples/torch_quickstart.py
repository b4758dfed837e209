"""ropekit with PyTorch on the CPU: inference, training and graph capture.

    pip install ".[torch]"   # from the source tree, then from anywhere:
    python3 examples/torch_quickstart.py

Exits non-zero if a result is wrong (each step checks itself).
"""
import torch

import ropekit.torch as rt
from cann_ops_transformer.ops import inplace_partial_rotary_mul

torch.manual_seed(0)

# 1. Inference: a Llama-3 style rotary embedding (vLLM's RotaryEmbedding interface) on a
#    decode batch of 4 tokens, bf16 query/key, GQA with 32 query and 8 key heads.
rope = rt.RotaryEmbedding(head_size=128, rotary_dim=128, max_position=8192, base=500000.0,
                          is_neox_style=True, dtype=torch.float32,
                          rope_scaling={"rope_type": "llama3", "factor": 8.0,
                                        "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                        "original_max_position_embeddings": 8192})
positions = torch.tensor([17, 18, 19, 20])
query = torch.randn(4, 32 * 128, dtype=torch.bfloat16)
key = torch.randn(4, 8 * 128, dtype=torch.bfloat16)
q, k = rope(positions, query, key)
# the same rotation through vLLM's in-place op
q2, k2 = query.clone(), key.clone()
torch.ops.ropekit.rotary_embedding(positions, q2, k2, 128, rope.cos_sin_cache, True)
assert torch.equal(q, q2) and torch.equal(k, k2)
# a rotation keeps each pair's length
pairs = q.float().view(4, 32, 2, 64)
before = query.float().view(4, 32, 2, 64)
assert torch.allclose(pairs.pow(2).sum(2), before.pow(2).sum(2), rtol=2e-2)
print("inference: q", tuple(q.shape), "k", tuple(k.shape))

# 2. Training: CANN's InplacePartialRotaryMul on the last 64 of 128 columns, with autograd.
x = torch.randn(2, 16, 8, 128, requires_grad=True)
ang = torch.rand(2, 16, 1, 32, dtype=torch.float64).repeat_interleave(2, -1)
cos, sin = ang.cos().float(), ang.sin().float()
y = x * 1.0  # in-place ops need a non-leaf
inplace_partial_rotary_mul(y, cos, sin, rotary_mode="interleave", partial_slice=[64, 128])
loss = (y * y).sum()
loss.backward()
# rotations preserve norms, so d(sum y^2)/dx = 2x
assert torch.allclose(x.grad, 2 * x.detach(), atol=1e-4)
print("training: loss", round(loss.item(), 3), "grad ok")


# 3. Graph capture: a module calling both operators, compiled without graph breaks.
class Attention(torch.nn.Module):
    def forward(self, positions, query, key, cache, x, cos, sin):
        q, k = torch.ops.ropekit.rope_with_sin_cos_cache(positions, query, key, cache, 128, True)
        z = torch.ops.ropekit.partial_rotary_mul(x, cos, sin, rotary_mode="interleave",
                                                 partial_slice=[64, 128])
        return q, k, z


model = Attention()
args = (positions, query.float(), key.float(), rope.cos_sin_cache, x.detach(), cos, sin)
eager = model(*args)
compiled = torch.compile(model, fullgraph=True)(*args)
assert all(torch.equal(a, b) for a, b in zip(eager, compiled))
exported = torch.export.export(model, args)
ops = [str(n.target) for n in exported.graph.nodes if str(n.target).startswith("ropekit.")]
assert ops == ["ropekit.rope_with_sin_cos_cache.default", "ropekit.partial_rotary_mul.default"]
print("graph capture: compiled == eager; exported ops", ops)
