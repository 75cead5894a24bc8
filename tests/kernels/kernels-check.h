/* What the files of the kernels' test (test-kernels) share, private to it:
 * the tally and the checked CUDA call, the generator and the group filter
 * (test-kernels.c); the mappings and where each sends an element
 * (test-kernels-directions.c); planes, frames, their strides and the
 * harness that runs a frame through every variant (test-kernels-frames.c);
 * and the groups each file runs, called by main in this order: names and
 * argument checks (test-kernels-paths.c), the single-plane shape groups
 * (test-kernels-shapes.c), paths (test-kernels-paths.c), multi-plane
 * frames and batches (test-kernels-batches.c), permutations and channels
 * (test-kernels-permute.c), arithmetic (test-kernels-arith.c), 4:2:2
 * (test-kernels-422.c), contexts
 * (test-kernels-contexts.c). Every random byte comes from the one
 * generator, in the order the groups draw them. */
#pragma once

#include "cudatranspose-kernels-tests.h"
#include "orientation-reference.h"
#include "random-fill.h"

#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PLANES 12
/* Planes start this far apart (plus their shift), like cudaMalloc's. */
#define PLANE_ALIGN 256
/* a gap that leaves a batch's later planes 4 bytes off alignment when the
 * first is aligned */
#define PACK_GAP 4
#define N_ELEMENTS(a) (sizeof (a) / sizeof ((a)[0]))

#define CHECK(call) check_cuda ((call), #call, __FILE__, __LINE__)

/* ---- the tally, the checked call, the generator (test-kernels.c) ---- */

extern int n_passed;
extern int n_failed;

/* Whether group @what is to run (the filter of main's second argument). */
int wanted (const char *what);
/* Seconds since the previous call (the first: since the start). */
double lap_seconds (void);
void stop_if_context_broken (void);
/* Prints and counts a failed CUDA call; returns nonzero on success. */
int check_cuda (cudaError_t err, const char *call, const char *file,
    int line);
uint64_t rng_next (void);
void fill_random (unsigned char *buf, size_t size);
/* One case: @got must be @want. */
void expect_result (const char *what, CtResult got, CtResult want);
/* One case: @s must be a non-empty string. */
void expect_string (const char *what, const char *s);

/* ---- the mappings (test-kernels-directions.c) ---- */

extern const CtMapping all_mappings[4];
extern const CtMapping transpose_only[1];
extern const CtMapping mirrored_mappings[3];
extern const CtMapping flip_mappings[4];
extern const CtMapping all_but_transpose[7];
extern const CtMapping ends[4];
extern const CtMapping every_mapping[8];

const char *mapping_name (CtMapping mapping);
/* Whether @mapping writes a WxH output (no transpose). */
int keeps_axes (CtMapping mapping);
/* Where source (x, y) of a WxH plane lands in the output, and back:
 * ct_ref_point and ct_ref_source (orientation-reference.h). */

/* ---- planes, frames and the harness (test-kernels-frames.c) ---- */

/* Row padding and plane start shifts, in bytes. */
typedef struct
{
  const char *name;
  size_t src_pad;
  size_t dst_pad;
  size_t src_shift;
  size_t dst_shift;
  /* rows rounded up to this many bytes before the pad (0: not rounded) */
  size_t row_align;
} Strides;

enum
{
  STRIDES_ALIGNED,
  STRIDES_ODD,
  STRIDES_ODD_BASE,
  STRIDES_SRC_STRIDE,
  STRIDES_DST_STRIDE,
  STRIDES_SRC_BASE,
  STRIDES_DST_BASE,
  STRIDES_TIGHT,
  STRIDES_SMALL,
  STRIDES_PITCHED,
  STRIDES_PITCHED_4,
  STRIDES_PITCHED_8,
};

typedef struct
{
  unsigned int width;
  unsigned int height;
  unsigned int elem_size;
  size_t src_pad;               /* bytes after each source row */
  size_t dst_pad;               /* bytes after each destination row */
  size_t src_shift;             /* plane start past a PLANE_ALIGN boundary */
  size_t dst_shift;
  size_t row_align;             /* rows rounded up to this first, if not 0 */
} PlaneSpec;

/* Planes packed into one source and one destination allocation. */
typedef struct
{
  char name[128];
  unsigned int n_planes;
  PlaneSpec spec[MAX_PLANES];
  /* 0: one ct_transpose_planes call; else identical planes, laid out
   * evenly, in one ct_transpose_batches call: planes [0, batch_cut) one
   * batch and the rest, if any, another */
  unsigned int batch_cut;
  /* planes after the first PACK_GAP bytes past the one before, instead of
   * at the next PLANE_ALIGN boundary */
  int packed;
  /* filled in by frame_layout () */
  size_t src_stride[MAX_PLANES];
  size_t dst_stride[MAX_PLANES];
  size_t src_offset[MAX_PLANES];
  size_t dst_offset[MAX_PLANES];
  size_t src_size;
  size_t dst_size;
  /* the destination laid out as WxH planes (a mapping that keeps the
   * axes), not HxW */
  int keep_axes;
} Frame;

/* Complementary bit patterns: no byte equals both. */
extern const unsigned char poisons[2];
extern const unsigned int all_sizes[5];
/* indexed by the STRIDES_ values */
extern const Strides strides_table[];
/* run_frame's forced path (the paths group), CT_PATH_NONE elsewhere */
extern CtPath forced_path;

/* Runs every GPU kernel on the frame under each mapping, with both poisons;
 * one case per kernel and mapping. */
void run_frame (Frame * f, const CtMapping * mappings,
    unsigned int n_mappings, cudaStream_t stream);
/* Single-plane frames: every shape x size x strides, under the mappings;
 * skipped unless @what is wanted. */
void run_group (const char *what, const unsigned int (*shapes)[2],
    unsigned int n_shapes, const unsigned int *sizes, unsigned int n_sizes,
    const int *strides, unsigned int n_strides, const CtMapping * mappings,
    unsigned int n_mappings, cudaStream_t stream);

/* ---- the groups, in the order main runs them ---- */

/* names, argument checks (test-kernels-paths.c) */
void test_names (void);
void test_arguments (cudaStream_t stream);
/* small shapes ... skinny byte planes (test-kernels-shapes.c) */
void run_shape_groups (cudaStream_t stream);
/* paths (test-kernels-paths.c) */
void run_paths (cudaStream_t stream);
/* multi-plane frames, batches (test-kernels-batches.c) */
void run_frames (cudaStream_t stream);
void run_batches (cudaStream_t stream);
/* permutations, channels (test-kernels-permute.c) */
void run_permutations (cudaStream_t stream);
void run_channels (cudaStream_t stream);

/* arithmetic fused with permutations (test-kernels-arith.c) */
void run_arith (cudaStream_t stream);
/* 4:2:2 (test-kernels-422.c) */
void run_422 (cudaStream_t stream);
/* contexts (test-kernels-contexts.c) */
void run_contexts (void);
