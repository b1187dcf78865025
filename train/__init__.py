"""Trainers (``train.ppo``) and the evaluation of policies (``train.evaluate``: duplicate matches and
reports; ``train.league``: round-robin leagues and ratings)."""
