/* The system-memory schedule without GStreamer: how close the element's
 * way of moving a frame can come to the link's bound. Each plane of a
 * frame goes up (host to device), through a kernel (a device copy of the
 * plane, standing in for the transpose) and down (device to host), each
 * on its own stream and each after the one before it by an event, as the
 * element runs a frame it holds back (one band a plane); frame i is queued
 * once frame i - D has finished (D frames in flight; the element has D =
 * 1 or 2). Pinned host memory both ways.
 *
 *   bench-schedule [I420|NV12] [WIDTH HEIGHT]
 *
 * Prints the link's bound (the frame's bytes up and down at once, on two
 * streams, the best of three medians of 20) and, for D = 1 to 4, twice
 * each, the time a frame of 380 takes after 20 of warm-up, and its
 * fraction of the bound. Exits 77 without a CUDA device. */
#include "bench-util.h"

#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

#define CHECK(x) check ((x), #x, __LINE__)

static void
check (cudaError_t e, const char *what, int line)
{
  if (e != cudaSuccess) {
    fprintf (stderr, "bench-schedule:%d: %s: %s\n", line, what,
        cudaGetErrorString (e));
    exit (1);
  }
}

__global__ void
k_copy (const uint4 * a, uint4 * b, size_t n)
{
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n;
      i += (size_t) gridDim.x * blockDim.x)
    b[i] = a[i];
}

int
main (int argc, char **argv)
{
  const bool nv12 = argc > 1 && strcmp (argv[1], "NV12") == 0;
  const size_t w = argc > 3 ? strtoul (argv[2], NULL, 10) : 3840;
  const size_t h = argc > 3 ? strtoul (argv[3], NULL, 10) : 2160;
  constexpr int kFrames = 4, kMaxDepth = 4, kRuns = 400, kWarm = 20;
  std::vector<size_t> planes = { w * h };
  unsigned char *h_in[kFrames], *h_out[kFrames];
  unsigned char *d_in[kMaxDepth], *d_out[kMaxDepth];
  cudaStream_t up, comp, down;
  cudaEvent_t uploaded[kMaxDepth][3], moved[kMaxDepth][3], done[kMaxDepth];
  cudaEvent_t t[4];
  size_t frame = 0;
  double bound = 1e30;
  int n_devices = 0;

  if (cudaGetDeviceCount (&n_devices) != cudaSuccess || n_devices == 0) {
    printf ("bench-schedule: no CUDA device\n");
    return 77;
  }
  if (w < 2 || h < 2 || w % 32 != 0) {
    fprintf (stderr, "usage: %s [I420|NV12] [WIDTH HEIGHT] (width a "
        "multiple of 32)\n", argv[0]);
    return 2;
  }
  if (nv12) {
    planes.push_back (w * (h / 2));
  } else {
    planes.push_back ((w / 2) * (h / 2));
    planes.push_back ((w / 2) * (h / 2));
  }
  for (size_t p : planes)
    frame += p;
  for (int i = 0; i < kFrames; i++) {
    CHECK (cudaMallocHost (&h_in[i], frame));
    CHECK (cudaMallocHost (&h_out[i], frame));
    memset (h_in[i], 17 * i + 1, frame);
  }
  for (int i = 0; i < kMaxDepth; i++) {
    CHECK (cudaMalloc (&d_in[i], frame));
    CHECK (cudaMalloc (&d_out[i], frame));
  }
  CHECK (cudaStreamCreateWithFlags (&up, cudaStreamNonBlocking));
  CHECK (cudaStreamCreateWithFlags (&comp, cudaStreamNonBlocking));
  CHECK (cudaStreamCreateWithFlags (&down, cudaStreamNonBlocking));
  for (int s = 0; s < kMaxDepth; s++) {
    for (int p = 0; p < 3; p++) {
      CHECK (cudaEventCreateWithFlags (&uploaded[s][p],
              cudaEventDisableTiming));
      CHECK (cudaEventCreateWithFlags (&moved[s][p], cudaEventDisableTiming));
    }
    CHECK (cudaEventCreateWithFlags (&done[s], cudaEventDisableTiming));
  }
  for (int i = 0; i < 4; i++)
    CHECK (cudaEventCreate (&t[i]));

  /* the link's bound */
  for (int r = 0; r < 3; r++) {
    double v[20];
    for (int i = 0; i < 20; i++) {
      float a, b;
      CHECK (cudaDeviceSynchronize ());
      CHECK (cudaEventRecord (t[0], up));
      CHECK (cudaEventRecord (t[2], down));
      CHECK (cudaMemcpyAsync (d_in[0], h_in[0], frame,
              cudaMemcpyHostToDevice, up));
      CHECK (cudaMemcpyAsync (h_out[0], d_out[0], frame,
              cudaMemcpyDeviceToHost, down));
      CHECK (cudaEventRecord (t[1], up));
      CHECK (cudaEventRecord (t[3], down));
      CHECK (cudaDeviceSynchronize ());
      CHECK (cudaEventElapsedTime (&a, t[0], t[1]));
      CHECK (cudaEventElapsedTime (&b, t[2], t[3]));
      v[i] = std::max (a, b) * 1000.0;
    }
    bound = std::min (bound, bench_median (v, 20));
  }
  printf ("%s %zux%zu, %zu bytes a frame: the link's bound %.1f us a frame\n",
      nv12 ? "NV12" : "I420", w, h, frame, bound);

  for (int depth = 1; depth <= kMaxDepth; depth++) {
    for (int round = 0; round < 2; round++) {
      double t0 = 0;
      CHECK (cudaDeviceSynchronize ());
      for (int i = 0; i < kRuns; i++) {
        const int s = i % depth;
        size_t off = 0;
        if (i == kWarm) {
          CHECK (cudaDeviceSynchronize ());
          t0 = bench_now_us ();
        }
        /* the slot's frame before (i - depth) has gone out */
        if (i >= depth)
          CHECK (cudaEventSynchronize (done[s]));
        for (size_t p = 0; p < planes.size (); p++) {
          CHECK (cudaMemcpyAsync (d_in[s] + off, h_in[i % kFrames] + off,
                  planes[p], cudaMemcpyHostToDevice, up));
          CHECK (cudaEventRecord (uploaded[s][p], up));
          CHECK (cudaStreamWaitEvent (comp, uploaded[s][p], 0));
          k_copy <<< 528, 256, 0, comp >>> ((const uint4 *) (d_in[s] + off),
              (uint4 *) (d_out[s] + off), planes[p] / 16);
          CHECK (cudaGetLastError ());
          CHECK (cudaEventRecord (moved[s][p], comp));
          CHECK (cudaStreamWaitEvent (down, moved[s][p], 0));
          CHECK (cudaMemcpyAsync (h_out[i % kFrames] + off, d_out[s] + off,
                  planes[p], cudaMemcpyDeviceToHost, down));
          off += planes[p];
        }
        CHECK (cudaEventRecord (done[s], down));
      }
      CHECK (cudaDeviceSynchronize ());
      const double us = (bench_now_us () - t0) / (kRuns - kWarm);
      printf ("  %d frame%s in flight: %.1f us a frame, %.0f frames/s, "
          "%.3f of the bound\n", depth, depth > 1 ? "s" : "", us, 1e6 / us,
          bound / us);
    }
  }
  return 0;
}
