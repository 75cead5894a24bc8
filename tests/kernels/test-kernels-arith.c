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
  return ref_pixels_pair (in, out) ? CT_PATH_ARITH_PIXELS : CT_PATH_ARITH;
}

/* One case: @d permuted by @perm under program @a (its channels along
 * dimension a.channel_dim; the pixels kernel only where the channel is
 * the interleaved side), from @src_shift bytes past an aligned source to
 * @dst_shift bytes past an aligned destination. */
static void
check_program (const CtArith * prog, const unsigned long long d[4],
    const unsigned int perm[4], size_t src_shift, size_t dst_shift,
    CtPath want_path, cudaStream_t stream)
{
  const CtArith a = *prog;
  const CtType in = a.in_type, out = a.out_type;
  const unsigned int cd = a.channel_dim;
  size_t n = (size_t) (d[0] * d[1] * d[2] * d[3]);
  size_t ies = ct_type_size (in), oes = ct_type_size (out);
  size_t in_bytes = n * ies, out_bytes = n * oes;
  unsigned char *src = malloc (in_bytes), *want = malloc (out_bytes),
      *got = malloc (out_bytes);
  unsigned char *d_src = NULL, *d_dst = NULL;
  unsigned int p;

  if (!src || !want || !got || !CHECK (cudaMalloc ((void **) &d_src,
              in_bytes + src_shift)) || !CHECK (cudaMalloc ((void **) &d_dst,
              out_bytes + dst_shift)))
    goto done;
  ref_fill (src, in, n, rng_next);
  ref_permute_arith (src, want, d, perm, &a);
  if (want_path == CT_PATH_ARITH_PIXELS) {
    /* the pixels kernel takes channel operations only where an element's
     * channel is its place among the C interleaved (C is d[0] where it
     * moves, 1 where nothing does): elements 1 apart, C channels */
    unsigned int k, c = perm[0] != 0 && d[0] > 1 ? (unsigned int) d[0] : 1;
    unsigned long long below = 1;
    for (k = 0; k < cd; k++)
      below *= d[k];
    if (ref_has_channel_ops (&a) && (below != 1 || d[cd] != c))
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
          perm[0], perm[1], perm[2], perm[3], ref_has_channel_ops (&a) ?
          "per channel" : "scalar", a.n_ops, src_shift, dst_shift,
          poisons[p], ct_result_string (res),
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

/* check_program under a random program from @in to @out (@per_channel:
 * along a random dimension). */
static void
check_arith (CtType in, CtType out, const unsigned long long d[4],
    const unsigned int perm[4], int per_channel, size_t src_shift,
    size_t dst_shift, CtPath want_path, cudaStream_t stream)
{
  unsigned int cd = per_channel ? (unsigned int) (rng_next () % 4) : 0;
  CtArith a;

  ref_random_arith (&a, in, out, cd, per_channel ? (unsigned int) d[cd] : 0,
      rng_next);
  check_program (&a, d, perm, src_shift, dst_shift, want_path, stream);
}

/* A program of @n operations of @kinds ('a', 'm', 'd') on @channels (-1:
 * every channel), channel dimension 0, operands from a few floats. */
static void
program_of (CtArith * a, CtType in, CtType out, const char *kinds,
    const int *channels, unsigned int n)
{
  static const double operands[] = { -123.68, 58.4, -116.78, 0.5, 3.0,
    -103.94, 127.5
  };
  unsigned int i;

  memset (a, 0, sizeof (*a));
  a->in_type = in;
  a->out_type = out;
  a->n_ops = n;
  for (i = 0; i < n; i++) {
    a->ops[i].kind = kinds[i] == 'a' ? CT_ARITH_ADD : kinds[i] == 'm' ?
        CT_ARITH_MUL : CT_ARITH_DIV;
    a->ops[i].channel = channels[i];
    a->ops[i].is_float = 1;
    a->ops[i].float_value = operands[i % N_ELEMENTS (operands)];
  }
}

/* The pixels kernel's merged programs (runs of one kind on distinct single
 * channels become one step): NNStreamer's per-channel normalization, a
 * channel twice in a run, runs broken by a kind or by an operation for
 * every channel, programs in the kernel's short form (up to 3 steps) and
 * its long one, and programs too long for the pixels kernel (the any
 * kernel then). */
static void
check_merged_programs (unsigned long long n_sms, cudaStream_t stream)
{
  static const struct
  {
    const char *kinds;
    int channels[24];
  } programs[] = {
    {"aaad", {0, 1, 2, -1}},
    {"aaadm", {2, 0, 1, -1, 1}},
    {"aaa", {0, 0, 1}},
    {"amad", {0, 1, 1, 2}},
    {"aaaa", {1, -1, 1, 0}},
    {"dddd", {2, 1, 0, 2}},
    {"mmmmm", {0, 1, 2, 2, 1}},
    /* 5 and 16 steps: past the short form (3), at the limit (16) */
    {"amadm", {0, 1, 1, 2, -1}},
    {"amdamdamdamdamda", {0, -1, 1, 2, 0, -1, 1, 2, 0, -1, 1, 2, 0, -1, 1,
            2}},
    /* operations for channels the pixels do not have (40 and 5 of 3):
     * they touch nothing */
    {"amaad", {0, 40, 1, 5, -1}},
    /* -0 divided (0 x -123.68, then by 58.4): a quotient the corrected
     * reciprocal gets wrong (+0), so uint8 to float32 must keep the
     * division; on every channel, and on channel 0 alone (the others then
     * divide by 1, which the reciprocal also gets wrong for -0). The large
     * and wide inputs (over 12,000 random bytes a multiprocessor) are
     * certain to have a 0; the small one (1,281) misses it about once in
     * 150 runs. */
    {"md", {-1, -1}},
    {"md", {-1, 0}},
    /* 17 and 24 steps even merged: past the pixels kernel's limit */
    {"amdamdamdamdamdam", {0, -1, 1, 2, 0, -1, 1, 2, 0, -1, 1, 2, 0, -1,
            1, 2, 0}},
    {"amamamamamamamamamamamam", {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
  };
  /* one, two and four pixels a thread (run_arith's rows) */
  static const unsigned long long small[4] = { 3, 61, 7, 1 };
  const unsigned long long large[4] = { 3, 1021, 1, 4 * n_sms };
  const unsigned long long wide[4] = { 3, 1024, 1, 9 * n_sms };
  static const unsigned int chw[4] = { 1, 2, 0, 3 };
  size_t i;

  for (i = 0; i < N_ELEMENTS (programs); i++) {
    unsigned int n = (unsigned int) strlen (programs[i].kinds);
    /* (none of these merges past 16 steps from more operations) */
    CtPath want = n > 16 ? CT_PATH_ARITH : CT_PATH_ARITH_PIXELS;
    CtArith a;

    program_of (&a, CT_TYPE_UINT8, CT_TYPE_FLOAT32, programs[i].kinds,
        programs[i].channels, n);
    check_program (&a, small, chw, 0, 0, want, stream);
    check_program (&a, large, chw, 0, 0, want, stream);
    check_program (&a, wide, chw, 0, 0, want, stream);
    program_of (&a, CT_TYPE_FLOAT32, CT_TYPE_FLOAT32, programs[i].kinds,
        programs[i].channels, n);
    check_program (&a, small, chw, 0, 0, want, stream);
    /* bytes kept, where no operand is 0 as a byte */
    program_of (&a, CT_TYPE_UINT8, CT_TYPE_UINT8, programs[i].kinds,
        programs[i].channels, n);
    if (!ref_divides_by_zero (&a))
      check_program (&a, small, chw, 0, 0, want, stream);
  }
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
  static const CtType pixel_pairs[][2] = {
    {CT_TYPE_UINT8, CT_TYPE_FLOAT32}, {CT_TYPE_UINT8, CT_TYPE_UINT8},
    {CT_TYPE_FLOAT32, CT_TYPE_FLOAT32},
  };
  int passed = n_passed, failed = n_failed;
  int in, out, device = 0, n_sms = 0;
  size_t s, q;

  if (!CHECK (cudaGetDevice (&device)) || !CHECK (cudaDeviceGetAttribute
          (&n_sms, cudaDevAttrMultiProcessorCount, device)))
    return;

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
  /* the pixels kernel's three sizes of thread (1, 2 and 4 pixels: under
   * 2 blocks of 4 pixels per multiprocessor, under 8, and more), rows of
   * one such block each: 1 to 4 channels, whole quads and not, for each
   * pair the kernel is built for */
  for (s = 0; s < N_ELEMENTS (pixel_pairs); s++)
    for (q = 1; q <= 4; q++) {
      const CtType pi = pixel_pairs[s][0], po = pixel_pairs[s][1];
      const unsigned long long rows[3] = { n_sms, 4ull * n_sms,
        9ull * n_sms
      };
      size_t r;
      for (r = 0; r < 3; r++) {
        const unsigned long long whole[4] = { q, 1024, 1, rows[r] };
        const unsigned long long partial[4] = { q, 1021, 1, rows[r] };
        check_arith (pi, po, whole, chw, (int) (r % 2), 0, 0,
            CT_PATH_ARITH_PIXELS, stream);
        check_arith (pi, po, partial, chw, (int) (r % 2 == 0), 0, 0,
            CT_PATH_ARITH_PIXELS, stream);
      }
    }
  check_merged_programs ((unsigned long long) n_sms, stream);
  /* a 4K RGB frame to a normalized CHW float tensor, and per channel */
  check_arith (CT_TYPE_UINT8, CT_TYPE_FLOAT32, big, chw, 0, 0, 0,
      CT_PATH_ARITH_PIXELS, stream);
  check_arith (CT_TYPE_UINT8, CT_TYPE_FLOAT32, big, chw, 1, 0, 0,
      CT_PATH_ARITH_PIXELS, stream);
  printf ("arithmetic: %d passed, %d failed (%.1f s)\n", n_passed - passed,
      n_failed - failed, lap_seconds ());
}
