#include "registry.h"

#include <string.h>

extern const ladder_case coalescing_case;
extern const ladder_case smem_case;
extern const ladder_case smem_banks_case;
extern const ladder_case transpose_case;
extern const ladder_case sgemm_case;
extern const ladder_case hgemm_case;
extern const ladder_case gemv_case;
extern const ladder_case gemv_t_case;
extern const ladder_case spmv_case;
extern const ladder_case reduce_case;
extern const ladder_case ado_case;
extern const ladder_case blur_case;
extern const ladder_case texture_case;
extern const ladder_case transfer_case;
extern const ladder_case instr_case;
extern const ladder_case occupancy_case;
extern const ladder_case p2p_case;
extern const ladder_case allreduce_case;
extern const ladder_case attention_case;

const ladder_case *const ladder_cases[] = {
    &coalescing_case,
    &smem_case,
    &smem_banks_case,
    &transpose_case,
    &sgemm_case,
    &hgemm_case,
    &gemv_case,
    &gemv_t_case,
    &spmv_case,
    &reduce_case,
    &ado_case,
    &blur_case,
    &texture_case,
    &transfer_case,
    &instr_case,
    &occupancy_case,
    &p2p_case,
    &allreduce_case,
    &attention_case,
};
const int ladder_case_count = (int)(sizeof ladder_cases / sizeof ladder_cases[0]);

const ladder_case *ladder_find_case(const char *name)
{
    for (int i = 0; i < ladder_case_count; ++i)
        if (strcmp(ladder_cases[i]->name, name) == 0) return ladder_cases[i];
    return NULL;
}
