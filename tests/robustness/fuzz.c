/* cudatranspose under random and hostile caps and buffers.
 *
 * Each case is caps (video, tensors, or packed video going out as a
 * tensor), an element configuration and a buffer, drawn from a seeded
 * generator that favours the edges: sizes of 0, 1 and past 32 or 64 bits,
 * products that overflow, tensor counts and memories that disagree with
 * the caps, malformed fields, buffers of zero, one or too few bytes, and
 * GstVideoMeta strides and offsets that lie. Mixed in with those, cases
 * that change what the element does while it plays: video-direction
 * changed between buffers (the eight, auto following an image-orientation
 * tag, custom refused), on progressive video and on interlaced video
 * (where only identity and horiz keep the fields); the permutation of
 * tensors changed, unset or set invalid between buffers; buffers of 17 to
 * 256 flexible tensors in NNStreamer's layout or as GStreamer merges
 * memories past 16 (and ones that are not whole); and, between buffers of
 * any kind, the element taken to READY or NULL and back, or flushed.
 *
 * Every case must end one of two ways: the output is exactly the test's
 * own reference transform of the input (written here, over poisoned
 * output), or the element refuses it (negotiation fails, or it posts an
 * error). A crash, an abort, a hang (check's timeout), an output without
 * an error that is wrong, or a refusal without an error where the caps
 * reached the element (a buffer lost without a word), fails. (A setting
 * the element refuses, once said, may be refused again without a word
 * until a buffer comes out, or the caps or the stream change: the
 * pipeline has had its error.)
 *
 * The seed is fixed (printed, and in every failure message; CT_FUZZ_SEED
 * replaces it) so a failure reproduces; CT_FUZZ_CASES sets the number of
 * cases (default 12000), CT_FUZZ_TRACE prints every case as it ends. A
 * case may depend on the cases before it in its harness (a direction set,
 * a permutation), so reproduce with the same seed from the start. Without
 * a GPU the element runs its CPU path (auto falls back); on a GPU host the
 * same cases run on the GPU. What the fuzzing found is kept below it,
 * minimised, one test each (test_found_*).
 *
 * This file holds the generator, the tally, the element in a harness
 * and the pushing of a case, the test that runs the cases and prints
 * the summary, and the tests of what the fuzzing found. The cases are
 * in fuzz-cases.c (hostile video, tensors and video to tensor),
 * fuzz-changes.c (direction, interlacing and permutation changed while
 * playing, restarts and flushes) and fuzz-flexible.c (flexible tensors
 * past 16); fuzz.h holds what they share. */
#include "fuzz.h"

#define DEFAULT_SEED 20261123u
#define DEFAULT_CASES 12000
/* Cases per harness: the element is restarted between batches. */
#define BATCH 40

guint64 fuzz_state;
guint32 fuzz_seed;
gboolean fuzz_trace;

/* (a stream of its own: its cases follow from its seed alone) */
guint32
fuzz_next (void)
{
  return ct_check_next (&fuzz_state);
}

/* A number in [lo, hi]. */
guint
fuzz_range (guint lo, guint hi)
{
  return lo + fuzz_next () % (hi - lo + 1);
}

/* TRUE with probability @percent / 100. */
gboolean
fuzz_chance (guint percent)
{
  return fuzz_next () % 100 < percent;
}

void
fuzz_fill (guint8 * data, gsize size)
{
  gsize i;

  for (i = 0; i < size; i++)
    data[i] = fuzz_next () >> 24;
}

/* ---- the element in a harness ---- */

Tally tally;

const gchar *
direction_nick (GstVideoOrientationMethod method)
{
  GEnumClass *klass = g_type_class_ref (GST_TYPE_VIDEO_ORIENTATION_METHOD);
  GEnumValue *value = g_enum_get_value (klass, method);
  /* (the nicks are static, the class stays) */
  const gchar *nick = value ? value->value_nick : "?";

  g_type_class_unref (klass);
  return nick;
}

/* "a:b:c:d" of @perm, or NULL (g_free it). */
gchar *
permutation_text (gboolean permute, const guint * perm)
{
  return permute ? g_strdup_printf ("%u:%u:%u:%u", perm[0], perm[1], perm[2],
      perm[3]) : NULL;
}

