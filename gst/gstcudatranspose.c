/* GStreamer
 * Copyright (C) 2026 The cudatranspose authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/**
 * SECTION:element-cudatranspose
 * @title: cudatranspose
 *
 * Transposes raw video frames (mirrors them about the upper-left to
 * lower-right diagonal) plane by plane on an NVIDIA GPU: the output is
 * height x width, with the pixel-aspect-ratio inverted. Each plane is
 * uploaded, transposed by the kernel the #GstCudaTranspose:kernel property
 * picks, and downloaded into the output buffer. Without a CUDA device,
 * `kernel=auto` transposes on the CPU and posts a warning saying so.
 * #GstCudaTranspose:video-direction rotates or flips instead, as videoflip
 * does (#GstVideoDirection). NNStreamer tensors (other/tensors) are
 * transposed or permuted, with NNStreamer's arithmetic on the way
 * (#GstCudaTranspose:arithmetic). Frames and tensors go in and out in
 * system memory or in CUDA memory (memory:CUDAMemory); tensors stay in
 * system memory unless the caps after the element ask for CUDA memory.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=1 ! video/x-raw,width=640,height=360 ! cudatranspose ! videoconvert ! pngenc ! filesink location=output.png
 * ]| Transposes one test frame and writes it as PNG (pipelines/png-demo.sh).
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=I420,width=1280,height=720 ! cudatranspose kernel=tiled-padded ! videoconvert ! autovideosink
 * ]| Shows the transposed test pattern with a chosen kernel.
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=30 pattern=smpte ! video/x-raw,format=RGB,width=224,height=224 ! cudatranspose arithmetic=typecast:float32,add:-127.5,div:127.5 ! other/tensors,format=static ! filesink location=out/frames.f32.chw
 * ]| Turns RGB frames into normalized float32 CHW tensors, NNStreamer's
 * arithmetic fused with the layout change (pipelines/preprocess.sh).
 * |[
 * gst-launch-1.0 filesrc location=portrait.mp4 ! decodebin ! cudatranspose video-direction=auto ! videoconvert ! autovideosink
 * ]| Turns a clip upright as its image-orientation tag asks.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudatranspose.h"

#include <string.h>
#include <gst/video/video.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudautils.h>

#include "cudatranspose-kernels.h"
#include "gstcudatransposebuffers.h"
#include "gstcudatransposecaps.h"
#include "gstcudatransposedirection.h"
#include "gstcudatransposeflight.h"
#include "gstcudatransposegpu.h"
#include "gstcudatransposejob.h"
#include "gstcudatransposepools.h"
#include "gstcudatransposeproperties.h"
#include "gstcudatransposesettings.h"
#include "gstcudatransposeprivate.h"
#include "gstcudatransposeorder.h"

GST_DEBUG_CATEGORY (gst_cuda_transpose_debug);
#define GST_CAT_DEFAULT gst_cuda_transpose_debug

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS (CT_CAPS_TEMPLATE));

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS (CT_CAPS_TEMPLATE));

static GParamSpec *active_kernel_pspec;

#define gst_cuda_transpose_parent_class parent_class
static void
gst_cuda_transpose_direction_init (GstVideoDirectionInterface * iface)
{
  /* the interface is its video-direction property */
}

G_DEFINE_TYPE_WITH_CODE (GstCudaTranspose, gst_cuda_transpose,
    GST_TYPE_BASE_TRANSFORM, G_IMPLEMENT_INTERFACE (GST_TYPE_VIDEO_DIRECTION,
        gst_cuda_transpose_direction_init));

GstBaseTransformClass *
gst_cuda_transpose_base_class (void)
{
  return GST_BASE_TRANSFORM_CLASS (parent_class);
}

GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (cudatranspose, "cudatranspose",
    GST_RANK_NONE, GST_TYPE_CUDA_TRANSPOSE,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_transpose_debug, "cudatranspose", 0,
        "CUDA transpose"));

/* ---------------------------------------------------------------------- */
/* Messages                                                                 */

