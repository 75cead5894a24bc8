/* The element in a pipeline that lives: while frames stream, other threads
 * change its settings at random (video-direction and method; permutation
 * and arithmetic; channel-order; kernel and frames-in-flight), send
 * LATENCY, CAPS and
 * ACCEPT_CAPS queries and navigation events, and flush-seek; upstream
 * changes size, format or tensor shapes every few buffers; a thread keeps
 * the CPU busy. The stream must reach EOS with no error, and every frame
 * that comes out is checked against the test's own reference for a
 * setting its caps can carry: one the changing thread made, at or after
 * the one the frame before came out in (frames never go back to an older
 * setting, nor mix two). Every input after the last flush must come out.
 *
 * Video runs the same with videoflip (the anchor: what a stock element
 * does with the same changes; videoflip 1.22 gives wrong frames with
 * identity among the directions or with caps queries from another thread,
 * and fails to negotiate behind videoconvert, so its run leaves those
 * out). Tensors come static (one to three of
 * them) and flexible (headers in each memory). YUV video goes out as a
 * tensor, turned by the direction, in the channel order, laid out and
 * computed as set, checked against videoconvert's RGB of each frame
 * (turned, laid out and computed by the test). Run with the argument
 * "gpu" it runs on the GPU, from system memory with two frames in flight
 * and through CUDA memory (cudaupload ! cudatranspose ! cudadownload), and
 * skips (77) without a CUDA device; without it, kernel=auto and kernel=cpu
 * in turn (the CPU stands in where there is no GPU).
 *
 * CT_LIVE_SECONDS sets how long each stream lives (default 3). To narrow a
 * failure down: CT_LIVE_FORMAT=NAME streams that format only,
 * CT_LIVE_SIZE=WxH that size only, CT_LIVE_STILL=1 changes no setting
 * after the first; CT_LIVE_CUDA_ELEMENT=identity puts identity where the
 * element is in CUDA memory (with CT_LIVE_STILL=1: nvcodec's elements
 * alone, checked for frames that come out unchanged); CT_LIVE_KERNEL=NICK
 * keeps one kernel; CT_LIVE_NO_SEEK=1 seeks never. */
#include "transpose-check.h"
#include "gpu-check.h"

#include "arith-reference.h"
#include "permute-reference.h"

#include <gst/base/gstpushsrc.h>
#include <stdio.h>
#include <string.h>

static gboolean on_gpu;
/* a CUDA device is there: kernel=auto runs on it, whose floats may carry
 * other NaN payloads than the CPU's (any NaN for any NaN) */
static gboolean have_gpu;

/* ---------------------------------------------------------------------- */
/* A source whose caps change every few buffers                             */

typedef enum
{
  LIVE_VIDEO,
  LIVE_STATIC,
  LIVE_FLEXIBLE,
  LIVE_YUV_TENSOR,              /* YUV video in, a tensor out */
} LiveKind;

/* The tensor types used, by NNStreamer's number (check-nnstreamer.h). */
static const struct
{
  guint nns;
  const gchar *name;
  CtType type;
  guint size;
} tensor_types[] = {
  {5, "uint8", CT_TYPE_UINT8, 1},
  {2, "int16", CT_TYPE_INT16, 2},
  {7, "float32", CT_TYPE_FLOAT32, 4},
};

typedef struct
{
  guint type;                   /* index into tensor_types */
  guint rank;
  guint dims[4];
} LiveTensor;

typedef struct
{
  GstPushSrc parent;
  LiveKind kind;
  const GstVideoFormat *formats;
  guint n_formats;
  guint32 rng;
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

GType live_src_get_type (void);
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
  return ct_check_xorshift (&s->rng) % n;
}

static void
random_tensor (LiveSrc * s, LiveTensor * t)
{
  guint k;

  t->type = live_random (s, G_N_ELEMENTS (tensor_types));
  t->rank = 2 + live_random (s, 3);
  for (k = 0; k < 4; k++)
    t->dims[k] = k < t->rank ? 1 + live_random (s, 9) : 1;
}

static gsize
tensor_size (const LiveTensor * t)
{
  return (gsize) t->dims[0] * t->dims[1] * t->dims[2] * t->dims[3] *
      tensor_types[t->type].size;
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
        tensor_types[s->tensors[i].type].name);
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
    map.data[i] = (guint8) ct_check_xorshift (&s->rng);
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
          tensor_types[t.type].nns, t.dims, t.rank, 1);
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
  s->rng = ct_check_random () | 1;
}

/* ---------------------------------------------------------------------- */
/* The settings the changing thread made, in order                           */

/* The arithmetic options used, with the operations they mean, written
 * here from NNStreamer's grammar (not read by the element's parser). */
static const struct
{
  const gchar *option;
  gint out;                     /* the typecast's CtType, or -1 */
  CtArithKind kind;
  gboolean is_float;
  double value;
} arith_options[] = {
  {NULL, -1, CT_ARITH_ADD, FALSE, 0},
  {"typecast:float32,div:255.0", CT_TYPE_FLOAT32, CT_ARITH_DIV, TRUE, 255},
  {"typecast:float32,mul:2.0", CT_TYPE_FLOAT32, CT_ARITH_MUL, TRUE, 2},
  {"typecast:int16,add:-128", CT_TYPE_INT16, CT_ARITH_ADD, FALSE, -128},
  {"add:3", -1, CT_ARITH_ADD, FALSE, 3},
};

