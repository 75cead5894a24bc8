/* Times every GPU transpose variant on the kernels' C API against a
 * device-to-device copy of the same bytes, measured in the same run, and
 * against cuBLAS (cublasSgeam, 4-byte elements) and NPP (nppiTranspose)
 * where the host has them.
 *
 *   bench-kernels [--reps N] [--json FILE] [--planes-only | --frames-only |
 *                 --directions | --odd] [--quick] [--latency]
 *   bench-kernels [--tight] [--frame I420|NV12] [--direction NAME] \
 *       --one VARIANT WIDTH HEIGHT ELEMENT_SIZE
 *   bench-kernels [--reps N] [--frame I420|NV12] \
 *       --force PATH[,PATH...]|all WIDTH HEIGHT ES
 *
 * --one runs one variant once on one random plane and checks it, for a
 * profiler (docs/kernels.md has the ncu command lines); with --tight (before
 * --one) its rows are packed, as a tensor's are; with --frame, the planes of
 * a WIDTHxHEIGHT I420 or NV12 frame (ELEMENT_SIZE 1) in one call; with
 * --direction, a video direction's name (90r, ur-ll, horiz, ...) instead of
 * the transpose. --force times the copy,
 * auto and each named path forced on one plane, or with --frame on a
 * frame's planes in one call (bench-force.c).
 *
 * Planes: element sizes 1, 2, 3, 4, 8 on 8192x8192 (16384x16384 for bytes),
 * 8000x6000, 1000x1500, 1x65536, 65536x1, 3840x2160 and 1920x1080 (width x
 * height). Rows are padded to a multiple of 16 bytes, as a pitched device
 * allocation would be. Frames: 1080p and 4K I420, NV12, RGBA and GRAY8, all
 * planes in one call, against one copy of the frame's bytes.
 *
 * --latency: each sample is one call launched and waited for, as the
 * element runs a buffer: from the call to cudaStreamSynchronize's return,
 * on the host's clock, the stream idle (and the L2 flushed) before it. The
 * copy it is a fraction of is timed the same way. Without it, the GPU's
 * own time of each call between CUDA events (throughput).
 *
 * --odd: shapes whose rows are not a multiple of 16 bytes, odd heights,
 * 1xN and Nx1, each with rows padded to 16 bytes ("odd") and packed as a
 * tensor's are ("tight", row starts as misaligned as the width makes them).
 *
 * --directions: auto in each of the eight video directions (CtMapping) on
 * 8192x8192 planes of every element size and on whole 1080p and 4K I420
 * frames, against a copy of the same bytes and, for the frames, the plain
 * transpose's time, all in the same run.
 *
 * The GPU first runs flat out for about a second so its clocks are up.
 * Each timing is the median of N runs (default 50) after 3 warm-up runs,
 * each run timed alone with CUDA events, and the L2 cache flushed before
 * each run by reading a buffer twice its size (flush-l2.cu), so no run finds
 * its data in L2 and none pays for write-backs of the flush. Bandwidth
 * counts bytes read plus bytes written; "copy" is cudaMemcpyAsync device to
 * device of the payload bytes. Every variant's
 * output (and each peer's) is checked against a host reference transpose on
 * random data over a poisoned destination before it is timed; a mismatch
 * makes the exit status 1. Exits 77 without a device. cuBLAS and NPP are
 * opened with dlopen, so the benchmark builds and runs without them.
 */
#include "cudatranspose-kernels-tests.h"
#include "bench-force.h"
#include "flush-l2.h"
#include "peers.h"
#include "bench-util.h"
#include "orientation-reference.h"
#include "random-fill.h"

#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_ELEMENTS(a) (sizeof (a) / sizeof ((a)[0]))
#define ROW_ALIGN 16
#define PLANE_ALIGN 256
#define WARMUP 3
#define MAX_FRAME_PLANES 3

#define CHECK(call) do { \
    cudaError_t e_ = (call); \
    if (e_ != cudaSuccess) { \
      fprintf (stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
          cudaGetErrorString (e_)); \
      exit (1); \
    } \
  } while (0)

/* Pseudo-variants after the library's own. */
enum
{
  PEER_COPY = -1,
  PEER_CUBLAS = CT_KERNEL_COUNT,
  PEER_NPP,
};

typedef struct
{
  unsigned int w, h;
} Shape;

typedef struct
{
  const char *name;
  unsigned int w, h;
  unsigned int n;
  unsigned int pw[MAX_FRAME_PLANES], ph[MAX_FRAME_PLANES];
  unsigned int es[MAX_FRAME_PLANES];
} FrameSpec;

/* A set of planes in one source and one destination allocation. */
typedef struct
{
  char label[64];
  unsigned int n;
  CtPlane planes[MAX_FRAME_PLANES];
  size_t src_off[MAX_FRAME_PLANES], dst_off[MAX_FRAME_PLANES];
  size_t src_size, dst_size, payload;
  unsigned char *d_src, *d_dst;
  unsigned char *h_src, *h_want, *h_got;
  CtMapping mapping;            /* (0: the transpose) */
} Job;

/* The path the last run of one of our variants took (its largest plane). */
static CtPath last_path = CT_PATH_NONE;
/* --force: the path our variants' runs are forced to (none: the planner's) */
static CtPath force_path = CT_PATH_NONE;

/* ---- data ---- */

/* the tests' generator (tests/common/random-fill.h), a fixed seed */
static uint64_t rng_state = UINT64_C (0x2545f4914f6cdd1d);

static void
fill_random (unsigned char *buf, size_t size)
{
  ct_ref_fill_random (&rng_state, buf, size);
}

static size_t row_align = ROW_ALIGN;    /* --odd's tight rows: 1 */

