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

#include "gstcudatransposesettings.h"

#include <string.h>
#include <gst/base/gstbasetransform.h>

#include "gstcudatranspose.h"
#include "gstcudatransposetensor.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_transpose_debug);
#define GST_CAT_DEFAULT gst_cuda_transpose_debug

/* The properties' enum types, declared in gstcudatranspose.h. */

/* Registers @values as the enum @name once, from any thread. */
static GType
register_enum (gsize * type, const gchar * name, const GEnumValue * values)
{
  if (g_once_init_enter (type)) {
    GType t = g_enum_register_static (name, values);
    g_once_init_leave (type, t);
  }
  return (GType) * type;
}

GType
gst_cuda_transpose_kernel_get_type (void)
{
  static gsize type = 0;
#define KERNEL_VALUE(id, name, summary) \
    {CT_KERNEL_##id, summary, name},
  static const GEnumValue values[] = {
    CT_KERNEL_LIST (KERNEL_VALUE)
    {0, NULL, NULL},
  };
#undef KERNEL_VALUE

  return register_enum (&type, "GstCudaTransposeKernel", values);
}

GType
gst_cuda_transpose_path_get_type (void)
{
  static gsize type = 0;
#define PATH_VALUE(id, name, summary) \
    {CT_PATH_##id, summary, name},
  static const GEnumValue values[] = {
    CT_PATH_LIST (PATH_VALUE)
    {0, NULL, NULL},
  };
#undef PATH_VALUE

  return register_enum (&type, "GstCudaTransposePath", values);
}

GType
gst_cuda_transpose_channel_order_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_TRANSPOSE_CHANNEL_ORDER_RGB, "Red, green, blue", "rgb"},
    {GST_CUDA_TRANSPOSE_CHANNEL_ORDER_BGR, "Blue, green, red", "bgr"},
    {0, NULL, NULL},
  };

  return register_enum (&type, "GstCudaTransposeChannelOrder", values);
}

/* The kind of caps @j makes: the direction's (identity, keeping the
 * axes, or swapping them), the permutation, and whether there is
 * arithmetic and of which output type. Versions of one kind make the
 * same caps: of those only the newest is kept (ct_settings_recent). */
static gint
direction_kind (GstVideoOrientationMethod direction)
{
  return direction == GST_VIDEO_ORIENTATION_IDENTITY ? 0 :
      ct_direction_swaps (direction) ? 2 : 1;
}

static gboolean
same_kind (const CtJobSettings * a, const CtJobSettings * b)
{
  return direction_kind (a->direction) == direction_kind (b->direction) &&
      direction_kind (a->turn) == direction_kind (b->turn) &&
      a->perm_state == b->perm_state &&
      (a->perm_state != CT_PERMUTATION_VALID ||
      memcmp (a->perm, b->perm, sizeof (a->perm)) == 0) &&
      a->arith_state == b->arith_state &&
      (a->arith_state != CT_ARITH_STATE_VALID ||
      (a->arith.typecast == b->arith.typecast &&
          (!a->arith.typecast || a->arith.out_type == b->arith.out_type)));
}

/* The job settings changed (under the object lock): a new version, the
 * newest of its kind. */
static void
new_version (CtSettings * s)
{
  guint i, n = 0;

  s->job.version++;
  s->job.direction = s->orientation.proposed;
  s->job.turn = s->direction_set ? s->orientation.proposed :
      GST_VIDEO_ORIENTATION_IDENTITY;
  s->job.turn_from_tag = s->direction_set &&
      s->orientation.direction == GST_VIDEO_ORIENTATION_AUTO;
  /* the others of other kinds, in order (n <= i: each read before it is
   * written over), then the new one first */
  for (i = 0; i < s->n_recent; i++) {
    if (!same_kind (&s->recent[i], &s->job))
      s->recent[n++] = s->recent[i];
  }
  n = MIN (n, CT_SETTINGS_RECENT - 1);
  memmove (&s->recent[1], &s->recent[0], n * sizeof (s->recent[0]));
  s->recent[0] = s->job;
  s->n_recent = n + 1;
}

