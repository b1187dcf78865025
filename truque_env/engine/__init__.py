"""The numba engine: state layout (layout.py), action catalogue (actions.py), kernels (kernels.py, batch.py)."""
