/* cudatranspose: plane transposes on the GPU and on the CPU.
 *
 * A plain C API that knows nothing of GStreamer. A plane is a 2-D array of
 * fixed-size elements (1, 2, 3, 4 or 8 bytes) addressed by a base pointer and
 * a row stride in bytes. Transposing a WxH plane writes an HxW plane.
 *
 * Every call returns a CtResult: 0 on success, a positive CUDA runtime error
 * code, or a negative CT_ERROR_* code; ct_result_string() names it.
 */
#pragma once

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Same type as cudaStream_t and CUstream, without their headers. */
typedef struct CUstream_st *CtStream;

typedef int CtResult;

#define CT_OK 0
#define CT_ERROR_INVALID_ARGUMENT (-1)
#define CT_ERROR_UNSUPPORTED_ELEMENT_SIZE (-2)
#define CT_ERROR_UNSUPPORTED_KERNEL (-3)
#define CT_ERROR_NO_DRIVER (-4)         /* no libcuda.so.1: no NVIDIA driver */

/* The variants, the one list every other is made from: X (ID, name,
 * summary) gives CT_KERNEL_<ID>, ct_kernel_name()'s name (the element's
 * property nick) and a one-line summary (its gst-inspect text). The seeds
 * and the wide variants are each exactly one kernel and tile, and the
 * same name is the path ct_transpose_batches_ex () reports for them. Their
 * access patterns are described where they are defined, in transpose.cu
 * (the seeds: naive to tiled-64, one launch per plane) and
 * transpose-wide.cu (16-byte accesses, one launch for all planes). */
#define CT_SEED_LIST(X) \
  X (NAIVE, "naive", "One thread per element, coalesced reads, strided " \
      "writes") \
  X (NAIVE_COLUMN, "naive-column", "One thread per element, coalesced " \
      "writes, strided reads") \
  X (TILED, "tiled", "32x32 shared-memory tile, 32x8 threads, unpadded " \
      "(bank conflicts)") \
  X (TILED_PADDED, "tiled-padded", "32x32 shared-memory tile padded to 33 " \
      "columns") \
  X (RECT, "rect", "32x16 shared-memory tile, unpadded") \
  X (RECT_PADDED, "rect-padded", "32x16 shared-memory tile, padded") \
  X (TILED_64, "tiled-64", "64x64 shared-memory tile padded to 65 columns")

#define CT_WIDE_LIST(X) \
  X (WIDE, "wide", "16-byte loads and stores, micro-blocks transposed in " \
      "registers, all planes in one launch") \
  X (WIDE_PADDED, "wide-padded", "wide, through shared memory padded one " \
      "chunk per row group") \
  X (WIDE_SWIZZLE, "wide-swizzle", "wide, through shared memory with an " \
      "XOR swizzle")

#define CT_KERNEL_LIST(X) \
  X (AUTO, "auto", "The fastest GPU path for each plane (measured on an " \
      "H200); the CPU when there is no CUDA device") \
  CT_SEED_LIST (X) \
  CT_WIDE_LIST (X) \
  X (CPU, "cpu", "The plain CPU loop, no GPU")

#define CT_KERNEL_ENUM_VALUE(id, name, summary) CT_KERNEL_##id,
typedef enum
{
  CT_KERNEL_LIST (CT_KERNEL_ENUM_VALUE)
  CT_KERNEL_COUNT
} CtKernel;
#undef CT_KERNEL_ENUM_VALUE

/* The paths, what actually runs: the kernel and tile a plane takes. A
 * named variant takes its own path on every plane it can; a plane no wide
 * tile can take goes the thin or exact way inside the same launch (under
 * 16 rows or columns, or misaligned), and the staged wide variants move
 * 3-byte elements in a tile of their own. Only auto picks among the
 * others, by the planner's table in wide-planner.cuh. A mapping that
 * keeps the axes has no transpose to tile: every GPU variant takes the
 * flip path (flip.cu), or flip-exact where misaligned. */
