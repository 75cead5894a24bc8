/* GStreamer
 * Copyright (C) 2026 The cudatranspose authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* How a job's pieces lie in GstBuffers: video frames (with their
 * GstVideoMeta) and tensors in NNStreamer's layouts (a memory each, the
 * 16th holding the rest after NNStreamer's header, flexible tensors with
 * a header each), checked, made and mapped to spans. Each function says
 * why it refuses in a CtRefusal; the element posts it, once. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudatransposebuffers.h"

#include <gst/cuda/gstcudamemory.h>
#include <string.h>

/* Whether the first @n memories of @inbuf each hold their tensor, no more
 * and no less (a byte more would be dropped unread); if not, says why in
 * @r. */
static gboolean
check_memories (const CtJob * job, GstBuffer * inbuf, guint n, CtRefusal * r)
{
  guint i;

  for (i = 0; i < n; i++) {
    gsize have = gst_buffer_peek_memory (inbuf, i)->size;

    if (have != ct_tensor_bytes (&job->tensors[i])) {
      CT_REFUSE (r, STREAM, FORMAT, ("Invalid input buffer: tensor %u "
              "is %" G_GSIZE_FORMAT " bytes, but the caps say %"
              G_GUINT64_FORMAT ".", i, have,
              ct_tensor_bytes (&job->tensors[i])), ("Tensor %u (%s) needs %"
              G_GUINT64_FORMAT " bytes, and its memory holds %"
              G_GSIZE_FORMAT ": give the caps that describe the data", i,
              job->tensors[i].type, ct_tensor_bytes (&job->tensors[i]),
              have));
      return FALSE;
    }
  }
  return TRUE;
}

/* More than 16 tensors in NNStreamer's 16 memories: one each to the 15th,
 * then the header and the rest back to back; if not, says why in @r. */
static gboolean
check_extra_input (const CtJob * job, GstBuffer * inbuf, CtRefusal * r)
{
  guint last = CT_TENSOR_MEMORY_LIMIT - 1, i;
  GstMemory *mem = gst_buffer_peek_memory (inbuf, last);
  guint64 rest = 0;
  gchar *why = NULL;
  GstMapInfo map;
  gboolean ok;

  if (!check_memories (job, inbuf, last, r))
    return FALSE;
  for (i = last; i < job->n_tensors; i++)
    rest += ct_tensor_bytes (&job->tensors[i]);
  if (!gst_memory_map (mem, &map, GST_MAP_READ)) {
    CT_REFUSE (r, STREAM, FORMAT, ("Invalid input buffer."),
        ("Could not map the 16th memory to read its header"));
    return FALSE;
  }
  ok = ct_tensor_extra_header_check (map.data, map.size, job->n_tensors -
      CT_TENSOR_MEMORY_LIMIT, &why);
  if (ok && map.size - ct_tensor_extra_header_size () != rest) {
    why = g_strdup_printf ("its 16th memory holds %" G_GSIZE_FORMAT " bytes "
        "after its header, but tensors 15 to %u are %" G_GUINT64_FORMAT,
        map.size - ct_tensor_extra_header_size (), job->n_tensors - 1, rest);
    ok = FALSE;
  }
  gst_memory_unmap (mem, &map);
  if (!ok) {
    CT_REFUSE (r, STREAM, FORMAT, ("Invalid input buffer."),
        ("The buffer of %u tensors is not laid out as NNStreamer lays them "
            "out: %s", job->n_tensors, why));
    g_free (why);
  }
  return ok;
}

/* Whether input tensors are one memory each, or all in one memory back
 * to back, each as large as the caps say, with no byte besides; if not,
 * says why in @r. */
gboolean
ct_buffers_check_tensors (const CtJob * job, GstBuffer * inbuf,
    CtRefusal * r)
{
  guint n_in = gst_buffer_n_memory (inbuf);
  gboolean extra = job->n_tensors > CT_TENSOR_MEMORY_LIMIT &&
      n_in == CT_TENSOR_MEMORY_LIMIT;

  if (n_in != job->n_tensors && n_in != 1 && !extra) {
    CT_REFUSE (r, STREAM, FORMAT, ("Invalid input buffer."),
        ("The buffer has %u memories for %u tensors: give one memory per "
            "tensor (past 16, the rest in the 16th as NNStreamer does), or "
            "one memory holding them all", n_in, job->n_tensors));
    return FALSE;
  }
  if (extra)
    return check_extra_input (job, inbuf, r);
  if (n_in == 1 && gst_buffer_get_size (inbuf) != job->tensor_bytes) {
    CT_REFUSE (r, STREAM, FORMAT, ("Invalid input buffer: it is %"
            G_GSIZE_FORMAT " bytes, but the caps say %u tensor%s of %"
            G_GUINT64_FORMAT " bytes.", gst_buffer_get_size (inbuf),
            job->n_tensors, job->n_tensors == 1 ? "" : "s",
            job->tensor_bytes), ("A buffer of static tensors holds them "
            "and nothing else: give the caps that describe the data, or "
            "flexible tensors (format=flexible), whose headers say their "
            "sizes"));
    return FALSE;
  }
  return n_in == 1 || check_memories (job, inbuf, n_in, r);
}

