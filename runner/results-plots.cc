// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "results-plots.h"

#include "curve-figures.h"
#include "run-catalogue.h"
#include "run-index.h"
#include "run-points.h"
#include "sweep-figures.h"

#include <filesystem>
#include <iostream>

namespace ns3
{

size_t
PlotRuns(const std::string& dir, std::ostream& log, const PlotOptions& options)
{
    std::vector<RunRecord> runs = RequireFinishedRuns(dir, options.targetAccuracy, std::cerr);
    FigureSet set;
    set.plotDir = dir + "/plots";
    std::filesystem::create_directories(set.plotDir);
    set.options = options;
    set.format = FormatFor(options);
    set.axes = RunAxes(runs);
    // Legends in the swept values' order (1Mbps before 10Mbps), as index.csv lists them.
    SortRunsBySweptValues(runs, set.axes);
    set.target = runs[0].config.at("target_accuracy");
    // The curves first, then the sweeps: in this order, as the log reports them.
    size_t figures = DrawCurveFigures(runs, set);
    figures += DrawSweepFigures(runs, set);
    log << "dlsim: " << figures << " figures ("
        << (set.format.paper ? "PDF and SVG, 3.5 in wide" : "PNG and SVG") << ") in " << set.plotDir
        << "/" << std::endl;
    return figures;
}

} // namespace ns3
