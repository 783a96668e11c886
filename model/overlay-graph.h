// SPDX-License-Identifier: GPL-2.0-only
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

/**
 * An overlay that may change with time: round t (from 1) uses
 * phases[((t - 1) / period) mod phases.size()]. A static overlay has one phase.
 */
class OverlaySchedule
{
  public:
    explicit OverlaySchedule(OverlayGraph graph);
    /// Throws TopologyError when phases is empty, period is 0 or the phases disagree on n.
    OverlaySchedule(std::vector<OverlayGraph> phases, uint32_t period);

    const OverlayGraph& At(uint32_t round) const;
    const std::vector<OverlayGraph>& GetPhases() const;
    uint32_t GetPeriod() const;
    uint32_t GetNNodes() const;
    bool IsDirected() const;
    /// Every edge of every phase: the simulated network needs a link for each.
    OverlayGraph Union() const;

  private:
    std::vector<OverlayGraph> m_phases;
    uint32_t m_period;
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
/// Node r sends to r + 2^i mod n for every i with 2^i < n (Assran et al. 2019).
OverlayGraph MakeDirectedExponentialGraph(uint32_t nodes);
/**
 * The time-varying exponential graph of Stochastic Gradient Push: phase i has node r send to
 * r + 2^i mod n only, so each node has one peer per phase, cycling through the exponential
 * graph's peers every `period` rounds.
 */
OverlaySchedule MakeTimeVaryingExponentialSchedule(uint32_t nodes, uint32_t period);
/**
 * Read "u v" pairs (whitespace or comma separated, '#' starts a comment) for nodes 0..n-1.
 * The graph must be connected unless requireConnected is false (a phase of a time-varying
 * overlay). Errors name the file and line.
 */
OverlayGraph ReadEdgeListGraph(const std::string& path,
                               uint32_t nodes,
                               bool directed,
                               bool requireConnected = true);

/// What MakeTopology needs besides the name.
struct TopologySpec
{
    std::string name = "random-regular";
    uint32_t nodes = 16;
    uint32_t degree = 4;            ///< random-regular
    std::vector<std::string> files; ///< file: one edge list; schedule: one per phase
    bool directed = false;          ///< file and schedule: read the edge lists as directed
    uint32_t period = 1;            ///< time-varying-exponential and schedule
};

/**
 * Build a topology by name: random-regular, ring, directed-ring, complete,
 * directed-exponential, time-varying-exponential, file (one edge list) or schedule (a list of
 * edge lists, one phase each, rotating every `period` rounds).
 */
OverlaySchedule MakeTopology(const TopologySpec& spec, Ptr<UniformRandomVariable> rng);

} // namespace ns3

#endif // DLSIM_OVERLAY_GRAPH_H
