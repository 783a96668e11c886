// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "underlay-config.h"

#include "cross-traffic-helper.h"
#include "ns3/callback.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/traffic-control-layer.h"
#include "random-variable-spec.h"
#include "rate-trace-helper.h"
#include "rate-trace.h"
#include "result-files.h"
#include "results-writer.h"
#include "underlay-registry.h"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

namespace
{

void
AddBytes(uint64_t* counter, Ptr<const Packet> packet)
{
    *counter += packet->GetSize();
}

/// A drop trace's sink (a queue's packets, a queue disc's items, a device's packets).
template<typename Item>
void
CountDrop(int64_t* counter, Ptr<const Item>)
{
    ++*counter;
}

LinkBehaviour
ReadLinkBehaviour(const ScenarioConfig& c, uint32_t mtu)
{
    LinkBehaviour b;
    b.queue = c.GetString("link.queue");
    b.queueDisc = c.GetChoice("link.queue_disc", KnownQueueDiscs());
    b.loss = c.GetDouble("link.loss", 0.0, 0.999999);
    b.mtu = mtu;
    CheckLinkBehaviour(b);
    return b;
}

std::optional<RateTrace>
ReadTrace(const ScenarioConfig& c)
{
    const std::string& file = c.GetString("trace.file");
    if (file.empty())
    {
        return std::nullopt;
    }
    return RateTrace::Read(file,
                           c.GetChoice("trace.format", {"auto", "csv", "mahimahi"}),
                           ParseSeconds("trace.window", c.GetString("trace.window")));
}

/// Cross traffic, or nothing when cross.traffic = none.
std::optional<CrossTrafficHelper>
ReadCrossTraffic(const ScenarioConfig& c)
{
    const std::string& kind = c.GetChoice("cross.traffic", {"none", "cbr", "onoff", "bulk"});
    if (kind == "none")
    {
        return std::nullopt;
    }
    for (const auto& role : c.GetList("cross.links"))
    {
        if (role != "wan" && role != "core" && role != "router")
        {
            throw ConfigValueError("cross.links: '" + ShownText(role)
                                   + "' is not one of wan, core, router");
        }
    }
    CrossTrafficHelper cross(kind,
                             ParseDataRateBps("cross.rate", c.GetString("cross.rate")),
                             ParsePeriodSeconds("cross.on", c.GetString("cross.on")),
                             ParsePeriodSeconds("cross.off", c.GetString("cross.off")));
    return cross;
}

/// Whether role items (all, access, a role) cover links of role `role`.
bool
RoleMatches(const std::vector<std::string>& roles, const std::string& role)
{
    for (const auto& r : roles)
    {
        if (r == "all" || r == role || (r == "access" && (role == "up" || role == "down")))
        {
            return true;
        }
    }
    return false;
}

/// Throws unless some link of `roles` matches `wanted` (as RoleMatches decides).
void
CheckRolesExist(const std::string& key,
                const std::vector<std::string>& wanted,
                const std::vector<std::string>& roles,
                const std::string& network)
{
    std::string have;
    for (const auto& r : roles)
    {
        if (RoleMatches(wanted, r))
        {
            return;
        }
        have += (have.empty() ? "" : ", ") + r;
    }
    throw ConfigValueError(key + ": network " + network + " has no such links (it has: " + have
                           + ")");
}

} // namespace

std::vector<std::string>
KnownLinkRoles()
{
    std::vector<std::string> roles = {"all", "access"};
    for (const std::string& name : UnderlayRegistry::Names())
    {
        for (const std::string& role : UnderlayRegistry::Get(name).linkRoles)
        {
            if (std::find(roles.begin(), roles.end(), role) == roles.end())
            {
                roles.push_back(role);
            }
        }
    }
    return roles;
}

LinkSelection::LinkSelection(const ScenarioConfig& c,
                             const std::string& key,
                             const std::string& network)
    : m_key(key), m_network(network)
{
    const std::vector<std::string> known = KnownLinkRoles();
    for (const auto& item : c.GetList(key))
    {
        if (std::find(known.begin(), known.end(), item) != known.end())
        {
            m_roles.push_back(item);
            continue;
        }
        // Router names may hold dashes ("eu-west"), so the ends are split at a colon, as
        // faults.links splits them.
        const size_t colon = item.find(':');
        if (colon == std::string::npos || colon == 0 || colon + 1 == item.size()
            || item.find(':', colon + 1) != std::string::npos)
        {
            throw ConfigValueError(key + ": '" + ShownText(item) + "' is neither a link role ("
                                   + JoinNames(known)
                                   + ") nor a link direction FROM:TO named as in links.csv "
                                     "(e.g. 3:core)");
        }
        m_directions.emplace_back(item.substr(0, colon), item.substr(colon + 1));
    }
}

