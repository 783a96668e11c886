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
 * Mean test accuracy against simulated time, bytes sent per node and rounds, one curve per
 * point: the mean over its seeds (MeanCurveOf, up to the end of its shortest seed), with a band
 * for up to 8 points as PlotOptions::band says (95% confidence interval over the seeds, or
 * min-max over nodes), the target accuracy and each point's crossing of it (the mean over the
 * seeds that reached it; "target in k of n seeds" in the legend where not all did) marked. The
 * data of each figure is in its .dat file. Points of one algorithm share its colour and marker
 * and differ by dash pattern. Returns the number of figures (3).
 */
size_t DrawCurveFigures(const std::vector<RunRecord>& runs, const FigureSet& set);

} // namespace ns3

#endif // DLSIM_CURVE_FIGURES_H
