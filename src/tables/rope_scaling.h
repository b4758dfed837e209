/* Rope scaling variants for the cos/sin table builders: the parameter checks, the scaled
 * frequencies and the magnitude baked into cos and sin. rope_tables.c lays the values out;
 * this file decides what they are. */
#ifndef ROPEKIT_OPS_ROPE_SCALING_H_
#define ROPEKIT_OPS_ROPE_SCALING_H_

#include <stdbool.h>
#include <stdint.h>

#include "ropekit/ropekit.h"

/* Checks every field `sc` uses for a table of width rotary_dim (NULL and NONE pass). The
 * message names `api`, the field and the rule. rotary_dim must already be even, >= 2. */
ropekit_status rk_check_scaling(const ropekit_rope_scaling *sc, int64_t rotary_dim,
                                const char *api);

/* Whether the table holds two frequency sets: rows [0, original_max_position) use the
 * first, later rows the second (vLLM's stacked LongRoPE table). */
bool rk_scaling_two_sets(const ropekit_rope_scaling *sc);

/* Fills rotary_dim / 2 frequencies of a table of max_positions rows, as the builders
 * use them (before the position divisor). long_set picks LongRoPE's long factors. */
void rk_scaling_frequencies(double *inv, int64_t rotary_dim, double base, int64_t max_positions,
                            const ropekit_rope_scaling *sc, bool long_set);

/* Whether a table of max_positions rows uses LongRoPE's long factors (one-set layout). */
bool rk_scaling_uses_long_factors(const ropekit_rope_scaling *sc, int64_t max_positions);

/* What positions are divided by before they meet the frequencies (linear scaling). */
double rk_scaling_position_divisor(const ropekit_rope_scaling *sc);

/* The magnitude of cos and sin the scaling derives (ropekit_rope_attention_scaling). */
double rk_scaling_magnitude(const ropekit_rope_scaling *sc);

/* The magnitude of the rows of one frequency set (long_set: LongRoPE's long factors):
 * LongRoPE's short_mscale / long_mscale where set, else rk_scaling_magnitude. */
double rk_scaling_set_magnitude(const ropekit_rope_scaling *sc, bool long_set);

#endif /* ROPEKIT_OPS_ROPE_SCALING_H_ */
