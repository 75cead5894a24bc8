/* cudatranspose: NNStreamer's tensor_transform arithmetic (a typecast,
 * then add, mul and div, per channel or not) fused with a permutation of
 * up to four dimensions: ct_permute_arith on the GPU and
 * ct_permute_arith_cpu, its plain loop.
 *
 * Both run the same element function (arith-ops.cuh), so what differs
 * between them is only where the bytes go. Two kernels:
 *   - pixels: the permutation, simplified (permute-shape.cuh), is none, or
 *     moves an innermost side of at most kPixelChannels elements outwards
 *     (HWC to CHW, NHWC to NCHW). A thread takes four consecutive pixels
 *     of every channel: it reads them where they lie interleaved, and
 *     writes four consecutive outputs to each channel's plane, in one word
 *     where the plane is aligned. Reads and writes are coalesced, and the
 *     arithmetic hides under them.
 *   - any: every other permutation; a thread per output element in order
 *     (writes coalesced, reads gathered).
 */
#include "cudatranspose-kernels.h"
#include "arith-ops.cuh"
#include "permute-shape.cuh"
#include "transpose-common.cuh"

#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

#include <array>
#include <utility>

namespace {

using ct::Ops;
using ct::kThreads;

constexpr unsigned int kPixelChannels = 4; /* most channels pixels takes */
constexpr unsigned int kPixelsPerThread = 4;

/* Four elements stored as one word of 4 x sizeof (T) bytes. */
template <typename T> struct alignas (4 * sizeof (T)) Quad
{
  T v[4];
};

struct PixelsArgs
{
  const unsigned char *src;
  unsigned char *dst;
  unsigned int channels;        /* C: 1 .. kPixelChannels */
  unsigned long long pixels;    /* P: elements of a channel plane */
  unsigned int batches;         /* B */
  bool quad_stores;             /* dst and P allow Quad stores */
  bool channel_is_c;            /* the channel operations' channel is c */
};

/// pixels: input [B][P][C], output [B][C][P] (C = 1: the arithmetic
/// alone). Blocks of kThreads threads along P, four pixels a thread;
/// grid y over B (looping past kMaxGridY). Reads of a thread are C x 4
/// consecutive elements, writes four consecutive elements of each plane
/// (one Quad where quad_stores); neighbouring threads' accesses are
/// neighbours, so a warp's are coalesced on both sides.
template <typename In, typename Out>
__global__ void __launch_bounds__ (kThreads)
k_arith_pixels (const PixelsArgs a, const __grid_constant__ Ops ops)
{
  const unsigned long long p0 = (blockIdx.x * (unsigned long long) kThreads
      + threadIdx.x) * kPixelsPerThread;
  if (p0 >= a.pixels)
    return;
  const unsigned int n = a.pixels - p0 < kPixelsPerThread ?
      (unsigned int) (a.pixels - p0) : kPixelsPerThread;
  const unsigned int C = a.channels;

  for (unsigned int b = blockIdx.y; b < a.batches; b += gridDim.y) {
    const unsigned long long base = (unsigned long long) b * a.pixels;
    const In *src = (const In *) a.src + (base + p0) * C;
    Out *dst = (Out *) a.dst + base * C + p0;

#pragma unroll
    for (unsigned int c = 0; c < kPixelChannels; c++) {
      if (c >= C)
        break;
      Quad<Out> q;
#pragma unroll
      for (unsigned int j = 0; j < kPixelsPerThread; j++) {
        if (j < n) {
          unsigned long long lin = (base + p0 + j) * C + c;
          long long ch = a.channel_is_c ? (long long) c : ops.channel_of (lin);
          q.v[j] = ct::arith_element<In, Out> (src[j * C + c], ch, ops);
        }
      }
      Out *plane = dst + (unsigned long long) c * a.pixels;
      if (a.quad_stores && n == kPixelsPerThread) {
        *(Quad<Out> *) plane = q;
      } else {
        for (unsigned int j = 0; j < n; j++)
          plane[j] = q.v[j];
      }
    }
  }
}

struct AnyArgs
{
  const unsigned char *src;
  unsigned char *dst;
  unsigned long long d_out[4];  /* output sizes, innermost first */
  unsigned long long src_of[4]; /* input stride (elements) of each */
  unsigned long long total;
};

/// any: one output element per thread, in output order, a grid-stride
/// loop; writes coalesced, reads gathered through the input strides of
/// the output's dimensions.
template <typename In, typename Out>
__global__ void __launch_bounds__ (kThreads)
k_arith_any (const AnyArgs a, const __grid_constant__ Ops ops)
{
  const In *src = (const In *) a.src;
  Out *dst = (Out *) a.dst;

  for (unsigned long long i = blockIdx.x * (unsigned long long) kThreads +
      threadIdx.x; i < a.total;
      i += (unsigned long long) gridDim.x * kThreads) {
    unsigned long long rest = i, lin = 0;
    for (int k = 0; k < 4; k++) {
      lin += rest % a.d_out[k] * a.src_of[k];
      rest /= a.d_out[k];
    }
    dst[i] = ct::arith_element<In, Out> (src[lin], ops.channel_of (lin), ops);
  }
}

/* The element loop on the host: the output in order. */
template <typename In, typename Out>
void
arith_cpu (const AnyArgs & a, const Ops & ops)
{
  const In *src = (const In *) a.src;
  Out *dst = (Out *) a.dst;
  unsigned long long o[4] = { 0, 0, 0, 0 };

  for (unsigned long long i = 0; i < a.total; i++) {
    unsigned long long lin = 0;
    for (int k = 0; k < 4; k++)
      lin += o[k] * a.src_of[k];
    dst[i] = ct::arith_element<In, Out> (src[lin], ops.channel_of (lin), ops);
    for (int k = 0; k < 4 && ++o[k] == a.d_out[k]; k++)
      o[k] = 0;
  }
}

template <typename In, typename Out>
CtResult
launch_pixels (const PixelsArgs & a, const Ops & ops, cudaStream_t st)
{
  unsigned long long groups = ct::div_up (a.pixels, kPixelsPerThread);
  dim3 grid ((unsigned int) ct::div_up (groups, kThreads),
      a.batches < ct::kMaxGridY ? a.batches : ct::kMaxGridY);

  if (grid.x == 0 || grid.y == 0)
    return CT_OK;
  k_arith_pixels<In, Out> <<<grid, kThreads, 0, st>>> (a, ops);
  return (CtResult) cudaGetLastError ();
}

template <typename In, typename Out>
CtResult
launch_any (const AnyArgs & a, const Ops & ops, cudaStream_t st)
{
  /* a few waves' worth of blocks; the loop takes the rest */
  unsigned long long blocks = ct::div_up (a.total, kThreads);
  if (blocks > 65536)
    blocks = 65536;
  if (blocks == 0)
    return CT_OK;
  k_arith_any<In, Out> <<<(unsigned int) blocks, kThreads, 0, st>>> (a, ops);
  return (CtResult) cudaGetLastError ();
}

/* One type pair's entry points: its kernels, its host loop, and its
 * operands cast to the output type. */
struct PairFns
{
  CtResult (*pixels) (const PixelsArgs &, const Ops &, cudaStream_t);
  CtResult (*any) (const AnyArgs &, const Ops &, cudaStream_t);
  void (*cpu) (const AnyArgs &, const Ops &);
};

template <int I, int O>
constexpr PairFns
pair_fns ()
{
  using In = typename ct::TypeOf<(CtType) I>::T;
  using Out = typename ct::TypeOf<(CtType) O>::T;
  return PairFns { &launch_pixels<In, Out>, &launch_any<In, Out>,
    &arith_cpu<In, Out> };
}

template <int I, size_t... O>
constexpr std::array<PairFns, CT_TYPE_COUNT>
pair_row (std::index_sequence<O...>)
{
  return { { pair_fns<I, (int) O> ()... } };
}

template <size_t... I>
constexpr std::array<std::array<PairFns, CT_TYPE_COUNT>, CT_TYPE_COUNT>
pair_table (std::index_sequence<I...>)
{
  return { { pair_row<(int) I> (std::make_index_sequence<CT_TYPE_COUNT> ())... } };
}

const std::array<std::array<PairFns, CT_TYPE_COUNT>, CT_TYPE_COUNT> kPairs =
    pair_table (std::make_index_sequence<CT_TYPE_COUNT> ());

/* Whether @arith's types are ours. */
bool
types_known (const CtArith * arith)
{
  return (unsigned int) arith->in_type < CT_TYPE_COUNT &&
      (unsigned int) arith->out_type < CT_TYPE_COUNT;
}

/* The kernels' operations from @arith, for input @dims. */
CtResult
make_ops (const CtArith * arith, const unsigned long long dims[4], Ops * ops)
{
  bool per_channel = false;

  memset (ops, 0, sizeof (*ops));
  ops->n = arith->n_ops;
  for (unsigned int i = 0; i < arith->n_ops; i++) {
    const CtArithOp & op = arith->ops[i];
    bool zero = false;

    ops->kind[i] = (unsigned char) op.kind;
    ops->channel[i] = op.channel;
    ops->operand[i] = ct::operand_bits (arith->out_type, op, &zero);
    per_channel = per_channel || op.channel >= 0;
  }
  if (per_channel) {
    /* a channel dimension past the fourth has size 1: one channel */
    unsigned long long size = 1;
    for (unsigned int k = 0; k < arith->channel_dim && k < 4; k++)
      size *= dims[k];
    ops->ch_size = size ? size : 1;
    ops->n_ch = arith->channel_dim < 4 ? dims[arith->channel_dim] : 1;
  }
  return CT_OK;
}

/* The "any" arguments: output sizes and the input stride of each. */
void
any_args (const void *src, void *dst, const unsigned long long dims[4],
    const unsigned int perm[4], AnyArgs * a)
{
  unsigned long long in_stride[4], acc = 1;

  for (int k = 0; k < 4; k++) {
    in_stride[k] = acc;
    acc *= dims[k];
  }
  a->src = (const unsigned char *) src;
  a->dst = (unsigned char *) dst;
  a->total = acc;
  for (int i = 0; i < 4; i++) {
    a->d_out[i] = dims[perm[i]];
    a->src_of[i] = in_stride[perm[i]];
  }
}

/* Checks everything the calls take, memory aside. */
CtResult
check_call (const unsigned long long dims[4], const unsigned int perm[4],
    const CtArith * arith)
{
  CtResult res;

  if (!arith || !dims || !perm)
    return CT_ERROR_INVALID_ARGUMENT;
  if ((res = ct_arith_validate (arith)) != CT_OK)
    return res;
  return ct_permute_validate (dims, ct_type_size (arith->in_type), perm);
}

}  // namespace

