"""Simulation-side Python helpers: stress-workload scenes and the core stepper wrappers."""
