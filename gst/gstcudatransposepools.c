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

#include "gstcudatransposepools.h"

#include <string.h>
#include <gst/video/video.h>
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudamemory.h>

#include "cudatranspose-kernels.h"
#include "gstcudatransposecaps.h"
#include "gstcudatransposeflight.h"
#include "gstcudatransposeorder.h"
#include "gstcudatransposetensor.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_transpose_debug);
#define GST_CAT_DEFAULT gst_cuda_transpose_debug

struct _GstCudaTransposePinnedAllocator
{
  GstAllocator parent;

  GstCudaContext *context;
  gboolean warned;
};

/* One block: what the wrapping memory frees. */
typedef struct
{
  GstCudaContext *context;      /* pinned with it; NULL: pageable */
  gpointer data;
} PinnedBlock;

G_DEFINE_TYPE (GstCudaTransposePinnedAllocator,
    gst_cuda_transpose_pinned_allocator, GST_TYPE_ALLOCATOR);

static void
pinned_block_free (gpointer user_data)
{
  PinnedBlock *block = user_data;
  CtResult res;

  if (!block->context) {
    g_free (block->data);
  } else if (gst_cuda_context_push (block->context)) {
    res = ct_host_free (block->data);
    gst_cuda_context_pop (NULL);
    if (res != CT_OK)
      GST_WARNING ("freeing pinned memory %p failed: %s", block->data,
          ct_result_string (res));
  } else {
    GST_WARNING ("pinned memory %p is not freed: its CUDA context could not "
        "be made current", block->data);
  }
  gst_clear_object (&block->context);
  g_free (block);
}

static GstMemory *
pinned_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  GstCudaTransposePinnedAllocator *self =
      GST_CUDA_TRANSPOSE_PINNED_ALLOCATOR (allocator);
  gsize maxsize, total;
  PinnedBlock *block;
  CtResult res = CT_OK;
  const gchar *why = NULL;
  gsize shift;
  guint8 *data;

  /* sizes come from caps: they may add up past a gsize */
  if (!g_size_checked_add (&maxsize, params->prefix, size) ||
      !g_size_checked_add (&maxsize, maxsize, params->padding) ||
      !g_size_checked_add (&total, maxsize, params->align)) {
    GST_WARNING_OBJECT (self, "%" G_GSIZE_FORMAT " bytes and their prefix, "
        "padding and alignment do not fit a gsize", size);
    return NULL;
  }

  block = g_new0 (PinnedBlock, 1);
  /* page-aligned, so params->align (a mask) below a page costs nothing */
  if (!self->context) {
    why = "no GPU";
  } else if (gst_cuda_context_push (self->context)) {
    res = ct_host_alloc (&block->data, total);
    gst_cuda_context_pop (NULL);
    if (res != CT_OK)
      why = ct_result_string (res);
  } else {
    why = "the CUDA context could not be made current";
  }
  if (why) {
    /* pageable then, and NULL rather than an abort if even that fails */
    if (self->context && !self->warned) {
      self->warned = TRUE;
      GST_WARNING_OBJECT (self, "could not pin %" G_GSIZE_FORMAT " bytes "
          "(%s): handing out pageable memory, copies to the GPU will be "
          "slower", total, why);
    }
    block->data = g_try_malloc (total);
    if (!block->data) {
      GST_WARNING_OBJECT (self, "could not allocate %" G_GSIZE_FORMAT
          " bytes", total);
      g_free (block);
      return NULL;
    }
  } else {
    block->context = gst_object_ref (self->context);
  }

  data = block->data;
  shift = (params->align + 1 - ((guintptr) data & params->align)) &
      params->align;
  if ((params->flags & GST_MEMORY_FLAG_ZERO_PREFIXED) && params->prefix)
    memset (data + shift, 0, params->prefix);
  if ((params->flags & GST_MEMORY_FLAG_ZERO_PADDED) && params->padding)
    memset (data + shift + params->prefix + size, 0, params->padding);

  return gst_memory_new_wrapped (params->flags, data + shift, maxsize,
      params->prefix, size, block, pinned_block_free);
}

