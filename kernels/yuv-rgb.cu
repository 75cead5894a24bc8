/* cudatranspose: YUV video to RGB on the GPU, and on to a tensor.
 *   - ct_yuv_to_rgb: packed RGB (or BGR) bytes, a thread a pixel
 *     (yuv-rgb-unit.h, the code the CPU loop runs), a warp along a row; a
 *     frame with more rows than the grid's y holds loops over them (its
 *     grid: ct_plan_yuv_rgb, plan-yuv.c).
 *   - ct_yuv_to_tensor: the same values as a tensor in one pass, each
 *     channel written where the permutation puts it and through the
 *     arithmetic (arith-ops.cuh, the code ct_permute_arith runs) on the
 *     way. A thread converts four pixels of two rows that share their
 *     chroma rows (4:2:2 and 4:4:4: each row its own); where width is
 *     innermost (CHW) it stores each channel's four values as one, in
 *     packed HWC its twelve as three. The frame may be turned on the way
 *     (a video direction): the steps say where each pixel lands, and a
 *     warp's lanes follow the input axis that lands nearer the innermost
 *     (the rows, for a direction that swaps the axes), so that their
 *     stores follow each other; where the output's rows are the frame's
 *     columns, the tiled pass (k_yuv_tensor_tiles) converts a tile into
 *     shared memory and writes its columns whole, into uint8 and
 *     float32. An arithmetic that depends on the channel only is
 *     tabulated per block, for the 256 values of each channel, before the
 *     pixels. The grid is one wave of
 *     blocks, each looping over its rows; for uint8 and float32 outputs a
 *     kernel is built for each kind of format (Kind). Which kernel takes a
 *     frame, and its grid: ct_plan_yuv, ct_plan_yuv_launch and
 *     ct_plan_yuv_tiles (plan-yuv.c).
 *   - ct_yuv_to_tensor_cpu: the same values on the host, a pixel at a
 *     time.
 * The one pass's pieces below its kernel are in yuv-tensor-pass.cuh (a
 * thread's quad of a pair of rows converted, the 8-bit path) and
 * yuv-tensor-stores.cuh (where the values land and how they are stored:
 * put4, the HWC run, the tile). */
#include "cudatranspose-kernels.h"
#include "cudatranspose-kernels-tests.h"
#include "arith-ops.cuh"
#include "transpose-common.cuh"
#include "yuv-rgb-unit.h"
#include "yuv-tensor-pass.cuh"
#include "plan.h"
#include "plan-yuv.h"

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <atomic>
#include <type_traits>

