// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "results-plots.h"

#include "algorithm-registry.h"
#include "external-command.h"
#include "random-variable-spec.h"
#include "result-files.h"
#include "results-writer.h"
#include "run-folder.h"
#include "scenario-config.h"
#include "time-to-target.h"
#include "value-text.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <vector>

using namespace dlsim; // the learning core (model/core)

namespace fs = std::filesystem;

namespace ns3
{

namespace
{

using Table = std::vector<std::map<std::string, std::string>>;

/// A CSV file as rows of column name to text.
Table
ReadCsv(const std::string& path)
{
    std::ifstream in(path);
    std::string line;
    std::vector<std::string> header;
    Table rows;
    auto split = [](const std::string& l)
    {
        std::vector<std::string> out;
        std::stringstream ss(l);
        for (std::string f; std::getline(ss, f, ',');)
        {
            out.push_back(f);
        }
        if (!l.empty() && l.back() == ',')
        {
            out.push_back("");
        }
        return out;
    };
    if (std::getline(in, line))
    {
        header = split(line);
    }
    while (std::getline(in, line))
    {
        std::vector<std::string> fields = split(line);
        std::map<std::string, std::string> row;
        for (size_t i = 0; i < header.size() && i < fields.size(); ++i)
        {
            row[header[i]] = fields[i];
        }
        rows.push_back(row);
    }
    return rows;
}

/// One finished run.
struct Run
{
    std::string dir;
    std::map<std::string, std::string> config; ///< every key's value as configured
    std::map<std::string, std::string> summary;
    /// What the `auto` keys resolved to in this run (summary.json), e.g. CHOCO's tuned gamma.
    std::map<std::string, std::string> resolved;
};

/// The "resolved" object of a run's summary.json: key to value ({} when there is none).
std::map<std::string, std::string>
ReadResolved(const std::string& dir)
{
    std::ifstream in(dir + "/summary.json");
    std::stringstream ss;
    ss << in.rdbuf();
    std::string why;
    std::map<std::string, std::string> resolved;
    const std::string prefix = "resolved.";
    if (const auto json = ParseJsonObject(ss.str(), why))
    {
        for (auto it = json->lower_bound(prefix);
             it != json->end() && it->first.compare(0, prefix.size(), prefix) == 0;
             ++it)
        {
            resolved[it->first.substr(prefix.size())] = it->second.text;
        }
    }
    return resolved;
}

/**
 * Set the to-target figures of a run for `target` from its curve.csv, the way the run itself
 * computes them (FindTargetCrossing), so that index.csv, the figures and summary.csv agree and
 * runs of earlier versions are brought in line.
 */
void
Retarget(Run& run, double target)
{
    std::ostringstream t;
    t << target;
    run.config["target_accuracy"] = t.str();
    std::vector<CurvePoint> curve;
    try
    {
        curve = ReadCurveCsv(run.dir + "/curve.csv");
    }
    catch (const std::runtime_error& e)
    {
        throw ScenarioError(std::string("cannot recompute the time to target: ") + e.what());
    }
    auto crossing = FindTargetCrossing(curve, target);
    auto text = [](double v)
    {
        std::ostringstream o;
        o << std::setprecision(10) << v;
        return o.str();
    };
    run.summary["time_to_target_s"] = crossing ? text(crossing->time) : "";
    run.summary["bytes_per_node_to_target"] = crossing ? text(crossing->bytesPerNode) : "";
    run.summary["round_to_target"] = crossing ? text(crossing->round) : "";
}

std::vector<Run>
FindRuns(const std::string& dir, double target)
{
    // Every folder with a summary of either kind: those that are not finished runs are named
    // below, not passed over in silence.
    std::vector<std::string> candidates;
    auto hasSummary = [](const fs::path& d)
    {
        return fs::exists(d / "summary.csv") || fs::exists(d / "summary.json");
    };
    if (hasSummary(dir))
    {
        candidates.push_back(dir);
    }
    else if (fs::is_directory(dir))
    {
        for (const auto& entry : fs::recursive_directory_iterator(dir))
        {
            const std::string name = entry.path().filename().string();
            if (entry.is_regular_file() && (name == "summary.csv" || name == "summary.json"))
            {
                candidates.push_back(entry.path().parent_path().string());
            }
        }
    }
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    std::vector<Run> runs;
    for (const auto& d : candidates)
    {
        if (!fs::exists(fs::path(d) / "config.ini"))
        {
            continue;
        }
        if (const std::string why = IncompleteRunReason(d); !why.empty())
        {
            std::cerr << "dlsim: warning: " << d << " is not a finished run (" << why
                      << "): left out (run it again)" << std::endl;
            continue;
        }
        Run run;
        run.dir = d;
        ScenarioConfig c = ScenarioConfig::Load(d + "/config.ini", {});
        for (const auto& key : ScenarioKeys())
        {
            run.config[key.name] = c.GetString(key.name);
        }
        Table summary = ReadCsv(d + "/summary.csv");
        run.summary = summary[0];
        run.resolved = ReadResolved(d);
        const bool hasCurve = fs::exists(fs::path(d) / "curve.csv");
        if (target >= 0.0 && !hasCurve)
        {
            throw ScenarioError("run " + d + " has no curve.csv to recompute the target from");
        }
        if (hasCurve)
        {
            Retarget(run, target >= 0.0 ? target : c.GetDouble("target_accuracy", 0.0, 1.0));
        }
        runs.push_back(run);
    }
    return runs;
}

/// Keys whose values differ between runs (those that cannot change results excluded).
std::vector<std::string>
Axes(const std::vector<Run>& runs)
{
    std::vector<std::string> axes;
    for (const auto& key : ScenarioKeys())
    {
        if (!ChangesResults(key.name))
        {
            continue;
        }
        std::set<std::string> values;
        for (const auto& r : runs)
        {
            values.insert(r.config.at(key.name));
        }
        if (values.size() > 1)
        {
            axes.push_back(key.name);
        }
    }
    return axes;
}

/// Whether `key` belongs to another algorithm than the run's (from the registrations).
bool
IsOtherAlgorithmsKey(const Run& run, const std::string& key)
{
    if (!AlgorithmRegistry::FindKey(key))
    {
        return false;
    }
    const AlgorithmRegistration* own = AlgorithmRegistry::Find(run.config.at("algorithm"));
    if (!own)
    {
        return true;
    }
    return std::none_of(own->keys.begin(),
                        own->keys.end(),
                        [&key](const AlgorithmKey& k) { return k.name == key; });
}

/// A key's value for a legend: what `auto` resolved to in the run, in 3 significant digits.
std::string
Shown(const Run& run, const std::string& key)
{
    const std::string& value = run.config.at(key);
    auto it = run.resolved.find(key);
    if (value != "auto" || it == run.resolved.end())
    {
        return value;
    }
    try
    {
        std::ostringstream o;
        o << std::setprecision(3) << std::stod(it->second);
        return o.str();
    }
    catch (const std::exception&)
    {
        return it->second;
    }
}

/**
 * An algorithm's short name with the parameters that matter for it, for legends; `used`
 * receives the keys shown, so that an axis among them is not repeated. `compact`: for the
 * paper style.
 */
std::string
AlgorithmLabel(const Run& run, std::set<std::string>& used, bool compact)
{
    const std::string& a = run.config.at("algorithm");
    // The registration's legend, from the values the run used (a tuned gamma, not "auto").
    std::map<std::string, std::string> config = run.config;
    const AlgorithmRegistration* registration = AlgorithmRegistry::Find(a);
    if (registration)
    {
        for (const AlgorithmKey& key : registration->keys)
        {
            if (config.count(key.name))
            {
                config[key.name] = Shown(run, key.name);
            }
        }
    }
    std::string label = AlgorithmFigureLabel(config);
    // Keys the legend shows are not repeated as axes; others of the algorithm's keys are.
    if (registration)
    {
        for (const AlgorithmKey& key : registration->keys)
        {
            if (config.count(key.name) && label.find(config.at(key.name)) != std::string::npos)
            {
                used.insert(key.name);
            }
        }
    }
    if (compact)
    {
        // A one-column figure's legend has room for about 40 characters.
        for (const auto& [full, shorter] :
             {std::pair<std::string, std::string>{"CHOCO-SGD", "CHOCO"},
              {"random sampling", "rand. sampling"}})
        {
            if (label.rfind(full, 0) == 0)
            {
                label = shorter + label.substr(full.size());
            }
        }
    }
    return label;
}

/**
 * Legend of a run: its algorithm, plus the values of the other axes except `skip` (and the
 * parameters of algorithms other than its own, which do not affect it). Short enough for a
 * one-column figure: a rate or latency by its value alone ("100Mbps", "10ms"), other keys by
 * their last part ("seed 2") unless two axes share it.
 */
std::string
Label(const Run& run,
      const std::vector<std::string>& axes,
      const std::set<std::string>& skip,
      bool compact)
{
    std::set<std::string> used;
    std::string label = AlgorithmLabel(run, used, compact);
    for (const auto& axis : axes)
    {
        if (axis == "algorithm" || skip.count(axis) || used.count(axis)
            || IsOtherAlgorithmsKey(run, axis))
        {
            continue;
        }
        const std::string value = Shown(run, axis);
        if (!NumericColumnSuffix(axis).empty() && !IsRandomVariableSpec(value))
        {
            label += ", " + value;
            continue;
        }
        auto lastPart = [](const std::string& key)
        {
            return key.substr(key.rfind('.') + 1);
        };
        const bool shared = std::count_if(axes.begin(),
                                          axes.end(),
                                          [&](const std::string& other)
                                          { return lastPart(other) == lastPart(axis); })
                            > 1;
        label += ", " + (shared ? axis : lastPart(axis)) + " " + value;
    }
    return label;
}

/**
 * gnuplot string literal (a newline in `s` becomes a line break in the figure). Single quotes:
 * gnuplot runs `commands` in backquotes inside double-quoted strings through the shell, never
 * inside single-quoted ones, where a ' is written ''; newlines, which a single-quoted string
 * cannot hold, are joined in as "\n".
 */
std::string
Quote(const std::string& s)
{
    std::string out = "'";
    for (char ch : s)
    {
        if (ch == '\n')
        {
            out += "'.\"\\n\".'";
            continue;
        }
        out += ch == '\'' ? std::string("''") : std::string(1, ch);
    }
    return out + "'";
}

/**
 * A path as gnuplot (a file to plot, an output file, the script itself as gnuplot's argument)
 * must see it: relative paths start with "./", so that gnuplot never reads one as a command
 * ("<cmd" as data, "|cmd" as output), a special file ("-", "") or an option ("-x").
 */
std::string
GnuplotPath(const std::string& path)
{
    return !path.empty() && path[0] == '/' ? path : "./" + path;
}

/// A number for a gnuplot script, exactly enough to place a marker.
std::string
Number(double v)
{
    std::ostringstream o;
    o << std::setprecision(10) << v;
    return o.str();
}

/// A swept value as a number, with the unit for the axis title.
double
SweptNumber(const std::string& key, const std::string& value, std::string& unit)
{
    try
    {
        static const std::set<std::string> rateKeys = {"link.bandwidth",
                                                       "access.up",
                                                       "access.down",
                                                       "core.bandwidth",
                                                       "regions.bandwidth",
                                                       "underlay.bandwidth",
                                                       "cross.rate"};
        if (rateKeys.count(key) && !IsRandomVariableSpec(value))
        {
            unit = "Mbit/s";
            return ParseDataRateBps(key, value) / 1e6;
        }
        if (key.size() > 8 && key.compare(key.size() - 8, 8, ".latency") == 0
            && !IsRandomVariableSpec(value))
        {
            unit = "ms";
            return ParseSeconds(key, value) * 1e3;
        }
        unit = "";
        return std::stod(value);
    }
    catch (const std::exception&)
    {
        return std::nan("");
    }
}

/**
 * gnuplot commands for one axis ("x" or "y") of the values drawn on it: a log scale when
 * forced, or (with autoLog) when the values are positive and span a factor of 10 or more, as
 * times to target across bandwidths do; and a range of its own around a constant series,
 * which gnuplot would otherwise only widen with a warning, to a range unrelated to the data.
 */
std::string
AxisCommands(const std::string& axis,
             const std::vector<double>& values,
             bool forceLog,
             bool autoLog,
             int maxTics = 0)
{
    double lo = INFINITY;
    double hi = -INFINITY;
    for (double v : values)
    {
        if (std::isfinite(v) && (!forceLog || v > 0))
        {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    }
    const bool any = lo <= hi;
    const bool log = forceLog || (autoLog && any && lo > 0 && hi / lo >= 10.0);
    std::ostringstream out;
    if (log)
    {
        out << "set logscale " << axis << "\n";
    }
    if (any && hi == lo)
    {
        const double pad = lo != 0 ? std::fabs(lo) * 0.1 : 1.0;
        out << "set " << axis << "range [" << Number(log ? lo / 2 : lo - pad) << ":"
            << Number(log ? hi * 2 : hi + pad) << "]\n";
    }
    else if (any && !log && maxTics > 0)
    {
        // gnuplot spaces tics by the range alone; on a narrow figure their labels would touch.
        // A step of 1, 2 or 5 times a power of ten, for at most maxTics intervals.
        const double raw = (hi - std::min(lo, 0.0)) / maxTics;
        const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
        double step = magnitude * 10;
        for (double m : {1.0, 2.0, 5.0})
        {
            if (m * magnitude >= raw)
            {
                step = m * magnitude;
                break;
            }
        }
        out << "set " << axis << "tics " << Number(step) << "\n";
    }
    return out.str();
}

/// Insert line breaks so that no line of `text` is longer than `width` (at spaces).
std::string
Wrap(const std::string& text, size_t width)
{
    std::string out;
    size_t lineLength = 0;
    std::stringstream words(text);
    for (std::string word; words >> word;)
    {
        if (lineLength > 0 && lineLength + 1 + word.size() > width)
        {
            out += "\n";
            lineLength = 0;
        }
        else if (lineLength > 0)
        {
            out += " ";
            ++lineLength;
        }
        out += word;
        lineLength += word.size();
    }
    return out;
}

/// What differs between the screen and the paper style of a figure.
struct Format
{
    bool paper = false;
    double lineWidth = 2.0;
    double pointSize = 0.6;
    size_t titleWidth = 110; ///< characters per title line that fit the width
    int maxXTics = 0;        ///< at most this many x tic intervals (0: gnuplot's choice)
};

Format
FormatFor(const PlotOptions& options)
{
    if (options.figureStyle == "paper")
    {
        return Format{true, 1.2, 0.35, 40, 5};
    }
    return Format{};
}

/**
 * Run gnuplot on a script that draws `body` into the files of the figure style: PNG and SVG
 * for the screen, PDF and SVG 3.5 in wide for a paper. The legend goes below the plot; on
 * paper the figure grows by the legend's height, so that the plot area keeps its size
 * whatever the number of curves.
 */
void
RunGnuplot(const std::string& plotDir,
           const std::string& name,
           const std::string& body,
           const PlotOptions& options,
           const std::vector<std::string>& legend)
{
    std::string script = plotDir + "/" + name + ".gp";
    std::ostringstream gp;
    std::vector<std::pair<std::string, std::string>> terminals; // terminal, file extension
    std::string key;
    // gnuplot 5.4 puts a legend below the plot over the x axis label; an empty legend title
    // takes that line instead.
    const std::string keyTitle = " title \" \"\n";
    if (FormatFor(options).paper)
    {
        size_t longest = 0;
        for (const auto& l : legend)
        {
            longest = std::max(longest, l.size());
        }
        // At 7 pt a character is about 4.5 pt wide; 3.5 in are 252 pt.
        const size_t columns = longest <= 22 ? 2 : 1;
        const size_t rows = (legend.size() + columns - 1) / columns;
        const double height = 2.5 + 0.12 * rows;
        std::ostringstream size;
        size << std::setprecision(3) << "3.5in," << height << "in";
        terminals
            = {{"pdfcairo noenhanced size " + size.str() + " font \"sans,8\"", ".pdf"},
               {"svg noenhanced size 252," + Number(std::round(height * 72)) + " font \"sans,8\"",
                ".svg"}};
        // Entries left-aligned after their line sample, which reads best in one column.
        key = "set key outside bottom center vertical Left reverse maxrows " + std::to_string(rows)
              + " font \",7\" samplen 2 spacing 1" + keyTitle;
    }
    else
    {
        terminals = {{"pngcairo noenhanced size 1000,650 font \",11\"", ".png"},
                     {"svg noenhanced size 1000,650 dynamic", ".svg"}};
        key = "set key outside bottom center horizontal maxrows 4 font \",9\"" + keyTitle;
    }
    // Figures are drawn under temporary names and renamed once gnuplot succeeded, so a figure
    // is either complete or absent. noenhanced: names like sparse-push.alpha must print as
    // they are, not as sub/superscripts.
    for (const auto& [terminal, ext] : terminals)
    {
        gp << "set terminal " << terminal << "\nset output "
           << Quote(GnuplotPath(plotDir + "/" + name + ".partial" + ext)) << "\n"
           << key << body << "\nunset output\n";
    }
    WriteFileAtomically(script, gp.str());
    // No shell: the script's path is one argument, whatever characters the run folder holds.
    RunProgram({"gnuplot", GnuplotPath(script)},
               plotDir + "/" + name + ".log",
               "figures need Debian's gnuplot-nox");
    for (const auto& [terminal, ext] : terminals)
    {
        const std::string drawn = plotDir + "/" + name + ".partial" + ext;
        std::error_code error;
        if (fs::file_size(drawn, error) == 0 || error)
        {
            throw ResultFileError("cannot write " + plotDir + "/" + name + ext
                                  + ": gnuplot left it empty (is the disk full?)");
        }
        fs::rename(drawn, plotDir + "/" + name + ext, error);
        if (error)
        {
            throw ResultFileError("cannot write " + plotDir + "/" + name + ext + ": "
                                  + error.message());
        }
    }
}

/// gnuplot line style of a curve: the algorithm's colour and marker, `variant` its dash pattern.
std::string
LineStyle(const std::string& algorithm, size_t variant, const Format& format)
{
    AlgorithmStyle s = StyleOfAlgorithm(algorithm);
    std::ostringstream o;
    o << "lc rgb \"" << s.colour << "\" pt " << s.pointType << " dt " << variant % 5 + 1 << " lw "
      << format.lineWidth;
    return o.str();
}

} // namespace

AlgorithmStyle
StyleOfAlgorithm(const std::string& algorithm)
{
    // Okabe-Ito colours (told apart with colour-blindness, too), filled markers of distinct
    // shapes, open ones for the Sparse-Push family's second member.
    static const std::map<std::string, AlgorithmStyle> fixed = {
        {"dpsgd", {"#000000", 7}},
        {"random-sampling", {"#E69F00", 5}},
        {"topk", {"#56B4E9", 9}},
        {"jwins", {"#009E73", 11}},
        {"choco", {"#D55E00", 13}},
        {"sparse-push", {"#0072B2", 15}},
        {"scsp", {"#CC79A7", 14}},
    };
    auto it = fixed.find(algorithm);
    if (it != fixed.end())
    {
        return it->second;
    }
    // FNV-1a rather than std::hash, whose values may differ between libraries: an algorithm
    // added later keeps its style across machines and folders.
    uint32_t h = 2166136261u;
    for (unsigned char c : algorithm)
    {
        h = (h ^ c) * 16777619u;
    }
    static const char* const colours[]
        = {"#882255", "#44AA99", "#117733", "#AA4499", "#DDCC77", "#332288", "#999933", "#888888"};
    static const int points[] = {1, 2, 3, 6, 8, 10, 12};
    return {colours[h % 8], points[(h / 8) % 7]};
}

bool
ParsePlotOption(const std::string& arg, PlotOptions& options)
{
    if (arg == "--log-x" || arg == "--log-y")
    {
        (arg == "--log-x" ? options.logX : options.logY) = true;
        return true;
    }
    const std::string style = "--figure-style";
    if (arg == style || arg.rfind(style + "=", 0) == 0)
    {
        const std::string value = arg == style ? "" : arg.substr(style.size() + 1);
        if (value.empty())
        {
            throw ScenarioError("--figure-style needs a value: --figure-style=screen or "
                                "--figure-style=paper");
        }
        if (value != "screen" && value != "paper")
        {
            throw ScenarioError("unknown --figure-style '" + value
                                + "': use screen (PNG and SVG) or paper (PDF and SVG, 3.5 in "
                                  "wide for one column)");
        }
        options.figureStyle = value;
        return true;
    }
    if (arg.rfind("--target_accuracy", 0) == 0)
    {
        ScenarioConfig c = ScenarioConfig::Load("", {arg});
        options.targetAccuracy = c.GetDouble("target_accuracy", 0.0, 1.0);
        return true;
    }
    return false;
}

std::string
NumericColumnSuffix(const std::string& key)
{
    std::string unit;
    SweptNumber(key, "1", unit);
    return unit == "Mbit/s" ? "_bps" : unit == "ms" ? "_s" : "";
}

double
NumericValue(const std::string& key, const std::string& value)
{
    std::string unit;
    double x = SweptNumber(key, value, unit);
    return unit == "Mbit/s" ? x * 1e6 : unit == "ms" ? x * 1e-3 : x;
}

namespace
{

/// Whether `a` comes before `b` on `axis`: rates and latencies by their value, other numbers as
/// numbers, the rest as text; so a grid's points and `collect` list runs in one order.
bool
ValueBefore(const std::string& axis, const std::string& a, const std::string& b)
{
    if (!NumericColumnSuffix(axis).empty())
    {
        try
        {
            return NumericValue(axis, a) < NumericValue(axis, b);
        }
        catch (const std::exception&)
        {
            // A random variable or a file: no one number, so ordered as text.
        }
    }
    double x = 0;
    double y = 0;
    if (ParseDecimal(a, x) && ParseDecimal(b, y) && x != y)
    {
        return x < y;
    }
    return a < b;
}

/// index.csv of `runs` under `dir`: the one writer, for grids and for `collect`.
void
WriteIndex(const std::string& dir, std::vector<Run> runs, std::ostream& log)
{
    const std::vector<std::string> axes = Axes(runs);
    std::stable_sort(runs.begin(),
                     runs.end(),
                     [&axes](const Run& a, const Run& b)
                     {
                         for (const auto& axis : axes)
                         {
                             const std::string& x = a.config.at(axis);
                             const std::string& y = b.config.at(axis);
                             if (x != y)
                             {
                                 return ValueBefore(axis, x, y);
                             }
                         }
                         return false;
                     });
    std::ostringstream index;
    for (const auto& axis : axes)
    {
        index << axis << ",";
    }
    // Swept rates and latencies once more as numbers in bit/s and seconds, for plotting tools.
    for (const auto& axis : axes)
    {
        if (!NumericColumnSuffix(axis).empty())
        {
            index << axis << NumericColumnSuffix(axis) << ",";
        }
    }
    std::string header;
    std::getline(std::ifstream(runs[0].dir + "/summary.csv"), header);
    std::vector<std::string> columns;
    std::stringstream headerFields(header);
    for (std::string column; std::getline(headerFields, column, ',');)
    {
        columns.push_back(column);
    }
    // The target the to-target columns refer to, which `collect --target_accuracy` changes.
    const bool targetColumn = std::find(axes.begin(), axes.end(), "target_accuracy") == axes.end();
    index << "run," << (targetColumn ? "target_accuracy," : "") << header << "\n";
    for (const auto& run : runs)
    {
        for (const auto& axis : axes)
        {
            const std::string& v = run.config.at(axis);
            index << (v.find(',') == std::string::npos ? v : "\"" + v + "\"") << ",";
        }
        for (const auto& axis : axes)
        {
            if (!NumericColumnSuffix(axis).empty())
            {
                index << std::setprecision(12) << NumericValue(axis, run.config.at(axis)) << ",";
            }
        }
        index << fs::relative(run.dir, dir).string();
        if (targetColumn)
        {
            index << "," << run.config.at("target_accuracy");
        }
        for (const auto& column : columns)
        {
            auto it = run.summary.find(column);
            index << "," << (it == run.summary.end() ? "" : it->second);
        }
        index << "\n";
    }
    WriteFileAtomically(dir + "/index.csv", index.str());
    log << "dlsim: index of " << runs.size() << " runs in " << dir << "/index.csv" << std::endl;
}

} // namespace

size_t
CollectRuns(const std::string& dir, std::ostream& log, double targetAccuracy)
{
    std::vector<Run> runs = FindRuns(dir, targetAccuracy);
    if (runs.empty())
    {
        throw ScenarioError("no finished runs (folders with config.ini, summary.json and "
                            "summary.csv of a run that finished) under "
                            + dir);
    }
    WriteIndex(dir, runs, log);
    return runs.size();
}

size_t
IndexRuns(const std::string& dir, const std::vector<std::string>& runDirs, std::ostream& log)
{
    std::vector<Run> runs;
    for (const auto& runDir : runDirs)
    {
        std::vector<Run> found = FindRuns(runDir, -1.0);
        runs.insert(runs.end(), found.begin(), found.end());
    }
    if (!runs.empty())
    {
        WriteIndex(dir, runs, log);
    }
    return runs.size();
}

size_t
PlotRuns(const std::string& dir, std::ostream& log, const PlotOptions& options)
{
    std::vector<Run> runs = FindRuns(dir, options.targetAccuracy);
    if (runs.empty())
    {
        throw ScenarioError("no finished runs (folders with config.ini, summary.json and "
                            "summary.csv of a run that finished) under "
                            + dir);
    }
    const std::string plotDir = dir + "/plots";
    fs::create_directories(plotDir);
    const Format format = FormatFor(options);
    std::vector<std::string> axes = Axes(runs);
    size_t figures = 0;
    const std::string target = runs[0].config.at("target_accuracy");

    // Comparison: accuracy against time, bytes and rounds, one curve (and band) per run; of
    // several seeds only the first, so that the figure stays readable.
    std::vector<Run> shown;
    std::vector<std::vector<CurvePoint>> curves;
    for (const auto& run : runs)
    {
        auto first = std::min_element(
            runs.begin(),
            runs.end(),
            [](const Run& a, const Run& b)
            { return std::stoull(a.config.at("seed")) < std::stoull(b.config.at("seed")); });
        if (run.config.at("seed") == first->config.at("seed"))
        {
            shown.push_back(run);
            curves.push_back(fs::exists(run.dir + "/curve.csv")
                                 ? ReadCurveCsv(run.dir + "/curve.csv")
                                 : std::vector<CurvePoint>{});
        }
    }
    // Runs of one algorithm share its colour and marker and differ by dash pattern, numbered
    // in the same order in every figure.
    std::vector<size_t> variant;
    {
        std::map<std::string, size_t> seen;
        for (const auto& run : shown)
        {
            variant.push_back(seen[run.config.at("algorithm")]++);
        }
    }
    const bool bands = shown.size() <= 8;
    struct Plot
    {
        std::string name;
        std::string column;
        std::string xlabel;
        double scale;
    };
    for (const Plot& p :
         {Plot{"accuracy-vs-time", "time_to_target_s", "simulated wall-clock time (s)", 1},
          Plot{"accuracy-vs-bytes", "bytes_per_node_to_target", "bytes sent per node (MB)", 1e-6},
          Plot{"accuracy-vs-rounds", "round_to_target", "round", 1}})
    {
        std::vector<double> xs;
        for (const auto& curve : curves)
        {
            for (const auto& point : curve)
            {
                xs.push_back(p.name == "accuracy-vs-time"    ? point.time
                             : p.name == "accuracy-vs-bytes" ? point.bytesPerNode * p.scale
                                                             : point.round);
            }
        }
        std::ostringstream body;
        body << "set grid\nset xlabel " << Quote(p.xlabel) << "\nset ylabel "
             << Quote(format.paper ? "test accuracy"
                                   : "test accuracy (mean over nodes"
                                         + std::string(bands ? ", band: min-max)" : ")"))
             << "\nset yrange [0:1]\nset datafile separator \",\"\n"
             << "set style fill transparent solid 0.15 noborder\n"
             << AxisCommands("x", xs, options.logX, false, format.maxXTics);
        // Where each run first reaches the target: a larger marker on the target line and a
        // dotted drop line to the x axis.
        for (size_t i = 0; i < shown.size(); ++i)
        {
            const std::string& at = shown[i].summary.at(p.column);
            if (at.empty() || (options.logX && std::stod(at) <= 0))
            {
                continue;
            }
            const std::string x = Number(std::stod(at) * p.scale);
            AlgorithmStyle s = StyleOfAlgorithm(shown[i].config.at("algorithm"));
            body << "set arrow from " << x << ", graph 0 to " << x << ", first " << target
                 << " nohead dt 3 lw 1 lc rgb \"" << s.colour << "\"\n"
                 << "set label \"\" at " << x << ", first " << target << " point pt " << s.pointType
                 << " ps " << format.pointSize * 3 << " lc rgb \"" << s.colour << "\" front\n";
        }
        body << "plot ";
        std::vector<std::string> legend;
        for (size_t i = 0; i < shown.size(); ++i)
        {
            std::string data = Quote(GnuplotPath(shown[i].dir + "/curve.csv"));
            std::string x = "($"
                            + std::string(p.name == "accuracy-vs-rounds" ? "1"
                                          : p.name == "accuracy-vs-time" ? "2"
                                                                         : "3")
                            + "*" + Number(p.scale) + ")";
            std::string style = LineStyle(shown[i].config.at("algorithm"), variant[i], format);
            if (bands)
            {
                body << data << " using " << x << ":5:6 with filledcurves "
                     << style.substr(0, style.find(" pt ")) << " notitle, ";
            }
            legend.push_back(Label(shown[i], axes, {"seed"}, format.paper));
            body << data << " using " << x << ":4 with linespoints " << style << " ps "
                 << format.pointSize << " title " << Quote(legend.back()) << ", ";
        }
        legend.push_back("target accuracy " + target + " (crossings marked)");
        body << target << " with lines dt 2 lc rgb \"black\" lw 1 title " << Quote(legend.back())
             << "\n";
        RunGnuplot(plotDir, p.name, body.str(), options, legend);
        ++figures;
    }

    // Sweep: time and bytes to the target against each swept axis.
    for (const auto& swept : axes)
    {
        // Sweeps are over conditions of the run; an algorithm's own keys (of any registered
        // algorithm) are compared through the curves' legends instead.
        if (swept == "algorithm" || swept == "seed" || AlgorithmRegistry::FindKey(swept))
        {
            continue;
        }
        std::string unit;
        // group label -> x -> values over seeds
        std::map<std::string, std::map<double, std::vector<std::pair<double, double>>>> groups;
        std::map<std::string, std::string> algorithmOf;
        std::vector<double> xs; // every swept value, reached or not: the x axis shows them all
        bool numeric = true;
        for (const auto& run : runs)
        {
            double x = SweptNumber(swept, run.config.at(swept), unit);
            numeric = numeric && std::isfinite(x);
            xs.push_back(x);
            std::string label = Label(run, axes, {swept, "seed"}, format.paper);
            algorithmOf[label] = run.config.at("algorithm");
            auto& points = groups[label][x];
            const std::string& t = run.summary.at("time_to_target_s");
            const std::string& b = run.summary.at("bytes_per_node_to_target");
            if (!t.empty() && !b.empty())
            {
                points.emplace_back(std::stod(t), std::stod(b) / 1e6);
            }
        }
        if (!numeric)
        {
            continue;
        }
        std::map<std::string, size_t> groupVariant;
        {
            std::map<std::string, size_t> seen;
            for (const auto& [label, byX] : groups)
            {
                groupVariant[label] = seen[algorithmOf[label]]++;
            }
        }
        const std::string stem = "sweep-" + swept;
        for (int what = 0; what < 2; ++what)
        {
            std::ostringstream body;
            std::string file = plotDir + "/" + stem + (what ? "-bytes" : "-time") + ".dat";
            std::ostringstream dat;
            dat << "# x mean min max (one block per line: " << (what ? "MB" : "s")
                << " to target accuracy " << target << ", by " << kTimeToTargetMethod << ")\n";
            std::vector<std::string> labels;
            std::vector<std::string> neverReached;
            std::vector<double> ys;
            for (const auto& [label, byX] : groups)
            {
                bool any = false;
                for (const auto& [x, values] : byX)
                {
                    any = any || !values.empty();
                }
                if (!any)
                {
                    // gnuplot does not count empty blocks: leave the group out of the data,
                    // and name it in the legend.
                    neverReached.push_back(label);
                    continue;
                }
                labels.push_back(label);
                for (const auto& [x, values] : byX)
                {
                    if (values.empty())
                    {
                        continue; // target not reached by any seed: no point
                    }
                    double sum = 0;
                    double lo = 1e300;
                    double hi = -1e300;
                    for (const auto& v : values)
                    {
                        double y = what ? v.second : v.first;
                        sum += y;
                        lo = std::min(lo, y);
                        hi = std::max(hi, y);
                    }
                    dat << std::setprecision(10) << x << " " << sum / values.size() << " " << lo
                        << " " << hi << "\n";
                    ys.insert(ys.end(), {sum / values.size(), lo, hi});
                }
                dat << "\n\n";
            }
            WriteFileAtomically(file, dat.str());
            std::string xlabel = swept + (unit.empty() ? "" : " (" + unit + ")");
            body << "set grid\nset xlabel " << Quote(xlabel) << "\nset ylabel "
                 << Quote(what ? "MB per node to accuracy " + target
                               : "time to accuracy " + target + " (s)")
                 << "\nset title "
                 << Quote(Wrap("mean and min-max over seeds; no point where the target was not "
                               "reached",
                               format.titleWidth))
                 << " font \"," << (format.paper ? 7 : 10) << "\"\n"
                 << AxisCommands("x", xs, options.logX, true, format.maxXTics);
            if (labels.empty())
            {
                // Nothing but the legend is drawn: gnuplot needs the x range spelled out.
                auto [lo, hi] = std::minmax_element(xs.begin(), xs.end());
                body << "set label 1 " << Quote("no run reached the target accuracy")
                     << " at graph 0.5, graph 0.5 center\nset yrange [0:1]\n";
                if (*lo < *hi)
                {
                    body << "set xrange [" << Number(*lo) << ":" << Number(*hi) << "]\n";
                }
            }
            else
            {
                body << AxisCommands("y", ys, options.logY, true);
            }
            body << "plot ";
            std::vector<std::string> legend;
            for (size_t i = 0; i < labels.size(); ++i)
            {
                legend.push_back(labels[i]);
                body << (i ? ", " : "") << Quote(GnuplotPath(file)) << " index " << i
                     << " using 1:2:3:4 with yerrorlines "
                     << LineStyle(algorithmOf[labels[i]], groupVariant[labels[i]], format) << " ps "
                     << format.pointSize * 1.5 << " title " << Quote(labels[i]);
            }
            // Runs that never reached the target still get their entry, in their style.
            for (size_t i = 0; i < neverReached.size(); ++i)
            {
                legend.push_back(neverReached[i] + ": not reached");
                body << (labels.empty() && i == 0 ? "" : ", ") << "NaN with linespoints "
                     << LineStyle(
                            algorithmOf[neverReached[i]], groupVariant[neverReached[i]], format)
                     << " title " << Quote(legend.back());
            }
            if (labels.empty() && neverReached.empty())
            {
                body << "NaN notitle";
            }
            body << "\n";
            RunGnuplot(plotDir, stem + (what ? "-bytes" : "-time"), body.str(), options, legend);
            ++figures;
        }
    }
    log << "dlsim: " << figures << " figures ("
        << (format.paper ? "PDF and SVG, 3.5 in wide" : "PNG and SVG") << ") in " << plotDir << "/"
        << std::endl;
    return figures;
}

} // namespace ns3
