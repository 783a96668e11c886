// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * rounds.mode = sync: every round waits for every in-neighbour's message of that round.
 */
#include "round-policy.h"

namespace ns3
{

namespace
{

class SyncRoundPolicy : public RoundPolicy
{
  public:
    bool WaitsForEveryMessage() const override
    {
        return true;
    }

    bool Ready(uint32_t arrived, uint32_t expected, bool) const override
    {
        return arrived >= expected;
    }

    bool Lockstep() const override
    {
        return true;
    }

    std::string Describe() const override
    {
        return "synchronous rounds";
    }
};

} // namespace

RoundModeRegistration
SyncRounds()
{
    RoundModeRegistration r;
    r.name = "sync";
    r.help = "wait for every in-neighbour";
    r.create = [](const RoundPolicySettings&)
    {
        return std::make_unique<SyncRoundPolicy>();
    };
    return r;
}

} // namespace ns3
