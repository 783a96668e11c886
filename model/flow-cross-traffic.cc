// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "flow-cross-traffic.h"

#include "flow-network.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DlsimFlowCrossTraffic");
NS_OBJECT_ENSURE_REGISTERED(FlowCrossTraffic);

TypeId
FlowCrossTraffic::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::FlowCrossTraffic")
              .SetParent<Application>()
              .SetGroupName("Dlsim")
              .AddConstructor<FlowCrossTraffic>()
              .AddAttribute("OnTime",
                            "onoff: the on periods, in seconds (as OnOffApplication's)",
                            StringValue("ns3::ConstantRandomVariable[Constant=1.0]"),
                            MakePointerAccessor(&FlowCrossTraffic::m_onTime),
                            MakePointerChecker<RandomVariableStream>())
              .AddAttribute("OffTime",
                            "onoff: the off periods, in seconds (as OnOffApplication's)",
                            StringValue("ns3::ConstantRandomVariable[Constant=1.0]"),
                            MakePointerAccessor(&FlowCrossTraffic::m_offTime),
                            MakePointerChecker<RandomVariableStream>());
    return tid;
}

void
FlowCrossTraffic::Setup(Ptr<FlowNetwork> network,
                        Ptr<NetDevice> device,
                        const std::string& kind,
                        double rateBps,
                        uint32_t datagramBytes)
{
    if (kind != "cbr" && kind != "onoff")
    {
        throw FlowModelError("cross traffic as flows: '" + kind
                             + "' is not cbr or onoff (bulk TCP traffic has no flow form; use "
                               "network.model = packet)");
    }
    if (!network || !device || !(rateBps > 0.0) || datagramBytes == 0)
    {
        throw FlowModelError("cross traffic as flows: a flow network, a device, a positive rate "
                             "and datagram size are needed");
    }
    m_network = network;
    m_device = device;
    m_kind = kind;
    m_wireBps = rateBps * (datagramBytes + kDatagramHeaderBytes) / datagramBytes;
}

int64_t
FlowCrossTraffic::AssignStreams(int64_t stream)
{
    m_onTime->SetStream(stream);
    m_offTime->SetStream(stream + 1);
    return 2;
}

void
FlowCrossTraffic::StartApplication()
{
    if (!m_loaded)
    {
        m_load = m_network->AddLoad(m_device);
        m_loaded = true;
    }
    if (m_kind == "cbr")
    {
        m_network->SetLoad(m_load, m_wireBps);
        return;
    }
    // OnOffApplication draws an off period when its UDP socket connects, at once, and another
    // when it starts; the first is never used. Drawing the same keeps the two in step.
    m_offTime->GetValue();
    m_next = Simulator::Schedule(Seconds(m_offTime->GetValue()), &FlowCrossTraffic::TurnOn, this);
}

void
FlowCrossTraffic::TurnOn()
{
    NS_LOG_INFO("cross load on at " << Simulator::Now().As(Time::S));
    m_network->SetLoad(m_load, m_wireBps);
    m_next = Simulator::Schedule(Seconds(m_onTime->GetValue()), &FlowCrossTraffic::TurnOff, this);
}

void
FlowCrossTraffic::TurnOff()
{
    NS_LOG_INFO("cross load off at " << Simulator::Now().As(Time::S));
    m_network->SetLoad(m_load, 0.0);
    m_next = Simulator::Schedule(Seconds(m_offTime->GetValue()), &FlowCrossTraffic::TurnOn, this);
}

void
FlowCrossTraffic::StopApplication()
{
    Simulator::Cancel(m_next);
    if (m_loaded)
    {
        m_network->SetLoad(m_load, 0.0); // stopped: it sends no more
    }
}

void
FlowCrossTraffic::DoDispose()
{
    Simulator::Cancel(m_next);
    m_network = nullptr;
    m_device = nullptr;
    m_onTime = nullptr;
    m_offTime = nullptr;
    Application::DoDispose();
}

} // namespace ns3