extern "C" const char *
ct_type_name (CtType type)
{
  return (unsigned int) type < CT_TYPE_COUNT ? ct::kTypeNames[type] : NULL;
}

extern "C" int
ct_type_from_name (const char *name)
{
  for (int t = 0; name && t < CT_TYPE_COUNT; t++) {
    const char *a = name, *b = ct::kTypeNames[t];
    while (*a && *b && (*a | 0x20) == *b) {
      a++;
      b++;
    }
    if (!*a && !*b)
      return t;
  }
  return -1;
}

extern "C" unsigned int
ct_type_size (CtType type)
{
  return (unsigned int) type < CT_TYPE_COUNT ? ct::kTypeSizes[type] : 0;
}

extern "C" CtResult
ct_arith_validate (const CtArith * arith)
{
  if (!arith || !types_known (arith) || arith->n_ops > CT_ARITH_MAX_OPS)
    return CT_ERROR_INVALID_ARGUMENT;
  for (unsigned int i = 0; i < arith->n_ops; i++) {
    const CtArithOp & op = arith->ops[i];
    bool zero = false;

    if ((unsigned int) op.kind > CT_ARITH_DIV || op.channel < -1)
      return CT_ERROR_INVALID_ARGUMENT;
    ct::operand_bits (arith->out_type, op, &zero);
    if (op.kind == CT_ARITH_DIV && zero)
      return CT_ERROR_INVALID_ARGUMENT;
  }
  return CT_OK;
}