void
ct_settings_init (CtSettings * s, GstElement * owner)
{
  memset (s, 0, sizeof (*s));
  s->owner = owner;
  s->kernel = CT_DEFAULT_KERNEL;
  s->device_id = CT_DEFAULT_DEVICE_ID;
  s->active_kernel = CT_PATH_NONE;
  s->frames_in_flight = CT_DEFAULT_FRAMES_IN_FLIGHT;
  ct_orientation_init (&s->orientation, CT_DEFAULT_DIRECTION);
  s->job.perm_state = CT_PERMUTATION_NONE;
  s->job.arith_state = CT_ARITH_STATE_NONE;
  /* (a hole in the versions: the one after init is the first) */
  s->recent = g_new0 (CtJobSettings, CT_SETTINGS_RECENT);
  new_version (s);
}

void
ct_settings_clear (CtSettings * s)
{
  g_clear_pointer (&s->permutation, g_free);
  g_clear_pointer (&s->perm_why, g_free);
  g_clear_pointer (&s->arithmetic, g_free);
  g_clear_pointer (&s->arith_why, g_free);
  g_clear_pointer (&s->recent, g_free);
  s->n_recent = 0;
}

/* Keeps an option's parsed value and state (under the object lock):
 * @text NULL for none, @valid whether it parsed, @parsed what it parsed
 * to. */
typedef void (*KeepOption) (CtSettings * s, const gchar * text,
    gboolean valid, gconstpointer parsed);

/* The text options (permutation, arithmetic), parsed where they are set
 * (@valid, @why, @parsed): an invalid value is said at once; before the
 * stream starts it is kept (start fails quoting it, rather than running
 * something else), while streaming it is refused and the running one
 * stays. A valid one is a new version of the job settings. @text_slot and
 * @why_slot are the option's fields, @keep keeps the rest; @why is
 * taken. */
static CtSettingsChange
set_option (CtSettings * s, const gchar * name, const gchar * text,
    gboolean valid, gchar * why, gconstpointer parsed, gchar ** text_slot,
    gchar ** why_slot, KeepOption keep)
{
  gchar *was = NULL;
  gboolean running, changed = FALSE;

  if (!valid)
    g_warning ("cudatranspose: invalid %s property: %s", name, why);

  GST_OBJECT_LOCK (s->owner);
  running = s->running;
  if (valid || !running) {
    changed = g_strcmp0 (text, *text_slot) != 0;
    g_free (*text_slot);
    *text_slot = g_strdup (text);
    keep (s, text, valid, parsed);
    g_free (*why_slot);
    *why_slot = g_strdup (why);
    if (changed)
      new_version (s);
  } else {
    was = ct_quote (*text_slot ? *text_slot : "");
  }
  GST_OBJECT_UNLOCK (s->owner);

  if (!valid && running) {
    GST_ELEMENT_WARNING (s->owner, RESOURCE, SETTINGS, ("Invalid "
            "%s property: %s. The stream goes on with %s=\"%s\".", name,
            why, name, was), (NULL));
  } else if (changed && running) {
    GST_DEBUG_OBJECT (s->owner, "%s changed: from the next buffer", name);
  }
  g_free (why);
  g_free (was);
  return changed ? CT_SETTINGS_RECONFIGURE : CT_SETTINGS_KEPT;
}

static void
keep_permutation (CtSettings * s, const gchar * text, gboolean valid,
    gconstpointer parsed)
{
  s->job.perm_state = !text ? CT_PERMUTATION_NONE : valid ?
      CT_PERMUTATION_VALID : CT_PERMUTATION_INVALID;
  memcpy (s->job.perm, parsed, sizeof (s->job.perm));
}

