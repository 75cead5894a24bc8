/* cudatranspose: the permutations' planner (kernels/plan-permute.c,
 * through ct_plan_permute in kernels/plan.h) checked without a GPU:
 * worked rows, each saying which rule it checks, then a random sweep in
 * which every plan must move every element where the permutation's
 * definition (permute-reference.h) puts it, and keep the kernels' limits.
 *
 * The rules (permute.cu's opening comment, docs/kernels.md): a
 * permutation is simplified (sizes of 1 dropped, input neighbours that stay
 * neighbours merged); none left is one copy; the innermost dimension kept
 * moves rows whole (gather, in the widest word of 16, 8, 4, 2 or 1 bytes
 * that divides a row and both pointers); else it is a batch of 2-D
 * transposes. One side of at most 16 elements with the interleaved end
 * dense is channels: aligned to 16 bytes everywhere, 2 to 4 channels whose
 * long side is whole 16-byte groups take pixels, others channels (a 2 KB
 * segment a channel, halved to fit 20 KB); aligned to 4 bytes only, 2 to 4
 * channels of 1 or 2 bytes whose long side is whole 4-byte groups take
 * pixels in 4-byte groups; misaligned, with a long side of
 * 16 or more, the packed kernels (pixels-packed for 2 to 4 channels of 1 or
 * 2 bytes; a 4 KB segment, halved to fit 25 KB, and in jobs of fewer than
 * 1024 blocks until they fill the GPU); every other batch goes to the
 * transposes' planner, the larger batch dimension each batch's count. */
#include "permute-reference.h"
#include "plan.h"
#include "plan-tally.h"
#include "random-fill.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uintptr_t kSrc = 0x100000000000ull, kDst = 0x300000000000ull;

static CtResult
plan_of (unsigned long long d0, unsigned long long d1,
    unsigned long long d2, unsigned long long d3, unsigned int p0,
    unsigned int p1, unsigned int p2, unsigned int p3, unsigned int es,
    uintptr_t src_off, uintptr_t dst_off, CtPermutePlan * plan)
{
  const unsigned long long dims[4] = { d0, d1, d2, d3 };
  const unsigned int perm[4] = { p0, p1, p2, p3 };

  return ct_plan_permute ((const void *) (kSrc + src_off),
      (const void *) (kDst + dst_off), dims, es, perm, plan);
}

