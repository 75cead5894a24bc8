/* The kernels' test (test-kernels.c): ct_permute against a scatter loop,
 * every order of 4 dimensions on each shape and element size, the path
 * each kind of permutation takes, and the calls it refuses
 * (permutations); NCHW to NHWC and back for 2 to 5 and 16 channels, rows
 * aligned and not, pointers off 16-byte boundaries (channels). */
#include "kernels-check.h"
#include "permute-reference.h"

/* ---- permutations (ct_permute) ---- */

/* The reference (permute-reference.h): every input element scattered to
 * its place, walking the input in order (ct_permute walks the output). */
static void
permute_expected (const unsigned char *src, unsigned char *want,
    const unsigned long long d[4], unsigned int es, const unsigned int perm[4])
{
  uint64_t dims[4], odims[4], step[4], x[4];
  unsigned int i;

  for (i = 0; i < 4; i++)
    dims[i] = d[i];
  ct_ref_permuted_layout (dims, perm, odims, step);
  for (x[3] = 0; x[3] < d[3]; x[3]++)
    for (x[2] = 0; x[2] < d[2]; x[2]++)
      for (x[1] = 0; x[1] < d[1]; x[1]++)
        for (x[0] = 0; x[0] < d[0]; x[0]++) {
          size_t in = ((x[3] * d[2] + x[2]) * d[1] + x[1]) * d[0] + x[0];
          size_t out = 0;
          for (i = 0; i < 4; i++)
            out += x[i] * step[i];
          memcpy (want + out * es, src + in * es, es);
        }
}

/* A path a permutation may report: its own kernels, or a path of the
 * planner (the thin, wide or exact tiles of its 2-D transposes). */
static int
permute_path (CtPath ran)
{
  switch (ran) {
    case CT_PATH_COPY:
    case CT_PATH_GATHER:
    case CT_PATH_CHANNELS:
    case CT_PATH_PIXELS:
    case CT_PATH_CHANNELS_PACKED:
    case CT_PATH_PIXELS_PACKED:
    case CT_PATH_THIN:
    case CT_PATH_EXACT:
    case CT_PATH_WIDE:
    case CT_PATH_WIDE_PADDED:
    case CT_PATH_WIDE_SWIZZLE:
    case CT_PATH_SMALL_TILE:
    case CT_PATH_STREAM:
    case CT_PATH_TILE_64:
    case CT_PATH_TILE_128:
    case CT_PATH_TILE_128_LINES:
    case CT_PATH_SKINNY:
    case CT_PATH_STREAM_WORDS:
      return 1;
    default:
      return 0;
  }
}

/* check_permute's @want_path: any wide tile of the planner (not thin or
 * exact) */
#define ANY_WIDE_TILE CT_PATH_COUNT

static int
path_wanted (CtPath ran, CtPath want)
{
  if (!permute_path (ran))
    return 0;
  if (want == ANY_WIDE_TILE)
    return ran != CT_PATH_THIN && ran != CT_PATH_EXACT &&
        ran != CT_PATH_COPY && ran != CT_PATH_GATHER &&
        ran != CT_PATH_CHANNELS && ran != CT_PATH_PIXELS &&
        ran != CT_PATH_CHANNELS_PACKED && ran != CT_PATH_PIXELS_PACKED;
  return want == CT_PATH_NONE || ran == want;
}

/* One permutation of the random @src (on the GPU at @d_src): on the GPU
 * twice over a poisoned destination, and on the CPU, each against the
 * reference. @want and @got are host buffers of the same size. The path
 * that ran must be a permutation's, and @want_path unless CT_PATH_NONE. */
