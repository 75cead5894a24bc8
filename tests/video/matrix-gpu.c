/* The GPU matrix: cudatranspose on the GPU against its own CPU path
 * (kernel=cpu, which the CPU tests hold against videoflip), byte for byte,
 * over every video format it takes, all eight directions, sizes from 1x1
 * to 4K, system memory and CUDA memory in and out, and every GPU kernel on
 * a subset. Exits 77 (skipped) without a CUDA device or without nvcodec's
 * cudaupload and cudadownload.
 *
 * Each format is a test of its own (a process, and check's timeout, per
 * format): its references are made once per size and direction, on the
 * CPU, and every memory kind and kernel is compared with them there. The
 * counts go to memory shared with every test process; the last test
 * prints them and checks that the whole matrix ran. */
#include "transpose-check.h"
#include "gpu-check.h"

#include <gst/cuda/gstcudamemory.h>
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

/* A format as the caps name it; @cuda: offered in CUDA memory; @kernels:
 * one of the subset every GPU kernel runs on. */
typedef struct
{
  const gchar *name;
  gboolean cuda;
  gboolean kernels;
} MatrixFormat;

/* CUDA_TRANSPOSE_FORMATS, in its order, with CUDA_TRANSPOSE_CUDA_FORMATS
 * marked (gst/gstcudatranspose.c; test_matrix_formats holds them to the
 * element's pad template). */
static const MatrixFormat formats[] = {
  {"GRAY8", FALSE, TRUE}, {"GRAY16_LE", FALSE, TRUE},
  {"GRAY16_BE", FALSE, FALSE}, {"I420", TRUE, TRUE}, {"YV12", TRUE, FALSE},
  {"IYUV", FALSE, FALSE}, {"NV12", TRUE, TRUE}, {"NV21", TRUE, FALSE},
  {"Y444", TRUE, FALSE}, {"RGBA", TRUE, TRUE}, {"BGRA", TRUE, FALSE},
  {"ARGB", TRUE, FALSE}, {"ABGR", TRUE, FALSE}, {"RGBx", TRUE, FALSE},
  {"BGRx", TRUE, FALSE}, {"xRGB", FALSE, FALSE}, {"xBGR", FALSE, FALSE},
  {"RGB", TRUE, TRUE}, {"BGR", TRUE, FALSE}, {"AYUV", FALSE, FALSE},
  {"YUY2", TRUE, TRUE}, {"UYVY", TRUE, FALSE}, {"YVYU", FALSE, FALSE},
  {"I420_10LE", TRUE, FALSE}, {"I420_10BE", FALSE, FALSE},
  {"I420_12LE", FALSE, FALSE}, {"I420_12BE", FALSE, FALSE},
  {"I422_10LE", TRUE, FALSE}, {"I422_10BE", FALSE, FALSE},
  {"I422_12LE", TRUE, FALSE}, {"I422_12BE", FALSE, FALSE},
  {"Y444_10LE", FALSE, FALSE}, {"Y444_10BE", FALSE, FALSE},
  {"Y444_12LE", FALSE, FALSE}, {"Y444_12BE", FALSE, FALSE},
  {"P010_10LE", TRUE, TRUE}, {"P012_LE", FALSE, FALSE},
  {"P016_LE", TRUE, FALSE}, {"Y444_16LE", TRUE, TRUE}, {"GBR", TRUE, FALSE},
  {"GBRA", TRUE, FALSE}, {"GBR_10LE", FALSE, FALSE},
  {"GBR_12LE", FALSE, FALSE}, {"VUYA", FALSE, FALSE},
  {"RGBA64_LE", FALSE, TRUE}, {"BGR10A2_LE", TRUE, FALSE},
  {"RGB10A2_LE", TRUE, FALSE}, {"RGBP", FALSE, FALSE},
  {"BGRP", FALSE, FALSE},
};

/* Width x height: a pixel; 2x3, whose packed 4:2:2 goes in CUDA memory
 * only where the axes stay; Nx1 and 1xN; ragged tiles; odd 1080p; odd
 * and large enough that 4-byte pixels in system memory stream
 * (stream-words); 4K.
 * @kernels: a size of the kernel subset. */
