// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "grid-table.h"

#include "run-catalogue.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace ns3
{

namespace
{

/**
 * A summary figure times `scale` as text with 3 significant digits (`precision` decimals if
 * given), but never in exponent notation; `empty` for an empty field.
 */
std::string
Field(const std::string& value, int precision, double scale, const std::string& empty)
{
    if (value.empty())
    {
        return empty;
    }
    const double v = std::stod(value) * scale;
    if (precision < 0)
    {
        precision = v > 0 ? std::clamp(2 - static_cast<int>(std::floor(std::log10(v))), 0, 6) : 1;
    }
    std::ostringstream text;
    text << std::fixed << std::setprecision(precision) << v;
    return text.str();
}

} // namespace

std::string
HumanDuration(double seconds)
{
    const long s = std::lround(std::max(0.0, seconds));
    std::ostringstream text;
    if (s < 60)
    {
        text << s << " s";
    }
    else if (s < 3600)
    {
        text << s / 60 << " min " << s % 60 << " s";
    }
    else
    {
        text << s / 3600 << " h " << std::setw(2) << std::setfill('0') << s / 60 % 60 << " min";
    }
    return text.str();
}

std::string
DescribePoint(const GridPoint& point)
{
    std::string text;
    for (const auto& [key, value] : point.values)
    {
        text += (text.empty() ? "" : ", ") + key + "=" + value;
    }
    return text;
}

std::string
DescribeOutcome(const std::string& out)
{
    auto fields = ReadSummaryCsv(out + "/summary.csv");
    if (!fields)
    {
        return "no summary";
    }
    const std::string time = fields->at("time_to_target_s");
    return "final accuracy "
           + Field(fields->at("final_accuracy_mean"), 3, 1, "none (no evaluation)") + ", target "
           + (time.empty() ? "not reached" : "at " + Field(time, -1, 1, "") + " s");
}
void
PrintGridTable(const std::vector<GridPoint>& points,
               const std::vector<bool>& failed,
               const std::string& target,
               std::ostream& out)
{
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> header;
    for (const auto& [key, value] : points[0].values)
    {
        header.push_back(key);
    }
    for (const char* column : {"final accuracy", "time to target (s)", "MB/node to target"})
    {
        header.push_back(column);
    }
    rows.push_back(header);
    for (size_t i = 0; i < points.size(); ++i)
    {
        std::vector<std::string> row;
        for (const auto& [key, value] : points[i].values)
        {
            row.push_back(value);
        }
        auto fields = ReadSummaryCsv(points[i].config.GetString("out") + "/summary.csv");
        if (failed[i] || !fields)
        {
            row.insert(row.end(), {"failed", "-", "-"});
        }
        else
        {
            row.push_back(Field(fields->at("final_accuracy_mean"), 3, 1, "no evaluation"));
            row.push_back(Field(fields->at("time_to_target_s"), -1, 1, "not reached"));
            row.push_back(Field(fields->at("bytes_per_node_to_target"), -1, 1e-6, "not reached"));
        }
        rows.push_back(row);
    }
    std::vector<size_t> widths(header.size(), 0);
    for (const auto& row : rows)
    {
        for (size_t c = 0; c < row.size(); ++c)
        {
            widths[c] = std::max(widths[c], row[c].size());
        }
    }
    out << "dlsim: grid results (target accuracy " << target
        << "; time and bytes to it interpolated between evaluations):\n";
    for (const auto& row : rows)
    {
        out << " ";
        for (size_t c = 0; c < row.size(); ++c)
        {
            out << " " << std::left << std::setw(static_cast<int>(widths[c])) << row[c];
        }
        out << std::right << "\n";
    }
    out << std::flush;
}

} // namespace ns3