bool
LinkSelection::Empty() const
{
    return m_roles.empty() && m_directions.empty();
}

bool
LinkSelection::Selects(const UnderlayLink& link) const
{
    for (const auto& [from, to] : m_directions)
    {
        if (link.from == from && link.to == to)
        {
            return true;
        }
    }
    return RoleMatches(m_roles, link.role);
}

void
LinkSelection::CheckRoles(const std::vector<std::string>& roles) const
{
    if (m_directions.empty())
    {
        CheckRolesExist(m_key, m_roles, roles, m_network);
    }
}

void
LinkSelection::Check(const Underlay& underlay) const
{
    for (const auto& [from, to] : m_directions)
    {
        auto named = [&from = from, &to = to](const UnderlayLink& l)
        {
            return l.from == from && l.to == to;
        };
        if (std::none_of(underlay.links.begin(), underlay.links.end(), named))
        {
            throw ConfigValueError(m_key + ": network " + m_network + " has no link direction "
                                   + ShownText(from) + ":" + ShownText(to)
                                   + " (FROM:TO, named as the from and to columns of links.csv)");
        }
    }
    std::vector<std::string> roles;
    for (const UnderlayLink& link : underlay.links)
    {
        if (std::find(roles.begin(), roles.end(), link.role) == roles.end())
        {
            roles.push_back(link.role);
        }
    }
    CheckRoles(roles);
}

UnderlayConfig::UnderlayConfig(const ScenarioConfig& c, uint32_t learners, uint32_t mtu)
    : m_config(c), m_learners(learners),
      m_network(c.GetChoice("network", UnderlayRegistry::Names())),
      m_registration(UnderlayRegistry::Get(m_network))
{
    // Every key of the chosen underlay is parsed now; files are read here too, so a bad one is
    // reported before the dataset loads.
    ReadLinkBehaviour(c, mtu);
    LinkSelection traced(c, "trace.links", m_network);
    if (ReadTrace(c))
    {
        traced.CheckRoles(RolesOf(m_registration, c));
    }
    if (ReadCrossTraffic(c))
    {
        CheckRolesExist(
            "cross.links", c.GetList("cross.links"), RolesOf(m_registration, c), m_network);
    }
    if (m_registration.check)
    {
        m_registration.check(c, learners);
    }
}

const std::string&
UnderlayConfig::GetNetwork() const
{
    return m_network;
}

Underlay
UnderlayConfig::Install(NodeContainer learners,
                        const OverlayGraph& overlay,
                        int64_t stream,
                        Ptr<NetworkModel> network,
                        std::ostream* log)
{
    const ScenarioConfig& c = m_config;
    const uint32_t mtu = static_cast<uint32_t>(c.GetUint("link.mtu", 576, 65535));
    const UnderlaySetup setup{c, learners.GetN(), overlay, ReadLinkBehaviour(c, mtu), stream, log};
    Underlay underlay = m_registration.create(setup)->Install(learners);
    if (std::optional<CrossTrafficHelper> cross = ReadCrossTraffic(m_config))
    {
        // The learners' network model carries the cross traffic in its own form (flows meet it
        // as flows).
        cross->SetNetworkModel(network);
        cross->Install(underlay, m_config.GetList("cross.links"));
        cross->AssignStreams(stream + kUnderlayStreams);
    }
    if (std::optional<RateTrace> trace = ReadTrace(m_config))
    {
        const LinkSelection traced = ReadSelection("trace.links");
        traced.Check(underlay);
        RateTraceHelper rates;
        rates.SetNetworkModel(network);
        for (UnderlayLink& link : underlay.links)
        {
            if (traced.Selects(link))
            {
                Ptr<PointToPointNetDevice> device = DynamicCast<PointToPointNetDevice>(link.device);
                if (!device)
                {
                    throw ConfigValueError("trace.links: " + link.from + ":" + link.to + " (role "
                                           + link.role
                                           + ") is not a point-to-point link; rate traces "
                                             "follow point-to-point links only");
                }
                rates.Install(device, *trace);
                link.bandwidthBps = trace->GetMeanRateBps();
                link.trace = m_config.GetString("trace.file");
            }
        }
    }
    return underlay;
}