static const gchar *const permutations[] = {
  NULL, "1:2:0:3", "2:0:1:3", "0:2:1:3", "3:2:1:0", "0:1:2:3",
};

typedef struct
{
  GstVideoOrientationMethod direction;
  guint perm;                   /* index into permutations */
  guint arith;                  /* index into arith_options */
  gboolean bgr;                 /* channel-order (YUV video to a tensor) */
} Setting;

#define MAX_SETTINGS 200000

typedef struct
{
  GMutex lock;
  Setting *at;
  guint n;
} Log;

static void
log_add (Log * log, const Setting * s)
{
  g_mutex_lock (&log->lock);
  if (log->n < MAX_SETTINGS)
    log->at[log->n++] = *s;
  g_mutex_unlock (&log->lock);
}

/* ---------------------------------------------------------------------- */
/* Every frame out checked                                                  */

typedef struct
{
  GstBuffer *buf;
  GstCaps *caps;
  guint8 *rgb;                  /* YUV: videoconvert's RGB, once asked */
} Input;

typedef struct
{
  LiveKind kind;
  Log *log;
  GMutex lock;
  GHashTable *inputs;           /* PTS -> Input */
  guint from;                   /* the setting the last frame matched */
  guint checked, flushed;
  guint32 directions_seen;      /* a bit per direction */
  gchar *failure;               /* the first one */
} Checker;

static void
input_free (gpointer data)
{
  Input *in = data;

  gst_buffer_unref (in->buf);
  gst_caps_unref (in->caps);
  g_free (in->rgb);
  g_free (in);
}

static void
checker_fail (Checker * c, gchar * why)
{
  if (!c->failure)
    c->failure = why;
  else
    g_free (why);
}

/* Tensor dimensions "a:b:c,d:e" (at most 3 tensors) into 4 sizes each. */
static guint
parse_dims (const gchar * text, guint64 dims[3][4])
{
  gchar **tensors = g_strsplit (text ? text : "", ",", -1);
  guint n = g_strv_length (tensors), i, k;

  for (i = 0; i < n && i < 3; i++) {
    gchar **d = g_strsplit (tensors[i], ":", -1);

    for (k = 0; k < 4; k++)
      dims[i][k] = d[k] && k < g_strv_length (d) ?
          g_ascii_strtoull (d[k], NULL, 10) : 1;
    g_strfreev (d);
  }
  g_strfreev (tensors);
  return n;
}

static guint
type_index (const gchar * name)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (tensor_types); i++)
    if (g_strcmp0 (tensor_types[i].name, name) == 0)
      return i;
  return G_MAXUINT;
}

/* The order of a setting: its permutation, or the transpose. */
static void
order_of (const Setting * s, guint perm[4])
{
  guint k;

  if (!permutations[s->perm]) {
    perm[0] = 1;
    perm[1] = 0;
    perm[2] = 2;
    perm[3] = 3;
    return;
  }
  for (k = 0; k < 4; k++)
    perm[k] = permutations[s->perm][2 * k] - '0';
}

/* Where one tensor of @type and @dims must come out under @s: its sizes
 * and type into @odims and @otype, its bytes into @want (g_free). */
static guint8 *
expected_tensor (const Setting * s, guint type, const guint64 dims[4],
    const guint8 * in, guint64 odims[4], CtType * otype, gsize * bytes)
{
  CtArith *a = g_new0 (CtArith, 1);
  unsigned long long d[4];
  uint64_t step[4], od[4];
  guint perm[4], k;
  guint8 *want;
  gsize n = 1;

  order_of (s, perm);
  for (k = 0; k < 4; k++) {
    d[k] = dims[k];
    n *= dims[k];
  }
  ct_ref_permuted_layout (dims, perm, od, step);
  memcpy (odims, od, sizeof (od));
  a->in_type = tensor_types[type].type;
  a->out_type = arith_options[s->arith].out >= 0 ?
      (CtType) arith_options[s->arith].out : a->in_type;
  if (arith_options[s->arith].option) {
    CtArithOp *op = &a->ops[a->n_ops++];

    op->kind = arith_options[s->arith].kind;
    op->channel = -1;
    op->is_float = arith_options[s->arith].is_float;
    op->float_value = arith_options[s->arith].value;
    op->int_value = (long long) arith_options[s->arith].value;
  }
  *otype = a->out_type;
  *bytes = n * (ref_bits_of (a->out_type) / 8);
  want = g_malloc (*bytes);
  if (arith_options[s->arith].option) {
    ref_permute_arith (in, want, d, perm, a);
  } else {
    /* the bytes moved as they are */
    gsize es = tensor_types[type].size, i;
    uint64_t x[4] = { 0, 0, 0, 0 };

    for (i = 0; i < n; i++) {
      memcpy (want + (x[0] * step[0] + x[1] * step[1] + x[2] * step[2] +
              x[3] * step[3]) * es, in + i * es, es);
      for (k = 0; k < 4 && ++x[k] == dims[k]; k++)
        x[k] = 0;
    }
  }
  g_free (a);
  return want;
}

