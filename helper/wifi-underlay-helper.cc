// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "wifi-underlay-helper.h"

#include "csv-rows.h"
#include "direct-underlay-helper.h"
#include "ns3/boolean.h"
#include "ns3/constant-position-mobility-model.h"
#include "ns3/double.h"
#include "ns3/error-model.h"
#include "ns3/he-phy.h"
#include "ns3/ht-phy.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/log.h"
#include "ns3/ofdm-phy.h"
#include "ns3/propagation-loss-model.h"
#include "ns3/qos-txop.h"
#include "ns3/ssid.h"
#include "ns3/sta-wifi-mac.h"
#include "ns3/string.h"
#include "ns3/table-based-error-rate-model.h"
#include "ns3/threshold-preamble-detection-model.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/uinteger.h"
#include "ns3/vht-phy.h"
#include "ns3/wifi-helper.h"
#include "ns3/wifi-mac-helper.h"
#include "ns3/wifi-mac-queue.h"
#include "ns3/wifi-mac.h"
#include "ns3/wifi-net-device.h"
#include "ns3/wifi-utils.h"
#include "ns3/yans-wifi-channel.h"
#include "ns3/yans-wifi-helper.h"
#include "ns3/yans-wifi-phy.h"
#include "value-text.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <iomanip>
#include <memory>
#include <sstream>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DlsimWifiUnderlayHelper");

namespace
{

/// What dlsim offers of each standard (all in the 5 GHz band).
struct StandardInfo
{
    const char* name;
    WifiStandard standard;
    uint16_t customaryWidth; ///< the width when none is set
    uint16_t maxWidth;
    WifiModulationClass top; ///< the modulation class of its own (highest) rates
};

const std::vector<StandardInfo>&
Standards()
{
    static const std::vector<StandardInfo> standards = {
        {"80211a", WIFI_STANDARD_80211a, 20, 20, WIFI_MOD_CLASS_OFDM},
        {"80211n", WIFI_STANDARD_80211n, 40, 40, WIFI_MOD_CLASS_HT},
        {"80211ac", WIFI_STANDARD_80211ac, 80, 160, WIFI_MOD_CLASS_VHT},
        {"80211ax", WIFI_STANDARD_80211ax, 80, 160, WIFI_MOD_CLASS_HE},
    };
    return standards;
}

const StandardInfo&
StandardNamed(const std::string& name)
{
    for (const auto& s : Standards())
    {
        if (name == s.name)
        {
            return s;
        }
    }
    throw ConfigValueError("wifi.standard: '" + ShownText(name)
                           + "' is not one of 80211a, 80211n, 80211ac, 80211ax");
}

/// The non-overlapping 5 GHz channels of each width (the 20 MHz channels of the UNII bands).
const std::vector<uint8_t>&
ChannelsOfWidth(uint16_t width)
{
    static const std::vector<uint8_t> w20
        = {36,  40,  44,  48,  52,  56,  60,  64,  100, 104, 108, 112, 116,
           120, 124, 128, 132, 136, 140, 144, 149, 153, 157, 161, 165};
    static const std::vector<uint8_t> w40
        = {38, 46, 54, 62, 102, 110, 118, 126, 134, 142, 151, 159};
    static const std::vector<uint8_t> w80 = {42, 58, 106, 122, 138, 155};
    static const std::vector<uint8_t> w160 = {50, 114};
    switch (width)
    {
        case 20:
            return w20;
        case 40:
            return w40;
        case 80:
            return w80;
        default:
            return w160;
    }
}

/// "constant:MODE" -> "MODE"; "" for the adaptive managers.
std::string
ConstantMode(const std::string& manager)
{
    const std::string prefix = "constant:";
    return manager.compare(0, prefix.size(), prefix) == 0 ? manager.substr(prefix.size()) : "";
}

/// The streams a transmission of `mode` uses: an HT MCS says it (8 per stream), legacy OFDM has 1.
uint8_t
StreamsOfMode(const WifiMode& mode, uint32_t streams)
{
    switch (mode.GetModulationClass())
    {
        case WIFI_MOD_CLASS_HT:
            return 1 + mode.GetMcsValue() / 8;
        case WIFI_MOD_CLASS_OFDM:
            return 1;
        default:
            return static_cast<uint8_t>(streams);
    }
}

/**
 * Every data mode a device of the standard can send with at the width and streams: the legacy
 * OFDM rates, then HT, VHT and HE MCSs as the standard has them. A legacy mode is sent on 20 MHz
 * whatever the width; an HT one on at most 40 MHz.
 */
std::vector<WifiMode>
ModesOf(const StandardInfo& standard, uint16_t width, uint32_t streams)
{
    std::vector<WifiMode> modes;
    for (uint64_t mbps : {6, 9, 12, 18, 24, 36, 48, 54})
    {
        modes.push_back(OfdmPhy::GetOfdmRate(mbps * 1000000));
    }
    auto add = [&](const WifiMode& mode)
    {
        const uint8_t nss = StreamsOfMode(mode, streams);
        if (nss <= streams && mode.IsAllowed(width, nss))
        {
            modes.push_back(mode);
        }
    };
    if (standard.standard >= WIFI_STANDARD_80211n && width <= 40)
    {
        for (uint8_t mcs = 0; mcs < 32; ++mcs)
        {
            add(HtPhy::GetHtMcs(mcs));
        }
    }
    if (standard.standard >= WIFI_STANDARD_80211ac)
    {
        for (uint8_t mcs = 0; mcs <= 9; ++mcs)
        {
            add(VhtPhy::GetVhtMcs(mcs));
        }
    }
    if (standard.standard >= WIFI_STANDARD_80211ax)
    {
        for (uint8_t mcs = 0; mcs <= 11; ++mcs)
        {
            add(HePhy::GetHeMcs(mcs));
        }
    }
    return modes;
}

/// The initial value of a double attribute (what Config::SetDefault made it).
double
DefaultDouble(TypeId type, const std::string& attribute)
{
    TypeId::AttributeInformation info;
    NS_ABORT_UNLESS(type.LookupAttributeByName(attribute, &info));
    return DynamicCast<const DoubleValue>(info.initialValue)->Get();
}

/// Throws ConfigValueError naming `key` unless every coordinate of every position is finite.
void
CheckFinite(const std::vector<Vector>& positions, const std::string& key, const std::string& what)
{
    for (size_t i = 0; i < positions.size(); ++i)
    {
        const Vector& v = positions[i];
        if (!(std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z)))
        {
            throw ConfigValueError(key + ": " + what + " " + std::to_string(i)
                                   + " has a coordinate that is not a finite number");
        }
    }
}

