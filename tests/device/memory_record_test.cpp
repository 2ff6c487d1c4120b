// The emulator's recording of every shared and global load and store
// (device/emu/memory_record.hpp): what is recorded (address, size, thread, line, value), what is
// not (locals, coop's own copies and atomics), that it can be switched off, and the analysis of
// real kernels with the hardware's numbers.
#include <gtest/gtest.h>

#include <fstream>
#include <numeric>
#include <sstream>
#include <string>
#include <utility>

#include "device/emu/memory_record.hpp"
#include "device/trace/compare.hpp"
#include "device/trace/memory_access.hpp"
#include "tests/kernels/memory/kernels.hpp"
#include "tests/support.hpp"

namespace coop {
namespace {

const lessons::memory::Kernels& memory_kernels() {
  return lessons::memory::kernels();
}

// The line of memory.cuh whose comment says "mark: <name>".
uint16_t marked_line(const std::string& name) {
  std::ifstream in(std::string(COOPVIZ_SOURCE_DIR) + "/tests/kernels/memory/memory.cuh");
  std::string text;
  for (uint16_t line = 1; std::getline(in, text); ++line)
    if (text.ends_with("// mark: " + name)) return line;
  ADD_FAILURE() << "no line marked " << name;
  return 0;
}

std::unique_ptr<Executor> recording_emulator() {
  auto exec = testing::emulator();
  exec->options().record_memory = true;
  return exec;
}

std::vector<const Event*> instrumented(const Trace& t, EventKind kind, uint16_t line) {
  std::vector<const Event*> out;
  for (const Event& e : t.events)
    if ((e.flags & kFlagInstrumented) && e.kind == kind && e.line == line) out.push_back(&e);
  return out;
}

const LineMemoryStats* stats_of(const std::vector<LineMemoryStats>& all, uint16_t line,
                                MemorySpace space, bool store) {
  for (const LineMemoryStats& s : all)
    if (s.line == line && s.space == space && s.store == store) return &s;
  return nullptr;
}

LaunchConfig one_block(Dim3 block) {
  LaunchConfig c;
  c.grid = {1, 1, 1};
  c.block = block;
  return c;
}

// One block of 64 threads through sizes_and_copies, with its buffers kept for the checks.
struct SizesAndCopies {
  std::unique_ptr<Executor> exec = recording_emulator();
  DeviceArray<unsigned char> bytes =
      std::move(*DeviceArray<unsigned char>::create(*exec, 64, "bytes"));
  DeviceArray<short> halves = std::move(*DeviceArray<short>::create(*exec, 64, "halves"));
  DeviceArray<double> doubles = std::move(*DeviceArray<double>::create(*exec, 64, "doubles"));
  DeviceArray<int> ints = std::move(*DeviceArray<int>::create(*exec, 64, "ints"));
  DeviceArray<int> counter = std::move(*DeviceArray<int>::create(*exec, 1, "counter"));
  std::vector<int> source = std::vector<int>(64);
  Trace trace;

  Status run() {
    std::iota(source.begin(), source.end(), 100);
    if (Status s = ints.upload(source); !s) return s;
    return exec->launch(memory_kernels().sizes_and_copies, one_block({64, 1, 1}), trace,
                        bytes.get(), halves.get(), doubles.get(), ints.get(), counter.get());
  }
};

class MemoryRecord : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!emu::memory_instrumentation_available())
      GTEST_SKIP() << "this build's kernels are not instrumented (a sanitizer build)";
  }
};

TEST_F(MemoryRecord, ConsecutiveFloatsAreFourSectorsPerRequest) {
  auto exec = recording_emulator();
  auto in = DeviceArray<float>::create(*exec, 64, "in");
  auto out = DeviceArray<float>::create(*exec, 64, "out");
  std::vector<float> values(64);
  std::iota(values.begin(), values.end(), 1.0f);
  ASSERT_TRUE(in->upload(values).ok());
  Trace trace;
  ASSERT_TRUE(exec->launch(memory_kernels().copy_consecutive, one_block({64, 1, 1}), trace,
                           in->get(), out->get())
                  .ok());
  EXPECT_EQ(*out->download(), values);
  const uint16_t line = marked_line("consecutive");
  const auto loads = instrumented(trace, EventKind::Load, line);
  const auto stores = instrumented(trace, EventKind::Store, line);
  ASSERT_EQ(loads.size(), 64u);
  ASSERT_EQ(stores.size(), 64u);
  for (const Event* e : loads) {
    EXPECT_EQ(e->extra, 4u);
    EXPECT_EQ(e->address, reinterpret_cast<uint64_t>(in->get() + e->thread));
    EXPECT_EQ(from_bits<float>(e->b), values[e->thread]);
    EXPECT_EQ(e->value_type, ValueType::F32) << "the buffer's element type";
  }
  const auto stats = analyze_memory(trace);
  const LineMemoryStats* load = stats_of(stats, line, MemorySpace::Global, false);
  const LineMemoryStats* store = stats_of(stats, line, MemorySpace::Global, true);
  ASSERT_TRUE(load && store);
  EXPECT_EQ(load->requests, 2u);
  EXPECT_DOUBLE_EQ(load->sectors_per_request(), 4.0);
  EXPECT_DOUBLE_EQ(store->sectors_per_request(), 4.0);
}

