// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "sweep-figures.h"

#include "algorithm-registry.h"
#include "figure-labels.h"
#include "gnuplot-script.h"
#include "result-files.h"
#include "swept-values.h"
#include "time-to-target.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <sstream>
#include <string>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

namespace
{

/// A swept axis: the runs' times and bytes to the target by legend entry and swept value.
struct Sweep
{
    std::string axis;
    std::string unit; ///< of the swept values, for the axis title
    /// legend entry -> swept value -> (time, MB) to the target over seeds that reached it
    std::map<std::string, std::map<double, std::vector<std::pair<double, double>>>> groups;
    std::map<std::string, std::string> algorithmOf; ///< of each legend entry
    std::map<std::string, size_t> groupVariant;     ///< dash pattern of each legend entry
    std::vector<double> xs; ///< every swept value, reached or not: the x axis shows them all
    bool numeric = true;    ///< every swept value is a number (else no figure)
};

/// The runs of `runs` grouped along `axis`; entries of one algorithm numbered for dash patterns.
Sweep
CollectSweep(const std::vector<RunRecord>& runs, const std::string& axis, const FigureSet& set)
{
    Sweep sweep;
    sweep.axis = axis;
    for (const auto& run : runs)
    {
        double x = SweptNumber(axis, run.config.at(axis), sweep.unit);
        sweep.numeric = sweep.numeric && std::isfinite(x);
        sweep.xs.push_back(x);
        std::string label = RunLabel(run, set.axes, {axis, "seed"}, set.format.paper);
        sweep.algorithmOf[label] = run.config.at("algorithm");
        auto& points = sweep.groups[label][x];
        const std::string& t = run.summary.at("time_to_target_s");
        const std::string& b = run.summary.at("bytes_per_node_to_target");
        if (!t.empty() && !b.empty())
        {
            points.emplace_back(std::stod(t), std::stod(b) / 1e6);
        }
    }
    std::map<std::string, size_t> seen;
    for (const auto& [label, byX] : sweep.groups)
    {
        sweep.groupVariant[label] = seen[sweep.algorithmOf[label]]++;
    }
    return sweep;
}

/// The figure of time (`what` 0) or bytes (1) to the target against the swept value, with its
/// data file: mean and min-max over seeds per legend entry.
void
DrawSweepFigure(const Sweep& sweep, int what, const FigureSet& set)
{
    std::ostringstream body;
    const std::string stem = "sweep-" + sweep.axis;
    std::string file = set.plotDir + "/" + stem + (what ? "-bytes" : "-time") + ".dat";
    std::ostringstream dat;
    dat << "# x mean min max (one block per line: " << (what ? "MB" : "s") << " to target accuracy "
        << set.target << ", by " << kTimeToTargetMethod << ")\n";
    std::vector<std::string> labels;
    std::vector<std::string> neverReached;
    std::vector<double> ys;
    for (const auto& [label, byX] : sweep.groups)
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
            dat << std::setprecision(10) << x << " " << sum / values.size() << " " << lo << " "
                << hi << "\n";
            ys.insert(ys.end(), {sum / values.size(), lo, hi});
        }
        dat << "\n\n";
    }
    WriteFileAtomically(file, dat.str());
    std::string xlabel = sweep.axis + (sweep.unit.empty() ? "" : " (" + sweep.unit + ")");
    body << "set grid\nset xlabel " << GnuplotQuote(xlabel) << "\nset ylabel "
         << GnuplotQuote(what ? "MB per node to accuracy " + set.target
                              : "time to accuracy " + set.target + " (s)")
         << "\nset title "
         << GnuplotQuote(WrapText("mean and min-max over seeds; no point where the target was not "
                                  "reached",
                                  set.format.titleWidth))
         << " font \"," << (set.format.paper ? 7 : 10) << "\"\n"
         << AxisCommands("x", sweep.xs, set.options.logX, true, set.format.maxXTics);
    if (labels.empty())
    {
        // Nothing but the legend is drawn: gnuplot needs the x range spelled out.
        auto [lo, hi] = std::minmax_element(sweep.xs.begin(), sweep.xs.end());
        body << "set label 1 " << GnuplotQuote("no run reached the target accuracy")
             << " at graph 0.5, graph 0.5 center\nset yrange [0:1]\n";
        if (*lo < *hi)
        {
            body << "set xrange [" << GnuplotNumber(*lo) << ":" << GnuplotNumber(*hi) << "]\n";
        }
    }
    else
    {
        body << AxisCommands("y", ys, set.options.logY, true);
    }
    body << "plot ";
    std::vector<std::string> legend;
    for (size_t i = 0; i < labels.size(); ++i)
    {
        legend.push_back(labels[i]);
        body << (i ? ", " : "") << GnuplotQuote(GnuplotPath(file)) << " index " << i
             << " using 1:2:3:4 with yerrorlines "
             << LineStyle(
                    sweep.algorithmOf.at(labels[i]), sweep.groupVariant.at(labels[i]), set.format)
             << " ps " << set.format.pointSize * 1.5 << " title " << GnuplotQuote(labels[i]);
    }
    // Runs that never reached the target still get their entry, in their style.
    for (size_t i = 0; i < neverReached.size(); ++i)
    {
        legend.push_back(neverReached[i] + ": not reached");
        body << (labels.empty() && i == 0 ? "" : ", ") << "NaN with linespoints "
             << LineStyle(sweep.algorithmOf.at(neverReached[i]),
                          sweep.groupVariant.at(neverReached[i]),
                          set.format)
             << " title " << GnuplotQuote(legend.back());
    }
    if (labels.empty() && neverReached.empty())
    {
        body << "NaN notitle";
    }
    body << "\n";
    RunGnuplot(set.plotDir, stem + (what ? "-bytes" : "-time"), body.str(), set.options, legend);
}

} // namespace

size_t
DrawSweepFigures(const std::vector<RunRecord>& runs, const FigureSet& set)
{
    size_t figures = 0;
    for (const auto& swept : set.axes)
    {
        // Sweeps are over conditions of the run; an algorithm's own keys (of any registered
        // algorithm) are compared through the curves' legends instead.
        if (swept == "algorithm" || swept == "seed" || AlgorithmRegistry::FindKey(swept))
        {
            continue;
        }
        const Sweep sweep = CollectSweep(runs, swept, set);
        if (!sweep.numeric)
        {
            continue;
        }
        for (int what = 0; what < 2; ++what)
        {
            DrawSweepFigure(sweep, what, set);
            ++figures;
        }
    }
    return figures;
}

} // namespace ns3
