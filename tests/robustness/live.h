/* The live test's parts (live.c has what the test does and why): the
 * source whose caps change (live-source.c), the settings the changing
 * thread made and the check of every frame out (live-check.c), the threads
 * around the stream and one run (live-run.c). */
#pragma once

#include "transpose-check.h"
#include "gpu-check.h"

#include "arith-reference.h"
#include "permute-reference.h"

#include <gst/base/gstpushsrc.h>

/* a CUDA device is there: kernel=auto runs on it, whose floats may carry
 * other NaN payloads than the CPU's (any NaN for any NaN) */
extern gboolean have_gpu;

typedef enum
{
  LIVE_VIDEO,
  LIVE_STATIC,
  LIVE_FLEXIBLE,
  LIVE_YUV_TENSOR,              /* YUV video in, a tensor out */
} LiveKind;

/* The tensor types used, by NNStreamer's number (check-nnstreamer.h). */
typedef struct
{
  guint nns;
  const gchar *name;
  CtType type;
  guint size;
} LiveTensorType;
extern const LiveTensorType live_tensor_types[3];

/* ---- the source (live-source.c) ---- */

/* The element ctlivesrc (registered by main). */
GType live_src_get_type (void);

/* Sets what the source @element streams: frames of @kind, in @formats
 * (video). */
void live_src_configure (GstElement * element, LiveKind kind,
    const GstVideoFormat * formats, guint n_formats);

/* ---- the settings made, in order, and the check (live-check.c) ---- */

/* The arithmetic options used, with the operations they mean, written
 * here from NNStreamer's grammar (not read by the element's parser). */
typedef struct
{
  const gchar *option;
  gint out;                     /* the typecast's CtType, or -1 */
  CtArithKind kind;
  gboolean is_float;
  double value;
} LiveArith;
extern const LiveArith live_arith_options[5];

/* The permutations used (NULL: none). */
extern const gchar *const live_permutations[6];

typedef struct
{
  GstVideoOrientationMethod direction;
  guint perm;                   /* index into permutations */
  guint arith;                  /* index into arith_options */
  gboolean bgr;                 /* channel-order (YUV video to a tensor) */
} Setting;

#define MAX_SETTINGS 200000

typedef struct
{
  GMutex lock;
  Setting *at;
  guint n;
} Log;

void live_log_add (Log * log, const Setting * s);

typedef struct
{
  LiveKind kind;
  Log *log;
  GMutex lock;
  GHashTable *inputs;           /* PTS -> Input */
  guint from;                   /* the setting the last frame matched */
  guint checked, flushed;
  guint32 directions_seen;      /* a bit per direction */
  gchar *failure;               /* the first one */
} Checker;

/* The hash table's free function for Checker.inputs. */
void live_input_free (gpointer data);

/* Pad probes: the frames in (and flushes) before the element, each frame
 * out after it checked (@data: the Checker). */
GstPadProbeReturn live_input_probe (GstPad * pad, GstPadProbeInfo * info,
    gpointer data);
GstPadProbeReturn live_output_probe (GstPad * pad, GstPadProbeInfo * info,
    gpointer data);

/* ---- one run (live-run.c) ---- */

/* Runs @desc (a source named "src" of @kind, the element "t", and probe
 * points "in" and "out": the pads frames are read from before and after
 * it) with the threads that change settings, ask, seek and keep the CPU
 * busy for a few seconds, then EOS; checks every frame out. */
void run_live (const gchar * desc, const gchar * factory, LiveKind kind,
    const GstVideoFormat * formats, guint n_formats,
    const gchar * const *kernels, guint n_kernels, const gchar * what);
