/* The tests' own model of NNStreamer's tensor_transform mode=arithmetic,
 * written apart from the kernels' (kernels/arith-ops.cuh), from NNStreamer's
 * C path (tensor_data.c, gsttensor_transform.c):
 *   - the typecast is C's conversion; a float goes to an unsigned type
 *     through the signed type of its size; a float out of range takes
 *     x86-64's truncating conversion: the most negative int32 (int64 for
 *     8-byte types), then the bits that fit;
 *   - each operation runs in the output type, its operand (an int64, or a
 *     double when written with '.', 'e' or 'E') cast to that type first:
 *     integers wrap, divide towards zero (the most negative over -1 wraps,
 *     where x86 traps), floats round after every step.
 * A value is held as the output type's bits in 64, sign-extended for
 * signed types, or as a float / double. */
#pragma once

#include "cudatranspose-kernels.h"
#include "permute-reference.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

typedef struct
{
  CtType type;
  uint64_t bits;                /* integers: low bits, sign-extended */
  float f;
  double d;
} RefValue;

static inline int
ref_is_float (CtType t)
{
  return t == CT_TYPE_FLOAT32 || t == CT_TYPE_FLOAT64;
}

static inline int
ref_is_signed (CtType t)
{
  return t == CT_TYPE_INT8 || t == CT_TYPE_INT16 || t == CT_TYPE_INT32 ||
      t == CT_TYPE_INT64;
}

static inline unsigned int
ref_bits_of (CtType t)
{
  switch (t) {
    case CT_TYPE_INT8: case CT_TYPE_UINT8: return 8;
    case CT_TYPE_INT16: case CT_TYPE_UINT16: return 16;
    case CT_TYPE_INT32: case CT_TYPE_UINT32: case CT_TYPE_FLOAT32: return 32;
    default: return 64;
  }
}

/* @bits cut to integer type @t's width, sign-extended if signed. */
static inline uint64_t
ref_fit (CtType t, uint64_t bits)
{
  unsigned int n = ref_bits_of (t);
  if (n == 64)
    return bits;
  bits &= (UINT64_C (1) << n) - 1;
  if (ref_is_signed (t) && (bits >> (n - 1)) & 1)
    bits |= ~((UINT64_C (1) << n) - 1);
  return bits;
}

/* A double to integer type @t, as NNStreamer's builds on x86-64 give it. */
static inline uint64_t
ref_float_to_int (CtType t, double x)
{
  unsigned int w = ref_bits_of (t) <= 32 ? 32 : 64;
  double lim = ldexp (1.0, (int) w - 1);        /* 2^31 or 2^63 */
  double tx = trunc (x);
  int64_t v;

  if (isnan (x) || tx < -lim || tx >= lim)
    v = w == 32 ? (int64_t) INT32_MIN : INT64_MIN;
  else
    v = (int64_t) tx;
  return ref_fit (t, (uint64_t) v);
}

/* Value @v cast to @t. */
static inline RefValue
ref_cast (RefValue v, CtType t)
{
  RefValue r;
  memset (&r, 0, sizeof (r));
  r.type = t;
  if (v.type == t)
    return v;
  if (t == CT_TYPE_FLOAT32 || t == CT_TYPE_FLOAT64) {
    double dv;
    float fv;
    if (v.type == CT_TYPE_FLOAT32) {
      fv = v.f;
      dv = v.f;
    } else if (v.type == CT_TYPE_FLOAT64) {
      fv = (float) v.d;
      dv = v.d;
    } else if (ref_is_signed (v.type)) {
      fv = (float) (int64_t) v.bits;
      dv = (double) (int64_t) v.bits;
    } else {
      fv = (float) v.bits;
      dv = (double) v.bits;
    }
    if (t == CT_TYPE_FLOAT32)
      r.f = fv;
    else
      r.d = dv;
    return r;
  }
  if (v.type == CT_TYPE_FLOAT32)
    r.bits = ref_float_to_int (t, v.f);
  else if (v.type == CT_TYPE_FLOAT64)
    r.bits = ref_float_to_int (t, v.d);
  else
    r.bits = ref_fit (t, v.bits);
  return r;
}

static inline RefValue
ref_load (const void *p, CtType t)
{
  RefValue v;
  memset (&v, 0, sizeof (v));
  v.type = t;
  switch (t) {
    case CT_TYPE_INT8: v.bits = (uint64_t) (int64_t) *(const int8_t *) p; break;
    case CT_TYPE_UINT8: v.bits = *(const uint8_t *) p; break;
    case CT_TYPE_INT16: v.bits = (uint64_t) (int64_t) *(const int16_t *) p; break;
    case CT_TYPE_UINT16: v.bits = *(const uint16_t *) p; break;
    case CT_TYPE_INT32: v.bits = (uint64_t) (int64_t) *(const int32_t *) p; break;
    case CT_TYPE_UINT32: v.bits = *(const uint32_t *) p; break;
    case CT_TYPE_INT64: case CT_TYPE_UINT64: memcpy (&v.bits, p, 8); break;
    case CT_TYPE_FLOAT32: memcpy (&v.f, p, 4); break;
    default: memcpy (&v.d, p, 8); break;
  }
  return v;
}

