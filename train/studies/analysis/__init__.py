"""Did a team agent learn *señas* (partner signals) and *falsos* (bluffs)? Measurements on self-play.

Every measurement takes any policy object with ``act_batch(obs, mask)`` (or ``act``) and, when
it has one, ``action_probs(obs, mask)`` (``agents.base``): the bots by name (``random``,
``heuristic``, ``heuristic_sin_senas``) or a PPO checkpoint (``agents.registry.load_policy``).
Play is self-play on a ``VectorEnv`` (``episode="mano"``): the policy holds every seat; ``seed``
seeds the deals and the resampling, the policy's own randomness is its own (seed it when you load
it). Same policy seed and same ``seed``: the same numbers. The referee reads the table state before
each decision (``layout`` fields: ``HAND``, ``HAND_PLAYED``, ``PARES_VAL``, ``FLOR_VAL``) and, for
the outcome of bets, a copy stepped with the same action (as ``train.eval.duplicate`` does).

**1. Who signals what** — ``collect_senas``. One record per decision at which the player to act
could make a seña (a seña action was legal): the seña he made (``0..10``, ``SENA_NAMES``) or
``NO_SENA`` (11, "ninguna") when he did something else, and his hand at that moment (the three
dealt cards, which of them are unplayed, valor de pares and de flor).

**2. Do señas carry information about the hand?** — ``senas_mutual_information``. The mutual
information, in bits, between the symbol ``S`` (the seña made, or "ninguna", 12 symbols) and a
hand feature ``H`` over those decisions::

    I(S; H) = H(S) + H(H) - H(S, H),    H(X) = -sum_x p(x) log2 p(x)

with the plug-in (empirical) probabilities and the **Miller–Madow** bias correction: each entropy
gets ``(m - 1) / (2 N ln 2)`` bits added, ``m`` the number of cells seen, ``N`` the decisions (the
plug-in MI of independent variables is biased upwards by about ``(|S|-1)(|H|-1) / (2 N ln 2)``;
the corrected estimate may come out slightly below 0). 95% CI: **basic (pivotal) bootstrap**
resampling whole manos (decisions within a mano are not independent): with ``T`` the estimate,
``T*`` its value on a resample and ``P`` the plug-in MI of the data (the MI of the distribution
the resamples come from), the interval is ``[T - q97.5(T* - P), T - q2.5(T* - P)]``; it may reach
below 0. (A plain percentile interval would inherit the plug-in bias twice and exclude a true 0.)
Hand features:

* ``honest:<seña>`` (11 binary features): "that seña would be honest for this hand", the
  evaluator's definition (``train.eval.duplicate``): a card seña (perro, perra, cascabel, espada, basto,
  mata de espadas, mata de oros) if that card is unplayed in the hand; ``tres`` / ``dos`` if an
  unplayed three / two; ``flor`` if the hand has flor; ``ciega`` if none of the cards the other
  señas name is unplayed.
* ``hand_class`` (11 classes, the joint feature): the first seña, in ``SENA_NAMES`` order, that
  is honest for the hand: its best card as the señas name it, else flor, else ciega. (The
  heuristic bot signals exactly this class of its dealt hand, so for it ``among_senas_made``
  below equals the entropy of its señas; a learned code may use another mapping of hands to
  señas, which the MI detects all the same: it does not care which seña means what.)
* ``pares_bin`` (5 classes): the valor de pares bin of the bets below (a code about pares).

``among_senas_made`` repeats ``hand_class`` over the señas actually made ("which seña", without
"whether"), and ``honesty`` gives the share of honest señas per seña (Wilson CI; a *falso* seña
is a dishonest one).

**3. Do partners listen?** — ``causal_influence`` (social influence, Jaques et al. 2019). At
every decision of a player whose observation shows a teammate's seña (``senas_seen`` row of a
partner, relative seat 2, 4, 6) and who has at least two legal actions, for that teammate: the
player's action distribution ``p = π(·|o)`` and the counterfactual ones ``p_k = π(·|o_k)``, where
``o_k`` is ``o`` with that teammate's ``senas_seen`` row replaced by one seña ``k`` (11 options) or
by none (1 option). The marginal ``q`` is the mean of the ``p_k`` over these 12 alternatives (the
actual one is among them, so ``q >= p / 12``: Jaques's marginal with a uniform prior over the
teammate's alternatives). Reported: mean ``KL(p || q)`` in bits (at most log2 12 = 3.58), mean
total variation ``TV(p, q) = 1/2 sum |p - q|``, the share of units where some alternative changes
``p``, with bootstrap CIs over manos. A policy that ignores partners' señas scores exactly 0.
Policies without ``action_probs`` (the heuristic) count as the one-hot of their action, and their
internal randomness is held fixed across the alternatives of a unit (each alternative is asked of
a copy of the policy in the same state: common random numbers), so only the seña makes a
difference. ``max_decisions`` caps the units (a seeded subsample) since each costs 12 calls.

**4. What are señas worth?** — ``SenasAblated(policy)`` is the policy with its señas channel
cut: it never makes a seña while another action is legal (the seña actions are removed from its
mask, i.e. its distribution is renormalised over the rest) and the ``senas_seen`` rows of every
other seat are zeroed in what it sees. ``senas_ablation`` plays a duplicate-deal match
(``train.eval.duplicate.play_match``) of the full policy (side A) against its ablated self (side B)
and returns A's win rate over juegos with Wilson and paired-bootstrap CIs.

**5. Does it bluff?** — ``bet_frequencies``. Over decisions with the cards seen where the bet
was legal (a seña decision is not counted: the seña does not pass the turn), how often the player

* *bets pares* (``envío N pares`` / ``envío la falta`` opening or revoking the envite de pares),
  by the valor de pares of his hand (Art. 5; values 0..61), bins ``<20`` (no pareja: the
  evaluator's *weak* pares), ``20-24``, ``25-29``, ``30-34``, ``35+``;
* *challenges the truque* (``truco`` / ``retruco`` / ``panueve``, the evaluator's challenge), by
  hand strength: ``débil`` (no unplayed card of truque power >= the treses and no baza won by his
  team: the evaluator's *weak* truco), ``sin tres, baza ganada`` (no such card but a baza won),
  then by his best unplayed card: ``tres``, ``mata`` (espada, basto, mata de espadas, mata de
  oros), ``pieza`` (perro, perra, cascabel).

and, per bin, the share of bets *won without a showdown* (the bet was the last raise of its
exchange and the rivals answered ``no quiero``), as ``train.eval.duplicate`` defines it. Rates carry
Wilson 95% CIs. The ``weak`` section of ``BetFrequencies.to_dict()`` gives the evaluator's
numbers (bin 0 against the rest: ``bet_when_weak``, ``bet_when_strong``,
``weak_won_without_showdown``, ...). ``plot_bet_frequencies`` draws the bet rates by bin, one
line per policy.

The package, one module per measurement: ``selfplay.py`` (the self-play they all play), ``senas.py``
(1, 2), ``influence.py`` (3), ``ablation.py`` (4), ``bets.py`` (5 and the plot), ``cli.py`` (the
command line and ``run``, all of them into one JSON).

Run it (``--juegos N`` adds the ablation match; ``--compare`` adds policies to the plot)::

    python -m train.studies.analysis --policy heuristic --team-size 3 --manos 2000 --out results.json \\
        --plot bets.png --compare random
"""

