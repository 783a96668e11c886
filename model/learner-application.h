// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The ns-3 Application that runs one learner on one simulated host.
 */
#ifndef DLSIM_LEARNER_APPLICATION_H
#define DLSIM_LEARNER_APPLICATION_H

#include "dataset.h"
#include "learner-evaluator.h"
#include "learner.h"
#include "message-framing.h"
#include "message-inbox.h"
#include "message-transport.h"
#include "network-model.h"
#include "ns3/application.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"
#include "round-policy.h"
#include "sharing-algorithm.h"
#include "worker-pool.h"

#include <deque>
#include <future>
#include <map>
#include <memory>
#include <vector>

namespace ns3
{

/// Reported when a learner completes a round (after aggregation).
struct RoundReport
{
    uint32_t learner = 0;   ///< the learner's id
    uint32_t round = 0;     ///< rounds are numbered from 1
    Time time;              ///< simulated time at the end of the round
    Time computeTime;       ///< simulated time charged for local training
    bool trained = true;    ///< the learner trained in this round (SCSP's gossip: not)
    double trainLoss = 0.0; ///< mean loss of this round's local steps
    /// CPU seconds the host spent in this round's local training, on whichever thread ran it:
    /// a measure of the simulation's own cost (like its wall time), not simulated and not
    /// reproducible; never written to rounds.csv.
    double trainingCpuSeconds = 0.0;
    /// CPU seconds the simulator's thread spent since the previous report in the algorithm's
    /// encoding, decoding, answering and aggregation (with the copies of the model these read
    /// and write): learning work a deployment does too, not the network's; measured like
    /// trainingCpuSeconds and, like it, never written to rounds.csv.
    double sharingCpuSeconds = 0.0;
    uint64_t valueBytes = 0;         ///< model value bytes this node sent in this round
    uint64_t metadataBytes = 0;      ///< header, index and other non-value bytes sent in this round
    uint64_t totalValueBytes = 0;    ///< cumulative value bytes since the start
    uint64_t totalMetadataBytes = 0; ///< cumulative metadata bytes since the start
    /// What the aggregation used: in-neighbours' messages of this round (fresh), of earlier
    /// rounds (stale), and late or superseded messages discarded since the previous one (dropped).
    uint32_t fresh = 0;
    uint32_t stale = 0;         ///< see fresh
    uint32_t dropped = 0;       ///< see fresh
    uint32_t reused = 0;        ///< of the stale ones, cached messages used again (MissingModels)
    double meanStaleness = 0.0; ///< rounds behind this one, over the messages used
    uint32_t maxStaleness = 0;  ///< the most rounds behind of the messages used
    /// Own messages of earlier rounds that were still waiting for TCP and were replaced by this
    /// round's (wait-free rounds of algorithms whose messages are models).
    uint32_t supersededSends = 0;
    /// Own messages lost with a failed connection since the previous round report.
    uint32_t lostSends = 0;
    bool finished = false; ///< this was the learner's last round
};

/// Reported for every message sent (handed to TCP) or received (fully reassembled).
struct MessageReport
{
    uint32_t sender = 0;     ///< the sending learner
    uint32_t receiver = 0;   ///< the receiving learner
    uint32_t round = 0;      ///< the sender's round
    uint64_t valueBytes = 0; ///< known to the sender only (0 on receipt)
    uint64_t totalBytes = 0; ///< header plus payload
    Time time;               ///< when it was handed to TCP, or fully received
    bool answer = false; ///< an answer to the receiver's payload of that round (pairwise exchange)
};

/// Reported when a learner's host crashes or comes back.
struct AvailabilityReport
{
    uint32_t learner = 0; ///< whose host
    Time time;            ///< when
    bool up = false;      ///< it came back (false: it crashed)
    bool forGood = false; ///< a crash with no recovery planned
};

/// The last round that learners waiting for each other agree on (see SetRoundBudget).
struct RoundBudget
{
    uint32_t highestStarted = 0; ///< the highest round any learner has started
    uint32_t lastRound = 0;      ///< 0 until the first round ends after the budget
    bool endRequested = false;   ///< EndSoon: as if the budget had passed
    /// The rounds the learning holds (a replayed recording that its own run's budget cut
    /// short); 0: as many as Rounds. A learner that would go past them fails (RanOutOfLearning).
    uint32_t available = 0;
    bool ranOut = false; ///< a learner would have gone on past `available`
};

/**
 * \brief Runs rounds on one host: train (charged as simulated compute time), encode the sharing
 * algorithm's payload and send it over TCP to every out-neighbour, wait for in-neighbours'
 * messages as the round mode says (later rounds' messages are buffered), let the algorithm
 * decode and aggregate the bytes that actually arrived, then start the next round.
 *
 * Round modes: Sync waits for the round's message of every in-neighbour. Deadline waits at most
 * RoundTimeout after handing its own message to TCP, then aggregates what arrived; a message of
 * a round already aggregated is dropped or used as stale in the next aggregation (LateMessages;
 * algorithms whose messages are increments always use it). Async never waits: it aggregates
 * whatever arrived since its previous aggregation, so fast learners do more rounds. In deadline
 * and async rounds an in-neighbour of a model-sharing algorithm with no new message is either
 * left out (its weight stays with the learner) or stands in with the latest message taken from
 * it (MissingModels).
 *
 * The application opens its connections in StartApplication through its MessageTransport (one
 * listening socket for incoming connections, one connection to each out-neighbour); the round
 * mode's decisions come from its RoundPolicy, evaluations run through a LearnerEvaluator.
 * Evaluation costs no simulated time.
 *
 * Attributes and trace sources: see GetTypeId (each has its help string there) and the doc's
 * table of LearnerApplication attributes. Trace sources: RoundCompleted (RoundReport),
 * MessageSent and MessageReceived (MessageReport), Evaluated (EvalReport), Availability
 * (AvailabilityReport), Failed (the reason).
 */
class LearnerApplication : public Application
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    /// Signature of the RoundCompleted trace source.
    typedef void (*RoundCompletedCallback)(const RoundReport& report);
    /// Signature of the MessageSent and MessageReceived trace sources.
    typedef void (*MessageCallback)(const MessageReport& report);
    /// Signature of the Evaluated trace source.
    typedef void (*EvaluatedCallback)(const EvalReport& report);
    /// Signature of the Availability trace source.
    typedef void (*AvailabilityCallback)(const AvailabilityReport& report);
    /// Signature of the Failed trace source: why the learner cannot go on.
    typedef void (*FailedCallback)(const std::string& message);

