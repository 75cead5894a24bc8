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
 * minimised, one test each (test_found_*). */
#include "transpose-check.h"

#include <string.h>

#define DEFAULT_SEED 20261123u
#define DEFAULT_CASES 12000
/* Cases per harness: the element is restarted between batches. */
#define BATCH 40
/* Inputs larger than this are only pushed short (they must be refused). */
#define MAX_PUSH_BYTES (2u << 20)

static guint32 fuzz_state;
/* (for the failure messages) */
static guint32 fuzz_seed;
/* CT_FUZZ_TRACE set: each case printed as it ends, to see the cases
 * before a failure in the same harness */
static gboolean fuzz_trace;

/* (a stream of its own: its cases follow from its seed alone) */
static guint32
fuzz_next (void)
{
  return ct_check_xorshift (&fuzz_state);
}

/* A number in [lo, hi]. */
static guint
fuzz_range (guint lo, guint hi)
{
  return lo + fuzz_next () % (hi - lo + 1);
}

/* TRUE with probability @percent / 100. */
static gboolean
fuzz_chance (guint percent)
{
  return fuzz_next () % 100 < percent;
}

static void
fuzz_fill (guint8 * data, gsize size)
{
  gsize i;

  for (i = 0; i < size; i++)
    data[i] = fuzz_next () >> 24;
}

/* ---- the element in a harness ---- */

typedef enum
{
  KIND_VIDEO,                   /* video in, transposed video out */
  KIND_TENSORS,                 /* tensors in and out */
  KIND_VIDEO_TO_TENSOR,         /* packed RGB in, a tensor out */
  KIND_DIRECTION,               /* progressive video, video-direction
                                 * changed while playing */
  KIND_INTERLACED,              /* interlaced video, the same */
  KIND_PERMUTATION,             /* tensors, permutation changed while
                                 * playing */
  KIND_FLEXIBLE,                /* 17 to 256 flexible tensors a buffer */
} Kind;
#define N_KINDS (KIND_FLEXIBLE + 1)

/* What happened to the cases, for the summary. */
static struct
{
  guint exact;                  /* transformed, output checked */
  guint refused_caps;           /* the pads refused the caps */
  guint refused_error;          /* refused, with an error message */
  guint refused_again;          /* refused again, its error posted before */
  guint refused_start;          /* an invalid permutation stopped the start */
  guint cases[N_KINDS];         /* cases of each Kind */
  guint direction_changes;      /* video-direction set, or a tag pushed */
  guint orientation_tags;       /* of which image-orientation tags */
  guint custom_refused;         /* of which custom, refused */
  guint permutation_changes;    /* permutation set while playing */
  guint permutation_invalid;    /* of which invalid, refused */
  guint permutation_unset;      /* of which unset */
  guint flexible_tensors;       /* tensors of buffers past 16 checked */
  guint restarts;               /* to READY or NULL and back to PLAYING */
  guint flushes;                /* FLUSH_START and FLUSH_STOP */
  guint seeks;                  /* of which answering a flushing seek */
} tally;

#define MAX_TENSORS 20
#define MAX_RANK 17

typedef struct
{
  guint rank;
  guint64 dims[MAX_RANK];
  gboolean malformed;           /* a size that is no size */
  guint elem_size;              /* 0: no valid type */
  guint64 bytes;                /* G_MAXUINT64: past 64 bits */
} FuzzTensor;

typedef struct
{
  guint n;                      /* tensors described */
  FuzzTensor t[MAX_TENSORS];
  gboolean valid;               /* caps a correct element could take */
  guint64 total;
} FuzzTensors;

typedef struct
{
  GstHarness *h;
  GstBus *bus;
  GstPad *sinkpad;              /* the element's */
  Kind kind;
  gboolean permute;             /* the permutation in effect, if any */
  guint perm[4];
  gboolean poison;              /* downstream proposes a poisoning allocator */
  /* the kinds that keep their caps from buffer to buffer (so that what
   * changes while playing is not hidden by a caps event before each
   * buffer): the input caps, NULL before the first case */
  GstCaps *caps;
  FuzzTensors ts;               /* KIND_PERMUTATION: what the caps say, */
  gboolean permutable;          /* and whether a permutation takes them */
  /* video: video-direction as set, and what the last image-orientation
   * tag asked for (auto follows it) */
  GstVideoOrientationMethod direction, tag_direction;
  /* interlaced video, or tensors a permutation cannot take: a refusal has
   * been said (an error posted) since the last buffer out, or the caps or
   * the stream changed */
  gboolean said;
  guint streams;                /* stream-starts pushed, for their ids */
  gboolean keep_kernel;         /* no kernel changes (a case replayed) */
} Setup;

