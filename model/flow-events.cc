// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "flow-events.h"

#include "flow-window.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

namespace
{

/// Beyond this (a century), a flow's next event is none: the clock's nanoseconds end at 292 years.
constexpr double kNoEventSeconds = 3.2e9;

/// \return the queue's order: by next event, ties by id (a pass over the flows' order)
auto
EventOrder(const std::vector<FlowConnection>& connections)
{
    return [&connections](uint32_t a, uint32_t b)
    {
        const Time& ta = connections[a].eventAt;
        const Time& tb = connections[b].eventAt;
        return ta < tb || (ta == tb && a < b);
    };
}

} // namespace

namespace flow
{

Time
NextEvent(const FlowConnection& c, const FlowLinks& links)
{
    // A flow's end, the rest of its message coming to fit its window (from then the window does
    // not hold it back), its next loss, or a window's step while it grows (a window over an
    // overflowing queue is cut at its next step).
    double next = std::numeric_limits<double>::infinity();
    if (c.rate > 0.0)
    {
        next = std::max(0.0, c.remaining) / c.rate;
        if (c.remaining > Window(c))
        {
            next = std::min(next, (c.remaining - Window(c)) / c.rate);
        }
        if (std::isfinite(c.lossSpacingBytes))
        {
            next = std::min(next, std::max(0.0, c.lossSpacingBytes - c.sinceLossBytes) / c.rate);
        }
    }
    const Time now = Simulator::Now();
    // Rounded up to the clock's step: at the event the flow has sent its last byte. A rate left
    // from rounding (bytes a century) has no event: its nanoseconds would overflow the clock.
    Time at = next < kNoEventSeconds
                  ? now + NanoSeconds(static_cast<int64_t>(std::ceil(next * 1e9)))
                  : Time::Max();
    if (WindowGrows(c) || Overflows(c, links))
    {
        at = std::min(at, std::max(now, c.nextWindowStep)); // a step due comes now
    }
    return at;
}

} // namespace flow

FlowEventQueue::FlowEventQueue(std::vector<FlowConnection>& connections)
    : m_connections(connections)
{}

void
FlowEventQueue::Touch(uint32_t id)
{
    if (m_isTouched.size() < m_connections.size())
    {
        m_isTouched.resize(m_connections.size(), 0);
    }
    if (!m_isTouched[id])
    {
        m_isTouched[id] = 1;
        m_touched.push_back(id);
    }
}

void
FlowEventQueue::Remove(uint32_t id)
{
    if (m_queue.Contains(id))
    {
        m_queue.Erase(id, EventOrder(m_connections));
    }
    m_connections[id].eventAt = Time::Max();
}

const std::vector<uint32_t>&
FlowEventQueue::TakeDue(Time now)
{
    // The flows whose event this is, in the order of their ids (a pass over the flows').
    m_due.clear();
    const auto order = EventOrder(m_connections);
    while (!m_queue.Empty() && m_connections[m_queue.Top()].eventAt <= now)
    {
        const uint32_t id = m_queue.Top();
        m_queue.Erase(id, order);
        m_connections[id].eventAt = Time::Max();
        m_due.push_back(id);
    }
    std::sort(m_due.begin(), m_due.end());
    return m_due;
}

void
FlowEventQueue::Requeue(const FlowLinks& links)
{
    // The next events of the flows this event changed or was for; the others' stay as they
    // were (their rates, windows and round trips did not change, and their bytes go on as
    // reckoned).
    m_queue.Reserve(m_connections.size());
    const auto order = EventOrder(m_connections);
    for (uint32_t id : m_touched)
    {
        m_isTouched[id] = 0;
        FlowConnection& c = m_connections[id];
        // The flows whose rates were found again (RestFits as their sharing took it).
        c.restFits = c.active && flow::RestFits(c);
        c.eventAt = c.active && !c.stalled ? flow::NextEvent(c, links) : Time::Max();
        const bool queued = m_queue.Contains(id);
        if (c.eventAt == Time::Max())
        {
            if (queued)
            {
                m_queue.Erase(id, order);
            }
        }
        else if (queued)
        {
            m_queue.Update(id, order);
        }
        else
        {
            m_queue.Push(id, order);
        }
    }
    m_touched.clear();
}

bool
FlowEventQueue::Empty() const
{
    return m_queue.Empty();
}

Time
FlowEventQueue::Next() const
{
    return m_connections[m_queue.Top()].eventAt;
}
} // namespace ns3
