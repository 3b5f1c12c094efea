// The server's folder (--dir): created private (0700), locked so that one server at a time
// uses it, the generated TCP token, and the record of each finished run (runs/<id>/run.json),
// from which a restarted server recovers its runs.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "sim/service/run_record.h"

namespace symsim::service {

class StateDir {
 public:
  // Creates `dir` (0700 when new) and takes its lock; throws InputError naming --dir when the
  // folder cannot be made or another server holds it.
  explicit StateDir(const std::string& dir);
  ~StateDir();
  StateDir(const StateDir&) = delete;
  StateDir& operator=(const StateDir&) = delete;

  const std::string& path() const { return m_dir; }
  std::string runs() const { return m_dir + "/runs"; }
  // Writes a new random token to <dir>/token (0600) and returns it.
  std::string generate_token() const;
  std::string token_path() const { return m_dir + "/token"; }

 private:
  std::string m_dir;
  int m_lock_fd = -1;
};

// The runs a previous server left in `runs_dir`, by id: finished ones as recorded; ones it did
// not finish (it was killed) as "crashed", or as their result says when the worker finished.
std::vector<std::unique_ptr<Run>> recover_runs(const std::string& runs_dir);

// Records a finished run in its folder (run.json), for recover_runs.
void save_run_record(const Run& run);

// Writes `text` to `path` (0600, created or truncated); returns 0 or the errno of the failure.
int write_private_file(const std::string& path, const std::string& text);

}  // namespace symsim::service
