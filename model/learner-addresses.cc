// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "learner-addresses.h"

#include <stdexcept>
#include <string>

namespace ns3
{

LearnerAddresses::LearnerAddresses(std::vector<Ipv4Address> addresses)
    : m_addresses(std::move(addresses))
{}

LearnerAddresses::LearnerAddresses(const Ipv4InterfaceContainer& interfaces)
{
    for (uint32_t i = 0; i < interfaces.GetN(); ++i)
    {
        m_addresses.push_back(interfaces.GetAddress(i));
    }
}

void
LearnerAddresses::SetPairAddress(uint32_t learner, uint32_t neighbour, Ipv4Address address)
{
    m_pairs[{learner, neighbour}] = address;
}

Ipv4Address
LearnerAddresses::Get(uint32_t learner, uint32_t neighbour) const
{
    auto pair = m_pairs.find({learner, neighbour});
    if (pair != m_pairs.end())
    {
        return pair->second;
    }
    if (learner < m_addresses.size())
    {
        return m_addresses[learner];
    }
    throw std::out_of_range("no address for learner " + std::to_string(learner)
                            + " as seen from learner " + std::to_string(neighbour));
}

uint32_t
LearnerAddresses::GetN() const
{
    return static_cast<uint32_t>(m_addresses.size());
}

} // namespace ns3
