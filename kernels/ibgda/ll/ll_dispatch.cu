// DeepEP V1-style low-latency dispatch (internode_ll.cu, as nvidia-symmem.md 3a describes it):
//  send:    SMs take tokens in turn; the CTA copies the token (header + payload) into the send
//           buffer; warp k handles top-k slot k: a slot on the expert with a local atomic, then
//           put_nbi_warp to recv[expert % L][me][slot] on rank expert / L over QP expert % L
//           (or a warp copy for itself, and over NVLink when allowed);
//  counts:  after a grid sync, each expert's count goes to its owner as -count-1 (so zero
//           tokens differs from "not yet"): an RDMA atomic on the same QP as that expert's
//           data, which RC orders after the data; or st.release.sys over NVLink;
//  receive: warps take (local expert, source) pairs, spin with ld.acquire.sys until the count
//           is in, reserve output rows with an atomic and move the messages with TMA.
//  The other buffer copy's counts are zeroed for the next call.
#include "kernels/ibgda/ll/ll_layout.cuh"

#include "symsim_launch.cuh"

namespace {

constexpr int kMbarBytes = 1024;

__global__ void ll_dispatch(LLDispatchArgs a) {
  SYMSIM_EXTERN_SHARED(uint8_t, smem);
  const uint32_t thread = threadIdx.x, lane = thread % 32, warp = thread / 32;
  const uint32_t warps = blockDim.x / 32, sm = blockIdx.x, num_sms = gridDim.x;
  const int me = a.window.rank, ranks = a.window.n_ranks;
  const int local_experts = a.experts / ranks;
  const int msg = ll_msg_bytes(a.payload_bytes);
  const LLBuffer& b = a.buf[a.buffer_idx];
  const LLBuffer& other = a.buf[a.buffer_idx ^ 1];
  auto recv_slot = [&](const LLBuffer& buf, int le, int src, int slot) {
    return buf.recv + ((static_cast<int64_t>(le) * ranks + src) * a.tokens + slot) * msg;
  };

  // Clean the other copy's count signals for the next call.
  for (int i = static_cast<int>(sm * blockDim.x + thread); i < local_experts * ranks; i += static_cast<int>(num_sms * blockDim.x))
    ptx::st_na(other.recv_count + i, 0);

  // ---- send ----
  // The token goes into shared memory behind its header (one TMA load), then into the send
  // buffer (one TMA store, landed before any put reads it); warp k then handles top-k slot k.
  uint64_t* mbar = reinterpret_cast<uint64_t*>(smem) + warp;
  uint8_t* token = smem + kMbarBytes;  // [msg]: the CTA's staged token
  if (lane == 0) ptx::mbarrier_init_with_fence(mbar, 1);
  __syncthreads();
  uint32_t phase = 0;
  for (int t = static_cast<int>(sm); t < a.tokens; t += static_cast<int>(num_sms)) {
    uint8_t* send = b.send + static_cast<int64_t>(t) * msg;
    if (thread == 0) {
      auto* h = reinterpret_cast<LLHeader*>(token);
      h->token = t;
      h->src_rank = me;
      ptx::tma_load_1d(token + sizeof(LLHeader), a.x + static_cast<int64_t>(t) * a.payload_bytes, mbar,
                       static_cast<uint32_t>(a.payload_bytes));
      ptx::mbarrier_arrive_and_set_tx(mbar, static_cast<uint32_t>(a.payload_bytes));
      ptx::mbarrier_wait_and_flip_phase(mbar, phase);
      ptx::tma_store_fence();
      ptx::tma_store_1d(send, token, static_cast<uint32_t>(msg));
      ptx::tma_store_commit();
      ptx::tma_store_wait<0>();
    }
    __syncthreads();
    if (static_cast<int>(warp) < a.topk) {
      const int e = ptx::ldg(a.topk_idx + static_cast<int64_t>(t) * a.topk + warp);
      if (e >= 0) {
        const int dst_rank = e / local_experts, le = e % local_experts;
        int slot = 0;
        if (lane == 0) slot = atomicAdd(a.expert_counter + e, 1);
        slot = __shfl_sync(0xffffffffu, slot, 0);
        uint8_t* remote = recv_slot(b, le, me, slot);
        const bool nvlink = dst_rank == me || (a.allow_nvlink && a.window.is_nvlink_accessible(dst_rank));
        if (nvlink) {
          // Itself or an NVLink peer: straight from shared memory with a TMA store.
          if (lane == 0) {
            ptx::tma_store_1d(a.window.get_sym_ptr(remote, dst_rank), token, static_cast<uint32_t>(msg));
            ptx::tma_store_commit();
            ptx::tma_store_wait<0>();
          }
          __syncwarp();
        } else {
          ibgda::put_nbi_warp(a.rdma, remote, send, static_cast<uint32_t>(msg), dst_rank, le, lane, slot);
        }
      }
    }
    __syncthreads();
  }

  // ---- counts ----
  comm::grid_sync(&a.ws->grid_sync_count[a.buffer_idx], sm, num_sms, thread);
  for (int e = static_cast<int>(sm * blockDim.x + thread); e < a.experts; e += static_cast<int>(num_sms * blockDim.x)) {
    const int count = ptx::ld_acquire_gpu(a.expert_counter + e);
    const int dst_rank = e / local_experts, le = e % local_experts;
    int* signal = b.recv_count + le * ranks + me;
    if (dst_rank == me || (a.allow_nvlink && a.window.is_nvlink_accessible(dst_rank))) {
      ptx::st_release_sys(a.window.get_sym_ptr(signal, dst_rank), -count - 1);
    } else {
      ibgda::amo_nonfetch_add(a.rdma, signal, -count - 1, dst_rank, (le + a.count_qp_offset) % local_experts);
    }
    ptx::st_na(a.expert_counter + e, 0);
  }

  // ---- receive ----
  uint8_t* buf = smem + kMbarBytes + static_cast<size_t>(warp) * msg;
  for (int pair = static_cast<int>(sm * warps + warp); pair < local_experts * ranks; pair += static_cast<int>(num_sms * warps)) {
    const int le = pair / ranks, src = pair % ranks;
    int v = 0;
    if (lane == 0)
      while ((v = ptx::ld_acquire_sys(b.recv_count + le * ranks + src)) == 0) {
      }
    const int n = -__shfl_sync(0xffffffffu, v, 0) - 1;
    int base = 0;
    if (lane == 0 && n > 0) base = atomicAdd(a.packed_count + le, n);
    base = __shfl_sync(0xffffffffu, base, 0);
    if (lane == 0) {
      for (int i = 0; i < n; ++i) {
        ptx::tma_load_1d(buf, recv_slot(b, le, src, i), mbar, static_cast<uint32_t>(msg));
        ptx::mbarrier_arrive_and_set_tx(mbar, static_cast<uint32_t>(msg));
        ptx::mbarrier_wait_and_flip_phase(mbar, phase);
        ptx::tma_store_1d(a.packed_x + (static_cast<int64_t>(le) * ranks * a.tokens + base + i) * msg, buf, static_cast<uint32_t>(msg));
        ptx::tma_store_commit();
        ptx::tma_store_wait<0>();
      }
    }
    __syncwarp();
  }
}

}  // namespace

int launch_ll_dispatch(int sms, int threads, const LLDispatchArgs& args) {
  const size_t smem = static_cast<size_t>(kMbarBytes) + static_cast<size_t>(threads / 32) * ll_msg_bytes(args.payload_bytes);
  return SYMSIM_LAUNCH_COOPERATIVE(ll_dispatch, dim3(sms), dim3(threads), smem, nullptr, args);
}
