/* GStreamer
 * Copyright (C) 2026 The cudatranspose authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>

G_BEGIN_DECLS

/**
 * GstCudaTransposeKernel:
 *
 * The transpose implementation. Values match the kernels' CtKernel.
 */
typedef enum
{
  GST_CUDA_TRANSPOSE_KERNEL_AUTO,
  GST_CUDA_TRANSPOSE_KERNEL_NAIVE,
  GST_CUDA_TRANSPOSE_KERNEL_NAIVE_COLUMN,
  GST_CUDA_TRANSPOSE_KERNEL_TILED,
  GST_CUDA_TRANSPOSE_KERNEL_TILED_PADDED,
  GST_CUDA_TRANSPOSE_KERNEL_RECT,
  GST_CUDA_TRANSPOSE_KERNEL_RECT_PADDED,
  GST_CUDA_TRANSPOSE_KERNEL_TILED_64,
  GST_CUDA_TRANSPOSE_KERNEL_WIDE,
  GST_CUDA_TRANSPOSE_KERNEL_WIDE_PADDED,
  GST_CUDA_TRANSPOSE_KERNEL_WIDE_SWIZZLE,
  GST_CUDA_TRANSPOSE_KERNEL_CPU,
} GstCudaTransposeKernel;

#define GST_TYPE_CUDA_TRANSPOSE_KERNEL (gst_cuda_transpose_kernel_get_type ())
GType gst_cuda_transpose_kernel_get_type (void);

#define GST_TYPE_CUDA_TRANSPOSE (gst_cuda_transpose_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaTranspose, gst_cuda_transpose, GST,
    CUDA_TRANSPOSE, GstBaseTransform);

GST_ELEMENT_REGISTER_DECLARE (cudatranspose);

G_END_DECLS
