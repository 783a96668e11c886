// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "results-plots.h"

#include "algorithm-registry.h"
#include "random-variable-spec.h"
#include "result-files.h"
#include "results-writer.h"
#include "scenario-config.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <vector>

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
    std::map<std::string, std::string> config; ///< every key's resolved value
    std::map<std::string, std::string> summary;
};

/// Set the to-target figures of a run for another target, from its curve.csv.
void
Retarget(Run& run, double target)
{
    std::ostringstream t;
    t << target;
    run.config["target_accuracy"] = t.str();
    run.summary["time_to_target_s"] = "";
    run.summary["bytes_per_node_to_target"] = "";
    run.summary["round_to_target"] = "";
    for (const auto& row : ReadCsv(run.dir + "/curve.csv"))
    {
        if (std::stod(row.at("accuracy_mean")) >= target)
        {
            run.summary["time_to_target_s"] = row.at("time_s");
            run.summary["bytes_per_node_to_target"] = row.at("bytes_per_node");
            run.summary["round_to_target"] = row.at("round");
            break;
        }
    }
}

std::vector<Run>
FindRuns(const std::string& dir, double target)
{
    std::vector<std::string> candidates;
    if (fs::exists(fs::path(dir) / "summary.csv"))
    {
        candidates.push_back(dir);
    }
    else if (fs::is_directory(dir))
    {
        for (const auto& entry : fs::recursive_directory_iterator(dir))
        {
            if (entry.is_regular_file() && entry.path().filename() == "summary.csv")
            {
                candidates.push_back(entry.path().parent_path().string());
            }
        }
    }
    std::sort(candidates.begin(), candidates.end());
    std::vector<Run> runs;
    for (const auto& d : candidates)
    {
        if (!fs::exists(fs::path(d) / "config.ini"))
        {
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
        if (summary.empty() || !ReadSummaryCsvRow(d + "/summary.csv"))
        {
            std::cerr << "dlsim: warning: " << d
                      << " has a summary that is empty or unreadable: left out (run it again)"
                      << std::endl;
            continue;
        }
        run.summary = summary[0];
        if (target >= 0.0)
        {
            if (!fs::exists(fs::path(d) / "curve.csv"))
            {
                throw ScenarioError("run " + d + " has no curve.csv to recompute the target from");
            }
            Retarget(run, target);
        }
        runs.push_back(run);
    }
    return runs;
}

/// Keys whose values differ between runs (the run folder itself excluded).
std::vector<std::string>
Axes(const std::vector<Run>& runs)
{
    std::vector<std::string> axes;
    for (const auto& key : ScenarioKeys())
    {
        if (key.name == "out")
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

/// Legend of a run: its algorithm, plus the values of the other axes except `skip`.
std::string
Label(const Run& run, const std::vector<std::string>& axes, const std::set<std::string>& skip)
{
    std::string label = AlgorithmFigureLabel(run.config);
    for (const auto& axis : axes)
    {
        if (axis == "algorithm" || skip.count(axis)
            || axis.rfind(run.config.at("algorithm"), 0) == 0)
        {
            continue;
        }
        label += ", " + axis + " " + run.config.at(axis);
    }
    return label;
}

/// gnuplot string literal.
std::string
Quote(std::string s)
{
    std::string out = "\"";
    for (char ch : s)
    {
        if (ch == '"' || ch == '\\')
        {
            out += '\\';
        }
        out += ch;
    }
    return out + "\"";
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

/// Run gnuplot on a script that draws into both a PNG and an SVG file.
void
RunGnuplot(const std::string& plotDir, const std::string& name, const std::string& body)
{
    std::string script = plotDir + "/" + name + ".gp";
    std::ostringstream gp;
    // Figures are drawn under temporary names and renamed once gnuplot succeeded, so a figure
    // is either complete or absent.
    const std::vector<std::string> extensions = {".png", ".svg"};
    // noenhanced: names like sparse-push.alpha must print as they are, not as sub/superscripts.
    for (const std::string terminal :
         {"pngcairo noenhanced size 1000,650 font \",11\"", "svg noenhanced size 1000,650 dynamic"})
    {
        std::string ext = terminal.rfind("png", 0) == 0 ? ".png" : ".svg";
        gp << "set terminal " << terminal << "\nset output "
           << Quote(plotDir + "/" + name + ".partial" + ext) << "\n"
           << body << "\nunset output\n";
    }
    WriteFileAtomically(script, gp.str());
    std::string command = "gnuplot " + script + " 2> " + plotDir + "/" + name + ".log";
    if (std::system(command.c_str()) != 0)
    {
        throw std::runtime_error("gnuplot failed on " + script + " (see " + plotDir + "/" + name
                                 + ".log; is Debian's gnuplot-nox installed?)");
    }
    for (const auto& ext : extensions)
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

} // namespace

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

size_t
CollectRuns(const std::string& dir, std::ostream& log, double targetAccuracy)
{
    std::vector<Run> runs = FindRuns(dir, targetAccuracy);
    if (runs.empty())
    {
        throw ScenarioError("no finished runs (folders with config.ini and summary.csv) under "
                            + dir);
    }
    std::vector<std::string> axes = Axes(runs);
    std::ostringstream index;
    for (const auto& axis : axes)
    {
        index << axis << ",";
    }
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
    index << "run," << header << "\n";
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
        for (const auto& column : columns)
        {
            auto it = run.summary.find(column);
            index << "," << (it == run.summary.end() ? "" : it->second);
        }
        index << "\n";
    }
    WriteFileAtomically(dir + "/index.csv", index.str());
    log << "dlsim: index of " << runs.size() << " runs in " << dir << "/index.csv" << std::endl;
    return runs.size();
}

size_t
PlotRuns(const std::string& dir, std::ostream& log, double targetAccuracy)
{
    std::vector<Run> runs = FindRuns(dir, targetAccuracy);
    if (runs.empty())
    {
        throw ScenarioError("no finished runs (folders with config.ini and summary.csv) under "
                            + dir);
    }
    const std::string plotDir = dir + "/plots";
    fs::create_directories(plotDir);
    std::vector<std::string> axes = Axes(runs);
    size_t figures = 0;
    const std::string target = runs[0].config.at("target_accuracy");

    // Comparison: accuracy against time, bytes and rounds, one curve (and band) per run; of
    // several seeds only the first, so that the figure stays readable.
    std::vector<Run> shown;
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
        }
    }
    const bool bands = shown.size() <= 8;
    struct Plot
    {
        std::string name;
        std::string column;
        std::string xlabel;
        std::string scale;
    };
    for (const Plot& p :
         {Plot{"accuracy-vs-time", "time_s", "simulated wall-clock time (s)", "1"},
          Plot{"accuracy-vs-bytes", "bytes_per_node", "bytes sent per node (MB)", "1e-6"},
          Plot{"accuracy-vs-rounds", "round", "round", "1"}})
    {
        std::ostringstream body;
        body << "set key outside bottom center horizontal maxrows 4 font \",9\"\n"
             << "set grid\nset xlabel " << Quote(p.xlabel) << "\nset ylabel "
             << Quote("test accuracy (mean over nodes"
                      + std::string(bands ? ", band: min-max)" : ")"))
             << "\nset yrange [0:1]\nset datafile separator \",\"\n"
             << "set style fill transparent solid 0.15 noborder\nplot ";
        for (size_t i = 0; i < shown.size(); ++i)
        {
            std::string data = Quote(shown[i].dir + "/curve.csv");
            std::string x = "($"
                            + std::string(p.column == "round"    ? "1"
                                          : p.column == "time_s" ? "2"
                                                                 : "3")
                            + "*" + p.scale + ")";
            if (bands)
            {
                body << data << " using " << x << ":5:6 with filledcurves lc " << i + 1
                     << " notitle, ";
            }
            body << data << " using " << x << ":4 with linespoints lw 2 pt 7 ps 0.6 lc " << i + 1
                 << " title " << Quote(Label(shown[i], axes, {"seed"})) << ", ";
        }
        body << target << " with lines dt 2 lc rgb \"black\" title "
             << Quote("target accuracy " + target) << "\n";
        RunGnuplot(plotDir, p.name, body.str());
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
        bool numeric = true;
        for (const auto& run : runs)
        {
            double x = SweptNumber(swept, run.config.at(swept), unit);
            numeric = numeric && std::isfinite(x);
            std::string label = Label(run, axes, {swept, "seed"});
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
        const std::string stem = "sweep-" + swept;
        for (int what = 0; what < 2; ++what)
        {
            std::ostringstream body;
            std::string file = plotDir + "/" + stem + (what ? "-bytes" : "-time") + ".dat";
            std::ostringstream dat;
            dat << "# x mean min max (one block per line: " << (what ? "MB" : "s")
                << " to target)\n";
            std::vector<std::string> labels;
            std::vector<std::string> neverReached;
            for (const auto& [label, byX] : groups)
            {
                bool any = false;
                for (const auto& [x, values] : byX)
                {
                    any = any || !values.empty();
                }
                if (!any)
                {
                    // gnuplot does not count empty blocks: leave the group out, name it below.
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
                }
                dat << "\n\n";
            }
            WriteFileAtomically(file, dat.str());
            std::string xlabel = swept + (unit.empty() ? "" : " (" + unit + ")");
            body << "set key outside bottom center horizontal maxrows 3 font \",9\"\nset grid\n"
                 << "set logscale x\nset xlabel " << Quote(xlabel) << "\nset ylabel "
                 << Quote(what ? "bytes sent per node to reach accuracy " + target + " (MB)"
                               : "simulated time to reach accuracy " + target + " (s)")
                 << "\nset title "
                 << Quote("mean and min-max over seeds; missing points: target not reached"
                          + std::string(neverReached.empty() ? "" : "; never reached: ") +
                          [&neverReached]()
                          {
                              std::string all;
                              for (const auto& l : neverReached)
                              {
                                  all += (all.empty() ? "" : "; ") + l;
                              }
                              return all;
                          }())
                 << "\n";
            if (labels.empty())
            {
                body << "set label 1 " << Quote("no run reached the target accuracy")
                     << " at graph 0.5, graph 0.5 center\nset xrange [*:*]\nset yrange [0:1]\n"
                     << "plot 1/0 notitle\n";
                RunGnuplot(plotDir, stem + (what ? "-bytes" : "-time"), body.str());
                ++figures;
                continue;
            }
            body << "plot ";
            for (size_t i = 0; i < labels.size(); ++i)
            {
                body << (i ? ", " : "") << Quote(file) << " index " << i
                     << " using 1:2:3:4 with yerrorlines lw 2 pt 7 title " << Quote(labels[i]);
            }
            body << "\n";
            RunGnuplot(plotDir, stem + (what ? "-bytes" : "-time"), body.str());
            ++figures;
        }
    }
    log << "dlsim: " << figures << " figures (PNG and SVG) in " << plotDir << "/" << std::endl;
    return figures;
}

} // namespace ns3
