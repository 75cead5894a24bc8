/* The live test's source: caps that change every few buffers (sizes,
 * formats, tensor shapes), random content, seekable. */
#include "live.h"

#include <stdio.h>
#include <string.h>

const LiveTensorType live_tensor_types[3] = {
  {5, "uint8", CT_TYPE_UINT8, 1},
  {2, "int16", CT_TYPE_INT16, 2},
  {7, "float32", CT_TYPE_FLOAT32, 4},
};

typedef struct
{
  guint type;                   /* index into live_tensor_types */
  guint rank;
  guint dims[4];
} LiveTensor;

typedef struct
{
  GstPushSrc parent;
  LiveKind kind;
  const GstVideoFormat *formats;
  guint n_formats;
  guint64 rng;
  guint64 n;                    /* buffers made since the start or a seek */
  guint left;                   /* buffers before the caps change */
  GstVideoInfo info;            /* video */
  guint n_tensors;              /* static tensors */
  LiveTensor tensors[3];
} LiveSrc;

typedef struct
{
  GstPushSrcClass parent_class;
} LiveSrcClass;

G_DEFINE_TYPE (LiveSrc, live_src, GST_TYPE_PUSH_SRC);

static GstStaticPadTemplate live_src_template =
GST_STATIC_PAD_TEMPLATE ("src", GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS_ANY);

/* Sizes: odd, 1xN, Nx1, not square, square. */
static const gint live_sizes[][2] = {
  {16, 8}, {33, 17}, {1, 7}, {9, 1}, {24, 24}, {47, 30}, {32, 24},
};

static guint
live_random (LiveSrc * s, guint n)
{
  return ct_check_next (&s->rng) % n;
}

static void
random_tensor (LiveSrc * s, LiveTensor * t)
{
  guint k;

  t->type = live_random (s, G_N_ELEMENTS (live_tensor_types));
  t->rank = 2 + live_random (s, 3);
  for (k = 0; k < 4; k++)
    t->dims[k] = k < t->rank ? 1 + live_random (s, 9) : 1;
}

static gsize
tensor_size (const LiveTensor * t)
{
  return (gsize) t->dims[0] * t->dims[1] * t->dims[2] * t->dims[3] *
      live_tensor_types[t->type].size;
}

/* New caps for the next few buffers. */
static GstCaps *
live_next_caps (LiveSrc * s)
{
  GString *dims, *types;
  GstCaps *caps;
  guint i, k;

  s->left = 1 + live_random (s, 12);
  if (s->kind == LIVE_VIDEO && g_getenv ("CT_LIVE_FORMAT")) {
    gint w = 33, h = 17;

    if (g_getenv ("CT_LIVE_SIZE"))
      sscanf (g_getenv ("CT_LIVE_SIZE"), "%dx%d", &w, &h);
    caps = ct_check_caps (gst_video_format_from_string (g_getenv
            ("CT_LIVE_FORMAT")), w, h);
    gst_caps_set_simple (caps, "framerate", GST_TYPE_FRACTION, 1000, 1,
        NULL);
    fail_unless (gst_video_info_from_caps (&s->info, caps));
    return caps;
  }
  if (s->kind == LIVE_FLEXIBLE)
    return gst_caps_from_string ("other/tensors,format=flexible,"
        "framerate=1000/1");
  if (s->kind == LIVE_VIDEO || s->kind == LIVE_YUV_TENSOR) {
    guint z = live_random (s, G_N_ELEMENTS (live_sizes));

    caps = ct_check_caps (s->formats[live_random (s, s->n_formats)],
        live_sizes[z][0], live_sizes[z][1]);
    gst_caps_set_simple (caps, "framerate", GST_TYPE_FRACTION, 1000, 1,
        NULL);
    fail_unless (gst_video_info_from_caps (&s->info, caps));
    return caps;
  }
  s->n_tensors = 1 + live_random (s, 3);
  dims = g_string_new (NULL);
  types = g_string_new (NULL);
  for (i = 0; i < s->n_tensors; i++) {
    random_tensor (s, &s->tensors[i]);
    for (k = 0; k < s->tensors[i].rank; k++)
      g_string_append_printf (dims, "%s%u", k ? ":" : i ? "," : "",
          s->tensors[i].dims[k]);
    g_string_append_printf (types, "%s%s", i ? "," : "",
        live_tensor_types[s->tensors[i].type].name);
  }
  caps = gst_caps_new_simple ("other/tensors", "format", G_TYPE_STRING,
      "static", "num_tensors", G_TYPE_INT, s->n_tensors, "dimensions",
      G_TYPE_STRING, dims->str, "types", G_TYPE_STRING, types->str,
      "framerate", GST_TYPE_FRACTION, 1000, 1, NULL);
  g_string_free (dims, TRUE);
  g_string_free (types, TRUE);
  return caps;
}

