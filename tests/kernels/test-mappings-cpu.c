/* cudatranspose: the CPU loop (the `cpu` variant, the element's fallback)
 * in all eight orientations, against a reference written here. Runs
 * everywhere: no GPU is needed.
 *
 * Each case fills a source plane (rows padded) with random bytes, poisons
 * the whole destination, padding included, runs ct_transpose_planes_cpu or
 * ct_transpose_batches_cpu, and checks every destination byte: each element
 * where the orientation puts it, each padding byte still poisoned.
 * Arguments: [seed]. */
#include "cudatranspose-kernels-tests.h"
#include "orientation-reference.h"
#include "random-fill.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POISON 0xa5

static uint64_t rng_state;
static int n_passed, n_failed;

static void
fill_random (unsigned char *buf, size_t size)
{
  ct_ref_fill_random (&rng_state, buf, size);
}

typedef struct
{
  CtMapping mapping;
  const char *name;             /* videoflip's nick */
  int swaps;                    /* output is HxW */
} Orientation;

static const Orientation orientations[] = {
  {CT_MAPPING_TRANSPOSE, "ul-lr", 1},
  {CT_MAPPING_ROTATE_90R, "90r", 1},
  {CT_MAPPING_ROTATE_90L, "90l", 1},
  {CT_MAPPING_ANTI_TRANSPOSE, "ur-ll", 1},
  {CT_MAPPING_IDENTITY, "identity", 0},
  {CT_MAPPING_FLIP_HORIZONTAL, "horiz", 0},
  {CT_MAPPING_FLIP_VERTICAL, "vert", 0},
  {CT_MAPPING_ROTATE_180, "180", 0},
};

typedef struct
{
  unsigned int width, height;
} Shape;

static const Shape shapes[] = {
  {1, 1}, {1, 7}, {9, 1}, {2, 3}, {31, 33}, {33, 31}, {64, 65}, {100, 37},
  {1, 300}, {257, 3},
};

static const unsigned int elem_sizes[] = { 1, 2, 3, 4, 8 };

/* The expected destination of one plane: poison everywhere, then each
 * element where the reference puts it. */
static void
expect_plane (const Orientation * o, const unsigned char *src,
    size_t src_stride, unsigned int w, unsigned int h, unsigned int es,
    unsigned char *want, size_t dst_stride, size_t dst_size)
{
  memset (want, POISON, dst_size);
  for (unsigned int y = 0; y < h; y++) {
    for (unsigned int x = 0; x < w; x++) {
      unsigned int ox = 0, oy = 0;

      ct_ref_point (o->mapping, w, h, x, y, &ox, &oy);
      memcpy (want + (size_t) oy * dst_stride + (size_t) ox * es,
          src + (size_t) y * src_stride + (size_t) x * es, es);
    }
  }
}

static void
report (int ok, const char *what, const Orientation * o, const Shape * s,
    unsigned int es, const unsigned char *got, const unsigned char *want,
    size_t size)
{
  if (ok) {
    n_passed++;
    return;
  }
  n_failed++;
  for (size_t i = 0; i < size; i++) {
    if (got[i] != want[i]) {
      printf ("FAIL %s %s %ux%u %uB: byte %zu is 0x%02x, expected 0x%02x\n",
          what, o->name, s->width, s->height, es, i, got[i], want[i]);
      return;
    }
  }
  printf ("FAIL %s %s %ux%u %uB: call failed\n", what, o->name, s->width,
      s->height, es);
}

/* One plane through ct_transpose_planes_cpu. */
static void
check_plane (const Orientation * o, const Shape * s, unsigned int es)
{
  unsigned int ow = o->swaps ? s->height : s->width;
  unsigned int oh = o->swaps ? s->width : s->height;
  size_t src_stride = (size_t) s->width * es + 5;
  size_t dst_stride = (size_t) ow * es + 3;
  size_t src_size = src_stride * s->height, dst_size = dst_stride * oh;
  unsigned char *src = malloc (src_size), *dst = malloc (dst_size);
  unsigned char *want = malloc (dst_size);
  CtPlane p = { src, src_stride, dst, dst_stride, s->width, s->height, es };
  CtResult res;

  if (!src || !dst || !want) {
    printf ("FAIL out of memory\n");
    n_failed++;
    goto out;
  }
  fill_random (src, src_size);
  memset (dst, POISON, dst_size);
  expect_plane (o, src, src_stride, s->width, s->height, es, want,
      dst_stride, dst_size);
  res = ct_transpose_planes_cpu (&p, 1, o->mapping);
  report (res == CT_OK && memcmp (dst, want, dst_size) == 0, "plane", o, s,
      es, dst, want, dst_size);
out:
  free (src);
  free (dst);
  free (want);
}

