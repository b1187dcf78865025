"""Studies: the falsos and señas analysis of a policy (``analysis.py``) and the p_intercept
experiment (``senas_experiment.py``)."""
