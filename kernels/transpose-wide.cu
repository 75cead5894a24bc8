/* cudatranspose: the wide variants and auto, one launch for all planes
 * of a call: the kernels and the planner. The tiles they run are in
 * wide-tiles.cuh.
 *
 * The named variants (wide, wide-padded, wide-swizzle) run their own tile.
 * auto has more paths (CtPath): it streams a single plane of a few waves
 * (k_stream: a grid of as many blocks as fit, each moving tiles in turn),
 * moves other single 4-byte planes in a 64x64 tile at 8 blocks per
 * multiprocessor (k_tile), a single byte plane too small to stream in a
 * 128x128 tile in registers (k_mid), and a byte plane (or batch) alone in
 * its call with a short side of 16 to 64 in a tile spanning that side
 * (k_skinny); the same byte tile staged in shared memory (k_lines) where
 * the plane's width suits it, and for every plane of a frame of byte
 * planes, in one launch. A launch of one plane takes one plane's launch
 * arguments (OneArgs): they are copied with every launch.
 * The planner (plan (), wide-planner.cuh) makes every choice, by the
 * tables kPaths and kAuto.
 *
 * An entry of the launch arguments is a plane or a batch of equal planes at
 * fixed steps (ct_transpose_batches): a block divides to find its plane.
 *
 * Every plane of the call is a range of blocks of one 1-D grid; a block
 * finds its plane in the launch arguments and switches on its path, so each
 * plane can take its own way. Planes narrower or shorter than 16
 * (kAuto.thin) take the thin path. Planes the wide tiles cannot take
 * (misaligned) take an exact tile inside the same launch, or alone in
 * k_exact (k_exact_words for a plane of 4-byte elements in whole words,
 * of at most the L2's bytes) when they are the launch's only plane; a
 * larger such plane of 4-byte elements streams instead (k_stream_words).
 * The mirrored mappings are the transpose with pointers and strides
 * changed (ct::plane_args), so every path takes every mapping that swaps
 * the axes; the ones that keep them are flip.cu's.
 */
#include "cudatranspose-kernels-tests.h"
#include "device-cache.h"
#include "launch-groups.cuh"
#include "plan.h"
#include "transpose-common.cuh"
#include "wide-planner.cuh"
#include "wide-tiles.cuh"

#include <cuda_runtime.h>

#include <limits.h>
#include <new>
#include <stdint.h>
#include <type_traits>