static void
pinned_free (GstAllocator * allocator, GstMemory * memory)
{
  /* the memory is the system allocator's: it never comes back here */
  g_return_if_reached ();
}

static void
gst_cuda_transpose_pinned_allocator_finalize (GObject * object)
{
  GstCudaTransposePinnedAllocator *self =
      GST_CUDA_TRANSPOSE_PINNED_ALLOCATOR (object);

  gst_clear_object (&self->context);
  G_OBJECT_CLASS (gst_cuda_transpose_pinned_allocator_parent_class)->finalize
      (object);
}

static void
gst_cuda_transpose_pinned_allocator_class_init
    (GstCudaTransposePinnedAllocatorClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  gobject_class->finalize = gst_cuda_transpose_pinned_allocator_finalize;
  allocator_class->alloc = pinned_alloc;
  allocator_class->free = pinned_free;
}

static void
gst_cuda_transpose_pinned_allocator_init (GstCudaTransposePinnedAllocator *
    self)
{
  GstAllocator *allocator = GST_ALLOCATOR_CAST (self);

  /* upstream elements may allocate from it directly, at any size */
  allocator->mem_type = GST_ALLOCATOR_SYSMEM;
}

GstAllocator *
gst_cuda_transpose_pinned_allocator_new (GstCudaContext * context)
{
  GstCudaTransposePinnedAllocator *self;

  g_return_val_if_fail (!context || GST_IS_CUDA_CONTEXT (context), NULL);

  self = g_object_new (GST_TYPE_CUDA_TRANSPOSE_PINNED_ALLOCATOR, NULL);
  gst_object_ref_sink (self);
  self->context = context ? gst_object_ref (context) : NULL;
  return GST_ALLOCATOR_CAST (self);
}