/* Whether tensor @i of @out (sizes @odims, type @otype, @data) is what
 * @s makes of input tensor @dims of @type at @in. */
static gboolean
tensor_fits (const Setting * s, guint type, const guint64 dims[4],
    const guint8 * in, const guint64 odims[4], guint otype,
    const guint8 * data, gsize size)
{
  guint64 want_dims[4];
  CtType want_type;
  gsize bytes;
  guint8 *want = expected_tensor (s, type, dims, in, want_dims, &want_type,
      &bytes);
  gboolean fits = otype < G_N_ELEMENTS (tensor_types) &&
      tensor_types[otype].type == want_type &&
      memcmp (want_dims, odims, sizeof (want_dims)) == 0 && size == bytes &&
      ref_compare (want, data, want_type, bytes / (ref_bits_of (want_type) /
          8), have_gpu) == bytes / (ref_bits_of (want_type) / 8);

  g_free (want);
  return fits;
}

/* The tensors of one buffer, as this test reads them: their types, sizes
 * and data, from the caps (static) or each memory's header (flexible). */
typedef struct
{
  guint n;
  guint type[3];
  guint64 dims[3][4];
  GstMapInfo map[3];
  GstMemory *mem[3];
  const guint8 *data[3];
  gsize size[3];
} Tensors;

static gboolean
tensors_read (Tensors * t, GstBuffer * buf, GstCaps * caps, LiveKind kind)
{
  const GstStructure *st = gst_caps_get_structure (caps, 0);
  guint n_mem = gst_buffer_n_memory (buf), i, k;
  gchar **types;
  gsize offset = 0;

  memset (t, 0, sizeof (*t));
  if (kind == LIVE_FLEXIBLE) {
    t->n = MIN (n_mem, 3);
    for (i = 0; i < t->n; i++) {
      guint32 w[21];

      t->mem[i] = gst_buffer_peek_memory (buf, i);
      fail_unless (gst_memory_map (t->mem[i], &t->map[i], GST_MAP_READ));
      if (t->map[i].size < CT_CHECK_NNS_HEADER)
        return FALSE;
      memcpy (w, t->map[i].data, sizeof (w));
      t->type[i] = G_N_ELEMENTS (tensor_types);
      for (k = 0; k < G_N_ELEMENTS (tensor_types); k++)
        if (tensor_types[k].nns == w[2])
          t->type[i] = k;
      for (k = 0; k < 4; k++)
        t->dims[i][k] = w[3 + k] ? w[3 + k] : 1;
      t->data[i] = t->map[i].data + CT_CHECK_NNS_HEADER;
      t->size[i] = t->map[i].size - CT_CHECK_NNS_HEADER;
    }
    return TRUE;
  }
  t->n = parse_dims (gst_structure_get_string (st, "dimensions"), t->dims);
  types = g_strsplit (gst_structure_get_string (st, "types"), ",", -1);
  for (i = 0; i < t->n && i < 3; i++)
    t->type[i] = types[i] ? type_index (types[i]) : G_MAXUINT;
  g_strfreev (types);
  for (i = 0; i < t->n && i < 3; i++) {
    gsize es = t->type[i] < G_N_ELEMENTS (tensor_types) ?
        tensor_types[t->type[i]].size : 0;

    t->size[i] = es * t->dims[i][0] * t->dims[i][1] * t->dims[i][2] *
        t->dims[i][3];
    if (n_mem == t->n) {
      t->mem[i] = gst_buffer_peek_memory (buf, i);
      fail_unless (gst_memory_map (t->mem[i], &t->map[i], GST_MAP_READ));
      t->data[i] = t->map[i].data;
    } else {
      if (i == 0) {
        t->mem[0] = gst_buffer_peek_memory (buf, 0);
        fail_unless (gst_memory_map (t->mem[0], &t->map[0], GST_MAP_READ));
      }
      t->data[i] = t->map[0].data + offset;
      offset += t->size[i];
    }
  }
  return n_mem == t->n || n_mem == 1;
}

static void
tensors_done (Tensors * t)
{
  guint i;

  for (i = 0; i < 3; i++)
    if (t->mem[i])
      gst_memory_unmap (t->mem[i], &t->map[i]);
}

/* YUV video @in (of @info) to a tensor under @s: videoconvert's RGB of
 * it (made once for the input), in the order @s says, turned by its
 * direction as videoflip turns frames, is the HWC tensor 3:W':H':1 of
 * the turned frame; then laid out (CHW where no permutation is set) and
 * computed as for tensors. */
