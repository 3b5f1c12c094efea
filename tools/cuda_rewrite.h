// The CUDA half of symsim-rewrite (--cuda): inline PTX statements and `extern __shared__`
// arrays, for programs built by tools/symsim-nvcc. Launches and main use the shared code in
// symsim_rewrite.cpp.
#pragma once
#include <string>
#include <vector>

namespace symsim::rewrite {

// Which bytes of `s` are code (not comment or literal); symsim_rewrite.cpp.
std::vector<bool> code_mask(const std::string& s);

// Replaces every `asm [volatile] (...)` statement with its translation (ptx_translate.h);
// false with `error` on a statement it cannot parse. `file` names the source in messages.
bool rewrite_asm_statements(std::string& s, const std::string& file, std::string& error);

// `extern __shared__ [__align__(n)] T name[];` -> `T* const name = <the CTA's dynamic shared
// memory>;` (inside a function; at namespace scope it is an error naming the line).
bool rewrite_extern_shared(std::string& s, const std::string& file, std::string& error);

// `__shared__ [volatile] T name[N]...;` inside a function -> a reference to the CTA's own copy
// (symsim::cuda::static_smem): each CTA of each GPU sees its own variable, as on the GPU. At
// namespace scope, with an initializer or with several declarators it is an error naming the line.
bool rewrite_static_shared(std::string& s, const std::string& file, std::string& error);

// `cudaLaunchCooperativeKernel((void*)k, ...)` -> `cudaLaunchCooperativeKernel(k, ...)` (also
// cudaLaunchKernel): the shim's typed overload copies the arguments out of `void** args`.
bool strip_launch_casts(std::string& s);

}  // namespace symsim::rewrite
