/* Video frames and what they should become: the formats, sizes and
 * directions the tests sweep, random frames, the orientation reference (per
 * direction, 4:2:2 chroma included) and the asserts built on it. */
#include "orientation-reference.h"
#include "transpose-check.h"

#include <string.h>

const GstVideoFormat ct_check_formats[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_GRAY16_BE,
  GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_YV12, GST_VIDEO_FORMAT_NV12,
  GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_RGBA,
  GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_ARGB, GST_VIDEO_FORMAT_ABGR,
  GST_VIDEO_FORMAT_RGBx, GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_xRGB,
  GST_VIDEO_FORMAT_xBGR, GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_BGR,
  GST_VIDEO_FORMAT_AYUV, GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_UYVY,
  GST_VIDEO_FORMAT_YVYU, GST_VIDEO_FORMAT_I420_10LE,
  GST_VIDEO_FORMAT_I420_10BE, GST_VIDEO_FORMAT_I420_12LE,
  GST_VIDEO_FORMAT_I420_12BE, GST_VIDEO_FORMAT_I422_10LE,
  GST_VIDEO_FORMAT_I422_10BE, GST_VIDEO_FORMAT_I422_12LE,
  GST_VIDEO_FORMAT_I422_12BE, GST_VIDEO_FORMAT_Y444_10LE,
  GST_VIDEO_FORMAT_Y444_10BE, GST_VIDEO_FORMAT_Y444_12LE,
  GST_VIDEO_FORMAT_Y444_12BE,
  /* beyond videoflip */
  GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_P012_LE,
  GST_VIDEO_FORMAT_P016_LE, GST_VIDEO_FORMAT_Y444_16LE, GST_VIDEO_FORMAT_GBR,
  GST_VIDEO_FORMAT_GBRA, GST_VIDEO_FORMAT_GBR_10LE, GST_VIDEO_FORMAT_GBR_12LE,
  GST_VIDEO_FORMAT_VUYA, GST_VIDEO_FORMAT_RGBA64_LE,
  GST_VIDEO_FORMAT_BGR10A2_LE, GST_VIDEO_FORMAT_RGB10A2_LE,
  GST_VIDEO_FORMAT_RGBP, GST_VIDEO_FORMAT_BGRP,
};
const guint ct_check_n_formats = G_N_ELEMENTS (ct_check_formats);

const gint ct_check_sizes[][2] = {
  {1, 1}, {1, 1024}, {1024, 1}, {33, 65}, {64, 64}, {1000, 1500},
  {1917, 1083},
};
const guint ct_check_n_sizes = G_N_ELEMENTS (ct_check_sizes);

/* One format of each plane layout the kernels see: element sizes 1, 2, 3,
 * 4 and 8, subsampled chroma planar and interleaved, planar RGB with
 * alpha, and both 4:2:2 layouts. */
const GstVideoFormat ct_check_layout_formats[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_I420,
  GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_RGBA,
  GST_VIDEO_FORMAT_RGBA64_LE, GST_VIDEO_FORMAT_P010_10LE,
  GST_VIDEO_FORMAT_GBRA, GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_I422_10BE,
};
const guint ct_check_n_layout_formats =
    G_N_ELEMENTS (ct_check_layout_formats);

GstCaps *
ct_check_caps (GstVideoFormat format, gint width, gint height)
{
  return gst_caps_new_simple ("video/x-raw",
      "format", G_TYPE_STRING, gst_video_format_to_string (format),
      "width", G_TYPE_INT, width, "height", G_TYPE_INT, height,
      "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
}

/* Rows of a plane, from the first component it holds. */
static void
plane_geometry (const GstVideoInfo * info, guint plane, guint * width,
    guint * height, guint * pstride)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS];

  gst_video_format_info_component (info->finfo, plane, comp);
  *width = GST_VIDEO_INFO_COMP_WIDTH (info, comp[0]);
  *height = GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]);
  *pstride = GST_VIDEO_INFO_COMP_PSTRIDE (info, comp[0]);
}

