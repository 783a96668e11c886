// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "round-policy.h"

using namespace dlsim; // the learning core (model/core)

namespace ns3
{

// Each in its own file under model/round-modes/.
RoundModeRegistration SyncRounds();
RoundModeRegistration DeadlineRounds();
RoundModeRegistration AsyncRounds();

std::vector<RoundModeRegistration>
RoundModeRegistration::Builtins()
{
    return {SyncRounds(), DeadlineRounds(), AsyncRounds()};
}

const std::vector<AlgorithmKey>&
MissingMessageKeys()
{
    static const std::vector<AlgorithmKey> keys = {
        AlgorithmKey::Text(
            "rounds.missing",
            "self",
            "deadline and async rounds of D-PSGD, random sampling, top-k and JWINS: an "
            "in-neighbour with no new message keeps its weight on the node (self), or stands in "
            "with the latest message taken from it, however old (cache, as SWIFT); sync rounds "
            "and the other algorithms ignore it")
            .Sets({"ns3::LearnerApplication::MissingModels"}),
    };
    return keys;
}

} // namespace ns3
