/* cudatranspose: the mappings that keep the axes (180, horiz, vert and the
 * identity), for every GPU variant: there is no transpose to tile, only
 * rows to move, each reversed or not.
 *
 * The output's rows counted from the bottom (vert, 180) is where the rows
 * start and which way they run (ct::plane_args); reversing a row (horiz,
 * 180) is the REVERSE kernel. A thread moves units of whole elements in
 * whole 16-byte chunks (16 bytes; 48 for 3-byte elements) from a source row
 * to the same output row: aligned 16-byte stores, and for a reversed row the
 * source unit sits at the row's other end, off the 16-byte grid by the
 * row's length (W * E mod 16), so the thread loads the aligned chunks
 * around it, shifts the unit out of them in registers and reverses its
 * elements there. Neighbouring threads read neighbouring chunks, so a
 * chunk read twice comes from L1 the second time. The units at a row's
 * ends that are not whole (or, reversed, whose aligned chunks would reach
 * past the row) move element by element.
 *
 * Both ways of the flip path need the plane's pointers and strides
 * multiples of 16 bytes; other planes take the exact way, an element per
 * thread (native words where aligned to the element, else bytes), still
 * coalesced both sides. All planes of a call in one launch, as the wide
 * family (FlipArgs, like FrameArgs).
 */
#include "cudatranspose-kernels.h"
#include "launch-groups.cuh"
#include "plan.h"
#include "transpose-common.cuh"

#include <cuda_runtime.h>

#include <stdint.h>

