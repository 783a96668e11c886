// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The tables over seeds written next to index.csv: points.csv (every point's figures over its
 * seeds, with 95% confidence intervals) and comparisons.csv (paired t-tests between the
 * algorithms run at the same other values).
 */
#ifndef DLSIM_POINT_TABLES_H
#define DLSIM_POINT_TABLES_H

#include "run-points.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * points.csv: one row per point (the runs that differ only in `seed`), in the order of
 * `points`: its values on `axes` other than seed (rates and latencies once more as numbers),
 * its seeds, the runs, the target (when it is no axis), and for the final accuracy and time, bytes
 * and round to the target the mean over the seeds with a value and its 95% confidence interval
 * (Student t; empty for fewer than two values), how many evaluated and reached the target, and when
 * the mean curve over the seeds stays above the target.
 */
std::string PointsCsv(const std::vector<RunPoint>& points, const std::vector<std::string>& axes);

/**
 * The axes along which points are compared in comparisons.csv: `axes` other than seed,
 * algorithm and the algorithms' own keys (the conditions they ran under).
 */
std::vector<std::string> ConditionAxes(const std::vector<std::string>& axes);

/**
 * comparisons.csv: for every two points at the same conditions (ConditionAxes), that is two
 * legend entries (an algorithm with its parameters) run under the same other values, and for
 * final accuracy, time and bytes to the target: Student's paired t-test over the seeds both
 * ran (for the to-target columns, the seeds both reached the target in): a - b per seed, its
 * mean and 95% confidence interval, t, the two-sided p-value and whether it is significant at
 * 0.05; and whether the two points' own 95% intervals over their seeds overlap. Fewer than
 * two pairs: the numbers are left empty.
 */
std::string ComparisonsCsv(const std::vector<RunPoint>& points,
                           const std::vector<std::string>& axes);

/**
 * Where comparisons.csv's paired test and the points' own 95% intervals over seeds (the bands
 * and error bars of the figures) disagree: a significant difference though the intervals
 * overlap (the seeds pair the runs: the same data split, overlay, links and initial model, so
 * the per-seed differences can be consistent while the spread over seeds is wide), or none
 * though they are apart. One line each, naming the points, the conditions and the metric.
 */
std::vector<std::string> PairedTestNotes(const std::vector<RunPoint>& points,
                                         const std::vector<std::string>& axes);

} // namespace ns3

#endif // DLSIM_POINT_TABLES_H