/* Posts @r (taken) as a message of @type. */
void
gst_cuda_transpose_post_as (GstCudaTranspose * self, GstMessageType type,
    CtRefusal * r)
{
  gst_element_message_full (GST_ELEMENT (self), type,
      r->domain, r->code, g_steal_pointer (&r->text),
      g_steal_pointer (&r->debug), r->file, r->function, r->line);
  ct_refusal_clear (r);
}

/* Posts @r (taken), the one error of a refusal. */
void
gst_cuda_transpose_post (GstCudaTranspose * self, CtRefusal * r)
{
  gst_cuda_transpose_post_as (self, GST_MESSAGE_ERROR, r);
}

/* ---------------------------------------------------------------------- */
/* What other threads read                                                  */

/* Publishes what other threads read of the streaming state when it
 * changed; a new hold period is posted (the pipeline asks again). */
void
gst_cuda_transpose_publish (GstCudaTranspose * self)
{
  CtPublished now;

  memset (&now, 0, sizeof (now));
  now.have_gpu = self->gpu.stream != NULL;
  now.video_out = self->job->mode == CT_JOB_VIDEO;
  now.mapping = self->job->mapping;
  now.out_width = GST_VIDEO_INFO_WIDTH (&self->job->out_info);
  now.out_height = GST_VIDEO_INFO_HEIGHT (&self->job->out_info);
  now.period = self->flight.period;
  if (memcmp (&now, &self->shown, sizeof (now)) == 0)
    return;
  GST_OBJECT_LOCK (self);
  self->published = now;
  GST_OBJECT_UNLOCK (self);
  if (now.period != self->shown.period ||
      now.have_gpu != self->shown.have_gpu)
    gst_element_post_message (GST_ELEMENT (self),
        gst_message_new_latency (GST_OBJECT (self)));
  self->shown = now;
}

GstClockTime
gst_cuda_transpose_latency (GstCudaTranspose * self)
{
  GstClockTime period;
  gboolean have_gpu;
  guint frames;
  CtKernel kernel;

  GST_OBJECT_LOCK (self);
  period = self->published.period;
  have_gpu = self->published.have_gpu;
  GST_OBJECT_UNLOCK (self);
  kernel = ct_settings_running (&self->settings, &frames);
  return ct_flight_hold_period (period, frames, have_gpu &&
      kernel != CT_KERNEL_CPU);
}

/* ---------------------------------------------------------------------- */
/* Caps and jobs                                                            */

/* The settings now, or the caps query's under way (an invalid
 * permutation offers what an unset one does, so that pipelines link:
 * start () and set_caps refuse it, quoting it). Any thread; the
 * streaming thread's own renegotiation remembers what it made caps
 * for. */
static GstCaps *
gst_cuda_transpose_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCudaTranspose *self = GST_CUDA_TRANSPOSE (trans);
  const CtJobSettings *in_query = gst_cuda_transpose_query_settings (self);
  CtJobSettings *js = NULL;
  GstCaps *ret;

  if (!in_query) {
    js = g_new (CtJobSettings, 1);
    ct_settings_job (&self->settings, js);
    if (direction == GST_PAD_SINK &&
        g_atomic_pointer_get (&self->streaming_thread) == g_thread_self ())
      self->renegotiated_for = *js;
  }
  ret = gst_cuda_transpose_transform_for (self, caps, direction,
      in_query ? in_query : js, filter);
  g_free (js);
  GST_DEBUG_OBJECT (trans, "%s caps %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SINK ? "sink" : "src", caps, ret);
  return ret;
}

/* The same memory first, what would only be refused last, then the base
 * class's fixation; the fixed side's colorimetry kept. */
static GstCaps *
gst_cuda_transpose_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps)
{
  othercaps = ct_caps_refused_last (caps, ct_caps_same_memory_first (caps,
          othercaps));
  return ct_caps_keep_colorimetry (caps,
      GST_BASE_TRANSFORM_CLASS (parent_class)->fixate_caps (trans, direction,
          caps, othercaps));
}

static gboolean
gst_cuda_transpose_transform_size (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, gsize size,
    GstCaps * othercaps, gsize * othersize)
{
  return ct_caps_buffer_size (othercaps, othersize);
}

/* ---------------------------------------------------------------------- */
/* GPU                                                                      */