GstBufferPool *
gst_cuda_transpose_pinned_pool_new (GstCudaContext * context, GstCaps * caps,
    guint size, guint min_buffers, guint max_buffers)
{
  GstBufferPool *pool = gst_video_buffer_pool_new ();
  GstAllocator *allocator = gst_cuda_transpose_pinned_allocator_new (context);
  GstStructure *config = gst_buffer_pool_get_config (pool);

  gst_buffer_pool_config_set_params (config, caps, size, min_buffers,
      max_buffers);
  gst_buffer_pool_config_set_allocator (config, allocator, NULL);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_object_unref (allocator);

  if (!gst_buffer_pool_set_config (pool, config)) {
    GST_WARNING ("pinned pool refused its configuration for %" GST_PTR_FORMAT,
        caps);
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

/* ---------------------------------------------------------------------- */
/* Tensor pool                                                              */

struct _GstCudaTransposeTensorPool
{
  GstBufferPool parent;

  GstAllocator *allocator;      /* pinned, or CUDA's with @cuda */
  GstCudaContext *cuda;         /* the tensors' device; NULL: host memory */
  gsize sizes[CT_TENSOR_MEMORY_LIMIT];
  guint n_tensors;
};

G_DEFINE_TYPE (GstCudaTransposeTensorPool, gst_cuda_transpose_tensor_pool,
    GST_TYPE_BUFFER_POOL);

/* @size bytes of CUDA memory: GStreamer lays its CUDA memory out as video,
 * so one row of @size / 4 RGBA pixels (a format every version's allocator
 * takes), cut to @size (the row's pitch may be longer). Its host copies
 * move the row's @size bytes, no more. NULL if it cannot be had. */
static GstMemory *
cuda_tensor_memory (GstCudaTransposeTensorPool * self, gsize size)
{
  GstVideoInfo info;
  GstMemory *mem;

  if (size == 0 || size % 4 != 0 || size > G_MAXINT ||
      !gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, size / 4, 1)
      || GST_VIDEO_INFO_PLANE_STRIDE (&info, 0) != (gint) size)
    return NULL;
#if GST_CHECK_VERSION (1, 24, 0)
  mem = gst_cuda_allocator_alloc (GST_CUDA_ALLOCATOR (self->allocator),
      self->cuda, NULL, &info);
#else
  mem = gst_cuda_allocator_alloc (GST_CUDA_ALLOCATOR (self->allocator),
      self->cuda, &info);
#endif
  if (mem)
    gst_memory_resize (mem, 0, size);
  return mem;
}

static GstFlowReturn
tensor_pool_alloc_buffer (GstBufferPool * pool, GstBuffer ** buffer,
    GstBufferPoolAcquireParams * params)
{
  GstCudaTransposeTensorPool *self = GST_CUDA_TRANSPOSE_TENSOR_POOL (pool);
  GstBuffer *buf = gst_buffer_new ();
  guint i;

  for (i = 0; i < self->n_tensors; i++) {
    GstMemory *mem = self->cuda ? cuda_tensor_memory (self, self->sizes[i]) :
        gst_allocator_alloc (self->allocator, self->sizes[i], NULL);

    if (!mem) {
      GST_WARNING_OBJECT (pool, "could not allocate %" G_GSIZE_FORMAT
          " bytes for tensor %u", self->sizes[i], i);
      gst_buffer_unref (buf);
      return GST_FLOW_ERROR;
    }
    gst_buffer_append_memory (buf, mem);
  }
  *buffer = buf;
  return GST_FLOW_OK;
}

static void
gst_cuda_transpose_tensor_pool_finalize (GObject * object)
{
  GstCudaTransposeTensorPool *self = GST_CUDA_TRANSPOSE_TENSOR_POOL (object);

  gst_clear_object (&self->allocator);
  gst_clear_object (&self->cuda);
  G_OBJECT_CLASS (gst_cuda_transpose_tensor_pool_parent_class)->finalize
      (object);
}

static void
gst_cuda_transpose_tensor_pool_class_init (GstCudaTransposeTensorPoolClass *
    klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  gobject_class->finalize = gst_cuda_transpose_tensor_pool_finalize;
  pool_class->alloc_buffer = tensor_pool_alloc_buffer;
}

static void
gst_cuda_transpose_tensor_pool_init (GstCudaTransposeTensorPool * self)
{
}

/* A configured pool of @n_tensors memories of @sizes a buffer from
 * @allocator (taken), in CUDA memory of @cuda where not NULL. */
static GstBufferPool *
tensor_pool_new (GstAllocator * allocator, GstCudaContext * cuda,
    GstCaps * caps, const gsize * sizes, guint n_tensors, guint min_buffers,
    guint max_buffers)
{
  GstCudaTransposeTensorPool *self;
  GstStructure *config;
  guint64 total = 0;
  guint i;

  for (i = 0; i < n_tensors; i++)
    total += sizes[i];
  if (total > G_MAXUINT || !allocator) {
    GST_DEBUG ("tensors of %" G_GUINT64_FORMAT " bytes: no pool", total);
    gst_clear_object (&allocator);
    return NULL;
  }

  self = g_object_new (GST_TYPE_CUDA_TRANSPOSE_TENSOR_POOL, NULL);
  gst_object_ref_sink (self);
  self->allocator = allocator;
  self->cuda = cuda ? gst_object_ref (cuda) : NULL;
  memcpy (self->sizes, sizes, n_tensors * sizeof (sizes[0]));
  self->n_tensors = n_tensors;

  /* the size is the buffer's total, which the base class checks on release */
  config = gst_buffer_pool_get_config (GST_BUFFER_POOL (self));
  gst_buffer_pool_config_set_params (config, caps, (guint) total, min_buffers,
      max_buffers);
  if (!gst_buffer_pool_set_config (GST_BUFFER_POOL (self), config)) {
    GST_WARNING ("tensor pool refused its configuration for %" GST_PTR_FORMAT,
        caps);
    gst_object_unref (self);
    return NULL;
  }
  return GST_BUFFER_POOL (self);
}

GstBufferPool *
gst_cuda_transpose_tensor_pool_new (GstCudaContext * context, GstCaps * caps,
    const gsize * sizes, guint n_tensors, guint min_buffers,
    guint max_buffers)
{
  g_return_val_if_fail (!context || GST_IS_CUDA_CONTEXT (context), NULL);
  g_return_val_if_fail (n_tensors > 0 &&
      n_tensors <= CT_TENSOR_MEMORY_LIMIT, NULL);

  return tensor_pool_new (gst_cuda_transpose_pinned_allocator_new (context),
      NULL, caps, sizes, n_tensors, min_buffers, max_buffers);
}

GstBufferPool *
gst_cuda_transpose_cuda_tensor_pool_new (GstCudaContext * context,
    GstCaps * caps, gsize size, guint min_buffers, guint max_buffers)
{
  g_return_val_if_fail (GST_IS_CUDA_CONTEXT (context), NULL);

  gst_cuda_memory_init_once ();
  return tensor_pool_new (gst_allocator_find (GST_CUDA_MEMORY_TYPE_NAME),
      context, caps, &size, 1, min_buffers, max_buffers);
}

/* ---------------------------------------------------------------------- */
/* The element's allocation policy                                          */

/* (gstcudatransposepools.h) */
/* A configured pool for @caps: CUDA memory of @context, or host memory,
 * pinned with @pinning (NULL: pageable). Returns NULL if the pool refuses the
 * configuration. @size is in and out: the CUDA pool rounds rows up to its
 * pitch. */
GstBufferPool *
ct_pools_new_video (GstCudaContext * context, gpointer stream,
    GstCudaContext * pinning, GstCaps * caps, gboolean cuda, guint * size,
    guint min_buffers, guint max_buffers)
{
  GstBufferPool *pool;
  GstStructure *config;

  if (!cuda)
    return gst_cuda_transpose_pinned_pool_new (pinning, caps, *size,
        min_buffers, max_buffers);

  pool = gst_cuda_buffer_pool_new (context);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, *size, min_buffers,
      max_buffers);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  ct_order_config_set (config, stream);
  if (!gst_buffer_pool_set_config (pool, config)) {
    GST_WARNING ("CUDA pool refused %" GST_PTR_FORMAT, caps);
    gst_object_unref (pool);
    return NULL;
  }
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, NULL, size, NULL, NULL);
  gst_structure_free (config);
  return pool;
}

