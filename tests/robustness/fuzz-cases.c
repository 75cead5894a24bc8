/* The fuzz test's cases of hostile caps and buffers (see fuzz.c): video
 * of the formats the element takes and of refused ones, with sizes at the
 * edges, buffers short or long and GstVideoMeta that lies; tensors whose
 * sizes, types and counts overflow or disagree with the memories; RGB
 * video (packed and planar) and YUV video going out as a tensor. Beside them, the tensor
 * reference the other tensor cases are checked against
 * (fuzz_tensor_bytes, check_tensor, rearranged). */
#include "fuzz.h"
#include "arith-reference.h"
#include "permute-reference.h"

/* ---- video ---- */

/* Beside the formats the element takes (ct_check_formats): refused ones
 * (8-bit planar and semi-planar 4:2:2 and 4:4:4, which go out only as
 * tensors; NV61, v210's packed words). */
static const GstVideoFormat refused_formats[] = {
  GST_VIDEO_FORMAT_Y42B, GST_VIDEO_FORMAT_NV16, GST_VIDEO_FORMAT_NV24,
  GST_VIDEO_FORMAT_v210, GST_VIDEO_FORMAT_NV61,
};

/* RGB that goes out as a tensor: packed, and planar (channel k: plane k) */
static const GstVideoFormat rgb_formats[] = {
  GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_BGR, GST_VIDEO_FORMAT_RGBA,
  GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBx, GST_VIDEO_FORMAT_BGRx,
  GST_VIDEO_FORMAT_RGBP, GST_VIDEO_FORMAT_BGRP, GST_VIDEO_FORMAT_GBR,
};

/* YUV that goes out as a tensor, converted as videoconvert converts it */
static const GstVideoFormat yuv_formats[] = {
  GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_YV12, GST_VIDEO_FORMAT_NV12,
  GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_P016_LE,
  GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_I422_10LE, GST_VIDEO_FORMAT_Y444_10LE,
  GST_VIDEO_FORMAT_Y42B, GST_VIDEO_FORMAT_NV16, GST_VIDEO_FORMAT_NV24,
};

/* (operands: kind, channel (-1: all), written as a float, the integer,
 * the float) */
const FuzzArith fuzz_ariths[] = {
  {"typecast:float32,add:-127.5,div:127.5", {CT_TYPE_UINT8, CT_TYPE_FLOAT32,
          0, 2, {{CT_ARITH_ADD, -1, 1, 0, -127.5}, {CT_ARITH_DIV, -1, 1, 0,
                  127.5}}}},
  {"typecast:float64,div:255", {CT_TYPE_UINT8, CT_TYPE_FLOAT64, 0, 1,
          {{CT_ARITH_DIV, -1, 0, 255, 0}}}},
  {"typecast:int16,add:-128", {CT_TYPE_UINT8, CT_TYPE_INT16, 0, 1,
          {{CT_ARITH_ADD, -1, 0, -128, 0}}}},
  {"typecast:int8,mul:3", {CT_TYPE_UINT8, CT_TYPE_INT8, 0, 1,
          {{CT_ARITH_MUL, -1, 0, 3, 0}}}},
  {"typecast:uint16,mul:257,add:1", {CT_TYPE_UINT8, CT_TYPE_UINT16, 0, 2,
          {{CT_ARITH_MUL, -1, 0, 257, 0}, {CT_ARITH_ADD, -1, 0, 1, 0}}}},
};

const guint fuzz_n_ariths = G_N_ELEMENTS (fuzz_ariths);

/* One of the formats the element takes, or of the refused ones. */
static GstVideoFormat
fuzz_format (void)
{
  guint i = fuzz_range (0, ct_check_n_formats +
      G_N_ELEMENTS (refused_formats) - 1);

  return i < ct_check_n_formats ? ct_check_formats[i] :
      refused_formats[i - ct_check_n_formats];
}

static gboolean
format_taken (GstVideoFormat format)
{
  guint i;

  for (i = 0; i < ct_check_n_formats; i++)
    if (ct_check_formats[i] == format)
      return TRUE;
  return FALSE;
}