GstBuffer *
ct_check_make_frame (const GstVideoInfo * info, guint stride_pad)
{
  GstBuffer *buf;
  GstMapInfo map;
  gsize offset[GST_VIDEO_MAX_PLANES];
  gint stride[GST_VIDEO_MAX_PLANES];
  gsize size = 0;
  guint p;

  if (stride_pad == 0) {
    size = GST_VIDEO_INFO_SIZE (info);
  } else {
    for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
      guint w, h, ps;

      plane_geometry (info, p, &w, &h, &ps);
      stride[p] = w * ps + stride_pad;
      /* an odd offset too, so no plane is conveniently aligned */
      offset[p] = size + (p > 0 ? 1 : 0);
      size = offset[p] + (gsize) stride[p] * h;
    }
  }

  buf = gst_buffer_new_allocate (NULL, size, NULL);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  ct_check_fill_random (map.data, map.size);
  gst_buffer_unmap (buf, &map);

  if (stride_pad > 0)
    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info), offset,
        stride);
  return buf;
}

const GstVideoOrientationMethod ct_check_directions[] = {
  GST_VIDEO_ORIENTATION_IDENTITY, GST_VIDEO_ORIENTATION_90R,
  GST_VIDEO_ORIENTATION_180, GST_VIDEO_ORIENTATION_90L,
  GST_VIDEO_ORIENTATION_HORIZ, GST_VIDEO_ORIENTATION_VERT,
  GST_VIDEO_ORIENTATION_UL_LR, GST_VIDEO_ORIENTATION_UR_LL,
};
const guint ct_check_n_directions = G_N_ELEMENTS (ct_check_directions);

const CtCheckOrientationTag ct_check_orientation_tags[] = {
  {"rotate-0", GST_VIDEO_ORIENTATION_IDENTITY},
  {"rotate-90", GST_VIDEO_ORIENTATION_90R},
  {"rotate-180", GST_VIDEO_ORIENTATION_180},
  {"rotate-270", GST_VIDEO_ORIENTATION_90L},
  {"flip-rotate-0", GST_VIDEO_ORIENTATION_HORIZ},
  {"flip-rotate-90", GST_VIDEO_ORIENTATION_UR_LL},
  {"flip-rotate-180", GST_VIDEO_ORIENTATION_VERT},
  {"flip-rotate-270", GST_VIDEO_ORIENTATION_UL_LR},
};

const guint ct_check_n_orientation_tags =
    G_N_ELEMENTS (ct_check_orientation_tags);

gboolean
ct_check_direction_swaps (GstVideoOrientationMethod method)
{
  return method == GST_VIDEO_ORIENTATION_90R ||
      method == GST_VIDEO_ORIENTATION_90L ||
      method == GST_VIDEO_ORIENTATION_UL_LR ||
      method == GST_VIDEO_ORIENTATION_UR_LL;
}

void
ct_check_oriented_point (GstVideoOrientationMethod method, guint w, guint h,
    guint x, guint y, guint * ox, guint * oy)
{
  CtMapping mapping;

  /* the direction's orientation, by the test's own table */
  switch (method) {
    case GST_VIDEO_ORIENTATION_90R:
      mapping = CT_MAPPING_ROTATE_90R;
      break;
    case GST_VIDEO_ORIENTATION_180:
      mapping = CT_MAPPING_ROTATE_180;
      break;
    case GST_VIDEO_ORIENTATION_90L:
      mapping = CT_MAPPING_ROTATE_90L;
      break;
    case GST_VIDEO_ORIENTATION_HORIZ:
      mapping = CT_MAPPING_FLIP_HORIZONTAL;
      break;
    case GST_VIDEO_ORIENTATION_VERT:
      mapping = CT_MAPPING_FLIP_VERTICAL;
      break;
    case GST_VIDEO_ORIENTATION_UL_LR:
      mapping = CT_MAPPING_TRANSPOSE;
      break;
    case GST_VIDEO_ORIENTATION_UR_LL:
      mapping = CT_MAPPING_ANTI_TRANSPOSE;
      break;
    default:
      mapping = CT_MAPPING_IDENTITY;
      break;
  }
  ct_ref_point (mapping, w, h, x, y, ox, oy);
}

/* 4:2:2 packed in one plane (YUY2, UYVY, YVYU) and planar with 16-bit
 * samples (I422_10LE ... I422_12BE): where the axes swap, videoflip keeps
 * the chroma subsampled across the output's rows, so an output chroma
 * sample covers two source rows and is their mean, rounded down. */
gboolean
ct_check_is_packed_422 (GstVideoFormat format)
{
  return format == GST_VIDEO_FORMAT_YUY2 || format == GST_VIDEO_FORMAT_UYVY ||
      format == GST_VIDEO_FORMAT_YVYU;
}