static void
worked_rows (void)
{
  CtPermutePlan p;
  CtPlaneBatch b;
  const char *r;

  r = "RGB 1080p HWC to CHW, aligned: pixels, 3 channels to planar";
  CHECK (r, "result", plan_of (3, 1920, 1080, 1, 1, 2, 0, 3, 1, 0, 0, &p),
      CT_OK);
  CHECK (r, "run", p.run, CT_PERMUTE_RUN_PIXELS);
  CHECK (r, "path", p.path, CT_PATH_PIXELS);
  CHECK (r, "channels", p.channels, 3);
  CHECK (r, "to interleaved", p.to_interleaved, 0);
  /* 2073600 / 16 groups, 256 a block */
  CHECK (r, "grid x", p.grid[0], 507);
  CHECK (r, "grid y", p.grid[1], 1);

  r = "the same, the output 1 byte off 16: pixels-packed";
  CHECK (r, "result", plan_of (3, 1920, 1080, 1, 1, 2, 0, 3, 1, 0, 1, &p),
      CT_OK);
  CHECK (r, "run", p.run, CT_PERMUTE_RUN_PIXELS_PACKED);
  CHECK (r, "path", p.path, CT_PATH_PIXELS_PACKED);
  /* 4 KB: 507 blocks, 2 KB: 1013, both under 1024; 1 KB: 2025 */
  CHECK (r, "segment", p.seg_shift, 10);
  CHECK (r, "grid x", p.grid[0], 2025);
  CHECK (r, "shared memory", p.smem, 2 * 3 * (1024 + 16) + 32);

  r = "uint8 CHW 3x375x500 to HWC: planes 187500 bytes apart, whole 4-byte "
      "words, not 16: pixels in 4-byte groups";
  CHECK (r, "result", plan_of (187500, 3, 1, 1, 1, 0, 2, 3, 1, 0, 0, &p),
      CT_OK);
  CHECK (r, "run", p.run, CT_PERMUTE_RUN_PIXELS);
  CHECK (r, "path", p.path, CT_PATH_PIXELS);
  CHECK (r, "word", p.word, 4);
  CHECK (r, "to interleaved", p.to_interleaved, 1);
  /* 187500 / 4 groups, 256 a block */
  CHECK (r, "grid x", p.grid[0], 184);

  r = "the same, back to CHW";
  CHECK (r, "result", plan_of (3, 187500, 1, 1, 1, 0, 2, 3, 1, 0, 0, &p),
      CT_OK);
  CHECK (r, "run", p.run, CT_PERMUTE_RUN_PIXELS);
  CHECK (r, "word", p.word, 4);
  CHECK (r, "to interleaved", p.to_interleaved, 0);

  r = "uint16 HWC to CHW, planes 4098 x 2 bytes apart: 4-byte groups";
  CHECK (r, "result", plan_of (3, 4098, 1, 1, 1, 0, 2, 3, 2, 0, 0, &p),
      CT_OK);
  CHECK (r, "run", p.run, CT_PERMUTE_RUN_PIXELS);
  CHECK (r, "word", p.word, 4);
  /* 4098 / 2 groups */
  CHECK (r, "grid x", p.grid[0], 9);

  r = "RGB 1080p HWC to CHW, the output 4 bytes off 16: 4-byte groups";
  CHECK (r, "result", plan_of (3, 1920, 1080, 1, 1, 2, 0, 3, 1, 0, 4, &p),
      CT_OK);
  CHECK (r, "run", p.run, CT_PERMUTE_RUN_PIXELS);
  CHECK (r, "word", p.word, 4);

  r = "uint8 planes of an odd length (375 x 499): pixels-packed";
  CHECK (r, "result", plan_of (187125, 3, 1, 1, 1, 0, 2, 3, 1, 0, 0, &p),
      CT_OK);
  CHECK (r, "run", p.run, CT_PERMUTE_RUN_PIXELS_PACKED);

  r = "float32 planes 4 bytes off 16: channels-packed (no 4-byte groups)";
  CHECK (r, "result", plan_of (1001, 3, 1, 1, 1, 0, 2, 3, 4, 0, 0, &p),
      CT_OK);
  CHECK (r, "run", p.run, CT_PERMUTE_RUN_CHANNELS_PACKED);

  r = "5 uint8 channels on 4-byte words: channels-packed (pixels take 4)";
  CHECK (r, "result", plan_of (1004, 5, 1, 1, 1, 0, 2, 3, 1, 0, 0, &p),
      CT_OK);
  CHECK (r, "run", p.run, CT_PERMUTE_RUN_CHANNELS_PACKED);

  r = "float32 CHW 3x224x224 to HWC: pixels, 3 channels to interleaved";
  CHECK (r, "result", plan_of (224, 224, 3, 1, 2, 0, 1, 3, 4, 0, 0, &p),
      CT_OK);
  CHECK (r, "run", p.run, CT_PERMUTE_RUN_PIXELS);
  CHECK (r, "to interleaved", p.to_interleaved, 1);
  CHECK (r, "plane width", p.plane.width, 50176);
  CHECK (r, "plane height", p.plane.height, 3);
  /* 50176 / 4 groups, 256 a block */
  CHECK (r, "grid x", p.grid[0], 49);

  r = "8 uint8 channels 640x480 to interleaved: channels, 2 KB segments";
  CHECK (r, "result", plan_of (640, 480, 8, 1, 2, 0, 1, 3, 1, 0, 0, &p),
      CT_OK);
  CHECK (r, "run", p.run, CT_PERMUTE_RUN_CHANNELS);
  CHECK (r, "path", p.path, CT_PATH_CHANNELS);
  CHECK (r, "segment", p.seg_shift, 11);
  CHECK (r, "shared memory", p.smem, 8 * (2048 + 16) + 1024 + 16);
  CHECK (r, "grid x", p.grid[0], 307200 / 2048);

  r = "16 channels: the segment halved to fit 20 KB";
  CHECK (r, "result", plan_of (640, 480, 16, 1, 2, 0, 1, 3, 1, 0, 0, &p),
      CT_OK);
  CHECK (r, "run", p.run, CT_PERMUTE_RUN_CHANNELS);
  CHECK (r, "segment", p.seg_shift, 10);
  CHECK (r, "shared memory", p.smem, 16 * (1024 + 16) + 512 + 16);
  CHECK (r, "grid x", p.grid[0], 300);

  r = "17 channels: a batch of planes for the transposes";
  CHECK (r, "result", plan_of (640, 480, 17, 1, 2, 0, 1, 3, 1, 0, 0, &p),
      CT_OK);
  CHECK (r, "run", p.run, CT_PERMUTE_RUN_PLANES);

  r = "innermost kept, 64-byte rows: gather in 16-byte words";
  CHECK (r, "result", plan_of (16, 5, 7, 1, 0, 2, 1, 3, 4, 0, 0, &p),
      CT_OK);
  CHECK (r, "run", p.run, CT_PERMUTE_RUN_GATHER);
  CHECK (r, "path", p.path, CT_PATH_GATHER);
  CHECK (r, "word", p.word, 16);
  CHECK (r, "d_out[0]", p.d_out[0], 4);
  CHECK (r, "d_out[1]", p.d_out[1], 7);
  CHECK (r, "d_out[2]", p.d_out[2], 5);
  CHECK (r, "src_of[1]", p.src_of[1], 80 * 4 / 16);
  CHECK (r, "src_of[2]", p.src_of[2], 16 * 4 / 16);
  CHECK (r, "total", p.total, 140);
  CHECK (r, "grid x", p.grid[0], 1);

  r = "6-byte rows: gather in halves";
  CHECK (r, "result", plan_of (3, 5, 7, 1, 0, 2, 1, 3, 2, 0, 0, &p),
      CT_OK);
  CHECK (r, "word", p.word, 2);
  CHECK (r, "src_of[1]", p.src_of[1], 15);

  r = "sizes of 1 dropped: what is left is the identity, one copy";
  CHECK (r, "result", plan_of (5, 1, 7, 1, 0, 2, 1, 3, 8, 0, 0, &p),
      CT_OK);
  CHECK (r, "run", p.run, CT_PERMUTE_RUN_COPY);
  CHECK (r, "bytes", p.bytes, 5 * 7 * 8);

  r = "NCHW 3x32x10x20 to NHWC: 32 channels, a batch of 3 planes";
  CHECK (r, "result", plan_of (20, 10, 32, 3, 2, 0, 1, 3, 2, 0, 0, &p),
      CT_OK);
  CHECK (r, "run", p.run, CT_PERMUTE_RUN_PLANES);
  CHECK (r, "batches", ct_permute_plane_batches (&p), 1);
  ct_permute_plane_batch (&p, (const void *) kSrc, (void *) kDst, 2, 0, &b);
  CHECK (r, "count", b.count, 3);
  CHECK (r, "width", b.plane.width, 200);
  CHECK (r, "height", b.plane.height, 32);
  CHECK (r, "src stride", b.plane.src_stride, 400);
  CHECK (r, "dst stride", b.plane.dst_stride, 64);
  CHECK (r, "src step", b.src_step, 6400 * 2);

  r = "two batch dimensions: the larger is each batch's count";
  /* output: 20, 40, 50, 30 (dims 1, 0, 3, 2): planes 40 x 20 (neither
   * side channels), batches of 30 (input stride 800) and 50 (24000) */
  CHECK (r, "result", plan_of (40, 20, 30, 50, 1, 0, 3, 2, 1, 0, 0, &p),
      CT_OK);
  CHECK (r, "run", p.run, CT_PERMUTE_RUN_PLANES);
  CHECK (r, "batches", ct_permute_plane_batches (&p), 30);
  ct_permute_plane_batch (&p, (const void *) kSrc, (void *) kDst, 1, 29, &b);
  CHECK (r, "count", b.count, 50);
  CHECK (r, "src of the last", (uintptr_t) b.plane.src, kSrc + 29 * 800);
  CHECK (r, "its step", b.src_step, 24000);

  r = "neighbours that stay neighbours merge: HWNC to NCHW is a 2-D "
      "transpose";
  CHECK (r, "result", plan_of (4, 5, 6, 7, 2, 3, 0, 1, 1, 0, 0, &p),
      CT_OK);
  CHECK (r, "rank", p.shape.rank, 2);
  CHECK (r, "plane width", p.plane.width, 20);
  CHECK (r, "plane height", p.plane.height, 42);
  CHECK (r, "batches", p.plane.n1 * p.plane.n2, 1);

  r = "the outer two dimensions kept in order merge into one batch";
  CHECK (r, "result", plan_of (40, 50, 6, 7, 1, 0, 2, 3, 1, 0, 0, &p),
      CT_OK);
  CHECK (r, "rank", p.shape.rank, 3);
  CHECK (r, "merged size", p.shape.d[2], 42);
  CHECK (r, "batches", p.plane.n1 * p.plane.n2, 42);

  r = "refusals";
  CHECK (r, "3-byte elements", plan_of (4, 4, 1, 1, 1, 0, 2, 3, 3, 0, 0,
          &p), CT_ERROR_UNSUPPORTED_ELEMENT_SIZE);
  CHECK (r, "a dimension twice", plan_of (4, 4, 1, 1, 1, 1, 2, 3, 1, 0, 0,
          &p), CT_ERROR_INVALID_ARGUMENT);
  CHECK (r, "a dimension past 3", plan_of (4, 4, 1, 1, 1, 0, 2, 4, 1, 0,
          0, &p), CT_ERROR_INVALID_ARGUMENT);
  CHECK (r, "a size of 0", plan_of (4, 0, 1, 1, 1, 0, 2, 3, 1, 0, 0, &p),
      CT_ERROR_INVALID_ARGUMENT);
  CHECK (r, "a size over 32 bits", plan_of (0x100000000ull, 2, 1, 1, 1, 0,
          2, 3, 1, 0, 0, &p), CT_ERROR_INVALID_ARGUMENT);
  CHECK (r, "merged past 32 bits", plan_of (0x10000, 0x10000, 1, 1, 0, 1,
          2, 3, 1, 0, 0, &p), CT_ERROR_INVALID_ARGUMENT);
  CHECK (r, "a transposed side over INT_MAX", plan_of (0x80000000ull, 2, 1,
          1, 1, 0, 2, 3, 1, 0, 0, &p), CT_ERROR_INVALID_ARGUMENT);
  CHECK (r, "a pointer off its element", plan_of (4, 4, 1, 1, 1, 0, 2, 3,
          4, 2, 0, &p), CT_ERROR_INVALID_ARGUMENT);
  CHECK (r, "no pointer", ct_plan_permute (NULL, (const void *) kDst,
          (const unsigned long long[4]) { 4, 4, 1, 1 }, 1,
          (const unsigned int[4]) { 1, 0, 2, 3 }, &p),
      CT_ERROR_INVALID_ARGUMENT);
}

