/* cudatranspose: the flips' planner (kernels/plan-flip.c, through
 * ct_plan_flip in kernels/plan.h) checked without a GPU: worked rows, each
 * saying which rule it checks, then rules that hold over a random sweep.
 *
 * The rules (plan-flip.c's opening comment, docs/kernels.md):
 *   - a batch whose pointers, strides and steps (the steps only when it has
 *     more than one plane) are multiples of 16 bytes takes the flip way;
 *     any other, or one forced to CT_PATH_FLIP_EXACT, the exact way,
 *     reported as CT_PATH_FLIP_EXACT; CT_PATH_FLIP forced on a misaligned
 *     batch, or any other path forced (CT_PATH_EXACT, the transposes'
 *     exact tile, among them), is refused;
 *   - under a mapping that keeps each row's order (identity, vert) an
 *     aligned batch is moved as rows of bytes, unless a row is over
 *     INT_MAX bytes;
 *   - a thread of the flip way moves 4 units of 16 bytes, or 1 unit of 16
 *     3-byte elements; of the exact way 4 elements; a block has 256
 *     threads;
 *   - a row of at least a block's slots is cut into segments of that many
 *     units, one row a block; shorter rows go whole, as many a block as
 *     fill its slots;
 *   - a plane of more blocks than a grid holds (2^31 - 1) is refused;
 *   - the narrow kernel takes elements of 1 to 3 bytes, as planned;
 *   - the exact way reads native words where the batch is aligned to its
 *     element, else bytes. */
#include "plan.h"
#include "plan-tally.h"
#include "random-fill.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* A batch of @count planes of @w x @h @es-byte elements, every row padded
 * to @stride bytes, the pointers @align past a boundary of 2^20 (0: on
 * it), the steps @step. Never dereferenced. */
static CtPlaneBatch
batch (unsigned int w, unsigned int h, unsigned int es, size_t stride,
    unsigned int align, unsigned int count, size_t step)
{
  CtPlaneBatch b;

  b.plane.src = (const void *) (uintptr_t) (0x100000000000ull + align);
  b.plane.dst = (void *) (uintptr_t) (0x200000000000ull + align);
  b.plane.src_stride = stride;
  b.plane.dst_stride = stride;
  b.plane.width = w;
  b.plane.height = h;
  b.plane.elem_size = es;
  b.count = count;
  b.src_step = step;
  b.dst_step = step;
  return b;
}

typedef struct
{
  const char *rule;
  CtPlaneBatch b;
  CtMapping mapping;
  CtPath force;
  int planned;                  /* 0: refused, and nothing below checked */
  CtPath path;
  unsigned int width, elem;     /* the plane as the kernel sees it */
  unsigned int units, seg, segs, rows, blocks;
  int words, narrow;
} Row;

static void
check_row (const Row * r)
{
  CtFlipPlan p;
  const int planned = ct_plan_flip (&r->b, r->mapping, r->force, &p);

#define CHECK_FIELD(field, got, want) CHECK (r->rule, field, got, want)

  CHECK_FIELD ("planned", planned, r->planned);
  if (!planned || !r->planned)
    return;
  CHECK_FIELD ("path", p.path, r->path);
  CHECK_FIELD ("width as planned", p.plane.width, r->width);
  CHECK_FIELD ("element as planned", p.plane.elem_size, r->elem);
  CHECK_FIELD ("height", p.plane.height, r->b.plane.height);
  CHECK_FIELD ("units", p.units, r->units);
  CHECK_FIELD ("seg", p.seg, r->seg);
  CHECK_FIELD ("segs", p.segs, r->segs);
  CHECK_FIELD ("rows", p.rows, r->rows);
  CHECK_FIELD ("blocks", p.blocks, r->blocks);
  CHECK_FIELD ("exact", p.exact, r->path == CT_PATH_FLIP_EXACT);
  CHECK_FIELD ("narrow", p.narrow, r->narrow);
  if (r->path == CT_PATH_FLIP_EXACT)
    CHECK_FIELD ("words", p.words, r->words);
#undef CHECK_FIELD
}

/* A row's fields after the call's, for a call that is refused. */
#define REFUSED 0, CT_PATH_NONE, 0, 0, 0, 0, 0, 0, 0, 0, 0

