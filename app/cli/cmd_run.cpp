// coopviz run LESSON [...]: runs a lesson on a backend, prints results, checks and trace stats.
#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>
#include <tuple>

#include "app/backend.hpp"
#include "app/cli/cmd_run_program.hpp"
#include "app/cli/commands.hpp"
#include "app/cli/schedule_options.hpp"
#include "app/program/program.hpp"
#include "device/trace/compare.hpp"
#include "device/trace/memory_access.hpp"
#include "device/trace/race_detector.hpp"
#include "device/trace/trace_file.hpp"
#include "lessons/lesson.hpp"

namespace coop::app {
namespace {

struct RunOptions {
  std::string lesson;
  std::string backend = "auto";
  std::string emulate;
  std::string grid, block;
  std::vector<std::string> params;
  ScheduleOptions emu;  // --schedule, --seed
  std::string trace_path;
  std::string capacity;
  unsigned jobs = 1;
  bool json = false;
  bool compare = false;
  bool record_memory = false;
  bool check_memory = false;
  bool untraced = false;
  bool races = false;
  std::vector<std::string> includes, defines, program_args, launches;  // a program file's
  double timeout = 120;
  std::string memory_limit, trace_memory;
  std::string trace_launches = "first";
  bool vary_repeats = false;  // a program file's (ProgramOptions::vary_repeats)
  bool rdc = false;           // a program file's (ProgramOptions::relocatable_device_code)
  std::string show_stores, show_loads;  // a program file's (ShownAccesses)
  bool record_blocks = false;            // a program file's block records (ShownAccesses)
};

// "512" (MiB) or "4G", from 16 MiB to 16 GiB, in bytes; `flag` names the option in the error.
Result<uint64_t> parse_mib(std::string text, const std::string& flag) {
  const std::string given = text;
  const bool gib = text.ends_with('G') || text.ends_with('g');
  if (gib) text.pop_back();
  auto n = parse_count(text, flag, gib ? 1u << 14 : 1u << 24);
  if (!n || *n * (gib ? 1024 : 1) < 16)
    return Status::error(flag + " must be between 16 (MiB) and 16G: " + given);
  return *n << (gib ? 30 : 20);
}

nlohmann::json report_json(const lessons::LessonDef& lesson, const lessons::LessonRun& run,
                           const Executor& exec, const lessons::RunRequest& req,
                           const std::string& banner) {
  nlohmann::json out;
  out["lesson"] = lesson.id;
  out["backend"] = to_string(exec.backend());
  out["device"] = {{"name", exec.device().name}, {"arch", exec.device().arch_string()},
                   {"sm_count", exec.device().sm_count}};
  if (!banner.empty()) out["note"] = banner;
  out["launch"] = {{"grid", {req.config.grid.x, req.config.grid.y, req.config.grid.z}},
                   {"block", {req.config.block.x, req.config.block.y, req.config.block.z}},
                   {"mode", to_string(req.config.mode)}};
  out["params"] = req.params;
  out["schedule"] = to_string(req.schedule);
  out["seed"] = req.seed;
  out["status"] = run.status.ok() ? "ok" : "error";
  if (!run.status.ok()) out["error"] = run.status.message();
  nlohmann::json results = nlohmann::json::object();
  for (const auto& [name, value] : run.results) results[name] = value;
  out["results"] = results;
  out["checks"] = nlohmann::json::array();
  for (const lessons::Check& c : run.checks)
    out["checks"].push_back({{"name", c.name}, {"expected", c.expected}, {"got", c.got},
                             {"pass", c.pass}, {"skipped", c.skipped}});
  uint64_t events = 0, dropped = 0, capacity = 0;
  double kernel_ms = 0;
  for (const Trace& t : run.launches) {
    events += t.events.size();
    dropped += t.dropped();
    capacity = std::max(capacity, t.header.capacity);
    kernel_ms += t.header.kernel_ms;
  }
  out["trace"] = nlohmann::json{{"launches", run.launches.size()},
                                {"events", events},
                                {"dropped", dropped},
                                {"capacity", capacity}};
  if (exec.backend() == Backend::Gpu) out["trace"]["kernel_ms"] = kernel_ms;
  if (!run.launches.empty() && !run.launches.front().header.schedule.empty())
    out["trace"]["schedule"] = run.launches.front().header.schedule;
  out["memory"] = memory_report(run.launches);
  out["passed"] = run.passed();
  return out;
}

void print_human(const lessons::LessonDef& lesson, const lessons::LessonRun& run,
                 const Executor& exec, const std::string& banner, bool record_memory, bool races) {
  if (!banner.empty()) std::cerr << banner << "\n";
  std::cout << lesson.id << " on " << to_string(exec.backend()) << " (" << exec.device().name
            << ")\n";
  for (const auto& [name, value] : run.results) std::cout << "  " << name << ": " << value << "\n";
  for (const lessons::Check& c : run.checks)
    std::cout << "  [" << (c.skipped ? "skip" : c.pass ? "pass" : "FAIL") << "] " << c.name
              << ": expected " << c.expected << ", got " << c.got << "\n";
  for (const Trace& t : run.launches) {
    std::cout << "  trace: " << t.header.kernel << ", " << t.events.size() << " events, "
              << t.dropped() << " dropped";
    if (t.dropped()) std::cout << " (raise --trace-capacity)";
    std::cout << "\n";
  }
  if (races) print_races(run.launches, std::cout);
  // The access analysis when every load and store was recorded (traced ones alone say little).
  if (!record_memory) return;
  for (const Trace& t : run.launches)
    for (const LineMemoryStats& m : analyze_memory(t)) {
      std::cout << "  memory: " << t.header.kernel << " line " << m.line << ", "
                << to_string(m.space) << (m.store ? " store: " : " load: ") << m.requests
                << " requests, ";
      if (m.space == MemorySpace::Global)
        std::cout << m.sectors_per_request() << " sectors per request\n";
      else
        std::cout << m.bank_conflict_ways << "-way bank conflicts at worst\n";
    }
}

// Runs the same request on an emulator of the GPU and compares each launch's trace with the GPU's
// on every deterministic field (device/trace/compare.hpp).
nlohmann::json compare_backends(const lessons::LessonDef& lesson, const lessons::LessonRun& on_gpu,
                                Executor& gpu, const lessons::RunRequest& req, bool* agree) {
  auto emu = make_emu_executor(gpu.device());
  emu->options().trace_capacity = gpu.options().trace_capacity;
  const lessons::LessonRun on_emu = lessons::run_lesson(lesson, *emu, req);
  nlohmann::json out = {{"emulator_passed", on_emu.passed()}, {"launches", nlohmann::json::array()}};
  *agree = on_emu.passed();
  if (!lesson.traces_comparable) {
    out["note"] = "this lesson's traces legitimately differ between backends; checks only";
    return out;
  }
  if (on_gpu.launches.size() != on_emu.launches.size()) {
    out["error"] = "the backends made different numbers of launches";
    *agree = false;
    return out;
  }
  for (size_t i = 0; i < on_gpu.launches.size(); ++i) {
    const std::string& kernel = on_gpu.launches[i].header.kernel;
    nlohmann::json l = {{"kernel", kernel}};
    if (std::find(lesson.incomparable_kernels.begin(), lesson.incomparable_kernels.end(), kernel) !=
        lesson.incomparable_kernels.end()) {
      l["note"] = "not compared: its control flow depends on a legal hardware choice";
    } else {
      const TraceDiff d = compare_deterministic(on_gpu.launches[i], on_emu.launches[i]);
      l["threads"] = d.threads_compared;
      l["events"] = d.events_compared;
      l["differences"] = d.mismatches;
      l["examples"] = d.examples;
      // The emulator's instrumented loads and stores have no GPU counterpart.
      l["left_out_one_backend_only"] = d.one_backend_only;
      *agree = *agree && d.equal();
    }
    out["launches"].push_back(l);
  }
  out["agree"] = *agree;
  return out;
}

void print_comparison(const nlohmann::json& c) {
  std::cout << "comparison with the emulator (checks there: "
            << (c.value("emulator_passed", false) ? "pass" : "FAIL") << ")\n";
  if (c.contains("note")) std::cout << "  " << c["note"].get<std::string>() << "\n";
  for (const auto& l : c.value("launches", nlohmann::json::array())) {
    std::cout << "  " << l["kernel"].get<std::string>() << ": ";
    if (l.contains("note")) {
      std::cout << l["note"].get<std::string>() << "\n";
      continue;
    }
    std::cout << l["events"].get<uint64_t>() << " events of " << l["threads"].get<uint64_t>()
              << " threads compared, " << l["differences"].get<uint64_t>() << " differences";
    if (const uint64_t n = l.value("left_out_one_backend_only", uint64_t(0)))
      std::cout << " (" << n << " loads/stores only the emulator records left out)";
    std::cout << "\n";
    for (const auto& e : l["examples"]) std::cout << "    " << e.get<std::string>() << "\n";
  }
}

}  // namespace

void register_run(CLI::App& app, CliState& state) {
  auto o = std::make_shared<RunOptions>();
  auto* cmd = app.add_subcommand("run", "Run a lesson and check it against its CPU reference");
  cmd->add_option("lesson", o->lesson,
                  "Lesson id (see `coopviz list`), or your own CUDA program (FILE.cu)")
      ->required();
  cmd->add_option("program_args", o->program_args,
                  "A program's other source files (.cu, .cpp, .cc, .cxx: compiled apart and "
                  "linked, as nvcc a.cu b.cu main.cpp), then its own arguments (those that look "
                  "like source files after --)");
  // One value an occurrence, as nvcc takes them: `-I common prog.cu` names the program after.
  cmd->add_option("-I", o->includes, "A program file's include folder (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("-D", o->defines, "A program file's macro NAME or NAME=VALUE (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--launch", o->launches,
                  "A program file's kernel run with another grid and block: KERNEL=GRID/BLOCK, "
                  "each X, X,Y or X,Y,Z, or * for the program's own (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--timeout", o->timeout,
                  "A program file's time limit in seconds; past it the program is stopped")
      ->capture_default_str();
  cmd->add_option("--memory-limit", o->memory_limit,
                  "A program file's memory limit, with what it starts, in MiB or with G for GiB "
                  "(e.g. 512, 4G); past it the program is stopped (default: 3/4 of the free "
                  "memory)");
  cmd->add_option("--trace-launches", o->trace_launches,
                  "A program file's launches traced: all, first (the first of each kernel, grid, "
                  "block and dynamic shared memory, and for a kernel's own launches, nesting "
                  "depth) or N (the first N of each); the others run untraced at full speed and "
                  "are counted")
      ->capture_default_str();
  cmd->add_flag("--vary-repeats", o->vary_repeats,
                "A program file's repeated launches of one kernel and shape each run under their "
                "own emulator schedule (seeds 1, 2, ...) even at --seed 0, whose order only the "
                "first keeps");
  cmd->add_flag("--rdc", o->rdc,
                "A program file built for the GPU as relocatable device code, as kernels that "
                "launch kernels need (found by itself; nvcc's -rdc=true, -dc and -lcudadevrt say "
                "it too); a program of several files always links its device code across files "
                "(extern __device__ functions and variables, extern __constant__), on the GPU "
                "with nvcc -rdc=true and a device link");
  cmd->add_option("--trace-memory", o->trace_memory,
                  "A program file's traces kept in memory, in MiB or with G for GiB; past it "
                  "later launches of a kernel already traced run untraced (default: 1/4 of the "
                  "available memory)");
  cmd->add_option("--backend", o->backend, backend_request_words())->capture_default_str();
  cmd->add_option("--emulate", o->emulate, "Device the emulator imitates, e.g. sm_90");
  cmd->add_option("--grid", o->grid, "Grid dimensions X[,Y[,Z]] in blocks");
  cmd->add_option("--block", o->block, "Block dimensions X[,Y[,Z]] in threads");
  cmd->add_option("--param", o->params, "Lesson parameter name=value (repeatable)")
      ->allow_extra_args(false);
  add_schedule_options(cmd, o->emu);
  cmd->add_option("--trace", o->trace_path, "Save the trace (.json for JSON, else CBOR)");
  cmd->add_option("--trace-capacity", o->capacity, "Event slots per launch (default 4194304)");
  cmd->add_option("--jobs", o->jobs, "Emulator OS threads for normal launches");
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->add_flag("--record-memory", o->record_memory,
                "Emulator: record every shared and global load and store, not only traced ones, "
                "and report their coalescing and bank conflicts per line");
  cmd->add_option("--show-stores", o->show_stores,
                  "A program file: build its plain stores into these buffers (names joined by "
                  "commas, as its kernel code names them) as traced(...) stores, on either backend");
  cmd->add_option("--show-loads", o->show_loads,
                  "A program file: build its plain loads from these buffers as traced(...) loads");
  cmd->add_flag("--record-blocks", o->record_blocks,
                "A program file: each block of its kernels records its start and finish (SM, "
                "time) as the kernel begins and returns, for the Schedule view, on either backend");
  cmd->add_flag("--untraced", o->untraced,
                "Record no events (a GPU run for a profiler, whose counters would otherwise count "
                "the recorder's own stores)");
  cmd->add_flag("--races", o->races,
                "Emulator: record every shared and global access and report data races (two "
                "accesses to one byte, one a write, not both atomic, that no barrier, atomic, "
                "fence or copy wait orders); runs with one emulator OS thread");
  cmd->add_flag("--check-memory", o->check_memory,
                "Emulator, a program file: also stop at a kernel's read of memory never written "
                "(an access outside its allocation always stops it), naming the line");
  cmd->add_flag("--compare", o->compare,
                "Also run on the emulator (imitating the GPU) and compare the traces field by field");
  cmd->callback([o, cmd, &state] {
    const Result<BackendRequest> request = parse_backend_request(o->backend);
    if (is_program_path(o->lesson)) {
      RunProgramOptions p;
      p.file = o->lesson;
      p.includes = o->includes;
      p.defines = o->defines;
      // Before --, the words that name source files are the program's other files, in any
      // order (nvcc's); the rest are its arguments.
      for (const std::string& word : o->program_args)
        (is_program_path(word) ? p.other_files : p.args).push_back(word);
      p.args.insert(p.args.end(), state.after_separator.begin(), state.after_separator.end());
      p.launches = o->launches;
      if (!request) return void(state.exit_code = usage_error(request.message()));
      p.backend = *request;
      p.emulate = o->emulate;
      p.trace_path = o->trace_path;
      p.emu = o->emu;
      p.json = o->json;
      p.record_memory = o->record_memory;
      p.races = o->races;
      p.check_memory = o->check_memory;
      if (!(o->timeout > 0 && o->timeout <= 86400))
        return void(state.exit_code = usage_error("--timeout must be between 0 and 86400 seconds"));
      p.timeout_seconds = o->timeout;
      if (!o->memory_limit.empty()) {
        Result<uint64_t> limit = parse_mib(o->memory_limit, "--memory-limit");
        if (!limit) return void(state.exit_code = usage_error(limit.message()));
        p.memory_limit = *limit;
      }
      if (!o->trace_memory.empty()) {
        Result<uint64_t> limit = parse_mib(o->trace_memory, "--trace-memory");
        if (!limit) return void(state.exit_code = usage_error(limit.message()));
        p.trace_memory = *limit;
      }
      if (Status s = check_trace_launches(o->trace_launches); !s)
        return void(state.exit_code = usage_error(s.message()));
      p.trace_launches = o->trace_launches;
      p.vary_repeats = o->vary_repeats;
      p.relocatable_device_code = o->rdc;
      for (auto [flag, text, list] : {std::tuple{"--show-stores", &o->show_stores, &p.shown.stores},
                                      std::tuple{"--show-loads", &o->show_loads, &p.shown.loads}}) {
        Result<std::vector<std::string>> names = parse_shown_buffers(*text, flag);
        if (!names) return void(state.exit_code = usage_error(names.message()));
        *list = std::move(*names);
      }
      p.shown.blocks = o->record_blocks;
      if (!o->capacity.empty()) {
        auto cap = parse_count(o->capacity, "--trace-capacity", 0xffffffffull);
        if (!cap) return void(state.exit_code = usage_error(cap.message()));
        p.trace_capacity = *cap;
      }
      state.exit_code = run_program_command(p);
      return;
    }
    if (!o->program_args.empty() || !state.after_separator.empty())
      return void(state.exit_code = usage_error(
                      "unexpected argument '" +
                      (o->program_args.empty() ? state.after_separator : o->program_args).front() +
                      "': `coopviz run` takes only LESSON (or FILE.cu, then its own arguments "
                      "after --)"));
    if (!o->includes.empty() || !o->defines.empty() || o->rdc)
      return void(state.exit_code = usage_error(
                      std::string(o->rdc && o->includes.empty() && o->defines.empty()
                                      ? "--rdc is"
                                      : "-I and -D are") +
                      " for a program file (FILE.cu), not a lesson"));
    if (!o->launches.empty())
      return void(
          state.exit_code = usage_error(
              "--launch is for a program file (FILE.cu); a lesson takes --grid and --block"));
    if (!o->show_stores.empty() || !o->show_loads.empty() || o->record_blocks)
      return void(state.exit_code = usage_error(
                      "--show-stores, --show-loads and --record-blocks are for a program file "
                      "(FILE.cu): a lesson's kernels trace their shown accesses and blocks "
                      "themselves"));
    // A lesson traces what its steps show: every launch it makes.
    if (cmd->count("--trace-launches") || !o->trace_memory.empty())
      return void(state.exit_code = usage_error(
                      "--trace-launches and --trace-memory are for a program file (FILE.cu): a "
                      "lesson traces every launch its steps show"));
    if (o->vary_repeats)
      return void(state.exit_code = usage_error(
                      "--vary-repeats is for a program file (FILE.cu): a lesson's lesson.json "
                      "says whether its repeats vary (\"vary_repeats\")"));
    const Result<std::string> id = lesson_argument(o->lesson);
    if (!id) return void(state.exit_code = usage_error(id.message()));
    const lessons::LessonDef* lesson = lessons::find_lesson(*id);
    if (!lesson) {
      state.exit_code = usage_error("unknown lesson '" + o->lesson + "': known lessons are " +
                                    lessons::lesson_ids());
      return;
    }
    lessons::RunRequest req;
    req.config = lesson->default_config;
    req.seed = o->emu.seed;
    if (!o->grid.empty()) {
      auto g = parse_dim3(o->grid, "--grid");
      if (!g) return void(state.exit_code = usage_error(g.message()));
      req.config.grid = *g;
      req.grid_given = true;
    }
    if (!o->block.empty()) {
      auto b = parse_dim3(o->block, "--block");
      if (!b) return void(state.exit_code = usage_error(b.message()));
      req.config.block = *b;
      req.block_given = true;
    }
    auto params = lessons::parse_params(*lesson, o->params);
    if (!params) return void(state.exit_code = usage_error(params.message()));
    req.params = *params;
    if (!request) return void(state.exit_code = usage_error(request.message()));
    auto backend = choose_backend(*request, o->emulate);
    if (!backend) return void(state.exit_code = usage_error(backend.message()));
    Executor& exec = *backend->exec;
    if (o->compare && exec.backend() != Backend::Gpu)
      return void(state.exit_code =
                      usage_error("--compare runs the lesson on a GPU and on the emulator; " +
                                  (*request == BackendRequest::Emu
                                       ? std::string("drop --backend emu")
                                       : "there is no GPU here (" + backend->banner + ")")));
    if (!o->capacity.empty()) {
      auto cap = parse_count(o->capacity, "--trace-capacity", 0xffffffffull);
      if (!cap) return void(state.exit_code = usage_error(cap.message()));
      exec.options().trace_capacity = *cap;
    }
    if (o->jobs == 0 || o->jobs > 256)
      return void(state.exit_code = usage_error("--jobs " + std::to_string(o->jobs) +
                                                " must be between 1 and 256"));
    exec.options().jobs = o->jobs;
    Result<Schedule> schedule = check_schedule(o->emu, o->jobs, exec.backend() == Backend::Gpu);
    if (!schedule) return void(state.exit_code = usage_error(schedule.message()));
    req.schedule = *schedule;
    if (o->record_memory && exec.backend() != Backend::Emu)
      return void(state.exit_code = usage_error(
                      "--record-memory needs the emulator (--backend emu): a GPU records only "
                      "traced(...) loads and stores"));
    if (o->races && exec.backend() != Backend::Emu)
      return void(state.exit_code = usage_error(
                      "--races needs the emulator (--backend emu): race detection works on every "
                      "recorded load and store, which only the emulator sees"));
    if (o->untraced && (o->compare || o->record_memory || o->races || !o->trace_path.empty()))
      return void(state.exit_code =
                      usage_error("--untraced records no events: it cannot go with --compare, "
                                  "--record-memory, --races or --trace"));
    exec.options().record_memory = o->record_memory || o->races;
    exec.options().trace = !o->untraced;
    // Races are found in the order things happened, which one emulator thread keeps.
    if (o->races) exec.options().jobs = 1;
    lessons::LessonRun run = lessons::run_lesson(*lesson, exec, req);
    if (!o->trace_path.empty() && !run.launches.empty()) {
      if (Status s = save_traces(o->trace_path, run.launches); !s) {
        std::cerr << "coopviz: error: " << s.message() << "\n";
        state.exit_code = 1;
        return;
      }
    }
    nlohmann::json comparison;
    bool agree = true;
    if (o->compare) comparison = compare_backends(*lesson, run, exec, req, &agree);
    if (o->json) {
      nlohmann::json out = report_json(*lesson, run, exec, req, backend->banner);
      if (o->compare) out["comparison"] = comparison;
      if (o->races) {
        out["races"] = races_report(run.launches);
        out["races_complete"] = races_complete(run.launches);
      }
      std::cout << out.dump(2) << "\n";
    } else {
      print_human(*lesson, run, exec, backend->banner,
                  o->record_memory || o->races ||
                      (lesson->records_memory && exec.backend() == Backend::Emu),
                  o->races);
      if (o->compare) print_comparison(comparison);
    }
    if (!run.status.ok() && !o->json)
      std::cerr << "coopviz: error: " << run.status.message() << "\n";
    // Exit status: 0 all checks passed (and, with --compare, the backends agreed), 1 otherwise.
    state.exit_code = run.passed() && agree ? 0 : 1;
  });
}

}  // namespace coop::app