static const struct
{
  gint width, height;
  gboolean kernels;
} sizes[] = {
  {1, 1, FALSE}, {2, 3, FALSE}, {37, 1, FALSE}, {1, 37, FALSE},
  {33, 17, TRUE}, {127, 129, TRUE}, {1917, 1083, TRUE}, {2561, 1441, FALSE},
  {3840, 2160, FALSE},
};

/* The directions that keep the axes first, then those that swap them: a
 * harness kept across a size changes its output caps once. */
static const GstVideoOrientationMethod directions[] = {
  GST_VIDEO_ORIENTATION_IDENTITY, GST_VIDEO_ORIENTATION_180,
  GST_VIDEO_ORIENTATION_HORIZ, GST_VIDEO_ORIENTATION_VERT,
  GST_VIDEO_ORIENTATION_90R, GST_VIDEO_ORIENTATION_90L,
  GST_VIDEO_ORIENTATION_UL_LR, GST_VIDEO_ORIENTATION_UR_LL,
};

typedef enum
{
  KIND_SYSTEM,                  /* system memory in and out */
  KIND_CUDA,                    /* CUDA memory in and out */
  KIND_FALLBACK,                /* the CUDA chain where none is offered:
                                 * its pads checked, not its bytes */
  KIND_KERNEL,                  /* a named GPU kernel, system memory */
  N_KINDS
} Kind;

/* What a mismatch says of the memory, and what the summary calls each. */
static const gchar *const kind_memory[N_KINDS] = {
  "system memory", "CUDA memory", "CUDA memory refused", "system memory",
};
static const gchar *const kind_labels[N_KINDS] = {
  "system", "CUDA memory", "CUDA memory refused", "kernels",
};

/* Comparisons made, by kind, and wrong ones. */
typedef struct
{
  gint made[N_KINDS];
  gint wrong;
} Tally;

/* Mapped shared before check forks the tests, so that every test's counts
 * reach the last one (and the first 20 mismatches are printed in all). */
static Tally *tally;

#define MAX_PRINTED 20

/* One (format, size) of the matrix and its input frame. */
typedef struct
{
  const MatrixFormat *format;
  gint width, height;
  GstVideoInfo info;            /* IYUV's is I420's: the same layout */
  GstBuffer *in;
} Case;

static const gchar *
direction_nick (GstVideoOrientationMethod method)
{
  static GEnumClass *klass;
  GEnumValue *v;

  /* (referenced once, for the process: its nicks stay) */
  if (!klass)
    klass = g_type_class_ref (GST_TYPE_VIDEO_ORIENTATION_METHOD);
  v = g_enum_get_value (klass, method);
  return v ? v->value_nick : "?";
}

static GstVideoFormat
format_layout (const gchar * name)
{
  /* GstVideoInfo does not know IYUV, I420 under another name */
  if (g_str_equal (name, "IYUV"))
    return GST_VIDEO_FORMAT_I420;
  return gst_video_format_from_string (name);
}

static GstCaps *
case_caps (const Case * c)
{
  GstCaps *caps = ct_check_caps (GST_VIDEO_INFO_FORMAT (&c->info), c->width,
      c->height);

  gst_caps_set_simple (caps, "format", G_TYPE_STRING, c->format->name, NULL);
  return caps;
}

/* Whether the element takes CUDA memory on a side of @c whose frames are
 * @width x @height: its CUDA formats, but not packed 4:2:2 of an odd
 * width, whose last chroma byte GStreamer's CUDA copies drop, nor (from
 * GStreamer 1.24 on, whose CUDA allocator rounds NV12's height up but not
 * NV21's) NV21 of an odd height, whose last chroma row it leaves out. */
static gboolean
side_in_cuda (const Case * c, gint width, gint height)
{
  GstVideoFormat format = GST_VIDEO_INFO_FORMAT (&c->info);

  return c->format->cuda &&
      !(ct_check_is_packed_422 (format) && (width & 1)) &&
      !(GST_CHECK_VERSION (1, 24, 0) && format == GST_VIDEO_FORMAT_NV21 &&
      (height & 1));
}

