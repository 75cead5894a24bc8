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
};
const guint ct_check_n_formats = G_N_ELEMENTS (ct_check_formats);

const gint ct_check_sizes[][2] = {
  {1, 1}, {1, 1024}, {1024, 1}, {33, 65}, {64, 64}, {1000, 1500},
  {1917, 1083},
};
const guint ct_check_n_sizes = G_N_ELEMENTS (ct_check_sizes);

static guint32 rng_state = 0x9e3779b9;
static guint8 poison_byte = 0xa5;

void
ct_check_seed (void)
{
  const gchar *env = g_getenv ("CT_CHECK_SEED");
  guint32 seed = env ? (guint32) g_ascii_strtoull (env, NULL, 10) :
      g_random_int ();

  rng_state = seed ? seed : 0x9e3779b9;
  g_print ("random seed %u (set CT_CHECK_SEED=%u to repeat)\n", seed, seed);
}

guint32
ct_check_xorshift (guint32 * state)
{
  /* xorshift32: fast, and reproducible from the printed seed */
  *state ^= *state << 13;
  *state ^= *state >> 17;
  *state ^= *state << 5;
  return *state;
}

guint32
ct_check_random (void)
{
  return ct_check_xorshift (&rng_state);
}

static void
fill_random (guint8 * data, gsize size)
{
  gsize i;

  for (i = 0; i + 4 <= size; i += 4) {
    guint32 r = ct_check_random ();
    memcpy (data + i, &r, 4);
  }
  for (; i < size; i++)
    data[i] = ct_check_random () & 0xff;
}

GstCaps *
ct_check_caps (GstVideoFormat format, gint width, gint height)
{
  return gst_caps_new_simple ("video/x-raw",
      "format", G_TYPE_STRING, gst_video_format_to_string (format),
      "width", G_TYPE_INT, width, "height", G_TYPE_INT, height,
      "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
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
  fill_random (map.data, map.size);
  gst_buffer_unmap (buf, &map);

  if (stride_pad > 0)
    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info), offset,
        stride);
  return buf;
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

const GstVideoOrientationMethod ct_check_directions[] = {
  GST_VIDEO_ORIENTATION_IDENTITY, GST_VIDEO_ORIENTATION_90R,
  GST_VIDEO_ORIENTATION_180, GST_VIDEO_ORIENTATION_90L,
  GST_VIDEO_ORIENTATION_HORIZ, GST_VIDEO_ORIENTATION_VERT,
  GST_VIDEO_ORIENTATION_UL_LR, GST_VIDEO_ORIENTATION_UR_LL,
};
const guint ct_check_n_directions = G_N_ELEMENTS (ct_check_directions);

gboolean
ct_check_direction_swaps (GstVideoOrientationMethod method)
{
  return method == GST_VIDEO_ORIENTATION_90R ||
      method == GST_VIDEO_ORIENTATION_90L ||
      method == GST_VIDEO_ORIENTATION_UL_LR ||
      method == GST_VIDEO_ORIENTATION_UR_LL;
}

