"""``ArgentinoHeuristic``: a rule-based player of truco argentino whose decisions are one numba
kernel over a batch (``kernels.decide_batch``), so that a duplicate match against it costs no
Python per table.

It values its envido and flor from its three cards (the ``hand`` and ``played_by`` slices), the
truco from the cards it has not seen (``kernels._truco_chance``), and bets and answers by
thresholds that move with the score and la falta; it plays the lowest card that takes the baza
when its team is not already winning it, the lowest otherwise; it makes honest señas in team
games (ancho de espadas, ancho de basto, siete de espadas, siete de oros, tres, dos, flor,
nada: its best card) and plays its partners' strong señas into its truco chance.

Parameters (``ArgentinoHeuristicConfig``). Chances are of its *team* (its partners counted as
random hands, better when they signalled a strong card); bets are answered in juego equity
(``kernels._equity``: a race to the target in which it expects to outplay the rivals by
``skill_edge``), so a bet that could end the juego is taken only when the juego is worth it.

==================  =======  ==============================================================
field               default  meaning
==================  =======  ==============================================================
envido_open         0.55     say envido when P(my team's envido is the best) is at least this
envido_real         0.86     real envido (opening or raising) from this chance
envido_falta        0.95     falta envido from this chance, when worth it in juego equity
envido_respect      0.0      subtracted from that chance when answering a rival's envido
truco_respect       0.0      subtracted from the truco chance when answering a rival's call
truco_call          0.50     say truco when P(my team takes the truco) is at least this
truco_raise         0.70     retruco / vale cuatro (and a double answer's raise) from this chance
bluff_envido        0.05     a falso envido with a weak envido, per decision
bluff_truco         0.06     a falso truco with a weak hand, per decision
sena_rate           0.9      make the honest seña at the first chance (team games)
skill_edge          4.0      the race model's edge (1: even rivals)
equity_exponent     1.5      the race model's exponent
todo_dicho_falta    6        say todo dicho when ahead and the falta (what it lacks) is this small
bluff_falta         0.0      open with the falta envido whatever the hand, per chance (1.0: the
                             registry's ``heuristic_faltero``, the exploiters' weapon)
==================  =======  ==============================================================

Against ``random`` it wins 96.0% of 2,000 duplicate juegos in 1 contra 1 and 96.5% in 2 contra 2
(``benchmarks/results/argentino_heuristic_vs_random_{1v1,2v2}.json``, ``truque evaluate
--tradition argentino --a heuristic --b random --team-size N --juegos 2000``). The respects are
0: tuned against a player that bets at random; against players who bet on their cards they
should be positive (issue 17: bots that are strong against everyone).
"""

from agents.heuristic_argentino.policy import (
    ArgentinoHeuristic,
    ArgentinoHeuristicConfig,
    make_policy,
)

__all__ = ["ArgentinoHeuristic", "ArgentinoHeuristicConfig", "make_policy"]
