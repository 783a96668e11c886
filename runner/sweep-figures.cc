// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "sweep-figures.h"

#include "algorithm-registry.h"
#include "figure-labels.h"
#include "gnuplot-script.h"
#include "result-files.h"
#include "run-points.h"
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
    /// legend entry -> swept value -> its runs (the seeds of that point)
    std::map<std::string, std::map<double, RunPoint>> groups;
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
    // One line per configuration, whatever its seeds' `auto` keys resolved to: grouped by the
    // label of the configuration as given, named by the range of resolved values (PointLabel).
    std::map<std::string, std::vector<RunRecord>> lines;
    for (const auto& run : runs)
    {
        RunRecord asGiven = run;
        asGiven.resolved.clear();
        lines[RunLabel(asGiven, set.axes, {axis, "seed"}, set.format.paper)].push_back(run);
    }
    for (const auto& [given, lineRuns] : lines)
    {
        const std::string label = PointLabel(lineRuns, set.axes, {axis, "seed"}, set.format.paper);
        for (const auto& run : lineRuns)
        {
            double x = SweptNumber(axis, run.config.at(axis), sweep.unit);
            sweep.numeric = sweep.numeric && std::isfinite(x);
            sweep.xs.push_back(x);
            sweep.algorithmOf[label] = run.config.at("algorithm");
            sweep.groups[label][x].runs.push_back(run);
        }
    }
    std::map<std::string, size_t> seen;
    for (const auto& [label, byX] : sweep.groups)
    {
        sweep.groupVariant[label] = seen[sweep.algorithmOf[label]]++;
    }
    return sweep;
}

/**
 * The figure of time (`what` 0) or bytes (1) to the target against the swept value, with its
 * data file: per legend entry, the mean over the seeds that reached the target and its 95%
 * confidence interval; "k/n" beside a point reached by only k of its n seeds.
 */