namespace {

using namespace ct_wide;
using ct::LargestPath;
using ct::div_up;
using ct::empty_batch;
using ct::allow_smem;
using ct::kMaxGridX;


/// The one-launch kernel: block b belongs to the last plane whose first
/// block is <= b, and moves one tile (or thin block) of it by that plane's
/// path (wide_block). Two of them: the register kernel (the register
/// stage) at 2 blocks per multiprocessor, as its 256 bytes in flight per
/// thread need 128 registers, and the staged kernel (padded and swizzled
/// stages, whose tiles wait in shared memory) at 3. Both have the small
/// and thin paths. Each comes again with BATCH for launches with batches
/// of planes: the plane's pointers then live in registers, which made the
/// staged kernel spill, so launches without batches keep reading them from
/// the launch arguments (measured: docs/kernels.md,
/// "Batches in a build of their own"). The exact path is only in the
/// staged kernel's EXACT variants, which launches with a misaligned plane
/// take: its code inside the other kernels slowed their tiles (measured:
/// docs/kernels.md, "The exact path in a build of its own").
template <bool STAGED, bool BATCH, bool EXACT, typename Args>
__global__ void __launch_bounds__ (kThreads, STAGED ? kStagedPerSm : 2)
k_wide (const __grid_constant__ Args f)
{
  extern __shared__ uint4 smem_raw[];
  uint32_t *smem = reinterpret_cast<uint32_t *>(smem_raw);
  const unsigned int i = plane_index (f);
  const FramePlane & fp = f.plane[i];
  unsigned int t = blockIdx.x - f.first_block[i];

  if constexpr (std::is_same_v<Args, TwoLevelArgs>) {
    const PlaneArgs a = two_level_plane (f, &t);
    wide_block<STAGED, EXACT> (fp, a, t, smem);
  } else if constexpr (BATCH) {
    const PlaneArgs a = batch_plane (fp, &t);
    wide_block<STAGED, EXACT> (fp, a, t, smem);
  } else {
    wide_block<STAGED, EXACT> (fp, fp.a, t, smem);
  }
}

/// The thin kernel: a group of thin planes alone. The thin paths of
/// k_wide, without the rest of it: a small kernel starts sooner, which is
/// most of a thin plane's time.
template <typename Args>
__global__ void __launch_bounds__ (kThreads)
k_thin (const __grid_constant__ Args f)
{
  const unsigned int i = plane_index (f);
  const FramePlane & fp = f.plane[i];
  unsigned int t = blockIdx.x - f.first_block[i];
  const PlaneArgs a = batch_plane (fp, &t);
  thin_any (fp.elem, a, t / fp.tiles_y, t % fp.tiles_y, fp.thin_shift);
}

/// The stream kernels, one per element size: one plane on the stream path
/// (host: fits () and WideFamily's grouping keep it alone in its
/// launch), a grid of as many blocks as fit at once: 1 per
/// multiprocessor for bytes, 2 for the rest, by their shared memory. Kernels
/// of their own, with the plane at a constant index: inside k_wide, or in
/// one kernel for all sizes, the bytes' loop was slower (measured:
/// docs/kernels.md, "A stream kernel per element size").
template <int E>
__global__ void __launch_bounds__ (kThreads, E == 1 ? 1 : kStreamPerSm)
k_stream (const __grid_constant__ OneArgs f)
{
  extern __shared__ uint4 smem_raw[];

  stream_tiles<E> (f.plane[0], blockIdx.x,
      reinterpret_cast<uint32_t *>(smem_raw));
}

/// The streamed word kernel (stream-words): a single plane of 4-byte
/// elements whose rows are not whole 16-byte words (a float32 tensor's
/// packed rows), of 2.5 or more tiles per multiprocessor (kAuto), in
/// k_stream's grid and tiles (stream_words_tiles). Smaller planes keep
/// the exact path's word tile (measured: docs/kernels.md,
/// "stream-words from 2.5 tiles per multiprocessor").
__global__ void __launch_bounds__ (kThreads, kStreamPerSm)
k_stream_words (const __grid_constant__ OneArgs f)
{
  extern __shared__ uint4 smem_raw[];

  stream_words_tiles (f.plane[0], blockIdx.x,
      reinterpret_cast<uint32_t *>(smem_raw));
}

/// The tile kernel (wide-swizzle on a single plane of 4-byte elements too
/// large to stream, or too small): wide_tile's swizzled path on 64 x 64
/// tiles, one per block, down the columns of tiles, kTilePerSm blocks per
/// multiprocessor: ahead of the big tile's 256 x 64 at 3 blocks, which on
/// a plane of 64 rows is three quarters past its edge (measured:
/// docs/kernels.md, "64 x 64 tiles for 4-byte planes"). Its own kernel:
/// k_wide's launch bounds are 3 blocks.
template <int E>
__global__ void __launch_bounds__ (kThreads,
    ct::min_blocks (kTilePerSm, kThreads))
k_tile (const __grid_constant__ OneArgs f)
{
  extern __shared__ uint4 smem_raw[];
  const FramePlane & fp = f.plane[0];

  wide_tile<E, Tile<E>, STAGE_SWIZZLE> (fp.a, blockIdx.x / fp.tiles_y,
      blockIdx.x % fp.tiles_y, reinterpret_cast<uint32_t *>(smem_raw));
}

/// The skinny kernel: a byte plane or a batch of them, a skinny tile per
/// block (skinny_tile).
template <int RG, int CC>
__global__ void __launch_bounds__ (kThreads, kStagedPerSm)
k_skinny (const __grid_constant__ OneArgs f)
{
  extern __shared__ uint4 smem_raw[];
  const FramePlane & fp = f.plane[0];
  unsigned int t = blockIdx.x;
  const PlaneArgs p = batch_plane (fp, &t);

  skinny_tile<RG, CC> (p, t % fp.tiles_x, t / fp.tiles_x, smem_raw);
}

/// The mid-size byte kernel (auto on a single byte plane of up to about
/// 1.5 big tiles per multiprocessor, 2 to 16 MB): wide_tile's register
/// path on a 128 x 128 tile of 8 x 8 byte micro-blocks, along the rows of
/// tiles, 4 or more blocks per multiprocessor. Such a plane makes too few
/// big tiles to hide the memory's latency (3840x2160: 135 tiles of 64 KB
/// for 132 multiprocessors), and k_wide's small tile runs at its 2 blocks
/// per multiprocessor, its 128 registers being for the big tile
/// (measured: docs/kernels.md, "The mid-size byte kernel").
__global__ void __launch_bounds__ (kThreads, kMidPerSm)
k_mid (const __grid_constant__ OneArgs f)
{
  const FramePlane & fp = f.plane[0];

  wide_tile<1, MidBytes, STAGE_REGISTERS> (fp.a, blockIdx.x % fp.tiles_x,
      blockIdx.x / fp.tiles_x, nullptr);
}

/// The lines kernel (tile-128-lines): lines_tile, a 128 x 128 byte tile
/// per block staged in 16 KB of shared memory, along the rows of tiles, as
/// k_mid's grid. k_mid reads 32 bytes of each of 8 rows and writes 64
/// bytes of each of 4 rows an instruction; this one whole 128-byte lines
/// both ways, so the same bytes take a quarter of the load requests (whole
/// lines, which the memory serves as a copy's) and half the store
/// requests. With FrameArgs, the byte planes of a call (no batch) in one
/// launch, block b in the last plane whose first block is <= b; with
/// TwoLevelArgs, the planes of a tensor's two batch levels.
template <typename Args>
__global__ void __launch_bounds__ (kThreads, kMidPerSm)
k_lines (const __grid_constant__ Args f)
{
  extern __shared__ uint4 smem_raw[];

  if constexpr (std::is_same_v<Args, OneArgs>) {
    const FramePlane & fp = f.plane[0];

    lines_tile (fp.a, blockIdx.x % fp.tiles_x, blockIdx.x / fp.tiles_x,
        smem_raw);
  } else if constexpr (std::is_same_v<Args, TwoLevelArgs>) {
    const FramePlane & fp = f.plane[0];
    unsigned int t = blockIdx.x;
    const PlaneArgs a = two_level_plane (f, &t);

    lines_tile (a, t % fp.tiles_x, t / fp.tiles_x, smem_raw);
  } else {
    const unsigned int i = plane_index (f);
    const FramePlane & fp = f.plane[i];
    const unsigned int t = blockIdx.x - f.first_block[i];

    lines_tile (fp.a, t % fp.tiles_x, t / fp.tiles_x, smem_raw);
  }
}

/// The exact kernel: a single plane of 1- to 4-byte elements on the exact
/// path, alone in its launch (a tensor's tight rows, odd strides):
/// realign_tile (byte_words_tile for bytes, realign_rgb_tile for 3-byte
/// elements), one per block along the rows of tiles, at
/// ExactTile<ES>::PER_SM blocks per multiprocessor. In k_wide's exact
/// variant, whose launch bounds are the staged tiles' 3 blocks, the tile
/// ran short of issue slots (measured: docs/kernels.md, "A kernel of its
/// own for the exact tile").
template <int ES>
__global__ void __launch_bounds__ (kThreads, ExactTile<ES>::PER_SM)
k_exact (const __grid_constant__ OneArgs f)
{
  extern __shared__ uint4 smem_raw[];
  const FramePlane & fp = f.plane[0];
  const unsigned int tx = blockIdx.x % fp.tiles_x;
  const unsigned int ty = blockIdx.x / fp.tiles_x;
  uint32_t *smem = reinterpret_cast<uint32_t *>(smem_raw);

  if constexpr (ES == 1)
    byte_words_tile (fp.a, tx, ty, smem);
  else if constexpr (ES == 3)
    realign_rgb_tile (fp.a, tx, ty, smem);
  else
    realign_tile<ES> (fp.a, tx, ty, smem);
}

/// The exact kernel for a single plane of 4-byte elements whose pointers
/// and strides are whole words (a float32 tensor's packed rows), of at
/// most the L2's bytes (the planner's STAGE_WORDS): staged_word_tile, one
/// per block down the columns of tiles, 8 blocks per multiprocessor.
/// Ahead of k_exact on planes that fit the L2, slower past it, so larger
/// planes keep k_exact (measured: docs/kernels.md,
/// "The word tile up to the L2's size").
__global__ void __launch_bounds__ (kThreads, ct::min_blocks (8, kThreads))
k_exact_words (const __grid_constant__ OneArgs f)
{
  extern __shared__ uint4 smem_raw[];
  const FramePlane & fp = f.plane[0];

  staged_word_tile (fp.a, blockIdx.x / fp.tiles_y, blockIdx.x % fp.tiles_y,
      reinterpret_cast<uint32_t *>(smem_raw));
}

/* The slots of the wide family's kernels in ct::allow_smem's cache
 * (device-cache.cu), by launch_kernel: the one-launch kernels by family,
 * the stream kernels from FAMILY_STREAM by size index, the tile kernel at
 * FAMILY_STREAM + 5, the skinny ones at + 6 and + 7, the one-launch
 * kernels for batches at + 8 + family, and the staged one's for one entry
 * at + 10 (+ 11 for batches); the staged kernel's exact variants at + 12
 * (+ 13 for batches) and, for one entry, + 14 (+ 15); the streamed word
 * kernel at + 16. k_thin and k_mid take no shared memory, k_lines 16 KB. */
static_assert (FAMILY_STREAM + 17 <= ct::kSmemSlots, "a slot a kernel");

/* A launch's kernel: one that takes the arguments of several entries, or
 * one that takes one entry's (OneArgs); and its shared-memory slot. */
struct Kernel
{
  void (*many) (FrameArgs);
  void (*one) (OneArgs);
  int slot;
};

/* The one-launch kernel of family @k (FAMILY_REGISTERS or FAMILY_STAGED)
 * for a launch of @n entries: the staged one's variant for one entry where
 * @n is 1. (The register kernel has none: built for one entry it took 96
 * registers instead of 128 and ran 3-byte planes slower; measured:
 * docs/kernels.md, "Eight planes' arguments for the register kernel".)
 * EXACT (staged only): the variants with the exact path. */
template <bool STAGED, bool BATCH, bool EXACT>
Kernel
wide_kernel (unsigned int n, int k)
{
  static_assert (STAGED || !EXACT, "the exact path is in the staged kernel");
  if constexpr (EXACT) {
    if (n == 1)
      return Kernel { nullptr, k_wide<true, BATCH, true, OneArgs>,
        FAMILY_STREAM + 14 + (BATCH ? 1 : 0) };
    return Kernel { k_wide<true, BATCH, true, FrameArgs>, nullptr,
      FAMILY_STREAM + 12 + (BATCH ? 1 : 0) };
  }
  if constexpr (STAGED) {
    if (n == 1)
      return Kernel { nullptr, k_wide<STAGED, BATCH, false, OneArgs>,
        FAMILY_STREAM + 10 + (BATCH ? 1 : 0) };
  }
  return Kernel { k_wide<STAGED, BATCH, false, FrameArgs>, nullptr,
    BATCH ? FAMILY_STREAM + 8 + k : k };
}

/* The kernel of a launch of @family of @n entries whose first is @fp (a
 * thin group: k_thin; thin and exact planes alone: the staged k_wide, the
 * smaller of the two; @exact: a group with an exact plane, which only the
 * staged kernel's EXACT variants take); none (both NULL) for an element
 * size it lacks. */
Kernel
launch_kernel (int family, const FramePlane & fp, unsigned int n,
    bool thin_only, bool exact, bool batch)
{
  const int k = family == FAMILY_ANY ? FAMILY_STAGED : family;
  const int size = size_index (fp.elem);
  const int stream_slot = FAMILY_STREAM + size;

  switch (thin_only ? -2 : k) {
    case -2:
      return n == 1 ? Kernel { nullptr, k_thin<OneArgs>, 0 } :
          Kernel { k_thin<FrameArgs>, nullptr, 0 };
    case FAMILY_STREAM:
      switch (fp.elem) {
        case 1:
          return Kernel { nullptr, k_stream<1>, stream_slot };
        case 2:
          return Kernel { nullptr, k_stream<2>, stream_slot };
        case 4:
          return Kernel { nullptr, k_stream<4>, stream_slot };
        case 8:
          return Kernel { nullptr, k_stream<8>, stream_slot };
        default:
          return Kernel { nullptr, nullptr, 0 };  /* (kPaths: no 3-byte) */
      }
    case FAMILY_TILE:
      /* (kPaths: 4 only) */
      return Kernel { nullptr, fp.elem == 4 ? k_tile<4> : nullptr,
        FAMILY_STREAM + 5 };
    case FAMILY_SKINNY:
      return fp.stage == STAGE_SKINNY_ROWS ?
          Kernel { nullptr, k_skinny<4, 64>, FAMILY_STREAM + 6 } :
          Kernel { nullptr, k_skinny<64, 4>, FAMILY_STREAM + 7 };
    case FAMILY_STREAM_WORDS:
      /* (kPaths: 4 only) */
      return Kernel { nullptr, fp.elem == 4 ? k_stream_words : nullptr,
        FAMILY_STREAM + 16 };
    case FAMILY_MID:
      return Kernel { nullptr, fp.elem == 1 ? k_mid : nullptr, 0 };
    case FAMILY_LINES:
      /* (16 KB of shared memory: under the 48 KB needing no slot) */
      if (fp.elem != 1)
        return Kernel { nullptr, nullptr, 0 };
      return n == 1 ? Kernel { nullptr, k_lines<OneArgs>, 0 } :
          Kernel { k_lines<FrameArgs>, nullptr, 0 };
    case FAMILY_STAGED:
      /* a single exact plane of 1- to 4-byte elements: k_exact, or
       * k_exact_words (their 17 KB of shared memory at most need no
       * slot) */
      if (exact && n == 1 && !batch && fp.way == WAY_EXACT) {
        switch (fp.elem) {
          case 1:
            return Kernel { nullptr, k_exact<1>, 0 };
          case 2:
            return Kernel { nullptr, k_exact<2>, 0 };
          case 3:
            return Kernel { nullptr, k_exact<3>, 0 };
          case 4:
            return Kernel { nullptr, fp.stage == STAGE_WORDS ?
                  k_exact_words : k_exact<4>, 0 };
          default:
            break;
        }
      }
      if (exact)
        return batch ? wide_kernel<true, true, true> (n, k) :
            wide_kernel<true, false, true> (n, k);
      return batch ? wide_kernel<true, true, false> (n, k) :
          wide_kernel<true, false, false> (n, k);
    default:
      /* (WideFamily keeps exact planes out of register launches) */
      if (exact)
        return Kernel { nullptr, nullptr, 0 };
      return batch ? wide_kernel<false, true, false> (n, k) :
          wide_kernel<false, false, false> (n, k);
  }
}

CtResult
launch_group (const FrameArgs & f, unsigned int blocks, size_t smem,
    int family, bool thin_only, bool exact, cudaStream_t s)
{
  bool batch = false;

  if (blocks == 0)
    return CT_OK;
  for (unsigned int i = 0; i < f.n_planes; i++)
    batch = batch || f.plane[i].count > 1;
  const Kernel kernel = launch_kernel (family, f.plane[0], f.n_planes,
      thin_only, exact, batch);
  if (kernel.many == nullptr && kernel.one == nullptr)
    return CT_ERROR_UNSUPPORTED_ELEMENT_SIZE;
  /* (the kernels of one entry are only asked for by launches of one) */
  if (kernel.one != nullptr && f.n_planes != 1)
    return CT_ERROR_INVALID_ARGUMENT;
  if (smem > 48 * 1024) {
    CtResult res = allow_smem (kernel.one != nullptr ?
        (const void *) kernel.one : (const void *) kernel.many, kernel.slot,
        smem);
    if (res != CT_OK)
      return res;
  }
  if (kernel.one != nullptr) {
    OneArgs one;

    one.n_planes = 1;
    one.first_block[0] = f.first_block[0];
    one.plane[0] = f.plane[0];
    kernel.one<<<blocks, kThreads, smem, s>>> (one);
  } else {
    kernel.many<<<blocks, kThreads, smem, s>>> (f);
  }
  return (CtResult) cudaGetLastError ();
}

}  // namespace

