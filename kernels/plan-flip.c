/* cudatranspose: the flips' planner (plan.h), host code that flip.cu's
 * launches follow and tests/kernels/test-plan-flip.c checks without a GPU.
 *
 * A thread of the flip way moves units of whole elements in whole 16-byte
 * chunks: CT_FLIP_UNITS_PER_THREAD units of CT_FLIP_UNIT_BYTES, or for
 * 3-byte elements CT_FLIP_UNITS3_PER_THREAD of CT_FLIP_UNIT3_BYTES; a
 * thread of the exact way moves CT_FLIP_EXACT_PER_THREAD elements. A block
 * of CT_PLAN_THREADS threads takes a segment of a row where the row has as
 * many units as the block has slots, else as many whole rows as fill its
 * slots. */
#include "plan.h"

#include <limits.h>
#include <stdint.h>

int
ct_plan_flip (const CtPlaneBatch * b, CtMapping mapping, CtPath force,
    CtFlipPlan * plan)
{
  const uintptr_t bits = ct_plan_batch_bits (b);
  const int aligned = bits % 16 == 0;
  const int reverse = (mapping & CT_MAPPING_MIRROR_COLUMNS) != 0;
  CtPlane pl = b->plane;
  unsigned int es, per_unit, per_thread, slots;
  unsigned long long blocks;

  if (force != CT_PATH_NONE && force != CT_PATH_FLIP &&
      force != CT_PATH_FLIP_EXACT)
    return 0;
  if (force == CT_PATH_FLIP && !aligned)
    return 0;
  /* a row copy moves bytes, whatever the element: an aligned plane under
   * a mapping that does not reverse its rows goes as a plane of bytes (one
   * unit for every size, no 3-byte case) */
  if (!reverse && force != CT_PATH_FLIP_EXACT && aligned &&
      (unsigned long long) pl.width * pl.elem_size <= INT_MAX) {
    pl.width *= pl.elem_size;
    pl.elem_size = 1;
  }
  es = pl.elem_size;
  plan->plane = pl;
  plan->exact = force == CT_PATH_FLIP_EXACT || !aligned;
  plan->words = bits % es == 0;
  plan->narrow = es <= 3;
  if (plan->exact) {
    per_unit = 1;
    per_thread = CT_FLIP_EXACT_PER_THREAD;
  } else if (es == 3) {
    per_unit = CT_FLIP_UNIT3_BYTES / 3;
    per_thread = CT_FLIP_UNITS3_PER_THREAD;
  } else {
    per_unit = CT_FLIP_UNIT_BYTES / es;
    per_thread = CT_FLIP_UNITS_PER_THREAD;
  }
  slots = CT_PLAN_THREADS * per_thread;
  plan->units = (unsigned int) ct_plan_div_up (pl.width, per_unit);
  if (plan->units >= slots) {
    plan->seg = slots;
    plan->segs = (unsigned int) ct_plan_div_up (plan->units, slots);
    plan->rows = 1;
  } else {
    plan->seg = plan->units;
    plan->segs = 1;
    plan->rows = slots / plan->units;
  }
  blocks = ct_plan_div_up (pl.height, plan->rows) *
      (unsigned long long) plan->segs;
  if (blocks > CT_PLAN_MAX_GRID_X)
    return 0;
  plan->blocks = (unsigned int) blocks;
  plan->path = plan->exact ? CT_PATH_FLIP_EXACT : CT_PATH_FLIP;
  return 1;
}
