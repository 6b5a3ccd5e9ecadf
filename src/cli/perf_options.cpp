#include "perf_options.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string_view>

namespace readperf::cli {

namespace {

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// How an option takes its value, as parse-options.c tells them apart.
enum class Arity {
  kNone,      // OPTION_BOOLEAN, OPTION_INCR: a CLI11 flag
  kRequired,  // OPTION_STRING and the like: attached, or the next argument whatever it is
  kOptional,  // PARSE_OPT_LASTARG_DEFAULT: the next argument unless it starts with '-'
};

Arity arity_of(const CLI::Option* o) {
  if (o->get_expected_max() == 0) return Arity::kNone;
  if (o->get_expected_min() == 0) return Arity::kOptional;
  return Arity::kRequired;
}

// One option of a command as perf's usage lists it.
struct Entry {
  CLI::Option* opt = nullptr;
  char short_name = 0;
  std::string long_name;
};

std::vector<Entry> entries_of(CLI::App& cmd) {
  std::vector<Entry> out;
  for (CLI::Option* o : cmd.get_options()) {
    if (o == cmd.get_help_ptr() || o == cmd.get_help_all_ptr()) continue;
    if (o->get_positional() && o->get_lnames().empty() && o->get_snames().empty()) continue;
    Entry e;
    e.opt = o;
    if (!o->get_snames().empty()) e.short_name = o->get_snames().front()[0];
    if (!o->get_lnames().empty()) e.long_name = o->get_lnames().front();
    if (!e.short_name && e.long_name.empty()) continue;
    out.push_back(std::move(e));
  }
  return out;
}

// parse-options.c option__cmp(): by short name (case folded, none last), then long name.
void sort_like_perf(std::vector<Entry>& entries) {
  auto key = [](const Entry& e) {
    int s = std::tolower(static_cast<unsigned char>(e.short_name));
    return s ? s : 'z' + 1;
  };
  std::stable_sort(entries.begin(), entries.end(), [&](const Entry& a, const Entry& b) {
    if (key(a) != key(b)) return key(a) < key(b);
    return a.long_name < b.long_name;
  });
}

// The word between < and > in perf's usage: the option's own text, else its type.
std::string argh_of(const CLI::Option* o) {
  std::string t = o->get_option_text();
  if (!t.empty()) return t;
  t = o->get_type_name();
  if (t == "TEXT" || t.empty()) return "str";
  if (t == "INT" || t == "UINT" || t == "FLOAT" || t == "NUMBER") return "n";
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return std::tolower(c); });
  return t;
}

// parse-options.c print_option_help(): "    -s, --long <arg>" padded to 24 columns, then the
// help; past 24 columns the help goes on the next line.
void print_option_help(FILE* f, const Entry& e) {
  std::string left = "    ";
  left += e.short_name ? fmt::format("-{}", e.short_name) : "    ";
  if (e.short_name && !e.long_name.empty()) left += ", ";
  if (!e.long_name.empty()) left += "--" + e.long_name;
  Arity a = arity_of(e.opt);
  if (a == Arity::kRequired) {
    left += fmt::format(" <{}>", argh_of(e.opt));
  } else if (a == Arity::kOptional) {
    left += (e.long_name.empty() ? "[<" : "[=<") + argh_of(e.opt) + ">]";
  }
  constexpr size_t kWidth = 24, kGap = 2;
  std::string description = e.opt->get_description();
  if (left.size() <= kWidth) {
    fmt::print(f, "{}{:{}}{}\n", left, "", kWidth - left.size() + kGap, description);
  } else {
    fmt::print(f, "{}\n{:{}}{}\n", left, "", kWidth + kGap, description);
  }
}

std::string command_path(const CLI::App& cmd) {
  std::string path = cmd.get_name();
  for (const CLI::App* p = cmd.get_parent(); p; p = p->get_parent()) {
    path = (p->get_parent() ? p->get_name() : std::string("readperf")) + " " + path;
  }
  return path;
}

void print_usage_head(FILE* f, const CLI::App& cmd) {
  fmt::print(f, "\n Usage: {} [<options>]\n\n", command_path(cmd));
}

// usage_with_options(): the error line (if any), the usage line and every option.
int usage(CLI::App& cmd, std::string_view error, FILE* f = stderr, int status = kUsageExit) {
  if (!error.empty()) fmt::print(f, "  Error: {}\n", error);
  print_usage_head(f, cmd);
  std::vector<Entry> entries = entries_of(cmd);
  sort_like_perf(entries);
  for (const Entry& e : entries) print_option_help(f, e);
  std::fputc('\n', f);
  return status;
}

