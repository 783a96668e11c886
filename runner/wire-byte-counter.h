// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#ifndef DLSIM_WIRE_BYTE_COUNTER_H
#define DLSIM_WIRE_BYTE_COUNTER_H

#include "ns3/ipv4-header.h"
#include "ns3/node-container.h"
#include "ns3/packet.h"

#include <cstdint>

namespace ns3
{

/**
 * \brief Bytes of every IP packet the hosts originate (payload plus TCP/IP headers, ACKs and
 * retransmissions), counted where IP sends them, on any network (point-to-point, Wi-Fi, CSMA).
 *
 * The same count as FlowMonitor's txBytes of TCP and UDP flows, without a tag on, and a lookup
 * for, every packet. Packets a host forwards for others are not its own and are not counted.
 */
class WireByteCounter
{
  public:
    /**
     * \brief Count what these hosts send from now on.
     * \param hosts nodes with an IPv4 stack installed
     */
    void Install(const NodeContainer& hosts);

    /// \return the bytes counted so far, over every host
    double GetBytes() const;

  private:
    /// Ipv4L3Protocol's SendOutgoing trace: one packet a host originates.
    void Sent(const Ipv4Header& header, Ptr<const Packet> payload, uint32_t interface);

    uint64_t m_bytes = 0; ///< counted so far
};

} // namespace ns3

#endif // DLSIM_WIRE_BYTE_COUNTER_H
