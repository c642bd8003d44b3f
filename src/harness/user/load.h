/* Loading a tried shared object (compile.h made it) and handing its entry
 * point to the case's adapter: the adapter, a launcher of the case's own
 * type in the case's folder, calls ladder_user_entry() cast to the entry
 * point's type (include/ladder_try.h), then ladder_user_check_launch(). */
#ifndef LADDER_USER_LOAD_H
#define LADDER_USER_LOAD_H

#include <stddef.h>

#include "harness/case.h"

/* Whether `function` (an entry point of include/ladder_try.h) has the type
 * `type`: for an adapter's _Static_assert, so that the header and the
 * case cannot drift apart. Never evaluated: no reference to the symbol,
 * which only a tried file defines. */
#define LADDER_SAME_TYPE(function, type) _Generic(&(function), type *: 1, default: 0)

/* The entry point a tried file defines for case `c`: ladder_try_NAME, as
 * include/ladder_try.h declares it. */
void ladder_user_entry_name(const ladder_case *c, char *out, size_t len);

/* dlopen `object` and find `symbol` in it, which becomes the entry point.
 * Returns 0, or -1 with one line in err: the object does not load (an
 * undefined symbol, say) or does not define `symbol` with C linkage. */
int ladder_user_load(const char *object, const char *symbol, char *err, size_t err_len);

/* Close the object loaded last; the entry point is gone. */
void ladder_user_unload(void);

/* The entry point of the object loaded, for the adapters; ends the process
 * when none is loaded (an adapter run outside `ladder try`). */
ladder_impl ladder_user_entry(void);

/* After the entry point returns: a launch error inside it (recorded by the
 * object's own CUDA runtime, see launch_errors.cu) ends the process as a
 * CUDA error does, naming the entry point. */
void ladder_user_check_launch(void);

#endif
