/* Helpers shared by the cudatranspose element tests, the one header they
 * include: the random stream, pushing through a harness whose output comes
 * poisoned, bus messages, factories and kernel nicks. It includes the
 * helpers of each concern: video frames (check-video.h), tensors
 * (check-tensors.h) and NNStreamer's layouts (check-nnstreamer.h). */
#pragma once

#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "check-video.h"
#include "check-tensors.h"
#include "check-nnstreamer.h"

G_BEGIN_DECLS

/* Seeds the frame generator from CT_CHECK_SEED, or at random; prints it. */
void ct_check_seed (void);

/* The next 32 random bits of the stream in @state (random-fill.h's
 * generator, which any value starts), for a test that keeps a stream of
 * its own. */
guint32 ct_check_next (guint64 * state);

/* The next number of the stream ct_check_seed () seeded. */
guint32 ct_check_random (void);

/* Fills @size bytes at @data from that stream. */
void ct_check_fill_random (guint8 * data, gsize size);

/* Pushes a serialized event of no meaning to anyone through @h: it pushes
 * out a buffer the element holds back (frames-in-flight). */
void ct_check_push_drain (GstHarness * h);

/* Pushes a reference to @buf through @h (it must be taken), then the
 * event above, so that its output is there to pull at once. */
void ct_check_push_one (GstHarness * h, GstBuffer * buf);

/* Allocator whose memory starts filled with a poison byte that changes with
 * each allocation, so elements the element forgot to write show. */
GstAllocator *ct_check_poison_allocator_new (void);

/* A harness around @element_desc whose output buffers come poisoned, and a
 * bus on the element to read its messages from. */
GstHarness *ct_check_harness_new (const gchar * element_desc, GstBus ** bus);

/* Detaches @bus (if any) from the harnessed element and tears down. */
void ct_check_harness_free (GstHarness * h, GstBus * bus);

/* Takes @e from NULL towards PAUSED, which must fail, and returns the text
 * of the error message it posted (g_free it). Leaves @e in NULL. */
gchar *ct_check_start_failure (GstElement * e);

/* The nick of the element's active-kernel, e.g. "cpu"; free it. */
gchar *ct_check_active_kernel (GstElement * element);

/* The nicks of the element's kernel property, in value order, read from
 * its GEnum (static, NULL-terminated): all of them, or with @gpu_only the
 * GPU kernels (all but "cpu"). @n (optional) gets their number. */
const gchar *const *ct_check_kernel_nicks (gboolean gpu_only, guint * n);

/* How many nicks ct_check_kernel_nicks () gives. */
guint ct_check_n_kernel_nicks (gboolean gpu_only);

/* Whether the factories @names (NULL-terminated) exist; if one does not,
 * prints why the test is skipped and returns FALSE. */
gboolean ct_check_have_factories (const gchar * const *names);

/* Whether @element's pad @name negotiated CUDA memory (it must have
 * negotiated). */
gboolean ct_check_pad_has_cuda_memory (GstElement * element,
    const gchar * name);

/* Counts messages of @type waiting on @bus, and drops them. */
guint ct_check_count_messages (GstBus * bus, GstMessageType type);

/* Pops the first message of @type waiting on @bus (failing the test if
 * there is none) and returns its text (g_free it). */
gchar *ct_check_pop_message_text (GstBus * bus, GstMessageType type);

/* Plays pipeline @desc (which names the element under test "t") until
 * its first error or EOS, 10 s at the most: the first must be an error
 * from "t". Its text (g_free it); the pipeline is gone. */
gchar *ct_check_pipeline_error (const gchar * desc);

/* A thread function that keeps a CPU busy until the gint @stop points to
 * is set (g_atomic_int_set): a user's machine under load. */
gpointer ct_check_spin (gpointer stop);

G_END_DECLS
