/* cudatranspose: the 4:2:2 transposes' planner (kernels/plan-422.c,
 * through ct_plan_422 in kernels/plan.h) checked without a GPU: launches
 * of one to CT_PLANES_PER_LAUNCH planes of random sizes, layouts and
 * alignments (empty planes among them) under every mapping, against the
 * rules written out here:
 *   - a mapping that swaps the axes takes the tile kernel, one that keeps
 *     them a unit a thread;
 *   - a plane's source rows start on whole units (4-byte macropixels for
 *     the packed layout, 2-byte samples for the chroma ones) where its
 *     pointer and stride are multiples of the unit, and so its output
 *     rows; planes past the launch's are neither;
 *   - the output is ceil(w / 2) units by h rows, where w x h is the
 *     picture as it comes out (height x width where the axes swap); the
 *     grid covers the largest output row's units in blocks of 32 units
 *     and its rows in blocks of 64 rows (the tile) or 8 (a unit a
 *     thread), no more than 65535 blocks down (the blocks loop over the
 *     rest), a plane a block deep; a launch of empty planes only has no
 *     grid (no launch). */
#include "plan.h"
#include "plan-tally.h"
#include "random-fill.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *const mapping_names[] = {
  "transpose", "90r", "90l", "anti-transpose", "identity", "horiz", "vert",
  "180",
};

static uint64_t rng = 422;

/* A random number below @n. */
static unsigned int
below (unsigned int n)
{
  return (unsigned int) (ct_ref_random (&rng) % n);
}

/* A random dimension: often small or odd, sometimes 0, sometimes past
 * what a grid's y holds in blocks. */
static unsigned int
random_dim (void)
{
  switch (below (8)) {
    case 0:
      return 0;
    case 1:
      return 1 + below (4);
    case 2:
      return 64 * 65535 - 64 + below (256);
    case 3:
      return 8 * 65535 - 8 + below (32);
    default:
      return 1 + below (5000);
  }
}

/* A plane, never dereferenced: its pointers and strides at random
 * offsets from a multiple of 4. */
static CtPlane422
random_plane (void)
{
  CtPlane422 p;

  memset (&p, 0, sizeof (p));
  p.layout = (CtLayout422) below (3);
  p.width = random_dim ();
  p.height = random_dim ();
  p.src = (const void *) (uintptr_t) (0x100000000000ull +
      below (8));
  p.dst = (void *) (uintptr_t) (0x200000000000ull + below (8));
  p.src_stride = 4 * (1 + below (4096)) + below (4);
  p.dst_stride = 4 * (1 + below (4096)) + below (4);
  if (p.layout == CT_422_PACKED) {
    p.y_offset = 0;
    p.u_offset = 1;
    p.v_offset = 3;
  }
  return p;
}

static void
check_launch (const CtPlane422 * planes, unsigned int n, CtMapping mapping,
    const char *what)
{
  const int swap = mapping == CT_MAPPING_TRANSPOSE ||
      mapping == CT_MAPPING_ROTATE_90R || mapping == CT_MAPPING_ROTATE_90L ||
      mapping == CT_MAPPING_ANTI_TRANSPOSE;
  unsigned long long units = 0, rows = 0, down;
  CtPlan422 plan;

  memset (&plan, 0xa5, sizeof (plan));
  ct_plan_422 (planes, n, mapping, &plan);
  CHECK ("swapping mappings take the tile kernel", what, plan.swap != 0,
      swap);
  for (unsigned int i = 0; i < CT_PLANES_PER_LAUNCH; i++) {
    unsigned int want = 0;

    if (i < n) {
      const uintptr_t unit = planes[i].layout == CT_422_PACKED ? 4 : 2;

      if ((uintptr_t) planes[i].src % unit == 0 &&
          planes[i].src_stride % unit == 0)
        want |= CT_422_SRC_ALIGNED;
      if ((uintptr_t) planes[i].dst % unit == 0 &&
          planes[i].dst_stride % unit == 0)
        want |= CT_422_DST_ALIGNED;
    }
    CHECK ("a plane's rows on whole units", what, plan.aligned[i], want);
  }
  for (unsigned int i = 0; i < n; i++) {
    const unsigned int w = swap ? planes[i].height : planes[i].width;
    const unsigned int h = swap ? planes[i].width : planes[i].height;

    if (w == 0 || h == 0)
      continue;
    if (up (w, 2) > units)
      units = up (w, 2);
    if (h > rows)
      rows = h;
  }
  if (units == 0) {
    CHECK ("empty planes only: no grid", what, plan.grid[0], 0);
    return;
  }
  down = up (rows, swap ? 64 : 8);
  CHECK ("the grid's x covers the largest row's units", what, plan.grid[0],
      up (units, 32));
  CHECK ("the grid's y covers its rows, up to 65535", what, plan.grid[1],
      down < 65535 ? down : 65535);
  CHECK ("a plane a block deep", what, plan.grid[2], n);
}

int
main (void)
{
  char what[96];

  for (int round = 0; round < 4000; round++) {
    CtPlane422 planes[CT_PLANES_PER_LAUNCH];
    const unsigned int n = 1 + below (CT_PLANES_PER_LAUNCH);

    for (unsigned int i = 0; i < CT_PLANES_PER_LAUNCH; i++)
      planes[i] = random_plane ();
    for (unsigned int m = 0; m < 8; m++) {
      snprintf (what, sizeof (what), "round %d, %u planes, %s", round, n,
          mapping_names[m]);
      check_launch (planes, n, (CtMapping) m, what);
    }
  }
  return tally_finish ();
}
