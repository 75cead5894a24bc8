/* cudatranspose: the YUV one pass's planner (kernels/plan-yuv.c, through
 * ct_plan_yuv in kernels/plan-yuv.h) checked without a GPU: each format,
 * siting, range and matrix into every output type, under each dimension
 * of per-channel operations, with the chroma plane aligned and not, its
 * kernel against the rules written out here:
 *   - 16-bit input (P010, P016) into a float type keeps its 16 bits: the
 *     whole values' kernel, float32's built for those formats, float64's
 *     for any;
 *   - else per-channel operations along the turned frame's x or y (their
 *     dimension 1 or 2) take the kernel of values one by one, for any
 *     format;
 *   - else 8-bit values go through a table: into uint8 and float32 by the
 *     kernel of their kind (16-bit input into uint8: deep; I420, YV12:
 *     blocks; NV12, NV21 whose chroma pairs start 2-byte aligned on a row
 *     of an even stride: pairs, or into float32 sited as decoders site
 *     them (the chroma on the even columns, between the rows) the sited
 *     kernel; the others any), into the other types by the kernel for
 *     any;
 *   - a plan whose 8-bit sums could leave 16 bits (none ct_yuv_plan
 *     makes: a hand-made one) takes the table kernel for any.
 * Every plan ct_yuv_plan makes fits (ct_plan_yuv_sums_fit), checked too. */
#include "plan-yuv.h"
#include "plan-tally.h"

#include <stdio.h>
#include <string.h>

#define N_CASES(a) (sizeof (a) / sizeof ((a)[0]))

static const char *const format_names[] = {
  "I420", "YV12", "NV12", "NV21", "P010", "P016",
};

/* Backing for the frames' planes: never read, only their addresses. */
static _Alignas (64) unsigned char backing[4096];

/* The kernel the rules above give. */
static CtYuvKernel
expected (CtYuvFormat format, unsigned int flags, int misaligned,
    CtType out, int ch_dim)
{
  const int deep = format == CT_YUV_P010 || format == CT_YUV_P016;
  const int blocks = format == CT_YUV_I420 || format == CT_YUV_YV12;
  const int is_float = out == CT_TYPE_FLOAT32 || out == CT_TYPE_FLOAT64;
  CtYuvKernel k = { CT_YUV_VALUES_TABLE, CT_YUV_KIND_ANY };

  if (deep && is_float) {
    k.values = CT_YUV_VALUES_WHOLE;
    if (out == CT_TYPE_FLOAT32)
      k.kind = CT_YUV_KIND_DEEP;
    return k;
  }
  if (ch_dim == 1 || ch_dim == 2) {
    k.values = CT_YUV_VALUES_EACH;
    return k;
  }
  if (out != CT_TYPE_UINT8 && out != CT_TYPE_FLOAT32)
    return k;
  if (deep)
    k.kind = CT_YUV_KIND_DEEP;
  else if (blocks)
    k.kind = CT_YUV_KIND_BLOCKS;
  else if (misaligned)
    k.kind = CT_YUV_KIND_ANY;
  else if (out == CT_TYPE_FLOAT32 && (flags & CT_YUV_CHROMA_H_COSITED) &&
      !(flags & CT_YUV_CHROMA_V_COSITED))
    k.kind = CT_YUV_KIND_SITED;
  else
    k.kind = CT_YUV_KIND_PAIRS;
  return k;
}

/* A 6x4 frame of @format in backing; @misaligned 1: NV12's and NV21's
 * chroma plane one byte off an even address, 2: its rows an odd stride
 * apart (the other formats' planes stay as they are). */
static CtYuvFrame
frame (CtYuvFormat format, CtYuvMatrix matrix, unsigned int flags,
    int misaligned)
{
  const int pairs = format == CT_YUV_NV12 || format == CT_YUV_NV21;
  CtYuvFrame f;

  memset (&f, 0, sizeof (f));
  f.format = format;
  f.matrix = matrix;
  f.flags = flags;
  f.width = 6;
  f.height = 4;
  f.planes[0] = backing;
  f.strides[0] = 64;
  f.planes[1] = backing + 1024 + (pairs && misaligned == 1 ? 1 : 0);
  f.strides[1] = 64 + (pairs && misaligned == 2 ? 1 : 0);
  f.planes[2] = backing + 2048;
  f.strides[2] = 64;
  return f;
}