static void
worked_rows (void)
{
  const CtMapping V = CT_MAPPING_FLIP_VERTICAL, H = CT_MAPPING_FLIP_HORIZONTAL,
      R = CT_MAPPING_ROTATE_180, I = CT_MAPPING_IDENTITY;
  const CtPath N = CT_PATH_NONE, F = CT_PATH_FLIP, E = CT_PATH_FLIP_EXACT;
  const Row rows[] = {
    /* 1920 bytes a row: 120 units; 1024 slots hold 8 rows; 1080 / 8 */
    { "GRAY8 1080p vert: flip way, whole rows a block",
      batch (1920, 1080, 1, 1920, 0, 1, 0), V, N,
      1, F, 1920, 1, 120, 120, 1, 8, 135, 1, 1 },
    { "GRAY8 1080p horiz: the same for bytes reversed",
      batch (1920, 1080, 1, 1920, 0, 1, 0), H, N,
      1, F, 1920, 1, 120, 120, 1, 8, 135, 1, 1 },
    /* vert keeps the row order: 7680 bytes, 480 units, 2 rows a block */
    { "RGBA 1080p vert: rows of bytes",
      batch (1920, 1080, 4, 7680, 0, 1, 0), V, N,
      1, F, 7680, 1, 480, 480, 1, 2, 540, 1, 1 },
    { "RGBA 1080p identity: rows of bytes",
      batch (1920, 1080, 4, 7680, 0, 1, 0), I, N,
      1, F, 7680, 1, 480, 480, 1, 2, 540, 1, 1 },
    /* reversed rows keep their elements: 4 a unit, 480 units */
    { "RGBA 1080p horiz: 4-byte elements, the wide kernel",
      batch (1920, 1080, 4, 7680, 0, 1, 0), H, N,
      1, F, 1920, 4, 480, 480, 1, 2, 540, 1, 0 },
    /* 3-byte units of 16 elements, one a thread: 256 slots, 120 units */
    { "RGB 1080p 180: 3-byte units, one a thread",
      batch (1920, 1080, 3, 5760, 0, 1, 0), R, N,
      1, F, 1920, 3, 120, 120, 1, 2, 540, 1, 1 },
    { "RGB 1080p vert: rows of bytes",
      batch (1920, 1080, 3, 5760, 0, 1, 0), V, N,
      1, F, 5760, 1, 360, 360, 1, 2, 540, 1, 1 },
    { "8-byte elements horiz: 2 a unit",
      batch (640, 480, 8, 5120, 0, 1, 0), H, N,
      1, F, 640, 8, 320, 320, 1, 3, 160, 1, 0 },
    /* a stride of 33: exact, an element a slot, 31 rows a block */
    { "GRAY8 33x17 horiz, stride 33: the exact way",
      batch (33, 17, 1, 33, 0, 1, 0), H, N,
      1, E, 33, 1, 33, 33, 1, 31, 1, 1, 1 },
    { "GRAY8 33x17 vert, stride 33: not rows of bytes when misaligned",
      batch (33, 17, 1, 33, 0, 1, 0), V, N,
      1, E, 33, 1, 33, 33, 1, 31, 1, 1, 1 },
    { "16-bit 33x17, pointers 2 past 16: exact in native halves",
      batch (33, 17, 2, 66, 2, 1, 0), H, N,
      1, E, 33, 2, 33, 33, 1, 31, 1, 1, 1 },
    { "4-byte elements, pointers 2 past 16: exact in bytes",
      batch (100, 10, 4, 400, 2, 1, 0), H, N,
      1, E, 100, 4, 100, 100, 1, 10, 1, 0, 0 },
    { "8-byte elements, stride 8 past 16: exact in native words",
      batch (101, 7, 8, 808, 0, 1, 0), R, N,
      1, E, 101, 8, 101, 101, 1, 10, 1, 1, 0 },
    /* 2^20 bytes: 65536 units, 64 segments of 1024 */
    { "a row of 1 MB: segments of a block's slots",
      batch (1u << 20, 3, 1, 1u << 20, 0, 1, 0), V, N,
      1, F, 1u << 20, 1, 65536, 1024, 64, 1, 192, 1, 1 },
    { "exact forced on an aligned plane: no rows of bytes",
      batch (1920, 1080, 4, 7680, 0, 1, 0), V, E,
      1, E, 1920, 4, 1920, 1024, 2, 1, 2160, 1, 0 },
    { "flip forced on an aligned plane",
      batch (1920, 1080, 1, 1920, 0, 1, 0), H, F,
      1, F, 1920, 1, 120, 120, 1, 8, 135, 1, 1 },
    { "flip forced on a misaligned plane: refused",
      batch (33, 17, 1, 33, 0, 1, 0), H, F, REFUSED },
    { "a path of the transposes forced: refused",
      batch (1920, 1080, 1, 1920, 0, 1, 0), H, CT_PATH_THIN, REFUSED },
    { "the transposes' exact tile forced: refused (flip-exact is the flips')",
      batch (33, 17, 1, 33, 0, 1, 0), H, CT_PATH_EXACT, REFUSED },
    { "the steps of a batch of one are not read",
      batch (1920, 1080, 1, 1920, 0, 1, 7), H, N,
      1, F, 1920, 1, 120, 120, 1, 8, 135, 1, 1 },
    { "the steps of a batch of two are",
      batch (1920, 1080, 1, 1920, 0, 2, 2073607), H, N,
      1, E, 1920, 1, 1920, 1024, 2, 1, 2160, 1, 1 },
    /* 2^30 bytes: 2^26 units */
    { "a row of INT_MAX bytes or fewer goes as bytes",
      batch (1u << 29, 1, 2, (size_t) 1 << 30, 0, 1, 0), V, N,
      1, F, 1u << 30, 1, 1u << 26, 1024, 1u << 16, 1, 1u << 16, 1, 1 },
    { "a row over INT_MAX bytes stays in elements",
      batch (1u << 30, 1, 4, (size_t) 1 << 32, 0, 1, 0), V, N,
      1, F, 1u << 30, 4, 1u << 28, 1024, 1u << 18, 1, 1u << 18, 1, 0 },
    /* 2 segments a row, 2^31 - 1 rows: 2^32 - 2 blocks */
    { "more blocks than a grid holds: refused",
      batch (2048, 0x7fffffffu, 1, 2049, 0, 1, 0), H, N, REFUSED },
  };

  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
    check_row (&rows[i]);
}

