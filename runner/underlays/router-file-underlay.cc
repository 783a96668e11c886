// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * network = file: a router-level topology from a file (Inet, Orbis or Rocketfuel weights),
 * every learner behind an access link to a router.
 */
#include "ns3/random-variable-stream.h"
#include "random-variable-spec.h"
#include "routed-networks.h"
#include "router-topology-reader.h"

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

namespace
{

/// The router-level topology of network = file, its links given underlay.bandwidth/latency.
RouterNetwork
ReadRouterFile(const ScenarioConfig& c)
{
    if (c.GetString("underlay.file").empty())
    {
        throw ConfigValueError("network = file needs underlay.file");
    }
    RouterNetwork net
        = ReadRouterTopology(c.GetString("underlay.file"),
                             c.GetChoice("underlay.format", {"inet", "orbis", "rocketfuel"}));
    const double bps = ParseDataRateBps("underlay.bandwidth", c.GetString("underlay.bandwidth"));
    const double latency = ParseLatencySeconds("underlay.latency", c.GetString("underlay.latency"));
    for (auto& link : net.links)
    {
        link.bandwidthBps = bps;
        link.latencySeconds = latency;
    }
    return net;
}

} // namespace

UnderlayRegistration
RouterFileUnderlay()
{
    UnderlayRegistration r;
    r.name = "file";
    r.help = "routers from underlay.file";
    r.keys = {
        AlgorithmKey::Path(
            "underlay.file",
            "",
            "network = file: router-level topology file (Inet, Orbis or Rocketfuel weights), read "
            "whole: a header that disagrees with the body, a link listed twice or to itself, a "
            "node without links and a disconnected topology are errors; paths of overlay "
            "neighbours may cross at most 63 routers (ns3::Ipv4L3Protocol::DefaultTtl - 1)"),
        AlgorithmKey::Text("underlay.format",
                           "inet",
                           "network = file: inet, orbis or rocketfuel (a file of another shape is "
                           "an error that says which)"),
        AlgorithmKey::Text(
            "underlay.bandwidth", "1Gbps", "network = file: rate of every router-to-router link"),
        AlgorithmKey::Text(
            "underlay.latency", "5ms", "network = file: one-way latency of every router link"),
        AlgorithmKey::Text("underlay.attach",
                           "random",
                           "network = file: learners attach to random routers, or file"),
        AlgorithmKey::Path(
            "underlay.attach_file", "", "CSV 'node,router' (router by its name in underlay.file)"),
    };
    const std::vector<AlgorithmKey>& access = AccessLinkKeys();
    r.keys.insert(r.keys.end(), access.begin(), access.end());
    r.linkRoles = {"up", "down", "router"};
    r.check = [](const ScenarioConfig& c, uint32_t learners)
    {
        CheckAccessModel(c, learners);
        RouterNetwork routers = ReadRouterFile(c);
        const std::string& attach = c.GetChoice("underlay.attach", {"random", "file"});
        if (attach == "file")
        {
            AttachLearners(routers, learners, attach, c.GetString("underlay.attach_file"), nullptr);
        }
    };
    r.create = [](const UnderlaySetup& s)
    {
        const ScenarioConfig& c = s.config;
        AccessModel access = AccessModelFor(s);
        RouterNetwork network = ReadRouterFile(c);
        Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
        rng->SetStream(s.stream + 204);
        network.attachment = AttachLearners(network,
                                            s.learners,
                                            c.GetString("underlay.attach"),
                                            c.GetString("underlay.attach_file"),
                                            rng);
        network.access = access.Draw(s.learners);
        return MakeRoutedHelper(network, s);
    };
    return r;
}

} // namespace ns3
