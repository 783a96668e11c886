// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The overlays a scenario chooses with `topology`: one registration each (its name, its keys and
 * the factory that draws it), as algorithms, underlays and round modes are registered, so that a
 * new topology is one registration in TopologyRegistration::Builtins() or one Register call in a
 * program, and `--help`, the key table and the checks of `topology` read the list from here.
 */
#ifndef DLSIM_OVERLAY_TOPOLOGIES_H
#define DLSIM_OVERLAY_TOPOLOGIES_H

#include "ns3/random-variable-stream.h"
#include "overlay-graph.h"
#include "registry.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/// What a topology's factory is given.
struct TopologySetup
{
    uint32_t nodes;                            ///< n: the learners
    const dlsim::RegisteredParameters& values; ///< the topology's keys, checked
    Ptr<UniformRandomVariable> rng;            ///< the stream a random graph draws from
};

/**
 * One overlay topology. `keys` are scenario keys as `--help` lists them ("topology.file"); two
 * topologies may share a key if they declare it identically (file and schedule share
 * topology.directed).
 */
struct TopologyRegistration
{
    static constexpr const char* kKind = "topology"; ///< what the registry's errors call it

    std::string name; ///< topology's value, e.g. "ring"
    std::string help; ///< one line for `--help`, e.g. "node i next to i+1 mod n"
    std::vector<dlsim::AlgorithmKey> keys; ///< its scenario keys, e.g. topology.file
    /// Draw the overlay; throws TopologyError when the setup cannot make one.
    std::function<OverlaySchedule(const TopologySetup&)> create;

    /// \return dlsim's own topologies, in the order `--help` lists them
    static std::vector<TopologyRegistration> Builtins();
};

/// The overlay topologies by name: dlsim's own and any a program registers.
using TopologyRegistry = dlsim::Registry<TopologyRegistration>;

/// What MakeTopology needs: the topology's name, n, and values of its keys.
struct TopologySpec
{
    std::string name = "random-regular";       ///< a TopologyRegistry name
    uint32_t nodes = 16;                       ///< n
    std::map<std::string, std::string> values; ///< its keys' values (unset: their defaults)
};

/**
 * \brief Draw the overlay `spec` names.
 * \param spec the topology's name, n and its keys' values
 * \param rng the stream random graphs draw from
 * \return the overlay
 * \throws TopologyError for an unknown name, a key it does not have, a value its key refuses
 * or a set-up the topology cannot make
 */
OverlaySchedule MakeTopology(const TopologySpec& spec, Ptr<UniformRandomVariable> rng);

} // namespace ns3

#endif // DLSIM_OVERLAY_TOPOLOGIES_H
