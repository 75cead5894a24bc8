/* cudatranspose: the fused arithmetic's planner (kernels/plan-arith.c,
 * through ct_plan_arith in kernels/plan.h) checked without a GPU: worked
 * rows, each saying which rule it checks, then a random sweep in which
 * every plan must keep each channel's operations in their order, move
 * every element where the permutation's definition (permute-reference.h) puts
 * it, and keep the launch rules.
 *
 * The rules (arith.cu's opening comment, docs/tensors.md): the pixels
 * kernel takes uint8 to float32, uint8 to uint8 and float32 to float32
 * where the permutation, simplified, moves nothing or moves an innermost
 * side of at most 4 elements (the channels) outwards over one other side,
 * where channel operations, if any, are for those channels, and where the
 * operations, runs of one kind on distinct single channels merged into one
 * step, make at most 16 steps; every other job takes the any kernel. A
 * pixels job loads words where the input and every batch start on 4 bytes,
 * stores 4 elements at once where the output is aligned to them and a
 * plane is whole groups of 4; a thread takes 4 pixels, but 1 under 2
 * blocks a multiprocessor (counted at 4) and 2 under 8; a program of at
 * most 3 steps takes the short form. The any kernel takes at most 65536
 * blocks, 64-bit indices past 2^31 - 1 elements, and the short form for at
 * most 4 operations. */
#include "permute-reference.h"
#include "plan.h"
#include "plan-tally.h"
#include "random-fill.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uintptr_t kSrc = 0x100000000000ull, kDst = 0x300000000000ull;

static CtArith arith;

/* arith: @in to @out, channel dimension @channel_dim, no operations yet */
static void
start (CtType in, CtType out, unsigned int channel_dim)
{
  memset (&arith, 0, sizeof arith);
  arith.in_type = in;
  arith.out_type = out;
  arith.channel_dim = channel_dim;
}

static void
op (CtArithKind kind, double value, int channel)
{
  CtArithOp *o = &arith.ops[arith.n_ops++];

  o->kind = kind;
  o->channel = channel;
  o->is_float = 1;
  o->float_value = value;
  o->int_value = (long long) value;
}

static CtResult
plan_of (unsigned long long d0, unsigned long long d1, unsigned long long d2,
    unsigned long long d3, unsigned int p0, unsigned int p1, unsigned int p2,
    unsigned int p3, unsigned int n_sms, CtArithPlan * plan)
{
  const unsigned long long dims[4] = { d0, d1, d2, d3 };
  const unsigned int perm[4] = { p0, p1, p2, p3 };
  CtResult res = ct_plan_arith ((const void *) kSrc, (const void *) kDst,
      dims, perm, &arith, plan);

  if (res == CT_OK)
    ct_plan_arith_device (plan, n_sms);
  return res;
}