static size_t
round_up (size_t v, size_t a)
{
  return (v + a - 1) / a * a;
}

/* The directions, by GStreamer's names. */
static const struct
{
  CtMapping mapping;
  const char *name;
} directions[] = {
  {CT_MAPPING_TRANSPOSE, "ul-lr"}, {CT_MAPPING_ANTI_TRANSPOSE, "ur-ll"},
  {CT_MAPPING_ROTATE_90R, "90r"}, {CT_MAPPING_ROTATE_90L, "90l"},
  {CT_MAPPING_ROTATE_180, "180"}, {CT_MAPPING_FLIP_HORIZONTAL, "horiz"},
  {CT_MAPPING_FLIP_VERTICAL, "vert"}, {CT_MAPPING_IDENTITY, "identity"},
};

static const char *
direction_name (CtMapping mapping)
{
  unsigned int i;

  for (i = 0; i < N_ELEMENTS (directions); i++)
    if (directions[i].mapping == mapping)
      return directions[i].name;
  return "?";
}

static int
keeps_axes (CtMapping mapping)
{
  return mapping == CT_MAPPING_IDENTITY ||
      mapping == CT_MAPPING_FLIP_HORIZONTAL ||
      mapping == CT_MAPPING_FLIP_VERTICAL || mapping == CT_MAPPING_ROTATE_180;
}

/* Lays out, allocates and fills a job; the reference is the host loop. */
static void
job_init (Job * j)
{
  size_t so = 0, dof = 0, i;
  unsigned int x, y, b, pl;

  j->payload = 0;
  for (pl = 0; pl < j->n; pl++) {
    CtPlane *p = &j->planes[pl];

    p->src_stride = round_up ((size_t) p->width * p->elem_size, row_align);
    p->dst_stride = round_up ((size_t) (keeps_axes (j->mapping) ? p->width :
            p->height) * p->elem_size, row_align);
    j->src_off[pl] = round_up (so, PLANE_ALIGN);
    j->dst_off[pl] = round_up (dof, PLANE_ALIGN);
    so = j->src_off[pl] + p->src_stride * p->height;
    dof = j->dst_off[pl] + p->dst_stride * (keeps_axes (j->mapping) ?
        p->height : p->width);
    j->payload += (size_t) p->width * p->height * p->elem_size;
  }
  j->src_size = so;
  j->dst_size = dof;
  CHECK (cudaMalloc ((void **) &j->d_src, j->src_size));
  CHECK (cudaMalloc ((void **) &j->d_dst, j->dst_size));
  j->h_src = malloc (j->src_size);
  j->h_want = malloc (j->dst_size);
  j->h_got = malloc (j->dst_size);
  if (j->h_src == NULL || j->h_want == NULL || j->h_got == NULL) {
    fprintf (stderr, "out of host memory for %s\n", j->label);
    exit (1);
  }
  fill_random (j->h_src, j->src_size);
  /* 4-byte planes are also cublasSgeam's floats, which computes alpha * A:
   * keep them finite and normal (random sign, mantissa and exponent in
   * 1..254), or NaN payloads and denormals would not survive it */
  if (j->n == 1 && j->planes[0].elem_size == 4) {
    for (i = 0; i + 4 <= j->src_size; i += 4) {
      uint32_t w, e;
      memcpy (&w, j->h_src + i, 4);
      e = (w >> 23) & 0xff;
      if (e == 0 || e == 0xff)
        w = (w & 0x807fffffu) | (0x7fu << 23);
      memcpy (j->h_src + i, &w, 4);
    }
  }
  CHECK (cudaMemcpy (j->d_src, j->h_src, j->src_size,
          cudaMemcpyHostToDevice));
  memset (j->h_want, 0xa5, j->dst_size);
  for (pl = 0; pl < j->n; pl++) {
    CtPlane *p = &j->planes[pl];
    const unsigned char *s = j->h_src + j->src_off[pl];
    unsigned char *d = j->h_want + j->dst_off[pl];
    unsigned int es = p->elem_size;

    p->src = j->d_src + j->src_off[pl];
    p->dst = j->d_dst + j->dst_off[pl];
    if (j->mapping != CT_MAPPING_TRANSPOSE) {
      for (y = 0; y < p->height; y++) {
        for (x = 0; x < p->width; x++) {
          unsigned int ox, oy;
          ct_ref_point (j->mapping, p->width, p->height, x, y, &ox, &oy);
          memcpy (d + (size_t) oy * p->dst_stride + (size_t) ox * es,
              s + (size_t) y * p->src_stride + (size_t) x * es, es);
        }
      }
      continue;
    }
    /* blocks of 64 rows keep the source lines in cache */
    for (y = 0; y < p->height; y += 64) {
      unsigned int y1 = y + 64 < p->height ? y + 64 : p->height, yy;
      for (x = 0; x < p->width; x++) {
        for (yy = y; yy < y1; yy++) {
          for (b = 0; b < es; b++)
            d[(size_t) x * p->dst_stride + (size_t) yy * es + b] =
                s[(size_t) yy * p->src_stride + (size_t) x * es + b];
        }
      }
    }
  }
}

static void
job_clear (Job * j)
{
  CHECK (cudaFree (j->d_src));
  CHECK (cudaFree (j->d_dst));
  free (j->h_src);
  free (j->h_want);
  free (j->h_got);
}

/* ---- running ---- */

static cudaStream_t stream;
static unsigned char *flush_buf;
static unsigned int *flush_sink;
static size_t flush_size;
static int reps = 50;
static int failures;
static const char *peers_note = "";  /* which peers were found */
static int latency;             /* --latency */
static double last_launch_us;   /* --latency: the host's time in the last
                                 * timed call itself (median) */

