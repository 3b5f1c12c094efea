// symsim-hw (the hardware build, -DSYMSIM_HW=cuda -DSYMSIM_DEEPEP_DIR=...): the same host driver
// and DeepEP's intranode kernels, both compiled by nvcc, as the kernel `deepep_intranode` of the
// hardware runner. Each PE's thread runs the driver's main (compiled as deepep_intranode_main)
// with the argv symsim-nvcc's --symsim-argv gives it in the simulator.
#include <string>
#include <vector>

#include "kernels/registry/kernel_registry.h"
#include "symsim/cuda/runtime.h"

int deepep_intranode_main(int argc, char** argv);

namespace {

void run(int pe, const symsim::KernelArgs& a) {
  std::vector<std::string> words = {"deepep_intranode", std::to_string(pe), std::to_string(symsim::cuda::n_ranks())};
  for (const char* name : {"tokens", "hidden", "sms", "send_chunk", "recv_slots"}) words.push_back(std::to_string(a.u64(name)));
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  const int rc = deepep_intranode_main(static_cast<int>(words.size()), argv.data());
  symsim::check(rc == 0, "deepep_intranode rank " + std::to_string(pe) + ": every received byte matches",
                "driver returned " + std::to_string(rc));
}

SYMSIM_REGISTER_KERNEL(deepep_intranode,
                       {"deepep_intranode", "nvidia",
                        "DeepEP intranode notify_dispatch/dispatch/combine (unmodified) with a byte-checking host driver",
                        {{"tokens", "tokens per rank", 1, 4096, 64},
                         {"hidden", "hidden size (bf16 elements)", 16, 8192, 1024},
                         {"sms", "CTAs of dispatch and combine (two per channel)", 2, 132, 4},
                         {"send_chunk", "tokens a sender moves per round", 1, 256, 6},
                         {"recv_slots", "ring slots per channel and rank", 1, 1024, 32}},
                        1,
                        run});

}  // namespace