void
DrawSweepFigure(const Sweep& sweep, int what, const FigureSet& set)
{
    std::ostringstream body;
    const std::string stem = "sweep-" + sweep.axis;
    const std::string column = what ? "bytes_per_node_to_target" : "time_to_target_s";
    const double scale = what ? 1e-6 : 1.0;
    std::string file = set.plotDir + "/" + stem + (what ? "-bytes" : "-time") + ".dat";
    std::ostringstream dat;
    dat << "# x mean ci95_low ci95_high reached seeds (one block per line: " << (what ? "MB" : "s")
        << " to target accuracy " << set.target << ", by " << kTimeToTargetMethod
        << "; mean and 95% confidence interval over the seeds that "
        << "reached it)\n";
    std::vector<std::string> labels;
    std::vector<std::string> neverReached;
    std::vector<double> ys;
    // Points no seed reached the target at: drawn where their runs ended (the budget, or the
    // last round), open triangles in the entry's colour: "not within this", never a gap a
    // reader takes for a missing run. One block per entry that has any.
    const std::string endFile
        = set.plotDir + "/" + stem + (what ? "-bytes" : "-time") + "-not-reached.dat";
    std::ostringstream ends;
    ends << "# x mean_at_the_end seeds (one block per line: " << (what ? "MB sent" : "s")
         << " when the runs of a point no seed of which reached target accuracy " << set.target
         << " ended, mean over its seeds)\n";
    std::vector<std::string> endLabels;
    std::ostringstream partly; // "k/n" labels of points not every seed reached
    size_t fewest = SIZE_MAX;
    size_t most = 0;
    for (const auto& [label, byX] : sweep.groups)
    {
        std::ostringstream block;
        for (const auto& [x, point] : byX)
        {
            if (OverSeeds(point, column).values.n > 0)
            {
                continue;
            }
            // The mean of the sums is the sum of the means.
            const double end = what ? (OverSeeds(point, "value_bytes_per_node").values.mean
                                       + OverSeeds(point, "metadata_bytes_per_node").values.mean)
                                          * scale
                                    : OverSeeds(point, "simulated_time_s").values.mean;
            block << std::setprecision(10) << x << " " << end << " " << point.runs.size() << "\n";
            ys.push_back(end);
        }
        if (!block.str().empty())
        {
            ends << block.str() << "\n\n";
            endLabels.push_back(label);
        }
    }
    WriteFileAtomically(endFile, ends.str());
    for (const auto& [label, byX] : sweep.groups)
    {
        bool any = false;
        for (const auto& [x, point] : byX)
        {
            any = any || OverSeeds(point, column).values.n > 0;
            fewest = std::min(fewest, point.runs.size());
            most = std::max(most, point.runs.size());
        }
        if (!any)
        {
            // gnuplot does not count empty blocks: leave the group out of the data,
            // and name it in the legend.
            neverReached.push_back(label);
            continue;
        }
        labels.push_back(label);
        for (const auto& [x, point] : byX)
        {
            const ColumnOverSeeds over = OverSeeds(point, column);
            const MeanCi& m = over.values;
            if (m.n == 0)
            {
                continue; // target not reached by any seed: no point
            }
            const double mean = m.mean * scale;
            const double lo = (m.HasCi() ? m.Low() : m.mean) * scale;
            const double hi = (m.HasCi() ? m.High() : m.mean) * scale;
            dat << std::setprecision(10) << x << " " << mean << " " << lo << " " << hi << " " << m.n
                << " " << over.runs << "\n";
            ys.insert(ys.end(), {mean, lo, hi});
            if (m.n < over.runs)
            {
                partly << "set label "
                       << GnuplotQuote(std::to_string(m.n) + "/" + std::to_string(over.runs))
                       << " at " << GnuplotNumber(x) << ", " << GnuplotNumber(mean)
                       << " offset 0.8,0.8 font \"," << (set.format.paper ? 6 : 9) << "\"\n";
            }
        }
        dat << "\n\n";
    }
    WriteFileAtomically(file, dat.str());
    std::string xlabel = sweep.axis + (sweep.unit.empty() ? "" : " (" + sweep.unit + ")");
    body << "set grid\nset xlabel " << GnuplotQuote(xlabel) << "\nset ylabel "
         << GnuplotQuote(what ? "MB per node to accuracy " + set.target
                              : "time to accuracy " + set.target + " (s)")
         << "\nset title "
         << GnuplotQuote(WrapText(most > 1 ? "mean and 95% CI over " + SeedCountText(fewest, most)
                                                 + " (over those that reached the target; k/n: "
                                                   "reached by k of n seeds); open triangles: "
                                                   "no seed reached it, drawn at the runs' end"
                                           : "one seed per point; open triangles: the target "
                                             "was not reached, drawn at the run's end",
                                  set.format.titleWidth))
         << " font \"," << (set.format.paper ? 7 : 10) << "\"\n"
         << AxisCommands("x", sweep.xs, set.options.logX, true, set.format.maxXTics);
    if (ys.empty())
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
        body << AxisCommands("y", ys, set.options.logY, true) << partly.str();
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
    for (size_t i = 0; i < endLabels.size(); ++i)
    {
        body << (labels.empty() && neverReached.empty() && i == 0 ? "" : ", ")
             << GnuplotQuote(GnuplotPath(endFile)) << " index " << i
             << " using 1:2 with points lc rgb \""
             << StyleOfAlgorithm(sweep.algorithmOf.at(endLabels[i])).colour << "\" pt 8 ps "
             << set.format.pointSize * 2 << " notitle";
    }
    if (!endLabels.empty())
    {
        legend.push_back(what ? "not reached: MB sent by the end" : "not reached: time at the end");
        body << ", NaN with points lc rgb \"#555555\" pt 8 ps " << set.format.pointSize * 2
             << " title " << GnuplotQuote(legend.back());
    }
    if (labels.empty() && neverReached.empty() && endLabels.empty())
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
