/* cudatranspose's arithmetic property: NNStreamer's tensor_transform
 * mode=arithmetic fused with the layout change, checked against the
 * tests' own model of NNStreamer's semantics (arith-reference.h), never
 * against the kernels' own loop; random data into outputs that come
 * poisoned.
 *
 * Built twice: test-arith runs "cudatranspose kernel=cpu"; test-arith-gpu
 * (ARITH_ON_GPU) the default kernel on a CUDA device, floats compared
 * with any NaN for a NaN (the GPU makes its own payload), and the kernel
 * that ran asserted each time. Without a device it exits 77. */
#include "transpose-check.h"
#include "arith-reference.h"

#include <string.h>

#ifdef ARITH_ON_GPU
#include "gpu-check.h"
#define KERNEL "auto"
#define NAN_ANY 1
#else
#define KERNEL "cpu"
#define NAN_ANY 0
#endif
#define ELEMENT "cudatranspose kernel=" KERNEL

/* NNStreamer's names of the kernels' types, in CtType's order. */
static const gchar *const type_names[CT_TYPE_COUNT] = {
  "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
  "float32", "float64",
};

#define type_size(t) (ref_bits_of (t) / 8)

/* An option as the test writes it beside its string (never parsed from
 * it): the typecast (CT_TYPE_COUNT: none), the per-channel dimension
 * (NO_CHANNEL: none) and the operations in the kernels' notation, {kind,
 * channel (-1: every element), is_float, integer operand, float operand}. */
typedef struct
{
  CtType out;
  guint channel_dim;
  guint n_ops;
  CtArithOp ops[4];
} Option;

#define NO_CHANNEL 4

#define ADD CT_ARITH_ADD
#define MUL CT_ARITH_MUL
#define DIV CT_ARITH_DIV

/* @o from @in, as the model takes it. */
static void
arith_of (const Option * o, CtType in, CtArith * a)
{
  memset (a, 0, sizeof (*a));
  a->in_type = in;
  a->out_type = o->out == CT_TYPE_COUNT ? in : o->out;
  a->channel_dim = o->channel_dim;
  a->n_ops = o->n_ops;
  memcpy (a->ops, o->ops, o->n_ops * sizeof (o->ops[0]));
}

static uint64_t
rng64 (void)
{
  return (uint64_t) ct_check_random () << 32 | ct_check_random ();
}

/* @n elements of @t of @got against the model's @want: bit for bit, but
 * for NaN payloads on the GPU. */
static void
assert_same (const guint8 * got, const guint8 * want, CtType t, gsize n,
    const gchar * what)
{
  size_t bad = ref_compare (got, want, t, n, NAN_ANY);

  fail_unless (bad == n, "%s: element %" G_GSIZE_FORMAT " of %"
      G_GSIZE_FORMAT " differs", what, (gsize) bad, n);
}

/* The channels C where the permutation takes [B][P][C] to [B][C][P]
 * (outermost first; P > 1, C from 2 to 4), 1 where it moves nothing, 0
 * otherwise: found by trying every split on the elements themselves. */
static guint
moved_channels (const unsigned long long dims[4], const guint perm[4])
{
  guint64 total = dims[0] * dims[1] * dims[2] * dims[3], i, c, p;

  for (i = 0; i < total && ct_ref_permuted_source (dims, perm, i) == i; i++);
  if (i == total)
    return 1;
  for (c = 2; c <= 4; c++)
    for (p = 2; p * c <= total; p++) {
      if (total % (p * c) != 0)
        continue;
      for (i = 0; i < total; i++) {
        guint64 b = i / (p * c), r = i % (p * c);

        if (ct_ref_permuted_source (dims, perm, i) != (b * p + r % p) * c + r / p)
          break;
      }
      if (i == total)
        return (guint) c;
    }
  return 0;
}

/* The GPU kernel the arithmetic @a over @perm of @dims must take, as
 * kernels/arith.cu documents it: arith-pixels for uint8 to float32 or
 * uint8, and float32 to float32, where the permutation moves nothing or
 * at most 4 innermost channels outwards (HWC to CHW), per-channel
 * operations (if any) counting those channels; arith otherwise. */
