// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The run catalogue: the one reader of run folders. Which folders under a path hold runs,
 * whether a folder holds a finished run, and a finished run's config.ini, summary.csv,
 * summary.json and curve.csv as one typed record, each file read and checked once. Collect,
 * plot, the grid's resume and its table, and a run into a used folder all read through it.
 */
#ifndef DLSIM_RUN_CATALOGUE_H
#define DLSIM_RUN_CATALOGUE_H

#include "time-to-target.h"

#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/// One finished run, as its folder holds it.
struct RunRecord
{
    std::string dir;
    /// Every scenario key's value as configured (config.ini, defaults for keys it lacks).
    std::map<std::string, std::string> config;
    /// summary.csv's row by column (SummaryCsvHeader); an empty field: no value.
    std::map<std::string, std::string> summary;
    /// What the `auto` keys resolved to in this run (summary.json), e.g. CHOCO's tuned gamma.
    std::map<std::string, std::string> resolved;
    /// Where its network model's times are only approximate (summary.json's network_fidelity;
    /// "" where they are not, or for runs of earlier versions).
    std::string networkFidelity;
    /// network.model, with " (approximate)" where networkFidelity says so: which model made
    /// the run's times, as every table and figure says.
    std::string NetworkModelText() const;
    /// The network model that made the run's numbers: network.model, or with auto the one the
    /// run chose (summary.json's resolved network.model).
    std::string NetworkModelUsed() const;
    /// curve.csv's evaluations; nullopt when the run has no curve.csv.
    std::optional<std::vector<CurvePoint>> curve;
    /// The evaluations around the time to target (TargetCrossing::evaluatedBelow and
    /// evaluatedAbove), set by Retarget; nullopt when not reached or without a curve.
    std::optional<std::pair<double, double>> targetBracket;

    /**
     * Set target_accuracy and the to-target columns for `target` from the curve, the way the
     * run itself computes them (FindTargetCrossing), so that index.csv, the figures and
     * summary.csv agree, and runs of earlier versions are brought in line.
     */
    void Retarget(double target);
};

/**
 * The folders that hold a run's summary (summary.csv or summary.json): `dir` itself when it
 * holds one, else every folder below it; sorted, each once. Finished or not: the caller names
 * those that are not (IncompleteRunReason) rather than passing them over in silence.
 */
std::vector<std::string> FindRunFolders(const std::string& dir);

/// The fields of one line of a file dlsim wrote (no quoting): "a,,b," is "a", "", "b", "".
std::vector<std::string> SplitFields(const std::string& line);

/**
 * The row of a summary.csv by column, if the file is complete: the expected header
 * (SummaryCsvHeader) and one row of finite numbers (the accuracy and to-target columns may be
 * empty: nothing evaluated, target not reached). The header of earlier versions, without
 * time_stays_above_target_s, is read too, with that column empty. Anything else (missing,
 * empty, truncated, another header) is nullopt: the run did not finish.
 */
std::optional<std::map<std::string, std::string>> ReadSummaryCsv(const std::string& path);

/**
 * Why `folder` does not hold a finished run ("no summary.json", "summary.json is not JSON ...",
 * "summary.json does not say the run finished", "summary.csv is missing or cut short", ...),
 * or "" when it does. A finished run is what a run writes last, whole: a summary.json that is
 * one JSON object with "status": "finished" and a finite number for each figure every run has
 * (the final accuracies may be null: nothing evaluated), and a summary.csv that parses
 * (ReadSummaryCsv). The one notion of a complete run: grid resume skips exactly these,
 * a run refuses to replace exactly these without --overwrite, collect indexes exactly these.
 */
std::string IncompleteRunReason(const std::string& folder);

/// Whether `folder` holds a finished run: IncompleteRunReason(folder) is empty.
bool HasCompleteResults(const std::string& folder);

/// The text of `folder`/config.ini ("" when there is none).
std::string ReadConfigIni(const std::string& folder);

/**
 * The finished runs under `dir` (FindRunFolders), read whole: folders without config.ini are
 * not runs; a folder with a summary that is not a finished run's is named on `warnings` and
 * left out. Every run's to-target columns are recomputed from its curve.csv (RunRecord::
 * Retarget) for `target` when it is >= 0, else for the run's own target_accuracy. Throws
 * ScenarioError naming the folder and file when a run has no curve.csv for a new target, or a
 * curve.csv that does not parse.
 */
std::vector<RunRecord> ReadFinishedRuns(const std::string& dir,
                                        double target,
                                        std::ostream& warnings);

/// ReadFinishedRuns, throwing ScenarioError naming `dir` when it holds no finished run.
std::vector<RunRecord> RequireFinishedRuns(const std::string& dir,
                                           double target,
                                           std::ostream& warnings);

} // namespace ns3

#endif // DLSIM_RUN_CATALOGUE_H
