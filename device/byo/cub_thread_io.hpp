// CUB's per-thread loads and stores, its iterators over them and its shuffles of any type, for a
// program's kernels on the emulator: cub::ThreadLoad and cub::ThreadStore with their cache
// modifiers, cub::CacheModifiedInputIterator, cub::CacheModifiedOutputIterator,
// cub::ArgIndexInputIterator, and cub::ShuffleUp, cub::ShuffleDown and cub::ShuffleIndex.
// A cache modifier changes where a GPU caches the bytes, never which bytes are read or written,
// so here each is the thread's plain load or store. Like the rest of CUB's work (cub_block.hpp),
// none of it is in the trace (on a GPU it is CUB's own instructions): the loads and stores are
// not instrumented (a store still counts as written for --check-memory) and the shuffles are the
// warp's own, unrecorded, with their checks (every lane of the mask arrives; a lane outside the
// mask is not read). A lane whose source lies outside [first_thread, last_thread] of its logical
// warp keeps its input, as the shfl instruction's clamp gives.
#pragma once

#include <cstddef>
#include <iterator>
#include <source_location>
#include <type_traits>

#include "device/byo/cub_block.hpp"
#include "device/byo/cub_types.hpp"
#include "device/byo/runtime.hpp"

namespace cub {

enum CacheLoadModifier {
  LOAD_DEFAULT,
  LOAD_CA,
  LOAD_CG,
  LOAD_CS,
  LOAD_CV,
  LOAD_LDG,
  LOAD_VOLATILE
};
enum CacheStoreModifier { STORE_DEFAULT, STORE_WB, STORE_CG, STORE_CS, STORE_WT, STORE_VOLATILE };

// The load is checked for --check-memory as the thread's own would be (check_read), the report
// naming the program's line.
template <CacheLoadModifier MODIFIER = LOAD_DEFAULT, typename RandomAccessIterator>
COOP_EMU_UNRECORDED typename std::iterator_traits<RandomAccessIterator>::value_type ThreadLoad(
    RandomAccessIterator itr, std::source_location where = std::source_location::current()) {
  emulated::check_read(itr, 1, "cub::ThreadLoad", &where);
  return *itr;
}
template <CacheStoreModifier MODIFIER = STORE_DEFAULT, typename OutputIteratorT, typename T>
COOP_EMU_UNRECORDED void ThreadStore(OutputIteratorT itr, T val) {
  emulated::put(*itr, val);
}

namespace emulated {

// A cache-modified iterator's pointer and its moves (`Self` the iterator, made from a pointer).
template <class Self, class ValueType, class OffsetT>
class PointerSteps {
 public:
  using difference_type = OffsetT;
  using iterator_category = std::random_access_iterator_tag;

  template <typename QualifiedValueType>
  PointerSteps(QualifiedValueType* ptr)  // NOLINT: implicit, as CUB's iterators
      : ptr_(const_cast<std::remove_cv_t<QualifiedValueType>*>(ptr)) {}

  Self operator++(int) {
    Self before = self();
    ++ptr_;
    return before;
  }
  Self& operator++() {
    ++ptr_;
    return self();
  }
  template <typename Distance>
  Self operator+(Distance n) const {
    return Self(ptr_ + n);
  }
  template <typename Distance>
  Self& operator+=(Distance n) {
    ptr_ += n;
    return self();
  }
  template <typename Distance>
  Self operator-(Distance n) const {
    return Self(ptr_ - n);
  }
  template <typename Distance>
  Self& operator-=(Distance n) {
    ptr_ -= n;
    return self();
  }
  difference_type operator-(const Self& other) const { return difference_type(ptr_ - other.ptr_); }
  bool operator==(const Self& rhs) const { return ptr_ == rhs.ptr_; }
  bool operator!=(const Self& rhs) const { return ptr_ != rhs.ptr_; }
  // What the iterator reads or writes, item k at k (check_read).
  friend ValueType* read_items_of(const Self& it) { return it.ptr_; }