/* the sweep's generator (random-fill.h) and its seed */
static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t
next (void)
{
  return ct_ref_random (&rng);
}

/* Marks in @map (output element -> input element, or ~0 unset) what @plan
 * moves; 0 where it moves an element twice or outside. */
static int
moves_of (const CtPermutePlan * plan, unsigned int es,
    unsigned long long total, unsigned long long *map)
{
  for (unsigned long long i = 0; i < total; i++)
    map[i] = ~0ull;
  switch (plan->run) {
    case CT_PERMUTE_RUN_COPY:
      if (plan->bytes != total * es)
        return 0;
      for (unsigned long long i = 0; i < total; i++)
        map[i] = i;
      return 1;
    case CT_PERMUTE_RUN_GATHER: {
      /* words of whole elements (the pointers are aligned to the element,
       * so the widest word that divides a row and them holds some) */
      const unsigned int per = plan->word / es;
      if (plan->word % es != 0)
        return 0;
      for (unsigned long long o = 0; o < plan->total; o++) {
        unsigned long long rest = o, from = 0;
        for (int i = 0; i < plan->shape.rank; i++) {
          from += (rest % plan->d_out[i]) * plan->src_of[i];
          rest /= plan->d_out[i];
        }
        /* word o of the output is word from of the input */
        for (unsigned int j = 0; j < per; j++) {
          if (o * per + j >= total || map[o * per + j] != ~0ull)
            return 0;
          map[o * per + j] = from * per + j;
        }
      }
      return 1;
    }
    default: {
      const CtPermutePlane *p = &plan->plane;
      CtPermutePlane q = *p;
      if (plan->run == CT_PERMUTE_RUN_PLANES) {
        /* through the batches the transposes get */
        const unsigned int nb = ct_permute_plane_batches (plan);
        for (unsigned int k = 0; k < nb; k++) {
          CtPlaneBatch b;
          ct_permute_plane_batch (plan, (const void *) kSrc, (void *) kDst,
              es, k, &b);
          for (unsigned int c = 0; c < b.count; c++)
            for (unsigned long long y = 0; y < b.plane.height; y++)
              for (unsigned long long x = 0; x < b.plane.width; x++) {
                const unsigned long long in_b = (uintptr_t) b.plane.src - kSrc
                    + c * b.src_step + y * b.plane.src_stride + x * es;
                const unsigned long long out_b = (uintptr_t) b.plane.dst -
                    kDst + c * b.dst_step + x * b.plane.dst_stride + y * es;
                if (out_b % es || in_b % es || out_b / es >= total ||
                    map[out_b / es] != ~0ull)
                  return 0;
                map[out_b / es] = in_b / es;
              }
        }
        return 1;
      }
      for (unsigned int b2 = 0; b2 < q.n2; b2++)
        for (unsigned int b1 = 0; b1 < q.n1; b1++)
          for (unsigned long long y = 0; y < q.height; y++)
            for (unsigned long long x = 0; x < q.width; x++) {
              const unsigned long long in_e = y * q.src_stride + x +
                  b1 * q.src1 + b2 * q.src2, out_e = x * q.dst_stride + y +
                  b1 * q.dst1 + b2 * q.dst2;
              if (out_e >= total || map[out_e] != ~0ull)
                return 0;
              map[out_e] = in_e;
            }
      return 1;
    }
  }
}