static void
check_permute (const unsigned char *src, const void *d_src, void *d_dst,
    unsigned char *want, unsigned char *got, const unsigned long long d[4],
    unsigned int es, const unsigned int perm[4], CtPath want_path,
    cudaStream_t stream)
{
  size_t bytes = d[0] * d[1] * d[2] * d[3] * es;
  unsigned int p;

  permute_expected (src, want, d, es, perm);
  for (p = 0; p < 2; p++) {
    CtResult res;
    CtPath ran = CT_PATH_NONE;
    if (!CHECK (cudaMemset (d_dst, poisons[p], bytes)))
      return;
    res = ct_permute_ex (d_src, d_dst, d, es, perm, (CtStream) stream, &ran);
    if (res == CT_OK && !path_wanted (ran, want_path)) {
      printf ("FAIL: permute %llu:%llu:%llu:%llu by %u:%u:%u:%u, %u "
          "bytes: ran path %s, wanted %s\n", d[0], d[1], d[2], d[3],
          perm[0], perm[1], perm[2], perm[3], es, ct_path_name (ran),
          want_path == ANY_WIDE_TILE ? "a wide tile" :
          want_path == CT_PATH_NONE ? "a permutation's" :
          ct_path_name (want_path));
      n_failed++;
      continue;
    }
    if (res != CT_OK || !CHECK (cudaStreamSynchronize (stream)) ||
        !CHECK (cudaMemcpy (got, d_dst, bytes, cudaMemcpyDeviceToHost))) {
      printf ("FAIL: permute %llu:%llu:%llu:%llu by %u:%u:%u:%u, %u "
          "bytes: %s\n", d[0], d[1], d[2], d[3], perm[0], perm[1],
          perm[2], perm[3], es, ct_result_string (res));
      n_failed++;
      continue;
    }
    if (memcmp (got, want, bytes) != 0) {
      size_t at = 0;
      while (got[at] == want[at])
        at++;
      printf ("FAIL: permute %llu:%llu:%llu:%llu by %u:%u:%u:%u, %u "
          "bytes, poison 0x%02x: first difference at byte %zu\n", d[0],
          d[1], d[2], d[3], perm[0], perm[1], perm[2], perm[3], es,
          poisons[p], at);
      n_failed++;
    } else {
      n_passed++;
    }
  }
  memset (got, poisons[0], bytes);
  if (ct_permute_cpu (src, got, d, es, perm) != CT_OK ||
      memcmp (got, want, bytes) != 0) {
    printf ("FAIL: permute on the CPU %llu:%llu:%llu:%llu by "
        "%u:%u:%u:%u, %u bytes\n", d[0], d[1], d[2], d[3], perm[0],
        perm[1], perm[2], perm[3], es);
    n_failed++;
  } else {
    n_passed++;
  }
}

/* Host and device buffers for a tensor of @d, the source random. */
typedef struct
{
  unsigned char *src, *want, *got;
  void *d_src, *d_dst;
} PermuteBuffers;

static int
permute_buffers_init (PermuteBuffers * b, const unsigned long long d[4],
    unsigned int es)
{
  size_t bytes = d[0] * d[1] * d[2] * d[3] * es;

  memset (b, 0, sizeof (*b));
  b->src = malloc (bytes);
  b->want = malloc (bytes);
  b->got = malloc (bytes);
  if (!b->src || !b->want || !b->got ||
      !CHECK (cudaMalloc (&b->d_src, bytes)) ||
      !CHECK (cudaMalloc (&b->d_dst, bytes)))
    return 0;
  fill_random (b->src, bytes);
  return CHECK (cudaMemcpy (b->d_src, b->src, bytes, cudaMemcpyHostToDevice));
}

static void
permute_buffers_clear (PermuteBuffers * b)
{
  cudaFree (b->d_src);
  cudaFree (b->d_dst);
  free (b->src);
  free (b->want);
  free (b->got);
}

/* check_permute on a new random tensor of @d. */
static void
check_random_permute (const unsigned long long d[4], unsigned int es,
    const unsigned int perm[4], CtPath want_path, cudaStream_t stream)
{
  PermuteBuffers b;

  if (permute_buffers_init (&b, d, es))
    check_permute (b.src, b.d_src, b.d_dst, b.want, b.got, d, es, perm,
        want_path, stream);
  permute_buffers_clear (&b);
}

