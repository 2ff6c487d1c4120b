// The query grammar of questions (lessons/README.md, "Questions"): what to look up in a step's
// run to get a question's true answer. Words separated by spaces:
//
//   rank of thread N in GROUP          thread_rank() of thread N in its first GROUP (tile, ...)
//   size of GROUP of thread N          num_threads() of that group
//   meta rank of thread N in GROUP     meta_group_rank(): which GROUP of its parent it is in
//   output of thread N                 the value thread N got from its first collective,
//                                      shuffle, vote, invoke_one, atomic (old value) or load
//   input of thread N                  the value thread N gave it
//   first atomic thread                whose atomic landed first (last: last) at the address of
//   last atomic thread                 the first atomic on the lines
//   count of KIND [of thread N]        events of KIND (atomic, collective, barrier, ...)
//   threads of KIND                    distinct threads with such an event
//   blocks per SM | warps per SM       the launch's occupancy (the kernel's compiled resources)
//   blocks at once                     blocks the whole GPU holds at once (per SM x SMs)
//   waves                              rounds of block placement the launch's grid needs
//   occupancy limiter                  what limits it: warps, registers, shared_memory, blocks
//   sectors per request [of loads|of stores]   global memory analysis of the line
//   bank conflict ways [of loads|of stores]    shared memory analysis of the line
//   result NAME                        a named result of the lesson run
//
// Event queries look at the step's highlighted lines; `on "snippet"` at the end looks at the
// kernel lines holding the snippet instead.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "app/questions/questions.hpp"

namespace coop::app {

struct Query {
  enum class Kind : uint8_t {
    Rank,
    GroupSize,
    MetaRank,
    Output,
    Input,
    FirstAtomic,
    LastAtomic,
    Count,
    Threads,
    BlocksPerSm,
    WarpsPerSm,
    BlocksAtOnce,
    Waves,
    Limiter,
    Sectors,
    BankWays,
    Result,
  };
  Kind kind = Kind::Rank;
  uint32_t thread = 0;
  bool one_thread = false;  // Count: only thread `thread`'s events
  GroupKind group = GroupKind::None;
  EventKind event = EventKind::None;
  std::optional<bool> store;  // memory queries: only stores (true) or only loads (false)
  std::string name;           // Result: the result's name
  std::string snippet;        // `on "snippet"`: the lines to look at instead of the step's
};

// Parses the grammar above; the error names the word that is wrong and what was expected.
Result<Query> parse_query(std::string_view text);

// The true answer on `run`; the error says why this run cannot answer it.
Result<TrueAnswer> evaluate_query(const Query& query, const QuestionRun& run);

}  // namespace coop::app
