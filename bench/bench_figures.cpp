#include "bench/bench_figures.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "bench/process_stats.h"

namespace symsim::bench {

namespace {
// Values travel space-free: a space goes as '~'.
std::string pack(std::string s) {
  for (char& c : s)
    if (c == ' ') c = '~';
  return s.empty() ? "-" : s;
}
std::string unpack(std::string s) {
  for (char& c : s)
    if (c == '~') c = ' ';
  return s == "-" ? "" : s;
}
}  // namespace

std::string Figures::line() const {
  return fmt::format("name={} status={} unit={} work={:.0f} wall_s={:.4f} cpu_s={:.4f} rss_mib={:.1f} sim_us={:.3f}",
                     pack(name), pack(status), pack(unit), work, wall_s, cpu_s, rss_mib, sim_us);
}

Figures Figures::parse(const std::string& line) {
  Figures f;
  std::istringstream in(line);
  std::string kv;
  while (in >> kv) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos) continue;
    const std::string k = kv.substr(0, eq), v = kv.substr(eq + 1);
    if (k == "name") f.name = unpack(v);
    else if (k == "status") f.status = unpack(v);
    else if (k == "unit") f.unit = unpack(v);
    else if (k == "work") f.work = std::stod(v);
    else if (k == "wall_s") f.wall_s = std::stod(v);
    else if (k == "cpu_s") f.cpu_s = std::stod(v);
    else if (k == "rss_mib") f.rss_mib = std::stod(v);
    else if (k == "sim_us") f.sim_us = std::stod(v);
  }
  return f;
}

namespace {
Figures failed(const std::string& why) {
  Figures f;
  f.status = why;
  return f;
}
}  // namespace

Figures in_child(const std::function<Figures()>& run, bool quiet) {
  std::cout.flush();
  int fds[2];
  if (pipe(fds) != 0) return failed("pipe failed");
  const pid_t pid = fork();
  if (pid < 0) return failed("fork failed");
  if (pid == 0) {
    close(fds[0]);
    if (quiet) {
      const int null = open("/dev/null", O_WRONLY);
      if (null >= 0) dup2(null, STDOUT_FILENO);
    }
    const auto t0 = std::chrono::steady_clock::now();
    Figures f;
    try {
      f = run();
    } catch (const std::exception& e) {
      std::cerr << "bench: " << e.what() << "\n";
      f.status = "error";
    }
    f.wall_s = seconds_since(t0);
    f.cpu_s = cpu_seconds();
    f.rss_mib = peak_rss_mib();
    std::cout.flush();
    const std::string l = f.line() + "\n";
    if (write(fds[1], l.data(), l.size()) != static_cast<ssize_t>(l.size())) _exit(3);
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  char buf[512];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int wstatus = 0;
  waitpid(pid, &wstatus, 0);
  if (text.empty())
    return failed(WIFSIGNALED(wstatus) ? fmt::format("killed by signal {}", WTERMSIG(wstatus)) : "no figures");
  return Figures::parse(text);
}

}  // namespace symsim::bench
