// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "message-inbox.h"

#include <algorithm>
#include <limits>

namespace ns3
{

MessageInbox::MessageInbox(PartialReceipt receipt, LateMessages late)
    : m_receipt(receipt), m_late(late)
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
MessageInbox::Take(uint32_t round)
{
    return TakeUpTo(round, round);
}

InboxTake
MessageInbox::TakeAll(uint32_t round)
{
    return TakeUpTo(std::numeric_limits<uint32_t>::max(), round);
}

InboxTake
MessageInbox::TakeUpTo(uint32_t last, uint32_t round)
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
            stalenessSum += staleness;
            take.maxStaleness = std::max(take.maxStaleness, staleness);
            take.messages.push_back(std::move(it->second));
        }
        it = m_held.erase(it);
    }
    if (!take.messages.empty())
    {
        take.meanStaleness = stalenessSum / static_cast<double>(take.messages.size());
    }
    return take;
}

} // namespace ns3
