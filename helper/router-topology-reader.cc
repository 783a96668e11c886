// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "router-topology-reader.h"

#include "csv-rows.h"
#include "ns3/topology-reader-helper.h"
#include "random-variable-spec.h"

#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>

namespace ns3
{

namespace
{

/// Links the file itself declares, counted without ns-3, to catch lines the reader skipped.
size_t
CountDeclaredLinks(const std::string& path, const std::string& format)
{
    const std::string key = "underlay.file " + path;
    std::ifstream in(path);
    if (!in)
    {
        throw ConfigValueError("underlay.file: cannot open " + path);
    }
    std::string line;
    std::vector<std::vector<std::string>> lines;
    while (std::getline(in, line))
    {
        std::istringstream words(line);
        std::vector<std::string> fields;
        for (std::string w; words >> w;)
        {
            fields.push_back(w);
        }
        lines.push_back(fields);
    }
    if (format == "inet")
    {
        // "nodes links", then a line per node, then a line per link.
        if (lines.empty() || lines[0].size() < 2)
        {
            throw ConfigValueError(key + ":1: expected the Inet header 'NODES LINKS'");
        }
        uint64_t nodes = ParseIndex(key + ":1", lines[0][0], 10000000);
        uint64_t links = ParseIndex(key + ":1", lines[0][1], 100000000);
        if (lines.size() < 1 + nodes + links)
        {
            throw ConfigValueError(key + ": the header announces " + std::to_string(nodes)
                                   + " nodes and " + std::to_string(links)
                                   + " links but the file has " + std::to_string(lines.size() - 1)
                                   + " more lines");
        }
        for (uint64_t k = 0; k < links; ++k)
        {
            const auto& f = lines[1 + nodes + k];
            if (f.size() < 2)
            {
                throw ConfigValueError(key + ":" + std::to_string(2 + nodes + k)
                                       + ": expected a link 'FROM TO [WEIGHT]'");
            }
        }
        return links;
    }
    // Orbis and Rocketfuel weights files: one link per non-empty line.
    size_t links = 0;
    std::set<std::pair<std::string, std::string>> pairs;
    for (size_t k = 0; k < lines.size(); ++k)
    {
        const auto& f = lines[k];
        if (f.empty())
        {
            continue;
        }
        size_t expected = format == "orbis" ? 2 : 3;
        if (f.size() != expected)
        {
            throw ConfigValueError(key + ":" + std::to_string(k + 1) + ": expected "
                                   + (format == "orbis" ? "'FROM TO'" : "'FROM TO WEIGHT'"));
        }
        if (format == "rocketfuel")
        {
            ParseNumber(key + ":" + std::to_string(k + 1), f[2], 0.0, 1e300);
            // ns-3 keeps one link for a pair listed in both directions.
            if (pairs.count({f[1], f[0]}) || pairs.count({f[0], f[1]}))
            {
                continue;
            }
            pairs.insert({f[0], f[1]});
        }
        ++links;
    }
    return links;
}

} // namespace

RouterNetwork
ReadRouterTopology(const std::string& path, const std::string& format)
{
    static const std::map<std::string, std::string> types
        = {{"inet", "Inet"}, {"orbis", "Orbis"}, {"rocketfuel", "Rocketfuel"}};
    auto type = types.find(format);
    if (type == types.end())
    {
        throw ConfigValueError("underlay.format: '" + format
                               + "' is not one of inet, orbis, rocketfuel");
    }
    const size_t declared = CountDeclaredLinks(path, format);
    TopologyReaderHelper helper;
    helper.SetFileName(path);
    helper.SetFileType(type->second);
    Ptr<TopologyReader> reader = helper.GetTopologyReader();
    reader->Read();
    const std::string key = "underlay.file " + path;
    if (reader->LinksSize() == 0)
    {
        throw ConfigValueError(key + ": no links read (is it a " + format + " file?)");
    }
    if (static_cast<size_t>(reader->LinksSize()) != declared)
    {
        throw ConfigValueError(key + ": the file has " + std::to_string(declared)
                               + " links but ns-3's " + type->second + " reader understood "
                               + std::to_string(reader->LinksSize()));
    }
    RouterNetwork net;
    std::map<std::string, uint32_t> index;
    auto routerOf = [&](const std::string& name)
    {
        auto [it, added] = index.emplace(name, static_cast<uint32_t>(net.routers.size()));
        if (added)
        {
            net.routers.push_back(name);
        }
        return it->second;
    };
    std::set<std::pair<uint32_t, uint32_t>> seen;
    for (auto it = reader->LinksBegin(); it != reader->LinksEnd(); ++it)
    {
        RouterNetwork::Link link;
        link.a = routerOf(it->GetFromNodeName());
        link.b = routerOf(it->GetToNodeName());
        link.role = "router";
        if (link.a == link.b)
        {
            throw ConfigValueError(key + ": router " + it->GetFromNodeName()
                                   + " is linked to itself");
        }
        if (!seen.insert({std::min(link.a, link.b), std::max(link.a, link.b)}).second)
        {
            continue; // a pair listed twice is one link
        }
        net.links.push_back(link);
    }
    // Connected? A union-find over the links.
    std::vector<uint32_t> parent(net.routers.size());
    for (uint32_t i = 0; i < parent.size(); ++i)
    {
        parent[i] = i;
    }
    std::function<uint32_t(uint32_t)> find = [&](uint32_t x)
    {
        return parent[x] == x ? x : parent[x] = find(parent[x]);
    };
    for (const auto& l : net.links)
    {
        parent[find(l.a)] = find(l.b);
    }
    for (uint32_t i = 1; i < parent.size(); ++i)
    {
        if (find(i) != find(0))
        {
            throw ConfigValueError(key + ": router " + net.routers[i] + " cannot reach router "
                                   + net.routers[0] + " (the topology is not connected)");
        }
    }
    return net;
}

std::vector<uint32_t>
AttachLearners(const RouterNetwork& network,
               uint32_t learners,
               const std::string& mode,
               const std::string& file,
               Ptr<UniformRandomVariable> rng)
{
    const auto routers = static_cast<uint32_t>(network.routers.size());
    std::vector<uint32_t> attachment(learners, 0);
    if (mode == "random")
    {
        for (uint32_t i = 0; i < learners; ++i)
        {
            attachment[i] = rng->GetInteger(0, routers - 1);
        }
        return attachment;
    }
    if (mode != "file")
    {
        throw ConfigValueError("underlay.attach: '" + mode + "' is not one of random, file");
    }
    if (file.empty())
    {
        throw ConfigValueError("underlay.attach = file needs underlay.attach_file");
    }
    std::map<std::string, uint32_t> byName;
    for (uint32_t r = 0; r < routers; ++r)
    {
        byName[network.routers[r]] = r;
    }
    return ReadNodeAssignment("underlay.attach_file",
                              file,
                              learners,
                              [&](const CsvRow& row)
                              {
                                  auto router = byName.find(row.fields[1]);
                                  if (router == byName.end())
                                  {
                                      throw ConfigValueError(row.where + ": no router '"
                                                             + row.fields[1]
                                                             + "' in the topology file");
                                  }
                                  return router->second;
                              });
}

} // namespace ns3