namespace {

Entry
entry_of (const CtPlaneBatch & b)
{
  Entry e;

  e.pl = &b.plane;
  e.count = b.count;
  e.bits = ct_plan_batch_bits (&b);
  return e;
}


/* The planner's choice for every entry of a call (@get (i) is entry i as a
 * batch), in @choices, and in *@ran the path of the entry with the most
 * bytes. Nothing runs: a forced path that cannot take an entry fails here. */
template <typename Get>
CtResult
plan_call (unsigned int n, Get get, CtKernel kernel, CtPath force,
    const Device & d, Choice * choices, CtPath * ran)
{
  Call call = { kernel, force, 0, false, ~0ull, false };
  unsigned long long live = 0;
  unsigned int entries = 0;
  bool other_sizes = false, batches = false, frame_widths = true;
  unsigned long long frame_bytes = 0;
  LargestPath largest;

  for (unsigned int i = 0; i < n; i++) {
    const CtPlaneBatch b = get (i);
    if (!empty_batch (b)) {
      live += b.count;
      entries++;
      other_sizes = other_sizes || b.plane.elem_size != 1;
      batches = batches || b.count > 1;
      frame_widths = frame_widths &&
          b.plane.width % kAuto.lines_frame_width_unit == 0;
      /* (a plane's width x height fits; the sum saturates) */
      const unsigned long long bytes =
          (unsigned long long) b.plane.width * b.plane.height;
      frame_bytes = bytes > ~0ull - frame_bytes ? ~0ull : frame_bytes + bytes;
    }
  }
  call.n_planes = live > UINT_MAX ? UINT_MAX : (unsigned int) live;
  call.one_entry = entries == 1;

  /* auto's choice of tile size looks at the whole call: the tiles its
   * planes would make as big tiles; a call with other element sizes keeps
   * the big tiles (and is not counted) */
  if (kernel == CT_KERNEL_AUTO && force == CT_PATH_NONE && !other_sizes) {
    unsigned long long call_blocks = 0;
    for (unsigned int i = 0; i < n; i++) {
      const CtPlaneBatch b = get (i);
      Choice c;
      if (empty_batch (b))
        continue;
      (void) plan (entry_of (b), call, d, &c);
      call_blocks += (unsigned long long) c.tiles_x * c.tiles_y * b.count;
    }
    call.call_blocks = call_blocks;
    /* (after the count, which stays in big tiles: the small tile's rule
     * for the planes the lines tile cannot take; an eighth of a big
     * tile's 64 KB is 8 KB) */
    call.lines_frame = entries > 1 && !batches && frame_widths &&
        frame_bytes / 8192 >= (unsigned long long)
        kAuto.lines_frame_from_eighths * d.n_sms;
  }

  bool all_thin = true;
  for (unsigned int i = 0; i < n; i++) {
    const CtPlaneBatch b = get (i);
    if (empty_batch (b))
      continue;
    CtResult res = plan (entry_of (b), call, d, &choices[i]);
    if (res != CT_OK)
      return res;
    all_thin = all_thin && choices[i].info->way == WAY_THIN;
    largest.add (b.plane, b.count, choices[i].info->path);
  }
  *ran = largest.path;
  /* several elements per thread only in k_thin, which runs calls of thin
   * planes alone: k_wide has the one-element thin block only (the others,
   * unrolled, grew its code by a sixth at the same registers, and its
   * tiles slowed; measured: docs/kernels.md,
   * "One element a thread on thin planes in k_wide") */
  for (unsigned int i = 0; !all_thin && i < n; i++) {
    const CtPlaneBatch b = get (i);
    if (!empty_batch (b) && choices[i].info->way == WAY_THIN)
      thin_geometry (b.plane, 0, &choices[i]);
  }
  return CT_OK;
}

/* launch_groups' hooks for the wide family: an entry's kernel is its
 * path's family. A group of thin and exact planes (FAMILY_ANY) joins any
 * other of the one-launch kernels, but for exact planes and the register
 * kernel, which has no exact path (k_wide); the kernels of FAMILY_STREAM
 * and above take their entry alone, but k_lines, which takes the planes
 * of its own path and no other. */
struct WideFamily
{
  typedef FrameArgs Args;

