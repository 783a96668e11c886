// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * A run folder: who may write it, and what it already holds.
 */
#ifndef DLSIM_RUN_FOLDER_H
#define DLSIM_RUN_FOLDER_H

#include "run-catalogue.h"
#include "scenario-config.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * Keeps two runs out of one run folder: holds `.lock` (the owner's pid and the start time the
 * kernel gives that process) while it lives. A lock whose process is gone, is a zombie, or is
 * another process that got the same pid later (its start time differs) is stale and taken
 * over. The path of the lock is kept in a fixed buffer so that a fatal signal can remove it.
 */
class RunFolderLock
{
  public:
    /// Throws ScenarioError when a live run holds the folder, ResultFileError when the folder
    /// cannot be written (with the system's reason, e.g. "Permission denied").
    explicit RunFolderLock(const std::string& folder);
    ~RunFolderLock();
    RunFolderLock(const RunFolderLock&) = delete;
    RunFolderLock& operator=(const RunFolderLock&) = delete;

    /// Remove the lock of the run in progress, if any: safe in a signal handler.
    static void ReleaseFromSignalHandler();

  private:
    std::string m_path;
};

/**
 * Name what the run is doing now (a string literal: it must outlive the run), so that a fatal
 * signal can say at which step of setting up or running the simulation it came.
 */
void SetRunStep(const char* step);

/// What SetRunStep last named; safe in a signal handler.
const char* GetRunStep();

/// The start time of process `pid` in clock ticks since boot (0 when it does not exist or is a
/// zombie): with the pid, it names a process uniquely.
unsigned long long ProcessStartTime(long pid);

/**
 * \brief Create an output folder (and its parents) where `out` says.
 * \param folder the folder
 * \param what how messages name it ("run folder ", "" for a grid's)
 * \throws ScenarioError when `folder` is a file (bad input); ResultFileError when it cannot be
 * created (e.g. permission denied)
 */
void CreateOutputFolder(const std::string& folder, const std::string& what);

/**
 * \brief A run folder made for one run (CreateOutputFolder), taken back if the run leaves it
 * empty: a run refused while its network is built (an unreadable file a key names, a link it
 * does not have) leaves no empty folder behind, as a run refused before it leaves none.
 */
class MadeRunFolder
{
  public:
    /// Create `folder` and the parents it lacks, remembering which of them this made.
    MadeRunFolder(const std::string& folder, const std::string& what);
    /// Remove the folders this made, deepest first, each only if it is empty.
    ~MadeRunFolder();
    MadeRunFolder(const MadeRunFolder&) = delete;
    MadeRunFolder& operator=(const MadeRunFolder&) = delete;

  private:
    std::vector<std::string> m_made; ///< deepest first
};

/// Who is to write an output folder: one run, or a grid (its config.ini, index.csv, summary).
enum class FolderWriter
{
    Run,
    Grid,
};

/**
 * \brief The one place that decides whether `folder` may be written, by a run or a grid alike;
 * it writes nothing, so that it can be asked before anything is.
 *
 * Refused (ScenarioError): a name of the path over 255 bytes (NAME_MAX) or a path over
 * PATH_MAX; a file where the folder should be; a folder that is, or is inside, `replayFrom`; a
 * folder a live grid holds (GridFolderLock); without `overwrite`, a folder holding the complete
 * results of another configuration (a finished run's config.ini is never rewritten) and, for a
 * run, a grid's folder.
 * \param folder the folder
 * \param ini the configuration the writer would record (ScenarioConfig::WriteIni)
 * \param overwrite whether complete results of another configuration may be replaced
 * \param writer a run or a grid
 * \param replayFrom the run folder whose recording is replayed (empty: none)
 */
void CheckOutputFolder(const std::string& folder,
                       const std::string& ini,
                       bool overwrite,
                       FolderWriter writer,
                       const std::string& replayFrom = "");

/**
 * Keeps two grids out of one folder: an exclusive flock(2) on `.grid-lock` in it, held while
 * the object lives (the kernel drops it when the process ends, however it ends). A second
 * grid, or a run, on the folder is refused at once (CheckOutputFolder).
 */
class GridFolderLock
{
  public:
    /// Throws ScenarioError when another process holds the folder, ResultFileError when the
    /// lock file cannot be made.
    explicit GridFolderLock(const std::string& folder);
    ~GridFolderLock();
    GridFolderLock(const GridFolderLock&) = delete;
    GridFolderLock& operator=(const GridFolderLock&) = delete;

  private:
    int m_fd;
};

/**
 * Before a run writes into `folder`: when the folder holds complete results (HasCompleteResults)
 * of a configuration other than `ini`, refuse with a ScenarioError naming the keys that
 * differ, unless `overwrite`. Then remove the previous run's result files, so that nothing of
 * it can be mistaken for this run's (its config.ini is replaced by this run's).
 */
void PrepareRunFolder(const std::string& folder, const std::string& ini, bool overwrite);

/// Remove the result files of a previous run from `folder` (RunResultFiles), so that nothing
/// of it can be mistaken for what is written there now.
void ClearRunResults(const std::string& folder);

/// Whether two config.ini texts set the same keys to the same values (comments aside).
bool SameConfiguration(const std::string& a, const std::string& b);

/// The files a run writes (without plots/; capture/ is a folder): what PrepareRunFolder clears.
const std::vector<std::string>& RunResultFiles();

} // namespace ns3

#endif // DLSIM_RUN_FOLDER_H
