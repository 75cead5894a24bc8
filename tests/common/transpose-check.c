/* The element tests' common ground: the random stream, pushing and draining
 * through a harness, a poisoning allocator and the harness around it, bus
 * messages, factories, and the element's kernel nicks. Video frames, tensors
 * and NNStreamer's layouts have files of their own (check-*.c). */
#include "transpose-check.h"
#include "random-fill.h"

#include <string.h>

static guint64 rng_state;

void
ct_check_seed (void)
{
  const gchar *env = g_getenv ("CT_CHECK_SEED");
  guint32 seed = env ? (guint32) g_ascii_strtoull (env, NULL, 10) :
      g_random_int ();

  rng_state = seed;
  g_print ("random seed %u (set CT_CHECK_SEED=%u to repeat)\n", seed, seed);
}

guint32
ct_check_next (guint64 * state)
{
  /* (the top half: splitmix64's best bits) */
  return (guint32) (ct_ref_random (state) >> 32);
}

guint32
ct_check_random (void)
{
  return ct_check_next (&rng_state);
}

void
ct_check_fill_random (guint8 * data, gsize size)
{
  ct_ref_fill_random (&rng_state, data, size);
}

void
ct_check_push_drain (GstHarness * h)
{
  fail_unless (gst_harness_push_event (h,
          gst_event_new_custom (GST_EVENT_CUSTOM_DOWNSTREAM,
              gst_structure_new_empty ("ct-drain"))));
}

void
ct_check_push_one (GstHarness * h, GstBuffer * buf)
{
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (buf)),
      GST_FLOW_OK);
  ct_check_push_drain (h);
}

/* Poisoning allocator: system memory, memset on allocation. */
typedef struct
{
  GstAllocator parent;
} PoisonAllocator;
typedef struct
{
  GstAllocatorClass parent_class;
} PoisonAllocatorClass;

GType poison_allocator_get_type (void);
G_DEFINE_TYPE (PoisonAllocator, poison_allocator, GST_TYPE_ALLOCATOR);

static guint8 poison_byte = 0xa5;

static GstMemory *
poison_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  gsize maxsize = size + params->prefix + params->padding;
  guint8 *data;

  /* fallible, as a real downstream allocator may be (GStreamer's system
   * allocator aborts instead): sizes from hostile caps can be huge */
  if (maxsize < size || maxsize + params->align < maxsize ||
      !(data = g_try_malloc (maxsize + params->align)))
    return NULL;
  /* never 0: a zero-filled output would look like a plausible frame */
  poison_byte = poison_byte * 37 + 11;
  if (poison_byte == 0)
    poison_byte = 0xa5;
  memset (data, poison_byte, maxsize + params->align);
  return gst_memory_new_wrapped (0, data + ((params->align + 1 -
              ((guintptr) data & params->align)) & params->align), maxsize,
      params->prefix, size, data, g_free);
}

static void
poison_allocator_class_init (PoisonAllocatorClass * klass)
{
  GST_ALLOCATOR_CLASS (klass)->alloc = poison_alloc;
}

