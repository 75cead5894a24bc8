/* cudatranspose: what the kernels' host side caches of the device and the
 * context (device-cache.cu): the dynamic shared memory each kernel may
 * take in the current context (allow_smem), and each device's attributes
 * the planners read (ct_device_now, plan.h). Internal to kernels/. */
#pragma once

#include "cudatranspose-kernels.h"

#include <stddef.h>

namespace ct {

/* Kernel slots allow_smem remembers a value for, per context: the wide
 * family's (transpose-wide.cu asserts that its kernels fit). */
constexpr int kSmemSlots = 19;

/* Lets @kernel (slot @slot, below kSmemSlots) take @smem bytes of dynamic
 * shared memory in the current context. */
CtResult allow_smem (const void *kernel, int slot, size_t smem);

}  // namespace ct
