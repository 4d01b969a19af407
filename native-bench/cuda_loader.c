/* cuda_loader.c — loads the CUDA backend (librooflab_cuda.so) at run time, so that `rooflab`
 * starts and runs its CPU backend on machines without CUDA, a driver or a GPU. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

#define RLB_CUDA_LIB "librooflab_cuda.so"

rlb_cuda_run_fn rlb_cuda_load(char *why, size_t cap) {
#ifndef ROOFLAB_HAVE_CUDA
    snprintf(why, cap,
             "not available: this rooflab was built without CUDA (no nvcc when it was configured, "
             "or configured by `make run`; `make native` builds the CUDA backend)");
    return NULL;
#else
    char path[PATH_MAX + 64];
    const char *env = getenv("ROOFLAB_CUDA_LIB");
    if (env && *env) {
        snprintf(path, sizeof path, "%s", env);
    } else {
        /* Next to the executable. */
        char exe[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n <= 0) {
            snprintf(why, cap, "cannot locate %s (/proc/self/exe unreadable)", RLB_CUDA_LIB);
            return NULL;
        }
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) *slash = 0;
        snprintf(path, sizeof path, "%s/%s", exe, RLB_CUDA_LIB);
    }
    if (access(path, R_OK) != 0) {
        snprintf(why, cap, "not available: %s is missing (`make native` builds it when nvcc is present)",
                 path);
        return NULL;
    }
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(why, cap, "cannot load the CUDA backend: %s", e ? e : "dlopen failed");
        return NULL;
    }
    void *sym = dlsym(h, "rlb_cuda_run");
    if (!sym) {
        snprintf(why, cap, "cannot load the CUDA backend: %s has no rlb_cuda_run", path);
        dlclose(h);
        return NULL;
    }
    rlb_cuda_run_fn fn;
    memcpy(&fn, &sym, sizeof fn);
    return fn; /* stays loaded until exit */
#endif
}