  struct Entry
  {
    unsigned long long blocks;
    CtPlane pl;
    const Choice *c;
  };

  struct Group
  {
    int family = FAMILY_ANY;
    bool thin_only = true;
    bool exact = false;         /* an exact plane in it */
    size_t smem = 0;
  };

  const Choice *choices;
  cudaStream_t stream;

  Entry entry (unsigned int i, const CtPlaneBatch & b) const
  {
    return Entry { choices[i].blocks, b.plane, &choices[i] };
  }

  bool other_kernel (const Group & g, const Entry & e) const
  {
    const int family = e.c->info->family;
    const bool exact = e.c->info->way == WAY_EXACT;

    if (family == FAMILY_LINES || g.family == FAMILY_LINES)
      return family != g.family;
    return family >= FAMILY_STREAM || g.family >= FAMILY_STREAM ||
        (family != FAMILY_ANY && g.family != FAMILY_ANY &&
        family != g.family) ||
        (exact && g.family == FAMILY_REGISTERS) ||
        (g.exact && family == FAMILY_REGISTERS);
  }

  void join (Group * g, const Entry & e) const
  {
    if (e.c->info->family != FAMILY_ANY)
      g->family = e.c->info->family;
    g->thin_only = g->thin_only && e.c->info->way == WAY_THIN;
    g->exact = g->exact || e.c->info->way == WAY_EXACT;
    if (e.c->smem > g->smem)
      g->smem = e.c->smem;
  }