/* Stores @v (of its type) at @p: its bytes, little-endian. */
static inline void
ref_store (void *p, RefValue v)
{
  if (v.type == CT_TYPE_FLOAT32)
    memcpy (p, &v.f, 4);
  else if (v.type == CT_TYPE_FLOAT64)
    memcpy (p, &v.d, 8);
  else
    memcpy (p, &v.bits, ref_bits_of (v.type) / 8);
}

/* One operation, both values of the same type. */
static inline RefValue
ref_op (RefValue a, CtArithKind kind, RefValue b)
{
  RefValue r = a;
  if (a.type == CT_TYPE_FLOAT32) {
    volatile float x = a.f, y = b.f, z;
    z = kind == CT_ARITH_ADD ? x + y : kind == CT_ARITH_MUL ? x * y : x / y;
    r.f = z;
  } else if (a.type == CT_TYPE_FLOAT64) {
    volatile double x = a.d, y = b.d, z;
    z = kind == CT_ARITH_ADD ? x + y : kind == CT_ARITH_MUL ? x * y : x / y;
    r.d = z;
  } else if (kind == CT_ARITH_ADD) {
    r.bits = ref_fit (a.type, a.bits + b.bits);
  } else if (kind == CT_ARITH_MUL) {
    r.bits = ref_fit (a.type, a.bits * b.bits);
  } else if (ref_is_signed (a.type)) {
    int64_t x = (int64_t) a.bits, y = (int64_t) b.bits;
    r.bits = ref_fit (a.type, y == -1 ? (uint64_t) 0 - a.bits :
        (uint64_t) (x / y));
  } else {
    r.bits = ref_fit (a.type, a.bits / b.bits);
  }
  return r;
}

/* The operand of @op in type @t. */
static inline RefValue
ref_operand (const CtArithOp * op, CtType t)
{
  RefValue v;
  memset (&v, 0, sizeof (v));
  if (op->is_float) {
    v.type = CT_TYPE_FLOAT64;
    v.d = op->float_value;
  } else {
    v.type = CT_TYPE_INT64;
    v.bits = (uint64_t) op->int_value;
  }
  return ref_cast (v, t);
}

/* Input element @in (of a->in_type), of channel @ch, through @a: the
 * output element written at @out. */
static inline void
ref_arith (const CtArith * a, const void *in, long long ch, void *out)
{
  RefValue v = ref_cast (ref_load (in, a->in_type), a->out_type);
  unsigned int i;

  for (i = 0; i < a->n_ops; i++)
    if (a->ops[i].channel < 0 || a->ops[i].channel == ch)
      v = ref_op (v, a->ops[i].kind, ref_operand (&a->ops[i], a->out_type));
  ref_store (out, v);
}

/* Whether the GPU's pixels kernel is built for @in to @out (kernels/
 * arith.cu): uint8 to float32 or uint8, float32 to float32. */
static inline int
ref_pixels_pair (CtType in, CtType out)
{
  return (in == CT_TYPE_UINT8 && (out == CT_TYPE_FLOAT32 ||
          out == CT_TYPE_UINT8)) || (in == CT_TYPE_FLOAT32 &&
      out == CT_TYPE_FLOAT32);
}

/* Whether an operation of @a is for one channel. */
static inline int
ref_has_channel_ops (const CtArith * a)
{
  unsigned int i;

  for (i = 0; i < a->n_ops; i++)
    if (a->ops[i].channel >= 0)
      return 1;
  return 0;
}

/* Whether @a divides by an operand that is 0 in its output type. */
static inline int
ref_divides_by_zero (const CtArith * a)
{
  unsigned int i;
  for (i = 0; i < a->n_ops; i++) {
    RefValue b = ref_operand (&a->ops[i], a->out_type);
    int zero = b.type == CT_TYPE_FLOAT32 ? b.f == 0.0f :
        b.type == CT_TYPE_FLOAT64 ? b.d == 0.0 : b.bits == 0;
    if (a->ops[i].kind == CT_ARITH_DIV && zero)
      return 1;
  }
  return 0;
}

/* ---- cases: random data and random operations, for the tests ---- */

/* Fills @n elements of type @t at @p: every other one an ordinary value
 * (small integers, or floats within +-300 with fractions), the rest
 * random bits (floats: any bits, NaN and infinities included). */
