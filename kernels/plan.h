/* cudatranspose: the planners of the one-launch families as functions of
 * the call and the device's properties alone, so that their choices are
 * checked without a GPU: the wide variants' and auto's (wide-planner.cuh,
 * for transpose-wide.cu; tests/kernels/test-planner.c), the seeds'
 * (plan-seed.c, for transpose.cu; tests/kernels/test-plan-seed.c) and the
 * flips' (plan-flip.c, for flip.cu; tests/kernels/test-plan-flip.c).
 * Internal to the kernels and their tests and benches: the element never
 * plans, so this is not in cudatranspose-kernels.h. The permutations'
 * planner (plan-permute.c, for permute.cu;
 * tests/kernels/test-plan-permute.c), the arithmetic's (plan-arith.c, for
 * arith.cu) and the 4:2:2 transposes' (plan-422.c, for yuv422.cu;
 * tests/kernels/test-plan-422.c) too; the YUV one pass's has its own
 * header, plan-yuv.h. */
#pragma once

/* (the checks the planners make, ct_planes_validate and the others, are
 * declared with the entry points for tests) */
#include "cudatranspose-kernels-tests.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the planner knows of a device; a launch reads it from the current
 * one (cudaDevAttr* in brackets). */
typedef struct
{
  size_t max_smem;              /* opt-in dynamic shared memory per block
                                 * (MaxSharedMemoryPerBlockOptin) */
  size_t smem_per_sm;           /* shared memory of a multiprocessor
                                 * (MaxSharedMemoryPerMultiprocessor) */
  size_t smem_reserved;         /* of it, the system's per block
                                 * (ReservedSharedMemoryPerBlock) */
  unsigned int n_sms;           /* multiprocessors (MultiProcessorCount) */
  size_t l2_bytes;              /* the L2 cache (L2CacheSize) */
} CtPlanDevice;

/* The current device as the planners see it, its attributes cached per
 * device; a CUDA error where one cannot be read. */
CtResult ct_device_now (CtPlanDevice * dev);

/* @a / @b rounded up (grid sizes); @b > 0. */
static inline unsigned long long
ct_plan_div_up (unsigned long long a, unsigned long long b)
{
  return (a + b - 1) / b;
}

/* Batch @b's pointers, strides and steps (those only with more than one
 * plane) ORed: its alignment, as every planner reads it. */
static inline uintptr_t
ct_plan_batch_bits (const CtPlaneBatch * b)
{
  return (uintptr_t) b->plane.src | (uintptr_t) b->plane.dst |
      (uintptr_t) b->plane.src_stride | (uintptr_t) b->plane.dst_stride |
      (b->count > 1 ? (uintptr_t) (b->src_step | b->dst_step) : 0);
}

/* For tests and benchmarks: the paths ct_transpose_batches_ex would run
 * for @batches under @kernel (auto or a wide variant) and @force, under a
 * mapping that swaps the axes (those that keep them are flip.cu's), on a
 * device @dev; no CUDA call is made. @paths (n_batches of them) gets each
 * batch's path, CT_PATH_NONE for an empty one; @ran (may be NULL) the
 * largest's, as ct_transpose_batches_ex reports it. Returns what that call
 * would before launching anything: ct_planes_validate's refusal of an
 * invalid plane; CT_ERROR_UNSUPPORTED_KERNEL for a seed or cpu (their
 * path is their name, not planned) or a forced path that is not the
 * planner's or cannot take a batch; CT_ERROR_INVALID_ARGUMENT for a plane
 * of more blocks than a grid holds. */
CtResult ct_plan_batches (const CtPlanDevice * dev,
    const CtPlaneBatch * batches, unsigned int n_batches, CtKernel kernel,
    CtPath force, CtPath * paths, CtPath * ran);

/* For tests: ct_launch_two_levels' checks and planning on @dev (no CUDA
 * call): its result, and in *@one_launch whether the @n copies of @b
 * (copy i src_step2 and dst_step2 bytes on) run as one launch; *@ran (may
 * be NULL) as ct_plan_batches. */
CtResult ct_plan_two_levels (const CtPlanDevice * dev,
    const CtPlaneBatch * b, unsigned int n, size_t src_step2,
    size_t dst_step2, int *one_launch, CtPath * ran);

/* The seed variants (transpose.cu: naive, naive-column and the tiled
 * ones, each a kernel the user names, a plane a launch) plan here
 * (plan-seed.c); the numbers both sides share: a block of
 * CT_SEED_BLOCK_X x CT_SEED_BLOCK_Y threads (ct::kBlockX x ct::kBlockY),
 * and the tiled ones' source tiles, CT_SEED_TILES(X) as X (kernel, tile
 * width, tile height, elements of shared-memory padding after each tile
 * row), which transpose.cu instantiates. */