/* the sweep's generator (random-fill.h) and its seed */
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t
next (void)
{
  return ct_ref_random (&rng);
}

/* What every plan keeps, whatever the numbers: it covers the plane, its
 * blocks hold no more than their slots, none is wasted, a row keeps its
 * bytes, and the way follows the alignment. */
static void
sweep (void)
{
  const unsigned int sizes[] = { 1, 2, 3, 4, 8 };
  const CtMapping maps[] = { CT_MAPPING_IDENTITY, CT_MAPPING_FLIP_HORIZONTAL,
    CT_MAPPING_FLIP_VERTICAL, CT_MAPPING_ROTATE_180
  };
  int bad = 0;

  for (int it = 0; it < 200000; it++) {
    const unsigned int es = sizes[next () % 5];
    const unsigned int w = 1 + (unsigned int) (next () % ((it & 1) ? 64 :
            300000));
    const unsigned int h = 1 + (unsigned int) (next () % 5000);
    const unsigned int align = (unsigned int) (next () % 3) * (1u <<
        (next () % 5));
    const size_t stride = (size_t) w * es + (next () % 3) * 16 +
        (next () % 2) * es;
    const unsigned int count = 1 + (unsigned int) (next () % 3);
    const CtMapping m = maps[next () % 4];
    const CtPath force = (next () % 4) ? CT_PATH_NONE : CT_PATH_FLIP_EXACT;
    const CtPlaneBatch b = batch (w, h, es, stride, align, count,
        (size_t) h * stride + (next () % 2) * es);
    const uintptr_t bits = (uintptr_t) b.plane.src | (uintptr_t) b.plane.dst |
        b.plane.src_stride | b.plane.dst_stride |
        (count > 1 ? b.src_step | b.dst_step : 0);
    const int exact = bits % 16 != 0 || force == CT_PATH_FLIP_EXACT;
    const int bytes = !exact && !(m & CT_MAPPING_MIRROR_COLUMNS);
    const unsigned int pes = bytes ? 1 : es;
    const unsigned int per_unit = exact ? 1 : pes == 3 ? 16 : 16 / pes;
    const unsigned int slots = 256 * (exact ? 4 : pes == 3 ? 1 : 4);
    CtFlipPlan p;

    if (!ct_plan_flip (&b, m, force, &p)) {
      printf ("FAIL sweep: %ux%u es %u refused\n", w, h, es);
      bad++;
      continue;
    }
    if (p.path != (exact ? CT_PATH_FLIP_EXACT : CT_PATH_FLIP) ||
        p.plane.elem_size != pes ||
        (unsigned long long) p.plane.width * pes != (unsigned long long) w * es
        || p.narrow != (pes <= 3) ||
        (exact && p.words != (bits % es == 0)) ||
        /* covers every element of a row, and every row */
        (unsigned long long) p.seg * p.segs * per_unit < p.plane.width ||
        (unsigned long long) p.blocks / p.segs * p.rows < h ||
        p.blocks % p.segs != 0 ||
        /* within its slots, and no block without work */
        (unsigned long long) p.seg * p.rows > slots ||
        (unsigned long long) (p.segs - 1) * p.seg >= p.units ||
        (unsigned long long) (p.blocks / p.segs - 1) * p.rows >= h ||
        p.units != (p.plane.width + per_unit - 1) / per_unit) {
      if (bad < 10)
        printf ("FAIL sweep: %ux%u es %u align %u mapping %d force %d: "
            "planned %ux%u es %u units %u seg %u segs %u rows %u blocks %u "
            "path %d\n", w, h, es, align, (int) m, (int) force,
            p.plane.width, p.plane.height, p.plane.elem_size, p.units, p.seg,
            p.segs, p.rows, p.blocks, (int) p.path);
      bad++;
    }
  }
  CHECK ("sweep", "plans that break a rule", bad, 0);
}

int
main (void)
{
  worked_rows ();
  sweep ();
  return tally_finish ();
}
