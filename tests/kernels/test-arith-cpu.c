/* ct_permute_arith_cpu, the arithmetic's plain loop, against the tests'
 * own model of NNStreamer's arithmetic (arith-reference.h): every type
 * pair, random programs scalar and per channel, every permutation of a
 * small tensor, on random data with the output poisoned first;
 * ct_arith_validate's refusals; and the one pass's division of 16-bit
 * values by 257 without a divide, against C's division for every value.
 * No GPU needed. */
#include "cudatranspose-kernels.h"
#include "arith-reference.h"
#include "random-fill.h"
#include "yuv-rgb-unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int n_passed, n_failed;
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

/* The programs' generator (random-fill.h's, this test's own stream). */
static uint64_t
rng (void)
{
  return ct_ref_random (&rng_state);
}

static void
expect (int ok, const char *what)
{
  if (ok) {
    n_passed++;
  } else {
    n_failed++;
    if (n_failed <= 20)
      printf ("FAIL: %s\n", what);
  }
}

/* One permutation of a tensor of @dims under program @a: the loop's
 * output against the model's, bit for bit. */
static void
check_program (const CtArith * a, const unsigned long long dims[4],
    const unsigned int perm[4], const char *label)
{
  const CtType in = a->in_type, out = a->out_type;
  size_t n = (size_t) (dims[0] * dims[1] * dims[2] * dims[3]);
  size_t ies = ct_type_size (in), oes = ct_type_size (out);
  unsigned char *src = malloc (n * ies), *got = malloc (n * oes),
      *want = malloc (n * oes);
  CtResult res;
  char what[256];
  size_t bad;

  ref_fill (src, in, n, rng);
  memset (got, 0xa5, n * oes);
  memset (want, 0x5a, n * oes);
  ref_permute_arith (src, want, dims, perm, a);
  res = ct_permute_arith_cpu (src, got, dims, perm, a);
  bad = res == CT_OK ? ref_compare (got, want, out, n, 0) : 0;
  snprintf (what, sizeof (what), "%s -> %s %llux%llux%llux%llu perm "
      "%u:%u:%u:%u %s (%u ops): %s, element %zu of %zu",
      ct_type_name (in), ct_type_name (out), dims[0], dims[1], dims[2],
      dims[3], perm[0], perm[1], perm[2], perm[3], label, a->n_ops,
      ct_result_string (res), bad, n);
  expect (res == CT_OK && bad == n, what);
  free (src);
  free (got);
  free (want);
}

/* check_program under a random program from @in to @out (@per_channel:
 * along a random dimension). */
static void
check_case (CtType in, CtType out, const unsigned long long dims[4],
    const unsigned int perm[4], int per_channel)
{
  unsigned int cd = per_channel ? (unsigned int) (rng () % 4) : 0;
  CtArith a;

  ref_random_arith (&a, in, out, cd, per_channel ? (unsigned int) dims[cd] : 0,
      rng);
  check_program (&a, dims, perm, per_channel ? "per channel" : "scalar");
}

/* Operations for channels the tensor does not have (3, 5 and 40 of 3,
 * which the C API takes; the element refuses them) touch no element, on the
 * pixels loop and the element loop alike, and the operations around them
 * still run. */
