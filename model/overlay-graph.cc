// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "overlay-graph.h"

#include "csv-rows.h"
#include "round-schedule.h"
#include "user-file.h"
#include "value-text.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

OverlayGraph::OverlayGraph(uint32_t nodes, bool directed)
    : m_nodes(nodes), m_directed(directed), m_out(nodes), m_in(nodes)
{}

void
OverlayGraph::InsertSorted(std::vector<uint32_t>& list, uint32_t value)
{
    list.insert(std::lower_bound(list.begin(), list.end(), value), value);
}

void
OverlayGraph::AddEdge(uint32_t u, uint32_t v)
{
    if (u >= m_nodes || v >= m_nodes)
    {
        throw TopologyError("edge " + std::to_string(u) + "-" + std::to_string(v)
                            + " names a node outside 0.." + std::to_string(m_nodes - 1));
    }
    if (u == v)
    {
        throw TopologyError("self-loop at node " + std::to_string(u));
    }
    if (!m_directed && u > v)
    {
        std::swap(u, v);
    }
    if (HasEdge(u, v))
    {
        throw TopologyError("duplicate edge " + std::to_string(u) + "-" + std::to_string(v));
    }
    m_edges.emplace_back(u, v);
    InsertSorted(m_out[u], v);
    InsertSorted(m_in[v], u);
    if (!m_directed)
    {
        InsertSorted(m_out[v], u);
        InsertSorted(m_in[u], v);
    }
}

uint32_t
OverlayGraph::GetNNodes() const
{
    return m_nodes;
}

bool
OverlayGraph::IsDirected() const
{
    return m_directed;
}

const std::vector<std::pair<uint32_t, uint32_t>>&
OverlayGraph::GetEdges() const
{
    return m_edges;
}

const std::vector<uint32_t>&
OverlayGraph::GetOutNeighbours(uint32_t i) const
{
    return m_out.at(i);
}

const std::vector<std::vector<uint32_t>>&
OverlayGraph::GetAdjacency() const
{
    return m_out;
}

const std::vector<uint32_t>&
OverlayGraph::GetInNeighbours(uint32_t i) const
{
    return m_in.at(i);
}

bool
OverlayGraph::HasEdge(uint32_t u, uint32_t v) const
{
    const auto& out = m_out.at(u);
    return std::binary_search(out.begin(), out.end(), v);
}

bool
OverlayGraph::Reaches(bool forward) const
{
    if (m_nodes == 0)
    {
        return true;
    }
    std::vector<bool> seen(m_nodes, false);
    std::vector<uint32_t> stack{0};
    seen[0] = true;
    uint32_t count = 1;
    while (!stack.empty())
    {
        uint32_t u = stack.back();
        stack.pop_back();
        for (uint32_t v : forward ? m_out[u] : m_in[u])
        {
            if (!seen[v])
            {
                seen[v] = true;
                ++count;
                stack.push_back(v);
            }
        }
    }
    return count == m_nodes;
}

bool
OverlayGraph::IsConnected() const
{
    return Reaches(true) && (!m_directed || Reaches(false));
}

std::vector<std::pair<uint32_t, uint32_t>>
OverlayGraph::GetLinks() const
{
    std::vector<std::pair<uint32_t, uint32_t>> links;
    for (auto [u, v] : m_edges)
    {
        links.emplace_back(std::min(u, v), std::max(u, v));
    }
    std::sort(links.begin(), links.end());
    links.erase(std::unique(links.begin(), links.end()), links.end());
    return links;
}

OverlaySchedule::OverlaySchedule(OverlayGraph graph) : m_phases{std::move(graph)}, m_period(1) {}

OverlaySchedule::OverlaySchedule(std::vector<OverlayGraph> phases, uint32_t period)
    : m_phases(std::move(phases)), m_period(period)
{
    if (m_phases.empty() || m_period == 0)
    {
        throw TopologyError("a time-varying topology needs at least one phase and a period >= 1");
    }
    for (const auto& phase : m_phases)
    {
        if (phase.GetNNodes() != m_phases[0].GetNNodes()
            || phase.IsDirected() != m_phases[0].IsDirected())
        {
            throw TopologyError("the phases of a time-varying topology must have the same nodes "
                                "and all be directed or all undirected");
        }
    }
}

const OverlayGraph&
OverlaySchedule::At(uint32_t round) const
{
    return m_phases[PhaseOfRound(round, m_period, m_phases.size())];
}

const std::vector<OverlayGraph>&
OverlaySchedule::GetPhases() const
{
    return m_phases;
}

