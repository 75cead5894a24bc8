/* cudatranspose: the 4:2:2 transposes' planner (plan.h), host code that
 * yuv422.cu's launches follow and tests/kernels/test-plan-422.c checks
 * without a GPU. */
#include "plan.h"
#include "yuv422-unit.h"

#include <stdint.h>
#include <string.h>

void
ct_plan_422 (const CtPlane422 * planes, unsigned int n, CtMapping mapping,
    CtPlan422 * plan)
{
  const int swap = !(mapping & CT_MAPPING_KEEP_AXES);
  unsigned int units = 0, rows = 0;
  unsigned long long gy;

  memset (plan, 0, sizeof (*plan));
  plan->swap = swap;
  for (unsigned int i = 0; i < n && i < CT_PLANES_PER_LAUNCH; i++) {
    const CtPlane422 *p = &planes[i];
    const uintptr_t unit = p->layout == CT_422_PACKED ? 4 : 2;

    plan->aligned[i] =
        (((uintptr_t) p->src | p->src_stride) % unit == 0 ?
        CT_422_SRC_ALIGNED : 0) |
        (((uintptr_t) p->dst | p->dst_stride) % unit == 0 ?
        CT_422_DST_ALIGNED : 0);
    if (p->width == 0 || p->height == 0)
      continue;
    if (ct_422_out_units (p, mapping) > units)
      units = ct_422_out_units (p, mapping);
    if (ct_422_out_rows (p, mapping) > rows)
      rows = ct_422_out_rows (p, mapping);
  }
  if (units == 0)
    return;
  plan->grid[0] = (unsigned int) ct_plan_div_up (units,
      swap ? CT_422_TILE_UNITS : CT_422_UNITS_X);
  gy = ct_plan_div_up (rows, swap ? CT_422_TILE_ROWS : CT_422_ROWS_Y);
  plan->grid[1] = (unsigned int) (gy < CT_PLAN_MAX_GRID_Y ? gy :
      CT_PLAN_MAX_GRID_Y);
  plan->grid[2] = n < CT_PLANES_PER_LAUNCH ? n : CT_PLANES_PER_LAUNCH;
}
