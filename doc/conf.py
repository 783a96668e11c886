# SPDX-License-Identifier: GPL-2.0-only
# Sphinx configuration of dlsim's documentation, as ns-3's doc/models has one: doc/sphinx.sh
# builds it (./dlsim doc; the ctest doc.sphinx with warnings as errors).
project = "dlsim"
author = "the dlsim authors"
master_doc = "index"
# Doxygen's input and the figures are not chapters.
exclude_patterns = ["figures", "api.dox", "Doxyfile"]
html_theme = "alabaster"
