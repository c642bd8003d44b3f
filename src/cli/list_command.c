/* `ladder list [CASE]`: the cases, or one case's ladder with each rung's story. */
#include <stdio.h>

#include "cli.h"

int command_list(const cli *c)
{
    if (c->case_count == 0) {
        for (int i = 0; i < ladder_case_count; ++i)
            printf("%-12s %s (default size %s)\n", ladder_cases[i]->name, ladder_cases[i]->title,
                   ladder_cases[i]->default_size);
        return 0;
    }
    for (int k = 0; k < c->case_count; ++k) {
        const ladder_case *lc = ladder_find_case(c->cases[k]);
        if (!lc) usage_error("unknown case '%s'", c->cases[k]);
        printf("%s: %s\n  size: %s (default %s, quick %s)\n", lc->name, lc->title, lc->size_help, lc->default_size,
               lc->quick_size);
        for (int i = 0; i < lc->variant_count; ++i) {
            const ladder_variant *v = &lc->variants[i];
            printf("%3d  %-26s %s%s\n", i, v->name, (v->flags & LADDER_BASELINE) ? "[baseline] " : "", v->story);
        }
    }
    return 0;
}
