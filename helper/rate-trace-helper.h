// SPDX-License-Identifier: GPL-2.0-only
/*
 * dlsim: an ns-3 module for decentralized learning.
 *
 * Drives the data rate of point-to-point devices from a RateTrace during a simulation.
 */
#ifndef DLSIM_RATE_TRACE_HELPER_H
#define DLSIM_RATE_TRACE_HELPER_H

#include "network-model.h"
#include "ns3/net-device-container.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/ptr.h"
#include "rate-trace.h"

namespace ns3
{

/**
 * Makes the DataRate attribute of point-to-point devices follow a RateTrace. Usage:
 * \code
 *   NetDeviceContainer devices = p2p.Install(a, b);
 *   RateTraceHelper().Install(devices, RateTrace::ReadCsv("scenarios/traces/uplink-steps.csv"));
 *   Simulator::Stop(Seconds(100)); // the trace loops forever: always stop the simulation
 *   Simulator::Run();
 * \endcode
 * The trace's time 0 is the simulated time of the Install call (normally 0, before
 * Simulator::Run). Install sets the rate of that moment at once, then schedules a change at each
 * step boundary, one period at a time: an event at the end of each period schedules the next
 * one, so the number of pending events stays at the number of steps however long the simulation
 * runs. A trace of a single step sets the rate once and schedules nothing.
 *
 * Only the rate changes; the channel delay and the queue stay as they were. Each device is one
 * direction of a link: install on both devices for a symmetric link, on one for an asymmetric
 * one. A packet whose transmission has started keeps the rate it started with, since ns-3's
 * point-to-point device computes a packet's transmission time once, when the transmission
 * starts; the new rate applies from the next packet on. A change is therefore late by at most
 * one packet's transmission time.
 */
class RateTraceHelper
{
  public:
    /**
     * \brief The network model that carries the simulation's messages over these devices: it
     * is told of every step (one that moves no packets through the devices, flows, reads their
     * rates only when told). Unset: the devices alone follow the trace.
     * \param model the simulation's network model
     */
    void SetNetworkModel(Ptr<NetworkModel> model);

    /**
     * \brief Make the device follow the trace.
     * \param device the transmitting device of one link direction
     * \param trace the rates
     * \throws ConfigValueError for a null device
     */
    void Install(Ptr<PointToPointNetDevice> device, const RateTrace& trace) const;
    /**
     * \brief Make every device of the container follow the same trace (each on its own
     * schedule).
     * \param devices point-to-point devices
     * \param trace the rates
     * \throws ConfigValueError when a device is not a PointToPointNetDevice
     */
    void Install(const NetDeviceContainer& devices, const RateTrace& trace) const;

  private:
    Ptr<NetworkModel> m_network; ///< SetNetworkModel's, told of every step
};

} // namespace ns3

#endif // DLSIM_RATE_TRACE_HELPER_H