static const gchar *
direction_nick (GstVideoOrientationMethod method)
{
  GEnumClass *klass = g_type_class_ref (GST_TYPE_VIDEO_ORIENTATION_METHOD);
  GEnumValue *value = g_enum_get_value (klass, method);
  /* (the nicks are static, the class stays) */
  const gchar *nick = value ? value->value_nick : "?";

  g_type_class_unref (klass);
  return nick;
}

/* The direction the element must turn the next frame to. */
static GstVideoOrientationMethod
direction_in_effect (const Setup * s)
{
  return s->direction == GST_VIDEO_ORIENTATION_AUTO ? s->tag_direction :
      s->direction;
}

/* "a:b:c:d" of @perm, or NULL (g_free it). */
static gchar *
permutation_text (gboolean permute, const guint * perm)
{
  return permute ? g_strdup_printf ("%u:%u:%u:%u", perm[0], perm[1], perm[2],
      perm[3]) : NULL;
}

/* A random order of 0..3. */
static void
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

static void
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
   * break its fields at its first negotiation already */
  if (kind == KIND_DIRECTION || kind == KIND_INTERLACED) {
    s->direction = kind == KIND_DIRECTION && fuzz_chance (10) ?
        GST_VIDEO_ORIENTATION_AUTO :
        ct_check_directions[fuzz_range (0, ct_check_n_directions - 1)];
    g_string_append_printf (desc, " video-direction=%s",
        direction_nick (s->direction));
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
  s->sinkpad = gst_element_get_static_pad (s->h->element, "sink");
  g_string_free (desc, TRUE);
}

static void
setup_stop (Setup * s)
{
  gst_clear_caps (&s->caps);
  gst_object_unref (s->sinkpad);
  ct_check_harness_free (s->h, s->bus);
}

/* What came of a buffer pushed. */
typedef struct
{
  GstFlowReturn ret;
  GstBuffer *out;               /* the output, or NULL */
  gchar *error;                 /* the first error's text, or NULL */
  guint errors;
  gboolean accepted;            /* the element's sink pad takes the caps */
} Pushed;

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
static void
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
static GstBuffer *
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
static void
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
    fail_unless (setup_refuses (s), "seed %u: caps %" GST_PTR_FORMAT
        " refused after a restart: %s", fuzz_seed, s->caps, debug);
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
static const gchar *
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

/* ---- video ---- */

/* Beside the formats the element takes (ct_check_formats): refused ones
 * (8-bit planar and semi-planar 4:2:2, v210's packed words). */
static const GstVideoFormat refused_formats[] = {
  GST_VIDEO_FORMAT_Y42B, GST_VIDEO_FORMAT_NV16, GST_VIDEO_FORMAT_v210,
  GST_VIDEO_FORMAT_NV61,
};

static const GstVideoFormat packed_formats[] = {
  GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_BGR, GST_VIDEO_FORMAT_RGBA,
  GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBx, GST_VIDEO_FORMAT_BGRx,
};

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

static void
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

/* Packed RGB video going out as a tensor: the frame is the HWC tensor
 * C:W:H:1, and output dimension i is its dimension perm[i]. */
