// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "flow-sharing.h"

#include "flow-window.h"

#include <algorithm>
#include <functional>

namespace ns3
{

namespace
{

/// `byLink` holds `links` entries, 0 on the links of `component` (the others keep theirs).
void
ZeroOn(std::vector<double>& byLink, size_t links, const std::vector<uint32_t>& component)
{
    byLink.resize(links);
    for (uint32_t l : component)
    {
        byLink[l] = 0.0;
    }
}

} // namespace

FlowSharing::FlowSharing(FlowLinks& links, std::vector<FlowConnection>& connections)
    : m_links(links), m_connections(connections)
{}

void
FlowSharing::AddLink()
{
    m_marked.push_back(0);
    m_inComponent.push_back(0);
}

void
FlowSharing::MarkLink(uint32_t link)
{
    if (!m_marked[link])
    {
        m_marked[link] = 1;
        m_changed.push_back(link);
    }
}

void
FlowSharing::Mark(uint32_t id)
{
    // Its ACKs take from its links' other directions: their flows' shares change with it.
    for (uint32_t l : m_connections[id].links)
    {
        MarkLink(l);
        MarkLink(m_links[l].reverse);
    }
}

void
FlowSharing::Component(std::vector<uint32_t>& links, std::vector<uint32_t>& flows)
{
    // The scratch for the links and connections made since the last sharing.
    m_left.resize(m_links.GetN());
    m_weights.resize(m_links.GetN());
    m_count.resize(m_links.GetN());
    m_capacity.resize(m_links.GetN());
    m_fixed.resize(m_connections.size(), 1);
    m_flowInComponent.resize(m_connections.size(), 0);
    // Max-min sharing falls apart into the groups of flows that share links, ACKs included (a
    // flow's ACKs take from its links' other directions): only the groups of the links that
    // changed need sharing again, the same rates to the last bit, at a fraction of the cost.
    auto reach = [&](uint32_t l)
    {
        if (!m_inComponent[l])
        {
            m_inComponent[l] = 1;
            links.push_back(l);
        }
    };
    for (uint32_t l : m_changed)
    {
        m_marked[l] = 0;
        reach(l);
    }
    m_changed.clear();
    // Breadth first: `links` grows as flows bring their links in.
    for (size_t next = 0; next < links.size(); ++next)
    {
        for (uint32_t id : m_links[links[next]].connections)
        {
            if (m_flowInComponent[id])
            {
                continue;
            }
            m_flowInComponent[id] = 1;
            flows.push_back(id);
            for (uint32_t l : m_connections[id].links)
            {
                reach(l);
                reach(m_links[l].reverse);
            }
        }
    }
    for (uint32_t l : links)
    {
        m_inComponent[l] = 0;
    }
    for (uint32_t id : flows)
    {
        m_flowInComponent[id] = 0;
    }
    // The order the whole network's sharing took them in: the same arithmetic.
    std::sort(links.begin(), links.end());
    std::sort(flows.begin(), flows.end());
}

void
FlowSharing::Share(const std::vector<uint32_t>& component, const std::vector<uint32_t>& flows)
{
    DelayAcks(component, flows);
    std::vector<double>& capacity = m_capacity;
    for (uint32_t l : component)
    {
        // A load's packets go first: UDP does not back off, so TCP gets what it leaves.
        const FlowLink& link = m_links[l];
        capacity[l] = link.payloadBytesPerSecond
                      * std::max(0.0, 1.0 - link.loadBitsPerSecond / link.bitsPerSecond);
    }
    Fill(component, flows, capacity);
    for (uint32_t id : flows)
    {
        const FlowConnection& c = m_connections[id];
        if (c.active)
        {
            for (uint32_t l : c.links)
            {
                capacity[m_links[l].reverse] -= c.rate * flow::kAckBytesPerSegment / c.segmentBytes;
            }
        }
    }
    for (uint32_t l : component)
    {
        capacity[l] = std::max(0.0, capacity[l]);
    }
    Fill(component, flows, capacity);
    CheckOverflow(component, flows);
}

void
FlowSharing::Fill(const std::vector<uint32_t>& component,
                  const std::vector<uint32_t>& flows,
                  const std::vector<double>& capacity)
{
    // Weighted max-min fairness by progressive filling: TCP flows sharing a bottleneck get
    // rates inversely proportional to their round-trip times; a window caps its flow. The most
    // constrained link (smallest capacity left per unit of weight) or window is fixed first;
    // heaps keep that O((flows x hops + links) log) per filling, for hundreds of flows.
    std::vector<double>& left = m_left;
    std::vector<double>& weights = m_weights;
    std::vector<uint32_t>& count = m_count; // unfixed flows: weights may keep a rounding
    std::vector<char>& fixed = m_fixed;     // 1 outside `flows`, and for stalled flows
    for (uint32_t l : component)
    {
        left[l] = capacity[l];
        weights[l] = 0.0;
        count[l] = 0;
    }
    // The flows by window rate, a min-heap in a vector the network keeps (an event fills again,
    // and fresh heaps cost allocations every time).
    std::vector<FillEntry>& windows = m_windowHeap;
    windows.clear();
    const auto later = std::greater<FillEntry>();
    size_t unfixed = 0;
    for (uint32_t id : flows)
    {
        const FlowConnection& c = m_connections[id];
        if (c.active && !c.stalled)
        {
            fixed[id] = 0;
            ++unfixed;
            windows.emplace_back(flow::WindowRate(c) * c.rttSeconds, id);
            for (uint32_t l : c.links)
            {
                weights[l] += 1.0 / c.rttSeconds;
                ++count[l];
            }
        }
    }
    std::make_heap(windows.begin(), windows.end(), later);
    // The links by share per unit of weight (ties by id), an indexed min-heap: fixing a flow
    // moves each of its links in place, so the heap holds every link once, however many flows
    // cross it (a core link crossed by hundreds of flows would otherwise gather an entry per
    // flow fixed).
    IndexedMinHeap& heap = m_linkHeap;
    heap.Clear();
    heap.Reserve(m_links.GetN());
    auto before = [&](uint32_t a, uint32_t b)
    {
        const double ka = left[a] / weights[a];
        const double kb = left[b] / weights[b];
        return ka < kb || (ka == kb && a < b);
    };
    for (uint32_t l : component)
    {
        if (count[l] > 0)
        {
            heap.Push(l, before);
        }
    }
    auto fix = [&](uint32_t id, double perWeight)
    {
        FlowConnection& c = m_connections[id];
        fixed[id] = 1;
        --unfixed;
        c.rate = std::max(0.0, perWeight) / c.rttSeconds;
        for (uint32_t l : c.links)
        {
            left[l] -= c.rate;
            weights[l] -= 1.0 / c.rttSeconds;
            --count[l];
            if (!heap.Contains(l))
            {
                continue; // the bottleneck being fixed
            }
            if (count[l] == 0)
            {
                heap.Erase(l, before);
            }
            else
            {
                heap.Update(l, before);
            }
        }
    };
    while (unfixed > 0)
    {
        while (!windows.empty() && fixed[windows.front().second])
        {
            std::pop_heap(windows.begin(), windows.end(), later);
            windows.pop_back();
        }
        const bool byWindow
            = !windows.empty()
              && (heap.Empty() || windows.front().first < left[heap.Top()] / weights[heap.Top()]);
        if (byWindow)
        {
            const FillEntry top = windows.front();
            std::pop_heap(windows.begin(), windows.end(), later);
            windows.pop_back();
            fix(top.second, top.first);
            continue;
        }
        const uint32_t l = heap.Top();
        const double share = left[l] / weights[l];
        heap.Erase(l, before);
        // Every unfixed flow over the bottleneck gets its weighted share.
        for (uint32_t id : m_links[l].connections)
        {
            if (!fixed[id])
            {
                fix(id, share);
            }
        }
    }
}

void
FlowSharing::DelayAcks(const std::vector<uint32_t>& component, const std::vector<uint32_t>& flows)
{
    // TCP's ACKs wait in the queues of their route's other direction, behind that direction's
    // data. Connections sending both ways at once fall into step (Zhang, Shenker and Clark 1991,
    // "ACK compression"): each sends its window as one burst into its slowest link's queue, the
    // ACKs that queue behind it leave only after it, all together, and one latency later
    // release the next burst. A round trip is then the bursts ahead of its ACKs plus one way's
    // latency, not the latency both ways: a direction of a link is busy for W/C of every
    // W/C + latency, and stays short of its rate while the windows grow. The wait, per link
    // the ACKs cross: the windows queued there (of the flows it is the slowest link of, at most
    // the queue's capacity), less the latency they overlap with.
    ZeroOn(m_burst, m_links.GetN(), component);
    for (uint32_t id : flows)
    {
        const FlowConnection& c = m_connections[id];
        if (c.active && !c.stalled)
        {
            m_burst[c.bottleneckLink] += flow::Window(c) / c.bottleneck;
        }
    }
    for (uint32_t id : flows)
    {
        FlowConnection& c = m_connections[id];
        c.ackDelaySeconds = 0.0;
        for (uint32_t l : c.links)
        {
            const uint32_t back = m_links[l].reverse;
            c.ackDelaySeconds += std::max(
                0.0, std::min(m_burst[back], m_links[back].standingSeconds) - c.propagationSeconds);
        }
    }
}

void
FlowSharing::CheckOverflow(const std::vector<uint32_t>& component,
                           const std::vector<uint32_t>& flows)
{
    // A window beyond what its flow's rate keeps in flight over its round trip waits in a
    // queue; over packets the bursts of the windows that share a link's queue do not fit it
    // once those excesses exceed it, and segments drop.
    ZeroOn(m_queued, m_links.GetN(), component);
    for (uint32_t id : flows)
    {
        const FlowConnection& c = m_connections[id];
        if (c.active && !c.stalled)
        {
            const double excess = std::max(0.0, flow::Window(c) - c.rate * c.rttSeconds);
            for (uint32_t l : c.links)
            {
                m_queued[l] += excess;
            }
        }
    }
    for (uint32_t l : component)
    {
        FlowLink& link = m_links[l];
        const bool overflowing = m_queued[l] > link.queue.bytes;
        if (overflowing && !link.overflowing)
        {
            ++link.overflows;
        }
        link.overflowing = overflowing;
    }
}

} // namespace ns3
