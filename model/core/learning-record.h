// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * What a run in synchronous rounds learned, as far as its network needs it: the recording that
 * lets the same learning be replayed over another network.
 */
#ifndef DLSIM_LEARNING_RECORD_H
#define DLSIM_LEARNING_RECORD_H

#include "message-inbox.h"

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace dlsim
{

/// A recording that cannot be read or used (the message names the file and why): bad input.
class LearningRecordError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

/**
 * A recording that cannot be written (a full disk, a folder that became read-only): the run's
 * failure, not its input's, so it is no LearningRecordError.
 */
class LearningRecordWriteError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

/// One node's round, as the network sees it.
struct RecordedRound
{
    bool trains = true;        ///< whether the node trained (SCSP's gossip rounds do not)
    double trainLoss = 0.0;    ///< the mean loss of the round's local steps (NaN: none)
    uint64_t payloadBytes = 0; ///< the encoded payload sent to every out-neighbour
    uint64_t valueBytes = 0;   ///< of which model values
};

/// One evaluation of a node's model, after a round (0: the initial model).
struct RecordedEvaluation
{
    uint32_t round = 0;    ///< the round evaluated after
    double accuracy = 0.0; ///< as the evaluation reported it
    double loss = 0.0;     ///< as the evaluation reported it
};

/// One node's learning: its rounds in order and its evaluations in the order they were made.
struct RecordedNode
{
    int64_t computeTimeNs = 0;   ///< the simulated compute time of each training round
    uint32_t trainingRounds = 0; ///< the configured rounds (the algorithm may add some)
    PartialReceipt receipt = PartialReceipt::LatestModel; ///< what a message was to it
    bool directed = false;                                ///< the algorithm runs on directed graphs
    std::vector<RecordedRound> rounds;                    ///< round r at index r - 1
    std::vector<RecordedEvaluation> evaluations;          ///< in the order they were made
};

/**
 * A whole run's learning. `learning` is the configuration that determined it (every key that
 * can change what is learned, as ini text): a replay checks that it asks for the same.
 */
struct LearningRecord
{
    std::string learning; ///< the keys that decided what was learned
    /// What the run resolved on its overlay (`auto` values, key to value as shown in config.ini
    /// and summary.json): a replay has the same overlay and seed, so it takes them from here
    /// rather than resolving again (CHOCO-SGD's step size tuning).
    std::map<std::string, std::string> resolved;
    std::vector<RecordedNode> nodes; ///< node i at index i
};

/**
 * \brief Write a recording: a versioned header, then the content compressed with zlib and its
 * CRC-32; written to a temporary file and renamed, so a reader never sees half of it.
 * \param path the file
 * \param record what to write
 * \throws LearningRecordWriteError naming the file when it cannot be written
 */
void WriteLearningRecord(const std::string& path, const LearningRecord& record);

/**
 * \brief Read a recording WriteLearningRecord wrote, checking its magic, version, sizes and
 * checksum before trusting any count in it.
 * \param path the file
 * \return its content
 * \throws LearningRecordError naming the file and what is wrong with it
 */
LearningRecord ReadLearningRecord(const std::string& path);

} // namespace dlsim

#endif // DLSIM_LEARNING_RECORD_H