void
UnderlayConfig::BringUp(const Underlay& underlay, std::ostream& log) const
{
    if (!underlay.whenUp)
    {
        return;
    }
    bool up = false;
    underlay.whenUp(
        [&up]()
        {
            up = true;
            Simulator::Stop();
        });
    if (!up)
    {
        // Bounded: a network that never comes up is an error, not a run that waits for ever.
        const Time limit = Seconds(60);
        EventId bound = Simulator::Schedule(limit, []() { Simulator::Stop(); });
        Simulator::Run();
        bound.Cancel();
        if (!up)
        {
            throw ScenarioError("network " + m_network + ": the network did not come up within "
                                + std::to_string(limit.GetSeconds())
                                + " s of simulated time (e.g. Wi-Fi stations that never "
                                  "associated)");
        }
    }
    log << "network " << m_network << " up at " << Simulator::Now().GetSeconds()
        << " s of simulated time: the learners start then (reported times count from the start of "
           "the simulation)"
        << std::endl;
}

LinkSelection
UnderlayConfig::ReadSelection(const std::string& key) const
{
    LinkSelection selection(m_config, key, m_network);
    if (!selection.Empty())
    {
        selection.CheckRoles(RolesOf(m_registration, m_config));
    }
    return selection;
}

std::string
UnderlayConfig::Describe(const Underlay& underlay) const
{
    std::map<std::string, std::pair<double, double>> rates; // role: min, max
    std::map<std::string, uint32_t> counts;
    for (const auto& l : underlay.links)
    {
        auto it = rates.find(l.role);
        if (it == rates.end())
        {
            rates[l.role] = {l.bandwidthBps, l.bandwidthBps};
        }
        else
        {
            it->second.first = std::min(it->second.first, l.bandwidthBps);
            it->second.second = std::max(it->second.second, l.bandwidthBps);
        }
        ++counts[l.role];
    }
    std::ostringstream s;
    s << "network " << m_network << ": " << underlay.routers.GetN() << " routers";
    for (const auto& [role, range] : rates)
    {
        s << ", " << counts[role] << " " << role << " " << RateText(range.first);
        if (range.second > range.first)
        {
            s << " to " << RateText(range.second);
        }
    }
    if (!underlay.links.empty())
    {
        s << ", queue " << underlay.links.front().queue;
    }
    return s.str();
}

uint64_t
LinkUsage::HostBytesSent() const
{
    uint64_t sent = 0;
    for (size_t k = 0; k < m_links.size(); ++k)
    {
        // A learner's end is its index; routers have names.
        const std::string& from = m_links[k].from;
        if (!from.empty() && std::all_of(from.begin(), from.end(), ::isdigit))
        {
            sent += m_bytes[k];
        }
    }
    return sent;
}

LinkUsage::LinkUsage(const Underlay& underlay, Ptr<NetworkModel> network)
    : m_links(underlay.links), m_network(network), m_bytes(underlay.links.size(), 0),
      m_dropped(underlay.links.size(), -1), m_lost(underlay.links.size(), -1)
{
    if (!m_network->MovesPackets())
    {
        return; // no packet crosses the devices
    }
    for (size_t k = 0; k < m_links.size(); ++k)
    {
        Ptr<Object> source = m_links[k].txSource;
        if (!source)
        {
            source = m_links[k].device;
        }
        if (!source->TraceConnectWithoutContext("PhyTxEnd",
                                                MakeBoundCallback(&AddBytes, &m_bytes[k])))
        {
            // An underlay helper's mistake, not the user's.
            throw std::logic_error("links.csv: link " + m_links[k].from + ":" + m_links[k].to
                                   + " has no PhyTxEnd trace source");
        }
        auto p2p = DynamicCast<PointToPointNetDevice>(m_links[k].device);
        Ptr<NetDevice> receiver = ReceiverOf(m_links[k]);
        if (!p2p || !receiver)
        {
            continue; // a shared medium's MAC retries and drops frames its own way
        }
        m_dropped[k] = 0;
        m_lost[k] = 0;
        p2p->GetQueue()->TraceConnectWithoutContext(
            "Drop", MakeBoundCallback(&CountDrop<Packet>, &m_dropped[k]));
        Ptr<TrafficControlLayer> tc = p2p->GetNode()->GetObject<TrafficControlLayer>();
        if (Ptr<QueueDisc> disc = tc ? tc->GetRootQueueDiscOnDevice(p2p) : nullptr)
        {
            disc->TraceConnectWithoutContext(
                "Drop", MakeBoundCallback(&CountDrop<QueueDiscItem>, &m_dropped[k]));
        }
        receiver->TraceConnectWithoutContext("PhyRxDrop",
                                             MakeBoundCallback(&CountDrop<Packet>, &m_lost[k]));
    }
}

