"""The CFR family: the solvers on a shared base (``solvers.py``: CFR, CFR+, DCFR, linear CFR and
best responses over any game of ``games.py``), the reduced Moteño games with exact answers
(``reduced.py``), the same game for OpenSpiel (``openspiel_game.py``), external-sampling
MCCFR on the full 1 contra 1 game (``mccfr.py`` with its kernels ``mccfr_kernels.py``), CFR+ in
vector form on public trees (``public_tree.py``) and the envido of truco argentino mano a mano
solved with it at every score of the juego (``envido_argentino.py``)."""