static const char *
variant_name (int v)
{
  if (v == PEER_COPY)
    return "copy";
  if (v == PEER_CUBLAS)
    return "cublasSgeam";
  if (v == PEER_NPP)
    return "nppiTranspose";
  return ct_kernel_name ((CtKernel) v);
}

/* Whether variant @v can run this job at all. */
static int
variant_applies (int v, const Job * j)
{
  if (v == PEER_CUBLAS)
    return peers_have_cublas () && j->n == 1 && j->planes[0].elem_size == 4;
  if (v == PEER_NPP)
    return j->n == 1 && peers_have_npp (j->planes[0].elem_size);
  return 1;
}

static void
run_once (int v, Job * j)
{
  const CtPlane *p = &j->planes[0];

  if (v == PEER_COPY) {
    CHECK (cudaMemcpyAsync (j->d_dst, j->d_src, j->payload,
            cudaMemcpyDeviceToDevice, stream));
  } else if (v == PEER_CUBLAS) {
    if (!peers_cublas_transpose (p))
      exit (1);
  } else if (v == PEER_NPP) {
    if (!peers_npp_transpose (p))
      exit (1);
  } else {
    /* the planes as batches of one: the call that reports its path */
    CtPlaneBatch b[MAX_FRAME_PLANES];
    unsigned int i;
    CtResult r;

    for (i = 0; i < j->n; i++) {
      b[i].plane = j->planes[i];
      b[i].count = 1;
      b[i].src_step = b[i].dst_step = 0;
    }
    r = ct_transpose_batches_ex (b, j->n, (CtKernel) v, force_path,
        j->mapping, (CtStream) stream, &last_path);
    if (r != CT_OK) {
      fprintf (stderr, "%s on %s: %s\n", variant_name (v), j->label,
          ct_result_string (r));
      exit (1);
    }
  }
}

/* Runs @v once over a poisoned destination and compares the whole
 * destination, padding included, with the reference. */
static int
check_variant (int v, Job * j)
{
  size_t i;

  CHECK (cudaMemsetAsync (j->d_dst, 0xa5, j->dst_size, stream));
  run_once (v, j);
  CHECK (cudaStreamSynchronize (stream));
  CHECK (cudaMemcpy (j->h_got, j->d_dst, j->dst_size,
          cudaMemcpyDeviceToHost));
  if (memcmp (j->h_got, j->h_want, j->dst_size) == 0)
    return 1;
  for (i = 0; i < j->dst_size && j->h_got[i] == j->h_want[i]; i++);
  fprintf (stderr, "MISMATCH: %s on %s: first wrong byte %zu "
      "(got 0x%02x, want 0x%02x)\n", variant_name (v), j->label, i,
      j->h_got[i], j->h_want[i]);
  failures++;
  return 0;
}

/* --latency: median microseconds from calling @run (@v, @ctx) to the
 * stream's end of it on the host, the stream idle and the L2 flushed
 * before each. */
static double
time_calls (void (*run) (int, void *), int v, void *ctx)
{
  double *us = calloc (reps, sizeof (double));
  double *launch_us = calloc (reps, sizeof (double));
  double t0, t1, med;
  int i;

  if (us == NULL || launch_us == NULL) {
    fprintf (stderr, "out of memory\n");
    exit (1);
  }
  for (i = -WARMUP; i < reps; i++) {
    CHECK (bench_flush_l2 (flush_buf, flush_size, flush_sink, stream));
    CHECK (cudaStreamSynchronize (stream));
    t0 = bench_now_us ();
    run (v, ctx);
    t1 = bench_now_us ();
    CHECK (cudaStreamSynchronize (stream));
    if (i >= 0) {
      us[i] = bench_now_us () - t0;
      launch_us[i] = t1 - t0;
    }
  }
  med = bench_median (us, reps);
  last_launch_us = bench_median (launch_us, reps);
  free (us);
  free (launch_us);
  return med;
}

/* Median microseconds of @run (@v, @ctx) on the stream: warm-up runs, the
 * L2 flushed before each; under --latency, time_calls. */
static double
time_runs (void (*run) (int, void *), int v, void *ctx)
{
  cudaEvent_t a, b;
  double *ms;
  float one;
  double med;
  int i;

  if (latency)
    return time_calls (run, v, ctx);
  ms = calloc (reps, sizeof (double));
  if (ms == NULL) {
    fprintf (stderr, "out of memory\n");
    exit (1);
  }

  CHECK (cudaEventCreate (&a));
  CHECK (cudaEventCreate (&b));
  for (i = -WARMUP; i < reps; i++) {
    CHECK (bench_flush_l2 (flush_buf, flush_size, flush_sink, stream));
    CHECK (cudaEventRecord (a, stream));
    run (v, ctx);
    CHECK (cudaEventRecord (b, stream));
    CHECK (cudaEventSynchronize (b));
    if (i >= 0) {
      CHECK (cudaEventElapsedTime (&one, a, b));
      ms[i] = one;
    }
  }
  med = bench_median (ms, reps) * 1000.0;
  free (ms);
  CHECK (cudaEventDestroy (a));
  CHECK (cudaEventDestroy (b));
  return med;
}

static void
run_job (int v, void *j)
{
  run_once (v, (Job *) j);
}

static double
time_variant (int v, Job * j)
{
  return time_runs (run_job, v, j);
}

/* ---- output ---- */

typedef struct
{
  char mode[8];
  char label[64];
  unsigned int es;
  size_t payload;
  int variant;
  const char *path;             /* what ran for the largest plane */
  CtMapping mapping;
  double us, gbps, vs_copy, vs_naive, copy_us;
  double launch_us;             /* --latency: the call's own host time */
  int ok;
} Row;

