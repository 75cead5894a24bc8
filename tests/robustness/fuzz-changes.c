/* The fuzz test's cases that change what the element does while it plays
 * (see fuzz.c): video-direction changed between frames of progressive and
 * of interlaced video (the eight, auto following an image-orientation tag,
 * custom refused), the permutation of static tensors changed, unset or set
 * invalid between buffers, and invalid permutations from the start; and,
 * between buffers of any kind, the element taken to READY or NULL and back,
 * or flushed (fuzz_churn). */
#include "fuzz.h"

/* ---- what the settings in place refuse ---- */

/* The direction the element must turn the next frame to. */
/* A case the settings refuse, pushed as @p: no output, and an error that
 * says @says, or (after one was said) the refusal repeated silently.
 * Frees @p's error text. */
static void
assert_refused (Setup * s, Pushed * p, const gchar * says, const gchar * what)
{
  fail_unless (p->out == NULL, "%s: output (flow %s) where the settings "
      "refuse it", what, gst_flow_get_name (p->ret));
  fail_unless (p->ret == GST_FLOW_NOT_NEGOTIATED || p->ret == GST_FLOW_ERROR,
      "%s: flow %s without output", what, gst_flow_get_name (p->ret));
  if (p->errors > 0) {
    fail_unless (p->error && strstr (p->error, says) != NULL, "%s: refused "
        "with \"%s\", not saying \"%s\"", what,
        p->error ? p->error : "(no error message)", says);
    s->said = TRUE;
    tally.refused_error++;
  } else {
    fail_unless (s->said, "%s: refused (%s) without an error", what,
        gst_flow_get_name (p->ret));
    tally.refused_again++;
  }
  g_clear_pointer (&p->error, g_free);
}

static GstVideoOrientationMethod
direction_in_effect (const Setup * s)
{
  return s->direction == GST_VIDEO_ORIENTATION_AUTO ? s->tag_direction :
      s->direction;
}

/* Whether the element must refuse the caps in place as it is set now:
 * interlaced video in a direction that breaks its fields, or tensors past
 * rank 4 with a permutation. (The other kinds' refusals are their
 * buffers' or their caps' alone.) */
static gboolean
setup_refuses (const Setup * s)
{
  GstVideoOrientationMethod method = direction_in_effect (s);

  if (s->kind == KIND_INTERLACED)
    return method != GST_VIDEO_ORIENTATION_IDENTITY &&
        method != GST_VIDEO_ORIENTATION_HORIZ;
  return s->kind == KIND_PERMUTATION && s->permute && !s->permutable;
}

/* ---- restarts and flushes ---- */

/* Takes the element to @to and back to PLAYING, then starts a new stream
 * as a source restarted does: stream-start, and the caps and a segment
 * again for the kinds that keep their caps (the others send theirs with
 * each buffer). */
