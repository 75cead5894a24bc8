/* NNStreamer's definitions, for tests that write its buffer layouts
 * themselves: its tensor_type table and a flexible tensor's header. */
#include "transpose-check.h"

#include <string.h>

const CtCheckNnsType ct_check_nns_types[] = {
  {"int32", 4}, {"uint32", 4}, {"int16", 2}, {"uint16", 2}, {"int8", 1},
  {"uint8", 1}, {"float64", 8}, {"float32", 4}, {"int64", 8}, {"uint64", 8},
  {"float16", 2},
};
const guint ct_check_n_nns_types = G_N_ELEMENTS (ct_check_nns_types);

void
ct_check_nns_write_meta (guint8 * header, guint32 magic, guint type,
    const guint * dims, guint rank, guint format)
{
  guint32 w[21] = { magic, 0xde001000, type };
  guint i;

  for (i = 0; i < rank; i++)
    w[3 + i] = dims[i];
  w[19] = format;
  w[20] = 4;                    /* media type: tensor */
  memset (header, 0, CT_CHECK_NNS_HEADER);
  memcpy (header, w, sizeof (w));
}
