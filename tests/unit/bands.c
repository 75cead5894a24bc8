/* The frame job's bands (gst/gstcudatransposejob.c) on their own, on the
 * CPU: for every plane layout, direction, awkward size and band size, the
 * bands cover each plane's rows once and in order, their outputs start on
 * a 16-element step, and a frame run band by band through the CPU loop
 * equals the check library's model of the direction, element for element,
 * into output poisoned first. The GPU runs the same bands (video-gpu's
 * test_gpu_bands); this checks their arithmetic where CI has no GPU.
 * Random data (the seed is printed; CT_CHECK_SEED repeats it). */
#include "transpose-check.h"
#include "gstcudatransposejob.h"

#include <string.h>

#define POISON 0xa5

static const GstVideoFormat formats[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_I420,
  GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_RGBA,
  GST_VIDEO_FORMAT_RGBA64_LE, GST_VIDEO_FORMAT_P010_10LE,
  GST_VIDEO_FORMAT_GBRA, GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_I422_10LE,
};

/* each mapping, and the direction whose model (the check library's) it
 * is checked against */
static const struct
{
  CtMapping mapping;
  GstVideoOrientationMethod method;
} mappings[] = {
  {CT_MAPPING_TRANSPOSE, GST_VIDEO_ORIENTATION_UL_LR},
  {CT_MAPPING_ROTATE_90R, GST_VIDEO_ORIENTATION_90R},
  {CT_MAPPING_ROTATE_90L, GST_VIDEO_ORIENTATION_90L},
  {CT_MAPPING_ANTI_TRANSPOSE, GST_VIDEO_ORIENTATION_UR_LL},
  {CT_MAPPING_IDENTITY, GST_VIDEO_ORIENTATION_IDENTITY},
  {CT_MAPPING_FLIP_HORIZONTAL, GST_VIDEO_ORIENTATION_HORIZ},
  {CT_MAPPING_FLIP_VERTICAL, GST_VIDEO_ORIENTATION_VERT},
  {CT_MAPPING_ROTATE_180, GST_VIDEO_ORIENTATION_180},
};

static const gint sizes[][2] = {
  {1, 1}, {1, 37}, {37, 1}, {130, 71}, {67, 261}, {321, 240}, {16, 48},
};

static const gsize band_sizes[] = { 1, 1000, 4096, 65536, 1 << 20 };

static gboolean
has_resampled_422 (const CtJob * job)
{
  guint p;

  for (p = 0; p < job->n_planes; p++)
    if (job->planes[p].is_422)
      return TRUE;
  return FALSE;
}

/* One job, one band size: the bands' shape, then the frame through them. */
static void
check_bands (const CtJob * job, GstVideoOrientationMethod method,
    gsize band_bytes, const gchar * what)
{
  CtBand bands[CT_JOB_MAX_BANDS];
  CtSpan in[CT_JOB_MAX_PIECES], out[CT_JOB_MAX_PIECES];
  gboolean keep = (job->mapping & CT_MAPPING_KEEP_AXES) != 0;
  gsize next_row[CT_JOB_MAX_PIECES] = { 0 };
  guint n, i, p;

  n = ct_job_bands (job, band_bytes, bands, CT_JOB_MAX_BANDS);
  if (has_resampled_422 (job)) {
    fail_unless_equals_int (n, 0);
    return;
  }
  fail_unless (n >= job->n_planes && n <= CT_JOB_MAX_BANDS,
      "%s: %u bands", what, n);

  /* each plane's rows, once, in order; outputs on a step */
  for (i = 0; i < n; i++) {
    const CtBand *b = &bands[i];
    const CtPlaneGeometry *g = &job->planes[b->piece];
    gsize start = keep ? b->out_y : b->out_x / g->elem_size;

    fail_unless (b->piece < job->n_planes, "%s: band %u", what, i);
    fail_unless (i == 0 || b->piece >= bands[i - 1].piece,
        "%s: band %u goes back a plane", what, i);
    fail_unless (b->first == next_row[b->piece] && b->rows > 0,
        "%s: band %u starts at row %" G_GSIZE_FORMAT ", not %" G_GSIZE_FORMAT,
        what, i, b->first, next_row[b->piece]);
    next_row[b->piece] += b->rows;
    fail_unless (start % 16 == 0, "%s: band %u's output starts at %"
        G_GSIZE_FORMAT, what, i, start);
    fail_unless (keep || b->out_x % g->elem_size == 0);
  }
  for (p = 0; p < job->n_planes; p++)
    fail_unless (next_row[p] == job->planes[p].height, "%s: plane %u: "
        "%" G_GSIZE_FORMAT " rows in bands of %u", what, p, next_row[p],
        job->planes[p].height);

  /* the frame band by band on the CPU, against the model */
  for (p = 0; p < job->n_pieces; p++) {
    gsize in_bytes = job->in[p].pitch * job->in[p].rows;
    gsize out_bytes = job->out[p].pitch * job->out[p].rows, k;

    in[p].data = g_malloc (in_bytes);
    in[p].stride = job->in[p].pitch;
    for (k = 0; k < in_bytes; k++)
      in[p].data[k] = (guint8) ct_check_random ();
    out[p].data = g_malloc (out_bytes);
    out[p].stride = job->out[p].pitch;
    memset (out[p].data, POISON, out_bytes);
  }
  for (i = 0; i < n; i++) {
    CtPlaneBatch b;

    ct_job_band_plane (job, &bands[i], &in[bands[i].piece],
        &out[bands[i].piece], &b);
    fail_unless_equals_int (ct_transpose_batches_cpu (&b, 1, job->mapping),
        CT_OK);
  }
  for (p = 0; p < job->n_pieces; p++) {
    const CtPlaneGeometry *g = &job->planes[p];
    guint x, y, ox, oy, bad = 0;

    for (y = 0; y < g->height; y++) {
      for (x = 0; x < g->width; x++) {
        ct_check_oriented_point (method, g->width, g->height, x, y, &ox,
            &oy);
        bad += memcmp (out[p].data + oy * out[p].stride + ox * g->elem_size,
            in[p].data + y * in[p].stride + x * g->elem_size,
            g->elem_size) != 0;
      }
    }
    /* (one assertion a plane: libcheck's are costly) */
    fail_unless (bad == 0, "%s: plane %u: %u elements wrong", what, p, bad);
    g_free (in[p].data);
    g_free (out[p].data);
  }
}