namespace {

constexpr unsigned int kThreadsX = CT_YUV_RGB_THREADS;

/* R, G, B of pixel (@x, @y) as the output orders them: the first and the
 * last channel swapped with @bgr (selected, not indexed: an indexed array
 * would live in local memory). */
__device__ __forceinline__ void
pixel_ordered (const CtYuvSrc & s, const CtYuvPlan & p, unsigned int x,
    unsigned int y, int bgr, unsigned char out[3])
{
  unsigned char rgb[3];

  ct_yuv_pixel (&s, &p, x, y, rgb);
  out[0] = bgr ? rgb[2] : rgb[0];
  out[1] = rgb[1];
  out[2] = bgr ? rgb[0] : rgb[2];
}

/* What every 4:2:0 format fixes of a frame's plan @p and planes @s (the
 * compiler folds it, dropping the code the 4:2:2 and 4:4:4 formats
 * need). */
__device__ __forceinline__ void
fix_420 (CtYuvPlan & p, CtYuvSrc & s)
{
  s.low10 = 0;
  p.h_shift = 1;
  p.v_shift = 1;
}

/* The frame's pixels into packed RGB (or BGR), @k420 for the 4:2:0
 * formats (fix_420). */
template <bool k420>
__global__ void
k_yuv_rgb (CtYuvSrc s, CtYuvPlan p, unsigned char *dst, size_t stride,
    int bgr)
{
  const unsigned int x = blockIdx.x * kThreadsX + threadIdx.x;

  if constexpr (k420)
    fix_420 (p, s);

  if (x >= s.width)
    return;
  for (unsigned int y = blockIdx.y; y < s.height; y += gridDim.y) {
    unsigned char rgb[3];
    unsigned char *o = dst + (size_t) y * stride + (size_t) x * 3;

    pixel_ordered (s, p, x, y, bgr, rgb);
    o[0] = rgb[0];
    o[1] = rgb[1];
    o[2] = rgb[2];
  }
}

/* What kind @K fixes of a frame's plan @p and planes @s (the compiler
 * folds it). */
template <Kind K>
__device__ __forceinline__ void
fix_kind (CtYuvPlan & p, CtYuvSrc & s)
{
  if constexpr (K == Kind::kBlocks) {
    p.wide = 0;
    p.filtered = 0;
    s.p010 = 0;
    s.chroma_pstride = 1;
  } else if constexpr (K == Kind::kPairs || K == Kind::kSited) {
    p.wide = 0;
    p.filtered = 1;
    s.p010 = 0;
    s.chroma_pstride = 2;
    if constexpr (K == Kind::kSited) {
      p.h_cosited = 1;
      p.v_filtered = 1;
    }
  } else if constexpr (K == Kind::kDeep) {
    p.wide = 1;
    p.filtered = 1;
    s.chroma_pstride = 4;
  }
  /* (the kinds are 4:2:0's: ct_plan_yuv gives 4:2:2 and 4:4:4 the
   * kernels of any kind) */
  if constexpr (K != Kind::kAny)
    fix_420 (p, s);
}

/* The 8-bit path's launch constants (Fast) for plan @p of frame @s. */
__device__ __forceinline__ Fast
fast_of (const CtYuvPlan & p, const CtYuvSrc & s, int bgr)
{
  return Fast { Coeffs::of (p, bgr),
    { p.filtered && !p.h_cosited ? 3u : 4u,
          p.filtered && !p.h_cosited ? 3u : 2u,
        p.filtered && p.v_filtered ? 3u : 4u },
    s.u < s.v ? s.u : s.v,
    (s.u < s.v) != (bgr != 0) ? 0x4140u : 0x4041u, bgr != 0
  };
}

/* The block's table of the arithmetic on the 256 8-bit values of each
 * channel (every thread takes part, before any leaves; the caller
 * synchronizes). */
template <typename Out>
__device__ __forceinline__ void
build_table (Out * table, const ct::Ops & ops, int ch_dim,
    const Along & along)
{
  const unsigned int t = threadIdx.y * kLanes + threadIdx.x;

  if (ch_dim < 0) {
    /* no operation names a channel: the three tables are one, each
     * value worked out once (the common case, and a third of the work
     * before the first pixel) */
    for (unsigned int i = t; i < 256; i += kLanes * kRanks) {
      const Out value = tensor_value<Out, false> ((int) i, -1, ops);

      table[i] = value;
      table[256 + i] = value;
      table[2 * 256 + i] = value;
    }
  } else {
    for (unsigned int i = t; i < 3 * 256; i += kLanes * kRanks)
      table[i] = tensor_value<Out, false> ((int) (i & 255),
          op_channel (ch_dim, along, i >> 8, 0, 0), ops);
  }
}

template <typename Out, Values V, Kind K, bool kHwc>
__global__ void __launch_bounds__ (kLanes * kRanks)
k_yuv_tensor (CtYuvSrc any_s, CtYuvPlan any_p, Out *dst, Steps step,
    int bgr, ct::Ops ops, int ch_dim, Along along)
{
  constexpr bool pairs_of_bytes = K == Kind::kPairs || K == Kind::kSited;
  constexpr bool fast = kEightBitPath<V, K>;
  __shared__ Out table[V == Values::kTable ? 3 * 256 : 1];
  /* each warp's, for its HWC runs (the float32 HWC variant's ToOutput) */
  __shared__ Stage<Out> stages[kHwc && sizeof (Out) == 4 ?
      kLanes * kRanks / kWarp : 1];
  CtYuvPlan p = any_p;
  CtYuvSrc s = any_s;

  fix_kind<K> (p, s);

  const unsigned int quads = (s.width + 3) / 4, pairs = s.height / 2 + 1;
  const unsigned int lane = blockIdx.x * kLanes + threadIdx.x;
  const unsigned int first = blockIdx.y * kRanks + threadIdx.y;
  const unsigned int stride = gridDim.y * kRanks;

  /* one loop for both orientations (built once: the body is large) */
  const bool along_y = lanes_along_y (step);
  const unsigned int lanes = along_y ? pairs : quads;
  const unsigned int ranks = along_y ? quads : pairs;
  /* the warp's lanes hold 128 columns of one row, all in the frame (its
   * last lane's quad whole) */
  const bool warp_run = kHwc && sizeof (Out) == 4 && !along_y &&
      4ull * ((lane | (kWarp - 1)) + 1) <= s.width;
  const ToOutput<Out, kHwc> to_output { dst, step,
    stages[warp_run ? (threadIdx.y * kLanes + threadIdx.x) / kWarp : 0],
    warp_run };

  /* (the 8-bit path's; the compiler drops them from the others) */
  const Fast f = fast_of (p, s, bgr);
  PairLoads next;

  /* NV12 and NV21 issue each pair's loads before the pair before it is
   * converted, and the first pair's before the table is built; I420 and
   * YV12, whose chroma loads go a sample at a time, each pair's own loads
   * first */
  if (fast && pairs_of_bytes && lane < lanes && first < ranks)
    load_pair<K> (s, f, 4 * (along_y ? first : lane),
        along_y ? lane : first, next);
  if constexpr (V == Values::kTable) {
    build_table (table, ops, ch_dim, along);
    __syncthreads ();
  }
  if (lane >= lanes)
    return;
  if constexpr (fast) {
    const Out *centre = table + 128;

    for (unsigned int r = first; r < ranks; r += stride) {
      const unsigned int x0 = 4 * (along_y ? r : lane);
      const unsigned int kp = along_y ? lane : r;
      const unsigned int rn = r + stride;
      PairLoads in;

      if constexpr (pairs_of_bytes) {
        in = next;
        if (rn < ranks)
          load_pair<K> (s, f, 4 * (along_y ? rn : lane),
              along_y ? lane : rn, next);
      } else {
        load_pair<K> (s, f, x0, kp, in);
      }
      convert_pair<Out, K> (s, p, f, to_output, centre, x0, kp, in);
    }
  } else {
    for (unsigned int r = first; r < ranks; r += stride)
      quad_pair<Out, V> (s, p, dst, step, bgr, ops, ch_dim, along, table,
          4 * (along_y ? r : lane), along_y ? lane : r, to_output);
  }
}

/* The tiled pass (ct_plan_yuv_tiles) of values @V of kind @K: the 8-bit
 * path of a table (blocks, pairs, sited), or quad_pair's for P010 and
 * P016 and for any format (a table's into uint8, whole values into
 * float32 where the samples are 16-bit, else a table's). A block
 * converts a tile at a time, a thread a quad of a pair (the quads across
 * a warp, so that its loads follow each other), into shared memory, then
 * writes it out a column (the output's row) at a time; @tiles_y tiles
 * down the frame, @tiles in all, numbered down its columns of tiles (so
 * that the blocks at work at once fill the same output rows, each after
 * the other's values), the block's first blockIdx.x and the rest a grid
 * apart. NV12 and NV21 issue the next tile's loads before this one's
 * values are converted. With @kHwc the output is packed HWC (turned so
 * the axes swap): a column's three channels go out side by side. */
template <typename Out, Values V, Kind K, bool kHwc>
__global__ void __launch_bounds__ (kLanes * kRanks)
k_yuv_tensor_tiles (CtYuvSrc any_s, CtYuvPlan any_p, Out *dst, Steps step,
    int bgr, ct::Ops ops, int ch_dim, Along along, unsigned int tiles_y,
    unsigned long long tiles)
{
  constexpr bool pairs_of_bytes = K == Kind::kPairs || K == Kind::kSited;
  constexpr bool fast = kEightBitPath<V, K>;
  static_assert (kLanes * kRanks == CT_YUV_TILE_QUADS * CT_YUV_TILE_PAIRS,
      "a thread a quad of a pair of the tile");
  static_assert (fast || ((K == Kind::kDeep || K == Kind::kAny) &&
          V != Values::kEach),
      "the 8-bit path of a table, or quad_pair's table or whole values");
  __shared__ Out table[V == Values::kTable ? 3 * 256 : 1];
  __shared__ Tile<Out> tile;
  CtYuvPlan p = any_p;
  CtYuvSrc s = any_s;

  fix_kind<K> (p, s);

  const Fast f = fast_of (p, s, bgr);
  const unsigned int t = threadIdx.y * kLanes + threadIdx.x;
  const unsigned int quads = (s.width + 3) / 4, pairs = s.height / 2 + 1;
  /* the thread's quad and pair in tile @i: whether the frame has them */
  auto at = [&] (unsigned long long i, unsigned int &x0, unsigned int &kp) {
    const unsigned int q = (unsigned int) (i / tiles_y) * CT_YUV_TILE_QUADS +
        t % CT_YUV_TILE_QUADS;

    kp = (unsigned int) (i % tiles_y) * CT_YUV_TILE_PAIRS +
        t / CT_YUV_TILE_QUADS;
    x0 = 4 * q;
    return q < quads && kp < pairs;
  };
  PairLoads next;
  unsigned int x0, kp;

  if (pairs_of_bytes && blockIdx.x < tiles && at (blockIdx.x, x0, kp))
    load_pair<K> (s, f, x0, kp, next);
  if constexpr (V == Values::kTable) {
    build_table (table, ops, ch_dim, along);
    __syncthreads ();
  }

  /* (the table's middle; whole values have no table) */
  const Out *centre = table + (V == Values::kTable ? 128 : 0);

  for (unsigned long long i = blockIdx.x; i < tiles; i += gridDim.x) {
    const bool mine = at (i, x0, kp);
    const unsigned int x_base = (unsigned int) (i / tiles_y) * kTileCols;
    const unsigned int k0 = (unsigned int) (i % tiles_y) * CT_YUV_TILE_PAIRS;
    PairLoads in;

    if constexpr (pairs_of_bytes) {
      unsigned int nx0, nkp;

      in = next;
      if (i + gridDim.x < tiles && at (i + gridDim.x, nx0, nkp))
        load_pair<K> (s, f, nx0, nkp, next);
    } else if constexpr (fast) {
      if (mine)
        load_pair<K> (s, f, x0, kp, in);
    }
    if constexpr (fast) {
      if (mine)
        convert_pair<Out, K> (s, p, f, IntoTile<Out> { tile, x_base,
                2 * k0 - 1 }, centre, x0, kp, in);
    } else if (mine) {
      quad_pair<Out, V> (s, p, dst, step, bgr, ops, ch_dim, along, table,
          x0, kp, IntoTile<Out> { tile, x_base, 2 * k0 - 1 });
    }
    __syncthreads ();
    flush_tile<Out, kHwc> (tile, dst, step, s.width, s.height, x_base, k0,
        t, StoreFour<Out> { });
    /* (the tile is free again once every thread has written its part) */
    __syncthreads ();
  }
}

/* Blocks of kernel @kKernel (k_yuv_tensor's or k_yuv_tensor_tiles's) the
 * current device holds at once, for a grid of one wave; 0 if unknown. The
 * occupancy is asked once per device (as the device's attributes are,
 * ct_device_now), not at every launch. */
template <auto kKernel>
unsigned long long
resident_blocks ()
{
  /* blocks per multiprocessor plus one, per device; 0: not asked yet */
  static std::atomic<int> per_sm_of[ct::kMaxDevices];
  CtPlanDevice d;
  int device = 0, per_sm = 0;

  if (ct_device_now (&d) != CT_OK || cudaGetDevice (&device) != cudaSuccess)
    return 0;
  const bool cached = device >= 0 && device < ct::kMaxDevices;
  const int known = cached ? per_sm_of[device].load () : 0;
  if (known > 0) {
    per_sm = known - 1;
  } else {
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm,
            kKernel, kLanes * kRanks, 0) != cudaSuccess)
      return 0;
    if (cached)
      per_sm_of[device].store (per_sm + 1);
  }
  return (unsigned long long) per_sm * d.n_sms;
}

