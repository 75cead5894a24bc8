/* The settings module alone (gst/gstcudatransposesettings.c), without a
 * pipeline: the rules for what a user sets. A permutation is parsed where
 * it is set; an invalid one is kept before the stream starts (start then
 * refuses it, quoting it) and refused while streaming (the running one
 * stays, with a warning); what a change needs (renegotiate, a new
 * latency); a direction outside the eight and auto refused. The owner is
 * a bare pipeline: its object lock, its bus for the warnings. Each
 * expectation is the rule as docs/design.md and the property's blurb say
 * it, written here. */
#include <gst/check/gstcheck.h>

#include <string.h>

#include "gstcudatranspose.h"
#include "gstcudatransposesettings.h"

GST_DEBUG_CATEGORY (gst_cuda_transpose_debug);

typedef struct
{
  GstElement *owner;
  GstBus *bus;
  CtSettings s;
  guint changes;                /* the direction's callback */
  GstVideoOrientationMethod was, now;
} Fixture;

static void
changed (GstElement * owner, GstVideoOrientationMethod was,
    GstVideoOrientationMethod now)
{
  Fixture *f = g_object_get_data (G_OBJECT (owner), "fixture");

  f->changes++;
  f->was = was;
  f->now = now;
}

static void
fixture_init (Fixture * f)
{
  memset (f, 0, sizeof (*f));
  f->owner = gst_pipeline_new ("owner");
  f->bus = gst_element_get_bus (f->owner);
  g_object_set_data (G_OBJECT (f->owner), "fixture", f);
  ct_settings_init (&f->s, f->owner, changed);
}

static void
fixture_clear (Fixture * f)
{
  ct_settings_clear (&f->s);
  gst_bus_set_flushing (f->bus, TRUE);
  gst_object_unref (f->bus);
  gst_object_unref (f->owner);
}

static CtSettingsChange
set_string (Fixture * f, guint prop, const gchar * text)
{
  GValue v = G_VALUE_INIT;
  CtSettingsChange change;

  g_value_init (&v, G_TYPE_STRING);
  g_value_set_string (&v, text);
  fail_unless (ct_settings_set (&f->s, prop, &v, &change));
  g_value_unset (&v);
  return change;
}

static CtSettingsChange
set_enum (Fixture * f, guint prop, GType type, gint value)
{
  GValue v = G_VALUE_INIT;
  CtSettingsChange change;

  g_value_init (&v, type);
  g_value_set_enum (&v, value);
  fail_unless (ct_settings_set (&f->s, prop, &v, &change));
  g_value_unset (&v);
  return change;
}

/* The text of the next warning on the owner's bus (g_free it); NULL if
 * there is none. */
static gchar *
pop_warning (Fixture * f)
{
  GstMessage *msg = gst_bus_pop_filtered (f->bus, GST_MESSAGE_WARNING);
  GError *err = NULL;
  gchar *text;

  if (!msg)
    return NULL;
  gst_message_parse_warning (msg, &err, NULL);
  text = g_strdup (err->message);
  g_error_free (err);
  gst_message_unref (msg);
  return text;
}

GST_START_TEST (test_defaults)
{
  GValue v = G_VALUE_INIT;
  Fixture f;

  fixture_init (&f);
  g_value_init (&v, GST_TYPE_CUDA_TRANSPOSE_KERNEL);
  fail_unless (ct_settings_get (&f.s, CT_PROP_KERNEL, &v));
  fail_unless_equals_int (g_value_get_enum (&v), CT_KERNEL_AUTO);
  g_value_unset (&v);
  g_value_init (&v, G_TYPE_INT);
  fail_unless (ct_settings_get (&f.s, CT_PROP_DEVICE_ID, &v));
  fail_unless_equals_int (g_value_get_int (&v), -1);
  g_value_unset (&v);
  g_value_init (&v, G_TYPE_UINT);
  fail_unless (ct_settings_get (&f.s, CT_PROP_FRAMES_IN_FLIGHT, &v));
  fail_unless_equals_int (g_value_get_uint (&v), 2);
  g_value_unset (&v);
  g_value_init (&v, G_TYPE_STRING);
  fail_unless (ct_settings_get (&f.s, CT_PROP_PERMUTATION, &v));
  fail_unless (g_value_get_string (&v) == NULL);
  g_value_unset (&v);
  g_value_init (&v, GST_TYPE_CUDA_TRANSPOSE_PATH);
  fail_unless (ct_settings_get (&f.s, CT_PROP_ACTIVE_KERNEL, &v));
  fail_unless_equals_int (g_value_get_enum (&v), CT_PATH_NONE);
  g_value_unset (&v);
  /* the element's name is its default job: the transpose */
  fail_unless_equals_int (ct_direction_proposed (&f.s.direction),
      GST_VIDEO_ORIENTATION_UL_LR);
  /* not one of ours */
  g_value_init (&v, G_TYPE_INT);
  fail_if (ct_settings_get (&f.s, 999, &v));
  g_value_unset (&v);
  fixture_clear (&f);
}

GST_END_TEST;

