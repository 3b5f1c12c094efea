// AscendC SIMT API (symsim subset): see symsim/simt.h and docs/ascendc-subset.md.
#pragma once
#include "kernel_operator.h"
#include "symsim/simt.h"
