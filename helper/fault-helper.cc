// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "fault-helper.h"

#include "learner-application.h"
#include "ns3/channel.h"
#include "ns3/double.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "random-variable-spec.h"

#include <cmath>
#include <sstream>

using namespace dlsim; // the learning core (model/core)

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

std::vector<const UnderlayLink*>
FaultHelper::LinksOf(const Underlay& underlay, const LinkOutage& outage)
{
    std::vector<const UnderlayLink*> links;
    for (const UnderlayLink& link : underlay.links)
    {
        if ((link.from == outage.a && link.to == outage.b)
            || (link.from == outage.b && link.to == outage.a))
        {
            links.push_back(&link);
        }
    }
    return links;
}

void
FaultHelper::Check(const Underlay& underlay) const
{
    for (const LinkOutage& outage : m_plan.links)
    {
        const std::vector<const UnderlayLink*> links = LinksOf(underlay, outage);
        if (links.empty())
        {
            throw ConfigValueError("faults.links: no link joins " + outage.a + " and " + outage.b
                                   + " (the ends are named as in links.csv)");
        }
        for (const UnderlayLink* link : links)
        {
            // An outage drops what the far end receives; a shared medium has no one far end.
            if (!ReceiverOf(*link))
            {
                throw ConfigValueError("faults.links: " + outage.a + ":" + outage.b
                                       + " is a shared medium (role " + link->role
                                       + "), not a link that can fail on its own");
            }
        }
    }
}

std::vector<std::string>
FaultHelper::DescribeUnreached(Time end) const
{
    std::vector<std::string> lines;
    auto note = [&lines, end](const std::string& what, double down)
    {
        std::ostringstream text;
        text << "faults: " << what << " at " << down << " s did not happen: the run ended at "
             << end.GetSeconds() << " s";
        lines.push_back(text.str());
    };
    for (const HostOutage& outage : m_plan.hosts)
    {
        if (Seconds(outage.down) >= end)
        {
            note("the crash of host " + std::to_string(outage.node), outage.down);
        }
    }
    for (const LinkOutage& outage : m_plan.links)
    {
        if (Seconds(outage.down) >= end)
        {
            note("the outage of link " + outage.a + ":" + outage.b, outage.down);
        }
    }
    return lines;
}

std::vector<Ptr<OutageErrorModel>>
FaultHelper::HostLinks(const Underlay& underlay, uint32_t node)
{
    const std::string name = std::to_string(node);
    std::vector<Ptr<OutageErrorModel>> models;
    for (const UnderlayLink& link : underlay.links)
    {
        if (link.from == name || link.to == name)
        {
            models.push_back(OutageOf(link));
        }
    }
    return models;
}

int64_t
FaultHelper::AssignStreams(int64_t stream)
{
    m_stream = stream;
    return kChurnStreams;
}

void
FaultHelper::ChurnDown(std::vector<Ptr<OutageErrorModel>> models,
                       Ptr<LearnerApplication> app,
                       Ptr<ExponentialRandomVariable> draw)
{
    if (app->IsFinished())
    {
        return; // its rounds are done: churn no longer changes anything it computes
    }
    // As a planned outage: links first, so nothing the learner says on the way out leaves.
    SetDown(models, true);
    app->Crash(false);
    Simulator::Schedule(Seconds(m_plan.meanDown * draw->GetValue()),
                        &FaultHelper::ChurnUp,
                        this,
                        models,
                        app,
                        draw);
}

void
FaultHelper::ChurnUp(std::vector<Ptr<OutageErrorModel>> models,
                     Ptr<LearnerApplication> app,
                     Ptr<ExponentialRandomVariable> draw)
{
    SetDown(models, false);
    app->Recover();
    Simulator::Schedule(Seconds(m_plan.meanUp * draw->GetValue()),
                        &FaultHelper::ChurnDown,
                        this,
                        models,
                        app,
                        draw);
}

void
FaultHelper::Install(const Underlay& underlay, ApplicationContainer apps)
{
    Check(underlay);
    for (const HostOutage& outage : m_plan.hosts)
    {
        const std::vector<Ptr<OutageErrorModel>> models = HostLinks(underlay, outage.node);
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
    if (m_plan.meanUp > 0.0)
    {
        for (uint32_t i = 0; i < apps.GetN(); ++i)
        {
            auto draw = CreateObject<ExponentialRandomVariable>();
            draw->SetAttribute("Mean", DoubleValue(1.0)); // scaled by each mean
            draw->SetStream(m_stream + i);
            Ptr<LearnerApplication> app = DynamicCast<LearnerApplication>(apps.Get(i));
            Simulator::Schedule(Seconds(m_plan.meanUp * draw->GetValue()),
                                &FaultHelper::ChurnDown,
                                this,
                                HostLinks(underlay, i),
                                app,
                                draw);
        }
    }
    for (const LinkOutage& outage : m_plan.links)
    {
        std::vector<Ptr<OutageErrorModel>> models;
        for (const UnderlayLink* link : LinksOf(underlay, outage))
        {
            models.push_back(OutageOf(*link));
        }
        const std::string subject = outage.a + ":" + outage.b;
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
