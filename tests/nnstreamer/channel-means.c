/* cudatranspose tests: a model for NNStreamer's tensor_filter
 * (framework=custom), so that pipelines/decode-to-tensor.sh's MODEL can be
 * run where NNStreamer is installed and no real model is at hand. It takes
 * one float32 tensor of dimensions W:H:C:1 (innermost first: C planes of
 * H rows of W values, any sizes) and gives a float32 tensor C:1:1:1, each
 * plane's mean (summed in double). Built only where pkg-config finds
 * NNStreamer (tests/meson.build). */
#include <tensor_filter_custom.h>

#include <stdint.h>
#include <string.h>

/* (no state of its own, but tensor_filter takes NULL as a failed init) */
static int token;

static void *
means_init (const GstTensorFilterProperties * prop)
{
  (void) prop;
  return &token;
}

static void
means_exit (void *data, const GstTensorFilterProperties * prop)
{
  (void) data;
  (void) prop;
}

/* Whether @info is one float32 tensor W:H:C:1 (trailing dimensions 1 or
 * unset); its sizes in @w, @h, @c. */
static int
planes_of (const GstTensorsInfo * info, uint32_t * w, uint32_t * h,
    uint32_t * c)
{
  const GstTensorInfo *t = &info->info[0];

  if (info->num_tensors != 1 || t->type != _NNS_FLOAT32)
    return 0;
  for (unsigned int i = 3; i < NNS_TENSOR_RANK_LIMIT; i++)
    if (t->dimension[i] > 1)
      return 0;
  *w = t->dimension[0];
  *h = t->dimension[1] ? t->dimension[1] : 1;
  *c = t->dimension[2] ? t->dimension[2] : 1;
  return *w > 0;
}

static int
means_set_input (void *data, const GstTensorFilterProperties * prop,
    const GstTensorsInfo * in, GstTensorsInfo * out)
{
  uint32_t w, h, c;

  (void) data;
  (void) prop;
  if (!planes_of (in, &w, &h, &c))
    return -1;
  memset (&out->info[0], 0, sizeof (out->info[0]));
  out->num_tensors = 1;
  out->info[0].type = _NNS_FLOAT32;
  out->info[0].dimension[0] = c;
  out->info[0].dimension[1] = 1;
  out->info[0].dimension[2] = 1;
  out->info[0].dimension[3] = 1;
  return 0;
}

static int
means_invoke (void *data, const GstTensorFilterProperties * prop,
    const GstTensorMemory * input, GstTensorMemory * output)
{
  uint32_t w, h, c;
  const float *in = input[0].data;
  float *out = output[0].data;
  size_t plane;

  (void) data;
  if (!planes_of (&prop->input_meta, &w, &h, &c))
    return -1;
  plane = (size_t) w * h;
  if (input[0].size < plane * c * sizeof (float) ||
      output[0].size < c * sizeof (float))
    return -1;
  for (uint32_t p = 0; p < c; p++) {
    double sum = 0;

    for (size_t i = 0; i < plane; i++)
      sum += in[p * plane + i];
    out[p] = (float) (sum / (double) plane);
  }
  return 0;
}

static NNStreamer_custom_class means_class = {
  .initfunc = means_init,
  .exitfunc = means_exit,
  .setInputDim = means_set_input,
  .invoke = means_invoke,
};

/* (the name tensor_filter's custom framework looks up) */
NNStreamer_custom_class *NNStreamer_custom = &means_class;
