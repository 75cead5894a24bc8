/* cudatranspose: dimension permutation of dense tensors up to rank 4
 * (ct_permute) on the GPU; ct_permute_cpu is in transpose-cpu.c.
 *
 * The host first simplifies the permutation: sizes of 1 are dropped, and
 * input dimensions that stay neighbours, in order, in the output are merged
 * (NCHW to NHWC is then a batch of C x HW transposes). What is left is one
 * of:
 *   - no permutation: one copy;
 *   - the innermost dimension stays: rows move whole (k_gather, on the
 *     widest word that divides a row);
 *   - the innermost dimension moves: a batch of 2-D transposes between it
 *     and the dimension that becomes innermost, with the other dimensions
 *     as the batch. A side of at most kChannels elements (channels) with
 *     the interleaved end dense takes k_pixels (2 to 4 channels: byte
 *     permutes in registers) or k_channels (more: through shared memory),
 *     both with 16-byte words on both global sides, where every address
 *     is aligned; where one is not, k_pixels_packed (2 to 4 channels of 1-
 *     or 2-byte elements) or k_channels_packed, which stage the input side
 *     in shared memory as it lies and write aligned 16-byte words; every
 *     other batch goes to the planner of the transpose kernels
 *     (ct_transpose_batches_ex under auto), which picks its path as it
 *     does for a frame: the thin path for a side under 16, a wide tile,
 *     or the exact tile.
 */
#include "cudatranspose-kernels.h"
#include "transpose-common.cuh"
#include "permute-shape.cuh"

#include <cuda_runtime.h>
#include <limits.h>
#include <new>
#include <stdint.h>
#include <string.h>

namespace {

using ct::Word;
using ct::kMaxGridY;
using ct::kThreads;
using ct::Shape;
using ct::simplify;
using ct::strides;

constexpr unsigned int kChannels = 16;   /* most channels k_channels takes */
constexpr unsigned int kChannelsSmem = 20 * 1024;  /* its shared memory */
constexpr unsigned int kPixelChannels = 4;  /* most channels k_pixels takes */
constexpr unsigned int kPackedSmem = 25 * 1024;  /* the packed kernels' */
/* the blocks under which the packed kernels take smaller segments: a wave
 * of 8 per multiprocessor on a GPU of 128 */
constexpr unsigned long long kPackedBlocks = 1024;

/* A batch of up to two dimensions over a plane: element offsets. */
struct Batch
{
  unsigned int n1, n2;
  unsigned long long src1, dst1, src2, dst2;
};

struct Gather
{
  const unsigned char *src;
  unsigned char *dst;
  int rank;
  unsigned long long d_out[4];  /* output sizes, innermost first */
  unsigned long long src_of[4]; /* input stride (words) of each output dim */
  unsigned long long total;
};

/// gather: the innermost dimension stays, so consecutive outputs are
/// consecutive inputs within a row. One word per thread in output order,
/// a grid-stride loop; reads and writes coalesced.
template <typename W>
__global__ void __launch_bounds__ (kThreads)
k_gather (const Gather g)
{
  const W *src = reinterpret_cast<const W *>(g.src);
  W *dst = reinterpret_cast<W *>(g.dst);

  for (unsigned long long o = blockIdx.x * (unsigned long long) kThreads +
      threadIdx.x; o < g.total; o += (unsigned long long) gridDim.x * kThreads) {
    unsigned long long rest = o, from = 0;
    for (int i = 0; i < g.rank; i++) {
      from += (rest % g.d_out[i]) * g.src_of[i];
      rest /= g.d_out[i];
    }
    dst[o] = src[from];
  }
}

/* A plane: element (x, y), x < width, y < height, is at y * src_stride + x
 * in the input and at x * dst_stride + y in the output (elements). */
struct Plane
{
  const unsigned char *src;
  unsigned char *dst;
  unsigned long long width, height, src_stride, dst_stride;
  Batch b;
  const unsigned char *src_end; /* one past the input's last byte */
};

template <typename T>
__device__ __forceinline__ void
batch_base (const Plane & p, unsigned int b1, unsigned int b2,
    const T ** src, T ** dst)
{
  *src = reinterpret_cast<const T *>(p.src) + b1 * p.b.src1 + b2 * p.b.src2;
  *dst = reinterpret_cast<T *>(p.dst) + b1 * p.b.dst1 + b2 * p.b.dst2;
}

/* A block's share of a plane with channels in the packed kernels: elements
 * l0 to l0 + n - 1 of the long side (of len) of every channel, the planar
 * rows planar elements apart; and batch (b1, b2) as bytes. */
struct Segment
{
  unsigned long long len, planar, l0;
  unsigned int n;

  __device__ Segment (const Plane & p, bool to_interleaved,
      unsigned int per_seg)
  {
    len = to_interleaved ? p.width : p.height;
    planar = to_interleaved ? p.src_stride : p.dst_stride;
    l0 = (unsigned long long) blockIdx.x * per_seg;
    n = len - l0 < per_seg ? (unsigned int) (len - l0) : per_seg;
  }

