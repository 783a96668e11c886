// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: tests of the sharing algorithms on their own, without a network.
 */
#include "dpsgd-sharing.h"
#include "mixing-weights.h"

#include <gtest/gtest.h>

using namespace dlsim; // the learning core (model/core)

namespace ns3
{
namespace
{

TEST(DpsgdSharing, SendsEveryValueAndAveragesWithMetropolisHastingsWeights)
{
    auto algorithm = CreateSharingAlgorithm(SharingConfig{"dpsgd"});
    std::vector<float> own = {1.0f, 2.0f, 3.0f};
    algorithm->Initialize(own, SharingContext{});
    RoundInfo round{1, 2, 2};
    EncodedPayload sent = algorithm->Encode(round, own);
    EXPECT_EQ(sent.bytes.size(), 5u + 4 * 3);
    EXPECT_EQ(sent.valueBytes, 12u);

    Payload p1{PayloadForm::Full, 3, {}, {4.0f, 5.0f, 6.0f}};
    Payload p2{PayloadForm::Full, 3, {}, {7.0f, 8.0f, 9.0f}};
    EncodedPayload e1 = EncodePayload(p1);
    EncodedPayload e2 = EncodePayload(p2);
    // Neighbour 1 has degree 2, neighbour 2 degree 4: w = 1/3 and 1/5, self 1 - 8/15.
    std::vector<ReceivedPayload> received
        = {{1, 2, e1.bytes.data(), e1.bytes.size()}, {2, 4, e2.bytes.data(), e2.bytes.size()}};
    std::vector<float> next = algorithm->Aggregate(round, own, received);
    for (size_t k = 0; k < 3; ++k)
    {
        double expected = (7.0 / 15) * own[k] + (1.0 / 3) * p1.values[k] + (1.0 / 5) * p2.values[k];
        EXPECT_NEAR(next[k], expected, 1e-6);
    }
}

TEST(DpsgdSharing, RejectsPayloadsThatDoNotFitTheModel)
{
    auto algorithm = CreateSharingAlgorithm(SharingConfig{"dpsgd"});
    std::vector<float> own(4, 0.0f);
    algorithm->Initialize(own, SharingContext{});
    RoundInfo round{1, 1, 1};
    EncodedPayload wrongLength = EncodePayload(Payload{PayloadForm::Full, 3, {}, {1, 2, 3}});
    std::vector<ReceivedPayload> r = {{1, 1, wrongLength.bytes.data(), wrongLength.bytes.size()}};
    EXPECT_THROW(algorithm->Aggregate(round, own, r), PayloadError);
    EncodedPayload good = EncodePayload(Payload{PayloadForm::Full, 4, {}, {1, 2, 3, 4}});
    r = {{1, 1, good.bytes.data(), good.bytes.size() - 1}};
    EXPECT_THROW(algorithm->Aggregate(round, own, r), PayloadError);
}

TEST(ReceivedPayloads, ReadInPlaceAndCopiedTheyAreTheSameAndRejectTheSame)
{
    // ReadReceived leaves the values in the message (what dlsim's algorithms use); DecodeReceived
    // copies them too (what a custom algorithm reading payload.values gets). Same values, same
    // positions, the same error for a payload of the wrong shape.
    Payload sent{PayloadForm::Sparse, 10, {1, 4, 9}, {0.5f, -2.0f, 3.25f}};
    const EncodedPayload bytes = EncodePayload(sent);
    const ReceivedPayload message{7, 2, bytes.bytes.data(), bytes.bytes.size()};
    const PayloadShape shape{"a test", {PayloadForm::Sparse}, 10, 0};
    const ReceivedValues read = ReadReceived(message, shape);
    const ReceivedValues copied = DecodeReceived(message, shape);
    EXPECT_TRUE(read.payload.values.empty());
    EXPECT_EQ(copied.payload.values, sent.values);
    ASSERT_EQ(read.values.size(), 3u);
    for (size_t n = 0; n < 3; ++n)
    {
        EXPECT_EQ(read.values[n], sent.values[n]);
        EXPECT_EQ(copied.values[n], sent.values[n]);
        EXPECT_EQ(read.Position(n), sent.indices[n]);
    }
    const PayloadShape full{"a test", {PayloadForm::Full}, 10, 0};
    std::string readError;
    std::string copyError;
    try
    {
        ReadReceived(message, full);
    }
    catch (const PayloadError& e)
    {
        readError = e.what();
    }
    try
    {
        DecodeReceived(message, full);
    }
    catch (const PayloadError& e)
    {
        copyError = e.what();
    }
    EXPECT_NE(readError.find("from node 7"), std::string::npos) << readError;
    EXPECT_EQ(readError, copyError);
}

TEST(SharingFactory, UnknownAlgorithmIsRejected)
{
    EXPECT_THROW(CreateSharingAlgorithm(SharingConfig{"gossip-magic"}), std::invalid_argument);
}

TEST(MixingWeights, MatchTheSpec)
{
    EXPECT_DOUBLE_EQ(MetropolisHastingsWeight(4, 4), 0.2);
    EXPECT_DOUBLE_EQ(MetropolisHastingsWeight(2, 5), 1.0 / 6);
    EXPECT_DOUBLE_EQ(PushSumWeight(1), 0.5);
}

} // namespace
} // namespace ns3
