// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "wire-byte-counter.h"

#include "ns3/ipv4-l3-protocol.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/udp-l4-protocol.h"

namespace ns3
{

void
WireByteCounter::Install(const NodeContainer& hosts, Ptr<NetworkModel> network)
{
    if (network && !network->MovesPackets())
    {
        m_network = network;
        for (uint32_t i = 0; i < hosts.GetN(); ++i)
        {
            for (uint32_t d = 0; d < hosts.Get(i)->GetNDevices(); ++d)
            {
                m_hostDevices.push_back(hosts.Get(i)->GetDevice(d));
            }
        }
        return;
    }
    for (uint32_t i = 0; i < hosts.GetN(); ++i)
    {
        hosts.Get(i)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "SendOutgoing", MakeCallback(&WireByteCounter::Sent, this));
    }
}

double
WireByteCounter::GetBytes() const
{
    if (m_network)
    {
        uint64_t carried = 0;
        for (const Ptr<NetDevice>& device : m_hostDevices)
        {
            carried += m_network->GetCarried(device).txBytes;
        }
        return static_cast<double>(carried);
    }
    return static_cast<double>(m_bytes);
}

void
WireByteCounter::Sent(const Ipv4Header& header, Ptr<const Packet> payload, uint32_t /* interface */)
{
    const uint8_t protocol = header.GetProtocol();
    if (header.GetDestination() == Ipv4Address::GetBroadcast() || header.GetFragmentOffset() > 0
        || (protocol != TcpL4Protocol::PROT_NUMBER && protocol != UdpL4Protocol::PROT_NUMBER))
    {
        return; // what FlowMonitor's classifier leaves out
    }
    m_bytes += payload->GetSize() + header.GetSerializedSize();
}

} // namespace ns3
