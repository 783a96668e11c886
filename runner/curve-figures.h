// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The accuracy curves: accuracy against simulated time, bytes sent and rounds.
 */
#ifndef DLSIM_CURVE_FIGURES_H
#define DLSIM_CURVE_FIGURES_H

#include "figure-style.h"
#include "run-catalogue.h"

#include <vector>

namespace ns3
{

/**
 * Mean test accuracy (with a min-max band over nodes, up to 8 runs) against simulated time,
 * bytes sent per node and rounds, one curve per run (of several seeds only the first), the
 * target accuracy and each run's crossing of it marked. Runs of one algorithm share its colour
 * and marker and differ by dash pattern. Returns the number of figures (3).
 */
size_t DrawCurveFigures(const std::vector<RunRecord>& runs, const FigureSet& set);

} // namespace ns3

#endif // DLSIM_CURVE_FIGURES_H
