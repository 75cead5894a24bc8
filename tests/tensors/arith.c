/* cudatranspose's arithmetic property on the CPU: NNStreamer's
 * tensor_transform mode=arithmetic fused with the layout change, checked
 * against a reference written here from NNStreamer's semantics (each
 * element cast to the output type, then each operation in that type, its
 * operand cast the same way), never against the kernels' own loop. */
#include "transpose-check.h"

#include <string.h>

/* ---------------------------------------------------------------------- */
/* The reference                                                            */

/* The ten types, NNStreamer's names. */
typedef enum
{
  T_INT8, T_UINT8, T_INT16, T_UINT16, T_INT32, T_UINT32, T_INT64, T_UINT64,
  T_FLOAT32, T_FLOAT64, T_COUNT
} RefType;

static const gchar *const type_names[T_COUNT] = {
  "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
  "float32", "float64",
};

static const guint type_sizes[T_COUNT] = { 1, 1, 2, 2, 4, 4, 8, 8, 4, 8 };

/* A value of one type: integers as their 64-bit two's complement bits. */
typedef struct
{
  RefType type;
  guint64 u;
  gfloat f;
  gdouble d;
} RefValue;

static gboolean
is_float (RefType t)
{
  return t == T_FLOAT32 || t == T_FLOAT64;
}

static gboolean
is_signed (RefType t)
{
  return t == T_INT8 || t == T_INT16 || t == T_INT32 || t == T_INT64;
}

/* @bits kept to the type's size, sign- or zero-extended. */
static guint64
wrap (guint64 bits, RefType t)
{
  switch (t) {
    case T_INT8:
      return (guint64) (gint64) (gint8) bits;
    case T_UINT8:
      return (guint8) bits;
    case T_INT16:
      return (guint64) (gint64) (gint16) bits;
    case T_UINT16:
      return (guint16) bits;
    case T_INT32:
      return (guint64) (gint64) (gint32) bits;
    case T_UINT32:
      return (guint32) bits;
    default:
      return bits;
  }
}

static RefValue
load (const guint8 * p, RefType t)
{
  RefValue v = { t, 0, 0, 0 };

  switch (type_sizes[t]) {
    case 1:
      v.u = p[0];
      break;
    case 2:{
      guint16 x;
      memcpy (&x, p, 2);
      v.u = x;
      break;
    }
    case 4:{
      guint32 x;
      memcpy (&x, p, 4);
      v.u = x;
      memcpy (&v.f, p, 4);
      break;
    }
    default:
      memcpy (&v.u, p, 8);
      memcpy (&v.d, p, 8);
      break;
  }
  if (!is_float (t))
    v.u = wrap (v.u, t);
  return v;
}

static void
store (guint8 * p, const RefValue * v)
{
  if (v->type == T_FLOAT32) {
    memcpy (p, &v->f, 4);
  } else if (v->type == T_FLOAT64) {
    memcpy (p, &v->d, 8);
  } else {
    guint64 u = v->u;

    /* (little-endian, as the element's hosts are) */
    memcpy (p, &u, type_sizes[v->type]);
  }
}

/* @v cast to @to as NNStreamer's tensor_data casts: C's conversions, a
 * float going to an unsigned type through the signed type of its size.
 * (The test's floats stay within 32 bits, where C defines them.) */
static RefValue
cast (RefValue v, RefType to)
{
  RefValue r = { to, 0, 0, 0 };

  if (to == T_FLOAT32) {
    if (v.type == T_FLOAT32)
      r.f = v.f;
    else if (v.type == T_FLOAT64)
      r.f = (gfloat) v.d;
    else if (v.type == T_UINT64)
      r.f = (gfloat) v.u;
    else
      r.f = (gfloat) (gint64) v.u;
  } else if (to == T_FLOAT64) {
    if (v.type == T_FLOAT32)
      r.d = (gdouble) v.f;
    else if (v.type == T_FLOAT64)
      r.d = v.d;
    else if (v.type == T_UINT64)
      r.d = (gdouble) v.u;
    else
      r.d = (gdouble) (gint64) v.u;
  } else if (is_float (v.type)) {
    gdouble x = v.type == T_FLOAT32 ? (gdouble) v.f : v.d;

    fail_unless (x > -2147483648.0 && x < 2147483648.0);
    r.u = wrap ((guint64) (gint64) x, to);
  } else {
    r.u = wrap (v.u, to);
  }
  return r;
}

