// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "flow-accounting.h"

#include "flow-window.h"
#include "ns3/simulator.h"

#include <cmath>

namespace ns3
{
namespace flow
{

void
BringTo(FlowConnection& c, FlowLinks& links, Time t)
{
    if (t <= c.broughtAt)
    {
        return; // never back: its bytes until then are counted
    }
    const double dt = (t - c.broughtAt).GetSeconds();
    c.broughtAt = t;
    if (!c.active)
    {
        return;
    }
    const double bytes = c.rate * dt;
    c.remaining -= bytes;
    c.sinceLossBytes += bytes;
    for (uint32_t l : c.links)
    {
        links[l].txBytes += DataWireBytes(bytes, c.segmentBytes);
        links[links[l].reverse].txBytes += AckWireBytes(bytes, c.segmentBytes);
    }
}

void
Bring(FlowConnection& c, FlowLinks& links, bool& cut)
{
    const Time now = Simulator::Now();
    while (c.active && !c.stalled && c.nextWindowStep < now)
    {
        BringTo(c, links, c.nextWindowStep);
        Step(c, links, cut);
    }
    BringTo(c, links, now);
}

void
Bring(FlowConnection& c, FlowLinks& links)
{
    bool cut = false;
    Bring(c, links, cut);
}

void
BringLoad(FlowLoad& load, FlowLinks& links)
{
    const Time now = Simulator::Now();
    links[load.link].txBytes += load.bitsPerSecond / 8.0 * (now - load.broughtAt).GetSeconds();
    load.broughtAt = now;
}

uint64_t
TxBytes(const FlowLinks& links,
        const std::vector<FlowConnection>& connections,
        const std::vector<FlowLoad>& loads,
        uint32_t l)
{
    // What the link holds, and what the flows over it (their segments) and over its other
    // direction (their ACKs) and its loads put on it since they were last brought up: counted,
    // not brought (bringing a flow steps its window; a look must not change the simulation).
    const Time now = Simulator::Now();
    double bytes = links[l].txBytes;
    for (uint32_t id : links[l].connections)
    {
        const FlowConnection& c = connections[id];
        bytes += DataWireBytes(c.rate * (now - c.broughtAt).GetSeconds(), c.segmentBytes);
    }
    for (uint32_t id : links[links[l].reverse].connections)
    {
        const FlowConnection& c = connections[id];
        bytes += AckWireBytes(c.rate * (now - c.broughtAt).GetSeconds(), c.segmentBytes);
    }
    for (const FlowLoad& load : loads)
    {
        if (load.link == l)
        {
            bytes += load.bitsPerSecond / 8.0 * (now - load.broughtAt).GetSeconds();
        }
    }
    return static_cast<uint64_t>(std::llround(bytes));
}

} // namespace flow
} // namespace ns3