/* Whether the GPU can be used (then held until stop ()); if not,
 * self->gpu.failure says why. The streaming thread, or start (). */
static gboolean
gst_cuda_transpose_open_gpu (GstCudaTranspose * self, gint device_id)
{
  gboolean ok;

  if (self->gpu.stream)
    return TRUE;
  ok = ct_gpu_open (&self->gpu, device_id);
  gst_cuda_transpose_publish (self);
  return ok;
}

/* Posts the one error of a failed transform (ct_gpu_refusal). Also the
 * flight's report of a frame that failed on the GPU. */
static void
gst_cuda_transpose_error (gpointer element, gint kernel, CtStep step,
    CtResult res)
{
  GstCudaTranspose *self = GST_CUDA_TRANSPOSE (element);
  CtRefusal r = { 0, };

  ct_gpu_refusal (&self->gpu, self->job, ct_kernel_name ((CtKernel) kernel),
      step, res, &r);
  gst_cuda_transpose_post (self, &r);
}

/* The flight's way out: a held frame pushed. */
static GstFlowReturn
gst_cuda_transpose_push_held (gpointer element, GstBuffer * buf)
{
  return gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (element), buf);
}

static const CtFlightGpu flight_gpu = { ct_gpu_wait_slot, ct_gpu_slot_done };

/* ---------------------------------------------------------------------- */
/* Allocation (the streaming thread)                                        */

/* Whether a GPU kernel may run: a pinned pool only pays off then. */
static gboolean
gst_cuda_transpose_wants_gpu (GstCudaTranspose * self)
{
  gint device_id;

  return ct_settings_kernel (&self->settings, &device_id) != CT_KERNEL_CPU &&
      gst_cuda_transpose_open_gpu (self, device_id);
}

/* The context host memory is pinned with: ours when a GPU kernel may run,
 * else NULL (pageable memory; pinning only pays off for copies). */
static GstCudaContext *
gst_cuda_transpose_pinning_context (GstCudaTranspose * self)
{
  return gst_cuda_transpose_wants_gpu (self) ? self->gpu.context : NULL;
}

/* The GPU's context for @query's caps if they are CUDA memory and a GPU
 * can be used, else NULL. */
static GstCudaContext *
gst_cuda_transpose_cuda_context (GstCudaTranspose * self, GstQuery * query)
{
  GstCaps *caps;
  gint device_id;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || gst_caps_is_empty (caps) ||
      !ct_caps_is_cuda_memory (gst_caps_get_features (caps, 0)))
    return NULL;
  ct_settings_kernel (&self->settings, &device_id);
  return gst_cuda_transpose_open_gpu (self, device_id) ? self->gpu.context :
      NULL;
}

/* The allocation policy is the pools module's (ct_pools_propose). */
static gboolean
gst_cuda_transpose_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCudaTranspose *self = GST_CUDA_TRANSPOSE (trans);
  GstCudaContext *context;

  if (!GST_BASE_TRANSFORM_CLASS (parent_class)->propose_allocation (trans,
          decide_query, query))
    return FALSE;
  /* (a CUDA pool proposed carries the stream of the element's GPU) */
  context = gst_cuda_transpose_cuda_context (self, query);
  return ct_pools_propose (query, context, context ? self->gpu.pool_stream :
      NULL, gst_cuda_transpose_pinning_context (self));
}

/* ... and so is the output's (ct_pools_decide); its refusal is posted. */
static gboolean
gst_cuda_transpose_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  GstCudaTranspose *self = GST_CUDA_TRANSPOSE (trans);
  GstCudaContext *context = gst_cuda_transpose_cuda_context (self, query);
  CtRefusal r = { 0, };

  if (!ct_pools_decide (query, context, context ? self->gpu.pool_stream :
          NULL, gst_cuda_transpose_pinning_context (self), self->gpu.failure,
          &r)) {
    if (r.domain)
      gst_cuda_transpose_post (self, &r);
    return FALSE;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (trans,
      query);
}

/* ---------------------------------------------------------------------- */
/* Input checks and output buffers                                          */

/* An output buffer for the job's tensors (ct_buffers_new_tensors) from
 * downstream's allocator, or else a fallible one of ours; @flexible ones
 * start with their headers. */
