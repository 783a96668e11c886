// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 */
#include "outage-error-model.h"

#include "ns3/abort.h"
#include "ns3/packet.h"
#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(OutageErrorModel);

TypeId
OutageErrorModel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::OutageErrorModel")
                            .SetParent<ErrorModel>()
                            .SetGroupName("Dlsim")
                            .AddConstructor<OutageErrorModel>()
                            .AddTraceSource("Down",
                                            "The link went out of service (true) or came back "
                                            "(false)",
                                            MakeTraceSourceAccessor(&OutageErrorModel::m_down),
                                            "ns3::OutageErrorModel::DownTracedCallback");
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
    if (m_reasons++ == 0)
    {
        m_down(true);
    }
}

void
OutageErrorModel::Up()
{
    NS_ABORT_MSG_IF(m_reasons == 0, "OutageErrorModel: Up() without Down()");
    if (--m_reasons == 0)
    {
        m_down(false);
    }
}

Ptr<ErrorModel>
OutageErrorModel::GetInner() const
{
    return m_inner;
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