/* A random order of 0..3. */
void
fuzz_permutation_order (guint * perm)
{
  guint i;

  for (i = 0; i < 4; i++)
    perm[i] = i;
  for (i = 3; i > 0; i--) {
    guint j = fuzz_range (0, i), t = perm[i];

    perm[i] = perm[j];
    perm[j] = t;
  }
}

void
setup_start (Setup * s, Kind kind)
{
  GString *desc = g_string_new ("cudatranspose");
  gboolean tensors = kind == KIND_TENSORS || kind == KIND_VIDEO_TO_TENSOR ||
      kind == KIND_PERMUTATION || kind == KIND_FLEXIBLE;

  memset (s, 0, sizeof (*s));
  s->kind = kind;
  s->direction = GST_VIDEO_ORIENTATION_UL_LR;
  s->tag_direction = GST_VIDEO_ORIENTATION_IDENTITY;
  /* a valid permutation now and then: a random order of 0..3 */
  s->permute = tensors && fuzz_chance (35);
  if (kind == KIND_VIDEO_TO_TENSOR && !s->permute) {
    const guint chw[4] = { 1, 2, 0, 3 };
    memcpy (s->perm, chw, sizeof (chw));
  } else if (s->permute) {
    fuzz_permutation_order (s->perm);
    g_string_append_printf (desc, " permutation=%u:%u:%u:%u", s->perm[0],
        s->perm[1], s->perm[2], s->perm[3]);
  }
  /* any direction from the start: interlaced video must refuse those that
   * break its fields at its first negotiation already; video to a tensor
   * turned now and then */
  s->turned = kind == KIND_VIDEO_TO_TENSOR && fuzz_chance (50);
  if (kind == KIND_DIRECTION || kind == KIND_INTERLACED || s->turned) {
    s->direction = kind == KIND_DIRECTION && fuzz_chance (10) ?
        GST_VIDEO_ORIENTATION_AUTO :
        ct_check_directions[fuzz_range (0, ct_check_n_directions - 1)];
    g_string_append_printf (desc, " video-direction=%s",
        direction_nick (s->direction));
  }
  /* video to a tensor through an arithmetic now and then, into each type
   * the table holds */
  if (kind == KIND_VIDEO_TO_TENSOR && fuzz_chance (50)) {
    s->arith = &fuzz_ariths[fuzz_range (0, fuzz_n_ariths - 1)];
    g_string_append_printf (desc, " arithmetic=%s", s->arith->prop);
  }
  /* (auto falls back to the CPU where there is no GPU: only there may the
   * element start with a GPU kernel named; it is switched to later) */
  if (fuzz_chance (30))
    g_string_append (desc, " kernel=cpu");

  s->poison = fuzz_chance (70);
  if (s->poison) {
    s->h = ct_check_harness_new (desc->str, &s->bus);
  } else {
    GstElement *e = gst_parse_launch (desc->str, NULL);

    fail_unless (e != NULL);
    s->h = gst_harness_new_with_element (e, "sink", "src");
    gst_object_unref (e);
    s->bus = gst_bus_new ();
    gst_element_set_bus (s->h->element, s->bus);
  }
  if (kind == KIND_VIDEO_TO_TENSOR)
    gst_harness_set_sink_caps_str (s->h, "other/tensors,format=static");
  else if (!tensors)
    /* (video out, as an application's video sink asks: Y42B, NV16 and
     * NV24 would go out as tensors, the only output they have) */
    gst_harness_set_sink_caps_str (s->h, "video/x-raw; "
        "video/x-raw(memory:CUDAMemory)");
  s->sinkpad = gst_element_get_static_pad (s->h->element, "sink");
  g_string_free (desc, TRUE);
}

void
setup_stop (Setup * s)
{
  gst_clear_caps (&s->caps);
  gst_object_unref (s->sinkpad);
  ct_check_harness_free (s->h, s->bus);
}

/* Counts the error @msg in @p, keeping the first one's text. */
static void
take_error (GstMessage * msg, Pushed * p)
{
  GError *err = NULL;
  gchar *debug = NULL;

  p->errors++;
  if (p->error)
    return;
  gst_message_parse_error (msg, &err, &debug);
  p->error = g_strdup_printf ("%s (%s)", err->message, debug ? debug : "");
  g_error_free (err);
  g_free (debug);
}

