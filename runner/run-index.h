// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * index.csv: one row per finished run with its axis values and summary, written one way for a
 * grid and for `dlsim collect`.
 */
#ifndef DLSIM_RUN_INDEX_H
#define DLSIM_RUN_INDEX_H

#include "run-catalogue.h"

#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/// The keys whose values differ between `runs` (those that cannot change results excluded).
std::vector<std::string> RunAxes(const std::vector<RunRecord>& runs);

/**
 * Rebuild `dir`/index.csv from the finished runs under `dir` (the folder itself, or its
 * sub-folders, each with config.ini and summary.csv), wherever they ran. The axes are the keys
 * whose values differ between runs; a `target_accuracy` column names the target that the
 * to-target columns refer to. Time, bytes and round to the target are recomputed from each
 * run's curve.csv (see time-to-target.h), for targetAccuracy when it is >= 0, else for the
 * run's own target. Next to it: points.csv and comparisons.csv (point-tables.h) and the grid
 * table (kGridSummaryFile) of the runs over their seeds. Returns the number of runs found;
 * throws if none.
 */
size_t CollectRuns(const std::string& dir, std::ostream& log, double targetAccuracy = -1.0);

/**
 * `dir`/index.csv, points.csv and comparisons.csv of the finished runs among `runDirs` (a
 * grid's points), written as CollectRuns writes them: rows ordered by their axis values (rates
 * and latencies by value), so that a grid and a later `collect` of its folder give the same
 * files. Writes nothing when none finished; returns the number of runs listed.
 */
size_t IndexRuns(const std::string& dir,
                 const std::vector<std::string>& runDirs,
                 std::ostream& log);

} // namespace ns3

#endif // DLSIM_RUN_INDEX_H
