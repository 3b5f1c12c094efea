#include "sim/package/version.h"

#include "symsim_version_info.h"

namespace symsim {

std::string version() { return SYMSIM_VERSION_STRING; }

std::string commit() { return SYMSIM_COMMIT_STRING; }

std::string version_line() { return "symsim " + version() + " (commit " + commit() + ")"; }

nlohmann::json tool_json() { return {{"name", "symsim"}, {"version", version()}, {"commit", commit()}}; }

}  // namespace symsim