#define CT_PATH_LIST(X) \
  X (NONE, "none", "Nothing has run yet") \
  CT_SEED_LIST (X) \
  CT_WIDE_LIST (X) \
  X (RGB_TILE, "rgb-tile", "3-byte elements under the staged wide " \
      "variants: a 128x128 tile through shared memory") \
  X (SMALL_TILE, "small-tile", "The wide tile with 4-byte chunks: 16 " \
      "times the blocks on small planes (auto)") \
  X (STREAM, "stream", "One plane, a grid of as many blocks as fit, each " \
      "streaming swizzled tiles (auto)") \
  X (TILE_64, "tile-64", "4-byte elements, a swizzled 64x64 tile per " \
      "block, 8 blocks per multiprocessor (auto)") \
  X (TILE_128, "tile-128", "A byte plane too small to stream, alone: " \
      "a 128x128 tile in registers, 4 or more blocks per multiprocessor " \
      "(auto, where the lines tile cannot)") \
  X (TILE_128_LINES, "tile-128-lines", "A byte plane too small to " \
      "stream, alone, 16-byte aligned: a 128x128 tile staged in shared " \
      "memory, whole 128-byte lines read and written (auto)") \
  X (SKINNY, "skinny", "Byte planes 16 to 64 on their short side, that " \
      "side in one tile (auto, where a plane makes enough of them)") \
  X (THIN, "thin", "Planes under 16 rows or columns: an element per " \
      "thread, coalesced on the long side") \
  X (EXACT, "exact", "Planes no faster path takes where the axes swap " \
      "(misaligned): a 64x64 tile") \
  X (FLIP, "flip", "The directions that keep the axes (180, horiz, vert): " \
      "rows in 16-byte chunks, reversed in registers") \
  X (YUV422, "yuv422", "4:2:2 where the axes swap (a shared-memory " \
      "tile), and packed 4:2:2 mirrored: chroma averaged as videoflip " \
      "does") \
  X (COPY, "copy", "A permutation that moves nothing: one device copy") \
  X (GATHER, "gather", "A permutation keeping the innermost dimension: " \
      "rows moved whole") \
  X (CHANNELS, "channels", "Interleaving or de-interleaving 5 to 16 " \
      "channels through shared memory") \
  X (PIXELS, "pixels", "Interleaving or de-interleaving 2 to 4 channels " \
      "in registers") \
  X (ARITH, "arith", "Arithmetic with any permutation: an element per " \
      "thread, the writes coalesced") \
  X (ARITH_PIXELS, "arith-pixels", "Arithmetic while de-interleaving 1 " \
      "to 4 channels: 4 pixels a thread (1 in small jobs), every side " \
      "in whole words where aligned") \
  X (CPU, "cpu", "The plain CPU loop, no GPU") \
  X (CHANNELS_PACKED, "channels-packed", "Interleaving or de-interleaving " \
      "channels whose rows are not whole 16-byte words (5 to 16, or 2 to " \
      "16 of 4- or 8-byte elements): staged in shared memory as they lie, " \
      "whole 16-byte words out") \
  X (STREAM_WORDS, "stream-words", "One plane of 4-byte elements whose " \
      "rows are not whole 16-byte words: streamed tiles copied in " \
      "elements, written in whole aligned 16-byte words (auto)") \
  X (PIXELS_PACKED, "pixels-packed", "Interleaving or de-interleaving 2 " \
      "to 4 channels of 1- or 2-byte elements whose rows are not whole " \
      "16-byte words: staged as they lie, regrouped in registers") \
  X (FLIP_EXACT, "flip-exact", "The directions that keep the axes on " \
      "planes the flip path cannot take (misaligned): an element per " \
      "thread") \
  X (YUV_TENSOR, "yuv-tensor", "YUV video to an RGB tensor in one pass: " \
      "converted, laid out and through the arithmetic, a thread four " \
      "pixels of two rows") \
  X (YUV_TENSOR_TILES, "yuv-tensor-tiles", "YUV video to an RGB tensor " \
      "whose rows are the frame's columns (turned so the axes swap): the " \
      "one pass through a shared-memory tile, each output row written " \
      "whole") \
  X (YUV_TENSOR_HWC, "yuv-tensor-hwc", "YUV video to a packed RGB " \
      "tensor (HWC), the frame's axes kept: the one pass, a pixel's values " \
      "side by side in 4-value stores, and into float32 each warp's 128 " \
      "pixels of a row laid out in shared memory and written as one run")

#define CT_PATH_ENUM_VALUE(id, name, summary) CT_PATH_##id,
typedef enum
{
  CT_PATH_LIST (CT_PATH_ENUM_VALUE)
  CT_PATH_COUNT
} CtPath;
#undef CT_PATH_ENUM_VALUE

/* Where a source element (x, y) of a WxH plane lands in the output: the
 * eight video orientations. The four that swap the axes (HxW output) are
 * the transpose followed by an optional mirror of the output's columns
 * and/or rows, which every kernel does by where it starts the rows and
 * which way it walks them, at its own speed. The four that keep the axes
 * (WxH output, CT_MAPPING_KEEP_AXES set) are mirrors alone: every GPU
 * variant runs them on the flip path (rows moved or reversed whole). */