/* Bytes the input buffer must hold for the planes as its meta lays them out
 * (or as the caps do, without meta). */
gboolean
ct_buffers_check_frame (const CtJob * job, GstBuffer * buf, CtRefusal * r)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buf);
  gsize size = gst_buffer_get_size (buf);
  gsize needed = 0;
  guint p;

  if (!meta) {
    needed = GST_VIDEO_INFO_SIZE (&job->in_info);
  } else {
    if (meta->format != GST_VIDEO_INFO_FORMAT (&job->in_info) ||
        meta->width != (guint) GST_VIDEO_INFO_WIDTH (&job->in_info) ||
        meta->height != (guint) GST_VIDEO_INFO_HEIGHT (&job->in_info) ||
        meta->n_planes != job->n_planes) {
      /* (the meta's format is printed as a number: it may be anything) */
      CT_REFUSE (r, STREAM, FORMAT, ("Invalid input buffer."),
          ("The buffer's video meta describes a %ux%u frame of format %d "
              "in %u planes, but the caps say %dx%d %s (format %d) in %u",
              meta->width, meta->height, (gint) meta->format,
              meta->n_planes, GST_VIDEO_INFO_WIDTH (&job->in_info),
              GST_VIDEO_INFO_HEIGHT (&job->in_info),
              GST_VIDEO_INFO_NAME (&job->in_info),
              (gint) GST_VIDEO_INFO_FORMAT (&job->in_info), job->n_planes));
      return FALSE;
    }
    for (p = 0; p < job->n_planes; p++) {
      const CtPlaneGeometry *g = &job->planes[p];
      gsize row = ct_job_frame_row (job, p);
      gsize end;

      if (meta->stride[p] < 0 || (gsize) meta->stride[p] < row) {
        CT_REFUSE (r, STREAM, FORMAT, ("Invalid input buffer."),
            ("Plane %u has stride %d, but a row is %" G_GSIZE_FORMAT
                " bytes", p, meta->stride[p], row));
        return FALSE;
      }
      /* (a hostile offset may add up past a gsize) */
      if (!g_size_checked_add (&end, (gsize) meta->stride[p] * (g->height -
                  1) + row, meta->offset[p])) {
        CT_REFUSE (r, STREAM, FORMAT, ("Invalid input buffer."),
            ("Plane %u starts at offset %" G_GSIZE_FORMAT ", past any "
                "buffer", p, meta->offset[p]));
        return FALSE;
      }
      needed = MAX (needed, end);
    }
  }

  if (size < needed) {
    CT_REFUSE (r, STREAM, FORMAT, ("Invalid input buffer."),
        ("The buffer holds %" G_GSIZE_FORMAT " bytes, but a %dx%d %s frame "
            "needs %" G_GSIZE_FORMAT, size,
            GST_VIDEO_INFO_WIDTH (&job->in_info),
            GST_VIDEO_INFO_HEIGHT (&job->in_info),
            GST_VIDEO_INFO_NAME (&job->in_info), needed));
    return FALSE;
  }
  return TRUE;
}

/* The headers of output memory @m (tensors @m to @last), if any: in the
 * 16th of more than 16 tensors, that of the tensors after it; each
 * flexible tensor's before its data. @places gets where each flexible
 * tensor's data lies. */
static void
write_tensor_headers (const CtJob * job, guint m, guint last,
    gboolean flexible, guint8 * data, CtTensorPlaces * places)
{
  CtTensorInfo out[CT_TENSOR_COUNT_LIMIT - CT_TENSOR_MEMORY_LIMIT + 1];
  gsize offset = 0;
  guint i;

  for (i = m; i <= last; i++)
    ct_job_out_tensor (job, i, &out[i - m]);
  if (last > m) {
    ct_tensor_extra_header_write (out, last - m + 1, flexible, data);
    offset = ct_tensor_extra_header_size ();
  }
  for (i = m; flexible && i <= last; i++) {
    ct_tensor_header_write (&out[i - m], data + offset);
    places->mem[i] = m;
    places->offset[i] = offset + CT_TENSOR_HEADER_SIZE;
    offset += CT_TENSOR_HEADER_SIZE + ct_tensor_bytes (&out[i - m]);
  }
}

