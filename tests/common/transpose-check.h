/* Helpers shared by the cudatranspose element tests: random frames, a
 * poisoning allocator, and a transpose reference written here, independent
 * of the element's code. */
#pragma once

#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

/* The formats the element advertises, and sizes that catch ragged tiles,
 * 1xN and odd chroma. */
extern const GstVideoFormat ct_check_formats[];
extern const guint ct_check_n_formats;
extern const gint ct_check_sizes[][2];
extern const guint ct_check_n_sizes;

/* Seeds the frame generator from CT_CHECK_SEED, or at random; prints it. */
void ct_check_seed (void);

/* The next number of the xorshift32 stream in @state (never 0), for a
 * test that keeps a stream of its own. */
guint32 ct_check_xorshift (guint32 * state);

/* The next number of the stream ct_check_seed () seeded. */
guint32 ct_check_random (void);

GstCaps *ct_check_caps (GstVideoFormat format, gint width, gint height);

/* Pushes a serialized event of no meaning to anyone through @h: it pushes
 * out a buffer the element holds back (frames-in-flight). */
void ct_check_push_drain (GstHarness * h);

/* Pushes a reference to @buf through @h (it must be taken), then the
 * event above, so that its output is there to pull at once. */
void ct_check_push_one (GstHarness * h, GstBuffer * buf);

/* A frame of random bytes (padding too). stride_pad > 0 adds that many bytes
 * to every row and describes the layout with a GstVideoMeta. */
GstBuffer *ct_check_make_frame (const GstVideoInfo * info, guint stride_pad);

/* Allocator whose memory starts filled with a poison byte that changes with
 * each allocation, so elements the element forgot to write show. */
GstAllocator *ct_check_poison_allocator_new (void);

/* A harness around @element_desc whose output buffers come poisoned, and a
 * bus on the element to read its messages from. */
GstHarness *ct_check_harness_new (const gchar * element_desc, GstBus ** bus);

/* The eight orientations of video-direction (and videoflip), and whether
 * one swaps width and height. */
extern const GstVideoOrientationMethod ct_check_directions[];
extern const guint ct_check_n_directions;
gboolean ct_check_direction_swaps (GstVideoOrientationMethod method);

/* Where element (x, y) of a w x h plane goes under @method, as videoflip
 * describes each direction. */
void ct_check_oriented_point (GstVideoOrientationMethod method, guint w,
    guint h, guint x, guint y, guint * ox, guint * oy);

/* The output frame of @in_info under @method (default strides). */
void ct_check_out_info (const GstVideoInfo * in_info,
    GstVideoOrientationMethod method, GstVideoInfo * out_info);

/* Whether @format is 4:2:2 packed in one plane (YUY2, UYVY, YVYU), or
 * planar with 16-bit samples (I422_10LE ... I422_12BE): their chroma is
 * resampled where the axes swap. */
gboolean ct_check_is_packed_422 (GstVideoFormat format);
gboolean ct_check_is_planar_422 (GstVideoFormat format);

/* Fails the test unless every element of @out is where @method puts the
 * element of @in (a reference written here, per direction). */
void ct_check_assert_oriented (const GstVideoInfo * in_info, GstBuffer * in,
    GstBuffer * out, GstVideoOrientationMethod method, const gchar * what);

/* Fails the test unless @out is @in transposed, byte for byte. */
void ct_check_assert_transposed (const GstVideoInfo * in_info, GstBuffer * in,
    GstBuffer * out, const gchar * what);

/* Fails the test unless the frames' planes hold the same rows (padding is
 * not compared). */
void ct_check_assert_same_frame (const GstVideoInfo * info, GstBuffer * a,
    GstBuffer * b);

/* The same over the first @n_planes planes. */
void ct_check_assert_same_planes (const GstVideoInfo * info, GstBuffer * a,
    GstBuffer * b, guint n_planes);

/* Pushes a random frame through @desc, two transposes, and checks that the
 * input comes back. */
void ct_check_round_trip (const gchar * desc, GstVideoFormat format,
    gint width, gint height);

/* Pushes one random frame (set caps first) and checks what comes out. */
void ct_check_push_and_verify (GstHarness * h, GstVideoFormat format,
    gint width, gint height, guint stride_pad, const gchar * what);

/* Runs every format at every size through @h, with default strides and with
 * odd padded ones described by a GstVideoMeta. */
void ct_check_all_formats (GstHarness * h, const gchar * what);

/* The same over @formats; ct_check_layout_formats holds one format of each
 * plane layout the kernels see, for checks repeated per kernel. */
extern const GstVideoFormat ct_check_layout_formats[];
extern const guint ct_check_n_layout_formats;
void ct_check_formats_of (GstHarness * h, const GstVideoFormat * formats,
    guint n_formats, const gchar * what);

/* Pushes one random frame through @h (caps set first; @stride_pad as for
 * ct_check_make_frame) and checks that it comes out in direction
 * @method. */
void ct_check_push_and_verify_direction (GstHarness * h,
    GstVideoFormat format, gint width, gint height, guint stride_pad,
    GstVideoOrientationMethod method, const gchar * what);

