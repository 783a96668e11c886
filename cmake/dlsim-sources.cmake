# SPDX-License-Identifier: GPL-2.0-only
# dlsim's sources, listed once for both builds: the standalone one (CMakeLists.txt, against
# Debian's ns-3) and the one inside an ns-3 source tree (cmake/ns3-contrib.cmake). Paths are
# absolute, from this checkout, whichever tree includes the file.
get_filename_component(DLSIM_SOURCE_DIR ${CMAKE_CURRENT_LIST_DIR} DIRECTORY)

# The sharing algorithms, their registry and what they need (no torch, no ns-3). The scenario
# keys include the algorithms' keys, so the parser tests under AddressSanitizer build these too:
# an algorithm shipped with dlsim is added here, once.
set(DLSIM_SHARING_SOURCES
  ${DLSIM_SOURCE_DIR}/model/core/adpsgd-sharing.cc
  ${DLSIM_SOURCE_DIR}/model/core/algorithm-registry.cc
  ${DLSIM_SOURCE_DIR}/model/core/bit-stream.cc
  ${DLSIM_SOURCE_DIR}/model/core/choco-sharing.cc
  ${DLSIM_SOURCE_DIR}/model/core/choco-tuning.cc
  ${DLSIM_SOURCE_DIR}/model/core/dpsgd-sharing.cc
  ${DLSIM_SOURCE_DIR}/model/core/model-transform.cc
  ${DLSIM_SOURCE_DIR}/model/core/partial-model-sharing.cc
  ${DLSIM_SOURCE_DIR}/model/core/payload-codec.cc
  ${DLSIM_SOURCE_DIR}/model/core/registry.cc
  ${DLSIM_SOURCE_DIR}/model/core/sharing-algorithm.cc
  ${DLSIM_SOURCE_DIR}/model/core/sparse-push-sharing.cc
  ${DLSIM_SOURCE_DIR}/model/core/sparse-selection.cc
  ${DLSIM_SOURCE_DIR}/model/core/value-text.cc
  ${DLSIM_SOURCE_DIR}/model/core/wavelet-transform.cc
)

# The learning core: datasets, partitions, models, training, transforms, sharing algorithms and
# the payload codec. No ns-3 here, so it can be used and tested on its own.
set(DLSIM_CORE_SOURCES
  ${DLSIM_SHARING_SOURCES}
  ${DLSIM_SOURCE_DIR}/model/core/csv-rows.cc
  ${DLSIM_SOURCE_DIR}/model/core/user-file.cc
  ${DLSIM_SOURCE_DIR}/model/core/dataset.cc
  ${DLSIM_SOURCE_DIR}/model/core/dataset-catalog.cc
  ${DLSIM_SOURCE_DIR}/model/core/idx-reader.cc
  ${DLSIM_SOURCE_DIR}/model/core/in-memory-network.cc
  ${DLSIM_SOURCE_DIR}/model/core/learner.cc
  ${DLSIM_SOURCE_DIR}/model/core/learning-record.cc
  ${DLSIM_SOURCE_DIR}/model/core/max-pool-2x2.cc
  ${DLSIM_SOURCE_DIR}/model/core/message-framing.cc
  ${DLSIM_SOURCE_DIR}/model/core/message-inbox.cc
  ${DLSIM_SOURCE_DIR}/model/core/nn-models.cc
  ${DLSIM_SOURCE_DIR}/model/core/partitioner.cc
  ${DLSIM_SOURCE_DIR}/model/core/replayed-learning.cc
  ${DLSIM_SOURCE_DIR}/model/core/synthetic-dataset.cc
  ${DLSIM_SOURCE_DIR}/model/core/torch-version.cc
  ${DLSIM_SOURCE_DIR}/model/core/worker-pool.cc
)

