#include "sim/report/commands.h"

#include <CLI/CLI.hpp>
#include <cmath>

#include "sim/report/report_command.h"
#include "sim/scenario/input_error.h"
#include "sim/trace/trace_diff.h"

namespace symsim::report {

struct Commands::Impl {
  CLI::App* report = nullptr;
  ReportOptions report_opts;
  CLI::App* trace = nullptr;
  CLI::App* diff = nullptr;
  std::string diff_a, diff_b;
  trace::DiffOptions diff_opts;
};

Commands::Commands(CLI::App& app) : m(std::make_unique<Impl>()) {
  Impl& i = *m;
  i.report = app.add_subcommand("report", "write one self-contained HTML report of a run or a sweep");
  i.report->add_option("input", i.report_opts.input, "a run's result.json, or a sweep's output folder")->required();
  i.report->add_option("-o,--out", i.report_opts.out, "the HTML file to write")->required();
  i.report->add_option("--trace", i.report_opts.trace,
                       "the run's trace (default: trace.json beside result.json, when there is one)");

  i.trace = app.add_subcommand("trace", "work with trace files");
  i.trace->require_subcommand(1);
  i.diff = i.trace->add_subcommand(
      "diff", "compare two traces by structure (tracks, slices, nesting, counters, flows), times within a tolerance; "
              "exit 0 same, 1 different, 2 bad input");
  i.diff->add_option("a", i.diff_a, "the reference trace (e.g. traces/golden/NAME.trace.json)")->required();
  i.diff->add_option("b", i.diff_b, "the trace to compare with it")->required();
  i.diff->add_option("--time-tolerance-pct", i.diff_opts.time_tolerance_pct,
                     "times match when within this percent of the larger one (default 0: equal to 1 ps)");
}

Commands::~Commands() = default;

std::optional<int> Commands::dispatch() {
  Impl& i = *m;
  if (*i.report) return report_main(i.report_opts);
  if (*i.diff) {
    const double pct = i.diff_opts.time_tolerance_pct;
    if (!std::isfinite(pct) || pct < 0 || pct > 100)
      throw InputError("--time-tolerance-pct", "", "must be a percentage from 0 to 100");
    return trace::trace_diff_main(i.diff_a, i.diff_b, i.diff_opts);
  }
  return std::nullopt;
}

}  // namespace symsim::report
