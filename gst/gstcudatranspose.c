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
 * (#GstCudaTranspose:arithmetic).
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

/* What threads other than the streaming thread need, under the object
 * lock: written by the streaming thread (a job made, a setting applied)
 * and by start and stop. */
typedef struct
{
  gboolean have_gpu;            /* a GPU is held: ask a CUDA-capable
                                 * upstream for CUDA memory */
  /* navigation: the frame job's mapping and output size (video_out
   * FALSE: not a frame job) */
  gboolean video_out;
  CtMapping mapping;
  gint out_width, out_height;
  GstClockTime latency;         /* what a frame held back adds */
} CtPublished;

/* Which thread owns what: docs/design.md, "Threads and locks". */
struct _GstCudaTranspose
{
  GstBaseTransform parent;

  /* the properties and the stream's tags: any thread, under the object
   * lock (CtSettings) */
  CtSettings settings;
  /* under the object lock: for navigation, queries, latency */
  CtPublished published;
  /* caps a peer forced that the templates leave out (sparse tensors),
   * refused at the pad with one error (the accept-caps query, any
   * thread; under the object lock) */
  GstCaps *unoffered;

  /* The streaming thread's (start and stop too: nothing streams then). */
  /* this buffer's settings, read once */
  CtSnapshot snap;
  /* the job (on the heap: a job of 256 tensors is larger than GObject
   * lets an instance be) and the settings it was made for */
  CtJob *job;
  CtJobSettings made_for;
  /* the settings' version when the stream started: caps are made for it
   * or a later one */
  guint start_version;
  /* counts the jobs set_caps made: a renegotiation that made none kept
   * the caps; and the settings the streaming thread's last transform_caps
   * made output caps for (version 0: none since it was cleared) */
  guint64 negotiated;
  CtJobSettings renegotiated_for;
  GThread *streaming_thread;    /* (atomic: transform_caps compares) */
  /* the input caps refused last (with the output caps set_caps got, if
   * it did), under the settings of refused_version: their error is
   * posted once; and whether the stream stands refused (until a buffer is
   * transformed): nothing that would let a sink preroll goes downstream
   * then */
  GstCaps *refused_in, *refused_out;
  guint refused_version;
  gboolean refused;
  /* flexible tensors: the job follows each buffer's headers (its mode and
   * permutation stay as negotiated); where the tensors of the buffer
   * being transformed lie, in it and in its output (never held in
   * flight) */
  gboolean flexible;
  CtTensorPlaces flex_in, flex_out;
  /* output tensors where downstream gives no allocator: a fallible one */
  GstAllocator *tensor_allocator;
  /* the stream whose tags the direction follows */
  gchar *stream_id;
  /* what was last published (no lock needed to compare) */
  CtPublished shown;

  /* the GPU, from start () to stop () */
  CtGpu gpu;

  /* frames in flight and the releaser (under the stream lock) */
  CtFlight flight;
};

static GParamSpec *active_kernel_pspec;

static void gst_cuda_transpose_post (GstCudaTranspose * self, CtRefusal * r);

#define gst_cuda_transpose_parent_class parent_class
static void
gst_cuda_transpose_direction_init (GstVideoDirectionInterface * iface)
{
  /* the interface is its video-direction property */
}

G_DEFINE_TYPE_WITH_CODE (GstCudaTranspose, gst_cuda_transpose,
    GST_TYPE_BASE_TRANSFORM, G_IMPLEMENT_INTERFACE (GST_TYPE_VIDEO_DIRECTION,
        gst_cuda_transpose_direction_init));
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (cudatranspose, "cudatranspose",
    GST_RANK_NONE, GST_TYPE_CUDA_TRANSPOSE,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_transpose_debug, "cudatranspose", 0,
        "CUDA transpose"));

/* ---------------------------------------------------------------------- */
/* Messages                                                                 */

/* Posts @r (taken) as a message of @type. */
static void
gst_cuda_transpose_post_as (GstCudaTranspose * self, GstMessageType type,
    CtRefusal * r)
{
  gst_element_message_full (GST_ELEMENT (self), type,
      r->domain, r->code, g_steal_pointer (&r->text),
      g_steal_pointer (&r->debug), r->file, r->function, r->line);
  ct_refusal_clear (r);
}

/* Posts @r (taken), the one error of a refusal. */
static void
gst_cuda_transpose_post (GstCudaTranspose * self, CtRefusal * r)
{
  gst_cuda_transpose_post_as (self, GST_MESSAGE_ERROR, r);
}