typedef enum
{
  CT_MAPPING_TRANSPOSE = 0,             /* (x, y) -> (y, x)          ul-lr */
  CT_MAPPING_ROTATE_90R = 1,            /* (x, y) -> (H-1-y, x)      90r   */
  CT_MAPPING_ROTATE_90L = 2,            /* (x, y) -> (y, W-1-x)      90l   */
  CT_MAPPING_ANTI_TRANSPOSE = 3,        /* (x, y) -> (H-1-y, W-1-x)  ur-ll */
  CT_MAPPING_IDENTITY = 4,              /* (x, y) -> (x, y)       identity */
  CT_MAPPING_FLIP_HORIZONTAL = 5,       /* (x, y) -> (W-1-x, y)      horiz */
  CT_MAPPING_FLIP_VERTICAL = 6,         /* (x, y) -> (x, H-1-y)      vert  */
  CT_MAPPING_ROTATE_180 = 7             /* (x, y) -> (W-1-x, H-1-y)  180   */
} CtMapping;

#define CT_MAPPING_MIRROR_COLUMNS 1     /* bit: output x counted from the right */
#define CT_MAPPING_MIRROR_ROWS 2        /* bit: output y counted from the bottom */
#define CT_MAPPING_KEEP_AXES 4          /* bit: no transpose: the output is WxH */

typedef struct
{
  const void *src;              /* width x height elements */
  size_t src_stride;            /* bytes between source rows */
  void *dst;                    /* height x width elements (width x height
                                 * under CT_MAPPING_KEEP_AXES) */
  size_t dst_stride;            /* bytes between destination rows */
  unsigned int width;           /* source width in elements */
  unsigned int height;          /* source height in rows */
  unsigned int elem_size;       /* 1, 2, 3, 4 or 8 */
} CtPlane;

/* A batch: @count planes of @plane's shape and strides, plane k at
 * plane.src + k * src_step and plane.dst + k * dst_step (bytes); the
 * planes of a tensor's outer dimensions, the frames of a sequence. */
typedef struct
{
  CtPlane plane;
  unsigned int count;
  size_t src_step;
  size_t dst_step;
} CtPlaneBatch;

/* Transposes every plane of the batches on @stream (asynchronous:
 * synchronize the stream before reading the output). Pointers are device
 * pointers. CT_KERNEL_CPU is refused here. Every plane is checked before
 * any is launched, so a refused call writes nothing. Overlapping source and
 * destination are not supported.
 *
 * The wide variants and auto move every plane of up to
 * CT_PLANES_PER_LAUNCH batches in one launch (more batches, or more blocks
 * than a grid holds, take more launches); the seeds launch once per plane.
 * They reach full speed, under every mapping, when each plane's pointers
 * and strides are multiples of 16 bytes (4 for 3-byte elements; 16 on the
 * flip path); other planes take an exact path inside the same launch.
 *
 * With @force other than CT_PATH_NONE, every plane takes that path (a wide
 * one, for a wide variant or auto), and a plane it cannot take fails the
 * call with CT_ERROR_UNSUPPORTED_KERNEL before anything runs; for tests
 * and benchmarks. @ran (may be NULL) gets the path of the call's largest
 * plane: what ran for most of its bytes (CT_PATH_NONE when all are empty).
 * (ct_transpose_planes and ct_transpose_batches, for tests and benchmarks,
 * are in cudatranspose-kernels-tests.h.) */
CtResult ct_transpose_batches_ex (const CtPlaneBatch * batches,
    unsigned int n_batches, CtKernel kernel, CtPath force, CtMapping mapping,
    CtStream stream, CtPath * ran);

/* The plain CPU loop over host pointers (the `cpu` variant); every
 * mapping. */
CtResult ct_transpose_batches_cpu (const CtPlaneBatch * batches,
    unsigned int n_batches, CtMapping mapping);

#define CT_PLANES_PER_LAUNCH 8