/* A pool of tensor buffers for tensor @caps, one memory per tensor, pinned
 * with @pinning (NULL: pageable); NULL (and the reason logged) if the caps
 * or the pool will not do. @total is set to the buffers' size. */
GstBufferPool *
ct_pools_new_tensors (GstCudaContext * pinning, GstCaps * caps,
    guint min_buffers, guint max_buffers, guint * total)
{
  CtTensorInfo t[CT_TENSOR_COUNT_LIMIT];
  gsize sizes[CT_TENSOR_COUNT_LIMIT];
  GstBufferPool *pool;
  gchar *why = NULL;
  guint n = 0, i;

  if (!ct_tensor_caps_parse (gst_caps_get_structure (caps, 0), t, &n, &why)) {
    GST_DEBUG ("no tensor pool: %s", why);
    g_free (why);
    return NULL;
  }
  if (n > CT_TENSOR_MEMORY_LIMIT) {
    /* (the 16th memory holds the rest, after a header: made per buffer) */
    GST_DEBUG ("no tensor pool for %u tensors", n);
    return NULL;
  }
  for (i = 0; i < n; i++)
    sizes[i] = ct_tensor_bytes (&t[i]);
  pool = gst_cuda_transpose_tensor_pool_new (pinning, caps, sizes, n,
      min_buffers, max_buffers);
  if (pool) {
    GstStructure *config = gst_buffer_pool_get_config (pool);

    gst_buffer_pool_config_get_params (config, NULL, total, NULL, NULL);
    gst_structure_free (config);
  }
  return pool;
}