static gboolean
yuv_fits (const Setting * s, Input * in, const GstVideoInfo * info,
    GstBuffer * out, GstCaps * out_caps)
{
  const guint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  const gboolean swap = ct_check_direction_swaps (s->direction);
  const guint64 hwc[4] = { 3, swap ? h : w, swap ? w : h, 1 };
  Setting chw = *s;
  Tensors to;
  guint8 *turned;
  guint x, y, c, ox, oy;
  gboolean ok;

  if (!in->rgb) {
    GstVideoFrame ref;

    ct_check_videoconvert (in->caps, in->buf, GST_VIDEO_FORMAT_RGB, w, h,
        &ref, "live");
    in->rgb = g_malloc ((gsize) w * h * 3);
    for (y = 0; y < h; y++)
      memcpy (in->rgb + (gsize) y * w * 3, (const guint8 *)
          GST_VIDEO_FRAME_PLANE_DATA (&ref, 0) + (gsize) y *
          GST_VIDEO_FRAME_PLANE_STRIDE (&ref, 0), (gsize) w * 3);
    gst_video_frame_unmap (&ref);
  }
  turned = g_malloc ((gsize) w * h * 3);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      ct_check_oriented_point (s->direction, w, h, x, y, &ox, &oy);
      for (c = 0; c < 3; c++)
        turned[((gsize) oy * hwc[1] + ox) * 3 + c] =
            in->rgb[((gsize) y * w + x) * 3 + (s->bgr ? 2 - c : c)];
    }
  /* (no permutation set: CHW, the element's default for video) */
  if (!permutations[chw.perm])
    chw.perm = 1;
  ok = tensors_read (&to, out, out_caps, LIVE_STATIC) && to.n == 1 &&
      tensor_fits (&chw, 0, hwc, turned, to.dims[0], to.type[0], to.data[0],
      to.size[0]);
  tensors_done (&to);
  g_free (turned);
  return ok;
}

/* Whether @out (of @out_caps) is what @s makes of @in (of @in_caps). */
static gboolean
fits (Checker * c, const Setting * s, Input * in, GstBuffer * out,
    GstCaps * out_caps)
{
  if (c->kind == LIVE_YUV_TENSOR) {
    GstVideoInfo ii;

    fail_unless (gst_video_info_from_caps (&ii, in->caps));
    return yuv_fits (s, in, &ii, out, out_caps);
  }
  if (c->kind == LIVE_VIDEO) {
    GstVideoInfo ii, oi, want;
    gchar *why;

    fail_unless (gst_video_info_from_caps (&ii, in->caps));
    if (!gst_video_info_from_caps (&oi, out_caps))
      return FALSE;
    ct_check_out_info (&ii, s->direction, &want);
    if (GST_VIDEO_INFO_FORMAT (&oi) != GST_VIDEO_INFO_FORMAT (&want) ||
        GST_VIDEO_INFO_WIDTH (&oi) != GST_VIDEO_INFO_WIDTH (&want) ||
        GST_VIDEO_INFO_HEIGHT (&oi) != GST_VIDEO_INFO_HEIGHT (&want))
      return FALSE;
    why = ct_check_oriented_mismatch (&ii, in->buf, out, s->direction);
    g_free (why);
    return why == NULL;
  } else {
    Tensors ti, to;
    gboolean ok;
    guint i;

    ok = tensors_read (&ti, in->buf, in->caps, c->kind) &&
        tensors_read (&to, out, out_caps, c->kind) && ti.n == to.n;
    for (i = 0; ok && i < ti.n; i++)
      ok = ti.type[i] < G_N_ELEMENTS (tensor_types) && tensor_fits (s,
          ti.type[i], ti.dims[i], ti.data[i], to.dims[i], to.type[i],
          to.data[i], to.size[i]);
    tensors_done (&ti);
    tensors_done (&to);
    return ok;
  }
}

/* A frame out: the setting it came out in is the first, from the one the
 * frame before came out in, that makes it. */
static void
check_output (Checker * c, GstBuffer * out, GstCaps * out_caps)
{
  Input *in = g_hash_table_lookup (c->inputs,
      GUINT_TO_POINTER (GST_BUFFER_PTS (out) / GST_MSECOND + 1));
  Setting *at;
  guint n, p;

  if (!in) {
    checker_fail (c, g_strdup_printf ("a frame of PTS %" GST_TIME_FORMAT
            " came out that never went in (or twice)",
            GST_TIME_ARGS (GST_BUFFER_PTS (out))));
    return;
  }
  g_mutex_lock (&c->log->lock);
  at = c->log->at;
  n = c->log->n;
  g_mutex_unlock (&c->log->lock);
  for (p = c->from; p < n && !fits (c, &at[p], in, out, out_caps); p++);
  if (p == n) {
    gchar *ic = gst_caps_to_string (in->caps), *oc =
        gst_caps_to_string (out_caps);
    GString *is = g_string_new (NULL);
    guint q;

    /* what it is instead: an older setting's, or none's */
    for (q = c->from; q-- > 0;) {
      if (fits (c, &at[q], in, out, out_caps)) {
        g_string_append_printf (is, "; it is setting %u's (direction %d)",
            q, at[q].direction);
        break;
      }
    }
    if (!is->len)
      g_string_append (is, "; it is no setting's");
    checker_fail (c, g_strdup_printf ("frame %u (PTS %" GST_TIME_FORMAT
            ", %s -> %s) is no setting made at or after setting %u of %u "
            "(direction %d, permutation %s, arithmetic %s)%s", c->checked,
            GST_TIME_ARGS (GST_BUFFER_PTS (out)), ic, oc, c->from, n,
            at[c->from].direction, permutations[at[c->from].perm] ?
            permutations[at[c->from].perm] : "none",
            arith_options[at[c->from].arith].option ?
            arith_options[at[c->from].arith].option : "none", is->str));
    g_string_free (is, TRUE);
    g_free (ic);
    g_free (oc);
  } else {
    c->from = p;
    c->directions_seen |= 1u << at[p].direction;
  }
  c->checked++;
  g_hash_table_remove (c->inputs, GUINT_TO_POINTER (GST_BUFFER_PTS (out) /
          GST_MSECOND + 1));
}

