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

#include "gstcudatransposeflight.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_transpose_debug);
#define GST_CAT_DEFAULT gst_cuda_transpose_debug

static void
frame_init (CtFlightFrame * fr)
{
  fr->slot = -1;
  fr->outbuf = NULL;
  fr->hold = 0;
}

void
ct_flight_init (CtFlight * f, GstObject * owner, GRecMutex * stream_lock,
    CtFlightPush push, CtFlightFailed failed, gpointer push_data,
    const CtFlightGpu * gpu_calls, gpointer gpu)
{
  f->owner = owner;
  f->stream_lock = stream_lock;
  f->push = push;
  f->failed = failed;
  f->push_data = push_data;
  f->gpu_calls = gpu_calls;
  f->gpu = gpu;
  f->period = 0;
  frame_init (&f->queued);
  frame_init (&f->held);
  f->ready = NULL;
  f->held_seq = 0;
  f->gap = FALSE;
  f->releaser = NULL;
  f->stop = FALSE;
  f->release_seq = 0;
  f->release_slot = -1;
  g_mutex_init (&f->lock);
  g_cond_init (&f->cond);
}

void
ct_flight_clear (CtFlight * f)
{
  ct_flight_stop_releaser (f);
  g_mutex_clear (&f->lock);
  g_cond_clear (&f->cond);
}

void
ct_flight_set_period (CtFlight * f, GstClockTime period)
{
  f->period = period;
}

GstClockTime
ct_flight_hold_for (const CtFlight * f, guint frames_in_flight,
    gboolean gpu)
{
  return ct_flight_hold_period (f->period, frames_in_flight, gpu);
}

CtResult
ct_flight_make_room (CtFlight * f, GstClockTime hold, gint * slot,
    CtStep * step)
{
  *step = CT_STEP_SYNC;
  if (hold > 0) {
    /* (two slots: the held frame's, and the other) */
    *slot = f->held.slot >= 0 ? CT_FLIGHT_SLOTS - 1 - f->held.slot : 0;
    return CT_OK;
  }
  *slot = -1;
  if (f->held.slot < 0)
    return CT_OK;
  /* a frame that may not be held runs alone: the held one (which goes out
   * first, ct_flight_output) is done before it starts */
  return f->gpu_calls->wait (f->gpu, f->held.slot, step);
}

void
ct_flight_queue (CtFlight * f, gint slot, const CtMapped * in,
    const CtMapped * out, gint kernel, GstClockTime hold)
{
  f->queued.slot = slot;
  f->queued.in = *in;
  f->queued.out = *out;
  f->queued.kernel = kernel;
  f->queued.hold = hold;
}

/* Waits for @fr's frame and unmaps its buffers; *@outbuf gets the frame
 * (NULL on failure: the owner has posted the error). */
static GstFlowReturn
finish (CtFlight * f, CtFlightFrame * fr, GstBuffer ** outbuf)
{
  CtStep step = CT_STEP_SYNC;
  CtResult res = f->gpu_calls->wait (f->gpu, fr->slot, &step);
  GstBuffer *buf = fr->outbuf;

  *outbuf = NULL;
  ct_buffers_unmap (&fr->out);
  ct_buffers_unmap (&fr->in);
  frame_init (fr);
  if (res != CT_OK) {
    f->failed (f->push_data, fr->kernel, step, res);
    gst_clear_buffer (&buf);
    return GST_FLOW_ERROR;
  }
  *outbuf = buf;
  return GST_FLOW_OK;
}

GstFlowReturn
ct_flight_drain (CtFlight * f, gboolean push)
{
  GstFlowReturn ret = GST_FLOW_OK;
  GstBuffer *buf = NULL;

  if (f->held.slot >= 0) {
    GST_DEBUG_OBJECT (f->owner, "%s the frame held back",
        push ? "pushing" : "dropping");
    ret = finish (f, &f->held, &buf);
    if (buf && push)
      ret = f->push (f->push_data, buf);
    else
      gst_clear_buffer (&buf);
  }
  buf = g_steal_pointer (&f->ready);
  if (buf && push && ret == GST_FLOW_OK)
    ret = f->push (f->push_data, buf);
  else
    gst_clear_buffer (&buf);
  return ret;
}

/* The releaser's loop: a frame held goes out when its time comes, once
 * the GPU is done with it, under the stream lock, if it is still the one
 * held (the next frame, or an event, pushes it otherwise; a newer frame
 * held wakes the loop early). */
