// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "learner-application.h"

#include "network-model.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "round-schedule.h"
#include "tcp-message-transport.h"

#include <algorithm>
#include <ctime>
#include <limits>
#include <sstream>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DlsimLearnerApplication");

namespace
{

/// CPU seconds of the calling thread: workers evaluating meanwhile do not count.
double
ThreadCpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

/// One round's training of `learner` on the calling thread; its CPU seconds go to `cpuSeconds`.
double
TrainTimed(TrainableModel& learner, double& cpuSeconds)
{
    const double start = ThreadCpuSeconds();
    const double loss = learner.Train();
    cpuSeconds = ThreadCpuSeconds() - start;
    return loss;
}

/// Adds the CPU seconds of the calling thread from its construction to its end to a sum.
class CpuSecondsAdded
{
  public:
    explicit CpuSecondsAdded(double& sum) : m_sum(sum), m_start(ThreadCpuSeconds()) {}

    ~CpuSecondsAdded()
    {
        m_sum += ThreadCpuSeconds() - m_start;
    }

    CpuSecondsAdded(const CpuSecondsAdded&) = delete;
    CpuSecondsAdded& operator=(const CpuSecondsAdded&) = delete;

  private:
    double& m_sum;
    double m_start;
};

/// The trained model handed to Encode or Aggregate: one buffer for every learner, held only for
/// that call, rather than a model-sized vector made and freed twice per learner and round.
std::vector<float>&
SimulatorThreadParameters()
{
    thread_local std::vector<float> parameters;
    return parameters;
}

} // namespace

NS_OBJECT_ENSURE_REGISTERED(LearnerApplication);