static GstFlowReturn
gst_cuda_transpose_alloc_tensors (GstCudaTranspose * self, GstBuffer * inbuf,
    gboolean flexible, GstBuffer ** outbuf)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstAllocator *allocator = NULL, *sysmem;
  GstAllocationParams params;
  CtRefusal r = { 0, };

  gst_base_transform_get_allocator (trans, &allocator, &params);
  sysmem = gst_allocator_find (NULL);
  if (!allocator || allocator == sysmem) {
    /* GStreamer's system allocator aborts when it cannot allocate */
    gst_clear_object (&allocator);
    if (!self->tensor_allocator)
      self->tensor_allocator = gst_cuda_transpose_pinned_allocator_new (NULL);
    allocator = gst_object_ref (self->tensor_allocator);
  }
  gst_object_unref (sysmem);
  *outbuf = ct_buffers_new_tensors (self->job, allocator, &params, flexible,
      &self->flex_out, &r);
  gst_object_unref (allocator);
  if (!*outbuf) {
    gst_cuda_transpose_post (self, &r);
    return GST_FLOW_ERROR;
  }
  if (GST_BASE_TRANSFORM_GET_CLASS (trans)->copy_metadata)
    GST_BASE_TRANSFORM_GET_CLASS (trans)->copy_metadata (trans, inbuf,
        *outbuf);
  return GST_FLOW_OK;
}

/* Flexible tensors: the job from the input's headers, and an output
 * buffer with the headers rearranged. */
static GstFlowReturn
gst_cuda_transpose_prepare_flexible (GstCudaTranspose * self,
    GstBuffer * inbuf, GstBuffer ** outbuf)
{
  CtRefusal r = { 0, };

  if (!ct_buffers_follow_flexible (self->job, inbuf, &self->flex_in, &r)) {
    gst_cuda_transpose_post (self, &r);
    return GST_FLOW_ERROR;
  }
  GST_LOG_OBJECT (self, "flexible: %u tensors, %" G_GUINT64_FORMAT " bytes",
      self->job->n_tensors, self->job->tensor_bytes);
  return gst_cuda_transpose_alloc_tensors (self, inbuf, TRUE, outbuf);
}

/* The input is checked against the caps before any output is allocated.
 * Output comes from the negotiated pool (ours are fallible); tensors
 * without our tensor pool get one memory each, as NNStreamer makes them,
 * from downstream's own allocator or else a fallible one of ours. */
static GstFlowReturn
gst_cuda_transpose_prepare_output_buffer (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer ** outbuf)
{
  GstCudaTranspose *self = GST_CUDA_TRANSPOSE (trans);
  GstBufferPool *pool;
  GstFlowReturn ret;
  const CtJob *job = self->job;
  gboolean tensors, tensor_pool;
  CtRefusal r = { 0, };

  if (job->mode == CT_JOB_NONE) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("A buffer came before any caps were negotiated"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  /* a buffer to transform: the caps the pads hold were taken (again) */
  if (self->refused) {
    self->refused = FALSE;
    gst_clear_caps (&self->refused_in);
    gst_clear_caps (&self->refused_out);
  }
  if (self->flexible)
    return gst_cuda_transpose_prepare_flexible (self, inbuf, outbuf);
  /* tensors in and out; video in (and video or a tensor out) */
  tensors = ct_job_takes_tensors (job);
  if (tensors ? !ct_buffers_check_tensors (job, inbuf, &r) :
      !ct_buffers_check_frame (job, inbuf, &r)) {
    gst_cuda_transpose_post (self, &r);
    return GST_FLOW_ERROR;
  }

  pool = gst_base_transform_get_buffer_pool (trans);
  tensor_pool = pool && GST_IS_CUDA_TRANSPOSE_TENSOR_POOL (pool);
  if (!tensors || tensor_pool) {
    /* the base class takes a buffer from the pool (and activates it) */
    ret = GST_BASE_TRANSFORM_CLASS (parent_class)->prepare_output_buffer
        (trans, inbuf, outbuf);
    /* (a pool that failed to activate has been reported already) */
    if (ret == GST_FLOW_ERROR && pool && gst_buffer_pool_is_active (pool))
      GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT, ("Could not "
              "allocate an output buffer."), ("The output pool %"
              GST_PTR_FORMAT " could not give a buffer", pool));
    gst_clear_object (&pool);
    return ret;
  }
  gst_clear_object (&pool);

  return gst_cuda_transpose_alloc_tensors (self, inbuf, FALSE, outbuf);
}

