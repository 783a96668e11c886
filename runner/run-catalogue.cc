// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "run-catalogue.h"

#include "csv-rows.h"
#include "results-writer.h"
#include "scenario-config.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

namespace
{

/// A summary is a few hundred bytes: a longer line is not one of ours (nor read whole).
constexpr size_t kMaxSummaryLine = 1 << 16;

std::string
ReadText(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// The member at `path` ("bytes_per_node.values") of a JSON object, or nullptr.
const nlohmann::json*
Member(const nlohmann::json& object, const std::string& path)
{
    const nlohmann::json* at = &object;
    std::stringstream parts(path);
    for (std::string part; std::getline(parts, part, '.');)
    {
        if (!at->is_object() || !at->contains(part))
        {
            return nullptr;
        }
        at = &(*at)[part];
    }
    return at;
}

/**
 * `folder`/summary.json as a JSON object when it is a finished run's (see IncompleteRunReason);
 * otherwise nullopt, with `why` naming the file and what is wrong with it.
 */
std::optional<nlohmann::json>
ReadFinishedSummaryJson(const std::string& folder, std::string& why)
{
    const std::string path = folder + "/summary.json";
    std::error_code error;
    if (!fs::is_regular_file(path, error))
    {
        why = "no summary.json";
        return std::nullopt;
    }
    const std::string text = ReadText(path);
    if (text.empty())
    {
        why = "summary.json is empty";
        return std::nullopt;
    }
    nlohmann::json json;
    try
    {
        // Strict RFC 8259: no comments, nothing after the value; a number that overflows a
        // double is an error, so every number read is finite.
        json = nlohmann::json::parse(text);
    }
    catch (const nlohmann::json::exception& e)
    {
        why = std::string("summary.json is not JSON (") + e.what() + ")";
        return std::nullopt;
    }
    if (!json.is_object())
    {
        why = "summary.json is not a JSON object";
        return std::nullopt;
    }
    // Summaries written before dlsim recorded a status have none: they are judged by their
    // figures alone, so that earlier results are neither rerun nor replaced without --overwrite.
    if (const auto* status = Member(json, "status");
        status && (!status->is_string() || status->get<std::string>() != "finished"))
    {
        why = "summary.json does not say the run finished";
        return std::nullopt;
    }
    // The figures every finished run writes (WriteSummaryJson).
    for (const char* field : {"nodes",
                              "rounds",
                              "seed",
                              "simulated_time_s",
                              "wall_time_s",
                              "bytes_per_node.values",
                              "bytes_per_node.metadata",
                              "bytes_per_node.total"})
    {
        const auto* value = Member(json, field);
        if (!value || !value->is_number())
        {
            why = std::string("summary.json has no number for ") + field;
            return std::nullopt;
        }
    }
    // Accuracies: all three numbers from 0 to 1, or all three null (nothing evaluated).
    size_t nulls = 0;
    for (const char* field : {"final_accuracy.mean", "final_accuracy.min", "final_accuracy.max"})
    {
        const auto* value = Member(json, field);
        const bool isNull = value && value->is_null();
        const bool isAccuracy = value && value->is_number() && value->get<double>() >= 0.0
                                && value->get<double>() <= 1.0;
        if (!isNull && !isAccuracy)
        {
            why = std::string("summary.json has no accuracy (a number from 0 to 1, or null) "
                              "for ")
                  + field;
            return std::nullopt;
        }
        nulls += isNull;
    }
    if (nulls != 0 && nulls != 3)
    {
        why = "summary.json has some final accuracies null and others not";
        return std::nullopt;
    }
    return json;
}

/// The "resolved" object of a summary.json: key to value as text ({} when there is none).
std::map<std::string, std::string>
ResolvedValues(const nlohmann::json& summary)
{
    std::map<std::string, std::string> resolved;
    const auto* object = Member(summary, "resolved");
    if (!object || !object->is_object())
    {
        return resolved;
    }
    // Scalars only: a run writes nothing else there, and dump() of a hostile file's deeply
    // nested value would recurse as deep as it is nested.
    for (const auto& [key, value] : object->items())
    {
        if (!value.is_structured())
        {
            resolved[key] = value.is_string() ? value.get<std::string>() : value.dump();
        }
    }
    return resolved;
}

/// One finished run's record from its folder; throws naming the file that cannot be read.
RunRecord
ReadRun(const std::string& folder,
        const nlohmann::json& json,
        const std::map<std::string, std::string>& summary,
        double target)
{
    RunRecord run;
    run.dir = folder;
    const ScenarioConfig c = ScenarioConfig::Load(folder + "/config.ini", {});
    for (const auto& key : ScenarioKeys())
    {
        run.config[key.name] = c.GetString(key.name);
    }
    run.summary = summary;
    run.resolved = ResolvedValues(json);
    if (const auto* fidelity = Member(json, "network_fidelity"); fidelity && fidelity->is_string())
    {
        run.networkFidelity = fidelity->get<std::string>();
    }
    if (fs::exists(fs::path(folder) / "curve.csv"))
    {
        run.curve = ReadCurveCsv(folder + "/curve.csv");
        run.Retarget(target >= 0.0 ? target : c.GetDouble("target_accuracy", 0.0, 1.0));
    }
    return run;
}

} // namespace

std::vector<std::string>
SplitFields(const std::string& line)
{
    std::vector<std::string> fields;
    std::stringstream ss(line);
    for (std::string f; std::getline(ss, f, ',');)
    {
        fields.push_back(f);
    }
    if (!line.empty() && line.back() == ',')
    {
        fields.emplace_back();
    }
    return fields;
}

std::vector<std::string>
FindRunFolders(const std::string& dir)
{
    std::vector<std::string> folders;
    auto hasSummary = [](const fs::path& d)
    {
        return fs::exists(d / "summary.csv") || fs::exists(d / "summary.json");
    };
    if (hasSummary(dir))
    {
        folders.push_back(dir);
    }
    else if (fs::is_directory(dir))
    {
        // Symbolic links to run folders are followed (a folder of links gathers runs from
        // several grids); each directory is read once, by its canonical path, so a link that
        // points back up cannot make the walk loop.
        std::set<fs::path> seen;
        std::vector<fs::path> todo{fs::path(dir)};
        while (!todo.empty())
        {
            const fs::path at = todo.back();
            todo.pop_back();
            std::error_code error;
            const fs::path canonical = fs::canonical(at, error);
            if (error || !seen.insert(canonical).second)
            {
                continue;
            }
            for (const auto& entry : fs::directory_iterator(at, error))
            {
                const std::string name = entry.path().filename().string();
                std::error_code kind;
                // A hidden folder is a run's own working folder (network.model = auto's
                // flows-first run), never a run of the grid.
                if (entry.is_directory(kind) && name.rfind('.', 0) != 0)
                {
                    todo.push_back(entry.path());
                }
                else if (entry.is_regular_file(kind)
                         && (name == "summary.csv" || name == "summary.json"))
                {
                    folders.push_back(entry.path().parent_path().string());
                }
            }
        }
    }
    std::sort(folders.begin(), folders.end());
    folders.erase(std::unique(folders.begin(), folders.end()), folders.end());
    return folders;
}

std::optional<std::map<std::string, std::string>>
ReadSummaryCsv(const std::string& path)
{
    // Runs written before time_stays_above_target_s existed lack that column: they are still
    // finished runs (not rerun by a grid), and the catalogue computes it from their curve.csv.
    const std::string added = "time_stays_above_target_s,";
    std::string before = SummaryCsvHeader();
    before.erase(before.find(added), added.size());
    std::ifstream in(path);
    std::string header;
    std::string row;
    if (!in || ReadBoundedLine(in, header, kMaxSummaryLine) != LineRead::Line
        || (header != SummaryCsvHeader() && header != before)
        || ReadBoundedLine(in, row, kMaxSummaryLine) != LineRead::Line)
    {
        return std::nullopt;
    }
    const std::vector<std::string> columns = SplitFields(header);
    const std::vector<std::string> fields = SplitFields(row);
    if (fields.size() != columns.size())
    {
        return std::nullopt;
    }
    // Every figure a finite number (the accuracies may be empty: nothing evaluated; the
    // to-target columns too: not reached).
    static const std::set<std::string> mayBeEmpty = {"final_accuracy_mean",
                                                     "final_accuracy_min",
                                                     "final_accuracy_max",
                                                     "time_to_target_s",
                                                     "bytes_per_node_to_target",
                                                     "round_to_target",
                                                     "time_stays_above_target_s"};
    std::map<std::string, std::string> byColumn = {{"time_stays_above_target_s", ""}};
    for (size_t i = 0; i < fields.size(); ++i)
    {
        byColumn[columns[i]] = fields[i];
        if (fields[i].empty() && mayBeEmpty.count(columns[i]))
        {
            continue;
        }
        char* end = nullptr;
        const double value = std::strtod(fields[i].c_str(), &end);
        if (fields[i].empty() || *end != '\0' || !std::isfinite(value))
        {
            return std::nullopt;
        }
    }
    return byColumn;
}

std::string
IncompleteRunReason(const std::string& folder)
{
    std::string why;
    if (!ReadFinishedSummaryJson(folder, why))
    {
        return why;
    }
    if (!ReadSummaryCsv(folder + "/summary.csv"))
    {
        return "summary.csv is missing, cut short or not numbers";
    }
    return "";
}

bool
HasCompleteResults(const std::string& folder)
{
    return IncompleteRunReason(folder).empty();
}

std::string
ReadConfigIni(const std::string& folder)
{
    return ReadText(folder + "/config.ini");
}

void
RunRecord::Retarget(double target)
{
    std::ostringstream t;
    t << target;
    config["target_accuracy"] = t.str();
    const auto duration = config.find("rounds.duration");
    auto crossing = FindTargetCrossing(
        curve.value(), target, BudgetSeconds(duration == config.end() ? "" : duration->second));
    auto text = [](double v)
    {
        std::ostringstream o;
        o << std::setprecision(10) << v;
        return o.str();
    };
    summary["time_to_target_s"] = crossing ? text(crossing->time) : "";
    summary["bytes_per_node_to_target"] = crossing ? text(crossing->bytesPerNode) : "";
    summary["round_to_target"] = crossing ? text(crossing->round) : "";
    targetBracket = crossing ? std::optional<std::pair<double, double>>(
                        {crossing->evaluatedBelow, crossing->evaluatedAbove})
                             : std::nullopt;
    auto last = FindLastCrossing(curve.value(), target);
    summary["time_stays_above_target_s"] = last ? text(last->time) : "";
}

std::string
RunRecord::NetworkModelUsed() const
{
    const auto model = config.find("network.model");
    const std::string given = model == config.end() ? std::string("-") : model->second;
    const auto chosen = resolved.find("network.model");
    return given == "auto" && chosen != resolved.end() ? chosen->second : given;
}

std::string
RunRecord::NetworkModelText() const
{
    const auto model = config.find("network.model");
    const bool automatic = model != config.end() && model->second == "auto";
    return NetworkModelUsed() + (automatic && resolved.count("network.model") ? " (auto)" : "")
           + (networkFidelity.empty() ? "" : " (approximate)");
}

std::vector<RunRecord>
ReadFinishedRuns(const std::string& dir, double target, std::ostream& warnings)
{
    std::vector<RunRecord> runs;
    for (const auto& folder : FindRunFolders(dir))
    {
        if (!fs::exists(fs::path(folder) / "config.ini"))
        {
            continue;
        }
        std::string why;
        const auto json = ReadFinishedSummaryJson(folder, why);
        const auto summary = json ? ReadSummaryCsv(folder + "/summary.csv") : std::nullopt;
        if (json && !summary)
        {
            why = "summary.csv is missing, cut short or not numbers";
        }
        if (!summary)
        {
            warnings << "dlsim: warning: " << folder << " is not a finished run (" << why
                     << "): left out (run it again)" << std::endl;
            continue;
        }
        // A new target needs every run's curve: that request cannot be met without this one.
        if (target >= 0.0 && !fs::exists(fs::path(folder) / "curve.csv"))
        {
            throw ScenarioError("run " + folder + " has no curve.csv to recompute the target from");
        }
        // One damaged run (its config.ini or curve.csv unreadable) is left out by name, like an
        // unfinished one, rather than end the collection of all the others.
        try
        {
            runs.push_back(ReadRun(folder, *json, *summary, target));
        }
        catch (const std::exception& e)
        {
            warnings << "dlsim: warning: " << folder << " cannot be read (" << e.what()
                     << "): left out" << std::endl;
        }
    }
    return runs;
}

std::vector<RunRecord>
RequireFinishedRuns(const std::string& dir, double target, std::ostream& warnings)
{
    std::vector<RunRecord> runs = ReadFinishedRuns(dir, target, warnings);
    if (runs.empty())
    {
        throw ScenarioError("no finished runs (folders with config.ini, summary.json and "
                            "summary.csv of a run that finished) under "
                            + dir);
    }
    return runs;
}

} // namespace ns3
