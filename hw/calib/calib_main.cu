// symsim-calib: measures on the GPU what symsim's NVIDIA models need (docs/hw-calibration.md)
// and prints one markdown table. `symsim-calib [GROUP...]` runs the named groups only.
#include <algorithm>
#include <cstring>
#include <functional>
#include <map>

#include "calib.cuh"

namespace calib {

namespace {
std::vector<Row>& rows() {
  static std::vector<Row> r;
  return r;
}
}  // namespace

void add_row(const Row& row) {
  rows().push_back(row);
  std::fprintf(stderr, "  %-44s %12.3f %s\n", row.id.c_str(), row.value, row.unit.c_str());
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

LineFit fit_line(const std::vector<double>& x, const std::vector<double>& y) {
  const double n = static_cast<double>(x.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    sx += x[i];
    sy += y[i];
    sxx += x[i] * x[i];
    sxy += x[i] * y[i];
  }
  const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  return {(sy - slope * sx) / n, slope};
}

int sm_count() {
  int dev = 0, n = 0;
  CALIB_CHECK(cudaGetDevice(&dev));
  CALIB_CHECK(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev));
  return n;
}

}  // namespace calib

int main(int argc, char** argv) {
  using namespace calib;
  const std::vector<std::pair<std::string, std::function<void()>>> groups = {
      {"flags", bench_flags},   {"fences", bench_fences},         {"tma", bench_tma},       {"memory", bench_memory},
      {"atomics", bench_atomics}, {"host_stores", bench_host_stores}, {"launch", bench_launch}, {"peer", bench_peer},
      {"tma_sm", bench_tma_sm}, {"load_mlp", bench_load_mlp}, {"stores", bench_stores}, {"atomics_pipe", bench_atomics_pipe},
      {"launch_spacing", bench_launch_spacing}, {"memcpy", bench_memcpy}, {"code", bench_code}, {"cold", bench_cold}, {"cold_launch", bench_cold_launch},
      {"tma_mbar", bench_tma_mbar}};
  std::vector<std::string> wanted(argv + 1, argv + argc);
  cudaDeviceProp prop{};
  CALIB_CHECK(cudaGetDeviceProperties(&prop, 0));
  int driver = 0, runtime = 0, gpus = 0;
  CALIB_CHECK(cudaDriverGetVersion(&driver));
  CALIB_CHECK(cudaRuntimeGetVersion(&runtime));
  CALIB_CHECK(cudaGetDeviceCount(&gpus));
  CALIB_CHECK(cudaFree(nullptr));
  for (const auto& [name, run] : groups) {
    if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), name) == wanted.end()) continue;
    std::fprintf(stderr, "[%s]\n", name.c_str());
    run();
  }
  std::printf("GPU: %s x%d, %d SMs, L2 %d MiB, CUDA driver API %d.%d, runtime %d.%d\n\n", prop.name, gpus,
              prop.multiProcessorCount, prop.l2CacheSize >> 20, driver / 1000, driver % 1000 / 10, runtime / 1000,
              runtime % 1000 / 10);
  std::printf("| id | quantity | value | unit | method |\n| --- | --- | ---: | --- | --- |\n");
  for (const Row& r : rows())
    std::printf("| `%s` | %s | %.4g | %s | %s |\n", r.id.c_str(), r.what.c_str(), r.value, r.unit.c_str(), r.method.c_str());
  return 0;
}