TEST_F(MemoryRecord, EveryThirtySecondFloatIsThirtyTwoSectorsPerRequest) {
  auto exec = recording_emulator();
  auto in = DeviceArray<float>::create(*exec, 32 * 32, "in");
  auto out = DeviceArray<float>::create(*exec, 32, "out");
  Trace trace;
  ASSERT_TRUE(exec->launch(memory_kernels().copy_strided, one_block({32, 1, 1}), trace, in->get(),
                           out->get())
                  .ok());
  const auto stats = analyze_memory(trace);
  const uint16_t line = marked_line("strided");
  const LineMemoryStats* load = stats_of(stats, line, MemorySpace::Global, false);
  ASSERT_TRUE(load);
  EXPECT_EQ(load->requests, 1u);
  EXPECT_DOUBLE_EQ(load->sectors_per_request(), 32.0);
}

// The transposed read of a 32x32 tile: 32-way without padding, conflict-free with it.
uint32_t column_ways(unsigned stride, uint64_t* requests) {
  auto exec = recording_emulator();
  auto out = DeviceArray<float>::create(*exec, 32 * 32, "out");
  Trace trace;
  EXPECT_TRUE(exec->launch(memory_kernels().tile_by_column, one_block({32, 32, 1}), trace,
                           out->get(), stride)
                  .ok());
  std::vector<float> got = *out->download();
  for (unsigned y = 0; y < 32; ++y)
    for (unsigned x = 0; x < 32; ++x) EXPECT_EQ(got[y * 32 + x], float(x * 32 + y));
  const auto stats = analyze_memory(trace);
  const LineMemoryStats* s =
      stats_of(stats, marked_line("tile column"), MemorySpace::Shared, false);
  if (!s) return 0;
  *requests = s->requests;
  return s->bank_conflict_ways;
}

TEST_F(MemoryRecord, TileReadByColumnIsThirtyTwoWay) {
  uint64_t requests = 0;
  EXPECT_EQ(column_ways(32, &requests), 32u);
  EXPECT_EQ(requests, 32u);
}

TEST_F(MemoryRecord, PaddedTileReadByColumnIsOneWay) {
  uint64_t requests = 0;
  EXPECT_EQ(column_ways(33, &requests), 1u);
  EXPECT_EQ(requests, 32u);
}

TEST_F(MemoryRecord, BroadcastIsOneWayAndSharedAddressesAreOffsets) {
  auto exec = recording_emulator();
  auto out = DeviceArray<int>::create(*exec, 32, "out");
  Trace trace;
  ASSERT_TRUE(
      exec->launch(memory_kernels().broadcast, one_block({32, 1, 1}), trace, out->get()).ok());
  const auto stores = instrumented(trace, EventKind::Store, marked_line("broadcast store"));
  ASSERT_EQ(stores.size(), 1u);
  EXPECT_TRUE(stores[0]->flags & kFlagShared);
  EXPECT_EQ(stores[0]->thread, 0u);
  EXPECT_EQ(stores[0]->a, 42u);
  const uint64_t offset = stores[0]->address;
  const auto loads = instrumented(trace, EventKind::Load, marked_line("broadcast load"));
  ASSERT_EQ(loads.size(), 32u);
  for (const Event* e : loads) {
    EXPECT_TRUE(e->flags & kFlagShared);
    EXPECT_EQ(e->address, offset);
    EXPECT_EQ(e->b, 42u);
  }
  const LineMemoryStats* s =
      stats_of(analyze_memory(trace), marked_line("broadcast load"), MemorySpace::Shared, false);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->bank_conflict_ways, 1u);
}