#define CT_SEED_BLOCK_X 32
#define CT_SEED_BLOCK_Y 8
#define CT_SEED_TILES(X) \
  X (TILED, 32, 32, 0) \
  X (TILED_PADDED, 32, 32, 1) \
  X (RECT, 32, 16, 0) \
  X (RECT_PADDED, 32, 16, 2) \
  X (TILED_64, 64, 64, 1)

typedef struct
{
  /* the elements a block moves at a time, across by down: the naive
   * kernels' block (an element a thread; naive-column's block lies across
   * the source's rows: its warps run down a source column), the tiled
   * ones' source tile */
  unsigned int tile_w, tile_h;
  unsigned int pad;             /* the tiled ones' padding (above) */
  /* blocks: across the source's columns (naive-column: its rows), a
   * tile's width each; down its rows (columns), a tile's height each, no
   * more than a grid's y takes (the blocks loop over the rest) */
  unsigned int grid[2];
  int words;                    /* elements moved as native words (1-,
                                 * 2-, 4- or 8-byte elements whose
                                 * pointers and strides are multiples of
                                 * the size), else as bytes (3-byte ones,
                                 * the misaligned) */
} CtSeedPlan;

/* Plans plane @plane (not empty, valid: ct_planes_validate) under seed
 * @kernel, whichever mapping that swaps the axes (a mirror moves a start
 * by whole strides and turns a stride's sign, which leaves the alignment
 * as it was). Returns 0, @plan undefined, for a kernel that is not a
 * seed; else 1. */
int ct_plan_seed (const CtPlane * plane, CtKernel kernel, CtSeedPlan * plan);

/* The flips (flip.cu: the mappings that keep the axes) plan on the host,
 * here, and the kernels read the plan; the numbers both sides share: */
#define CT_PLAN_THREADS 256             /* a block (ct::kThreads) */
#define CT_PLAN_MAX_GRID_X 0x7fffffffull        /* ct::kMaxGridX */
#define CT_FLIP_EXACT_PER_THREAD 4      /* elements a thread, the exact way */
#define CT_FLIP_UNIT_BYTES 16           /* a unit of the flip way */
#define CT_FLIP_UNITS_PER_THREAD 4      /* units a thread */
#define CT_FLIP_UNIT3_BYTES 48          /* the same for 3-byte elements */
#define CT_FLIP_UNITS3_PER_THREAD 1

/* How the flip family moves one batch of planes. */
typedef struct
{
  CtPlane plane;                /* as the kernel sees it: rows of bytes where
                                 * the mapping keeps the order in a row and
                                 * the batch is aligned to 16 bytes */
  unsigned int units;           /* per row: units, or elements (exact) */
  unsigned int seg;             /* units of a row one block moves */
  unsigned int segs;            /* blocks across a row */
  unsigned int rows;            /* rows one block moves */
  unsigned int blocks;          /* per plane */
  unsigned char exact;          /* the exact way, an element per slot */
  unsigned char words;          /* exact: native words (else bytes) */
  unsigned char narrow;         /* the kernel for 1- to 3-byte elements */
  CtPath path;                  /* CT_PATH_FLIP or CT_PATH_FLIP_EXACT */
} CtFlipPlan;

/* Plans batch @b (not empty, valid: ct_planes_validate) under @mapping,
 * one with CT_MAPPING_KEEP_AXES, and @force (CT_PATH_NONE, or the path to
 * take). The flip way needs the batch's pointers, strides and steps
 * (@b.count > 1) multiples of 16 bytes; otherwise, or forced, the exact
 * way. Returns 0, @plan undefined, where @force is neither path, the flip
 * way is forced on a batch it cannot take, or a plane takes more blocks
 * than a grid holds; else 1. */
int ct_plan_flip (const CtPlaneBatch * b, CtMapping mapping, CtPath force,
    CtFlipPlan * plan);

/* A permutation of up to four dimensions simplified to what really moves:
 * sizes of 1 dropped, input neighbours that stay neighbours in the output
 * merged. Output dimension i is input dimension p[i]; d[] innermost
 * first. */
typedef struct
{
  int rank;
  unsigned long long d[4];
  int p[4];
} CtShape;

CtShape ct_shape_simplify (const unsigned long long dims[4],
    const unsigned int perm[4]);
/* Strides in elements of the input and of the output, by input dimension;
 * 0 past the rank. */
