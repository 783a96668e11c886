// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "time-to-target.h"

#include "random-variable-spec.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ns3
{

const char* const kTimeToTargetMethod
    = "linear interpolation between the last evaluation below the target and the first at or "
      "above it";

namespace
{

/// The crossing of `target` on the way up to evaluation i (at or above it) from i - 1 (below).
TargetCrossing
CrossingInto(const std::vector<CurvePoint>& curve, size_t i, double target)
{
    const CurvePoint& p = curve[i];
    if (i == 0)
    {
        return TargetCrossing{p.time, p.bytesPerNode, p.round, p.time, p.time};
    }
    const CurvePoint& q = curve[i - 1];
    // q is below the target and p at or above it, so the denominator is positive.
    const double f = (target - q.accuracyMean) / (p.accuracyMean - q.accuracyMean);
    return TargetCrossing{q.time + f * (p.time - q.time),
                          q.bytesPerNode + f * (p.bytesPerNode - q.bytesPerNode),
                          q.round + f * (p.round - q.round),
                          q.time,
                          p.time};
}

} // namespace

double
BudgetSeconds(const std::string& text)
{
    return text.empty() || text == "none" ? kNoBudget : ParseSeconds("rounds.duration", text);
}

std::optional<TargetCrossing>
FindTargetCrossing(const std::vector<CurvePoint>& curve, double target, double budget)
{
    for (size_t i = 0; i < curve.size(); ++i)
    {
        if (curve[i].accuracyMean >= target)
        {
            const TargetCrossing crossing = CrossingInto(curve, i, target);
            return crossing.time <= budget ? std::optional<TargetCrossing>(crossing) : std::nullopt;
        }
    }
    return std::nullopt;
}

std::optional<TargetCrossing>
FindLastCrossing(const std::vector<CurvePoint>& curve, double target)
{
    if (curve.empty() || curve.back().accuracyMean < target)
    {
        return std::nullopt;
    }
    // The evaluation after the last one below the target (the first, when none is below).
    size_t i = curve.size() - 1;
    while (i > 0 && curve[i - 1].accuracyMean >= target)
    {
        --i;
    }
    return CrossingInto(curve, i, target);
}

CurvePoint
ParseCurveLine(const std::string& line)
{
    std::stringstream fields(line);
    CurvePoint p;
    double* targets[]
        = {&p.round, &p.time, &p.bytesPerNode, &p.accuracyMean, &p.accuracyMin, &p.accuracyMax};
    size_t read = 0;
    for (double* target : targets)
    {
        std::string field;
        size_t used = 0;
        if (!std::getline(fields, field, ','))
        {
            if (read == 4)
            {
                // A curve of four fields (written by hand or by an own program) has no spread
                // over nodes: its band is the mean itself.
                p.accuracyMin = p.accuracyMax = p.accuracyMean;
                break;
            }
            throw std::runtime_error("a curve line has " + std::to_string(read)
                                     + " fields, not 4 or 6: '" + line + "'");
        }
        ++read;
        try
        {
            *target = std::stod(field, &used);
        }
        catch (const std::exception&)
        {
            used = 0;
        }
        if (used == 0 || field.find_first_not_of(" \r\n", used) != std::string::npos)
        {
            throw std::runtime_error("a curve line has '" + field + "' for a number: '" + line
                                     + "'");
        }
    }
    return p;
}

std::vector<CurvePoint>
ReadCurveCsv(const std::string& path)
{
    std::ifstream in(path);
    std::string line;
    if (!in || !std::getline(in, line))
    {
        throw std::runtime_error("cannot read " + path);
    }
    std::vector<CurvePoint> curve;
    while (std::getline(in, line))
    {
        if (line.empty())
        {
            continue;
        }
        try
        {
            curve.push_back(ParseCurveLine(line));
        }
        catch (const std::exception& e)
        {
            throw std::runtime_error(path + ": " + e.what());
        }
    }
    return curve;
}

} // namespace ns3
