// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "underlay-link-helper.h"

#include "ns3/channel.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/error-model.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/queue-size.h"
#include "ns3/queue.h"
#include "ns3/string.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"
#include "random-variable-spec.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DlsimUnderlayLinkHelper");

namespace
{

const std::map<std::string, std::string>&
QueueDiscTypes()
{
    static const std::map<std::string, std::string> types = {
        {"fq-codel", "ns3::FqCoDelQueueDisc"},
        {"codel", "ns3::CoDelQueueDisc"},
        {"pie", "ns3::PieQueueDisc"},
        {"fifo", "ns3::FifoQueueDisc"},
    };
    return types;
}

/// "123p" or "4567B" as a count and its unit; false for anything else.
bool
ParseQueueSize(const std::string& text, uint64_t& count, char& unit)
{
    if (text.size() < 2 || (text.back() != 'p' && text.back() != 'B'))
    {
        return false;
    }
    std::string digits = text.substr(0, text.size() - 1);
    if (digits.size() > 12 || digits.find_first_not_of("0123456789") != std::string::npos)
    {
        return false;
    }
    count = std::stoull(digits);
    unit = text.back();
    return true;
}

} // namespace

const std::vector<std::string>&
KnownQueueDiscs()
{
    static const std::vector<std::string> names = {"none", "fq-codel", "codel", "pie", "fifo"};
    return names;
}

void
CheckLinkBehaviour(const LinkBehaviour& behaviour)
{
    uint64_t count = 0;
    char unit = 'p';
    if (behaviour.queue != "auto")
    {
        if (!ParseQueueSize(behaviour.queue, count, unit))
        {
            throw ConfigValueError("link.queue: expected auto, a packet count like 100p or a "
                                   "byte count like 150000B, got '"
                                   + behaviour.queue + "'");
        }
        // ns-3 aborts on a queue that cannot hold a single packet.
        if (count == 0 || (unit == 'B' && count < behaviour.mtu))
        {
            throw ConfigValueError("link.queue: " + behaviour.queue
                                   + " cannot hold one packet of link.mtu "
                                   + std::to_string(behaviour.mtu) + " bytes");
        }
        if ((unit == 'p' && count > 100000000ull) || (unit == 'B' && count > 100000000000ull))
        {
            throw ConfigValueError("link.queue: " + behaviour.queue + " is too large");
        }
    }
    const auto& discs = KnownQueueDiscs();
    if (std::find(discs.begin(), discs.end(), behaviour.queueDisc) == discs.end())
    {
        throw ConfigValueError("link.queue_disc: '" + ShownText(behaviour.queueDisc)
                               + "' is not one of none, fq-codel, codel, pie, fifo");
    }
    if (!(behaviour.loss >= 0.0 && behaviour.loss < 1.0))
    {
        throw ConfigValueError("link.loss: a loss probability must be in [0, 1)");
    }
}

std::string
AutoQueueSize(double bandwidthBps, double latencySeconds, uint32_t mtu)
{
    double roundTrip = std::max(0.1, 2.0 * latencySeconds);
    double packets = std::ceil(bandwidthBps * roundTrip / 8.0 / mtu);
    packets = std::min(std::max(packets, 8.0), 1e8);
    return std::to_string(static_cast<uint64_t>(packets)) + "p";
}

UnderlayLinkHelper::UnderlayLinkHelper(LinkBehaviour behaviour)
    : m_behaviour(std::move(behaviour)), m_addresses("10.0.0.0", "255.255.255.252")
{
    CheckLinkBehaviour(m_behaviour);
    m_p2p.SetDeviceAttribute("Mtu", UintegerValue(m_behaviour.mtu));
    if (m_behaviour.queueDisc == "none")
    {
        // With flow control and no queue disc, ns-3's traffic-control layer discards a packet
        // that finds the device queue full (stopped) and tells only its own TcDrop trace: the
        // queue's Drop trace, the ascii and pcap traces and FlowMonitor never see that
        // overflow. Without flow control the device queue drops the packet itself, at the same
        // moment (its size is in packets unless the user sets bytes), where all of them see it.
        m_p2p.DisableFlowControl();
    }
}

void
UnderlayLinkHelper::SetFirstStream(int64_t stream)
{
    m_nextStream = stream;
}

PointToPointHelper&
UnderlayLinkHelper::GetPointToPoint()
{
    return m_p2p;
}

