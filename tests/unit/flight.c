/* Frames in flight (gst/gstcudatransposeflight.c) alone, on the CPU: the
 * GPU is a stub whose frames are done when the test says, pushing records
 * what goes out and from which thread. Checked: when a frame may be held
 * and for how long, the slot each frame takes and the room a frame that
 * may not be held waits for, the order frames go out in, drains that push
 * or drop, a failure on the GPU, the releaser (it pushes a held frame once
 * its period has passed and the GPU is done, under the stream lock, and
 * never a frame pushed already), and a random run of all of it against a
 * model kept here. */
#include <gst/check/gstcheck.h>

#include "gstcudatransposeflight.h"
#include "transpose-check.h"

GST_DEBUG_CATEGORY (gst_cuda_transpose_debug);

/* ---------------------------------------------------------------------- */
/* The stubs                                                                */

typedef struct
{
  GMutex lock;
  GCond cond;
  gboolean done[CT_FLIGHT_SLOTS];
  CtResult result[CT_FLIGHT_SLOTS];
  guint waits[CT_FLIGHT_SLOTS];
  guint asked;
} StubGpu;

static CtResult
stub_wait (gpointer data, gint slot, CtStep * step)
{
  StubGpu *g = data;
  CtResult res;

  fail_unless (slot >= 0 && slot < CT_FLIGHT_SLOTS, "wait on slot %d", slot);
  g_mutex_lock (&g->lock);
  g->waits[slot]++;
  while (!g->done[slot])
    g_cond_wait (&g->cond, &g->lock);
  res = g->result[slot];
  g_mutex_unlock (&g->lock);
  *step = CT_STEP_SYNC;
  return res;
}

static gboolean
stub_done (gpointer data, gint slot)
{
  StubGpu *g = data;
  gboolean done;

  fail_unless (slot >= 0 && slot < CT_FLIGHT_SLOTS, "query of slot %d",
      slot);
  g_mutex_lock (&g->lock);
  g->asked++;
  done = g->done[slot];
  g_mutex_unlock (&g->lock);
  return done;
}

static const CtFlightGpu stub_calls = { stub_wait, stub_done };

static void
gpu_set (StubGpu * g, gint slot, gboolean done, CtResult result)
{
  g_mutex_lock (&g->lock);
  g->done[slot] = done;
  g->result[slot] = result;
  g_cond_broadcast (&g->cond);
  g_mutex_unlock (&g->lock);
}

/* What went out: each buffer's offset (the frame's number), and from which
 * thread; and the failures reported. */
typedef struct
{
  GMutex lock;
  GArray *pushed;               /* guint64 offsets */
  GArray *threads;              /* GThread * */
  guint failures;
  CtStep failed_step;
  CtResult failed_res;
  GstFlowReturn push_ret;
} Out;

static GstFlowReturn
stub_push (gpointer data, GstBuffer * buf)
{
  Out *o = data;
  guint64 n = GST_BUFFER_OFFSET (buf);
  GThread *self = g_thread_self ();
  GstFlowReturn ret;

  g_mutex_lock (&o->lock);
  g_array_append_val (o->pushed, n);
  g_array_append_val (o->threads, self);
  ret = o->push_ret;
  g_mutex_unlock (&o->lock);
  gst_buffer_unref (buf);
  return ret;
}

static void
stub_failed (gpointer data, gint kernel, CtStep step, CtResult res)
{
  Out *o = data;

  g_mutex_lock (&o->lock);
  o->failures++;
  o->failed_step = step;
  o->failed_res = res;
  g_mutex_unlock (&o->lock);
}

static guint
pushed_count (Out * o)
{
  guint n;

  g_mutex_lock (&o->lock);
  n = o->pushed->len;
  g_mutex_unlock (&o->lock);
  return n;
}

/* Waits up to a second for @n frames out; the count. */
static guint
wait_pushed (Out * o, guint n)
{
  gint64 end = g_get_monotonic_time () + G_USEC_PER_SEC;

  while (pushed_count (o) < n && g_get_monotonic_time () < end)
    g_usleep (1000);
  return pushed_count (o);
}

typedef struct
{
  StubGpu gpu;
  Out out;
  GRecMutex stream_lock;
  CtFlight f;
  guint64 next;                 /* the next frame's number */
} Fixture;

