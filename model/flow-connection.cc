// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "flow-connection.h"

#include "flow-routes.h"
#include "flow-window.h"

#include <limits>

namespace ns3
{
namespace flow
{

void
Restart(FlowConnection& c)
{
    c.established = false;
    c.readyAt = Time::Max();
    c.windowBytes = c.initialWindowBytes;
    c.ssthreshBytes = std::numeric_limits<double>::infinity();
    c.windowMaxBytes = 0.0;
    c.fromHystart = false;
    c.hystartFound = false;
    c.lastSent = Time::Min();
    c.sinceLossBytes = 0.0;
}

bool
Blocked(const FlowConnection& c, const FlowLinks& links)
{
    for (uint32_t l : c.links)
    {
        if (links[l].down || links[links[l].reverse].down)
        {
            return true;
        }
    }
    return false;
}

double
StallTimeout(const FlowConnection& c, const FlowLinks& links)
{
    // A flow held back by a link, not by its window, has filled that link's queue as TCP
    // does: its RTT estimate, and so its timeout, includes the standing queue (the slowest
    // link's, where a flow alone is held back).
    const bool linkLimited = c.rate < WindowRate(c) * (1.0 - 1e-9);
    return c.rtoSeconds + (linkLimited ? links[c.bottleneckLink].standingSeconds : 0.0);
}

} // namespace flow
} // namespace ns3
