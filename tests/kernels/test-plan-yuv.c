/* cudatranspose: the YUV one pass's planner (kernels/plan-yuv.c, through
 * ct_plan_yuv in kernels/plan-yuv.h) checked without a GPU: each format,
 * siting, range and matrix into every output type, under each dimension
 * of per-channel operations, with the chroma plane aligned and not, its
 * kernel against the rules written out here (ct_plan_yuv_420 says which
 * formats are 4:2:0):
 *   - 16-bit input (P010, P016, I422_10LE, Y444_10LE) into a float type
 *     keeps its 16 bits: the whole values' kernel, float32's deep one for
 *     P010 and P016, the one for any for the others and into float64;
 *   - else per-channel operations along the turned frame's x or y (their
 *     dimension 1 or 2) take the kernel of values one by one, for any
 *     format;
 *   - else 8-bit values go through a table: into uint8 and float32 by the
 *     kernel of their kind (16-bit input into uint8: deep; I420, YV12:
 *     blocks; NV12, NV21 whose chroma pairs start 2-byte aligned on a row
 *     of an even stride: pairs, or into float32 sited as decoders site
 *     them (the chroma on the even columns, between the rows) the sited
 *     kernel; the others, and every 4:2:2 and 4:4:4 format, any), into
 *     the other types by the kernel for any;
 *   - a plan whose 8-bit sums could leave 16 bits (none ct_yuv_plan
 *     makes: a hand-made one) takes the table kernel for any.
 * Every plan ct_yuv_plan makes fits (ct_plan_yuv_sums_fit), checked too.
 *
 * Then the launch (ct_plan_yuv_launch) over sizes (1 to 8K, odd, 1xN and
 * Nx1, past what a grid's y holds), the output steps of every direction
 * of CHW and HWC and others, offsets and value sizes, and the blocks a
 * wave holds:
 *   - a warp's lanes take neighbouring pairs of rows (rows 2k - 1 and 2k:
 *     height / 2 + 1 pairs) where the output's step along y is smaller
 *     than along x, in size, else neighbouring quads (four columns:
 *     ceil(width / 4));
 *   - the grid's x has a block of 64 lanes for every 64 of them, not one
 *     more; its y a block of 4 ranks for every 4 of the others, but no
 *     more than whole rows of the grid's x a wave holds (where it holds
 *     one at least), nor than 65535;
 *   - four values are stored as one where the step along x is 1, those
 *     along y and between channels multiples of 4, and pixel (0, 0)'s
 *     address one of four values.
 *
 * ct_yuv_to_rgb's launch (ct_plan_yuv_rgb) over the same sizes: a block
 * of 256 pixels for every 256 of a row, not one more, and a row of blocks
 * a row of the frame, no more than 65535.
 *
 * Then the tiled pass (ct_plan_yuv_tiles) over the same sizes and steps,
 * each kernel and the blocks a wave holds:
 *   - it takes the frame where the kernel is one kind's (blocks, pairs,
 *     sited, deep), or any format's into 1- or 4-byte values (uint8's and
 *     float32's), with a table's or whole values (not each computed), the
 *     step along y is 1 or -1 (CHW), or 3 or -3 with
 *     the channels 1 apart (packed HWC, which it says: into 4-byte values,
 *     or from a deep format), and the one along x larger in size; else it
 *     says no, and nothing else;
 *   - a tile is 4 quads by 64 pairs: ceil((height / 2 + 1) / 64) down,
 *     times ceil(ceil(width / 4) / 4) across, in all;
 *   - a block for each tile, but no more than a wave holds (where known)
 *     nor than 2^31 - 1.
 *
 * And the HWC variant (ct_plan_yuv_hwc) over the steps of every direction
 * of HWC and CHW and others, each kernel and value size: it takes the
 * frame where the kernel is one kind's with a table's or whole values,
 * the channels 1 apart, the rows no nearer than the pixels (a warp's
 * lanes along x) and the pixels -3 apart (mirrored), or 3 with a table's
 * values into 4-byte ones; else it says no. */
#include "plan-yuv.h"
#include "plan-tally.h"

#include <stdio.h>
#include <string.h>

#define N_CASES(a) (sizeof (a) / sizeof ((a)[0]))

static const char *const format_names[] = {
  "I420", "YV12", "NV12", "NV21", "P010", "P016", "Y42B", "NV16",
  "I422_10LE", "Y444", "NV24", "Y444_10LE",
};

