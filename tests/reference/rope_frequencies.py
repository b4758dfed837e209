"""Float64 references of the rotary frequencies of every rope scaling type, written from
the published formulas, independent of ropekit. The one copy the table, torch and model
tests build their expectations from (numpy float64; torch callers wrap with
torch.from_numpy). R is the rotary dimension, i in [0, R/2), inv0 = base^(-2i/R).

  linear     inv0 / f (HF's view; the tables divide the position instead)
  dynamic    inv0 of base (f L / original - (f - 1))^(R / (R - 2)) for L > original
             positions                                            (dynamic NTK)
  alpha      inv0 of base alpha^(R / (R - 2))                     (Hunyuan's fixed NTK)
  ntk        fixed: inv0 of base f, over f^(2/R); mixed (b > 0): inv0 / exp(a (i+1)^b),
             a = ln f / (R/2)^b                                   (vLLM's "ntk")
  yarn       cd(n) = R ln(original / (2 pi n)) / (2 ln base); low = cd(beta_fast),
             high = cd(beta_slow), floored / ceiled when truncate; clamped to [0, R - 1];
             high += 0.001 when equal; ramp = clip((i - low) / (high - low), 0, 1);
             mask = (1 - ramp) extrapolation; inv0 / f (1 - mask) + inv0 mask
             (Peng et al. 2023); magnitude m(f, s) = 0.1 s ln f + 1 for f > 1, else 1
  longrope   inv0 / ext, ext the long or short factors; magnitude sqrt(1 + ln f /
             ln original) for f > 1, else 1                       (Ding et al. 2024)
  llama3     wavelengths 2 pi / inv0 above original / low_freq_factor divided by f,
             below original / high_freq_factor kept, between blended by smooth =
             (original / wavelength - low) / (high - low)         (Llama 3.1)
"""
import math

import numpy as np


def _pairs(R):
    return np.arange(R // 2, dtype=np.float64)


def inv_freq(R, base):
    """inv0 = base^(-2i/R)."""
    return base ** (-2.0 * _pairs(R) / R)


def linear_inv_freq(R, base, factor):
    return inv_freq(R, base) / factor


def dynamic_ntk_base(R, base, factor, length, original):
    """Dynamic NTK's base for a table (or sequence) of `length` positions."""
    if length <= original:
        return base
    return base * ((factor * length / original) - (factor - 1)) ** (R / (R - 2))


def ntk_alpha_base(R, base, alpha):
    return base * alpha ** (R / (R - 2))


def ntk_inv_freq(R, base, factor, mixed_b=0.0):
    if not mixed_b:
        return inv_freq(R, base * factor) / factor ** (2.0 / R)
    a = math.log(factor) / (R / 2) ** mixed_b
    return inv_freq(R, base) / np.exp(a * (_pairs(R) + 1) ** mixed_b)


def yarn_correction_range(R, base, original, beta_fast=32.0, beta_slow=1.0, truncate=True):
    """(low, high) of YaRN's ramp, with the guard against a zero-width ramp."""
    def correction_dim(rotations):
        return R * math.log(original / (rotations * 2 * math.pi)) / (2 * math.log(base))

    low, high = correction_dim(beta_fast), correction_dim(beta_slow)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, R - 1)
    return low, (high + 0.001 if low == high else high)


def yarn_inv_freq(R, base, factor, original, beta_fast=32.0, beta_slow=1.0, truncate=True,
                  extrapolation_factor=1.0):
    low, high = yarn_correction_range(R, base, original, beta_fast, beta_slow, truncate)
    mask = (1 - np.clip((_pairs(R) - low) / (high - low), 0, 1)) * extrapolation_factor
    inv = inv_freq(R, base)
    return inv / factor * (1 - mask) + inv * mask


def yarn_mscale(factor, scale=1.0):
    return 0.1 * scale * math.log(factor) + 1.0 if factor > 1 else 1.0


def longrope_attention_factor(factor, original):
    return math.sqrt(1 + math.log(factor) / math.log(original)) if factor > 1 else 1.0


def longrope_inv_freq(R, base, ext_factors):
    ext = np.asarray(ext_factors, dtype=np.float64)
    if ext.size != R // 2:
        raise ValueError(f"longrope factors: {ext.size} values for {R // 2} frequencies")
    return inv_freq(R, base) / ext


def llama3_inv_freq(R, base, factor, low_freq_factor, high_freq_factor, original):
    inv = inv_freq(R, base)
    wavelen = 2 * math.pi / inv
    out = np.where(wavelen > original / low_freq_factor, inv / factor, inv)
    if high_freq_factor == low_freq_factor:  # Llama 4: no band to blend
        return out
    medium = (wavelen >= original / high_freq_factor) & (wavelen <= original / low_freq_factor)
    smooth = (original / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    return np.where(medium, (1 - smooth) * inv / factor + smooth * inv, out)
