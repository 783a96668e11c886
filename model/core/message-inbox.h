// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The messages a node holds between aggregations, and which of them the next aggregation uses
 * when rounds do not wait for every neighbour.
 */
#ifndef DLSIM_MESSAGE_INBOX_H
#define DLSIM_MESSAGE_INBOX_H

#include "message-framing.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace dlsim
{

/**
 * What a message means to an algorithm, which decides what it can do with a round in which not
 * every neighbour's message arrived.
 */
enum class PartialReceipt
{
    /// A message is (part of) the sender's model: only the newest one of a sender is worth
    /// anything, an older one is superseded, and a missing one's weight stays with the node.
    LatestModel,
    /// A message is an increment (push-sum mass, a CHOCO-SGD difference): each one must be
    /// applied exactly once, in the order sent, or mass or the public copies are lost. Such
    /// messages are never dropped: a late one is applied in the next aggregation.
    EveryMessage,
};

/**
 * What an aggregation of a LatestModel algorithm does about an in-neighbour none of whose
 * messages arrived since the previous aggregation.
 */
enum class MissingModels
{
    Self,  ///< its Metropolis-Hastings weight stays with the node
    Cache, ///< the latest message taken from it is used again, however old (SWIFT)
};

/// What a node does with a message of a round it already aggregated.
enum class LateMessages
{
    Drop,  ///< discard it (counted)
    Stale, ///< use it in the next aggregation
};

/// A received message, still encoded.
struct InboxMessage
{
    uint32_t sender = 0;          ///< the sending learner
    uint32_t round = 0;           ///< the sender's round
    uint32_t senderDegree = 0;    ///< the sender's out-degree in that round
    PayloadBytes payload;         ///< the encoded payload
};

/// The messages one aggregation uses, and what happened to the others since the previous one.
struct InboxTake
{
    std::vector<InboxMessage> messages; ///< sorted by sender, then by round
    uint32_t fresh = 0;                 ///< messages of the aggregated round itself
    uint32_t stale = 0;                 ///< messages of earlier rounds, reused ones included
    uint32_t reused = 0;                ///< cached messages used again (MissingModels::Cache)
    uint32_t dropped = 0;               ///< late or superseded messages discarded
    double meanStaleness = 0.0;         ///< rounds behind the aggregated round, over messages
    uint32_t maxStaleness = 0;          ///< the most rounds behind, over messages
};

/**
 * Holds received messages until an aggregation takes them. Pure bookkeeping: it knows rounds,
 * not time, so the same rules apply in the simulator and in tests.
 */
class MessageInbox
{
  public:
    /**
     * \param receipt what a message is to the algorithm
     * \param late what a message of an aggregated round becomes
     * \param missing what stands in for a sender with no message (LatestModel only:
     *        increments are never used twice)
     */
    MessageInbox(PartialReceipt receipt,
                 LateMessages late,
                 MissingModels missing = MissingModels::Self);

    /// What Add did with a message.
    enum class Added
    {
        Kept,      ///< held for an aggregation
        Dropped,   ///< late, and late messages are dropped
        Duplicate, ///< a second message of the same sender and round: the sender is broken
    };

    /**
     * \brief A message arrived.
     * \param message the message
     * \param current the round the node works on (rounds before it are aggregated)
     * \return what became of it
     */
    Added Add(InboxMessage message, uint32_t current);

    /**
     * \param round a round
     * \return messages held for that round itself
     */
    size_t CountOfRound(uint32_t round) const;

    /**
     * The messages for aggregating round `round`: everything held up to that round (newer
     * rounds stay). Under LatestModel only the newest message of each sender is used; with
     * MissingModels::Cache, every sender of `inNeighbours` (the round's, sorted) that has none
     * contributes the latest message taken from it before, if any (counted stale and reused).
     * \param round the round aggregated
     * \param inNeighbours the round's in-neighbours, sorted (for MissingModels::Cache)
     * \return the messages and the counts
     */
    InboxTake Take(uint32_t round, const std::vector<uint32_t>& inNeighbours = {});

    /**
     * \brief Everything held, whatever its round (wait-free rounds).
     * \param round the round aggregated; staleness counts against it
     * \param inNeighbours the round's in-neighbours, sorted (for MissingModels::Cache)
     * \return the messages and the counts
     */
    InboxTake TakeAll(uint32_t round, const std::vector<uint32_t>& inNeighbours = {});

    /// \return messages held, of any round
    size_t Size() const;

  private:
    InboxTake TakeUpTo(uint32_t last, uint32_t round, const std::vector<uint32_t>& inNeighbours);
    /// Cache what `take` uses, and fill in the cached messages of the in-neighbours it lacks.
    void UseCache(InboxTake& take, uint32_t round, const std::vector<uint32_t>& inNeighbours);

    PartialReceipt m_receipt;
    LateMessages m_late;
    MissingModels m_missing;
    std::map<uint32_t, InboxMessage> m_cache; ///< the latest message taken, by sender
    uint32_t m_droppedSinceTake = 0;
    std::map<std::pair<uint32_t, uint32_t>, InboxMessage> m_held; ///< by (sender, round)
};

} // namespace dlsim

#endif // DLSIM_MESSAGE_INBOX_H
