// The host program of ring_put_signal, as it would run on an NPU node (one process per PE:
// ./ring_put_signal N_PES PE_ID IP_PORT SLOT_BYTES), and unchanged as a symsim kernel library
// (each simulated PE runs main with that argv). Exits 0 when every slot holds its owner's bytes
// and every signal arrived.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <vector>

#include "acl/acl.h"
#include "shmem.h"

extern void launch_ring_put_signal(uint32_t block_dim, void* stream, uint8_t* data, uint8_t* signals,
                                   uint32_t slot_bytes, uint64_t signal);

namespace {

uint8_t byte_of(int pe, uint64_t i) { return static_cast<uint8_t>(pe * 37 + i * 11 + (i >> 8)); }

}  // namespace

int main(int argc, char* argv[])
{
    if (argc < 5) {
        std::cerr << "usage: " << argv[0] << " N_PES PE_ID IP_PORT SLOT_BYTES" << std::endl;
        return 2;
    }
    const int n_pes = std::atoi(argv[1]);
    const int pe = std::atoi(argv[2]);
    const char* ip_port = argv[3];
    const uint32_t slot_bytes = static_cast<uint32_t>(std::atoi(argv[4]));
    const uint64_t signal = 0x5150;

    int status = aclInit(nullptr);
    status |= aclrtSetDevice(pe);
    aclrtStream stream = nullptr;
    status |= aclrtCreateStream(&stream);

    aclshmemx_init_attr_t attr;
    attr.my_pe = pe;
    attr.n_pes = n_pes;
    std::snprintf(attr.ip_port, sizeof(attr.ip_port), "%s", ip_port);
    attr.local_mem_size = 64ULL * 1024 * 1024;
    attr.option_attr.data_op_engine_type = ACLSHMEM_DATA_OP_UDMA;
    status |= aclshmemx_init_attr(ACLSHMEMX_INIT_WITH_DEFAULT, &attr);
    if (status != 0) {
        std::cerr << "pe " << pe << ": init failed " << status << std::endl;
        return 1;
    }

    const uint64_t total = static_cast<uint64_t>(slot_bytes) * n_pes;
    auto* data = static_cast<uint8_t*>(aclshmem_malloc(total));
    auto* signals = static_cast<uint8_t*>(aclshmem_calloc(n_pes, sizeof(uint64_t)));
    std::vector<uint8_t> host(total, 0);
    for (uint64_t i = 0; i < slot_bytes; ++i) {
        host[static_cast<uint64_t>(slot_bytes) * pe + i] = byte_of(pe, i);
    }
    status |= aclrtMemcpy(data, total, host.data(), total, ACL_MEMCPY_HOST_TO_DEVICE);
    aclshmem_barrier_all();

    launch_ring_put_signal(1, stream, data, signals, slot_bytes, signal);
    status |= aclrtSynchronizeStream(stream);
    aclshmem_barrier_all();

    status |= aclrtMemcpy(host.data(), total, data, total, ACL_MEMCPY_DEVICE_TO_HOST);
    std::vector<uint64_t> flags(n_pes, 0);
    status |= aclrtMemcpy(flags.data(), n_pes * sizeof(uint64_t), signals, n_pes * sizeof(uint64_t),
                          ACL_MEMCPY_DEVICE_TO_HOST);
    int wrong = 0;
    for (int owner = 0; owner < n_pes; ++owner) {
        for (uint64_t i = 0; i < slot_bytes; ++i) {
            wrong += host[static_cast<uint64_t>(slot_bytes) * owner + i] != byte_of(owner, i);
        }
        wrong += owner != pe && flags[owner] != signal;
    }
    std::cout << (wrong == 0 ? "[SUCCESS]" : "[FAILED]") << " ring_put_signal pe " << pe << ": " << wrong
              << " wrong bytes or signals" << std::endl;

    aclshmem_free(signals);
    aclshmem_free(data);
    status |= aclshmem_finalize();
    status |= aclrtDestroyStream(stream);
    status |= aclrtResetDevice(pe);
    status |= aclFinalize();
    return (status != 0 || wrong != 0) ? 1 : 0;
}