from __future__ import annotations

from train.eval.styles.moteno import PARES_BINS, pares_bin
from train.studies.analysis.ablation import SenasAblated, senas_ablation, senas_ablation_against
from train.studies.analysis.bets import (
    BetFrequencies,
    bet_frequencies,
    plot_bet_frequencies,
    truco_bin,
)
from train.studies.analysis.cli import AnalysisConfig, main, run
from train.studies.analysis.influence import InfluenceUnits, causal_influence, influence_units
from train.studies.analysis.selfplay import NO_SENA, SYMBOLS, TRUCO_BINS
from train.studies.analysis.senas import (
    SenaRecords,
    collect_senas,
    hand_class,
    honest_conditions,
    mutual_information_bits,
    senas_mutual_information,
)

__all__ = [
    "NO_SENA", "PARES_BINS", "SYMBOLS", "TRUCO_BINS", "AnalysisConfig", "BetFrequencies", "InfluenceUnits",
    "SenaRecords", "SenasAblated", "bet_frequencies", "causal_influence", "collect_senas", "hand_class",
    "honest_conditions", "influence_units", "main", "mutual_information_bits", "pares_bin",
    "plot_bet_frequencies", "run", "senas_ablation", "senas_ablation_against", "senas_mutual_information",
    "truco_bin",
]