static void
sweep (void)
{
  char what[160];

  for (unsigned int fmt = 0; fmt < CT_YUV_FORMAT_COUNT; fmt++)
    for (unsigned int matrix = 0; matrix < CT_YUV_MATRIX_COUNT; matrix++)
      for (unsigned int flags = 0; flags < 8; flags++)
        for (int misaligned = 0; misaligned < 3; misaligned++) {
          const CtYuvFrame f = frame ((CtYuvFormat) fmt,
              (CtYuvMatrix) matrix, flags, misaligned);
          const int pairs = fmt == CT_YUV_NV12 || fmt == CT_YUV_NV21;
          CtYuvPlan p;
          CtYuvSrc s;
          CtResult res;

          snprintf (what, sizeof (what), "%s matrix %u flags %u%s",
              format_names[fmt], matrix, flags, !misaligned ? "" :
              misaligned == 1 ? ", chroma at an odd address" :
              ", chroma rows an odd stride apart");
          res = ct_yuv_plan (&f, &p);
          CHECK ("ct_yuv_plan takes the frame", what, res, CT_OK);
          if (res != CT_OK)
            continue;
          ct_yuv_src (&f, &p, &s);
          CHECK ("every plan ct_yuv_plan makes has 8-bit sums in 16 bits",
              what, ct_plan_yuv_sums_fit (&p), 1);
          for (unsigned int out = 0; out < CT_TYPE_COUNT; out++)
            for (int ch_dim = -1; ch_dim < 4; ch_dim++) {
              const CtYuvKernel want = expected ((CtYuvFormat) fmt, flags,
                  pairs && misaligned, (CtType) out, ch_dim);
              const CtYuvKernel got = ct_plan_yuv (&p, &s, (CtType) out,
                  ch_dim);
              char where[240];

              snprintf (where, sizeof (where), "%s into %s, channels along "
                  "%d", what, ct_type_name ((CtType) out), ch_dim);
              CHECK ("the kernel's values (the rules above)", where,
                  got.values, want.values);
              CHECK ("the kernel's kind (the rules above)", where, got.kind,
                  want.kind);
            }
        }
}

/* A plan whose sums could leave 16 bits takes the table kernel for any,
 * whatever its format, into uint8 and float32 too: three hand-made plans,
 * in each one channel's sum leaving (its coefficients' products, each
 * reaching 2^14, add up past 2^15 - 1), the other two within. */
static void
sums_out_of_range (void)
{
  static const struct
  {
    const char *what;
    unsigned int k1[2], k2[2];  /* the two coefficients set to 0x7fff */
  } cases[] = {
    {"R leaves 16 bits (m[0][0], m[0][2])", {0, 0}, {0, 2}},
    {"G leaves 16 bits (m[1][1], m[1][2])", {1, 1}, {1, 2}},
    {"B leaves 16 bits (m[0][0], m[2][1])", {0, 0}, {2, 1}},
  };
  const CtYuvFrame f = frame (CT_YUV_NV12, CT_YUV_BT709,
      CT_YUV_CHROMA_H_COSITED, 0);

  for (unsigned int c = 0; c < N_CASES (cases); c++) {
    CtYuvPlan p;
    CtYuvSrc s;
    const CtResult res = ct_yuv_plan (&f, &p);

    CHECK ("ct_yuv_plan takes the frame", cases[c].what, res, CT_OK);
    if (res != CT_OK)
      return;
    ct_yuv_src (&f, &p, &s);
    p.m[cases[c].k1[0]][cases[c].k1[1]] = 0x7fff;
    p.m[cases[c].k2[0]][cases[c].k2[1]] = 0x7fff;
    CHECK ("a hand-made plan's sums leave 16 bits", cases[c].what,
        ct_plan_yuv_sums_fit (&p), 0);
    for (unsigned int out = 0; out < CT_TYPE_COUNT; out++) {
      const CtYuvKernel got = ct_plan_yuv (&p, &s, (CtType) out, 0);

      CHECK ("sums out of range: the table's values", cases[c].what,
          got.values, CT_YUV_VALUES_TABLE);
      CHECK ("sums out of range: the kernel for any", cases[c].what,
          got.kind, CT_YUV_KIND_ANY);
    }
  }
}

int
main (void)
{
  sweep ();
  sums_out_of_range ();
  return tally_finish ();
}