static const gchar *
gpu_path (const unsigned long long dims[4], const guint perm[4],
    const CtArith * a)
{
  guint channels = ref_pixels_pair (a->in_type, a->out_type) ?
      moved_channels (dims, perm) : 0, k;
  unsigned long long before = 1, n_ch;

  if (channels == 0)
    return "arith";
  if (!ref_has_channel_ops (a))
    return "arith-pixels";
  /* the pixels kernel takes channel c as the channel: only where the
   * channel dimension is the innermost, those C channels */
  for (k = 0; k < a->channel_dim && k < 4; k++)
    before *= dims[k];
  n_ch = a->channel_dim < 4 ? dims[a->channel_dim] : 1;
  return before == 1 && n_ch == channels ? "arith-pixels" : "arith";
}

/* What the element says ran (active-kernel) after @what: the CPU loop
 * with kernel=cpu; on the GPU @gpu_want, or where that is NULL (no
 * arithmetic) none of the arithmetic's kernels. */
static void
assert_ran (GstElement * e, const gchar * gpu_want, const gchar * what)
{
  gchar *ran = ct_check_active_kernel (e);

#ifdef ARITH_ON_GPU
  if (gpu_want)
    fail_unless (g_str_equal (ran, gpu_want), "%s: %s ran, not %s", what,
        ran, gpu_want);
  else
    fail_if (g_str_has_prefix (ran, "arith"), "%s: %s ran, no arithmetic",
        what, ran);
#else
  (void) gpu_want;
  fail_unless (g_str_equal (ran, "cpu"), "%s: %s ran, not cpu", what, ran);
#endif
  g_free (ran);
}

/* ---------------------------------------------------------------------- */
/* Tensors                                                                  */

/* Pushes a random tensor of sizes @dims and @in_type through
 * ELEMENT with @option (and @perm, or NULL: the
 * transpose), checks the output caps' type and sizes, and every element
 * against the model's. */
static void
check_tensor (const unsigned long long dims[4], CtType in_type,
    const guint * perm, const gchar * option, const Option * o)
{
  static const guint swap[4] = { 1, 0, 2, 3 };
  const guint *p = perm ? perm : swap;
  CtArith *a = g_new (CtArith, 1);
  gsize n = dims[0] * dims[1] * dims[2] * dims[3], isz, osz;
  GstHarness *h = ct_check_harness_new (ELEMENT, NULL);
  gchar *caps, *want_dims, *what;
  unsigned long long od[4];
  GstBuffer *in, *out;
  GstMapInfo im, om;
  guint8 *want;
  GstCaps *got;
  guint k;

  arith_of (o, in_type, a);
  isz = type_size (a->in_type);
  osz = type_size (a->out_type);
  g_object_set (h->element, "arithmetic", option, NULL);
  if (perm) {
    gchar *ps = g_strdup_printf ("%u:%u:%u:%u", p[0], p[1], p[2], p[3]);

    g_object_set (h->element, "permutation", ps, NULL);
    g_free (ps);
  }
  caps = g_strdup_printf ("other/tensors,format=static,num_tensors=1,"
      "dimensions=(string)%llu:%llu:%llu:%llu,types=%s,framerate=0/1",
      dims[0], dims[1], dims[2], dims[3], type_names[in_type]);
  what = g_strdup_printf ("%s, %s (perm %u:%u:%u:%u)", option, caps, p[0],
      p[1], p[2], p[3]);
  gst_harness_set_src_caps_str (h, caps);
  in = gst_buffer_new_allocate (NULL, n * isz, NULL);
  gst_buffer_map (in, &im, GST_MAP_WRITE);
  ref_fill (im.data, in_type, n, rng64);
  gst_buffer_unmap (in, &im);

  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (out != NULL, "%s: no output", what);
  for (k = 0; k < 4; k++)
    od[k] = dims[p[k]];
  got = gst_pad_get_current_caps (h->sinkpad);
  fail_unless_equals_string (gst_structure_get_string
      (gst_caps_get_structure (got, 0), "types"), type_names[a->out_type]);
  want_dims = g_strdup_printf ("%llu:%llu:%llu:%llu", od[0], od[1], od[2],
      od[3]);
  fail_unless_equals_string (gst_structure_get_string
      (gst_caps_get_structure (got, 0), "dimensions"), want_dims);
  gst_caps_unref (got);
  g_free (want_dims);

  fail_unless_equals_int (gst_buffer_get_size (out), n * osz);
  want = g_malloc (n * osz);
  memset (want, 0x5a, n * osz);
  gst_buffer_map (in, &im, GST_MAP_READ);
  gst_buffer_map (out, &om, GST_MAP_READ);
  ref_permute_arith (im.data, want, dims, p, a);
  assert_same (om.data, want, a->out_type, n, what);
  assert_ran (h->element, gpu_path (dims, p, a), what);
  gst_buffer_unmap (out, &om);
  gst_buffer_unmap (in, &im);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  g_free (want);
  g_free (what);
  g_free (caps);
  g_free (a);
  gst_harness_teardown (h);
}

