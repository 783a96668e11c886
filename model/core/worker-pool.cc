// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "worker-pool.h"

#include "learner.h"

#include <algorithm>
#include <cerrno>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace dlsim
{

WorkerPool::WorkerPool(uint32_t threads)
{
    for (uint32_t i = 0; i < std::max<uint32_t>(threads, 1); ++i)
    {
        m_threads.emplace_back(&WorkerPool::Work, this);
    }
}

WorkerPool::~WorkerPool()
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    for (auto& thread : m_threads)
    {
        thread.join();
    }
}

uint32_t
WorkerPool::GetThreads() const
{
    return static_cast<uint32_t>(m_threads.size());
}

uint32_t
WorkerPool::DefaultThreads()
{
    return std::max(1u, std::thread::hardware_concurrency());
}

void
WorkerPool::Enqueue(std::function<void()> job, Jobs& queue)
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        queue.push_back(std::move(job));
    }
    m_wake.notify_one();
}

void
WorkerPool::Work()
{
    // torch's intra-op thread count is per thread: without this a worker would use every core,
    // and the workers would compete with each other and with the simulator.
    UseSingleThreadedTorch();
    // The simulator's thread is the critical path: workers yield the core to it whenever both
    // want one (on Linux a thread's nice value is its own). Timing only, never results.
    const auto self = static_cast<id_t>(syscall(SYS_gettid));
    errno = 0;
    const int nice = getpriority(PRIO_PROCESS, self);
    if (errno == 0)
    {
        setpriority(PRIO_PROCESS, self, std::min(nice + 10, 19));
    }
    for (;;)
    {
        std::function<void()> job;
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            m_wake.wait(lock,
                        [this]()
                        { return m_stopping || !m_jobs.empty() || !m_background.empty(); });
            Jobs& queue = m_jobs.empty() ? m_background : m_jobs;
            if (queue.empty())
            {
                return; // stopping, and nothing left to run
            }
            job = std::move(queue.front());
            queue.pop_front();
        }
        job();
    }
}

void
InOrderDelivery::AddEntry(std::function<bool()> ready, std::function<void()> deliver)
{
    m_entries.push_back({std::move(ready), std::move(deliver)});
    DeliverReady();
}

void
InOrderDelivery::DeliverReady()
{
    while (!m_entries.empty() && m_entries.front().ready())
    {
        Entry entry = std::move(m_entries.front());
        m_entries.pop_front();
        entry.deliver();
    }
}

void
InOrderDelivery::DeliverAll()
{
    while (!m_entries.empty())
    {
        // Popped first: a delivery may add entries (and deliver them) itself.
        Entry entry = std::move(m_entries.front());
        m_entries.pop_front();
        entry.deliver();
    }
}

} // namespace dlsim