 protected:
  Self& self() { return static_cast<Self&>(*this); }
  const Self& self() const { return static_cast<const Self&>(*this); }
  ValueType* ptr_;
};

// The item at `p`, read as cub::CacheModifiedInputIterator reads it: the report of a read of
// memory never written names the innermost line of the program's on the call stack.
template <class T>
COOP_EMU_UNRECORDED T load_item(T* p) {
  check_read(p, 1, "cub::CacheModifiedInputIterator");
  return *p;
}

}  // namespace emulated

// Items of `ValueType` read through ThreadLoad<MODIFIER>.
template <CacheLoadModifier MODIFIER, typename ValueType, typename OffsetT = std::ptrdiff_t>
class CacheModifiedInputIterator
    : public emulated::PointerSteps<CacheModifiedInputIterator<MODIFIER, ValueType, OffsetT>,
                                    ValueType, OffsetT> {
 public:
  using self_type = CacheModifiedInputIterator;
  using value_type = ValueType;
  using pointer = ValueType*;
  using reference = ValueType;
  using CacheModifiedInputIterator::PointerSteps::PointerSteps;

  // Each read is checked as ThreadLoad's are, the report naming the program's line of it.
  reference operator*() const { return emulated::load_item(this->ptr_); }
  template <typename Distance>
  reference operator[](Distance n) const {
    return emulated::load_item(this->ptr_ + n);
  }
};

// Items of `ValueType` written through ThreadStore<MODIFIER>: `out[i] = v` assigns through a
// proxy, as CUB's does.
template <CacheStoreModifier MODIFIER, typename ValueType, typename OffsetT = std::ptrdiff_t>
class CacheModifiedOutputIterator
    : public emulated::PointerSteps<CacheModifiedOutputIterator<MODIFIER, ValueType, OffsetT>,
                                    ValueType, OffsetT> {
  struct Reference {
    ValueType* ptr;
    ValueType operator=(ValueType val) {  // NOLINT: CUB's proxy returns the value
      ThreadStore<MODIFIER>(ptr, val);
      return val;
    }
  };

 public:
  using reference = Reference;
  using value_type = void;
  using pointer = void;
  using self_type = CacheModifiedOutputIterator;
  using CacheModifiedOutputIterator::PointerSteps::PointerSteps;

  reference operator*() const { return Reference{this->ptr_}; }
  template <typename Distance>
  reference operator[](Distance n) const {
    return Reference{this->ptr_ + n};
  }
};

// Each item of `itr` paired with its offset: a KeyValuePair {offset, item}, offsets counted from
// the iterator's base (normalize() makes the current position the base).
template <typename InputIteratorT, typename OffsetT = std::ptrdiff_t,
          typename OutputValueT = typename std::iterator_traits<InputIteratorT>::value_type>
class ArgIndexInputIterator {
 public:
  using self_type = ArgIndexInputIterator;
  using difference_type = OffsetT;
  using value_type = KeyValuePair<difference_type, OutputValueT>;
  using pointer = value_type*;
  using reference = value_type;
  using iterator_category = std::random_access_iterator_tag;

  ArgIndexInputIterator(InputIteratorT itr, difference_type offset = 0)  // NOLINT: as CUB's
      : itr_(itr), offset_(offset) {}

  COOP_EMU_UNRECORDED reference operator*() const {
    return value_type(offset_, OutputValueT(itr_[offset_]));
  }
  template <typename Distance>
  COOP_EMU_UNRECORDED reference operator[](Distance n) const {
    const difference_type at = difference_type(offset_ + n);
    return value_type(at, OutputValueT(itr_[at]));
  }
  self_type operator++(int) {
    self_type before = *this;
    ++offset_;
    return before;
  }
  self_type& operator++() {
    ++offset_;
    return *this;
  }
  template <typename Distance>
  self_type operator+(Distance n) const {
    return self_type(itr_, difference_type(offset_ + n));
  }
  template <typename Distance>
  self_type& operator+=(Distance n) {
    offset_ += difference_type(n);
    return *this;
  }
  template <typename Distance>
  self_type operator-(Distance n) const {
    return self_type(itr_, difference_type(offset_ - n));
  }
  template <typename Distance>
  self_type& operator-=(Distance n) {
    offset_ -= difference_type(n);
    return *this;
  }
  difference_type operator-(self_type other) const { return offset_ - other.offset_; }
  bool operator==(const self_type& rhs) const { return itr_ == rhs.itr_ && offset_ == rhs.offset_; }
  bool operator!=(const self_type& rhs) const { return !(*this == rhs); }
  // Item k is the wrapped iterator's item at offset + k (check_read).
  friend InputIteratorT read_items_of(const ArgIndexInputIterator& it) {
    return it.itr_ + it.offset_;
  }
  void normalize() {
    itr_ += offset_;
    offset_ = 0;
  }

