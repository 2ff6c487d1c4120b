// coop::cg under nvcc, part 3: coalesced_group and thread_block_tile (1..32 threads in a warp,
// 64..512 across warps), and this_thread(), over cooperative_groups, recording every collective's
// input and output.
#pragma once

#include <cuda/std/type_traits>

#include "device/gpu/cg/groups.cuh"

namespace coop::cg {
namespace detail {

// The lanes of a coalesced group (cooperative_groups keeps the mask behind its own accessor).
__device__ __forceinline__ uint32_t mask_of(const real::coalesced_group& c) {
  return real::details::_coalesced_group_data_access::get_mask(c);
}

// The tile and coalesced collectives share their recording: rank and size of the caller.
template <class Real>
struct warp_ops {
  template <class T, class Call>
  __device__ static T shuffle(const Real& g, const TraceId& t, int line, Op op, T var, uint32_t arg,
                              Call call) {
    const T out = call();
    record_collective(t, uint32_t(g.thread_rank()), uint32_t(g.num_threads()), line, op, var, out,
                      arg);
    return out;
  }
  __device__ static uint32_t vote(const Real& g, const TraceId& t, int line, Op op, int pred,
                                  uint32_t out) {
    record_collective(t, uint32_t(g.thread_rank()), uint32_t(g.num_threads()), line, op,
                      uint32_t(pred != 0), out, 0u);
    return out;
  }
  template <class T>
  __device__ static unsigned int match(const Real& g, const TraceId& t, int line, T value,
                                       int* pred) {
    const unsigned int out = pred ? g.match_all(value, *pred) : g.match_any(value);
    record_collective(t, uint32_t(g.thread_rank()), uint32_t(g.num_threads()), line,
                      pred ? Op::MatchAll : Op::MatchAny, uint64_t(to_bits(value)),
                      uint64_t(out), pred ? uint32_t(*pred) : 0u);
    return out;
  }
};

}  // namespace detail

// The threads of a warp that run together, or a labeled/binary/stride partition of a warp group.
class coalesced_group : public thread_group {
  using ops = detail::warp_ops<real::coalesced_group>;

 public:
  __device__ unsigned int num_threads() const { return c_.num_threads(); }
  __device__ unsigned int size() const { return c_.size(); }
  __device__ unsigned int thread_rank() const { return c_.thread_rank(); }
  __device__ unsigned int meta_group_rank() const { return c_.meta_group_rank(); }
  __device__ unsigned int meta_group_size() const { return c_.meta_group_size(); }
  __device__ void sync(int line = __builtin_LINE()) const {
    detail::timed(EventKind::Barrier, t_, thread_rank(), size(), line, 0, [&] { c_.sync(); });
  }
  template <class T>
  __device__ T shfl(T var, int src_rank, int line = __builtin_LINE()) const {
    return ops::shuffle(c_, t_, line, Op::Shfl, var, uint32_t(src_rank),
                        [&] { return T(c_.shfl(var, src_rank)); });
  }
  template <class T>
  __device__ T shfl_down(T var, unsigned int delta, int line = __builtin_LINE()) const {
    return ops::shuffle(c_, t_, line, Op::ShflDown, var, delta,
                        [&] { return T(c_.shfl_down(var, delta)); });
  }
  template <class T>
  __device__ T shfl_up(T var, int delta, int line = __builtin_LINE()) const {
    return ops::shuffle(c_, t_, line, Op::ShflUp, var, uint32_t(delta),
                        [&] { return T(c_.shfl_up(var, delta)); });
  }
  __device__ int any(int pred, int line = __builtin_LINE()) const {
    return int(ops::vote(c_, t_, line, Op::Any, pred, uint32_t(c_.any(pred))));
  }
  __device__ int all(int pred, int line = __builtin_LINE()) const {
    return int(ops::vote(c_, t_, line, Op::All, pred, uint32_t(c_.all(pred))));
  }
  __device__ unsigned int ballot(int pred, int line = __builtin_LINE()) const {
    return ops::vote(c_, t_, line, Op::Ballot, pred, c_.ballot(pred));
  }
  template <class T>
  __device__ unsigned int match_any(T value, int line = __builtin_LINE()) const {
    return ops::match(c_, t_, line, value, nullptr);
  }
  template <class T>
  __device__ unsigned int match_all(T value, int& pred, int line = __builtin_LINE()) const {
    return ops::match(c_, t_, line, value, &pred);
  }

  __device__ const real::coalesced_group& real_group() const { return c_; }
  __device__ coalesced_group(const real::coalesced_group& c, const detail::TraceId& t)
      : thread_group(c, t), c_(c) {}

 private:
  real::coalesced_group c_;
};

// The calling thread's warp-mates that execute this call with it (the active mask).
__device__ __forceinline__ coalesced_group coalesced_threads(int line = __builtin_LINE()) {
  const real::coalesced_group c = real::coalesced_threads();
  const uint32_t mask = detail::mask_of(c);
  const coalesced_group g(c, detail::TraceId{GroupKind::Coalesced, mask, 0, 1, mask});
  detail::record_create(g.trace_id(), c.thread_rank(), c.size(), line);
  return g;
}

namespace detail {

// What a tile of more than 32 threads keeps beside its real tile: its trace identity, and no
// thread_group, as in cooperative_groups.
class multi_warp_base {
 public:
  __device__ const TraceId& trace_id() const { return t_; }

