// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Bandwidth and one-way latency of every physical link of the overlay.
 */
#ifndef DLSIM_LINK_MODEL_H
#define DLSIM_LINK_MODEL_H

#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/// The drawn parameters of one point-to-point link between learners u < v.
struct LinkParameters
{
    uint32_t u = 0;              ///< one learner
    uint32_t v = 0;              ///< the other (u < v)
    double bandwidthBps = 0.0;   ///< both ways
    double latencySeconds = 0.0; ///< one way
};

/**
 * Draws link parameters, either from ns-3 random variable streams or from a per-link CSV file.
 *
 * Bandwidth is "10Mbps" (fixed) or a random variable string whose draws are in Mbit/s, e.g.
 * "ns3::UniformRandomVariable[Min=5|Max=20]". Latency is "10ms" or a random variable in
 * milliseconds. Links are drawn in ascending (u, v) order, bandwidth from one stream and
 * latency from another, so a link's values do not depend on how many links precede it in the
 * other stream.
 */
class LinkModel
{
  public:
    /**
     * \param bandwidth "10Mbps" or a random variable in Mbit/s
     * \param latency "10ms" or a random variable in ms
     * \throws ConfigValueError naming link.bandwidth or link.latency on a bad string
     */
    LinkModel(const std::string& bandwidth, const std::string& latency);

    /**
     * Use a CSV file "u,v,bandwidth,latency" (e.g. "0,1,10Mbps,5ms"; '#' comments and a header
     * line starting with "u" are allowed) instead of the random variables. Every link must be
     * listed exactly once; errors name the file and line.
     * \param path the file
     */
    void SetFile(const std::string& path);

    /**
     * \param stream the first random stream
     * \return the number of streams used (2)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \param links the links {u < v}
     * \return their parameters, in the order given
     */
    std::vector<LinkParameters> Draw(const std::vector<std::pair<uint32_t, uint32_t>>& links) const;

  private:
    Ptr<RandomVariableStream> m_bandwidthMbps; ///< null when the bandwidth is fixed
    Ptr<RandomVariableStream> m_latencyMs;     ///< null when the latency is fixed
    double m_fixedBandwidthBps = 0.0;
    double m_fixedLatencySeconds = 0.0;
    std::string m_file;

    std::vector<LinkParameters> ReadFile(
        const std::vector<std::pair<uint32_t, uint32_t>>& links) const;
};

} // namespace ns3

#endif // DLSIM_LINK_MODEL_H