static GstPadProbeReturn
input_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Checker *c = data;

  g_mutex_lock (&c->lock);
  if (GST_PAD_PROBE_INFO_TYPE (info) & GST_PAD_PROBE_TYPE_BUFFER) {
    GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
    Input *in = g_new0 (Input, 1);

    in->buf = gst_buffer_ref (buf);
    in->caps = gst_pad_get_current_caps (pad);
    fail_unless (in->caps != NULL);
    g_hash_table_replace (c->inputs, GUINT_TO_POINTER (GST_BUFFER_PTS (buf)
            / GST_MSECOND + 1), in);
  } else if (GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info)) ==
      GST_EVENT_FLUSH_STOP) {
    /* what was in flight is gone with the flush */
    c->flushed += g_hash_table_size (c->inputs);
    g_hash_table_remove_all (c->inputs);
  }
  g_mutex_unlock (&c->lock);
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
output_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Checker *c = data;
  GstCaps *caps = gst_pad_get_current_caps (pad);

  g_mutex_lock (&c->lock);
  check_output (c, GST_PAD_PROBE_INFO_BUFFER (info), caps);
  g_mutex_unlock (&c->lock);
  gst_caps_unref (caps);
  return GST_PAD_PROBE_OK;
}

/* ---------------------------------------------------------------------- */
/* The threads around the stream                                            */

typedef struct
{
  GstElement *pipeline, *element;
  const gchar *factory;         /* cudatranspose or videoflip */
  LiveKind kind;
  Log *log;
  gint stop;
  guint32 rng;
  const gchar *const *kernels;  /* to switch between; NULL: none */
  guint n_kernels;
  /* every disturbance; else (videoflip) none of those videoflip 1.22
   * fails under: identity among the directions (it sets passthrough from
   * the thread that sets the property, and pushes output buffers it never
   * wrote), caps queries from other threads (their transform_caps sets
   * the direction the next frame takes, whatever its caps) */
  gboolean all;
  guint changes, queries, seeks;
} Live;

static guint
rand_below (guint32 * rng, guint n)
{
  return ct_check_xorshift (rng) % n;
}

/* The job settings, at random, each logged before it is set: a frame may
 * come out in it from then on. */
static gpointer
change_settings (gpointer data)
{
  Live *l = data;
  guint32 rng = l->rng ^ 0x51ed;
  Setting s = { GST_VIDEO_ORIENTATION_UL_LR, 0, 0, FALSE };

  /* (a tensor made of video is turned only once video-direction is set) */
  if (!g_str_equal (l->factory, "cudatranspose") ||
      l->kind == LIVE_YUV_TENSOR)
    s.direction = GST_VIDEO_ORIENTATION_IDENTITY;
  log_add (l->log, &s);
  while (!g_atomic_int_get (&l->stop)) {
    if (g_getenv ("CT_LIVE_STILL")) {
      g_usleep (1000);
      continue;
    }
    if (l->kind == LIVE_VIDEO || (l->kind == LIVE_YUV_TENSOR &&
            rand_below (&rng, 3) == 0)) {
      s.direction = rand_below (&rng, 8);
      if (!l->all && s.direction == GST_VIDEO_ORIENTATION_IDENTITY)
        s.direction = GST_VIDEO_ORIENTATION_90R;
      log_add (l->log, &s);
      /* (method is video-direction by videoflip's old name) */
      g_object_set (l->element, rand_below (&rng, 4) ? "video-direction" :
          "method", s.direction, NULL);
    } else if (l->kind == LIVE_YUV_TENSOR && rand_below (&rng, 2)) {
      s.bgr = !s.bgr;
      log_add (l->log, &s);
      g_object_set (l->element, "channel-order", s.bgr, NULL);
    } else if (rand_below (&rng, 2)) {
      s.perm = rand_below (&rng, G_N_ELEMENTS (permutations));
      log_add (l->log, &s);
      g_object_set (l->element, "permutation", permutations[s.perm], NULL);
    } else {
      s.arith = rand_below (&rng, G_N_ELEMENTS (arith_options));
      log_add (l->log, &s);
      g_object_set (l->element, "arithmetic", arith_options[s.arith].option,
          NULL);
    }
    g_atomic_int_inc (&l->changes);
    g_usleep (50 + rand_below (&rng, 450));
  }
  return NULL;
}

/* The settings that need no new job: the kernel and frames-in-flight. */
static gpointer
change_running (gpointer data)
{
  Live *l = data;
  guint32 rng = l->rng ^ 0x7a11;

  /* (videoflip has neither) */
  while (!g_atomic_int_get (&l->stop) && l->n_kernels) {
    gst_util_set_object_arg (G_OBJECT (l->element), "kernel",
        l->kernels[rand_below (&rng, l->n_kernels)]);
    g_object_set (l->element, "frames-in-flight", 1 + rand_below (&rng, 2),
        NULL);
    g_usleep (200 + rand_below (&rng, 2000));
  }
  return NULL;
}

