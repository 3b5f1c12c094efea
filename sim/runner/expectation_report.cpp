#include "sim/runner/expectation_report.h"

#include <fmt/format.h>

#include <algorithm>

#include "kernels/registry/kernel_registry.h"

namespace symsim {

using nlohmann::json;

void ExpectationReport::expect(bool good, std::string what, std::string detail) {
  m_ok = m_ok && good;
  m_list.push_back({{"what", std::move(what)}, {"ok", good}, {"detail", std::move(detail)}});
}

json ExpectationReport::host_checks(const Expectations& e, const std::vector<std::string>& host_errors) {
  json checks = json::array();
  size_t failed = 0;
  for (const KernelCheck& c : kernel_checks()) {
    checks.push_back({{"what", c.what}, {"ok", c.ok}, {"detail", c.detail}});
    failed += !c.ok;
    if (e.checks == "pass") expect(c.ok, c.what, c.detail);
  }
  if (e.checks == "fail")
    expect(failed > 0, "a host check failed (expect.checks = fail)",
           fmt::format("{} of {} checks failed", failed, checks.size()));
  for (const std::string& error : host_errors)
    if (e.checks == "pass") expect(false, "host program ran to completion", error);
  return checks;
}

void ExpectationReport::hazards_and_time(const Expectations& e, const HazardLog& hazards, Ps end_ps,
                                         bool host_errors) {
  std::vector<std::string> reported;
  for (const Hazard& h : hazards.all())
    if (std::find(reported.begin(), reported.end(), h.id) == reported.end()) reported.push_back(h.id);
  for (const std::string& id : e.hazards) {
    const bool seen = std::find(reported.begin(), reported.end(), id) != reported.end();
    expect(seen, fmt::format("hazard {} reported", id), seen ? "" : "expected but not reported");
  }
  for (const std::string& id : reported)
    if (std::find(e.hazards.begin(), e.hazards.end(), id) == e.hazards.end())
      expect(false, fmt::format("no unexpected hazard {}", id), "reported but not in expect.hazards");
  const double sim_us = ps_to_us(end_ps);
  if (e.max_sim_time_us)
    expect(sim_us <= *e.max_sim_time_us, fmt::format("simulated time <= {} us", *e.max_sim_time_us),
           fmt::format("{:.3f} us", sim_us));
  if (e.min_sim_time_us)
    expect(sim_us >= *e.min_sim_time_us, fmt::format("simulated time >= {} us", *e.min_sim_time_us),
           fmt::format("{:.3f} us", sim_us));
  if (e.checks == "pass" && kernel_checks().empty() && !host_errors)
    expect(false, "the host program verified its results", "no checks were made");
}

}  // namespace symsim