/* The permutation property (set_option). */
static CtSettingsChange
set_permutation (CtSettings * s, const gchar * text)
{
  gchar *why = NULL;
  gboolean valid;
  guint perm[4] = { 0, 1, 2, 3 };

  if (text && !text[0])
    text = NULL;
  valid = !text || ct_tensor_parse_permutation (text, perm, &why);
  return set_option (s, "permutation", text, valid, why, perm,
      &s->permutation, &s->perm_why, keep_permutation);
}

static void
keep_arithmetic (CtSettings * s, const gchar * text, gboolean valid,
    gconstpointer parsed)
{
  s->job.arith_state = !text ? CT_ARITH_STATE_NONE : valid ?
      CT_ARITH_STATE_VALID : CT_ARITH_STATE_INVALID;
  s->job.arith = *(const CtArithSpec *) parsed;
}

/* The arithmetic property (set_option). */
static CtSettingsChange
set_arithmetic (CtSettings * s, const gchar * text)
{
  CtArithSpec *spec = g_new0 (CtArithSpec, 1);
  gchar *why = NULL;
  gboolean valid;
  CtSettingsChange change;

  if (text && !text[0])
    text = NULL;
  valid = !text || ct_arith_parse (text, spec, &why);
  change = set_option (s, "arithmetic", text, valid, why, spec,
      &s->arithmetic, &s->arith_why, keep_arithmetic);
  g_free (spec);
  return change;
}

/* The video-direction property: one of the 8 or auto; another is refused
 * with a warning, and the direction stays. */
static CtSettingsChange
set_direction (CtSettings * s, GstVideoOrientationMethod method)
{
  gboolean changed;

  if (!ct_direction_is_orientation (method) &&
      method != GST_VIDEO_ORIENTATION_AUTO) {
    /* (said where gst-launch shows it too: an element being made has no
     * bus yet) */
    g_warning ("cudatranspose: video-direction=%s is not supported: the "
        "direction stays as it was. Use one of identity, 90r, 180, 90l, "
        "horiz, vert, ul-lr, ur-ll or auto.", ct_direction_nick (method));
    GST_ELEMENT_WARNING (s->owner, RESOURCE, SETTINGS, ("video-direction=%s "
            "is not supported: the direction stays as it was. Use one of "
            "identity, 90r, 180, 90l, horiz, vert, ul-lr, ur-ll or auto.",
            ct_direction_nick (method)), (NULL));
    return CT_SETTINGS_KEPT;
  }
  GST_OBJECT_LOCK (s->owner);
  changed = ct_orientation_set (&s->orientation, method, FALSE) ||
      !s->direction_set;
  /* (from now on it turns tensors made of video too) */
  s->direction_set = TRUE;
  if (changed)
    new_version (s);
  GST_OBJECT_UNLOCK (s->owner);
  return changed ? CT_SETTINGS_RECONFIGURE : CT_SETTINGS_KEPT;
}

/* The channel-order property: a new version where it changed (the caps
 * stay: only the job's conversion does not). */
static CtSettingsChange
set_channel_order (CtSettings * s, gint order)
{
  gboolean bgr = order == GST_CUDA_TRANSPOSE_CHANNEL_ORDER_BGR, changed;

  GST_OBJECT_LOCK (s->owner);
  changed = s->job.bgr != bgr;
  s->job.bgr = bgr;
  if (changed)
    new_version (s);
  GST_OBJECT_UNLOCK (s->owner);
  return changed ? CT_SETTINGS_RECONFIGURE : CT_SETTINGS_KEPT;
}