/* Before the stream: a valid permutation is parsed and kept, an invalid
 * one is kept as set (warned about at once) and start refuses it, quoting
 * it; "" unsets. Nothing renegotiates before the stream. */
GST_START_TEST (test_permutation_before_start)
{
  guint perm[4], seq;
  gchar *why = NULL;
  CtRefusal r = { 0, };
  CtKernel kernel;
  gint device;
  Fixture f;

  fixture_init (&f);
  seq = f.s.seq;
  fail_unless_equals_int (set_string (&f, CT_PROP_PERMUTATION, "1:2:0:3"),
      CT_SETTINGS_KEPT);
  fail_unless_equals_int (f.s.seq, seq + 1);
  fail_unless_equals_int (ct_settings_permutation (&f.s, perm, NULL),
      CT_PERMUTATION_VALID);
  fail_unless (perm[0] == 1 && perm[1] == 2 && perm[2] == 0 && perm[3] == 3);

  ASSERT_WARNING (set_string (&f, CT_PROP_PERMUTATION, "1:1:0:3"));
  fail_unless_equals_int (ct_settings_permutation (&f.s, perm, &why),
      CT_PERMUTATION_INVALID);
  fail_unless (why != NULL);
  g_free (why);
  fail_unless (pop_warning (&f) == NULL, "a warning on the bus before the "
      "stream: g_warning says it where gst-launch shows it");

  fail_if (ct_settings_start (&f.s, &kernel, &device, &r));
  fail_unless (r.domain == GST_RESOURCE_ERROR);
  fail_unless (strstr (r.text, "Invalid permutation property") != NULL,
      "%s", r.text);
  fail_unless (strstr (r.text, "\"1:1:0:3\"") != NULL, "%s", r.text);
  fail_unless (strstr (r.text, "Set a valid one") != NULL, "%s", r.text);
  ct_refusal_clear (&r);
  fail_if (f.s.running);

  fail_unless_equals_int (set_string (&f, CT_PROP_PERMUTATION, ""),
      CT_SETTINGS_KEPT);
  fail_unless_equals_int (ct_settings_permutation (&f.s, perm, NULL),
      CT_PERMUTATION_NONE);
  fail_unless (ct_settings_start (&f.s, &kernel, &device, &r));
  fail_unless (r.text == NULL);
  fail_unless_equals_int (kernel, CT_KERNEL_AUTO);
  fail_unless_equals_int (device, -1);
  fail_unless (f.s.running);
  fixture_clear (&f);
}

GST_END_TEST;

/* While streaming: an invalid permutation is refused with a warning that
 * names the running one, which stays; a new valid one renegotiates, the
 * same one does not. */
GST_START_TEST (test_permutation_while_streaming)
{
  CtRefusal r = { 0, };
  CtKernel kernel;
  guint perm[4], seq;
  gchar *text;
  gint device;
  Fixture f;

  fixture_init (&f);
  set_string (&f, CT_PROP_PERMUTATION, "2:0:1:3");
  fail_unless (ct_settings_start (&f.s, &kernel, &device, &r));

  seq = f.s.seq;
  ASSERT_WARNING (fail_unless_equals_int (set_string (&f,
              CT_PROP_PERMUTATION, "0:1:2"), CT_SETTINGS_KEPT));
  fail_unless_equals_int (f.s.seq, seq);
  text = pop_warning (&f);
  fail_unless (text != NULL);
  fail_unless (strstr (text, "permutation=\"2:0:1:3\"") != NULL, "%s", text);
  g_free (text);
  fail_unless_equals_int (ct_settings_permutation (&f.s, perm, NULL),
      CT_PERMUTATION_VALID);
  fail_unless (perm[0] == 2 && perm[1] == 0 && perm[2] == 1 && perm[3] == 3);

  fail_unless_equals_int (set_string (&f, CT_PROP_PERMUTATION, "1:2:0:3"),
      CT_SETTINGS_RENEGOTIATE);
  fail_unless_equals_int (set_string (&f, CT_PROP_PERMUTATION, "1:2:0:3"),
      CT_SETTINGS_KEPT);
  fail_unless_equals_int (set_string (&f, CT_PROP_PERMUTATION, NULL),
      CT_SETTINGS_RENEGOTIATE);
  fail_unless_equals_int (ct_settings_permutation (&f.s, perm, NULL),
      CT_PERMUTATION_NONE);
  fail_unless (pop_warning (&f) == NULL);

  ct_settings_stop (&f.s);
  fail_if (f.s.running);
  /* stopped: an invalid one is kept again */
  ASSERT_WARNING (set_string (&f, CT_PROP_PERMUTATION, "9"));
  fail_unless_equals_int (ct_settings_permutation (&f.s, perm, NULL),
      CT_PERMUTATION_INVALID);
  fixture_clear (&f);
}

GST_END_TEST;

/* The kernel, the device and frames-in-flight: kept as set; a change of
 * frames-in-flight may change the latency. */
