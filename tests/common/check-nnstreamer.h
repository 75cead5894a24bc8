/* NNStreamer's buffer layouts for the element tests (check-nnstreamer.c). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

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
