/* GStreamer
 * Copyright (C) 2026 The cudatranspose authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The element's negotiation, in the streaming thread: which settings a
 * pair of caps was made for and the job they make (set_caps), a setting
 * changed while streaming (followed where it fits the caps, else a
 * renegotiation; refused where the caps it must take cannot have it), and
 * why downstream took nothing. Every caps query takes one reading of the
 * settings. Which thread owns what: docs/design.md, "Threads and
 * locks". */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcudatransposecaps.h"
#include "gstcudatransposeprivate.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_transpose_debug);
#define GST_CAT_DEFAULT gst_cuda_transpose_debug

/* What the other side takes for @caps on the @direction side under the
 * settings @js (the caps module's algebra). */
GstCaps *
gst_cuda_transpose_transform_for (GstCudaTranspose * self, GstCaps * caps,
    GstPadDirection direction, const CtJobSettings * js, GstCaps * filter)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstCaps *other, *ret;

  other = gst_pad_get_pad_template_caps (direction == GST_PAD_SINK ?
      GST_BASE_TRANSFORM_SRC_PAD (trans) : GST_BASE_TRANSFORM_SINK_PAD (trans));
  ret = ct_caps_transform (caps, direction, js->perm_state ==
      CT_PERMUTATION_VALID ? js->perm : NULL, js->arith_state ==
      CT_ARITH_STATE_VALID ? &js->arith : NULL, js->direction, js->turn,
      other, filter);
  gst_caps_unref (other);
  return ret;
}

/* One caps query's settings: the base class transforms twice in a CAPS
 * query (the filter one way, the peer's answer back), and both must take
 * one reading of the settings, or a change between them leaves nothing
 * (upstream then fails to negotiate, and says only that). A stack per
 * thread: a query may reach another cudatranspose in the same thread. */
typedef struct _CtQuerySettings CtQuerySettings;
struct _CtQuerySettings
{
  GstCudaTranspose *self;
  CtJobSettings js;
  CtQuerySettings *outer;
};
static GPrivate query_settings;

const CtJobSettings *
gst_cuda_transpose_query_settings (GstCudaTranspose * self)
{
  CtQuerySettings *q;

  for (q = g_private_get (&query_settings); q; q = q->outer)
    if (q->self == self)
      return &q->js;
  return NULL;
}

void
gst_cuda_transpose_caps_query_begin (GstCudaTranspose * self)
{
  CtQuerySettings *q = g_new (CtQuerySettings, 1);

  q->self = self;
  ct_settings_job (&self->settings, &q->js);
  q->outer = g_private_get (&query_settings);
  g_private_set (&query_settings, q);
}

void
gst_cuda_transpose_caps_query_end (GstCudaTranspose * self)
{
  CtQuerySettings *q = g_private_get (&query_settings);

  g_return_if_fail (q != NULL && q->self == self);
  g_private_set (&query_settings, q->outer);
  g_free (q);
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
    ct_settings_refuse_permutation (g_strdup ("a value set before the "
            "start was invalid"), r);
    return FALSE;
  }
  if (js->arith_state == CT_ARITH_STATE_INVALID) {
    ct_settings_refuse_arithmetic (g_strdup ("a value set before the "
            "start was invalid"), r);
    return FALSE;
  }
  return ct_caps_job (job, incaps, outcaps, js->perm_state ==
      CT_PERMUTATION_VALID ? js->perm : NULL, js->arith_state ==
      CT_ARITH_STATE_VALID ? &js->arith : NULL, js->bgr, js->direction,
      js->turn, js->turn_from_tag, outcome, r);
}

/* Takes @job (made for @js from @incaps -> @outcaps) as the stream's:
 * what it holds back, whether buffers pass through, what other threads
 * read. A held frame has gone out under the job before it. TRUE where
 * buffers passed through before and not now, or the other way: outside
 * set_caps the allocation must then be decided anew. */
static gboolean
gst_cuda_transpose_install (GstCudaTranspose * self, CtJob * job,
    const CtJobSettings * js, const CtCapsOutcome * outcome,
    GstCaps * incaps, GstCaps * outcaps)
{
  gboolean was_passthrough =
      gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (self));

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
  return was_passthrough != outcome->passthrough;
}

/* Caps refused: remembered (their error was posted once, or is posted
 * now from @r), under the settings of @version; nothing goes downstream
 * until a buffer is transformed. */
void
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
gboolean
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

/* Downstream took none of what cudatranspose makes of @incaps under the
 * settings now (after a change while playing, @while_playing): why, once
 * for these caps and settings. */
void
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

/* Settings changed since the job was made (this buffer's snapshot is
 * newer): where they fit the caps the pads hold, a new job takes them from
 * this buffer on, the held frame going out first under the old one. Where
 * they need other caps, the old job runs until the renegotiation: the
 * base class runs it next (a reconfigure is asked for here too, whoever
 * asked before). */
void
gst_cuda_transpose_follow (GstCudaTranspose * self)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstCaps *incaps, *outcaps;
  CtCapsOutcome outcome;
  CtRefusal r = { 0, };
  CtJob *job;

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
    /* (in or out of passthrough: the allocation is decided anew) */
    if (gst_cuda_transpose_install (self, job, &self->snap.job, &outcome,
            incaps, outcaps))
      gst_base_transform_reconfigure_src (trans);
  }
  gst_clear_caps (&incaps);
  gst_clear_caps (&outcaps);
}

/* A renegotiation ran for newer settings than the job's and kept the
 * caps (the base class then calls no set_caps): the job takes those
 * settings, or they cannot be had on these caps and are refused, once.
 * FALSE then. */
gboolean
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
      if (gst_cuda_transpose_install (self, g_steal_pointer (&job), js,
              &outcome, incaps, outcaps))
        gst_base_transform_reconfigure_src (trans);
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
