// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "learner-application.h"

#include "linux-tcp-socket.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"
#include "round-schedule.h"

#include <algorithm>
#include <ctime>
#include <limits>
#include <sstream>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DlsimLearnerApplication");

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
                            "If > 0, evaluations follow a clock (whoever runs the simulation "
                            "calls EvaluateNow every interval) instead of EvalEvery rounds.",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&LearnerApplication::m_evalInterval),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("ReconnectInterval",
                            "Deadline and async rounds: how long to wait before connecting again "
                            "to a neighbour whose connection failed (a crashed host, a failed "
                            "link).",
                            TimeValue(Seconds(1)),
                            MakeTimeAccessor(&LearnerApplication::m_reconnectInterval),
                            MakeTimeChecker(MilliSeconds(1)))
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
LearnerApplication::Setup(std::unique_ptr<Learner> learner,
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

Learner&
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
    return m_receivedBytes;
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

void
LearnerApplication::DoDispose()
{
    m_listener = nullptr;
    m_out.clear();
    m_in.clear();
    if (m_training.valid())
    {
        m_training.wait(); // the worker must be done with the learner before it goes
    }
    m_training = std::future<double>();
    m_aggregatedSnapshot.reset();
    m_pendingEvaluations.clear(); // the jobs own what they need
    m_learner.reset();
    m_algorithm.reset();
    Application::DoDispose();
}

Ptr<Socket>
LearnerApplication::CreateTcpSocket()
{
    Ptr<Socket> socket = m_tcpProfile == TCP_LINUX
                             ? Ptr<Socket>(LinuxTcpSocket::Create(GetNode()))
                             : Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    socket->SetAttribute("SegmentSize", UintegerValue(m_segmentSize));
    socket->SetAttribute("SndBufSize", UintegerValue(m_socketBufferSize));
    socket->SetAttribute("RcvBufSize", UintegerValue(m_socketBufferSize));
    socket->SetAttribute("InitialCwnd", UintegerValue(m_initialCwnd));
    socket->SetAttribute("MinRto", TimeValue(m_minRto));
    socket->SetAttribute("DelAckTimeout", TimeValue(m_delAckTimeout));
    return socket;
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

std::unique_ptr<MessageInbox>
LearnerApplication::MakeInbox() const
{
    // Where rounds wait for every message, no neighbour is ever missing: no cache to keep.
    const auto missing = Policy().WaitsForEveryMessage() ? MissingModels::Self
                                                         : static_cast<MissingModels>(m_missing);
    return std::make_unique<MessageInbox>(
        m_algorithm->GetPartialReceipt(), static_cast<LateMessages>(m_late), missing);
}

bool
LearnerApplication::OpenSockets()
{
    // Accepted sockets inherit the listener's TCP attributes.
    m_listener = CreateTcpSocket();
    if (m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0
        || m_listener->Listen() != 0)
    {
        Fail("cannot listen on TCP port " + std::to_string(m_port));
        return false;
    }
    m_listener->SetAcceptCallback(MakeCallback(&LearnerApplication::AcceptRequest, this),
                                  MakeCallback(&LearnerApplication::NewConnection, this));

    // One connection to every node this one sends to in any phase, opened once.
    std::map<uint32_t, Peer> targets;
    for (const auto& phase : m_phases)
    {
        for (const Peer& peer : phase.out)
        {
            targets.emplace(peer.id, peer);
        }
    }
    for (const auto& [id, peer] : targets)
    {
        OutConnection connection;
        connection.peer = peer;
        m_out.push_back(connection);
        Connect(m_out.back());
    }
    return true;
}

void
LearnerApplication::Connect(OutConnection& connection)
{
    connection.socket = CreateTcpSocket();
    connection.socket->Bind();
    connection.socket->SetConnectCallback(
        MakeCallback(&LearnerApplication::ConnectionSucceeded, this),
        MakeCallback(&LearnerApplication::ConnectionFailed, this));
    connection.socket->SetSendCallback(MakeCallback(&LearnerApplication::HandleSendSpace, this));
    if (!Policy().WaitsForEveryMessage())
    {
        // Only the send gate of rounds that do not wait reads what TCP has sent: no call per
        // packet where nothing waits on it.
        connection.socket->SetDataSentCallback(
            MakeCallback(&LearnerApplication::HandleDataSent, this));
    }
    connection.handed = 0;
    connection.sent = 0;
    connection.previousEnd = 0;
    connection.earlierEnd = 0;
    connection.socket->SetCloseCallbacks(
        MakeCallback(&LearnerApplication::HandlePeerClose, this),
        MakeCallback(&LearnerApplication::HandleConnectionError, this));
    connection.socket->Connect(InetSocketAddress(connection.peer.address, m_port));
}

void
LearnerApplication::Silence(Ptr<Socket> socket)
{
    // A socket given up on must not call back into this learner's state.
    socket->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                               MakeNullCallback<void, Ptr<Socket>>());
    socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
    socket->SetDataSentCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
    socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
    socket->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(),
                              MakeNullCallback<void, Ptr<Socket>>());
    socket->Close();
}