/* Whether the element offers CUDA memory on both sides for @c under
 * @method. */
static gboolean
cuda_offered (const Case * c, GstVideoOrientationMethod method)
{
  gboolean swaps = ct_check_direction_swaps (method);

  return side_in_cuda (c, c->width, c->height) &&
      side_in_cuda (c, swaps ? c->height : c->width,
      swaps ? c->width : c->height);
}

/* Fails unless @element's src pad negotiated @c's format at @out's size:
 * a direction set between pushes has taken effect. */
static void
assert_out_caps (GstElement * element, const Case * c,
    const GstVideoInfo * out, const gchar * what)
{
  GstPad *pad = gst_element_get_static_pad (element, "src");
  GstCaps *caps = gst_pad_get_current_caps (pad);
  GstStructure *s;
  gint w = 0, h = 0;

  fail_unless (caps != NULL, "%s: src pad not negotiated", what);
  s = gst_caps_get_structure (caps, 0);
  if (!gst_structure_get_int (s, "width", &w) ||
      !gst_structure_get_int (s, "height", &h) ||
      w != GST_VIDEO_INFO_WIDTH (out) || h != GST_VIDEO_INFO_HEIGHT (out) ||
      g_strcmp0 (gst_structure_get_string (s, "format"),
          c->format->name) != 0) {
    gchar *str = gst_caps_to_string (caps);

    fail ("%s: output caps %s, not %s %dx%d", what, str, c->format->name,
        GST_VIDEO_INFO_WIDTH (out), GST_VIDEO_INFO_HEIGHT (out));
  }
  gst_caps_unref (caps);
  gst_object_unref (pad);
}

/* Pushes @c's frame through @h and returns what comes out, after checking
 * its caps on @element (the transpose in @h). */
static GstBuffer *
push_pull (GstHarness * h, GstElement * element, const Case * c,
    const GstVideoInfo * out_info, const gchar * what)
{
  GstBuffer *out;

  ct_check_push_one (h, c->in);
  out = gst_harness_pull (h);
  fail_unless (out != NULL, "%s: no output", what);
  assert_out_caps (element, c, out_info, what);
  return out;
}

/* Fails unless @element ran on the GPU (@gpu) or on the CPU: a direction
 * that is no passthrough sets active-kernel. */
static void
assert_ran_on (GstElement * element, gboolean gpu, const gchar * what)
{
  gchar *active = ct_check_active_kernel (element);

  if (gpu)
    fail_if (g_str_equal (active, "cpu") || g_str_equal (active, "none"),
        "%s: ran on %s, not on the GPU", what, active);
  else
    fail_unless (g_str_equal (active, "cpu"), "%s: the reference ran on "
        "%s, not on the CPU", what, active);
  g_free (active);
}

/* Compares @got with @want, @out_info frames, plane by plane and row by
 * row over the visible bytes (strides may differ); counts the comparison
 * as @kind and prints a mismatch among the first MAX_PRINTED. */