static void
fixture_init (Fixture * x, GstClockTime period)
{
  memset (x, 0, sizeof (*x));
  g_mutex_init (&x->gpu.lock);
  g_cond_init (&x->gpu.cond);
  g_mutex_init (&x->out.lock);
  x->out.pushed = g_array_new (FALSE, FALSE, sizeof (guint64));
  x->out.threads = g_array_new (FALSE, FALSE, sizeof (GThread *));
  x->out.push_ret = GST_FLOW_OK;
  g_rec_mutex_init (&x->stream_lock);
  ct_flight_init (&x->f, NULL, &x->stream_lock, stub_push, stub_failed,
      &x->out, &stub_calls, &x->gpu);
  ct_flight_set_period (&x->f, period);
}

static void
fixture_clear (Fixture * x)
{
  gint s;

  /* (a releaser waiting on the GPU finishes) */
  for (s = 0; s < CT_FLIGHT_SLOTS; s++)
    gpu_set (&x->gpu, s, TRUE, CT_OK);
  g_rec_mutex_lock (&x->stream_lock);
  ct_flight_drain (&x->f, FALSE);
  g_rec_mutex_unlock (&x->stream_lock);
  ct_flight_clear (&x->f);
  g_rec_mutex_clear (&x->stream_lock);
  g_array_unref (x->out.pushed);
  g_array_unref (x->out.threads);
  g_mutex_clear (&x->out.lock);
  g_mutex_clear (&x->gpu.lock);
  g_cond_clear (&x->gpu.cond);
}

static GstBuffer *
frame (Fixture * x)
{
  GstBuffer *buf = gst_buffer_new ();

  GST_BUFFER_OFFSET (buf) = x->next++;
  return buf;
}

/* One frame through, as transform () and generate_output () take it,
 * under the stream lock: room made, queued where it may be held, the
 * output generated; what comes out is pushed (and a finished frame after
 * it), as the base class does. The slot it took into @slot. */
static void
run_frame (Fixture * x, GstClockTime hold, gint * slot)
{
  CtMapped none_in, none_out;
  GstBuffer *out = NULL;
  GstFlowReturn ret;
  CtStep step;
  gint s = -1;

  memset (&none_in, 0, sizeof (none_in));
  memset (&none_out, 0, sizeof (none_out));
  g_rec_mutex_lock (&x->stream_lock);
  fail_unless_equals_int (ct_flight_make_room (&x->f, hold, &s, &step),
      CT_OK);
  if (hold > 0) {
    fail_unless (s >= 0 && s < CT_FLIGHT_SLOTS);
    if (ct_flight_holds (&x->f))
      fail_unless (s != x->f.held.slot, "slot %d is the held frame's", s);
    /* (the stub's frame in that slot is not done yet) */
    gpu_set (&x->gpu, s, FALSE, CT_OK);
    ct_flight_queue (&x->f, s, &none_in, &none_out, 0, hold);
  } else {
    fail_unless_equals_int (s, -1);
  }
  ret = ct_flight_output (&x->f, GST_FLOW_OK, frame (x), &out);
  if (out && ret == GST_FLOW_OK)
    stub_push (&x->out, out);
  else if (out)
    gst_buffer_unref (out);
  while (ct_flight_take_ready (&x->f, &out))
    stub_push (&x->out, out);
  g_rec_mutex_unlock (&x->stream_lock);
  if (slot)
    *slot = s;
}

static guint64
pushed_at (Out * o, guint i)
{
  guint64 n;

  g_mutex_lock (&o->lock);
  n = g_array_index (o->pushed, guint64, i);
  g_mutex_unlock (&o->lock);
  return n;
}

/* ---------------------------------------------------------------------- */
/* The tests                                                                */

/* A frame may be held only at frames-in-flight=2, with a GPU kernel, where
 * the caps gave a period; for that period. */
GST_START_TEST (test_hold_rules)
{
  Fixture x;

  fixture_init (&x, 0);
  fail_unless_equals_uint64 (ct_flight_hold_for (&x.f, 2, TRUE), 0);
  ct_flight_set_period (&x.f, 33 * GST_MSECOND);
  fail_unless_equals_uint64 (ct_flight_hold_for (&x.f, 2, TRUE),
      33 * GST_MSECOND);
  fail_unless_equals_uint64 (ct_flight_hold_for (&x.f, 1, TRUE), 0);
  fail_unless_equals_uint64 (ct_flight_hold_for (&x.f, 2, FALSE), 0);
  fixture_clear (&x);
}