void
ct_check_oriented_point (GstVideoOrientationMethod method, guint w, guint h, guint x,
    guint y, guint * ox, guint * oy)
{
  switch (method) {
    case GST_VIDEO_ORIENTATION_90R:    /* clockwise */
      *ox = h - 1 - y;
      *oy = x;
      break;
    case GST_VIDEO_ORIENTATION_180:
      *ox = w - 1 - x;
      *oy = h - 1 - y;
      break;
    case GST_VIDEO_ORIENTATION_90L:    /* counter-clockwise */
      *ox = y;
      *oy = w - 1 - x;
      break;
    case GST_VIDEO_ORIENTATION_HORIZ:  /* left and right swapped */
      *ox = w - 1 - x;
      *oy = y;
      break;
    case GST_VIDEO_ORIENTATION_VERT:   /* top and bottom swapped */
      *ox = x;
      *oy = h - 1 - y;
      break;
    case GST_VIDEO_ORIENTATION_UL_LR:  /* about the main diagonal */
      *ox = y;
      *oy = x;
      break;
    case GST_VIDEO_ORIENTATION_UR_LL:  /* about the other diagonal */
      *ox = h - 1 - y;
      *oy = w - 1 - x;
      break;
    default:
      *ox = x;
      *oy = y;
      break;
  }
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
 * source: ct_check_oriented_point of the inverse direction on the output (every
 * direction is its own inverse but 90r and 90l, each the other's). */
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

/* Fails unless @fo is @fi under @method for 4:2:2 (a swap, for planar). */
static void
assert_oriented_422 (GstVideoFrame * fi, GstVideoFrame * fo,
    GstVideoOrientationMethod method, const gchar * what)
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
        /* (fail () only on a mismatch: every check assertion that passes
         * writes to libcheck's pipe, a system call per pixel) */
        if (packed_422_at (oi, out, ox, 0) != packed_422_at (ii, row, x0, 0))
          fail ("%s: %s %ux%u video-direction %d: output pixel (%u, %u) "
              "luma is %u, not %u", what, GST_VIDEO_INFO_NAME (ii), w, h,
              method, ox, oy, packed_422_at (oi, out, ox, 0),
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
            fail ("%s: %s %ux%u video-direction %d: output pixel (%u, %u) "
                "component %u is %u, not %u", what, GST_VIDEO_INFO_NAME (ii),
                w, h, method, ox, oy, c, packed_422_at (oi, out, ox, c),
                want);
        }
      }
    }
    return;
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
          fail ("%s: %s %ux%u video-direction %d: chroma %u sample (%u, %u) "
              "is %u, not %u", what, GST_VIDEO_INFO_NAME (ii), w, h, method,
              c, ox, oy, read_sample (out + ox * 2, le), want);
      }
    }
  }
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

void
ct_check_assert_oriented (const GstVideoInfo * in_info, GstBuffer * in,
    GstBuffer * out, GstVideoOrientationMethod method, const gchar * what)
{
  gboolean swap = ct_check_direction_swaps (method);
  GstVideoInfo out_info;
  GstVideoFrame fi, fo;
  guint p;

  ct_check_out_info (in_info, method, &out_info);
  /* (a buffer with a GstVideoMeta is mapped as the meta says) */
  fail_unless (gst_buffer_get_video_meta (out) != NULL ||
      gst_buffer_get_size (out) >= GST_VIDEO_INFO_SIZE (&out_info),
      "%s: %s %dx%d video-direction %d: output buffer too small (%"
      G_GSIZE_FORMAT " bytes)", what, GST_VIDEO_INFO_NAME (in_info),
      GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info), method,
      gst_buffer_get_size (out));
  fail_unless (gst_video_frame_map (&fi, (GstVideoInfo *) in_info, in,
          GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fo, &out_info, out, GST_MAP_READ),
      "%s: the output does not map as %s %dx%d", what,
      GST_VIDEO_INFO_NAME (&out_info), GST_VIDEO_INFO_WIDTH (&out_info),
      GST_VIDEO_INFO_HEIGHT (&out_info));

  if (ct_check_is_packed_422 (GST_VIDEO_INFO_FORMAT (in_info)) ||
      (swap && ct_check_is_planar_422 (GST_VIDEO_INFO_FORMAT (in_info)))) {
    assert_oriented_422 (&fi, &fo, method, what);
    if (ct_check_is_packed_422 (GST_VIDEO_INFO_FORMAT (in_info))) {
      gst_video_frame_unmap (&fo);
      gst_video_frame_unmap (&fi);
      return;
    }
  }
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (in_info); p++) {
    const guint8 *src = GST_VIDEO_FRAME_PLANE_DATA (&fi, p);
    const guint8 *dst = GST_VIDEO_FRAME_PLANE_DATA (&fo, p);
    gsize ss = GST_VIDEO_FRAME_PLANE_STRIDE (&fi, p);
    gsize ds = GST_VIDEO_FRAME_PLANE_STRIDE (&fo, p);
    guint w, h, ps, x, y, ow, oh, ops;

    /* (planar 4:2:2's chroma under a swap: assert_oriented_422) */
    if (p > 0 && swap && ct_check_is_planar_422 (GST_VIDEO_INFO_FORMAT
            (in_info)))
      break;
    plane_geometry (in_info, p, &w, &h, &ps);
    plane_geometry (&out_info, p, &ow, &oh, &ops);
    fail_unless (ow == (swap ? h : w) && oh == (swap ? w : h) && ops == ps,
        "%s: plane %u is %ux%u in and %ux%u out", what, p, w, h, ow, oh);

    /* element by element, where the direction puts it */
    for (y = 0; y < h; y++) {
      for (x = 0; x < w; x++) {
        const guint8 *a = src + y * ss + (gsize) x * ps;
        const guint8 *b;
        guint ox, oy;

        ct_check_oriented_point (method, w, h, x, y, &ox, &oy);
        b = dst + oy * ds + (gsize) ox * ps;
        if (memcmp (a, b, ps) != 0) {
          gst_video_frame_unmap (&fo);
          gst_video_frame_unmap (&fi);
          fail ("%s: %s %dx%d video-direction %d plane %u: element (%u, %u) "
              "differs", what, GST_VIDEO_INFO_NAME (in_info),
              GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info),
              method, p, x, y);
          return;
        }
      }
    }
  }
  gst_video_frame_unmap (&fo);
  gst_video_frame_unmap (&fi);
}