/* Pushes @buf, after @caps (NULL: the caps in place stay, and count as
 * accepted), then a serialized event that pushes out a frame held back
 * (frames-in-flight), and collects what came of it in @p (free p->error,
 * unref p->out). */
void
push_raw (Setup * s, GstCaps * caps, GstBuffer * buf, Pushed * p,
    const gchar * what)
{
  GstMessage *msg;

  memset (p, 0, sizeof (*p));
  p->accepted = caps ? gst_pad_query_accept_caps (s->sinkpad, caps) : TRUE;
  /* (an error waiting would be this case's: none is expected, none is
   * lost; warnings and the rest are dropped) */
  while ((msg = gst_bus_pop (s->bus))) {
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
      take_error (msg, p);
    gst_message_unref (msg);
  }
  /* now and then a kernel change while playing, GPU kernels included */
  if (!s->keep_kernel && fuzz_chance (4)) {
    guint n;
    const gchar *const *kernels = ct_check_kernel_nicks (FALSE, &n);

    gst_util_set_object_arg (G_OBJECT (s->h->element), "kernel",
        kernels[fuzz_range (0, n - 1)]);
  }
  if (caps)
    gst_harness_set_src_caps (s->h, caps);
  p->ret = gst_harness_push (s->h, buf);
  /* (its result unchecked: an element whose caps were refused drops it) */
  gst_harness_push_event (s->h, gst_event_new_custom
      (GST_EVENT_CUSTOM_DOWNSTREAM, gst_structure_new_empty ("ct-drain")));
  p->out = gst_harness_try_pull (s->h);
  /* one buffer in, one out at most: a second would be an earlier one
   * come late, or one made of nothing */
  fail_unless (gst_harness_buffers_in_queue (s->h) == 0, "%s: %u more "
      "outputs than inputs", what, gst_harness_buffers_in_queue (s->h));
  while ((msg = gst_bus_pop (s->bus))) {
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
      take_error (msg, p);
    gst_message_unref (msg);
  }
  if (fuzz_trace)
    g_print ("%s: flow %s, %s, %u errors%s%s\n", what,
        gst_flow_get_name (p->ret), p->out ? "output" : "no output",
        p->errors, p->error ? ": " : "", p->error ? p->error : "");
}

/* Pushes @buf after @caps (NULL: the caps stay). Returns the output if
 * the element transformed it (unref it); NULL if it refused, which it
 * must say: an error message, or caps its pads do not accept. @expect_ok:
 * the case is one the element must take. */
GstBuffer *
push_case (Setup * s, GstCaps * caps, GstBuffer * buf, gboolean expect_ok,
    const gchar * what)
{
  Pushed p;

  push_raw (s, caps, buf, &p, what);
  fail_unless (p.ret == GST_FLOW_OK || !expect_ok, "%s: refused (%s): %s",
      what, gst_flow_get_name (p.ret), p.error ? p.error :
      "no error message");
  g_free (p.error);

  if (p.ret == GST_FLOW_OK) {
    fail_unless (p.out != NULL, "%s: flow OK without output", what);
    fail_unless (p.errors == 0, "%s: output and an error", what);
    tally.exact++;
    return p.out;
  }
  fail_unless (p.out == NULL, "%s: output, but flow %s", what,
      gst_flow_get_name (p.ret));
  fail_unless (p.ret == GST_FLOW_NOT_NEGOTIATED || p.ret == GST_FLOW_ERROR,
      "%s: flow %s", what, gst_flow_get_name (p.ret));
  if (p.errors > 0) {
    tally.refused_error++;
  } else {
    fail_unless (p.ret == GST_FLOW_NOT_NEGOTIATED && !p.accepted, "%s: "
        "refused (%s) without an error, caps %saccepted", what,
        gst_flow_get_name (p.ret), p.accepted ? "" : "not ");
    tally.refused_caps++;
  }
  return NULL;
}

/* Poisons @out's memory before it goes back to a pool, so buffers the
 * element gets again show what it does not write. */
void
poison_and_release (GstBuffer * out)
{
  guint i;

  for (i = 0; i < gst_buffer_n_memory (out); i++) {
    GstMemory *mem = gst_buffer_peek_memory (out, i);
    GstMapInfo map;

    if (gst_memory_map (mem, &map, GST_MAP_WRITE)) {
      memset (map.data, 0x5a ^ i, map.size);
      gst_memory_unmap (mem, &map);
    }
  }
  gst_buffer_unref (out);
}

