/* cudatranspose: 4:2:2 on the GPU (ct_transpose_422), where the axes swap
 * or packed 4:2:2 is mirrored: an output unit per thread (yuv422-unit.h),
 * a warp along an output row, so stores are coalesced; the reads of a
 * swap gather two source rows a unit, and the neighbouring output rows a
 * block holds read the same source lines, from L1.
 *
 * Every plane of a call in one launch: blockIdx.z picks the plane. A plane
 * with more rows than the grid's y holds loops over them.
 */
#include "cudatranspose-kernels.h"
#include "yuv422-unit.h"

#include <cuda_runtime.h>

namespace {

constexpr int kUnitsX = 32;
constexpr int kRowsY = 8;
constexpr unsigned int kMaxGridY = 65535;

struct Args422
{
  CtPlane422 plane[CT_PLANES_PER_LAUNCH];
  CtMapping mapping;
};

__global__ void __launch_bounds__ (kUnitsX * kRowsY)
k_422 (const __grid_constant__ Args422 a)
{
  const CtPlane422 & p = a.plane[blockIdx.z];
  const unsigned int units = ct_422_out_units (&p, a.mapping);
  const unsigned int rows = ct_422_out_rows (&p, a.mapping);
  const unsigned int ox = blockIdx.x * kUnitsX + threadIdx.x;

  if (ox >= units || p.width == 0 || p.height == 0)
    return;
  for (unsigned int oy = blockIdx.y * kRowsY + threadIdx.y; oy < rows;
      oy += gridDim.y * kRowsY)
    ct_422_unit (&p, a.mapping, ox, oy);
}

unsigned int
div_up (unsigned int n, unsigned int d)
{
  return n / d + (n % d != 0);
}

}  // namespace

CtResult
ct_transpose_422 (const CtPlane422 * planes, unsigned int n_planes,
    CtMapping mapping, CtStream stream)
{
  CtResult res = ct_422_validate (planes, n_planes, mapping);
  unsigned int done = 0;

  if (res != CT_OK)
    return res;
  while (done < n_planes) {
    const unsigned int n = n_planes - done < CT_PLANES_PER_LAUNCH ?
        n_planes - done : CT_PLANES_PER_LAUNCH;
    Args422 a = { };
    unsigned int units = 0, rows = 0;

    a.mapping = mapping;
    for (unsigned int i = 0; i < n; i++) {
      const CtPlane422 & p = planes[done + i];

      a.plane[i] = p;
      if (p.width == 0 || p.height == 0)
        continue;
      if (ct_422_out_units (&p, mapping) > units)
        units = ct_422_out_units (&p, mapping);
      if (ct_422_out_rows (&p, mapping) > rows)
        rows = ct_422_out_rows (&p, mapping);
    }
    if (units > 0) {
      const unsigned int gy = div_up (rows, kRowsY);
      const dim3 grid (div_up (units, kUnitsX), gy < kMaxGridY ? gy :
          kMaxGridY, n);

      k_422<<<grid, dim3 (kUnitsX, kRowsY), 0,
          reinterpret_cast<cudaStream_t>(stream)>>> (a);
      res = (CtResult) cudaGetLastError ();
      if (res != CT_OK)
        return res;
    }
    done += n;
  }
  return CT_OK;
}
