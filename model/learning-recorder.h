// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Records, from the learners' trace sources, what a replay over another network needs.
 */
#ifndef DLSIM_LEARNING_RECORDER_H
#define DLSIM_LEARNING_RECORDER_H

#include "learner-application.h"
#include "learning-record.h"
#include "ns3/application-container.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Listens to every learner's RoundCompleted, MessageSent and Evaluated trace sources and
 * keeps, per node and round, the compute time, the training loss and the size of the payload
 * sent, and every evaluation's accuracy and loss: a dlsim::LearningRecord, which
 * LearnerHelper::SetReplay plays back over another network. Only a run whose learning does not
 * depend on its network (synchronous rounds evaluated by rounds, no faults, compute times that
 * do not change from round to round) can be replayed; GetProblem says why a run cannot.
 */
class LearningRecorder
{
  public:
    /**
     * \brief Listen to the learners (after LearnerHelper::Install, before the simulation runs).
     * \param apps the learners, learner i at index i
     */
    void Attach(const ApplicationContainer& apps);

    /// \return why what was recorded cannot be replayed (empty: it can)
    std::string GetProblem() const;

    /**
     * \param learning the configuration that decided what was learned (kept in the recording)
     * \param resolved what the run resolved on its overlay (LearningRecord::resolved)
     * \return the recording of a finished run
     */
    dlsim::LearningRecord GetRecord(const std::string& learning,
                                    const std::map<std::string, std::string>& resolved = {}) const;

  private:
    void RoundCompleted(const RoundReport& report);
    void MessageSent(const MessageReport& report);
    void Evaluated(const EvalReport& report);
    /// Note the first reason the recording cannot be replayed.
    void Problem(const std::string& why);

    std::vector<dlsim::RecordedNode> m_nodes;
    /// The payload each node sent in its round in progress: (round, payload, value bytes).
    struct Sent
    {
        uint32_t round = 0;
        uint64_t payloadBytes = 0;
        uint64_t valueBytes = 0;
    };
    std::vector<Sent> m_sent;
    std::vector<bool> m_timed; ///< the node's compute time is known (a training round ended)
    std::string m_problem;
};

} // namespace ns3

#endif // DLSIM_LEARNING_RECORDER_H
