"""A kernel package for the KernelCatalog tests: one folder per kernel."""
