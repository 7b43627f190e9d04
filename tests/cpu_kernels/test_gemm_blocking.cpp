#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "ditmk/core/error.hpp"
#include "ditmk/cpu/kernels/cache_info.hpp"
#include "ditmk/cpu/kernels/gemm.hpp"
#include "ditmk/cpu/kernels/gemm_blocking.hpp"
#include "random_data.hpp"

namespace ditmk::cpu {
namespace {

namespace fs = std::filesystem;
using testing::random_normal;
using testing::random_tensor;

const CacheSizes kZen5{48 << 10, 1 << 20, 32 << 20, "test"};
const CacheSizes kZen3{32 << 10, 512 << 10, 32 << 20, "test"};

void write_cache_index(const fs::path& dir, int index, const char* level, const char* type, const char* size) {
  const fs::path d = dir / ("index" + std::to_string(index));
  fs::create_directories(d);
  std::ofstream(d / "level") << level << "\n";
  std::ofstream(d / "type") << type << "\n";
  std::ofstream(d / "size") << size << "\n";
}

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("ditmk_cache_test_" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

TEST(CacheInfo, CpuidSubleafBytes) {
  // Zen 5's L1D: 12 ways, 1 partition, 64-byte lines, 64 sets; its L2: 16 ways, 1024 sets.
  EXPECT_EQ(cpuid_cache_bytes((11u << 22) | 63u, 63u), std::size_t(48) << 10);
  EXPECT_EQ(cpuid_cache_bytes((15u << 22) | 63u, 1023u), std::size_t(1) << 20);
  // Two partitions double it.
  EXPECT_EQ(cpuid_cache_bytes((7u << 22) | (1u << 12) | 63u, 63u), std::size_t(64) << 10);
}

TEST(CacheInfo, ReadsSysfsLayout) {
  const TempDir t;
  write_cache_index(t.path, 0, "1", "Data", "48K");
  write_cache_index(t.path, 1, "1", "Instruction", "32K");
  write_cache_index(t.path, 2, "2", "Unified", "1024K");
  write_cache_index(t.path, 3, "3", "Unified", "32M");
  const auto c = read_sysfs_caches(t.path);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->l1d, std::size_t(48) << 10);
  EXPECT_EQ(c->l2, std::size_t(1) << 20);
  EXPECT_EQ(c->l3, std::size_t(32) << 20);
  EXPECT_EQ(c->source, "sysfs");
}

TEST(CacheInfo, SysfsWithoutL1DataOrL2IsMissing) {
  const TempDir t;
  EXPECT_FALSE(read_sysfs_caches(t.path).has_value());
  write_cache_index(t.path, 0, "1", "Instruction", "32K");
  write_cache_index(t.path, 1, "2", "Unified", "1024K");
  EXPECT_FALSE(read_sysfs_caches(t.path).has_value());
  EXPECT_FALSE(read_sysfs_caches(t.path / "absent").has_value());
}

TEST(CacheInfo, ParsesOverride) {
  const CacheSizes c = parse_cache_sizes("48,1024,32768");
  EXPECT_EQ(c, kZen5);
  EXPECT_EQ(parse_cache_sizes("32,512,0").l3, 0u);
  for (const char* bad : {"", "48", "48,1024", "48,1024,x", "0,1024,0", "48;1024;0", "48,1024,32768,1"})
    EXPECT_THROW(parse_cache_sizes(bad), Error) << bad;
}

TEST(CacheInfo, DetectedSizesArePlausible) {
  const CacheSizes& c = cache_sizes();
  EXPECT_GE(c.l1d, std::size_t(16) << 10) << describe(c);
  EXPECT_LE(c.l1d, std::size_t(1) << 20) << describe(c);
  EXPECT_GT(c.l2, c.l1d) << describe(c);
  // Where both sources answer they describe the same per-core caches.
  const auto sysfs = read_sysfs_caches("/sys/devices/system/cpu/cpu0/cache");
  const auto cpuid = read_cpuid_caches();
  if (sysfs && cpuid) {
    EXPECT_EQ(sysfs->l1d, cpuid->l1d);
    EXPECT_EQ(sysfs->l2, cpuid->l2);
  }
}

TEST(GemmBlocking, KBlockFromTheCaches) {
  // Read in place, a block and the one ahead (64 B per K row each in bf16) plus the call's x (2 B
  // per K value and row) fit in half of L2. Zen 5's 512 KiB holds a whole 1536-row panel at 64 rows
  // (192 KiB of x, 192 KiB of panels), one panel prefetched ahead.
  EXPECT_EQ(derive_gemm_blocking(kZen5, Isa::avx512_bf16, WeightFormat::bf16, 1536, 64),
            (GemmBlocking{1536, kGemmPrefetchPanels}));
  // K = 6144 does not (768 KiB of x alone): at most 2048 rows at 64 rows of x, 2304 at 49, so three
  // equal blocks of 2048 either way.
  EXPECT_EQ(derive_gemm_blocking(kZen5, Isa::avx512_bf16, WeightFormat::bf16, 6144, 64),
            (GemmBlocking{2048, kGemmPrefetchPanels}));
  EXPECT_EQ(derive_gemm_blocking(kZen5, Isa::avx512_bf16, WeightFormat::bf16, 6144, 49).k_block, 2048);
  // Fewer rows of x leave room for larger blocks: 3264 rows at 16, two blocks of 3072.
  EXPECT_EQ(derive_gemm_blocking(kZen5, Isa::avx512_bf16, WeightFormat::bf16, 6144, 16).k_block, 3072);
  // int8: 36 B of x per 32 K values and row, 40 B per K row of weights: at most 3424 rows, two
  // blocks of 3072.
  EXPECT_EQ(derive_gemm_blocking(kZen5, Isa::avx512_bf16, WeightFormat::int8, 6144, 64).k_block, 3072);
  // Zen 3's 256 KiB half of L2: 1024 rows at 64 rows of x, so K = 1536 in two blocks of 768 and
  // K = 6144 in six of 1024; fp32 on Zen 5 (128 B per K row, 4 B of x) also 1024.
  EXPECT_EQ(derive_gemm_blocking(kZen3, Isa::avx512_bf16, WeightFormat::bf16, 1536, 64).k_block, 768);
  EXPECT_EQ(derive_gemm_blocking(kZen3, Isa::avx512_bf16, WeightFormat::bf16, 6144, 64),
            (GemmBlocking{1024, kGemmPrefetchPanels}));
  EXPECT_EQ(derive_gemm_blocking(kZen5, Isa::avx512_bf16, WeightFormat::fp32, 6144, 64).k_block, 1024);
  // An L2 too small for kGemmMaxBufferedBlockK rows takes L1D-sized blocks: the bf16 block with two
  // more in flight fits Zen 3's 32 KiB at 128 rows.
  const CacheSizes small_l2{32 << 10, 128 << 10, 0, "test"};
  EXPECT_EQ(derive_gemm_blocking(small_l2, Isa::avx512_bf16, WeightFormat::bf16, 6144, 64),
            (GemmBlocking{128, kGemmPrefetchBlocks}));
  // Decoded or widened blocks always: AVX2 keeps the widened fp32 block (128 B per row) too: 128 on
  // Zen 5's 48 KiB, 64 on Zen 3's 32 KiB; bfp8_b decoded into bf16 pairs on AVX-512: 256.
  EXPECT_EQ(derive_gemm_blocking(kZen5, Isa::avx2, WeightFormat::bf16, 6144, 64).k_block, 128);
  EXPECT_EQ(derive_gemm_blocking(kZen3, Isa::avx2, WeightFormat::bf16, 6144, 64).k_block, 64);
  EXPECT_EQ(derive_gemm_blocking(kZen5, Isa::avx512_bf16, WeightFormat::bfp8_b, 1536, 64).k_block, 256);
}

TEST(GemmBlocking, KBlockStaysOnItsGridAndBounds) {
  for (Isa isa : {Isa::portable, Isa::avx2, Isa::avx512_bf16})
    for (WeightFormat f : {WeightFormat::fp32, WeightFormat::bf16, WeightFormat::bfp8_b, WeightFormat::int8})
      for (std::size_t l1 : {std::size_t(1) << 10, std::size_t(32) << 10, std::size_t(48) << 10, std::size_t(4) << 20}) {
        const CacheSizes c{l1, 1 << 20, 0, "test"};
        const GemmBlocking b = derive_gemm_blocking(c, isa, f, 6144, 64);
        EXPECT_EQ(b.k_block % kGemmBlockKStep, 0);
        EXPECT_GE(b.k_block, kGemmBlockKStep);
        EXPECT_LE(b.k_block, gemm_reads_in_place(isa, f) ? 6144 : kGemmMaxBufferedBlockK);
        // More L1 never gives a smaller block.
        const GemmBlocking twice = derive_gemm_blocking({2 * l1, 1 << 20, 0, "test"}, isa, f, 6144, 64);
        EXPECT_GE(twice.k_block, b.k_block);
        // More rows of x never give a larger block, and blocks cut K evenly up to the grid.
        for (int64_t rows : {1, 16, 49, 64}) {
          const GemmBlocking fewer = derive_gemm_blocking(c, isa, f, 6144, rows);
          EXPECT_GE(fewer.k_block, b.k_block) << rows << " rows";
          const int64_t blocks = (6144 + fewer.k_block - 1) / fewer.k_block;
          EXPECT_LT(blocks * fewer.k_block - 6144, blocks * kGemmBlockKStep) << rows << " rows";
        }
      }
  // A K shorter than the block is one block, rounded up to the grid.
  EXPECT_EQ(derive_gemm_blocking(kZen5, Isa::avx512_bf16, WeightFormat::bf16, 48, 64).k_block, 64);
}

TEST(GemmBlocking, ColumnBlockFromL2) {
  const Tensor src = random_tensor(DType::F32, {4096, 2048}, 900, 0.02f);
  const PackedWeights w = PackedWeights::pack(src.view(), WeightLayout::out_in, WeightFormat::bf16);
  // One call takes every row: the whole range at once.
  EXPECT_EQ(derive_column_block_panels(kZen5, Isa::avx512_bf16, w, 49), w.panels());
  // 300 rows on 1 MiB of L2: a 64-row x of 2048 bf16 (266 KiB) leaves 758 KiB, 3/4 of it 568 KiB,
  // four 128 KiB panels.
  EXPECT_EQ(derive_column_block_panels(kZen5, Isa::avx512_bf16, w, 300), 4);
  // AVX2's float x (533 KiB) on Zen 3's 512 KiB L2 leaves nothing: one panel at a time.
  EXPECT_EQ(derive_column_block_panels(kZen3, Isa::avx2, w, 300), 1);
}

TEST(GemmBlocking, ParsesOverride) {
  const GemmBlockingOverride o = parse_gemm_blocking_override("k_block=64,prefetch_blocks=3,column_block_panels=2");
  EXPECT_EQ(o.k_block, 64);
  EXPECT_EQ(o.prefetch_blocks, 3);
  EXPECT_EQ(o.column_block_panels, 2);
  EXPECT_EQ(parse_gemm_blocking_override("prefetch_blocks=1").k_block, 0);
  for (const char* bad : {"k_block", "k_block=48", "k_block=2097152", "k_block=-32", "k_block=6x", "tile=4", "prefetch_blocks=0"})
    EXPECT_THROW(parse_gemm_blocking_override(bad), Error) << bad;
}

// The blocking changes only the speed: every kernel gives the same bits at every k_block and
// prefetch distance (the K order of the sums is fixed), for every format and ISA.
TEST(GemmBlocking, ResultsDoNotDependOnBlocking) {
  const int64_t m = 49, k = 1000, n = 96;
  const std::vector<float> x = random_normal(std::size_t(m * k), 910);
  const std::vector<float> bias = random_normal(std::size_t(n), 911, 0.5f);
  const Tensor src = random_tensor(DType::F32, {n, k}, 912, 1.0f / std::sqrt(float(k)));
  // {1024, 1}: the whole padded K in one block, for the kernels that read their blocks in place.
  const GemmBlocking blockings[] = {{32, 1}, {64, 2}, {128, 2}, {192, 3}, {256, 2}, {512, 1}, {1024, 1}};
  for (WeightFormat f : {WeightFormat::fp32, WeightFormat::bf16, WeightFormat::bfp8_b, WeightFormat::int8}) {
    const PackedWeights w = PackedWeights::pack(src.view(), WeightLayout::out_in, f);
    Tensor scratch(DType::U8, {int64_t(gemm_scratch_bytes(w, m)) + 64});
    GemmArgs a;
    a.x = x.data(), a.x_stride = k, a.m = m, a.weights = &w, a.bias = bias.data(), a.y_stride = n, a.n_end = n;
    a.scratch = const_cast<std::byte*>(scratch.bytes()), a.scratch_bytes = scratch.nbytes();
    a.activation = Activation::relu;
    for (Isa isa : supported_isas()) {
      std::vector<float> derived(std::size_t(m * n));
      a.y = derived.data(), a.blocking = {};
      gemm(a, isa);
      for (const GemmBlocking& b : blockings) {
        if (b.k_block > kGemmMaxBufferedBlockK && !gemm_reads_in_place(isa, f)) continue;
        std::vector<float> y(derived.size());
        a.y = y.data(), a.blocking = b;
        gemm(a, isa);
        EXPECT_EQ(std::memcmp(y.data(), derived.data(), y.size() * sizeof(float)), 0)
            << isa_name(isa) << " " << weight_format_name(f) << " " << describe(b);
      }
    }
    if (f != WeightFormat::int8) continue;
    for (Int8Dot dot : supported_int8_dots()) {
      std::vector<float> derived(std::size_t(m * n));
      a.y = derived.data(), a.blocking = {};
      gemm_int8(a, dot);
      for (const GemmBlocking& b : blockings) {
        std::vector<float> y(derived.size());
        a.y = y.data(), a.blocking = b;
        gemm_int8(a, dot);
        EXPECT_EQ(std::memcmp(y.data(), derived.data(), y.size() * sizeof(float)), 0) << int8_dot_name(dot) << " " << describe(b);
      }
    }
  }
}

TEST(GemmBlocking, RejectsBlockingOffItsGrid) {
  const Tensor src = random_tensor(DType::F32, {32, 64}, 920);
  const PackedWeights w = PackedWeights::pack(src.view(), WeightLayout::out_in, WeightFormat::bf16);
  const std::vector<float> x(64, 1.0f);
  std::vector<float> y(32);
  Tensor scratch(DType::U8, {int64_t(gemm_scratch_bytes(w, 1)) + 64});
  GemmArgs a;
  a.x = x.data(), a.x_stride = 64, a.m = 1, a.weights = &w, a.y = y.data(), a.y_stride = 32, a.n_end = 32;
  a.scratch = const_cast<std::byte*>(scratch.bytes()), a.scratch_bytes = scratch.nbytes();
  for (const GemmBlocking& b : {GemmBlocking{48, 2}, GemmBlocking{kGemmMaxBlockK * 2, 1}, GemmBlocking{64, 0}}) {
    a.blocking = b;
    EXPECT_THROW(gemm(a), Error) << describe(b);
  }
  // The portable kernel widens bf16 into its stack buffer: no block above the buffer's size.
  a.blocking = {kGemmMaxBufferedBlockK * 2, 1};
  EXPECT_THROW(gemm(a, Isa::portable), Error);
}

}  // namespace
}  // namespace ditmk::cpu
