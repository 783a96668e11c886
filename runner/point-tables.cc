// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "point-tables.h"

#include "algorithm-registry.h"
#include "figure-labels.h"
#include "result-files.h"
#include "swept-values.h"

#include <algorithm>
#include <cstdlib>
#include <iomanip>
#include <map>
#include <optional>
#include <set>
#include <sstream>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

namespace
{

/// The summary.csv columns reported over seeds: the final accuracy and the to-target ones.
const std::vector<std::string>&
ColumnsOverSeeds()
{
    static const std::vector<std::string> columns = {
        "final_accuracy_mean", "time_to_target_s", "bytes_per_node_to_target", "round_to_target"};
    return columns;
}

/// A number for a CSV file, exactly enough to read back.
std::string
Text(double v)
{
    std::ostringstream o;
    o << std::setprecision(10) << v;
    return o.str();
}

/// The axes other than seed.
std::vector<std::string>
AxesWithoutSeed(const std::vector<std::string>& axes)
{
    std::vector<std::string> kept;
    std::copy_if(axes.begin(),
                 axes.end(),
                 std::back_inserter(kept),
                 [](const std::string& axis) { return axis != "seed"; });
    return kept;
}

/// A point's value of `axis`.
const std::string&
ValueOf(const RunPoint& point, const std::string& axis)
{
    for (const auto& [key, value] : point.values)
    {
        if (key == axis)
        {
            return value;
        }
    }
    return point.runs.at(0).config.at(axis);
}

/// The runs of a point by seed.
std::map<std::string, const RunRecord*>
BySeed(const RunPoint& point)
{
    std::map<std::string, const RunRecord*> runs;
    for (const auto& run : point.runs)
    {
        runs[run.config.at("seed")] = &run;
    }
    return runs;
}

/// One paired comparison of two points on one metric.
struct Comparison
{
    std::string labelA;
    std::string labelB;
    std::string metric;
    size_t common = 0; ///< seeds both points ran
    PairedTest test;
    std::string seeds; ///< those paired
    /// Whether the two points' own 95% intervals over their seeds, what the figures draw as
    /// bands and error bars, overlap; nullopt when either has fewer than two values.
    std::optional<bool> intervalsOverlap;

    /// The paired test and the intervals say different things: significant though the
    /// intervals overlap (the seeds pair what the bands spread), or not though they are apart.
    bool Disagree() const
    {
        return test.Tested() && intervalsOverlap && (test.p < 0.05) == *intervalsOverlap;
    }
};

/// The metrics comparisons.csv pairs.
const std::vector<std::string>&
ComparedMetrics()
{
    static const std::vector<std::string> metrics
        = {"final_accuracy_mean", "time_to_target_s", "bytes_per_node_to_target"};
    return metrics;
}

/// Points a and b compared over their common seeds, one per compared metric.
std::vector<Comparison>
CompareTwo(const RunPoint& a,
           const RunPoint& b,
           const std::vector<std::string>& conditions,
           const std::vector<std::string>& axes)
{
    const std::set<std::string> skip = [&conditions]()
    {
        std::set<std::string> s(conditions.begin(), conditions.end());
        s.insert("seed");
        return s;
    }();
    const auto runsB = BySeed(b);
    size_t common = 0;
    for (const auto& run : a.runs)
    {
        common += runsB.count(run.config.at("seed"));
    }
    std::vector<Comparison> comparisons;
    for (const auto& column : ComparedMetrics())
    {
        Comparison c;
        c.labelA = PointLabel(a.runs, axes, skip, false);
        c.labelB = PointLabel(b.runs, axes, skip, false);
        c.metric = column;
        c.common = common;
        std::vector<double> x;
        std::vector<double> y;
        for (const auto& run : a.runs)
        {
            const std::string& seed = run.config.at("seed");
            auto other = runsB.find(seed);
            if (other == runsB.end())
            {
                continue;
            }
            const std::string& u = run.summary.at(column);
            const std::string& v = other->second->summary.at(column);
            if (u.empty() || v.empty())
            {
                continue; // not reached (or not evaluated) by one of them: no pair
            }
            x.push_back(std::strtod(u.c_str(), nullptr));
            y.push_back(std::strtod(v.c_str(), nullptr));
            c.seeds += (c.seeds.empty() ? "" : " ") + seed;
        }
        c.test = PairedTTest(x, y);
        const MeanCi ia = OverSeeds(a, column).values;
        const MeanCi ib = OverSeeds(b, column).values;
        if (ia.HasCi() && ib.HasCi())
        {
            c.intervalsOverlap = ia.Low() <= ib.High() && ib.Low() <= ia.High();
        }
        comparisons.push_back(c);
    }
    return comparisons;
}

/// Every two points at the same conditions, compared (ComparisonsCsv's rows, with the
/// conditions' values of each).
std::vector<std::pair<const RunPoint*, Comparison>>
CompareAll(const std::vector<RunPoint>& points, const std::vector<std::string>& axes)
{
    const std::vector<std::string> conditions = ConditionAxes(axes);
    std::vector<std::pair<const RunPoint*, Comparison>> all;
    for (size_t i = 0; i < points.size(); ++i)
    {
        for (size_t j = i + 1; j < points.size(); ++j)
        {
            const bool sameConditions
                = std::all_of(conditions.begin(),
                              conditions.end(),
                              [&](const std::string& axis)
                              { return ValueOf(points[i], axis) == ValueOf(points[j], axis); });
            if (sameConditions)
            {
                for (auto& c : CompareTwo(points[i], points[j], conditions, axes))
                {
                    all.emplace_back(&points[i], std::move(c));
                }
            }
        }
    }
    return all;
}

} // namespace