/* The kernels' limits, for a plan of the plane kernels. */
static int
within_limits (const CtPermutePlan * plan, unsigned int es,
    uintptr_t bases)
{
  const CtPermutePlane *p = &plan->plane;
  const unsigned long long len = plan->to_interleaved ? p->width : p->height;
  const unsigned long long chans = plan->to_interleaved ? p->height :
      p->width;

  if (plan->run == CT_PERMUTE_RUN_COPY || plan->run == CT_PERMUTE_RUN_GATHER
      || plan->run == CT_PERMUTE_RUN_PLANES)
    return plan->run != CT_PERMUTE_RUN_GATHER ||
        (plan->grid[0] == (plan->total + 255) / 256 || (plan->grid[0] ==
                CT_PERMUTE_GATHER_GRID && plan->total > 256ull *
                CT_PERMUTE_GATHER_GRID));
  if (chans != plan->channels || chans > CT_PERMUTE_CHANNELS ||
      plan->grid[1] != (p->n1 < 65535 ? p->n1 : 65535) ||
      plan->grid[2] != (p->n2 < 65535 ? p->n2 : 65535))
    return 0;
  switch (plan->run) {
    case CT_PERMUTE_RUN_PIXELS:
      /* groups of 16 bytes, or of 4 for 1- and 2-byte elements */
      return (plan->word == 16 || (plan->word == 4 && es <= 2)) &&
          bases % plan->word == 0 && chans <= 4 &&
          len % (plan->word / es) == 0 &&
          (unsigned long long) plan->grid[0] * 256 * (plan->word / es) >=
          len &&
          (unsigned long long) (plan->grid[0] - 1) * 256 * (plan->word / es)
          < len;
    case CT_PERMUTE_RUN_CHANNELS:
      return bases % 16 == 0 && plan->smem <= CT_PERMUTE_CHANNELS_SMEM &&
          plan->seg_shift >= 8 && plan->seg_shift <= 11 &&
          (unsigned long long) plan->grid[0] * ((1u << plan->seg_shift) / es)
          >= len;
    case CT_PERMUTE_RUN_PIXELS_PACKED:
    case CT_PERMUTE_RUN_CHANNELS_PACKED:
      return len >= 16 && plan->smem <= CT_PERMUTE_PACKED_SMEM &&
          plan->seg_shift >= 8 && plan->seg_shift <= 12 &&
          (plan->run == CT_PERMUTE_RUN_CHANNELS_PACKED || (es <= 2 &&
                  chans <= 4)) &&
          (unsigned long long) plan->grid[0] * ((1u << plan->seg_shift) / es)
          >= len;
    default:
      return 0;
  }
}