/* Every pair of the ten types, scalar and per-channel, transposed and
 * permuted; and each type without a typecast. */
GST_START_TEST (test_type_pairs)
{
  static const unsigned long long dims[4] = { 3, 5, 4, 2 };
  static const guint perm[4] = { 2, 0, 1, 3 };
  guint in, out, layout;

  for (in = 0; in < CT_TYPE_COUNT; in++) {
    for (out = 0; out <= CT_TYPE_COUNT; out++) {
      const gchar *cast = out < CT_TYPE_COUNT ? type_names[out] : NULL;
      gchar *scalar, *per_channel;
      Option s = { out, NO_CHANNEL, 4, {
              {ADD, -1, 0, 3, 0}, {MUL, -1, 1, 0, 2.5},
              {DIV, -1, 0, -3, 0}, {ADD, -1, 1, 0, -1.5e1}}
      };
      Option pc = { out, 0, 4, {
              {ADD, 0, 0, 5, 0}, {MUL, 1, 0, 3, 0},
              {DIV, 2, 1, 0, 2.0}, {ADD, -1, 0, -7, 0}}
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
  static const unsigned long long dims[4] = { 2, 3, 4, 5 };
  static const guint perm[4] = { 3, 1, 0, 2 };
  guint dim;

  for (dim = 0; dim < 4; dim++) {
    Option o = { CT_TYPE_FLOAT32, dim, 3, {
            {ADD, 1, 1, 0, 0.25}, {MUL, 0, 0, -2, 0}, {DIV, -1, 1, 0, 3.0}}
    };
    gchar *option = g_strdup_printf ("typecast:float32,per-channel:true@%u,"
        "add:0.25@1,mul:-2@0,div:3.0", dim);

    check_tensor (dims, CT_TYPE_INT16, perm, option, &o);
    check_tensor (dims, CT_TYPE_INT16, NULL, option, &o);
    g_free (option);
  }
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* Video                                                                    */

/* No arithmetic: the bytes as they are. */
static const Option copy = { CT_TYPE_COUNT, NO_CHANNEL, 0, {{0}} };

/* Pushes @frames random frames of @format (@channels a pixel) @width x
 * @height, laid out as GStreamer lays them (rows padded to 4 bytes),
 * through ELEMENT with @option (NULL: none) and @perm (NULL: unset, CHW)
 * into other/tensors; each must be its tensor through @o, channels being
 * dimension 0: the frame's rows packed as the tensor C:W:H:1 (planar RGB:
 * the packed frame of its plane order, channel k from plane k), then the
 * permutation, 1:2:0:3 where unset. */
static void
check_video (const gchar * format, guint channels, gint width, gint height,
    guint frames, const gchar * option, const Option * o, const guint * perm)
{
  static const guint chw[4] = { 1, 2, 0, 3 };
  const guint *p = perm ? perm : chw;
  const unsigned long long dims[4] = { channels, width, height, 1 };
  GstHarness *h = ct_check_harness_new (ELEMENT, NULL);
  gsize n = (gsize) channels * width * height, osz, row = channels * width;
  CtArith *a = g_new (CtArith, 1), *staged_a = g_new (CtArith, 1);
  guint8 *packed = g_malloc (n), *want;
  /* what the kernels see: planar frames staged as the CHW tensor */
  guint axis[4] = { 0, 1, 2, 3 }, sp[4], k;
  unsigned long long sd[4];
  gboolean planar;
  GstVideoInfo info;
  gchar *caps, *want_dims;
  GstCaps *got;
  guint f;

  arith_of (o ? o : &copy, CT_TYPE_UINT8, a);
  osz = type_size (a->out_type);
  want = g_malloc (n * osz);
  if (option)
    g_object_set (h->element, "arithmetic", option, NULL);
  if (perm) {
    gchar *ps = g_strdup_printf ("%u:%u:%u:%u", p[0], p[1], p[2], p[3]);

    g_object_set (h->element, "permutation", ps, NULL);
    g_free (ps);
  }
  caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1", format, width, height);
  gst_harness_set_src_caps_str (h, caps);
  gst_harness_set_sink_caps_str (h, "other/tensors,format=static");
  fail_unless (gst_video_info_set_format (&info,
          gst_video_format_from_string (format), width, height));
  planar = GST_VIDEO_INFO_N_PLANES (&info) > 1;
  if (planar) {
    fail_unless_equals_int (GST_VIDEO_INFO_N_PLANES (&info), channels);
    axis[0] = 2;
    axis[1] = 0;
    axis[2] = 1;
  }
  for (k = 0; k < 4; k++) {
    sd[axis[k]] = dims[k];
    sp[k] = axis[p[k]];
  }
  *staged_a = *a;
  if (a->channel_dim < 4)
    staged_a->channel_dim = axis[a->channel_dim];

  for (f = 0; f < frames; f++) {
    GstBuffer *in = gst_buffer_new_allocate (NULL, info.size, NULL), *out;
    gchar *what = g_strdup_printf ("%s %dx%d frame %u, %s, perm %u:%u:%u:%u",
        format, width, height, f, option ? option : "no arithmetic", p[0],
        p[1], p[2], p[3]);
    GstMapInfo im, om;
    gint x, y;

    gst_buffer_map (in, &im, GST_MAP_WRITE);
    ct_check_fill_random (im.data, im.size);
    gst_buffer_unmap (in, &im);
    GST_BUFFER_PTS (in) = f * GST_SECOND / 30;
    out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
    fail_unless (out != NULL, "%s: no output", what);
    fail_unless_equals_int (gst_buffer_get_size (out), n * osz);
    gst_buffer_map (in, &im, GST_MAP_READ);
    for (y = 0; y < height; y++) {
      if (!planar) {
        memcpy (packed + y * row, im.data + y * info.stride[0], row);
        continue;
      }
      for (k = 0; k < channels; k++)
        for (x = 0; x < width; x++)
          packed[y * row + x * channels + k] = im.data[info.offset[k] +
              y * info.stride[k] + x];
    }
    gst_buffer_unmap (in, &im);
    memset (want, 0x5a, n * osz);
    ref_permute_arith (packed, want, dims, p, a);
    gst_buffer_map (out, &om, GST_MAP_READ);
    assert_same (om.data, want, a->out_type, n, what);
    assert_ran (h->element, option ? gpu_path (sd, sp, staged_a) : NULL,
        what);
    gst_buffer_unmap (out, &om);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    g_free (what);
  }

  got = gst_pad_get_current_caps (h->sinkpad);
  want_dims = g_strdup_printf ("%llu:%llu:%llu:%llu", dims[p[0]],
      dims[p[1]], dims[p[2]], dims[p[3]]);
  fail_unless_equals_string (gst_structure_get_string
      (gst_caps_get_structure (got, 0), "dimensions"), want_dims);
  fail_unless_equals_string (gst_structure_get_string
      (gst_caps_get_structure (got, 0), "types"), type_names[a->out_type]);
  gst_caps_unref (got);
  g_free (want_dims);
  g_free (caps);
  g_free (want);
  g_free (packed);
  g_free (staged_a);
  g_free (a);
  gst_harness_teardown (h);
}

/* The case of NNStreamer's users: RGB frames (67 wide: rows padded to 204
 * bytes) to normalized float32 CHW, frame by frame
 * ((x.astype(float32) + float32(-127.5)) / float32(127.5)).transpose(2,0,1);
 * and the per-channel mean and deviation of ImageNet models. */
GST_START_TEST (test_video_normalized)
{
  Option scalar = { CT_TYPE_FLOAT32, NO_CHANNEL, 2, {
          {ADD, -1, 1, 0, -127.5}, {DIV, -1, 1, 0, 127.5}}
  };
  Option imagenet = { CT_TYPE_FLOAT32, 0, 4, {
          {ADD, 0, 1, 0, -123.68}, {ADD, 1, 1, 0, -116.78},
          {ADD, 2, 1, 0, -103.94}, {DIV, -1, 1, 0, 58.4}}
  };
  const gchar *formats[] = { "RGB", "BGR", "RGBA", "BGRx" };
  guint i;

  check_video ("RGB", 3, 67, 35, 4, "typecast:float32,add:-127.5,div:127.5",
      &scalar, NULL);
  check_video ("RGB", 3, 67, 35, 2, "typecast:float32,per-channel:true@0,"
      "add:-123.68@0,add:-116.78@1,add:-103.94@2,div:58.4", &imagenet, NULL);
  for (i = 0; i < G_N_ELEMENTS (formats); i++)
    check_video (formats[i], formats[i][3] ? 4 : 3, 33, 9, 1,
        "TYPECAST:FLOAT32,ADD:-127.5,DIV:127.5", &scalar, NULL);
}

GST_END_TEST;

/* Planar RGB (RGBP, BGRP, GBR) at odd sizes, rows padded as GStreamer
 * pads them: per-channel operations count the channels in plane order;
 * CHW (unset: the planes as they are), HWC (0:1:2:3: interleaved), and
 * without arithmetic. */
GST_START_TEST (test_video_planar)
{
  static const guint hwc[4] = { 0, 1, 2, 3 };
  Option imagenet = { CT_TYPE_FLOAT32, 0, 4, {
          {ADD, 0, 1, 0, -123.68}, {ADD, 1, 1, 0, -116.78},
          {ADD, 2, 1, 0, -103.94}, {DIV, -1, 1, 0, 58.4}}
  };
  const gchar *option = "typecast:float32,per-channel:true@0,"
      "add:-123.68@0,add:-116.78@1,add:-103.94@2,div:58.4";
  const gchar *formats[] = { "RGBP", "BGRP", "GBR" };
  const gint sizes[][2] = { {67, 35}, {1, 9}, {9, 1} };
  guint i, j;

  for (i = 0; i < G_N_ELEMENTS (formats); i++)
    for (j = 0; j < G_N_ELEMENTS (sizes); j++) {
      gint w = sizes[j][0], hh = sizes[j][1];

      check_video (formats[i], 3, w, hh, 2, option, &imagenet, NULL);
      check_video (formats[i], 3, w, hh, 1, option, &imagenet, hwc);
      check_video (formats[i], 3, w, hh, 1, NULL, NULL, NULL);
      check_video (formats[i], 3, w, hh, 1, NULL, NULL, hwc);
    }
}

GST_END_TEST;

/* The same through videotestsrc, as gst-launch-1.0 runs it. */
GST_START_TEST (test_video_pipeline)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=3 "
      "pattern=snow ! video/x-raw,format=RGB,width=67,height=35 ! tee "
      "name=t ! queue ! appsink name=frames sync=false t. ! queue ! "
      ELEMENT " name=ct arithmetic=typecast:float32,add:-127.5,div:127.5 ! "
      "other/tensors,format=static ! appsink name=tensors sync=false", NULL);
  GstElement *frames = gst_bin_get_by_name (GST_BIN (pipeline), "frames");
  GstElement *tensors = gst_bin_get_by_name (GST_BIN (pipeline), "tensors");
  GstElement *ct = gst_bin_get_by_name (GST_BIN (pipeline), "ct");
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
  /* RGB to CHW, uint8 to float32: the pixels kernel's own case */
  assert_ran (ct, "arith-pixels", "videotestsrc RGB 67x35");
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (ct);
  gst_object_unref (frames);
  gst_object_unref (tensors);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* GRAY8 goes out as a tensor too (tensor_converter's 1:W:H:1, here CHW:
 * W:H:1:1), rows padded (13 wide: 16-byte rows), with arithmetic or not. */
GST_START_TEST (test_gray8)
{
  Option o = { CT_TYPE_INT16, NO_CHANNEL, 2, {
          {MUL, -1, 0, 3, 0}, {ADD, -1, 0, -300, 0}}
  };

  check_video ("GRAY8", 1, 13, 7, 2, NULL, NULL, NULL);
  check_video ("GRAY8", 1, 13, 7, 2, "typecast:int16,mul:3,add:-300", &o,
      NULL);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* Flexible tensors                                                         */

/* A flexible tensor's header says the output type; a change of it while
 * streaming needs no renegotiation (the caps say no type). */
GST_START_TEST (test_flexible)
{
  static const unsigned long long dims4[4] = { 3, 4, 2, 1 };
  static const guint swap[4] = { 1, 0, 2, 3 };
  GstHarness *h = ct_check_harness_new (ELEMENT, NULL);
  const guint dims[3] = { 3, 4, 2 }, out_dims[3] = { 4, 3, 2 };
  guint8 header[CT_CHECK_NNS_HEADER], want_header[CT_CHECK_NNS_HEADER];
  guint u8 = 0, nns_out[2] = { 0, 0 }, i, step;
  CtArith *a = g_new (CtArith, 1);
  const struct
  {
    const gchar *option;
    const gchar *type;
    Option o;
  } steps[] = {
    {"typecast:float32,add:1", "float32",
        {CT_TYPE_FLOAT32, NO_CHANNEL, 1, {{ADD, -1, 0, 1, 0}}}},
    {"typecast:int16,mul:-2", "int16",
        {CT_TYPE_INT16, NO_CHANNEL, 1, {{MUL, -1, 0, -2, 0}}}},
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
    guint8 want[24 * 8];
    GstBuffer *in, *out;
    GstMapInfo im, om;
    gsize osz;

    arith_of (&steps[step].o, CT_TYPE_UINT8, a);
    osz = type_size (a->out_type);
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
    memset (want, 0x5a, sizeof (want));
    ref_permute_arith (im.data + sizeof (header), want, dims4, swap, a);
    assert_same (om.data + sizeof (header), want, a->out_type, 24,
        steps[step].option);
    assert_ran (h->element, gpu_path (dims4, swap, a), steps[step].option);
    gst_buffer_unmap (out, &om);
    gst_buffer_unmap (in, &im);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  g_free (a);
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
    gst_util_set_object_arg (G_OBJECT (e), "kernel", KERNEL);
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
    {"add:1", "video/x-raw,format=AYUV,width=4,height=2,framerate=0/1",
        "put other/tensors after cudatranspose, or clear arithmetic"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (refused); i++) {
    GstBus *bus;
    GstHarness *h = ct_check_harness_new (ELEMENT, &bus);
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
  static const unsigned long long dims[4] = { 5, 3, 1, 1 };
  static const guint swap[4] = { 1, 0, 2, 3 };
  GstHarness *h = ct_check_harness_new (ELEMENT, NULL);
  CtArith *a = g_new (CtArith, 1);
  const struct
  {
    const gchar *option;
    Option o;
  } steps[] = {
    {"add:1", {CT_TYPE_COUNT, NO_CHANNEL, 1, {{ADD, -1, 0, 1, 0}}}},
    {"mul:3", {CT_TYPE_COUNT, NO_CHANNEL, 1, {{MUL, -1, 0, 3, 0}}}},
    {"typecast:float64,div:4",
        {CT_TYPE_FLOAT64, NO_CHANNEL, 1, {{DIV, -1, 0, 4, 0}}}},
    {"", {CT_TYPE_COUNT, NO_CHANNEL, 0, {{0}}}},
  };
  guint i;

  gst_harness_set_src_caps_str (h, "other/tensors,format=static,"
      "num_tensors=1,dimensions=(string)5:3,types=uint8,framerate=0/1");
  for (i = 0; i < G_N_ELEMENTS (steps); i++) {
    GstBuffer *in = gst_buffer_new_allocate (NULL, 15, NULL), *out;
    gchar *what = g_strdup_printf ("after arithmetic=\"%s\"",
        steps[i].option);
    guint8 want[15 * 8];
    GstMapInfo im, om;
    gsize osz;

    arith_of (&steps[i].o, CT_TYPE_UINT8, a);
    osz = type_size (a->out_type);
    g_object_set (h->element, "arithmetic", steps[i].option, NULL);
    gst_buffer_map (in, &im, GST_MAP_WRITE);
    ct_check_fill_random (im.data, 15);
    gst_buffer_unmap (in, &im);
    out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
    fail_unless (out != NULL, "%s: no output", what);
    fail_unless_equals_int (gst_buffer_get_size (out), 15 * osz);
    gst_buffer_map (in, &im, GST_MAP_READ);
    gst_buffer_map (out, &om, GST_MAP_READ);
    memset (want, 0x5a, sizeof (want));
    ref_permute_arith (im.data, want, dims, swap, a);
    assert_same (om.data, want, a->out_type, 15, what);
    assert_ran (h->element, steps[i].option[0] ? gpu_path (dims, swap, a) :
        NULL, what);
    gst_buffer_unmap (out, &om);
    gst_buffer_unmap (in, &im);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    g_free (what);
  }
  g_free (a);
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
  tcase_add_test (tc, test_video_planar);
  tcase_add_test (tc, test_video_pipeline);
  tcase_add_test (tc, test_gray8);
  tcase_add_test (tc, test_flexible);
  tcase_add_test (tc, test_bad_options);
  tcase_add_test (tc, test_refused_at_negotiation);
  tcase_add_test (tc, test_change_while_streaming);
  return s;
}

#ifdef ARITH_ON_GPU
CT_CHECK_GPU_MAIN (arith, "arith-gpu");
#else
GST_CHECK_MAIN (arith);
#endif
