// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "run-arguments.h"

#include "scenario-config.h"

#include <boost/program_options.hpp>
#include <cstdlib>

namespace po = boost::program_options;

namespace ns3
{

namespace
{

/// How dlsim-run reads options: no abbreviations (a scenario key may start like an option).
constexpr int kStyle
    = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;

/// --band's help, for a run and for --plot and --collect.
const char* const kBandHelp
    = "the band around each accuracy curve: auto (the default: seeds when a point has several, "
      "else nodes), seeds (95% confidence interval over a point's seeds), nodes (least to "
      "largest accuracy over the nodes) or none";

/// The options of a run (and of a grid); --log-file is for the grid's own children.
const po::options_description&
RunOptionsDescription()
{
    static const po::options_description options = []()
    {
        po::options_description d("Options of a run");
        // Values are read as text and checked below, so that a bad one is named as before.
        d.add_options()("help,h", "print this help and exit")(
            "version", "print dlsim's, ns-3's and LibTorch's versions and exit")(
            "key-table", "print the scenario keys as the doc's reStructuredText table and exit")(
            "jobs,j",
            po::value<std::string>()->value_name("N"),
            "run N grid points at a time, each in its own process (1 to 1024; default 1)")(
            "overwrite", "replace the complete results of another configuration in the run folder")(
            "tune-choco", "print CHOCO-SGD's step-size tuning for the scenario and exit")(
            "tune",
            "choose every algorithm's settings (tune.lr, tune.alpha, tune.gamma) on a validation "
            "set held out of the training data, then run the comparison with them")(
            "replay",
            po::value<std::string>()->value_name("RUN_DIR"),
            "replay the learning recorded in a finished run's folder over the network the "
            "--KEY=VALUE options change (network keys only: the underlay's, link.*, cross.*, "
            "trace.*, tcp.*, capture.*); nothing is trained. The scenario is RUN_DIR/config.ini; "
            "results go to RUN_DIR-replay-KEY=VALUE... unless --out is given; a key with several "
            "values is a grid of replays")(
            "replay-from",
            po::value<std::string>()->value_name("RUN_DIR"),
            "run the scenario replaying the learning recorded in RUN_DIR (what a grid's points "
            "that differ only in network keys do)")(
            "emit-jobs",
            po::value<std::string>()->value_name("FILE"),
            "write one command per grid point to FILE (GNU parallel) and a Slurm array job "
            "script FILE.slurm, and run nothing")("no-plot",
                                                  "draw no figures at the end of the run")(
            "figure-style",
            po::value<std::string>()->value_name("STYLE"),
            "screen (PNG and SVG, the default) or paper (PDF and SVG, 3.5 in wide)")(
            "band", po::value<std::string>()->value_name("BAND"), kBandHelp)(
            "log-x", "logarithmic x axes in every figure")("log-y",
                                                           "logarithmic y axes in every figure")(
            "log-file",
            po::value<std::string>()->value_name("FILE"),
            "write the run's output to FILE once it holds its folder (what a grid's points do)");
        return d;
    }();
    return options;
}

/// What --plot DIR and --collect DIR take after DIR.
const po::options_description&
PlotOptionsDescription()
{
    static const po::options_description options = []()
    {
        po::options_description d("Options after --plot DIR and --collect DIR");
        d.add_options()("target_accuracy",
                        po::value<std::string>()->value_name("X"),
                        "recompute time, bytes and round to accuracy X from every run's "
                        "curve.csv, in the figures and in index.csv")(
            "figure-style",
            po::value<std::string>()->value_name("STYLE"),
            "screen (PNG and SVG, the default) or paper (PDF and SVG, 3.5 in wide)")(
            "band", po::value<std::string>()->value_name("BAND"), kBandHelp)(
            "log-x", "logarithmic x axes in every figure")("log-y",
                                                           "logarithmic y axes in every figure");
        return d;
    }();
    return options;
}

/// -j's value: a number of parallel runs from 1 to 1024.
unsigned
ParseJobs(const std::string& value)
{
    char* end = nullptr;
    const long n = std::strtol(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0' || n < 1 || n > 1024)
    {
        throw ScenarioError("-j expects a number of parallel runs from 1 to 1024, got '" + value
                            + "'");
    }
    return static_cast<unsigned>(n);
}

/// --emit-jobs's value: a file name.
std::string
ParseJobsFile(const std::string& value)
{
    if (value.empty())
    {
        throw ScenarioError("--emit-jobs needs a file name");
    }
    return value;
}

/**
 * Any other --KEY=VALUE or --KEY VALUE (VALUE not starting with '-') is a scenario key: taken
 * here as one unregistered "--KEY=VALUE" token, for the scenario parser to check and to name.
 */
std::vector<po::option>
ScenarioKeyParser(std::vector<std::string>& args)
{
    const std::string& arg = args.front();
    if (arg.size() <= 2 || arg.compare(0, 2, "--") != 0)
    {
        return {};
    }
    const std::string name = arg.substr(2, arg.find('=') - 2);
    if (RunOptionsDescription().find_nothrow(name, false))
    {
        return {};
    }
    po::option key;
    key.string_key = name;
    key.unregistered = true;
    std::string token = arg;
    args.erase(args.begin());
    if (token.find('=') == std::string::npos && !args.empty() && args.front().rfind('-', 0) != 0)
    {
        token += "=" + args.front();
        args.erase(args.begin());
    }
    key.original_tokens.push_back(token);
    return {key};
}

/**
 * A missing value is reported as the option's own check reports an empty one ("-j expects ...,
 * got ''"); other syntax errors with Program_options' message, which names the option.
 */
[[noreturn]] void
ThrowSyntaxError(const po::error& e)
{
    if (const auto* syntax = dynamic_cast<const po::invalid_command_line_syntax*>(&e);
        syntax
        && (syntax->kind() == po::invalid_command_line_syntax::missing_parameter
            || syntax->kind() == po::invalid_command_line_syntax::empty_adjacent_parameter))
    {
        std::string name = syntax->get_option_name();
        name.erase(0, name.find_first_not_of('-'));
        if (name == "j" || name == "jobs")
        {
            ParseJobs("");
        }
        if (name == "emit-jobs")
        {
            ParseJobsFile("");
        }
        if (name == "figure-style" || name == "band" || name == "target_accuracy")
        {
            PlotOptions ignored;
            ParsePlotOption("--" + name, ignored);
        }
    }
    throw ScenarioError(std::string("dlsim-run: ") + e.what() + " (see dlsim-run --help)");
}

/// --plot or --collect (argv[1]), then one folder and the options of PlotOptionsDescription, in
/// any order (`--plot --figure-style=paper DIR` as `--plot DIR --figure-style=paper`).
RunArguments
ParsePlotArguments(const std::vector<std::string>& args)
{
    RunArguments line;
    line.action = args[0] == "--plot" ? RunArguments::Action::Plot : RunArguments::Action::Collect;
    po::parsed_options parsed(nullptr);
    try
    {
        parsed = po::command_line_parser(std::vector<std::string>(args.begin() + 1, args.end()))
                     .options(PlotOptionsDescription())
                     .style(kStyle)
                     .allow_unregistered()
                     .run();
    }
    catch (const po::error& e)
    {
        ThrowSyntaxError(e);
    }
    std::vector<std::string> folders;
    for (const std::string& other :
         po::collect_unrecognized(parsed.options, po::include_positional))
    {
        if (other.rfind('-', 0) == 0)
        {
            throw ScenarioError("dlsim plot/collect take one folder and only --target_accuracy=X, "
                                "--figure-style=screen|paper, --band=BAND, --log-x and --log-y, "
                                "got '"
                                + other + "'");
        }
        folders.push_back(other);
    }
    if (folders.size() != 1)
    {
        throw ScenarioError(
            "dlsim plot/collect take one folder of runs, got " + std::to_string(folders.size())
            + (folders.empty() ? "" : " ('" + folders[0] + "', '" + folders[1] + "')"));
    }
    line.folder = folders.front();
    for (const po::option& option : parsed.options)
    {
        const std::string value = option.value.empty() ? "" : "=" + option.value.front();
        ParsePlotOption("--" + option.string_key + value, line.plotOptions);
    }
    return line;
}

} // namespace

RunArguments
ParseRunArguments(int argc, char** argv)
{
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (!args.empty() && (args[0] == "--plot" || args[0] == "--collect"))
    {
        return ParsePlotArguments(args);
    }
    po::options_description all;
    all.add(RunOptionsDescription())
        .add_options()("scenario", po::value<std::vector<std::string>>());
    po::positional_options_description positional;
    positional.add("scenario", -1);
    po::parsed_options parsed(nullptr);
    try
    {
        parsed = po::command_line_parser(args)
                     .options(all)
                     .positional(positional)
                     .style(kStyle)
                     .extra_style_parser(ScenarioKeyParser)
                     .allow_unregistered()
                     .run();
    }
    catch (const po::error& e)
    {
        ThrowSyntaxError(e);
    }
    // In the order given, so that a later option wins, as a later key does.
    RunArguments line;
    for (const po::option& option : parsed.options)
    {
        const std::string& name = option.string_key;
        const std::string value = option.value.empty() ? "" : option.value.front();
        if (option.unregistered)
        {
            const std::string& token = option.original_tokens.front();
            if (token.rfind("--", 0) != 0)
            {
                throw ScenarioError("unknown option '" + token + "' (see dlsim-run --help)");
            }
            line.overrides.push_back(token);
        }
        else if (name == "help" || name == "version" || name == "key-table")
        {
            line.action = name == "help"      ? RunArguments::Action::Help
                          : name == "version" ? RunArguments::Action::Version
                                              : RunArguments::Action::KeyTable;
            return line;
        }
        else if (name == "scenario")
        {
            if (!line.scenarioFile.empty())
            {
                throw ScenarioError("more than one scenario file given ('" + line.scenarioFile
                                    + "' and '" + value + "')");
            }
            line.scenarioFile = value;
        }
        else if (name == "jobs")
        {
            line.jobs = ParseJobs(value);
        }
        else if (name == "emit-jobs")
        {
            line.emitJobs = ParseJobsFile(value);
        }
        else if (name == "log-file")
        {
            line.logFile = value;
        }
        else if (name == "replay" || name == "replay-from")
        {
            if (value.empty())
            {
                throw ScenarioError("--" + name + " needs a run folder");
            }
            std::string& folder = name == "replay" ? line.replay : line.replayFrom;
            if (!folder.empty())
            {
                throw ScenarioError("--" + name + " given twice ('" + folder + "' and '" + value
                                    + "'): one run folder is replayed");
            }
            folder = value;
        }
        else if (name == "figure-style" || name == "band" || name == "log-x" || name == "log-y")
        {
            ParsePlotOption("--" + name + (option.value.empty() ? "" : "=" + value),
                            line.plotOptions);
        }
        else
        {
            (name == "tune-choco"  ? line.tuneChoco
             : name == "tune"      ? line.tune
             : name == "overwrite" ? line.overwrite
                                   : line.plot)
                = name != "no-plot";
        }
    }
    if (!line.replay.empty())
    {
        // ./dlsim replay RUN_DIR: the run's own configuration is the scenario.
        if (!line.scenarioFile.empty() || !line.replayFrom.empty())
        {
            throw ScenarioError("--replay RUN_DIR takes its scenario from RUN_DIR/config.ini: "
                                "give no scenario file and no --replay-from with it");
        }
        line.scenarioFile = line.replay + "/config.ini";
    }
    if (line.scenarioFile.empty() && std::getenv("DLSIM_DEFAULT_SCENARIO"))
    {
        line.scenarioFile = std::getenv("DLSIM_DEFAULT_SCENARIO"); // set by ./dlsim run
    }
    return line;
}

void
PrintUsage(std::ostream& out)
{
    out << "usage: dlsim-run [SCENARIO.ini] [OPTIONS] [--KEY=VALUE ...] "
           "[--ns3.TYPE::ATTRIBUTE=VALUE ...]\n"
        << "       dlsim-run --plot DIR [--target_accuracy=X] [--figure-style=screen|paper]\n"
        << "                 [--band=auto|seeds|nodes|none] [--log-x] [--log-y]\n"
        << "       dlsim-run --collect DIR [the same options as --plot]\n"
        << "(./dlsim run, ./dlsim plot and ./dlsim collect call it this way.)\n\n"
        << "Runs a scenario and writes its results. Without SCENARIO.ini it runs the keys'\n"
        << "defaults below, unless DLSIM_DEFAULT_SCENARIO names a file: ./dlsim run sets it\n"
        << "to scenarios/quickstart.ini, whose values (lr 0.05, 2,000 test images, ...) differ.\n"
        << "A key given several comma-separated values (a, b, c) is a grid axis: every\n"
        << "combination runs in its own folder, N at a time with -j N; finished points are\n"
        << "skipped, so an interrupted grid resumes. After --emit-jobs and a run elsewhere,\n"
        << "'dlsim collect DIR' rebuilds the index and figures from the finished folders.\n"
        << "Figures (gnuplot) go to OUT/plots after every run. A sweep's axis is logarithmic\n"
        << "when its values span a factor of 10.\n\n"
        << RunOptionsDescription() << "\n"
        << PlotOptionsDescription() << "\n"
        << "Any key can be set in the file or overridden on the command line:\n\n";
    for (const auto& key : ScenarioKeys())
    {
        out << "  --" << key.name << " (default '" << key.defaultValue << "')\n      " << key.help;
        for (size_t i = 0; i < key.attributes.size(); ++i)
        {
            out << (i == 0 ? " (sets " : ", ") << key.attributes[i];
        }
        out << (key.attributes.empty() ? "" : ")") << "\n";
    }
}

} // namespace ns3