gboolean
ct_check_is_planar_422 (GstVideoFormat format)
{
  return format == GST_VIDEO_FORMAT_I422_10LE ||
      format == GST_VIDEO_FORMAT_I422_10BE ||
      format == GST_VIDEO_FORMAT_I422_12LE ||
      format == GST_VIDEO_FORMAT_I422_12BE;
}

/* The source pixel output pixel (ox, oy) of @method comes from, on a w x h
 * source: ct_check_oriented_point of the inverse direction on the output
 * (every direction is its own inverse but 90r and 90l, each the other's). */
static void
source_point (GstVideoOrientationMethod method, guint w, guint h, guint ox,
    guint oy, guint * x, guint * y)
{
  GstVideoOrientationMethod back = method;

  if (method == GST_VIDEO_ORIENTATION_90R)
    back = GST_VIDEO_ORIENTATION_90L;
  else if (method == GST_VIDEO_ORIENTATION_90L)
    back = GST_VIDEO_ORIENTATION_90R;
  /* the inverse runs on the output's w x h */
  if (ct_check_direction_swaps (method))
    ct_check_oriented_point (back, h, w, ox, oy, x, y);
  else
    ct_check_oriented_point (back, w, h, ox, oy, x, y);
}

/* A byte of packed 4:2:2 pixel @x's component @c (0 Y, 1 U, 2 V) in @row:
 * pixels in pairs, the pair's chroma shared. */
static guint8
packed_422_at (const GstVideoInfo * info, const guint8 * row, guint x,
    guint c)
{
  guint pair = x / 2 * 4;

  if (c == 0)
    return row[pair + (x % 2) * 2 + GST_VIDEO_INFO_COMP_POFFSET (info, 0)];
  return row[pair + GST_VIDEO_INFO_COMP_POFFSET (info, c)];
}

static guint
read_sample (const guint8 * at, gboolean le)
{
  return le ? GST_READ_UINT16_LE (at) : GST_READ_UINT16_BE (at);
}

/* NULL if @fo is @fi under @method for 4:2:2 (a swap, for planar), else
 * where it differs (g_free it). */