/* ---------------------------------------------------------------------- */
/* Streaming                                                                */

static gboolean
gst_cuda_transpose_start (GstBaseTransform * trans)
{
  GstCudaTranspose *self = GST_CUDA_TRANSPOSE (trans);
  CtRefusal r = { 0, };
  CtKernel kernel;
  gint device_id;

  self->refused = FALSE;
  gst_clear_caps (&self->refused_in);
  gst_clear_caps (&self->refused_out);
  if (!ct_settings_start (&self->settings, &kernel, &device_id, &r)) {
    gst_cuda_transpose_post (self, &r);
    return FALSE;
  }
  if (!ct_gpu_start (&self->gpu, device_id, kernel, &r)) {
    gst_cuda_transpose_post (self, &r);
    ct_settings_stop (&self->settings);
    return FALSE;
  }
  ct_settings_snapshot (&self->settings, &self->snap);
  self->start_version = self->snap.job.version;
  gst_cuda_transpose_publish (self);
  return TRUE;
}

static gboolean
gst_cuda_transpose_stop (GstBaseTransform * trans)
{
  GstCudaTranspose *self = GST_CUDA_TRANSPOSE (trans);

  ct_flight_stop_releaser (&self->flight);
  ct_flight_drain (&self->flight, FALSE);
  ct_gpu_close (&self->gpu);
  ct_settings_stop (&self->settings);
  self->refused = FALSE;
  gst_clear_caps (&self->refused_in);
  gst_clear_caps (&self->refused_out);
  gst_clear_object (&self->tensor_allocator);
  GST_OBJECT_LOCK (self);
  gst_clear_caps (&self->unoffered);
  GST_OBJECT_UNLOCK (self);
  /* the next stream negotiates anew, and brings its own tags */
  memset (self->job, 0, sizeof (*self->job));
  memset (&self->made_for, 0, sizeof (self->made_for));
  self->flexible = FALSE;
  ct_flight_set_period (&self->flight, 0);
  gst_cuda_transpose_publish (self);
  g_clear_pointer (&self->stream_id, g_free);
  if (ct_settings_reset_tags (&self->settings) & CT_SETTINGS_RECONFIGURE)
    gst_base_transform_reconfigure_src (trans);
  return TRUE;
}

/* The variant this buffer runs (ct_gpu_resolve), its warning posted. */
static GstCudaTransposeKernel
gst_cuda_transpose_resolve_kernel (GstCudaTranspose * self)
{
  CtRefusal warning = { 0, };
  CtKernel kernel;
  gboolean had_gpu = self->gpu.stream != NULL;

  kernel = ct_gpu_resolve (&self->gpu, self->snap.device_id,
      self->snap.kernel, &warning);
  if (warning.domain)
    gst_cuda_transpose_post_as (self, GST_MESSAGE_WARNING, &warning);
  if (had_gpu != (self->gpu.stream != NULL))
    gst_cuda_transpose_publish (self);
  return (GstCudaTransposeKernel) kernel;
}

static void
gst_cuda_transpose_set_active (GstCudaTranspose * self, CtPath path)
{
  if (ct_settings_set_active (&self->settings, path)) {
    GST_DEBUG_OBJECT (self, "now transposing by path %s",
        ct_path_name (path));
    g_object_notify_by_pspec (G_OBJECT (self), active_kernel_pspec);
  }
}

/* Every job goes the same way: kernel resolved, buffers mapped as the
 * job's pieces, then the CPU or the one device routine, one error if that
 * fails. */
