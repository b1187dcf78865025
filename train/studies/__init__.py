"""Studies: the falsos and señas analysis of a policy (the package ``analysis``) and the p_intercept
experiment (``senas_experiment.py``)."""
