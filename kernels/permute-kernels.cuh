/* cudatranspose: the device code of the permutations (permute.cu, which
 * includes it once): the launch arguments (Gather, Plane) and the kernels
 * k_gather, k_channels, k_pixels, k_channels_packed and k_pixels_packed.
 * permute.cu's opening comment says which takes what, and plan-permute.c
 * chooses. */
#pragma once

#include "cudatranspose-kernels.h"
#include "plan.h"
#include "transpose-common.cuh"

#include <cuda_runtime.h>
#include <stdint.h>

namespace {

using ct::Word;
using ct::shift_down16;
using ct::kMaxGridY;
using ct::kThreads;

/* most channels k_channels takes (the planner's, plan.h) */
constexpr unsigned int kChannels = CT_PERMUTE_CHANNELS;

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

/* Regrouping a group of GB / ES pixels of C channels (C words of GB bytes,
 * 16 or 4, on either side): output byte B comes from input byte from (B).
 * Planar side: word c is channel c of the group's pixels; interleaved
 * side: the group's bytes in memory order. */
template <int ES, int C, bool TO_INTERLEAVED, int GB = 16>
struct GroupMap
{
  __host__ __device__ static constexpr int from (int B)
  {
    return TO_INTERLEAVED ?
        ((B / ES) % C) * GB + ((B / ES) / C) * ES + B % ES :
        (((B % GB) / ES) * C + B / GB) * ES + B % ES;
  }
};

/* k_pixels' group word of GB bytes: 16 (uint4) or 4 (a 32-bit word). */
template <int GB> struct GroupWord
{
  typedef uint4 T;
};

template <> struct GroupWord<4>
{
  typedef uint32_t T;
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

/* The one word of @v at @a. */
__device__ __forceinline__ void
put_words (uint32_t v, uint32_t * a)
{
  a[0] = v;
}

/* The group word of the words at @o. */
__device__ __forceinline__ void
join_words (const uint32_t * o, uint4 * v)
{
  *v = make_uint4 (o[0], o[1], o[2], o[3]);
}

__device__ __forceinline__ void
join_words (const uint32_t * o, uint32_t * v)
{
  *v = o[0];
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
/// gathering single elements. A thread takes a group of GB / ES pixels, C
/// words of GB bytes on each side, and regroups its bytes in registers.
/// The planar rows are read or written directly (a warp covers 32 GB bytes
/// of each); the interleaved side goes through the warp's own staging area
/// in shared memory, so that the warp moves its 32 x C words to or from
/// global memory in order. GB is 16, or 4 for 1- and 2-byte elements whose
/// addresses are whole 4-byte words but not 16-byte ones (a planar length
/// such as 375 x 500). The length is whole groups (host). Batch in
/// blockIdx.y and z.
template <int ES, int C, bool TO_INTERLEAVED, int GB = 16>
__global__ void __launch_bounds__ (kThreads)
k_pixels (const Plane p)
{
  typedef typename Word<ES>::T T;
  typedef typename GroupWord<GB>::T V;
  constexpr unsigned int per_group = GB / ES;
  constexpr int NW = GB / 4;    /* 32-bit words of a group word */
  __shared__ V stage[kThreads * C];
  const unsigned long long planar = TO_INTERLEAVED ? p.src_stride :
      p.dst_stride;
  const unsigned long long groups = (TO_INTERLEAVED ? p.width : p.height) /
      per_group;
  const unsigned int lane = threadIdx.x % 32;
  const unsigned long long g = blockIdx.x * (unsigned long long) kThreads +
      threadIdx.x;
  const unsigned long long g0 = g - lane;       /* the warp's first group */
  V *const warp_stage = stage + (threadIdx.x - lane) * C;
  const T *src;
  T *dst;

  for (unsigned int b2 = blockIdx.z; b2 < p.b.n2; b2 += gridDim.z) {
    for (unsigned int b1 = blockIdx.y; b1 < p.b.n1; b1 += gridDim.y) {
      batch_base<T> (p, b1, b2, &src, &dst);
      if (g0 < groups) {
        /* the warp's words on the interleaved side */
        const unsigned long long left = (groups - g0) * C;
        if (!TO_INTERLEAVED) {
          const V *in = reinterpret_cast<const V *>(src) + g0 * C;
#pragma unroll
          for (int j = 0; j < C; j++)
            if (j * 32 + lane < left)
              warp_stage[j * 32 + lane] = in[j * 32 + lane];
        }
        __syncwarp ();
        if (g < groups) {
          uint32_t a[NW * C], o[NW * C];
#pragma unroll
          for (int c = 0; c < C; c++) {
            const V v = TO_INTERLEAVED ?
                *reinterpret_cast<const V *>(src + c * planar +
                g * per_group) : warp_stage[lane * C + c];
            put_words (v, a + NW * c);
          }
          regroup<GroupMap<ES, C, TO_INTERLEAVED, GB>, NW * C> (a, o);
#pragma unroll
          for (int c = 0; c < C; c++) {
            V v;
            join_words (o + NW * c, &v);
            if (TO_INTERLEAVED)
              warp_stage[lane * C + c] = v;
            else
              *reinterpret_cast<V *>(dst + c * planar + g * per_group) = v;
          }
        }
        __syncwarp ();
        if (TO_INTERLEAVED) {
          V *out = reinterpret_cast<V *>(dst) + g0 * C;
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
  return shift_down16 (x, w[1], s);
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
/// registers (it spilled 8 bytes at ptxas's own choice, and ran slower;
/// measured: docs/kernels.md,
/// "7 blocks a multiprocessor for packed channels").
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

}  // namespace