static Row *rows;
static size_t n_rows, rows_cap;

static void
add_row (const char *mode, const Job * j, int v, double us, double copy_us,
    double naive_us, int ok)
{
  Row *r;

  if (n_rows == rows_cap) {
    rows_cap = rows_cap ? rows_cap * 2 : 256;
    rows = realloc (rows, rows_cap * sizeof (Row));
    if (rows == NULL) {
      fprintf (stderr, "out of memory\n");
      exit (1);
    }
  }
  r = &rows[n_rows++];
  snprintf (r->mode, sizeof (r->mode), "%s", mode);
  snprintf (r->label, sizeof (r->label), "%s", j->label);
  r->es = j->n == 1 ? j->planes[0].elem_size : 0;
  r->payload = j->payload;
  r->variant = v;
  r->us = us;
  r->gbps = 2.0 * j->payload / (us * 1e3);
  r->vs_copy = copy_us / us;
  r->vs_naive = naive_us > 0 ? naive_us / us : 0;
  r->copy_us = copy_us;
  r->launch_us = latency ? last_launch_us : 0;
  r->ok = ok;
  r->mapping = j->mapping;
  r->path = v >= CT_KERNEL_AUTO && v < CT_KERNEL_CPU ?
      ct_path_name (last_path) : variant_name (v);
  printf ("%-6s %-22s %-14s %10.1f %8.0f %7.2fx %8.2fx  %s%s%s", mode,
      j->label, variant_name (v), us, r->gbps, r->vs_copy, r->vs_naive,
      r->path, strcmp (mode, "dir") == 0 && v != PEER_COPY ? ", " : "",
      strcmp (mode, "dir") == 0 && v != PEER_COPY ?
      direction_name (j->mapping) : "");
  if (latency)
    printf (" (call %.1f us)", r->launch_us);
  printf ("\n");
  if (!ok)
    printf ("  WRONG\n");
  fflush (stdout);
}

/* Times the copy, then every variant that applies, on one job. */
static void
bench_job (const char *mode, Job * j)
{
  int variants[CT_KERNEL_COUNT + 2], nv = 0, i;
  double copy_us, naive_us = 0;

  for (i = CT_KERNEL_AUTO; i < CT_KERNEL_CPU; i++)
    variants[nv++] = i;
  variants[nv++] = PEER_CUBLAS;
  variants[nv++] = PEER_NPP;

  copy_us = time_variant (PEER_COPY, j);
  add_row (mode, j, PEER_COPY, copy_us, copy_us, 0, 1);
  for (i = 0; i < nv; i++) {
    int v = variants[i], ok;
    double us;

    /* the peers' own limits (int strides, shapes) are theirs */
    if (!variant_applies (v, j))
      continue;
    ok = check_variant (v, j);
    us = time_variant (v, j);
    if (v == CT_KERNEL_NAIVE)
      naive_us = us;
    add_row (mode, j, v, us, copy_us, v == CT_KERNEL_AUTO ? 0 : naive_us, ok);
  }
}

static void
write_json (const char *path, const char *device)
{
  FILE *f = fopen (path, "w");
  size_t i;

  if (f == NULL) {
    perror (path);
    failures++;
    return;
  }
  fprintf (f, "{\n  \"device\": \"%s\",\n  \"reps\": %d,\n  \"timing\": "
      "\"%s\",\n  \"peers\": \"%s\",\n  \"rows\": [\n", device, reps,
      latency ? "latency" : "throughput", peers_note);
  for (i = 0; i < n_rows; i++) {
    const Row *r = &rows[i];
    fprintf (f, "    {\"mode\": \"%s\", \"shape\": \"%s\", \"elem_size\": %u, "
        "\"payload_bytes\": %zu, \"variant\": \"%s\", \"us\": %.3f, "
        "\"gbps\": %.1f, \"copy_fraction\": %.4f, \"vs_naive\": %.3f, "
        "\"copy_us\": %.3f, \"launch_us\": %.3f, \"path\": \"%s\", "
        "\"direction\": \"%s\", "
        "\"correct\": %s}%s\n",
        r->mode, r->label, r->es, r->payload, variant_name (r->variant),
        r->us, r->gbps, r->vs_copy, r->vs_naive, r->copy_us, r->launch_us,
        r->path,
        direction_name (r->mapping), r->ok ? "true" : "false",
        i + 1 < n_rows ? "," : "");
  }
  fprintf (f, "  ]\n}\n");
  fclose (f);
}

/* A job of one WxH plane of @es-byte elements, not yet laid out. */
static void
plane_job (Job * j, unsigned int w, unsigned int h, unsigned int es)
{
  memset (j, 0, sizeof (*j));
  j->n = 1;
  j->planes[0].width = w;
  j->planes[0].height = h;
  j->planes[0].elem_size = es;
  snprintf (j->label, sizeof (j->label), "%ux%u %uB", w, h, es);
}

/* A job of frame @fs's planes, not yet laid out. */
static void
frame_job (Job * j, const FrameSpec * fs)
{
  unsigned int i;

  memset (j, 0, sizeof (*j));
  j->n = fs->n;
  for (i = 0; i < j->n; i++) {
    j->planes[i].width = fs->pw[i];
    j->planes[i].height = fs->ph[i];
    j->planes[i].elem_size = fs->es[i];
  }
  snprintf (j->label, sizeof (j->label), "%s %ux%u", fs->name, fs->w, fs->h);
}

/* --directions: auto in every direction on one plane or frame, the copy
 * of its bytes timed once (the payload is the same in every direction). */
