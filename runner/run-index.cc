// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "run-index.h"

#include "grid-table.h"
#include "point-tables.h"
#include "result-files.h"
#include "results-writer.h"
#include "scenario-config.h"
#include "swept-values.h"

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace ns3
{

std::vector<std::string>
RunAxes(const std::vector<RunRecord>& runs)
{
    std::vector<std::string> axes;
    for (const auto& key : ScenarioKeys())
    {
        if (!ChangesResults(key.name))
        {
            continue;
        }
        std::set<std::string> values;
        for (const auto& r : runs)
        {
            values.insert(r.config.at(key.name));
        }
        if (values.size() > 1)
        {
            axes.push_back(key.name);
        }
    }
    return axes;
}

namespace
{

/**
 * index.csv, points.csv and comparisons.csv of `runs` under `dir`: the one writer, for grids and
 * for `collect`. Returns the points.
 */
std::vector<RunPoint>
WriteIndex(const std::string& dir, std::vector<RunRecord> runs, std::ostream& log)
{
    const std::vector<std::string> axes = RunAxes(runs);
    SortRunsBySweptValues(runs, axes);
    std::ostringstream index;
    index << AxisColumnsHeader(axes);
    // Every run's summary.csv has this header (ReadSummaryCsv checked it).
    const std::string header = SummaryCsvHeader();
    const std::vector<std::string> columns = SplitFields(header);
    // The target the to-target columns refer to, which `collect --target_accuracy` changes.
    const bool targetColumn = std::find(axes.begin(), axes.end(), "target_accuracy") == axes.end();
    index << "run," << (targetColumn ? "target_accuracy," : "") << header
          << ",network_model,network_fidelity,target_evaluated_below_s,target_evaluated_above_s\n";
    for (const auto& run : runs)
    {
        index << AxisColumns(axes, [&run](const std::string& axis) { return run.config.at(axis); })
              << fs::relative(run.dir, dir).string();
        if (targetColumn)
        {
            index << "," << run.config.at("target_accuracy");
        }
        for (const auto& column : columns)
        {
            auto it = run.summary.find(column);
            index << "," << (it == run.summary.end() ? "" : it->second);
        }
        index << "," << CsvField(run.NetworkModelUsed()) << "," << CsvField(run.networkFidelity)
              << ",";
        // The evaluations the time to target was interpolated between (empty: not reached).
        if (run.targetBracket)
        {
            index << std::setprecision(10) << run.targetBracket->first << ","
                  << run.targetBracket->second;
        }
        else
        {
            index << ",";
        }
        index << "\n";
    }
    WriteFileAtomically(dir + "/index.csv", index.str());
    // The runs over their seeds, in the index's order.
    const std::vector<RunPoint> points = GroupSeeds(runs, axes);
    WriteFileAtomically(dir + "/points.csv", PointsCsv(points, axes));
    WriteFileAtomically(dir + "/comparisons.csv", ComparisonsCsv(points, axes));
    log << "dlsim: index of " << runs.size() << " runs in " << dir << "/index.csv; "
        << points.size() << " points over their seeds (mean, 95% confidence interval) in "
        << "points.csv, paired t-tests between algorithms in comparisons.csv" << std::endl;
    return points;
}

} // namespace

size_t
CollectRuns(const std::string& dir, std::ostream& log, double targetAccuracy)
{
    std::vector<RunRecord> runs = RequireFinishedRuns(dir, targetAccuracy, std::cerr);
    const std::vector<RunPoint> points = WriteIndex(dir, runs, log);
    // A grid writes its own table, with its failed points; here the finished runs tell it all.
    WriteFileAtomically(dir + "/" + kGridSummaryFile,
                        GridTable(points, runs[0].config.at("target_accuracy")));
    return runs.size();
}

size_t
IndexRuns(const std::string& dir, const std::vector<std::string>& runDirs, std::ostream& log)
{
    std::vector<RunRecord> runs;
    for (const auto& runDir : runDirs)
    {
        std::vector<RunRecord> found = ReadFinishedRuns(runDir, -1.0, std::cerr);
        runs.insert(runs.end(), found.begin(), found.end());
    }
    if (!runs.empty())
    {
        WriteIndex(dir, runs, log);
    }
    return runs.size();
}

} // namespace ns3
