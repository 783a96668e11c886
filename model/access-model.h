// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Uplink rate, downlink rate and latency of every learner host's access link.
 */
#ifndef DLSIM_ACCESS_MODEL_H
#define DLSIM_ACCESS_MODEL_H

#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/// One host's access link: host-to-router (up) and router-to-host (down) rates, one-way latency.
struct AccessLink
{
    double upBps = 0.0;          ///< host to router, bit/s
    double downBps = 0.0;        ///< router to host, bit/s
    double latencySeconds = 0.0; ///< one way
};

/**
 * Draws access links, from ns-3 random variable streams or from a per-host CSV file.
 *
 * A rate is "10Mbps" (fixed) or a random variable string drawn in Mbit/s, a latency "5ms" or a
 * random variable in ms, as for LinkModel. Hosts are drawn in order 0..n-1, uplink, downlink
 * and latency each from its own stream.
 */
class AccessModel
{
  public:
    /**
     * \param up the uplink rate: "10Mbps" or a random variable in Mbit/s
     * \param down the downlink rate, as `up`
     * \param latency the one-way latency: "5ms" or a random variable in ms
     * \throws ConfigValueError naming access.up, access.down or access.latency
     */
    AccessModel(const std::string& up, const std::string& down, const std::string& latency);

    /**
     * Use a CSV file "host,up,down,latency" (e.g. "3,2Mbps,20Mbps,8ms"; '#' comments and a
     * header line starting with "host" are allowed) instead; every host listed exactly once.
     * \param path the file
     */
    void SetFile(const std::string& path);

    /**
     * \param stream the first random stream
     * \return the number of streams used (3)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \param hosts the number of hosts
     * \return each host's access link
     * \throws ConfigValueError naming the key (or file and line) of a value out of range
     */
    std::vector<AccessLink> Draw(uint32_t hosts) const;

  private:
    struct Quantity
    {
        Ptr<RandomVariableStream> random; ///< null when fixed
        double fixed = 0.0;
        double scale = 1.0; ///< from the random variable's unit to bit/s or seconds
    };

    static Quantity Parse(const std::string& key, const std::string& text, bool isRate);
    static double DrawOne(const Quantity& q, const std::string& key, uint32_t host, bool isRate);
    /// Throws ConfigValueError unless a rate or a latency is within what dlsim gives ns-3
    /// (CheckDataRateBps, CheckLatencySeconds).
    static void CheckRange(const std::string& what, double value, bool isRate);
    std::vector<AccessLink> ReadFile(uint32_t hosts) const;

    Quantity m_up;
    Quantity m_down;
    Quantity m_latency;
    std::string m_file;
};

} // namespace ns3

#endif // DLSIM_ACCESS_MODEL_H
