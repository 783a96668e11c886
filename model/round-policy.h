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
 * Every decision of LearnerApplication that depends on the round mode. A learner asks its
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
     */
    virtual bool WaitsForEveryMessage() const = 0;

    /**
     * Whether the round is ready to aggregate: `arrived` messages of this round out of
     * `expected` in-neighbours, and whether this round's deadline has passed.
     */
    virtual bool Ready(uint32_t arrived, uint32_t expected, bool deadlinePassed) const = 0;

    /// How long after handing its own message to TCP a round aggregates whatever arrived.
    virtual std::optional<Time> Deadline() const
    {
        return std::nullopt;
    }

    /**
     * Neighbours in lockstep: a message of a round already aggregated, or a lost connection,
     * means the run cannot be carried out (every message is awaited), and a neighbour closing
     * its connection after the run ended is expected.
     */
    virtual bool Lockstep() const
    {
        return false;
    }

    /**
     * Whether an aggregation takes every message that arrived, whatever its round (no
     * lateness), rather than those of the current round (and late ones, as the inbox keeps
     * them).
     */
    virtual bool TakesWhateverArrived() const
    {
        return false;
    }

    /// The mode as messages name it, e.g. "synchronous rounds".
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
    static constexpr const char* kKind = "round mode";

    std::string name;
    std::string help; ///< one line for `--help`
    /// Its scenario keys (with the LearnerApplication attributes they set).
    std::vector<dlsim::AlgorithmKey> keys;
    /// Learners run their rounds out of step, so that only a common clock (eval.interval)
    /// compares their models.
    bool outOfStep = false;
    std::function<std::unique_ptr<RoundPolicy>(const RoundPolicySettings&)> create;

    /// dlsim's own round modes, in the order `--help` lists them.
    static std::vector<RoundModeRegistration> Builtins();
};

using RoundModeRegistry = dlsim::Registry<RoundModeRegistration>;

/// The keys deadline and wait-free rounds share (rounds.missing), declared once.
const std::vector<dlsim::AlgorithmKey>& MissingMessageKeys();

} // namespace ns3

/// Register a round mode from a program's or test's own source file.
#define DLSIM_REGISTER_ROUND_MODE(function) DLSIM_REGISTER(ns3::RoundModeRegistration, function)

#endif // DLSIM_ROUND_POLICY_H
