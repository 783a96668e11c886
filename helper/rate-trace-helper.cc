// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "rate-trace-helper.h"

#include "ns3/data-rate.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/simple-ref-count.h"
#include "ns3/simulator.h"
#include "random-variable-spec.h"

#include <cmath>
#include <utility>
#include <vector>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DlsimRateTraceHelper");

namespace
{

/**
 * The schedule of one device. Its pending events hold it (through Ptr), so it lives as long as
 * the simulation can still change the device's rate, and goes with Simulator::Destroy.
 */
class RateTraceFollower : public SimpleRefCount<RateTraceFollower>
{
  public:
    RateTraceFollower(Ptr<PointToPointNetDevice> device,
                      const RateTrace& trace,
                      Ptr<NetworkModel> network)
        : m_device(device), m_network(network)
    {
        // Convert once: the trace's rates are whole bit/s for ns-3 anyway, and converting each
        // period again would only cost time.
        for (const auto& step : trace.GetSteps())
        {
            m_steps.emplace_back(Seconds(step.startSeconds),
                                 DataRate(static_cast<uint64_t>(std::llround(step.rateBps))));
        }
        // An infinite period (a constant trace) never ends; StartPeriod schedules nothing then.
        if (m_steps.size() > 1)
        {
            m_period = Seconds(trace.GetPeriodSeconds());
        }
    }

    /// Set the first step's rate now and schedule the other steps of this period and the next
    /// period's start: at most one period of events is pending at any time.
    void StartPeriod()
    {
        Apply(0);
        if (m_steps.size() < 2)
        {
            return;
        }
        Ptr<RateTraceFollower> self(this);
        for (size_t i = 1; i < m_steps.size(); ++i)
        {
            Simulator::Schedule(m_steps[i].first, &RateTraceFollower::Apply, self, i);
        }
        // Scheduled after the steps, so that a step rounded to the end of the period (both are
        // rounded to ns-3's time resolution) still runs before the next period starts.
        Simulator::Schedule(m_period, &RateTraceFollower::StartPeriod, self);
    }

  private:
    void Apply(size_t step)
    {
        NS_LOG_INFO("device " << m_device->GetIfIndex() << " of node "
                              << (m_device->GetNode() ? m_device->GetNode()->GetId() : 0)
                              << ": DataRate " << m_steps[step].second);
        // The same as setting the DataRate attribute; a packet being sent keeps its old rate.
        m_device->SetDataRate(m_steps[step].second);
        // A network model that moves no packets through the device (flows) takes it too.
        if (m_network)
        {
            m_network->NotifyDataRate(m_device);
        }
    }

    Ptr<PointToPointNetDevice> m_device;
    Ptr<NetworkModel> m_network;                    ///< told of every step, if set
    std::vector<std::pair<Time, DataRate>> m_steps; ///< start within the period, rate
    Time m_period;
};

} // namespace

void
RateTraceHelper::SetNetworkModel(Ptr<NetworkModel> model)
{
    m_network = model;
}

void
RateTraceHelper::Install(Ptr<PointToPointNetDevice> device, const RateTrace& trace) const
{
    NS_LOG_FUNCTION(this << device << trace.GetSteps().size() << trace.GetPeriodSeconds());
    if (!device)
    {
        throw ConfigValueError("RateTraceHelper::Install: no device (null pointer)");
    }
    Ptr<RateTraceFollower> follower = Create<RateTraceFollower>(device, trace, m_network);
    follower->StartPeriod();
}

void
RateTraceHelper::Install(const NetDeviceContainer& devices, const RateTrace& trace) const
{
    // Check every device first so that an error leaves no device half-configured.
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        if (!DynamicCast<PointToPointNetDevice>(devices.Get(i)))
        {
            throw ConfigValueError("RateTraceHelper::Install: device " + std::to_string(i)
                                   + " is a "
                                   + (devices.Get(i) ? devices.Get(i)->GetInstanceTypeId().GetName()
                                                     : std::string("null pointer"))
                                   + ", not a PointToPointNetDevice");
        }
    }
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        Install(DynamicCast<PointToPointNetDevice>(devices.Get(i)), trace);
    }
}

} // namespace ns3
