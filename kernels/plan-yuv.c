/* cudatranspose: the YUV one pass's planner (plan-yuv.h), host code that
 * yuv-rgb.cu's launch follows and tests/kernels/test-plan-yuv.c checks
 * without a GPU. docs/performance.md has what each kernel of one kind
 * saves. */
#include "plan-yuv.h"
#include "plan.h"

#include <stdint.h>
#include <stdlib.h>

/* The most a product of a splat with @coeff can reach, either sign. */
static int
product_reach (int coeff)
{
  return abs ((int16_t) coeff) / 2 + 1;
}

/* (the largest, B of BT.2020 limited range, reaches 425) */
int
ct_plan_yuv_sums_fit (const CtYuvPlan * p)
{
  const int y = product_reach (p->m[0][0]);
  const int r = y + product_reach (p->m[0][2]);
  const int g = y + product_reach (p->m[1][1]) + product_reach (p->m[1][2]);
  const int b = y + product_reach (p->m[2][1]);

  return r <= INT16_MAX && g <= INT16_MAX && b <= INT16_MAX;
}

/* The kind of frame @s of plan @p for a kernel built for one (uint8 and
 * float32 outputs): NV12 and NV21 read a pair of bytes a load, so their
 * kernels take only a chroma plane whose pairs are 2-byte aligned (any
 * other goes to the kernel for any); into float32, sited as decoders site
 * them, the kernel of those weights (into uint8 it spills and is no
 * faster). */
static CtYuvKind
kind_of (const CtYuvPlan * p, const CtYuvSrc * s, CtType out)
{
  const uintptr_t pairs = (uintptr_t) (s->u < s->v ? s->u : s->v);

  if (p->wide)
    return CT_YUV_KIND_DEEP;
  if (!p->filtered)
    return CT_YUV_KIND_BLOCKS;
  if (pairs % 2 != 0 || s->u_stride % 2 != 0)
    return CT_YUV_KIND_ANY;
  return out == CT_TYPE_FLOAT32 && p->h_cosited && p->v_filtered ?
      CT_YUV_KIND_SITED : CT_YUV_KIND_PAIRS;
}

CtYuvKernel
ct_plan_yuv (const CtYuvPlan * p, const CtYuvSrc * s, CtType out, int ch_dim)
{
  const int is_float = out == CT_TYPE_FLOAT32 || out == CT_TYPE_FLOAT64;
  const int one_kind = out == CT_TYPE_UINT8 || out == CT_TYPE_FLOAT32;
  CtYuvKernel k = { CT_YUV_VALUES_TABLE, CT_YUV_KIND_ANY };

  /* (the kinds are 4:2:0's) */
  const int four_two_zero = ct_plan_yuv_420 (p);

  if (is_float && p->wide) {
    /* (float32's kernel for P010 and P016, float64's for any) */
    k.values = CT_YUV_VALUES_WHOLE;
    k.kind = out == CT_TYPE_FLOAT32 && four_two_zero ? CT_YUV_KIND_DEEP :
        CT_YUV_KIND_ANY;
  } else if (ch_dim == 1 || ch_dim == 2) {
    k.values = CT_YUV_VALUES_EACH;
  } else if (one_kind && four_two_zero && (p->wide ||
          ct_plan_yuv_sums_fit (p))) {
    k.kind = kind_of (p, s, out);
  }
  return k;
}

void
ct_plan_yuv_rgb (unsigned int width, unsigned int height,
    unsigned int grid[2])
{
  grid[0] = (unsigned int) ct_plan_div_up (width, CT_YUV_RGB_THREADS);
  grid[1] = height < CT_PLAN_MAX_GRID_Y ? height : CT_PLAN_MAX_GRID_Y;
}

int
ct_plan_yuv_420 (const CtYuvPlan * p)
{
  return p->h_shift == 1 && p->v_shift == 1;
}

int
ct_plan_yuv_hwc (CtYuvKernel k, long long step_x, long long step_y,
    long long step_c, unsigned int value_size)
{
  return k.kind != CT_YUV_KIND_ANY && k.values != CT_YUV_VALUES_EACH &&
      step_c == 1 && (step_x == -3 || (step_x == 3 &&
          k.values == CT_YUV_VALUES_TABLE && value_size == 4)) &&
      !ct_yuv_lanes_along_y (step_x, step_y);
}

CtYuvLaunch
ct_plan_yuv_launch (unsigned int width, unsigned int height,
    long long step_x, long long step_y, long long step_c, uintptr_t at,
    unsigned int value_size, unsigned long long resident)
{
  /* a pair is rows 2k - 1 and 2k: one more than half the rows */
  const unsigned int pairs = height / 2 + 1, quads = (width + 3) / 4;
  CtYuvLaunch l;
  unsigned long long gy, wave;

  l.lanes_along_y = ct_yuv_lanes_along_y (step_x, step_y);
  l.grid_x = (unsigned int) ct_plan_div_up (l.lanes_along_y ? pairs : quads,
      CT_YUV_LANES);
  gy = ct_plan_div_up (l.lanes_along_y ? quads : pairs, CT_YUV_RANKS);
  wave = resident / l.grid_x;
  if (wave > 0 && gy > wave)
    gy = wave;
  l.grid_y = (unsigned int) (gy < CT_PLAN_MAX_GRID_Y ? gy :
      CT_PLAN_MAX_GRID_Y);
  l.fours = step_x == 1 && step_y % 4 == 0 && step_c % 4 == 0 &&
      at % (4 * value_size) == 0;
  return l;
}

CtYuvTiles
ct_plan_yuv_tiles (CtYuvKernel k, unsigned int width, unsigned int height,
    long long step_x, long long step_y, long long step_c,
    unsigned int value_size, unsigned long long resident)
{
  const unsigned int pairs = height / 2 + 1, quads = (width + 3) / 4;
  const int chw = step_y == 1 || step_y == -1;
  /* (uint8 from the 8-bit formats measured faster untiled:
   * docs/performance.md) */
  const int hwc = !chw && (step_y == 3 || step_y == -3) && step_c == 1 &&
      (value_size == 4 || k.kind == CT_YUV_KIND_DEEP);
  CtYuvTiles t = { 0, 0, 0, 0, 0 };
  unsigned long long grid;

  /* (the kernels of any kind are tiled into uint8 and float32 alone, as
   * their value sizes say: int32's and uint32's launch finds no tiled
   * kernel and goes untiled) */
  const int built = k.kind != CT_YUV_KIND_ANY || value_size == 1 ||
      value_size == 4;

  if (k.values == CT_YUV_VALUES_EACH || !built || !(chw || hwc) ||
      !ct_yuv_lanes_along_y (step_x, step_y))
    return t;
  t.tiled = 1;
  t.hwc = hwc;
  t.tiles_y = (unsigned int) ct_plan_div_up (pairs, CT_YUV_TILE_PAIRS);
  t.tiles = (unsigned long long) t.tiles_y *
      ct_plan_div_up (quads, CT_YUV_TILE_QUADS);
  grid = t.tiles;
  if (resident > 0 && grid > resident)
    grid = resident;
  t.grid = (unsigned int) (grid < CT_PLAN_MAX_GRID_X ? grid :
      CT_PLAN_MAX_GRID_X);
  return t;
}
