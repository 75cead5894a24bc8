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
#include <gst/cuda/gstcudacontext.h>

#include "gstcudatransposejob.h"

G_BEGIN_DECLS

/* An allocator of page-locked (pinned) host memory. Its memory is ordinary
 * system memory to everyone else (it is wrapped by the system allocator);
 * only copies to and from the GPU notice, running at the link's full speed
 * and truly asynchronously. If pinning fails it hands out pageable memory
 * and says so once in the debug log. Every allocation can fail: a size
 * that cannot be had gives NULL (a pool's GST_FLOW_ERROR), never the
 * abort of GStreamer's system allocator. */
#define GST_TYPE_CUDA_TRANSPOSE_PINNED_ALLOCATOR \
    (gst_cuda_transpose_pinned_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaTransposePinnedAllocator,
    gst_cuda_transpose_pinned_allocator, GST, CUDA_TRANSPOSE_PINNED_ALLOCATOR,
    GstAllocator);

/* Memory is pinned for every context; @context is pushed to pin and free.
 * With @context NULL (no GPU) the memory is pageable, and still
 * fallible. */
GstAllocator *gst_cuda_transpose_pinned_allocator_new (GstCudaContext *
    context);

/* A video buffer pool (with GstVideoMeta) whose memory comes from a new
 * pinned allocator (of @context, which may be NULL), configured for @caps
 * with buffers of @size bytes; NULL if the configuration is refused. */
GstBufferPool *gst_cuda_transpose_pinned_pool_new (GstCudaContext * context,
    GstCaps * caps, guint size, guint min_buffers, guint max_buffers);

/* A pool of tensor buffers (other/tensors): one pinned memory per tensor,
 * of @sizes, as NNStreamer's elements expect. Configured, not active;
 * NULL if the pool refuses the configuration or the tensors total more
 * than a pool can describe (G_MAXUINT bytes). */
#define GST_TYPE_CUDA_TRANSPOSE_TENSOR_POOL \
    (gst_cuda_transpose_tensor_pool_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaTransposeTensorPool,
    gst_cuda_transpose_tensor_pool, GST, CUDA_TRANSPOSE_TENSOR_POOL,
    GstBufferPool);

GstBufferPool *gst_cuda_transpose_tensor_pool_new (GstCudaContext * context,
    GstCaps * caps, const gsize * sizes, guint n_tensors, guint min_buffers,
    guint max_buffers);

/* The same pool for one tensor a buffer in CUDA memory of @context,
 * @size bytes (whole 4-byte words under 2 GB: GStreamer lays CUDA memory
 * out as video, so each is one row of RGBA pixels cut to @size). */
GstBufferPool *gst_cuda_transpose_cuda_tensor_pool_new (GstCudaContext *
    context, GstCaps * caps, gsize size, guint min_buffers,
    guint max_buffers);

/* The allocation policy's parts: a configured pool for video @caps (CUDA
 * memory of @context with @cuda, host memory pinned with @pinning, NULL:
 * pageable; @size in and out: the CUDA pool rounds rows up to its pitch),
 * or for tensor @caps (one memory per tensor; NULL for more than 16, or
 * caps it cannot read); NULL if the pool refuses its configuration. A
 * CUDA pool carries @stream (gstcudatransposeorder.h; NULL: none). */
GstBufferPool *ct_pools_new_video (GstCudaContext * context,
    gpointer stream, GstCudaContext * pinning, GstCaps * caps, gboolean cuda,
    guint * size, guint min_buffers, guint max_buffers);
GstBufferPool *ct_pools_new_tensors (GstCudaContext * pinning,
    GstCaps * caps, guint min_buffers, guint max_buffers, guint * total);

/* Whether downstream offers system memory of its own making (a pool of a
 * special kind, or an allocator other than the default). */
gboolean ct_pools_downstream_has_own_memory (GstQuery * query);

/* Puts @pool first in the allocation @query, in place of downstream's;
 * and its allocator first (the base class configures a pool with the
 * first). */
void ct_pools_query_put (GstQuery * query, GstBufferPool * pool,
    guint size, guint min_buffers, guint max_buffers);
void ct_pools_query_put_allocator (GstQuery * query, GstBufferPool * pool);

/* The allocation policy. @context: the GPU's context where one is open
 * (CUDA memory needs it), @pinning: the context host memory is pinned
 * with where a GPU kernel may run (NULL: pageable memory; pinning only
 * pays off for copies), @stream: the stream the CUDA pools proposed and
 * decided carry, unless they carry one already (gstcudatransposeorder.h;
 * NULL: none).
 *
 * ct_pools_propose (after the base class): upstream gets a pool to write
 * its frames into, CUDA memory of @context for CUDA caps, pinned host
 * memory otherwise, so that the upload runs at the link's speed; for
 * tensors only the pinned allocator (nothing for tensors in CUDA memory,
 * which come from the pool of the element that makes them). FALSE for
 * caps it cannot read.
 *
 * ct_pools_decide (before the base class): output from downstream's pool
 * if it is a CUDA pool of @context (CUDA caps) or memory of downstream's
 * own making (host memory), else from a pool of ours (fallible, one
 * buffer more for the frame held back); for tensors a tensor pool of
 * ours (in CUDA memory of @context for CUDA caps). FALSE for caps it
 * cannot read, or with @r set (@no_gpu says why there is no GPU for CUDA
 * memory). */
gboolean ct_pools_propose (GstQuery * query, GstCudaContext * context,
    gpointer stream, GstCudaContext * pinning);
gboolean ct_pools_decide (GstQuery * query, GstCudaContext * context,
    gpointer stream, GstCudaContext * pinning, const gchar * no_gpu,
    CtRefusal * r);

G_END_DECLS