/* A kernel of the one pass, how many of its blocks make a wave, and
 * whether it is the HWC variant. */
template <typename Out>
struct Launch
{
  void (*kernel) (CtYuvSrc, CtYuvPlan, Out *, Steps, int, ct::Ops, int,
      Along);
  unsigned long long (*resident) ();
  bool hwc;
};

template <typename Out, Values V, Kind K, bool kHwc = false>
constexpr Launch<Out>
launch_of ()
{
  return Launch<Out> { k_yuv_tensor<Out, V, K, kHwc>,
    resident_blocks<k_yuv_tensor<Out, V, K, kHwc>>, kHwc };
}

/* One kind's kernel (built for uint8 and float32), its HWC variant where
 * @hwc (ct_plan_yuv_hwc). */
template <typename Out, Values V, Kind K>
constexpr Launch<Out>
one_kind_of (bool hwc)
{
  return hwc ? launch_of<Out, V, K, true> () : launch_of<Out, V, K> ();
}

/* The kernel ct_plan_yuv chose for Out, among those built for it (none,
 * where the choice is not one of them), with @hwc its HWC variant where
 * there is one. */
template <typename Out>
Launch<Out>
launch_chosen (const CtYuvKernel & k, bool hwc)
{
  constexpr bool one_kind = std::is_same_v<Out, uint8_t> ||
      std::is_same_v<Out, float>;
  constexpr bool is_float32 = std::is_same_v<Out, float>;

  if (k.values == CT_YUV_VALUES_WHOLE) {
    if constexpr (std::is_floating_point_v<Out>) {
      if (k.kind == CT_YUV_KIND_ANY)
        return launch_of<Out, Values::kWhole, Kind::kAny> ();
    }
    if constexpr (is_float32) {
      if (k.kind == CT_YUV_KIND_DEEP)
        return one_kind_of<Out, Values::kWhole, Kind::kDeep> (hwc);
    }
  } else if (k.values == CT_YUV_VALUES_EACH) {
    if (k.kind == CT_YUV_KIND_ANY)
      return launch_of<Out, Values::kEach, Kind::kAny> ();
  } else if (k.kind == CT_YUV_KIND_ANY) {
    return launch_of<Out, Values::kTable, Kind::kAny> ();
  } else if constexpr (one_kind) {
    if (k.kind == CT_YUV_KIND_BLOCKS)
      return one_kind_of<Out, Values::kTable, Kind::kBlocks> (hwc);
    if (k.kind == CT_YUV_KIND_PAIRS)
      return one_kind_of<Out, Values::kTable, Kind::kPairs> (hwc);
    if (k.kind == CT_YUV_KIND_DEEP)
      return one_kind_of<Out, Values::kTable, Kind::kDeep> (hwc);
    if constexpr (is_float32)
      if (k.kind == CT_YUV_KIND_SITED)
        return one_kind_of<Out, Values::kTable, Kind::kSited> (hwc);
  }
  return Launch<Out> { nullptr, nullptr, false };
}