/**
 * The host bits of every BSS subnet: enough for the largest BSS's stations, its AP, and the
 * network and broadcast addresses.
 */
uint32_t
HostBits(uint32_t learners, uint32_t aps)
{
    const uint64_t largest = (static_cast<uint64_t>(learners) + aps - 1) / aps;
    uint32_t bits = 2;
    while ((1ull << bits) < largest + 3)
    {
        ++bits;
    }
    return bits;
}

/// Shared by the association traces of one Install.
struct AssociationState
{
    uint32_t stations = 0;
    uint32_t associated = 0;
    Time last = Seconds(-1);
    std::function<void()> callback; ///< called when every station is associated the first time
};

} // namespace

WifiUnderlayHelper::WifiUnderlayHelper() = default;

void
WifiUnderlayHelper::SetStandard(const std::string& standard)
{
    StandardNamed(standard);
    m_standard = standard;
}

void
WifiUnderlayHelper::SetChannelWidth(uint16_t mhz)
{
    if (mhz != 0 && mhz != 20 && mhz != 40 && mhz != 80 && mhz != 160)
    {
        throw ConfigValueError("wifi.channel_width: " + std::to_string(mhz)
                               + " MHz is not one of 20, 40, 80, 160");
    }
    m_width = mhz;
}

void
WifiUnderlayHelper::SetRateManager(const std::string& manager)
{
    const std::string mode = ConstantMode(manager);
    if (manager != "ideal" && manager != "minstrel-ht" && mode.empty())
    {
        throw ConfigValueError("wifi.rate_manager: '" + ShownText(manager)
                               + "' is not ideal, minstrel-ht or constant:MODE (e.g. "
                                 "constant:VhtMcs7)");
    }
    m_manager = manager;
}