/* ---------------------------------------------------------------------- */
/* What other threads read                                                  */

/* Whether a GPU kernel runs this stream's buffers: the latency a held
 * frame adds depends on it. */
static gboolean
gst_cuda_transpose_gpu_runs (GstCudaTranspose * self)
{
  return self->snap.kernel != CT_KERNEL_CPU && self->gpu.stream != NULL;
}

/* Publishes what other threads read of the streaming state when it
 * changed; a new latency is posted (the pipeline asks again). */
static void
gst_cuda_transpose_publish (GstCudaTranspose * self)
{
  CtPublished now;

  memset (&now, 0, sizeof (now));
  now.have_gpu = self->gpu.stream != NULL;
  now.video_out = self->job->mode == CT_JOB_VIDEO;
  now.mapping = self->job->mapping;
  now.out_width = GST_VIDEO_INFO_WIDTH (&self->job->out_info);
  now.out_height = GST_VIDEO_INFO_HEIGHT (&self->job->out_info);
  now.latency = ct_flight_hold_for (&self->flight,
      self->snap.frames_in_flight, gst_cuda_transpose_gpu_runs (self));
  if (memcmp (&now, &self->shown, sizeof (now)) == 0)
    return;
  GST_OBJECT_LOCK (self);
  self->published = now;
  GST_OBJECT_UNLOCK (self);
  if (now.latency != self->shown.latency) {
    GST_DEBUG_OBJECT (self, "a frame held back adds %" GST_TIME_FORMAT,
        GST_TIME_ARGS (now.latency));
    gst_element_post_message (GST_ELEMENT (self),
        gst_message_new_latency (GST_OBJECT (self)));
  }
  self->shown = now;
}

/* ---------------------------------------------------------------------- */
/* Caps and jobs                                                            */

/* What the other side takes for @caps on the @direction side under the
 * settings @js (the caps module's algebra). */
static GstCaps *
gst_cuda_transpose_transform_for (GstCudaTranspose * self, GstCaps * caps,
    GstPadDirection direction, const CtJobSettings * js, GstCaps * filter)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstCaps *other, *ret;

  other = gst_pad_get_pad_template_caps (direction == GST_PAD_SINK ?
      GST_BASE_TRANSFORM_SRC_PAD (trans) : GST_BASE_TRANSFORM_SINK_PAD (trans));
  ret = ct_caps_transform (caps, direction, js->perm_state ==
      CT_PERMUTATION_VALID ? js->perm : NULL, js->arith_state ==
      CT_ARITH_STATE_VALID ? &js->arith : NULL, js->direction, other, filter);
  gst_caps_unref (other);
  return ret;
}

/* The settings now (an invalid permutation offers what an unset one does,
 * so that pipelines link: start () and set_caps refuse it, quoting it).
 * Any thread; the streaming thread's own renegotiation remembers what it
 * made caps for. */
static GstCaps *
gst_cuda_transpose_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCudaTranspose *self = GST_CUDA_TRANSPOSE (trans);
  CtJobSettings *js = g_new (CtJobSettings, 1);
  GstCaps *ret;

  ct_settings_job (&self->settings, js);
  if (direction == GST_PAD_SINK &&
      g_atomic_pointer_get (&self->streaming_thread) == g_thread_self ())
    self->renegotiated_for = *js;
  ret = gst_cuda_transpose_transform_for (self, caps, direction, js, filter);
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

/* The job for @incaps -> @outcaps under the settings @js, into @job;
 * FALSE, with why in @r, if they cannot make it. */
static gboolean
gst_cuda_transpose_make_job (CtJob * job, GstCaps * incaps, GstCaps * outcaps,
    const CtJobSettings * js, CtCapsOutcome * outcome, CtRefusal * r)
{
  /* (invalid values are refused when starting, and never set while
   * streaming: only versions from before the start may hold one) */
  if (js->perm_state == CT_PERMUTATION_INVALID) {
    ct_settings_refuse_permutation (g_strdup ("it was replaced"), r);
    return FALSE;
  }
  if (js->arith_state == CT_ARITH_STATE_INVALID) {
    ct_settings_refuse_arithmetic (g_strdup ("it was replaced"), r);
    return FALSE;
  }
  return ct_caps_job (job, incaps, outcaps, js->perm_state ==
      CT_PERMUTATION_VALID ? js->perm : NULL, js->arith_state ==
      CT_ARITH_STATE_VALID ? &js->arith : NULL, js->direction, outcome, r);
}