 protected:
  template <class Real>
  __device__ multi_warp_base(const Real&, const TraceId& t) : t_(t) {}
  TraceId t_;
};

}  // namespace detail

// A tile of Size threads (cooperative_groups::thread_block_tile): up to 32 threads in one warp
// with the warp collectives, a thread_group; 64..512 threads across warps with shfl, any, all and
// sync.
template <unsigned Size, class ParentT = void>
class thread_block_tile
    : public ::cuda::std::conditional_t<(Size <= 32), thread_group, detail::multi_warp_base> {
  using ops = detail::warp_ops<real::thread_block_tile<Size, void>>;
  using base = ::cuda::std::conditional_t<(Size <= 32), thread_group, detail::multi_warp_base>;

 public:
  using real_tile = real::thread_block_tile<Size, void>;
  __device__ static constexpr unsigned int num_threads() { return Size; }
  __device__ static constexpr unsigned int size() { return Size; }
  __device__ static unsigned int thread_rank() { return real_tile::thread_rank(); }
  __device__ unsigned int meta_group_rank() const { return t_real.meta_group_rank(); }
  __device__ unsigned int meta_group_size() const { return t_real.meta_group_size(); }
  __device__ void sync(int line = __builtin_LINE()) const {
    detail::timed(EventKind::Barrier, this->t_, thread_rank(), Size, line, 0,
                  [&] { t_real.sync(); });
  }

  template <class OtherParent>
  __device__ thread_block_tile(const thread_block_tile<Size, OtherParent>& o)  // NOLINT
      : base(o.t_real, o.trace_id()), t_real(o.t_real) {}
  __device__ thread_block_tile(const real_tile& t, const detail::TraceId& id)
      : base(t, id), t_real(t) {}

  // No trailing requires-clauses on members taking `line`: nvcc then evaluates the
  // __builtin_LINE() default at the declaration instead of at the call.
  template <class T>
  __device__ T shfl(T var, int src_rank, int line = __builtin_LINE()) const {
    return ops::shuffle(t_real, this->t_, line, Op::Shfl, var, uint32_t(src_rank), [&] {
      if constexpr (Size <= 32)
        return T(t_real.shfl(var, src_rank));
      else
        return T(t_real.shfl(var, unsigned(src_rank)));
    });
  }
  template <class T>
  __device__ T shfl_down(T var, unsigned int delta, int line = __builtin_LINE()) const {
    static_assert(Size <= 32, "this collective needs a tile of at most 32 threads");
    return ops::shuffle(t_real, this->t_, line, Op::ShflDown, var, delta,
                        [&] { return T(t_real.shfl_down(var, delta)); });
  }
  template <class T>
  __device__ T shfl_up(T var, unsigned int delta, int line = __builtin_LINE()) const {
    static_assert(Size <= 32, "this collective needs a tile of at most 32 threads");
    return ops::shuffle(t_real, this->t_, line, Op::ShflUp, var, delta,
                        [&] { return T(t_real.shfl_up(var, delta)); });
  }
  template <class T>
  __device__ T shfl_xor(T var, unsigned int lane_mask, int line = __builtin_LINE()) const {
    static_assert(Size <= 32, "this collective needs a tile of at most 32 threads");
    return ops::shuffle(t_real, this->t_, line, Op::ShflXor, var, lane_mask,
                        [&] { return T(t_real.shfl_xor(var, lane_mask)); });
  }
  __device__ int any(int pred, int line = __builtin_LINE()) const {
    return int(ops::vote(t_real, this->t_, line, Op::Any, pred, uint32_t(t_real.any(pred))));
  }
  __device__ int all(int pred, int line = __builtin_LINE()) const {
    return int(ops::vote(t_real, this->t_, line, Op::All, pred, uint32_t(t_real.all(pred))));
  }
  __device__ unsigned int ballot(int pred, int line = __builtin_LINE()) const {
    static_assert(Size <= 32, "this collective needs a tile of at most 32 threads");
    return ops::vote(t_real, this->t_, line, Op::Ballot, pred, t_real.ballot(pred));
  }
  template <class T>
  __device__ unsigned int match_any(T value, int line = __builtin_LINE()) const {
    static_assert(Size <= 32, "this collective needs a tile of at most 32 threads");
    return ops::match(t_real, this->t_, line, value, nullptr);
  }
  template <class T>
  __device__ unsigned int match_all(T value, int& pred, int line = __builtin_LINE()) const {
    static_assert(Size <= 32, "this collective needs a tile of at most 32 threads");
    return ops::match(t_real, this->t_, line, value, &pred);
  }

  __device__ const real_tile& real_group() const { return t_real; }

  real_tile t_real;
};

// The calling thread alone, as a tile of one (cooperative_groups::this_thread()).
__device__ __forceinline__ thread_block_tile<1> this_thread(int line = __builtin_LINE()) {
  const real::thread_block_tile<1, void> t = real::this_thread();
  const detail::TraceId id = detail::tile_id(1, 1, t.meta_group_rank(), t.meta_group_size());
  detail::record_create(id, 0, 1, line);
  return thread_block_tile<1>(t, id);
}

namespace detail {

// The groups that are one tile, which CUDA's reduce, scans and invoke_one_broadcast take.
template <class Group>
struct is_tile : ::cuda::std::false_type {};
template <unsigned TileSize, class Parent>
struct is_tile<thread_block_tile<TileSize, Parent>> : ::cuda::std::true_type {};
template <class Group>
inline constexpr bool tile_collective_group =
    ::cuda::std::is_same_v<Group, coalesced_group> || is_tile<Group>::value;

}  // namespace detail

}  // namespace coop::cg
