// symsim-hw: runs symsim scenario files on real NVIDIA GPUs with the same kernel sources the
// simulator runs (docs/hw.md).
//   symsim-hw run SCENARIO.json [--out DIR] [--set PATH=VALUE]... [--repeat N] [--timeout-s S]
//                               [--heap-mib N] [--gpus N]
//   symsim-hw list
// SYMSIM_HW_HOLD_LAUNCH=wait|spin: hold each launch's stream until the launch call has returned
// (hw/runtime/hw_world.h, LaunchHold), so the events leave the host's call out; unset or "none": as issued.
// Exit codes as symsim's: 0 pass, 1 an expectation failed, 2 invalid input, 3 internal error.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "hw/runner/hw_run.h"
#include "hw/runner/hw_scenario.h"
#include "hw/runtime/hw_world.h"
#include "kernels/registry/kernel_registry.h"

namespace {

int usage() {
  std::cerr << "usage: symsim-hw run SCENARIO.json [--out DIR] [--set PATH=VALUE]... [--repeat N] [--timeout-s S] "
               "[--heap-mib N] [--gpus N]\n       symsim-hw list\n";
  return 2;
}

int list() {
  for (const auto& [name, k] : symsim::KernelRegistry::instance().all())
    std::cout << name << " (" << k.platform_family << "): " << k.doc << "\n";
  return 0;
}

int run(const std::vector<std::string>& a) {
  std::string scenario, out_dir;
  std::vector<std::string> sets;
  symsim::hw::RunOptions options;
  for (size_t i = 0; i < a.size(); ++i) {
    const bool has_value = i + 1 < a.size();
    if (a[i] == "--out" && has_value) out_dir = a[++i];
    else if (a[i] == "--set" && has_value) sets.push_back(a[++i]);
    else if (a[i] == "--repeat" && has_value) options.repeats = std::max(1, std::atoi(a[++i].c_str()));
    else if (a[i] == "--timeout-s" && has_value) options.timeout_s = std::atof(a[++i].c_str());
    else if (a[i] == "--heap-mib" && has_value) options.heap_mib = static_cast<size_t>(std::atol(a[++i].c_str()));
    else if (a[i] == "--gpus" && has_value) options.gpus = std::atoi(a[++i].c_str());
    else if (scenario.empty() && a[i].rfind("--", 0) != 0) scenario = a[i];
    else return usage();
  }
  if (scenario.empty()) return usage();
  if (const char* hold = std::getenv("SYMSIM_HW_HOLD_LAUNCH"); hold && *hold) {
    const std::string h = hold;
    if (h != "none" && h != "wait" && h != "spin") {
      std::cerr << "symsim-hw: SYMSIM_HW_HOLD_LAUNCH=" << h << ": expected none, wait or spin\n";
      return 2;
    }
    symsim::hw::set_launch_hold(h == "wait" ? symsim::hw::LaunchHold::kWait
                                : h == "spin" ? symsim::hw::LaunchHold::kSpin
                                              : symsim::hw::LaunchHold::kNone);
  }
  const symsim::hw::HwScenario s = symsim::hw::load_hw_scenario(scenario, sets);
  if (out_dir.empty()) out_dir = "symsim-out/" + s.name;
  const symsim::hw::RunOutput r = symsim::hw::run_hw_scenario(s, options);
  std::filesystem::create_directories(out_dir);
  std::ofstream(out_dir + "/result.json") << r.result.dump(2) << "\n";
  const auto& m = r.result["measured"];
  std::printf("%s: %s  measured %.3f us after the last PE's launch, %.3f us from the first (median of %zu)  on %s x%d\n",
              s.name.c_str(), r.result["status"].get<std::string>().c_str(), r.result["sim_time_ns"].get<double>() / 1000.0,
              m["median_kernel_span_ns"].get<double>() / 1000.0,
              m["repeats"].get<size_t>() > 1 ? m["repeats"].get<size_t>() - 1 : 1, m["device"]["name"].get<std::string>().c_str(),
              m["gpus_used"].get<int>());
  size_t held = 0;
  for (const auto& e : r.result["expectations"]) held += e["ok"].get<bool>();
  std::printf("  expectations: %zu of %zu hold\n", held, r.result["expectations"].size());
  for (const auto& e : r.result["expectations"])
    if (!e["ok"].get<bool>()) std::printf("  FAILED: %s: %s\n", e["what"].get<std::string>().c_str(), e["detail"].get<std::string>().c_str());
  std::printf("  result: %s/result.json\n", out_dir.c_str());
  std::fflush(stdout);
  if (r.timed_out) std::_Exit(1);  // kernels still spin on the GPU: leave without tearing anything down
  return r.passed ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.empty()) return usage();
    if (args[0] == "list") return list();
    if (args[0] == "run") return run({args.begin() + 1, args.end()});
    return usage();
  } catch (const symsim::hw::InputError& e) {
    std::cerr << "symsim-hw: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "symsim-hw: internal error: " << e.what() << "\n";
    return 3;
  }
}
