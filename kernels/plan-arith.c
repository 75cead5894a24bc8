/* cudatranspose: the fused arithmetic's planner (plan.h), host code that
 * arith.cu's launches and its CPU loop follow and
 * tests/kernels/test-plan-arith.c checks without a GPU; arith.cu's opening
 * comment says which kernel takes what. The operands' values (cast to the
 * output type, and the exactness of a division by a reciprocal) are
 * arith.cu's: a plan says which operation each step takes them from. */
#include "plan.h"

#include <stdint.h>

/* The type pairs the pixels kernel is built for (HWC video and NHWC uint8
 * to float32 for a network, floats or bytes kept). */
static int
pixels_pair (CtType in, CtType out)
{
  return (in == CT_TYPE_UINT8 && out == CT_TYPE_FLOAT32) ||
      (in == CT_TYPE_UINT8 && out == CT_TYPE_UINT8) ||
      (in == CT_TYPE_FLOAT32 && out == CT_TYPE_FLOAT32);
}

/* @arith's operations as the pixels kernel's steps on pixels of
 * @channels channels: each for every channel or for one below @channels
 * (one for a channel the pixels do not have touches nothing, as in the any
 * kernel and on the CPU); a run of one kind on distinct single channels
 * merged into one step (the order between operations on different
 * channels does not matter). 0 where more than CT_ARITH_PIXEL_STEPS
 * remain. */
static int
merge_steps (const CtArith * arith, unsigned int channels, CtArithPlan * plan)
{
  const unsigned int all = (1u << channels) - 1;

  plan->n_steps = 0;
  for (unsigned int i = 0; i < arith->n_ops; i++) {
    const int ch = arith->ops[i].channel;
    const unsigned char kind = (unsigned char) arith->ops[i].kind;
    unsigned int bit;
    CtArithStep *last = plan->n_steps > 0 ?
        &plan->steps[plan->n_steps - 1] : NULL;

    if (ch >= (int) channels)
      continue;
    bit = ch < 0 ? all : 1u << ch;
    /* into the last one: same kind, single channels, this one not in it */
    if (last && ch >= 0 && last->kind == kind && last->mask != all &&
        (last->mask & bit) == 0) {
      last->mask |= (unsigned char) bit;
      last->op[ch] = (unsigned char) i;
      continue;
    }
    if (plan->n_steps == CT_ARITH_PIXEL_STEPS)
      return 0;
    plan->steps[plan->n_steps].kind = kind;
    plan->steps[plan->n_steps].mask = (unsigned char) bit;
    for (unsigned int c = 0; c < CT_ARITH_PIXEL_CHANNELS; c++)
      plan->steps[plan->n_steps].op[c] = (unsigned char) i;
    plan->n_steps++;
  }
  return 1;
}

/* Whether the pixels kernel takes the job: the permutation, simplified,
 * moves nothing, or an innermost side of at most CT_ARITH_PIXEL_CHANNELS
 * elements outwards over one other side; channel operations, if any, are
 * for channel c of those; and the merged program fits. If so, the plan
 * has its shape and steps. */
static int
pixels_job (const unsigned long long dims[4], const unsigned int perm[4],
    const CtArith * arith, CtArithPlan * plan)
{
  const CtShape s = ct_shape_simplify (dims, perm);
  int identity = 1;

  for (int i = 0; i < s.rank; i++)
    identity = identity && s.p[i] == i;
  if (identity) {
    plan->channels = 1;
    plan->n_pixels = 1;
    for (int k = 0; k < 4; k++)
      plan->n_pixels *= dims[k];
    plan->batches = 1;
  } else if ((s.rank == 2 || s.rank == 3) && s.p[0] == 1 && s.p[1] == 0 &&
      s.d[0] <= CT_ARITH_PIXEL_CHANNELS &&
      (s.rank == 2 || s.d[2] <= 0xffffffffull)) {
    plan->channels = (unsigned int) s.d[0];
    plan->n_pixels = s.d[1];
    plan->batches = s.rank == 3 ? (unsigned int) s.d[2] : 1;
  } else {
    return 0;
  }
  return (plan->n_ch == 0 || (plan->ch_size == 1 &&
          plan->n_ch == plan->channels)) &&
      merge_steps (arith, plan->channels, plan);
}

