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

#include "cudatranspose-kernels.h"

G_BEGIN_DECLS

/* Stream-ordered CUDA memory, the one place that knows which GStreamer has
 * it. From 1.24 a CUDA memory carries the stream its producer queued its
 * work on (set by the pool it came from) and is flagged
 * GST_CUDA_MEMORY_TRANSFER_NEED_SYNC while that work may be pending; a
 * consumer on another stream orders itself behind it, and a consumer that
 * maps it for the CPU waits. The element puts its own stream in the CUDA
 * pools it proposes and decides, so that a chain of stream-aware elements
 * shares one stream, and runs a frame whose two memories both carry a
 * stream without waiting on the host (ct_gpu_run_ordered). GStreamer
 * 1.22's CUDA memory has no stream: there every call here does nothing or
 * returns NULL, and each frame is waited for as before. */

/* A stream for @context's pools (a GstCudaStream on 1.24+; NULL on 1.22 or
 * if none could be made, and then the pools carry none). */
gpointer ct_order_stream_new (GstCudaContext * context);
void ct_order_stream_free (gpointer stream);

/* Puts @stream (ct_order_stream_new) in the @config of a CUDA pool the
 * element makes. */
void ct_order_config_set (GstStructure * config, gpointer stream);

/* Puts @stream in @pool's configuration unless it carries one already;
 * FALSE if the pool refused the configuration. */
gboolean ct_order_pool_set (GstBufferPool * pool, gpointer stream);

/* The stream @buf's one CUDA memory carries; NULL if none. */
CtStream ct_order_buffer_stream (GstBuffer * buf);

/* Waits on the host for the work @buf's CUDA memories' producers left
 * queued on their streams (nothing if none is flagged). */
void ct_order_wait_producer (GstBuffer * buf);

/* Whether @buf's one CUDA memory may have work queued on its stream:
 * @pending TRUE flags it for the consumer to order behind; FALSE clears
 * the flag (a CUDA map for writing sets it) once the work is waited for. */
void ct_order_mark (GstBuffer * buf, gboolean pending);

G_END_DECLS
