#include "sim/service/state_dir.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "sim/io/output_file.h"
#include "sim/io/strict_json.h"
#include "sim/scenario/input_error.h"
#include "sim/service/protocol.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace symsim::service {

namespace {

constexpr size_t kMaxRecordBytes = 4u << 20;

std::string read_pid(int fd) {
  char buf[32] = {};
  const ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  std::string pid(buf, n > 0 ? static_cast<size_t>(n) : 0);
  pid.erase(std::remove_if(pid.begin(), pid.end(), [](char c) { return c < '0' || c > '9'; }), pid.end());
  return pid.empty() ? "?" : pid;
}

uint64_t run_number(const std::string& id) {
  if (id.size() < 2 || id.size() > 19 || id[0] != 'r' || id.find_first_not_of("0123456789", 1) != std::string::npos)
    return 0;
  return std::stoull(id.substr(1));
}

}  // namespace

StateDir::StateDir(const std::string& dir) : m_dir(dir) {
  std::error_code ec;
  fs::create_directories(fs::path(dir) / "runs", ec);
  if (ec || !fs::is_directory(fs::path(dir) / "runs"))
    throw InputError("--dir", "", fmt::format("cannot use '{}' as the server's folder: {}", dir,
                                              ec ? ec.message() : "not a folder"));
  const std::string lock = dir + "/serve.lock";
  m_lock_fd = open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (m_lock_fd < 0)
    throw InputError("--dir", "", fmt::format("cannot create the lock file {}: {}", lock, std::strerror(errno)));
  if (flock(m_lock_fd, LOCK_EX | LOCK_NB) != 0) {
    const std::string pid = read_pid(m_lock_fd);
    close(m_lock_fd);
    m_lock_fd = -1;
    throw InputError("--dir", "", fmt::format("another symsim serve (pid {}) is using '{}'; give each server its own --dir",
                                              pid, dir));
  }
  const std::string pid = std::to_string(getpid()) + "\n";
  if (ftruncate(m_lock_fd, 0) != 0 || pwrite(m_lock_fd, pid.data(), pid.size(), 0) < 0) {
    // The lock holds without the pid; the pid only helps the message above.
  }
  // A run left half-validated by an older server is not a run.
  fs::remove(fs::path(dir) / "incoming.json", ec);
}

StateDir::~StateDir() {
  if (m_lock_fd >= 0) close(m_lock_fd);  // releases the lock
}

std::string StateDir::generate_token() const {
  unsigned char bytes[24];
  size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t n = getrandom(bytes + got, sizeof bytes - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::system_error(errno, std::generic_category(), "getrandom");
    got += static_cast<size_t>(n);
  }
  std::string token;
  for (unsigned char b : bytes) token += fmt::format("{:02x}", b);
  if (const int e = write_private_file(token_path(), token + "\n"))
    throw InputError("--dir", "", fmt::format("cannot write the token file {}: {}", token_path(), std::strerror(e)));
  return token;
}

int write_private_file(const std::string& path, const std::string& text) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return errno;
  int err = fchmod(fd, 0600) == 0 ? 0 : errno;
  size_t done = 0;
  while (!err && done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) err = errno;
    else done += static_cast<size_t>(n);
  }
  if (close(fd) != 0 && !err) err = errno;
  return err;
}

void save_run_record(const Run& run) {
  json record = {{"run", run.id},           {"name", run.name},         {"outcome", run.outcome},
                 {"exit_code", run.exit_code}, {"detail", run.detail},  {"trace", run.trace},
                 {"sim_time_ns", run.sim_time_ns}, {"hazard_total", run.hazard_total},
                 {"hazards", run.hazards}};
  io::write_file((run.dir / "run.json").string(),
                 record.dump(1, ' ', false, json::error_handler_t::replace) + "\n");
}

std::vector<std::unique_ptr<Run>> recover_runs(const std::string& runs_dir) {
  std::vector<std::unique_ptr<Run>> runs;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(runs_dir, ec)) {
    const std::string id = entry.path().filename().string();
    if (run_number(id) == 0 || !entry.is_directory()) continue;
    auto run = std::make_unique<Run>();
    run->id = id;
    run->dir = entry.path();
    run->state = RunState::kDone;
    try {
      const json r = io::read_strict_json_file((run->dir / "run.json").string(), kMaxRecordBytes);
      run->name = r.at("name").get<std::string>();
      run->outcome = r.at("outcome").get<std::string>();
      run->exit_code = r.at("exit_code").get<int>();
      run->detail = r.value("detail", std::string());
      run->trace = r.value("trace", false);
      run->sim_time_ns = r.value("sim_time_ns", -1.0);
      run->hazard_total = r.value("hazard_total", uint64_t{0});
      for (const json& h : r.value("hazards", json::array())) run->hazards.push_back(h);
    } catch (const std::exception&) {
      // No record: the server stopped before the run finished (or the record is damaged).
      run->outcome = "crashed";
      run->detail = "the server stopped before this run finished; recovered from " + run->dir.string();
      try {
        const json result = io::read_strict_json_file((run->dir / "result.json").string(), 256u << 20);
        run->name = result.value("scenario", std::string());
        const std::string status = result.value("status", std::string());
        if (status == "pass" || status == "fail") {
          run->outcome = status;
          run->detail.clear();
        }
        run->sim_time_ns = result.value("sim_time_ns", -1.0);
      } catch (const std::exception&) {
      }
      if (run->name.empty()) try {
          run->name = io::read_strict_json_file((run->dir / "scenario.json").string()).value("name", std::string());
        } catch (const std::exception&) {
        }
      run->exit_code = outcome_exit_code(run->outcome);
      run->trace = fs::exists(run->dir / "trace.json");
    }
    runs.push_back(std::move(run));
  }
  std::sort(runs.begin(), runs.end(),
            [](const auto& a, const auto& b) { return run_number(a->id) < run_number(b->id); });
  return runs;
}

}  // namespace symsim::service
