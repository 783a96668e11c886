// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "swept-values.h"

#include "random-variable-spec.h"
#include "result-files.h"
#include "value-text.h"

#include <cmath>
#include <iomanip>
#include <set>
#include <sstream>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

double
SweptNumber(const std::string& key, const std::string& value, std::string& unit)
{
    try
    {
        static const std::set<std::string> rateKeys = {"link.bandwidth",
                                                       "access.up",
                                                       "access.down",
                                                       "core.bandwidth",
                                                       "regions.bandwidth",
                                                       "underlay.bandwidth",
                                                       "cross.rate"};
        if (rateKeys.count(key) && !IsRandomVariableSpec(value))
        {
            unit = "Mbit/s";
            return ParseDataRateBps(key, value) / 1e6;
        }
        if (key.size() > 8 && key.compare(key.size() - 8, 8, ".latency") == 0
            && !IsRandomVariableSpec(value))
        {
            unit = "ms";
            return ParseSeconds(key, value) * 1e3;
        }
        unit = "";
        return std::stod(value);
    }
    catch (const std::exception&)
    {
        return std::nan("");
    }
}

std::string
NumericColumnSuffix(const std::string& key)
{
    std::string unit;
    SweptNumber(key, "1", unit);
    return unit == "Mbit/s" ? "_bps" : unit == "ms" ? "_s" : "";
}

double
NumericValue(const std::string& key, const std::string& value)
{
    std::string unit;
    double x = SweptNumber(key, value, unit);
    return unit == "Mbit/s" ? x * 1e6 : unit == "ms" ? x * 1e-3 : x;
}

bool
SweptValueBefore(const std::string& axis, const std::string& a, const std::string& b)
{
    if (!NumericColumnSuffix(axis).empty())
    {
        try
        {
            return NumericValue(axis, a) < NumericValue(axis, b);
        }
        catch (const std::exception&)
        {
            // A random variable or a file: no one number, so ordered as text.
        }
    }
    double x = 0;
    double y = 0;
    if (ParseDecimal(a, x) && ParseDecimal(b, y) && x != y)
    {
        return x < y;
    }
    return a < b;
}

bool
SameSweptValue(const std::string& axis, const std::string& a, const std::string& b)
{
    if (a == b)
    {
        return true;
    }
    if (!NumericColumnSuffix(axis).empty())
    {
        try
        {
            const double x = NumericValue(axis, a);
            const double y = NumericValue(axis, b);
            if (std::isfinite(x) && std::isfinite(y))
            {
                return x == y;
            }
        }
        catch (const std::exception&)
        {
            // A random variable or a file: compared as text.
        }
    }
    double x = 0;
    double y = 0;
    return ParseDecimal(a, x) && ParseDecimal(b, y) && x == y;
}

std::string
AxisColumnsHeader(const std::vector<std::string>& axes)
{
    std::string header;
    for (const auto& axis : axes)
    {
        header += axis + ",";
    }
    for (const auto& axis : axes)
    {
        if (!NumericColumnSuffix(axis).empty())
        {
            header += axis + NumericColumnSuffix(axis) + ",";
        }
    }
    return header;
}

std::string
AxisColumns(const std::vector<std::string>& axes,
            const std::function<std::string(const std::string&)>& valueOf)
{
    std::ostringstream fields;
    for (const auto& axis : axes)
    {
        fields << CsvField(valueOf(axis)) << ",";
    }
    for (const auto& axis : axes)
    {
        if (!NumericColumnSuffix(axis).empty())
        {
            fields << std::setprecision(12) << NumericValue(axis, valueOf(axis)) << ",";
        }
    }
    return fields.str();
}

} // namespace ns3