GST_START_TEST (test_kernel_device_frames)
{
  GValue v = G_VALUE_INIT;
  CtSettingsChange change;
  gint device = 0;
  Fixture f;

  fixture_init (&f);
  fail_unless_equals_int (set_enum (&f, CT_PROP_KERNEL,
          GST_TYPE_CUDA_TRANSPOSE_KERNEL, CT_KERNEL_TILED), CT_SETTINGS_KEPT);
  g_value_init (&v, G_TYPE_INT);
  g_value_set_int (&v, 3);
  fail_unless (ct_settings_set (&f.s, CT_PROP_DEVICE_ID, &v, &change));
  fail_unless_equals_int (change, CT_SETTINGS_KEPT);
  g_value_unset (&v);
  fail_unless_equals_int (ct_settings_kernel (&f.s, &device),
      CT_KERNEL_TILED);
  fail_unless_equals_int (device, 3);

  g_value_init (&v, G_TYPE_UINT);
  g_value_set_uint (&v, 1);
  fail_unless (ct_settings_set (&f.s, CT_PROP_FRAMES_IN_FLIGHT, &v, &change));
  fail_unless_equals_int (change, CT_SETTINGS_LATENCY);
  g_value_unset (&v);
  g_value_init (&v, G_TYPE_UINT);
  fail_unless (ct_settings_get (&f.s, CT_PROP_FRAMES_IN_FLIGHT, &v));
  fail_unless_equals_int (g_value_get_uint (&v), 1);
  g_value_unset (&v);

  /* not one of ours: the element warns */
  g_value_init (&v, G_TYPE_INT);
  fail_if (ct_settings_set (&f.s, 999, &v, &change));
  g_value_unset (&v);

  /* what ran: a change is said once */
  fail_unless (ct_settings_set_active (&f.s, CT_PATH_WIDE));
  fail_if (ct_settings_set_active (&f.s, CT_PATH_WIDE));
  fail_unless (ct_settings_set_active (&f.s, CT_PATH_CPU));
  ct_settings_stop (&f.s);
  g_value_init (&v, GST_TYPE_CUDA_TRANSPOSE_PATH);
  fail_unless (ct_settings_get (&f.s, CT_PROP_ACTIVE_KERNEL, &v));
  fail_unless_equals_int (g_value_get_enum (&v), CT_PATH_NONE);
  g_value_unset (&v);
  fixture_clear (&f);
}

GST_END_TEST;

/* video-direction (and method): one of the eight or auto is taken, and a
 * change of what is proposed calls the owner back once; custom is
 * refused, said twice (g_warning and the bus), and nothing changes. */
GST_START_TEST (test_direction)
{
  GType type = GST_TYPE_VIDEO_ORIENTATION_METHOD;
  GValue v = G_VALUE_INIT;
  gchar *text;
  guint seq;
  Fixture f;

  fixture_init (&f);
  seq = f.s.seq;
  set_enum (&f, CT_PROP_VIDEO_DIRECTION, type, GST_VIDEO_ORIENTATION_90R);
  fail_unless_equals_int (f.changes, 1);
  fail_unless_equals_int (f.was, GST_VIDEO_ORIENTATION_UL_LR);
  fail_unless_equals_int (f.now, GST_VIDEO_ORIENTATION_90R);
  fail_unless_equals_int (f.s.seq, seq + 1);
  /* the same again: counted, no callback */
  set_enum (&f, CT_PROP_METHOD, type, GST_VIDEO_ORIENTATION_90R);
  fail_unless_equals_int (f.changes, 1);

  seq = f.s.seq;
  ASSERT_WARNING (set_enum (&f, CT_PROP_VIDEO_DIRECTION, type,
          GST_VIDEO_ORIENTATION_CUSTOM));
  text = pop_warning (&f);
  fail_unless (text != NULL);
  fail_unless (strstr (text, "video-direction=custom") != NULL, "%s", text);
  fail_unless (strstr (text, "auto") != NULL, "%s", text);
  g_free (text);
  fail_unless_equals_int (f.changes, 1);
  fail_unless_equals_int (f.s.seq, seq);
  fail_unless_equals_int (ct_direction_proposed (&f.s.direction),
      GST_VIDEO_ORIENTATION_90R);

  g_value_init (&v, type);
  fail_unless (ct_settings_get (&f.s, CT_PROP_VIDEO_DIRECTION, &v));
  fail_unless_equals_int (g_value_get_enum (&v), GST_VIDEO_ORIENTATION_90R);
  g_value_unset (&v);
  fixture_clear (&f);
}

GST_END_TEST;

static Suite *
settings_suite (void)
{
  Suite *s = suite_create ("settings");
  TCase *tc = tcase_create ("settings");

  GST_DEBUG_CATEGORY_INIT (gst_cuda_transpose_debug, "cudatranspose", 0,
      "the settings' test");
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_defaults);
  tcase_add_test (tc, test_permutation_before_start);
  tcase_add_test (tc, test_permutation_while_streaming);
  tcase_add_test (tc, test_kernel_device_frames);
  tcase_add_test (tc, test_direction);
  return s;
}

GST_CHECK_MAIN (settings);