/* Three planes of one shape at fixed steps through
 * ct_transpose_batches_cpu: each plane where it belongs, nothing between. */
static void
check_batch (const Orientation * o, const Shape * s, unsigned int es)
{
  const unsigned int count = 3;
  unsigned int ow = o->swaps ? s->height : s->width;
  unsigned int oh = o->swaps ? s->width : s->height;
  size_t src_stride = (size_t) s->width * es + 1;
  size_t dst_stride = (size_t) ow * es + 2;
  size_t src_step = src_stride * s->height + 7;
  size_t dst_step = dst_stride * oh + 11;
  size_t src_size = src_step * count, dst_size = dst_step * count;
  unsigned char *src = malloc (src_size), *dst = malloc (dst_size);
  unsigned char *want = malloc (dst_size);
  CtPlaneBatch b = { {src, src_stride, dst, dst_stride, s->width, s->height,
          es}, count, src_step, dst_step };
  CtResult res;

  if (!src || !dst || !want) {
    printf ("FAIL out of memory\n");
    n_failed++;
    goto out;
  }
  fill_random (src, src_size);
  memset (dst, POISON, dst_size);
  memset (want, POISON, dst_size);
  for (unsigned int k = 0; k < count; k++)
    expect_plane (o, src + k * src_step, src_stride, s->width, s->height, es,
        want + k * dst_step, dst_stride, dst_step - 11);
  res = ct_transpose_batches_cpu (&b, 1, o->mapping);
  report (res == CT_OK && memcmp (dst, want, dst_size) == 0, "batch", o, s,
      es, dst, want, dst_size);
out:
  free (src);
  free (dst);
  free (want);
}

static void
expect_result (const char *what, CtResult got, CtResult want)
{
  if (got == want) {
    n_passed++;
    return;
  }
  n_failed++;
  printf ("FAIL %s: got %d (%s), expected %d (%s)\n", what, got,
      ct_result_string (got), want, ct_result_string (want));
}

/* The destination stride each orientation needs, and mappings out of
 * range, are refused before anything is written. */
static void
check_arguments (void)
{
  unsigned char src[6 * 4], dst[6 * 4];
  /* 6 wide, 2 high: a transposed row is 2 elements, a kept one 6 */
  CtPlane p = { src, 6, dst, 2, 6, 2, 1 };

  memset (dst, POISON, sizeof (dst));
  expect_result ("transpose into 2-byte rows", ct_transpose_planes_cpu (&p,
          1, CT_MAPPING_TRANSPOSE), CT_OK);
  expect_result ("flip into 2-byte rows", ct_transpose_planes_cpu (&p, 1,
          CT_MAPPING_FLIP_HORIZONTAL), CT_ERROR_INVALID_ARGUMENT);
  p.dst_stride = 6;
  expect_result ("flip into 6-byte rows", ct_transpose_planes_cpu (&p, 1,
          CT_MAPPING_ROTATE_180), CT_OK);
  expect_result ("mapping 8", ct_transpose_planes_cpu (&p, 1,
          (CtMapping) 8), CT_ERROR_INVALID_ARGUMENT);
  expect_result ("mapping -1", ct_transpose_planes_cpu (&p, 1,
          (CtMapping) - 1), CT_ERROR_INVALID_ARGUMENT);
  expect_result ("validate, vert", ct_planes_validate (&p, 1,
          CT_MAPPING_FLIP_VERTICAL), CT_OK);
}

int
main (int argc, char **argv)
{
  uint64_t seed = argc > 1 ? strtoull (argv[1], NULL, 0) : 20261123;
  size_t n_o = sizeof (orientations) / sizeof (orientations[0]);
  size_t n_s = sizeof (shapes) / sizeof (shapes[0]);
  size_t n_e = sizeof (elem_sizes) / sizeof (elem_sizes[0]);

  printf ("seed %" PRIu64 "\n", seed);
  rng_state = seed;
  check_arguments ();
  for (size_t i = 0; i < n_o; i++) {
    for (size_t j = 0; j < n_s; j++) {
      for (size_t k = 0; k < n_e; k++) {
        check_plane (&orientations[i], &shapes[j], elem_sizes[k]);
        check_batch (&orientations[i], &shapes[j], elem_sizes[k]);
      }
    }
  }
  printf ("%d passed, %d failed\n", n_passed, n_failed);
  return n_failed ? 1 : 0;
}
