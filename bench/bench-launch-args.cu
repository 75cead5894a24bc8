/* What the size of a kernel's arguments costs a small job: the same kernel
 * (one 224x224x3 uint8 frame cast to float32 planes, a one-wave job like a
 * network's input) launched with 8 to 1024 bytes of arguments, beside a
 * device copy of the same bytes and ct_permute_arith's fused normalization
 * of that frame (and the same into int32, which its element-per-thread
 * kernel runs).
 *
 *   bench-launch-args [--rounds N] [--width W] [--height H]
 *
 * Each is timed with CUDA events on one stream, the L2 flushed by reading
 * (flush-l2.cu) before every run, after a quarter of a second of warm-up;
 * the jobs of a round run in an order that turns by one each round. The
 * table gives the median and the 10th and 90th percentiles in us and the
 * copy's median over the job's. Run it several times: on an H100 some
 * processes pay nothing for large arguments, and the others pay 0.1 to
 * 0.8 us (median) for 192 bytes or more, on part of their launches; none
 * paid anything for 160 or less.
 *
 * Exits 77 without a CUDA device. */
#include "cudatranspose-kernels.h"
#include "bench-util.h"
#include "flush-l2.h"

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

namespace {

/* Arguments of S bytes, the first word read so that none is dropped. */
template <int S> struct Args
{
  unsigned int word;
  unsigned char pad[S - 4];
};

/// touch: pixel p of P, three bytes interleaved, cast to float32 into three
/// planes (coalesced both ways); one thread a pixel.
template <int S>
__global__ void __launch_bounds__ (256)
k_touch (const unsigned char *src, float *dst, unsigned long long P,
    const __grid_constant__ Args<S> args)
{
  const unsigned long long p = blockIdx.x * 256ull + threadIdx.x;

  if (p >= P)
    return;
  float v0 = src[p * 3], v1 = src[p * 3 + 1], v2 = src[p * 3 + 2];
  if (args.word == 0x9e3779b9u)
    v0 = -v0;
  dst[p] = v0;
  dst[P + p] = v1;
  dst[2 * P + p] = v2;
}

struct Ctx
{
  unsigned char *src;
  float *dst;
  unsigned long long pixels;
  void *copy_src, *copy_dst;
  size_t copy_bytes;
  CtArith arith;
  cudaStream_t st;
};

struct Job
{
  const char *name;
  cudaError_t (*run) (const Ctx &);
  std::vector<float> ms;
};

template <int S>
cudaError_t
run_touch (const Ctx & c)
{
  Args<S> args;

  memset (&args, 0, sizeof (args));
  k_touch<S><<<(unsigned int) ((c.pixels + 255) / 256), 256, 0, c.st>>>
      (c.src, c.dst, c.pixels, args);
  return cudaGetLastError ();
}

cudaError_t
run_copy (const Ctx & c)
{
  return cudaMemcpyAsync (c.copy_dst, c.copy_src, c.copy_bytes,
      cudaMemcpyDeviceToDevice, c.st);
}

cudaError_t
run_arith (const Ctx & c)
{
  const unsigned long long dims[4] = { 3, c.pixels, 1, 1 };
  const unsigned int chw[4] = { 1, 0, 2, 3 };

  return ct_permute_arith (c.src, c.dst, dims, chw, &c.arith, c.st, NULL) ==
      CT_OK ? cudaSuccess : cudaErrorUnknown;
}

/* the same job through the element-per-thread kernel: uint8 to int32, a
 * pair the pixels kernel is not built for (the same bytes out) */
cudaError_t
run_arith_any (const Ctx & c)
{
  const unsigned long long dims[4] = { 3, c.pixels, 1, 1 };
  const unsigned int wc[4] = { 1, 0, 2, 3 };
  CtArith any = c.arith;
  CtPath ran = CT_PATH_ARITH_PIXELS;

  any.out_type = CT_TYPE_INT32;
  any.ops[1].float_value = 3.0;
  if (ct_permute_arith (c.src, c.dst, dims, wc, &any, c.st, &ran) != CT_OK
      || ran != CT_PATH_ARITH)
    return cudaErrorUnknown;
  return cudaSuccess;
}

float
quantile (std::vector<float> v, double q)
{
  std::sort (v.begin (), v.end ());
  return v[(size_t) ((v.size () - 1) * q)] * 1000.f;
}

#define CHECK(call) do { \
    cudaError_t e_ = (call); \
    if (e_ != cudaSuccess) { \
      fprintf (stderr, "%s: %s\n", #call, cudaGetErrorString (e_)); \
      return 1; \
    } \
  } while (0)

}                               /* namespace */

