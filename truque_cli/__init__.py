"""truque_cli: the ``truque`` command, the top layer of the suite.

The layers run one way: engine -> traditions -> environments (``truque_env``) -> bots
(``agents``) -> trainers (``train``) -> the command line (this package), which may import any of
them and is imported by none. ``truque_cli.main`` holds the commands, ``truque_cli.play`` the
terminal game of ``truque play``.
"""