// parse_options_usage(): a " Error: ..." line (already printed), the usage line and the
// options matching what was typed.
int usage_for(CLI::App& cmd, const std::vector<const Entry*>& matching) {
  fmt::print(stderr, "\n Usage: {} [<options>]\n\n", command_path(cmd));
  for (const Entry* e : matching) print_option_help(stderr, *e);
  return kUsageExit;
}

struct Match {
  const Entry* entry = nullptr;
  bool negated = false;
};

// The arguments of one command, rewritten for CLI11.
class CommandArgs {
 public:
  explicit CommandArgs(CLI::App& cmd) : cmd_(cmd), entries_(entries_of(cmd)) {}

  // Rewrites args[i..]; returns an exit status when the command line is wrong.
  std::optional<int> rewrite(std::vector<std::string>& args, size_t i,
                             std::vector<std::string>& out) {
    while (i < args.size()) {
      const std::string& a = args[i];
      if (a == "--") {  // the rest is not options (after the options before it)
        flush(out);
        out.insert(out.end(), args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
        return std::nullopt;
      }
      if (a.size() < 2 || a[0] != '-') {
        for (CLI::App* sub : cmd_.get_subcommands({})) {
          if (sub->check_name(a)) {
            flush(out);
            out.push_back(a);
            return CommandArgs(*sub).rewrite(args, i + 1, out);
          }
        }
        if (stops_at_non_option()) {
          // The rest is the script's or the script command's (report NAME ARGS...).
          flush(out);
          out.push_back("--");
          out.insert(out.end(), args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
          return std::nullopt;
        }
        pending_.push_back({a, nullptr});
        ++i;
        continue;
      }
      std::optional<int> st = a[1] == '-' ? long_option(args, i) : short_options(args, i);
      if (st) return st;
    }
    flush(out);
    return std::nullopt;
  }

  // --list-opts and -h go through here too.
  CLI::App& command() { return cmd_; }

 private:
  // builtin-script.c cmd_script(): PARSE_OPT_STOP_AT_NON_OPTION, so that `script -s X.py ARG
  // -x` and `script report NAME -i FILE` hand what follows to the script.
  bool stops_at_non_option() const { return cmd_.get_name() == "script"; }

  void flush(std::vector<std::string>& out) {
    for (auto& [arg, opt] : pending_) out.push_back(std::move(arg));
    pending_.clear();
  }

  void emit(const Entry& e, std::optional<std::string> value) {
    std::string arg;
    if (!e.long_name.empty()) {
      arg = "--" + e.long_name;
      if (value) arg += "=" + *value;
    } else {
      arg = fmt::format("-{}", e.short_name);
      if (value) arg += *value;
    }
    pending_.push_back({std::move(arg), e.opt});
  }

  // perf's OPT_STRING and friends are unset by --no-NAME; the last word wins.
  void unset(const Entry& e) {
    std::erase_if(pending_, [&](const auto& p) { return p.second == e.opt; });
  }

  // parse-options.c parse_long_opt(): exact names first, then --no-NAME, then a unique
  // prefix (a prefix of a --no-NAME counts too).
  std::optional<int> long_option(std::vector<std::string>& args, size_t& i) {
    std::string_view arg = std::string_view(args[i]).substr(2);
    if (arg == "help") {
      usage(cmd_, "", stdout, 0);
      return 0;
    }
    if (arg == "list-opts") {  // parse_options_subcommand(): PARSE_OPT_LIST_OPTS
      for (const Entry& e : entries_)
        if (!e.long_name.empty()) fmt::print("--{} ", e.long_name);
      std::putchar('\n');
      return 130;
    }
    size_t eq = arg.find('=');
    std::string_view name = arg.substr(0, eq);
    std::optional<std::string> value;
    if (eq != std::string_view::npos) value = std::string(arg.substr(eq + 1));

    Match m;
    std::vector<Match> abbrev;
    auto add_abbrev = [&](const Entry& e, bool negated) {
      for (const Match& x : abbrev)
        if (x.entry->opt == e.opt && x.negated == negated) return;
      abbrev.push_back({&e, negated});
    };
    for (const Entry& e : entries_) {
      for (const std::string& ln : e.opt->get_lnames()) {
        if (ln == name) m = {&e, false};
      }
    }
    if (!m.entry && starts_with(name, "no-")) {
      for (const Entry& e : entries_)
        for (const std::string& ln : e.opt->get_lnames())
          if (ln == name.substr(3)) m = {&e, true};
    }
    if (!m.entry) {
      for (const Entry& e : entries_) {
        for (const std::string& ln : e.opt->get_lnames()) {
          if (starts_with(ln, name)) add_abbrev(e, false);
          // --no-chi is --no-children, not the negation of --children, when both exist.
          if (starts_with(name, "no-") && starts_with(ln, name.substr(3)) && !has_long("no-" + ln))
            add_abbrev(e, true);
        }
      }
      if (abbrev.size() > 1) {
        const Match& a = abbrev[0];
        const Match& b = abbrev[1];
        fmt::print(stderr, " Error: Ambiguous option: {} (could be --{}{} or --{}{})\n", arg,
                   a.negated ? "no-" : "", a.entry->long_name, b.negated ? "no-" : "",
                   b.entry->long_name);
        std::vector<const Entry*> matching;
        for (const Entry& e : entries_)
          if (starts_with(e.long_name, name)) matching.push_back(&e);
        return usage_for(cmd_, matching);
      }
      if (abbrev.size() == 1) m = abbrev[0];
    }
    if (!m.entry) return usage(cmd_, fmt::format("unknown option `{}'", arg));

    const Entry& e = *m.entry;
    Arity ar = arity_of(e.opt);
    if (m.negated) {
      if (value) return option_error(e, "takes no value", /*is_short=*/false, true);
      if (ar == Arity::kNone) {
        unset(e);
        pending_.push_back({"--" + e.long_name + "=false", e.opt});
      } else {
        unset(e);
      }
      ++i;
      return std::nullopt;
    }
    if (ar == Arity::kNone) {
      if (value) return option_error(e, "takes no value", false, false);
      emit(e, std::nullopt);
      ++i;
      return std::nullopt;
    }
    ++i;
    if (!value && i < args.size()) {
      if (ar == Arity::kRequired || args[i].empty() || args[i][0] != '-') value = args[i++];
    }
    if (!value && ar == Arity::kRequired) return option_error(e, "requires a value", false, false);
    emit(e, value);
    return std::nullopt;
  }

  // parse_short_opt(): a bundle of flags, the last of which may take the rest of the word
  // or the next argument as its value.
  std::optional<int> short_options(std::vector<std::string>& args, size_t& i) {
    const std::string a = args[i++];
    for (size_t k = 1; k < a.size(); ++k) {
      char c = a[k];
      if (c == 'h') return usage(cmd_, "");
      const Entry* found = nullptr;
      for (const Entry& e : entries_)
        for (const std::string& sn : e.opt->get_snames())
          if (sn.size() == 1 && sn[0] == c) found = &e;
      if (!found) return usage(cmd_, fmt::format("unknown switch `{}'", c));
      Arity ar = arity_of(found->opt);
      if (ar == Arity::kNone) {
        emit(*found, std::nullopt);
        continue;
      }
      std::optional<std::string> value;
      if (k + 1 < a.size()) {
        value = a.substr(k + 1);
      } else if (i < args.size() &&
                 (ar == Arity::kRequired || args[i].empty() || args[i][0] != '-')) {
        value = args[i++];
      }
      if (!value && ar == Arity::kRequired) {
        return option_error(*found, "requires a value", /*is_short=*/true, false);
      }
      // A short option's value stays its own word for CLI11 when it has no long name.
      emit(*found, value);
      return std::nullopt;
    }
    return std::nullopt;
  }

  bool has_long(const std::string& name) const {
    for (const Entry& e : entries_)
      for (const std::string& ln : e.opt->get_lnames())
        if (ln == name) return true;
    return false;
  }

  // opterror() and parse_options_usage() for one option.
  int option_error(const Entry& e, std::string_view reason, bool is_short, bool negated) {
    if (is_short) {
      fmt::print(stderr, " Error: switch `{}' {}", e.short_name, reason);
    } else {
      fmt::print(stderr, " Error: option `{}{}' {}", negated ? "no-" : "", e.long_name, reason);
    }
    return usage_for(cmd_, {&e});
  }

  CLI::App& cmd_;
  std::vector<Entry> entries_;
  std::vector<std::pair<std::string, CLI::Option*>> pending_;
};

// debug.c perf_debug_option(): "verbose=2", "ordered-events", "stderr,verbose=1".
bool parse_debug(std::string_view spec, int& verbose) {
  static constexpr std::string_view kNames[] = {"verbose", "ordered-events", "stderr",
                                                "data-convert", "perf-event-open"};
  while (!spec.empty()) {
    size_t comma = spec.find(',');
    std::string_view item = spec.substr(0, comma);
    spec = comma == std::string_view::npos ? "" : spec.substr(comma + 1);
    size_t eq = item.find('=');
    std::string_view name = item.substr(0, eq);
    int value = 1;
    if (eq != std::string_view::npos) value = std::atoi(std::string(item.substr(eq + 1)).c_str());
    if (std::find(std::begin(kNames), std::end(kNames), name) == std::end(kNames)) {
      fmt::print(stderr, "Unknown debug variable name '{}'\n", name);
      return false;
    }
    if (name == "verbose") verbose = value < 0 || value > 10 ? 0 : value;
  }
  return true;
}

int global_usage() {
  fmt::print(stderr,
             "\n usage: readperf [--version] [--help] [OPTIONS] COMMAND [ARGS]\n\n"
             " The commands are report, script, stat report, export, convert, summary, csv "
             "and flamegraph.\n\n");
  return kUsageExit;
}

// The command that was named last, whose usage an error shows.
CLI::App& deepest_parsed(CLI::App& app) {
  CLI::App* cmd = &app;
  for (bool deeper = true; deeper;) {
    deeper = false;
    for (CLI::App* sub : cmd->get_subcommands({})) {
      if (sub->parsed()) {
        cmd = sub;
        deeper = true;
        break;
      }
    }
  }
  return *cmd;
}

// CLI11's "NAME: message" of a failed check, as perf prints a callback's error.
std::optional<int> option_check_failed(CLI::App& app, std::string_view what) {
  CLI::App& cmd = deepest_parsed(app);
  std::vector<Entry> entries = entries_of(cmd);
  for (const Entry& e : entries) {
    std::string name = e.opt->get_name() + ": ";
    if (starts_with(what, name)) {
      fmt::print(stderr, "{}\n", what.substr(name.size()));
      return usage_for(cmd, {&e});
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<int> parse_perf_command_line(CLI::App& app, std::vector<std::string> args) {
  // The options before the command (perf.c handle_options()).
  std::vector<std::string> out{args.empty() ? std::string("readperf") : args[0]};
  int verbose = 0;
  size_t i = 1;
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.empty() || a[0] != '-') break;
    if (a == "-v") {
      out.push_back("--version");
      continue;
    }
    if (a == "-q") {  // readperf's own: no progress line
      out.push_back("--quiet");
      continue;
    }
    if (a == "-h" || a == "--help") {
      out.push_back("--help");
      continue;
    }
    if (a == "--debug") {
      if (i + 1 >= args.size()) {
        fmt::print(stderr, "No variable specified for --debug.\n");
        return global_usage();
      }
      if (!parse_debug(args[++i], verbose)) return global_usage();
      continue;
    }
    std::string_view name = a;
    size_t eq = name.find('=');
    CLI::Option* o = nullptr;
    for (CLI::Option* x : app.get_options()) {
      for (const std::string& ln : x->get_lnames())
        if (name.substr(0, eq) == "--" + ln) o = x;
    }
    if (!o) {
      fmt::print(stderr, "Unknown option: {}\n", a);
      return global_usage();
    }
    out.push_back(a);
    if (arity_of(o) == Arity::kRequired && eq == std::string_view::npos && i + 1 < args.size())
      out.push_back(args[++i]);
  }

  if (i < args.size()) {
    CLI::App* cmd = nullptr;
    for (CLI::App* sub : app.get_subcommands({})) {
      if (sub->check_name(args[i])) cmd = sub;
    }
    if (cmd) {
      out.push_back(args[i]);
      // `--debug verbose=N` is the command's -v given N times.
      for (CLI::Option* o : cmd->get_options()) {
        if (o->check_lname("verbose")) {
          for (int k = 0; k < verbose; ++k) out.push_back("--verbose");
        }
      }
      CommandArgs command(*cmd);
      if (std::optional<int> st = command.rewrite(args, i + 1, out)) return st;
    } else {
      out.insert(out.end(), args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
    }
  }

  std::vector<char*> ptrs;
  for (std::string& a : out) ptrs.push_back(a.data());
  try {
    app.parse(static_cast<int>(ptrs.size()), ptrs.data());
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ValidationError& e) {
    // An option's own check failed (perf's option callback returned an error): its message,
    // then the usage with that option (parse_options_usage()).
    if (std::optional<int> st = option_check_failed(app, e.what())) return st;
    return usage(app, e.what());
  } catch (const CLI::ParseError& e) {
    // The deepest command that was named gets the blame, as perf's per-command usage.
    CLI::App* cmd = &deepest_parsed(app);
    if (cmd == &app) {
      fmt::print(stderr, "readperf: {}\n", e.what());
      return global_usage();
    }
    return usage(*cmd, e.what());
  }
  return std::nullopt;
}

}  // namespace readperf::cli