void
WifiUnderlayHelper::SetSpatialStreams(uint32_t streams)
{
    if (streams > 4)
    {
        throw ConfigValueError("wifi.spatial_streams: " + std::to_string(streams)
                               + " is not 1 to 4 (0: the standard's default)");
    }
    m_streams = streams;
}

void
WifiUnderlayHelper::SetAccessPoints(uint32_t aps)
{
    if (aps == 0)
    {
        throw ConfigValueError("wifi.aps: at least one access point is needed");
    }
    m_aps = aps;
}

void
WifiUnderlayHelper::SetSharedChannel(bool shared)
{
    m_shared = shared;
}

void
WifiUnderlayHelper::SetStationDistance(double meters)
{
    if (!(std::isfinite(meters) && meters > 0))
    {
        throw ConfigValueError("wifi.distance: a distance must be above 0 m, got "
                               + FormatBound(meters));
    }
    m_distance = meters;
}

void
WifiUnderlayHelper::SetApSpacing(double meters)
{
    if (!(std::isfinite(meters) && meters >= 0))
    {
        throw ConfigValueError("wifi.ap_spacing: a distance must be at least 0 m, got "
                               + FormatBound(meters));
    }
    m_apSpacing = meters;
}

void
WifiUnderlayHelper::SetStationPositions(std::vector<Vector> positions)
{
    CheckFinite(positions, "wifi.positions", "station");
    m_stationPositions = std::move(positions);
}

void
WifiUnderlayHelper::SetApPositions(std::vector<Vector> positions)
{
    CheckFinite(positions, "wifi.ap_positions", "AP");
    m_apPositions = std::move(positions);
}

void
WifiUnderlayHelper::SetPropagation(double exponent, double referenceLossDb)
{
    // Below an exponent of 1 the loss would grow more slowly than a spherical wave's spread.
    if (!(std::isfinite(exponent) && exponent >= 1 && exponent <= 10))
    {
        throw ConfigValueError("wifi.path_loss_exponent: must be from 1 to 10, got "
                               + FormatBound(exponent));
    }
    if (!(std::isfinite(referenceLossDb) && referenceLossDb >= 0 && referenceLossDb <= 200))
    {
        throw ConfigValueError("wifi.reference_loss: must be from 0 to 200 dB, got "
                               + FormatBound(referenceLossDb));
    }
    m_exponent = exponent;
    m_referenceLossDb = referenceLossDb;
}

void
WifiUnderlayHelper::SetBackbone(double bandwidthBps, double latencySeconds)
{
    if (!(std::isfinite(bandwidthBps) && bandwidthBps >= 1))
    {
        throw ConfigValueError("wifi.backbone_bandwidth: must be at least 1 bit/s");
    }
    if (!(std::isfinite(latencySeconds) && latencySeconds >= 0 && latencySeconds <= 100))
    {
        throw ConfigValueError("wifi.backbone_latency: must be from 0 to 100 s");
    }
    m_backboneBps = bandwidthBps;
    m_backboneLatency = latencySeconds;
}

void
WifiUnderlayHelper::SetLinkBehaviour(const LinkBehaviour& behaviour)
{
    CheckLinkBehaviour(behaviour);
    m_behaviour = behaviour;
}

uint16_t
WifiUnderlayHelper::Width() const
{
    return m_width != 0 ? m_width : StandardNamed(m_standard).customaryWidth;
}

uint32_t
WifiUnderlayHelper::Streams() const
{
    if (m_streams != 0)
    {
        return m_streams;
    }
    return m_standard == "80211a" ? 1 : 2;
}

Vector
WifiUnderlayHelper::ApPosition(uint32_t k) const
{
    return m_apPositions.empty() ? Vector(k * m_apSpacing, 0, 0) : m_apPositions[k];
}

