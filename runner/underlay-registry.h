// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The underlays a scenario chooses with `network`: one registration each (its keys, the link
 * roles it builds, how its keys are checked and a factory of its UnderlayHelper), so that a new
 * underlay is its own file plus one line in UnderlayRegistration::Builtins().
 */
#ifndef DLSIM_UNDERLAY_REGISTRY_H
#define DLSIM_UNDERLAY_REGISTRY_H

#include "overlay-graph.h"
#include "registry.h"
#include "scenario-config.h"
#include "underlay-link-helper.h"
#include "underlay.h"

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/// What an underlay's factory is given to build its helper.
struct UnderlaySetup
{
    const ScenarioConfig& config; ///< the scenario (its keys already checked by `check`)
    uint32_t learners;            ///< learner i is learners.Get(i) of the helper's Install
    const OverlayGraph& overlay;  ///< who talks to whom (a helper may build only those paths)
    LinkBehaviour behaviour;      ///< queues, queue discipline, loss and MTU of every link
    /**
     * The ns-3 random streams of the underlay: what it draws itself from stream to stream +
     * kUnderlayStreams - 1 (the built-ins keep the offsets they always had, so that results stay
     * what they were: direct's links from stream, access links from stream + 200), its
     * helper's own (loss models, Wi-Fi devices) from stream + 1000 on, which the helper chains
     * by count as ns-3 helpers do. Cross traffic draws from stream + kUnderlayStreams.
     */
    int64_t stream;
    std::ostream* log; ///< steps that take more than a few seconds are reported here, if set
};

/// Streams reserved for an underlay from UnderlaySetup::stream on (cross traffic comes after).
constexpr int64_t kUnderlayStreams = 300;

/**
 * One underlay. `keys` are scenario keys as `--help` lists them ("access.up" is `up` in
 * section [access]); two underlays may share a key if they declare it identically.
 */
struct UnderlayRegistration
{
    static constexpr const char* kKind = "network";

    std::string name;
    std::string help; ///< one line for `--help`, e.g. "a dedicated link per overlay edge"
    std::vector<dlsim::AlgorithmKey> keys;
    /// Every role its links can have (the roles that trace.links and capture.* may name).
    std::vector<std::string> linkRoles;
    /// The roles the configured network will have (known before it is built); unset: linkRoles.
    std::function<std::vector<std::string>(const ScenarioConfig&)> roles;
    /**
     * Parse every key of the underlay and read its files, throwing ConfigValueError or
     * ScenarioError naming the key or file, so that errors show before the dataset loads.
     */
    std::function<void(const ScenarioConfig&, uint32_t learners)> check;
    /// The helper that builds the network.
    std::function<std::unique_ptr<UnderlayHelper>(const UnderlaySetup&)> create;

    /// dlsim's own underlays, in the order `--help` lists them.
    static std::vector<UnderlayRegistration> Builtins();
};

using UnderlayRegistry = dlsim::Registry<UnderlayRegistration>;

/// The roles `network` will have with scenario `c`.
std::vector<std::string> RolesOf(const UnderlayRegistration& network, const ScenarioConfig& c);

} // namespace ns3

/// Register an underlay from a program's or test's own source file.
#define DLSIM_REGISTER_UNDERLAY(function) DLSIM_REGISTER(ns3::UnderlayRegistration, function)

#endif // DLSIM_UNDERLAY_REGISTRY_H