GstBuffer *
ct_buffers_new_tensors (const CtJob * job, GstAllocator * allocator,
    const GstAllocationParams * params, gboolean flexible,
    CtTensorPlaces * places, CtRefusal * r)
{
  guint n_mem = MIN (job->n_tensors, CT_TENSOR_MEMORY_LIMIT), m, i;
  gboolean extra = job->n_tensors > CT_TENSOR_MEMORY_LIMIT;
  GstAllocationParams p = *params;
  GstBuffer *buf = gst_buffer_new ();

  for (m = 0; m < n_mem; m++) {
    gboolean rest = extra && m == n_mem - 1;
    gboolean header = flexible || rest;
    guint last = rest ? job->n_tensors - 1 : m;
    /* (all tensors together are at most half a gsize) */
    guint64 size = rest ? ct_tensor_extra_header_size () : 0;
    GstMemory *mem;
    GstMapInfo map;

    /* (of the output type where the arithmetic casts) */
    for (i = m; i <= last; i++)
      size += job->out[i].row * job->out[i].rows +
          (flexible ? CT_TENSOR_HEADER_SIZE : 0);
    mem = gst_allocator_alloc (allocator, size, &p);
    if (!mem) {
      gst_buffer_unref (buf);
      CT_REFUSE (r, RESOURCE, NO_SPACE_LEFT, ("Could not allocate %"
              G_GUINT64_FORMAT " bytes for output tensor %u.", size, m),
          (NULL));
      return NULL;
    }
    if (header) {
      if (!gst_memory_map (mem, &map, GST_MAP_WRITE)) {
        gst_memory_unref (mem);
        gst_buffer_unref (buf);
        CT_REFUSE (r, RESOURCE, WRITE, (NULL), ("Could not map output "
                "memory %u to write its header", m));
        return NULL;
      }
      write_tensor_headers (job, m, last, flexible, map.data, places);
      gst_memory_unmap (mem, &map);
    }
    gst_buffer_append_memory (buf, mem);
  }
  return buf;
}

gboolean
ct_buffers_read_flexible (GstBuffer * buf, const guint * perm,
    CtTensorInfo * in, guint * n, CtTensorPlaces * places, CtRefusal * r)
{
  guint n_mem = gst_buffer_n_memory (buf), m, i;
  guint64 dims4[4];
  gchar *why = NULL;

  *n = 0;
  if (n_mem == 0 || n_mem > CT_TENSOR_MEMORY_LIMIT) {
    CT_REFUSE (r, STREAM, FORMAT, ("Invalid input buffer."), ("The buffer "
            "has %u memories: flexible tensors come in 1 to %u, with a "
            "header each", n_mem, CT_TENSOR_MEMORY_LIMIT));
    return FALSE;
  }
  for (m = 0; m < n_mem; m++) {
    GstMemory *mem = gst_buffer_peek_memory (buf, m);
    guint first = *n;
    GstMapInfo map;
    gboolean ok;

    if (!gst_memory_map (mem, &map, GST_MAP_READ)) {
      CT_REFUSE (r, STREAM, FORMAT, ("Invalid input buffer."), ("Could not "
              "map memory %u to read its flexible tensors", m));
      return FALSE;
    }
    ok = ct_tensor_flexible_parse (map.data, map.size,
        m == CT_TENSOR_MEMORY_LIMIT - 1, in, places->offset,
        CT_TENSOR_COUNT_LIMIT, n, &why);
    gst_memory_unmap (mem, &map);
    for (i = first; i < *n; i++)
      places->mem[i] = m;
    if (!ok) {
      CT_REFUSE (r, STREAM, FORMAT, ("Invalid flexible tensor %u (in memory "
              "%u): %s.", *n, m, why), (NULL));
      g_free (why);
      return FALSE;
    }
  }
  for (i = 0; i < *n; i++) {
    if (perm && !ct_tensor_dims4 (&in[i], dims4)) {
      why = g_strdup_printf ("it has rank %u, but a permutation needs "
          "tensors of rank 4 or less (sizes beyond the fourth must be 1)",
          in[i].rank);
    } else if (!perm && ct_tensor_planes (&in[i]) > G_MAXUINT) {
      why = g_strdup_printf ("it has more than %u planes (the product of "
          "its sizes past the second): send it in smaller tensors",
          G_MAXUINT);
    }
    if (why) {
      CT_REFUSE (r, STREAM, FORMAT, ("Invalid flexible tensor %u: %s.", i,
              why), (NULL));
      g_free (why);
      return FALSE;
    }
  }
  return TRUE;
}

