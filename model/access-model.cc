// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "access-model.h"

#include "csv-rows.h"
#include "random-variable-spec.h"

#include <cmath>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

AccessModel::Quantity
AccessModel::Parse(const std::string& key, const std::string& text, bool isRate)
{
    Quantity q;
    if (IsRandomVariableSpec(text))
    {
        q.random = ParseRandomVariable(key, text);
        q.scale = isRate ? 1e6 : 1e-3;
        // A constant's every draw is known now: refused before anything is written.
        if (double constant = ConstantValueOf(q.random); !std::isnan(constant))
        {
            CheckRange(key + " (its constant)", constant * q.scale, isRate);
        }
    }
    else
    {
        q.fixed = isRate ? ParseDataRateBps(key, text) : ParseLatencySeconds(key, text);
    }
    return q;
}

AccessModel::AccessModel(const std::string& up, const std::string& down, const std::string& latency)
    : m_up(Parse("access.up", up, true)), m_down(Parse("access.down", down, true)),
      m_latency(Parse("access.latency", latency, false))
{}

void
AccessModel::SetFile(const std::string& path)
{
    m_file = path;
}

int64_t
AccessModel::AssignStreams(int64_t stream)
{
    int64_t next = stream;
    for (Quantity* q : {&m_up, &m_down, &m_latency})
    {
        if (q->random)
        {
            q->random->SetStream(next);
        }
        ++next;
    }
    return 3;
}

void
AccessModel::CheckRange(const std::string& what, double value, bool isRate)
{
    if (isRate)
    {
        CheckDataRateBps(what, value);
    }
    else
    {
        CheckLatencySeconds(what, value);
    }
}

double
AccessModel::DrawOne(const Quantity& q, const std::string& key, uint32_t host, bool isRate)
{
    double value = q.random ? q.random->GetValue() * q.scale : q.fixed;
    CheckRange(key + " (drawn for host " + std::to_string(host) + ")", value, isRate);
    return value;
}

std::vector<AccessLink>
AccessModel::Draw(uint32_t hosts) const
{
    if (!m_file.empty())
    {
        return ReadFile(hosts);
    }
    std::vector<AccessLink> links(hosts);
    for (uint32_t h = 0; h < hosts; ++h)
    {
        links[h].upBps = DrawOne(m_up, "access.up", h, true);
        links[h].downBps = DrawOne(m_down, "access.down", h, true);
        links[h].latencySeconds = DrawOne(m_latency, "access.latency", h, false);
    }
    return links;
}

std::vector<AccessLink>
AccessModel::ReadFile(uint32_t hosts) const
{
    std::vector<AccessLink> links(hosts);
    ForEachLearnerRow("access.file",
                      m_file,
                      "host",
                      4,
                      hosts,
                      [&links](uint32_t h, const CsvRow& row)
                      {
                          links[h].upBps = ParseDataRateBps(row.where, row.fields[1]);
                          links[h].downBps = ParseDataRateBps(row.where, row.fields[2]);
                          links[h].latencySeconds = ParseLatencySeconds(row.where, row.fields[3]);
                      });
    return links;
}

} // namespace ns3
