/* cudatranspose: the thread-level pieces of the wide tiles (wide-tiles.cuh):
 * a thread's chunk of a row, loaded from and stored to global memory whole
 * or element by element at a ragged edge (load_chunk, store_chunk), copied
 * to shared memory (stage_chunk), and the register transpose of a
 * micro-block of V x V elements held as V chunks (transpose_block: byte
 * permutes for bytes and halves, renaming for wider elements). No shared
 * memory layout and no block geometry here: those are the tiles'. */
#ifndef CT_WIDE_THREAD_CUH
#define CT_WIDE_THREAD_CUH

#include "transpose-common.cuh"

#include <cuda_pipeline_primitives.h>
#include <cuda_runtime.h>

#include <stddef.h>
#include <stdint.h>

namespace ct_wide {

using ct::PlaneArgs;
__device__ __forceinline__ uint32_t
put_byte (uint32_t w, int pos, uint32_t b)
{
  return (w & ~(0xffu << (8 * pos))) | ((b & 0xffu) << (8 * pos));
}

/* Element @e of a chunk from/to memory (the ragged-edge path; @e is a
 * constant after unrolling, so the words stay in registers). */
template <int E, int NW>
__device__ __forceinline__ void
load_element (uint32_t (&w)[NW], int e, const unsigned char *at)
{
  if constexpr (E == 8) {
    uint2 v = *reinterpret_cast<const uint2 *>(at);
    w[2 * e] = v.x;
    w[2 * e + 1] = v.y;
  } else if constexpr (E == 4) {
    w[e] = *reinterpret_cast<const uint32_t *>(at);
  } else if constexpr (E == 2) {
    uint32_t v = *reinterpret_cast<const unsigned short *>(at);
    int s = (e & 1) * 16;
    w[e / 2] = (w[e / 2] & ~(0xffffu << s)) | (v << s);
  } else {
#pragma unroll
    for (int b = 0; b < E; b++) {
      int pos = e * E + b;
      w[pos / 4] = put_byte (w[pos / 4], pos % 4, at[b]);
    }
  }
}

template <int E, int NW>
__device__ __forceinline__ void
store_element (const uint32_t (&w)[NW], int e, unsigned char *at)
{
  if constexpr (E == 8) {
    *reinterpret_cast<uint2 *>(at) = make_uint2 (w[2 * e], w[2 * e + 1]);
  } else if constexpr (E == 4) {
    *reinterpret_cast<uint32_t *>(at) = w[e];
  } else if constexpr (E == 2) {
    *reinterpret_cast<unsigned short *>(at) =
        (unsigned short) (w[e / 2] >> ((e & 1) * 16));
  } else {
#pragma unroll
    for (int b = 0; b < E; b++) {
      int pos = e * E + b;
      at[b] = (unsigned char) (w[pos / 4] >> (8 * (pos % 4)));
    }
  }
}

/* The chunk of source row @y starting at element @x: one 16-byte load (three
 * words for 3-byte elements) when all of it is inside the plane, else the
 * elements that are, one by one. Nothing outside the plane is read. */
template <int E, int NW>
__device__ __forceinline__ void
load_chunk (const PlaneArgs & p, unsigned int x, unsigned int y,
    uint32_t (&w)[NW])
{
  constexpr int V = 4 * NW / E;

#pragma unroll
  for (int k = 0; k < NW; k++)
    w[k] = 0;
  if (x >= p.width || y >= p.height)
    return;
  const unsigned char *at = p.src + (ptrdiff_t) y * p.src_stride + (size_t) x * E;
  if (x + V <= p.width) {
    if constexpr (NW == 4) {
      uint4 v = *reinterpret_cast<const uint4 *>(at);
      w[0] = v.x;
      w[1] = v.y;
      w[2] = v.z;
      w[3] = v.w;
    } else if constexpr (NW == 2) {
      uint2 v = *reinterpret_cast<const uint2 *>(at);
      w[0] = v.x;
      w[1] = v.y;
    } else {
      const uint32_t *q = reinterpret_cast<const uint32_t *>(at);
#pragma unroll
      for (int k = 0; k < NW; k++)
        w[k] = q[k];
    }
    return;
  }
#pragma unroll
  for (int e = 0; e < V; e++) {
    if (x + e < p.width)
      load_element<E> (w, e, at + e * E);
  }
}

/* The chunk of destination row @x (a source column) starting at destination
 * column @y (a source row), with the same all-or-one-by-one rule. */
template <int E, int NW>
__device__ __forceinline__ void
store_chunk (const PlaneArgs & p, unsigned int x, unsigned int y,
    const uint32_t (&w)[NW])
{
  constexpr int V = 4 * NW / E;

  if (x >= p.width || y >= p.height)
    return;
  unsigned char *at = p.dst + (ptrdiff_t) x * p.dst_stride + (size_t) y * E;
  if (y + V <= p.height) {
    if constexpr (NW == 4) {
      *reinterpret_cast<uint4 *>(at) = make_uint4 (w[0], w[1], w[2], w[3]);
    } else if constexpr (NW == 2) {
      *reinterpret_cast<uint2 *>(at) = make_uint2 (w[0], w[1]);
    } else {
      uint32_t *q = reinterpret_cast<uint32_t *>(at);
#pragma unroll
      for (int k = 0; k < NW; k++)
        q[k] = w[k];
    }
    return;
  }
#pragma unroll
  for (int e = 0; e < V; e++) {
    if (y + e < p.height)
      store_element<E> (w, e, at + e * E);
  }
}

/* out[c] element r = in[r] element c, for a V x V micro-block held as V
 * chunks of NW words. */
template <int E, int NW>
__device__ __forceinline__ void
transpose_block (const uint32_t (&in)[4 * NW / E][NW],
    uint32_t (&out)[4 * NW / E][NW])
{
  constexpr int V = 4 * NW / E;

  if constexpr (E == 8) {
#pragma unroll
    for (int r = 0; r < V; r++) {
#pragma unroll
      for (int c = 0; c < V; c++) {
        out[c][2 * r] = in[r][2 * c];
        out[c][2 * r + 1] = in[r][2 * c + 1];
      }
    }
  } else if constexpr (E == 4) {
#pragma unroll
    for (int r = 0; r < V; r++) {
#pragma unroll
      for (int c = 0; c < V; c++)
        out[c][r] = in[r][c];
    }
  } else if constexpr (E == 2) {
    /* 2x2 blocks of halves: rows 2k, 2k+1 of word column w */
#pragma unroll
    for (int k = 0; k < NW; k++) {
#pragma unroll
      for (int w = 0; w < NW; w++) {
        uint32_t a0 = in[2 * k][w], a1 = in[2 * k + 1][w];
        out[2 * w][k] = __byte_perm (a0, a1, 0x5410);
        out[2 * w + 1][k] = __byte_perm (a0, a1, 0x7632);
      }
    }
  } else if constexpr (E == 1) {
    /* 4x4 blocks of bytes: rows 4k..4k+3 of word column w, two steps of
     * byte interleaves */
#pragma unroll
    for (int k = 0; k < NW; k++) {
#pragma unroll
      for (int w = 0; w < NW; w++) {
        uint32_t t0 = __byte_perm (in[4 * k][w], in[4 * k + 1][w], 0x5140);
        uint32_t t1 = __byte_perm (in[4 * k][w], in[4 * k + 1][w], 0x7362);
        uint32_t t2 = __byte_perm (in[4 * k + 2][w], in[4 * k + 3][w], 0x5140);
        uint32_t t3 = __byte_perm (in[4 * k + 2][w], in[4 * k + 3][w], 0x7362);
        out[4 * w][k] = __byte_perm (t0, t2, 0x5410);
        out[4 * w + 1][k] = __byte_perm (t0, t2, 0x7632);
        out[4 * w + 2][k] = __byte_perm (t1, t3, 0x5410);
        out[4 * w + 3][k] = __byte_perm (t1, t3, 0x7632);
      }
    }
  } else {
    /* 3-byte elements: each output byte picked from its input word */
    static_assert (E == 3 && NW == 3, "element sizes are 1, 2, 3, 4 and 8");
#pragma unroll
    for (int c = 0; c < 4; c++) {
#pragma unroll
      for (int wd = 0; wd < 3; wd++) {
        uint32_t v = 0;
#pragma unroll
        for (int j = 0; j < 4; j++) {
          int ob = 4 * wd + j, r = ob / 3, sb = 3 * c + ob % 3;
          v |= ((in[r][sb / 4] >> (8 * (sb % 4))) & 0xffu) << (8 * j);
        }
        out[c][wd] = v;
      }
    }
  }
}

/* The 16-byte chunk of source row @y at element @x into shared memory at
 * @to: a copy that bypasses registers (cp.async) when all of it is inside
 * the plane, else the elements that are, through registers, zeros beyond.
 * The caller commits and waits for the copies before the barrier. */
template <int E>
__device__ __forceinline__ void
stage_chunk (const PlaneArgs & p, unsigned int x, unsigned int y, uint4 * to)
{
  constexpr int V = 16 / E;

  if (x < p.width && y < p.height && x + V <= p.width) {
    __pipeline_memcpy_async (to, p.src + (ptrdiff_t) y * p.src_stride +
        (size_t) x * E, sizeof (uint4));
  } else {
    uint32_t w[4];
    load_chunk<E, 4> (p, x, y, w);
    *to = make_uint4 (w[0], w[1], w[2], w[3]);
  }
}

}  // namespace ct_wide

#endif /* CT_WIDE_THREAD_CUH */