/* Every permutation of 4 dimensions on each shape and element size, on the
 * GPU and the CPU loop, each twice over a poisoned destination. */
void
run_permutations (cudaStream_t stream)
{
  static const unsigned long long shapes[][4] = {
    {3, 5, 7, 2}, {1, 9, 1, 4}, {17, 1, 33, 3}, {3, 192, 108, 2},
    {64, 51, 52, 1}, {100, 70, 3, 1}, {17, 5, 33, 20}, {1, 1, 1, 1},
    {2, 3, 4, 5}, {40, 1, 1, 70}, {16, 16, 17, 2},
  };
  static const unsigned int sizes[] = { 1, 2, 4, 8 };
  int passed = n_passed, failed = n_failed;
  size_t sh, z;
  unsigned int q;

  for (sh = 0; sh < N_ELEMENTS (shapes); sh++) {
    for (z = 0; z < N_ELEMENTS (sizes); z++) {
      PermuteBuffers b;
      if (permute_buffers_init (&b, shapes[sh], sizes[z])) {
        /* all 24 orders of 0..3: q in the factorial number system */
        for (q = 0; q < 24; q++) {
          unsigned int perm[4] = { 0, 1, 2, 3 }, rest = q, i;
          for (i = 0; i < 4; i++) {
            unsigned int k = rest % (4 - i), t = perm[i + k];
            rest /= 4 - i;
            memmove (&perm[i + 1], &perm[i], k * sizeof (perm[0]));
            perm[i] = t;
          }
          check_permute (b.src, b.d_src, b.d_dst, b.want, b.got, shapes[sh],
              sizes[z], perm, CT_PATH_NONE, stream);
        }
      }
      permute_buffers_clear (&b);
    }
  }

  {
    /* the path each kind of permutation takes, asserted: the planner takes
     * the 2-D transposes without channels, batched two levels deep with
     * more batches than a launch holds (9 x 20 planes) */
    static const struct
    {
      unsigned long long d[4];
      unsigned int perm[4], es;
      CtPath path;
    } cases[] = {
      {{2, 3, 4, 5}, {0, 1, 2, 3}, 2, CT_PATH_COPY},
      {{8, 3, 5, 1}, {0, 2, 1, 3}, 2, CT_PATH_GATHER},
      {{3, 64, 32, 1}, {1, 2, 0, 3}, 1, CT_PATH_PIXELS},
      {{8, 64, 32, 1}, {1, 2, 0, 3}, 4, CT_PATH_CHANNELS},
      /* HWC to CHW with odd sizes: the planar rows are not whole 16-byte
       * words (3 byte channels: pixels-packed); a batch of them */
      {{3, 63, 31, 1}, {1, 2, 0, 3}, 1, CT_PATH_PIXELS_PACKED},
      {{3, 1001, 1001, 4}, {1, 2, 0, 3}, 1, CT_PATH_PIXELS_PACKED},
      {{4, 1001, 3, 1}, {1, 2, 0, 3}, 4, CT_PATH_CHANNELS_PACKED},
      /* planar rows of whole 4-byte words but not 16-byte ones (375 x
       * 500, 84, 12; 2-byte 4098): pixels in 4-byte groups, each way,
       * 2 to 4 channels, batches */
      {{3, 500, 375, 1}, {1, 2, 0, 3}, 1, CT_PATH_PIXELS},
      {{500, 375, 3, 1}, {2, 0, 1, 3}, 1, CT_PATH_PIXELS},
      {{4, 42, 2, 2}, {1, 2, 0, 3}, 1, CT_PATH_PIXELS},
      {{12, 2, 5, 1}, {1, 0, 2, 3}, 1, CT_PATH_PIXELS},
      {{3, 4098, 1, 3}, {1, 2, 0, 3}, 2, CT_PATH_PIXELS},
      {{4098, 1, 2, 3}, {2, 0, 1, 3}, 2, CT_PATH_PIXELS},
      /* both sides short: thin planes */
      {{3, 5, 7, 20}, {1, 0, 3, 2}, 4, CT_PATH_THIN},
      /* a batch of long thin planes whose output is not interleaved (L, C,
       * X, N to C, N, L, X): several elements per thread */
      {{1001, 3, 5, 4}, {1, 3, 0, 2}, 1, CT_PATH_THIN},
      {{64, 48, 9, 20}, {1, 0, 3, 2}, 2, ANY_WIDE_TILE},
      {{64, 48, 20, 9}, {1, 0, 3, 2}, 8, ANY_WIDE_TILE},
      /* byte planes two levels deep, every copy 16-aligned: the lines
       * tile in one launch, the planes whole tiles or ragged */
      {{256, 256, 12, 12}, {1, 0, 3, 2}, 1, CT_PATH_TILE_128_LINES},
      {{208, 144, 9, 20}, {1, 0, 3, 2}, 1, CT_PATH_TILE_128_LINES},
      /* rows of 33 2-byte elements: no wide tile's alignment */
      {{40, 33, 9, 20}, {1, 0, 3, 2}, 2, CT_PATH_EXACT},
      /* a large float32 plane of odd width alone: streamed words */
      {{2561, 1441, 1, 1}, {1, 0, 2, 3}, 4, CT_PATH_STREAM_WORDS},
    };
    size_t i;

    for (i = 0; i < N_ELEMENTS (cases); i++)
      check_random_permute (cases[i].d, cases[i].es, cases[i].perm,
          cases[i].path, stream);
  }
  {
    const unsigned long long d[4] = { 4, 4, 1, 1 }, zero[4] = { 4, 0, 1, 1 };
    const unsigned int twice[4] = { 0, 0, 2, 3 }, big[4] = { 0, 1, 2, 4 },
        id[4] = { 0, 1, 2, 3 };
    unsigned char buf[16];
    expect_result ("permutation naming a dimension twice",
        ct_permute_cpu (buf, buf, d, 1, twice), CT_ERROR_INVALID_ARGUMENT);
    expect_result ("permutation naming dimension 4",
        ct_permute (buf, buf, d, 1, big, (CtStream) stream),
        CT_ERROR_INVALID_ARGUMENT);
    expect_result ("permutation of a zero size",
        ct_permute_validate (zero, 1, id), CT_ERROR_INVALID_ARGUMENT);
    expect_result ("permutation of 3-byte elements",
        ct_permute_validate (d, 3, id), CT_ERROR_UNSUPPORTED_ELEMENT_SIZE);
  }
  {
    /* a transposed side of 2^31 elements is refused before any memory is
     * touched (the planner's indices are under 2^31; the buffers here are
     * far too small, so a launch would fault) */
    const unsigned long long d[4] = { 1ull << 31, 2, 1, 1 };
    const unsigned int swap[4] = { 1, 0, 2, 3 };
    unsigned char *dev = NULL;

    if (CHECK (cudaMalloc ((void **) &dev, 1024))) {
      expect_result ("permutation with a transposed side of 2^31",
          ct_permute (dev, dev + 512, d, 1, swap, (CtStream) stream),
          CT_ERROR_INVALID_ARGUMENT);
      CHECK (cudaStreamSynchronize (stream));
      CHECK (cudaFree (dev));
    }
  }
  {
    /* pointers off the elements' alignment are refused, not launched
     * (the element kernels faulted the context on them) */
    const unsigned long long d[4] = { 8, 300, 2, 1 };
    const unsigned int swap[4] = { 1, 0, 2, 3 };
    unsigned char *dev = NULL;

    if (CHECK (cudaMalloc ((void **) &dev, 128 * 1024))) {
      expect_result ("permutation of 8-byte elements from an odd address",
          ct_permute (dev + 1, dev + 64 * 1024, d, 8, swap,
              (CtStream) stream), CT_ERROR_INVALID_ARGUMENT);
      expect_result ("permutation of 2-byte elements to an odd address",
          ct_permute (dev, dev + 64 * 1024 + 1, d, 2, swap,
              (CtStream) stream), CT_ERROR_INVALID_ARGUMENT);
      CHECK (cudaStreamSynchronize (stream));
      CHECK (cudaFree (dev));
    }
  }
  printf ("permutations: %d cases passed, %d failed (%.1f s)\n", n_passed - passed,
      n_failed - failed, lap_seconds ());
}

