// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Collecting finished run folders into an index and plotting them with gnuplot.
 */
#ifndef DLSIM_RESULTS_PLOTS_H
#define DLSIM_RESULTS_PLOTS_H

#include <ostream>
#include <string>

namespace ns3
{

/**
 * Rebuild `dir`/index.csv from the finished runs under `dir` (the folder itself, or its
 * sub-folders, each with config.ini and summary.csv), wherever they ran. The axes are the keys
 * whose values differ between runs. Returns the number of runs found; throws if none.
 * With targetAccuracy >= 0, time, bytes and round to the target are recomputed from each run's
 * curve.csv for that accuracy instead of the one the runs were configured with.
 */
size_t CollectRuns(const std::string& dir, std::ostream& log, double targetAccuracy = -1.0);

/**
 * Render PNG and SVG figures into `dir`/plots with gnuplot: mean test accuracy (with a min-max
 * band over nodes) against simulated time, bytes sent per node and rounds, one curve per run,
 * the target accuracy marked; and for a sweep (an axis other than algorithm and seed),
 * time and bytes to the target against the swept value, one line per algorithm, mean and
 * min-max over seeds. Throws if gnuplot fails; returns the number of figures.
 * targetAccuracy as for CollectRuns.
 */
size_t PlotRuns(const std::string& dir, std::ostream& log, double targetAccuracy = -1.0);

/**
 * A swept value as a number in base units, for index.csv: a rate ("10Mbps") in bit/s with column
 * suffix "_bps", a latency ("10ms") in seconds with "_s"; empty suffix when the key has no unit.
 */
std::string NumericColumnSuffix(const std::string& key);
double NumericValue(const std::string& key, const std::string& value);

} // namespace ns3

#endif // DLSIM_RESULTS_PLOTS_H
