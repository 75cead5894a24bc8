/* cudatranspose: how the one-launch families, the wide variants and auto
 * (transpose-wide.cu) and the flips (flip.cu), turn a planned call into
 * launches, and which path a call reports. Host code, internal to
 * kernels/. */
#pragma once

#include "cudatranspose-kernels.h"
#include "transpose-common.cuh"

namespace ct {

/* An entry that moves nothing: neither planned nor launched. */
inline bool
empty_batch (const CtPlaneBatch & b)
{
  return b.plane.width == 0 || b.plane.height == 0 || b.count == 0;
}

/* The path of a call's largest entry, by bytes (the first of equal ones):
 * what ran for most of the call, ct_transpose_batches_ex's @ran.
 * CT_PATH_NONE until an entry is added. */
struct LargestPath
{
  double bytes = -1;
  CtPath path = CT_PATH_NONE;

  /* @count planes @pl, as their kernel sees them, on @p */
  void add (const CtPlane & pl, unsigned int count, CtPath p)
  {
    const double b = (double) pl.width * pl.height * pl.elem_size * count;

    if (b > bytes) {
      bytes = b;
      path = p;
    }
  }
};

/* Launches the non-empty entries of a call (@get (i) is entry i as a
 * batch) in order, in groups: a launch holds up to CT_PLANES_PER_LAUNCH
 * entries that one kernel takes, and at most kMaxGridX blocks; a batch
 * takes as many launches as that limit needs. Every entry is planned
 * before this runs (a refused call launches nothing), so nothing here
 * can refuse one. The family (@fam) says the rest:
 *   Args            the launch arguments: n_planes, first_block[] and
 *                   plane[] (with a, count, src_step and dst_step), for
 *                   CT_PLANES_PER_LAUNCH entries
 *   Entry           an entry's plan: blocks (per plane, > 0) and pl (the
 *                   plane as its kernel sees it)
 *   Group           the kernel of the group being filled; a new group
 *                   starts as Group {}
 *   entry (i, b)    the plan of non-empty entry i (b: entry i)
 *   other_kernel (g, e)  whether e needs another kernel than group g's
 *   join (&g, e)    e's planes join group g
 *   fill (&plane, e)  an entry's launch arguments, but for which of its
 *                   planes they are (a, count and the steps: set here)
 *   launch (f, blocks, g)  launches f in group g's kernel (nothing where
 *                   blocks is 0) */
template <typename Family, typename Get>
CtResult
launch_groups (unsigned int n, Get get, CtMapping mapping,
    const Family & fam)
{
  typename Family::Args f;
  typename Family::Group g {};
  unsigned long long blocks = 0;
  CtResult res = CT_OK;

  f.n_planes = 0;
  for (unsigned int i = 0; res == CT_OK && i < n; i++) {
    const CtPlaneBatch b = get (i);
    if (empty_batch (b))
      continue;
    const typename Family::Entry e = fam.entry (i, b);
    for (unsigned int done = 0; res == CT_OK && done < b.count;) {
      if (f.n_planes == CT_PLANES_PER_LAUNCH ||
          blocks + e.blocks > kMaxGridX ||
          (f.n_planes > 0 && fam.other_kernel (g, e))) {
        res = fam.launch (f, blocks, g);
        f.n_planes = 0;
        blocks = 0;
        g = typename Family::Group {};
        if (res != CT_OK)
          break;
      }
      fam.join (&g, e);

      /* as many of the batch's planes as the grid still holds */
      const unsigned long long room = (kMaxGridX - blocks) / e.blocks;
      const unsigned int take = b.count - done < room ?
          b.count - done : (unsigned int) room;
      auto & fp = f.plane[f.n_planes];
      fam.fill (&fp, e);
      fp.a = plane_args (e.pl, mapping);
      fp.a.src += (size_t) done * b.src_step;
      fp.a.dst += (size_t) done * b.dst_step;
      fp.count = take;
      fp.src_step = b.src_step;
      fp.dst_step = b.dst_step;
      f.first_block[f.n_planes++] = (unsigned int) blocks;
      blocks += e.blocks * take;
      done += take;
    }
  }
  if (res == CT_OK)
    res = fam.launch (f, blocks, g);
  return res;
}

}  // namespace ct
