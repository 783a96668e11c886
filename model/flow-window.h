// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The flow model's TCP window dynamics: slow start (Linux's HyStart and slow start after
 * idle), CUBIC, loss events, the window's step once a round trip, and a first window's
 * overflow of a drop-tail queue.
 */
#ifndef DLSIM_FLOW_WINDOW_H
#define DLSIM_FLOW_WINDOW_H

#include "flow-connection.h"
#include "flow-routes.h"

#include <cstdint>

namespace ns3
{
namespace flow
{

/// \return a connection's window as it limits the sender (the send buffer bounds it)
double Window(const FlowConnection& c);

/// \return whether the rest of a connection's head message fits in its window
bool RestFits(const FlowConnection& c);

/// \return a connection's round trip with its ACKs' wait behind the other direction's data
double RoundTrip(const FlowConnection& c);

/// \return the rate a connection's window allows (infinity where the rest fits in it)
double WindowRate(const FlowConnection& c);

/// \return whether a connection's window grows at its next step: below its send buffer, it
/// limits the flow (as Linux grows only a window that limits)
bool WindowGrows(const FlowConnection& c);

/// One round trip's growth of a connection's window that sent `sentBytes` in it: in slow
/// start by what was sent (doubling a full window), else CUBIC's (while it limits).
void GrowWindow(FlowConnection& c, double sentBytes);

/// A loss event: the window is cut (CUBIC's beta) and slow start ends.
void LoseOnce(FlowConnection& c);

/**
 * Linux's HyStart at a window step: whether slow start ends here (and the window it ends at).
 * \param c the connection
 * \param links the network's links (their rates and flows: the ACK train's spacing)
 */
bool LeaveSlowStart(FlowConnection& c, const FlowLinks& links);

/**
 * \param c an active connection
 * \param links the network's links
 * \return whether part of its window waits in a queue on its route that the windows there
 * overflow (FlowSharing's CheckOverflow)
 */
bool Overflows(const FlowConnection& c, const FlowLinks& links);

/**
 * One round trip's window step of a connection (at its time): a cut where its window waits
 * over an overflowing queue (once an event: `cut`), else growth while its window limits it.
 */
void Step(FlowConnection& c, const FlowLinks& links, bool& cut);

/**
 * \param c a connection whose message starts from idle, now
 * \param links the network's links (its first link's overflows are counted)
 * \return whether its first window meets a queue that times it out: the first windows ahead
 * of it fill its first link's drop-tail queue, or take longer to send than its retransmission
 * timeout leaves beyond its round trip; it then waits that timeout (TCP's go-back after a
 * timeout, which the packet level does not undo), else a tail dropped cuts its window
 */
bool FirstWindowTimesOut(FlowConnection& c, FlowLinks& links);

/**
 * Linux's slow start after idle, as a connection's next message starts: the window halves
 * for every RTO without sending, CUBIC's epoch moves on by the idle time.
 * Nothing for a connection that has not sent yet.
 * \param c the connection
 * \param id its id (for the log)
 */
void RestartAfterIdle(FlowConnection& c, uint32_t id);

} // namespace flow
} // namespace ns3

#endif // DLSIM_FLOW_WINDOW_H
