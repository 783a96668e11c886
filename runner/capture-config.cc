// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "capture-config.h"

#include "ns3/flow-monitor-helper.h"
#include "ns3/ipv4-flow-classifier.h"
#include "ns3/ipv4.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue.h"
#include "ns3/trace-helper.h"
#include "result-files.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iomanip>
#include <map>
#include <ostream>
#include <set>
#include <sstream>

namespace ns3
{

namespace
{

/// libpcap's largest snapshot length: what "whole packets" writes into a pcap header.
constexpr uint32_t kWholePackets = 262144;

/// What the failed stream of `path` says: the system's reason when it left one.
[[noreturn]] void
StreamFailed(const std::string& path)
{
    const int error = errno;
    throw ResultFileError("cannot write " + path + ": "
                          + (error != 0 ? std::strerror(error) : "the write failed"));
}

/// Whether `folder` holds a file ending in `extension`, and none ending in extension.partial.
bool
HasWholeFiles(const std::string& folder, const std::string& extension)
{
    std::error_code error;
    bool whole = false;
    for (const auto& entry : std::filesystem::directory_iterator(folder, error))
    {
        const std::string name = entry.path().filename().string();
        auto endsWith = [&name](const std::string& end)
        {
            return name.size() > end.size()
                   && name.compare(name.size() - end.size(), end.size(), end) == 0;
        };
        if (endsWith(extension + ".partial"))
        {
            return false;
        }
        whole = whole || endsWith(extension);
    }
    return whole;
}

} // namespace

CaptureConfig::CaptureConfig(const ScenarioConfig& c, const UnderlayConfig& underlay)
    : m_pcapLinks(underlay.ReadSelection("capture.pcap")),
      m_asciiLinks(underlay.ReadSelection("capture.ascii")),
      m_snapLength(static_cast<uint32_t>(c.GetUint("capture.snaplen", 0, kWholePackets))),
      m_flowMonitor(c.GetBool("capture.flowmon"))
{
    if (m_snapLength == 0)
    {
        m_snapLength = kWholePackets;
    }
}

CaptureConfig::~CaptureConfig() = default;

const std::string&
CaptureConfig::Folder()
{
    static const std::string name = "capture";
    return name;
}

const std::string&
CaptureConfig::FlowMonitorXml()
{
    static const std::string name = "flowmon.xml";
    return name;
}

const std::string&
CaptureConfig::FlowsCsvName()
{
    static const std::string name = "flows.csv";
    return name;
}

void
CaptureConfig::Check(const Underlay& underlay) const
{
    if (!m_pcapLinks.Empty())
    {
        m_pcapLinks.Check(underlay);
    }
    if (!m_asciiLinks.Empty())
    {
        m_asciiLinks.Check(underlay);
    }
}

void
CaptureConfig::Install(const Underlay& underlay, const std::string& folder, std::ostream& log)
{
    m_folder = folder;
    const std::string dir = folder + "/" + Folder();
    std::set<Ptr<Node>> named;
    for (const UnderlayLink& link : underlay.links)
    {
        if (named.insert(link.device->GetNode()).second)
        {
            m_nodeNames.emplace_back(link.device->GetNode(), link.from);
        }
    }
    uint32_t pcaps = 0;
    uint32_t asciis = 0;
    std::set<std::string> stems;
    for (size_t k = 0; k < underlay.links.size(); ++k)
    {
        const UnderlayLink& link = underlay.links[k];
        const bool pcap = m_pcapLinks.Selects(link);
        const bool ascii = m_asciiLinks.Selects(link);
        if (!pcap && !ascii)
        {
            continue;
        }
        Ptr<PointToPointNetDevice> device = DynamicCast<PointToPointNetDevice>(link.device);
        NS_ABORT_MSG_UNLESS(device, "every underlay link is a point-to-point link");
        std::error_code made;
        std::filesystem::create_directories(dir, made);
        if (made)
        {
            throw ResultFileError("cannot create " + dir + ": " + made.message());
        }
        // Names made safe could meet ("a b" and "a-b"): the link's row in links.csv tells
        // such files apart.
        std::string stem = SafeFileName(link.from) + "_" + SafeFileName(link.to);
        if (!stems.insert(stem).second)
        {
            stem += "-" + std::to_string(k + 1);
            stems.insert(stem);
        }
        if (pcap)
        {
            Capture capture;
            capture.path = dir + "/" + stem + ".pcap";
            const std::string partial = capture.path + ".partial";
            capture.pcap = CreateObject<PcapFileWrapper>();
            errno = 0;
            capture.pcap->Open(partial, std::ios::out | std::ios::binary);
            if (capture.pcap->Fail())
            {
                StreamFailed(partial);
            }
            capture.pcap->Init(PcapHelper::DLT_PPP, m_snapLength);
            if (capture.pcap->Fail())
            {
                StreamFailed(partial);
            }
            // What PointToPointHelper::EnablePcap connects: every frame the device sends or
            // receives, with its PPP header.
            PcapHelper().HookDefaultSink<PointToPointNetDevice>(
                device, "PromiscSniffer", capture.pcap);
            m_captures.push_back(std::move(capture));
            ++pcaps;
        }
        if (ascii)
        {
            Capture capture;
            capture.path = dir + "/" + stem + ".tr";
            const std::string partial = capture.path + ".partial";
            errno = 0;
            capture.ascii = std::make_unique<std::ofstream>(partial, std::ios::out);
            if (!*capture.ascii)
            {
                StreamFailed(partial);
            }
            // The stream stays this object's (the wrapper does not own it), so that Commit can
            // close it and see whether every line was written, and it lives as long as the
            // devices that write into it.
            Ptr<OutputStreamWrapper> stream = Create<OutputStreamWrapper>(capture.ascii.get());
            // What PointToPointHelper::EnableAscii connects.
            AsciiTraceHelper helper;
            Ptr<Queue<Packet>> queue = device->GetQueue();
            helper.HookDefaultEnqueueSinkWithoutContext<Queue<Packet>>(queue, "Enqueue", stream);
            helper.HookDefaultDequeueSinkWithoutContext<Queue<Packet>>(queue, "Dequeue", stream);
            helper.HookDefaultDropSinkWithoutContext<Queue<Packet>>(queue, "Drop", stream);
            helper.HookDefaultReceiveSinkWithoutContext<PointToPointNetDevice>(
                device, "MacRx", stream);
            helper.HookDefaultDropSinkWithoutContext<PointToPointNetDevice>(
                device, "PhyRxDrop", stream);
            m_captures.push_back(std::move(capture));
            ++asciis;
        }
    }
    if (asciis > 0)
    {
        // ASCII lines print each packet's headers, which ns-3 records only when asked before
        // the first packet is made. Only bookkeeping: the packets and their timing stay as
        // they are.
        Packet::EnablePrinting();
    }
    if (m_flowMonitor)
    {
        m_flowHelper = std::make_unique<FlowMonitorHelper>();
        m_monitor = m_flowHelper->InstallAll();
    }
    if (pcaps + asciis > 0 || m_flowMonitor)
    {
        log << "capture: " << pcaps << " pcap and " << asciis << " ASCII traces of link directions"
            << (pcaps + asciis > 0 ? " in " + dir : std::string())
            << (m_flowMonitor ? ", FlowMonitor on every node" : "") << std::endl;
    }
}

void
CaptureConfig::Close(bool complete)
{
    // The files stay this object's: packets left in the devices' queues are dropped, and
    // traced, while Simulator::Destroy disposes of the devices, and go nowhere once closed.
    if (m_closed)
    {
        return;
    }
    m_closed = true;
    for (Capture& capture : m_captures)
    {
        const std::string partial = capture.path + ".partial";
        errno = 0;
        if (capture.pcap)
        {
            capture.pcap->Close();
            if (capture.pcap->Fail())
            {
                StreamFailed(partial);
            }
        }
        else
        {
            capture.ascii->close();
            if (capture.ascii->fail())
            {
                StreamFailed(partial);
            }
        }
        if (complete)
        {
            CommitPartialFile(capture.path);
        }
    }
}

void
CaptureConfig::Commit()
{
    Close(true);
    WriteFlowMonitor("");
}

void
CaptureConfig::KeepPartial()
{
    Close(false);
    WriteFlowMonitor(".partial");
}

void
CaptureConfig::WriteFlowMonitor(const std::string& suffix) const
{
    if (!m_monitor)
    {
        return;
    }
    // Packets still in flight count as lost only once FlowMonitor's MaxPerHopDelay has passed.
    m_monitor->CheckForLostPackets();
    // As FlowMonitor::SerializeToXmlFile writes it, with times to the nanosecond (up to 11 days)
    // rather than to the stream's default 6 digits.
    std::ostringstream xml;
    xml << "<?xml version=\"1.0\" ?>\n" << std::setprecision(15);
    m_monitor->SerializeToXmlStream(xml, 0, true, true);
    WriteFileAtomically(m_folder + "/" + FlowMonitorXml() + suffix, xml.str());
    WriteFileAtomically(m_folder + "/" + FlowsCsvName() + suffix, FlowsCsv());
}

std::string
CaptureConfig::FlowsCsv() const
{
    // Each address by the name its node has in links.csv (a learner's index, a router's name).
    std::map<Ipv4Address, std::string> names;
    for (const auto& [node, name] : m_nodeNames)
    {
        Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
        for (uint32_t i = 0; ipv4 && i < ipv4->GetNInterfaces(); ++i)
        {
            for (uint32_t j = 0; j < ipv4->GetNAddresses(i); ++j)
            {
                names[ipv4->GetAddress(i, j).GetLocal()] = name;
            }
        }
    }
    auto nameOf = [&names](Ipv4Address address)
    {
        auto it = names.find(address);
        return it == names.end() ? std::string() : it->second;
    };
    Ptr<Ipv4FlowClassifier> classifier
        = DynamicCast<Ipv4FlowClassifier>(m_flowHelper->GetClassifier());
    std::ostringstream out;
    out << "flow,protocol,from,from_address,from_port,to,to_address,to_port,tx_packets,tx_bytes,"
           "rx_packets,rx_bytes,lost_packets,first_tx_s,last_rx_s,throughput_bps,delay_mean_s,"
           "jitter_mean_s\n"
        << std::setprecision(12);
    for (const auto& [id, stats] : m_monitor->GetFlowStats())
    {
        const Ipv4FlowClassifier::FiveTuple flow = classifier->FindFlow(id);
        const std::string protocol = flow.protocol == 6    ? "tcp"
                                     : flow.protocol == 17 ? "udp"
                                                           : std::to_string(flow.protocol);
        out << id << "," << protocol << "," << nameOf(flow.sourceAddress) << ","
            << flow.sourceAddress << "," << flow.sourcePort << ","
            << nameOf(flow.destinationAddress) << "," << flow.destinationAddress << ","
            << flow.destinationPort << "," << stats.txPackets << "," << stats.txBytes << ","
            << stats.rxPackets << "," << stats.rxBytes << "," << stats.lostPackets << ","
            << stats.timeFirstTxPacket.GetSeconds() << ",";
        // Fields that need received packets are empty without them, never a made-up 0.
        if (stats.rxPackets > 0)
        {
            out << stats.timeLastRxPacket.GetSeconds();
        }
        out << ",";
        const double active = (stats.timeLastRxPacket - stats.timeFirstTxPacket).GetSeconds();
        if (stats.rxPackets > 0 && active > 0)
        {
            out << static_cast<double>(stats.rxBytes) * 8.0 / active;
        }
        out << ",";
        if (stats.rxPackets > 0)
        {
            out << stats.delaySum.GetSeconds() / stats.rxPackets;
        }
        out << ",";
        if (stats.rxPackets > 1)
        {
            out << stats.jitterSum.GetSeconds() / (stats.rxPackets - 1);
        }
        out << "\n";
    }
    return out.str();
}

std::string
CaptureConfig::MissingFiles(const ScenarioConfig& c, const std::string& folder)
{
    if (c.GetBool("capture.flowmon"))
    {
        for (const std::string& file : {FlowMonitorXml(), FlowsCsvName()})
        {
            std::error_code error;
            if (!std::filesystem::is_regular_file(folder + "/" + file, error))
            {
                return "no " + file + " (capture.flowmon)";
            }
        }
    }
    const std::string captures = folder + "/" + Folder();
    if (!c.GetList("capture.pcap").empty() && !HasWholeFiles(captures, ".pcap"))
    {
        return "no complete pcap files in " + captures + " (capture.pcap)";
    }
    if (!c.GetList("capture.ascii").empty() && !HasWholeFiles(captures, ".tr"))
    {
        return "no complete ASCII traces in " + captures + " (capture.ascii)";
    }
    return "";
}

} // namespace ns3