static void
bench_direction_job (Job * proto)
{
  double copy_us = 0;
  unsigned int d;

  for (d = 0; d < N_ELEMENTS (directions); d++) {
    Job j = *proto;
    int ok;
    double us;

    j.mapping = directions[d].mapping;
    job_init (&j);
    if (d == 0) {
      copy_us = time_variant (PEER_COPY, &j);
      add_row ("dir", &j, PEER_COPY, copy_us, copy_us, 0, 1);
    }
    ok = check_variant (CT_KERNEL_AUTO, &j);
    us = time_variant (CT_KERNEL_AUTO, &j);
    add_row ("dir", &j, CT_KERNEL_AUTO, us, copy_us, 0, ok);
    job_clear (&j);
  }
}

/* --directions, 4:2:2 where videoflip resamples it (ct_transpose_422):
 * a 4K YUY2 frame in every direction the element sends there (all but
 * vert and identity, which move macropixels as 4-byte elements), and the
 * two chroma planes of a 4K I422_10LE frame in the four that swap the axes
 * (its luma is an ordinary 2-byte plane). Each against a device copy of
 * the same bytes, checked against ct_transpose_422_cpu first. */
typedef struct
{
  CtPlane422 planes[2];
  unsigned int n;
  CtMapping mapping;
  size_t in_bytes, out_bytes;
  void *d_src, *d_dst;
} Job422;

static void
run_422 (int v, void *ctx)
{
  Job422 *j = ctx;

  if (v == PEER_COPY)
    CHECK (cudaMemcpyAsync (j->d_dst, j->d_src, j->in_bytes,
            cudaMemcpyDeviceToDevice, stream));
  else if (ct_transpose_422 (j->planes, j->n, j->mapping,
          (CtStream) stream) != CT_OK)
    failures++;
}

static void
bench_422 (const char *name, CtLayout422 layout, unsigned int n_planes)
{
  const unsigned int w = 3840, h = 2160;
  const size_t unit = layout == CT_422_PACKED ? 4 : 2;
  unsigned int d, i;

  for (d = 0; d < N_ELEMENTS (directions); d++) {
    CtMapping m = directions[d].mapping;
    int keep = (m & CT_MAPPING_KEEP_AXES) != 0;
    unsigned int ow = keep ? w : h, oh = keep ? h : w;
    size_t ss = (w + 1) / 2 * unit, ds = (ow + 1) / 2 * unit;
    unsigned char *src, *want, *got;
    Job422 j;
    double us, copy_us;
    int ok;

    if (layout == CT_422_PACKED ? (m == CT_MAPPING_FLIP_VERTICAL ||
            m == CT_MAPPING_IDENTITY) : keep)
      continue;
    memset (&j, 0, sizeof (j));
    j.n = n_planes;
    j.mapping = m;
    j.in_bytes = ss * h * n_planes;
    j.out_bytes = ds * oh * n_planes;
    src = malloc (j.in_bytes);
    want = malloc (j.out_bytes);
    got = malloc (j.out_bytes);
    if (!src || !want || !got) {
      fprintf (stderr, "out of memory\n");
      exit (1);
    }
    CHECK (cudaMalloc (&j.d_src, j.in_bytes));
    CHECK (cudaMalloc (&j.d_dst, j.out_bytes));
    for (i = 0; i < j.in_bytes; i++)
      src[i] = (unsigned char) (i * 2654435761u >> 13);
    for (i = 0; i < n_planes; i++) {
      CtPlane422 *p = &j.planes[i];

      p->src = src + i * ss * h;
      p->src_stride = ss;
      p->dst = want + i * ds * oh;
      p->dst_stride = ds;
      p->width = w;
      p->height = h;
      p->layout = layout;
      p->y_offset = 0;
      p->u_offset = 1;
      p->v_offset = 3;
    }
    ct_transpose_422_cpu (j.planes, n_planes, m);
    for (i = 0; i < n_planes; i++) {
      j.planes[i].src = (unsigned char *) j.d_src + i * ss * h;
      j.planes[i].dst = (unsigned char *) j.d_dst + i * ds * oh;
    }
    CHECK (cudaMemcpy (j.d_src, src, j.in_bytes, cudaMemcpyHostToDevice));
    CHECK (cudaMemset (j.d_dst, 0xa5, j.out_bytes));
    run_422 (0, &j);
    CHECK (cudaStreamSynchronize (stream));
    CHECK (cudaMemcpy (got, j.d_dst, j.out_bytes, cudaMemcpyDeviceToHost));
    ok = memcmp (got, want, j.out_bytes) == 0;
    failures += !ok;
    copy_us = time_runs (run_422, PEER_COPY, &j);
    us = time_runs (run_422, 0, &j);
    printf ("dir422 %-22s %-6s %8.1f us, copy %6.1f us, %5.2fx copy%s\n",
        name, direction_name (m), us, copy_us, copy_us / us,
        ok ? "" : "  WRONG");
    CHECK (cudaFree (j.d_src));
    CHECK (cudaFree (j.d_dst));
    free (src);
    free (want);
    free (got);
  }
}

/* The directions' table: per job, auto's fraction of copy in each
 * direction, and for frames its time over the transpose's (ul-lr). */
