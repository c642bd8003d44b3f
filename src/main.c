/* ladder: the command line. Each subcommand lives in src/cli/; this file
 * only picks one. report, compare, occupancy and blur read their own
 * arguments; run, list and device share the options parsed in cli/options.c. */
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "harness/check/check.h"

int main(int argc, char **argv)
{
    if (argc > 0) ladder_program = argv[0];
    if (argc > 1 && strcmp(argv[1], "report") == 0) return command_script("report.py", argc, argv);
    if (argc > 1 && strcmp(argv[1], "compare") == 0) return command_script("compare.py", argc, argv);
    if (argc > 1 && strcmp(argv[1], "occupancy") == 0) return command_occupancy(argc, argv);
    if (argc > 1 && strcmp(argv[1], "blur") == 0) return command_blur(argc, argv);
    cli c = parse_command_line(argc, argv);
    char command_line[4096];
    join_arguments(argc, argv, command_line, sizeof command_line);
    if (!c.seed_given) c.seed = (uint64_t)time(NULL);
    ladder_run_info info = {.command_line = command_line, .started = time(NULL), .seed = c.seed, .quick = c.quick};

    if (strcmp(c.command, "list") == 0) return command_list(&c);
    if (strcmp(c.command, "run") == 0) return command_run(&c, &info);
    if (strcmp(c.command, "try") == 0) return command_try(&c, &info);
    if (strcmp(c.command, "device") == 0) return command_device(&c, &info);
    usage_error("unknown command '%s'", c.command);
}
