#include "fuzz_input.h"

#include <math.h>
#include <string.h>

#include "testkit/half_bits.h"

uint64_t fz_bits(fz_input *in, unsigned bytes) {
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes && i < 8; ++i) {
        uint64_t b = 0;
        if (in->size) {
            b = in->data[0];
            ++in->data;
            --in->size;
        }
        v |= b << (8 * i);
    }
    return v;
}

uint8_t fz_u8(fz_input *in) {
    return (uint8_t)fz_bits(in, 1);
}

bool fz_bool(fz_input *in) {
    return fz_bits(in, 1) & 1;
}

int64_t fz_range(fz_input *in, int64_t lo, int64_t hi) {
    uint64_t span = (uint64_t)hi - (uint64_t)lo; /* hi - lo without overflow */
    unsigned bytes = span < 0x100 ? 1 : span < 0x10000 ? 2 : span < 0x100000000ull ? 4 : 8;
    uint64_t v = fz_bits(in, bytes);
    if (span != UINT64_MAX)
        v %= span + 1;
    return (int64_t)((uint64_t)lo + v);
}

int64_t fz_pick(fz_input *in, const int64_t *values, size_t count) {
    return values[fz_range(in, 0, (int64_t)count - 1)];
}

static const int64_t kExtremes[] = {
    0,
    -1,
    1,
    -2,
    INT32_MAX,
    (int64_t)INT32_MAX + 1,
    (int64_t)1 << 32,
    (int64_t)1 << 40,
    (int64_t)1 << 62,
    INT64_MAX,
    INT64_MIN,
    INT64_MAX / 2 + 1,
    -((int64_t)1 << 62),
    INT64_MAX / 3,
};

int64_t fz_int(fz_input *in, int64_t lo, int64_t hi) {
    if (fz_u8(in) < 16) /* one in 16 */
        return fz_pick(in, kExtremes, sizeof kExtremes / sizeof kExtremes[0]);
    return fz_range(in, lo, hi);
}

double fz_double(fz_input *in, double lo, double hi) {
    uint8_t kind = fz_u8(in);
    if (kind < 32) {
        static const double special[] = {0.0,  -0.0, 1e300, -1e300,  1e-300,    5e-324,
                                         -1.0, 1e30, 1e-30, 65536.0, 1.0 / 3.0, 1e15};
        switch (kind % 16) {
        case 0:
            return NAN;
        case 1:
            return INFINITY;
        case 2:
            return -INFINITY;
        case 3: {
            double d;
            uint64_t bits = fz_bits(in, 8);
            memcpy(&d, &bits, sizeof d);
            return d;
        }
        default:
            return special[(kind % 16 - 4) % 12];
        }
    }
    double t = (double)fz_bits(in, 4) / 4294967296.0;
    return lo + (hi - lo) * t;
}

void fz_fill_float(fz_input *in, void *buf, size_t count, ropekit_dtype dtype, bool raw) {
    size_t width = ropekit_dtype_size(dtype);
    uint8_t *bytes = (uint8_t *)buf;
    if (raw) {
        for (size_t i = 0; i < count * width; ++i)
            bytes[i] = fz_u8(in);
        return;
    }
    uint64_t state = fz_bits(in, 8) | 1;
    for (size_t i = 0; i < count; ++i) {
        state ^= state << 13; /* xorshift64 */
        state ^= state >> 7;
        state ^= state << 17;
        double v = (double)(state >> 11) / 9007199254740992.0 * 4.0 - 2.0;
        tk_store(bytes + i * width, dtype, v);
    }
}