static void
print_direction_summary (void)
{
  size_t i, k;
  unsigned int d;

  printf ("\ndirections: auto as a fraction of copy (copy time in us); "
      "frames: time / ul-lr's time below\n");
  printf ("%-22s %8s", "job", "copy_us");
  for (d = 0; d < N_ELEMENTS (directions); d++)
    printf (" %8s", directions[d].name);
  printf ("\n");
  for (i = 0; i < n_rows; i = k) {
    const Row *base = NULL;

    for (k = i; k < n_rows && strcmp (rows[k].label, rows[i].label) == 0;
        k++);
    if (strcmp (rows[i].mode, "dir") != 0)
      continue;
    printf ("%-22s %8.1f", rows[i].label, rows[i].copy_us);
    for (d = 0; d < N_ELEMENTS (directions); d++) {
      size_t m;
      int found = 0;
      for (m = i; m < k; m++) {
        if (rows[m].variant == CT_KERNEL_AUTO &&
            rows[m].mapping == directions[d].mapping) {
          printf (" %7.2f%s", rows[m].vs_copy, rows[m].ok ? " " : "!");
          found = 1;
          if (d == 0)
            base = &rows[m];
        }
      }
      if (!found)
        printf (" %8s", "-");
    }
    printf ("\n");
    if (base == NULL || rows[i].es != 0)
      continue;
    printf ("%-22s %8s", "  time / ul-lr", "");
    for (d = 0; d < N_ELEMENTS (directions); d++) {
      size_t m;
      for (m = i; m < k; m++)
        if (rows[m].variant == CT_KERNEL_AUTO &&
            rows[m].mapping == directions[d].mapping)
          printf (" %8.3f", rows[m].us / base->us);
    }
    printf ("\n");
  }
}

/* The short table: one line per job, fraction of copy per variant. */
static void
print_summary (void)
{
  static const int cols[] = {
    CT_KERNEL_NAIVE, CT_KERNEL_TILED, CT_KERNEL_TILED_PADDED,
    CT_KERNEL_TILED_64, CT_KERNEL_WIDE, CT_KERNEL_WIDE_PADDED,
    CT_KERNEL_WIDE_SWIZZLE, CT_KERNEL_AUTO, PEER_CUBLAS, PEER_NPP,
  };
  static const char *const heads[] = {
    "naive", "tiled", "t-pad", "t-64", "wide", "w-pad", "w-swz", "auto",
    "cublas", "npp",
  };
  size_t i, k;
  unsigned int c;

  printf ("\nfraction of copy (copy time in us; '-' = does not apply)\n");
  printf ("%-6s %-22s %8s", "mode", "job", "copy_us");
  for (c = 0; c < N_ELEMENTS (heads); c++)
    printf (" %6s", heads[c]);
  printf ("\n");
  for (i = 0; i < n_rows; i = k) {
    printf ("%-6s %-22s %8.1f", rows[i].mode, rows[i].label, rows[i].copy_us);
    for (c = 0; c < N_ELEMENTS (cols); c++) {
      size_t m;
      int found = 0;
      for (m = i; m < n_rows && strcmp (rows[m].label, rows[i].label) == 0;
          m++) {
        if (rows[m].variant == cols[c]) {
          printf (" %5.2f%s", rows[m].vs_copy, rows[m].ok ? " " : "!");
          found = 1;
        }
      }
      if (!found)
        printf (" %6s", "-");
    }
    printf ("\n");
    for (k = i; k < n_rows && strcmp (rows[k].label, rows[i].label) == 0;
        k++);
  }
}

/* A WxH frame's job (@frame: "I420" or "NV12", even sides, element size
 * 1), for --one and --force; 0 with a message to stderr where it is
 * none of those. */
static int
frame_of (Job * j, const char *frame, unsigned int w, unsigned int h,
    unsigned int es, const char *option)
{
  int nv12 = strcmp (frame, "NV12") == 0;
  FrameSpec fs = { frame, w, h, nv12 ? 2 : 3, {w, w / 2, w / 2},
    {h, h / 2, h / 2}, {1, nv12 ? 2 : 1, 1}
  };

  if ((!nv12 && strcmp (frame, "I420") != 0) || w == 0 || h == 0 ||
      w % 2 || h % 2 || es != 1) {
    fprintf (stderr, "%s with --frame: I420 or NV12 of even sides, element "
        "size 1 (not %s %ux%u %uB)\n", option, frame, w, h, es);
    return 0;
  }
  frame_job (j, &fs);
  return 1;
}

/* --one: a single checked run of one variant, nothing timed, on one plane
 * or (@frame: "I420" or "NV12") on a WxH frame's planes, in direction
 * @dir (GStreamer's name; NULL: the transpose). */
static int
run_one (const char *name, unsigned int w, unsigned int h, unsigned int es,
    const char *frame, const char *dir)
{
  int v, found = -1;
  unsigned int d;
  Job j;

  for (v = CT_KERNEL_AUTO; v < CT_KERNEL_CPU; v++) {
    if (strcmp (name, ct_kernel_name ((CtKernel) v)) == 0)
      found = v;
  }
  if (strcmp (name, "cublasSgeam") == 0)
    found = PEER_CUBLAS;
  if (strcmp (name, "nppiTranspose") == 0)
    found = PEER_NPP;
  if (frame != NULL) {
    if (!frame_of (&j, frame, w, h, es, "--one"))
      return 2;
  } else {
    plane_job (&j, w, h, es);
  }
  j.mapping = CT_MAPPING_TRANSPOSE;
  if (dir != NULL) {
    for (d = 0; d < N_ELEMENTS (directions); d++)
      if (strcmp (dir, directions[d].name) == 0)
        break;
    if (d == N_ELEMENTS (directions)) {
      fprintf (stderr, "--direction: unknown direction '%s'\n", dir);
      return 2;
    }
    j.mapping = directions[d].mapping;
  }
  if (found < 0 || w == 0 || h == 0 ||
      ct_planes_validate (j.planes, 0, j.mapping) != CT_OK ||
      (es != 1 && es != 2 && es != 3 && es != 4 && es != 8)) {
    fprintf (stderr, "--one: unknown variant '%s' or bad plane %ux%u %uB\n",
        name, w, h, es);
    return 2;
  }
  job_init (&j);
  if (!variant_applies (found, &j)) {
    fprintf (stderr, "--one: %s does not apply to %s here\n", name, j.label);
    job_clear (&j);
    return 2;
  }
  check_variant (found, &j);
  printf ("%s on %s %s: %s\n", name, j.label, direction_name (j.mapping),
      failures ? "WRONG" : "correct");
  job_clear (&j);
  return failures ? 1 : 0;
}

