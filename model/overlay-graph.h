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
    /**
     * \brief A graph without edges.
     * \param nodes the number of learners n
     * \param directed whether edges are one-way (u sends to v)
     */
    OverlayGraph(uint32_t nodes, bool directed);

    /**
     * \brief Add an edge.
     * \param u one node (the sender, if directed)
     * \param v the other node (the receiver, if directed)
     * \throws TopologyError on a self-loop, a duplicate or an unknown node
     */
    void AddEdge(uint32_t u, uint32_t v);

    /// \return the number of learners n
    uint32_t GetNNodes() const;
    /// \return whether edges are one-way
    bool IsDirected() const;
    /// \return the edges, in the order added (undirected: u < v)
    const std::vector<std::pair<uint32_t, uint32_t>>& GetEdges() const;
    /**
     * \param i a node
     * \return the nodes that i sends to (for undirected graphs: its neighbours), sorted
     */
    const std::vector<uint32_t>& GetOutNeighbours(uint32_t i) const;
    /// \return every node's out-neighbours (node i's at index i), as the learning core takes
    /// a graph (dlsim::Adjacency)
    const std::vector<std::vector<uint32_t>>& GetAdjacency() const;
    /**
     * \param i a node
     * \return the nodes that i receives from, sorted
     */
    const std::vector<uint32_t>& GetInNeighbours(uint32_t i) const;
    /**
     * \param u one node (the sender, if directed)
     * \param v the other node
     * \return whether the edge exists
     */
    bool HasEdge(uint32_t u, uint32_t v) const;
    /// \return whether the graph is connected (undirected) or strongly connected (directed)
    bool IsConnected() const;
    /// \return the node pairs {u < v} that need a physical link: one per undirected edge or
    /// directed pair
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
    /// \param graph the one phase of a static overlay
    explicit OverlaySchedule(OverlayGraph graph);
    /**
     * \param phases the graphs, used in turn
     * \param period rounds per phase
     * \throws TopologyError when phases is empty, period is 0 or the phases disagree on n
     */
    OverlaySchedule(std::vector<OverlayGraph> phases, uint32_t period);

    /**
     * \param round a round (from 1)
     * \return the graph that round uses
     */
    const OverlayGraph& At(uint32_t round) const;
    /// \return the phases
    const std::vector<OverlayGraph>& GetPhases() const;
    /// \return rounds per phase
    uint32_t GetPeriod() const;
    /// \return the number of learners n
    uint32_t GetNNodes() const;
    /// \return whether the phases' edges are one-way
    bool IsDirected() const;
    /// \return every edge of every phase: the simulated network needs a link for each
    OverlayGraph Union() const;

  private:
    std::vector<OverlayGraph> m_phases;
    uint32_t m_period;
};

/**
 * A connected random k-regular graph. Edges are drawn by pairing free "stubs" at random
 * (Steger-Wormald), restarting when stuck, and the whole graph is redrawn until it is connected.
 * \param nodes n
 * \param degree k
 * \param rng the stream drawn from
 * \return the graph
 * \throws TopologyError when n*k is odd or k >= n
 */
OverlayGraph MakeRandomRegularGraph(uint32_t nodes,
                                    uint32_t degree,
                                    Ptr<UniformRandomVariable> rng);
/**
 * \param nodes n
 * \return the undirected ring: node i next to i+1 mod n
 */
OverlayGraph MakeRingGraph(uint32_t nodes);
/**
 * \param nodes n
 * \return the directed ring: node i sends to i+1 mod n
 */
OverlayGraph MakeDirectedRingGraph(uint32_t nodes);
/**
 * \param nodes n
 * \return the undirected complete graph
 */
OverlayGraph MakeCompleteGraph(uint32_t nodes);
/**
 * \param nodes n
 * \return the directed exponential graph: node r sends to r + 2^i mod n for every i with
 * 2^i < n (Assran et al. 2019)
 */
OverlayGraph MakeDirectedExponentialGraph(uint32_t nodes);
/**
 * The time-varying exponential graph of Stochastic Gradient Push: phase i has node r send to
 * r + 2^i mod n only, so each node has one peer per phase, cycling through the exponential
 * graph's peers every `period` rounds.
 * \param nodes n
 * \param period rounds per phase
 * \return the schedule
 */
OverlaySchedule MakeTimeVaryingExponentialSchedule(uint32_t nodes, uint32_t period);
/**
 * Read "u v" pairs (whitespace or comma separated, '#' starts a comment) for nodes 0..n-1.
 * The graph must be connected unless requireConnected is false (a phase of a time-varying
 * overlay). Errors name the file and line.
 * \param path the file
 * \param nodes n
 * \param directed read "u v" as u sends to v
 * \param requireConnected refuse a graph that is not (strongly) connected
 * \return the graph
 */
OverlayGraph ReadEdgeListGraph(const std::string& path,
                               uint32_t nodes,
                               bool directed,
                               bool requireConnected = true);

} // namespace ns3

#endif // DLSIM_OVERLAY_GRAPH_H
