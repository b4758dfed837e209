/* Small command-line helpers shared by the subcommands (cli.h). */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ropekit/ropekit.h"

bool tk_cli_is_help(const char *arg) {
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

bool tk_cli_option_is(const char *arg, const char *name) {
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

bool tk_cli_int_option(int argc, char **argv, int *i, const char *name, int64_t lo, int64_t hi,
                       int64_t *out) {
    const char *eq = strchr(argv[*i], '=');
    const char *text = eq ? eq + 1 : (*i + 1 < argc ? argv[++*i] : NULL);
    if (!text || !*text) {
        fprintf(stderr, "ropekit: %s needs a value\n", name);
        return false;
    }
    char *end = NULL;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno != 0 || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "ropekit: %s = '%s': expected an integer in [%lld, %lld]\n", name, text,
                (long long)lo, (long long)hi);
        return false;
    }
    *out = v;
    return true;
}

void tk_cli_print_banner(FILE *out) {
    ropekit_isa active = ropekit_get_active_isa(), detected = ropekit_isa_detected();
    fprintf(out, "ropekit %s  isa %s", ropekit_version_string(), ropekit_isa_name(active));
    if (detected != active)
        fprintf(out, " (detected %s)", ropekit_isa_name(detected));
    fprintf(out, "  threads %d\n", ropekit_get_num_threads());
}

void tk_cli_print_valid(FILE *out, const char *const *names, int n) {
    fprintf(out, "; valid:");
    for (int i = 0; i < n; i++)
        fprintf(out, "%s %s", i ? "," : "", names[i]);
    fprintf(out, "\n");
}
