/* The formats cudatranspose offers in CUDA memory: those GStreamer's CUDA
 * allocator lays out (found on an H200 with 1.22, docs/memory.md#limits),
 * for the tests and benchmarks that go through CUDA memory. */
#pragma once

#include <gst/video/video.h>

static const GstVideoFormat ct_cuda_formats[] = {
  GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_YV12, GST_VIDEO_FORMAT_NV12,
  GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_RGBA,
  GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_ARGB, GST_VIDEO_FORMAT_ABGR,
  GST_VIDEO_FORMAT_RGBx, GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_RGB,
  GST_VIDEO_FORMAT_BGR, GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_UYVY,
  GST_VIDEO_FORMAT_I420_10LE, GST_VIDEO_FORMAT_I422_10LE,
  GST_VIDEO_FORMAT_I422_12LE, GST_VIDEO_FORMAT_P010_10LE,
  GST_VIDEO_FORMAT_P016_LE, GST_VIDEO_FORMAT_Y444_16LE, GST_VIDEO_FORMAT_GBR,
  GST_VIDEO_FORMAT_GBRA, GST_VIDEO_FORMAT_BGR10A2_LE,
  GST_VIDEO_FORMAT_RGB10A2_LE,
};

/* Whether @format is one of them. */
static inline gboolean
ct_cuda_format_laid_out (GstVideoFormat format)
{
  for (gsize i = 0; i < G_N_ELEMENTS (ct_cuda_formats); i++)
    if (ct_cuda_formats[i] == format)
      return TRUE;
  return FALSE;
}