/* Caps without the fields fuzz_video_caps adds only now and then. */
static gboolean
plain_caps (GstCaps * caps)
{
  const GstStructure *st = gst_caps_get_structure (caps, 0);

  return !gst_structure_has_field (st, "pixel-aspect-ratio") &&
      !gst_structure_has_field (st, "interlace-mode");
}

/* A width or height: mostly small, sometimes an edge or hostile. */
static gint
fuzz_side (void)
{
  static const gint edges[] = { 1, 2, 3, 7, 16, 17, 31, 33, 63, 64, 65 };
  static const gint hostile[] = { 0, -1, 40000, 65535, 65536, 1 << 20,
    1 << 30, G_MAXINT
  };
  guint r = fuzz_range (0, 99);

  if (r < 60)
    return fuzz_range (1, 80);
  if (r < 78)
    return edges[fuzz_range (0, G_N_ELEMENTS (edges) - 1)];
  if (r < 90)
    return fuzz_range (81, 700);
  return hostile[fuzz_range (0, G_N_ELEMENTS (hostile) - 1)];
}

static GstCaps *
fuzz_video_caps (GstVideoFormat format, gint w, gint h)
{
  GstCaps *caps = gst_caps_new_simple ("video/x-raw", "format",
      G_TYPE_STRING, gst_video_format_to_string (format), "width", G_TYPE_INT,
      w, "height", G_TYPE_INT, h, "framerate", GST_TYPE_FRACTION,
      fuzz_range (0, 60), 1, NULL);

  if (fuzz_chance (10))
    gst_caps_set_simple (caps, "pixel-aspect-ratio", GST_TYPE_FRACTION,
        fuzz_chance (30) ? 0 : (gint) fuzz_range (1, 1000),
        (gint) fuzz_range (1, 1000), NULL);
  if (fuzz_chance (5))
    gst_caps_set_simple (caps, "interlace-mode", G_TYPE_STRING,
        fuzz_chance (50) ? "interleaved" : "mixed", NULL);
  return caps;
}

/* A GstVideoMeta for @info on @buf: often truthful with padded strides,
 * sometimes lying about a stride, an offset, the planes or the frame. */
static void
fuzz_video_meta (GstBuffer * buf, const GstVideoInfo * info, gsize size,
    guint pad)
{
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0 };
  gint stride[GST_VIDEO_MAX_PLANES] = { 0 };
  GstVideoMeta *meta;
  guint p, n = GST_VIDEO_INFO_N_PLANES (info), lie;

  for (p = 0; p < n; p++) {
    stride[p] = GST_VIDEO_INFO_PLANE_STRIDE (info, p) + pad;
    offset[p] = GST_VIDEO_INFO_PLANE_OFFSET (info, p) * (pad ? 2 : 1);
  }
  meta = gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), n, offset, stride);
  if (fuzz_chance (50))
    return;
  p = fuzz_range (0, n - 1);
  lie = fuzz_range (0, 8);
  switch (lie) {
    case 0:
      meta->stride[p] = stride[p] - fuzz_range (1, 8);
      break;
    case 1:
      meta->stride[p] = -(gint) fuzz_range (1, 100);
      break;
    case 2:
      meta->stride[p] = G_MAXINT - (gint) fuzz_range (0, 3);
      break;
    case 3:
      meta->offset[p] = size + fuzz_range (0, 64);
      break;
    case 4:
      meta->offset[p] = G_MAXSIZE - fuzz_range (0, 4096);
      break;
    case 5:
      meta->n_planes = fuzz_range (0, GST_VIDEO_MAX_PLANES);
      break;
    case 6:
      meta->width += fuzz_range (1, 5);
      break;
    case 7:
      meta->height = fuzz_range (0, 1) ? 0 : meta->height * 2;
      break;
    default:
      meta->format = fuzz_chance (50) ? GST_VIDEO_FORMAT_GRAY8 :
          (GstVideoFormat) fuzz_range (200, 1000);
      break;
  }
}

