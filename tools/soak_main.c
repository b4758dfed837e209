/* `ropekit soak` on its own, for builds without the ropekit program (the TSan suite). */
#include "commands.h"

int main(int argc, char **argv) {
    return tk_cmd_soak(argc, argv);
}
