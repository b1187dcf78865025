"""``HeuristicPolicy``: a rule-based truquista for Truque Moteño that reads only what a player sees.

The package, along its seams: ``config.py`` (every threshold and weight), ``hands.py`` (every
three-card hand with its valuations and honest seña, and the probabilities read from them),
``view.py`` (the observation read once per decision, by the names of ``observation.PARTS``),
``reference.py`` (the decisions, in readable Python: the specification), the same decisions as
numba kernels over a batch in four modules, each built on the ones before it (``reading.py``: the
observation read into one row's array; ``odds.py``: what a hand is worth; ``answers.py``: the
seña and the answers to a bet; ``kernels.py``: the calls, the card and the batch),
``simulation.py`` (the truque played out by numba, for ``odds.py``) and ``policy.py``
(``HeuristicPolicy`` over the kernels).

It decides from the observation tensor (``truque_env.traditions.moteno.observation``) and the legal mask,
never from the engine state, so it plays in every interface (vector env, PettingZoo, Gymnasium,
the console). Whatever it prefers, it only ever returns an action whose mask entry is 1.

How it judges a hand (Reglamento del Truque Moteño, cited "Art. x.y"):

* **Pares and flores** (Arts. 5, 9): its own value comes from its *dealt* hand (the ``hand``
  slice shrinks as cards are played; ``played_by[0]`` gives the rest back). Every other player's
  value is a distribution over the hands he may hold: all three-card hands without the cards the
  bot knows are elsewhere, containing the cards that player has played or shown, and, for a
  partner who made a seña, only the hands for which that seña is the honest one (the table of
  señas below). The chance that *its team* shows the best value follows exactly from these
  distributions (ties go to the player closest to mano, Arts. 6.22, 11.6).
* **Truque** (Arts. 13, 14, 16): ``simulate_truque`` (numba) deals the cards it has not seen to
  the other players' remaining slots (a partner's signalled card stays in his hand, a partner
  who signalled "ciega" or "flor" gets nothing from the doses up), then plays the rest of the
  bazas out with the card rules below for everybody, from the bazas already decided
  (``baza_result``) and the cards on the table (``TRUQUE_POWER``); the pardas rules decide. This
  gives P(win the truque) for each card it may play now.
* **Card play**: win the baza cheaply (the lowest card that beats the table and likely holds
  against the rivals still to play), otherwise throw the lowest; never overtake a partner who is
  winning the baza; after winning the first baza lead low and keep the matas and piezas for the
  last; a parda where it wins or saves the truque. With ``lookahead`` the rules' card is played
  unless the simulation finds another clearly better.
* **Stakes**: a bet is worth taking when it raises the chance of winning the juego, estimated by
  a race model of the score (``score``, ``target_falta``: la falta, Art. 6.16, and being close to
  the target make it careful when behind and bold when a win ends the juego).

Speed (``python benchmarks/bench_heuristic.py --before <checkout of 06a675b>``, this 2-core machine, idle):
the kernels decide 31,600 rows per second in 1 contra 1 and 15,400 in 3 contra 3 with decision keys
(rows in parallel), against 4,900 and 3,300 for the per-row Python bot of 06a675b in the same run;
a duplicate evaluation against random plays 3.2 (1v1) and 2.9 (3v3) times as many juegos per second.
Without keys (the bot's own generator) the rows are decided in order, on one core.

Señas (ruling 3) are honest: once per mano, at its first chance, with probability ``sena_rate``,
it names its best card in this order: perro (11B), perra (10O), cascabel (11O), espada (1E),
basto (1B), mata de espadas (7E), mata de oros (7O), tres, dos; else "flor" if it holds flor,
else "ciega". Falsos (Art. 17.13) come only from ``bluff_envite`` / ``bluff_truco``.

Parameters (``HeuristicConfig``; ``HeuristicConfig.from_dict`` reads a dict or a TOML table):

========================  =======  =================================================================
field                     default  meaning
========================  =======  =================================================================
sena_rate                 0.9      probability of making its honest seña in a mano (at first chance)
use_partner_senas         True     condition partners' hands on their señas (assumed honest)
pares_bet                 0.62     open an envite de pares when P(team wins the pares) >= this
pares_raise               0.78     revoke (or open with ``envío 3 pares``) from this probability
pares_falta               0.88     send / revoke la falta from this probability (score permitting)
flor_bet                  0.62     open the envite de flores when P(team's flor is best) >= this
flor_raise                0.78     revoke an envite de flores from this probability
flor_falta                0.9      send / revoke la falta with the flores from this probability
hide_reservada            True     keep a flor reservada unsung to play the pares (Arts. 10.14, 10.19)
truco_challenge           0.8      say truco when P(team wins the truque) >= this
truco_raise               0.88     retruco / panueve from this probability
respect                   0.08     subtracted from its win probability per rival bet it answers
                                   (an honest rival bets with good cards)
defer                     0.06     team answers: with partners still to answer, accept only when
                                   this much surer; count each partner who declined before as -defer/2
accept_margin             0.0      extra juego equity an accepted bet must bring over refusing
equity_exponent           1.5      race model: P(win juego) = (nb*e)^g / ((nb*e)^g + na^g), na/nb
                                   the chinas each team still needs, g this exponent
skill_edge                4.0      e in the race model: > 1 when it expects to outplay the rivals
                                   (it then avoids coin flips for the juego)
hold_threshold            0.6      play the cheapest winning card that holds against the rivals still
                                   to play with at least this probability
lookahead                 True     check the rules' card against the simulated truque and play a card
                                   whose odds are better by more than ``lookahead_margin``
lookahead_margin          0.02     (see ``lookahead``)
samples                   200      deals simulated to estimate the truque (``simulate_truque``)
bluff_envite              0.04     per mano, probability of a falso envite with weak pares (below
                                   ``pares_bet``)
bluff_truco               0.04     per mano, probability of a falso truco with a weak hand
blind_envite              0.02     blind round: probability of ``envío N pares`` a ciegas (Art. 7)
blind_envite_pares        1        N of that blind envite
blind_truco               0.0      blind round: probability of truco a ciegas (Art. 15)
bluff_envite_pares        1        N of the falso envite: ``envío N pares`` (la falta when it is less)
========================  =======  =================================================================

What it does in each phase: ``blind``: ``paso`` (rarely a blind bet), defers any blind bet it
must answer (``luego te lo digo``, Arts. 7.2, 15.2); ``close``/``answer``: answers pares, truco
and flores bets by the stakes and its win probability, la falta a ciegas with or without its
flor (Art. 12); ``cante``: flor if it holds one (else ``canto pares``); ``flor_round``: sings
any flor it may; ``flor_envite``: bets with a strong flor; ``reservada``: sings when its
reservada likely wins (12.13); ``play``: seña, ``de la mía``, flor, envite, truco, then a card.
"""

from agents.heuristic.config import HeuristicConfig
from agents.heuristic.hands import honest_sena
from agents.heuristic.policy import HeuristicPolicy, make_policy
from agents.heuristic.reference import ReferenceHeuristic
from agents.heuristic.simulation import simulate_truque, simulate_truque_cards
from agents.heuristic.view import View

__all__ = ["HeuristicConfig", "HeuristicPolicy", "ReferenceHeuristic", "View", "honest_sena", "make_policy", "simulate_truque",
           "simulate_truque_cards"]
