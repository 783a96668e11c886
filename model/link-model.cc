// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "link-model.h"

#include "csv-rows.h"
#include "random-variable-spec.h"
#include "user-file.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

namespace
{

/// Longer lines are not link files; refusing them keeps a hostile file from filling memory.
constexpr size_t kMaxLinkLineLength = 4096;

/// The next line of `in` without its end of line; false at the end of the file. Throws
/// ConfigValueError naming `where` for a line longer than kMaxLinkLineLength.
bool
NextLinkLine(std::istream& in, std::string& line, const std::string& where)
{
    LineRead read = ReadBoundedLine(in, line, kMaxLinkLineLength);
    if (read == LineRead::TooLong)
    {
        throw ConfigValueError(where + ": line longer than " + std::to_string(kMaxLinkLineLength)
                               + " characters (is this a link file?)");
    }
    return read == LineRead::Line;
}

/// A learner number: decimal digits only and at most UINT32_MAX, never cut down to fit.
bool
ParseLinkNode(const std::string& text, uint32_t& node)
{
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    {
        return false;
    }
    size_t first = std::min(text.find_first_not_of('0'), text.size());
    if (text.size() - first > 10)
    {
        return false;
    }
    uint64_t value = std::stoull(text);
    if (value > UINT32_MAX)
    {
        return false;
    }
    node = static_cast<uint32_t>(value);
    return true;
}

} // namespace

LinkModel::LinkModel(const std::string& bandwidth, const std::string& latency)
{
    if (IsRandomVariableSpec(bandwidth))
    {
        m_bandwidthMbps = ParseRandomVariable("link.bandwidth", bandwidth);
        // A constant's every draw is known now: refused before anything is written.
        if (double constant = ConstantValueOf(m_bandwidthMbps); !std::isnan(constant))
        {
            CheckDataRateBps("link.bandwidth (its constant, in Mbit/s)", constant * 1e6);
        }
    }
    else
    {
        m_fixedBandwidthBps = ParseDataRateBps("link.bandwidth", bandwidth);
    }
    if (IsRandomVariableSpec(latency))
    {
        m_latencyMs = ParseRandomVariable("link.latency", latency);
        if (double constant = ConstantValueOf(m_latencyMs); !std::isnan(constant))
        {
            CheckLatencySeconds("link.latency (its constant, in ms)", constant * 1e-3);
        }
    }
    else
    {
        m_fixedLatencySeconds = ParseLatencySeconds("link.latency", latency);
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
        const std::string link
            = " (drawn for link " + std::to_string(u) + "-" + std::to_string(v) + ")";
        CheckDataRateBps("link.bandwidth" + link, p.bandwidthBps);
        CheckLatencySeconds("link.latency" + link, p.latencySeconds);
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
    if (const std::string why = UnreadableFileReason(m_file); !why.empty())
    {
        throw ConfigValueError("link.file: cannot read " + m_file + ": " + why);
    }
    std::ifstream in(m_file, std::ios::binary);
    if (!in)
    {
        throw ConfigValueError("link.file: cannot open " + m_file);
    }
    std::map<std::pair<uint32_t, uint32_t>, LinkParameters> listed;
    std::string line;
    // A run's own links.csv ("from,to,role,bandwidth_bps,latency_s,...") is read too: its
    // direct links, each listed once per direction, rates in bit/s and latencies in seconds.
    bool runOutput = false;
    for (uint64_t lineNo = 1;; ++lineNo)
    {
        std::string where = "link.file " + m_file + ":" + std::to_string(lineNo);
        if (!NextLinkLine(in, line, where))
        {
            break;
        }
        line = line.substr(0, line.find('#'));
        std::vector<std::string> fields;
        std::stringstream ss(line);
        for (std::string f; fields.size() <= 10 && std::getline(ss, f, ',');)
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
        if (lineNo == 1 && fields[0] == "from")
        {
            runOutput = true;
            continue;
        }
        if (runOutput)
        {
            if (fields.size() < 5)
            {
                throw ConfigValueError(where + ": expected from,to,role,bandwidth_bps,latency_s");
            }
            if (fields[2] != "direct")
            {
                continue; // links of other underlays have no place in a direct network
            }
            fields = {fields[0], fields[1], fields[3] + "bps", fields[4] + "s"};
        }
        if (fields.size() != 4)
        {
            throw ConfigValueError(where + ": expected u,v,bandwidth,latency");
        }
        LinkParameters p;
        uint32_t u;
        uint32_t v;
        if (!ParseLinkNode(fields[0], u) || !ParseLinkNode(fields[1], v))
        {
            throw ConfigValueError(where + ": node numbers from 0 to " + std::to_string(UINT32_MAX)
                                   + " expected, got '" + fields[0] + "," + fields[1] + "'");
        }
        p.u = std::min(u, v);
        p.v = std::max(u, v);
        p.bandwidthBps = ParseDataRateBps(where, fields[2]);
        p.latencySeconds = ParseLatencySeconds(where, fields[3]);
        auto [it, added] = listed.emplace(std::make_pair(p.u, p.v), p);
        const bool sameAgain = runOutput && it->second.bandwidthBps == p.bandwidthBps
                               && it->second.latencySeconds == p.latencySeconds;
        if (!added && !sameAgain)
        {
            throw ConfigValueError(
                where + ": link " + fields[0] + "-" + fields[1]
                + (runOutput ? " listed with two different values" : " listed twice"));
        }
    }
    if (in.bad())
    {
        throw ConfigValueError("link.file: error reading " + m_file);
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
    }
    // Links the overlay does not use are ignored: one file can serve several overlays.
    return result;
}

} // namespace ns3
