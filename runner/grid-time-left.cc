// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "grid-time-left.h"

#include <algorithm>

namespace ns3
{

void
GridTimeLeft::Finished(PointKind kind, double seconds)
{
    m_seconds[static_cast<int>(kind)] += seconds;
    ++m_count[static_cast<int>(kind)];
}

GridTimeLeft::Estimate
GridTimeLeft::Left(const std::vector<PointKind>& waiting,
                   const std::vector<std::pair<PointKind, double>>& running,
                   size_t jobs) const
{
    Estimate estimate;
    // A kind's mean; a kind none of whose points has finished takes the other kind's, and the
    // estimate says so.
    auto mean = [&](PointKind kind)
    {
        const int k = static_cast<int>(kind);
        if (m_count[k] > 0)
        {
            return m_seconds[k] / static_cast<double>(m_count[k]);
        }
        const int other = 1 - k;
        if (m_count[other] == 0)
        {
            return 0.0;
        }
        (kind == PointKind::Replays ? estimate.replaysAsTrainings : estimate.trainingsAsReplays)
            = true;
        return m_seconds[other] / static_cast<double>(m_count[other]);
    };
    double work = 0.0;
    for (PointKind kind : waiting)
    {
        work += mean(kind);
    }
    // A running point: the rest of its kind's mean (none when it has run longer).
    for (const auto& [kind, ran] : running)
    {
        work += std::max(0.0, mean(kind) - ran);
    }
    const size_t remaining = waiting.size() + running.size();
    estimate.seconds = work / static_cast<double>(std::max<size_t>(1, std::min(jobs, remaining)));
    return estimate;
}

} // namespace ns3