/* What both entries check and work out (prepare): the plan, the frame's
 * planes, where its values land (the steps, and the offset in elements of
 * pixel (0, 0)'s in the output), the operations cast to the output type,
 * the dimension of their channels and where along it a pixel is, the
 * output type, the channel order; empty for a frame without pixels
 * (nothing to do). */
struct Job
{
  CtYuvPlan p;
  CtYuvSrc src;
  Steps step;
  long long start;
  ct::Ops ops;
  int ch_dim;
  Along along;
  CtType out;
  int bgr;
  bool empty;
};

/* A kernel of the tiled pass, and how many of its blocks make a wave. */
template <typename Out>
struct TilesLaunch
{
  void (*kernel) (CtYuvSrc, CtYuvPlan, Out *, Steps, int, ct::Ops, int,
      Along, unsigned int, unsigned long long);
  unsigned long long (*resident) ();
};

template <typename Out, Values V, Kind K>
constexpr TilesLaunch<Out>
tiles_launch_of (bool hwc)
{
  return hwc ? TilesLaunch<Out> { k_yuv_tensor_tiles<Out, V, K, true>,
    resident_blocks<k_yuv_tensor_tiles<Out, V, K, true>> } :
      TilesLaunch<Out> { k_yuv_tensor_tiles<Out, V, K, false>,
    resident_blocks<k_yuv_tensor_tiles<Out, V, K, false>> };
}

