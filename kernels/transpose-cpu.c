/* cudatranspose: the `cpu` variant (planes and 4:2:2), argument checks and
 * names: plain C. */
#include "cudatranspose-kernels-tests.h"
#include "yuv422-unit.h"

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Blocks of 32x32 elements keep both planes' lines in cache. */
#define CPU_BLOCK 32

#define KERNEL_NAME(id, name, summary) name,
static const char *const kernel_names[CT_KERNEL_COUNT] = {
  CT_KERNEL_LIST (KERNEL_NAME)
};
#undef KERNEL_NAME

const char *
ct_kernel_name (CtKernel kernel)
{
  if (kernel < 0 || kernel >= CT_KERNEL_COUNT)
    return "unknown";
  return kernel_names[kernel];
}

#define PATH_NAME(id, name, summary) name,
static const char *const path_names[CT_PATH_COUNT] = {
  CT_PATH_LIST (PATH_NAME)
};
#undef PATH_NAME

const char *
ct_path_name (CtPath path)
{
  if (path < 0 || path >= CT_PATH_COUNT)
    return "unknown";
  return path_names[path];
}

/* What every call checks first: a list where it has planes, a mapping
 * that exists. */
static CtResult
list_validate (const void *planes, unsigned int n_planes, CtMapping mapping)
{
  if (n_planes > 0 && planes == NULL)
    return CT_ERROR_INVALID_ARGUMENT;
  if ((unsigned int) mapping > CT_MAPPING_ROTATE_180)
    return CT_ERROR_INVALID_ARGUMENT;
  return CT_OK;
}

/* What every plane of every call must be, its rows @in_row and @out_row
 * bytes long: empty, or with pointers, within the kernels' 32-bit element
 * indices and signed strides (they count rows either way), its rows
 * inside its strides. */
static CtResult
plane_validate (const void *src, size_t src_stride, const void *dst,
    size_t dst_stride, unsigned int width, unsigned int height,
    size_t in_row, size_t out_row)
{
  if (width == 0 || height == 0)
    return CT_OK;
  if (src == NULL || dst == NULL)
    return CT_ERROR_INVALID_ARGUMENT;
  if (width > INT_MAX || height > INT_MAX)
    return CT_ERROR_INVALID_ARGUMENT;
  if (src_stride > PTRDIFF_MAX || dst_stride > PTRDIFF_MAX)
    return CT_ERROR_INVALID_ARGUMENT;
  if (src_stride < in_row || dst_stride < out_row)
    return CT_ERROR_INVALID_ARGUMENT;
  return CT_OK;
}

CtResult
ct_planes_validate (const CtPlane * planes, unsigned int n_planes,
    CtMapping mapping)
{
  CtResult res = list_validate (planes, n_planes, mapping);
  unsigned int i;

  if (res != CT_OK)
    return res;

  for (i = 0; i < n_planes; i++) {
    const CtPlane *p = &planes[i];
    size_t es = p->elem_size;

    if (es != 1 && es != 2 && es != 3 && es != 4 && es != 8)
      return CT_ERROR_UNSUPPORTED_ELEMENT_SIZE;
    res = plane_validate (p->src, p->src_stride, p->dst, p->dst_stride,
        p->width, p->height, (size_t) p->width * es,
        (size_t) ((mapping & CT_MAPPING_KEEP_AXES) ? p->width :
            p->height) * es);
    if (res != CT_OK)
      return res;
  }
  return CT_OK;
}

/* ES is a constant at each call site, so memcpy becomes one move. */
static inline void
transpose_plane (const CtPlane * p, CtMapping mapping, size_t es)
{
  const unsigned char *src = p->src;
  unsigned char *dst = p->dst;
  unsigned int bx, by, x, y;

  for (by = 0; by < p->height; by += CPU_BLOCK) {
    unsigned int ye = p->height - by < CPU_BLOCK ? p->height : by + CPU_BLOCK;
    for (bx = 0; bx < p->width; bx += CPU_BLOCK) {
      unsigned int xe = p->width - bx < CPU_BLOCK ? p->width : bx + CPU_BLOCK;
      for (x = bx; x < xe; x++) {
        size_t oy = (mapping & CT_MAPPING_MIRROR_ROWS) ? p->width - 1 - x : x;
        unsigned char *row = dst + oy * p->dst_stride;
        for (y = by; y < ye; y++) {
          size_t ox = (mapping & CT_MAPPING_MIRROR_COLUMNS) ?
              p->height - 1 - y : y;
          memcpy (row + ox * es, src + (size_t) y * p->src_stride + x * es, es);
        }
      }
    }
  }
}

