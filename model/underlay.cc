// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "underlay.h"

#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-net-device.h"

namespace ns3
{

Ptr<NetDevice>
ReceiverOf(const UnderlayLink& link)
{
    // Only a point-to-point channel has one far end: a Wi-Fi channel of one station and one
    // access point has two devices too, but is a shared medium.
    Ptr<PointToPointChannel> channel = DynamicCast<PointToPointChannel>(link.device->GetChannel());
    if (!channel)
    {
        return nullptr;
    }
    return channel->GetDevice(0) == link.device ? channel->GetDevice(1) : channel->GetDevice(0);
}

} // namespace ns3