static void
sweep (void)
{
  static const unsigned int perms[24][4] = {
    {0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 1, 3}, {0, 2, 3, 1}, {0, 3, 1, 2},
    {0, 3, 2, 1}, {1, 0, 2, 3}, {1, 0, 3, 2}, {1, 2, 0, 3}, {1, 2, 3, 0},
    {1, 3, 0, 2}, {1, 3, 2, 0}, {2, 0, 1, 3}, {2, 0, 3, 1}, {2, 1, 0, 3},
    {2, 1, 3, 0}, {2, 3, 0, 1}, {2, 3, 1, 0}, {3, 0, 1, 2}, {3, 0, 2, 1},
    {3, 1, 0, 2}, {3, 1, 2, 0}, {3, 2, 0, 1}, {3, 2, 1, 0}
  };
  static const unsigned int sizes[] = { 1, 2, 4, 8 };
  static unsigned long long map[1 << 16];
  int bad = 0, runs[7] = { 0 };

  for (int it = 0; it < 30000; it++) {
    unsigned long long dims[4], total = 1;
    const unsigned int *perm = perms[next () % 24];
    const unsigned int es = sizes[next () % 4];
    const uintptr_t src_off = (next () % 3) ? 0 : (next () % 16) * es;
    const uintptr_t dst_off = (next () % 3) ? 0 : (next () % 16) * es;
    CtPermutePlan plan;
    CtResult res;

    for (int k = 0; k < 4; k++) {
      const int r = (int) (next () % 8);
      dims[k] = r < 2 ? 1 : r < 5 ? 1 + next () % 6 : r < 7 ? 1 + next () %
          20 : 16 + next () % 240;
      if (total * dims[k] > (1 << 16))
        dims[k] = 1;
      total *= dims[k];
    }
    res = ct_plan_permute ((const void *) (kSrc + src_off),
        (const void *) (kDst + dst_off), dims, es, perm, &plan);
    if (res != CT_OK) {
      if (bad++ < 10)
        printf ("FAIL sweep: refused %llux%llux%llux%llu\n", dims[0],
            dims[1], dims[2], dims[3]);
      continue;
    }
    runs[plan.run]++;
    if (plan.path != (plan.run == CT_PERMUTE_RUN_COPY ? CT_PATH_COPY :
            plan.run == CT_PERMUTE_RUN_GATHER ? CT_PATH_GATHER :
            plan.run == CT_PERMUTE_RUN_PIXELS ? CT_PATH_PIXELS :
            plan.run == CT_PERMUTE_RUN_CHANNELS ? CT_PATH_CHANNELS :
            plan.run == CT_PERMUTE_RUN_PIXELS_PACKED ? CT_PATH_PIXELS_PACKED :
            plan.run == CT_PERMUTE_RUN_CHANNELS_PACKED ?
            CT_PATH_CHANNELS_PACKED : CT_PATH_NONE)) {
      if (bad++ < 10)
        printf ("FAIL sweep: run %d reported as %s\n", (int) plan.run,
            ct_path_name (plan.path));
      continue;
    }
    if (!moves_of (&plan, es, total, map) ||
        !within_limits (&plan, es, (kSrc + src_off) | (kDst + dst_off))) {
      if (bad++ < 10)
        printf ("FAIL sweep: %llux%llux%llux%llu perm %u%u%u%u es %u run %d: "
            "moves outside, twice, or past a limit\n", dims[0], dims[1],
            dims[2], dims[3], perm[0], perm[1], perm[2], perm[3], es,
            (int) plan.run);
      continue;
    }
    for (unsigned long long o = 0; o < total; o++)
      if (map[o] != ct_ref_permuted_source (dims, perm, o)) {
        if (bad++ < 10)
          printf ("FAIL sweep: %llux%llux%llux%llu perm %u%u%u%u es %u run "
              "%d: output %llu from %llu, not %llu\n", dims[0], dims[1],
              dims[2], dims[3], perm[0], perm[1], perm[2], perm[3], es,
              (int) plan.run, o, map[o],
              (unsigned long long) ct_ref_permuted_source (dims, perm, o));
        break;
      }
  }
  CHECK ("sweep", "plans that misplace an element or break a limit", bad, 0);
  printf ("sweep: copy %d, gather %d, pixels %d, channels %d, "
      "pixels-packed %d, channels-packed %d, planes %d\n", runs[0], runs[1],
      runs[2], runs[3], runs[4], runs[5], runs[6]);
  for (int k = 0; k < 7; k++)
    CHECK ("sweep", "a kind of plan never made", runs[k] > 0, 1);
}

int
main (void)
{
  worked_rows ();
  sweep ();
  return tally_finish ();
}