GST_START_TEST (test_bands_every_layout)
{
  guint f, m, s, b;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    for (m = 0; m < G_N_ELEMENTS (mappings); m++) {
      for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
        GstVideoInfo in_info, out_info;
        CtMapping mapping = mappings[m].mapping;
        gboolean keep = (mapping & CT_MAPPING_KEEP_AXES) != 0;
        gint w = sizes[s][0], h = sizes[s][1];
        CtJob job;

        fail_unless (gst_video_info_set_format (&in_info, formats[f], w, h));
        fail_unless (gst_video_info_set_format (&out_info, formats[f],
                keep ? w : h, keep ? h : w));
        ct_job_set_video (&job, &in_info, &out_info, mapping);
        for (b = 0; b < G_N_ELEMENTS (band_sizes); b++) {
          gchar *what = g_strdup_printf ("%s %dx%d, mapping %d, bands of %"
              G_GSIZE_FORMAT " bytes", gst_video_format_to_string (formats[f]),
              w, h, mapping, band_sizes[b]);

          check_bands (&job, mappings[m].method, band_sizes[b], what);
          g_free (what);
        }
      }
    }
  }
}

GST_END_TEST;

/* Frames of many rows: the bands grow until there are at most
 * CT_JOB_MAX_BANDS; none when asked for none. */
GST_START_TEST (test_bands_limits)
{
  GstVideoInfo info, out_info;
  CtBand bands[CT_JOB_MAX_BANDS];
  CtJob job;
  guint n;

  fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420,
          3840, 2160));
  fail_unless (gst_video_info_set_format (&out_info, GST_VIDEO_FORMAT_I420,
          2160, 3840));
  ct_job_set_video (&job, &info, &out_info, CT_MAPPING_ROTATE_90R);
  check_bands (&job, GST_VIDEO_ORIENTATION_90R, 1,
      "I420 3840x2160, 90r, bands of 1 byte");
  check_bands (&job, GST_VIDEO_ORIENTATION_90R, 1 << 20,
      "I420 3840x2160, 90r, bands of 1 MiB");
  fail_unless_equals_int (ct_job_bands (&job, 0, bands, CT_JOB_MAX_BANDS), 0);
  n = ct_job_bands (&job, 1 << 20, bands, CT_JOB_MAX_BANDS);
  fail_unless (n > 3, "a 4K frame in 1 MiB bands took %u", n);
  /* fewer slots than planes: none */
  fail_unless_equals_int (ct_job_bands (&job, 1 << 20, bands, 2), 0);
}

GST_END_TEST;

static Suite *
bands_suite (void)
{
  Suite *s = suite_create ("bands");
  TCase *tc = tcase_create ("general");

  ct_check_seed ();
  suite_add_tcase (s, tc);
  /* (libcheck's default is 4 s; run alone, this takes about as long) */
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_bands_every_layout);
  tcase_add_test (tc, test_bands_limits);
  return s;
}

GST_CHECK_MAIN (bands);
