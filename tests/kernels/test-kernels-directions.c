/* The kernels' test (test-kernels.c): the eight mappings, the lists of
 * them the groups run, their names, and where each one sends a source
 * element (map_point, the reference's) and back (unmap_point, to name the
 * source of a wrong output element), spelled out here independently of
 * the kernels' mirror bits. */
#include "kernels-check.h"

const CtMapping all_mappings[] = {
  CT_MAPPING_TRANSPOSE, CT_MAPPING_ROTATE_90R, CT_MAPPING_ROTATE_90L,
  CT_MAPPING_ANTI_TRANSPOSE,
};

const CtMapping transpose_only[] = { CT_MAPPING_TRANSPOSE };

const CtMapping mirrored_mappings[] = {
  CT_MAPPING_ROTATE_90R, CT_MAPPING_ROTATE_90L, CT_MAPPING_ANTI_TRANSPOSE,
};

/* The mappings that keep the axes: the flip path (and exact). */
const CtMapping flip_mappings[] = {
  CT_MAPPING_IDENTITY, CT_MAPPING_FLIP_HORIZONTAL, CT_MAPPING_FLIP_VERTICAL,
  CT_MAPPING_ROTATE_180,
};

/* The seven that are not the plain transpose. */
const CtMapping all_but_transpose[] = {
  CT_MAPPING_ROTATE_90R, CT_MAPPING_ROTATE_90L, CT_MAPPING_ANTI_TRANSPOSE,
  CT_MAPPING_IDENTITY, CT_MAPPING_FLIP_HORIZONTAL, CT_MAPPING_FLIP_VERTICAL,
  CT_MAPPING_ROTATE_180,
};

/* Both mirrors or none, with the axes swapped or kept: the plain
 * transpose, the anti-transpose, a copy and the 180 (rows mirrored and
 * reversed). */
const CtMapping ends[] = {
  CT_MAPPING_TRANSPOSE, CT_MAPPING_ANTI_TRANSPOSE, CT_MAPPING_IDENTITY,
  CT_MAPPING_ROTATE_180,
};

/* All eight. */
const CtMapping every_mapping[] = {
  CT_MAPPING_TRANSPOSE, CT_MAPPING_ROTATE_90R, CT_MAPPING_ROTATE_90L,
  CT_MAPPING_ANTI_TRANSPOSE, CT_MAPPING_IDENTITY, CT_MAPPING_FLIP_HORIZONTAL,
  CT_MAPPING_FLIP_VERTICAL, CT_MAPPING_ROTATE_180,
};

const char *
mapping_name (CtMapping mapping)
{
  switch (mapping) {
    case CT_MAPPING_TRANSPOSE:
      return "transpose";
    case CT_MAPPING_ROTATE_90R:
      return "rotate-90r";
    case CT_MAPPING_ROTATE_90L:
      return "rotate-90l";
    case CT_MAPPING_ANTI_TRANSPOSE:
      return "anti-transpose";
    case CT_MAPPING_IDENTITY:
      return "identity";
    case CT_MAPPING_FLIP_HORIZONTAL:
      return "flip-horizontal";
    case CT_MAPPING_FLIP_VERTICAL:
      return "flip-vertical";
    case CT_MAPPING_ROTATE_180:
      return "rotate-180";
    default:
      break;
  }
  return "invalid";
}

/* Whether @mapping writes a WxH output (no transpose). */
int
keeps_axes (CtMapping mapping)
{
  return mapping == CT_MAPPING_IDENTITY ||
      mapping == CT_MAPPING_FLIP_HORIZONTAL ||
      mapping == CT_MAPPING_FLIP_VERTICAL || mapping == CT_MAPPING_ROTATE_180;
}

/* Where source (x, y) of a WxH plane lands in the output (HxW, or WxH for
 * the mappings that keep the axes), spelled out per mapping from the
 * header's table rather than from its mirror bits. */
void
map_point (CtMapping mapping, unsigned int w, unsigned int h,
    unsigned int x, unsigned int y, unsigned int *ox, unsigned int *oy)
{
  switch (mapping) {
    case CT_MAPPING_ROTATE_90R:
      /* clockwise: the top-left corner goes to the top-right */
      *ox = h - 1 - y;
      *oy = x;
      break;
    case CT_MAPPING_ROTATE_90L:
      /* counter-clockwise: the top-left corner goes to the bottom-left */
      *ox = y;
      *oy = w - 1 - x;
      break;
    case CT_MAPPING_ANTI_TRANSPOSE:
      *ox = h - 1 - y;
      *oy = w - 1 - x;
      break;
    case CT_MAPPING_IDENTITY:
      *ox = x;
      *oy = y;
      break;
    case CT_MAPPING_FLIP_HORIZONTAL:
      *ox = w - 1 - x;
      *oy = y;
      break;
    case CT_MAPPING_FLIP_VERTICAL:
      *ox = x;
      *oy = h - 1 - y;
      break;
    case CT_MAPPING_ROTATE_180:
      *ox = w - 1 - x;
      *oy = h - 1 - y;
      break;
    default:
      *ox = y;
      *oy = x;
      break;
  }
}

/* The inverse, to name the source element of a wrong output element. */
void
unmap_point (CtMapping mapping, unsigned int w, unsigned int h,
    unsigned int ox, unsigned int oy, unsigned int *x, unsigned int *y)
{
  switch (mapping) {
    case CT_MAPPING_ROTATE_90R:
      *x = oy;
      *y = h - 1 - ox;
      break;
    case CT_MAPPING_ROTATE_90L:
      *x = w - 1 - oy;
      *y = ox;
      break;
    case CT_MAPPING_ANTI_TRANSPOSE:
      *x = w - 1 - oy;
      *y = h - 1 - ox;
      break;
    case CT_MAPPING_IDENTITY:
      *x = ox;
      *y = oy;
      break;
    case CT_MAPPING_FLIP_HORIZONTAL:
      *x = w - 1 - ox;
      *y = oy;
      break;
    case CT_MAPPING_FLIP_VERTICAL:
      *x = ox;
      *y = h - 1 - oy;
      break;
    case CT_MAPPING_ROTATE_180:
      *x = w - 1 - ox;
      *y = h - 1 - oy;
      break;
    default:
      *x = oy;
      *y = ox;
      break;
  }
}
