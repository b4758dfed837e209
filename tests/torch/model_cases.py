"""How the rotary position embedding of each supported model family works, as data, with a
float64 reference per family written in that model's Hugging Face idiom.

Every case records the rope-relevant fields of a representative checkpoint's published
config.json (`config`, verbatim: the values and key spellings as published, only the
fields rope needs), the element pairing its HF code uses (`style`), the cos/sin scaling HF
folds in (`attention_scaling`) and any extra factor the model applies to its softmax scale
(`softmax_scale_factor`), and `reference(q, k, position_ids)`: q, k in HF's
[batch, heads, seq, head_dim] layout, position_ids [batch, seq] (or [3, batch, seq] for
mrope), returning the rotated (q, k) in float64. The multimodal ropes with layouts of
their own (ERNIE-4.5-VL, openPangu-VL) are written in vLLM's idiom instead, the code
that defines them: gather the cache's columns from the position rows, then rotate.

The frequencies of each rope type (default, linear, dynamic NTK, dynamic NTK alpha,
yarn, longrope, llama3) are the float64 references of tests/reference/rope_frequencies.py,
chosen and combined as HF's init functions do. HF computes inv_freq and the
angles in float32 (inv_freq is a float32 buffer, `inv_freq @ position_ids` runs with
autocast disabled in float32, some models then cast cos/sin to the activation dtype);
everything here is float64, so these references are what HF approximates.

OWN_CALL_CASES are models whose rope the generic path (one position per token and a
table of a rope type) cannot express: each gives its reference on the tensors its HF
attention rotates and the ropekit calls of its docs/models.md row (`ropekit_call`).

`python model_cases.py` checks every reference on random data: rotations preserve each
pair's norm (times the attention scaling), position 0 is the identity (times the scaling),
and each idiom agrees with the generic pair rotation of refs.py fed the case's cache."""
import math
import os
import sys
from dataclasses import dataclass, field
from typing import Callable, Optional

import torch

if __name__ == "__main__":  # run as a script: find the shared float64 references
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                    "reference"))
import rope_frequencies

F64 = torch.float64


# --------------------------------------------------------------------------------------
# Config reading. HF <= 4.x keeps scaling in `rope_scaling` with rope_theta at the top;
# HF 5 standardizes both into `rope_parameters`. Both spellings are read.


def scaling_dict(config):
    """The config's scaling dict (`rope_parameters` or `rope_scaling`), or {}."""
    for key in ("rope_parameters", "rope_scaling"):
        d = config.get(key)
        if isinstance(d, dict):
            return d
    return {}


def rope_type(config):
    d = scaling_dict(config)
    return d.get("rope_type", d.get("type", "default")) or "default"


def rope_theta(config):
    d = scaling_dict(config)
    for value in (d.get("rope_theta"), config.get("rope_theta"),
                  config.get("rotary_emb_base")):
        if value is not None:
            return float(value)
    return 10000.0


