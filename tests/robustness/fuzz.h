/* What the files of the fuzz test (test-fuzz) share, private to it: the
 * seeded generator, the tally of the summary, the element in a harness and
 * what came of a buffer pushed (fuzz.c), and the cases of each kind:
 * hostile caps and buffers (fuzz-cases.c), settings changed while playing,
 * restarts and flushes (fuzz-changes.c), flexible tensors past 16
 * (fuzz-flexible.c). Every draw comes from the one generator, in the order
 * the cases make them: a seed gives the same cases whichever file they are
 * in. */
#ifndef __CT_FUZZ_H__
#define __CT_FUZZ_H__

#include "cudatranspose-kernels.h"
#include "transpose-check.h"

#include <string.h>

/* Inputs larger than this are only pushed short (they must be refused). */
#define MAX_PUSH_BYTES (2u << 20)

/* ---- the generator (fuzz.c) ---- */

extern guint64 fuzz_state;
/* (for the failure messages) */
extern guint32 fuzz_seed;
/* CT_FUZZ_TRACE set: each case printed as it ends, to see the cases
 * before a failure in the same harness */
extern gboolean fuzz_trace;

guint32 fuzz_next (void);
guint fuzz_range (guint lo, guint hi);
gboolean fuzz_chance (guint percent);
void fuzz_fill (guint8 * data, gsize size);
void fuzz_permutation_order (guint * perm);

/* ---- the element in a harness (fuzz.c) ---- */

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

/* KIND_VIDEO_TO_TENSOR's arithmetic (fuzz-cases.c): the property's value,
 * and the same program for the tests' model (arith-reference.h) from the
 * 8-bit values (in_type uint8). */
typedef struct
{
  const gchar *prop;
  CtArith program;
} FuzzArith;

extern const FuzzArith fuzz_ariths[];
extern const guint fuzz_n_ariths;

/* What happened to the cases, for the summary. */
typedef struct
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
  guint turned_yuv;             /* YUV video into a tensor turned, checked */
  guint turned_rgb_refused;     /* RGB video into a tensor turned, refused */
  guint stated_yuv;             /* YUV video into a tensor with its matrix,
                                 * range and chroma siting stated, checked */
  guint typed;                  /* video into a tensor through an
                                 * arithmetic, checked */
  guint restarts;               /* to READY or NULL and back to PLAYING */
  guint flushes;                /* FLUSH_START and FLUSH_STOP */
  guint seeks;                  /* of which answering a flushing seek */
} Tally;

extern Tally tally;

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
  /* KIND_VIDEO_TO_TENSOR: video-direction set (@direction), which turns
   * YUV video into the tensor and refuses RGB but for identity */
  gboolean turned;
  const FuzzArith *arith;       /* KIND_VIDEO_TO_TENSOR: NULL, or set */
  /* interlaced video, or tensors a permutation cannot take: a refusal has
   * been said (an error posted) since the last buffer out, or the caps or
   * the stream changed */
  gboolean said;
  guint streams;                /* stream-starts pushed, for their ids */
  gboolean keep_kernel;         /* no kernel changes (a case replayed) */
} Setup;

/* What came of a buffer pushed. */
typedef struct
{
  GstFlowReturn ret;
  GstBuffer *out;               /* the output, or NULL */
  gchar *error;                 /* the first error's text, or NULL */
  guint errors;
  gboolean accepted;            /* the element's sink pad takes the caps */
} Pushed;

const gchar *direction_nick (GstVideoOrientationMethod method);
gchar *permutation_text (gboolean permute, const guint * perm);
void setup_start (Setup * s, Kind kind);
void setup_stop (Setup * s);
void push_raw (Setup * s, GstCaps * caps, GstBuffer * buf, Pushed * p,
    const gchar * what);
GstBuffer *push_case (Setup * s, GstCaps * caps, GstBuffer * buf,
    gboolean expect_ok, const gchar * what);
void poison_and_release (GstBuffer * out);

/* ---- hostile caps and buffers (fuzz-cases.c) ---- */

void fuzz_video (Setup * s, guint index, const gchar * churn);
void fuzz_video_to_tensor (Setup * s, guint index, const gchar * churn);
void fuzz_tensors (Setup * s, guint index, const gchar * churn);

/* tensor types by name, and their element sizes: the first 11 the valid
 * ones in lower case, then two in other cases, then names of no type
 * (size 0) */
typedef struct
{
  const gchar *name;
  guint size;
} FuzzType;

extern const FuzzType fuzz_types[];

/* the reference the tensor cases are checked against */
guint64 fuzz_tensor_bytes (const FuzzTensor * t);
void check_tensor (const FuzzTensor * t, const guint * perm,
    const guint8 * in, const guint8 * out, const gchar * what, guint index);
guint rearranged (const FuzzTensor * t, const guint * perm, guint64 * out);

/* ---- changes while playing, restarts and flushes (fuzz-changes.c) ---- */

const gchar *fuzz_churn (Setup * s);
GstBuffer *fuzz_frame (const GstVideoInfo * info, guint pad);
void fuzz_direction (Setup * s, guint index, const gchar * churn);
void fuzz_interlaced (Setup * s, guint index, const gchar * churn);
void fuzz_permutation (Setup * s, guint index, const gchar * churn);
void fuzz_bad_permutation (guint index);

/* ---- flexible tensors past 16 (fuzz-flexible.c) ---- */

void fuzz_flexible (Setup * s, guint index, const gchar * churn);

#endif /* __CT_FUZZ_H__ */
