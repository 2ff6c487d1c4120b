// Usage errors: one line on stderr, "coopviz: error: ...", exit status 2. CLI11's own parse errors
// become such a line here, in one place: what was wrong, and what is allowed instead.
#include <algorithm>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/commands.hpp"
#include "app/cli/nvcc_flags.hpp"

namespace coop::app {
namespace {

// "Lesson id (see ...)" -> "lesson id (see ...)".
std::string lower_first(std::string s) {
  if (!s.empty() && s[0] >= 'A' && s[0] <= 'Z' && (s.size() < 2 || !(s[1] >= 'A' && s[1] <= 'Z')))
    s[0] = char(s[0] - 'A' + 'a');
  return s;
}

// "--seed: 1 required UINT missing" -> {"--seed", "1 required UINT missing"}; no ": " -> {"", s}.
std::pair<std::string, std::string> split_name(const std::string& s,
                                               const std::string& sep = ": ") {
  const size_t at = s.find(sep);
  if (at == std::string::npos) return {"", s};
  return {s.substr(0, at), s.substr(at + sep.size())};
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

// The subcommands of `app`, by name.
std::string command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    names.push_back(sub->get_name());
  return join(names);
}

// An option of `app` or of a command above it, by the name CLI11's message uses.
const CLI::Option* find_option(const CLI::App* app, const std::string& name) {
  for (; app != nullptr && !name.empty(); app = app->get_parent())
    if (const CLI::Option* opt = app->get_option_no_throw(name)) return opt;
  return nullptr;
}

// How the user names an option: --seed, or LESSON for a positional argument.
std::string shown_name(const CLI::Option* opt, const std::string& fallback) {
  if (opt == nullptr || !opt->get_positional()) return fallback;
  std::string name = opt->get_name(true);
  std::transform(name.begin(), name.end(), name.begin(), ::toupper);
  return name;
}

// What an option takes, in words: its kind of number, or else its help text.
std::string allowed(const CLI::Option* opt) {
  if (opt == nullptr) return "";
  const std::string type = opt->get_type_name().substr(0, opt->get_type_name().find(':'));
  if (type == "UINT") return "a whole number (0 or more)";
  if (type == "INT") return "a whole number";
  if (type == "FLOAT") return "a number";
  return lower_first(opt->get_description());
}

}  // namespace

std::string usage_sentence(const CLI::App& root, const CLI::ParseError& e) {
  // The command the error is in: the deepest subcommand chosen so far.
  const CLI::App* app = &root;
  std::string command = "coopviz";
  while (!app->get_subcommands().empty()) {
    app = app->get_subcommands().back();
    command += " " + app->get_name();
  }
  const std::string help = "see `" + command + " --help`";
  const std::string what = e.what();
  const auto [name, rest] = split_name(what);
  const CLI::Option* opt = find_option(app, name);

  if (dynamic_cast<const CLI::ConversionError*>(&e) != nullptr) {
    // "Could not convert: --seed = x"; a switch may also say "--json: Should be true/false ...".
    const auto [converted, value] = split_name(rest, " = ");
    const std::string option = opt != nullptr ? name : converted;
    const std::string got = opt != nullptr ? "" : ", got '" + value + "'";
    if (const CLI::Option* o = opt != nullptr ? opt : find_option(app, converted)) {
      if (o->get_expected_max() == 0)
        return option + " is a switch: give it alone (or =true or =false)" + got;
      const bool digits = value.find_first_not_of("-0123456789") == std::string::npos &&
                          value.find_first_of("0123456789") != std::string::npos;
      return option + " expects " + allowed(o) + got + (digits ? ", which is out of range" : "");
    }
  }
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr && opt != nullptr) {
    // "--backend: At Most 1 required but received 2", "--seed: 1 required UINT missing".
    const std::string what_it_takes = allowed(opt).empty() ? help : allowed(opt);
    if (rest.rfind("At Most 1 required but received ", 0) == 0) {
      const std::string times = rest.substr(rest.rfind(' ') + 1);
      return name + " given " + (times == "2" ? "twice" : times + " times") + "; give it once (" +
             what_it_takes + ")";
    }
    if (rest.find(" missing") != std::string::npos)
      return name + " needs a value: " + what_it_takes;
    return name + " was given the wrong number of values (" + lower_first(rest) + "; " + help + ")";
  }
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
    // "The following arguments were not expected: --x bogus": CLI11 lists them last first.
    std::string first = split_name(what, "expected: ").second;
    first = first.substr(first.rfind(' ') + 1);
    if (first.rfind("-", 0) == 0)
      return "unknown option '" + first.substr(0, first.find('=')) + "' for `" + command + "` (" +
             help + ")";
    if (!command_names(*app).empty())
      return "unknown command '" + first + "'" + (app == &root ? "" : " for `" + command + "`") +
             " (commands: " + command_names(*app) + ")";
    std::vector<std::string> positionals;
    for (const CLI::Option* p :
         app->get_options([](const CLI::Option* o) { return o->get_positional(); }))
      positionals.push_back(shown_name(p, ""));
    return "unexpected argument '" + first + "': `" + command + "` takes " +
           (positionals.empty() ? "no arguments, only options" : "only " + join(positionals)) +
           " (" + help + ")";
  }
  if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr) {
    // "lesson is required", "--block is required", "A subcommand".
    const auto [required, tail] = split_name(what, " is required");
    if (const CLI::Option* o = find_option(app, required); o != nullptr && tail.empty())
      return "`" + command + "` needs " + shown_name(o, required) + ": " + allowed(o);
    if (what.find("subcommand") != std::string::npos)
      return "`" + command + "` needs a command (commands: " + command_names(*app) + ")";
  }
  if (dynamic_cast<const CLI::ValidationError*>(&e) != nullptr && opt != nullptr) {
    // "--only: foo not in {tree,numba}"
    const auto [value, set] = split_name(rest, " not in {");
    std::string choices = set.substr(0, set.find('}'));
    for (size_t comma = choices.find(','); comma != std::string::npos;
         comma = choices.find(',', comma + 2))
      choices.insert(comma + 1, " ");
    if (!value.empty()) return name + " expects one of " + choices + "; got '" + value + "'";
    return name + ": " + lower_first(rest) + " (" + help + ")";
  }
  if (dynamic_cast<const CLI::RequiresError*>(&e) != nullptr) {
    const auto [needing, needed] = split_name(what, " requires ");
    return needing + " needs " + needed + " as well (" + help + ")";
  }
  if (dynamic_cast<const CLI::ExcludesError*>(&e) != nullptr) {
    const auto [one, other] = split_name(what, " excludes ");
    return "give " + one + " or " + other + ", not both (" + help + ")";
  }
  // InvalidError, HorribleError, FileError, ConfigError and anything CLI11 adds: its own words.
  return lower_first(what) + " (" + help + ")";
}

int usage_error(const std::string& message) {
  std::string line = message;
  std::replace(line.begin(), line.end(), '\n', ' ');  // one line, always
  std::cerr << "coopviz: error: " << line << "\n";
  return 2;
}

int usage_errors(const std::string& messages) {
  std::istringstream lines(messages);
  for (std::string line; std::getline(lines, line);) usage_error(line);
  return 2;
}

SplitArguments split_at_separator(const std::vector<std::string>& args) {
  SplitArguments out;
  for (const std::string& a : args) {
    if (!out.separated && a == "--") {
      out.separated = true;
    } else if (out.separated) {
      out.program.push_back(a);
    } else {
      out.own.push_back(a);
    }
  }
  // nvcc's spellings of relocatable device code (`coopviz run -rdc=true a.cu b.cu` as the user
  // builds it), which the parser reads as --rdc.
  out.own = with_nvcc_rdc_flags(out.own);
  return out;
}

}  // namespace coop::app