static void
fuzz_video_to_tensor (Setup * s, guint index, const gchar * churn)
{
  GstVideoFormat format = packed_formats[fuzz_range (0,
          G_N_ELEMENTS (packed_formats) - 1)];
  gint w = fuzz_chance (90) ? (gint) fuzz_range (1, 90) : fuzz_side ();
  gint h = fuzz_chance (90) ? (gint) fuzz_range (1, 90) : fuzz_side ();
  GstCaps *caps = fuzz_video_caps (format, w, h);
  GstVideoInfo info;
  gboolean have_info = gst_video_info_from_caps (&info, caps);
  GstBuffer *in = fuzz_video_buffer (have_info ? &info : NULL), *out;
  gchar *what = g_strdup_printf ("seed %u, case %u: %s %dx%d to a tensor "
      "by %u:%u:%u:%u, %" G_GSIZE_FORMAT " bytes%s", fuzz_seed, index,
      gst_video_format_to_string (format), w, h, s->perm[0], s->perm[1],
      s->perm[2], s->perm[3], gst_buffer_get_size (in), churn ? churn : "");
  gboolean expect_ok = have_info && w > 0 && h > 0 && plain_caps (caps) &&
      !gst_buffer_get_video_meta (in) &&
      gst_buffer_get_size (in) >= GST_VIDEO_INFO_SIZE (&info);

  out = push_case (s, caps, gst_buffer_ref (in), expect_ok, what);
  if (out) {
    guint64 hwc[4], stride[4] = { 1, 1, 1, 1 }, step[4];
    GstVideoFrame f;
    GstMapInfo om;
    guint c, i, x, y, ch;

    fail_unless (have_info, "%s: transformed caps that make no frame", what);
    c = GST_VIDEO_INFO_COMP_PSTRIDE (&info, 0);
    hwc[0] = c;
    hwc[1] = w;
    hwc[2] = h;
    hwc[3] = 1;
    for (i = 1; i < 4; i++)
      stride[i] = stride[i - 1] * hwc[s->perm[i - 1]];
    for (i = 0; i < 4; i++)
      step[s->perm[i]] = stride[i];
    fail_unless (gst_video_frame_map (&f, &info, in, GST_MAP_READ), "%s",
        what);
    fail_unless (gst_buffer_map (out, &om, GST_MAP_READ));
    fail_unless (om.size >= (gsize) w * h * c, "%s: output too small", what);
    for (y = 0; y < (guint) h; y++)
      for (x = 0; x < (guint) w; x++)
        for (ch = 0; ch < c; ch++) {
          const guint8 *px = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f,
              0) + y * GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0) + x * c;
          if (om.data[ch * step[0] + x * step[1] + y * step[2]] != px[ch])
            fail ("%s: channel %u of (%u, %u) differs", what, ch, x, y);
        }
    gst_buffer_unmap (out, &om);
    gst_video_frame_unmap (&f);
    poison_and_release (out);
  }
  gst_buffer_unref (in);
  g_free (what);
}

/* ---- video-direction while playing ---- */

/* A frame of @info of random bytes: GStreamer's layout, or (@pad > 0)
 * rows @pad bytes longer and planes apart at odd offsets, described
 * truthfully by a GstVideoMeta (which the element must take). */
static GstBuffer *
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

/* image-orientation tags and the directions they ask for, as GStreamer
 * 1.22 reads them (gst_video_orientation_from_tag, which videoflip
 * follows: a flip, then the rotation). */