TEST_F(MemoryRecord, StoresCarryTheirValuesSizesThreadsAndLines) {
  SizesAndCopies k;
  ASSERT_TRUE(k.run().ok());
  const Trace& trace = k.trace;
  const auto byte_stores = instrumented(trace, EventKind::Store, marked_line("byte store"));
  const auto half_stores = instrumented(trace, EventKind::Store, marked_line("half store"));
  const auto double_stores = instrumented(trace, EventKind::Store, marked_line("double store"));
  ASSERT_EQ(byte_stores.size(), 64u);
  ASSERT_EQ(half_stores.size(), 64u);
  ASSERT_EQ(double_stores.size(), 64u);
  for (const Event* e : byte_stores) {
    EXPECT_EQ(e->extra, 1u);
    EXPECT_EQ(e->a, e->thread + 1);
    EXPECT_EQ(e->address, reinterpret_cast<uint64_t>(k.bytes.get() + e->thread));
  }
  for (const Event* e : half_stores) {
    EXPECT_EQ(e->extra, 2u);
    EXPECT_EQ(uint16_t(e->a), uint16_t(-int(e->thread) - 1));
  }
  for (const Event* e : double_stores) {
    EXPECT_EQ(e->extra, 8u);
    EXPECT_EQ(from_bits<double>(e->a), 0.5 * e->thread);
  }
  // Each thread's stores come in its program order, before its copy.
  for (uint32_t t = 0; t < 64; ++t) {
    std::vector<uint16_t> order;
    for (const Event& e : trace.events)
      if (e.thread == t && (e.kind == EventKind::Store || e.kind == EventKind::CopyIssue))
        order.push_back(e.line);
    ASSERT_GE(order.size(), 4u);
    EXPECT_EQ(order[0], marked_line("byte store"));
    EXPECT_EQ(order[1], marked_line("half store"));
    EXPECT_EQ(order[2], marked_line("double store"));
    EXPECT_EQ(order[3], marked_line("copy"));
  }
}

TEST_F(MemoryRecord, LocalsCopiesAndAtomicsAreNotRecordedAsLoadsOrStores) {
  SizesAndCopies k;
  ASSERT_TRUE(k.run().ok());
  const Trace& trace = k.trace;
  int expected = 0;
  for (int t = 0; t < 64; ++t) expected += k.source[t] + t + 3;
  EXPECT_EQ((*k.counter.download())[0], expected);
  uint64_t copies = 0, atomics = 0;
  for (const Event& e : trace.events) {
    const bool access = e.kind == EventKind::Load || e.kind == EventKind::Store;
    if (access) {
      EXPECT_NE(e.line, marked_line("local")) << "a local array was recorded";
      EXPECT_NE(e.line, marked_line("copy")) << "memcpy_async's copy was recorded twice";
      EXPECT_NE(e.line, marked_line("atomic")) << "an atomic was recorded as a load or store";
      // Everything recorded lies in shared memory or in one of the five buffers.
      if (!(e.flags & kFlagShared)) {
        bool known = false;
        for (const BufferInfo& b : k.exec->buffers())
          known = known || (e.address >= b.base && e.address + e.extra <= b.base + b.bytes);
        EXPECT_TRUE(known) << "address " << e.address << " at line " << e.line;
      }
    }
    copies += e.kind == EventKind::CopyIssue;
    atomics += e.kind == EventKind::Atomic;
  }
  EXPECT_EQ(copies, 64u);
  EXPECT_EQ(atomics, 64u);
  // The copied values are read from shared memory once each, where the kernel reads them.
  const auto staged_reads = instrumented(trace, EventKind::Load, marked_line("staged read"));
  ASSERT_EQ(staged_reads.size(), 64u);
  for (const Event* e : staged_reads) {
    EXPECT_TRUE(e->flags & kFlagShared);
    EXPECT_EQ(e->b, uint64_t(k.source[e->thread]));
  }
  uint64_t shared_reads = 0;
  for (const Event& e : trace.events)
    shared_reads += e.kind == EventKind::Load && (e.flags & kFlagShared);
  EXPECT_EQ(shared_reads, 64u);
}

TEST_F(MemoryRecord, OffByDefaultAndWithoutATrace) {
  auto exec = testing::emulator();
  EXPECT_FALSE(exec->options().record_memory);
  auto out = DeviceArray<int>::create(*exec, 32, "out");
  Trace plain;
  ASSERT_TRUE(
      exec->launch(memory_kernels().broadcast, one_block({32, 1, 1}), plain, out->get()).ok());
  for (const Event& e : plain.events) EXPECT_FALSE(e.flags & kFlagInstrumented);
  exec->options().record_memory = true;
  exec->options().trace = false;
  Trace untraced;
  ASSERT_TRUE(
      exec->launch(memory_kernels().broadcast, one_block({32, 1, 1}), untraced, out->get()).ok());
  EXPECT_TRUE(untraced.events.empty());
}

TEST_F(MemoryRecord, ComparisonLeavesOutWhatOnlyTheEmulatorRecords) {
  auto plain_exec = testing::emulator();
  auto exec = recording_emulator();
  auto out = DeviceArray<int>::create(*exec, 32, "out");
  Trace with, without;
  ASSERT_TRUE(
      exec->launch(memory_kernels().broadcast, one_block({32, 1, 1}), with, out->get()).ok());
  ASSERT_TRUE(
      plain_exec->launch(memory_kernels().broadcast, one_block({32, 1, 1}), without, out->get())
          .ok());
  ASSERT_GT(with.events.size(), without.events.size());
  const TraceDiff diff = compare_deterministic(without, with);
  EXPECT_TRUE(diff.equal()) << (diff.examples.empty() ? "" : diff.examples.front());
  EXPECT_EQ(diff.one_backend_only, with.events.size() - without.events.size());
}

}  // namespace
}  // namespace coop
