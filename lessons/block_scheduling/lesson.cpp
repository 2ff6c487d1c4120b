// Lesson "block-scheduling": blocks are placed on SMs as resources free up. On a GPU each block
// records its SM (%smid) and start/end (%globaltimer); on the emulator the schedule shown is the
// occupancy model's, and says so.
#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "device/occupancy/block_schedule.hpp"
#include "device/occupancy/occupancy.hpp"
#include "lessons/block_scheduling/kernels.hpp"
#include "lessons/lesson.hpp"
#include "lessons/lesson_checks.hpp"

namespace coop::lessons::block_scheduling {
namespace {

// Block b's share of work, as work_of_block in block_scheduling.cuh computes it.
double work_units(uint32_t block) {
  return double(1 + block % 4);
}

std::string fixed(double v, int digits = 1) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

Status validate(const LaunchConfig& c, const Params&) {
  if (c.block.y != 1 || c.block.z != 1)
    return Status::error("block-scheduling uses 1D blocks: got " + c.block.str());
  if (c.grid.y != 1 || c.grid.z != 1 || c.grid.x > 65535)
    return Status::error("block-scheduling records one slot per block of a 1D grid of at most "
                         "65535 blocks: got grid " + c.grid.str());
  return {};
}

// One line per SM for the first few SMs: which blocks ran there, in order.
std::string sm_story(const BlockSchedule& s, uint32_t sm) {
  std::vector<ScheduledBlock> here;
  for (const ScheduledBlock& b : s.blocks)
    if (b.sm == sm) here.push_back(b);
  std::sort(here.begin(), here.end(),
            [](const ScheduledBlock& a, const ScheduledBlock& b) { return a.start < b.start; });
  std::string text;
  for (size_t i = 0; i < here.size() && i < 12; ++i)
    text += (i ? ", " : "") + std::to_string(here[i].block) + " @" + fixed(here[i].start, 0);
  if (here.size() > 12) text += ", ... (" + std::to_string(here.size()) + " blocks)";
  return text.empty() ? "(none)" : text;
}

Status run(Executor& exec, const RunRequest& req, LessonRun& out) {
  const Kernels& k = kernels();
  const DeviceProps& d = exec.device();
  LaunchConfig c = req.config;
  c.mode = LaunchMode::Normal;
  c.dynamic_smem = uint32_t(req.params.at("smem_kb") * 1024);
  const KernelResources res = exec.resources(k.timed_blocks.gpu, k.timed_blocks.name);
  Result<OccupancyResult> occ = launch_occupancy(d, c, res);
  if (!occ) return occ.status();
  if (occ->active_blocks_per_sm == 0) return Status::error(occ->does_not_fit);
  // `waves` full waves of the device, unless the user gave a grid of their own.
  const uint64_t blocks =
      req.grid_given
          ? c.grid.count()
          : std::min<uint64_t>(occ->max_cooperative_grid * uint64_t(req.params.at("waves")), 65535);
  if (!req.grid_given) c.grid = {uint32_t(blocks), 1, 1};

  auto d_sm = DeviceArray<unsigned>::create(exec, blocks, "block_sm");
  auto d_start = DeviceArray<unsigned long long>::create(exec, blocks, "block_start");
  auto d_end = DeviceArray<unsigned long long>::create(exec, blocks, "block_end");
  auto d_sink = DeviceArray<uint32_t>::create(exec, blocks, "sink");
  for (Status s : {d_sm.status(), d_start.status(), d_end.status(), d_sink.status()})
    if (!s.ok()) return s;
  Trace trace;
  Status launched = exec.launch(k.timed_blocks, c, trace, d_sm->get(), d_start->get(), d_end->get(),
                                d_sink->get(), int(req.params.at("work")));
  out.launches.push_back(std::move(trace));
  if (!launched) return launched;
  auto sm = d_sm->download();
  auto start = d_start->download();
  auto end = d_end->download();
  for (Status s : {sm.status(), start.status(), end.status()})
    if (!s.ok()) return s;

  size_t bad = 0;
  std::set<unsigned> sms_used;
  for (size_t b = 0; b < blocks; ++b) {
    bad += (*start)[b] > (*end)[b] || (*end)[b] == 0;
    sms_used.insert((*sm)[b]);
  }
  out.checks.push_back(make_check("every block recorded its SM, a start and a later end",
                                  std::to_string(blocks) + " of " + std::to_string(blocks),
                                  std::to_string(blocks - bad) + " of " + std::to_string(blocks),
                                  bad == 0));
  const int limit = occ->active_blocks_per_sm;
  out.results.emplace_back("launch", std::to_string(blocks) + " blocks of " + c.block.str() +
                                         " threads, " + std::to_string(c.dynamic_smem) +
                                         " bytes of dynamic shared memory");
  out.results.emplace_back(
      "occupancy model", std::to_string(limit) + " blocks per SM x " + std::to_string(d.sm_count) +
                             " SMs = " + std::to_string(occ->max_cooperative_grid) + " at once; " +
                             fixed(double(blocks) / double(occ->max_cooperative_grid), 2) +
                             " waves");

  BlockSchedule schedule;
  if (exec.backend() == Backend::Gpu) {
    schedule.sm_count = uint32_t(d.sm_count);
    schedule.blocks_per_sm = limit;
    const unsigned long long origin = *std::min_element(start->begin(), start->end());
    for (size_t b = 0; b < blocks; ++b)
      schedule.blocks.push_back(
          {uint32_t(b), (*sm)[b], double((*start)[b] - origin), double((*end)[b] - origin)});
    const std::vector<int> peak = peak_resident_per_sm(schedule);
    const int most = peak.empty() ? 0 : *std::max_element(peak.begin(), peak.end());
    out.checks.push_back(make_check("no SM held more blocks at once than the model allows",
                                    "at most " + std::to_string(limit),
                                    "at most " + std::to_string(most), most <= limit));
    out.checks.push_back(trace_schedule_within(out.launches.back(), limit));
    out.checks.push_back(make_check(
        "the blocks spread over every SM", std::to_string(d.sm_count) + " SMs",
        std::to_string(sms_used.size()) + " SMs", sms_used.size() == size_t(d.sm_count)));
    out.results.emplace_back("schedule", "measured with %smid and %globaltimer; makespan " +
                                             fixed(schedule.makespan() / 1000.0) + " us");
  } else {
    std::vector<double> durations(blocks);
    for (size_t b = 0; b < blocks; ++b) durations[b] = work_units(uint32_t(b));
    schedule = model_block_schedule(uint32_t(d.sm_count), limit, durations);
    apply_schedule_to_trace(schedule, out.launches.back());
    out.results.emplace_back("schedule",
                             "modelled (the emulator does not time blocks): "
                             "makespan " +
                                 fixed(schedule.makespan(), 0) + " work units");
  }
  for (uint32_t s = 0; s < std::min<uint32_t>(2, schedule.sm_count); ++s)
    out.results.emplace_back("SM " + std::to_string(s) + " ran blocks", sm_story(schedule, s));
  return {};
}

}  // namespace

LessonDef lesson() {
  LessonDef l;
  l.id = "block-scheduling";
  l.order = 910;
  l.title = "Block scheduling and waves";
  l.level = Level::Intermediate;
  l.concepts = {"block scheduler", "waves", "%smid", "%globaltimer", "occupancy", "tail effect"};
  l.params = {
      {"work", 20000, 1, 10000000, "steps of busy work per unit; block b does (1 + b % 4) units"},
      {"waves", 3, 1, 16, "grid size in multiples of what the device holds at once"},
      {"smem_kb", 64, 0, 227, "dynamic shared memory per block in KB (fewer blocks per SM)"},
  };
  l.default_config.grid = {1, 1, 1};
  l.default_config.block = {256, 1, 1};
  l.validate = validate;
  l.run = run;
  return l;
}

}  // namespace coop::lessons::block_scheduling
