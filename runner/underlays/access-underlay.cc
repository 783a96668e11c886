// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * network = access: every host behind its own up/down access link to an edge router, the edge
 * routers joined by a core router.
 */
#include "random-variable-spec.h"
#include "routed-networks.h"

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

namespace
{

/// Whether the edge-to-core links shape anything (else they are not built as links of their own).
bool
HasCoreLinks(const ScenarioConfig& c)
{
    return c.GetString("core.bandwidth") != "unlimited"
           || ParseLatencySeconds("core.latency", c.GetString("core.latency")) > 0;
}

} // namespace

UnderlayRegistration
AccessUnderlay()
{
    UnderlayRegistration r;
    r.name = "access";
    r.help = "every host behind its own up/down access link to a core router";
    r.keys = AccessLinkKeys();
    r.keys.push_back(AlgorithmKey::Text(
        "core.bandwidth",
        "unlimited",
        "network = access: rate of each edge router's link to the core router, or unlimited"));
    r.keys.push_back(AlgorithmKey::Text("core.latency",
                                        "0ms",
                                        "network = access: one-way latency of each edge-to-core "
                                        "link"));
    r.linkRoles = {"up", "down", "core"};
    r.roles = [](const ScenarioConfig& c)
    {
        std::vector<std::string> roles = {"up", "down"};
        if (HasCoreLinks(c))
        {
            roles.push_back("core");
        }
        return roles;
    };
    r.check = [](const ScenarioConfig& c, uint32_t learners)
    {
        CheckAccessModel(c, learners);
        RateOrUnlimited(c, "core.bandwidth");
        ParseLatencySeconds("core.latency", c.GetString("core.latency"));
    };
    r.create = [](const UnderlaySetup& s)
    {
        const ScenarioConfig& c = s.config;
        return MakeRoutedHelper(
            MakeAccessNetwork(AccessModelFor(s).Draw(s.learners),
                              RateOrUnlimited(c, "core.bandwidth"),
                              ParseLatencySeconds("core.latency", c.GetString("core.latency"))),
            s);
    };
    return r;
}

} // namespace ns3