static void
check_absent_channels (void)
{
  static const unsigned long long dims[4] = { 3, 37, 5, 2 };
  static const unsigned int chw[4] = { 1, 2, 0, 3 };
  static const unsigned int nhcw[4] = { 1, 0, 2, 3 };
  static const struct
  {
    CtArithKind kind;
    int channel;
    double value;
  } ops[] = {
    {CT_ARITH_ADD, 0, -123.68}, {CT_ARITH_ADD, 5, 7.0},
    {CT_ARITH_ADD, 1, -116.78}, {CT_ARITH_MUL, 40, 3.0},
    {CT_ARITH_ADD, 2, -103.94}, {CT_ARITH_DIV, -1, 58.4},
    {CT_ARITH_MUL, 3, 0.5},
  };
  static const CtType outs[] = { CT_TYPE_FLOAT32, CT_TYPE_INT16 };
  CtArith a;
  size_t i, o;
  int k;

  for (o = 0; o < sizeof (outs) / sizeof (outs[0]); o++) {
    memset (&a, 0, sizeof (a));
    a.in_type = CT_TYPE_UINT8;
    a.out_type = outs[o];
    a.channel_dim = 0;
    a.n_ops = sizeof (ops) / sizeof (ops[0]);
    for (i = 0; i < a.n_ops; i++) {
      a.ops[i].kind = ops[i].kind;
      a.ops[i].channel = ops[i].channel;
      a.ops[i].is_float = 1;
      a.ops[i].float_value = ops[i].value;
    }
    expect (ct_arith_validate (&a) == CT_OK, "channels past the tensor's "
        "are valid in the C API");
    check_program (&a, dims, chw, "absent channels");
    check_program (&a, dims, nhcw, "absent channels");
  }
  /* 16 steps, the last for channel 0, then one for absent channel 9 next
   * to it (it would be merged into the last step's operands) */
  memset (&a, 0, sizeof (a));
  a.in_type = CT_TYPE_UINT8;
  a.out_type = CT_TYPE_FLOAT32;
  for (k = 0; k < 17; k++) {
    CtArithOp *op = &a.ops[a.n_ops++];
    op->kind = k < 15 ? (k % 2 ? CT_ARITH_MUL : CT_ARITH_ADD) : CT_ARITH_ADD;
    op->channel = k < 15 ? -1 : k == 15 ? 0 : 9;
    op->is_float = 1;
    op->float_value = k % 3 == 0 ? 0.5 : -3.25;
  }
  check_program (&a, dims, chw, "absent channel after 16 steps");
}

static void
check_refusals (void)
{
  CtArith a;
  unsigned long long dims[4] = { 2, 2, 1, 1 };
  unsigned int perm[4] = { 0, 1, 2, 3 };
  unsigned char buf[64];

  memset (&a, 0, sizeof (a));
  a.in_type = CT_TYPE_UINT8;
  a.out_type = CT_TYPE_FLOAT32;
  expect (ct_arith_validate (&a) == CT_OK, "a typecast alone is valid");
  a.n_ops = 1;
  a.ops[0].kind = CT_ARITH_DIV;
  a.ops[0].channel = -1;
  a.ops[0].int_value = 0;
  expect (ct_arith_validate (&a) == CT_ERROR_INVALID_ARGUMENT, "div:0");
  /* 0.5 is 0 as an integer; 256 is 0 as a uint8 */
  a.out_type = CT_TYPE_INT32;
  a.ops[0].is_float = 1;
  a.ops[0].float_value = 0.5;
  expect (ct_arith_validate (&a) == CT_ERROR_INVALID_ARGUMENT,
      "div:0.5 into int32");
  a.out_type = CT_TYPE_UINT8;
  a.ops[0].is_float = 0;
  a.ops[0].int_value = 256;
  expect (ct_arith_validate (&a) == CT_ERROR_INVALID_ARGUMENT,
      "div:256 into uint8");
  a.ops[0].int_value = 255;
  expect (ct_arith_validate (&a) == CT_OK, "div:255 into uint8");
  a.out_type = (CtType) CT_TYPE_COUNT;
  expect (ct_arith_validate (&a) == CT_ERROR_INVALID_ARGUMENT,
      "an unknown type");
  a.out_type = CT_TYPE_UINT8;
  a.n_ops = CT_ARITH_MAX_OPS + 1;
  expect (ct_arith_validate (&a) == CT_ERROR_INVALID_ARGUMENT,
      "too many operations");
  a.n_ops = 1;
  a.ops[0].channel = -2;
  expect (ct_arith_validate (&a) == CT_ERROR_INVALID_ARGUMENT,
      "a channel below -1");
  a.ops[0].channel = 0;
  memset (buf, 0xa5, sizeof (buf));
  perm[0] = 0;
  perm[1] = 0;
  expect (ct_permute_arith_cpu (buf, buf + 32, dims, perm, &a) ==
      CT_ERROR_INVALID_ARGUMENT, "a permutation that repeats a dimension");
  expect (buf[32] == 0xa5, "a refused call writes nothing");
}

