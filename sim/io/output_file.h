// Checked, atomic output files (docs/robustness.md): every write, flush, close and rename is
// checked; a regular file is written under a temporary name in its own folder and renamed into
// place, so a failed write never leaves a partial file. Devices and FIFOs (/dev/stdout,
// /dev/null, /dev/full) are written in place, still checked. While a temporary file exists,
// SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGALRM are held in the writing thread and delivered
// once it is renamed or removed: an interrupted write leaves no temporary file either.
//
// Failures throw OutputError, which carries the path and whether it is a bad path (the user
// named something that cannot be written: a missing folder, a file where a folder should be,
// no permission, a read-only file system; exit 2) or an I/O error (ENOSPC, EIO, EFBIG; exit 3).
#pragma once
#include <functional>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <string_view>

namespace symsim::io {

enum class OutputErrorKind { kBadPath, kIoError };

class OutputError : public std::runtime_error {
 public:
  OutputError(OutputErrorKind kind, std::string path, const std::string& what);
  OutputErrorKind kind() const { return m_kind; }
  const std::string& path() const { return m_path; }
  // 2 for a bad path, 3 for an I/O error (the CLI's exit codes).
  int exit_code() const { return m_kind == OutputErrorKind::kBadPath ? 2 : 3; }

 private:
  OutputErrorKind m_kind;
  std::string m_path;
};

// The kind an errno from open/write/rename/mkdir means.
OutputErrorKind classify_errno(int err);

struct WriteOptions {
  bool fsync = false;  // fsync the file (and its folder) before reporting success
};

// Writes `contents` to `path`: all of it, or nothing (the old file, if any, is kept).
void write_file(const std::string& path, std::string_view contents, const WriteOptions& options = {});
// The same, streaming: `fill` writes into the stream (large traces need not be held as a string).
// An exception from `fill` removes the temporary file and propagates.
void write_file(const std::string& path, const std::function<void(std::ostream&)>& fill,
                const WriteOptions& options = {});

// Creates `dir` and its parents if needed; throws OutputError (a file in the way, no
// permission, read-only file system, /proc) naming `dir`.
void create_output_dir(const std::string& dir);

// Before a long run: checks that `path` could be written now (its folder exists and takes a
// new file, or it is a writable device). Creates and removes a probe file; writes nothing else.
void check_writable(const std::string& path);

}  // namespace symsim::io
