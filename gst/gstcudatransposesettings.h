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

#include "cudatranspose-kernels.h"
#include "gstcudatransposearith.h"
#include "gstcudatransposedirection.h"
#include "gstcudatransposejob.h"

G_BEGIN_DECLS

/* What the user set: the element's properties, their values under the
 * owner's object lock, each checked where it is set (the permutation and
 * the arithmetic parsed once), the stream's orientation tags, and the
 * rules for a change while streaming. Any thread may set and read them;
 * the streaming thread reads them once per buffer (ct_settings_snapshot)
 * and, to make a job, looks up what a pair of caps was made for
 * (ct_settings_recent). The properties module installs them (their
 * documentation lives there); the element hands set_property and
 * get_property here. */

#define CT_DEFAULT_KERNEL CT_KERNEL_AUTO
#define CT_DEFAULT_DEVICE_ID -1
/* the element's name is its default job */
#define CT_DEFAULT_DIRECTION GST_VIDEO_ORIENTATION_UL_LR
#define CT_DEFAULT_FRAMES_IN_FLIGHT 2

enum
{
  CT_PROP_0,
  CT_PROP_KERNEL,
  CT_PROP_DEVICE_ID,
  CT_PROP_ACTIVE_KERNEL,
  CT_PROP_PERMUTATION,
  CT_PROP_VIDEO_DIRECTION,
  CT_PROP_METHOD,
  CT_PROP_FRAMES_IN_FLIGHT,
  CT_PROP_ARITHMETIC,
  CT_PROP_CHANNEL_ORDER,
};

/* What the permutation property holds. */
typedef enum
{
  CT_PERMUTATION_NONE,          /* unset: transpose */
  CT_PERMUTATION_VALID,
  CT_PERMUTATION_INVALID,       /* kept as set, refused when starting */
} CtPermutationState;

/* The settings a job and the caps depend on: the direction proposed (the
 * property's, or under auto the tags'), the direction that turns a tensor
 * made of video (@turn: the proposed one where the pipeline set
 * video-direction or method, else identity, so that the default ul-lr
 * applies to video going out as video only; @turn_from_tag: under auto,
 * where a refusal says the tag asked for it), the permutation and the
 * arithmetic; and a setting only the job depends on, the channel order of
 * tensors made from YUV video (@bgr). Every change of them is a new
 * @version (counted from 1). */
typedef struct
{
  guint version;
  GstVideoOrientationMethod direction;
  GstVideoOrientationMethod turn;
  gboolean turn_from_tag;
  CtPermutationState perm_state;
  guint perm[4];
  CtArithState arith_state;
  CtArithSpec arith;
  gboolean bgr;
} CtJobSettings;

/* One reading of every setting, all under one lock: what a buffer runs
 * with. */
typedef struct
{
  CtJobSettings job;
  CtKernel kernel;
  gint device_id;
  guint frames_in_flight;
} CtSnapshot;

/* How many versions of the job settings are kept for caps made before
 * the newest one (one per kind of caps they make: ct_settings_recent).
 * Caps made under a kind no longer kept cannot be taken, and the stream
 * ends with an error, so it must exceed the kinds settings changed from
 * another thread pass through within one negotiation (the live test
 * passes through dozens; docs/design.md, "Threads and locks"). Each is
 * about 2.4 KB, allocated with the element. */
#define CT_SETTINGS_RECENT 128

/* What a change asks of the element. */
typedef enum
{
  CT_SETTINGS_KEPT = 0,
  /* the job settings changed: ask for a reconfigure (the streaming thread
   * applies the change at its next buffer, renegotiating if the caps
   * must change) */
  CT_SETTINGS_RECONFIGURE = 1 << 0,
  /* what a held frame adds to the latency may have changed (the kernel,
   * frames-in-flight) */
  CT_SETTINGS_LATENCY = 1 << 1,
} CtSettingsChange;

typedef struct
{
  GstElement *owner;
  /* everything below under the owner's object lock */
  CtKernel kernel;
  gint device_id;
  CtPath active_kernel;         /* what ran last */
  gchar *permutation;           /* as set, valid or not; NULL: none */
  gchar *perm_why;              /* why it is invalid */
  gchar *arithmetic;            /* as set, valid or not; NULL: none */
  gchar *arith_why;             /* why it is invalid */
  guint frames_in_flight;
  /* between start and stop: an invalid permutation or arithmetic set then
   * is refused (the running one stays) */
  gboolean running;
  /* video-direction as set and the stream's tags; whether it was set
   * (video-direction or method, any value) */
  CtOrientation orientation;
  gboolean direction_set;
  /* the job settings now, and the newest version of each kind of caps
   * they made, newest first (@job's among them) */
  CtJobSettings job;
  CtJobSettings *recent;
  guint n_recent;
} CtSettings;

void ct_settings_init (CtSettings * s, GstElement * owner);
void ct_settings_clear (CtSettings * s);

/* set_property and get_property of the CT_PROP_* (FALSE: not one). */
gboolean ct_settings_set (CtSettings * s, guint prop_id,
    const GValue * value, CtSettingsChange * change);
gboolean ct_settings_get (CtSettings * s, guint prop_id, GValue * value);

/* Every setting, read once, into @snap, which holds the reading before
 * (zeroed the first time): the job settings are copied only where their
 * version moved. */
void ct_settings_snapshot (CtSettings * s, CtSnapshot * snap);

/* The job settings now (transform_caps makes caps for them). */
void ct_settings_job (CtSettings * s, CtJobSettings * job);

/* What a pair of caps may have been made for: the newest version of each
 * kind of caps from @since on, newest first, the newest of all first
 * (g_free the array; *@n of them, at least one). A negotiation's caps
 * come from the settings of their transform_caps, which may have changed
 * since: the job takes the newest version they fit, so frames go from
 * one setting the user made to a later one, never back. */
CtJobSettings *ct_settings_recent (CtSettings * s, guint since, guint * n);

/* The stream's tags (a TAG event), as videoflip follows them; under
 * video-direction=auto *@rewritten gets a copy that says rotate-0 (the
 * frames are upright now), else NULL. A new stream (STREAM_START, or the
 * stream stopped) starts with no orientation from tags. */
CtSettingsChange ct_settings_take_tags (CtSettings * s,
    const GstTagList * tags, GstTagList ** rewritten);
CtSettingsChange ct_settings_reset_tags (CtSettings * s);

/* The permutation: its order into @perm when valid; when invalid, the
 * reason into @why if given (g_free it). */
CtPermutationState ct_settings_permutation (CtSettings * s, guint perm[4],
    gchar ** why);

/* The error of an invalid permutation or arithmetic option; @why (taken)
 * quotes it. */
void ct_settings_refuse_permutation (gchar * why, CtRefusal * r);
void ct_settings_refuse_arithmetic (gchar * why, CtRefusal * r);

/* start (): the kernel and device asked for, and from now on a change
 * follows the streaming rules; FALSE with @r set for an invalid
 * permutation or arithmetic. ct_settings_stop: the stream ended (or start
 * failed). */
gboolean ct_settings_start (CtSettings * s, CtKernel * kernel,
    gint * device_id, CtRefusal * r);
void ct_settings_stop (CtSettings * s);

/* The kernel and device asked for now (they may change while playing). */
CtKernel ct_settings_kernel (CtSettings * s, gint * device_id);

/* The kernel and frames-in-flight asked for now (for the latency). */
CtKernel ct_settings_running (CtSettings * s, guint * frames_in_flight);

/* Records what ran; TRUE when it changed (notify active-kernel). */
gboolean ct_settings_set_active (CtSettings * s, CtPath path);

G_END_DECLS