static gpointer
releaser (gpointer data)
{
  CtFlight *f = data;
  guint64 done = 0, seq;
  CtStep step;
  gint slot;

  g_mutex_lock (&f->lock);
  while (!f->stop) {
    if (f->release_seq == done) {
      g_cond_wait (&f->cond, &f->lock);
      continue;
    }
    seq = f->release_seq;
    while (!f->stop && f->release_seq == seq &&
        g_cond_wait_until (&f->cond, &f->lock, f->release_at)) {
      /* (woken early: a newer frame, a stop, or nothing) */
    }
    if (f->stop || f->release_seq != seq)
      continue;
    done = seq;
    slot = f->release_slot;
    g_mutex_unlock (&f->lock);

    /* the wait outside the stream lock (a failure here is the streaming
     * thread's to report, when it finishes the frame) */
    if (!f->gpu_calls->done (f->gpu, slot))
      (void) f->gpu_calls->wait (f->gpu, slot, &step);
    g_rec_mutex_lock (f->stream_lock);
    if (f->held.slot >= 0 && f->held_seq == seq) {
      GstFlowReturn ret;

      GST_LOG_OBJECT (f->owner, "no next frame in time: pushing the held "
          "one");
      ret = ct_flight_drain (f, TRUE);
      if (ret != GST_FLOW_OK)
        GST_DEBUG_OBJECT (f->owner, "pushing the held frame: %s",
            gst_flow_get_name (ret));
    }
    g_rec_mutex_unlock (f->stream_lock);
    g_mutex_lock (&f->lock);
  }
  g_mutex_unlock (&f->lock);
  return NULL;
}

/* Hands the frame just held to the releaser (started on the first), in
 * the streaming thread. */
static void
release_later (CtFlight * f)
{
  f->held_seq++;
  g_mutex_lock (&f->lock);
  f->release_seq = f->held_seq;
  f->release_slot = f->held.slot;
  f->release_at = g_get_monotonic_time () + (gint64) MIN (f->held.hold /
      1000, G_MAXINT32);
  if (!f->releaser) {
    f->stop = FALSE;
    f->releaser = g_thread_try_new ("cudatranspose-release", releaser, f,
        NULL);
    if (!f->releaser)
      GST_WARNING_OBJECT (f->owner, "no thread to push a held frame out: "
          "it waits for the next frame or an event");
  }
  g_cond_signal (&f->cond);
  g_mutex_unlock (&f->lock);
}

void
ct_flight_stop_releaser (CtFlight * f)
{
  GThread *thread;

  g_mutex_lock (&f->lock);
  f->stop = TRUE;
  thread = g_steal_pointer (&f->releaser);
  g_cond_signal (&f->cond);
  g_mutex_unlock (&f->lock);
  if (thread)
    g_thread_join (thread);
}

gboolean
ct_flight_take_ready (CtFlight * f, GstBuffer ** outbuf)
{
  *outbuf = g_steal_pointer (&f->ready);
  return *outbuf != NULL;
}

GstFlowReturn
ct_flight_output (CtFlight * f, GstFlowReturn ret, GstBuffer * fresh,
    GstBuffer ** outbuf)
{
  *outbuf = NULL;
  if (f->queued.slot >= 0) {
    CtFlightFrame before = f->held;

    /* (transform () returned OK, so the base class returned the buffer) */
    f->held = f->queued;
    f->held.outbuf = fresh;
    frame_init (&f->queued);
    if (fresh && ret == GST_FLOW_OK)
      release_later (f);
    if (ret != GST_FLOW_OK || !fresh) {
      GstBuffer *dropped = NULL;

      GST_ERROR_OBJECT (f->owner, "no buffer for the frame in flight (%s)",
          gst_flow_get_name (ret));
      finish (f, &f->held, &dropped);
      gst_clear_buffer (&dropped);
    }
    if (before.slot < 0)
      return ret;
    if (ret != GST_FLOW_OK) {
      finish (f, &before, &fresh);
      gst_clear_buffer (&fresh);
      return ret;
    }
    return finish (f, &before, outbuf);
  }
  if (f->held.slot >= 0 && fresh) {
    ret = finish (f, &f->held, outbuf);
    if (ret == GST_FLOW_OK)
      f->ready = fresh;
    else
      gst_buffer_unref (fresh);
    return ret;
  }
  *outbuf = fresh;
  return ret;
}

GstFlowReturn
ct_flight_before_input (CtFlight * f, GstBuffer ** input,
    gboolean renegotiating)
{
  if (f->gap) {
    f->gap = FALSE;
    if (!GST_BUFFER_IS_DISCONT (*input)) {
      *input = gst_buffer_make_writable (*input);
      GST_BUFFER_FLAG_SET (*input, GST_BUFFER_FLAG_DISCONT);
    }
  }
  if (f->held.slot >= 0 && (GST_BUFFER_IS_DISCONT (*input) || renegotiating))
    return ct_flight_drain (f, TRUE);
  return GST_FLOW_OK;
}

void
ct_flight_dropped (CtFlight * f)
{
  f->gap = TRUE;
}

void
ct_flight_add_latency (GstQuery * query, GstClockTime held)
{
  GstClockTime min, max;
  gboolean live;

  if (held == 0)
    return;
  gst_query_parse_latency (query, &live, &min, &max);
  gst_query_set_latency (query, live, min + held,
      GST_CLOCK_TIME_IS_VALID (max) ? max + held : max);
}