TypeId
LearnerApplication::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::LearnerApplication")
              .SetParent<Application>()
              .SetGroupName("Dlsim")
              .AddConstructor<LearnerApplication>()
              .AddAttribute("LearnerId",
                            "The learner's index in the overlay (0..n-1).",
                            UintegerValue(0),
                            MakeUintegerAccessor(&LearnerApplication::m_learnerId),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("Seed",
                            "The run's seed, handed to the sharing algorithm (random choices).",
                            UintegerValue(1),
                            MakeUintegerAccessor(&LearnerApplication::m_seed),
                            MakeUintegerChecker<uint64_t>())
              .AddAttribute("Rounds",
                            "Training rounds to run (at most, with Duration); the algorithm's "
                            "communication-only rounds (SCSP's gossip) follow them.",
                            UintegerValue(10),
                            MakeUintegerAccessor(&LearnerApplication::m_rounds),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("Port",
                            "TCP port every learner listens on.",
                            UintegerValue(9000),
                            MakeUintegerAccessor(&LearnerApplication::m_port),
                            MakeUintegerChecker<uint16_t>(1))
              .AddAttribute("RoundMode",
                            "How long a round waits for in-neighbours' messages: a registered "
                            "round mode (RoundModeRegistry): sync (all of them), deadline (at "
                            "most RoundTimeout after sending), async (never).",
                            StringValue("sync"),
                            MakeStringAccessor(&LearnerApplication::m_roundMode),
                            MakeStringChecker())
              .AddAttribute("NetworkModel",
                            "How messages travel: a registered network model "
                            "(NetworkModelRegistry): packet (ns-3's TCP, every segment) or flow "
                            "(flows sharing the links, FlowNetwork).",
                            StringValue("packet"),
                            MakeStringAccessor(&LearnerApplication::m_networkModel),
                            MakeStringChecker())
              .AddAttribute("RoundTimeout",
                            "Deadline rounds: how long to wait for in-neighbours after handing "
                            "the own message to TCP (Time::Max: for ever, as in sync rounds).",
                            TimeValue(Time::Max()),
                            MakeTimeAccessor(&LearnerApplication::m_roundTimeout),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("LateMessages",
                            "Deadline rounds: what to do with a message of a round already "
                            "aggregated (algorithms whose messages are increments always use it).",
                            EnumValue(static_cast<int>(LateMessages::Drop)),
                            MakeEnumAccessor(&LearnerApplication::m_late),
                            MakeEnumChecker(static_cast<int>(LateMessages::Drop),
                                            "drop",
                                            static_cast<int>(LateMessages::Stale),
                                            "stale"))
              .AddAttribute("MissingModels",
                            "Deadline and async rounds of model-sharing algorithms: an "
                            "in-neighbour with no new message keeps its weight on this learner "
                            "(self) or stands in with the latest message taken from it (cache).",
                            EnumValue(static_cast<int>(MissingModels::Self)),
                            MakeEnumAccessor(&LearnerApplication::m_missing),
                            MakeEnumChecker(static_cast<int>(MissingModels::Self),
                                            "self",
                                            static_cast<int>(MissingModels::Cache),
                                            "cache"))
              .AddAttribute("Duration",
                            "If > 0, start no round after this simulated time (the learner then "
                            "counts as finished).",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&LearnerApplication::m_duration),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("EvalInterval",
                            "If > 0, evaluations follow a clock instead of EvalEvery rounds: "
                            "every interval from 0 s, every learner at once (the EvaluationClock "
                            "LearnerHelper::Install starts).",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&LearnerApplication::m_evalInterval),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("ReconnectInterval",
                            "How long to wait before connecting again to a neighbour whose "
                            "connection failed (deadline and async rounds: a crashed host, a "
                            "failed link), or whose first connection could not be set up (any "
                            "rounds, see ConnectAttempts).",
                            TimeValue(Seconds(1)),
                            MakeTimeAccessor(&LearnerApplication::m_reconnectInterval),
                            MakeTimeChecker(MilliSeconds(1)))
              .AddAttribute("ConnectAttempts",
                            "Tries to set up the first connection to a neighbour (each one "
                            "TCP's own SYN retries; ReconnectInterval apart) before it counts as "
                            "failed: in synchronous rounds, the run then fails. Covers a station "
                            "still associating with its access point, a link down at the start.",
                            UintegerValue(4),
                            MakeUintegerAccessor(&LearnerApplication::m_connectAttempts),
                            MakeUintegerChecker<uint32_t>(1, 1000))
              .AddAttribute("EvalEvery",
                            "Evaluate after every this many rounds (and after the last round).",
                            UintegerValue(10),
                            MakeUintegerAccessor(&LearnerApplication::m_evalEvery),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("EvalSamples",
                            "Test samples to evaluate on (the first ones of the test set); 0: all.",
                            UintegerValue(0),
                            MakeUintegerAccessor(&LearnerApplication::m_evalSamples),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("Evaluate",
                            "Whether this learner evaluates its model at all.",
                            BooleanValue(true),
                            MakeBooleanAccessor(&LearnerApplication::m_evaluate),
                            MakeBooleanChecker())
              .AddAttribute("ComputeTime",
                            "Simulated duration of one round of local training.",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&LearnerApplication::m_computeTime),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("MeasuredComputeScale",
                            "If > 0, charge the host CPU time of the real training times this "
                            "factor instead of ComputeTime (not reproducible).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&LearnerApplication::m_measuredComputeScale),
                            MakeDoubleChecker<double>(0.0))
              .AddAttribute("TcpSegmentSize",
                            "TCP maximum segment size in bytes (1448 fills a 1500-byte MTU with "
                            "timestamps on).",
                            UintegerValue(1448),
                            MakeUintegerAccessor(&LearnerApplication::m_segmentSize),
                            MakeUintegerChecker<uint32_t>(64))
              .AddAttribute("TcpBufferSize",
                            "TCP send and receive buffer size in bytes.",
                            UintegerValue(4 << 20),
                            MakeUintegerAccessor(&LearnerApplication::m_socketBufferSize),
                            MakeUintegerChecker<uint32_t>(1024))
              .AddAttribute("TcpInitialCwnd",
                            "TCP initial congestion window in segments.",
                            UintegerValue(10),
                            MakeUintegerAccessor(&LearnerApplication::m_initialCwnd),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("TcpMinRto",
                            "TCP's minimum retransmission timeout (Linux's 200 ms, which "
                            "TcpProfile linux adds to the smoothed RTT as Linux does; RFC "
                            "6298's and ns-3's own default is 1 s).",
                            TimeValue(MilliSeconds(200)),
                            MakeTimeAccessor(&LearnerApplication::m_minRto),
                            MakeTimeChecker(MilliSeconds(1)))
              .AddAttribute("TcpDelAckTimeout",
                            "How long TCP may delay an ACK (Linux's 40 ms; ns-3's own default "
                            "is 200 ms). Must stay below TcpMinRto, or the sender times out "
                            "while the receiver still holds back the ACK of a message's last "
                            "segment.",
                            TimeValue(MilliSeconds(40)),
                            MakeTimeAccessor(&LearnerApplication::m_delAckTimeout),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute(
                  "TcpProfile",
                  "Which TCP the sockets are: linux (LinuxTcpSocket: RACK-TLP loss "
                  "recovery, Linux's PRR, RTO formula, quick ACKs, CUBIC and restart "
                  "after idle) or ns3 (ns-3's TcpSocketBase as it is; set TcpMinRto "
                  "1 s and TcpDelAckTimeout 200 ms for ns-3's own timers). "
                  "Connections accepted by a learner take the listener's.",
                  EnumValue(LearnerApplication::TCP_LINUX),
                  MakeEnumAccessor(&LearnerApplication::m_tcpProfile),
                  MakeEnumChecker(
                      LearnerApplication::TCP_NS3, "ns3", LearnerApplication::TCP_LINUX, "linux"))
              .AddAttribute("MaxPayloadBytes",
                            "Largest payload a received header may announce; larger is an error.",
                            UintegerValue(uint64_t(1) << 32),
                            MakeUintegerAccessor(&LearnerApplication::m_maxPayloadBytes),
                            MakeUintegerChecker<uint64_t>())
              .AddTraceSource("RoundCompleted",
                              "A round ended: the model was aggregated.",
                              MakeTraceSourceAccessor(&LearnerApplication::m_roundCompletedTrace),
                              "ns3::LearnerApplication::RoundCompletedCallback")
              .AddTraceSource("MessageSent",
                              "A message was handed to TCP for one out-neighbour.",
                              MakeTraceSourceAccessor(&LearnerApplication::m_messageSentTrace),
                              "ns3::LearnerApplication::MessageCallback")
              .AddTraceSource("MessageReceived",
                              "A message from an in-neighbour was fully received.",
                              MakeTraceSourceAccessor(&LearnerApplication::m_messageReceivedTrace),
                              "ns3::LearnerApplication::MessageCallback")
              .AddTraceSource("Failed",
                              "The learner cannot go on (a connection failed, or bytes arrived "
                              "that are not a valid message); the message says why.",
                              MakeTraceSourceAccessor(&LearnerApplication::m_failedTrace),
                              "ns3::LearnerApplication::FailedCallback")
              .AddTraceSource("Availability",
                              "The learner's host crashed or came back (faults).",
                              MakeTraceSourceAccessor(&LearnerApplication::m_availabilityTrace),
                              "ns3::LearnerApplication::AvailabilityCallback")
              .AddTraceSource("Evaluated",
                              "The model was evaluated on the test set.",
                              MakeTraceSourceAccessor(&LearnerApplication::m_evaluatedTrace),
                              "ns3::LearnerApplication::EvaluatedCallback");
    return tid;
}

LearnerApplication::LearnerApplication()
{
    NS_LOG_FUNCTION(this);
}

LearnerApplication::~LearnerApplication()
{
    NS_LOG_FUNCTION(this);
    // A worker may still be training this learner (a run stopped early). Evaluations work on
    // copies of the model and need nothing of it.
    if (m_training.valid())
    {
        m_training.wait();
    }
}

void
LearnerApplication::Setup(std::unique_ptr<TrainableModel> learner,
                          std::unique_ptr<SharingAlgorithm> algorithm,
                          std::shared_ptr<const Dataset> testSet)
{
    m_learner = std::move(learner);
    m_algorithm = std::move(algorithm);
    m_testSet = std::move(testSet);
}

void
LearnerApplication::SetWorkerPool(std::shared_ptr<WorkerPool> pool)
{
    m_pool = std::move(pool);
}

void
LearnerApplication::SetEvaluationDelivery(std::shared_ptr<InOrderDelivery> evaluations)
{
    m_evaluations = std::move(evaluations);
}

void
LearnerApplication::DeliverEvaluations()
{
    if (m_evaluations)
    {
        m_evaluations->DeliverAll();
    }
}

void
LearnerApplication::SetRoundBudget(std::shared_ptr<RoundBudget> budget)
{
    m_budget = std::move(budget);
}

void
LearnerApplication::SetPeers(std::vector<Peer> outPeers, std::vector<uint32_t> inPeers)
{
    SetPeerSchedule({PeerSet{std::move(outPeers), std::move(inPeers)}}, 1);
}

void
LearnerApplication::SetPeerSchedule(std::vector<PeerSet> phases, uint32_t period)
{
    NS_ABORT_MSG_IF(phases.empty() || period == 0, "a peer schedule needs phases and a period");
    for (auto& phase : phases)
    {
        std::sort(phase.in.begin(), phase.in.end());
    }
    m_phases = std::move(phases);
    m_period = period;
}

void
LearnerApplication::SetNetworkModel(Ptr<NetworkModel> model)
{
    m_network = model;
}

const LearnerApplication::PeerSet&
LearnerApplication::PhaseOf(uint32_t round) const
{
    return m_phases[PhaseOfRound(round, m_period, m_phases.size())];
}

RoundInfo
LearnerApplication::InfoOf(uint32_t round) const
{
    RoundInfo info;
    info.round = round;
    info.outDegree = static_cast<uint32_t>(PhaseOf(round).out.size());
    info.inDegree = static_cast<uint32_t>(PhaseOf(round).in.size());
    return info;
}

const SharingAlgorithm&
LearnerApplication::GetSharingAlgorithm() const
{
    return *m_algorithm;
}

TrainableModel&
LearnerApplication::GetLearner()
{
    NS_ABORT_MSG_UNLESS(m_learner, "LearnerApplication has no learner: call Setup first");
    JoinTraining();
    return *m_learner;
}

uint32_t
LearnerApplication::GetLearnerId() const
{
    return m_learnerId;
}

uint32_t
LearnerApplication::GetTotalRounds() const
{
    return m_rounds + (m_algorithm ? m_algorithm->ExtraRounds() : 0);
}

uint32_t
LearnerApplication::GetCompletedRounds() const
{
    return m_round == 0 ? 0 : m_round - 1;
}

uint64_t
LearnerApplication::GetReceivedBytes() const
{
    return m_transport ? m_transport->GetReceivedBytes() : 0;
}

bool
LearnerApplication::IsComputing() const
{
    return m_trainingEvent.IsRunning();
}

bool
LearnerApplication::IsFinished() const
{
    return m_finished;
}

bool
LearnerApplication::IsDone() const
{
    return m_finished || m_crashedForGood;
}

void
LearnerApplication::DoDispose()
{
    if (m_transport)
    {
        m_transport->Dispose();
        m_transport = nullptr;
    }
    m_network = nullptr;
    if (m_training.valid())
    {
        m_training.wait(); // the worker must be done with the learner before it goes
    }
    m_training = std::future<double>();
    m_aggregatedSnapshot.reset();
    m_evaluator.reset(); // the jobs own what they need
    m_learner.reset();
    m_algorithm.reset();
    Application::DoDispose();
}

void
LearnerApplication::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_UNLESS(m_learner && m_algorithm,
                        "LearnerApplication " << m_learnerId << " started without Setup()");
    NS_ABORT_MSG_IF(m_phases.empty(), "LearnerApplication " << m_learnerId << " has no peers");
    SharingContext context;
    context.self = m_learnerId;
    context.seed = m_seed;
    m_algorithm->Initialize(m_learner->GetParameters(), context);
    m_inbox = MakeInbox();
    m_round = 1;
    if (m_evalInterval.IsZero())
    {
        Evaluate(0); // the initial model
    }
    // A host that crashed at the start (faults at 0 s run before the application starts) is
    // off: Recover() opens its sockets and starts round 1.
    if (m_crashed || !OpenSockets())
    {
        return;
    }
    StartRound();
}

MessageTransport&
LearnerApplication::Transport()
{
    // Made on first use, from the attributes as set (a host may come up only at a recovery).
    if (!m_transport)
    {
        TcpTransportSettings settings;
        settings.linuxTcp = m_tcpProfile == TCP_LINUX;
        settings.segmentSize = m_segmentSize;
        settings.bufferSize = m_socketBufferSize;
        settings.initialCwnd = m_initialCwnd;
        settings.minRto = m_minRto;
        settings.delAckTimeout = m_delAckTimeout;
        settings.port = m_port;
        settings.maxPayloadBytes = m_maxPayloadBytes;
        settings.reconnectInterval = m_reconnectInterval;
        settings.connectAttempts = m_connectAttempts;
        settings.holdUntilSent = !Policy().WaitsForEveryMessage();
        if (!m_network)
        {
            const NetworkModelRegistration* model = NetworkModelRegistry::Find(m_networkModel);
            NS_ABORT_MSG_UNLESS(model,
                                "LearnerApplication: unknown NetworkModel '"
                                    << m_networkModel << "' (known: "
                                    << JoinNames(NetworkModelRegistry::Names()) << ")");
            m_network = model->create();
        }
        m_transport = m_network->CreateTransport(m_learnerId, settings);
        MessageTransport::Handlers handlers;
        handlers.received = [this](Message message)
        {
            if (m_failed)
            {
                return false;
            }
            DeliverMessage(std::move(message));
            return !m_failed;
        };
        handlers.lost = [this](const std::string& why, bool peerClosed)
        {
            return ConnectionLost(why, peerClosed);
        };
        handlers.failed = [this](const std::string& why)
        {
            Fail(why);
        };
        m_transport->SetHandlers(std::move(handlers));
    }
    return *m_transport;
}

bool
LearnerApplication::OpenSockets()
{
    // One connection to every node this one sends to in any phase, opened once.
    std::map<uint32_t, Peer> targets;
    for (const auto& phase : m_phases)
    {
        for (const Peer& peer : phase.out)
        {
            targets.emplace(peer.id, peer);
        }
    }
    std::vector<Peer> peers;
    peers.reserve(targets.size());
    for (const auto& [id, peer] : targets)
    {
        peers.push_back(peer);
    }
    return Transport().Open(GetNode(), peers);
}

void
LearnerApplication::CloseSockets()
{
    if (m_transport)
    {
        m_transport->Close();
    }
}

bool
LearnerApplication::ConnectionLost(const std::string& why, bool peerClosed)
{
    // In lockstep a neighbour closing after the last round is the normal end; anything else
    // leaves a neighbour waiting for ever. Otherwise the transport reconnects.
    if (Policy().Lockstep())
    {
        if (!(peerClosed && m_finished))
        {
            Fail(why);
        }
        return false;
    }
    return true;
}

uint32_t
LearnerApplication::DropUnsentMessages()
{
    const std::vector<DroppedMessage> dropped = Transport().DropUnsent();
    for (const DroppedMessage& message : dropped)
    {
        // Never sent: the node's byte counts are what it handed to TCP.
        m_totalValueBytes -= message.valueBytes;
        m_totalMetadataBytes -= message.size - message.valueBytes;
    }
    return static_cast<uint32_t>(dropped.size());
}

std::unique_ptr<MessageInbox>
LearnerApplication::MakeInbox() const
{
    // Where rounds wait for every message, no neighbour is ever missing: no cache to keep.
    const auto missing = Policy().WaitsForEveryMessage() ? MissingModels::Self
                                                         : static_cast<MissingModels>(m_missing);
    return std::make_unique<MessageInbox>(
        m_algorithm->GetPartialReceipt(), static_cast<LateMessages>(m_late), missing);
}

void
LearnerApplication::StopApplication()
{
    NS_LOG_FUNCTION(this);
    Simulator::Cancel(m_trainingEvent);
    Simulator::Cancel(m_deadlineEvent);
    CloseSockets();
}

void
LearnerApplication::Crash(bool forGood)
{
    if (m_crashed || m_failed)
    {
        return;
    }
    if (Policy().WaitsForEveryMessage() && !m_finished)
    {
        std::ostringstream text;
        text << "crashed at " << Simulator::Now().GetSeconds() << " s (faults); "
             << Policy().Describe()
             << " wait for every in-neighbour, so its neighbours cannot go on: use rounds.mode = "
                "async, or deadline with a rounds.timeout, to study failures";
        Fail(text.str());
        return;
    }
    NS_LOG_INFO("learner " << m_learnerId << " crashes" << (forGood ? " for good" : ""));
    m_crashed = true;
    m_crashedForGood = forGood;
    Simulator::Cancel(m_trainingEvent);
    Simulator::Cancel(m_deadlineEvent);
    JoinTraining();
    if (!m_aggregatedModel.empty())
    {
        // Mid-round: the host keeps the model of its last aggregation.
        m_learner->SetParameters(m_aggregatedModel);
        m_aggregatedModel.clear();
        m_aggregatedSnapshot.reset();
    }
    m_trained = false;
    CloseSockets();
    m_inbox = MakeInbox();
    m_answers.clear();
    AvailabilityReport report{m_learnerId, Simulator::Now(), false, forGood};
    m_availabilityTrace(report);
}

void
LearnerApplication::Recover()
{
    if (!m_crashed || m_failed)
    {
        return;
    }
    NS_LOG_INFO("learner " << m_learnerId << " recovers in round " << m_round);
    m_crashed = false;
    AvailabilityReport report{m_learnerId, Simulator::Now(), true, false};
    m_availabilityTrace(report);
    if (!OpenSockets() || m_finished)
    {
        return;
    }
    // The round in progress at the crash starts again from the model the host kept.
    m_trainingEvent = Simulator::ScheduleNow(&LearnerApplication::StartRound, this);
}

bool
LearnerApplication::IsCrashed() const
{
    return m_crashed;
}

void
LearnerApplication::DeliverMessage(Message message)
{
    const MessageHeader& h = message.header;
    // Pairwise exchanges come whenever their sender is ready, whatever the round mode.
    const bool exchanges = m_algorithm->AnswersMessages();
    if (!exchanges && h.type == MessageType::Answer)
    {
        Fail("got an answer from learner " + std::to_string(h.sender)
             + ", but its algorithm asks for none");
        return;
    }
    // Only synchronous rounds guarantee that nothing of a finished round is still on its way.
    if ((Policy().Lockstep() && !exchanges && h.round < m_round) || h.round == 0
        || h.round > GetTotalRounds())
    {
        Fail("in round " + std::to_string(m_round) + " got a message of round "
             + std::to_string(h.round) + " from learner " + std::to_string(h.sender));
        return;
    }
    const auto& in = PhaseOf(h.round).in;
    if (!std::binary_search(in.begin(), in.end(), h.sender))
    {
        Fail("got a message of round " + std::to_string(h.round) + " from learner "
             + std::to_string(h.sender) + ", which is not an in-neighbour in that round");
        return;
    }
    NS_LOG_INFO("learner " << m_learnerId << " in round " << m_round << " got round " << h.round
                           << " from " << h.sender);
    MessageReport report;
    report.sender = h.sender;
    report.receiver = m_learnerId;
    report.round = h.round;
    report.totalBytes = MessageHeader::kSize + message.payload.size();
    report.time = Simulator::Now();
    report.answer = h.type == MessageType::Answer;
    m_messageReceivedTrace(report);
    if (exchanges)
    {
        if (h.type == MessageType::Answer)
        {
            TakeAnswer(message);
        }
        else
        {
            AnswerRequest(message);
        }
        return;
    }
    InboxMessage held;
    held.sender = h.sender;
    held.round = h.round;
    held.senderDegree = h.senderDegree;
    held.payload = std::move(message.payload);
    // Wait-free rounds have no lateness: whatever arrived since the last aggregation is used.
    const uint32_t current = Policy().TakesWhateverArrived() ? 0 : m_round;
    if (m_inbox->Add(std::move(held), current) == MessageInbox::Added::Duplicate)
    {
        Fail("got two messages of round " + std::to_string(h.round) + " from learner "
             + std::to_string(h.sender));
        return;
    }
    TryAggregate();
}

void
LearnerApplication::AnswerRequest(const Message& request)
{
    const MessageHeader& h = request.header;
    EncodedPayload answer;
    try
    {
        CpuSecondsAdded sharing(m_sharingCpuSeconds);
        answer = m_algorithm->Answer(ReceivedOf(request));
    }
    catch (const std::exception& e)
    {
        Fail("cannot answer the payload of round " + std::to_string(h.round) + " from learner "
             + std::to_string(h.sender) + ": " + e.what());
        return;
    }
    MessageHeader header;
    header.type = MessageType::Answer;
    header.sender = m_learnerId;
    header.round = h.round; // the requester's round, which its aggregation takes it for
    header.senderDegree = InfoOf(m_round).outDegree;
    SendPayload(header, answer, {h.sender});
}

void
LearnerApplication::TakeAnswer(const Message& answer)
{
    const MessageHeader& h = answer.header;
    bool applied = false;
    try
    {
        CpuSecondsAdded sharing(m_sharingCpuSeconds);
        applied = m_algorithm->TakeAnswer(ReceivedOf(answer));
    }
    catch (const std::exception& e)
    {
        Fail("cannot take the answer to round " + std::to_string(h.round) + " from learner "
             + std::to_string(h.sender) + ": " + e.what());
        return;
    }
    if (!applied)
    {
        // Nothing awaited it: a second answer to a round run again after a crash.
        ++m_unexpectedAnswers;
        return;
    }
    ++m_answers[h.round];
    TryAggregate();
}

InboxTake
LearnerApplication::TakeAnswers()
{
    // Answers were applied on arrival: what the round reports is how many, and how late.
    InboxTake take;
    uint64_t staleness = 0;
    for (auto it = m_answers.begin(); it != m_answers.end() && it->first <= m_round;)
    {
        const uint32_t behind = m_round - it->first;
        (behind == 0 ? take.fresh : take.stale) += it->second;
        staleness += static_cast<uint64_t>(behind) * it->second;
        take.maxStaleness = std::max(take.maxStaleness, behind);
        it = m_answers.erase(it);
    }
    const uint32_t taken = take.fresh + take.stale;
    take.meanStaleness = taken ? static_cast<double>(staleness) / taken : 0.0;
    take.dropped = m_unexpectedAnswers;
    m_unexpectedAnswers = 0;
    return take;
}

void
LearnerApplication::SendPayload(const MessageHeader& header,
                                const EncodedPayload& payload,
                                const std::vector<uint32_t>& receivers)
{
    // One set of packets shared by every connection: the bytes are the same for all neighbours.
    const auto message
        = std::make_shared<const std::vector<uint8_t>>(FrameMessage(header, payload.bytes));
    const std::vector<uint8_t>& framed = *message;
    for (uint32_t receiver : receivers)
    {
        m_roundValueBytes += payload.valueBytes;
        m_roundMetadataBytes += framed.size() - payload.valueBytes;
        MessageReport report;
        report.sender = m_learnerId;
        report.receiver = receiver;
        report.round = header.round;
        report.valueBytes = payload.valueBytes;
        report.totalBytes = framed.size();
        report.time = Simulator::Now();
        report.answer = header.type == MessageType::Answer;
        m_messageSentTrace(report);
    }
    Transport().Send(receivers, message, payload.valueBytes);
    m_totalValueBytes += payload.valueBytes * receivers.size();
    m_totalMetadataBytes += (framed.size() - payload.valueBytes) * receivers.size();
}

void
LearnerApplication::Fail(const std::string& reason)
{
    if (m_failed)
    {
        return;
    }
    m_failed = true;
    const std::string message = "learner " + std::to_string(m_learnerId) + " " + reason;
    NS_LOG_ERROR(message);
    Simulator::Cancel(m_trainingEvent);
    m_failedTrace(message);
}

bool
LearnerApplication::HasFailed() const
{
    return m_failed;
}

void
LearnerApplication::StartRound()
{
    NS_LOG_FUNCTION(this << m_round);
    if (m_budget)
    {
        m_budget->highestStarted = std::max(m_budget->highestStarted, m_round);
    }
    m_trained = false;
    m_deadlinePassed = false;
    m_roundValueBytes = 0;
    m_roundMetadataBytes = 0;
    m_roundSuperseded = 0;
    if (!m_algorithm->TrainsInRound(m_round))
    {
        // A communication-only round (SCSP's final gossip): nothing to train, no compute time.
        m_trainLoss = std::numeric_limits<double>::quiet_NaN();
        m_trainingCpuSeconds = 0.0;
        m_trainingEvent
            = Simulator::ScheduleNow(&LearnerApplication::FinishTraining, this, Time(0));
        return;
    }
    // The real training runs now (or on a worker, joined when the compute time has passed); its
    // results become visible after the simulated compute time.
    if (m_evalInterval.IsStrictlyPositive())
    {
        m_aggregatedModel = m_learner->GetParameters();
    }
    Time computeTime = m_computeTime;
    if (m_measuredComputeScale > 0.0)
    {
        m_trainLoss = TrainTimed(*m_learner, m_trainingCpuSeconds);
        computeTime = Seconds(m_trainingCpuSeconds * m_measuredComputeScale);
    }
    else if (m_pool)
    {
        TrainableModel* learner = m_learner.get();
        // A timed evaluation while a worker trains needs a copy of the model from before.
        if (m_evaluate && m_testSet && m_evaluations && m_evalInterval.IsStrictlyPositive()
            && EvaluationTickWithin(computeTime))
        {
            m_aggregatedSnapshot = m_learner->Snapshot();
        }
        double* cpuSeconds = &m_trainingCpuSeconds; // read only after the join
        m_training
            = m_pool->Submit([learner, cpuSeconds]() { return TrainTimed(*learner, *cpuSeconds); });
    }
    else
    {
        m_trainLoss = TrainTimed(*m_learner, m_trainingCpuSeconds);
    }
    m_trainingEvent
        = Simulator::Schedule(computeTime, &LearnerApplication::FinishTraining, this, computeTime);
}

void
LearnerApplication::JoinTraining()
{
    if (m_training.valid())
    {
        m_trainLoss = m_training.get(); // rethrows what the training threw
    }
}

bool
LearnerApplication::EvaluationTickWithin(Time length) const
{
    // Timed evaluations come at multiples of EvalInterval (the EvaluationClock). A tick the
    // prediction misses costs only a wait (EvaluateNow joins the training), never a result.
    const int64_t step = m_evalInterval.GetTimeStep();
    const int64_t now = Simulator::Now().GetTimeStep();
    const int64_t next = (now + step - 1) / step * step;
    return next <= now + length.GetTimeStep();
}

void
LearnerApplication::FinishTraining(Time computeTime)
{
    JoinTraining();
    m_aggregatedSnapshot.reset(); // the learner is idle again: EvaluateNow copies it if need be
    m_roundComputeTime = computeTime;
    const RoundInfo info = InfoOf(m_round);
    EncodedPayload payload;
    {
        CpuSecondsAdded sharing(m_sharingCpuSeconds);
        std::vector<float>& trained = SimulatorThreadParameters();
        m_learner->GetParametersInto(trained);
        payload = m_algorithm->Encode(info, trained);
    }
    MessageHeader header;
    header.sender = m_learnerId;
    header.round = m_round;
    header.senderDegree = info.outDegree;
    // A newer model makes an unsent older one worthless: send the newest, not a backlog. Only
    // where no receiver waits for every round's message (it would wait for ever).
    if (!Policy().WaitsForEveryMessage()
        && m_algorithm->GetPartialReceipt() == PartialReceipt::LatestModel)
    {
        m_roundSuperseded = DropUnsentMessages();
    }
    std::vector<uint32_t> out;
    for (const Peer& peer : PhaseOf(m_round).out)
    {
        out.push_back(peer.id);
    }
    const std::vector<uint32_t> receivers = m_algorithm->Receivers(info, out);
    for (uint32_t receiver : receivers)
    {
        if (std::find(out.begin(), out.end(), receiver) == out.end())
        {
            Fail("its algorithm chose learner " + std::to_string(receiver)
                 + ", which is not an out-neighbour in round " + std::to_string(m_round));
            return;
        }
    }
    m_roundReceivers = static_cast<uint32_t>(receivers.size());
    SendPayload(header, payload, receivers);
    m_trained = true;
    if (const std::optional<Time> deadline = Policy().Deadline())
    {
        m_deadlineEvent = Simulator::Schedule(*deadline, &LearnerApplication::DeadlinePassed, this);
    }
    TryAggregate();
}

void
LearnerApplication::EndSoon()
{
    (m_budget ? m_budget->endRequested : m_endRequested) = true;
}

bool
LearnerApplication::IsLastRound()
{
    if (m_round == GetTotalRounds())
    {
        return true;
    }
    const bool budgetPassed = m_duration.IsStrictlyPositive() && Simulator::Now() >= m_duration;
    const bool endRequested = m_budget ? m_budget->endRequested : m_endRequested;
    if (!budgetPassed && !endRequested)
    {
        return !WithinAvailableRounds();
    }
    // Learners that exchange pairwise drift apart even in synchronous rounds: none waits for
    // a last round the others agree on.
    if (!Policy().WaitsForEveryMessage() || m_algorithm->AnswersMessages() || !m_budget)
    {
        return true;
    }
    if (m_budget->lastRound == 0)
    {
        m_budget->lastRound = m_budget->highestStarted;
        if (m_evalInterval.IsZero())
        {
            // Evaluated by rounds: the last round is an evaluated one (a multiple of EvalEvery),
            // so that a run of this learning that stops earlier or later finds its last
            // evaluation in a recording of it, and a replay is what a full run computes.
            const uint32_t every = std::max<uint32_t>(1, m_evalEvery);
            m_budget->lastRound
                = std::min(GetTotalRounds(), (m_budget->lastRound + every - 1) / every * every);
        }
    }
    return m_round >= m_budget->lastRound || !WithinAvailableRounds();
}

bool
LearnerApplication::WithinAvailableRounds()
{
    if (!m_budget || m_budget->available == 0 || m_round < m_budget->available)
    {
        return true;
    }
    m_budget->ranOut = true;
    Fail("would go on past round " + std::to_string(m_budget->available)
         + ", the last its learning holds (a recording cut short by its own run's budget)");
    return false;
}

bool
LearnerApplication::RanOutOfLearning() const
{
    return m_budget && m_budget->ranOut;
}

const RoundPolicy&
LearnerApplication::Policy() const
{
    // Made on first use, from the attributes as set (a crash at 0 s may come before the start).
    if (!m_policy)
    {
        const RoundModeRegistration* mode = RoundModeRegistry::Find(m_roundMode);
        NS_ABORT_MSG_UNLESS(mode,
                            "LearnerApplication: unknown RoundMode '"
                                << m_roundMode
                                << "' (known: " << JoinNames(RoundModeRegistry::Names()) << ")");
        RoundPolicySettings settings;
        settings.timeout = m_roundTimeout;
        m_policy = mode->create(settings);
    }
    return *m_policy;
}

void
LearnerApplication::DeadlinePassed()
{
    m_deadlinePassed = true;
    TryAggregate();
}

bool
LearnerApplication::RoundReady() const
{
    // An answering algorithm's round waits for the answers to its own payload, not for the
    // neighbours' payloads (those are answered on arrival).
    if (m_algorithm->AnswersMessages())
    {
        const auto it = m_answers.find(m_round);
        return Policy().Ready(
            it == m_answers.end() ? 0 : it->second, m_roundReceivers, m_deadlinePassed);
    }
    return Policy().Ready(
        m_inbox->CountOfRound(m_round), PhaseOf(m_round).in.size(), m_deadlinePassed);
}

void
LearnerApplication::TryAggregate()
{
    if (!m_trained || m_finished || m_failed || !RoundReady())
    {
        return;
    }
    Simulator::Cancel(m_deadlineEvent);
    const std::vector<uint32_t>& in = PhaseOf(m_round).in;
    InboxTake take = m_algorithm->AnswersMessages()    ? TakeAnswers()
                     : Policy().TakesWhateverArrived() ? m_inbox->TakeAll(m_round, in)
                                                       : m_inbox->Take(m_round, in);
    std::vector<ReceivedPayload> received;
    received.reserve(take.messages.size());
    for (const InboxMessage& message : take.messages)
    {
        ReceivedPayload r;
        r.sender = message.sender;
        r.round = message.round;
        r.senderDegree = message.senderDegree;
        r.data = message.payload.data();
        r.size = message.payload.size();
        received.push_back(r);
    }
    // The learner holds the trained model until the aggregation replaces it: a copy of it is
    // needed only now, not for the whole wait for the neighbours' messages.
    {
        CpuSecondsAdded sharing(m_sharingCpuSeconds);
        std::vector<float> next;
        try
        {
            std::vector<float>& trained = SimulatorThreadParameters();
            m_learner->GetParametersInto(trained);
            next = m_algorithm->Aggregate(InfoOf(m_round), trained, received);
        }
        catch (const std::exception& e)
        {
            Fail("cannot decode the payloads of round " + std::to_string(m_round) + ": "
                 + e.what());
            return;
        }
        m_learner->SetParameters(next);
    }
    m_aggregatedModel.clear(); // the learner holds the newest aggregated model itself again
    m_aggregatedSnapshot.reset();
    const bool last = IsLastRound();

    RoundReport report;
    report.learner = m_learnerId;
    report.round = m_round;
    report.time = Simulator::Now();
    report.computeTime = m_roundComputeTime;
    report.trained = m_algorithm->TrainsInRound(m_round);
    report.trainLoss = m_trainLoss;
    report.trainingCpuSeconds = m_trainingCpuSeconds;
    report.sharingCpuSeconds = m_sharingCpuSeconds;
    m_sharingCpuSeconds = 0.0;
    report.valueBytes = m_roundValueBytes;
    report.metadataBytes = m_roundMetadataBytes;
    report.totalValueBytes = m_totalValueBytes;
    report.totalMetadataBytes = m_totalMetadataBytes;
    report.fresh = take.fresh;
    report.stale = take.stale;
    report.dropped = take.dropped;
    report.reused = take.reused;
    report.meanStaleness = take.meanStaleness;
    report.maxStaleness = take.maxStaleness;
    report.supersededSends = m_roundSuperseded;
    report.lostSends = Transport().TakeLostSends();
    report.finished = last;
    m_roundCompletedTrace(report);

    if (m_evalInterval.IsZero() && (m_round % m_evalEvery == 0 || last))
    {
        Evaluate(m_round);
    }
    m_trained = false;
    ++m_round;
    if (last)
    {
        m_finished = true;
        return;
    }
    // A fresh event rather than a direct call keeps the stack flat and lets same-time events run.
    m_trainingEvent = Simulator::ScheduleNow(&LearnerApplication::StartRound, this);
}

void
LearnerApplication::Evaluate(uint32_t round)
{
    if (!m_evaluate || !m_testSet)
    {
        return;
    }
    // Between rounds: no training runs, the learner holds the model to evaluate.
    LearnerEvaluator& evaluator = Evaluator();
    if (evaluator.InBackground())
    {
        if (auto snapshot = m_learner->Snapshot())
        {
            evaluator.Submit(MakeReport(round), std::move(snapshot), EvaluatedSink());
            return;
        }
    }
    evaluator.Report(
        MakeReport(round), m_learner->Evaluate(*m_testSet, m_evalSamples), EvaluatedSink());
}

void
LearnerApplication::EvaluateNow(uint32_t index)
{
    if (!m_evaluate || !m_testSet || m_crashed)
    {
        return;
    }
    // Mid-round the learner holds the parameters being trained: what is evaluated is the model
    // of the last aggregation, as with evaluations by rounds.
    LearnerEvaluator& evaluator = Evaluator();
    if (evaluator.InBackground())
    {
        if (m_training.valid() && m_aggregatedSnapshot)
        {
            // A worker trains the learner now: the copy made before it began.
            evaluator.Submit(MakeReport(index), m_aggregatedSnapshot, EvaluatedSink());
            return;
        }
        JoinTraining(); // a learner is copied only when no worker trains it
        if (auto snapshot
            = m_learner->Snapshot(m_aggregatedModel.empty() ? nullptr : &m_aggregatedModel))
        {
            evaluator.Submit(MakeReport(index), std::move(snapshot), EvaluatedSink());
            return;
        }
    }
    JoinTraining();
    if (m_aggregatedModel.empty())
    {
        evaluator.Report(
            MakeReport(index), m_learner->Evaluate(*m_testSet, m_evalSamples), EvaluatedSink());
        return;
    }
    std::vector<float> trained = m_learner->GetParameters();
    m_learner->SetParameters(m_aggregatedModel);
    EvalResult result = m_learner->Evaluate(*m_testSet, m_evalSamples);
    m_learner->SetParameters(trained);
    evaluator.Report(MakeReport(index), result, EvaluatedSink());
}

LearnerEvaluator&
LearnerApplication::Evaluator()
{
    // Made on first use: the test set, pool and delivery order are all given by then.
    if (!m_evaluator)
    {
        m_evaluator
            = std::make_unique<LearnerEvaluator>(m_testSet, m_evalSamples, m_pool, m_evaluations);
    }
    return *m_evaluator;
}

LearnerEvaluator::Sink
LearnerApplication::EvaluatedSink()
{
    // The application stays alive until its reports are out (they may come after the run).
    Ptr<LearnerApplication> self = this;
    return [self](const EvalReport& report)
    {
        self->m_evaluatedTrace(report);
    };
}

EvalReport
LearnerApplication::MakeReport(uint32_t round) const
{
    EvalReport report;
    report.learner = m_learnerId;
    report.round = round;
    report.completedRounds = GetCompletedRounds();
    report.totalBytes = m_totalValueBytes + m_totalMetadataBytes;
    report.time = Simulator::Now();
    return report;
}

} // namespace ns3
