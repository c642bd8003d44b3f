/* Every case study, in the order `ladder run` runs them. */
#ifndef LADDER_REGISTRY_H
#define LADDER_REGISTRY_H

#include "harness/case.h"

extern const ladder_case *const ladder_cases[];
extern const int ladder_case_count;

const ladder_case *ladder_find_case(const char *name);

#endif