/* A buffer for a frame of @info (NULL: caps that make no frame): the right
 * size, or short, empty, long; now and then with a GstVideoMeta. */
static GstBuffer *
fuzz_video_buffer (const GstVideoInfo * info)
{
  gsize want = info ? GST_VIDEO_INFO_SIZE (info) : 64, size;
  guint r = fuzz_range (0, 99), pad = 0;
  GstBuffer *buf;
  GstMapInfo map;

  if (want > MAX_PUSH_BYTES)
    r = 90 + r % 10;
  if (info && r < 25 && fuzz_chance (60))
    pad = fuzz_range (1, 40);
  if (r < 60)
    size = pad ? want * 2 + pad * GST_VIDEO_INFO_HEIGHT (info) * 2 : want;
  else if (r < 70)
    size = want + fuzz_range (1, 100);
  else if (r < 76)
    size = want ? want - 1 : 0;
  else if (r < 84)
    size = want / fuzz_range (2, 5);
  else if (r < 90)
    size = fuzz_range (0, 1);
  else
    size = fuzz_range (0, 256);
  /* (rows padded on a frame of no bytes, 0 wide and 2^31 high, would ask
   * for gigabytes) */
  if (size > MAX_PUSH_BYTES) {
    size = fuzz_range (0, 256);
    pad = 0;
  }

  buf = gst_buffer_new_allocate (NULL, size, NULL);
  fail_unless (buf != NULL);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  fuzz_fill (map.data, map.size);
  gst_buffer_unmap (buf, &map);
  if (info && (pad || fuzz_chance (8)))
    fuzz_video_meta (buf, info, size, pad);
  return buf;
}

void
fuzz_video (Setup * s, guint index, const gchar * churn)
{
  GstVideoFormat format = fuzz_format ();
  gint w = fuzz_side (), h = fuzz_side ();
  GstCaps *caps = fuzz_video_caps (format, w, h);
  GstVideoInfo info, out_info;
  gboolean have_info = gst_video_info_from_caps (&info, caps);
  GstBuffer *in = fuzz_video_buffer (have_info ? &info : NULL), *out;
  gchar *what = g_strdup_printf ("seed %u, case %u: video %s %dx%d, %"
      G_GSIZE_FORMAT " bytes%s%s", fuzz_seed, index,
      gst_video_format_to_string (format), w, h,
      gst_buffer_get_size (in), gst_buffer_get_video_meta (in) ?
      " with meta" : "", churn ? churn : "");
  /* a plain frame of a format it lists, whole: it must take it */
  /* (the transpose must make a frame too: its rows are other rows) */
  gboolean expect_ok = have_info && w > 0 && h > 0 &&
      gst_video_info_set_format (&out_info, format, h, w) &&
      format_taken (format) && plain_caps (caps) &&
      !gst_buffer_get_video_meta (in) &&
      gst_buffer_get_size (in) >= GST_VIDEO_INFO_SIZE (&info);

  out = push_case (s, caps, gst_buffer_ref (in), expect_ok, what);
  if (out) {
    fail_unless (have_info, "%s: transformed caps that make no frame", what);
    ct_check_assert_transposed (&info, in, out, what);
    poison_and_release (out);
  }
  gst_buffer_unref (in);
  g_free (what);
}

/* A side of a YUV frame (@yuv) no longer than videoconvert, its
 * reference, takes (32767); any other's as drawn. */
static gint
yuv_side (gboolean yuv, gint side)
{
  return yuv && side > 32767 ? 32767 : side;
}

/* RGB video going out as a tensor: the frame is the HWC tensor C:W:H:1
 * (planar: of its plane order), and output dimension i is its dimension
 * perm[i]. YUV video (a case in three; in two of those with its matrix,
 * range and chroma siting stated): its RGB frame as videoconvert makes it
 * is, turned where video-direction is set (s->turned): each pixel where
 * check-video.c's reference puts it, in the turned frame's HWC tensor; RGB
 * video with a direction other than identity set must be refused. With an
 * arithmetic (s->arith), each value goes through the tests' model of it,
 * from the 8-bit value, or for P010 and P016 into a float type from
 * videoconvert's 16-bit value divided by 257 in that type. */
