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
#include "ns3/random-variable-stream.h"
#include "outage-error-model.h"
#include "underlay.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

class LearnerApplication;

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
     * \brief Fix the random streams of churn by rates (FaultPlan::meanUp): learner i draws its
     * up and down times from stream `stream + i`.
     * \param stream the first stream
     * \return the number of streams used (one per learner, known at Install; at most
     * kChurnStreams)
     */
    int64_t AssignStreams(int64_t stream);
    /// Streams AssignStreams reserves.
    static constexpr int64_t kChurnStreams = 100000;

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
    /// The outage models of every link direction at learner `node`'s host.
    std::vector<Ptr<OutageErrorModel>> HostLinks(const Underlay& underlay, uint32_t node);
    /// Churn: the host of `app` goes off now, and comes back after a drawn down time.
    void ChurnDown(std::vector<Ptr<OutageErrorModel>> models,
                   Ptr<LearnerApplication> app,
                   Ptr<ExponentialRandomVariable> draw);
    /// Churn: the host of `app` comes back now, and goes off again after a drawn up time.
    void ChurnUp(std::vector<Ptr<OutageErrorModel>> models,
                 Ptr<LearnerApplication> app,
                 Ptr<ExponentialRandomVariable> draw);

    FaultPlan m_plan;
    EventCallback m_linkEvent;
    std::map<NetDevice*, Ptr<OutageErrorModel>> m_outages;
    /// Churn's first stream; by default far from the streams other helpers number from 0.
    int64_t m_stream = 1000000;
};

} // namespace ns3

#endif // DLSIM_FAULT_HELPER_H
