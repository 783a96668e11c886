// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Time, bytes and round to a target accuracy, computed one way from a run's accuracy curve:
 * by the run itself (summary.json, summary.csv), by `dlsim collect` and `dlsim plot`
 * (index.csv, figures, also for another target).
 */
#ifndef DLSIM_TIME_TO_TARGET_H
#define DLSIM_TIME_TO_TARGET_H

#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/// One line of curve.csv: an evaluated round, with the mean accuracy over nodes.
struct CurvePoint
{
    double round = 0.0;
    double time = 0.0;         ///< simulated seconds
    double bytesPerNode = 0.0; ///< cumulative, values plus metadata
    double accuracyMean = 0.0;
    /// Over the nodes evaluated; a line of only four fields has the mean for both.
    double accuracyMin = 0.0;
    double accuracyMax = 0.0;
};

/// Where the accuracy curve first reaches the target.
struct TargetCrossing
{
    double time = 0.0;
    double bytesPerNode = 0.0;
    double round = 0.0; ///< fractional when the crossing lies between two evaluations
    /// The bracket the crossing was interpolated in: the simulated times of the last evaluation
    /// below the target and of the first at or above it (both the first evaluation's when it is
    /// already at or above). Its width is how far the evaluations let the time to target move.
    double evaluatedBelow = 0.0;
    double evaluatedAbove = 0.0;
};

/// No simulated-time budget: every crossing counts.
constexpr double kNoBudget = std::numeric_limits<double>::infinity();

/**
 * \param text a run's rounds.duration ("none" or a time such as 1500s)
 * \return its budget in simulated seconds, kNoBudget for none; throws std::invalid_argument
 */
double BudgetSeconds(const std::string& text);

/**
 * The first crossing of `target` by the mean accuracy: linear interpolation (in time, bytes and
 * round alike) between the last evaluation below the target and the first at or above it; the
 * first evaluation itself when it is already at or above. nullopt when never reached.
 * Interpolation, rather than the first evaluation at or above, so that the result does not
 * depend on how often the run evaluates (eval.every), which would otherwise turn a sweep's
 * time-to-target lines into steps of the evaluation interval. A crossing after `budget`
 * (simulated seconds, the run's rounds.duration) is nullopt too: not reached within the budget,
 * which the evaluated rounds a run completes after its budget passed do not extend.
 */
std::optional<TargetCrossing> FindTargetCrossing(const std::vector<CurvePoint>& curve,
                                                 double target,
                                                 double budget = kNoBudget);

/**
 * Where the mean accuracy crosses `target` for the last time from below: after it, the curve
 * never drops below the target again. Interpolated as FindTargetCrossing interpolates, between
 * the last evaluation below the target and the one after it; the first evaluation when none is
 * below. nullopt when the curve ends below the target (or is empty). With a curve that dips
 * below the target after first reaching it, this is later than the first crossing.
 */
std::optional<TargetCrossing> FindLastCrossing(const std::vector<CurvePoint>& curve, double target);

/// A line of curve.csv ("round,time_s,bytes_per_node,accuracy_mean,..."); throws on bad text.
CurvePoint ParseCurveLine(const std::string& line);

/// Every line of a curve.csv after its header; throws std::runtime_error naming the file.
std::vector<CurvePoint> ReadCurveCsv(const std::string& path);

/// How index.csv, summary.csv and the figures compute the to-target columns, for their notes.
extern const char* const kTimeToTargetMethod;

} // namespace ns3

#endif // DLSIM_TIME_TO_TARGET_H
