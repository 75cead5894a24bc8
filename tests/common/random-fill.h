/* cudatranspose tests: random bytes, the one generator of every test and
 * bench (the GStreamer tests reach it through ct_check_random and
 * ct_check_fill_random, transpose-check.h): splitmix64, which any seed
 * starts well (0 included), so a printed seed reproduces a run. Header
 * only. */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The next 64 random bits of *@state. */
static inline uint64_t
ct_ref_random (uint64_t * state)
{
  uint64_t z = (*state += UINT64_C (0x9e3779b97f4a7c15));

  z = (z ^ (z >> 30)) * UINT64_C (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

/* @size random bytes at @buf. */
static inline void
ct_ref_fill_random (uint64_t * state, void *buf, size_t size)
{
  unsigned char *p = (unsigned char *) buf;

  for (size_t i = 0; i < size; i += 8) {
    const uint64_t r = ct_ref_random (state);

    memcpy (p + i, &r, size - i < 8 ? size - i : 8);
  }
}
