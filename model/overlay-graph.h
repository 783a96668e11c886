/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The overlay: which learner talks to which, and its generators.
 */
#ifndef DLSIM_OVERLAY_GRAPH_H
#define DLSIM_OVERLAY_GRAPH_H

#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/// A topology that cannot be built as asked.
class TopologyError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

/**
 * A graph over learners 0..n-1. Undirected graphs store each edge once with u < v; directed
 * graphs store u -> v (u sends to v). Neighbour lists are sorted, so iteration order (and hence
 * every result) is reproducible.
 */
class OverlayGraph
{
  public:
    OverlayGraph(uint32_t nodes, bool directed);

    /// Add an edge; throws TopologyError on a self-loop, a duplicate or an unknown node.
    void AddEdge(uint32_t u, uint32_t v);

    uint32_t GetNNodes() const;
    bool IsDirected() const;
    const std::vector<std::pair<uint32_t, uint32_t>>& GetEdges() const;
    /// Nodes that i sends to (for undirected graphs: its neighbours).
    const std::vector<uint32_t>& GetOutNeighbours(uint32_t i) const;
    /// Nodes that i receives from.
    const std::vector<uint32_t>& GetInNeighbours(uint32_t i) const;
    bool HasEdge(uint32_t u, uint32_t v) const;
    /// Connected (undirected) or strongly connected (directed).
    bool IsConnected() const;
    /// Node pairs {u < v} that need a physical link: one per undirected edge or directed pair.
    std::vector<std::pair<uint32_t, uint32_t>> GetLinks() const;

  private:
    uint32_t m_nodes;
    bool m_directed;
    std::vector<std::pair<uint32_t, uint32_t>> m_edges;
    std::vector<std::vector<uint32_t>> m_out;
    std::vector<std::vector<uint32_t>> m_in;

    static void InsertSorted(std::vector<uint32_t>& list, uint32_t value);
    bool Reaches(bool forward) const;
};

/// The names accepted by the `topology` key.
std::vector<std::string> KnownTopologies();

/**
 * A connected random k-regular graph. Edges are drawn by pairing free "stubs" at random
 * (Steger-Wormald), restarting when stuck, and the whole graph is redrawn until it is connected.
 * Throws TopologyError when n*k is odd or k >= n.
 */
OverlayGraph MakeRandomRegularGraph(uint32_t nodes,
                                    uint32_t degree,
                                    Ptr<UniformRandomVariable> rng);
OverlayGraph MakeRingGraph(uint32_t nodes);
/// Node i sends to i+1 mod n.
OverlayGraph MakeDirectedRingGraph(uint32_t nodes);
OverlayGraph MakeCompleteGraph(uint32_t nodes);
/**
 * Read "u v" pairs (whitespace or comma separated, '#' starts a comment) for nodes 0..n-1.
 * The graph must be connected. Errors name the file and line.
 */
OverlayGraph ReadEdgeListGraph(const std::string& path, uint32_t nodes, bool directed);

/**
 * Build a topology by name: random-regular, ring, directed-ring, complete or file.
 * `degree` is used by random-regular, `file` by file.
 */
OverlayGraph MakeTopology(const std::string& name,
                          uint32_t nodes,
                          uint32_t degree,
                          const std::string& file,
                          Ptr<UniformRandomVariable> rng);

} // namespace ns3

#endif // DLSIM_OVERLAY_GRAPH_H
