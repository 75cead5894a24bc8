/* cudatranspose: the one pass's chroma of a row (ct_yuv_chroma_row4 in
 * kernels/yuv-rgb-unit.h, the code the GPU's kernels run for four pixels
 * at once) checked without a GPU: every format, the chroma centred and
 * co-sited, widths 1 to 13 and 64, each chroma row of a 5-row frame,
 * random samples, against the rules written out here:
 *   - 4:4:4 (Y444, NV24, Y444_10LE): each pixel its own sample;
 *   - I420, YV12: the sample of the pixel's pair of columns;
 *   - the others (NV12, NV21, P010, P016, Y42B, NV16, I422_10LE) upsampled
 *     along the row from sample j = x / 2: the first pixel, and the last
 *     of an even width, take s[j]; co-sited, an even pixel s[j] and an
 *     odd one (s[j] + s[j + 1] + 1) / 2; centred, an odd pixel (3 s[j] +
 *     s[j + 1] + 2) / 4 and an even one (s[j - 1] + 3 s[j] + 2) / 4;
 *   - samples widened to 16 bits where they are: P010's by repeating its
 *     top 10 bits into the low ones (ORed), the low-bit 10-bit formats'
 *     words moved up 6 bits first, P016's as they are.
 * Each value out is compared for the pixels in the frame (those past the
 * width are the function's to fill as it likes). */
#include "cudatranspose-kernels.h"
#include "plan-tally.h"
#include "random-fill.h"
#include "yuv-rgb-unit.h"

#include <stdio.h>
#include <string.h>

#define N_CASES(a) (sizeof (a) / sizeof ((a)[0]))

/* Where a format's chroma lies, in the test's own terms: the planes (in
 * GStreamer's order) of U and V, the byte of a chroma pixel each starts
 * at, bytes per sample, whether they share a plane as pairs, the chroma's
 * pixels as shifts, and how a 16-bit word widens. */
typedef enum
{
  AS_BYTE, AS_WORD, AS_TOP10, AS_LOW10
} Widen;

typedef struct
{
  CtYuvFormat format;
  const char *name;
  unsigned int u_plane, v_plane, u_byte, v_byte, bytes, paired;
  unsigned int h_shift, v_shift;
  int upsampled;
  Widen widen;
} Layout;

static const Layout layouts[] = {
  {CT_YUV_I420, "I420", 1, 2, 0, 0, 1, 0, 1, 1, 0, AS_BYTE},
  {CT_YUV_YV12, "YV12", 2, 1, 0, 0, 1, 0, 1, 1, 0, AS_BYTE},
  {CT_YUV_NV12, "NV12", 1, 1, 0, 1, 1, 1, 1, 1, 1, AS_BYTE},
  {CT_YUV_NV21, "NV21", 1, 1, 1, 0, 1, 1, 1, 1, 1, AS_BYTE},
  {CT_YUV_P010, "P010", 1, 1, 0, 2, 2, 1, 1, 1, 1, AS_TOP10},
  {CT_YUV_P016, "P016", 1, 1, 0, 2, 2, 1, 1, 1, 1, AS_WORD},
  {CT_YUV_Y42B, "Y42B", 1, 2, 0, 0, 1, 0, 1, 0, 1, AS_BYTE},
  {CT_YUV_NV16, "NV16", 1, 1, 0, 1, 1, 1, 1, 0, 1, AS_BYTE},
  {CT_YUV_I422_10, "I422_10LE", 1, 2, 0, 0, 2, 0, 1, 0, 1, AS_LOW10},
  {CT_YUV_Y444, "Y444", 1, 2, 0, 0, 1, 0, 0, 0, 0, AS_BYTE},
  {CT_YUV_NV24, "NV24", 1, 1, 0, 1, 1, 1, 0, 0, 0, AS_BYTE},
  {CT_YUV_Y444_10, "Y444_10LE", 1, 2, 0, 0, 2, 0, 0, 0, 0, AS_LOW10},
};

