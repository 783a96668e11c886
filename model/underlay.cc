// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "underlay.h"

#include "ns3/channel.h"

namespace ns3
{

Ptr<NetDevice>
ReceiverOf(const UnderlayLink& link)
{
    Ptr<Channel> channel = link.device->GetChannel();
    if (!channel || channel->GetNDevices() != 2)
    {
        return nullptr;
    }
    return channel->GetDevice(0) == link.device ? channel->GetDevice(1) : channel->GetDevice(0);
}

} // namespace ns3
