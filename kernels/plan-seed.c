/* cudatranspose: the seed variants' planner (plan.h), host code that
 * transpose.cu's launch follows and tests/kernels/test-plan-seed.c checks
 * without a GPU. */
#include "plan.h"

#include <stdint.h>
#include <string.h>

int
ct_plan_seed (const CtPlane * plane, CtKernel kernel, CtSeedPlan * plan)
{
  const uintptr_t bits = (uintptr_t) plane->src | (uintptr_t) plane->dst |
      (uintptr_t) plane->src_stride | (uintptr_t) plane->dst_stride;
  const unsigned int es = plane->elem_size;
  unsigned int across = plane->width, down = plane->height;
  unsigned long long gy;

  memset (plan, 0, sizeof (*plan));
  switch (kernel) {
    case CT_KERNEL_NAIVE:
      plan->tile_w = CT_SEED_BLOCK_X;
      plan->tile_h = CT_SEED_BLOCK_Y;
      break;
    case CT_KERNEL_NAIVE_COLUMN:
      /* (its warps run down the source's columns) */
      plan->tile_w = CT_SEED_BLOCK_X;
      plan->tile_h = CT_SEED_BLOCK_Y;
      across = plane->height;
      down = plane->width;
      break;
#define SEED_TILE(id, w, h, pad_) \
    case CT_KERNEL_##id: \
      plan->tile_w = w; \
      plan->tile_h = h; \
      plan->pad = pad_; \
      break;
      CT_SEED_TILES (SEED_TILE)
#undef SEED_TILE
    default:
      return 0;
  }
  plan->grid[0] = (unsigned int) ct_plan_div_up (across, plan->tile_w);
  gy = ct_plan_div_up (down, plan->tile_h);
  plan->grid[1] = (unsigned int) (gy < CT_PLAN_MAX_GRID_Y ? gy :
      CT_PLAN_MAX_GRID_Y);
  plan->words = es != 3 && bits % es == 0;
  return 1;
}