Vector
WifiUnderlayHelper::StationPosition(uint32_t i, uint32_t learners) const
{
    if (!m_stationPositions.empty())
    {
        return m_stationPositions[i];
    }
    // Evenly around the AP: the j-th of its m stations at angle 2 pi j / m.
    const uint32_t k = i % m_aps;
    const uint32_t j = i / m_aps;
    const uint32_t m = learners / m_aps + (k < learners % m_aps ? 1 : 0);
    const double angle = 2 * M_PI * j / m;
    Vector ap = ApPosition(k);
    return Vector(ap.x + m_distance * std::cos(angle), ap.y + m_distance * std::sin(angle), ap.z);
}

void
WifiUnderlayHelper::Check(uint32_t learners) const
{
    const StandardInfo& standard = StandardNamed(m_standard);
    const uint16_t width = Width();
    if (width > standard.maxWidth)
    {
        throw ConfigValueError("wifi.channel_width: " + std::to_string(width)
                               + " MHz is wider than " + m_standard + " allows (at most "
                               + std::to_string(standard.maxWidth) + " MHz)");
    }
    if (standard.standard == WIFI_STANDARD_80211a && Streams() != 1)
    {
        throw ConfigValueError("wifi.spatial_streams: 80211a has one spatial stream, not "
                               + std::to_string(Streams()));
    }
    const std::string mode = ConstantMode(m_manager);
    if (!mode.empty())
    {
        std::vector<WifiMode> modes = ModesOf(standard, width, Streams());
        const bool known
            = std::any_of(modes.begin(),
                          modes.end(),
                          [&](const WifiMode& m) { return m.GetUniqueName() == mode; });
        if (!known)
        {
            std::string names;
            for (const WifiMode& m : modes)
            {
                names += (names.empty() ? "" : ", ") + m.GetUniqueName();
            }
            throw ConfigValueError("wifi.rate_manager: constant mode '" + ShownText(mode)
                                   + "' is not one that " + m_standard + " sends on "
                                   + std::to_string(width) + " MHz with "
                                   + std::to_string(Streams()) + " spatial stream"
                                   + (Streams() > 1 ? "s" : "") + " (" + names + ")");
        }
    }
    if (m_aps > learners)
    {
        throw ConfigValueError("wifi.aps: " + std::to_string(m_aps) + " access points for "
                               + std::to_string(learners)
                               + " learners: every access point needs a station");
    }
    if (!m_stationPositions.empty() && m_stationPositions.size() != learners)
    {
        throw ConfigValueError("wifi.positions: " + std::to_string(m_stationPositions.size())
                               + " station positions for " + std::to_string(learners)
                               + " learners");
    }
    if (!m_apPositions.empty() && m_apPositions.size() != m_aps)
    {
        throw ConfigValueError("wifi.ap_positions: " + std::to_string(m_apPositions.size())
                               + " AP positions for " + std::to_string(m_aps)
                               + " access points (wifi.aps)");
    }
    // A station whose AP's beacons arrive below the receivers' preamble detection threshold
    // would never associate, and its learner would wait for ever: refuse it here.
    Ptr<LogDistancePropagationLossModel> loss = CreateObject<LogDistancePropagationLossModel>();
    loss->SetPathLossExponent(m_exponent);
    loss->SetReference(1.0, m_referenceLossDb);
    const double txDbm = DefaultDouble(YansWifiPhy::GetTypeId(), "TxPowerStart");
    const double minimumDbm
        = DefaultDouble(ThresholdPreambleDetectionModel::GetTypeId(), "MinimumRssi");
    Ptr<ConstantPositionMobilityModel> station = CreateObject<ConstantPositionMobilityModel>();
    Ptr<ConstantPositionMobilityModel> ap = CreateObject<ConstantPositionMobilityModel>();
    const char* placed = m_stationPositions.empty() ? "wifi.distance" : "wifi.positions";
    for (uint32_t i = 0; i < learners; ++i)
    {
        station->SetPosition(StationPosition(i, learners));
        ap->SetPosition(ApPosition(i % m_aps));
        const double rxDbm = loss->CalcRxPower(txDbm, station, ap);
        if (rxDbm < minimumDbm)
        {
            std::ostringstream s;
            s << std::fixed << std::setprecision(1);
            s << placed << ": station " << i << " is " << FormatBound(station->GetDistanceFrom(ap))
              << " m from its access point ap" << i % m_aps << ", where its signal arrives at "
              << rxDbm << " dBm, below the " << minimumDbm
              << " dBm a receiver detects: it could never associate";
            throw ConfigValueError(s.str());
        }
        if (!mode.empty())
        {
            double snrDb = 0;
            const double success = ConstantModeSuccess(mode, rxDbm, snrDb);
            // The table-based error model falls from all to nothing within a few dB: below
            // one frame in ten (half the packets lost after the MAC's 7 attempts) a mode is
            // past that cliff and the learners' connections would never open.
            if (success < 0.1)
            {
                std::ostringstream s;
                s << std::fixed << std::setprecision(1);
                s << "wifi.rate_manager: constant mode " << mode << " gets " << 100 * success
                  << "% of 1500-byte packets through between station " << i
                  << " and its access point ap" << i % m_aps << " ("
                  << FormatBound(station->GetDistanceFrom(ap)) << " m, " << placed
                  << "): a signal-to-noise ratio of " << snrDb
                  << " dB is too low for it; choose a slower mode, ideal or minstrel-ht";
                throw ConfigValueError(s.str());
            }
        }
    }
    // The BSS subnets share 10.128.0.0/9.
    if ((static_cast<uint64_t>(m_aps) << HostBits(learners, m_aps)) > (1ull << 23))
    {
        throw ConfigValueError("wifi.aps: " + std::to_string(learners) + " stations on "
                               + std::to_string(m_aps)
                               + " access points need more addresses than 10.128.0.0/9 has");
    }
}

