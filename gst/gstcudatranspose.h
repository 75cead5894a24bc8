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

#include "cudatranspose-kernels.h"

G_BEGIN_DECLS

/**
 * GstCudaTransposeKernel:
 *
 * The transpose implementation: the kernels' CtKernel, value for value
 * (both are made from CT_KERNEL_LIST).
 */
#define GST_CUDA_TRANSPOSE_KERNEL_VALUE(id, name, summary) \
    GST_CUDA_TRANSPOSE_KERNEL_##id = CT_KERNEL_##id,
typedef enum
{
  CT_KERNEL_LIST (GST_CUDA_TRANSPOSE_KERNEL_VALUE)
} GstCudaTransposeKernel;
#undef GST_CUDA_TRANSPOSE_KERNEL_VALUE

#define GST_TYPE_CUDA_TRANSPOSE_KERNEL (gst_cuda_transpose_kernel_get_type ())
GType gst_cuda_transpose_kernel_get_type (void);

/**
 * GstCudaTransposePath:
 *
 * What ran: the kernels' CtPath, value for value (both are made from
 * CT_PATH_LIST). The type of the active-kernel property.
 */
#define GST_CUDA_TRANSPOSE_PATH_VALUE(id, name, summary) \
    GST_CUDA_TRANSPOSE_PATH_##id = CT_PATH_##id,
typedef enum
{
  CT_PATH_LIST (GST_CUDA_TRANSPOSE_PATH_VALUE)
} GstCudaTransposePath;
#undef GST_CUDA_TRANSPOSE_PATH_VALUE

#define GST_TYPE_CUDA_TRANSPOSE_PATH (gst_cuda_transpose_path_get_type ())
GType gst_cuda_transpose_path_get_type (void);

/**
 * GstCudaTransposeChannelOrder:
 * @GST_CUDA_TRANSPOSE_CHANNEL_ORDER_RGB: red, green, blue
 * @GST_CUDA_TRANSPOSE_CHANNEL_ORDER_BGR: blue, green, red
 *
 * The order of the colour channels in tensors made from YUV video. The
 * type of the channel-order property.
 */
typedef enum
{
  GST_CUDA_TRANSPOSE_CHANNEL_ORDER_RGB,
  GST_CUDA_TRANSPOSE_CHANNEL_ORDER_BGR,
} GstCudaTransposeChannelOrder;

#define GST_TYPE_CUDA_TRANSPOSE_CHANNEL_ORDER \
    (gst_cuda_transpose_channel_order_get_type ())
GType gst_cuda_transpose_channel_order_get_type (void);

#define GST_TYPE_CUDA_TRANSPOSE (gst_cuda_transpose_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaTranspose, gst_cuda_transpose, GST,
    CUDA_TRANSPOSE, GstBaseTransform);

GST_ELEMENT_REGISTER_DECLARE (cudatranspose);

G_END_DECLS