static GstFlowReturn
gst_cuda_transpose_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstCudaTranspose *self = GST_CUDA_TRANSPOSE (trans);
  GstCudaTransposeKernel kernel;
  gboolean in_dev = FALSE, out_dev = FALSE, left = FALSE;
  GstClockTime hold = 0;
  CtPath ran = CT_PATH_CPU;
  CtMapped in, out;
  CtResult res = CT_OK;
  CtRefusal r = { 0, };
  CtStep step = CT_STEP_CONTEXT;
  CtStream producer = NULL, consumer = NULL;
  gint slot = -1;

  kernel = gst_cuda_transpose_resolve_kernel (self);
  /* CUDA memory is read and written in place (on the GPU, whatever the
   * kernel: ct_gpu_place): frames, and one static tensor a buffer;
   * flexible tensors are system memory only */
  if (!self->flexible) {
    in_dev = ct_gpu_holds (&self->gpu, inbuf);
    out_dev = ct_gpu_holds (&self->gpu, outbuf);
    kernel = (GstCudaTransposeKernel) ct_gpu_place (&self->gpu,
        (CtKernel) kernel, in_dev || out_dev, &r);
    if (r.domain)
      gst_cuda_transpose_post_as (self, GST_MESSAGE_WARNING, &r);
  }
  /* CUDA memory on both sides whose output carries a stream (1.24+):
   * ordered on the streams, not waited for on the host where the input
   * carries one too (gstcudatransposeorder.h) */
  if (in_dev && out_dev)
    consumer = ct_order_buffer_stream (outbuf);
  if (consumer)
    producer = ct_order_buffer_stream (inbuf);
  if (!ct_buffers_map (self->job, self->flexible ? &self->flex_in : NULL,
          self->flexible ? &self->flex_out : NULL, inbuf, in_dev, &in, outbuf,
          out_dev, &out, &r)) {
    gst_cuda_transpose_post (self, &r);
    return GST_FLOW_ERROR;
  }

  GST_LOG_OBJECT (self, "%s with %s, %s memory to %s memory",
      ct_job_what (self->job), ct_kernel_name ((CtKernel) kernel),
      in_dev ? "CUDA" : "system", out_dev ? "CUDA" : "system");

  if (in_dev && !producer)
    ct_order_wait_producer (inbuf);
  if (kernel == GST_CUDA_TRANSPOSE_KERNEL_CPU) {
    res = ct_job_run_cpu (self->job, in.spans, out.spans, &step);
  } else if (self->gpu.context &&
      gst_cuda_context_push (self->gpu.context)) {
    /* the flight module says whether this frame may be held, and in
     * which slot (a frame that may not waits for the held one) */
    hold = ct_flight_hold_for (&self->flight, self->snap.frames_in_flight,
        TRUE);
    res = ct_flight_make_room (&self->flight, hold, &slot, &step);
    if (res == CT_OK && consumer)
      res = ct_gpu_run_ordered (&self->gpu, self->job, (CtKernel) kernel,
          in.spans, out.spans, producer, consumer, &step, &ran);
    else if (res == CT_OK)
      res = ct_gpu_run (&self->gpu, self->job, (CtKernel) kernel, in.spans,
          in_dev, out.spans, out_dev, hold > 0 ? slot : -1, &left, &step,
          &ran);
    gst_cuda_context_pop (NULL);
  } else {
    res = CT_ERROR_INVALID_ARGUMENT;   /* the step says what failed */
  }
  if (res == CT_OK)
    gst_cuda_transpose_set_active (self, ran);
  if (res == CT_OK && left) {
    /* generate_output takes it from here */
    ct_flight_queue (&self->flight, slot, &in, &out, kernel, hold);
    return GST_FLOW_OK;
  }

  ct_buffers_unmap (&out);
  ct_buffers_unmap (&in);
  if (res != CT_OK) {
    gst_cuda_transpose_error (self, kernel, step, res);
    return GST_FLOW_ERROR;
  }
  /* (a CUDA map for writing flags a memory with a stream pending) */
  if (consumer)
    ct_order_mark (outbuf, producer != NULL);
  return GST_FLOW_OK;
}

/* The base class's output, one frame behind where transform () left one
 * in flight (ct_flight_output). */
