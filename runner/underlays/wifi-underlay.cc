// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * network = wifi: learners as the stations of 802.11 access points joined by a wired backbone
 * (WifiUnderlayHelper).
 */
#include "csv-rows.h"
#include "random-variable-spec.h"
#include "underlay-registry.h"
#include "value-text.h"
#include "wifi-underlay-helper.h"

#include <cmath>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

namespace
{

/// Station positions from wifi.positions: CSV 'node,x,y,z' in metres, one row per learner.
std::vector<Vector>
ReadPositions(const std::string& path, uint32_t learners)
{
    std::vector<Vector> positions(learners);
    ForEachLearnerRow(
        "wifi.positions",
        path,
        "node",
        4,
        learners,
        [&positions](uint32_t learner, const CsvRow& row)
        {
            double xyz[3];
            for (int k = 0; k < 3; ++k)
            {
                if (!ParseDecimal(row.fields[k + 1], xyz[k]) || !std::isfinite(xyz[k]))
                {
                    throw ConfigValueError(row.where + ": '" + ShownText(row.fields[k + 1])
                                           + "' is not a position in metres");
                }
            }
            positions[learner] = Vector(xyz[0], xyz[1], xyz[2]);
        });
    return positions;
}

/// The helper as the wifi.* keys set it, its settings checked for `learners` stations.
std::unique_ptr<WifiUnderlayHelper>
ReadWifi(const ScenarioConfig& c, uint32_t learners)
{
    auto wifi = std::make_unique<WifiUnderlayHelper>();
    wifi->SetStandard(c.GetString("wifi.standard"));
    wifi->SetChannelWidth(static_cast<uint16_t>(c.GetUint("wifi.channel_width", 0, 160)));
    wifi->SetRateManager(c.GetString("wifi.rate_manager"));
    wifi->SetSpatialStreams(static_cast<uint32_t>(c.GetUint("wifi.spatial_streams", 0, 4)));
    wifi->SetAccessPoints(static_cast<uint32_t>(c.GetUint("wifi.aps", 1, 1000)));
    wifi->SetSharedChannel(c.GetBool("wifi.shared_channel"));
    wifi->SetStationDistance(c.GetDouble("wifi.distance", 0.0, 1000.0));
    wifi->SetApSpacing(c.GetDouble("wifi.ap_spacing", 0.0, 100000.0));
    if (!c.GetString("wifi.positions").empty())
    {
        wifi->SetStationPositions(ReadPositions(c.GetString("wifi.positions"), learners));
    }
    wifi->SetPropagation(c.GetDouble("wifi.path_loss_exponent", 1.0, 10.0),
                         c.GetDouble("wifi.reference_loss", 0.0, 200.0));
    wifi->SetBackbone(
        ParseDataRateBps("wifi.backbone_bandwidth", c.GetString("wifi.backbone_bandwidth")),
        ParseLatencySeconds("wifi.backbone_latency", c.GetString("wifi.backbone_latency")));
    wifi->Check(learners);
    return wifi;
}

} // namespace

UnderlayRegistration
WifiUnderlay()
{
    UnderlayRegistration r;
    r.name = "wifi";
    r.help = "every host a station of one or more 802.11 access points on a wired backbone";
    r.keys = {
        AlgorithmKey::Text("wifi.standard",
                           "80211ac",
                           "network = wifi: 80211a, 80211n, 80211ac or 80211ax (5 GHz)"),
        AlgorithmKey::Text("wifi.channel_width",
                           "0",
                           "network = wifi: channel width in MHz (20, 40, 80, 160); 0: the "
                           "standard's usual one (20 for a, 40 for n, 80 for ac and ax)"),
        AlgorithmKey::Text("wifi.rate_manager",
                           "ideal",
                           "network = wifi: ideal (the best rate the signal-to-noise ratio "
                           "carries), minstrel-ht, or constant:MODE (an ns-3 WifiMode, e.g. "
                           "constant:OfdmRate54Mbps, constant:VhtMcs7)"),
        AlgorithmKey::Text("wifi.spatial_streams",
                           "0",
                           "network = wifi: spatial streams (and antennas) per device, 1 to 4; 0: "
                           "2 (1 for 80211a)"),
        AlgorithmKey::Text("wifi.aps",
                           "1",
                           "network = wifi: access points, each its own BSS on its own channel; "
                           "learner i is a station of AP i % aps"),
        AlgorithmKey::Text("wifi.shared_channel",
                           "false",
                           "network = wifi: every BSS on one channel (they contend where in "
                           "reach) rather than each on its own"),
        AlgorithmKey::Text("wifi.distance",
                           "5",
                           "network = wifi: metres from every station to its AP (stations on a "
                           "circle around it); within about 51 m with the default propagation"),
        AlgorithmKey::Text("wifi.ap_spacing", "50", "network = wifi: metres between APs"),
        AlgorithmKey::Path("wifi.positions",
                           "",
                           "network = wifi: CSV 'node,x,y,z' placing every station, in metres "
                           "(overrides wifi.distance; APs stand at (k * ap_spacing, 0, 0))"),
        AlgorithmKey::Text("wifi.path_loss_exponent",
                           "3",
                           "network = wifi: exponent of the log-distance path loss (ns-3's "
                           "default 3: indoors)"),
        AlgorithmKey::Text("wifi.reference_loss",
                           "46.6777",
                           "network = wifi: path loss in dB at 1 m (46.6777: free space at 5.15 "
                           "GHz)"),
        AlgorithmKey::Text("wifi.backbone_bandwidth",
                           "1Gbps",
                           "network = wifi: rate of every AP's wired link to the backbone router"),
        AlgorithmKey::Text("wifi.backbone_latency",
                           "1ms",
                           "network = wifi: one-way latency of every AP's backbone link"),
    };
    r.linkRoles = {"wifi-up", "wifi-down", "backbone"};
    r.check = [](const ScenarioConfig& c, uint32_t learners)
    {
        ReadWifi(c, learners);
    };
    r.create = [](const UnderlaySetup& s) -> std::unique_ptr<UnderlayHelper>
    {
        std::unique_ptr<WifiUnderlayHelper> wifi = ReadWifi(s.config, s.learners);
        wifi->SetLinkBehaviour(s.behaviour);
        // Helpers draw from stream + 1000 on, as the other underlays' helpers do.
        wifi->AssignStreams(s.stream + 1000);
        return wifi;
    };
    return r;
}

} // namespace ns3
