// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "overlay-topologies.h"

#include "value-text.h"

#include <stdexcept>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

namespace
{

AlgorithmKey
DirectedKey()
{
    return AlgorithmKey::Bool(
        "topology.directed", "false", "read topology.file / topology.schedule as directed edges");
}

AlgorithmKey
PeriodKey()
{
    return AlgorithmKey::WholeNumber(
        "topology.period", "1", 1, UINT32_MAX, "rounds per phase of a time-varying topology");
}

/// One phase per edge-list file; a single file must connect every node by itself.
OverlaySchedule
EdgeListSchedule(const TopologySetup& setup,
                 const std::vector<std::string>& files,
                 uint32_t period,
                 bool single)
{
    const bool directed = setup.values.GetBool("topology.directed");
    std::vector<OverlayGraph> phases;
    for (const auto& file : files)
    {
        phases.push_back(ReadEdgeListGraph(file, setup.nodes, directed, single));
    }
    OverlaySchedule schedule(phases, period);
    if (!schedule.Union().IsConnected())
    {
        throw TopologyError("the edge lists of topology.schedule together do not connect all "
                            + std::to_string(setup.nodes) + " nodes");
    }
    return schedule;
}

/// A topology that is one fixed graph of n.
TopologyRegistration
FixedGraph(const std::string& name, const std::string& help, OverlayGraph (*make)(uint32_t nodes))
{
    return {name,
            help,
            {},
            [make](const TopologySetup& s)
            {
                return OverlaySchedule(make(s.nodes));
            }};
}

} // namespace

std::vector<TopologyRegistration>
TopologyRegistration::Builtins()
{
    return {
        {"random-regular",
         "a connected random graph where every node has `degree` neighbours",
         {AlgorithmKey::WholeNumber(
             "degree", "4", 1, 100000, "degree of the random-regular topology")},
         [](const TopologySetup& s)
         {
             return OverlaySchedule(MakeRandomRegularGraph(
                 s.nodes, static_cast<uint32_t>(s.values.GetUint("degree")), s.rng));
         }},
        FixedGraph("ring", "node i next to i+1 mod n", MakeRingGraph),
        FixedGraph("directed-ring", "node i sends to i+1 mod n", MakeDirectedRingGraph),
        FixedGraph("complete", "every node next to every other", MakeCompleteGraph),
        FixedGraph(
            "directed-exponential", "node r sends to r + 2^i mod n", MakeDirectedExponentialGraph),
        {"time-varying-exponential",
         "one exponential-graph peer per phase, in turn",
         {PeriodKey()},
         [](const TopologySetup& s)
         {
             return MakeTimeVaryingExponentialSchedule(
                 s.nodes, static_cast<uint32_t>(s.values.GetUint("topology.period")));
         }},
        {"file",
         "one edge-list file",
         {AlgorithmKey::Path(
              "topology.file", "", "edge-list file (lines 'u v') for topology = file"),
          DirectedKey()},
         [](const TopologySetup& s)
         {
             const std::string& file = s.values.GetString("topology.file");
             if (file.empty())
             {
                 throw TopologyError("topology = file needs one edge-list file in topology.file");
             }
             return EdgeListSchedule(s, {file}, 1, true);
         }},
        {"schedule",
         "edge-list files, one phase each, in turn",
         {AlgorithmKey::Path("topology.schedule",
                             "[]",
                             "edge-list files, one per phase, for topology = schedule",
                             {"[]"}),
          DirectedKey(),
          PeriodKey()},
         [](const TopologySetup& s)
         {
             std::vector<std::string> files;
             const std::string problem = SplitList(s.values.GetString("topology.schedule"), files);
             if (!problem.empty())
             {
                 throw TopologyError("topology.schedule: " + problem);
             }
             if (files.empty())
             {
                 throw TopologyError(
                     "topology = schedule needs edge-list files in topology.schedule");
             }
             return EdgeListSchedule(
                 s, files, static_cast<uint32_t>(s.values.GetUint("topology.period")), false);
         }},
    };
}

OverlaySchedule
MakeTopology(const TopologySpec& spec, Ptr<UniformRandomVariable> rng)
{
    const TopologyRegistration* topology = TopologyRegistry::Find(spec.name);
    if (!topology)
    {
        throw TopologyError("unknown topology '" + ShownText(spec.name)
                            + "' (known: " + JoinNames(TopologyRegistry::Names()) + ")");
    }
    try
    {
        const RegisteredParameters values = TopologyRegistry::Parameters(spec.name, spec.values);
        return topology->create({spec.nodes, values, rng});
    }
    catch (const std::invalid_argument& e)
    {
        throw TopologyError(e.what());
    }
}

} // namespace ns3