/* A memory of @size random bytes, @header bytes of it first. */
static GstMemory *
random_memory (LiveSrc * s, gsize header, gsize size)
{
  GstMemory *mem = gst_allocator_alloc (NULL, header + size, NULL);
  GstMapInfo map;
  gsize i;

  fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE));
  for (i = header; i < map.size; i++)
    map.data[i] = (guint8) ct_check_next (&s->rng);
  gst_memory_unmap (mem, &map);
  return mem;
}

static GstFlowReturn
live_src_create (GstPushSrc * psrc, GstBuffer ** outbuf)
{
  LiveSrc *s = (LiveSrc *) psrc;
  GstBuffer *buf;
  guint i;

  if (s->left == 0 || !gst_pad_has_current_caps (GST_BASE_SRC_PAD (s))) {
    GstCaps *caps = live_next_caps (s);
    gboolean ok = gst_base_src_set_caps (GST_BASE_SRC (s), caps);

    gst_caps_unref (caps);
    /* (caps that a flush stopped are sent again after it) */
    if (!ok && GST_PAD_IS_FLUSHING (GST_BASE_SRC_PAD (s)))
      return GST_FLOW_FLUSHING;
    if (!ok)
      return GST_FLOW_NOT_NEGOTIATED;
  }
  s->left--;
  buf = gst_buffer_new ();
  if (s->kind == LIVE_VIDEO || s->kind == LIVE_YUV_TENSOR) {
    gst_buffer_append_memory (buf, random_memory (s, 0,
            GST_VIDEO_INFO_SIZE (&s->info)));
  } else if (s->kind == LIVE_STATIC) {
    /* one memory each, or one for all */
    if (live_random (s, 2)) {
      for (i = 0; i < s->n_tensors; i++)
        gst_buffer_append_memory (buf, random_memory (s, 0,
                tensor_size (&s->tensors[i])));
    } else {
      gsize all = 0;

      for (i = 0; i < s->n_tensors; i++)
        all += tensor_size (&s->tensors[i]);
      gst_buffer_append_memory (buf, random_memory (s, 0, all));
    }
  } else {
    guint n = 1 + live_random (s, 3);

    /* each its own shape, in a memory with its header */
    for (i = 0; i < n; i++) {
      LiveTensor t;
      GstMemory *mem;
      GstMapInfo map;

      random_tensor (s, &t);
      mem = random_memory (s, CT_CHECK_NNS_HEADER, tensor_size (&t));
      fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE));
      ct_check_nns_write_meta (map.data, 0xfeedcced,
          live_tensor_types[t.type].nns, t.dims, t.rank, 1);
      gst_memory_unmap (mem, &map);
      gst_buffer_append_memory (buf, mem);
    }
  }
  GST_BUFFER_PTS (buf) = s->n * GST_MSECOND;
  GST_BUFFER_DURATION (buf) = GST_MSECOND;
  s->n++;
  *outbuf = buf;
  return GST_FLOW_OK;
}

static gboolean
live_src_is_seekable (GstBaseSrc * src)
{
  return TRUE;
}

/* A seek starts the buffers again from its position, with new caps. */
static gboolean
live_src_do_seek (GstBaseSrc * src, GstSegment * segment)
{
  LiveSrc *s = (LiveSrc *) src;

  segment->time = segment->start;
  s->n = segment->start / GST_MSECOND;
  s->left = 0;
  return TRUE;
}

static void
live_src_class_init (LiveSrcClass * klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSrcClass *base_class = GST_BASE_SRC_CLASS (klass);

  gst_element_class_set_static_metadata (element_class, "live source",
      "Source", "Random frames or tensors whose caps change", "the tests");
  gst_element_class_add_static_pad_template (element_class,
      &live_src_template);
  base_class->is_seekable = live_src_is_seekable;
  base_class->do_seek = live_src_do_seek;
  GST_PUSH_SRC_CLASS (klass)->create = live_src_create;
}

static void
live_src_init (LiveSrc * s)
{
  gst_base_src_set_format (GST_BASE_SRC (s), GST_FORMAT_TIME);
  s->rng = ct_check_random ();
}


void
live_src_configure (GstElement * element, LiveKind kind,
    const GstVideoFormat * formats, guint n_formats)
{
  LiveSrc *s = (LiveSrc *) element;

  s->kind = kind;
  s->formats = formats;
  s->n_formats = n_formats;
}