/* The tiled kernel for Out of the values and kind ct_plan_yuv chose (none
 * where those have none for Out: built for uint8 and float32, of each
 * kind and of any; a float64 tile would not fit), for packed HWC where
 * @hwc. */
template <typename Out>
TilesLaunch<Out>
tiles_chosen (const CtYuvKernel & k, bool hwc)
{
  if constexpr (std::is_same_v<Out, uint8_t> || std::is_same_v<Out, float>) {
    /* (the kernels of any kind: 4:2:2 and 4:4:4, and NV12 or NV21 whose
     * chroma pairs are not 2-byte aligned) */
    if (k.kind == CT_YUV_KIND_ANY) {
      if (k.values == CT_YUV_VALUES_TABLE)
        return tiles_launch_of<Out, Values::kTable, Kind::kAny> (hwc);
      if constexpr (std::is_same_v<Out, float>)
        if (k.values == CT_YUV_VALUES_WHOLE)
          return tiles_launch_of<Out, Values::kWhole, Kind::kAny> (hwc);
    }
    if (k.values == CT_YUV_VALUES_TABLE) {
      if (k.kind == CT_YUV_KIND_BLOCKS)
        return tiles_launch_of<Out, Values::kTable, Kind::kBlocks> (hwc);
      if (k.kind == CT_YUV_KIND_PAIRS)
        return tiles_launch_of<Out, Values::kTable, Kind::kPairs> (hwc);
      if (k.kind == CT_YUV_KIND_DEEP)
        return tiles_launch_of<Out, Values::kTable, Kind::kDeep> (hwc);
      if constexpr (std::is_same_v<Out, float>)
        if (k.kind == CT_YUV_KIND_SITED)
          return tiles_launch_of<Out, Values::kTable, Kind::kSited> (hwc);
    }
    if constexpr (std::is_same_v<Out, float>)
      if (k.values == CT_YUV_VALUES_WHOLE && k.kind == CT_YUV_KIND_DEEP)
        return tiles_launch_of<Out, Values::kWhole, Kind::kDeep> (hwc);
  }
  return TilesLaunch<Out> { nullptr, nullptr };
}

/* The one pass's launch for output type Out: by how its values come, and
 * tiled where the output's rows are the frame's columns; @ran: which. */
template <typename Out>
CtResult
launch_tensor (const Job & j, void *dst, cudaStream_t stream, CtPath * ran)
{
  const CtYuvSrc & s = j.src;

  if ((uintptr_t) dst % sizeof (Out) != 0)
    return CT_ERROR_INVALID_ARGUMENT;
  const CtYuvKernel k = ct_plan_yuv (&j.p, &s, j.out, j.ch_dim);
  const Launch<Out> run = launch_chosen<Out> (k, ct_plan_yuv_hwc (k,
          j.step.x, j.step.y, j.step.c, sizeof (Out)));

  /* (a choice the planner makes for no output type it is given) */
  if (run.kernel == nullptr)
    return CT_ERROR_UNSUPPORTED_KERNEL;
  Out *const at = static_cast<Out *>(dst) + j.start;
  /* (whether the tiled pass takes the frame, and its layout, before the
   * kernel's blocks at once size its grid) */
  const CtYuvTiles which = ct_plan_yuv_tiles (k, s.width, s.height,
      j.step.x, j.step.y, j.step.c, sizeof (Out), 0);
  const TilesLaunch<Out> tiled = which.tiled ? tiles_chosen<Out> (k,
      which.hwc) : TilesLaunch<Out> { nullptr, nullptr };

  if (tiled.kernel != nullptr) {
    const CtYuvTiles t = ct_plan_yuv_tiles (k, s.width, s.height, j.step.x,
        j.step.y, j.step.c, sizeof (Out), tiled.resident ());

    if (t.tiled) {
      tiled.kernel<<<t.grid, dim3 (kLanes, kRanks), 0, stream>>> (s, j.p,
          at, j.step, j.bgr, j.ops, j.ch_dim, j.along, t.tiles_y, t.tiles);
      *ran = CT_PATH_YUV_TENSOR_TILES;
      return (CtResult) cudaGetLastError ();
    }
  }

  const CtYuvLaunch l = ct_plan_yuv_launch (s.width, s.height, j.step.x,
      j.step.y, j.step.c, (uintptr_t) at, sizeof (Out), run.resident ());
  Steps step = j.step;

  step.four = l.fours;
  run.kernel<<<dim3 (l.grid_x, l.grid_y), dim3 (kLanes, kRanks), 0,
      stream>>> (s, j.p, at, step, j.bgr, j.ops, j.ch_dim, j.along);
  *ran = run.hwc ? CT_PATH_YUV_TENSOR_HWC : CT_PATH_YUV_TENSOR;
  return (CtResult) cudaGetLastError ();
}