gboolean
ct_settings_set (CtSettings * s, guint prop_id, const GValue * value,
    CtSettingsChange * change)
{
  *change = CT_SETTINGS_KEPT;
  switch (prop_id) {
    case CT_PROP_VIDEO_DIRECTION:
    case CT_PROP_METHOD:
      *change = set_direction (s, g_value_get_enum (value));
      return TRUE;
    case CT_PROP_PERMUTATION:
      *change = set_permutation (s, g_value_get_string (value));
      return TRUE;
    case CT_PROP_ARITHMETIC:
      *change = set_arithmetic (s, g_value_get_string (value));
      return TRUE;
    case CT_PROP_CHANNEL_ORDER:
      *change = set_channel_order (s, g_value_get_enum (value));
      return TRUE;
    case CT_PROP_KERNEL:
    case CT_PROP_DEVICE_ID:
    case CT_PROP_FRAMES_IN_FLIGHT:
      break;
    default:
      return FALSE;
  }
  GST_OBJECT_LOCK (s->owner);
  if (prop_id == CT_PROP_KERNEL)
    s->kernel = (CtKernel) g_value_get_enum (value);
  else if (prop_id == CT_PROP_DEVICE_ID)
    s->device_id = g_value_get_int (value);
  else
    s->frames_in_flight = g_value_get_uint (value);
  GST_OBJECT_UNLOCK (s->owner);
  if (prop_id != CT_PROP_DEVICE_ID)
    *change = CT_SETTINGS_LATENCY;
  return TRUE;
}

gboolean
ct_settings_get (CtSettings * s, guint prop_id, GValue * value)
{
  gboolean ours = TRUE;

  GST_OBJECT_LOCK (s->owner);
  switch (prop_id) {
    case CT_PROP_KERNEL:
      g_value_set_enum (value, s->kernel);
      break;
    case CT_PROP_DEVICE_ID:
      g_value_set_int (value, s->device_id);
      break;
    case CT_PROP_ACTIVE_KERNEL:
      g_value_set_enum (value, s->active_kernel);
      break;
    case CT_PROP_PERMUTATION:
      g_value_set_string (value, s->permutation);
      break;
    case CT_PROP_ARITHMETIC:
      g_value_set_string (value, s->arithmetic);
      break;
    case CT_PROP_FRAMES_IN_FLIGHT:
      g_value_set_uint (value, s->frames_in_flight);
      break;
    case CT_PROP_VIDEO_DIRECTION:
    case CT_PROP_METHOD:
      g_value_set_enum (value, s->orientation.direction);
      break;
    case CT_PROP_CHANNEL_ORDER:
      g_value_set_enum (value, s->job.bgr ?
          GST_CUDA_TRANSPOSE_CHANNEL_ORDER_BGR :
          GST_CUDA_TRANSPOSE_CHANNEL_ORDER_RGB);
      break;
    default:
      ours = FALSE;
      break;
  }
  GST_OBJECT_UNLOCK (s->owner);
  return ours;
}

void
ct_settings_snapshot (CtSettings * s, CtSnapshot * snap)
{
  GST_OBJECT_LOCK (s->owner);
  /* (the job settings, arithmetic and all, only where they moved) */
  if (snap->job.version != s->job.version)
    snap->job = s->job;
  snap->kernel = s->kernel;
  snap->device_id = s->device_id;
  snap->frames_in_flight = s->frames_in_flight;
  GST_OBJECT_UNLOCK (s->owner);
}

void
ct_settings_job (CtSettings * s, CtJobSettings * job)
{
  GST_OBJECT_LOCK (s->owner);
  *job = s->job;
  GST_OBJECT_UNLOCK (s->owner);
}

CtJobSettings *
ct_settings_recent (CtSettings * s, guint since, guint * n)
{
  CtJobSettings *recent;
  guint i;

  GST_OBJECT_LOCK (s->owner);
  recent = g_new (CtJobSettings, s->n_recent);
  /* (recent[0] is the newest: it is always given) */
  for (*n = 0, i = 0; i < s->n_recent; i++) {
    if (i == 0 || s->recent[i].version >= since)
      recent[(*n)++] = s->recent[i];
  }
  GST_OBJECT_UNLOCK (s->owner);
  return recent;
}

CtSettingsChange
ct_settings_take_tags (CtSettings * s, const GstTagList * tags,
    GstTagList ** rewritten)
{
  gboolean changed;

  GST_OBJECT_LOCK (s->owner);
  changed = ct_orientation_take_tags (&s->orientation, tags);
  if (changed)
    new_version (s);
  *rewritten = ct_orientation_rewrite_tags (&s->orientation, tags);
  GST_OBJECT_UNLOCK (s->owner);
  return changed ? CT_SETTINGS_RECONFIGURE : CT_SETTINGS_KEPT;
}