static void
restart (Setup * s, GstState to)
{
  GstMessage *msg;
  gchar *id;

  fail_unless (gst_element_set_state (s->h->element, to) ==
      GST_STATE_CHANGE_SUCCESS, "seed %u: to %s", fuzz_seed,
      gst_element_state_get_name (to));
  if (gst_element_set_state (s->h->element, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    /* a GPU kernel set while playing stops a host without a GPU from
     * starting again, saying so; auto starts anywhere */
    fail_unless (ct_check_count_messages (s->bus, GST_MESSAGE_ERROR) > 0,
        "seed %u: back to PLAYING from %s failed without an error",
        fuzz_seed, gst_element_state_get_name (to));
    gst_util_set_object_arg (G_OBJECT (s->h->element), "kernel", "auto");
    fail_unless (gst_element_set_state (s->h->element, GST_STATE_PLAYING)
        == GST_STATE_CHANGE_SUCCESS, "seed %u: no start with kernel=auto",
        fuzz_seed);
  }
  id = g_strdup_printf ("ct-fuzz-%u", ++s->streams);
  gst_harness_push_event (s->h, gst_event_new_stream_start (id));
  g_free (id);
  /* (a new stream: no tag yet, no refusal said) */
  s->tag_direction = GST_VIDEO_ORIENTATION_IDENTITY;
  s->said = FALSE;
  if (!s->caps)
    return;
  gst_harness_set_src_caps (s->h, gst_caps_ref (s->caps));
  /* caps the element is set to refuse are refused now, and said */
  while ((msg = gst_bus_pop_filtered (s->bus, GST_MESSAGE_ERROR))) {
    gchar *debug = NULL;

    gst_message_parse_error (msg, NULL, &debug);
    fail_unless (setup_refuses (s), "seed %u: caps %s refused after a "
        "restart: %s", fuzz_seed, gst_caps_to_string (s->caps), debug);
    s->said = TRUE;
    g_free (debug);
    gst_message_unref (msg);
  }
}

/* Between two buffers, now and then, what a pipeline does to an element:
 * takes it to READY or NULL and back to PLAYING (restart ()), or flushes
 * it, answering a flushing seek from downstream as a source does or with
 * FLUSH_START and FLUSH_STOP alone, then a new segment (a flush takes the
 * segment away). The buffer after it must come out as if nothing had
 * happened. Returns what it did, for the messages. */
const gchar *
fuzz_churn (Setup * s)
{
  GstSegment segment;
  GstEvent *event;
  guint32 seqnum;
  gboolean seek = FALSE;

  if (fuzz_chance (40)) {
    GstState to = fuzz_chance (50) ? GST_STATE_READY : GST_STATE_NULL;

    restart (s, to);
    tally.restarts++;
    return to == GST_STATE_READY ? ", after READY and back" :
        ", after NULL and back";
  }

  seqnum = gst_util_seqnum_next ();
  if (fuzz_chance (50)) {
    event = gst_event_new_seek (1.0, GST_FORMAT_TIME, GST_SEEK_FLAG_FLUSH,
        GST_SEEK_TYPE_SET, 0, GST_SEEK_TYPE_NONE, GST_CLOCK_TIME_NONE);
    seqnum = gst_event_get_seqnum (event);
    gst_harness_push_upstream_event (s->h, event);
    /* it must reach upstream, which answers it */
    while ((event = gst_harness_try_pull_upstream_event (s->h))) {
      seek |= GST_EVENT_TYPE (event) == GST_EVENT_SEEK;
      gst_event_unref (event);
    }
    fail_unless (seek, "seed %u: a seek did not reach upstream", fuzz_seed);
    tally.seeks++;
  }
  event = gst_event_new_flush_start ();
  gst_event_set_seqnum (event, seqnum);
  gst_harness_push_event (s->h, event);
  event = gst_event_new_flush_stop (TRUE);
  gst_event_set_seqnum (event, seqnum);
  gst_harness_push_event (s->h, event);
  gst_segment_init (&segment, GST_FORMAT_TIME);
  event = gst_event_new_segment (&segment);
  gst_event_set_seqnum (event, seqnum);
  gst_harness_push_event (s->h, event);
  tally.flushes++;
  return seek ? ", after a flushing seek" : ", after a flush";
}

/* ---- video-direction while playing ---- */

/* A frame of @info of random bytes: GStreamer's layout, or (@pad > 0)
 * rows @pad bytes longer and planes apart at odd offsets, described
 * truthfully by a GstVideoMeta (which the element must take). */
GstBuffer *
fuzz_frame (const GstVideoInfo * info, guint pad)
{
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0 }, size = 0;
  gint stride[GST_VIDEO_MAX_PLANES] = { 0 };
  guint p, n = GST_VIDEO_INFO_N_PLANES (info);
  GstBuffer *buf;
  GstMapInfo map;

  if (pad == 0) {
    size = GST_VIDEO_INFO_SIZE (info);
  } else {
    for (p = 0; p < n; p++) {
      gint comp[GST_VIDEO_MAX_COMPONENTS];

      gst_video_format_info_component (info->finfo, p, comp);
      stride[p] = GST_VIDEO_INFO_PLANE_STRIDE (info, p) + pad;
      offset[p] = size + (p > 0 ? 1 : 0);
      size = offset[p] + (gsize) stride[p] *
          GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]);
    }
  }
  buf = gst_buffer_new_allocate (NULL, size, NULL);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  fuzz_fill (map.data, map.size);
  gst_buffer_unmap (buf, &map);
  if (pad)
    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_HEIGHT (info), n, offset, stride);
  return buf;
}

/* Caps the element must take in every direction (interlaced: in identity
 * and horiz): a format it lists, a small size, a frame rate and now and
 * then a pixel-aspect-ratio; @interlaced, interleaved or mixed fields.
 * Interlaced heights are multiples of 4: the reference maps the output as
 * a progressive frame, and there both layouts agree. */
