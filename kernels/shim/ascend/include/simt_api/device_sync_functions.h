// AscendC SIMT synchronisation functions (symsim subset): see symsim/simt.h.
#pragma once
#include "symsim/simt.h"