/* --force's hooks: auto's runs under a forced path */
static int
force_check (void *j, CtPath force, CtPath * ran)
{
  int ok;

  force_path = force;
  ok = check_variant (CT_KERNEL_AUTO, j);
  force_path = CT_PATH_NONE;
  *ran = last_path;
  return ok;
}

static double
force_time (void *j, CtPath force, int copy)
{
  double us;

  force_path = force;
  us = time_variant (copy ? PEER_COPY : CT_KERNEL_AUTO, j);
  force_path = CT_PATH_NONE;
  return us;
}

/* --force: one plane or (@frame) a frame's planes, the paths of @list
 * forced in turn. */
static int
run_forced (const char *list, unsigned int w, unsigned int h, unsigned int es,
    const char *frame)
{
  BenchForceHooks hooks = { NULL, 0, NULL, NULL, force_check, force_time };
  Job j;
  int wrong;

  if (frame != NULL) {
    if (!frame_of (&j, frame, w, h, es, "--force"))
      return 2;
  } else if (w == 0 || h == 0 || (es != 1 && es != 2 && es != 3 &&
          es != 4 && es != 8)) {
    fprintf (stderr, "--force: bad plane %ux%u %uB\n", w, h, es);
    return 2;
  } else {
    plane_job (&j, w, h, es);
  }
  job_init (&j);
  hooks.planes = j.planes;
  hooks.n_planes = j.n;
  hooks.label = j.label;
  hooks.ctx = &j;
  wrong = bench_force_paths (list, &hooks);
  job_clear (&j);
  return wrong < 0 ? 2 : wrong > 0;
}

typedef struct
{
  unsigned int w, h, es;
} OddShape;

