// Launch overhead: the host's cost of one asynchronous launch, the spacing of back-to-back
// empty kernels on the GPU, launch + synchronize round trips (plain, cooperative over every
// SM, graph of one kernel), one event-timed launch on an idle stream (what symsim-hw's kernel
// times hold beside the kernel's work), and the spacing of kernel nodes inside one graph.
#include <chrono>
#include <functional>

#include "calib.cuh"

namespace calib {

namespace {

__global__ void empty_kernel() {}

double wall_us_per(int n, const std::function<void()>& body) {
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) body();
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / n;
}

}  // namespace

void bench_launch() {
  cudaStream_t s;
  CALIB_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const int sms = sm_count();
  for (int i = 0; i < 100; ++i) empty_kernel<<<1, 32, 0, s>>>();
  CALIB_CHECK(cudaStreamSynchronize(s));

  const int n = 10000;
  const double host_us = wall_us_per(n, [&] { empty_kernel<<<1, 32, 0, s>>>(); });
  CALIB_CHECK(cudaStreamSynchronize(s));
  add_row({"launch.host_api_us", "host time of one asynchronous <<<>>> launch (empty kernel)", host_us, "us",
           std::to_string(n) + " launches in a row, wall clock / n"});

  EventTimer timer(s);
  timer.start();
  for (int i = 0; i < n; ++i) empty_kernel<<<1, 32, 0, s>>>();
  add_row({"launch.stream_spacing_us", "GPU time per empty kernel, back to back in one stream", timer.stop_ms() * 1000.0 / n, "us",
           std::to_string(n) + " launches between two events / n"});

  const int m = 2000;
  add_row({"launch.sync_roundtrip_us", "launch + cudaStreamSynchronize of an empty 1-CTA kernel",
           wall_us_per(m, [&] {
             empty_kernel<<<1, 32, 0, s>>>();
             CALIB_CHECK(cudaStreamSynchronize(s));
           }),
           "us", std::to_string(m) + " round trips, wall clock / n"});
  add_row({"launch.sync_roundtrip_full_grid_us", "launch + synchronize, empty kernel of one 128-thread CTA per SM",
           wall_us_per(m, [&] {
             empty_kernel<<<sms, 128, 0, s>>>();
             CALIB_CHECK(cudaStreamSynchronize(s));
           }),
           "us", std::to_string(m) + " round trips, wall clock / n"});
  add_row({"launch.cooperative_sync_roundtrip_us", "cudaLaunchCooperativeKernel (one CTA per SM) + synchronize",
           wall_us_per(m, [&] {
             CALIB_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(empty_kernel), dim3(sms), dim3(128), nullptr, 0, s));
             CALIB_CHECK(cudaStreamSynchronize(s));
           }),
           "us", std::to_string(m) + " round trips, wall clock / n"});

  // What symsim-hw's kernel time holds besides the kernel's own work: start event, one launch
  // on an idle stream, stop event (hw/runtime/hw_world.cu times every launch this way).
  const auto event_timed_us = [&](const std::function<void()>& launch) {
    std::vector<double> v;
    for (int rep = 0; rep < 200; ++rep) {
      timer.start();
      launch();
      v.push_back(timer.stop_ms() * 1000.0);
    }
    return median(v);
  };
  add_row({"launch.event_timed_us", "start event, <<<>>> launch of an empty 1-CTA kernel, stop event; idle stream",
           event_timed_us([&] { empty_kernel<<<1, 32, 0, s>>>(); }), "us", "median of 200, each waited for"});
  add_row({"launch.event_timed_cooperative_us",
           "start event, cudaLaunchCooperativeKernel of an empty kernel (one 128-thread CTA per SM), stop event; idle stream",
           event_timed_us([&] {
             CALIB_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(empty_kernel), dim3(sms), dim3(128), nullptr, 0, s));
           }),
           "us", "median of 200, each waited for"});

  // Graphs: one kernel, and 100 kernels in one graph.
  for (int nodes : {1, 100}) {
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CALIB_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    for (int i = 0; i < nodes; ++i) empty_kernel<<<1, 32, 0, s>>>();
    CALIB_CHECK(cudaStreamEndCapture(s, &graph));
    CALIB_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    CALIB_CHECK(cudaGraphLaunch(exec, s));
    CALIB_CHECK(cudaStreamSynchronize(s));
    if (nodes == 1) {
      add_row({"graph.sync_roundtrip_us", "cudaGraphLaunch of a one-kernel graph + synchronize",
               wall_us_per(m, [&] {
                 CALIB_CHECK(cudaGraphLaunch(exec, s));
                 CALIB_CHECK(cudaStreamSynchronize(s));
               }),
               "us", std::to_string(m) + " round trips, wall clock / n"});
      add_row({"graph.host_api_us", "host time of one cudaGraphLaunch (one-kernel graph)",
               wall_us_per(n, [&] { CALIB_CHECK(cudaGraphLaunch(exec, s)); }), "us",
               std::to_string(n) + " launches in a row, wall clock / n"});
      CALIB_CHECK(cudaStreamSynchronize(s));
    } else {
      std::vector<double> v;
      for (int rep = 0; rep < 20; ++rep) {
        timer.start();
        CALIB_CHECK(cudaGraphLaunch(exec, s));
        v.push_back(timer.stop_ms() * 1000.0 / nodes);
      }
      add_row({"graph.node_spacing_us", "GPU time per empty kernel node inside one graph of 100", median(v), "us",
               "events around one graph launch / 100 (median of 20)"});
    }
    CALIB_CHECK(cudaGraphExecDestroy(exec));
    CALIB_CHECK(cudaGraphDestroy(graph));
  }
  CALIB_CHECK(cudaStreamDestroy(s));
}

}  // namespace calib