static GstFlowReturn
gst_cuda_transpose_generate_output (GstBaseTransform * trans,
    GstBuffer ** outbuf)
{
  GstCudaTranspose *self = GST_CUDA_TRANSPOSE (trans);
  GstBuffer *fresh = NULL;
  GstFlowReturn ret;

  if (ct_flight_take_ready (&self->flight, outbuf))
    return GST_FLOW_OK;
  ret = GST_BASE_TRANSFORM_CLASS (parent_class)->generate_output (trans,
      &fresh);
  return ct_flight_output (&self->flight, ret, fresh, outbuf);
}

/* Controlled properties (video-direction) take their values for this
 * buffer's stream time, as videoflip does. The base class calls this
 * before it takes the buffer: a change goes the way a property set does
 * (a new version of the settings, a reconfigure), and this buffer already
 * takes it. (Tensors from a file come in a BYTES segment: no stream
 * time.) */
static void
gst_cuda_transpose_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer)
{
  GstClockTime stream_time;

  if (trans->segment.format != GST_FORMAT_TIME)
    return;
  stream_time = gst_segment_to_stream_time (&trans->segment,
      GST_FORMAT_TIME, GST_BUFFER_PTS (buffer));
  if (GST_CLOCK_TIME_IS_VALID (stream_time))
    gst_object_sync_values (GST_OBJECT (trans), stream_time);
}

/* Every buffer starts here, in the streaming thread: the settings read
 * once (the snapshot this buffer runs with), a change since the job
 * followed, what other threads read published. A discontinuity drains
 * first (the base class marks the next buffer it pushes, which must be
 * the first after the gap; so does a gap it made, dropping a late buffer
 * for QoS), and so does a renegotiation (a new setting, or downstream's
 * wish), which the base class runs before this buffer: the held frame
 * goes out under its own caps. */
static GstFlowReturn
gst_cuda_transpose_submit_input_buffer (GstBaseTransform * trans,
    gboolean is_discont, GstBuffer * input)
{
  GstCudaTranspose *self = GST_CUDA_TRANSPOSE (trans);
  GstFlowReturn ret;
  guint64 negotiated = self->negotiated;
  gboolean changed;

  ct_settings_snapshot (&self->settings, &self->snap);
  g_atomic_pointer_set (&self->streaming_thread, g_thread_self ());
  changed = self->job->mode != CT_JOB_NONE &&
      self->snap.job.version > self->made_for.version;
  if (changed)
    gst_cuda_transpose_follow (self);
  gst_cuda_transpose_publish (self);

  ret = ct_flight_before_input (&self->flight, &input,
      gst_pad_needs_reconfigure (GST_BASE_TRANSFORM_SRC_PAD (trans)));
  if (ret != GST_FLOW_OK) {
    gst_buffer_unref (input);
    return ret;
  }
  self->renegotiated_for.version = 0;
  ret = GST_BASE_TRANSFORM_CLASS (parent_class)->submit_input_buffer (trans,
      is_discont, input);
  if (ret == GST_BASE_TRANSFORM_FLOW_DROPPED)
    ct_flight_dropped (&self->flight);
  if (ret == GST_FLOW_NOT_NEGOTIATED && !self->refused) {
    GstCaps *incaps = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SINK_PAD
        (trans));
    CtJobSettings *now = g_new (CtJobSettings, 1);

    /* the renegotiation found nothing downstream takes: after a change,
     * the caps it needs */
    ct_settings_job (&self->settings, now);
    if (incaps)
      gst_cuda_transpose_explain_output (self, incaps,
          now->version > self->made_for.version);
    gst_clear_caps (&incaps);
    g_free (now);
  }
  if (ret == GST_FLOW_OK && negotiated == self->negotiated &&
      self->job->mode != CT_JOB_NONE &&
      self->renegotiated_for.version > self->made_for.version &&
      !gst_cuda_transpose_kept_caps (self)) {
    gst_clear_buffer (&trans->queued_buf);
    return GST_FLOW_ERROR;
  }
  return ret;
}

/* ---------------------------------------------------------------------- */
/* GObject                                                                  */

/* The settings module checks and keeps the values (ct_settings_set); a
 * change of what a job is made for only asks for a reconfigure, as
 * cudaconvertscale does: the streaming thread applies it at its next
 * buffer (gst_cuda_transpose_follow), renegotiating where the caps must
 * change. A change of what a held frame adds to the latency tells the
 * pipeline. Any thread. */
