// Reading files a client names (`scenario_path`) on the server's behalf, confined to a root
// folder (--root): the path is resolved beneath the root by the kernel (openat2 with
// RESOLVE_BENEATH), so neither ".." nor a symlink can lead out of it; only regular files are
// read, their size checked against a bound first, and a FIFO or device is refused without
// blocking. Errors name the path as given and the reason, never the file's contents.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>

namespace symsim::service {

struct ConfinedFileError : std::runtime_error {
  // `resource`: the server ran out of file descriptors or memory (not the client's fault).
  ConfinedFileError(const std::string& what, bool resource)
      : std::runtime_error(what), resource(resource) {}
  bool resource;
};

class ConfinedRoot {
 public:
  // Opens the root folder; throws std::system_error when it cannot be opened.
  explicit ConfinedRoot(const std::string& root);
  ~ConfinedRoot();
  ConfinedRoot(const ConfinedRoot&) = delete;
  ConfinedRoot& operator=(const ConfinedRoot&) = delete;

  // The contents of `path` (relative to the root, or absolute and inside it), at most
  // `max_bytes`; throws ConfinedFileError.
  std::string read(const std::string& path, size_t max_bytes) const;
  const std::string& path() const { return m_path; }

 private:
  int open_beneath(const std::string& relative) const;  // an fd, or -1 with errno set
  std::string m_path;  // canonical
  int m_fd = -1;
};

}  // namespace symsim::service
