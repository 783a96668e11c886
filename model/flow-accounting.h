// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The flow model's byte counting: a flow's bytes brought to a time at its rate (its message's
 * rest, its bytes since a loss, its links' wire bytes with headers and ACKs), a load's bits,
 * and a link direction's bytes so far without changing the simulation.
 */
#ifndef DLSIM_FLOW_ACCOUNTING_H
#define DLSIM_FLOW_ACCOUNTING_H

#include "flow-connection.h"
#include "flow-routes.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/// A load on one link direction (UDP cross traffic).
struct FlowLoad
{
    uint32_t link = 0;          ///< the link direction it loads
    double bitsPerSecond = 0.0; ///< its rate on the wire now
    Time broughtAt;             ///< its link's txBytes hold its bits until then
};

namespace flow
{

/// Bring a connection's bytes (only) to time `t`, at its rate.
void BringTo(FlowConnection& c, FlowLinks& links, Time t);

/**
 * Bring a connection's bytes to now at its rate (its remaining bytes, the bytes since its last
 * loss, its links' txBytes), with the window steps that came before now on the way: nothing
 * that decides a step (rate, window, round trip, the queues' overflow) changed since it was
 * last brought, as any change brings it first.
 * \param c the connection
 * \param links the network's links
 * \param cut whether its window was cut at a step of this event (a cut comes once an event)
 */
void Bring(FlowConnection& c, FlowLinks& links, bool& cut);

/// Bring a connection to now (Bring) outside a flow event: no cut at its steps yet.
void Bring(FlowConnection& c, FlowLinks& links);

/// Bring a load's bits on its link to now.
void BringLoad(FlowLoad& load, FlowLinks& links);

/**
 * \return the bytes the flows and loads have put on link direction `l` so far, counted up to
 * now but not brought (bringing a flow steps its window; a look must not change the simulation)
 */
uint64_t TxBytes(const FlowLinks& links,
                 const std::vector<FlowConnection>& connections,
                 const std::vector<FlowLoad>& loads,
                 uint32_t l);

} // namespace flow
} // namespace ns3

#endif // DLSIM_FLOW_ACCOUNTING_H
