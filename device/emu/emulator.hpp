// Public entry to the CPU emulator: run one kernel launch with every CUDA thread as a fiber.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "device/launch/device_props.hpp"
#include "device/launch/launch_config.hpp"
#include "device/launch/schedule.hpp"
#include "device/launch/status.hpp"
#include "device/trace/trace.hpp"

namespace coop::emu {

struct EmuOptions {
  Schedule schedule = Schedule::Lockstep;  // how threads interleave (device/launch/schedule.hpp)
  uint64_t seed = 0;              // lockstep: 0 is the default order, others shuffle a warp's
                                  // lanes; random and its: every seed is one seeded interleaving
  unsigned jobs = 1;              // OS threads; >1 runs blocks in parallel (normal launches only),
                                  // which makes the order of cross-block atomics unreproducible;
                                  // lockstep only (the other schedules refuse it)
  unsigned window = 0;            // blocks interleaved per OS thread in a normal launch; 0 picks
                                  // about 512 resident threads, whose fiber stacks stay in a 2 MiB
                                  // L2 (1024 threads ran 1.8x slower per thread)
  double watchdog_seconds = 60;   // wall-clock bound on one launch
  uint64_t max_steps = 0;         // bound on scheduler steps (0: none)
  size_t stack_bytes = 64 * 1024; // per emulated thread
  // Called from another OS thread about every 0.25 s while a launch runs, with how far it got:
  // "still making progress: ..." or "no thread moved for N s: thread ... runs at FILE:LINE ..."
  // (launch_monitor.hpp). Empty: no monitor.
  std::function<void(const std::string&)> progress;
};

struct EmuLaunch {
  LaunchConfig config;
  DeviceProps device;
  KernelResources resources;
  std::function<void()> body;     // one CUDA thread of the kernel, arguments bound
  uint64_t capacity = 1u << 22;   // trace event slots
  bool trace = true;              // false: record nothing (for timing)
  bool record_memory = false;     // also every shared/global load and store (memory_record.hpp)
  bool check_bounds = false;          // accesses outside their allocation stop the launch
  bool check_initialisation = false;  // so do reads of bytes never written (memory_checks.hpp)
};

// Runs the launch; fills trace.events and trace.header.{capacity, attempts, schedule}.
// Deadlocks, misuse, faults and the watchdog come back as an error Status; events recorded up to
// that point are kept so the app can show where threads were.
Status emulate(const EmuLaunch& launch, const EmuOptions& options, Trace& trace);

}  // namespace coop::emu