 private:
  InputIteratorT itr_;
  difference_type offset_;
};

namespace emulated {

// The hardware lane the calling lane reads in a shuffle by `delta` (up when negative) within its
// logical warp of `threads` lanes, bounded by `bound` (first_thread or last_thread): its own lane
// when the source lies beyond it, as the shfl instruction's clamp gives.
inline int shuffle_source(int threads, int delta, int bound) {
  const int lane = int(::coop::emu::this_thread().lane);
  const int base = lane & ~(threads - 1);
  const int limit = base + (bound & (threads - 1));
  const int source = lane + delta;
  return (delta < 0 ? source >= limit : source <= limit) ? source : lane;
}

template <int LOGICAL_WARP_THREADS>
constexpr void require_logical_warp() {
  static_assert(LOGICAL_WARP_THREADS > 0 && LOGICAL_WARP_THREADS <= 32 &&
                    (LOGICAL_WARP_THREADS & (LOGICAL_WARP_THREADS - 1)) == 0,
                "CUB's shuffles take a logical warp of a power of two up to 32 threads");
}

}  // namespace emulated

// Lane i gets the input of lane i - src_offset, or keeps its own when that lane is below
// first_thread of its logical warp.
template <int LOGICAL_WARP_THREADS, typename T>
T ShuffleUp(T input, int src_offset, int first_thread, unsigned int member_mask,
            std::source_location where = std::source_location::current()) {
  emulated::require_logical_warp<LOGICAL_WARP_THREADS>();
  const int source = emulated::shuffle_source(LOGICAL_WARP_THREADS, -src_offset, first_thread);
  return ::coop::cg::detail::shfl_from_lane(member_mask, input, uint32_t(source),
                                            ::coop::Op::ShflUp, "cub::ShuffleUp", int(where.line()),
                                            false);
}
// Lane i gets the input of lane i + src_offset, or keeps its own when that lane is past
// last_thread of its logical warp.
template <int LOGICAL_WARP_THREADS, typename T>
T ShuffleDown(T input, int src_offset, int last_thread, unsigned int member_mask,
              std::source_location where = std::source_location::current()) {
  emulated::require_logical_warp<LOGICAL_WARP_THREADS>();
  const int source = emulated::shuffle_source(LOGICAL_WARP_THREADS, src_offset, last_thread);
  return ::coop::cg::detail::shfl_from_lane(member_mask, input, uint32_t(source),
                                            ::coop::Op::ShflDown, "cub::ShuffleDown",
                                            int(where.line()), false);
}
// Every lane gets the input of lane src_lane (modulo the logical warp's size) of its logical warp.
template <int LOGICAL_WARP_THREADS, typename T>
T ShuffleIndex(T input, int src_lane, unsigned int member_mask,
               std::source_location where = std::source_location::current()) {
  emulated::require_logical_warp<LOGICAL_WARP_THREADS>();
  const uint32_t source =
      ::coop::cg::detail::source_lane(::coop::Op::Shfl, uint32_t(src_lane), LOGICAL_WARP_THREADS);
  return ::coop::cg::detail::shfl_from_lane(member_mask, input, source, ::coop::Op::Shfl,
                                            "cub::ShuffleIndex", int(where.line()), false);
}

}  // namespace cub