static gchar *
oriented_422_mismatch (GstVideoFrame * fi, GstVideoFrame * fo,
    GstVideoOrientationMethod method)
{
  const GstVideoInfo *ii = &fi->info, *oi = &fo->info;
  guint w = GST_VIDEO_INFO_WIDTH (ii), h = GST_VIDEO_INFO_HEIGHT (ii);
  guint ow = GST_VIDEO_INFO_WIDTH (oi), oh = GST_VIDEO_INFO_HEIGHT (oi);
  gboolean swap = ct_check_direction_swaps (method);
  guint ox, oy, c, x0, y0, x1, y1;

  if (ct_check_is_packed_422 (GST_VIDEO_INFO_FORMAT (ii))) {
    for (oy = 0; oy < oh; oy++) {
      const guint8 *out = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (fo, 0) +
          oy * GST_VIDEO_FRAME_PLANE_STRIDE (fo, 0);

      for (ox = 0; ox < ow; ox++) {
        const guint8 *row;

        source_point (method, w, h, ox, oy, &x0, &y0);
        row = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (fi, 0) +
            y0 * GST_VIDEO_FRAME_PLANE_STRIDE (fi, 0);
        /* (no check assertion per pixel: every one that passes writes
         * to libcheck's pipe, a system call) */
        if (packed_422_at (oi, out, ox, 0) != packed_422_at (ii, row, x0, 0))
          return g_strdup_printf ("%s %ux%u video-direction %d: output "
              "pixel (%u, %u) luma is %u, not %u", GST_VIDEO_INFO_NAME (ii),
              w, h, method, ox, oy, packed_422_at (oi, out, ox, 0),
              packed_422_at (ii, row, x0, 0));
        if (ox % 2)
          continue;
        /* the pair's chroma: from its first pixel's, or where the axes
         * swap the mean over the pair's two source rows */
        for (c = 1; c < 3; c++) {
          guint want = packed_422_at (ii, row, x0, c);

          if (swap && ox + 1 < ow) {
            source_point (method, w, h, ox + 1, oy, &x1, &y1);
            want = (want + packed_422_at (ii, (const guint8 *)
                    GST_VIDEO_FRAME_PLANE_DATA (fi, 0) + y1 *
                    GST_VIDEO_FRAME_PLANE_STRIDE (fi, 0), x1, c)) / 2;
          }
          if (packed_422_at (oi, out, ox, c) != want)
            return g_strdup_printf ("%s %ux%u video-direction %d: output "
                "pixel (%u, %u) component %u is %u, not %u",
                GST_VIDEO_INFO_NAME (ii), w, h, method, ox, oy, c,
                packed_422_at (oi, out, ox, c), want);
        }
      }
    }
    return NULL;
  }

  /* planar, a swap: the chroma planes (the luma is an ordinary plane) */
  for (c = 1; c < 3; c++) {
    gboolean le = GST_VIDEO_FORMAT_INFO_IS_LE (ii->finfo);
    guint cw = GST_VIDEO_INFO_COMP_WIDTH (ii, c);
    guint ocw = GST_VIDEO_INFO_COMP_WIDTH (oi, c);

    for (oy = 0; oy < oh; oy++) {
      const guint8 *out = (const guint8 *) GST_VIDEO_FRAME_COMP_DATA (fo, c) +
          oy * GST_VIDEO_FRAME_COMP_STRIDE (fo, c);

      for (ox = 0; ox < ocw; ox++) {
        guint col, want;

        /* the source rows of output pixels 2ox and 2ox + 1; the column:
         * videoflip counts a mirrored one from the chroma plane's right
         * edge, not as the luma's column halved */
        source_point (method, w, h, 2 * ox, oy, &x0, &y0);
        col = (method == GST_VIDEO_ORIENTATION_90L ||
            method == GST_VIDEO_ORIENTATION_UR_LL) ? cw - 1 - oy / 2 : oy / 2;
        want = read_sample ((const guint8 *) GST_VIDEO_FRAME_COMP_DATA (fi,
                c) + y0 * GST_VIDEO_FRAME_COMP_STRIDE (fi, c) + col * 2, le);
        if (2 * ox + 1 < ow) {
          source_point (method, w, h, 2 * ox + 1, oy, &x1, &y1);
          want = (want + read_sample ((const guint8 *)
                  GST_VIDEO_FRAME_COMP_DATA (fi, c) + y1 *
                  GST_VIDEO_FRAME_COMP_STRIDE (fi, c) + col * 2, le)) / 2;
        }
        if (read_sample (out + ox * 2, le) != want)
          return g_strdup_printf ("%s %ux%u video-direction %d: chroma %u "
              "sample (%u, %u) is %u, not %u", GST_VIDEO_INFO_NAME (ii), w,
              h, method, c, ox, oy, read_sample (out + ox * 2, le), want);
      }
    }
  }
  return NULL;
}

void
ct_check_out_info (const GstVideoInfo * in_info,
    GstVideoOrientationMethod method, GstVideoInfo * out_info)
{
  gboolean swap = ct_check_direction_swaps (method);

  fail_unless (gst_video_info_set_format (out_info,
          GST_VIDEO_INFO_FORMAT (in_info), swap ?
          GST_VIDEO_INFO_HEIGHT (in_info) : GST_VIDEO_INFO_WIDTH (in_info),
          swap ? GST_VIDEO_INFO_WIDTH (in_info) :
          GST_VIDEO_INFO_HEIGHT (in_info)));
}

