#include "sim/io/output_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <ostream>
#include <streambuf>
#include <system_error>
#include <vector>

#include <filesystem>

namespace symsim::io {

namespace fs = std::filesystem;

OutputError::OutputError(OutputErrorKind kind, std::string path, const std::string& what)
    : std::runtime_error(what), m_kind(kind), m_path(std::move(path)) {}

OutputErrorKind classify_errno(int err) {
  switch (err) {
    case ENOENT: case ENOTDIR: case EISDIR: case EACCES: case EPERM: case EROFS: case ENAMETOOLONG:
    case ELOOP: case EEXIST: case EXDEV: case EINVAL: case ETXTBSY: case ENXIO: case ENODEV:
      return OutputErrorKind::kBadPath;
    default:
      return OutputErrorKind::kIoError;  // ENOSPC, EDQUOT, EIO, EFBIG, ...
  }
}

namespace {

[[noreturn]] void fail(const std::string& path, int err, const std::string& doing) {
  std::string why = std::strerror(err);
  if (err == ENOENT) {
    // A missing folder, or a file system that makes nothing here (/proc, /sys).
    std::error_code ec;
    const fs::path parent = fs::path(path).parent_path();
    why = parent.empty() || fs::is_directory(parent, ec) ? "this file system does not create files here"
                                                         : "a folder on the path does not exist";
  } else if (err == ENOTDIR) {
    why = "a part of the path is not a folder";
  }
  throw OutputError(classify_errno(err), path, "cannot " + doing + " " + path + ": " + why);
}

// A streambuf over a file descriptor that remembers the first failed write's errno.
class FdBuf : public std::streambuf {
 public:
  explicit FdBuf(int fd) : m_fd(fd), m_buf(1 << 16) { setp(m_buf.data(), m_buf.data() + m_buf.size()); }
  int error() const { return m_errno; }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    if (m_errno) return false;
    const char* p = pbase();
    while (p < pptr()) {
      const ssize_t n = ::write(m_fd, p, static_cast<size_t>(pptr() - p));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        m_errno = n < 0 ? errno : EIO;
        return false;
      }
      p += n;
    }
    setp(m_buf.data(), m_buf.data() + m_buf.size());
    return true;
  }
  int m_fd;
  int m_errno = 0;
  std::vector<char> m_buf;
};

// Holds the signals that end a process (Ctrl-C, kill, a wall-time alarm) while a temporary
// file exists, so it is always renamed or removed first; they are delivered on release.
class DeferEndingSignals {
 public:
  DeferEndingSignals() {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM}) sigaddset(&set, sig);
    pthread_sigmask(SIG_BLOCK, &set, &m_old);
  }
  ~DeferEndingSignals() { pthread_sigmask(SIG_SETMASK, &m_old, nullptr); }
  DeferEndingSignals(const DeferEndingSignals&) = delete;
  DeferEndingSignals& operator=(const DeferEndingSignals&) = delete;

 private:
  sigset_t m_old;
};

enum class TargetKind { kRegular, kInPlace };

// Follows symlinks (a link is written through, not replaced) and says how to write the target.
TargetKind resolve_target(std::string& path) {
  for (int hops = 0;; ++hops) {
    if (path.empty()) throw OutputError(OutputErrorKind::kBadPath, path, "cannot write an empty path");
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
      if (errno == ENOENT) return TargetKind::kRegular;  // a new file (its folder is checked on create)
      fail(path, errno, "write");
    }
    if (S_ISLNK(st.st_mode)) {
      if (hops == 40) fail(path, ELOOP, "write");
      std::vector<char> buf(4096);
      const ssize_t n = ::readlink(path.c_str(), buf.data(), buf.size() - 1);
      if (n < 0) fail(path, errno, "write");
      const fs::path target(std::string(buf.data(), static_cast<size_t>(n)));
      path = (target.is_absolute() ? target : fs::path(path).parent_path() / target).string();
      continue;
    }
    if (S_ISREG(st.st_mode)) return TargetKind::kRegular;
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) return TargetKind::kInPlace;
    if (S_ISDIR(st.st_mode)) throw OutputError(OutputErrorKind::kBadPath, path, "cannot write " + path + ": it is a folder");
    throw OutputError(OutputErrorKind::kBadPath, path,
                      "cannot write " + path + ": not a regular file, character device or FIFO");
  }
}

