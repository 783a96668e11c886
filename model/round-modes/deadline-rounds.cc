// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * rounds.mode = deadline: a round waits at most rounds.timeout after sending, then aggregates
 * what arrived; without a timeout it waits for every message, as sync rounds do.
 */
#include "round-policy.h"

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

namespace
{

class DeadlineRoundPolicy : public RoundPolicy
{
  public:
    explicit DeadlineRoundPolicy(Time timeout) : m_timeout(timeout) {}

    bool WaitsForEveryMessage() const override
    {
        return m_timeout == Time::Max();
    }

    bool Ready(uint32_t arrived, uint32_t expected, bool deadlinePassed) const override
    {
        return deadlinePassed || arrived >= expected;
    }

    std::optional<Time> Deadline() const override
    {
        if (m_timeout == Time::Max())
        {
            return std::nullopt;
        }
        return m_timeout;
    }

    std::string Describe() const override
    {
        return m_timeout == Time::Max() ? "deadline rounds without rounds.timeout"
                                        : "deadline rounds";
    }

  private:
    Time m_timeout;
};

} // namespace

RoundModeRegistration
DeadlineRounds()
{
    RoundModeRegistration r;
    r.name = "deadline";
    r.help = "wait at most rounds.timeout after sending";
    r.keys = {
        AlgorithmKey::Text("rounds.timeout",
                           "none",
                           "deadline rounds: simulated time to wait for in-neighbours after "
                           "sending, e.g. 500ms (none: for ever, as sync); other modes ignore "
                           "it, so that a grid can sweep the mode")
            .Sets({"ns3::LearnerApplication::RoundTimeout"}),
        AlgorithmKey::Text("rounds.late",
                           "drop",
                           "deadline rounds: a message of a round already aggregated is "
                           "dropped, or used as stale in the next aggregation (Sparse-Push, SCSP "
                           "and CHOCO-SGD always use it)")
            .Sets({"ns3::LearnerApplication::LateMessages"}),
    };
    const std::vector<AlgorithmKey>& missing = MissingMessageKeys();
    r.keys.insert(r.keys.end(), missing.begin(), missing.end());
    r.create = [](const RoundPolicySettings& s)
    {
        return std::make_unique<DeadlineRoundPolicy>(s.timeout);
    };
    return r;
}

} // namespace ns3