gchar *
ct_check_oriented_mismatch (const GstVideoInfo * in_info, GstBuffer * in,
    GstBuffer * out, GstVideoOrientationMethod method)
{
  gboolean swap = ct_check_direction_swaps (method);
  GstVideoInfo out_info;
  GstVideoFrame fi, fo;
  gchar *why = NULL;
  guint p;

  ct_check_out_info (in_info, method, &out_info);
  /* (a buffer with a GstVideoMeta is mapped as the meta says) */
  if (!gst_buffer_get_video_meta (out) &&
      gst_buffer_get_size (out) < GST_VIDEO_INFO_SIZE (&out_info))
    return g_strdup_printf ("%s %dx%d video-direction %d: output buffer too "
        "small (%" G_GSIZE_FORMAT " bytes)", GST_VIDEO_INFO_NAME (in_info),
        GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info),
        method, gst_buffer_get_size (out));
  fail_unless (gst_video_frame_map (&fi, (GstVideoInfo *) in_info, in,
          GST_MAP_READ));
  if (!gst_video_frame_map (&fo, &out_info, out, GST_MAP_READ)) {
    gst_video_frame_unmap (&fi);
    return g_strdup_printf ("the output does not map as %s %dx%d",
        GST_VIDEO_INFO_NAME (&out_info), GST_VIDEO_INFO_WIDTH (&out_info),
        GST_VIDEO_INFO_HEIGHT (&out_info));
  }

  if (ct_check_is_packed_422 (GST_VIDEO_INFO_FORMAT (in_info)) ||
      (swap && ct_check_is_planar_422 (GST_VIDEO_INFO_FORMAT (in_info)))) {
    why = oriented_422_mismatch (&fi, &fo, method);
    if (why || ct_check_is_packed_422 (GST_VIDEO_INFO_FORMAT (in_info)))
      goto done;
  }
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (in_info) && !why; p++) {
    const guint8 *src = GST_VIDEO_FRAME_PLANE_DATA (&fi, p);
    const guint8 *dst = GST_VIDEO_FRAME_PLANE_DATA (&fo, p);
    gsize ss = GST_VIDEO_FRAME_PLANE_STRIDE (&fi, p);
    gsize ds = GST_VIDEO_FRAME_PLANE_STRIDE (&fo, p);
    guint w, h, ps, x, y, ow, oh, ops;

    /* (planar 4:2:2's chroma under a swap: oriented_422_mismatch) */
    if (p > 0 && swap && ct_check_is_planar_422 (GST_VIDEO_INFO_FORMAT
            (in_info)))
      break;
    plane_geometry (in_info, p, &w, &h, &ps);
    plane_geometry (&out_info, p, &ow, &oh, &ops);
    if (ow != (swap ? h : w) || oh != (swap ? w : h) || ops != ps) {
      why = g_strdup_printf ("plane %u is %ux%u in and %ux%u out", p, w, h,
          ow, oh);
      break;
    }
    /* element by element, where the direction puts it */
    for (y = 0; y < h && !why; y++) {
      for (x = 0; x < w; x++) {
        const guint8 *a = src + y * ss + (gsize) x * ps;
        const guint8 *b;
        guint ox, oy;

        ct_check_oriented_point (method, w, h, x, y, &ox, &oy);
        b = dst + oy * ds + (gsize) ox * ps;
        if (memcmp (a, b, ps) != 0) {
          why = g_strdup_printf ("%s %dx%d video-direction %d plane %u: "
              "element (%u, %u) differs", GST_VIDEO_INFO_NAME (in_info),
              GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info),
              method, p, x, y);
          break;
        }
      }
    }
  }
done:
  gst_video_frame_unmap (&fo);
  gst_video_frame_unmap (&fi);
  return why;
}

void
ct_check_assert_oriented (const GstVideoInfo * in_info, GstBuffer * in,
    GstBuffer * out, GstVideoOrientationMethod method, const gchar * what)
{
  gchar *why = ct_check_oriented_mismatch (in_info, in, out, method);

  if (why)
    fail ("%s: %s", what, why);
  g_free (why);
}

void
ct_check_assert_transposed (const GstVideoInfo * in_info, GstBuffer * in,
    GstBuffer * out, const gchar * what)
{
  ct_check_assert_oriented (in_info, in, out, GST_VIDEO_ORIENTATION_UL_LR,
      what);
}

/* The bytes of row @y of plane @p to compare: packed 4:2:2 of an odd width
 * ends in a pair of one pixel, whose second luma is padding. */
static gboolean
byte_visible (const GstVideoInfo * info, guint p, gsize i, gsize row)
{
  guint w = GST_VIDEO_INFO_WIDTH (info);

  if (p == 0 && ct_check_is_packed_422 (GST_VIDEO_INFO_FORMAT (info)) &&
      (w & 1))
    return i != (gsize) (w - 1) * 2 + 2 + GST_VIDEO_INFO_COMP_POFFSET (info,
        0);
  return i < row;
}

void
ct_check_assert_same_frame (const GstVideoInfo * info, GstBuffer * a,
    GstBuffer * b)
{
  ct_check_assert_same_planes (info, a, b, GST_VIDEO_INFO_N_PLANES (info));
}

