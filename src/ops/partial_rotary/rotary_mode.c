/* The names of the partial-rotary modes (ropekit_rotary_mode). */
#include "ropekit/ropekit.h"

const char *ropekit_rotary_mode_name(ropekit_rotary_mode mode) {
    switch (mode) {
    case ROPEKIT_ROTARY_HALF:
        return "half";
    case ROPEKIT_ROTARY_INTERLEAVE:
        return "interleave";
    case ROPEKIT_ROTARY_QUARTER:
        return "quarter";
    case ROPEKIT_ROTARY_INTERLEAVE_HALF:
        return "interleave-half";
    }
    return "?";
}
