/* The kernels' test (test-kernels.c): the harness of the plane groups.
 * A frame of planes is laid out in one source and one destination
 * allocation with the row padding and plane offsets of a Strides entry,
 * filled with random bytes, run through every GPU variant under each
 * mapping over a destination poisoned twice, and compared byte for byte
 * with the reference loop (build_expected); a mismatch is reported by the
 * element it hit. run_group runs one group of single-plane frames. */
#include "kernels-check.h"

/* Mismatches past this many are counted but not printed. */
#define MAX_REPORTS 20
/* Poisoned bytes after the last destination plane catch overruns. */
#define GUARD_BYTES 256

static int n_reports;
/* run_frame's forced path (the paths group), CT_PATH_NONE elsewhere */
CtPath forced_path = CT_PATH_NONE;

/* Complementary bit patterns: no byte equals both. */
const unsigned char poisons[2] = { 0xa5, 0x5a };

static const CtKernel gpu_kernels[] = {
  CT_KERNEL_AUTO, CT_KERNEL_NAIVE, CT_KERNEL_NAIVE_COLUMN, CT_KERNEL_TILED,
  CT_KERNEL_TILED_PADDED, CT_KERNEL_RECT, CT_KERNEL_RECT_PADDED,
  CT_KERNEL_TILED_64, CT_KERNEL_WIDE, CT_KERNEL_WIDE_PADDED,
  CT_KERNEL_WIDE_SWIZZLE,
};

const unsigned int all_sizes[] = { 1, 2, 3, 4, 8 };

const Strides strides_table[] = {
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
        ct_ref_point (mapping, s->width, s->height, x, y, &ox, &oy);
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
      ct_ref_source (mapping, s->width, s->height, ox, oy, &x, &y);
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
    return ran == CT_PATH_FLIP || ran == CT_PATH_FLIP_EXACT;
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
void
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
void
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