    /// Which TCP the learners' sockets are (TcpProfile attribute).
    enum TcpProfile
    {
        TCP_NS3,   ///< ns-3's TcpSocketBase as it is
        TCP_LINUX, ///< LinuxTcpSocket: RACK-TLP, Linux's RTO and quick ACKs
    };

    LearnerApplication();
    ~LearnerApplication() override;

    /// Where to reach a neighbour: its id and its address on the link between the two hosts.
    using Peer = LearnerPeer;

    /// The neighbours of one phase of a (possibly time-varying) overlay.
    struct PeerSet
    {
        std::vector<Peer> out;    ///< where this node sends, with addresses
        std::vector<uint32_t> in; ///< whom it receives from, sorted
    };

    /**
     * \brief Give the application its learner and algorithm (before the simulation starts).
     * \param learner the model, its optimiser and its partition (a dlsim::Learner), or a
     *        recorded learner's replay (dlsim::ReplayedLearner)
     * \param algorithm how the learner shares and aggregates
     * \param testSet what evaluations run on (null: none)
     */
    void Setup(std::unique_ptr<dlsim::TrainableModel> learner,
               std::unique_ptr<dlsim::SharingAlgorithm> algorithm,
               std::shared_ptr<const dlsim::Dataset> testSet);
    /**
     * Train on `pool`'s workers instead of in the simulator's thread: a round's training starts
     * when the round does and is joined when its simulated compute time has passed, so the
     * simulator goes on with other events meanwhile. Results are the same either way: the job
     * touches only this learner. Measured compute times (MeasuredComputeScale) still train in
     * the simulator's thread, since the compute time is what the training took.
     * \param pool the run's workers (null: train in the simulator's thread)
     */
    void SetWorkerPool(std::shared_ptr<dlsim::WorkerPool> pool);
    /**
     * Evaluate on the workers too (needs a pool): the Evaluated reports of every learner
     * sharing `evaluations` come in the order the evaluations were made, but later, when their
     * results are ready; DeliverEvaluations hands on those still outstanding.
     * \param evaluations the run's order of reports
     */
    void SetEvaluationDelivery(std::shared_ptr<dlsim::InOrderDelivery> evaluations);
    /// Wait for the evaluations made so far and report them (Evaluated), in order.
    void DeliverEvaluations();
    /**
     * The learners of one run that share `budget` agree on their last round under a time
     * budget (Duration) when rounds wait for every in-neighbour: it is the highest round any of
     * them had started when the first round ended after the budget, and every learner completes
     * it. Without a shared budget each learner stops at its first round end after the budget,
     * and a neighbour that had already started the next round would wait for ever.
     * \param budget shared by the run's learners
     */
    void SetRoundBudget(std::shared_ptr<RoundBudget> budget);
    /**
     * End the run as a passed time budget (Duration) would: learners that share a RoundBudget
     * agree on a last round, the others end at their next round's end. For a caller that
     * watches the run's results (rounds.until_target: the target reached and held).
     */
    void EndSoon();
    /**
     * \brief A static overlay: the same neighbours every round.
     * \param outPeers where this learner sends, with addresses
     * \param inPeers whom it receives from
     */
    void SetPeers(std::vector<Peer> outPeers, std::vector<uint32_t> inPeers);
    /**
     * \brief A time-varying overlay: round t uses phases[((t - 1) / period) mod phases.size()].
     * \param phases the neighbours of each phase
     * \param period rounds per phase
     */
    void SetPeerSchedule(std::vector<PeerSet> phases, uint32_t period);
    /**
     * \brief The simulation's network model, which makes the learner's transport (before it
     * starts). LearnerHelper gives every learner of an Install the same one; without it the
     * learner makes one of its own from its NetworkModel attribute's registration.
     * \param model made by a NetworkModelRegistration for the NetworkModel attribute's name
     */
    void SetNetworkModel(Ptr<NetworkModel> model);