static void
poison_allocator_init (PoisonAllocator * self)
{
  GST_OBJECT_FLAG_SET (self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

GstAllocator *
ct_check_poison_allocator_new (void)
{
  return g_object_new (poison_allocator_get_type (), NULL);
}

GstHarness *
ct_check_harness_new (const gchar * element_desc, GstBus ** bus)
{
  GstHarness *h;
  GstAllocator *poison = ct_check_poison_allocator_new ();

  /* a single element is harnessed as itself, so its properties are reachable
   * through h->element; a chain goes into a bin */
  if (strchr (element_desc, '!')) {
    h = gst_harness_new_parse (element_desc);
  } else {
    GstElement *e = gst_parse_launch (element_desc, NULL);
    fail_unless (e != NULL, "could not make %s", element_desc);
    h = gst_harness_new_with_element (e, "sink", "src");
    gst_object_unref (e);
  }
  gst_harness_set_propose_allocator (h, poison, NULL);
  if (bus) {
    *bus = gst_bus_new ();
    gst_element_set_bus (h->element, *bus);
  }
  return h;
}

guint
ct_check_count_messages (GstBus * bus, GstMessageType type)
{
  GstMessage *msg;
  guint n = 0;

  while ((msg = gst_bus_pop_filtered (bus, type))) {
    n++;
    gst_message_unref (msg);
  }
  return n;
}

gboolean
ct_check_have_factories (const gchar * const *names)
{
  for (; *names; names++) {
    GstElementFactory *f = gst_element_factory_find (*names);

    if (!f) {
      g_print ("SKIP: no %s (GStreamer's nvcodec plugin is missing, or it "
          "found no GPU%s)\n", *names, g_str_equal (*names, "nvh264dec") ?
          " or no NVDEC" : "");
      return FALSE;
    }
    gst_object_unref (f);
  }
  return TRUE;
}

gboolean
ct_check_pad_has_cuda_memory (GstElement * element, const gchar * name)
{
  GstPad *pad = gst_element_get_static_pad (element, name);
  GstCaps *caps = gst_pad_get_current_caps (pad);
  gboolean cuda;

  fail_unless (caps != NULL, "%s pad not negotiated", name);
  cuda = gst_caps_features_contains (gst_caps_get_features (caps, 0),
      "memory:CUDAMemory");
  gst_caps_unref (caps);
  gst_object_unref (pad);
  return cuda;
}

gchar *
ct_check_pop_message_text (GstBus * bus, GstMessageType type)
{
  GstMessage *msg = gst_bus_pop_filtered (bus, type);
  GError *err = NULL;
  gchar *text;

  fail_unless (msg != NULL, "no %s message on the bus",
      gst_message_type_get_name (type));
  if (type == GST_MESSAGE_ERROR)
    gst_message_parse_error (msg, &err, NULL);
  else if (type == GST_MESSAGE_WARNING)
    gst_message_parse_warning (msg, &err, NULL);
  else
    fail ("no text in a %s message", gst_message_type_get_name (type));
  text = g_strdup (err->message);
  g_error_free (err);
  gst_message_unref (msg);
  return text;
}

gchar *
ct_check_pipeline_error (const gchar * desc)
{
  GError *err = NULL;
  GstElement *p = gst_parse_launch (desc, &err);
  GstElement *t;
  GstBus *bus;
  GstMessage *msg;
  gchar *text;

  fail_unless (p != NULL && err == NULL, "%s: %s", desc,
      err ? err->message : "no pipeline");
  t = gst_bin_get_by_name (GST_BIN (p), "t");
  fail_unless (t != NULL, "%s: no element named t", desc);
  bus = gst_element_get_bus (p);
  gst_element_set_state (p, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR,
      "%s: no error in 10 s", desc);
  fail_unless (GST_MESSAGE_SRC (msg) == GST_OBJECT (t), "%s: the error came "
      "from %s", desc, GST_MESSAGE_SRC_NAME (msg));
  gst_message_parse_error (msg, &err, NULL);
  text = g_strdup (err->message);
  g_error_free (err);
  gst_message_unref (msg);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (t);
  gst_object_unref (p);
  return text;
}

void
ct_check_harness_free (GstHarness * h, GstBus * bus)
{
  if (bus) {
    gst_element_set_bus (h->element, NULL);
    gst_object_unref (bus);
  }
  gst_harness_teardown (h);
}

gchar *
ct_check_start_failure (GstElement * e)
{
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  GError *err = NULL;
  gchar *text;

  gst_element_set_bus (e, bus);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error message on the bus");
  gst_message_parse_error (msg, &err, NULL);
  text = g_strdup (err->message);
  g_error_free (err);
  gst_message_unref (msg);

  gst_element_set_state (e, GST_STATE_NULL);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  return text;
}

/* The GEnum type of @element's enum property @name. */
static GType
enum_property_type (GstElement * element, const gchar * name)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS
      (element), name);

  /* (also called while suites are built: no fail_unless, see below) */
  if (pspec == NULL || !G_IS_PARAM_SPEC_ENUM (pspec))
    g_error ("cudatranspose has no enum property %s", name);
  return pspec->value_type;
}

gchar *
ct_check_active_kernel (GstElement * element)
{
  GEnumClass *klass;
  GEnumValue *v;
  gint active;
  gchar *nick;

  g_object_get (element, "active-kernel", &active, NULL);
  klass = g_type_class_ref (enum_property_type (element, "active-kernel"));
  v = g_enum_get_value (klass, active);
  fail_unless (v != NULL, "active-kernel %d is not a kernel", active);
  nick = g_strdup (v->value_nick);
  g_type_class_unref (klass);
  return nick;
}

const gchar *const *
ct_check_kernel_nicks (gboolean gpu_only, guint * n)
{
  static gsize done = 0;
  static const gchar **all, **gpu;
  static guint n_all, n_gpu;

  if (g_once_init_enter (&done)) {
    GstElement *e = gst_element_factory_make ("cudatranspose", NULL);
    GEnumClass *klass;
    guint i;

    /* (suites call this while they are built, before check can report a
     * failure: a fail_unless here, even one that holds, ends the process
     * with "No messaging setup") */
    if (e == NULL)
      g_error ("no cudatranspose element: is GST_PLUGIN_PATH_1_0 set?");
    klass = g_type_class_ref (enum_property_type (e, "kernel"));
    gst_object_unref (e);

    all = g_new0 (const gchar *, klass->n_values + 1);
    gpu = g_new0 (const gchar *, klass->n_values + 1);
    for (i = 0; i < klass->n_values; i++) {
      /* (the GEnum class lives as long as the process: the nicks too) */
      all[n_all++] = klass->values[i].value_nick;
      if (!g_str_equal (klass->values[i].value_nick, "cpu"))
        gpu[n_gpu++] = klass->values[i].value_nick;
    }
    g_once_init_leave (&done, 1);
  }
  if (n)
    *n = gpu_only ? n_gpu : n_all;
  return gpu_only ? gpu : all;
}

guint
ct_check_n_kernel_nicks (gboolean gpu_only)
{
  guint n;

  ct_check_kernel_nicks (gpu_only, &n);
  return n;
}

gpointer
ct_check_spin (gpointer stop)
{
  volatile guint64 x = 0;

  while (!g_atomic_int_get ((gint *) stop))
    x += 1;
  return NULL;
}
