// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * A run folder written from an own program, as `./dlsim run` writes one.
 */
#ifndef DLSIM_RUN_FOLDER_WRITER_H
#define DLSIM_RUN_FOLDER_WRITER_H

#include "results-writer.h"
#include "run-folder.h"
#include "scenario-config.h"

#include <memory>
#include <string>

namespace ns3
{

/**
 * What an own program needs besides a ResultsWriter to leave a run folder that `./dlsim plot`
 * and `./dlsim collect` read like any other: the folder is taken (a lock; a folder holding the
 * complete results of another configuration is refused unless `overwrite`), `config.ini`
 * describes the run with scenario keys (what legends, sweeps and index.csv show), and Finish
 * writes summary.csv and then summary.json, whose presence marks the run complete.
 *
 *   ScenarioConfig description = ScenarioConfig::Load("", {"--nodes=8", "--algorithm=jwins"});
 *   RunFolderWriter folder("results/my-study", description);
 *   ResultsWriter writer(folder.GetFolder(), 8, 0.8, std::cout);
 *   writer.Attach(apps);
 *   Simulator::Run();
 *   folder.Finish(writer.Finish(seed));
 *   Simulator::Destroy();
 *   PlotRuns(folder.GetFolder(), std::cout);
 */
class RunFolderWriter
{
  public:
    RunFolderWriter(const std::string& folder,
                    const ScenarioConfig& description,
                    bool overwrite = false);

    const std::string& GetFolder() const;

    /// Write summary.csv and summary.json (dlsim, ns-3 and torch versions filled in if empty).
    void Finish(RunSummary summary);

  private:
    std::string m_folder;
    std::unique_ptr<RunFolderLock> m_lock;
};

/// summary.csv, then summary.json: the last files of every run folder.
void WriteRunSummary(const RunSummary& summary, const std::string& folder);

} // namespace ns3

#endif // DLSIM_RUN_FOLDER_WRITER_H
