// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Sweeps: time and bytes to the target accuracy against each swept condition.
 */
#ifndef DLSIM_SWEEP_FIGURES_H
#define DLSIM_SWEEP_FIGURES_H

#include "figure-style.h"
#include "run-catalogue.h"

#include <vector>

namespace ns3
{

/**
 * For each axis other than algorithm, seed and the algorithms' own keys whose values are
 * numbers: time and bytes to the target against the swept value, one line per algorithm
 * (and its parameters), the mean over the seeds that reached the target with its 95%
 * confidence interval ("k/n" beside a point only k of its n seeds reached; the title says
 * how many seeds, or one seed per point); lines that never reach the target are named in the
 * legend. Returns the number of figures (two per such axis).
 */
size_t DrawSweepFigures(const std::vector<RunRecord>& runs, const FigureSet& set);

} // namespace ns3

#endif // DLSIM_SWEEP_FIGURES_H