/* Takes @job (made for @js from @incaps -> @outcaps) as the stream's:
 * what it holds back, whether buffers pass through, what other threads
 * read. A held frame has gone out under the job before it. */
static void
gst_cuda_transpose_install (GstCudaTranspose * self, CtJob * job,
    const CtJobSettings * js, const CtCapsOutcome * outcome,
    GstCaps * incaps, GstCaps * outcaps)
{
  g_free (self->job);
  self->job = job;
  self->made_for = *js;
  self->flexible = outcome->flexible;
  /* (flexible tensors set the job anew where their sizes change: none is
   * left in flight across that) */
  ct_flight_set_period (&self->flight, self->flexible ? 0 :
      ct_caps_hold_duration (incaps, outcaps));
  gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (self),
      outcome->passthrough);
  GST_DEBUG_OBJECT (self, "%s: %u pieces%s%s, settings version %u",
      ct_job_what (job), job->n_pieces, self->flexible ?
      ", flexible tensors" : "", outcome->passthrough ? ", passthrough" : "",
      js->version);
  gst_cuda_transpose_publish (self);
}

/* Caps refused: remembered (their error was posted once, or is posted
 * now from @r), under the settings of @version; nothing goes downstream
 * until a buffer is transformed. */
static void
gst_cuda_transpose_refuse_caps (GstCudaTranspose * self, GstCaps * incaps,
    GstCaps * outcaps, guint version, CtRefusal * r)
{
  if (r && r->domain)
    gst_cuda_transpose_post (self, r);
  gst_caps_replace (&self->refused_in, incaps);
  gst_caps_replace (&self->refused_out, outcaps);
  self->refused_version = version;
  self->refused = TRUE;
}

/* Whether @incaps (and @outcaps, may be NULL) were refused already, under
 * the settings of @version. */
static gboolean
gst_cuda_transpose_refused_already (GstCudaTranspose * self,
    GstCaps * incaps, GstCaps * outcaps, guint version)
{
  return self->refused_in && version == self->refused_version &&
      gst_caps_is_equal (incaps, self->refused_in) &&
      (outcaps ? self->refused_out && gst_caps_is_equal (outcaps,
          self->refused_out) : !self->refused_out);
}

/* The job for the caps under the newest settings they were made for
 * (ct_settings_recent): transform_caps made them under the settings of
 * its moment, and any thread may have changed those since. The newest
 * version whose transform gives @outcaps decides: its job, or its
 * refusal. Frames go from the running job's settings to a later one,
 * never back; a newer one that needs other caps asks for a
 * renegotiation. A refusal is posted once and leaves the job before it
 * (the pads keep their caps). */
static gboolean
gst_cuda_transpose_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstCudaTranspose *self = GST_CUDA_TRANSPOSE (trans);
  CtCapsOutcome outcome;
  CtRefusal r = { 0, };
  CtJobSettings *recent, *made_for = NULL;
  GstCaps *made;
  guint n, i, newest;
  CtJob *job;

  /* a held frame goes out under the caps it was made for */
  if (ct_flight_drain (&self->flight, TRUE) != GST_FLOW_OK)
    GST_DEBUG_OBJECT (self, "pushing the held frame before new caps failed");
  recent = ct_settings_recent (&self->settings, MAX (self->made_for.version,
          self->start_version), &n);
  newest = recent[0].version;
  /* the base class tries refused caps again at every buffer: they were
   * refused, with one error, once (under the same settings) */
  if (gst_cuda_transpose_refused_already (self, incaps, outcaps, newest)) {
    GST_DEBUG_OBJECT (self, "caps refused already");
    g_free (recent);
    return FALSE;
  }
  gst_clear_caps (&self->refused_in);
  gst_clear_caps (&self->refused_out);

  for (i = 0; i < n && !made_for; i++) {
    made = gst_cuda_transpose_transform_for (self, incaps, GST_PAD_SINK,
        &recent[i], NULL);
    if (gst_caps_can_intersect (made, outcaps))
      made_for = &recent[i];
    gst_caps_unref (made);
  }
  /* (caps no version made: the newest says why) */
  if (!made_for)
    made_for = &recent[0];
  job = g_new (CtJob, 1);
  if (!gst_cuda_transpose_make_job (job, incaps, outcaps, made_for, &outcome,
          &r)) {
    g_free (job);
    gst_cuda_transpose_refuse_caps (self, incaps, outcaps, newest, &r);
    g_free (recent);
    return FALSE;
  }
  self->refused = FALSE;
  self->negotiated++;
  gst_cuda_transpose_install (self, job, made_for, &outcome, incaps, outcaps);
  if (made_for->version != newest) {
    GST_DEBUG_OBJECT (self, "caps made for settings version %u, not %u: "
        "renegotiating", made_for->version, newest);
    gst_base_transform_reconfigure_src (trans);
  }
  g_free (recent);
  return TRUE;
}