static const struct
{
  const gchar *tag;
  GstVideoOrientationMethod method;
} orientation_tags[] = {
  {"rotate-0", GST_VIDEO_ORIENTATION_IDENTITY},
  {"rotate-90", GST_VIDEO_ORIENTATION_90R},
  {"rotate-180", GST_VIDEO_ORIENTATION_180},
  {"rotate-270", GST_VIDEO_ORIENTATION_90L},
  {"flip-rotate-0", GST_VIDEO_ORIENTATION_HORIZ},
  {"flip-rotate-90", GST_VIDEO_ORIENTATION_UR_LL},
  {"flip-rotate-180", GST_VIDEO_ORIENTATION_VERT},
  {"flip-rotate-270", GST_VIDEO_ORIENTATION_UL_LR},
};

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
    guint k = fuzz_range (0, G_N_ELEMENTS (orientation_tags) - 1);
    gboolean to_auto = r < 22, first = fuzz_chance (50);

    if (to_auto && first)
      g_object_set (s->h->element, "video-direction",
          GST_VIDEO_ORIENTATION_AUTO, NULL);
    gst_harness_push_event (s->h, gst_event_new_tag (gst_tag_list_new
            (GST_TAG_IMAGE_ORIENTATION, orientation_tags[k].tag, NULL)));
    if (to_auto && !first)
      g_object_set (s->h->element, "video-direction",
          GST_VIDEO_ORIENTATION_AUTO, NULL);
    s->tag_direction = orientation_tags[k].method;
    if (to_auto)
      s->direction = GST_VIDEO_ORIENTATION_AUTO;
    tally.orientation_tags++;
    return g_strdup_printf ("%s%s%s", to_auto && first ? "auto, " : "",
        orientation_tags[k].tag, to_auto && !first ? ", auto" : "");
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
static void
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
static void
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
    fail_unless (p.out == NULL, "%s: output (flow %s) in a direction that "
        "breaks the fields", what, gst_flow_get_name (p.ret));
    fail_unless (p.ret == GST_FLOW_NOT_NEGOTIATED || p.ret == GST_FLOW_ERROR,
        "%s: flow %s without output", what, gst_flow_get_name (p.ret));
    if (p.errors > 0) {
      fail_unless (p.error && strstr (p.error, "Interlaced") != NULL,
          "%s: refused with \"%s\", not saying \"Interlaced\"", what,
          p.error ? p.error : "(no error message)");
      s->said = TRUE;
      tally.refused_error++;
    } else {
      fail_unless (s->said, "%s: refused (%s) without an error", what,
          gst_flow_get_name (p.ret));
      tally.refused_again++;
    }
    g_free (p.error);
  }
  gst_buffer_unref (in);
  g_free (change);
  g_free (what);
}

/* ---- tensors ---- */

