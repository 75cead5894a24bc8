/* cudatranspose: the device code of the fused arithmetic (arith.cu, which
 * includes it once): the launch arguments and programs the host builds
 * (PixelsArgs and PixelProgram, AnyJob and AnyProgram) and the two
 * kernels, k_arith_pixels and k_arith_any. arith.cu's opening comment says
 * which takes what. */
#pragma once

#include "arith-ops.cuh"
#include "cudatranspose-kernels.h"
#include "plan.h"
#include "transpose-common.cuh"

#include <cuda_runtime.h>
#include <stdint.h>

namespace {

using ct::Ops;
using ct::kThreads;

/* the planner's numbers (plan.h, plan-arith.c) */
constexpr unsigned int kPixelChannels = CT_ARITH_PIXEL_CHANNELS;
constexpr unsigned int kPixelsPerThread = CT_ARITH_PIXELS_PER_THREAD; /* a Quad */

/* Four elements stored as one word of 4 x sizeof (T) bytes. */
template <typename T> struct alignas (4 * sizeof (T)) Quad
{
  T v[4];
};

/* The pairs of types the pixels kernel is built for (HWC video and NHWC
 * uint8 to float32 for a network, floats or bytes kept); every other
 * pair, and every other permutation, takes the any kernel. */
template <typename In, typename Out>
constexpr bool kPixelsPair =
    (std::is_same_v<In, uint8_t> && std::is_same_v<Out, float>) ||
    (std::is_same_v<In, uint8_t> && std::is_same_v<Out, uint8_t>) ||
    (std::is_same_v<In, float> && std::is_same_v<Out, float>);

struct PixelsArgs
{
  const unsigned char *src;
  unsigned char *dst;
  unsigned int channels;        /* C: 1 .. kPixelChannels */
  unsigned long long pixels;    /* P: elements of a channel plane */
  unsigned int batches;         /* B */
  bool word_loads;              /* src allows 4-byte loads */
  bool quad_stores;             /* dst and P allow Quad stores */
};

/* The pixels program, on the host: the operations of Ops with a run of
 * operations of one kind on distinct single channels (NNStreamer's
 * per-channel add:A@0,add:B@1,add:C@2) merged into one, an operand per
 * channel. Operations on different channels touch different elements, so
 * the order between them does not matter, and the merged program computes
 * the same values in fewer steps (a step's cost is its latency: a small
 * job is one thread's chain). */
constexpr unsigned int kMaxPixelOps = CT_ARITH_PIXEL_STEPS;
struct PixelOps
{
  unsigned int n;
  unsigned char kind[kMaxPixelOps];
  unsigned char mask[kMaxPixelOps];     /* the channels it is for */
  unsigned long long operand[kMaxPixelOps][kPixelChannels];
};

/* PixelOps as the kernel takes it: at most K steps, each operand in the
 * output type. The arguments travel with every launch, and in some
 * processes a launch whose arguments passed 160 bytes took longer
 * (measured: docs/kernels.md, "A short program form"). So a program of
 * up to kShortPixels steps, which every normalization is once merged, goes
 * in a short form: 148 bytes with PixelsArgs for float32 out (the long
 * form 588). A step keeps kPixelChannels operands whatever the channels:
 * with 3, the 3-channel uint8 to float32 kernel took 35 registers instead
 * of 31. A kDivRecip step has the reciprocals of its operands beside them
 * (which is why the short form is 3 steps, not 4). */
constexpr unsigned int kShortProgram = CT_ARITH_SHORT_ANY_OPS; /* the any
                                                           * kernel's */
constexpr unsigned int kShortPixels = CT_ARITH_SHORT_PIXEL_STEPS;
template <typename Out, unsigned int K>
struct PixelProgram
{
  unsigned int n;
  unsigned char kind[K];
  unsigned char mask[K];
  Out operand[K][kPixelChannels];
  Out recip[K][kPixelChannels];
};

/* Stores a Quad streaming (evict first): the output is not read again
 * by this pass, and keeping it out of L2's way made the pass faster
 * (measured: docs/kernels.md, "Streaming stores"). */
template <typename Out>
__device__ __forceinline__ void
store_quad (Out * p, const Quad<Out> & q)
{
  if constexpr (sizeof (q) == 16) {
    uint4 u;
    memcpy (&u, &q, 16);
    __stcs ((uint4 *) p, u);
  } else if constexpr (sizeof (q) == 4) {
    unsigned int u;
    memcpy (&u, &q, 4);
    __stcs ((unsigned int *) p, u);
  } else {
    *(Quad<Out> *) p = q;
  }
}

/* A step the host proved the corrected reciprocal exact for (see
 * exact_recip_steps): a division by a float operand d, computed with its
 * reciprocal r (rounded, from the host) as q = x r and then
 * q + (x - q d) r, each operation rounded once (Markstein's correction):
 * three dependent operations instead of the division's sequence of about
 * a dozen with its check for the slow case. */
constexpr unsigned int kDivRecip = CT_ARITH_DIV + 1;

__device__ __forceinline__ float
div_recip (float x, float d, float r)
{
  const float q = __fmul_rn (x, r);
  return __fmaf_rn (__fmaf_rn (-q, d, x), r, q);
}

/* Operation @kind on the values of the channels in @mask of @v, channel
 * c with @operand[c]; on every channel where kDense (the host wrote an
 * operand that changes nothing for the others: see dense_ops). */
template <typename Out, unsigned int C, unsigned int N, unsigned int kind,
    bool kDense>
__device__ __forceinline__ void
apply_op (Out (&v)[C][N], unsigned int mask,
    const Out (&operand)[kPixelChannels], const Out (&recip)[kPixelChannels])
{
#pragma unroll
  for (unsigned int c = 0; c < C; c++)
    if (kDense || (mask & (1u << c))) {
      if constexpr (kind == kDivRecip) {
#pragma unroll
        for (unsigned int j = 0; j < N; j++)
          v[c][j] = div_recip (v[c][j], operand[c], recip[c]);
      } else {
#pragma unroll
        for (unsigned int j = 0; j < N; j++)
          v[c][j] = ct::nns_op<Out> (v[c][j], kind, operand[c]);
      }
    }
}

/// pixels: input [B][P][C], output [B][C][P] (C = 1: the arithmetic
/// alone), for the pairs of kPixelsPair. Blocks of kThreads threads along
/// P, N pixels a thread (4; 1 or 2 in small jobs); grid y
/// over B (looping past kMaxGridY). A thread reads its C x N consecutive
/// inputs (in 4-byte words where word_loads and they fill words), and
/// writes N consecutive outputs to each plane (one Quad where quad_stores
/// and N is 4): a warp's accesses are coalesced on both sides. Each
/// operation is decoded once for the thread's NC values; programs of up to
/// kShortPixels steps come as K = kShortPixels, others as kMaxPixelOps.
/// (Two such groups a thread, for more bytes in flight, doubled the
/// registers and ran slower; 32 registers let every thread of the
/// multiprocessor run. Measured: docs/kernels.md,
/// "One group of pixels a thread".)
template <typename In, typename Out, unsigned int C, unsigned int N,
    unsigned int K>
__global__ void __launch_bounds__ (kThreads)
k_arith_pixels (const PixelsArgs a,
    const __grid_constant__ PixelProgram<Out, K> ops)
{
  constexpr unsigned int kWords = C * N * sizeof (In) / 4;
  constexpr bool kWholeWords = kWords > 0 && kWords * 4 == C * N * sizeof (In);
  const unsigned long long p0 = (blockIdx.x * (unsigned long long) kThreads
      + threadIdx.x) * N;
  if (p0 >= a.pixels)
    return;
  const unsigned int n = a.pixels - p0 < N ?
      (unsigned int) (a.pixels - p0) : N;

  for (unsigned int b = blockIdx.y; b < a.batches; b += gridDim.y) {
    const unsigned long long base = (unsigned long long) b * a.pixels;
    const unsigned char *src = a.src + (base + p0) * C * sizeof (In);
    In x[N * C];
    Out v[C][N];

    bool loaded = false;
    if constexpr (kWholeWords) {
      if (a.word_loads && n == N) {
        unsigned int w[kWords];
#pragma unroll
        for (unsigned int i = 0; i < kWords; i++)
          w[i] = ((const unsigned int *) src)[i];
        memcpy (x, w, sizeof (x));
        loaded = true;
      }
    }
    if (!loaded) {
#pragma unroll
      for (unsigned int e = 0; e < N * C; e++)
        x[e] = e < n * C ? ((const In *) src)[e] : In ();
    }
#pragma unroll
    for (unsigned int c = 0; c < C; c++)
#pragma unroll
      for (unsigned int j = 0; j < N; j++)
        v[c][j] = ct::nns_cast<Out, In> (x[j * C + c]);

    /* an operation is for some of the channels (c here: the host sends
     * other channel dimensions to the any kernel), or for all where the
     * input is integers (dense_ops); the kind is branched on outside the
     * element loops, so that no division is computed for an addition.
     * (Unrolling a short program's steps, so that its operands are read
     * straight from the arguments, took the 3-channel uint8 to float32
     * kernel at 4 pixels from 32 registers to 40 and made it slower;
     * measured: docs/kernels.md, "A program's steps in a loop".) */
    constexpr bool kDense = std::is_integral_v<In>;
#pragma unroll 1
    for (unsigned int i = 0; i < K; i++) {
      if (i >= ops.n)
        break;
      switch (ops.kind[i]) {
        case CT_ARITH_ADD:
          apply_op<Out, C, N, CT_ARITH_ADD, kDense> (v, ops.mask[i],
              ops.operand[i], ops.recip[i]);
          break;
        case CT_ARITH_MUL:
          apply_op<Out, C, N, CT_ARITH_MUL, kDense> (v, ops.mask[i],
              ops.operand[i], ops.recip[i]);
          break;
        case CT_ARITH_DIV:
          apply_op<Out, C, N, CT_ARITH_DIV, kDense> (v, ops.mask[i],
              ops.operand[i], ops.recip[i]);
          break;
        default:
          /* kDivRecip, which only float32 programs have */
          if constexpr (std::is_same_v<Out, float>)
            apply_op<Out, C, N, kDivRecip, kDense> (v, ops.mask[i],
                ops.operand[i], ops.recip[i]);
          else
            apply_op<Out, C, N, CT_ARITH_DIV, kDense> (v, ops.mask[i],
                ops.operand[i], ops.recip[i]);
          break;
      }
    }

    Out *dst = (Out *) a.dst + base * C + p0;
#pragma unroll
    for (unsigned int c = 0; c < C; c++) {
      Out *plane = dst + (unsigned long long) c * a.pixels;
      if (N == 4 && a.quad_stores && n == N) {
        Quad<Out> q;
#pragma unroll
        for (unsigned int j = 0; j < N; j++)
          q.v[j] = v[c][j];
        store_quad (plane, q);
      } else {
        for (unsigned int j = 0; j < n; j++)
          plane[j] = v[c][j];
      }
    }
  }
}

struct AnyArgs
{
  const unsigned char *src;
  unsigned char *dst;
  CtType in_type;
  CtType out_type;
  unsigned long long d_out[4];  /* output sizes, innermost first */
  unsigned long long src_of[4]; /* input stride (elements) of each */
  unsigned long long total;
};

/* Input element @lin of any type, cast to Out. */
template <typename Out>
__device__ __forceinline__ Out
load_cast (const unsigned char *src, CtType type, unsigned long long lin)
{
  switch (type) {
    case CT_TYPE_INT8: return ct::nns_cast<Out> (((const int8_t *) src)[lin]);
    case CT_TYPE_UINT8: return ct::nns_cast<Out> (src[lin]);
    case CT_TYPE_INT16: return ct::nns_cast<Out> (((const int16_t *) src)[lin]);
    case CT_TYPE_UINT16:
      return ct::nns_cast<Out> (((const uint16_t *) src)[lin]);
    case CT_TYPE_INT32: return ct::nns_cast<Out> (((const int32_t *) src)[lin]);
    case CT_TYPE_UINT32:
      return ct::nns_cast<Out> (((const uint32_t *) src)[lin]);
    case CT_TYPE_INT64: return ct::nns_cast<Out> (((const int64_t *) src)[lin]);
    case CT_TYPE_UINT64:
      return ct::nns_cast<Out> (((const uint64_t *) src)[lin]);
    case CT_TYPE_FLOAT32: return ct::nns_cast<Out> (((const float *) src)[lin]);
    default: return ct::nns_cast<Out> (((const double *) src)[lin]);
  }
}

/* AnyArgs as the any kernel takes them: without the outermost output size
 * (the rest is that index), the types in a byte each. */
struct AnyJob
{
  const unsigned char *src;
  unsigned char *dst;
  unsigned long long d_out[3];  /* output sizes, innermost first */
  unsigned long long src_of[4]; /* input stride (elements) of each */
  unsigned long long total;
  unsigned char in_type;        /* CtType */
  unsigned char out_type;
};

/* Ops as the any kernel takes it, at most K operations: with K =
 * kShortProgram and AnyJob, 160 bytes of arguments, which no launch paid
 * for (PixelProgram says what larger ones cost); Ops and AnyArgs are 952,
 * AnyJob and AnyProgram<CT_ARITH_MAX_OPS> 944. */
template <unsigned int K>
struct AnyProgram
{
  unsigned long long ch_size;   /* as Ops' */
  unsigned long long n_ch;
  unsigned long long operand[K];
  int channel[K];
  unsigned int n;
  unsigned char kind[K];