static void
worked_rows (void)
{
  CtArithPlan p;
  const char *r;

  r = "RGB 1080p HWC uint8 to CHW float32, div:255: pixels, one step";
  start (CT_TYPE_UINT8, CT_TYPE_FLOAT32, 0);
  op (CT_ARITH_DIV, 255, -1);
  CHECK (r, "result", plan_of (3, 1920, 1080, 1, 1, 2, 0, 3, 132, &p), CT_OK);
  CHECK (r, "pixels kernel", p.pixels, 1);
  CHECK (r, "path", p.path, CT_PATH_ARITH_PIXELS);
  CHECK (r, "channels", p.channels, 3);
  CHECK (r, "pixels", p.n_pixels, 1920 * 1080);
  CHECK (r, "batches", p.batches, 1);
  CHECK (r, "steps", p.n_steps, 1);
  CHECK (r, "step mask", p.steps[0].mask, 7);
  CHECK (r, "word loads", p.word_loads, 1);
  CHECK (r, "quad stores", p.quad_stores, 1);
  /* 518400 threads at 4: 2025 blocks, past 8 x 132 */
  CHECK (r, "pixels a thread", p.per_thread, 4);
  CHECK (r, "grid x", p.grid[0], 2025);
  CHECK (r, "short program", p.short_program, 1);

  r = "per-channel means then a scale: one merged step for the three adds";
  start (CT_TYPE_UINT8, CT_TYPE_FLOAT32, 0);
  op (CT_ARITH_ADD, -123, 0);
  op (CT_ARITH_ADD, -117, 1);
  op (CT_ARITH_ADD, -104, 2);
  op (CT_ARITH_DIV, 58, -1);
  CHECK (r, "result", plan_of (3, 1920, 1080, 1, 1, 2, 0, 3, 132, &p), CT_OK);
  CHECK (r, "pixels kernel", p.pixels, 1);
  CHECK (r, "channel size", p.ch_size, 1);
  CHECK (r, "channels of the operations", p.n_ch, 3);
  CHECK (r, "steps", p.n_steps, 2);
  CHECK (r, "first step's mask", p.steps[0].mask, 7);
  CHECK (r, "channel 1's operand", p.steps[0].op[1], 1);
  CHECK (r, "channel 2's operand", p.steps[0].op[2], 2);
  CHECK (r, "second step's kind", p.steps[1].kind, CT_ARITH_DIV);

  r = "a 224x224x3 frame on 132 multiprocessors: 49 blocks, 1 pixel each";
  start (CT_TYPE_UINT8, CT_TYPE_FLOAT32, 0);
  op (CT_ARITH_DIV, 255, -1);
  CHECK (r, "result", plan_of (3, 224, 224, 1, 1, 2, 0, 3, 132, &p), CT_OK);
  CHECK (r, "pixels a thread", p.per_thread, 1);
  CHECK (r, "grid x", p.grid[0], 196);
  r = "640x640x3: 400 blocks, 2 pixels each";
  CHECK (r, "result", plan_of (3, 640, 640, 1, 1, 2, 0, 3, 132, &p), CT_OK);
  CHECK (r, "pixels a thread", p.per_thread, 2);
  CHECK (r, "grid x", p.grid[0], 800);
  r = "the same with no device known: 4 each";
  CHECK (r, "result", plan_of (3, 640, 640, 1, 1, 2, 0, 3, 0, &p), CT_OK);
  CHECK (r, "pixels a thread", p.per_thread, 4);

  r = "NHWC batch of 8 to NCHW: batches, words per batch";
  CHECK (r, "result", plan_of (3, 224, 224, 8, 1, 2, 0, 3, 132, &p), CT_OK);
  CHECK (r, "batches", p.batches, 8);
  CHECK (r, "grid y", p.grid[1], 8);
  CHECK (r, "word loads", p.word_loads, 1);
  r = "a batch of 35 3-byte pixels: no words, no quads";
  CHECK (r, "result", plan_of (3, 5, 7, 2, 1, 2, 0, 3, 132, &p), CT_OK);
  CHECK (r, "word loads", p.word_loads, 0);
  CHECK (r, "quad stores", p.quad_stores, 0);

  r = "an operation for a channel the pixels lack touches nothing";
  start (CT_TYPE_FLOAT32, CT_TYPE_FLOAT32, 0);
  op (CT_ARITH_MUL, 2, 5);
  CHECK (r, "result", plan_of (3, 64, 64, 1, 1, 2, 0, 3, 132, &p), CT_OK);
  /* n_ch 3 (dims[0]) is the pixels' channels, so the job is theirs */
  CHECK (r, "pixels kernel", p.pixels, 1);
  CHECK (r, "steps", p.n_steps, 0);

  r = "an operation for the channel just past the pixels' touches nothing";
  start (CT_TYPE_FLOAT32, CT_TYPE_FLOAT32, 0);
  op (CT_ARITH_MUL, 2, 3);
  CHECK (r, "result", plan_of (3, 64, 64, 1, 1, 2, 0, 3, 132, &p), CT_OK);
  CHECK (r, "steps", p.n_steps, 0);

  r = "identity float32: one channel, every element a pixel";
  start (CT_TYPE_FLOAT32, CT_TYPE_FLOAT32, 0);
  op (CT_ARITH_ADD, 1, -1);
  CHECK (r, "result", plan_of (7, 5, 3, 2, 0, 1, 2, 3, 132, &p), CT_OK);
  CHECK (r, "channels", p.channels, 1);
  CHECK (r, "pixels", p.n_pixels, 210);

  r = "channel operations on another dimension: the any kernel";
  start (CT_TYPE_UINT8, CT_TYPE_FLOAT32, 1);
  op (CT_ARITH_ADD, 1, 0);
  CHECK (r, "result", plan_of (3, 1920, 1080, 1, 1, 2, 0, 3, 132, &p), CT_OK);
  CHECK (r, "pixels kernel", p.pixels, 0);
  CHECK (r, "path", p.path, CT_PATH_ARITH);
  CHECK (r, "channel size", p.ch_size, 3);
  CHECK (r, "channels of the operations", p.n_ch, 1920);

  r = "uint8 to int16: no pixels kernel for the pair";
  start (CT_TYPE_UINT8, CT_TYPE_INT16, 0);
  op (CT_ARITH_ADD, -128, -1);
  CHECK (r, "result", plan_of (3, 1920, 1080, 1, 1, 2, 0, 3, 132, &p), CT_OK);
  CHECK (r, "pixels kernel", p.pixels, 0);
  /* 6220800 elements: 24300 blocks */
  CHECK (r, "blocks", p.blocks, 24300);
  CHECK (r, "wide index", p.wide_index, 0);
  CHECK (r, "short program", p.short_program, 1);
  CHECK (r, "d_out[0]", p.d_out[0], 1920);
  CHECK (r, "src_of[0]", p.src_of[0], 3);
  CHECK (r, "d_out[2]", p.d_out[2], 3);
  CHECK (r, "src_of[2]", p.src_of[2], 1);

  r = "a permutation the pixels kernel does not take: at most 65536 blocks, "
      "64-bit indices";
  CHECK (r, "result", plan_of (4, 100000, 100000, 1, 2, 1, 0, 3, 132, &p),
      CT_OK);
  CHECK (r, "pixels kernel", p.pixels, 0);
  CHECK (r, "blocks", p.blocks, 65536);
  CHECK (r, "wide index", p.wide_index, 1);

  r = "17 steps that do not merge: the any kernel, the long form";
  start (CT_TYPE_FLOAT32, CT_TYPE_FLOAT32, 0);
  for (int i = 0; i < 17; i++)
    op (i % 2 ? CT_ARITH_MUL : CT_ARITH_ADD, 1 + i, -1);
  CHECK (r, "result", plan_of (3, 64, 64, 1, 1, 2, 0, 3, 132, &p), CT_OK);
  CHECK (r, "pixels kernel", p.pixels, 0);
  CHECK (r, "short program", p.short_program, 0);
  r = "16 of them: the pixels kernel, the long form";
  arith.n_ops = 16;
  CHECK (r, "result", plan_of (3, 64, 64, 1, 1, 2, 0, 3, 132, &p), CT_OK);
  CHECK (r, "pixels kernel", p.pixels, 1);
  CHECK (r, "steps", p.n_steps, 16);
  CHECK (r, "short program", p.short_program, 0);

  r = "refusals";
  start ((CtType) 99, CT_TYPE_FLOAT32, 0);
  CHECK (r, "an unknown type", plan_of (3, 4, 4, 1, 1, 2, 0, 3, 132, &p),
      CT_ERROR_INVALID_ARGUMENT);
  start (CT_TYPE_UINT8, CT_TYPE_UINT8, 0);
  op (CT_ARITH_DIV, 0, -1);
  CHECK (r, "a division by 0", plan_of (3, 4, 4, 1, 1, 2, 0, 3, 132, &p),
      CT_ERROR_INVALID_ARGUMENT);
  start (CT_TYPE_UINT8, CT_TYPE_UINT8, 0);
  CHECK (r, "a dimension twice", plan_of (3, 4, 4, 1, 1, 1, 0, 3, 132, &p),
      CT_ERROR_INVALID_ARGUMENT);
  CHECK (r, "a size of 0", plan_of (3, 0, 4, 1, 1, 2, 0, 3, 132, &p),
      CT_ERROR_INVALID_ARGUMENT);
  CHECK (r, "no arithmetic", ct_plan_arith ((const void *) kSrc,
          (const void *) kDst, (const unsigned long long[4]) { 3, 4, 4, 1 },
          (const unsigned int[4]) { 1, 2, 0, 3 }, NULL, &p),
      CT_ERROR_INVALID_ARGUMENT);
}

