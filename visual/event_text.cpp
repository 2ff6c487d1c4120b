#include "visual/event_text.hpp"

#include <cmath>

#include <cinttypes>
#include <cstdio>

#include "device/trace/names.hpp"
#include "device/trace/value.hpp"

namespace coop::visual {
namespace {

template <class... Args>
std::string format(const char* fmt, Args... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

// __syncwarp is a barrier of the lanes its mask names (recorded as the group's id).
std::string syncwarp_call(uint32_t mask) {
  return format("__syncwarp(0x%08" PRIx32 ")", mask);
}

}  // namespace

std::string format_value(uint64_t bits, ValueType type) {
  switch (type) {
    case ValueType::I32:
      return std::to_string(from_bits<int32_t>(bits));
    case ValueType::U32:
      return std::to_string(from_bits<uint32_t>(bits));
    case ValueType::I64:
      return std::to_string(from_bits<int64_t>(bits));
    case ValueType::U64:
      return std::to_string(bits);
    case ValueType::F32: {
      // Whole numbers are written out (a counter stuck at 2^24 reads 16777216, not 1.677722e+07);
      // others with the 7 digits a float holds.
      const double v = double(from_bits<float>(bits));
      if (v == std::floor(v) && std::fabs(v) < 1e9) return format("%.0f", v);
      return format("%.7g", v);
    }
    case ValueType::F64:
      return format("%.10g", from_bits<double>(bits));
    case ValueType::Bool:
      return bits ? "true" : "false";
    case ValueType::Mask:
      return format("0x%08" PRIx32, uint32_t(bits));
    case ValueType::None:
      break;
  }
  return std::to_string(bits);
}

std::string address_name(uint64_t address, uint16_t flags, const TraceHeader& header) {
  if (flags & kFlagCluster)  // another block's shared memory
    return address_name(address & 0xffffffffu, kFlagShared, header) + " of block " +
           std::to_string(address >> 32);
  const bool shared = flags & kFlagShared;
  for (const BufferInfo& b : header.buffers) {
    if (b.shared != shared || address < b.base || address >= b.base + b.bytes) continue;
    const uint64_t size = b.element_size ? b.element_size : 1;
    return b.name + "[" + std::to_string((address - b.base) / size) + "]" +
           (shared ? " (shared)" : "");
  }
  return format(shared ? "shared+0x%" PRIx64 : "0x%" PRIx64, address);
}

std::string group_label(GroupKind kind, uint32_t id) {
  switch (kind) {
    case GroupKind::Coalesced:
      return format("coalesced 0x%08" PRIx32, id);
    case GroupKind::Warp:  // the lanes a warp intrinsic's mask names
      return format("lanes 0x%08" PRIx32, id);
    case GroupKind::Labeled:
      return "label " + std::to_string(id);
    case GroupKind::Binary:
      return "binary " + std::to_string(id);
    case GroupKind::Stride:
      return "stride class " + std::to_string(id);
    case GroupKind::Grid:
      return "the grid";
    case GroupKind::Thread:
      return "the thread";
    case GroupKind::Barrier:
      return "cuda::barrier at shared offset " + std::to_string(id);
    default:
      break;
  }
  return std::string(name_of(kind)) + " " + std::to_string(id);
}

std::string op_label(Op op) {
  switch (op) {
    case Op::AtomicAdd:
      return "atomicAdd";
    case Op::AtomicSub:
      return "atomicSub";
    case Op::AtomicMin:
      return "atomicMin";
    case Op::AtomicMax:
      return "atomicMax";
    case Op::AtomicExch:
      return "atomicExch";
    case Op::AtomicCas:
      return "atomicCAS";
    case Op::AtomicAnd:
      return "atomicAnd";
    case Op::AtomicOr:
      return "atomicOr";
    case Op::AtomicXor:
      return "atomicXor";
    case Op::AtomicInc:
      return "atomicInc";
    case Op::AtomicDec:
      return "atomicDec";
    case Op::AtomicLoad:
      return "atomic load";
    case Op::AtomicStore:
      return "atomic store";
    default:
      break;
  }
  return std::string(name_of(op));
}

bool event_value(const Event& e, uint64_t& bits) {
  if (e.value_type == ValueType::None) return false;
  switch (e.kind) {
    case EventKind::Collective:
    case EventKind::Load:
    case EventKind::Atomic:
    case EventKind::InvokeOne:
      bits = e.b;
      return true;
    case EventKind::Store:
    case EventKind::Note:
      bits = e.a;
      return true;
    default:
      return false;
  }
}

std::string describe_event(const Event& e, const TraceHeader& h, uint64_t origin) {
  auto at = [origin](uint64_t t) { return std::to_string(t >= origin ? t - origin : 0); };
  const std::string group = group_label(e.group_kind, e.group_id);
  const std::string a = format_value(e.a, e.value_type), b = format_value(e.b, e.value_type);
  if (e.flags & kFlagStuck) {
    if (e.kind == EventKind::Fault)
      return "stopped here by an error that ended the launch (the run's report says which)";
    if (e.kind == EventKind::GroupCreate)
      return "stuck partitioning " + group + ": not every thread of it gets here (deadlock)";
    if (e.kind == EventKind::Barrier && e.group_kind == GroupKind::Warp)
      return "stuck in " + syncwarp_call(e.group_id) + ": it can never complete (deadlock)";
    const std::string call = e.kind == EventKind::Collective    ? op_label(e.op)
                             : e.kind == EventKind::BarrierWait ? "barrier_wait"
                                                                : "sync()";
    return "stuck in " + call + (e.group_kind == GroupKind::None ? "" : " on " + group) +
           ": it can never complete (deadlock)";
  }
  switch (e.kind) {
    case EventKind::GroupCreate: {
      std::string text = "joins " + group + " as rank " + std::to_string(e.rank) + " of " +
                         std::to_string(e.group_size);
      // Partitions say which of their parent's parts they are (meta_group_rank of _size).
      if (meta_size_of(e.extra) > 1)
        text += " (part " + std::to_string(meta_rank_of(e.extra)) + " of " +
                std::to_string(meta_size_of(e.extra)) + ")";
      return text;
    }
    case EventKind::Barrier:
      return (e.group_kind == GroupKind::Warp ? syncwarp_call(e.group_id) : "sync() on " + group) +
             ", phase " + std::to_string(e.extra) + " (arrives t=" + at(e.time) +
             ", leaves t=" + at(e.b) + ")";
    case EventKind::BarrierArrive:
      return "barrier_arrive on " + group + ", phase " + std::to_string(e.extra);
    case EventKind::BarrierWait:
      return "barrier_wait on " + group + ", phase " + std::to_string(e.extra) +
             " (leaves t=" + at(e.b) + ")";
    case EventKind::Collective: {
      // Votes and matches answer with lane masks: shown in hex, bit l for lane l.
      const bool mask_out = e.op == Op::Ballot || e.op == Op::MatchAny || e.op == Op::MatchAll;
      std::string out = b;
      if (mask_out) {
        char hex[24];
        std::snprintf(hex, sizeof hex, "0x%08llx", (unsigned long long)(e.b & 0xffffffffu));
        out = hex;
      }
      std::string what = op_label(e.op);
      if (e.op == Op::Reduce || e.op == Op::InclusiveScan || e.op == Op::ExclusiveScan)
        what += "(" + std::string(name_of(Op(e.extra & 0xff))) + ")";
      return what + " on " + group + ": in " + a + ", out " + out;
    }
    case EventKind::InvokeOne:
      return "invoke_one on " + group + ": rank " + std::to_string(e.extra) + " runs it";
    case EventKind::Atomic:
      return op_label(e.op) + " " + address_name(e.address, e.flags, h) + " with " + a +
             ": old value " + b;
    case EventKind::Load:
      return "loads " + address_name(e.address, e.flags, h) + " = " + b;
    case EventKind::Store:
      return "stores " + address_name(e.address, e.flags, h) + " = " + a;
    case EventKind::CopyIssue:
      return "memcpy_async of " + std::to_string(e.extra) + " bytes to " +
             address_name(e.address, e.flags, h);
    case EventKind::CopyWait:
      return (e.extra ? "wait_prior<" + std::to_string(e.extra) + ">: all but the newest " +
                            (e.extra == 1 ? std::string("copy") : count_of(e.extra, "copy", "copies")) +
                            " landed"
                      : std::string("wait: every copy landed")) +
             " (leaves t=" + at(e.b) + ")";
    case EventKind::ThreadBegin:
      return "starts on SM " + std::to_string(e.extra);
    case EventKind::ThreadEnd:
      return "ends";
    case EventKind::Note:
      return "note " + a;
    case EventKind::Fence:
      return "__threadfence(): its writes before are seen before its writes after, device-wide";
    default:
      break;
  }
  return std::string(name_of(e.kind));
}

std::string atomic_scope(uint16_t flags) {
  if (flags & kFlagScopeThread) return "thread";
  if (flags & kFlagScopeBlock) return "block";
  if (flags & kFlagScopeSystem) return "system";
  return "device";
}

std::string count_of(uint64_t n, std::string_view one, std::string_view many) {
  std::string s = std::to_string(n) + " ";
  if (n == 1) return s + std::string(one);
  return s + (many.empty() ? std::string(one) + "s" : std::string(many));
}

std::string short_count(uint64_t n) {
  if (n < 10000) return std::to_string(n);
  static constexpr const char* kUnits[] = {"K", "M", "G", "T", "P", "E"};
  // Round to the nearest unit; one decimal while the value is below 10 of the unit.
  double v = double(n);
  for (const char* unit : kUnits) {
    v /= 1000;
    char buf[16];
    if (v < 9.95) {
      std::snprintf(buf, sizeof buf, "%.1f%s", v, unit);
      return buf;
    }
    if (v < 999.5) {
      std::snprintf(buf, sizeof buf, "%.0f%s", v, unit);
      return buf;
    }
  }
  return "huge";
}

}  // namespace coop::visual
