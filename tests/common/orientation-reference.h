/* cudatranspose tests: where a source pixel lands under each of the eight
 * orientations, and where an output pixel comes from, spelled out per
 * orientation as videoflip describes them, not from the kernels' mirror
 * bits. The one copy every test of the directions reads: the kernels'
 * tests, the CPU loop's, and the element's (through
 * ct_check_oriented_point). Plain C, header only. */
#pragma once

#include "cudatranspose-kernels.h"

/* Where source (x, y) of a WxH plane lands: (*ox, *oy) in the output, HxW
 * where the axes swap, else WxH. */
static inline void
ct_ref_point (CtMapping mapping, unsigned int w, unsigned int h,
    unsigned int x, unsigned int y, unsigned int *ox, unsigned int *oy)
{
  switch (mapping) {
    case CT_MAPPING_ROTATE_90R:        /* clockwise: the top-left corner
                                         * goes to the top-right */
      *ox = h - 1 - y;
      *oy = x;
      break;
    case CT_MAPPING_ROTATE_90L:        /* counter-clockwise: the top-left
                                         * corner goes to the bottom-left */
      *ox = y;
      *oy = w - 1 - x;
      break;
    case CT_MAPPING_ANTI_TRANSPOSE:    /* about the other diagonal */
      *ox = h - 1 - y;
      *oy = w - 1 - x;
      break;
    case CT_MAPPING_IDENTITY:
      *ox = x;
      *oy = y;
      break;
    case CT_MAPPING_FLIP_HORIZONTAL:   /* left and right swapped */
      *ox = w - 1 - x;
      *oy = y;
      break;
    case CT_MAPPING_FLIP_VERTICAL:     /* top and bottom swapped */
      *ox = x;
      *oy = h - 1 - y;
      break;
    case CT_MAPPING_ROTATE_180:
      *ox = w - 1 - x;
      *oy = h - 1 - y;
      break;
    default:                           /* the transpose: about the main
                                         * diagonal */
      *ox = y;
      *oy = x;
      break;
  }
}

/* The inverse: the source (*x, *y) of output pixel (ox, oy) of a WxH
 * source plane. */
static inline void
ct_ref_source (CtMapping mapping, unsigned int w, unsigned int h,
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