void
fuzz_video_to_tensor (Setup * s, guint index, const gchar * churn)
{
  gboolean yuv = fuzz_chance (33);
  GstVideoFormat format = yuv ? yuv_formats[fuzz_range (0,
          G_N_ELEMENTS (yuv_formats) - 1)] : rgb_formats[fuzz_range (0,
          G_N_ELEMENTS (rgb_formats) - 1)];
  gint w = yuv_side (yuv, fuzz_chance (90) ? (gint) fuzz_range (1, 90) :
      fuzz_side ());
  gint h = yuv_side (yuv, fuzz_chance (90) ? (gint) fuzz_range (1, 90) :
      fuzz_side ());
  gboolean stated = yuv && w > 0 && h > 0 && w <= 4096 && h <= 4096 &&
      fuzz_chance (50);
  GstVideoInfo info;
  GstCaps *caps = stated ? ct_check_yuv_caps (format, w, h,
      ct_check_yuv_matrices[fuzz_range (0, ct_check_n_yuv_matrices - 1)],
      fuzz_chance (50), ct_check_chroma_sites[fuzz_range (0,
              ct_check_n_chroma_sites - 1)], &info) :
      fuzz_video_caps (format, w, h);
  gboolean have_info = gst_video_info_from_caps (&info, caps);
  GstBuffer *in = fuzz_video_buffer (have_info ? &info : NULL), *out;
  const GstStructure *st = gst_caps_get_structure (caps, 0);
  const gchar *colorimetry = gst_structure_get_string (st, "colorimetry");
  const gchar *site = gst_structure_get_string (st, "chroma-site");
  gchar *what = g_strdup_printf ("seed %u, case %u: %s %dx%d (colorimetry "
      "%s, chroma-site %s) to a tensor by %u:%u:%u:%u, arithmetic %s, "
      "video-direction %s, %" G_GSIZE_FORMAT " bytes%s", fuzz_seed, index,
      gst_video_format_to_string (format), w, h,
      colorimetry ? colorimetry : "unset", site ? site : "unset",
      s->perm[0], s->perm[1], s->perm[2], s->perm[3],
      s->arith ? s->arith->prop : "unset", s->turned ?
      direction_nick (s->direction) : "unset", gst_buffer_get_size (in),
      churn ? churn : "");
  GstVideoOrientationMethod turn = s->turned ? s->direction :
      GST_VIDEO_ORIENTATION_IDENTITY;
  gboolean refused_turn = !yuv && turn != GST_VIDEO_ORIENTATION_IDENTITY;
  gboolean expect_ok = have_info && w > 0 && h > 0 && plain_caps (caps) &&
      !gst_buffer_get_video_meta (in) &&
      gst_buffer_get_size (in) >= GST_VIDEO_INFO_SIZE (&info) &&
      !refused_turn;
  const CtType type = s->arith ? s->arith->program.out_type : CT_TYPE_UINT8;
  const gsize es = ref_bits_of (type) / 8;
  /* 16-bit input into a float type: from videoconvert's 16-bit values */
  const gboolean deep = yuv && ref_is_float (type) &&
      GST_VIDEO_FORMAT_INFO_DEPTH (gst_video_format_get_info (format), 0) > 8;

  /* (push_case takes the caps; the reference needs them after) */
  GstCaps *yuv_caps = yuv ? gst_caps_ref (caps) : NULL;

  out = push_case (s, caps, gst_buffer_ref (in), expect_ok, what);
  tally.turned_rgb_refused += refused_turn && !out;
  tally.turned_yuv += yuv && turn != GST_VIDEO_ORIENTATION_IDENTITY && out;
  tally.stated_yuv += stated && out;
  tally.typed += s->arith && out;
  if (out) {
    guint64 hwc[4], odims[4], step[4];
    GstVideoFrame f, f16;
    GstMapInfo om;
    guint c, x, y, ch, ox, oy;
    gboolean swap = ct_check_direction_swaps (turn);
    CtArith from16;
    /* a value into the model, as wide as any type */
    union
    {
      guint8 u8;
      gfloat f32;
      gdouble f64;
      guint64 all;
    } value;

    fail_unless (have_info, "%s: transformed caps that make no frame", what);
    fail_if (refused_turn, "%s: RGB video came out turned", what);
    c = yuv ? 3 : ct_check_rgb_channels (&info);
    hwc[0] = c;
    hwc[1] = swap ? h : w;
    hwc[2] = swap ? w : h;
    hwc[3] = 1;
    ct_ref_permuted_layout (hwc, s->perm, odims, step);
    if (yuv)
      ct_check_videoconvert (yuv_caps, in, GST_VIDEO_FORMAT_RGB, w, h, &f,
          what);
    else
      fail_unless (gst_video_frame_map (&f, &info, in, GST_MAP_READ), "%s",
          what);
    memset (&from16, 0, sizeof (from16));
    if (deep) {
      ct_check_videoconvert (yuv_caps, in, GST_VIDEO_FORMAT_ARGB64_LE, w, h,
          &f16, what);
      /* (the same operations on the quotient, already of the type) */
      from16 = s->arith->program;
      from16.in_type = type;
    }
    fail_unless (gst_buffer_map (out, &om, GST_MAP_READ));
    fail_unless (om.size >= (gsize) w * h * c * es, "%s: output too small",
        what);
    for (y = 0; y < (guint) h; y++)
      for (x = 0; x < (guint) w; x++) {
        ct_check_oriented_point (turn, w, h, x, y, &ox, &oy);
        for (ch = 0; ch < c; ch++) {
          guint8 v = yuv ? ((const guint8 *)
              GST_VIDEO_FRAME_PLANE_DATA (&f, 0))[(gsize) y *
              GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0) + 3 * x + ch] :
              ct_check_rgb_byte (&f, ch, x, y);
          const guint8 *got = om.data + es * (ch * step[0] + ox * step[1] +
              oy * step[2]);
          guint8 want[8];

          if (deep) {
            /* (ARGB64_LE: A, R, G, B, 16-bit little-endian each) */
            guint v16 = GST_READ_UINT16_LE ((const guint8 *)
                GST_VIDEO_FRAME_PLANE_DATA (&f16, 0) + (gsize) y *
                GST_VIDEO_FRAME_PLANE_STRIDE (&f16, 0) + 8 * x + 2 + 2 * ch);

            value.all = 0;
            if (type == CT_TYPE_FLOAT32)
              value.f32 = (gfloat) v16 / (gfloat) 257;
            else
              value.f64 = (gdouble) v16 / 257.0;
            ref_arith (&from16, &value, ch, want);
          } else if (s->arith) {
            value.all = 0;
            value.u8 = v;
            ref_arith (&s->arith->program, &value, ch, want);
          } else {
            want[0] = v;
          }
          if (memcmp (got, want, es) != 0)
            fail ("%s: channel %u of (%u, %u) differs", what, ch, x, y);
        }
      }
    gst_buffer_unmap (out, &om);
    gst_video_frame_unmap (&f);
    if (deep)
      gst_video_frame_unmap (&f16);
    poison_and_release (out);
  }
  gst_clear_caps (&yuv_caps);
  gst_buffer_unref (in);
  g_free (what);
}