/* launch_tensor for each output type, in CtType order */
using LaunchTensor = CtResult (*) (const Job &, void *, cudaStream_t,
    CtPath *);
constexpr LaunchTensor kLaunchTensor[CT_TYPE_COUNT] = {
  launch_tensor<int8_t>, launch_tensor<uint8_t>, launch_tensor<int16_t>,
  launch_tensor<uint16_t>, launch_tensor<int32_t>, launch_tensor<uint32_t>,
  launch_tensor<int64_t>, launch_tensor<uint64_t>, launch_tensor<float>,
  launch_tensor<double>,
};

/* The same values on the host, a pixel at a time. */
template <typename Out>
CtResult
tensor_cpu (const Job & j, void *dst)
{
  const bool whole = std::is_floating_point_v<Out> && j.p.wide;
  Out *out = static_cast<Out *>(dst) + j.start;

  for (unsigned int y = 0; y < j.src.height; y++)
    for (unsigned int x = 0; x < j.src.width; x++) {
      int rgb[3];
      Out *o = out + (long long) x * j.step.x + (long long) y * j.step.y;

      ct_yuv_pixel16 (&j.src, &j.p, x, y, whole, rgb);
      for (unsigned int c = 0; c < 3; c++) {
        const int v = rgb[j.bgr && c != 1 ? 2 - c : c];
        const long long ch = op_channel (j.ch_dim, j.along, c, x, y);

        o[c * j.step.c] = whole ? tensor_value<Out, true> (v, ch, j.ops) :
            tensor_value<Out, false> (v, ch, j.ops);
      }
    }
  return CT_OK;
}

using TensorCpu = CtResult (*) (const Job &, void *);
constexpr TensorCpu kTensorCpu[CT_TYPE_COUNT] = {
  tensor_cpu<int8_t>, tensor_cpu<uint8_t>, tensor_cpu<int16_t>,
  tensor_cpu<uint16_t>, tensor_cpu<int32_t>, tensor_cpu<uint32_t>,
  tensor_cpu<int64_t>, tensor_cpu<uint64_t>, tensor_cpu<float>,
  tensor_cpu<double>,
};

/* Where the values land: the frame turned by @mapping is the HWC tensor
 * "3:W':H':1" (W' x H' the turned frame's size), laid out by @perm; its
 * steps along x' and y' become the frame's own along x and y, which of
 * them as the mapping swaps the axes, negative where it mirrors them, the
 * start moved to where (0, 0) lands. A per-channel operation along x' or
 * y' (@ch_dim 1 or 2) counts there too. */
CtResult
place (const CtYuvFrame * f, CtMapping mapping, const unsigned int perm[4],
    Job * j)
{
  const bool keep = (mapping & CT_MAPPING_KEEP_AXES) != 0;
  const bool back_x = (mapping & CT_MAPPING_MIRROR_COLUMNS) != 0;
  const bool back_y = (mapping & CT_MAPPING_MIRROR_ROWS) != 0;
  const unsigned long long w = keep ? f->width : f->height;
  const unsigned long long h = keep ? f->height : f->width;
  const unsigned long long hwc[4] = { 3, w, h, 1 };
  CtResult res;

  if ((unsigned int) mapping > CT_MAPPING_ROTATE_180)
    return CT_ERROR_INVALID_ARGUMENT;
  if ((res = ct_permute_validate (hwc, 1, perm)) != CT_OK)
    return res;
  /* output dimension i has stride acc, and is input dimension perm[i] */
  unsigned long long in_step[4], acc = 1;
  for (unsigned int i = 0; i < 4; i++) {
    in_step[perm[i]] = acc;
    acc *= hwc[perm[i]];
  }
  const long long along_x = back_x ? -(long long) in_step[1] :
      (long long) in_step[1];
  const long long along_y = back_y ? -(long long) in_step[2] :
      (long long) in_step[2];
  j->step.c = (long long) in_step[0];
  j->step.x = keep ? along_x : along_y;
  j->step.y = keep ? along_y : along_x;
  j->step.four = false;
  j->start = (back_x && w > 0 ? (long long) ((w - 1) * in_step[1]) : 0) +
      (back_y && h > 0 ? (long long) ((h - 1) * in_step[2]) : 0);
  /* x' (or y') = its first value, one step either way along x or y */
  const bool on_x = j->ch_dim == 1;
  const bool back = on_x ? back_x : back_y;
  const long long sign = back ? -1 : 1;
  j->along.at0 = back ? (long long) (on_x ? w : h) - 1 : 0;
  j->along.per_x = keep == on_x ? sign : 0;
  j->along.per_y = keep == on_x ? 0 : sign;
  return CT_OK;
}

