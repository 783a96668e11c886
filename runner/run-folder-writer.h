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
#include "wire-byte-counter.h"

#include <iosfwd>
#include <memory>
#include <string>

namespace ns3
{

/**
 * \brief What an own program needs besides a ResultsWriter to leave a run folder that
 * `./dlsim plot` and `./dlsim collect` read like any other, and that tells the truth as
 * `dlsim-run`'s do.
 *
 * The folder is taken (a lock; a folder holding the complete results of another configuration
 * is refused unless `overwrite`), `config.ini` describes the run with scenario keys (what
 * legends, sweeps and index.csv show; a network the program built itself is `network = own`
 * with `own.description` in the program's words), and Finish writes summary.csv and then
 * summary.json, whose presence marks the run complete, only if every learner finished:
 *
 *   ScenarioConfig description = ScenarioConfig::Load("", {"--nodes=8", "--algorithm=jwins",
 *       "--network=own", "--own.description=802.11ac, 8 stations around one AP"});
 *   RunFolderWriter folder("results/my-study", description);
 *   folder.SetCommandLine(argc, argv);
 *   folder.CountWireBytes(hosts);
 *   ResultsWriter writer(folder.GetFolder(), 8, 0.8, std::cout);
 *   writer.Attach(apps, learners.GetEvaluationClock());
 *   Simulator::Run();
 *   int status = folder.Finish(writer, seed, std::cerr);
 *   Simulator::Destroy();
 *   return status;
 */
class RunFolderWriter
{
  public:
    /**
     * \brief Take the folder and write its config.ini.
     * \param folder the run folder (created if missing)
     * \param description the run's scenario keys
     * \param overwrite whether complete results of another configuration may be replaced
     */
    RunFolderWriter(const std::string& folder,
                    const ScenarioConfig& description,
                    bool overwrite = false);

    /// \return the run folder
    const std::string& GetFolder() const;

    /**
     * \brief Record the program's command line (summary.json's `command_line`).
     * \param argc main's argc
     * \param argv main's argv
     */
    void SetCommandLine(int argc, char** argv);

    /**
     * \brief Count the IP bytes these hosts send (summary.json's `wire_bytes_per_node`), on
     * whatever network the program built. Call after their internet stack is installed and
     * before Simulator::Run.
     * \param hosts the learners' nodes, one per learner
     */
    void CountWireBytes(const NodeContainer& hosts);

    /**
     * \brief End the run after Simulator::Run (before Simulator::Destroy). When every learner
     * finished and nothing failed: the results files are completed, then summary.csv and
     * summary.json (dlsim, ns-3 and torch versions, the command line, wire bytes) are written.
     * Otherwise nothing marks the run complete: the results stay as partial files, and why the
     * run stopped is written to `log`.
     * \param writer the ResultsWriter attached to the learners
     * \param seed the seed the program used (in the summary)
     * \param log where the reason of a stopped run goes
     * \return the program's exit status: 0 for a complete run, 1 for a stopped one
     */
    int Finish(ResultsWriter& writer, uint64_t seed, std::ostream& log);

  private:
    std::string m_folder;                    ///< the run folder
    std::unique_ptr<RunFolderLock> m_lock;   ///< held until the writer goes
    std::string m_commandLine;               ///< as the program was started
    std::unique_ptr<WireByteCounter> m_wire; ///< set by CountWireBytes
    uint32_t m_wireHosts = 0;                ///< hosts m_wire counts
};

/// summary.csv, then summary.json: the last files of every run folder.
void WriteRunSummary(const RunSummary& summary, const std::string& folder);

} // namespace ns3

#endif // DLSIM_RUN_FOLDER_WRITER_H