std::string temp_name_for(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  const fs::path p(path);
  std::string base = p.filename().string();
  if (base.size() > 200) base.resize(200);  // stay under NAME_MAX with the suffix
  const std::string name = "." + base + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  return (p.parent_path() / name).string();
}

void close_checked(int fd, const std::string& shown, const std::string& temp) {
  if (::close(fd) != 0) {
    const int err = errno;
    if (!temp.empty()) ::unlink(temp.c_str());
    fail(shown, err, "write");
  }
}

// Writes `fill`'s output to the open `fd` and closes it, checking every step; on a failure the
// partial `temp` file (if any) is removed and the error names `shown`.
void fill_and_close(int fd, const std::string& shown, const std::string& temp,
                    const std::function<void(std::ostream&)>& fill, bool sync) {
  const auto discard = [&] {
    ::close(fd);
    if (!temp.empty()) ::unlink(temp.c_str());
  };
  FdBuf buf(fd);
  std::ostream os(&buf);
  try {
    fill(os);
  } catch (...) {
    discard();
    throw;
  }
  os.flush();
  int err = buf.error();
  if (!err && sync && ::fsync(fd) != 0) err = errno;
  if (err) {
    discard();
    fail(shown, err, "write");
  }
  close_checked(fd, shown, temp);
}

void write_in_place(const std::string& target, const std::string& shown,
                    const std::function<void(std::ostream&)>& fill) {
  const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) fail(shown, errno, "write");
  fill_and_close(fd, shown, "", fill, false);
}

void write_atomic(const std::string& target, const std::string& shown, const std::function<void(std::ostream&)>& fill,
                  const WriteOptions& options) {
  if (fs::path(target).filename().empty())
    throw OutputError(OutputErrorKind::kBadPath, shown, "cannot write " + shown + ": it names a folder");
  const std::string temp = temp_name_for(target);
  const DeferEndingSignals defer;
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0666);
  if (fd < 0) fail(shown, errno, "create");
  fill_and_close(fd, shown, temp, fill, options.fsync);
  if (::rename(temp.c_str(), target.c_str()) != 0) {
    const int rename_err = errno;
    ::unlink(temp.c_str());
    fail(shown, rename_err, "write");
  }
  if (options.fsync) {
    std::string dir = fs::path(target).parent_path().string();
    const int dfd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
      const bool ok = ::fsync(dfd) == 0;
      const int ferr = errno;
      ::close(dfd);
      if (!ok && ferr != EINVAL) fail(shown, ferr, "write");
    }
  }
}

}  // namespace

void write_file(const std::string& path, std::string_view contents, const WriteOptions& options) {
  write_file(path, [&](std::ostream& os) { os.write(contents.data(), static_cast<std::streamsize>(contents.size())); },
             options);
}

void write_file(const std::string& path, const std::function<void(std::ostream&)>& fill, const WriteOptions& options) {
  std::string target = path;
  if (resolve_target(target) == TargetKind::kInPlace) write_in_place(target, path, fill);
  else write_atomic(target, path, fill, options);
}

void create_output_dir(const std::string& dir) {
  if (dir.empty()) throw OutputError(OutputErrorKind::kBadPath, dir, "cannot create an output folder with an empty name");
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    throw OutputError(OutputErrorKind::kBadPath, dir, "cannot create the folder " + dir + ": it exists and is not a folder");
  fs::create_directories(dir, ec);
  if (ec) fail(dir, ec.value(), "create the folder");
  if (!fs::is_directory(dir, ec))
    throw OutputError(OutputErrorKind::kBadPath, dir, "cannot create the folder " + dir + ": it exists and is not a folder");
}

void check_writable(const std::string& path) {
  std::string target = path;
  if (resolve_target(target) == TargetKind::kInPlace) {
    if (::access(target.c_str(), W_OK) != 0) fail(path, errno, "write");
    return;
  }
  if (fs::path(target).filename().empty())
    throw OutputError(OutputErrorKind::kBadPath, path, "cannot write " + path + ": it names a folder");
  const std::string probe = temp_name_for(target);
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0600);
  if (fd < 0) fail(path, errno, "create");
  ::close(fd);
  ::unlink(probe.c_str());
}

}  // namespace symsim::io
