// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "outage-error-model.h"

#include "ns3/abort.h"
#include "ns3/packet.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(OutageErrorModel);

TypeId
OutageErrorModel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::OutageErrorModel")
                            .SetParent<ErrorModel>()
                            .SetGroupName("Dlsim")
                            .AddConstructor<OutageErrorModel>();
    return tid;
}

void
OutageErrorModel::SetInner(Ptr<ErrorModel> inner)
{
    m_inner = inner;
}

void
OutageErrorModel::Down()
{
    ++m_reasons;
}

void
OutageErrorModel::Up()
{
    NS_ABORT_MSG_IF(m_reasons == 0, "OutageErrorModel: Up() without Down()");
    --m_reasons;
}

bool
OutageErrorModel::IsDown() const
{
    return m_reasons > 0;
}

bool
OutageErrorModel::DoCorrupt(Ptr<Packet> packet)
{
    if (m_reasons > 0)
    {
        return true;
    }
    return m_inner && m_inner->IsCorrupt(packet);
}

void
OutageErrorModel::DoReset()
{
    if (m_inner)
    {
        m_inner->Reset();
    }
}

} // namespace ns3
