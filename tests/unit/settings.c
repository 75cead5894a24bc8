/* The settings module alone (gst/gstcudatransposesettings.c), without a
 * pipeline: the rules for what a user sets. A permutation is parsed where
 * it is set; an invalid one is kept before the stream starts (start then
 * refuses it, quoting it) and refused while streaming (the running one
 * stays, with a warning); what a change needs (a reconfigure); a
 * direction outside the eight and auto refused; the versions of the job
 * settings, the newest of each kind of caps kept, and one reading of them
 * whole while another thread sets them. The owner is a bare pipeline: its
 * object lock, its bus for the warnings. Each expectation is the rule as
 * docs/design.md and the property's blurb say it, written here. */
#include <gst/check/gstcheck.h>

#include <string.h>

#include "gstcudatranspose.h"
#include "gstcudatransposesettings.h"
#include "transpose-check.h"

GST_DEBUG_CATEGORY (gst_cuda_transpose_debug);

typedef struct
{
  GstElement *owner;
  GstBus *bus;
  CtSettings s;
} Fixture;

static void
fixture_init (Fixture * f)
{
  memset (f, 0, sizeof (*f));
  f->owner = gst_pipeline_new ("owner");
  f->bus = gst_element_get_bus (f->owner);
  ct_settings_init (&f->s, f->owner);
}

/* The job settings now. */
static CtJobSettings *
job_now (Fixture * f)
{
  static CtJobSettings js;

  ct_settings_job (&f->s, &js);
  return &js;
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
  /* the element's name is its default job: the transpose; the first
   * version is 1 (0 stands for none) */
  fail_unless_equals_int (job_now (&f)->direction,
      GST_VIDEO_ORIENTATION_UL_LR);
  fail_unless_equals_int (job_now (&f)->version, 1);
  /* not one of ours */
  g_value_init (&v, G_TYPE_INT);
  fail_if (ct_settings_get (&f.s, 999, &v));
  g_value_unset (&v);
  fixture_clear (&f);
}

GST_END_TEST;

/* Before the stream: a valid permutation is parsed and kept, an invalid
 * one is kept as set (warned about at once) and start refuses it, quoting
 * it; "" unsets. Each change is a new version. */
GST_START_TEST (test_permutation_before_start)
{
  guint perm[4], version;
  gchar *why = NULL;
  CtRefusal r = { 0, };
  CtKernel kernel;
  gint device;
  Fixture f;

  fixture_init (&f);
  version = job_now (&f)->version;
  fail_unless_equals_int (set_string (&f, CT_PROP_PERMUTATION, "1:2:0:3"),
      CT_SETTINGS_RECONFIGURE);
  fail_unless_equals_int (job_now (&f)->version, version + 1);
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
      CT_SETTINGS_RECONFIGURE);
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
 * names the running one, which stays; a new valid one asks for a
 * reconfigure, the same one does not. */
