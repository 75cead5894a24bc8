/* The kernels' test (test-kernels.c): planes of several sizes in one
 * call, as video frames (multi-plane frames), and batches of identical
 * planes in one or two ct_transpose_batches calls (batches). */
#include "kernels-check.h"

/* One call transposing several planes of one allocation, as a video frame. */
void
run_frames (cudaStream_t stream)
{
  /* GstVideoInfo's I420 layout: rows rounded up to 4 bytes, chroma halved
   * and rounded up */
  Frame i420 = {
    .name = "I420 1917x1083 frame",
    .n_planes = 3,
    .spec = {
          {1917, 1083, 1, 3, 1, 0, 0},
          {959, 542, 1, 1, 2, 0, 0},
          {959, 542, 1, 1, 2, 0, 0},
        },
  };
  /* every element size, each taking its native word or the byte path */
  Frame mixed = {
    .name = "mixed 5-plane frame",
    .n_planes = 5,
    .spec = {
          {1917, 1083, 1, 3, 1, 0, 0},
          {959, 542, 2, 2, 4, 0, 0},
          {640, 360, 3, 0, 1, 0, 0},
          {480, 270, 4, 4, 4, 1, 3},
          {479, 271, 8, 8, 8, 0, 0},
        },
  };
  /* rows rounded to 16 bytes: the wide path for each plane, mixed element
   * sizes in one launch, and one misaligned plane among them taking the
   * exact path in the same launch */
  Frame pitched = {
    .name = "pitched mixed 5-plane frame",
    .n_planes = 5,
    .spec = {
          {1917, 1083, 1, 0, 0, 0, 0, 16},
          {959, 542, 2, 0, 16, 0, 0, 16},
          {641, 361, 3, 0, 0, 0, 0, 4},
          {480, 270, 4, 3, 0, 0, 0, 16},
          {479, 271, 8, 0, 0, 0, 0, 16},
        },
  };
  /* more planes than one launch takes (CT_PLANES_PER_LAUNCH) */
  Frame many = {
    .name = "12-plane frame",
    .n_planes = 12,
  };
  int passed = n_passed, failed = n_failed;
  unsigned int i;

  for (i = 0; i < many.n_planes; i++) {
    PlaneSpec s = { 70 + 37 * i, 300 - 19 * i, all_sizes[i % 5], 0, 0, 0, 0,
      16
    };
    many.spec[i] = s;
  }

  run_frame (&i420, every_mapping, N_ELEMENTS (every_mapping), stream);
  run_frame (&mixed, ends, N_ELEMENTS (ends), stream);
  run_frame (&pitched, ends, N_ELEMENTS (ends), stream);
  run_frame (&many, transpose_only, N_ELEMENTS (transpose_only), stream);
  printf ("multi-plane frames: %d cases passed, %d failed (%.1f s)\n",
      n_passed - passed, n_failed - failed, lap_seconds ());
}

/* Batches of identical planes (ct_transpose_batches): every shape x size x
 * strides as MAX_PLANES planes in one batch, in two batches cut unevenly,
 * and packed PACK_GAP apart, so that the steps between planes misalign the
 * later ones (as ct_permute's can); the reference is the planes' own, one
 * at a time. */
static void
run_batch_group (const unsigned int (*shapes)[2], unsigned int n_shapes,
    const int *strides, unsigned int n_strides,
    const CtMapping * mappings, unsigned int n_mappings, cudaStream_t stream)
{
  static const struct
  {
    unsigned int cut;
    int packed;
  } layouts[] = { {MAX_PLANES, 0}, {5, 0}, {MAX_PLANES, 1} };
  int passed = n_passed, failed = n_failed;
  unsigned int i, j, c, k, l;

  if (!wanted ("batches"))
    return;
  for (i = 0; i < n_shapes; i++) {
    for (j = 0; j < N_ELEMENTS (all_sizes); j++) {
      for (c = 0; c < n_strides; c++) {
        for (l = 0; l < N_ELEMENTS (layouts); l++) {
          const Strides *st = &strides_table[strides[c]];
          Frame f;

          memset (&f, 0, sizeof (f));
          f.n_planes = MAX_PLANES;
          f.batch_cut = layouts[l].cut;
          f.packed = layouts[l].packed;
          for (k = 0; k < f.n_planes; k++) {
            PlaneSpec s = { shapes[i][0], shapes[i][1], all_sizes[j],
              st->src_pad, st->dst_pad, st->src_shift, st->dst_shift,
              st->row_align
            };
            f.spec[k] = s;
          }
          snprintf (f.name, sizeof (f.name), "%u batched %ux%u %u-byte "
              "planes, cut at %u, %s, %s strides", f.n_planes, shapes[i][0],
              shapes[i][1], all_sizes[j], f.batch_cut, f.packed ?
              "packed" : "aligned starts", st->name);
          run_frame (&f, mappings, n_mappings, stream);
        }
      }
    }
  }
  printf ("batches: %d cases passed, %d failed (%.1f s)\n", n_passed - passed,
      n_failed - failed, lap_seconds ());
}

/* The batches group: run_batch_group on tile edges, thin planes and the
 * small byte tile, under the transpose, the anti-transpose, the copy and
 * the 180 (ends). */
void
run_batches (cudaStream_t stream)
{
  /* batched planes: tile edges, thin planes and the small byte tile */
  static const unsigned int batch_shapes[][2] = {
    {33, 65}, {257, 255}, {513, 70}, {5, 700}, {700, 9}, {64, 64},
    {700, 40}, {40, 700},
  };
  /* (the streamed groups' strides) */
  static const int stream_strides[] = { STRIDES_PITCHED, STRIDES_ODD_BASE };

  run_batch_group (batch_shapes, N_ELEMENTS (batch_shapes), stream_strides,
      N_ELEMENTS (stream_strides), ends, N_ELEMENTS (ends), stream);
}