/* The mappings that keep the axes: rows copied whole, or reversed. */
static inline void
mirror_plane (const CtPlane * p, CtMapping mapping, size_t es)
{
  const unsigned char *src = p->src;
  unsigned char *dst = p->dst;
  size_t row_bytes = (size_t) p->width * es;
  unsigned int x, y;

  for (y = 0; y < p->height; y++) {
    const unsigned char *in = src + (size_t) y * p->src_stride;
    size_t oy = (mapping & CT_MAPPING_MIRROR_ROWS) ? p->height - 1 - y : y;
    unsigned char *out = dst + oy * p->dst_stride;

    if (!(mapping & CT_MAPPING_MIRROR_COLUMNS)) {
      memcpy (out, in, row_bytes);
      continue;
    }
    for (x = 0; x < p->width; x++)
      memcpy (out + (size_t) (p->width - 1 - x) * es, in + (size_t) x * es,
          es);
  }
}

static inline void
map_plane (const CtPlane * p, CtMapping mapping, size_t es)
{
  if (mapping & CT_MAPPING_KEEP_AXES)
    mirror_plane (p, mapping, es);
  else
    transpose_plane (p, mapping, es);
}

CtResult
ct_transpose_planes_cpu (const CtPlane * planes, unsigned int n_planes,
    CtMapping mapping)
{
  CtResult res = ct_planes_validate (planes, n_planes, mapping);
  unsigned int i;

  if (res != CT_OK)
    return res;

  for (i = 0; i < n_planes; i++) {
    switch (planes[i].elem_size) {
      case 1:
        map_plane (&planes[i], mapping, 1);
        break;
      case 2:
        map_plane (&planes[i], mapping, 2);
        break;
      case 3:
        map_plane (&planes[i], mapping, 3);
        break;
      case 4:
        map_plane (&planes[i], mapping, 4);
        break;
      default:
        map_plane (&planes[i], mapping, 8);
        break;
    }
  }
  return CT_OK;
}

CtResult
ct_transpose_batches_cpu (const CtPlaneBatch * batches,
    unsigned int n_batches, CtMapping mapping)
{
  unsigned int i, k;

  if (n_batches > 0 && batches == NULL)
    return CT_ERROR_INVALID_ARGUMENT;
  for (i = 0; i < n_batches; i++) {
    CtResult res = ct_planes_validate (&batches[i].plane, 1, mapping);

    if (res != CT_OK)
      return res;
  }
  for (i = 0; i < n_batches; i++) {
    const CtPlaneBatch *b = &batches[i];

    for (k = 0; k < b->count; k++) {
      CtPlane pl = b->plane;

      pl.src = (const unsigned char *) pl.src + (size_t) k * b->src_step;
      pl.dst = (unsigned char *) pl.dst + (size_t) k * b->dst_step;
      ct_transpose_planes_cpu (&pl, 1, mapping);
    }
  }
  return CT_OK;
}

/* The plain CPU loop of ct_permute: the output in order. */
CtResult
ct_permute_cpu (const void *src, void *dst, const unsigned long long dims[4],
    unsigned int elem_size, const unsigned int perm[4])
{
  CtResult res = ct_permute_validate (dims, elem_size, perm);
  unsigned long long in[4], idx[4] = { 0, 0, 0, 0 }, total = 1, o;
  const unsigned char *s = (const unsigned char *) src;
  unsigned char *d = (unsigned char *) dst;
  int i, k;

  if (res != CT_OK)
    return res;
  if (!src || !dst)
    return CT_ERROR_INVALID_ARGUMENT;
  in[0] = 1;
  for (k = 1; k < 4; k++)
    in[k] = in[k - 1] * dims[k - 1];
  for (k = 0; k < 4; k++)
    total *= dims[k];
  /* walk the output in order; idx[i] is out dim i's index */
  for (o = 0; o < total; o++) {
    unsigned long long from = 0;
    for (i = 0; i < 4; i++)
      from += idx[i] * in[perm[i]];
    memcpy (d + o * elem_size, s + from * elem_size, elem_size);
    for (i = 0; i < 4 && ++idx[i] == dims[perm[i]]; i++)
      idx[i] = 0;
  }
  return CT_OK;
}

/* ---- 4:2:2 (ct_transpose_422's CPU twin and its checks) ---- */

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
  CtResult res = list_validate (planes, n_planes, mapping);
  unsigned int i;

  if (res != CT_OK)
    return res;
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
    res = plane_validate (p->src, p->src_stride, p->dst, p->dst_stride,
        p->width, p->height, unit_row_bytes (p, in_units),
        unit_row_bytes (p, ct_422_out_units (p, mapping)));
    if (res != CT_OK)
      return res;
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
