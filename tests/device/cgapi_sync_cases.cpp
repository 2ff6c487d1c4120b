// Feature cases for synchronization and memory: invoke_one, block/grid/cluster barriers,
// memcpy_async and atomics.
#include <algorithm>
#include <numeric>

#include "tests/device/cgapi_cases.hpp"

namespace coop::testing {
namespace {

using namespace cases;
using lessons::cgapi::Kernels;

FeatureCase invoke_case() {
  const LaunchConfig c = config({2, 1, 1}, {128, 1, 1});
  return {"InvokeOne", false,
          [c](Executor& e) {
            auto ran = DeviceArray<int>::create(e, 128, "ran");
            ran->zero();
            Outcome o = run_slots(e, c, false, [&](int* out, float*, Trace& t) {
              return e.launch(kernels().invoke, c, t, out, ran->get());
            });
            if (o.status) o.aux = *ran->download();
            return o;
          },
          [](const Outcome& o) {
            Checker k(o);
            for (size_t id = 0; id < 256; ++id) {
              const int* s = &o.out[id * S];
              k.that(s[0] >= 1000 && s[0] < 1032, "tile broadcast out of range");
              k.that(s[0] == o.out[(id / 32 * 32) * S], "members of one tile got different broadcasts");
              if (id % 2 == 0) {
                k.that(s[1] >= 2000 && s[1] < 2016, "coalesced broadcast out of range");
                k.that(s[1] == o.out[(id / 32 * 32) * S + 1], "coalesced members disagree");
              }
            }
            for (int b = 0; b < 2; ++b) {
              k.that(o.aux[b * 64] >= 1 && o.aux[b * 64] <= 128, "block invoke_one ran on no thread");
              for (int t = 0; t < 4; ++t)
                k.that(o.aux[b * 64 + 1 + t] >= 1 && o.aux[b * 64 + 1 + t] <= 32, "tile invoke_one ran on no thread");
            }
            // One InvokeOne event per member and call; exactly one member of each group was chosen.
            int chosen = 0, events = 0;
            for (const Event& e : o.trace.events)
              if (e.kind == EventKind::InvokeOne) {
                ++events;
                chosen += int(e.a);
                k.that(e.extra < e.group_size, "chosen rank outside the group");
                k.that((e.a != 0) == (e.rank == e.extra), "the chosen flag disagrees with the chosen rank");
              }
            // block: 2 blocks; tile broadcast: 8 tiles; coalesced: 8 warps; tile invoke: 8 tiles.
            k.that(chosen == 2 + 8 + 8 + 8, "chosen threads: " + std::to_string(chosen));
            k.that(events == 256 * 3 + 128, "InvokeOne events: " + std::to_string(events));
            return k.result();
          }};
}

FeatureCase block_barriers_case() {
  const LaunchConfig c = config({2, 1, 1}, {256, 1, 1});
  return {"BlockBarriers", false,
          [c](Executor& e) {
            return run_slots(e, c, false, [&](int* out, float*, Trace& t) {
              return e.launch(kernels().block_barriers, c, t, out);
            });
          },
          [](const Outcome& o) {
            auto f = [](auto fn) { return std::function<int(size_t)>(fn); };
            Checker k(o);
            k.slot(o.out, 0, f([](size_t i) { return int((i % 256 + 1) % 256 * 3); }), "after sync")
                .slot(o.out, 1, f([](size_t i) { return int(i % 256 * 7); }), "between arrive and wait")
                .slot(o.out, 2, f([](size_t i) { return int((i % 256 + 2) % 256 * 5); }), "after barrier_wait");
            uint32_t arrive = 0, wait = 0, max_phase = 0;
            for (const Event& e : o.trace.events) {
              arrive += e.kind == EventKind::BarrierArrive;
              wait += e.kind == EventKind::BarrierWait;
              if (e.kind == EventKind::Barrier) max_phase = std::max(max_phase, e.extra);
              if (e.kind == EventKind::BarrierWait) k.that(e.extra == 3, "split barrier is the block's 3rd phase");
            }
            k.that(arrive == 512 && wait == 512, "one arrive and one wait per thread");
            k.that(max_phase == 4, "sync, __syncthreads, split barrier, cg::sync: four phases");
            return k.result();
          }};
}

FeatureCase grid_barriers_case() {
  const LaunchConfig c = config({4, 1, 1}, {64, 1, 1}, LaunchMode::Cooperative);
  return {"GridBarriers", false,
          [c](Executor& e) {
            auto data = DeviceArray<int>::create(e, 256, "data");
            return run_slots(e, c, false, [&](int* out, float*, Trace& t) {
              return e.launch(kernels().grid_barriers, c, t, data->get(), out);
            });
          },
          [](const Outcome& o) {
            auto f = [](auto fn) { return std::function<int(size_t)>(fn); };
            return Checker(o)
                .slot(o.out, 0, f([](size_t i) { return int((i + 1) % 256 * 2); }), "after grid.sync")
                .slot(o.out, 1, f([](size_t) { return 1; }), "grid.is_valid()")
                .slot(o.out, 2, f([](size_t i) { return int((i + 7) % 256 * 3); }), "after grid barrier_wait")
                .result();
          }};
}

FeatureCase cluster_case() {
  LaunchConfig c = config({4, 1, 1}, {64, 1, 1}, LaunchMode::Cluster);
  c.cluster = {2, 1, 1};
  return {"ClusterSharedMemory", true,
          [c](Executor& e) {
            return run_slots(e, c, false, [&](int* out, float*, Trace& t) {
              return e.launch(kernels().cluster_dsmem, c, t, out);
            });
          },
          [](const Outcome& o) {
            auto f = [](auto fn) { return std::function<int(size_t)>(fn); };
            Checker k(o);
            k.slot(o.out, 0, f([](size_t i) {
                     const int rank = int(i / 64 % 2);
                     return (rank + 1) % 2 * 100 + int((i % 64 + 1) % 64);
                   }), "a peer block's shared memory")
                .slot(o.out, 1, f([](size_t i) { return int(i / 64 % 2) + 200; }), "cluster block rank")
                .slot(o.out, 2, f([](size_t i) { return int(i % 128) + 128000; }), "cluster thread rank")
                .slot(o.out, 3, f([](size_t i) { return int((i / 64 + 1) % 2); }), "query_shared_rank");
            for (const Event& e : o.trace.events)
              if (e.group_kind == GroupKind::Cluster) k.that(e.group_id == e.thread / 128, "cluster id");
            return k.result();
          }};
}

FeatureCase async_copy_case() {
  const LaunchConfig c = config({2, 1, 1}, {128, 1, 1});
  std::vector<int> in(512);
  std::iota(in.begin(), in.end(), 1000);
  return {"MemcpyAsync", false,
          [c, in](Executor& e) {
            auto src = DeviceArray<int>::create(e, in.size(), "in");
            src->upload(in);
            return run_slots(e, c, false, [&](int* out, float*, Trace& t) {
              return e.launch(kernels().async_copy, c, t, src->get(), out);
            });
          },
          [in](const Outcome& o) {
            auto f = [](auto fn) { return std::function<int(size_t)>(fn); };
            Checker k(o);
            k.slot(o.out, 0, f([&](size_t i) { return in[i / 128 * 256 + (i % 128 * 7) % 128]; }), "first copy")
                .slot(o.out, 1, f([&](size_t i) { return in[i / 128 * 256 + 128 + (i % 128 * 5) % 128]; }), "second copy")
                .slot(o.out, 2, f([&](size_t i) { return in[i / 128 * 256 + 128 + i % 32]; }), "tile copy");
            int issues = 0, waits = 0;
            for (const Event& e : o.trace.events) {
              issues += e.kind == EventKind::CopyIssue;
              waits += e.kind == EventKind::CopyWait;
            }
            k.that(issues == 256 * 3 && waits == 256 * 3, "copy issue and wait events");
            return k.result();
          }};
}

FeatureCase atomics_case() {
  const LaunchConfig c = config({4, 1, 1}, {128, 1, 1});
  return {"Atomics", false,
          [c](Executor& e) {
            Outcome o;
            auto counters = DeviceArray<int>::create(e, 8, "counters");
            auto fsum = DeviceArray<float>::create(e, 1, "fsum");
            auto bits = DeviceArray<unsigned>::create(e, 1, "bits");
            auto tickets = DeviceArray<int>::create(e, 4096 + 512, "tickets");
            counters->upload({0, 0, 1 << 30, -1, -1, 0, 0, 0});
            fsum->zero();
            bits->zero();
            o.status = e.launch(kernels().atomics, c, o.trace, counters->get(), fsum->get(),
                                bits->get(), tickets->get());
            if (!o.status) return o;
            o.out = *counters->download();
            o.fout = *fsum->download();
            o.bits = *bits->download();
            o.aux = *tickets->download();
            return o;
          },
          [](const Outcome& o) {
            Checker k(o);
            if (!o.status) return k.result();
            int lo = 1 << 30, hi = -1;
            for (int i = 0; i < 512; ++i) {
              lo = std::min(lo, (i * 37 + 11) % 101);
              hi = std::max(hi, (i * 37 + 11) % 101);
            }
            k.that(o.out[0] == 512, "atomicAdd total").that(o.out[1] == -1024, "atomicSub total");
            k.that(o.out[2] == lo && o.out[3] == hi, "atomicMin/atomicMax");
            k.that(o.out[4] >= 0 && o.out[4] < 512, "atomicExch leaves one thread's id");
            k.that(o.out[5] >= 1 && o.out[5] <= 512, "atomicCAS: the first thread's id + 1");
            k.that(o.out[6] == 49 && o.out[7] == 1, "atomic_ref fetch_max / compare_exchange");
            k.that(o.fout[0] == 256.0f, "atomic_ref<float> fetch_add");
            k.that(o.bits[0] == 0xffffffffu, "cuda::std::atomic_ref fetch_or");
            std::vector<int> t(o.aux.begin(), o.aux.begin() + 512);
            std::sort(t.begin(), t.end());
            for (int i = 0; i < 512; ++i) k.that(t[size_t(i)] == i, "every atomicAdd ticket once");
            int cas_winners = 0;
            for (int i = 0; i < 512; ++i) cas_winners += o.aux[4096 + size_t(i)] == 0;
            k.that(cas_winners == 1, "exactly one atomicCAS saw 0");
            int scoped = 0;
            for (const Event& e : o.trace.events)
              if (e.kind == EventKind::Atomic && e.op == Op::AtomicMax && (e.flags & kFlagScopeBlock))
                scoped += (e.flags & kFlagOrderAcquire) && (e.flags & kFlagOrderRelease);
            k.that(scoped == 512, "atomic_ref<int, block> fetch_max recorded scope and acq_rel order");
            return k.result();
          }};
}

}  // namespace

void add_sync_cases(std::vector<FeatureCase>& cases) {
  cases.push_back(invoke_case());
  cases.push_back(block_barriers_case());
  cases.push_back(grid_barriers_case());
  cases.push_back(cluster_case());
  cases.push_back(async_copy_case());
  cases.push_back(atomics_case());
}

}  // namespace coop::testing