uint32_t
OverlaySchedule::GetPeriod() const
{
    return m_period;
}

uint32_t
OverlaySchedule::GetNNodes() const
{
    return m_phases[0].GetNNodes();
}

bool
OverlaySchedule::IsDirected() const
{
    return m_phases[0].IsDirected();
}

OverlayGraph
OverlaySchedule::Union() const
{
    OverlayGraph all(GetNNodes(), IsDirected());
    for (const auto& phase : m_phases)
    {
        for (auto [u, v] : phase.GetEdges())
        {
            if (!all.HasEdge(u, v))
            {
                all.AddEdge(u, v);
            }
        }
    }
    return all;
}

namespace
{

void
RequireNodes(uint32_t nodes, uint32_t minimum, const std::string& what)
{
    if (nodes < minimum)
    {
        throw TopologyError(what + " needs at least " + std::to_string(minimum) + " nodes, got "
                            + std::to_string(nodes));
    }
}

/// One attempt at pairing stubs; false when it got stuck.
bool
TryRegularPairing(OverlayGraph& graph,
                  uint32_t nodes,
                  uint32_t degree,
                  Ptr<UniformRandomVariable> rng)
{
    std::vector<uint32_t> stubs;
    for (uint32_t i = 0; i < nodes; ++i)
    {
        stubs.insert(stubs.end(), degree, i);
    }
    while (!stubs.empty())
    {
        bool paired = false;
        // Random picks succeed almost always; after many misses check whether any pair is left.
        for (int attempt = 0; attempt < 64 && !paired; ++attempt)
        {
            uint32_t last = static_cast<uint32_t>(stubs.size() - 1);
            uint32_t a = rng->GetInteger(0, last);
            uint32_t b = rng->GetInteger(0, last);
            uint32_t u = stubs[a];
            uint32_t v = stubs[b];
            if (a == b || u == v || graph.HasEdge(u, v))
            {
                continue;
            }
            graph.AddEdge(u, v);
            stubs.erase(stubs.begin() + std::max(a, b));
            stubs.erase(stubs.begin() + std::min(a, b));
            paired = true;
        }
        if (!paired)
        {
            bool anyPair = false;
            for (size_t a = 0; a < stubs.size() && !anyPair; ++a)
            {
                for (size_t b = a + 1; b < stubs.size() && !anyPair; ++b)
                {
                    anyPair = stubs[a] != stubs[b] && !graph.HasEdge(stubs[a], stubs[b]);
                }
            }
            if (!anyPair)
            {
                return false;
            }
        }
    }
    return true;
}

} // namespace

OverlayGraph
MakeRandomRegularGraph(uint32_t nodes, uint32_t degree, Ptr<UniformRandomVariable> rng)
{
    if (degree == 0 || degree >= nodes)
    {
        throw TopologyError("random-regular topology needs 1 <= degree < nodes, got degree "
                            + std::to_string(degree) + " with " + std::to_string(nodes) + " nodes");
    }
    if ((static_cast<uint64_t>(nodes) * degree) % 2 != 0)
    {
        throw TopologyError("random-regular topology needs nodes * degree even, got "
                            + std::to_string(nodes) + " * " + std::to_string(degree));
    }
    for (int attempt = 0; attempt < 10000; ++attempt)
    {
        OverlayGraph graph(nodes, false);
        if (TryRegularPairing(graph, nodes, degree, rng) && graph.IsConnected())
        {
            return graph;
        }
    }
    throw TopologyError("could not draw a connected random " + std::to_string(degree)
                        + "-regular graph on " + std::to_string(nodes) + " nodes");
}

OverlayGraph
MakeRingGraph(uint32_t nodes)
{
    RequireNodes(nodes, 3, "ring topology");
    OverlayGraph graph(nodes, false);
    for (uint32_t i = 0; i < nodes; ++i)
    {
        graph.AddEdge(i, (i + 1) % nodes);
    }
    return graph;
}

OverlayGraph
MakeDirectedRingGraph(uint32_t nodes)
{
    RequireNodes(nodes, 2, "directed-ring topology");
    OverlayGraph graph(nodes, true);
    for (uint32_t i = 0; i < nodes; ++i)
    {
        graph.AddEdge(i, (i + 1) % nodes);
    }
    return graph;
}

OverlayGraph
MakeCompleteGraph(uint32_t nodes)
{
    RequireNodes(nodes, 2, "complete topology");
    OverlayGraph graph(nodes, false);
    for (uint32_t u = 0; u < nodes; ++u)
    {
        for (uint32_t v = u + 1; v < nodes; ++v)
        {
            graph.AddEdge(u, v);
        }
    }
    return graph;
}