static void
compare (const Case * c, GstVideoOrientationMethod method, Kind kind,
    const gchar * kernel, const GstVideoInfo * out_info, GstBuffer * want,
    GstBuffer * got, Tally * local)
{
  gboolean packed_422 = ct_check_is_packed_422 (GST_VIDEO_INFO_FORMAT
      (out_info));
  GstVideoFrame fw, fg;
  guint p, y;
  gsize i;

  fail_unless (gst_video_frame_map (&fw, (GstVideoInfo *) out_info, want,
          GST_MAP_READ), "the reference does not map as %s %dx%d",
      c->format->name, GST_VIDEO_INFO_WIDTH (out_info),
      GST_VIDEO_INFO_HEIGHT (out_info));
  fail_unless (gst_video_frame_map (&fg, (GstVideoInfo *) out_info, got,
          GST_MAP_READ), "%s %dx%d %s, %s, kernel %s: the output does not "
      "map", c->format->name, c->width, c->height, direction_nick (method),
      kind_memory[kind], kernel);
  local->made[kind]++;
  g_atomic_int_inc (&tally->made[kind]);

  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (out_info); p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    guint rows;
    gsize row;

    gst_video_format_info_component (out_info->finfo, p, comp);
    rows = GST_VIDEO_INFO_COMP_HEIGHT (out_info, comp[0]);
    /* packed 4:2:2: whole macropixels, the chroma of an odd width's last
     * pixel included */
    row = packed_422 ? (gsize) GST_ROUND_UP_2 (GST_VIDEO_INFO_WIDTH
        (out_info)) * 2 : (gsize) GST_VIDEO_INFO_COMP_WIDTH (out_info,
        comp[0]) * GST_VIDEO_INFO_COMP_PSTRIDE (out_info, comp[0]);
    for (y = 0; y < rows; y++) {
      const guint8 *rw = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fw,
          p) + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&fw, p);
      const guint8 *rg = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fg,
          p) + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&fg, p);

      if (memcmp (rw, rg, row) == 0)
        continue;
      i = 0;
      while (rw[i] == rg[i])
        i++;
      local->wrong++;
      if (g_atomic_int_add (&tally->wrong, 1) < MAX_PRINTED)
        g_print ("mismatch: %s %dx%d %s, %s, kernel %s: plane %u row %u "
            "byte %" G_GSIZE_FORMAT " is 0x%02x, the CPU's 0x%02x\n",
            c->format->name, c->width, c->height, direction_nick (method),
            kind_memory[kind], kernel, p, y, i, rg[i], rw[i]);
      goto done;
    }
  }
done:
  gst_video_frame_unmap (&fg);
  gst_video_frame_unmap (&fw);
}

/* A harness of the element alone, its output in (poisoned) system
 * memory. */
static GstHarness *
element_new (const gchar * desc)
{
  GstHarness *h = ct_check_harness_new (desc, NULL);

  gst_harness_set_sink_caps_str (h, "video/x-raw");
  return h;
}

/* cudaupload ! cudatranspose ! cudadownload, ending in system memory, for
 * one (format, size) and the memory kind expected (@cuda); a direction
 * that expects the other kind gets a chain of its own, rather than
 * renegotiating cudaupload's side. */
typedef struct
{
  GstHarness *h;
  GstElement *t;
  gint cuda;                    /* CUDA memory in (1) and out (2) */
} Chain;

static void
chain_open (Chain * chain, const Case * c, gint cuda)
{
  chain->h = ct_check_harness_new ("cudaupload ! cudatranspose name=t ! "
      "cudadownload", NULL);
  gst_harness_set_sink_caps_str (chain->h, "video/x-raw");
  chain->t = gst_bin_get_by_name (GST_BIN (chain->h->element), "t");
  fail_unless (chain->t != NULL);
  chain->cuda = cuda;
  gst_harness_set_src_caps (chain->h, case_caps (c));
}

static void
chain_close (Chain * chain)
{
  if (!chain->h)
    return;
  gst_object_unref (chain->t);
  gst_harness_teardown (chain->h);
  chain->h = NULL;
  chain->t = NULL;
}

/* The CUDA chain on @c under @method against @want: CUDA memory on each
 * of the element's pads where it takes it there, system memory where
 * not. */