/* 4:2:2 video under a mapping, as GStreamer's videoflip does it. Its chroma
 * is subsampled across a row; where the axes swap, the output's rows are
 * the source's columns, so each output chroma sample covers two source
 * rows and takes their mean (rounded down), and each source chroma sample
 * serves two output rows. Two layouts:
 * - CT_422_PACKED (YUY2, UYVY, YVYU): one plane of 4-byte macropixels, two
 *   pixels each, at byte offsets y_offset (the first pixel's luma; the
 *   second's is 2 further), u_offset and v_offset. Every mapping; under
 *   horiz and 180 a macropixel's two lumas trade places, and with an odd
 *   width each output pair takes its chroma from the source macropixel of
 *   its first pixel. The last macropixel of an odd-width output row has
 *   one pixel; its second luma repeats the first.
 * - CT_422_CHROMA_16LE/BE: one chroma plane of planar 4:2:2 with 16-bit
 *   samples (I422_10LE, ..., I422_12BE), (width + 1) / 2 samples a row;
 *   the luma plane is an ordinary 2-byte plane (ct_transpose_batches_ex).
 *   Under the mappings that keep the axes it is an ordinary plane too, and
 *   this call mirrors it as one. Where the axes swap the output plane is
 *   (height + 1) / 2 samples by width rows; a mirrored source column is
 *   counted from the chroma plane's own right edge, as videoflip counts it.
 * width and height are the picture's, in pixels. */
typedef enum
{
  CT_422_PACKED,
  CT_422_CHROMA_16LE,
  CT_422_CHROMA_16BE
} CtLayout422;

typedef struct
{
  const void *src;
  size_t src_stride;
  void *dst;
  size_t dst_stride;
  unsigned int width;
  unsigned int height;
  CtLayout422 layout;
  unsigned int y_offset, u_offset, v_offset;    /* CT_422_PACKED */
} CtPlane422;

/* Every plane of the list on @stream (up to CT_PLANES_PER_LAUNCH in one
 * launch; more take more), device pointers, asynchronous; checked first,
 * so a refused call writes nothing. Full speed where
 * each plane's pointers and strides are multiples of its unit (4 bytes
 * packed, 2 chroma); others move bytes. */
CtResult ct_transpose_422 (const CtPlane422 * planes, unsigned int n_planes,
    CtMapping mapping, CtStream stream);

/* The same on host pointers, a plain loop. */
CtResult ct_transpose_422_cpu (const CtPlane422 * planes,
    unsigned int n_planes, CtMapping mapping);

/* Permutes the dimensions of a dense tensor of rank up to 4 (pad with
 * sizes of 1), element size 1, 2, 4 or 8: @dims are the input's sizes,
 * innermost first; output dimension i is input dimension @perm[i] (the
 * notation of NNStreamer's tensor_transform mode=transpose, so
 * {1, 2, 0, 3} turns HWC, "3:640:480:1", into CHW, "640:480:3:1").
 * Pointers are device pointers, aligned to the element size (else
 * CT_ERROR_INVALID_ARGUMENT); asynchronous on @stream. Each size must fit
 * 32 bits. The fast paths are described in permute.cu. */
CtResult ct_permute (const void *src, void *dst,
    const unsigned long long dims[4], unsigned int elem_size,
    const unsigned int perm[4], CtStream stream);

/* ct_permute, and in @ran (may be NULL) the path it took: copy, gather,
 * channels, pixels, channels-packed, pixels-packed, or that of the 2-D
 * transposes it handed to the planner (auto). */
CtResult ct_permute_ex (const void *src, void *dst,
    const unsigned long long dims[4], unsigned int elem_size,
    const unsigned int perm[4], CtStream stream, CtPath * ran);

/* The same on host pointers, a plain loop. */
CtResult ct_permute_cpu (const void *src, void *dst,
    const unsigned long long dims[4], unsigned int elem_size,
    const unsigned int perm[4]);

/* YUV video to RGB, as GStreamer's videoconvert computes it (its
 * integer arithmetic, not the textbook formula: the two differ by up to
 * 4 for limited-range 8-bit input), so that a frame converted here equals
 * one converted by `videoconvert ! video/x-raw,format=RGB`. planes[] and
 * strides[] are the frame's planes in GStreamer's order (I420: Y, U, V;
 * YV12: Y, V, U; NV12: Y, UV; NV21: Y, VU; P010_10LE and P016_LE: Y, UV in
 * 16-bit little-endian samples; the 4:2:2 and 4:4:4 ones: Y42B, Y444,
 * I422_10LE and Y444_10LE Y, U, V, NV16 and NV24 Y, UV, the 10-bit ones'
 * samples in the low bits of 16-bit little-endian words). How each value
 * is computed is in yuv-rgb-unit.h. */
