/* The group "arithmetic": ct_permute_arith on the GPU against the tests'
 * model of NNStreamer's arithmetic (arith-reference.h), every type pair,
 * scalar and per channel, over a poisoned destination twice: the pixels
 * kernel (HWC to CHW with 1 to 4 channels, batches, widths that leave
 * partial quads, a destination off its quad alignment) and the any kernel
 * (every other permutation, and every pair of types the pixels kernel
 * is not built for), each asserted to have run. Floats compare
 * bit for bit, but for NaN payloads: the GPU makes its own NaN. */
#include "kernels-check.h"
#include "arith-reference.h"

/* The pairs the pixels kernel is built for (arith.cu); the others take
 * the any kernel for every permutation. */
static CtPath
pixels_path (CtType in, CtType out)
{
  int fast = (in == CT_TYPE_UINT8 && (out == CT_TYPE_FLOAT32 ||
          out == CT_TYPE_UINT8)) || (in == CT_TYPE_FLOAT32 &&
      out == CT_TYPE_FLOAT32);
  return fast ? CT_PATH_ARITH_PIXELS : CT_PATH_ARITH;
}

/* One case: @d permuted by @perm under a random program from @in to @out
 * (@per_channel: along a random dimension; then the pixels kernel only
 * where the channel is the interleaved side), from @src_shift bytes past
 * an aligned source to @dst_shift bytes past an aligned destination. */
static void
check_arith (CtType in, CtType out, const unsigned long long d[4],
    const unsigned int perm[4], int per_channel, size_t src_shift,
    size_t dst_shift, CtPath want_path, cudaStream_t stream)
{
  size_t n = (size_t) (d[0] * d[1] * d[2] * d[3]);
  size_t ies = ct_type_size (in), oes = ct_type_size (out);
  size_t in_bytes = n * ies, out_bytes = n * oes;
  unsigned char *src = malloc (in_bytes), *want = malloc (out_bytes),
      *got = malloc (out_bytes);
  unsigned char *d_src = NULL, *d_dst = NULL;
  unsigned int cd = per_channel ? (unsigned int) (rng_next () % 4) : 0;
  CtArith a;
  unsigned int p;

  if (!src || !want || !got || !CHECK (cudaMalloc ((void **) &d_src,
              in_bytes + src_shift)) || !CHECK (cudaMalloc ((void **) &d_dst,
              out_bytes + dst_shift)))
    goto done;
  ref_fill (src, in, n, rng_next);
  ref_random_arith (&a, in, out, cd, per_channel ? (unsigned int) d[cd] : 0,
      rng_next);
  ref_permute_arith (src, want, d, perm, &a);
  if (want_path == CT_PATH_ARITH_PIXELS) {
    /* the pixels kernel takes channel operations only where an element's
     * channel is its place among the C interleaved (C is d[0] where it
     * moves, 1 where nothing does): elements 1 apart, C channels */
    unsigned int i, k, c = perm[0] != 0 && d[0] > 1 ? (unsigned int) d[0] : 1;
    unsigned long long below = 1;
    int any_channel = 0;
    for (i = 0; i < a.n_ops; i++)
      any_channel = any_channel || a.ops[i].channel >= 0;
    for (k = 0; k < cd; k++)
      below *= d[k];
    if (any_channel && (below != 1 || d[cd] != c))
      want_path = CT_PATH_ARITH;
  }
  if (!CHECK (cudaMemcpy (d_src + src_shift, src, in_bytes,
              cudaMemcpyHostToDevice)))
    goto done;
  for (p = 0; p < 2; p++) {
    CtPath ran = CT_PATH_NONE;
    CtResult res;
    size_t bad = 0;

    if (!CHECK (cudaMemset (d_dst, poisons[p], out_bytes + dst_shift)))
      goto done;
    res = ct_permute_arith (d_src + src_shift, d_dst + dst_shift, d, perm, &a,
        (CtStream) stream, &ran);
    if (res == CT_OK && CHECK (cudaStreamSynchronize (stream)) &&
        CHECK (cudaMemcpy (got, d_dst + dst_shift, out_bytes,
                cudaMemcpyDeviceToHost)))
      bad = ref_compare (got, want, out, n, 1);
    if (res != CT_OK || bad != n || ran != want_path) {
      printf ("FAIL: arithmetic %s -> %s, %llux%llux%llux%llu by "
          "%u:%u:%u:%u, %s, %u ops, src +%zu, dst +%zu, poison 0x%02x: %s, path %s "
          "(wanted %s), first wrong element %zu of %zu\n",
          ct_type_name (in), ct_type_name (out), d[0], d[1], d[2], d[3],
          perm[0], perm[1], perm[2], perm[3], per_channel ? "per channel" :
          "scalar", a.n_ops, src_shift, dst_shift, poisons[p], ct_result_string (res),
          ct_path_name (ran), ct_path_name (want_path), bad, n);
      n_failed++;
    } else {
      n_passed++;
    }
  }
done:
  cudaFree (d_src);
  cudaFree (d_dst);
  free (src);
  free (want);
  free (got);
}

