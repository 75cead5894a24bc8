/* bench-kernels --force (bench-force.c): one plane, or a frame's planes
 * in one call, under auto and under each path forced on them, against a
 * device copy of their bytes. The bench lends its planes, its check and
 * its timing through hooks, so every line is measured as the rest of the
 * bench measures. */
#pragma once

#include "cudatranspose-kernels.h"

#define BENCH_FORCE_MAX_PLANES 4

typedef struct
{
  const CtPlane *planes;        /* device pointers, for the probe */
  unsigned int n_planes;        /* 1 to BENCH_FORCE_MAX_PLANES */
  const char *label;            /* "3840x2160 1B" */
  void *ctx;
  /* one run under @force (CT_PATH_NONE: auto's choice) over a poisoned
   * destination, compared with the reference: 1 if right; *@ran gets the
   * path that ran */
  int (*check) (void *ctx, CtPath force, CtPath * ran);
  /* median microseconds of runs under @force; of the device copy of the
   * plane's bytes where @copy */
  double (*time) (void *ctx, CtPath force, int copy);
} BenchForceHooks;

/* Times the copy, auto, then each path of @list (comma-separated path
 * names, or "all": every path the planner has) that can take the planes,
 * one line each, checked first. Returns the number of wrong outputs, or
 * -1 for a name that is no path. */
int bench_force_paths (const char *list, const BenchForceHooks * hooks);
