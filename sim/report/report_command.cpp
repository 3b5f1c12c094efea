#include "sim/report/report_command.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <stdexcept>
#include <vector>

#include "sim/io/output_file.h"
#include "sim/io/strict_json.h"
#include "sim/package/install_layout.h"
#include "sim/report/report_inputs.h"
#include "sim/scenario/input_error.h"

#ifndef SYMSIM_SOURCE_DIR
#define SYMSIM_SOURCE_DIR "."
#endif

extern char** environ;

namespace symsim::report {

namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxReportBytes = size_t{512} << 20;

// The plotting script: share/symsim/report/ of an installed (possibly moved) tree, else the
// source tree this binary was built from (a build folder).
std::string report_script() {
  const std::string dir = installed_data_dir() ? *installed_data_dir() + "/report"
                                               : std::string(SYMSIM_SOURCE_DIR) + "/sim/report";
  const std::string script = dir + "/symsim_report.py";
  std::error_code ec;
  if (!fs::is_regular_file(script, ec))
    throw std::runtime_error(fmt::format("the report script {} is missing from this installation", script));
  return script;
}

// $SYMSIM_PYTHON, else Debian's /usr/bin/python3 (where python3-matplotlib installs), else the
// first python3 on PATH.
std::string python() {
  if (const char* p = std::getenv("SYMSIM_PYTHON"); p && *p) return p;
  if (access("/usr/bin/python3", X_OK) == 0) return "/usr/bin/python3";
  return "python3";
}

// Runs argv, its output on ours; returns its exit code (128 + signal when killed).
int run(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (const int err = posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ); err != 0)
    throw std::runtime_error(fmt::format("cannot start {}: {} (set SYMSIM_PYTHON to a Python 3 with matplotlib)",
                                         args[0], std::strerror(err)));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error(fmt::format("waitpid: {}", std::strerror(errno)));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// A private temporary folder, removed when this goes out of scope.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "symsim-report-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error(fmt::format("mkdtemp: {}", std::strerror(errno)));
    m_path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(m_path, ec);
  }
  const std::string& path() const { return m_path; }

 private:
  std::string m_path;
};

}  // namespace

int report_main(const ReportOptions& options) {
  if (options.out.empty()) throw InputError("-o", "", "give the HTML file to write (-o report.html)");
  const ReportInputs in = check_report_inputs(options.input, options.trace);
  io::check_writable(options.out);
  const TempDir tmp;
  const std::string html = tmp.path() + "/report.html";
  std::vector<std::string> args{python(), report_script(), "--out", html};
  if (!in.sweep.empty()) args.insert(args.end(), {"--sweep", in.sweep});
  else args.insert(args.end(), {"--result", in.result});
  if (!in.trace.empty()) args.insert(args.end(), {"--trace", in.trace});
  if (const int code = run(args); code != 0) {
    // The script's own message (a missing matplotlib) is already on stderr.
    std::cerr << fmt::format("symsim report: the plotting script failed (exit {}); no report was written\n", code);
    return 3;
  }
  io::write_file(options.out, io::read_regular_file(html, kMaxReportBytes));
  std::cout << fmt::format("report: {}{}\n", options.out,
                           in.result.empty() || !in.trace.empty() ? "" : " (no trace: run with --trace for the timeline)");
  return 0;
}

}  // namespace symsim::report
