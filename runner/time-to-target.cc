// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "time-to-target.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ns3
{

const char* const kTimeToTargetMethod
    = "linear interpolation between the last evaluation below the target and the first at or "
      "above it";

std::optional<TargetCrossing>
FindTargetCrossing(const std::vector<CurvePoint>& curve, double target)
{
    for (size_t i = 0; i < curve.size(); ++i)
    {
        const CurvePoint& p = curve[i];
        if (p.accuracyMean < target)
        {
            continue;
        }
        if (i == 0)
        {
            return TargetCrossing{p.time, p.bytesPerNode, p.round};
        }
        const CurvePoint& q = curve[i - 1];
        // q is below the target and p at or above it, so the denominator is positive.
        const double f = (target - q.accuracyMean) / (p.accuracyMean - q.accuracyMean);
        return TargetCrossing{q.time + f * (p.time - q.time),
                              q.bytesPerNode + f * (p.bytesPerNode - q.bytesPerNode),
                              q.round + f * (p.round - q.round)};
    }
    return std::nullopt;
}

CurvePoint
ParseCurveLine(const std::string& line)
{
    std::stringstream fields(line);
    CurvePoint p;
    double* targets[] = {&p.round, &p.time, &p.bytesPerNode, &p.accuracyMean};
    for (double* target : targets)
    {
        std::string field;
        size_t used = 0;
        if (!std::getline(fields, field, ','))
        {
            throw std::runtime_error("a curve line has fewer than 4 fields: '" + line + "'");
        }
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