/* ct_permute of a random tensor of @d from @src_off bytes past the start
 * of its allocation to @dst_off bytes past the start of another, both
 * larger than the tensor by 64 bytes and poisoned: the tensor must be the
 * reference, every byte around it still the poison. */
static void
check_offset_permute (const unsigned long long d[4], unsigned int es,
    const unsigned int perm[4], size_t src_off, size_t dst_off,
    CtPath want_path, cudaStream_t stream)
{
  const size_t bytes = d[0] * d[1] * d[2] * d[3] * es, all = bytes + 64;
  unsigned char *src = malloc (all), *want = malloc (all), *got = malloc (all);
  unsigned char *d_src = NULL, *d_dst = NULL;
  CtPath ran = CT_PATH_NONE;
  CtResult res;

  if (!src || !want || !got || !CHECK (cudaMalloc ((void **) &d_src, all)) ||
      !CHECK (cudaMalloc ((void **) &d_dst, all)))
    goto out;
  fill_random (src, all);
  memset (want, poisons[1], all);
  permute_expected (src + src_off, want + dst_off, d, es, perm);
  if (!CHECK (cudaMemcpy (d_src, src, all, cudaMemcpyHostToDevice)) ||
      !CHECK (cudaMemset (d_dst, poisons[1], all)))
    goto out;
  res = ct_permute_ex (d_src + src_off, d_dst + dst_off, d, es, perm,
      (CtStream) stream, &ran);
  if (res != CT_OK || !CHECK (cudaStreamSynchronize (stream)) ||
      !CHECK (cudaMemcpy (got, d_dst, all, cudaMemcpyDeviceToHost))) {
    printf ("FAIL: permute %llu:%llu:%llu:%llu, %u bytes, from +%zu to "
        "+%zu: %s\n", d[0], d[1], d[2], d[3], es, src_off, dst_off,
        ct_result_string (res));
    n_failed++;
  } else if (ran != want_path || memcmp (got, want, all) != 0) {
    size_t at = 0;
    while (at < all && got[at] == want[at])
      at++;
    printf ("FAIL: permute %llu:%llu:%llu:%llu, %u bytes, from +%zu to "
        "+%zu: path %s (wanted %s), first difference at byte %zu of the "
        "allocation\n", d[0], d[1], d[2], d[3], es, src_off, dst_off,
        ct_path_name (ran), ct_path_name (want_path), at);
    n_failed++;
  } else {
    n_passed++;
  }
out:
  cudaFree (d_src);
  cudaFree (d_dst);
  free (src);
  free (want);
  free (got);
}

