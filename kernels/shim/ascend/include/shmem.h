// CANN SHMEM as symsim provides it: host control plane and UDMA device API.
#pragma once
#include "acl/acl.h"
#include "kernel_operator.h"
#include "shmem_device_amo.h"
#include "shmem_device_mte.h"
#include "shmem_device_rma.h"
#include "shmem_device_rma_mte.h"
#include "shmem_device_sync.h"
#include "shmem_device_udma.h"
#include "shmem_device_unmodelled.h"
#include "shmem_host.h"
#include "shmem_types.h"