/* Every format at odd and awkward sizes through @h, in each of the eight
 * directions set on its element in turn (while it plays), default and
 * odd padded strides. */
void ct_check_all_directions (GstHarness * h, const gchar * what);

/* The same random frames through a harness around @desc and through
 * videoflip, each direction, every format: the same visible pixels. */
void ct_check_against_videoflip (const gchar * desc);

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

/* Tensors (NNStreamer's other/tensors): a tensor as the test sees it. */
typedef struct
{
  const gchar *dims;            /* "d0:d1:...", innermost first */
  const gchar *type;            /* "uint8", "float32", ... */
} CtCheckTensor;

/* The eleven types, and shapes that catch ragged tiles, 1-sized and
 * non-power-of-2 dimensions and ranks 1 to 4. */
extern const gchar *ct_check_tensor_types[];
extern const guint ct_check_n_tensor_types;

/* Element size of a type name, as NNStreamer defines them. */
guint ct_check_tensor_type_size (const gchar * type);
extern const gchar *ct_check_tensor_shapes[];
extern const guint ct_check_n_tensor_shapes;

/* other/tensors caps for @n tensors. */
GstCaps *ct_check_tensor_caps (const CtCheckTensor * t, guint n);

/* Pushes random tensors (one memory each, or all in one memory) through
 * @h, whose caps must be set to match, and checks that each comes out with
 * its two innermost dimensions transposed, one memory per tensor. */
void ct_check_push_tensors_and_verify (GstHarness * h,
    const CtCheckTensor * t, guint n, gboolean one_memory, const gchar * what);

/* A buffer of system memory for @n tensors @t: one memory per tensor, or
 * one for all (@one_memory), unfilled. */
GstBuffer *ct_check_new_tensor_buffer (const CtCheckTensor * t, guint n,
    gboolean one_memory);

/* Fills every memory of @in with random bytes. */
void ct_check_fill_tensors (GstBuffer * in);

/* Checks that @out holds @in's @n tensors @t (one memory per tensor in
 * @in, or one for all) with their two innermost dimensions transposed,
 * one memory per tensor. */
void ct_check_assert_tensors_transposed (GstBuffer * in, GstBuffer * out,
    const CtCheckTensor * t, guint n, const gchar * what);

/* Fills @in (one memory per tensor, or one for all) with random bytes,
 * pushes it through @h and checks the output as above; returns the output
 * (unref it). */
GstBuffer *ct_check_push_tensor_buffer (GstHarness * h, GstBuffer * in,
    const CtCheckTensor * t, guint n, const gchar * what);

/* Every type at every shape through @h, then two tensors of different types
 * in one buffer, both memory layouts. */
void ct_check_all_tensors (GstHarness * h, const gchar * what);



/* Pushes a random tensor of sizes @dims (4 of them, innermost first) and
 * @type through @h, whose caps must be set to match and whose element has
 * permutation @perm, and checks output dimension i is input dimension
 * @perm[i]. */
void ct_check_push_permuted_and_verify (GstHarness * h,
    const guint64 dims[4], const gchar * type, const guint perm[4],
    const gchar * what);

/* Every order of 4 dimensions over a few shapes and every type size, each
 * through a new harness around "@desc permutation=...". */
void ct_check_all_permutations (const gchar * desc);

/* Packed RGB video (RGB, BGR, RGBA, BGRA, RGBx, BGRx) of several sizes,
 * padded rows too, through a harness around @desc whose output is
 * other/tensors: each frame must come out as its CHW uint8 tensor. */
void ct_check_video_to_chw (const gchar * desc);

/* The same, @desc having the permutation @perm: each frame must come out
 * as its HWC tensor (C:W:H:1) permuted by @perm. */
void ct_check_video_to_tensor (const gchar * desc, const guint perm[4]);

/* NNStreamer's definitions, for tests that write its buffer layouts
 * themselves: its tensor_type numbers (the index here) with their names
 * and sizes; a flexible tensor's header (GstTensorMetaInfo version 1, 128
 * bytes: magic, version, type, 16 sizes with 0 past the rank, format: 0
 * static, 1 flexible, 2 sparse; media type); and the header of the 16th
 * memory of a buffer of more than 16 tensors (GstTensorInfo,
 * GstTensorExtraInfo: tensors 15 and on follow it). */
typedef struct
{
  const gchar *name;
  guint size;
} CtCheckNnsType;
extern const CtCheckNnsType ct_check_nns_types[];
extern const guint ct_check_n_nns_types;

#define CT_CHECK_NNS_HEADER 128
void ct_check_nns_write_meta (guint8 * header, guint32 magic, guint type,
    const guint * dims, guint rank, guint format);

typedef struct
{
  char *name;
  guint32 type;
  guint32 dimension[16];
} CtCheckNnsInfo;

typedef struct
{
  guint32 magic;
  guint32 version;
  guint32 num_extra_tensors;
  guint64 reserved;
  CtCheckNnsInfo infos[240];
} CtCheckNnsExtra;

#define CT_CHECK_NNS_EXTRA_MAGIC 0xf00dc0de

G_END_DECLS
