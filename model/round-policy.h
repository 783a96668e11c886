// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Round modes (rounds.mode, LearnerApplication's RoundMode attribute): what a round waits for
 * and what follows from it, one RoundPolicy per mode, each a registration, so that a new mode is
 * its own file under model/round-modes/ plus one line in RoundModeRegistration::Builtins().
 */
#ifndef DLSIM_ROUND_POLICY_H
#define DLSIM_ROUND_POLICY_H

#include "ns3/nstime.h"
#include "registry.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Every decision of LearnerApplication that depends on the round mode. A learner asks its
 * policy; it never asks which mode it runs.
 */
class RoundPolicy
{
  public:
    virtual ~RoundPolicy() = default;

    /**
     * Whether every round aggregates only once every in-neighbour's message of that round has
     * arrived. Then no message is ever missing (nothing to stand in for it), a newer model never
     * replaces an unsent older one (a receiver waits for each), the last round is known in
     * advance, and TCP's per-packet DataSent is not needed.
     * \return whether rounds wait for every message
     */
    virtual bool WaitsForEveryMessage() const = 0;

    /**
     * \brief Whether the round is ready to aggregate.
     * \param arrived messages of this round
     * \param expected in-neighbours in this round
     * \param deadlinePassed whether this round's deadline has passed
     * \return whether to aggregate now
     */
    virtual bool Ready(uint32_t arrived, uint32_t expected, bool deadlinePassed) const = 0;

    /// \return how long after handing its own message to TCP a round aggregates whatever
    /// arrived (none: it waits as Ready says)
    virtual std::optional<Time> Deadline() const
    {
        return std::nullopt;
    }

    /**
     * Neighbours in lockstep: a message of a round already aggregated, or a lost connection,
     * means the run cannot be carried out (every message is awaited), and a neighbour closing
     * its connection after the run ended is expected.
     * \return whether neighbours go in lockstep
     */
    virtual bool Lockstep() const
    {
        return false;
    }

    /**
     * Whether an aggregation takes every message that arrived, whatever its round (no
     * lateness), rather than those of the current round (and late ones, as the inbox keeps
     * them).
     * \return whether an aggregation takes whatever arrived
     */
    virtual bool TakesWhateverArrived() const
    {
        return false;
    }

    /// \return the mode as messages name it, e.g. "synchronous rounds"
    virtual std::string Describe() const = 0;
};

/// What a round mode's policy is built from (LearnerApplication's attributes).
struct RoundPolicySettings
{
    Time timeout = Time::Max(); ///< RoundTimeout: how long after sending; Time::Max: none
};

/// One round mode: its name (rounds.mode), its keys and its policy.
struct RoundModeRegistration
{
    static constexpr const char* kKind = "round mode"; ///< what the registry's errors call it

    std::string name; ///< rounds.mode's value
    std::string help; ///< one line for `--help`
    /// Its scenario keys (with the LearnerApplication attributes they set).
    std::vector<dlsim::AlgorithmKey> keys;
    /// Learners run their rounds out of step, so that only a common clock (eval.interval)
    /// compares their models.
    bool outOfStep = false;
    /// Makes the policy from the application's settings.
    std::function<std::unique_ptr<RoundPolicy>(const RoundPolicySettings&)> create;

    /// \return dlsim's own round modes, in the order `--help` lists them
    static std::vector<RoundModeRegistration> Builtins();
};

/// The round modes by name: the built-ins and those registered by programs.
using RoundModeRegistry = dlsim::Registry<RoundModeRegistration>;

/// \return the keys deadline and wait-free rounds share (rounds.missing), declared once
const std::vector<dlsim::AlgorithmKey>& MissingMessageKeys();

} // namespace ns3

/// Register a round mode from a program's or test's own source file.
#define DLSIM_REGISTER_ROUND_MODE(function) DLSIM_REGISTER(ns3::RoundModeRegistration, function)

#endif // DLSIM_ROUND_POLICY_H
