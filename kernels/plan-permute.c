/* cudatranspose: the permutations' planner (plan.h), host code that
 * permute.cu's launches follow and tests/kernels/test-plan-permute.c
 * checks without a GPU; permute.cu's opening comment says which kernel
 * takes what. */
#include "plan.h"

#include <limits.h>
#include <stdint.h>

CtShape
ct_shape_simplify (const unsigned long long dims[4],
    const unsigned int perm[4])
{
  CtShape s;
  int keep[4], n = 0, merged = 1;

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
  while (merged) {
    merged = 0;
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
      merged = 1;
    }
  }
  return s;
}

void
ct_shape_strides (const CtShape * s, unsigned long long in[4],
    unsigned long long out[4])
{
  unsigned long long acc = 1;

  for (int k = 0; k < 4; k++)
    in[k] = out[k] = 0;
  for (int k = 0; k < s->rank; k++) {
    in[k] = acc;
    acc *= s->d[k];
  }
  acc = 1;
  for (int i = 0; i < s->rank; i++) {
    out[s->p[i]] = acc;
    acc *= s->d[s->p[i]];
  }
}

CtResult
ct_permute_validate (const unsigned long long dims[4], unsigned int elem_size,
    const unsigned int perm[4])
{
  unsigned int seen = 0;

  if (!dims || !perm)
    return CT_ERROR_INVALID_ARGUMENT;
  if (elem_size != 1 && elem_size != 2 && elem_size != 4 && elem_size != 8)
    return CT_ERROR_UNSUPPORTED_ELEMENT_SIZE;
  for (int i = 0; i < 4; i++) {
    if (perm[i] > 3 || (seen & (1u << perm[i])) || dims[i] == 0 ||
        dims[i] > 0xffffffffull)
      return CT_ERROR_INVALID_ARGUMENT;
    seen |= 1u << perm[i];
  }
  return CT_OK;
}

static unsigned int
min_grid_y (unsigned int n)
{
  return n < CT_PLAN_MAX_GRID_Y ? n : CT_PLAN_MAX_GRID_Y;
}

/* Whether @p has channels: at most CT_PERMUTE_CHANNELS on one side, the
 * interleaved end dense; which way they go in *@to_interleaved. */
static int
has_channels (const CtPermutePlane * p, int *to_interleaved)
{
  if (p->height <= CT_PERMUTE_CHANNELS && p->dst_stride == p->height)
    *to_interleaved = 1;
  else if (p->width <= CT_PERMUTE_CHANNELS && p->src_stride == p->width)
    *to_interleaved = 0;
  else
    return 0;
  return 1;
}

/* Whether @p has channels on one side, the interleaved end dense, and
 * every address a multiple of @word bytes (@bases: the pointers ORed):
 * k_channels' planes at 16, k_pixels' in 4-byte words at 4. */
static int
channels_fit (const CtPermutePlane * p, uintptr_t bases, unsigned int es,
    unsigned int word, int *to_interleaved)
{
  const unsigned long long a = word / es;    /* elements in a word */

  if (!has_channels (p, to_interleaved))
    return 0;
  /* the planar rows' stride; the interleaved end is dense, and segments
   * start at multiples of a word of each channel */
  return bases % word == 0 &&
      (*to_interleaved ? p->src_stride : p->dst_stride) % a == 0 &&
      p->src1 % a == 0 && p->dst1 % a == 0 && p->src2 % a == 0 &&
      p->dst2 % a == 0;
}

/* k_channels' shared memory at a segment of 2^@shift bytes a channel:
 * padded rows (planar side), or padded groups (interleaved). */
static unsigned int
channels_smem (unsigned int chans, unsigned int shift)
{
  return chans * ((1u << shift) + 16) + (1u << shift) / 2 + 16;
}

/* The packed kernels' staged side, and k_pixels_packed's (the staged side
 * and the built one). */
static unsigned int
packed_smem (unsigned int chans, unsigned int shift)
{
  return chans * ((1u << shift) + 16);
}

static unsigned int
pixels_packed_smem (unsigned int chans, unsigned int shift)
{
  return 2 * packed_smem (chans, shift) + 32;
}

/* The rows stay: moved whole as the widest word that divides a row and
 * both pointers. */
static void
plan_rows (const CtShape * s, uintptr_t bases, unsigned int es,
    CtPermutePlan * plan)
{
  unsigned long long in[4], out[4], blocks;
  const unsigned long long row = s->d[0] * es;
  unsigned int w = 16;

  while (w > 1 && (bases % w != 0 || row % w != 0))
    w /= 2;
  ct_shape_strides (s, in, out);
  plan->run = CT_PERMUTE_RUN_GATHER;
  plan->path = CT_PATH_GATHER;
  plan->word = w;
  plan->total = 1;
  for (int i = 0; i < 4; i++)
    plan->d_out[i] = plan->src_of[i] = 0;
  for (int i = 0; i < s->rank; i++) {
    /* in words: the row shrinks, every other stride scales */
    plan->d_out[i] = i == 0 ? row / w : s->d[s->p[i]];
    plan->src_of[i] = i == 0 ? 1 : in[s->p[i]] * es / w;
    plan->total *= plan->d_out[i];
  }
  blocks = ct_plan_div_up (plan->total, CT_PLAN_THREADS);
  plan->grid[0] = (unsigned int) (blocks < CT_PERMUTE_GATHER_GRID ? blocks :
      CT_PERMUTE_GATHER_GRID);
  plan->grid[1] = plan->grid[2] = 1;
}