/* Whether downstream offers system memory of its own making (a pool of a
 * special kind, or an allocator other than the default), which it then
 * gets; otherwise output comes from a pool of ours. */
gboolean
ct_pools_downstream_has_own_memory (GstQuery * query)
{
  GstAllocator *allocator = NULL, *sysmem = gst_allocator_find (NULL);
  GstBufferPool *pool = NULL;
  gboolean own = FALSE;

  if (gst_query_get_n_allocation_params (query) > 0)
    gst_query_parse_nth_allocation_param (query, 0, &allocator, NULL);
  own = allocator && allocator != sysmem;
  gst_clear_object (&allocator);

  if (!own && gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, NULL, NULL);
  if (pool) {
    GstStructure *config = gst_buffer_pool_get_config (pool);

    own = G_OBJECT_TYPE (pool) != GST_TYPE_BUFFER_POOL &&
        G_OBJECT_TYPE (pool) != GST_TYPE_VIDEO_BUFFER_POOL;
    if (!own && gst_buffer_pool_config_get_allocator (config, &allocator,
            NULL))
      own = allocator && allocator != sysmem;
    gst_structure_free (config);
    gst_object_unref (pool);
  }
  gst_object_unref (sysmem);
  return own;
}

/* Puts @pool first in the allocation @query, in place of downstream's. */
void
ct_pools_query_put (GstQuery * query, GstBufferPool * pool, guint size,
    guint min_buffers, guint max_buffers)
{
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min_buffers,
        max_buffers);
  else
    gst_query_add_allocation_pool (query, pool, size, min_buffers,
        max_buffers);
}

void
ct_pools_query_put_allocator (GstQuery * query, GstBufferPool * pool)
{
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstAllocator *allocator = NULL;
  GstAllocationParams params;

  gst_buffer_pool_config_get_allocator (config, &allocator, &params);
  if (gst_query_get_n_allocation_params (query) > 0)
    gst_query_set_nth_allocation_param (query, 0, allocator, &params);
  else
    gst_query_add_allocation_param (query, allocator, &params);
  gst_structure_free (config);
}

/* ---------------------------------------------------------------------- */
/* The allocation policy                                                    */

gboolean
ct_pools_propose (GstQuery * query, GstCudaContext * context,
    gpointer stream, GstCudaContext * pinning)
{
  GstBufferPool *pool;
  GstVideoInfo info;
  GstCaps *caps;
  gboolean cuda;
  guint size;

  /* any stride and plane offset upstream likes */
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);

  gst_query_parse_allocation (query, &caps, NULL);
  /* (tensors in CUDA memory: the element upstream has its own pool) */
  if (caps && ct_tensor_caps_is_tensor (gst_caps_get_structure (caps, 0)) &&
      ct_caps_is_cuda_memory (gst_caps_get_features (caps, 0)))
    return TRUE;
  if (caps && ct_tensor_caps_is_tensor (gst_caps_get_structure (caps, 0))) {
    /* Tensors: the pinned allocator, no pool. NNStreamer's elements
     * append the memories they make to the buffer the base class hands
     * them (tensor_transform's output size is 0): a pool's buffer would
     * already hold one, and the data would come as the second. */
    if (gst_query_get_n_allocation_params (query) == 0 && pinning) {
      GstAllocator *allocator = gst_cuda_transpose_pinned_allocator_new
          (pinning);

      GST_DEBUG ("proposing the pinned allocator for tensors");
      gst_query_add_allocation_param (query, allocator, NULL);
      gst_object_unref (allocator);
    }
    return TRUE;
  }
  if (!caps || !ct_caps_video_info (&info, caps))
    return FALSE;
  if (gst_query_get_n_allocation_pools (query) > 0)
    return TRUE;

  cuda = ct_caps_is_cuda_memory (gst_caps_get_features (caps, 0));
  if (cuda ? !context : !pinning)
    return TRUE;

  size = GST_VIDEO_INFO_SIZE (&info);
  pool = ct_pools_new_video (context, stream, pinning, caps, cuda, &size, 0,
      0);
  if (!pool)
    return TRUE;
  if (!cuda) {
    GstAllocator *allocator = gst_cuda_transpose_pinned_allocator_new
        (pinning);

    gst_query_add_allocation_param (query, allocator, NULL);
    gst_object_unref (allocator);
  }
  GST_DEBUG ("proposing a %s pool of %u-byte buffers", cuda ? "CUDA" :
      "pinned", size);
  gst_query_add_allocation_pool (query, pool, size, 0, 0);
  gst_object_unref (pool);
  return TRUE;
}

