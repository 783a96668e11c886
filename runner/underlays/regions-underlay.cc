// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * network = regions: access networks around regional routers joined by WAN links whose
 * latencies come from a matrix (six world regions built in).
 */
#include "ns3/random-variable-stream.h"
#include "region-model.h"
#include "routed-networks.h"

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

namespace
{

LatencyMatrix
ReadRegions(const ScenarioConfig& c)
{
    const std::string& source = c.GetString("regions.latency");
    LatencyMatrix all = source == "builtin" ? BuiltinRegionLatencies() : ReadLatencyMatrix(source);
    return FirstRegions(all, static_cast<uint32_t>(c.GetUint("regions.count", 0, 100000)));
}

} // namespace

UnderlayRegistration
RegionsUnderlay()
{
    UnderlayRegistration r;
    r.name = "regions";
    r.help = "access networks around regional routers joined by WAN links";
    r.keys = AccessLinkKeys();
    r.keys.insert(
        r.keys.end(),
        {
            AlgorithmKey::Path("regions.latency",
                               "builtin",
                               "network = regions: builtin (six world regions) or a CSV matrix of "
                               "one-way latencies in ms (square, symmetric, distinct names, zero "
                               "diagonal)",
                               {"builtin"}),
            AlgorithmKey::Text(
                "regions.count", "0", "network = regions: use the first this many regions; 0: all"),
            AlgorithmKey::Text(
                "regions.assign", "round-robin", "network = regions: round-robin, random or file"),
            AlgorithmKey::Path("regions.file", "", "CSV 'node,region' for regions.assign = file"),
            AlgorithmKey::Text(
                "regions.bandwidth", "1Gbps", "network = regions: WAN link rate, or unlimited"),
        });
    r.linkRoles = {"up", "down", "wan"};
    r.check = [](const ScenarioConfig& c, uint32_t learners)
    {
        CheckAccessModel(c, learners);
        LatencyMatrix regions = ReadRegions(c);
        RateOrUnlimited(c, "regions.bandwidth");
        const std::string& assign
            = c.GetChoice("regions.assign", {"round-robin", "random", "file"});
        if (assign == "file")
        {
            AssignRegions(assign, learners, regions, nullptr, c.GetString("regions.file"));
        }
    };
    r.create = [](const UnderlaySetup& s)
    {
        const ScenarioConfig& c = s.config;
        AccessModel access = AccessModelFor(s);
        LatencyMatrix regions = ReadRegions(c);
        Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
        rng->SetStream(s.stream + 203);
        std::vector<uint32_t> regionOf = AssignRegions(
            c.GetString("regions.assign"), s.learners, regions, rng, c.GetString("regions.file"));
        return MakeRoutedHelper(MakeRegionNetwork(access.Draw(s.learners),
                                                  regionOf,
                                                  regions,
                                                  RateOrUnlimited(c, "regions.bandwidth")),
                                s);
    };
    return r;
}

} // namespace ns3
