// The dump build's records (symsim/ascendc_dump.h, debug.h): per block, the slice of the GM
// workspace InitDump gave it and the records written into it, printed by the host.
#include <fmt/format.h>

#include <map>
#include <tuple>

#include "debug.h"
#include "kernel_operator.h"
#include "models/memory/address_map.h"
#include "world.h"

namespace {

struct Slice {
  const uint8_t* workspace = nullptr;  // the whole workspace (AdumpPrintWorkSpace's key)
  uint64_t capacity_bytes = 0;
  uint64_t used_bytes = 0;
  uint64_t dropped_bytes = 0;
  std::string records;
};

// By (pe, core); a slice lives until the host prints its workspace or the block calls
// InitDump again.
std::map<std::pair<int, int>, Slice>& slices() {
  static std::map<std::pair<int, int>, Slice> s;
  return s;
}

Slice* running_slice() {
  symsim::AivCore* c = symsim::AivCore::current();
  if (!c) return nullptr;
  const auto it = slices().find({c->pe(), c->core()});
  return it == slices().end() || !it->second.workspace ? nullptr : &it->second;
}

void append(Slice& s, const std::string& text) {
  if (s.used_bytes + text.size() > s.capacity_bytes) {
    s.dropped_bytes += text.size();
    return;
  }
  s.used_bytes += text.size();
  s.records += text;
}

}  // namespace

namespace AscendC::detail {

void init_dump(uint8_t* workspace, uint64_t bytes, ::symsim::shim::CallSite site) {
  symsim::AivCore& c = symsim::shim::core();
  const symsim::shim::BlockContext& b = symsim::shim::block();
  c.scalar_ops(2);
  const uint64_t slice = bytes / (b.block_num ? b.block_num : 1);
  if (!workspace || slice == 0 || !symsim::shim::system().addresses().find(workspace, bytes))
    symsim::shim::trap(fmt::format("{}:{}: AscendC::InitDump: the workspace of {} bytes at {:#x} is not device memory "
                                   "(or leaves no bytes for each of the {} blocks)",
                                   site.file ? site.file : "?", site.line, bytes,
                                   reinterpret_cast<uintptr_t>(workspace), b.block_num));
  Slice& s = slices()[{c.pe(), c.core()}];
  s = Slice{};
  s.workspace = workspace;
  s.capacity_bytes = slice;
}

void dump_record(const std::string& text, uint64_t elements, ::symsim::shim::CallSite site) {
  symsim::AivCore& c = symsim::shim::core();
  Slice* s = running_slice();
  if (!s)
    symsim::shim::trap(fmt::format("{}:{}: AscendC::DumpTensor without AscendC::InitDump: the block has no dump "
                                   "workspace (build with ENABLE_ASCENDC_DUMP and call InitDump first)",
                                   site.file ? site.file : "?", site.line));
  c.scalar_ops(static_cast<double>(elements) + 1);
  append(*s, text);
}

}  // namespace AscendC::detail

namespace symsim::shim::dump {
bool capture(const char* text) {
  Slice* s = running_slice();
  if (!s) return false;
  append(*s, text);
  return true;
}
}  // namespace symsim::shim::dump

namespace Adx {
void AdumpPrintWorkSpace(void* workspace, size_t, void*, const char* op_name) {
  const int pe = symsim::shim::host().pe;
  for (auto it = slices().begin(); it != slices().end();) {
    const Slice& s = it->second;
    if (it->first.first != pe || s.workspace != workspace) {
      ++it;
      continue;
    }
    size_t from = 0;
    while (from < s.records.size()) {
      const size_t end = s.records.find('\n', from);
      const size_t stop = end == std::string::npos ? s.records.size() : end + 1;
      std::fprintf(stdout, "[pe %d aiv %d] %s", pe, it->first.second, s.records.substr(from, stop - from).c_str());
      from = stop;
    }
    if (s.dropped_bytes)
      std::fprintf(stdout, "[pe %d aiv %d] %s: %llu bytes of dump records dropped: the block's dump space of %llu "
                   "bytes is full\n", pe, it->first.second, op_name ? op_name : "dump",
                   static_cast<unsigned long long>(s.dropped_bytes), static_cast<unsigned long long>(s.capacity_bytes));
    it = slices().erase(it);
  }
}
}  // namespace Adx
