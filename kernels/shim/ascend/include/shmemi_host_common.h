// CANN SHMEM's internal host header, which example programs include: in symsim the public
// API is all there is.
#pragma once
#include "shmem.h"
#include "symsim/shmem_internal.h"