    /// \return the learner (waits for a round's training on a worker to end)
    dlsim::TrainableModel& GetLearner();
    /// \return how the learner shares and aggregates (as given to Setup)
    const dlsim::SharingAlgorithm& GetSharingAlgorithm() const;
    /// \return the learner's index in the overlay (LearnerId)
    uint32_t GetLearnerId() const;
    /// \return the rounds the learner runs: the training rounds (Rounds) and the algorithm's
    /// extra ones
    uint32_t GetTotalRounds() const;
    /// \return the rounds completed so far
    uint32_t GetCompletedRounds() const;
    /// \return payload bytes this learner has received so far (what a watchdog counts as
    /// progress)
    uint64_t GetReceivedBytes() const;
    /// \return whether the learner is training now (its round's compute time has not passed)
    bool IsComputing() const;
    /// \return whether the learner completed its last round
    bool IsFinished() const;
    /// \return whether nothing more will come from the learner: it finished, or crashed for good
    bool IsDone() const;

    /**
     * The host crashes: training, sending and receiving stop, connections close, messages held
     * are lost; the learner keeps its model and round. Neighbours in deadline and async rounds
     * go on without it; in sync rounds the learner fails (its neighbours would wait for ever).
     * \param forGood no recovery will follow (it then counts as done)
     */
    void Crash(bool forGood);
    /// The host is back: connections open again and the interrupted round starts over.
    void Recover();
    /// \return whether the host is down
    bool IsCrashed() const;