/* ---- tensors ---- */

/* (fuzz.h says which are which) */
const FuzzType fuzz_types[] = {
  {"int8", 1}, {"uint8", 1}, {"int16", 2}, {"uint16", 2}, {"float16", 2},
  {"int32", 4}, {"uint32", 4}, {"float32", 4}, {"int64", 8}, {"uint64", 8},
  {"float64", 8}, {"UINT8", 1}, {"Float32", 4},
  /* not types */
  {"complex64", 0}, {"", 0}, {"int128", 0}, {"uint8x", 0},
};

/* Appends one size of @t to @s. */
static void
fuzz_dim (GString * s, FuzzTensor * t)
{
  static const gchar *hostile[] = { "0", "65536", "4294967295", "4294967296",
    "2147483648", "18446744073709551615", "18446744073709551616", "abc", "",
    "-3", "1e3", "7 ", " 7", "0x10",
  };
  static const guint64 values[] = { 0, 65536, 4294967295u, 4294967296u,
    2147483648u, 0, 0, 0, 0, 0, 0, 7, 7, 0
  };
  static const gboolean valid[] = { FALSE, TRUE, TRUE, FALSE, TRUE, FALSE,
    FALSE, FALSE, FALSE, FALSE, FALSE, TRUE, TRUE, FALSE
  };
  guint r = fuzz_range (0, 99), k;

  if (r < 75) {
    t->dims[t->rank] = fuzz_range (1, 12);
  } else if (r < 88) {
    t->dims[t->rank] = fuzz_range (13, 300);
  } else {
    k = fuzz_range (0, G_N_ELEMENTS (hostile) - 1);
    g_string_append (s, hostile[k]);
    t->dims[t->rank] = values[k];
    t->malformed |= !valid[k];
    t->rank++;
    return;
  }
  g_string_append_printf (s, "%" G_GUINT64_FORMAT, t->dims[t->rank]);
  t->rank++;
}

