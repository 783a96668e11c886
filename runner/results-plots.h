// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Figures of the finished runs under a folder: the curves and the sweeps, drawn with gnuplot.
 * (Includes what `dlsim plot` and `dlsim collect` need: the figure options and index.csv.)
 */
#ifndef DLSIM_RESULTS_PLOTS_H
#define DLSIM_RESULTS_PLOTS_H

#include "figure-style.h"
#include "run-index.h"
#include "swept-values.h"

#include <ostream>
#include <string>

namespace ns3
{

/**
 * Render figures into `dir`/plots with gnuplot: mean test accuracy against simulated time,
 * bytes sent per node and rounds, one curve per point (the mean over its seeds, with a band of
 * its 95% confidence interval or the min-max over nodes), the target accuracy and each point's
 * crossing of it marked (DrawCurveFigures); and for a sweep (an axis other than algorithm and
 * seed), time and bytes to the target against the swept value, one line per algorithm, mean
 * and 95% confidence interval over seeds (DrawSweepFigures). An algorithm has the same colour
 * and marker in every figure; points of one algorithm differ by dash pattern. Throws if gnuplot
 * fails; returns the number of figures.
 */
size_t PlotRuns(const std::string& dir, std::ostream& log, const PlotOptions& options = {});

} // namespace ns3

#endif // DLSIM_RESULTS_PLOTS_H