static void
gst_cuda_transpose_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaTranspose *self = GST_CUDA_TRANSPOSE (object);
  CtSettingsChange change;

  if (!ct_settings_set (&self->settings, prop_id, value, &change))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  if (change & CT_SETTINGS_RECONFIGURE)
    gst_base_transform_reconfigure_src (GST_BASE_TRANSFORM (self));
  /* (the pipeline asks the latency again) */
  if (change & CT_SETTINGS_LATENCY)
    gst_element_post_message (GST_ELEMENT (self),
        gst_message_new_latency (GST_OBJECT (self)));
}

static void
gst_cuda_transpose_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaTranspose *self = GST_CUDA_TRANSPOSE (object);

  if (!ct_settings_get (&self->settings, prop_id, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gst_cuda_transpose_finalize (GObject * object)
{
  GstCudaTranspose *self = GST_CUDA_TRANSPOSE (object);

  ct_flight_clear (&self->flight);
  ct_gpu_close (&self->gpu);
  ct_settings_clear (&self->settings);
  gst_clear_caps (&self->refused_in);
  gst_clear_caps (&self->refused_out);
  gst_clear_caps (&self->unoffered);
  gst_clear_object (&self->tensor_allocator);
  g_free (self->stream_id);
  g_free (self->job);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_cuda_transpose_class_init (GstCudaTransposeClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_cuda_transpose_set_property;
  gobject_class->get_property = gst_cuda_transpose_get_property;
  gobject_class->finalize = gst_cuda_transpose_finalize;

  /* the properties and their documentation: gstcudatransposeproperties.c */
  active_kernel_pspec = ct_properties_install (gobject_class);

  gst_element_class_set_static_metadata (element_class,
      "CUDA transpose", "Filter/Converter/Video/Tensor",
      "Transposes, rotates or flips raw video frames plane by plane, and "
      "transposes or permutes NNStreamer tensors (other/tensors), on an "
      "NVIDIA GPU; on the CPU where there is none (kernel=auto)",
      "The cudatranspose authors");
  gst_element_class_add_metadata (element_class,
      GST_ELEMENT_METADATA_DOC_URI, CT_DOC_URI);
  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);

  element_class->set_context =
      GST_DEBUG_FUNCPTR (gst_cuda_transpose_set_context);

  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_transpose_transform_caps);
  trans_class->fixate_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_transpose_fixate_caps);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cuda_transpose_set_caps);
  trans_class->transform_size =
      GST_DEBUG_FUNCPTR (gst_cuda_transpose_transform_size);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_transpose_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_transpose_decide_allocation);
  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_transpose_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_transpose_stop);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cuda_transpose_transform);
  trans_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_cuda_transpose_prepare_output_buffer);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cuda_transpose_query);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cuda_transpose_before_transform);
  trans_class->submit_input_buffer =
      GST_DEBUG_FUNCPTR (gst_cuda_transpose_submit_input_buffer);
  trans_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_cuda_transpose_generate_output);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cuda_transpose_sink_event);
  trans_class->src_event = GST_DEBUG_FUNCPTR (gst_cuda_transpose_src_event);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_TRANSPOSE_KERNEL, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_TRANSPOSE_PATH, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_TRANSPOSE_METHOD, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_TRANSPOSE_CHANNEL_ORDER, 0);
}

static void
gst_cuda_transpose_init (GstCudaTranspose * self)
{
  ct_settings_init (&self->settings, GST_ELEMENT (self));
  self->gpu.element = GST_ELEMENT (self);
  self->gpu.warned_kernel = CT_KERNEL_AUTO;
  self->job = g_new0 (CtJob, 1);
  ct_flight_init (&self->flight, GST_OBJECT (self),
      GST_PAD_GET_STREAM_LOCK (GST_BASE_TRANSFORM_SINK_PAD (self)),
      gst_cuda_transpose_push_held, gst_cuda_transpose_error, self,
      &flight_gpu, &self->gpu);
  /* late buffers are dropped, as GstVideoFilter does (docs/design.md) */
  gst_base_transform_set_qos_enabled (GST_BASE_TRANSFORM (self), TRUE);
}