/* Whether @format's chroma is subsampled down the columns too (4:2:0) */
static int
four_two_zero (CtYuvFormat format)
{
  return format == CT_YUV_I420 || format == CT_YUV_YV12 ||
      format == CT_YUV_NV12 || format == CT_YUV_NV21 ||
      format == CT_YUV_P010 || format == CT_YUV_P016;
}

/* Backing for the frames' planes: never read, only their addresses. */
static _Alignas (64) unsigned char backing[4096];

/* The kernel the rules above give. */
static CtYuvKernel
expected (CtYuvFormat format, unsigned int flags, int misaligned,
    CtType out, int ch_dim)
{
  const int deep = format == CT_YUV_P010 || format == CT_YUV_P016;
  const int wide = deep || format == CT_YUV_I422_10 ||
      format == CT_YUV_Y444_10;
  const int blocks = format == CT_YUV_I420 || format == CT_YUV_YV12;
  const int is_float = out == CT_TYPE_FLOAT32 || out == CT_TYPE_FLOAT64;
  CtYuvKernel k = { CT_YUV_VALUES_TABLE, CT_YUV_KIND_ANY };

  if (wide && is_float) {
    k.values = CT_YUV_VALUES_WHOLE;
    if (deep && out == CT_TYPE_FLOAT32)
      k.kind = CT_YUV_KIND_DEEP;
    return k;
  }
  if (ch_dim == 1 || ch_dim == 2) {
    k.values = CT_YUV_VALUES_EACH;
    return k;
  }
  if ((out != CT_TYPE_UINT8 && out != CT_TYPE_FLOAT32) ||
      !four_two_zero (format))
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
          CHECK ("4:2:0 said so, 4:2:2 and 4:4:4 not", what,
              ct_plan_yuv_420 (&p), four_two_zero ((CtYuvFormat) fmt));
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

static void
launches (void)
{
  static const unsigned int sizes[][2] = {
    {1, 1}, {1, 7}, {7, 1}, {2, 2}, {3, 5}, {5, 3}, {37, 9}, {255, 257},
    {1280, 720}, {1917, 1079}, {1920, 1080}, {3840, 2160}, {7680, 4320},
    {1, 600000}, {600000, 1}, {1100000, 3}, {5, 600000},
  };
  static const unsigned long long residents[] = {
    0, 1, 5, 132 * 8, 144 * 8, 132 * 16, 1ull << 40,
  };
  static const unsigned int value_sizes[] = { 1, 2, 4, 8 };
  static const uintptr_t offsets[] = { 0, 1, 2, 4, 8, 12, 16, 24, 32 };
  char what[200];

  for (unsigned int z = 0; z < N_CASES (sizes); z++) {
    const long long w = sizes[z][0], h = sizes[z][1];
    unsigned int rgb[2];

    ct_plan_yuv_rgb ((unsigned int) w, (unsigned int) h, rgb);
    snprintf (what, sizeof (what), "%lldx%lld to RGB", w, h);
    CHECK ("a block of 256 pixels for every 256", what, rgb[0], up (w, 256));
    CHECK ("a row of blocks a row, up to 65535", what, rgb[1],
        h < 65535 ? h : 65535);
  }
  for (unsigned int z = 0; z < N_CASES (sizes); z++) {
    const long long w = sizes[z][0], h = sizes[z][1];
    /* the steps along x, y and between channels: CHW and HWC as they come,
     * under the directions that swap the axes (x steps a row of the
     * turned frame), and mirrored */
    const long long steps[][3] = {
      {1, w, w * h}, {3, 3 * w, 1}, {h, 1, w * h}, {3 * h, 3, 1},
      {-1, w, w * h}, {1, -w, w * h}, {-h, -1, w * h}, {-3, -3 * w, 1},
      {1, 4 * w, 4 * w * h}, {1, 4 * w + 4, 2}, {4, 4 * w, 1},
      {4, 4 * w, 4 * w * h}, {-4, 8 * w, 4},
    };

    for (unsigned int st = 0; st < N_CASES (steps); st++)
      for (unsigned int r = 0; r < N_CASES (residents); r++)
        for (unsigned int v = 0; v < N_CASES (value_sizes); v++)
          for (unsigned int o = 0; o < N_CASES (offsets); o++) {
            const long long sx = steps[st][0], sy = steps[st][1],
                sc = steps[st][2];
            const uintptr_t at = 0x100000000000ull + offsets[o];
            const CtYuvLaunch l = ct_plan_yuv_launch ((unsigned int) w,
                (unsigned int) h, sx, sy, sc, at, value_sizes[v],
                residents[r]);
            const int along_y = (sy < 0 ? -sy : sy) < (sx < 0 ? -sx : sx);
            const unsigned long long pairs = h / 2 + 1, quads = up (w, 4);
            const unsigned long long lanes = along_y ? pairs : quads;
            const unsigned long long ranks = along_y ? quads : pairs;
            const unsigned long long gx = up (lanes, 64);
            unsigned long long gy = up (ranks, 4);

            if (residents[r] >= gx && gy > residents[r] / gx)
              gy = residents[r] / gx;
            if (gy > 65535)
              gy = 65535;
            snprintf (what, sizeof (what), "%lldx%lld, steps %lld %lld "
                "%lld, at +%u, %u-byte values, %llu resident", w, h, sx, sy,
                sc, (unsigned int) offsets[o], value_sizes[v],
                residents[r]);
            CHECK ("lanes along the smaller step", what, l.lanes_along_y,
                along_y);
            CHECK ("a block of 64 lanes for every 64", what, l.grid_x, gx);
            CHECK ("a block of 4 ranks for every 4, up to a wave and "
                "65535", what, l.grid_y, gy);
            CHECK ("four values stored as one", what, l.fours, sx == 1 &&
                sy % 4 == 0 && sc % 4 == 0 && offsets[o] % (4 *
                    value_sizes[v]) == 0);
          }
  }
}

static void
tiles (void)
{
  static const unsigned int sizes[][2] = {
    {1, 1}, {1, 7}, {7, 1}, {2, 2}, {3, 5}, {5, 3}, {37, 9}, {64, 30},
    {65, 31}, {64, 32}, {121, 67}, {16, 126}, {17, 129}, {255, 257},
    {1920, 1080}, {1917, 1079}, {3840, 2160}, {1, 600000}, {600000, 1},
    {4000000000u, 4000000000u},
  };
  static const unsigned long long residents[] = {
    0, 1, 5, 132 * 4, 144 * 4, 1ull << 40,
  };
  static const unsigned int value_sizes[] = { 1, 2, 4, 8 };
  char what[200];

  for (unsigned int z = 0; z < N_CASES (sizes); z++) {
    const long long w = sizes[z][0], h = sizes[z][1];
    /* x, y and channel steps: CHW and HWC as they come, CHW turned each
     * way, HWC turned each way, its channels apart, others */
    const long long steps[][3] = {
      {1, w, w * h}, {3, 3 * w, 1}, {h, 1, w * h}, {-h, 1, w * h},
      {h, -1, w * h}, {-h, -1, w * h}, {3 * h, 3, 1}, {-3 * h, 3, 1},
      {3 * h, -3, 1}, {-3 * h, -3, 1}, {3 * h, 3, w * h}, {3 * h, 1, 1},
      {-1, w, w * h}, {1, -w, w * h}, {1, 1, 1}, {2, -1, 2}, {-2, 1, 2},
      {3, 3, 1}, {9, 3, 1}, {9, -3, 2},
    };

    for (unsigned int st = 0; st < N_CASES (steps); st++)
      for (unsigned int v = 0; v <= CT_YUV_VALUES_WHOLE; v++)
        for (unsigned int k = 0; k <= CT_YUV_KIND_SITED; k++)
          for (unsigned int r = 0; r < N_CASES (residents); r++)
            for (unsigned int vz = 0; vz < N_CASES (value_sizes); vz++) {
              const long long sx = steps[st][0], sy = steps[st][1],
                  sc = steps[st][2];
              const CtYuvKernel kernel = { (CtYuvValues) v, (CtYuvKind) k };
              const CtYuvTiles t = ct_plan_yuv_tiles (kernel, (unsigned int) w,
                  (unsigned int) h, sx, sy, sc, value_sizes[vz], residents[r]);
              const int one_kind = k == CT_YUV_KIND_BLOCKS ||
                  k == CT_YUV_KIND_PAIRS || k == CT_YUV_KIND_SITED ||
                  k == CT_YUV_KIND_DEEP;
              /* (any format's kernels: tiles built for uint8, float32) */
              const int any_built = k == CT_YUV_KIND_ANY &&
                  (value_sizes[vz] == 1 || value_sizes[vz] == 4);
              /* (packed HWC: into float32, or from 16-bit formats) */
              const int packed = (sy == 3 || sy == -3) && sc == 1 &&
                  (value_sizes[vz] == 4 || k == CT_YUV_KIND_DEEP);
              const int want = (v == CT_YUV_VALUES_TABLE ||
                  v == CT_YUV_VALUES_WHOLE) && (one_kind || any_built) &&
                  (sy == 1 || sy == -1 || packed) &&
                  (sx < 0 ? -sx : sx) > (sy < 0 ? -sy : sy);
              const unsigned long long down = up (h / 2 + 1, 64);
              const unsigned long long all = down * up (up (w, 4), 4);
              unsigned long long grid = all;

              if (residents[r] > 0 && grid > residents[r])
                grid = residents[r];
              if (grid > 0x7fffffffull)
                grid = 0x7fffffffull;
              snprintf (what, sizeof (what), "%lldx%lld, steps %lld %lld "
                  "%lld, values %u kind %u, %u-byte values, %llu resident", w,
                  h, sx, sy, sc, v, k, value_sizes[vz], residents[r]);
              CHECK ("tiled: one kind's kernel or any format's into 1 or 4 "
                  "bytes, table or whole, y innermost (HWC: next to the "
                  "channels)", what, t.tiled, want);
              CHECK ("HWC where the channels are innermost", what, t.hwc,
                  want && packed);
              CHECK ("64 pairs a tile down", what, t.tiles_y,
                  want ? down : 0);
              CHECK ("4 quads a tile across", what, t.tiles, want ? all : 0);
              CHECK ("a block a tile, up to a wave and 2^31 - 1", what,
                  t.grid, want ? grid : 0);
            }
  }
}

static void
hwc_variant (void)
{
  /* x, y and channel steps: HWC forwards and mirrored each way, turned,
   * a single column, the channels apart, CHW, and four channels */
  static const long long steps[][3] = {
    {3, 3000, 1}, {-3, 3000, 1}, {3, -3000, 1}, {-3, -3000, 1},
    {3000, 3, 1}, {-3000, 3, 1}, {3, 3, 1}, {3, -3, 1}, {3, 2, 1},
    {-3, 1, 1}, {3, 3000, 2}, {3, 3000, -1}, {1, 1000, 1000000},
    {-1, 1000, 1000000}, {1000, 1, 1000000}, {4, 4000, 1}, {1, 3, 1},
    {6, 6000, 1},
  };
  static const unsigned int value_sizes[] = { 1, 2, 4, 8 };
  char what[120];

  for (unsigned int st = 0; st < N_CASES (steps); st++)
    for (unsigned int v = 0; v <= CT_YUV_VALUES_WHOLE; v++)
      for (unsigned int k = 0; k <= CT_YUV_KIND_SITED; k++)
        for (unsigned int z = 0; z < N_CASES (value_sizes); z++) {
          const long long sx = steps[st][0], sy = steps[st][1],
              sc = steps[st][2];
          const CtYuvKernel kernel = { (CtYuvValues) v, (CtYuvKind) k };
          const int one_kind = k != CT_YUV_KIND_ANY;
          const int lanes_along_x = (sy < 0 ? -sy : sy) >=
              (sx < 0 ? -sx : sx);
          const int want = one_kind && v != CT_YUV_VALUES_EACH && sc == 1 &&
              lanes_along_x && (sx == -3 || (sx == 3 &&
                  v == CT_YUV_VALUES_TABLE && value_sizes[z] == 4));

          snprintf (what, sizeof (what), "steps %lld %lld %lld, values %u, "
              "kind %u, %u-byte values", sx, sy, sc, v, k, value_sizes[z]);
          CHECK ("the HWC variant for packed HWC along x, one kind's "
              "kernel of a table's or whole values: mirrored, or forwards "
              "from a table into 4-byte values", what,
              ct_plan_yuv_hwc (kernel, sx, sy, sc, value_sizes[z]) != 0,
              want);
        }
}

int
main (void)
{
  sweep ();
  sums_out_of_range ();
  launches ();
  tiles ();
  hwc_variant ();
  return tally_finish ();
}
