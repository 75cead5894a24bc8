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
#include "gstcudatransposegpu.h"

G_BEGIN_DECLS

/* Frames (and buffers of tensors) in flight: at frames-in-flight=2 a
 * frame left on the GPU by ct_gpu_run is held back one frame, so that its
 * copies run while the next one is queued. This module owns the frames
 * held, the order they go out in, the drain before events, and the
 * releaser: a thread that pushes a held frame out when no next frame has
 * come one frame's duration after it (the latency the element reports).
 *
 * Everything but the releaser runs in the streaming thread, under the
 * stream lock; the releaser takes that lock before it touches a frame. */

/* The owner posts the one error of a frame that failed on the GPU:
 * @kernel ran it, @res at @step. */
typedef void (*CtFlightFailed) (GstElement * owner, gint kernel,
    CtStep step, CtResult res);

/* A frame left in flight: its buffers stay mapped (and so referenced)
 * until it is finished. */
typedef struct
{
  gint slot;                    /* the GPU's slot; -1: no frame */
  CtMapped in, out;
  GstBuffer *outbuf;            /* the frame to push, once finished */
  gint kernel;                  /* for the message if it fails */
} CtFlightFrame;

typedef struct
{
  GstElement *owner;            /* a GstBaseTransform: its pads, its log */
  CtGpu *gpu;                   /* the owner's, from start () to stop () */
  CtFlightFailed failed;

  /* the frame transform () just queued (outbuf NULL until the output is
   * generated), the one before it (pushed once the next is queued, or by
   * a drain), and a finished frame that goes out after that one */
  CtFlightFrame queued, held;
  GstBuffer *ready;
  guint64 held_seq;             /* counts the frames held */
  gboolean gap;                 /* a buffer dropped (QoS) since the last
                                 * one taken */
  GstClockTime latency;         /* what a held frame adds, as last posted */

  GThread *releaser;
  GMutex lock;
  GCond cond;
  gboolean stop;                /* under lock, as are: */
  guint64 release_seq;          /* the frame held last (held_seq) */
  gint release_slot;            /* its slot */
  gint64 release_at;            /* when it goes (monotonic, us) */
} CtFlight;

void ct_flight_init (CtFlight * f, GstElement * owner, CtGpu * gpu,
    CtFlightFailed failed);

/* Stops the releaser (nothing may stream) and frees what init made. */
void ct_flight_clear (CtFlight * f);

static inline gboolean
ct_flight_holds (const CtFlight * f)
{
  return f->held.slot >= 0;
}

/* transform () left its frame in flight in @slot: the output generated
 * next takes it (ct_flight_output). @in and @out are taken. */
void ct_flight_queue (CtFlight * f, gint slot, const CtMapped * in,
    const CtMapped * out, gint kernel);

/* The output, one frame behind where a frame was queued. First
 * ct_flight_take_ready: TRUE if a finished frame waits (then *@outbuf is
 * it, and nothing else is generated). Else ct_flight_output with the base
 * class's output buffer @fresh and its @ret: a queued frame is held and
 * the one held before it goes out, finished; a frame not left in flight
 * goes out after the held one. A frame held goes out after @hold at the
 * latest (the releaser). */
gboolean ct_flight_take_ready (CtFlight * f, GstBuffer ** outbuf);
GstFlowReturn ct_flight_output (CtFlight * f, GstFlowReturn ret,
    GstBuffer * fresh, GstClockTime hold, GstBuffer ** outbuf);

/* The frames held back, in order: pushed (@push), or dropped (a flush, a
 * stop). The GPU is done with them either way. */
GstFlowReturn ct_flight_drain (CtFlight * f, gboolean push);

/* Before *@input is taken: a discontinuity or a renegotiation pushes the
 * held frame first (under the caps it was made for). The first buffer
 * after one the base class dropped (ct_flight_dropped) is marked
 * DISCONT, made writable, so that its frame goes out marked however it
 * leaves: the base class marks only what it pushes itself, and a held
 * frame may leave by a drain or the releaser. */
GstFlowReturn ct_flight_before_input (CtFlight * f, GstBuffer ** input);

/* The base class dropped the buffer just submitted (QoS: it came too
 * late). */
void ct_flight_dropped (CtFlight * f);

/* Stops the releaser thread (in stop (): nothing streams). */
void ct_flight_stop_releaser (CtFlight * f);

/* Posts a LATENCY message when what a held frame adds (@held) changed. */
void ct_flight_update_latency (CtFlight * f, GstClockTime held);

/* Adds @held to a LATENCY query's answer. */
void ct_flight_add_latency (CtFlight * f, GstQuery * query,
    GstClockTime held);

G_END_DECLS