typedef enum
{
  CT_YUV_I420,
  CT_YUV_YV12,
  CT_YUV_NV12,
  CT_YUV_NV21,
  CT_YUV_P010,
  CT_YUV_P016,
  /* (4:2:0 above, 4:2:2 next, then 4:4:4: ct_yuv_plan counts on the
   * order) */
  CT_YUV_Y42B,
  CT_YUV_NV16,
  CT_YUV_I422_10,
  CT_YUV_Y444,
  CT_YUV_NV24,
  CT_YUV_Y444_10,
  CT_YUV_FORMAT_COUNT
} CtYuvFormat;

/* The colour matrix (GStreamer's GstVideoColorMatrix, the three it
 * converts with Kr and Kb of their standards). */
typedef enum
{
  CT_YUV_BT601,
  CT_YUV_BT709,
  CT_YUV_BT2020,
  CT_YUV_MATRIX_COUNT
} CtYuvMatrix;

/* flags: full-range input (else limited: 16-235 luma, 16-240 chroma);
 * chroma sited on the left pixel of a pair (GStreamer's H_COSITED: the
 * mpeg2, cosited and dv sitings) or on the top row (V_COSITED), else
 * between them */
#define CT_YUV_FULL_RANGE 1
#define CT_YUV_CHROMA_H_COSITED 2
#define CT_YUV_CHROMA_V_COSITED 4

typedef struct
{
  CtYuvFormat format;
  CtYuvMatrix matrix;
  unsigned int flags;
  unsigned int width, height;
  const void *planes[3];
  size_t strides[3];
} CtYuvFrame;

/* Frame @f as packed 8-bit RGB, or BGR with @bgr, into @dst, rows
 * @dst_stride bytes apart: device pointers, asynchronous on @stream; the
 * same values on host pointers with ct_yuv_to_rgb_cpu. */
CtResult ct_yuv_to_rgb (const CtYuvFrame * f, void *dst, size_t dst_stride,
    int bgr, CtStream stream);
CtResult ct_yuv_to_rgb_cpu (const CtYuvFrame * f, void *dst,
    size_t dst_stride, int bgr);

/* Tensor element types, NNStreamer's (float16 has no arithmetic here, as
 * NNStreamer builds without FLOAT16_SUPPORT have none). */
typedef enum
{
  CT_TYPE_INT8,
  CT_TYPE_UINT8,
  CT_TYPE_INT16,
  CT_TYPE_UINT16,
  CT_TYPE_INT32,
  CT_TYPE_UINT32,
  CT_TYPE_INT64,
  CT_TYPE_UINT64,
  CT_TYPE_FLOAT32,
  CT_TYPE_FLOAT64,
  CT_TYPE_COUNT
} CtType;

/* NNStreamer's name of @type ("uint8", "float32", ...), and the type of a
 * name in any case (-1 if none); bytes of an element of @type. */
const char *ct_type_name (CtType type);
int ct_type_from_name (const char *name);
unsigned int ct_type_size (CtType type);

/* Arithmetic as NNStreamer's tensor_transform mode=arithmetic does it, on
 * each input element, in order: the typecast to @out_type (NNStreamer's
 * casts: a float goes to an unsigned type through the signed type of its
 * size; one out of that type's range gives what x86-64 gives, the most
 * negative value, then the bits that fit), then each operation in the
 * output type's arithmetic (integers wrap, divide towards zero; floats
 * round each step, no fused multiply-add) with its operand cast to the
 * output type the same way. An operation with @channel >= 0 applies only
 * to the elements whose coordinate along @channel_dim (input dimension,
 * innermost first; 4 or more: the coordinate is 0) is @channel. */
typedef enum
{
  CT_ARITH_ADD,
  CT_ARITH_MUL,
  CT_ARITH_DIV
} CtArithKind;

typedef struct
{
  CtArithKind kind;
  int channel;                  /* -1: every element */
  int is_float;                 /* the operand was written as a float */
  long long int_value;          /* the operand, as written */
  double float_value;
} CtArithOp;

#define CT_ARITH_MAX_OPS 64

typedef struct
{
  CtType in_type;
  CtType out_type;
  unsigned int channel_dim;
  unsigned int n_ops;
  CtArithOp ops[CT_ARITH_MAX_OPS];
} CtArith;

/* Checks @arith against what the calls below can run: types known, at
 * most CT_ARITH_MAX_OPS operations, no division by an operand that is 0
 * once cast to the output type (NNStreamer skips such a division, or
 * traps). */
CtResult ct_arith_validate (const CtArith * arith);