GST_END_TEST;

/* Held frames go out one behind, in order; the slots alternate, never the
 * held frame's; a frame that may not be held waits for the held one
 * (room), which goes out first, and then itself. */
GST_START_TEST (test_order_and_room)
{
  const GstClockTime hold = 10 * GST_SECOND;
  gint a, b, c, d;
  Fixture x;

  fixture_init (&x, hold);
  run_frame (&x, hold, &a);
  fail_unless_equals_int (pushed_count (&x.out), 0);
  gpu_set (&x.gpu, a, TRUE, CT_OK);
  run_frame (&x, hold, &b);
  fail_unless (b != a);
  fail_unless_equals_int (pushed_count (&x.out), 1);
  fail_unless_equals_uint64 (pushed_at (&x.out, 0), 0);
  gpu_set (&x.gpu, b, TRUE, CT_OK);
  run_frame (&x, hold, &c);
  fail_unless (c != b);
  fail_unless_equals_int (pushed_count (&x.out), 2);
  /* room: the held frame (c) is waited for before a frame not held */
  gpu_set (&x.gpu, c, TRUE, CT_OK);
  run_frame (&x, 0, &d);
  fail_unless (x.gpu.waits[c] >= 1);
  fail_unless_equals_int (pushed_count (&x.out), 4);
  fail_unless_equals_uint64 (pushed_at (&x.out, 2), 2);
  fail_unless_equals_uint64 (pushed_at (&x.out, 3), 3);
  fail_if (ct_flight_holds (&x.f));
  fixture_clear (&x);
}

GST_END_TEST;

/* A drain pushes the held frame (an event follows it) or drops it (a
 * flush); either way the GPU was waited for. */
GST_START_TEST (test_drain)
{
  const GstClockTime hold = 10 * GST_SECOND;
  gint a;
  Fixture x;

  fixture_init (&x, hold);
  run_frame (&x, hold, &a);
  gpu_set (&x.gpu, a, TRUE, CT_OK);
  g_rec_mutex_lock (&x.stream_lock);
  fail_unless_equals_int (ct_flight_drain (&x.f, TRUE), GST_FLOW_OK);
  g_rec_mutex_unlock (&x.stream_lock);
  fail_unless_equals_int (pushed_count (&x.out), 1);
  fail_if (ct_flight_holds (&x.f));

  run_frame (&x, hold, &a);
  gpu_set (&x.gpu, a, TRUE, CT_OK);
  g_rec_mutex_lock (&x.stream_lock);
  fail_unless_equals_int (ct_flight_drain (&x.f, FALSE), GST_FLOW_OK);
  g_rec_mutex_unlock (&x.stream_lock);
  fail_unless_equals_int (pushed_count (&x.out), 1);
  fail_unless (x.gpu.waits[a] >= 1, "dropped before the GPU was done");
  fail_if (ct_flight_holds (&x.f));
  fixture_clear (&x);
}

GST_END_TEST;

/* A frame that failed on the GPU is reported once, and not pushed. */
GST_START_TEST (test_failure)
{
  const GstClockTime hold = 10 * GST_SECOND;
  gint a, b;
  Fixture x;

  fixture_init (&x, hold);
  run_frame (&x, hold, &a);
  gpu_set (&x.gpu, a, TRUE, 700);
  run_frame (&x, hold, &b);
  fail_unless_equals_int (x.out.failures, 1);
  fail_unless_equals_int (x.out.failed_step, CT_STEP_SYNC);
  fail_unless_equals_int (x.out.failed_res, 700);
  fail_unless_equals_int (pushed_count (&x.out), 0);
  fixture_clear (&x);
}

GST_END_TEST;

/* A discontinuity, or a renegotiation to come, pushes the held frame
 * before the input; a buffer after a dropped one is marked DISCONT. */