typedef struct
{
  gchar kind;                   /* '+', '*', '/' */
  gboolean is_float;
  gint64 i;
  gdouble d;
  gint channel;                 /* -1: every element */
} RefOp;

/* @x op @o, both of @x's type; the float steps each in a variable of
 * their own, so that every one rounds as its type does. */
static RefValue
apply (RefValue x, RefValue o, gchar kind)
{
  if (x.type == T_FLOAT32) {
    gfloat a = x.f, b = o.f, r;

    r = kind == '+' ? a + b : kind == '*' ? a * b : a / b;
    x.f = r;
  } else if (x.type == T_FLOAT64) {
    gdouble a = x.d, b = o.d, r;

    r = kind == '+' ? a + b : kind == '*' ? a * b : a / b;
    x.d = r;
  } else if (kind == '+') {
    x.u = wrap (x.u + o.u, x.type);
  } else if (kind == '*') {
    x.u = wrap (x.u * o.u, x.type);
  } else if (is_signed (x.type)) {
    /* (no operand is -1: INT_MIN / -1 traps in NNStreamer) */
    x.u = wrap ((guint64) ((gint64) x.u / (gint64) o.u), x.type);
  } else {
    x.u = wrap (x.u / o.u, x.type);
  }
  return x;
}

/* The option, for the reference. */
typedef struct
{
  RefType out;                  /* T_COUNT: no typecast */
  gint channel_dim;             /* -1: per-channel off */
  guint n_ops;
  RefOp ops[8];
} RefArith;

/* Element @in of @in_type, the element at input coordinate @channel along
 * the channel dimension, through @a. */
static RefValue
reference (const guint8 * in, RefType in_type, const RefArith * a,
    guint64 channel)
{
  RefType out = a->out == T_COUNT ? in_type : a->out;
  RefValue v = cast (load (in, in_type), out);
  guint k;

  for (k = 0; k < a->n_ops; k++) {
    const RefOp *op = &a->ops[k];
    RefValue operand = { op->is_float ? T_FLOAT64 : T_INT64,
      (guint64) op->i, 0, op->d
    };

    if (op->channel >= 0 && (guint64) op->channel != channel)
      continue;
    v = apply (v, cast (operand, out), op->kind);
  }
  return v;
}

/* ---------------------------------------------------------------------- */
/* Tensors                                                                  */

/* Fills @n elements of @t at @data: integers from the random stream, floats
 * from -1000 to 1000 with fractions. */
static void
fill_values (guint8 * data, gsize n, RefType t)
{
  gsize i;

  ct_check_fill_random (data, n * type_sizes[t]);
  for (i = 0; t == T_FLOAT32 && i < n; i++) {
    gfloat f = (gint32) (ct_check_random () % 2000001) / 1000.0f - 1000.0f;
    memcpy (data + i * 4, &f, 4);
  }
  for (i = 0; t == T_FLOAT64 && i < n; i++) {
    gdouble d = (gint32) (ct_check_random () % 2000001) / 1000.0 - 1000.0;
    memcpy (data + i * 8, &d, 8);
  }
}

/* Pushes a random tensor of sizes @dims and @in_type through "cudatranspose
 * kernel=cpu" with @option (and @perm, or NULL: the transpose), checks the
 * output caps' type and every element against the reference. */