static void
run_chain (Chain * chain, const Case * c, GstVideoOrientationMethod method,
    const GstVideoInfo * out_info, GstBuffer * want, Tally * local)
{
  gboolean cuda = cuda_offered (c, method);
  gboolean in_cuda = side_in_cuda (c, c->width, c->height);
  /* (where cudaupload must give system memory, the output follows it:
   * cudadownload takes either) */
  gboolean out_cuda = in_cuda && side_in_cuda (c,
      GST_VIDEO_INFO_WIDTH (out_info), GST_VIDEO_INFO_HEIGHT (out_info));
  gint sides = (in_cuda ? 1 : 0) | (out_cuda ? 2 : 0);
  gchar *what = g_strdup_printf ("%s %dx%d %s, CUDA chain", c->format->name,
      c->width, c->height, direction_nick (method));
  GstBuffer *out;

  if (chain->h && chain->cuda != sides)
    chain_close (chain);
  if (!chain->h)
    chain_open (chain, c, sides);
  g_object_set (chain->t, "video-direction", method, NULL);
  out = push_pull (chain->h, chain->t, c, out_info, what);
  fail_unless (ct_check_pad_has_cuda_memory (chain->t, "sink") == in_cuda,
      "%s: %s memory in", what, in_cuda ? "system" : "CUDA");
  fail_unless (ct_check_pad_has_cuda_memory (chain->t, "src") == out_cuda,
      "%s: %s memory out", what, out_cuda ? "system" : "CUDA");
  if (method != GST_VIDEO_ORIENTATION_IDENTITY)
    assert_ran_on (chain->t, TRUE, what);
  if (cuda) {
    compare (c, method, KIND_CUDA, "auto", out_info, want, out, local);
  } else {
    /* cudaupload and cudadownload themselves copy width x 2 bytes a row
     * of packed 4:2:2, in system memory too, so no chain through them
     * carries an odd width's last chroma byte; NV21 of odd height (1.24
     * on) goes through in system memory: the pads are what is checked
     * (the element's own system-memory path is compared above) */
    local->made[KIND_FALLBACK]++;
    g_atomic_int_inc (&tally->made[KIND_FALLBACK]);
  }
  gst_buffer_unref (out);
  g_free (what);
}

/* One harness (one element) per kernel, kept over a format's sizes. */
typedef struct
{
  GstHarness *ref;              /* kernel=cpu */
  GstHarness *sys;              /* kernel=auto */
  GstHarness **kernels;         /* each GPU kernel, for the subset */
  const gchar *const *nicks;
  guint n_kernels;
} Harnesses;

/* Every direction on @c: the reference once, then each memory kind and
 * kernel against it. */
static void
run_case (Harnesses * hs, const Case * c, gboolean with_kernels,
    Tally * local)
{
  Chain chain = { NULL, NULL, FALSE };
  guint d, k;

  gst_harness_set_src_caps (hs->ref, case_caps (c));
  gst_harness_set_src_caps (hs->sys, case_caps (c));
  for (k = 0; with_kernels && k < hs->n_kernels; k++)
    gst_harness_set_src_caps (hs->kernels[k], case_caps (c));

  for (d = 0; d < G_N_ELEMENTS (directions); d++) {
    GstVideoOrientationMethod method = directions[d];
    gboolean moves = method != GST_VIDEO_ORIENTATION_IDENTITY;
    gchar *what = g_strdup_printf ("%s %dx%d %s", c->format->name, c->width,
        c->height, direction_nick (method));
    GstVideoInfo out_info;
    GstBuffer *want, *out;

    ct_check_out_info (&c->info, method, &out_info);
    g_object_set (hs->ref->element, "video-direction", method, NULL);
    want = push_pull (hs->ref, hs->ref->element, c, &out_info, what);
    if (moves)
      assert_ran_on (hs->ref->element, FALSE, what);

    g_object_set (hs->sys->element, "video-direction", method, NULL);
    out = push_pull (hs->sys, hs->sys->element, c, &out_info, what);
    fail_if (ct_check_pad_has_cuda_memory (hs->sys->element, "src"),
        "%s: CUDA memory out of the system memory harness", what);
    if (moves)
      assert_ran_on (hs->sys->element, TRUE, what);
    compare (c, method, KIND_SYSTEM, "auto", &out_info, want, out, local);
    gst_buffer_unref (out);

    if (c->format->cuda)
      run_chain (&chain, c, method, &out_info, want, local);

    for (k = 0; with_kernels && k < hs->n_kernels; k++) {
      GstElement *e = hs->kernels[k]->element;

      g_object_set (e, "video-direction", method, NULL);
      out = push_pull (hs->kernels[k], e, c, &out_info, what);
      if (moves)
        assert_ran_on (e, TRUE, what);
      compare (c, method, KIND_KERNEL, hs->nicks[k], &out_info, want, out,
          local);
      gst_buffer_unref (out);
    }
    gst_buffer_unref (want);
    g_free (what);
  }
  chain_close (&chain);
}

/* One format of the matrix: every size, direction, memory kind and (for
 * the subset) kernel. */
