// NVSHMEM's internal device definitions header, included by programs that use NVSHMEM's
// internal device API (DeepEP's configs.cuh): in the simulator everything they use is
// declared by nvshmem.h, nvshmemx.h and the IBGDA state header.
#pragma once
#include "nvshmemx.h"
