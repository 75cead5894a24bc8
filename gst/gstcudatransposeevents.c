/* GStreamer
 * Copyright (C) 2026 The cudatranspose authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The element's events, context and queries: orientation tags, events
 * held while caps stand refused or a frame is held, navigation mapped
 * back onto the input, the CUDA context shared with neighbours, the
 * latency a held frame adds, caps asked of a CUDA-capable upstream. Events
 * in the streaming thread; context and queries from any thread. Which
 * thread owns what: docs/design.md, "Threads and locks". */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/video/video.h>

#include "gstcudatransposecaps.h"
#include "gstcudatransposedirection.h"
#include "gstcudatransposeprivate.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_transpose_debug);
#define GST_CAT_DEFAULT gst_cuda_transpose_debug

/* Events: orientation tags, navigation */

/* An event that comes while the caps stand refused: a sticky one (but EOS)
 * is kept on the source pad, to go with the next data, a segment also
 * taken as the base class takes it; the others are dropped. */
static gboolean
gst_cuda_transpose_hold_event (GstCudaTranspose * self, GstEvent * event)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  gboolean kept = FALSE;

  if (GST_EVENT_TYPE (event) == GST_EVENT_SEGMENT)
    gst_event_copy_segment (event, &trans->segment);
  if (GST_EVENT_IS_STICKY (event) && GST_EVENT_TYPE (event) != GST_EVENT_EOS)
    kept = gst_pad_store_sticky_event (GST_BASE_TRANSFORM_SRC_PAD (trans),
        event) == GST_FLOW_OK;
  GST_DEBUG_OBJECT (self, "caps refused: %s %s", kept ? "keeping" :
      "dropping", GST_EVENT_TYPE_NAME (event));
  gst_event_unref (event);
  return kept;
}

/* A TAG event's orientation taken; under video-direction=auto the event
 * given back says rotate-0, the frames being upright now. @event is
 * taken. */
static GstEvent *
gst_cuda_transpose_take_tags (GstCudaTranspose * self, GstEvent * event)
{
  GstTagList *tags, *rewritten = NULL;

  gst_event_parse_tag (event, &tags);
  if (ct_settings_take_tags (&self->settings, tags, &rewritten) &
      CT_SETTINGS_RECONFIGURE)
    gst_base_transform_reconfigure_src (GST_BASE_TRANSFORM (self));
  if (rewritten) {
    /* (the event and its list may be shared: a new one of each) */
    gst_event_unref (event);
    event = gst_event_new_tag (rewritten);
  }
  return event;
}

/* A new stream starts with no orientation from tags. */
static void
gst_cuda_transpose_stream_start (GstCudaTranspose * self, GstEvent * event)
{
  const gchar *stream_id = NULL;

  gst_event_parse_stream_start (event, &stream_id);
  if (g_strcmp0 (stream_id, self->stream_id) == 0)
    return;
  g_free (self->stream_id);
  self->stream_id = g_strdup (stream_id);
  if (ct_settings_reset_tags (&self->settings) & CT_SETTINGS_RECONFIGURE)
    gst_base_transform_reconfigure_src (GST_BASE_TRANSFORM (self));
}

gboolean
gst_cuda_transpose_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaTranspose *self = GST_CUDA_TRANSPOSE (trans);
  GstFlowReturn ret;
  GstCaps *caps = NULL;
  gboolean ok;

  if (GST_EVENT_TYPE (event) == GST_EVENT_TAG)
    event = gst_cuda_transpose_take_tags (self, event);
  /* after caps refused (the error posted), nothing goes downstream until
   * a buffer is transformed again: a sink that prerolled on a gap or EOS
   * would let the pipeline go on as if nothing had failed. Sticky events
   * wait on the source pad (they go with the next data), the others are
   * dropped. */
  if (self->refused && GST_EVENT_IS_SERIALIZED (event) &&
      GST_EVENT_TYPE (event) != GST_EVENT_CAPS &&
      GST_EVENT_TYPE (event) != GST_EVENT_FLUSH_STOP &&
      GST_EVENT_TYPE (event) != GST_EVENT_STREAM_START)
    return gst_cuda_transpose_hold_event (self, event);

  /* a held frame goes out before anything that follows it (EOS, caps,
   * segments, gaps, tags); a flush drops it */
  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP) {
    ct_flight_drain (&self->flight, FALSE);
  } else if (GST_EVENT_IS_SERIALIZED (event)) {
    ret = ct_flight_drain (&self->flight, TRUE);
    if (ret != GST_FLOW_OK)
      GST_DEBUG_OBJECT (self, "pushing the held frame before %s: %s",
          GST_EVENT_TYPE_NAME (event), gst_flow_get_name (ret));
  }

  if (GST_EVENT_TYPE (event) == GST_EVENT_STREAM_START)
    gst_cuda_transpose_stream_start (self, event);
  if (GST_EVENT_TYPE (event) == GST_EVENT_CAPS) {
    gst_event_parse_caps (event, &caps);
    gst_caps_ref (caps);
  }
  ok = gst_cuda_transpose_base_class ()->sink_event (trans, event);
  /* caps downstream takes nothing of (set_caps never saw them): why; but
   * caps that failed only because a flush came are no one's fault */
  if (caps && !ok && !self->refused &&
      !GST_PAD_IS_FLUSHING (GST_BASE_TRANSFORM_SRC_PAD (trans)))
    gst_cuda_transpose_explain_output (self, caps, FALSE);
  gst_clear_caps (&caps);
  return ok;
}

/* A pointer on the output is mapped back onto the input frame (any
 * thread: the published job). */