GST_START_TEST (test_matrix)
{
  const MatrixFormat *f = &formats[__i__];
  GstVideoFormat layout = format_layout (f->name);
  gint64 start = g_get_monotonic_time ();
  Harnesses hs = { NULL, NULL, NULL, NULL, 0 };
  Tally local;
  guint s, k;

  fail_if (layout == GST_VIDEO_FORMAT_UNKNOWN, "unknown format %s", f->name);
  memset (&local, 0, sizeof (local));
  hs.ref = element_new ("cudatranspose kernel=cpu");
  hs.sys = element_new ("cudatranspose");
  if (f->kernels) {
    hs.nicks = ct_check_kernel_nicks (TRUE, &hs.n_kernels);
    hs.kernels = g_new0 (GstHarness *, hs.n_kernels);
    for (k = 0; k < hs.n_kernels; k++) {
      gchar *desc = g_strdup_printf ("cudatranspose kernel=%s", hs.nicks[k]);

      hs.kernels[k] = element_new (desc);
      g_free (desc);
    }
  }

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    Case c;

    memset (&c, 0, sizeof (c));
    c.format = f;
    c.width = sizes[s].width;
    c.height = sizes[s].height;
    fail_unless (gst_video_info_set_format (&c.info, layout, c.width,
            c.height));
    c.in = ct_check_make_frame (&c.info, 0);
    run_case (&hs, &c, f->kernels && sizes[s].kernels, &local);
    gst_buffer_unref (c.in);
  }

  for (k = 0; k < hs.n_kernels; k++)
    gst_harness_teardown (hs.kernels[k]);
  g_free (hs.kernels);
  gst_harness_teardown (hs.sys);
  gst_harness_teardown (hs.ref);

  g_print ("matrix %s: %d system, %d CUDA memory, %d CUDA memory refused "
      "(pads checked), %d kernels, %d wrong (%.1f s)\n", f->name,
      local.made[KIND_SYSTEM], local.made[KIND_CUDA],
      local.made[KIND_FALLBACK], local.made[KIND_KERNEL], local.wrong,
      (g_get_monotonic_time () - start) / 1e6);
  fail_unless (local.wrong == 0, "%s: %d comparisons with the CPU wrong "
      "(the first %d of the matrix are printed)", f->name, local.wrong,
      MAX_PRINTED);
}

GST_END_TEST;

/* Adds the format names of @v (a string or a list) to @set. */
static void
add_format_names (GHashTable * set, const GValue * v)
{
  guint i;

  if (G_VALUE_HOLDS_STRING (v)) {
    g_hash_table_add (set, g_value_dup_string (v));
    return;
  }
  fail_unless (GST_VALUE_HOLDS_LIST (v), "a format field of %s",
      G_VALUE_TYPE_NAME (v));
  for (i = 0; i < gst_value_list_get_size (v); i++)
    add_format_names (set, gst_value_list_get_value (v, i));
}

/* Fails unless @set holds exactly the formats of the table (@cuda: those
 * offered in CUDA memory). */
static void
assert_same_formats (GHashTable * set, gboolean cuda, const gchar * what)
{
  guint i, n = 0;

  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    if (cuda && !formats[i].cuda)
      continue;
    fail_unless (g_hash_table_contains (set, formats[i].name),
        "%s: the element does not take %s", what, formats[i].name);
    n++;
  }
  fail_unless_equals_int (g_hash_table_size (set), n);
}

/* The formats the element takes only into tensors (test-matrix-yuv's,
 * not this matrix's: as video they are refused). */
static const gchar *const tensor_only[] = { "Y42B", "NV16", "NV24" };

/* The matrix covers what the element takes: its sink template's video
 * formats but those that go out only as tensors, and those it offers in
 * CUDA memory. */