  void fill (FramePlane * fp, const Entry & e) const
  {
    const Choice & c = *e.c;

    fp->tiles_x = c.tiles_x;
    fp->tiles_y = c.tiles_y;
    fp->blocks = (unsigned int) c.blocks;
    fp->way = (unsigned char) c.info->way;
    fp->elem = (unsigned char) e.pl.elem_size;
    fp->stage = (unsigned char) c.stage;
    fp->words = c.words;
    fp->by_columns = c.by_columns;
    fp->thin_shift = (unsigned char) c.thin_shift;
  }

  CtResult launch (const Args & f, unsigned long long blocks,
      const Group & g) const
  {
    return launch_group (f, (unsigned int) blocks, g.smem, g.family,
        g.thin_only, g.exact, stream);
  }
};

/* Room for the planner's choice for each entry of a call: on the stack
 * for up to kOnStack entries (a call of a few planes allocates nothing),
 * else on the heap. */
struct Choices
{
  static constexpr unsigned int kOnStack = 16;
  Choice on_stack[kOnStack];
  Choice *at = on_stack;

  Choices () = default;
  Choices (const Choices &) = delete;
  Choices & operator= (const Choices &) = delete;

  ~Choices ()
  {
    if (at != on_stack)
      delete[] at;
  }

  /* false where the heap had no room for @n */
  bool reserve (unsigned int n)
  {
    if (n > kOnStack)
      at = new (std::nothrow) Choice[n];
    return at != nullptr;
  }
};

/* Every entry of a call planned (@get (i) is entry i as a batch) on @d,
 * into @choices, and in *@ran the path of its largest entry; a call that
 * names no path or cannot run (a forced path that cannot take an entry,
 * an entry of more blocks than a grid holds) fails here, before anything
 * is launched. */
template <typename Get>
CtResult
plan_entries (unsigned int n, Get get, CtKernel kernel, CtPath force,
    const Device & d, Choices * choices, CtPath * ran)
{
  CtResult res;

  if (force != CT_PATH_NONE && path_info (force) == nullptr)
    return CT_ERROR_UNSUPPORTED_KERNEL;
  if (!choices->reserve (n))
    return (CtResult) cudaErrorMemoryAllocation;
  res = plan_call (n, get, kernel, force, d, choices->at, ran);
  for (unsigned int i = 0; res == CT_OK && i < n; i++) {
    const CtPlaneBatch b = get (i);
    if (!empty_batch (b) && choices->at[i].blocks > kMaxGridX)
      res = CT_ERROR_INVALID_ARGUMENT;
  }
  return res;
}

/* ct_launch_wide and ct_launch_batches: @get (i) is entry i as a batch.
 * Planned first (so a refused call runs nothing), then launched in
 * groups (ct::launch_groups) of one kernel family each. */
template <typename Get>
CtResult
launch_wide (unsigned int n, Get get, CtKernel kernel, CtPath force,
    CtMapping mapping, cudaStream_t stream, CtPath * ran)
{
  Choices choices;
  CtPath main_path = CT_PATH_NONE;
  Device d;
  CtResult res = ct_device_now (&d);

  if (res != CT_OK)
    return res;
  res = plan_entries (n, get, kernel, force, d, &choices, &main_path);
  if (res == CT_OK)
    res = ct::launch_groups (n, get, mapping,
        WideFamily { choices.at, stream });
  if (res == CT_OK && ran != nullptr)
    *ran = main_path;
  return res;
}

/* A two-level call: @n copies of batch @b, copy i @src_step2 and
 * @dst_step2 bytes on from the first (a tensor's two batch dimensions). */
struct TwoLevels
{
  CtPlaneBatch b;
  unsigned int n;
  size_t src_step2, dst_step2;