static GstCaps *
fuzz_taken_video_caps (gboolean interlaced, GstVideoInfo * info)
{
  GstVideoFormat format = ct_check_formats[fuzz_range (0,
          ct_check_n_formats - 1)];
  gint w = fuzz_chance (85) ? fuzz_range (1, 40) : fuzz_range (41, 130);
  gint h = fuzz_chance (85) ? fuzz_range (1, 40) : fuzz_range (41, 130);
  GstCaps *caps;

  if (interlaced)
    h = 4 * fuzz_range (1, 12);
  caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING,
      gst_video_format_to_string (format), "width", G_TYPE_INT, w, "height",
      G_TYPE_INT, h, "framerate", GST_TYPE_FRACTION, fuzz_range (0, 60), 1,
      NULL);
  if (fuzz_chance (10))
    gst_caps_set_simple (caps, "pixel-aspect-ratio", GST_TYPE_FRACTION,
        (gint) fuzz_range (1, 30), (gint) fuzz_range (1, 30), NULL);
  if (interlaced)
    gst_caps_set_simple (caps, "interlace-mode", G_TYPE_STRING,
        fuzz_chance (50) ? "interleaved" : "mixed", NULL);
  fail_unless (gst_video_info_from_caps (info, caps));
  return caps;
}

/* Changes the direction while playing, as an application or upstream
 * would: one of the eight (by video-direction, or by videoflip's old
 * name, method), or with @tags auto and an image-orientation tag from
 * upstream in either order, or a tag alone (which only auto follows), or
 * custom, which the element refuses with a warning, keeping the
 * direction. Returns what it did, for the messages (g_free it). */
static gchar *
fuzz_change_direction (Setup * s, gboolean tags)
{
  guint r = fuzz_range (0, 99);
  GstVideoOrientationMethod method;

  tally.direction_changes++;
  if (r < 6) {
    ASSERT_WARNING (g_object_set (s->h->element, "video-direction",
            GST_VIDEO_ORIENTATION_CUSTOM, NULL));
    tally.custom_refused++;
    return g_strdup ("custom refused");
  }
  if (tags && r < 30) {
    const CtCheckOrientationTag *t =
        &ct_check_orientation_tags[fuzz_range (0,
            ct_check_n_orientation_tags - 1)];
    gboolean to_auto = r < 22, first = fuzz_chance (50);

    if (to_auto && first)
      g_object_set (s->h->element, "video-direction",
          GST_VIDEO_ORIENTATION_AUTO, NULL);
    gst_harness_push_event (s->h, gst_event_new_tag (gst_tag_list_new
            (GST_TAG_IMAGE_ORIENTATION, t->tag, NULL)));
    if (to_auto && !first)
      g_object_set (s->h->element, "video-direction",
          GST_VIDEO_ORIENTATION_AUTO, NULL);
    s->tag_direction = t->method;
    if (to_auto)
      s->direction = GST_VIDEO_ORIENTATION_AUTO;
    tally.orientation_tags++;
    return g_strdup_printf ("%s%s%s", to_auto && first ? "auto, " : "",
        t->tag, to_auto && !first ? ", auto" : "");
  }
  method = ct_check_directions[fuzz_range (0, ct_check_n_directions - 1)];
  if (fuzz_chance (20))
    g_object_set (s->h->element, "method", method, NULL);
  else
    g_object_set (s->h->element, "video-direction", method, NULL);
  s->direction = method;
  return g_strdup (direction_nick (method));
}

/* The caps of this case: those in place, or (first, and now and then)
 * new ones, returned (a reference, for push_raw) and kept in @s. */
static GstCaps *
video_caps_of_case (Setup * s, gboolean interlaced, GstVideoInfo * info)
{
  GstCaps *caps = NULL;

  if (!s->caps || fuzz_chance (6)) {
    caps = fuzz_taken_video_caps (interlaced, info);
    gst_caps_replace (&s->caps, caps);
    s->said = FALSE;
  } else {
    fail_unless (gst_video_info_from_caps (info, s->caps));
  }
  return caps;
}

/* "video-direction X (Y in effect)" and what changed before the buffer,
 * for the messages. */
