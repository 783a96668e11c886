// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * What figures call a run: its algorithm with the parameters that matter for it, and the
 * values of the other axes, short enough for a one-column legend.
 */
#ifndef DLSIM_FIGURE_LABELS_H
#define DLSIM_FIGURE_LABELS_H

#include "run-catalogue.h"

#include <set>
#include <string>
#include <vector>

namespace ns3
{

/**
 * Legend of a run: its algorithm, plus the values of the other axes except `skip` (and the
 * parameters of algorithms other than its own, which do not affect it). Short enough for a
 * one-column figure: a rate or latency by its value alone ("100Mbps", "10ms"), other keys by
 * their last part ("seed 2") unless two axes share it. `compact`: for the paper style.
 */
std::string RunLabel(const RunRecord& run,
                     const std::vector<std::string>& axes,
                     const std::set<std::string>& skip,
                     bool compact);

/**
 * Legend of a point, the runs of one configuration over its seeds: RunLabel, with each value an
 * `auto` key resolved to given as the range over the runs ("gamma 0.158-0.251") where the seeds
 * resolved it differently, so that one entry stands for all of them.
 */
std::string PointLabel(const std::vector<RunRecord>& runs,
                       const std::vector<std::string>& axes,
                       const std::set<std::string>& skip,
                       bool compact);

/// How many seeds the points of a figure have: "3 seeds", or "2 to 3 seeds" when they differ.
std::string SeedCountText(size_t fewest, size_t most);

} // namespace ns3

#endif // DLSIM_FIGURE_LABELS_H