/* the sweep's generator (random-fill.h) and its seed */
static uint64_t rng = 0x853c49e6748fea9bull;

static uint64_t
next (void)
{
  return ct_ref_random (&rng);
}

/* Whether the plan's steps apply to channel @c the operations of arith
 * that are for it (every element's, or that channel's), in their order. */
static int
channel_order_kept (const CtArithPlan * plan, unsigned int c)
{
  unsigned int want[CT_ARITH_MAX_OPS], n_want = 0, n_got = 0;

  for (unsigned int i = 0; i < arith.n_ops; i++)
    if (arith.ops[i].channel < 0 || arith.ops[i].channel == (int) c)
      want[n_want++] = i;
  for (unsigned int s = 0; s < plan->n_steps; s++) {
    if (!(plan->steps[s].mask & (1u << c)))
      continue;
    if (n_got >= n_want || plan->steps[s].op[c] != want[n_got] ||
        plan->steps[s].kind != (unsigned char) arith.ops[want[n_got]].kind)
      return 0;
    n_got++;
  }
  return n_got == n_want;
}

static void
sweep (void)
{
  static const unsigned int perms[8][4] = {
    {0, 1, 2, 3}, {1, 2, 0, 3}, {1, 0, 2, 3}, {2, 0, 1, 3}, {1, 2, 3, 0},
    {0, 2, 1, 3}, {3, 2, 1, 0}, {1, 0, 3, 2}
  };
  static const CtType types[] = { CT_TYPE_UINT8, CT_TYPE_FLOAT32,
    CT_TYPE_INT16, CT_TYPE_FLOAT64
  };
  static const unsigned int sms[] = { 0, 16, 66, 132 };
  int bad = 0, pixels = 0, any = 0;

  for (int it = 0; it < 40000; it++) {
    unsigned long long dims[4], total = 1;
    const unsigned int *perm = perms[next () % 8];
    const unsigned int n_sms = sms[next () % 4];
    CtArithPlan p;
    const char *why = NULL;

    for (int k = 0; k < 4; k++) {
      const int r = (int) (next () % 6);
      dims[k] = r < 2 ? 1 : r < 5 ? 1 + next () % 6 : 1 + next () % 40;
      total *= dims[k];
    }
    start (types[next () % 4], types[next () % 4],
        (unsigned int) (next () % 5));
    for (unsigned int i = 0, n = (unsigned int) (next () % 8); i < n; i++)
      op ((CtArithKind) (next () % 3), (double) (1 + next () % 9),
          (next () % 2) ? -1 : (int) (next () % 5));
    if (plan_of (dims[0], dims[1], dims[2], dims[3], perm[0], perm[1],
            perm[2], perm[3], n_sms, &p) != CT_OK) {
      why = "refused";
    } else if (p.pixels) {
      const unsigned int in_size = ct_type_size (arith.in_type);
      const unsigned int out_size = ct_type_size (arith.out_type);
      const unsigned long long blocks = ((p.n_pixels + 3) / 4 + 255) / 256 *
          p.grid[1];
      const unsigned int want_n = blocks < 2ull * n_sms ? 1 :
          blocks < 8ull * n_sms ? 2 : 4;

      pixels++;
      if (!((arith.in_type == CT_TYPE_UINT8 &&
                  (arith.out_type == CT_TYPE_FLOAT32 ||
                      arith.out_type == CT_TYPE_UINT8)) ||
              (arith.in_type == CT_TYPE_FLOAT32 &&
                  arith.out_type == CT_TYPE_FLOAT32)))
        why = "a pair without the pixels kernel";
      else if (p.channels < 1 || p.channels > 4 ||
          (unsigned long long) p.channels * p.n_pixels * p.batches != total)
        why = "a shape that is not the tensor's";
      else if (p.n_ch != 0 && !(p.ch_size == 1 && p.n_ch == p.channels))
        why = "channel operations on another dimension";
      else if (p.per_thread != want_n || p.grid[1] != p.batches ||
          (unsigned long long) p.grid[0] * 256 * p.per_thread < p.n_pixels ||
          (unsigned long long) (p.grid[0] - 1) * 256 * p.per_thread >=
          p.n_pixels)
        why = "a grid off the rule";
      else if (p.word_loads != ((p.batches == 1 ||
                  p.n_pixels * p.channels * in_size % 4 == 0)) ||
          p.quad_stores != (kDst % (4 * out_size) == 0 &&
              p.n_pixels % 4 == 0))
        why = "loads or stores off the rule";
      else if (p.short_program != (p.n_steps <= 3) || p.n_steps > 16)
        why = "a program form off the rule";
      for (unsigned int c = 0; !why && c < p.channels; c++)
        if (!channel_order_kept (&p, c))
          why = "a channel's operations changed or reordered";
      for (unsigned int st = 0; !why && st < p.n_steps; st++)
        if (p.steps[st].mask == 0 ||
            (p.steps[st].mask & ~((1u << p.channels) - 1)) != 0)
          why = "a step for no channel, or for one the pixels lack";
      /* input [b][p][c] to output [b][c][p] is the permutation */
      for (unsigned long long o = 0; !why && o < total; o++) {
        const unsigned long long b = o / (p.channels * p.n_pixels),
            c = o / p.n_pixels % p.channels, px = o % p.n_pixels;
        if (ct_ref_permuted_source (dims, perm, o) != (b * p.n_pixels + px) * p.channels +
            c)
          why = "an element moved off the permutation";
      }
    } else {
      any++;
      if (p.blocks != ((total + 255) / 256 < 65536 ? (total + 255) / 256 :
              65536) || p.wide_index != (total > 0x7fffffffull) ||
          p.short_program != (arith.n_ops <= 4) || p.total != total)
        why = "a launch off the rule";
      for (unsigned long long o = 0; !why && o < total; o++) {
        unsigned long long rest = o, from = 0;
        for (int i = 0; i < 4; i++) {
          from += rest % p.d_out[i] * p.src_of[i];
          rest /= p.d_out[i];
        }
        if (from != ct_ref_permuted_source (dims, perm, o))
          why = "an element moved off the permutation";
      }
    }
    if (why && bad++ < 10)
      printf ("FAIL sweep: %llux%llux%llux%llu perm %u%u%u%u types %d to %d, "
          "%u ops: %s\n", dims[0], dims[1], dims[2], dims[3], perm[0],
          perm[1], perm[2], perm[3], (int) arith.in_type,
          (int) arith.out_type, arith.n_ops, why);
  }
  CHECK ("sweep", "plans that break a rule", bad, 0);
  CHECK ("sweep", "pixels plans made", pixels > 1000, 1);
  CHECK ("sweep", "any plans made", any > 1000, 1);
  printf ("sweep: %d pixels plans, %d any plans\n", pixels, any);
}

int
main (void)
{
  worked_rows ();
  sweep ();
  return tally_finish ();
}
