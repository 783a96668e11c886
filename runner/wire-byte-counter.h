// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#ifndef DLSIM_WIRE_BYTE_COUNTER_H
#define DLSIM_WIRE_BYTE_COUNTER_H

#include "network-model.h"
#include "ns3/ipv4-header.h"
#include "ns3/node-container.h"
#include "ns3/packet.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \brief Bytes of every IP packet the hosts originate (payload plus TCP/IP headers, ACKs and
 * retransmissions), counted where IP sends them, on any network (point-to-point, Wi-Fi, CSMA).
 *
 * The same count as FlowMonitor's txBytes of TCP and UDP flows, without a tag on, and a lookup
 * for, every packet. Packets a host forwards for others are not its own and are not counted.
 *
 * Over a network model that moves no packets (network.model = flow) no IP packet is sent: the
 * count is then what the model carried over the hosts' own devices (NetworkModel::GetCarried:
 * the flows' data with every segment's TCP, IP and PPP headers, and their ACKs), the same bytes
 * but for the 2-byte PPP headers and connection set-up and tear-down, which flows do not have.
 */
class WireByteCounter
{
  public:
    /**
     * \brief Count what these hosts send from now on.
     * \param hosts nodes with an IPv4 stack installed
     * \param network the simulation's network model (null: packets)
     */
    void Install(const NodeContainer& hosts, Ptr<NetworkModel> network = nullptr);

    /// \return the bytes counted so far, over every host
    double GetBytes() const;

  private:
    /// Ipv4L3Protocol's SendOutgoing trace: one packet a host originates.
    void Sent(const Ipv4Header& header, Ptr<const Packet> payload, uint32_t interface);

    uint64_t m_bytes = 0;                      ///< counted so far (packets)
    Ptr<NetworkModel> m_network;               ///< a model that moves no packets, or null
    std::vector<Ptr<NetDevice>> m_hostDevices; ///< the hosts' devices, read from m_network
};

} // namespace ns3

#endif // DLSIM_WIRE_BYTE_COUNTER_H
