// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The scenario's `capture` keys: pcap and ASCII traces of chosen link directions, and ns-3's
 * FlowMonitor, written into the run folder. Capturing only watches the packets: a run computes
 * the same results with and without it.
 */
#ifndef DLSIM_CAPTURE_CONFIG_H
#define DLSIM_CAPTURE_CONFIG_H

#include "ns3/flow-monitor.h"
#include "ns3/output-stream-wrapper.h"
#include "ns3/pcap-file-wrapper.h"
#include "scenario-config.h"
#include "underlay-config.h"

#include <fstream>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class FlowMonitorHelper;

/**
 * Reads and checks the capture keys, then captures a run: `capture/FROM_TO.pcap` and
 * `capture/FROM_TO.tr` per chosen link direction (the device at FROM, both ways), and
 * `flowmon.xml` and `flows.csv` from a FlowMonitor on every node. Like every file a run writes
 * while it goes on, the captures are named `*.partial` until the run has finished; FlowMonitor's
 * files appear whole, or with `.partial` when the run stopped early.
 *
 * The object must outlive Simulator::Destroy once Install has run: the devices' trace sinks
 * write into its files until then.
 */
class CaptureConfig
{
  public:
    /// Read every capture key; throws ScenarioError or ConfigValueError naming the key.
    CaptureConfig(const ScenarioConfig& c, const UnderlayConfig& underlay);
    ~CaptureConfig();
    CaptureConfig(const CaptureConfig&) = delete;
    CaptureConfig& operator=(const CaptureConfig&) = delete;

    /// Throws ConfigValueError when a FROM:TO item names no link direction of `underlay`.
    void Check(const Underlay& underlay) const;

    /**
     * Open the captures in `folder` and install FlowMonitor, as the keys say (nothing when they
     * ask for nothing). Call once the network is built, before Simulator::Run. Progress goes to
     * `log`. Throws ResultFileError when a file cannot be created.
     */
    void Install(const Underlay& underlay, const std::string& folder, std::ostream& log);

    /**
     * The run finished: close the captures and give them their names, write flowmon.xml and
     * flows.csv. Call before Simulator::Destroy and before summary.json. Throws ResultFileError.
     */
    void Commit();

    /**
     * The run stopped early: close the captures under their `.partial` names and write
     * FlowMonitor's files as flowmon.xml.partial and flows.csv.partial. Call before
     * Simulator::Destroy. Throws ResultFileError.
     */
    void KeepPartial();

    /**
     * Why `folder` lacks a capture that `c` asks for (e.g. "no flowmon.xml"), or "" when it has
     * them all: a grid runs such a point again rather than skip it as complete.
     */
    static std::string MissingFiles(const ScenarioConfig& c, const std::string& folder);

    /// The folder of pcap and ASCII captures inside a run folder: "capture".
    static const std::string& Folder();
    /// FlowMonitor's own XML in a run folder: "flowmon.xml".
    static const std::string& FlowMonitorXml();
    /// The per-flow table in a run folder: "flows.csv".
    static const std::string& FlowsCsvName();

  private:
    /// A pcap or ASCII file being written under PATH.partial.
    struct Capture
    {
        std::string path;
        Ptr<PcapFileWrapper> pcap;
        std::unique_ptr<std::ofstream> ascii;
    };

    void Close(bool complete);
    void WriteFlowMonitor(const std::string& suffix) const;
    std::string FlowsCsv() const;

    LinkSelection m_pcapLinks;
    LinkSelection m_asciiLinks;
    uint32_t m_snapLength = 0;
    bool m_flowMonitor = false;
    bool m_closed = false;
    std::string m_folder;
    std::vector<Capture> m_captures;
    std::unique_ptr<FlowMonitorHelper> m_flowHelper;
    Ptr<FlowMonitor> m_monitor;
    std::vector<std::pair<Ptr<Node>, std::string>> m_nodeNames; ///< every underlay node's name
};

} // namespace ns3

#endif // DLSIM_CAPTURE_CONFIG_H