/* Tensor output: from a tensor pool of ours (pinned with @pinning),
 * unless downstream brings memory of its own or the tensors are too large
 * for a pool; then one memory per tensor (the element's own). */
static void
decide_tensors (GstQuery * query, GstCaps * caps, GstCudaContext * pinning)
{
  GstBufferPool *ours;
  guint total, min_buffers = 0, max_buffers = 0;
  gboolean have_pool = gst_query_get_n_allocation_pools (query) > 0;

  if (ct_pools_downstream_has_own_memory (query))
    return;
  if (have_pool)
    gst_query_parse_nth_allocation_pool (query, 0, NULL, NULL, &min_buffers,
        &max_buffers);
  /* more, for the buffers held back (frames-in-flight) */
  min_buffers += CT_FLIGHT_SLOTS - 1;
  if (max_buffers > 0)
    max_buffers += CT_FLIGHT_SLOTS - 1;
  ours = ct_pools_new_tensors (pinning, caps, min_buffers, max_buffers,
      &total);
  if (ours) {
    ct_pools_query_put (query, ours, total, min_buffers, max_buffers);
    GST_DEBUG ("tensor output from a pool of %u-byte buffers", total);
    gst_object_unref (ours);
  } else if (have_pool) {
    /* too large for a pool (or refused): memories of our own making */
    gst_query_remove_nth_allocation_pool (query, 0);
  }
}

/* Tensor output in CUDA memory: always from a pool of ours (one tensor a
 * buffer, as ct_caps_job let through), downstream's sizes of pool kept;
 * FALSE with @r set without a GPU or a pool. */
static gboolean
decide_cuda_tensors (GstQuery * query, GstCaps * caps,
    GstCudaContext * context, const gchar * no_gpu, CtRefusal * r)
{
  GstBufferPool *ours;
  gsize bytes = 0;
  guint min_buffers = 0, max_buffers = 0;

  if (!context) {
    CT_REFUSE (r, RESOURCE, OPEN_READ_WRITE, ("Tensors in CUDA memory "
            "(memory:CUDAMemory) need a CUDA GPU, but %s. Let the tensors be "
            "system memory (other/tensors) after cudatranspose.", no_gpu),
        (NULL));
    return FALSE;
  }
  if (!ct_caps_buffer_size (caps, &bytes) || bytes == 0) {
    CT_REFUSE (r, CORE, NEGOTIATION, (NULL), ("No tensor pool for %"
            GST_PTR_FORMAT, caps));
    return FALSE;
  }
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, NULL, NULL, &min_buffers,
        &max_buffers);
  ours = gst_cuda_transpose_cuda_tensor_pool_new (context, caps, bytes,
      min_buffers, max_buffers);
  if (!ours) {
    CT_REFUSE (r, RESOURCE, SETTINGS, (NULL), ("Could not configure a CUDA "
            "tensor pool for %" GST_PTR_FORMAT, caps));
    return FALSE;
  }
  ct_pools_query_put (query, ours, (guint) bytes, min_buffers, max_buffers);
  GST_DEBUG ("tensor output from a CUDA pool of %" G_GSIZE_FORMAT
      "-byte buffers", bytes);
  gst_object_unref (ours);
  return TRUE;
}

