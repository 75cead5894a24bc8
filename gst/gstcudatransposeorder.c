/* GStreamer
 * Copyright (C) 2026 The cudatranspose authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudatransposeorder.h"

#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudamemory.h>

#if GST_CHECK_VERSION (1, 24, 0)
#include <gst/cuda/gstcudastream.h>
#define CT_HAVE_STREAMS 1
#else
#define CT_HAVE_STREAMS 0
#endif

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_transpose_debug);
#define GST_CAT_DEFAULT gst_cuda_transpose_debug

gpointer
ct_order_stream_new (GstCudaContext * context)
{
#if CT_HAVE_STREAMS
  GstCudaStream *stream = gst_cuda_stream_new (context);

  if (!stream)
    GST_WARNING_OBJECT (context, "no CUDA stream for the pools: frames in "
        "CUDA memory are waited for on the host");
  return stream;
#else
  (void) context;
  return NULL;
#endif
}

void
ct_order_stream_free (gpointer stream)
{
#if CT_HAVE_STREAMS
  if (stream)
    gst_cuda_stream_unref ((GstCudaStream *) stream);
#else
  (void) stream;
#endif
}

void
ct_order_config_set (GstStructure * config, gpointer stream)
{
#if CT_HAVE_STREAMS
  if (stream)
    gst_buffer_pool_config_set_cuda_stream (config, (GstCudaStream *) stream);
#else
  (void) config;
  (void) stream;
#endif
}

gboolean
ct_order_pool_set (GstBufferPool * pool, gpointer stream)
{
#if CT_HAVE_STREAMS
  GstStructure *config;
  GstCudaStream *has;

  if (!stream)
    return TRUE;
  config = gst_buffer_pool_get_config (pool);
  /* (a neighbour's stream stays: the chain shares it; and an active pool
   * refuses any configuration, even its own) */
  has = gst_buffer_pool_config_get_cuda_stream (config);
  if (has) {
    gst_cuda_stream_unref (has);
    gst_structure_free (config);
    return TRUE;
  }
  ct_order_config_set (config, stream);
  return gst_buffer_pool_set_config (pool, config);
#else
  (void) pool;
  (void) stream;
  return TRUE;
#endif
}

CtStream
ct_order_buffer_stream (GstBuffer * buf)
{
#if CT_HAVE_STREAMS
  GstMemory *mem;
  GstCudaStream *stream;

  if (gst_buffer_n_memory (buf) != 1)
    return NULL;
  mem = gst_buffer_peek_memory (buf, 0);
  if (!gst_is_cuda_memory (mem))
    return NULL;
  stream = gst_cuda_memory_get_stream (GST_CUDA_MEMORY_CAST (mem));
  return stream ? (CtStream) gst_cuda_stream_get_handle (stream) : NULL;
#else
  (void) buf;
  return NULL;
#endif
}

void
ct_order_wait_producer (GstBuffer * buf)
{
#if CT_HAVE_STREAMS
  guint i, n = gst_buffer_n_memory (buf);

  for (i = 0; i < n; i++) {
    GstMemory *mem = gst_buffer_peek_memory (buf, i);

    if (gst_is_cuda_memory (mem))
      gst_cuda_memory_sync (GST_CUDA_MEMORY_CAST (mem));
  }
#else
  (void) buf;
#endif
}

void
ct_order_mark (GstBuffer * buf, gboolean pending)
{
#if CT_HAVE_STREAMS
  GstMemory *mem;

  if (gst_buffer_n_memory (buf) != 1)
    return;
  mem = gst_buffer_peek_memory (buf, 0);
  if (!gst_is_cuda_memory (mem))
    return;
  if (pending)
    GST_MINI_OBJECT_FLAG_SET (mem, GST_CUDA_MEMORY_TRANSFER_NEED_SYNC);
  else
    GST_MINI_OBJECT_FLAG_UNSET (mem, GST_CUDA_MEMORY_TRANSFER_NEED_SYNC);
#else
  (void) buf;
  (void) pending;
#endif
}
