// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * A binary min-heap of small integer ids that knows where each id is, so that an id whose key
 * changed moves in place: the flow model keeps its links (progressive filling) and its
 * connections' next events (OnEvent) in these.
 */
#ifndef DLSIM_INDEXED_MIN_HEAP_H
#define DLSIM_INDEXED_MIN_HEAP_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \brief A min-heap of ids below a bound, each at most once, with the place of every id.
 *
 * The keys live with the caller: every call that moves ids takes `before(a, b)`, true when id
 * `a` comes out before id `b` (a strict weak order, ties broken by the caller). Storage is kept
 * across Clear, so a heap refilled at every event allocates nothing once it has grown.
 */
class IndexedMinHeap
{
  public:
    /// \param ids the ids from now on lie in [0, ids)
    void Reserve(size_t ids)
    {
        if (m_at.size() < ids)
        {
            m_at.resize(ids, kAbsent);
        }
    }

    /// Take every id out.
    void Clear()
    {
        for (uint32_t id : m_heap)
        {
            m_at[id] = kAbsent;
        }
        m_heap.clear();
    }

    /// \return whether no id is in
    bool Empty() const
    {
        return m_heap.empty();
    }

    /// \return the id that comes out first (the heap is not empty)
    uint32_t Top() const
    {
        return m_heap.front();
    }

    /// \param id an id below the Reserve bound \return whether it is in
    bool Contains(uint32_t id) const
    {
        return id < m_at.size() && m_at[id] != kAbsent;
    }

    /**
     * \brief Put in an id that is not in.
     * \tparam Before a callable (uint32_t, uint32_t) -> bool
     * \param id the id (below the Reserve bound)
     * \param before the order
     */
    template<typename Before>
    void Push(uint32_t id, Before before)
    {
        m_heap.push_back(id);
        m_at[id] = static_cast<uint32_t>(m_heap.size() - 1);
        SiftUp(m_heap.size() - 1, before);
    }

    /**
     * \brief An id that is in has a new key: it moves to its place.
     * \tparam Before a callable (uint32_t, uint32_t) -> bool
     * \param id the id
     * \param before the order
     */
    template<typename Before>
    void Update(uint32_t id, Before before)
    {
        SiftUp(m_at[id], before);
        SiftDown(m_at[id], before);
    }

    /**
     * \brief Take out an id that is in.
     * \tparam Before a callable (uint32_t, uint32_t) -> bool
     * \param id the id
     * \param before the order
     */
    template<typename Before>
    void Erase(uint32_t id, Before before)
    {
        const size_t i = m_at[id];
        m_at[id] = kAbsent;
        const uint32_t last = m_heap.back();
        m_heap.pop_back();
        if (last != id)
        {
            Place(i, last);
            SiftUp(i, before);
            SiftDown(m_at[last], before);
        }
    }

  private:
    static constexpr uint32_t kAbsent = UINT32_MAX; ///< the place of an id that is not in

    void Place(size_t i, uint32_t id)
    {
        m_heap[i] = id;
        m_at[id] = static_cast<uint32_t>(i);
    }

    template<typename Before>
    void SiftUp(size_t i, Before& before)
    {
        const uint32_t id = m_heap[i];
        while (i > 0 && before(id, m_heap[(i - 1) / 2]))
        {
            Place(i, m_heap[(i - 1) / 2]);
            i = (i - 1) / 2;
        }
        Place(i, id);
    }

    template<typename Before>
    void SiftDown(size_t i, Before& before)
    {
        const uint32_t id = m_heap[i];
        while (true)
        {
            size_t child = 2 * i + 1;
            if (child >= m_heap.size())
            {
                break;
            }
            if (child + 1 < m_heap.size() && before(m_heap[child + 1], m_heap[child]))
            {
                ++child;
            }
            if (!before(m_heap[child], id))
            {
                break;
            }
            Place(i, m_heap[child]);
            i = child;
        }
        Place(i, id);
    }

    std::vector<uint32_t> m_heap; ///< the ids, a binary min-heap
    std::vector<uint32_t> m_at;   ///< by id: its place in m_heap, or kAbsent
};

} // namespace ns3

#endif // DLSIM_INDEXED_MIN_HEAP_H
