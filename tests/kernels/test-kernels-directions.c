/* The kernels' test (test-kernels.c): the eight mappings, the lists of
 * them the groups run and their names; where each one sends a source
 * element and back is tests/common/orientation-reference.h's. */
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

