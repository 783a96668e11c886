/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "link-model.h"

#include "random-variable-spec.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

namespace ns3
{

LinkModel::LinkModel(const std::string& bandwidth, const std::string& latency)
{
    if (IsRandomVariableSpec(bandwidth))
    {
        m_bandwidthMbps = ParseRandomVariable("link.bandwidth", bandwidth);
    }
    else
    {
        m_fixedBandwidthBps = ParseDataRateBps("link.bandwidth", bandwidth);
    }
    if (IsRandomVariableSpec(latency))
    {
        m_latencyMs = ParseRandomVariable("link.latency", latency);
    }
    else
    {
        m_fixedLatencySeconds = ParseSeconds("link.latency", latency);
    }
}

void
LinkModel::SetFile(const std::string& path)
{
    m_file = path;
}

int64_t
LinkModel::AssignStreams(int64_t stream)
{
    if (m_bandwidthMbps)
    {
        m_bandwidthMbps->SetStream(stream);
    }
    if (m_latencyMs)
    {
        m_latencyMs->SetStream(stream + 1);
    }
    return 2;
}

std::vector<LinkParameters>
LinkModel::Draw(const std::vector<std::pair<uint32_t, uint32_t>>& links) const
{
    if (!m_file.empty())
    {
        return ReadFile(links);
    }
    std::vector<std::pair<uint32_t, uint32_t>> sorted = links;
    std::sort(sorted.begin(), sorted.end());
    std::map<std::pair<uint32_t, uint32_t>, LinkParameters> drawn;
    for (auto [u, v] : sorted)
    {
        LinkParameters p;
        p.u = u;
        p.v = v;
        p.bandwidthBps = m_bandwidthMbps ? m_bandwidthMbps->GetValue() * 1e6 : m_fixedBandwidthBps;
        p.latencySeconds = m_latencyMs ? m_latencyMs->GetValue() * 1e-3 : m_fixedLatencySeconds;
        if (!(p.bandwidthBps > 0.0))
        {
            throw ConfigValueError("link.bandwidth: drew a non-positive bandwidth for link "
                                   + std::to_string(u) + "-" + std::to_string(v));
        }
        if (!(p.latencySeconds >= 0.0))
        {
            throw ConfigValueError("link.latency: drew a negative latency for link "
                                   + std::to_string(u) + "-" + std::to_string(v));
        }
        drawn[{u, v}] = p;
    }
    std::vector<LinkParameters> result;
    for (const auto& link : links)
    {
        result.push_back(drawn.at(link));
    }
    return result;
}

std::vector<LinkParameters>
LinkModel::ReadFile(const std::vector<std::pair<uint32_t, uint32_t>>& links) const
{
    std::ifstream in(m_file);
    if (!in)
    {
        throw ConfigValueError("link.file: cannot open " + m_file);
    }
    std::map<std::pair<uint32_t, uint32_t>, LinkParameters> listed;
    std::string line;
    for (int lineNo = 1; std::getline(in, line); ++lineNo)
    {
        line = line.substr(0, line.find('#'));
        std::string where = "link.file " + m_file + ":" + std::to_string(lineNo);
        std::vector<std::string> fields;
        std::stringstream ss(line);
        for (std::string f; std::getline(ss, f, ',');)
        {
            f.erase(0, f.find_first_not_of(" \t\r"));
            f.erase(f.find_last_not_of(" \t\r") + 1);
            fields.push_back(f);
        }
        if (fields.empty() || (fields.size() == 1 && fields[0].empty()))
        {
            continue;
        }
        if (lineNo == 1 && fields[0] == "u")
        {
            continue; // header
        }
        if (fields.size() != 4)
        {
            throw ConfigValueError(where + ": expected u,v,bandwidth,latency");
        }
        LinkParameters p;
        try
        {
            long u = std::stol(fields[0]);
            long v = std::stol(fields[1]);
            if (u < 0 || v < 0)
            {
                throw std::out_of_range("negative");
            }
            p.u = static_cast<uint32_t>(std::min(u, v));
            p.v = static_cast<uint32_t>(std::max(u, v));
        }
        catch (const std::logic_error&)
        {
            throw ConfigValueError(where + ": node numbers expected, got '" + fields[0] + ","
                                   + fields[1] + "'");
        }
        p.bandwidthBps = ParseDataRateBps(where, fields[2]);
        p.latencySeconds = ParseSeconds(where, fields[3]);
        if (!listed.emplace(std::make_pair(p.u, p.v), p).second)
        {
            throw ConfigValueError(where + ": link " + fields[0] + "-" + fields[1]
                                   + " listed twice");
        }
    }
    std::vector<LinkParameters> result;
    for (const auto& link : links)
    {
        auto it = listed.find(link);
        if (it == listed.end())
        {
            throw ConfigValueError("link.file " + m_file + " has no line for link "
                                   + std::to_string(link.first) + "-"
                                   + std::to_string(link.second));
        }
        result.push_back(it->second);
        listed.erase(it);
    }
    if (!listed.empty())
    {
        auto [u, v] = listed.begin()->first;
        throw ConfigValueError("link.file " + m_file + " lists link " + std::to_string(u) + "-"
                               + std::to_string(v) + ", which is not in the topology");
    }
    return result;
}

} // namespace ns3