  CtPlaneBatch operator() (unsigned int i) const
  {
    CtPlaneBatch e = b;

    e.plane.src = static_cast<const unsigned char *>(b.plane.src) +
        (size_t) i * src_step2;
    e.plane.dst = static_cast<unsigned char *>(b.plane.dst) +
        (size_t) i * dst_step2;
    return e;
  }
};

/* The call @t planned as ct_launch_batches plans its n batches, into
 * @choices and *@ran, after ct_transpose_batches_ex's checks; *@one: whether
 * it runs as one launch (every batch planned alike on the register tile,
 * within the grid) instead of a launch per CT_PLANES_PER_LAUNCH batches,
 * each with a few blocks a multiprocessor (measured: docs/performance.md,
 * "Two batch levels in one launch"); byte planes then on the lines tile,
 * choices->at[0] and *@ran its choice (performance.md, "Two batch levels
 * of byte planes in the lines tile"). */
CtResult
plan_two_levels (const TwoLevels & t, const Device & d, Choices * choices,
    CtPath * ran, bool *one)
{
  CtResult res = CT_OK;

  for (unsigned int i = 0; res == CT_OK && i < t.n; i++) {
    const CtPlaneBatch e = t (i);
    res = ct_planes_validate (&e.plane, 1, CT_MAPPING_TRANSPOSE);
  }
  if (res == CT_OK)
    res = plan_entries (t.n, t, CT_KERNEL_AUTO, CT_PATH_NONE, d, choices,
        ran);
  if (res != CT_OK)
    return res;
  Choice *c = choices->at;
  *one = t.n > 1 && !empty_batch (t.b) &&
      c[0].info->family == FAMILY_REGISTERS &&
      c[0].blocks * t.b.count * t.n <= kMaxGridX;
  for (unsigned int i = 1; *one && i < t.n; i++)
    *one = c[i].info == c[0].info && c[i].stage == c[0].stage &&
        c[i].tiles_x == c[0].tiles_x && c[i].tiles_y == c[0].tiles_y;
  /* every copy on the register tile (so 16-aligned), of byte planes: the
   * lines tile, whose blocks leave more room a multiprocessor */
  if (*one && t.b.plane.elem_size == 1) {
    const Call call = { CT_KERNEL_AUTO, CT_PATH_NONE, 1, true, ~0ull,
      false };
    const Entry e = { &t.b.plane, 1, ct_plan_batch_bits (&t.b) };
    Choice lines;

    if (fits (CT_PATH_TILE_128_LINES, e, call, d, &lines) &&
        lines.blocks * t.b.count * t.n <= kMaxGridX) {
      c[0] = lines;
      *ran = CT_PATH_TILE_128_LINES;
    }
  }
  return CT_OK;
}

/* @t in one launch of the register kernel or (byte planes) the lines
 * kernel, by choice @c, every batch alike. */
CtResult
launch_two_levels (const TwoLevels & t, const Choice & c,
    cudaStream_t stream)
{
  const WideFamily fam { &c, stream };
  TwoLevelArgs f {};
  FramePlane & fp = f.plane[0];

  f.n_planes = 1;
  f.first_block[0] = 0;
  fam.fill (&fp, fam.entry (0, t.b));
  fp.a = ct::plane_args (t.b.plane, CT_MAPPING_TRANSPOSE);
  fp.count = t.b.count;
  fp.src_step = t.b.src_step;
  fp.dst_step = t.b.dst_step;
  f.count2 = t.n;
  f.src_step2 = t.src_step2;
  f.dst_step2 = t.dst_step2;
  const unsigned int blocks = (unsigned int) (c.blocks * t.b.count * t.n);
  if (c.info->family == FAMILY_LINES)
    k_lines<TwoLevelArgs><<<blocks, kThreads, c.smem, stream>>> (f);
  else
    k_wide<false, true, false, TwoLevelArgs><<<blocks, kThreads, 0,
        stream>>> (f);
  return (CtResult) cudaGetLastError ();
}

}  // namespace

