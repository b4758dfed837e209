/* Small command-line helpers shared by the subcommands. */
#ifndef ROPEKIT_TOOLS_CLI_H_
#define ROPEKIT_TOOLS_CLI_H_

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* True when arg is "-h" or "--help". */
bool tk_cli_is_help(const char *arg);

/* Parses a decimal integer in [lo, hi] from argv[*i + 1] (for "--opt N") or from the
 * text after '=' (for "--opt=N"); advances *i past a separate value. Prints a message
 * naming the option and returns false on a missing or bad value. */
bool tk_cli_int_option(int argc, char **argv, int *i, const char *name, int64_t lo, int64_t hi,
                       int64_t *out);

/* True when argv[i] is `name` or starts with `name=`. */
bool tk_cli_option_is(const char *arg, const char *name);

/* "; valid: a, b, c" and a newline: the end of a message about an unknown value. */
void tk_cli_print_valid(FILE *out, const char *const *names, int n);

/* The shared one-line run header: "ropekit <version>  isa <active> (detected <d>)
 * threads <n>". */
void tk_cli_print_banner(FILE *out);

#endif /* ROPEKIT_TOOLS_CLI_H_ */
