// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The Wi-Fi underlay: learners are stations of 802.11 access points joined by a wired backbone.
 */
#ifndef DLSIM_WIFI_UNDERLAY_HELPER_H
#define DLSIM_WIFI_UNDERLAY_HELPER_H

#include "ns3/net-device-container.h"
#include "ns3/nstime.h"
#include "ns3/vector.h"
#include "underlay-link-helper.h"
#include "underlay.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * Learners as the Wi-Fi stations of one or more 802.11 access points (APs) in the 5 GHz band,
 * say a classroom of laptops. The APs are new nodes; each has a point-to-point link to one
 * backbone router (1 Gbit/s and 1 ms each way unless SetBackbone says otherwise), so a message
 * between stations of different APs crosses the air, the backbone and the air again, and one
 * between stations of the same AP crosses the air twice (the AP relays it).
 *
 * Station i belongs to AP i % aps. Stations stand on a circle of SetStationDistance (5 m)
 * around their AP, spread evenly; AP k stands at (k * SetApSpacing, 0, 0) (50 m apart), all
 * at height 0 and still (ConstantPositionMobilityModel); SetStationPositions and
 * SetApPositions place them explicitly instead. Radio propagation is ns-3's
 * LogDistancePropagationLossModel (path loss exponent 3, 46.6777 dB at the 1 m reference
 * distance: free space at 5.15 GHz, ns-3's defaults; see SetPropagation) with ns-3's default
 * 16.0206 dBm transmit power and constant-speed propagation delay. Every station is
 * checked to be in reach of its AP: with these defaults a station hears its AP up to about
 * 51 m away (where the signal falls to the -82 dBm below which ns-3's receivers detect no
 * preamble).
 *
 * Each AP's BSS gets its own non-overlapping 5 GHz channel of the channel width (20 MHz:
 * 36, 40, ..., 64, 100, ..., 144, 149, ..., 165; 40 MHz: 38, 46, 54, 62, 102, ..., 142, 151,
 * 159; 80 MHz: 42, 58, 106, 122, 138, 155; 160 MHz: 50, 114), so BSSs never contend with one
 * another; with more APs than channels the channels are used again in turn, and BSSs on the
 * same channel share it when they are in reach of one another. SetSharedChannel puts every
 * BSS on the first channel instead. (ns-3's YansWifiChannel models no adjacent-channel
 * interference: different channels do not interfere at all.)
 *
 * The Wi-Fi devices have 2 antennas and 2 spatial streams (802.11a: 1), the short guard
 * interval (400 ns for 802.11n/ac, 800 ns for 802.11ax), ns-3's default MAC (802.11n and later:
 * QoS, A-MPDU aggregation up to 65,535 bytes, block acks) and no queue discipline: a packet
 * waits in the MAC's WifiMacQueue (ns-3's 500 packets; also dropped after 500 ms there), as a
 * point-to-point link's packets wait in its device queue with link.queue_disc = none.
 *
 * Stations associate with their AP at the start of the simulation (a probe request and
 * response, then an association request and response; an unanswered request is repeated after
 * 50 ms, not ns-3's 500 ms, since association is only a start-up transient that a
 * classroom's laptops finished long ago): some 50 ms for a handful of stations, a few hundred
 * for a hundred stations of one AP. Until then a station drops what it is given to send, and
 * its association flushes its ARP cache with the packets waiting there: a TCP connection
 * opened before it opens only when TCP repeats its SYN (ns3::TcpSocket::ConnTimeout, 3 s; the
 * Linux profile's 1 s). Start what the stations send once they are associated:
 * SetAssociatedCallback says when (an application installed then starts its start time
 * later); GetAssociationTime says afterwards when it was.
 *
 * Addresses: AP k's BSS is one IPv4 subnet (from 10.128.0.0 on, sized for the largest BSS,
 * the AP first); the backbone links get /30 subnets from 10.0.0.0 on. Routes are static:
 * a station sends everything to its AP, an AP everything not for its BSS to the backbone
 * router, which has one route per BSS. (ns-3's global routing handles Wi-Fi too, treating a
 * BSS as a broadcast network, but runs a shortest-path search from every station over every
 * node; in this star of stars the routes are known without one.)
 */
class WifiUnderlayHelper : public UnderlayHelper
{
  public:
    /// A helper with the defaults the class describes.
    WifiUnderlayHelper();

    /**
     * The 802.11 amendment: 80211a, 80211n, 80211ac (the default: what most classroom laptops
     * and access points speak) or 80211ax.
     * \param standard the amendment
     * \throws ConfigValueError naming wifi.standard
     */
    void SetStandard(const std::string& standard);
    /**
     * Channel width in MHz: 20, 40, 80 or 160; 0 (the default) takes the standard's
     * customary width: 20 for 80211a (its only one), 40 for 80211n, 80 for 80211ac and
     * 80211ax. Whether the standard allows the width is checked by Check.
     * \param mhz the width
     */
    void SetChannelWidth(uint16_t mhz);
    /**
     * The rate manager of every device: "ideal" (the default), "minstrel-ht", or
     * "constant:MODE" with an ns-3 WifiMode name, e.g. constant:OfdmRate54Mbps (802.11a rates:
     * OfdmRate6Mbps ... OfdmRate54Mbps), constant:HtMcs7, constant:VhtMcs9, constant:HeMcs11.
     * Ideal because the stations stand still at a few metres from their AP: the channel never
     * changes, so the best rate is known from the signal-to-noise ratio, and minstrel's
     * sampling of other rates would only add random airtime. Whether the standard, width and
     * streams allow the mode is checked by Check.
     * \param manager the rate manager
     */
    void SetRateManager(const std::string& manager);
    /// \param streams spatial streams (and antennas) of every device, 1 to 4; 0 (the
    /// default): 2, or 1 for 80211a
    void SetSpatialStreams(uint32_t streams);
    /// \param aps the number of APs (default 1); station i belongs to AP i % aps
    void SetAccessPoints(uint32_t aps);
    /// \param shared every BSS on one shared channel (true) or each on its own (false, the
    /// default)
    void SetSharedChannel(bool shared);
    /// \param meters distance of every station from its AP (default 5), when not placed
    /// explicitly
    void SetStationDistance(double meters);
    /// \param meters distance between neighbouring APs on the x axis (default 50)
    void SetApSpacing(double meters);
    /// \param positions where every station stands (x, y, z in metres), learner i at
    /// positions[i]
    void SetStationPositions(std::vector<Vector> positions);
    /// \param positions where every AP stands (x, y, z in metres), AP k at positions[k]
    void SetApPositions(std::vector<Vector> positions);
    /**
     * The log-distance path loss: loss(d) = referenceLossDb + 10 * exponent * log10(d / 1 m)
     * (defaults 3 and 46.6777 dB, ns-3's: an indoor exponent, and free space at 1 m at 5.15 GHz).
     * \param exponent the path loss exponent
     * \param referenceLossDb the loss at 1 m
     */
    void SetPropagation(double exponent, double referenceLossDb);
    /**
     * \brief Every AP's link to the backbone router.
     * \param bandwidthBps its rate (bit/s)
     * \param latencySeconds its one-way latency
     */
    void SetBackbone(double bandwidthBps, double latencySeconds);
    /// \param behaviour queue, queue discipline and loss of the backbone links (the Wi-Fi
    /// devices keep theirs)
    void SetLinkBehaviour(const LinkBehaviour& behaviour);
    /**
     * The random streams from `stream` on: the backbone links' loss models, every Wi-Fi device
     * (WifiHelper::AssignStreams: backoff, beacon jitter, rate manager) and the channel's
     * propagation models. Takes effect at Install (by default from 1000); called after Install it
     * assigns them at once.
     * \param stream the first stream
     * \return the number of streams used, or 0 before Install
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * Throws ConfigValueError, naming the wifi.* setting, unless the settings can build a
     * network for `learners` learners: the width and streams the standard allows, a constant
     * mode the standard, width and streams allow, at most as many APs as learners, one
     * position per station and per AP when given, every station in reach of its AP, and a
     * constant mode that gets at least one frame in ten through at every station's
     * signal-to-noise ratio.
     * \param learners the number of learners (stations)
     */
    void Check(uint32_t learners) const;

    /**
     * Build the network (Check first). The Underlay's links: one "wifi-up" direction per
     * station (from the learner's index to "apK"), one "wifi-down" per AP (from "apK" to
     * "stations"), then the backbone, "apK" to "backbone" and back (role "backbone"). A Wi-Fi
     * direction's device is the WifiNetDevice and its txSource the WifiPhy, whose PhyTxEnd
     * fires for every frame sent, with MAC header and FCS: data, acks, beacons, management.
     * Its bandwidthBps is the nominal PHY rate: a constant mode's rate, otherwise the highest
     * rate of the standard at the width and streams used (e.g. 866.7 Mbit/s for 802.11ac,
     * 80 MHz, 2 streams); latency and loss 0 (propagation over metres takes nanoseconds);
     * queue "wifi 500p". routers holds AP 0 ... AP k-1, then the backbone router.
     * \param learners the stations, learner i at index i
     * \return the addresses, devices and links built
     */
    Underlay Install(NodeContainer learners) override;

    /**
     * Called once, during the simulation, when every station built by the next Install has
     * associated with its AP: the moment from which the stations' packets get through.
     * \param callback what to call
     */
    void SetAssociatedCallback(std::function<void()> callback);

    /**
     * \return when the last station associated with its AP, once the simulation has run that
     * far; a negative time before then
     */
    Time GetAssociationTime() const;

  private:
    /// The width used: the one set, or the standard's customary one.
    uint16_t Width() const;
    /// The spatial streams used: the ones set, or the standard's default.
    uint32_t Streams() const;
    /// Where station i stands, and where AP k stands.
    Vector StationPosition(uint32_t i, uint32_t learners) const;
    Vector ApPosition(uint32_t k) const;
    /**
     * The share of frames of a 1500-byte packet that constant mode `name` gets through at
     * `rxDbm`, by ns-3's SNR (set in snrDb) and its table-based error model (the YansWifiPhy's).
     */
    double ConstantModeSuccess(const std::string& name, double rxDbm, double& snrDb) const;
    /// Assign the streams of the built network from m_stream; the number used.
    int64_t AssignBuiltStreams();

    std::string m_standard = "80211ac";
    uint16_t m_width = 0;
    std::string m_manager = "ideal";
    uint32_t m_streams = 0;
    uint32_t m_aps = 1;
    bool m_shared = false;
    double m_distance = 5.0;
    double m_apSpacing = 50.0;
    std::vector<Vector> m_stationPositions;
    std::vector<Vector> m_apPositions;
    double m_exponent = 3.0;
    double m_referenceLossDb = 46.6777;
    double m_backboneBps = 1e9;
    double m_backboneLatency = 0.001;
    LinkBehaviour m_behaviour;
    int64_t m_stream = 1000;

    /// What Install built, for AssignStreams after it and GetAssociationTime.
    NetDeviceContainer m_wifiDevices;
    Ptr<Object> m_channel;
    std::vector<Ptr<RateErrorModel>> m_backboneLossModels;
    std::shared_ptr<Time> m_associated;
    std::function<void()> m_associatedCallback;
};

} // namespace ns3

#endif // DLSIM_WIFI_UNDERLAY_HELPER_H
