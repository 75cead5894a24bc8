/* What the benches share: the host's clock and medians. */
#pragma once

#include <stdlib.h>
#include <time.h>

/* Microseconds on the host's monotonic clock. */
static inline double
bench_now_us (void)
{
  struct timespec t;

  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static inline int
bench_cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* The median of @n > 0 samples (sorted in place: the upper one of an
 * even count's middle two). */
static inline double
bench_median (double *v, size_t n)
{
  qsort (v, n, sizeof (double), bench_cmp_double);
  return v[n / 2];
}