  template <typename T>
  __device__ static void batch (const Plane & p, unsigned int b1,
      unsigned int b2, const unsigned char **in, unsigned char **out)
  {
    const T *src;
    T *dst;

    batch_base<T> (p, b1, b2, &src, &dst);
    *in = reinterpret_cast<const unsigned char *>(src);
    *out = reinterpret_cast<unsigned char *>(dst);
  }
};

/// channels: one side of the plane is channels (at most kChannels), and
/// the long side is dense on the interleaved end (NCHW to NHWC, or back).
/// A block takes a segment of 2^seg_shift bytes of the long side of every
/// channel: it reads the planar rows or the interleaved run as 16-byte
/// words into shared memory (channel rows padded by 16 bytes, so that
/// neighbouring channels fall in different banks), then writes the other
/// layout as 16-byte words gathered from shared memory. Both global sides
/// move in whole 16-byte words (host: pointers, strides and batch offsets
/// aligned); the segment at the end goes element by element. Batch in
/// blockIdx.y and z.
/* Byte offset in k_channels' interleaved shared layout of element @e:
 * a pad after every @chans 16-byte words, 4 bytes (8 for 8-byte elements,
 * which must stay aligned). */
__host__ __device__ __forceinline__ unsigned int
group_gap (unsigned int es)
{
  return es == 8 ? 8 : 4;
}

__device__ __forceinline__ unsigned int
group_pad (unsigned int e, unsigned int chans, unsigned int es)
{
  return e * es + (e * es / 16 / chans) * group_gap (es);
}

template <int ES>
__global__ void __launch_bounds__ (kThreads)
k_channels (const Plane p, bool to_interleaved, unsigned int seg_shift)
{
  typedef typename Word<ES>::T T;
  constexpr unsigned int per_word = 16 / ES;
  extern __shared__ uint4 sm4[];
  unsigned char *sm = reinterpret_cast<unsigned char *>(sm4);
  const unsigned int seg = 1u << seg_shift, pitch = seg + 16;
  const unsigned int words = seg / 16, per_seg = seg / ES;
  const unsigned int chans = to_interleaved ? p.height : p.width;
  const unsigned long long len = to_interleaved ? p.width : p.height;
  const unsigned long long l0 = (unsigned long long) blockIdx.x * per_seg;
  const unsigned int n = len - l0 < per_seg ? (unsigned int) (len - l0) :
      per_seg;
  const bool full = n == per_seg;
  const T *src;
  T *dst;

  for (unsigned int b2 = blockIdx.z; b2 < p.b.n2; b2 += gridDim.z) {
    for (unsigned int b1 = blockIdx.y; b1 < p.b.n1; b1 += gridDim.y) {
      batch_base<T> (p, b1, b2, &src, &dst);
      __syncthreads ();
      if (to_interleaved) {
        /* planar rows c: src[c * src_stride + l] -> sm row c */
        if (full) {
          for (unsigned int k = threadIdx.x; k < chans * words; k += kThreads) {
            unsigned int c = k >> (seg_shift - 4), q = k & (words - 1);
            *reinterpret_cast<uint4 *>(sm + c * pitch + q * 16) =
                reinterpret_cast<const uint4 *>(src + c * p.src_stride +
                l0)[q];
          }
        } else {
          for (unsigned int k = threadIdx.x; k < chans * n; k += kThreads) {
            unsigned int c = k / n, i = k % n;
            reinterpret_cast<T *>(sm + c * pitch)[i] =
                src[c * p.src_stride + l0 + i];
          }
        }
        __syncthreads ();
        /* interleaved run dst[l * chans + c]: word k holds elements
         * k * per_word ...; walk (l, c) without dividing each time */
        T *out = dst + l0 * chans;
        const unsigned int total = chans * n;
        if (full) {
          for (unsigned int k = threadIdx.x; k < total / per_word;
              k += kThreads) {
            union
            {
              uint4 v;
              T t[per_word];
            } u;
            unsigned int e = k * per_word, l = e / chans, c = e - l * chans;
#pragma unroll
            for (unsigned int j = 0; j < per_word; j++) {
              u.t[j] = reinterpret_cast<const T *>(sm + c * pitch)[l];
              if (++c == chans) {
                c = 0;
                l++;
              }
            }
            reinterpret_cast<uint4 *>(out)[k] = u.v;
          }
        } else {
          for (unsigned int e = threadIdx.x; e < total; e += kThreads) {
            unsigned int l = e / chans;
            out[e] = reinterpret_cast<const T *>(sm + (e - l * chans) *
                pitch)[l];
          }
        }
      } else {
        /* interleaved run src[l * chans + c] -> sm: each group of
         * per_word pixels (chans words) followed by a gap, so that the
         * threads below, a group apart, read different banks */
        const T *in = src + l0 * chans;
        const unsigned int total = chans * n;
        if (full) {
          for (unsigned int k = threadIdx.x; k < total / per_word;
              k += kThreads) {
            uint4 v = reinterpret_cast<const uint4 *>(in)[k];
            uint32_t *at = reinterpret_cast<uint32_t *>(sm + k * 16 +
                (k / chans) * group_gap (ES));
            at[0] = v.x;
            at[1] = v.y;
            at[2] = v.z;
            at[3] = v.w;
          }
        } else {
          for (unsigned int e = threadIdx.x; e < total; e += kThreads)
            *reinterpret_cast<T *>(sm + group_pad (e, chans, ES)) = in[e];
        }
        __syncthreads ();
        /* planar rows c: dst[c * dst_stride + l]; word q of a row is
         * group q */
        if (full) {
          for (unsigned int k = threadIdx.x; k < chans * words; k += kThreads) {
            unsigned int c = k >> (seg_shift - 4), q = k & (words - 1);
            const unsigned char *g = sm + q * (chans * 16 + group_gap (ES));
            union
            {
              uint4 v;
              T t[per_word];
            } u;
#pragma unroll
            for (unsigned int j = 0; j < per_word; j++)
              u.t[j] = reinterpret_cast<const T *>(g)[j * chans + c];
            reinterpret_cast<uint4 *>(dst + c * p.dst_stride + l0)[q] = u.v;
          }
        } else {
          for (unsigned int k = threadIdx.x; k < total; k += kThreads) {
            unsigned int c = k / n, i = k % n;
            dst[c * p.dst_stride + l0 + i] = *reinterpret_cast<const T *>(sm +
                group_pad (i * chans + c, chans, ES));
          }
        }
      }
    }
  }
}

/* Regrouping a group of 16 / ES pixels of C channels (C 16-byte words on
 * either side): output byte B comes from input byte from (B). Planar side:
 * word c is channel c of the group's pixels; interleaved side: the group's
 * bytes in memory order. */
template <int ES, int C, bool TO_INTERLEAVED>
struct GroupMap
{
  __host__ __device__ static constexpr int from (int B)
  {
    return TO_INTERLEAVED ?
        ((B / ES) % C) * 16 + ((B / ES) / C) * ES + B % ES :
        (((B % 16) / ES) * C + B / 16) * ES + B % ES;
  }
};

/* The four words of @v at @a. */
__device__ __forceinline__ void
put_words (const uint4 & v, uint32_t * a)
{
  a[0] = v.x;
  a[1] = v.y;
  a[2] = v.z;
  a[3] = v.w;
}

/* o = the bytes of a regrouped by M, a byte permute per source word of
 * each output word (the indices are constants once unrolled). */
template <class M, int NW>
__device__ __forceinline__ void
regroup (const uint32_t (&a)[NW], uint32_t (&o)[NW])
{
#pragma unroll
  for (int w = 0; w < NW; w++) {
    uint32_t r = 0;
    bool started = false;
    int done = 0;
#pragma unroll
    for (int b = 0; b < 4; b++) {
      if (done & (1 << b))
        continue;
      /* every byte of word w from the source word of byte b, at once */
      const int from_word = M::from (4 * w + b) / 4;
      unsigned int sel = started ? 0x3210u : 0u;
#pragma unroll
      for (int k = b; k < 4; k++) {
        const int f = M::from (4 * w + k);
        if (!(done & (1 << k)) && f / 4 == from_word) {
          sel = (sel & ~(0xfu << (4 * k))) |
              ((unsigned int) ((started ? 4 : 0) + f % 4) << (4 * k));
          done |= 1 << k;
        }
      }
      r = started ? __byte_perm (r, a[from_word], sel) :
          __byte_perm (a[from_word], 0u, sel);
      started = true;
    }
    o[w] = r;
  }
}

/// pixels: k_channels' planes (channels_fit) with 2 to 4 channels, without
/// gathering single elements. A thread takes a group of 16 / ES pixels, C
/// 16-byte words on each side, and regroups its bytes in registers. The
/// planar rows are read or written directly (a warp covers 512 bytes of
/// each); the interleaved side goes through the warp's own staging area in
/// shared memory, so that the warp moves its 32 x C words to or from global
/// memory in order. The length is whole groups (host). Batch in blockIdx.y
/// and z.
template <int ES, int C, bool TO_INTERLEAVED>
__global__ void __launch_bounds__ (kThreads)
k_pixels (const Plane p)
{
  typedef typename Word<ES>::T T;
  constexpr unsigned int per_group = 16 / ES;
  __shared__ uint4 stage[kThreads * C];
  const unsigned long long planar = TO_INTERLEAVED ? p.src_stride :
      p.dst_stride;
  const unsigned long long groups = (TO_INTERLEAVED ? p.width : p.height) /
      per_group;
  const unsigned int lane = threadIdx.x % 32;
  const unsigned long long g = blockIdx.x * (unsigned long long) kThreads +
      threadIdx.x;
  const unsigned long long g0 = g - lane;       /* the warp's first group */
  uint4 *const warp_stage = stage + (threadIdx.x - lane) * C;
  const T *src;
  T *dst;

  for (unsigned int b2 = blockIdx.z; b2 < p.b.n2; b2 += gridDim.z) {
    for (unsigned int b1 = blockIdx.y; b1 < p.b.n1; b1 += gridDim.y) {
      batch_base<T> (p, b1, b2, &src, &dst);
      if (g0 < groups) {
        /* the warp's words on the interleaved side */
        const unsigned long long left = (groups - g0) * C;
        if (!TO_INTERLEAVED) {
          const uint4 *in = reinterpret_cast<const uint4 *>(src) + g0 * C;
#pragma unroll
          for (int j = 0; j < C; j++)
            if (j * 32 + lane < left)
              warp_stage[j * 32 + lane] = in[j * 32 + lane];
        }
        __syncwarp ();
        if (g < groups) {
          uint32_t a[4 * C], o[4 * C];
#pragma unroll
          for (int c = 0; c < C; c++) {
            uint4 v = TO_INTERLEAVED ?
                *reinterpret_cast<const uint4 *>(src + c * planar +
                g * per_group) : warp_stage[lane * C + c];
            a[4 * c] = v.x;
            a[4 * c + 1] = v.y;
            a[4 * c + 2] = v.z;
            a[4 * c + 3] = v.w;
          }
          regroup<GroupMap<ES, C, TO_INTERLEAVED>, 4 * C> (a, o);
#pragma unroll
          for (int c = 0; c < C; c++) {
            uint4 v = make_uint4 (o[4 * c], o[4 * c + 1], o[4 * c + 2],
                o[4 * c + 3]);
            if (TO_INTERLEAVED)
              warp_stage[lane * C + c] = v;
            else
              *reinterpret_cast<uint4 *>(dst + c * planar + g * per_group) =
                  v;
          }
        }
        __syncwarp ();
        if (TO_INTERLEAVED) {
          uint4 *out = reinterpret_cast<uint4 *>(dst) + g0 * C;
#pragma unroll
          for (int j = 0; j < C; j++)
            if (j * 32 + lane < left)
              out[j * 32 + lane] = warp_stage[j * 32 + lane];
        }
        __syncwarp ();
      }
    }
  }
}

/* Stages the 16-byte word of global memory at @from (aligned) at @to in
 * shared memory: whole where it lies inside [@lo, @hi) (the input), else
 * only its bytes inside, one by one, so that nothing outside the input is
 * read. */
__device__ __forceinline__ void
stage_word (unsigned char *to, const unsigned char *from,
    const unsigned char *lo, const unsigned char *hi)
{
  const uintptr_t f = (uintptr_t) from;

  if (f >= (uintptr_t) lo && f + 16 <= (uintptr_t) hi) {
    *reinterpret_cast<uint4 *>(to) = *reinterpret_cast<const uint4 *>(from);
    return;
  }
#pragma unroll
  for (int j = 0; j < 16; j++)
    if (f + j >= (uintptr_t) lo && f + j < (uintptr_t) hi)
      to[j] = from[j];
}

/* Stages @chans planar rows of @n ES-byte elements, row c at in + (c *
 * planar + l0) * ES, in shared memory at @sm + c * @pitch, each at its own
 * misalignment; row_at[c] is where its first byte landed. @pitch is the
 * segment's bytes plus 16. */
template <int ES>
__device__ __forceinline__ void
stage_rows (const Plane & p, const unsigned char *in, unsigned int chans,
    unsigned long long planar, unsigned long long l0, unsigned int n,
    unsigned char *sm, unsigned int pitch, unsigned int *row_at)
{
  const unsigned int row_words = pitch / 16;

  if (threadIdx.x < chans)
    row_at[threadIdx.x] = threadIdx.x * pitch + (unsigned int)
        ((uintptr_t) (in + (threadIdx.x * planar + l0) * ES) % 16);
  for (unsigned int k = threadIdx.x; k < chans * row_words; k += kThreads) {
    const unsigned int c = k / row_words, q = k - c * row_words;
    const unsigned char *g = in + (c * planar + l0) * ES;
    const unsigned int m = (unsigned int) ((uintptr_t) g % 16);
    if (q * 16 < m + n * ES)
      stage_word (sm + c * pitch + q * 16, g - m + q * 16, p.src, p.src_end);
  }
}

/* Stages the @bytes at @g in shared memory at @sm, at their misalignment,
 * which it returns. */
__device__ __forceinline__ unsigned int
stage_run (const Plane & p, const unsigned char *g, unsigned int bytes,
    unsigned char *sm)
{
  const unsigned int m = (unsigned int) ((uintptr_t) g % 16);

  for (unsigned int q = threadIdx.x; q < (m + bytes + 15) / 16; q += kThreads)
    stage_word (sm + q * 16, g - m + q * 16, p.src, p.src_end);
  return m;
}

/* The 16 bytes of shared memory at @at, any alignment: the aligned words
 * that hold them, shifted into place. The word after @at's must lie in
 * the buffer where @at is not aligned. */
__device__ __forceinline__ uint4
window16 (const unsigned char *at)
{
  const unsigned int s = (unsigned int) ((uintptr_t) at % 16);
  const uint4 *w = reinterpret_cast<const uint4 *>(at - s);
  const uint4 x = w[0];

  if (s == 0)
    return x;
  const uint4 y = w[1];
  const unsigned int sh = 8 * (s % 4);
  uint32_t v0, v1, v2, v3, v4;
  switch (s / 4) {
    case 0:
      v0 = x.x, v1 = x.y, v2 = x.z, v3 = x.w, v4 = y.x;
      break;
    case 1:
      v0 = x.y, v1 = x.z, v2 = x.w, v3 = y.x, v4 = y.y;
      break;
    case 2:
      v0 = x.z, v1 = x.w, v2 = y.x, v3 = y.y, v4 = y.z;
      break;
    default:
      v0 = x.w, v1 = y.x, v2 = y.y, v3 = y.z, v4 = y.w;
      break;
  }
  return make_uint4 (__funnelshift_r (v0, v1, sh), __funnelshift_r (v1, v2,
          sh), __funnelshift_r (v2, v3, sh), __funnelshift_r (v3, v4, sh));
}

/// channels, packed: has_channels' planes whose rows, strides or pointers
/// are not whole 16-byte words (NCHW <-> NHWC of any height and width).
/// A block takes a segment of 2^seg_shift bytes of the long side of every
/// channel, as k_channels does. It stages the input side (the planar rows,
/// or the interleaved run) in shared memory at its own misalignment (byte
/// i of a run that starts m bytes past a 16-byte boundary at shared byte
/// m + i), reading aligned 16-byte words; each thread then builds an
/// aligned 16-byte word of the output side from the staged elements and
/// stores it whole. Only the words at the ends of an output run, which it
/// shares with its neighbours, go element by element. Batch in blockIdx.y
/// and z. At 7 blocks per multiprocessor the 4-byte kernel keeps its
/// registers (it spilled 8 bytes at ptxas's own choice, and ran 1 to 3%
/// slower on an H100).
template <int ES>
__global__ void __launch_bounds__ (kThreads, ct::min_blocks (7, kThreads))
k_channels_packed (const Plane p, bool to_interleaved, unsigned int seg_shift)
{
  typedef typename Word<ES>::T T;
  constexpr unsigned int per_word = 16 / ES;
  extern __shared__ uint4 sm4[];
  __shared__ unsigned int row_at[kChannels];
  unsigned char *sm = reinterpret_cast<unsigned char *>(sm4);
  const unsigned int seg = 1u << seg_shift, pitch = seg + 16;
  const unsigned int row_words = pitch / 16, per_seg = seg / ES;
  const unsigned int chans = to_interleaved ? p.height : p.width;
  const Segment sg (p, to_interleaved, per_seg);
  const unsigned long long planar = sg.planar, l0 = sg.l0;
  const unsigned int n = sg.n;
  /* the interleaved run's bytes */
  const unsigned int run = n * chans * ES;

  for (unsigned int b2 = blockIdx.z; b2 < p.b.n2; b2 += gridDim.z) {
    for (unsigned int b1 = blockIdx.y; b1 < p.b.n1; b1 += gridDim.y) {
      const unsigned char *in;
      unsigned char *out;
      Segment::batch<T> (p, b1, b2, &in, &out);
      __syncthreads ();
      if (to_interleaved) {
        stage_rows<ES> (p, in, chans, planar, l0, n, sm, pitch, row_at);
        __syncthreads ();
        /* the interleaved run, run bytes at g: element e is pixel e /
         * chans of channel e % chans */
        unsigned char *g = out + l0 * chans * ES;
        const unsigned int m = (unsigned int) ((uintptr_t) g % 16);
        for (unsigned int q = threadIdx.x; q < (m + run + 15) / 16;
            q += kThreads) {
          unsigned char *w = g - m + q * 16;
          if (q * 16 >= m && q * 16 + 16 <= m + run) {
            union
            {
              uint4 v;
              T t[per_word];
            } u;
            unsigned int e = (q * 16 - m) / ES, l = e / chans,
                c = e - l * chans;
#pragma unroll
            for (unsigned int j = 0; j < per_word; j++) {
              u.t[j] = *reinterpret_cast<const T *>(sm + row_at[c] + l * ES);
              if (++c == chans) {
                c = 0;
                l++;
              }
            }
            *reinterpret_cast<uint4 *>(w) = u.v;
          } else {
            /* an end word: only the run's elements in it */
#pragma unroll
            for (unsigned int j = 0; j < per_word; j++) {
              const int o = (int) (q * 16 + j * ES) - (int) m;
              if (o >= 0 && o < (int) run) {
                const unsigned int e = o / ES, l = e / chans;
                *reinterpret_cast<T *>(g + o) = *reinterpret_cast<const T *>
                    (sm + row_at[e - l * chans] + l * ES);
              }
            }
          }
        }
      } else {
        /* the interleaved run, to shared memory at its misalignment m */
        const unsigned int m = stage_run (p, in + l0 * chans * ES, run, sm);
        __syncthreads ();
        /* planar row c, n elements at out + (c * planar + l0) * ES: word
         * q of it, element l from shared byte m + (l * chans + c) * ES */
        for (unsigned int k = threadIdx.x; k < chans * row_words;
            k += kThreads) {
          const unsigned int c = k / row_words, q = k - c * row_words;
          unsigned char *r = out + (c * planar + l0) * ES;
          const unsigned int mr = (unsigned int) ((uintptr_t) r % 16);
          const unsigned char *from = sm + m + c * ES;
          if (q * 16 >= mr && q * 16 + 16 <= mr + n * ES) {
            union
            {
              uint4 v;
              T t[per_word];
            } u;
            const unsigned int l = (q * 16 - mr) / ES;
#pragma unroll
            for (unsigned int j = 0; j < per_word; j++)
              u.t[j] = *reinterpret_cast<const T *>(from + (l + j) * chans *
                  ES);
            *reinterpret_cast<uint4 *>(r - mr + q * 16) = u.v;
          } else if (q * 16 < mr + n * ES) {
#pragma unroll
            for (unsigned int j = 0; j < per_word; j++) {
              const int o = (int) (q * 16 + j * ES) - (int) mr;
              if (o >= 0 && o < (int) (n * ES))
                *reinterpret_cast<T *>(r + o) = *reinterpret_cast<const T *>
                    (from + (o / ES) * chans * ES);
            }
          }
        }
      }
    }
  }
}

/// pixels, packed: k_channels_packed's planes with 2 to 4 channels of 1-
/// or 2-byte elements, where gathering elements one at a time from shared
/// memory is what bounds k_channels_packed. The input side is staged as
/// there; then each thread reads a group of 16 / ES pixels (C 16-byte
/// windows of the staged side, shifted into place from aligned words),
/// regroups them in registers as k_pixels does and writes the C words to
/// a second buffer, aligned; the output side goes out as aligned 16-byte
/// words shifted out of that buffer, the end words of each run element by
/// element. Batch in blockIdx.y and z.
template <int ES, int C, bool TO_INTERLEAVED>
__global__ void __launch_bounds__ (kThreads)
k_pixels_packed (const Plane p, unsigned int seg_shift)
{
  typedef typename Word<ES>::T T;
  constexpr unsigned int per_group = 16 / ES;
  extern __shared__ uint4 sm4[];
  __shared__ unsigned int row_at[C];
  const unsigned int seg = 1u << seg_shift, pitch = seg + 16;
  const unsigned int per_seg = seg / ES;
  /* the staged input side, then the output side built aligned: row c at c
   * * pitch, or the interleaved run from 0 */
  unsigned char *const staged = reinterpret_cast<unsigned char *>(sm4);
  unsigned char *const built = staged + C * pitch + 32;
  const Segment sg (p, TO_INTERLEAVED, per_seg);
  const unsigned long long planar = sg.planar, l0 = sg.l0;
  const unsigned int n = sg.n;
  const unsigned int groups = (n + per_group - 1) / per_group;
  const unsigned int run = n * C * ES, row = n * ES;

  for (unsigned int b2 = blockIdx.z; b2 < p.b.n2; b2 += gridDim.z) {
    for (unsigned int b1 = blockIdx.y; b1 < p.b.n1; b1 += gridDim.y) {
      const unsigned char *in;
      unsigned char *out;
      unsigned int m = 0;
      Segment::batch<T> (p, b1, b2, &in, &out);
      __syncthreads ();
      if (TO_INTERLEAVED)
        stage_rows<ES> (p, in, C, planar, l0, n, staged, pitch, row_at);
      else
        m = stage_run (p, in + l0 * C * ES, run, staged);
      __syncthreads ();
      /* group g: pixels g * per_group ..., past n in the last group what
       * the windows held (never stored) */
      for (unsigned int g = threadIdx.x; g < groups; g += kThreads) {
        uint32_t a[4 * C], o[4 * C];
#pragma unroll
        for (int c = 0; c < C; c++)
          put_words (window16 (staged + (TO_INTERLEAVED ? row_at[c] + g * 16 :
                      m + (g * C + c) * 16)), &a[4 * c]);
        regroup<GroupMap<ES, C, TO_INTERLEAVED>, 4 * C> (a, o);
#pragma unroll
        for (int c = 0; c < C; c++)
          *reinterpret_cast<uint4 *>(built + (TO_INTERLEAVED ?
                  (g * C + c) * 16 : c * pitch + g * 16)) =
              make_uint4 (o[4 * c], o[4 * c + 1], o[4 * c + 2], o[4 * c + 3]);
      }
      __syncthreads ();
      /* the output runs: the interleaved one (one run of run bytes), or
       * planar row c (row bytes); word q of a run starting mo bytes past
       * a 16-byte boundary holds its bytes 16 q - mo ... */
      const unsigned int runs = TO_INTERLEAVED ? 1 : C;
      const unsigned int bytes = TO_INTERLEAVED ? run : row;
      const unsigned int words = pitch / 16 * (TO_INTERLEAVED ? C : 1);
      for (unsigned int k = threadIdx.x; k < runs * words; k += kThreads) {
        const unsigned int c = TO_INTERLEAVED ? 0 : k / words;
        const unsigned int q = k - c * words;
        unsigned char *r = TO_INTERLEAVED ? out + l0 * C * ES :
            out + (c * planar + l0) * ES;
        const unsigned char *from = built + c * pitch;
        const unsigned int mo = (unsigned int) ((uintptr_t) r % 16);
        if (q * 16 >= mo && q * 16 + 16 <= mo + bytes) {
          *reinterpret_cast<uint4 *>(r - mo + q * 16) =
              window16 (from + q * 16 - mo);
        } else if (q * 16 < mo + bytes) {
#pragma unroll
          for (unsigned int j = 0; j < per_group; j++) {
            const int o = (int) (q * 16 + j * ES) - (int) mo;
            if (o >= 0 && o < (int) bytes)
              *reinterpret_cast<T *>(r + o) =
                  *reinterpret_cast<const T *>(from + o);
          }
        }
      }
    }
  }
}

/* Whether the plane has channels: at most kChannels on one side, the
 * interleaved end dense; which way they go in *@to_interleaved. */
bool
has_channels (const Plane & p, bool * to_interleaved)
{
  if (p.height <= kChannels && p.dst_stride == p.height)
    *to_interleaved = true;
  else if (p.width <= kChannels && p.src_stride == p.width)
    *to_interleaved = false;
  else
    return false;
  return true;
}

/* Whether k_channels can take the plane: channels on one side, the
 * interleaved end dense, and every address a multiple of 16 bytes. */
bool
channels_fit (const Plane & p, unsigned int es, bool * to_interleaved)
{
  unsigned long long a = 16 / es;       /* elements in 16 bytes */

  if (!has_channels (p, to_interleaved))
    return false;
  /* the planar rows' stride; the interleaved end is dense, and segments
   * start at multiples of 16 bytes of each channel */
  return (uintptr_t) p.src % 16 == 0 && (uintptr_t) p.dst % 16 == 0 &&
      (*to_interleaved ? p.src_stride : p.dst_stride) % a == 0 &&
      p.b.src1 % a == 0 && p.b.dst1 % a == 0 && p.b.src2 % a == 0 &&
      p.b.dst2 % a == 0;
}

/* Whether k_pixels can take the plane: as k_channels, at most
 * kPixelChannels channels and a length of whole 16-byte groups (which
 * ct_permute's planes have whenever channels_fit: a batch dimension's
 * offset, or the planar stride, is the length). */
bool
pixels_fit (const Plane & p, unsigned int es, bool * to_interleaved)
{
  return channels_fit (p, es, to_interleaved) &&
      (*to_interleaved ? p.height : p.width) <= kPixelChannels &&
      (*to_interleaved ? p.width : p.height) % (16 / es) == 0;
}

/* The segment per channel: 2 KB, halved until the block's channels fit
 * kChannelsSmem. */
unsigned int
channels_smem (unsigned int chans, unsigned int shift)
{
  /* padded rows (planar side), or padded groups (interleaved) */
  return chans * ((1u << shift) + 16) + (1u << shift) / 2 + 16;
}

unsigned int
channels_shift (unsigned int chans)
{
  unsigned int shift = 11;

  while (shift > 8 && channels_smem (chans, shift) > kChannelsSmem)
    shift--;
  return shift;
}

template <int ES, int C>
void
launch_pixels (const Plane & p, bool to_interleaved, dim3 grid,
    cudaStream_t s)
{
  if (to_interleaved)
    k_pixels<ES, C, true> <<<grid, kThreads, 0, s>>> (p);
  else
    k_pixels<ES, C, false> <<<grid, kThreads, 0, s>>> (p);
}

/* k_pixels or k_channels on a plane that pixels_fit or channels_fit. */
template <typename T>
CtResult
launch_channels (const Plane & p, cudaStream_t s, CtPath * ran)
{
  const unsigned int gy = p.b.n1 < kMaxGridY ? p.b.n1 : kMaxGridY;
  const unsigned int gz = p.b.n2 < kMaxGridY ? p.b.n2 : kMaxGridY;
  bool inter = false;
  const bool pixels = pixels_fit (p, sizeof (T), &inter);
  const unsigned int chans = (unsigned int) (inter ? p.height : p.width);
  const unsigned long long len = inter ? p.width : p.height;

  if (pixels) {
    unsigned long long groups = len / (16 / sizeof (T));
    dim3 grid ((unsigned int) ((groups + kThreads - 1) / kThreads), gy, gz);
    switch (chans) {
      case 2:
        launch_pixels<sizeof (T), 2> (p, inter, grid, s);
        break;
      case 3:
        launch_pixels<sizeof (T), 3> (p, inter, grid, s);
        break;
      default:
        launch_pixels<sizeof (T), 4> (p, inter, grid, s);
        break;
    }
    *ran = CT_PATH_PIXELS;
  } else {
    unsigned int shift = channels_shift (chans);
    unsigned long long per = (1u << shift) / sizeof (T);
    dim3 grid ((unsigned int) ((len + per - 1) / per), gy, gz);
    k_channels<sizeof (T)> <<<grid, kThreads, channels_smem (chans, shift),
        s>>> (p, inter, shift);
    *ran = CT_PATH_CHANNELS;
  }
  return (CtResult) cudaGetLastError ();
}

/* The segment per channel of the packed kernels: 4 KB, halved until the
 * block's shared memory fits kPackedSmem. */
unsigned int
packed_smem (unsigned int chans, unsigned int shift)
{
  return chans * ((1u << shift) + 16);
}

/* k_pixels_packed's shared memory: the staged side and the built one. */
unsigned int
pixels_packed_smem (unsigned int chans, unsigned int shift)
{
  return 2 * packed_smem (chans, shift) + 32;
}

template <int ES, int C>
void
launch_pixels_packed (const Plane & p, bool inter, dim3 grid,
    unsigned int shift, cudaStream_t s)
{
  if (inter)
    k_pixels_packed<ES, C, true> <<<grid, kThreads,
        pixels_packed_smem (C, shift), s>>> (p, shift);
  else
    k_pixels_packed<ES, C, false> <<<grid, kThreads,
        pixels_packed_smem (C, shift), s>>> (p, shift);
}

/* k_pixels_packed (2 to 4 channels of 1- or 2-byte elements) or
 * k_channels_packed on a plane that has_channels, its long side at least
 * 16 elements. */
template <int ES>
CtResult
launch_packed (const Plane & p, bool inter, cudaStream_t s, CtPath * ran)
{
  const unsigned int gy = p.b.n1 < kMaxGridY ? p.b.n1 : kMaxGridY;
  const unsigned int gz = p.b.n2 < kMaxGridY ? p.b.n2 : kMaxGridY;
  const unsigned int chans = (unsigned int) (inter ? p.height : p.width);
  const unsigned long long len = inter ? p.width : p.height;
  const bool pixels = ES <= 2 && chans <= kPixelChannels;
  const unsigned long long batches = (unsigned long long) p.b.n1 * p.b.n2;
  unsigned int shift = 12;

  /* small jobs: smaller segments, so that the blocks fill the GPU */
  while (shift > 8 && ((pixels ? pixels_packed_smem (chans, shift) :
              packed_smem (chans, shift)) > kPackedSmem ||
          ct::div_up (len, (1u << shift) / ES) * batches < kPackedBlocks))
    shift--;
  dim3 grid ((unsigned int) ct::div_up (len, (1u << shift) / ES), gy, gz);
  if constexpr (ES <= 2) {
    if (pixels) {
      if (chans == 2)
        launch_pixels_packed<ES, 2> (p, inter, grid, shift, s);
      else if (chans == 3)
        launch_pixels_packed<ES, 3> (p, inter, grid, shift, s);
      else
        launch_pixels_packed<ES, 4> (p, inter, grid, shift, s);
      *ran = CT_PATH_CHANNELS_PACKED;
      return (CtResult) cudaGetLastError ();
    }
  }
  k_channels_packed<ES> <<<grid, kThreads, packed_smem (chans, shift), s>>>
      (p, inter, shift);
  *ran = CT_PATH_CHANNELS_PACKED;
  return (CtResult) cudaGetLastError ();
}

template <typename W>
CtResult
launch_gather (const Gather & g, cudaStream_t s, CtPath * ran)
{
  unsigned long long blocks = (g.total + kThreads - 1) / kThreads;
  unsigned int grid = blocks < (1u << 20) ? (unsigned int) blocks : 1u << 20;

  k_gather<W> <<<grid, kThreads, 0, s>>> (g);
  *ran = CT_PATH_GATHER;
  return (CtResult) cudaGetLastError ();
}

bool
aligned (const void *a, const void *b, unsigned long long bytes, unsigned w)
{
  return ((uintptr_t) a % w) == 0 && ((uintptr_t) b % w) == 0 &&
      bytes % w == 0;
}

/* The innermost dimension stays: rows of d[0] elements move whole, as the
 * widest word that divides them. */
CtResult
permute_rows (const Shape & s, const void *src, void *dst, unsigned int es,
    cudaStream_t st, CtPath * ran)
{
  unsigned long long in[4], out[4];
  const unsigned long long row = s.d[0] * es;
  unsigned int w = 16;
  Gather g;

  while (w > 1 && !aligned (src, dst, row, w))
    w /= 2;
  strides (s, in, out);
  g.src = static_cast<const unsigned char *>(src);
  g.dst = static_cast<unsigned char *>(dst);
  g.rank = s.rank;
  g.total = 1;
  for (int i = 0; i < s.rank; i++) {
    /* in words: the row shrinks, every other stride scales */
    g.d_out[i] = i == 0 ? row / w : s.d[s.p[i]];
    g.src_of[i] = i == 0 ? 1 : in[s.p[i]] * es / w;
    g.total *= g.d_out[i];
  }
  switch (w) {
    case 16:
      return launch_gather<uint4> (g, st, ran);
    case 8:
      return launch_gather<unsigned long long> (g, st, ran);
    case 4:
      return launch_gather<unsigned int> (g, st, ran);
    case 2:
      return launch_gather<unsigned short> (g, st, ran);
    default:
      return launch_gather<unsigned char> (g, st, ran);
  }
}

/* Planes without channels: the planner's (ct_transpose_batches_ex under
 * auto), which takes one batch level. The larger batch dimension is each
 * batch's count and the smaller one the batches, so that a launch (up to
 * CT_PLANES_PER_LAUNCH batches) holds as many planes as it can. */
CtResult
plan_planes (const Plane & p, unsigned int es, cudaStream_t st, CtPath * ran)
{
  constexpr unsigned int kOnStack = CT_PLANES_PER_LAUNCH;
  const bool swap = p.b.n2 > p.b.n1;
  const unsigned int count = swap ? p.b.n2 : p.b.n1;
  const unsigned int n = swap ? p.b.n1 : p.b.n2;
  const unsigned long long in_step = swap ? p.b.src2 : p.b.src1;
  const unsigned long long out_step = swap ? p.b.dst2 : p.b.dst1;
  const unsigned long long in_outer = swap ? p.b.src1 : p.b.src2;
  const unsigned long long out_outer = swap ? p.b.dst1 : p.b.dst2;
  CtPlaneBatch on_stack[kOnStack] = { };
  CtPlaneBatch *batches = on_stack;
  CtResult res;

  if (n > kOnStack) {
    batches = new (std::nothrow) CtPlaneBatch[n];
    if (batches == nullptr)
      return (CtResult) cudaErrorMemoryAllocation;
  }
  for (unsigned int k = 0; k < n; k++) {
    CtPlaneBatch & b = batches[k];
    b.plane.src = p.src + k * in_outer * es;
    b.plane.dst = p.dst + k * out_outer * es;
    b.plane.src_stride = p.src_stride * es;
    b.plane.dst_stride = p.dst_stride * es;
    b.plane.width = (unsigned int) p.width;
    b.plane.height = (unsigned int) p.height;
    b.plane.elem_size = es;
    b.count = count;
    b.src_step = in_step * es;
    b.dst_step = out_step * es;
  }
  res = ct_transpose_batches_ex (batches, n, CT_KERNEL_AUTO, CT_PATH_NONE,
      CT_MAPPING_TRANSPOSE, (CtStream) st, ran);
  if (batches != on_stack)
    delete[] batches;
  return res;
}

/* The innermost dimension moves: a batch of transposes between input dim 0
 * and input dim a = p[0]. */
CtResult
permute_planes (const Shape & s, const void *src, void *dst, unsigned int es,
    cudaStream_t st, CtPath * ran)
{
  unsigned long long in[4], out[4];
  int a = s.p[0], other[2] = { -1, -1 }, n = 0;
  Plane p;

  strides (s, in, out);
  for (int k = 1; k < s.rank; k++)
    if (k != a)
      other[n++] = k;
  p.src = static_cast<const unsigned char *>(src);
  p.dst = static_cast<unsigned char *>(dst);
  p.width = s.d[0];
  p.height = s.d[a];
  p.src_stride = in[a];
  p.dst_stride = out[0];
  p.b.n1 = other[0] >= 0 ? (unsigned int) s.d[other[0]] : 1;
  p.b.src1 = other[0] >= 0 ? in[other[0]] : 0;
  p.b.dst1 = other[0] >= 0 ? out[other[0]] : 0;
  p.b.n2 = other[1] >= 0 ? (unsigned int) s.d[other[1]] : 1;
  p.b.src2 = other[1] >= 0 ? in[other[1]] : 0;
  p.b.dst2 = other[1] >= 0 ? out[other[1]] : 0;
  unsigned long long elements = 1;
  for (int k = 0; k < s.rank; k++)
    elements *= s.d[k];
  p.src_end = p.src + elements * es;

  bool inter;
  if (channels_fit (p, es, &inter)) {
    switch (es) {
      case 1:
        return launch_channels<Word<1>::T> (p, st, ran);
      case 2:
        return launch_channels<Word<2>::T> (p, st, ran);
      case 4:
        return launch_channels<Word<4>::T> (p, st, ran);
      default:
        return launch_channels<Word<8>::T> (p, st, ran);
    }
  }
  /* misaligned channels, but not a thin plane (both sides short) */
  if (has_channels (p, &inter) && (inter ? p.width : p.height) >= 16) {
    switch (es) {
      case 1:
        return launch_packed<1> (p, inter, st, ran);
      case 2:
        return launch_packed<2> (p, inter, st, ran);
      case 4:
        return launch_packed<4> (p, inter, st, ran);
      default:
        return launch_packed<8> (p, inter, st, ran);
    }
  }
  return plan_planes (p, es, st, ran);
}

}  // namespace