/* Queries and navigation from another thread, as an application or a
 * sink asks them: LATENCY of the pipeline, ACCEPT_CAPS and CAPS of the
 * element's pads, pointer events up through it. */
static gpointer
ask (gpointer data)
{
  Live *l = data;
  GstPad *sink = gst_element_get_static_pad (l->element, "sink");
  GstPad *src = gst_element_get_static_pad (l->element, "src");
  guint32 rng = l->rng ^ 0x9e37;

  while (!g_atomic_int_get (&l->stop)) {
    GstQuery *q = gst_query_new_latency ();
    GstCaps *caps;
    GstStructure *nav;

    gst_element_query (l->pipeline, q);
    gst_query_unref (q);
    caps = l->all ? gst_pad_get_current_caps (sink) : NULL;
    if (caps) {
      (void) gst_pad_query_accept_caps (sink, caps);
      gst_caps_unref (caps);
      caps = gst_pad_query_caps (rand_below (&rng, 2) ? sink : src, NULL);
      gst_caps_unref (caps);
    }
    nav = gst_structure_new ("application/x-gst-navigation", "event",
        G_TYPE_STRING, "mouse-move", "pointer_x", G_TYPE_DOUBLE, 3.0,
        "pointer_y", G_TYPE_DOUBLE, 5.0, NULL);
    gst_pad_send_event (src, gst_event_new_navigation (nav));
    g_atomic_int_inc (&l->queries);
    g_usleep (100 + rand_below (&rng, 300));
  }
  gst_object_unref (sink);
  gst_object_unref (src);
  return NULL;
}

/* Flushing seeks back to the start, now and then. */
static gpointer
seek (gpointer data)
{
  Live *l = data;
  guint32 rng = l->rng ^ 0x5eec;

  while (!g_atomic_int_get (&l->stop) && !g_getenv ("CT_LIVE_NO_SEEK")) {
    g_usleep (100000 + rand_below (&rng, 300000));
    if (g_atomic_int_get (&l->stop))
      break;
    if (gst_element_seek_simple (l->pipeline, GST_FORMAT_TIME,
            GST_SEEK_FLAG_FLUSH, 0))
      g_atomic_int_inc (&l->seeks);
  }
  return NULL;
}

static guint
live_seconds (void)
{
  const gchar *env = g_getenv ("CT_LIVE_SECONDS");

  return env ? MAX (1, atoi (env)) : 3;
}

/* Runs @desc (a source named "src" of @kind, the element "t", and probe
 * points "in" and "out": the pads frames are read from before and after
 * it) with every thread above for a few seconds, then EOS; checks every
 * frame out. */