/* Bytes of @t, G_MAXUINT64 past 64 bits (or past what a buffer holds). */
guint64
fuzz_tensor_bytes (const FuzzTensor * t)
{
  guint64 b = t->elem_size;
  guint i;

  for (i = 0; i < t->rank; i++) {
    if (t->dims[i] != 0 && b > G_MAXUINT64 / t->dims[i])
      return G_MAXUINT64;
    b *= t->dims[i];
  }
  return b > (guint64) G_MAXSSIZE ? G_MAXUINT64 : b;
}

static GstCaps *
fuzz_tensor_caps (FuzzTensors * ts, gboolean permute)
{
  GString *dims = g_string_new (NULL), *tys = g_string_new (NULL);
  gboolean single = fuzz_chance (10);
  guint i, d, r = fuzz_range (0, 99), max_rank;
  gint num;
  GstCaps *caps;

  ts->n = single ? 1 : r < 75 ? fuzz_range (1, 4) : r < 90 ?
      fuzz_range (5, 16) : fuzz_range (17, MAX_TENSORS);
  ts->valid = ts->n <= 16;
  ts->total = 0;
  for (i = 0; i < ts->n; i++) {
    FuzzTensor *t = &ts->t[i];
    guint rank, k;

    r = fuzz_range (0, 99);
    rank = r < 80 ? fuzz_range (1, 4) : r < 96 ? fuzz_range (5, 16) : MAX_RANK;
    memset (t, 0, sizeof (*t));
    if (i > 0)
      g_string_append_c (dims, ',');
    for (d = 0; d < rank; d++) {
      if (d > 0)
        g_string_append_c (dims, ':');
      fuzz_dim (dims, t);
    }
    k = fuzz_chance (92) ? fuzz_range (0, 12) : fuzz_range (0,
        G_N_ELEMENTS (fuzz_types) - 1);
    g_string_append_printf (tys, "%s%s", i ? "," : "", fuzz_types[k].name);
    t->elem_size = fuzz_types[k].size;
    t->bytes = fuzz_tensor_bytes (t);
    max_rank = permute ? 4 : 16;
    ts->valid &= !t->malformed && t->elem_size && t->bytes != G_MAXUINT64 &&
        t->bytes > 0 && t->rank <= 16;
    /* a permutation takes rank 4 or less (or 1s past the fourth) */
    for (d = max_rank; d < t->rank; d++)
      ts->valid &= t->dims[d] == 1;
    if (ts->valid && ts->total + t->bytes <= (guint64) G_MAXSSIZE)
      ts->total += t->bytes;
    else
      ts->valid = FALSE;
  }
  /* now and then a count or a type list that disagrees */
  num = ts->n;
  if (!single && fuzz_chance (6)) {
    num = fuzz_chance (50) ? (gint) ts->n + 1 : (gint) fuzz_range (0, 3) - 1;
    ts->valid &= num == (gint) ts->n;
  }
  if (fuzz_chance (4)) {
    g_string_append (tys, ",uint8");
    ts->valid = FALSE;
  }
  if (single) {
    caps = gst_caps_new_simple ("other/tensor", "dimension", G_TYPE_STRING,
        dims->str, "type", G_TYPE_STRING, tys->str, "framerate",
        GST_TYPE_FRACTION, 30, 1, NULL);
  } else {
    r = fuzz_range (0, 99);
    caps = gst_caps_new_simple ("other/tensors", "format", G_TYPE_STRING,
        r < 92 ? "static" : r < 96 ? "flexible" : "sparse", "num_tensors",
        G_TYPE_INT, num, "dimensions", G_TYPE_STRING, dims->str, "types",
        G_TYPE_STRING, tys->str, "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
    ts->valid &= r < 92;
  }
  g_string_free (dims, TRUE);
  g_string_free (tys, TRUE);
  return caps;
}

/* Output tensor @t's bytes from input @in: its two innermost dimensions
 * swapped for each index of the outer ones, or with @perm (rank 4 or
 * less) output dimension i its dimension perm[i]; compared with @out. */
void
check_tensor (const FuzzTensor * t, const guint * perm, const guint8 * in,
    const guint8 * out, const gchar * what, guint index)
{
  static const guint transpose[4] = { 1, 0, 2, 3 };
  const guint es = t->elem_size;
  guint64 d[4] = { 1, 1, 1, 1 }, x[4], odims[4], pos_stride[4];
  guint i;

  if (perm) {
    for (i = 0; i < MIN (t->rank, 4); i++)
      d[i] = t->dims[i];
  } else {
    /* the outer dimensions as one */
    d[0] = t->dims[0];
    d[1] = t->rank > 1 ? t->dims[1] : 1;
    for (i = 2; i < t->rank; i++)
      d[2] *= t->dims[i];
  }
  /* input dimension k moves with output stride pos_stride[k] */
  ct_ref_permuted_layout (d, perm ? perm : transpose, odims, pos_stride);
  for (x[3] = 0; x[3] < d[3]; x[3]++)
    for (x[2] = 0; x[2] < d[2]; x[2]++)
      for (x[1] = 0; x[1] < d[1]; x[1]++)
        for (x[0] = 0; x[0] < d[0]; x[0]++) {
          guint64 from = ((x[3] * d[2] + x[2]) * d[1] + x[1]) * d[0] + x[0];
          guint64 to = 0;

          for (i = 0; i < 4; i++)
            to += x[i] * pos_stride[i];
          /* (fail_unless in a loop costs check a message each time) */
          if (memcmp (in + from * es, out + to * es, es) != 0)
            fail ("%s: tensor %u element %" G_GUINT64_FORMAT " misplaced",
                what, index, from);
        }
}

/* The sizes of @t once rearranged, in @out: with @perm (rank 4 or less)
 * output dimension i is dimension perm[i], else the two innermost swap.
 * Returns the output's rank: the input's, grown only where a size other
 * than 1 moves past it (a rank-1 tensor of n is 1 x n once transposed),
 * as docs/tensors.md says. */
guint
rearranged (const FuzzTensor * t, const guint * perm, guint64 * out)
{
  guint64 d[4];
  guint i, rank = t->rank;

  if (!perm) {
    for (i = 0; i < rank; i++)
      out[i] = t->dims[i];
    if (rank < 2)
      rank = 2;
    out[0] = t->rank > 1 ? t->dims[1] : 1;
    out[1] = t->dims[0];
    return rank;
  }
  for (i = 0; i < 4; i++)
    d[i] = i < t->rank ? t->dims[i] : 1;
  for (i = 0; i < 4; i++)
    out[i] = d[perm[i]];
  /* (1s, or the permutation does not take it) */
  for (i = 4; i < rank; i++)
    out[i] = t->dims[i];
  for (i = 4; i > rank; i--)
    if (out[i - 1] != 1)
      return i;
  return rank;
}

void
fuzz_tensors (Setup * s, guint index, const gchar * churn)
{
  FuzzTensors ts;
  GstCaps *caps = fuzz_tensor_caps (&ts, s->permute);
  GstBuffer *in = gst_buffer_new (), *out;
  guint i, layout = fuzz_range (0, 99), n_mem;
  gboolean misfit = FALSE;
  gchar *what;
  gboolean expect_ok;

  /* one memory for all (or a short one), one per tensor, or a count that
   * disagrees */
  if (!ts.valid || ts.total > MAX_PUSH_BYTES) {
    n_mem = fuzz_range (1, 3);
    for (i = 0; i < n_mem; i++)
      gst_buffer_append (in, gst_buffer_new_allocate (NULL, fuzz_range (0,
                  256), NULL));
    misfit = TRUE;
  } else if (layout < 50) {
    gsize size = ts.total;

    if (fuzz_chance (15)) {
      size = fuzz_chance (50) ? ts.total - 1 : ts.total / 2;
      misfit = TRUE;
    } else if (fuzz_chance (10)) {
      /* bytes besides the tensors: refused, as flexible tensors' are,
       * never dropped */
      size += fuzz_range (1, 64);
      misfit = TRUE;
    }
    gst_buffer_append_memory (in, gst_allocator_alloc (NULL, size, NULL));
  } else if (layout < 90) {
    for (i = 0; i < ts.n; i++) {
      gsize size = ts.t[i].bytes;

      if (fuzz_chance (5)) {
        size = size - 1;
        misfit = TRUE;
      }
      gst_buffer_append_memory (in, gst_allocator_alloc (NULL, size, NULL));
    }
  } else {
    n_mem = fuzz_range (2, ts.n + 3);
    misfit = n_mem != ts.n;
    for (i = 0; i < n_mem; i++)
      gst_buffer_append_memory (in, gst_allocator_alloc (NULL,
              i < ts.n ? ts.t[i].bytes : 16, NULL));
  }
  for (i = 0; i < gst_buffer_n_memory (in); i++) {
    GstMapInfo map;

    fail_unless (gst_memory_map (gst_buffer_peek_memory (in, i), &map,
            GST_MAP_WRITE));
    fuzz_fill (map.data, map.size);
    gst_memory_unmap (gst_buffer_peek_memory (in, i), &map);
  }

  {
    gchar *text = gst_caps_to_string (caps);

    what = g_strdup_printf ("seed %u, case %u: %s, %" G_GSIZE_FORMAT
        " bytes in %u memories%s%s", fuzz_seed, index, text,
        gst_buffer_get_size (in), gst_buffer_n_memory (in),
        s->permute ? ", permuted" : "", churn ? churn : "");
    g_free (text);
  }
  /* valid caps, every tensor's bytes there and no other: it must take
   * it */
  expect_ok = ts.valid && !misfit;
  out = push_case (s, caps, gst_buffer_ref (in), expect_ok, what);
  if (out) {
    gsize offset = 0;
    gboolean one = gst_buffer_n_memory (in) == 1;

    fail_unless (ts.valid, "%s: transformed caps it should refuse", what);
    fail_unless (!misfit, "%s: transformed a buffer of the wrong size",
        what);
    fail_unless_equals_int (gst_buffer_n_memory (out), ts.n);
    for (i = 0; i < ts.n; i++) {
      GstMapInfo im, om;
      GstMemory *imem = gst_buffer_peek_memory (in, one ? 0 : i);

      fail_unless (gst_memory_map (imem, &im, GST_MAP_READ));
      fail_unless (gst_memory_map (gst_buffer_peek_memory (out, i), &om,
              GST_MAP_READ));
      fail_unless_equals_uint64 (om.size, ts.t[i].bytes);
      check_tensor (&ts.t[i], s->permute ? s->perm : NULL, im.data +
          (one ? offset : 0), om.data, what, i);
      gst_memory_unmap (gst_buffer_peek_memory (out, i), &om);
      gst_memory_unmap (imem, &im);
      offset += ts.t[i].bytes;
    }
    poison_and_release (out);
  }
  gst_buffer_unref (in);
  g_free (what);
}
