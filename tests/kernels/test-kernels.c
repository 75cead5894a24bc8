/* cudatranspose: the kernels' C API against a per-element reference loop.
 *
 * Every GPU variant runs on random planes of every element size, with padded,
 * odd and offset strides and every mapping, then on multi-plane frames and
 * on planes tall or wide enough to make the kernels loop past the grid's y
 * limit. Each run happens twice, over a destination poisoned with 0xa5 and
 * then with 0x5a, and the whole destination allocation (the planes, their row
 * padding, the gaps before them and a guard after them) must equal the
 * reference byte for byte: a byte a kernel failed to write, or wrote where
 * it should not, cannot match under both poisons.
 *
 * Exit status: 0 all passed, 1 something failed, 77 no CUDA device (skip).
 * An optional argument replaces the random seed; a second one, a list of
 * words separated by '|', runs only the groups whose names contain one of
 * them, e.g. "large shapes, flips|4:2:2" (compute-sanitizer's racecheck
 * runs the groups in parallel processes this way: tools/gpu-host.sh).
 */
#include "cudatranspose-kernels.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_PLANES 12
/* Mismatches past this many are counted but not printed. */
#define MAX_REPORTS 20
/* Poisoned bytes after the last destination plane catch overruns. */
#define GUARD_BYTES 256
/* Planes start this far apart (plus their shift), like cudaMalloc's. */
#define PLANE_ALIGN 256
/* a gap that leaves a batch's later planes 4 bytes off alignment when the
 * first is aligned */
#define PACK_GAP 4
#define DEFAULT_SEED UINT64_C (0x9e3779b97f4a7c15)
#define N_ELEMENTS(a) (sizeof (a) / sizeof ((a)[0]))

#define CHECK(call) check_cuda ((call), #call, __FILE__, __LINE__)

static int n_passed;
static int n_failed;
static int n_reports;
static uint64_t rng_state;
static const char *only_groups;
/* run_frame's forced path (the paths group), CT_PATH_NONE elsewhere */
static CtPath forced_path = CT_PATH_NONE;

/* Complementary bit patterns: no byte equals both. */
static const unsigned char poisons[2] = { 0xa5, 0x5a };

static const CtKernel gpu_kernels[] = {
  CT_KERNEL_AUTO, CT_KERNEL_NAIVE, CT_KERNEL_NAIVE_COLUMN, CT_KERNEL_TILED,
  CT_KERNEL_TILED_PADDED, CT_KERNEL_RECT, CT_KERNEL_RECT_PADDED,
  CT_KERNEL_TILED_64, CT_KERNEL_WIDE, CT_KERNEL_WIDE_PADDED,
  CT_KERNEL_WIDE_SWIZZLE,
};

static const unsigned int all_sizes[] = { 1, 2, 3, 4, 8 };

static const CtMapping all_mappings[] = {
  CT_MAPPING_TRANSPOSE, CT_MAPPING_ROTATE_90R, CT_MAPPING_ROTATE_90L,
  CT_MAPPING_ANTI_TRANSPOSE,
};

static const CtMapping transpose_only[] = { CT_MAPPING_TRANSPOSE };

static const CtMapping mirrored_mappings[] = {
  CT_MAPPING_ROTATE_90R, CT_MAPPING_ROTATE_90L, CT_MAPPING_ANTI_TRANSPOSE,
};

/* The mappings that keep the axes: the flip path (and exact). */
static const CtMapping flip_mappings[] = {
  CT_MAPPING_IDENTITY, CT_MAPPING_FLIP_HORIZONTAL, CT_MAPPING_FLIP_VERTICAL,
  CT_MAPPING_ROTATE_180,
};

/* The seven that are not the plain transpose. */
static const CtMapping all_but_transpose[] = {
  CT_MAPPING_ROTATE_90R, CT_MAPPING_ROTATE_90L, CT_MAPPING_ANTI_TRANSPOSE,
  CT_MAPPING_IDENTITY, CT_MAPPING_FLIP_HORIZONTAL, CT_MAPPING_FLIP_VERTICAL,
  CT_MAPPING_ROTATE_180,
};

/* Both mirrors or none, with the axes swapped or kept: the plain
 * transpose, the anti-transpose, a copy and the 180 (rows mirrored and
 * reversed). */
static const CtMapping ends[] = {
  CT_MAPPING_TRANSPOSE, CT_MAPPING_ANTI_TRANSPOSE, CT_MAPPING_IDENTITY,
  CT_MAPPING_ROTATE_180,
};

/* All eight. */
static const CtMapping every_mapping[] = {
  CT_MAPPING_TRANSPOSE, CT_MAPPING_ROTATE_90R, CT_MAPPING_ROTATE_90L,
  CT_MAPPING_ANTI_TRANSPOSE, CT_MAPPING_IDENTITY, CT_MAPPING_FLIP_HORIZONTAL,
  CT_MAPPING_FLIP_VERTICAL, CT_MAPPING_ROTATE_180,
};

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

