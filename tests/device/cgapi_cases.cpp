#include "tests/device/cgapi_cases.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <functional>
#include <numeric>
#include <sstream>

#include "tests/device/cgapi_reference.hpp"
#include "tests/kernels/cgapi/kernels.hpp"

namespace coop::testing {
namespace {

using namespace cases;
using lessons::cgapi::Kernels;

int plus_i(int a, int b) { return a + b; }
float plus_f(float a, float b) { return a + b; }
int less_i(int a, int b) { return b < a ? b : a; }
float less_f(float a, float b) { return b < a ? b : a; }
int greater_i(int a, int b) { return a < b ? b : a; }

// [SECTION] Cases

FeatureCase accessors_case() {
  const LaunchConfig c = config({2, 3, 1}, {8, 4, 1}, LaunchMode::Cooperative);
  return {"Accessors", false,
          [c](Executor& e) {
            return run_slots(e, c, false, [&](int* out, float*, Trace& t) {
              return e.launch(kernels().accessors, c, t, out);
            });
          },
          [c](const Outcome& o) {
            auto f = [&](auto fn) { return std::function<int(size_t)>(fn); };
            return Checker(o)
                .slot(o.out, 0, f([](size_t i) { return int(i % 32); }), "block.thread_rank()")
                .slot(o.out, 1, f([](size_t) { return 32; }), "block.num_threads()")
                .slot(o.out, 2, f([](size_t i) { return int(i % 8 + 100 * (i % 32 / 8)); }), "thread_index")
                .slot(o.out, 3, f([](size_t) { return 8 + 400; }), "dim_threads")
                .slot(o.out, 4, f([](size_t i) { return int(i / 32 % 2 + 100 * (i / 64)); }), "group_index")
                .slot(o.out, 5, f([](size_t i) { return int(i); }), "grid.thread_rank()")
                .slot(o.out, 6, f([](size_t) { return 192; }), "grid.num_threads()")
                .slot(o.out, 7, f([](size_t i) { return int(i / 32); }), "grid.block_rank()")
                .slot(o.out, 8, f([](size_t) { return 6; }), "grid.num_blocks()")
                .slot(o.out, 9, f([](size_t i) { return int(i / 32 % 2 + 100 * (i / 64)); }), "block_index")
                .slot(o.out, 10, f([](size_t) { return 2 + 300; }), "dim_blocks")
                .slot(o.out, 11, f([](size_t i) {
                        return int(i / 32 % 2 * 8 + i % 8 + 100 * (i / 64 * 4 + i % 32 / 8));
                      }), "grid.thread_index")
                .slot(o.out, 12, f([](size_t) { return 16 + 1200; }), "grid.dim_threads")
                .slot(o.out, 13, f([](size_t) { return 1; }), "grid.is_valid()")
                .slot(o.out, 14, f([](size_t i) { return int(i % 32) + 32000; }), "thread_rank/group_size")
                .result();
          }};
}

FeatureCase tiles_case() {
  const LaunchConfig c = config({2, 1, 1}, {256, 1, 1});
  return {"Tiles", false,
          [c](Executor& e) {
            return run_slots(e, c, false, [&](int* out, float*, Trace& t) {
              return e.launch(kernels().tiles, c, t, out);
            });
          },
          [](const Outcome& o) {
            auto f = [](auto fn) { return std::function<int(size_t)>(fn); };
            Checker k(o);
            k.slot(o.out, 0, f([](size_t i) { int r = i % 256; return r % 32 + 100 * (r / 32) + 80000; }), "tile<32>")
                .slot(o.out, 1, f([](size_t i) { int r = i % 32; return r % 16 + 100 * (r / 16) + 20000; }), "tile<16> of tile<32>")
                .slot(o.out, 2, f([](size_t i) { int r = i % 256; return r % 64 + 100 * (r / 64) + 40000; }), "tile<64>")
                .slot(o.out, 3, f([](size_t i) { int r = i % 256; return r % 128 + 1000 * (r / 128) + 20000; }), "tile<128>")
                .slot(o.out, 4, f([](size_t i) { return int(i % 8) + 800; }), "tiled_partition(block, 8)")
                .slot(o.out, 5, f([](size_t i) { return int(i % 4) + 400; }), "tiled_partition(tile8, 4)");
            // Every thread records each group it joined, with its meta group.
            int creates = 0;
            for (const Event& e : o.trace.events)
              if (e.kind == EventKind::GroupCreate && e.group_kind == GroupKind::Tile) {
                ++creates;
                k.that(e.rank < e.group_size, "a tile rank outside its tile");
                if (e.group_size == 64)
                  k.that(meta_rank_of(e.extra) == (e.thread % 256) / 64 && meta_size_of(e.extra) == 4,
                         "tile<64> meta group in the trace");
              }
            k.that(creates == 6 * 512, "expected six tile creations per thread, got " + std::to_string(creates));
            return k.result();
          }};
}

FeatureCase tile_collectives_case() {
  const LaunchConfig c = config({2, 1, 1}, {128, 1, 1});
  return {"TileCollectives", false,
          [c](Executor& e) {
            return run_slots(e, c, false, [&](int* out, float*, Trace& t) {
              return e.launch(kernels().tile_collectives, c, t, out);
            });
          },
          [](const Outcome& o) {
            auto f = [](auto fn) { return std::function<int(size_t)>(fn); };
            auto v = [](size_t i) { return value_of(int(i)); };
            auto ballot = [&](size_t i, size_t n, auto pred) {
              unsigned b = 0;
              const size_t base = i / n * n;
              for (size_t l = 0; l < n; ++l)
                if (pred(v(base + l))) b |= 1u << l;
              return int(b);
            };
            return Checker(o)
                .slot(o.out, 0, f([&](size_t i) { return v(i / 32 * 32 + 5); }), "shfl")
                .slot(o.out, 1, f([&](size_t i) { return i % 32 >= 3 ? v(i - 3) : v(i); }), "shfl_up")
                .slot(o.out, 2, f([&](size_t i) { return i % 32 + 4 < 32 ? v(i + 4) : v(i); }), "shfl_down")
                .slot(o.out, 3, f([&](size_t i) { return v(i / 32 * 32 + (i % 32 ^ 9)); }), "shfl_xor")
                .slot(o.out, 4, f([&](size_t i) { return v(i / 8 * 8 + (i % 8 ^ 2)); }), "tile<8> shfl_xor")
                .slot(o.out, 5, f([&](size_t i) {
                        int any = 0, all8 = 1;
                        for (size_t l = 0; l < 32; ++l) any |= v(i / 32 * 32 + l) == 7;
                        for (size_t l = 0; l < 8; ++l) all8 &= v(i / 8 * 8 + l) > 3;
                        return any + 2 + 4 * all8;
                      }), "any/all")
                .slot(o.out, 6, f([&](size_t i) { return ballot(i, 32, [](int x) { return x % 2 == 0; }); }), "ballot")
                .slot(o.out, 7, f([&](size_t i) { return ballot(i, 8, [](int x) { return x > 10; }); }), "tile<8> ballot")
                .slot(o.out, 8, f([&](size_t i) { return ballot(i, 32, [&](int x) { return x % 4 == v(i) % 4; }); }), "match_any")
                .slot(o.out, 9, f([](size_t) { return 0xff; }), "match_all")
                .slot(o.out, 10, f([](size_t) { return 1; }), "match_all predicate")
                .slot(o.out, 11, f([&](size_t i) { return v(i / 64 * 64 + 40); }), "tile<64> shfl")
                .slot(o.out, 12, f([&](size_t i) {
                        int any = 0;
                        for (size_t l = 0; l < 64; ++l) any |= v(i / 64 * 64 + l) == 22;
                        return any + 2;
                      }), "tile<64> any/all")
                .result();
          }};
}

// Lane masks of the coalesced group each thread of `coalesced` forms: the warp's lanes whose
// value is not a multiple of 3.
unsigned branch_mask(size_t i) {
  unsigned m = 0;
  for (size_t l = 0; l < 32; ++l)
    if (value_of(int(i / 32 * 32 + l)) % 3 != 0) m |= 1u << l;
  return m;
}

FeatureCase coalesced_case() {
  const LaunchConfig c = config({2, 1, 1}, {64, 1, 1});
  return {"CoalescedGroups", false,
          [c](Executor& e) {
            return run_slots(e, c, true, [&](int* out, float* fout, Trace& t) {
              return e.launch(kernels().coalesced, c, t, out, fout);
            });
          },
          [](const Outcome& o) {
            Checker k(o);
            for (size_t w = 0; w < 4; ++w) {
              const unsigned m = branch_mask(w * 32);
              std::vector<int> members;
              for (size_t l = 0; l < 32; ++l)
                if (m >> l & 1) members.push_back(int(w * 32 + l));
              const size_t n = members.size();
              std::vector<int> vals;
              std::vector<float> fv;
              for (int id : members) {
                vals.push_back(value_of(id));
                fv.push_back(0.1f * float(value_of(id)) + 0.013f);
              }
              const auto incl = ref::inclusive(vals, n, plus_i);
              const auto excl_max = ref::shift(ref::inclusive(vals, n, greater_i), n);
              const auto fincl = ref::inclusive(fv, n, plus_f);
              const float fsum = n == 32 ? ref::butterfly(fv, 32, plus_f)[0] : fincl[n - 1];
              for (size_t r = 0; r < n; ++r) {
                const int* s = &o.out[size_t(members[r]) * S];
                const float* fs = &o.fout[size_t(members[r]) * S];
                const std::string who = "coalesced rank " + std::to_string(r) + " of warp " + std::to_string(w);
                k.that(s[0] == int(r + 100 * n), who + ": rank/size " + std::to_string(s[0]));
                k.that(s[1] == vals[2 % n], who + ": shfl");
                k.that(s[2] == vals[r >= 1 ? r - 1 : r], who + ": shfl_up");
                k.that(s[3] == vals[r + 2 < n ? r + 2 : r], who + ": shfl_down");
                unsigned b = 0;
                for (size_t j = 0; j < n; ++j) b |= unsigned(vals[j] > 10) << j;
                k.that(unsigned(s[4]) == b, who + ": ballot");
                k.that(s[6] == incl[n - 1], who + ": reduce");
                k.that(s[7] == incl[r], who + ": inclusive_scan");
                k.that(s[8] == excl_max[r], who + ": exclusive_scan(greater)");
                k.that(fs[0] == fsum, who + ": float reduce " + std::to_string(fs[0]));
                k.that(fs[1] == fincl[r], who + ": float inclusive_scan");
                const size_t sub = r / 4, len = std::min<size_t>(4, n - sub * 4);
                k.that(s[9] == int(r % 4 + 100 * len + 1000 * sub), who + ": tiled_partition(c, 4)");
              }
            }
            return k.result();
          }};
}

FeatureCase partitions_case() {
  const LaunchConfig c = config({1, 1, 1}, {64, 1, 1});
  return {"Partitions", false,
          [c](Executor& e) {
            return run_slots(e, c, true, [&](int* out, float* fout, Trace& t) {
              return e.launch(kernels().partitions, c, t, out, fout);
            });
          },
          [](const Outcome& o) {
            Checker k(o);
            for (size_t id = 0; id < 64; ++id) {
              const size_t base = id / 32 * 32;
              const int* s = &o.out[id * S];
              auto group = [&](auto key) {
                std::vector<size_t> g;
                for (size_t l = 0; l < 32; ++l)
                  if (key(base + l) == key(id)) g.push_back(base + l);
                return g;
              };
              auto leaders = [&](auto key) {  // distinct keys in order of their lowest lane
                std::vector<int> seen;
                for (size_t l = 0; l < 32; ++l)
                  if (std::find(seen.begin(), seen.end(), key(base + l)) == seen.end())
                    seen.push_back(key(base + l));
                return seen;
              };
              auto rank_in = [&](const std::vector<size_t>& g) {
                return int(std::find(g.begin(), g.end(), id) - g.begin());
              };
              const std::string who = "thread " + std::to_string(id);
              auto label = [](size_t i) { return value_of(int(i)) % 3; };
              const auto lg = group(label);
              const auto ll = leaders(label);
              const int lmeta = int(std::find(ll.begin(), ll.end(), label(id)) - ll.begin());
              int lsum = 0;
              std::vector<float> lf;
              for (size_t m : lg) {
                lsum += value_of(int(m));
                lf.push_back(1.0f / float(value_of(int(m)) + 1));
              }
              k.that(s[0] == rank_in(lg) + 100 * int(lg.size()), who + ": labeled rank/size");
              k.that(s[1] == lmeta + 100 * int(ll.size()), who + ": labeled meta group");
              k.that(s[2] == lsum, who + ": reduce over labeled group");
              k.that(o.fout[id * S] == ref::inclusive(lf, lf.size(), plus_f).back(),
                     who + ": float reduce over labeled group");
              auto pred = [](size_t i) { return int(value_of(int(i)) > 11); };
              const auto bg = group(pred);
              const bool split = bg.size() != 32;
              k.that(s[3] == rank_in(bg) + 100 * int(bg.size()), who + ": binary rank/size");
              k.that(s[4] == (split ? pred(id) + 200 : 100), who + ": binary meta group");
              unsigned b = 0;
              for (size_t j = 0; j < bg.size(); ++j) b |= unsigned(value_of(int(bg[j])) % 2 != 0) << j;
              k.that(unsigned(s[5]) == b, who + ": ballot over binary group");
              auto residue = [](size_t i) { return int(i % 32 % 4); };
              const auto sg = group(residue);
              std::vector<int> sv;
              std::vector<float> sf;
              for (size_t m : sg) {
                sv.push_back(value_of(int(m)));
                sf.push_back(1.0f / float(value_of(int(m)) + 1));
              }
              const int r = rank_in(sg);
              k.that(s[6] == r + 100 * 8, who + ": stride rank/size");
              k.that(s[7] == residue(id) + 100 * 4, who + ": stride meta group");
              k.that(s[8] == ref::shift(ref::inclusive(sv, 8, plus_i), 8)[size_t(r)], who + ": exclusive_scan over stride group");
              k.that(o.fout[id * S + 1] == ref::inclusive(sf, 8, plus_f)[size_t(r)], who + ": float scan over stride group");
              k.that(s[9] == 0 + 100 * 1 + 1000 * 32, who + ": binary partition without a split");
            }
            for (const Event& e : o.trace.events)
              if (e.kind == EventKind::GroupCreate && e.group_kind == GroupKind::Stride)
                k.that(e.group_id == (e.thread % 32) % 4, "stride group id is the residue class");
            return k.result();
          }};
}

template <class K>
FeatureCase collective_case(std::string name, K Kernels::*member, LaunchConfig c,
                            std::function<std::string(const Outcome&, const std::vector<int>&,
                                                      const std::vector<float>&)> check) {
  const size_t n = c.total_threads();
  const auto iv = int_inputs(n);
  const auto fv = float_inputs(n);
  return {name, false,
          [=](Executor& e) {
            auto iin = DeviceArray<int>::create(e, n, "iin");
            auto fin = DeviceArray<float>::create(e, n, "fin");
            iin->upload(iv);
            fin->upload(fv);
            return run_slots(e, c, true, [&](int* out, float* fout, Trace& t) {
              return e.launch(kernels().*member, c, t, iin->get(), fin->get(), out, fout);
            });
          },
          [=](const Outcome& o) { return check(o, iv, fv); }};
}

}  // namespace

using lessons::cgapi::Kernels;

const std::vector<FeatureCase>& feature_cases() {
  static const std::vector<FeatureCase> cases = [] {
    std::vector<FeatureCase> v{accessors_case(), tiles_case(), tile_collectives_case(),
                               coalesced_case(), partitions_case()};
    v.push_back(collective_case(
        "TileReduce", &Kernels::tile_reduce, config({2, 1, 1}, {256, 1, 1}),
        [](const Outcome& o, const std::vector<int>& iv, const std::vector<float>& fv) {
          auto bf = [](auto x) { return std::bit_cast<int>(x); };
          (void)bf;
          auto band = [](int a, int b) { return a & b; };
          auto bor = [](int a, int b) { return a | b; };
          auto bxor = [](int a, int b) { return a ^ b; };
          std::vector<double> dv(fv.begin(), fv.end());
          const auto d64 = ref::multiwarp_reduce(dv, 64, [](double a, double b) { return a + b; });
          std::vector<float> d64f(d64.begin(), d64.end());
          return Checker(o)
              .slot(o.out, 0, at(ref::butterfly(iv, 32, plus_i)), "reduce plus")
              .slot(o.out, 1, at(ref::butterfly(iv, 32, less_i)), "reduce less")
              .slot(o.out, 2, at(ref::butterfly(iv, 32, greater_i)), "reduce greater")
              .slot(o.out, 3, at(ref::butterfly(iv, 32, band)), "reduce bit_and")
              .slot(o.out, 4, at(ref::butterfly(iv, 32, bor)), "reduce bit_or")
              .slot(o.out, 5, at(ref::butterfly(iv, 32, bxor)), "reduce bit_xor")
              .slot(o.out, 6, at(ref::butterfly(iv, 16, plus_i)), "tile<16> reduce")
              .slot(o.out, 7, at(ref::multiwarp_reduce(iv, 64, greater_i)), "tile<64> reduce greater")
              .slot(o.out, 8, at(ref::multiwarp_reduce(iv, 128, bxor)), "tile<128> reduce bit_xor")
              .slot(o.fout, 0, at(ref::butterfly(fv, 32, plus_f)), "float reduce, tile<32>")
              .slot(o.fout, 1, at(ref::butterfly(fv, 16, plus_f)), "float reduce, tile<16>")
              .slot(o.fout, 2, at(ref::multiwarp_reduce(fv, 64, plus_f)), "float reduce, tile<64>")
              .slot(o.fout, 3, at(ref::multiwarp_reduce(fv, 128, plus_f)), "float reduce, tile<128>")
              .slot(o.fout, 4, at(ref::multiwarp_reduce(fv, 128, less_f)), "float reduce less, tile<128>")
              .slot(o.fout, 5, at(d64f), "double reduce, tile<64>")
              .result();
        }));
    v.push_back(collective_case(
        "TileScans", &Kernels::tile_scans, config({2, 1, 1}, {256, 1, 1}),
        [](const Outcome& o, const std::vector<int>& iv, const std::vector<float>& fv) {
          auto bor = [](int a, int b) { return a | b; };
          return Checker(o)
              .slot(o.out, 0, at(ref::inclusive(iv, 32, plus_i)), "inclusive_scan")
              .slot(o.out, 1, at(ref::shift(ref::inclusive(iv, 32, plus_i), 32)), "exclusive_scan")
              .slot(o.out, 2, at(ref::inclusive(iv, 8, greater_i)), "tile<8> inclusive_scan greater")
              .slot(o.out, 3, at(ref::multiwarp_scan(iv, 64, true, plus_i)), "tile<64> exclusive_scan")
              .slot(o.out, 4, at(ref::multiwarp_scan(iv, 128, false, bor)), "tile<128> inclusive_scan bit_or")
              .slot(o.out, 5, at(ref::multiwarp_scan(iv, 128, true, less_i)), "tile<128> exclusive_scan less")
              .slot(o.fout, 0, at(ref::inclusive(fv, 32, plus_f)), "float inclusive_scan")
              .slot(o.fout, 1, at(ref::shift(ref::inclusive(fv, 32, plus_f), 32)), "float exclusive_scan")
              .slot(o.fout, 2, at(ref::multiwarp_scan(fv, 64, false, plus_f)), "float tile<64> inclusive_scan")
              .slot(o.fout, 3, at(ref::multiwarp_scan(fv, 128, true, plus_f)), "float tile<128> exclusive_scan")
              .result();
        }));
    add_sync_cases(v);
    return v;
  }();
  return cases;
}

}  // namespace coop::testing
