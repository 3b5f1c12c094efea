#include "sim/service/confined_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace fs = std::filesystem;

namespace symsim::service {

namespace {

constexpr int kReadFlags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;  // a FIFO must not block open

bool is_resource_errno(int e) { return e == EMFILE || e == ENFILE || e == ENOMEM; }

// Walks `relative` one component at a time with O_NOFOLLOW, for kernels without openat2:
// stricter than RESOLVE_BENEATH (no symlink at all is followed).
int open_nofollow_walk(int root_fd, const fs::path& relative) {
  int dir = dup(root_fd);
  if (dir < 0) return -1;
  const auto last = std::prev(relative.end());
  for (auto it = relative.begin(); it != relative.end(); ++it) {
    const int flags = it == last ? kReadFlags | O_NOFOLLOW : O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
    const int next = openat(dir, it->c_str(), flags);
    const int err = errno;
    close(dir);
    if (next < 0) {
      errno = err;
      return -1;
    }
    dir = next;
  }
  return dir;
}

}  // namespace

ConfinedRoot::ConfinedRoot(const std::string& root) {
  std::error_code ec;
  m_path = fs::canonical(root, ec).string();
  if (ec) throw std::system_error(ec, root);
  m_fd = open(m_path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (m_fd < 0) throw std::system_error(errno, std::generic_category(), root);
}

ConfinedRoot::~ConfinedRoot() {
  if (m_fd >= 0) close(m_fd);
}

int ConfinedRoot::open_beneath(const std::string& relative) const {
  open_how how{};
  how.flags = kReadFlags;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  const long fd = syscall(SYS_openat2, m_fd, relative.c_str(), &how, sizeof how);
  if (fd >= 0 || errno != ENOSYS) return static_cast<int>(fd);
  const fs::path rel(relative);
  for (const auto& part : rel)
    if (part == "..") {
      errno = EXDEV;
      return -1;
    }
  return open_nofollow_walk(m_fd, rel);
}

std::string ConfinedRoot::read(const std::string& path, size_t max_bytes) const {
  auto refuse = [&](const std::string& why, bool resource = false) {
    return ConfinedFileError(fmt::format("scenario_path '{}': {}", path, why), resource);
  };
  if (path.empty() || path.find('\0') != std::string::npos) throw refuse("not a file name");
  // An absolute path is accepted when it names something inside the root.
  fs::path rel = fs::path(path).lexically_normal();
  if (rel.is_absolute()) {
    const fs::path inside = rel.lexically_relative(m_path);
    if (inside.empty() || *inside.begin() == "..")
      throw refuse(fmt::format("outside the server's --root ({})", m_path));
    rel = inside;
  }
  const int fd = open_beneath(rel.string());
  if (fd < 0) {
    const int e = errno;
    if (e == EXDEV || e == ELOOP)
      throw refuse(fmt::format("leads outside the server's --root ({}), by '..' or a symlink", m_path));
    if (is_resource_errno(e)) throw refuse(std::strerror(e), true);
    throw refuse(fmt::format("cannot open it under the server's --root ({}): {}", m_path, std::strerror(e)));
  }
  struct Closer {
    int fd;
    ~Closer() { close(fd); }
  } closer{fd};
  struct stat st {};
  if (fstat(fd, &st) != 0) throw refuse(std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw refuse("is a folder, not a file");
  if (!S_ISREG(st.st_mode)) throw refuse("is not a regular file (a FIFO, socket or device)");
  if (static_cast<uint64_t>(st.st_size) > max_bytes)
    throw refuse(fmt::format("is {} bytes, more than the limit of {} bytes (--max-frame-bytes)",
                             static_cast<uint64_t>(st.st_size), max_bytes));
  std::string text(static_cast<size_t>(st.st_size) + 1, '\0');  // one more byte tells a file that grew
  size_t got = 0;
  for (;;) {
    const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n < 0) throw refuse(fmt::format("cannot read it: {}", std::strerror(errno)));
    if (n == 0) break;
    got += static_cast<size_t>(n);
    if (got > max_bytes) throw refuse(fmt::format("grew past the limit of {} bytes while read", max_bytes));
    if (got == text.size()) text.resize(std::min(text.size() * 2, max_bytes + 1));
  }
  text.resize(got);
  return text;
}

}  // namespace symsim::service