extern "C" CtResult
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

extern "C" CtResult
ct_permute (const void *src, void *dst, const unsigned long long dims[4],
    unsigned int elem_size, const unsigned int perm[4], CtStream stream)
{
  return ct_permute_ex (src, dst, dims, elem_size, perm, stream, NULL);
}

extern "C" CtResult
ct_permute_ex (const void *src, void *dst, const unsigned long long dims[4],
    unsigned int elem_size, const unsigned int perm[4], CtStream stream,
    CtPath * ran)
{
  CtPath path = CT_PATH_NONE;
  CtResult res = ct_permute_validate (dims, elem_size, perm);
  cudaStream_t st = (cudaStream_t) stream;

  if (res != CT_OK)
    return res;
  /* the element kernels read and write whole elements: a pointer off
   * their alignment would fault the context */
  if (!src || !dst || (uintptr_t) src % elem_size != 0 ||
      (uintptr_t) dst % elem_size != 0)
    return CT_ERROR_INVALID_ARGUMENT;

  Shape s = simplify (dims, perm);
  bool identity = true;
  for (int k = 0; k < s.rank; k++)
    if (s.d[k] > 0xffffffffull)
      return CT_ERROR_INVALID_ARGUMENT;   /* merged past 32-bit indices */
  for (int i = 0; i < s.rank; i++)
    identity = identity && s.p[i] == i;
  /* the sides of a 2-D transpose are the planner's, under 2^31 */
  if (s.rank > 1 && s.p[0] != 0 &&
      (s.d[0] > INT_MAX || s.d[s.p[0]] > INT_MAX))
    return CT_ERROR_INVALID_ARGUMENT;
  if (identity) {
    unsigned long long bytes = elem_size;
    for (int k = 0; k < 4; k++)
      bytes *= dims[k];
    path = CT_PATH_COPY;
    res = (CtResult) cudaMemcpyAsync (dst, src, bytes,
        cudaMemcpyDeviceToDevice, st);
  } else if (s.p[0] == 0) {
    res = permute_rows (s, src, dst, elem_size, st, &path);
  } else {
    res = permute_planes (s, src, dst, elem_size, st, &path);
  }
  if (res == CT_OK && ran != NULL)
    *ran = path;
  return res;
}
