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
#include <vector>

namespace ns3
{

/// How `dlsim plot` and `dlsim collect` (and a run's own figures) draw.
struct PlotOptions
{
    /// >= 0: time, bytes and round to this target instead of the runs' own target_accuracy.
    double targetAccuracy = -1.0;
    /// "screen": PNG and SVG, 1000 pixels wide. "paper": PDF and SVG, 3.5 in (one column).
    std::string figureStyle = "screen";
    /// Log x (y) axes in every figure; without, a sweep figure's axis is logarithmic when its
    /// values are positive and span a factor of 10 or more.
    bool logX = false;
    bool logY = false;
};

/**
 * Take `arg` into `options` if it is one of --figure-style=STYLE, --log-x, --log-y and
 * --target_accuracy=X; false when it is none of them. Throws ScenarioError naming the flag and
 * the value when the value is bad (e.g. an unknown figure style).
 */
bool ParsePlotOption(const std::string& arg, PlotOptions& options);

/**
 * Rebuild `dir`/index.csv from the finished runs under `dir` (the folder itself, or its
 * sub-folders, each with config.ini and summary.csv), wherever they ran. The axes are the keys
 * whose values differ between runs; a `target_accuracy` column names the target that the
 * to-target columns refer to. Time, bytes and round to the target are recomputed from each
 * run's curve.csv (see time-to-target.h), for targetAccuracy when it is >= 0, else for the
 * run's own target. Returns the number of runs found; throws if none.
 */
size_t CollectRuns(const std::string& dir, std::ostream& log, double targetAccuracy = -1.0);

/**
 * `dir`/index.csv of the finished runs among `runDirs` (a grid's points), written as
 * CollectRuns writes it: rows ordered by their axis values (rates and latencies by value), so
 * that a grid and a later `collect` of its folder give the same file. Writes nothing when none
 * finished; returns the number of runs listed.
 */
size_t IndexRuns(const std::string& dir,
                 const std::vector<std::string>& runDirs,
                 std::ostream& log);

/**
 * Render figures into `dir`/plots with gnuplot: mean test accuracy (with a min-max band over
 * nodes) against simulated time, bytes sent per node and rounds, one curve per run, the target
 * accuracy and each run's crossing of it marked; and for a sweep (an axis other than algorithm
 * and seed), time and bytes to the target against the swept value, one line per algorithm,
 * mean and min-max over seeds. An algorithm has the same colour and marker in every figure;
 * runs of one algorithm differ by dash pattern. Throws if gnuplot fails; returns the number of
 * figures.
 */
size_t PlotRuns(const std::string& dir, std::ostream& log, const PlotOptions& options = {});

/**
 * A swept value as a number in base units, for index.csv: a rate ("10Mbps") in bit/s with column
 * suffix "_bps", a latency ("10ms") in seconds with "_s"; empty suffix when the key has no unit.
 */
std::string NumericColumnSuffix(const std::string& key);
double NumericValue(const std::string& key, const std::string& value);

/// An algorithm's colour (gnuplot "#rrggbb") and point type, the same in every figure.
struct AlgorithmStyle
{
    std::string colour;
    int pointType = 7;
};

/// Fixed for the algorithms dlsim implements; derived from the name for any other.
AlgorithmStyle StyleOfAlgorithm(const std::string& algorithm);

} // namespace ns3

#endif // DLSIM_RESULTS_PLOTS_H