CtResult
prepare (const CtYuvFrame * f, int bgr, CtMapping mapping,
    const unsigned int perm[4], const CtArith * arith, const void *dst,
    Job * j)
{
  CtResult res = ct_yuv_plan (f, &j->p);

  if (res != CT_OK)
    return res;
  if (arith && ((res = ct_arith_validate (arith)) != CT_OK ||
          arith->in_type != CT_TYPE_UINT8))
    return res != CT_OK ? res : CT_ERROR_INVALID_ARGUMENT;
  j->out = arith ? arith->out_type : CT_TYPE_UINT8;
  if ((unsigned int) j->out >= CT_TYPE_COUNT)
    return CT_ERROR_INVALID_ARGUMENT;
  j->bgr = bgr;
  /* the operations, their operands cast to the output type */
  memset (&j->ops, 0, sizeof (j->ops));
  j->ch_dim = -1;
  if (arith) {
    j->ops.n = arith->n_ops;
    for (unsigned int i = 0; i < arith->n_ops; i++) {
      bool zero = false;

      j->ops.kind[i] = (unsigned char) arith->ops[i].kind;
      j->ops.channel[i] = arith->ops[i].channel;
      j->ops.operand[i] = ct::operand_bits (arith->out_type, arith->ops[i],
          &zero);
      if (arith->ops[i].channel >= 0)
        j->ch_dim = (int) (arith->channel_dim < 4 ? arith->channel_dim : 3);
    }
  }
  if ((res = place (f, mapping, perm, j)) != CT_OK)
    return res;
  j->empty = f->width == 0 || f->height == 0;
  if (j->empty)
    return CT_OK;
  if (dst == nullptr)
    return CT_ERROR_INVALID_ARGUMENT;
  ct_yuv_src (f, &j->p, &j->src);
  return CT_OK;
}

}  // namespace

extern "C" CtResult
ct_yuv_to_tensor (const CtYuvFrame * f, int bgr, CtMapping mapping,
    const unsigned int perm[4], const CtArith * arith, void *dst,
    CtStream stream, CtPath * ran)
{
  Job j;
  CtResult res = prepare (f, bgr, mapping, perm, arith, dst, &j);
  /* (a frame without pixels: the pass, with nothing to do) */
  CtPath path = CT_PATH_YUV_TENSOR;

  if (res == CT_OK && !j.empty)
    res = kLaunchTensor[j.out] (j, dst,
        reinterpret_cast<cudaStream_t>(stream), &path);
  if (res == CT_OK && ran)
    *ran = path;
  return res;
}

namespace {

/* A full group's store on the host (ct_yuv_flush_tile_cpu), which notes
 * in *@misaligned one the GPU's store_four could not make. */
template <typename Out>
struct StoreFourHost
{
  bool *misaligned;

  void
  operator() (Out * at, const Four<Out> & q) const
  {
    if (!aligned_four (at))
      *misaligned = true;
    memcpy (at, q.v, sizeof (q.v));
  }
};

/* The block's threads' flush_tile (@hwc: packed HWC's), one after
 * another, on the host: whether every full group's store was aligned as
 * the GPU needs it. */
template <typename Out>
bool
flush_tile_cpu (const void *tile, void *at, const Steps & step,
    unsigned int width, unsigned int height, unsigned int x_base,
    unsigned int k0, bool hwc)
{
  bool misaligned = false;

  for (unsigned int t = 0; t < kLanes * kRanks; t++)
    if (hwc)
      flush_tile<Out, true> (*static_cast<const Tile<Out> *>(tile),
          static_cast<Out *>(at), step, width, height, x_base, k0, t,
          StoreFourHost<Out> { &misaligned });
    else
      flush_tile<Out, false> (*static_cast<const Tile<Out> *>(tile),
          static_cast<Out *>(at), step, width, height, x_base, k0, t,
          StoreFourHost<Out> { &misaligned });
  return !misaligned;
}

/* A warp's HWC run (ToOutput's), its lanes one after another on the host:
 * the lanes' values @vals (val[channel][pixel] for each) into the stage,
 * then the run out of it; whether every store of four was aligned. */
template <typename Out>
bool
hwc_run_cpu (const void *vals, Out * o0, bool back)
{
  alignas (16) Stage<Out> stage;
  const auto *v = static_cast<const Out (*)[3][4]>(vals);
  bool misaligned = false;

  for (unsigned int l = 0; l < kWarp; l++)
    stage_hwc (stage, l, back, v[l]);
  for (unsigned int l = 0; l < kWarp; l++)
    unstage_hwc (stage, hwc_run (o0 + (back ? -12LL : 12LL) * l, l, back), l,
        StoreFourHost<Out> { &misaligned });
  return !misaligned;
}

template <typename Out>
CtResult
hwc_run_cpu_of (const void *vals, void *at, long long step_x)
{
  Out *const o0 = static_cast<Out *>(at);
  const bool back = step_x < 0;

  /* (where ToOutput stores value by value instead) */
  if (!aligned_four (back ? o0 - 9 : o0))
    return CT_ERROR_INVALID_ARGUMENT;
  return hwc_run_cpu<Out> (vals, o0, back) ? CT_OK :
      (CtResult) cudaErrorMisalignedAddress;
}

}  // namespace