void
LearnerApplication::CloseSockets()
{
    for (auto& connection : m_out)
    {
        Simulator::Cancel(connection.reconnect);
        Silence(connection.socket);
    }
    for (auto& [socket, reassembler] : m_in)
    {
        Silence(socket);
    }
    if (m_listener)
    {
        m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeNullCallback<void, Ptr<Socket>, const Address&>());
        m_listener->Close();
    }
    m_out.clear();
    m_in.clear();
    m_listener = nullptr;
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
LearnerApplication::LoseConnection(Ptr<Socket> socket, const std::string& why)
{
    if (Policy().Lockstep())
    {
        Fail(why);
        return;
    }
    NS_LOG_INFO("learner " << m_learnerId << " " << why);
    if (auto in = m_in.find(socket); in != m_in.end())
    {
        // A partly received message on it is lost with it; the sender reconnects.
        Silence(socket);
        m_in.erase(in);
        return;
    }
    OutConnection& connection = FindConnection(socket);
    // What TCP could not deliver is lost: resending might duplicate a message that did arrive.
    m_lostSends += static_cast<uint32_t>(connection.queue.size());
    connection.queue.clear();
    connection.offset = 0;
    connection.connected = false;
    Silence(socket);
    const uint32_t peer = connection.peer.id;
    connection.reconnect
        = Simulator::Schedule(m_reconnectInterval, &LearnerApplication::Reconnect, this, peer);
}

void
LearnerApplication::Reconnect(uint32_t peer)
{
    for (auto& connection : m_out)
    {
        if (connection.peer.id == peer)
        {
            Connect(connection);
            return;
        }
    }
}

LearnerApplication::OutConnection&
LearnerApplication::FindConnection(Ptr<Socket> socket)
{
    for (auto& connection : m_out)
    {
        if (connection.socket == socket)
        {
            return connection;
        }
    }
    NS_FATAL_ERROR("learner " << m_learnerId << ": callback for an unknown socket");
}

void
LearnerApplication::ConnectionSucceeded(Ptr<Socket> socket)
{
    OutConnection& connection = FindConnection(socket);
    NS_LOG_INFO("learner " << m_learnerId << " connected to " << connection.peer.id);
    connection.connected = true;
    PushBytes(connection);
}

void
LearnerApplication::ConnectionFailed(Ptr<Socket> socket)
{
    OutConnection& connection = FindConnection(socket);
    std::ostringstream address;
    address << connection.peer.address;
    LoseConnection(socket,
                   "could not connect to learner " + std::to_string(connection.peer.id) + " at "
                       + address.str() + " (no route, or TCP gave up on the connection request)");
}

bool
LearnerApplication::AcceptRequest(Ptr<Socket> /* socket */, const Address& /* from */)
{
    return true;
}

