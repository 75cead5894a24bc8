/* bench-kernels' peers: cuBLAS and NPP, found at run time (dlopen). */
#pragma once

#include "cudatranspose-kernels.h"

#include <cuda_runtime_api.h>

/* Opens whichever of cuBLAS and NPP the host has, for @s on @device;
 * returns a line saying which (for the report). */
const char *peers_open (cudaStream_t s, int device);

/* Whether cublasSgeam, and an nppiTranspose for @es-byte elements, are
 * there. */
int peers_have_cublas (void);
int peers_have_npp (unsigned int es);

/* Transposes plane @p (device pointers, 4-byte elements for cuBLAS) on
 * the stream given to peers_open; FALSE, said on stderr, on a failure. */
int peers_cublas_transpose (const CtPlane * p);
int peers_npp_transpose (const CtPlane * p);
