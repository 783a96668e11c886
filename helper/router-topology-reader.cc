// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "router-topology-reader.h"

#include "csv-rows.h"
#include "ns3/topology-reader-helper.h"
#include "random-variable-spec.h"
#include "user-file.h"

#include <algorithm>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

namespace
{

/// Longer lines are no topology file's; refusing them keeps a hostile file from filling memory.
constexpr size_t kMaxTopologyLineLength = 4096;

/// The words of every line of `path` (blank lines too, so that index k is line k + 1).
std::vector<std::vector<std::string>>
ReadWords(const std::string& path)
{
    if (const std::string why = UnreadableFileReason(path); !why.empty())
    {
        throw ConfigValueError("underlay.file: cannot read " + path + ": " + why);
    }
    std::ifstream in(path);
    if (!in)
    {
        throw ConfigValueError("underlay.file: cannot open " + path);
    }
    std::vector<std::vector<std::string>> lines;
    std::string line;
    for (LineRead read;
         (read = ReadBoundedLine(in, line, kMaxTopologyLineLength)) != LineRead::End;)
    {
        if (read == LineRead::TooLong)
        {
            throw ConfigValueError("underlay.file " + path + ":" + std::to_string(lines.size() + 1)
                                   + ": line longer than " + std::to_string(kMaxTopologyLineLength)
                                   + " characters (is this a router topology file?)");
        }
        std::istringstream words(line);
        std::vector<std::string> fields;
        for (std::string w; words >> w;)
        {
            fields.push_back(w);
        }
        lines.push_back(std::move(fields));
    }
    return lines;
}

/**
 * Which format the file's shape suggests: "inet" (a line 'NODES LINKS', then lines of three
 * words), "orbis" (every line two words) or "rocketfuel" (every line three words); "" if none.
 * Only used to say what to set when the file does not match underlay.format.
 */
std::string
GuessFormat(const std::vector<std::vector<std::string>>& lines)
{
    std::vector<size_t> sizes;
    for (const auto& words : lines)
    {
        if (!words.empty())
        {
            sizes.push_back(words.size());
        }
    }
    auto all = [&sizes](size_t from, size_t n)
    {
        return std::all_of(sizes.begin() + from, sizes.end(), [n](size_t s) { return s == n; });
    };
    if (sizes.size() >= 2 && sizes[0] == 2 && all(1, 3))
    {
        return "inet";
    }
    if (!sizes.empty() && all(0, 2))
    {
        return "orbis";
    }
    if (!sizes.empty() && all(0, 3))
    {
        return "rocketfuel";
    }
    return "";
}

/// " (the file looks like an Orbis file: set underlay.format = orbis)" when it does.
std::string
FormatHint(const std::vector<std::vector<std::string>>& lines, const std::string& format)
{
    static const std::map<std::string, std::string> names
        = {{"inet", "an Inet"}, {"orbis", "an Orbis"}, {"rocketfuel", "a Rocketfuel weights"}};
    const std::string guess = GuessFormat(lines);
    if (guess.empty() || guess == format)
    {
        return "";
    }
    return " (the file looks like " + names.at(guess) + " file: set underlay.format = " + guess
           + ")";
}

/// Routers of a link, checked once for all formats: no self-link, no pair listed twice.
class LinkSet
{
  public:
    explicit LinkSet(std::string file) : m_file(std::move(file)) {}

    /// Records the link of line `line`; `reverseIsSame`: "b a" after "a b" is the same link
    /// (Rocketfuel lists each link once per direction), otherwise it is a duplicate.
    /// Returns false for such a second direction.
    bool Add(size_t line, const std::string& from, const std::string& to, bool reverseIsSame)
    {
        const std::string where = m_file + ":" + std::to_string(line);
        if (from == to)
        {
            throw ConfigValueError(where + ": router " + from + " is linked to itself");
        }
        auto same = m_lines.find({from, to});
        auto reverse = m_lines.find({to, from});
        if (same != m_lines.end() || (!reverseIsSame && reverse != m_lines.end()))
        {
            const size_t first = same != m_lines.end() ? same->second : reverse->second;
            throw ConfigValueError(where + ": the link between " + from + " and " + to
                                   + " is listed twice (first on line " + std::to_string(first)
                                   + ")");
        }
        m_lines[{from, to}] = line;
        return reverse == m_lines.end();
    }

