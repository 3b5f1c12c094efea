// Host program of ascendc_vector (vector_kernel.cpp): gives the kernel two float vectors,
// runs it, and checks every instruction's result against the same computation done here.
//   argv: PE MODE   (MODE 0: ordered pipes, 1: missing flags, 2: dump build, 3: dump space full)
// Exit status 0 when every result and the timed loop's tick count are as expected.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "debug.h"
#include "shmem.h"

void launch_ascendc_vector(void *stream, uint8_t *in, uint8_t *out, uint8_t *dump, int mode);

namespace {

constexpr uint32_t kN = 256;
int g_failures = 0;

void expect(bool ok, const char *what, uint32_t i, double got, double want)
{
    if (ok) return;
    if (++g_failures <= 20) std::printf("[ascendc_vector] %s, element %u: got %g, want %g\n", what, i, got, want);
}

}  // namespace

int main(int argc, char **argv)
{
    const int mode = argc > 2 ? std::atoi(argv[2]) : 0;
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    aclshmemx_init_attr_t attr;  // kernels run on an initialised SHMEM instance
    attr.my_pe = std::atoi(argv[1]);
    attr.n_pes = 1;
    attr.local_mem_size = 4u << 20;
    attr.option_attr.data_op_engine_type = ACLSHMEM_DATA_OP_UDMA;
    if (aclshmemx_init_attr(ACLSHMEMX_INIT_WITH_DEFAULT, &attr) != ACLSHMEM_SUCCESS) return 1;

    // a[i] = (i - 128) / 4 + 0.5 for odd i (rounding cases), b[i] = 100 - i.
    std::vector<float> in(2 * kN);
    for (uint32_t i = 0; i < kN; ++i) {
        in[i] = (static_cast<float>(i) - 128.0f) / 4.0f + ((i % 2) ? 0.5f : 0.0f);
        in[kN + i] = 100.0f - static_cast<float>(i);
    }
    const float *a = in.data();
    const float *b = in.data() + kN;
    uint8_t *din = nullptr, *dout = nullptr, *dump = nullptr;
    const size_t out_bytes = 16 * kN * sizeof(float) + 8 * kN * sizeof(int32_t);
    aclrtMalloc(reinterpret_cast<void **>(&din), in.size() * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(reinterpret_cast<void **>(&dout), out_bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(reinterpret_cast<void **>(&dump), 1024 * 1024, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(din, in.size() * sizeof(float), in.data(), in.size() * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE);
    launch_ascendc_vector(stream, din, dout, dump, mode);
    if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) return 1;
    std::printf("[ascendc_vector] kernel done\n");
    if (mode >= 2) Adx::AdumpPrintWorkSpace(dump, 1024 * 1024, stream, "ascendc_vector");

    std::vector<float> f(16 * kN);
    std::vector<int32_t> n(8 * kN);
    aclrtMemcpy(f.data(), f.size() * 4, dout, f.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST);
    aclrtMemcpy(n.data(), n.size() * 4, dout + f.size() * 4, n.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST);

    float sum = 0, max = a[0];
    uint32_t max_at = 0;
    for (uint32_t i = 0; i < kN; ++i) {
        sum += b[i];
        if (a[i] > max) { max = a[i]; max_at = i; }
    }
    for (uint32_t i = 0; i < kN; ++i) {
        expect(f[0 * kN + i] == a[i] + b[i], "Add", i, f[0 * kN + i], a[i] + b[i]);
        expect(f[1 * kN + i] == a[i] - b[i], "Sub", i, f[1 * kN + i], a[i] - b[i]);
        expect(f[2 * kN + i] == a[i] * b[i], "Mul", i, f[2 * kN + i], a[i] * b[i]);
        expect(f[3 * kN + i] == std::fmax(a[i], b[i]), "Max", i, f[3 * kN + i], std::fmax(a[i], b[i]));
        expect(f[4 * kN + i] == std::fmin(a[i], b[i]), "Min", i, f[4 * kN + i], std::fmin(a[i], b[i]));
        expect(f[5 * kN + i] == a[i] + 1.5f, "Adds", i, f[5 * kN + i], a[i] + 1.5f);
        expect(f[6 * kN + i] == a[i] * -2.0f, "Muls", i, f[6 * kN + i], a[i] * -2.0f);
        expect(f[7 * kN + i] == 3.25f, "Duplicate", i, f[7 * kN + i], 3.25);
        expect(n[0 * kN + i] == static_cast<int32_t>(std::round(a[i])), "Cast CAST_ROUND", i, n[i], std::round(a[i]));
        expect(n[1 * kN + i] == static_cast<int32_t>(std::floor(a[i])), "Cast CAST_FLOOR", i, n[kN + i], std::floor(a[i]));
        expect(n[2 * kN + i] == static_cast<int32_t>(std::trunc(a[i])), "Cast CAST_TRUNC", i, n[2 * kN + i], std::trunc(a[i]));
        expect(f[8 * kN + i] == std::floor(a[i]), "Cast int32->float", i, f[8 * kN + i], std::floor(a[i]));
        expect(f[10 * kN + i] == (a[i] > b[i] ? a[i] : b[i]), "Compare GT + Select", i, f[10 * kN + i], std::fmax(a[i], b[i]));
        expect(f[11 * kN + i] == (a[i] < 0 ? a[i] : 0.0f), "CompareScalar LT + Select scalar", i, f[11 * kN + i], a[i] < 0 ? a[i] : 0);
        expect(f[12 * kN + i] == a[kN - 1 - i], "Gather (reverse)", i, f[12 * kN + i], a[kN - 1 - i]);
        expect(f[13 * kN + (i * 7 % kN)] == b[i], "Scatter (i * 7 % 256)", i, f[13 * kN + (i * 7 % kN)], b[i]);
        expect(n[3 * kN + i] == static_cast<int32_t>(i), "CreateVecIndex", i, n[3 * kN + i], i);
        expect(n[4 * kN + i] == (n[0 * kN + i] & static_cast<int32_t>(i)), "And", i, n[4 * kN + i], n[i] & static_cast<int32_t>(i));
        expect(n[7 * kN + i] == (n[0 * kN + i] | static_cast<int32_t>(i)), "Or", i, n[7 * kN + i], n[i] | static_cast<int32_t>(i));
        expect(n[6 * kN + i] == (i < 100 ? static_cast<int32_t>(i) : 100), "Mins", i, n[6 * kN + i], i < 100 ? i : 100);
        expect(f[14 * kN + i] == a[i] / 3.25f, "Div", i, f[14 * kN + i], a[i] / 3.25f);
        expect(f[15 * kN + i] == std::fmax(a[i], 0.5f), "Maxs", i, f[15 * kN + i], std::fmax(a[i], 0.5f));
    }
    expect(f[9 * kN] == sum, "ReduceSum", 0, f[9 * kN], sum);
    uint32_t got_at = 0;
    std::memcpy(&got_at, &f[9 * kN + 9], 4);
    expect(f[9 * kN + 8] == max, "ReduceMax value", 0, f[9 * kN + 8], max);
    expect(got_at == max_at, "ReduceMax index", 0, got_at, max_at);
    std::memcpy(&got_at, &f[9 * kN + 17], 4);
    expect(f[9 * kN + 16] == b[kN - 1], "ReduceMin value", 0, f[9 * kN + 16], b[kN - 1]);
    expect(got_at == kN - 1, "ReduceMin index", 0, got_at, kN - 1);
    // 100 Adds of 256 repeats at aiv.vector_issue_ns = 10 and aiv.vector_repeat_ns = 0.625:
    // 100 * (10 + 256 * 0.625) ns = 17 us = 850 ticks of the 50 MHz counter (+1 for the reads).
    const int32_t ticks = n[5 * kN];
    expect(ticks == 850 || ticks == 851, "GetSystemCycle ticks of 100 timed Adds", 0, ticks, 850);
    std::printf("[ascendc_vector] %s: %d failures, timed loop %d ticks\n", g_failures ? "FAILED" : "passed",
                g_failures, ticks);
    aclrtFree(din);
    aclrtFree(dout);
    aclrtFree(dump);
    aclshmem_finalize();
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return g_failures ? 1 : 0;
}
