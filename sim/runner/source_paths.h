// Call-site paths in one report are all of one kind: relative to the source root when the
// file is inside it ("kernels/hazards/x.cpp:42"), absolute otherwise (a kernel library built
// elsewhere). A compiler cache or an out-of-tree build can leave __FILE__ relative to a build
// folder ("../../kernels/x.cpp") or absolute under the source root; both are rewritten here.
#pragma once
#include <string>

namespace symsim {

// `path` is a file name, optionally followed by ":line".
std::string source_relative(const std::string& path, const std::string& source_root);
// The same for every path inside a free text (a hazard's detail, a trap's reason).
std::string source_relative_in_text(const std::string& text, const std::string& source_root);

// The root this binary was built from (SYMSIM_SOURCE_DIR).
const std::string& build_source_root();

}  // namespace symsim