/* k_pixels: groups of @word bytes a channel (16, or 4 for 1- and 2-byte
 * elements), a thread a group. */
static void
plan_pixels (unsigned int es, unsigned int word, CtPermutePlan * plan)
{
  const CtPermutePlane *p = &plan->plane;
  const unsigned long long len = plan->to_interleaved ? p->width : p->height;

  plan->run = CT_PERMUTE_RUN_PIXELS;
  plan->path = CT_PATH_PIXELS;
  plan->word = word;
  plan->seg_shift = 0;
  plan->smem = 0;
  plan->grid[0] = (unsigned int) ct_plan_div_up (len / (word / es),
      CT_PLAN_THREADS);
}

/* k_pixels (2 to 4 aligned channels with whole 16-byte groups: which
 * ct_permute's planes have whenever channels_fit, a batch dimension's
 * offset, or the planar stride, being the length) or k_channels. */
static void
plan_channels (unsigned int es, CtPermutePlan * plan)
{
  const CtPermutePlane *p = &plan->plane;
  const unsigned int chans = plan->channels;
  const unsigned long long len = plan->to_interleaved ? p->width : p->height;

  if (chans <= CT_PERMUTE_PIXEL_CHANNELS && len % (16 / es) == 0) {
    plan_pixels (es, 16, plan);
    return;
  }
  /* a 2 KB segment per channel, halved until the block's channels fit */
  plan->seg_shift = 11;
  while (plan->seg_shift > 8 &&
      channels_smem (chans, plan->seg_shift) > CT_PERMUTE_CHANNELS_SMEM)
    plan->seg_shift--;
  plan->run = CT_PERMUTE_RUN_CHANNELS;
  plan->path = CT_PATH_CHANNELS;
  plan->smem = channels_smem (chans, plan->seg_shift);
  plan->grid[0] = (unsigned int) ct_plan_div_up (len,
      (1u << plan->seg_shift) / es);
}

/* k_pixels_packed (2 to 4 channels of 1- or 2-byte elements) or
 * k_channels_packed: a 4 KB segment per channel, halved until the block's
 * shared memory fits, and in small jobs until the blocks fill the GPU. */
static void
plan_packed (unsigned int es, CtPermutePlan * plan)
{
  const CtPermutePlane *p = &plan->plane;
  const unsigned int chans = plan->channels;
  const unsigned long long len = plan->to_interleaved ? p->width : p->height;
  const int pixels = es <= 2 && chans <= CT_PERMUTE_PIXEL_CHANNELS;
  const unsigned long long batches = (unsigned long long) p->n1 * p->n2;
  unsigned int shift = 12;

  while (shift > 8 && ((pixels ? pixels_packed_smem (chans, shift) :
              packed_smem (chans, shift)) > CT_PERMUTE_PACKED_SMEM ||
          ct_plan_div_up (len, (1u << shift) / es) * batches <
          CT_PERMUTE_PACKED_BLOCKS))
    shift--;
  plan->run = pixels ? CT_PERMUTE_RUN_PIXELS_PACKED :
      CT_PERMUTE_RUN_CHANNELS_PACKED;
  plan->path = pixels ? CT_PATH_PIXELS_PACKED : CT_PATH_CHANNELS_PACKED;
  plan->seg_shift = shift;
  plan->smem = pixels ? pixels_packed_smem (chans, shift) :
      packed_smem (chans, shift);
  plan->grid[0] = (unsigned int) ct_plan_div_up (len, (1u << shift) / es);
}

/* The innermost dimension moves: a batch of transposes between input dim 0
 * and input dim a = p[0], the other dimensions the batch. */
