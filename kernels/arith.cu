/* cudatranspose: NNStreamer's tensor_transform arithmetic (a typecast,
 * then add, mul and div, per channel or not) fused with a permutation of
 * up to four dimensions: ct_permute_arith on the GPU and
 * ct_permute_arith_cpu, its plain loop.
 *
 * Both run the same element function (arith-ops.cuh), so what differs
 * between them is only where the bytes go. Two kernels:
 *   - pixels: the permutation, simplified (ct_shape_simplify), is none, or
 *     moves an innermost side of at most kPixelChannels elements outwards
 *     (HWC to CHW, NHWC to NCHW). A thread takes four consecutive pixels
 *     of every channel (one or two in a job too small to fill the GPU): it
 *     reads them where they lie interleaved, and writes four consecutive
 *     outputs to each channel's plane, in one word where the plane is
 *     aligned. Reads and writes are coalesced, and the arithmetic hides
 *     under them.
 *   - any: every other permutation; a thread per output element in order
 *     (writes coalesced, reads gathered).
 */
#include "cudatranspose-kernels.h"
#include "arith-kernels.cuh"
#include "arith-ops.cuh"
#include "plan.h"
#include "transpose-common.cuh"

#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <array>
#include <type_traits>
#include <utility>

namespace {

using ct::Ops;
using ct::kThreads;

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

/* @ops as the kernel's program, at most K steps (@ops.n <= K: the caller
 * picks K); the divisions of @recip's bits as kDivRecip. */
template <typename Out, unsigned int K>
PixelProgram<Out, K>
program_of (const PixelOps & ops, unsigned int recip)
{
  PixelProgram<Out, K> p {};

  p.n = ops.n;
  for (unsigned int i = 0; i < ops.n; i++) {
    p.kind[i] = (recip & (1u << i)) ? kDivRecip : ops.kind[i];
    p.mask[i] = ops.mask[i];
    for (unsigned int c = 0; c < kPixelChannels; c++) {
      p.operand[i][c] = ct::from_bits<Out> (ops.operand[i][c]);
      if constexpr (std::is_floating_point_v<Out>)
        if (p.kind[i] == kDivRecip)
          p.recip[i][c] = (Out) 1 / p.operand[i][c];
    }
  }
  return p;
}

/* @ops with every step on all @channels: a channel a step is not for gets
 * the operand that leaves every value it can hold as it is (x + -0,
 * x * 1, x / 1), so the kernel tests no channel masks. Only for integer
 * input: a value then starts finite, and a NaN that a step makes is the
 * GPU's one NaN, which those operations give back unchanged; a float
 * input's NaN could carry other bits, which they would not keep. (A
 * division for some channels then divides the others by 1: for uint8 out
 * an integer division more, and for float32 out a -0 or an infinity
 * divided by 1 fails exact_recip_steps' trial for the whole step.
 * Per-channel divisors usually come for every channel, and merge into
 * one step.) */
template <typename Out>
PixelOps
dense_ops (const PixelOps & ops, unsigned int channels)
{
  const unsigned int all = (1u << channels) - 1;
  const Out zero = std::is_floating_point_v<Out> ? (Out) -0.0 : (Out) 0;
  const Out one = 1;
  PixelOps d = ops;

  for (unsigned int i = 0; i < d.n; i++) {
    for (unsigned int c = 0; c < channels; c++) {
      if (d.mask[i] & (1u << c))
        continue;
      const Out &id = d.kind[i] == CT_ARITH_ADD ? zero : one;
      d.operand[i][c] = 0;
      memcpy (&d.operand[i][c], &id, sizeof (Out));
    }
    d.mask[i] = (unsigned char) all;
  }
  return d;
}

/* Whether @a and @b have the same bits, or are both NaN. */
bool
same_float (float a, float b)
{
  return memcmp (&a, &b, sizeof (a)) == 0 || (a != a && b != b);
}

/* Whether the host's float arithmetic is in its default mode, the GPU's:
 * rounding to nearest, subnormals neither flushed nor read as zero. A
 * program built with fast-math sets flushing on x86 at start, and
 * fesetround changes the rounding; exact_recip_steps' trial would then be
 * of other arithmetic than the GPU's, so it takes no step. */
bool
host_floats_as_gpu ()
{
  volatile float one = 1.0f, three = 3.0f, tiny = 0x1p-149f, two = 2.0f;
  const float sub = tiny * two;
  uint32_t bits;

  /* (the subnormal by its bits: reading subnormals as zero also makes
   * 0 == 0x1p-148f) */
  memcpy (&bits, &sub, sizeof (bits));
  return one / three == 0x1.555556p-2f && -one / three == -0x1.555556p-2f &&
      bits == 2;
}

/* The steps of @ops (dense_ops, uint8 input to float32) whose division
 * the kernel may run as kDivRecip: those where it gives the division's
 * bits for every value the step sees (a NaN as a NaN: the GPU has one).
 * The corrected reciprocal is exact for all but a few quotients (it makes
 * -0 divided by a positive number +0, for one); a channel sees 256
 * inputs, so all of them are run through the program on the host, whose
 * float arithmetic rounds as the GPU's does (no contraction;
 * host_floats_as_gpu for the rest), and a step where any differs keeps
 * the division. One job's answer is kept for the next call on the same
 * thread (the program's whole PixelOps is the key: a copy that changed
 * only its padding costs one more trial, never a wrong answer); a trial
 * is 256 quotients a channel for each division step, and as many
 * divisions again for the exact values. */
unsigned int
exact_recip_steps (const PixelOps & ops, unsigned int channels)
{
  struct Last
  {
    bool valid;
    unsigned int channels;
    PixelOps ops;
    unsigned int recip;
  };
  static thread_local Last last;

  if (!host_floats_as_gpu ())
    return 0;
  if (last.valid && last.channels == channels &&
      memcmp (&last.ops, &ops, sizeof (ops)) == 0)
    return last.recip;
  unsigned int recip = 0;
  for (unsigned int i = 0; i < ops.n; i++)
    if (ops.kind[i] == CT_ARITH_DIV)
      recip |= 1u << i;
  for (unsigned int c = 0; c < channels && recip; c++) {
    float d[kMaxPixelOps], r[kMaxPixelOps];
    for (unsigned int i = 0; i < ops.n; i++) {
      d[i] = ct::from_bits<float> (ops.operand[i][c]);
      /* as program_of computes it; only for divisions, whose operand is
       * never 0 (an addition's may be, and 1 / 0 would trap where the
       * program enabled that) */
      r[i] = ops.kind[i] == CT_ARITH_DIV ? 1.0f / d[i] : 0.0f;
    }
    for (unsigned int x = 0; x < 256 && recip; x++) {
      float v = ct::nns_cast<float, uint8_t> ((uint8_t) x);
      for (unsigned int i = 0; i < ops.n; i++) {
        const float exact = ct::nns_op<float> (v, ops.kind[i], d[i]);
        if (recip & (1u << i)) {
          const float q = v * r[i];
          if (!same_float (fmaf (fmaf (-q, d[i], v), r[i], q), exact))
            recip &= ~(1u << i);
        }
        v = exact;
      }
    }
  }
  last.valid = true;
  last.channels = channels;
  last.ops = ops;
  last.recip = recip;
  return recip;
}

/* The pixels kernel at N pixels a thread on @plan's grid, the program in
 * its short form where the plan says it fits. */
template <typename In, typename Out, unsigned int C, unsigned int N>
void
launch_pixels_n (const PixelsArgs & a, const PixelOps & ops,
    unsigned int recip, const CtArithPlan & plan, cudaStream_t st)
{
  static_assert (sizeof (PixelsArgs) +
      sizeof (PixelProgram<Out, kShortPixels>) <= 160,
      "the short form's arguments pass 160 bytes");
  const dim3 grid (plan.grid[0], plan.grid[1]);

  if (plan.short_program)
    k_arith_pixels<In, Out, C, N, kShortPixels> <<<grid, kThreads, 0, st>>>
        (a, program_of<Out, kShortPixels> (ops, recip));
  else
    k_arith_pixels<In, Out, C, N, kMaxPixelOps> <<<grid, kThreads, 0, st>>>
        (a, program_of<Out, kMaxPixelOps> (ops, recip));
}

/* The CPU's pixels loop, for C channels: the pixels kernel's job a chunk
 * of pixels at a time. A chunk is cast into a plane per channel, each step
 * then runs over a channel's whole chunk (its kind and operand fixed, so
 * the compiler can vectorize the loop), and the planes go to the output.
 * The same element functions as arith_cpu, in the same order for each
 * element: the same bytes, without arith_cpu's index arithmetic per
 * element. */
template <typename In, typename Out, unsigned int C>
void
pixels_cpu_c (const PixelsArgs & a, const PixelOps & ops)
{
  constexpr unsigned int kChunk = 512;
  Out v[C][kChunk];

  for (unsigned long long b = 0; b < a.batches; b++) {
    const In *src = (const In *) a.src + b * a.pixels * C;
    Out *dst = (Out *) a.dst + b * a.pixels * C;

    for (unsigned long long p0 = 0; p0 < a.pixels; p0 += kChunk) {
      const unsigned int n = a.pixels - p0 < kChunk ?
          (unsigned int) (a.pixels - p0) : kChunk;
      const In *in = src + p0 * C;

      for (unsigned int j = 0; j < n; j++)
        for (unsigned int c = 0; c < C; c++)
          v[c][j] = ct::nns_cast<Out, In> (in[j * C + c]);
      for (unsigned int i = 0; i < ops.n; i++)
        for (unsigned int c = 0; c < C; c++) {
          if (!(ops.mask[i] & (1u << c)))
            continue;
          const Out x = ct::from_bits<Out> (ops.operand[i][c]);
          Out *w = v[c];
          switch (ops.kind[i]) {
            case CT_ARITH_ADD:
              for (unsigned int j = 0; j < n; j++)
                w[j] = ct::nns_op<Out> (w[j], CT_ARITH_ADD, x);
              break;
            case CT_ARITH_MUL:
              for (unsigned int j = 0; j < n; j++)
                w[j] = ct::nns_op<Out> (w[j], CT_ARITH_MUL, x);
              break;
            default:
              for (unsigned int j = 0; j < n; j++)
                w[j] = ct::nns_op<Out> (w[j], CT_ARITH_DIV, x);
              break;
          }
        }
      for (unsigned int c = 0; c < C; c++)
        memcpy (dst + c * a.pixels + p0, v[c], n * sizeof (Out));
    }
  }
}

/* The CPU's pixels loop for @a's channels (pairs of kPixelsPair). */
template <typename In, typename Out>
void
pixels_cpu (const PixelsArgs & a, const PixelOps & ops)
{
  if constexpr (kPixelsPair<In, Out>) {
    switch (a.channels) {
      case 1: pixels_cpu_c<In, Out, 1> (a, ops); break;
      case 2: pixels_cpu_c<In, Out, 2> (a, ops); break;
      case 3: pixels_cpu_c<In, Out, 3> (a, ops); break;
      default: pixels_cpu_c<In, Out, 4> (a, ops); break;
    }
  }
}

/* The pixels kernel for C channels at @plan's pixels a thread. */
template <typename In, typename Out, unsigned int C>
CtResult
launch_pixels_c (const PixelsArgs & a, const PixelOps & ops,
    const CtArithPlan & plan, cudaStream_t st)
{
  if (a.pixels == 0 || plan.grid[1] == 0)
    return CT_OK;
  const PixelOps prog = std::is_integral_v<In> ?
      dense_ops<Out> (ops, C) : ops;
  unsigned int recip = 0;
  if constexpr (std::is_same_v<In, uint8_t> && std::is_same_v<Out, float>)
    recip = exact_recip_steps (prog, C);
  if (plan.per_thread == 1)
    launch_pixels_n<In, Out, C, 1> (a, prog, recip, plan, st);
  else if (plan.per_thread == 2)
    launch_pixels_n<In, Out, C, 2> (a, prog, recip, plan, st);
  else
    launch_pixels_n<In, Out, C, kPixelsPerThread> (a, prog, recip, plan, st);
  return (CtResult) cudaGetLastError ();
}

/* The pixels kernel for @a's channels, or NULL where the pair has none. */
template <typename In, typename Out>
CtResult
launch_pixels (const PixelsArgs & a, const PixelOps & ops,
    const CtArithPlan & plan, cudaStream_t st)
{
  if constexpr (kPixelsPair<In, Out>) {
    switch (a.channels) {
      case 1: return launch_pixels_c<In, Out, 1> (a, ops, plan, st);
      case 2: return launch_pixels_c<In, Out, 2> (a, ops, plan, st);
      case 3: return launch_pixels_c<In, Out, 3> (a, ops, plan, st);
      default: return launch_pixels_c<In, Out, 4> (a, ops, plan, st);
    }
  }
  return CT_ERROR_UNSUPPORTED_KERNEL;
}

/* @ops as the any kernel's program, at most K operations (@ops.n <= K:
 * the caller picks K). */
template <unsigned int K>
AnyProgram<K>
any_program (const Ops & ops)
{
  AnyProgram<K> p {};

  p.ch_size = ops.ch_size;
  p.n_ch = ops.n_ch;
  p.n = ops.n;
  for (unsigned int i = 0; i < ops.n; i++) {
    p.operand[i] = ops.operand[i];
    p.channel[i] = ops.channel[i];
    p.kind[i] = ops.kind[i];
  }
  return p;
}

/* The any kernel with K operations at most and Index wide enough. */
template <unsigned int K>
void
launch_any_k (const AnyJob & j, const Ops & ops, const CtArithPlan & plan,
    cudaStream_t st)
{
  const unsigned int blocks = plan.blocks;

  if (!plan.wide_index)
    k_arith_any<unsigned int, K> <<<blocks, kThreads, 0, st>>> (j,
        any_program<K> (ops));
  else
    k_arith_any<unsigned long long, K> <<<blocks, kThreads, 0, st>>> (j,
        any_program<K> (ops));
}

CtResult
launch_any (const AnyArgs & a, const Ops & ops, const CtArithPlan & plan,
    cudaStream_t st)
{
  static_assert (sizeof (AnyJob) + sizeof (AnyProgram<kShortProgram>) <=
      160, "the any kernel's short form passes 160 bytes");
  if (plan.blocks == 0)
    return CT_OK;
  AnyJob j {};
  j.src = a.src;
  j.dst = a.dst;
  for (int k = 0; k < 3; k++)
    j.d_out[k] = a.d_out[k];
  for (int k = 0; k < 4; k++)
    j.src_of[k] = a.src_of[k];
  j.total = a.total;
  j.in_type = (unsigned char) a.in_type;
  j.out_type = (unsigned char) a.out_type;
  if (plan.short_program)
    launch_any_k<kShortProgram> (j, ops, plan, st);
  else
    launch_any_k<CT_ARITH_MAX_OPS> (j, ops, plan, st);
  return (CtResult) cudaGetLastError ();
}

/* One type pair's entry points: the pixels kernel, if it has one, and its
 * host loop. */
struct PairFns
{
  bool has_pixels;
  CtResult (*pixels) (const PixelsArgs &, const PixelOps &,
      const CtArithPlan &, cudaStream_t);
  void (*cpu) (const AnyArgs &, const Ops &);
  void (*pixels_cpu) (const PixelsArgs &, const PixelOps &);
};

template <int I, int O>
constexpr PairFns
pair_fns ()
{
  using In = typename ct::TypeOf<(CtType) I>::T;
  using Out = typename ct::TypeOf<(CtType) O>::T;
  return PairFns { kPixelsPair<In, Out>, &launch_pixels<In, Out>,
    &arith_cpu<In, Out>, &pixels_cpu<In, Out> };
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

/* The kernels' operations from @arith, under @plan (its channels). */
void
make_ops (const CtArith * arith, const CtArithPlan & plan, Ops * ops)
{
  memset (ops, 0, sizeof (*ops));
  ops->n = arith->n_ops;
  for (unsigned int i = 0; i < arith->n_ops; i++) {
    const CtArithOp & op = arith->ops[i];
    bool zero = false;

    ops->kind[i] = (unsigned char) op.kind;
    ops->channel[i] = op.channel;
    ops->operand[i] = ct::operand_bits (arith->out_type, op, &zero);
  }
  ops->ch_size = plan.ch_size;
  ops->n_ch = plan.n_ch;
}

/* The pixels kernel's program: @plan's steps with @ops' operands. */
PixelOps
pixel_ops (const CtArithPlan & plan, const Ops & ops)
{
  PixelOps p;

  memset (&p, 0, sizeof (p));
  p.n = plan.n_steps;
  for (unsigned int i = 0; i < plan.n_steps; i++) {
    p.kind[i] = plan.steps[i].kind;
    p.mask[i] = plan.steps[i].mask;
    for (unsigned int c = 0; c < kPixelChannels; c++)
      p.operand[i][c] = ops.operand[plan.steps[i].op[c]];
  }
  return p;
}

/* The pixels kernel's arguments on @src and @dst. */
PixelsArgs
pixels_args (const CtArithPlan & plan, const void *src, void *dst)
{
  PixelsArgs a {};

  a.src = (const unsigned char *) src;
  a.dst = (unsigned char *) dst;
  a.channels = plan.channels;
  a.pixels = plan.n_pixels;
  a.batches = plan.batches;
  a.word_loads = plan.word_loads;
  a.quad_stores = plan.quad_stores;
  return a;
}

/* The "any" arguments: output sizes and the input stride of each. */
AnyArgs
any_args (const CtArithPlan & plan, const void *src, void *dst,
    const CtArith * arith)
{
  AnyArgs a;

  a.src = (const unsigned char *) src;
  a.dst = (unsigned char *) dst;
  a.total = plan.total;
  a.in_type = arith->in_type;
  a.out_type = arith->out_type;
  for (int i = 0; i < 4; i++) {
    a.d_out[i] = plan.d_out[i];
    a.src_of[i] = plan.src_of[i];
  }
  return a;
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
  cudaStream_t st = (cudaStream_t) stream;
  CtArithPlan plan;
  CtResult res = ct_plan_arith (src, dst, dims, perm, arith, &plan);
  Ops ops;

  if (res != CT_OK)
    return res;
  const unsigned int in_size = ct_type_size (arith->in_type);
  const unsigned int out_size = ct_type_size (arith->out_type);
  if (!src || !dst || (uintptr_t) src % in_size != 0 ||
      (uintptr_t) dst % out_size != 0)
    return CT_ERROR_INVALID_ARGUMENT;
  make_ops (arith, plan, &ops);
  const PairFns & fns = kPairs[arith->in_type][arith->out_type];

  if (plan.pixels) {
    CtPlanDevice dev;
    res = ct_device_now (&dev);
    if (res == CT_OK) {
      ct_plan_arith_device (&plan, dev.n_sms);
      res = fns.pixels (pixels_args (plan, src, dst), pixel_ops (plan, ops),
          plan, st);
    }
  } else {
    res = launch_any (any_args (plan, src, dst, arith), ops, plan, st);
  }
  if (res == CT_OK && ran)
    *ran = plan.path;
  return res;
}

extern "C" CtResult
ct_permute_arith_cpu (const void *src, void *dst,
    const unsigned long long dims[4], const unsigned int perm[4],
    const CtArith * arith)
{
  CtArithPlan plan;
  CtResult res = ct_plan_arith (src, dst, dims, perm, arith, &plan);
  Ops ops;

  if (res != CT_OK)
    return res;
  if (!src || !dst)
    return CT_ERROR_INVALID_ARGUMENT;
  make_ops (arith, plan, &ops);
  const PairFns & fns = kPairs[arith->in_type][arith->out_type];
  if (plan.pixels)
    fns.pixels_cpu (pixels_args (plan, src, dst), pixel_ops (plan, ops));
  else
    fns.cpu (any_args (plan, src, dst, arith), ops);
  return CT_OK;
}
