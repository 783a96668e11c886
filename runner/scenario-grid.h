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

#include <cstdint>
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

/// The most runs `repeat` may ask of every grid point.
constexpr uint64_t kMaxRepeat = 100;

/**
 * The values of `key` on a grid axis: its values outside brackets (SplitGridValues); for
 * `seed`, with `repeat` = N > 1, each listed seed followed by the N - 1 after it (seed 1 and
 * repeat 3: 1, 2, 3). Throws ScenarioError naming the key for a bad `repeat` (not 1 to
 * kMaxRepeat), a seed that is no seed with repeat > 1, seeds beyond the largest one, and a
 * seed that two listed seeds would both run.
 */
std::vector<std::string> AxisValues(const ScenarioConfig& config, const std::string& key);

/// Keys that list several values (AxisValues), in the order of ScenarioKeys().
std::vector<std::string> GridAxes(const ScenarioConfig& config);

/**
 * Every point of the cross product, the last axis varying fastest. A point's folder is
 * `out` of the scenario joined with "key=value_key=value" (characters other than letters,
 * digits and ".-=+" become "-"); a point is one run (its `repeat` is 1), so the runs of
 * `repeat` are points of a seed axis. Throws ScenarioError when two points would share a
 * folder.
 */
std::vector<GridPoint> ExpandGrid(const ScenarioConfig& config);

} // namespace ns3

#endif // DLSIM_SCENARIO_GRID_H