/* Maps @buf as a frame of @info; @flags may ask for its CUDA memory (the
 * caller orders its reads behind the producer: gstcudatransposeorder.h). */
static gboolean
map_frame (CtMapped * m, GstBuffer * buf, const GstVideoInfo * info,
    GstMapFlags flags)
{
  guint p;

  if (!gst_video_frame_map (&m->frame, info, buf, flags))
    return FALSE;
  m->frame_mapped = TRUE;
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&m->frame); p++) {
    m->spans[p].data = GST_VIDEO_FRAME_PLANE_DATA (&m->frame, p);
    m->spans[p].stride = GST_VIDEO_FRAME_PLANE_STRIDE (&m->frame, p);
  }
  return TRUE;
}

/* Maps every memory of @buf, and @n flexible tensors of @pieces where
 * @places puts them; FALSE if a memory cannot be mapped or does not hold
 * its tensors. */
static gboolean
map_placed_tensors (CtMapped * m, GstBuffer * buf, const CtPiece * pieces,
    guint n, const CtTensorPlaces * places, GstMapFlags flags)
{
  guint n_mem = gst_buffer_n_memory (buf), i;

  if (n_mem > CT_TENSOR_MEMORY_LIMIT)
    return FALSE;
  for (i = 0; i < n_mem; i++) {
    if (!gst_memory_map (gst_buffer_peek_memory (buf, i), &m->maps[i], flags))
      return FALSE;
    m->n_maps++;
  }
  for (i = 0; i < n; i++) {
    const GstMapInfo *map = &m->maps[places->mem[i]];

    if (places->mem[i] >= n_mem || map->size < places->offset[i] ||
        map->size - places->offset[i] < pieces[i].row)
      return FALSE;
    m->spans[i].data = map->data + places->offset[i];
    m->spans[i].stride = pieces[i].row;
  }
  return TRUE;
}

/* Maps @buf as the job's @n tensors of @pieces: one memory each (past 16,
 * the rest in the 16th after NNStreamer's header), or all in one memory
 * back to back; FALSE if it does not hold them. */
static gboolean
map_tensors (CtMapped * m, GstBuffer * buf, const CtPiece * pieces, guint n,
    GstMapFlags flags)
{
  guint n_mem = gst_buffer_n_memory (buf), i;
  gsize offset = 0;

  if (n > CT_TENSOR_MEMORY_LIMIT && n_mem == CT_TENSOR_MEMORY_LIMIT) {
    /* one each to the 15th, then the header and the rest back to back */
    for (i = 0; i < n_mem; i++) {
      if (!gst_memory_map (gst_buffer_peek_memory (buf, i), &m->maps[i],
              flags))
        return FALSE;
      m->n_maps++;
    }
    for (i = 0; i < n; i++) {
      guint k = MIN (i, n_mem - 1);

      if (i == k)
        offset = k == n_mem - 1 ? ct_tensor_extra_header_size () : 0;
      if (m->maps[k].size < offset ||
          m->maps[k].size - offset < pieces[i].row)
        return FALSE;
      m->spans[i].data = m->maps[k].data + offset;
      m->spans[i].stride = pieces[i].row;
      offset += pieces[i].row;
    }
    return TRUE;
  }
  if (n_mem == n && n > 1) {
    for (i = 0; i < n; i++) {
      if (!gst_memory_map (gst_buffer_peek_memory (buf, i), &m->maps[i],
              flags))
        return FALSE;
      m->n_maps++;
      if (m->maps[i].size < pieces[i].row)
        return FALSE;
      m->spans[i].data = m->maps[i].data;
      m->spans[i].stride = pieces[i].row;
    }
    return TRUE;
  }
  if (!gst_buffer_map (buf, &m->maps[0], flags))
    return FALSE;
  m->whole_mapped = TRUE;
  for (i = 0; i < n; i++) {
    if (m->maps[0].size < offset || m->maps[0].size - offset < pieces[i].row)
      return FALSE;
    m->spans[i].data = m->maps[0].data + offset;
    m->spans[i].stride = pieces[i].row;
    offset += pieces[i].row;
  }
  return TRUE;
}

