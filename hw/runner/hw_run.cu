#include "hw/runner/hw_run.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>

#include "hw/runtime/hw_world.h"
#include "hw/runner/pe_threads.h"
#include "kernels/registry/kernel_registry.h"

namespace symsim::hw {

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

struct Repetition {
  std::vector<std::string> host_errors;
  std::vector<KernelCheck> checks;
  double span_ns = 0;               // first launch's start to the last end, worst GPU
  double all_running_ns = 0;        // last launch's start to the last end: every PE's grid issued
  std::vector<double> pe_kernel_ns; // per PE, its launches added up
  json launches = json::array();
  bool launch_failed = false;
};

double event_ms(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0;
  return cudaEventElapsedTime(&ms, a, b) == cudaSuccess ? ms : 0.0;
}

json device_json() {
  int gpus = 0, driver = 0, runtime = 0;
  cudaGetDeviceCount(&gpus);
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  cudaDeviceProp p{};
  cudaGetDeviceProperties(&p, 0);
  return {{"name", p.name}, {"gpus_present", gpus}, {"sms", p.multiProcessorCount},
          {"cuda_driver_api", std::to_string(driver / 1000) + "." + std::to_string(driver % 1000 / 10)},
          {"cuda_runtime", std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10)}};
}

// Runs every PE's host driver once; false when the timeout passed first.
bool run_once(PeThreads& threads, const KernelInfo& kernel, const KernelArgs& args, int pes, double timeout_s, Repetition& rep) {
  world_reset();
  const size_t checks_before = kernel_checks().size();
  std::vector<cudaEvent_t> reference(static_cast<size_t>(world_gpus()));
  for (int g = 0; g < world_gpus(); ++g) {
    cudaSetDevice(g);
    cudaDeviceSynchronize();
    cudaEventCreate(&reference[g]);
    cudaEventRecord(reference[g], cudaStreamPerThread);
    cudaEventSynchronize(reference[g]);
  }
  std::vector<std::string> errors;
  const auto job = [&kernel, &args](int pe) {
    try {
      kernel.host_main(pe, args);
    } catch (...) {
      abort_host_barriers();  // the other PEs would wait for this one forever
      throw;
    }
  };
  if (!threads.run(job, timeout_s, errors)) return false;
  for (int pe = 0; pe < pes; ++pe)
    if (!errors[pe].empty()) rep.host_errors.push_back("pe " + std::to_string(pe) + ": host program failed: " + errors[pe]);
  const std::vector<KernelCheck>& all = kernel_checks();
  rep.checks.assign(all.begin() + static_cast<std::ptrdiff_t>(checks_before), all.end());
  std::sort(rep.checks.begin(), rep.checks.end(), [](const KernelCheck& a, const KernelCheck& b) { return a.what < b.what; });

  rep.pe_kernel_ns.assign(static_cast<size_t>(pes), 0.0);
  const size_t gpus = reference.size();
  std::vector<double> first_start_ms(gpus, 1e300), last_start_ms(gpus, 0), last_stop_ms(gpus, 0);
  for (const LaunchRecord& l : launches()) {
    cudaSetDevice(l.gpu);
    cudaEventSynchronize(l.stop);
    const double start = event_ms(reference[l.gpu], l.start), stop = event_ms(reference[l.gpu], l.stop);
    first_start_ms[l.gpu] = std::min(first_start_ms[l.gpu], start);
    last_start_ms[l.gpu] = std::max(last_start_ms[l.gpu], start);
    last_stop_ms[l.gpu] = std::max(last_stop_ms[l.gpu], stop);
    rep.pe_kernel_ns[l.pe] += (stop - start) * 1e6;
    rep.launch_failed = rep.launch_failed || l.launched != cudaSuccess;
    rep.launches.push_back({{"pe", l.pe}, {"gpu", l.gpu}, {"kernel", l.kernel}, {"start_ns", start * 1e6}, {"ns", (stop - start) * 1e6},
                            {"launch_status", cudaGetErrorString(l.launched)},
                            {"host_realtime_ns", {l.host_ns[0], l.host_ns[1], l.host_ns[2], l.host_ns[3]}},
                            {"hold", launch_hold_name(l.hold)}});
  }
  for (size_t g = 0; g < gpus; ++g) {
    if (last_stop_ms[g] > 0) {
      rep.span_ns = std::max(rep.span_ns, (last_stop_ms[g] - first_start_ms[g]) * 1e6);
      rep.all_running_ns = std::max(rep.all_running_ns, (last_stop_ms[g] - last_start_ms[g]) * 1e6);
    }
    cudaSetDevice(static_cast<int>(g));
    cudaEventDestroy(reference[g]);
  }
  return true;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace

RunOutput run_hw_scenario(const HwScenario& s, const RunOptions& o) {
  const auto wall_start = Clock::now();
  int present = 0;
  if (cudaGetDeviceCount(&present) != cudaSuccess || present == 0) throw std::runtime_error("no CUDA GPU found");
  const int gpus = std::min(s.pes, o.gpus > 0 ? std::min(o.gpus, present) : present);
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  const int pes_per_gpu = (s.pes + gpus - 1) / gpus;
  if (pes_per_gpu * s.blocks > prop.multiProcessorCount)
    throw InputError(s.file + ": /kernel/blocks: " + std::to_string(pes_per_gpu) + " PEs x " + std::to_string(s.blocks) +
                     " CTAs on one GPU exceed its " + std::to_string(prop.multiProcessorCount) +
                     " SMs: the PEs' grids must all be resident at once (they wait on each other)");
  world_init(s.pes, o.heap_mib << 20, gpus);
  const KernelInfo& kernel = *KernelRegistry::instance().find(s.kernel);
  const KernelArgs args(s.args, s.blocks);

  RunOutput out;
  std::vector<Repetition> reps;
  auto threads = std::make_unique<PeThreads>(s.pes, enter_pe);
  for (int r = 0; r < o.repeats; ++r) {
    Repetition rep;
    if (!run_once(*threads, kernel, args, s.pes, o.timeout_s, rep)) {
      (void)threads.release();  // its threads wait on kernels that may never end: leave them
      out.timed_out = true;
      rep.host_errors.push_back("repetition " + std::to_string(r) + " still running after " + std::to_string(o.timeout_s) +
                                " s (a hang: PEs waiting on each other, or grids not co-resident)");
      reps.push_back(rep);
      break;
    }
    reps.push_back(rep);
  }

  json expectations = json::array(), checks = json::array();
  bool ok = true;
  auto expect = [&](bool good, const std::string& what, const std::string& detail) {
    ok = ok && good;
    expectations.push_back({{"what", what}, {"ok", good}, {"detail", detail}});
  };
  const Repetition& last = reps.back();
  for (const KernelCheck& c : last.checks) {
    checks.push_back({{"what", c.what}, {"ok", c.ok}, {"detail", c.detail}});
    expect(c.ok, c.what, c.detail);
  }
  size_t failed_elsewhere = 0;
  for (const Repetition& rep : reps)
    for (const KernelCheck& c : rep.checks) failed_elsewhere += !c.ok;
  expect(failed_elsewhere == 0, "every repetition's host checks held",
         std::to_string(failed_elsewhere) + " failed checks over " + std::to_string(reps.size()) + " repetitions");
  for (const Repetition& rep : reps) {
    for (const std::string& e : rep.host_errors) expect(false, "host program ran to completion", e);
    if (rep.launch_failed) expect(false, "every launch was accepted", "a launch returned an error (see measured.launches)");
  }
  if (last.checks.empty() && last.host_errors.empty()) expect(false, "the host program verified its results", "no checks were made");

  std::vector<double> spans, all_running;
  json span_list = json::array(), all_running_list = json::array(), launch_list = json::array();
  for (size_t r = 0; r < reps.size(); ++r) {
    launch_list.push_back(reps[r].launches);
    span_list.push_back(reps[r].span_ns);
    all_running_list.push_back(reps[r].all_running_ns);
    if (r > 0 || reps.size() == 1) {
      spans.push_back(reps[r].span_ns);
      all_running.push_back(reps[r].all_running_ns);
    }
  }
  const double span = median(spans), kernel_ns = median(all_running);
  json notes = json::array();
  for (const std::string& n : s.notes) notes.push_back(n);
  notes.push_back("sim_time_ns is measured: from the last PE's launch (its start event) to the last end event (CUDA events on "
                  "each PE's stream, worst GPU), median over the repetitions after the first. The PEs' host threads launch one "
                  "after another; measured.kernel_span_ns counts from the first launch instead");
  if (gpus == 1 && s.pes > 1) notes.push_back("all PEs on one GPU: peer stores and loads are local HBM accesses, not NVLink");
  const double wall_s = std::chrono::duration<double>(Clock::now() - wall_start).count();
  out.passed = ok;
  out.result = {{"symsim", 1},
                {"scenario", s.name},
                {"status", ok ? "pass" : (out.timed_out ? "error" : "fail")},
                {"seed", s.seed},
                {"sim_time_ns", kernel_ns},
                {"wall_s", wall_s},
                {"hazards", json::array()},
                {"expectations", expectations},
                {"checks", checks},
                {"traps", json::array()},
                {"stats", {{"pes", json::array()}}},
                {"config", s.effective},
                {"measured",
                 {{"device", device_json()},
                  {"gpus_used", gpus},
                  {"repeats", reps.size()},
                  {"kernel_span_ns", span_list},
                  {"median_kernel_span_ns", span},
                  {"after_last_launch_ns", all_running_list},
                  {"median_after_last_launch_ns", kernel_ns},
                  {"per_pe_kernel_ns", last.pe_kernel_ns},
                  {"launches", last.launches},
                  {"launches_by_repetition", launch_list}}},
                {"notes", notes}};
  // SYMSIM_HW_KEEP_REPETITIONS=1: every repetition's checks (a probe's value=... reading is in one), not only
  // the last's, for telling one reading's noise from the procedure's (docs/hw-accuracy.md, issue 19). Off: unchanged.
  if (const char* keep = std::getenv("SYMSIM_HW_KEEP_REPETITIONS"); keep && std::string(keep) == "1") {
    json by_rep = json::array();
    for (const Repetition& rep : reps) {
      json one = json::array();
      for (const KernelCheck& c : rep.checks) one.push_back({{"what", c.what}, {"ok", c.ok}, {"detail", c.detail}});
      by_rep.push_back(one);
    }
    out.result["measured"]["checks_by_repetition"] = by_rep;
  }
  for (int pe = 0; pe < s.pes; ++pe)
    out.result["stats"]["pes"].push_back({{"pe", pe}, {"gpu", gpu_of(pe)}, {"kernel_ns", last.pe_kernel_ns.empty() ? 0.0 : last.pe_kernel_ns[pe]}});
  if (!out.timed_out) world_finish();
  return out;
}

}  // namespace symsim::hw
