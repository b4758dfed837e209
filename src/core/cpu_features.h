/* CPU feature detection (CPUID + XGETBV) and the ISA cap. Nothing outside src/core/
 * reads CPUID. */
#ifndef ROPEKIT_CORE_CPU_FEATURES_H_
#define ROPEKIT_CORE_CPU_FEATURES_H_

#include <stdbool.h>

#include "ropekit/ropekit.h"

struct rk_cpu_features {
    bool avx2;       /* AVX2 + F16C, with OS-saved YMM state */
    bool avx512;     /* AVX-512 F/BW/VL/DQ, with OS-saved opmask and ZMM state */
    bool avx512bf16; /* AVX512_BF16 on top of avx512 */
};

/* Detected once (thread-safe); later calls return the same struct. */
const struct rk_cpu_features *rk_cpu_features(void);

#endif /* ROPEKIT_CORE_CPU_FEATURES_H_ */
