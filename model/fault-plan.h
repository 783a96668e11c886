// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * When hosts crash and links fail: the fault schedule of a run.
 */
#ifndef DLSIM_FAULT_PLAN_H
#define DLSIM_FAULT_PLAN_H

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ns3
{

/// A learner's host is off from `down` until `up` (seconds; infinity: for good).
struct HostOutage
{
    uint32_t node = 0;                                   ///< the learner
    double down = 0.0;                                   ///< when it goes off
    double up = std::numeric_limits<double>::infinity(); ///< when it is back
};

/// The link between two underlay nodes (named as in links.csv) is out, both ways.
struct LinkOutage
{
    std::string a;                                       ///< one end
    std::string b;                                       ///< the other end
    double down = 0.0;                                   ///< when it goes out
    double up = std::numeric_limits<double>::infinity(); ///< when it is back
};

/// Every fault of a run, as the fault keys give them (FaultHelper carries them out).
struct FaultPlan
{
    std::vector<HostOutage> hosts; ///< sorted by node, then time; never overlapping per node
    std::vector<LinkOutage> links; ///< in the order given
    /// Churn by rates: every host alternates up and down times drawn from exponential
    /// distributions with these means (seconds), starting up; 0: no churn.
    double meanUp = 0.0;
    double meanDown = 0.0; ///< see meanUp

    /// \return whether there is no fault at all
    bool Empty() const;
};

/**
 * Read the fault keys: `crashes` items "NODE@DOWN" or "NODE@DOWN-UP" (e.g. "3@60s-90s"),
 * `crashFile` a CSV 'node,down_s,up_s' (up_s empty: for good), `availabilityFile` a trace CSV
 * 'node,online_s,offline_s' of the intervals each listed host is on (off before the first,
 * between two and after the last; offline_s empty: on to the end; hosts not listed: always on),
 * and `links` items "A:B@DOWN-UP" with A and B named as in links.csv ("3:core@10s-20s"). Throws
 * ConfigValueError naming the key (faults.crash, faults.file, faults.availability,
 * faults.links), file, line and item.
 * \param crashes the `crashes` items
 * \param crashFile the crash file, or empty
 * \param availabilityFile the availability trace, or empty
 * \param links the `links` items
 * \param learners the number of learners
 * \return the plan
 */
FaultPlan ReadFaultPlan(const std::vector<std::string>& crashes,
                        const std::string& crashFile,
                        const std::string& availabilityFile,
                        const std::vector<std::string>& links,
                        uint32_t learners);

} // namespace ns3

#endif // DLSIM_FAULT_PLAN_H
