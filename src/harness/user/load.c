#include "load.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "harness/check/check.h"

static struct {
    void *handle;
    ladder_impl entry;
    int (*last_error)(void);
    char symbol[64];
} loaded;

/* POSIX makes dlsym's object pointer convertible to a function pointer. */
static ladder_impl function_at(void *handle, const char *symbol)
{
    void *address = dlsym(handle, symbol);
    ladder_impl f;
    memcpy(&f, &address, sizeof f);
    return address ? f : NULL;
}

void ladder_user_entry_name(const ladder_case *c, char *out, size_t len)
{
    snprintf(out, len, "ladder_try_%s", c->name);
}

int ladder_user_load(const char *object, const char *symbol, char *err, size_t err_len)
{
    ladder_user_unload();
    void *handle = dlopen(object, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(err, err_len, "the compiled file does not load: %s", dlerror());
        return -1;
    }
    ladder_impl entry = function_at(handle, symbol);
    if (!entry) {
        snprintf(err, err_len,
                 "it defines no %s with C linkage, the entry point include/ladder_try.h declares (a definition "
                 "with other parameters and no extern \"C\" is a C++ overload, not the entry point)",
                 symbol);
        dlclose(handle);
        return -1;
    }
    loaded.handle = handle;
    loaded.entry = entry;
    loaded.last_error = (int (*)(void))function_at(handle, "ladder_user_last_error");
    snprintf(loaded.symbol, sizeof loaded.symbol, "%s", symbol);
    return 0;
}

void ladder_user_unload(void)
{
    if (loaded.handle) dlclose(loaded.handle);
    memset(&loaded, 0, sizeof loaded);
}

ladder_impl ladder_user_entry(void)
{
    if (!loaded.entry) ladder_die("a tried kernel's adapter ran with no tried file loaded");
    return loaded.entry;
}

void ladder_user_check_launch(void)
{
    int code = loaded.last_error ? loaded.last_error() : 0;
    if (code)
        ladder_die("CUDA error %s (%s) in a launch by %s", cudaGetErrorName((cudaError_t)code),
                   cudaGetErrorString((cudaError_t)code), loaded.symbol);
}
