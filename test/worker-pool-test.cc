// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * The worker pool's order of work: training (Submit) goes before evaluations
 * (SubmitBackground) whenever both wait, and results are handed on in the order they were added.
 */
#include "worker-pool.h"

#include <gtest/gtest.h>
#include <mutex>
#include <string>
#include <vector>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{
namespace
{

TEST(WorkerPool, BackgroundJobsWaitWhileOtherJobsAreQueued)
{
    WorkerPool pool(1);
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    std::mutex mutex;
    std::vector<std::string> order;
    auto record = [&](const std::string& name)
    {
        std::lock_guard<std::mutex> lock(mutex);
        order.push_back(name);
        return name;
    };
    // The only worker is held up, so everything below queues before any of it runs.
    auto blocker = pool.Submit([&]() { released.wait(); return record("blocker"); });
    auto evalA = pool.SubmitBackground([&]() { return record("eval a"); });
    auto trainA = pool.Submit([&]() { return record("train a"); });
    auto evalB = pool.SubmitBackground([&]() { return record("eval b"); });
    auto trainB = pool.Submit([&]() { return record("train b"); });
    release.set_value();
    evalB.get();
    EXPECT_EQ(order,
              (std::vector<std::string>{"blocker", "train a", "train b", "eval a", "eval b"}));
}

TEST(WorkerPool, ResultsAreDeliveredInTheOrderTheyWereAdded)
{
    WorkerPool pool(2);
    std::promise<int> slow;
    InOrderDelivery delivery;
    std::vector<int> delivered;
    delivery.Add<int>(slow.get_future().share(), [&](const int& v) { delivered.push_back(v); });
    delivery.Add<int>(pool.Submit([]() { return 2; }).share(),
                      [&](const int& v) { delivered.push_back(v); });
    delivery.DeliverReady();
    EXPECT_TRUE(delivered.empty()) << "the second is ready, the first is not";
    slow.set_value(1);
    delivery.DeliverAll();
    EXPECT_EQ(delivered, (std::vector<int>{1, 2}));
}

} // namespace
} // namespace ns3