GST_START_TEST (test_before_input)
{
  const GstClockTime hold = 10 * GST_SECOND;
  GstBuffer *in;
  gint a;
  Fixture x;

  fixture_init (&x, hold);
  run_frame (&x, hold, &a);
  gpu_set (&x.gpu, a, TRUE, CT_OK);
  in = gst_buffer_new ();
  g_rec_mutex_lock (&x.stream_lock);
  fail_unless_equals_int (ct_flight_before_input (&x.f, &in, FALSE),
      GST_FLOW_OK);
  fail_unless_equals_int (pushed_count (&x.out), 0);
  fail_unless_equals_int (ct_flight_before_input (&x.f, &in, TRUE),
      GST_FLOW_OK);
  fail_unless_equals_int (pushed_count (&x.out), 1);
  ct_flight_dropped (&x.f);
  fail_unless_equals_int (ct_flight_before_input (&x.f, &in, FALSE),
      GST_FLOW_OK);
  fail_unless (GST_BUFFER_IS_DISCONT (in));
  g_rec_mutex_unlock (&x.stream_lock);
  gst_buffer_unref (in);
  fixture_clear (&x);
}

GST_END_TEST;

/* The releaser: a held frame with no next one goes out once its period
 * has passed, from the releaser's thread; not while the streaming thread
 * holds the stream lock, and not before the GPU is done with it. */
GST_START_TEST (test_releaser)
{
  const GstClockTime hold = 5 * GST_MSECOND;
  GThread *by;
  gint a;
  Fixture x;

  fixture_init (&x, hold);
  run_frame (&x, hold, &a);
  /* the GPU not done: nothing goes out */
  g_usleep (50 * 1000);
  fail_unless_equals_int (pushed_count (&x.out), 0);
  fail_unless (x.gpu.asked >= 1, "the releaser never asked the GPU");
  /* done, but the stream lock taken: still nothing */
  g_rec_mutex_lock (&x.stream_lock);
  gpu_set (&x.gpu, a, TRUE, CT_OK);
  g_usleep (50 * 1000);
  fail_unless_equals_int (pushed_count (&x.out), 0);
  g_rec_mutex_unlock (&x.stream_lock);
  fail_unless_equals_int (wait_pushed (&x.out, 1), 1);
  by = g_array_index (x.out.threads, GThread *, 0);
  fail_if (by == g_thread_self (), "pushed by the test's thread");
  fail_if (ct_flight_holds (&x.f));
  /* once */
  g_usleep (30 * 1000);
  fail_unless_equals_int (pushed_count (&x.out), 1);
  fixture_clear (&x);
}

GST_END_TEST;

/* Frames that come in time leave with the next one: the releaser pushes
 * none of them again; the last one it pushes. */
GST_START_TEST (test_releaser_once)
{
  const GstClockTime hold = 20 * GST_MSECOND;
  guint i, k;
  gint s;
  Fixture x;

  fixture_init (&x, hold);
  for (i = 0; i < 20; i++) {
    run_frame (&x, hold, &s);
    gpu_set (&x.gpu, s, TRUE, CT_OK);
  }
  fail_unless_equals_int (wait_pushed (&x.out, 20), 20);
  g_usleep (60 * 1000);
  fail_unless_equals_int (pushed_count (&x.out), 20);
  for (k = 0; k < 20; k++)
    fail_unless_equals_uint64 (pushed_at (&x.out, k), k);
  fixture_clear (&x);
}

GST_END_TEST;

/* The GPU finishes the frame in a slot a little later, in a thread of its
 * own (the streaming thread waits for it meanwhile). */
typedef struct
{
  StubGpu *gpu;
  gint slot;
} Later;

static gpointer
done_later (gpointer data)
{
  Later *l = data;

  g_usleep (500);
  gpu_set (l->gpu, l->slot, TRUE, CT_OK);
  g_free (l);
  return NULL;
}

/* A random run: frames held or not, drains that push or drop, the GPU
 * done now or later, the releaser in between, against a model: every
 * frame goes out at most once and in order, a frame is lost only by a
 * dropping drain, and a final drain leaves nothing behind. */