GST_START_TEST (test_matrix_formats)
{
  GstElementFactory *factory = gst_element_factory_find ("cudatranspose");
  GHashTable *system = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, NULL);
  GHashTable *cuda = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  const GList *l;
  guint i;

  fail_unless (factory != NULL);
  for (l = gst_element_factory_get_static_pad_templates (factory); l;
      l = l->next) {
    GstStaticPadTemplate *t = l->data;
    GstCaps *caps;

    if (t->direction != GST_PAD_SINK)
      continue;
    caps = gst_static_caps_get (&t->static_caps);
    for (i = 0; i < gst_caps_get_size (caps); i++) {
      GstStructure *s = gst_caps_get_structure (caps, i);

      if (!gst_structure_has_name (s, "video/x-raw"))
        continue;
      add_format_names (gst_caps_features_contains (gst_caps_get_features
              (caps, i), GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY) ? cuda :
          system, gst_structure_get_value (s, "format"));
    }
    gst_caps_unref (caps);
  }
  for (i = 0; i < G_N_ELEMENTS (tensor_only); i++)
    fail_unless (g_hash_table_remove (system, tensor_only[i]),
        "the element does not take %s into tensors", tensor_only[i]);
  assert_same_formats (system, FALSE, "system memory");
  assert_same_formats (cuda, TRUE, "CUDA memory");
  g_hash_table_unref (cuda);
  g_hash_table_unref (system);
  gst_object_unref (factory);
}

GST_END_TEST;

/* The comparisons the whole matrix makes, by kind. */
static void
expected_counts (gint made[N_KINDS])
{
  guint n_kernels = ct_check_n_kernel_nicks (TRUE);
  guint f, s, d;

  memset (made, 0, sizeof (gint) * N_KINDS);
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      Case c;

      memset (&c, 0, sizeof (c));
      c.format = &formats[f];
      c.width = sizes[s].width;
      c.height = sizes[s].height;
      fail_unless (gst_video_info_set_format (&c.info,
              format_layout (formats[f].name), c.width, c.height));
      for (d = 0; d < G_N_ELEMENTS (directions); d++) {
        made[KIND_SYSTEM]++;
        if (formats[f].cuda)
          made[cuda_offered (&c, directions[d]) ? KIND_CUDA :
              KIND_FALLBACK]++;
        if (formats[f].kernels && sizes[s].kernels)
          made[KIND_KERNEL] += n_kernels;
      }
    }
  }
}

/* Last: the counts of every test above, and whether all of it ran. */
GST_START_TEST (test_matrix_summary)
{
  gint want[N_KINDS], total = 0, i;

  expected_counts (want);
  for (i = 0; i < N_KINDS; i++)
    total += g_atomic_int_get (&tally->made[i]);
  g_print ("matrix: %d checks (%d system, %d CUDA memory, %d CUDA memory "
      "refused, pads only, %d kernels), %d wrong\n", total,
      tally->made[KIND_SYSTEM], tally->made[KIND_CUDA],
      tally->made[KIND_FALLBACK], tally->made[KIND_KERNEL], tally->wrong);
  fail_unless (tally->wrong == 0, "%d comparisons with the CPU wrong",
      tally->wrong);
  for (i = 0; i < N_KINDS; i++)
    fail_unless (tally->made[i] == want[i], "%d comparisons (%s), not %d: "
        "part of the matrix did not run", tally->made[i], kind_labels[i],
        want[i]);
}

GST_END_TEST;

static Suite *
matrix_suite (void)
{
  Suite *s = suite_create ("matrix");
  TCase *tc = tcase_create ("matrix");

  tally = mmap (NULL, sizeof (Tally), PROT_READ | PROT_WRITE,
      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (tally == MAP_FAILED)
    g_error ("no shared memory for the counts: %s", g_strerror (errno));
  ct_check_seed ();
  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_matrix_formats);
  tcase_add_loop_test (tc, test_matrix, 0, G_N_ELEMENTS (formats));
  tcase_add_test (tc, test_matrix_summary);
  return s;
}

int
main (int argc, char **argv)
{
  const gchar *needed[] = { "cudaupload", "cudadownload", NULL };

  /* (as CT_CHECK_GPU_MAIN, and nvcodec's elements for the CUDA chain) */
  if (!ct_check_have_cuda_device ())
    return 77;
  gst_check_init (&argc, &argv);
  if (!ct_check_have_factories (needed))
    return 77;
  return gst_check_run_suite (matrix_suite (), "matrix", __FILE__);
}