static void
check_types (void)
{
  int t;
  for (t = 0; t < CT_TYPE_COUNT; t++) {
    char what[64];
    snprintf (what, sizeof (what), "type %d named %s, %u bytes", t,
        ct_type_name ((CtType) t), ct_type_size ((CtType) t));
    expect (ct_type_from_name (ct_type_name ((CtType) t)) == t &&
        ct_type_size ((CtType) t) == (unsigned int) ref_bits_of ((CtType) t)
        / 8, what);
  }
  expect (ct_type_from_name ("FLOAT32") == CT_TYPE_FLOAT32,
      "names in any case");
  expect (ct_type_from_name ("float16") == -1, "float16 has no arithmetic");
  expect (ct_type_from_name ("float3") == -1, "a prefix is no name");
}

/* ct_yuv_div257f and ct_yuv_div257d (what the GPU's one pass scales 16-bit
 * YUV input by on its way to a float tensor) against C's own division,
 * bit for bit, for every 16-bit value. */
static void
check_div257 (void)
{
  int v, wrong_f = 0, wrong_d = 0;
  char what[96];

  for (v = 0; v <= 65535; v++) {
    const float f = ct_yuv_div257f (v), ref_f = (float) v / 257.0f;
    const double d = ct_yuv_div257d (v), ref_d = (double) v / 257.0;

    wrong_f += memcmp (&f, &ref_f, sizeof (f)) != 0;
    wrong_d += memcmp (&d, &ref_d, sizeof (d)) != 0;
  }
  snprintf (what, sizeof (what), "v / 257 without a divide: %d float and "
      "%d double of 65536 differ", wrong_f, wrong_d);
  expect (wrong_f == 0 && wrong_d == 0, what);
}

int
main (void)
{
  static const unsigned long long shapes[][4] = {
    {3, 5, 7, 2}, {4, 9, 1, 3}, {1, 13, 1, 1}, {2, 1, 6, 5},
  };
  static const unsigned long long pixel_shapes[][4] = {
    {3, 67, 35, 1}, {4, 300, 1, 3}, {1, 1000, 1, 1}, {2, 257, 2, 2},
    {3, 513, 1, 2},
  };
  static const unsigned int chw[4] = { 1, 2, 0, 3 };
  static const unsigned int keep[4] = { 0, 1, 2, 3 };
  unsigned int perm[4];
  int in, out;
  size_t s;

  check_types ();
  check_div257 ();
  check_refusals ();
  check_absent_channels ();
  for (in = 0; in < CT_TYPE_COUNT; in++)
    for (out = 0; out < CT_TYPE_COUNT; out++)
      for (s = 0; s < sizeof (shapes) / sizeof (shapes[0]); s++) {
        /* all 24 permutations of the first shape, a few of the others */
        unsigned int p;
        for (p = 0; p < 24; p++) {
          unsigned int rest[4] = { 0, 1, 2, 3 }, n = 4, q = p, i, pc;
          if (s > 0 && p % 6 != 0)
            continue;
          for (i = 0; i < 4; i++) {
            unsigned int f = 1, j;
            for (j = 1; j < n; j++)
              f *= j;
            perm[i] = rest[q / f];
            for (j = q / f; j + 1 < n; j++)
              rest[j] = rest[j + 1];
            q %= f;
            n--;
          }
          for (pc = 0; pc < 2; pc++)
            check_case ((CtType) in, (CtType) out, shapes[s], perm, pc);
        }
      }
  /* pixels (the loop's fast path for the pairs the GPU's pixels kernel
   * takes): 1 to 4 channels to planes (1:2:0:3) or kept, more pixels than
   * one of its chunks, batches */
  for (in = 0; in < CT_TYPE_COUNT; in++)
    for (out = 0; out < CT_TYPE_COUNT; out++)
      for (s = 0; s < sizeof (pixel_shapes) / sizeof (pixel_shapes[0]); s++) {
        unsigned int pc;
        for (pc = 0; pc < 2; pc++) {
          check_case ((CtType) in, (CtType) out, pixel_shapes[s], chw, pc);
          check_case ((CtType) in, (CtType) out, pixel_shapes[s], keep, pc);
        }
      }
  printf ("arith-cpu: %d passed, %d failed\n", n_passed, n_failed);
  return n_failed ? 1 : 0;
}