    /**
     * \brief Evaluate now the model of the last aggregation (the initial model before the first
     * one): what timed evaluations (EvaluationClock) use.
     * \param index reported as the evaluation's round: the clock's tick
     */
    void EvaluateNow(uint32_t index);
    /// \return whether the learner stopped on an error (reported through the Failed trace source)
    bool HasFailed() const;
    /// \return whether a learner of its run would have gone on past the rounds its learning
    /// holds (RoundBudget::available): the run is not what a full run of it computes
    bool RanOutOfLearning() const;

  protected:
    /// Release the transport, the learner and the algorithm (after a worker's training ends).
    void DoDispose() override;

  private:
    /**
     * Whether the round after this one is in the learning (RoundBudget::available); when it is
     * not, the learner fails, as a run that cannot be computed.
     */
    bool WithinAvailableRounds();
    void StartApplication() override;
    void StopApplication() override;

    /// The messages' transport (made on first use from the Tcp* attributes and the round mode).
    MessageTransport& Transport();
    /// Listen, and connect to every node this learner sends to in any phase.
    bool OpenSockets();
    /// Close every connection (a crash, the end).
    void CloseSockets();
    /**
     * A connection broke (MessageTransport::Handlers::lost): fatal where rounds go in lockstep
     * (unless a neighbour closed it after the last round); otherwise the transport reconnects.
     */
    bool ConnectionLost(const std::string& why, bool peerClosed);
    /// Stop this learner and report `reason` (prefixed with the learner's id) through Failed.
    void Fail(const std::string& reason);
    const PeerSet& PhaseOf(uint32_t round) const;
    /// An empty inbox for this learner's algorithm and round mode (at the start, after a crash).
    std::unique_ptr<dlsim::MessageInbox> MakeInbox() const;
    dlsim::RoundInfo InfoOf(uint32_t round) const;

    void StartRound();
    /// Wait for a round's training running on a worker, if any (then the learner is ours again).
    void JoinTraining();
    /// Where evaluations run (made on first use from the test set, pool and delivery order).
    LearnerEvaluator& Evaluator();
    /// Where an evaluation's report goes: the Evaluated trace source.
    LearnerEvaluator::Sink EvaluatedSink();
    /// What the learner is now, for an evaluation's report.
    EvalReport MakeReport(uint32_t round) const;
    /// Whether a timed evaluation comes within `length` from now (EvalInterval > 0).
    bool EvaluationTickWithin(Time length) const;
    void FinishTraining(Time computeTime);
    void DeliverMessage(dlsim::Message message);
    /// A neighbour's payload asks for an answer (SharingAlgorithm::AnswersMessages): give it now.
    void AnswerRequest(const dlsim::Message& request);
    /// An answer to this node's payload arrived: the algorithm applies it now.
    void TakeAnswer(const dlsim::Message& answer);
    /// \return the answers taken since the previous aggregation, as a round reports them
    dlsim::InboxTake TakeAnswers();
    /// Report, count and send this node's payload to `receivers`.
    void SendPayload(const dlsim::MessageHeader& header,
                     const dlsim::EncodedPayload& payload,
                     const std::vector<uint32_t>& receivers);
    void DeadlinePassed();
    bool RoundReady() const;
    void TryAggregate();
    uint32_t DropUnsentMessages();
    /// The round mode's policy (RoundMode, RoundTimeout), made when the application starts.
    const RoundPolicy& Policy() const;
    /// Whether the round just aggregated is this learner's last (Rounds, Duration).
    bool IsLastRound();
    bool m_endRequested = false; ///< EndSoon without a shared RoundBudget
    void Evaluate(uint32_t round);

