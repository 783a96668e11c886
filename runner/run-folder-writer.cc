// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "run-folder-writer.h"

#include "provenance.h"
#include "result-files.h"
#include "torch-version.h"

#include <filesystem>
#include <ostream>
#include <sstream>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

RunFolderWriter::RunFolderWriter(const std::string& folder,
                                 const ScenarioConfig& description,
                                 bool overwrite)
    : m_folder(folder)
{
    std::error_code made;
    std::filesystem::create_directories(folder, made);
    if (made)
    {
        throw ResultFileError("cannot create run folder " + folder + ": " + made.message());
    }
    m_lock = std::make_unique<RunFolderLock>(folder);
    std::ostringstream ini;
    description.WriteIni(ini);
    PrepareRunFolder(folder, ini.str(), overwrite);
    WriteFileAtomically(folder + "/config.ini", "# " + VersionLine() + "\n" + ini.str());
}

const std::string&
RunFolderWriter::GetFolder() const
{
    return m_folder;
}

void
RunFolderWriter::SetCommandLine(int argc, char** argv)
{
    m_commandLine = QuoteCommandLine(argc, argv);
}

void
RunFolderWriter::CountWireBytes(const NodeContainer& hosts)
{
    m_wire = std::make_unique<WireByteCounter>();
    m_wire->Install(hosts);
    m_wireHosts = hosts.GetN();
}

int
RunFolderWriter::Finish(ResultsWriter& writer, uint64_t seed, std::ostream& log)
{
    writer.DeliverEvaluations();
    if (const std::string stopped = writer.StopReport(); !stopped.empty())
    {
        log << "dlsim: error: " << stopped << std::endl;
        return 1;
    }
    RunSummary summary = writer.Finish(seed);
    summary.dlsimVersion = DlsimVersion();
    summary.ns3Version = Ns3Version();
    summary.torchVersion = TorchVersion();
    summary.commandLine = m_commandLine;
    if (m_wire && m_wireHosts > 0)
    {
        summary.wireBytesPerNode = m_wire->GetBytes() / m_wireHosts;
    }
    WriteRunSummary(summary, m_folder);
    return 0;
}

void
WriteRunSummary(const RunSummary& summary, const std::string& folder)
{
    WriteFileAtomically(folder + "/summary.csv",
                        SummaryCsvHeader() + "\n" + SummaryCsvRow(summary) + "\n");
    // Written last: its presence marks the run as complete.
    WriteSummaryJson(summary, folder + "/summary.json");
}

} // namespace ns3