/* ct_permute with @arith applied to every element on the way: the input
 * holds @arith->in_type elements, the output @arith->out_type elements;
 * @dims and @perm as ct_permute's (perm {0, 1, 2, 3}: the arithmetic
 * alone). Device pointers aligned to their element sizes; asynchronous on
 * @stream; @ran (may be NULL) gets the path. */
CtResult ct_permute_arith (const void *src, void *dst,
    const unsigned long long dims[4], const unsigned int perm[4],
    const CtArith * arith, CtStream stream, CtPath * ran);

/* The same on host pointers, a plain loop, the reference the GPU matches
 * bit for bit. */
CtResult ct_permute_arith_cpu (const void *src, void *dst,
    const unsigned long long dims[4], const unsigned int perm[4],
    const CtArith * arith);

/* YUV frame @f to a tensor in one pass: converted as ct_yuv_to_rgb does
 * (RGB, or BGR with @bgr), turned by @mapping (CT_MAPPING_IDENTITY: as it
 * comes; where the mapping swaps the axes the turned frame is H x W), seen
 * as the turned frame's HWC tensor "3:W':H':1" (per-channel operations
 * along its dimensions 1 and 2 count the turned frame's x and y), laid
 * out by @perm (ct_permute's: output dimension i is input dimension
 * perm[i]) and, with @arith (its in_type uint8), each value through the arithmetic
 * (NULL: uint8 as converted). The values ct_yuv_to_rgb then
 * ct_permute_arith (or ct_permute) give, but for 10- and 16-bit input
 * into a float type (float32, float64), which keeps its precision: each
 * value is videoconvert's 16-bit RGB (what it gives ARGB64_LE, through a
 * matrix scaled to 65535) divided by 257 in the output type, so that the
 * arithmetic sees 0 to 255 as from 8-bit input, then the operations.
 * Device pointers, @dst aligned to the output type; asynchronous on
 * @stream; @ran (may be NULL) gets the path. */
CtResult ct_yuv_to_tensor (const CtYuvFrame * f, int bgr,
    CtMapping mapping, const unsigned int perm[4], const CtArith * arith,
    void *dst, CtStream stream, CtPath * ran);
/* The same values on host pointers, a plain loop. */
CtResult ct_yuv_to_tensor_cpu (const CtYuvFrame * f, int bgr,
    CtMapping mapping, const unsigned int perm[4], const CtArith * arith,
    void *dst);

const char *ct_kernel_name (CtKernel kernel);
const char *ct_path_name (CtPath path);
const char *ct_result_string (CtResult result);

/* The small part of the CUDA runtime the element needs, so that it never
 * includes a CUDA header. All work on the calling thread's current context. */
CtResult ct_stream_create (CtStream * stream);
CtResult ct_stream_destroy (CtStream stream);
CtResult ct_stream_synchronize (CtStream stream);
CtResult ct_device_alloc (void **ptr, size_t bytes);
CtResult ct_device_free (void *ptr);
/* Page-locked (pinned) host memory, usable by every context: copies from
 * and to it run at the link's full speed and truly asynchronously. */
CtResult ct_host_alloc (void **ptr, size_t bytes);
CtResult ct_host_free (void *ptr);
/* Sets *pinned to 1 when @ptr lies in page-locked host memory CUDA knows
 * of (from ct_host_alloc or any other context's), 0 otherwise. */
CtResult ct_host_is_pinned (const void *ptr, int *pinned);
/* A 2-D copy between any two of host and device memory (unified
 * addressing decides the direction). */
CtResult ct_copy_2d_async (void *dst, size_t dst_stride, const void *src,
    size_t src_stride, size_t row_bytes, size_t rows, CtStream stream);

/* Events order work across streams: what @stream enqueues after
 * ct_stream_wait_event runs after the work recorded before @event. An event
 * made with @timed also times (ct_event_elapsed_ms in
 * cudatranspose-kernels-tests.h); untimed ones are cheaper to record and
 * wait on. */
typedef struct CUevent_st *CtEvent;
CtResult ct_event_create (CtEvent * event, int timed);
CtResult ct_event_destroy (CtEvent event);
CtResult ct_event_record (CtEvent event, CtStream stream);
CtResult ct_stream_wait_event (CtStream stream, CtEvent event);
CtResult ct_event_synchronize (CtEvent event);
/* Whether the work recorded before @event is done, without waiting: *done
 * 1 (or 0 while it runs); a failure of that work is returned. */
CtResult ct_event_query (CtEvent event, int *done);

#ifdef __cplusplus
}
#endif
