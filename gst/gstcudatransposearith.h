/* GStreamer
 * Copyright (C) 2026 The cudatranspose authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */
#pragma once

#include <gst/gst.h>

#include "cudatranspose-kernels.h"
#include "gstcudatransposetensor.h"

G_BEGIN_DECLS

/* The arithmetic property: NNStreamer's tensor_transform mode=arithmetic
 * option string, read here into what the kernels take (CtArith), and
 * checked against a tensor when the caps are known. Where NNStreamer
 * would silently ignore or change part of an option, it is refused with
 * a sentence that quotes it and says what to write instead. */

/* What the property holds. */
typedef enum
{
  CT_ARITH_STATE_NONE,          /* unset or empty: no arithmetic */
  CT_ARITH_STATE_VALID,
  CT_ARITH_STATE_INVALID,       /* kept as set, refused when starting */
} CtArithState;

/* (ct_quote's CT_QUOTE_MAX characters of UTF-8, "..." and the NUL) */
#define CT_ARITH_QUOTE_MAX (CT_QUOTE_MAX * 4 + 4)

/* A parsed option. @arith's operations and channel_dim are the option's;
 * its in_type and out_type are only set per tensor (ct_arith_check). */
typedef struct
{
  CtArith arith;
  gboolean typecast;            /* typecast:TYPE given: @out_type */
  CtType out_type;
  gboolean per_channel;         /* per-channel:true@DIM (arith.channel_dim) */
  gchar text[CT_ARITH_QUOTE_MAX];       /* as set, for messages
                                         * (ct_quote) */
} CtArithSpec;

/* Reads @text (NNStreamer's grammar, case-insensitive):
 * [typecast:TYPE,][per-channel:(false|true@DIM),]OP:NUMBER[@CH][,...]
 * with OP add, mul or div. FALSE with a sentence in @why (g_free it) that
 * quotes @text when it is not one this element runs as NNStreamer would.
 * NULL or "" must be handled by the caller (no arithmetic). */
gboolean ct_arith_parse (const gchar * text, CtArithSpec * spec,
    gchar ** why);

/* The type tensors of @in_type come out as: the typecast's, else their
 * own. */
CtType ct_arith_out_type (const CtArithSpec * spec, CtType in_type);

/* The CtType of a tensor type name; FALSE for float16 (no arithmetic) and
 * names that are not types. */
gboolean ct_arith_type_of (const gchar * name, CtType * type);

/* The option @spec for the tensor @in (for video, the frame as the HWC
 * tensor C:W:H:1): the per-channel dimension within its rank, each
 * channel within that dimension, no division by an operand that is 0
 * once cast to the output type, and what ct_arith_validate checks. Fills
 * @arith with the types set; FALSE with a sentence in @why (g_free it)
 * that quotes the option. */
gboolean ct_arith_check (const CtArithSpec * spec, const CtTensorInfo * in,
    CtArith * arith, gchar ** why);

G_END_DECLS