    // Attributes
    uint32_t m_learnerId;
    uint32_t m_rounds;
    uint64_t m_seed;
    uint16_t m_port;
    uint32_t m_evalEvery;
    uint32_t m_evalSamples;
    bool m_evaluate;
    Time m_computeTime;
    double m_measuredComputeScale;
    uint32_t m_segmentSize;
    uint32_t m_socketBufferSize;
    uint32_t m_initialCwnd;
    Time m_minRto;
    Time m_delAckTimeout;
    TcpProfile m_tcpProfile;
    uint64_t m_maxPayloadBytes;
    std::string m_roundMode;     ///< a registered round mode (RoundModeRegistry)
    std::string m_networkModel;  ///< a registered network model (NetworkModelRegistry)
    Ptr<NetworkModel> m_network; ///< the simulation's (SetNetworkModel), or made on first use
    Time m_evalInterval;
    Time m_roundTimeout;
    int m_late;    ///< a LateMessages value (ns-3 enum attributes are ints)
    int m_missing; ///< a MissingModels value
    Time m_duration;
    mutable std::unique_ptr<RoundPolicy> m_policy; ///< made by Policy() on first use
    Time m_reconnectInterval;
    uint32_t m_connectAttempts; ///< tries to set up a first connection (ConnectAttempts)

    // Learning state
    std::unique_ptr<dlsim::TrainableModel> m_learner;
    std::unique_ptr<dlsim::SharingAlgorithm> m_algorithm;
    std::shared_ptr<const dlsim::Dataset> m_testSet;
    std::vector<PeerSet> m_phases;
    uint32_t m_period = 1;
    uint32_t m_round = 0; ///< the round in progress, from 1
    bool m_trained = false;
    bool m_finished = false;
    bool m_failed = false;
    bool m_crashed = false;
    bool m_crashedForGood = false;
    double m_trainLoss = 0.0;
    /// The round's training's CPU seconds (written by the worker that trains, read after the
    /// join).
    double m_trainingCpuSeconds = 0.0;
    double m_sharingCpuSeconds = 0.0; ///< since the previous round report (RoundReport)
    std::shared_ptr<dlsim::WorkerPool> m_pool;
    /// The round's training on a worker (valid until joined): its mean loss.
    std::future<double> m_training;
    std::shared_ptr<dlsim::InOrderDelivery> m_evaluations;
    std::shared_ptr<RoundBudget> m_budget;
    std::unique_ptr<LearnerEvaluator> m_evaluator; ///< made by Evaluator() on first use
    Time m_roundComputeTime;
    /// Messages received and not yet aggregated.
    std::unique_ptr<dlsim::MessageInbox> m_inbox;
    bool m_deadlinePassed = false;
    EventId m_deadlineEvent;
    uint32_t m_roundSuperseded = 0;
    /// Neighbours this round's payload went to (what an answering algorithm's round waits for).
    uint32_t m_roundReceivers = 0;
    /// Answering algorithms: answers taken and not yet reported, by the round they answer.
    std::map<uint32_t, uint32_t> m_answers;
    /// Answering algorithms: answers nothing awaited (after a crash), not yet reported.
    uint32_t m_unexpectedAnswers = 0;
    /// Timed evaluations only: the model of the last aggregation, kept from the start of a round
    /// (when the real training replaces it in the learner) until the round's aggregation.
    std::vector<float> m_aggregatedModel;
    /// The same as a copy of the model, made only when a timed evaluation will come while a
    /// worker trains (the learner cannot be copied then); null otherwise.
    std::shared_ptr<const dlsim::ModelSnapshot> m_aggregatedSnapshot;

    // Byte accounting
    uint64_t m_roundValueBytes = 0;
    uint64_t m_roundMetadataBytes = 0;
    uint64_t m_totalValueBytes = 0;
    uint64_t m_totalMetadataBytes = 0;

    Ptr<MessageTransport> m_transport; ///< made by Transport() on first use
    EventId m_trainingEvent;

    TracedCallback<const RoundReport&> m_roundCompletedTrace;
    TracedCallback<const MessageReport&> m_messageSentTrace;
    TracedCallback<const MessageReport&> m_messageReceivedTrace;
    TracedCallback<const EvalReport&> m_evaluatedTrace;
    TracedCallback<const std::string&> m_failedTrace;
    TracedCallback<const AvailabilityReport&> m_availabilityTrace;
};

} // namespace ns3

#endif // DLSIM_LEARNER_APPLICATION_H
