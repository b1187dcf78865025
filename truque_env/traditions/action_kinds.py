"""What each action of a tradition does to the stakes, in one word: the same words in every tradition.

Every tradition's ``actions`` module has ``ACTION_KIND``, one of these per action id, so that code
that reads only betting styles (the style bots of ``agents.styles``, bet statistics) needs no
tradition's catalogue.

=======  =============================================================================
kind     what the action does
=======  =============================================================================
RAISE    opens or raises a stake: an envite, envido, truco, contraflor, todo dicho
ACCEPT   accepts a stake (quiero, con flor quiero, sin ley quiero ...)
REFUSE   refuses a stake (no quiero, con flor no quiero, con flor me achico)
LEAVE    gives up the mano or its truque without being asked (baraja / mazo, la mía no vale)
PLAY     plays a card
OTHER    the rest: paso, flor, canto pares, luego te lo digo, de la mía, uno y uno
SENA     a seña: a free message that does not pass the turn
=======  =============================================================================
"""

RAISE, ACCEPT, REFUSE, LEAVE, PLAY, OTHER, SENA = range(7)
KIND_NAMES = ("raise", "accept", "refuse", "leave", "play", "other", "sena")