CtSettingsChange
ct_settings_reset_tags (CtSettings * s)
{
  gboolean changed;

  GST_OBJECT_LOCK (s->owner);
  changed = ct_orientation_reset_tags (&s->orientation);
  if (changed)
    new_version (s);
  GST_OBJECT_UNLOCK (s->owner);
  return changed ? CT_SETTINGS_RECONFIGURE : CT_SETTINGS_KEPT;
}

CtPermutationState
ct_settings_permutation (CtSettings * s, guint perm[4], gchar ** why)
{
  CtPermutationState state;

  GST_OBJECT_LOCK (s->owner);
  state = s->job.perm_state;
  memcpy (perm, s->job.perm, sizeof (s->job.perm));
  if (why)
    *why = g_strdup (s->perm_why);
  GST_OBJECT_UNLOCK (s->owner);
  return state;
}

void
ct_settings_refuse_permutation (gchar * why, CtRefusal * r)
{
  CT_REFUSE (r, RESOURCE, SETTINGS, ("Invalid permutation property: %s. "
          "Set a valid one, or set it to \"\" to transpose the two innermost "
          "dimensions.", why), (NULL));
  g_free (why);
}

void
ct_settings_refuse_arithmetic (gchar * why, CtRefusal * r)
{
  CT_REFUSE (r, RESOURCE, SETTINGS, ("Invalid arithmetic property: %s. "
          "Set a valid one, or set it to \"\" for no arithmetic.", why),
      (NULL));
  g_free (why);
}

gboolean
ct_settings_start (CtSettings * s, CtKernel * kernel, gint * device_id,
    CtRefusal * r)
{
  gchar *why = NULL;
  gboolean perm_valid, arith_valid;

  /* (one look at the permutation and the arithmetic: from now on an
   * invalid one set is refused) */
  GST_OBJECT_LOCK (s->owner);
  *kernel = s->kernel;
  *device_id = s->device_id;
  perm_valid = s->job.perm_state != CT_PERMUTATION_INVALID;
  arith_valid = s->job.arith_state != CT_ARITH_STATE_INVALID;
  if (!perm_valid)
    why = g_strdup (s->perm_why);
  else if (!arith_valid)
    why = g_strdup (s->arith_why);
  s->running = perm_valid && arith_valid;
  GST_OBJECT_UNLOCK (s->owner);
  if (!perm_valid)
    ct_settings_refuse_permutation (why, r);
  else if (!arith_valid)
    ct_settings_refuse_arithmetic (why, r);
  return perm_valid && arith_valid;
}

void
ct_settings_stop (CtSettings * s)
{
  GST_OBJECT_LOCK (s->owner);
  s->active_kernel = CT_PATH_NONE;
  s->running = FALSE;
  GST_OBJECT_UNLOCK (s->owner);
}

CtKernel
ct_settings_running (CtSettings * s, guint * frames_in_flight)
{
  CtKernel kernel;

  GST_OBJECT_LOCK (s->owner);
  kernel = s->kernel;
  *frames_in_flight = s->frames_in_flight;
  GST_OBJECT_UNLOCK (s->owner);
  return kernel;
}

CtKernel
ct_settings_kernel (CtSettings * s, gint * device_id)
{
  CtKernel kernel;

  GST_OBJECT_LOCK (s->owner);
  kernel = s->kernel;
  if (device_id)
    *device_id = s->device_id;
  GST_OBJECT_UNLOCK (s->owner);
  return kernel;
}

gboolean
ct_settings_set_active (CtSettings * s, CtPath path)
{
  gboolean changed;

  GST_OBJECT_LOCK (s->owner);
  changed = s->active_kernel != path;
  s->active_kernel = path;
  GST_OBJECT_UNLOCK (s->owner);
  return changed;
}