static void
check_tensor (const guint64 dims[4], RefType in_type, const guint * perm,
    const gchar * option, const RefArith * a)
{
  RefType out_type = a->out == T_COUNT ? in_type : a->out;
  guint isz = type_sizes[in_type], osz = type_sizes[out_type];
  guint64 od[4], n = dims[0] * dims[1] * dims[2] * dims[3], c[4];
  guint swap[4] = { 1, 0, 2, 3 };
  const guint *p = perm ? perm : swap;
  GstHarness *h = ct_check_harness_new ("cudatranspose kernel=cpu", NULL);
  gchar *caps, *want_dims;
  GstBuffer *in, *out;
  GstMapInfo im, om;
  GstCaps *got;
  guint k;

  g_object_set (h->element, "arithmetic", option, NULL);
  if (perm) {
    gchar *ps = g_strdup_printf ("%u:%u:%u:%u", p[0], p[1], p[2], p[3]);

    g_object_set (h->element, "permutation", ps, NULL);
    g_free (ps);
  }
  caps = g_strdup_printf ("other/tensors,format=static,num_tensors=1,"
      "dimensions=(string)%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT ":%"
      G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT ",types=%s,framerate=0/1",
      dims[0], dims[1], dims[2], dims[3], type_names[in_type]);
  gst_harness_set_src_caps_str (h, caps);
  in = gst_buffer_new_allocate (NULL, n * isz, NULL);
  gst_buffer_map (in, &im, GST_MAP_WRITE);
  fill_values (im.data, n, in_type);
  gst_buffer_unmap (in, &im);

  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (out != NULL, "%s on %s: no output", option, caps);
  for (k = 0; k < 4; k++)
    od[k] = dims[p[k]];
  got = gst_pad_get_current_caps (h->sinkpad);
  fail_unless_equals_string (gst_structure_get_string
      (gst_caps_get_structure (got, 0), "types"), type_names[out_type]);
  want_dims = g_strdup_printf ("%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT
      ":%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT, od[0], od[1], od[2],
      od[3]);
  fail_unless_equals_string (gst_structure_get_string
      (gst_caps_get_structure (got, 0), "dimensions"), want_dims);
  gst_caps_unref (got);
  g_free (want_dims);

  fail_unless_equals_int (gst_buffer_get_size (out), n * osz);
  gst_buffer_map (in, &im, GST_MAP_READ);
  gst_buffer_map (out, &om, GST_MAP_READ);
  /* every output element from the input element it came from */
  for (c[3] = 0; c[3] < od[3]; c[3]++)
    for (c[2] = 0; c[2] < od[2]; c[2]++)
      for (c[1] = 0; c[1] < od[1]; c[1]++)
        for (c[0] = 0; c[0] < od[0]; c[0]++) {
          guint64 ic[4], src, dst;
          guint8 want[8];
          RefValue v;

          for (k = 0; k < 4; k++)
            ic[p[k]] = c[k];
          src = ((ic[3] * dims[2] + ic[2]) * dims[1] + ic[1]) * dims[0] +
              ic[0];
          dst = ((c[3] * od[2] + c[2]) * od[1] + c[1]) * od[0] + c[0];
          v = reference (im.data + src * isz, in_type, a,
              a->channel_dim >= 0 ? ic[a->channel_dim] : 0);
          store (want, &v);
          fail_unless (memcmp (om.data + dst * osz, want, osz) == 0,
              "%s, %s %s (perm %u:%u:%u:%u): element %" G_GUINT64_FORMAT
              " differs", option, type_names[in_type], caps, p[0], p[1],
              p[2], p[3], dst);
        }
  gst_buffer_unmap (out, &om);
  gst_buffer_unmap (in, &im);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  g_free (caps);
  gst_harness_teardown (h);
}

/* Every pair of the ten types, scalar and per-channel, transposed and
 * permuted; and each type without a typecast. */
GST_START_TEST (test_type_pairs)
{
  static const guint64 dims[4] = { 3, 5, 4, 2 };
  static const guint perm[4] = { 2, 0, 1, 3 };
  guint in, out, layout;

  for (in = 0; in < T_COUNT; in++) {
    for (out = 0; out <= T_COUNT; out++) {
      const gchar *cast = out < T_COUNT ? type_names[out] : NULL;
      gchar *scalar, *per_channel;
      RefArith s = { out, -1, 4, {
              {'+', FALSE, 3, 0, -1}, {'*', TRUE, 0, 2.5, -1},
              {'/', FALSE, -3, 0, -1}, {'+', TRUE, 0, -1.5e1, -1}}
      };
      RefArith pc = { out, 0, 4, {
              {'+', FALSE, 5, 0, 0}, {'*', FALSE, 3, 0, 1},
              {'/', TRUE, 0, 2.0, 2}, {'+', FALSE, -7, 0, -1}}
      };

      scalar = g_strdup_printf ("%s%s%sadd:3,MUL:2.5,div:-3,add:-1.5e1",
          cast ? "typecast:" : "", cast ? cast : "", cast ? "," : "");
      per_channel = g_strdup_printf ("%s%s%sper-channel:true@0,add:5@0,"
          "mul:3@1,div:2.0@2,add:-7", cast ? "typecast:" : "",
          cast ? cast : "", cast ? "," : "");
      for (layout = 0; layout < 2; layout++) {
        check_tensor (dims, in, layout ? perm : NULL, scalar, &s);
        check_tensor (dims, in, layout ? perm : NULL, per_channel, &pc);
      }
      g_free (scalar);
      g_free (per_channel);
    }
  }
}

