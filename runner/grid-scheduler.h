// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Running a grid: every point in its own dlsim-run process, N at a time, skipping points
 * already complete, stopping its runs with it; or writing the points as jobs for elsewhere.
 */
#ifndef DLSIM_GRID_SCHEDULER_H
#define DLSIM_GRID_SCHEDULER_H

#include "figure-style.h"
#include "scenario-config.h"
#include "scenario-grid.h"

#include <string>
#include <vector>

namespace ns3
{

/// How a grid runs.
struct GridOptions
{
    unsigned jobs = 1;      ///< points running at once
    bool overwrite = false; ///< points replace complete results of another configuration
    bool plot = true;       ///< draw the grid's figures at the end
    PlotOptions plotOptions;
    /// Every point replays the learning recorded in this run folder (`./dlsim replay`); empty:
    /// points that differ from an earlier one only in network keys replay that one's.
    std::string replayFrom;
};

/**
 * Run every point of `config`'s grid (`points`, from ExpandGrid) by starting this program once
 * per point, `options.jobs` at a time; a point whose folder holds its complete results is
 * skipped. Every point's configuration is checked before any runs. Ends with index.csv, a
 * table of the points (PrintGridTable) and the figures. An interrupt (SIGINT, SIGTERM, SIGHUP)
 * stops the running points too. Returns the exit status: 1 when a point failed.
 */
int RunGrid(const ScenarioConfig& config,
            const std::vector<GridPoint>& points,
            const GridOptions& options);

/**
 * \brief Whether a point's folder holds a finished run (IncompleteRunReason) of exactly this
 * configuration, with the captures it asks for; a folder with a summary that is not a finished
 * run's is reported on std::cout.
 * \param point a grid point (ExpandGrid)
 * \return whether the point need not run again
 */
bool IsComplete(const GridPoint& point);

/**
 * Write one command line per point to `file` (for GNU parallel) and a Slurm array job script
 * `file`.slurm, each point's configuration to its folder's point.ini, and run nothing. Throws
 * ScenarioError for a path a jobs file cannot hold (a line break).
 */
int EmitJobs(const ScenarioConfig& config,
             const std::vector<GridPoint>& points,
             const std::string& file);

} // namespace ns3

#endif // DLSIM_GRID_SCHEDULER_H