GST_START_TEST (test_random_run)
{
  const GstClockTime hold = 2 * GST_MSECOND;
  guint64 dropped_upto = 0;
  gint64 last = -1;
  GPtrArray *helpers = g_ptr_array_new ();
  guint step, i;
  gint s;
  Fixture x;

  ct_check_seed ();
  fixture_init (&x, hold);
  for (step = 0; step < 2000; step++) {
    guint r = ct_check_random () % 100;

    if (r < 60) {
      /* (the held frame finishes before anything waits on it: now, or
       * from another thread a little later) */
      g_rec_mutex_lock (&x.stream_lock);
      s = x.f.held.slot;
      g_rec_mutex_unlock (&x.stream_lock);
      if (s >= 0 && ct_check_random () % 2) {
        Later *l = g_new (Later, 1);

        l->gpu = &x.gpu;
        l->slot = s;
        g_ptr_array_add (helpers, g_thread_new ("later", done_later, l));
      } else if (s >= 0) {
        gpu_set (&x.gpu, s, TRUE, CT_OK);
      }
      run_frame (&x, ct_check_random () % 4 ? hold : 0, &s);
    } else if (r < 85) {
      for (i = 0; i < CT_FLIGHT_SLOTS; i++)
        gpu_set (&x.gpu, i, TRUE, CT_OK);
      g_rec_mutex_lock (&x.stream_lock);
      if (ct_check_random () % 2) {
        ct_flight_drain (&x.f, TRUE);
      } else {
        /* a flush: what was in flight is gone */
        ct_flight_drain (&x.f, FALSE);
        dropped_upto = x.next;
      }
      g_rec_mutex_unlock (&x.stream_lock);
    } else {
      /* (the releaser may push the held frame meanwhile) */
      g_rec_mutex_lock (&x.stream_lock);
      s = x.f.held.slot;
      g_rec_mutex_unlock (&x.stream_lock);
      if (s >= 0)
        gpu_set (&x.gpu, s, TRUE, CT_OK);
      g_usleep (ct_check_random () % 3000);
    }
    /* out in order, once each; a gap only where a drop was */
    g_mutex_lock (&x.out.lock);
    for (i = 0; i < x.out.pushed->len; i++) {
      gint64 n = (gint64) g_array_index (x.out.pushed, guint64, i);

      fail_unless (n > last, "frame %" G_GINT64_FORMAT " after %"
          G_GINT64_FORMAT, n, last);
      fail_unless (n == last + 1 || (guint64) n <= dropped_upto, "frames %"
          G_GINT64_FORMAT " to %" G_GINT64_FORMAT " lost, not dropped",
          last + 1, n - 1);
      last = n;
    }
    g_array_set_size (x.out.pushed, 0);
    g_array_set_size (x.out.threads, 0);
    g_mutex_unlock (&x.out.lock);
  }
  for (i = 0; i < helpers->len; i++)
    g_thread_join (g_ptr_array_index (helpers, i));
  g_ptr_array_unref (helpers);
  for (i = 0; i < CT_FLIGHT_SLOTS; i++)
    gpu_set (&x.gpu, i, TRUE, CT_OK);
  g_rec_mutex_lock (&x.stream_lock);
  ct_flight_drain (&x.f, TRUE);
  fail_if (ct_flight_holds (&x.f));
  g_rec_mutex_unlock (&x.stream_lock);
  g_mutex_lock (&x.out.lock);
  for (i = 0; i < x.out.pushed->len; i++) {
    gint64 n = (gint64) g_array_index (x.out.pushed, guint64, i);

    fail_unless (n > last && (n == last + 1 || (guint64) n <= dropped_upto));
    last = n;
  }
  g_mutex_unlock (&x.out.lock);
  /* nothing behind: the last frame made is out, unless a drop took it */
  fail_unless ((guint64) (last + 1) == x.next || dropped_upto == x.next,
      "the last frame out is %" G_GINT64_FORMAT " of %" G_GUINT64_FORMAT,
      last, x.next);
  fixture_clear (&x);
}

GST_END_TEST;

static Suite *
flight_suite (void)
{
  Suite *s = suite_create ("flight");
  TCase *tc = tcase_create ("flight");

  GST_DEBUG_CATEGORY_INIT (gst_cuda_transpose_debug, "cudatranspose", 0,
      "the flight's test");
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_hold_rules);
  tcase_add_test (tc, test_order_and_room);
  tcase_add_test (tc, test_drain);
  tcase_add_test (tc, test_failure);
  tcase_add_test (tc, test_before_input);
  tcase_add_test (tc, test_releaser);
  tcase_add_test (tc, test_releaser_once);
  tcase_add_test (tc, test_random_run);
  return s;
}

GST_CHECK_MAIN (flight);