GST_END_TEST;

/* The channel dimension need not be the innermost, nor kept in place. */
GST_START_TEST (test_per_channel_dims)
{
  static const guint64 dims[4] = { 2, 3, 4, 5 };
  static const guint perm[4] = { 3, 1, 0, 2 };
  guint dim;

  for (dim = 0; dim < 4; dim++) {
    RefArith a = { T_FLOAT32, dim, 3, {
            {'+', TRUE, 0, 0.25, 1}, {'*', FALSE, -2, 0, 0},
            {'/', TRUE, 0, 3.0, -1}}
    };
    gchar *option = g_strdup_printf ("typecast:float32,per-channel:true@%u,"
        "add:0.25@1,mul:-2@0,div:3.0", dim);

    check_tensor (dims, T_INT16, perm, option, &a);
    check_tensor (dims, T_INT16, NULL, option, &a);
    g_free (option);
  }
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* Video                                                                    */

/* Pushes @frames random frames of @format (@channels a pixel) @width x
 * @height through "cudatranspose kernel=cpu" with @option (may be NULL)
 * into other/tensors; each must be its CHW tensor through @a (NULL: the
 * bytes as they are), channels being dimension 0. */
static void
check_video (const gchar * format, guint channels, gint width, gint height,
    guint frames, const gchar * option, const RefArith * a)
{
  GstHarness *h = ct_check_harness_new ("cudatranspose kernel=cpu", NULL);
  RefType out_type = a && a->out != T_COUNT ? a->out : T_UINT8;
  guint osz = type_sizes[out_type], f;
  GstVideoInfo info;
  gchar *caps, *want_dims;
  GstCaps *got;

  if (option)
    g_object_set (h->element, "arithmetic", option, NULL);
  caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1", format, width, height);
  gst_harness_set_src_caps_str (h, caps);
  gst_harness_set_sink_caps_str (h, "other/tensors,format=static");
  fail_unless (gst_video_info_set_format (&info,
          gst_video_format_from_string (format), width, height));

  for (f = 0; f < frames; f++) {
    GstBuffer *in = gst_buffer_new_allocate (NULL, info.size, NULL), *out;
    GstMapInfo im, om;
    gint x, y;
    guint c;

    gst_buffer_map (in, &im, GST_MAP_WRITE);
    ct_check_fill_random (im.data, im.size);
    gst_buffer_unmap (in, &im);
    GST_BUFFER_PTS (in) = f * GST_SECOND / 30;
    out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
    fail_unless (out != NULL);
    fail_unless_equals_int (gst_buffer_get_size (out),
        (gsize) channels * width * height * osz);
    gst_buffer_map (in, &im, GST_MAP_READ);
    gst_buffer_map (out, &om, GST_MAP_READ);
    for (c = 0; c < channels; c++)
      for (y = 0; y < height; y++)
        for (x = 0; x < width; x++) {
          const guint8 *px = im.data + y * info.stride[0] + x * channels + c;
          gsize dst = ((gsize) c * height + y) * width + x;
          guint8 want[8];

          if (a) {
            RefValue v = reference (px, T_UINT8, a, c);

            store (want, &v);
          } else {
            want[0] = *px;
          }
          fail_unless (memcmp (om.data + dst * osz, want, osz) == 0,
              "%s %dx%d frame %u, %s: channel %u at %d,%d differs", format,
              width, height, f, option ? option : "no arithmetic", c, x, y);
        }
    gst_buffer_unmap (out, &om);
    gst_buffer_unmap (in, &im);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }

  got = gst_pad_get_current_caps (h->sinkpad);
  want_dims = g_strdup_printf ("%d:%d:%u:1", width, height, channels);
  fail_unless_equals_string (gst_structure_get_string
      (gst_caps_get_structure (got, 0), "dimensions"), want_dims);
  fail_unless_equals_string (gst_structure_get_string
      (gst_caps_get_structure (got, 0), "types"), type_names[out_type]);
  gst_caps_unref (got);
  g_free (want_dims);
  g_free (caps);
  gst_harness_teardown (h);
}

/* The case of NNStreamer's users: RGB frames (67 wide: rows padded to 204
 * bytes) to normalized float32 CHW, frame by frame
 * ((x.astype(float32) + float32(-127.5)) / float32(127.5)).transpose(2,0,1);
 * and the per-channel mean and deviation of ImageNet models. */
GST_START_TEST (test_video_normalized)
{
  RefArith scalar = { T_FLOAT32, -1, 2, {
          {'+', TRUE, 0, -127.5, -1}, {'/', TRUE, 0, 127.5, -1}}
  };
  RefArith imagenet = { T_FLOAT32, 0, 4, {
          {'+', TRUE, 0, -123.68, 0}, {'+', TRUE, 0, -116.78, 1},
          {'+', TRUE, 0, -103.94, 2}, {'/', TRUE, 0, 58.4, -1}}
  };
  const gchar *formats[] = { "RGB", "BGR", "RGBA", "BGRx" };
  guint i;

  check_video ("RGB", 3, 67, 35, 4, "typecast:float32,add:-127.5,div:127.5",
      &scalar);
  check_video ("RGB", 3, 67, 35, 2, "typecast:float32,per-channel:true@0,"
      "add:-123.68@0,add:-116.78@1,add:-103.94@2,div:58.4", &imagenet);
  for (i = 0; i < G_N_ELEMENTS (formats); i++)
    check_video (formats[i], formats[i][3] ? 4 : 3, 33, 9, 1,
        "TYPECAST:FLOAT32,ADD:-127.5,DIV:127.5", &scalar);
}

GST_END_TEST;

/* The same through videotestsrc, as gst-launch-1.0 runs it. */
GST_START_TEST (test_video_pipeline)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=3 "
      "pattern=snow ! video/x-raw,format=RGB,width=67,height=35 ! tee "
      "name=t ! queue ! appsink name=frames sync=false t. ! queue ! "
      "cudatranspose kernel=cpu "
      "arithmetic=typecast:float32,add:-127.5,div:127.5 ! "
      "other/tensors,format=static ! appsink name=tensors sync=false", NULL);
  GstElement *frames = gst_bin_get_by_name (GST_BIN (pipeline), "frames");
  GstElement *tensors = gst_bin_get_by_name (GST_BIN (pipeline), "tensors");
  guint n;

  fail_unless (pipeline != NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  for (n = 0; n < 3; n++) {
    GstSample *fs = NULL, *ts = NULL;
    GstVideoInfo info;
    GstMapInfo fm, tm;
    gint x, y, c;

    g_signal_emit_by_name (frames, "pull-sample", &fs);
    g_signal_emit_by_name (tensors, "pull-sample", &ts);
    fail_unless (fs != NULL && ts != NULL, "frame %u missing", n);
    gst_video_info_from_caps (&info, gst_sample_get_caps (fs));
    gst_buffer_map (gst_sample_get_buffer (fs), &fm, GST_MAP_READ);
    gst_buffer_map (gst_sample_get_buffer (ts), &tm, GST_MAP_READ);
    fail_unless_equals_int (tm.size, 3 * 67 * 35 * 4);
    for (c = 0; c < 3; c++)
      for (y = 0; y < 35; y++)
        for (x = 0; x < 67; x++) {
          gfloat v = fm.data[y * info.stride[0] + x * 3 + c];
          gfloat a = -127.5f, b = 127.5f, s, want;

          s = v + a;
          want = s / b;
          fail_unless (memcmp (tm.data + (((gsize) c * 35 + y) * 67 + x) *
                  4, &want, 4) == 0, "frame %u, channel %d at %d,%d", n, c,
              x, y);
        }
    gst_buffer_unmap (gst_sample_get_buffer (ts), &tm);
    gst_buffer_unmap (gst_sample_get_buffer (fs), &fm);
    gst_sample_unref (fs);
    gst_sample_unref (ts);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (frames);
  gst_object_unref (tensors);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* GRAY8 goes out as a tensor too (tensor_converter's 1:W:H:1, here CHW:
 * W:H:1:1), rows padded (13 wide: 16-byte rows), with arithmetic or not. */
GST_START_TEST (test_gray8)
{
  RefArith a = { T_INT16, -1, 2, {
          {'*', FALSE, 3, 0, -1}, {'+', FALSE, -300, 0, -1}}
  };

  check_video ("GRAY8", 1, 13, 7, 2, NULL, NULL);
  check_video ("GRAY8", 1, 13, 7, 2, "typecast:int16,mul:3,add:-300", &a);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* Flexible tensors                                                         */

/* A flexible tensor's header says the output type; a change of it while
 * streaming needs no renegotiation (the caps say no type). */
GST_START_TEST (test_flexible)
{
  GstHarness *h = ct_check_harness_new ("cudatranspose kernel=cpu", NULL);
  const guint dims[3] = { 3, 4, 2 }, out_dims[3] = { 4, 3, 2 };
  guint8 header[CT_CHECK_NNS_HEADER], want_header[CT_CHECK_NNS_HEADER];
  guint u8 = 0, nns_out[2] = { 0, 0 }, i, step, x, y, z;
  const struct
  {
    const gchar *option;
    const gchar *type;
    RefArith a;
  } steps[] = {
    {"typecast:float32,add:1", "float32",
        {T_FLOAT32, -1, 1, {{'+', FALSE, 1, 0, -1}}}},
    {"typecast:int16,mul:-2", "int16",
        {T_INT16, -1, 1, {{'*', FALSE, -2, 0, -1}}}},
  };

  for (i = 0; i < ct_check_n_nns_types; i++) {
    if (g_str_equal (ct_check_nns_types[i].name, "uint8"))
      u8 = i;
    for (step = 0; step < 2; step++)
      if (g_str_equal (ct_check_nns_types[i].name, steps[step].type))
        nns_out[step] = i;
  }
  gst_harness_set_src_caps_str (h, "other/tensors,format=flexible,"
      "framerate=0/1");
  ct_check_nns_write_meta (header, 0xfeedcced, u8, dims, 3, 0);
  for (step = 0; step < 2; step++) {
    guint osz = type_sizes[steps[step].a.out];
    GstBuffer *in, *out;
    GstMapInfo im, om;

    g_object_set (h->element, "arithmetic", steps[step].option, NULL);
    ct_check_nns_write_meta (want_header, 0xfeedcced, nns_out[step],
        out_dims, 3, 0);
    in = gst_buffer_new_allocate (NULL, sizeof (header) + 24, NULL);
    gst_buffer_map (in, &im, GST_MAP_WRITE);
    memcpy (im.data, header, sizeof (header));
    ct_check_fill_random (im.data + sizeof (header), 24);
    gst_buffer_unmap (in, &im);

    out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
    fail_unless (out != NULL);
    gst_buffer_map (in, &im, GST_MAP_READ);
    gst_buffer_map (out, &om, GST_MAP_READ);
    fail_unless_equals_int (om.size, sizeof (header) + 24 * osz);
    /* (the type and the sizes: the words that say them) */
    fail_unless (memcmp (om.data + 8, want_header + 8, 4 * (1 + 16)) == 0,
        "%s: header", steps[step].option);
    for (z = 0; z < 2; z++)
      for (y = 0; y < 4; y++)
        for (x = 0; x < 3; x++) {
          RefValue v = reference (im.data + sizeof (header) + (z * 4 + y) *
              3 + x, T_UINT8, &steps[step].a, 0);
          guint8 want[8];

          store (want, &v);
          fail_unless (memcmp (om.data + sizeof (header) + ((z * 3 + x) * 4 +
                      y) * osz, want, osz) == 0, "%s: %u,%u,%u differs",
              steps[step].option, x, y, z);
        }
    gst_buffer_unmap (out, &om);
    gst_buffer_unmap (in, &im);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* Refusals                                                                 */

/* Options NNStreamer would run other than as written: said when set
 * (g_warning), kept as set, and the start refused with an error that
 * quotes the option and says @reason. */
GST_START_TEST (test_bad_options)
{
  const struct
  {
    const gchar *option;
    const gchar *reason;
  } bad[] = {
    {"add:1,typecast:float32", "must come first"},
    {"typecast:float32,add:1,per-channel:true@0", "right after"},
    {"add:1,per-channel:true@0,add:2@0", "right after"},
    {"add:1@0", "every channel"},
    {"per-channel:false,add:1@2", "every channel"},
    {"add:1,,mul:2", "empty entry"},
    {"add:1,", "empty entry"},
    {",add:1", "empty entry"},
    {"typecast:float16,add:1", "float16"},
    {"typecast:complex64,add:1", "not a type"},
    {"typecast:float32", "no operation"},
    {"sub:1", "not an operation"},
    {"add:1:2", "not an operation"},
    {"add: 1", "not an operation"},
    {"per-channel:true,add:1", "per-channel:true@DIM"},
    {"add:99999999999999999999", "out of range"},
    {NULL, "more than 64"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    GstElement *e = gst_element_factory_make ("cudatranspose", NULL);
    gchar *option = NULL, *got = NULL, *text, *quoted;

    if (bad[i].option) {
      option = g_strdup (bad[i].option);
    } else {
      GString *many = g_string_new ("add:1");
      guint k;

      for (k = 0; k < 64; k++)
        g_string_append (many, ",mul:2");
      option = g_string_free (many, FALSE);
    }
    gst_util_set_object_arg (G_OBJECT (e), "kernel", "cpu");
    ASSERT_WARNING (g_object_set (e, "arithmetic", option, NULL));
    g_object_get (e, "arithmetic", &got, NULL);
    fail_unless_equals_string (got, option);
    g_free (got);

    text = ct_check_start_failure (e);
    quoted = g_strdup_printf ("\"%.40s", option);
    fail_unless (strstr (text, quoted) != NULL, "%s: %s", option, text);
    fail_unless (strstr (text, bad[i].reason) != NULL, "%s: %s", option,
        text);
    g_free (quoted);
    g_free (text);

    /* none lets it start again */
    g_object_set (e, "arithmetic", "", NULL);
    fail_unless (gst_element_set_state (e, GST_STATE_PAUSED) !=
        GST_STATE_CHANGE_FAILURE);
    gst_element_set_state (e, GST_STATE_NULL);
    g_free (option);
    gst_object_unref (e);
  }
}

GST_END_TEST;

/* Options that depend on the caps are refused at negotiation, quoting the
 * option: a division by what casts to 0, a per-channel dimension or
 * channel the tensor lacks, float16, and video going out as video. */
GST_START_TEST (test_refused_at_negotiation)
{
  const struct
  {
    const gchar *option;
    const gchar *caps;
    const gchar *reason;
  } refused[] = {
    {"div:0.5", "other/tensors,format=static,num_tensors=1,"
          "dimensions=(string)3:4,types=uint8,framerate=0/1", "0 once cast"},
    {"typecast:uint8,div:256", "other/tensors,format=static,num_tensors=1,"
          "dimensions=(string)3:4,types=float32,framerate=0/1",
        "0 once cast"},
    {"typecast:float32,div:0", "other/tensors,format=static,num_tensors=1,"
          "dimensions=(string)3:4,types=int8,framerate=0/1", "0 once cast"},
    {"per-channel:true@3,add:1@0", "other/tensors,format=static,"
          "num_tensors=1,dimensions=(string)3:4:5,types=int8,framerate=0/1",
        "not one of the tensor's 3 dimensions"},
    {"per-channel:true@1,add:1@4", "other/tensors,format=static,"
          "num_tensors=1,dimensions=(string)3:4:5,types=int8,framerate=0/1",
        "has 4 channels"},
    {"add:1", "other/tensors,format=static,num_tensors=1,"
          "dimensions=(string)3:4,types=float16,framerate=0/1", "float16"},
    {"per-channel:true@0,add:1@3", "video/x-raw,format=RGB,width=4,"
          "height=2,framerate=0/1", "has 3 channels"},
    {"add:1", "video/x-raw,format=I420,width=4,height=2,framerate=0/1",
        "put other/tensors after cudatranspose, or clear arithmetic"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (refused); i++) {
    GstBus *bus;
    GstHarness *h = ct_check_harness_new ("cudatranspose kernel=cpu", &bus);
    gchar *text, *quoted;

    g_object_set (h->element, "arithmetic", refused[i].option, NULL);
    gst_harness_set_src_caps_str (h, refused[i].caps);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_new_allocate
            (NULL, 720, NULL)), GST_FLOW_NOT_NEGOTIATED);
    text = ct_check_pop_message_text (bus, GST_MESSAGE_ERROR);
    quoted = g_strdup_printf ("\"%s\"", refused[i].option);
    fail_unless (strstr (text, quoted) != NULL, "%s: %s", refused[i].option,
        text);
    fail_unless (strstr (text, refused[i].reason) != NULL, "%s on %s: %s",
        refused[i].option, refused[i].caps, text);
    g_free (quoted);
    g_free (text);
    ct_check_harness_free (h, bus);
  }
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* Changes while streaming                                                  */

/* A change keeping the output type applies from the next buffer; one that
 * changes it renegotiates; clearing it brings the plain transpose back. */
GST_START_TEST (test_change_while_streaming)
{
  GstHarness *h = ct_check_harness_new ("cudatranspose kernel=cpu", NULL);
  const struct
  {
    const gchar *option;
    RefArith a;
  } steps[] = {
    {"add:1", {T_COUNT, -1, 1, {{'+', FALSE, 1, 0, -1}}}},
    {"mul:3", {T_COUNT, -1, 1, {{'*', FALSE, 3, 0, -1}}}},
    {"typecast:float64,div:4", {T_FLOAT64, -1, 1, {{'/', FALSE, 4, 0, -1}}}},
    {"", {T_COUNT, -1, 0, {{0}}}},
  };
  guint i, x, y;

  gst_harness_set_src_caps_str (h, "other/tensors,format=static,"
      "num_tensors=1,dimensions=(string)5:3,types=uint8,framerate=0/1");
  for (i = 0; i < G_N_ELEMENTS (steps); i++) {
    RefType out_type = steps[i].a.out == T_COUNT ? T_UINT8 : steps[i].a.out;
    guint osz = type_sizes[out_type];
    GstBuffer *in = gst_buffer_new_allocate (NULL, 15, NULL), *out;
    GstMapInfo im, om;

    g_object_set (h->element, "arithmetic", steps[i].option, NULL);
    gst_buffer_map (in, &im, GST_MAP_WRITE);
    ct_check_fill_random (im.data, 15);
    gst_buffer_unmap (in, &im);
    out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
    fail_unless (out != NULL);
    fail_unless_equals_int (gst_buffer_get_size (out), 15 * osz);
    gst_buffer_map (in, &im, GST_MAP_READ);
    gst_buffer_map (out, &om, GST_MAP_READ);
    for (y = 0; y < 3; y++)
      for (x = 0; x < 5; x++) {
        RefValue v = reference (im.data + y * 5 + x, T_UINT8, &steps[i].a,
            0);
        guint8 want[8];

        store (want, &v);
        fail_unless (memcmp (om.data + (x * 3 + y) * osz, want, osz) == 0,
            "after arithmetic=\"%s\": %u,%u differs", steps[i].option, x, y);
      }
    gst_buffer_unmap (out, &om);
    gst_buffer_unmap (in, &im);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
arith_suite (void)
{
  Suite *s = suite_create ("arith");
  TCase *tc = tcase_create ("arith");

  ct_check_seed ();
  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_type_pairs);
  tcase_add_test (tc, test_per_channel_dims);
  tcase_add_test (tc, test_video_normalized);
  tcase_add_test (tc, test_video_pipeline);
  tcase_add_test (tc, test_gray8);
  tcase_add_test (tc, test_flexible);
  tcase_add_test (tc, test_bad_options);
  tcase_add_test (tc, test_refused_at_negotiation);
  tcase_add_test (tc, test_change_while_streaming);
  return s;
}

GST_CHECK_MAIN (arith);
