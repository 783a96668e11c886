// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "message-inbox.h"

#include <algorithm>
#include <limits>

namespace dlsim
{

MessageInbox::MessageInbox(PartialReceipt receipt, LateMessages late, MissingModels missing)
    : m_receipt(receipt), m_late(late),
      m_missing(receipt == PartialReceipt::LatestModel ? missing : MissingModels::Self)
{
}

MessageInbox::Added
MessageInbox::Add(InboxMessage message, uint32_t current)
{
    // Increments cannot be dropped without losing mass, whatever the scenario asks for.
    if (message.round < current && m_late == LateMessages::Drop
        && m_receipt == PartialReceipt::LatestModel)
    {
        ++m_droppedSinceTake;
        return Added::Dropped;
    }
    auto key = std::make_pair(message.sender, message.round);
    if (!m_held.emplace(key, std::move(message)).second)
    {
        return Added::Duplicate;
    }
    return Added::Kept;
}

size_t
MessageInbox::CountOfRound(uint32_t round) const
{
    size_t count = 0;
    for (const auto& [key, message] : m_held)
    {
        count += key.second == round ? 1 : 0;
    }
    return count;
}

size_t
MessageInbox::Size() const
{
    return m_held.size();
}

InboxTake
MessageInbox::Take(uint32_t round, const std::vector<uint32_t>& inNeighbours)
{
    return TakeUpTo(round, round, inNeighbours);
}

InboxTake
MessageInbox::TakeAll(uint32_t round, const std::vector<uint32_t>& inNeighbours)
{
    return TakeUpTo(std::numeric_limits<uint32_t>::max(), round, inNeighbours);
}

InboxTake
MessageInbox::TakeUpTo(uint32_t last, uint32_t round, const std::vector<uint32_t>& inNeighbours)
{
    InboxTake take;
    take.dropped = m_droppedSinceTake;
    m_droppedSinceTake = 0;
    double stalenessSum = 0.0;
    for (auto it = m_held.begin(); it != m_held.end();)
    {
        const uint32_t sender = it->first.first;
        const uint32_t messageRound = it->first.second;
        if (messageRound > last)
        {
            ++it;
            continue;
        }
        // The map is sorted by (sender, round): a newer message of this sender follows directly.
        auto next = std::next(it);
        const bool superseded = m_receipt == PartialReceipt::LatestModel && next != m_held.end()
                                && next->first.first == sender && next->first.second <= last;
        if (superseded)
        {
            ++take.dropped;
        }
        else
        {
            const uint32_t staleness = messageRound < round ? round - messageRound : 0;
            (staleness == 0 ? take.fresh : take.stale) += 1;
            take.maxStaleness = std::max(take.maxStaleness, staleness);
            take.messages.push_back(std::move(it->second));
        }
        it = m_held.erase(it);
    }
    if (m_missing == MissingModels::Cache)
    {
        UseCache(take, round, inNeighbours);
    }
    for (const InboxMessage& message : take.messages)
    {
        stalenessSum += message.round < round ? round - message.round : 0;
    }
    if (!take.messages.empty())
    {
        take.meanStaleness = stalenessSum / static_cast<double>(take.messages.size());
    }
    return take;
}

void
MessageInbox::UseCache(InboxTake& take, uint32_t round, const std::vector<uint32_t>& inNeighbours)
{
    // take.messages holds at most one message per sender, sorted by sender.
    std::vector<InboxMessage> merged;
    merged.reserve(std::max(take.messages.size(), inNeighbours.size()));
    auto next = take.messages.begin();
    for (uint32_t sender : inNeighbours)
    {
        for (; next != take.messages.end() && next->sender < sender; ++next)
        {
            merged.push_back(std::move(*next));
        }
        if (next != take.messages.end() && next->sender == sender)
        {
            continue;
        }
        auto cached = m_cache.find(sender);
        if (cached != m_cache.end())
        {
            // Used again: stale even when the sender was not behind (wait-free rounds).
            ++take.stale;
            ++take.reused;
            const uint32_t messageRound = cached->second.round;
            take.maxStaleness
                = std::max(take.maxStaleness, messageRound < round ? round - messageRound : 0);
            merged.push_back(cached->second);
        }
    }
    for (; next != take.messages.end(); ++next)
    {
        merged.push_back(std::move(*next));
    }
    take.messages = std::move(merged);
    for (const InboxMessage& message : take.messages)
    {
        m_cache[message.sender] = message;
    }
}

} // namespace dlsim
