// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "run-points.h"

#include "swept-values.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>

namespace ns3
{

std::string
RunPoint::SeedList() const
{
    std::string list;
    for (const auto& run : runs)
    {
        list += (list.empty() ? "" : " ") + run.config.at("seed");
    }
    return list;
}

RunPoint&
PointWithValues(std::vector<RunPoint>& points,
                const std::vector<std::pair<std::string, std::string>>& values)
{
    for (auto& point : points)
    {
        if (point.values == values)
        {
            return point;
        }
    }
    points.push_back(RunPoint{values, {}, 0});
    return points.back();
}

void
SortRunsBySweptValues(std::vector<RunRecord>& runs, const std::vector<std::string>& axes)
{
    std::stable_sort(runs.begin(),
                     runs.end(),
                     [&axes](const RunRecord& a, const RunRecord& b)
                     {
                         for (const auto& axis : axes)
                         {
                             const std::string& x = a.config.at(axis);
                             const std::string& y = b.config.at(axis);
                             if (x != y)
                             {
                                 return SweptValueBefore(axis, x, y);
                             }
                         }
                         return false;
                     });
}

std::vector<RunPoint>
GroupSeeds(const std::vector<RunRecord>& runs, const std::vector<std::string>& axes)
{
    std::vector<RunPoint> points;
    for (const auto& run : runs)
    {
        std::vector<std::pair<std::string, std::string>> values;
        for (const auto& axis : axes)
        {
            if (axis != "seed")
            {
                values.emplace_back(axis, run.config.at(axis));
            }
        }
        RunPoint& point = PointWithValues(points, values);
        // A seed counts once: a folder left by an earlier grid under another name (before an
        // axis or `repeat` was added) must not pass for another seed.
        const std::string& seed = run.config.at("seed");
        const auto same
            = std::find_if(point.runs.begin(),
                           point.runs.end(),
                           [&seed](const RunRecord& r) { return r.config.at("seed") == seed; });
        if (same != point.runs.end())
        {
            std::cerr << "dlsim: warning: " << run.dir << " repeats the point and seed " << seed
                      << " of " << same->dir << "; counting only the latter (remove one)"
                      << std::endl;
            continue;
        }
        point.runs.push_back(run);
    }
    return points;
}

ColumnOverSeeds
OverSeeds(const RunPoint& point, const std::string& column)
{
    ColumnOverSeeds over;
    over.runs = point.runs.size();
    std::vector<double> values;
    for (const auto& run : point.runs)
    {
        const std::string& text = run.summary.at(column);
        if (!text.empty())
        {
            values.push_back(std::strtod(text.c_str(), nullptr));
        }
    }
    over.values = MeanWithCi(values);
    return over;
}

double
ProgressOf(const CurvePoint& p, Progress along)
{
    switch (along)
    {
        case Progress::Time:
            return p.time;
        case Progress::Bytes:
            return p.bytesPerNode;
        case Progress::Round:
            return p.round;
    }
    return p.time;
}

namespace
{

/// `curve` at `x` (within its range) against `along`: linear between the evaluations around x.
CurvePoint
CurveAt(const std::vector<CurvePoint>& curve, Progress along, double x)
{
    // The first evaluation at or beyond x; x itself when one is there.
    auto after = std::lower_bound(curve.begin(),
                                  curve.end(),
                                  x,
                                  [along](const CurvePoint& p, double v)
                                  { return ProgressOf(p, along) < v; });
    if (after == curve.end())
    {
        return curve.back();
    }
    const double b = ProgressOf(*after, along);
    if (b == x || after == curve.begin())
    {
        return *after;
    }
    const CurvePoint& q = *(after - 1);
    const double a = ProgressOf(q, along);
    const double f = (x - a) / (b - a);
    CurvePoint p;
    p.accuracyMean = q.accuracyMean + f * (after->accuracyMean - q.accuracyMean);
    p.accuracyMin = q.accuracyMin + f * (after->accuracyMin - q.accuracyMin);
    p.accuracyMax = q.accuracyMax + f * (after->accuracyMax - q.accuracyMax);
    return p;
}

} // namespace

MeanCurve
MeanCurveOf(const RunPoint& point, Progress along)
{
    std::vector<const std::vector<CurvePoint>*> curves;
    for (const auto& run : point.runs)
    {
        if (run.curve && !run.curve->empty())
        {
            curves.push_back(&*run.curve);
        }
    }
    MeanCurve mean;
    mean.seeds = curves.size();
    if (curves.empty())
    {
        return mean;
    }
    // The range every seed covers, and every x a seed evaluated at within it.
    double from = -HUGE_VAL;
    double to = HUGE_VAL;
    for (const auto* curve : curves)
    {
        from = std::max(from, ProgressOf(curve->front(), along));
        to = std::min(to, ProgressOf(curve->back(), along));
    }
    std::vector<double> xs;
    for (const auto* curve : curves)
    {
        for (const auto& p : *curve)
        {
            const double x = ProgressOf(p, along);
            if (x >= from && x <= to)
            {
                xs.push_back(x);
            }
        }
    }
    std::sort(xs.begin(), xs.end());
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
    for (double x : xs)
    {
        std::vector<double> accuracies;
        MeanCurvePoint m;
        m.x = x;
        for (const auto* curve : curves)
        {
            const CurvePoint p = CurveAt(*curve, along, x);
            accuracies.push_back(p.accuracyMean);
            m.nodeMin += p.accuracyMin / static_cast<double>(curves.size());
            m.nodeMax += p.accuracyMax / static_cast<double>(curves.size());
        }
        m.accuracy = MeanWithCi(accuracies);
        mean.points.push_back(m);
    }
    return mean;
}

std::optional<double>
TimeStaysAboveTarget(const RunPoint& point, double target)
{
    std::vector<CurvePoint> curve;
    for (const auto& m : MeanCurveOf(point, Progress::Time).points)
    {
        CurvePoint p;
        p.time = m.x;
        p.accuracyMean = m.accuracy.mean;
        curve.push_back(p);
    }
    const auto last = FindLastCrossing(curve, target);
    return last ? std::optional<double>(last->time) : std::nullopt;
}

} // namespace ns3