  __device__ long long
  channel_of (unsigned long long lin) const
  {
    return n_ch ? (long long) (lin / ch_size % n_ch) : -1;
  }
};

/* Output element @i from input element @lin, in type Out. */
template <typename Out, unsigned int K>
__device__ __forceinline__ void
any_element (const AnyJob & a, const AnyProgram<K> & ops,
    unsigned long long lin, unsigned long long i)
{
  Out v = load_cast<Out> (a.src, (CtType) a.in_type, lin);
  long long ch = ops.channel_of (lin);

  for (unsigned int k = 0; k < ops.n; k++)
    if (ops.channel[k] < 0 || ops.channel[k] == ch)
      v = ct::nns_op<Out> (v, ops.kind[k], ct::from_bits<Out> (ops.operand[k]));
  ((Out *) a.dst)[i] = v;
}

/// any: every pair of types, every permutation. One output element per
/// thread, in output order, a grid-stride loop; writes coalesced, reads
/// gathered through the input strides of the output's dimensions. The
/// types are switched on at run time (the same for every thread), so one
/// kernel serves all hundred pairs; Index is 32 bits where the tensor
/// allows, for cheaper division.
template <typename Index, unsigned int K>
__global__ void __launch_bounds__ (kThreads)
k_arith_any (const AnyJob a, const __grid_constant__ AnyProgram<K> ops)
{
  const Index d0 = (Index) a.d_out[0], d1 = (Index) a.d_out[1],
      d2 = (Index) a.d_out[2];

  for (Index i = blockIdx.x * (Index) kThreads + threadIdx.x;
      i < (Index) a.total; i += (Index) gridDim.x * kThreads) {
    Index rest = i;
    unsigned long long lin = (unsigned long long) (rest % d0) * a.src_of[0];
    rest /= d0;
    lin += (unsigned long long) (rest % d1) * a.src_of[1];
    rest /= d1;
    lin += (unsigned long long) (rest % d2) * a.src_of[2];
    rest /= d2;
    lin += (unsigned long long) rest * a.src_of[3];
    switch (a.out_type) {
      case CT_TYPE_INT8: any_element<int8_t, K> (a, ops, lin, i); break;
      case CT_TYPE_UINT8: any_element<uint8_t, K> (a, ops, lin, i); break;
      case CT_TYPE_INT16: any_element<int16_t, K> (a, ops, lin, i); break;
      case CT_TYPE_UINT16: any_element<uint16_t, K> (a, ops, lin, i); break;
      case CT_TYPE_INT32: any_element<int32_t, K> (a, ops, lin, i); break;
      case CT_TYPE_UINT32: any_element<uint32_t, K> (a, ops, lin, i); break;
      case CT_TYPE_INT64: any_element<int64_t, K> (a, ops, lin, i); break;
      case CT_TYPE_UINT64: any_element<uint64_t, K> (a, ops, lin, i); break;
      case CT_TYPE_FLOAT32: any_element<float, K> (a, ops, lin, i); break;
      default: any_element<double, K> (a, ops, lin, i); break;
    }
  }
}

}  // namespace