gboolean
gst_cuda_transpose_src_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaTranspose *self = GST_CUDA_TRANSPOSE (trans);
  gdouble x, y, in_x, in_y;
  CtPublished p;

  if (GST_EVENT_TYPE (event) == GST_EVENT_NAVIGATION) {
    GST_OBJECT_LOCK (self);
    p = self->published;
    GST_OBJECT_UNLOCK (self);
    if (p.video_out && gst_navigation_event_get_coordinates (event, &x, &y)) {
      ct_direction_unmap_point (p.mapping, p.out_width, p.out_height, x, y,
          &in_x, &in_y);
      event = gst_event_make_writable (event);
      gst_navigation_event_set_coordinates (event, in_x, in_y);
    }
  }
  return gst_cuda_transpose_base_class ()->src_event (trans, event);
}

/* Context and queries (any thread) */

/* A neighbour's context is taken only while none is held (as
 * gst_cuda_handle_set_context does). */
void
gst_cuda_transpose_set_context (GstElement * element, GstContext * context)
{
  GstCudaTranspose *self = GST_CUDA_TRANSPOSE (element);
  GstCudaContext *ctx = NULL;
  gint device_id;

  ct_settings_kernel (&self->settings, &device_id);
  GST_OBJECT_LOCK (self);
  if (self->gpu.context)
    ctx = gst_object_ref (self->gpu.context);
  GST_OBJECT_UNLOCK (self);
  if (!ctx && gst_cuda_handle_set_context (element, context, device_id, &ctx)
      && ctx) {
    GST_OBJECT_LOCK (self);
    if (!self->gpu.context)
      self->gpu.context = g_steal_pointer (&ctx);
    GST_OBJECT_UNLOCK (self);
  }
  gst_clear_object (&ctx);
  GST_ELEMENT_CLASS (gst_cuda_transpose_base_class ())->set_context (element, context);
}

/* Caps the templates leave out (sparse tensors) never reach set_caps: the
 * pad refuses them at its ACCEPT_CAPS query, asked again at each buffer.
 * Say why, once for the same caps. */
static void
gst_cuda_transpose_explain_unoffered (GstCudaTranspose * self,
    GstQuery * query)
{
  CtRefusal r = { 0, };
  GstCaps *caps;
  gboolean accepted, again;

  gst_query_parse_accept_caps_result (query, &accepted);
  gst_query_parse_accept_caps (query, &caps);
  if (accepted || !ct_caps_refuse_unoffered (caps, &r))
    return;
  GST_OBJECT_LOCK (self);
  again = self->unoffered && gst_caps_is_equal (caps, self->unoffered);
  if (!again)
    gst_caps_replace (&self->unoffered, caps);
  GST_OBJECT_UNLOCK (self);
  if (again)
    ct_refusal_clear (&r);
  else
    gst_cuda_transpose_post (self, &r);
}

gboolean
gst_cuda_transpose_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  GstCudaTranspose *self = GST_CUDA_TRANSPOSE (trans);
  GstCaps *caps, *upstream, *cuda_only;
  GstCudaContext *ctx = NULL;
  GstClockTime latency;
  gboolean have_gpu, handled;

  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT) {
    GST_OBJECT_LOCK (self);
    if (self->gpu.context)
      ctx = gst_object_ref (self->gpu.context);
    GST_OBJECT_UNLOCK (self);
    handled = ctx && gst_cuda_handle_context_query (GST_ELEMENT (self),
        query, ctx);
    gst_clear_object (&ctx);
    if (handled)
      return TRUE;
  }

  if (GST_QUERY_TYPE (query) == GST_QUERY_CAPS) {
    gst_cuda_transpose_caps_query_begin (self);
    handled = gst_cuda_transpose_base_class ()->query (trans,
        direction, query);
    gst_cuda_transpose_caps_query_end (self);
    if (!handled)
      return FALSE;
  } else if (!gst_cuda_transpose_base_class ()->query (trans,
          direction, query)) {
    return FALSE;
  }

  if (GST_QUERY_TYPE (query) == GST_QUERY_LATENCY &&
      direction == GST_PAD_SRC) {
    latency = gst_cuda_transpose_latency (self);
    GST_DEBUG_OBJECT (self, "a frame held back adds %" GST_TIME_FORMAT,
        GST_TIME_ARGS (latency));
    ct_flight_add_latency (query, latency);
    return TRUE;
  }
  if (GST_QUERY_TYPE (query) == GST_QUERY_ACCEPT_CAPS &&
      direction == GST_PAD_SINK) {
    gst_cuda_transpose_explain_unoffered (self, query);
    return TRUE;
  }

  /* An upstream element that can make CUDA memory (cudaupload, a decoder)
   * would otherwise pass system memory through, because we take it too:
   * once we hold a GPU (from start ()), ask it for CUDA memory only, so
   * that frames stay on the GPU. */
  if (GST_QUERY_TYPE (query) != GST_QUERY_CAPS || direction != GST_PAD_SINK)
    return TRUE;
  GST_OBJECT_LOCK (self);
  have_gpu = self->published.have_gpu;
  GST_OBJECT_UNLOCK (self);
  gst_query_parse_caps_result (query, &caps);
  if (!have_gpu || !caps || gst_caps_is_any (caps))
    return TRUE;
  upstream = gst_pad_peer_query_caps (GST_BASE_TRANSFORM_SINK_PAD (trans),
      NULL);
  cuda_only = ct_caps_cuda_only (caps, upstream);
  gst_clear_caps (&upstream);
  if (cuda_only) {
    GST_DEBUG_OBJECT (self, "upstream makes CUDA memory: asking for %"
        GST_PTR_FORMAT, cuda_only);
    gst_query_set_caps_result (query, cuda_only);
    gst_caps_unref (cuda_only);
  }
  return TRUE;
}