/* ---- the cases, a harness for each batch, and the summary ---- */

GST_START_TEST (test_fuzz_caps_and_buffers)
{
  const gchar *env_seed = g_getenv ("CT_FUZZ_SEED");
  const gchar *env_cases = g_getenv ("CT_FUZZ_CASES");
  guint32 seed = env_seed ? (guint32) g_ascii_strtoull (env_seed, NULL, 10) :
      DEFAULT_SEED;
  guint cases = env_cases ? (guint) g_ascii_strtoull (env_cases, NULL, 10) :
      DEFAULT_CASES;
  guint done = 0, k;

  fuzz_state = seed;
  fuzz_seed = seed;
  fuzz_trace = g_getenv ("CT_FUZZ_TRACE") != NULL;
  g_print ("fuzz: seed %u, %u cases (CT_FUZZ_SEED and CT_FUZZ_CASES change "
      "them)\n", seed, cases);
  while (done < cases) {
    Setup s;
    guint r = fuzz_range (0, 99), i;
    /* hostile caps and buffers the most; changes while playing and
     * buffers past 16 flexible tensors, each a tenth or less */
    Kind kind = r < 30 ? KIND_VIDEO : r < 60 ? KIND_TENSORS : r < 70 ?
        KIND_VIDEO_TO_TENSOR : r < 80 ? KIND_DIRECTION : r < 86 ?
        KIND_INTERLACED : r < 94 ? KIND_PERMUTATION : KIND_FLEXIBLE;

    if (fuzz_chance (8)) {
      fuzz_bad_permutation (done++);
      continue;
    }
    setup_start (&s, kind);
    for (i = 0; i < BATCH && done < cases; i++, done++) {
      /* now and then a restart or a flush between two buffers */
      const gchar *churn = i > 0 && fuzz_chance (3) ? fuzz_churn (&s) : NULL;

      tally.cases[kind]++;
      switch (kind) {
        case KIND_VIDEO:
          fuzz_video (&s, done, churn);
          break;
        case KIND_TENSORS:
          fuzz_tensors (&s, done, churn);
          break;
        case KIND_VIDEO_TO_TENSOR:
          fuzz_video_to_tensor (&s, done, churn);
          break;
        case KIND_DIRECTION:
          fuzz_direction (&s, done, churn);
          break;
        case KIND_INTERLACED:
          fuzz_interlaced (&s, done, churn);
          break;
        case KIND_PERMUTATION:
          fuzz_permutation (&s, done, churn);
          break;
        case KIND_FLEXIBLE:
          fuzz_flexible (&s, done, churn);
          break;
      }
    }
    setup_stop (&s);
  }
  g_print ("fuzz: %u cases (%u video, %u tensors, %u video to tensor, %u "
      "video-direction changing while playing, %u interlaced, %u permutation "
      "changing while playing, %u of 17 to 256 flexible tensors): %u "
      "transformed exactly, %u refused with an error, %u refused by the "
      "pads' caps, %u refused again after their error, %u invalid "
      "permutations refused at start; %u direction changes (%u orientation "
      "tags, %u custom refused), %u permutation changes (%u invalid refused, "
      "%u unset), %u flexible tensors past 16 checked, %u YUV frames into "
      "tensors turned (%u RGB refused), %u with their colorimetry and "
      "chroma siting stated, %u video frames into tensors through an "
      "arithmetic, %u restarts from READY or NULL, %u "
      "flushes (%u answering a seek); no crash, abort or hang\n", done, tally.cases[KIND_VIDEO],
      tally.cases[KIND_TENSORS], tally.cases[KIND_VIDEO_TO_TENSOR],
      tally.cases[KIND_DIRECTION], tally.cases[KIND_INTERLACED],
      tally.cases[KIND_PERMUTATION], tally.cases[KIND_FLEXIBLE],
      tally.exact, tally.refused_error,
      tally.refused_caps, tally.refused_again, tally.refused_start,
      tally.direction_changes, tally.orientation_tags, tally.custom_refused,
      tally.permutation_changes, tally.permutation_invalid,
      tally.permutation_unset, tally.flexible_tensors, tally.turned_yuv,
      tally.turned_rgb_refused, tally.stated_yuv, tally.typed,
      tally.restarts,
      tally.flushes, tally.seeks);
  fail_unless_equals_int (tally.exact + tally.refused_error +
      tally.refused_caps + tally.refused_again + tally.refused_start, done);
  /* the generator must reach both outcomes in earnest */
  fail_unless (tally.exact > done / 5 && tally.refused_error > done / 10,
      "too few cases of one outcome: the generator has drifted");
  /* and, in a run of the default length, every kind and every change */
  if (done >= DEFAULT_CASES / 2) {
    for (k = 0; k < G_N_ELEMENTS (tally.cases); k++)
      fail_unless (tally.cases[k] > done / 50, "too few cases of kind %u: "
          "the generator has drifted", k);
    fail_unless (tally.orientation_tags > 0 && tally.custom_refused > 0 &&
        tally.permutation_invalid > 0 && tally.permutation_unset > 0 &&
        tally.flexible_tensors > 0 && tally.turned_yuv > 0 &&
        tally.turned_rgb_refused > 0 && tally.stated_yuv > 0 &&
        tally.typed > 0 && tally.restarts > 0 &&
        tally.seeks > 0 && tally.flushes > tally.seeks, "a change the "
        "generator no longer "
        "makes: it has drifted");
  }
}