CtResult
ct_launch_two_levels (const CtPlaneBatch * b, unsigned int n,
    size_t src_step2, size_t dst_step2, cudaStream_t stream, CtPath * ran)
{
  const TwoLevels t = { *b, n, src_step2, dst_step2 };
  Choices choices;
  CtPath main_path = CT_PATH_NONE;
  bool one = false;
  Device d;
  CtResult res = ct_device_now (&d);

  if (res == CT_OK)
    res = plan_two_levels (t, d, &choices, &main_path, &one);
  if (res == CT_OK)
    res = one ? launch_two_levels (t, choices.at[0], stream) :
        ct::launch_groups (n, t, CT_MAPPING_TRANSPOSE,
        WideFamily { choices.at, stream });
  if (res == CT_OK && ran != nullptr)
    *ran = main_path;
  return res;
}

extern "C" CtResult
ct_plan_two_levels (const CtPlanDevice * dev, const CtPlaneBatch * b,
    unsigned int n, size_t src_step2, size_t dst_step2, int *one_launch,
    CtPath * ran)
{
  Choices choices;
  CtPath main_path = CT_PATH_NONE;
  bool one = false;
  CtResult res;

  if (dev == nullptr || b == nullptr || one_launch == nullptr)
    return CT_ERROR_INVALID_ARGUMENT;
  res = plan_two_levels (TwoLevels { *b, n, src_step2, dst_step2 }, *dev,
      &choices, &main_path, &one);
  *one_launch = one;
  if (ran != nullptr)
    *ran = main_path;
  return res;
}

