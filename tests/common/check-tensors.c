/* Tensors (NNStreamer's other/tensors): types, shapes and caps, random
 * buffers, the transpose and permutation references and the asserts built
 * on them, and video frames that come out as tensors. */
#include "transpose-check.h"
#include "permute-reference.h"

#include <string.h>

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
    ct_check_fill_random (map.data, map.size);
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
  guint64 n = dims[0] * dims[1] * dims[2] * dims[3], x[4], odims[4], step[4];
  GstBuffer *in = gst_buffer_new_allocate (NULL, n * es, NULL), *out;
  GstMapInfo im, om;
  guint i;

  fail_unless (gst_buffer_map (in, &im, GST_MAP_WRITE));
  ct_check_fill_random (im.data, im.size);
  gst_buffer_unmap (in, &im);
  ct_check_push_one (h, in);
  out = gst_harness_pull (h);
  fail_unless (out != NULL, "%s: no output", what);

  /* input element x lands at output index sum x[k] * step[k] */
  ct_ref_permuted_layout (dims, perm, odims, step);
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
            to += x[i] * step[i];
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
ct_check_nth_permutation (guint q, guint perm[4])
{
  guint rest = q, i;

  /* q in the factorial number system picks one order */
  for (i = 0; i < 4; i++)
    perm[i] = i;
  for (i = 0; i < 4; i++) {
    guint k = rest % (4 - i), v = perm[i + k];

    rest /= 4 - i;
    memmove (&perm[i + 1], &perm[i], k * sizeof (perm[0]));
    perm[i] = v;
  }
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
    guint perm[4];
    gchar *full;
    GstHarness *h;

    ct_check_nth_permutation (q, perm);
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

guint
ct_check_rgb_channels (const GstVideoInfo * info)
{
  return GST_VIDEO_INFO_N_PLANES (info) > 1 ? GST_VIDEO_INFO_N_PLANES (info)
      : (guint) GST_VIDEO_INFO_COMP_PSTRIDE (info, 0);
}

guint8
ct_check_rgb_byte (const GstVideoFrame * f, guint ch, guint x, guint y)
{
  const gboolean planar = GST_VIDEO_FRAME_N_PLANES (f) > 1;
  const guint plane = planar ? ch : 0;
  const guint8 *row = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (f, plane)
      + y * GST_VIDEO_FRAME_PLANE_STRIDE (f, plane);

  return planar ? row[x] : row[x * ct_check_rgb_channels (&f->info) + ch];
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
    GST_VIDEO_FORMAT_RGBP, GST_VIDEO_FORMAT_BGRP, GST_VIDEO_FORMAT_GBR,
  };
  /* odd sizes: GStreamer pads each row (plane) to 4 bytes */
  static const gint sizes[][2] = { {1, 1}, {33, 17}, {67, 35}, {1, 9},
  {9, 1}, {640, 480}, {1917, 1083}
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
        guint c, ch;
        guint64 odims[4], step[4];
        gchar *want;

        fail_unless (gst_video_info_set_format (&info, formats[f], w, hh));
        c = ct_check_rgb_channels (&info);
        gst_harness_set_src_caps (h, ct_check_caps (formats[f], w, hh));
        in = ct_check_make_frame (&info, pad);
        ct_check_push_one (h, in);
        out = gst_harness_pull (h);
        fail_unless (out != NULL);

        /* the frame is the HWC tensor c:w:hh:1; output dimension i is
         * its dimension perm[i], innermost first */
        {
          const guint64 hwc[4] = { c, (guint64) w, (guint64) hh, 1 };

          ct_ref_permuted_layout (hwc, perm, odims, step);
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
        /* byte ch of pixel (x, y) (planar: of plane ch) lands at
         * ch * step[0] + x * step[1] + y * step[2] */
        for (ch = 0; ch < c; ch++)
          for (y = 0; y < hh; y++)
            for (x = 0; x < w; x++) {
              guint8 want_byte = ct_check_rgb_byte (&fi, ch, x, y);

              if (om.data[ch * step[0] + x * step[1] + y * step[2]] !=
                  want_byte) {
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