  private:
    std::string m_file;
    std::map<std::pair<std::string, std::string>, size_t> m_lines;
};

/**
 * Checks the whole file against its format before ns-3 reads it (ns-3's readers take what
 * they understand and drop the rest in silence) and returns the number of links it declares.
 * Inet: the header 'NODES LINKS' must match the body exactly (as many node lines 'ID X Y',
 * ids 0..NODES-1 once each, then as many link lines 'FROM TO [WEIGHT]' between declared nodes,
 * and nothing after), and every node must have a link. Orbis: lines 'FROM TO'. Rocketfuel
 * weights: lines 'FROM TO WEIGHT'. No format allows a self-link or a link listed twice.
 */
size_t
CheckTopologyFile(const std::string& path, const std::string& format)
{
    const std::string file = "underlay.file " + path;
    const std::vector<std::vector<std::string>> lines = ReadWords(path);
    const std::string hint = FormatHint(lines, format);
    auto at = [&file](size_t index)
    {
        return file + ":" + std::to_string(index + 1);
    };
    LinkSet links(file);
    if (format == "inet")
    {
        if (lines.empty() || lines[0].size() != 2)
        {
            throw ConfigValueError(at(0) + ": expected the Inet header 'NODES LINKS'" + hint);
        }
        const uint64_t nodes = ParseIndex(at(0), lines[0][0], 10000000);
        const uint64_t declared = ParseIndex(at(0), lines[0][1], 100000000);
        const std::string announced = "the header (line 1) announces " + std::to_string(nodes)
                                      + " nodes and " + std::to_string(declared) + " links";
        if (nodes < 2 || declared == 0)
        {
            throw ConfigValueError(at(0) + ": " + announced
                                   + "; a topology has at least 2 nodes and a link" + hint);
        }
        if (lines.size() < 1 + nodes + declared)
        {
            throw ConfigValueError(at(lines.size() - 1) + ": " + announced
                                   + " but the file ends after " + std::to_string(lines.size())
                                   + " lines" + hint);
        }
        // Node ids, as the link lines name them: the line each was declared on.
        std::vector<size_t> nodeLine(nodes, 0);
        std::vector<bool> linked(nodes, false);
        auto node = [&](size_t index, const std::string& text)
        {
            const uint64_t id = ParseIndex(at(index), text, UINT64_MAX);
            if (id >= nodes)
            {
                throw ConfigValueError(at(index) + ": node " + text
                                       + " does not exist: " + announced + " (nodes 0 to "
                                       + std::to_string(nodes - 1) + ")" + hint);
            }
            return id;
        };
        for (size_t k = 1; k <= nodes; ++k)
        {
            if (lines[k].size() != 3)
            {
                throw ConfigValueError(at(k) + ": expected a node line 'ID X Y' (" + announced + ")"
                                       + hint);
            }
            const uint64_t id = node(k, lines[k][0]);
            if (nodeLine[id] != 0)
            {
                throw ConfigValueError(at(k) + ": node " + lines[k][0]
                                       + " is declared twice (first on line "
                                       + std::to_string(nodeLine[id] + 1) + ")");
            }
            nodeLine[id] = k;
        }
        for (size_t k = 1 + nodes; k < 1 + nodes + declared; ++k)
        {
            const auto& f = lines[k];
            if (f.size() != 2 && f.size() != 3)
            {
                throw ConfigValueError(at(k) + ": expected a link line 'FROM TO [WEIGHT]' ("
                                       + announced + ")" + hint);
            }
            linked[node(k, f[0])] = true;
            linked[node(k, f[1])] = true;
            if (f.size() == 3)
            {
                ParseNumber(at(k), f[2], 0.0, 1e300);
            }
            links.Add(k + 1, f[0], f[1], false);
        }
        for (size_t k = 1 + nodes + declared; k < lines.size(); ++k)
        {
            if (!lines[k].empty())
            {
                throw ConfigValueError(at(k) + ": " + announced + ", but more lines follow" + hint);
            }
        }
        for (uint64_t id = 0; id < nodes; ++id)
        {
            if (!linked[id])
            {
                throw ConfigValueError(at(nodeLine[id]) + ": node " + std::to_string(id)
                                       + " has no link (the topology is not connected)");
            }
        }
        return declared;
    }
    // Orbis and Rocketfuel weights files: one link per non-empty line.
    const bool orbis = format == "orbis";
    size_t declared = 0;
    for (size_t k = 0; k < lines.size(); ++k)
    {
        const auto& f = lines[k];
        if (f.empty())
        {
            continue;
        }
        if (f.size() != (orbis ? 2u : 3u))
        {
            throw ConfigValueError(at(k) + ": expected "
                                   + (orbis ? "'FROM TO'" : "'FROM TO WEIGHT'") + hint);
        }
        if (!orbis)
        {
            ParseNumber(at(k), f[2], 0.0, 1e300);
        }
        // ns-3 keeps one link for a Rocketfuel pair listed in both directions.
        if (links.Add(k + 1, f[0], f[1], !orbis))
        {
            ++declared;
        }
    }
    return declared;
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
    const size_t declared = CheckTopologyFile(path, format);
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
    net.source = key;
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
    for (auto it = reader->LinksBegin(); it != reader->LinksEnd(); ++it)
    {
        RouterNetwork::Link link;
        link.a = routerOf(it->GetFromNodeName());
        link.b = routerOf(it->GetToNodeName());
        link.role = "router";
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