/* Channels: NCHW to NHWC and back for 2 to 5 and 16 channels and every
 * element size, over lengths that leave whole warps, part of a warp or
 * part of a 16-byte group (so that the planar rows start off 16-byte
 * boundaries), several segments of a block and part of one, with planar
 * rows as long as the length or longer, and one or two batch dimensions;
 * then from and to pointers off 16-byte boundaries, with the bytes around
 * the output checked. */
void
run_channels (cudaStream_t stream)
{
  /* planar length, batch N, batch M */
  static const unsigned long long plain[][3] = {
    {16, 1, 1}, {48, 3, 2}, {8208, 2, 1}, {65584, 1, 3}, {40, 5, 1},
    {17, 2, 1}, {4099, 3, 1}, {12291, 1, 2},
  };
  /* L, X: a row of L pixels in planar rows of L x X elements */
  static const unsigned long long strided[][2] = {
    {16, 3}, {48, 5}, {1008, 2}, {17, 16},
  };
  static const unsigned int sizes[] = { 1, 2, 4, 8 };
  static const unsigned int nchw_nhwc[4] = { 1, 0, 2, 3 };
  /* (L, X, C, N) to (C, L, N, X), and back */
  static const unsigned int to_inter[4] = { 2, 0, 3, 1 };
  static const unsigned int to_planar[4] = { 1, 3, 0, 2 };
  static const unsigned long long channels[] = { 2, 3, 4, 5, 16 };
  int passed = n_passed, failed = n_failed;
  size_t z, i, k;

  for (z = 0; z < N_ELEMENTS (sizes); z++) {
    unsigned int es = sizes[z];
    for (k = 0; k < N_ELEMENTS (channels); k++) {
      const unsigned long long c = channels[k];
      for (i = 0; i < N_ELEMENTS (plain); i++) {
        const unsigned long long *s = plain[i];
        const unsigned long long planar[4] = { s[0], c, s[1], s[2] };
        const unsigned long long inter[4] = { c, s[0], s[1], s[2] };
        check_random_permute (planar, es, nchw_nhwc, CT_PATH_NONE, stream);
        check_random_permute (inter, es, nchw_nhwc, CT_PATH_NONE, stream);
      }
      for (i = 0; i < N_ELEMENTS (strided); i++) {
        const unsigned long long *s = strided[i];
        const unsigned long long planar[4] = { s[0], s[1], c, 2 };
        const unsigned long long inter[4] = { c, s[0], 2, s[1] };
        check_random_permute (planar, es, to_inter, CT_PATH_NONE, stream);
        check_random_permute (inter, es, to_planar, CT_PATH_NONE, stream);
      }
    }
    /* 2 to 5 channels of 1919 x 7 pixels, in batches of 2, between
     * pointers an element and 8 bytes past a 16-byte boundary, each way */
    for (k = 0; k < 16; k++) {
      const unsigned long long c = 2 + k / 4;
      const unsigned long long planar[4] = { 1919 * 7, c, 2, 1 };
      const unsigned long long inter[4] = { c, 1919 * 7, 2, 1 };
      const size_t off[4][2] = { {es, 8}, {8, es}, {es, es}, {0, 8} };
      /* 2 to 4 channels of 1 or 2 bytes regroup in registers */
      const CtPath packed = es <= 2 && c <= 4 ? CT_PATH_PIXELS_PACKED :
          CT_PATH_CHANNELS_PACKED;
      check_offset_permute (planar, es, nchw_nhwc, off[k % 4][0],
          off[k % 4][1], packed, stream);
      check_offset_permute (inter, es, nchw_nhwc, off[k % 4][0],
          off[k % 4][1], packed, stream);
    }
    /* 2 to 4 channels of whole 16-byte groups, between pointers 4 and 8
     * bytes past a 16-byte boundary: 1- and 2-byte elements regroup in
     * 4-byte groups */
    for (k = 0; es <= 2 && k < 6; k++) {
      const unsigned long long c = 2 + k / 2;
      const unsigned long long planar[4] = { 1920 * 7, c, 2, 1 };
      const unsigned long long inter[4] = { c, 1920 * 7, 2, 1 };
      check_offset_permute (planar, es, nchw_nhwc, k % 2 ? 4 : 8,
          k % 2 ? 8 : 4, CT_PATH_PIXELS, stream);
      check_offset_permute (inter, es, nchw_nhwc, k % 2 ? 4 : 8,
          k % 2 ? 8 : 4, CT_PATH_PIXELS, stream);
    }
  }
  printf ("channels: %d cases passed, %d failed (%.1f s)\n", n_passed - passed,
      n_failed - failed, lap_seconds ());
}
