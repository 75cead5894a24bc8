/* cudatranspose: one output unit of a 4:2:2 plane (ct_transpose_422), the
 * same code on the host (transpose-cpu.c) and on the device (yuv422.cu).
 *
 * A unit is a macropixel (CT_422_PACKED: two pixels, 4 bytes) or a 16-bit
 * sample (the chroma layouts). Output unit (ox, oy) is read from the
 * source pixels the mapping puts there; the bits of CtMapping say which:
 * where the axes swap, output row oy is source column oy (counted from the
 * right under CT_MAPPING_MIRROR_ROWS) and output column o is source row o
 * (counted from the bottom under CT_MAPPING_MIRROR_COLUMNS); where they
 * stay, output row oy is source row oy (from the bottom under
 * MIRROR_ROWS) and output column o is source column o (from the right
 * under MIRROR_COLUMNS).
 */
#pragma once

#include "cudatranspose-kernels.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define CT_422_FN static __host__ __device__ __forceinline__
#else
#define CT_422_FN static inline
#endif

/* The output plane's units a row, and its rows. */
CT_422_FN unsigned int
ct_422_out_units (const CtPlane422 * p, CtMapping mapping)
{
  const int keep = (mapping & CT_MAPPING_KEEP_AXES) != 0;
  const unsigned int w = keep ? p->width : p->height;

  /* packed: two pixels a macropixel; chroma: two pixels a sample */
  return w / 2 + (w & 1);
}

CT_422_FN unsigned int
ct_422_out_rows (const CtPlane422 * p, CtMapping mapping)
{
  return (mapping & CT_MAPPING_KEEP_AXES) ? p->height : p->width;
}

/* The source row (swapping mappings: of output column @o) or column
 * (keeping: of output column @o) counted from the far end when @mirror. */
CT_422_FN unsigned int
ct_422_from (unsigned int o, unsigned int n, int mirror)
{
  return mirror ? n - 1 - o : o;
}

CT_422_FN unsigned int
ct_422_read16 (const unsigned char *at, int big_endian)
{
  return big_endian ? ((unsigned int) at[0] << 8 | at[1]) :
      ((unsigned int) at[1] << 8 | at[0]);
}

CT_422_FN void
ct_422_write16 (unsigned char *at, unsigned int v, int big_endian)
{
  at[big_endian ? 1 : 0] = (unsigned char) (v & 0xff);
  at[big_endian ? 0 : 1] = (unsigned char) (v >> 8);
}

/* Packed output macropixel @ox of output row @oy. */
CT_422_FN void
ct_422_packed_unit (const CtPlane422 * p, CtMapping mapping, unsigned int ox,
    unsigned int oy)
{
  const unsigned char *src = (const unsigned char *) p->src;
  unsigned char *out = (unsigned char *) p->dst + (size_t) oy * p->dst_stride +
      (size_t) ox * 4;
  const int mc = (mapping & CT_MAPPING_MIRROR_COLUMNS) != 0;
  const int mr = (mapping & CT_MAPPING_MIRROR_ROWS) != 0;
  const unsigned int o0 = 2 * ox;
  const unsigned int yo = p->y_offset, uo = p->u_offset, vo = p->v_offset;
  unsigned int y0, y1, u, v;

  if (mapping & CT_MAPPING_KEEP_AXES) {
    /* one source row; the pixels of the pair and the chroma of the first
     * one's macropixel */
    const int two = o0 + 1 < p->width;
    const unsigned char *row = src + (size_t) ct_422_from (oy, p->height,
        mr) * p->src_stride;
    const size_t l0 = ct_422_from (o0, p->width, mc);
    const size_t l1 = two ? ct_422_from (o0 + 1, p->width, mc) : l0;
    const size_t c = (l0 & ~(size_t) 1) * 2;

    y0 = row[2 * l0 + yo];
    y1 = row[2 * l1 + yo];
    u = row[c + uo];
    v = row[c + vo];
  } else {
    /* one source column, two source rows; their chroma averaged */
    const int two = o0 + 1 < p->height;
    const size_t sx = ct_422_from (oy, p->width, mr);
    const unsigned char *r0 = src + (size_t) ct_422_from (o0, p->height,
        mc) * p->src_stride;
    const unsigned char *r1 = two ? src + (size_t) ct_422_from (o0 + 1,
        p->height, mc) * p->src_stride : r0;
    const size_t c = (sx & ~(size_t) 1) * 2;

    y0 = r0[2 * sx + yo];
    y1 = r1[2 * sx + yo];
    u = (r0[c + uo] + r1[c + uo]) >> 1;
    v = (r0[c + vo] + r1[c + vo]) >> 1;
  }
  out[yo] = (unsigned char) y0;
  out[yo + 2] = (unsigned char) y1;
  out[uo] = (unsigned char) u;
  out[vo] = (unsigned char) v;
}

/* 16-bit chroma output sample @ox of output row @oy. */
CT_422_FN void
ct_422_chroma_unit (const CtPlane422 * p, CtMapping mapping, unsigned int ox,
    unsigned int oy)
{
  const unsigned char *src = (const unsigned char *) p->src;
  unsigned char *out = (unsigned char *) p->dst + (size_t) oy * p->dst_stride +
      (size_t) ox * 2;
  const int mc = (mapping & CT_MAPPING_MIRROR_COLUMNS) != 0;
  const int mr = (mapping & CT_MAPPING_MIRROR_ROWS) != 0;
  const int be = p->layout == CT_422_CHROMA_16BE;
  const unsigned int cw = p->width / 2 + (p->width & 1);

  if (mapping & CT_MAPPING_KEEP_AXES) {
    const unsigned char *at = src + (size_t) ct_422_from (oy, p->height,
        mr) * p->src_stride + (size_t) ct_422_from (ox, cw, mc) * 2;

    out[0] = at[0];
    out[1] = at[1];
  } else {
    const unsigned int o0 = 2 * ox;
    const size_t c = (size_t) ct_422_from (oy / 2, cw, mr) * 2;
    unsigned int v = ct_422_read16 (src + (size_t) ct_422_from (o0,
            p->height, mc) * p->src_stride + c, be);

    if (o0 + 1 < p->height)
      v = (v + ct_422_read16 (src + (size_t) ct_422_from (o0 + 1, p->height,
                  mc) * p->src_stride + c, be)) / 2;
    ct_422_write16 (out, v, be);
  }
}

CT_422_FN void
ct_422_unit (const CtPlane422 * p, CtMapping mapping, unsigned int ox,
    unsigned int oy)
{
  if (p->layout == CT_422_PACKED)
    ct_422_packed_unit (p, mapping, ox, oy);
  else
    ct_422_chroma_unit (p, mapping, ox, oy);
}