extern "C" CtResult
ct_permute_arith (const void *src, void *dst,
    const unsigned long long dims[4], const unsigned int perm[4],
    const CtArith * arith, CtStream stream, CtPath * ran)
{
  CtResult res = check_call (dims, perm, arith);
  cudaStream_t st = (cudaStream_t) stream;
  Ops ops;

  if (res != CT_OK)
    return res;
  const unsigned int in_size = ct_type_size (arith->in_type);
  const unsigned int out_size = ct_type_size (arith->out_type);
  if (!src || !dst || (uintptr_t) src % in_size != 0 ||
      (uintptr_t) dst % out_size != 0)
    return CT_ERROR_INVALID_ARGUMENT;
  make_ops (arith, dims, &ops);
  const PairFns & fns = kPairs[arith->in_type][arith->out_type];

  /* pixels where what moves is an innermost side of a few elements
   * going outwards over one other side, or nothing */
  ct::Shape s = ct::simplify (dims, perm);
  bool identity = true;
  for (int i = 0; i < s.rank; i++)
    identity = identity && s.p[i] == i;
  PixelsArgs pa;
  bool pixels = false;
  if (identity) {
    pa.channels = 1;
    pa.pixels = 1;
    for (int k = 0; k < 4; k++)
      pa.pixels *= dims[k];
    pa.batches = 1;
    pixels = true;
  } else if ((s.rank == 2 || s.rank == 3) && s.p[0] == 1 && s.p[1] == 0 &&
      s.d[0] <= kPixelChannels && (s.rank == 2 || s.d[2] <= 0xffffffffull)) {
    pa.channels = (unsigned int) s.d[0];
    pa.pixels = s.d[1];
    pa.batches = s.rank == 3 ? (unsigned int) s.d[2] : 1;
    pixels = true;
  }
  if (pixels) {
    pa.src = (const unsigned char *) src;
    pa.dst = (unsigned char *) dst;
    pa.quad_stores = (uintptr_t) dst % (4 * out_size) == 0 &&
        pa.pixels % kPixelsPerThread == 0;
    pa.channel_is_c = ops.ch_size == 1 && ops.n_ch == pa.channels;
    res = fns.pixels (pa, ops, st);
  } else {
    AnyArgs aa;
    any_args (src, dst, dims, perm, &aa);
    res = fns.any (aa, ops, st);
  }
  if (res == CT_OK && ran)
    *ran = pixels ? CT_PATH_ARITH_PIXELS : CT_PATH_ARITH;
  return res;
}

extern "C" CtResult
ct_permute_arith_cpu (const void *src, void *dst,
    const unsigned long long dims[4], const unsigned int perm[4],
    const CtArith * arith)
{
  CtResult res = check_call (dims, perm, arith);
  AnyArgs aa;
  Ops ops;

  if (res != CT_OK)
    return res;
  if (!src || !dst)
    return CT_ERROR_INVALID_ARGUMENT;
  make_ops (arith, dims, &ops);
  any_args (src, dst, dims, perm, &aa);
  kPairs[arith->in_type][arith->out_type].cpu (aa, ops);
  return CT_OK;
}
