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
 * owner's object lock, each checked where it is set (the permutation
 * parsed once), and the rules for a change while streaming. The
 * properties module installs them (their documentation lives there); the
 * element hands set_property and get_property here. */

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
};

/* What the permutation property holds. */
typedef enum
{
  CT_PERMUTATION_NONE,          /* unset: transpose */
  CT_PERMUTATION_VALID,
  CT_PERMUTATION_INVALID,       /* kept as set, refused when starting */
} CtPermutationState;

/* What a property change asks of the element. */
typedef enum
{
  CT_SETTINGS_KEPT = 0,
  CT_SETTINGS_RENEGOTIATE = 1 << 0,     /* from the next buffer */
  CT_SETTINGS_LATENCY = 1 << 1, /* what a held frame adds may change */
} CtSettingsChange;

typedef struct
{
  GstElement *owner;
  CtKernel kernel;
  gint device_id;
  CtPath active_kernel;         /* what ran last */
  gchar *permutation;           /* as set, valid or not; NULL: none */
  /* ... parsed once, where it is set: its order, or why it is invalid */
  CtPermutationState perm_state;
  guint perm[4];
  gchar *perm_why;
  gchar *arithmetic;            /* as set, valid or not; NULL: none */
  /* ... parsed once, where it is set: the option, or why it is invalid */
  CtArithState arith_state;
  CtArithSpec arith;
  gchar *arith_why;
  guint frames_in_flight;
  /* between start and stop: a permutation set then applies at the next
   * buffer, and an invalid one is refused */
  gboolean running;
  /* counts changes of video-direction, permutation and arithmetic: caps
   * refused under other settings are tried anew */
  guint seq;
  /* video-direction as set, the stream's tags, and what the next
   * negotiation and buffer take */
  CtDirection direction;
} CtSettings;

/* @changed: the owner's renegotiation when the direction in effect
 * changes (CtDirection). */
void ct_settings_init (CtSettings * s, GstElement * owner,
    CtDirectionChanged changed);
void ct_settings_clear (CtSettings * s);

/* set_property and get_property of the CT_PROP_* (FALSE: not one). */
gboolean ct_settings_set (CtSettings * s, guint prop_id,
    const GValue * value, CtSettingsChange * change);
gboolean ct_settings_get (CtSettings * s, guint prop_id, GValue * value);

/* The permutation: its order into @perm when valid; when invalid, the
 * reason into @why if given (g_free it). */
CtPermutationState ct_settings_permutation (CtSettings * s, guint perm[4],
    gchar ** why);

/* The error of an invalid permutation; @why (taken) quotes it. */
void ct_settings_refuse_permutation (gchar * why, CtRefusal * r);

/* The arithmetic: the option into @spec when valid; when invalid, the
 * reason into @why if given (g_free it). */
CtArithState ct_settings_arithmetic (CtSettings * s, CtArithSpec * spec,
    gchar ** why);

/* The error of an invalid arithmetic option; @why (taken) quotes it. */
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

/* Records what ran; TRUE when it changed (notify active-kernel). */
gboolean ct_settings_set_active (CtSettings * s, CtPath path);

G_END_DECLS
