// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * network = direct: a dedicated point-to-point link per overlay edge.
 */
#include "direct-underlay-helper.h"
#include "link-model.h"
#include "underlay-registry.h"

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

namespace
{

LinkModel
ReadLinkModel(const ScenarioConfig& c)
{
    LinkModel links(c.GetString("link.bandwidth"), c.GetString("link.latency"));
    if (!c.GetString("link.file").empty())
    {
        links.SetFile(c.GetString("link.file"));
    }
    return links;
}

} // namespace

UnderlayRegistration
DirectUnderlay()
{
    UnderlayRegistration r;
    r.name = "direct";
    r.help = "a dedicated link per overlay edge";
    r.keys = {
        AlgorithmKey::Text("link.bandwidth",
                           "10Mbps",
                           "link bandwidth, e.g. 10Mbps, or an ns-3 random variable in Mbit/s; 1 "
                           "bit/s to 1 Tbit/s (as every rate, fixed, drawn or from a file)")
            .Sets({"ns3::PointToPointNetDevice::DataRate"}),
        AlgorithmKey::Text("link.latency",
                           "10ms",
                           "one-way link latency, e.g. 10ms, or an ns-3 random variable in ms; 0 "
                           "to 10 s (as every latency, fixed, drawn or from a file: beyond, "
                           "ns-3's TCP gives connections up)")
            .Sets({"ns3::PointToPointChannel::Delay"}),
        AlgorithmKey::Path("link.file",
                           "",
                           "CSV 'u,v,bandwidth,latency' giving every link (overrides the two "
                           "above)"),
    };
    r.linkRoles = {"direct"};
    r.check = [](const ScenarioConfig& c, uint32_t)
    {
        // The file's rows are checked against the overlay when the network is built.
        LinkModel links(c.GetString("link.bandwidth"), c.GetString("link.latency"));
    };
    r.create = [](const UnderlaySetup& s) -> std::unique_ptr<UnderlayHelper>
    {
        LinkModel links = ReadLinkModel(s.config);
        links.AssignStreams(s.stream);
        auto helper = std::make_unique<DirectUnderlayHelper>(s.overlay);
        helper->SetLinkModel(links);
        helper->SetLinkBehaviour(s.behaviour);
        helper->AssignStreams(s.stream + 1000);
        return helper;
    };
    return r;
}

} // namespace ns3
