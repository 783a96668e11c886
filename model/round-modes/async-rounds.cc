// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * rounds.mode = async: a round never waits; it aggregates whatever arrived since the last.
 */
#include "round-policy.h"

namespace ns3
{

namespace
{

class AsyncRoundPolicy : public RoundPolicy
{
  public:
    bool WaitsForEveryMessage() const override
    {
        return false;
    }

    bool Ready(uint32_t, uint32_t, bool) const override
    {
        return true;
    }

    bool TakesWhateverArrived() const override
    {
        return true;
    }

    std::string Describe() const override
    {
        return "wait-free rounds";
    }
};

} // namespace

RoundModeRegistration
AsyncRounds()
{
    RoundModeRegistration r;
    r.name = "async";
    r.help = "never wait: aggregate whatever arrived";
    r.keys = MissingMessageKeys();
    r.outOfStep = true;
    r.create = [](const RoundPolicySettings&)
    {
        return std::make_unique<AsyncRoundPolicy>();
    };
    return r;
}

} // namespace ns3
