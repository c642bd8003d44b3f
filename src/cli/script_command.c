/* `ladder report` and `ladder compare`: made by Python (plain SVG, no plotting
 * library), next to the sources; the C tool only hands the arguments over. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "harness/check/check.h"

int command_script(const char *name, int argc, char **argv)
{
    char script[4096];
    snprintf(script, sizeof script, "%s/%s", LADDER_SCRIPT_DIR, name);
    char *args[argc + 2];
    args[0] = "python3";
    args[1] = script;
    for (int i = 2; i < argc; ++i) args[i] = argv[i];
    args[argc] = NULL;
    execvp("python3", args);
    ladder_die("cannot run python3 for %s: %s", name, strerror(errno));
}
