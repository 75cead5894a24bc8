/* cudatranspose: 4:2:2 on the CPU (ct_transpose_422_cpu) and the checks
 * its GPU twin shares. */
#include "cudatranspose-kernels.h"
#include "yuv422-unit.h"

#include <limits.h>
#include <stdint.h>

/* The bytes a row of @units units of @p's layout takes. */
static size_t
unit_row_bytes (const CtPlane422 * p, size_t units)
{
  return units * (p->layout == CT_422_PACKED ? 4 : 2);
}

CtResult
ct_422_validate (const CtPlane422 * planes, unsigned int n_planes,
    CtMapping mapping)
{
  unsigned int i;

  if (n_planes > 0 && planes == NULL)
    return CT_ERROR_INVALID_ARGUMENT;
  if ((unsigned int) mapping > CT_MAPPING_ROTATE_180)
    return CT_ERROR_INVALID_ARGUMENT;
  for (i = 0; i < n_planes; i++) {
    const CtPlane422 *p = &planes[i];
    size_t in_units = p->width / 2 + (p->width & 1);

    if (p->layout != CT_422_PACKED && p->layout != CT_422_CHROMA_16LE &&
        p->layout != CT_422_CHROMA_16BE)
      return CT_ERROR_INVALID_ARGUMENT;
    if (p->layout == CT_422_PACKED) {
      /* the two lumas, U and V: the four bytes of a macropixel */
      unsigned int seen = 1u << p->y_offset;

      if (p->y_offset > 1 || p->u_offset > 3 || p->v_offset > 3)
        return CT_ERROR_INVALID_ARGUMENT;
      seen |= 1u << (p->y_offset + 2) | 1u << p->u_offset | 1u << p->v_offset;
      if (seen != 0xf)
        return CT_ERROR_INVALID_ARGUMENT;
    }
    if (p->width == 0 || p->height == 0)
      continue;
    if (p->src == NULL || p->dst == NULL)
      return CT_ERROR_INVALID_ARGUMENT;
    if (p->width > INT_MAX || p->height > INT_MAX ||
        p->src_stride > PTRDIFF_MAX || p->dst_stride > PTRDIFF_MAX)
      return CT_ERROR_INVALID_ARGUMENT;
    if (p->src_stride < unit_row_bytes (p, in_units) ||
        p->dst_stride < unit_row_bytes (p, ct_422_out_units (p, mapping)))
      return CT_ERROR_INVALID_ARGUMENT;
  }
  return CT_OK;
}

CtResult
ct_transpose_422_cpu (const CtPlane422 * planes, unsigned int n_planes,
    CtMapping mapping)
{
  CtResult res = ct_422_validate (planes, n_planes, mapping);
  unsigned int i, x, y;

  if (res != CT_OK)
    return res;
  for (i = 0; i < n_planes; i++) {
    const CtPlane422 *p = &planes[i];
    unsigned int units, rows;

    if (p->width == 0 || p->height == 0)
      continue;
    units = ct_422_out_units (p, mapping);
    rows = ct_422_out_rows (p, mapping);
    for (y = 0; y < rows; y++)
      for (x = 0; x < units; x++)
        ct_422_unit (p, mapping, x, y);
  }
  return CT_OK;
}