# The round modes (rounds.mode): each is its own file under model/round-modes/ and one line in
# RoundModeRegistration::Builtins() (model/round-policy.cc).
file(GLOB DLSIM_ROUND_MODE_SOURCES CONFIGURE_DEPENDS ${DLSIM_SOURCE_DIR}/model/round-modes/*.cc)

# The helpers (helper/*.cc): a new underlay's helper needs no line here.
file(GLOB DLSIM_HELPER_SOURCES CONFIGURE_DEPENDS ${DLSIM_SOURCE_DIR}/helper/*.cc)

# The ns-3 layer: application, sockets, topology and link building, helpers.
set(DLSIM_NS3_LAYER_SOURCES
  ${DLSIM_ROUND_MODE_SOURCES}
  ${DLSIM_SOURCE_DIR}/model/round-policy.cc
  ${DLSIM_SOURCE_DIR}/model/access-model.cc
  ${DLSIM_SOURCE_DIR}/model/compute-time-model.cc
  ${DLSIM_SOURCE_DIR}/model/fault-plan.cc
  ${DLSIM_SOURCE_DIR}/model/learner-addresses.cc
  ${DLSIM_SOURCE_DIR}/model/learner-application.cc
  ${DLSIM_SOURCE_DIR}/model/learner-evaluator.cc
  ${DLSIM_SOURCE_DIR}/model/learning-recorder.cc
  ${DLSIM_SOURCE_DIR}/model/flow-accounting.cc
  ${DLSIM_SOURCE_DIR}/model/flow-connection.cc
  ${DLSIM_SOURCE_DIR}/model/flow-cross-traffic.cc
  ${DLSIM_SOURCE_DIR}/model/flow-events.cc
  ${DLSIM_SOURCE_DIR}/model/flow-message-transport.cc
  ${DLSIM_SOURCE_DIR}/model/flow-network.cc
  ${DLSIM_SOURCE_DIR}/model/flow-routes.cc
  ${DLSIM_SOURCE_DIR}/model/flow-sharing.cc
  ${DLSIM_SOURCE_DIR}/model/flow-window.cc
  ${DLSIM_SOURCE_DIR}/model/network-model.cc
  ${DLSIM_SOURCE_DIR}/model/evaluation-clock.cc
  ${DLSIM_SOURCE_DIR}/model/tcp-message-transport.cc
  ${DLSIM_SOURCE_DIR}/model/ns3-attribute-defaults.cc
  ${DLSIM_SOURCE_DIR}/model/link-model.cc
  ${DLSIM_SOURCE_DIR}/model/linux-cubic.cc
  ${DLSIM_SOURCE_DIR}/model/linux-prr-recovery.cc
  ${DLSIM_SOURCE_DIR}/model/linux-receive-window.cc
  ${DLSIM_SOURCE_DIR}/model/linux-tcp-socket.cc
  ${DLSIM_SOURCE_DIR}/model/outage-error-model.cc
  ${DLSIM_SOURCE_DIR}/model/overlay-graph.cc
  ${DLSIM_SOURCE_DIR}/model/overlay-topologies.cc
  ${DLSIM_SOURCE_DIR}/model/random-variable-spec.cc
  ${DLSIM_SOURCE_DIR}/model/rate-trace.cc
  ${DLSIM_SOURCE_DIR}/model/region-model.cc
  ${DLSIM_SOURCE_DIR}/model/underlay.cc
  ${DLSIM_HELPER_SOURCES}
)

# The public headers of the learning core and the ns-3 layer (what an ns-3 tree installs as
# ns3/NAME.h, with ns3/dlsim-module.h including them all).
file(GLOB DLSIM_MODULE_HEADERS CONFIGURE_DEPENDS ${DLSIM_SOURCE_DIR}/model/core/*.h
  ${DLSIM_SOURCE_DIR}/model/*.h ${DLSIM_SOURCE_DIR}/model/round-modes/*.h
  ${DLSIM_SOURCE_DIR}/helper/*.h)

# The underlays a scenario chooses with `network`: each is its own file(s) under
# runner/underlays/ and one line in UnderlayRegistration::Builtins() (runner/underlay-registry.cc).
file(GLOB DLSIM_UNDERLAY_SOURCES CONFIGURE_DEPENDS ${DLSIM_SOURCE_DIR}/runner/underlays/*.cc)
list(PREPEND DLSIM_UNDERLAY_SOURCES ${DLSIM_SOURCE_DIR}/runner/underlay-registry.cc)

# Scenario files, results and the runner behind `./dlsim run`.
set(DLSIM_RUNNER_SOURCES
  ${DLSIM_UNDERLAY_SOURCES}
  ${DLSIM_SOURCE_DIR}/runner/capture-config.cc
  ${DLSIM_SOURCE_DIR}/runner/curve-figures.cc
  ${DLSIM_SOURCE_DIR}/runner/external-command.cc
  ${DLSIM_SOURCE_DIR}/runner/figure-labels.cc
  ${DLSIM_SOURCE_DIR}/runner/figure-style.cc
  ${DLSIM_SOURCE_DIR}/runner/gnuplot-script.cc
  ${DLSIM_SOURCE_DIR}/runner/grid-scheduler.cc
  ${DLSIM_SOURCE_DIR}/runner/grid-time-left.cc
  ${DLSIM_SOURCE_DIR}/runner/grid-table.cc
  ${DLSIM_SOURCE_DIR}/runner/learning-replay.cc
  ${DLSIM_SOURCE_DIR}/runner/point-tables.cc
  ${DLSIM_SOURCE_DIR}/runner/provenance.cc
  ${DLSIM_SOURCE_DIR}/runner/result-files.cc
  ${DLSIM_SOURCE_DIR}/runner/results-plots.cc
  ${DLSIM_SOURCE_DIR}/runner/results-writer.cc
  ${DLSIM_SOURCE_DIR}/runner/run-arguments.cc
  ${DLSIM_SOURCE_DIR}/runner/run-catalogue.cc
  ${DLSIM_SOURCE_DIR}/runner/run-folder.cc
  ${DLSIM_SOURCE_DIR}/runner/run-folder-writer.cc
  ${DLSIM_SOURCE_DIR}/runner/run-index.cc
  ${DLSIM_SOURCE_DIR}/runner/run-points.cc
  ${DLSIM_SOURCE_DIR}/runner/run-signals.cc
  ${DLSIM_SOURCE_DIR}/runner/scenario-grid.cc
  ${DLSIM_SOURCE_DIR}/runner/scenario-config.cc
  ${DLSIM_SOURCE_DIR}/runner/scenario-runner.cc
  ${DLSIM_SOURCE_DIR}/runner/seed-statistics.cc
  ${DLSIM_SOURCE_DIR}/runner/sweep-figures.cc
  ${DLSIM_SOURCE_DIR}/runner/swept-values.cc
  ${DLSIM_SOURCE_DIR}/runner/time-to-target.cc
  ${DLSIM_SOURCE_DIR}/runner/tuning.cc
  ${DLSIM_SOURCE_DIR}/runner/underlay-config.cc
  ${DLSIM_SOURCE_DIR}/runner/wire-byte-counter.cc
)

# The examples, written as an ns-3 user would write them (examples/NAME.cc).
set(DLSIM_EXAMPLES dlsim-dpsgd-example dlsim-jwins-vs-choco-example dlsim-sparse-push-example
  dlsim-trace-example dlsim-lan-example)