CtResult
ct_launch_wide (const CtPlane * planes, unsigned int n_planes,
    CtKernel kernel, CtMapping mapping, cudaStream_t stream)
{
  return launch_wide (n_planes, [planes] (unsigned int i) {
        CtPlaneBatch b = { planes[i], 1, 0, 0 };
        return b;
      }, kernel, CT_PATH_NONE, mapping, stream, nullptr);
}

CtResult
ct_launch_batches (const CtPlaneBatch * batches, unsigned int n_batches,
    CtKernel kernel, CtPath force, CtMapping mapping, cudaStream_t stream,
    CtPath * ran)
{
  return launch_wide (n_batches, [batches] (unsigned int i) {
        return batches[i];
      }, kernel, force, mapping, stream, ran);
}

/* ct_transpose_batches_ex's checks and ct_launch_batches' planning, on a
 * device given instead of the current one. */
extern "C" CtResult
ct_plan_batches (const CtPlanDevice * dev, const CtPlaneBatch * batches,
    unsigned int n_batches, CtKernel kernel, CtPath force, CtPath * paths,
    CtPath * ran)
{
  Choices choices;
  CtPath main_path = CT_PATH_NONE;
  CtResult res = CT_OK;

  if (dev == nullptr || (n_batches > 0 && (batches == nullptr ||
              paths == nullptr)))
    return CT_ERROR_INVALID_ARGUMENT;
  for (unsigned int i = 0; i < n_batches && res == CT_OK; i++)
    res = ct_planes_validate (&batches[i].plane, 1, CT_MAPPING_TRANSPOSE);
  if (res != CT_OK)
    return res;
  if (!ct::one_launch (kernel))
    return CT_ERROR_UNSUPPORTED_KERNEL;
  res = plan_entries (n_batches, [batches] (unsigned int i) {
        return batches[i];
      }, kernel, force, *dev, &choices, &main_path);
  if (res != CT_OK)
    return res;
  for (unsigned int i = 0; i < n_batches; i++)
    paths[i] = empty_batch (batches[i]) ? CT_PATH_NONE :
        choices.at[i].info->path;
  if (ran != nullptr)
    *ran = main_path;
  return CT_OK;
}
