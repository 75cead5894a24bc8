/* cudatranspose: a permutation of up to four dimensions, simplified to
 * what really moves; shared by the permutations (permute.cu) and the
 * arithmetic (arith.cu). Internal to kernels/, host code. */
#pragma once

namespace ct {

/* A simplified permutation: out dimension i is in dimension p[i]. */
struct Shape
{
  int rank;
  unsigned long long d[4];
  int p[4];
};

/* Drops sizes of 1 and merges input neighbours that stay neighbours. */
inline Shape
simplify (const unsigned long long dims[4], const unsigned int perm[4])
{
  Shape s;
  int keep[4], n = 0;

  /* input dims kept, renumbered in input order */
  for (int k = 0; k < 4; k++)
    keep[k] = dims[k] > 1 ? n++ : -1;
  s.rank = n;
  for (int k = 0; k < 4; k++)
    if (keep[k] >= 0)
      s.d[keep[k]] = dims[k];
  n = 0;
  for (int i = 0; i < 4; i++)
    if (keep[perm[i]] >= 0)
      s.p[n++] = keep[perm[i]];

  /* merge input k+1 into k where the output has k immediately before k+1 */
  for (bool merged = true; merged;) {
    merged = false;
    for (int i = 0; i + 1 < s.rank && !merged; i++) {
      int k = s.p[i];
      if (s.p[i + 1] != k + 1)
        continue;
      s.d[k] *= s.d[k + 1];
      for (int m = k + 1; m + 1 < s.rank; m++)
        s.d[m] = s.d[m + 1];
      for (int j = i + 1; j + 1 < s.rank; j++)
        s.p[j] = s.p[j + 1];
      s.rank--;
      for (int j = 0; j < s.rank; j++)
        if (s.p[j] > k)
          s.p[j]--;
      merged = true;
    }
  }
  return s;
}

/* Strides in elements of the input and of the output (by input dim); 0
 * past the rank. */
inline void
strides (const Shape & s, unsigned long long in[4], unsigned long long out[4])
{
  unsigned long long acc = 1;

  for (int k = 0; k < 4; k++)
    in[k] = out[k] = 0;
  for (int k = 0; k < s.rank; k++) {
    in[k] = acc;
    acc *= s.d[k];
  }
  acc = 1;
  for (int i = 0; i < s.rank; i++) {
    out[s.p[i]] = acc;
    acc *= s.d[s.p[i]];
  }
}

}                               /* namespace ct */