#define HEIGHT 5
#define STRIDE 256

static unsigned char planes[3][HEIGHT * STRIDE];

/* Sample @j of chroma row @cy of component @c (0: U, 1: V), widened. */
static int
sample (const Layout * l, int c, unsigned int cy, unsigned int j)
{
  const unsigned int plane = c ? l->v_plane : l->u_plane;
  const unsigned int pixel = l->bytes * (l->paired ? 2 : 1);
  const unsigned char *at = planes[plane] + cy * STRIDE + j * pixel +
      (c ? l->v_byte : l->u_byte);
  unsigned int v;

  if (l->widen == AS_BYTE)
    return at[0];
  v = at[0] | (unsigned int) at[1] << 8;
  if (l->widen == AS_LOW10)
    v = (v << 6) & 0xffff;
  if (l->widen == AS_TOP10 || l->widen == AS_LOW10)
    v |= v >> 10;
  return (int) v;
}

/* The rules above: component @c of pixel @x of chroma row @cy. */
static int
expected (const Layout * l, int cosited, unsigned int width, int c,
    unsigned int cy, unsigned int x)
{
  const unsigned int j = x >> l->h_shift;

  if (!l->upsampled || x == 0 || ((x & 1) && x + 1 >= width))
    return sample (l, c, cy, j);
  if (cosited)
    return (x & 1) ? (sample (l, c, cy, j) + sample (l, c, cy, j + 1) +
        1) >> 1 : sample (l, c, cy, j);
  if (x & 1)
    return (3 * sample (l, c, cy, j) + sample (l, c, cy, j + 1) + 2) >> 2;
  return (sample (l, c, cy, j - 1) + 3 * sample (l, c, cy, j) + 2) >> 2;
}

int
main (void)
{
  static const unsigned int widths[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
    12, 13, 64
  };
  uint64_t seed = 0x5eed4c40;
  char what[160];

  for (size_t f = 0; f < N_CASES (layouts); f++)
    for (int cosited = 0; cosited < 2; cosited++)
      for (size_t wi = 0; wi < N_CASES (widths); wi++) {
        const Layout *l = &layouts[f];
        const unsigned int w = widths[wi];
        const unsigned int crows = (HEIGHT + l->v_shift) >> l->v_shift;
        CtYuvFrame fr;
        CtYuvPlan p;
        CtYuvSrc s;
        CtResult res;

        ct_ref_fill_random (&seed, planes, sizeof (planes));
        memset (&fr, 0, sizeof (fr));
        fr.format = l->format;
        fr.matrix = CT_YUV_BT709;
        fr.flags = cosited ? CT_YUV_CHROMA_H_COSITED : 0;
        fr.width = w;
        fr.height = HEIGHT;
        for (int k = 0; k < 3; k++) {
          fr.planes[k] = planes[k];
          fr.strides[k] = STRIDE;
        }
        snprintf (what, sizeof (what), "%s %ux%d%s", l->name, w, HEIGHT,
            cosited ? ", co-sited" : "");
        res = ct_yuv_plan (&fr, &p);
        CHECK ("ct_yuv_plan takes the frame", what, res, CT_OK);
        if (res != CT_OK)
          continue;
        ct_yuv_src (&fr, &p, &s);
        for (unsigned int cy = 0; cy < crows; cy++)
          for (unsigned int x0 = 0; x0 < w; x0 += 4)
            for (int c = 0; c < 2; c++) {
              int out[4];
              char where[240];

              ct_yuv_chroma_row4 (&s, &p, c, cy, x0, out);
              for (unsigned int i = 0; i < 4 && x0 + i < w; i++) {
                snprintf (where, sizeof (where), "%s, %s of chroma row %u "
                    "at pixel %u", what, c ? "V" : "U", cy, x0 + i);
                CHECK ("the row's chroma (the rules above)", where, out[i],
                    expected (l, cosited, w, c, cy, x0 + i));
              }
            }
      }
  return tally_finish ();
}
