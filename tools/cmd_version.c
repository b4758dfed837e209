/* `ropekit version`: library version, instruction sets and thread count. */
#include <stdio.h>

#include "cli.h"
#include "commands.h"
#include "ropekit/ropekit.h"

int tk_cmd_version(int argc, char **argv) {
    if (argc > 1) {
        if (tk_cli_is_help(argv[1])) {
            printf("usage: ropekit version\n\nPrints the library version, the instruction set "
                   "in use and the thread budget.\n");
            return TK_EXIT_OK;
        }
        fprintf(stderr, "ropekit version: unexpected argument '%s'\n", argv[1]);
        return TK_EXIT_USAGE;
    }
    tk_cli_print_banner(stdout);
    if (ropekit_version_number() != ROPEKIT_VERSION_NUMBER)
        printf("note: built against headers %d.%d.%d\n", ROPEKIT_VERSION_MAJOR,
               ROPEKIT_VERSION_MINOR, ROPEKIT_VERSION_PATCH);
    return TK_EXIT_OK;
}