/* A job that does not fill the GPU takes fewer pixels a thread, for more
 * threads: under CT_ARITH_ONE_PIXEL_BELOW blocks (at 4 pixels a thread)
 * per multiprocessor one, under CT_ARITH_TWO_PIXELS_BELOW two. Such a job
 * is one wave, and its time is mostly one thread's chain of loads,
 * arithmetic and stores (tensors.md, "Normalizing for a network in the
 * same pass"). */
void
ct_plan_arith_device (CtArithPlan * plan, unsigned int n_sms)
{
  const unsigned long long blocks = ct_plan_div_up (ct_plan_div_up
      (plan->n_pixels, CT_ARITH_PIXELS_PER_THREAD), CT_PLAN_THREADS) *
      plan->grid[1];

  if (!plan->pixels)
    return;
  if (blocks < (unsigned long long) CT_ARITH_ONE_PIXEL_BELOW * n_sms)
    plan->per_thread = 1;
  else if (blocks < (unsigned long long) CT_ARITH_TWO_PIXELS_BELOW * n_sms)
    plan->per_thread = 2;
  else
    plan->per_thread = CT_ARITH_PIXELS_PER_THREAD;
  plan->grid[0] = (unsigned int) ct_plan_div_up (ct_plan_div_up
      (plan->n_pixels, plan->per_thread), CT_PLAN_THREADS);
}

CtResult
ct_plan_arith (const void *src, const void *dst,
    const unsigned long long dims[4], const unsigned int perm[4],
    const CtArith * arith, CtArithPlan * plan)
{
  const CtArithPlan none = { 0 };
  unsigned long long in_stride[4], acc = 1;
  unsigned int in_size, out_size;
  int per_channel = 0;
  CtResult res;

  if (!arith || !dims || !perm || !plan)
    return CT_ERROR_INVALID_ARGUMENT;
  if ((res = ct_arith_validate (arith)) != CT_OK)
    return res;
  in_size = ct_type_size (arith->in_type);
  out_size = ct_type_size (arith->out_type);
  if ((res = ct_permute_validate (dims, in_size, perm)) != CT_OK)
    return res;

  *plan = none;
  for (unsigned int i = 0; i < arith->n_ops; i++)
    per_channel = per_channel || arith->ops[i].channel >= 0;
  if (per_channel) {
    /* a channel dimension past the fourth has size 1: one channel */
    unsigned long long size = 1;
    for (unsigned int k = 0; k < arith->channel_dim && k < 4; k++)
      size *= dims[k];
    plan->ch_size = size ? size : 1;
    plan->n_ch = arith->channel_dim < 4 ? dims[arith->channel_dim] : 1;
  }
  for (int k = 0; k < 4; k++) {
    in_stride[k] = acc;
    acc *= dims[k];
  }
  plan->total = acc;
  for (int i = 0; i < 4; i++) {
    plan->d_out[i] = dims[perm[i]];
    plan->src_of[i] = in_stride[perm[i]];
  }

  if (pixels_pair (arith->in_type, arith->out_type) &&
      pixels_job (dims, perm, arith, plan)) {
    const unsigned int rows = plan->batches < CT_PLAN_MAX_GRID_Y ?
        plan->batches : CT_PLAN_MAX_GRID_Y;

    plan->pixels = 1;
    plan->path = CT_PATH_ARITH_PIXELS;
    /* every batch's first pixel on a word too */
    plan->word_loads = (uintptr_t) src % 4 == 0 && (plan->batches == 1 ||
        plan->n_pixels * plan->channels * in_size % 4 == 0);
    plan->quad_stores = (uintptr_t) dst % (4 * out_size) == 0 &&
        plan->n_pixels % CT_ARITH_PIXELS_PER_THREAD == 0;
    plan->grid[1] = rows;
    plan->short_program = plan->n_steps <= CT_ARITH_SHORT_PIXEL_STEPS;
    ct_plan_arith_device (plan, 0);
  } else {
    const unsigned long long blocks = ct_plan_div_up (plan->total,
        CT_PLAN_THREADS);

    plan->pixels = 0;
    plan->path = CT_PATH_ARITH;
    plan->channels = 0;
    plan->n_pixels = 0;
    plan->batches = 0;
    plan->n_steps = 0;
    /* a few waves' worth of blocks; the loop takes the rest */
    plan->blocks = (unsigned int) (blocks < CT_ARITH_ANY_BLOCKS ? blocks :
        CT_ARITH_ANY_BLOCKS);
    plan->wide_index = plan->total > 0x7fffffffull;
    plan->short_program = arith->n_ops <= CT_ARITH_SHORT_ANY_OPS;
  }
  return CT_OK;
}