namespace {

using ct::Bytes;
using ct::LargestPath;
using ct::PlaneArgs;
using ct::Word;
using ct::empty_batch;
using ct::kMaxGridX;
using ct::kThreads;

/* Elements per thread on the exact way (the planner's, plan-flip.c). */
constexpr int kExactPerThread = CT_FLIP_EXACT_PER_THREAD;
/* Blocks a multiprocessor holds at least (launch bounds): the kernel for
 * bytes and halves 4 (64 registers a thread: four units in flight without
 * spilling), the one for wider elements 6 (40 registers: a unit at a time,
 * more threads). */
constexpr int kNarrowPerSm = 4;
constexpr int kWidePerSm = 6;

/* A unit of E-byte elements: BYTES in NW words, V elements; PER units a
 * thread (64 bytes in flight; 48 for 3-byte elements), as the planner
 * (plan-flip.c) counts them. */
template <int E> struct Unit
{
  static constexpr int BYTES = E == 3 ? CT_FLIP_UNIT3_BYTES :
      CT_FLIP_UNIT_BYTES;
  static constexpr int NW = BYTES / 4;
  static constexpr int CHUNKS = BYTES / 16;
  static constexpr int V = BYTES / E;
  static constexpr int PER = E == 3 ? CT_FLIP_UNITS3_PER_THREAD :
      CT_FLIP_UNITS_PER_THREAD;
};
static_assert (CT_PLAN_THREADS == kThreads &&
    CT_PLAN_MAX_GRID_X == kMaxGridX, "the planner's block and grid");

struct FlipPlane
{
  PlaneArgs a;                  /* its rows' mirror done (plane_args) */
  unsigned int units;           /* per row: units, or elements (exact) */
  unsigned int seg;             /* units of a row one block moves */
  unsigned int segs;            /* blocks across a row */
  unsigned int rows;            /* rows one block moves */
  unsigned int blocks;          /* per plane */
  unsigned char elem;
  unsigned char exact;          /* the exact way, an element per slot */
  unsigned char words;          /* exact: native words (else bytes) */
  /* a batch, as FramePlane's */
  unsigned int count;
  size_t src_step, dst_step;
};

struct FlipArgs
{
  unsigned int n_planes;
  unsigned int first_block[CT_PLANES_PER_LAUNCH];
  FlipPlane plane[CT_PLANES_PER_LAUNCH];
};

template <typename T>
__device__ __forceinline__ void
move_element (const PlaneArgs & a, unsigned int y, unsigned int from,
    unsigned int to)
{
  *reinterpret_cast<T *>(a.dst + (ptrdiff_t) y * a.dst_stride +
      (size_t) to * sizeof (T)) =
      *reinterpret_cast<const T *>(a.src + (ptrdiff_t) y * a.src_stride +
      (size_t) from * sizeof (T));
}

/* out = the V elements of in in reverse order. */
template <int E>
__device__ __forceinline__ void
reverse_unit (const uint32_t (&in)[Unit<E>::NW], uint32_t (&out)[Unit<E>::NW])
{
  constexpr int NW = Unit<E>::NW;

#pragma unroll
  for (int j = 0; j < NW; j++) {
    if constexpr (E == 1) {
      out[j] = __byte_perm (in[NW - 1 - j], 0, 0x0123);
    } else if constexpr (E == 2) {
      out[j] = __byte_perm (in[NW - 1 - j], 0, 0x1032);
    } else if constexpr (E == 4) {
      out[j] = in[NW - 1 - j];
    } else if constexpr (E == 8) {
      out[j] = in[(NW - 2 - (j & ~1)) + (j & 1)];
    } else {
      /* output byte k is byte k % 3 of element 15 - k / 3 */
      uint32_t v = 0;
#pragma unroll
      for (int i = 0; i < 4; i++) {
        const int k = 4 * j + i, sb = 3 * (Unit<E>::V - 1 - k / 3) + k % 3;
        v |= ((in[sb / 4] >> (8 * (sb % 4))) & 0xffu) << (8 * i);
      }
      out[j] = v;
    }
  }
}

/* A unit of row y on its way: its aligned chunks once loaded (vec), the
 * shift of the reversed unit in them. */
template <int E> struct Loaded
{
  uint32_t win[Unit<E>::NW + 4];
  unsigned int y, u, s;
  bool live, vec;
};

/* Loads unit @u of row @y on the flip way where it can go by 16-byte
 * chunks: whole, and (reversed) with its aligned chunks inside the row. */
template <int E, bool REVERSE>
__device__ __forceinline__ void
load_unit (const PlaneArgs & a, unsigned int y, unsigned int u,
    Loaded<E> & l)
{
  using U = Unit<E>;
  const unsigned int first = u * U::V;
  const unsigned char *row = a.src + (ptrdiff_t) y * a.src_stride;
  size_t b = (size_t) u * U::BYTES;

  l.y = y;
  l.u = u;
  l.s = 0;
  l.vec = false;
  if (first + U::V > a.width)
    return;
  if (REVERSE) {
    /* the source unit: elements w - first - V .. w - first - 1; off the
     * grid, the chunk after it too, which for the row's last unit (u 0)
     * would reach past the row */
    b = (size_t) (a.width - first - U::V) * E;
    l.s = (unsigned int) (b % 16);
    if (l.s != 0 && u == 0)
      return;
    b -= l.s;
  }
  const uint4 *from = reinterpret_cast<const uint4 *>(row + b);
#pragma unroll
  for (int c = 0; c < U::CHUNKS + (REVERSE ? 1 : 0); c++) {
    if (c == U::CHUNKS && l.s == 0)
      break;
    const uint4 v = from[c];
    l.win[4 * c] = v.x;
    l.win[4 * c + 1] = v.y;
    l.win[4 * c + 2] = v.z;
    l.win[4 * c + 3] = v.w;
  }
  l.vec = true;
}

/* Stores a unit load_unit () loaded (reversed and shifted into place), or
 * moves it element by element: a row's ragged end, or its reversed start
 * off the 16-byte grid. With @out, a loaded unit is not stored but left in
 * @out (true returned), for the caller to store. */
template <int E, bool REVERSE>
__device__ __forceinline__ bool
store_unit (const PlaneArgs & a, const Loaded<E> & l,
    uint32_t (*out)[Unit<E>::NW] = nullptr)
{
  using U = Unit<E>;
  typedef typename Word<E>::T T;
  uint32_t in[U::NW], rev[U::NW];

  if (!l.vec) {
    const unsigned int first = l.u * U::V, w = a.width;
#pragma unroll
    for (int e = 0; e < U::V; e++) {
      const unsigned int x = first + e;
      if (x < w)
        move_element<T> (a, l.y, REVERSE ? w - 1 - x : x, x);
    }
    return false;
  }
  if (REVERSE && l.s != 0) {
    const unsigned int q = l.s / 4, r = 8 * (l.s % 4);
#pragma unroll
    for (int j = 0; j < U::NW; j++) {
      const uint32_t lo = q == 0 ? l.win[j] : q == 1 ? l.win[j + 1] :
          q == 2 ? l.win[j + 2] : l.win[j + 3];
      const uint32_t hi = q == 0 ? l.win[j + 1] : q == 1 ? l.win[j + 2] :
          q == 2 ? l.win[j + 3] : l.win[j + 4];
      in[j] = __funnelshift_r (lo, hi, r);
    }
  } else {
#pragma unroll
    for (int j = 0; j < U::NW; j++)
      in[j] = l.win[j];
  }
  if (REVERSE) {
    reverse_unit<E> (in, rev);
  } else {
#pragma unroll
    for (int j = 0; j < U::NW; j++)
      rev[j] = in[j];
  }
  if (out != nullptr) {
#pragma unroll
    for (int j = 0; j < U::NW; j++)
      (*out)[j] = rev[j];
    return true;
  }
  uint4 *to = reinterpret_cast<uint4 *>(a.dst + (ptrdiff_t) l.y *
      a.dst_stride + (size_t) l.u * U::BYTES);
#pragma unroll
  for (int c = 0; c < U::CHUNKS; c++)
    to[c] = make_uint4 (rev[4 * c], rev[4 * c + 1], rev[4 * c + 2],
        rev[4 * c + 3]);
  return false;
}

/* Element @x of row @y on the exact way. */
template <typename T, bool REVERSE>
__device__ __forceinline__ void
exact_element (const PlaneArgs & a, unsigned int y, unsigned int x)
{
  move_element<T> (a, y, REVERSE ? a.width - 1 - x : x, x);
}

template <bool REVERSE>
__device__ __forceinline__ void
exact_any (const FlipPlane & fp, const PlaneArgs & a, unsigned int y,
    unsigned int x)
{
  switch (fp.elem) {
    case 1:
      exact_element<Word<1>::T, REVERSE> (a, y, x);
      break;
    case 2:
      if (fp.words)
        exact_element<Word<2>::T, REVERSE> (a, y, x);
      else
        exact_element<Bytes<2>, REVERSE> (a, y, x);
      break;
    case 3:
      exact_element<Word<3>::T, REVERSE> (a, y, x);
      break;
    case 4:
      if (fp.words)
        exact_element<Word<4>::T, REVERSE> (a, y, x);
      else
        exact_element<Bytes<4>, REVERSE> (a, y, x);
      break;
    default:
      if (fp.words)
        exact_element<Word<8>::T, REVERSE> (a, y, x);
      else
        exact_element<Bytes<8>, REVERSE> (a, y, x);
      break;
  }
}

/* Block @t of a plane: rows rows * (t / segs) on, units seg * (t % segs)
 * on; slot i of the block is row i / seg, unit i % seg. */
template <int PER, typename Move>
__device__ __forceinline__ void
flip_block (const FlipPlane & fp, unsigned int t, Move move)
{
  const unsigned int y0 = (t / fp.segs) * fp.rows;
  const unsigned int u0 = (t % fp.segs) * fp.seg;

#pragma unroll
  for (int k = 0; k < PER; k++) {
    const unsigned int i = threadIdx.x + k * kThreads;
    const unsigned int r = i / fp.seg, u = u0 + i % fp.seg;
    if (r < fp.rows && y0 + r < fp.a.height && u < fp.units)
      move (y0 + r, u);
  }
}

/* A block's units, PER a thread. LOADS_FIRST (the narrow kernel): every
 * load first, then every store, so PER units are in flight (the compiler
 * cannot move a load above a store to memory that might be the same);
 * else a unit at a time, with more threads. Bytes and halves go loads
 * first, 4 and 8 bytes a unit at a time (measured: docs/kernels.md,
 * "Loads first for bytes and halves"). */
template <int E, bool REVERSE, bool LOADS_FIRST>
__device__ __forceinline__ void
flip_units (const FlipPlane & fp, const PlaneArgs & a, unsigned int t)
{
  constexpr int PER = Unit<E>::PER;
  constexpr bool kLoadsFirst = LOADS_FIRST;
  const unsigned int y0 = (t / fp.segs) * fp.rows;
  const unsigned int u0 = (t % fp.segs) * fp.seg;
  Loaded<E> l[PER];

#pragma unroll
  for (int k = 0; k < PER; k++) {
    const unsigned int i = threadIdx.x + k * kThreads;
    const unsigned int r = i / fp.seg, u = u0 + i % fp.seg;
    l[k].live = r < fp.rows && y0 + r < a.height && u < fp.units;
    if (l[k].live) {
      load_unit<E, REVERSE> (a, y0 + r, u, l[k]);
      if (!kLoadsFirst)
        store_unit<E, REVERSE> (a, l[k]);
    }
  }
#pragma unroll
  for (int k = 0; kLoadsFirst && k < PER; k++) {
    if (l[k].live)
      store_unit<E, REVERSE> (a, l[k]);
  }
}

/* Reversed rows of 3-byte elements: a thread's unit is 48 bytes, so a
 * warp storing its units three 16-byte chunks a lane at a time would write
 * a third of each 128-byte line per instruction (measured: docs/kernels.md,
 * "Reversed 3-byte rows through shared memory").
 * The warp passes its whole units through shared memory instead (the
 * 48-byte slots of its lanes meet no bank twice in a quarter warp), and
 * each lane stores chunks lane, lane + 32 and lane + 64 of them, to the
 * row of the lane whose chunk it is: consecutive lanes, consecutive
 * chunks. Every lane takes part, those with nothing to store too. */
__device__ __forceinline__ void
flip_rgb_reversed (const FlipPlane & fp, const PlaneArgs & a, unsigned int t,
    uint4 * warp_smem)
{
  constexpr int NW = Unit<3>::NW, CHUNKS = Unit<3>::CHUNKS;
  const unsigned int lane = threadIdx.x & 31;
  const unsigned int y0 = (t / fp.segs) * fp.rows;
  const unsigned int u0 = (t % fp.segs) * fp.seg;
  const unsigned int r = threadIdx.x / fp.seg;
  const unsigned int u = u0 + threadIdx.x % fp.seg;
  uint32_t out[NW];
  unsigned long long to = 0;
  int whole = 0;

  if (r < fp.rows && y0 + r < a.height && u < fp.units) {
    Loaded<3> l;
    load_unit<3, true> (a, y0 + r, u, l);
    whole = store_unit<3, true> (a, l, &out);
    to = (unsigned long long) (a.dst + (ptrdiff_t) (y0 + r) * a.dst_stride +
        (size_t) u * Unit<3>::BYTES);
  }
  if (whole) {
#pragma unroll
    for (int c = 0; c < CHUNKS; c++)
      warp_smem[CHUNKS * lane + c] = make_uint4 (out[4 * c], out[4 * c + 1],
          out[4 * c + 2], out[4 * c + 3]);
  }
  __syncwarp ();
#pragma unroll
  for (int c = 0; c < CHUNKS; c++) {
    const unsigned int q = lane + 32 * c, owner = q / CHUNKS;
    const unsigned long long dst = __shfl_sync (0xffffffffu, to, owner);
    const int has = __shfl_sync (0xffffffffu, whole, owner);
    if (has)
      reinterpret_cast<uint4 *>(dst)[q % CHUNKS] = warp_smem[q];
  }
}

/// The flip kernels: block b belongs to the last plane whose first block is
/// <= b (ct::plane_index) and moves rows of it on the plane's way. Two of
/// each (host: wide_elements ()): NARROW for planes of bytes and halves,
/// the other for wider elements; flip_units () has why.
template <bool REVERSE, bool NARROW>
__global__ void __launch_bounds__ (kThreads,
    ct::min_blocks (NARROW ? kNarrowPerSm : kWidePerSm, kThreads))
k_flip (const __grid_constant__ FlipArgs f)
{
  const unsigned int i = ct::plane_index (f);
  const FlipPlane & fp = f.plane[i];
  unsigned int t = blockIdx.x - f.first_block[i];
  PlaneArgs a = fp.a;

  if (fp.count > 1) {
    const unsigned int k = t / fp.blocks;
    t -= k * fp.blocks;
    a.src += k * fp.src_step;
    a.dst += k * fp.dst_step;
  }
  if (fp.exact) {
    flip_block<kExactPerThread> (fp, t, [&] (unsigned int y, unsigned int x) {
          exact_any<REVERSE> (fp, a, y, x);
        });
    return;
  }
  switch (fp.elem) {
    case 1:
      flip_units<1, REVERSE, NARROW> (fp, a, t);
      break;
    case 2:
      flip_units<2, REVERSE, NARROW> (fp, a, t);
      break;
    case 3:
      if constexpr (REVERSE) {
        __shared__ uint4 rgb_smem[kThreads * Unit<3>::CHUNKS];
        flip_rgb_reversed (fp, a, t,
            rgb_smem + (threadIdx.x & ~31u) * Unit<3>::CHUNKS);
      } else {
        flip_units<3, REVERSE, NARROW> (fp, a, t);
      }
      break;
    case 4:
      flip_units<4, REVERSE, NARROW> (fp, a, t);
      break;
    default:
      flip_units<8, REVERSE, NARROW> (fp, a, t);
      break;
  }
}

/* Plan @p as the kernel takes it. */
FlipPlane
flip_args (const CtFlipPlan & p)
{
  FlipPlane fp = { };

  fp.units = p.units;
  fp.seg = p.seg;
  fp.segs = p.segs;
  fp.rows = p.rows;
  fp.blocks = p.blocks;
  fp.elem = (unsigned char) p.plane.elem_size;
  fp.exact = p.exact;
  fp.words = p.words;
  return fp;
}

CtResult
launch_flip_group (const FlipArgs & f, unsigned long long blocks,
    bool reverse, bool narrow, cudaStream_t s)
{
  const unsigned int g = (unsigned int) blocks;

  if (blocks == 0)
    return CT_OK;
  if (reverse && narrow)
    k_flip<true, true><<<g, kThreads, 0, s>>> (f);
  else if (reverse)
    k_flip<true, false><<<g, kThreads, 0, s>>> (f);
  else if (narrow)
    k_flip<false, true><<<g, kThreads, 0, s>>> (f);
  else
    k_flip<false, false><<<g, kThreads, 0, s>>> (f);
  return (CtResult) cudaGetLastError ();
}

/* launch_groups' hooks for the flips: an entry's kernel is the narrow
 * one or the other, by its element size (the reversal is the call's). */
struct FlipFamily
{
  typedef FlipArgs Args;