static void
plan_planes (const CtShape * s, uintptr_t bases, unsigned int es,
    CtPermutePlan * plan)
{
  unsigned long long in[4], out[4];
  int a = s->p[0], other[2] = { -1, -1 }, n = 0, inter = 0;
  CtPermutePlane *p = &plan->plane;

  ct_shape_strides (s, in, out);
  for (int k = 1; k < s->rank; k++)
    if (k != a)
      other[n++] = k;
  p->width = s->d[0];
  p->height = s->d[a];
  p->src_stride = in[a];
  p->dst_stride = out[0];
  p->n1 = other[0] >= 0 ? (unsigned int) s->d[other[0]] : 1;
  p->src1 = other[0] >= 0 ? in[other[0]] : 0;
  p->dst1 = other[0] >= 0 ? out[other[0]] : 0;
  p->n2 = other[1] >= 0 ? (unsigned int) s->d[other[1]] : 1;
  p->src2 = other[1] >= 0 ? in[other[1]] : 0;
  p->dst2 = other[1] >= 0 ? out[other[1]] : 0;
  plan->grid[1] = min_grid_y (p->n1);
  plan->grid[2] = min_grid_y (p->n2);

  if (channels_fit (p, bases, es, 16, &inter)) {
    plan->to_interleaved = inter;
    plan->channels = (unsigned int) (inter ? p->height : p->width);
    plan_channels (es, plan);
  } else if (es <= 2 && channels_fit (p, bases, es, 4, &inter) &&
      (inter ? p->height : p->width) <= CT_PERMUTE_PIXEL_CHANNELS &&
      (inter ? p->width : p->height) % (4 / es) == 0) {
    /* 2 to 4 channels of 1 or 2 bytes on whole 4-byte words, not 16-byte
     * ones (measured: docs/performance.md, "Pixels in 4-byte words") */
    plan->to_interleaved = inter;
    plan->channels = (unsigned int) (inter ? p->height : p->width);
    plan_pixels (es, 4, plan);
  } else if (has_channels (p, &inter) &&
      (inter ? p->width : p->height) >= 16) {
    /* misaligned channels, but not a thin plane (both sides short) */
    plan->to_interleaved = inter;
    plan->channels = (unsigned int) (inter ? p->height : p->width);
    plan_packed (es, plan);
  } else {
    plan->run = CT_PERMUTE_RUN_PLANES;
    plan->path = CT_PATH_NONE;
  }
}

CtResult
ct_plan_permute (const void *src, const void *dst,
    const unsigned long long dims[4], unsigned int elem_size,
    const unsigned int perm[4], CtPermutePlan * plan)
{
  const CtResult res = ct_permute_validate (dims, elem_size, perm);
  const uintptr_t bases = (uintptr_t) src | (uintptr_t) dst;
  const CtPermutePlan none = { 0 };
  CtShape s;
  int identity = 1;

  if (res != CT_OK)
    return res;
  /* the element kernels read and write whole elements: a pointer off
   * their alignment would fault the context */
  if (!src || !dst || bases % elem_size != 0)
    return CT_ERROR_INVALID_ARGUMENT;
  s = ct_shape_simplify (dims, perm);
  for (int k = 0; k < s.rank; k++)
    if (s.d[k] > 0xffffffffull)
      return CT_ERROR_INVALID_ARGUMENT;   /* merged past 32-bit indices */
  for (int i = 0; i < s.rank; i++)
    identity = identity && s.p[i] == i;
  /* the sides of a 2-D transpose are the planner's, under 2^31 */
  if (s.rank > 1 && s.p[0] != 0 &&
      (s.d[0] > INT_MAX || s.d[s.p[0]] > INT_MAX))
    return CT_ERROR_INVALID_ARGUMENT;

  *plan = none;
  plan->shape = s;
  if (identity) {
    plan->run = CT_PERMUTE_RUN_COPY;
    plan->path = CT_PATH_COPY;
    plan->bytes = elem_size;
    for (int k = 0; k < 4; k++)
      plan->bytes *= dims[k];
  } else if (s.p[0] == 0) {
    plan_rows (&s, bases, elem_size, plan);
  } else {
    plan_planes (&s, bases, elem_size, plan);
  }
  return CT_OK;
}

unsigned int
ct_permute_plane_batches (const CtPermutePlan * plan)
{
  const CtPermutePlane *p = &plan->plane;

  return p->n2 > p->n1 ? p->n1 : p->n2;
}

void
ct_permute_plane_steps (const CtPermutePlan * plan, unsigned int es,
    size_t *src_step, size_t *dst_step)
{
  const CtPermutePlane *p = &plan->plane;
  const int swap = p->n2 > p->n1;

  *src_step = (swap ? p->src1 : p->src2) * es;
  *dst_step = (swap ? p->dst1 : p->dst2) * es;
}

void
ct_permute_plane_batch (const CtPermutePlan * plan, const void *src,
    void *dst, unsigned int es, unsigned int k, CtPlaneBatch * b)
{
  const CtPermutePlane *p = &plan->plane;
  const int swap = p->n2 > p->n1;
  size_t src_step, dst_step;

  ct_permute_plane_steps (plan, es, &src_step, &dst_step);
  b->plane.src = (const unsigned char *) src + k * src_step;
  b->plane.dst = (unsigned char *) dst + k * dst_step;
  b->plane.src_stride = p->src_stride * es;
  b->plane.dst_stride = p->dst_stride * es;
  b->plane.width = (unsigned int) p->width;
  b->plane.height = (unsigned int) p->height;
  b->plane.elem_size = es;
  b->count = swap ? p->n2 : p->n1;
  b->src_step = (swap ? p->src2 : p->src1) * es;
  b->dst_step = (swap ? p->dst2 : p->dst1) * es;
}
