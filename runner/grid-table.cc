// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "grid-table.h"

#include "point-tables.h"
#include "run-catalogue.h"
#include "time-to-target.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <sstream>

namespace ns3
{

namespace
{

/**
 * `v` as text with `precision` decimals, or (precision < 0) with 3 significant digits, the
 * decimals used being left in `precision`; never in exponent notation.
 */
std::string
Number(double v, int& precision)
{
    if (precision < 0)
    {
        // (A hair above log10: 9.9999999997, a mean of 10s, shows as 10.0, not 10.00.)
        precision
            = v > 0 ? std::clamp(2 - static_cast<int>(std::floor(std::log10(v) + 1e-9)), 0, 6) : 1;
    }
    std::ostringstream text;
    text << std::fixed << std::setprecision(precision) << v;
    return text.str();
}

/**
 * A summary figure times `scale` as text with 3 significant digits (`precision` decimals if
 * given), but never in exponent notation; `empty` for an empty field.
 */
std::string
Field(const std::string& value, int precision, double scale, const std::string& empty)
{
    return value.empty() ? empty : Number(std::stod(value) * scale, precision);
}

/**
 * A summary column over a point's seeds as a table cell: "0.712 ± 0.013", the mean alone for one
 * value, "(k of n)" after it when only k of the n finished seeds have one, `none` when none has.
 */
std::string
SeedsCell(const RunPoint& point,
          const std::string& column,
          int precision,
          double scale,
          const std::string& none)
{
    if (point.runs.empty())
    {
        return "-";
    }
    const ColumnOverSeeds over = OverSeeds(point, column);
    const size_t k = over.values.n;
    const std::string of = " (" + std::to_string(k) + " of " + std::to_string(over.runs) + ")";
    if (k == 0)
    {
        return none + (over.runs > 1 ? of : "");
    }
    std::string cell = Number(over.values.mean * scale, precision);
    if (over.values.HasCi())
    {
        cell += " \u00b1 " + Number(over.values.halfWidth * scale, precision);
    }
    return cell + (k < over.runs ? of : "");
}

/// Rows of cells as columns padded to their widest cell, each row indented by two spaces.
std::string
Columns(const std::vector<std::vector<std::string>>& rows)
{
    // Widths in characters: the UTF-8 "±" is two bytes but one character.
    auto width = [](const std::string& cell)
    {
        return static_cast<size_t>(
            std::count_if(cell.begin(), cell.end(), [](char c) { return (c & 0xC0) != 0x80; }));
    };
    std::vector<size_t> widths(rows[0].size(), 0);
    for (const auto& row : rows)
    {
        for (size_t c = 0; c < row.size(); ++c)
        {
            widths[c] = std::max(widths[c], width(row[c]));
        }
    }
    std::ostringstream out;
    for (const auto& row : rows)
    {
        out << " ";
        for (size_t c = 0; c < row.size(); ++c)
        {
            out << " " << row[c] << std::string(widths[c] - width(row[c]), ' ');
        }
        out << "\n";
    }
    return out.str();
}

/**
 * What a run that did not reach the target ran out of, so that "not reached" never hides a
 * round cap: its simulated-time budget (rounds.duration), or its rounds where no budget bounds
 * it or the rounds ended first.
 */
std::string
NotReached(const RunRecord& run)
{
    auto value = [](const std::map<std::string, std::string>& fields, const char* key)
    {
        const auto it = fields.find(key);
        return it == fields.end() ? std::string() : it->second;
    };
    const std::string rounds = value(run.config, "rounds");
    double budget = kNoBudget;
    try
    {
        budget = BudgetSeconds(value(run.config, "rounds.duration"));
    }
    catch (const std::exception&)
    {
        // A config.ini of an earlier version: its rounds bounded it.
    }
    if (budget == kNoBudget)
    {
        return "not reached in " + rounds + " rounds";
    }
    int precision = -1;
    const std::string within = Number(budget, precision);
    const std::string simulated = value(run.summary, "simulated_time_s");
    if (!simulated.empty() && std::strtod(simulated.c_str(), nullptr) < budget)
    {
        return "not reached in " + rounds + " rounds (the cap, before the " + within + " s budget)";
    }
    return "not reached within " + within + " s";
}

/**
 * The evaluations a point's time to target was interpolated between: "0.31-0.62" for one run
 * (seconds), the widest over the seeds that reached it ("0.31 wide at most") for several; "-"
 * where none reached it or the runs have no curve.
 */
std::string
BracketCell(const RunPoint& point)
{
    std::vector<std::pair<double, double>> brackets;
    for (const RunRecord& run : point.runs)
    {
        if (run.targetBracket)
        {
            brackets.push_back(*run.targetBracket);
        }
    }
    if (brackets.empty())
    {
        return "-";
    }
    if (point.runs.size() == 1)
    {
        int precision = -1;
        const std::string low = Number(brackets[0].first, precision);
        precision = -1;
        return low + "-" + Number(brackets[0].second, precision);
    }
    double widest = 0.0;
    for (const auto& [low, high] : brackets)
    {
        widest = std::max(widest, high - low);
    }
    int precision = -1;
    return Number(widest, precision) + " wide at most";
}

} // namespace

const char* const kGridSummaryFile = "grid-summary.txt";

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

std::string
GridTable(const std::vector<RunPoint>& points, const std::string& target)
{
    if (points.empty())
    {
        return "dlsim: grid results: no runs\n";
    }
    const bool seeds = std::any_of(
        points.begin(), points.end(), [](const RunPoint& p) { return p.Seeds() > 1; });
    std::vector<std::vector<std::string>> rows;
    // Every point's axes, in order: an algorithm's axes are only its points' (ExpandGrid).
    std::vector<std::string> header;
    for (const auto& point : points)
    {
        for (const auto& [key, value] : point.values)
        {
            if (std::find(header.begin(), header.end(), key) == header.end())
            {
                header.push_back(key);
            }
        }
    }
    const size_t axes = header.size();
    if (seeds)
    {
        header.push_back("seeds");
    }
    header.push_back("network model");
    for (const char* column :
         {"final accuracy", "time to target (s)", "MB/node to target", "evaluated around it (s)"})
    {
        header.push_back(column);
    }
    rows.push_back(header);
    bool anyApproximate = false;
    for (const auto& point : points)
    {
        std::vector<std::string> row;
        for (size_t a = 0; a < axes; ++a)
        {
            const auto it
                = std::find_if(point.values.begin(),
                               point.values.end(),
                               [&header, a](const auto& v) { return v.first == header[a]; });
            row.push_back(it == point.values.end() ? "-" : it->second);
        }
        if (seeds)
        {
            row.push_back(std::to_string(point.Seeds())
                          + (point.failed ? " (" + std::to_string(point.failed) + " failed)" : ""));
        }
        const auto approximate
            = std::count_if(point.runs.begin(),
                            point.runs.end(),
                            [](const RunRecord& run) { return !run.networkFidelity.empty(); });
        anyApproximate = anyApproximate || approximate > 0;
        if (point.runs.empty())
        {
            row.push_back("-");
        }
        else if (approximate == 0 || point.runs.size() == 1)
        {
            row.push_back(point.runs[0].NetworkModelText());
        }
        else
        {
            row.push_back(point.runs[0].NetworkModelUsed() + " (approximate in "
                          + std::to_string(approximate) + " of " + std::to_string(point.runs.size())
                          + ")");
        }
        if (point.runs.empty())
        {
            row.insert(row.end(), {"failed", "-", "-", "-"});
        }
        else if (!seeds)
        {
            // One run: its figures as its summary holds them.
            const auto& summary = point.runs[0].summary;
            row.push_back(Field(summary.at("final_accuracy_mean"), 3, 1, "no evaluation"));
            row.push_back(Field(summary.at("time_to_target_s"), -1, 1, NotReached(point.runs[0])));
            row.push_back(Field(summary.at("bytes_per_node_to_target"), -1, 1e-6, "not reached"));
        }
        else
        {
            row.push_back(SeedsCell(point, "final_accuracy_mean", 3, 1, "no evaluation"));
            row.push_back(SeedsCell(point, "time_to_target_s", -1, 1, NotReached(point.runs[0])));
            row.push_back(SeedsCell(point, "bytes_per_node_to_target", -1, 1e-6, "not reached"));
        }
        if (!point.runs.empty())
        {
            row.push_back(BracketCell(point));
        }
        rows.push_back(row);
    }
    std::string title = "dlsim: grid results (target accuracy " + target
                        + "; time and bytes to it interpolated between the evaluations around "
                          "it, whose times the last column gives";
    if (seeds)
    {
        title += "; over the seeds of each point: mean \u00b1 half-width of the 95% confidence "
                 "interval (Student t), to the target over the seeds that reached it, k of n "
                 "where not all did";
    }
    std::string table = title + "):\n" + Columns(rows);
    if (anyApproximate)
    {
        table += "  approximate: the flows' windows overflowed queues or links lost packets, "
                 "where flows are least like packets (each run's summary.json says which); "
                 "network.model = packet is the reference\n";
    }
    // The figures' bands are each point's spread over its seeds; the paired test is over the
    // differences seed by seed. Where they disagree, the table says so, the test being the one
    // that pairs.
    std::vector<std::string> pointAxes;
    for (const auto& point : points)
    {
        for (const auto& [axis, value] : point.values)
        {
            if (std::find(pointAxes.begin(), pointAxes.end(), axis) == pointAxes.end())
            {
                pointAxes.push_back(axis);
            }
        }
    }
    const std::vector<std::string> notes = PairedTestNotes(points, pointAxes);
    if (!notes.empty())
    {
        constexpr size_t kShown = 10;
        table += "  the paired t-test (over seeds, which share data, overlay, links and initial "
                 "model) and the figures' 95% bands disagree (comparisons.csv, "
                 "intervals_overlap):\n";
        for (size_t i = 0; i < notes.size() && i < kShown; ++i)
        {
            table += "    " + notes[i] + "\n";
        }
        if (notes.size() > kShown)
        {
            table += "    and " + std::to_string(notes.size() - kShown) + " more\n";
        }
    }
    return table;
}

std::string
PrintGridTable(const std::vector<GridPoint>& points,
               const std::vector<bool>& failed,
               const std::string& target,
               std::ostream& out)
{
    std::vector<RunPoint> runPoints;
    for (size_t i = 0; i < points.size(); ++i)
    {
        std::vector<std::pair<std::string, std::string>> values;
        for (const auto& value : points[i].values)
        {
            if (value.first != "seed")
            {
                values.push_back(value);
            }
        }
        RunPoint& point = PointWithValues(runPoints, values);
        std::ostringstream ignored; // a point that did not finish is reported as failed
        const auto runs = failed[i]
                              ? std::vector<RunRecord>{}
                              : ReadFinishedRuns(points[i].config.GetString("out"), -1.0, ignored);
        point.runs.insert(point.runs.end(), runs.begin(), runs.end());
        point.failed += runs.empty() ? 1 : 0;
    }
    const std::string table = GridTable(runPoints, target);
    out << table << std::flush;
    return table;
}

} // namespace ns3
