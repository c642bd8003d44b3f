#include "registry.h"

#include <string.h>

extern const ladder_case transpose_case;
extern const ladder_case sgemm_case;
extern const ladder_case reduce_case;
extern const ladder_case ado_case;
extern const ladder_case coalescing_case;
extern const ladder_case smem_case;
extern const ladder_case smem_banks_case;
extern const ladder_case texture_case;
extern const ladder_case blur_case;

const ladder_case *const ladder_cases[] = {
    &transpose_case,
    &sgemm_case,
    &reduce_case,
    &ado_case,
    &coalescing_case,
    &smem_case,
    &smem_banks_case,
    &texture_case,
    &blur_case,
};
const int ladder_case_count = (int)(sizeof ladder_cases / sizeof ladder_cases[0]);

const ladder_case *ladder_find_case(const char *name)
{
    for (int i = 0; i < ladder_case_count; ++i)
        if (strcmp(ladder_cases[i]->name, name) == 0) return ladder_cases[i];
    return NULL;
}