static const struct
{
  const gchar *name;
  guint size;
} types[] = {
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
static guint64
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
        G_N_ELEMENTS (types) - 1);
    g_string_append_printf (tys, "%s%s", i ? "," : "", types[k].name);
    t->elem_size = types[k].size;
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
static void
check_tensor (const FuzzTensor * t, const guint * perm, const guint8 * in,
    const guint8 * out, const gchar * what, guint index)
{
  const guint es = t->elem_size;
  guint64 d[4] = { 1, 1, 1, 1 }, x[4], ostride[4], pos_stride[4];
  guint i;

  if (perm) {
    for (i = 0; i < MIN (t->rank, 4); i++)
      d[i] = t->dims[i];
  } else {
    d[0] = t->dims[0];
    d[1] = t->rank > 1 ? t->dims[1] : 1;
    for (i = 2; i < t->rank; i++)
      d[2] *= t->dims[i];
  }
  ostride[0] = 1;
  for (i = 1; i < 4; i++)
    ostride[i] = ostride[i - 1] * (perm ? d[perm[i - 1]] : i == 1 ? d[1] :
        i == 2 ? d[0] : d[2]);
  /* input dimension k moves with output stride pos_stride[k] */
  if (perm) {
    for (i = 0; i < 4; i++)
      pos_stride[perm[i]] = ostride[i];
  } else {
    pos_stride[0] = ostride[1];
    pos_stride[1] = ostride[0];
    pos_stride[2] = ostride[2];
    pos_stride[3] = ostride[3];
  }
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

static void
fuzz_tensors (Setup * s, guint index, const gchar * churn)
{
  FuzzTensors ts;
  GstCaps *caps = fuzz_tensor_caps (&ts, s->permute);
  GstBuffer *in = gst_buffer_new (), *out;
  guint i, layout = fuzz_range (0, 99), n_mem;
  gboolean short_input = FALSE;
  gchar *what;
  gboolean expect_ok;

  /* one memory for all (or a short one), one per tensor, or a count that
   * disagrees */
  if (!ts.valid || ts.total > MAX_PUSH_BYTES) {
    n_mem = fuzz_range (1, 3);
    for (i = 0; i < n_mem; i++)
      gst_buffer_append (in, gst_buffer_new_allocate (NULL, fuzz_range (0,
                  256), NULL));
    short_input = TRUE;
  } else if (layout < 50) {
    gsize size = ts.total;

    if (fuzz_chance (15)) {
      size = fuzz_chance (50) ? ts.total - 1 : ts.total / 2;
      short_input = TRUE;
    } else if (fuzz_chance (10)) {
      size += fuzz_range (1, 64);
    }
    gst_buffer_append_memory (in, gst_allocator_alloc (NULL, size, NULL));
  } else if (layout < 90) {
    for (i = 0; i < ts.n; i++) {
      gsize size = ts.t[i].bytes;

      if (fuzz_chance (5)) {
        size = size - 1;
        short_input = TRUE;
      }
      gst_buffer_append_memory (in, gst_allocator_alloc (NULL, size, NULL));
    }
  } else {
    n_mem = fuzz_range (2, ts.n + 3);
    short_input = n_mem != ts.n;
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
  /* valid caps, every tensor's bytes there: it must take it */
  expect_ok = ts.valid && !short_input;
  out = push_case (s, caps, gst_buffer_ref (in), expect_ok, what);
  if (out) {
    gsize offset = 0;
    gboolean one = gst_buffer_n_memory (in) == 1;

    fail_unless (ts.valid, "%s: transformed caps it should refuse", what);
    fail_unless (!short_input, "%s: transformed a buffer too short", what);
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

/* Invalid permutations: refused when starting, or while playing. */
static const gchar *const bad_permutations[] = { "0:0:1:2", "abc",
  "5:1:2:3", "1:0", "0:1:2:3:4", ":::", "1:2:0:3:", "-1:0:1:2", "0:1:2:3x",
};

/* The sizes of @t once rearranged, in @out: with @perm (rank 4 or less)
 * output dimension i is dimension perm[i], else the two innermost swap.
 * Returns the output's rank: the input's, grown only where a size other
 * than 1 moves past it (a rank-1 tensor of n is 1 x n once transposed),
 * as docs/tensors.md says. */
static guint
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
    g_string_append_printf (tys, "%s%s", i ? "," : "", types[k].name);
    t->elem_size = types[k].size;
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
static void
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
    fail_unless (p.out == NULL, "%s: output (flow %s) by a permutation that "
        "cannot take a tensor", what, gst_flow_get_name (p.ret));
    fail_unless (p.ret == GST_FLOW_NOT_NEGOTIATED || p.ret == GST_FLOW_ERROR,
        "%s: flow %s without output", what, gst_flow_get_name (p.ret));
    if (p.errors > 0) {
      fail_unless (p.error && strstr (p.error, "rank") != NULL, "%s: "
          "refused with \"%s\", not saying why (the rank)", what,
          p.error ? p.error : "(no error message)");
      s->said = TRUE;
      tally.refused_error++;
    } else {
      fail_unless (s->said, "%s: refused (%s) without an error", what,
          gst_flow_get_name (p.ret));
      tally.refused_again++;
    }
    g_free (p.error);
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
          dims->str) == 0, "%s: output caps %" GST_PTR_FORMAT ", not "
      "dimensions %s", what, out_caps, dims->str);
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

/* ---- flexible tensors past 16 ---- */

#define NNS_TENSOR_MAGIC 0xfeedcced
#define FLEX_MAX 300

typedef enum
{
  FLEX_WHOLE,                   /* well formed: every tensor must come out */
  FLEX_TOO_MANY,                /* more than NNStreamer's 256 */
  FLEX_TRAILING,                /* bytes after a memory's last tensor */
  FLEX_SHORT,                   /* the last tensor cut short */
  FLEX_COUNT,                   /* the 16th memory's header miscounts */
} FlexFault;

static const gchar *const flex_faults[] = { "", ", more than 256",
  ", trailing bytes in a memory", ", the last tensor cut short",
  ", the 16th memory's header miscounting"
};

typedef enum
{
  LAYOUT_NNSTREAMER,            /* 15 memories, then the 16th with the rest */
  LAYOUT_APPENDED,              /* gst_buffer_append_memory, one a tensor */
  LAYOUT_GROUPED,               /* up to 16 memories, cut between tensors */
} FlexLayout;

static const gchar *const flex_layouts[] = { "NNStreamer's layout",
  "appended", "grouped"
};

/* Fails unless @header (NNStreamer's tensor header) describes @t of
 * NNStreamer type @type rearranged: the sizes, 0 past the rank. */
static void
check_flex_header (const guint8 * header, const FuzzTensor * t, guint type,
    const guint * perm, const gchar * what, guint index)
{
  guint64 od[MAX_RANK];
  guint rank = rearranged (t, perm, od), k;
  guint32 w[19];

  memcpy (w, header, sizeof (w));
  if (w[0] != NNS_TENSOR_MAGIC || w[2] != type)
    fail ("%s: tensor %u's header has magic 0x%x and type %u, not 0x%x and "
        "%u", what, index, w[0], w[2], NNS_TENSOR_MAGIC, type);
  for (k = 0; k < 16; k++)
    if (w[3 + k] != (k < rank ? od[k] : 0))
      fail ("%s: tensor %u's header gives size %u as %u, not %"
          G_GUINT64_FORMAT, what, index, k, w[3 + k], k < rank ? od[k] : 0);
}

/* Buffers of 17 to 256 flexible tensors (a header before each), in
 * NNStreamer's layout past 16, appended memory by memory (GStreamer merges
 * them past 16, so a memory holds several), or cut into up to 16 memories
 * between tensors: every tensor must come out, rearranged, in NNStreamer's
 * layout. More than 256, bytes that are no whole header and tensor, or a
 * 16th memory's header that miscounts, must be an error, never a loss. */
static void
fuzz_flexible (Setup * s, guint index, const gchar * churn)
{
  guint r = fuzz_range (0, 99), n, i, k, n_pieces = 0;
  FlexFault fault = FLEX_WHOLE;
  FlexLayout layout;
  FuzzTensor *t;
  guint *type;
  gsize *at, total = 0, extra = sizeof (CtCheckNnsExtra);
  guint8 *blob;
  struct
  {
    guint8 *data;
    gsize size;
  } *pieces;
  GstCaps *caps = NULL;
  GstBuffer *in, *out;
  const guint *perm = s->permute ? s->perm : NULL;
  gchar *text, *what;

  if (!s->caps) {
    caps = gst_caps_from_string (fuzz_chance (50) ?
        "other/tensors,format=flexible,framerate=0/1" :
        "other/tensors,format=flexible,framerate=30/1");
    gst_caps_replace (&s->caps, caps);
  }
  n = r < 55 ? fuzz_range (17, 40) : r < 80 ? fuzz_range (41, 120) : r < 92 ?
      fuzz_range (121, 255) : r < 96 ? 256 : 17;
  if (fuzz_chance (20))
    fault = (FlexFault) fuzz_range (FLEX_TOO_MANY, FLEX_COUNT);
  if (fault == FLEX_TOO_MANY)
    n = fuzz_range (257, FLEX_MAX);
  layout = fault == FLEX_COUNT ? LAYOUT_NNSTREAMER :
      (FlexLayout) fuzz_range (0, 2);

  /* every header and tensor back to back, then cut into memories */
  t = g_new0 (FuzzTensor, n);
  type = g_new (guint, n);
  at = g_new (gsize, n + 1);
  for (i = 0; i < n; i++) {
    type[i] = fuzz_range (0, ct_check_n_nns_types - 1);
    t[i].elem_size = ct_check_nns_types[type[i]].size;
    t[i].rank = fuzz_range (1, 4);
    for (k = 0; k < t[i].rank; k++)
      t[i].dims[k] = fuzz_chance (92) ? fuzz_range (1, 3) : fuzz_range (4, 9);
    t[i].bytes = fuzz_tensor_bytes (&t[i]);
    at[i] = total;
    total += CT_CHECK_NNS_HEADER + t[i].bytes;
  }
  at[n] = total;
  blob = g_malloc (total);
  for (i = 0; i < n; i++) {
    guint dims[4];

    for (k = 0; k < t[i].rank; k++)
      dims[k] = t[i].dims[k];
    ct_check_nns_write_meta (blob + at[i], NNS_TENSOR_MAGIC, type[i], dims,
        t[i].rank, 1);
    fuzz_fill (blob + at[i] + CT_CHECK_NNS_HEADER, t[i].bytes);
  }

  pieces = g_malloc0_n (n + 1, sizeof (*pieces));
  if (layout == LAYOUT_NNSTREAMER) {
    CtCheckNnsExtra *x = g_new0 (CtCheckNnsExtra, 1);

    for (i = 0; i < 15; i++) {
      pieces[i].size = at[i + 1] - at[i];
      pieces[i].data = g_memdup2 (blob + at[i], pieces[i].size);
    }
    x->magic = CT_CHECK_NNS_EXTRA_MAGIC;
    x->num_extra_tensors = n - 16;
    x->reserved = CT_CHECK_NNS_HEADER + t[15].bytes;
    for (i = 16; i < n && i - 16 < G_N_ELEMENTS (x->infos); i++) {
      x->infos[i - 16].type = type[i];
      for (k = 0; k < t[i].rank; k++)
        x->infos[i - 16].dimension[k] = t[i].dims[k];
    }
    if (fault == FLEX_COUNT) {
      /* too few, too many, or a count that wraps around */
      k = fuzz_range (0, 9);
      x->num_extra_tensors = k == 0 ? G_MAXUINT32 - fuzz_range (0, 1) :
          k < 5 || n == 17 ? n - 16 + fuzz_range (1, 3) :
          n - 16 - fuzz_range (1, MIN (3, n - 16));
    }
    pieces[15].size = extra + total - at[15];
    pieces[15].data = g_malloc (pieces[15].size);
    memcpy (pieces[15].data, x, extra);
    memcpy (pieces[15].data + extra, blob + at[15], total - at[15]);
    n_pieces = 16;
    g_free (x);
  } else {
    gboolean *cut = g_new0 (gboolean, n + 1);
    guint from = 0;

    if (layout == LAYOUT_APPENDED) {
      for (i = 1; i < n; i++)
        cut[i] = TRUE;
    } else {
      for (k = fuzz_range (1, 16); k > 1; k--)
        cut[fuzz_range (1, n - 1)] = TRUE;
    }
    for (i = 1; i <= n; i++) {
      if (i < n && !cut[i])
        continue;
      pieces[n_pieces].size = at[i] - at[from];
      pieces[n_pieces].data = g_memdup2 (blob + at[from],
          pieces[n_pieces].size);
      n_pieces++;
      from = i;
    }
    g_free (cut);
  }
  if (fault == FLEX_TRAILING) {
    /* (its first byte 0: no header's magic) */
    gsize more = fuzz_range (1, 200);

    k = fuzz_range (0, n_pieces - 1);
    pieces[k].data = g_realloc (pieces[k].data, pieces[k].size + more);
    fuzz_fill (pieces[k].data + pieces[k].size, more);
    pieces[k].data[pieces[k].size] = 0;
    pieces[k].size += more;
  } else if (fault == FLEX_SHORT) {
    pieces[n_pieces - 1].size -= fuzz_range (1, CT_CHECK_NNS_HEADER +
        t[n - 1].bytes - 1);
  }
  in = gst_buffer_new ();
  for (i = 0; i < n_pieces; i++)
    gst_buffer_append_memory (in, gst_memory_new_wrapped (0, pieces[i].data,
            pieces[i].size, 0, pieces[i].size, pieces[i].data, g_free));
  g_free (pieces);

  text = permutation_text (s->permute, s->perm);
  what = g_strdup_printf ("seed %u, case %u: %u flexible tensors, %s, %u "
      "memories, %" G_GSIZE_FORMAT " bytes, permutation %s%s%s", fuzz_seed,
      index, n, flex_layouts[layout], gst_buffer_n_memory (in),
      gst_buffer_get_size (in), text ? text : "unset", flex_faults[fault],
      churn ? churn : "");
  g_free (text);

  out = push_case (s, caps, gst_buffer_ref (in), fault == FLEX_WHOLE, what);
  if (out) {
    GstMapInfo om;

    fail_unless (fault == FLEX_WHOLE, "%s: transformed, not refused", what);
    fail_unless (gst_buffer_n_memory (out) == 16, "%s: %u output memories, "
        "not 16", what, gst_buffer_n_memory (out));
    for (i = 0; i < 15; i++) {
      fail_unless (gst_memory_map (gst_buffer_peek_memory (out, i), &om,
              GST_MAP_READ));
      fail_unless (om.size == at[i + 1] - at[i], "%s: output memory %u has %"
          G_GSIZE_FORMAT " bytes, not %" G_GSIZE_FORMAT, what, i, om.size,
          at[i + 1] - at[i]);
      check_flex_header (om.data, &t[i], type[i], perm, what, i);
      check_tensor (&t[i], perm, blob + at[i] + CT_CHECK_NNS_HEADER,
          om.data + CT_CHECK_NNS_HEADER, what, i);
      gst_memory_unmap (gst_buffer_peek_memory (out, i), &om);
    }
    /* the 16th: NNStreamer's header of the rest, then each with its own */
    fail_unless (gst_memory_map (gst_buffer_peek_memory (out, 15), &om,
            GST_MAP_READ));
    fail_unless (om.size == extra + total - at[15], "%s: the 16th output "
        "memory has %" G_GSIZE_FORMAT " bytes, not %" G_GSIZE_FORMAT, what,
        om.size, extra + total - at[15]);
    {
      CtCheckNnsExtra *y = g_new (CtCheckNnsExtra, 1);

      memcpy (y, om.data, extra);
      fail_unless (y->magic == CT_CHECK_NNS_EXTRA_MAGIC &&
          y->num_extra_tensors == n - 16 &&
          y->reserved == CT_CHECK_NNS_HEADER + t[15].bytes, "%s: the 16th "
          "memory's header has magic 0x%x, %u more, %" G_GUINT64_FORMAT
          " reserved", what, y->magic, y->num_extra_tensors, y->reserved);
      for (i = 16; i < n; i++) {
        guint64 od[MAX_RANK];
        guint rank = rearranged (&t[i], perm, od);

        if (y->infos[i - 16].type != type[i])
          fail ("%s: the 16th memory's header gives tensor %u type %u, not "
              "%u", what, i, y->infos[i - 16].type, type[i]);
        for (k = 0; k < 16; k++)
          if (y->infos[i - 16].dimension[k] != (k < rank ? od[k] : 0))
            fail ("%s: the 16th memory's header gives tensor %u size %u as "
                "%u, not %" G_GUINT64_FORMAT, what, i, k,
                y->infos[i - 16].dimension[k], k < rank ? od[k] : 0);
      }
      g_free (y);
    }
    for (i = 15; i < n; i++) {
      const guint8 *o = om.data + extra + (at[i] - at[15]);

      check_flex_header (o, &t[i], type[i], perm, what, i);
      check_tensor (&t[i], perm, blob + at[i] + CT_CHECK_NNS_HEADER,
          o + CT_CHECK_NNS_HEADER, what, i);
    }
    gst_memory_unmap (gst_buffer_peek_memory (out, 15), &om);
    tally.flexible_tensors += n;
    poison_and_release (out);
  }
  gst_buffer_unref (in);
  g_free (blob);
  g_free (at);
  g_free (type);
  g_free (t);
  g_free (what);
}

/* An invalid permutation: the element must not start, and must say why. */
static void
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

GST_START_TEST (test_fuzz_caps_and_buffers)
{
  const gchar *env_seed = g_getenv ("CT_FUZZ_SEED");
  const gchar *env_cases = g_getenv ("CT_FUZZ_CASES");
  guint32 seed = env_seed ? (guint32) g_ascii_strtoull (env_seed, NULL, 10) :
      DEFAULT_SEED;
  guint cases = env_cases ? (guint) g_ascii_strtoull (env_cases, NULL, 10) :
      DEFAULT_CASES;
  guint done = 0, k;

  fuzz_state = seed ? seed : DEFAULT_SEED;
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
      "%u unset), %u flexible tensors past 16 checked, %u restarts from "
      "READY or NULL, %u flushes (%u answering a seek); no crash, abort or "
      "hang\n", done, tally.cases[KIND_VIDEO],
      tally.cases[KIND_TENSORS], tally.cases[KIND_VIDEO_TO_TENSOR],
      tally.cases[KIND_DIRECTION], tally.cases[KIND_INTERLACED],
      tally.cases[KIND_PERMUTATION], tally.cases[KIND_FLEXIBLE],
      tally.exact, tally.refused_error,
      tally.refused_caps, tally.refused_again, tally.refused_start,
      tally.direction_changes, tally.orientation_tags, tally.custom_refused,
      tally.permutation_changes, tally.permutation_invalid,
      tally.permutation_unset, tally.flexible_tensors, tally.restarts,
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
        tally.flexible_tensors > 0 && tally.restarts > 0 && tally.seeks > 0 &&
        tally.flushes > tally.seeks, "a change the generator no longer "
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
