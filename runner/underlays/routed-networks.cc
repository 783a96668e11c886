// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "routed-networks.h"

#include "random-variable-spec.h"

#include <ostream>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

const std::vector<AlgorithmKey>&
AccessLinkKeys()
{
    static const std::vector<AlgorithmKey> keys = {
        AlgorithmKey::Text(
            "access.up",
            "10Mbps",
            "network = access/regions: host uplink rate, or an ns-3 random variable in Mbit/s")
            .Sets({"ns3::PointToPointNetDevice::DataRate"}),
        AlgorithmKey::Text(
            "access.down",
            "50Mbps",
            "network = access/regions: host downlink rate, or an ns-3 random variable in Mbit/s")
            .Sets({"ns3::PointToPointNetDevice::DataRate"}),
        AlgorithmKey::Text(
            "access.latency",
            "5ms",
            "network = access/regions: one-way access link latency, or a random variable in ms")
            .Sets({"ns3::PointToPointChannel::Delay"}),
        AlgorithmKey::Path("access.file",
                           "",
                           "CSV 'host,up,down,latency' giving every host's access link (overrides "
                           "the three above)"),
    };
    return keys;
}

AccessModel
ReadAccessModel(const ScenarioConfig& c)
{
    AccessModel access(
        c.GetString("access.up"), c.GetString("access.down"), c.GetString("access.latency"));
    if (!c.GetString("access.file").empty())
    {
        access.SetFile(c.GetString("access.file"));
    }
    return access;
}

void
CheckAccessModel(const ScenarioConfig& c, uint32_t learners)
{
    AccessModel access = ReadAccessModel(c);
    if (!c.GetString("access.file").empty())
    {
        access.Draw(learners);
    }
}

double
RateOrUnlimited(const ScenarioConfig& c, const std::string& key)
{
    const std::string& text = c.GetString(key);
    return text == "unlimited" ? 0.0 : ParseDataRateBps(key, text);
}

std::unique_ptr<UnderlayHelper>
MakeRoutedHelper(const RouterNetwork& network, const UnderlaySetup& setup)
{
    auto helper = std::make_unique<RoutedUnderlayHelper>(network);
    helper->SetLinkBehaviour(setup.behaviour);
    helper->AssignStreams(setup.stream + 1000);
    helper->SetTalkingPairs(setup.overlay.GetLinks());
    if (std::ostream* log = setup.log)
    {
        helper->SetProgress([log](const std::string& line) { *log << line << std::endl; });
    }
    return helper;
}

AccessModel
AccessModelFor(const UnderlaySetup& setup)
{
    // Streams of their own, so the direct network's draws stay what they always were.
    AccessModel access = ReadAccessModel(setup.config);
    access.AssignStreams(setup.stream + 200);
    return access;
}

} // namespace ns3