int
main (int argc, char **argv)
{
  static const Shape shapes[] = {
    {8192, 8192}, {8000, 6000}, {1000, 1500}, {1, 65536}, {65536, 1},
    {3840, 2160}, {1920, 1080},
  };
  static const unsigned int sizes[] = { 1, 2, 3, 4, 8 };
  static const OddShape odd_shapes[] = {
    {1917, 1083, 1}, {1917, 1083, 3}, {1917, 1083, 4}, {1919, 1079, 1},
    {1919, 1079, 2}, {3839, 2161, 1}, {4097, 4095, 4}, {4097, 4095, 1},
    {1000, 999, 8}, {1, 65537, 1}, {1, 65537, 4}, {65537, 1, 1},
  };
  static const FrameSpec frames[] = {
    {"I420", 1920, 1080, 3, {1920, 960, 960}, {1080, 540, 540}, {1, 1, 1}},
    {"NV12", 1920, 1080, 2, {1920, 960}, {1080, 540}, {1, 2}},
    {"RGBA", 1920, 1080, 1, {1920}, {1080}, {4}},
    {"GRAY8", 1920, 1080, 1, {1920}, {1080}, {1}},
    {"I420", 3840, 2160, 3, {3840, 1920, 1920}, {2160, 1080, 1080}, {1, 1, 1}},
    {"NV12", 3840, 2160, 2, {3840, 1920}, {2160, 1080}, {1, 2}},
    {"RGBA", 3840, 2160, 1, {3840}, {2160}, {4}},
    {"GRAY8", 3840, 2160, 1, {3840}, {2160}, {1}},
  };
  const char *json = NULL, *one = NULL, *force = NULL;
  const char *one_frame = NULL, *one_dir = NULL;
  unsigned int one_w = 0, one_h = 0, one_es = 0;
  int do_planes = 1, do_frames = 1, do_directions = 0, quick = 0;
  int do_odd = 0;
  int n_dev = 0, device = 0, l2 = 0;
  struct cudaDeviceProp prop;
  unsigned int s, e, f, i;

  for (i = 1; i < (unsigned int) argc; i++) {
    if (strcmp (argv[i], "--reps") == 0 && i + 1 < (unsigned int) argc) {
      reps = atoi (argv[++i]);
    } else if (strcmp (argv[i], "--json") == 0 && i + 1 < (unsigned int) argc) {
      json = argv[++i];
    } else if (strcmp (argv[i], "--planes-only") == 0) {
      do_frames = 0;
    } else if (strcmp (argv[i], "--frames-only") == 0) {
      do_planes = 0;
    } else if (strcmp (argv[i], "--directions") == 0) {
      do_planes = do_frames = 0;
      do_directions = 1;
    } else if (strcmp (argv[i], "--tight") == 0) {
      row_align = 1;
    } else if (strcmp (argv[i], "--odd") == 0) {
      do_planes = do_frames = 0;
      do_odd = 1;
    } else if (strcmp (argv[i], "--quick") == 0) {
      quick = 1;
    } else if (strcmp (argv[i], "--latency") == 0) {
      latency = 1;
    } else if (strcmp (argv[i], "--one") == 0 && i + 4 < (unsigned int) argc) {
      one = argv[++i];
      one_w = (unsigned int) strtoul (argv[++i], NULL, 10);
      one_h = (unsigned int) strtoul (argv[++i], NULL, 10);
      one_es = (unsigned int) strtoul (argv[++i], NULL, 10);
    } else if (strcmp (argv[i], "--frame") == 0 && i + 1 < (unsigned int) argc) {
      one_frame = argv[++i];
    } else if (strcmp (argv[i], "--direction") == 0 &&
        i + 1 < (unsigned int) argc) {
      one_dir = argv[++i];
    } else if (strcmp (argv[i], "--force") == 0 &&
        i + 4 < (unsigned int) argc) {
      force = argv[++i];
      one_w = (unsigned int) strtoul (argv[++i], NULL, 10);
      one_h = (unsigned int) strtoul (argv[++i], NULL, 10);
      one_es = (unsigned int) strtoul (argv[++i], NULL, 10);
    } else {
      fprintf (stderr, "usage: %s [--reps N] [--json FILE] [--planes-only | "
          "--frames-only | --directions | --odd] [--quick] [--latency]\n"
          "       %s [--tight] [--frame I420|NV12] [--direction NAME] "
          "--one VARIANT WIDTH HEIGHT ELEMENT_SIZE\n"
          "       %s [--reps N] [--frame I420|NV12] --force "
          "PATH[,PATH...]|all WIDTH HEIGHT ELEMENT_SIZE\n", argv[0], argv[0],
          argv[0]);
      return 2;
    }
  }
  if (reps < 1) {
    fprintf (stderr, "--reps must be at least 1\n");
    return 2;
  }

  {
    CtResult res = ct_device_count (&n_dev);

    if (res != CT_OK || n_dev == 0) {
      printf ("SKIP: no CUDA device (%s)\n", res != CT_OK ?
          ct_result_string (res) : "none found");
      return 77;
    }
  }
  CHECK (cudaGetDevice (&device));
  CHECK (cudaGetDeviceProperties (&prop, device));
  CHECK (cudaDeviceGetAttribute (&l2, cudaDevAttrL2CacheSize, device));
  CHECK (cudaStreamCreate (&stream));
  flush_size = 2 * (size_t) l2;
  CHECK (cudaMalloc ((void **) &flush_buf, flush_size));
  CHECK (cudaMalloc ((void **) &flush_sink, sizeof (unsigned int)));
  CHECK (cudaMemset (flush_buf, 0x5a, flush_size));
  peers_note = peers_open (stream, device);
  if (one != NULL)
    return run_one (one, one_w, one_h, one_es, one_frame, one_dir);
  /* clocks up before the first timing: a second of flushes */
  for (i = 0; i < 20000; i++)
    CHECK (bench_flush_l2 (flush_buf, flush_size, flush_sink, stream));
  CHECK (cudaStreamSynchronize (stream));
  printf ("device %d: %s, %d SMs, L2 %d MB; median of %d runs, L2 flushed "
      "(read) before each; %s\n%s\n\n", device, prop.name,
      prop.multiProcessorCount, l2 >> 20, reps, latency ? "latency: one call "
      "launched and waited for, on the host's clock" : "throughput: the "
      "GPU's time between CUDA events", peers_note);
  if (force != NULL)
    return run_forced (force, one_w, one_h, one_es, one_frame);
  printf ("%-6s %-22s %-14s %10s %8s %8s %9s  %s\n", "mode", "job",
      "variant", "us", "GB/s", "x copy", "x naive", "path");

  for (s = 0; do_planes && s < N_ELEMENTS (shapes); s++) {
    for (e = 0; e < N_ELEMENTS (sizes); e++) {
      unsigned int w = shapes[s].w, h = shapes[s].h;
      Job j;
      /* bytes get the 16384x16384 plane the issue asks for */
      if (s == 0 && sizes[e] == 1)
        w = h = 16384;
      if (quick && s == 0)
        w = h = 4096;
      plane_job (&j, w, h, sizes[e]);
      job_init (&j);
      bench_job ("plane", &j);
      job_clear (&j);
    }
  }
  /* odd shapes: rows padded to 16 bytes ("odd"), then packed as tensors
   * are ("tight": every row start as misaligned as the width makes it) */
  for (s = 0; do_odd && s < 2 * N_ELEMENTS (odd_shapes); s++) {
    const OddShape *o = &odd_shapes[s % N_ELEMENTS (odd_shapes)];
    Job j;
    row_align = s < N_ELEMENTS (odd_shapes) ? ROW_ALIGN : 1;
    plane_job (&j, o->w, o->h, o->es);
    job_init (&j);
    bench_job (row_align == 1 ? "tight" : "odd", &j);
    job_clear (&j);
  }
  row_align = ROW_ALIGN;
  for (f = 0; do_frames && f < N_ELEMENTS (frames); f++) {
    Job j;
    frame_job (&j, &frames[f]);
    job_init (&j);
    bench_job ("frame", &j);
    job_clear (&j);
  }

  for (e = 0; do_directions && e < N_ELEMENTS (sizes); e++) {
    Job j;
    plane_job (&j, quick ? 4096 : 8192, quick ? 4096 : 8192, sizes[e]);
    bench_direction_job (&j);
  }
  for (f = 0; do_directions && f < N_ELEMENTS (frames); f++) {
    Job j;
    if (strcmp (frames[f].name, "I420") != 0)
      continue;
    frame_job (&j, &frames[f]);
    bench_direction_job (&j);
  }

  if (do_directions) {
    bench_422 ("YUY2 3840x2160", CT_422_PACKED, 1);
    bench_422 ("I422_10LE chroma 4K", CT_422_CHROMA_16LE, 2);
  }
  if (do_directions)
    print_direction_summary ();
  else
    print_summary ();
  if (json != NULL)
    write_json (json, prop.name);
  CHECK (cudaFree (flush_buf));
  CHECK (cudaFree (flush_sink));
  CHECK (cudaStreamDestroy (stream));
  if (failures > 0)
    printf ("\n%d MISMATCHES\n", failures);
  return failures > 0 ? 1 : 0;
}