double
WifiUnderlayHelper::ConstantModeSuccess(const std::string& name, double rxDbm, double& snrDb) const
{
    const uint16_t width = Width();
    const uint32_t streams = Streams();
    WifiMode mode;
    for (const WifiMode& m : ModesOf(StandardNamed(m_standard), width, streams))
    {
        if (m.GetUniqueName() == name)
        {
            mode = m;
        }
    }
    // As the PHY sees a frame of a 1500-byte IP packet (1536 bytes with MAC header, LLC and
    // FCS) in ns-3's InterferenceHelper::CalculateSnr: thermal noise over the width sent on,
    // the receiver's noise figure, and the diversity gain of antennas beyond the streams.
    const uint16_t txWidth = GetChannelWidthForTransmission(mode, width);
    const uint8_t nss = StreamsOfMode(mode, streams);
    const WifiModulationClass modulation = mode.GetModulationClass();
    const uint16_t guardInterval
        = modulation == WIFI_MOD_CLASS_HT || modulation == WIFI_MOD_CLASS_VHT
              ? 400
              : 800; // the short guard intervals Install configures
    WifiTxVector tx(mode,
                    0,
                    GetPreambleForTransmission(modulation, false),
                    guardInterval,
                    static_cast<uint8_t>(streams),
                    nss,
                    0,
                    txWidth,
                    false);
    const double noiseW = DbToRatio(DefaultDouble(YansWifiPhy::GetTypeId(), "RxNoiseFigure"))
                          * 1.3803e-23 * 290 * txWidth * 1e6;
    const double snr = DbmToW(rxDbm) / noiseW * std::max(1.0, static_cast<double>(streams) / nss);
    snrDb = RatioToDb(snr);
    Ptr<TableBasedErrorRateModel> errors = CreateObject<TableBasedErrorRateModel>();
    return errors->GetChunkSuccessRate(mode, tx, snr, 1536 * 8);
}