void ct_shape_strides (const CtShape * s, unsigned long long in[4],
    unsigned long long out[4]);

/* The permutations (permute.cu) plan here (plan-permute.c); the numbers
 * both sides share: */
#define CT_PERMUTE_CHANNELS 16          /* most channels k_channels takes */
#define CT_PERMUTE_CHANNELS_SMEM (20 * 1024)    /* its shared memory */
#define CT_PERMUTE_PIXEL_CHANNELS 4     /* most channels k_pixels takes */
#define CT_PERMUTE_PACKED_SMEM (25 * 1024)      /* the packed kernels' */
/* the blocks under which the packed kernels take smaller segments: a wave
 * of 8 per multiprocessor on a GPU of 128 */
#define CT_PERMUTE_PACKED_BLOCKS 1024
#define CT_PERMUTE_GATHER_GRID (1u << 20)       /* k_gather's grid, at most */
#define CT_PLAN_MAX_GRID_Y 65535        /* ct::kMaxGridY */

/* Which kernel a permutation takes. */
typedef enum
{
  CT_PERMUTE_RUN_COPY,          /* no permutation: one copy */
  CT_PERMUTE_RUN_GATHER,        /* the innermost dimension stays */
  CT_PERMUTE_RUN_PIXELS,        /* 2 to 4 channels, aligned (16 or 4) */
  CT_PERMUTE_RUN_CHANNELS,      /* up to 16 channels, aligned */
  CT_PERMUTE_RUN_PIXELS_PACKED, /* 2 to 4 channels of 1 or 2 bytes, any */
  CT_PERMUTE_RUN_CHANNELS_PACKED,       /* up to 16 channels, any */
  CT_PERMUTE_RUN_PLANES         /* the transposes' planner, a batch of
                                 * planes */
} CtPermuteRun;

/* A batch of 2-D transposes between the innermost input dimension and the
 * one that becomes innermost: element (x, y) at y * src_stride + x in the
 * input and x * dst_stride + y in the output, over up to two batch
 * dimensions (n1 by n2, offsets in elements). */
typedef struct
{
  unsigned long long width, height, src_stride, dst_stride;
  unsigned int n1, n2;
  unsigned long long src1, dst1, src2, dst2;
} CtPermutePlane;

typedef struct
{
  CtPermuteRun run;
  CtPath path;                  /* what the call reports (RUN_PLANES: the
                                 * transposes' planner's, not known here) */
  CtShape shape;
  unsigned long long bytes;     /* RUN_COPY */
  /* RUN_GATHER: rows moved in words of @word bytes; output sizes in
   * words, innermost first, and the input stride of each, in words.
   * RUN_PIXELS: a channel's group of pixels is @word bytes (16 or 4) */
  unsigned int word;
  unsigned long long d_out[4], src_of[4], total;
  /* the plane kernels */
  CtPermutePlane plane;
  int to_interleaved;           /* the channels go to the inner side */
  unsigned int channels;
  unsigned int seg_shift;       /* a block's segment: 2^seg_shift bytes */
  unsigned int smem;            /* dynamic shared memory, bytes */
  unsigned int grid[3];
} CtPermutePlan;

/* Plans ct_permute_ex's call: its checks (a CtResult other than CT_OK
 * where it refuses one), then the kernel and its launch. */
CtResult ct_plan_permute (const void *src, const void *dst,
    const unsigned long long dims[4], unsigned int elem_size,
    const unsigned int perm[4], CtPermutePlan * plan);

/* RUN_PLANES: how many batches the transposes' planner gets, and batch @k
 * of them on @src and @dst: the larger batch dimension is each batch's
 * count and the smaller one the batches, so that a launch holds as many
 * planes as it can. */
unsigned int ct_permute_plane_batches (const CtPermutePlan * plan);
/* RUN_PLANES: bytes from batch k's planes to batch k + 1's (the smaller
 * batch dimension's step), in the input and the output. */
void ct_permute_plane_steps (const CtPermutePlan * plan, unsigned int es,
    size_t *src_step, size_t *dst_step);
void ct_permute_plane_batch (const CtPermutePlan * plan, const void *src,
    void *dst, unsigned int elem_size, unsigned int k, CtPlaneBatch * b);

/* The fused arithmetic (arith.cu) plans here (plan-arith.c); the numbers
 * both sides share: */
#define CT_ARITH_PIXEL_CHANNELS 4       /* most channels the pixels kernel
                                         * takes */
