// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The flow model's event scheduling: when each active connection's next event is (its end,
 * its rest coming to fit its window, its next loss, its window's step), and the connections
 * ordered by it.
 */
#ifndef DLSIM_FLOW_EVENTS_H
#define DLSIM_FLOW_EVENTS_H

#include "flow-connection.h"
#include "flow-routes.h"
#include "indexed-min-heap.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <vector>

namespace ns3
{

namespace flow
{

/// \return when a connection's next event is, from now: its end, its rest coming to fit its
/// window, its next loss, its window's step (while that steps anything); Time::Max() if none
Time NextEvent(const FlowConnection& c, const FlowLinks& links);

} // namespace flow

/**
 * \brief The active connections by their next event (ties by id): an event visits the flows
 * whose event it is and those whose rates it changes, not every flow (a pass over all active
 * flows at every flow's end made a thousand learners' rounds quadratic).
 */
class FlowEventQueue
{
  public:
    /// \param connections the network's connections (their eventAt is kept here)
    explicit FlowEventQueue(std::vector<FlowConnection>& connections);

    /// A connection whose next event must be found again at the next Requeue.
    /// \param id the connection
    void Touch(uint32_t id);
    /// A connection that is no longer active: it has no next event.
    /// \param id the connection
    void Remove(uint32_t id);
    /**
     * \param now the time of this event
     * \return the connections whose event is due (eventAt at most now), taken out of the
     * queue (eventAt Time::Max()), in the order of their ids; valid until the next call
     */
    const std::vector<uint32_t>& TakeDue(Time now);
    /// The next events of the touched connections found again (RestFits as their sharing took
    /// it); the others' stay as they were.
    /// \param links the network's links (the connections' routes)
    void Requeue(const FlowLinks& links);
    /// \return whether no connection has a next event
    bool Empty() const;
    /// \return the earliest next event (not Empty)
    Time Next() const;

  private:
    std::vector<FlowConnection>& m_connections; ///< the network's connections
    IndexedMinHeap m_queue;          ///< the active connections by next event, ties by id
    std::vector<uint32_t> m_due;     ///< scratch of TakeDue
    std::vector<uint32_t> m_touched; ///< connections whose next event Requeue finds again
    std::vector<char> m_isTouched;   ///< by connection: in m_touched
};

} // namespace ns3

#endif // DLSIM_FLOW_EVENTS_H