void
run_arith (cudaStream_t stream)
{
  /* pixels: C x W x H x N in, by 1:2:0:3 (CHW), or kept */
  static const unsigned long long pixel_shapes[][4] = {
    {3, 67, 35, 1}, {4, 16, 9, 2}, {1, 65, 3, 1}, {2, 7, 1, 5},
    {3, 1, 13, 1}, {1, 1, 1, 1}, {3, 8, 4, 2}, {2, 12, 2, 1},
  };
  static const unsigned int chw[4] = { 1, 2, 0, 3 };
  static const unsigned int keep[4] = { 0, 1, 2, 3 };
  /* any: interleaving, a transpose with batches, more channels */
  static const unsigned long long any_shapes[][4] = {
    {5, 6, 7, 2}, {9, 33, 3, 1},
  };
  static const unsigned int any_perms[][4] = {
    {2, 0, 1, 3}, {1, 0, 3, 2}, {3, 2, 1, 0},
  };
  static const unsigned long long big[4] = { 3, 3840, 2160, 1 };
  int passed = n_passed, failed = n_failed;
  int in, out;
  size_t s, q;

  for (in = 0; in < CT_TYPE_COUNT; in++)
    for (out = 0; out < CT_TYPE_COUNT; out++) {
      for (s = 0; s < N_ELEMENTS (pixel_shapes); s++) {
        CtPath want = pixels_path ((CtType) in, (CtType) out);
        check_arith ((CtType) in, (CtType) out, pixel_shapes[s], chw,
            (int) (s % 2), 0, 0, want, stream);
        check_arith ((CtType) in, (CtType) out, pixel_shapes[s], keep,
            (int) (s % 2 == 0), 0, s == 1 ? ct_type_size ((CtType) out) :
            0, want, stream);
      }
      /* off the quad's alignment: element stores; and the source off its
       * words' alignment */
      check_arith ((CtType) in, (CtType) out, pixel_shapes[1], chw, 1,
          ct_type_size ((CtType) in), ct_type_size ((CtType) out),
          pixels_path ((CtType) in, (CtType) out), stream);
      for (s = 0; s < N_ELEMENTS (any_shapes); s++)
        for (q = 0; q < N_ELEMENTS (any_perms); q++)
          check_arith ((CtType) in, (CtType) out, any_shapes[s],
              any_perms[q], (int) ((s + q) % 2), 0, 0, CT_PATH_ARITH,
              stream);
    }
  /* a 4K RGB frame to a normalized CHW float tensor, and per channel */
  check_arith (CT_TYPE_UINT8, CT_TYPE_FLOAT32, big, chw, 0, 0, 0,
      CT_PATH_ARITH_PIXELS, stream);
  check_arith (CT_TYPE_UINT8, CT_TYPE_FLOAT32, big, chw, 1, 0, 0,
      CT_PATH_ARITH_PIXELS, stream);
  printf ("arithmetic: %d passed, %d failed (%.1f s)\n", n_passed - passed,
      n_failed - failed, lap_seconds ());
}
