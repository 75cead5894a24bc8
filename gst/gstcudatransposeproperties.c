/* GStreamer
 * Copyright (C) 2026 The cudatranspose authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The element's properties as gst-inspect-1.0 and the documentation show
 * them: names, ranges, defaults, flags, and what each does. Their values
 * and the rules for changing them are the settings module's
 * (gstcudatransposesettings.c). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudatransposeproperties.h"

#include "gstcudatranspose.h"
#include "gstcudatransposedirection.h"
#include "gstcudatransposesettings.h"

GParamSpec *
ct_properties_install (GObjectClass * gobject_class)
{
  GParamSpec *active_kernel;

  /**
   * GstCudaTranspose:kernel:
   *
   * The transpose implementation. Can be changed while PLAYING; the change
   * applies from the next buffer. Frames in CUDA memory are transposed on
   * the GPU even at cpu (with a warning): GStreamer 1.22 cannot map every
   * CUDA frame for the CPU.
   */
  g_object_class_install_property (gobject_class, CT_PROP_KERNEL,
      g_param_spec_enum ("kernel", "Kernel",
          "Transpose implementation (applies from the next buffer)",
          GST_TYPE_CUDA_TRANSPOSE_KERNEL, CT_DEFAULT_KERNEL,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstCudaTranspose:cuda-device-id:
   *
   * The CUDA device to use; -1 for the default one. Read when the element
   * goes from READY to PAUSED: a change while playing takes effect at the
   * next start.
   */
  g_object_class_install_property (gobject_class, CT_PROP_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device id",
          "CUDA device to use (-1 = the default device)", -1, G_MAXINT,
          CT_DEFAULT_DEVICE_ID, G_PARAM_READWRITE | GST_PARAM_MUTABLE_READY |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstCudaTranspose:active-kernel:
   *
   * The path the last buffer's largest plane or tensor took: the kernel
   * that moved most of its bytes. A named variant's own path (or thin,
   * exact or rgb-tile for planes its tile cannot take), the one auto
   * picked, a permutation kernel, or `cpu`. `none` until the first
   * buffer and after stopping.
   */
  active_kernel = g_param_spec_enum ("active-kernel", "Active kernel",
      "Path the last buffer's largest plane took (none before the first)",
      GST_TYPE_CUDA_TRANSPOSE_PATH, GST_CUDA_TRANSPOSE_PATH_NONE,
      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_property (gobject_class, CT_PROP_ACTIVE_KERNEL,
      active_kernel);

  /**
   * GstCudaTranspose:permutation:
   *
   * For tensors of rank 4 or less: a layout permutation instead of the
   * transpose of the two innermost dimensions, in tensor_transform's
   * notation: output dimension i is input dimension i's entry, innermost
   * first, e.g. "1:2:0:3" turns HWC ("3:640:480:1") into CHW
   * ("640:480:3:1") and "2:0:1:3" back. Empty: transpose. Packed RGB
   * video going out as a tensor is the tensor "C:W:H:1" (HWC) permuted
   * (unset: CHW, as "1:2:0:3"); other video refuses a permutation at
   * negotiation. An invalid value is warned about when it is set; set
   * before the stream starts, it is kept and going from READY to PAUSED
   * fails with an error that quotes it; set while streaming, it is
   * refused with a warning and the stream goes on as it was. A valid value
   * set while streaming applies from the next buffer, renegotiating where
   * the output's sizes change.
   */
  g_object_class_install_property (gobject_class, CT_PROP_PERMUTATION,
      g_param_spec_string ("permutation", "Permutation",
          "Tensor layout permutation, output dimension i = input dimension "
          "in entry i, innermost first (e.g. 1:2:0:3 for HWC to CHW); empty "
          "to transpose the two innermost dimensions", NULL,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstCudaTranspose:arithmetic:
   *
   * NNStreamer's tensor_transform mode=arithmetic option, applied to each
   * element on the way to the output tensors, fused with the layout
   * change: [typecast:TYPE,][per-channel:true@DIM,]OP:NUMBER[@CH],... with
   * OP add, mul or div, e.g. "typecast:float32,add:-127.5,div:127.5". The
   * output tensors are of the typecast's type (without one, the input's).
   * For tensors, and video going out as a tensor (then its channels are
   * dimension 0); video going out as video refuses it at negotiation.
   * Options NNStreamer would silently ignore or change are refused. Empty:
   * no arithmetic. Invalid values, and changes while streaming, go as for
   * #GstCudaTranspose:permutation; a change of the output type
   * renegotiates.
   */
  g_object_class_install_property (gobject_class, CT_PROP_ARITHMETIC,
      g_param_spec_string ("arithmetic", "Arithmetic",
          "tensor_transform mode=arithmetic option applied on the way "
          "(e.g. typecast:float32,add:-127.5,div:127.5); the output tensors "
          "take the typecast's type; empty for none", NULL,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstCudaTranspose:video-direction:
   *
   * The orientation of the output, as #GstVideoDirection and videoflip
   * take it: ul-lr (the transpose, the default), 90r, 90l and ur-ll swap
   * width and height; identity (buffers passed through), 180, horiz and
   * vert keep them; auto follows the stream's image-orientation tag and
   * tells downstream the frames are upright. Can be changed while PLAYING,
   * from any thread: the next buffer comes out in the new direction,
   * after a renegotiation where the output's size changes; frames never
   * mix two directions, nor go back to an older one. custom is refused. Controllable,
   * as videoflip's is: a control binding's value is taken before each
   * buffer (by its timestamp), as if set then.
   */
  g_object_class_install_property (gobject_class, CT_PROP_VIDEO_DIRECTION,
      g_param_spec_enum ("video-direction", "Video direction",
          "Orientation of the output (ul-lr: the transpose; auto: from the "
          "image-orientation tag)", GST_TYPE_VIDEO_ORIENTATION_METHOD,
          CT_DEFAULT_DIRECTION, G_PARAM_READWRITE | GST_PARAM_CONTROLLABLE |
          GST_PARAM_MUTABLE_PLAYING | G_PARAM_STATIC_STRINGS));

  /**
   * GstCudaTranspose:method:
   *
   * videoflip's name and values for #GstCudaTranspose:video-direction.
   *
   * Deprecated: Use video-direction.
   */
  g_object_class_install_property (gobject_class, CT_PROP_METHOD,
      g_param_spec_enum ("method", "Method",
          "Orientation of the output (deprecated: use video-direction)",
          GST_TYPE_CUDA_TRANSPOSE_METHOD, CT_DEFAULT_DIRECTION,
          G_PARAM_READWRITE | GST_PARAM_CONTROLLABLE |
          GST_PARAM_MUTABLE_PLAYING | G_PARAM_DEPRECATED |
          G_PARAM_STATIC_STRINGS));

  /**
   * GstCudaTranspose:frames-in-flight:
   *
   * How many frames may be on the GPU at once on the way from host memory
   * to host memory. At 2 (the default) a frame is left in flight while
   * the next one is queued behind it, so the link's two directions never
   * wait for each other between frames; the element then holds one frame
   * back (the LATENCY query adds one frame's duration; EOS, caps and other
   * serialized events push it first, a flush drops it). At 1 each frame
   * leaves before the next one comes. Buffers of tensors go the same way
   * (their caps' framerate). Buffers of an unknown rate (framerate=0/1)
   * and CUDA memory always go one at a time. Can be changed while
   * PLAYING: the change applies from the next buffer (a frame held goes
   * out first), and the latency reported changes at once.
   */
  g_object_class_install_property (gobject_class, CT_PROP_FRAMES_IN_FLIGHT,
      g_param_spec_uint ("frames-in-flight", "Frames in flight",
          "Frames (or buffers of tensors) on the GPU at once between host "
          "memory in and out (2: one held back, reported as latency; 1: "
          "none)", 1, 2,
          CT_DEFAULT_FRAMES_IN_FLIGHT, G_PARAM_READWRITE |
          GST_PARAM_MUTABLE_PLAYING | G_PARAM_STATIC_STRINGS));

  /**
   * GstCudaTranspose:channel-order:
   *
   * The order of the colour channels in tensors made from YUV video
   * (I420, YV12, NV12, NV21, P010_10LE, P016_LE, Y444, I422_10LE,
   * Y444_10LE, Y42B, NV16, NV24): rgb (the default) or bgr, as a
   * network trained on OpenCV's frames expects. RGB video keeps its own
   * order (BGRx gives B, G, R, X). Can be changed while PLAYING: the next
   * buffer comes out in the new order.
   */
  g_object_class_install_property (gobject_class, CT_PROP_CHANNEL_ORDER,
      g_param_spec_enum ("channel-order", "Channel order",
          "Order of the colour channels in tensors made from YUV video",
          GST_TYPE_CUDA_TRANSPOSE_CHANNEL_ORDER,
          GST_CUDA_TRANSPOSE_CHANNEL_ORDER_RGB, G_PARAM_READWRITE |
          GST_PARAM_MUTABLE_PLAYING | G_PARAM_STATIC_STRINGS));

  return active_kernel;
}
