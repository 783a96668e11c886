// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Where each learner is reached by its overlay neighbours.
 */
#ifndef DLSIM_LEARNER_ADDRESSES_H
#define DLSIM_LEARNER_ADDRESSES_H

#include "ns3/ipv4-address.h"
#include "ns3/ipv4-interface-container.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * The IPv4 address at which learner i is reached, for every learner: one address per learner
 * (a host on any routed network: a LAN, Wi-Fi, an access network), optionally refined per
 * neighbour (with one dedicated link per overlay edge, learner i has a different address on
 * each of its links, and neighbour j must use the one on the i-j link).
 */
class LearnerAddresses
{
  public:
    /// No addresses (pair addresses only, or filled in later).
    LearnerAddresses() = default;
    /// \param addresses learner i is reached at addresses[i]
    explicit LearnerAddresses(std::vector<Ipv4Address> addresses);
    /// \param interfaces learner i is reached at interfaces.GetAddress(i): what
    /// Ipv4AddressHelper::Assign returns
    explicit LearnerAddresses(const Ipv4InterfaceContainer& interfaces);

    /**
     * \brief Learner `learner` is reached by `neighbour` at `address` (overrides the
     * per-learner one).
     * \param learner the learner reached
     * \param neighbour the learner that sends to it
     * \param address the address to use
     */
    void SetPairAddress(uint32_t learner, uint32_t neighbour, Ipv4Address address);

    /**
     * \param learner the learner reached
     * \param neighbour the learner that sends to it
     * \return where `neighbour` reaches `learner`
     * \throws std::out_of_range when nothing is known
     */
    Ipv4Address Get(uint32_t learner, uint32_t neighbour) const;

    /// \return the number of learners with a per-learner address (pair-only addressing: 0)
    uint32_t GetN() const;

  private:
    std::vector<Ipv4Address> m_addresses;
    std::map<std::pair<uint32_t, uint32_t>, Ipv4Address> m_pairs;
};

} // namespace ns3

#endif // DLSIM_LEARNER_ADDRESSES_H