GST_START_TEST (test_permutation_while_streaming)
{
  CtRefusal r = { 0, };
  CtKernel kernel;
  guint perm[4], version;
  gchar *text;
  gint device;
  Fixture f;

  fixture_init (&f);
  set_string (&f, CT_PROP_PERMUTATION, "2:0:1:3");
  fail_unless (ct_settings_start (&f.s, &kernel, &device, &r));

  version = job_now (&f)->version;
  ASSERT_WARNING (fail_unless_equals_int (set_string (&f,
              CT_PROP_PERMUTATION, "0:1:2"), CT_SETTINGS_KEPT));
  fail_unless_equals_int (job_now (&f)->version, version);
  text = pop_warning (&f);
  fail_unless (text != NULL);
  fail_unless (strstr (text, "permutation=\"2:0:1:3\"") != NULL, "%s", text);
  g_free (text);
  fail_unless_equals_int (ct_settings_permutation (&f.s, perm, NULL),
      CT_PERMUTATION_VALID);
  fail_unless (perm[0] == 2 && perm[1] == 0 && perm[2] == 1 && perm[3] == 3);

  fail_unless_equals_int (set_string (&f, CT_PROP_PERMUTATION, "1:2:0:3"),
      CT_SETTINGS_RECONFIGURE);
  fail_unless_equals_int (set_string (&f, CT_PROP_PERMUTATION, "1:2:0:3"),
      CT_SETTINGS_KEPT);
  fail_unless_equals_int (set_string (&f, CT_PROP_PERMUTATION, NULL),
      CT_SETTINGS_RECONFIGURE);
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

/* The kernel, the device and frames-in-flight: kept as set, read by the
 * next buffer (no reconfigure), all in one snapshot; the kernel and
 * frames-in-flight may change the latency. */
GST_START_TEST (test_kernel_device_frames)
{
  GValue v = G_VALUE_INIT;
  CtSettingsChange change;
  gint device = 0;
  Fixture f;

  fixture_init (&f);
  fail_unless_equals_int (set_enum (&f, CT_PROP_KERNEL,
          GST_TYPE_CUDA_TRANSPOSE_KERNEL, CT_KERNEL_TILED),
      CT_SETTINGS_LATENCY);
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
  {
    CtSnapshot snap;

    memset (&snap, 0, sizeof (snap));
    ct_settings_snapshot (&f.s, &snap);
    fail_unless_equals_int (snap.kernel, CT_KERNEL_TILED);
    fail_unless_equals_int (snap.device_id, 3);
    fail_unless_equals_int (snap.frames_in_flight, 1);
    /* none of them is a new version of the job settings */
    fail_unless_equals_int (snap.job.version, 1);
  }

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
 * change of what is proposed is a new version that asks for a
 * reconfigure; the same again is none; custom is refused, said twice
 * (g_warning and the bus), and nothing changes. */
GST_START_TEST (test_direction)
{
  GType type = GST_TYPE_VIDEO_ORIENTATION_METHOD;
  GValue v = G_VALUE_INIT;
  gchar *text;
  guint version;
  Fixture f;

  fixture_init (&f);
  version = job_now (&f)->version;
  fail_unless_equals_int (set_enum (&f, CT_PROP_VIDEO_DIRECTION, type,
          GST_VIDEO_ORIENTATION_90R), CT_SETTINGS_RECONFIGURE);
  fail_unless_equals_int (job_now (&f)->direction, GST_VIDEO_ORIENTATION_90R);
  fail_unless_equals_int (job_now (&f)->version, version + 1);
  /* the same again, by the other name: nothing */
  fail_unless_equals_int (set_enum (&f, CT_PROP_METHOD, type,
          GST_VIDEO_ORIENTATION_90R), CT_SETTINGS_KEPT);
  fail_unless_equals_int (job_now (&f)->version, version + 1);

  ASSERT_WARNING (fail_unless_equals_int (set_enum (&f,
              CT_PROP_VIDEO_DIRECTION, type, GST_VIDEO_ORIENTATION_CUSTOM),
          CT_SETTINGS_KEPT));
  text = pop_warning (&f);
  fail_unless (text != NULL);
  fail_unless (strstr (text, "video-direction=custom") != NULL, "%s", text);
  fail_unless (strstr (text, "auto") != NULL, "%s", text);
  g_free (text);
  fail_unless_equals_int (job_now (&f)->version, version + 1);
  fail_unless_equals_int (job_now (&f)->direction, GST_VIDEO_ORIENTATION_90R);

  g_value_init (&v, type);
  fail_unless (ct_settings_get (&f.s, CT_PROP_VIDEO_DIRECTION, &v));
  fail_unless_equals_int (g_value_get_enum (&v), GST_VIDEO_ORIENTATION_90R);
  g_value_unset (&v);
  fixture_clear (&f);
}

GST_END_TEST;

/* A tensor made of video is turned only where the pipeline set
 * video-direction (or method): unset, the default ul-lr turns video going
 * out as video, and tensors go as the frame comes (identity). Set, even
 * to the default's value, the turn follows what is proposed, tags under
 * auto included. */
GST_START_TEST (test_turn)
{
  GType type = GST_TYPE_VIDEO_ORIENTATION_METHOD;
  GstTagList *tags, *rewritten = NULL;
  guint version;
  Fixture f;

  fixture_init (&f);
  fail_unless_equals_int (job_now (&f)->direction,
      GST_VIDEO_ORIENTATION_UL_LR);
  fail_unless_equals_int (job_now (&f)->turn,
      GST_VIDEO_ORIENTATION_IDENTITY);
  version = job_now (&f)->version;
  /* the default's value, set: a new version, turning tensors too */
  fail_unless_equals_int (set_enum (&f, CT_PROP_VIDEO_DIRECTION, type,
          GST_VIDEO_ORIENTATION_UL_LR), CT_SETTINGS_RECONFIGURE);
  fail_unless_equals_int (job_now (&f)->version, version + 1);
  fail_unless_equals_int (job_now (&f)->turn, GST_VIDEO_ORIENTATION_UL_LR);
  fail_unless_equals_int (set_enum (&f, CT_PROP_METHOD, type,
          GST_VIDEO_ORIENTATION_HORIZ), CT_SETTINGS_RECONFIGURE);
  fail_unless_equals_int (job_now (&f)->turn, GST_VIDEO_ORIENTATION_HORIZ);
  fail_unless_equals_int (job_now (&f)->direction,
      GST_VIDEO_ORIENTATION_HORIZ);
  /* auto: the tags' */
  fail_unless_equals_int (set_enum (&f, CT_PROP_VIDEO_DIRECTION, type,
          GST_VIDEO_ORIENTATION_AUTO), CT_SETTINGS_RECONFIGURE);
  fail_unless_equals_int (job_now (&f)->turn,
      GST_VIDEO_ORIENTATION_IDENTITY);
  tags = gst_tag_list_new (GST_TAG_IMAGE_ORIENTATION, "rotate-90", NULL);
  fail_unless_equals_int (ct_settings_take_tags (&f.s, tags, &rewritten),
      CT_SETTINGS_RECONFIGURE);
  fail_unless_equals_int (job_now (&f)->turn, GST_VIDEO_ORIENTATION_90R);
  gst_clear_tag_list (&rewritten);
  gst_tag_list_unref (tags);
  fixture_clear (&f);
}

GST_END_TEST;

/* Tags: under auto, a stream's image-orientation tag is what is proposed
 * (a new version), and the tags given back say rotate-0; a new stream
 * starts from identity again. Without auto, tags change nothing. */
GST_START_TEST (test_tags)
{
  GType type = GST_TYPE_VIDEO_ORIENTATION_METHOD;
  GstTagList *tags = gst_tag_list_new (GST_TAG_IMAGE_ORIENTATION,
      "rotate-90", NULL), *rewritten = NULL;
  gchar *said = NULL;
  guint version;
  Fixture f;

  fixture_init (&f);
  gst_tag_list_set_scope (tags, GST_TAG_SCOPE_STREAM);
  fail_unless_equals_int (ct_settings_take_tags (&f.s, tags, &rewritten),
      CT_SETTINGS_KEPT);
  fail_unless (rewritten == NULL);
  fail_unless_equals_int (job_now (&f)->direction,
      GST_VIDEO_ORIENTATION_UL_LR);

  set_enum (&f, CT_PROP_VIDEO_DIRECTION, type, GST_VIDEO_ORIENTATION_AUTO);
  /* (auto follows the tags taken before it was set) */
  fail_unless_equals_int (job_now (&f)->direction, GST_VIDEO_ORIENTATION_90R);
  fail_unless_equals_int (ct_settings_reset_tags (&f.s),
      CT_SETTINGS_RECONFIGURE);
  fail_unless_equals_int (job_now (&f)->direction,
      GST_VIDEO_ORIENTATION_IDENTITY);
  version = job_now (&f)->version;
  fail_unless_equals_int (ct_settings_take_tags (&f.s, tags, &rewritten),
      CT_SETTINGS_RECONFIGURE);
  fail_unless_equals_int (job_now (&f)->version, version + 1);
  fail_unless_equals_int (job_now (&f)->direction, GST_VIDEO_ORIENTATION_90R);
  fail_unless (rewritten != NULL);
  fail_unless (gst_tag_list_get_string (rewritten, GST_TAG_IMAGE_ORIENTATION,
          &said));
  fail_unless_equals_string (said, "rotate-0");
  g_free (said);
  gst_tag_list_unref (rewritten);
  /* the same tags again: nothing new */
  fail_unless_equals_int (ct_settings_take_tags (&f.s, tags, &rewritten),
      CT_SETTINGS_KEPT);
  gst_clear_tag_list (&rewritten);
  gst_tag_list_unref (tags);
  fixture_clear (&f);
}

GST_END_TEST;

/* Whether @direction is the identity, keeps the axes or swaps them. */
static const gchar *
axes_of (GstVideoOrientationMethod direction)
{
  if (direction == GST_VIDEO_ORIENTATION_IDENTITY)
    return "identity";
  return direction == GST_VIDEO_ORIENTATION_90R ||
      direction == GST_VIDEO_ORIENTATION_90L ||
      direction == GST_VIDEO_ORIENTATION_UL_LR ||
      direction == GST_VIDEO_ORIENTATION_UR_LL ? "swap" : "keep";
}

/* The kind of caps each version makes, as this test sees it: the axes of
 * the direction and of the turn of tensors made of video, the
 * permutation, and the arithmetic's output type. */
static gchar *
kind_of (const CtJobSettings * js)
{
  gboolean perm = js->perm_state == CT_PERMUTATION_VALID;
  gboolean cast = js->arith_state == CT_ARITH_STATE_VALID &&
      js->arith.typecast;

  return g_strdup_printf ("%s %s %d:%u%u%u%u %d:%d", axes_of (js->direction),
      axes_of (js->turn), js->perm_state,
      perm ? js->perm[0] : 9, perm ? js->perm[1] : 9, perm ? js->perm[2] : 9,
      perm ? js->perm[3] : 9, js->arith_state, cast ? (gint)
      js->arith.out_type : -1);
}

/* ct_settings_recent: newest first, versions falling, one of each kind,
 * the newest version first of all; from a version on only; and at most
 * CT_SETTINGS_RECENT however many kinds there were. Checked against a
 * log of what was set, kept here. */
GST_START_TEST (test_recent)
{
  static const GstVideoOrientationMethod dirs[] = {
    GST_VIDEO_ORIENTATION_90R, GST_VIDEO_ORIENTATION_VERT,
    GST_VIDEO_ORIENTATION_90L, GST_VIDEO_ORIENTATION_IDENTITY,
    GST_VIDEO_ORIENTATION_180, GST_VIDEO_ORIENTATION_UR_LL,
  };
  static const gchar *const arith[] = { "", "typecast:float32,div:255.0",
    "typecast:float32,mul:2.0", "typecast:int16,add:-128", "add:1",
    "typecast:float64,div:2", "typecast:uint16,add:1",
    "typecast:int32,add:1", "typecast:uint8,add:1"
  };
  GType type = GST_TYPE_VIDEO_ORIENTATION_METHOD;
  GHashTable *newest = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, NULL);
  CtJobSettings *recent;
  guint n, i, since = 0, step;
  Fixture f;

  fixture_init (&f);
  ct_check_seed ();
  g_hash_table_insert (newest, kind_of (job_now (&f)), GUINT_TO_POINTER
      (job_now (&f)->version));
  for (step = 0; step < 1200; step++) {
    CtJobSettings *now;
    GHashTable *kept = g_hash_table_new_full (g_str_hash, g_str_equal,
        g_free, NULL);
    guint o[4] = { 0, 1, 2, 3 }, k;
    gchar *perm;

    /* any of the 24 orders */
    for (k = 3; k > 0; k--) {
      guint j = ct_check_random () % (k + 1), t = o[k];

      o[k] = o[j];
      o[j] = t;
    }
    perm = g_strdup_printf ("%u:%u:%u:%u", o[0], o[1], o[2], o[3]);

    switch (ct_check_random () % 3) {
      case 0:
        set_enum (&f, CT_PROP_VIDEO_DIRECTION, type,
            dirs[ct_check_random () % G_N_ELEMENTS (dirs)]);
        break;
      case 1:
        set_string (&f, CT_PROP_PERMUTATION, ct_check_random () % 2 ? perm :
            "");
        break;
      default:
        set_string (&f, CT_PROP_ARITHMETIC,
            arith[ct_check_random () % G_N_ELEMENTS (arith)]);
        break;
    }
    g_free (perm);
    now = job_now (&f);
    g_hash_table_insert (newest, kind_of (now), GUINT_TO_POINTER
        (now->version));
    if (step == 600)
      since = now->version;

    recent = ct_settings_recent (&f.s, 0, &n);
    fail_unless (n >= 1 && n <= CT_SETTINGS_RECENT, "%u kept", n);
    fail_unless_equals_int (recent[0].version, now->version);
    for (i = 0; i < n; i++) {
      gchar *kind = kind_of (&recent[i]);

      if (i > 0)
        fail_unless (recent[i].version < recent[i - 1].version);
      /* the newest of its kind */
      fail_unless_equals_int (GPOINTER_TO_UINT (g_hash_table_lookup (newest,
                  kind)), recent[i].version);
      fail_if (g_hash_table_contains (kept, kind), "%s twice", kind);
      g_hash_table_add (kept, kind);
    }
    g_hash_table_unref (kept);
    /* fewer than CT_SETTINGS_RECENT kinds so far: every one of them */
    if (g_hash_table_size (newest) <= CT_SETTINGS_RECENT)
      fail_unless_equals_int (n, g_hash_table_size (newest));
    g_free (recent);
  }
  fail_unless (g_hash_table_size (newest) > CT_SETTINGS_RECENT,
      "only %u kinds: the bound was not reached",
      g_hash_table_size (newest));

  /* from a version on (the newest always) */
  recent = ct_settings_recent (&f.s, since, &n);
  for (i = 1; i < n; i++)
    fail_unless (recent[i].version >= since);
  g_free (recent);
  recent = ct_settings_recent (&f.s, G_MAXUINT, &n);
  fail_unless_equals_int (n, 1);
  fail_unless_equals_int (recent[0].version, job_now (&f)->version);
  g_free (recent);
  g_hash_table_unref (newest);
  fixture_clear (&f);
}

GST_END_TEST;

/* One reading is whole: while another thread sets the direction and the
 * permutation as fast as it can, every snapshot of a version holds what
 * every other snapshot of that version holds. */
typedef struct
{
  Fixture *f;
  gint stop;
} Setter;

static gpointer
set_all_the_time (gpointer data)
{
  Setter *s = data;
  GType type = GST_TYPE_VIDEO_ORIENTATION_METHOD;
  guint i = 0;

  while (!g_atomic_int_get (&s->stop)) {
    set_enum (s->f, CT_PROP_VIDEO_DIRECTION, type, i % 8);
    set_string (s->f, CT_PROP_PERMUTATION, (i / 8) % 2 ? "1:2:0:3" : "");
    i++;
  }
  return NULL;
}

GST_START_TEST (test_snapshot_whole)
{
  GHashTable *seen = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  Setter setter;
  GThread *thread;
  guint i;
  Fixture f;

  fixture_init (&f);
  setter.f = &f;
  setter.stop = 0;
  thread = g_thread_new ("setter", set_all_the_time, &setter);
  for (i = 0; i < 200000; i++) {
    CtSnapshot snap;
    gchar *kind, *before, *k;

    /* (a fresh reading each time: the whole settings copied) */
    memset (&snap, 0, sizeof (snap));
    ct_settings_snapshot (&f.s, &snap);
    k = kind_of (&snap.job);
    kind = g_strdup_printf ("%d %s", snap.job.direction, k);
    g_free (k);
    before = g_hash_table_lookup (seen, GUINT_TO_POINTER (snap.job.version));
    if (before) {
      fail_unless_equals_string (kind, before);
      g_free (kind);
    } else {
      g_hash_table_insert (seen, GUINT_TO_POINTER (snap.job.version), kind);
    }
  }
  g_atomic_int_set (&setter.stop, 1);
  g_thread_join (thread);
  fail_unless (g_hash_table_size (seen) > 10, "only %u versions seen",
      g_hash_table_size (seen));
  g_hash_table_unref (seen);
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
  tcase_add_test (tc, test_turn);
  tcase_add_test (tc, test_tags);
  tcase_add_test (tc, test_recent);
  tcase_add_test (tc, test_snapshot_whole);
  return s;
}

GST_CHECK_MAIN (settings);
