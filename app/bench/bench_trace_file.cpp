// coopviz bench trace-file: saving and loading a 10 M-event trace file.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "app/cli/commands.hpp"
#include "device/trace/trace_file.hpp"

namespace coop::app {
namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

void register_bench_trace_file(CLI::App& bench, CliState& state) {
  struct Options {
    bool json = false;
    uint64_t events = 10'000'000;
    std::string path = "/tmp/coopviz-bench-trace.cvt";
  };
  auto o = std::make_shared<Options>();
  auto* cmd = bench.add_subcommand("trace-file", "Save and load a large synthetic trace file");
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->add_option("--events", o->events, "Events in the trace")->capture_default_str();
  cmd->add_option("--path", o->path, "Where to write it")->capture_default_str();
  cmd->callback([o, &state] {
    Trace t;
    t.header.kernel = "synthetic";
    t.header.launch.grid = {1024, 1, 1};
    t.header.launch.block = {1024, 1, 1};
    t.events.resize(o->events);
    for (uint64_t i = 0; i < o->events; ++i) {
      Event& e = t.events[i];
      e.kind = EventKind::Barrier;
      e.group_kind = GroupKind::Block;
      e.sequence = uint32_t(i);
      e.thread = uint32_t(i % (1u << 20));
      e.time = i;
    }
    t.header.attempts = t.header.capacity = o->events;
    const auto t0 = Clock::now();
    const Status saved = save_traces(o->path, {t});
    const double save_s = std::chrono::duration<double>(Clock::now() - t0).count();
    const auto t1 = Clock::now();
    auto loaded = load_traces(o->path);
    const double load_s = std::chrono::duration<double>(Clock::now() - t1).count();
    std::remove(o->path.c_str());
    const bool ok = saved.ok() && loaded && (*loaded)[0].events.size() == o->events;
    nlohmann::json j = {{"events", o->events},
                        {"bytes", o->events * sizeof(Event)},
                        {"save_seconds", save_s},
                        {"load_seconds", load_s},
                        {"ok", ok},
                        {"target_load_seconds", 2.0}};
    if (!loaded) j["error"] = loaded.message();
    const bool pass = ok && load_s < 2.0;
    j["pass"] = pass;
    if (o->json)
      std::cout << j.dump(2) << "\n";
    else
      std::printf("%llu events: saved in %.2f s, loaded and validated in %.2f s\n",
                  (unsigned long long)o->events, save_s, load_s);
    state.exit_code = pass ? 0 : 1;
  });
}

}  // namespace coop::app