std::string
PointsCsv(const std::vector<RunPoint>& points, const std::vector<std::string>& axes)
{
    const std::vector<std::string> shown = AxesWithoutSeed(axes);
    const bool targetColumn = std::find(axes.begin(), axes.end(), "target_accuracy") == axes.end();
    std::ostringstream out;
    out << AxisColumnsHeader(shown) << "seeds,runs," << (targetColumn ? "target_accuracy," : "");
    for (const auto& column : ColumnsOverSeeds())
    {
        out << column << "," << column << "_ci95_low," << column << "_ci95_high,"
            << (column == "final_accuracy_mean" ? "evaluated," : "")
            << (column == "time_to_target_s" ? "reached," : "");
    }
    out << "time_stays_above_target_s,network_model,approximate_runs\n";
    for (const auto& point : points)
    {
        out << AxisColumns(shown,
                           [&point](const std::string& axis) { return ValueOf(point, axis); });
        const std::string& target = point.runs.at(0).config.at("target_accuracy");
        out << point.SeedList() << "," << point.runs.size() << ","
            << (targetColumn ? target + "," : "");
        for (const auto& column : ColumnsOverSeeds())
        {
            const MeanCi m = OverSeeds(point, column).values;
            out << (m.n ? Text(m.mean) : "") << "," << (m.HasCi() ? Text(m.Low()) : "") << ","
                << (m.HasCi() ? Text(m.High()) : "") << ",";
            if (column == "final_accuracy_mean" || column == "time_to_target_s")
            {
                out << m.n << ",";
            }
        }
        const auto stays = TimeStaysAboveTarget(point, std::strtod(target.c_str(), nullptr));
        const auto approximate
            = std::count_if(point.runs.begin(),
                            point.runs.end(),
                            [](const RunRecord& run) { return !run.networkFidelity.empty(); });
        out << (stays ? Text(*stays) : "") << "," << CsvField(point.runs.at(0).NetworkModelUsed())
            << "," << approximate << "\n";
    }
    return out.str();
}

std::vector<std::string>
ConditionAxes(const std::vector<std::string>& axes)
{
    std::vector<std::string> conditions;
    for (const auto& axis : AxesWithoutSeed(axes))
    {
        if (axis != "algorithm" && !AlgorithmRegistry::FindKey(axis))
        {
            conditions.push_back(axis);
        }
    }
    return conditions;
}

std::string
ComparisonsCsv(const std::vector<RunPoint>& points, const std::vector<std::string>& axes)
{
    const std::vector<std::string> conditions = ConditionAxes(axes);
    std::ostringstream out;
    for (const auto& axis : conditions)
    {
        out << axis << ",";
    }
    out << "a,b,metric,common_seeds,n,mean_difference,ci95_low,ci95_high,t,p_value,significant,"
           "intervals_overlap,seeds\n";
    for (const auto& [point, c] : CompareAll(points, axes))
    {
        for (const auto& axis : conditions)
        {
            out << CsvField(ValueOf(*point, axis)) << ",";
        }
        out << CsvField(c.labelA) << "," << CsvField(c.labelB) << "," << c.metric << "," << c.common
            << "," << c.test.difference.n << ",";
        if (c.test.Tested())
        {
            out << Text(c.test.difference.mean) << "," << Text(c.test.difference.Low()) << ","
                << Text(c.test.difference.High()) << "," << Text(c.test.t) << "," << Text(c.test.p)
                << "," << (c.test.p < 0.05 ? "yes" : "no");
        }
        else
        {
            out << (c.test.difference.n == 1 ? Text(c.test.difference.mean) : "") << ",,,,,";
        }
        out << "," << (c.intervalsOverlap ? (*c.intervalsOverlap ? "yes" : "no") : "") << ","
            << c.seeds << "\n";
    }
    return out.str();
}

std::vector<std::string>
PairedTestNotes(const std::vector<RunPoint>& points, const std::vector<std::string>& axes)
{
    const std::vector<std::string> conditions = ConditionAxes(axes);
    std::vector<std::string> notes;
    for (const auto& [point, c] : CompareAll(points, axes))
    {
        if (!c.Disagree())
        {
            continue;
        }
        std::string at;
        for (const auto& axis : conditions)
        {
            at += (at.empty() ? " at " : ", ") + axis + " = " + ValueOf(*point, axis);
        }
        std::ostringstream p;
        p << std::setprecision(2) << c.test.p;
        const bool significant = c.test.p < 0.05;
        notes.push_back(c.labelA + " against " + c.labelB + at + ", " + c.metric + ": paired over "
                        + std::to_string(c.test.difference.n) + " seeds, p = " + p.str() + ", "
                        + (significant ? "a difference, though the two 95% intervals overlap"
                                       : "no clear difference, though the two 95% intervals are "
                                         "apart"));
    }
    return notes;
}

} // namespace ns3