void
LearnerApplication::NewConnection(Ptr<Socket> socket, const Address& /* from */)
{
    m_in.emplace(socket, MessageReassembler(m_maxPayloadBytes));
    socket->SetRecvCallback(MakeCallback(&LearnerApplication::HandleRead, this));
    socket->SetCloseCallbacks(MakeCallback(&LearnerApplication::HandlePeerClose, this),
                              MakeCallback(&LearnerApplication::HandleConnectionError, this));
}

void
LearnerApplication::HandleSendSpace(Ptr<Socket> socket, uint32_t /* available */)
{
    OutConnection& connection = FindConnection(socket);
    if (connection.connected)
    {
        PushBytes(connection);
    }
}

void
LearnerApplication::HandleDataSent(Ptr<Socket> socket, uint32_t bytes)
{
    OutConnection& connection = FindConnection(socket);
    const bool wasHeld = connection.sent < connection.earlierEnd;
    connection.sent += bytes;
    // Only the gate's opening can release a message here (sends free no buffer space).
    if (connection.connected && wasHeld && connection.sent >= connection.earlierEnd)
    {
        PushBytes(connection);
    }
}

namespace
{

/**
 * Bytes handed to TCP in one packet, and read from it at once, at most. ns-3 keeps freed packet
 * buffers as large as the largest one ever freed for reuse, even by small packets: a packet of a
 * whole model would make every later packet hold that much memory. TCP cuts its segments from
 * the byte stream whatever the packets handed to it, so this changes no result.
 */
constexpr uint32_t kPieceSize = 65536;

/// The framed message cut into packets of at most kPieceSize bytes.
std::shared_ptr<const std::vector<Ptr<Packet>>>
CutIntoPieces(const std::vector<uint8_t>& bytes)
{
    auto pieces = std::make_shared<std::vector<Ptr<Packet>>>();
    pieces->reserve(bytes.size() / kPieceSize + 1);
    for (size_t begin = 0; begin < bytes.size(); begin += kPieceSize)
    {
        const auto size = static_cast<uint32_t>(std::min<size_t>(kPieceSize, bytes.size() - begin));
        pieces->push_back(Create<Packet>(bytes.data() + begin, size));
    }
    return pieces;
}

} // namespace

void
LearnerApplication::PushBytes(OutConnection& connection)
{
    while (connection.connected && !connection.queue.empty())
    {
        const OutConnection::Queued& message = connection.queue.front();
        uint32_t room = connection.socket->GetTxAvailable();
        if (room == 0)
        {
            return; // HandleSendSpace resumes when TCP has freed buffer space
        }
        if (connection.offset == 0 && !Policy().WaitsForEveryMessage()
            && connection.sent < connection.earlierEnd)
        {
            // A message waits in the queue, where a newer one can still replace it, until TCP
            // has sent (HandleDataSent; acknowledged is later) the message before the previous
            // one. Not the previous one: synchronous rounds often hand a message over while the
            // tail of the previous one is still unsent (an uplink slower than the downlink), and
            // holding it back until then makes TCP cut other segments, so a deadline that never
            // fires would change the timing. The one before the previous one is always sent by
            // then where the receiver awaits every message and sends to this learner too: a
            // message of round r + 2 needs the neighbours' of round r + 1, which needed this
            // learner's of round r. A link too slow for the rounds still has at most two
            // messages in TCP not yet all sent; newer models replace the queued ones.
            return;
        }
        const Ptr<Packet>& piece = (*message.pieces)[connection.offset / kPieceSize];
        const auto within = static_cast<uint32_t>(connection.offset % kPieceSize);
        const uint32_t chunk = std::min(room, piece->GetSize() - within);
        // Copies share the piece's bytes: every neighbour's TCP holds the same buffer.
        Ptr<Packet> packet = within == 0 && chunk == piece->GetSize()
                                 ? piece->Copy()
                                 : piece->CreateFragment(within, chunk);
        int sent = connection.socket->Send(packet);
        if (sent <= 0)
        {
            return;
        }
        connection.offset += static_cast<size_t>(sent);
        connection.handed += static_cast<uint64_t>(sent);
        if (connection.offset == message.size)
        {
            connection.queue.pop_front();
            connection.offset = 0;
            connection.earlierEnd = connection.previousEnd;
            connection.previousEnd = connection.handed;
        }
    }
}