static gchar *
describe_video_case (Setup * s, guint index, GstBuffer * in,
    const gchar * change, const gchar * churn, gboolean new_caps)
{
  gchar *caps = gst_caps_to_string (s->caps);
  gchar *what = g_strdup_printf ("seed %u, case %u: %s%s, %" G_GSIZE_FORMAT
      " bytes%s, video-direction %s (%s in effect)%s%s%s", fuzz_seed, index,
      caps, new_caps ? " (new)" : "", gst_buffer_get_size (in),
      gst_buffer_get_video_meta (in) ? " with padded rows" : "",
      direction_nick (s->direction), direction_nick (direction_in_effect (s)),
      change ? ", changed while playing: " : "", change ? change : "",
      churn ? churn : "");

  g_free (caps);
  return what;
}

/* Progressive video whose direction changes while playing: each frame
 * comes out turned as the direction in effect for it says. */
void
fuzz_direction (Setup * s, guint index, const gchar * churn)
{
  GstVideoInfo info;
  GstCaps *caps = video_caps_of_case (s, FALSE, &info);
  gchar *change = fuzz_chance (30) ? fuzz_change_direction (s, TRUE) : NULL;
  GstBuffer *in = fuzz_frame (&info, fuzz_chance (25) ? fuzz_range (1, 33) :
      0), *out;
  gchar *what = describe_video_case (s, index, in, change, churn,
      caps != NULL);

  out = push_case (s, caps, gst_buffer_ref (in), TRUE, what);
  ct_check_assert_oriented (&info, in, out, direction_in_effect (s), what);
  poison_and_release (out);
  gst_buffer_unref (in);
  g_free (change);
  g_free (what);
}

/* Interlaced video whose direction changes while playing: identity and
 * horiz keep each row in its field and must come out exact; any other
 * direction, in place from the start or set while playing, must be
 * refused with an error that says why ("Interlaced ..."), never turned.
 * Once said, the refusal may be repeated without a word (the pipeline has
 * had its error) until a frame comes out again, or the caps or the stream
 * change; a change to a direction the fields take must bring frames out
 * again. */
void
fuzz_interlaced (Setup * s, guint index, const gchar * churn)
{
  GstVideoInfo info;
  GstCaps *caps = video_caps_of_case (s, TRUE, &info);
  gchar *change = fuzz_chance (30) ? fuzz_change_direction (s, FALSE) : NULL;
  GstBuffer *in = fuzz_frame (&info, fuzz_chance (25) ? fuzz_range (1, 33) :
      0), *out;
  gchar *what = describe_video_case (s, index, in, change, churn,
      caps != NULL);
  Pushed p;

  if (!setup_refuses (s)) {
    out = push_case (s, caps, gst_buffer_ref (in), TRUE, what);
    ct_check_assert_oriented (&info, in, out, direction_in_effect (s), what);
    poison_and_release (out);
    s->said = FALSE;
  } else {
    push_raw (s, caps, gst_buffer_ref (in), &p, what);
    assert_refused (s, &p, "Interlaced", what);
  }
  gst_buffer_unref (in);
  g_free (change);
  g_free (what);
}

/* ---- permutation while playing ---- */

/* Invalid permutations: refused when starting, or while playing. */
static const gchar *const bad_permutations[] = { "0:0:1:2", "abc",
  "5:1:2:3", "1:0", "0:1:2:3:4", ":::", "1:2:0:3:", "-1:0:1:2", "0:1:2:3x",
};

/* Static tensors: one to three, rank 1 to 4 with small sizes, a type of
 * each size; now and then one of rank 5 or 6, which the transpose takes
 * and a permutation only where its sizes past the fourth are 1. Sets
 * @permutable: a permutation must take them all. */
