// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * An error model that loses every packet while a link is out of service.
 */
#ifndef DLSIM_OUTAGE_ERROR_MODEL_H
#define DLSIM_OUTAGE_ERROR_MODEL_H

#include "ns3/error-model.h"
#include "ns3/traced-callback.h"

namespace ns3
{

/**
 * Sits where a device's ReceiveErrorModel goes and corrupts every packet while the link is down,
 * otherwise defers to the model it replaced (a lossy link stays lossy). Outages nest: the link
 * is down while any reason for it (its own failure, a crashed host at either end) holds.
 */
class OutageErrorModel : public ErrorModel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId (no attributes of its own; the trace source Down fires when
     * the link goes out of service, with true, and when it comes back, with false)
     */
    static TypeId GetTypeId();

    /**
     * The signature of the Down trace source.
     * \param down true when the link goes out of service, false when it comes back
     */
    typedef void (*DownTracedCallback)(bool down);

    /// \param inner the model to keep applying while the link is up (may be null)
    void SetInner(Ptr<ErrorModel> inner);
    /// \return the model applied while the link is up (may be null)
    Ptr<ErrorModel> GetInner() const;
    /// One more reason for the link to be down.
    void Down();
    /// One reason fewer; the link is up again when none is left.
    void Up();
    /// \return whether any reason for an outage holds
    bool IsDown() const;

  private:
    bool DoCorrupt(Ptr<Packet> packet) override;
    void DoReset() override;

    Ptr<ErrorModel> m_inner;
    uint32_t m_reasons = 0;
    TracedCallback<bool> m_down; ///< the Down trace source
};

} // namespace ns3

#endif // DLSIM_OUTAGE_ERROR_MODEL_H