static gboolean
gst_cuda_transpose_transform_size (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, gsize size,
    GstCaps * othercaps, gsize * othersize)
{
  return ct_caps_buffer_size (othercaps, othersize);
}

/* Downstream took none of what cudatranspose makes of @incaps under the
 * settings now (after a change while playing, @while_playing): why, once
 * for these caps and settings. */
static void
gst_cuda_transpose_explain_output (GstCudaTranspose * self, GstCaps * incaps,
    gboolean while_playing)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  CtJobSettings *js = g_new (CtJobSettings, 1);
  CtRefusal r = { 0, };
  GstCaps *made, *peer;

  ct_settings_job (&self->settings, js);
  if (!gst_cuda_transpose_refused_already (self, incaps, NULL, js->version)) {
    made = gst_cuda_transpose_transform_for (self, incaps, GST_PAD_SINK, js,
        NULL);
    peer = gst_pad_peer_query_caps (GST_BASE_TRANSFORM_SRC_PAD (trans), NULL);
    ct_caps_refuse_output (incaps, js->perm_state == CT_PERMUTATION_VALID ?
        js->perm : NULL, js->arith_state == CT_ARITH_STATE_VALID ?
        &js->arith : NULL, js->direction, while_playing, made, peer, &r);
    gst_caps_unref (made);
    gst_caps_unref (peer);
    gst_cuda_transpose_refuse_caps (self, incaps, NULL, js->version, &r);
  }
  g_free (js);
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

  if (!GST_BASE_TRANSFORM_CLASS (parent_class)->propose_allocation (trans,
          decide_query, query))
    return FALSE;
  return ct_pools_propose (query, gst_cuda_transpose_cuda_context (self,
          query), gst_cuda_transpose_pinning_context (self));
}

/* ... and so is the output's (ct_pools_decide); its refusal is posted. */
static gboolean
gst_cuda_transpose_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  GstCudaTranspose *self = GST_CUDA_TRANSPOSE (trans);
  CtRefusal r = { 0, };

  if (!ct_pools_decide (query, gst_cuda_transpose_cuda_context (self, query),
          gst_cuda_transpose_pinning_context (self), self->gpu.failure, &r)) {
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
  gint slot = -1;

  kernel = gst_cuda_transpose_resolve_kernel (self);
  /* CUDA memory is read and written in place by the video job; the
   * tensor jobs take system memory only */
  if (kernel != GST_CUDA_TRANSPOSE_KERNEL_CPU &&
      self->job->mode == CT_JOB_VIDEO) {
    in_dev = ct_gpu_holds (&self->gpu, inbuf);
    out_dev = ct_gpu_holds (&self->gpu, outbuf);
  }
  if (!ct_buffers_map (self->job, self->flexible ? &self->flex_in : NULL,
          self->flexible ? &self->flex_out : NULL, inbuf, in_dev, &in, outbuf,
          out_dev, &out, &r)) {
    gst_cuda_transpose_post (self, &r);
    return GST_FLOW_ERROR;
  }

  GST_LOG_OBJECT (self, "%s with %s, %s memory to %s memory",
      ct_job_what (self->job), ct_kernel_name ((CtKernel) kernel),
      in_dev ? "CUDA" : "system", out_dev ? "CUDA" : "system");

  if (kernel == GST_CUDA_TRANSPOSE_KERNEL_CPU) {
    res = ct_job_run_cpu (self->job, in.spans, out.spans, &step);
  } else if (self->gpu.context &&
      gst_cuda_context_push (self->gpu.context)) {
    /* the flight module says whether this frame may be held, and in
     * which slot (a frame that may not waits for the held one) */
    hold = ct_flight_hold_for (&self->flight, self->snap.frames_in_flight,
        TRUE);
    res = ct_flight_make_room (&self->flight, hold, &slot, &step);
    if (res == CT_OK)
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

/* Settings changed since the job was made (this buffer's snapshot is
 * newer): where they fit the caps the pads hold, a new job takes them from
 * this buffer on, the held frame going out first under the old one. Where
 * they need other caps, the old job runs until the renegotiation: the
 * base class runs it next (a reconfigure is asked for here too, whoever
 * asked before). */
static void
gst_cuda_transpose_follow (GstCudaTranspose * self)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstCaps *incaps, *outcaps;
  CtCapsOutcome outcome;
  CtRefusal r = { 0, };
  CtJob *job;
  gboolean was_passthrough;

  incaps = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SINK_PAD (trans));
  outcaps = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SRC_PAD (trans));
  job = g_new (CtJob, 1);
  if (!incaps || !outcaps || !gst_cuda_transpose_make_job (job, incaps,
          outcaps, &self->snap.job, &outcome, &r)) {
    ct_refusal_clear (&r);
    g_free (job);
    gst_base_transform_reconfigure_src (trans);
  } else {
    if (ct_flight_drain (&self->flight, TRUE) != GST_FLOW_OK)
      GST_DEBUG_OBJECT (self, "pushing the held frame before a change "
          "failed");
    was_passthrough = gst_base_transform_is_passthrough (trans);
    gst_cuda_transpose_install (self, job, &self->snap.job, &outcome, incaps,
        outcaps);
    /* (in or out of passthrough: the allocation is decided anew) */
    if (was_passthrough != outcome.passthrough)
      gst_base_transform_reconfigure_src (trans);
  }
  gst_clear_caps (&incaps);
  gst_clear_caps (&outcaps);
}