static GstCaps *
fuzz_permutable_caps (FuzzTensors * ts, gboolean * permutable)
{
  GString *dims = g_string_new (NULL), *tys = g_string_new (NULL);
  GstCaps *caps;
  guint i, d;

  memset (ts, 0, sizeof (*ts));
  ts->n = fuzz_range (1, 3);
  ts->valid = TRUE;
  *permutable = TRUE;
  for (i = 0; i < ts->n; i++) {
    FuzzTensor *t = &ts->t[i];
    /* (the lower-case names of the valid types) */
    guint k = fuzz_range (0, 10);
    gboolean ones = fuzz_chance (50);

    t->rank = fuzz_chance (90) ? fuzz_range (1, 4) : fuzz_range (5, 6);
    for (d = 0; d < t->rank; d++) {
      t->dims[d] = d >= 4 ? (ones ? 1 : fuzz_range (2, 3)) : t->rank > 4 ?
          fuzz_range (1, 3) : fuzz_chance (20) ? 1 : fuzz_range (1, 9);
      *permutable &= d < 4 || t->dims[d] == 1;
      g_string_append_printf (dims, "%s%" G_GUINT64_FORMAT, d ? ":" : i ?
          "," : "", t->dims[d]);
    }
    g_string_append_printf (tys, "%s%s", i ? "," : "", fuzz_types[k].name);
    t->elem_size = fuzz_types[k].size;
    t->bytes = fuzz_tensor_bytes (t);
    ts->total += t->bytes;
  }
  caps = gst_caps_new_simple ("other/tensors", "format", G_TYPE_STRING,
      "static", "num_tensors", G_TYPE_INT, ts->n, "dimensions", G_TYPE_STRING,
      dims->str, "types", G_TYPE_STRING, tys->str, "framerate",
      GST_TYPE_FRACTION, fuzz_chance (50) ? 30 : 0, 1, NULL);
  g_string_free (dims, TRUE);
  g_string_free (tys, TRUE);
  return caps;
}

/* Changes the permutation while playing: a valid one (applies from the
 * next buffer), unset (back to the transpose of the two innermost), or an
 * invalid one, refused with a g_warning and a warning on the bus quoting
 * it, the stream going on with the one before. Returns what it did, for
 * the messages (g_free it). */
static gchar *
fuzz_change_permutation (Setup * s)
{
  guint r = fuzz_range (0, 99);
  gchar *was = permutation_text (s->permute, s->perm), *now = NULL, *text;

  tally.permutation_changes++;
  if (r < 25) {
    const gchar *value = bad_permutations[fuzz_range (0,
            G_N_ELEMENTS (bad_permutations) - 1)];
    gboolean said = FALSE;
    GstMessage *msg;

    ASSERT_WARNING (g_object_set (s->h->element, "permutation", value,
            NULL));
    /* (a warning of the CPU fallback may come first) */
    while (!said && (msg = gst_bus_pop_filtered (s->bus,
                GST_MESSAGE_WARNING))) {
      GError *err = NULL;

      gst_message_parse_warning (msg, &err, NULL);
      said = strstr (err->message, value) != NULL;
      g_error_free (err);
      gst_message_unref (msg);
    }
    fail_unless (said, "seed %u: invalid permutation \"%s\" set while "
        "playing without a warning on the bus quoting it", fuzz_seed, value);
    g_object_get (s->h->element, "permutation", &now, NULL);
    fail_unless (g_strcmp0 (now, was) == 0, "seed %u: permutation \"%s\" "
        "after \"%s\" was refused, not \"%s\"", fuzz_seed, now, value,
        was ? was : "(unset)");
    tally.permutation_invalid++;
    text = g_strdup_printf ("\"%s\" refused", value);
  } else if (r < 40) {
    g_object_set (s->h->element, "permutation", "", NULL);
    s->permute = FALSE;
    tally.permutation_unset++;
    text = g_strdup ("unset");
  } else {
    fuzz_permutation_order (s->perm);
    s->permute = TRUE;
    text = permutation_text (TRUE, s->perm);
    g_object_set (s->h->element, "permutation", text, NULL);
  }
  g_free (was);
  g_free (now);
  return text;
}

/* Static tensors whose permutation changes while playing: each buffer
 * comes out in the permutation in effect for it, caps and bytes. Where
 * that permutation cannot take a tensor (rank past 4), the buffer must be
 * refused with an error that says so; as with interlaced video, once
 * said the refusal may repeat without a word until a buffer comes out
 * again, or the caps or the stream change; unsetting the permutation, or
 * new caps, must bring buffers out again. */