static inline void
ref_fill (void *p, CtType t, size_t n, uint64_t (*rng) (void))
{
  size_t i, es = ref_bits_of (t) / 8;
  for (i = 0; i < n; i++) {
    uint64_t r = rng ();
    unsigned char *e = (unsigned char *) p + i * es;
    if (i % 2 == 0) {
      memcpy (e, &r, es);
    } else if (t == CT_TYPE_FLOAT32) {
      float f = (float) ((double) (int) (r % 60001) / 100.0 - 300.0);
      memcpy (e, &f, 4);
    } else if (t == CT_TYPE_FLOAT64) {
      double d = (double) (int) (r % 60001) / 100.0 - 300.0;
      memcpy (e, &d, 8);
    } else {
      uint64_t v = r % 600 - (ref_is_signed (t) ? 300 : 0);
      memcpy (e, &v, es);
    }
  }
}

/* A random program of 1 to 4 operations from @in to @out: operands as
 * NNStreamer reads them (int64, or double), some for one channel of
 * @channels along @channel_dim (@channels 0: none), none dividing by 0. */
static inline void
ref_random_arith (CtArith * a, CtType in, CtType out, unsigned int channel_dim,
    unsigned int channels, uint64_t (*rng) (void))
{
  static const double floats[] = { -127.5, 127.5, 58.4, -123.68, 0.5,
    1e3, 2.5e-3, -1e10, 0.00392156862745098
  };
  unsigned int i;

  do {
    memset (a, 0, sizeof (*a));
    a->in_type = in;
    a->out_type = out;
    a->channel_dim = channel_dim;
    a->n_ops = 1 + (unsigned int) (rng () % 4);
    for (i = 0; i < a->n_ops; i++) {
      CtArithOp *op = &a->ops[i];
      uint64_t r = rng ();
      op->kind = (CtArithKind) (r % 3);
      op->channel = channels && (r >> 8) % 2 ?
          (int) ((r >> 16) % channels) : -1;
      op->is_float = (r >> 24) % 2;
      if (op->is_float)
        op->float_value = floats[(r >> 32) % (sizeof (floats) /
                sizeof (floats[0]))];
      else
        op->int_value = (long long) ((r >> 32) % 601) - 300;
    }
  } while (ref_divides_by_zero (a));
}

/* Whether the element of type @t at @p is a float NaN. */
static inline int
ref_is_nan (const unsigned char *p, CtType t)
{
  float f;
  double d;

  if (t == CT_TYPE_FLOAT32) {
    memcpy (&f, p, 4);
    return isnan (f);
  }
  if (t == CT_TYPE_FLOAT64) {
    memcpy (&d, p, 8);
    return isnan (d);
  }
  return 0;
}

/* Whether @n elements of type @t at @a and @b are the same: bit for bit,
 * or (@nan_any) floats both NaN whatever their payload. Returns the first
 * index that differs, or @n. */
static inline size_t
ref_compare (const void *a, const void *b, CtType t, size_t n, int nan_any)
{
  size_t i, es = ref_bits_of (t) / 8;
  for (i = 0; i < n; i++) {
    const unsigned char *x = (const unsigned char *) a + i * es;
    const unsigned char *y = (const unsigned char *) b + i * es;
    if (memcmp (x, y, es) == 0)
      continue;
    if (nan_any && ref_is_nan (x, t) && ref_is_nan (y, t))
      continue;
    return i;
  }
  return n;
}

/* The reference over a permutation (ct_permute's notation): each input
 * element, in order, through @a, to where the permutation puts it
 * (ct_ref_permuted_layout). */
static inline void
ref_permute_arith (const void *src, void *dst,
    const unsigned long long dims[4], const unsigned int perm[4],
    const CtArith * a)
{
  size_t ies = ref_bits_of (a->in_type) / 8, oes = ref_bits_of (a->out_type) / 8;
  uint64_t d[4], odims[4], step[4], x[4] = { 0, 0, 0, 0 }, total = 1, i;
  int k;

  for (k = 0; k < 4; k++) {
    d[k] = dims[k];
    total *= dims[k];
  }
  ct_ref_permuted_layout (d, perm, odims, step);
  for (i = 0; i < total; i++) {
    uint64_t o = x[0] * step[0] + x[1] * step[1] + x[2] * step[2] +
        x[3] * step[3];
    ref_arith (a, (const unsigned char *) src + i * ies,
        a->channel_dim < 4 ? (long long) x[a->channel_dim] : 0,
        (unsigned char *) dst + o * oes);
    for (k = 0; k < 4 && ++x[k] == d[k]; k++)
      x[k] = 0;
  }
}
