// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Train once, replay the network: which runs learn the same whatever their network, and where
 * their recording is.
 */
#ifndef DLSIM_LEARNING_REPLAY_H
#define DLSIM_LEARNING_REPLAY_H

#include "learning-record.h"
#include "scenario-config.h"
#include "scenario-grid.h"

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

/**
 * A replay whose recording ends before its network's budget does (rounds.duration): the
 * recorded run's network was slower, so this run needs rounds the recording does not hold.
 * `dlsim-run` exits with kRecordingTooShortExit, and a grid then trains the point instead.
 */
class RecordingTooShortError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

/// The exit status of a run that RecordingTooShortError stopped.
constexpr int kRecordingTooShortExit = 3;

/// The recording's file in a run folder.
extern const char* const kLearningRecordFile;

/**
 * \param config a scenario
 * \return the keys that decide what it learns, one "key = value" line each: every key that can
 * change results (ChangesResults) and is not a network key (ScenarioKey::network), and the
 * `ns3.` attribute defaults
 */
std::string LearningKeys(const ScenarioConfig& config);

/**
 * \param config a scenario
 * \return why what it learns depends on its network, as one clause naming the key (empty: it
 * does not, so a run of it is recorded and can be replayed over another network)
 */
std::string ReplayObstacle(const ScenarioConfig& config);

/**
 * \param points a grid's points (ExpandGrid)
 * \return for each point, the index of the point whose recorded learning it replays: an
 * earlier point with the same LearningKeys and no ReplayObstacle, else the point itself (it
 * trains)
 */
std::vector<size_t> ReplaySources(const std::vector<GridPoint>& points);

/**
 * \brief Read the recording in `folder` and check that `config` learns what it recorded.
 * \param folder a run folder of a finished run
 * \param config the scenario to replay it in
 * \return the recording
 * \throws ScenarioError naming the folder and, when they differ, the first key that changes
 * what is learned; dlsim::LearningRecordError for a missing or damaged file
 */
std::shared_ptr<const dlsim::LearningRecord> LoadRecordFor(const std::string& folder,
                                                           const ScenarioConfig& config);

/**
 * \brief Refuse to write a replay's results into the folder it replays, or into one inside it.
 * \param out where the results would go
 * \param source the run folder whose recording is replayed
 * \throws ScenarioError when both name the same folder, or `out` lies inside `source`
 */
void CheckNotTheSource(const std::string& out, const std::string& source);

/**
 * \param folder a run folder
 * \param config a scenario that would replay it
 * \return whether LoadRecordFor(folder, config) succeeds: a grid's points whose source holds
 * no recording, a damaged one, or one that another dlsim wrote of other learning keys, train
 * instead
 */
bool CanReplay(const std::string& folder, const ScenarioConfig& config);

} // namespace ns3

#endif // DLSIM_LEARNING_REPLAY_H
