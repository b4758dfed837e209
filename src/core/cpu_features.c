#include "core/cpu_features.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define RK_X86 1
#endif

static struct rk_cpu_features rk_features;
static pthread_once_t rk_features_once = PTHREAD_ONCE_INIT;
static atomic_int rk_isa_cap = -1; /* -1: not yet read from the environment */

#ifdef RK_X86
static unsigned long long rk_xgetbv0(void) {
    unsigned eax, edx;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((unsigned long long)edx << 32) | eax;
}
#endif

static void rk_detect(void) {
#ifdef RK_X86
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return;
    bool osxsave = c & (1u << 27), avx = c & (1u << 28), f16c = c & (1u << 29);
    if (!osxsave || !avx)
        return;
    unsigned long long xcr0 = rk_xgetbv0();
    bool ymm_state = (xcr0 & 0x6) == 0x6;   /* SSE + AVX state saved by the OS */
    bool zmm_state = (xcr0 & 0xe6) == 0xe6; /* + opmask, ZMM_Hi256, Hi16_ZMM */
    if (__get_cpuid_max(0, NULL) < 7)
        return;
    __cpuid_count(7, 0, a, b, c, d);
    bool avx2 = b & (1u << 5);
    bool avx512f = b & (1u << 16), avx512dq = b & (1u << 17);
    bool avx512bw = b & (1u << 30), avx512vl = b & (1u << 31);
    rk_features.avx2 = avx2 && f16c && ymm_state;
    rk_features.avx512 =
        rk_features.avx2 && avx512f && avx512dq && avx512bw && avx512vl && zmm_state;
    __cpuid_count(7, 1, a, b, c, d);
    rk_features.avx512bf16 = rk_features.avx512 && (a & (1u << 5));
#endif
}

const struct rk_cpu_features *rk_cpu_features(void) {
    pthread_once(&rk_features_once, rk_detect);
    return &rk_features;
}

ropekit_isa ropekit_isa_detected(void) {
    const struct rk_cpu_features *f = rk_cpu_features();
    return f->avx512 ? ROPEKIT_ISA_AVX512 : f->avx2 ? ROPEKIT_ISA_AVX2 : ROPEKIT_ISA_SCALAR;
}

/* Indexed by ropekit_isa, whose values run from ROPEKIT_ISA_SCALAR (0) to ROPEKIT_ISA_AVX512;
 * also the spellings ROPEKIT_MAX_ISA takes. */
static const char *const rk_isa_names[] = {"scalar", "avx2", "avx512"};
_Static_assert(sizeof rk_isa_names / sizeof rk_isa_names[0] == ROPEKIT_ISA_AVX512 + 1,
               "one name per ropekit_isa");

static bool rk_isa_valid(ropekit_isa isa) {
    return (int)isa >= ROPEKIT_ISA_SCALAR && (int)isa <= ROPEKIT_ISA_AVX512;
}

const char *ropekit_isa_name(ropekit_isa isa) {
    return rk_isa_valid(isa) ? rk_isa_names[isa] : "?";
}

static int rk_isa_cap_from_env(void) {
    const char *env = getenv("ROPEKIT_MAX_ISA");
    if (env) {
        for (int i = ROPEKIT_ISA_SCALAR; i <= ROPEKIT_ISA_AVX512; i++)
            if (strcmp(env, rk_isa_names[i]) == 0)
                return i;
    }
    return ROPEKIT_ISA_AVX512;
}

ropekit_status ropekit_set_max_isa(ropekit_isa isa) {
    if (!rk_isa_valid(isa))
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "ropekit_set_max_isa: isa = %d: must be 0 (scalar), 1 (avx2) or 2 "
                            "(avx512)",
                            (int)isa);
    atomic_store(&rk_isa_cap, (int)isa);
    return ROPEKIT_OK;
}

ropekit_isa ropekit_get_active_isa(void) {
    int cap = atomic_load(&rk_isa_cap);
    if (cap < 0) {
        int expected = -1;
        atomic_compare_exchange_strong(&rk_isa_cap, &expected, rk_isa_cap_from_env());
        cap = atomic_load(&rk_isa_cap);
    }
    ropekit_isa detected = ropekit_isa_detected();
    return (int)detected < cap ? detected : (ropekit_isa)cap;
}
