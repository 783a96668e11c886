// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "fault-plan.h"

#include "csv-rows.h"
#include "random-variable-spec.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

namespace
{

/// "DOWN" or "DOWN-UP" (times with units) into an interval; `where` names the item.
std::pair<double, double>
ParseInterval(const std::string& where, const std::string& text)
{
    const size_t dash = text.find('-');
    const double down = ParseSeconds(where, text.substr(0, dash));
    double up = std::numeric_limits<double>::infinity();
    if (dash != std::string::npos)
    {
        up = ParseSeconds(where, text.substr(dash + 1));
    }
    if (!(down >= 0.0) || !(up > down))
    {
        throw ConfigValueError(where + ": the outage must end after it starts, got '"
                               + ShownText(text) + "'");
    }
    return {down, up};
}

/// Split "LEFT@RIGHT", or throw naming `where`.
std::pair<std::string, std::string>
SplitAt(const std::string& where, const std::string& item, const std::string& form)
{
    const size_t at = item.find('@');
    if (at == std::string::npos || at == 0 || at + 1 == item.size())
    {
        throw ConfigValueError(where + ": expected " + form + ", got '" + ShownText(item) + "'");
    }
    return {item.substr(0, at), item.substr(at + 1)};
}

} // namespace

bool
FaultPlan::Empty() const
{
    return hosts.empty() && links.empty() && meanUp <= 0.0;
}

FaultPlan
ReadFaultPlan(const std::vector<std::string>& crashes,
              const std::string& crashFile,
              const std::string& availabilityFile,
              const std::vector<std::string>& links,
              uint32_t learners)
{
    FaultPlan plan;
    auto addHost = [&plan, learners](const std::string& where,
                                     const std::string& node,
                                     double down,
                                     double up)
    {
        HostOutage outage;
        outage.node = static_cast<uint32_t>(ParseIndex(where, node, UINT32_MAX));
        if (outage.node >= learners)
        {
            throw ConfigValueError(where + ": node " + node + " does not exist ("
                                   + std::to_string(learners) + " learners)");
        }
        outage.down = down;
        outage.up = up;
        plan.hosts.push_back(outage);
    };
    for (const std::string& item : crashes)
    {
        const std::string where = "faults.crash item '" + ShownText(item) + "'";
        auto [node, interval] = SplitAt(where, item, "NODE@DOWN or NODE@DOWN-UP, e.g. 3@60s-90s");
        auto [down, up] = ParseInterval(where, interval);
        addHost(where, node, down, up);
    }
    if (!crashFile.empty())
    {
        for (const CsvRow& row : ReadCsvRows("faults.file", crashFile, "node", 3))
        {
            const double down = ParseNumber(row.where + " down_s", row.fields[1], 0.0, kMaxSeconds);
            double up = std::numeric_limits<double>::infinity();
            if (!row.fields[2].empty())
            {
                up = ParseNumber(row.where + " up_s", row.fields[2], 0.0, kMaxSeconds);
                if (!(up > down))
                {
                    throw ConfigValueError(row.where + ": up_s must be after down_s");
                }
            }
            addHost(row.where, row.fields[0], down, up);
        }
    }
    if (!availabilityFile.empty())
    {
        // On-intervals per host, in time order; the gaps between them are the outages.
        // Keyed by the node's number, so that "3" and "03" are one host.
        std::map<uint64_t, std::vector<std::pair<double, double>>> online;
        std::map<uint64_t, std::string> whereOf;
        for (const CsvRow& row : ReadCsvRows("faults.availability", availabilityFile, "node", 3))
        {
            const double on = ParseNumber(row.where + " online_s", row.fields[1], 0.0, kMaxSeconds);
            double off = std::numeric_limits<double>::infinity();
            if (!row.fields[2].empty())
            {
                off = ParseNumber(row.where + " offline_s", row.fields[2], 0.0, kMaxSeconds);
                if (!(off > on))
                {
                    throw ConfigValueError(row.where + ": offline_s must be after online_s");
                }
            }
            const uint64_t node = ParseIndex(row.where + " node", row.fields[0], UINT32_MAX);
            auto& intervals = online[node];
            if (!intervals.empty() && on < intervals.back().second)
            {
                throw ConfigValueError(row.where + ": node " + row.fields[0]
                                       + " is already on then (its intervals must be in time "
                                         "order and not overlap)");
            }
            intervals.emplace_back(on, off);
            whereOf.emplace(node, row.where);
        }
        for (const auto& [node, intervals] : online)
        {
            double off = 0.0; // the host is off from here until its next on-interval
            for (const auto& [on, next] : intervals)
            {
                if (on > off)
                {
                    addHost(whereOf[node], std::to_string(node), off, on);
                }
                off = next;
            }
            if (!std::isinf(off))
            {
                addHost(whereOf[node],
                        std::to_string(node),
                        off,
                        std::numeric_limits<double>::infinity());
            }
        }
    }
    std::sort(plan.hosts.begin(),
              plan.hosts.end(),
              [](const HostOutage& x, const HostOutage& y)
              { return x.node != y.node ? x.node < y.node : x.down < y.down; });
    for (size_t i = 1; i < plan.hosts.size(); ++i)
    {
        const HostOutage& before = plan.hosts[i - 1];
        if (before.node == plan.hosts[i].node && plan.hosts[i].down < before.up)
        {
            throw ConfigValueError("faults: node " + std::to_string(before.node)
                                   + " has overlapping outages (a host that is off cannot "
                                     "crash again)");
        }
    }
    for (const std::string& item : links)
    {
        const std::string where = "faults.links item '" + ShownText(item) + "'";
        auto [ends, interval] = SplitAt(where, item, "A:B@DOWN-UP, e.g. 3:core@10s-20s");
        // Router names may hold dashes ("eu-west"), so the ends are split at a colon.
        const size_t colon = ends.find(':');
        if (colon == std::string::npos || colon == 0 || colon + 1 == ends.size())
        {
            throw ConfigValueError(where + ": expected the link's two ends as A:B (names as in "
                                           "links.csv), got '"
                                   + ends + "'");
        }
        LinkOutage outage;
        outage.a = ends.substr(0, colon);
        outage.b = ends.substr(colon + 1);
        std::tie(outage.down, outage.up) = ParseInterval(where, interval);
        plan.links.push_back(outage);
    }
    return plan;
}

} // namespace ns3
