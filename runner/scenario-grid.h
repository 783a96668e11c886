// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Grids: a scenario key listing several values becomes an axis; the run becomes the cross
 * product of the axes, one run folder per point.
 */
#ifndef DLSIM_SCENARIO_GRID_H
#define DLSIM_SCENARIO_GRID_H

#include "scenario-config.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/// One point of a grid: its values on every axis, its configuration and its run folder.
struct GridPoint
{
    std::vector<std::pair<std::string, std::string>> values; ///< (key, value) per axis
    ScenarioConfig config;                                   ///< with `out` set to the folder
    std::string name;                                        ///< the folder's name
};

/**
 * Split a value at the commas outside brackets: "a, b" is two values, "[0.1, 0.2]" one list.
 */
std::vector<std::string> SplitGridValues(const std::string& value);

/// Keys that list several values, in the order of ScenarioKeys().
std::vector<std::string> GridAxes(const ScenarioConfig& config);

/**
 * Every point of the cross product, the last axis varying fastest. A point's folder is
 * `out` of the scenario joined with "key=value_key=value" (characters other than letters,
 * digits and ".-=+" become "-"). Throws ScenarioError when two points would share a folder.
 */
std::vector<GridPoint> ExpandGrid(const ScenarioConfig& config);

} // namespace ns3

#endif // DLSIM_SCENARIO_GRID_H