static const Strides strides_table[] = {
  /* multiples of 256: 2-, 4- and 8-byte elements move as native words */
  {"aligned", 256, 512, 0, 0, 0},
  /* odd strides misalign every row after the first: byte-array fallback */
  {"odd pads", 1, 3, 0, 0, 0},
  /* aligned strides from odd device pointers (base + 1) */
  {"odd base", 256, 768, 1, 1, 0},
  /* one of the four misaligned at a time, each alone forcing the byte path
   * for some sizes: odd source stride; destination stride 2 mod 4 (4 and 8
   * bytes); source base + 2 (4 and 8 bytes); destination base + 4 (8) */
  {"odd source stride", 1, 256, 0, 0, 0},
  {"destination stride 2 mod 4", 8, 258, 0, 0, 0},
  {"source base +2", 256, 256, 2, 0, 0},
  {"destination base +4", 256, 256, 0, 4, 0},
  /* stride == row, the smallest one accepted */
  {"tight", 0, 0, 0, 0, 0},
  /* for planes of millions of rows, where 256 bytes a row is too much */
  {"small", 8, 8, 0, 0, 0},
  /* rows rounded to 16 bytes (the wide kernels' fast path), one with an
   * extra 16 bytes of padding */
  {"pitched", 0, 16, 0, 0, 16},
  /* rows rounded to 4 bytes, as GStreamer lays out system memory: the
   * wide path for 3-byte elements, the exact path for the others */
  {"pitched 4", 0, 0, 0, 0, 4},
  /* 16-byte rows but a plane start 8 bytes past a boundary */
  {"pitched, base +8", 0, 0, 8, 8, 16},
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

/* Whether group @what is to run (only_groups). */
static int
wanted (const char *what)
{
  const char *at = only_groups;

  while (at != NULL && *at) {
    const char *end = strchr (at, '|');
    size_t len = end ? (size_t) (end - at) : strlen (at);
    char word[64];

    if (len > 0 && len < sizeof (word)) {
      memcpy (word, at, len);
      word[len] = '\0';
      if (strstr (what, word) != NULL)
        return 1;
    }
    at = end ? end + 1 : NULL;
  }
  return only_groups == NULL;
}

/* Seconds since the previous call (the first: since the start). */
static double
lap_seconds (void)
{
  static struct timespec last;
  struct timespec now;
  double d;

  clock_gettime (CLOCK_MONOTONIC, &now);
  d = last.tv_sec == 0 ? 0 : (now.tv_sec - last.tv_sec) +
      (now.tv_nsec - last.tv_nsec) / 1e9;
  last = now;
  return d;
}

static void
print_summary (void)
{
  printf ("%d passed, %d failed\n", n_passed, n_failed);
}

/* After a kernel fault the context is dead and every later call would fail
 * too, so stop there rather than report thousands of copies of it. */
static void
stop_if_context_broken (void)
{
  cudaError_t err;

  (void) cudaGetLastError ();
  err = cudaDeviceSynchronize ();
  if (err != cudaSuccess) {
    printf ("the CUDA context is unusable (%s); stopping\n",
        cudaGetErrorString (err));
    print_summary ();
    exit (1);
  }
}

/* Prints and counts a failed CUDA call; returns nonzero on success. */
static int
check_cuda (cudaError_t err, const char *call, const char *file, int line)
{
  if (err == cudaSuccess)
    return 1;
  printf ("%s:%d: %s: %s\n", file, line, call, cudaGetErrorString (err));
  n_failed++;
  stop_if_context_broken ();
  return 0;
}

/* xorshift64*: a fixed seed makes any failure reproducible. */
static uint64_t
rng_next (void)
{
  uint64_t x = rng_state;

  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  rng_state = x;
  return x * UINT64_C (0x2545f4914f6cdd1d);
}

static void
fill_random (unsigned char *buf, size_t size)
{
  size_t i;

  for (i = 0; i < size; i += 8) {
    uint64_t r = rng_next ();
    size_t n = size - i < 8 ? size - i : 8;

    memcpy (buf + i, &r, n);
  }
}

static const char *
mapping_name (CtMapping mapping)
{
  switch (mapping) {
    case CT_MAPPING_TRANSPOSE:
      return "transpose";
    case CT_MAPPING_ROTATE_90R:
      return "rotate-90r";
    case CT_MAPPING_ROTATE_90L:
      return "rotate-90l";
    case CT_MAPPING_ANTI_TRANSPOSE:
      return "anti-transpose";
    case CT_MAPPING_IDENTITY:
      return "identity";
    case CT_MAPPING_FLIP_HORIZONTAL:
      return "flip-horizontal";
    case CT_MAPPING_FLIP_VERTICAL:
      return "flip-vertical";
    case CT_MAPPING_ROTATE_180:
      return "rotate-180";
    default:
      break;
  }
  return "invalid";
}

/* Whether @mapping writes a WxH output (no transpose). */
static int
keeps_axes (CtMapping mapping)
{
  return mapping == CT_MAPPING_IDENTITY ||
      mapping == CT_MAPPING_FLIP_HORIZONTAL ||
      mapping == CT_MAPPING_FLIP_VERTICAL || mapping == CT_MAPPING_ROTATE_180;
}

/* Where source (x, y) of a WxH plane lands in the output (HxW, or WxH for
 * the mappings that keep the axes), spelled out per mapping from the
 * header's table rather than from its mirror bits. */
static void
map_point (CtMapping mapping, unsigned int w, unsigned int h,
    unsigned int x, unsigned int y, unsigned int *ox, unsigned int *oy)
{
  switch (mapping) {
    case CT_MAPPING_ROTATE_90R:
      /* clockwise: the top-left corner goes to the top-right */
      *ox = h - 1 - y;
      *oy = x;
      break;
    case CT_MAPPING_ROTATE_90L:
      /* counter-clockwise: the top-left corner goes to the bottom-left */
      *ox = y;
      *oy = w - 1 - x;
      break;
    case CT_MAPPING_ANTI_TRANSPOSE:
      *ox = h - 1 - y;
      *oy = w - 1 - x;
      break;
    case CT_MAPPING_IDENTITY:
      *ox = x;
      *oy = y;
      break;
    case CT_MAPPING_FLIP_HORIZONTAL:
      *ox = w - 1 - x;
      *oy = y;
      break;
    case CT_MAPPING_FLIP_VERTICAL:
      *ox = x;
      *oy = h - 1 - y;
      break;
    case CT_MAPPING_ROTATE_180:
      *ox = w - 1 - x;
      *oy = h - 1 - y;
      break;
    default:
      *ox = y;
      *oy = x;
      break;
  }
}

/* The inverse, to name the source element of a wrong output element. */
static void
unmap_point (CtMapping mapping, unsigned int w, unsigned int h,
    unsigned int ox, unsigned int oy, unsigned int *x, unsigned int *y)
{
  switch (mapping) {
    case CT_MAPPING_ROTATE_90R:
      *x = oy;
      *y = h - 1 - ox;
      break;
    case CT_MAPPING_ROTATE_90L:
      *x = w - 1 - oy;
      *y = ox;
      break;
    case CT_MAPPING_ANTI_TRANSPOSE:
      *x = w - 1 - oy;
      *y = h - 1 - ox;
      break;
    case CT_MAPPING_IDENTITY:
      *x = ox;
      *y = oy;
      break;
    case CT_MAPPING_FLIP_HORIZONTAL:
      *x = w - 1 - ox;
      *y = oy;
      break;
    case CT_MAPPING_FLIP_VERTICAL:
      *x = ox;
      *y = h - 1 - oy;
      break;
    case CT_MAPPING_ROTATE_180:
      *x = w - 1 - ox;
      *y = h - 1 - oy;
      break;
    default:
      *x = oy;
      *y = ox;
      break;
  }
}

static size_t
round_up (size_t v, size_t align)
{
  return (v + align - 1) / align * align;
}

/* A WxH source plane has H rows; its HxW destination has W rows (WxH and
 * H rows when @keep_axes). */
static void
frame_layout (Frame * f, int keep_axes)
{
  size_t src_end = 0, dst_end = 0;
  unsigned int i;

  for (i = 0; i < f->n_planes; i++) {
    const PlaneSpec *s = &f->spec[i];

    size_t align = s->row_align ? s->row_align : 1;

    f->src_stride[i] = round_up ((size_t) s->width * s->elem_size, align) +
        s->src_pad;
    f->dst_stride[i] = round_up ((size_t) (keep_axes ? s->width :
            s->height) * s->elem_size, align) + s->dst_pad;
    if (f->packed && i > 0) {
      f->src_offset[i] = src_end + PACK_GAP;
      f->dst_offset[i] = dst_end + PACK_GAP;
    } else {
      f->src_offset[i] = round_up (src_end, PLANE_ALIGN) + s->src_shift;
      f->dst_offset[i] = round_up (dst_end, PLANE_ALIGN) + s->dst_shift;
    }
    src_end = f->src_offset[i] + (size_t) s->height * f->src_stride[i];
    dst_end = f->dst_offset[i] + (size_t) (keep_axes ? s->height :
        s->width) * f->dst_stride[i];
  }
  f->keep_axes = keep_axes;
  /* no slack after the source: reading past it is compute-sanitizer's */
  f->src_size = src_end > 0 ? src_end : 1;
  f->dst_size = dst_end + GUARD_BYTES;
}

/* The reference: the poisoned allocation with every element copied to its
 * place one at a time; padding, gaps and guard keep the poison. */
static void
build_expected (const Frame * f, const unsigned char *src, CtMapping mapping,
    unsigned char poison, unsigned char *want)
{
  unsigned int i, x, y, ox, oy;

  memset (want, poison, f->dst_size);
  for (i = 0; i < f->n_planes; i++) {
    const PlaneSpec *s = &f->spec[i];
    size_t es = s->elem_size;

    for (y = 0; y < s->height; y++) {
      const unsigned char *row = src + f->src_offset[i] +
          (size_t) y * f->src_stride[i];

      for (x = 0; x < s->width; x++) {
        map_point (mapping, s->width, s->height, x, y, &ox, &oy);
        memcpy (want + f->dst_offset[i] + (size_t) oy * f->dst_stride[i] +
            ox * es, row + x * es, es);
      }
    }
  }
}

static void
print_plane (const Frame * f, unsigned int i)
{
  const PlaneSpec *s = &f->spec[i];

  printf ("  plane %u: %ux%u %u-byte, src stride %zu (pad %zu, base +%zu), "
      "dst stride %zu (pad %zu, base +%zu)\n", i, s->width, s->height,
      s->elem_size, f->src_stride[i], s->src_pad, s->src_shift,
      f->dst_stride[i], s->dst_pad, s->dst_shift);
}

/* Names the case and the first wrong byte: an output element (and the source
 * element it should hold), a row's padding, or a gap or the guard. */
static void
report_mismatch (const Frame * f, CtKernel kernel, CtMapping mapping,
    unsigned char poison, const unsigned char *got, const unsigned char *want)
{
  size_t i, first = f->dst_size, n_diff = 0;
  unsigned int p;

  n_reports++;
  if (n_reports > MAX_REPORTS) {
    if (n_reports == MAX_REPORTS + 1)
      printf ("(further mismatches are counted, not printed)\n");
    return;
  }

  for (i = 0; i < f->dst_size; i++) {
    if (got[i] != want[i]) {
      if (n_diff == 0)
        first = i;
      n_diff++;
    }
  }

  printf ("FAIL: %s, kernel %s, mapping %s, poison 0x%02x: %zu bytes "
      "differ\n", f->name, ct_kernel_name (kernel), mapping_name (mapping),
      poison, n_diff);
  for (p = 0; p < f->n_planes; p++)
    print_plane (f, p);

  for (p = 0; p < f->n_planes; p++) {
    const PlaneSpec *s = &f->spec[p];
    const unsigned int out_w = f->keep_axes ? s->width : s->height;
    const unsigned int out_h = f->keep_axes ? s->height : s->width;
    size_t start = f->dst_offset[p];
    size_t row_bytes = (size_t) out_w * s->elem_size;
    size_t rel, col;
    unsigned int ox, oy, x, y;

    if (first < start || first - start >= out_h * f->dst_stride[p])
      continue;
    rel = first - start;
    oy = (unsigned int) (rel / f->dst_stride[p]);
    col = rel % f->dst_stride[p];
    if (col < row_bytes) {
      ox = (unsigned int) (col / s->elem_size);
      unmap_point (mapping, s->width, s->height, ox, oy, &x, &y);
      printf ("  first in plane %u at output (%u, %u) byte %zu, from source "
          "(%u, %u): got 0x%02x, want 0x%02x\n", p, ox, oy,
          col % s->elem_size, x, y, got[first], want[first]);
    } else {
      printf ("  first in plane %u in the padding of output row %u, byte "
          "%zu past the row: got 0x%02x, want the poison\n", p, oy,
          col - row_bytes, got[first]);
    }
    return;
  }
  printf ("  first at byte %zu of the allocation, outside every plane (a gap "
      "or the guard): got 0x%02x, want the poison\n", first, got[first]);
}

/* The frame's planes as one or two batches (f->batch_cut): plane k of a
 * batch at its first plane's pointers plus k times the distance between
 * the first two planes. */
static CtResult
transpose_as_batches (const Frame * f, const CtPlane * planes,
    CtKernel kernel, CtMapping mapping, cudaStream_t stream, CtPath * ran)
{
  CtPlaneBatch b[MAX_PLANES];
  const size_t src_step = f->n_planes > 1 ?
      f->src_offset[1] - f->src_offset[0] : 0;
  const size_t dst_step = f->n_planes > 1 ?
      f->dst_offset[1] - f->dst_offset[0] : 0;
  unsigned int n = 0;

  /* not batched: every plane a batch of one */
  if (f->batch_cut == 0) {
    for (n = 0; n < f->n_planes; n++) {
      b[n].plane = planes[n];
      b[n].count = 1;
      b[n].src_step = b[n].dst_step = 0;
    }
    return ct_transpose_batches_ex (b, n, kernel, forced_path, mapping,
        (CtStream) stream, ran);
  }
  b[n].plane = planes[0];
  b[n].count = f->batch_cut;
  b[n].src_step = src_step;
  b[n++].dst_step = dst_step;
  if (f->batch_cut < f->n_planes) {
    b[n].plane = planes[f->batch_cut];
    b[n].count = f->n_planes - f->batch_cut;
    b[n].src_step = src_step;
    b[n++].dst_step = dst_step;
  }
  return ct_transpose_batches_ex (b, n, kernel, forced_path, mapping,
      (CtStream) stream, ran);
}

/* Whether @ran is what @kernel (or the forced path) may run under
 * @mapping: the forced path itself; flip or exact for a mapping that keeps
 * the axes; a seed's own; a wide variant's own, or thin, exact or (3
 * bytes) its rgb tile where its tile cannot take the plane; auto: any GPU
 * path. Names, as the element reports them. */
static int
ran_ok (CtKernel kernel, CtMapping mapping, CtPath ran)
{
  const char *r = ct_path_name (ran);

  if (forced_path != CT_PATH_NONE)
    return ran == forced_path;
  if (ran == CT_PATH_NONE || ran == CT_PATH_CPU || ran >= CT_PATH_COUNT)
    return 0;
  /* no transpose: every variant flips rows */
  if (keeps_axes (mapping))
    return ran == CT_PATH_FLIP || ran == CT_PATH_EXACT;
  if (kernel == CT_KERNEL_AUTO)
    return 1;
  if (strcmp (r, ct_kernel_name (kernel)) == 0)
    return 1;
  return (kernel == CT_KERNEL_WIDE || kernel == CT_KERNEL_WIDE_PADDED ||
      kernel == CT_KERNEL_WIDE_SWIZZLE) && (ran == CT_PATH_THIN ||
      ran == CT_PATH_EXACT || (ran == CT_PATH_RGB_TILE &&
          kernel != CT_KERNEL_WIDE));
}

/* Runs every GPU kernel on the frame under each mapping, with both poisons;
 * one case per kernel and mapping. */
static void
run_frame (Frame * f, const CtMapping * mappings, unsigned int n_mappings,
    cudaStream_t stream)
{
  const CtKernel auto_only[] = { CT_KERNEL_AUTO };
  /* a forced path: under auto only */
  const CtKernel *kernels = forced_path != CT_PATH_NONE ? auto_only :
      gpu_kernels;
  const unsigned int n_kernels = forced_path != CT_PATH_NONE ? 1 :
      N_ELEMENTS (gpu_kernels);
  unsigned char *src = NULL, *got = NULL, *want[2] = { NULL, NULL };
  void *d_src = NULL, *d_dst = NULL;
  CtPlane planes[MAX_PLANES];
  unsigned int i, m, k, p;
  size_t dst_alloc;

  /* room for the destination either way round; the source is the same */
  frame_layout (f, 1);
  dst_alloc = f->dst_size;
  frame_layout (f, 0);
  if (f->dst_size > dst_alloc)
    dst_alloc = f->dst_size;
  src = malloc (f->src_size);
  got = malloc (dst_alloc);
  want[0] = malloc (dst_alloc);
  want[1] = malloc (dst_alloc);
  if (src == NULL || got == NULL || want[0] == NULL || want[1] == NULL) {
    printf ("FAIL: %s: out of host memory\n", f->name);
    n_failed++;
    goto out;
  }
  if (!CHECK (cudaMalloc (&d_src, f->src_size)) ||
      !CHECK (cudaMalloc (&d_dst, dst_alloc)))
    goto out;

  /* the whole source, gaps and row padding too: a kernel that reads padding
   * copies random bytes */
  fill_random (src, f->src_size);
  if (!CHECK (cudaMemcpy (d_src, src, f->src_size, cudaMemcpyHostToDevice)))
    goto out;

  for (m = 0; m < n_mappings; m++) {
    /* (this layout's planes and guard are checked; the allocation may
     * be larger, for the other layout) */
    frame_layout (f, keeps_axes (mappings[m]));
    for (i = 0; i < f->n_planes; i++) {
      planes[i].src = (const unsigned char *) d_src + f->src_offset[i];
      planes[i].src_stride = f->src_stride[i];
      planes[i].dst = (unsigned char *) d_dst + f->dst_offset[i];
      planes[i].dst_stride = f->dst_stride[i];
      planes[i].width = f->spec[i].width;
      planes[i].height = f->spec[i].height;
      planes[i].elem_size = f->spec[i].elem_size;
    }
    for (p = 0; p < 2; p++)
      build_expected (f, src, mappings[m], poisons[p], want[p]);

    for (k = 0; k < n_kernels; k++) {
      int ok = 1, cuda_ok = 1;

      /* every variant takes the same flip path: auto, a seed and a wide
       * variant stand for them */
      if (keeps_axes (mappings[m]) && kernels[k] != CT_KERNEL_AUTO &&
          kernels[k] != CT_KERNEL_NAIVE && kernels[k] != CT_KERNEL_WIDE_SWIZZLE)
        continue;

      for (p = 0; p < 2 && ok && cuda_ok; p++) {
        CtPath ran = CT_PATH_COUNT;
        cudaError_t err;
        CtResult res;

        cuda_ok = CHECK (cudaMemsetAsync (d_dst, poisons[p], f->dst_size,
                stream));
        if (!cuda_ok)
          break;
        /* the plane list once, the batches (which report the path) once */
        if (f->batch_cut == 0 && p == 0 && forced_path == CT_PATH_NONE) {
          res = ct_transpose_planes (planes, f->n_planes, kernels[k],
              mappings[m], (CtStream) stream);
        } else {
          res = transpose_as_batches (f, planes, kernels[k], mappings[m],
              stream, &ran);
          if (res == CT_OK && !ran_ok (kernels[k], mappings[m], ran)) {
            printf ("FAIL: %s, kernel %s, mapping %s: ran path %s\n",
                f->name, ct_kernel_name (kernels[k]),
                mapping_name (mappings[m]), ct_path_name (ran));
            ok = 0;
          }
        }
        if (res != CT_OK) {
          printf ("FAIL: %s, kernel %s (path %s), mapping %s: returned %d "
              "(%s)\n", f->name, ct_kernel_name (kernels[k]),
              ct_path_name (forced_path), mapping_name (mappings[m]), res,
              ct_result_string (res));
          ok = 0;
          if (res > 0)
            stop_if_context_broken ();
          break;
        }
        /* name the case first: a fault in it ends the test in CHECK */
        err = cudaStreamSynchronize (stream);
        if (err != cudaSuccess)
          printf ("FAIL: %s, kernel %s, mapping %s: the run failed\n",
              f->name, ct_kernel_name (kernels[k]),
              mapping_name (mappings[m]));
        cuda_ok = CHECK (err) && CHECK (cudaMemcpy (got, d_dst, f->dst_size,
                cudaMemcpyDeviceToHost));
        if (cuda_ok && memcmp (got, want[p], f->dst_size) != 0) {
          report_mismatch (f, kernels[k], mappings[m], poisons[p], got,
              want[p]);
          ok = 0;
        }
      }
      /* a failed CUDA call was counted by CHECK */
      if (!cuda_ok)
        continue;
      if (ok)
        n_passed++;
      else
        n_failed++;
    }
  }

out:
  if (d_src != NULL)
    CHECK (cudaFree (d_src));
  if (d_dst != NULL)
    CHECK (cudaFree (d_dst));
  free (src);
  free (got);
  free (want[0]);
  free (want[1]);
}

/* Single-plane frames: every shape x size x strides, under the mappings. */
static void
run_group (const char *what, const unsigned int (*shapes)[2],
    unsigned int n_shapes, const unsigned int *sizes, unsigned int n_sizes,
    const int *strides, unsigned int n_strides, const CtMapping * mappings,
    unsigned int n_mappings, cudaStream_t stream)
{
  int passed = n_passed, failed = n_failed;
  unsigned int i, j, c;

  if (!wanted (what))
    return;
  for (i = 0; i < n_shapes; i++) {
    for (j = 0; j < n_sizes; j++) {
      for (c = 0; c < n_strides; c++) {
        const Strides *st = &strides_table[strides[c]];
        Frame f;

        memset (&f, 0, sizeof (f));
        f.n_planes = 1;
        f.spec[0].width = shapes[i][0];
        f.spec[0].height = shapes[i][1];
        f.spec[0].elem_size = sizes[j];
        f.spec[0].src_pad = st->src_pad;
        f.spec[0].dst_pad = st->dst_pad;
        f.spec[0].src_shift = st->src_shift;
        f.spec[0].dst_shift = st->dst_shift;
        f.spec[0].row_align = st->row_align;
        snprintf (f.name, sizeof (f.name), "%ux%u %u-byte, %s strides",
            shapes[i][0], shapes[i][1], sizes[j], st->name);
        run_frame (&f, mappings, n_mappings, stream);
      }
    }
  }
  printf ("%s: %d cases passed, %d failed (%.1f s)\n", what, n_passed - passed,
      n_failed - failed, lap_seconds ());
}

/* Sizes, as bits 1 << size. */
#define SZ(e) (1u << (e))
#define SZ_ALL (SZ (1) | SZ (2) | SZ (3) | SZ (4) | SZ (8))
#define SZ_NOT3 (SZ_ALL & ~SZ (3))

/* A path forced on a plane it cannot take: refused with
 * CT_ERROR_UNSUPPORTED_KERNEL, nothing written. */
static void
expect_refused (CtPath path, unsigned int w, unsigned int h,
    unsigned int es, size_t shift, CtMapping mapping, cudaStream_t stream)
{
  const size_t src_stride = (size_t) w * es + shift;
  const size_t dst_stride = (size_t) h * es + shift;
  const size_t size = (w > h ? w : h) * (size_t) (w > h ? w : h) * es +
      64 * shift + 64;
  unsigned char *got = malloc (size);
  void *d_src = NULL, *d_dst = NULL;
  CtPlaneBatch b;
  CtResult res;
  size_t i;

  if (got == NULL || !CHECK (cudaMalloc (&d_src, size)) ||
      !CHECK (cudaMalloc (&d_dst, size)) ||
      !CHECK (cudaMemset (d_src, 0x33, size)) ||
      !CHECK (cudaMemset (d_dst, poisons[0], size)))
    goto out;
  b.plane.src = (unsigned char *) d_src + shift;
  b.plane.dst = (unsigned char *) d_dst + shift;
  b.plane.src_stride = src_stride;
  b.plane.dst_stride = dst_stride;
  b.plane.width = w;
  b.plane.height = h;
  b.plane.elem_size = es;
  b.count = 1;
  b.src_step = b.dst_step = 0;
  res = ct_transpose_batches_ex (&b, 1, CT_KERNEL_AUTO, path, mapping,
      (CtStream) stream, NULL);
  if (!CHECK (cudaStreamSynchronize (stream)) ||
      !CHECK (cudaMemcpy (got, d_dst, size, cudaMemcpyDeviceToHost)))
    goto out;
  for (i = 0; i < size && got[i] == poisons[0]; i++);
  if (res == CT_ERROR_UNSUPPORTED_KERNEL && i == size) {
    n_passed++;
  } else {
    printf ("FAIL: path %s forced on %ux%u %u-byte (shift %zu, mapping "
        "%s): returned %d (%s), %s\n", ct_path_name (path), w, h, es, shift,
        mapping_name (mapping), res, ct_result_string (res), i == size ?
        "nothing written" : "output written");
    n_failed++;
  }
out:
  if (d_src != NULL)
    CHECK (cudaFree (d_src));
  if (d_dst != NULL)
    CHECK (cudaFree (d_dst));
  free (got);
}

/* Every path of the planner forced on planes it takes, checked against
 * the reference and asserted to be the path that ran, so that each runs
 * on any GPU whatever auto would pick on it; then forced on planes it
 * cannot take. (Every other group asserts that the named variants ran
 * their own path.) */
static void
run_paths (cudaStream_t stream)
{
  static const struct
  {
    CtPath path;
    unsigned int w, h, sizes;
    int strides;
    /* the mappings: 0 the transpose, 1 the four that swap the axes, 2 the
     * four that keep them */
    int mappings;
  } cases[] = {
    {CT_PATH_WIDE, 257, 255, SZ_ALL, STRIDES_PITCHED, 1},
    {CT_PATH_WIDE, 1000, 1500, SZ_ALL, STRIDES_PITCHED, 1},
    {CT_PATH_WIDE_PADDED, 257, 255, SZ_NOT3, STRIDES_PITCHED, 1},
    {CT_PATH_WIDE_PADDED, 1000, 1500, SZ_NOT3, STRIDES_PITCHED, 1},
    {CT_PATH_WIDE_SWIZZLE, 257, 255, SZ_NOT3, STRIDES_PITCHED, 1},
    {CT_PATH_WIDE_SWIZZLE, 1000, 1500, SZ_NOT3, STRIDES_PITCHED, 1},
    {CT_PATH_RGB_TILE, 257, 255, SZ (3), STRIDES_PITCHED, 1},
    {CT_PATH_RGB_TILE, 1000, 1500, SZ (3), STRIDES_PITCHED, 1},
    {CT_PATH_SMALL_TILE, 257, 255, SZ_ALL, STRIDES_PITCHED_4, 1},
    {CT_PATH_SMALL_TILE, 1000, 1500, SZ_ALL, STRIDES_PITCHED, 1},
    {CT_PATH_STREAM, 257, 255, SZ_NOT3, STRIDES_PITCHED, 1},
    {CT_PATH_STREAM, 3001, 1499, SZ_NOT3, STRIDES_PITCHED, 1},
    {CT_PATH_TILE_64, 257, 255, SZ (4), STRIDES_PITCHED, 1},
    {CT_PATH_TILE_64, 3001, 1499, SZ (4), STRIDES_PITCHED, 1},
    {CT_PATH_TILE_128, 257, 255, SZ (1), STRIDES_PITCHED_8, 1},
    {CT_PATH_TILE_128, 1000, 1500, SZ (1), STRIDES_PITCHED, 1},
    {CT_PATH_TILE_128, 3001, 1499, SZ (1), STRIDES_PITCHED, 1},
    {CT_PATH_TILE_128, 16, 16, SZ (1), STRIDES_PITCHED, 1},
    {CT_PATH_SKINNY, 5000, 64, SZ (1), STRIDES_PITCHED, 1},
    {CT_PATH_SKINNY, 3001, 40, SZ (1), STRIDES_PITCHED, 1},
    {CT_PATH_SKINNY, 64, 5000, SZ (1), STRIDES_PITCHED, 1},
    {CT_PATH_SKINNY, 33, 2001, SZ (1), STRIDES_PITCHED, 1},
    {CT_PATH_THIN, 5, 700, SZ_ALL, STRIDES_TIGHT, 1},
    {CT_PATH_THIN, 700, 9, SZ_ALL, STRIDES_PITCHED, 1},
    {CT_PATH_EXACT, 257, 255, SZ_ALL, STRIDES_ODD, 1},
    {CT_PATH_EXACT, 1000, 1500, SZ_ALL, STRIDES_ALIGNED, 0},
    {CT_PATH_EXACT, 33, 65, SZ_ALL, STRIDES_ALIGNED, 1},
    /* the mappings that keep the axes: flip where aligned, exact on any
     * plane */
    {CT_PATH_FLIP, 257, 255, SZ_ALL, STRIDES_PITCHED, 2},
    {CT_PATH_FLIP, 1000, 1500, SZ_ALL, STRIDES_PITCHED, 2},
    {CT_PATH_FLIP, 5, 700, SZ_ALL, STRIDES_PITCHED, 2},
    {CT_PATH_EXACT, 257, 255, SZ_ALL, STRIDES_ODD, 2},
    {CT_PATH_EXACT, 1000, 1500, SZ_ALL, STRIDES_PITCHED, 2},
  };
  int passed = n_passed, failed = n_failed;
  unsigned int i, j;

  if (!wanted ("paths"))
    return;
  for (i = 0; i < N_ELEMENTS (cases); i++) {
    const Strides *st = &strides_table[cases[i].strides];

    for (j = 0; j < N_ELEMENTS (all_sizes); j++) {
      Frame f;

      if ((cases[i].sizes & SZ (all_sizes[j])) == 0)
        continue;
      memset (&f, 0, sizeof (f));
      f.n_planes = 1;
      f.spec[0].width = cases[i].w;
      f.spec[0].height = cases[i].h;
      f.spec[0].elem_size = all_sizes[j];
      f.spec[0].src_pad = st->src_pad;
      f.spec[0].dst_pad = st->dst_pad;
      f.spec[0].src_shift = st->src_shift;
      f.spec[0].dst_shift = st->dst_shift;
      f.spec[0].row_align = st->row_align;
      snprintf (f.name, sizeof (f.name), "path %s forced, %ux%u %u-byte, "
          "%s strides", ct_path_name (cases[i].path), cases[i].w,
          cases[i].h, all_sizes[j], st->name);
      forced_path = cases[i].path;
      if (cases[i].mappings == 1)
        run_frame (&f, all_mappings, N_ELEMENTS (all_mappings), stream);
      else if (cases[i].mappings == 2)
        run_frame (&f, flip_mappings, N_ELEMENTS (flip_mappings), stream);
      else
        run_frame (&f, transpose_only, N_ELEMENTS (transpose_only), stream);
      forced_path = CT_PATH_NONE;
    }
  }

  /* the sizes, shapes, alignments and mappings each path refuses */
  expect_refused (CT_PATH_STREAM, 1000, 1500, 3, 0, CT_MAPPING_TRANSPOSE,
      stream);
  expect_refused (CT_PATH_TILE_64, 1000, 1500, 1, 0, CT_MAPPING_TRANSPOSE,
      stream);
  expect_refused (CT_PATH_TILE_128, 1000, 1500, 2, 0, CT_MAPPING_TRANSPOSE,
      stream);
  expect_refused (CT_PATH_TILE_128, 1000, 1500, 1, 4, CT_MAPPING_TRANSPOSE,
      stream);
  expect_refused (CT_PATH_SKINNY, 1000, 1500, 1, 0, CT_MAPPING_TRANSPOSE,
      stream);
  expect_refused (CT_PATH_SKINNY, 5000, 64, 2, 0, CT_MAPPING_TRANSPOSE,
      stream);
  expect_refused (CT_PATH_THIN, 257, 255, 1, 0, CT_MAPPING_TRANSPOSE,
      stream);
  expect_refused (CT_PATH_THIN, 5, 700, 4, 1, CT_MAPPING_TRANSPOSE, stream);
  expect_refused (CT_PATH_WIDE_SWIZZLE, 257, 255, 3, 0,
      CT_MAPPING_TRANSPOSE, stream);
  expect_refused (CT_PATH_RGB_TILE, 257, 255, 4, 0, CT_MAPPING_TRANSPOSE,
      stream);
  expect_refused (CT_PATH_WIDE, 257, 255, 4, 4, CT_MAPPING_TRANSPOSE,
      stream);
  expect_refused (CT_PATH_WIDE, 5, 700, 1, 0, CT_MAPPING_TRANSPOSE, stream);
  expect_refused (CT_PATH_SMALL_TILE, 257, 255, 1, 1, CT_MAPPING_ROTATE_90R,
      stream);
  expect_refused (CT_PATH_NAIVE, 64, 64, 1, 0, CT_MAPPING_TRANSPOSE, stream);
  expect_refused (CT_PATH_FLIP, 257, 255, 1, 0, CT_MAPPING_TRANSPOSE, stream);
  expect_refused (CT_PATH_FLIP, 64, 64, 4, 0, CT_MAPPING_ROTATE_90R, stream);
  expect_refused (CT_PATH_COPY, 64, 64, 1, 0, CT_MAPPING_TRANSPOSE, stream);
  expect_refused (CT_PATH_COUNT, 64, 64, 1, 0, CT_MAPPING_TRANSPOSE, stream);
  printf ("paths: %d cases passed, %d failed (%.1f s)\n", n_passed - passed,
      n_failed - failed, lap_seconds ());
}

/* One call transposing several planes of one allocation, as a video frame. */
/* Batches of identical planes (ct_transpose_batches): every shape x size x
 * strides as MAX_PLANES planes in one batch, in two batches cut unevenly,
 * and packed PACK_GAP apart, so that the steps between planes misalign the
 * later ones (as ct_permute's can); the reference is the planes' own, one
 * at a time. */
static void
run_batches (const unsigned int (*shapes)[2], unsigned int n_shapes,
    const int *strides, unsigned int n_strides, const CtMapping * mappings,
    unsigned int n_mappings, cudaStream_t stream)
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

static void
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

static void
expect_result (const char *what, CtResult got, CtResult want)
{
  if (got == want) {
    n_passed++;
    return;
  }
  printf ("FAIL: %s: returned %d (%s), want %d (%s)\n", what, got,
      ct_result_string (got), want, ct_result_string (want));
  n_failed++;
}

static void
expect_string (const char *what, const char *s)
{
  if (s != NULL && s[0] != '\0') {
    n_passed++;
    return;
  }
  printf ("FAIL: %s: %s string\n", what, s == NULL ? "NULL" : "empty");
  n_failed++;
}

/* ---- permutations (ct_permute) ---- */

/* The reference: every input element scattered to its place, walking the
 * input in order (ct_permute walks the output). */
static void
permute_expected (const unsigned char *src, unsigned char *want,
    const unsigned long long d[4], unsigned int es, const unsigned int perm[4])
{
  unsigned long long out_dim[4], out_stride[4], pos_of[4], x[4];
  unsigned int i;

  for (i = 0; i < 4; i++) {
    out_dim[i] = d[perm[i]];
    pos_of[perm[i]] = i;
  }
  out_stride[0] = 1;
  for (i = 1; i < 4; i++)
    out_stride[i] = out_stride[i - 1] * out_dim[i - 1];
  for (x[3] = 0; x[3] < d[3]; x[3]++)
    for (x[2] = 0; x[2] < d[2]; x[2]++)
      for (x[1] = 0; x[1] < d[1]; x[1]++)
        for (x[0] = 0; x[0] < d[0]; x[0]++) {
          size_t in = ((x[3] * d[2] + x[2]) * d[1] + x[1]) * d[0] + x[0];
          size_t out = 0;
          for (i = 0; i < 4; i++)
            out += x[i] * out_stride[pos_of[i]];
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
    case CT_PATH_THIN:
    case CT_PATH_EXACT:
    case CT_PATH_WIDE:
    case CT_PATH_WIDE_PADDED:
    case CT_PATH_WIDE_SWIZZLE:
    case CT_PATH_SMALL_TILE:
    case CT_PATH_STREAM:
    case CT_PATH_TILE_64:
    case CT_PATH_TILE_128:
    case CT_PATH_SKINNY:
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
        ran != CT_PATH_CHANNELS && ran != CT_PATH_PIXELS;
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
static void
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
       * words */
      {{3, 63, 31, 1}, {1, 2, 0, 3}, 1, CT_PATH_THIN},
      {{3, 5, 7, 20}, {1, 0, 3, 2}, 4, CT_PATH_THIN},
      /* a batch of long thin planes: several elements per thread */
      {{3, 1001, 1001, 4}, {1, 2, 0, 3}, 1, CT_PATH_THIN},
      {{64, 48, 9, 20}, {1, 0, 3, 2}, 2, ANY_WIDE_TILE},
      {{64, 48, 20, 9}, {1, 0, 3, 2}, 8, ANY_WIDE_TILE},
      /* rows of 33 2-byte elements: no wide tile's alignment */
      {{40, 33, 9, 20}, {1, 0, 3, 2}, 2, CT_PATH_EXACT},
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

/* Channels: NCHW to NHWC and back for 2 to 5 channels and every element
 * size, over lengths that leave whole warps, part of a warp or part of a
 * 16-byte group, with planar rows as long as the length or longer, and one
 * or two batch dimensions. */
static void
run_channels (cudaStream_t stream)
{
  /* planar length, batch N, batch M */
  static const unsigned long long plain[][3] = {
    {16, 1, 1}, {48, 3, 2}, {8208, 2, 1}, {65584, 1, 3}, {40, 5, 1},
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
  int passed = n_passed, failed = n_failed;
  size_t z, i;
  unsigned long long c;

  for (z = 0; z < N_ELEMENTS (sizes); z++) {
    unsigned int es = sizes[z];
    for (c = 2; c <= 5; c++) {
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
  }
  printf ("channels: %d cases passed, %d failed (%.1f s)\n", n_passed - passed,
      n_failed - failed, lap_seconds ());
}

/* ---- 4:2:2 resampled as videoflip does (ct_transpose_422) ---- */

/* Layouts: YUY2's and UYVY's macropixels, the two chroma byte orders. */
typedef struct
{
  CtLayout422 layout;
  unsigned int y, u, v;
  const char *name;
} Layout422;

static const Layout422 layouts_422[] = {
  {CT_422_PACKED, 0, 1, 3, "YUY2"},
  {CT_422_PACKED, 1, 0, 2, "UYVY"},
  {CT_422_PACKED, 0, 3, 1, "YVYU"},
  {CT_422_CHROMA_16LE, 0, 0, 0, "chroma 16LE"},
  {CT_422_CHROMA_16BE, 0, 0, 0, "chroma 16BE"},
};

/* Component @c (0 Y, 1 U, 2 V) of packed pixel @x in @row. */
static unsigned int
packed_sample (const Layout422 * l, const unsigned char *row, unsigned int x,
    unsigned int c)
{
  const unsigned char *pair = row + (size_t) (x / 2) * 4;

  return c == 0 ? pair[l->y + 2 * (x % 2)] : pair[c == 1 ? l->u : l->v];
}

static unsigned int
sample16 (const unsigned char *at, int be)
{
  return be ? (unsigned int) at[0] << 8 | at[1] :
      (unsigned int) at[1] << 8 | at[0];
}

/* The reference, output pixel by output pixel through unmap_point: the
 * luma from its source pixel, a pair's chroma from its first pixel's
 * source macropixel or, where the axes swap, the mean over the pair's two
 * source rows; an odd width's last pair repeats its luma. Planar chroma
 * where the axes swap: the mean of the source samples of output pixels
 * 2x and 2x + 1, in the column videoflip takes (a mirrored one counted
 * from the chroma plane's edge); where they stay, a plane of its own. */
static void
expected_422 (const Layout422 * l, const unsigned char *src,
    size_t src_stride, unsigned int w, unsigned int h, CtMapping mapping,
    unsigned char *want, size_t want_stride)
{
  const int keep = keeps_axes (mapping);
  const unsigned int ow = keep ? w : h, oh = keep ? h : w;
  const unsigned int cw = (w + 1) / 2;
  unsigned int ox, oy, x0, y0, x1, y1, c;

  for (oy = 0; oy < oh; oy++) {
    unsigned char *out = want + (size_t) oy * want_stride;

    for (ox = 0; ox < (ow + 1) / 2 * 2; ox += 2) {
      const int two = ox + 1 < ow;

      if (l->layout == CT_422_PACKED) {
        const unsigned char *r0, *r1;
        unsigned char *pair = out + (size_t) (ox / 2) * 4;

        unmap_point (mapping, w, h, ox, oy, &x0, &y0);
        unmap_point (mapping, w, h, two ? ox + 1 : ox, oy, &x1, &y1);
        r0 = src + (size_t) y0 * src_stride;
        r1 = src + (size_t) y1 * src_stride;
        pair[l->y] = (unsigned char) packed_sample (l, r0, x0, 0);
        pair[l->y + 2] = (unsigned char) packed_sample (l, r1, x1, 0);
        for (c = 1; c < 3; c++) {
          unsigned int v = packed_sample (l, r0, x0, c);

          if (!keep && two)
            v = (v + packed_sample (l, r1, x1, c)) / 2;
          pair[c == 1 ? l->u : l->v] = (unsigned char) v;
        }
      } else {
        const int be = l->layout == CT_422_CHROMA_16BE;
        unsigned char *at = out + (size_t) (ox / 2) * 2;
        unsigned int v, col;

        if (keep) {
          unmap_point (mapping, cw, h, ox / 2, oy, &x0, &y0);
          memcpy (at, src + (size_t) y0 * src_stride + (size_t) x0 * 2, 2);
          continue;
        }
        unmap_point (mapping, w, h, ox, oy, &x0, &y0);
        col = (mapping & CT_MAPPING_MIRROR_ROWS) ? cw - 1 - oy / 2 : oy / 2;
        v = sample16 (src + (size_t) y0 * src_stride + (size_t) col * 2, be);
        if (two) {
          unmap_point (mapping, w, h, ox + 1, oy, &x1, &y1);
          v = (v + sample16 (src + (size_t) y1 * src_stride +
                  (size_t) col * 2, be)) / 2;
        }
        at[be ? 0 : 1] = (unsigned char) (v >> 8);
        at[be ? 1 : 0] = (unsigned char) (v & 0xff);
      }
    }
  }
}

/* One 4:2:2 plane under @mapping on the GPU, against expected_422, its
 * output poisoned first; rows @pad bytes longer than they need. */
static void
check_422 (const Layout422 * l, unsigned int w, unsigned int h,
    CtMapping mapping, size_t pad, cudaStream_t stream)
{
  const int keep = keeps_axes (mapping);
  const size_t unit = l->layout == CT_422_PACKED ? 4 : 2;
  const unsigned int ow = keep ? w : h, oh = keep ? h : w;
  const size_t ss = (w + 1) / 2 * unit + pad;
  const size_t ds = (ow + 1) / 2 * unit + pad;
  const size_t row = (ow + 1) / 2 * unit;
  unsigned char *src = malloc (ss * h), *got = malloc (ds * oh);
  unsigned char *want = malloc (ds * oh);
  void *d_src = NULL, *d_dst = NULL;
  CtPlane422 p;
  unsigned int y;
  CtResult res;

  if (!src || !got || !want || !CHECK (cudaMalloc (&d_src, ss * h)) ||
      !CHECK (cudaMalloc (&d_dst, ds * oh)))
    goto out;
  fill_random (src, ss * h);
  expected_422 (l, src, ss, w, h, mapping, want, ds);
  if (!CHECK (cudaMemcpy (d_src, src, ss * h, cudaMemcpyHostToDevice)) ||
      !CHECK (cudaMemset (d_dst, poisons[0], ds * oh)))
    goto out;
  p.src = d_src;
  p.src_stride = ss;
  p.dst = d_dst;
  p.dst_stride = ds;
  p.width = w;
  p.height = h;
  p.layout = l->layout;
  p.y_offset = l->y;
  p.u_offset = l->u;
  p.v_offset = l->v;
  res = ct_transpose_422 (&p, 1, mapping, (CtStream) stream);
  if (res != CT_OK || !CHECK (cudaStreamSynchronize (stream)) ||
      !CHECK (cudaMemcpy (got, d_dst, ds * oh, cudaMemcpyDeviceToHost))) {
    printf ("FAIL: 422 %s %ux%u %s: %s\n", l->name, w, h,
        mapping_name (mapping), ct_result_string (res));
    n_failed++;
    goto out;
  }
  for (y = 0; y < oh; y++) {
    if (memcmp (got + y * ds, want + y * ds, row) != 0) {
      size_t i = 0;

      while (got[y * ds + i] == want[y * ds + i])
        i++;
      printf ("FAIL: 422 %s %ux%u %s pad %zu: output row %u byte %zu is "
          "0x%02x, want 0x%02x\n", l->name, w, h, mapping_name (mapping),
          pad, y, i, got[y * ds + i], want[y * ds + i]);
      n_failed++;
      goto out;
    }
  }
  n_passed++;
out:
  cudaFree (d_src);
  cudaFree (d_dst);
  free (src);
  free (got);
  free (want);
}

static void
run_422 (cudaStream_t stream)
{
  static const unsigned int shapes[][2] = {
    {1, 1}, {1, 7}, {7, 1}, {2, 3}, {3, 2}, {33, 17}, {64, 64}, {130, 71},
    {1001, 333}, {1920, 1080},
  };
  static const size_t pads[] = { 0, 3, 64 };
  int passed = n_passed, failed = n_failed;
  size_t l, i, m, k;
  CtPlane422 bad;

  for (l = 0; l < N_ELEMENTS (layouts_422); l++)
    for (i = 0; i < N_ELEMENTS (shapes); i++)
      for (m = 0; m < N_ELEMENTS (every_mapping); m++)
        for (k = 0; k < N_ELEMENTS (pads); k++)
          check_422 (&layouts_422[l], shapes[i][0], shapes[i][1],
              every_mapping[m], pads[k], stream);

  /* refused: a macropixel whose bytes overlap, short rows, no pointers */
  memset (&bad, 0, sizeof (bad));
  bad.src = bad.dst = (void *) &bad;
  bad.width = 4;
  bad.height = 2;
  bad.src_stride = bad.dst_stride = 8;
  bad.layout = CT_422_PACKED;
  bad.y_offset = 0;
  bad.u_offset = 2;
  bad.v_offset = 3;
  expect_result ("422 overlapping offsets", ct_transpose_422 (&bad, 1,
          CT_MAPPING_ROTATE_90R, (CtStream) stream),
      CT_ERROR_INVALID_ARGUMENT);
  bad.u_offset = 1;
  bad.src_stride = 7;
  expect_result ("422 short source rows", ct_transpose_422 (&bad, 1,
          CT_MAPPING_TRANSPOSE, (CtStream) stream), CT_ERROR_INVALID_ARGUMENT);
  bad.src_stride = 8;
  bad.dst_stride = 3;
  expect_result ("422 short output rows", ct_transpose_422 (&bad, 1,
          CT_MAPPING_TRANSPOSE, (CtStream) stream), CT_ERROR_INVALID_ARGUMENT);
  bad.dst_stride = 8;
  bad.src = NULL;
  expect_result ("422 no source", ct_transpose_422 (&bad, 1,
          CT_MAPPING_TRANSPOSE, (CtStream) stream), CT_ERROR_INVALID_ARGUMENT);
  bad.layout = (CtLayout422) 7;
  expect_result ("422 unknown layout", ct_transpose_422 (&bad, 1,
          CT_MAPPING_TRANSPOSE, (CtStream) stream), CT_ERROR_INVALID_ARGUMENT);
  CHECK (cudaStreamSynchronize (stream));
  printf ("4:2:2: %d cases passed, %d failed (%.1f s)\n", n_passed - passed,
      n_failed - failed, lap_seconds ());
}

/* Refused and empty calls: the right code, and nothing written. */
/* The driver calls the contexts group needs, found through the runtime
 * (the test does not link the driver library). */
typedef struct
{
  CUresult (*ctx_create) (CUcontext *, unsigned int, CUdevice);
  CUresult (*ctx_destroy) (CUcontext);
  CUresult (*ctx_push) (CUcontext);
  CUresult (*ctx_pop) (CUcontext *);
} Driver;

static int
driver_entry (const char *name, unsigned int version, void **fn)
{
  enum cudaDriverEntryPointQueryResult found;

  if (cudaGetDriverEntryPointByVersion (name, fn, version, cudaEnableDefault,
          &found) == cudaSuccess && found == cudaDriverEntryPointSuccess)
    return 1;
  (void) cudaGetLastError ();
  printf ("FAIL: driver entry point %s not found\n", name);
  n_failed++;
  return 0;
}

/* One thread of the concurrent part: @iterations transposes of a plane
 * in @ctx, each over a poisoned destination, checked here against the
 * plain loop; counts into @failed. */
typedef struct
{
  const Driver *drv;
  CUcontext ctx;
  pthread_barrier_t *start;
  CtKernel kernel;
  unsigned int width, height, elem_size, iterations;
  uint64_t seed;
  int passed, failed;
} ContextWorker;

static void *
context_worker (void *data)
{
  ContextWorker *w = data;
  const size_t src_stride = (w->width * w->elem_size + 255) / 256 * 256;
  const size_t dst_stride = (w->height * w->elem_size + 255) / 256 * 256;
  const size_t src_size = src_stride * w->height;
  const size_t dst_size = dst_stride * w->width;
  unsigned char *src = malloc (src_size), *want = malloc (dst_size);
  unsigned char *got = malloc (dst_size);
  void *d_src = NULL, *d_dst = NULL;
  cudaStream_t stream = NULL;
  uint64_t r = w->seed;
  unsigned int i, x, y;
  CUcontext popped;
  CtPlane plane;

  if (src == NULL || want == NULL || got == NULL ||
      w->drv->ctx_push (w->ctx) != CUDA_SUCCESS) {
    w->failed++;
    free (src);
    free (want);
    free (got);
    pthread_barrier_wait (w->start);
    return NULL;
  }
  for (i = 0; i < src_size; i++) {
    r ^= r >> 12;
    r ^= r << 25;
    r ^= r >> 27;
    src[i] = (unsigned char) ((r * UINT64_C (0x2545f4914f6cdd1d)) >> 56);
  }
  memset (want, poisons[0], dst_size);
  for (y = 0; y < w->height; y++)
    for (x = 0; x < w->width; x++)
      memcpy (want + x * dst_stride + (size_t) y * w->elem_size,
          src + y * src_stride + (size_t) x * w->elem_size, w->elem_size);

  if (cudaStreamCreate (&stream) != cudaSuccess ||
      cudaMalloc (&d_src, src_size) != cudaSuccess ||
      cudaMalloc (&d_dst, dst_size) != cudaSuccess ||
      cudaMemcpy (d_src, src, src_size, cudaMemcpyHostToDevice) !=
      cudaSuccess)
    w->failed++;
  plane.src = d_src;
  plane.src_stride = src_stride;
  plane.dst = d_dst;
  plane.dst_stride = dst_stride;
  plane.width = w->width;
  plane.height = w->height;
  plane.elem_size = w->elem_size;

  /* every thread's first launch at once: the race the attribute had */
  pthread_barrier_wait (w->start);
  for (i = 0; w->failed == 0 && i < w->iterations; i++) {
    CtResult res;

    if (cudaMemsetAsync (d_dst, poisons[0], dst_size, stream) !=
        cudaSuccess) {
      w->failed++;
      break;
    }
    res = ct_transpose_planes (&plane, 1, w->kernel, CT_MAPPING_TRANSPOSE,
        (CtStream) stream);
    if (res != CT_OK) {
      printf ("FAIL: contexts: %ux%u %u-byte, kernel %s, launch %u: %s\n",
          w->width, w->height, w->elem_size, ct_kernel_name (w->kernel), i,
          ct_result_string (res));
      w->failed++;
      break;
    }
    if (cudaStreamSynchronize (stream) != cudaSuccess ||
        cudaMemcpy (got, d_dst, dst_size, cudaMemcpyDeviceToHost) !=
        cudaSuccess || memcmp (got, want, dst_size) != 0) {
      printf ("FAIL: contexts: %ux%u %u-byte, kernel %s, launch %u: wrong "
          "output\n", w->width, w->height, w->elem_size,
          ct_kernel_name (w->kernel), i);
      w->failed++;
      break;
    }
    w->passed++;
  }
  if (d_src)
    cudaFree (d_src);
  if (d_dst)
    cudaFree (d_dst);
  if (stream)
    cudaStreamDestroy (stream);
  w->drv->ctx_pop (&popped);
  free (src);
  free (want);
  free (got);
  return NULL;
}

/* Several CUDA contexts in one process, and several threads in each: the
 * wide kernels' shared memory above 48 KB is granted per context. First
 * the same planes in the primary context and then in new ones, one after
 * the other (a grant remembered per device made every launch in the second
 * context fail); then, in fresh contexts, threads whose first launches of
 * one kernel ask for different amounts at once (one could lower the grant
 * under the other). */
static void
run_contexts (void)
{
  static const unsigned int shapes[][2] = { {1000, 1500}, {4001, 3499} };
  static const unsigned int sizes[] = { 1, 2, 3, 4, 8 };
  static const int strides[] = { STRIDES_ALIGNED };
  static const CtKernel kernels[] = {
    CT_KERNEL_WIDE_PADDED, CT_KERNEL_WIDE_SWIZZLE, CT_KERNEL_AUTO,
  };
  enum { ROUNDS = 4, CONTEXTS = 2, THREADS = 8 };
  int passed = n_passed, failed = n_failed;
  Driver drv;
  CUcontext ctx[CONTEXTS];
  CUdevice device = 0;
  int dev = 0;
  unsigned int round, c, t;

  /* cuCtxCreate as of CUDA 11.0 takes (flags, device): from 11.4 on the
   * name stands for a form with execution affinity parameters */
  if (!driver_entry ("cuCtxCreate", 11000, (void **) &drv.ctx_create) ||
      !driver_entry ("cuCtxDestroy", 12000, (void **) &drv.ctx_destroy) ||
      !driver_entry ("cuCtxPushCurrent", 12000, (void **) &drv.ctx_push) ||
      !driver_entry ("cuCtxPopCurrent", 12000, (void **) &drv.ctx_pop) ||
      !CHECK (cudaGetDevice (&dev)))
    return;
  device = (CUdevice) dev;

  run_group ("contexts: primary", shapes, N_ELEMENTS (shapes), sizes,
      N_ELEMENTS (sizes), strides, N_ELEMENTS (strides), transpose_only,
      N_ELEMENTS (transpose_only), NULL);
  for (c = 0; c < CONTEXTS; c++) {
    CUcontext popped;
    char what[64];

    CUresult cres = drv.ctx_create (&ctx[c], 0, device);

    if (cres != CUDA_SUCCESS) {
      printf ("FAIL: contexts: cuCtxCreate: error %d\n", (int) cres);
      n_failed++;
      return;
    }
    /* (cuCtxCreate makes it current) */
    snprintf (what, sizeof (what), "contexts: new context %u", c + 1);
    run_group (what, shapes, N_ELEMENTS (shapes), sizes, N_ELEMENTS (sizes),
        strides, N_ELEMENTS (strides), transpose_only,
        N_ELEMENTS (transpose_only), NULL);
    drv.ctx_pop (&popped);
    drv.ctx_destroy (ctx[c]);
  }

  for (round = 0; round < ROUNDS; round++) {
    ContextWorker workers[THREADS];
    pthread_t threads[THREADS];
    pthread_barrier_t start;

    for (c = 0; c < CONTEXTS; c++) {
      CUcontext popped;

      if (drv.ctx_create (&ctx[c], 0, device) != CUDA_SUCCESS) {
        printf ("FAIL: contexts: cuCtxCreate\n");
        n_failed++;
        return;
      }
      drv.ctx_pop (&popped);
    }
    pthread_barrier_init (&start, NULL, THREADS);
    for (t = 0; t < THREADS; t++) {
      ContextWorker *w = &workers[t];

      memset (w, 0, sizeof (*w));
      w->drv = &drv;
      w->ctx = ctx[t % CONTEXTS];
      w->start = &start;
      /* in each context: the padded and swizzled tiles (different shared
       * memory, one kernel) and auto, bytes to 8-byte elements */
      w->kernel = kernels[(t / CONTEXTS + round) % N_ELEMENTS (kernels)];
      w->elem_size = sizes[(t + round) % N_ELEMENTS (sizes)];
      w->width = 1000 + 17 * t;
      w->height = 700 + 5 * round;
      w->iterations = 4;
      w->seed = rng_next () | 1;
      pthread_create (&threads[t], NULL, context_worker, w);
    }
    for (t = 0; t < THREADS; t++) {
      pthread_join (threads[t], NULL);
      n_passed += workers[t].passed;
      n_failed += workers[t].failed;
    }
    pthread_barrier_destroy (&start);
    for (c = 0; c < CONTEXTS; c++)
      drv.ctx_destroy (ctx[c]);
  }
  printf ("contexts: %d cases passed, %d failed (%.1f s)\n", n_passed - passed,
      n_failed - failed, lap_seconds ());
}

static void
test_arguments (cudaStream_t stream)
{
  enum
  { W = 16, H = 8, ES = 4 };
  const size_t src_bytes = 2 * W * H * ES, dst_bytes = 2 * H * W * ES;
  unsigned char host[2 * W * H * ES];
  void *d_src = NULL, *d_dst = NULL;
  CtPlane good, p, two[2];
  size_t i;
  int passed = n_passed, failed = n_failed;

  if (!CHECK (cudaMalloc (&d_src, src_bytes)) ||
      !CHECK (cudaMalloc (&d_dst, dst_bytes)))
    goto out;
  fill_random (host, src_bytes);
  if (!CHECK (cudaMemcpy (d_src, host, src_bytes, cudaMemcpyHostToDevice)) ||
      !CHECK (cudaMemset (d_dst, poisons[0], dst_bytes)))
    goto out;

  good.src = d_src;
  good.src_stride = W * ES;
  good.dst = d_dst;
  good.dst_stride = H * ES;
  good.width = W;
  good.height = H;
  good.elem_size = ES;

  expect_result ("NULL plane list",
      ct_transpose_planes (NULL, 1, CT_KERNEL_NAIVE, CT_MAPPING_TRANSPOSE,
          stream), CT_ERROR_INVALID_ARGUMENT);
  expect_result ("empty plane list",
      ct_transpose_planes (NULL, 0, CT_KERNEL_NAIVE, CT_MAPPING_TRANSPOSE,
          stream), CT_OK);

  p = good;
  p.src = NULL;
  expect_result ("NULL source", ct_transpose_planes (&p, 1, CT_KERNEL_TILED,
          CT_MAPPING_TRANSPOSE, stream), CT_ERROR_INVALID_ARGUMENT);
  p = good;
  p.dst = NULL;
  expect_result ("NULL destination", ct_transpose_planes (&p, 1,
          CT_KERNEL_TILED, CT_MAPPING_TRANSPOSE, stream),
      CT_ERROR_INVALID_ARGUMENT);

  p = good;
  p.elem_size = 5;
  expect_result ("element size 5", ct_transpose_planes (&p, 1,
          CT_KERNEL_TILED, CT_MAPPING_TRANSPOSE, stream),
      CT_ERROR_UNSUPPORTED_ELEMENT_SIZE);
  p.elem_size = 0;
  expect_result ("element size 0", ct_transpose_planes (&p, 1,
          CT_KERNEL_TILED, CT_MAPPING_TRANSPOSE, stream),
      CT_ERROR_UNSUPPORTED_ELEMENT_SIZE);
  p.elem_size = 16;
  expect_result ("element size 16", ct_transpose_planes (&p, 1,
          CT_KERNEL_TILED, CT_MAPPING_TRANSPOSE, stream),
      CT_ERROR_UNSUPPORTED_ELEMENT_SIZE);

  p = good;
  p.src_stride = W * ES - 1;
  expect_result ("source stride short of a row", ct_transpose_planes (&p, 1,
          CT_KERNEL_TILED, CT_MAPPING_TRANSPOSE, stream),
      CT_ERROR_INVALID_ARGUMENT);
  p = good;
  p.dst_stride = H * ES - 1;
  expect_result ("destination stride short of a row",
      ct_transpose_planes (&p, 1, CT_KERNEL_TILED, CT_MAPPING_TRANSPOSE,
          stream), CT_ERROR_INVALID_ARGUMENT);

  expect_result ("kernel cpu", ct_transpose_planes (&good, 1, CT_KERNEL_CPU,
          CT_MAPPING_TRANSPOSE, stream), CT_ERROR_UNSUPPORTED_KERNEL);
  expect_result ("kernel count", ct_transpose_planes (&good, 1,
          CT_KERNEL_COUNT, CT_MAPPING_TRANSPOSE, stream),
      CT_ERROR_UNSUPPORTED_KERNEL);
  expect_result ("mapping 8", ct_transpose_planes (&good, 1, CT_KERNEL_TILED,
          (CtMapping) 8, stream), CT_ERROR_INVALID_ARGUMENT);
  expect_result ("mapping -1", ct_transpose_planes (&good, 1,
          CT_KERNEL_AUTO, (CtMapping) - 1, stream), CT_ERROR_INVALID_ARGUMENT);
  /* the mappings that keep the axes want output rows of the source's
   * width (good's destination rows are H elements, shorter); a path other
   * than flip or exact forced on them is refused */
  for (i = CT_MAPPING_IDENTITY; i <= CT_MAPPING_ROTATE_180; i++) {
    CtPlaneBatch b = { good, 1, 0, 0 };
    CtPath ran = CT_PATH_THIN;

    expect_result ("a flip into rows too short",
        ct_transpose_planes (&good, 1, CT_KERNEL_TILED, (CtMapping) i,
            stream), CT_ERROR_INVALID_ARGUMENT);
    b.plane.dst_stride = W * ES;
    expect_result ("a flip forced onto the wide path",
        ct_transpose_batches_ex (&b, 1, CT_KERNEL_AUTO, CT_PATH_WIDE,
            (CtMapping) i, stream, &ran), CT_ERROR_UNSUPPORTED_KERNEL);
    expect_result ("a flip forced onto a seed's path",
        ct_transpose_batches_ex (&b, 1, CT_KERNEL_NAIVE, CT_PATH_NAIVE,
            (CtMapping) i, stream, &ran), CT_ERROR_UNSUPPORTED_KERNEL);
    expect_result ("a flip from a misaligned plane forced onto flip",
        ct_transpose_batches_ex (&(CtPlaneBatch) { {
                (const unsigned char *) d_src + 4, W * ES, d_dst, W * ES, W,
                H / 2, ES}, 1, 0, 0}, 1, CT_KERNEL_AUTO, CT_PATH_FLIP,
            (CtMapping) i, stream, &ran), CT_ERROR_UNSUPPORTED_KERNEL);
  }

  /* a bad second plane is found before the good first one is launched */
  two[0] = good;
  two[1] = good;
  two[1].dst = (unsigned char *) d_dst + W * H * ES;
  two[1].elem_size = 5;
  expect_result ("bad second plane", ct_transpose_planes (two, 2,
          CT_KERNEL_TILED, CT_MAPPING_TRANSPOSE, stream),
      CT_ERROR_UNSUPPORTED_ELEMENT_SIZE);

  /* empty planes with real pointers: nothing to do, nothing written */
  p = good;
  p.width = 0;
  expect_result ("width 0", ct_transpose_planes (&p, 1, CT_KERNEL_TILED,
          CT_MAPPING_TRANSPOSE, stream), CT_OK);
  p = good;
  p.height = 0;
  expect_result ("height 0", ct_transpose_planes (&p, 1, CT_KERNEL_NAIVE,
          CT_MAPPING_ROTATE_90R, stream), CT_OK);

  /* nothing above may have launched anything */
  if (CHECK (cudaGetLastError ()) && CHECK (cudaStreamSynchronize (stream)) &&
      CHECK (cudaMemcpy (host, d_dst, dst_bytes, cudaMemcpyDeviceToHost))) {
    i = 0;
    while (i < dst_bytes && host[i] == poisons[0])
      i++;
    if (i == dst_bytes) {
      n_passed++;
    } else {
      printf ("FAIL: refused or empty calls wrote byte %zu of the "
          "destination: 0x%02x\n", i, host[i]);
      n_failed++;
    }
  }

out:
  if (d_src != NULL)
    CHECK (cudaFree (d_src));
  if (d_dst != NULL)
    CHECK (cudaFree (d_dst));
  printf ("argument checks: %d cases passed, %d failed (%.1f s)\n", n_passed - passed,
      n_failed - failed, lap_seconds ());
}

static void
test_names (void)
{
  static const CtResult results[] = {
    CT_OK, CT_ERROR_INVALID_ARGUMENT, CT_ERROR_UNSUPPORTED_ELEMENT_SIZE,
    CT_ERROR_UNSUPPORTED_KERNEL, CT_ERROR_NO_DRIVER,
    (CtResult) cudaErrorInvalidValue, -100,
  };
  char what[64];
  unsigned int i;

  for (i = 0; i < N_ELEMENTS (results); i++) {
    snprintf (what, sizeof (what), "ct_result_string (%d)", results[i]);
    expect_string (what, ct_result_string (results[i]));
  }
  for (i = 0; i < CT_KERNEL_COUNT; i++) {
    snprintf (what, sizeof (what), "ct_kernel_name (%u)", i);
    expect_string (what, ct_kernel_name ((CtKernel) i));
  }
  for (i = 0; i <= CT_PATH_COUNT; i++) {
    snprintf (what, sizeof (what), "ct_path_name (%u)", i);
    expect_string (what, ct_path_name ((CtPath) i));
  }
  /* a named variant is the path of its name */
  for (i = 0; i < CT_KERNEL_COUNT; i++) {
    unsigned int k;

    if (i == CT_KERNEL_AUTO)
      continue;
    for (k = 0; k < CT_PATH_COUNT; k++)
      if (strcmp (ct_path_name ((CtPath) k), ct_kernel_name (i)) == 0)
        break;
    if (k < CT_PATH_COUNT) {
      n_passed++;
    } else {
      printf ("FAIL: variant %s is no path\n", ct_kernel_name (i));
      n_failed++;
    }
  }
}

int
main (int argc, char **argv)
{
  /* tile edges, ragged edges, single rows and columns */
  static const unsigned int small_shapes[][2] = {
    {1, 1}, {1, 1024}, {1024, 1}, {33, 65}, {31, 17}, {64, 64},
  };
  /* several tiles each way, neither a multiple of any tile */
  static const unsigned int big_shapes[][2] = {
    {512, 1024}, {1000, 1500},
  };
  /* thin planes long enough that the thin path moves several elements per
   * thread (on an H200, 4 and 8; the planner's kAuto.thin_blocks_per_sm),
   * ragged at the end */
  static const unsigned int long_thin_shapes[][2] = {
    {3, 2000001}, {2000001, 9},
  };
  /* the wide kernels' tiles are 256, 128, 64, 64 and 32 elements square
   * for 1, 2, 3, 4 and 8 bytes: one past, one short, and micro-blocks cut
   * by the plane's edge in either direction; thin planes of several lines
   * and several blocks along each */
  static const unsigned int wide_shapes[][2] = {
    {257, 255}, {129, 300}, {65, 63}, {33, 31}, {15, 17}, {16, 16},
    {1, 300}, {300, 1}, {513, 70}, {5, 700}, {700, 9},
  };
  /* wide-swizzle streams single planes of a few waves (a block moves
   * several tiles in turn): bytes from 1.5 tiles of 256x256 per
   * multiprocessor, so a plane of 16 x 14 of them, ragged; the other sizes
   * at more tiles than the stream grid's 2 blocks per multiprocessor of an
   * H200 (132) */
  static const unsigned int stream_byte_shapes[][2] = { {4001, 3499} };
  static const unsigned int stream_shapes[][2] = { {3001, 1499} };
  static const unsigned int stream_sizes[] = { 2, 4, 8 };
  static const unsigned int byte_size[] = { 1 };
  static const int stream_strides[] = { STRIDES_PITCHED, STRIDES_ODD_BASE };
  /* more tile rows (or, for naive-column, columns) than the grid's y limit
   * of 65535 blocks, so the kernels' loops over it run */
  static const unsigned int grid_shapes[][2] = {
    {1, 4300000}, {600000, 1},
  };
  /* batched planes: tile edges, thin planes and the small byte tile */
  static const unsigned int batch_shapes[][2] = {
    {33, 65}, {257, 255}, {513, 70}, {5, 700}, {700, 9}, {64, 64},
    {700, 40}, {40, 700},
  };
  /* byte planes with a short side of 16 to 64 (the skinny tiles: 64 rows
   * by 1024 bytes, 1024 rows by 64 bytes), ragged both ways */
  static const unsigned int skinny_shapes[][2] = {
    {5000, 64}, {3001, 40}, {64, 5000}, {33, 2001}, {1030, 17},
  };
  static const unsigned int some_sizes[] = { 1, 3, 8 };
  static const unsigned int grid_sizes[] = { 1, 4 };
  static const int every_strides[] = {
    STRIDES_ALIGNED, STRIDES_ODD, STRIDES_ODD_BASE, STRIDES_SRC_STRIDE,
    STRIDES_DST_STRIDE, STRIDES_SRC_BASE, STRIDES_DST_BASE, STRIDES_TIGHT,
    STRIDES_PITCHED, STRIDES_PITCHED_4, STRIDES_PITCHED_8,
  };
  static const int main_strides[] = {
    STRIDES_ALIGNED, STRIDES_ODD, STRIDES_ODD_BASE, STRIDES_PITCHED,
  };
  static const int wide_strides[] = {
    STRIDES_PITCHED, STRIDES_PITCHED_4, STRIDES_PITCHED_8, STRIDES_ODD,
  };
  static const int two_strides[] = { STRIDES_ALIGNED, STRIDES_ODD_BASE };
  /* the flip path (16-byte rows; 4-byte ones, as GStreamer's) and the
   * exact one (odd, and 8 bytes off) */
  static const int flip_strides[] = {
    STRIDES_PITCHED, STRIDES_ALIGNED, STRIDES_PITCHED_4, STRIDES_PITCHED_8,
    STRIDES_ODD,
  };
  static const int pitched_strides[] = { STRIDES_PITCHED, STRIDES_PITCHED_4 };
  static const int aligned_strides[] = { STRIDES_ALIGNED };
  static const int thin_strides[] = { STRIDES_ALIGNED, STRIDES_ODD_BASE };
  static const int small_strides[] = { STRIDES_SMALL, STRIDES_PITCHED };
  int n_devices = 0, device = 0;
  uint64_t seed = DEFAULT_SEED;
  struct cudaDeviceProp prop;
  cudaStream_t stream = NULL;
  CtResult res;

  res = ct_device_count (&n_devices);
  if (res != CT_OK || n_devices == 0) {
    printf ("SKIP: no CUDA device (%s)\n", res != CT_OK ?
        ct_result_string (res) : "none found");
    return 77;
  }

  if (argc > 1)
    seed = strtoull (argv[1], NULL, 0);
  if (argc > 2)
    only_groups = argv[2];
  /* xorshift never leaves zero */
  if (seed == 0)
    seed = DEFAULT_SEED;
  rng_state = seed;
  printf ("seed 0x%016" PRIx64 "\n", seed);

  if (CHECK (cudaGetDevice (&device)) &&
      CHECK (cudaGetDeviceProperties (&prop, device)))
    printf ("device %d: %s\n", device, prop.name);
  if (!CHECK (cudaStreamCreate (&stream))) {
    print_summary ();
    return 1;
  }

  (void) lap_seconds ();
  if (wanted ("names"))
    test_names ();
  if (wanted ("argument checks"))
    test_arguments (stream);

  run_group ("small shapes, transpose", small_shapes,
      N_ELEMENTS (small_shapes), all_sizes, N_ELEMENTS (all_sizes),
      every_strides, N_ELEMENTS (every_strides), transpose_only,
      N_ELEMENTS (transpose_only), stream);
  run_group ("small shapes, mirrored mappings", small_shapes,
      N_ELEMENTS (small_shapes), all_sizes, N_ELEMENTS (all_sizes),
      two_strides, N_ELEMENTS (two_strides), mirrored_mappings,
      N_ELEMENTS (mirrored_mappings), stream);
  run_group ("small shapes, flips", small_shapes,
      N_ELEMENTS (small_shapes), all_sizes, N_ELEMENTS (all_sizes),
      flip_strides, N_ELEMENTS (flip_strides), flip_mappings,
      N_ELEMENTS (flip_mappings), stream);
  run_group ("wide tile edges, transpose", wide_shapes,
      N_ELEMENTS (wide_shapes), all_sizes, N_ELEMENTS (all_sizes),
      wide_strides, N_ELEMENTS (wide_strides), transpose_only,
      N_ELEMENTS (transpose_only), stream);
  run_group ("wide tile edges, mirrored mappings", wide_shapes,
      N_ELEMENTS (wide_shapes), all_sizes, N_ELEMENTS (all_sizes),
      pitched_strides, N_ELEMENTS (pitched_strides), mirrored_mappings,
      N_ELEMENTS (mirrored_mappings), stream);
  run_group ("wide tile edges, flips", wide_shapes,
      N_ELEMENTS (wide_shapes), all_sizes, N_ELEMENTS (all_sizes),
      flip_strides, N_ELEMENTS (flip_strides), flip_mappings,
      N_ELEMENTS (flip_mappings), stream);
  run_group ("large shapes, transpose", big_shapes, N_ELEMENTS (big_shapes),
      all_sizes, N_ELEMENTS (all_sizes), main_strides,
      N_ELEMENTS (main_strides), transpose_only, N_ELEMENTS (transpose_only),
      stream);
  run_group ("large shapes, thin", long_thin_shapes,
      N_ELEMENTS (long_thin_shapes), some_sizes, N_ELEMENTS (some_sizes),
      thin_strides, N_ELEMENTS (thin_strides), transpose_only,
      N_ELEMENTS (transpose_only), stream);
  run_group ("large shapes, thin, mirrored mappings", long_thin_shapes,
      N_ELEMENTS (long_thin_shapes), byte_size, N_ELEMENTS (byte_size),
      aligned_strides, N_ELEMENTS (aligned_strides), all_but_transpose,
      N_ELEMENTS (all_but_transpose), stream);
  run_group ("large shapes, mirrored mappings", big_shapes,
      N_ELEMENTS (big_shapes), some_sizes, N_ELEMENTS (some_sizes),
      aligned_strides, N_ELEMENTS (aligned_strides), mirrored_mappings,
      N_ELEMENTS (mirrored_mappings), stream);
  run_group ("large shapes, flips", big_shapes, N_ELEMENTS (big_shapes),
      all_sizes, N_ELEMENTS (all_sizes), flip_strides,
      N_ELEMENTS (flip_strides), flip_mappings, N_ELEMENTS (flip_mappings),
      stream);
  run_group ("streamed planes, bytes", stream_byte_shapes,
      N_ELEMENTS (stream_byte_shapes), byte_size, N_ELEMENTS (byte_size),
      stream_strides, N_ELEMENTS (stream_strides), transpose_only,
      N_ELEMENTS (transpose_only), stream);
  run_group ("streamed planes", stream_shapes, N_ELEMENTS (stream_shapes),
      stream_sizes, N_ELEMENTS (stream_sizes), stream_strides,
      N_ELEMENTS (stream_strides), transpose_only,
      N_ELEMENTS (transpose_only), stream);
  run_group ("past the grid limit", grid_shapes, N_ELEMENTS (grid_shapes),
      grid_sizes, N_ELEMENTS (grid_sizes), small_strides,
      N_ELEMENTS (small_strides), ends, N_ELEMENTS (ends), stream);
  run_group ("skinny byte planes", skinny_shapes,
      N_ELEMENTS (skinny_shapes), byte_size, N_ELEMENTS (byte_size),
      stream_strides, N_ELEMENTS (stream_strides), ends, N_ELEMENTS (ends),
      stream);
  run_paths (stream);
  if (wanted ("multi-plane frames"))
    run_frames (stream);
  run_batches (batch_shapes, N_ELEMENTS (batch_shapes), stream_strides,
      N_ELEMENTS (stream_strides), ends, N_ELEMENTS (ends), stream);
  if (wanted ("permutations"))
    run_permutations (stream);
  if (wanted ("channels"))
    run_channels (stream);
  if (wanted ("4:2:2"))
    run_422 (stream);
  if (wanted ("contexts"))
    run_contexts ();

  CHECK (cudaStreamDestroy (stream));
  print_summary ();
  return n_failed == 0 ? 0 : 1;
}