void
LinkUsage::Report(const std::string& path,
                  double simulatedSeconds,
                  std::ostream& log,
                  RunSummary& summary) const
{
    auto count = [](int64_t n)
    {
        return n < 0 ? std::string() : std::to_string(n);
    };
    std::ostringstream out;
    out << "from,to,role,bandwidth_bps,latency_s,loss,queue,trace,tx_bytes,utilisation,"
           "dropped_packets,lost_packets\n"
        << std::setprecision(12);
    uint64_t dropped = 0;
    uint64_t lost = 0;
    uint64_t overflows = 0;
    uint32_t links = 0;     // directions with drops or overflows
    bool uncounted = false; // some directions cannot count their drops (Wi-Fi)
    for (size_t k = 0; k < m_links.size(); ++k)
    {
        const UnderlayLink& l = m_links[k];
        const NetworkModel::Carried carried = m_network->MovesPackets()
                                                  ? NetworkModel::Carried{m_bytes[k], 0}
                                                  : m_network->GetCarried(l.device);
        double utilisation = simulatedSeconds > 0 ? static_cast<double>(carried.txBytes) * 8.0
                                                        / (l.bandwidthBps * simulatedSeconds)
                                                  : 0.0;
        out << l.from << "," << l.to << "," << l.role << "," << l.bandwidthBps << ","
            << l.latencySeconds << "," << l.loss << "," << l.queue << "," << l.trace << ","
            << carried.txBytes << "," << std::setprecision(6) << utilisation
            << std::setprecision(12) << "," << count(m_dropped[k]) << "," << count(m_lost[k])
            << "\n";
        dropped += std::max<int64_t>(0, m_dropped[k]);
        lost += std::max<int64_t>(0, m_lost[k]);
        overflows += carried.overflows;
        links += m_dropped[k] > 0 || carried.overflows > 0 ? 1 : 0;
        uncounted = uncounted || (m_network->MovesPackets() && m_dropped[k] < 0);
    }
    WriteFileAtomically(path, out.str());
    if (!m_network->MovesPackets())
    {
        summary.flowOverflows = overflows;
        // What the flow model only approximates (its validation against packets: lossless
        // within a few percent; overflowing queues and random loss much less closely).
        const auto lossy = std::count_if(
            m_links.begin(), m_links.end(), [](const UnderlayLink& l) { return l.loss > 0.0; });
        std::vector<std::string> approximate;
        if (overflows > 0)
        {
            approximate.push_back("queues overflowed on " + std::to_string(links)
                                  + " link directions");
        }
        if (lossy > 0)
        {
            approximate.push_back("random loss on " + std::to_string(lossy) + " link directions");
        }
        for (const std::string& what : approximate)
        {
            summary.networkFidelity += (summary.networkFidelity.empty() ? "" : "; ") + what;
        }
        if (overflows > 0)
        {
            log << "note: the flows' windows came to exceed the queues of " << links
                << " link directions (" << overflows
                << " times): over packets those queues would drop segments or delay them past "
                   "TCP's timeout, which the flow model only approximates (a drop cuts a window, a "
                   "first window that overflows or outwaits its queue waits a timeout; the time "
                   "a recovery takes is not simulated); its times may be optimistic there "
                   "(network.model = packet is the reference)"
                << std::endl;
        }
        return;
    }
    if (!uncounted)
    {
        summary.droppedPackets = dropped;
        summary.lostPackets = lost;
    }
    log << "links: " << dropped << " packets dropped by full queues (on " << links
        << " link directions), " << lost << " lost on links"
        << (uncounted ? ", the Wi-Fi links' own not counted" : "") << " (links.csv)" << std::endl;
}

} // namespace ns3
