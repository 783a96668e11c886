// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * What a grid prints about its points: their values, their outcome, its closing table.
 */
#ifndef DLSIM_GRID_TABLE_H
#define DLSIM_GRID_TABLE_H

#include "scenario-grid.h"

#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/// A wall time for people: "45 s", "3 min 20 s", "1 h 05 min".
std::string HumanDuration(double seconds);

/// A point's values on the grid's axes: "link.bandwidth=1Mbps, algorithm=dpsgd".
std::string DescribePoint(const GridPoint& point);

/// What a finished point reached, from its summary.csv: "final accuracy 0.712, target at 51.9 s".
std::string DescribeOutcome(const std::string& out);

/**
 * The table at the end of a grid: one row per point with its swept values, the final mean
 * accuracy and time and bytes to the target (as in index.csv), so that a grid's outcome can
 * be read without opening any file. `failed[i]`: point i failed.
 */
void PrintGridTable(const std::vector<GridPoint>& points,
                    const std::vector<bool>& failed,
                    const std::string& target,
                    std::ostream& out);

} // namespace ns3

#endif // DLSIM_GRID_TABLE_H
