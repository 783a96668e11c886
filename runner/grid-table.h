// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * What a grid prints about its points: their values, their outcome, its closing table.
 */
#ifndef DLSIM_GRID_TABLE_H
#define DLSIM_GRID_TABLE_H

#include "run-points.h"
#include "scenario-grid.h"

#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/// The file in a grid's folder that holds its closing table (GridTable).
extern const char* const kGridSummaryFile;

/// A wall time for people: "45 s", "3 min 20 s", "1 h 05 min".
std::string HumanDuration(double seconds);

/// A point's values on the grid's axes: "link.bandwidth=1Mbps, algorithm=dpsgd".
std::string DescribePoint(const GridPoint& point);

/// What a finished point reached, from its summary.csv: "final accuracy 0.712, target at 51.9 s".
std::string DescribeOutcome(const std::string& out);

/**
 * The table of a grid's points, as text: one row per point with its values, the final mean
 * accuracy and time and bytes to the target (as in index.csv), so that a grid's outcome can
 * be read without opening any file. When a point has several seeds (repeat, or a seed axis),
 * one row per point over its seeds: how many, the mean and the half-width of the 95% confidence
 * interval (Student t), and "k of n" where only k of its n seeds reached the target (the mean
 * is over those k) or evaluated; failed seeds are counted.
 */
std::string GridTable(const std::vector<RunPoint>& points, const std::string& target);

/**
 * The table at the end of a grid (GridTable), from its points' folders: `failed[i]`: point i
 * failed. Printed to `out` and returned.
 */
std::string PrintGridTable(const std::vector<GridPoint>& points,
                           const std::vector<bool>& failed,
                           const std::string& target,
                           std::ostream& out);

} // namespace ns3

#endif // DLSIM_GRID_TABLE_H