GST_END_TEST;

/* ---- what the fuzzing found, minimised ---- */

/* Sets @property to @value (unless NULL) on @h's element, pushes @in and
 * returns the output (or NULL), and in @error the first error's text, if
 * any (g_free it). */
static GstBuffer *
found_push (GstHarness * h, GstBus * bus, const gchar * property,
    const gchar * value, GstBuffer * in, gchar ** error)
{
  Setup s;
  Pushed p;

  memset (&s, 0, sizeof (s));
  s.h = h;
  s.bus = bus;
  s.keep_kernel = TRUE;
  if (property)
    gst_util_set_object_arg (G_OBJECT (h->element), property, value);
  push_raw (&s, NULL, gst_buffer_ref (in), &p, property ? value : "again");
  *error = p.error;
  return p.out;
}

/* Interlaced GRAY8 8x4, and a frame of it. */
static GstBuffer *
found_interlaced_frame (GstHarness * h, GstVideoInfo * info)
{
  GstCaps *caps = ct_check_caps (GST_VIDEO_FORMAT_GRAY8, 8, 4);

  gst_caps_set_simple (caps, "interlace-mode", G_TYPE_STRING, "interleaved",
      NULL);
  fail_unless (gst_video_info_from_caps (info, caps));
  gst_harness_set_src_caps (h, caps);
  fuzz_state = DEFAULT_SEED;
  return fuzz_frame (info, 0);
}

/* Interlaced video turned by 90r while playing is refused, saying why;
 * turned back to a direction its fields take, it must come out again. The
 * element refused 90r in set_caps (leaving no job) and the caps of horiz,
 * identity, vert or 180 are those negotiated before 90r, so the base class
 * does not call set_caps again: every buffer after is refused with "A
 * buffer came before any caps were negotiated", for ever (vert and 180
 * too, instead of saying why). */
GST_START_TEST (test_found_interlaced_back)
{
  GstBus *bus;
  GstHarness *h = ct_check_harness_new ("cudatranspose "
      "video-direction=identity", &bus);
  GstVideoInfo info;
  GstBuffer *in = found_interlaced_frame (h, &info), *out;
  gchar *error;

  out = found_push (h, bus, NULL, NULL, in, &error);
  fail_unless (out != NULL, "identity: no output (%s)", error);
  ct_check_assert_oriented (&info, in, out, GST_VIDEO_ORIENTATION_IDENTITY,
      "identity");
  gst_buffer_unref (out);
  out = found_push (h, bus, "video-direction", "90r", in, &error);
  fail_unless (out == NULL && error && strstr (error, "Interlaced"),
      "90r: %s", error ? error : "output, or no error");
  g_free (error);
  out = found_push (h, bus, "video-direction", "horiz", in, &error);
  fail_unless (out != NULL, "horiz after 90r was refused: no output (%s)",
      error ? error : "no error");
  ct_check_assert_oriented (&info, in, out, GST_VIDEO_ORIENTATION_HORIZ,
      "horiz after 90r");
  gst_buffer_unref (out);
  /* and vert after 90r is refused for what it is */
  out = found_push (h, bus, "video-direction", "90r", in, &error);
  fail_unless (out == NULL && error && strstr (error, "Interlaced"),
      "90r again: %s", error ? error : "output, or no error");
  g_free (error);
  out = found_push (h, bus, "video-direction", "vert", in, &error);
  fail_unless (out == NULL && (!error || strstr (error, "Interlaced")),
      "vert after 90r: %s", error ? error : "output");
  g_free (error);
  gst_buffer_unref (in);
  ct_check_harness_free (h, bus);
}