def head_dim(config):
    if config.get("qk_rope_head_dim") is not None:  # DeepSeek: HF sets head_dim to it
        return int(config["qk_rope_head_dim"])
    if config.get("head_dim"):
        return int(config["head_dim"])
    heads = config.get("num_attention_heads", config.get("n_head"))
    return int(config.get("hidden_size", config.get("n_embd")) // heads)


def rotary_dim(config):
    """Number of rotated elements of each head (HF: int(head_dim * partial factor))."""
    if config.get("rotary_dim") is not None:  # GPT-J
        return int(config["rotary_dim"])
    d = scaling_dict(config)
    factor = d.get("partial_rotary_factor", config.get("partial_rotary_factor",
                                                       config.get("rotary_pct", 1.0)))
    return int(head_dim(config) * (1.0 if factor is None else factor))


def original_max_positions(config):
    d = scaling_dict(config)
    return int(d.get("original_max_position_embeddings")
               or config.get("original_max_position_embeddings")
               or config["max_position_embeddings"])


# --------------------------------------------------------------------------------------
# Inverse frequencies: the float64 references of tests/reference/rope_frequencies.py
# (HF: float32), and how HF's init functions choose among them.


def inv_freq_default(base, dim):
    """theta_j = base^(-2j/dim), j < dim/2, as a float64 tensor."""
    return torch.from_numpy(rope_frequencies.inv_freq(dim, base))


def yarn_mscale(factor, scale=1.0):
    return rope_frequencies.yarn_mscale(factor, scale)


def hf_yarn_attention_factor(factor, attention_factor=None, mscale=None, mscale_all_dim=None):
    """HF's YaRN attention factor: given, else mscale(factor, mscale) /
    mscale(factor, mscale_all_dim) when both are set, else 0.1 ln(factor) + 1."""
    if attention_factor is not None:
        return float(attention_factor)
    if mscale and mscale_all_dim:
        return yarn_mscale(factor, mscale) / yarn_mscale(factor, mscale_all_dim)
    return yarn_mscale(factor)


def hf_longrope(base, dim, short_factor, long_factor, original_max, max_positions, seq_len,
                factor=None, attention_factor=None):
    """LongRoPE as HF applies it: the long factors when the sequence (max position + 1)
    exceeds original_max, else the short ones; attention factor given, else the published
    one of s = factor or max_positions / original_max. Returns (inv_freq, attention
    factor)."""
    if factor is None:
        factor = max_positions / original_max
    if attention_factor is None:
        attention_factor = rope_frequencies.longrope_attention_factor(factor, original_max)
    ext = long_factor if seq_len > original_max else short_factor
    return rope_frequencies.longrope_inv_freq(dim, base, ext), float(attention_factor)


def rope_parameters(config, seq_len=None):
    """(inv_freq [rotary_dim / 2], attention_scaling) of `config` as HF computes them, for
    a sequence of `seq_len` positions (used by longrope and dynamic; None: HF's init-time
    choice, i.e. short factors and no dynamic growth)."""
    inv, scaling = _rope_parameters(config, seq_len)
    return torch.from_numpy(inv), scaling


def _rope_parameters(config, seq_len):
    d = scaling_dict(config)
    kind = rope_type(config)
    base, dim = rope_theta(config), rotary_dim(config)
    max_positions = int(config["max_position_embeddings"])
    if kind in ("default", "mrope"):
        return rope_frequencies.inv_freq(dim, base), 1.0
    if kind == "linear":
        return rope_frequencies.linear_inv_freq(dim, base, float(d["factor"])), 1.0
    if kind == "dynamic":
        if d.get("alpha"):
            base = rope_frequencies.ntk_alpha_base(dim, base, float(d["alpha"]))
        else:
            base = rope_frequencies.dynamic_ntk_base(dim, base, float(d["factor"]),
                                                     seq_len or max_positions, max_positions)
        return rope_frequencies.inv_freq(dim, base), 1.0
    if kind == "yarn":
        original = original_max_positions(config)
        # HF before the fix of its issue #38224 replaced `factor` by
        # max_position_embeddings / original_max_position_embeddings whenever the latter
        # was given; current HF uses `factor` and falls back to that ratio only without it.
        factor = d.get("factor")
        factor = max_positions / original if factor is None else float(factor)
        inv = rope_frequencies.yarn_inv_freq(dim, base, factor, original,
                                             float(d.get("beta_fast") or 32),
                                             float(d.get("beta_slow") or 1),
                                             d.get("truncate", True))
        return inv, hf_yarn_attention_factor(factor, d.get("attention_factor"), d.get("mscale"),
                                             d.get("mscale_all_dim"))
    if kind in ("longrope", "su"):
        return hf_longrope(base, dim, d["short_factor"], d["long_factor"],
                           original_max_positions(config), max_positions, seq_len or 0,
                           d.get("factor"), d.get("attention_factor"))
    if kind == "llama3":
        return rope_frequencies.llama3_inv_freq(dim, base, float(d["factor"]),
                                                float(d["low_freq_factor"]),
                                                float(d["high_freq_factor"]),
                                                int(d["original_max_position_embeddings"])), 1.0
    raise ValueError(f"rope type {kind!r}")


def _seq_len(position_ids):
    """HF's dynamic/longrope update measures the sequence as max(position_ids) + 1."""
    return int(position_ids.max()) + 1


def angles(inv_freq, position_ids):
    """freqs[..., s, j] = position * inv_freq[j] (HF: float32 inv_freq @ positions)."""
    return position_ids.to(F64)[..., None] * inv_freq


# --------------------------------------------------------------------------------------
# Application idioms, as each model's HF code writes them (float64 throughout).


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def rotate_every_two(x):
    """GPT-J's / GLM's / ERNIE's rotate: pairs (2j, 2j+1) -> (-x[2j+1], x[2j])."""
    return torch.stack((-x[..., 1::2], x[..., 0::2]), dim=-1).flatten(-2)


def _split(x, rot):
    return x[..., :rot], x[..., rot:]


def apply_llama(q, k, freqs, scaling):
    """Llama and its descendants: emb = cat(freqs, freqs); q*cos + rotate_half(q)*sin on
    the first rotary_dim elements (Phi-3, GPT-NeoX, Falcon, Gemma pass the rest)."""
    emb = torch.cat((freqs, freqs), dim=-1)
    cos, sin = (emb.cos() * scaling).unsqueeze(1), (emb.sin() * scaling).unsqueeze(1)
    rot = cos.shape[-1]
    out = []
    for x in (q.to(F64), k.to(F64)):
        x_rot, x_pass = _split(x, rot)
        out.append(torch.cat((x_rot * cos + rotate_half(x_rot) * sin, x_pass), dim=-1))
    return tuple(out)


def apply_glm(q, k, freqs, scaling):
    """GLM / ERNIE 4.5: the Llama cos/sin, first half repeat_interleave'd to pair (2j, 2j+1)
    with frequency j, rotate_every_two on the first rotary_dim elements (ERNIE: all)."""
    emb = torch.cat((freqs, freqs), dim=-1)
    cos, sin = (emb.cos() * scaling).unsqueeze(1), (emb.sin() * scaling).unsqueeze(1)
    half = cos.shape[-1] // 2
    cos = cos[..., :half].repeat_interleave(2, dim=-1)
    sin = sin[..., :half].repeat_interleave(2, dim=-1)
    rot = cos.shape[-1]
    out = []
    for x in (q.to(F64), k.to(F64)):
        x_rot, x_pass = _split(x, rot)
        out.append(torch.cat((x_rot * cos + rotate_every_two(x_rot) * sin, x_pass), dim=-1))
    return tuple(out)


def apply_complex(q, k, freqs, scaling):
    """Llama 4 / DeepSeek-V2 in HF: view consecutive pairs as complex numbers and multiply
    by polar(scaling, freqs) (HF: complex64 from float32; here complex128)."""
    freqs_cis = torch.polar(torch.full_like(freqs, scaling), freqs).unsqueeze(1)
    out = []
    for x in (q, k):
        xc = torch.view_as_complex(x.to(F64).reshape(*x.shape[:-1], -1, 2).contiguous())
        out.append(torch.view_as_real(xc * freqs_cis).flatten(-2))
    return tuple(out)


def apply_deinterleave_rotate_half(q, k, freqs, scaling):
    """DeepSeek-V3 in HF (rope_interleave): view(.., d/2, 2).transpose -> evens then odds,
    then Llama's rotate_half. Pairs (2j, 2j+1) rotate by frequency j, but the output is
    left de-interleaved: out[j] is the rotated x[2j], out[j + d/2] the rotated x[2j+1]."""
    def deinterleave(x):
        b, h, s, d = x.shape
        return x.to(F64).view(b, h, s, d // 2, 2).transpose(4, 3).reshape(b, h, s, d)
    return apply_llama(deinterleave(q), deinterleave(k), freqs, scaling)


def apply_gpt_oss(q, k, freqs, scaling):
    """gpt-oss: cos/sin of the half-width freqs (no cat), halves (j, j + d/2) combined."""
    cos, sin = (freqs.cos() * scaling).unsqueeze(1), (freqs.sin() * scaling).unsqueeze(1)
    out = []
    for x in (q.to(F64), k.to(F64)):
        first, second = torch.chunk(x, 2, dim=-1)
        out.append(torch.cat((first * cos - second * sin, second * cos + first * sin), dim=-1))
    return tuple(out)


def gptj_sincos_table(inv_freq, max_positions):
    """GPT-J's embed_positions: [max_positions, rotary_dim] = sin | cos of the angles."""
    t = angles(inv_freq, torch.arange(max_positions))
    return torch.cat((t.sin(), t.cos()), dim=1)


def apply_gptj(q, k, table, position_ids):
    """GPT-J: gather sin|cos rows, repeat_interleave each half, rotate_every_two on the
    first rotary_dim elements (HF applies it on [B, S, H, D]; same per element)."""
    sincos = table[position_ids]
    sin, cos = torch.chunk(sincos, 2, dim=-1)
    sin = sin.repeat_interleave(2, dim=-1).unsqueeze(1)
    cos = cos.repeat_interleave(2, dim=-1).unsqueeze(1)
    rot = cos.shape[-1]
    out = []
    for x in (q.to(F64), k.to(F64)):
        x_rot, x_pass = _split(x, rot)
        out.append(torch.cat((x_rot * cos + rotate_every_two(x_rot) * sin, x_pass), dim=-1))
    return tuple(out)


def mrope_rows(half, sections, interleaved):
    """Which position row (0 t, 1 h, 2 w) drives each of the `half` frequencies: Qwen2-VL's
    contiguous sections, or Qwen3-VL's interleaving (j % 3 == 1 from h and j % 3 == 2 from
    w while j < 3 * section, the rest t)."""
    if sum(sections) != half:
        raise ValueError(f"mrope sections {sections} do not sum to {half}")
    if not interleaved:
        return torch.cat([torch.full((s,), i, dtype=torch.long) for i, s in enumerate(sections)])
    rows = torch.zeros(half, dtype=torch.long)
    for row, offset in ((1, 1), (2, 2)):
        rows[offset: sections[row] * 3: 3] = row
    return rows


def mrope_freqs(inv_freq, position_ids, sections, interleaved):
    """freqs [B, S, half] from [3, B, S] positions: frequency j uses its row's position."""
    if position_ids.dim() == 2:  # text only: HF expands to three equal rows
        position_ids = position_ids[None].expand(3, *position_ids.shape)
    per_row = angles(inv_freq, position_ids)  # [3, B, S, half]
    rows = mrope_rows(inv_freq.numel(), sections, interleaved)
    return per_row.gather(0, rows.view(1, 1, 1, -1).expand(1, *per_row.shape[1:])).squeeze(0)


# vLLM's multimodal ropes with layouts of their own: the cos | sin cache indexed by each
# position row ([m, B, S] -> [m, B, S, rotary_dim]), its columns gathered from the rows as
# the model's vLLM class does, then rotated as vLLM's forward_native does.


def vllm_cos_sin(inv_freq, position_ids):
    """cos, sin [m, B, S, half] of every position row: vLLM's cos_sin_cache[positions]."""
    freqs = angles(inv_freq, position_ids)
    return freqs.cos(), freqs.sin()


def ernie_vl_gather(c, sections):
    """Ernie4_5_VLRotaryEmbedding, sections (h, w, t): the first h + w columns alternate
    between the h row (1) and the w row (2), the last t columns take the t row (0)."""
    sh, sw, st = sections
    hh = c[1][..., :sh + sw:2]
    ww = c[2][..., 1:sh + sw:2]
    hw = torch.stack((hh, ww), dim=-1).reshape(hh.shape[:-1] + (2 * hh.shape[-1],))
    return torch.cat((hw, c[0][..., c.shape[-1] - st:]), dim=-1)


def pangu_vl_ids(sections):
    """MRotaryEmbeddingInterleaved's row of every column (get_mrope_interleaved_id_list):
    (t, h, w) places t - 1 t slots then ends with t; (h, w) places h and w; each step the
    least-filled row (filled / its slots, ties to the lower row) other than the previous
    one unless it is the only one left."""
    three = len(sections) == 3
    slots = dict(enumerate([sections[0] - three] + list(sections[1:])))
    filled = dict.fromkeys(slots, 0)
    seq, last = [], None
    for _ in range(sum(slots.values())):
        open_rows = [r for r in slots if filled[r] < slots[r]]
        pick = min([r for r in open_rows if r != last] or open_rows,
                   key=lambda r: (filled[r] / slots[r], r))
        filled[pick] += 1
        seq.append(pick)
        last = pick
    return seq + [0] * three


def pangu_vl_gather(c, sections):
    """Column j from the row pangu_vl_ids gives it."""
    ids = pangu_vl_ids(sections)
    return torch.stack([c[row][..., j] for j, row in enumerate(ids)], dim=-1)


def rotate_vllm(q, k, cos, sin, neox):
    """vLLM's forward_native on HF's [B, H, S, D] with cos, sin [B, S, half]."""
    c, s = cos.unsqueeze(1), sin.unsqueeze(1)
    rot = 2 * cos.shape[-1]
    out = []
    for x in (q.to(F64), k.to(F64)):
        x_rot, x_pass = _split(x, rot)
        if neox:
            x1, x2 = x_rot.chunk(2, dim=-1)
            y = torch.cat((x1 * c - x2 * s, x2 * c + x1 * s), dim=-1)
        else:
            x1, x2 = x_rot[..., 0::2], x_rot[..., 1::2]
            y = torch.stack((x1 * c - x2 * s, x2 * c + x1 * s), dim=-1).flatten(-2)
        out.append(torch.cat((y, x_pass), dim=-1))
    return tuple(out)


VLLM_MROPE_GATHER = {2: ernie_vl_gather, 3: pangu_vl_gather}


# --------------------------------------------------------------------------------------
# The cases.


@dataclass
class ModelCase:
    name: str                    # family, as in docs/models.md
    hf_model_id: str             # representative checkpoint whose config.json is `config`
    config: dict                 # rope-relevant published fields, verbatim
    style: str                   # "neox": pairs (j, j + r/2); "gptj": pairs (2j, 2j + 1)
    idiom: str                   # how HF applies it (see APPLY); "vllm": the gather of
                                 # VLLM_MROPE_GATHER, then vLLM's forward_native
    notes: str
    softmax_scale_factor: float = 1.0   # the model's own extra factor on its softmax scale
    output_deinterleaved: bool = False  # DeepSeek-V3: HF leaves rotated pairs as evens|odds
    mrope_section: Optional[list] = None
    mrope_interleaved: bool = False
    mrope_cache_mode: int = 0    # the layout, as ropekit's cache_mode (1 Qwen3-VL, 2 ERNIE, ...)
    source: str = ""             # where the config values were checked
    seq_len_for_table: Optional[int] = None  # GPT-J: size of its sin|cos table

    @property
    def head_dim(self):
        return head_dim(self.config)

    @property
    def rotary_dim(self):
        return rotary_dim(self.config)

    @property
    def rope_type(self):
        return rope_type(self.config)

    def rope_parameters(self, seq_len=None):
        return rope_parameters(self.config, seq_len)

    @property
    def attention_scaling(self):
        """The factor HF multiplies cos and sin by (yarn / longrope attention factor)."""
        return self.rope_parameters()[1]

    def reference(self, q, k, position_ids):
        """Rotated (q, k), float64, [B, H, S, D] as HF's attention sees them."""
        seq = _seq_len(position_ids)
        inv_freq, scaling = self.rope_parameters(seq)
        if self.idiom == "gptj":
            table = gptj_sincos_table(inv_freq, max(seq, self.seq_len_for_table or 0))
            return apply_gptj(q, k, table, position_ids)
        if self.mrope_cache_mode in VLLM_MROPE_GATHER:
            gather = VLLM_MROPE_GATHER[self.mrope_cache_mode]
            cos, sin = (gather(c, self.mrope_section) * scaling
                        for c in vllm_cos_sin(inv_freq, position_ids))
            return rotate_vllm(q, k, cos, sin, self.style == "neox")
        if self.mrope_section is not None:
            freqs = mrope_freqs(inv_freq, position_ids, self.mrope_section,
                                self.mrope_interleaved)
        else:
            freqs = angles(inv_freq, position_ids)
        return APPLY[self.idiom](q, k, freqs, scaling)


APPLY: dict = {
    "llama": apply_llama,
    "glm": apply_glm,
    "complex": apply_complex,
    "deinterleave": apply_deinterleave_rotate_half,
    "gpt_oss": apply_gpt_oss,
}

# Published rope-scaling arrays (48 values each: rotary_dim 96 / 2).
PHI3_MINI_128K_LONG = [
    1.0700000524520874, 1.1200000047683716, 1.149999976158142, 1.4199999570846558,
    1.5699999332427979, 1.7999999523162842, 2.129999876022339, 2.129999876022339,
    3.009999990463257, 5.910000324249268, 6.950000286102295, 9.070000648498535,
    9.930000305175781, 10.710000038146973, 11.130000114440918, 14.609999656677246,
    15.409998893737793, 19.809999465942383, 37.279998779296875, 38.279998779296875,
    38.599998474121094, 40.12000274658203, 46.20000457763672, 50.940006256103516,
    53.66000747680664, 54.9373893737793, 56.89738845825195, 57.28738784790039,
    59.98738479614258, 60.86738586425781, 60.887386322021484, 61.71739196777344,
    62.91739273071289, 62.957393646240234, 63.41739273071289, 63.8173942565918,
    63.83739471435547, 63.897396087646484, 63.93739700317383, 64.06739807128906,
    64.11434936523438, 64.12435150146484, 64.15435028076172, 64.19435119628906,
    64.24435424804688, 64.57435607910156, 64.69000244140625, 64.76000213623047]
PHI3_MINI_128K_SHORT = (
    [1.1, 1.1, 1.1, 1.3000000000000003, 1.3500000000000003, 1.3500000000000003,
     1.4000000000000004, 1.5500000000000005] + [2.000000000000001] * 17
    + [2.0500000000000007] * 6 + [2.1000000000000005] * 2 + [2.1500000000000004]
    + [2.25] * 5 + [2.3999999999999995, 2.4499999999999993, 2.499999999999999,
                    2.6999999999999984, 2.6999999999999984, 2.7499999999999982,
                    2.799999999999998, 2.8999999999999977, 3.049999999999997])
PHI35_MINI_LONG = [
    1.0800000429153442, 1.1100000143051147, 1.1399999856948853, 1.340000033378601,
    1.5899999141693115, 1.600000023841858, 1.6200000047683716, 2.620000123977661,
    3.2300000190734863, 3.2300000190734863, 4.789999961853027, 7.400000095367432,
    7.700000286102295, 9.09000015258789, 12.199999809265137, 17.670000076293945,
    24.46000099182129, 28.57000160217285, 30.420001983642578, 30.840002059936523,
    32.590003967285156, 32.93000411987305, 42.320003509521484, 44.96000289916992,
    50.340003967285156, 50.45000457763672, 57.55000305175781, 57.93000411987305,
    58.21000289916992, 60.1400032043457, 62.61000442504883, 62.62000274658203,
    62.71000289916992, 63.1400032043457, 63.1400032043457, 63.77000427246094,
    63.93000411987305, 63.96000289916992, 63.970001220703125, 64.02999877929688,
    64.06999969482422, 64.08000183105469, 64.12000274658203, 64.41000366210938,
    64.4800033569336, 64.51000213623047, 64.52999877929688, 64.83999633789062]
PHI35_MINI_SHORT = (
    [1.0, 1.0199999809265137, 1.0299999713897705, 1.0299999713897705]
    + [1.0499999523162842] * 5
    + [1.0699999332427979, 1.0999999046325684, 1.1099998950958252, 1.1599998474121094,
       1.1599998474121094, 1.1699998378753662, 1.2899998426437378, 1.339999794960022,
       1.679999828338623, 1.7899998426437378, 1.8199998140335083, 1.8499997854232788,
       1.8799997568130493, 1.9099997282028198, 1.9399996995925903, 1.9899996519088745]
    + [2.0199997425079346] * 6 + [2.0299997329711914] * 9
    + [2.0799996852874756, 2.0899996757507324, 2.189999580383301, 2.2199995517730713,
       2.5899994373321533, 2.729999542236328, 2.749999523162842, 2.8399994373321533])
PHI4_MINI_LONG = [
    1, 1.118320672, 1.250641126, 1.398617824, 1.564103225, 1.74916897, 1.956131817,
    2.187582649, 2.446418898, 2.735880826, 3.059592084, 3.421605075, 3.826451687,
    4.279200023, 4.785517845, 5.351743533, 5.984965424, 6.693110555, 7.485043894,
    8.370679318, 9.36110372, 10.4687158, 11.70738129, 13.09260651, 14.64173252,
    16.37415215, 18.31155283, 20.47818807, 22.90118105, 25.61086418, 28.64115884, 32.03,
    32.1, 32.13, 32.23, 32.6, 32.61, 32.64, 32.66, 32.7, 32.71, 32.93, 32.97, 33.28, 33.49,
    33.5, 44.16, 47.77]
PHI4_MINI_SHORT = [1.0] * 48

LLAMA31_SCALING = {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                   "original_max_position_embeddings": 8192, "rope_type": "llama3"}


CASES = [
    ModelCase(
        "Llama 2", "meta-llama/Llama-2-7b-hf",
        {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
         "max_position_embeddings": 4096,
         "rope_theta": 10000.0, "rope_scaling": None},
        "neox", "llama",
        "plain rope; HF's checkpoint conversion permuted q/k weights so Meta's interleaved "
        "pairs became rotate_half pairs"),
    ModelCase(
        "Llama 3", "meta-llama/Meta-Llama-3-8B",
        {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
         "max_position_embeddings": 8192,
         "rope_theta": 500000.0, "rope_scaling": None},
        "neox", "llama", "plain rope, theta 500000"),
    ModelCase(
        "Llama 3.1", "meta-llama/Llama-3.1-8B",
        {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
         "max_position_embeddings": 131072,
         "rope_theta": 500000.0, "rope_scaling": LLAMA31_SCALING},
        "neox", "llama",
        "llama3 scaling is static (same frequencies at every length); no attention scaling",
        source="rope_scaling: microsoft config table of Llama-3.1-8B"),
    ModelCase(
        "Llama 3.2", "meta-llama/Llama-3.2-1B",
        {"model_type": "llama", "hidden_size": 2048, "num_attention_heads": 32, "head_dim": 64,
         "max_position_embeddings": 131072, "rope_theta": 500000.0,
         "rope_scaling": {"factor": 32.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
                          "original_max_position_embeddings": 8192, "rope_type": "llama3"}},
        "neox", "llama", "llama3 scaling with factor 32 (1B and 3B); head_dim 64 on the 1B"),
    ModelCase(
        "Llama 4 (text)", "meta-llama/Llama-4-Scout-17B-16E-Instruct",
        {"model_type": "llama4_text", "hidden_size": 5120, "num_attention_heads": 40,
         "head_dim": 128,
         "max_position_embeddings": 10485760, "rope_theta": 500000.0,
         "rope_scaling": {"factor": 16.0, "high_freq_factor": 1.0, "low_freq_factor": 1.0,
                          "original_max_position_embeddings": 8192, "rope_type": "llama3"}},
        "gptj", "complex",
        "complex multiply on interleaved pairs (weights not permuted); every 4th layer "
        "(no_rope_layers) skips rope; rope layers L2-normalize q/k after rope (use_qk_norm)",
        source="text_config of the Scout config (several copies agree)"),
    ModelCase(
        "Qwen2", "Qwen/Qwen2-7B-Instruct",
        {"model_type": "qwen2", "hidden_size": 3584, "num_attention_heads": 28,
         "max_position_embeddings": 32768,
         "rope_theta": 1000000.0},
        "neox", "llama", "plain rope, theta 1e6"),
    ModelCase(
        "Qwen2.5", "Qwen/Qwen2.5-7B-Instruct",
        {"model_type": "qwen2", "hidden_size": 3584, "num_attention_heads": 28,
         "max_position_embeddings": 32768,
         "rope_theta": 1000000.0, "rope_scaling": None},
        "neox", "llama", "plain rope as published; long context needs the yarn entry below"),
    ModelCase(
        "Qwen2.5 (yarn, 128K)", "Qwen/Qwen2.5-7B-Instruct",
        {"model_type": "qwen2", "hidden_size": 3584, "num_attention_heads": 28,
         "max_position_embeddings": 32768,
         "rope_theta": 1000000.0,
         "rope_scaling": {"factor": 4.0, "original_max_position_embeddings": 32768,
                          "type": "yarn"}},
        "neox", "llama",
        "the model card's rope_scaling added by the user; yarn is static (also short "
        "inputs); HF before its #38224 fix used factor max_pos/original = 1 here",
        source="rope_scaling as the model card prints it (quoted in HF issue #33783)"),
    ModelCase(
        "Qwen3", "Qwen/Qwen3-8B",
        {"model_type": "qwen3", "hidden_size": 4096, "num_attention_heads": 32, "head_dim": 128,
         "max_position_embeddings": 40960, "rope_theta": 1000000, "rope_scaling": None},
        "neox", "llama", "plain rope; the card's yarn (factor 4, original 32768) works as "
        "for Qwen2.5; q/k RMSNorm runs before rope"),
    ModelCase(
        "Qwen2-VL / Qwen2.5-VL", "Qwen/Qwen2-VL-7B-Instruct",
        {"model_type": "qwen2_vl", "hidden_size": 3584, "num_attention_heads": 28,
         "max_position_embeddings": 32768,
         "rope_theta": 1000000.0,
         "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}},
        "neox", "llama",
        "mrope: frequencies [0,16) take the t position, [16,40) h, [40,64) w; positions "
        "[3, B, S]; Qwen2.5-VL-7B has the same sections (max_position 128000)",
        mrope_section=[16, 24, 24]),
    ModelCase(
        "Qwen3-VL", "Qwen/Qwen3-VL-4B-Instruct",
        {"model_type": "qwen3_vl", "hidden_size": 2560, "num_attention_heads": 32,
         "head_dim": 128,
         "max_position_embeddings": 262144, "rope_theta": 5000000,
         "rope_scaling": {"mrope_interleaved": True, "mrope_section": [24, 20, 20],
                          "rope_type": "default"}},
        "neox", "llama",
        "interleaved mrope: frequency j uses h if j%3==1 and j<60, w if j%3==2 and j<60, "
        "else t (ropekit cache_mode=1)",
        mrope_section=[24, 20, 20], mrope_interleaved=True, mrope_cache_mode=1,
        source="text_config (several copies agree)"),
    ModelCase(
        "ERNIE 4.5 VL", "baidu/ERNIE-4.5-VL-28B-A3B-PT",
        {"model_type": "ernie4_5_moe_vl", "hidden_size": 2560, "num_attention_heads": 20,
         "max_position_embeddings": 131072, "rope_theta": 500000, "rope_3d": True,
         "freq_allocation": 20},
        "gptj", "vllm",
        "3-D rope [h w h w ... t t t] (ropekit cache_mode=2): sections (h, w, t) = (22, 22, "
        "20) from freq_allocation; frequencies [0, 44) alternate the h and w positions, "
        "[44, 64) take t; positions [3, B, S] rows (t, h, w)",
        mrope_section=[22, 22, 20], mrope_cache_mode=2,
        source="the checkpoint's own keys (rope_3d, freq_allocation) as vLLM's "
               "ernie45_vl_moe.py reads them, with transformers' defaults for that "
               "checkpoint (hidden 2560, 20 heads, 131072 positions, theta 500000); "
               "transformers' port spells the sections rope_parameters.mrope_section"),
    ModelCase(
        "openPangu VL", "no published VL config: openPangu-Embedded-7B sizes",
        {"model_type": "PanguEmbedded", "hidden_size": 4096, "num_attention_heads": 32,
         "head_dim": 128, "max_position_embeddings": 32768, "rope_theta": 16000000.0,
         "rope_scaling": {"mrope_section": [24, 20, 20], "mrope_interleaved": True}},
        "neox", "vllm",
        "openPangu-VL's interleaved mrope (ropekit cache_mode=3): frequency j takes the row "
        "of a greedy t/h/w sequence (t - 1 t slots spread among h and w, a final t); "
        "positions [3, B, S]",
        mrope_section=[24, 20, 20], mrope_interleaved=True, mrope_cache_mode=3,
        source="no published config.json checked: the keys are those vLLM's openpangu.py "
               "reads (mrope_interleaved turns the rope type into 'openpangu'), the sizes "
               "openPangu-Embedded-7B's, the sections Qwen2.5-VL-style (t, h, w) = "
               "(24, 20, 20); the layout does not depend on these values"),
    ModelCase(
        "Mistral 7B v0.1", "mistralai/Mistral-7B-v0.1",
        {"model_type": "mistral", "hidden_size": 4096, "num_attention_heads": 32,
         "max_position_embeddings": 32768,
         "rope_theta": 10000.0, "sliding_window": 4096},
        "neox", "llama", "plain rope; the sliding window does not change positions"),
    ModelCase(
        "Mistral NeMo", "mistralai/Mistral-Nemo-Base-2407",
        {"model_type": "mistral", "head_dim": 128, "hidden_size": 5120,
         "num_attention_heads": 32,
         "max_position_embeddings": 128000, "rope_theta": 1000000.0, "sliding_window": None},
        "neox", "llama",
        "explicit head_dim 128 (hidden/heads would be 160); theta 1e6 as in 7B v0.2/v0.3",
        source="config copy in a benchmark suite"),
    ModelCase(
        "Gemma", "google/gemma-7b",
        {"model_type": "gemma", "head_dim": 256, "hidden_size": 3072, "num_attention_heads": 16,
         "max_position_embeddings": 8192, "rope_theta": 10000.0},
        "neox", "llama", "head_dim 256 (not hidden/heads)"),
    ModelCase(
        "Gemma 2", "google/gemma-2-9b",
        {"model_type": "gemma2", "head_dim": 256, "hidden_size": 3584,
         "num_attention_heads": 16,
         "max_position_embeddings": 8192, "rope_theta": 10000.0},
        "neox", "llama", "same rope on local and global layers"),
    ModelCase(
        "Gemma 3 (global layers)", "google/gemma-3-4b-it",
        {"model_type": "gemma3_text", "head_dim": 256, "hidden_size": 2560,
         "num_attention_heads": 8,
         "max_position_embeddings": 131072, "rope_theta": 1000000.0,
         "rope_scaling": {"factor": 8.0, "rope_type": "linear"}, "sliding_window_pattern": 6},
        "neox", "llama",
        "every 6th layer is global: theta 1e6 with linear factor 8; the other 5 are local",
        source="text_config values in a config parser test"),
    ModelCase(
        "Gemma 3 (local layers)", "google/gemma-3-4b-it",
        {"model_type": "gemma3_text", "head_dim": 256, "hidden_size": 2560,
         "num_attention_heads": 8,
         "max_position_embeddings": 131072, "rope_theta": 10000.0,
         "rope_scaling": {"rope_type": "default"}},
        "neox", "llama",
        "sliding layers: HF copies the config with rope_theta = rope_local_base_freq (10000) "
        "and rope_scaling {'rope_type': 'default'}: no linear factor"),
    ModelCase(
        "Phi-3-mini-4k", "microsoft/Phi-3-mini-4k-instruct",
        {"model_type": "phi3", "hidden_size": 3072, "num_attention_heads": 32,
         "max_position_embeddings": 4096,
         "rope_theta": 10000.0, "rope_scaling": None},
        "neox", "llama", "plain rope, head_dim 96"),
    ModelCase(
        "Phi-3-mini-128k", "microsoft/Phi-3-mini-128k-instruct",
        {"model_type": "phi3", "hidden_size": 3072, "num_attention_heads": 32,
         "max_position_embeddings": 131072,
         "original_max_position_embeddings": 4096, "rope_theta": 10000.0,
         "rope_scaling": {"long_factor": PHI3_MINI_128K_LONG,
                          "short_factor": PHI3_MINI_128K_SHORT, "type": "longrope"}},
        "neox", "llama",
        "a sequence whose max position + 1 exceeds 4096 uses the long factors for every "
        "position; cos/sin times sqrt(1 + ln 32 / ln 4096) = 1.1902 at any length",
        source="arrays of the current (mid-2024) config: a Microsoft evaluation script; head "
               "and tail match the config as quoted with its model link"),
    ModelCase(
        "Phi-3.5-mini", "microsoft/Phi-3.5-mini-instruct",
        {"model_type": "phi3", "hidden_size": 3072, "num_attention_heads": 32,
         "max_position_embeddings": 131072,
         "original_max_position_embeddings": 4096, "rope_theta": 10000.0,
         "rope_scaling": {"long_factor": PHI35_MINI_LONG, "short_factor": PHI35_MINI_SHORT,
                          "type": "longrope"}},
        "neox", "llama",
        "as Phi-3-mini-128k with its own factors: long factors for the whole sequence past "
        "4096 positions; attention factor 1.1902",
        source="two copies of the config agree (one in a Microsoft repository)"),
    ModelCase(
        "Phi-4-mini", "microsoft/Phi-4-mini-instruct",
        {"model_type": "phi3", "hidden_size": 3072, "num_attention_heads": 24,
         "max_position_embeddings": 131072,
         "original_max_position_embeddings": 4096, "partial_rotary_factor": 0.75,
         "rope_theta": 10000.0,
         "rope_scaling": {"long_factor": PHI4_MINI_LONG, "short_factor": PHI4_MINI_SHORT,
                          "type": "longrope"}},
        "neox", "llama",
        "longrope on the first 96 of 128 elements (partial_rotary_factor 0.75); short "
        "factors all 1; attention factor 1.1902 even below 4096 positions",
        source="several copies of the config agree"),
    ModelCase(
        "DeepSeek-V2", "deepseek-ai/DeepSeek-V2-Lite",
        {"model_type": "deepseek_v2", "qk_rope_head_dim": 64, "qk_nope_head_dim": 128,
         "max_position_embeddings": 163840,
         "rope_theta": 10000,
         "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 0.707,
                          "mscale_all_dim": 0.707, "original_max_position_embeddings": 4096,
                          "type": "yarn"}},
        "gptj", "complex",
        "rope on the 64-wide q_pe/k_pe only; HF's DeepseekV2 multiplies complex pairs (output "
        "interleaved); the softmax scale 192^-0.5 is multiplied by mscale(40, 0.707)^2 in "
        "DeepSeek's own code and vLLM (transformers' port leaves it out)",
        softmax_scale_factor=yarn_mscale(40, 0.707) ** 2,
        source="several copies of the config agree"),
    ModelCase(
        "DeepSeek-V3 / R1", "deepseek-ai/DeepSeek-V3",
        {"model_type": "deepseek_v3", "qk_rope_head_dim": 64, "qk_nope_head_dim": 128,
         "max_position_embeddings": 163840,
         "rope_theta": 10000,
         "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 1.0,
                          "mscale_all_dim": 1.0, "original_max_position_embeddings": 4096,
                          "type": "yarn"}},
        "gptj", "deinterleave",
        "pairs (2j, 2j+1) but HF returns them de-interleaved (evens | odds): q.k is as gptj's; "
        "cos/sin factor mscale/mscale_all_dim = 1; softmax scale x (0.1 ln 40 + 1)^2",
        softmax_scale_factor=yarn_mscale(40, 1.0) ** 2, output_deinterleaved=True,
        source="rope_scaling quoted from the config in Megatron-LM issue #1418; R1 identical"),
    ModelCase(
        "GLM-4", "THUDM/glm-4-9b-chat-hf",
        {"model_type": "glm", "head_dim": 128, "hidden_size": 4096, "num_attention_heads": 32,
         "partial_rotary_factor": 0.5, "max_position_embeddings": 131072,
         "rope_theta": 10000.0},
        "gptj", "glm",
        "interleaved pairs on the first 64 of 128 elements; GLM-4.5 (glm4_moe) is rotate_half "
        "instead",
        source="partial factor and theta as HF's GLM-4 conversion writes them; head_dim and "
               "max_position unconfirmed"),
    ModelCase(
        "GPT-J", "EleutherAI/gpt-j-6b",
        {"model_type": "gptj", "n_embd": 4096, "n_head": 16, "rotary_dim": 64,
         "n_positions": 2048,
         "max_position_embeddings": 2048},
        "gptj", "gptj",
        "rotary_dim 64 of head 256; HF keeps a sin|cos table [2048, 64] (sin half first)",
        seq_len_for_table=2048),
    ModelCase(
        "GPT-NeoX", "EleutherAI/gpt-neox-20b",
        {"model_type": "gpt_neox", "hidden_size": 6144, "num_attention_heads": 64,
         "rotary_pct": 0.25,
         "rotary_emb_base": 10000, "max_position_embeddings": 2048},
        "neox", "llama", "rotate_half on the first 24 of 96 elements (rotary_pct 0.25)"),
    ModelCase(
        "Falcon", "tiiuae/falcon-7b",
        {"model_type": "falcon", "hidden_size": 4544, "n_head": 71,
         "max_position_embeddings": 2048,
         "rope_theta": 10000.0, "alibi": False},
        "neox", "llama", "head_dim 64; falcon-rw / alibi variants have no rope"),
    ModelCase(
        "gpt-oss", "openai/gpt-oss-20b",
        {"model_type": "gpt_oss", "head_dim": 64, "hidden_size": 2880,
         "num_attention_heads": 64,
         "max_position_embeddings": 131072, "rope_theta": 150000,
         "rope_scaling": {"beta_fast": 32.0, "beta_slow": 1.0, "factor": 32.0,
                          "original_max_position_embeddings": 4096, "rope_type": "yarn",
                          "truncate": False}},
        "neox", "gpt_oss",
        "yarn with truncate False (unrounded ramp bounds); cos/sin x (0.1 ln 32 + 1) = 1.3466",
        source="several copies of the config agree"),
    ModelCase(
        "Hunyuan", "tencent/Hunyuan-7B-Instruct",
        {"model_type": "hunyuan_v1_dense", "head_dim": 128, "hidden_size": 4096,
         "num_attention_heads": 32,
         "max_position_embeddings": 262144, "rope_theta": 10000.0,
         "rope_scaling": {"alpha": 1000.0, "beta_fast": 32, "beta_slow": 1, "factor": 1.0,
                          "mscale": 1.0, "mscale_all_dim": 1.0, "type": "dynamic"}},
        "neox", "llama",
        "'dynamic' with alpha is static: theta 10000 * 1000^(128/126) at every length; "
        "q/k RMSNorm after rope",
        source="type/alpha/factor/theta/max_position confirmed; the other rope_scaling keys "
               "as commonly shipped, unconfirmed"),
    ModelCase(
        "ERNIE 4.5", "baidu/ERNIE-4.5-0.3B-PT",
        {"model_type": "ernie4_5", "head_dim": 128, "hidden_size": 1024,
         "num_attention_heads": 16,
         "max_position_embeddings": 131072, "rope_theta": 500000},
        "gptj", "glm",
        "GLM's interleaved idiom on the full head, computed in float32 by HF; ERNIE-4.5-VL "
        "has a 3-D rope of its own (its row)",
        source="config copy (model repo files)"),
]



# --------------------------------------------------------------------------------------
# Cases with a call of their own.


def llama4_vision_freqs_ci(config):
    """HF's Llama4VisionRotaryEmbedding (float64 here): [patches + 1, 1, D/2] complex. The
    grid's patches are numbered row by row, the class token is last with index -2 and its
    angles zeroed; rope_freq has D/4 values, x and y angles are repeat_interleave'd, the
    two concatenated and every other one kept, so pair j < D/4 turns by (x + 1) f_j and
    pair D/4 + j by (y + 1) f_j."""
    idx = config["image_size"] // config["patch_size"]
    img_idx = torch.arange(idx ** 2, dtype=torch.int32).reshape(idx ** 2, 1)
    img_idx = torch.cat([img_idx, img_idx[:1]], dim=0)
    img_idx[-1, -1] = -2  # ID_CLS_TOKEN
    frequencies_x = img_idx % idx
    frequencies_y = img_idx // idx
    freq_dim = config["hidden_size"] // config["num_attention_heads"] // 2
    rope_freq = 1.0 / (config["rope_theta"] ** (
        torch.arange(0, freq_dim, 2)[: (freq_dim // 2)].to(F64) / freq_dim))
    freqs_x = ((frequencies_x + 1)[..., None] * rope_freq[None, None, :]).repeat_interleave(
        2, dim=-1)
    freqs_y = ((frequencies_y + 1)[..., None] * rope_freq[None, None, :]).repeat_interleave(
        2, dim=-1)
    freqs = torch.cat([freqs_x, freqs_y], dim=-1).contiguous()[..., ::2]
    freqs = freqs.masked_fill(img_idx.reshape(-1, 1, 1) < 0, 0)
    return torch.view_as_complex(torch.stack([torch.cos(freqs), torch.sin(freqs)], dim=-1))


def llama4_vision_tokens(config):
    return (config["image_size"] // config["patch_size"]) ** 2 + 1


def llama4_vision_reference(config, q, k):
    """HF's vision_apply_rotary_emb on q, k [B, S, H, D] (the vision attention rotates
    before its transpose): consecutive pairs as complex numbers times freqs_ci, broadcast
    over batch and heads (HF: complex64; here complex128)."""
    freqs_ci = llama4_vision_freqs_ci(config)
    out = []
    for x in (q, k):
        x_ = torch.view_as_complex(x.to(F64).reshape(*x.shape[:-1], -1, 2).contiguous())
        shape = [d if i == 1 or i == x_.ndim - 1 else 1 for i, d in enumerate(x_.shape)]
        out.append(torch.view_as_real(x_ * freqs_ci.view(*shape)).flatten(3))
    return tuple(out)


def llama4_vision_ropekit(config, q, k):
    """docs/models.md's Llama 4 (vision) row on HF's q, k [B, S, H, D]."""
    import ropekit.torch as rt
    c = config  # config.json's "vision_config"
    vis = rt.llama4_vision_rope(c["image_size"], c["patch_size"],
                                c["hidden_size"] // c["num_attention_heads"], c["rope_theta"])
    positions = vis.positions[:, None].expand(-1, q.shape[0], -1)  # [2, B, S]
    return torch.ops.ropekit.rope_with_sin_cos_cache(
        positions, q, k, vis.cache, vis.head_dim, vis.is_neox_style,
        mrope_section=vis.mrope_section, cache_mode=vis.cache_mode)


def llama4_vision_as_mrope(config, q, k):
    """The same rotation as refs.rope's mrope (vLLM's forward_native) in float64: rows x + 1
    and y + 1 (0 and 0 for the class token), sections [D/4, D/4], pairs (2j, 2j + 1), on
    the cache of inv_freq = f | f. The self-test checks it against the HF idiom."""
    import refs
    idx = config["image_size"] // config["patch_size"]
    d = head_dim(config)
    f = inv_freq_default(float(config["rope_theta"]), d // 2)
    t = angles(torch.cat((f, f)), torch.arange(idx + 1))
    cache = torch.cat((t.cos(), t.sin()), dim=-1)
    patch = torch.arange(idx * idx)
    pos = torch.zeros(2, idx * idx + 1, dtype=torch.long)
    pos[0, :-1], pos[1, :-1] = patch % idx + 1, patch // idx + 1
    out = []
    for x in (q, k):
        b, s, h, _ = x.shape
        y, _ = refs.rope(pos.repeat(1, b), x.reshape(b * s, h, d), cache, d, False, [d // 4] * 2)
        out.append(y.reshape(b, s, h, d))
    return tuple(out)


@dataclass
class OwnCallCase:
    name: str                    # family, as in docs/models.md
    hf_model_id: str             # checkpoint whose config (here: its sub-config) is `config`
    config: dict                 # rope-relevant published fields, verbatim
    style: str                   # as ModelCase.style
    notes: str
    layout: str                  # the layout of q, k where HF rotates them
    tokens: Callable             # (config) -> the sequence length the rope is defined for
    reference: Callable          # (config, q, k) -> rotated (q, k), float64, HF's idiom
    ropekit_call: Callable       # (config, q, k) -> rotated (q, k): the row's ropekit calls
    as_mrope: Optional[Callable] = None  # (config, q, k): the mapping, in float64 (self-test)
    source: str = ""

    @property
    def head_dim(self):
        return head_dim(self.config)


OWN_CALL_CASES = [
    OwnCallCase(
        "Llama 4 (vision)", "meta-llama/Llama-4-Scout-17B-16E-Instruct",
        {"model_type": "llama4_vision_model", "hidden_size": 1408, "image_size": 336,
         "num_attention_heads": 16, "patch_size": 14, "rope_theta": 10000},
        "gptj",
        "vision_config: 24 x 24 patches + class token (577 tokens), head 88; 2-D rope as "
        "mrope with rows x + 1, y + 1 and sections [22, 22]",
        "[B, S, H, D]", llama4_vision_tokens, llama4_vision_reference, llama4_vision_ropekit,
        llama4_vision_as_mrope,
        source="vision_config as published with the Scout and Maverick checkpoints (copies in "
               "public repositories' tests agree)"),
]

BY_NAME = {case.name: case for case in CASES + OWN_CALL_CASES}


# --------------------------------------------------------------------------------------
# Self-test.


def _cache(case, positions):
    """vLLM-style cos|sin cache [positions, rotary_dim] with the attention scaling folded
    in, as ropekit.torch.rope_from_config is to build it."""
    inv_freq, scaling = case.rope_parameters(positions)
    t = angles(inv_freq, torch.arange(positions))
    return torch.cat((t.cos() * scaling, t.sin() * scaling), dim=-1)


def _generic(case, q, k, position_ids):
    """refs.rope (vLLM's forward_native) on the case's cache, back in HF's layout."""
    import refs
    cache = _cache(case, _seq_len(position_ids))
    d = case.head_dim
    out = []
    for x in (q, k):
        b, h, s, _ = x.shape
        tokens = x.transpose(1, 2).reshape(b * s, h, d)
        if case.mrope_section is not None:
            pos = position_ids.reshape(3, b * s)
            y, _ = refs.rope(pos, tokens, cache, d, case.style == "neox",
                             case.mrope_section, case.mrope_cache_mode)
        else:
            y, _ = refs.rope(position_ids.reshape(-1), tokens, cache, d, case.style == "neox")
        y = y.reshape(b, s, h, d).transpose(1, 2)
        if case.output_deinterleaved:
            rot = case.rotary_dim
            y = torch.cat((y[..., 0:rot:2], y[..., 1:rot:2], y[..., rot:]), dim=-1)
        out.append(y)
    return out


def _pair_norms(x, case):
    rot = x[..., :case.rotary_dim]
    if case.style == "neox" and not case.output_deinterleaved:
        a, b = rot.chunk(2, dim=-1)
    elif case.output_deinterleaved:
        a, b = rot.chunk(2, dim=-1)  # evens | odds after HF's permutation
    else:
        a, b = rot[..., 0::2], rot[..., 1::2]
    return (a * a + b * b).sqrt()


def _pair_norms_input(x, case):
    rot = x[..., :case.rotary_dim]
    if case.style == "neox":
        a, b = rot.chunk(2, dim=-1)
    else:
        a, b = rot[..., 0::2], rot[..., 1::2]
    return (a * a + b * b).sqrt()


def self_test(seed=0):
    g = torch.Generator().manual_seed(seed)
    failures = []
    for case in CASES:
        d = case.head_dim
        long_ctx = original_max_positions(case.config) + 5 if case.rope_type in (
            "longrope", "su") else None
        for seq_end in filter(None, (7, long_ctx)):
            b, h, s = 2, 3, 5
            q = torch.rand(b, h, s, d, generator=g, dtype=F64) * 2 - 1
            k = torch.rand(b, 1, s, d, generator=g, dtype=F64) * 2 - 1
            pos = torch.randint(0, seq_end, (b, s), generator=g)
            pos[0, 0] = 0
            pos[1, -1] = seq_end - 1
            if case.mrope_section is not None:
                pos = torch.stack((pos, (pos * 3) % seq_end, (pos * 5 + 1) % seq_end))
                pos[:, 0, 0] = 0
            scaling = case.rope_parameters(_seq_len(pos))[1]
            qo, ko = case.reference(q, k, pos)
            gq, gk = _generic(case, q, k, pos)
            err = max((qo - gq).abs().max().item(), (ko - gk).abs().max().item())
            if err > 1e-12:
                failures.append(f"{case.name}: idiom vs generic pair rotation, max err {err:.3g}")
            for x, y in ((q, qo), (k, ko)):
                nx, ny = _pair_norms_input(x, case), _pair_norms(y, case)
                if not torch.allclose(ny, nx * scaling, rtol=1e-12, atol=1e-12):
                    failures.append(f"{case.name}: pair norms not preserved x {scaling}")
                rot = case.rotary_dim
                if not torch.equal(y[..., rot:], x[..., rot:]):
                    failures.append(f"{case.name}: pass-through elements changed")
            first = (pos[..., 0, 0] if pos.dim() == 3 else pos[0, 0]).eq(0).all()
            if first:
                y0 = qo[0, :, 0]
                x0 = q[0, :, 0]
                if case.output_deinterleaved:
                    rot = case.rotary_dim
                    x0 = torch.cat((x0[..., 0:rot:2], x0[..., 1:rot:2], x0[..., rot:]), -1)
                want = torch.cat((x0[..., :case.rotary_dim] * scaling,
                                  x0[..., case.rotary_dim:]), dim=-1)
                if not torch.allclose(y0, want, rtol=1e-13, atol=1e-13):
                    failures.append(f"{case.name}: position 0 is not identity x {scaling}")
    # Published numbers the formulas must reproduce.
    phi = BY_NAME["Phi-3-mini-128k"]
    if abs(phi.attention_scaling - 1.190238118171692) > 1e-7:  # GGUF rope.scaling.attn_factor
        failures.append(f"Phi-3 attention factor {phi.attention_scaling}")
    hy = BY_NAME["Hunyuan"].rope_parameters()[0]
    if not torch.allclose(hy, inv_freq_default(10000 * 1000 ** (128 / 126), 128), rtol=1e-15):
        failures.append("Hunyuan alpha base")
    for name in ("DeepSeek-V2", "DeepSeek-V3 / R1"):
        if abs(BY_NAME[name].attention_scaling - 1.0) > 1e-15:
            failures.append(f"{name}: yarn attention factor {BY_NAME[name].attention_scaling}")
    oss = BY_NAME["gpt-oss"].attention_scaling
    if abs(oss - (0.1 * math.log(32) + 1)) > 1e-15:
        failures.append(f"gpt-oss attention factor {oss}")
    scout = BY_NAME["Llama 4 (text)"].rope_parameters()[0]
    base = inv_freq_default(500000.0, 128)
    expect = torch.where(2 * math.pi / base > 8192, base / 16, base)
    if not torch.equal(scout, expect):
        failures.append("Llama 4 bands")
    # Dynamic NTK (no shipped case uses it): identity below max_positions, growth beyond.
    dynamic = {"max_position_embeddings": 4096, "rope_theta": 10000.0, "head_dim": 128,
               "rope_scaling": {"type": "dynamic", "factor": 2.0}}
    if not torch.equal(rope_parameters(dynamic, 100)[0], inv_freq_default(10000.0, 128)):
        failures.append("dynamic NTK below max_positions")
    if torch.equal(rope_parameters(dynamic, 8192)[0], inv_freq_default(10000.0, 128)):
        failures.append("dynamic NTK beyond max_positions")
    for case in CASES:
        if case.rope_type in ("longrope", "su"):
            for key in ("short_factor", "long_factor"):
                if len(scaling_dict(case.config)[key]) != case.rotary_dim // 2:
                    failures.append(f"{case.name}: {key} length")
    failures += _self_test_own_call(g)
    return failures


def _self_test_own_call(g):
    """Own-call cases: the HF idiom agrees with the mrope mapping the row documents,
    preserves pair norms and leaves the class token (last) unrotated."""
    failures = []
    for case in OWN_CALL_CASES:
        s, d = case.tokens(case.config), case.head_dim
        q = torch.rand(2, s, 3, d, generator=g, dtype=F64) * 2 - 1
        k = torch.rand(2, s, 1, d, generator=g, dtype=F64) * 2 - 1
        got = case.reference(case.config, q, k)
        mapped = case.as_mrope(case.config, q, k)
        err = max((a - b).abs().max().item() for a, b in zip(got, mapped))
        if err > 1e-12:
            failures.append(f"{case.name}: idiom vs its mrope mapping, max err {err:.3g}")
        for x, y in zip((q, k), got):
            if not torch.allclose(y[..., 0::2].hypot(y[..., 1::2]),
                                  x[..., 0::2].hypot(x[..., 1::2]), rtol=1e-12, atol=1e-12):
                failures.append(f"{case.name}: pair norms not preserved")
            if not torch.allclose(y[:, -1], x[:, -1], rtol=0, atol=1e-15):
                failures.append(f"{case.name}: class token rotated")
    return failures


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    try:
        import transformers  # noqa: F401
        have_hf = True
    except ImportError:
        have_hf = False
    problems = self_test()
    for p in problems:
        print("FAIL", p)
    width = max(len(c.name) for c in CASES + OWN_CALL_CASES)
    for c in CASES:
        print(f"{c.name:<{width}}  {c.rope_type:<8} {c.style:<4} rot {c.rotary_dim:>3}/"
              f"{c.head_dim:<3} scaling {c.attention_scaling:.6f} softmax x"
              f"{c.softmax_scale_factor:.6f}")
    for c in OWN_CALL_CASES:
        print(f"{c.name:<{width}}  own call {c.style:<4} head {c.head_dim}, {c.layout}")
    print("transformers:", "importable (no comparison written yet)" if have_hf
          else "not importable here; references not compared with HF's functions")
    print(f"{len(CASES) + len(OWN_CALL_CASES)} cases, {len(problems)} failures")
    sys.exit(1 if problems else 0)
