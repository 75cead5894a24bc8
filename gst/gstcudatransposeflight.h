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

#include "gstcudatransposebuffers.h"
#include "gstcudatransposejob.h"

G_BEGIN_DECLS

/* Frames (and buffers of tensors) in flight: at frames-in-flight=2 a
 * frame left on the GPU is held back one frame, so that its copies run
 * while the next one is queued. This module owns all of it: whether a
 * frame may be held and for how long (stored with the frame), the slot
 * each frame takes and the room a frame that may not be held needs, the
 * frames held and the order they go out in, the drain before events, and
 * the releaser: a thread that pushes a held frame out when no next frame
 * has come within its hold period (the latency the element reports).
 *
 * It reaches the GPU through two calls (CtFlightGpu) and the element
 * through two more (push, failed), so that a test can drive it with
 * stubs. Everything but the releaser runs in the streaming thread, under
 * the stream lock; the releaser takes that lock before it touches a
 * frame. */

/* How many frames may be on the GPU at once: the one held and the one
 * being queued. The GPU's staging and events, and the pools' extra
 * buffers, are sized by it. */
#define CT_FLIGHT_SLOTS 2

/* The GPU, as frames in flight need it: wait for the frame in @slot (its
 * result; @step says what failed), and whether it is done already (or
 * failed: wait then says how), without waiting. */
typedef struct
{
  CtResult (*wait) (gpointer gpu, gint slot, CtStep * step);
  gboolean (*done) (gpointer gpu, gint slot);
} CtFlightGpu;

/* Pushes a finished frame downstream (takes it). */
typedef GstFlowReturn (*CtFlightPush) (gpointer owner, GstBuffer * buf);

/* The owner posts the one error of a frame that failed on the GPU:
 * @kernel ran it, @res at @step. */
typedef void (*CtFlightFailed) (gpointer owner, gint kernel, CtStep step,
    CtResult res);

/* A frame left in flight: its buffers stay mapped (and so referenced)
 * until it is finished. */
typedef struct
{
  gint slot;                    /* -1: no frame */
  CtMapped in, out;
  GstBuffer *outbuf;            /* the frame to push, once finished */
  gint kernel;                  /* for the message if it fails */
  GstClockTime hold;            /* how long it may be held back */
} CtFlightFrame;

typedef struct
{
  GstObject *owner;             /* for the log (may be NULL) */
  gpointer push_data;           /* what push and failed get */
  CtFlightPush push;
  CtFlightFailed failed;
  const CtFlightGpu *gpu_calls;
  gpointer gpu;
  GRecMutex *stream_lock;

  /* streaming thread (under the stream lock): one frame's duration where
   * the caps let frames be held (host memory in and out, a known rate),
   * else 0 */
  GstClockTime period;
  /* the frame transform () just queued (outbuf NULL until the output is
   * generated), the one before it (pushed once the next is queued, or by
   * a drain or the releaser), and a finished frame that goes out after
   * that one */
  CtFlightFrame queued, held;
  GstBuffer *ready;
  guint64 held_seq;             /* counts the frames held */
  gboolean gap;                 /* a buffer dropped (QoS) since the last
                                 * one taken */

  GThread *releaser;
  GMutex lock;
  GCond cond;
  gboolean stop;                /* under lock, as are: */
  guint64 release_seq;          /* the frame held last (held_seq) */
  gint release_slot;            /* its slot */
  gint64 release_at;            /* when it goes (monotonic, us) */
} CtFlight;

/* @stream_lock: the lock the streaming thread holds (the sink pad's);
 * @push and @failed get @push_data. */
void ct_flight_init (CtFlight * f, GstObject * owner,
    GRecMutex * stream_lock, CtFlightPush push, CtFlightFailed failed,
    gpointer push_data, const CtFlightGpu * gpu_calls, gpointer gpu);

/* Stops the releaser (nothing may stream) and frees what init made. */
void ct_flight_clear (CtFlight * f);

/* set_caps: the caps' frame duration, where frames of them may be held
 * (else 0). */
void ct_flight_set_period (CtFlight * f, GstClockTime period);

/* How long a frame may be held back: the caps' @period at
 * frames-in-flight=2 (@frames_in_flight) where a GPU kernel runs it
 * (@gpu), else 0. The latency a held frame adds is that too. */
static inline GstClockTime
ct_flight_hold_period (GstClockTime period, guint frames_in_flight,
    gboolean gpu)
{
  return frames_in_flight >= CT_FLIGHT_SLOTS && gpu ? period : 0;
}

/* ct_flight_hold_period for the next frame, with the period set_caps
 * gave. */
GstClockTime ct_flight_hold_for (const CtFlight * f, guint frames_in_flight,
    gboolean gpu);

static inline gboolean
ct_flight_holds (const CtFlight * f)
{
  return f->held.slot >= 0;
}

/* Room for the next frame on the GPU: with @hold (> 0) the slot it may be
 * left in flight in (the held frame keeps its own) into *@slot; without,
 * -1, once the held frame (if any) is done on the GPU, so that the next
 * one runs alone. A failure of that wait is returned, @step says where. */
CtResult ct_flight_make_room (CtFlight * f, GstClockTime hold, gint * slot,
    CtStep * step);

/* transform () left its frame in flight in @slot, to be held back up to
 * @hold: the output generated next takes it (ct_flight_output). @in and
 * @out are taken. */
void ct_flight_queue (CtFlight * f, gint slot, const CtMapped * in,
    const CtMapped * out, gint kernel, GstClockTime hold);

/* The output, one frame behind where a frame was queued. First
 * ct_flight_take_ready: TRUE if a finished frame waits (then *@outbuf is
 * it, and nothing else is generated). Else ct_flight_output with the base
 * class's output buffer @fresh and its @ret: a queued frame is held and
 * the one held before it goes out, finished; a frame not left in flight
 * goes out after the held one. A frame held goes out after its hold
 * period at the latest (the releaser). */
gboolean ct_flight_take_ready (CtFlight * f, GstBuffer ** outbuf);
GstFlowReturn ct_flight_output (CtFlight * f, GstFlowReturn ret,
    GstBuffer * fresh, GstBuffer ** outbuf);

/* The frames held back, in order: pushed (@push), or dropped (a flush, a
 * stop). The GPU is done with them either way. */
GstFlowReturn ct_flight_drain (CtFlight * f, gboolean push);

/* Before *@input is taken: a discontinuity, or a renegotiation to come
 * (@renegotiating), pushes the held frame first (under the caps it was
 * made for). The first buffer after one the base class dropped
 * (ct_flight_dropped) is marked DISCONT, made writable, so that its frame
 * goes out marked however it leaves: the base class marks only what it
 * pushes itself, and a held frame may leave by a drain or the releaser. */
GstFlowReturn ct_flight_before_input (CtFlight * f, GstBuffer ** input,
    gboolean renegotiating);

/* The base class dropped the buffer just submitted (QoS: it came too
 * late). */
void ct_flight_dropped (CtFlight * f);

/* Stops the releaser thread (in stop (): nothing streams). */
void ct_flight_stop_releaser (CtFlight * f);

/* Adds @held (what a held frame adds) to a LATENCY query's answer. */
void ct_flight_add_latency (GstQuery * query, GstClockTime held);

G_END_DECLS