int
main (int argc, char **argv)
{
  int rounds = 300, width = 224, height = 224, n_dev = 0;

  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp (argv[i], "--rounds"))
      rounds = atoi (argv[i + 1]);
    else if (!strcmp (argv[i], "--width"))
      width = atoi (argv[i + 1]);
    else if (!strcmp (argv[i], "--height"))
      height = atoi (argv[i + 1]);
    else {
      fprintf (stderr, "usage: %s [--rounds N] [--width W] [--height H]\n",
          argv[0]);
      return 2;
    }
  }
  if (rounds < 10 || width < 1 || height < 1) {
    fprintf (stderr, "--rounds takes 10 or more, sizes 1 or more\n");
    return 2;
  }
  if (cudaGetDeviceCount (&n_dev) != cudaSuccess || n_dev == 0) {
    printf ("no CUDA device: skipped\n");
    return 77;
  }

  cudaDeviceProp prop;
  CHECK (cudaGetDeviceProperties (&prop, 0));
  Ctx c;
  memset (&c, 0, sizeof (c));
  c.pixels = (unsigned long long) width * height;
  const size_t in_bytes = c.pixels * 3, out_bytes = c.pixels * 12;
  c.copy_bytes = (in_bytes + out_bytes) / 2;
  const size_t flush_bytes = 2 * (size_t) prop.l2CacheSize;
  void *flush = NULL;
  unsigned int *sink = NULL;
  CHECK (cudaStreamCreate (&c.st));
  CHECK (cudaMalloc (&flush, flush_bytes));
  CHECK (cudaMemset (flush, 7, flush_bytes));
  CHECK (cudaMalloc (&sink, sizeof (*sink)));
  CHECK (cudaMalloc (&c.src, in_bytes));
  CHECK (cudaMalloc (&c.dst, out_bytes));
  CHECK (cudaMalloc (&c.copy_src, c.copy_bytes));
  CHECK (cudaMalloc (&c.copy_dst, c.copy_bytes));
  CHECK (cudaMemset (c.src, 9, in_bytes));
  CHECK (cudaMemset (c.copy_src, 9, c.copy_bytes));

  /* NNStreamer's typecast:float32,add:-127.5,div:127.5 */
  c.arith.in_type = CT_TYPE_UINT8;
  c.arith.out_type = CT_TYPE_FLOAT32;
  c.arith.n_ops = 2;
  c.arith.ops[0].kind = CT_ARITH_ADD;
  c.arith.ops[1].kind = CT_ARITH_DIV;
  for (int k = 0; k < 2; k++) {
    c.arith.ops[k].channel = -1;
    c.arith.ops[k].is_float = 1;
    c.arith.ops[k].float_value = k == 0 ? -127.5 : 127.5;
  }

  std::vector<Job> jobs = {
    {"device copy", run_copy, {}},
    {"ct_permute_arith", run_arith, {}},
    {"  the any kernel", run_arith_any, {}},
    {"touch, 8 B", run_touch<8>, {}},
    {"touch, 64 B", run_touch<64>, {}},
    {"touch, 128 B", run_touch<128>, {}},
    {"touch, 160 B", run_touch<160>, {}},
    {"touch, 192 B", run_touch<192>, {}},
    {"touch, 256 B", run_touch<256>, {}},
    {"touch, 592 B", run_touch<592>, {}},
    {"touch, 1024 B", run_touch<1024>, {}},
  };
  cudaEvent_t a, b;
  CHECK (cudaEventCreate (&a));
  CHECK (cudaEventCreate (&b));

  /* the clocks out of idle */
  for (double t0 = bench_now_us (); bench_now_us () - t0 < 250000;) {
    CHECK (bench_flush_l2 (flush, flush_bytes, sink, c.st));
    CHECK (cudaStreamSynchronize (c.st));
  }
  const int n = (int) jobs.size ();
  for (int i = -5; i < rounds; i++)
    for (int j = 0; j < n; j++) {
      Job & job = jobs[(i + 5 + j) % n];
      float ms = 0;
      CHECK (bench_flush_l2 (flush, flush_bytes, sink, c.st));
      CHECK (cudaEventRecord (a, c.st));
      CHECK (job.run (c));
      CHECK (cudaEventRecord (b, c.st));
      CHECK (cudaEventSynchronize (b));
      CHECK (cudaEventElapsedTime (&ms, a, b));
      if (i >= 0)
        job.ms.push_back (ms);
    }

  const float copy = quantile (jobs[0].ms, 0.5);
  printf ("%s; %dx%dx3 uint8 -> float32 planes; %d rounds, L2 flushed "
      "by reading\n", prop.name, width, height, rounds);
  printf ("%-18s %8s %8s %8s %14s\n", "job", "median", "p10", "p90",
      "copy / job");
  for (const Job & job : jobs) {
    const float med = quantile (job.ms, 0.5);
    printf ("%-18s %8.2f %8.2f %8.2f %14.2f\n", job.name, med,
        quantile (job.ms, 0.1), quantile (job.ms, 0.9), copy / med);
  }
  cudaFree (c.copy_dst);
  cudaFree (c.copy_src);
  cudaFree (c.dst);
  cudaFree (c.src);
  cudaFree (sink);
  cudaFree (flush);
  cudaStreamDestroy (c.st);
  return 0;
}