#define CT_ARITH_PIXEL_STEPS 16         /* most steps of its program */
#define CT_ARITH_SHORT_PIXEL_STEPS 3    /* its program's short form */
#define CT_ARITH_SHORT_ANY_OPS 4        /* the any kernel's short form */
#define CT_ARITH_PIXELS_PER_THREAD 4    /* a thread's pixels, but in jobs
                                         * that do not fill the GPU: */
#define CT_ARITH_ONE_PIXEL_BELOW 2      /* blocks a multiprocessor (at 4
                                         * pixels a thread) under which a
                                         * thread takes 1 */
#define CT_ARITH_TWO_PIXELS_BELOW 8     /* ... and 2 */
#define CT_ARITH_ANY_BLOCKS 65536       /* the any kernel's grid, at most */

/* A step of the pixels kernel's program: one kind of operation on the
 * channels in @mask; channel c takes the operand of operation @op[c] of
 * the CtArith (runs of one kind on distinct single channels merged). */
typedef struct
{
  unsigned char kind;
  unsigned char mask;
  unsigned char op[CT_ARITH_PIXEL_CHANNELS];
} CtArithStep;

typedef struct
{
  int pixels;                   /* the pixels kernel; else the any kernel */
  CtPath path;                  /* CT_PATH_ARITH_PIXELS or CT_PATH_ARITH */
  /* an operation's channel: (input index / ch_size) % n_ch; n_ch 0 where
   * no operation is for one channel */
  unsigned long long ch_size, n_ch;
  /* the pixels kernel: input [batches][n_pixels][channels], output
   * [batches][channels][n_pixels] */
  unsigned int channels;
  unsigned long long n_pixels;
  unsigned int batches;
  int word_loads;               /* the input allows 4-byte loads */
  int quad_stores;              /* the output allows 4-element stores */
  unsigned int n_steps;
  CtArithStep steps[CT_ARITH_PIXEL_STEPS];
  unsigned int per_thread;      /* pixels a thread: 1, 2 or 4 */
  unsigned int grid[2];
  /* the any kernel: output sizes, innermost first, and the input stride
   * of each, in elements */
  unsigned long long d_out[4], src_of[4], total;
  unsigned int blocks;
  int wide_index;               /* total past 32-bit indices */
  int short_program;            /* the program's short form fits */
} CtArithPlan;

/* Plans ct_permute_arith's call, and ct_permute_arith_cpu's (which reads
 * the kernel, the shape and the program): the call's checks, memory aside
 * (a CtResult other than CT_OK where it refuses one), then the kernel and
 * its launch, for a GPU too large for a job to leave it half empty. */
CtResult ct_plan_arith (const void *src, const void *dst,
    const unsigned long long dims[4], const unsigned int perm[4],
    const CtArith * arith, CtArithPlan * plan);
/* The pixels a thread and the grid of @plan's pixels kernel on a device of
 * @n_sms multiprocessors. */
void ct_plan_arith_device (CtArithPlan * plan, unsigned int n_sms);

/* The 4:2:2 transposes (yuv422.cu) plan here (plan-422.c), a launch of up
 * to CT_PLANES_PER_LAUNCH planes (blockIdx.z the plane); the numbers both
 * sides share: where the axes swap, a block of CT_422_TILE_UNITS x
 * CT_422_ROWS_Y threads makes an output tile of CT_422_TILE_UNITS units by
 * CT_422_TILE_ROWS rows; where they stay, a block of CT_422_UNITS_X x
 * CT_422_ROWS_Y threads, a unit each. */
#define CT_422_TILE_UNITS 32
#define CT_422_TILE_ROWS 64
#define CT_422_UNITS_X 32
#define CT_422_ROWS_Y 8
/* a plane's source (CT_422_SRC_ALIGNED) and output (CT_422_DST_ALIGNED)
 * rows start on whole units (4-byte macropixels, 2-byte samples): whole
 * units move as one */
#define CT_422_SRC_ALIGNED 1
#define CT_422_DST_ALIGNED 2

typedef struct
{
  int swap;                     /* the tile kernel (the axes swap), else a
                                 * unit a thread */
  unsigned char aligned[CT_PLANES_PER_LAUNCH];  /* CT_422_*_ALIGNED */
  /* blocks: across the largest output row's units, down its rows (no
   * more than a grid's y takes: the blocks loop over the rest), a plane
   * each; none where every plane is empty (no launch) */
  unsigned int grid[3];
} CtPlan422;

/* Plans the launch of @n planes (1 to CT_PLANES_PER_LAUNCH, checked
 * already: ct_422_validate) under @mapping. */
void ct_plan_422 (const CtPlane422 * planes, unsigned int n,
    CtMapping mapping, CtPlan422 * plan);

#ifdef __cplusplus
}
#endif