extern "C" CtResult
ct_yuv_hwc_run_cpu (const void *vals, unsigned int value_size, void *at,
    long long step_x)
{
  if (vals == nullptr || at == nullptr || (step_x != 3 && step_x != -3) ||
      (uintptr_t) at % value_size != 0)
    return CT_ERROR_INVALID_ARGUMENT;
  switch (value_size) {
    case 1:
      return hwc_run_cpu_of<uint8_t> (vals, at, step_x);
    case 2:
      return hwc_run_cpu_of<uint16_t> (vals, at, step_x);
    case 4:
      return hwc_run_cpu_of<float> (vals, at, step_x);
    case 8:
      return hwc_run_cpu_of<double> (vals, at, step_x);
    default:
      return CT_ERROR_INVALID_ARGUMENT;
  }
}

extern "C" CtResult
ct_yuv_flush_tile_cpu (const void *tile, unsigned int value_size, void *at,
    long long step_x, long long step_y, long long step_c, unsigned int width,
    unsigned int height, unsigned int x_base, unsigned int k0)
{
  const Steps step = { step_c, step_x, step_y, false };
  /* (packed HWC: three values a pixel, the channels side by side) */
  const bool hwc = (step_y == 3 || step_y == -3) && step_c == 1;
  bool aligned;

  if (tile == nullptr || at == nullptr ||
      (step_y != 1 && step_y != -1 && !hwc) ||
      x_base >= width || x_base % kTileCols != 0 ||
      k0 % CT_YUV_TILE_PAIRS != 0 || k0 > height / 2 ||
      (uintptr_t) at % value_size != 0)
    return CT_ERROR_INVALID_ARGUMENT;
  if (value_size == 1)
    aligned = flush_tile_cpu<uint8_t> (tile, at, step, width, height, x_base,
        k0, hwc);
  else if (value_size == 4)
    aligned = flush_tile_cpu<float> (tile, at, step, width, height, x_base,
        k0, hwc);
  else
    return CT_ERROR_INVALID_ARGUMENT;
  /* (what the GPU would report for the same stores) */
  return aligned ? CT_OK : (CtResult) cudaErrorMisalignedAddress;
}

extern "C" CtResult
ct_yuv_to_tensor_cpu (const CtYuvFrame * f, int bgr, CtMapping mapping,
    const unsigned int perm[4], const CtArith * arith, void *dst)
{
  Job j;
  CtResult res = prepare (f, bgr, mapping, perm, arith, dst, &j);

  if (res != CT_OK || j.empty)
    return res;
  return kTensorCpu[j.out] (j, dst);
}

extern "C" CtResult
ct_yuv_to_rgb (const CtYuvFrame * f, void *dst, size_t dst_stride, int bgr,
    CtStream stream)
{
  CtYuvPlan p;
  CtYuvSrc src;
  CtResult res = ct_yuv_plan (f, &p);

  if (res != CT_OK)
    return res;
  if (f->width == 0 || f->height == 0)
    return CT_OK;
  if (dst == nullptr || dst_stride < (size_t) f->width * 3)
    return CT_ERROR_INVALID_ARGUMENT;
  ct_yuv_src (f, &p, &src);
  unsigned int grid[2];

  ct_plan_yuv_rgb (f->width, f->height, grid);
  const auto kernel = ct_plan_yuv_420 (&p) ? k_yuv_rgb<true> :
      k_yuv_rgb<false>;

  kernel<<<dim3 (grid[0], grid[1]), kThreadsX, 0,
      reinterpret_cast<cudaStream_t>(stream)>>> (src, p,
      static_cast<unsigned char *>(dst), dst_stride, bgr);
  return (CtResult) cudaGetLastError ();
}
