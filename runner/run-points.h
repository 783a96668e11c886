// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Points over seeds: the runs that differ only in `seed` (from `repeat` or a seed axis) are one
 * point; its figures over the seeds (mean, 95% confidence interval, how many reached the target)
 * and its mean accuracy curve, for points.csv, comparisons.csv, the grid table and the figures.
 */
#ifndef DLSIM_RUN_POINTS_H
#define DLSIM_RUN_POINTS_H

#include "run-catalogue.h"
#include "seed-statistics.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/// One point of a grid with all its seeds.
struct RunPoint
{
    /// The point's values on the axes other than `seed`, (key, value) in the axes' order.
    std::vector<std::pair<std::string, std::string>> values;
    std::vector<RunRecord> runs; ///< its finished runs, one per seed, in the order found
    size_t failed = 0;           ///< its runs that did not finish (a grid's failed points)

    /// Every seed the point ran or tried: finished and failed.
    size_t Seeds() const
    {
        return runs.size() + failed;
    }

    /// The seeds of its finished runs, e.g. "1 2 3".
    std::string SeedList() const;
};

/**
 * The point in `points` with these values (on the axes other than `seed`), appended when there
 * is none yet: how runs and a grid's failed points are gathered into points, in order of first
 * appearance.
 */
RunPoint& PointWithValues(std::vector<RunPoint>& points,
                          const std::vector<std::pair<std::string, std::string>>& values);

/// Sort `runs` by their values on `axes`, in order (SweptValueBefore: 1Mbps before 10Mbps), so
/// that index.csv, points.csv and the figures' legends list them in one order.
void SortRunsBySweptValues(std::vector<RunRecord>& runs, const std::vector<std::string>& axes);

/// `runs` gathered into points: runs with the same values on `axes` other than `seed`.
std::vector<RunPoint> GroupSeeds(const std::vector<RunRecord>& runs,
                                 const std::vector<std::string>& axes);

/**
 * A summary.csv column over the finished runs of a point: `runs` of them, and the mean and
 * 95% interval of the `values.n` that have a value (for the to-target columns, the runs that
 * reached the target: "reached in values.n of runs").
 */
struct ColumnOverSeeds
{
    size_t runs = 0;
    MeanCi values;
};

ColumnOverSeeds OverSeeds(const RunPoint& point, const std::string& column);

/// The measure of progress a curve is drawn against.
enum class Progress
{
    Time,  ///< simulated seconds
    Bytes, ///< bytes sent per node
    Round, ///< rounds
};

/// A curve point's value of `along`.
double ProgressOf(const CurvePoint& p, Progress along);

/// One x of a point's mean accuracy curve.
struct MeanCurvePoint
{
    double x = 0.0;
    MeanCi accuracy;      ///< over the seeds, of the mean accuracy over nodes
    double nodeMin = 0.0; ///< the mean over the seeds of the least accuracy over nodes
    double nodeMax = 0.0; ///< and of the largest
};

/// A point's mean curve over its seeds.
struct MeanCurve
{
    std::vector<MeanCurvePoint> points;
    size_t seeds = 0; ///< the runs averaged: those with a curve.csv
};

/**
 * The mean over the point's seeds of their accuracy curves against `along`: at every x at which
 * one of the seeds evaluated, each seed's curve interpolated linearly there, from the largest
 * of the seeds' first x to the smallest of their last x (the shortest common end), so that every
 * value is a mean over all the seeds. One seed: its curve as it is.
 */
MeanCurve MeanCurveOf(const RunPoint& point, Progress along);

/// The time after which the point's mean curve over time never drops below `target` again.
std::optional<double> TimeStaysAboveTarget(const RunPoint& point, double target);

} // namespace ns3

#endif // DLSIM_RUN_POINTS_H