UnderlayLinkHelper::Link
UnderlayLinkHelper::Install(Ptr<Node> a,
                            Ptr<Node> b,
                            double rateAtoB,
                            double rateBtoA,
                            double latencySeconds,
                            std::vector<UnderlayLink>& links,
                            const std::string& nameA,
                            const std::string& nameB,
                            const std::string& roleAtoB,
                            const std::string& roleBtoA)
{
    if (rateAtoB > 0)
    {
        m_p2p.SetDeviceAttribute("DataRate",
                                 DataRateValue(DataRate(static_cast<uint64_t>(rateAtoB + 0.5))));
    }
    if (latencySeconds >= 0)
    {
        m_p2p.SetChannelAttribute("Delay", TimeValue(Seconds(latencySeconds)));
    }
    Link link;
    link.devices = m_p2p.Install(a, b);
    if (rateBtoA > 0)
    {
        link.devices.Get(1)->SetAttribute(
            "DataRate", DataRateValue(DataRate(static_cast<uint64_t>(rateBtoA + 0.5))));
    }
    link.interfaces = m_addresses.Assign(link.devices);
    m_addresses.NewNetwork();
    // Assign() installs ns-3's default FqCoDel queue disc on a device with flow control; the
    // behaviour decides what replaces it.
    for (uint32_t i = 0; i < link.devices.GetN(); ++i)
    {
        Ptr<NetDevice> device = link.devices.Get(i);
        Ptr<TrafficControlLayer> tc = device->GetNode()->GetObject<TrafficControlLayer>();
        if (tc && tc->GetRootQueueDiscOnDevice(device))
        {
            TrafficControlHelper().Uninstall(device);
        }
    }

    UnderlayLink forward;
    forward.from = nameA;
    forward.to = nameB;
    forward.role = roleAtoB;
    UnderlayLink backward;
    backward.from = nameB;
    backward.to = nameA;
    backward.role = roleBtoA;
    ConfigureDirection(link.devices.Get(0), link.devices.Get(1), forward);
    ConfigureDirection(link.devices.Get(1), link.devices.Get(0), backward);
    links.push_back(forward);
    links.push_back(backward);
    return link;
}

void
UnderlayLinkHelper::ConfigureDirection(Ptr<NetDevice> sender,
                                       Ptr<NetDevice> receiver,
                                       UnderlayLink& record)
{
    // Record what the device really got, whichever way it was set.
    DataRateValue rate;
    sender->GetAttribute("DataRate", rate);
    TimeValue delay;
    sender->GetChannel()->GetAttribute("Delay", delay);
    record.bandwidthBps = static_cast<double>(rate.Get().GetBitRate());
    record.latencySeconds = delay.Get().GetSeconds();
    record.loss = m_behaviour.loss;
    record.device = sender;

    std::string size = m_behaviour.queue;
    Ptr<Queue<Packet>> deviceQueue = DynamicCast<PointToPointNetDevice>(sender)->GetQueue();
    if (m_behaviour.queueDisc == "none")
    {
        if (size == "auto")
        {
            size = AutoQueueSize(record.bandwidthBps, record.latencySeconds, m_behaviour.mtu);
        }
        deviceQueue->SetMaxSize(QueueSize(size));
        record.queue = size;
    }
    else
    {
        // The discipline holds the backlog; a one-packet device queue hands it over at once,
        // so the discipline's drops and marks act on the real queue.
        deviceQueue->SetMaxSize(QueueSize("1p"));
        TrafficControlHelper tc;
        if (size == "auto")
        {
            tc.SetRootQueueDisc(QueueDiscTypes().at(m_behaviour.queueDisc));
        }
        else
        {
            tc.SetRootQueueDisc(QueueDiscTypes().at(m_behaviour.queueDisc),
                                "MaxSize",
                                QueueSizeValue(QueueSize(size)));
        }
        QueueDiscContainer discs = tc.Install(sender);
        QueueSize limit = discs.Get(0)->GetMaxSize();
        std::ostringstream text;
        text << m_behaviour.queueDisc << " " << limit;
        record.queue = text.str();
    }
    if (m_behaviour.loss > 0.0)
    {
        Ptr<RateErrorModel> errors = CreateObject<RateErrorModel>();
        errors->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
        errors->SetRate(m_behaviour.loss);
        errors->AssignStreams(m_nextStream++);
        m_lossModels.push_back(errors);
        receiver->SetAttribute("ReceiveErrorModel", PointerValue(errors));
    }
}

const std::vector<Ptr<RateErrorModel>>&
UnderlayLinkHelper::GetLossModels() const
{
    return m_lossModels;
}

int64_t
AssignLossStreams(const std::vector<Ptr<RateErrorModel>>& models, int64_t stream)
{
    int64_t used = 0;
    for (const auto& model : models)
    {
        used += model->AssignStreams(stream + used);
    }
    return used;
}

} // namespace ns3