void
LearnerApplication::HandleRead(Ptr<Socket> socket)
{
    auto it = m_in.find(socket);
    NS_ABORT_MSG_IF(it == m_in.end(), "data on an unknown socket");
    MessageReassembler& reassembler = it->second;
    Ptr<Packet> packet;
    while ((packet = socket->Recv(kPieceSize, 0)))
    {
        const uint32_t size = packet->GetSize();
        if (size == 0)
        {
            break;
        }
        m_receivedBytes += size;
        // Grown, never shrunk: no fresh zero-filled buffer for every read.
        if (m_readBuffer.size() < size)
        {
            m_readBuffer.resize(size);
        }
        packet->CopyData(m_readBuffer.data(), size);
        try
        {
            reassembler.Feed(m_readBuffer.data(), size);
        }
        catch (const std::exception& e)
        {
            Fail(std::string("received bytes that are not a message: ") + e.what());
            return;
        }
        while (reassembler.HasMessage() && !m_failed)
        {
            DeliverMessage(reassembler.Pop());
        }
    }
}

void
LearnerApplication::DeliverMessage(Message message)
{
    const MessageHeader& h = message.header;
    // Only synchronous rounds guarantee that nothing of a finished round is still on its way.
    if ((Policy().Lockstep() && h.round < m_round) || h.round == 0 || h.round > GetTotalRounds())
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
    m_messageReceivedTrace(report);
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
LearnerApplication::HandlePeerClose(Ptr<Socket> socket)
{
    if (!m_finished || !Policy().Lockstep())
    {
        LoseConnection(socket,
                       "a neighbour closed its connection " + DescribeSocket(socket)
                           + " before the run ended");
    }
}

void
LearnerApplication::HandleConnectionError(Ptr<Socket> socket)
{
    LoseConnection(socket,
                   "lost its connection " + DescribeSocket(socket)
                       + ": TCP gave up (too many retransmissions, or the peer reset it)");
}

std::string
LearnerApplication::DescribeSocket(Ptr<Socket> socket) const
{
    for (const auto& connection : m_out)
    {
        if (connection.socket == socket)
        {
            return "to learner " + std::to_string(connection.peer.id);
        }
    }
    Address peer;
    std::ostringstream text;
    if (socket->GetPeerName(peer) == 0 && InetSocketAddress::IsMatchingType(peer))
    {
        text << "from " << InetSocketAddress::ConvertFrom(peer).GetIpv4();
    }
    else
    {
        text << "from a neighbour";
    }
    return text.str();
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
        // This thread's CPU time: workers evaluating meanwhile must not count.
        auto threadCpuSeconds = []()
        {
            timespec t{};
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
            return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
        };
        const double cpuStart = threadCpuSeconds();
        m_trainLoss = m_learner->Train();
        const double cpuSeconds = threadCpuSeconds() - cpuStart;
        computeTime = Seconds(cpuSeconds * m_measuredComputeScale);
    }
    else if (m_pool)
    {
        Learner* learner = m_learner.get();
        // A timed evaluation while a worker trains needs a copy of the model from before.
        if (m_evaluate && m_testSet && m_evaluations && m_evalInterval.IsStrictlyPositive()
            && EvaluationTickWithin(computeTime))
        {
            m_aggregatedSnapshot = m_learner->Snapshot();
        }
        m_training = m_pool->Submit([learner]() { return learner->Train(); });
    }
    else
    {
        m_trainLoss = m_learner->Train();
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
    // Timed evaluations come at multiples of EvalInterval (ResultsWriter's clock). A tick the
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
    const std::vector<float> trained = m_learner->GetParameters();
    m_roundComputeTime = computeTime;
    const RoundInfo info = InfoOf(m_round);
    EncodedPayload payload = m_algorithm->Encode(info, trained);
    MessageHeader header;
    header.sender = m_learnerId;
    header.round = m_round;
    header.senderDegree = info.outDegree;
    // One set of packets shared by every connection: the bytes are the same for all neighbours.
    const std::vector<uint8_t> framed = FrameMessage(header, payload.bytes);
    auto pieces = CutIntoPieces(framed);
    // A newer model makes an unsent older one worthless: send the newest, not a backlog. Only
    // where no receiver waits for every round's message (it would wait for ever).
    if (!Policy().WaitsForEveryMessage()
        && m_algorithm->GetPartialReceipt() == PartialReceipt::LatestModel)
    {
        m_roundSuperseded = DropUnsentMessages();
    }
    for (const Peer& peer : PhaseOf(m_round).out)
    {
        OutConnection& connection = *std::find_if(
            m_out.begin(), m_out.end(), [&peer](const auto& c) { return c.peer.id == peer.id; });
        connection.queue.push_back({pieces, framed.size(), payload.valueBytes});
        m_roundValueBytes += payload.valueBytes;
        m_roundMetadataBytes += framed.size() - payload.valueBytes;
        MessageReport report;
        report.sender = m_learnerId;
        report.receiver = connection.peer.id;
        report.round = m_round;
        report.valueBytes = payload.valueBytes;
        report.totalBytes = framed.size();
        report.time = Simulator::Now();
        m_messageSentTrace(report);
        PushBytes(connection);
    }
    m_totalValueBytes += m_roundValueBytes;
    m_totalMetadataBytes += m_roundMetadataBytes;
    m_trained = true;
    if (const std::optional<Time> deadline = Policy().Deadline())
    {
        m_deadlineEvent = Simulator::Schedule(*deadline, &LearnerApplication::DeadlinePassed, this);
    }
    TryAggregate();
}

bool
LearnerApplication::IsLastRound()
{
    if (m_round == GetTotalRounds())
    {
        return true;
    }
    if (!m_duration.IsStrictlyPositive() || Simulator::Now() < m_duration)
    {
        return false;
    }
    if (!Policy().WaitsForEveryMessage() || !m_budget)
    {
        return true;
    }
    if (m_budget->lastRound == 0)
    {
        m_budget->lastRound = m_budget->highestStarted;
    }
    return m_round >= m_budget->lastRound;
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

uint32_t
LearnerApplication::DropUnsentMessages()
{
    uint32_t dropped = 0;
    for (auto& connection : m_out)
    {
        // The front message may be partly with TCP already: it must be finished.
        auto firstUnsent = connection.queue.begin();
        if (firstUnsent != connection.queue.end() && connection.offset > 0)
        {
            ++firstUnsent;
        }
        for (auto it = firstUnsent; it != connection.queue.end(); ++it)
        {
            // Never sent: the node's byte counts are what it handed to TCP.
            m_totalValueBytes -= it->valueBytes;
            m_totalMetadataBytes -= it->size - it->valueBytes;
            ++dropped;
        }
        connection.queue.erase(firstUnsent, connection.queue.end());
    }
    return dropped;
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
    InboxTake take = Policy().TakesWhateverArrived() ? m_inbox->TakeAll(m_round, in)
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
    std::vector<float> next;
    try
    {
        next = m_algorithm->Aggregate(InfoOf(m_round), m_learner->GetParameters(), received);
    }
    catch (const std::exception& e)
    {
        Fail("cannot decode the payloads of round " + std::to_string(m_round) + ": " + e.what());
        return;
    }
    m_learner->SetParameters(next);
    m_aggregatedModel.clear(); // the learner holds the newest aggregated model itself again
    m_aggregatedSnapshot.reset();
    const bool last = IsLastRound();

    RoundReport report;
    report.learner = m_learnerId;
    report.round = m_round;
    report.time = Simulator::Now();
    report.computeTime = m_roundComputeTime;
    report.trainLoss = m_trainLoss;
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
    report.lostSends = m_lostSends;
    m_lostSends = 0;
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
    if (m_pool && m_evaluations)
    {
        if (auto snapshot = m_learner->Snapshot())
        {
            SubmitEvaluation(round, std::move(snapshot));
            return;
        }
    }
    Report(m_learner->Evaluate(*m_testSet, m_evalSamples), round);
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
    if (m_pool && m_evaluations)
    {
        if (m_training.valid() && m_aggregatedSnapshot)
        {
            // A worker trains the learner now: the copy made before it began.
            SubmitEvaluation(index, m_aggregatedSnapshot);
            return;
        }
        JoinTraining(); // a learner is copied only when no worker trains it
        if (auto snapshot
            = m_learner->Snapshot(m_aggregatedModel.empty() ? nullptr : &m_aggregatedModel))
        {
            SubmitEvaluation(index, std::move(snapshot));
            return;
        }
    }
    JoinTraining();
    if (m_aggregatedModel.empty())
    {
        Report(m_learner->Evaluate(*m_testSet, m_evalSamples), index);
        return;
    }
    std::vector<float> trained = m_learner->GetParameters();
    m_learner->SetParameters(m_aggregatedModel);
    EvalResult result = m_learner->Evaluate(*m_testSet, m_evalSamples);
    m_learner->SetParameters(trained);
    Report(result, index);
}

void
LearnerApplication::SubmitEvaluation(uint32_t round, std::shared_ptr<const ModelSnapshot> model)
{
    // Evaluations wait while training keeps every worker busy; a backlog of model copies must
    // not grow without bound (think of wait-free rounds), so the simulation waits for this
    // learner's oldest once it has a few outstanding.
    while (!m_pendingEvaluations.empty()
           && (m_pendingEvaluations.size() >= kMaxPendingEvaluations
               || m_pendingEvaluations.front().wait_for(std::chrono::seconds(0))
                      == std::future_status::ready))
    {
        m_pendingEvaluations.front().wait();
        m_pendingEvaluations.pop_front();
    }
    std::shared_ptr<const Dataset> test = m_testSet;
    const size_t samples = m_evalSamples;
    // In the background: the next round's training is on the critical path, an accuracy only
    // for the results. The copy leaves the learner free to train on.
    std::shared_future<EvalResult> result
        = m_pool
              ->SubmitBackground([model, test, samples]()
                                 { return model->Evaluate(*test, samples); })
              .share();
    m_pendingEvaluations.push_back(result);
    Deliver(round, result);
}

void
LearnerApplication::Deliver(uint32_t round, std::shared_future<EvalResult> result)
{
    // What the report says about the learner is taken now, the accuracy when it is known.
    EvalReport report = MakeReport(round);
    if (!m_evaluations)
    {
        const EvalResult& ready = result.get();
        report.accuracy = ready.accuracy;
        report.loss = ready.loss;
        m_evaluatedTrace(report);
        return;
    }
    // Behind the evaluations still on workers, whoever evaluated: the reports keep the order
    // the evaluations were made in, whatever the number of threads.
    Ptr<LearnerApplication> self = this;
    m_evaluations->Add<EvalResult>(result,
                                   [self, report](const EvalResult& result) mutable
                                   {
                                       report.accuracy = result.accuracy;
                                       report.loss = result.loss;
                                       self->m_evaluatedTrace(report);
                                   });
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

void
LearnerApplication::Report(const EvalResult& result, uint32_t round)
{
    std::promise<EvalResult> ready;
    ready.set_value(result);
    Deliver(round, ready.get_future().share());
}

} // namespace ns3
