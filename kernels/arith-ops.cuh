/* cudatranspose: one element through NNStreamer's tensor_transform
 * arithmetic, the same code on the host and on the GPU. Internal to
 * kernels/ (arith.cu).
 *
 * NNStreamer (tensor_data.c, gsttensor_transform.c, its plain C path) casts
 * with C's conversions, a float to an unsigned type through the signed type
 * of its size, and runs each operation in the output type with C's
 * arithmetic: integers promoted and truncated back (wrapping), division
 * towards zero, floats rounded at every step. C leaves a float out of an
 * integer's range undefined; NNStreamer's builds give what x86-64's
 * truncating conversion gives (the most negative int32, or int64 for
 * 8-byte types, then the bits that fit), so that is what is written here,
 * without relying on either compiler for it. Where the GPU's own
 * arithmetic could differ (contraction into a fused multiply-add,
 * saturating conversions), the explicitly rounded intrinsics are used. */
#pragma once

#include "cudatranspose-kernels.h"

#include <stdint.h>
#include <string.h>

#include <type_traits>

namespace ct {

template <CtType T> struct TypeOf;
template <> struct TypeOf<CT_TYPE_INT8> { using T = int8_t; };
template <> struct TypeOf<CT_TYPE_UINT8> { using T = uint8_t; };
template <> struct TypeOf<CT_TYPE_INT16> { using T = int16_t; };
template <> struct TypeOf<CT_TYPE_UINT16> { using T = uint16_t; };
template <> struct TypeOf<CT_TYPE_INT32> { using T = int32_t; };
template <> struct TypeOf<CT_TYPE_UINT32> { using T = uint32_t; };
template <> struct TypeOf<CT_TYPE_INT64> { using T = int64_t; };
template <> struct TypeOf<CT_TYPE_UINT64> { using T = uint64_t; };
template <> struct TypeOf<CT_TYPE_FLOAT32> { using T = float; };
template <> struct TypeOf<CT_TYPE_FLOAT64> { using T = double; };

/* in CtType order */
constexpr const char *kTypeNames[CT_TYPE_COUNT] = { "int8", "uint8",
  "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32",
  "float64"
};
constexpr unsigned int kTypeSizes[CT_TYPE_COUNT] = { 1, 1, 2, 2, 4, 4, 8,
  8, 4, 8
};

/* The operations as the kernels take them: each operand already cast to
 * the output type (its bytes first in the word). */
struct Ops
{
  unsigned int n;
  unsigned char kind[CT_ARITH_MAX_OPS];
  int channel[CT_ARITH_MAX_OPS];
  unsigned long long operand[CT_ARITH_MAX_OPS];
  /* an input element's channel: (index / ch_size) % n_ch; n_ch 0 when no
   * operation is for one channel */
  unsigned long long ch_size;
  unsigned long long n_ch;

  __host__ __device__ long long
  channel_of (unsigned long long lin) const
  {
    return n_ch ? (long long) (lin / ch_size % n_ch) : -1;
  }
};

/* x86-64's truncating conversions (cvttsd2si): a value out of range, or
 * NaN, gives the most negative integer. Floats convert to double exactly,
 * so one function serves both. */
__host__ __device__ inline int32_t
x86_to_i32 (double v)
{
  if (!(v > -2147483649.0 && v < 2147483648.0))
    return INT32_MIN;
  return (int32_t) v;
}

__host__ __device__ inline int64_t
x86_to_i64 (double v)
{
  if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0))
    return INT64_MIN;
  return (int64_t) v;
}

/* @v as type To, as NNStreamer's typecast gives it. */
template <typename To, typename From>
__host__ __device__ inline To
nns_cast (From v)
{
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_floating_point_v<To>) {
    return (To) v;              /* rounded to nearest, both sides */
  } else if constexpr (std::is_floating_point_v<From>) {
    using U = std::make_unsigned_t<To>;
    if constexpr (sizeof (To) <= 4)
      return (To) (U) (uint32_t) x86_to_i32 ((double) v);
    else
      return (To) (U) (uint64_t) x86_to_i64 ((double) v);
  } else {
    using U = std::make_unsigned_t<To>;
    return (To) (U) v;          /* the low bits: wraps */
  }
}