void
ct_check_assert_transposed (const GstVideoInfo * in_info, GstBuffer * in,
    GstBuffer * out, const gchar * what)
{
  ct_check_assert_oriented (in_info, in, out, GST_VIDEO_ORIENTATION_UL_LR,
      what);
}

/* Whether videoflip 1.22 averages planar 4:2:2 chroma over the source rows
 * it should for a w x h frame under @method: under 90l, ul-lr and ur-ll it
 * tests the second row against the chroma plane's width, not the height,
 * so on other shapes it skips means it should take, or reads past the
 * plane (its own output differs from run to run there). */
static gboolean
videoflip_422_agrees (GstVideoOrientationMethod method, guint w, guint h)
{
  guint cw = (w + 1) / 2, x;

  if (method != GST_VIDEO_ORIENTATION_90L &&
      method != GST_VIDEO_ORIENTATION_UL_LR &&
      method != GST_VIDEO_ORIENTATION_UR_LL)
    return TRUE;
  for (x = 0; x < (h + 1) / 2; x++)
    if ((2 * x + 1 < cw) != (2 * x + 1 < h))
      return FALSE;
  return TRUE;
}

/* Whether videoflip takes @format. */
static gboolean
videoflip_takes (GstVideoFormat format)
{
  GstElementFactory *f = gst_element_factory_find ("videoflip");
  GstCaps *caps = ct_check_caps (format, 16, 16);
  gboolean takes;

  fail_unless (f != NULL, "no videoflip (gst-plugins-good)");
  takes = gst_element_factory_can_sink_any_caps (f, caps);
  gst_caps_unref (caps);
  gst_object_unref (f);
  return takes;
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

void
ct_check_push_and_verify (GstHarness * h, GstVideoFormat format, gint width,
    gint height, guint stride_pad, const gchar * what)
{
  ct_check_push_and_verify_direction (h, format, width, height, stride_pad,
      GST_VIDEO_ORIENTATION_UL_LR, what);
}

void
ct_check_all_formats (GstHarness * h, const gchar * what)
{
  ct_check_formats_of (h, ct_check_formats, ct_check_n_formats, what);
}

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

void
ct_check_formats_of (GstHarness * h, const GstVideoFormat * formats,
    guint n_formats, const gchar * what)
{
  guint f, s;

  for (f = 0; f < n_formats; f++) {
    for (s = 0; s < ct_check_n_sizes; s++) {
      GstVideoFormat fmt = formats[f];
      gint w = ct_check_sizes[s][0], hh = ct_check_sizes[s][1];

      gst_harness_set_src_caps (h, ct_check_caps (fmt, w, hh));
      ct_check_push_and_verify (h, fmt, w, hh, 0, what);
      /* odd padding: strides that are no multiple of the element size */
      ct_check_push_and_verify (h, fmt, w, hh, 3 + s, what);
    }
  }
}

void
ct_check_push_and_verify_direction (GstHarness * h, GstVideoFormat format,
    gint width, gint height, guint stride_pad,
    GstVideoOrientationMethod method, const gchar * what)
{
  GstVideoInfo info;
  GstBuffer *in, *out;

  fail_unless (gst_video_info_set_format (&info, format, width, height));
  in = ct_check_make_frame (&info, stride_pad);
  ct_check_push_one (h, in);
  out = gst_harness_pull (h);
  fail_unless (out != NULL, "%s: no output", what);
  ct_check_assert_oriented (&info, in, out, method, what);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

/* Sizes for the eight directions: odd, 1xN, Nx1, several tiles, not
 * square. */
static const gint direction_sizes[][2] = {
  {1, 1}, {1, 37}, {37, 1}, {33, 65}, {64, 64}, {130, 71},
};

void
ct_check_all_directions (GstHarness * h, const gchar * what)
{
  guint d, f, s;

  for (d = 0; d < ct_check_n_directions; d++) {
    GstVideoOrientationMethod method = ct_check_directions[d];

    g_object_set (h->element, "video-direction", method, NULL);
    for (f = 0; f < ct_check_n_formats; f++) {
      for (s = 0; s < G_N_ELEMENTS (direction_sizes); s++) {
        GstVideoFormat fmt = ct_check_formats[f];
        gint w = direction_sizes[s][0], hh = direction_sizes[s][1];

        gst_harness_set_src_caps (h, ct_check_caps (fmt, w, hh));
        /* default strides, then odd ones in a GstVideoMeta */
        ct_check_push_and_verify_direction (h, fmt, w, hh, 0, method, what);
        ct_check_push_and_verify_direction (h, fmt, w, hh, 3 + s, method,
            what);
      }
    }
  }
}

/* Sizes against videoflip: the directions' and a few more odd ones, where
 * its 4:2:2 paths pair rows and columns. */
static const gint videoflip_sizes[][2] = {
  {1, 1}, {1, 37}, {37, 1}, {2, 3}, {3, 2}, {33, 65}, {64, 64}, {130, 71},
  {17, 9}, {9, 17}, {64, 31},
};

void
ct_check_against_videoflip (const gchar * desc)
{
  guint d, f, s;

  for (d = 0; d < ct_check_n_directions; d++) {
    GstVideoOrientationMethod method = ct_check_directions[d];
    GstHarness *ours = ct_check_harness_new (desc, NULL);
    GstHarness *flip = gst_harness_new ("videoflip");

    g_object_set (ours->element, "video-direction", method, NULL);
    g_object_set (flip->element, "video-direction", method, NULL);
    for (f = 0; f < ct_check_n_formats; f++) {
      if (!videoflip_takes (ct_check_formats[f]))
        continue;
      for (s = 0; s < G_N_ELEMENTS (videoflip_sizes); s++) {
        GstVideoFormat fmt = ct_check_formats[f];
        gint w = videoflip_sizes[s][0], hh = videoflip_sizes[s][1];
        GstVideoInfo info, out_info;
        GstBuffer *in, *a, *b;

        fail_unless (gst_video_info_set_format (&info, fmt, w, hh));
        ct_check_out_info (&info, method, &out_info);
        in = ct_check_make_frame (&info, 0);
        gst_harness_set_src_caps (ours, ct_check_caps (fmt, w, hh));
        gst_harness_set_src_caps (flip, ct_check_caps (fmt, w, hh));
        ct_check_push_one (ours, in);
        fail_unless_equals_int (gst_harness_push (flip, gst_buffer_ref (in)),
            GST_FLOW_OK);
        a = gst_harness_pull (ours);
        b = gst_harness_pull (flip);
        fail_unless (a != NULL && b != NULL, "no output");
        /* our own reference checks the output (ct_check_assert_oriented);
         * videoflip must agree with it wherever its output is sound */
        ct_check_assert_oriented (&info, in, a, method, desc);
        /* videoflip leaves row padding unwritten: visible pixels only; on
         * the shapes where it gets planar 4:2:2's chroma wrong, the luma */
        if (method == GST_VIDEO_ORIENTATION_IDENTITY &&
            ct_check_is_packed_422 (fmt) && (w & 1)) {
          /* (videoflip's identity, gst_video_frame_copy, copies width * 2
           * bytes a row: the chroma of an odd width's last pair stays
           * unwritten) */
        } else {
          ct_check_assert_same_planes (&out_info, a, b,
              ct_check_is_planar_422 (fmt) &&
              !videoflip_422_agrees (method, w, hh) ? 1 :
              GST_VIDEO_INFO_N_PLANES (&out_info));
        }
        gst_buffer_unref (a);
        gst_buffer_unref (b);
        gst_buffer_unref (in);
      }
    }
    gst_harness_teardown (flip);
    gst_harness_teardown (ours);
  }
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

void
ct_check_round_trip (const gchar * desc, GstVideoFormat format, gint width,
    gint height)
{
  GstHarness *h = ct_check_harness_new (desc, NULL);
  GstVideoInfo info;
  GstBuffer *in, *out;

  gst_harness_set_src_caps (h, ct_check_caps (format, width, height));
  fail_unless (gst_video_info_set_format (&info, format, width, height));
  in = ct_check_make_frame (&info, 0);
  ct_check_push_one (h, in);
  out = gst_harness_pull (h);
  fail_unless (out != NULL, "%s: no output", desc);
  ct_check_assert_same_frame (&info, in, out);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  gst_harness_teardown (h);
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

/* ---- tensors ---- */

const gchar *ct_check_tensor_types[] = {
  "int8", "uint8", "int16", "uint16", "float16", "int32", "uint32",
  "float32", "int64", "uint64", "float64",
};
const guint ct_check_n_tensor_types = G_N_ELEMENTS (ct_check_tensor_types);

const gchar *ct_check_tensor_shapes[] = {
  "1", "7", "1:1", "1:9", "9:1", "3:5:2:1", "17:33:3:2", "64:1:4",
  "5:1000:2", "3:640:480:1", "1000:3:1:2",
};
const guint ct_check_n_tensor_shapes = G_N_ELEMENTS (ct_check_tensor_shapes);

guint
ct_check_tensor_type_size (const gchar * type)
{
  if (g_str_has_suffix (type, "8"))
    return 1;
  if (g_str_has_suffix (type, "16"))
    return 2;
  if (g_str_has_suffix (type, "32"))
    return 4;
  fail_unless (g_str_has_suffix (type, "64"), "unknown type %s", type);
  return 8;
}

/* d0, d1 and the count of d0 x d1 planes of a dimension string. */
static void
tensor_shape (const gchar * dims, guint64 * d0, guint64 * d1,
    guint64 * planes)
{
  gchar **s = g_strsplit (dims, ":", -1);
  guint i;

  *d0 = g_ascii_strtoull (s[0], NULL, 10);
  *d1 = s[1] ? g_ascii_strtoull (s[1], NULL, 10) : 1;
  *planes = 1;
  for (i = 2; s[0] && s[1] && s[i]; i++)
    *planes *= g_ascii_strtoull (s[i], NULL, 10);
  g_strfreev (s);
}

static gsize
tensor_bytes (const CtCheckTensor * t)
{
  guint64 d0, d1, planes;

  tensor_shape (t->dims, &d0, &d1, &planes);
  return d0 * d1 * planes * ct_check_tensor_type_size (t->type);
}

GstCaps *
ct_check_tensor_caps (const CtCheckTensor * t, guint n)
{
  GString *dims = g_string_new (NULL), *types = g_string_new (NULL);
  GstCaps *caps;
  guint i;

  for (i = 0; i < n; i++) {
    g_string_append_printf (dims, "%s%s", i ? "," : "", t[i].dims);
    g_string_append_printf (types, "%s%s", i ? "," : "", t[i].type);
  }
  caps = gst_caps_new_simple ("other/tensors", "format", G_TYPE_STRING,
      "static", "num_tensors", G_TYPE_INT, n, "dimensions", G_TYPE_STRING,
      dims->str, "types", G_TYPE_STRING, types->str, "framerate",
      GST_TYPE_FRACTION, 30, 1, NULL);
  g_string_free (dims, TRUE);
  g_string_free (types, TRUE);
  return caps;
}

void
ct_check_fill_tensors (GstBuffer * in)
{
  GstMapInfo map;
  guint i;

  for (i = 0; i < gst_buffer_n_memory (in); i++) {
    GstMemory *mem = gst_buffer_peek_memory (in, i);

    fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE));
    fill_random (map.data, map.size);
    gst_memory_unmap (mem, &map);
  }
}

void
ct_check_assert_tensors_transposed (GstBuffer * in, GstBuffer * out,
    const CtCheckTensor * t, guint n, const gchar * what)
{
  gboolean one_memory = gst_buffer_n_memory (in) == 1;
  gsize offset = 0;
  GstMapInfo im, om;
  guint i;

  fail_unless (out != NULL, "%s: no output", what);
  fail_unless_equals_int (gst_buffer_n_memory (out), n);

  for (i = 0; i < n; i++) {
    guint64 d0, d1, planes, p, x, y;
    guint es = ct_check_tensor_type_size (t[i].type);
    GstMemory *imem = gst_buffer_peek_memory (in, one_memory ? 0 : i);
    const guint8 *src;
    gsize plane = 0;

    tensor_shape (t[i].dims, &d0, &d1, &planes);
    plane = d0 * d1 * es;
    fail_unless (gst_memory_map (imem, &im, GST_MAP_READ));
    fail_unless (gst_memory_map (gst_buffer_peek_memory (out, i), &om,
            GST_MAP_READ));
    fail_unless_equals_uint64 (om.size, tensor_bytes (&t[i]));
    src = im.data + (one_memory ? offset : 0);
    /* out[p][x][y] == in[p][y][x]: in rows are d0 long, out rows d1 */
    for (p = 0; p < planes; p++) {
      for (y = 0; y < d1; y++) {
        for (x = 0; x < d0; x++) {
          const guint8 *a = src + p * plane + (y * d0 + x) * es;
          const guint8 *b = om.data + p * plane + (x * d1 + y) * es;

          if (memcmp (a, b, es) != 0) {
            gst_memory_unmap (gst_buffer_peek_memory (out, i), &om);
            gst_memory_unmap (imem, &im);
            fail ("%s: tensor %u (%s %s) plane %" G_GUINT64_FORMAT
                ": element (%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT
                ") differs", what, i, t[i].type, t[i].dims, p, x, y);
            return;
          }
        }
      }
    }
    gst_memory_unmap (gst_buffer_peek_memory (out, i), &om);
    gst_memory_unmap (imem, &im);
    offset += tensor_bytes (&t[i]);
  }
}

GstBuffer *
ct_check_push_tensor_buffer (GstHarness * h, GstBuffer * in,
    const CtCheckTensor * t, guint n, const gchar * what)
{
  GstBuffer *out;

  ct_check_fill_tensors (in);
  ct_check_push_one (h, in);
  out = gst_harness_pull (h);
  ct_check_assert_tensors_transposed (in, out, t, n, what);
  return out;
}

GstBuffer *
ct_check_new_tensor_buffer (const CtCheckTensor * t, guint n,
    gboolean one_memory)
{
  GstBuffer *in = gst_buffer_new ();
  gsize total = 0;
  guint i;

  for (i = 0; i < n; i++)
    total += tensor_bytes (&t[i]);
  for (i = 0; i < (one_memory ? 1 : n); i++)
    gst_buffer_append_memory (in, gst_allocator_alloc (NULL,
            one_memory ? total : tensor_bytes (&t[i]), NULL));
  return in;
}

void
ct_check_push_tensors_and_verify (GstHarness * h, const CtCheckTensor * t,
    guint n, gboolean one_memory, const gchar * what)
{
  GstBuffer *in = ct_check_new_tensor_buffer (t, n, one_memory);

  gst_buffer_unref (ct_check_push_tensor_buffer (h, in, t, n, what));
  gst_buffer_unref (in);
}

void
ct_check_all_tensors (GstHarness * h, const gchar * what)
{
  const CtCheckTensor pair[] = { {"4:6:2:1", "float32"}, {"3:3", "int16"} };
  guint ty, sh;

  for (ty = 0; ty < ct_check_n_tensor_types; ty++) {
    for (sh = 0; sh < ct_check_n_tensor_shapes; sh++) {
      CtCheckTensor t = { ct_check_tensor_shapes[sh],
        ct_check_tensor_types[ty]
      };

      gst_harness_set_src_caps (h, ct_check_tensor_caps (&t, 1));
      ct_check_push_tensors_and_verify (h, &t, 1, FALSE, what);
    }
  }
  gst_harness_set_src_caps (h, ct_check_tensor_caps (pair, 2));
  ct_check_push_tensors_and_verify (h, pair, 2, FALSE, what);
  ct_check_push_tensors_and_verify (h, pair, 2, TRUE, what);
}

void
ct_check_push_permuted_and_verify (GstHarness * h, const guint64 dims[4],
    const gchar * type, const guint perm[4], const gchar * what)
{
  guint es = ct_check_tensor_type_size (type);
  guint64 n = dims[0] * dims[1] * dims[2] * dims[3], x[4], ostride[4];
  GstBuffer *in = gst_buffer_new_allocate (NULL, n * es, NULL), *out;
  GstMapInfo im, om;
  guint i, pos[4];

  fail_unless (gst_buffer_map (in, &im, GST_MAP_WRITE));
  fill_random (im.data, im.size);
  gst_buffer_unmap (in, &im);
  ct_check_push_one (h, in);
  out = gst_harness_pull (h);
  fail_unless (out != NULL, "%s: no output", what);

  /* input element x lands at output index sum x[k] * ostride[pos[k]] */
  for (i = 0; i < 4; i++)
    pos[perm[i]] = i;
  ostride[0] = 1;
  for (i = 1; i < 4; i++)
    ostride[i] = ostride[i - 1] * dims[perm[i - 1]];
  fail_unless (gst_buffer_map (in, &im, GST_MAP_READ));
  fail_unless (gst_buffer_map (out, &om, GST_MAP_READ));
  fail_unless_equals_uint64 (om.size, n * es);
  for (x[3] = 0; x[3] < dims[3]; x[3]++)
    for (x[2] = 0; x[2] < dims[2]; x[2]++)
      for (x[1] = 0; x[1] < dims[1]; x[1]++)
        for (x[0] = 0; x[0] < dims[0]; x[0]++) {
          guint64 from = ((x[3] * dims[2] + x[2]) * dims[1] + x[1]) * dims[0]
              + x[0], to = 0;
          for (i = 0; i < 4; i++)
            to += x[i] * ostride[pos[i]];
          if (memcmp (im.data + from * es, om.data + to * es, es) != 0) {
            gst_buffer_unmap (out, &om);
            gst_buffer_unmap (in, &im);
            fail ("%s: %s %" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT ":%"
                G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT " by %u:%u:%u:%u: "
                "input element %" G_GUINT64_FORMAT " misplaced", what, type,
                dims[0], dims[1], dims[2], dims[3], perm[0], perm[1],
                perm[2], perm[3], from);
            return;
          }
        }
  gst_buffer_unmap (out, &om);
  gst_buffer_unmap (in, &im);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

void
ct_check_all_permutations (const gchar * desc)
{
  static const guint64 shapes[][4] = {
    {3, 7, 5, 2}, {1, 17, 1, 3}, {3, 64, 36, 2}, {40, 33, 3, 1},
    {20, 18, 70, 1},
  };
  static const gchar *types[] = { "uint8", "int16", "float32", "float64" };
  guint s, t, q;

  for (q = 0; q < 24; q++) {
    guint perm[4] = { 0, 1, 2, 3 }, rest = q, i;
    gchar *full;
    GstHarness *h;

    /* q in the factorial number system picks one order */
    for (i = 0; i < 4; i++) {
      guint k = rest % (4 - i), v = perm[i + k];
      rest /= 4 - i;
      memmove (&perm[i + 1], &perm[i], k * sizeof (perm[0]));
      perm[i] = v;
    }
    full = g_strdup_printf ("%s permutation=%u:%u:%u:%u", desc, perm[0],
        perm[1], perm[2], perm[3]);
    h = ct_check_harness_new (full, NULL);
    for (s = 0; s < G_N_ELEMENTS (shapes); s++) {
      for (t = 0; t < G_N_ELEMENTS (types); t++) {
        gchar *dims = g_strdup_printf ("%" G_GUINT64_FORMAT ":%"
            G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT,
            shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3]);
        CtCheckTensor tensor = { dims, types[t] };

        gst_harness_set_src_caps (h, ct_check_tensor_caps (&tensor, 1));
        ct_check_push_permuted_and_verify (h, shapes[s], types[t], perm,
            full);
        g_free (dims);
      }
    }
    gst_harness_teardown (h);
    g_free (full);
  }
}

void
ct_check_video_to_chw (const gchar * desc)
{
  static const guint chw[4] = { 1, 2, 0, 3 };

  ct_check_video_to_tensor (desc, chw);
}

void
ct_check_video_to_tensor (const gchar * desc, const guint perm[4])
{
  static const GstVideoFormat formats[] = {
    GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_BGR, GST_VIDEO_FORMAT_RGBA,
    GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBx, GST_VIDEO_FORMAT_BGRx,
  };
  static const gint sizes[][2] = { {1, 1}, {33, 17}, {640, 480},
  {1917, 1083}
  };
  GstHarness *h = ct_check_harness_new (desc, NULL);
  guint f, s, pad;

  gst_harness_set_sink_caps_str (h, "other/tensors,format=static");
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      for (pad = 0; pad <= 5; pad += 5) {
        GstVideoInfo info;
        GstVideoFrame fi;
        GstBuffer *in, *out;
        GstMapInfo om;
        GstCaps *caps;
        gint w = sizes[s][0], hh = sizes[s][1], x, y;
        guint c, ch, i;
        guint64 odims[4], ostride[4], step[4];
        gchar *want;

        fail_unless (gst_video_info_set_format (&info, formats[f], w, hh));
        c = GST_VIDEO_INFO_COMP_PSTRIDE (&info, 0);
        gst_harness_set_src_caps (h, ct_check_caps (formats[f], w, hh));
        in = ct_check_make_frame (&info, pad);
        ct_check_push_one (h, in);
        out = gst_harness_pull (h);
        fail_unless (out != NULL);

        /* the frame is the HWC tensor c:w:hh:1; output dimension i is
         * its dimension perm[i], innermost first */
        {
          const guint64 hwc[4] = { c, (guint64) w, (guint64) hh, 1 };

          for (i = 0; i < 4; i++)
            odims[i] = hwc[perm[i]];
          ostride[0] = 1;
          for (i = 1; i < 4; i++)
            ostride[i] = ostride[i - 1] * odims[i - 1];
          for (i = 0; i < 4; i++)
            step[perm[i]] = ostride[i];
        }
        caps = gst_pad_get_current_caps (h->sinkpad);
        want = g_strdup_printf ("%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT
            ":%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT, odims[0], odims[1],
            odims[2], odims[3]);
        fail_unless_equals_string (gst_structure_get_string
            (gst_caps_get_structure (caps, 0), "dimensions"), want);
        g_free (want);
        gst_caps_unref (caps);

        fail_unless (gst_video_frame_map (&fi, &info, in, GST_MAP_READ));
        fail_unless (gst_buffer_map (out, &om, GST_MAP_READ));
        fail_unless_equals_uint64 (om.size, (guint64) w * hh * c);
        /* byte ch of pixel (x, y) lands at ch * step[0] + x * step[1] +
         * y * step[2] */
        for (ch = 0; ch < c; ch++)
          for (y = 0; y < hh; y++)
            for (x = 0; x < w; x++) {
              const guint8 *px = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA
                  (&fi, 0) + y * GST_VIDEO_FRAME_PLANE_STRIDE (&fi, 0) + x * c;
              if (om.data[ch * step[0] + x * step[1] + y * step[2]] !=
                  px[ch]) {
                gst_buffer_unmap (out, &om);
                gst_video_frame_unmap (&fi);
                fail ("%s: %s %dx%d pad %u by %u:%u:%u:%u: channel %u of "
                    "(%d, %d) differs", desc, GST_VIDEO_INFO_NAME (&info), w,
                    hh, pad, perm[0], perm[1], perm[2], perm[3], ch, x, y);
              }
            }
        gst_buffer_unmap (out, &om);
        gst_video_frame_unmap (&fi);
        gst_buffer_unref (out);
        gst_buffer_unref (in);
      }
    }
  }
  gst_harness_teardown (h);
}

const CtCheckNnsType ct_check_nns_types[] = {
  {"int32", 4}, {"uint32", 4}, {"int16", 2}, {"uint16", 2}, {"int8", 1},
  {"uint8", 1}, {"float64", 8}, {"float32", 4}, {"int64", 8}, {"uint64", 8},
  {"float16", 2},
};
const guint ct_check_n_nns_types = G_N_ELEMENTS (ct_check_nns_types);

void
ct_check_nns_write_meta (guint8 * header, guint32 magic, guint type,
    const guint * dims, guint rank, guint format)
{
  guint32 w[21] = { magic, 0xde001000, type };
  guint i;

  for (i = 0; i < rank; i++)
    w[3 + i] = dims[i];
  w[19] = format;
  w[20] = 4;                    /* media type: tensor */
  memset (header, 0, CT_CHECK_NNS_HEADER);
  memcpy (header, w, sizeof (w));
}
