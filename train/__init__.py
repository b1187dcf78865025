"""Trainers (``train.ppo.loop``) and the evaluation of policies (``train.eval.duplicate``: duplicate matches and
reports; ``train.eval.league``: round-robin leagues and ratings)."""