/* One operation in type T, as C does it on T. */
template <typename T>
__host__ __device__ inline T
nns_op (T a, unsigned int kind, T b)
{
  if constexpr (std::is_same_v<T, float>) {
#ifdef __CUDA_ARCH__
    return kind == CT_ARITH_ADD ? __fadd_rn (a, b) :
        kind == CT_ARITH_MUL ? __fmul_rn (a, b) : __fdiv_rn (a, b);
#else
    return kind == CT_ARITH_ADD ? a + b : kind == CT_ARITH_MUL ? a * b : a / b;
#endif
  } else if constexpr (std::is_same_v<T, double>) {
#ifdef __CUDA_ARCH__
    return kind == CT_ARITH_ADD ? __dadd_rn (a, b) :
        kind == CT_ARITH_MUL ? __dmul_rn (a, b) : __ddiv_rn (a, b);
#else
    return kind == CT_ARITH_ADD ? a + b : kind == CT_ARITH_MUL ? a * b : a / b;
#endif
  } else {
    /* promoted, computed, truncated back: wrapping arithmetic */
    using U = std::conditional_t<sizeof (T) <= 4, uint32_t, uint64_t>;
    if (kind == CT_ARITH_ADD)
      return (T) (std::make_unsigned_t<T>) ((U) a + (U) b);
    if (kind == CT_ARITH_MUL)
      return (T) (std::make_unsigned_t<T>) ((U) a * (U) b);
    /* the most negative value over -1: wraps to itself (x86 would trap
     * at 32 and 64 bits); b is never 0 (ct_arith_validate) */
    if constexpr (std::is_signed_v<T>) {
      if (b == (T) -1)
        return (T) (std::make_unsigned_t<T>) ((U) 0 - (U) a);
    }
    return (T) (a / b);
  }
}

/* The value of type T whose bytes come first in @bits. */
template <typename T>
__host__ __device__ inline T
from_bits (unsigned long long bits)
{
  if constexpr (std::is_same_v<T, float>) {
#ifdef __CUDA_ARCH__
    return __int_as_float ((int) (unsigned int) bits);
#else
    float f;
    uint32_t w = (uint32_t) bits;
    memcpy (&f, &w, sizeof (f));
    return f;
#endif
  } else if constexpr (std::is_same_v<T, double>) {
#ifdef __CUDA_ARCH__
    return __longlong_as_double ((long long) bits);
#else
    double d;
    memcpy (&d, &bits, sizeof (d));
    return d;
#endif
  } else {
    return (T) (std::make_unsigned_t<T>) bits;
  }
}

/* Value @v, already of the output type, through every operation that
 * applies to channel @ch. */
template <typename Out>
__host__ __device__ inline Out
arith_apply (Out v, long long ch, const Ops & ops)
{
  for (unsigned int i = 0; i < ops.n; i++) {
    if (ops.channel[i] >= 0 && ops.channel[i] != ch)
      continue;
    v = nns_op<Out> (v, ops.kind[i], from_bits<Out> (ops.operand[i]));
  }
  return v;
}

/* An input element through the typecast and every operation that applies
 * to channel @ch. */
template <typename In, typename Out>
__host__ __device__ inline Out
arith_element (In x, long long ch, const Ops & ops)
{
  return arith_apply<Out> (nns_cast<Out, In> (x), ch, ops);
}

/* An operand as written (int64 or double) cast to T, its bytes in a word;
 * @zero says whether it is 0 once cast. */
template <typename T>
inline unsigned long long
operand_bits_of (const CtArithOp & op, bool *zero)
{
  T v = op.is_float ? nns_cast<T, double> (op.float_value) :
      nns_cast<T, int64_t> ((int64_t) op.int_value);
  unsigned long long bits = 0;

  *zero = v == (T) 0;
  memcpy (&bits, &v, sizeof (T));
  return bits;
}

inline unsigned long long
operand_bits (CtType type, const CtArithOp & op, bool *zero)
{
  switch (type) {
    case CT_TYPE_INT8: return operand_bits_of<int8_t> (op, zero);
    case CT_TYPE_UINT8: return operand_bits_of<uint8_t> (op, zero);
    case CT_TYPE_INT16: return operand_bits_of<int16_t> (op, zero);
    case CT_TYPE_UINT16: return operand_bits_of<uint16_t> (op, zero);
    case CT_TYPE_INT32: return operand_bits_of<int32_t> (op, zero);
    case CT_TYPE_UINT32: return operand_bits_of<uint32_t> (op, zero);
    case CT_TYPE_INT64: return operand_bits_of<int64_t> (op, zero);
    case CT_TYPE_UINT64: return operand_bits_of<uint64_t> (op, zero);
    case CT_TYPE_FLOAT32: return operand_bits_of<float> (op, zero);
    case CT_TYPE_FLOAT64: return operand_bits_of<double> (op, zero);
    default: *zero = true; return 0;
  }
}

}                               /* namespace ct */
