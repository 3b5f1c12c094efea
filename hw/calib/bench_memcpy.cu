// cudaMemcpy device to device by size: the GPU time of one cudaMemcpyAsync on an idle stream
// (events around it), the spacing of copies back to back in one stream, and the host's wall
// time of a blocking cudaMemcpy; the fit t = t0 + bytes / rate gives the model's two numbers.
#include <chrono>

#include "calib.cuh"

namespace calib {

namespace {

constexpr size_t kMaxBytes = size_t(1) << 30;

std::string size_name(size_t b) {
  if (b >= (size_t(1) << 30)) return std::to_string(b >> 30) + "g";
  if (b >= (size_t(1) << 20)) return std::to_string(b >> 20) + "m";
  return std::to_string(b >> 10) + "k";
}

}  // namespace

void bench_memcpy() {
  uint8_t *src = nullptr, *dst = nullptr;
  CALIB_CHECK(cudaMalloc(&src, kMaxBytes));
  CALIB_CHECK(cudaMalloc(&dst, kMaxBytes));
  CALIB_CHECK(cudaMemset(src, 5, kMaxBytes));
  CALIB_CHECK(cudaMemset(dst, 0, kMaxBytes));
  cudaStream_t s;
  CALIB_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  EventTimer timer(s);
  std::vector<double> sizes, event_us;
  for (size_t bytes : {size_t(4) << 10, size_t(64) << 10, size_t(1) << 20, size_t(16) << 20, size_t(256) << 20, kMaxBytes}) {
    const int reps = bytes >= (size_t(256) << 20) ? 6 : 50;
    std::vector<double> one, wall;
    for (int rep = 0; rep < reps + 1; ++rep) {
      timer.start();
      CALIB_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s));
      const double us = timer.stop_ms() * 1000.0;
      const auto t0 = std::chrono::steady_clock::now();
      CALIB_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice));
      CALIB_CHECK(cudaDeviceSynchronize());
      const double w = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
      if (rep > 0) one.push_back(us), wall.push_back(w);
    }
    const int n = bytes >= (size_t(256) << 20) ? 4 : 100;
    timer.start();
    for (int i = 0; i < n; ++i) CALIB_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s));
    const double b2b = timer.stop_ms() * 1000.0 / n;
    const std::string nm = size_name(bytes);
    sizes.push_back(static_cast<double>(bytes));
    event_us.push_back(median(one));
    add_row({"memcpy.d2d." + nm + ".event_us", "cudaMemcpyAsync device to device, " + nm + "B, idle stream: events around it", median(one), "us",
             "median of " + std::to_string(reps) + " after a warm-up; " + num(bytes / (median(one) * 1e3)) + " GB/s copied"});
    add_row({"memcpy.d2d." + nm + ".back_to_back_us", "cudaMemcpyAsync device to device, " + nm + "B, back to back in one stream", b2b, "us",
             std::to_string(n) + " copies between two events / n; " + num(bytes / (b2b * 1e3)) + " GB/s copied"});
    add_row({"memcpy.d2d." + nm + ".wall_us", "blocking cudaMemcpy device to device, " + nm + "B, host wall time (+ cudaDeviceSynchronize)",
             median(wall), "us", "median of " + std::to_string(reps) + " after a warm-up"});
  }
  const size_t last = sizes.size() - 1;
  const double rate_gbps = (sizes[last] - sizes[last - 1]) / ((event_us[last] - event_us[last - 1]) * 1e3);
  const double t0_us = event_us[0] - sizes[0] / (rate_gbps * 1e3);
  const std::string how = "us = t0 + bytes / rate: rate from the two largest .event_us rows, t0 from the smallest";
  add_row({"memcpy.d2d.fit_t0_us", "cudaMemcpyAsync device to device: fixed GPU time (events included)", t0_us, "us", how});
  add_row({"memcpy.d2d.fit_gbps", "cudaMemcpyAsync device to device: bytes copied per ns (each read once and written once)", rate_gbps, "GB/s", how});
  CALIB_CHECK(cudaStreamDestroy(s));
  CALIB_CHECK(cudaFree(src));
  CALIB_CHECK(cudaFree(dst));
}

}  // namespace calib