/* A renegotiation ran for newer settings than the job's and kept the
 * caps (the base class then calls no set_caps): the job takes those
 * settings, or they cannot be had on these caps and are refused, once.
 * FALSE then. */
static gboolean
gst_cuda_transpose_kept_caps (GstCudaTranspose * self)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  CtJobSettings *js = &self->renegotiated_for;
  GstCaps *incaps, *outcaps;
  CtCapsOutcome outcome;
  CtRefusal r = { 0, };
  CtJob *job = g_new (CtJob, 1);
  gboolean ok = TRUE;

  incaps = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SINK_PAD (trans));
  outcaps = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SRC_PAD (trans));
  if (incaps && outcaps) {
    ok = gst_cuda_transpose_make_job (job, incaps, outcaps, js, &outcome,
        &r);
    if (ok) {
      if (ct_flight_drain (&self->flight, TRUE) != GST_FLOW_OK)
        GST_DEBUG_OBJECT (self, "pushing the held frame failed");
      gst_cuda_transpose_install (self, g_steal_pointer (&job), js, &outcome,
          incaps, outcaps);
    } else {
      gst_cuda_transpose_refuse_caps (self, incaps, outcaps, js->version,
          &r);
    }
  }
  ct_refusal_clear (&r);
  g_free (job);
  gst_clear_caps (&incaps);
  gst_clear_caps (&outcaps);
  return ok;
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
  if (ret == GST_FLOW_NOT_NEGOTIATED && !self->refused && changed) {
    GstCaps *incaps = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SINK_PAD
        (trans));

    /* downstream took none of the caps the change needs */
    if (incaps)
      gst_cuda_transpose_explain_output (self, incaps, TRUE);
    gst_clear_caps (&incaps);
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
/* Events: orientation tags, navigation                                     */

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

static gboolean
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
  ok = GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
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
static gboolean
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
  return GST_BASE_TRANSFORM_CLASS (parent_class)->src_event (trans, event);
}

/* ---------------------------------------------------------------------- */
/* Context and queries (any thread)                                         */

/* A neighbour's context is taken only while none is held (as
 * gst_cuda_handle_set_context does). */
static void
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
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
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

static gboolean
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

  if (!GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction,
          query))
    return FALSE;

  if (GST_QUERY_TYPE (query) == GST_QUERY_LATENCY &&
      direction == GST_PAD_SRC) {
    GST_OBJECT_LOCK (self);
    latency = self->published.latency;
    GST_OBJECT_UNLOCK (self);
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

/* ---------------------------------------------------------------------- */
/* GObject                                                                  */

/* The settings module checks and keeps the values (ct_settings_set); a
 * change of what a job is made for only asks for a reconfigure, as
 * cudaconvertscale does: the streaming thread applies it at its next
 * buffer (gst_cuda_transpose_follow), renegotiating where the caps must
 * change. Any thread. */
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