GST_END_TEST;

/* Interlaced video in vert from the start is refused, saying why; set to
 * horiz while playing, it must come out. The element remembers the caps it
 * refused (to say so once), not the direction they were refused for:
 * horiz gives the same caps, and every buffer after is refused without a
 * word (not-negotiated, no error): a silent loss. */
GST_START_TEST (test_found_interlaced_start)
{
  GstBus *bus;
  GstHarness *h = ct_check_harness_new ("cudatranspose video-direction=vert",
      &bus);
  GstVideoInfo info;
  GstBuffer *in = found_interlaced_frame (h, &info), *out;
  gchar *error;

  out = found_push (h, bus, NULL, NULL, in, &error);
  fail_unless (out == NULL && error && strstr (error, "Interlaced"),
      "vert: %s", error ? error : "output, or no error");
  g_free (error);
  out = found_push (h, bus, "video-direction", "horiz", in, &error);
  fail_unless (out != NULL, "horiz after vert was refused: no output (%s)",
      error ? error : "no error");
  ct_check_assert_oriented (&info, in, out, GST_VIDEO_ORIENTATION_HORIZ,
      "horiz after vert");
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  ct_check_harness_free (h, bus);
}

GST_END_TEST;

/* One uint8 tensor of sizes @dims (@rank of them) through a harness, and
 * the buffer for it. */
static GstBuffer *
found_tensor (GstHarness * h, FuzzTensor * t, const guint64 * dims,
    guint rank)
{
  GString *text = g_string_new (NULL);
  GstBuffer *in;
  GstMapInfo map;
  gchar *caps;
  guint i;

  memset (t, 0, sizeof (*t));
  t->rank = rank;
  t->elem_size = 1;
  for (i = 0; i < rank; i++) {
    t->dims[i] = dims[i];
    g_string_append_printf (text, "%s%" G_GUINT64_FORMAT, i ? ":" : "",
        dims[i]);
  }
  t->bytes = fuzz_tensor_bytes (t);
  caps = g_strdup_printf ("other/tensors,format=static,num_tensors=1,"
      "dimensions=(string)%s,types=uint8,framerate=0/1", text->str);
  gst_harness_set_src_caps_str (h, caps);
  in = gst_buffer_new_allocate (NULL, t->bytes, NULL);
  fail_unless (gst_buffer_map (in, &map, GST_MAP_WRITE));
  for (i = 0; i < map.size; i++)
    map.data[i] = i;
  gst_buffer_unmap (in, &map);
  g_free (caps);
  g_string_free (text, TRUE);
  return in;
}

/* Fails unless @out is @in's tensor @t rearranged by @perm (NULL: its two
 * innermost swapped). */
static void
found_assert_tensor (const FuzzTensor * t, const guint * perm,
    GstBuffer * in, GstBuffer * out, const gchar * what)
{
  GstMapInfo im, om;

  fail_unless (out != NULL, "%s: no output", what);
  fail_unless (gst_buffer_map (in, &im, GST_MAP_READ));
  fail_unless (gst_buffer_map (out, &om, GST_MAP_READ));
  fail_unless (om.size == im.size, "%s: %" G_GSIZE_FORMAT " bytes", what,
      om.size);
  check_tensor (t, perm, im.data, om.data, what, 0);
  gst_buffer_unmap (out, &om);
  gst_buffer_unmap (in, &im);
}

/* A rank-5 tensor: transposed; a permutation set while playing is
 * refused at the renegotiation, saying why (rank); unset again, the
 * transpose must come back. As with interlaced video, the job the refusal
 * left empty is never set again: the caps are those of before, and every
 * buffer is refused with "A buffer came before any caps were
 * negotiated". */
