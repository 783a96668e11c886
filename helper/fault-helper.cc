// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "fault-helper.h"

#include "learner-application.h"
#include "ns3/channel.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "random-variable-spec.h"

#include <cmath>

namespace ns3
{

FaultHelper::FaultHelper(FaultPlan plan)
    : m_plan(std::move(plan))
{
}

void
FaultHelper::SetLinkEventCallback(EventCallback callback)
{
    m_linkEvent = std::move(callback);
}

Ptr<OutageErrorModel>
FaultHelper::OutageOf(const UnderlayLink& link)
{
    Ptr<NetDevice> receiver = ReceiverOf(link);
    auto known = m_outages.find(PeekPointer(receiver));
    if (known != m_outages.end())
    {
        return known->second;
    }
    PointerValue inner;
    receiver->GetAttribute("ReceiveErrorModel", inner);
    Ptr<OutageErrorModel> outage = CreateObject<OutageErrorModel>();
    outage->SetInner(inner.Get<ErrorModel>());
    receiver->SetAttribute("ReceiveErrorModel", PointerValue(outage));
    m_outages.emplace(PeekPointer(receiver), outage);
    return outage;
}

void
FaultHelper::SetDown(const std::vector<Ptr<OutageErrorModel>>& models, bool down)
{
    for (const auto& model : models)
    {
        down ? model->Down() : model->Up();
    }
}

void
FaultHelper::Install(const Underlay& underlay, ApplicationContainer apps)
{
    for (const HostOutage& outage : m_plan.hosts)
    {
        const std::string name = std::to_string(outage.node);
        std::vector<Ptr<OutageErrorModel>> models;
        for (const UnderlayLink& link : underlay.links)
        {
            if (link.from == name || link.to == name)
            {
                models.push_back(OutageOf(link));
            }
        }
        Ptr<LearnerApplication> app = DynamicCast<LearnerApplication>(apps.Get(outage.node));
        const bool forGood = std::isinf(outage.up);
        // Links go down before the learner closes its sockets, so nothing it says on the way
        // out leaves the host; they come up before it opens new ones.
        Simulator::Schedule(Seconds(outage.down),
                            [this, models, app, forGood]()
                            {
                                SetDown(models, true);
                                app->Crash(forGood);
                            });
        if (!forGood)
        {
            Simulator::Schedule(Seconds(outage.up),
                                [this, models, app]()
                                {
                                    SetDown(models, false);
                                    app->Recover();
                                });
        }
    }
    for (const LinkOutage& outage : m_plan.links)
    {
        std::vector<Ptr<OutageErrorModel>> models;
        for (const UnderlayLink& link : underlay.links)
        {
            if ((link.from == outage.a && link.to == outage.b)
                || (link.from == outage.b && link.to == outage.a))
            {
                models.push_back(OutageOf(link));
            }
        }
        const std::string subject = outage.a + ":" + outage.b;
        if (models.empty())
        {
            throw ConfigValueError("faults.links: no link joins " + outage.a + " and " + outage.b
                                   + " (the ends are named as in links.csv)");
        }
        Simulator::Schedule(Seconds(outage.down),
                            [this, models, subject]()
                            {
                                SetDown(models, true);
                                if (m_linkEvent)
                                {
                                    m_linkEvent("link-down", subject);
                                }
                            });
        if (!std::isinf(outage.up))
        {
            Simulator::Schedule(Seconds(outage.up),
                                [this, models, subject]()
                                {
                                    SetDown(models, false);
                                    if (m_linkEvent)
                                    {
                                        m_linkEvent("link-up", subject);
                                    }
                                });
        }
    }
}

} // namespace ns3
