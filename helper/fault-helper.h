// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Applies a fault schedule to a running network: hosts crash and recover, links fail.
 */
#ifndef DLSIM_FAULT_HELPER_H
#define DLSIM_FAULT_HELPER_H

#include "fault-plan.h"
#include "ns3/application-container.h"
#include "outage-error-model.h"
#include "underlay.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * A crashed host is switched off: its learner stops (LearnerApplication::Crash) and every link
 * at the host loses all packets until it recovers, so neighbours see what a powered-off machine
 * looks like to TCP (silence, then retransmission timeouts). A failed link loses all packets in
 * both directions for the outage; TCP rides out short outages and gives up on long ones, after
 * which learners reconnect.
 */
class FaultHelper
{
  public:
    /// Called at every fault event: event ("crash", "recover", "link-down", "link-up"), subject.
    using EventCallback = std::function<void(const std::string& event, const std::string& subject)>;

    /// \param plan the faults (ReadFaultPlan)
    explicit FaultHelper(FaultPlan plan);

    /// \param callback called for link events (the learners report their own crashes and
    /// recoveries)
    void SetLinkEventCallback(EventCallback callback);

    /**
     * Schedule the plan on `underlay`, whose learner i runs apps.Get(i). Throws
     * ConfigValueError naming the faults.links item when no link joins its two ends.
     * \param underlay what the underlay helper built
     * \param apps the learner applications, learner i at apps.Get(i)
     */
    void Install(const Underlay& underlay, ApplicationContainer apps);

    /**
     * Check that every faults.links item names a link of `underlay`, without scheduling
     * anything (so that a bad item is refused before the run folder is written). Throws
     * ConfigValueError naming the item.
     * \param underlay what the underlay helper built
     */
    void Check(const Underlay& underlay) const;

    /**
     * \param end when the run ended
     * \return the faults that begin at or after `end` (the run was over), one line each
     */
    std::vector<std::string> DescribeUnreached(Time end) const;

  private:
    /// The link directions that join the ends of `outage`.
    static std::vector<const UnderlayLink*> LinksOf(const Underlay& underlay,
                                                    const LinkOutage& outage);
    /// The outage model of a link direction, installed at its receiving device on first use.
    Ptr<OutageErrorModel> OutageOf(const UnderlayLink& link);
    void SetDown(const std::vector<Ptr<OutageErrorModel>>& models, bool down);

    FaultPlan m_plan;
    EventCallback m_linkEvent;
    std::map<NetDevice*, Ptr<OutageErrorModel>> m_outages;
};

} // namespace ns3

#endif // DLSIM_FAULT_HELPER_H
