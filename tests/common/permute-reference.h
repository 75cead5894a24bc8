/* The permutation reference, the one every test checks against: output
 * dimension i is input dimension perm[i], innermost first (NNStreamer's
 * and tensor_transform's order); the transpose of the two innermost is
 * the permutation 1:0:2:3. Plain C, for the kernels' tests and the
 * element's alike. */
#pragma once

#include <stdint.h>

/* The output's sizes into @odims, and into @step[k] how far apart (in
 * elements) two neighbours along input dimension k land in the output:
 * the input element at x (x[0] innermost) goes to sum x[k] * step[k]. */
static inline void
ct_ref_permuted_layout (const uint64_t dims[4], const unsigned int perm[4],
    uint64_t odims[4], uint64_t step[4])
{
  uint64_t ostride[4];
  unsigned int i;

  for (i = 0; i < 4; i++)
    odims[i] = dims[perm[i]];
  ostride[0] = 1;
  for (i = 1; i < 4; i++)
    ostride[i] = ostride[i - 1] * odims[i - 1];
  for (i = 0; i < 4; i++)
    step[perm[i]] = ostride[i];
}

/* The other way: the input element (linear, x[0] innermost) that output
 * element @o comes from. */
static inline uint64_t
ct_ref_permuted_source (const unsigned long long dims[4],
    const unsigned int perm[4], uint64_t o)
{
  uint64_t in_stride[4], from = 0;
  unsigned int i;

  in_stride[0] = 1;
  for (i = 1; i < 4; i++)
    in_stride[i] = in_stride[i - 1] * dims[i - 1];
  for (i = 0; i < 4; i++) {
    from += (o % dims[perm[i]]) * in_stride[perm[i]];
    o /= dims[perm[i]];
  }
  return from;
}
