// CANN's host-side dump printer (debug.h), for programs built with ENABLE_ASCENDC_DUMP: prints,
// in order, the records the kernels wrote into the workspace (symsim/ascendc_dump.h).
#pragma once
#include <cstddef>

namespace Adx {
// Prints "[pe N aiv M] record" for every record of every block that used `workspace`, then
// forgets them; records a full slice dropped are counted in one line per block.
void AdumpPrintWorkSpace(void* workspace, size_t bytes, void* stream, const char* op_name);
}  // namespace Adx
