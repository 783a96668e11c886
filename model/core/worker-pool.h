// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * A fixed set of worker threads that run learners' training and evaluation while the simulator
 * goes on with network events.
 */
#ifndef DLSIM_WORKER_POOL_H
#define DLSIM_WORKER_POOL_H

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

namespace dlsim
{

/**
 * Runs submitted jobs on `threads` worker threads, first come first served; background jobs
 * only when no other job waits. Every worker makes
 * its torch calls single-threaded, so a job computes the same bits whichever worker runs it;
 * results do not depend on the number of workers as long as a job only touches state that no
 * other job touches while it runs (one learner's model, optimiser and sampling generator).
 */
class WorkerPool
{
  public:
    /// \param threads worker threads to start (at least 1)
    explicit WorkerPool(uint32_t threads);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    /**
     * \brief Queue a job.
     * \tparam F a callable without arguments
     * \param job the job
     * \return a future that holds what the job returns or throws
     */
    template<typename F>
    auto Submit(F job) -> std::future<decltype(job())>
    {
        return Queue(std::move(job), m_jobs);
    }

    /**
     * Queue `job` behind every job Submit queued, now or later: what nothing waits for soon
     * (evaluations) fills the cores that jobs on the critical path (training) leave idle.
     * \tparam F a callable without arguments
     * \param job the job
     * \return a future that holds what the job returns or throws
     */
    template<typename F>
    auto SubmitBackground(F job) -> std::future<decltype(job())>
    {
        return Queue(std::move(job), m_background);
    }

    /// \return the number of worker threads
    uint32_t GetThreads() const;

    /// \return all cores of this machine (at least 1)
    static uint32_t DefaultThreads();

  private:
    using Jobs = std::deque<std::function<void()>>;

    template<typename F>
    auto Queue(F job, Jobs& queue) -> std::future<decltype(job())>
    {
        using Result = decltype(job());
        auto task = std::make_shared<std::packaged_task<Result()>>(std::move(job));
        std::future<Result> result = task->get_future();
        Enqueue([task]() { (*task)(); }, queue);
        return result;
    }

    void Enqueue(std::function<void()> job, Jobs& queue);
    void Work();

    std::vector<std::thread> m_threads;
    Jobs m_jobs;
    Jobs m_background;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stopping = false;
};

/**
 * Hands on the results of jobs in the order they were added, whatever order the workers finish
 * them in: what a result is delivered to (a trace, a results file) then sees the same sequence
 * as when every job ran at once in the caller's thread.
 */
class InOrderDelivery
{
  public:
    /**
     * \brief Deliver a result once it is ready and everything added before is delivered.
     * \tparam T the result's type
     * \param result the job's result
     * \param deliver what it is delivered to
     */
    template<typename T>
    void Add(std::shared_future<T> result, std::function<void(const T&)> deliver)
    {
        AddEntry([result]()
                 { return result.wait_for(std::chrono::seconds(0)) == std::future_status::ready; },
                 [result, deliver]() { deliver(result.get()); });
    }

    /// Deliver what is ready, in order, without waiting.
    void DeliverReady();
    /// Wait for everything added and deliver it all, in order.
    void DeliverAll();

  private:
    struct Entry
    {
        std::function<bool()> ready;
        std::function<void()> deliver; ///< waits for the result if need be
    };

    void AddEntry(std::function<bool()> ready, std::function<void()> deliver);

    std::deque<Entry> m_entries;
};

} // namespace dlsim

#endif // DLSIM_WORKER_POOL_H
