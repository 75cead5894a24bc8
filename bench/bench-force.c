/* bench-kernels --force: the paths of the planner forced, one at a time,
 * on one plane or a frame's planes (bench-force.h). */
#include "bench-force.h"

#include <stdio.h>
#include <string.h>

/* The path named @name, or CT_PATH_COUNT for none. */
static CtPath
path_by_name (const char *name, size_t len)
{
  unsigned int p;

  for (p = 0; p < CT_PATH_COUNT; p++) {
    const char *n = ct_path_name ((CtPath) p);
    if (strlen (n) == len && strncmp (n, name, len) == 0)
      return (CtPath) p;
  }
  return CT_PATH_COUNT;
}

/* Whether @force can take the planes: the library refuses such a call
 * before it runs anything. */
static CtResult
probe (const BenchForceHooks * h, CtPath force)
{
  CtPlaneBatch b[BENCH_FORCE_MAX_PLANES];
  unsigned int i;
  CtResult r;

  if (h->n_planes < 1 || h->n_planes > BENCH_FORCE_MAX_PLANES)
    return CT_ERROR_INVALID_ARGUMENT;
  for (i = 0; i < h->n_planes; i++) {
    b[i].plane = h->planes[i];
    b[i].count = 1;
    b[i].src_step = b[i].dst_step = 0;
  }
  r = ct_transpose_batches_ex (b, h->n_planes, CT_KERNEL_AUTO, force,
      CT_MAPPING_TRANSPOSE, NULL, NULL);

  if (r == CT_OK)
    r = ct_stream_synchronize (NULL);
  return r;
}

/* One line: @force's time and what ran (under "all", @quiet_refusal:
 * nothing for a path that does not take such planes); returns 1 for a
 * wrong output. */
static int
force_line (const BenchForceHooks * h, CtPath force, double copy_us,
    int quiet_refusal)
{
  const char *asked = force == CT_PATH_NONE ? "auto" : ct_path_name (force);
  CtResult r = probe (h, force);
  CtPath ran = CT_PATH_NONE;
  double us;
  int ok;

  /* a refusal is no failure: the path does not take such a plane */
  if (r != CT_OK) {
    if (!quiet_refusal || r != CT_ERROR_UNSUPPORTED_KERNEL)
      printf ("force  %-14s %-16s %9s %7s  refused: %s\n", h->label, asked,
          "-", "-", ct_result_string (r));
    return 0;
  }
  ok = h->check (h->ctx, force, &ran);
  us = h->time (h->ctx, force, 0);
  printf ("force  %-14s %-16s %9.2f %7.3f  %s%s\n", h->label, asked, us,
      copy_us / us, ct_path_name (ran), ok ? "" : "  WRONG");
  fflush (stdout);
  return !ok;
}

int
bench_force_paths (const char *list, const BenchForceHooks * h)
{
  const int all = strcmp (list, "all") == 0;
  const char *at = list;
  double copy_us;
  int wrong = 0;

  /* every name first: a typo fails before anything is timed */
  while (!all && *at != '\0') {
    size_t len = strcspn (at, ",");
    if (path_by_name (at, len) == CT_PATH_COUNT) {
      fprintf (stderr, "--force: '%.*s' is no path\n", (int) len, at);
      return -1;
    }
    at += len + (at[len] == ',');
  }

  copy_us = h->time (h->ctx, CT_PATH_NONE, 1);
  printf ("%-6s %-14s %-16s %9s %7s  %s\n", "mode", "plane", "asked", "us",
      "x copy", "ran");
  printf ("force  %-14s %-16s %9.2f %7.3f  %s\n", h->label, "copy", copy_us,
      1.0, "cudaMemcpyAsync");
  wrong += force_line (h, CT_PATH_NONE, copy_us, 0);
  if (all) {
    unsigned int p;
    for (p = CT_PATH_NONE + 1; p < CT_PATH_COUNT; p++)
      wrong += force_line (h, (CtPath) p, copy_us, 1);
    return wrong;
  }
  for (at = list; *at != '\0';) {
    size_t len = strcspn (at, ",");
    wrong += force_line (h, path_by_name (at, len), copy_us, 0);
    at += len + (at[len] == ',');
  }
  return wrong;
}