static void
run_live (const gchar * desc, const gchar * factory, LiveKind kind,
    const GstVideoFormat * formats, guint n_formats,
    const gchar * const *kernels, guint n_kernels, const gchar * what)
{
  GError *err = NULL;
  GstElement *p = gst_parse_launch (desc, &err), *src;
  GstElement *in_el, *out_el;
  GstPad *in_pad, *out_pad;
  GThread *threads[5];
  GstBus *bus;
  GstMessage *msg;
  Checker c;
  Live l;
  Log log;
  guint i;

  fail_unless (p != NULL && err == NULL, "%s: %s", desc,
      err ? err->message : "?");
  memset (&l, 0, sizeof (l));
  memset (&c, 0, sizeof (c));
  g_mutex_init (&log.lock);
  log.at = g_new (Setting, MAX_SETTINGS);
  log.n = 0;
  src = gst_bin_get_by_name (GST_BIN (p), "src");
  ((LiveSrc *) src)->kind = kind;
  ((LiveSrc *) src)->formats = formats;
  ((LiveSrc *) src)->n_formats = n_formats;
  l.pipeline = p;
  l.element = gst_bin_get_by_name (GST_BIN (p), "t");
  l.factory = factory;
  l.kind = kind;
  l.log = &log;
  l.rng = ct_check_random () | 1;
  l.kernels = kernels;
  l.n_kernels = n_kernels;
  if (n_kernels && g_getenv ("CT_LIVE_KERNEL")) {
    static const gchar *one[1];

    one[0] = g_getenv ("CT_LIVE_KERNEL");
    l.kernels = one;
    l.n_kernels = 1;
  }
  l.all = !g_str_equal (factory, "videoflip");
  c.kind = kind;
  c.log = &log;
  g_mutex_init (&c.lock);
  c.inputs = g_hash_table_new_full (NULL, NULL, NULL, input_free);
  in_el = gst_bin_get_by_name (GST_BIN (p), "in");
  out_el = gst_bin_get_by_name (GST_BIN (p), "out");
  in_pad = gst_element_get_static_pad (in_el, "sink");
  out_pad = gst_element_get_static_pad (out_el, "src");
  gst_pad_add_probe (in_pad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_FLUSH, input_probe, &c, NULL);
  gst_pad_add_probe (out_pad, GST_PAD_PROBE_TYPE_BUFFER, output_probe, &c,
      NULL);

  /* the first setting is logged before anything streams */
  threads[0] = g_thread_new ("change-settings", change_settings, &l);
  while (g_atomic_int_get (&log.n) == 0)
    g_usleep (100);
  bus = gst_element_get_bus (p);
  fail_unless (gst_element_set_state (p, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE, "%s: could not start", what);
  threads[1] = g_thread_new ("change-running", change_running, &l);

  threads[2] = g_thread_new ("ask", ask, &l);
  threads[3] = g_thread_new ("seek", seek, &l);
  /* a busy CPU: the streaming thread and the changes compete with it */
  threads[4] = g_thread_new ("spin", ct_check_spin, &l.stop);

  msg = gst_bus_timed_pop_filtered (bus, live_seconds () * GST_SECOND,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  g_atomic_int_set (&l.stop, 1);
  for (i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);
  if (!msg) {
    gst_element_send_event (src, gst_event_new_eos ());
    msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
        GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  }
  fail_unless (msg != NULL, "%s: no EOS in 60 s", what);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GString *warnings = g_string_new (NULL);
    GstMessage *w;
    GError *e = NULL;
    gchar *dbg = NULL;

    /* (which element gave up first: a base transform that failed to
     * renegotiate says so in a warning) */
    while ((w = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING))) {
      GError *we = NULL;

      gst_message_parse_warning (w, &we, NULL);
      g_string_append_printf (warnings, "; warning from %s: %s",
          GST_MESSAGE_SRC_NAME (w), we->message);
      g_error_free (we);
      gst_message_unref (w);
    }
    gst_message_parse_error (msg, &e, &dbg);
    fail ("%s: error from %s: %s (%s)%s", what, GST_MESSAGE_SRC_NAME (msg),
        e->message, dbg, warnings->str);
  }
  gst_message_unref (msg);
  gst_element_set_state (p, GST_STATE_NULL);

  g_print ("%s: %u frames checked, %u flushed, %u setting changes, %u "
      "queries, %u flush-seeks, %u settings logged\n", what, c.checked,
      c.flushed, l.changes, l.queries, l.seeks, log.n);
  fail_unless (c.failure == NULL, "%s: %s", what, c.failure);
  /* nothing lost: every input since the last flush came out */
  fail_unless_equals_int (g_hash_table_size (c.inputs), 0);
  fail_unless (c.checked >= 20, "%s: only %u frames out", what, c.checked);
  fail_unless (l.changes >= 20 || g_getenv ("CT_LIVE_STILL"), "%s: only %u "
      "changes", what, l.changes);
  if ((kind == LIVE_VIDEO || kind == LIVE_YUV_TENSOR) &&
      !g_getenv ("CT_LIVE_STILL"))
    fail_unless (__builtin_popcount (c.directions_seen) >= 3, "%s: only "
        "directions 0x%x came out", what, c.directions_seen);

  g_hash_table_unref (c.inputs);
  g_mutex_clear (&c.lock);
  g_free (c.failure);
  g_mutex_clear (&log.lock);
  g_free (log.at);
  gst_object_unref (in_pad);
  gst_object_unref (out_pad);
  gst_object_unref (in_el);
  gst_object_unref (out_el);
  gst_object_unref (l.element);
  gst_object_unref (src);
  gst_object_unref (bus);
  gst_object_unref (p);
}

/* ---------------------------------------------------------------------- */
/* The tests                                                                */

/* Formats videoflip 1.22 gets right in every direction, and more of the
 * element's own. */
static const GstVideoFormat shared_formats[] = {
  GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_GRAY8,
  GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_YUY2,
  GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_Y444,
};

static const GstVideoFormat cuda_formats[] = {
  GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_RGBA,
  GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_P010_10LE,
};

static const gchar *const cpu_kernels[] = { "auto", "cpu" };
static const gchar *const live_gpu_kernels[] = { "auto", "auto", "tiled-padded",
  "wide", "cpu"
};

#define KERNELS(k) k, G_N_ELEMENTS (k)

/* The element's memory: system memory around it, or CUDA memory through
 * nvcodec's elements. With @convert, upstream negotiates through a
 * transform of its own (videoconvert, as cudaupload does in CUDA memory),
 * which asks the element's caps with a filter while the settings
 * change. */
static gchar *
video_pipeline (const gchar * element, gboolean cuda, gboolean convert)
{
  /* (frames are read back in system memory, as the GPU matrix reads
   * them: cudadownload would pass CUDA memory on to a sink of any caps) */
  if (cuda)
    return g_strdup_printf ("ctlivesrc name=src ! identity name=in ! "
        "cudaupload ! %s name=t ! cudadownload ! video/x-raw ! "
        "identity name=out ! fakesink sync=false", element);
  return g_strdup_printf ("ctlivesrc name=src ! identity name=in ! %s%s "
      "name=t ! identity name=out ! fakesink sync=false", convert ?
      "videoconvert ! " : "", element);
}