void
fuzz_permutation (Setup * s, guint index, const gchar * churn)
{
  GstCaps *caps = NULL, *out_caps;
  gchar *change, *perm, *text, *what;
  gboolean one = fuzz_chance (40);
  GstBuffer *in = gst_buffer_new (), *out;
  const GstStructure *st;
  GString *dims;
  gsize offset = 0;
  guint i, k;
  Pushed p;

  if (!s->caps || fuzz_chance (6)) {
    caps = fuzz_permutable_caps (&s->ts, &s->permutable);
    gst_caps_replace (&s->caps, caps);
    s->said = FALSE;
  }
  change = fuzz_chance (35) ? fuzz_change_permutation (s) : NULL;
  /* one memory for all, or one per tensor */
  for (i = 0; i < (one ? 1 : s->ts.n); i++)
    gst_buffer_append_memory (in, gst_allocator_alloc (NULL, one ?
            s->ts.total : s->ts.t[i].bytes, NULL));
  for (i = 0; i < gst_buffer_n_memory (in); i++) {
    GstMapInfo map;

    fail_unless (gst_memory_map (gst_buffer_peek_memory (in, i), &map,
            GST_MAP_WRITE));
    fuzz_fill (map.data, map.size);
    gst_memory_unmap (gst_buffer_peek_memory (in, i), &map);
  }
  perm = permutation_text (s->permute, s->perm);
  text = gst_caps_to_string (s->caps);
  what = g_strdup_printf ("seed %u, case %u: %s%s, %" G_GSIZE_FORMAT " bytes "
      "in %u memories, permutation %s%s%s%s", fuzz_seed, index, text,
      caps ? " (new)" : "", gst_buffer_get_size (in),
      gst_buffer_n_memory (in), perm ? perm : "unset",
      change ? ", changed while playing: " : "", change ? change : "",
      churn ? churn : "");
  g_free (text);
  g_free (perm);
  g_free (change);

  if (setup_refuses (s)) {
    push_raw (s, caps, gst_buffer_ref (in), &p, what);
    assert_refused (s, &p, "rank", what);
    gst_buffer_unref (in);
    g_free (what);
    return;
  }

  out = push_case (s, caps, gst_buffer_ref (in), TRUE, what);
  s->said = FALSE;
  /* the caps follow the permutation in effect */
  dims = g_string_new (NULL);
  for (i = 0; i < s->ts.n; i++) {
    guint64 od[MAX_RANK];
    guint rank = rearranged (&s->ts.t[i], s->permute ? s->perm : NULL, od);

    for (k = 0; k < rank; k++)
      g_string_append_printf (dims, "%s%" G_GUINT64_FORMAT, k ? ":" : i ?
          "," : "", od[k]);
  }
  out_caps = gst_pad_get_current_caps (s->h->sinkpad);
  fail_unless (out_caps != NULL, "%s: output without caps", what);
  st = gst_caps_get_structure (out_caps, 0);
  fail_unless (g_strcmp0 (gst_structure_get_string (st, "dimensions"),
          dims->str) == 0, "%s: output caps %s, not dimensions %s", what,
      gst_caps_to_string (out_caps), dims->str);
  gst_caps_unref (out_caps);
  g_string_free (dims, TRUE);
  /* and so do the bytes */
  fail_unless (gst_buffer_n_memory (out) == s->ts.n, "%s: %u output "
      "memories", what, gst_buffer_n_memory (out));
  for (i = 0; i < s->ts.n; i++) {
    GstMemory *imem = gst_buffer_peek_memory (in, one ? 0 : i);
    GstMapInfo im, om;

    fail_unless (gst_memory_map (imem, &im, GST_MAP_READ));
    fail_unless (gst_memory_map (gst_buffer_peek_memory (out, i), &om,
            GST_MAP_READ));
    fail_unless (om.size == s->ts.t[i].bytes, "%s: tensor %u has %"
        G_GSIZE_FORMAT " bytes, not %" G_GUINT64_FORMAT, what, i, om.size,
        s->ts.t[i].bytes);
    check_tensor (&s->ts.t[i], s->permute ? s->perm : NULL, im.data +
        (one ? offset : 0), om.data, what, i);
    gst_memory_unmap (gst_buffer_peek_memory (out, i), &om);
    gst_memory_unmap (imem, &im);
    offset += s->ts.t[i].bytes;
  }
  poison_and_release (out);
  gst_buffer_unref (in);
  g_free (what);
}

/* An invalid permutation: the element must not start, and must say why. */
void
fuzz_bad_permutation (guint index)
{
  const gchar *value = bad_permutations[fuzz_range (0,
          G_N_ELEMENTS (bad_permutations) - 1)];
  GstElement *e = gst_element_factory_make ("cudatranspose", NULL);
  gchar *text;

  ASSERT_WARNING (g_object_set (e, "permutation", value, NULL));
  text = ct_check_start_failure (e);
  fail_unless (strstr (text, value) != NULL, "seed %u, case %u: \"%s\" not "
      "quoted in \"%s\"", fuzz_seed, index, value, text);
  g_free (text);
  gst_object_unref (e);
  tally.refused_start++;
}
