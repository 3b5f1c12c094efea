// The dump build's records (symsim/ascendc_dump.h, debug.h): per block, the slice of the GM
// workspace InitDump gave it and the records written into it (World::dump_slices), printed by
// the host.
#include <fmt/format.h>

#include "debug.h"
#include "kernel_operator.h"
#include "models/memory/address_map.h"
#include "symsim/code_site.h"
#include "kernels/shim/ascend/src/world.h"

namespace {

using symsim::shim::DumpSlice;

// The running block's slice (null outside a kernel or before InitDump): a slice lives for
// the launch that made it, its records until the host prints them.
DumpSlice* running_slice() {
  symsim::AivCore* c = symsim::AivCore::current();
  if (!c) return nullptr;
  return symsim::shim::world().blocks[c->pe()][c->core()]->dump;
}

void append(DumpSlice& s, const std::string& text) {
  if (s.used_bytes + text.size() > s.capacity_bytes) {
    s.dropped_bytes += text.size();
    return;
  }
  s.used_bytes += text.size();
  s.records += text;
}

}  // namespace

namespace AscendC::detail {

void init_dump(uint8_t* workspace, uint64_t bytes) {
  const symsim::shim::CallSite site = SYMSIM_CALLER();
  symsim::AivCore& c = symsim::shim::core();
  const symsim::shim::BlockContext& b = symsim::shim::block();
  c.scalar_ops(2);
  const uint64_t slice = bytes / (b.block_num ? b.block_num : 1);
  if (!workspace || slice == 0 || !symsim::shim::system().addresses().find(workspace, bytes))
    symsim::shim::trap(fmt::format("{}: AscendC::InitDump: the workspace of {} bytes at {:#x} is not device memory "
                                   "(or leaves no bytes for each of the {} blocks)",
                                   symsim::shim::where(site), bytes,
                                   reinterpret_cast<uintptr_t>(workspace), b.block_num));
  symsim::shim::World& w = symsim::shim::world();
  DumpSlice& s = w.dump_slices.emplace_back();
  s.pe = c.pe();
  s.core = c.core();
  s.workspace = workspace;
  s.capacity_bytes = slice;
  w.blocks[c.pe()][c.core()]->dump = &s;
}

void dump_record(const std::string& text, uint64_t elements) {
  const symsim::shim::CallSite site = SYMSIM_CALLER();
  symsim::AivCore& c = symsim::shim::core();
  DumpSlice* s = running_slice();
  if (!s)
    symsim::shim::trap(fmt::format("{}: AscendC::DumpTensor without AscendC::InitDump: the block has no dump "
                                   "workspace (build with ENABLE_ASCENDC_DUMP and call InitDump first)",
                                   symsim::shim::where(site)));
  c.scalar_ops(static_cast<double>(elements) + 1);
  append(*s, text);
}

}  // namespace AscendC::detail

namespace symsim::shim::dump {
bool capture(const char* text) {
  DumpSlice* s = running_slice();
  if (!s) return false;
  append(*s, text);
  return true;
}
}  // namespace symsim::shim::dump

namespace Adx {
void AdumpPrintWorkSpace(void* workspace, size_t, void*, const char* op_name) {
  const int pe = symsim::shim::host().pe;
  std::list<DumpSlice>& slices = symsim::shim::world().dump_slices;
  for (auto it = slices.begin(); it != slices.end();) {
    const DumpSlice& s = *it;
    if (s.pe != pe || s.workspace != workspace) {
      ++it;
      continue;
    }
    size_t from = 0;
    while (from < s.records.size()) {
      const size_t end = s.records.find('\n', from);
      const size_t stop = end == std::string::npos ? s.records.size() : end + 1;
      std::fprintf(stdout, "[pe %d aiv %d] %s", pe, s.core, s.records.substr(from, stop - from).c_str());
      from = stop;
    }
    if (s.dropped_bytes)
      std::fprintf(stdout, "[pe %d aiv %d] %s: %llu bytes of dump records dropped: the block's dump space of %llu "
                   "bytes is full\n", pe, s.core, op_name ? op_name : "dump",
                   static_cast<unsigned long long>(s.dropped_bytes), static_cast<unsigned long long>(s.capacity_bytes));
    for (auto& per_pe : symsim::shim::world().blocks)  // a block still running forgets its slice
      for (auto& b : per_pe)
        if (b && b->dump == &s) b->dump = nullptr;
    it = slices.erase(it);
  }
}
}  // namespace Adx
