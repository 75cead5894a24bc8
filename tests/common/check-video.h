/* Video frames for the element tests: random frames, a transpose and
 * orientation reference written here, independent of the element's code
 * (check-video.c), and the runs that push frames through a harness and
 * check them with it (check-video-runs.c). */
#pragma once

#include <gst/gst.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

/* The formats the element advertises, and sizes that catch ragged tiles,
 * 1xN and odd chroma. */
extern const GstVideoFormat ct_check_formats[];
extern const guint ct_check_n_formats;
extern const gint ct_check_sizes[][2];
extern const guint ct_check_n_sizes;

/* video/x-raw caps of @format, @width x @height, at 30 fps. */
GstCaps *ct_check_caps (GstVideoFormat format, gint width, gint height);

/* A frame of random bytes (padding too). stride_pad > 0 adds that many bytes
 * to every row and describes the layout with a GstVideoMeta. */
GstBuffer *ct_check_make_frame (const GstVideoInfo * info, guint stride_pad);

/* The eight orientations of video-direction (and videoflip), and whether
 * one swaps width and height. */
extern const GstVideoOrientationMethod ct_check_directions[];
extern const guint ct_check_n_directions;

/* The eight image-orientation tags and the direction that turns each
 * upright, as gst_video_orientation_from_tag () defines it (the flipped
 * ones: mirror first, then rotate clockwise, so flip-rotate-90 is
 * ur-ll). */
typedef struct
{
  const gchar *tag;
  GstVideoOrientationMethod method;
} CtCheckOrientationTag;
extern const CtCheckOrientationTag ct_check_orientation_tags[];
extern const guint ct_check_n_orientation_tags;
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

/* NULL if every element of @out is where @method puts the element of @in
 * (of @in_info; a reference written here, per direction), else where it
 * differs (g_free it): the visible elements only, row by row. */
gchar *ct_check_oriented_mismatch (const GstVideoInfo * in_info,
    GstBuffer * in, GstBuffer * out, GstVideoOrientationMethod method);

/* Fails the test unless ct_check_oriented_mismatch finds none. */
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

/* video-direction driven by a GstController while frames flow through
 * @h: a step control source on a direct binding turns it to each of the
 * eight directions in turn from a given frame on; @format frames of
 * random bytes at 25 fps, each output checked in its frame's direction
 * (by its timestamp: one may come out a frame late, frames-in-flight)
 * and poisoned after. Adds the binding to @h's element. */
void ct_check_controlled_directions (GstHarness * h, GstVideoFormat format,
    gint width, gint height, const gchar * what);

/* The same random frames through a harness around @desc and through
 * videoflip, each direction, every format: the same visible pixels. */
void ct_check_against_videoflip (const gchar * desc);

/* The colour matrices the YUV conversion has, and the chroma sitings the
 * YUV tests state: jpeg (centred), mpeg2 (left), cosited (left and top),
 * top alone. */
extern const GstVideoColorMatrix ct_check_yuv_matrices[];
extern const guint ct_check_n_yuv_matrices;
extern const GstVideoChromaSite ct_check_chroma_sites[];
extern const guint ct_check_n_chroma_sites;

/* YUV caps of @format, @w x @h, with colour matrix @m, full range or
 * limited, chroma sited at @site (BT.709 transfer and primaries), as a
 * source that states them sends them; @info read back from them, as the
 * element reads them. */
GstCaps *ct_check_yuv_caps (GstVideoFormat format, guint w, guint h,
    GstVideoColorMatrix m, gboolean full, GstVideoChromaSite site,
    GstVideoInfo * info);

/* Frame @in of @caps (@width x @height) through videoconvert dither=none
 * to @format (RGB, BGR, or ARGB64_LE for the 16-bit values of deeper
 * input): the reference frame, mapped into @ref (unmap it); @what names
 * the case if videoconvert gives nothing. */
void ct_check_videoconvert (GstCaps * caps, GstBuffer * in,
    GstVideoFormat format, guint width, guint height, GstVideoFrame * ref,
    const gchar * what);

G_END_DECLS
