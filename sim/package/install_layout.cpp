#include "sim/package/install_layout.h"

#include <filesystem>
#include <system_error>

namespace symsim {

namespace fs = std::filesystem;

std::optional<std::string> installed_data_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return std::nullopt;
  const fs::path share = exe.parent_path().parent_path() / "share" / "symsim";
  if (!fs::is_directory(share, ec)) return std::nullopt;
  return share.string();
}

}  // namespace symsim
