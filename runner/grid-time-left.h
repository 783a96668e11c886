// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The wall time a grid has left, estimated by kind of point: a point that trains and one that
 * replays a recording (learning-replay.h) differ by far more than points of one kind do, so each
 * kind is estimated from the finished points of its own kind.
 */
#ifndef DLSIM_GRID_TIME_LEFT_H
#define DLSIM_GRID_TIME_LEFT_H

#include <cstddef>
#include <vector>

namespace ns3
{

/// Whether a grid point trains or replays another point's recorded learning.
enum class PointKind
{
    Trains,
    Replays
};

/**
 * The wall time left in a grid, from the wall times of its finished points, per kind.
 */
class GridTimeLeft
{
  public:
    /// A point of `kind` ran to its end in `seconds` of wall time.
    void Finished(PointKind kind, double seconds);

    /// What Estimate() says of the time left.
    struct Estimate
    {
        double seconds = 0.0; ///< wall time left, shared by the parallel jobs
        /// true when points of a kind none of which has finished were estimated at the other
        /// kind's mean: replays counted as trainings make `seconds` an upper bound (a replay
        /// runs the network of a training without its learning); trainings counted as replays,
        /// a lower one.
        bool replaysAsTrainings = false;
        bool trainingsAsReplays = false;
    };

    /**
     * The time left for `waiting` points not started yet and `running` ones (each with its kind
     * and the wall seconds it has run), on `jobs` parallel jobs. Meaningful once a point of
     * either kind has finished.
     */
    Estimate Left(const std::vector<PointKind>& waiting,
                  const std::vector<std::pair<PointKind, double>>& running,
                  size_t jobs) const;

  private:
    double m_seconds[2] = {0.0, 0.0}; ///< finished points' wall time, per kind
    size_t m_count[2] = {0, 0};       ///< finished points, per kind
};

} // namespace ns3

#endif // DLSIM_GRID_TIME_LEFT_H