GST_START_TEST (test_live_video)
{
  gchar *desc = video_pipeline ("cudatranspose", FALSE, TRUE);

  if (on_gpu)
    run_live (desc, "cudatranspose", LIVE_VIDEO, shared_formats,
        G_N_ELEMENTS (shared_formats), KERNELS (live_gpu_kernels),
        "video, system memory, GPU");
  else
    run_live (desc, "cudatranspose", LIVE_VIDEO, shared_formats,
        G_N_ELEMENTS (shared_formats), KERNELS (cpu_kernels), "video");
  g_free (desc);
}

GST_END_TEST;

/* The anchor: videoflip in the same program, with the same changes but
 * three it fails under (Live.all, and no transform upstream: its two
 * transforms of one caps query may read two directions, and upstream then
 * fails to negotiate): the element must do at least what a stock element
 * does, and does more. */
GST_START_TEST (test_live_videoflip)
{
  gchar *desc = video_pipeline ("videoflip", FALSE, FALSE);

  run_live (desc, "videoflip", LIVE_VIDEO, shared_formats,
      G_N_ELEMENTS (shared_formats), NULL, 0, "videoflip");
  g_free (desc);
}

GST_END_TEST;

GST_START_TEST (test_live_cuda_memory)
{
  const gchar *need[] = { "cudaupload", "cudadownload", NULL };
  const gchar *element = g_getenv ("CT_LIVE_CUDA_ELEMENT") ?
      g_getenv ("CT_LIVE_CUDA_ELEMENT") : "cudatranspose";
  gchar *desc = video_pipeline (element, TRUE, TRUE);

  fail_unless (ct_check_have_factories (need), "no cudaupload");
  if (g_str_equal (element, "cudatranspose"))
    run_live (desc, element, LIVE_VIDEO, cuda_formats,
        G_N_ELEMENTS (cuda_formats), KERNELS (live_gpu_kernels),
        "video, CUDA memory");
  else
    run_live (desc, element, LIVE_VIDEO, cuda_formats,
        G_N_ELEMENTS (cuda_formats), NULL, 0, "video, CUDA memory");
  g_free (desc);
}

GST_END_TEST;

/* Tensors of @kind through the element, on the GPU or the CPU. */
static void
run_tensors (LiveKind kind, const gchar * what)
{
  const gchar *desc = "ctlivesrc name=src ! identity name=in ! "
      "cudatranspose name=t ! identity name=out ! fakesink sync=false";
  gchar *label = g_strdup_printf ("%s%s", what, on_gpu ? ", GPU" : "");

  if (on_gpu)
    run_live (desc, "cudatranspose", kind, NULL, 0,
        KERNELS (live_gpu_kernels), label);
  else
    run_live (desc, "cudatranspose", kind, NULL, 0, KERNELS (cpu_kernels),
        label);
  g_free (label);
}

GST_START_TEST (test_live_static_tensors)
{
  run_tensors (LIVE_STATIC, "static tensors");
}

GST_END_TEST;

GST_START_TEST (test_live_flexible_tensors)
{
  run_tensors (LIVE_FLEXIBLE, "flexible tensors");
}

GST_END_TEST;

/* YUV video into tensors, all its settings changing (the 8-bit formats:
 * 16-bit ones into floats keep values videoconvert's RGB does not). */
GST_START_TEST (test_live_yuv_tensors)
{
  static const GstVideoFormat yuv_formats[] = {
    GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_YV12, GST_VIDEO_FORMAT_NV12,
    GST_VIDEO_FORMAT_NV21,
  };
  const gchar *desc = "ctlivesrc name=src ! identity name=in ! "
      "cudatranspose name=t ! other/tensors,format=static ! identity "
      "name=out ! fakesink sync=false";

  if (on_gpu)
    run_live (desc, "cudatranspose", LIVE_YUV_TENSOR, yuv_formats,
        G_N_ELEMENTS (yuv_formats), KERNELS (live_gpu_kernels),
        "YUV to tensors, GPU");
  else
    run_live (desc, "cudatranspose", LIVE_YUV_TENSOR, yuv_formats,
        G_N_ELEMENTS (yuv_formats), KERNELS (cpu_kernels), "YUV to tensors");
}

GST_END_TEST;

static Suite *
live_suite (void)
{
  Suite *s = suite_create ("live");
  TCase *tc = tcase_create ("live");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_live_video);
  tcase_add_test (tc, test_live_static_tensors);
  tcase_add_test (tc, test_live_flexible_tensors);
  tcase_add_test (tc, test_live_yuv_tensors);
  if (on_gpu) {
    tcase_add_test (tc, test_live_cuda_memory);
  } else {
    tcase_add_test (tc, test_live_videoflip);
  }
  return s;
}

int
main (int argc, char **argv)
{
  on_gpu = argc > 1 && g_str_equal (argv[1], "gpu");
  have_gpu = ct_check_cuda_device_count () > 0;
  /* (without one, the GPU run says why it skips) */
  if (on_gpu && !have_gpu && !ct_check_have_cuda_device ())
    return 77;
  gst_check_init (&argc, &argv);
  ct_check_seed ();
  gst_element_register (NULL, "ctlivesrc", GST_RANK_NONE,
      live_src_get_type ());
  return gst_check_run_suite (live_suite (), "live", __FILE__);
}