Underlay
WifiUnderlayHelper::Install(NodeContainer learners)
{
    const uint32_t n = learners.GetN();
    Check(n);
    const StandardInfo& standard = StandardNamed(m_standard);
    const uint16_t width = Width();
    const uint32_t streams = Streams();

    Underlay underlay;
    NodeContainer aps;
    aps.Create(m_aps);
    Ptr<Node> backbone = CreateObject<Node>();
    underlay.routers.Add(aps);
    underlay.routers.Add(backbone);
    InstallInternetWhereMissing(learners);
    InstallInternetWhereMissing(underlay.routers);

    auto place = [](Ptr<Node> node, const Vector& position)
    {
        Ptr<MobilityModel> mobility = node->GetObject<MobilityModel>();
        if (!mobility)
        {
            mobility = CreateObject<ConstantPositionMobilityModel>();
            node->AggregateObject(mobility);
        }
        mobility->SetPosition(position);
    };
    for (uint32_t k = 0; k < m_aps; ++k)
    {
        place(aps.Get(k), ApPosition(k));
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        place(learners.Get(i), StationPosition(i, n));
    }

    // One channel object: BSSs on different channel numbers never hear each other on it, and
    // BSSs that share a number contend as their distance says.
    YansWifiChannelHelper channelHelper;
    channelHelper.SetPropagationDelay("ns3::ConstantSpeedPropagationDelayModel");
    channelHelper.AddPropagationLoss("ns3::LogDistancePropagationLossModel",
                                     "Exponent",
                                     DoubleValue(m_exponent),
                                     "ReferenceDistance",
                                     DoubleValue(1.0),
                                     "ReferenceLoss",
                                     DoubleValue(m_referenceLossDb));
    Ptr<YansWifiChannel> channel = channelHelper.Create();
    m_channel = channel;

    YansWifiPhyHelper phy;
    phy.SetChannel(channel);
    phy.Set("Antennas", UintegerValue(streams));
    phy.Set("MaxSupportedTxSpatialStreams", UintegerValue(streams));
    phy.Set("MaxSupportedRxSpatialStreams", UintegerValue(streams));

    WifiHelper wifi;
    wifi.SetStandard(standard.standard);
    const std::string mode = ConstantMode(m_manager);
    if (m_manager == "ideal")
    {
        wifi.SetRemoteStationManager("ns3::IdealWifiManager");
    }
    else if (m_manager == "minstrel-ht")
    {
        wifi.SetRemoteStationManager("ns3::MinstrelHtWifiManager");
    }
    else
    {
        wifi.SetRemoteStationManager("ns3::ConstantRateWifiManager", "DataMode", StringValue(mode));
    }
    // The shortest guard interval each standard has, as client devices use indoors (and as
    // the rates they advertise assume, e.g. 866.7 Mbit/s for 802.11ac, 80 MHz, 2 streams).
    wifi.ConfigHtOptions("ShortGuardIntervalSupported", BooleanValue(true));
    wifi.ConfigHeOptions("GuardInterval", TimeValue(NanoSeconds(800)));

    Ipv4AddressHelper bssAddresses;
    bssAddresses.SetBase("10.128.0.0", Ipv4Mask(~((1u << HostBits(n, m_aps)) - 1)));

    auto state = std::make_shared<AssociationState>();
    state->stations = n;
    state->callback = m_associatedCallback;
    m_associated = std::shared_ptr<Time>(state, &state->last);
    const std::vector<uint8_t>& channels = ChannelsOfWidth(width);
    std::vector<Ipv4Address> stationAddress(n);
    std::vector<Ptr<WifiNetDevice>> stationDevice(n);
    std::vector<Ptr<WifiNetDevice>> apDevice(m_aps);
    std::vector<Ipv4Address> apAddress(m_aps);
    m_wifiDevices = NetDeviceContainer();
    for (uint32_t k = 0; k < m_aps; ++k)
    {
        const uint32_t number = channels[m_shared ? 0 : k % channels.size()];
        phy.Set("ChannelSettings",
                StringValue("{" + std::to_string(number) + ", " + std::to_string(width)
                            + ", BAND_5GHZ, 0}"));
        NodeContainer stations;
        for (uint32_t i = k; i < n; i += m_aps)
        {
            stations.Add(learners.Get(i));
        }
        WifiMacHelper mac;
        Ssid ssid("dlsim-ap" + std::to_string(k));
        mac.SetType("ns3::ApWifiMac", "Ssid", SsidValue(ssid));
        NetDeviceContainer ap = wifi.Install(phy, mac, aps.Get(k));
        // Association is a start-up transient that a classroom's laptops finished long ago:
        // stations ask for their AP at once (a probe request rather than waiting up to a
        // beacon interval for a beacon) and ask again 50 ms (not 500 ms) after a request that
        // went unanswered, e.g. one lost in the collisions of many stations starting together.
        mac.SetType("ns3::StaWifiMac",
                    "Ssid",
                    SsidValue(ssid),
                    "ActiveProbing",
                    BooleanValue(true),
                    "AssocRequestTimeout",
                    TimeValue(MilliSeconds(50)));
        NetDeviceContainer sta = wifi.Install(phy, mac, stations);
        m_wifiDevices.Add(ap);
        m_wifiDevices.Add(sta);

        // The AP first: it gets the subnet's first address.
        NetDeviceContainer bss(ap, sta);
        Ipv4InterfaceContainer interfaces = bssAddresses.Assign(bss);
        bssAddresses.NewNetwork();
        // Assign() installs ns-3's default queue discipline (mq with FqCoDel); as on the
        // point-to-point links without link.queue_disc, packets wait in the device (the MAC).
        TrafficControlHelper().Uninstall(bss);
        apDevice[k] = DynamicCast<WifiNetDevice>(ap.Get(0));
        apAddress[k] = interfaces.GetAddress(0);
        for (uint32_t s = 0; s < sta.GetN(); ++s)
        {
            const uint32_t i = k + s * m_aps;
            stationDevice[i] = DynamicCast<WifiNetDevice>(sta.Get(s));
            stationAddress[i] = interfaces.GetAddress(s + 1);
            stationDevice[i]->GetMac()->TraceConnectWithoutContext(
                "Assoc",
                Callback<void, Mac48Address>(
                    [state](Mac48Address)
                    {
                        if (++state->associated == state->stations)
                        {
                            state->last = Simulator::Now();
                            if (state->callback)
                            {
                                std::function<void()> callback = std::move(state->callback);
                                state->callback = nullptr;
                                callback();
                            }
                        }
                    }));
            stationDevice[i]->GetMac()->TraceConnectWithoutContext(
                "DeAssoc",
                Callback<void, Mac48Address>(
                    [state](Mac48Address)
                    {
                        if (state->associated > 0)
                        {
                            --state->associated;
                            state->last = Seconds(-1);
                        }
                    }));
        }
    }
    underlay.addresses = LearnerAddresses(stationAddress);
    // The network is up once every station has associated (state outlives this helper).
    underlay.whenUp = [state](std::function<void()> up)
    {
        if (!state->last.IsNegative()) // every station associated already
        {
            up();
            return;
        }
        std::function<void()> before = std::move(state->callback);
        state->callback = [before, up]()
        {
            if (before)
            {
                before();
            }
            up();
        };
    };

    // The nominal rate: the constant mode's, or the best the standard sends at this width and
    // with these streams (the modes are listed from slowest to fastest within each class).
    auto rateOf = [&](const WifiMode& m, Ptr<WifiNetDevice> device)
    {
        return static_cast<double>(m.GetDataRate(GetChannelWidthForTransmission(m, width),
                                                 ConvertGuardIntervalToNanoSeconds(m, device),
                                                 StreamsOfMode(m, streams)));
    };
    auto nominalRate = [&](Ptr<WifiNetDevice> device)
    {
        double best = 0;
        for (const WifiMode& m : ModesOf(standard, width, streams))
        {
            if (mode.empty() ? m.GetModulationClass() == standard.top : m.GetUniqueName() == mode)
            {
                best = std::max(best, rateOf(m, device));
            }
        }
        return best;
    };
    auto queueOf = [](Ptr<WifiNetDevice> device)
    {
        Ptr<WifiMac> mac = device->GetMac();
        Ptr<Txop> txop
            = mac->GetQosSupported() ? Ptr<Txop>(mac->GetQosTxop(AC_BE)) : mac->GetTxop();
        std::ostringstream s;
        s << "wifi " << txop->GetWifiMacQueue()->GetMaxSize();
        return s.str();
    };
    auto wifiLink = [&](const std::string& from,
                        const std::string& to,
                        const std::string& role,
                        Ptr<WifiNetDevice> device)
    {
        UnderlayLink link;
        link.from = from;
        link.to = to;
        link.role = role;
        link.bandwidthBps = nominalRate(device);
        link.latencySeconds = 0.0;
        link.loss = 0.0;
        link.queue = queueOf(device);
        link.device = device;
        link.txSource = device->GetPhy();
        return link;
    };
    for (uint32_t i = 0; i < n; ++i)
    {
        underlay.links.push_back(wifiLink(
            std::to_string(i), "ap" + std::to_string(i % m_aps), "wifi-up", stationDevice[i]));
    }
    for (uint32_t k = 0; k < m_aps; ++k)
    {
        underlay.links.push_back(
            wifiLink("ap" + std::to_string(k), "stations", "wifi-down", apDevice[k]));
    }

    UnderlayLinkHelper backboneLinks(m_behaviour);
    std::vector<UnderlayLinkHelper::Link> uplinks;
    for (uint32_t k = 0; k < m_aps; ++k)
    {
        const std::string name = "ap" + std::to_string(k);
        uplinks.push_back(backboneLinks.Install(aps.Get(k),
                                                backbone,
                                                m_backboneBps,
                                                m_backboneBps,
                                                m_backboneLatency,
                                                underlay.links,
                                                name,
                                                "backbone",
                                                "backbone",
                                                "backbone"));
    }
    m_backboneLossModels = backboneLinks.GetLossModels();

    // Static routes (see the class comment): stations to their AP, APs to the backbone
    // router, the backbone router to every BSS.
    Ipv4StaticRoutingHelper routing;
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<Ipv4> ipv4 = learners.Get(i)->GetObject<Ipv4>();
        routing.GetStaticRouting(ipv4)->SetDefaultRoute(
            apAddress[i % m_aps], ipv4->GetInterfaceForDevice(stationDevice[i]));
    }
    Ptr<Ipv4StaticRouting> backboneRouting = routing.GetStaticRouting(backbone->GetObject<Ipv4>());
    for (uint32_t k = 0; k < m_aps; ++k)
    {
        auto [apIpv4, apInterface] = uplinks[k].interfaces.Get(0);
        routing.GetStaticRouting(apIpv4)->SetDefaultRoute(uplinks[k].interfaces.GetAddress(1),
                                                          apInterface);
        Ptr<Ipv4> apOnWifi = aps.Get(k)->GetObject<Ipv4>();
        const int32_t bssInterface = apOnWifi->GetInterfaceForDevice(apDevice[k]);
        const Ipv4Mask mask = apOnWifi->GetAddress(bssInterface, 0).GetMask();
        backboneRouting->AddNetworkRouteTo(apAddress[k].CombineMask(mask),
                                           mask,
                                           uplinks[k].interfaces.GetAddress(0),
                                           uplinks[k].interfaces.Get(1).second);
    }

    AssignBuiltStreams();
    NS_LOG_INFO(n << " stations on " << m_aps << " " << m_standard << " access points, " << width
                  << " MHz, " << underlay.links.front().bandwidthBps / 1e6 << " Mbit/s nominal");
    return underlay;
}

int64_t
WifiUnderlayHelper::AssignBuiltStreams()
{
    int64_t next = m_stream + AssignLossStreams(m_backboneLossModels, m_stream);
    next += WifiHelper().AssignStreams(m_wifiDevices, next);
    next += DynamicCast<YansWifiChannel>(m_channel)->AssignStreams(next);
    return next - m_stream;
}

int64_t
WifiUnderlayHelper::AssignStreams(int64_t stream)
{
    m_stream = stream;
    return m_channel ? AssignBuiltStreams() : 0;
}

void
WifiUnderlayHelper::SetAssociatedCallback(std::function<void()> callback)
{
    m_associatedCallback = std::move(callback);
}

Time
WifiUnderlayHelper::GetAssociationTime() const
{
    return m_associated ? *m_associated : Seconds(-1);
}

} // namespace ns3