GST_START_TEST (test_found_permutation_back)
{
  static const guint64 dims[5] = { 2, 3, 4, 5, 6 };
  GstBus *bus;
  GstHarness *h = ct_check_harness_new ("cudatranspose", &bus);
  FuzzTensor t;
  GstBuffer *in = found_tensor (h, &t, dims, 5), *out;
  gchar *error;

  out = found_push (h, bus, NULL, NULL, in, &error);
  found_assert_tensor (&t, NULL, in, out, "transposed");
  gst_buffer_unref (out);
  out = found_push (h, bus, "permutation", "1:0:2:3", in, &error);
  fail_unless (out == NULL && error && strstr (error, "rank"),
      "1:0:2:3 on rank 5: %s", error ? error : "output, or no error");
  g_free (error);
  out = found_push (h, bus, "permutation", "", in, &error);
  fail_unless (out != NULL, "unset after 1:0:2:3 was refused: no output "
      "(%s)", error ? error : "no error");
  found_assert_tensor (&t, NULL, in, out, "unset after 1:0:2:3");
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  ct_check_harness_free (h, bus);
}

GST_END_TEST;

/* A rank-5 tensor whose fifth size is not 1 (1:1:3:1:3), with a
 * permutation from the start: refused, saying why (rank); unset while
 * playing, the transpose must come out. Its caps (1:1:3:1:3 again) are
 * those refused for the permutation, which the element remembers without
 * the permutation: every buffer after is refused without a word, for
 * ever (the same as interlaced video from vert to horiz). */
GST_START_TEST (test_found_permutation_start)
{
  static const guint64 dims[5] = { 1, 1, 3, 1, 3 };
  GstBus *bus;
  GstHarness *h = ct_check_harness_new ("cudatranspose "
      "permutation=3:2:0:1", &bus);
  FuzzTensor t;
  GstBuffer *in = found_tensor (h, &t, dims, 5), *out;
  gchar *error;

  out = found_push (h, bus, NULL, NULL, in, &error);
  fail_unless (out == NULL && error && strstr (error, "rank"),
      "3:2:0:1 on rank 5: %s", error ? error : "output, or no error");
  g_free (error);
  out = found_push (h, bus, "permutation", "", in, &error);
  fail_unless (out != NULL, "unset after 3:2:0:1 was refused: no output "
      "(%s)", error ? error : "no error");
  found_assert_tensor (&t, NULL, in, out, "unset after 3:2:0:1");
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  ct_check_harness_free (h, bus);
}

GST_END_TEST;

/* A permutation set or unset while playing that leaves the output caps as
 * they were (1:1:3:3: the transpose of its two innermost 1s, and 0:1:3:2,
 * are both 1:1:3:3) is not applied: the job is only set in set_caps, which
 * the base class skips for equal caps. The output is silently the old
 * layout. */
GST_START_TEST (test_found_permutation_same_caps)
{
  static const guint64 dims[4] = { 1, 1, 3, 3 };
  static const guint outer[4] = { 0, 1, 3, 2 };
  GstBus *bus;
  GstHarness *h = ct_check_harness_new ("cudatranspose", &bus);
  FuzzTensor t;
  GstBuffer *in = found_tensor (h, &t, dims, 4), *out;
  gchar *error;

  out = found_push (h, bus, NULL, NULL, in, &error);
  found_assert_tensor (&t, NULL, in, out, "transposed");
  gst_buffer_unref (out);
  out = found_push (h, bus, "permutation", "0:1:3:2", in, &error);
  found_assert_tensor (&t, outer, in, out, "0:1:3:2 set while playing");
  gst_buffer_unref (out);
  out = found_push (h, bus, "permutation", "", in, &error);
  found_assert_tensor (&t, NULL, in, out, "unset after 0:1:3:2");
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  ct_check_harness_free (h, bus);
}

GST_END_TEST;

static Suite *
cudatranspose_fuzz_suite (void)
{
  Suite *s = suite_create ("fuzz");
  TCase *tc = tcase_create ("fuzz");

  tcase_set_timeout (tc, 1200);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_fuzz_caps_and_buffers);
  /* (each alone: the fuzzing reaches them too, but only the first) */
  tcase_add_test (tc, test_found_interlaced_back);
  tcase_add_test (tc, test_found_interlaced_start);
  tcase_add_test (tc, test_found_permutation_back);
  tcase_add_test (tc, test_found_permutation_start);
  tcase_add_test (tc, test_found_permutation_same_caps);
  return s;
}

GST_CHECK_MAIN (cudatranspose_fuzz);