void
ct_buffers_unmap (CtMapped * m)
{
  guint i;

  if (m->frame_mapped)
    gst_video_frame_unmap (&m->frame);
  if (m->whole_mapped)
    gst_buffer_unmap (m->buf, &m->maps[0]);
  for (i = 0; i < m->n_maps; i++)
    gst_memory_unmap (gst_buffer_peek_memory (m->buf, i), &m->maps[i]);
  if (m->holds_ref)
    gst_buffer_unref (m->buf);
  m->buf = NULL;
  m->holds_ref = FALSE;
}

gboolean
ct_buffers_map (const CtJob * job, const CtTensorPlaces * places_in,
    const CtTensorPlaces * places_out, GstBuffer * inbuf, gboolean in_dev,
    CtMapped * in, GstBuffer * outbuf, gboolean out_dev, CtMapped * out,
    CtRefusal * r)
{
  gboolean video_in = job->mode == CT_JOB_VIDEO ||
      job->mode == CT_JOB_VIDEO_TO_TENSOR;
  gboolean ok;

  memset (in, 0, sizeof (*in));
  memset (out, 0, sizeof (*out));
  in->buf = inbuf;
  out->buf = outbuf;
  /* (the input was checked against the caps in prepare_output_buffer) */
  if (video_in)
    ok = map_frame (in, inbuf, &job->in_info, GST_MAP_READ |
        (in_dev ? GST_MAP_CUDA : 0));
  else if (places_in)
    ok = map_placed_tensors (in, inbuf, job->in, job->n_pieces, places_in,
        GST_MAP_READ);
  else
    ok = map_tensors (in, inbuf, job->in, job->n_pieces, GST_MAP_READ |
        (in_dev ? GST_MAP_CUDA : 0));
  if (!ok) {
    ct_buffers_unmap (in);
    CT_REFUSE (r, STREAM, FORMAT, ("Invalid input buffer."),
        ("Could not map the input buffer for reading"));
    return FALSE;
  }
  if (job->mode == CT_JOB_VIDEO)
    ok = map_frame (out, outbuf, &job->out_info, GST_MAP_WRITE |
        (out_dev ? GST_MAP_CUDA : 0));
  else if (places_out)
    ok = map_placed_tensors (out, outbuf, job->out, job->n_pieces,
        places_out, GST_MAP_WRITE);
  else
    ok = map_tensors (out, outbuf, job->out, job->n_pieces, GST_MAP_WRITE |
        (out_dev ? GST_MAP_CUDA : 0));
  if (!ok) {
    ct_buffers_unmap (out);
    ct_buffers_unmap (in);
    CT_REFUSE (r, RESOURCE, WRITE, (NULL),
        ("Could not map the output buffer for writing (%" G_GSIZE_FORMAT
            " bytes in %u memories)", gst_buffer_get_size (outbuf),
            gst_buffer_n_memory (outbuf)));
    return FALSE;
  }
  /* a frame left in flight keeps its buffers mapped after the base class
   * has let go of the input: the maps hold a reference (taken after the
   * output's map for writing, which needs it writable) */
  gst_buffer_ref (inbuf);
  gst_buffer_ref (outbuf);
  in->holds_ref = out->holds_ref = TRUE;
  return TRUE;
}


gboolean
ct_buffers_follow_flexible (CtJob * job, GstBuffer * buf,
    CtTensorPlaces * places, CtRefusal * r)
{
  CtTensorInfo in[CT_TENSOR_COUNT_LIMIT];
  guint n = 0, negotiated[4];
  /* (a copy: setting the job anew clears it first) */
  const guint *perm = job->mode == CT_JOB_PERMUTE ?
      memcpy (negotiated, job->perm, sizeof (negotiated)) : NULL;
  gchar *why = NULL;

  if (!ct_buffers_read_flexible (buf, perm, in, &n, places, r))
    return FALSE;
  if (ct_job_has_tensors (job, in, n))
    return TRUE;
  ct_job_set_tensors (job, in, n, perm);
  if (!ct_job_prepare_arith (job, &why)) {
    CT_REFUSE (r, STREAM, FORMAT, ("Invalid arithmetic property for these "
            "flexible tensors: %s.", why), (NULL));
    g_free (why);
    /* (the next buffer's tensors are checked anew) */
    ct_job_set_tensors (job, in, 0, perm);
    return FALSE;
  }
  return TRUE;
}