void
ct_check_assert_same_planes (const GstVideoInfo * info, GstBuffer * a,
    GstBuffer * b, guint n_planes)
{
  GstVideoFrame fa, fb;
  guint p, y;

  fail_unless (gst_video_frame_map (&fa, (GstVideoInfo *) info, a,
          GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fb, (GstVideoInfo *) info, b,
          GST_MAP_READ));
  for (p = 0; p < n_planes; p++) {
    guint w, h, ps;
    gsize i, row;

    plane_geometry (info, p, &w, &h, &ps);
    /* (packed 4:2:2: whole pairs, the last one's padding luma left out) */
    row = ct_check_is_packed_422 (GST_VIDEO_INFO_FORMAT (info)) ?
        (gsize) (w + 1) / 2 * 4 : (gsize) w * ps;
    for (y = 0; y < h; y++) {
      const guint8 *ra = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fa,
          p) + y * GST_VIDEO_FRAME_PLANE_STRIDE (&fa, p);
      const guint8 *rb = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fb,
          p) + y * GST_VIDEO_FRAME_PLANE_STRIDE (&fb, p);

      for (i = 0; i < row; i++) {
        if (ra[i] != rb[i] && byte_visible (info, p, i, row)) {
          gst_video_frame_unmap (&fb);
          gst_video_frame_unmap (&fa);
          fail ("%s %dx%d: plane %u row %u byte %" G_GSIZE_FORMAT " differs "
              "(%u, %u)", GST_VIDEO_INFO_NAME (info),
              GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info), p, y,
              i, ra[i], rb[i]);
          return;
        }
      }
    }
  }
  gst_video_frame_unmap (&fb);
  gst_video_frame_unmap (&fa);
}

const GstVideoColorMatrix ct_check_yuv_matrices[] = {
  GST_VIDEO_COLOR_MATRIX_BT601, GST_VIDEO_COLOR_MATRIX_BT709,
  GST_VIDEO_COLOR_MATRIX_BT2020,
};

const guint ct_check_n_yuv_matrices = G_N_ELEMENTS (ct_check_yuv_matrices);

const GstVideoChromaSite ct_check_chroma_sites[] = {
  GST_VIDEO_CHROMA_SITE_JPEG, GST_VIDEO_CHROMA_SITE_MPEG2,
  GST_VIDEO_CHROMA_SITE_COSITED, GST_VIDEO_CHROMA_SITE_V_COSITED,
};

const guint ct_check_n_chroma_sites = G_N_ELEMENTS (ct_check_chroma_sites);

GstCaps *
ct_check_yuv_caps (GstVideoFormat format, guint w, guint h,
    GstVideoColorMatrix m, gboolean full, GstVideoChromaSite site,
    GstVideoInfo * info)
{
  GstCaps *caps;

  gst_video_info_set_format (info, format, w, h);
  info->colorimetry.range = full ? GST_VIDEO_COLOR_RANGE_0_255 :
      GST_VIDEO_COLOR_RANGE_16_235;
  info->colorimetry.matrix = m;
  info->colorimetry.transfer = GST_VIDEO_TRANSFER_BT709;
  info->colorimetry.primaries = GST_VIDEO_COLOR_PRIMARIES_BT709;
  info->chroma_site = site;
  caps = gst_video_info_to_caps (info);
  fail_unless (gst_video_info_from_caps (info, caps));
  return caps;
}

void
ct_check_videoconvert (GstCaps * caps, GstBuffer * in, GstVideoFormat format,
    guint width, guint height, GstVideoFrame * ref, const gchar * what)
{
  GstHarness *hv = gst_harness_new_parse ("videoconvert dither=none");
  GstVideoInfo info;
  GstBuffer *out;

  gst_video_info_set_format (&info, format, width, height);
  gst_harness_set_src_caps (hv, gst_caps_ref (caps));
  /* (the format alone: videoconvert fixates the rest from the input) */
  gst_harness_set_sink_caps (hv, gst_caps_new_simple ("video/x-raw",
          "format", G_TYPE_STRING, gst_video_format_to_string (format),
          NULL));
  out = gst_harness_push_and_pull (hv, gst_buffer_ref (in));
  fail_unless (out != NULL, "%s: videoconvert gave no frame", what);
  fail_unless (gst_video_frame_map (ref, &info, out, GST_MAP_READ));
  gst_buffer_unref (out);       /* (the frame holds its own) */
  gst_harness_teardown (hv);
}