namespace
{

/// Longer lines are not edge lists; refusing them keeps a hostile file from filling memory.
constexpr size_t kMaxEdgeListLineLength = 4096;

/**
 * The next line of `in` into `line`, without its end of line; false at the end of the file.
 * Throws TopologyError naming `where` for a line longer than kMaxEdgeListLineLength.
 */
bool
NextEdgeListLine(std::istream& in, std::string& line, const std::string& where)
{
    LineRead read = ReadBoundedLine(in, line, kMaxEdgeListLineLength);
    if (read == LineRead::TooLong)
    {
        throw TopologyError(where + ": line longer than " + std::to_string(kMaxEdgeListLineLength)
                            + " characters (is this an edge-list file?)");
    }
    return read == LineRead::Line;
}

/// A node number: decimal digits only, and below `nodes`; throws TopologyError naming `where`.
uint32_t
ParseNode(const std::string& where, const std::string& text, uint32_t nodes)
{
    if (text.find_first_not_of("0123456789") != std::string::npos)
    {
        throw TopologyError(where + ": expected two node numbers 'u v', got '" + text + "'"
                            + (text[0] == '-' ? " (node numbers cannot be negative)" : ""));
    }
    // Leading zeros do not count; more than 10 digits is beyond any uint32_t.
    size_t first = std::min(text.find_first_not_of('0'), text.size());
    uint64_t value = text.size() - first > 10 ? UINT64_MAX : std::stoull(text);
    if (value >= nodes)
    {
        throw TopologyError(where + ": node " + text + " is outside "
                            + (nodes == 0 ? std::string("the empty topology (0 nodes)")
                                          : "0.." + std::to_string(nodes - 1)));
    }
    return static_cast<uint32_t>(value);
}

} // namespace

OverlayGraph
ReadEdgeListGraph(const std::string& path, uint32_t nodes, bool directed, bool requireConnected)
{
    if (const std::string why = UnreadableFileReason(path); !why.empty())
    {
        throw TopologyError("cannot read edge-list file " + path + ": " + why);
    }
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw TopologyError("cannot open edge-list file " + path);
    }
    OverlayGraph graph(nodes, directed);
    std::string line;
    for (uint64_t lineNo = 1;; ++lineNo)
    {
        const std::string where = path + ":" + std::to_string(lineNo);
        if (!NextEdgeListLine(in, line, where))
        {
            break;
        }
        line = line.substr(0, line.find('#'));
        std::replace(line.begin(), line.end(), ',', ' ');
        std::istringstream fields(line);
        std::vector<std::string> words;
        for (std::string word; words.size() < 3 && fields >> word;)
        {
            words.push_back(word);
        }
        if (words.empty())
        {
            continue;
        }
        if (words.size() != 2)
        {
            throw TopologyError(where + ": expected two node numbers 'u v'");
        }
        uint32_t u = ParseNode(where, words[0], nodes);
        uint32_t v = ParseNode(where, words[1], nodes);
        try
        {
            graph.AddEdge(u, v);
        }
        catch (const TopologyError& e)
        {
            throw TopologyError(where + ": " + e.what());
        }
    }
    if (in.bad())
    {
        throw TopologyError("error reading edge-list file " + path);
    }
    if (requireConnected && !graph.IsConnected())
    {
        throw TopologyError("edge-list file " + path + " does not give a connected graph over "
                            + std::to_string(nodes) + " nodes");
    }
    return graph;
}

OverlayGraph
MakeDirectedExponentialGraph(uint32_t nodes)
{
    RequireNodes(nodes, 2, "directed-exponential topology");
    OverlayGraph graph(nodes, true);
    for (uint32_t r = 0; r < nodes; ++r)
    {
        for (uint64_t hop = 1; hop < nodes; hop *= 2)
        {
            graph.AddEdge(r, static_cast<uint32_t>((r + hop) % nodes));
        }
    }
    return graph;
}

OverlaySchedule
MakeTimeVaryingExponentialSchedule(uint32_t nodes, uint32_t period)
{
    RequireNodes(nodes, 2, "time-varying-exponential topology");
    std::vector<OverlayGraph> phases;
    for (uint64_t hop = 1; hop < nodes; hop *= 2)
    {
        OverlayGraph phase(nodes, true);
        for (uint32_t r = 0; r < nodes; ++r)
        {
            phase.AddEdge(r, static_cast<uint32_t>((r + hop) % nodes));
        }
        phases.push_back(phase);
    }
    return OverlaySchedule(phases, period);
}

} // namespace ns3