gboolean
ct_pools_decide (GstQuery * query, GstCudaContext * context,
    gpointer stream, GstCudaContext * pinning, const gchar * no_gpu,
    CtRefusal * r)
{
  GstBufferPool *pool = NULL, *ours;
  guint size, min_buffers = 0, max_buffers = 0;
  GstVideoInfo info;
  GstCaps *caps;
  gboolean cuda, have_pool;

  gst_query_parse_allocation (query, &caps, NULL);
  if (caps && ct_tensor_caps_is_tensor (gst_caps_get_structure (caps, 0))) {
    if (ct_caps_is_cuda_memory (gst_caps_get_features (caps, 0)))
      return decide_cuda_tensors (query, caps, context, no_gpu, r);
    decide_tensors (query, caps, pinning);
    return TRUE;
  }
  if (!caps || !ct_caps_video_info (&info, caps))
    return FALSE;
  cuda = ct_caps_is_cuda_memory (gst_caps_get_features (caps, 0));

  size = GST_VIDEO_INFO_SIZE (&info);
  have_pool = gst_query_get_n_allocation_pools (query) > 0;
  if (have_pool)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size,
        &min_buffers, &max_buffers);
  size = MAX (size, GST_VIDEO_INFO_SIZE (&info));

  if (cuda) {
    if (!context) {
      gst_clear_object (&pool);
      CT_REFUSE (r, RESOURCE, OPEN_READ_WRITE, ("Output in CUDA memory "
              "(memory:CUDAMemory) needs a CUDA GPU, but %s. Let the output "
              "be system memory (video/x-raw).", no_gpu), (NULL));
      return FALSE;
    }
    if (pool && (!GST_IS_CUDA_BUFFER_POOL (pool) ||
            GST_CUDA_BUFFER_POOL (pool)->context != context))
      gst_clear_object (&pool);
    if (pool) {
      /* (an active pool keeps its configuration: then frames are waited
       * for on the host) */
      if (!ct_order_pool_set (pool, stream))
        GST_DEBUG ("downstream's CUDA pool took no stream");
      GST_DEBUG ("using downstream's CUDA pool");
      gst_object_unref (pool);
      return TRUE;
    }
  } else if (ct_pools_downstream_has_own_memory (query)) {
    gst_clear_object (&pool);
    return TRUE;
  }
  gst_clear_object (&pool);

  /* host memory: more frames, for those held back (frames-in-flight,
   * which may be set while playing) */
  if (!cuda) {
    min_buffers += CT_FLIGHT_SLOTS - 1;
    if (max_buffers > 0)
      max_buffers += CT_FLIGHT_SLOTS - 1;
  }
  ours = ct_pools_new_video (context, stream, pinning, caps, cuda, &size,
      min_buffers, max_buffers);
  if (!ours) {
    CT_REFUSE (r, RESOURCE, SETTINGS, (NULL), ("Could not configure a %s "
            "buffer pool for %" GST_PTR_FORMAT, cuda ? "CUDA" : "host",
            caps));
    return FALSE;
  }
  ct_pools_query_put (query, ours, size, min_buffers, max_buffers);
  /* the base class configures the pool with the first allocator */
  if (!cuda)
    ct_pools_query_put_allocator (query, ours);
  GST_DEBUG ("output from a %s pool of %u-byte buffers", cuda ? "CUDA" :
      "host", size);
  gst_object_unref (ours);
  return TRUE;
}