  struct Entry
  {
    unsigned long long blocks;
    CtPlane pl;
    FlipPlane plan;
    bool narrow;
  };

  struct Group
  {
    bool narrow = false;
  };

  CtPath force;
  CtMapping mapping;
  bool reverse;
  cudaStream_t stream;

  /* planned again as launch_flip planned it: no array of plans to
   * allocate for a long call */
  Entry entry (unsigned int, const CtPlaneBatch & b) const
  {
    Entry e;
    CtFlipPlan p;

    (void) ct_plan_flip (&b, mapping, force, &p);
    e.pl = p.plane;
    e.plan = flip_args (p);
    e.blocks = p.blocks;
    e.narrow = p.narrow;
    return e;
  }

  bool other_kernel (const Group & g, const Entry & e) const
  {
    return e.narrow != g.narrow;
  }

  void join (Group * g, const Entry & e) const
  {
    g->narrow = e.narrow;
  }

  void fill (FlipPlane * fp, const Entry & e) const
  {
    *fp = e.plan;
  }

  CtResult launch (const Args & f, unsigned long long blocks,
      const Group & g) const
  {
    return launch_flip_group (f, blocks, reverse, g.narrow, stream);
  }
};

/* Planned first, every entry (so a refused call runs nothing), then
 * launched in groups (ct::launch_groups). */
template <typename Get>
CtResult
launch_flip (unsigned int n, Get get, CtPath force, CtMapping mapping,
    cudaStream_t stream, CtPath * ran)
{
  const bool reverse = (mapping & CT_MAPPING_MIRROR_COLUMNS) != 0;
  LargestPath largest;
  CtResult res;

  for (unsigned int i = 0; i < n; i++) {
    const CtPlaneBatch b = get (i);
    CtFlipPlan p;

    if (empty_batch (b))
      continue;
    if (!ct_plan_flip (&b, mapping, force, &p))
      return force != CT_PATH_NONE ? CT_ERROR_UNSUPPORTED_KERNEL :
          CT_ERROR_INVALID_ARGUMENT;
    largest.add (p.plane, b.count, p.path);
  }
  res = ct::launch_groups (n, get, mapping,
      FlipFamily { force, mapping, reverse, stream });
  if (res == CT_OK && ran != nullptr)
    *ran = largest.path;
  return res;
}

}  // namespace

CtResult
ct_launch_flip_planes (const CtPlane * planes, unsigned int n_planes,
    CtMapping mapping, cudaStream_t stream)
{
  return launch_flip (n_planes, [planes] (unsigned int i) {
        CtPlaneBatch b = { planes[i], 1, 0, 0 };
        return b;
      }, CT_PATH_NONE, mapping, stream, nullptr);
}

CtResult
ct_launch_flip (const CtPlaneBatch * batches, unsigned int n_batches,
    CtPath force, CtMapping mapping, cudaStream_t stream, CtPath * ran)
{
  return launch_flip (n_batches, [batches] (unsigned int i) {
        return batches[i];
      }, force, mapping, stream, ran);
}
