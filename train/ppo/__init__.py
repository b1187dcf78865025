"""PPO: the loop (``loop.py``, ``python -m train.ppo.loop``, ``truque train ppo``), its rollouts
(``rollout.py``), rollouts on Ray actors (``ray_workers.py``) and behaviour cloning (``bc.py``).
The network, its features and the checkpoint reader are the bot's (``agents/``)."""
